//! AssemblyScript bots: ordinary AssemblyScript programs that speak their game's line protocol on
//! stdin/stdout, compiled by the AssemblyScript compiler (`asc`) with the WASI shim
//! (`@assemblyscript/wasi-shim`) into a `wasm32-wasip1` command: a core module exporting
//! `_start` (the program's top-level statements) and importing `wasi_snapshot_preview1` only. The
//! arena wraps it into a component with the preview1 command adapter when it loads it. The
//! program reads stdin with the shim's `process.stdin.read(buffer)` and writes with
//! `process.stdout.write(text)` (unbuffered: each call is one `fd_write`).
//!
//! The manifest is `{ "language": "assemblyscript", "protocol": "stdio", "game": "paint" }` (or
//! `"language": "as"`); any other `protocol` is refused when it is read
//! ([`super::ForeignBot::read`]). `"main"` is optional and names the entry file, relative to the
//! bot folder and inside it; by default it is `assembly/index.ts`, where `asinit` puts a
//! project's entry, or else `index.ts` in the folder itself. The folder may hold an
//! `asconfig.json`, read as `asc` reads it in the folder (its `options`, its `release` target, its
//! `extends` chain); it must extend the shim's, as the shim's README says
//! (`"extends": "./node_modules/@assemblyscript/wasi-shim/asconfig.json"`), which is what makes
//! the program a WASI command, and this is checked before `asc` runs. Without one the build uses
//! the shim's own. The folder may be anywhere, inside this repository or not: nothing is written
//! into it, and the output is named after it as for other languages.
//!
//! The toolchain is npm's `assemblyscript` and `@assemblyscript/wasi-shim` ([`PINNED`]), pinned
//! by `xtask/assemblyscript/package.json` and its `package-lock.json` and installed on demand with
//! `npm ci` into `target/toolchains/assemblyscript/` (Node.js 20 or later and npm on the PATH).
//! A program imports the standard library and its own files: another package's sources are
//! copied into the folder and imported by relative path. No JSON library is pinned: measured on
//! Paint, `assemblyscript-json` (which builds the whole document) spends about 1.6M fuel a turn,
//! and `json-as` needs a compiler transform whose 1.6.0 release compiles an entry named
//! `assembly/index.ts` as a library, to an empty `_start`; the example bots read their lines with
//! a small JSON reader of their own (`bots-examples/paint-stdio-as/assembly/json.ts`).
//!
//! The folder is copied to `stage/<name>/` in the toolchain folder (leaving out hidden entries
//! and its own `node_modules`), with `node_modules` linking to the toolchain's, so that imports
//! and `extends` resolve to the pinned packages whatever the developer installed. `asc` runs
//! there with:
//!
//! - one more entry file ahead of the program's, [`PRELUDE`], which exports `cabi_realloc` from
//!   the program's heap. The preview1 adapter takes its stack (before `_start` runs) and its state
//!   (at the first WASI call) from the module's `cabi_realloc` when there is one, else by growing
//!   the module's memory; and AssemblyScript's allocator, at its first allocation, takes all of
//!   memory above the static data as its heap, so grown pages end up used twice (measured: the
//!   adapter's assertion fails at start-up, or the collector aborts some turns into a match);
//! - `-O3` (optimize level 3, shrink level 0: speed, since fuel counts instructions) and
//!   `--runtime incremental`, the default runtime (TLSF allocator and incremental garbage
//!   collector): a bot allocates every turn's line and what it parses, and the collector frees it
//!   as it goes; `stub` never frees (memory grows every turn until it runs out), `minimal` frees
//!   only when the program calls `__collect()`. Both flags override `asconfig.json`'s;
//! - no debug information: the shim's configuration sets none, and every custom section is
//!   removed from the output (`asinit`'s `asconfig.json` sets `sourceMap`, which leaves a
//!   `sourceMappingURL` section, and `debug` leaves a `name` section);
//! - the output written in the stage and checked before it is moved to `out` (through
//!   `out.wasm.partial`, so that a failed build leaves no truncated module): it must import from
//!   `wasi_snapshot_preview1` only and export `_start`. The module holds no path of this machine
//!   (`asc` names sources relative to the stage), so a folder builds to the same bytes wherever
//!   it is, whatever its name.
//!
//! Measured on the 2-core machine: the first build installs the toolchain (4 packages, 104 MB;
//! `npm ci` takes about 1 s from npm's cache, a download adds its own time) and compiles, about
//! 3 s in all; every later build takes about 2 s (`asc` and Binaryen are JavaScript and Wasm,
//! started afresh each time; up to 5 s on a loaded machine), and `cargo xtask bots` skips an
//! unchanged bot without running `asc`. The example bots are 22 to 29 KB.

use super::{ForeignBot, copy_tree, fresh_stage};
use crate::util::{run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The pinned packages, as `xtask/assemblyscript/package.json` names them (a test checks that
/// file and its lock). A bump changes the code every AssemblyScript bot runs, and so its fuel.
pub const PINNED: [(&str, &str); 2] = [("@assemblyscript/wasi-shim", "0.1.0"), ("assemblyscript", "0.28.20")];

/// The npm manifest and lock file pinning the toolchain, in `xtask/assemblyscript/`.
const PINS: [&str; 2] = ["package.json", "package-lock.json"];

/// Written into the toolchain folder after a complete install: a copy of the lock it installed.
const STAMP: &str = ".installed-lock.json";

/// The shim's configuration, relative to a stage (through its `node_modules` link).
const SHIM_CONFIG: &str = "node_modules/@assemblyscript/wasi-shim/asconfig.json";

/// The project configuration `asc` reads in its working directory.
const PROJECT_CONFIG: &str = "asconfig.json";

/// Where `asc` writes the module, relative to the stage (hidden: no bot file is copied there).
const STAGED_OUTPUT: &str = ".arena-build/bot.wasm";

/// The only module a WASI preview1 command imports from.
const PREVIEW1: &str = "wasi_snapshot_preview1";

/// The entry file compiled with the program's, relative to the stage, and its source: it exports
/// `cabi_realloc` from the program's heap (see the module doc).
const PRELUDE: &str = ".arena-build/cabi_realloc.ts";
const PRELUDE_SOURCE: &str = "\
// Added by the arena's build (xtask/src/foreign/assemblyscript.rs): the WASI preview1 adapter the
// arena wraps the program in takes its stack and state from the module's cabi_realloc when it has
// one, else from pages it grows, which the AssemblyScript heap would then take for its own.
export function cabi_realloc(ptr: usize, oldSize: usize, align: usize, newSize: usize): usize {
  if (ptr != 0) return heap.realloc(ptr, newSize);
  if (newSize == 0) return align;
  return (heap.alloc(newSize + align - 1) + align - 1) & ~(align - 1);
}
";

/// The entry files tried when the manifest names none, in order.
const DEFAULT_ENTRIES: [&str; 2] = ["assembly/index.ts", "index.ts"];

/// Where the toolchain and the staged sources live.
fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("assemblyscript")
}

/// The folder holding [`PINS`].
fn pins_dir(root: &Path) -> PathBuf {
    root.join("xtask").join("assemblyscript")
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let entry = entry_file(&bot.dir, bot.stdio_main.as_deref().unwrap_or("."))?;
    let asc = ensure_toolchain(root)?;
    let tools = toolchain_dir(root);
    let stage = tools.join("stage").join(&bot.name);
    fresh_stage(&stage)?;
    copy_tree(&bot.dir, &stage, &|name| name == "node_modules")?;
    link_dir(&tools.join("node_modules"), &stage.join("node_modules"))?;

    let prelude = stage.join(PRELUDE);
    std::fs::create_dir_all(stage.join(".arena-build"))
        .with_context(|| format!("cannot create {}", stage.display()))?;
    std::fs::write(&prelude, PRELUDE_SOURCE).with_context(|| format!("cannot write {}", prelude.display()))?;

    let config = if stage.join(PROJECT_CONFIG).is_file() { PROJECT_CONFIG } else { SHIM_CONFIG };
    if config == PROJECT_CONFIG && !extends_shim(&stage)? {
        bail!(
            "{}: asconfig.json does not extend the WASI shim's configuration, which makes the program \
             a WASI command (stdin, stdout, `_start`): add \"extends\": \"./{SHIM_CONFIG}\" to it \
             (or remove it: the build then uses the shim's)",
            bot.dir.display()
        );
    }
    let mut command = Command::new("node");
    command.arg(&asc).args([PRELUDE, entry.as_str()]);
    command.args(["--config", config, "-O3", "--runtime", "incremental", "--noColors"]);
    command.args(["--outFile", STAGED_OUTPUT]).current_dir(&stage);
    if let Err(err) = run_command(&mut command) {
        let packages: Vec<String> = PINNED.iter().map(|(name, version)| format!("{name} {version}")).collect();
        return Err(err).context(format!(
            "asc failed (its message is above); an AssemblyScript bot imports its own files and the \
             pinned packages only: {}",
            packages.join(", ")
        ));
    }
    let built = stage.join(STAGED_OUTPUT);
    let bytes = std::fs::read(&built).with_context(|| format!("asc finished but {} is missing", built.display()))?;
    let command_module = wasi_command(&bytes).with_context(|| {
        format!(
            "{}: the module asc made is not a WASI command (asconfig.json may not change the shim's \
             `exportStart` or `use`, nor import memory)",
            bot.dir.display()
        )
    })?;

    // Written beside the output and renamed, so a failed build leaves no truncated module.
    let partial = out.with_extension("wasm.partial");
    std::fs::write(&partial, command_module).with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, out).with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))
}

/// The entry file for `main` (the manifest's, `.` when it names none), relative to the bot folder
/// `dir`, after checking that it is a `.ts` file inside `dir`: the build's inputs, which decide
/// when it is redone ([`super::input_digest`]), are that folder's.
fn entry_file(dir: &Path, main: &str) -> Result<String> {
    if main == "." {
        return match DEFAULT_ENTRIES.into_iter().find(|entry| dir.join(entry).is_file()) {
            Some(entry) => Ok(entry.to_owned()),
            None => bail!(
                "{} has neither assembly/index.ts (where asinit puts a project's entry) nor index.ts: \
                 put the program there, or name its entry file in bot.json's \"main\"",
                dir.display()
            ),
        };
    }
    let relative = Path::new(main);
    if !relative.components().all(|part| matches!(part, Component::Normal(_) | Component::CurDir)) {
        bail!(
            "{}: \"main\" is {main:?}; it names a file inside the bot folder, such as \"assembly/bot.ts\"",
            dir.display()
        );
    }
    if relative.extension().is_none_or(|extension| extension != "ts") {
        bail!(
            "{}: \"main\" is {main:?}; it names the program's entry file, an AssemblyScript `.ts` file",
            dir.display()
        );
    }
    if !dir.join(relative).is_file() {
        bail!("{} is not a file: bot.json names it as the program's entry", dir.join(relative).display());
    }
    Ok(main.replace('\\', "/"))
}

/// Whether the stage's `asconfig.json` extends, maybe through other files, the shim's
/// configuration. `asc` resolves `extends` against the extending file's folder, or as a package
/// (in the stage's `node_modules`) when it does not start with `.`.
fn extends_shim(stage: &Path) -> Result<bool> {
    let shim = stage.join(SHIM_CONFIG).canonicalize().ok();
    let mut config = stage.join(PROJECT_CONFIG);
    // A bounded walk: a chain that loops never reaches the shim.
    for _ in 0..16 {
        if config.canonicalize().ok().is_some_and(|path| Some(path) == shim) {
            return Ok(true);
        }
        let Ok(text) = std::fs::read_to_string(&config) else { return Ok(false) };
        let json: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{} is not JSON", config.display()))?;
        let Some(parent) = json["extends"].as_str() else { return Ok(false) };
        config = if parent.starts_with('.') || Path::new(parent).is_absolute() {
            config.parent().unwrap_or(stage).join(parent)
        } else {
            stage.join("node_modules").join(parent)
        };
    }
    Ok(false)
}

/// `bytes` without their custom sections, after checking that they are a WASI preview1 command:
/// every import from `wasi_snapshot_preview1`, a function export `_start`.
fn wasi_command(bytes: &[u8]) -> Result<Vec<u8>> {
    use wasmparser::{ExternalKind, Parser, Payload};
    let mut kept = bytes.get(..8).context("not a WebAssembly module")?.to_vec();
    let mut start = false;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.context("not a valid WebAssembly module")?;
        match &payload {
            Payload::ImportSection(imports) => {
                for import in imports.clone() {
                    let import = import?;
                    if import.module != PREVIEW1 {
                        bail!("it imports `{}` `{}` (only `{PREVIEW1}` is provided)", import.module, import.name);
                    }
                }
            }
            Payload::ExportSection(exports) => {
                for export in exports.clone() {
                    let export = export?;
                    start |= export.name == "_start" && export.kind == ExternalKind::Func;
                }
            }
            Payload::CustomSection(_) => continue,
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            kept.push(id);
            let mut size = range.len();
            loop {
                let byte = (size & 0x7f) as u8;
                size >>= 7;
                kept.push(if size == 0 { byte } else { byte | 0x80 });
                if size == 0 {
                    break;
                }
            }
            kept.extend_from_slice(&bytes[range]);
        }
    }
    if !start {
        bail!("it exports no `_start` function");
    }
    Ok(kept)
}

/// Makes `link` a symbolic link to the folder `target`.
fn link_dir(target: &Path, link: &Path) -> Result<()> {
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(target, link);
    #[cfg(windows)]
    let linked = std::os::windows::fs::symlink_dir(target, link);
    linked.with_context(|| format!("cannot link {} to {}", link.display(), target.display()))
}

/// Installs the pinned toolchain unless the installed one was installed from the same lock file;
/// returns `asc`'s command-line entry point.
fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let tools = toolchain_dir(root);
    let asc = tools.join("node_modules").join("assemblyscript").join("bin").join("asc.js");
    let lock_path = pins_dir(root).join("package-lock.json");
    let lock = std::fs::read_to_string(&lock_path).with_context(|| format!("cannot read {}", lock_path.display()))?;
    let installed = std::fs::read_to_string(tools.join(STAMP)).ok();
    if installed.as_deref() == Some(lock.as_str()) && asc.is_file() {
        return Ok(asc);
    }

    for program in ["node", "npm"] {
        let found = Command::new(program).arg("--version").output();
        if !found.as_ref().is_ok_and(|output| output.status.success()) {
            bail!(
                "`{program}` was not found: AssemblyScript bots need Node.js (20 or later) and npm on the \
                 PATH (https://nodejs.org); the build installs the AssemblyScript compiler into {} itself",
                tools.display()
            );
        }
    }
    eprintln!("installing the AssemblyScript toolchain into {} (pinned by {})", tools.display(), lock_path.display());
    std::fs::create_dir_all(&tools).with_context(|| format!("cannot create {}", tools.display()))?;
    // Removed first: a stamp left from an older lock must not survive a failed install.
    let _ = std::fs::remove_file(tools.join(STAMP));
    for pin in PINS {
        let from = pins_dir(root).join(pin);
        std::fs::copy(&from, tools.join(pin)).with_context(|| format!("cannot copy {}", from.display()))?;
    }
    // `npm ci` installs exactly the lock (and replaces any node_modules left from another one).
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--loglevel", "error"]).current_dir(&tools);
    run_command(&mut npm)
        .context("installing the AssemblyScript toolchain with npm failed (npm's message is above)")?;
    if !asc.is_file() {
        bail!("npm finished but {} is missing", asc.display());
    }
    std::fs::write(tools.join(STAMP), &lock).with_context(|| format!("cannot write {}", tools.display()))?;
    Ok(asc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        super::super::test_root()
    }

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        super::super::scratch_folder(&format!("as-{name}"), files)
    }

    /// The entry defaults to asinit's `assembly/index.ts`, then `index.ts`; a named one is a
    /// `.ts` file inside the folder. All is checked before the toolchain is installed or run.
    #[test]
    fn the_entry_is_a_ts_file_inside_the_folder() {
        let dir = folder("entry", &[("bot.json", "{}")]);
        let message = format!("{:#}", entry_file(&dir, ".").unwrap_err());
        assert!(message.contains("assembly/index.ts") && message.contains("\"main\""), "{message}");
        std::fs::write(dir.join("index.ts"), "").unwrap();
        assert_eq!(entry_file(&dir, ".").unwrap(), "index.ts");
        std::fs::create_dir_all(dir.join("assembly")).unwrap();
        std::fs::write(dir.join("assembly/index.ts"), "").unwrap();
        std::fs::write(dir.join("assembly/bot.ts"), "").unwrap();
        assert_eq!(entry_file(&dir, ".").unwrap(), "assembly/index.ts");
        assert_eq!(entry_file(&dir, "assembly/bot.ts").unwrap(), "assembly/bot.ts");
        assert_eq!(entry_file(&dir, "./index.ts").unwrap(), "./index.ts");
        for outside in ["../elsewhere.ts", "/tmp/x.ts", "assembly/../../x.ts"] {
            let message = format!("{:#}", entry_file(&dir, outside).unwrap_err());
            assert!(message.contains("inside the bot folder"), "{outside}: {message}");
        }
        assert!(format!("{:#}", entry_file(&dir, "assembly").unwrap_err()).contains("`.ts` file"));
        assert!(format!("{:#}", entry_file(&dir, "missing.ts").unwrap_err()).contains("is not a file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An `asconfig.json` must reach the shim's through its `extends` chain.
    #[test]
    fn a_project_configuration_extends_the_shim() {
        let shim = r#"{ "options": { "exportStart": "_start" } }"#;
        let stage = folder(
            "config",
            &[
                ("node_modules/@assemblyscript/wasi-shim/asconfig.json", shim),
                ("asconfig.json", r#"{ "extends": "./node_modules/@assemblyscript/wasi-shim/asconfig.json" }"#),
                ("configs/base.json", r#"{ "extends": "../node_modules/@assemblyscript/wasi-shim/asconfig.json" }"#),
                ("configs/loop.json", r#"{ "extends": "./loop.json" }"#),
            ],
        );
        assert!(extends_shim(&stage).unwrap());
        for (config, extends) in [
            (r#"{ "extends": "@assemblyscript/wasi-shim/asconfig.json" }"#, true),
            (r#"{ "extends": "./configs/base.json", "options": {} }"#, true),
            (r#"{ "options": { "bindings": "esm" } }"#, false),
            (r#"{ "extends": "./configs/loop.json" }"#, false),
            (r#"{ "extends": "./missing.json" }"#, false),
        ] {
            std::fs::write(stage.join("asconfig.json"), config).unwrap();
            assert_eq!(extends_shim(&stage).unwrap(), extends, "{config}");
        }
        std::fs::write(stage.join("asconfig.json"), "{ extends }").unwrap();
        assert!(format!("{:#}", extends_shim(&stage).unwrap_err()).contains("is not JSON"));
        std::fs::remove_dir_all(&stage).unwrap();
    }

    /// The custom sections go; a module importing anything but WASI preview1, or without
    /// `_start`, is refused.
    #[test]
    fn only_a_wasi_command_is_kept_without_its_custom_sections() {
        // (import "wasi_snapshot_preview1" "proc_exit" (func (param i32))) (memory (export "memory") 1)
        // (func (export "_start")) (@custom "sourceMappingURL" "x.map")
        let header = b"\0asm\x01\0\0\0";
        let types = b"\x01\x08\x02\x60\x01\x7f\x00\x60\x00\x00";
        let import = b"\x02\x24\x01\x16wasi_snapshot_preview1\x09proc_exit\x00\x00";
        let functions = b"\x03\x02\x01\x01";
        let memory = b"\x05\x03\x01\x00\x01";
        let exports = b"\x07\x13\x02\x06memory\x02\x00\x06_start\x00\x01";
        let code = b"\x0a\x04\x01\x02\x00\x0b";
        let custom = b"\x00\x17\x10sourceMappingURL\x05x.map";
        let module =
            |parts: &[&[u8]]| [&header[..]].iter().chain(parts).flat_map(|part| part.to_vec()).collect::<Vec<u8>>();
        let plain = module(&[types, import, functions, memory, exports, code]);
        let with_map = module(&[types, import, functions, memory, exports, code, custom]);
        wasmparser::Validator::new().validate_all(&with_map).unwrap();
        assert_eq!(wasi_command(&with_map).unwrap(), plain);

        let env = module(&[types, &rename(import, "wasi", "env_"), functions, memory, exports, code]);
        let message = format!("{:#}", wasi_command(&env).unwrap_err());
        assert!(message.contains("imports `env__snapshot_preview1`"), "{message}");
        let no_start = module(&[types, import, functions, memory, &rename(exports, "_start", "_begin"), code]);
        assert!(format!("{:#}", wasi_command(&no_start).unwrap_err()).contains("no `_start`"));
    }

    /// `bytes` with the first `from` replaced by `to`, of the same length.
    fn rename(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
        let mut bytes = bytes.to_vec();
        let at = bytes.windows(from.len()).position(|window| window == from.as_bytes()).unwrap();
        bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
        bytes
    }

    /// `package.json` and its lock pin exactly [`PINNED`], so that a bump shows in this file,
    /// whose text is part of every AssemblyScript bot's input digest.
    #[test]
    fn the_pins_are_the_lock_files() {
        let read = |name: &str| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(pins_dir(&root()).join(name)).unwrap()).unwrap()
        };
        let (manifest, lock) = (read("package.json"), read("package-lock.json"));
        let dependencies = manifest["dependencies"].as_object().unwrap();
        assert_eq!(dependencies.len(), PINNED.len());
        for (name, version) in PINNED {
            assert_eq!(dependencies[name], version, "package.json: {name}");
            assert_eq!(lock["packages"][format!("node_modules/{name}")]["version"], version, "lock: {name}");
            assert_eq!(lock["packages"][""]["dependencies"][name], version, "lock's root: {name}");
        }
    }
}
