//! SuiteBot II's WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings and the SDK's wit-bindgen bindings expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types. Every WIT action is an engine action, and every action is
//! legal.

/// Expands to `view_to_wit`, `view_from_wit`, `action_to_wit` and `action_from_wit` for the
/// generated module `wit` in scope; `$turn_info` is that side's generated `turn-info` type.
#[macro_export]
macro_rules! wit_glue {
    ($turn_info:ty) => {
        /// A WIT action as the engine's.
        #[allow(dead_code)]
        pub(crate) fn action_from_wit(action: wit::Action) -> $crate::Action {
            match action {
                wit::Action::Up => $crate::Action::Up,
                wit::Action::Down => $crate::Action::Down,
                wit::Action::Left => $crate::Action::Left,
                wit::Action::Right => $crate::Action::Right,
                wit::Action::Hold => $crate::Action::Hold,
                wit::Action::PlantBomb => $crate::Action::PlantBomb,
            }
        }

        /// An engine action as the WIT's.
        #[allow(dead_code)]
        pub(crate) fn action_to_wit(action: $crate::Action) -> wit::Action {
            match action {
                $crate::Action::Up => wit::Action::Up,
                $crate::Action::Down => wit::Action::Down,
                $crate::Action::Left => wit::Action::Left,
                $crate::Action::Right => wit::Action::Right,
                $crate::Action::Hold => wit::Action::Hold,
                $crate::Action::PlantBomb => wit::Action::PlantBomb,
            }
        }

        /// The engine's view as the WIT view.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            let pos = |pos: $crate::Pos| wit::Pos { x: pos.x, y: pos.y };
            wit::View {
                seat: view.seat,
                round: view.round,
                rounds: view.rounds,
                width: view.width,
                height: view.height,
                blast_radius: view.blast_radius,
                players: view
                    .players
                    .iter()
                    .map(|player| wit::PlayerView {
                        score: u32::try_from(player.score.max(0)).unwrap_or(u32::MAX),
                        base: pos(player.base),
                        agent: pos(player.agent),
                        last_move: player.last_move.map(action_to_wit),
                    })
                    .collect(),
                points: view.points.clone(),
                bombs: view
                    .bombs
                    .iter()
                    .map(|bomb| wit::Bomb { at: pos(bomb.at), owner: bomb.owner, countdown: bomb.countdown })
                    .collect(),
                info,
            }
        }

        /// The engine's view from the WIT view.
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: wit::View) -> $crate::View {
            let pos = |pos: wit::Pos| $crate::Pos { x: pos.x, y: pos.y };
            $crate::View {
                seat: view.seat,
                round: view.round,
                rounds: view.rounds,
                width: view.width,
                height: view.height,
                blast_radius: view.blast_radius,
                players: view
                    .players
                    .into_iter()
                    .map(|player| $crate::PlayerView {
                        score: i64::from(player.score),
                        base: pos(player.base),
                        agent: pos(player.agent),
                        last_move: player.last_move.map(action_from_wit),
                    })
                    .collect(),
                // Moved, not copied: the one per-field list costs a single copy, into the bot.
                points: view.points,
                bombs: view
                    .bombs
                    .into_iter()
                    .map(|bomb| $crate::Bomb { at: pos(bomb.at), owner: bomb.owner, countdown: bomb.countdown })
                    .collect(),
                board: $crate::BoardEncoding::Nested,
            }
        }
    };
}
