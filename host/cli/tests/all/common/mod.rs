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

pub mod ladder;
#[cfg(feature = "nats")]
pub mod nats;
/// The PostgreSQL cluster the ladder's store suite starts, shared with the several-node test.
#[cfg(feature = "nats")]
#[path = "../../../../serve/tests/common/postgres.rs"]
pub mod postgres;
pub mod stack_fuel;

/// `arena games --json`: every game's info, in the registry's order.
pub fn listed_games() -> Vec<serde_json::Value> {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str::<serde_json::Value>(stdout(&out).trim()).unwrap().as_array().unwrap().clone()
}

/// `arena match --game GAME --json ARGS...`, which must succeed with one line of JSON: the result.
pub fn match_json(game: &str, args: &[&str]) -> serde_json::Value {
    let out = arena(&[&["match", "--game", game, "--json"], args].concat());
    assert_eq!(out.status.code(), Some(0), "{game}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.trim().lines().count(), 1, "{game}: one line of JSON: {text}");
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(json["game"], game);
    json
}

/// A result whose seats hold `bots` (by name) with clean books: each spent fuel (its most in
/// one turn no more than its total), no suspension, trap, invalid action or forfeit.
pub fn assert_clean_seats(json: &serde_json::Value, bots: &[&str]) {
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), bots.len(), "{json}");
    for (seat, player) in players.iter().enumerate() {
        assert_eq!(player["bot"], bots[seat], "seat {seat}");
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "seat {seat} spends fuel: {player}");
        assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "seat {seat} {counter}: {player}");
        }
        assert_eq!(player["forfeit"], false, "seat {seat}: {player}");
    }
}

/// `arena replay verify REPLAY` says "identical".
pub fn assert_replay_identical(replay: &Path) {
    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}: {}", replay.display(), stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical", "{}", replay.display());
}
