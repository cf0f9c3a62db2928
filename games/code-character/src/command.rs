//! What a player answers ([`Command`]s, the engine's `Game::Action` is a list of them), why a
//! whole answer is refused ([`Invalid`]) and why one command is rejected ([`CommandError`])
//! (code-character.md "Units and commands" and "What a bot sees and returns").
//!
//! A whole answer is refused only when it is malformed: longer than [`MAX_COMMANDS`], or with a
//! non-finite coordinate **\[ours\]** (NaN or infinity cannot be recorded in a JSON replay, and no
//! finite check could accept them). Every other problem rejects just that command, which is
//! ignored and reported back in the player's next observation.
//!
//! Checks, per command, in this order **\[ours\]**: unknown id, enemy id, more than one command for
//! the unit (all of them rejected), a DEAD unit **\[ours\]** (it is removed before the update, so
//! the command could do nothing), then the order's own rules (for a transform: outside the map,
//! the tower limit, a base tile, as in the original). An id shared by a bot that has just
//! transformed (DEAD) and its new tower names the tower **\[ours\]**.
//!
//! Every check runs in the sender's own frame **\[ours\]**: a target's tile is floor(x),
//! floor(y) as the player sent it (the map is point-symmetric, so its own grid is the engine's
//! grid). The original validated player 2's `move(p)`/`blast(p)` targets after flipping them
//! into player 1's frame, so a target on a grid line could name another tile for player 2 than
//! the same target for player 1; we keep the symmetric rule (see the `perspective` module).
//! An accepted order to a busy bot may still change nothing (the `unit` module's `give_order`).

use crate::geometry::Vec2;
use crate::map::{Map, Terrain};
use crate::rules::{self, MAX_NUM_TOWERS, TOWER_MIN_BLAST_AGE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest accepted answer **\[ours\]**: one command for each unit a player can have
/// (150 bots + 100 towers).
pub const MAX_COMMANDS: usize = rules::MAX_NUM_BOTS + rules::MAX_NUM_TOWERS;

/// One order for one unit, by id. Positions are in the player's own perspective.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Command {
    /// The bot's or tower's id.
    pub id: u32,
    /// What to do.
    pub order: Order,
}

impl Command {
    /// A command for unit `id`.
    pub fn new(id: u32, order: Order) -> Command {
        Command { id, order }
    }
}

/// What a unit is told to do.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Order {
    /// Bot: walk to the position.
    Move(Vec2),
    /// Bot: blast where it stands. Tower: blast (needs age >= 3).
    Blast,
    /// Bot: walk to the position, then blast there on the turn after arriving.
    BlastAt(Vec2),
    /// Bot: become a tower on its current tile.
    Transform,
    /// Bot: walk to the position, then become a tower there on the turn after arriving.
    TransformAt(Vec2),
}

impl Order {
    /// The order's position, if it has one.
    pub fn target(self) -> Option<Vec2> {
        match self {
            Order::Move(p) | Order::BlastAt(p) | Order::TransformAt(p) => Some(p),
            Order::Blast | Order::Transform => None,
        }
    }
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.order {
            Order::Move(p) => write!(f, "{} move{p}", self.id),
            Order::Blast => write!(f, "{} blast", self.id),
            Order::BlastAt(p) => write!(f, "{} blast{p}", self.id),
            Order::Transform => write!(f, "{} transform", self.id),
            Order::TransformAt(p) => write!(f, "{} transform{p}", self.id),
        }
    }
}

/// Why one command was rejected (it is ignored; the unit keeps its previous intent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum CommandError {
    /// No unit has this id.
    #[error("no unit has this id")]
    UnknownUnit,
    /// The unit is the enemy's.
    #[error("the unit is the enemy's")]
    EnemyUnit,
    /// The unit got more than one command this turn; all of them are ignored.
    #[error("more than one command for this unit this turn")]
    DuplicateUnit,
    /// The unit is DEAD (it is removed before the update).
    #[error("the unit is dead")]
    DeadUnit,
    /// Towers can only blast.
    #[error("towers can only blast")]
    TowerOrder,
    /// A tower can blast only from age 3.
    #[error("the tower is {age} turns old; it can blast from age 3")]
    TowerTooYoung {
        /// The tower's age now.
        age: u32,
    },
    /// The position is not inside the map (0 <= x, y < 30).
    #[error("the position is outside the map")]
    OutOfMap,
    /// The position's tile is WATER.
    #[error("the position's tile is water")]
    Water,
    /// The player already has 100 towers.
    #[error("the player already has 100 towers")]
    TowerLimit,
    /// The tile is a base tile.
    #[error("towers cannot be built on a base tile")]
    BaseTile,
}

/// A rejected command and why, reported in the player's next observation.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    /// The command as given.
    pub command: Command,
    /// Why it was ignored.
    pub reason: CommandError,
}

/// Why a whole answer was refused (the player then has no commands this turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Invalid {
    /// More than [`MAX_COMMANDS`] commands.
    #[error("{count} commands; at most {max} are accepted")]
    TooManyCommands {
        /// Commands given.
        count: usize,
        /// [`MAX_COMMANDS`].
        max: usize,
    },
    /// A command's position has a NaN or infinite coordinate.
    #[error("command {index} has a non-finite coordinate")]
    NonFinite {
        /// Its index in the list.
        index: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// There is no such seat.
    #[error("there is no seat {seat}")]
    NoSuchSeat {
        /// The seat.
        seat: usize,
    },
}

/// The shape checks of a whole answer (length, finite coordinates).
pub fn check_answer(commands: &[Command]) -> Result<(), Invalid> {
    if commands.len() > MAX_COMMANDS {
        return Err(Invalid::TooManyCommands { count: commands.len(), max: MAX_COMMANDS });
    }
    match commands.iter().position(|c| c.order.target().is_some_and(|p| !p.is_finite())) {
        Some(index) => Err(Invalid::NonFinite { index }),
        None => Ok(()),
    }
}

/// What command validation needs to know about one of the player's own units.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum UnitInfo {
    /// A bot at `position` (own perspective).
    Bot {
        /// Where it stands.
        position: Vec2,
        /// Whether it is DEAD.
        dead: bool,
    },
    /// A tower of age `age`.
    Tower {
        /// Its age.
        age: u32,
        /// Whether it is DEAD.
        dead: bool,
    },
}

/// The order's own rules for a bot at `position`, for a player owning `towers` towers (DEAD ones
/// not yet removed included).
pub fn check_bot_order(map: &Map, position: Vec2, order: Order, towers: usize) -> Result<(), CommandError> {
    let walkable = |p: Vec2| {
        if !p.in_map() {
            Err(CommandError::OutOfMap)
        } else if map.terrain(p.tile()) == Terrain::Water {
            Err(CommandError::Water)
        } else {
            Ok(())
        }
    };
    let buildable = |p: Vec2| {
        if towers >= MAX_NUM_TOWERS {
            Err(CommandError::TowerLimit)
        } else if rules::is_base_tile(p.tile()) {
            Err(CommandError::BaseTile)
        } else {
            Ok(())
        }
    };
    match order {
        Order::Move(p) | Order::BlastAt(p) => walkable(p),
        Order::Blast => Ok(()),
        Order::Transform => buildable(position),
        Order::TransformAt(p) => {
            if p.in_map() {
                buildable(p)
            } else {
                Err(CommandError::OutOfMap)
            }
        }
    }
}

/// The order's own rules for a tower of age `age`.
pub fn check_tower_order(age: u32, order: Order) -> Result<(), CommandError> {
    match order {
        Order::Blast if age >= TOWER_MIN_BLAST_AGE => Ok(()),
        Order::Blast => Err(CommandError::TowerTooYoung { age }),
        _ => Err(CommandError::TowerOrder),
    }
}

/// Validates every command of one answer: `own(id)` describes the player's own unit with that
/// id, `is_enemy(id)` says whether the id is the enemy's, `towers` is the player's tower count.
/// Returns one result per command, in order. The engine and [`crate::View::check_commands`]
/// both call this.
pub fn validate_commands(
    map: &Map,
    commands: &[Command],
    own: impl Fn(u32) -> Option<UnitInfo>,
    is_enemy: impl Fn(u32) -> bool,
    towers: usize,
) -> Vec<Result<(), CommandError>> {
    let mut per_unit: BTreeMap<u32, usize> = BTreeMap::new();
    for command in commands {
        *per_unit.entry(command.id).or_default() += 1;
    }
    commands
        .iter()
        .map(|command| {
            let Some(unit) = own(command.id) else {
                return Err(if is_enemy(command.id) { CommandError::EnemyUnit } else { CommandError::UnknownUnit });
            };
            if per_unit.get(&command.id).copied().unwrap_or(0) > 1 {
                return Err(CommandError::DuplicateUnit);
            }
            match unit {
                UnitInfo::Bot { dead: true, .. } | UnitInfo::Tower { dead: true, .. } => Err(CommandError::DeadUnit),
                UnitInfo::Bot { position, .. } => check_bot_order(map, position, command.order, towers),
                UnitInfo::Tower { age, .. } => check_tower_order(age, command.order),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    /// code-character.md "Units and commands": move(p) and blast(p) need the position inside the
    /// map on LAND or FLAG; a tower there is not checked.
    #[test]
    fn move_and_blast_targets() {
        let map = Map::default();
        let here = v(0.5, 0.5);
        assert_eq!(check_bot_order(&map, here, Order::Move(v(29.99, 0.0)), 0), Ok(()));
        assert_eq!(check_bot_order(&map, here, Order::Move(v(30.0, 0.0)), 0), Err(CommandError::OutOfMap));
        assert_eq!(check_bot_order(&map, here, Order::BlastAt(v(-0.1, 3.0)), 0), Err(CommandError::OutOfMap));
        assert_eq!(check_bot_order(&map, here, Order::BlastAt(v(14.5, 3.0)), 0), Err(CommandError::Water));
        // On the grid line x = 14 the tile is the water below it.
        assert_eq!(check_bot_order(&map, here, Order::Move(v(14.0, 3.0)), 0), Err(CommandError::Water));
        assert_eq!(check_bot_order(&map, here, Order::Move(v(14.5, 14.5)), 0), Ok(()));
        assert_eq!(check_bot_order(&map, here, Order::Blast, MAX_NUM_TOWERS), Ok(()));
    }

    /// code-character.md "Units and commands": transform is refused at 100 towers and on base
    /// tiles; transform(p) needs p inside the map (WATER is not checked: the bot never arrives).
    #[test]
    fn transform_rules() {
        let map = Map::default();
        assert_eq!(check_bot_order(&map, v(0.5, 0.9), Order::Transform, 0), Err(CommandError::BaseTile));
        assert_eq!(check_bot_order(&map, v(1.0, 0.9), Order::Transform, 0), Ok(()));
        assert_eq!(check_bot_order(&map, v(3.5, 3.5), Order::Transform, 100), Err(CommandError::TowerLimit));
        assert_eq!(check_bot_order(&map, v(3.5, 3.5), Order::Transform, 99), Ok(()));
        let at = |p| check_bot_order(&map, v(3.5, 3.5), Order::TransformAt(p), 5);
        assert_eq!(at(v(29.5, 29.5)), Err(CommandError::BaseTile));
        assert_eq!(at(v(29.5, 30.5)), Err(CommandError::OutOfMap));
        assert_eq!(at(v(14.5, 3.5)), Ok(()));
    }

    /// code-character.md "Units and commands": an early tower blast is rejected; towers only blast.
    #[test]
    fn tower_orders() {
        assert_eq!(check_tower_order(2, Order::Blast), Err(CommandError::TowerTooYoung { age: 2 }));
        assert_eq!(check_tower_order(3, Order::Blast), Ok(()));
        assert_eq!(check_tower_order(9, Order::Transform), Err(CommandError::TowerOrder));
    }

    /// code-character.md "What a bot sees and returns": unknown and enemy ids, and every command
    /// of a unit commanded twice, are rejected.
    #[test]
    fn per_command_results() {
        let map = Map::default();
        let own = |id: u32| match id {
            1 => Some(UnitInfo::Bot { position: v(2.5, 2.5), dead: false }),
            2 => Some(UnitInfo::Bot { position: v(2.5, 2.5), dead: true }),
            3 => Some(UnitInfo::Tower { age: 0, dead: false }),
            _ => None,
        };
        let commands = [
            Command::new(1, Order::Blast),
            Command::new(7, Order::Blast),
            Command::new(9, Order::Blast),
            Command::new(3, Order::Blast),
            Command::new(2, Order::Move(v(1.0, 1.0))),
            Command::new(1, Order::Transform),
        ];
        let results = validate_commands(&map, &commands, own, |id| id == 7, 0);
        assert_eq!(
            results,
            [
                Err(CommandError::DuplicateUnit),
                Err(CommandError::EnemyUnit),
                Err(CommandError::UnknownUnit),
                Err(CommandError::TowerTooYoung { age: 0 }),
                Err(CommandError::DeadUnit),
                Err(CommandError::DuplicateUnit),
            ]
        );
    }

    #[test]
    fn malformed_answers() {
        assert_eq!(check_answer(&[]), Ok(()));
        let long = vec![Command::new(1, Order::Blast); MAX_COMMANDS + 1];
        assert_eq!(check_answer(&long), Err(Invalid::TooManyCommands { count: 251, max: 250 }));
        let nan = [Command::new(1, Order::Blast), Command::new(1, Order::Move(v(f64::NAN, 1.0)))];
        assert_eq!(check_answer(&nan), Err(Invalid::NonFinite { index: 1 }));
        assert_eq!(Command::new(4, Order::BlastAt(v(1.5, 2.0))).to_string(), "4 blast(1.5, 2)");
    }
}
