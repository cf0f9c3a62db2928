//! JavaScript bots end to end (componentize-js components built from `bots-examples/*-js` with
//! the JS layer of `guest-sdk/js/`): they play the Rust bots under the default budgets, fault
//! like any bot when a budget is too small, and replay identically; the layer's rules agree with
//! the engine's.
//!
//! Needs the bots built: `cargo xtask bots` (or `cargo xtask build-bot bots-examples/<name>`).
//! The rules test runs the layer under the machine's `node`.

use arena_azul::Azul;
use arena_host::fault::{ForfeitReason, Phase, TrapKind};
use arena_host::record::MatchRecord;
use arena_host::replay::{Verdict, compare};
use arena_host::{BotFault, Budget};
use arena_paint::Paint;
use arena_tests::{
    RESUME_OVERSHOOT, assert_answers_the_first_legal_move, azul_rule_cases, play_azul, play_registered,
    replay_azul_on_the_engine, turns_of, workspace_root,
};
use std::io::Write;
use std::process::{Command, Stdio};

/// Asserts that seat `seat` played the whole match like a well-behaved bot: start-up and every
/// turn within the default budgets, every answer legal and applied, no fault at all.
fn assert_clean<G: arena_game::Game>(record: &MatchRecord<G>, seat: usize) {
    let budget = Budget::default();
    let setup = &record.setup[seat];
    assert_eq!(setup.faults, [], "{setup:?}");
    assert!(setup.fuel > 0 && setup.fuel <= budget.turn_fuel, "start-up fuel {}", setup.fuel);
    let turns = turns_of(record, seat);
    assert!(turns.len() > 10, "a whole game: {} turns", turns.len());
    for seat_turn in &turns {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.answer.is_some(), "{seat_turn:?}");
        assert_eq!(seat_turn.applied, seat_turn.answer);
        assert!(seat_turn.fuel > 0 && seat_turn.fuel <= budget.turn_fuel, "{seat_turn:?}");
    }
    let player = &record.result.players[seat];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    assert!(player.fuel_total > 0 && player.fuel_total <= budget.game_fuel, "{player:?}");
    assert!(player.fuel_max_turn > 0 && player.fuel_max_turn <= budget.turn_fuel, "{player:?}");
}

/// The random JS bot plays the Rust bots in both seats on a couple of seeds; the
/// matches complete and the JS seat's fuel and faults are reported like any Rust bot's.
#[test]
fn the_random_js_bot_plays_the_rust_bots_within_the_default_budgets() {
    for opponent in ["azul-random", "azul-greedy"] {
        for seed in [1, 2] {
            let js_seat = usize::try_from(seed % 2).unwrap();
            let names = if js_seat == 0 { ["azul-random-js", opponent] } else { [opponent, "azul-random-js"] };
            let record = play_azul(names, seed, Budget::default());
            assert_clean(&record, js_seat);
            assert_clean(&record, 1 - js_seat);
            assert_eq!(record.result.players[js_seat].bot, "azul-random-js");
            let fuel = record.result.players[js_seat].fuel_total;
            println!("azul-random-js vs {opponent}, seed {seed}: {} turns, {fuel} fuel", record.result.turns);
        }
    }
}

/// The trivial bot (the README's example) plays the first legal move every turn: never an
/// invalid action, and its start-up and a whole game fit the budgets with room to spare.
#[test]
fn the_trivial_js_bot_fits_the_budgets() {
    let record = play_azul(["azul-trivial-js", "azul-random"], 4, Budget::default());
    assert_clean(&record, 0);
    let budget = Budget::default();
    let player = &record.result.players[0];
    // Measured: start-up about 0.36M, a turn 0.45M in the median and up to about 0.85M, a
    // self-play game about 18.5M (see guest-sdk/js/README.md); the bounds catch a layer that got
    // much slower.
    assert!(record.setup[0].fuel * 4 <= budget.turn_fuel, "start-up {}", record.setup[0].fuel);
    assert!(player.fuel_max_turn * 4 <= budget.turn_fuel, "{player:?}");
    assert!(player.fuel_total * 3 <= budget.game_fuel * 2, "{player:?}");
}

/// The JS layer's `legalMoves` and `Rng` as documented: the trivial bot's every answer is the
/// first of the engine's legal moves, and the random bot's every answer is
/// `legal_moves[rng.below(len)]` with `rng` the layer's xoshiro128** seeded from the seed `init`
/// was handed; so the JS list has the engine's order, move for move.
#[test]
fn the_js_layer_lists_legal_moves_in_the_engines_order() {
    assert_answers_the_first_legal_move("azul-trivial-js", 2);

    let record = play_azul(["azul-greedy", "azul-random-js"], 3, Budget::default());
    let sha256 = &record.result.players[1].sha256;
    let mut digest = [0u8; 32];
    for (i, byte) in digest.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&sha256[2 * i..2 * i + 2], 16).unwrap();
    }
    let mut rng = JsRng::new(arena_host::wasi::init_seed(record.seed, &digest));
    replay_azul_on_the_engine(&record, 1, |view, answer| {
        let moves = view.legal_moves();
        let pick = rng.below(u32::try_from(moves.len()).unwrap());
        assert_eq!(answer, Some(moves[usize::try_from(pick).unwrap()]));
    });
}

/// Runs the JS layer's `View` under `node` on each engine view (as JSON on stdin), turned into the
/// record the host sends (`wit/azul/azul.wit`: tile and line bytes, wall bit sets, pairs by seat;
/// field names as componentize-js lifts them); prints, per view, `legalMoves()`, `fallbackMove()`
/// and `isLegal` of every source 0..7, colour and line 0..7 (the probes' order of
/// `arena_tests::AzulRuleCase`). The layer's only import from the host, `arena:common/log`, is
/// stood in for by a module hook.
const JS_RULES_SCRIPT: &str = r#"
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
const hooks = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("arena:")) {
    return { url: "data:text/javascript,export function log() {}", shortCircuit: true };
  }
  return next(specifier, context);
}`;
register("data:text/javascript," + encodeURIComponent(hooks));
const { View, COLOURS, colourIndex } = await import(pathToFileURL(process.argv[1] + "/arena/azul.js"));

const colourCode = (name) => (name == null ? 255 : COLOURS.indexOf(name.toLowerCase()));
const wallBits = (wall) =>
  wall.reduce((bits, row, r) => row.reduce((acc, full, c) => (full ? acc | (1 << (5 * r + c)) : acc), bits), 0);
const witRecord = (v) => ({
  seat: v.seat,
  round: v.round,
  tiles: Uint8Array.from([...v.center, ...v.factories.flat()]),
  centerHasMarker: v.center_has_marker,
  markerHolder: v.marker_holder ?? undefined,
  lines: Uint8Array.from(v.boards.flatMap((b) => b.lines.flatMap((l) => [l.count, colourCode(l.colour)]))),
  walls: v.boards.map((b) => wallBits(b.wall)),
  floorLens: v.boards.map((b) => b.floor_len),
  scores: v.boards.map((b) => b.score),
  lastMove: undefined,
  info: undefined,
});
const mv = (m) => (m == null ? null : [m.source, colourIndex(m.colour), m.line]);

const out = [];
for (const v of JSON.parse(readFileSync(0, "utf8"))) {
  const view = new View(witRecord(v), null);
  const probes = [];
  for (let source = 0; source < 7; source++) {
    for (const colour of COLOURS) {
      for (let line = 0; line < 7; line++) probes.push(view.isLegal({ source, colour, line }));
    }
  }
  out.push({ legal: view.legalMoves().map(mv), fallback: mv(view.fallbackMove()), probes });
}
process.stdout.write(JSON.stringify(out));
"#;

/// The JS layer's rules are the engine's (as Python's are: `lang_python`): over random playouts,
/// for every view of the seat to move, read from the record the host sends, `legalMoves()`
/// (order included), `fallbackMove()` and `isLegal` of every move in and around the legal range
/// equal the engine's.
#[test]
fn js_sdk_rules_agree_with_the_engine() {
    let cases = azul_rule_cases(0..4);
    assert!(cases.len() > 100, "{} views", cases.len());
    let views: Vec<_> = cases.iter().map(|case| &case.view).collect();
    let sdk = workspace_root().join("guest-sdk").join("js");
    let mut node = Command::new("node")
        .args(["--input-type=module", "-e", JS_RULES_SCRIPT])
        .arg(&sdk)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (JavaScript bots need it to build)");
    node.stdin.take().unwrap().write_all(&serde_json::to_vec(&views).unwrap()).unwrap();
    let output = node.wait_with_output().unwrap();
    assert!(output.status.success(), "the rules script failed");
    let actual: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(actual.len(), cases.len());
    for (i, (actual, case)) in actual.iter().zip(&cases).enumerate() {
        let expected = &case.expected;
        assert_eq!(actual["legal"], expected["legal"], "view {i}: {}", case.view);
        assert_eq!(actual["fallback"], expected["fallback"], "view {i}: {}", case.view);
        let legal: Vec<_> = expected["probes"].as_array().unwrap().iter().map(|probe| probe[0].clone()).collect();
        assert_eq!(actual["probes"], serde_json::Value::Array(legal), "view {i}: {}", case.view);
    }
}

/// `guest-sdk/js/arena/common.js`'s `Rng`, for checking the random bot: xoshiro128** whose
/// state is two SplitMix64 outputs (low word first), `below` by rejection.
struct JsRng([u32; 4]);

impl JsRng {
    fn new(seed: u64) -> JsRng {
        let mut x = seed;
        let mut words = [0u32; 4];
        for pair in words.chunks_mut(2) {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            pair[0] = z as u32;
            pair[1] = (z >> 32) as u32;
        }
        if words == [0; 4] {
            words[0] = 1;
        }
        JsRng(words)
    }

    fn next_u32(&mut self) -> u32 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }

    fn below(&mut self, n: u32) -> u32 {
        let span = 1u64 << 32;
        let limit = span - span % u64::from(n);
        loop {
            let x = self.next_u32();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }
}

/// The same seed gives the same moves, the same fuel per turn and the same result, twice.
#[test]
fn the_same_seed_replays_identically() {
    let first = play_azul(["azul-random-js", "azul-greedy"], 7, Budget::default());
    let second = play_azul(["azul-random-js", "azul-greedy"], 7, Budget::default());
    assert_eq!(compare(&first, &second), Verdict::Identical);
    let fuel = |record: &MatchRecord<Azul>| turns_of(record, 0).iter().map(|turn| turn.fuel).collect::<Vec<_>>();
    assert_eq!(fuel(&first), fuel(&second));
    let answers = |record: &MatchRecord<Azul>| turns_of(record, 0).iter().map(|turn| turn.answer).collect::<Vec<_>>();
    assert_eq!(answers(&first), answers(&second));
    // The seed drives the bot's generator: another match seed gives another game.
    let other = play_azul(["azul-random-js", "azul-greedy"], 8, Budget::default());
    assert_ne!(answers(&first), answers(&other));
}

/// The random JS Paint bot plays a whole match against the Rust one through the registry, as
/// `arena match --game paint` does.
#[test]
fn the_random_js_paint_bot_plays_a_match() {
    let (_, record) = play_registered::<Paint>("paint", &["paint-random-js", "paint-random"], 5, Budget::default());
    assert_eq!(record.result.turns, 100);
    assert_clean(&record, 0);
    assert_clean(&record, 1);
    assert!(record.result.players[0].score > 0, "{:?}", record.result.players[0]);
}

/// A turn budget above the trivial JS bot's start-up (about 0.36M) but below what most of its turns
/// cost (0.45M in the median) suspends it on some turns: it resumes with a fresh budget and its
/// late answers apply to later turns (some then illegal, so the fallback applies); no trap, no
/// forfeit, and the record says so turn by turn.
#[test]
fn a_starved_js_bot_is_suspended_and_resumes() {
    let budget = Budget { turn_fuel: 400_000, ..Budget::default() };
    let record = play_azul(["azul-trivial-js", "azul-random"], 3, budget);
    let player = &record.result.players[0];
    assert!(player.skipped_turns > 0 && player.traps == 0 && !player.forfeit, "{player:?}");
    assert!(player.fuel_max_turn <= budget.turn_fuel + RESUME_OVERSHOOT, "{player:?}");
    let turns = turns_of(&record, 0);
    let suspended = turns.iter().filter(|turn| turn.faults.contains(&BotFault::Suspended)).count();
    assert_eq!(u32::try_from(suspended).unwrap(), player.skipped_turns);
    assert!(turns.iter().filter(|turn| turn.faults.contains(&BotFault::Suspended)).all(|turn| turn.answer.is_none()));
    assert!(turns.iter().any(|turn| turn.answer.is_some()), "late answers arrive");
}

/// A game budget a JS bot cannot finish a game on: it forfeits when the budget runs out, the
/// other bot wins, and the record says why.
#[test]
fn a_js_bot_out_of_game_fuel_forfeits() {
    let budget = Budget { game_fuel: 10_000_000, ..Budget::default() };
    let record = play_azul(["azul-random-js", "azul-random"], 3, budget);
    let player = &record.result.players[0];
    assert!(player.forfeit, "{player:?}");
    assert_eq!(player.forfeit_reason, Some(ForfeitReason::GameFuelExhausted));
    assert_eq!(player.fuel_total, budget.game_fuel);
    assert_eq!(record.result.winner, Some(1));
    let forfeit = BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted };
    let turns = turns_of(&record, 0);
    assert_eq!(turns.iter().filter(|turn| turn.faults.contains(&forfeit)).count(), 1);
}

/// A turn budget below the JS start-up (instantiation and `init`, about 0.4M): every start-up
/// traps as out of start-up fuel, the bot is restarted before each turn, and forfeits after
/// three traps.
#[test]
fn a_js_bot_whose_start_up_does_not_fit_forfeits_after_three_traps() {
    let budget = Budget { turn_fuel: 200_000, ..Budget::default() };
    let record = play_azul(["azul-trivial-js", "azul-random"], 3, budget);
    let trapped = BotFault::Trapped { phase: Phase::Init, trap: TrapKind::StartupFuelExhausted };
    assert_eq!(record.setup[0].faults, std::slice::from_ref(&trapped));
    let player = &record.result.players[0];
    assert_eq!(player.traps, 3, "{player:?}");
    assert_eq!(player.forfeit_reason, Some(ForfeitReason::TooManyTraps));
    assert_eq!(record.result.winner, Some(1));
}
