// azul-trivial-c: the smallest complete C bot. It plays the first legal move in the SDK's order.
#include "arena_azul.h"

// Called once per instance (and after every restart); this bot keeps no state.
void exports_arena_azul_player_init(exports_arena_azul_player_init_info_t *info) { (void)info; }

// Called on every turn: write the move to `ret`. The view is the bot's to free.
void exports_arena_azul_player_take_turn(exports_arena_azul_player_view_t *view,
                                         exports_arena_azul_player_action_t *ret) {
  if (arena_azul_legal_moves(view, ret, 1) == 0) arena_azul_fallback_move(view, ret);
  arena_azul_view_free(view);
}
