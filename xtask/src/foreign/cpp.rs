//! C++ bots: ordinary C++ programs (a `main`, the standard library, optionally nlohmann/json)
//! that speak their game's line protocol on stdin/stdout, compiled by clang++ for `wasm32-wasi`
//! against wasi-libc and libc++ into a `wasm32-wasip1` command: a core module exporting `_start`
//! and importing `wasi_snapshot_preview1`. The arena wraps such a command into a component with
//! wasmtime's WASI preview1 command adapter when it loads it; nothing is added to the program.
//!
//! The manifest is `{ "language": "cpp", "protocol": "stdio", "game": "paint" }` (`"c++"` is
//! read as `"cpp"`; any other `protocol` is refused when it is read,
//! [`super::ForeignBot::read`]). `"main"` is optional and names, relative to the bot folder and
//! inside it, either a folder, whose every `*.cpp` and `*.cc` file is compiled (default `.`, the
//! bot folder itself; not its subfolders), or one such file, compiled alone (`"main": "bot.cpp"`,
//! for a folder holding several programs). Sources are compiled in name order, so the link order,
//! and so the module, is the same on every machine. A `*.c` file among them is refused: the C++
//! flags do not compile C (rename it `.cpp`). Headers beside the sources are found by
//! `#include "..."` as usual. The folder may be anywhere, inside this repository or not: nothing
//! is written into it, and the output is named after it as for other languages.
//!
//! The toolchain is the C bots' ([`super::c`]): Debian's `clang`, `lld`, `wasi-libc`, the wasm32
//! compiler runtime and `libc++-<major>-dev-wasm32` with `libc++abi-<major>-dev-wasm32` (clang 14
//! on Debian 12), installed with apt-get on demand, or a wasi-sdk named by `CLANG`/`CLANGXX` and
//! `WASI_SYSROOT`. Debian's wasm32 libc++ lives under the `wasm32-wasi` paths, so the target is
//! `--target=wasm32-wasi` (`wasm32-wasip1` does not find `<iostream>` there). When a file of the
//! bot folder includes `<nlohmann/...>`, Debian's header-only `nlohmann-json3-dev` is installed
//! on demand too (apt-get; elsewhere, vendor the single `json.hpp` of its release into the folder
//! and include it as `"json.hpp"`); its headers are copied into the build's own include folder, so
//! `#include <nlohmann/json.hpp>` finds them without putting the host's `/usr/include`, glibc's
//! headers, on the wasm include path. clang++ runs in the bot folder with [`CXXFLAGS`] and [`LDFLAGS`]:
//!
//! - `-std=c++20 -O2 -DNDEBUG -Wall`: a release build, whose `assert`s are off, nlohmann/json's
//!   too (its invariant checks, run on every value it builds and destroys, were a quarter of the
//!   Paint example's fuel); a bot that wants its own checks `#undef NDEBUG` before `<cassert>`,
//!   and a failed one prints its condition to stderr, the bot's log, and traps;
//! - `-fno-exceptions`: Debian's wasm32 libc++ is built without exceptions (wasm has no unwinder
//!   here), so `throw`, `try` and `catch` do not compile, and where libc++ would throw (`at` out
//!   of range, `std::stoi` of a non-number) it aborts, a trap;
//! - nlohmann/json sees that exceptions are off (no `__cpp_exceptions`) and takes its
//!   `JSON_NOEXCEPTION` path by itself: every error it would throw is `std::abort()`, a trap.
//!   So a bot parses with `json::parse(first, last, nullptr, false)` and checks
//!   `is_discarded()`, and reads an object's fields with `find`, `contains` or `value(key,
//!   default)` (missing key: the default; wrong type: abort), checking `is_object()`,
//!   `is_string()` and the like first. Not `at` of a missing key, `get` of the wrong type, or
//!   `value` with a JSON pointer whose path is missing: they abort. A const `json`'s `operator[]`
//!   of a missing key is undefined behaviour under `NDEBUG`. `JSON_HAS_FILESYSTEM=0` (and its
//!   experimental twin) keep it from including `<filesystem>`, which this libc++ lacks;
//! - `-Wl,--strip-debug`: wasi-libc and libc++ carry DWARF, which would triple a small bot; the
//!   `name` section stays, so traps show function names;
//! - `-Wl,--stack-first -Wl,-z,stack-size=1048576`: a 1 MiB stack (wasm-ld's default is 64 KiB,
//!   which a board array or a deep recursion on the stack outgrows) placed below the data, so an
//!   overflow traps instead of overwriting the heap;
//! - `-ffile-prefix-map` of the build's include folder to `/usr/include`, and sources named
//!   relative to the bot folder: `__FILE__` (in assertions, nlohmann's too) names no path of this
//!   machine, so a folder builds to the same bytes wherever it is.
//!
//! Reading stdin: `std::getline(std::cin, line)` costs about 150 fuel per byte with this libc++
//! (the stream takes the line a character at a time through its buffer): the SuiteBot example
//! reading its lines so spends 55M fuel over a default match instead of 31M, and `<iostream>`
//! (its locales) makes the module 415 KB instead of 172 KB. POSIX `getline(&buf, &cap, stdin)`
//! from `<cstdio>` copies the line out of stdio's buffer in one go, a few thousand fuel a line,
//! and the example bots use it. stdout is fully buffered when it is not a terminal:
//! `std::fflush(stdout)` after every answer, or the host never sees it.
//!
//! Measured on the 2-core machine with the packages installed: a bot with nlohmann/json builds in
//! about 2.5 s (nearly all of it compiling the header), the Azul example (standard library only)
//! in about 1 s, and `cargo xtask bots` skips an unchanged bot without running clang++. The
//! examples are 171 KB (SuiteBot) and 198 KB (Paint) with nlohmann/json, 38 KB without (Azul).
//! At run time they start in 18,000 to 39,000 fuel; parsing a line with nlohmann/json into its
//! `json` tree is most of a default Paint or SuiteBot turn (0.27M and 0.31M fuel; a match 27M and
//! 31M), nlohmann's lexer and the allocations of the tree's values and strings.

use super::ForeignBot;
use super::c::{clang_cxx, ensure_cxx_toolchain, ensure_toolchain, sysroot_flag};
use crate::util::{self, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The compile flags of every C++ bot (see the module's documentation).
const CXXFLAGS: [&str; 8] = [
    "--target=wasm32-wasi",
    "-std=c++20",
    "-O2",
    "-DNDEBUG",
    "-Wall",
    "-fno-exceptions",
    "-DJSON_HAS_FILESYSTEM=0",
    "-DJSON_HAS_EXPERIMENTAL_FILESYSTEM=0",
];

/// The link flags of every C++ bot: no DWARF, a 1 MiB stack below the data.
const LDFLAGS: [&str; 3] = ["-Wl,--strip-debug", "-Wl,--stack-first", "-Wl,-z,stack-size=1048576"];

/// The source extensions compiled.
const EXTENSIONS: [&str; 2] = ["cpp", "cc"];

/// The Debian and Ubuntu package of nlohmann/json, and where it puts its headers.
const JSON_PACKAGE: &str = "nlohmann-json3-dev";
const JSON_HEADERS: &str = "/usr/include/nlohmann";

/// Where a bot's build keeps its probes and its include folder.
fn work_dir(root: &Path, bot: &ForeignBot) -> PathBuf {
    target_dir(root).join("cpp-bots").join(&bot.name)
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let sources = sources(&bot.dir, bot.stdio_main.as_deref().unwrap_or("."))?;
    let work = work_dir(root, bot);
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    ensure_toolchain(&work)?;
    ensure_cxx_toolchain(&work)?;
    let include = work.join("include");
    super::fresh_stage(&include)?;
    if mentions_nlohmann(&bot.dir)? {
        ensure_json()?;
        super::copy_tree(Path::new(JSON_HEADERS), &include.join("nlohmann"), &|_| false)?;
    }

    // clang++ runs in the bot folder, which the sources are named relative to; the output path
    // is the caller's.
    let out = if out.is_absolute() { out.to_path_buf() } else { std::env::current_dir()?.join(out) };
    // Written beside the output and renamed, so a failed build leaves no truncated module.
    let partial = out.with_extension("wasm.partial");
    let mut command = compile_command(&include);
    command.args(&sources).arg("-o").arg(&partial).current_dir(&bot.dir);
    if let Err(err) = run_command(&mut command) {
        let _ = std::fs::remove_file(&partial);
        return Err(err).context(
            "clang++ failed (its message is above); a C++ bot is compiled without exceptions (no \
             throw, try or catch) against wasi-libc and libc++ for wasm32, which have no threads, \
             sockets or <filesystem>",
        );
    }
    let size = std::fs::metadata(&partial).map(|metadata| metadata.len()).unwrap_or(0);
    std::fs::rename(&partial, &out)
        .with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))?;
    eprintln!("{}: {size} bytes", out.display());
    Ok(())
}

/// clang++ with the bot flags and the build's include folder `include`, mapped to
/// `/usr/include` in `__FILE__`.
fn compile_command(include: &Path) -> Command {
    let mut command = Command::new(clang_cxx());
    command.args(CXXFLAGS).args(LDFLAGS);
    command.args(sysroot_flag());
    let mut map = std::ffi::OsString::from("-ffile-prefix-map=");
    map.push(include);
    map.push("=/usr/include");
    command.arg(map).arg("-I").arg(include);
    command
}

/// The sources to compile for `main` (see the module's documentation), relative to the bot
/// folder `dir` and sorted.
fn sources(dir: &Path, main: &str) -> Result<Vec<PathBuf>> {
    let relative = Path::new(main);
    if !relative.components().all(|part| matches!(part, Component::Normal(_) | Component::CurDir)) {
        bail!(
            "{}: \"main\" is {main:?}; it names a folder or a .cpp file inside the bot folder, such as \
             \"src\" or \"bot.cpp\"",
            dir.display()
        );
    }
    let path = dir.join(relative);
    let is_source =
        |path: &Path| path.extension().and_then(|ext| ext.to_str()).is_some_and(|ext| EXTENSIONS.contains(&ext));
    if path.is_file() {
        if !is_source(&path) {
            bail!("{}: bot.json names it as \"main\", which is a .cpp or .cc file, or a folder", path.display());
        }
        return Ok(vec![relative.to_path_buf()]);
    }
    if !path.is_dir() {
        bail!("{} does not exist: bot.json names it as \"main\"", path.display());
    }
    let mut sources = Vec::new();
    for entry in std::fs::read_dir(&path).with_context(|| format!("cannot read {}", path.display()))? {
        let file = entry?.path();
        if !file.is_file() {
            continue;
        }
        if file.extension().is_some_and(|ext| ext == "c") {
            bail!(
                "{}: a C++ bot compiles *.cpp and *.cc files with C++ flags; rename it to .cpp (or write \
                 the bot in C, \"language\": \"c\", a WIT bot)",
                file.display()
            );
        }
        if is_source(&file) {
            let name = file.file_name().map(PathBuf::from).unwrap_or_default();
            sources.push(if main == "." { name } else { relative.join(name) });
        }
    }
    sources.sort();
    if sources.is_empty() {
        bail!("{} has no *.cpp or *.cc file", path.display());
    }
    Ok(sources)
}

/// Whether a file of the bot folder (sources and headers, subfolders too) includes a header of
/// the `nlohmann/` folder, `<nlohmann/json.hpp>` or `"nlohmann/json.hpp"` (not a vendored
/// `json.hpp`, whose text names nlohmann/json only in comments and URLs).
fn mentions_nlohmann(dir: &Path) -> Result<bool> {
    let mut files = Vec::new();
    super::list_files(dir, &mut files, &super::toolchain_cache)?;
    let include = |window: &[u8]| (window[0] == b'<' || window[0] == b'"') && &window[1..] == b"nlohmann/";
    Ok(files.iter().any(|file| std::fs::read(file).is_ok_and(|bytes| bytes.windows(10).any(include))))
}

/// Makes sure nlohmann/json's headers are in [`JSON_HEADERS`], installing [`JSON_PACKAGE`] with
/// apt-get when they are not.
fn ensure_json() -> Result<()> {
    let header = Path::new(JSON_HEADERS).join("json.hpp");
    if header.is_file() {
        return Ok(());
    }
    let manual = format!(
        "the bot includes nlohmann/json, which comes from Debian's {JSON_PACKAGE} (`sudo apt-get install -y \
         {JSON_PACKAGE}`); elsewhere, put the single-header json.hpp of its release in the bot folder and \
         `#include \"json.hpp\"`"
    );
    if !Command::new("apt-get").arg("--version").output().is_ok_and(|output| output.status.success()) {
        bail!("{} is missing and this machine has no apt-get: {manual}", header.display());
    }
    eprintln!("{} is missing; installing {JSON_PACKAGE} with apt-get", header.display());
    let installed = run_command(&mut util::apt_get(&["update"]))
        .and_then(|()| run_command(&mut util::apt_get(&["install", "-y", "--no-install-recommends", JSON_PACKAGE])));
    if let Err(error) = installed {
        bail!("installing {JSON_PACKAGE} failed: {error:#}\n{manual}");
    }
    if !header.is_file() {
        bail!("{} is still missing after installing {JSON_PACKAGE}: {manual}", header.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::shown;

    fn root() -> PathBuf {
        super::super::test_root()
    }

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        super::super::scratch_folder(&format!("cpp-{name}"), files)
    }

    /// "main" is a folder (every source in it, sorted) or one source; nothing outside the bot
    /// folder, no C file, no empty folder. Checked before any toolchain runs.
    #[test]
    fn main_names_a_folder_of_sources_or_one_source() {
        let dir = folder(
            "main",
            &[
                ("b.cpp", "int f() { return 1; }\n"),
                ("a.cc", "int main() {}\n"),
                ("board.h", "\n"),
                ("src/bot.cpp", "int main() {}\n"),
                ("src/util.cpp", "\n"),
                ("empty/readme.txt", "\n"),
            ],
        );
        let names = |main: &str| {
            sources(&dir, main).map(|paths| paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>())
        };
        assert_eq!(names(".").unwrap(), ["a.cc", "b.cpp"]);
        assert_eq!(names("src").unwrap(), ["src/bot.cpp", "src/util.cpp"]);
        assert_eq!(names("src/bot.cpp").unwrap(), ["src/bot.cpp"]);
        for outside in ["../elsewhere", "/tmp", "src/../../x"] {
            let message = format!("{:#}", names(outside).unwrap_err());
            assert!(message.contains("inside the bot folder"), "{outside}: {message}");
        }
        assert!(format!("{:#}", names("empty").unwrap_err()).contains("no *.cpp or *.cc file"));
        assert!(format!("{:#}", names("board.h").unwrap_err()).contains("a .cpp or .cc file"));
        assert!(format!("{:#}", names("missing").unwrap_err()).contains("does not exist"));
        std::fs::write(dir.join("legacy.c"), "int g(void) { return 0; }\n").unwrap();
        assert!(format!("{:#}", names(".").unwrap_err()).contains("rename it to .cpp"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nlohmann_is_needed_only_when_a_file_mentions_it() {
        let dir = folder("json", &[("main.cpp", "#include <cstdio>\nint main() {}\n")]);
        assert!(!mentions_nlohmann(&dir).unwrap());
        std::fs::write(dir.join("json.hpp"), "// https://github.com/nlohmann/json\n").unwrap();
        assert!(!mentions_nlohmann(&dir).unwrap());
        std::fs::write(dir.join("state.h"), "#include <nlohmann/json.hpp>\n").unwrap();
        assert!(mentions_nlohmann(&dir).unwrap());
        std::fs::write(dir.join("state.h"), "#include \"nlohmann/json_fwd.hpp\"\n").unwrap();
        assert!(mentions_nlohmann(&dir).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The same folder in two places builds to the same bytes (no path of the machine in the
    /// module), a command exporting `_start`. Runs only where clang++ already builds for
    /// wasm32-wasi with libc++: the test installs nothing.
    #[test]
    fn a_folder_builds_to_the_same_command_wherever_it_is() {
        // Assertions on, so that `__FILE__` is in the module.
        let program = "#undef NDEBUG\n#include <cassert>\n#include <cstdio>\n#include <vector>\n\
                       int main() { std::vector<int> v{1, 2}; assert(v.size() == 2); std::printf(\"%d\\n\", v[1]); }\n";
        let manifest = r#"{ "language": "cpp", "protocol": "stdio", "game": "paint" }"#;
        let first = folder("same-a", &[("bot.json", manifest), ("main.cpp", program)]);
        let second = folder("same-b", &[("bot.json", manifest), ("main.cpp", program)]);
        let include = first.join("include");
        std::fs::create_dir_all(&include).unwrap();
        let probe = compile_command(&include).arg("main.cpp").arg("-o").arg("probe.wasm").current_dir(&first).output();
        if !probe.is_ok_and(|output| output.status.success()) {
            eprintln!("skipped: clang++ does not build for wasm32-wasi here ({})", shown(&compile_command(&include)));
            let _ = std::fs::remove_dir_all(&first);
            let _ = std::fs::remove_dir_all(&second);
            return;
        }
        let mut built = Vec::new();
        for dir in [&first, &second] {
            let bot = ForeignBot::read(&root(), dir).unwrap();
            let out = dir.join("out").join("bot.wasm");
            std::fs::create_dir_all(out.parent().unwrap()).unwrap();
            // A bot of its own name: the work folders of the two builds differ too.
            let include = dir.join("work-include");
            super::super::fresh_stage(&include).unwrap();
            let status = compile_command(&include)
                .args(sources(&bot.dir, ".").unwrap())
                .arg("-o")
                .arg(&out)
                .current_dir(&bot.dir)
                .status()
                .unwrap();
            assert!(status.success());
            built.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(built[0], built[1], "the module depends on the folder's place");
        let exports: Vec<String> = wasmparser::Parser::new(0)
            .parse_all(&built[0])
            .filter_map(|payload| match payload {
                Ok(wasmparser::Payload::ExportSection(reader)) => {
                    Some(reader.into_iter().map(|export| export.unwrap().name.to_owned()).collect::<Vec<_>>())
                }
                _ => None,
            })
            .flatten()
            .collect();
        assert!(exports.iter().any(|name| name == "_start"), "{exports:?}");
        std::fs::remove_dir_all(&first).unwrap();
        std::fs::remove_dir_all(&second).unwrap();
    }
}
