//! Tournaments: a whole competition from one SPEC file, on every core of one machine, into an
//! embedded SQLite database, resumable at any point.
//!
//! - [`spec`]: the SPEC (TOML), checked before any match starts.
//! - [`plan`]: every match, each identified by the sha256 of its canonical spec.
//! - [`store`]: the results database, one transaction per finished match.
//! - [`run`]: playing the matches the database lacks (of the whole plan, or of one shard) on
//!   worker threads.
//! - [`ratings`] and [`leaderboard`]: the standings, computed from every result at once.
//! - [`merge`]: shard databases of one plan into one, checked for gaps and disagreements.

pub mod leaderboard;
pub mod merge;
pub mod plan;
pub mod ratings;
pub mod run;
pub mod spec;
pub mod store;
