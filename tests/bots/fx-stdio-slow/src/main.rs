//! `fx-stdio-slow`: a line-protocol Azul bot (incremental `update` mode) that, on its first
//! turn, computes about one and a half turn budgets (a hash chain of [`ROUNDS`] steps) before
//! answering, then plays the first legal move at once every turn.
//!
//! docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend, never kill", for
//! line-protocol bots: it is suspended on its first turn; on its second it finishes, writes its
//! answer to the first turn's state (stale: it has not read the second message yet, an invalid
//! action), reads the second message and answers it in time.

use azul_stdio_random::play;
use std::hint::black_box;

/// Steps of the hash chain (measured: about 15M fuel, one and a half default turn budgets).
pub const ROUNDS: u64 = 1_500_000;

fn chain(rounds: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..black_box(rounds) {
        x = (x ^ i).wrapping_mul(0x2c1b_3c6d_a5a5_a5a5).rotate_left(17);
    }
    x
}

fn main() -> std::io::Result<()> {
    let mut first = true;
    play("update", |state| {
        if std::mem::take(&mut first) {
            eprintln!("chain {:016x}", chain(ROUNDS));
        }
        state.legal_moves().first().copied()
    })
}
