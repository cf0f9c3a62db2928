//! Section 4 of the arena benchmarks: tournaments.
//!
//! - In-process throughput: a round robin of two trivial Azul bots (`fx-glue-azul`,
//!   `azul-trivial`) through `tournament::run::run_plan` (worker threads, one SQLite transaction
//!   per match) on the arena `arena tournament` uses (pooled instances), matches per second with
//!   1 job and with every core, and the scaling between them; the same with instances allocated
//!   on demand; beside it, the CLI playing one match per process (`arena match`), the reference.
//! - Memory: resident memory of this process after the 1,000th and the 20,000th match of one
//!   tournament (the plan of 20,000 matches is in memory at both).
//! - Overhead: the cheapest match of two Azul example bots (`azul-greedy` vs `azul-random`,
//!   0.2 ms) through the tournament (scheduling, replay digest, database write) against the same
//!   matches played directly on the pool (medians of three alternating runs of 5,000 matches):
//!   the tournament's own cost per match, in microseconds and as a share of that match. Then the
//!   goal's case, a round robin of every Azul example bot built (Rust, C, Python, JavaScript),
//!   played directly for its mean match, which that same cost is a share of.

use anyhow::{Context, Result, ensure};
use arena_game::bench::verdict;
use arena_host::bot_data::BotFiles;
use arena_host::budget::Budget;
use arena_host::engine::ArenaOptions;
use arena_host::registry::BotPool;
use arena_host::registry::ReplayText::DigestOnly;
use arena_host::registry::find_game;
use arena_host::runtime::Arena;
use arena_tournament::plan::{Plan, plan};
use arena_tournament::run::{Progress, RunOptions, Shard, run_plan};
use arena_tournament::spec::{Format, Resolved};
use arena_tournament::store::{Store, StoredMatch};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// A round robin of `bots` on seeds `1..=seeds`, its database at `database`.
fn spec(bots: &[PathBuf], seeds: u64, database: &Path) -> Result<Resolved> {
    Ok(Resolved {
        game: find_game("azul").context("azul is registered")?,
        game_name: "azul",
        format: Format::RoundRobin,
        bots: BotFiles::all_code_only(bots).into_iter().map(Into::into).collect(),
        challengers: Vec::new(),
        seeds: (1..=seeds).collect(),
        players: 2,
        rounds: 0,
        database: database.to_path_buf(),
        options: Vec::new(),
        budget: Budget::default(),
        data_limits: arena_host::data::DataLimits::DEFAULT,
    })
}

/// Plays `spec`'s whole plan into a fresh database with `jobs` workers; returns matches per
/// second, timed from the first match on (planning, opening the database and loading the bots
/// are once per run, not per match), and the resident memory after `sample_at` matches and at
/// the end.
fn tournament_rate(
    arena: &Arena,
    spec: &Resolved,
    jobs: usize,
    sample_at: usize,
) -> Result<(f64, Option<u64>, Option<u64>)> {
    let _ = std::fs::remove_file(&spec.database);
    let plan = plan(spec)?;
    let options = RunOptions { jobs, replays: None };
    let started: Mutex<Option<Instant>> = Mutex::new(None);
    let sampled: Mutex<Option<u64>> = Mutex::new(None);
    let progress = |progress: Progress| {
        let mut started = started.lock().unwrap_or_else(PoisonError::into_inner);
        started.get_or_insert_with(Instant::now);
        if progress.done == sample_at {
            *sampled.lock().unwrap_or_else(PoisonError::into_inner) = resident_kib();
        }
    };
    let report = run_plan(arena, &plan, Shard::WHOLE, &spec.database, &options, &progress)?;
    let started = started.lock().unwrap_or_else(PoisonError::into_inner).context("no match was played")?;
    let seconds = started.elapsed().as_secs_f64();
    ensure!(report.played == plan.matches.len(), "played {} of {}", report.played, plan.matches.len());
    let sampled = *sampled.lock().unwrap_or_else(PoisonError::into_inner);
    Ok((plan.matches.len() as f64 / seconds, sampled, resident_kib()))
}

/// Matches per second played straight on `pool` by `threads` threads (no database, no
/// scheduling beyond a shared counter), each digested as a tournament does (no replay text).
fn direct_rate(arena: &Arena, pool: &dyn BotPool, plan: &Plan, threads: usize) -> Result<f64> {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    while let Some(planned) = plan.matches.get(next.fetch_add(1, Ordering::Relaxed)) {
                        pool.play(arena, &planned.seating, planned.spec.seed, planned.spec.budget, DigestOnly)?;
                    }
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|worker| worker.join().map_err(|_| anyhow::anyhow!("a worker panicked"))?)
    })?;
    Ok(plan.matches.len() as f64 / started.elapsed().as_secs_f64())
}

/// Matches per second recorded into a fresh database at `database`: the results `played` (a
/// database a tournament of `plan` wrote) holds, each recorded again in its own transaction,
/// in plan order.
fn store_rate(plan: &Plan, database: &Path, played: &Path) -> Result<f64> {
    let _ = std::fs::remove_file(database);
    let mut results: BTreeMap<String, StoredMatch> =
        Store::open(played)?.stored_matches()?.into_iter().map(|stored| (stored.id.clone(), stored)).collect();
    let mut store = Store::open(database)?;
    store.record_plan("bench", plan)?;
    // In plan order, as a run records them (ids in sorted order would append to the index).
    let in_order: Vec<StoredMatch> = plan.matches.iter().filter_map(|planned| results.remove(&planned.id)).collect();
    let started = Instant::now();
    for stored in &in_order {
        store.insert_stored(stored)?;
    }
    Ok(in_order.len() as f64 / started.elapsed().as_secs_f64())
}

/// The median of `rates` (sorted in place).
fn median(rates: &mut [f64]) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// This process's resident memory, from `/proc/self/status` (Linux), in KiB.
fn resident_kib() -> Option<u64> {
    status_kib("self", "VmRSS")
}

/// A memory figure (`VmRSS`, `RssAnon`, ...) of the process `pid` (a number, or `self`), from
/// `/proc/PID/status` (Linux), in KiB.
pub(super) fn status_kib(pid: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.strip_prefix(field).is_some_and(|rest| rest.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn tournaments(bot_path: &dyn Fn(&str) -> PathBuf, arena_binary: &Path) -> Result<()> {
    println!("6. tournaments");
    let scratch = std::env::temp_dir().join(format!("arena-bench-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    // The arena `arena tournament run` plays on (pooled instances).
    let arena = Arena::with_options(ArenaOptions::for_tournament(cores, 2, Budget::default().memory_mib))?;
    let trivial = [bot_path("fx-glue-azul"), bot_path("azul-trivial")];
    // Throughput: 2 x 500 matches, after a warm-up run that compiles both bots.
    let throughput = spec(&trivial, 500, &scratch.join("throughput.sqlite"))?;
    tournament_rate(&arena, &spec(&trivial, 5, &scratch.join("warm.sqlite"))?, 1, 0)?;
    let (one, _, _) = tournament_rate(&arena, &throughput, 1, 0)?;
    let (all, _, _) = tournament_rate(&arena, &throughput, cores, 0)?;
    println!("  {:<50} {:>10.0} matches/s", "in process, 1 job (two trivial Azul bots)", one);
    println!("  {:<50} {:>10.0} matches/s", format!("in process, {cores} jobs"), all);
    let scaling = all / one;
    verdict(
        &format!("tournament scaling 1 -> {cores} jobs"),
        &format!("{scaling:.2}x"),
        ">= 1.8x on 2 cores",
        (cores >= 2).then_some(scaling >= 1.8),
    );
    verdict(
        "tournament matches/s per core (two trivial Azul bots)",
        &format!("{one:.0}"),
        ">= 5,000",
        Some(one >= 5_000.0),
    );
    // Why tournaments pool their instances: on-demand allocation maps and unmaps memory per
    // match, and every unmap interrupts the other workers' cores.
    let on_demand = Arena::new()?;
    tournament_rate(&on_demand, &spec(&trivial, 5, &scratch.join("warm-on-demand.sqlite"))?, 1, 0)?;
    let (on_demand_all, _, _) = tournament_rate(&on_demand, &throughput, cores, 0)?;
    println!(
        "  {:<50} {:>10.0} matches/s",
        format!("the same, instances allocated on demand, {cores} jobs"),
        on_demand_all
    );
    // The reference: one `arena match` process per match (its cache warm).
    let cache = scratch.join("cache");
    let processes = 20;
    let started = Instant::now();
    for seed in 0..processes {
        let status = std::process::Command::new(arena_binary)
            .args(["match", "--game", "azul", "--seed", &seed.to_string(), "--json"])
            .args(&trivial)
            .env("ARENA_CACHE_DIR", &cache)
            .stdout(std::process::Stdio::null())
            .status()?;
        ensure!(status.success(), "arena match failed");
    }
    let cli = f64::from(processes) / started.elapsed().as_secs_f64();
    println!("  {:<50} {:>10.1} matches/s", "reference: the CLI, one process per match (1 job)", cli);
    println!("  {:<50} {:>9.0}x", "in process (1 job) / CLI", one / cli);

    // Memory: one run of 20,000 matches, sampled after its 1,000th and its last.
    let big = spec(&trivial, 10_000, &scratch.join("memory-20k.sqlite"))?;
    let (_, after_1k, after_20k) = tournament_rate(&arena, &big, cores, 1_000)?;
    match (after_1k, after_20k) {
        (Some(small), Some(large)) => {
            let growth = (large as f64 - small as f64) / small as f64 * 100.0;
            println!("  {:<50} {:>7} MiB", "resident memory after 1,000 matches", small / 1024);
            verdict(
                "tournament resident memory, 1,000 -> 20,000 matches",
                &format!("{} MiB {growth:+.1}%", large / 1024),
                "within 10%",
                Some(growth.abs() <= 10.0),
            );
        }
        _ => println!("  resident memory: not measured (no /proc/self/status)"),
    }

    // Overhead per match: the example bots through the tournament vs played directly.
    let examples = [bot_path("azul-greedy"), bot_path("azul-random")];
    // 5,000 matches: enough for the database to pass a checkpoint (its cost is part of a
    // match's write). Tournament and direct play alternate, three times each, and the medians
    // are compared, so that a noisy neighbour slows both sides alike.
    let overhead_spec = spec(&examples, 2_500, &scratch.join("overhead.sqlite"))?;
    let plan = plan(&overhead_spec)?;
    let pool =
        overhead_spec.game.load_pool(&arena, &BotFiles::all_code_only(&examples), &[], Budget::default().memory_mib)?;
    let (mut through, mut directly) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        through.push(tournament_rate(&arena, &overhead_spec, 1, 0)?.0);
        directly.push(direct_rate(&arena, pool.as_ref(), &plan, 1)?);
    }
    let (through_tournament, direct) = (median(&mut through), median(&mut directly));
    // The machine's own ceiling for the scaling figure: the same matches played directly (no
    // database, no scheduling) on every core.
    let direct_all = direct_rate(&arena, pool.as_ref(), &plan, cores)?;
    println!(
        "  {:<50} {:>9.2}x  (the tournament's ceiling on this machine)",
        format!("scaling 1 -> {cores} threads, played directly"),
        direct_all / direct
    );
    // The floor a per-match transaction sets: recording already-played results again.
    let store_rate = store_rate(&plan, &scratch.join("store.sqlite"), &overhead_spec.database)?;
    println!(
        "  {:<50} {:>7.1} us  {:.1}% of a match",
        "database write per match (one transaction)",
        1e6 / store_rate,
        direct / store_rate * 100.0
    );
    let overhead = (direct / through_tournament - 1.0) * 100.0;
    let cost_us = 1e6 / through_tournament - 1e6 / direct;
    println!("  {:<50} {:>10.0} matches/s", "azul-greedy vs azul-random, played directly", direct);
    println!("  {:<50} {:>10.0} matches/s", "the same through the tournament (1 job)", through_tournament);
    println!(
        "  {:<50} {:>7.1} us  {:.1}% of this cheapest match",
        "the tournament's own cost per match", cost_us, overhead
    );
    example_round_robin(bot_path, &scratch, cost_us)?;
    let _ = std::fs::remove_dir_all(&scratch);
    println!();
    Ok(())
}

/// The Azul example bots, those built (C, Python and JavaScript need their toolchains).
const AZUL_EXAMPLES: [&str; 10] = [
    "azul-greedy",
    "azul-random",
    "azul-search",
    "azul-trivial",
    "azul-greedy-c",
    "azul-trivial-c",
    "azul-random-py",
    "azul-trivial-py",
    "azul-random-js",
    "azul-trivial-js",
];

/// The goal's case: a round robin (one seed, both seat orders) of every Azul example bot built,
/// played directly on one thread for its mean match; the tournament's own cost per match
/// (`cost_us`, measured on the cheapest match: it does not grow with the match) as a share of
/// it. Bots load through the user's artifact cache (compiling an interpreter bot takes a while
/// the first time).
fn example_round_robin(bot_path: &dyn Fn(&str) -> PathBuf, scratch: &Path, cost_us: f64) -> Result<()> {
    let (built, missing): (Vec<&str>, Vec<&str>) = AZUL_EXAMPLES.iter().partition(|name| bot_path(name).exists());
    let bots: Vec<PathBuf> = built.iter().map(|name| bot_path(name)).collect();
    let cache = arena_host::cache::ArtifactCache::default_dir().map(arena_host::cache::ArtifactCache::new);
    let arena =
        Arena::with_options(ArenaOptions::for_tournament(1, 2, Budget::default().memory_mib))?.with_cache(cache);
    let examples = spec(&bots, 1, &scratch.join("examples.sqlite"))?;
    let plan = plan(&examples)?;
    let pool = examples.game.load_pool(&arena, &BotFiles::all_code_only(&bots), &[], Budget::default().memory_mib)?;
    let direct = direct_rate(&arena, pool.as_ref(), &plan, 1)?;
    let mean_us = 1e6 / direct;
    println!(
        "  {:<50} {:>7.2} ms  per match ({} matches)",
        format!("round robin of the {} Azul example bots built", built.len()),
        mean_us / 1000.0,
        plan.matches.len()
    );
    if !missing.is_empty() {
        println!(
            "    (not built, left out: {}; `cargo xtask bots --lang c|python|js` builds them)",
            missing.join(", ")
        );
    }
    let share = cost_us / mean_us * 100.0;
    verdict("tournament overhead per match there", &format!("{share:.2}%"), "< 5%", Some(share < 5.0));
    Ok(())
}
