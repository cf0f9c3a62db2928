//! Rust bots: every crate under `bots-examples/` and `tests/bots/`, built for `wasm32-wasip2`
//! in one cargo invocation; a few line-protocol bots also for `wasm32-wasip1`.

use crate::util::{bots_dir, cargo, run, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm target bots are built for.
pub const BOT_TARGET: &str = "wasm32-wasip2";
/// The cargo profile bots are built with (see the workspace Cargo.toml).
const BOT_PROFILE: &str = "bot";
/// Folders whose crates are bots.
pub const BOT_DIRS: [&str; 2] = ["bots-examples", "tests/bots"];
/// Binary bots also built for `wasm32-wasip1` (core modules, which the host wraps into components
/// when loading), copied to `target/bots/<crate-name>-wasip1.wasm`.
const WASIP1_BOTS: [&str; 1] = ["paint-stdio-random"];

/// The bot crates: workspace members under [`BOT_DIRS`], by package name.
pub fn bot_crates(root: &Path) -> Result<Vec<String>> {
    workspace_crates_under(root, &BOT_DIRS)
}

/// The workspace's packages whose manifest is under one of `dirs` (relative to `root`), sorted:
/// lists of crates derive from the folders they live in, so a new one is never forgotten.
pub fn workspace_crates_under(root: &Path, dirs: &[&str]) -> Result<Vec<String>> {
    let output = Command::new(cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let mut names = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let manifest = Path::new(package["manifest_path"].as_str().unwrap_or_default());
        let listed = dirs.iter().any(|dir| manifest.starts_with(root.join(dir)));
        if let (true, Some(name)) = (listed, package["name"].as_str()) {
            names.push(name.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Builds every Rust bot and copies it to `target/bots/`; returns the output paths.
pub fn build(root: &Path) -> Result<Vec<PathBuf>> {
    let crates = bot_crates(root)?;
    let mut args = vec!["build", "--target", BOT_TARGET, "--profile", BOT_PROFILE];
    for name in &crates {
        args.extend(["-p", name.as_str()]);
    }
    run(root, &cargo(), &args)?;
    let target_dir = target_dir(root);
    let out_dir = bots_dir(root);
    std::fs::create_dir_all(&out_dir)?;
    let mut outputs = Vec::new();
    for name in &crates {
        // A library bot (cdylib) is built as `<crate_name>.wasm` (underscores); a binary bot (a WASI
        // command speaking a line protocol) keeps the package's dashed name. If both exist (a crate
        // that changed kind), the newer one is this build's.
        let built_dir = target_dir.join(BOT_TARGET).join(BOT_PROFILE);
        let candidates =
            [built_dir.join(format!("{name}.wasm")), built_dir.join(format!("{}.wasm", name.replace('-', "_")))];
        let modified = |path: &PathBuf| std::fs::metadata(path).and_then(|meta| meta.modified()).ok();
        let built = candidates.iter().filter(|path| modified(path).is_some()).max_by_key(|path| modified(path));
        let built = built.unwrap_or(&candidates[1]);
        let out = out_dir.join(format!("{name}.wasm"));
        std::fs::copy(built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
        outputs.push(out);
    }
    let mut wasip1 = vec!["build", "--target", "wasm32-wasip1", "--profile", BOT_PROFILE];
    for name in WASIP1_BOTS {
        wasip1.extend(["-p", name]);
    }
    run(root, &cargo(), &wasip1)?;
    for name in WASIP1_BOTS {
        let built = target_dir.join("wasm32-wasip1").join(BOT_PROFILE).join(format!("{name}.wasm"));
        let out = out_dir.join(format!("{name}-wasip1.wasm"));
        std::fs::copy(&built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
        outputs.push(out);
    }
    Ok(outputs)
}
