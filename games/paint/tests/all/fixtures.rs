//! paint.md "Transition fixtures": the upstream fixtures and ours (tests/transitions/, one rule
//! each, expected values worked out by hand from paint.md) all pass through
//! [`arena_paint::fixtures`]; failures and bad files are reported by path and by file.

use arena_paint::fixtures::{self, Fixture, FixtureError, InvalidFixture, Verdict};
use std::path::{Path, PathBuf};

fn dir(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The upstream fixtures: `../shared/games/paint-transitions` when the checkout has `../shared`
/// beside it, else the vendored copy in tests/upstream-transitions/ (kept identical by
/// `vendored_upstream_copy_is_identical`).
fn upstream() -> &'static str {
    const SHARED: &str = "../../../shared/games/paint-transitions";
    if dir(SHARED).is_dir() { SHARED } else { "tests/upstream-transitions" }
}

fn check_all(relative: &str) -> usize {
    let files = fixtures::fixture_files(&dir(relative)).unwrap();
    let mut failures = Vec::new();
    for file in &files {
        match fixtures::check_file(file) {
            Ok(Verdict::Pass) => {}
            other => failures.push(format!("{}: {other:?}", file.display())),
        }
    }
    assert!(failures.is_empty(), "failing fixtures:\n{}", failures.join("\n"));
    files.len()
}

/// The upstream fixtures (the shared copy beside paint.md) all pass.
#[test]
fn upstream_fixtures_pass() {
    assert_eq!(check_all(upstream()), 4);
}

/// The vendored copy of the upstream fixtures matches `../shared` (when it is there to compare).
#[test]
fn vendored_upstream_copy_is_identical() {
    let shared = dir("../../../shared/games/paint-transitions");
    if !shared.is_dir() {
        return;
    }
    for file in fixtures::fixture_files(&shared).unwrap() {
        let name = file.file_name().unwrap();
        let vendored = dir("tests/upstream-transitions").join(name);
        assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&vendored).unwrap(), "{}", vendored.display());
    }
}

/// Our fixtures (tests/transitions/, described in its README.md) all pass: head-on shots at odd
/// and even distances, perpendicular and diagonal crossings, shots into avatars and walkers, off
/// the board, ranges, walk chains, swaps, invalid actions, painting, previous_actions.
#[test]
fn our_fixtures_pass() {
    assert_eq!(check_all("tests/transitions"), 21);
}

fn fixture(relative: &str) -> Fixture {
    fixtures::load(&dir(relative)).unwrap()
}

/// A wrong `expected` is reported at the first differing field, as a path into the fixture.
#[test]
fn failures_name_the_first_difference() {
    let mut f = fixture("tests/transitions/shoot_head_on_three_between.json");
    f.expected.colors[0][4] = Some("alice".to_string());
    f.expected.colors[0][5] = None;
    let verdict = fixtures::check_fixture(&f).unwrap();
    assert_eq!(
        verdict,
        Verdict::Fail {
            first_difference: "expected.colors[0][4]".into(),
            expected: "\"alice\"".into(),
            got: "null".into()
        }
    );

    let mut f = fixture("tests/transitions/walk_swap_and_rotation.json");
    f.expected.player_positions.insert("bob".into(), [1, 1]);
    let Verdict::Fail { first_difference, expected, got } = fixtures::check_fixture(&f).unwrap() else {
        panic!("a wrong position passed");
    };
    assert_eq!(
        (first_difference.as_str(), expected.as_str(), got.as_str()),
        ("expected.player_positions[\"bob\"]", "[1,1]", "[0,0]")
    );

    let mut f = fixture("tests/transitions/walk_swap_and_rotation.json");
    f.expected.player_positions.remove("erin");
    let Verdict::Fail { first_difference, expected, .. } = fixtures::check_fixture(&f).unwrap() else {
        panic!("a missing player passed");
    };
    assert_eq!((first_difference.as_str(), expected.as_str()), ("expected.player_positions[\"erin\"]", "missing"));

    let mut f = fixture("tests/transitions/shoot_off_board.json");
    f.expected.turns_left = 5;
    let Verdict::Fail { first_difference, .. } = fixtures::check_fixture(&f).unwrap() else {
        panic!("a wrong turns_left passed");
    };
    assert_eq!(first_difference, "expected.turns_left");

    let mut f = fixture("tests/transitions/shoot_off_board.json");
    f.expected.colors[0].push(None);
    let Verdict::Fail { first_difference, .. } = fixtures::check_fixture(&f).unwrap() else {
        panic!("a longer row passed");
    };
    assert_eq!(first_difference, "expected.colors[0]");

    let mut f = fixture("tests/transitions/previous_actions_appended.json");
    if let Some(history) = &mut f.expected.previous_actions {
        history[1].clear();
    }
    let Verdict::Fail { first_difference, got, .. } = fixtures::check_fixture(&f).unwrap() else {
        panic!("a wrong history passed");
    };
    assert_eq!(first_difference, "expected.previous_actions[1][\"alice\"]");
    assert_eq!(got, r#"{"type":"walk","direction":[0,1]}"#);
}

/// Unreadable, unparseable and inconsistent files are typed errors naming the file.
#[test]
fn bad_files_are_named() {
    let tmp = std::env::temp_dir().join(format!("arena-paint-fixtures-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();

    let missing = tmp.join("missing.json");
    let err = fixtures::check_file(&missing).unwrap_err();
    assert!(matches!(&err, FixtureError::Read { path, .. } if *path == missing), "{err:?}");
    assert!(err.to_string().contains("missing.json"), "{err}");

    let garbage = tmp.join("garbage.json");
    std::fs::write(&garbage, "{ not json").unwrap();
    let err = fixtures::check_file(&garbage).unwrap_err();
    assert!(matches!(&err, FixtureError::Parse { path, .. } if *path == garbage), "{err:?}");
    assert!(err.to_string().contains("garbage.json"), "{err}");

    let typo = tmp.join("typo.json");
    let text = std::fs::read_to_string(dir("tests/transitions/shoot_off_board.json")).unwrap();
    std::fs::write(&typo, text.replacen("\"colors\"", "\"colours\"", 1)).unwrap();
    assert!(matches!(fixtures::check_file(&typo), Err(FixtureError::Parse { .. })));

    let stranger = tmp.join("stranger.json");
    std::fs::write(&stranger, text.replacen("\"bob\", \"bob\"", "\"carol\", \"bob\"", 1)).unwrap();
    let err = fixtures::check_file(&stranger).unwrap_err();
    let FixtureError::Invalid { path, source } = &err else { panic!("{err:?}") };
    assert_eq!(path, &stranger);
    assert_eq!(source, &InvalidFixture::UnknownPlayer { id: "carol".into(), at: "colors[0][2]".into() });
    assert!(err.to_string().starts_with(&stranger.display().to_string()), "{err}");

    let err = fixtures::parse(Path::new("-"), "[]").unwrap_err();
    assert!(matches!(&err, FixtureError::Parse { path, .. } if path == Path::new("-")), "{err:?}");

    let files = fixtures::fixture_files(&tmp).unwrap();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(matches!(fixtures::fixture_files(&tmp.join("nope")), Err(FixtureError::Read { .. })));
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// States the engine cannot take are refused by name, never a panic.
#[test]
fn inconsistent_states_are_refused() {
    let base = fixture("tests/transitions/walk_into_shooter.json");
    let refuse = |edit: &dyn Fn(&mut Fixture)| {
        let mut f = base.clone();
        edit(&mut f);
        fixtures::check_fixture(&f).unwrap_err()
    };
    assert_eq!(refuse(&|f| f.board.turns_left = 0), InvalidFixture::TurnsLeft { turns_left: 0 });
    assert_eq!(refuse(&|f| f.board.width = 0), InvalidFixture::Size { width: 0, height: 1 });
    assert_eq!(refuse(&|f| f.board.height = 70_000), InvalidFixture::Size { width: 4, height: 70_000 });
    assert_eq!(refuse(&|f| f.board.height = 2), InvalidFixture::ColorRows { rows: 1, height: 2 });
    assert_eq!(refuse(&|f| f.board.width = 5), InvalidFixture::ColorRow { row: 0, len: 4, width: 5 });
    assert_eq!(refuse(&|f| f.board.player_positions.clear()), InvalidFixture::NoPlayers);
    assert_eq!(
        refuse(&|f| {
            f.board.player_positions.insert("bob".into(), [0, 0]);
        }),
        InvalidFixture::SharedSquare { first: "alice".into(), second: "bob".into(), pos: arena_paint::Pos::new(0, 0) }
    );
    assert_eq!(
        refuse(&|f| {
            f.actions.insert("zed".into(), serde_json::json!({"type": "walk", "direction": [0, 1]}));
        }),
        InvalidFixture::UnknownPlayer { id: "zed".into(), at: "actions".into() }
    );
    assert_eq!(
        refuse(&|f| {
            f.board.player_positions.insert("alice".into(), [i64::MAX, 0]);
        }),
        InvalidFixture::Position { id: "alice".into() }
    );
}

/// paint.md "Transition fixtures" with upstream's `no_actions.json`, whose `bob` stands at
/// `[1, 1]` on a 2x1 board (off it): accepted as the original engine accepts it, the turn
/// passes, nothing is painted off the board **\[ours\]**.
#[test]
fn upstream_off_board_avatar_is_kept() {
    let f = fixture(&format!("{}/no_actions.json", upstream()));
    assert_eq!(f.board.player_positions["bob"], [1, 1]);
    let got = fixtures::apply(&f).unwrap();
    assert_eq!(got.player_positions["bob"], [1, 1]);
    assert_eq!(got.colors, f.board.colors);
}
