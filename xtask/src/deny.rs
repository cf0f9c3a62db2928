//! Supply-chain checks: `cargo deny check licenses bans sources` against the workspace's
//! `deny.toml`, installing cargo-deny from crates.io first when it is missing.
//!
//! Advisories are not checked here: `cargo deny check advisories` fetches the RustSec advisory
//! database from GitHub, which the project's build machines cannot reach (the README says how to
//! run it by hand).

use crate::util::{cargo, run_command, shown};
use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;

/// The cargo-deny release installed when none is: `deny.toml` is written for its format.
pub const CARGO_DENY_VERSION: &str = "0.20.2";

/// Runs the license, ban and source checks, installing cargo-deny first if needed.
pub fn check(root: &Path) -> Result<()> {
    ensure_installed(root)?;
    let mut check = Command::new(cargo());
    // The inclusion graphs of the duplicate-version warnings run to ~1,800 lines; run the
    // command by hand without the flag to see them.
    check.args(["deny", "check", "--hide-inclusion-graph", "licenses", "bans", "sources"]).current_dir(root);
    run_command(&mut check).context("the supply-chain policy in deny.toml is violated (see cargo-deny's messages)")
}

/// Installs cargo-deny [`CARGO_DENY_VERSION`] into cargo's default bin folder unless a
/// cargo-deny is already there; an installed one of another release is used as it is.
fn ensure_installed(root: &Path) -> Result<()> {
    if let Some(version) = installed_version() {
        eprintln!("using {version}");
        return Ok(());
    }
    eprintln!("installing cargo-deny {CARGO_DENY_VERSION} from crates.io (about 3 minutes of build on 2 cores)");
    let mut install = Command::new(cargo());
    install.args(["install", "--locked", "cargo-deny", "--version", CARGO_DENY_VERSION]).current_dir(root);
    // Built in cargo's own temporary folder, not the workspace's target folder: the release
    // build shares nothing with the workspace's and would only fill it.
    install.env_remove("CARGO_TARGET_DIR");
    run_command(&mut install)
        .with_context(|| format!("cannot install cargo-deny with `{}`: it needs to reach crates.io", shown(&install)))
}

/// What `cargo deny --version` prints (`cargo-deny X.Y.Z`), `None` if it does not run.
fn installed_version() -> Option<String> {
    let output = Command::new(cargo()).args(["deny", "--version"]).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
