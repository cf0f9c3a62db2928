//! JavaScript bots: componentize-js, installed on demand with npm into `target/toolchains/js/`
//! from the pinned `guest-sdk/js/package.json` and `package-lock.json`, turns a bot folder's
//! `bot.js` plus the JS layer (`guest-sdk/js/arena/`) into a component of the game's world `bot`.
//!
//! componentize-js embeds StarlingMonkey (SpiderMonkey built for WASI 0.2) and pre-initialises it
//! with Wizer at build time: the bot's modules are parsed and evaluated then and snapshotted, so
//! a match pays only for `init` and the turns (module-level tables are free at run time).

use super::{ForeignBot, copy_tree, fresh_stage};
use crate::util::{run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The world every game package defines for bots.
const WORLD: &str = "bot";

/// The bot's entry module, which exports `player`.
const ENTRY: &str = "bot.js";

/// WASI features the bots do without. The pinned wasmtime's host links WASI 0.2 without
/// `wasi:http`, so the HTTP client (`fetch`) and the `incoming-handler` export (fetch-event)
/// must go; stdio (console.log lands in the bot's log), clocks and random stay: the host makes
/// them deterministic.
const DISABLED_FEATURES: [&str; 2] = ["http", "fetch-event"];

/// The npm manifest and lock file pinning the toolchain (componentize-js and jco, and through
/// the lock every transitive package).
const PINS: [&str; 2] = ["package.json", "package-lock.json"];

/// Written into the toolchain folder after a complete install: a copy of the lock it installed.
const STAMP: &str = ".installed-lock.json";

/// Where the toolchain and the staged sources live.
pub(super) fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("js")
}

/// The JS layer's folder (the `arena/` modules, the README, the pins).
pub(super) fn sdk_dir(root: &Path) -> PathBuf {
    root.join("guest-sdk").join("js")
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    if let Some(main) = &bot.stdio_main {
        return super::js_stdio::build(root, bot, main, out);
    }
    let entry = bot.dir.join(ENTRY);
    if !entry.is_file() {
        bail!(
            "{} is missing: a JavaScript bot's entry module is {ENTRY}, exporting `player` \
             (e.g. `export const player = azulBot(MyBot);`)",
            entry.display()
        );
    }
    let cli = ensure_toolchain(root)?;

    // componentize-js resolves the bot's imports (`./arena/azul.js`) against its working
    // directory, and maps only that directory into the engine it pre-initialises: stage the bot
    // folder with the layer beside it.
    let stage = toolchain_dir(root).join("stage").join(&bot.name);
    fresh_stage(&stage)?;
    copy_tree(&bot.dir, &stage, &|name| name == "node_modules")?;
    let layer = stage.join("arena");
    if layer.exists() {
        bail!("{}: a bot folder must not have an `arena` folder; the build puts the JS layer there", bot.dir.display());
    }
    copy_tree(&sdk_dir(root).join("arena"), &layer, &|_| false)?;

    componentize(&cli, &stage, ENTRY, (&bot.wit_dir(root), WORLD), out)
}

/// Runs componentize-js (`cli`) in `stage` on the module `entry`, for `world` of the WIT
/// package folder `wit`, writing the component to `out`.
pub(super) fn componentize(
    cli: &Path,
    stage: &Path,
    entry: &str,
    (wit, world): (&Path, &str),
    out: &Path,
) -> Result<()> {
    // The output path is the caller's; componentize-js runs in the stage.
    let out = if out.is_absolute() { out.to_path_buf() } else { std::env::current_dir()?.join(out) };
    let mut command = Command::new("node");
    command.arg(cli).arg(entry).arg("--wit").arg(wit).args(["--world-name", world, "--disable"]);
    command.args(DISABLED_FEATURES).arg("-o").arg(&out).current_dir(stage);
    run_command(&mut command).context("componentize-js failed (its message is above)")
}

/// Installs the pinned toolchain unless the installed one was installed from the same lock file;
/// returns componentize-js's command-line entry point.
pub(super) fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let tools = toolchain_dir(root);
    let cli = tools.join("node_modules").join("@bytecodealliance").join("componentize-js").join("src").join("cli.js");
    let lock_path = sdk_dir(root).join("package-lock.json");
    let lock = std::fs::read_to_string(&lock_path).with_context(|| format!("cannot read {}", lock_path.display()))?;
    let installed = std::fs::read_to_string(tools.join(STAMP)).ok();
    if installed.as_deref() == Some(lock.as_str()) && cli.is_file() {
        return Ok(cli);
    }

    for program in ["node", "npm"] {
        let found = Command::new(program).arg("--version").output();
        if !found.as_ref().is_ok_and(|output| output.status.success()) {
            bail!(
                "`{program}` was not found: JavaScript bots need Node.js (18 or later) and npm on the PATH \
                 (https://nodejs.org); the build installs componentize-js into {} itself",
                tools.display()
            );
        }
    }
    eprintln!("installing the JavaScript toolchain into {} (pinned by {})", tools.display(), lock_path.display());
    std::fs::create_dir_all(&tools).with_context(|| format!("cannot create {}", tools.display()))?;
    // Removed first: a stamp left from an older lock must not survive a failed install.
    let _ = std::fs::remove_file(tools.join(STAMP));
    for pin in PINS {
        let from = sdk_dir(root).join(pin);
        std::fs::copy(&from, tools.join(pin)).with_context(|| format!("cannot copy {}", from.display()))?;
    }
    // `npm ci` installs exactly the lock (and replaces any node_modules left from another one).
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--loglevel", "error"]).current_dir(&tools);
    run_command(&mut npm).context("installing the JavaScript toolchain with npm failed (npm's message is above)")?;
    if !cli.is_file() {
        bail!("npm finished but {} is missing", cli.display());
    }
    std::fs::write(tools.join(STAMP), &lock).with_context(|| format!("cannot write {}", tools.display()))?;
    Ok(cli)
}
