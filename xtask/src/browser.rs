//! The browser the viewer tests drive: Debian's `chromium`, installed with apt-get when the
//! machine has none (as the C toolchain is), so `cargo xtask test` runs them on a fresh machine.

use crate::util::{apt_get, run_command};
use anyhow::{Result, bail};
use std::process::Command;

/// Whether `chromium --version` runs.
fn chromium_runs() -> bool {
    Command::new("chromium").arg("--version").output().is_ok_and(|output| output.status.success())
}

/// Makes sure `chromium` runs, installing Debian's package when it does not (`ARENA_CHROMIUM`
/// names another browser binary instead, which is then left alone).
pub fn ensure_chromium() -> Result<()> {
    if std::env::var_os("ARENA_CHROMIUM").is_some() || chromium_runs() {
        return Ok(());
    }
    let manual = "sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium";
    if !Command::new("apt-get").arg("--version").output().is_ok_and(|output| output.status.success()) {
        bail!(
            "the viewer tests need Chromium, and this machine has no apt-get to install it: install it \
             with its package manager, or set ARENA_CHROMIUM=<path to a Chromium or Chrome binary>"
        );
    }
    eprintln!("the viewer tests need Chromium; installing Debian's chromium with apt-get");
    run_command(&mut apt_get(&["update"]))?;
    if let Err(error) = run_command(&mut apt_get(&["install", "-y", "--no-install-recommends", "chromium"])) {
        bail!("installing chromium failed: {error:#}\ninstall it yourself: `{manual}`");
    }
    if !chromium_runs() {
        bail!("chromium still does not run after installing it");
    }
    Ok(())
}
