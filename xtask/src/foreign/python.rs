//! Python bots: componentize-py, installed on demand into a virtual environment under
//! `target/toolchains/python/`, turns a bot folder's `app.py` plus the Python SDK
//! (`guest-sdk/python/`, package `arena`) into a component of the game's world `bot`.
//!
//! componentize-py bundles CPython and pre-initialises the interpreter at build time: the bot's
//! imports run then and are snapshotted, so a match pays only for `init` and the turns.

use super::{ForeignBot, copy_tree, fresh_stage};
use crate::util::{run_command, shown, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned componentize-py release (PyPI). Its components import only WASI 0.2 and the game's
/// world, without component-model-async, which the pinned wasmtime runs; a bump changes the
/// interpreter a bot runs on, and so its fuel costs: re-measure the budget table in
/// `guest-sdk/python/README.md`.
const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// The world every game package defines for bots.
const WORLD: &str = "bot";

/// The bot's entry module (`app.py`), which defines `Player`.
const APP_MODULE: &str = "app";

/// The Python interpreter that creates the virtual environment.
const PYTHON: &str = "python3";

/// Where the toolchain and the staged sources live.
fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("python")
}

/// A program inside the virtual environment.
fn venv_program(venv: &Path, name: &str) -> PathBuf {
    if cfg!(windows) { venv.join("Scripts").join(format!("{name}.exe")) } else { venv.join("bin").join(name) }
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let app = bot.dir.join(format!("{APP_MODULE}.py"));
    if !app.is_file() {
        bail!("{} is missing: a Python bot's entry module is {APP_MODULE}.py, defining `Player`", app.display());
    }
    let componentize_py = ensure_toolchain(root)?;
    let tools = toolchain_dir(root);

    // componentize-py compiles the sources in place, leaving `__pycache__` folders behind: build
    // from copies so that the bot folder and the SDK stay clean.
    let stage = tools.join("stage").join(&bot.name);
    let (stage_bot, stage_sdk) = (stage.join("bot"), stage.join("sdk"));
    fresh_stage(&stage)?;
    copy_tree(&bot.dir, &stage_bot, &not_a_source)?;
    copy_tree(&root.join("guest-sdk").join("python"), &stage_sdk, &not_a_source)?;

    // Without VIRTUAL_ENV, componentize-py adds the site-packages of the Python running it (the
    // toolchain's own venv) to the bot's path; point it at an empty one so that a bot gets only
    // its folder and the SDK. Third-party pure-Python packages go into the bot folder.
    let no_site = tools.join("no-site");
    std::fs::create_dir_all(no_site.join("lib").join("python").join("site-packages"))
        .with_context(|| format!("cannot create {}", no_site.display()))?;

    // Written beside `out` and renamed, so a failed build leaves no truncated component.
    let partial = out.with_extension("wasm.partial");
    let mut command = Command::new(&componentize_py);
    command
        .arg("-d")
        .arg(bot.wit_dir(root))
        .args(["-w", WORLD, "componentize", APP_MODULE, "-p"])
        .arg(&stage_bot)
        .arg("-p")
        .arg(&stage_sdk)
        .arg("-o")
        .arg(&partial)
        .env("VIRTUAL_ENV", &no_site)
        // A Python error in the bot is the message; componentize-py's Rust backtrace is noise.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .current_dir(root);
    let built = run_command(&mut command);
    if let Err(err) = built {
        let _ = std::fs::remove_file(&partial);
        // componentize-py runs the bot's imports at build time and names files by their place
        // on the interpreter's path.
        return Err(err).context("componentize-py failed; in its messages, /0/ is the bot folder and /1/ the SDK");
    }
    std::fs::rename(&partial, out).with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))
}

/// What is not copied into the stage: byte-code caches and built components (componentize-py
/// bundles what it is given).
fn not_a_source(name: &str) -> bool {
    name == "__pycache__" || name.ends_with(".wasm")
}

/// The path of a `componentize-py` of the pinned version, installing it first when the virtual
/// environment is missing or holds another version.
fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let venv = toolchain_dir(root).join("venv");
    let componentize_py = venv_program(&venv, "componentize-py");
    let wanted = format!("componentize-py {COMPONENTIZE_PY_VERSION}");
    if installed_version(&componentize_py).as_deref() == Some(wanted.as_str()) {
        return Ok(componentize_py);
    }
    eprintln!("installing {wanted} into {}", venv.display());

    let python = venv_program(&venv, "python");
    if !python.exists() {
        let mut create = Command::new(PYTHON);
        create.arg("-m").arg("venv").arg(&venv);
        let created = run_command(&mut create);
        if let Err(err) = created {
            // A half-made venv (ensurepip missing, say) would be mistaken for a good one next time.
            let _ = std::fs::remove_dir_all(&venv);
            return Err(err).with_context(|| {
                format!(
                    "cannot create a Python virtual environment with `{}`: Python bots need python3 \
                     (3.9 or later) with its venv module (Debian/Ubuntu: `apt-get install python3 \
                     python3-venv`; macOS: `brew install python`)",
                    shown(&create)
                )
            });
        }
    }

    let mut install = Command::new(&python);
    install
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--quiet"])
        .arg(format!("componentize-py=={COMPONENTIZE_PY_VERSION}"));
    run_command(&mut install).with_context(|| {
        format!(
            "cannot install componentize-py with `{}`: pip needs to reach PyPI (or a configured \
             index) and a prebuilt componentize-py wheel for this platform",
            shown(&install)
        )
    })?;
    match installed_version(&componentize_py) {
        Some(version) if version == wanted => Ok(componentize_py),
        other => bail!(
            "after installing, `{} --version` says {:?}, not {wanted:?}",
            componentize_py.display(),
            other.unwrap_or_else(|| "nothing".into())
        ),
    }
}

/// What `componentize-py --version` prints (`componentize-py X.Y.Z`), `None` if it does not run.
fn installed_version(componentize_py: &Path) -> Option<String> {
    let output = Command::new(componentize_py).arg("--version").output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
