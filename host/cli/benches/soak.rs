//! Section 12 of the arena benchmarks, run only when named (`cargo xtask soak`, which sets its
//! size; or `cargo bench -p arena-cli --bench arena -- soak`): the ladder through a long run, and
//! the figures `docs/scaling.md` sizes a large ladder from.
//!
//! - **Inputs**: matches per core-hour of each game, its two example bots (`strong` and
//!   `random`, both seat orders; and Azul's compute-bound `azul-search` against `azul-greedy`)
//!   through `arena tournament run --jobs 1`, on more seeds until a run lasts 2 s (the bots
//!   compiled before, in a warm-up run), with the fuel the bots spent a second and a replay's
//!   gzipped size; the bytes of a match's work message (a line of `arena tournament plan`); a
//!   full leaderboard refit at a day's results of the ladder the document sizes (1,000,000
//!   matches of 10,000 versions, one core).
//! - **The soak**: a release `arena serve` (the ladder benchmark's, `common/ladder.rs`) on a free
//!   loopback port, its data in a scratch folder under `target/tmp`, with enough copies of Azul's
//!   cheap example bots (`azul-random` and `azul-greedy`, each copy a new file) that the pairs'
//!   cap of 40 meetings leaves room for [`MATCHES_ENV`] ranked matches (100,000 unless set),
//!   played by [`WORKERS_ENV`] workers (2 unless set): the server's own threads, or with
//!   [`NATS_ENV`] set, as many registered `arena worker`s on a NATS JetStream server (Debian's
//!   `nats-server`, `common/nats.rs`), audited as the ladder audits them. The resident memory
//!   (`VmRSS` in `/proc/PID/status`) of the server, and of the workers when they are processes
//!   of their own, is printed with the throughput every twentieth of the run. Verdict: each
//!   process's resident memory from the 10,000th match (a tenth of the run when that is fewer)
//!   to the end within 10% of its value there. Then the game is frozen, what is queued plays, and
//!   the data per match is printed: the database, the replays, JetStream's storage, the public
//!   dump (`arena ladder dump`) and its results as NATS result messages.
//! - **Determinism**: with NATS workers, the audits' mismatches (`arena serve admin workers`,
//!   once every audit is settled); in both modes, `arena ladder verify --sample 200` re-plays
//!   200 of the dump's matches and recomputes its ratings, and must find no difference.

use super::ladder::server::Ladder;
use super::ladder::{enter, refit_seconds, renamed};
use super::queue::nats::Nats;
use super::tournament::status_kib;
use anyhow::{Context, Result, bail, ensure};
use arena_profiler::fuel_profile::thousands;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Ranked matches the soak plays (`cargo xtask soak --matches N` sets it).
pub const MATCHES_ENV: &str = "ARENA_SOAK_MATCHES";
/// Workers playing them (`cargo xtask soak --workers N` sets it).
pub const WORKERS_ENV: &str = "ARENA_SOAK_WORKERS";
/// Set (to anything): the workers are `arena worker`s on NATS (`cargo xtask soak --nats`).
pub const NATS_ENV: &str = "ARENA_SOAK_NATS";
/// The game the soak plays.
const GAME: &str = "azul";
/// Times a pair of versions meets before it waits for a new version (docs/ladder.md#ratings).
const PAIR_CAP: u64 = 40;
/// Matches `arena ladder verify` re-plays at the end.
const VERIFY_SAMPLE: &str = "200";

pub fn soak(bot_path: &dyn Fn(&str) -> PathBuf, arena: &Path) -> Result<()> {
    let matches = env_number(MATCHES_ENV, 100_000)?;
    let workers = env_number(WORKERS_ENV, 2)?;
    let nats = std::env::var_os(NATS_ENV).is_some();
    ensure!(matches >= 20 && workers >= 1, "a soak needs at least 20 matches and 1 worker");
    let kind = if nats { "NATS workers" } else { "workers" };
    println!("12. Soak: {} ladder matches, {workers} {kind}; the inputs of docs/scaling.md", thousands(matches));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    inputs(bot_path, arena, &dir)?;
    ladder_soak(bot_path, arena, &dir, Run { matches, workers, nats })?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A count from the environment variable `name` (`20000`, `20_000` or `20,000`), else `default`.
fn env_number(name: &str, default: u64) -> Result<u64> {
    match std::env::var(name) {
        Ok(text) => {
            text.replace([',', '_'], "").trim().parse().with_context(|| format!("{name}={text:?}: not a count"))
        }
        Err(_) => Ok(default),
    }
}

/// Runs `arena ARGS` with its artifact cache at `cache`, which must succeed; its output.
fn arena_output(arena: &Path, args: &[&str], cache: &Path) -> Result<std::process::Output> {
    let output = Command::new(arena).args(args).env("ARENA_CACHE_DIR", cache).output().context("cannot run arena")?;
    ensure!(output.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    Ok(output)
}

/// Writes a round robin of `bots` in `game` on seeds 1 to `seeds` to `path`.
fn write_spec(path: &Path, game: &str, bots: &[PathBuf], seeds: u64) -> Result<String> {
    let bots: Vec<String> = bots.iter().map(|bot| format!("{bot:?}")).collect();
    let body =
        format!("game = \"{game}\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"1..{seeds}\"\n", bots.join(", "));
    std::fs::write(path, body)?;
    Ok(path.to_string_lossy().into_owned())
}

/// The figures the scaling document starts from that the soak itself does not give.
fn inputs(bot_path: &dyn Fn(&str) -> PathBuf, arena: &Path, dir: &Path) -> Result<()> {
    println!("  matches a core-hour: two bots in both seat orders, `arena tournament run --jobs 1` (a result");
    println!("  a match in its database, no replay); the fuel they spent a second; a replay, gzipped (`--replays`):");
    let mut pairs: Vec<(String, &str, [&str; 2])> = arena_host::registry::games()
        .into_iter()
        .map(|entry| entry.info())
        .map(|info| (info.name.to_owned(), info.name, [info.examples.strong, info.examples.random]))
        .collect();
    pairs.push(("azul, search".into(), GAME, ["azul-search", "azul-greedy"]));
    for (label, game, names) in pairs {
        let bots = names.map(bot_path);
        let name = label.replace([',', ' '], "");
        let timed = per_core(arena, dir, &name, game, &bots)?;
        let rate = timed.matches as f64 / timed.seconds;
        let replays = dir.join(format!("{name}-replays"));
        let spec = write_spec(&dir.join(format!("{name}-replays.toml")), game, &bots, 4)?;
        let database = dir.join(format!("{name}-replays.sqlite"));
        let (database, replays_arg) = (database.to_string_lossy(), replays.to_string_lossy());
        let args = ["tournament", "run", &spec, "--quiet", "--db", &database, "--replays", &replays_arg];
        arena_output(arena, &args, &dir.join("cache"))?;
        let (files, bytes) = tree_size(&replays);
        println!(
            "    {label:<15} {:>11} a core-hour {:>9.2} ms a match {:>6.0} M fuel/s  replay {:>7} B  ({} {} vs {})",
            thousands((rate * 3600.0) as u64),
            1000.0 / rate,
            timed.fuel as f64 / timed.seconds / 1e6,
            thousands(bytes / files.max(1)),
            thousands(timed.matches),
            names[0],
            names[1],
        );
    }
    let spec = write_spec(&dir.join("plan.toml"), GAME, &[bot_path("azul-greedy"), bot_path("azul-random")], 50)?;
    let plan = dir.join("plan.jsonl");
    arena_output(arena, &["tournament", "plan", &spec, "-o", plan.to_str().unwrap_or_default()], &dir.join("cache"))?;
    let text = std::fs::read_to_string(&plan)?;
    println!(
        "  a match's work message (a plan line: spec, bots' names, sha256s and paths): {} B; a NATS message carries `batch` of them",
        text.len() / text.lines().count().max(1)
    );
    let seconds = refit_seconds(1_000_000, 10_000);
    println!("  a full leaderboard refit, 1,000,000 matches of 10,000 versions, one core: {seconds:.1} s");
    Ok(())
}

/// A timed run: matches played, seconds, and the fuel every seat spent.
struct Timed {
    matches: u64,
    seconds: f64,
    fuel: u64,
}

/// A round robin of `bots` in `game` on one core, on more seeds until it lasts 2 s; a first run
/// compiles the bots into the cache the timed runs load them from. Files are named by `name`.
fn per_core(arena: &Path, dir: &Path, name: &str, game: &str, bots: &[PathBuf]) -> Result<Timed> {
    let cache = dir.join("cache");
    let mut seeds = 1u64;
    let mut warm = false;
    loop {
        let spec = write_spec(&dir.join(format!("{name}-{seeds}.toml")), game, bots, seeds)?;
        let database = dir.join(format!("{name}-{seeds}.sqlite"));
        let started = Instant::now();
        let args =
            ["tournament", "run", &spec, "--quiet", "--jobs", "1", "--db", database.to_str().unwrap_or_default()];
        arena_output(arena, &args, &cache)?;
        let seconds = started.elapsed().as_secs_f64();
        if warm && (seconds >= 2.0 || seeds >= 1 << 20) {
            let stored = arena_tournament::store::Store::open(&database)?.stored_matches()?;
            let fuel = stored
                .iter()
                .filter_map(|one| serde_json::from_str::<arena_host::record::MatchResult>(one.result.as_deref()?).ok())
                .flat_map(|result| result.players)
                .map(|player| player.fuel_total)
                .sum();
            return Ok(Timed { matches: stored.len() as u64, seconds, fuel });
        }
        warm = true;
        seeds *= 4;
    }
}

/// The pid of the `arena serve` this process started on `data`: a child of this process with
/// the folder on its command line.
fn server_pid(data: &Path) -> Option<u32> {
    let me = std::process::id();
    let data = data.to_str()?;
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // After the command's name in parentheses: the state, then the parent's pid.
        let parent: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        let command = std::fs::read(entry.path().join("cmdline")).ok()?;
        let names_data = command.split(|byte| *byte == 0).any(|arg| arg == data.as_bytes());
        (parent == me && names_data).then_some(pid)
    })
}

/// Files under `dir` (recursively) and their total size in bytes.
fn tree_size(dir: &Path) -> (u64, u64) {
    let mut found = (0, 0);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() {
            let (files, bytes) = tree_size(&entry.path());
            found = (found.0 + files, found.1 + bytes);
        } else {
            found = (found.0 + 1, found.1 + meta.len());
        }
    }
    found
}

/// The size of `path` in bytes (0 when missing).
fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |meta| meta.len())
}

/// What the soak plays: how many matches, with how many workers, and where they run.
#[derive(Clone, Copy)]
struct Run {
    matches: u64,
    workers: u64,
    /// `arena worker`s on NATS, not the server's threads.
    nats: bool,
}

impl Run {
    /// The workers, for the table's labels: `2 workers`, `2 NATS workers`.
    fn workers(self) -> String {
        format!("{} {}workers", self.workers, if self.nats { "NATS " } else { "" })
    }
}

/// `arena worker`s on NATS, killed (by their pids) when dropped.
struct Workers(Vec<Child>);

impl Drop for Workers {
    fn drop(&mut self) {
        for worker in &mut self.0 {
            let _ = worker.kill();
            let _ = worker.wait();
        }
    }
}

/// The soak itself: `run.matches` ranked Azul matches through `arena serve`.
fn ladder_soak(bot_path: &dyn Fn(&str) -> PathBuf, arena: &Path, dir: &Path, run: Run) -> Result<()> {
    // Enough bots that their pairs' caps leave a quarter more than the run.
    let bots = (4u64..).find(|k| k * (k - 1) / 2 * PAIR_CAP >= run.matches + run.matches / 4).unwrap_or(4);
    let queue = run.nats.then(|| Nats::start(&dir.join("nats")));
    let config = dir.join("serve.toml");
    let mut settings = "[quotas]\nuploads_per_hour = 100000\nbots_per_account = 100000\n".to_owned();
    if queue.is_some() {
        settings.push_str("[nats]\nladder = \"soak\"\n");
    }
    std::fs::write(&config, settings)?;
    let config = config.to_string_lossy().into_owned();
    let local = if run.nats { "0".to_owned() } else { run.workers.to_string() };
    let mut args = vec!["--workers", &local, "--config", &config];
    if let Some(queue) = &queue {
        args.extend(["--nats", &queue.url]);
    }
    let ladder = Ladder::start(&dir.join("ladder"), &args);
    let mut processes = vec![("server".to_owned(), server_pid(&ladder.data).context("no server process")?)];
    let token = ladder.add_user("soak");
    ladder.admin(&["freeze", GAME]);
    let started = Instant::now();
    let files = [std::fs::read(bot_path("azul-random"))?, std::fs::read(bot_path("azul-greedy"))?];
    for n in 0..bots as usize {
        enter(&ladder, &token, GAME, &format!("soak-{n}"), &renamed(&files[n % 2], n))?;
    }
    println!(
        "  {bots} Azul bots entered and checked (copies of azul-random and azul-greedy) in {:.0} s; room for {} matches",
        started.elapsed().as_secs_f64(),
        thousands(bots * (bots - 1) / 2 * PAIR_CAP)
    );
    let mut workers = Workers(Vec::new());
    if let Some(queue) = &queue {
        for n in 0..run.workers {
            let name = format!("soak-{n}");
            let token = ladder.add_worker(&name);
            let worker = Command::new(arena)
                .args(["worker", "--nats", &queue.url, "--token", &token, "--quiet", "--bots-dir"])
                .arg(ladder.data.join("bots"))
                .env("ARENA_CACHE_DIR", dir.join("cache"))
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(dir.join(format!("{name}.log")))?)
                .spawn()
                .context("cannot start arena worker")?;
            processes.push((name, worker.id()));
            workers.0.push(worker);
        }
    }
    ladder.admin(&["freeze", GAME, "--thaw"]);

    let samples = play(&ladder, &processes, run.matches)?;
    report(&samples, &processes, run);
    let played = samples.last().map_or(0, |last| last.done);
    if run.nats {
        audits(&ladder, run)?;
    }
    drop(workers);
    data_per_match(&ladder, dir, played);
    verify(arena, &ladder, dir, played, run)
}

/// A sample of the soak: matches played, seconds since the thaw, matches a second since the
/// last sample, and each process's resident memory in KiB (the server's first), with the
/// server's anonymous part.
struct Sample {
    done: u64,
    seconds: f64,
    rate: f64,
    resident: Vec<u64>,
    anonymous: u64,
}

/// Lets `ladder` play until `matches` are done, sampling every twentieth of them; then freezes
/// it and samples once more when what was queued has played. A ladder that records no match for
/// 2 minutes fails the run.
fn play(ladder: &Ladder, processes: &[(String, u32)], matches: u64) -> Result<Vec<Sample>> {
    let count = |queue: &serde_json::Value, key: &str| queue[key].as_u64().unwrap_or(0);
    let every = (matches / 20).max(1);
    let workers = if processes.len() > 1 { "workers MiB" } else { "" };
    println!(
        "  {:>9}  {:>7}  {:>9}  {:>10}  {:>9}  {workers}",
        "matches", "seconds", "matches/s", "server MiB", "anonymous"
    );
    let thawed = Instant::now();
    let mut samples: Vec<Sample> = Vec::new();
    let mut sample = |done: u64| -> Result<()> {
        let mut resident = Vec::new();
        for (name, pid) in processes {
            resident.push(status_kib(&pid.to_string(), "VmRSS").with_context(|| format!("{name} is gone"))?);
        }
        let anonymous = status_kib(&processes[0].1.to_string(), "RssAnon").unwrap_or(0);
        let seconds = thawed.elapsed().as_secs_f64();
        let (before, then) = samples.last().map_or((0, 0.0), |last| (last.done, last.seconds));
        let rate = (done - before) as f64 / (seconds - then).max(1e-9);
        let mib = |kib: u64| kib as f64 / 1024.0;
        let workers = resident[1..].iter().map(|kib| format!("{:.1}", mib(*kib))).collect::<Vec<_>>().join(" ");
        println!(
            "  {:>9}  {seconds:>7.0}  {rate:>9.0}  {:>10.1}  {:>9.1}  {workers}",
            thousands(done),
            mib(resident[0]),
            mib(anonymous)
        );
        samples.push(Sample { done, seconds, rate, resident, anonymous });
        Ok(())
    };
    let (mut next, mut seen, mut moved) = (every, 0, Instant::now());
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let done = count(&ladder.get("/api/queue", None).json(), "done");
        if done > seen {
            (seen, moved) = (done, Instant::now());
        }
        if moved.elapsed() > Duration::from_secs(120) {
            bail!("no match recorded for 2 minutes at {done} matches:\n{}", ladder.log());
        }
        if done >= next || done >= matches {
            sample(done)?;
            while next <= done {
                next += every;
            }
        }
        if done >= matches {
            break;
        }
    }
    // What is queued plays; then the last sample, on a ladder at rest.
    ladder.admin(&["freeze", GAME]);
    let rest = ladder.wait_for("/api/queue", 600, |queue| count(queue, "queued") + count(queue, "running") == 0);
    sample(count(&rest, "done"))?;
    Ok(samples)
}

/// The soak's verdicts from its samples: the throughput, how it falls as results grow, and each
/// process's resident memory from the 10,000th match (a tenth of the run when fewer) to the end.
fn report(samples: &[Sample], processes: &[(String, u32)], run: Run) {
    // The last sample is the ladder at rest; the first interval holds the thaw's wait.
    let Some((rest, playing)) = samples.split_last() else { return };
    let Some(end) = playing.last() else { return };
    let rate = end.done as f64 / end.seconds;
    println!(
        "  throughput: {rate:.0} matches/s with {} ({} matches a worker-hour), {} matches in {:.0} s",
        run.workers(),
        thousands((rate * 3600.0 / run.workers as f64) as u64),
        thousands(end.done),
        end.seconds
    );
    arena_game::bench::verdict(
        &format!("  ladder soak throughput, {} matches, {}", thousands(run.matches), run.workers()),
        &format!("{rate:.0} matches/s"),
        "printed",
        None,
    );
    // Seconds a match against the results already recorded, fitted by least squares over the
    // intervals between samples: a + b * results.
    let points: Vec<(f64, f64)> = playing
        .windows(2)
        .map(|pair| ((pair[0].done + pair[1].done) as f64 / 2.0, 1.0 / pair[1].rate.max(1e-9)))
        .collect();
    if points.len() >= 2 {
        let n = points.len() as f64;
        let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
        let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let b = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
        let a = my - b * mx;
        let projected = |m: f64| a * m + b * m * m / 2.0;
        if b > 0.0 {
            println!(
                "  a match took {:.2} ms + {:.3} us per ranked result already recorded (fitted over the samples): \
                 100,000 matches would take {:.0} min, 1,000,000 {:.1} h",
                a * 1000.0,
                b * 1e6,
                projected(100_000.0) / 60.0,
                projected(1_000_000.0) / 3600.0
            );
        } else {
            println!("  a match took {:.2} ms, no more as results grew (fitted over the samples)", my * 1000.0);
        }
    }
    let from = (run.matches / 10).min(10_000);
    let at = samples.iter().position(|one| one.done >= from).unwrap_or(0);
    let base = &samples[at];
    let grown = rest.anonymous as f64 - base.anonymous as f64;
    println!(
        "  the server's anonymous memory grew {:+.2} KiB a match from {} to {} matches",
        grown / (rest.done - base.done).max(1) as f64,
        thousands(base.done),
        thousands(rest.done)
    );
    // Each process's largest move from its figure at `base`.
    let mut worst: Option<(f64, &str, u64)> = None;
    for (index, (name, _)) in processes.iter().enumerate() {
        let start = base.resident[index];
        for one in &samples[at..] {
            let moved = one.resident[index] as f64 / start as f64 - 1.0;
            if worst.is_none_or(|(most, _, _)| moved.abs() > most.abs()) {
                worst = Some((moved, name, start));
            }
        }
    }
    let (moved, name, start) = worst.unwrap_or((0.0, "server", 0));
    let whose = if processes.len() > 1 { format!(" ({name})") } else { String::new() };
    super::verdict(
        &format!(
            "  ladder soak resident memory, {} -> {} matches, {}",
            thousands(from),
            thousands(run.matches),
            run.workers()
        ),
        format!("{:.0} MiB {:+.1}%{whose}", start as f64 / 1024.0, moved * 100.0),
        "within 10%",
        moved.abs() <= 0.10,
    );
}

/// Waits until every audit of the NATS workers is settled, then prints their verdict: no
/// mismatch, no worker suspect.
fn audits(ladder: &Ladder, run: Run) -> Result<()> {
    let started = Instant::now();
    let report = loop {
        let report = ladder.admin(&["workers"]);
        if !report.lines().any(|line| line.ends_with("\tpending") || line.ends_with("\tdisputed")) {
            break report;
        }
        ensure!(started.elapsed() < Duration::from_secs(600), "audits still open after 10 minutes:\n{report}");
        std::thread::sleep(Duration::from_millis(500));
    };
    // `worker trusted suspect results audits mismatches`, one line a worker, up to a blank line.
    let (mut results, mut audits, mut mismatches, mut suspects) = (0u64, 0u64, 0u64, 0);
    for line in report.lines().skip(1).take_while(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let number = |at: usize| fields.get(at).and_then(|field| field.parse::<u64>().ok()).unwrap_or(0);
        results += number(3);
        audits += number(4);
        mismatches += number(5);
        suspects += usize::from(fields.get(2) == Some(&"yes"));
    }
    println!(
        "  audits: {audits} of {results} results re-run by the other worker ({:.1}%), {mismatches} mismatches, {suspects} workers suspect",
        audits as f64 * 100.0 / results.max(1) as f64
    );
    super::verdict(
        &format!("  ladder soak audits, {}", run.workers()),
        format!("{audits} audits, {mismatches} mismatches"),
        "0 mismatches",
        mismatches == 0 && suspects == 0 && audits > 0,
    );
    Ok(())
}

/// The data per match played: the database, the replays, and JetStream's storage (if any).
fn data_per_match(ladder: &Ladder, dir: &Path, played: u64) {
    let data = &ladder.data;
    let per = |bytes: u64| thousands(bytes / played.max(1));
    let mib = |bytes: u64| bytes as f64 / 1048576.0;
    let database = size(&data.join("arena.sqlite")) + size(&data.join("arena.sqlite-wal"));
    println!(
        "  database (arena.sqlite and its write-ahead log): {} B a match ({:.1} MiB)",
        per(database),
        mib(database)
    );
    let (replays, bytes) = tree_size(&data.join("replays"));
    println!(
        "  replays kept (gzipped JSON): {} B a match ({} files, {:.1} MiB)",
        per(bytes),
        thousands(replays),
        mib(bytes)
    );
    let (files, bytes) = tree_size(&data.join("bots"));
    let (_, compiled) = tree_size(&data.join("cache"));
    println!(
        "  bot files: {} B a version ({} files); compiled artifacts (the server's cache): {} B a version",
        thousands(bytes / files.max(1)),
        thousands(files),
        thousands(compiled / files.max(1))
    );
    let (_, stored) = tree_size(&dir.join("nats").join("js"));
    if stored > 0 {
        println!(
            "  JetStream's storage (work and results streams): {} B a match ({:.1} MiB)",
            per(stored),
            mib(stored)
        );
    }
}

/// Dumps the ladder, prints the dump's size and its results' as NATS result messages, and
/// re-plays a sample of it with `arena ladder verify`.
fn verify(arena: &Path, ladder: &Ladder, dir: &Path, played: u64, run: Run) -> Result<()> {
    let dump = dir.join("dump");
    let dump_arg = dump.to_string_lossy().into_owned();
    let cache = dir.join("cache");
    let started = Instant::now();
    arena_output(arena, &["ladder", "dump", "--server", &ladder.url, "--game", GAME, "-o", &dump_arg], &cache)?;
    let dumped = started.elapsed().as_secs_f64();
    let per = |bytes: u64| thousands(bytes / played.max(1));
    let (json, results) = (size(&dump.join("ladder.json")), size(&dump.join("results.sqlite")));
    println!(
        "  public dump: ladder.json {} B a match ({:.1} MiB, downloaded and written in {dumped:.1} s), results.sqlite {} B a match",
        per(json),
        json as f64 / 1048576.0,
        per(results)
    );
    let stored = arena_tournament::store::Store::open(&dump.join("results.sqlite"))?.stored_matches()?;
    let bytes: usize = stored.iter().map(|one| serde_json::to_vec(one).map_or(0, |text| text.len())).sum();
    println!("  a match's NATS result message (its result as JSON): {} B", bytes / stored.len().max(1));

    let started = Instant::now();
    let args = ["ladder", "verify", &dump_arg, "--sample", VERIFY_SAMPLE, "--json"];
    let output = Command::new(arena).args(args).env("ARENA_CACHE_DIR", &cache).output().context("cannot run arena")?;
    let seconds = started.elapsed().as_secs_f64();
    // Exit 1 is a difference, reported below; 2 is a failure to verify at all.
    ensure!(
        matches!(output.status.code(), Some(0 | 1)),
        "arena ladder verify: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).context("verify's --json output")?;
    let checked = report["matches_checked"].as_u64().unwrap_or(0);
    let mismatches = report["mismatches"].as_array().map_or(usize::MAX, Vec::len);
    let ratings_equal = report["ratings_equal"].as_bool() == Some(true);
    println!(
        "  arena ladder verify --sample {VERIFY_SAMPLE} (sample seed {}): {checked} matches re-played and the ratings of {} recomputed in {seconds:.1} s",
        report["sample_seed"],
        thousands(report["matches_total"].as_u64().unwrap_or(0)),
    );
    super::verdict(
        &format!("  ladder soak determinism, {}: arena ladder verify --sample {VERIFY_SAMPLE}", run.workers()),
        format!("{mismatches} mismatches, ratings {}", if ratings_equal { "equal" } else { "differ" }),
        "0 mismatches, ratings equal",
        mismatches == 0 && ratings_equal && checked > 0,
    );
    Ok(())
}
