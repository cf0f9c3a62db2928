//! The bot-facing helpers on [`View`], on hand-built views: each test cites the azul.md rule.

use arena_azul::Colour::{Blue, Green, Red, Yellow};
use arena_azul::rules::wall_column;
use arena_azul::{BoardView, CENTER, Colour, FLOOR_LINE, Invalid, Move, PatternLine, View};

fn board() -> BoardView {
    BoardView { lines: [PatternLine::default(); 5], wall: [[false; 5]; 5], floor_len: 0, score: 0 }
}

/// Seat 0 to move, round 1, nothing on the table: tests fill in what they need.
fn view() -> View {
    View {
        seat: 0,
        to_move: 0,
        round: 1,
        center: [0; 5],
        center_has_marker: true,
        factories: [[0; 5]; 5],
        marker_holder: None,
        boards: [board(), board()],
        last_move: None,
    }
}

fn mv(source: u8, colour: Colour, line: u8) -> Move {
    Move { source, colour, line }
}

/// azul.md "A round" 1: source 0 is the center, 1..=5 the factories; nothing else exists.
#[test]
fn sources_by_id() {
    let mut v = view();
    v.center = [1, 0, 0, 0, 0];
    v.factories[4] = [0, 0, 0, 0, 4];
    assert_eq!(v.source(CENTER), Some([1, 0, 0, 0, 0]));
    assert_eq!(v.source(5), Some([0, 0, 0, 0, 4]));
    assert_eq!(v.source(1), Some([0; 5]));
    assert_eq!(v.source(6), None);
    assert_eq!(v.source(u8::MAX), None);
}

/// azul.md "A round" 1: players alternate; out of turn nothing is legal.
#[test]
fn out_of_turn_nothing_is_legal() {
    let mut v = view();
    v.factories[0] = [4, 0, 0, 0, 0];
    assert_eq!(v.legal_moves().len(), 6);
    v.to_move = 1;
    assert_eq!(v.check(&mv(1, Green, 0)), Err(Invalid::NotYourTurn));
    assert!(v.legal_moves().is_empty());
}

/// azul.md "A round" 2: completing a pattern line scores its wall placement now (H + V against
/// the current wall).
#[test]
fn score_if_placed_counts_the_placement_of_a_completed_line() {
    let mut v = view();
    v.factories[0] = [1, 0, 0, 0, 0];
    v.boards[0].lines[1] = PatternLine { count: 1, colour: Some(Green) };
    // Red at row 1 is column 0, left of green's column 1: H = 2.
    v.boards[0].wall[1][wall_column(1, Red)] = true;
    assert_eq!(v.score_if_placed(&mv(1, Green, 1)), 2);
    // Green into line 2 does not complete it: no change.
    assert_eq!(v.score_if_placed(&mv(1, Green, 2)), 0);
    // Into line 0: completes, no neighbour (green of row 0 is column 0; row 1's red is below).
    assert_eq!(v.score_if_placed(&mv(1, Green, 0)), 2, "V = 2 with the red below");
}

/// azul.md "A round" 1 and 2: the first center take brings the marker to the leftmost free slot,
/// then overflow tiles follow; each slot costs its penalty.
#[test]
fn score_if_placed_counts_the_marker_and_overflow() {
    let mut v = view();
    v.center = [0, 0, 3, 0, 0];
    // Blue completes line 0 (+1), then marker (-1) and 2 tiles (-1, -2).
    assert_eq!(v.score_if_placed(&mv(CENTER, Blue, 0)), 1 - 4);
    v.center_has_marker = false;
    v.marker_holder = Some(1);
    assert_eq!(v.score_if_placed(&mv(CENTER, Blue, 0)), 1 - 1 - 1);
    // With 5 slots taken, the 3 tiles cost -3, -3 and nothing.
    v.boards[0].floor_len = 5;
    assert_eq!(v.score_if_placed(&mv(CENTER, Blue, FLOOR_LINE)), -6);
    v.boards[0].floor_len = 7;
    assert_eq!(v.score_if_placed(&mv(CENTER, Blue, FLOOR_LINE)), 0, "beyond 7 slots costs nothing");
}

/// azul.md "A round" 1: an illegal move has no score change to report.
#[test]
fn score_if_placed_is_zero_for_illegal_moves() {
    let mut v = view();
    v.factories[0] = [0, 0, 0, 4, 0];
    v.boards[0].wall[0][wall_column(0, Yellow)] = true;
    assert_eq!(v.check(&mv(1, Yellow, 0)), Err(Invalid::WallRowHasColour { line: 0, colour: Yellow }));
    assert_eq!(v.score_if_placed(&mv(1, Yellow, 0)), 0);
    assert_eq!(v.score_if_placed(&mv(9, Yellow, 0)), 0);
}

/// azul.md "What a bot sees" fallback [ours]: the lowest-numbered non-empty source, the colour
/// with the fewest tiles there (ties: colour order), to the floor.
#[test]
fn fallback_move_choice() {
    let mut v = view();
    assert_eq!(v.fallback_move(), None, "an empty table has no move");
    v.factories[3] = [3, 1, 0, 0, 0];
    v.factories[1] = [0, 0, 2, 0, 2];
    // Source 2 comes before source 4; blue and red tie at 2 tiles, blue comes first.
    assert_eq!(v.fallback_move(), Some(mv(2, Blue, FLOOR_LINE)));
    v.center = [0, 0, 0, 5, 1];
    assert_eq!(v.fallback_move(), Some(mv(CENTER, Red, FLOOR_LINE)));
    let fallback = v.fallback_move().unwrap();
    assert_eq!(v.check(&fallback), Ok(()));
}

/// The observation crosses the host/guest boundary as data: it round-trips through JSON.
#[test]
fn view_round_trips_through_json() {
    let mut v = view();
    v.last_move = Some(mv(2, Red, 3));
    let back: View = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
    assert_eq!(back, v);
}
