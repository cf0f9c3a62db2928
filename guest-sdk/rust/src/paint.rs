//! Paint bots: the prelude, the [`PaintBot`] trait and the
//! [`export_paint_bot!`](crate::export_paint_bot) macro.
//!
//! The view a bot gets is the engine's own [`arena_paint::View`] (inside [`crate::View`]), so its
//! helpers (`legal_actions`, `check`, `neighbours`, `in_bounds`, `run_length`, `shot_range`,
//! `squares_gained`, `scores`) are the very rules the host plays by; [`rules`](arena_paint::rules)
//! has a whole turn ([`rules::apply_turn`](arena_paint::rules::apply_turn)) for bots that simulate
//! ahead. [`distance`], [`towards`] and [`nearest`] add the distances the engine does not need.
//!
//! The host sends only the last turn's actions; the SDK keeps the history, so
//! `view.previous_actions` holds every turn played, oldest first. Turns the bot did not see (it
//! was suspended, or restarted and lost what it had kept) are recorded as no action for every
//! seat.

use crate::{InitInfo, TurnInfo};
use arena_paint::{Action, Board, Direction, Pos};

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    // Every game's world is called `bot`, and wit-bindgen names a crate-root (`#[macro_export]`)
    // macro after the world, so the bindings are generated for an SDK-local alias world that
    // includes `arena:paint/bot@0.1.0` unchanged (see `suitebot.rs`).
    wit_bindgen::generate!({
        path: "../../wit/paint",
        inline: "package arena-sdk:paint;\nworld paint-bot { include arena:paint/bot@0.1.0; }",
        world: "arena-sdk:paint/paint-bot",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
            "arena:paint/types@0.1.0": generate,
        },
        pub_export_macro: true,
        export_macro_name: "__export_paint_world",
        default_bindings_module: "arena_sdk::paint::bindings",
    });
}

use bindings::arena::paint::types as wit;

/// Everything a Paint bot needs: `use arena_sdk::paint::prelude::*;`.
pub mod prelude {
    pub use super::{PaintBot, View, distance, nearest, towards};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, TurnInfo, log};
    pub use arena_paint::rules;
    pub use arena_paint::{Action, ActionKind, Board, DIRECTIONS, Direction, Invalid, Pos, View as BoardState};
}

/// What a Paint bot sees: the engine's [`arena_paint::View`] plus this turn's budget.
pub type View = crate::View<arena_paint::View>;

/// King-move distance between two squares: the fewest walks from `a` to `b` on an empty board
/// (`max(|rows|, |cols|)`).
pub fn distance(a: Pos, b: Pos) -> u32 {
    a.row.abs_diff(b.row).max(a.col.abs_diff(b.col))
}

/// The direction of the first walk on a shortest path from `from` to `to` (diagonal while both
/// coordinates differ); `None` when they are the same square.
pub fn towards(from: Pos, to: Pos) -> Option<Direction> {
    Direction::from_delta([to.row.saturating_sub(from.row).signum(), to.col.saturating_sub(from.col).signum()])
}

/// The open square satisfying `wanted` nearest to `from` by [`distance`], ties to the first in
/// row-major order; `None` when there is none. For example the nearest square not yet of seat
/// `s`'s colour: `nearest(board, me, |pos| board.color(pos) != Some(s))`.
pub fn nearest(board: &Board, from: Pos, wanted: impl Fn(Pos) -> bool) -> Option<Pos> {
    board.squares().filter(|pos| board.is_open(*pos) && wanted(*pos)).min_by_key(|pos| distance(from, *pos))
}

/// A Paint bot. One value lives for the whole match (and is rebuilt with `Default` after a
/// restart); its fields persist between turns.
pub trait PaintBot: Default + 'static {
    /// Called once before the first turn, and again after every restart. Budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// Chooses this turn's action (called once per turn; all seats act at once). An action whose
    /// direction is not one of the 8 [`DIRECTIONS`](arena_paint::DIRECTIONS) is invalid: the bot does nothing this turn.
    fn act(&mut self, view: &View) -> Action;
}

/// Exports a type implementing [`PaintBot`] as the component's `arena:paint/player` interface.
/// See [`crate::__export_bot`] for what a native build gets instead.
#[macro_export]
macro_rules! export_paint_bot {
    ($bot:ty) => {
        $crate::__export_bot!($bot, paint, __export_paint_world);
    };
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitView = wit::View;
    pub type WitAction = wit::Action;

    std::thread_local! {
        /// This instance's previous view (one instance plays one seat of one match): its history
        /// grows by each turn, and its board and lists are refilled, not reallocated.
        static PREVIOUS: RefCell<Option<(arena_paint::View, Vec<u8>)>> = const { RefCell::new(None) };
    }

    pub fn init<B: PaintBot>(slot: &RefCell<Option<B>>, info: WitInitInfo) {
        crate::__private::start(slot, |bot| bot.init(&InitInfo::from(info)));
    }

    pub fn take_turn<B: PaintBot>(slot: &RefCell<Option<B>>, mut view: WitView) -> WitAction {
        let info = TurnInfo::from(view.info);
        let previous = PREVIOUS.with(|previous| previous.borrow_mut().take());
        let state = match previous {
            Some((state, squares)) => view_from_wit(&view, Some((state, &squares))),
            None => view_from_wit(&view, None),
        };
        let view_now = crate::View { info, state };
        let action = crate::__private::with_bot(slot, |bot: &mut B| bot.act(&view_now));
        // Moved back, not copied: the next turn rewrites only the squares that changed.
        let squares = std::mem::take(&mut view.squares);
        PREVIOUS.with(|previous| *previous.borrow_mut() = Some((view_now.state, squares)));
        action_to_wit(&action)
    }
}

arena_paint::wit_glue!(crate::common::wit::TurnInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_paint::ActionKind;
    use arena_paint::wit_glue::{OBSTACLE, UNPAINTED};

    fn wit_view(turns_played: u32, last: Option<Action>) -> wit::View {
        wit::View {
            seat: 1,
            width: 3,
            height: 2,
            squares: vec![0, UNPAINTED, OBSTACLE, UNPAINTED, UNPAINTED, 1],
            positions: vec![wit::Pos { row: 0, col: 0 }, wit::Pos { row: 1, col: 2 }],
            turns_left: 10,
            turns_played,
            last_actions: if turns_played == 0 { Vec::new() } else { vec![last.as_ref().map(action_to_wit), None] },
            info: crate::common::wit::TurnInfo {
                turn: 0,
                turn_fuel_remaining: 0,
                game_fuel_remaining: 0,
                missed_turns: 0,
            },
        }
    }

    #[test]
    fn the_board_and_positions_come_back() {
        let view = view_from_wit(&wit_view(0, None), None);
        assert_eq!(view.board.text(&view.positions), "A.#\n..B");
        assert_eq!(view.me(), Some(Pos::new(1, 2)));
        assert!(view.previous_actions.is_empty());
    }

    /// The history grows by the last turn; missed turns are padded with no action.
    #[test]
    fn history_is_kept_and_gaps_are_padded() {
        let east = Action::walk(Direction::East);
        let bad = Action { kind: ActionKind::Shoot, direction: [0, 0] };
        let view = view_from_wit(&wit_view(1, Some(east)), None);
        assert_eq!(view.previous_actions, vec![vec![Some(east), None]]);
        let view = view_from_wit(&wit_view(2, Some(bad)), Some((view, &[])));
        assert_eq!(view.previous_actions, vec![vec![Some(east), None], vec![Some(bad), None]]);
        let view = view_from_wit(&wit_view(5, None), Some((view, &[])));
        assert_eq!(view.previous_actions.len(), 5);
        assert_eq!(view.previous_actions[1], vec![Some(bad), None]);
        assert_eq!(view.previous_actions[2], vec![None, None]);
        let view = view_from_wit(&wit_view(1, None), Some((view, &[])));
        assert_eq!(view.previous_actions, vec![vec![None, None]], "a restarted match starts over");
    }

    #[test]
    fn distances_and_directions() {
        assert_eq!(distance(Pos::new(0, 0), Pos::new(3, -5)), 5);
        assert_eq!(towards(Pos::new(2, 2), Pos::new(0, 9)), Some(Direction::NorthEast));
        assert_eq!(towards(Pos::new(2, 2), Pos::new(2, 2)), None);
        let board = arena_paint::wit_glue::board_from_squares(3, 2, &[0, UNPAINTED, OBSTACLE, UNPAINTED, UNPAINTED, 1]);
        assert_eq!(nearest(&board, Pos::new(1, 2), |pos| board.color(pos).is_none()), Some(Pos::new(0, 1)));
        assert_eq!(arena_paint::DIRECTIONS.len(), 8);
    }
}
