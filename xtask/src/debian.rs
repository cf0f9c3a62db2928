//! Tools the tests drive that come from Debian's packages, installed with apt-get when the
//! machine lacks them (as the C toolchain is), so `cargo xtask test` runs every test on a fresh
//! machine: Debian's `chromium` for the viewer tests (and `chromium-driver` for the ladder's
//! browser tests), `slurm-wlm` and `munge` for the Slurm tests, `nats-server` for the NATS
//! tests, `postgresql` for the ladder's store suite on PostgreSQL.

use crate::util::{apt_get, run_command};
use anyhow::{Result, bail};
use std::process::Command;

/// A tool the tests need: the program that shows it is installed, and the packages that bring it.
pub struct Tool {
    /// What needs it, for messages ("the viewer tests").
    pub needed_by: &'static str,
    /// A program that runs once the packages are installed.
    pub program: &'static str,
    /// The argument that makes `program` print its version and exit 0.
    pub version_arg: &'static str,
    /// Debian's packages.
    pub packages: &'static [&'static str],
    /// An environment variable naming another binary instead, which is then left alone.
    pub override_env: Option<&'static str>,
}

/// The browser the viewer tests drive.
pub const CHROMIUM: Tool = Tool {
    needed_by: "the viewer tests",
    program: "chromium",
    version_arg: "--version",
    packages: &["chromium"],
    override_env: Some("ARENA_CHROMIUM"),
};

/// The scheduler the Slurm tests start on localhost (slurmctld and slurmd; munge comes with it).
pub const SLURM: Tool = Tool {
    needed_by: "the Slurm tests",
    // Not a client such as `sbatch`: those need a cluster's configuration even for `--version`.
    program: "slurmctld",
    version_arg: "-V",
    packages: &["slurm-wlm", "munge"],
    override_env: None,
};

/// The NATS server (with JetStream) the work-queue tests start on loopback.
pub const NATS: Tool = Tool {
    needed_by: "the NATS tests",
    program: "nats-server",
    version_arg: "--version",
    packages: &["nats-server"],
    override_env: None,
};

/// The WebDriver server the ladder's browser tests drive Chromium through.
pub const CHROMEDRIVER: Tool = Tool {
    needed_by: "the ladder's browser tests",
    program: "chromedriver",
    version_arg: "--version",
    packages: &["chromium-driver"],
    override_env: None,
};

/// PostgreSQL's server programs (Debian 12's version 15, not on PATH: the tests find them under
/// /usr/lib/postgresql), for a throwaway cluster the ladder's store tests start on loopback.
pub const POSTGRES: Tool = Tool {
    needed_by: "the ladder's PostgreSQL tests",
    program: "/usr/lib/postgresql/15/bin/initdb",
    version_arg: "--version",
    packages: &["postgresql"],
    override_env: None,
};

/// The HTTP load generator the ladder's latency benchmark runs from a second process.
pub const WRK: Tool = Tool {
    needed_by: "the ladder's latency benchmark",
    program: "wrk",
    version_arg: "--version",
    packages: &["wrk"],
    override_env: None,
};

impl Tool {
    fn runs(&self) -> bool {
        // wrk prints its version and its usage and exits 1: a program that printed is there.
        Command::new(self.program)
            .arg(self.version_arg)
            .output()
            .is_ok_and(|output| output.status.success() || !output.stdout.is_empty())
    }

    /// Makes sure the tool runs, installing its packages when it does not.
    pub fn ensure(&self) -> Result<()> {
        if self.override_env.is_some_and(|name| std::env::var_os(name).is_some()) || self.runs() {
            return Ok(());
        }
        let packages = self.packages.join(" ");
        let manual = format!("sudo apt-get update && sudo apt-get install -y --no-install-recommends {packages}");
        if !Command::new("apt-get").arg("--version").output().is_ok_and(|output| output.status.success()) {
            let instead = self.override_env.map(|name| format!(", or set {name}")).unwrap_or_default();
            bail!(
                "{} need {}, and this machine has no apt-get to install it: install it with its package \
                 manager{instead}",
                self.needed_by,
                self.program
            );
        }
        eprintln!("{} need {}; installing Debian's {packages} with apt-get", self.needed_by, self.program);
        run_command(&mut apt_get(&["update"]))?;
        let mut install = apt_get(&["install", "-y", "--no-install-recommends"]);
        install.args(self.packages);
        if let Err(error) = run_command(&mut install) {
            bail!("installing {packages} failed: {error:#}\ninstall it yourself: `{manual}`");
        }
        if !self.runs() {
            bail!("{} still does not run after installing {packages}", self.program);
        }
        Ok(())
    }
}
