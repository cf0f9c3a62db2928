// The moves that do not step onto a bomb.

const OFFSETS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0], H: [0, 0] };

function safeMoves(state, settings) {
  if (state.currentRound === settings.failInRound) {
    throw new Error(`fx-stdio-js: deliberate exception in round ${state.currentRound}`);
  }
  const me = state.players[String(state.aiPlayerId)].agentLocation;
  const width = state.gamePlanWidth;
  const height = state.gamePlanHeight;
  const safe = settings.moves.filter((move) => {
    const [dx, dy] = OFFSETS[move];
    return state.fieldBombs[(me.x + dx + width) % width][(me.y + dy + height) % height] === null;
  });
  return safe.length > 0 ? safe : ['H'];
}

module.exports = { safeMoves };
