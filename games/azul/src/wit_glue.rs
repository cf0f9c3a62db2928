//! Azul's WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings (engine view to WIT, WIT action to engine) and the SDK's wit-bindgen
//! bindings (WIT view to engine, engine action to WIT) expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types, so the two directions cannot drift apart.
//!
//! The expansion site must have in scope `wit` (the generated `arena:azul/types` module) and pass
//! the generated `arena:common` `turn-info` type. Every WIT value decodes to an engine value
//! (range checks are the engine's, `check`): a short byte list reads as zeros, a colour byte out
//! of range as no colour.

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

        /// The byte for a pattern line's colour: its index, 255 when the line is empty.
        const NO_COLOUR: u8 = 255;

        /// Tile counts of every source, center first: byte `5 * source + colour`.
        #[allow(dead_code)]
        fn tiles_bytes(view: &$crate::View) -> [u8; 30] {
            let mut tiles = [0; 30];
            for (slot, counts) in tiles.chunks_exact_mut(5).zip(::std::iter::once(&view.center).chain(&view.factories))
            {
                slot.copy_from_slice(counts);
            }
            tiles
        }

        /// Source `source`'s counts from the tile bytes (all 0 if the list is too short).
        #[allow(dead_code)]
        fn counts_from_wit(tiles: &[u8], source: usize) -> [u8; 5] {
            tiles.get(5 * source..5 * source + 5).and_then(|counts| counts.try_into().ok()).unwrap_or([0; 5])
        }

        /// Both boards' pattern lines, seat-major: count, then colour index or [`NO_COLOUR`].
        #[allow(dead_code)]
        fn lines_bytes(boards: &[$crate::BoardView; 2]) -> [u8; 20] {
            let mut bytes = [0; 20];
            let lines = boards.iter().flat_map(|board| &board.lines);
            for (slot, line) in bytes.chunks_exact_mut(2).zip(lines) {
                slot[0] = line.count;
                slot[1] = line.colour.map_or(NO_COLOUR, |colour| colour.index() as u8);
            }
            bytes
        }

        /// Seat `seat`'s pattern lines from the line bytes: a colour byte out of range reads as
        /// an empty line's, a list too short as 5 empty lines.
        #[allow(dead_code)]
        fn lines_from_wit(lines: &[u8], seat: usize) -> [$crate::PatternLine; 5] {
            const EMPTY: [u8; 10] = [0, NO_COLOUR, 0, NO_COLOUR, 0, NO_COLOUR, 0, NO_COLOUR, 0, NO_COLOUR];
            let bytes: [u8; 10] =
                lines.get(10 * seat..10 * seat + 10).and_then(|bytes| bytes.try_into().ok()).unwrap_or(EMPTY);
            ::std::array::from_fn(|line| $crate::PatternLine {
                count: bytes[2 * line],
                colour: $crate::Colour::from_index(usize::from(bytes[2 * line + 1])),
            })
        }

        /// A wall as 25 bits, row-major.
        #[allow(dead_code)]
        fn wall_to_wit(wall: &$crate::rules::Wall) -> u32 {
            wall.iter()
                .flatten()
                .enumerate()
                .fold(0u32, |bits, (index, filled)| if *filled { bits | (1 << index) } else { bits })
        }

        #[allow(dead_code)]
        fn wall_from_wit(bits: u32) -> $crate::rules::Wall {
            ::std::array::from_fn(|row| ::std::array::from_fn(|col| bits & (1 << (5 * row + col)) != 0))
        }

        #[allow(dead_code)]
        fn score_to_wit(score: i64) -> u32 {
            u32::try_from(score.max(0)).unwrap_or(u32::MAX)
        }

        /// The engine's view of the seat to move as the WIT view, with this turn's budget facts.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            view_to_wit_with_lists(view, info, tiles_bytes(view).to_vec(), lines_bytes(&view.boards).to_vec())
        }

        /// [`view_to_wit`] with the given `tiles` and `lines` (the host lowers the lists' bytes
        /// itself and passes empty ones here, which allocate nothing).
        #[allow(dead_code)]
        pub(crate) fn view_to_wit_with_lists(
            view: &$crate::View,
            info: $turn_info,
            tiles: Vec<u8>,
            lines: Vec<u8>,
        ) -> wit::View {
            let [b0, b1] = &view.boards;
            wit::View {
                seat: view.seat,
                round: view.round,
                tiles,
                center_has_marker: view.center_has_marker,
                marker_holder: view.marker_holder,
                lines,
                walls: (wall_to_wit(&b0.wall), wall_to_wit(&b1.wall)),
                floor_lens: (b0.floor_len, b1.floor_len),
                scores: (score_to_wit(b0.score), score_to_wit(b1.score)),
                last_move: view.last_move.as_ref().map(action_to_wit),
                info,
            }
        }

        /// The engine's view back from the WIT view (a bot is only asked when it is to move).
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: &wit::View) -> $crate::View {
            let (wall0, wall1) = view.walls;
            let (floor0, floor1) = view.floor_lens;
            let (score0, score1) = view.scores;
            let board = |seat: usize, wall: u32, floor_len: u8, score: u32| $crate::BoardView {
                lines: lines_from_wit(&view.lines, seat),
                wall: wall_from_wit(wall),
                floor_len,
                score: i64::from(score),
            };
            $crate::View {
                seat: view.seat,
                to_move: view.seat,
                round: view.round,
                center: counts_from_wit(&view.tiles, 0),
                center_has_marker: view.center_has_marker,
                factories: ::std::array::from_fn(|factory| counts_from_wit(&view.tiles, factory + 1)),
                marker_holder: view.marker_holder,
                boards: [board(0, wall0, floor0, score0), board(1, wall1, floor1, score1)],
                last_move: view.last_move.as_ref().map(action_from_wit),
            }
        }
    };
}
