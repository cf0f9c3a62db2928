//! What a seat sees ([`View`], the engine's `Game::Observation`) and the rule helpers bots call on
//! it. Every helper delegates to [`crate::rules`], the same functions the engine uses.

use crate::rules::{self, FACTORIES};
use crate::{BoardView, Invalid, Move};
use serde::{Deserialize, Serialize};

/// Everything azul.md "What a bot sees" lists except fuel (the host adds fuel).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The observer's seat (0 or 1).
    pub seat: u8,
    /// Whose turn it is.
    pub to_move: u8,
    /// The round, 1-based.
    pub round: u32,
    /// Tiles per colour in the table center.
    pub center: [u8; 5],
    /// Whether the starting-player marker is still in the center.
    pub center_has_marker: bool,
    /// Tiles per colour on each factory (factory `i` is source `i + 1`).
    pub factories: [[u8; 5]; FACTORIES],
    /// The seat that took the marker this round (`None` while it is in the center).
    pub marker_holder: Option<u8>,
    /// Both boards, by seat.
    pub boards: [BoardView; 2],
    /// The opponent's last move (`None` before it has moved).
    pub last_move: Option<Move>,
}

impl View {
    /// The tile counts of source `source` (0 = center, 1..=5 = factories), `None` if out of range.
    pub fn source(&self, source: u8) -> Option<[u8; 5]> {
        rules::source_counts(&self.center, &self.factories, source)
    }

    /// Whether the observer may play `mv` now: the same check the engine applies.
    pub fn check(&self, mv: &Move) -> Result<(), Invalid> {
        if self.seat != self.to_move {
            return Err(Invalid::NotYourTurn);
        }
        let board = self.own_board().ok_or(Invalid::NotYourTurn)?;
        rules::check_move(&self.center, &self.factories, &board.lines, &board.wall, mv)
    }

    /// The observer's legal moves, in the order of [`rules::legal_moves`] (source ascending,
    /// colour order, line 0..=5); empty when it is not the observer's turn.
    pub fn legal_moves(&self) -> Vec<Move> {
        match self.own_board() {
            Some(board) if self.seat == self.to_move => {
                rules::legal_moves(&self.center, &self.factories, &board.lines, &board.wall)
            }
            _ => Vec::new(),
        }
    }

    /// The immediate score change `mv` would cause for the observer ([`rules::score_change`]):
    /// placement points if it completes its pattern line (scored against the current wall) plus
    /// the extra (negative) floor penalty of its overflow tiles and of the marker if it is taken
    /// now, within the 7 slots. Not clamped at 0. A move that breaks a rule (turn aside) gives 0.
    pub fn score_if_placed(&self, mv: &Move) -> i32 {
        let Some(board) = self.own_board() else {
            return 0;
        };
        if rules::check_move(&self.center, &self.factories, &board.lines, &board.wall, mv).is_err() {
            return 0;
        }
        let taken = self.source(mv.source).map_or(0, |counts| counts[mv.colour.index()]);
        rules::score_change(
            &board.lines,
            &board.wall,
            board.floor_len,
            mv,
            taken,
            rules::takes_marker(mv, self.center_has_marker),
        )
    }

    /// The move the engine plays for the observer when it gives none ([`rules::fallback_move`]);
    /// `None` when the table is empty.
    pub fn fallback_move(&self) -> Option<Move> {
        rules::fallback_move(&self.center, &self.factories)
    }

    fn own_board(&self) -> Option<&BoardView> {
        self.boards.get(usize::from(self.seat))
    }
}
