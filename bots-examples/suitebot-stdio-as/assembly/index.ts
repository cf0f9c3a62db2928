// A SuiteBot II bot written as an ordinary AssemblyScript program: it reads one JSON object per
// round on stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original
// protocol. It walks towards the richest fields, plants a bomb where the blast would clear
// several points, and keeps out of the way of bombs about to explode. It reads the board as the
// game option `board=strings` sends it: each column one string of digits. `cargo xtask build-bot
// bots-examples/suitebot-stdio-as` compiles it with asc and the WASI shim (asconfig.json) into a
// WASI command, a bot the arena runs; elsewhere, after `npm install assemblyscript
// @assemblyscript/wasi-shim`, `npx asc assembly/index.ts -O3 -o bot.wasm` does the same.
//
// The lines are read with a small JSON reader of our own (json.ts): it walks the line in place,
// so the bot builds only what it keeps.

import { Json } from "./json";
import { Lines } from "./lines";

// The moves the bot walks with, and their offsets: index i of each array is one move. Y grows
// downwards: U is (0, -1).
const LETTERS: string[] = ["U", "D", "L", "R", "H"];
const MOVE_DX: i32[] = [0, 0, -1, 1, 0];
const MOVE_DY: i32[] = [-1, 1, 0, 0, 0];

const BLAST_RADIUS = 1; // the game's default: a bomb clears the 3 x 3 square around it
const FUSE = 4; // a bomb explodes in the fourth round after planting

// What the bot reads from one round's object.
class State {
  me: i32 = 0; // aiPlayerId
  round: i32 = 0; // currentRound
  remaining: i32 = 0; // remainingRounds, this round included
  width: i32 = 0;
  height: i32 = 0;
  // Every agent's field [x, y], by player id.
  agents: Map<string, i32[]> = new Map();
  // resources[x]: column x's points, character y the points left on (x, y), "0" or "1".
  resources: string[] = [];
  // bombs[x]: column x's bombs, characters 2y and 2y+1 the bomb on (x, y), its owner id digit
  // then its countdown digit, or ".." for none.
  bombs: string[] = [];

  // The board is a torus: leaving one edge enters the opposite one.
  wrapX(x: i32): i32 {
    return ((x % this.width) + this.width) % this.width;
  }

  wrapY(y: i32): i32 {
    return ((y % this.height) + this.height) % this.height;
  }

  // The points left on (x, y), wrapped.
  points(x: i32, y: i32): i32 {
    const digit = this.resources[this.wrapX(x)].charCodeAt(this.wrapY(y)) - 0x30;
    return digit > 0 ? digit : 0;
  }

  // The countdown of the bomb on (x, y), wrapped: rounds left before the round it explodes in;
  // -1 when there is none.
  countdown(x: i32, y: i32): i32 {
    const digit = this.bombs[this.wrapX(x)].charCodeAt(2 * this.wrapY(y) + 1) - 0x30;
    return digit >= 0 && digit <= 9 ? digit : -1;
  }

  // The points a bomb planted on (x, y) would clear.
  blastValue(x: i32, y: i32): i32 {
    let total = 0;
    for (let dx = -BLAST_RADIUS; dx <= BLAST_RADIUS; dx++) {
      for (let dy = -BLAST_RADIUS; dy <= BLAST_RADIUS; dy++) total += this.points(x + dx, y + dy);
    }
    return total;
  }
}

function readState(json: Json): State {
  const s = new State();
  json.beginObject();
  for (let key = json.nextKey(); key != null; key = json.nextKey()) {
    if (key == "aiPlayerId") s.me = json.int();
    else if (key == "currentRound") s.round = json.int();
    else if (key == "remainingRounds") s.remaining = json.int();
    else if (key == "gamePlanWidth") s.width = json.int();
    else if (key == "gamePlanHeight") s.height = json.int();
    else if (key == "players") {
      json.beginObject();
      for (let id = json.nextKey(); id != null; id = json.nextKey()) {
        json.beginObject();
        for (let field = json.nextKey(); field != null; field = json.nextKey()) {
          if (field == "agentLocation") s.agents.set(id, readPoint(json));
          else json.skip(); // name, resources, homeBaseLocation, agentLastMove
        }
      }
    } else if (key == "fieldResources") {
      json.beginArray();
      while (json.nextItem()) s.resources.push(json.str());
    } else if (key == "fieldBombs") {
      json.beginArray();
      while (json.nextItem()) s.bombs.push(json.str());
    } else json.skip();
  }
  return s;
}

// A field {"x":..,"y":..} as [x, y].
function readPoint(json: Json): i32[] {
  const point = [0, 0];
  json.beginObject();
  for (let key = json.nextKey(); key != null; key = json.nextKey()) {
    if (key == "x") point[0] = json.int();
    else if (key == "y") point[1] = json.int();
    else json.skip();
  }
  return point;
}

// A bomb near the agent: its offset from the agent and its countdown.
class NearBomb {
  constructor(public dx: i32, public dy: i32, public countdown: i32) {}
}

// The bombs within radius fields of (x, y) (Chebyshev distance, on the torus).
function bombsAround(s: State, x: i32, y: i32, radius: i32): NearBomb[] {
  const found: NearBomb[] = [];
  for (let dx = -radius; dx <= radius; dx++) {
    for (let dy = -radius; dy <= radius; dy++) {
      const countdown = s.countdown(x + dx, y + dy);
      if (countdown >= 0) found.push(new NearBomb(dx, dy, countdown));
    }
  }
  return found;
}

// How bad it is to stand (dx, dy) away from the agent after this round's moves: bombs closer to
// exploding weigh more, and so do bombs closer to the field.
function danger(bombs: NearBomb[], dx: i32, dy: i32): i32 {
  let total = 0;
  for (let k = 0; k < bombs.length; k++) {
    const distance = max(abs(bombs[k].dx - dx), abs(bombs[k].dy - dy));
    if (distance <= BLAST_RADIUS) total += (5 - bombs[k].countdown) * 100 + (BLAST_RADIUS + 1 - distance) * 10;
  }
  return total;
}

// What the bot keeps between rounds: the process lives for the whole match.
let heading = "R";
let plantedIn = -FUSE - 1; // the round of our last bomb

// The heading after a right turn.
function turnRight(from: string): string {
  return from == "R" ? "D" : from == "D" ? "L" : from == "L" ? "U" : "R";
}

// Picks one move: safety first, then points, else keep exploring.
function choose(s: State): string {
  const id = s.me.toString();
  if (!s.agents.has(id) || s.resources.length < s.width || s.bombs.length < s.width) return "H";
  const x = s.agents.get(id)[0], y = s.agents.get(id)[1];
  // Every bomb whose blast could reach a field the agent can step onto.
  const bombs = bombsAround(s, x, y, BLAST_RADIUS + 1);

  // Plant where the blast clears several points, when no bomb of ours is ticking (time enough
  // to walk two fields away before it explodes) and the bomb would explode before the end.
  if (s.round - plantedIn > FUSE && s.blastValue(x, y) >= 4 && danger(bombs, 0, 0) == 0 && s.remaining > FUSE) {
    plantedIn = s.round;
    return "B";
  }

  // Change heading now and then, so that an agent in cleared land explores.
  if (s.round % 7 == 0) heading = turnRight(heading);

  let best = 0, bestScore = 0;
  for (let i = 0; i < LETTERS.length; i++) {
    let score = 2 * s.blastValue(x + MOVE_DX[i], y + MOVE_DY[i]) - danger(bombs, MOVE_DX[i], MOVE_DY[i]);
    if (LETTERS[i] == heading) score++;
    if (i == 0 || score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  if (LETTERS[best] != "H") heading = LETTERS[best];
  return LETTERS[best];
}

const lines = new Lines();
while (true) {
  const line = lines.next();
  if (line == null) break; // the match is over
  if (line.length == 0) continue;
  // One write per answer: the shim's process.stdout is unbuffered, so it reaches the host at once.
  process.stdout.write(choose(readState(new Json(line))) + "\n");
}
