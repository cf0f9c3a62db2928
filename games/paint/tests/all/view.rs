//! The bot-facing helpers on [`View`] and in [`rules`], on hand-built views: each test cites the
//! paint.md rule it relies on.

use arena_paint::Direction::{East, North, NorthWest, South, SouthEast, West};
use arena_paint::{Action, ActionKind, Board, DIRECTIONS, Invalid, Pos, View, rules};

fn p(row: i32, col: i32) -> Pos {
    Pos::new(row, col)
}

/// Seat 0 at [1,1] with a run of its colour to the west, seat 1 at [1,4]; 5 wide, 3 high.
///
/// ```text
/// .....
/// aA.bB
/// ..#..
/// ```
fn view() -> View {
    let mut board = Board::new(5, 3);
    for (pos, seat) in [(p(1, 0), 0), (p(1, 1), 0), (p(1, 3), 1), (p(1, 4), 1)] {
        board.paint(pos, seat);
    }
    board.block(p(2, 2));
    View {
        seat: 0,
        board,
        positions: vec![p(1, 1), p(1, 4)],
        turns_left: 7,
        previous_actions: Vec::new(),
        sent_history: Default::default(),
    }
}

/// paint.md "State": squares are [row, col]; the view knows who stands where.
#[test]
fn positions_and_bounds() {
    let v = view();
    assert_eq!(v.me(), Some(p(1, 1)));
    assert_eq!(v.position(1), Some(p(1, 4)));
    assert_eq!(v.position(2), None);
    assert_eq!(v.players(), 2);
    assert_eq!(v.avatar_at(p(1, 4)), Some(1));
    assert_eq!(v.avatar_at(p(0, 0)), None);
    assert!(v.in_bounds(p(2, 4)));
    assert!(!v.in_bounds(p(3, 0)) && !v.in_bounds(p(0, -1)));
    assert_eq!(v.color(p(1, 3)), Some(1));
    assert_eq!(v.color(p(0, 0)), None);
    assert!(v.board.is_blocked(p(2, 2)));
    assert_eq!(v.to_string(), "seat 0, 7 turns left\n.....\naA.bB\n..#..");
}

/// paint.md "Actions": the 8 king directions, as neighbours on the board.
#[test]
fn neighbours_and_directions() {
    let v = view();
    assert_eq!(v.neighbours(p(1, 1)).len(), 8);
    let corner: Vec<Pos> = v.neighbours(p(2, 4)).into_iter().map(|(_, pos)| pos).collect();
    assert_eq!(corner, vec![p(1, 3), p(1, 4), p(2, 3)]);
    for direction in DIRECTIONS {
        assert_eq!(p(1, 1).step(direction).step(direction.opposite()), p(1, 1));
    }
}

/// paint.md "One turn" 2: the run of own colour behind a shot sets its range.
#[test]
fn runs_and_ranges() {
    let v = view();
    assert_eq!(v.run_length(West), 2);
    assert_eq!(v.shot_range(East), 1, "L 2 -> max(1, 1)");
    assert_eq!(v.run_length(East), 1);
    assert_eq!(v.shot_range(West), 1);
    assert_eq!(rules::run_length(&v.board, p(1, 4), 1, West), 2);
}

/// paint.md "One turn": what an action would gain if nobody else acted.
#[test]
fn squares_gained_by_an_action() {
    let v = view();
    assert_eq!(v.squares_gained(&Action::walk(East)), vec![p(1, 2)]);
    assert_eq!(v.squares_gained(&Action::walk(West)), vec![], "already its colour");
    assert_eq!(v.squares_gained(&Action::walk(SouthEast)), vec![], "an obstacle: dropped");
    assert_eq!(v.squares_gained(&Action::shoot(North)), vec![p(0, 1)]);
    assert_eq!(v.squares_gained(&Action::shoot(East)), vec![p(1, 2)], "range 1");
    let mut far = view();
    far.positions = vec![p(1, 2), p(0, 4)];
    far.board.paint(p(1, 2), 0);
    // From [1,2], a run of 3 to the west -> range 2: [1,3] (bob's colour) and [1,4] (vacated).
    assert_eq!(far.squares_gained(&Action::shoot(East)), vec![p(1, 3), p(1, 4)]);
    // An avatar stops the shot: nothing gained shooting at seat 1 from next to it.
    let mut near = view();
    near.positions[1] = p(1, 2);
    assert_eq!(near.squares_gained(&Action::shoot(East)), vec![]);
    let bad = Action { kind: ActionKind::Walk, direction: [0, 0] };
    assert_eq!(v.squares_gained(&bad), vec![]);
    assert_eq!(v.squares_gained(&Action::shoot(NorthWest)), vec![p(0, 0)]);
    assert_eq!(v.squares_gained(&Action::walk(South)), vec![p(2, 1)]);
}

/// paint.md "Actions": the valid answers and the typed refusals.
#[test]
fn legal_actions_and_checks() {
    let mut v = view();
    assert_eq!(v.legal_actions(), Action::all().to_vec());
    assert_eq!(
        v.check(&Action { kind: ActionKind::Shoot, direction: [1, 2] }),
        Err(Invalid::BadDirection { direction: [1, 2] })
    );
    v.turns_left = 0;
    assert!(v.legal_actions().is_empty());
    assert_eq!(v.check(&Action::walk(East)), Err(Invalid::NotActing));
    let mut stranger = view();
    stranger.seat = 9;
    assert_eq!(stranger.check(&Action::walk(East)), Err(Invalid::NotActing));
    assert_eq!(stranger.run_length(West), 0);
}

/// paint.md "End and score": scores are squares of each colour.
#[test]
fn scores_count_colours() {
    assert_eq!(view().scores(), vec![2, 2]);
}

/// The view's JSON speaks the protocol's coordinates: `[row, col]` arrays and raw vectors.
#[test]
fn json_round_trip() {
    let mut v = view();
    v.previous_actions.push(vec![Some(Action::shoot(East)), None]);
    let json = serde_json::to_string(&v).unwrap();
    assert!(json.contains(r#""positions":[[1,1],[1,4]]"#), "{json}");
    assert!(json.contains(r#"[{"type":"shoot","direction":[0,1]},null]"#), "{json}");
    assert_eq!(serde_json::from_str::<View>(&json).unwrap(), v);
}
