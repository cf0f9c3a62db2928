//! `arena cache info|clear` and the cache `arena match` compiles through. Needs the example bots
//! (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, scratch, stderr, stdout};
use std::path::Path;
use std::process::{Command, Output};

/// The entry files in `dir` and which file each is (its inode: a rewritten entry is a new file,
/// while a hit only touches its modification time).
fn entries(dir: &Path) -> Vec<(String, u64)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|listing| {
            listing
                .map(|entry| entry.unwrap())
                .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "cwasm"))
                .map(|entry| {
                    (
                        entry.file_name().to_string_lossy().into_owned(),
                        std::os::unix::fs::MetadataExt::ino(&entry.metadata().unwrap()),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    entries.sort();
    entries
}

fn info_json(dir: &str) -> serde_json::Value {
    let out = arena(&["cache", "info", "--json", "--cache-dir", dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).unwrap()
}

/// `arena match` of the greedy and random Azul bots (seed 3) through the cache in `dir`, with
/// `extra` arguments; it must succeed.
fn play_greedy_random(dir: &str, extra: &[&str]) -> Output {
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let mut args = vec!["match", "--game", "azul", &greedy, &random, "--seed", "3", "--cache-dir", dir];
    args.extend_from_slice(extra);
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    out
}

fn arena_with_env(args: &[&str], key: &str, value: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).env(key, value).output().expect("run arena")
}

/// Issue: a second run loads the compiled bots from the cache (the entries are not rewritten);
/// `arena cache info` reports them and `arena cache clear` deletes them.
#[test]
fn match_fills_the_cache_and_info_and_clear_report_it() {
    let dir = scratch("cache-match");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_string_lossy().into_owned();
    let empty = info_json(&dir_arg);
    assert_eq!((empty["entries"].as_u64(), empty["bytes"].as_u64()), (Some(0), Some(0)));
    assert_eq!(empty["dir"], dir_arg.as_str());
    assert_eq!(empty["max_bytes"], 2u64 << 30, "default bound: 2 GiB");
    assert!(!dir.exists(), "info creates nothing");

    let play = || stdout(&play_greedy_random(&dir_arg, &["--json"]));
    let first = play();
    let written = entries(&dir);
    assert_eq!(written.len(), 2, "one entry per distinct bot: {written:?}");
    let second = play();
    assert_eq!(first, second, "same match from cached artifacts");
    assert_eq!(entries(&dir), written, "second run hit the cache: same entries, not rewritten");

    let info = info_json(&dir_arg);
    assert_eq!(info["entries"], 2);
    assert!(info["bytes"].as_u64().unwrap() > 1000);
    let text = arena(&["cache", "info", "--cache-dir", &dir_arg]);
    let text = stdout(&text);
    assert!(text.contains(&format!("dir: {dir_arg}")) && text.contains("entries: 2"), "{text}");
    assert!(text.contains("max size: 2147483648 bytes (2048.0 MiB)"), "{text}");
    let out = arena(&["cache", "info", "--json", "--cache-dir", &dir_arg, "--cache-max-mib", "5"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()["max_bytes"], 5 << 20);

    std::fs::write(dir.join("keep.txt"), "not a cache entry").unwrap();
    let out = arena(&["cache", "clear", "--cache-dir", &dir_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("removed 2 entries"), "{}", stdout(&out));
    assert_eq!(info_json(&dir_arg)["entries"], 0);
    assert!(dir.join("keep.txt").exists(), "clear deletes only cache entries");
    assert!(dir.join("key").exists(), "clear keeps the key");
}

/// A bound smaller than any compiled bot: nothing is stored, the match is played as usual.
#[test]
fn the_size_bound_applies_to_match() {
    let dir = scratch("cache-bound");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_string_lossy().into_owned();
    play_greedy_random(&dir_arg, &["--cache-max-mib", "0"]);
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
}

/// A cache directory other users can write is not used: one warning line, no entry written,
/// and the match is played as usual.
#[test]
fn a_directory_open_to_others_is_refused_with_one_warning() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("cache-open");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let dir_arg = dir.to_string_lossy().into_owned();
    let out = play_greedy_random(&dir_arg, &[]);
    let warnings: Vec<_> =
        stderr(&out).lines().filter(|line| line.contains("compiled-artifact cache")).map(String::from).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("warning: not using the compiled-artifact cache:") && warnings[0].contains("777"),
        "{warnings:?}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no key, no entry written");
}

/// A corrupted entry is rebuilt, and the match is played as usual.
#[test]
fn a_corrupted_entry_is_rebuilt() {
    let dir = scratch("cache-corrupt");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_string_lossy().into_owned();
    let play = || {
        let out =
            arena(&["match", "--game", "azul", &bot("azul-greedy"), &bot("azul-greedy"), "--cache-dir", &dir_arg]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    play();
    let [(name, _)] = entries(&dir).try_into().unwrap();
    let path = dir.join(&name);
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let middle = bad.len() / 2;
    bad[middle] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    play();
    assert_eq!(std::fs::read(&path).unwrap(), good, "rebuilt");
}

/// `$ARENA_CACHE_DIR` names the cache; `--no-cache` uses none.
#[test]
fn the_environment_names_the_cache_and_no_cache_disables_it() {
    let dir = scratch("cache-env");
    let _ = std::fs::remove_dir_all(&dir);
    let greedy = bot("azul-greedy");
    let args = ["match", "--game", "azul", &greedy, &greedy, "--no-cache"];
    let out = arena_with_env(&args, "ARENA_CACHE_DIR", &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(entries(&dir).is_empty(), "--no-cache writes nothing");
    let out = arena_with_env(&args[..5], "ARENA_CACHE_DIR", &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(entries(&dir).len(), 1);
    let out = arena_with_env(&["cache", "info"], "ARENA_CACHE_DIR", &dir);
    assert!(stdout(&out).contains("entries: 1"), "{}", stdout(&out));
}

/// `arena cache --help` documents the default directory and how to disable the cache.
#[test]
fn help_documents_the_cache() {
    let out = arena(&["cache", "--help"]);
    let text = stdout(&out);
    for needle in ["arena cache info", "arena cache clear", "ARENA_CACHE_DIR", "~/.cache/wasm-arena", "--no-cache"] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let text = stdout(&arena(&["match", "--help"]));
    assert!(text.contains("--no-cache") && text.contains("--cache-dir"), "{text}");
}
