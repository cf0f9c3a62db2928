//! `arena tournament`: `init` prints a starter SPEC, `run` plays (or resumes) a SPEC into its
//! database with progress, `show` prints a database's leaderboard (also during a run), `plan`
//! writes every match of a SPEC as JSON lines.

use anyhow::Context;
use arena_host::tournament::leaderboard::{self, Style};
use arena_host::tournament::plan::plan;
use arena_host::tournament::run::{Progress, run};
use arena_host::tournament::spec::{Resolved, Spec, starter};
use arena_host::tournament::store::Store;
use clap::{Args, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena tournament init --game azul target/bots/azul-greedy.wasm target/bots/azul-random.wasm > spec.toml
  arena tournament run spec.toml --jobs 2      # rerun to resume after an interruption
  arena tournament show tournament.sqlite --format json
  arena tournament plan spec.toml -o plan.jsonl";

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
    /// Write every match of a SPEC, one JSON object per line: its id and full spec.
    Plan {
        /// The SPEC file.
        spec: PathBuf,
        /// Where to write (default: stdout).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
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
    /// Leaderboard format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Table)]
    format: ShowFormat,
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
        TournamentCommand::Init { game, bots } => {
            if arena_host::registry::find_game(&game).is_none() {
                anyhow::bail!("unknown game {game:?} (games: {})", arena_host::registry::game_names().join(", "));
            }
            outln!("{}", starter(&game, &bots).trim_end());
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Run(args) => run_tournament(args),
        TournamentCommand::Show { db, format } => show(&db, format),
        TournamentCommand::Plan { spec, output } => write_plan(&spec, output.as_deref()),
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
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(usize::from).unwrap_or(1)).max(1);
    let arena = args.cache.arena()?;
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(0);
        let style =
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} matches  {per_sec}  ETA {eta}  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        bar
    });
    // Without a terminal: a line at every tenth of the run.
    let plain = !args.quiet && bar.is_none();
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
    let report = run(&arena, &spec, &database, jobs, &progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if !args.quiet {
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
    let store = Store::open(&database)?;
    let board = leaderboard::read(&store, Some(&report.spec_digest))?.context("the run recorded no plan")?;
    outln!("{}", leaderboard::render(&board, args.format.style()));
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
    let plan = plan(&spec)?;
    let mut lines = String::new();
    for planned in &plan.matches {
        let bots: Vec<_> = planned.seating.iter().map(|&bot| &plan.bots[bot]).collect();
        let line = serde_json::json!({ "id": planned.id, "spec": planned.spec, "bots": bots });
        lines.push_str(&line.to_string());
        lines.push('\n');
    }
    match output {
        Some(path) => std::fs::write(path, lines).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{lines}"),
    }
    Ok(ExitCode::SUCCESS)
}
