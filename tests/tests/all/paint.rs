//! Paint end to end through the host: matches of 3 and 4 players
//! whose replays verify, and a starved match whose bots are suspended and resume.

use arena_host::bindings::paint::PaintBinding;
use arena_host::loader::LoadedBot;
use arena_host::record::MatchRecord;
use arena_host::replay::{Verdict, compare, verify};
use arena_host::{Budget, play_match};
use arena_paint::{BoardName, Paint, PaintConfig};
use arena_tests::{RESUME_OVERSHOOT, arena, load};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A built Paint bot, compiled once per test binary.
fn paint_bot(name: &str) -> Arc<LoadedBot<PaintBinding>> {
    static BOTS: OnceLock<Mutex<BTreeMap<String, Arc<LoadedBot<PaintBinding>>>>> = OnceLock::new();
    let mut bots = BOTS.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    bots.entry(name.to_owned()).or_insert_with(|| load::<PaintBinding>(arena(), name)).clone()
}

/// Plays a match between built bots, in seat order.
fn play(names: &[&str], config: &PaintConfig, seed: u64, budget: Budget) -> MatchRecord<Paint> {
    let bots: Vec<_> = names.iter().map(|name| paint_bot(name)).collect();
    play_match::<PaintBinding>(arena(), &bots, config, seed, budget).unwrap()
}

/// Every player spent fuel and none trapped, forfeited or answered an invalid action.
fn assert_clean(record: &MatchRecord<Paint>) {
    for player in &record.result.players {
        assert!(!player.forfeit && player.traps == 0 && player.invalid_actions == 0, "{player:?}");
        assert!(player.fuel_total > 0 && player.fuel_max_turn <= player.fuel_total, "{player:?}");
    }
}

/// A 4-player match on seven_by_thirteen (symmetric placement) runs to its end, every seat acts
/// every turn, and re-running it gives the same record.
#[test]
fn a_four_player_match_runs_and_replays_identically() {
    let config = PaintConfig { board: BoardName::SevenByThirteen, ..PaintConfig::default() };
    let names = ["paint-greedy", "paint-random", "paint-greedy", "paint-random"];
    let record = play(&names, &config, 7, Budget::default());
    assert_clean(&record);
    assert_eq!(record.result.turns, 130);
    assert!(record.turns.iter().all(|turn| turn.seats.len() == 4));
    let total: i64 = record.result.players.iter().map(|player| player.score).sum();
    assert!(total > 0 && total <= 13 * 7, "{total}");
    let rerun = play(&names, &config, 7, Budget::default());
    assert_eq!(compare(&record, &rerun), Verdict::Identical);
}

/// A 3-player match's replay survives its JSON form and `verify` (which reloads the bots from
/// the recorded paths) finds it identical.
#[test]
fn a_three_player_replay_verifies() {
    let names = ["paint-random", "paint-greedy", "paint-random"];
    let record = play(&names, &PaintConfig::default(), 3, Budget::default());
    assert_clean(&record);
    let json = serde_json::to_string(&record).unwrap();
    let recorded: MatchRecord<Paint> = serde_json::from_str(&json).unwrap();
    assert_eq!(verify::<PaintBinding>(arena(), &recorded, &[]).unwrap(), Verdict::Identical);
}

/// A turn budget below what greedy spends suspends it on some turns (its late answers apply to
/// the turns in which they return, and the SDK pads the history over the turns it missed); the
/// match completes, the result reports it, and the replay still verifies.
#[test]
fn a_starved_greedy_bot_is_suspended_and_resumes() {
    let budget = Budget { turn_fuel: 60_000, ..Budget::default() };
    let record = play(&["paint-greedy", "paint-random"], &PaintConfig::default(), 1, budget);
    assert_eq!(record.result.turns, 100);
    let greedy = &record.result.players[0];
    assert!(greedy.skipped_turns > 0 && !greedy.forfeit && greedy.traps == 0, "{greedy:?}");
    assert!(greedy.fuel_max_turn <= 60_000 + RESUME_OVERSHOOT, "{greedy:?}");
    let random = &record.result.players[1];
    assert_eq!(random.skipped_turns, 0, "{random:?}");
    let answered = record.turns.iter().filter(|turn| turn.seats[0].answer.is_some()).count();
    assert!(answered > 0 && answered < 100, "{answered}");
    let rerun = play(&["paint-greedy", "paint-random"], &PaintConfig::default(), 1, budget);
    assert_eq!(compare(&record, &rerun), Verdict::Identical);
}
