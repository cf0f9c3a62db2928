// An Azul bot written as an ordinary AssemblyScript program: it speaks Azul's text protocol on
// stdin and stdout, asking for the whole state every turn, and plays the legal move with the best
// immediate score change (what the move scores if it completes its pattern line, less the floor
// penalty it causes), the first of equal moves in the order the moves are listed: source 0 (the
// center) to 5, colours g o b y r, lines 0 to 5 (5 is the floor). `cargo xtask build-bot
// bots-examples/azul-stdio-as` compiles it with asc and the WASI shim (asconfig.json) into a
// WASI command, a bot the arena runs; elsewhere, after `npm install assemblyscript
// @assemblyscript/wasi-shim`, `npx asc assembly/index.ts -O3 -o bot.wasm` does the same.

import { Lines } from "./lines";

// Colour letters in the game's fixed order; a colour is its index here.
const COLOURS = "gobyr";
// What the 1st to 7th occupied floor slot costs.
const FLOOR_PENALTIES: i32[] = [-1, -1, -2, -2, -2, -3, -3];
const FLOOR_LINE = 5;

// One player's board, as far as the moves go.
class Board {
  count: i32[] = [0, 0, 0, 0, 0]; // tiles on each pattern line (line i holds up to i + 1)
  colour: i32[] = [-1, -1, -1, -1, -1]; // the colour they have, -1 for none
  wall: bool[] = new Array<bool>(25).fill(false); // wall[row * 5 + column]
  floor: i32 = 0; // occupied floor slots, the marker included
}

// What the bot knows of the game, from the host's lines.
let seat = 0;
// sources[s][c]: tiles of colour c on source s, 0 = the center, 1..5 = the factories.
const sources: i32[][] = [];
for (let s = 0; s < 6; s++) sources.push([0, 0, 0, 0, 0]);
let centerHasMarker = false;
const boards: Board[] = [new Board(), new Board()];

// The colour of a letter's character code, -1 for another character. Characters are compared
// by code (charCodeAt) rather than as strings (charAt): every string is an allocation, and
// allocations are what costs most fuel in an AssemblyScript program.
function colourOf(code: i32): i32 {
  for (let colour = 0; colour < COLOURS.length; colour++) {
    if (COLOURS.charCodeAt(colour) == code) return colour;
  }
  return -1;
}

// Tiles per colour in a tile word such as "bbyr" ("-" for none).
function readTiles(word: string, into: i32[]): void {
  into.fill(0);
  for (let i = 0; i < word.length; i++) {
    const colour = colourOf(word.charCodeAt(i));
    if (colour >= 0) into[colour]++;
  }
}

// `board <seat> <score> <floor> <wall> <l0> ... <l4>`: the wall is five rows joined by "/", a
// colour letter where a tile lies and "." elsewhere; a pattern line is its tiles ("-" for none).
function readBoard(words: string[]): void {
  if (words.length < 10) return;
  const board = boards[I32.parseInt(words[1]) & 1];
  board.floor = I32.parseInt(words[3]);
  const rows = words[4].split("/");
  for (let row = 0; row < 5 && row < rows.length; row++) {
    for (let column = 0; column < 5 && column < rows[row].length; column++) {
      board.wall[row * 5 + column] = rows[row].charCodeAt(column) != 0x2e; // "."
    }
  }
  for (let line = 0; line < 5; line++) {
    const tiles = words[5 + line];
    board.colour[line] = colourOf(tiles.charCodeAt(0));
    board.count[line] = board.colour[line] >= 0 ? tiles.length : 0;
  }
}

// Applies one line from the host; true on `go`, when the bot answers.
function apply(line: string): bool {
  const words = line.split(" ");
  const kind = words[0];
  if (kind == "go") return true;
  if (kind == "azul" && words.length > 1) seat = I32.parseInt(words[1]) & 1; // azul <seat> <restarts>
  else if (kind == "factories") {
    for (let f = 1; f <= 5 && f < words.length; f++) readTiles(words[f], sources[f]);
  } else if (kind == "center") readTiles(words.length > 1 ? words[1] : "-", sources[0]);
  else if (kind == "marker") centerHasMarker = words.length > 1 && words[1] == "center";
  else if (kind == "board") readBoard(words);
  // turn, state, round and last say nothing the choice needs.
  return false;
}

// The wall column of colour on row.
function wallColumn(row: i32, colour: i32): i32 {
  return (row + colour) % 5;
}

// Whether colour may go on line (the floor always may).
function legal(board: Board, colour: i32, line: i32): bool {
  if (line == FLOOR_LINE) return true;
  return (
    board.count[line] < line + 1 &&
    (board.colour[line] < 0 || board.colour[line] == colour) &&
    !board.wall[line * 5 + wallColumn(line, colour)]
  );
}

function filled(wall: bool[], row: i32, column: i32): bool {
  return row >= 0 && row < 5 && column >= 0 && column < 5 && wall[row * 5 + column];
}

// Points for a tile placed on (row, column): 1 alone, else the lengths of the horizontal and
// vertical runs it joins (each counted when 2 or longer).
function placementScore(wall: bool[], row: i32, column: i32): i32 {
  let horizontal = 1, vertical = 1;
  for (let c = column - 1; filled(wall, row, c); c--) horizontal++;
  for (let c = column + 1; filled(wall, row, c); c++) horizontal++;
  for (let r = row - 1; filled(wall, r, column); r--) vertical++;
  for (let r = row + 1; filled(wall, r, column); r++) vertical++;
  const score = (horizontal >= 2 ? horizontal : 0) + (vertical >= 2 ? vertical : 0);
  return score == 0 ? 1 : score;
}

// The total penalty of len occupied floor slots (0 or negative).
function floorPenalty(len: i32): i32 {
  let total = 0;
  for (let slot = 0; slot < len && slot < FLOOR_PENALTIES.length; slot++) total += FLOOR_PENALTIES[slot];
  return total;
}

// The immediate score change of taking colour from source onto line.
function scoreChange(board: Board, source: i32, colour: i32, line: i32): i32 {
  const taken = sources[source][colour];
  const room = line < FLOOR_LINE ? line + 1 - board.count[line] : 0;
  const toLine = min(taken, room);
  // The tiles that do not fit, and the marker when the move takes it, go to the floor's free slots.
  let free = max(0, FLOOR_PENALTIES.length - board.floor);
  const markerOnFloor = source == 0 && centerHasMarker && free > 0;
  if (markerOnFloor) free--;
  const toFloor = min(taken - toLine, free);
  const completes = line < FLOOR_LINE && toLine > 0 && board.count[line] + toLine == line + 1;
  const points = completes ? placementScore(board.wall, line, wallColumn(line, colour)) : 0;
  const after = board.floor + toFloor + (markerOnFloor ? 1 : 0);
  return points + floorPenalty(after) - floorPenalty(board.floor);
}

// The answer `d c l`: the best move, or the floor move `0 g 5` if the table is empty.
function choose(): string {
  const board = boards[seat];
  let best = "0 g 5";
  let bestScore = i32.MIN_VALUE;
  for (let source = 0; source < 6; source++) {
    for (let colour = 0; colour < 5; colour++) {
      if (sources[source][colour] == 0) continue;
      for (let line = 0; line <= FLOOR_LINE; line++) {
        if (!legal(board, colour, line)) continue;
        const score = scoreChange(board, source, colour, line);
        if (score > bestScore) {
          bestScore = score;
          best = `${source} ${COLOURS.charAt(colour)} ${line}`;
        }
      }
    }
  }
  return best;
}

// The mode comes first: the whole state every turn.
process.stdout.write("state\n");
const lines = new Lines();
while (true) {
  const line = lines.next();
  if (line == null) break; // the match is over
  if (apply(line)) process.stdout.write(choose() + "\n");
}
