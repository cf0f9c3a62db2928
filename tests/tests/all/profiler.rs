//! The fuel profiler (`arena profile`): a bot with two known hot
//! functions is profiled in their proportion, named from its name section (or by index without
//! one, saying so); profiling changes nothing in the match; the same match gives the same
//! profile, byte for byte; samples are placed in the turns they fell in.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_profiler::phases::phases;
use arena_profiler::report::{FunctionFuel, Subject, functions, speedscope, summary};
use arena_profiler::{FuelSampler, Profiled, Samples};
use arena_tests::{arena, bot_path};
use std::path::PathBuf;
use std::sync::Arc;

/// A profiled match: what the sampler recorded, the replay, and the speedscope file.
struct Profile {
    samples: Samples,
    replay: String,
    file: String,
}

/// Plays `game` between built bots (in seat order) as `arena match` does, profiling `seat`
/// every `every` units of fuel.
fn profile(game: &str, names: &[&str], seat: u8, seed: u64, every: u64) -> Profile {
    let entry = arena_host::registry::find_game(game).unwrap();
    let paths: Vec<PathBuf> = names.iter().map(|name| bot_path(name)).collect();
    let sampler = FuelSampler::new(every);
    let profiled = arena().clone().with_store_hook(Some(Arc::new(Profiled { seat, sampler: sampler.clone() })));
    let played = entry
        .play(&profiled, &BotFiles::all_code_only(&paths), &[], seed, Budget::default())
        .expect("the match is playable");
    let samples = sampler.samples();
    let replay_json: serde_json::Value = serde_json::from_str(&played.replay).unwrap();
    let subject = Subject { bot: names[usize::from(seat)].into(), seat: usize::from(seat), game: game.into(), seed };
    let file = speedscope(&samples, &phases(&replay_json, usize::from(seat)), &subject);
    Profile { samples, replay: played.replay, file }
}

/// The same match, unprofiled: its replay.
fn unprofiled_replay(game: &str, names: &[&str], seed: u64) -> String {
    let entry = arena_host::registry::find_game(game).unwrap();
    let paths: Vec<PathBuf> = names.iter().map(|name| bot_path(name)).collect();
    entry
        .play(arena(), &BotFiles::all_code_only(&paths), &[], seed, Budget::default())
        .expect("the match is playable")
        .replay
}

fn row<'a>(rows: &'a [FunctionFuel], name: &str) -> &'a FunctionFuel {
    rows.iter().find(|row| row.name.ends_with(name)).unwrap_or_else(|| panic!("no {name} in {rows:#?}"))
}

/// `fx-profile-hot` runs the same loop three times as long in `hot_three_quarters` as in
/// `hot_one_quarter`, every turn: the profile charges them 3:1 (within 3%), by their source
/// names, and the two take nearly all of the bot's fuel.
#[test]
fn the_hot_functions_are_found_in_their_proportion() {
    let profile = profile("azul", &["fx-profile-hot", "azul-random"], 0, 1, 10_000);
    let rows = functions(&profile.samples);
    let (three, one) = (row(&rows, "hot_three_quarters"), row(&rows, "hot_one_quarter"));
    let ratio = three.self_fuel as f64 / one.self_fuel as f64;
    assert!((2.91..=3.09).contains(&ratio), "{} / {} = {ratio:.3}", three.self_fuel, one.self_fuel);
    assert_eq!(three.name, "fx_profile_hot::hot_three_quarters", "named from the name section");
    let sampled: u64 = profile.samples.samples.iter().map(|sample| sample.weight).sum();
    assert!((three.self_fuel + one.self_fuel) * 100 >= sampled * 95, "{three:?} {one:?} of {sampled}");
    // Every sample is a whole interval's fuel or more (it falls at the first check past it).
    assert!(profile.samples.samples.iter().all(|sample| sample.weight >= 10_000));
    let record: serde_json::Value = serde_json::from_str(&profile.replay).unwrap();
    assert_eq!(profile.samples.consumed, record["result"]["players"][0]["fuel_total"].as_u64().unwrap());
}

/// "Plays the match exactly as `arena match` would": the replay is byte-identical with and
/// without the profiler, for a bot suspended across turns (`fx-spin-once`), one suspended
/// inside a host call (`fx-host-bomb`) and a line-protocol bot suspended mid-line
/// (`fx-paint-stdio-slow`, profiled in seat 1), each sampled often.
#[test]
fn profiling_changes_nothing_in_the_match() {
    for (game, names, seat, every) in [
        ("azul", ["fx-spin-once", "azul-greedy"], 0, 997),
        ("azul", ["azul-random", "fx-host-bomb"], 1, 333),
        ("paint", ["paint-random", "fx-paint-stdio-slow"], 1, 1_000),
    ] {
        let profiled = profile(game, &names, seat, 5, every);
        assert!(!profiled.samples.samples.is_empty(), "{names:?}");
        assert!(profiled.replay == unprofiled_replay(game, &names, 5), "{names:?}: the replay changed");
    }
}

/// "Deterministic, so the same match gives the same profile on any machine": two runs write
/// the same bytes.
#[test]
fn the_same_match_gives_the_same_profile() {
    let first = profile("azul", &["azul-greedy", "azul-random"], 0, 3, 1_000);
    let second = profile("azul", &["azul-greedy", "azul-random"], 0, 3, 1_000);
    assert!(first.samples.samples.len() > 100, "{}", first.samples.samples.len());
    assert!(first.file == second.file, "the profiles differ");
}

/// The `by phase` view puts each sample under its turn: `fx-spin-once` spends ~25M fuel on its
/// first turn, suspended twice, so samples sit under suspended turns, then under plain ones.
#[test]
fn samples_are_placed_in_their_turns() {
    let profile = profile("azul", &["fx-spin-once", "azul-greedy"], 0, 5, 100_000);
    let file: serde_json::Value = serde_json::from_str(&profile.file).unwrap();
    let frames: Vec<&str> =
        file["shared"]["frames"].as_array().unwrap().iter().map(|frame| frame["name"].as_str().unwrap()).collect();
    let roots: Vec<&str> = file["profiles"][1]["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stack| frames[stack[0].as_u64().unwrap() as usize])
        .collect();
    assert_eq!(roots[0], "turn 1 (suspended)", "{roots:?}");
    assert!(roots.contains(&"turn 3 (suspended)"), "{roots:?}");
    assert!(roots.iter().any(|root| root.starts_with("turn ") && !root.contains('(')), "{roots:?}");
    assert_eq!(file["profiles"][0]["name"], "whole match");
}

/// "A bot built without a name section still profiles (functions named by index) and says so":
/// `fx-profile-stripped` is `fx-profile-hot` linked with `--strip-all`.
#[test]
fn a_stripped_bot_is_profiled_by_index_and_says_so() {
    let profile = profile("azul", &["fx-profile-stripped", "azul-random"], 0, 1, 10_000);
    let unnamed = profile.samples.frames.iter().filter(|frame| !frame.named).count();
    assert!(unnamed > 0, "{:?}", profile.samples.frames);
    let rows = functions(&profile.samples);
    assert!(rows[0].name.contains("!wasm-function["), "{rows:?}");
    assert!((rows[0].self_fuel as f64 / rows[1].self_fuel as f64 - 3.0).abs() < 0.09, "{rows:?}");
    let subject = Subject { bot: "fx-profile-stripped".into(), seat: 0, game: "azul".into(), seed: 1 };
    let text = summary(&profile.samples, 10_000, &subject, 5);
    assert!(text.contains("no name section"), "{text}");
}
