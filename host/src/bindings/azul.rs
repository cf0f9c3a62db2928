//! Azul's binding: `arena:azul/bot@0.1.0` to and from [`arena_azul`]'s types.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_azul::{Azul, BoardView, Colour, Move, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/azul",
        world: "arena:azul/bot@0.1.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::azul::types as wit;

/// Azul's [`Binding`].
pub struct AzulBinding;

impl Binding for AzulBinding {
    type Game = Azul;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    const EXPORT: &'static str = "arena:azul/player@0.1.0";
    const WORLD: &'static str = "arena:azul/bot@0.1.0";

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_azul_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, info);
        Box::pin(async move {
            let result = instance.arena_azul_player().call_take_turn(&mut store, view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: wit::Action) -> Result<Move, InvalidReason> {
        // Every WIT value is representable: range checks are the engine's (`check`).
        Ok(Move { source: answer.source, colour: colour_from_wit(answer.colour), line: answer.line })
    }
}

fn colour_to_wit(colour: Colour) -> wit::Colour {
    match colour {
        Colour::Green => wit::Colour::Green,
        Colour::Orange => wit::Colour::Orange,
        Colour::Blue => wit::Colour::Blue,
        Colour::Yellow => wit::Colour::Yellow,
        Colour::Red => wit::Colour::Red,
    }
}

fn colour_from_wit(colour: wit::Colour) -> Colour {
    match colour {
        wit::Colour::Green => Colour::Green,
        wit::Colour::Orange => Colour::Orange,
        wit::Colour::Blue => Colour::Blue,
        wit::Colour::Yellow => Colour::Yellow,
        wit::Colour::Red => Colour::Red,
    }
}

fn move_to_wit(mv: &Move) -> wit::Action {
    wit::Action { source: mv.source, colour: colour_to_wit(mv.colour), line: mv.line }
}

fn counts_to_wit(counts: &[u8; 5]) -> wit::ColourCounts {
    let [green, orange, blue, yellow, red] = *counts;
    wit::ColourCounts { green, orange, blue, yellow, red }
}

fn board_to_wit(board: &BoardView) -> wit::Board {
    let line = |index: usize| wit::PatternLine {
        count: board.lines[index].count,
        colour: board.lines[index].colour.map(colour_to_wit),
    };
    let wall = board.wall.iter().flatten().enumerate().fold(
        0u32,
        |bits, (index, filled)| {
            if *filled { bits | (1 << index) } else { bits }
        },
    );
    wit::Board {
        lines: (line(0), line(1), line(2), line(3), line(4)),
        wall,
        floor_len: board.floor_len,
        score: u32::try_from(board.score.max(0)).unwrap_or(u32::MAX),
    }
}

fn view_to_wit(view: &View, info: TurnInfo) -> wit::View {
    let factory = |index: usize| counts_to_wit(&view.factories[index]);
    wit::View {
        seat: view.seat,
        round: view.round,
        center: counts_to_wit(&view.center),
        center_has_marker: view.center_has_marker,
        factories: (factory(0), factory(1), factory(2), factory(3), factory(4)),
        marker_holder: view.marker_holder,
        boards: (board_to_wit(&view.boards[0]), board_to_wit(&view.boards[1])),
        last_move: view.last_move.as_ref().map(move_to_wit),
        info: common::TurnInfo::from(info),
    }
}
