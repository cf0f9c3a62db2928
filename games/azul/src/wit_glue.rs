//! Azul's WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings (engine view to WIT, WIT action to engine) and the SDK's wit-bindgen
//! bindings (WIT view to engine, engine action to WIT) expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types, so the two directions cannot drift apart.
//!
//! The expansion site must have in scope `wit` (the generated `arena:azul/types` module) and pass
//! the generated `arena:common` `turn-info` type. Every WIT value decodes to an engine value:
//! range checks are the engine's (`check`).

/// Expands to `view_to_wit`, `view_from_wit`, `action_to_wit` and `action_from_wit` for the
/// generated module `wit` in scope; `$turn_info` is that side's generated `turn-info` type.
#[macro_export]
macro_rules! wit_glue {
    ($turn_info:ty) => {
        #[allow(dead_code)]
        fn colour_to_wit(colour: $crate::Colour) -> wit::Colour {
            match colour {
                $crate::Colour::Green => wit::Colour::Green,
                $crate::Colour::Orange => wit::Colour::Orange,
                $crate::Colour::Blue => wit::Colour::Blue,
                $crate::Colour::Yellow => wit::Colour::Yellow,
                $crate::Colour::Red => wit::Colour::Red,
            }
        }

        #[allow(dead_code)]
        fn colour_from_wit(colour: wit::Colour) -> $crate::Colour {
            match colour {
                wit::Colour::Green => $crate::Colour::Green,
                wit::Colour::Orange => $crate::Colour::Orange,
                wit::Colour::Blue => $crate::Colour::Blue,
                wit::Colour::Yellow => $crate::Colour::Yellow,
                wit::Colour::Red => $crate::Colour::Red,
            }
        }

        /// An engine move as the WIT action.
        #[allow(dead_code)]
        pub(crate) fn action_to_wit(mv: &$crate::Move) -> wit::Action {
            wit::Action { source: mv.source, colour: colour_to_wit(mv.colour), line: mv.line }
        }

        /// A WIT action as an engine move.
        #[allow(dead_code)]
        pub(crate) fn action_from_wit(action: &wit::Action) -> $crate::Move {
            $crate::Move { source: action.source, colour: colour_from_wit(action.colour), line: action.line }
        }

        #[allow(dead_code)]
        fn counts_to_wit(counts: &[u8; 5]) -> wit::ColourCounts {
            let [green, orange, blue, yellow, red] = *counts;
            wit::ColourCounts { green, orange, blue, yellow, red }
        }

        #[allow(dead_code)]
        fn counts_from_wit(counts: &wit::ColourCounts) -> [u8; 5] {
            [counts.green, counts.orange, counts.blue, counts.yellow, counts.red]
        }

        #[allow(dead_code)]
        fn board_to_wit(board: &$crate::BoardView) -> wit::Board {
            let line = |index: usize| wit::PatternLine {
                count: board.lines[index].count,
                colour: board.lines[index].colour.map(colour_to_wit),
            };
            // The wall as 25 bits, row-major.
            let wall = board
                .wall
                .iter()
                .flatten()
                .enumerate()
                .fold(0u32, |bits, (index, filled)| if *filled { bits | (1 << index) } else { bits });
            wit::Board {
                lines: (line(0), line(1), line(2), line(3), line(4)),
                wall,
                floor_len: board.floor_len,
                score: u32::try_from(board.score.max(0)).unwrap_or(u32::MAX),
            }
        }

        #[allow(dead_code)]
        fn board_from_wit(board: &wit::Board) -> $crate::BoardView {
            let line = |line: &wit::PatternLine| $crate::PatternLine {
                count: line.count,
                colour: line.colour.map(colour_from_wit),
            };
            let (l0, l1, l2, l3, l4) = &board.lines;
            let wall =
                ::std::array::from_fn(|row| ::std::array::from_fn(|col| board.wall & (1 << (5 * row + col)) != 0));
            $crate::BoardView {
                lines: [line(l0), line(l1), line(l2), line(l3), line(l4)],
                wall,
                floor_len: board.floor_len,
                score: i64::from(board.score),
            }
        }

        /// The engine's view of the seat to move as the WIT view, with this turn's budget facts.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            let factory = |index: usize| counts_to_wit(&view.factories[index]);
            wit::View {
                seat: view.seat,
                round: view.round,
                center: counts_to_wit(&view.center),
                center_has_marker: view.center_has_marker,
                factories: (factory(0), factory(1), factory(2), factory(3), factory(4)),
                marker_holder: view.marker_holder,
                boards: (board_to_wit(&view.boards[0]), board_to_wit(&view.boards[1])),
                last_move: view.last_move.as_ref().map(action_to_wit),
                info,
            }
        }

        /// The engine's view back from the WIT view (a bot is only asked when it is to move).
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: &wit::View) -> $crate::View {
            let (f0, f1, f2, f3, f4) = &view.factories;
            let (b0, b1) = &view.boards;
            $crate::View {
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
    };
}
