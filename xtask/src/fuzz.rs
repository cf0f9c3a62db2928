//! `cargo xtask fuzz`: runs the fuzz targets (the `arena-fuzz` crate, `tests/fuzz`) on the
//! stable toolchain, and the short run `cargo xtask test` includes.
//!
//! The runner is built in the dev profile on purpose: a release build would rebuild wasmtime,
//! while the dev profile already optimises dependencies and the fuzz crate itself.

use crate::util::{cargo, run, run_command, target_dir};
use anyhow::Result;
use std::path::Path;
use std::process::Command;

/// Seconds per target in `cargo xtask test`: enough for every target to run thousands of inputs
/// (the loader: hundreds), cheap enough for CI.
pub const TEST_SECONDS: &str = "5";

/// `cargo xtask fuzz [--seconds N] [--seed S] [TARGET...]`: the arguments go to `arena-fuzz`,
/// which checks them.
pub fn fuzz(root: &Path, args: &[String]) -> Result<()> {
    let mut command = vec!["run", "-p", "arena-fuzz", "--bin", "arena-fuzz", "--"];
    command.extend(args.iter().map(String::as_str));
    run(root, &cargo(), &command)
}

/// Every target for [`TEST_SECONDS`], for `cargo xtask test`, right after `cargo test
/// --workspace`: that build left the runner (a package's binaries are built for its integration
/// tests) with the workspace's features, which `cargo run -p arena-fuzz` would not reuse (its
/// own feature set rebuilt tokio and the host's crates: four minutes of CI). Run directly when it
/// is there, else through `cargo run`.
pub fn smoke(root: &Path) -> Result<()> {
    let built = target_dir(root).join("debug").join(format!("arena-fuzz{}", std::env::consts::EXE_SUFFIX));
    if built.is_file() {
        return run_command(Command::new(&built).args(["--seconds", TEST_SECONDS]).current_dir(root));
    }
    fuzz(root, &["--seconds".to_owned(), TEST_SECONDS.to_owned()])
}
