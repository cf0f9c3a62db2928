//! Azul bots: the prelude, the [`AzulBot`] trait and the [`export_azul_bot!`](crate::export_azul_bot) macro.
//!
//! The view a bot gets is the engine's own [`arena_azul::View`] (inside [`crate::View`]), so
//! `legal_moves`, `check`, `score_if_placed` and `fallback_move` are the very rules the host
//! plays by; [`rules`](arena_azul::rules) has the wall pattern and the scoring functions.

use crate::{InitInfo, TurnInfo};

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/azul",
        world: "arena:azul/bot@0.1.0",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
        },
        pub_export_macro: true,
        export_macro_name: "__export_azul_world",
        default_bindings_module: "arena_sdk::azul::bindings",
    });
}

use bindings::arena::azul::types as wit;

/// Everything an Azul bot needs: `use arena_sdk::azul::prelude::*;`.
pub mod prelude {
    pub use super::{AzulBot, View};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, TurnInfo, log};
    pub use arena_azul::{
        BoardView, CENTER, COLOURS, Colour, FACTORIES, FLOOR_LINE, FLOOR_SLOTS, Move, PatternLine, View as BoardState,
        rules,
    };
}

/// What an Azul bot sees: the engine's [`arena_azul::View`] plus this turn's budget.
pub type View = crate::View<arena_azul::View>;

/// An Azul bot. One value lives for the whole match (and is rebuilt with `Default` after a
/// restart); its fields persist between turns.
pub trait AzulBot: Default + 'static {
    /// Called once before the first turn, and again after every restart. Budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// Chooses a move. An illegal move is an invalid action and the fallback applies.
    fn act(&mut self, view: &View) -> arena_azul::Move;
}

/// Exports a type implementing [`AzulBot`] as the component's `arena:azul/player` interface.
/// See [`crate::__export_bot`] for what a native build gets instead.
#[macro_export]
macro_rules! export_azul_bot {
    ($bot:ty) => {
        $crate::__export_bot!($bot, azul, __export_azul_world);
    };
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitView = wit::View;
    pub type WitAction = wit::Action;

    pub fn init<B: AzulBot>(slot: &RefCell<Option<B>>, info: WitInitInfo) {
        crate::__private::start(slot, |bot| bot.init(&InitInfo::from(info)));
    }

    pub fn take_turn<B: AzulBot>(slot: &RefCell<Option<B>>, view: WitView) -> WitAction {
        let view = crate::View { info: TurnInfo::from(view.info), state: view_from_wit(&view) };
        crate::__private::with_bot(slot, |bot: &mut B| action_to_wit(bot.act(&view)))
    }
}

fn colour_from_wit(colour: wit::Colour) -> arena_azul::Colour {
    use arena_azul::Colour;
    match colour {
        wit::Colour::Green => Colour::Green,
        wit::Colour::Orange => Colour::Orange,
        wit::Colour::Blue => Colour::Blue,
        wit::Colour::Yellow => Colour::Yellow,
        wit::Colour::Red => Colour::Red,
    }
}

fn colour_to_wit(colour: arena_azul::Colour) -> wit::Colour {
    use arena_azul::Colour;
    match colour {
        Colour::Green => wit::Colour::Green,
        Colour::Orange => wit::Colour::Orange,
        Colour::Blue => wit::Colour::Blue,
        Colour::Yellow => wit::Colour::Yellow,
        Colour::Red => wit::Colour::Red,
    }
}

fn action_to_wit(mv: arena_azul::Move) -> wit::Action {
    wit::Action { source: mv.source, colour: colour_to_wit(mv.colour), line: mv.line }
}

fn action_from_wit(action: &wit::Action) -> arena_azul::Move {
    arena_azul::Move { source: action.source, colour: colour_from_wit(action.colour), line: action.line }
}

fn counts_from_wit(counts: &wit::ColourCounts) -> [u8; 5] {
    [counts.green, counts.orange, counts.blue, counts.yellow, counts.red]
}

fn board_from_wit(board: &wit::Board) -> arena_azul::BoardView {
    let line = |line: &wit::PatternLine| arena_azul::PatternLine {
        count: line.count,
        colour: line.colour.map(colour_from_wit),
    };
    let (l0, l1, l2, l3, l4) = &board.lines;
    let wall = std::array::from_fn(|row| std::array::from_fn(|col| board.wall & (1 << (5 * row + col)) != 0));
    arena_azul::BoardView {
        lines: [line(l0), line(l1), line(l2), line(l3), line(l4)],
        wall,
        floor_len: board.floor_len,
        score: i64::from(board.score),
    }
}

fn view_from_wit(view: &wit::View) -> arena_azul::View {
    let (f0, f1, f2, f3, f4) = &view.factories;
    let (b0, b1) = &view.boards;
    arena_azul::View {
        seat: view.seat,
        to_move: view.seat,
        round: view.round,
        center: counts_from_wit(&view.center),
        center_has_marker: view.center_has_marker,
        factories: [f0, f1, f2, f3, f4].map(counts_from_wit),
        marker_holder: view.marker_holder,
        boards: [board_from_wit(b0), board_from_wit(b1)],
        last_move: view.last_move.as_ref().map(action_from_wit),
    }
}
