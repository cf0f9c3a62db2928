// Azul bots in JavaScript: the view a bot's `act(view)` gets, the rule helpers (the same rules,
// in the same order, as the engine's `games/azul/src/rules.rs` and the Rust SDK's view), and
// `azulBot`, which makes the world's `player` export.
//
//   import { azulBot } from "./arena/azul.js";
//   class Bot { act(view) { return view.legalMoves()[0]; } }
//   export const player = azulBot(Bot);
//
// Colours are strings in colour order: "green", "orange", "blue", "yellow", "red"; their index
// in COLOURS is their column on wall row 0. A move is `{ source, colour, line }`: source 0 is the
// table center, 1..=5 a factory; line 0..=4 a pattern line, 5 (FLOOR_LINE) the floor.

import { exportBot, turnInfo } from "./common.js";

export { log, Rng } from "./common.js";

/** The colours, in the one order everything uses. */
export const COLOURS = Object.freeze(["green", "orange", "blue", "yellow", "red"]);
/** Source 0: the table center. */
export const CENTER = 0;
/** Factory displays: sources 1..=FACTORIES. */
export const FACTORIES = 5;
/** Line 5: the floor line (always legal). */
export const FLOOR_LINE = 5;
/** Floor slots. */
export const FLOOR_SLOTS = 7;

const COLOUR_INDEX = { green: 0, orange: 1, blue: 2, yellow: 3, red: 4 };

/**
 * Every move there is, frozen: `MOVES[source][colourIndex][line]`. Built once when the bot is
 * built (componentize-js snapshots the module after it is evaluated), so `legalMoves` hands
 * out these objects instead of allocating new ones every turn.
 */
export const MOVES = Object.freeze(
  Array.from({ length: FACTORIES + 1 }, (_, source) =>
    Object.freeze(
      COLOURS.map((colour) =>
        Object.freeze(Array.from({ length: FLOOR_LINE + 1 }, (_, line) => Object.freeze({ source, colour, line }))),
      ),
    ),
  ),
);

/**
 * `MOVE_LISTS[source][colourIndex][mask]`: the moves taking that colour from that source to
 * each line whose bit is set in `mask` (bit i = pattern line i, bit 5 = the floor), in line
 * order, frozen. Built at snapshot time like MOVES: a turn's `legalMoves` is then at most 30
 * array appends.
 */
const MOVE_LISTS = MOVES.map((bySource) =>
  bySource.map((byColour) =>
    Array.from({ length: 64 }, (_, mask) => Object.freeze(byColour.filter((_, line) => (mask & (1 << line)) !== 0))),
  ),
);

/** Every move in MOVES, to recognise a shared move without checking its fields. */
const KNOWN_MOVES = new Set(MOVES.flat(2));

/** The index of a colour name in COLOURS (-1 if it is not one). */
export function colourIndex(colour) {
  const index = COLOUR_INDEX[colour];
  return index === undefined ? -1 : index;
}

/** The column where `colour` goes in wall row `row`: (row + colour index) mod 5. */
export function wallColumn(row, colour) {
  return (row + colourIndex(colour)) % 5;
}

/** The colour of wall space (row, col): COLOURS[(col - row) mod 5]. */
export function wallColour(row, col) {
  return COLOURS[(col - row + 5) % 5];
}

/**
 * What an Azul bot sees on its turn. Counts are arrays of 5 numbers in colour order.
 *
 * - `seat` (0 or 1), `round` (1-based)
 * - `center`: counts; `centerHasMarker`: whether the starting-player marker is still there
 * - `factories`: 5 counts (factory i is source i + 1)
 * - `markerHolder`: the seat that took the marker this round, or null
 * - `boards`: both boards by seat, each `{ lines, wall, floorLen, score }`: `lines` 5 pattern
 *   lines `{ count, colour }` (colour null when empty), `wall` 5 rows of 5 booleans
 *   ([row][column]); `me` and `opponent` are the same boards by role
 * - `lastMove`: the opponent's last move, or null
 * - `info`: `{ turn, turnFuelRemaining, gameFuelRemaining, missedTurns }`
 * - `rng`: the match's seeded generator (see `Rng`)
 * - `wit`: the host's record itself, as componentize-js hands it over (`list<u8>` as a
 *   Uint8Array, tuples as arrays, enums as strings, `option` as the value or undefined, u64 as
 *   BigInt); see `wit/azul/azul.wit` for its byte layouts
 *
 * Fields are converted from the host's record when first read, and `legalMoves` reads the
 * record's bytes directly: JS runs interpreted here, and a bot should pay only for what it uses.
 */
export class View {
  constructor(wit, rng) {
    this.wit = wit;
    this.rng = rng;
    this.cache = {};
  }

  get seat() {
    return this.wit.seat;
  }

  get round() {
    return this.wit.round;
  }

  get centerHasMarker() {
    return this.wit.centerHasMarker;
  }

  get markerHolder() {
    return this.wit.markerHolder ?? null;
  }

  get center() {
    return (this.cache.center ??= counts(this.wit.tiles, CENTER));
  }

  get factories() {
    return (this.cache.factories ??= [1, 2, 3, 4, 5].map((source) => counts(this.wit.tiles, source)));
  }

  get boards() {
    return (this.cache.boards ??= [board(this.wit, 0), board(this.wit, 1)]);
  }

  get lastMove() {
    const last = this.wit.lastMove;
    return last == null ? null : MOVES[last.source]?.[colourIndex(last.colour)]?.[last.line] ?? { ...last };
  }

  get info() {
    return (this.cache.info ??= turnInfo(this.wit.info));
  }

  /** This bot's board. */
  get me() {
    return this.boards[this.seat];
  }

  /** The opponent's board. */
  get opponent() {
    return this.boards[1 - this.seat];
  }

  /** The tile counts of a source (0 = center, 1..=5 = factories), or undefined if none. */
  source(source) {
    return source === CENTER ? this.center : this.factories[source - 1];
  }

  /**
   * Every legal move, in the engine's order: source ascending, then colour order, then line
   * 0..=5 (the floor last). The moves are shared frozen objects (see MOVES): copy one
   * (`{ ...move }`) to change it.
   */
  legalMoves() {
    // Which lines take a colour depends on the board only: one bit mask per colour, then one
    // precomputed list per (source, colour) present.
    const masks = lineMasks(this.wit, this.seat);
    const moves = [];
    const tiles = this.wit.tiles;
    for (let source = 0; source <= FACTORIES; source++) {
      const at = 5 * source;
      const lists = MOVE_LISTS[source];
      for (let c = 0; c < 5; c++) {
        if (tiles[at + c] > 0) moves.push(...lists[c][masks[c]]);
      }
    }
    return moves;
  }

  /** Whether `move` is legal now: the source exists and holds the colour, and the line takes it. */
  isLegal(move) {
    if (move == null) return false;
    const tiles = Number.isInteger(move.source) ? this.source(move.source) : undefined;
    const c = colourIndex(move.colour);
    if (tiles === undefined || c < 0 || !Number.isInteger(move.line) || move.line < 0 || move.line > FLOOR_LINE) {
      return false;
    }
    return tiles[c] > 0 && (lineMasks(this.wit, this.seat)[c] & (1 << move.line)) !== 0;
  }

  /**
   * The move the engine plays for a bot that gives none (or an illegal one): from the
   * lowest-numbered non-empty source, the colour with the fewest tiles there (ties: first in
   * colour order), all to the floor. null when the table is empty.
   */
  fallbackMove() {
    for (let source = 0; source <= FACTORIES; source++) {
      const tiles = this.source(source);
      let best = -1;
      for (let c = 0; c < 5; c++) {
        if (tiles[c] > 0 && (best < 0 || tiles[c] < tiles[best])) best = c;
      }
      if (best >= 0) return MOVES[source][best][FLOOR_LINE];
    }
    return null;
  }
}

/**
 * The engine's pattern-line check for seat `seat`'s board in the host's record, for every line
 * and colour at once: one bit mask per colour index, bit `line` set when that line takes the
 * colour (the floor's bit, 5, always is). A line below the floor takes a colour when it is not
 * full, holds that colour or nothing, and its wall row lacks the colour.
 */
function lineMasks(wit, seat) {
  const lines = wit.lines;
  const first = 10 * seat;
  const wall = wit.walls[seat];
  const masks = [32, 32, 32, 32, 32];
  for (let line = 0; line < FLOOR_LINE; line++) {
    if (lines[first + 2 * line] > line) continue;
    const held = lines[first + 2 * line + 1];
    const bit = 1 << line;
    for (let c = 0; c < 5; c++) {
      if ((held >= 5 || held === c) && (wall & (1 << (5 * line + ((line + c) % 5)))) === 0) masks[c] |= bit;
    }
  }
  return masks;
}

/** Source `source`'s 5 counts from the record's tile bytes (missing bytes read as 0). */
function counts(tiles, source) {
  const at = 5 * source;
  return [0, 1, 2, 3, 4].map((c) => tiles[at + c] ?? 0);
}

/** Seat `seat`'s board gathered from the record (its fields hold both boards side by side). */
function board(wit, seat) {
  const lines = [];
  for (let i = 0; i < 5; i++) {
    const at = 10 * seat + 2 * i;
    lines.push({ count: wit.lines[at] ?? 0, colour: COLOURS[wit.lines[at + 1]] ?? null });
  }
  const wall = [];
  for (let row = 0; row < 5; row++) {
    const bits = wit.walls[seat] >>> (5 * row);
    wall.push([(bits & 1) !== 0, (bits & 2) !== 0, (bits & 4) !== 0, (bits & 8) !== 0, (bits & 16) !== 0]);
  }
  return { lines, wall, floorLen: wit.floorLens[seat], score: wit.scores[seat] };
}

function toAction(move) {
  if (KNOWN_MOVES.has(move)) return move;
  if (move == null || typeof move !== "object") {
    throw new TypeError(`act must return a move { source, colour, line }, got ${move}`);
  }
  const colour = typeof move.colour === "number" ? COLOURS[move.colour] : move.colour;
  if (colourIndex(colour) < 0) throw new TypeError(`not a colour: ${move.colour}`);
  const source = move.source;
  const line = move.line;
  // Any u8 is sent (the engine judges legality and applies the fallback); what is not a u8
  // cannot be sent at all.
  if (!isU8(source) || !isU8(line)) {
    throw new TypeError(`a move's source and line must be integers in 0..=255, got ${source} and ${line}`);
  }
  return { source, colour, line };
}

function isU8(value) {
  return Number.isInteger(value) && value >= 0 && value <= 255;
}

/**
 * The `player` export for an Azul bot: `export const player = azulBot(Bot);`. `Bot` is a class
 * (one instance per match, built at `init`) or an object, with `act(view)` returning a move and
 * an optional `init(info)` (`info`: seat, players, restartCount, seed (a BigInt), turnFuel,
 * gameFuel, gameFuelRemaining, rng).
 */
export function azulBot(Bot) {
  return exportBot(Bot, { view: (wit, state, rng) => new View(wit, rng), action: toAction });
}
