// What every game's JS layer shares: the arena log, the per-match random generator, the
// budget records, and the adapter that turns a bot class into the world's `player` export.
//
// Numbers: WIT u64 values (seeds, fuel) arrive as BigInt; they are handed to bots as Numbers
// (exact below 2^53, which every budget is), except `seed`, which stays a BigInt.

import { log as hostLog } from "arena:common/log@0.1.0";

/** Appends one line to the bot's log (kept in the match replay; the host bounds it). */
export const log = {
  debug: (...parts) => hostLog("debug", format(parts)),
  info: (...parts) => hostLog("info", format(parts)),
  warn: (...parts) => hostLog("warn", format(parts)),
  error: (...parts) => hostLog("error", format(parts)),
};

function format(parts) {
  let line = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i > 0) line += " ";
    if (typeof part === "string") line += part;
    else if (part instanceof Error) line += part.stack ? `${part}\n${part.stack}` : String(part);
    else if (typeof part === "bigint") line += String(part);
    else {
      try {
        line += JSON.stringify(part, (_, value) => (typeof value === "bigint" ? String(value) : value));
      } catch {
        line += String(part);
      }
    }
  }
  return line;
}

const MASK64 = (1n << 64n) - 1n;

/**
 * A small deterministic generator: xoshiro128** (Blackman and Vigna), its 128-bit state filled
 * from the 64-bit seed by SplitMix64. Seeded from `init-info.seed`, it gives each match its own
 * sequence and the same sequence every time that match is replayed. (componentize-js snapshots
 * the JS engine when the bot is built, so module-level state, a Math.random seeded then
 * included, would start the same in every match.)
 */
export class Rng {
  /** @param {bigint|number} seed any integer; taken mod 2^64 */
  constructor(seed) {
    let x = BigInt.asUintN(64, BigInt(seed));
    const words = [];
    for (let i = 0; i < 2; i++) {
      x = (x + 0x9e3779b97f4a7c15n) & MASK64;
      let z = x;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
      z ^= z >> 31n;
      words.push(Number(z & 0xffffffffn) | 0, Number(z >> 32n) | 0);
    }
    this.s = Int32Array.from(words);
    // An all-zero state would only ever give zeros.
    if ((this.s[0] | this.s[1] | this.s[2] | this.s[3]) === 0) this.s[0] = 1;
  }

  /** The next 32 random bits, as an integer in 0..2^32. */
  nextU32() {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9);
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result >>> 0;
  }

  /** A uniform integer in 0..n (n a positive integer up to 2^32); rejection keeps it unbiased. */
  below(n) {
    if (!(n > 0 && n <= 0x100000000)) throw new RangeError(`Rng.below(${n}): n must be in 1..=2^32`);
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /** A uniform float in [0, 1) with 32 random bits. */
  float() {
    return this.nextU32() / 0x100000000;
  }

  /** A uniformly chosen element of a non-empty array (undefined for an empty one). */
  pick(items) {
    return items.length === 0 ? undefined : items[this.below(items.length)];
  }

  /** Shuffles `items` in place (Fisher-Yates) and returns it. */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const swap = items[i];
      items[i] = items[j];
      items[j] = swap;
    }
    return items;
  }
}

function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}

/** `init-info` for a bot: numbers, plus `rng`, the match's generator. */
export function initInfo(wit, rng) {
  return {
    seat: wit.seat,
    players: wit.players,
    restartCount: wit.restartCount,
    seed: wit.seed,
    turnFuel: Number(wit.turnFuel),
    gameFuel: Number(wit.gameFuel),
    gameFuelRemaining: Number(wit.gameFuelRemaining),
    rng,
  };
}

/** `turn-info` for a bot, as numbers. */
export function turnInfo(wit) {
  return {
    turn: wit.turn,
    turnFuelRemaining: Number(wit.turnFuelRemaining),
    gameFuelRemaining: Number(wit.gameFuelRemaining),
    missedTurns: wit.missedTurns,
  };
}

/**
 * The world's `player` export for a bot: a class (constructed with `new` at `init`) or a plain
 * object. `init` calls the bot's optional `init(info)`; `take-turn` converts the view, calls
 * `act(view)` and converts the answer. An exception is logged, then rethrown, which traps the
 * instance: the host counts the fault, applies the game's fallback and restarts the bot (a fresh
 * instance, so module state starts over too).
 *
 * `game` supplies `view(witView, state, rng)` and `action(answer)`; `state` is the adapter's
 * per-instance scratch (the paint layer keeps its history there).
 */
export function exportBot(Bot, game) {
  if (typeof Bot !== "function" && (typeof Bot !== "object" || Bot === null)) {
    throw new TypeError("pass the bot's class, or an object with an act(view) method");
  }
  let bot = null;
  let rng = null;
  const state = {};
  const start = (seed) => {
    rng = new Rng(seed);
    bot = typeof Bot === "function" ? new Bot() : Bot;
  };
  // try/catch inline rather than in a shared wrapper: a turn is interpreted, and every call
  // on its path costs fuel.
  return {
    init(info) {
      try {
        start(info.seed);
        if (typeof bot.init === "function") bot.init(initInfo(info, rng));
      } catch (error) {
        log.error("bot init threw:", error);
        throw error;
      }
    },
    takeTurn(witView) {
      try {
        // `init` always comes first in the arena; this keeps a bot usable without it.
        if (bot === null) start(0n);
        return game.action(bot.act(game.view(witView, state, rng)));
      } catch (error) {
        log.error("bot act threw:", error);
        throw error;
      }
    },
  };
}
