// The board as the protocol describes it: a torus of `fieldResources[x][y]` and
// `fieldBombs[x][y]`, with the blast covering the 3 x 3 square around a bomb. The arena's default
// (`board=strings`) writes each column as one string: character y of `fieldResources[x]` is the
// points digit, characters 2y and 2y+1 of `fieldBombs[x]` the bomb's owner id and countdown
// digits (`..` for none); the original (`board=nested`) writes arrays. Both are read.
//
// The arena runs JavaScript in an interpreter and meters every instruction of it: a loop step
// costs about a thousand fuel, a `for…of` or a destructuring several thousand. So the bot reads
// only the fields around its agent, with plain index loops.

'use strict';

/** The moves, as letters and offsets (index i of each array is one move). */
const MOVES = { letters: ['U', 'D', 'L', 'R', 'H'], dx: [0, 0, -1, 1, 0], dy: [-1, 1, 0, 0, 0] };
const BLAST_RADIUS = 1;

class Board {
  constructor(state) {
    this.width = state.gamePlanWidth;
    this.height = state.gamePlanHeight;
    this.resources = state.fieldResources;
    this.fieldBombs = state.fieldBombs;
  }

  wrapX(x) {
    return (x + this.width) % this.width;
  }

  wrapY(y) {
    return (y + this.height) % this.height;
  }

  /** The bombs within `radius` fields of (x, y) (Chebyshev distance, on the torus), as offsets from it. */
  bombsAround(x, y, radius) {
    const { width, height, fieldBombs } = this;
    const bombs = [];
    for (let dx = -radius; dx <= radius; dx++) {
      const column = fieldBombs[(x + dx + width) % width];
      for (let dy = -radius; dy <= radius; dy++) {
        const bomb = bombAt(column, (y + dy + height) % height);
        if (bomb !== null) bombs.push({ dx, dy, owner: bomb.ownerId, countdown: bomb.countdown });
      }
    }
    return bombs;
  }

  /** The points a bomb planted on (x, y) would clear. */
  blastValue(x, y) {
    const { width, height, resources } = this;
    let total = 0;
    for (let dx = -BLAST_RADIUS; dx <= BLAST_RADIUS; dx++) {
      const column = resources[(x + dx + width) % width];
      for (let dy = -BLAST_RADIUS; dy <= BLAST_RADIUS; dy++) total += pointsAt(column, (y + dy + height) % height);
    }
    return total;
  }
}

/** The points on field `y` of a `fieldResources` column (a string of digits, or an array). */
function pointsAt(column, y) {
  return typeof column === 'string' ? column.charCodeAt(y) - 48 : column[y];
}

/** The bomb on field `y` of a `fieldBombs` column (a string of digit pairs, or an array), or null. */
function bombAt(column, y) {
  if (typeof column !== 'string') return column[y];
  if (column[2 * y] === '.') return null;
  return { ownerId: column.charCodeAt(2 * y) - 48, countdown: column.charCodeAt(2 * y + 1) - 48 };
}

/**
 * How bad it is to stand `(dx, dy)` away from the agent after this round's moves, given the
 * bombs around the agent (offsets from it): bombs closer to exploding weigh more.
 */
function danger(bombs, dx, dy) {
  let danger = 0;
  for (let i = 0; i < bombs.length; i++) {
    const bomb = bombs[i];
    const distance = Math.max(Math.abs(bomb.dx - dx), Math.abs(bomb.dy - dy));
    if (distance <= BLAST_RADIUS) danger += (5 - bomb.countdown) * 100 + (BLAST_RADIUS + 1 - distance) * 10;
  }
  return danger;
}

module.exports = { Board, MOVES, danger };
