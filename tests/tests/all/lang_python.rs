//! Python bots end to end (guest-sdk/python, built with componentize-py): they play Rust bots
//! through the registry like any other bot, within the default budgets and memory; the SDK's
//! rules agree with the engine's; matches are deterministic; and their faults (an `init` or a turn
//! over budget, the game budget spent) are reported like a Rust bot's.
//!
//! Needs the bots built: `cargo xtask bots` (or `cargo xtask build-bot bots-examples/azul-random-py`
//! and `bots-examples/azul-trivial-py`). The rules test runs the SDK under the machine's `python3`.

use arena_azul::{Azul, Colour};
use arena_host::fault::{ForfeitReason, Phase, TrapKind};
use arena_host::{BotFault, Budget};
use arena_tests::{
    assert_answers_the_first_legal_move, assert_clean_game, azul_rule_cases, play_azul, play_registered, turns_of,
    workspace_root,
};
use std::io::Write;
use std::process::{Command, Stdio};

/// Python bots are loaded and played through the registry exactly as `arena
/// match` plays any bot (the replay names them), in either seat against Rust bots. (Each registry
/// match compiles its bots afresh, a few seconds for a Python component: two matches here, more
/// below on bots compiled once.)
#[test]
fn python_bots_play_rust_bots_through_the_registry() {
    let budget = Budget::default();
    for (names, py_seat, seed) in
        [(["azul-random-py", "azul-greedy"], 0, 1), (["azul-random", "azul-trivial-py"], 1, 2)]
    {
        let (replay, record) = play_registered::<Azul>("azul", &names, seed, budget);
        assert!(replay.contains(names[py_seat]), "the replay names the Python bot");
        assert_clean_game(&record, names, budget);
    }
}

/// Python bots against the Rust bots on a few seeds, in both seats: whole games, no fault, fuel
/// reported like any bot's.
#[test]
fn python_bots_play_whole_games_against_rust_bots_on_several_seeds() {
    let budget = Budget::default();
    for seed in 3..5 {
        for names in [
            ["azul-random-py", "azul-greedy"],
            ["azul-greedy", "azul-random-py"],
            ["azul-random", "azul-trivial-py"],
            ["azul-trivial-py", "azul-random-py"],
        ] {
            let record = play_azul(names, seed, budget);
            assert_clean_game(&record, names, budget);
        }
    }
}

/// The budget: instantiation plus `init` of a Python bot is a small part of one
/// turn budget, its turns a small part of one turn budget, and a whole game a fraction of the
/// game budget, with memory to spare under a quarter of the default 64 MiB. The bounds are
/// loose (measured: about 0.32M to start, 0.14M to 0.25M per turn, 6M per game, 14 MiB); a
/// componentize-py upgrade that costs much more fails here.
#[test]
fn python_bot_fits_the_default_budgets_with_room_to_spare() {
    let budget = Budget { memory_mib: 16, ..Budget::default() };
    for seed in [1, 2] {
        let record = play_azul(["azul-trivial-py", "azul-random"], seed, budget);
        let player = &record.result.players[0];
        assert!(!player.forfeit && player.traps == 0, "seed {seed}: {player:?}");
        let startup = record.setup[0].fuel;
        assert!(startup < 1_000_000, "seed {seed}: instantiation + init took {startup}");
        assert!(player.fuel_max_turn < 2_000_000, "seed {seed}: {player:?}");
        assert!(player.fuel_total < 40_000_000, "seed {seed}: {player:?}");
    }
}

/// The SDK's `view.legal_moves()` comes in the Rust SDK's order: azul-trivial-py answers the
/// first of them, and on every turn of a match (the engine re-stepped alongside the record)
/// that is the first of the engine's own `View::legal_moves`.
#[test]
fn python_trivial_plays_the_first_legal_move_in_the_sdk_order() {
    for seed in 0..2 {
        assert_answers_the_first_legal_move("azul-trivial-py", seed);
    }
}

/// Runs the Python SDK's rules on each view (the engine's `View` as JSON) and prints, per view,
/// the legal moves, the fallback move and, for every (source 0..=6, colour, line 0..=6), whether
/// it is legal and its `score_if_placed`; and the same view as a bot gets it (`_WitView`, over a
/// record laid out as `wit/azul/azul.wit` says): its legal moves, read from the bytes, and whether
/// its converted fields equal the plain view's.
const RULES_SCRIPT: &str = r#"
import json, sys
from types import SimpleNamespace
sys.path.insert(0, sys.argv[1])
from arena.azul import Board, Colour, Move, PatternLine, View, _WitView

def colour_code(name):
    return 255 if name is None else int(Colour[name.upper()])

def wit_record(v):
    boards = v["boards"]
    return SimpleNamespace(
        seat=v["seat"], round=v["round"],
        tiles=bytes(v["center"]) + b"".join(bytes(f) for f in v["factories"]),
        center_has_marker=v["center_has_marker"], marker_holder=v["marker_holder"],
        lines=bytes(x for b in boards for l in b["lines"] for x in (l["count"], colour_code(l["colour"]))),
        walls=tuple(sum(1 << (5 * r + c) for r in range(5) for c in range(5) if b["wall"][r][c]) for b in boards),
        floor_lens=tuple(b["floor_len"] for b in boards), scores=tuple(b["score"] for b in boards),
        last_move=None, info=None)

def fields(view):
    return (view.seat, view.round, view.center, view.center_has_marker, view.factories, view.marker_holder,
            view.boards)

def line(l):
    return PatternLine(l["count"], None if l["colour"] is None else Colour[l["colour"].upper()])

def board(b):
    return Board(tuple(map(line, b["lines"])), tuple(map(tuple, b["wall"])), b["floor_len"], b["score"])

def mv(m):
    return None if m is None else [m.source, int(m.colour), m.line]

out = []
for v in json.load(sys.stdin):
    view = View(v["seat"], v["round"], tuple(v["center"]), v["center_has_marker"],
                tuple(map(tuple, v["factories"])), v["marker_holder"], tuple(map(board, v["boards"])))
    probes = []
    for s in range(7):
        for c in range(5):
            for l in range(7):
                m = Move(s, Colour(c), l)
                probes.append([view.is_legal(m), view.score_if_placed(m)])
    wit = _WitView(wit_record(v))
    out.append({"legal": [mv(m) for m in view.legal_moves()], "fallback": mv(view.fallback_move()), "probes": probes,
                "wit_legal": [mv(m) for m in wit.legal_moves()], "wit_fields_equal": fields(wit) == fields(view)})
json.dump(out, sys.stdout)
"#;

/// The SDK's rules are the engine's. Over random playouts, for every view of
/// the seat to move, Python's `legal_moves()` (order included), `fallback_move()`, and
/// `is_legal`/`score_if_placed` of every move in and around the legal range equal the engine's.
#[test]
fn python_sdk_rules_agree_with_the_engine() {
    let cases = azul_rule_cases(0..4);
    assert!(cases.len() > 100, "{} views", cases.len());
    let views: Vec<_> = cases.iter().map(|case| &case.view).collect();

    let sdk = workspace_root().join("guest-sdk").join("python");
    // -B: no __pycache__ in the SDK folder.
    let mut python = Command::new("python3")
        .arg("-B")
        .arg("-c")
        .arg(RULES_SCRIPT)
        .arg(&sdk)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (Python bots need it to build)");
    let input = serde_json::to_vec(&views).unwrap();
    python.stdin.take().unwrap().write_all(&input).unwrap();
    let output = python.wait_with_output().unwrap();
    assert!(output.status.success(), "the rules script failed");
    let actual: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(actual.len(), cases.len());
    for (i, (actual, case)) in actual.iter().zip(&cases).enumerate() {
        let (expected, view) = (&case.expected, &case.view);
        assert_eq!(actual["legal"], expected["legal"], "view {i}: {view}");
        assert_eq!(actual["wit_legal"], expected["legal"], "view {i} from the WIT record's bytes: {view}");
        assert_eq!(actual["wit_fields_equal"], true, "view {i} converted from the WIT record: {view}");
        assert_eq!(actual["fallback"], expected["fallback"], "view {i}: {view}");
        assert_eq!(actual["probes"], expected["probes"], "view {i}: {view}");
    }
    // The colour index convention the script relies on.
    assert_eq!(Colour::from_index(4), Some(Colour::Red));
}

/// docs/design.md#determinism, for a Python bot: the same bots and seed play the same
/// match, move for move and fuel unit for fuel unit (the per-match seeded `self.random`
/// included), and another seed plays another one.
#[test]
fn python_matches_are_deterministic() {
    let names = ["azul-random-py", "azul-greedy"];
    let first = play_azul(names, 11, Budget::default());
    let second = play_azul(names, 11, Budget::default());
    assert_eq!(serde_json::to_string(&first).unwrap(), serde_json::to_string(&second).unwrap());
    let other = play_azul(names, 12, Budget::default());
    let answers = |record| turns_of(record, 0).iter().map(|turn| turn.answer).collect::<Vec<_>>();
    assert_ne!(answers(&first), answers(&other), "another seed, another game");
}

/// docs/design.md#turn-overrun-suspend-never-kill "Turn overrun: suspend, never kill" and "Game
/// overrun: forfeit", for a Python bot: with a turn budget above its start-up (about 0.32M) but
/// below its turns (the greedy bot's are 0.5M in the median) it is suspended, its late answers
/// still land (as invalid actions when the table has changed), and once a small game budget is
/// spent it forfeits, charged exactly the game budget.
#[test]
fn python_bot_over_its_turn_and_game_budget_is_suspended_then_forfeits() {
    let budget = Budget { turn_fuel: 400_000, game_fuel: 4_000_000, ..Budget::default() };
    let record = play_azul(["azul-greedy-py", "azul-random"], 3, budget);
    assert_eq!(record.setup[0].faults, [], "start-up fits the turn budget");
    let turns = turns_of(&record, 0);
    assert!(turns.iter().any(|turn| turn.faults == [BotFault::Suspended]), "suspended at least once");
    assert!(turns.iter().any(|turn| turn.answer.is_some()), "a late answer lands");
    let last = turns.last().expect("it had turns");
    assert_eq!(last.faults, [BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted }]);
    let player = &record.result.players[0];
    assert!(player.forfeit && player.traps == 0 && player.skipped_turns > 0, "{player:?}");
    assert_eq!(player.fuel_total, budget.game_fuel, "charged the game budget, exactly");
    assert_eq!(record.result.winner, Some(1));
}

/// docs/design.md#budgets "init is capped at one turn's budget": below a Python bot's start-up
/// cost, `init` traps (startup fuel exhausted) on every attempt, and after three the bot forfeits.
#[test]
fn python_bot_whose_init_exceeds_the_turn_budget_traps_and_forfeits() {
    let budget = Budget { turn_fuel: 200_000, ..Budget::default() };
    let record = play_azul(["azul-trivial-py", "azul-random"], 3, budget);
    let trapped = BotFault::Trapped { phase: Phase::Init, trap: TrapKind::StartupFuelExhausted };
    assert_eq!(record.setup[0].faults, std::slice::from_ref(&trapped));
    let turns = turns_of(&record, 0);
    assert_eq!(turns.last().unwrap().faults, [trapped, BotFault::Forfeit { reason: ForfeitReason::TooManyTraps }]);
    assert!(turns.iter().all(|turn| turn.answer.is_none()));
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.forfeit_reason), (3, Some(ForfeitReason::TooManyTraps)));
    assert_eq!(record.result.winner, Some(1));
}
