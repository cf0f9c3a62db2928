//! What happened during a step ([`Event`], the engine's `Game::Event`), for replays, logs and the
//! golden playthrough: every walk (made or dropped, and why) and every shot's whole flight (its
//! range, the squares it painted, where and why it stopped).

use crate::{Direction, Pos};
use serde::{Deserialize, Serialize};

/// Why a walk was dropped (the walker stays where it stood).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalkDrop {
    /// The target is off the board (paint.md "One turn" 1).
    OffBoard,
    /// The target is an obstacle (paint.md "Obstacles" **\[ours\]**: dropped like an off-board
    /// walk, before collisions are resolved).
    Obstacle,
    /// The target ended up holding two or more avatars (paint.md "One turn" 1).
    Collision,
}

/// Why a shot stopped. When several reasons hold at once, the first in this order is reported
/// (paint.md "One turn" 2.3 lists them in this order; **\[ours\]** for the obstacle's place). It
/// only labels the event: the shot is removed either way.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShotStop {
    /// It left the board.
    OffBoard,
    /// It entered an obstacle.
    Obstacle,
    /// It entered a square painted by a shot earlier this turn.
    PaintedThisTurn,
    /// Another live shot entered the same square in the same step.
    Collision,
    /// It entered a square holding an avatar (after this turn's walks).
    Avatar,
    /// It painted its last square (its range is spent).
    RangeSpent,
}

/// One thing that happened during a step. A step lists the walks (seat order), then the shots
/// (seat order), then [`Event::GameEnded`] if the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A walk was made; the walker's new square is painted in its colour.
    Walked {
        /// The walker.
        seat: u8,
        /// Its direction.
        direction: Direction,
        /// Where it stood.
        from: Pos,
        /// Where it stands now.
        to: Pos,
    },
    /// A walk was dropped: the walker stays (and its square is painted, as every avatar's is).
    WalkDropped {
        /// The walker.
        seat: u8,
        /// Its direction.
        direction: Direction,
        /// Where it stands.
        from: Pos,
        /// Where it tried to go.
        target: Pos,
        /// Why it could not.
        reason: WalkDrop,
    },
    /// A shot flew.
    Shot {
        /// The shooter.
        seat: u8,
        /// Its direction.
        direction: Direction,
        /// The shooter's square, where the shot started.
        from: Pos,
        /// Its range, `max(1, L - 1)` (paint.md "One turn" 2).
        range: u32,
        /// The squares it painted, in flight order.
        painted: Vec<Pos>,
        /// The square where it stopped: where it was removed, or its last painted square when
        /// its range ran out.
        stopped_at: Pos,
        /// Why it stopped.
        stop: ShotStop,
    },
    /// `turns_left` reached 0: the game is over.
    GameEnded {
        /// Squares of each seat's colour, in seat order.
        scores: Vec<i64>,
    },
}

impl std::fmt::Display for WalkDrop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WalkDrop::OffBoard => "off the board",
            WalkDrop::Obstacle => "obstacle",
            WalkDrop::Collision => "collision",
        })
    }
}

impl std::fmt::Display for ShotStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ShotStop::OffBoard => "off the board",
            ShotStop::Obstacle => "obstacle",
            ShotStop::PaintedThisTurn => "painted by a shot this turn",
            ShotStop::Collision => "collision",
            ShotStop::Avatar => "avatar",
            ShotStop::RangeSpent => "range spent",
        })
    }
}

/// One line per event, as in the golden playthrough.
impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Walked { seat, direction, from, to } => write!(f, "seat {seat} walks {direction}: {from} -> {to}"),
            Event::WalkDropped { seat, direction, from, target, reason } => {
                write!(f, "seat {seat} walks {direction} from {from}: dropped ({reason} at {target})")
            }
            Event::Shot { seat, direction, from, range, painted, stopped_at, stop } => {
                write!(f, "seat {seat} shoots {direction} from {from}, range {range}: painted")?;
                if painted.is_empty() {
                    write!(f, " nothing")?;
                }
                for pos in painted {
                    write!(f, " {pos}")?;
                }
                write!(f, "; stopped at {stopped_at} ({stop})")
            }
            Event::GameEnded { scores } => write!(f, "game over: scores {scores:?}"),
        }
    }
}
