//! `arena profile`: prints the hot functions, writes a speedscope file and the same replay as
//! `arena match`, and refuses a seat the match does not have.

use crate::common;

use common::{arena, bot, scratch, stderr, stdout};

#[test]
fn the_summary_names_the_hot_functions_and_the_file_is_speedscope() {
    let (profile_path, replay_path) = (scratch("profile-greedy.json"), scratch("profile-greedy-replay.json"));
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let output = arena(&[
        "profile",
        "--game",
        "azul",
        &greedy,
        &random,
        "--seat",
        "1",
        "--seed",
        "2",
        "--every",
        "5000",
        "--summary",
        "-o",
        profile_path.to_str().unwrap(),
        "--replay",
        replay_path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("azul-greedy (seat 1), azul seed 2: "), "{text}");
    assert!(text.contains("one per 5,000 fuel"), "{text}");
    assert!(text.contains("azul_greedy::GreedyBot"), "{text}");
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&profile_path).unwrap()).unwrap();
    assert_eq!(file["$schema"], "https://www.speedscope.app/file-format-schema.json");
    assert_eq!(file["profiles"].as_array().unwrap().len(), 2);
    assert!(!file["profiles"][0]["samples"].as_array().unwrap().is_empty());

    // BOT in seat 1 is the match `arena match OPPONENT BOT` plays: the same replay.
    let match_replay = scratch("profile-greedy-match.json");
    let played = arena(&[
        "match",
        "--game",
        "azul",
        &random,
        &greedy,
        "--seed",
        "2",
        "--replay",
        match_replay.to_str().unwrap(),
    ]);
    assert!(played.status.success());
    assert!(std::fs::read(&replay_path).unwrap() == std::fs::read(&match_replay).unwrap(), "the replays differ");
}

#[test]
fn a_seat_past_the_last_is_refused() {
    let greedy = bot("azul-greedy");
    let output = arena(&["profile", "--game", "azul", &greedy, &greedy, "--seat", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--seat 2 is past the last seat"), "{}", stderr(&output));
}

#[test]
fn an_interval_that_would_fill_memory_is_refused() {
    let greedy = bot("azul-greedy");
    let output = arena(&["profile", "--game", "azul", &greedy, "--every", "10"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("use --every 50 or more"), "{}", stderr(&output));
}
