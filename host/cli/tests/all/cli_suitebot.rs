//! The `arena` command line with SuiteBot II, what is particular to it (what every game does is
//! `cli_games.rs`'s): its options reach the engine and bad values are refused. Needs the example
//! bots (`cargo xtask bots`).

use crate::common::{arena, bot, match_json, stderr, stdout};

/// Options reach the engine (a 3-round game on a 9 x 7 board with radius 2), and a value out of
/// range is a one-line refusal with status 2.
#[test]
fn options_are_applied_and_bad_values_refused() {
    let random = bot("suitebot-random");
    let options = ["--option", "rounds=3", "--option", "width=9", "--option", "height=7", "--option", "blast_radius=2"];
    let json = match_json("suitebot", &[&[random.as_str(), &random], &options[..]].concat());
    assert_eq!(json["turns"], 3);

    let out = arena(&["match", "--game", "suitebot", &random, &random, "--option", "width=2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("width 2"), "{err}");

    let one = arena(&["match", "--game", "suitebot", &random]);
    assert_eq!(one.status.code(), Some(2));
    assert!(stderr(&one).contains("suitebot takes 2 to 8 bots, 1 given"), "{}", stderr(&one));
}
