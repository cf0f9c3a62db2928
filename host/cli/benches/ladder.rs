//! Section 11 of the arena benchmarks: the ladder (`arena serve`), measured as a competitor and an
//! operator meet it, on this machine's cores:
//! - a full refit of a leaderboard (the Bradley-Terry fit with its standings) at 100,000 ranked
//!   matches of 1,000 versions, on one core;
//! - the ladder's throughput against `arena tournament run --replays` on the same bots (Code
//!   Character's three examples) and cores (seat-swapped pairings, every replay kept on both
//!   sides; ratio goal 0.8);
//! - upload to first rated result of a Rust bot (`azul-greedy`, made new for each sample with a
//!   custom section, so it is compiled each time) with 20 bots on the ladder: p50 and p95, and
//!   the checks (read, shape, type check, compile, validation) apart;
//! - API latency under load: Debian's `wrk` from a second process on loopback against the
//!   leaderboard and a bot page while the ladder plays on every core (skipped without `wrk`,
//!   which `cargo xtask bench` installs).

use anyhow::{Context, Result};
use arena_host::record::PlayerSummary;
use arena_serve::ratings::leaderboard_of;
use arena_serve::store::{Bot, Match, MatchKind, MatchState, Seat, SeatOutcome, Version, VersionStatus};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

#[allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test support: a failed start stops the run
#[path = "../tests/all/common/ladder.rs"]
pub(super) mod server;

use server::Ladder;

pub fn ladder(bot_path: &dyn Fn(&str) -> PathBuf, arena_binary: &std::path::Path) -> Result<()> {
    println!("11. The ladder (arena serve)");
    refit();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    throughput(bot_path, arena_binary, &dir)?;
    first_results_and_latency(bot_path, &dir)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A version's seat in a synthetic result.
fn outcome(version: i64, rank: u32) -> Seat {
    let player = PlayerSummary {
        bot: format!("v{version}"),
        sha256: String::new(),
        data: None,
        score: i64::from(3 - rank),
        rank,
        forfeit: false,
        forfeit_reason: None,
        fuel_total: 1_000_000,
        fuel_max_turn: 50_000,
        skipped_turns: 0,
        traps: 0,
        invalid_actions: 0,
    };
    Seat { version_id: version, outcome: Some(SeatOutcome { player, turns: 40, faults: Vec::new() }) }
}

/// The refit at 100,000 matches of 1,000 versions, on one core.
fn refit() {
    let seconds = refit_seconds(100_000, 1_000);
    super::verdict(
        "  leaderboard refit, 100,000 matches of 1,000 versions, one core",
        format!("{seconds:.2} s"),
        "<= 2 s",
        seconds <= 2.0,
    );
}

/// Seconds of one full refit at `matches` ranked results of `versions` versions, on one core:
/// each version meets its 20 nearest in strength, and the stronger wins with the Bradley-Terry
/// odds of hidden strengths (a fixed xorshift).
pub(super) fn refit_seconds(matches: i64, versions_count: i64) -> f64 {
    let bots: Vec<Bot> = (0..versions_count)
        .map(|id| Bot {
            id,
            owner: 0,
            owner_name: "bench".into(),
            game: "azul".into(),
            name: format!("bot-{id}"),
            disabled: false,
            private: false,
        })
        .collect();
    let versions: Vec<Version> = (0..versions_count)
        .map(|id| Version {
            id,
            bot_id: id,
            sha256: format!("{id:064x}"),
            size: 1,
            data_digest: None,
            status: VersionStatus::Accepted,
            reason: None,
            steps: Vec::new(),
        })
        .collect();
    let current: BTreeMap<i64, i64> = (0..versions_count).map(|id| (id, id)).collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let results: Vec<Match> = (0..matches)
        .map(|id| {
            let a = (next() % versions_count as u64) as i64;
            let b = (a + 1 + (next() % 20) as i64) % versions_count;
            let odds = 1.0 / (1.0 + 10f64.powf((b - a) as f64 / 400.0));
            let a_wins = (next() % 1_000_000) as f64 / 1_000_000.0 < odds;
            let (rank_a, rank_b) = if a_wins { (1, 2) } else { (2, 1) };
            Match {
                id,
                game: "azul".into(),
                seed: id as u64,
                kind: MatchKind::Ranked,
                state: MatchState::Done,
                seats: vec![outcome(a, rank_a), outcome(b, rank_b)],
                winner: Some(if a_wins { 0 } else { 1 }),
                turns: Some(40),
                replay_sha256: None,
                digest: None,
                error: None,
            }
        })
        .collect();
    let started = Instant::now();
    let board = leaderboard_of("azul", &bots, &versions, &current, &results);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(board.leaderboard.len(), versions_count as usize);
    seconds
}

/// Uploads `file` as `name` of `game` and waits until its checks pass; returns the version.
pub(super) fn enter(ladder: &Ladder, token: &str, game: &str, name: &str, bytes: &[u8]) -> Result<serde_json::Value> {
    let answer = ladder.post_bytes(&format!("/api/games/{game}/bots/{name}"), token, "application/wasm", bytes);
    anyhow::ensure!(answer.status == 201 || answer.status == 200, "uploading {name}: {}", answer.body);
    let version = answer.json()["version_id"].as_i64().context("no version id")?;
    let checked = ladder.wait_for(&format!("/api/versions/{version}"), 600, |version| version["status"] != "pending");
    anyhow::ensure!(checked["status"] == "accepted", "{name} refused: {checked}");
    Ok(checked)
}

/// Matches a second of the ladder against `arena tournament run`, both on every core.
fn throughput(bot_path: &dyn Fn(&str) -> PathBuf, arena_binary: &std::path::Path, dir: &std::path::Path) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    // Code Character's bots: a match is 1,000 turns (a few hundred milliseconds), so the matches
    // measured take seconds and polling the queue's count does not blur the figure.
    let names = ["cc-default", "cc-rush", "cc-random"];
    let game = "code-character";
    // The tournament: every pair from both seat orders on 17 seeds (102 matches).
    let spec = dir.join("spec.toml");
    let bots: Vec<String> = names.iter().map(|name| format!("{:?}", bot_path(name))).collect();
    std::fs::write(
        &spec,
        format!("game = \"{game}\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"1..17\"\n", bots.join(", ")),
    )?;
    let database = dir.join("tournament.sqlite");
    // Keeping every replay, as the ladder does (its match pages show them): the same work.
    let replays = dir.join("tournament-replays");
    let started = Instant::now();
    let output = Command::new(arena_binary)
        .args([
            "tournament",
            "run",
            spec.to_str().unwrap_or_default(),
            "--quiet",
            "--db",
            database.to_str().unwrap_or_default(),
        ])
        .args(["--jobs", &cores.to_string(), "--replays", replays.to_str().unwrap_or_default()])
        .env("ARENA_CACHE_DIR", dir.join("cache"))
        .output()?;
    anyhow::ensure!(output.status.success(), "tournament run: {}", String::from_utf8_lossy(&output.stderr));
    let tournament_rate = 102.0 / started.elapsed().as_secs_f64();
    let kept = std::fs::read_dir(&replays).map_or(0, |entries| entries.count());
    anyhow::ensure!(kept == 102, "the tournament kept {kept} replays of its 102 matches");

    // The ladder: the same four bots, entered and checked on a frozen ladder, play their
    // pairings once it thaws (idle workers notice within their 2 s wait); timed from the first
    // match recorded to 80 more (of the 120 the pairs' caps allow).
    let ladder = Ladder::start(&dir.join("throughput"), &["--workers", &cores.to_string()]);
    let token = ladder.add_user("bench");
    ladder.admin(&["freeze", game]);
    for name in names {
        enter(&ladder, &token, game, name, &std::fs::read(bot_path(name))?)?;
    }
    ladder.admin(&["freeze", game, "--thaw"]);
    let done = |queue: &serde_json::Value| queue["done"].as_u64().unwrap_or(0);
    let first = done(&ladder.wait_for("/api/queue", 600, |queue| done(queue) >= 1));
    let started = Instant::now();
    let last = done(&ladder.wait_for("/api/queue", 600, |queue| done(queue) >= first + 80));
    let ladder_rate = (last - first) as f64 / started.elapsed().as_secs_f64();
    let ratio = ladder_rate / tournament_rate;
    println!("  matches per second on {cores} cores: ladder {ladder_rate:.1}, tournament run {tournament_rate:.1}");
    super::verdict("  ladder throughput / tournament run", format!("{ratio:.2}x"), ">= 0.8x", ratio >= 0.8);
    Ok(())
}

/// `bytes` with a custom section named `bench-N` appended: the same bot, a new file (and sha256),
/// so the ladder checks and compiles it again.
pub(super) fn renamed(bytes: &[u8], n: usize) -> Vec<u8> {
    let name = format!("bench-{n}");
    let mut out = bytes.to_vec();
    out.push(0); // custom section
    out.push((1 + name.len()) as u8);
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out
}

/// The p-th percentile (nearest rank) of `values`.
fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * values.len() as f64).ceil().max(1.0) as usize;
    values[rank.min(values.len()) - 1]
}

/// Upload to first rated result with 20 bots on the ladder, then the API's latency under load.
fn first_results_and_latency(bot_path: &dyn Fn(&str) -> PathBuf, dir: &std::path::Path) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    // One account enters the field and the probes: past the default quotas.
    let config = dir.join("quotas.toml");
    std::fs::write(&config, "[quotas]\nuploads_per_hour = 1000\nbots_per_account = 1000\n")?;
    let config = config.to_string_lossy().into_owned();
    let ladder = Ladder::start(&dir.join("first"), &["--workers", &cores.to_string(), "--config", &config]);
    let token = ladder.add_user("bench");
    let random = std::fs::read(bot_path("azul-random"))?;
    for n in 0..20 {
        enter(&ladder, &token, "azul", &format!("field-{n}"), &renamed(&random, n))?;
    }
    let greedy = std::fs::read(bot_path("azul-greedy"))?;
    let (mut checked, mut rated) = (Vec::new(), Vec::new());
    for n in 0..5 {
        let started = Instant::now();
        let version = enter(&ladder, &token, "azul", &format!("probe-{n}"), &renamed(&greedy, 100 + n))?;
        checked.push(started.elapsed().as_secs_f64());
        let id = version["version_id"].as_i64().context("no version id")?;
        ladder.wait_for("/api/matches?game=azul&limit=100", 600, |matches| {
            matches.as_array().into_iter().flatten().any(|one| {
                one["kind"] == "ranked"
                    && one["seats"].as_array().into_iter().flatten().any(|seat| seat["version_id"] == id)
            })
        });
        rated.push(started.elapsed().as_secs_f64());
    }
    println!(
        "  upload to accepted (read, shape, type check, compile, validation): p50 {:.1} s, p95 {:.1} s",
        percentile(&mut checked, 50.0),
        percentile(&mut checked, 95.0)
    );
    let (p50, p95) = (percentile(&mut rated, 50.0), percentile(&mut rated, 95.0));
    println!("  upload to first rated result, 20 bots on the ladder: p50 {p50:.1} s");
    super::verdict("  upload to first rated result, p95", format!("{p95:.1} s"), "<= 60 s", p95 <= 60.0);

    if !Command::new("wrk")
        .arg("--version")
        .output()
        .is_ok_and(|output| !output.stdout.is_empty() || !output.stderr.is_empty())
    {
        println!("  wrk is missing (`cargo xtask bench` installs Debian's): latency skipped");
        return Ok(());
    }
    for (what, path) in [("leaderboard", "/api/games/azul/leaderboard"), ("bot page", "/bots/1")] {
        let output = Command::new("wrk")
            .args(["-t1", "-c16", "-d10s", "--latency", &format!("{}{path}", ladder.url)])
            .output()
            .context("running wrk")?;
        let text = String::from_utf8_lossy(&output.stdout);
        let p99 = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("99%"))
            .map(|value| milliseconds(value.trim()))
            .context("wrk printed no 99% line")?;
        super::verdict(&format!("  {what} p99 under load"), format!("{p99:.1} ms"), "<= 50 ms", p99 <= 50.0);
    }
    Ok(())
}

/// wrk's latency figure (`812.00us`, `3.21ms`, `1.02s`) in milliseconds.
fn milliseconds(value: &str) -> f64 {
    let (number, unit) = value.split_at(value.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(value.len()));
    let number: f64 = number.parse().unwrap_or(f64::INFINITY);
    match unit {
        "us" => number / 1000.0,
        "s" => number * 1000.0,
        _ => number,
    }
    .max(Duration::ZERO.as_secs_f64())
}
