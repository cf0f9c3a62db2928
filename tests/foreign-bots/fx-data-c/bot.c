// fx-data-c: a C bot reading its data folder with C's stdio (wasi-libc, through the preview1
// adapter the build links): at start-up it logs `data read table: ok <bytes>` with the size of
// /data/table.txt, or `data read table: denied (<errno name>)`, and `data write: denied (...)` or
// `data write: ok` for creating /data/new.txt; then it plays the first legal move.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arena_azul.h"
#include "arena_log.h"

void exports_arena_azul_player_init(exports_arena_azul_player_init_info_t *info) {
  (void)info;
  FILE *table = fopen("/data/table.txt", "rb");
  if (table) {
    char buffer[4096];
    size_t read = fread(buffer, 1, sizeof buffer, table);
    fclose(table);
    arena_logf(ARENA_LOG_INFO, "data read table: ok %zu", read);
  } else {
    arena_logf(ARENA_LOG_INFO, "data read table: denied (%s)", strerror(errno));
  }
  FILE *created = fopen("/data/new.txt", "wb");
  if (created) {
    fclose(created);
    arena_log(ARENA_LOG_INFO, "data write: ok");
  } else {
    arena_logf(ARENA_LOG_INFO, "data write: denied (%s)", strerror(errno));
  }
}

void exports_arena_azul_player_take_turn(exports_arena_azul_player_view_t *view,
                                         exports_arena_azul_player_action_t *ret) {
  if (arena_azul_legal_moves(view, ret, 1) == 0) arena_azul_fallback_move(view, ret);
  arena_azul_view_free(view);
}
