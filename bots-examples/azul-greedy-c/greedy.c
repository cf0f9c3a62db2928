// azul-greedy-c: the Rust `azul-greedy` in C. Plays the legal move with the best immediate score
// change (placement points of a completed pattern line minus the floor penalty it causes); ties go
// to the first move in legal-move order, so it is deterministic without randomness and picks the
// same moves as the Rust bot.
#include "arena_azul.h"
#include "arena_log.h"

// Logs one line per start, which shows up in the replay's start-up log.
void exports_arena_azul_player_init(exports_arena_azul_player_init_info_t *info) {
  arena_logf(ARENA_LOG_INFO, "azul-greedy-c: seat %u, restart %u", (unsigned)info->seat,
             (unsigned)info->restart_count);
}

void exports_arena_azul_player_take_turn(exports_arena_azul_player_view_t *view,
                                         exports_arena_azul_player_action_t *ret) {
  arena_azul_move_t moves[ARENA_AZUL_MAX_MOVES];
  size_t count = arena_azul_legal_moves(view, moves, ARENA_AZUL_MAX_MOVES);
  // No legal move only when the table is empty, which the engine never asks about; the Rust bot
  // answers the same constant.
  *ret = (arena_azul_move_t){.source = ARENA_AZUL_CENTER, .colour = ARENA_AZUL_TYPES_COLOUR_GREEN,
                             .line = ARENA_AZUL_FLOOR_LINE};
  int32_t best = 0;
  for (size_t i = 0; i < count; i++) {
    int32_t gain = arena_azul_score_if_placed(view, &moves[i]);
    if (i == 0 || gain > best) {
      best = gain;
      *ret = moves[i];
    }
  }
  arena_azul_view_free(view);
}
