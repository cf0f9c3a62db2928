// fx-trivial-cpp: azul-trivial-c's strategy written in C++ against the same C bindings. It plays
// the first legal move in the SDK's order, going through libc++ (a vector and an algorithm) so
// that a build without the C++ library fails to link.
#include <algorithm>
#include <vector>

#include "arena_azul.h"

// Called once per instance (and after every restart); this bot keeps no state.
void exports_arena_azul_player_init(exports_arena_azul_player_init_info_t *info) { (void)info; }

// Called on every turn: write the move to `ret`. The view is the bot's to free.
void exports_arena_azul_player_take_turn(exports_arena_azul_player_view_t *view,
                                         exports_arena_azul_player_action_t *ret) {
  std::vector<arena_azul_move_t> moves(ARENA_AZUL_MAX_MOVES);
  moves.resize(arena_azul_legal_moves(view, moves.data(), moves.size()));
  // The SDK lists moves in order; the smallest index is the first.
  auto first = std::min_element(moves.begin(), moves.end(),
                                [&](const arena_azul_move_t &a, const arena_azul_move_t &b) { return &a < &b; });
  if (first != moves.end()) {
    *ret = *first;
  } else {
    arena_azul_fallback_move(view, ret);
  }
  arena_azul_view_free(view);
}
