// fx-throw-js: throws in every act(). The JavaScript layer logs the error with its stack, then
// traps; the host restarts the bot before its next turn, and the third trap forfeits
// (docs/design.md#traps, "Traps"), exactly as for a Rust panic (fx-panic).
import { azulBot } from "./arena/azul.js";

const MESSAGE = "fx-throw-js: deliberate exception";

class Thrower {
  act(view) {
    throw new Error(`${MESSAGE} on turn ${view.info.turn}`);
  }
}

export const player = azulBot(Thrower);
