//! `arena tournament`: `init` prints a starter SPEC, `run` plays (or resumes) a SPEC into its
//! database with progress, `show` prints a database's leaderboard (also during a run), `plan`
//! writes every match of a SPEC as JSON lines, `run-plan` plays one shard of such a plan into its
//! own database, `merge` joins the shards' databases, `emit slurm` and `emit k8s` print what runs
//! a plan's shards on a cluster scheduler, and (feature `nats`) `enqueue` and `collect` put a plan
//! on a NATS JetStream work queue for `arena worker`s and merge what they played.

use anyhow::Context;
use arena_host::engine::ArenaOptions;
use arena_host::runtime::Arena;
use arena_tournament::k8s::{IndexedJob, merge_job, shards_job};
use arena_tournament::leaderboard::{self, Style};
use arena_tournament::merge::merge;
use arena_tournament::plan::{Plan, plan};
use arena_tournament::report::write_site;
use arena_tournament::run::{Progress, RunOptions, RunReport, Shard, TournamentError, run_plan};
use arena_tournament::run_spec;
use arena_tournament::slurm::{SlurmJob, merge_script, shards_script};
use arena_tournament::spec::{Format, Resolved, Spec, relative_to, starter};
use arena_tournament::store::Store;
use clap::{Args, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The examples of the NATS work queue's commands, which a build without the `nats` feature does
/// not have.
#[cfg(feature = "nats")]
macro_rules! queue_examples {
    () => {
        "  arena tournament enqueue --nats nats://127.0.0.1:4222 plan.jsonl   # then `arena worker --nats ...`, see its --help
  arena tournament collect --nats nats://127.0.0.1:4222 -o all.sqlite
"
    };
}
#[cfg(not(feature = "nats"))]
macro_rules! queue_examples {
    () => {
        ""
    };
}

pub const EXAMPLES: &str = concat!(
    "\
Examples:
  arena tournament init --game azul target/bots/azul-greedy.wasm target/bots/azul-random.wasm > spec.toml
  arena tournament run spec.toml --jobs 2      # rerun to resume after an interruption
  arena tournament show tournament.sqlite --format json
  arena tournament plan spec.toml -o plan.jsonl
  arena tournament run-plan plan.jsonl --shard 0/3 --db shard-0.sqlite   # likewise 1/3, 2/3
  arena tournament merge shard-0.sqlite shard-1.sqlite shard-2.sqlite -o all.sqlite
  arena tournament emit slurm --plan plan.jsonl --shards 8 > shards.sbatch   # see `emit slurm --help`
",
    queue_examples!(),
    "  arena tournament run spec.toml --replays replays/ && arena tournament report tournament.sqlite -o site/"
);

#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Print a starter SPEC (a seat-swapped round robin on 10 seeds) for these bots.
    Init {
        /// The game.
        #[arg(long)]
        game: String,
        /// Bot files or folders of .wasm files.
        #[arg(required = true, value_name = "BOT")]
        bots: Vec<String>,
        /// Write the SPEC to FILE (refused if it exists; its folder is created), its bot paths
        /// rewritten to resolve from FILE's folder; without it the SPEC goes to stdout with the paths as given, which
        /// resolve when it is saved in the current folder.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Play every match of a SPEC the database does not have yet, then print the leaderboard.
    Run(RunArgs),
    /// Print a database's leaderboard (works while a run is writing it).
    Show {
        /// The database.
        db: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ShowFormat::Table)]
        format: ShowFormat,
    },
    /// Play one shard of a plan file (`plan` writes one) into its own database; rerunning it
    /// resumes it, and a finished shard exits at once.
    RunPlan(RunPlanArgs),
    /// Merge shard databases of one plan into a new database: every planned match present,
    /// duplicates compared byte for byte (a difference is a determinism failure: exit 1).
    Merge {
        /// The shard databases.
        #[arg(required = true, value_name = "SHARD_DB")]
        inputs: Vec<PathBuf>,
        /// The merged database (must not exist).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Print only the indices of the shards with missing matches, comma-separated as
        /// `sbatch --array=` takes them (nothing when every match is present).
        #[arg(long)]
        missing_shards: bool,
    },
    /// Publish a plan's matches to a NATS JetStream work queue for `arena worker`s (enqueueing
    /// the same plan again adds nothing).
    #[cfg(feature = "nats")]
    #[command(after_help = super::queue_cmd::WORKER_EXAMPLES)]
    Enqueue(super::queue_cmd::EnqueueArgs),
    /// Merge every result the workers published for a plan into a new database: every planned
    /// match once, copies compared byte for byte (a difference is a determinism failure: exit 1).
    #[cfg(feature = "nats")]
    #[command(after_help = super::queue_cmd::WORKER_EXAMPLES)]
    Collect(super::queue_cmd::CollectArgs),
    /// Print the scripts that run a plan on a cluster scheduler.
    #[command(subcommand)]
    Emit(EmitCommand),
    /// Write the results as a static site: the leaderboard (sortable), a page per bot, and a
    /// replay viewer page for every match whose replay was kept (`run --replays DIR`).
    Report {
        /// The database.
        db: PathBuf,
        /// The site's folder (created; pages in it are replaced).
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        output: PathBuf,
        /// Where the replays are (default: the folder the last `run --replays` kept them in).
        #[arg(long, value_name = "DIR")]
        replays: Option<PathBuf>,
    },
    /// Write every match of a SPEC, one JSON object per line: its id and full spec.
    Plan {
        /// The SPEC file.
        spec: PathBuf,
        /// Where to write (default: stdout).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum EmitCommand {
    /// A Slurm job array with one shard of the plan per task (`--requeue`; reruns resume), or
    /// with --merge the job that merges the shards (submit it with --dependency=afterany).
    #[command(after_help = SLURM_EXAMPLES)]
    Slurm(SlurmArgs),
    /// A Kubernetes Indexed Job with one shard of the plan per completion index (each index
    /// retried on its own), or with --merge the Job that merges the shards; JSON, which
    /// `kubectl apply -f` reads.
    #[command(after_help = K8S_EXAMPLES)]
    K8s(K8sArgs),
}

const K8S_EXAMPLES: &str = "\
Examples:
  arena tournament emit k8s --plan plan.jsonl --shards 8 --parallel 4 --image registry.example/arena:1 > shards.json
  arena tournament emit k8s --plan plan.jsonl --shards 8 --image registry.example/arena:1 --merge > merge.json
  kubectl apply -f shards.json && kubectl wait --for=condition=complete --timeout=24h job/<name>
  kubectl apply -f merge.json

The pods mount the PersistentVolumeClaim --claim at --mount; copy the plan there first (as
plan.jsonl, or say where with --plan-in-pod). Results go to <mount>/results. The image must hold
`arena` on its PATH, and `sh`.";

/// What `emit` runs: a plan, in shards, so many at once.
#[derive(Debug, Args)]
pub struct ShardedPlan {
    /// The plan file (`arena tournament plan SPEC -o plan.jsonl`).
    #[arg(long, value_name = "FILE")]
    plan: PathBuf,
    /// Shards: array tasks or completion indexes 0 to N-1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    shards: u32,
    /// At most P shards at once (Slurm: `--array=...%P`, default no limit; Kubernetes: the
    /// Job's parallelism, default every shard).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..))]
    parallel: Option<u32>,
}

#[derive(Debug, Args)]
pub struct K8sArgs {
    #[command(flatten)]
    sharded: ShardedPlan,
    /// The container image (with `arena` on its PATH).
    #[arg(long, value_name = "IMAGE")]
    image: String,
    /// The PersistentVolumeClaim with the plan and the results.
    #[arg(long, value_name = "NAME", default_value = "arena-data")]
    claim: String,
    /// Where the pods mount it.
    #[arg(long, value_name = "DIR", default_value = "/data")]
    mount: String,
    /// The plan's path in the pods (default: the plan's file name in the mount folder).
    #[arg(long, value_name = "PATH")]
    plan_in_pod: Option<String>,
    /// Retries of one shard before it counts as failed.
    #[arg(long, value_name = "N", default_value_t = 3)]
    backoff_limit_per_index: u32,
    /// CPUs per pod: the matches each shard plays at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    cpus: u32,
    /// Print the merge Job instead of the Indexed Job.
    #[arg(long)]
    merge: bool,
}

const SLURM_EXAMPLES: &str = "\
Examples:
  arena tournament plan spec.toml -o plan.jsonl
  arena tournament emit slurm --plan plan.jsonl --shards 8 --parallel 4 > shards.sbatch
  arena tournament emit slurm --plan plan.jsonl --shards 8 --merge > merge.sbatch
  jid=$(sbatch --parsable shards.sbatch) && sbatch --dependency=afterany:${jid%%;*} merge.sbatch
  # if results/missing-shards.txt is not empty once the merge has run:
  sbatch --array=$(cat results/missing-shards.txt) shards.sbatch   # then the merge again

The plan, the results folder and the arena executable must be reachable from every node at the
same paths (a shared file system); the paths in the scripts are absolute.";

#[derive(Debug, Args)]
pub struct SlurmArgs {
    #[command(flatten)]
    sharded: ShardedPlan,
    /// CPUs per task: the matches each shard plays at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    cpus_per_task: u32,
    /// The shared folder for the shard databases, their logs and the merged database (created).
    #[arg(long, value_name = "DIR", default_value = "results")]
    results: PathBuf,
    /// The arena executable the nodes run (default: this one).
    #[arg(long, value_name = "PATH")]
    arena: Option<PathBuf>,
    /// Print the merge job instead of the array.
    #[arg(long)]
    merge: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The SPEC file (TOML; `arena tournament init` prints one).
    spec: PathBuf,
    /// The results database (default: the SPEC's `database`).
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Matches played at once (default: every core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Print nothing but the leaderboard.
    #[arg(long)]
    quiet: bool,
    /// Keep every played match's replay, gzip-compressed, as `DIR/<match id>.json.gz`.
    #[arg(long, value_name = "DIR")]
    replays: Option<PathBuf>,
    /// Leaderboard format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Table)]
    format: ShowFormat,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

#[derive(Debug, Args)]
pub struct RunPlanArgs {
    /// The plan file (`arena tournament plan SPEC -o plan.jsonl`).
    plan: PathBuf,
    /// Which shard to play: I/N plays the matches whose line number (from 0) is I modulo N.
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// The shard's database.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// Matches played at once (default: every core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Print nothing but errors.
    #[arg(long)]
    quiet: bool,
    /// Keep every played match's replay, gzip-compressed, as `DIR/<match id>.json.gz`.
    #[arg(long, value_name = "DIR")]
    replays: Option<PathBuf>,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Table,
    Json,
    Csv,
    Markdown,
}

impl ShowFormat {
    fn style(self) -> Style {
        match self {
            ShowFormat::Table => Style::Table,
            ShowFormat::Json => Style::Json,
            ShowFormat::Csv => Style::Csv,
            ShowFormat::Markdown => Style::Markdown,
        }
    }
}

pub fn run_command(command: TournamentCommand) -> anyhow::Result<ExitCode> {
    match command {
        TournamentCommand::Init { game, bots, output } => {
            if arena_host::registry::find_game(&game).is_none() {
                anyhow::bail!("unknown game {game:?} (games: {})", arena_host::registry::game_names().join(", "));
            }
            let Some(output) = output else {
                outln!("{}", starter(&game, &bots).trim_end());
                return Ok(ExitCode::SUCCESS);
            };
            let here = std::env::current_dir().context("cannot read the current folder")?;
            let spec_dir = here.join(&output).parent().map(Path::to_path_buf).unwrap_or_else(|| here.clone());
            let bots: Vec<String> =
                bots.iter().map(|bot| relative_to(&here.join(bot), &spec_dir).to_string_lossy().into_owned()).collect();
            std::fs::create_dir_all(&spec_dir).with_context(|| format!("cannot create {}", spec_dir.display()))?;
            let mut file =
                std::fs::OpenOptions::new().write(true).create_new(true).open(&output).with_context(|| {
                    format!("cannot create {} (an existing SPEC is never overwritten)", output.display())
                })?;
            std::io::Write::write_all(&mut file, starter(&game, &bots).as_bytes())
                .with_context(|| format!("cannot write {}", output.display()))?;
            eprintln!("wrote {} ({} bot paths, relative to its folder)", output.display(), bots.len());
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Run(args) => run_tournament(args),
        TournamentCommand::Show { db, format } => show(&db, format),
        TournamentCommand::Report { db, output, replays } => report(&db, &output, replays),
        TournamentCommand::Plan { spec, output } => write_plan(&spec, output.as_deref()),
        TournamentCommand::RunPlan(args) => run_shard(args),
        TournamentCommand::Merge { inputs, output, missing_shards } => merge_shards(&inputs, &output, missing_shards),
        TournamentCommand::Emit(EmitCommand::Slurm(args)) => emit_slurm(&args),
        TournamentCommand::Emit(EmitCommand::K8s(args)) => emit_k8s(&args),
        #[cfg(feature = "nats")]
        TournamentCommand::Enqueue(args) => super::queue_cmd::run_enqueue(args),
        #[cfg(feature = "nats")]
        TournamentCommand::Collect(args) => super::queue_cmd::run_collect(args),
    }
}

/// Reads and checks a SPEC; relative paths in it are relative to its folder.
fn resolve(path: &Path) -> anyhow::Result<Resolved> {
    let spec = Spec::read(path)?;
    let base = path.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok(spec.resolve(path, base)?)
}

fn run_tournament(args: RunArgs) -> anyhow::Result<ExitCode> {
    let spec = resolve(&args.spec)?;
    let database = args.db.clone().unwrap_or_else(|| spec.database.clone());
    let options = run_options(args.jobs, args.replays);
    let arena = tournament_arena(&args.cache, options.jobs, spec.players, spec.budget.memory_mib)?;
    let report = play(&database, args.quiet, &|progress| run_spec(&arena, &spec, &database, &options, progress))?;
    let store = Store::open(&database)?;
    let board = leaderboard::read(&store, Some(&report.spec_digest))?.context("the run recorded no plan")?;
    outln!("{}", leaderboard::render(&board, args.format.style()));
    Ok(ExitCode::SUCCESS)
}

fn run_shard(args: RunPlanArgs) -> anyhow::Result<ExitCode> {
    let text = arena_host::regular_file::read_text(&args.plan, arena_tournament::plan::MAX_PLAN_FILE)?;
    let plan = Plan::from_jsonl(&text).with_context(|| args.plan.display().to_string())?;
    Store::open(&args.db)?.record_shard(&format!("{}/{}", args.shard.index, args.shard.count))?;
    let options = run_options(args.jobs, args.replays);
    let (players, memory_mib) =
        plan.matches.first().map_or((2, 0), |first| (first.seating.len(), first.spec.budget.memory_mib));
    let arena = tournament_arena(&args.cache, options.jobs, players, memory_mib)?;
    play(&args.db, args.quiet, &|progress| run_plan(&arena, &plan, args.shard, &args.db, &options, progress))?;
    Ok(ExitCode::SUCCESS)
}

/// Reads and checks a plan file for `emit`, refusing one that plans nothing; returns its digest
/// (the jobs are named after it).
fn plan_digest(path: &Path) -> anyhow::Result<String> {
    let text = arena_host::regular_file::read_text(path, arena_tournament::plan::MAX_PLAN_FILE)?;
    let plan = Plan::from_jsonl(&text).with_context(|| path.display().to_string())?;
    if plan.matches.is_empty() {
        anyhow::bail!("{} plans no match", path.display());
    }
    Ok(arena_tournament::run::spec_digest(&plan))
}

/// Prints a Kubernetes Job for a plan (see [`arena_tournament::k8s`]).
fn emit_k8s(args: &K8sArgs) -> anyhow::Result<ExitCode> {
    let digest = plan_digest(&args.sharded.plan)?;
    let file_name = args.sharded.plan.file_name().map_or_else(|| "plan.jsonl".into(), |name| name.to_string_lossy());
    let mount = args.mount.trim_end_matches('/');
    let plan = args.plan_in_pod.clone().unwrap_or_else(|| format!("{mount}/{file_name}"));
    let results = format!("{mount}/results");
    let name = format!("arena-{}", &digest[..12]);
    let job = IndexedJob {
        name: &name,
        image: &args.image,
        claim: &args.claim,
        mount: &args.mount,
        plan: &plan,
        results: &results,
        shards: args.sharded.shards as usize,
        parallel: args.sharded.parallel.unwrap_or(args.sharded.shards) as usize,
        backoff_limit_per_index: args.backoff_limit_per_index,
        cpus: args.cpus as usize,
    };
    outln!("{}", if args.merge { merge_job(&job) } else { shards_job(&job) });
    Ok(ExitCode::SUCCESS)
}

/// Prints a Slurm batch script for a plan (see [`arena_tournament::slurm`]).
fn emit_slurm(args: &SlurmArgs) -> anyhow::Result<ExitCode> {
    let digest = plan_digest(&args.sharded.plan)?;
    std::fs::create_dir_all(&args.results).with_context(|| format!("cannot create {}", args.results.display()))?;
    let absolute = |path: &Path| path.canonicalize().with_context(|| format!("cannot resolve {}", path.display()));
    let arena = match &args.arena {
        Some(path) => path.clone(),
        None => std::env::current_exe().context("cannot tell where this arena executable is")?,
    };
    let (plan_path, results) = (absolute(&args.sharded.plan)?, absolute(&args.results)?);
    let job = SlurmJob {
        arena: &arena,
        plan: &plan_path,
        results: &results,
        shards: args.sharded.shards as usize,
        parallel: args.sharded.parallel.map(|parallel| parallel as usize),
        cpus_per_task: args.cpus_per_task as usize,
        name: &digest[..12],
    };
    let script = if args.merge { merge_script(&job) } else { shards_script(&job) };
    outln!("{}", script.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn merge_shards(inputs: &[PathBuf], output: &Path, missing_shards: bool) -> anyhow::Result<ExitCode> {
    let report = merge(inputs, output)?;
    Ok(super::merge_report::print_merge_report(&report, output, missing_shards))
}

/// A run, given where to report progress.
type Runner<'a> = dyn Fn(&(dyn Fn(Progress) + Sync)) -> Result<RunReport, TournamentError> + 'a;

/// The arena a tournament plays on ([`ArenaOptions::for_tournament`]: instances pooled), or,
/// where the pool cannot be reserved (a limit on address space), instances allocated on
/// demand, with a warning.
fn tournament_arena(
    cache: &super::cache_cmd::UseCacheArgs,
    jobs: usize,
    players: usize,
    memory_mib: u32,
) -> anyhow::Result<Arena> {
    match Arena::with_options(ArenaOptions::for_tournament(jobs, players, memory_mib)) {
        Ok(arena) => cache.arena_with(arena),
        Err(err) => {
            eprintln!("warning: allocating instances on demand (the instance pool could not be reserved: {err:#})");
            cache.arena()
        }
    }
}

/// `--jobs` (default: every core) and `--replays`.
fn run_options(jobs: Option<usize>, replays: Option<PathBuf>) -> RunOptions {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map(usize::from).unwrap_or(1)).max(1);
    RunOptions { jobs, replays }
}

/// Runs `runner` with progress on stderr (a bar on a terminal, a line every tenth otherwise,
/// nothing when `quiet`), then reports what the run did to `database`.
fn play(database: &Path, quiet: bool, runner: &Runner<'_>) -> anyhow::Result<RunReport> {
    let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(0);
        let style =
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} matches  {per_sec}  ETA {eta}  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        bar
    });
    let plain = !quiet && bar.is_none();
    let progress = |progress: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(progress.total as u64);
            bar.set_position(progress.done as u64);
            bar.set_message(format!("{} forfeits", progress.forfeits));
        } else if plain && progress.total > 0 {
            let tenth = progress.total.div_ceil(10);
            if progress.done.is_multiple_of(tenth) || progress.done == progress.total {
                eprintln!("{}/{} matches, {} forfeits", progress.done, progress.total, progress.forfeits);
            }
        }
    };
    let report = runner(&progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if !quiet {
        for (path, error) in &report.load_errors {
            eprintln!("{} was not loaded, its matches are not played: {error}", path.display());
        }
        if report.other_results > 0 {
            eprintln!(
                "{} results in {} belong to another SPEC (kept, not counted here)",
                report.other_results,
                database.display()
            );
        }
        eprintln!(
            "{} matches planned: {} already in {}, {} played now, {} not played{}",
            report.planned,
            report.already_done,
            database.display(),
            report.played,
            report.not_played,
            match report.retry {
                0 => String::new(),
                n => format!(", {n} to retry (the host ran out of instances: run again)"),
            }
        );
    }
    Ok(report)
}

fn report(db: &Path, output: &Path, replays: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(db.is_file(), "{} does not exist", db.display());
    let store = Store::open(db)?;
    let replays = match replays {
        Some(dir) => Some(dir),
        None => store.replays_dir()?,
    };
    let written = write_site(&store, output, replays.as_deref())?;
    for (id, why) in &written.unreadable {
        eprintln!("match {id}: no viewer page: {why}");
    }
    eprintln!(
        "wrote {}: the leaderboard, {} bot pages, {} match pages ({} played matches without a kept replay)",
        output.join("index.html").display(),
        written.bot_pages,
        written.match_pages,
        written.without_replay
    );
    Ok(ExitCode::SUCCESS)
}

fn show(db: &Path, format: ShowFormat) -> anyhow::Result<ExitCode> {
    if !db.is_file() {
        anyhow::bail!("{} does not exist", db.display());
    }
    let store = Store::open(db)?;
    let board =
        leaderboard::read(&store, None)?.with_context(|| format!("{} holds no tournament yet", db.display()))?;
    outln!("{}", leaderboard::render(&board, format.style()));
    Ok(ExitCode::SUCCESS)
}

fn write_plan(spec_path: &Path, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    let spec = resolve(spec_path)?;
    if spec.format == Format::Swiss {
        anyhow::bail!(
            "{}: a swiss tournament is paired round by round from its results, so it has no plan in \
             advance: run it with `arena tournament run`",
            spec_path.display()
        );
    }
    let plan = plan(&spec)?;
    let lines = plan.to_jsonl();
    match output {
        Some(path) => std::fs::write(path, lines).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{lines}"),
    }
    Ok(ExitCode::SUCCESS)
}
