// Picks one move per round: safety first, then points, else keep exploring.

'use strict';

const { Board, MOVES, danger } = require('./board');

/** Rounds a bomb ticks: it explodes in the fourth round after the one it was planted in. */
const FUSE = 4;

/** The heading after a right turn. */
const TURN_RIGHT = { R: 'D', D: 'L', L: 'U', U: 'R' };

/** What the bot remembers between rounds. */
const memory = { heading: 'R', plantedIn: -Infinity };

function chooseMove(state) {
  const board = new Board(state);
  const me = state.players[String(state.aiPlayerId)];
  const x = me.agentLocation.x;
  const y = me.agentLocation.y;
  const round = state.currentRound;
  // Every bomb whose blast could reach a field the agent can step onto.
  const bombs = board.bombsAround(x, y, 2);

  // Plant where the blast clears several points, when no bomb of ours is ticking (time enough
  // to walk two fields away before it explodes).
  if (round - memory.plantedIn > FUSE && board.blastValue(x, y) >= 4 && danger(bombs, 0, 0) === 0 && state.remainingRounds > FUSE) {
    memory.plantedIn = round;
    return 'B';
  }

  // Change heading now and then, so that an agent in cleared land explores.
  if (round % 7 === 0) memory.heading = TURN_RIGHT[memory.heading];

  let best = null;
  for (let i = 0; i < MOVES.letters.length; i++) {
    const letter = MOVES.letters[i];
    const dx = MOVES.dx[i];
    const dy = MOVES.dy[i];
    const value = board.blastValue(board.wrapX(x + dx), board.wrapY(y + dy));
    const score = value * 2 + (letter === memory.heading ? 1 : 0) - danger(bombs, dx, dy);
    if (best === null || score > best.score) best = { letter, score };
  }
  if (best.letter !== 'H') memory.heading = best.letter;
  return best.letter;
}

module.exports = { chooseMove };
