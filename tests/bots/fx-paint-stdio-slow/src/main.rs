//! `fx-paint-stdio-slow`: a Paint line-protocol bot that, on its first state, computes about
//! one and a half turn budgets (a hash chain of [`ROUNDS`] steps) before answering; on its third
//! state it answers with the previous state's nonce (`turns_left + 1`, as a bot that mixed up
//! its states would); otherwise it shoots east at once with the right nonce.
//!
//! docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend, never kill", for
//! line-protocol bots: it is suspended on its first turn; on its second it finishes, writes its
//! answer to the first state (stale: it has not read the second message yet, an invalid action),
//! reads the second message and answers it in time. Its third answer carries the wrong nonce (an
//! invalid action); after that it plays cleanly.

use paint_stdio_random::{ACTIONS, answer_line, play};
use std::hint::black_box;

/// Steps of the hash chain (about 15M fuel, one and a half default turn budgets).
pub const ROUNDS: u64 = 1_500_000;

fn chain(rounds: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..black_box(rounds) {
        x = (x ^ i).wrapping_mul(0x2c1b_3c6d_a5a5_a5a5).rotate_left(17);
    }
    x
}

fn main() -> std::io::Result<()> {
    let mut states = 0_u32;
    // Shoot east (a valid action from any square).
    let shoot_east = ACTIONS[8 + 2];
    play(|state| {
        states += 1;
        match states {
            1 => eprintln!("chain {:016x}", chain(ROUNDS)),
            3 => return Some(answer_line(state.turns_left + 1, shoot_east)),
            _ => {}
        }
        Some(state.answer(shoot_east))
    })
}
