//! Rust bots: every crate under `bots-examples/`, `tests/bots/` and the SDK's templates, built
//! for `wasm32-wasip2`; a few line-protocol bots also for `wasm32-wasip1`.
//!
//! Bots are built in one cargo invocation per set of SDK features (one per game), never all
//! together: cargo unifies a dependency's features over every package of an invocation, and an
//! SDK compiled with every game's feature is different code, which spends different fuel (the
//! trivial Azul bot: 4,790 fuel a turn built with the others, 4,798 alone). Built per game, a
//! bot is the same file as `cargo build -p <bot>` alone makes, and as its `arena new-bot` copy.

use crate::util::{bots_dir, cargo, run, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm target bots are built for.
pub const BOT_TARGET: &str = "wasm32-wasip2";
/// The cargo profile bots are built with (see the workspace Cargo.toml).
const BOT_PROFILE: &str = "bot";
/// Folders whose crates are bots: the examples, the test fixtures, and the SDK guide's bots
/// (the templates of `arena new-bot`).
pub const BOT_DIRS: [&str; 3] = ["bots-examples", "tests/bots", "guest-sdk/rust/templates"];
/// Binary bots also built for `wasm32-wasip1` (core modules, which the host wraps into components
/// when loading), copied to `target/bots/<crate-name>-wasip1.wasm`.
const WASIP1_BOTS: [&str; 3] = ["paint-stdio-random", "fx-stdio-pipes", "fx-stdio-data"];

/// The bot crates: workspace members under [`BOT_DIRS`], by package name.
pub fn bot_crates(root: &Path) -> Result<Vec<String>> {
    workspace_crates_under(root, &BOT_DIRS)
}

/// The workspace's packages whose manifest is under one of `dirs` (relative to `root`), sorted:
/// lists of crates derive from the folders they live in, so a new one is never forgotten.
pub fn workspace_crates_under(root: &Path, dirs: &[&str]) -> Result<Vec<String>> {
    let metadata = workspace_metadata(root)?;
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

/// Each workspace package's folder, by name (where a bot crate's data folder is).
fn crate_dirs(root: &Path) -> Result<BTreeMap<String, PathBuf>> {
    let metadata = workspace_metadata(root)?;
    let mut dirs = BTreeMap::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let manifest = Path::new(package["manifest_path"].as_str().unwrap_or_default());
        if let (Some(name), Some(dir)) = (package["name"].as_str(), manifest.parent()) {
            dirs.insert(name.to_owned(), dir.to_owned());
        }
    }
    Ok(dirs)
}

/// Each workspace package's name, by its folder (which bot a template folder builds to).
pub fn crate_names_by_dir(root: &Path) -> Result<BTreeMap<PathBuf, String>> {
    Ok(crate_dirs(root)?.into_iter().map(|(name, dir)| (dir, name)).collect())
}

/// `cargo metadata --no-deps` of the workspace.
fn workspace_metadata(root: &Path) -> Result<serde_json::Value> {
    let output = Command::new(cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// The crates grouped by the SDK features they enable (sorted; crates without the SDK form the
/// group of no features), so that each group builds in its own cargo invocation.
fn by_sdk_features(root: &Path, crates: &[String]) -> Result<BTreeMap<Vec<String>, Vec<String>>> {
    let metadata = workspace_metadata(root)?;
    let mut groups: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for name in crates {
        let package = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|package| package["name"] == name.as_str())
            .with_context(|| format!("no workspace package {name}"))?;
        let sdk = package["dependencies"].as_array().into_iter().flatten().find(|dep| dep["name"] == "arena-sdk");
        let mut features: Vec<String> = sdk
            .and_then(|dep| dep["features"].as_array())
            .into_iter()
            .flatten()
            .filter_map(|feature| feature.as_str().map(str::to_owned))
            .collect();
        features.sort();
        groups.entry(features).or_default().push(name.clone());
    }
    Ok(groups)
}

/// Builds every Rust bot and copies it to `target/bots/`; returns the output paths.
pub fn build_all(root: &Path) -> Result<Vec<PathBuf>> {
    build(root, &bot_crates(root)?)
}

/// Builds the named bot crates (one cargo invocation per set of SDK features: see the module
/// docs) and copies each to `target/bots/`; returns the output paths.
pub fn build(root: &Path, crates: &[String]) -> Result<Vec<PathBuf>> {
    for group in by_sdk_features(root, crates)?.values() {
        let mut args = vec!["build", "--target", BOT_TARGET, "--profile", BOT_PROFILE];
        for name in group {
            args.extend(["-p", name.as_str()]);
        }
        run(root, &cargo(), &args)?;
    }
    let target_dir = target_dir(root);
    let out_dir = bots_dir(root);
    std::fs::create_dir_all(&out_dir)?;
    let crate_dirs = crate_dirs(root)?;
    let mut outputs = Vec::new();
    for name in crates {
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
        if let Some(dir) = crate_dirs.get(name) {
            crate::foreign::place_data(dir, &out)?;
        }
        outputs.push(out);
    }
    let wasip1_bots: Vec<&str> = WASIP1_BOTS.into_iter().filter(|name| crates.iter().any(|c| c == name)).collect();
    if wasip1_bots.is_empty() {
        return Ok(outputs);
    }
    let mut wasip1 = vec!["build", "--target", "wasm32-wasip1", "--profile", BOT_PROFILE];
    for name in &wasip1_bots {
        wasip1.extend(["-p", name]);
    }
    run(root, &cargo(), &wasip1)?;
    for name in wasip1_bots {
        let built = target_dir.join("wasm32-wasip1").join(BOT_PROFILE).join(format!("{name}.wasm"));
        let out = out_dir.join(format!("{name}-wasip1.wasm"));
        std::fs::copy(&built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
        outputs.push(out);
    }
    Ok(outputs)
}

/// Builds a bot crate outside the workspace (one `arena new-bot --lang rust` wrote) with
/// `cargo build --release --target wasm32-wasip2` in its folder, so its own
/// `rust-toolchain.toml`, `Cargo.lock` and profile apply; copies the component to `out`
/// (default `target/bots/<package-name>.wasm`) and returns that path.
pub fn build_crate(root: &Path, dir: &Path, out: Option<PathBuf>) -> Result<PathBuf> {
    build_crate_into(root, dir, out, None)
}

/// [`build_crate`], with cargo's target folder set to `target_dir` when given.
pub fn build_crate_into(root: &Path, dir: &Path, out: Option<PathBuf>, target_dir: Option<&Path>) -> Result<PathBuf> {
    let cargo_in_dir = || {
        let mut command = Command::new(cargo());
        command.current_dir(dir);
        if let Some(target_dir) = target_dir {
            command.env("CARGO_TARGET_DIR", target_dir);
        }
        command
    };
    let output = cargo_in_dir()
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .with_context(|| format!("cannot run cargo metadata in {}", dir.display()))?;
    if !output.status.success() {
        bail!("{}: not a cargo package: {}", dir.display(), String::from_utf8_lossy(&output.stderr).trim());
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let manifest = dir.join("Cargo.toml").canonicalize()?;
    let package = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|package| package["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
        .with_context(|| format!("{} is a workspace without a package of its own", manifest.display()))?;
    let name = package["name"].as_str().context("a package without a name")?.to_owned();
    let target_dir = PathBuf::from(metadata["target_directory"].as_str().context("cargo metadata: no target folder")?);
    run_command(cargo_in_dir().args(["build", "--release", "--target", BOT_TARGET]))?;
    let built_dir = target_dir.join(BOT_TARGET).join("release");
    // A library (cdylib) is built as `<crate_name>.wasm`, a binary (a WASI command) keeps the
    // package's name.
    let built = [built_dir.join(format!("{}.wasm", name.replace('-', "_"))), built_dir.join(format!("{name}.wasm"))]
        .into_iter()
        .find(|path| path.is_file())
        .with_context(|| {
            format!("cargo built no {name}.wasm in {}: is the crate a cdylib or a binary?", built_dir.display())
        })?;
    let out = out.unwrap_or_else(|| bots_dir(root).join(format!("{name}.wasm")));
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::copy(&built, &out).with_context(|| format!("copying {} to {}", built.display(), out.display()))?;
    crate::foreign::place_data(dir, &out)?;
    Ok(out)
}
