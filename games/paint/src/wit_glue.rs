//! Paint's WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings and the SDK's wit-bindgen bindings expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types.
//!
//! The engine's [`View`](crate::View) carries every past turn's actions; the WIT view carries
//! only the last turn's (and how many turns were played), so a call costs the same on turn 1
//! and turn 130. The SDK keeps the history between turns and `view_from_wit` extends it.

/// The `squares` value of an obstacle (see the WIT `view`).
pub const OBSTACLE: u8 = 254;
/// The `squares` value of an unpainted square (see the WIT `view`).
pub const UNPAINTED: u8 = 255;

/// Every turn's actions a bot has seen so far: what the SDK remembers between turns.
pub type History = Vec<Vec<Option<crate::Action>>>;

/// One byte per square: the painter's seat, [`OBSTACLE`] or [`UNPAINTED`].
pub fn squares_to_wit(board: &crate::Board) -> Vec<u8> {
    board
        .colors
        .iter()
        .zip(&board.blocked)
        .map(|(color, blocked)| match (blocked, color) {
            (true, _) => OBSTACLE,
            (false, Some(seat)) => (*seat).min(OBSTACLE - 1),
            (false, None) => UNPAINTED,
        })
        .collect()
}

/// The board back from its squares.
pub fn board_from_squares(width: u16, height: u16, squares: &[u8]) -> crate::Board {
    let mut board = crate::Board::new(width, height);
    fill_board(&mut board, width, height, squares);
    board
}

/// `board` set to the squares of a `width` x `height` board, reusing its buffers when it has
/// that size already (the SDK refills the previous turn's board: no allocation per turn).
/// Squares past the end of a short `squares` are unpainted.
pub fn fill_board(board: &mut crate::Board, width: u16, height: u16, squares: &[u8]) {
    let cells = usize::from(width) * usize::from(height);
    if (board.width, board.height, board.colors.len(), board.blocked.len()) != (width, height, cells, cells) {
        *board = crate::Board::new(width, height);
    }
    let given = squares.len().min(cells);
    // Slices zipped, not a chained iterator: the loop compiles to plain indexed stores (a
    // chained iterator cost the bot ~10x the fuel per square).
    let (colors, blocked) = (&mut board.colors[..], &mut board.blocked[..]);
    for ((color, obstacle), &square) in colors.iter_mut().zip(blocked.iter_mut()).zip(&squares[..given]) {
        *obstacle = square == OBSTACLE;
        *color = if square < OBSTACLE { Some(square) } else { None };
    }
    colors[given..].fill(None);
    blocked[given..].fill(false);
}

/// `board` brought up to `squares`, given the squares it was last set from (`previous`): only
/// the runs of 8 squares that differ are rewritten (a turn repaints a few squares). Any other
/// case (the first turn, another size) fills the whole board.
pub fn update_board(board: &mut crate::Board, width: u16, height: u16, squares: &[u8], previous: &[u8]) {
    let cells = usize::from(width) * usize::from(height);
    let same_shape =
        (board.width, board.height, board.colors.len(), board.blocked.len()) == (width, height, cells, cells);
    if !same_shape || squares.len() != cells || previous.len() != cells {
        fill_board(board, width, height, squares);
        return;
    }
    let set = |colors: &mut [Option<u8>], blocked: &mut [bool], run: &[u8]| {
        for ((color, obstacle), &square) in colors.iter_mut().zip(blocked.iter_mut()).zip(run) {
            *obstacle = square == OBSTACLE;
            *color = if square < OBSTACLE { Some(square) } else { None };
        }
    };
    // Compared 8 squares at a time, as one 64-bit word each.
    let runs = squares.chunks_exact(8).zip(previous.chunks_exact(8));
    for (index, (run, before)) in runs.enumerate() {
        if <[u8; 8]>::try_from(run).ok() != <[u8; 8]>::try_from(before).ok() {
            let start = index * 8;
            set(&mut board.colors[start..start + 8], &mut board.blocked[start..start + 8], run);
        }
    }
    let tail = cells - cells % 8;
    set(&mut board.colors[tail..], &mut board.blocked[tail..], &squares[tail..]);
}

/// `history` cut or padded (with turns of no action) to the `played - 1` turns before the last,
/// then `last` appended; empty when no turn was played (a restarted match starts over).
pub fn extend_history(
    mut history: History,
    played: u32,
    mut last: Vec<Option<crate::Action>>,
    players: usize,
) -> History {
    let played = usize::try_from(played).unwrap_or(usize::MAX);
    if played == 0 {
        history.clear();
        return history;
    }
    // Grown only when turns were missed: the filler is built only then (it costs an allocation).
    if history.len() < played - 1 {
        history.resize(played - 1, vec![None; players]);
    } else {
        history.truncate(played - 1);
    }
    last.resize(players, None);
    history.push(last);
    history
}

/// Expands to `view_to_wit`, `view_from_wit`, `action_to_wit` and `action_from_wit` for the
/// generated module `wit` in scope; `$turn_info` is that side's generated `turn-info` type.
#[macro_export]
macro_rules! wit_glue {
    ($turn_info:ty) => {
        /// A WIT action as the engine's (every value decodes: a vector that is not a king move
        /// is the engine's to refuse).
        #[allow(dead_code)]
        pub(crate) fn action_from_wit(action: &wit::Action) -> $crate::Action {
            let kind = match action.kind {
                wit::ActionKind::Walk => $crate::ActionKind::Walk,
                wit::ActionKind::Shoot => $crate::ActionKind::Shoot,
            };
            $crate::Action { kind, direction: [action.direction.di, action.direction.dj] }
        }

        /// An engine action as the WIT's.
        #[allow(dead_code)]
        pub(crate) fn action_to_wit(action: &$crate::Action) -> wit::Action {
            let kind = match action.kind {
                $crate::ActionKind::Walk => wit::ActionKind::Walk,
                $crate::ActionKind::Shoot => wit::ActionKind::Shoot,
            };
            let [di, dj] = action.direction;
            wit::Action { kind, direction: wit::Direction { di, dj } }
        }

        /// The engine's view as the WIT view: the last turn's actions only.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            let last_actions = view
                .previous_actions
                .last()
                .map(|actions| actions.iter().map(|action| action.as_ref().map(action_to_wit)).collect())
                .unwrap_or_default();
            wit::View {
                seat: view.seat,
                width: view.board.width,
                height: view.board.height,
                squares: $crate::wit_glue::squares_to_wit(&view.board),
                positions: view.positions.iter().map(|pos| wit::Pos { row: pos.row, col: pos.col }).collect(),
                turns_left: view.turns_left,
                turns_played: u32::try_from(view.previous_actions.len()).unwrap_or(u32::MAX),
                last_actions,
                info,
            }
        }

        /// The engine's view from the WIT view and this instance's previous view with the
        /// squares it was made from (`None` on its first turn): the history grows by the last
        /// turn, the board is rewritten where the squares changed, and the lists reuse the
        /// previous view's buffers.
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: &wit::View, previous: Option<($crate::View, &[u8])>) -> $crate::View {
            let (previous, previous_squares) = match previous {
                Some((state, squares)) => (Some(state), squares),
                None => (None, &[][..]),
            };
            let mut state = previous.unwrap_or_else(|| $crate::View {
                seat: 0,
                board: $crate::Board::new(0, 0),
                positions: Vec::new(),
                turns_left: 0,
                previous_actions: Vec::new(),
                sent_history: $crate::PreviousActions::All,
            });
            let players = view.positions.len();
            let last = view.last_actions.iter().map(|action| action.as_ref().map(action_from_wit)).collect();
            state.seat = view.seat;
            $crate::wit_glue::update_board(&mut state.board, view.width, view.height, &view.squares, previous_squares);
            state.positions.clear();
            state.positions.extend(view.positions.iter().map(|pos| $crate::Pos::new(pos.row, pos.col)));
            state.turns_left = view.turns_left;
            let history = std::mem::take(&mut state.previous_actions);
            state.previous_actions = $crate::wit_glue::extend_history(history, view.turns_played, last, players);
            state
        }
    };
}
