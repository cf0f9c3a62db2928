//! `cargo xtask`: the project's tasks, so a fresh machine with only rustup and cargo can set up
//! and run everything.
//!
//! - `bots`: builds every bot crate (`bots-examples/*`, `tests/bots/*`) for `wasm32-wasip2` in
//!   one cargo invocation and copies each to `target/bots/<crate-name>.wasm`; the few in
//!   `WASIP1_BOTS` are also built for `wasm32-wasip1`, to `target/bots/<crate-name>-wasip1.wasm`.
//! - `demo`: installs the wasm target, builds the bots, plays greedy vs random, verifies the
//!   replay, and prints the result and the replay path.
//! - `test`: installs the wasm target, builds the bots, then `cargo fmt --check`, clippy with
//!   `-D warnings` (host and wasm targets) and every test.
//! - `bench`: installs the wasm target, builds the bots, then runs the benchmarks
//!   (`cargo bench -p arena-host --bench arena`); further arguments pick sections by name.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm target bots are built for.
const BOT_TARGET: &str = "wasm32-wasip2";
/// The cargo profile bots are built with (see the workspace Cargo.toml).
const BOT_PROFILE: &str = "bot";
/// Folders whose crates are bots.
const BOT_DIRS: [&str; 2] = ["bots-examples", "tests/bots"];
/// Binary bots also built for `wasm32-wasip1` (core modules, which the host wraps into components
/// when loading), copied to `target/bots/<crate-name>-wasip1.wasm`.
const WASIP1_BOTS: [&str; 1] = ["paint-stdio-random"];

fn main() -> Result<()> {
    let task = std::env::args().nth(1).unwrap_or_default();
    let root = workspace_root()?;
    match task.as_str() {
        "bots" => bots(&root).map(|_| ()),
        "demo" => demo(&root),
        "test" => test(&root),
        "bench" => bench(&root, &std::env::args().skip(2).collect::<Vec<_>>()),
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\n\
                 tasks:\n  \
                 bots   build every bot to target/bots/<crate-name>.wasm\n  \
                 demo   set up, build the bots, play azul-greedy vs azul-random, verify the replay\n  \
                 test   set up, build the bots, run fmt, clippy and every test\n  \
                 bench  set up, build the bots, run the benchmarks (optionally only the sections named:\n         \
                 greedy, turn, instantiate)"
            );
            if task.is_empty() || task == "help" || task == "--help" { Ok(()) } else { bail!("unknown task {task:?}") }
        }
    }
}

fn workspace_root() -> Result<PathBuf> {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().map(Path::to_path_buf).context("xtask is not inside the workspace")
}

/// The cargo running this task (cargo sets `CARGO` for the processes it runs).
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Runs a command in `root`, echoing it, failing on a non-zero status.
fn run(root: &Path, program: &str, args: &[&str]) -> Result<()> {
    eprintln!("$ {program} {}", args.join(" "));
    let status =
        Command::new(program).args(args).current_dir(root).status().with_context(|| format!("cannot run {program}"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Installs the wasm targets for the pinned toolchain (machines here do not auto-install).
fn setup(root: &Path) -> Result<()> {
    run(root, "rustup", &["target", "add", "wasm32-wasip2", "wasm32-wasip1", "wasm32-unknown-unknown"])
}

/// The bot crates: workspace members under [`BOT_DIRS`], by package name.
fn bot_crates(root: &Path) -> Result<Vec<String>> {
    let output = Command::new(cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let mut names = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let manifest = Path::new(package["manifest_path"].as_str().unwrap_or_default());
        let is_bot = BOT_DIRS.iter().any(|dir| manifest.starts_with(root.join(dir)));
        if let (true, Some(name)) = (is_bot, package["name"].as_str()) {
            names.push(name.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Builds every bot and copies it to `target/bots/`; returns the output paths.
fn bots(root: &Path) -> Result<Vec<PathBuf>> {
    let crates = bot_crates(root)?;
    let mut args = vec!["build", "--target", BOT_TARGET, "--profile", BOT_PROFILE];
    for name in &crates {
        args.extend(["-p", name.as_str()]);
    }
    run(root, &cargo(), &args)?;
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let out_dir = target_dir.join("bots");
    std::fs::create_dir_all(&out_dir)?;
    let mut outputs = Vec::new();
    for name in &crates {
        // A library bot (cdylib) is built as `<crate_name>.wasm` (underscores); a binary bot (a WASI
        // command speaking a line protocol) keeps the package's dashed name. If both exist (a crate
        // that changed kind), the newer one is this build's.
        let built_dir = target_dir.join(BOT_TARGET).join(BOT_PROFILE);
        let candidates =
            [built_dir.join(format!("{name}.wasm")), built_dir.join(format!("{}.wasm", name.replace('-', "_")))];
        let modified = |path: &PathBuf| std::fs::metadata(path).and_then(|meta| meta.modified()).ok();
        let built = candidates.iter().filter(|path| modified(path).is_some()).max_by_key(|path| modified(path));
        let built = built.unwrap_or(&candidates[1]);
        let out = out_dir.join(format!("{name}.wasm"));
        std::fs::copy(built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
        outputs.push(out);
    }
    let mut wasip1 = vec!["build", "--target", "wasm32-wasip1", "--profile", BOT_PROFILE];
    for name in WASIP1_BOTS {
        wasip1.extend(["-p", name]);
    }
    run(root, &cargo(), &wasip1)?;
    for name in WASIP1_BOTS {
        let built = target_dir.join("wasm32-wasip1").join(BOT_PROFILE).join(format!("{name}.wasm"));
        let out = out_dir.join(format!("{name}-wasip1.wasm"));
        std::fs::copy(&built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
        outputs.push(out);
    }
    eprintln!("built {} bots into {}", outputs.len(), out_dir.display());
    Ok(outputs)
}

fn demo(root: &Path) -> Result<()> {
    setup(root)?;
    bots(root)?;
    let replay = "target/demo-replay.json";
    let arena = ["run", "--quiet", "-p", "arena-host", "--bin", "arena", "--"];
    let mut play = arena.to_vec();
    play.extend([
        "match",
        "--game",
        "azul",
        "target/bots/azul-greedy.wasm",
        "target/bots/azul-random.wasm",
        "--seed",
        "1",
        "--replay",
        replay,
    ]);
    run(root, &cargo(), &play)?;
    let mut verify = arena.to_vec();
    verify.extend(["replay", "verify", replay]);
    run(root, &cargo(), &verify)?;
    println!("\nreplay written to {}", root.join(replay).display());
    Ok(())
}

fn test(root: &Path) -> Result<()> {
    setup(root)?;
    bots(root)?;
    run(root, &cargo(), &["fmt", "--all", "--check"])?;
    run(root, &cargo(), &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    let crates = bot_crates(root)?;
    let mut wasm_clippy = vec!["clippy", "--target", BOT_TARGET, "-p", "arena-sdk"];
    for name in &crates {
        wasm_clippy.extend(["-p", name.as_str()]);
    }
    wasm_clippy.extend(["--", "-D", "warnings"]);
    run(root, &cargo(), &wasm_clippy)?;
    // Docs build without warnings (broken intra-doc links are errors) for the library crates.
    eprintln!("$ RUSTDOCFLAGS=\"-D warnings\" cargo doc --no-deps ...");
    let docs = Command::new(cargo())
        .args(["doc", "--no-deps", "-p", "arena-game", "-p", "arena-host", "-p", "arena-sdk"])
        .args(["-p", "arena-azul", "-p", "arena-paint", "-p", "arena-code-character", "-p", "arena-eubots"])
        .args(["-p", "arena-suitebot"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(root)
        .status()
        .context("cannot run cargo doc")?;
    if !docs.success() {
        bail!("cargo doc failed ({docs})");
    }
    run(root, &cargo(), &["test", "--workspace"])?;
    Ok(())
}

fn bench(root: &Path, sections: &[String]) -> Result<()> {
    setup(root)?;
    bots(root)?;
    let mut args = vec!["bench", "-p", "arena-host", "--bench", "arena"];
    if !sections.is_empty() {
        args.push("--");
        args.extend(sections.iter().map(String::as_str));
    }
    run(root, &cargo(), &args)?;
    // Engine-only speed of the largest engine (issue 4 item 6), unless sections were named.
    if sections.is_empty() {
        run(root, &cargo(), &["bench", "-p", "arena-code-character", "--bench", "speed"])?;
    }
    Ok(())
}
