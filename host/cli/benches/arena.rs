//! The arena's benchmarks: `cargo bench -p arena-cli --bench arena`, or `cargo xtask bench`
//! (which builds the bots first). Plain timing, no harness: each measurement warms up, sizes its
//! batches to about [`BATCH_TIME`], runs [`BATCHES`] of them and reports the median batch's time
//! per iteration, with the fastest and slowest batch in brackets.
//!
//! 1. The greedy bot's move choice: `azul_greedy::choose` called natively vs the same views
//!    through the host's real path (`SeatBot::take_turn` of a `BotRunner`: lowering, the fuel-metered async call,
//!    decoding) on `target/bots/azul-greedy.wasm`, with `fx-glue-azul` on the same path as the
//!    fixed per-call cost.
//!    The search bot's move choice (`azul_search::choose`, compute-bound: millions of fuel
//!    per move) the same way, native vs metered, and on bench-only engines compiled without the
//!    meter's fuel or epoch checks ([`unmetered`]), which split the distance into Cranelift's
//!    code and each kind of check.
//! 2. Host cost per bot-turn: whole `play_match`es of two `fx-glue-azul` bots vs a subprocess (this
//!    same executable, with [`PIPE_BOT_ENV`] set) exchanging one JSON line each way per turn.
//! 3. Instantiating `fx-glue-azul`: `BotRunner::start` (store, WASI context, instantiate, `init`)
//!    and store + instantiate alone, each including the drop.
//!
//! 4. Loading a cached interpreter bot (`azul-trivial-py`) against reading and hashing its file.
//! 5. The SDK's glue: the fuel of a trivial turn in each game ([`glue_bot`]), and of the
//!    trivial Python and JavaScript Azul bots against their recorded figures ([`INTERPRETED_GLUE`]).
//! 6. Tournaments ([`tournament`]): in-process matches per second (1 job, every core) against
//!    one `arena match` process per match, resident memory after 1,000 and 20,000 matches, and
//!    the tournament's own overhead per match.
//! 7. The fuel profiler ([`profiling`]): a whole match unprofiled and profiled.
//! 8. Host calls ([`hostcalls`]): the wall time per unit of fuel of a loop of each host function
//!    a bot can call (1 MiB inputs where the work grows with them), against pure wasm's.
//! 9. Stack overflows on this (release) build: the fuel of each overflow of the recursing
//!    fixtures must be the golden the tests pin on a debug build
//!    (`tests/golden/stack-overflow-fuel.txt`, [`stack_fuel`]).
//! 10. The NATS work queue ([`queue`]): its cost per match against one process, by batch size.
//! 11. The ladder ([`ladder`]): a leaderboard's refit at 100,000 matches, its throughput against
//!     `arena tournament run`, upload to first rated result, and API latency under load.
//! 12. The soak ([`soak`], only when named: it runs for many minutes): 100,000 ladder matches
//!     (`cargo xtask soak --matches N` sets how many) through `arena serve` with 2 workers (its
//!     threads, or audited `arena worker`s on NATS), their resident memory and throughput, the
//!     audits and a determinism check of a sample, and the figures `docs/scaling.md` sizes a
//!     large ladder from.
//!
//! 1 and 2 run on the default (on-demand) arena and on a pooling one (16 bots, 64 MiB).
//! `cargo bench -p arena-cli --bench arena -- turn` runs only the sections named `turn`
//! (`greedy`, `search`, `turn`, `instantiate`, `load`, `glue`, `tournament`, `profile`,
//! `hostcalls`, `stack`, `queue`, `ladder`; `soak` runs only when named).

mod hostcalls;
mod ladder;
mod profiling;
mod queue;
mod soak;
#[path = "../tests/all/common/stack_fuel.rs"]
mod stack_fuel;
mod tournament;
mod unmetered;

use anyhow::{Context, Result, ensure};
use arena_azul::{Azul, AzulConfig, Move, View};
use arena_game::Game;
use arena_host::bindings::Binding;
use arena_host::bindings::azul::AzulBinding;
use arena_host::bindings::azul::raw as azul_raw;
use arena_host::bot::BotRunner;
use arena_host::bot_data::BotFiles;
use arena_host::budget::Budget;
use arena_host::engine::{Allocator, ArenaOptions};
use arena_host::loader::{LoadedBot, load_bot};
use arena_host::log::BotLog;
use arena_host::play_match;
use arena_host::runtime::Arena;
use arena_host::seat::{SeatBot, TurnInfo};
use arena_host::store::StoreHandles;
use arena_host::wasi::locked_down_ctx;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::task::{Context as TaskContext, Poll, Waker};
use std::time::{Duration, Instant};

/// Set in the environment of the subprocess bot: the bench binary then answers JSON lines.
const PIPE_BOT_ENV: &str = "ARENA_BENCH_PIPE_BOT";
/// Minimum warm-up per measurement (also used to size the batches).
const WARMUP: Duration = Duration::from_millis(300);
/// Target wall-clock time of one batch.
const BATCH_TIME: Duration = Duration::from_millis(100);
/// Batches per measurement; the median is reported.
const BATCHES: usize = 11;
/// Seeds of the greedy-vs-greedy games whose decision points are the views measured.
const VIEW_SEEDS: [u64; 3] = [1, 2, 3];
/// Seeds of the trivial-vs-trivial matches timed per iteration.
const MATCH_SEEDS: [u64; 2] = [1, 2];

fn main() -> Result<()> {
    if std::env::var_os(PIPE_BOT_ENV).is_some() {
        return pipe_bot();
    }
    let greedy_path = bot_path("azul-greedy");
    let trivial_path = bot_path("fx-glue-azul");
    for path in [&greedy_path, &trivial_path] {
        if !path.exists() {
            // A plain message, not an error with a backtrace: nothing is wrong but the set-up.
            eprintln!(
                "{} is missing: run `cargo xtask bots` first (or `cargo xtask bench`, which does)",
                path.display()
            );
            std::process::exit(1);
        }
    }
    let views = collect_views()?;
    println!(
        "Wasm Arena benchmarks: median of {BATCHES} batches of ~{} ms each, [fastest..slowest batch]\n",
        BATCH_TIME.as_millis()
    );
    // Arguments filter the sections by name (cargo itself passes `--bench`).
    let filters: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with('-')).collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|filter| name.contains(filter.as_str()));
    if wanted("greedy") {
        greedy_choice(&views, &greedy_path, &trivial_path)?;
    }
    if wanted("search") {
        search_choice(&views, &bot_path("azul-search"))?;
    }
    if wanted("turn") {
        turn_cost(&views, &trivial_path)?;
    }
    if wanted("instantiate") {
        instantiation(&trivial_path)?;
    }
    if wanted("load") {
        cached_load(&bot_path("azul-trivial-py"))?;
    }
    if wanted("glue") {
        glue_fuel(&bot_path)?;
    }
    if wanted("tournament") {
        tournament::tournaments(&bot_path, std::path::Path::new(env!("CARGO_BIN_EXE_arena")))?;
    }
    if wanted("profile") {
        profiling::profiling(&bot_path)?;
    }
    if wanted("hostcalls") {
        hostcalls::hostcalls()?;
    }
    if wanted("stack") {
        stack_overflows()?;
    }
    if wanted("queue") {
        queue::queue(&bot_path, std::path::Path::new(env!("CARGO_BIN_EXE_arena")))?;
    }
    if wanted("ladder") {
        ladder::ladder(&bot_path, std::path::Path::new(env!("CARGO_BIN_EXE_arena")))?;
    }
    // Many minutes: only when named.
    if !filters.is_empty() && wanted("soak") {
        soak::soak(&bot_path, std::path::Path::new(env!("CARGO_BIN_EXE_arena")))?;
    }
    Ok(())
}

/// Section 9: the stack-overflow fuel golden, checked on this build (a release one under `cargo
/// bench`): where a recursion stops is counted by the bot's own code (`arena_host::stack`), so it
/// must not move with the host's build.
fn stack_overflows() -> Result<()> {
    println!("stack overflows on this build ({}):", if cfg!(debug_assertions) { "debug" } else { "release" });
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(stack_fuel::STACK_GOLDEN);
    let expected = std::fs::read_to_string(&golden).with_context(|| format!("reading {}", golden.display()))?;
    let measured = stack_fuel::stack_overflow_fuel(&Arena::new()?, &bot_path).map_err(anyhow::Error::msg)?;
    for line in measured.lines() {
        println!("  {line}");
    }
    verdict(
        "fuel of every stack overflow",
        "as the debug build's golden".into(),
        &format!("= {}", stack_fuel::STACK_GOLDEN),
        measured == expected,
    );
    ensure!(
        measured == expected,
        "the stack overflows cost other fuel on this build:
{measured}
the golden:
{expected}"
    );
    Ok(())
}

/// Time per iteration: median, fastest and slowest batch, in nanoseconds.
#[derive(Clone, Copy)]
struct Sample {
    median: f64,
    low: f64,
    high: f64,
}

impl Sample {
    /// The same sample per unit, for iterations that do `units` things each.
    fn per(self, units: usize) -> Sample {
        let units = units.max(1) as f64;
        Sample { median: self.median / units, low: self.low / units, high: self.high / units }
    }
}

/// Warms `run` up for at least [`WARMUP`], then times [`BATCHES`] batches of as many calls as fit
/// in [`BATCH_TIME`].
fn measure(mut run: impl FnMut() -> Result<()>) -> Result<Sample> {
    let started = Instant::now();
    let mut calls = 0u32;
    while calls < 3 || started.elapsed() < WARMUP {
        run()?;
        calls += 1;
    }
    let per_call = started.elapsed().as_secs_f64() / f64::from(calls);
    let iterations = ((BATCH_TIME.as_secs_f64() / per_call) as u64).max(1);
    let mut batches = Vec::with_capacity(BATCHES);
    for _ in 0..BATCHES {
        let batch = Instant::now();
        for _ in 0..iterations {
            run()?;
        }
        batches.push(batch.elapsed().as_nanos() as f64 / iterations as f64);
    }
    batches.sort_by(f64::total_cmp);
    Ok(Sample { median: batches[BATCHES / 2], low: batches[0], high: batches[BATCHES - 1] })
}

/// A duration in nanoseconds, in a readable unit.
fn human(ns: f64) -> String {
    if ns < 1_000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1_000.0)
    } else {
        format!("{:.2} ms", ns / 1_000_000.0)
    }
}

fn row(label: &str, sample: Sample, unit: &str) {
    println!("  {label:<50} {:>10}/{unit}  [{}..{}]", human(sample.median), human(sample.low), human(sample.high));
}

/// A measurement against its goal, printed and recorded for `cargo xtask bench --write`.
fn verdict(label: &str, value: String, target: &str, met: bool) {
    arena_game::bench::verdict(label, &value, target, Some(met));
}

/// Path of a built bot (as `cargo xtask bots` writes it).
fn bot_path(name: &str) -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    target.join("bots").join(format!("{name}.wasm"))
}

fn load(arena: &Arena, path: &std::path::Path) -> Result<Arc<LoadedBot<AzulBinding>>> {
    Ok(Arc::new(load_bot::<AzulBinding>(arena, path)?))
}

/// Every decision point of a few seeded greedy-vs-greedy games, as the engine shows it.
fn collect_views() -> Result<Vec<View>> {
    let mut views = Vec::new();
    for seed in VIEW_SEEDS {
        let mut game = Azul::new(&AzulConfig::default(), 2, seed)?;
        while !game.is_over() {
            let mut actions = Vec::new();
            for seat in game.to_act() {
                let view = game.observe(seat);
                actions.push((seat, azul_greedy::choose(&view)));
                views.push(view);
            }
            game.step(&actions)?;
        }
    }
    Ok(views)
}

/// A budget that never runs out over a benchmark (fuel is still metered on every call).
fn endless_budget() -> Budget {
    Budget { game_fuel: 1 << 60, ..Budget::default() }
}

/// A started runner for `bot`, checked to have started cleanly.
fn started_runner(arena: &Arena, bot: &Arc<LoadedBot<AzulBinding>>) -> Result<BotRunner<AzulBinding>> {
    let mut runner = BotRunner::new(arena, bot.clone(), endless_budget(), 0, 2, 1);
    let report = runner.start();
    ensure!(report.faults.is_empty(), "{} failed to start: {:?}", bot.name, report.faults);
    Ok(runner)
}

/// Plays every view once; returns the total fuel.
fn play_views(runner: &mut BotRunner<AzulBinding>, views: &[View]) -> Result<u64> {
    let mut fuel = 0;
    for view in views {
        let report = runner.take_turn(view);
        ensure!(report.answer.is_some() && report.faults.is_empty(), "no clean answer: {:?}", report.faults);
        fuel += report.fuel;
    }
    Ok(fuel)
}

/// The two ways an arena allocates instances: the default, and the pool sized for a few bots.
fn arenas() -> Result<[(&'static str, Arena); 2]> {
    let pooled = ArenaOptions { allocator: Allocator::Pooling { max_bots: 16 }, max_memory_mib: 64 };
    Ok([("on-demand", Arena::new()?), ("pooling", Arena::with_options(pooled)?)])
}

fn greedy_choice(views: &[View], greedy_path: &std::path::Path, trivial_path: &std::path::Path) -> Result<()> {
    println!(
        "1. greedy move choice: {} views (every decision of greedy-vs-greedy games, seeds {VIEW_SEEDS:?})",
        views.len()
    );
    let native = measure(|| {
        for view in views {
            black_box(azul_greedy::choose(black_box(view)));
        }
        Ok(())
    })?
    .per(views.len());
    row("native azul_greedy::choose", native, "move");

    for (name, arena) in arenas()? {
        let greedy = load(&arena, greedy_path)?;
        let trivial = load(&arena, trivial_path)?;
        let mut runner = started_runner(&arena, &greedy)?;
        let mut trivial_runner = started_runner(&arena, &trivial)?;
        // The component must choose exactly what the native policy chooses.
        for view in views {
            let report = runner.take_turn(view);
            ensure!(report.answer == azul_greedy::choose(view), "wasm and native greedy disagree on {view:?}");
        }
        let fuel = play_views(&mut runner, views)?;
        let metered = measure(|| play_views(&mut runner, views).map(drop))?.per(views.len());
        let fixed = measure(|| play_views(&mut trivial_runner, views).map(drop))?.per(views.len());
        let mut raw = RawCaller::new(&arena, &trivial)?;
        let raw_call = measure(|| raw.call_all(views))?.per(views.len());

        println!("  {name} arena:");
        row("  metered wasm, BotRunner take_turn (azul-greedy.wasm)", metered, "move");
        println!("  {:<50} {:>10.0} fuel/move", "    fuel spent", fuel as f64 / views.len() as f64);
        row("    of which per-call cost (fx-glue-azul, same path)", fixed, "move");
        row("    reference: raw wasmtime call, same view (fx-glue-azul)", raw_call, "move");
        let call_ratio = fixed.median / raw_call.median;
        verdict(
            &format!("    greedy move, {name}: per-call cost / raw call"),
            format!("{call_ratio:.2}x ({})", human(fixed.median)),
            "<= 1.5x and <= 0.5 µs",
            call_ratio <= 1.5 && fixed.median <= 500.0,
        );
        let ratio = metered.median / native.median;
        verdict(&format!("  greedy move, {name}: metered / native"), format!("{ratio:.2}x"), "<= 1.6x", ratio <= 1.6);
        println!(
            "  {:<50} {:>9.2}x",
            "  (metered - per-call cost) / native",
            (metered.median - fixed.median) / native.median
        );
    }
    println!();
    Ok(())
}

/// Compute-bound code metered vs native: `azul_search::choose` (a few million fuel per move)
/// called natively vs through the host's real path on `azul-search.wasm`, on the same views.
/// The fixed per-call cost is a rounding error here, so the ratio is what fuel metering and
/// Cranelift's code cost a bot that computes.
fn search_choice(views: &[View], search_path: &std::path::Path) -> Result<()> {
    if !search_path.exists() {
        println!("search: {} missing (`cargo xtask bots`), skipped\n", search_path.display());
        return Ok(());
    }
    // Every fifth decision point: the search is slow enough that a few dozen views measure it.
    let sample: Vec<View> = views.iter().step_by(5).cloned().collect();
    println!("1b. search move choice: {} views (every fifth of section 1's)", sample.len());
    let native = measure(|| {
        for view in &sample {
            black_box(azul_search::choose(black_box(view)));
        }
        Ok(())
    })?
    .per(sample.len());
    row("native azul_search::choose", native, "move");
    let arena = Arena::new()?;
    let search = load(&arena, search_path)?;
    let mut runner = started_runner(&arena, &search)?;
    for view in &sample {
        let report = runner.take_turn(view);
        ensure!(report.answer == azul_search::choose(view), "wasm and native search disagree on {view:?}");
    }
    let fuel = play_views(&mut runner, &sample)?;
    let metered = measure(|| play_views(&mut runner, &sample).map(drop))?.per(sample.len());
    row("metered wasm, BotRunner take_turn (azul-search.wasm)", metered, "move");
    let fuel_per_move = fuel as f64 / sample.len() as f64;
    println!(
        "  {:<50} {:>10.0} fuel/move ({:.2} ns/fuel)",
        "  fuel spent",
        fuel_per_move,
        metered.median / fuel_per_move
    );
    let ratio = metered.median / native.median;
    verdict("search move: metered / native", format!("{ratio:.2}x"), "<= 1.5x", ratio <= 1.5);
    println!("  the same code through its bindings alone, compiled with (bench-only engines):");
    for (fuel, epochs) in [(true, true), (false, true), (true, false), (false, false)] {
        let checks = unmetered::Checks { fuel, epochs };
        let time = unmetered::time_per_move(search_path, &sample, checks)?;
        println!(
            "    {:<48} {:>10}/move  {:.2}x native",
            checks.label(),
            human(time.median),
            time.median / native.median
        );
    }
    println!();
    Ok(())
}

/// The floor a bot call cannot go below: the generated bindings' `take-turn` called directly on
/// a store of the same arena (fuel metered, no yields, no driver, no books), with the view the
/// host would pass.
struct RawCaller {
    store: wasmtime::Store<arena_host::store::BotState>,
    instance: azul_raw::Bot,
}

impl RawCaller {
    fn new(arena: &Arena, bot: &LoadedBot<AzulBinding>) -> Result<RawCaller> {
        let mut store = bare_store(arena, bot, &endless_budget());
        store.set_fuel(1 << 60)?;
        let (store, instance) = block_on(AzulBinding::instantiate(&bot.pre, store).as_mut());
        Ok(RawCaller { store, instance: instance? })
    }

    fn call_all(&mut self, views: &[View]) -> Result<()> {
        let info = TurnInfo { turn: 0, turn_fuel_remaining: 1 << 30, game_fuel_remaining: 1 << 60, missed_turns: 0 };
        for view in views {
            let wit_view = azul_raw::view(view, info);
            let call = self.instance.arena_azul_player().call_take_turn(&mut self.store, &wit_view);
            black_box(block_on(std::pin::pin!(call))?);
        }
        Ok(())
    }
}

/// A store for `bot` as the host makes one (WASI context, log, limits, meter), without a
/// runner around it.
fn bare_store(
    arena: &Arena,
    bot: &LoadedBot<AzulBinding>,
    budget: &Budget,
) -> wasmtime::Store<arena_host::store::BotState> {
    let log = BotLog::default();
    let deadline = Arc::new(AtomicU64::new(u64::MAX));
    let handles = StoreHandles::fresh(&log, &deadline);
    let wasi = locked_down_ctx(1, &bot.sha256, &log, &handles.clock);
    arena.new_store(budget, wasi, &handles)
}

/// Polls `call` to completion on this thread (the calls measured here never wait).
fn block_on<F: std::future::Future + ?Sized>(mut call: std::pin::Pin<&mut F>) -> F::Output {
    let mut cx = TaskContext::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = call.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

fn turn_cost(views: &[View], trivial_path: &std::path::Path) -> Result<()> {
    let mut in_process = Vec::new();
    let mut bot_turns = 0;
    for (name, arena) in arenas()? {
        let trivial = load(&arena, trivial_path)?;
        let bots = [trivial.clone(), trivial];
        let play_all = || -> Result<usize> {
            let mut bot_turns = 0;
            for seed in MATCH_SEEDS {
                let record = play_match(&arena, &bots, &AzulConfig::default(), seed, Budget::default())?;
                ensure!(record.result.players.iter().all(|player| !player.forfeit), "a trivial bot forfeited");
                bot_turns += record.turns.iter().map(|turn| turn.seats.len()).sum::<usize>();
            }
            Ok(bot_turns)
        };
        bot_turns = play_all()?;
        in_process.push((name, measure(|| play_all().map(drop))?.per(bot_turns)));
    }

    let exe = std::env::current_exe().context("cannot find the bench executable")?;
    let mut child = Command::new(exe)
        .env(PIPE_BOT_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot spawn the pipe bot")?;
    let mut to_bot = child.stdin.take().context("no stdin")?;
    let mut from_bot = BufReader::new(child.stdout.take().context("no stdout")?);
    let mut answer = String::new();
    let mut line_bytes = 0;
    let mut round_trips = || -> Result<()> {
        for view in views {
            let mut line = serde_json::to_string(view)?;
            line.push('\n');
            line_bytes = line.len();
            to_bot.write_all(line.as_bytes())?;
            to_bot.flush()?;
            answer.clear();
            from_bot.read_line(&mut answer)?;
            let mv: Option<Move> = serde_json::from_str(&answer)?;
            ensure!(mv == view.fallback_move(), "pipe bot answered {answer:?}");
        }
        Ok(())
    };
    let subprocess = measure(&mut round_trips)?.per(views.len());
    drop(to_bot);
    child.wait()?;

    println!(
        "2. host cost per bot-turn: fx-glue-azul vs fx-glue-azul, {bot_turns} bot-turns in matches with seeds {MATCH_SEEDS:?}"
    );
    row(&format!("subprocess: one JSON line each way (~{line_bytes} B view)"), subprocess, "turn");
    for (name, sample) in in_process {
        row(&format!("in process: play_match, whole matches, {name}"), sample, "turn");
        let ratio = subprocess.median / sample.median;
        verdict(
            &format!("  whole match, {name}: per bot-turn, and subprocess / in-process"),
            format!("{} {ratio:.1}x", human(sample.median)),
            "<= 1.5 µs and >= 5x",
            sample.median <= 1_500.0 && ratio >= 5.0,
        );
    }
    println!();
    Ok(())
}

/// The subprocess side of measurement 2: a View per line in, its fallback move per line out.
fn pipe_bot() -> Result<()> {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let view: View = serde_json::from_str(&line?)?;
        let mut answer = serde_json::to_string(&view.fallback_move())?;
        answer.push('\n');
        stdout.write_all(answer.as_bytes())?;
        stdout.flush()?;
    }
    Ok(())
}

/// Each game's bot that answers without doing anything (`tests/bots/fx-glue-GAME`, answering a
/// constant; Azul's asks the view for its fallback move, and is also the per-call sections'
/// bot): its turn fuel is what the SDK's glue costs a bot before it does anything.
fn glue_bot(game: &str) -> String {
    format!("fx-glue-{game}")
}
/// A trivial turn in the Rust SDK costs at most this much fuel in every game.
const GLUE_FUEL_GOAL: u64 = 2_000;
/// The interpreted bots, with the median turn fuel each spent when the glue was measured
/// (`arena:azul@0.1.0`, whose view was about 80 values in 25 records): the goal is half of it.
/// Fuel is deterministic, so a figure recorded once is a fair reference; a rebuild of the same
/// Python or JavaScript source moves it by a few percent (see the fuel tables of docs/writing-a-bot.md).
const INTERPRETED_GLUE: [(&str, &str, u64); 2] =
    [("Python", "azul-trivial-py", 432_000), ("JavaScript", "azul-trivial-js", 1_010_000)];

/// Measurement 5, the SDK's glue: the median turn fuel of each game's do-nothing Rust bot
/// playing itself (seed 1, default options and budgets), against the C SDK's trivial Azul bot
/// (`azul-trivial-c`, which also picks its first legal move). Fuel is deterministic: the same
/// on every machine, so this section needs no repetitions.
fn glue_fuel(bot_path: &dyn Fn(&str) -> PathBuf) -> Result<()> {
    println!("5. SDK glue: median fuel of a trivial turn (the bot plays itself, seed 1, default budgets)");
    let arena = Arena::new()?;
    let median_turn = |game: &str, bot: &str| -> Result<Option<u64>> {
        let path = bot_path(bot);
        if !path.exists() {
            return Ok(None);
        }
        let entry = arena_host::registry::find_game(game).context("unknown game")?;
        let seats = entry.info().min_players;
        let played = entry.play(&arena, &BotFiles::all_code_only(&vec![path; seats]), &[], 1, Budget::default())?;
        let replay: serde_json::Value = serde_json::from_str(&played.replay)?;
        Ok(Some(arena_profiler::fuel_profile::FuelProfile::from_replay(&replay, 0)?.turn_median))
    };
    let c_fuel = median_turn("azul", "azul-trivial-c")?;
    if let Some(c) = c_fuel {
        println!("  {:<50} {:>10} fuel/turn", "reference: C SDK, azul-trivial-c (first legal move)", c);
    }
    for game in arena_host::registry::game_names() {
        let bot = glue_bot(game);
        match median_turn(game, &bot)? {
            Some(fuel) => verdict(
                &format!("Rust SDK, {game} ({bot})"),
                match c_fuel {
                    Some(c) => format!("{fuel} fuel ({:.2}x C)", fuel as f64 / c as f64),
                    None => format!("{fuel} fuel"),
                },
                &format!("<= {GLUE_FUEL_GOAL}"),
                fuel <= GLUE_FUEL_GOAL,
            ),
            None => println!("  {bot} missing (`cargo xtask bots`), skipped"),
        }
    }
    for (language, bot, before) in INTERPRETED_GLUE {
        match median_turn("azul", bot)? {
            Some(fuel) => verdict(
                &format!("{language} SDK, azul ({bot}, first legal move)"),
                format!("{fuel} fuel ({:.2}x of {before})", fuel as f64 / before as f64),
                &format!("<= {} (half of {before})", before / 2),
                fuel <= before / 2,
            ),
            None => println!("  {bot} missing (`cargo xtask bots --lang python,js`), skipped"),
        }
    }
    println!();
    Ok(())
}

/// Measurement 4, loading a cached interpreter bot: `load_bot` on an arena whose artifact cache
/// already holds the bot (the second and later loads of every run), against reading the file
/// and hashing it (what any load that names the bot by its sha256 pays).
fn cached_load(path: &std::path::Path) -> Result<()> {
    if !path.exists() {
        println!("4. cached interpreter bot load: {} missing (`cargo xtask bots`), skipped\n", path.display());
        return Ok(());
    }
    let cache_dir = std::env::temp_dir().join(format!("arena-bench-cache-{}", std::process::id()));
    let arena = Arena::new()?.with_cache(Some(arena_host::cache::ArtifactCache::new(&cache_dir)));
    load(&arena, path)?; // fills the cache
    let entry_bytes: u64 = std::fs::read_dir(&cache_dir)?
        .filter_map(|entry| entry.ok()?.metadata().ok())
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
        .sum();
    let file_bytes = std::fs::metadata(path)?.len();
    let loaded = measure(|| load(&arena, path).map(drop))?;
    let floor = measure(|| {
        black_box(arena_host::loader::sha256(&std::fs::read(path)?));
        Ok(())
    })?;
    let _ = std::fs::remove_dir_all(&cache_dir);
    println!(
        "4. cached interpreter bot load: {} ({:.1} MB file, {:.1} MB cache entry)",
        path.display(),
        file_bytes as f64 / 1e6,
        entry_bytes as f64 / 1e6
    );
    row("reference: read the file + sha256", floor, "load");
    row("load_bot from a warm artifact cache", loaded, "load");
    verdict(
        "  cached load",
        format!("{} ({:.1}x ref)", human(loaded.median), loaded.median / floor.median),
        "<= 20 ms",
        loaded.median <= 20e6,
    );
    println!();
    Ok(())
}

fn instantiation(trivial_path: &std::path::Path) -> Result<()> {
    println!("3. instantiating fx-glue-azul (each iteration creates and drops the instance)");
    let mut pooled = None;
    let mut on_demand = None;
    for (name, arena) in arenas()? {
        let bot = load(&arena, trivial_path)?;
        let budget = Budget::default();

        let started = measure(|| {
            let mut runner = BotRunner::new(&arena, bot.clone(), budget, 0, 2, 1);
            let report = runner.start();
            ensure!(report.faults.is_empty(), "{name}: start failed: {:?}", report.faults);
            Ok(())
        })?;
        let instantiated = measure(|| {
            let mut store = bare_store(&arena, &bot, &budget);
            store.set_fuel(budget.turn_fuel)?;
            let (_store, result) = block_on(AzulBinding::instantiate(&bot.pre, store).as_mut());
            result?;
            Ok(())
        })?;
        row(&format!("{name}: BotRunner::new + start, with init"), started, "bot");
        row(&format!("{name}: store + WASI ctx + instantiate, no init"), instantiated, "bot");
        match arena.options().allocator {
            Allocator::Pooling { .. } => pooled = Some(started),
            Allocator::OnDemand => on_demand = Some(started),
        }
    }
    if let (Some(pooled), Some(on_demand)) = (pooled, on_demand) {
        verdict(
            "pooled BotRunner start",
            format!("{} ({:.2}x on-demand)", human(pooled.median), pooled.median / on_demand.median),
            "<= 5 µs",
            pooled.median <= 5_000.0,
        );
    }
    Ok(())
}
