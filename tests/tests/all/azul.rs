//! Azul end to end through the host: the search bot's strength over greedy (every game's strong-over-random is `every_game.rs`'s), the host's own lowering of the
//! view, the fuel golden, and a golden replay of the checked-in reference bot.

use arena_azul::AzulConfig;
use arena_game::Game;
use arena_host::bindings::azul::AzulBinding;
use arena_host::loader::{LoadedBot, load_bot, sha256};
use arena_host::seat::SeatBot;
use arena_host::{Arena, Budget, play_match};
use arena_tests::{arena, azul_bot, workspace_root};
use std::path::PathBuf;
use std::sync::Arc;

/// The checked-in reference component (built from tests/bots/fx-reference).
const REFERENCE: &str = "tests/fixtures/fx-reference.wasm";
/// Its sha256: the golden below is only meaningful for exactly these bytes.
const REFERENCE_SHA256: &str = "23471bc81d6eafa897a0699e290e4005bf4660ac175b766301be3530bbab3760";

fn reference(arena: &Arena) -> Arc<LoadedBot<AzulBinding>> {
    let mut bot = load_bot::<AzulBinding>(arena, &workspace_root().join(REFERENCE)).unwrap();
    // Recorded relative to the workspace root, so `arena replay verify` works from there.
    bot.path = PathBuf::from(REFERENCE);
    Arc::new(bot)
}

/// Plays `strong` against `weak` on `seeds`, each seed with both seatings, under the default
/// budgets; checks nobody forfeits, traps or plays an invalid action; returns (strong's wins,
/// games).
fn wins_with_seats_swapped(
    strong: &Arc<LoadedBot<AzulBinding>>,
    weak: &Arc<LoadedBot<AzulBinding>>,
    seeds: std::ops::Range<u64>,
) -> (usize, usize) {
    let (mut wins, mut games) = (0, 0);
    for seed in seeds {
        for strong_seat in 0..2 {
            let bots = if strong_seat == 0 { [strong.clone(), weak.clone()] } else { [weak.clone(), strong.clone()] };
            let record =
                play_match::<AzulBinding>(arena(), &bots, &AzulConfig::default(), seed, Budget::default()).unwrap();
            for player in &record.result.players {
                assert!(!player.forfeit && player.traps == 0 && player.invalid_actions == 0, "{player:?}");
            }
            games += 1;
            wins += usize::from(record.result.winner == Some(strong_seat));
        }
    }
    (wins, games)
}

/// The compute-bound example bot is also a stronger one: over 10 seeds with seats swapped,
/// `azul-search` beats `azul-greedy` at least 80% of the time (19 of 20 when written), and
/// always within the default budgets (its search is sized for the 100M game budget).
#[test]
fn search_beats_greedy_within_the_default_budgets() {
    let (wins, games) = wins_with_seats_swapped(&azul_bot("azul-search"), &azul_bot("azul-greedy"), 0..10);
    assert!(wins * 100 >= games * 80, "search won {wins} of {games}");
}

/// The host writes Azul's view into the guest's memory itself, in one copy
/// (`host/src/bindings/abi.rs`), not through the generated field-by-field lowering. Every view of
/// two games of varied legal moves (pattern lines of every colour, the marker in the center and
/// taken, a last move and none) reaches the guest exactly: `fx-echo-view` logs the view and the
/// budget facts the SDK lifted, and they equal the view and facts the host sent.
#[test]
fn lowered_views_reach_the_guest_exactly() {
    let echo = azul_bot("fx-echo-view");
    let budget = Budget::default();
    let mut runner = arena_host::bot::BotRunner::new(arena(), echo, budget, 0, 2, 1);
    assert!(runner.start().faults.is_empty());
    let mut turn = 0;
    for seed in [1, 2] {
        let mut game = arena_azul::Azul::new(&AzulConfig::default(), 2, seed).unwrap();
        while !game.is_over() {
            let mut actions = Vec::new();
            for seat in game.to_act() {
                let view = game.observe(seat);
                let left = runner.game_fuel_left();
                let sent = arena_host::seat::TurnInfo {
                    turn,
                    turn_fuel_remaining: budget.turn_fuel.min(left),
                    game_fuel_remaining: left,
                    missed_turns: 0,
                };
                let report = runner.take_turn(&view);
                assert!(report.faults.is_empty(), "{:?}", report.faults);
                let logged: Vec<&str> = report.log.entries.iter().map(|entry| entry.text.as_str()).collect();
                assert_eq!(logged, [format!("{view:?}|{sent:?}")], "turn {turn}");
                // Varied legal play: pattern lines of every colour, the floor, the center.
                let moves = view.legal_moves();
                actions.push((seat, moves.get(turn as usize * 7 % moves.len().max(1)).copied()));
                turn += 1;
            }
            game.step(&actions).unwrap();
        }
    }
    assert!(turn > 50, "{turn} views");
}

/// docs/design.md#fuel ("fuel is wasmtime fuel ... the wasmtime version is
/// pinned"): the fuel the checked-in reference bot spends to start and on its first turn. A
/// wasmtime upgrade that changes what a budget means fails here; update the numbers only on
/// purpose, with the upgrade. (Rebuilt once for `arena:azul@0.2.0`, whose view carries two
/// lists: first turn 279,183 then, 280,597 since; and once for the stack instrumentation,
/// `arena_host::stack`, whose counting code costs fuel: start-up 133 then, first turn 280,597;
/// and the first turn's one host call pays the host-call fee, `budget::FUEL_PER_HOST_CALL`, since:
/// 284,049 before.)
#[test]
fn reference_bot_fuel_golden() {
    let bytes = std::fs::read(workspace_root().join(REFERENCE)).unwrap();
    assert_eq!(hex(&sha256(&bytes)), REFERENCE_SHA256, "the reference component changed");
    let arena = arena();
    let bot = reference(arena);
    let record =
        play_match::<AzulBinding>(arena, &[bot.clone(), bot], &AzulConfig::default(), 1, Budget::default()).unwrap();
    let startup = record.setup[0].fuel;
    let first_turn = record.turns[0].seats[0].fuel;
    assert_eq!((startup, first_turn), (209, 285_073), "fuel golden (start-up, first turn)");
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A golden replay: the reference bot against itself, seed 1, recorded in full (moves, faults,
/// fuel per turn, events, state hashes). Any change to the rules engine, the host's metering or
/// the replay format shows up as a diff of this file in review. Regenerate with
/// `UPDATE_GOLDEN=1 cargo test -p arena-tests --test all azul::`; `arena replay verify` accepts it
/// from the workspace root.
#[test]
fn golden_replay_of_the_reference_bot() {
    let arena = arena();
    let bot = reference(arena);
    let record =
        play_match::<AzulBinding>(arena, &[bot.clone(), bot], &AzulConfig::default(), 1, Budget::default()).unwrap();
    let actual = serde_json::to_string_pretty(&record).unwrap() + "\n";
    let golden = workspace_root().join("tests/golden/azul-reference-seed-1.json");
    arena_game::golden::check_golden(&golden, &actual, "cargo test -p arena-tests --test all azul::");
}
