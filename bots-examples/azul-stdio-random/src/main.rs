//! `azul-stdio-random`: an Azul bot that is an ordinary program. It knows nothing of the arena's
//! SDK or WIT: it reads the text protocol on stdin, asks for the full state every turn, and
//! writes a uniformly random legal move on stdout. Built for `wasm32-wasip2` it is a WASI
//! command, which the arena runs under the same fuel budget as any other bot.

use azul_stdio_random::{Rng, play};

fn main() -> std::io::Result<()> {
    let mut rng = Rng::from_platform();
    play("state", |state| {
        let moves = state.legal_moves();
        moves.get(rng.below(moves.len())).copied()
    })
}
