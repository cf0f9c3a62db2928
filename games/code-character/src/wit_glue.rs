//! Code Character's WIT conversions, written once for both sides of the wasm boundary: the
//! host's wasmtime bindings and the SDK's wit-bindgen bindings expand
//! [`wit_glue!`](crate::wit_glue!) against their own generated types.
//!
//! The map and everything else that never changes (the static view) goes once, to `init`; the
//! per-turn view carries only what changes. Everything is already in the seat's own perspective
//! (the engine mirrors it); positions are the engine's `f64`s, unchanged.

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
            use $crate::Terrain;
            let terrain = |terrain| match terrain {
                Terrain::Land => wit::Terrain::Land,
                Terrain::Water => wit::Terrain::Water,
                Terrain::Flag => wit::Terrain::Flag,
            };
            wit::StaticView {
                seat: statics.seat,
                terrain: $crate::Tile::all().map(|tile| terrain(statics.map.terrain(tile))).collect(),
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
            let mut tiles = [[Terrain::Land; MAP_SIZE]; MAP_SIZE];
            for (tile, terrain) in $crate::Tile::all().zip(&statics.terrain) {
                if let Some(slot) = tiles.get_mut(usize::from(tile.x)).and_then(|row| row.get_mut(usize::from(tile.y)))
                {
                    *slot = match terrain {
                        wit::Terrain::Land => Terrain::Land,
                        wit::Terrain::Water => Terrain::Water,
                        wit::Terrain::Flag => Terrain::Flag,
                    };
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
            use $crate::{BotStatus, Intent};
            let state = match bot.state {
                BotStatus::Idle => wit::BotStatus::Idle,
                BotStatus::Move => wit::BotStatus::Move,
                BotStatus::Blast => wit::BotStatus::Blast,
                BotStatus::Transform => wit::BotStatus::Transform,
                BotStatus::Dead => wit::BotStatus::Dead,
            };
            let intent = match bot.intent {
                Intent::None => wit::Intent::None,
                Intent::Move(p) => wit::Intent::Move(vec2_to_wit(p)),
                Intent::BlastAt(p) => wit::Intent::BlastAt(vec2_to_wit(p)),
                Intent::TransformAt(p) => wit::Intent::TransformAt(vec2_to_wit(p)),
                Intent::Blast => wit::Intent::Blast,
                Intent::Transform => wit::Intent::Transform,
            };
            wit::Bot {
                id: bot.id,
                hp: bot.hp,
                position: vec2_to_wit(bot.position),
                state,
                intent,
                extra_move: bot.extra_move.map(vec2_to_wit),
            }
        }

        #[allow(dead_code)]
        fn bot_from_wit(bot: &wit::Bot) -> $crate::BotView {
            use $crate::{BotStatus, Intent};
            let state = match bot.state {
                wit::BotStatus::Idle => BotStatus::Idle,
                wit::BotStatus::Move => BotStatus::Move,
                wit::BotStatus::Blast => BotStatus::Blast,
                wit::BotStatus::Transform => BotStatus::Transform,
                wit::BotStatus::Dead => BotStatus::Dead,
            };
            let intent = match bot.intent {
                wit::Intent::None => Intent::None,
                wit::Intent::Move(p) => Intent::Move(vec2_from_wit(p)),
                wit::Intent::BlastAt(p) => Intent::BlastAt(vec2_from_wit(p)),
                wit::Intent::TransformAt(p) => Intent::TransformAt(vec2_from_wit(p)),
                wit::Intent::Blast => Intent::Blast,
                wit::Intent::Transform => Intent::Transform,
            };
            $crate::BotView {
                id: bot.id,
                hp: bot.hp,
                position: vec2_from_wit(bot.position),
                state,
                intent,
                extra_move: bot.extra_move.map(vec2_from_wit),
            }
        }

        #[allow(dead_code)]
        fn tower_to_wit(tower: &$crate::TowerView) -> wit::Tower {
            use $crate::TowerState;
            let state = match tower.state {
                TowerState::Idle => wit::TowerState::Idle,
                TowerState::Blast => wit::TowerState::Blast,
                TowerState::Dead => wit::TowerState::Dead,
            };
            wit::Tower {
                id: tower.id,
                hp: tower.hp,
                position: vec2_to_wit(tower.position),
                tile: wit::Tile { x: tower.tile.x, y: tower.tile.y },
                age: tower.age,
                state,
            }
        }

        #[allow(dead_code)]
        fn tower_from_wit(tower: &wit::Tower) -> $crate::TowerView {
            use $crate::TowerState;
            let state = match tower.state {
                wit::TowerState::Idle => TowerState::Idle,
                wit::TowerState::Blast => TowerState::Blast,
                wit::TowerState::Dead => TowerState::Dead,
            };
            $crate::TowerView {
                id: tower.id,
                hp: tower.hp,
                position: vec2_from_wit(tower.position),
                tile: $crate::Tile::new(tower.tile.x, tower.tile.y),
                age: tower.age,
                state,
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
