//! What a seat answers ([`Move`]) and why an answer is refused ([`Invalid`], one variant per
//! rule of azul.md "A round" 1).

use crate::Colour;
use serde::{Deserialize, Serialize};

/// One turn of tile collection: take every tile of `colour` from `source` and put them on
/// pattern line `line`. This is the engine's `Game::Action`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// [`crate::CENTER`] (0) for the table center, 1..=5 for a factory.
    pub source: u8,
    /// The colour taken.
    pub colour: Colour,
    /// Pattern line 0..=4 (line `i` holds `i + 1` tiles), or [`crate::FLOOR_LINE`] (5).
    pub line: u8,
}

impl std::fmt::Display for Move {
    /// The original protocol's answer line, `d c l`: for example `0 b 5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.source, self.colour.letter(), self.line)
    }
}

/// Why a move is refused (`std::error::Error`; written by hand rather than with thiserror,
/// which would take the `source` fields for error sources). Checked in this order: turn, source, line number, colour, then the
/// pattern-line rules (so a full line holding another colour reports [`Invalid::LineFull`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Invalid {
    /// It is not this seat's turn (or the game is over).
    NotYourTurn,
    /// `source` is not 0 (center) or 1..=5 (a factory).
    NoSuchSource {
        /// The source asked for.
        source: u8,
    },
    /// `line` is not 0..=4 (pattern lines) or 5 (floor line).
    NoSuchLine {
        /// The line asked for.
        line: u8,
    },
    /// The source holds no tile of this colour (taking only the marker is never possible).
    ColourNotInSource {
        /// The source asked for.
        source: u8,
        /// The colour asked for.
        colour: Colour,
    },
    /// The pattern line is already full.
    LineFull {
        /// The pattern line.
        line: u8,
    },
    /// The pattern line already holds tiles of another colour.
    LineHoldsOtherColour {
        /// The pattern line.
        line: u8,
        /// The colour it holds.
        holds: Colour,
    },
    /// The wall row of this pattern line already has a tile of this colour.
    WallRowHasColour {
        /// The pattern line (= wall row).
        line: u8,
        /// The colour asked for.
        colour: Colour,
    },
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Invalid::NotYourTurn => write!(f, "it is not this seat's turn"),
            Invalid::NoSuchSource { source } => {
                write!(f, "there is no source {source} (0 = center, 1..=5 = factories)")
            }
            Invalid::NoSuchLine { line } => {
                write!(f, "there is no line {line} (0..=4 = pattern lines, 5 = floor line)")
            }
            Invalid::ColourNotInSource { source, colour } => {
                write!(f, "source {source} holds no {colour:?} tile")
            }
            Invalid::LineFull { line } => write!(f, "pattern line {line} is full"),
            Invalid::LineHoldsOtherColour { line, holds } => {
                write!(f, "pattern line {line} holds {holds:?} tiles")
            }
            Invalid::WallRowHasColour { line, colour } => {
                write!(f, "wall row {line} already has a {colour:?} tile")
            }
        }
    }
}

impl std::error::Error for Invalid {}
