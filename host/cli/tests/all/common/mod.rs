//! Helpers every `arena` command-line test shares: running the binary, finding built bots,
//! scratch files. Each test binary uses a subset, hence the `dead_code` allowance.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `arena` with `args`, its compiled-artifact cache in this test process's scratch folder
/// (not the user's cache; `--cache-dir` and `--no-cache` still override it).
pub fn arena(args: &[&str]) -> Output {
    arena_with_env(args, &[])
}

/// [`arena`] with extra environment variables (e.g. the compile worker's test hooks).
pub fn arena_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .envs(env.iter().copied())
        .output()
        .expect("run arena")
}

/// The path of a bot built by `cargo xtask bots`, as a string for arguments.
pub fn bot(name: &str) -> String {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let path = target.join("bots").join(format!("{name}.wasm"));
    assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
    path.to_string_lossy().into_owned()
}

/// A file path in this test process's scratch folder, under cargo's per-target scratch space
/// (`target/tmp`, which `cargo clean` removes) rather than the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A command's stdout, lossily decoded.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A command's stderr, lossily decoded.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// [`scratch`], emptied and created: a folder of its own for one test.
pub fn fresh_scratch(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(feature = "nats")]
pub mod nats;
pub mod stack_fuel;
