// azul-trivial-js: the smallest complete JavaScript bot. It plays the first legal move.
import { azulBot } from "./arena/azul.js";

class Bot {
  act(view) {
    return view.legalMoves()[0];
  }
}

export const player = azulBot(Bot);
