//! `arena replay verify` and `arena view` on replay files from elsewhere (untrusted files): a
//! small compressed file claiming more turns than its game can last is refused before its turns
//! are held, and a path naming a named pipe (the replay, or a bot the replay names) is refused at
//! once instead of blocking forever. Needs the example bots (`cargo xtask bots`).

use crate::common::{arena, bot, fresh_scratch, scratch, stderr, stdout};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `arena` with `args`, killing it if it has not exited after a minute: a guard that turns
/// a regression that blocks on a named pipe into a failure, not a speed threshold.
fn arena_within_a_minute(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("arena {args:?} blocked for a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Plays azul-greedy against azul-random on seed 3 into `dir/match.json`.
fn played_replay(dir: &Path) -> PathBuf {
    let replay = dir.join("match.json");
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let out =
        arena(&["match", "--game", "azul", &greedy, &random, "--seed", "3", "--replay", replay.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    replay
}

/// `replay`'s JSON with its turns replaced by `turns` copies of its first, gzip-compressed into
/// `path`: written as a stream, as a hostile file would be made.
fn with_turns(replay: &Path, turns: usize, path: &Path) {
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(replay).unwrap()).unwrap();
    let first = json["turns"][0].to_string();
    json["turns"] = serde_json::json!("TURNS");
    let text = json.to_string();
    let (head, tail) = text.split_once("\"TURNS\"").unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    gz.write_all(head.as_bytes()).unwrap();
    gz.write_all(b"[").unwrap();
    for turn in 0..turns {
        if turn > 0 {
            gz.write_all(b",").unwrap();
        }
        gz.write_all(first.as_bytes()).unwrap();
    }
    gz.write_all(b"]").unwrap();
    gz.write_all(tail.as_bytes()).unwrap();
    gz.finish().unwrap();
}

/// Obeyed: a played replay, compressed, verifies and views. Violated: the same replay claiming
/// a hundred thousand turns (a small compressed file) is refused by both commands, naming the file,
/// the game and its limit.
#[test]
fn a_replay_claiming_more_turns_than_its_game_lasts_is_refused() {
    let dir = fresh_scratch("replay-turn-bomb");
    let replay = played_replay(&dir);
    let turns = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&replay).unwrap()).unwrap()["turns"]
        .as_array()
        .unwrap()
        .len();
    let real = dir.join("real.json.gz");
    let text = std::fs::read(&replay).unwrap();
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&real).unwrap(), flate2::Compression::best());
    gz.write_all(&text).unwrap();
    gz.finish().unwrap();
    let verified = arena(&["replay", "verify", real.to_str().unwrap()]);
    assert_eq!(stdout(&verified).trim(), "identical", "{}", stderr(&verified));
    let page = dir.join("real.html");
    let viewed = arena(&["view", real.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(viewed.status.code(), Some(0), "{}", stderr(&viewed));
    assert!(page.exists());

    let bomb = dir.join("bomb.json.gz");
    with_turns(&replay, 100_000, &bomb);
    assert!(std::fs::metadata(&bomb).unwrap().len() < 1 << 20, "a small file");
    assert!(turns < 2000);
    let expected = format!("{}: records more than 2000 turns, and a azul match lasts at most 2000", bomb.display());
    let page = dir.join("bomb.html");
    for args in [
        vec!["replay", "verify", bomb.to_str().unwrap()],
        vec!["view", bomb.to_str().unwrap(), "-o", page.to_str().unwrap()],
    ] {
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(&expected), "{args:?}: {}", stderr(&out));
    }
    assert!(!page.exists(), "no page is written");
}

/// A named pipe nobody writes to, at `path`.
fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Violated: a replay path that is a named pipe, and a replay whose bot path is one, are refused
/// at once (both blocked forever before), saying what the path is; obeyed: the same replay with
/// its bot passed with --bot verifies.
#[test]
fn a_named_pipe_as_the_replay_or_its_bot_is_refused_without_blocking() {
    let dir = fresh_scratch("replay-fifo");
    let pipe = dir.join("pipe.json");
    mkfifo(&pipe);
    let out = arena_within_a_minute(&["replay", "verify", pipe.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let expected = format!("{}: is a named pipe (FIFO), not a regular file", pipe.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    let out = arena_within_a_minute(&["view", pipe.to_str().unwrap(), "-o", dir.join("p.html").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));

    let replay = played_replay(&dir);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let bot_pipe = dir.join("greedy.wasm");
    mkfifo(&bot_pipe);
    json["bots"][0]["path"] = bot_pipe.to_str().unwrap().into();
    let piped = dir.join("piped.json");
    std::fs::write(&piped, json.to_string()).unwrap();
    let out = arena_within_a_minute(&["replay", "verify", piped.to_str().unwrap(), "--bot-dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let expected = format!("seat 0: {}: is a named pipe (FIFO), not a regular file", bot_pipe.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    let greedy = format!("0={}", bot("azul-greedy"));
    let out = arena_within_a_minute(&["replay", "verify", piped.to_str().unwrap(), "--bot", &greedy]);
    assert_eq!(stdout(&out).trim(), "identical", "{}", stderr(&out));
}
