//! The `arena` command line as a user meets it: output shapes, exit statuses, refusals of bad
//! files, replay verification. Needs the example bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, fresh_scratch, scratch, stderr, stdout};

use std::path::{Path, PathBuf};

/// Issue: `--json` prints exactly one JSON object with the documented fields; exit status 0.
#[test]
fn match_json_is_one_object_with_every_documented_field() {
    let out = arena(&["match", "--game", "azul", &bot("azul-greedy"), &bot("azul-random"), "--seed", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.trim().lines().count(), 1, "one line of JSON: {text}");
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(json["game"], "azul");
    assert_eq!(json["seed"], 5);
    assert!(json["turns"].as_u64().unwrap() > 0);
    assert!(json["winner"].is_null() || json["winner"].as_u64().unwrap() < 2);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for (seat, player) in players.iter().enumerate() {
        let expected_bot = ["azul-greedy", "azul-random"][seat];
        assert_eq!(player["bot"], expected_bot);
        assert_eq!(player["sha256"].as_str().unwrap().len(), 64);
        assert!(player["score"].is_i64());
        assert!(player["rank"].as_u64().unwrap() >= 1);
        assert_eq!(player["forfeit"], false);
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "every bot spends fuel");
        assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "{counter}");
        }
    }
}

/// The human output is a short table naming the winner.
#[test]
fn match_prints_a_table_by_default() {
    let out = arena(&["match", "--game", "azul", &bot("azul-greedy"), &bot("azul-random"), "--seed", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("azul seed 2: "), "{text}");
    assert!(text.contains("winner:"), "{text}");
    assert!(text.lines().any(|line| line.starts_with("seat") && line.contains("fuel")), "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
}

/// A wasm32-wasip1 command (so a line-protocol bot) whose `_start` writes `stderr_text` to fd 2 and
/// then does `then` (`(call $exit (i32.const 3))`, `unreachable`), written to a scratch file.
fn failing_command(name: &str, stderr_text: &str, then: &str) -> PathBuf {
    let wat = format!(
        r#"(module
            (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
            (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
            (memory (export "memory") 1)
            (data (i32.const 16) "{text}")
            (func (export "_start")
                (i32.store (i32.const 0) (i32.const 16))
                (i32.store (i32.const 4) (i32.const {len}))
                (drop (call $write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
                {then}))"#,
        text = stderr_text.replace('\n', "\\n"),
        len = stderr_text.len(),
    );
    let path = scratch(name);
    std::fs::write(&path, wat::parse_str(wat).unwrap()).unwrap();
    path
}

/// A line-protocol bot that exits at start-up forfeits, and the table says why under its line:
/// the exit in words, its exit code and its stderr's last lines (`--json`: its `post_mortem`).
/// It calls `proc_exit(3)`, which reaches the host as 1 (WASI 0.2's `exit` carries success or
/// failure only), and the table says so.
#[test]
fn a_bot_that_exits_at_start_up_shows_its_exit_code_and_stderr() {
    let stderr_text = "starting\nreading the greeting\ngiving up: no config\n";
    let bot_file = failing_command("exits-3.wasm", stderr_text, "(call $exit (i32.const 3))");
    let greedy = bot("azul-greedy");
    let out = arena(&["match", "--game", "azul", bot_file.to_str().unwrap(), &greedy]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let seat = lines.iter().position(|line| line.starts_with("0 ")).expect("seat 0's line");
    assert!(lines[seat].ends_with("forfeit (too_many_traps)"), "{text}");
    // Restarted on its turns after the start-up, it trapped on each: the last one is shown.
    assert!(lines[seat + 1].trim().starts_with("last trap (turn "), "{text}");
    assert!(lines[seat + 1].ends_with("): init: exited: code 1"), "{text}");
    assert!(lines[seat + 2].trim().starts_with("exit code: 1 (a failure: WASI reports any failing"), "{text}");
    assert_eq!(lines[seat + 3].trim(), "stderr of its last run (3 lines):", "{text}");
    assert_eq!(lines[seat + 6].trim(), "| giving up: no config", "{text}");
    assert!(lines[seat + 7].starts_with("1 "), "seat 1 follows, without a post mortem: {text}");

    let out = arena(&["match", "--game", "azul", bot_file.to_str().unwrap(), &greedy, "--json"]);
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let post_mortem = &json["players"][0]["post_mortem"];
    assert_eq!(post_mortem["exit_code"], 1, "{json}");
    assert_eq!(post_mortem["stderr_tail"][2], "giving up: no config", "{json}");
    assert!(json["players"][1].get("post_mortem").is_none(), "{json}");
}

/// A line-protocol bot that traps at start-up: the trap in words, no exit code.
#[test]
fn a_bot_that_traps_at_start_up_shows_the_trap_in_words() {
    let bot_file = failing_command("traps.wasm", "about to fail\n", "unreachable");
    let out = arena(&["match", "--game", "azul", &bot("azul-greedy"), bot_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let seat = lines.iter().position(|line| line.starts_with("1 ")).expect("seat 1's line");
    assert!(lines[seat].ends_with("forfeit (too_many_traps)"), "{text}");
    assert!(lines[seat + 1].ends_with("): init: unreachable"), "{text}");
    assert_eq!(lines[seat + 2].trim(), "stderr of its last run (1 line):", "{text}");
    assert_eq!(lines[seat + 3].trim(), "| about to fail", "{text}");
    assert!(!text.contains("exit code"), "{text}");
}

/// Issue: exit status 0 when the match was played, whatever the bots did: a turn budget far too
/// small suspends every bot on every turn, and the match still completes.
#[test]
fn a_starved_match_still_exits_zero() {
    let out = arena(&[
        "match",
        "--game",
        "azul",
        &bot("azul-greedy"),
        &bot("azul-random"),
        "--turn-fuel",
        "500",
        "--game-fuel",
        "20000",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let players = json["players"].as_array().unwrap();
    assert!(players.iter().any(|p| p["skipped_turns"].as_u64().unwrap() > 0), "{json}");
    assert!(players.iter().any(|p| p["forfeit"] == true), "20k of game fuel runs out: {json}");
}

/// Issue: exit status 2 for bad usage.
#[test]
fn bad_usage_exits_two() {
    for args in [
        vec!["match"],
        vec!["match", "--game", "chess", "a.wasm", "b.wasm"],
        vec!["match", "--game", "azul", "--seed", "x", "a.wasm", "b.wasm"],
        vec!["nonsense"],
    ] {
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let one_bot = arena(&["match", "--game", "azul", &bot("azul-greedy")]);
    assert_eq!(one_bot.status.code(), Some(2));
    assert!(stderr(&one_bot).contains("azul takes exactly 2 bots, 1 given"), "{}", stderr(&one_bot));
}

/// A replay path into a missing folder is refused before the match is played (one
/// line, exit 2, nothing printed on stdout), not after.
#[test]
fn a_replay_into_a_missing_folder_is_refused_before_playing() {
    let missing = scratch("replay-missing-folder").join("no-such-folder").join("match.json");
    let out = arena(&[
        "match",
        "--game",
        "azul",
        &bot("azul-greedy"),
        &bot("azul-random"),
        "--replay",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "no match was played: {}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no folder") && err.contains("no-such-folder"), "{err}");
}

/// `--seeds A..B --swap` plays every seed in both seat orders and sums the results up
/// per bot, the same on every run.
#[test]
fn seeds_play_a_series_summed_up_per_bot() {
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let args = ["match", "--game", "azul", &greedy, &random, "--seeds", "1..3", "--swap", "--json"];
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["matches"], 6);
    let bots = json["bots"].as_array().unwrap();
    let count = |line: &serde_json::Value, key: &str| line[key].as_u64().unwrap();
    for line in bots {
        assert_eq!(count(line, "matches"), 6, "{line}");
        assert_eq!(count(line, "wins") + count(line, "draws") + count(line, "losses"), 6, "{line}");
        assert!(line["score_ci95"].as_f64().is_some(), "{line}");
    }
    assert_eq!(bots[0]["bot"], "azul-greedy");
    assert_eq!(count(&bots[0], "wins"), count(&bots[1], "losses"));
    assert_eq!(count(&bots[0], "draws"), count(&bots[1], "draws"));
    assert!(count(&bots[0], "wins") > count(&bots[1], "wins"), "greedy beats random: {json}");
    assert_eq!(stdout(&arena(&args)), stdout(&out), "a series is deterministic");

    let table = arena(&["match", "--game", "azul", &greedy, &random, "--seeds", "1..2"]);
    assert_eq!(table.status.code(), Some(0), "{}", stderr(&table));
    assert!(stdout(&table).contains("azul: 2 matches, seeds 1..2"), "{}", stdout(&table));
    assert!(stdout(&table).contains("score (mean ± 95% CI)"), "{}", stdout(&table));
    for bad in [vec!["--swap"], vec!["--seeds", "1..2", "--replay", "x.json"], vec!["--seeds", "9..2"]] {
        let mut args = vec!["match", "--game", "azul", greedy.as_str(), random.as_str()];
        args.extend(bad.iter().copied());
        assert_eq!(arena(&args).status.code(), Some(2), "{bad:?}");
    }
}

/// Runs a match with `file` in seat 1 and returns the single error line.
fn refusal(file: &Path) -> String {
    let out = arena(&["match", "--game", "azul", &bot("azul-greedy"), file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "nothing on stdout when refused");
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    assert!(err.contains(file.to_str().unwrap()), "names the file: {err}");
    err
}

/// A file that is not a valid component is refused before the match, naming the
/// file, what it is and what was expected.
#[test]
fn files_that_are_not_components_are_refused_with_one_line() {
    let missing = scratch("missing.wasm");
    assert!(refusal(&missing).contains("cannot read"));

    let garbage = scratch("garbage.wasm");
    std::fs::write(&garbage, b"#!/bin/sh\necho hi\n").unwrap();
    assert!(refusal(&garbage).contains("not a WebAssembly file"));

    let core = scratch("core.wasm");
    std::fs::write(&core, wat::parse_str("(module (func (export \"_start\")))").unwrap()).unwrap();
    let err = refusal(&core);
    assert!(err.contains("core WebAssembly module") && err.contains("arena:azul/player@0.2.0"), "{err}");
    // It names what would be accepted and why this module is not that either.
    assert!(err.contains("nor is it a wasm32-wasip1 command") && err.contains("imports nothing from WASI"), "{err}");
    let library = scratch("library.wasm");
    let imports =
        "(module (import \"wasi_snapshot_preview1\" \"fd_write\" (func (param i32 i32 i32 i32) (result i32))))";
    std::fs::write(&library, wat::parse_str(imports).unwrap()).unwrap();
    let err = refusal(&library);
    assert!(err.contains("exports no `_start` function") && !err.contains("imports nothing"), "{err}");

    let truncated = scratch("truncated.wasm");
    let real = std::fs::read(bot("azul-greedy")).unwrap();
    std::fs::write(&truncated, &real[..real.len() / 2]).unwrap();
    assert!(refusal(&truncated).contains("invalid component"));
}

/// A component exporting another game's world is refused with one line naming
/// what it exports and what was expected.
#[test]
fn a_component_for_another_game_is_refused_naming_both_worlds() {
    let paint = scratch("paint-bot.wasm");
    let component = r#"(component
        (core module $m (func (export "f")))
        (core instance $i (instantiate $m))
        (func $f (canon lift (core func $i "f")))
        (instance $player (export "init" (func $f)))
        (export "arena:paint/player@0.1.0" (instance $player)))"#;
    std::fs::write(&paint, wat::parse_str(component).unwrap()).unwrap();
    let err = refusal(&paint);
    assert!(err.contains("exports [arena:paint/player@0.1.0]"), "{err}");
    assert!(err.contains("expected arena:azul/player@0.2.0"), "{err}");

    let wrong_types = scratch("old-azul-bot.wasm");
    let azul = component.replace("arena:paint/player@0.1.0", "arena:azul/player@0.2.0");
    std::fs::write(&wrong_types, wat::parse_str(azul).unwrap()).unwrap();
    let err = refusal(&wrong_types);
    assert!(err.contains("types do not match"), "{err}");
}

/// Plays greedy vs random with `seed`, writing the replay to a scratch file `name`.
fn play_with_replay(name: &str, seed: &str) -> PathBuf {
    let replay = scratch(name);
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let args = ["match", "--game", "azul", &greedy, &random, "--seed", seed, "--replay", replay.to_str().unwrap()];
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    replay
}

/// A bot built against an older Azul WIT (a draft of `arena:azul@0.1.0`, whose view was a list
/// where 0.1.0 has a record; 0.2.0 is the version played now) is refused before the match, not
/// trapped in it, and told to rebuild.
#[test]
fn a_bot_built_against_another_wit_version_is_refused() {
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/azul-bot-older-wit.wasm");
    let err = refusal(&old);
    assert!(err.contains("built for arena:azul/player@0.1.0, but this arena plays arena:azul/player@0.2.0"), "{err}");
    assert!(err.contains("rebuild the bot"), "{err}");
}

/// A replay verified somewhere else finds its bots: the recorded path from the
/// replay's folder, or by file name and then by sha256 in a `--bot-dir`.
#[test]
fn replay_verify_finds_moved_bots_by_sha256() {
    let replay = play_with_replay("moved.json", "12");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    // As if played on another machine: the recorded paths exist nowhere here.
    json["bots"][0]["path"] = "elsewhere/azul-greedy.wasm".into();
    json["bots"][1]["path"] = "elsewhere/azul-random.wasm".into();
    let moved = scratch("moved-replay");
    std::fs::create_dir_all(moved.join("elsewhere")).unwrap();
    let moved_replay = moved.join("match.json");
    std::fs::write(&moved_replay, json.to_string()).unwrap();
    let verify = |extra: &[&str]| {
        let mut args = vec!["replay", "verify", moved_replay.to_str().unwrap()];
        args.extend(extra);
        arena(&args)
    };
    let missing = verify(&[]);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    assert!(stderr(&missing).contains("cannot read"), "{}", stderr(&missing));

    // Renamed copies in a folder of their own: found by sha256.
    let dir = scratch("moved-bots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bot("azul-greedy"), dir.join("first.wasm")).unwrap();
    std::fs::copy(bot("azul-random"), dir.join("second.wasm")).unwrap();
    let found = verify(&["--bot-dir", dir.to_str().unwrap()]);
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    assert_eq!(stdout(&found).trim(), "identical");

    // The recorded relative paths, from the replay's folder.
    std::fs::copy(bot("azul-greedy"), moved.join("elsewhere/azul-greedy.wasm")).unwrap();
    std::fs::copy(bot("azul-random"), moved.join("elsewhere/azul-random.wasm")).unwrap();
    let beside = verify(&[]);
    assert_eq!(beside.status.code(), Some(0), "{}", stderr(&beside));
}

/// `replay verify` re-runs the match and prints `identical`; a replay whose
/// record was altered prints the first differing turn and exits 1.
#[test]
fn replay_verify_reports_identical_and_the_first_differing_turn() {
    let replay = play_with_replay("verify.json", "11");
    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");

    // Alter the fuel the 4th turn records.
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let fuel = &mut json["turns"][3]["seats"][0]["fuel"];
    *fuel = serde_json::json!(fuel.as_u64().unwrap() + 1);
    let altered = scratch("altered.json");
    std::fs::write(&altered, serde_json::to_string(&json).unwrap()).unwrap();
    let verify = arena(&["replay", "verify", altered.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(1), "{}", stderr(&verify));
    let text = stdout(&verify);
    assert!(text.starts_with("turn 4 differs: .seats[0].fuel"), "{text}");
}

/// A replay naming a bot file that changed is refused (status 2), not reported as a mismatch.
#[test]
fn replay_verify_refuses_a_changed_bot() {
    let replay = play_with_replay("changed.json", "0");
    let verify = arena(&["replay", "verify", replay.to_str().unwrap(), "--bot", &format!("1={}", bot("azul-greedy"))]);
    assert_eq!(verify.status.code(), Some(2), "{}", stdout(&verify));
    assert!(stderr(&verify).contains("the replay recorded"), "{}", stderr(&verify));

    let not_a_replay = scratch("not-a-replay.json");
    std::fs::write(&not_a_replay, "{\"hello\": 1}").unwrap();
    let verify = arena(&["replay", "verify", not_a_replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(2));
    assert!(stderr(&verify).contains("not a Wasm Arena replay"), "{}", stderr(&verify));
}

/// `--help` on every subcommand, with examples.
#[test]
fn every_subcommand_has_help_with_examples() {
    for args in [vec!["match", "--help"], vec!["replay", "verify", "--help"], vec!["fuel", "--help"]] {
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains("Examples:"), "{args:?}");
    }
    let top = arena(&["--help"]);
    assert!(stdout(&top).contains("match") && stdout(&top).contains("replay"));
}

/// `arena games` lists each game with its players, most turns, options and accepted bots; `--option`
/// names an unknown key in a one-line refusal (status 2).
#[test]
fn games_are_listed_and_unknown_options_refused() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let azul = games.as_array().unwrap().iter().find(|game| game["name"] == "azul").expect("azul is listed");
    assert_eq!((azul["min_players"].as_u64(), azul["max_players"].as_u64()), (Some(2), Some(2)));
    assert_eq!(azul["max_turns"].as_u64(), Some(2000));
    assert!(azul["bot_kinds"][0].as_str().unwrap().contains("arena:azul/player@0.2.0"));
    let text = stdout(&arena(&["games"]));
    assert!(text.starts_with("azul  (exactly 2 players, at most 2000 turns)"), "{text}");

    let out = arena(&["match", "--game", "azul", &bot("azul-greedy"), &bot("azul-random"), "--option", "size=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown option \"size\""), "{}", stderr(&out));
}

/// `arena new-bot --list --json` lists a Rust template for every game and each template it
/// lists is one `new-bot` writes; `--list` with a folder is a usage error.
#[test]
fn new_bot_lists_its_templates() {
    let out = arena(&["new-bot", "--list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let listed = listed.as_array().unwrap();
    let rust: Vec<&str> =
        listed.iter().filter(|template| template["language"] == "rust").map(|t| t["game"].as_str().unwrap()).collect();
    assert_eq!(rust, arena_host::registry::game_names());
    let foreign = listed.iter().find(|template| template["language"] != "rust").expect("a foreign template");
    let dir = fresh_scratch("new-bot-listed").join("listed");
    let (language, game) = (foreign["language"].as_str().unwrap(), foreign["game"].as_str().unwrap());
    let out = arena(&["new-bot", "--game", game, "--lang", language, dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.join("bot.json").is_file());

    let out = arena(&["new-bot", "--list", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
}

/// `arena new-bot` without `--sdk` points the new crate at the SDK of the clone it was built
/// from (the crate's folder moved once and the default with it: the path is relative to it).
#[test]
fn new_bot_finds_the_sdk_of_its_clone_by_default() {
    let dir = fresh_scratch("new-bot-default-sdk").join("my-bot");
    let out = arena(&["new-bot", "--game", "azul", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let sdk = manifest.split("path = \"").nth(1).and_then(|rest| rest.split('"').next()).expect("a path dependency");
    assert!(Path::new(sdk).join("Cargo.toml").is_file(), "the SDK at {sdk} is not there:\n{manifest}");
}
