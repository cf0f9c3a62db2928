//! `cargo xtask fuzz`: runs the fuzz targets (the `arena-fuzz` crate, `tests/fuzz`) on the
//! stable toolchain, and the short run `cargo xtask test` includes.
//!
//! The runner is built in the dev profile on purpose: a release build would rebuild wasmtime,
//! while the dev profile already optimises dependencies and the fuzz crate itself.

use crate::util::{cargo, run};
use anyhow::Result;
use std::path::Path;

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

/// Every target for [`TEST_SECONDS`], for `cargo xtask test`.
pub fn smoke(root: &Path) -> Result<()> {
    fuzz(root, &["--seconds".to_owned(), TEST_SECONDS.to_owned()])
}
