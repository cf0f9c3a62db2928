//! Section 10 of the arena benchmarks: what the NATS work queue costs per match (`arena worker
//! --nats`, `arena tournament enqueue`/`collect`). A plan of 200 millisecond matches (two trivial
//! Azul bots, a round robin on 100 seeds) played by one process on one core (`tournament
//! run-plan --jobs 1`) against one worker draining the queue, for batches of 1, 10 and 50 matches
//! per message, both timed from process start to exit with the bots loaded from the same
//! artifact cache; printed with the smallest batch that reaches 90% of the single process's
//! throughput. Checked: every batch size delivers every match. Needs Debian's `nats-server`
//! (`cargo xtask test` installs it); skipped without it.

use anyhow::{Context, Result, ensure};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test support: a failed start stops the run
#[path = "../tests/all/common/nats.rs"]
pub(super) mod nats;

/// Seconds `command` takes, which must succeed, with the bots' artifact cache at `cache`.
fn timed(command: &mut Command, cache: &Path) -> Result<f64> {
    let started = Instant::now();
    let output = command.env("ARENA_CACHE_DIR", cache).output().context("cannot run arena")?;
    ensure!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
    Ok(started.elapsed().as_secs_f64())
}

/// Runs `arena` with `args`, which must succeed; returns its stderr.
fn run(arena: &Path, args: &[&str]) -> Result<String> {
    let output = Command::new(arena).args(args).output().context("cannot run arena")?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    ensure!(output.status.success(), "arena {args:?}: {stderr}");
    Ok(stderr)
}

pub fn queue(bot_path: &dyn Fn(&str) -> PathBuf, arena: &Path) -> Result<()> {
    println!("10. NATS work queue: one worker against one process on one core");
    if !Command::new("nats-server").arg("--version").output().is_ok_and(|output| output.status.success()) {
        println!("  nats-server is missing (`cargo xtask test` installs Debian's): skipped");
        return Ok(());
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-queue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let bots: Vec<String> =
        ["fx-glue-azul", "azul-trivial"].iter().map(|name| format!("{:?}", bot_path(name))).collect();
    let spec = dir.join("spec.toml");
    let body = format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"1..100\"\n", bots.join(", "));
    std::fs::write(&spec, body)?;
    let plan = dir.join("plan.jsonl");
    let (spec, plan) = (spec.to_string_lossy().into_owned(), plan.to_string_lossy().into_owned());
    run(arena, &["tournament", "plan", &spec, "-o", &plan])?;
    let total = std::fs::read_to_string(&plan)?.lines().count();
    let cache = dir.join("arena-cache");
    let single_db = dir.join("one-core.sqlite").to_string_lossy().into_owned();
    let single = timed(
        Command::new(arena).args(["tournament", "run-plan", &plan, "--jobs", "1", "--quiet", "--db", &single_db]),
        &cache,
    )?;
    // The worker waits this long on an empty queue before it exits: not the queue's cost.
    let idle_exit = 1.0;
    let mut reached = None;
    for batch in [1usize, 10, 50] {
        let server = nats::Nats::start(&dir.join(format!("nats-{batch}")));
        run(arena, &["tournament", "enqueue", "--nats", &server.url, &plan, "--batch", &batch.to_string()])?;
        let worker = ["worker", "--nats", &server.url, "--idle-exit", "1", "--quiet"];
        let seconds = timed(Command::new(arena).args(worker), &cache)? - idle_exit;
        let collected = dir.join(format!("batch-{batch}.sqlite")).to_string_lossy().into_owned();
        let report = run(arena, &["tournament", "collect", "--nats", &server.url, "-o", &collected])?;
        let delivered = format!("{total} planned, {total} merged");
        ensure!(report.contains(&delivered), "batch {batch}: not every match was delivered: {report}");
        let throughput = single / seconds;
        if throughput >= 0.9 && reached.is_none() {
            reached = Some(batch);
        }
        println!(
            "  batch {batch:>3}: {:>6.0} us per match more than one process ({:.0}% of its throughput)",
            (seconds - single) / total as f64 * 1e6,
            throughput * 100.0
        );
    }
    println!("  ({total} trivial Azul matches; one process on one core: {single:.2} s)");
    match reached {
        Some(batch) => println!("  90% of one process's throughput from batches of {batch}"),
        None => println!("  90% of one process's throughput: not reached with batches of up to 50"),
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
