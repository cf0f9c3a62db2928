// A Paint bot written as an ordinary AssemblyScript program: it reads the game's states as JSON
// lines on stdin and prints its moves on stdout (Paint's original protocol). It walks to the
// nearest square that is not its colour, and now and then shoots an opponent standing in line
// with it. `cargo xtask build-bot bots-examples/paint-stdio-as` compiles it with asc and the WASI
// shim (asconfig.json) into a WASI command, a bot the arena runs; elsewhere, after
// `npm install assemblyscript @assemblyscript/wasi-shim`, `npx asc assembly/index.ts -O3 -o
// bot.wasm` does the same and `wasmtime bot.wasm` runs it. `process` is the WASI shim's.
//
// The lines are read with a small JSON reader of our own (json.ts): it walks the line in place,
// so the bot builds only what it keeps, and skips what it does not use (previous_actions).

import { Json } from "./json";
import { Lines } from "./lines";

// The 8 king moves [di, dj], di the row delta, in a fixed order so that the bot plays the same
// match the same way.
const DI: i32[] = [-1, -1, 0, 1, 1, 1, 0, -1];
const DJ: i32[] = [0, 1, 1, 1, 0, -1, -1, -1];

// What the bot reads from one state line.
class State {
  width: i32 = 0;
  height: i32 = 0;
  turnsLeft: i32 = 0;
  // mine[i * width + j]: whether square [i, j] has our colour.
  mine: bool[] = [];
  // Squares nobody can enter: obstacles (sent only when the match has them).
  blocked: bool[] = [];
  // Every avatar's square, by player id.
  positions: Map<string, i32[]> = new Map();

  onBoard(i: i32, j: i32): bool {
    return 0 <= i && i < this.height && 0 <= j && j < this.width;
  }
}

// Reads a state line; me is our id.
function readState(json: Json, me: string): State {
  const s = new State();
  const obstacles: i32[][] = [];
  json.beginObject();
  for (let key = json.nextKey(); key != null; key = json.nextKey()) {
    if (key == "width") s.width = json.int();
    else if (key == "height") s.height = json.int();
    else if (key == "turns_left") s.turnsLeft = json.int();
    else if (key == "player_positions") {
      json.beginObject();
      for (let id = json.nextKey(); id != null; id = json.nextKey()) s.positions.set(id, json.ints());
    } else if (key == "colors") {
      // `height` rows of `width` ids or null, read row after row into mine.
      json.beginArray();
      while (json.nextItem()) {
        json.beginArray();
        while (json.nextItem()) s.mine.push(!json.isNull() && json.strIs(me));
      }
    } else if (key == "obstacles") {
      json.beginArray();
      while (json.nextItem()) obstacles.push(json.ints());
    } else json.skip(); // previous_actions, and any field a later version adds
  }
  s.mine.length = s.width * s.height; // rows cut short would leave squares out: not ours
  s.blocked = new Array<bool>(s.width * s.height).fill(false);
  for (let k = 0; k < obstacles.length; k++) {
    const i = obstacles[k][0], j = obstacles[k][1];
    if (s.onBoard(i, j)) s.blocked[i * s.width + j] = true;
  }
  return s;
}

// The first step (an index into DI/DJ) of a shortest walk from our square to the nearest square
// that is not our colour, breadth first; -1 when every reachable square is ours.
function firstStepToPaint(s: State, me: string): i32 {
  if (!s.positions.has(me)) return -1;
  const start = s.positions.get(me);
  if (!s.onBoard(start[0], start[1])) return -1;
  const seen = s.blocked.slice(0); // a walk into an obstacle is dropped
  const queue: i32[] = [start[0] * s.width + start[1]];
  const first: i32[] = [-1]; // first[k]: the step that leads to queue[k]
  seen[queue[0]] = true;
  for (let k = 0; k < queue.length; k++) {
    if (first[k] >= 0 && !s.mine[queue[k]]) return first[k];
    const i = queue[k] / s.width, j = queue[k] % s.width;
    for (let d = 0; d < 8; d++) {
      const ni = i + DI[d], nj = j + DJ[d];
      if (!s.onBoard(ni, nj) || seen[ni * s.width + nj]) continue;
      seen[ni * s.width + nj] = true;
      queue.push(ni * s.width + nj);
      first.push(first[k] < 0 ? d : first[k]);
    }
  }
  return -1;
}

// The direction (an index into DI/DJ) of an opponent standing on a straight or diagonal line
// from our square, -1 if none. Ids are visited in sorted order, the seat order.
function opponentInLine(s: State, me: string): i32 {
  if (!s.positions.has(me)) return -1;
  const ours = s.positions.get(me);
  const ids = s.positions.keys().sort();
  for (let k = 0; k < ids.length; k++) {
    if (ids[k] == me) continue;
    const other = s.positions.get(ids[k]);
    const di = other[0] - ours[0], dj = other[1] - ours[1];
    if ((di == 0) != (dj == 0) || (di != 0 && (di == dj || di == -dj))) {
      for (let d = 0; d < 8; d++) {
        if (DI[d] == sign(di) && DJ[d] == sign(dj)) return d;
      }
    }
  }
  return -1;
}

function sign(x: i32): i32 {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

// The answer line. turns_left must echo the state's: it is the nonce that ties the answer to the
// state it answers.
function answer(s: State, kind: string, d: i32): string {
  return `{"turns_left":${s.turnsLeft},"type":"${kind}","direction":[${DI[d]},${DJ[d]}]}\n`;
}

// Shoots an opponent in line every third turn (a shot paints a line of squares and can stop an
// opponent's), and otherwise walks towards the nearest square still to paint: the walker's square
// is painted on arrival.
function choose(s: State, me: string): string {
  const aim = opponentInLine(s, me);
  if (aim >= 0 && s.turnsLeft % 3 == 0) return answer(s, "shoot", aim);
  const step = firstStepToPaint(s, me);
  if (step >= 0) return answer(s, "walk", step);
  // Every reachable square is ours already: a shot is the only move that can paint more.
  return answer(s, "shoot", aim >= 0 ? aim : 4);
}

const lines = new Lines();
let me = "";
while (true) {
  const line = lines.next();
  if (line == null) break; // the match is over
  if (line.length == 0) continue;
  if (me.length == 0) {
    // The greeting, {"player_id":"a"}: the id is also our colour on the board.
    const json = new Json(line);
    json.beginObject();
    for (let key = json.nextKey(); key != null; key = json.nextKey()) {
      if (key == "player_id") me = json.str();
      else json.skip();
    }
    process.stdout.write('{"ready":true}\n');
    continue;
  }
  process.stdout.write(choose(readState(new Json(line), me), me));
}
