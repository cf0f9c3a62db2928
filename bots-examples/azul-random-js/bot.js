// azul-random-js: plays a uniformly random legal move, from the match's seeded generator (so
// the same match seed gives the same game).
import { azulBot, log } from "./arena/azul.js";

class RandomBot {
  init(info) {
    log.info(`azul-random-js in seat ${info.seat}, restart ${info.restartCount}`);
  }

  act(view) {
    const moves = view.legalMoves();
    // Never empty on a real turn; answer something the engine can judge anyway.
    return moves.length > 0 ? view.rng.pick(moves) : view.fallbackMove();
  }
}

export const player = azulBot(RandomBot);
