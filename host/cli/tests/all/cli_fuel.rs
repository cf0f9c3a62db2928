//! `arena fuel`: the figures are the ones a match against itself records, and the Markdown table
//! has a row per bot.

use crate::common;

use common::{arena, bot, scratch, stdout};

#[test]
fn fuel_figures_are_the_ones_the_match_records() {
    let output = arena(&["fuel", "--game", "azul", "--json", "--seed", "4", &bot("azul-trivial"), &bot("azul-greedy")]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    let profiles: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let profiles = profiles.as_array().unwrap();
    assert_eq!(profiles.len(), 2);

    // The same match, played by `arena match`: its replay holds the same start-up and turns.
    let replay_path = scratch("fuel-greedy.json");
    let greedy = bot("azul-greedy");
    let played = arena(
        &["match", "--game", "azul", &greedy, &greedy, "--seed", "4", "--replay"]
            .into_iter()
            .chain([replay_path.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert!(played.status.success());
    let replay: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay_path).unwrap()).unwrap();
    let greedy_profile = &profiles[1];
    assert_eq!(greedy_profile["bot"], "azul-greedy");
    assert_eq!(greedy_profile["startup"], replay["setup"][0]["fuel"]);
    assert_eq!(greedy_profile["total"], replay["result"]["players"][0]["fuel_total"]);
    let seat0_turns = replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|turn| turn["seats"].as_array().unwrap())
        .filter(|seat| seat["seat"] == 0)
        .count();
    assert_eq!(greedy_profile["turns"], seat0_turns);
    for profile in profiles {
        assert!(profile["startup"].as_u64().unwrap() > 0);
        assert!(profile["turn_median"].as_u64().unwrap() > 0);
        assert!(profile["turn_median"].as_u64() <= profile["turn_max"].as_u64());
        assert_eq!(profile["forfeit"], false);
    }
}

#[test]
fn markdown_has_a_header_and_a_row_per_bot() {
    let output = arena(&["fuel", "--game", "azul", "--markdown", &bot("azul-trivial"), &bot("azul-random")]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].contains("10,000,000 turn budget"), "{text}");
    assert!(lines[2].starts_with("| azul-trivial | "), "{text}");
    assert!(lines[3].starts_with("| azul-random | "), "{text}");
}

/// The match is measured whole, without the game limit: a game budget too small for it is
/// reported (`fits_game_budget`, status `over`), with the fuel the whole match needs.
#[test]
fn a_game_budget_too_small_is_reported_with_what_the_whole_match_needs() {
    let args = ["fuel", "--game", "azul", "--game-fuel", "20000", "--seed", "4"];
    let output = arena(&args.iter().copied().chain(["--json", &bot("azul-greedy")]).collect::<Vec<_>>());
    assert!(output.status.success());
    let profiles: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(profiles[0]["forfeit"], false);
    assert_eq!(profiles[0]["fits_game_budget"], false);
    let total = profiles[0]["total"].as_u64().unwrap();
    assert!(total > 20_000, "{total}");

    let output = arena(&["fuel", "--game", "azul", "--json", "--seed", "4", &bot("azul-greedy")]);
    let profiles: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(profiles[0]["fits_game_budget"], true);
    assert_eq!(profiles[0]["total"], total, "the game budget changes the verdict, not the measurement");

    let output = arena(&args.iter().copied().chain([bot("azul-greedy").as_str()]).collect::<Vec<_>>());
    let text = stdout(&output);
    assert!(text.contains(&total.to_string()) && text.contains("over ("), "{text}");
}
