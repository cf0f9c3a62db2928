//! All of this crate's integration tests, in one binary so the crate's dependencies are linked
//! once rather than once per file (wasmtime's `tests/all` layout). A new test file goes in this
//! folder with a `mod` line below; run one file's tests with `cargo test --test all <file>::`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test binary: a failed assumption stops the test (clippy.toml)

mod conformance;
mod golden;
mod properties;
mod rules;
mod view;
