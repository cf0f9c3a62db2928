//! Running tools: echo the command, fail with its status, find cargo and the target folder.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo running this task (cargo sets `CARGO` for the processes it runs).
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// The target folder (`CARGO_TARGET_DIR` or `<root>/target`).
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"))
}

/// The `arena` binary a dev build (`cargo build -p arena-cli`, or the test build) leaves.
pub fn arena_binary(root: &Path) -> PathBuf {
    target_dir(root).join("debug").join(format!("arena{}", std::env::consts::EXE_SUFFIX))
}

/// Where every built bot lands: `target/bots/<name>.wasm`.
pub fn bots_dir(root: &Path) -> PathBuf {
    target_dir(root).join("bots")
}

/// Runs a command in `root`, echoing it, failing on a non-zero status.
pub fn run(root: &Path, program: &str, args: &[&str]) -> Result<()> {
    run_command(Command::new(program).args(args).current_dir(root))
}

/// Runs a prepared command, echoing it, failing on a non-zero status.
pub fn run_command(command: &mut Command) -> Result<()> {
    let shown = shown(command);
    eprintln!("$ {shown}");
    let started = std::time::Instant::now();
    let status = command.status().with_context(|| format!("cannot run `{shown}`"))?;
    let took = started.elapsed();
    // Where a long run spends its time, visible in CI's log (only what is worth reading).
    if took.as_secs() >= 5 {
        eprintln!("  ({:.0} s: {})", took.as_secs_f64(), first_words(&shown, 6));
    }
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// The first `n` words of a command line, for a one-line timing.
fn first_words(line: &str, n: usize) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut shown = words.iter().take(n).copied().collect::<Vec<_>>().join(" ");
    if words.len() > n {
        shown.push_str(" ...");
    }
    shown
}

/// A command as a shell line, for messages.
pub fn shown(command: &Command) -> String {
    let mut line = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        line.push(' ');
        line.push_str(&arg.to_string_lossy());
    }
    line
}

/// Whether this process runs as root (then apt-get needs no sudo).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.status.success() && String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// `apt-get ARGS`, non-interactive, through sudo unless root. The frontend setting goes through
/// `env` because sudo drops the caller's environment.
pub fn apt_get(args: &[&str]) -> Command {
    let mut command = if is_root() {
        Command::new("env")
    } else {
        let mut sudo = Command::new("sudo");
        sudo.arg("env");
        sudo
    };
    command.args(["DEBIAN_FRONTEND=noninteractive", "apt-get"]).args(args);
    command
}
