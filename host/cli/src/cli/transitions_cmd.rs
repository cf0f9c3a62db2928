//! `arena check-transitions`: run upstream-format transition fixtures (`board`, `actions`,
//! `expected`) through the engine and report the first field that differs per failing file.

use arena_paint::fixtures::{FixtureError, Verdict, check_file, fixture_files};
use clap::Args;
use clap::builder::PossibleValuesParser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena check-transitions --game paint games/paint/tests/upstream-transitions/
  arena check-transitions --game paint simple_walk.json walk_collision.json

Prints one line per failing file (the first field that differs, the expected and the actual
value), then `N passed, M failed`. Exit status: 0 when all passed, 1 when any failed, 2 when a
file cannot be read or parsed (named in the message).";

/// Arguments of `arena check-transitions`.
#[derive(Debug, Args)]
pub struct TransitionArgs {
    /// The game whose fixtures these are.
    #[arg(long, value_parser = PossibleValuesParser::new(["paint"]))]
    game: String,
    /// Fixture files, or folders holding `*.json` fixtures.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

pub fn run(args: TransitionArgs) -> anyhow::Result<ExitCode> {
    let mut passed = 0;
    let mut failed = 0;
    let mut unreadable = 0;
    for file in expand(&args.paths) {
        match file.and_then(|file| check_file(&file).map(|verdict| (file, verdict))) {
            Ok((_, Verdict::Pass)) => passed += 1,
            Ok((file, Verdict::Fail { first_difference, expected, got })) => {
                failed += 1;
                outln!("{}: {first_difference}: expected {expected}, got {got}", file.display());
            }
            Err(err) => {
                unreadable += 1;
                eprintln!("error: {err}");
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    Ok(match (unreadable, failed) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(1),
        _ => ExitCode::from(2),
    })
}

/// Files and folders to fixture files, in the order given (folders sorted).
fn expand(paths: &[PathBuf]) -> Vec<Result<PathBuf, FixtureError>> {
    paths
        .iter()
        .flat_map(|path| -> Vec<Result<PathBuf, FixtureError>> {
            if Path::is_dir(path) {
                match fixture_files(path) {
                    Ok(files) => files.into_iter().map(Ok).collect(),
                    Err(err) => vec![Err(err)],
                }
            } else {
                vec![Ok(path.clone())]
            }
        })
        .collect()
}
