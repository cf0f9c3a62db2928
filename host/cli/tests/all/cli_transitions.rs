//! `arena check-transitions`: the upstream fixtures and ours pass; a wrong
//! expectation is reported with its first differing field (status 1); an unreadable or
//! unparseable file is named (status 2).

use crate::common;

use common::{arena, scratch};

use std::path::Path;

/// The upstream fixtures: `../shared/games/paint-transitions` when the checkout has `../shared`
/// beside it, else the vendored copy (games/paint checks the two are identical).
fn upstream() -> String {
    let shared = repo("../shared/games/paint-transitions");
    if Path::new(&shared).is_dir() { shared } else { repo("games/paint/tests/upstream-transitions") }
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).to_string_lossy().into_owned()
}

/// The shared upstream fixtures (the documented use of ../shared in tests) and our own shot
/// and walk fixtures all pass.
#[test]
fn upstream_and_own_fixtures_pass() {
    let out = arena(&["check-transitions", "--game", "paint", &upstream(), &repo("games/paint/tests/transitions")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let last = stdout.lines().last().unwrap();
    let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(passed >= 4 + 20, "{last}");
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

/// A fixture whose expectation is wrong fails with the first differing field.
#[test]
fn a_wrong_expectation_names_the_first_differing_field() {
    let text = std::fs::read_to_string(format!("{}/simple_walk.json", upstream())).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["expected"]["player_positions"]["bob"] = serde_json::json!([1, 1]);
    let wrong = scratch("wrong.json");
    std::fs::write(&wrong, serde_json::to_string(&json).unwrap()).unwrap();
    let right = format!("{}/simple_walk.json", upstream());
    let out = arena(&["check-transitions", "--game", "paint", wrong.to_str().unwrap(), &right]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].contains("wrong.json: expected.player_positions[\"bob\"]"), "{stdout}");
    assert_eq!(lines[1], "1 passed, 1 failed");
}

/// Unreadable and unparseable files are named and give status 2.
#[test]
fn unreadable_files_are_named_with_status_two() {
    let garbage = scratch("garbage.json");
    std::fs::write(&garbage, "{ not json").unwrap();
    let out = arena(&["check-transitions", "--game", "paint", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("garbage.json"));
    let missing = scratch("missing.json");
    let out = arena(&["check-transitions", "--game", "paint", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.json: cannot read"));
}
