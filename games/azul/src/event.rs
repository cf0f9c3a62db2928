//! What happened during a step ([`Event`], the engine's `Game::Event`), for replays, logs and the
//! golden playthrough. Events carry enough to follow the game without re-running the rules.

use crate::board::{counts_text, tiles_text};
use crate::rules::{EndBonus, FACTORIES};
use crate::{Colour, Move};
use serde::{Deserialize, Serialize};

/// Why the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// A wall gained a complete horizontal row.
    RowCompleted,
    /// The round cap ([`crate::rules::ROUND_CAP`]) was reached.
    RoundCap,
}

/// One thing that happened during a step, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A move was applied.
    Took {
        /// The seat that moved.
        seat: u8,
        /// The move.
        mv: Move,
        /// Whether the engine applied it as the fallback (the seat gave no action).
        fallback: bool,
        /// Tiles taken.
        taken: u8,
        /// Tiles put on the pattern line.
        to_line: u8,
        /// Tiles put on the floor.
        to_floor: u8,
        /// Tiles beyond the 7 floor slots, returned to the bag.
        discarded: u8,
        /// Whether the seat took the starting-player marker.
        marker: bool,
        /// Tiles per colour moved from the factory to the center (all zero for the center).
        to_center: [u8; 5],
    },
    /// Every source is empty: the round's wall tiling follows.
    CollectionEnded {
        /// The round that ends.
        round: u32,
    },
    /// A full pattern line put a tile on the wall.
    Tiled {
        /// The board's seat.
        seat: u8,
        /// Wall row (= pattern line).
        row: u8,
        /// Wall column.
        col: u8,
        /// The tile's colour.
        colour: Colour,
        /// Points scored.
        points: u32,
        /// The line's other tiles, returned to the bag.
        returned: u8,
        /// The seat's score afterwards.
        score: i64,
    },
    /// A floor line was scored and cleared.
    Floor {
        /// The board's seat.
        seat: u8,
        /// Occupied slots, the marker included.
        slots: u8,
        /// Whether the marker was among them.
        marker: bool,
        /// The penalty by the table (0 or negative).
        penalty: i32,
        /// The seat's score afterwards (clamped at 0).
        score: i64,
    },
    /// The factories were refilled for a new round.
    Restocked {
        /// The new round.
        round: u32,
        /// Who starts it (the marker holder).
        first: u8,
        /// Tiles per colour on each factory.
        factories: [[u8; 5]; FACTORIES],
        /// Tiles per colour left in the bag.
        bag: [u8; 5],
    },
    /// The game ended; scores include the bonuses.
    GameEnded {
        /// Why.
        reason: EndReason,
        /// Bonuses per seat.
        bonuses: [EndBonus; 2],
        /// Final scores per seat.
        scores: [i64; 2],
        /// Complete horizontal rows per seat (the tie-break).
        rows: [u32; 2],
    },
}

/// One line per event, as in the golden playthrough.
impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Took { seat, mv, fallback, taken, to_line, to_floor, discarded, marker, to_center } => {
                write!(f, "seat {seat} plays {mv}")?;
                if *fallback {
                    write!(f, " (fallback)")?;
                }
                write!(f, ": took {taken}, line +{to_line}, floor +{to_floor}, discarded {discarded}")?;
                if *marker {
                    write!(f, ", took the marker")?;
                }
                if to_center.iter().any(|count| *count > 0) {
                    write!(f, ", to center {}", tiles_text(to_center))?;
                }
                Ok(())
            }
            Event::CollectionEnded { round } => write!(f, "round {round}: wall tiling"),
            Event::Tiled { seat, row, col, colour, points, returned, score } => write!(
                f,
                "seat {seat} tiles {colour} at row {row} col {col}: +{points} (score {score}), {returned} back to the bag"
            ),
            Event::Floor { seat, slots, marker, penalty, score } => write!(
                f,
                "seat {seat} floor: {slots} occupied{}, {penalty} (score {score})",
                if *marker { " with the marker" } else { "" }
            ),
            Event::Restocked { round, first, factories, bag } => {
                write!(f, "round {round}: seat {first} starts; factories")?;
                for factory in factories {
                    write!(f, " {}", tiles_text(factory))?;
                }
                write!(f, "; bag {}", counts_text(bag))
            }
            Event::GameEnded { reason, bonuses, scores, rows } => {
                write!(f, "game over ({reason:?})")?;
                for (seat, ((bonus, score), rows)) in bonuses.iter().zip(scores).zip(rows).enumerate() {
                    write!(
                        f,
                        "; seat {seat}: {score} (bonus +{}: rows {}, columns {}, colours {}; complete rows {rows})",
                        bonus.points(),
                        bonus.rows,
                        bonus.columns,
                        bonus.colours
                    )?;
                }
                Ok(())
            }
        }
    }
}
