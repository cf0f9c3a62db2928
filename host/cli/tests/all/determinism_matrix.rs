//! The determinism matrix: one match per registered game (its two example bots) and a few more,
//! played by the same build in every way the host can run it, must give byte-identical replay
//! JSON:
//!
//! - (a) in this process, on an arena with the default on-demand allocator;
//! - (b) in this process, on an arena with the pooling allocator;
//! - (c) in a second process, `arena match ... --replay FILE`, twice: the first run compiles the
//!   bots into the CLI's artifact cache (this test process's own), the second loads them from it;
//! - (d) in this process, the same match twice at once on two threads sharing the pooling arena
//!   (the "N threads" case as far as it exists before tournaments).
//!
//! The matches mix WIT and line-protocol bots, and one seats hostile fixtures (`fx-spin-once`
//! is suspended across turns, `fx-panic` traps until it forfeits) so the suspend, trap, restart
//! and forfeit paths are in the matrix too. `tests/tests/determinism.rs` covers what a bot can
//! observe (seeded randomness, virtual clocks); this file covers how the host is run. Fuel is
//! never hard-coded here: only replays of the same build are compared.
//!
//! Needs the example bots and fixtures (`cargo xtask bots`).

use crate::common;

use arena_game::Game;
use arena_host::Budget;
use arena_host::bindings::Binding;
use arena_host::bot_data::BotFiles;
use arena_host::budget::DEFAULT_MEMORY_MIB;
use arena_host::engine::{Allocator, ArenaOptions};
use arena_host::record::{MatchRecord, MatchResult};
use arena_host::registry::{GameVisitor, ReplayText, find_game, games, visit_game};
use arena_host::replay::{Verdict, compare};
use arena_host::runtime::Arena;
use common::{arena, bot, scratch, stderr};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One match of the matrix.
struct Spec {
    game: &'static str,
    bots: Vec<&'static str>,
    options: &'static [(&'static str, &'static str)],
    seed: u64,
}

impl Spec {
    fn paths(&self) -> Vec<String> {
        self.bots.iter().map(|name| bot(name)).collect()
    }

    fn options(&self) -> Vec<(String, String)> {
        self.options.iter().map(|(key, value)| (key.to_string(), value.to_string())).collect()
    }

    /// Plays the match in this process on `arena` with the bots at `paths` (each with the data
    /// folder beside it, if there is one, as `arena match` finds it); returns the replay JSON and
    /// the result.
    fn play_at(&self, arena: &Arena, paths: &[String]) -> (String, MatchResult) {
        let game = find_game(self.game).expect("the game is registered");
        let played = game
            .play(arena, &by_convention(paths), &self.options(), self.seed, Budget::default())
            .unwrap_or_else(|err| panic!("{}: {err}", self.game));
        (played.replay, played.result)
    }

    /// Plays the match with `arena match --replay FILE` in a child process, with the bots at
    /// `paths`; returns the file.
    fn play_in_a_child_process(&self, paths: &[String]) -> String {
        let stems: Vec<String> = paths
            .iter()
            .map(|path| Path::new(path).file_stem().unwrap_or_default().to_string_lossy().into_owned())
            .collect();
        let file = scratch(&format!("matrix-{}-{}.json", self.game, stems.join("-")));
        let seed = self.seed.to_string();
        let mut args = vec!["match".to_owned(), "--game".into(), self.game.into(), "--seed".into(), seed];
        args.extend(paths.iter().cloned());
        for (key, value) in self.options {
            args.extend(["--option".into(), format!("{key}={value}")]);
        }
        args.extend(["--replay".into(), file.to_string_lossy().into_owned()]);
        let out = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "arena {args:?}: {}", stderr(&out));
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        // The CLI ends the file with a newline; the JSON before it is the replay.
        text.strip_suffix('\n').expect("the replay file ends with a newline").to_owned()
    }
}

/// The bots at `paths`, each with the data folder beside it if there is one.
fn by_convention(paths: &[String]) -> Vec<BotFiles> {
    paths.iter().map(BotFiles::by_convention).collect()
}

/// The on-demand arena, shared by every test in this binary (it holds no per-match state).
fn on_demand() -> &'static Arena {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    ARENA.get_or_init(|| Arena::new().expect("an on-demand arena"))
}

/// A pooling arena for one test. Not shared between tests: the harness runs tests in parallel,
/// and a pool of 8 bot slots shared by all of them could run out; a bot refused a slot fails to
/// instantiate, which would be charged to it as a start-up trap and change the replay. One test
/// holds at most two concurrent matches of at most three seats: 6 slots.
fn pooling() -> Arena {
    let options = ArenaOptions { allocator: Allocator::Pooling { max_bots: 8 }, max_memory_mib: DEFAULT_MEMORY_MIB };
    Arena::with_options(options).expect("a pooling arena")
}

/// Asserts two replays of the same match are byte-identical; otherwise names the first
/// differing turn (with `arena replay verify`'s comparison) or, when the turns and result agree,
/// the first differing bytes (a header field: bots, config, budget, runtime).
fn assert_identical<G: Game>(what: &str, expected: &str, actual: &str) {
    if expected == actual {
        return;
    }
    let parse = |json: &str| serde_json::from_str::<MatchRecord<G>>(json).expect("a replay parses");
    match compare(&parse(expected), &parse(actual)) {
        Verdict::Differs { turn, detail } => {
            panic!("{} replay, {what}: turn {turn} differs from the on-demand run: {detail}", G::NAME)
        }
        Verdict::Identical => {
            let at = expected.bytes().zip(actual.bytes()).position(|(a, b)| a != b).unwrap_or(expected.len());
            let context =
                |json: &str| json.get(at.saturating_sub(60)..(at + 60).min(json.len())).unwrap_or("").to_owned();
            panic!(
                "{} replay, {what}: the turns and the result agree but byte {at} differs:\n  on-demand: ...{}...\n  {what}: ...{}...",
                G::NAME,
                context(expected),
                context(actual)
            )
        }
    }
}

/// Plays `spec` in every configuration of the matrix and asserts every replay is byte-identical
/// to the on-demand one; returns the match's result for the caller's own checks.
fn matrix<G: Game>(spec: &Spec) -> MatchResult {
    matrix_at::<G>(spec, &spec.paths())
}

/// [`matrix`] with the bots at `paths`.
fn matrix_at<G: Game>(spec: &Spec, paths: &[String]) -> MatchResult {
    assert_eq!(G::NAME, spec.game);
    let (expected, result) = spec.play_at(on_demand(), paths);

    let pool = pooling();
    assert_identical::<G>("pooling allocator", &expected, &spec.play_at(&pool, paths).0);
    for run in ["compiling into its cache", "loading from its cache"] {
        let what = format!("`arena match` in a child process, {run}");
        assert_identical::<G>(&what, &expected, &spec.play_in_a_child_process(paths));
    }

    let concurrent: Vec<String> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2).map(|_| scope.spawn(|| spec.play_at(&pool, paths).0)).collect();
        threads.into_iter().map(|thread| thread.join().expect("the match thread")).collect()
    });
    for (index, replay) in concurrent.iter().enumerate() {
        assert_identical::<G>(&format!("thread {index} of 2 concurrent matches"), &expected, replay);
    }
    digest_is_the_replays::<G>(spec, paths, &pool);
    result
}

/// The digest a tournament stores, computed without the replay's text, is the digest of the
/// record the replay describes; one unit of fuel more in one turn changes it.
fn digest_is_the_replays<G: Game>(spec: &Spec, paths: &[String], arena: &Arena) {
    let game = find_game(spec.game).expect("the game is registered");
    let pool = game.load_pool(arena, &by_convention(paths), &spec.options(), DEFAULT_MEMORY_MIB).unwrap();
    let seating: Vec<usize> = (0..paths.len()).collect();
    let quiet = pool.play(arena, &seating, spec.seed, Budget::default(), ReplayText::DigestOnly).unwrap();
    let full = pool.play(arena, &seating, spec.seed, Budget::default(), ReplayText::Json).unwrap();
    assert!(quiet.replay.is_none());
    assert_eq!(quiet.digest, full.digest, "{}", G::NAME);
    let mut record: MatchRecord<G> = serde_json::from_str(&full.replay.unwrap()).unwrap();
    assert_eq!(record.digest().unwrap(), quiet.digest, "{}: the digest of the replay as read back", G::NAME);
    record.turns[0].seats[0].fuel += 1;
    assert_ne!(record.digest().unwrap(), quiet.digest, "{}", G::NAME);
}

/// Azul between hostile fixtures: `fx-spin-once` computes past its turn budget, is suspended and
/// resumes before it answers; `fx-panic` traps, is restarted, and forfeits after its last trap.
#[test]
fn azul_with_a_suspended_and_a_trapping_bot_replays_identically_everywhere() {
    let spec = Spec { game: "azul", bots: vec!["fx-spin-once", "fx-panic"], options: &[], seed: 3 };
    let result = matrix::<arena_azul::Azul>(&spec);
    let (spinner, panicker) = (&result.players[0], &result.players[1]);
    assert!(spinner.skipped_turns > 0, "the spinner was suspended: {spinner:?}");
    assert!(panicker.traps > 0 && panicker.forfeit, "the panicker trapped and forfeited: {panicker:?}");
}

/// Azul between a WIT bot written in C (a core module wrapped with the WASI preview1 adapter: more
/// core instances per component than a Rust bot, which the pool's per-component limits must hold)
/// and a line-protocol bot, a whole game.
#[test]
fn azul_wit_against_line_protocol_replays_identically_everywhere() {
    let spec = Spec { game: "azul", bots: vec!["azul-greedy-c", "azul-stdio-random"], options: &[], seed: 5 };
    let result = matrix::<arena_azul::Azul>(&spec);
    assert!(result.turns > 10, "a whole game: {result:?}");
}

/// Paint with three seats: a line-protocol bot built for wasm32-wasip2, a WIT bot, and a
/// wasm32-wasip1 command (wrapped into a component when loaded).
#[test]
fn paint_replays_identically_everywhere() {
    let spec = Spec {
        game: "paint",
        bots: vec!["paint-stdio-random", "paint-greedy", "paint-stdio-random-wasip1"],
        options: &[("turns", "40")],
        seed: 11,
    };
    let result = matrix::<arena_paint::Paint>(&spec);
    assert_eq!(result.turns, 40);
}

/// A Go program, which runs as the core module it is on WASI preview1 (its own linker and
/// charges), against a WIT bot. (One Go bot: each compiles 4.5 MB of code, in every arena.)
#[test]
fn a_go_program_replays_identically_everywhere() {
    let spec =
        Spec { game: "paint", bots: vec!["paint-stdio-go", "paint-greedy"], options: &[("turns", "30")], seed: 4 };
    let result = matrix::<arena_paint::Paint>(&spec);
    assert_eq!(result.turns, 30);
    assert!(!result.players[0].forfeit && result.players[0].traps == 0, "{:?}", result.players[0]);
}

/// A bot with a data folder (`azul-table`: its table is `azul-table.data/` beside it, found by
/// the convention here as by `arena match` in the child process): the same bot and data play the
/// same match everywhere, read through the arena's filesystem in every instance.
#[test]
fn a_bot_with_a_data_folder_replays_identically_everywhere() {
    let spec = Spec { game: "azul", bots: vec!["azul-table", "azul-greedy"], options: &[], seed: 2 };
    let result = matrix::<arena_azul::Azul>(&spec);
    assert!(result.players[0].data.is_some(), "the table was given: {:?}", result.players[0]);
    assert!(result.turns > 10, "a whole game: {result:?}");
}

/// Every registered game, a whole match between its two example bots (from the registry, whose
/// `visit_game` gives the matrix the game's types).
#[test]
fn every_game_replays_identically_everywhere() {
    struct Matrix(Spec);
    impl GameVisitor for Matrix {
        type Output = MatchResult;
        fn visit<B: Binding>(self) -> MatchResult {
            matrix::<B::Game>(&self.0)
        }
    }
    for info in games().iter().map(|entry| entry.info()) {
        let spec =
            Spec { game: info.name, bots: vec![info.examples.strong, info.examples.random], options: &[], seed: 1 };
        let result = visit_game(info.name, Matrix(spec)).expect("a registered game");
        assert!(result.turns > 0, "{}: {result:?}", info.name);
    }
}

/// SuiteBot II, a line-protocol bot against a WIT bot.
#[test]
fn suitebot_line_protocol_against_wit_replays_identically_everywhere() {
    let spec =
        Spec { game: "suitebot", bots: vec!["suitebot-stdio-random", "suitebot-harvester"], options: &[], seed: 9 };
    let result = matrix::<arena_suitebot::Suitebot>(&spec);
    assert!(result.turns > 0);
}

/// A Paint bot written as a core module and wrapped into a component with wit-component (the
/// canonical ABI by hand, so it can use what no language's SDK exposes: its table). Its table
/// starts at `initial` elements; each turn it grows the table by `step` elements and walks when
/// the growth succeeded, shoots when `table.grow` returned -1. Written to this process's scratch
/// folder; returns the path.
fn table_bot(name: &str, initial: u32, step: u32) -> String {
    let wat = format!(
        r#"(module
  (memory (export "memory") 1)
  (table $table {initial} funcref)
  (global $heap (mut i32) (i32.const 1024))
  ;; A bump allocator for the view's lists, reset after every turn.
  (func (export "cabi_realloc") (param i32 i32) (param $align i32) (param $size i32) (result i32)
    (local $at i32)
    (local.set $at (i32.and (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
                            (i32.sub (i32.const 0) (local.get $align))))
    (global.set $heap (i32.add (local.get $at) (local.get $size)))
    (block $fits
      (br_if $fits (i32.le_u (global.get $heap) (i32.shl (memory.size) (i32.const 16))))
      (if (i32.eq (memory.grow (i32.add (i32.shr_u (global.get $heap) (i32.const 16)) (i32.const 1))) (i32.const -1))
        (then unreachable)))
    (local.get $at))
  (func (export "arena:paint/player@0.1.0#init") (param i32 i32 i32 i64 i64 i64 i64))
  ;; The view, flattened: seat, width, height, squares, positions, turns-left, turns-played,
  ;; last-actions, then the turn info. The action goes back through memory at 16.
  (func (export "arena:paint/player@0.1.0#take-turn")
    (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i64 i64 i32) (result i32)
    (i32.store8 (i32.const 16)
      (i32.eq (table.grow $table (ref.null func) (i32.const {step})) (i32.const -1)))
    (i32.store (i32.const 20) (i32.const 0))
    (i32.store (i32.const 24) (i32.const 1))
    (global.set $heap (i32.const 1024))
    (i32.const 16)))"#
    );
    let mut module = wat::parse_str(&wat).unwrap();
    let mut resolve = wit_parser::Resolve::default();
    let wit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wit/paint");
    let (package, _) = resolve.push_dir(&wit).unwrap();
    let world = resolve.select_world(&[package], Some("bot")).unwrap();
    wit_component::embed_component_metadata(&mut module, &resolve, world, wit_component::StringEncoding::UTF8).unwrap();
    let component =
        wit_component::ComponentEncoder::default().validate(true).module(&module).unwrap().encode().unwrap();
    let path = scratch(&format!("{name}.wasm"));
    std::fs::write(&path, component).unwrap();
    path.to_string_lossy().into_owned()
}

/// One set of limits whatever the allocator: a bot that decides its moves from
/// `table.grow` grows its table 15,000 elements a turn: under [`MAX_TABLE_ELEMENTS`] it walks,
/// past it it shoots, on demand, pooled, in `arena match` and in concurrent matches alike (the
/// pool's tables held 20,000 elements, on-demand ones 100,000: it shot from its second turn in a
/// tournament, from its seventh in `arena match`, and its replays did not verify across them).
/// Its opponent declares a table of 30,000 elements, which the pool refused at load.
#[test]
fn table_limits_are_the_same_whatever_the_allocator() {
    use arena_host::limits::MAX_TABLE_ELEMENTS;
    let grower = table_bot("fx-wat-table-grow", 1, 15_000);
    let declarer = table_bot("fx-wat-table-30k", 30_000, 0);
    let spec = Spec { game: "paint", bots: vec![], options: &[("turns", "10")], seed: 6 };
    let paths = [grower, declarer];
    let result = matrix_at::<arena_paint::Paint>(&spec, &paths);
    assert_eq!(result.turns, 10);
    // The grower walked while its table fit, and shot from the turn it would not.
    let (replay, _) = spec.play_at(on_demand(), &paths);
    let record: serde_json::Value = serde_json::from_str(&replay).unwrap();
    let kinds: Vec<String> = record["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| turn["seats"][0]["answer"]["type"].as_str().unwrap_or("none").to_owned())
        .collect();
    let fitting = (MAX_TABLE_ELEMENTS - 1) / 15_000;
    let expected: Vec<&str> = (0..10).map(|turn| if turn < fitting { "walk" } else { "shoot" }).collect();
    assert_eq!(kinds, expected, "{fitting} growths fit");
}

/// Where a stack overflow fires is fixed by the bot's code (`arena_host::stack`
/// counts its stack use), not by how much native stack the host used before entering wasm. Two
/// bots that recurse until their stack is exhausted, one with a host call at every 16th level, replay
/// identically everywhere the matrix runs them, and every overflow costs the fuel pinned in
/// `tests/golden/stack-overflow-fuel.txt`, which `cargo xtask bench` checks again on a release
/// build (wasmtime's native limit alone fired a few hundred fuel apart under a debug and a
/// release build of the same host, and a few thousand with a host call per level).
#[test]
fn stack_overflows_replay_identically_everywhere_at_a_fuel_the_code_fixes() {
    use common::stack_fuel::{STACK_GOLDEN, stack_overflow_fuel};
    for recursing in ["fx-recurse", "fx-recurse-hostcall"] {
        let bots = vec![recursing, "azul-greedy"];
        let result = matrix::<arena_azul::Azul>(&Spec { game: "azul", bots, options: &[], seed: 1 });
        let player = &result.players[0];
        assert!(player.forfeit && player.traps == 3, "{player:?}");
    }
    let text = stack_overflow_fuel(on_demand(), &|name| PathBuf::from(bot(name))).unwrap();
    assert!(!text.contains("no overflow"), "{text}");
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(STACK_GOLDEN);
    arena_game::golden::check_golden(&golden, &text, "cargo test -p arena-cli --test all determinism_matrix::stack");
}
