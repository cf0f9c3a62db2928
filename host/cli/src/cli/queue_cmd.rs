//! The NATS JetStream work queue from the command line (cargo feature `nats`):
//! `arena tournament enqueue`, `arena worker` and `arena tournament collect`.

use super::merge_report::print_merge_report;
use anyhow::Context;
use arena_tournament::nats::Queue;
use arena_tournament::nats::collect::collect;
use arena_tournament::nats::enqueue::enqueue;
use arena_tournament::nats::identity::WorkerIdentity;
use arena_tournament::nats::worker::{WorkerOptions, WorkerReport, work};
use arena_tournament::plan::Plan;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub const WORKER_EXAMPLES: &str = "\
Examples:
  arena tournament plan spec.toml -o plan.jsonl
  arena tournament enqueue --nats nats://127.0.0.1:4222 plan.jsonl --bots-dir /shared/bots
  arena worker --nats nats://127.0.0.1:4222 --bots-dir /shared/bots     # on every machine, any number
  arena tournament collect --nats nats://127.0.0.1:4222 -o all.sqlite";

#[derive(Debug, Args)]
pub struct EnqueueArgs {
    /// The plan file (`arena tournament plan SPEC -o plan.jsonl`).
    plan: PathBuf,
    /// The NATS server (JetStream enabled), e.g. nats://127.0.0.1:4222.
    #[arg(long, value_name = "URL")]
    nats: String,
    /// Matches per message: more for millisecond games, so the queue's round trip is shared.
    #[arg(long, value_name = "K", default_value_t = 1)]
    batch: usize,
    /// Copy every bot into DIR as `SHA256.wasm`, for workers that read bots from there.
    #[arg(long, value_name = "DIR")]
    bots_dir: Option<PathBuf>,
    /// Seconds a worker may hold a message without acking it before it goes to another worker
    /// (set when the queue is first created).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    ack_wait: u64,
}

#[derive(Debug, Args)]
pub struct CollectArgs {
    /// The NATS server.
    #[arg(long, value_name = "URL")]
    nats: String,
    /// The plan's digest, when the server holds several plans.
    #[arg(long, value_name = "DIGEST")]
    plan: Option<String>,
    /// The merged database (must not exist).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The NATS server.
    #[arg(long, value_name = "URL")]
    nats: String,
    /// Read bots from DIR as `SHA256.wasm` (what `enqueue --bots-dir` writes) or
    /// `SH/SHA256.wasm` (a ladder's `DATA/bots`) instead of the paths in the plan; either way a
    /// bot's sha256 is checked before it loads.
    #[arg(long, value_name = "DIR")]
    bots_dir: Option<PathBuf>,
    /// Fetch a bot the bots folder lacks from this ladder server (`arena serve --nats`), e.g.
    /// `http://ladder.example:8080`; needs --bots-dir, where fetched bots are kept.
    #[arg(long, value_name = "URL", requires = "bots_dir")]
    bots_from: Option<String>,
    /// This worker's token on a ladder that audits its workers (`NAME:SECRET`, printed by
    /// `arena serve admin add-worker NAME`); also from ARENA_WORKER_TOKEN.
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// Tests only: alter every N-th result published (one more turn), to check a ladder's audits.
    #[arg(long, value_name = "N", hide = true)]
    test_lie_every: Option<usize>,
    /// Exit once the queue has been empty this many seconds (default: wait for work forever).
    #[arg(long, value_name = "SECONDS")]
    idle_exit: Option<u64>,
    /// Print nothing but errors.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

pub fn run_enqueue(args: EnqueueArgs) -> anyhow::Result<ExitCode> {
    let text = arena_host::regular_file::read_text(&args.plan, arena_tournament::plan::MAX_PLAN_FILE)?;
    let plan = Plan::from_jsonl(&text).with_context(|| args.plan.display().to_string())?;
    let queue = Queue::connect(&args.nats)?;
    let ack_wait = Duration::from_secs(args.ack_wait.max(1));
    let report = enqueue(&queue, &plan, args.batch, ack_wait, args.bots_dir.as_deref())?;
    eprintln!(
        "plan {}: {} matches in {} messages, {} of them already queued (not added again)",
        report.digest, report.matches, report.messages, report.duplicates
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run_collect(args: CollectArgs) -> anyhow::Result<ExitCode> {
    let queue = Queue::connect(&args.nats)?;
    let report = collect(&queue, args.plan.as_deref(), &args.output)?;
    eprintln!(
        "plan {}: {} result messages read, {} work messages still queued",
        report.digest, report.results, report.queued
    );
    Ok(print_merge_report(&report.merge, &args.output, false))
}

pub fn run_worker(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let queue = Queue::connect(&args.nats)?;
    // Instances allocated on demand: a worker plays one match at a time, of any game and size.
    let arena = args.cache.arena()?;
    let options = WorkerOptions {
        bots_dir: args.bots_dir,
        bots_from: args.bots_from,
        identity: args
            .token
            .or_else(|| std::env::var("ARENA_WORKER_TOKEN").ok())
            .as_deref()
            .map(WorkerIdentity::from_token)
            .transpose()?,
        lie_every: args.test_lie_every,
        idle_exit: args.idle_exit.map(Duration::from_secs),
    };
    let quiet = args.quiet;
    let progress = |report: &WorkerReport| {
        if !quiet && report.batches.is_multiple_of(100) {
            eprintln!("{} batches: {} matches played, {} not played", report.batches, report.played, report.not_played);
        }
    };
    let report = work(&queue, &arena, &options, &progress)?;
    if !quiet {
        eprintln!(
            "queue empty for {}s: {} batches, {} matches played, {} not played, {} refused, {} handed back",
            args.idle_exit.unwrap_or_default(),
            report.batches,
            report.played,
            report.not_played,
            report.refused,
            report.retried
        );
    }
    Ok(ExitCode::SUCCESS)
}
