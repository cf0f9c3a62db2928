//! Shared helpers for the end-to-end tests: where the built bots are, one arena per test
//! binary, bots compiled once, and accessors into match records.
//!
//! Bots are built by `cargo xtask bots` (which `cargo xtask test` runs first) into
//! `target/bots/<crate-name>.wasm`.

#![allow(clippy::panic, clippy::expect_used)] // test support: a failed setup should stop the test loudly

use arena_azul::Move;
use arena_azul::{Azul, AzulConfig, COLOURS};
use arena_game::{Game, new_rng};
use arena_host::BotFault;
use arena_host::bindings::Binding;
use arena_host::bindings::azul::AzulBinding;
use arena_host::bot_data::BotFiles;
use arena_host::cache::ArtifactCache;
use arena_host::fault::{AnswerError, ForfeitReason, InvalidReason, Phase, TrapKind};
use arena_host::loader::{LoadedBot, load_bot};
use arena_host::log::LogSource;
use arena_host::record::{MatchRecord, SeatTurn};
use arena_host::{Arena, Budget, play_match};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// How far past its turn budget a bot's turn may be charged: wasmtime checks fuel at function
/// entries and loop heads, so a call runs a few instructions past its turn budget before it is
/// suspended, and a suspended turn is charged exactly what it spent (a few hundred fuel over in
/// these bots; never a second budget).
pub const RESUME_OVERSHOOT: u64 = 1_000;

/// Asserts a suspended turn's charge: its turn budget and at most [`RESUME_OVERSHOOT`] more.
pub fn assert_suspended_charge(fuel: u64, turn_fuel: u64) {
    assert!(
        (turn_fuel..=turn_fuel + RESUME_OVERSHOOT).contains(&fuel),
        "a suspended turn spent {fuel}, its budget is {turn_fuel}"
    );
}

/// A file path in this test process's scratch folder, under the target folder (`target/tmp`,
/// which `cargo clean` removes) rather than the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = target_dir().join("tmp").join(format!("arena-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch folder can be created");
    dir.join(name)
}

/// Path of a built bot.
pub fn bot_path(name: &str) -> PathBuf {
    target_dir().join("bots").join(format!("{name}.wasm"))
}

/// Loads a built bot for game `B`, panicking with a hint when it has not been built.
pub fn load<B: Binding>(arena: &Arena, name: &str) -> Arc<LoadedBot<B>> {
    let path = bot_path(name);
    if !path.exists() {
        panic!("{} is missing: run `cargo xtask bots` (or `cargo xtask test`) first", path.display());
    }
    match load_bot::<B>(arena, &path) {
        Ok(bot) => Arc::new(bot),
        Err(err) => panic!("{err}"),
    }
}

/// One arena per test binary: compiling bots is the slow part, and engines are shared. Compiled
/// bots go through an artifact cache under the target folder, shared by every test binary (it is
/// safe under concurrent runs), so a 12-18 MB Python or JavaScript component is compiled once per
/// build of it, not once per match.
pub fn arena() -> &'static Arena {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    ARENA.get_or_init(|| {
        let cache = ArtifactCache::new(target_dir().join("test-artifact-cache"));
        Arena::new().expect("arena").with_cache(Some(cache))
    })
}

/// The target folder (`CARGO_TARGET_DIR` or `<workspace>/target`).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"))
}

/// A built Azul bot, compiled once per test binary.
pub fn azul_bot(name: &str) -> Arc<LoadedBot<AzulBinding>> {
    static BOTS: OnceLock<Mutex<BTreeMap<String, Arc<LoadedBot<AzulBinding>>>>> = OnceLock::new();
    let mut bots = BOTS.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    bots.entry(name.to_owned()).or_insert_with(|| load::<AzulBinding>(arena(), name)).clone()
}

/// Plays an Azul match between built bots, in seat order.
pub fn play_azul(names: [&str; 2], seed: u64, budget: Budget) -> MatchRecord<Azul> {
    let bots = names.map(azul_bot);
    let record = play_match(arena(), &bots, &AzulConfig::default(), seed, budget).expect("the match is playable");
    assert_fuel_books_balance(&record);
    record
}

/// The budget rules' books, checked on every match the helpers play: each seat's per-turn fuel
/// (start-up included) adds up to its total, and no total exceeds the game budget.
pub fn assert_fuel_books_balance<G: Game>(record: &MatchRecord<G>) {
    for (seat, player) in record.result.players.iter().enumerate() {
        let turns: u64 = turns_of(record, seat).iter().map(|turn| turn.fuel).sum();
        assert_eq!(record.setup[seat].fuel + turns, player.fuel_total, "seat {seat}: per-turn fuel adds up");
        assert!(
            player.fuel_total <= record.budget.game_fuel,
            "seat {seat} spent {} of {}",
            player.fuel_total,
            record.budget.game_fuel
        );
    }
}

/// Seat `seat`'s part of every turn, in order.
/// Copies the bot folder `folder` (from the workspace root) into a fresh folder of the system's
/// temporary directory and builds it there with `xtask build-bot` (the binary `cargo xtask`
/// leaves in the target folder; `cargo xtask bots` has installed the language's toolchain), as a
/// competitor builds a bot that is not part of this repository; returns the built component (in
/// the [`scratch`] folder; the copy is removed).
pub fn build_outside_the_repository(folder: &str) -> PathBuf {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap_or_else(|err| panic!("{}: {err}", to.display()));
        for entry in std::fs::read_dir(from).unwrap_or_else(|err| panic!("{}: {err}", from.display())) {
            let path = entry.unwrap_or_else(|err| panic!("{}: {err}", from.display())).path();
            let target = to.join(path.file_name().unwrap_or_default());
            if path.is_dir() {
                copy(&path, &target);
            } else {
                std::fs::copy(&path, &target).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            }
        }
    }
    let source = workspace_root().join(folder);
    let name = format!("{}-elsewhere-{}", source.file_name().unwrap_or_default().to_string_lossy(), std::process::id());
    let dir = std::env::temp_dir().join(&name);
    let _ = std::fs::remove_dir_all(&dir);
    copy(&source, &dir);
    let out = dir.join(format!("{name}.wasm"));
    let xtask = target_dir().join("debug").join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    assert!(xtask.is_file(), "{} is missing: run `cargo xtask bots` first", xtask.display());
    let built = std::process::Command::new(&xtask)
        .arg("build-bot")
        .arg(&dir)
        .arg("-o")
        .arg(&out)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", xtask.display()));
    assert!(
        built.status.success(),
        "xtask build-bot {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&built.stderr)
    );
    // The component goes to the scratch folder (under the target folder); the copy is removed.
    let kept = scratch(&format!("{name}.wasm"));
    std::fs::copy(&out, &kept).unwrap_or_else(|err| panic!("{}: {err}", out.display()));
    let _ = std::fs::remove_dir_all(&dir);
    kept
}

/// `interpreter script` (`script` from the workspace root), started natively in the script's
/// folder with piped stdin and stdout.
fn spawn_natively(interpreter: &str, script: &str) -> std::process::Child {
    use std::process::{Command, Stdio};
    let script = workspace_root().join(script);
    Command::new(interpreter)
        .arg(&script)
        .current_dir(script.parent().unwrap_or(&script))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run {interpreter}: {err}"))
}

/// Runs `interpreter script` (`script` from the workspace root) natively, in the script's folder,
/// with `lines` on its stdin, as a program's author runs it; returns the lines it printed,
/// asserting that it exited successfully.
pub fn run_natively(interpreter: &str, script: &str, lines: &[String]) -> Vec<String> {
    use std::io::Write;
    let mut native = spawn_natively(interpreter, script);
    let mut stdin = native.stdin.take().unwrap_or_else(|| panic!("{interpreter} has no stdin"));
    stdin
        .write_all((lines.join("\n") + "\n").as_bytes())
        .unwrap_or_else(|err| panic!("writing to {interpreter}: {err}"));
    drop(stdin);
    let output = native.wait_with_output().unwrap_or_else(|err| panic!("waiting for {interpreter}: {err}"));
    assert!(output.status.success(), "{interpreter} {script} failed: {}", output.status);
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect()
}

/// [`run_natively`] the way a game server talks to a program: one line at a time, each sent only
/// after the program answered the one before with a line of its own (a program that answers
/// from a timer answers in its turn, as in the arena). Returns the answers; asserts that the
/// program printed nothing more and exited successfully.
pub fn answer_natively_line_by_line(interpreter: &str, script: &str, lines: &[String]) -> Vec<String> {
    use std::io::{BufRead, Read, Write};
    let mut native = spawn_natively(interpreter, script);
    let mut stdin = native.stdin.take().unwrap_or_else(|| panic!("{interpreter} has no stdin"));
    let mut stdout =
        std::io::BufReader::new(native.stdout.take().unwrap_or_else(|| panic!("{interpreter} has no stdout")));
    let mut answers = Vec::new();
    for line in lines {
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap_or_else(|err| panic!("writing to {interpreter}: {err}"));
        stdin.flush().unwrap_or_else(|err| panic!("writing to {interpreter}: {err}"));
        let mut answer = String::new();
        let read = stdout.read_line(&mut answer).unwrap_or_else(|err| panic!("reading from {interpreter}: {err}"));
        assert!(read > 0, "{interpreter} {script} ended without answering {line}");
        answers.push(answer.trim_end_matches(['\r', '\n']).to_owned());
    }
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap_or_else(|err| panic!("reading from {interpreter}: {err}"));
    assert_eq!(rest, "", "{interpreter} {script} printed more than one answer per line");
    let status = native.wait().unwrap_or_else(|err| panic!("waiting for {interpreter}: {err}"));
    assert!(status.success(), "{interpreter} {script} failed: {status}");
    answers
}

/// Seat `seat`'s turns, in order.
pub fn turns_of<G: Game>(record: &MatchRecord<G>, seat: usize) -> Vec<&SeatTurn<G>> {
    record.turns.iter().flat_map(|turn| &turn.seats).filter(|seat_turn| seat_turn.seat == seat).collect()
}

/// The texts of a seat turn's log entries from `source`.
pub fn logged<G: Game>(seat_turn: &SeatTurn<G>, source: LogSource) -> Vec<&str> {
    seat_turn.log.entries.iter().filter(|entry| entry.source == source).map(|entry| entry.text.as_str()).collect()
}

/// Plays built bots (by name, in seat order) through the registry exactly as `arena match` does
/// (WIT and line-protocol bots alike); returns the replay's JSON and the typed record.
pub fn play_registered<G: Game>(game: &str, names: &[&str], seed: u64, budget: Budget) -> (String, MatchRecord<G>) {
    let entry = arena_host::registry::find_game(game).expect("the game is registered");
    let paths: Vec<PathBuf> = names.iter().map(|name| bot_path(name)).collect();
    for path in &paths {
        assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
    }
    let played =
        entry.play(arena(), &BotFiles::all_code_only(&paths), &[], seed, budget).expect("the match is playable");
    let record = serde_json::from_str(&played.replay).expect("the replay parses");
    assert_fuel_books_balance(&record);
    (played.replay, record)
}

/// Asserts the violated side of the trap rule: seat 0 traps with `trap` in a turn on each of
/// its three turns (restarted before each next one) and forfeits on the third; the bot in seat
/// 1 wins.
pub fn assert_traps_three_times_then_forfeits(record: &MatchRecord<Azul>, trap: TrapKind) {
    let trapped = BotFault::Trapped { phase: Phase::Turn, trap };
    assert_eq!(record.setup[0].faults, [], "the start-up is fine");
    let turns = turns_of(record, 0);
    assert_eq!(turns.len(), 3);
    assert_eq!(turns[0].faults, std::slice::from_ref(&trapped));
    assert_eq!(turns[1].faults, std::slice::from_ref(&trapped), "restarted, and trapped again");
    assert_eq!(turns[2].faults, [trapped, BotFault::Forfeit { reason: ForfeitReason::TooManyTraps }]);
    for seat_turn in &turns {
        assert_eq!(seat_turn.answer, None);
        assert!(seat_turn.applied.is_some(), "the game's fallback applied");
        assert!(seat_turn.fuel > 0, "fuel spent before the trap counts");
    }
    let player = &record.result.players[0];
    assert_eq!(player.traps, 3);
    assert_eq!(player.forfeit_reason, Some(ForfeitReason::TooManyTraps));
    assert_eq!(record.result.winner, Some(1));
}

/// Replays an Azul `record` on a fresh engine; calls `check(view, answer)` for each of seat `seat`'s
/// turns, with the engine's view before it, and checks the engine's state after every turn
/// against the record.
pub fn replay_azul_on_the_engine(
    record: &MatchRecord<Azul>,
    seat: usize,
    mut check: impl FnMut(&arena_azul::View, Option<Move>),
) {
    let mut game = Azul::new(&AzulConfig::default(), 2, record.seed).expect("the recorded match sets up");
    for turn in &record.turns {
        let actions: Vec<_> = turn.seats.iter().map(|seat_turn| (seat_turn.seat, seat_turn.applied)).collect();
        for seat_turn in turn.seats.iter().filter(|seat_turn| seat_turn.seat == seat) {
            check(&game.observe(seat), seat_turn.answer);
        }
        game.step(&actions).expect("the recorded actions step");
        assert_eq!(format!("{:016x}", game.state_hash()), turn.state_hash, "turn {}", turn.turn);
    }
    assert!(game.is_over());
}

/// Plays `name` in seat 1 against `azul-random` and asserts, on the engine re-stepped alongside
/// the record, that every answer is the first of the engine's own `View::legal_moves` and that no
/// turn had a fault: a trivial bot in another language lists the legal moves in the Rust SDK's
/// order.
pub fn assert_answers_the_first_legal_move(name: &str, seed: u64) {
    let record = play_azul(["azul-random", name], seed, Budget::default());
    let faults = record.turns.iter().flat_map(|turn| &turn.seats).all(|seat| seat.faults.is_empty());
    assert!(faults, "{name}, seed {seed}: a fault");
    let mut turns = 0;
    replay_azul_on_the_engine(&record, 1, |view, answer| {
        assert_eq!(answer, view.legal_moves().first().copied(), "{name}, seed {seed}");
        turns += 1;
    });
    assert!(turns > 10, "{name}, seed {seed}: {turns} turns");
}

/// Asserts a whole game with no fault for either seat, fuel metered on every turn and adding up,
/// within the budgets.
pub fn assert_clean_game(record: &MatchRecord<Azul>, names: [&str; 2], budget: Budget) {
    assert!(record.turns.len() > 20, "{names:?}: a whole game");
    assert_eq!(record.result.players.len(), 2);
    for (seat, player) in record.result.players.iter().enumerate() {
        assert!(!player.forfeit && player.traps == 0 && player.invalid_actions == 0, "{names:?}: {player:?}");
        assert_eq!(player.skipped_turns, 0, "{names:?}: {player:?}");
        assert!(record.setup[seat].faults.is_empty(), "{names:?}: {:?}", record.setup[seat].faults);
        let turns = turns_of(record, seat);
        for turn in &turns {
            assert!(turn.faults.is_empty() && turn.answer.is_some(), "{names:?} seat {seat}: {turn:?}");
            assert_eq!(turn.applied, turn.answer, "{names:?} seat {seat}");
            assert!(turn.fuel > 0, "{names:?} seat {seat}: every turn is metered");
        }
        assert!(player.fuel_total > 0 && player.fuel_total < budget.game_fuel, "{names:?}: {player:?}");
        assert!(player.fuel_max_turn > 0 && player.fuel_max_turn < budget.turn_fuel, "{names:?}: {player:?}");
        let recorded: u64 = record.setup[seat].fuel + turns.iter().map(|turn| turn.fuel).sum::<u64>();
        assert_eq!(recorded, player.fuel_total, "{names:?} seat {seat}: the per-turn fuel adds up");
    }
}

/// The protocol error of a line-protocol bot's invalid answer, if `fault` is one.
pub fn protocol_error(fault: &BotFault) -> Option<&AnswerError> {
    match fault {
        BotFault::InvalidAction { reason: InvalidReason::Protocol { error } } => Some(error),
        _ => None,
    }
}

/// A view of an Azul playout with what the engine says of it, for checking an SDK's copy of the
/// rules: `view` is the engine's `View` as JSON; `expected` holds its `legal` moves (in the
/// engine's order), its `fallback` move, and `probes`: for every source 0..7, colour and line
/// 0..7 (in that nesting order), `[legal, score_if_placed]`. Moves are `[source, colour index,
/// line]` (see [`move_json`]).
pub struct AzulRuleCase {
    /// The engine's view of the seat to move, as JSON.
    pub view: serde_json::Value,
    /// `{"legal", "fallback", "probes"}`, as the engine computes them.
    pub expected: serde_json::Value,
}

/// `mv` as `[source, colour index, line]`, `null` for none.
pub fn move_json(mv: Option<Move>) -> serde_json::Value {
    match mv {
        Some(mv) => serde_json::json!([mv.source, mv.colour.index(), mv.line]),
        None => serde_json::Value::Null,
    }
}

/// Every view of the seat to move in random two-player playouts of `seeds`, each with what the
/// engine says of it (see [`AzulRuleCase`]).
pub fn azul_rule_cases(seeds: std::ops::Range<u64>) -> Vec<AzulRuleCase> {
    let mut cases = Vec::new();
    for seed in seeds {
        let mut game = Azul::new(&AzulConfig::default(), 2, seed).expect("the default Azul config is valid");
        let mut rng = new_rng(seed);
        while !game.is_over() {
            let seat = game.to_act()[0];
            let view = game.observe(seat);
            let mut probes = Vec::new();
            for source in 0..7u8 {
                for colour in COLOURS {
                    for line in 0..7u8 {
                        let mv = Move { source, colour, line };
                        probes.push(serde_json::json!([view.check(&mv).is_ok(), view.score_if_placed(&mv)]));
                    }
                }
            }
            let legal: Vec<_> = view.legal_moves().into_iter().map(|mv| move_json(Some(mv))).collect();
            let expected = serde_json::json!({
                "legal": legal,
                "fallback": move_json(view.fallback_move()),
                "probes": probes,
            });
            let view_json = serde_json::to_value(&view).expect("a view serialises");
            cases.push(AzulRuleCase { view: view_json, expected });
            let action = game.random_action(seat, &mut rng);
            game.step(&[(seat, action)]).expect("a random action is legal");
        }
    }
    cases
}
