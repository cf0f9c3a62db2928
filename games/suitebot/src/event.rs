//! What happened during a round ([`Event`], the engine's `Game::Event`), for replays, logs and the
//! golden playthrough. Events come in the order of suitebot.md "One round" and carry enough to
//! follow the game without re-running the rules.

use crate::board::by_seat;
use crate::rules::Cover;
use crate::{Action, Bomb, Pos};
use serde::{Deserialize, Serialize};

/// One thing that happened during a round, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The round starts: what every seat plays (step 1).
    Acted {
        /// The round, 1-based.
        round: u32,
        /// The action applied per seat, by seat.
        actions: Vec<Action>,
        /// Seats that gave no action and so play the fallback HOLD, ascending.
        fallback: Vec<u8>,
    },
    /// Agents ended their moves on one field and died (step 2).
    Collided {
        /// The field.
        at: Pos,
        /// Their seats, ascending.
        seats: Vec<u8>,
    },
    /// An agent planted a bomb (step 3).
    Planted {
        /// The planting seat.
        seat: u8,
        /// The field.
        at: Pos,
        /// The bomb it replaced, if one lay there.
        replaced: Option<Bomb>,
    },
    /// Bombs exploded (step 4), row-major, with the countdown each had (above 0: set off by
    /// another bomb).
    Exploded {
        /// The bombs.
        bombs: Vec<Bomb>,
    },
    /// Fields in exploding areas were mined (step 4).
    Mined {
        /// Points each seat gained from fields, by seat.
        points: Vec<u32>,
        /// Points lost because bombs of several seats covered the field.
        contested: u32,
    },
    /// An agent died in an explosion (step 4).
    Killed {
        /// The victim's seat.
        seat: u8,
        /// Where it stood.
        at: Pos,
        /// Whose bombs covered its field.
        cover: Cover,
        /// The seat that got [`crate::rules::KILL_POINTS`] for it, if any.
        credit: Option<u8>,
    },
    /// An agent stood on an enemy home base and was killed, without points (step 5).
    OnEnemyBase {
        /// The agent's seat.
        seat: u8,
        /// The base.
        at: Pos,
        /// The base's owner.
        base_of: u8,
    },
    /// A killed agent reappeared on its home base (step 5).
    Respawned {
        /// Its seat.
        seat: u8,
        /// Its base.
        at: Pos,
    },
    /// The round is over.
    RoundEnded {
        /// The round, 1-based.
        round: u32,
        /// Scores afterwards, by seat.
        scores: Vec<i64>,
    },
    /// The last round is over.
    GameEnded {
        /// Final scores, by seat.
        scores: Vec<i64>,
        /// Final ranks, by seat (1 is best; equal points share a place).
        ranks: Vec<u32>,
    },
}

/// One line per event, as in the golden playthrough.
impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Acted { round, actions, fallback } => {
                write!(f, "round {round}:")?;
                for (seat, action) in by_seat(actions) {
                    write!(f, " {seat}:{action}")?;
                    if fallback.contains(&seat) {
                        write!(f, "(fallback)")?;
                    }
                }
                Ok(())
            }
            Event::Collided { at, seats } => write!(f, "collision at {at}: seats {}", list(seats)),
            Event::Planted { seat, at, replaced } => {
                write!(f, "seat {seat} plants at {at}")?;
                if let Some(old) = replaced {
                    write!(f, ", replacing seat {}'s bomb (countdown {})", old.owner, old.countdown)?;
                }
                Ok(())
            }
            Event::Exploded { bombs } => {
                write!(f, "explosion:")?;
                for (i, bomb) in bombs.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(f, "{sep} {} of seat {}", bomb.at, bomb.owner)?;
                    if bomb.countdown > 0 {
                        write!(f, " (chained)")?;
                    }
                }
                Ok(())
            }
            Event::Mined { points, contested } => {
                let gains: Vec<String> = points
                    .iter()
                    .enumerate()
                    .filter(|(_, points)| **points > 0)
                    .map(|(seat, points)| format!("seat {seat} +{points}"))
                    .collect();
                let gains = if gains.is_empty() { "nothing".to_string() } else { gains.join(", ") };
                write!(f, "mined: {gains}; contested {contested}")
            }
            Event::Killed { seat, at, cover, credit } => {
                write!(f, "seat {seat} killed at {at}")?;
                match (cover, credit) {
                    (_, Some(killer)) => write!(f, " by seat {killer} (+{})", crate::rules::KILL_POINTS),
                    (Cover::Owner(_), None) => write!(f, " by its own bomb"),
                    (Cover::Contested, None) => write!(f, " by contested blasts"),
                }
            }
            Event::OnEnemyBase { seat, at, base_of } => write!(f, "seat {seat} killed on seat {base_of}'s base {at}"),
            Event::Respawned { seat, at } => write!(f, "seat {seat} respawns at {at}"),
            Event::RoundEnded { round, scores } => write!(f, "end of round {round}: scores {}", list(scores)),
            Event::GameEnded { scores, ranks } => {
                write!(f, "game over: scores {}, ranks {}", list(scores), list(ranks))
            }
        }
    }
}

/// `a b c`.
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}
