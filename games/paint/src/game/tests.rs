//! Engine tests on hand-built states: each cites the paint.md rule it checks.
//!
//! States are drawn as text, one string per row: `.` unpainted, `a`..`h` painted by seat 0..7,
//! `A`..`H` the avatar of seat 0..7 on a square of its own colour, `0`..`7` the avatar of seat
//! 0..7 on an unpainted square, `#` an obstacle.

use super::*;
use crate::event::{ShotStop, WalkDrop};
use crate::{ActionKind, BOARD_NAMES, Direction};
use Direction::{East, North, NorthEast, NorthWest, South, SouthEast, SouthWest, West};
use arena_game::StepError;

/// The board and the avatars (by seat) drawn by `rows`.
fn drawn(rows: &[&str]) -> (Board, Vec<Pos>) {
    let height = u16::try_from(rows.len()).unwrap();
    let width = u16::try_from(rows[0].len()).unwrap();
    let mut board = Board::new(width, height);
    let mut positions = vec![None; 8];
    for (row, line) in (0i32..).zip(rows) {
        for (col, ch) in (0i32..).zip(line.chars()) {
            let pos = Pos::new(row, col);
            match ch {
                '.' => {}
                '#' => assert!(board.block(pos)),
                'a'..='h' => assert!(board.paint(pos, ch as u8 - b'a')),
                'A'..='H' => {
                    assert!(board.paint(pos, ch as u8 - b'A'));
                    assert!(positions[usize::from(ch as u8 - b'A')].replace(pos).is_none(), "two {ch}");
                }
                '0'..='7' => assert!(positions[usize::from(ch as u8 - b'0')].replace(pos).is_none(), "two {ch}"),
                _ => panic!("bad cell {ch:?}"),
            }
        }
    }
    (board, positions.into_iter().map_while(|pos| pos).collect())
}

/// A state drawn by `rows` (see the module docs) with `turns_left` turns left.
fn state(rows: &[&str], turns_left: u32) -> Paint {
    let (board, positions) = drawn(rows);
    Paint::from_parts(board, positions, turns_left, Vec::new()).unwrap()
}

/// The board as rows of [`Board::text`].
fn rows(game: &Paint) -> Vec<String> {
    game.board().text(game.positions()).lines().map(str::to_string).collect()
}

/// Steps with `actions` for the seats named and no action for the others.
fn play(game: &mut Paint, actions: &[(Seat, Action)]) -> Vec<Event> {
    let joint: Vec<(Seat, Option<Action>)> = (0..game.players())
        .map(|seat| (seat, actions.iter().find(|(s, _)| *s == seat).map(|(_, action)| *action)))
        .collect();
    game.step(&joint).unwrap()
}

fn walk(d: Direction) -> Action {
    Action::walk(d)
}

fn shoot(d: Direction) -> Action {
    Action::shoot(d)
}

fn shot(events: &[Event], seat: u8) -> (Vec<Pos>, Pos, ShotStop, u32) {
    events
        .iter()
        .find_map(|event| match event {
            Event::Shot { seat: s, painted, stopped_at, stop, range, .. } if *s == seat => {
                Some((painted.clone(), *stopped_at, *stop, *range))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no shot by seat {seat} in {events:?}"))
}

fn dropped(events: &[Event], seat: u8) -> Option<WalkDrop> {
    events.iter().find_map(|event| match event {
        Event::WalkDropped { seat: s, reason, .. } if *s == seat => Some(*reason),
        _ => None,
    })
}

fn p(row: i32, col: i32) -> Pos {
    Pos::new(row, col)
}

fn config(pairs: &[(&str, &str)]) -> Result<PaintConfig, SetupError> {
    let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Paint::config_from_options(&pairs)
}

// ---- Set-up: paint.md "Boards" ----

/// paint.md "Boards": the default is ten_by_ten, 100 turns, starts [0,0] and [9,9], each start
/// pre-painted; every seat acts (simultaneous turns).
#[test]
fn default_game_is_ten_by_ten() {
    let game = Paint::new(&PaintConfig::default(), 2, 0).unwrap();
    assert_eq!((game.board().width, game.board().height, game.turns_left()), (10, 10, 100));
    assert_eq!(game.positions(), &[p(0, 0), p(9, 9)]);
    assert_eq!(game.to_act(), vec![0, 1]);
    assert_eq!(game.scores(), vec![1, 1]);
    assert_eq!(game.board().color(p(0, 0)), Some(0));
    assert_eq!(game.board().color(p(9, 9)), Some(1));
    assert!(game.board().obstacles().is_empty());
    game.check_invariants().unwrap();
}

/// paint.md "Boards": each template's size, turns, starts and pre-paint, exactly as tabled.
#[test]
fn every_template_matches_the_table() {
    let expect = [
        (BoardName::TenByTen, 10, 10, 100, [p(0, 0), p(9, 9)]),
        (BoardName::FiveByEleven, 11, 5, 110, [p(2, 3), p(2, 7)]),
        (BoardName::SevenByThirteen, 13, 7, 130, [p(3, 1), p(3, 11)]),
        (BoardName::SevenByThirteenB, 13, 7, 130, [p(5, 5), p(1, 7)]),
    ];
    assert_eq!(BOARD_NAMES.to_vec(), expect.iter().map(|e| e.0).collect::<Vec<_>>());
    for (name, width, height, turns, starts) in expect {
        let cfg = config(&[("board", name.as_str())]).unwrap();
        assert_eq!(cfg.board, name);
        let game = Paint::new(&cfg, 2, 0).unwrap();
        assert_eq!((game.board().width, game.board().height, game.turns_left()), (width, height, turns), "{name}");
        assert_eq!(game.positions(), &starts, "{name}");
        game.check_invariants().unwrap();
    }
    // five_by_eleven's pre-painted patches.
    let game = Paint::new(&config(&[("board", "five_by_eleven")]).unwrap(), 2, 0).unwrap();
    assert_eq!(
        rows(&game),
        vec!["...........", ".aa........", ".aaA...Bbb.", "........bb.", "..........."],
        "P1: (1,1) (1,2) (2,1) (2,2) (2,3); P2: (2,7) (2,8) (2,9) (3,8) (3,9)"
    );
    assert_eq!(game.scores(), vec![5, 5]);
}

/// paint.md "Boards" **\[ours\]**: more than 2 players sit symmetrically, corners first, each
/// on a pre-painted start; 3 and 4 players on ten_by_ten.
#[test]
fn three_and_four_players_start_in_the_corners() {
    let three = Paint::new(&PaintConfig::default(), 3, 0).unwrap();
    assert_eq!(three.positions(), &[p(0, 0), p(9, 9), p(0, 9)]);
    let four = Paint::new(&PaintConfig::default(), 4, 0).unwrap();
    assert_eq!(four.positions(), &[p(0, 0), p(9, 9), p(0, 9), p(9, 0)]);
    assert_eq!(four.scores(), vec![1, 1, 1, 1]);
    assert_eq!(four.to_act(), vec![0, 1, 2, 3]);
    let eight = Paint::new(&PaintConfig::default(), 8, 0).unwrap();
    assert_eq!(&eight.positions()[4..], &[p(0, 5), p(9, 4), p(5, 0), p(4, 9)]);
    // On five_by_eleven the template's patches belong to its 2-player starts: not used.
    let game = Paint::new(&config(&[("board", "five_by_eleven")]).unwrap(), 3, 0).unwrap();
    assert_eq!(game.positions(), &[p(0, 0), p(4, 10), p(0, 10)]);
    assert_eq!(game.scores(), vec![1, 1, 1]);
    // `placement=symmetric` applies to 2 players too.
    let game =
        Paint::new(&config(&[("board", "seven_by_thirteen_b"), ("placement", "symmetric")]).unwrap(), 2, 0).unwrap();
    assert_eq!(game.positions(), &[p(0, 0), p(6, 12)]);
}

/// paint.md "State": 2 or more players; **\[ours\]** at most 8.
#[test]
fn player_counts_outside_2_to_8_are_refused() {
    for players in [0, 1, 9] {
        assert!(matches!(
            Paint::new(&PaintConfig::default(), players, 0),
            Err(SetupError::PlayerCount { min: 2, max: 8, .. })
        ));
    }
}

/// **\[ours\]** options: `board`, `placement`, `turns` and `obstacles` over the defaults;
/// unknown values and unusable set-ups are refused by name.
#[test]
fn options_are_parsed_and_checked() {
    let cfg = config(&[("board", "seven_by_thirteen"), ("turns", "5"), ("obstacles", "[[3,6],[0,0]]")]).unwrap();
    assert_eq!(
        cfg,
        PaintConfig {
            board: BoardName::SevenByThirteen,
            placement: Placement::Auto,
            turns: Some(5),
            obstacles: vec![p(3, 6), p(0, 0)],
            previous_actions: PreviousActions::Last,
        }
    );
    let game = Paint::new(&cfg, 2, 0).unwrap();
    assert_eq!(game.turns_left(), 5);
    assert_eq!(game.board().obstacles(), vec![p(0, 0), p(3, 6)]);
    assert!(config(&[("board", "twelve_by_twelve")]).is_err());
    assert!(config(&[("placement", "random")]).is_err());
    assert!(config(&[("size", "3")]).is_err());
    let refused = |pairs: &[(&str, &str)]| {
        let err = Paint::new(&config(pairs).unwrap(), 2, 0).unwrap_err();
        assert!(matches!(err, SetupError::Config { game: "paint", .. }), "{err}");
        err.to_string()
    };
    assert!(refused(&[("turns", "0")]).contains("turns must be within 1..=100000"));
    // A match (and its replay) is at most MAX_TURNS long.
    assert_eq!(Paint::new(&config(&[("turns", "100000")]).unwrap(), 2, 0).unwrap().turns_left(), MAX_TURNS);
    assert!(refused(&[("turns", "100001")]).contains("turns must be within 1..=100000"));
    assert!(refused(&[("obstacles", "[[10,0]]")]).contains("off the"));
    assert!(refused(&[("obstacles", "[[9,9]]")]).contains("start"));
    assert!(refused(&[("obstacles", "[[4,4],[4,4]]")]).contains("twice"));
    assert!(refused(&[("board", "five_by_eleven"), ("obstacles", "[[1,1]]")]).contains("pre-painted"));
}

/// **\[ours\]** paint.md "Original protocol": `previous_actions` is `last` unless set to `all`
/// (the original), as a bare word or a JSON string, beside the other options; any other value is
/// refused by name, in one line. The game keeps it for the line protocol (every view says it). A
/// config serialises it only when it is not `all`, and a stored config without it means `all`,
/// the default when it was written: configs, states and replays made before `last` became the
/// default read and hash as before.
#[test]
fn the_previous_actions_option_is_parsed_and_kept() {
    assert_eq!(config(&[]).unwrap().previous_actions, PreviousActions::Last);
    assert_eq!(config(&[]).unwrap(), PaintConfig::default());
    assert_eq!(config(&[("previous_actions", "all")]).unwrap().previous_actions, PreviousActions::All);
    let cfg = config(&[("turns", "7"), ("previous_actions", "\"last\"")]).unwrap();
    assert_eq!((cfg.turns, cfg.previous_actions), (Some(7), PreviousActions::Last));
    assert_eq!(config(&[("previous_actions", "last")]).unwrap(), cfg_last());
    for bad in ["some", "", "1", "[\"last\"]", "LAST"] {
        let err = config(&[("previous_actions", bad)]).unwrap_err();
        assert!(matches!(err, SetupError::Config { game: "paint", .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains(r#"previous_actions must be "all" or "last""#) && !text.contains('\n'), "{text}");
    }
    let unknown = config(&[("previous", "last")]).unwrap_err().to_string();
    assert!(unknown.contains("(options: board, obstacles, placement, previous_actions, turns)"), "{unknown}");

    let game = Paint::new(&cfg_last(), 2, 0).unwrap();
    assert_eq!(game.sent_history(), PreviousActions::Last);
    assert_eq!(game.observe(1).sent_history, PreviousActions::Last);
    assert_eq!(Paint::new(&PaintConfig::default(), 2, 0).unwrap().observe(0).sent_history, PreviousActions::Last);
    assert!(json(&cfg_last()).contains(r#""previous_actions":"last""#));
    let back: PaintConfig = serde_json::from_str(&json(&cfg_last())).unwrap();
    assert_eq!(back, cfg_last());
    // The original: left out when serialised, and what a config, state or view without the
    // field means.
    let all = PaintConfig { previous_actions: PreviousActions::All, ..PaintConfig::default() };
    assert!(!json(&all).contains("previous_actions"));
    let old: PaintConfig = serde_json::from_str(r#"{"board":"ten_by_ten"}"#).unwrap();
    assert_eq!(old, all);
    let original = Paint::new(&all, 2, 0).unwrap();
    assert!(!json(&original).contains("sent_history"), "state hashes of matches with the original are unchanged");
    assert!(!json(&original.observe(0)).contains("sent_history"));
    let back: Paint = serde_json::from_str(&json(&original)).unwrap();
    assert_eq!(back.sent_history(), PreviousActions::All);
    let back: crate::View = serde_json::from_str(&json(&original.observe(0))).unwrap();
    assert_eq!(back.sent_history, PreviousActions::All);
}

fn cfg_last() -> PaintConfig {
    PaintConfig { previous_actions: PreviousActions::Last, ..PaintConfig::default() }
}

/// A value's JSON text.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

/// `option_docs` lists every config field, and each default is the field's JSON in
/// `PaintConfig::default()` (`previous_actions` is left out of that JSON at its default, so it
/// is put back first).
#[test]
fn option_docs_match_the_config() {
    let mut defaults = serde_json::to_value(PaintConfig::default()).unwrap();
    defaults["previous_actions"] = serde_json::to_value(PreviousActions::default()).unwrap();
    let fields = defaults.as_object().unwrap();
    let docs = Paint::option_docs();
    let mut names: Vec<&str> = docs.iter().map(|doc| doc.name).collect();
    names.sort_unstable();
    assert_eq!(names, fields.keys().map(String::as_str).collect::<Vec<_>>());
    for doc in docs {
        let value =
            serde_json::from_str(&doc.default).unwrap_or_else(|_| serde_json::Value::String(doc.default.clone()));
        assert_eq!(fields[doc.name], value, "{}", doc.name);
        assert!(!doc.help.is_empty());
    }
}

// ---- Walks: paint.md "One turn" 1 ----

/// paint.md "One turn" 1: a walk moves one square and paints it.
#[test]
fn a_walk_moves_and_paints() {
    let mut game = state(&["A...", "...B"], 10);
    let events = play(&mut game, &[(0, walk(SouthEast))]);
    assert_eq!(rows(&game), vec!["a...", ".A.B"]);
    assert_eq!(events, vec![Event::Walked { seat: 0, direction: SouthEast, from: p(0, 0), to: p(1, 1) }]);
}

/// paint.md "One turn" 1: a walk whose target is off the board is dropped.
#[test]
fn walks_off_the_board_are_dropped() {
    let mut game = state(&["A..B"], 10);
    let events = play(&mut game, &[(0, walk(North)), (1, walk(East))]);
    assert_eq!(rows(&game), vec!["A..B"]);
    assert_eq!(dropped(&events, 0), Some(WalkDrop::OffBoard));
    assert_eq!(dropped(&events, 1), Some(WalkDrop::OffBoard));
}

/// paint.md "One turn" 1: two walks into one square are both dropped; a walk into a standing
/// avatar is dropped and the standing avatar stays.
#[test]
fn walks_into_a_shared_square_are_dropped() {
    let mut game = state(&["A.B", "..C"], 10);
    let events = play(&mut game, &[(0, walk(East)), (1, walk(West)), (2, walk(North))]);
    assert_eq!(rows(&game), vec!["A.B", "..C"]);
    assert_eq!([0, 1, 2].map(|seat| dropped(&events, seat)), [Some(WalkDrop::Collision); 3]);
}

/// paint.md "One turn" 1, "repeat until stable": each dropped walk leaves its walker in place,
/// which drops the walk behind it, and so on down a chain of four.
#[test]
fn collision_reverts_repeat_down_a_chain() {
    let mut game = state(&["ABCDE"], 10);
    let events = play(&mut game, &[(0, walk(East)), (1, walk(East)), (2, walk(East)), (3, walk(East))]);
    assert_eq!(rows(&game), vec!["ABCDE"]);
    for seat in 0..4 {
        assert_eq!(dropped(&events, seat), Some(WalkDrop::Collision), "seat {seat}");
    }
    // A chain ending at a free square moves as a whole.
    let mut game = state(&["ABCD."], 10);
    play(&mut game, &[(0, walk(East)), (1, walk(East)), (2, walk(East)), (3, walk(East))]);
    assert_eq!(rows(&game), vec!["aABCD"]);
}

/// paint.md "One turn" 1: B and C collide on [0,2]; B's revert keeps it on [0,1], where A was
/// walking, so A's walk is dropped in the next round.
#[test]
fn a_revert_drops_the_walk_into_the_square_it_keeps() {
    let mut game = state(&["AB.C"], 10);
    let events = play(&mut game, &[(0, walk(East)), (1, walk(East)), (2, walk(West))]);
    assert_eq!(rows(&game), vec!["AB.C"]);
    assert_eq!([0, 1, 2].map(|seat| dropped(&events, seat)), [Some(WalkDrop::Collision); 3]);
}

/// paint.md "One turn" 1: swaps and rotations are allowed.
#[test]
fn swaps_and_rotations_go_through() {
    let mut game = state(&["AB", "CD"], 10);
    play(&mut game, &[(0, walk(East)), (1, walk(West))]);
    assert_eq!(game.positions(), &[p(0, 1), p(0, 0), p(1, 0), p(1, 1)]);
    // A four-cycle around a 2x2 square.
    let mut game = state(&["AB", "DC"], 10);
    play(&mut game, &[(0, walk(East)), (1, walk(South)), (2, walk(West)), (3, walk(North))]);
    assert_eq!(rows(&game), vec!["DA", "CB"]);
}

/// paint.md "One turn" 1: every avatar's square is painted (walkers, shooters and idle players
/// alike), even one standing on another colour or on an unpainted square.
#[test]
fn every_avatar_square_is_painted() {
    let mut game = state(&["0.b", "...", "1.2"], 10);
    game.board.paint(p(0, 0), 1);
    play(&mut game, &[(1, shoot(East))]);
    assert_eq!(game.board().color(p(0, 0)), Some(0), "idle avatar on another colour");
    assert_eq!(game.board().color(p(2, 0)), Some(1), "shooter on an unpainted square");
    assert_eq!(game.board().color(p(2, 1)), Some(1), "its shot, range max(1, 1 - 1)");
    assert_eq!(game.board().color(p(2, 2)), Some(2), "idle avatar on an unpainted square");
    game.check_invariants().unwrap();
}

// ---- Shots: paint.md "One turn" 2 ----

/// paint.md "One turn" 2: range `max(1, L - 1)`, L the run of own colour from the shooter's
/// square away from the shot, up to the edge; other colours, unpainted squares and obstacles
/// end the run.
#[test]
fn shot_range_follows_the_run_behind() {
    let (board, _) = drawn(&["aaaa..", "b.....", "#aa...", "..ab.."]);
    assert_eq!(rules::run_length(&board, p(0, 3), 0, West), 4, "up to the edge");
    assert_eq!(rules::shot_range(&board, p(0, 3), 0, East), 3, "L 4 -> range 3");
    assert_eq!(rules::shot_range(&board, p(0, 3), 0, West), 1, "L 1 -> range 1");
    assert_eq!(rules::shot_range(&board, p(0, 2), 0, East), 2, "L 3 -> range 2");
    assert_eq!(rules::run_length(&board, p(2, 2), 0, West), 2, "an obstacle ends the run");
    assert_eq!(rules::shot_range(&board, p(2, 2), 0, East), 1, "L 2 -> range 1");
    assert_eq!(rules::run_length(&board, p(3, 2), 0, NorthWest), 2, "diagonal, ended by b at [1,0]");
    assert_eq!(rules::run_length(&board, p(3, 3), 1, West), 1, "another colour ends the run");
    assert_eq!(rules::run_length(&board, p(3, 3), 0, West), 0, "not the shooter's colour");
    assert_eq!(rules::shot_range(&board, p(9, 9), 0, East), 1, "off the board: L 0, range 1");
}

/// paint.md "One turn" 2: a shot paints up to its range, over any colour.
#[test]
fn a_shot_paints_its_range() {
    let mut game = state(&["aaaA.bbbB"], 10);
    let events = play(&mut game, &[(0, shoot(East))]);
    assert_eq!(rows(&game), vec!["aaaAaaabB"]);
    assert_eq!(shot(&events, 0), (vec![p(0, 4), p(0, 5), p(0, 6)], p(0, 6), ShotStop::RangeSpent, 3));
}

/// paint.md "One turn" 2: ranges are measured after the walks' painting: B walking into A's run
/// cuts it from 5 to 2, so A's range is 1.
#[test]
fn ranges_are_measured_after_walk_painting() {
    let mut game = state(&["aaaaA...", "..B....."], 10);
    let events = play(&mut game, &[(0, shoot(East)), (1, walk(North))]);
    assert_eq!(shot(&events, 0).3, 1);
    assert_eq!(rows(&game), vec!["aaBaAa..", "..b....."]);
}

/// paint.md "One turn" 2.3: off the board, a shot is removed.
#[test]
fn shots_off_the_board_stop() {
    let mut game = state(&["aaA", "..B"], 10);
    let events = play(&mut game, &[(0, shoot(East)), (1, shoot(SouthEast))]);
    assert_eq!(shot(&events, 0), (vec![], p(0, 3), ShotStop::OffBoard, 2));
    assert_eq!(shot(&events, 1), (vec![], p(2, 3), ShotStop::OffBoard, 1));
    assert_eq!(rows(&game), vec!["aaA", "..B"]);
}

/// paint.md "One turn" 2.3: a shot entering an avatar's square (after the walks) is removed and
/// does not paint it; a square left by a walker is free.
#[test]
fn shots_stop_on_avatars_after_the_walks() {
    let mut game = state(&["aaaaA.B.."], 10);
    let events = play(&mut game, &[(0, shoot(East))]);
    assert_eq!(shot(&events, 0), (vec![p(0, 5)], p(0, 6), ShotStop::Avatar, 4));
    assert_eq!(rows(&game), vec!["aaaaAaB.."]);

    let mut game = state(&["aaaaA.B..", "........."], 10);
    let events = play(&mut game, &[(0, shoot(East)), (1, walk(South))]);
    assert_eq!(shot(&events, 0), (vec![p(0, 5), p(0, 6), p(0, 7), p(0, 8)], p(0, 8), ShotStop::RangeSpent, 4));
    assert_eq!(rows(&game), vec!["aaaaAaaaa", "......B.."]);
}

/// paint.md "One turn" 2 and the seed's note: shots fired at each other meet in the middle
/// square when the distance is even (it stays unpainted), and pass each other's paint when it is
/// odd (every square between is painted).
#[test]
fn head_on_shots_depend_on_parity() {
    let mut even = state(&["aaA.Bbb"], 10);
    let events = play(&mut even, &[(0, shoot(East)), (1, shoot(West))]);
    assert_eq!(shot(&events, 0), (vec![], p(0, 3), ShotStop::Collision, 2));
    assert_eq!(shot(&events, 1), (vec![], p(0, 3), ShotStop::Collision, 2));
    assert_eq!(rows(&even), vec!["aaA.Bbb"]);

    let mut odd = state(&["aaA..Bbb"], 10);
    let events = play(&mut odd, &[(0, shoot(East)), (1, shoot(West))]);
    assert_eq!(shot(&events, 0), (vec![p(0, 3)], p(0, 4), ShotStop::PaintedThisTurn, 2));
    assert_eq!(shot(&events, 1), (vec![p(0, 4)], p(0, 3), ShotStop::PaintedThisTurn, 2));
    assert_eq!(rows(&odd), vec!["aaAabBbb"]);
}

/// paint.md "One turn" 2.2-2.3: perpendicular shots reaching the crossing in the same step both
/// stop there (it stays unpainted); otherwise the earlier one paints it and the later one stops
/// on it.
#[test]
fn perpendicular_shots_depend_on_arrival() {
    // A (range 2) and B (range 1) both reach [2,3] in step 1.
    let mut same = state(&["...b..", "...B..", "aaA...", "......"], 10);
    let events = play(&mut same, &[(0, shoot(East)), (1, shoot(South))]);
    assert_eq!(shot(&events, 0), (vec![], p(2, 3), ShotStop::Collision, 2));
    assert_eq!(shot(&events, 1), (vec![], p(2, 3), ShotStop::Collision, 1));
    assert_eq!(rows(&same), vec!["...b..", "...B..", "aaA...", "......"]);
    // A reaches [2,3] in step 1 and paints it; B (range 2, from below) enters it in step 2.
    let mut later = state(&["......", "......", "aaA...", "......", "...B..", "...b..", "...b.."], 10);
    let events = play(&mut later, &[(0, shoot(East)), (1, shoot(North))]);
    assert_eq!(shot(&events, 0), (vec![p(2, 3), p(2, 4)], p(2, 4), ShotStop::RangeSpent, 2));
    assert_eq!(shot(&events, 1), (vec![p(3, 3)], p(2, 3), ShotStop::PaintedThisTurn, 2));
    assert_eq!(rows(&later)[2..4], ["aaAaa.", "...b.."]);
}

/// paint.md "One turn" 2.3: a square painted by a shot earlier this turn stops later shots even
/// after the shot that painted it is gone; three shots entering one square all stop.
#[test]
fn shot_paint_and_crowds_stop_shots() {
    let mut game = state(&["...A....", ".....Bbb", "........"], 10);
    let events = play(&mut game, &[(0, shoot(South)), (1, shoot(West))]);
    assert_eq!(shot(&events, 0), (vec![p(1, 3)], p(1, 3), ShotStop::RangeSpent, 1));
    assert_eq!(shot(&events, 1), (vec![p(1, 4)], p(1, 3), ShotStop::PaintedThisTurn, 2));

    let mut game = state(&["A.B", "...", ".C."], 10);
    let events = play(&mut game, &[(0, shoot(SouthEast)), (1, shoot(SouthWest)), (2, shoot(North))]);
    for seat in 0..3 {
        assert_eq!(shot(&events, seat).2, ShotStop::Collision);
    }
    assert_eq!(game.board().color(p(1, 1)), None);
}

// ---- Obstacles: paint.md "Boards" ----

/// paint.md "Obstacles" **\[ours\]**: a walk into an obstacle is dropped like an off-board one
/// (and can block a chain); a shot entering one is removed; obstacles are never painted and the
/// view shows them.
#[test]
fn obstacles_block_walks_shots_and_paint() {
    let mut game = state(&["AB#."], 10);
    let events = play(&mut game, &[(0, walk(East)), (1, walk(East))]);
    assert_eq!(dropped(&events, 1), Some(WalkDrop::Obstacle));
    assert_eq!(dropped(&events, 0), Some(WalkDrop::Collision), "the chain behind it");
    assert_eq!(rows(&game), vec!["AB#."]);

    let mut game = state(&["aaA.#.B"], 10);
    let events = play(&mut game, &[(0, shoot(East))]);
    assert_eq!(shot(&events, 0), (vec![p(0, 3)], p(0, 4), ShotStop::Obstacle, 2));
    assert_eq!(rows(&game), vec!["aaAa#.B"]);
    assert!(game.observe(1).board.is_blocked(p(0, 4)));

    // Through the config, on a real template.
    let cfg = config(&[("obstacles", "[[0,1],[1,0],[1,1]]")]).unwrap();
    let mut game = Paint::new(&cfg, 2, 0).unwrap();
    let events = game.step(&[(0, Some(walk(East))), (1, Some(shoot(North)))]).unwrap();
    assert_eq!(dropped(&events, 0), Some(WalkDrop::Obstacle));
    assert_eq!(game.positions()[0], p(0, 0));
    assert_eq!(rules::shot_range(game.board(), p(0, 0), 0, East), 1);
    game.check_invariants().unwrap();
}

// ---- Turns, end and score: paint.md "One turn" 3, "End and score" ----

/// paint.md "One turn" 3 and "End and score": each step takes one turn off `turns_left` and
/// appends the turn's actions (`None` for no action); at 0 the game is over and nobody acts.
#[test]
fn turns_left_counts_down_to_the_end() {
    let mut game = state(&["A..B"], 2);
    let events = play(&mut game, &[(0, walk(East))]);
    assert_eq!(game.turns_left(), 1);
    assert!(!events.iter().any(|event| matches!(event, Event::GameEnded { .. })));
    assert_eq!(game.to_act(), vec![0, 1]);
    assert_eq!(game.observe(0).turns_left, 1);
    let events = play(&mut game, &[(1, shoot(West))]);
    assert_eq!(game.turns_left(), 0);
    assert!(game.is_over());
    assert_eq!(game.to_act(), Vec::<Seat>::new());
    assert_eq!(events.last(), Some(&Event::GameEnded { scores: vec![2, 2] }));
    assert_eq!(game.previous_actions(), &[vec![Some(walk(East)), None], vec![None, Some(shoot(West))]]);
    assert_eq!(game.step(&[(0, None), (1, None)]), Err(StepError::GameOver));
    assert_eq!(game.check(0, &walk(East)), Err(Invalid::NotActing));
    assert_eq!(game.random_action(0, &mut arena_game::new_rng(1)), None);
    assert!(game.observe(0).legal_actions().is_empty());
}

/// paint.md "End and score": the score is the number of squares of one's colour; equal scores
/// share a rank (standard competition ranking).
#[test]
fn scores_count_squares_and_ties_share_ranks() {
    let game = state(&["Aab", "B..", "C.."], 1);
    assert_eq!(game.outcome(), Outcome { scores: vec![2, 2, 1], ranks: vec![1, 1, 3] });
    assert_eq!(game.outcome().winner(), None);
    let game = state(&["Aaa", "B..", "C.."], 1);
    assert_eq!(game.outcome(), Outcome { scores: vec![3, 1, 1], ranks: vec![1, 2, 2] });
    assert_eq!(game.outcome().winner(), Some(0));
    let game = state(&["Aa.", "B..", "Ccc", "Ddd"], 1);
    assert_eq!(game.outcome().ranks, vec![3, 4, 1, 1]);
}

// ---- Actions: paint.md "Actions" ----

/// paint.md "Actions": only the 8 king vectors are valid; a seat that does not act is refused;
/// a refused step changes nothing.
#[test]
fn invalid_actions_are_typed_and_change_nothing() {
    let mut game = state(&["A..B"], 5);
    let bad = Action { kind: ActionKind::Walk, direction: [0, 0] };
    assert_eq!(game.check(0, &bad), Err(Invalid::BadDirection { direction: [0, 0] }));
    let far = Action { kind: ActionKind::Shoot, direction: [0, -2] };
    assert_eq!(game.check(1, &far), Err(Invalid::BadDirection { direction: [0, -2] }));
    assert_eq!(game.check(2, &walk(East)), Err(Invalid::NotActing));
    assert_eq!(game.observe(0).check(&bad), game.check(0, &bad));
    let before = game.clone();
    assert!(matches!(game.step(&[(0, Some(bad)), (1, None)]), Err(StepError::Invalid { seat: 0, .. })));
    assert!(matches!(game.step(&[(0, None)]), Err(StepError::WrongSeats { .. })));
    assert_eq!(game, before);
    // A walk off the board is valid (it is dropped, not refused).
    assert_eq!(game.check(0, &walk(North)), Ok(()));
    assert_eq!(game.no_action(0), None);
}

/// `from_parts` refuses malformed states by name (the fixtures module relies on it).
#[test]
fn malformed_states_are_refused() {
    let ok = || drawn(&["A.b", "..B"]);
    let (board, positions) = ok();
    assert!(Paint::from_parts(board.clone(), positions.clone(), 1, Vec::new()).is_ok());
    assert_eq!(Paint::from_parts(board.clone(), Vec::new(), 1, Vec::new()), Err(StateError::Players { players: 0 }));
    let mut short = board.clone();
    short.colors.pop();
    assert!(matches!(
        Paint::from_parts(short, positions.clone(), 1, Vec::new()),
        Err(StateError::Cells { field: "colors", .. })
    ));
    assert!(matches!(
        Paint::from_parts(Board::new(0, 3), positions.clone(), 1, Vec::new()),
        Err(StateError::Size { width: 0, height: 3 })
    ));
    assert_eq!(
        Paint::from_parts(board.clone(), positions[..1].to_vec(), 1, Vec::new()),
        Err(StateError::UnknownColor { pos: p(0, 2), seat: 1 })
    );
    let mut painted = board.clone();
    painted.blocked[1] = true;
    painted.colors[1] = Some(0);
    assert_eq!(
        Paint::from_parts(painted, positions.clone(), 1, Vec::new()),
        Err(StateError::PaintedObstacle { pos: p(0, 1) })
    );
    assert_eq!(
        Paint::from_parts(board.clone(), vec![p(0, 0), p(0, 0)], 1, Vec::new()),
        Err(StateError::SharedSquare { pos: p(0, 0), first: 0, second: 1 })
    );
    let mut blocked = board.clone();
    blocked.block(p(1, 2));
    assert!(matches!(
        Paint::from_parts(blocked, positions.clone(), 1, Vec::new()),
        Err(StateError::OnObstacle { seat: 1, .. })
    ));
    let bad = Action { kind: ActionKind::Walk, direction: [1, 2] };
    assert_eq!(
        Paint::from_parts(board.clone(), positions.clone(), 1, vec![vec![None, Some(bad)]]),
        Err(StateError::History { turn: 0 })
    );
    assert_eq!(Paint::from_parts(board, positions, 1, vec![vec![None]]), Err(StateError::History { turn: 0 }));
}

/// **\[ours\]** an avatar off the board (accepted for the upstream fixtures) plays by the same
/// rules: nothing is painted there, a walk can bring it on, its shot's range is 1; the
/// invariants report it.
#[test]
fn an_avatar_off_the_board_follows_the_rules() {
    let (board, _) = drawn(&["a.."]);
    let mut game = Paint::from_parts(board, vec![p(0, 0), p(1, 1)], 3, Vec::new()).unwrap();
    assert!(game.check_invariants().is_err());
    let events = play(&mut game, &[(1, shoot(North))]);
    assert_eq!(shot(&events, 1), (vec![p(0, 1)], p(0, 1), ShotStop::RangeSpent, 1));
    play(&mut game, &[(1, walk(NorthEast))]);
    assert_eq!(game.positions()[1], p(0, 2));
    assert_eq!(rows(&game), vec!["AbB"]);
    game.check_invariants().unwrap();
}

// ---- The view and the text board ----

/// paint.md "Original protocol" 2: the view holds the whole state the protocol sends, with the
/// observer's own seat as its id.
#[test]
fn the_view_is_the_protocol_state() {
    let mut game = Paint::new(&PaintConfig::default(), 2, 0).unwrap();
    play(&mut game, &[(0, walk(East))]);
    let view = game.observe(1);
    assert_eq!(view.seat, 1);
    assert_eq!(view.me(), Some(p(9, 9)));
    assert_eq!(view.turns_left, 99);
    assert_eq!(view.positions, game.positions());
    assert_eq!(&view.board, game.board());
    assert_eq!(view.previous_actions, vec![vec![Some(walk(East)), None]]);
    assert_eq!(view.scores(), game.scores());
    assert_eq!(view.legal_actions(), Action::all().to_vec());
}

/// The compact text board of `Display`.
#[test]
fn display_is_a_compact_board() {
    let mut game =
        Paint::new(&config(&[("board", "seven_by_thirteen"), ("obstacles", "[[3,6]]")]).unwrap(), 2, 0).unwrap();
    play(&mut game, &[(0, walk(East))]);
    assert_eq!(
        game.to_string(),
        "1 turns played, 129 left; squares a 2, b 1\n\
         .............\n\
         .............\n\
         .............\n\
         .aA...#....B.\n\
         .............\n\
         .............\n\
         ............."
    );
    let mut over = state(&["Aa", "B."], 1);
    play(&mut over, &[]);
    assert!(over.to_string().starts_with("game over after 1 turns; squares a 2, b 1\n"), "{over}");
}

/// Colours are `u8`: a state of 256 seats (the most `from_parts` takes) plays without overflow.
#[test]
fn two_hundred_fifty_six_seats_play() {
    let mut board = Board::new(256, 2);
    let positions: Vec<Pos> = (0..256).map(|col| p(0, col)).collect();
    for (seat, pos) in positions.iter().enumerate() {
        board.paint(*pos, u8::try_from(seat).unwrap());
    }
    let mut game = Paint::from_parts(board.clone(), positions.clone(), 2, Vec::new()).unwrap();
    let actions: Vec<(Seat, Action)> =
        (0..256).map(|seat| (seat, if seat % 2 == 0 { walk(South) } else { shoot(South) })).collect();
    let events = play(&mut game, &actions);
    assert_eq!(events.len(), 256);
    assert_eq!(game.scores().iter().sum::<i64>(), 512);
    game.check_invariants().unwrap();
    let mut too_many = positions;
    too_many.push(p(1, 0));
    assert_eq!(Paint::from_parts(board, too_many, 2, Vec::new()), Err(StateError::Players { players: 257 }));
}
