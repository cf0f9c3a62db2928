//! All of this crate's integration tests, in one binary so the crate's dependencies are linked
//! once rather than once per file (wasmtime's `tests/all` layout). A new test file goes in this
//! folder with a `mod` line below; run one file's tests with `cargo test --test all <file>::`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test binary: a failed assumption stops the test (clippy.toml)

mod cli;
mod cli_cache;
mod cli_code_character;
mod cli_compile;
mod cli_data;
mod cli_eubots;
mod cli_fuel;
mod cli_games;
mod cli_k8s;
mod cli_paint;
mod cli_profile;
mod cli_replay_files;
mod cli_slurm;
mod cli_suitebot;
mod cli_tournament;
mod cli_transitions;
#[cfg(feature = "nats")]
mod cluster_nats;
mod cluster_slurm;
mod common;
mod determinism_matrix;
mod ladder;
#[cfg(feature = "nats")]
mod ladder_audit;
mod ladder_browser;
mod ladder_competition;
mod ladder_data;
mod ladder_dump;
#[cfg(feature = "nats")]
mod ladder_nats;
#[cfg(feature = "nats")]
mod ladder_nodes;
#[cfg(feature = "nats")]
mod ladder_private;
mod sandbox_preview1;
mod sandbox_runtime;
mod structure;
mod view;
