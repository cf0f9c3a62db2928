//! Code Character end to end through the host: full 1000-turn matches between the example bots
//! within the default budgets, a custom map, and replays that re-run identically.

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Map};
use arena_host::bindings::code_character::CodeCharacterBinding;
use arena_host::loader::LoadedBot;
use arena_host::record::MatchRecord;
use arena_host::replay::{Verdict, compare, verify};
use arena_host::{Budget, play_match};
use arena_tests::{arena, load};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A built Code Character bot, compiled once per test binary.
fn cc_bot(name: &str) -> Arc<LoadedBot<CodeCharacterBinding>> {
    static BOTS: OnceLock<Mutex<BTreeMap<String, Arc<LoadedBot<CodeCharacterBinding>>>>> = OnceLock::new();
    let mut bots = BOTS.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    bots.entry(name.to_owned()).or_insert_with(|| load::<CodeCharacterBinding>(arena(), name)).clone()
}

/// Plays a match between built bots, in seat order.
fn play(names: &[&str], config: &CodeCharacterConfig, seed: u64, budget: Budget) -> MatchRecord<CodeCharacter> {
    let bots: Vec<_> = names.iter().map(|name| cc_bot(name)).collect();
    play_match::<CodeCharacterBinding>(arena(), &bots, config, seed, budget).unwrap()
}

/// Every player spent fuel and none was suspended, trapped, forfeited or answered an invalid
/// action.
fn assert_clean(record: &MatchRecord<CodeCharacter>) {
    for player in &record.result.players {
        assert!(
            !player.forfeit && player.traps == 0 && player.invalid_actions == 0 && player.skipped_turns == 0,
            "{player:?}"
        );
        assert!(player.fuel_total > 0 && player.fuel_max_turn <= player.fuel_total, "{player:?}");
    }
}

/// Full 1000-turn matches between cc-default and cc-rush, both seatings and
/// several seeds, fit the default budgets (10M fuel per turn, 100M per game): no forfeit, no
/// trap, no suspension. cc-default, which holds the flags, wins most of them.
#[test]
fn full_matches_fit_the_default_budgets() {
    let games = 4;
    let mut default_wins = 0;
    for seed in 0..games {
        let default_seat = usize::try_from(seed % 2).unwrap();
        let names = if default_seat == 0 { ["cc-default", "cc-rush"] } else { ["cc-rush", "cc-default"] };
        let record = play(&names, &CodeCharacterConfig::default(), seed, Budget::default());
        assert_clean(&record);
        assert_eq!(record.result.turns, 1000);
        assert!(record.turns.iter().all(|turn| turn.seats.iter().all(|seat| seat.fuel <= 10_000_000)));
        let fuel: Vec<u64> = record.result.players.iter().map(|p| p.fuel_total).collect();
        let scores: Vec<i64> = record.result.players.iter().map(|p| p.score).collect();
        println!("seed {seed}: {names:?} scores {scores:?}, fuel per game {fuel:?}, winner {:?}", record.result.winner);
        assert!(fuel.iter().all(|fuel| *fuel < 100_000_000), "{fuel:?}");
        if record.result.winner == Some(default_seat) {
            default_wins += 1;
        }
    }
    println!("cc-default won {default_wins} of {games} against cc-rush");
    assert!(default_wins * 2 > games, "cc-default won {default_wins} of {games}");
}

/// A 100-turn match re-runs identically, and its replay survives JSON and `verify` (which
/// reloads the bots from the recorded paths).
#[test]
fn a_short_match_replays_identically() {
    let config = CodeCharacterConfig { turns: 100, ..CodeCharacterConfig::default() };
    let names = ["cc-rush", "cc-default"];
    let record = play(&names, &config, 5, Budget::default());
    assert_clean(&record);
    assert_eq!(record.result.turns, 100);
    let rerun = play(&names, &config, 5, Budget::default());
    assert_eq!(compare(&record, &rerun), Verdict::Identical);
    let json = serde_json::to_string(&record).unwrap();
    let recorded: MatchRecord<CodeCharacter> = serde_json::from_str(&json).unwrap();
    assert_eq!(verify::<CodeCharacterBinding>(arena(), &recorded, &[]).unwrap(), Verdict::Identical);
}

/// A custom map reaches the bots through `init` (no flags but two tiles: the bots find them)
/// and the match runs cleanly.
#[test]
fn a_custom_map_is_sent_to_init() {
    let mut lines = vec!["L".repeat(30); 30];
    lines[10] = format!("{}F{}", "L".repeat(10), "L".repeat(19));
    lines[19] = format!("{}F{}", "L".repeat(19), "L".repeat(10));
    let text = lines.join("\n");
    assert!(Map::parse(&text).is_ok());
    let config = CodeCharacterConfig { turns: 60, map: Some(text) };
    let record = play(&["cc-default", "cc-rush"], &config, 1, Budget::default());
    assert_clean(&record);
    // cc-default walks its bots to the two flags and scores turns there.
    assert!(record.result.players[0].score > 0, "{:?}", record.result.players);
}
