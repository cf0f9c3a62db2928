// Azul rule helpers for C bots: the legal moves of a view in the Rust SDK's order, the immediate
// score of a move and the engine's fallback move. They mirror `games/azul/src/rules.rs` (through
// `games/azul/src/view.rs`), the functions the engine itself uses, so a C bot and a Rust bot
// given the same view see the same moves in the same order and the same scores.
//
// Header-only (every function is `static inline`): include it from any number of files. It needs
// the Azul bindings, `guest-sdk/c/bindings/azul/bot.h`, on the include path (the build adds it).
//
// Conventions: sources are 0 (the center) and 1..=5 (factory i is source i); pattern lines are
// 0..=4 and 5 is the floor line; colours are the ARENA_AZUL_TYPES_COLOUR_* values (green, orange,
// blue, yellow, red); wall row r, column c takes colour (c - r) mod 5; the wall is a bit set,
// bit 5 * row + column.
#ifndef ARENA_AZUL_H
#define ARENA_AZUL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot.h"

#ifndef ARENA_AZUL_TYPES_COLOUR_GREEN
#error "arena_azul.h needs the Azul bindings: the bot's bot.json must say \"game\": \"azul\""
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef arena_azul_types_view_t arena_azul_view_t;
typedef arena_azul_types_action_t arena_azul_move_t;

// Source id of the table center; factories are 1..=ARENA_AZUL_FACTORIES.
#define ARENA_AZUL_CENTER 0
#define ARENA_AZUL_FACTORIES 5
// Line id of the floor line (pattern lines are 0..=4).
#define ARENA_AZUL_FLOOR_LINE 5
#define ARENA_AZUL_FLOOR_SLOTS 7
#define ARENA_AZUL_COLOURS 5
// Room for every legal move: 6 sources x 5 colours x 6 lines.
#define ARENA_AZUL_MAX_MOVES ((ARENA_AZUL_FACTORIES + 1) * ARENA_AZUL_COLOURS * (ARENA_AZUL_FLOOR_LINE + 1))
// The colour byte of an empty pattern line in the view's `lines`.
#define ARENA_AZUL_NO_COLOUR 255

// One seat's board, gathered from the view (which sends both boards' fields side by side).
typedef struct arena_azul_board_t {
  // The 5 pattern lines, 2 bytes each: tile count, then colour (ARENA_AZUL_NO_COLOUR if empty).
  const uint8_t *lines;
  // The wall as a bit set: bit 5 * row + column.
  uint32_t wall;
  // Occupied floor slots, 0..=7 (the starting-player marker counts).
  uint8_t floor_len;
  // Current score, never below 0.
  uint32_t score;
} arena_azul_board_t;

// Tiles of `colour` in `counts` (one source's 5 per-colour counts); 0 for a colour out of range.
static inline uint8_t arena_azul_count(const uint8_t *counts, arena_azul_types_colour_t colour) {
  return colour < ARENA_AZUL_COLOURS ? counts[colour] : 0;
}

// The 5 tile counts of `source` (0 = center, 1..=5 = factories), indexed by colour; NULL if
// there is no such source.
static inline const uint8_t *arena_azul_source(const arena_azul_view_t *view, uint8_t source) {
  size_t at = (size_t)source * ARENA_AZUL_COLOURS;
  if (source > ARENA_AZUL_FACTORIES || view->tiles.len < at + ARENA_AZUL_COLOURS) return NULL;
  return view->tiles.ptr + at;
}

// The board of `seat` (0 or 1) written to `board`; false (and `board` untouched) for another seat.
static inline bool arena_azul_board(const arena_azul_view_t *view, uint8_t seat, arena_azul_board_t *board) {
  if (seat > 1 || view->lines.len < 20) return false;
  board->lines = view->lines.ptr + 10 * seat;
  board->wall = seat == 0 ? view->walls.f0 : view->walls.f1;
  board->floor_len = seat == 0 ? view->floor_lens.f0 : view->floor_lens.f1;
  board->score = seat == 0 ? view->scores.f0 : view->scores.f1;
  return true;
}

// Tiles on pattern line `row` (0..=4) of `board`; 0 for another row.
static inline uint8_t arena_azul_line_count(const arena_azul_board_t *board, unsigned row) {
  return row < 5 ? board->lines[2 * row] : 0;
}

// The colour on pattern line `row` of `board`, or -1 when the line is empty (or no such row).
static inline int arena_azul_line_colour(const arena_azul_board_t *board, unsigned row) {
  uint8_t colour = row < 5 ? board->lines[2 * row + 1] : ARENA_AZUL_NO_COLOUR;
  return colour < ARENA_AZUL_COLOURS ? (int)colour : -1;
}

// Frees the lists in `view`: the view belongs to the bot (the bindings' convention for an
// export's arguments), so a bot calls this once it is done with the view, at the latest at the
// end of its turn; the helpers below must not be given the view afterwards.
static inline void arena_azul_view_free(arena_azul_view_t *view) { arena_azul_types_view_free(view); }

// Whether wall space (`row`, `col`) holds a tile (false off the wall).
static inline bool arena_azul_wall_has(uint32_t wall, unsigned row, unsigned col) {
  return row < 5 && col < 5 && (wall >> (5 * row + col)) & 1u;
}

// The wall column where `colour` goes in row `row` (rules::wall_column).
static inline unsigned arena_azul_wall_column(unsigned row, arena_azul_types_colour_t colour) {
  return (row % 5 + colour) % 5;
}

// Whether `colour` may go on `line` of `board` (rules::check_line): the floor always; a pattern
// line that is not full, is empty or already holds `colour`, and whose wall row lacks `colour`.
static inline bool arena_azul_line_accepts(const arena_azul_board_t *board, uint8_t line,
                                           arena_azul_types_colour_t colour) {
  if (line == ARENA_AZUL_FLOOR_LINE) return true;
  if (line >= 5) return false;
  if (arena_azul_line_count(board, line) > line) return false;
  int held = arena_azul_line_colour(board, line);
  if (held >= 0 && held != (int)colour) return false;
  return !arena_azul_wall_has(board->wall, line, arena_azul_wall_column(line, colour));
}

// Whether the view's own player may play `mv` (rules::check_move).
static inline bool arena_azul_is_legal(const arena_azul_view_t *view, const arena_azul_move_t *mv) {
  arena_azul_board_t board;
  const uint8_t *counts = arena_azul_source(view, mv->source);
  if (!arena_azul_board(view, view->seat, &board) || counts == NULL || mv->line > ARENA_AZUL_FLOOR_LINE) return false;
  if (arena_azul_count(counts, mv->colour) == 0) return false;
  return arena_azul_line_accepts(&board, mv->line, mv->colour);
}

// Writes the view's legal moves to `moves`, at most `capacity` of them, in the Rust SDK's order
// (rules::legal_moves: source ascending, then colour order, then line 0..=5 with the floor
// last), and returns how many it wrote. ARENA_AZUL_MAX_MOVES is room for all; a capacity of 1
// gives the first legal move without computing the rest.
static inline size_t arena_azul_legal_moves(const arena_azul_view_t *view, arena_azul_move_t *moves,
                                            size_t capacity) {
  arena_azul_board_t board;
  size_t n = 0;
  if (!arena_azul_board(view, view->seat, &board)) return 0;
  for (uint8_t source = 0; source <= ARENA_AZUL_FACTORIES; source++) {
    const uint8_t *counts = arena_azul_source(view, source);
    if (counts == NULL) return n;
    for (arena_azul_types_colour_t colour = 0; colour < ARENA_AZUL_COLOURS; colour++) {
      if (arena_azul_count(counts, colour) == 0) continue;
      for (uint8_t line = 0; line <= ARENA_AZUL_FLOOR_LINE; line++) {
        if (!arena_azul_line_accepts(&board, line, colour)) continue;
        if (n == capacity) return n;
        moves[n++] = (arena_azul_move_t){.source = source, .colour = colour, .line = line};
      }
    }
  }
  return n;
}

// Points for a tile placed at (`row`, `col`) on `wall`, which must not hold it yet
// (rules::placement_score): 1 with no orthogonal neighbour, else the horizontal run through it
// when at least 2 long plus the vertical run likewise.
static inline int32_t arena_azul_placement_score(uint32_t wall, unsigned row, unsigned col) {
  if (row >= 5 || col >= 5) return 0;
  unsigned h = 1, v = 1;
  for (unsigned c = col; c-- > 0 && arena_azul_wall_has(wall, row, c);) h++;
  for (unsigned c = col + 1; c < 5 && arena_azul_wall_has(wall, row, c); c++) h++;
  for (unsigned r = row; r-- > 0 && arena_azul_wall_has(wall, r, col);) v++;
  for (unsigned r = row + 1; r < 5 && arena_azul_wall_has(wall, r, col); r++) v++;
  int32_t score = (h >= 2 ? (int32_t)h : 0) + (v >= 2 ? (int32_t)v : 0);
  return score == 0 ? 1 : score;
}

// The score change of `len` occupied floor slots (rules::floor_penalty): 0 or negative.
static inline int32_t arena_azul_floor_penalty(unsigned len) {
  static const int32_t penalties[ARENA_AZUL_FLOOR_SLOTS] = {-1, -1, -2, -2, -2, -3, -3};
  int32_t total = 0;
  for (unsigned slot = 0; slot < len && slot < ARENA_AZUL_FLOOR_SLOTS; slot++) total += penalties[slot];
  return total;
}

// The immediate score change `mv` would cause for the view's own player (View::score_if_placed):
// placement points if it completes its pattern line (against the current wall), plus the extra
// (negative) floor penalty of its overflow tiles and of the marker if taken now, within the 7
// slots. Not clamped at 0. An illegal move gives 0.
static inline int32_t arena_azul_score_if_placed(const arena_azul_view_t *view, const arena_azul_move_t *mv) {
  if (!arena_azul_is_legal(view, mv)) return 0;
  arena_azul_board_t board;
  arena_azul_board(view, view->seat, &board);
  unsigned taken = arena_azul_count(arena_azul_source(view, mv->source), mv->colour);
  bool takes_marker = mv->source == ARENA_AZUL_CENTER && view->center_has_marker;
  // rules::split_tiles: the line first, then the marker's floor slot, then overflow tiles.
  bool pattern = mv->line < 5;
  unsigned count = pattern ? arena_azul_line_count(&board, mv->line) : 0;
  unsigned room = 0;
  if (pattern && count < mv->line + 1u) room = mv->line + 1u - count;
  unsigned to_line = taken < room ? taken : room;
  unsigned overflow = taken - to_line;
  unsigned free_slots = board.floor_len < ARENA_AZUL_FLOOR_SLOTS ? ARENA_AZUL_FLOOR_SLOTS - board.floor_len : 0;
  bool marker_on_floor = takes_marker && free_slots > 0;
  if (marker_on_floor) free_slots--;
  unsigned to_floor = overflow < free_slots ? overflow : free_slots;
  // rules::score_change.
  int32_t points = 0;
  if (pattern && to_line > 0 && count + to_line == mv->line + 1u) {
    points = arena_azul_placement_score(board.wall, mv->line, arena_azul_wall_column(mv->line, mv->colour));
  }
  unsigned before = board.floor_len;
  unsigned after = before + to_floor + (marker_on_floor ? 1 : 0);
  return points + arena_azul_floor_penalty(after) - arena_azul_floor_penalty(before);
}

// The move the engine plays for a bot that gives none (rules::fallback_move): from the lowest
// non-empty source, the colour with the fewest tiles there (ties: colour order), all to the floor.
// Writes it to `mv` and returns true; false when the table is empty.
static inline bool arena_azul_fallback_move(const arena_azul_view_t *view, arena_azul_move_t *mv) {
  for (uint8_t source = 0; source <= ARENA_AZUL_FACTORIES; source++) {
    const uint8_t *counts = arena_azul_source(view, source);
    if (counts == NULL) return false;
    int best = -1;
    for (arena_azul_types_colour_t colour = 0; colour < ARENA_AZUL_COLOURS; colour++) {
      uint8_t count = arena_azul_count(counts, colour);
      if (count > 0 && (best < 0 || count < arena_azul_count(counts, (arena_azul_types_colour_t)best))) best = colour;
    }
    if (best >= 0) {
      *mv = (arena_azul_move_t){.source = source, .colour = (arena_azul_types_colour_t)best,
                                .line = ARENA_AZUL_FLOOR_LINE};
      return true;
    }
  }
  return false;
}

#ifdef __cplusplus
}
#endif
#endif
