//! Match options ([`SuitebotConfig`], the engine's `Game::Config`) and their documentation for
//! `arena games`.
//!
//! suitebot.md fixes 100 rounds and leaves the board and the blast area to us (**\[ours\]**): the
//! defaults are the spec's, and the other values are options so that organisers can try
//! variants. Home bases follow from the board and the player count ([`crate::rules::home_bases`]).

use crate::rules::{self, Torus};
use arena_game::{OptionDoc, SetupError};
use serde::{Deserialize, Serialize};

/// Smallest board side **\[ours\]**: room for a 3 x 3 grid of home bases (7 or 8 players).
pub const MIN_SIDE: u16 = 3;
/// Largest board side **\[ours\]**: keeps a bot's per-round view (one entry per field) small.
pub const MAX_SIDE: u16 = 100;
/// Most rounds **\[ours\]**.
pub const MAX_ROUNDS: u32 = 10_000;
/// Largest blast radius **\[ours\]**: a 21 x 21 square already covers most boards.
pub const MAX_BLAST_RADIUS: u8 = 10;

/// Game options; `Default` is suitebot.md's setup. Fields missing from a stored config take their
/// defaults, so configs stay readable when options are added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SuitebotConfig {
    /// Board width, [`MIN_SIDE`]..=[`MAX_SIDE`]; default 14 **\[ours\]**.
    pub width: u16,
    /// Board height, [`MIN_SIDE`]..=[`MAX_SIDE`]; default 14 **\[ours\]**.
    pub height: u16,
    /// Rounds in the game, 1..=[`MAX_ROUNDS`]; default 100 (suitebot.md "Constants").
    pub rounds: u32,
    /// The blast area of a bomb is the (2r+1) x (2r+1) square around it, r in
    /// 0..=[`MAX_BLAST_RADIUS`]; default 1, the 3 x 3 square **\[ours\]**.
    pub blast_radius: u8,
}

impl Default for SuitebotConfig {
    fn default() -> Self {
        SuitebotConfig {
            width: rules::WIDTH,
            height: rules::HEIGHT,
            rounds: rules::ROUNDS,
            blast_radius: rules::BLAST_RADIUS,
        }
    }
}

impl SuitebotConfig {
    /// The board.
    pub fn torus(&self) -> Torus {
        Torus::new(self.width, self.height)
    }

    /// Checks every option's range; the error names the first one out of range.
    pub fn validate(&self) -> Result<(), SetupError> {
        let bad =
            |reason: String| Err(SetupError::Config { game: <crate::Suitebot as arena_game::Game>::NAME, reason });
        for (name, side) in [("width", self.width), ("height", self.height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
                return bad(format!("{name} {side} is outside {MIN_SIDE}..={MAX_SIDE}"));
            }
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return bad(format!("rounds {} is outside 1..={MAX_ROUNDS}", self.rounds));
        }
        if self.blast_radius > MAX_BLAST_RADIUS {
            return bad(format!("blast_radius {} is outside 0..={MAX_BLAST_RADIUS}", self.blast_radius));
        }
        Ok(())
    }

    /// The options `--option key=value` accepts.
    pub fn option_docs() -> Vec<OptionDoc> {
        let defaults = SuitebotConfig::default();
        vec![
            OptionDoc {
                name: "width",
                help: "board width in fields, 3..=100 (the board is a torus; home bases are spread over it)",
                default: defaults.width.to_string(),
            },
            OptionDoc { name: "height", help: "board height in fields, 3..=100", default: defaults.height.to_string() },
            OptionDoc { name: "rounds", help: "rounds in the game, 1..=10000", default: defaults.rounds.to_string() },
            OptionDoc {
                name: "blast_radius",
                help: "a bomb's blast area is the (2r+1) x (2r+1) square around it, r in 0..=10",
                default: defaults.blast_radius.to_string(),
            },
        ]
    }
}
