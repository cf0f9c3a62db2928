//! Tournaments: a whole competition from one SPEC file, on every core of one machine, into an
//! embedded SQLite database, resumable at any point.
//!
//! - [`spec`]: the SPEC (TOML), checked before any match starts.
//! - [`plan`]: every match, each identified by the sha256 of its canonical spec.
//! - [`store`]: the results database, one transaction per finished match; [`lock`]: one run
//!   writes a database at a time.
//! - [`run`]: playing the matches the database lacks (of the whole plan, or of one shard) on
//!   worker threads.
//! - [`ratings`] and [`leaderboard`]: the standings, computed from every result at once.
//! - [`swiss`]: the swiss format, paired round by round from the results so far.
//! - [`merge`]: shard databases of one plan into one, checked for gaps and disagreements.
//! - [`report`]: the results as a static site, with a viewer page for every kept replay.
//! - [`slurm`]: batch scripts that run a plan's shards as a Slurm job array, and merge them;
//!   [`k8s`]: the same as a Kubernetes Indexed Job.

pub mod bracket;
pub mod k8s;
pub mod leaderboard;
pub mod lock;
pub mod merge;
#[cfg(feature = "nats")]
pub mod nats;
pub mod plan;
pub mod ratings;
pub mod report;
pub mod run;
pub mod slurm;
pub mod spec;
pub mod store;
pub mod swiss;

use run::{Progress, RunOptions, RunReport, TournamentError, run_plan};
use spec::{Format, Resolved};
use std::path::Path;

/// Runs (or resumes) the tournament `spec` into the database at `database`, calling `progress`
/// after every finished match: the whole plan at once, or a swiss tournament round by round.
/// Its bots load within the SPEC's data limits, whatever `arena`'s.
pub fn run_spec(
    arena: &arena_host::runtime::Arena,
    spec: &Resolved,
    database: &Path,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RunReport, TournamentError> {
    let arena = &arena.clone().with_data_limits(spec.data_limits);
    match spec.format {
        Format::Swiss => swiss::run_swiss(arena, spec, database, options, progress),
        Format::RoundRobin | Format::Gauntlet => {
            let plan = plan::plan(spec)?;
            run_plan(arena, &plan, run::Shard::WHOLE, database, options, progress)
        }
    }
}
