//! From the command line: a compile bomb, a bot that can never start and a
//! bot whose compilation goes over the compile worker's bounds are each refused before the
//! match, with exit status 2 and one line naming the file. Needs the example bots.

use crate::common;

use arena_host::compile::{WORKER_CPU_ENV, WORKER_MEMORY_ENV, WORKER_TIMEOUT_ENV};
use arena_host::shape::bomb_wat;
use common::{arena_with_env, bot, scratch, stderr, stdout};

/// Runs an Azul match between `bots` with `env` and extra `args`, and returns the single error
/// line of the refusal, which names `file`.
fn refusal(bots: [&str; 2], file: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut all = vec!["match", "--game", "azul", bots[0], bots[1]];
    all.extend_from_slice(args);
    let out = arena_with_env(&all, env);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "nothing on stdout when refused");
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    assert!(err.contains(file), "names the file: {err}");
    err
}

/// Writes a component wrapping the core module `module` (WAT) to a scratch file.
fn component_file(name: &str, module: &str) -> String {
    let path = scratch(name);
    let wat = format!("{})", module.replacen("(module", "(component (core module", 1));
    std::fs::write(&path, wat::parse_str(wat).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

/// The 125 KB nested-blocks bomb is refused by the shape limits.
#[test]
fn a_compile_bomb_is_refused_with_one_line() {
    let bomb = component_file("bomb.wasm", &bomb_wat(5_000, 5_000));
    let greedy = bot("azul-greedy");
    let err = refusal([&greedy, &bomb], &bomb, &[], &[]);
    assert!(err.contains("core module 0, function 0 nests blocks more than 3000 deep; the limit is 3000"), "{err}");
}

/// 200 MiB of initial memory against the default 64 MiB limit is refused at load; under
/// `--memory-mib 256` the file gets past that check (and is refused for exporting nothing).
#[test]
fn a_bot_that_can_never_start_is_refused_at_load() {
    let big = component_file("big-memory.wasm", "(module (memory 3200))");
    let greedy = bot("azul-greedy");
    let err = refusal([&greedy, &big], &big, &[], &[]);
    assert!(err.contains("declares 200 MiB of initial memory; the limit is 64 MiB"), "{err}");
    let err = refusal([&greedy, &big], &big, &["--memory-mib", "256"], &[]);
    assert!(err.contains("exports [nothing]"), "{err}");
}

/// Test hooks shrink the compile worker's bounds: 64 MiB of address space or one second of CPU
/// is far too little for the interpreter in a Python bot (about 400 MB and 14 s), and no worker
/// finishes in a millisecond of wall clock. Each is refused naming the file and the bound.
/// `--no-cache`, so the bot is really compiled.
#[test]
fn a_compilation_over_the_workers_bounds_is_refused() {
    let python = bot("azul-trivial-py");
    let err = refusal([&python, &python], &python, &["--no-cache"], &[(WORKER_MEMORY_ENV, "64")]);
    assert!(err.contains("compiling needed more than 64 MiB"), "{err}");
    let err = refusal([&python, &python], &python, &["--no-cache"], &[(WORKER_CPU_ENV, "1")]);
    assert!(err.contains("compiling took more than 1 s of CPU time"), "{err}");
    let greedy = bot("azul-greedy");
    let err = refusal([&greedy, &greedy], &greedy, &["--no-cache"], &[(WORKER_TIMEOUT_ENV, "1")]);
    assert!(err.contains("compiling took longer than 0.001 s"), "{err}");
}
