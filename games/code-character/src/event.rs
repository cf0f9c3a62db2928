//! What happened during a step ([`Event`], the engine's `Game::Event`), for replays, logs and the
//! golden playthrough. An event tells what happened to a unit as its owner sees it **\[ours\]**:
//! the owner's seat, the owner's own id, positions and tiles in the owner's own coordinates;
//! commands inside rejections are as the player sent them. So an event is the very same in the
//! seat-swapped match (with the other seat number): mirroring a position into the other frame
//! would not be exact.

use crate::command::Rejection;
use crate::geometry::{Tile, Vec2};
use serde::{Deserialize, Serialize};

/// One thing that happened during a step, in the order of code-character.md "One turn".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// A command was rejected and ignored (also reported in the seat's next observation).
    Rejected {
        /// The commanding seat.
        seat: u8,
        /// The command and why.
        rejection: Rejection,
    },
    /// The original's NO_MULTIPLE_BOT_TASK: a bot holding two targets got no command in its
    /// seat's answer this turn. It holds two when it was given a `move` (kept, never carried
    /// out) while walking to a blast or transform target, or when, waiting in TRANSFORM, it
    /// was given a blast or transform order and then a `move` (both stored, neither carried
    /// out; they stay for the one turn the bot remains visible once it is a tower or dead).
    /// Reported while the seat's answer is read, after its rejections; a seat without an answer
    /// reports nothing. Both players' views show the targets ([`crate::BotView::intent`] and
    /// [`crate::BotView::extra_move`]).
    MultipleTasks {
        /// Its owner.
        seat: u8,
        /// Its id.
        id: u32,
    },
    /// A bot blasted.
    BotBlasted {
        /// Its owner.
        seat: u8,
        /// Its id.
        id: u32,
        /// Where (its owner's coordinates).
        at: Vec2,
    },
    /// A tower blasted.
    TowerBlasted {
        /// Its owner.
        seat: u8,
        /// Its id.
        id: u32,
        /// Its tile (its owner's coordinates).
        tile: Tile,
    },
    /// A unit's hp reached 0.
    Died {
        /// Its owner.
        seat: u8,
        /// Its id.
        id: u32,
        /// Whether it was a tower.
        tower: bool,
    },
    /// A bot became a tower.
    Transformed {
        /// Its owner.
        seat: u8,
        /// The bot's id, now the tower's.
        id: u32,
        /// The tower's tile (its owner's coordinates).
        tile: Tile,
        /// The tower's hp.
        hp: u32,
    },
    /// The turn's points were scored.
    Scored {
        /// Points per seat this turn.
        points: [u32; 2],
        /// The seat that won the turn (`None` on equal points).
        winner: Option<u8>,
        /// Game scores per seat afterwards.
        scores: [u32; 2],
    },
    /// A bot spawned at its base.
    Spawned {
        /// Its owner.
        seat: u8,
        /// Its id.
        id: u32,
    },
    /// The last turn was played.
    GameEnded {
        /// Final game scores per seat.
        scores: [u32; 2],
        /// The winner, `None` for a draw.
        winner: Option<u8>,
    },
}

/// One line per event, as in the golden playthrough.
impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = |winner: &Option<u8>| winner.map_or_else(|| "nobody".to_string(), |seat| format!("seat {seat}"));
        match self {
            Event::Rejected { seat, rejection } => {
                write!(f, "seat {seat}: rejected `{}`: {}", rejection.command, rejection.reason)
            }
            Event::MultipleTasks { seat, id } => {
                write!(f, "seat {seat}: bot {id} has more than one task (NO_MULTIPLE_BOT_TASK)")
            }
            Event::BotBlasted { seat, id, at } => write!(f, "seat {seat}: bot {id} blasts at {at}"),
            Event::TowerBlasted { seat, id, tile } => write!(f, "seat {seat}: tower {id} blasts at {tile}"),
            Event::Died { seat, id, tower } => {
                write!(f, "seat {seat}: {} {id} dies", if *tower { "tower" } else { "bot" })
            }
            Event::Transformed { seat, id, tile, hp } => {
                write!(f, "seat {seat}: bot {id} becomes a tower at {tile} with {hp} hp")
            }
            Event::Scored { points, winner, scores } => write!(
                f,
                "points {}-{}: {} scores, game score {}-{}",
                points[0],
                points[1],
                who(winner),
                scores[0],
                scores[1]
            ),
            Event::Spawned { seat, id } => write!(f, "seat {seat}: bot {id} spawns"),
            Event::GameEnded { scores, winner } => {
                write!(f, "game over {}-{}: ", scores[0], scores[1])?;
                match winner {
                    Some(seat) => write!(f, "seat {seat} wins"),
                    None => write!(f, "draw"),
                }
            }
        }
    }
}
