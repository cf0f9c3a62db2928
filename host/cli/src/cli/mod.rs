//! The command line: argument parsing and dispatch to one module per subcommand.

/// `println!` for the CLI's stdout: a closed pipe (`arena ... | head`) ends the output quietly
/// instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_line(&format!($($arg)*))
    };
}

mod budget_args;
mod cache_cmd;
mod compile_worker_cmd;
mod data_args;
mod fuel_cmd;
mod games_cmd;
mod ladder_dump_cmd;
mod match_cmd;
mod merge_report;
mod new_bot_cmd;
mod output;
mod profile_cmd;
#[cfg(feature = "nats")]
mod queue_cmd;
mod replay_cmd;
mod series;
mod serve_cmd;
mod tournament_cmd;
mod transitions_cmd;
mod view_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Wasm Arena: runs game bots compiled to WebAssembly under a deterministic fuel budget.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play one match between bots and print the result.
    #[command(after_help = match_cmd::EXAMPLES)]
    Match(match_cmd::MatchArgs),
    /// Work with replay files.
    #[command(subcommand)]
    Replay(replay_cmd::ReplayCommand),
    /// Write a replay as one self-contained HTML page that replays the match in a browser.
    #[command(after_help = view_cmd::EXAMPLES)]
    View(view_cmd::ViewArgs),
    /// Check transition fixtures (upstream format) against the engine.
    #[command(after_help = transitions_cmd::EXAMPLES)]
    CheckTransitions(transitions_cmd::TransitionArgs),
    /// The compiled-artifact cache: where it is, what it holds; clear it.
    #[command(subcommand, after_help = cache_cmd::EXAMPLES)]
    Cache(cache_cmd::CacheCommand),
    /// Measure what bots spend: start-up and per-turn fuel, and what the budgets buy.
    #[command(after_help = fuel_cmd::EXAMPLES)]
    Fuel(fuel_cmd::FuelArgs),
    /// Where did a bot's fuel go: sample its wasm call stack every N units of fuel over one match.
    #[command(after_help = profile_cmd::EXAMPLES)]
    Profile(profile_cmd::ProfileArgs),
    /// Run a whole competition from a SPEC file (round robin, gauntlet or swiss; every pairing
    /// on the same seeds in every seat order), on every core, resumable, with ratings.
    #[command(subcommand, after_help = tournament_cmd::EXAMPLES)]
    Tournament(tournament_cmd::TournamentCommand),
    /// Play matches from a NATS JetStream work queue (`arena tournament enqueue` fills it),
    /// publishing each result before acking its message.
    #[cfg(feature = "nats")]
    #[command(after_help = queue_cmd::WORKER_EXAMPLES)]
    Worker(queue_cmd::WorkerArgs),
    /// Run the ladder service: uploads checked and validated, continuous rated matches, pages
    /// and a JSON API (`arena serve admin` administers it).
    #[command(after_help = serve_cmd::SERVE_EXAMPLES)]
    Serve(serve_cmd::ServeArgs),
    /// Upload a bot to a ladder server (`arena serve`) and, with --wait, report its checks.
    #[command(after_help = serve_cmd::SUBMIT_EXAMPLES)]
    Submit(serve_cmd::SubmitArgs),
    /// Print a game's leaderboard from a ladder server (`arena ladder bot`: a bot; `arena ladder
    /// matches`: the latest matches).
    #[command(after_help = serve_cmd::LADDER_EXAMPLES)]
    Ladder(serve_cmd::LadderArgs),
    /// Create a bot project from a template (Rust for every game; C, Python, JavaScript, Go, C++,
    /// Zig or AssemblyScript for some).
    #[command(after_help = new_bot_cmd::EXAMPLES)]
    NewBot(new_bot_cmd::NewBotArgs),
    /// List the games, their player counts, options and the bots they accept.
    #[command(after_help = games_cmd::EXAMPLES)]
    Games {
        /// Print one JSON array instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Internal: compile a component read from stdin under a memory bound (started by the
    /// commands that load bots).
    #[command(name = arena_host::compile::WORKER_SUBCOMMAND, hide = true)]
    CompileWorker(compile_worker_cmd::WorkerArgs),
}

/// Runs a parsed command line; `Err` is a usage or input problem (exit status 2).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Match(args) => match_cmd::run(args),
        Command::Replay(command) => replay_cmd::run(command),
        Command::View(args) => view_cmd::run(args),
        Command::Cache(command) => cache_cmd::run(command),
        Command::Fuel(args) => fuel_cmd::run(args),
        Command::Profile(args) => profile_cmd::run(args),
        Command::Tournament(command) => tournament_cmd::run_command(command),
        Command::NewBot(args) => new_bot_cmd::run(args),
        Command::Serve(args) => serve_cmd::run(args),
        Command::Submit(args) => serve_cmd::submit(args),
        Command::Ladder(args) => serve_cmd::ladder(args),
        #[cfg(feature = "nats")]
        Command::Worker(args) => queue_cmd::run_worker(args),
        Command::Games { json } => games_cmd::run(json),
        Command::CheckTransitions(args) => transitions_cmd::run(args),
        Command::CompileWorker(args) => compile_worker_cmd::run(args),
    }
}

/// Writes one line to stdout; a broken pipe exits quietly (status 0: the reader is gone).
pub fn write_line(line: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = writeln!(stdout, "{line}")
        && err.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// Parses `SEAT=PATH` (a seat's bot file or data folder).
pub fn parse_seat_path(text: &str) -> Result<(usize, std::path::PathBuf), String> {
    let (seat, path) = parse_key_value(text)?;
    let seat = seat.parse().map_err(|_| format!("seat {seat:?} is not a number"))?;
    Ok((seat, std::path::PathBuf::from(path)))
}

/// Parses `KEY=VALUE`.
pub fn parse_key_value(text: &str) -> Result<(String, String), String> {
    let (key, value) = text.split_once('=').ok_or_else(|| format!("expected KEY=VALUE, got {text:?}"))?;
    Ok((key.to_owned(), value.to_owned()))
}
