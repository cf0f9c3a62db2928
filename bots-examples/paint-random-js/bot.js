// paint-random-js: plays a uniformly random legal action (one of the 8 walks and 8 shots), from
// the match's seeded generator (so the same match seed gives the same game).
import { paintBot, walk, Direction } from "./arena/paint.js";

class RandomBot {
  act(view) {
    const actions = view.legalActions();
    // Never empty while turns are left; answer something the engine can judge anyway.
    return actions.length > 0 ? view.rng.pick(actions) : walk(Direction.NORTH);
  }
}

export const player = paintBot(RandomBot);
