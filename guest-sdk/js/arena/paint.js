// Paint bots in JavaScript: the view a bot's `act(view)` gets, the actions and directions (in
// the engine's order, `games/paint/src/grid.rs` and `action.rs`), and `paintBot`, which makes
// the world's `player` export.
//
//   import { paintBot } from "./arena/paint.js";
//   class Bot { act(view) { return view.rng.pick(view.legalActions()); } }
//   export const player = paintBot(Bot);
//
// A square is (row, col), row 0 at the top; a direction is a king move `{ di, dj }` (di the row
// delta, so north is { di: -1, dj: 0 }); an action is `{ kind: "walk" | "shoot", direction }`.

import { exportBot, turnInfo } from "./common.js";

export { log, Rng } from "./common.js";

/** The `squares` value of an obstacle. */
export const OBSTACLE = 254;
/** The `squares` value of an unpainted square. */
export const UNPAINTED = 255;

const direction = (di, dj) => Object.freeze({ di, dj });

/** The 8 directions, in the engine's order: by di, then dj. */
export const DIRECTIONS = Object.freeze([
  direction(-1, -1),
  direction(-1, 0),
  direction(-1, 1),
  direction(0, -1),
  direction(0, 1),
  direction(1, -1),
  direction(1, 0),
  direction(1, 1),
]);

/** The directions by name. */
export const Direction = Object.freeze({
  NORTH_WEST: DIRECTIONS[0],
  NORTH: DIRECTIONS[1],
  NORTH_EAST: DIRECTIONS[2],
  WEST: DIRECTIONS[3],
  EAST: DIRECTIONS[4],
  SOUTH_WEST: DIRECTIONS[5],
  SOUTH: DIRECTIONS[6],
  SOUTH_EAST: DIRECTIONS[7],
});

/** Every valid action, frozen: the 8 walks, then the 8 shots, each in DIRECTIONS order. */
export const ACTIONS = Object.freeze([
  ...DIRECTIONS.map((d) => Object.freeze({ kind: "walk", direction: d })),
  ...DIRECTIONS.map((d) => Object.freeze({ kind: "shoot", direction: d })),
]);

/** The index of a king move in DIRECTIONS, -1 for anything else. */
export function directionIndex(d) {
  if (d == null || !Number.isInteger(d.di) || !Number.isInteger(d.dj) || Math.abs(d.di) > 1 || Math.abs(d.dj) > 1) {
    return -1;
  }
  const cell = (d.di + 1) * 3 + (d.dj + 1);
  return cell === 4 ? -1 : cell < 4 ? cell : cell - 1;
}

/** The walk in direction `d` (a shared frozen action when `d` is a king move). */
export function walk(d) {
  const i = directionIndex(d);
  return i < 0 ? { kind: "walk", direction: { di: d.di, dj: d.dj } } : ACTIONS[i];
}

/** The shot in direction `d` (a shared frozen action when `d` is a king move). */
export function shoot(d) {
  const i = directionIndex(d);
  return i < 0 ? { kind: "shoot", direction: { di: d.di, dj: d.dj } } : ACTIONS[8 + i];
}

/** The direction pointing the other way. */
export function opposite(d) {
  const i = directionIndex(d);
  return i < 0 ? { di: -d.di, dj: -d.dj } : DIRECTIONS[7 - i];
}

/** King-move distance: the fewest walks between two squares on an empty board. */
export function distance(a, b) {
  return Math.max(Math.abs(a.row - b.row), Math.abs(a.col - b.col));
}

/** The direction of the first walk on a shortest path from `from` to `to`; null if equal. */
export function towards(from, to) {
  const di = Math.sign(to.row - from.row);
  const dj = Math.sign(to.col - from.col);
  return di === 0 && dj === 0 ? null : DIRECTIONS[directionIndex({ di, dj })];
}

/**
 * What a Paint bot sees at the start of a turn (all seats answer the same turn at once).
 *
 * - `seat`, `width`, `height`
 * - `squares`: a Uint8Array, row-major (`row * width + col`): the seat whose colour a square has,
 *   OBSTACLE or UNPAINTED
 * - `positions`: every avatar's square `{ row, col }`, by seat; `me` is this bot's
 * - `turnsLeft` (this one included), `turnsPlayed`
 * - `lastActions`: the previous turn's actions by seat (null where a seat did nothing); empty on
 *   the first turn
 * - `history`: every turn's actions so far, oldest first, kept by the layer (turns this instance
 *   did not see are recorded as no action for every seat, as the Rust SDK does)
 * - `info`: `{ turn, turnFuelRemaining, gameFuelRemaining, missedTurns }`
 * - `rng`: the match's seeded generator (see `Rng`)
 */
export class View {
  constructor(wit, state, rng) {
    this.seat = wit.seat;
    this.width = wit.width;
    this.height = wit.height;
    this.squares = wit.squares;
    this.positions = wit.positions;
    this.turnsLeft = wit.turnsLeft;
    this.turnsPlayed = wit.turnsPlayed;
    const last = [];
    for (let i = 0; i < wit.lastActions.length; i++) last.push(wit.lastActions[i] ?? null);
    this.lastActions = last;
    this.history = updateHistory(state, wit.positions.length, wit.turnsPlayed, last);
    this.info = turnInfo(wit.info);
    this.rng = rng;
  }

  /** This bot's avatar's square. */
  get me() {
    return this.positions[this.seat];
  }

  /** Whether (row, col) is on the board. */
  inBounds(row, col) {
    return row >= 0 && col >= 0 && row < this.height && col < this.width;
  }

  /** The `squares` value at (row, col): a seat, OBSTACLE or UNPAINTED (undefined off the board). */
  square(row, col) {
    return this.inBounds(row, col) ? this.squares[row * this.width + col] : undefined;
  }

  /** The seat whose colour (row, col) has, or null (unpainted, an obstacle, off the board). */
  owner(row, col) {
    const value = this.square(row, col);
    return value === undefined || value >= OBSTACLE ? null : value;
  }

  /** Whether an avatar may stand on (row, col): on the board and not an obstacle. */
  isOpen(row, col) {
    const value = this.square(row, col);
    return value !== undefined && value !== OBSTACLE;
  }

  /**
   * The valid actions (ACTIONS: 8 walks, then 8 shots), empty once the game is over. A walk off
   * the board or into an obstacle is valid (and dropped by the engine).
   */
  legalActions() {
    return this.turnsLeft === 0 || this.seat >= this.positions.length ? [] : ACTIONS.slice();
  }

  /** Every seat's score now: the number of squares of its colour. */
  scores() {
    const scores = new Array(this.positions.length).fill(0);
    const squares = this.squares;
    for (let i = 0; i < squares.length; i++) {
      const value = squares[i];
      if (value < scores.length) scores[value]++;
    }
    return scores;
  }
}

/** The history cut or padded to the turns before the last, then the last turn appended. */
function updateHistory(state, players, played, last) {
  const history = (state.history ??= []);
  if (played === 0) {
    history.length = 0;
    return history;
  }
  if (history.length > played - 1) history.length = played - 1;
  while (history.length < played - 1) history.push(new Array(players).fill(null));
  const row = last.slice(0, players);
  while (row.length < players) row.push(null);
  history.push(row);
  return history;
}

function toAction(action) {
  if (action == null || typeof action !== "object" || action.direction == null) {
    throw new TypeError(`act must return an action { kind, direction: { di, dj } }, got ${action}`);
  }
  const { kind, direction } = action;
  if (kind !== "walk" && kind !== "shoot") throw new TypeError(`an action's kind is "walk" or "shoot", got ${kind}`);
  // Any s32 pair is sent (the engine refuses a non-king move as an invalid action); what is not
  // an s32 cannot be sent at all.
  if (!isS32(direction.di) || !isS32(direction.dj)) {
    throw new TypeError(`a direction's di and dj must be 32-bit integers, got ${direction.di} and ${direction.dj}`);
  }
  return action;
}

function isS32(value) {
  return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff;
}

/**
 * The `player` export for a Paint bot: `export const player = paintBot(Bot);`. `Bot` is a class
 * (one instance per match, built at `init`) or an object, with `act(view)` returning an action
 * and an optional `init(info)` (`info`: seat, players, restartCount, seed (a BigInt), turnFuel,
 * gameFuel, gameFuelRemaining, rng).
 */
export function paintBot(Bot) {
  return exportBot(Bot, { view: (wit, state, rng) => new View(wit, state, rng), action: toAction });
}
