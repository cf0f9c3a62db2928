//! `cargo xtask`: the project's tasks, so a fresh machine with only rustup and cargo can set up
//! and run everything.
//!
//! - `bots [--lang L,...]`: builds the bots into `target/bots/<name>.wasm`: the Rust crates
//!   ([`rust_bots`]) and the bot folders of the other languages ([`foreign`]: C, Python, JavaScript,
//!   Go, C++, Zig, AssemblyScript; rebuilt only when their inputs changed), installing each
//!   language's toolchain on demand.
//! - `build-bot DIR [-o OUT]`: builds one bot: a Rust crate outside the workspace (what
//!   `arena new-bot` writes; [`rust_bots::build_crate`]) or a folder of another language.
//! - `c-bindings`: regenerates the checked-in C bindings (`guest-sdk/c/bindings/<game>/`).
//! - `demo`: installs the wasm targets, builds the Rust bots, plays greedy vs random, verifies the
//!   replay, and prints the result and the replay path.
//! - `test`: checks the C bindings are current, runs the supply-chain checks ([`deny`]), installs
//!   the wasm targets, builds every bot, then `cargo fmt --check`, clippy with `-D warnings` (host
//!   and wasm targets), rustdoc, every test (with Debian's Chromium for the viewer tests and
//!   Slurm for the cluster tests, installed when missing: [`debian`]), the `arena new-bot`
//!   templates, the README's
//!   `arena` commands, and every fuzz target for a few seconds
//!   ([`fuzz::smoke`]).
//! - `readme-commands`: installs `arena` as the README says and runs every `arena` command the
//!   README and `docs/` show ([`readme_commands`]).
//! - `templates`: generates, builds and plays every `arena new-bot` template outside the
//!   repository ([`templates`]).
//! - `deny`: the supply-chain checks alone ([`deny`]).
//! - `fuzz [--seconds N] [--seed S] [TARGET...]`: runs the fuzz targets (`tests/fuzz`, the
//!   `arena-fuzz` runner) for N seconds each ([`fuzz`]).
//! - `fuel-table [--write]`: builds every bot and prints the documentation's fuel tables, `arena fuel`
//!   over the trivial Azul bot of each language and over the stdin/stdout programs of each game
//!   ([`fuel_table`]); `--write` replaces the copies in `docs/`, which the tests check.
//! - `bench`: installs the wasm targets, builds the Rust bots, then runs the benchmarks
//!   (`cargo bench -p arena-cli --bench arena`); further arguments pick sections by name, and
//!   `--write` rewrites the table of docs/performance.md from what they measured.
//! - `soak [--matches N] [--workers N] [--nats] [--write]`: the benchmarks' `soak` section alone
//!   (not in `bench` or `test` unless named): N ladder matches (default 100,000) through a
//!   release `arena serve` with N workers (default 2; `arena worker`s on NATS, audited, with
//!   `--nats`), resident memory and throughput, a determinism check of a sample, and the
//!   measured inputs of docs/scaling.md ([`bench::soak`]).

mod bench;
mod debian;
mod deny;
#[cfg(test)]
mod doc_links;
mod foreign;
mod fuel_table;
mod fuzz;
mod readme_commands;
mod rust_bots;
mod templates;
mod util;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use util::{bots_dir, cargo, run};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  bots [--lang L,...]    build the bots (default: every language; L: rust, c, python, js, go,
                         cpp, zig, assemblyscript) to target/bots/<name>.wasm; a bot of another
                         language than Rust is rebuilt only when its folder, its language's SDK,
                         the WIT or its builder changed
  build-bot DIR [-o OUT] build one bot: a Rust crate (cargo build --release for wasm32-wasip2
                         in DIR) or a folder with a bot.json (C, Python, JavaScript, Go, C++,
                         Zig, AssemblyScript; default OUT: target/bots/<package-or-folder-name>.wasm)
  c-bindings             regenerate the C bindings of every game (guest-sdk/c/bindings/)
  demo                   set up, build the bots, play azul-greedy vs azul-random, verify the replay
  test                   check the C bindings, run `cargo deny check licenses bans sources`
                         (installing cargo-deny if missing), set up, build the bots, run fmt,
                         clippy, rustdoc, every test, and every fuzz target for 5 seconds
  deny                   run `cargo deny check licenses bans sources` (installing cargo-deny if
                         missing); advisories need network access: `cargo deny check advisories`
  fuzz [--seconds N] [--seed S] [TARGET...]
                         run the fuzz targets (default: all, 10 s each; `cargo xtask fuzz --list`
                         names them); a failing input is saved under target/fuzz-failures/
  readme-commands        install `arena` (a debug build, into target/install-check) and run every
                         `arena` command of the README's and docs/'s shell blocks (bots built)
  templates              generate every `arena new-bot` template outside the repository, build it
                         and play it against its game's random bot (the bots must be built)
  fuel-table [--write]   build the bots and print the documented fuel tables (`arena fuel
                         --markdown`): the trivial Azul bot of every language, and the stdin/stdout
                         programs of every game; --write puts them into docs/ (the tests fail
                         while the copies are stale)
  bench [--write] [SECTION...]
                         set up, build the bots, run the benchmarks (optionally only the sections
                         named: greedy, search, turn, instantiate, load, glue, tournament, profile,
                         hostcalls, stack, queue, ladder, soak; soak runs only when named); --write
                         puts what they measured in the table of docs/performance.md
  soak [--matches N] [--workers N] [--nats] [--write]
                         set up, build the bots, play N ladder matches (default 100,000) through a
                         release `arena serve` with N workers (default 2; with --nats, audited
                         `arena worker`s on a NATS server, installing Debian's nats-server if
                         missing): resident memory sampled (flat within 10% from the 10,000th
                         match), the throughput, the audits, a sample re-played by `arena ladder
                         verify`, and the inputs of docs/scaling.md";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().cloned().unwrap_or_default();
    let rest = args.get(1..).unwrap_or_default();
    let root = workspace_root()?;
    match task.as_str() {
        "bots" => bots(&root, rest),
        "build-bot" => build_bot(&root, rest),
        "c-bindings" => foreign::c::write_bindings(&root),
        "demo" => demo(&root),
        "test" => test(&root),
        "deny" => deny::check(&root),
        "fuzz" => fuzz::fuzz(&root, rest),
        "bench" => bench::bench(&root, rest),
        "soak" => bench::soak(&root, rest),
        "fuel-table" => fuel_table::run(&root, rest),
        "templates" => templates::check(&root),
        "readme-commands" => readme_commands::check(&root),
        "" | "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            bail!("unknown task {task:?}")
        }
    }
}

fn workspace_root() -> Result<PathBuf> {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().map(Path::to_path_buf).context("xtask is not inside the workspace")
}

/// Installs the wasm targets for the pinned toolchain (machines here do not auto-install).
pub(crate) fn setup(root: &Path) -> Result<()> {
    run(root, "rustup", &["target", "add", "wasm32-wasip2", "wasm32-wasip1", "wasm32-unknown-unknown"])
}

/// Builds the Rust bots, then the other languages' bots.
pub(crate) fn all_bots(root: &Path) -> Result<()> {
    bots(root, &[])
}

/// `cargo xtask bots [--lang L[,L...]]`: the bots of the languages named (default: all).
fn bots(root: &Path, args: &[String]) -> Result<()> {
    let languages: Vec<String> = match args {
        [] => ["rust", "c", "python", "javascript", "go", "cpp", "zig", "assemblyscript"].map(String::from).to_vec(),
        [flag, list] if flag == "--lang" => list.split(',').map(str::to_owned).collect(),
        _ => bail!("usage: cargo xtask bots [--lang rust,c,python,js,go,cpp,zig,assemblyscript]"),
    };
    let mut foreign_languages = Vec::new();
    for name in languages.iter().filter(|name| *name != "rust") {
        let language = foreign::Language::parse(name)
            .with_context(|| format!("unknown language {name:?} (rust, c, python, js, go)"))?;
        foreign_languages.push(language);
    }
    setup(root)?;
    let mut outputs = Vec::new();
    if languages.iter().any(|name| name == "rust") {
        outputs.extend(rust_bots::build_all(root)?);
    }
    outputs.extend(foreign::build_all(root, &foreign_languages)?);
    eprintln!("{} bots in {}", outputs.len(), bots_dir(root).display());
    Ok(())
}

fn build_bot(root: &Path, args: &[String]) -> Result<()> {
    let (dir, out) = match args {
        [dir] => (dir, None),
        [dir, flag, out] if flag == "-o" || flag == "--out" => (dir, Some(PathBuf::from(out))),
        _ => bail!("usage: cargo xtask build-bot DIR [-o OUT]  (DIR: a Rust crate, or a folder with a bot.json)"),
    };
    // cargo runs xtask from the workspace root; a relative DIR is the caller's.
    let dir = std::env::current_dir()?.join(dir);
    if dir.join("Cargo.toml").is_file() && !dir.join(foreign::MANIFEST).is_file() {
        setup(root)?;
        let out = rust_bots::build_crate(root, &dir, out)?;
        println!("{}", out.display());
        return Ok(());
    }
    let bot = foreign::ForeignBot::read(root, &dir)?;
    let out = out.unwrap_or_else(|| bots_dir(root).join(format!("{}.wasm", bot.name)));
    foreign::build(root, &bot, &out)?;
    println!("{}", out.display());
    Ok(())
}

/// The bots the demo plays: built alone, so the demo does not wait for the other bots.
const DEMO_BOTS: [&str; 2] = ["azul-greedy", "azul-random"];

fn demo(root: &Path) -> Result<()> {
    // Each step says what it does before it starts; cargo's own progress shows within the builds.
    step(1, 4, "installing the wasm targets of the pinned toolchain");
    setup(root)?;
    step(2, 4, "building the demo bots (azul-greedy, azul-random) for wasm32-wasip2");
    rust_bots::build(root, &DEMO_BOTS.map(String::from))?;
    step(3, 4, "building the arena host (the first time: wasmtime and cranelift, several minutes)");
    run(root, &cargo(), &["build", "-p", "arena-cli", "--bin", "arena"])?;
    let arena = util::arena_binary(root);
    let arena = arena.to_string_lossy();
    step(4, 4, "playing azul-greedy vs azul-random on seed 1, then verifying the replay");
    let bots = bots_dir(root);
    let bot = |name: &str| bots.join(format!("{name}.wasm")).to_string_lossy().into_owned();
    let replay = util::target_dir(root).join("demo-replay.json").to_string_lossy().into_owned();
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    run(root, &arena, &["match", "--game", "azul", &greedy, &random, "--seed", "1", "--replay", &replay])?;
    run(root, &arena, &["replay", "verify", &replay])?;
    println!("\nreplay written to {replay}");
    Ok(())
}

/// Announces step `n` of `total` of a long task.
fn step(n: usize, total: usize, what: &str) {
    eprintln!("\n==> [{n}/{total}] {what}");
}

fn test(root: &Path) -> Result<()> {
    let mut phases = Phases::default();
    foreign::c::check_bindings(root)?;
    // Before the long builds: a dependency the policy refuses fails the run in seconds.
    phases.time("supply-chain checks", || deny::check(root))?;
    phases.time("every bot", || all_bots(root))?;
    phases.time("fmt and clippy", || {
        run(root, &cargo(), &["fmt", "--all", "--check"])?;
        run(root, &cargo(), &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
        let crates = rust_bots::bot_crates(root)?;
        let mut wasm_clippy = vec!["clippy", "--target", rust_bots::BOT_TARGET, "-p", "arena-sdk"];
        for name in &crates {
            wasm_clippy.extend(["-p", name.as_str()]);
        }
        wasm_clippy.extend(["--", "-D", "warnings"]);
        run(root, &cargo(), &wasm_clippy)
    })?;
    phases.time("rustdoc", || {
        // Docs build without warnings (broken intra-doc links are errors) for the library crates:
        // every engine, the host, the SDK and the fuzz harness, found by folder.
        let libraries = rust_bots::workspace_crates_under(root, &["games", "host", "guest-sdk", "tests/fuzz"])?;
        util::run_command(
            Command::new(cargo())
                // Every SDK game feature, so every game's module is documented.
                .args(["doc", "--no-deps", "--all-features"])
                .args(libraries.iter().flat_map(|name| ["-p", name.as_str()]))
                .env("RUSTDOCFLAGS", "-D warnings")
                .current_dir(root),
        )
    })?;
    phases.time("Debian packages for the tests", || {
        debian::CHROMIUM.ensure()?;
        debian::CHROMEDRIVER.ensure()?;
        debian::SLURM.ensure()?;
        debian::NATS.ensure()?;
        debian::POSTGRES.ensure()
    })?;
    phases.time("cargo test --workspace", || run(root, &cargo(), &["test", "--workspace"]))?;
    phases.time("arena new-bot templates", || templates::check_with_built_arena(root))?;
    phases.time("README commands", || readme_commands::check(root))?;
    phases.time("fuzz smoke", || fuzz::smoke(root))?;
    phases.print();
    Ok(())
}

/// How long each phase of a long task took, printed at its end: where CI's time goes.
#[derive(Default)]
struct Phases(Vec<(&'static str, std::time::Duration)>);

impl Phases {
    fn time(&mut self, name: &'static str, phase: impl FnOnce() -> Result<()>) -> Result<()> {
        let started = std::time::Instant::now();
        let result = phase();
        self.0.push((name, started.elapsed()));
        if result.is_err() {
            self.print();
        }
        result
    }

    fn print(&self) {
        eprintln!("\nphases:");
        for (name, took) in &self.0 {
            eprintln!("  {:>6.0} s  {name}", took.as_secs_f64());
        }
        let total: std::time::Duration = self.0.iter().map(|(_, took)| *took).sum();
        eprintln!("  {:>6.0} s  in all", total.as_secs_f64());
    }
}
