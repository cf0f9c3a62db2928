//! Zig bots: ordinary Zig programs (`pub fn main`, the standard library, files imported by
//! relative path) that speak their game's line protocol on stdin/stdout, compiled by Zig's own
//! compiler with `zig build-exe -target wasm32-wasi` into a `wasm32-wasip1` command: a core module
//! exporting `_start` and importing `wasi_snapshot_preview1`, which the arena wraps into a
//! component with wasmtime's preview1 adapter, as for any other wasip1 command.
//!
//! The manifest is `{ "language": "zig", "protocol": "stdio", "game": "paint" }`: any other
//! `protocol` is refused when it is read ([`super::ForeignBot::read`]). `"main"` is optional and
//! names the root source file, the one with `pub fn main`, relative to the bot folder and inside
//! it; by default it is `main.zig`, or `src/main.zig` (where `zig init` puts it) when the folder
//! has no `main.zig`. The root file imports the bot's other files by path (`@import("board.zig")`),
//! from its own folder or below it, as Zig allows. A `build.zig` is not run, so neither the
//! modules it wires up (the `@import("name")` of `zig init`'s `src/main.zig`: a bot imports
//! `src/root.zig` by path instead) nor the packages of a `build.zig.zon` are there: the build is
//! the one `zig build-exe` command below, the same for every Zig bot. The folder may be
//! anywhere, inside this repository or not: nothing is written into it, and the output is named
//! after it as for other languages.
//!
//! The toolchain is PyPI's `ziglang` (the official Zig release, repackaged as a wheel), installed
//! on demand with pip into its own virtual environment, `target/toolchains/zig/venv/`, by the
//! same helper as componentize-py ([`super::python::pip_install`]), and run as the wheel says,
//! `python -m ziglang` (with `-I`: neither `PYTHON*` variables nor a `ziglang.py` in the bot
//! folder, the working directory, can change what runs). The compiler runs in the bot folder as
//!
//! ```text
//! zig build-exe -target wasm32-wasi -O ReleaseFast -fno-strip \
//!     --global-cache-dir target/toolchains/zig/cache/global \
//!     --cache-dir target/toolchains/zig/cache/local \
//!     -femit-bin=target/toolchains/zig/out/<bot>/bot.wasm <main>
//! ```
//!
//! with every `ZIG_*` variable of the caller's environment removed (`ZIG_LIB_DIR`,
//! `ZIG_GLOBAL_CACHE_DIR`, ... would change what is compiled or where it is cached). Then:
//!
//! - `ReleaseFast`, not `ReleaseSmall`: every instruction costs fuel. Measured on the example
//!   bots over a whole match, ReleaseSmall spends 1.45 to 2.1 times ReleaseFast's fuel (Zig's
//!   `std.json` scanner is most of a JSON bot's turn, and only ReleaseFast inlines it) for files
//!   about a quarter smaller (Paint: 113k fuel a median turn against 170k; 139 KB against
//!   109 KB, both without a `name` section).
//!   Neither checks bounds or overflow at run time: `-O ReleaseSafe` does, at about 1.3 times
//!   ReleaseFast's fuel, for a programmer who builds by hand.
//! - `-fno-strip`, then the `.debug_*` custom sections are dropped from the module: what is left
//!   is Zig's `name` section (about 10 KB), which names the bot's functions in traps and in
//!   `arena profile`. `-fstrip` would drop it too; DWARF, about 1 MB, holds the machine's paths.
//! - The module is emitted as `bot.wasm` in a staging folder (its `name` section records the
//!   file's name), read back, and written beside the output as `.partial` and renamed, so a
//!   failed build leaves no truncated module. With no path of this machine in it, a folder builds
//!   to the same bytes wherever it is and whatever its name (a unit test checks both).
//!
//! Zig's std reads stdin the way `zig init`'s template writes stdout, with a buffered
//! `std.Io.File.Reader`: it first tries positional reads, which the arena's stdin answers with
//! `ESPIPE`, as a pipe does, and then streams.
//!
//! Measured on the 2-core machine (busy with other builds): the first build of a Zig bot takes
//! about 18 s, of which about 9 s install the toolchain (a new venv, the 100 MB wheel, 440 MB
//! unpacked, fetched from the package index) and the rest compiles Zig's compiler_rt for wasm32
//! into the global cache, then the bot. Every later build, of that bot after a change or of
//! another Zig bot, takes 1.5 to 2.5 s: Zig compiles the program and the parts of std it uses as
//! one unit each time (and does not reuse a module emitted outside its cache), while
//! `cargo xtask bots` skips an unchanged bot without running Zig. A bot that uses `std.json` is
//! about 140 KB, the Azul one, which parses text by hand, 78 KB.

use super::ForeignBot;
use super::python::{pip_install, venv_program};
use crate::util::{run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use wasmparser::{Encoding, Parser, Payload};

/// The pinned Zig release: PyPI's `ziglang` version, which is Zig's. A bump changes the code
/// every Zig bot runs, and so its fuel costs, and may change the standard library's API (its
/// I/O interfaces changed in 0.15 and 0.16): the example bots are written for 0.17.
const ZIGLANG_VERSION: &str = "0.17.1";

/// The root source files looked for, in order, when the manifest has no `"main"`: the plain
/// one-file program's, then `zig init`'s layout.
const DEFAULT_ROOTS: [&str; 2] = ["main.zig", "src/main.zig"];

/// The optimisation mode of every build (see the module's documentation).
const OPTIMIZE: &str = "ReleaseFast";

/// Where the toolchain, its caches and the staged outputs live.
fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("zig")
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let main = root_source(&bot.dir, bot.stdio_main.as_deref().unwrap_or("."))?;
    let python = ensure_toolchain(root)?;
    let tools = toolchain_dir(root);
    // `zig build-exe` runs in the bot folder: every path it is given besides the root file is
    // absolute.
    let tools = if tools.is_absolute() { tools } else { std::env::current_dir()?.join(tools) };
    let out = if out.is_absolute() { out.to_path_buf() } else { std::env::current_dir()?.join(out) };
    let stage = tools.join("out").join(&bot.name);
    super::fresh_stage(&stage)?;
    let emitted = stage.join("bot.wasm");

    let mut command = zig_command(&python);
    command
        .args(["build-exe", "-target", "wasm32-wasi", "-O", OPTIMIZE, "-fno-strip", "--global-cache-dir"])
        .arg(tools.join("cache").join("global"))
        .arg("--cache-dir")
        .arg(tools.join("cache").join("local"))
        .arg(format!("-femit-bin={}", emitted.display()))
        .arg(&main)
        .current_dir(&bot.dir);
    run_command(&mut command).context(format!(
        "zig build-exe failed (its message is above); a Zig bot is built from its root file {} alone, \
         with Zig {ZIGLANG_VERSION}'s standard library: it imports its other files by path \
         (`@import(\"board.zig\")`), not as modules of a build.zig, which is not run (in the \
         src/main.zig of `zig init`, `@import(\"root.zig\")` for the project's module)",
        main.display()
    ))?;

    let module = std::fs::read(&emitted).with_context(|| format!("cannot read {}", emitted.display()))?;
    // The staged module, DWARF and all, is not needed again.
    let _ = std::fs::remove_dir_all(&stage);
    let module =
        without_debug_sections(&module).with_context(|| format!("{} is not a wasm module", emitted.display()))?;
    // Written beside the output and renamed, so a failed build leaves no truncated module.
    let partial = out.with_extension("wasm.partial");
    std::fs::write(&partial, module).with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &out).with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))
}

/// The root source file named by the manifest's `main` (relative to the bot folder `dir`; `.`,
/// its absence, for the first of [`DEFAULT_ROOTS`] that exists), after checking that it is a
/// `.zig` file inside `dir`: the build's inputs, which decide when it is redone
/// ([`super::input_digest`]), are that folder's.
fn root_source(dir: &Path, main: &str) -> Result<PathBuf> {
    if main == "." {
        return match DEFAULT_ROOTS.into_iter().find(|root| dir.join(root).is_file()) {
            Some(root) => Ok(PathBuf::from(root)),
            None => bail!(
                "{} has no main.zig (nor src/main.zig): a Zig bot's root source file, the one with \
                 `pub fn main`, is main.zig unless bot.json names another, \"main\": \"bot.zig\"",
                dir.display()
            ),
        };
    }
    let relative = Path::new(main);
    if !relative.components().all(|part| matches!(part, Component::Normal(_) | Component::CurDir))
        || relative.extension().is_none_or(|extension| extension != "zig")
    {
        bail!(
            "{}: \"main\" is {main:?}; it names the root source file, a .zig file inside the bot folder, \
             such as \"src/main.zig\"",
            dir.display()
        );
    }
    if !dir.join(relative).is_file() {
        bail!("{} is not a file: bot.json names it as the root source file", dir.join(relative).display());
    }
    Ok(relative.to_path_buf())
}

/// `module` without its DWARF, the custom sections whose names start with `.debug`; every other
/// section, the `name` section included, is kept byte for byte.
fn without_debug_sections(module: &[u8]) -> Result<Vec<u8>> {
    let mut kept = Vec::with_capacity(module.len());
    // Sections follow one another: each runs from the end of the previous one (the 8-byte header
    // for the first) to the end of its contents.
    let mut from = 0;
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload?;
        if let Payload::Version { encoding: Encoding::Component, .. } = payload {
            bail!("a component, not a core module");
        }
        let Some((_, range)) = payload.as_section() else { continue };
        let debug = matches!(&payload, Payload::CustomSection(section) if section.name().starts_with(".debug"));
        if !debug {
            kept.extend_from_slice(&module[from..range.end]);
        }
        from = range.end;
    }
    if from != module.len() {
        bail!("{} bytes after the last section", module.len() - from);
    }
    Ok(kept)
}

/// A `zig` command, through the virtual environment's Python, with the environment of every Zig
/// build (see the module's documentation).
fn zig_command(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args(["-I", "-m", "ziglang"]);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("ZIG_") {
            command.env_remove(&key);
        }
    }
    command
}

/// The path of the virtual environment's Python, whose `ziglang` is the pinned release, installing
/// it first when the virtual environment is missing or holds another release.
fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let venv = toolchain_dir(root).join("venv");
    let python = venv_program(&venv, "python");
    if installed_version(&python).as_deref() == Some(ZIGLANG_VERSION) {
        return Ok(python);
    }
    eprintln!("installing Zig {ZIGLANG_VERSION} (PyPI's ziglang) into {}", venv.display());
    pip_install(&venv, &format!("ziglang=={ZIGLANG_VERSION}"))?;
    match installed_version(&python) {
        Some(version) if version == ZIGLANG_VERSION => Ok(python),
        other => bail!(
            "after installing, `{} -I -m ziglang version` says {:?}, not {ZIGLANG_VERSION:?}",
            python.display(),
            other.unwrap_or_else(|| "nothing".into())
        ),
    }
}

/// What `zig version` prints (`0.17.1`), `None` if it does not run.
fn installed_version(python: &Path) -> Option<String> {
    let output = zig_command(python).arg("version").output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        super::super::test_root()
    }

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        super::super::scratch_folder(&format!("zig-{name}"), files)
    }

    /// The root file is main.zig, else zig init's src/main.zig, or the .zig file inside the folder
    /// that "main" names; anything else is refused before the toolchain is installed or run.
    #[test]
    fn the_root_source_file_is_a_zig_file_inside_the_folder() {
        let dir =
            folder("main", &[("src/main.zig", "pub fn main() void {}\n"), ("bot.zig", "pub fn main() void {}\n")]);
        assert_eq!(root_source(&dir, ".").unwrap(), Path::new("src/main.zig"));
        std::fs::write(dir.join("main.zig"), "pub fn main() void {}\n").unwrap();
        assert_eq!(root_source(&dir, ".").unwrap(), Path::new("main.zig"));
        assert_eq!(root_source(&dir, "bot.zig").unwrap(), Path::new("bot.zig"));
        assert_eq!(root_source(&dir, "./src/main.zig").unwrap(), Path::new("./src/main.zig"));
        for outside in ["../elsewhere.zig", "/tmp/main.zig", "src/../../x.zig", "src", "bot.json"] {
            let message = format!("{:#}", root_source(&dir, outside).unwrap_err());
            assert!(message.contains("a .zig file inside the bot folder"), "{outside}: {message}");
        }
        assert!(format!("{:#}", root_source(&dir, "missing.zig").unwrap_err()).contains("is not a file"));
        std::fs::remove_dir_all(&dir).unwrap();
        let empty = folder("no-main", &[("build.zig", "")]);
        let message = format!("{:#}", root_source(&empty, ".").unwrap_err());
        assert!(message.contains("no main.zig") && message.contains("\"main\""), "{message}");
        std::fs::remove_dir_all(&empty).unwrap();
    }

    /// A module with a function, a DWARF section between the code and the name section, and
    /// a producers section: only the DWARF goes.
    #[test]
    fn only_the_debug_sections_are_dropped() {
        fn custom(name: &str, contents: &[u8]) -> Vec<u8> {
            let mut body = vec![name.len() as u8];
            body.extend_from_slice(name.as_bytes());
            body.extend_from_slice(contents);
            let mut section = vec![0, body.len() as u8];
            section.extend(body);
            section
        }
        let header = b"\0asm\x01\0\0\0".to_vec();
        let types = vec![1, 4, 1, 0x60, 0, 0];
        let functions = vec![3, 2, 1, 0];
        let code = vec![10, 4, 1, 2, 0, 0x0b];
        let name = custom("name", &[1, 5, 1, 0, 2, b'h', b'i']);
        let producers = custom("producers", &[0]);
        let keep = [header, types, functions, code].concat();
        let module = [keep.clone(), custom(".debug_info", &[7; 20]), name.clone(), producers.clone()].concat();
        let stripped = without_debug_sections(&module).unwrap();
        assert_eq!(stripped, [keep, name, producers].concat());
        wasmparser::Validator::new().validate_all(&stripped).unwrap();
        assert!(without_debug_sections(b"\0asm\x01\0\0\0\x01\x09").is_err(), "a truncated section");
    }

    /// The built module is the same whatever the folder's place and name. Needs the toolchain
    /// (it is installed if missing: PyPI, about 50 MB), so it runs only when asked:
    /// `cargo test -p xtask -- --ignored`.
    #[test]
    #[ignore = "installs and runs the Zig toolchain"]
    fn a_folder_builds_to_the_same_bytes_anywhere() {
        let program = "const std = @import(\"std\");\n\npub fn main(init: std.process.Init) !void {\n    \
                       var buffer: [64]u8 = undefined;\n    var out: std.Io.File.Writer = .init(.stdout(), init.io, \
                       &buffer);\n    try out.interface.writeAll(\"ready\\n\");\n    try out.interface.flush();\n}\n";
        let files =
            [("bot.json", r#"{ "language": "zig", "protocol": "stdio", "game": "paint" }"#), ("main.zig", program)];
        let first = folder("same-a", &files);
        let elsewhere = folder("same-b", &[]);
        let second = elsewhere.join("deeper").join("other-name");
        super::super::copy_tree(&first, &second, &|_| false).unwrap();
        let outputs = folder("same-out", &[]);
        std::fs::create_dir_all(&outputs).unwrap();
        let mut built = Vec::new();
        for (dir, name) in [(&first, "a.wasm"), (&second, "b.wasm")] {
            let bot = ForeignBot::read(&root(), dir).unwrap();
            build(&root(), &bot, &outputs.join(name)).unwrap();
            built.push(std::fs::read(outputs.join(name)).unwrap());
            let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name()).collect();
            names.sort();
            assert_eq!(names, ["bot.json", "main.zig"], "the build wrote into {}", dir.display());
        }
        assert!(built[0] == built[1], "the two builds differ");
        let text = String::from_utf8_lossy(&built[0]);
        assert!(!text.contains(&*std::env::temp_dir().to_string_lossy()), "a path in the module");
        for dir in [first, elsewhere, outputs] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}
