//! The shared conformance kit (docs/design.md#errors-tests-and-habits): the `Game` contract and
//! suitebot.md's invariants (via `check_invariants`, which the kit calls after every step: every
//! agent on the board, on its own field, never on an enemy base; points never above 1; bombs
//! well-formed; mined points within the points gone) on seeded random playouts.

use arena_game::conformance::{Plan, check_game};
use arena_suitebot::{BoardEncoding, Suitebot, SuitebotConfig};

/// The default game with 2, 4 and 8 players, 30 seeds each (each playout is 100 rounds, and the
/// kit round-trips every state and observation through JSON: more seeds cost test time, not
/// coverage).
#[test]
fn conformance_kit_default_board() {
    check_game::<Suitebot>(&Plan {
        config: SuitebotConfig::default(),
        players: vec![2, 4, 8],
        seeds: 0..30,
        max_steps: 200,
    });
}

/// A crowded variant (small board, wide blasts, short game) so that collisions, chains, contested
/// fields and base kills happen often; every player count.
#[test]
fn conformance_kit_crowded_board() {
    let config = SuitebotConfig { width: 5, height: 4, rounds: 30, blast_radius: 2, board: BoardEncoding::Strings };
    check_game::<Suitebot>(&Plan { config, players: (2..=8).collect(), seeds: 0..40, max_steps: 100 });
}
