//! `paint-stdio-random`: a Paint bot that is an ordinary program. It knows nothing of the arena's
//! SDK or WIT: it speaks the game's original line-delimited JSON protocol on stdin/stdout and
//! answers each state with a random valid action (walks that would leave the board excluded),
//! carrying the state's `turns_left` as the nonce. Its generator is seeded from its player id
//! and the first state it reads, so a match replays the same actions. Built for `wasm32-wasip2`
//! it is a WASI command, which the arena runs under the same fuel budget as any other bot.

use paint_stdio_random::{Rng, play};

fn main() -> std::io::Result<()> {
    let mut rng: Option<Rng> = None;
    play(|state| {
        let rng = rng.get_or_insert_with(|| Rng::new(state.seed));
        let actions = state.useful_actions();
        let action = actions.get(rng.below(actions.len())).copied();
        action.map(|action| state.answer(action))
    })
}
