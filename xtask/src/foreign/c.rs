//! C bots: the checked-in C bindings of every game world (`guest-sdk/c/bindings/<game>/`), which
//! this module generates with wit-bindgen's C generator and checks for staleness, and the build of
//! a C bot folder: clang for `wasm32-wasi` (Debian's clang and wasi-libc, installed with apt-get on
//! demand) makes a core module, which wit-component wraps into a component with the WASI preview1
//! reactor adapter of the pinned wasmtime release. A folder may hold C++ sources (`*.cpp`, `*.cc`)
//! beside its C files: clang++ compiles them against the same C bindings and links libc++ for
//! wasm32 (Debian's `libc++-<major>-dev-wasm32`, also installed on demand).

use super::ForeignBot;
use crate::util::{self, run_command, shown, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The world every game package defines for bots; wit-bindgen names the generated files after it
/// (`bot.h`, `bot.c`, `bot_component_type.o`).
const WORLD: &str = "bot";

/// Debian and Ubuntu packages that give clang a `wasm32-wasi` target: the compiler, the wasm
/// linker and the C library; the compiler runtime's package is named after clang's major version
/// ([`runtime_package`]: 14 on Debian 12, 19 on Debian 13, 18 on Ubuntu 24.04), so it is chosen
/// once clang is there.
const PACKAGES: [&str; 3] = ["clang", "lld", "wasi-libc"];

/// The package of the wasm32 compiler runtime (`libclang_rt.builtins-wasm32.a`) for a clang of
/// `major` version.
fn runtime_package(major: u32) -> String {
    format!("libclang-rt-{major}-dev-wasm32")
}

/// The major version `clang --version` reports (`Debian clang version 14.0.6`,
/// `Ubuntu clang version 18.1.3 (1ubuntu1)`, `clang version 19.1.7`).
fn clang_major(version_output: &str) -> Option<u32> {
    let rest = &version_output[version_output.find("clang version ")? + "clang version ".len()..];
    rest.split('.').next()?.trim().parse().ok()
}

/// Every package to install: [`PACKAGES`] and the runtime of the clang installed (or, before
/// clang is, of the one the distribution would install: found by installing clang first).
fn all_packages() -> Vec<String> {
    let mut packages: Vec<String> = PACKAGES.iter().map(|name| name.to_string()).collect();
    let version = Command::new(clang()).arg("--version").output();
    match version.ok().and_then(|output| clang_major(&String::from_utf8_lossy(&output.stdout))) {
        Some(major) => packages.push(runtime_package(major)),
        None => packages.push("libclang-rt-<clang's major version>-dev-wasm32".into()),
    }
    packages
}

/// The wasm target and flags every C bot is compiled with. A reactor has no `main`: it exports
/// `_initialize` (run once per instance, as the component's start) and the world's functions.
/// Debian's wasi-libc carries DWARF, which would triple a small bot; the name section stays, so
/// traps still show function names.
const CFLAGS: [&str; 5] = ["--target=wasm32-wasi", "-mexec-model=reactor", "-O2", "-Wall", "-Wl,--strip-debug"];

/// What C++ sources add to [`CFLAGS`]: wasm32-wasi's libc++ is built without exceptions (there is
/// no unwinder for wasm here), so code that throws does not link; it is built without the
/// filesystem library too (`_LIBCPP_HAS_NO_FILESYSTEM_LIBRARY`), which the sandbox would not
/// serve anyway.
const CXXFLAGS: [&str; 1] = ["-fno-exceptions"];

/// The C++ source extensions a bot folder may hold beside `*.c`.
const CXX_EXTENSIONS: [&str; 2] = ["cpp", "cc"];

/// The Debian and Ubuntu packages of wasm32 libc++ for a clang of `major` version.
fn cxx_packages(major: u32) -> [String; 2] {
    [format!("libc++-{major}-dev-wasm32"), format!("libc++abi-{major}-dev-wasm32")]
}

/// Where the SDK's C files live.
fn sdk_dir(root: &Path) -> PathBuf {
    root.join("guest-sdk").join("c")
}

/// The checked-in bindings of one game.
fn bindings_dir(root: &Path, game: &str) -> PathBuf {
    sdk_dir(root).join("bindings").join(game)
}

/// Every game with a WIT package: the folders of `wit/` except the shared `common` package and
/// `wasi` (the world of bots that are plain programs).
fn games(root: &Path) -> Result<Vec<String>> {
    let wit = root.join("wit");
    let mut games = Vec::new();
    for entry in std::fs::read_dir(&wit).with_context(|| format!("cannot read {}", wit.display()))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && name != "common" && name != "wasi" {
            games.push(name);
        }
    }
    games.sort();
    Ok(games)
}

/// The C bindings of `wit/<game>/` world `bot`: file name and contents, in wit-bindgen's order.
fn generate(root: &Path, game: &str) -> Result<Vec<(String, Vec<u8>)>> {
    let wit = root.join("wit").join(game);
    let mut resolve = wit_parser::Resolve::default();
    let (package, _) = resolve.push_dir(&wit).with_context(|| format!("cannot parse the WIT in {}", wit.display()))?;
    let world = resolve
        .select_world(&[package], Some(WORLD))
        .with_context(|| format!("{} has no world {WORLD:?}", wit.display()))?;
    let mut files = wit_bindgen_core::Files::default();
    wit_bindgen_c::Opts::default()
        .build()
        .generate(&resolve, world, &mut files)
        .with_context(|| format!("wit-bindgen cannot generate C bindings for {}", wit.display()))?;
    Ok(files.iter().map(|(name, contents)| (name.to_owned(), contents.to_vec())).collect())
}

/// `cargo xtask c-bindings`: regenerates `guest-sdk/c/bindings/<game>/` for every game, removing
/// files the generator no longer makes.
pub fn write_bindings(root: &Path) -> Result<()> {
    for game in games(root)? {
        let dir = bindings_dir(root, &game);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (name, contents) in generate(root, &game)? {
            let path = dir.join(&name);
            std::fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
        }
        eprintln!("wrote {}", dir.display());
    }
    Ok(())
}

/// Fails, naming the files and the command that fixes them, when the checked-in bindings of
/// `game` differ from what the WIT generates now.
fn check_game_bindings(root: &Path, game: &str) -> Result<()> {
    let dir = bindings_dir(root, game);
    let expected = generate(root, game)?;
    let mut stale = Vec::new();
    for (name, contents) in &expected {
        if std::fs::read(dir.join(name)).ok().as_ref() != Some(contents) {
            stale.push(name.clone());
        }
    }
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if !expected.iter().any(|(expected, _)| *expected == name) {
                stale.push(name);
            }
        }
    }
    if !stale.is_empty() {
        bail!(
            "the C bindings in {} differ from what wit/{game}/ generates ({}): the WIT changed or the \
             files were edited; run `cargo xtask c-bindings` and commit the result",
            dir.display(),
            stale.join(", ")
        );
    }
    Ok(())
}

/// Fails when the checked-in C bindings of any game are stale (called by `cargo xtask test`).
pub fn check_bindings(root: &Path) -> Result<()> {
    for game in games(root)? {
        check_game_bindings(root, &game)?;
    }
    Ok(())
}

/// The clang to run: `$CLANG`, else `clang`.
fn clang() -> String {
    std::env::var("CLANG").unwrap_or_else(|_| "clang".into())
}

/// The clang++ to run: `$CLANGXX`, else `$CLANG` with `++` appended (a wasi-sdk's
/// `bin/clang` sits beside its `bin/clang++`), else `clang++`. Shared with C++ programs
/// ([`super::cpp`]).
pub(super) fn clang_cxx() -> String {
    std::env::var("CLANGXX").unwrap_or_else(|_| format!("{}++", clang()))
}

/// A clang command with the bot flags (and `--sysroot=$WASI_SYSROOT` when that is set, for a
/// clang that does not find wasi-libc by itself, such as a wasi-sdk's).
fn clang_command() -> Command {
    compiler_command(false)
}

/// [`clang_command`], or for a bot with C++ sources, clang++ with [`CXXFLAGS`] too: clang++ links
/// libc++ and libc++abi, which a link by clang would leave out.
fn compiler_command(cxx: bool) -> Command {
    let mut command = Command::new(if cxx { clang_cxx() } else { clang() });
    command.args(CFLAGS);
    if cxx {
        command.args(CXXFLAGS);
    }
    command.args(sysroot_flag());
    command
}

/// `--sysroot=$WASI_SYSROOT` when that is set, for a clang that does not find wasi-libc by
/// itself (a wasi-sdk's). Shared with C++ programs ([`super::cpp`]).
pub(super) fn sysroot_flag() -> Option<std::ffi::OsString> {
    let mut flag = std::ffi::OsString::from("--sysroot=");
    flag.push(std::env::var_os("WASI_SYSROOT")?);
    Some(flag)
}

/// Whether clang can compile and link a reactor for `wasm32-wasi` that uses the C library; on
/// failure, the compiler's complaint.
fn probe(dir: &Path) -> Result<(), String> {
    let source = dir.join("probe.c");
    let contents = "#include <string.h>\nint arena_probe(const char *s) { return (int)strlen(s); }\n";
    std::fs::write(&source, contents).map_err(|error| format!("cannot write {}: {error}", source.display()))?;
    let mut command = clang_command();
    command.arg(&source).arg("-o").arg(dir.join("probe.wasm"));
    match command.output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!("`{}` failed: {}", shown(&command), String::from_utf8_lossy(&output.stderr).trim())),
        Err(error) => Err(format!("cannot run `{}`: {error}", shown(&command))),
    }
}

/// Installs [`PACKAGES`], then the compiler runtime matching the clang they brought, with
/// apt-get.
fn install_toolchain() -> Result<()> {
    let apt = util::apt_get;
    run_command(&mut apt(&["update"]))?;
    let mut install = apt(&["install", "-y", "--no-install-recommends"]);
    install.args(PACKAGES);
    run_command(&mut install)?;
    let version = Command::new(clang()).arg("--version").output().context("clang does not run after installing it")?;
    let major = clang_major(&String::from_utf8_lossy(&version.stdout))
        .with_context(|| format!("cannot read clang's version from {:?}", String::from_utf8_lossy(&version.stdout)))?;
    run_command(&mut apt(&["install", "-y", "--no-install-recommends", &runtime_package(major)]))
}

/// Makes sure clang can build `wasm32-wasi` reactors, installing the packages when it cannot.
/// Shared with C++ programs ([`super::cpp`]).
pub(super) fn ensure_toolchain(work: &Path) -> Result<()> {
    let Err(first) = probe(work) else { return Ok(()) };
    let packages = all_packages().join(" ");
    let manual = format!("sudo apt-get update && sudo apt-get install -y --no-install-recommends {packages}");
    if !Command::new("apt-get").arg("--version").output().is_ok_and(|output| output.status.success()) {
        bail!(
            "C bots need clang with a wasm32-wasi target ({first}), and this machine has no apt-get to \
             install it: install clang, lld, a wasi-libc sysroot and clang's wasm32 builtins with its \
             package manager, or a \
             wasi-sdk and set CLANG=<wasi-sdk>/bin/clang WASI_SYSROOT=<wasi-sdk>/share/wasi-sysroot"
        );
    }
    eprintln!("clang cannot build for wasm32-wasi ({first}); installing {packages} with apt-get");
    if let Err(error) = install_toolchain() {
        bail!(
            "C bots need clang with a wasm32-wasi target, and installing it failed: {error:#}\n\
             install the Debian/Ubuntu packages yourself: `{manual}` \
             (elsewhere: a wasi-sdk, with CLANG=<wasi-sdk>/bin/clang WASI_SYSROOT=<wasi-sdk>/share/wasi-sysroot)"
        );
    }
    if let Err(again) = probe(work) {
        bail!("clang still cannot build for wasm32-wasi after installing {}: {again}", all_packages().join(", "));
    }
    Ok(())
}

/// Whether clang++ can compile and link a reactor for `wasm32-wasi` that uses libc++; on failure,
/// the compiler's complaint.
fn probe_cxx(dir: &Path) -> Result<(), String> {
    let source = dir.join("probe.cpp");
    let contents = "#include <algorithm>\n#include <vector>\n\
                    extern \"C\" int arena_probe(int n) { std::vector<int> v(n, 1); \
                    return *std::max_element(v.begin(), v.end()); }\n";
    std::fs::write(&source, contents).map_err(|error| format!("cannot write {}: {error}", source.display()))?;
    let mut command = compiler_command(true);
    command.arg(&source).arg("-o").arg(dir.join("probe-cxx.wasm"));
    match command.output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!("`{}` failed: {}", shown(&command), String::from_utf8_lossy(&output.stderr).trim())),
        Err(error) => Err(format!("cannot run `{}`: {error}", shown(&command))),
    }
}

/// Makes sure clang++ can build `wasm32-wasi` reactors with libc++ (once [`ensure_toolchain`]
/// has made clang work), installing libc++ for wasm32 when it cannot. Shared with C++ programs
/// ([`super::cpp`]).
pub(super) fn ensure_cxx_toolchain(work: &Path) -> Result<()> {
    let Err(first) = probe_cxx(work) else { return Ok(()) };
    let version = Command::new(clang()).arg("--version").output().ok();
    let major = version.and_then(|output| clang_major(&String::from_utf8_lossy(&output.stdout)));
    let packages = match major {
        Some(major) => cxx_packages(major).join(" "),
        None => "libc++-<clang's major version>-dev-wasm32 libc++abi-<clang's major version>-dev-wasm32".into(),
    };
    let missing = format!(
        "C++ bot sources need clang++ with libc++ for wasm32-wasi ({first}): install {packages} \
         (Debian/Ubuntu: `sudo apt-get install -y --no-install-recommends {packages}`), or use a \
         wasi-sdk, which ships libc++, with CLANG=<wasi-sdk>/bin/clang \
         WASI_SYSROOT=<wasi-sdk>/share/wasi-sysroot"
    );
    let has_apt = Command::new("apt-get").arg("--version").output().is_ok_and(|output| output.status.success());
    let (Some(major), true) = (major, has_apt) else { bail!("{missing}") };
    eprintln!("clang++ cannot build for wasm32-wasi ({first}); installing {packages} with apt-get");
    let mut install = util::apt_get(&["install", "-y", "--no-install-recommends"]);
    install.args(cxx_packages(major));
    if let Err(error) = run_command(&mut install) {
        bail!("{missing}\ninstalling them failed: {error:#}");
    }
    if let Err(again) = probe_cxx(work) {
        bail!("clang++ still cannot build for wasm32-wasi after installing {packages}: {again}");
    }
    Ok(())
}

/// The bot's own sources, C files and C++ files, each sorted so the link order (and so the
/// module) is reproducible.
fn sources(bot: &ForeignBot) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let (mut c, mut cxx) = (Vec::new(), Vec::new());
    for entry in std::fs::read_dir(&bot.dir).with_context(|| format!("cannot read {}", bot.dir.display()))? {
        let path = entry?.path();
        let Some(extension) = path.extension().and_then(|extension| extension.to_str()) else { continue };
        if !path.is_file() {
            continue;
        }
        if extension == "c" {
            c.push(path);
        } else if CXX_EXTENSIONS.contains(&extension) {
            cxx.push(path);
        }
    }
    c.sort();
    cxx.sort();
    if c.is_empty() && cxx.is_empty() {
        bail!("{} has no *.c, *.cpp or *.cc file", bot.dir.display());
    }
    Ok((c, cxx))
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    let wit = bot.wit_dir(root);
    let bindings = bindings_dir(root, &bot.game);
    // The checked-in bindings are what the bot author reads: build only against current ones.
    check_game_bindings(root, &bot.game)?;
    let work = target_dir(root).join("c-bots").join(&bot.name);
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    ensure_toolchain(&work)?;
    let (c_sources, cxx_sources) = sources(bot)?;
    let cxx = !cxx_sources.is_empty();
    if cxx {
        ensure_cxx_toolchain(&work)?;
    }

    let core = work.join(format!("{}.core.wasm", bot.name));
    // One driver call compiles and links everything; with C++ sources it is clang++, and `-x`
    // keeps the C files (the bot's and the bindings') compiled as C.
    let mut compile = compiler_command(cxx);
    compile.arg("-I").arg(sdk_dir(root).join("include")).arg("-I").arg(&bindings);
    if cxx {
        compile.args(["-x", "c++"]).args(&cxx_sources).args(["-x", "c"]);
    }
    compile.args(&c_sources).arg(bindings.join(format!("{WORLD}.c")));
    if cxx {
        compile.args(["-x", "none"]);
    }
    compile.arg(bindings.join(format!("{WORLD}_component_type.o")));
    compile.arg("-o").arg(&core);
    run_command(&mut compile)?;

    let module = std::fs::read(&core).with_context(|| format!("cannot read {}", core.display()))?;
    let component = wit_component::ComponentEncoder::default()
        .validate(true)
        .module(&module)
        .with_context(|| format!("{} is not a module wit-component can encode", core.display()))?
        .adapter(
            wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_ADAPTER_NAME,
            wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_REACTOR_ADAPTER,
        )
        .context("the WASI preview1 reactor adapter does not load")?
        .encode()
        .with_context(|| {
            format!(
                "cannot make a component of {} (does it implement wit/{}/ world {WORLD}?)",
                core.display(),
                bot.game
            )
        })?;
    wasmparser::Validator::new()
        .validate_all(&component)
        .with_context(|| format!("the component built from {} does not validate", core.display()))?;
    std::fs::write(out, &component).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "{}: {} bytes (core module {} bytes; WIT {})",
        out.display(),
        component.len(),
        module.len(),
        wit.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_package_follows_clang_s_major_version() {
        let debian12 = "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n";
        let ubuntu = "Ubuntu clang version 18.1.3 (1ubuntu1)\nTarget: x86_64-pc-linux-gnu\n";
        let plain = "clang version 19.1.7\n";
        assert_eq!(clang_major(debian12).map(runtime_package).as_deref(), Some("libclang-rt-14-dev-wasm32"));
        assert_eq!(clang_major(ubuntu), Some(18));
        assert_eq!(clang_major(plain), Some(19));
        assert_eq!(clang_major("gcc (Debian 12.2.0-14) 12.2.0"), None);
    }
}
