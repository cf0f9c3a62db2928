//! Code Character's WIT conversions, written once for both sides of the wasm boundary: the
//! host's wasmtime bindings and the SDK's wit-bindgen bindings expand
//! [`wit_glue!`](crate::wit_glue!) against their own generated types.
//!
//! The map and everything else that never changes (the static view) goes once, to `init`; the
//! per-turn view carries only what changes. Everything is already in the seat's own perspective
//! (the engine mirrors it); positions are the engine's `f64`s, unchanged. The unit lists and the
//! terrain are records of plain numbers (enums as their WIT case indices, below), which the bot's
//! side lifts as one block instead of decoding entry by entry.

use crate::{BotStatus, Intent, Terrain, TowerState, Vec2};
use arena_game::case_codes::{case_of, code_of};

/// The WIT `terrain` enum's cases, in order.
const TERRAINS: [Terrain; 3] = [Terrain::Land, Terrain::Water, Terrain::Flag];

/// The WIT `bot-status` enum's cases, in order.
const BOT_STATUSES: [BotStatus; 5] =
    [BotStatus::Idle, BotStatus::Move, BotStatus::Blast, BotStatus::Transform, BotStatus::Dead];

/// The WIT `tower-state` enum's cases, in order.
const TOWER_STATES: [TowerState; 3] = [TowerState::Idle, TowerState::Blast, TowerState::Dead];

/// The WIT `intent-kind` enum's case indices.
mod intent_kind {
    pub const NONE: u8 = 0;
    pub const MOVE: u8 = 1;
    pub const BLAST_AT: u8 = 2;
    pub const TRANSFORM_AT: u8 = 3;
    pub const BLAST: u8 = 4;
    pub const TRANSFORM: u8 = 5;
}

/// `terrain`'s WIT case index.
pub fn terrain_code(terrain: Terrain) -> u8 {
    code_of(&TERRAINS, &terrain)
}

/// The terrain with WIT case index `code`; water for a code out of range.
pub fn terrain_from_code(code: u8) -> Terrain {
    case_of(&TERRAINS, code).unwrap_or(Terrain::Water)
}

/// `status`'s WIT case index.
pub fn bot_status_code(status: BotStatus) -> u8 {
    code_of(&BOT_STATUSES, &status)
}

/// The bot status with WIT case index `code`; DEAD for a code out of range.
pub fn bot_status_from_code(code: u8) -> BotStatus {
    case_of(&BOT_STATUSES, code).unwrap_or(BotStatus::Dead)
}

/// `state`'s WIT case index.
pub fn tower_state_code(state: TowerState) -> u8 {
    code_of(&TOWER_STATES, &state)
}

/// The tower state with WIT case index `code`; DEAD for a code out of range.
pub fn tower_state_from_code(code: u8) -> TowerState {
    case_of(&TOWER_STATES, code).unwrap_or(TowerState::Dead)
}

/// An intent as its WIT `intent-kind` case index and target ((0, 0) for those without one).
pub fn intent_code(intent: Intent) -> (u8, Vec2) {
    use intent_kind::*;
    match intent {
        Intent::None => (NONE, Vec2::default()),
        Intent::Move(p) => (MOVE, p),
        Intent::BlastAt(p) => (BLAST_AT, p),
        Intent::TransformAt(p) => (TRANSFORM_AT, p),
        Intent::Blast => (BLAST, Vec2::default()),
        Intent::Transform => (TRANSFORM, Vec2::default()),
    }
}

/// The intent with WIT `intent-kind` case index `code` and `target`; none for a code out of
/// range.
pub fn intent_from_code(code: u8, target: Vec2) -> Intent {
    use intent_kind::*;
    match code {
        MOVE => Intent::Move(target),
        BLAST_AT => Intent::BlastAt(target),
        TRANSFORM_AT => Intent::TransformAt(target),
        BLAST => Intent::Blast,
        TRANSFORM => Intent::Transform,
        _ => Intent::None,
    }
}

/// Expands, for the generated module `wit` in scope (`$turn_info` is that side's generated
/// `turn-info` type), to `view_to_wit`/`view_from_wit`, `static_view_to_wit`/
/// `static_view_from_wit`, and `command_to_wit`/`command_from_wit` (the action is a list of
/// commands).
#[macro_export]
macro_rules! wit_glue {
    ($turn_info:ty) => {
        #[allow(dead_code)]
        fn vec2_to_wit(v: $crate::Vec2) -> wit::Vec2 {
            wit::Vec2 { x: v.x, y: v.y }
        }

        #[allow(dead_code)]
        fn vec2_from_wit(v: wit::Vec2) -> $crate::Vec2 {
            $crate::Vec2::new(v.x, v.y)
        }

        #[allow(dead_code)]
        fn order_to_wit(order: $crate::Order) -> wit::Order {
            use $crate::Order;
            match order {
                Order::Move(p) => wit::Order::Move(vec2_to_wit(p)),
                Order::Blast => wit::Order::Blast,
                Order::BlastAt(p) => wit::Order::BlastAt(vec2_to_wit(p)),
                Order::Transform => wit::Order::Transform,
                Order::TransformAt(p) => wit::Order::TransformAt(vec2_to_wit(p)),
            }
        }

        #[allow(dead_code)]
        fn order_from_wit(order: wit::Order) -> $crate::Order {
            use $crate::Order;
            match order {
                wit::Order::Move(p) => Order::Move(vec2_from_wit(p)),
                wit::Order::Blast => Order::Blast,
                wit::Order::BlastAt(p) => Order::BlastAt(vec2_from_wit(p)),
                wit::Order::Transform => Order::Transform,
                wit::Order::TransformAt(p) => Order::TransformAt(vec2_from_wit(p)),
            }
        }

        /// An engine command as the WIT's.
        #[allow(dead_code)]
        pub(crate) fn command_to_wit(command: &$crate::Command) -> wit::Command {
            wit::Command { id: command.id, order: order_to_wit(command.order) }
        }

        /// A WIT command as the engine's.
        #[allow(dead_code)]
        pub(crate) fn command_from_wit(command: &wit::Command) -> $crate::Command {
            $crate::Command::new(command.id, order_from_wit(command.order))
        }

        /// The static view (the map, flags, bases, turns) as the WIT's, row-major.
        #[allow(dead_code)]
        pub(crate) fn static_view_to_wit(statics: &$crate::StaticView) -> wit::StaticView {
            use $crate::wit_glue::terrain_code;
            wit::StaticView {
                seat: statics.seat,
                terrain: $crate::Tile::all().map(|tile| terrain_code(statics.map.terrain(tile))).collect(),
                flags: statics.flags.iter().copied().map(vec2_to_wit).collect(),
                turns: statics.turns,
                base: vec2_to_wit(statics.base),
                enemy_base: vec2_to_wit(statics.enemy_base),
            }
        }

        /// The static view back from the WIT's.
        #[allow(dead_code)]
        pub(crate) fn static_view_from_wit(statics: wit::StaticView) -> $crate::StaticView {
            use $crate::Terrain;
            use $crate::geometry::MAP_SIZE;
            // Row-major: row x is entries x * 30 .. x * 30 + 30 (a short list leaves LAND).
            let mut tiles = [[Terrain::Land; MAP_SIZE]; MAP_SIZE];
            for (row, codes) in tiles.iter_mut().zip(statics.terrain.chunks(MAP_SIZE)) {
                for (slot, code) in row.iter_mut().zip(codes) {
                    *slot = $crate::wit_glue::terrain_from_code(*code);
                }
            }
            $crate::StaticView {
                seat: statics.seat,
                // The host sends the engine's own (checked) map; a refused one falls back to the default.
                map: $crate::Map::from_tiles(tiles).unwrap_or_default(),
                flags: statics.flags.into_iter().map(vec2_from_wit).collect(),
                turns: statics.turns,
                base: vec2_from_wit(statics.base),
                enemy_base: vec2_from_wit(statics.enemy_base),
            }
        }

        #[allow(dead_code)]
        fn bot_to_wit(bot: &$crate::BotView) -> wit::Bot {
            use $crate::wit_glue::{bot_status_code, intent_code};
            let (intent, intent_target) = intent_code(bot.intent);
            wit::Bot {
                id: bot.id,
                hp: bot.hp,
                position: vec2_to_wit(bot.position),
                state: bot_status_code(bot.state),
                intent,
                has_extra_move: u8::from(bot.extra_move.is_some()),
                intent_target: vec2_to_wit(intent_target),
                extra_move: vec2_to_wit(bot.extra_move.unwrap_or_default()),
            }
        }

        #[allow(dead_code)]
        fn bot_from_wit(bot: &wit::Bot) -> $crate::BotView {
            use $crate::wit_glue::{bot_status_from_code, intent_from_code};
            $crate::BotView {
                id: bot.id,
                hp: bot.hp,
                position: vec2_from_wit(bot.position),
                state: bot_status_from_code(bot.state),
                intent: intent_from_code(bot.intent, vec2_from_wit(bot.intent_target)),
                extra_move: (bot.has_extra_move != 0).then(|| vec2_from_wit(bot.extra_move)),
            }
        }

        #[allow(dead_code)]
        fn tower_to_wit(tower: &$crate::TowerView) -> wit::Tower {
            wit::Tower {
                id: tower.id,
                hp: tower.hp,
                position: vec2_to_wit(tower.position),
                tile: wit::Tile { x: tower.tile.x, y: tower.tile.y },
                age: tower.age,
                state: $crate::wit_glue::tower_state_code(tower.state),
            }
        }

        #[allow(dead_code)]
        fn tower_from_wit(tower: &wit::Tower) -> $crate::TowerView {
            $crate::TowerView {
                id: tower.id,
                hp: tower.hp,
                position: vec2_from_wit(tower.position),
                tile: $crate::Tile::new(tower.tile.x, tower.tile.y),
                age: tower.age,
                state: $crate::wit_glue::tower_state_from_code(tower.state),
            }
        }

        #[allow(dead_code)]
        fn rejection_to_wit(rejection: &$crate::Rejection) -> wit::Rejection {
            use $crate::CommandError;
            let reason = match rejection.reason {
                CommandError::UnknownUnit => wit::CommandError::UnknownUnit,
                CommandError::EnemyUnit => wit::CommandError::EnemyUnit,
                CommandError::DuplicateUnit => wit::CommandError::DuplicateUnit,
                CommandError::DeadUnit => wit::CommandError::DeadUnit,
                CommandError::TowerOrder => wit::CommandError::TowerOrder,
                CommandError::TowerTooYoung { age } => wit::CommandError::TowerTooYoung(age),
                CommandError::OutOfMap => wit::CommandError::OutOfMap,
                CommandError::Water => wit::CommandError::Water,
                CommandError::TowerLimit => wit::CommandError::TowerLimit,
                CommandError::BaseTile => wit::CommandError::BaseTile,
            };
            wit::Rejection { command: command_to_wit(&rejection.command), reason }
        }

        #[allow(dead_code)]
        fn rejection_from_wit(rejection: &wit::Rejection) -> $crate::Rejection {
            use $crate::CommandError;
            let reason = match rejection.reason {
                wit::CommandError::UnknownUnit => CommandError::UnknownUnit,
                wit::CommandError::EnemyUnit => CommandError::EnemyUnit,
                wit::CommandError::DuplicateUnit => CommandError::DuplicateUnit,
                wit::CommandError::DeadUnit => CommandError::DeadUnit,
                wit::CommandError::TowerOrder => CommandError::TowerOrder,
                wit::CommandError::TowerTooYoung(age) => CommandError::TowerTooYoung { age },
                wit::CommandError::OutOfMap => CommandError::OutOfMap,
                wit::CommandError::Water => CommandError::Water,
                wit::CommandError::TowerLimit => CommandError::TowerLimit,
                wit::CommandError::BaseTile => CommandError::BaseTile,
            };
            $crate::Rejection { command: command_from_wit(&rejection.command), reason }
        }

        /// The per-turn view as the WIT's.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            wit::View {
                seat: view.seat,
                turn: view.turn,
                scores: (view.scores[0], view.scores[1]),
                points: (view.points[0], view.points[1]),
                bots: view.bots.iter().map(bot_to_wit).collect(),
                enemy_bots: view.enemy_bots.iter().map(bot_to_wit).collect(),
                towers: view.towers.iter().map(tower_to_wit).collect(),
                enemy_towers: view.enemy_towers.iter().map(tower_to_wit).collect(),
                rejected: view.rejected.iter().map(rejection_to_wit).collect(),
                info,
            }
        }

        /// The per-turn view back from the WIT's.
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: &wit::View) -> $crate::View {
            $crate::View {
                seat: view.seat,
                turn: view.turn,
                scores: [view.scores.0, view.scores.1],
                points: [view.points.0, view.points.1],
                bots: view.bots.iter().map(bot_from_wit).collect(),
                enemy_bots: view.enemy_bots.iter().map(bot_from_wit).collect(),
                towers: view.towers.iter().map(tower_from_wit).collect(),
                enemy_towers: view.enemy_towers.iter().map(tower_from_wit).collect(),
                rejected: view.rejected.iter().map(rejection_from_wit).collect(),
            }
        }
    };
}
