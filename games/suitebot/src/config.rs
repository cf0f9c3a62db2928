//! Match options ([`SuitebotConfig`], the engine's `Game::Config`) and their documentation for
//! `arena games`.
//!
//! suitebot.md fixes 100 rounds and leaves the board and the blast area to us (**\[ours\]**): the
//! defaults are the spec's, and the other values are options so that organisers can try
//! variants. Home bases follow from the board and the player count ([`crate::rules::home_bases`]).
//! One option is the line protocol's, not the rules': [`BoardEncoding`], how the per-round JSON
//! writes the board (one string per column, the default, or the original nested arrays).

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
    /// How the line protocol writes `fieldResources` and `fieldBombs` **\[ours\]**: one string
    /// per column (the default) or the original nested arrays. A stored config without the field
    /// means the nested arrays ([`BoardEncoding::when_missing`]), which is what configs and
    /// replays written before `strings` became the default carried; `nested` is left out when
    /// serialising, so they, and their state hashes, are unchanged.
    #[serde(default = "BoardEncoding::when_missing", skip_serializing_if = "BoardEncoding::is_nested")]
    pub board: BoardEncoding,
}

/// How the original protocol's per-round JSON carries the board (suitebot.md "Original
/// protocol"). The original writes `fieldResources` and `fieldBombs` as arrays of arrays with
/// one JSON value per field, mostly `1` and `null`: a program that parses its whole line (any
/// ordinary JSON library does) spends most of its fuel on them every round. `Strings` carries
/// exactly the same fields in one JSON string per column, indexed the same way (`[x]`, then the
/// field `y` within the string), so a line costs a few dozen JSON values instead of several
/// hundred: an ordinary compiled program (Go's `encoding/json` on the whole line) needs about
/// 157M fuel for a match on the nested arrays, more than the default game budget, so `Strings`
/// is the default. WIT bots are unaffected either way: their view is the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardEncoding {
    /// `fieldResources[x][y]` a number, `fieldBombs[x][y]` `{ownerId, countdown}` or `null`: the
    /// original protocol.
    Nested,
    /// `fieldResources[x]` a string of `height` digits, character `y` the points on (x, y);
    /// `fieldBombs[x]` a string of `2 * height` characters, characters `2y` and `2y+1` the bomb
    /// on (x, y) as its owner id digit and its countdown digit, or `..` for no bomb.
    #[default]
    Strings,
}

impl BoardEncoding {
    /// Every value, as the option accepts them.
    pub const ALL: [BoardEncoding; 2] = [BoardEncoding::Nested, BoardEncoding::Strings];

    /// What a stored config without the field means: [`BoardEncoding::Nested`], the default when
    /// such configs were written.
    pub fn when_missing() -> BoardEncoding {
        BoardEncoding::Nested
    }

    /// Whether this is the original, [`BoardEncoding::Nested`] (serde leaves it out then).
    pub fn is_nested(&self) -> bool {
        *self == BoardEncoding::Nested
    }

    /// The option's value as written: `nested` or `strings`.
    pub fn as_str(self) -> &'static str {
        match self {
            BoardEncoding::Nested => "nested",
            BoardEncoding::Strings => "strings",
        }
    }

    /// Reads the option's value: a bare word or its JSON string (as the other options accept
    /// JSON), anything else refused by name in one line.
    pub fn parse(value: &str) -> Result<BoardEncoding, SetupError> {
        let word = serde_json::from_str::<String>(value).unwrap_or_else(|_| value.to_owned());
        BoardEncoding::ALL.into_iter().find(|encoding| encoding.as_str() == word).ok_or_else(|| SetupError::Config {
            game: <crate::Suitebot as arena_game::Game>::NAME,
            reason: format!("board must be \"nested\" or \"strings\", not {value:?}"),
        })
    }
}

impl Default for SuitebotConfig {
    fn default() -> Self {
        SuitebotConfig {
            width: rules::WIDTH,
            height: rules::HEIGHT,
            rounds: rules::ROUNDS,
            blast_radius: rules::BLAST_RADIUS,
            board: BoardEncoding::Strings,
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
            OptionDoc {
                name: "board",
                help: "how the line protocol writes fieldResources and fieldBombs: nested (arrays of arrays, as the \
                       original; a program parsing its whole line pays for every field's value) or strings (one \
                       string per column, the same fields); WIT bots are unaffected",
                default: defaults.board.as_str().to_string(),
            },
        ]
    }

    /// A config from `--option key=value` pairs, as `arena_game::config_from_pairs` reads them,
    /// except `board`: a config serialises it only when it is not the default (so replays made
    /// without it are unchanged), which hides it from that generic reader, so it is read here.
    pub fn from_options(pairs: &[(String, String)]) -> Result<SuitebotConfig, SetupError> {
        let game = <crate::Suitebot as arena_game::Game>::NAME;
        let mut board = BoardEncoding::default();
        let mut rest = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            if key == "board" {
                board = BoardEncoding::parse(value)?;
            } else if SuitebotConfig::option_docs().iter().any(|doc| doc.name == key) {
                rest.push((key.clone(), value.clone()));
            } else {
                let mut known: Vec<&str> = SuitebotConfig::option_docs().iter().map(|doc| doc.name).collect();
                known.sort_unstable();
                let reason = format!("unknown option {key:?} (options: {})", known.join(", "));
                return Err(SetupError::Config { game, reason });
            }
        }
        let mut config: SuitebotConfig = arena_game::config_from_pairs(game, &rest)?;
        config.board = board;
        Ok(config)
    }
}
