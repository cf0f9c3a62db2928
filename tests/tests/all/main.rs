//! All of this crate's integration tests, in one binary so the crate's dependencies are linked
//! once rather than once per file (wasmtime's `tests/all` layout). A new test file goes in this
//! folder with a `mod` line below; run one file's tests with `cargo test --test all <file>::`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test binary: a failed assumption stops the test (clippy.toml)

mod azul;
mod budget;
mod code_character;
mod compile_bounds;
mod determinism;
mod docs;
mod eubots;
mod every_game;
mod faults;
mod hostile_input;
mod lang_c;
mod lang_faults;
mod lang_js;
mod lang_python;
mod paint;
mod paint_protocol;
mod profiler;
mod protocol;
mod sandbox;
mod stdio_js;
mod stdio_pipes;
mod stdio_python;
mod suitebot;
mod suitebot_protocol;
