//! JavaScript programs speaking their game's line protocol on stdin/stdout (`"language":
//! "javascript", "protocol": "stdio"`), built unchanged into a WASI command with componentize-js.
//!
//! The program is CommonJS, Node's default for `.js` files: its files (with vendored packages in
//! `node_modules/`) become functions of one generated entry module, `arena_stdio_main.js`, which
//! hands them to the Node surface in `guest-sdk/js/stdio/node.js` (`process`, `require`,
//! `readline`, stdin read from `wasi:cli/stdin`). Each file is compiled by an indirect `eval` at
//! snapshot time, as sloppy-mode script code like Node's (an ES module would be strict), named
//! by `//# sourceURL` so that a traceback names the bot's own file and line. Nothing runs before
//! the match: the program's main module is required when the match starts.
//!
//! Refused at build time, by name: a syntax error (checked by the machine's `node --check`, with
//! file and line), a native addon (`.node`), an ES module (the program's own `.mjs` files,
//! `"type": "module"`; a vendored package's `.mjs` build is left out, `require` never loads it),
//! and a `require` of a package that is neither vendored nor one of the built-ins the arena
//! provides.

use super::js::{componentize, ensure_toolchain, sdk_dir, toolchain_dir};
use super::{ForeignBot, fresh_stage, list_files};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The world of the command (`guest-sdk/js/stdio/wit/`).
const WORLD: &str = "command";

/// The generated entry module.
const ENTRY: &str = "arena_stdio_main.js";

/// The built-in modules `guest-sdk/js/stdio/node.js` provides (`BUILTINS` there).
const PROVIDED: [&str; 5] = ["readline", "readline/promises", "fs", "events", "process"];

/// Node's other built-in modules: a program requiring one is refused with a clear message
/// rather than failing when the match starts.
const NODE_BUILTINS: [&str; 36] = [
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "punycode",
    "querystring",
    "readline/promises",
    "repl",
    "stream",
    "string_decoder",
    "timers",
    "tls",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "worker_threads",
    "zlib",
];

/// The program's files: path relative to the bot folder (with `/`) → contents.
type Files = BTreeMap<String, String>;

/// Builds the program whose main module is `main` into `out`.
pub fn build(root: &Path, bot: &ForeignBot, main: &str, out: &Path) -> Result<()> {
    let files = program_files(&bot.dir)?;
    if !files.contains_key(main) {
        bail!(
            "{} is missing or not a .js/.cjs file: bot.json names it as the program's main module",
            bot.dir.join(main).display()
        );
    }
    check_syntax(&bot.dir, &files)?;
    check_requires(&bot.dir, &files)?;

    let cli = ensure_toolchain(root)?;
    let stage = toolchain_dir(root).join("stage").join(&bot.name);
    fresh_stage(&stage)?;
    let layer = stage.join("arena_stdio");
    std::fs::create_dir_all(&layer)?;
    let shim = sdk_dir(root).join("stdio").join("node.js");
    std::fs::copy(&shim, layer.join("node.js")).with_context(|| format!("cannot copy {}", shim.display()))?;
    std::fs::write(stage.join(ENTRY), entry_module(&bot.name, &files, main)?)
        .context("cannot write the entry module")?;

    componentize(&cli, &stage, ENTRY, (&bot.wit_dir(root), WORLD), out)
}

/// The folder holding the command's world.
pub fn wit_dir(root: &Path) -> PathBuf {
    sdk_dir(root).join("stdio").join("wit")
}

/// Reads the program's `.js`, `.cjs` and `.json` files (vendored `node_modules/` included),
/// refusing native addons and ES modules.
fn program_files(dir: &Path) -> Result<Files> {
    let mut paths = Vec::new();
    list_files(dir, &mut paths, &|name| name == "__pycache__")?;
    let mut files = Files::new();
    for path in paths {
        let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let extension = path.extension().and_then(|ext| ext.to_str()).unwrap_or("");
        match extension {
            "node" => bail!("{relative} is a native addon, which the arena cannot load (it runs JavaScript only)"),
            // A vendored package may ship an ES build beside its CommonJS one; `require` never
            // picks it, so only the program's own `.mjs` files are refused.
            "mjs" if relative.starts_with("node_modules/") => {}
            "mjs" => bail!(
                "{relative} is an ES module: a stdin/stdout program is built as CommonJS (`require`), \
                 Node's default for .js files"
            ),
            "js" | "cjs" | "json" if relative != super::MANIFEST && !relative.ends_with("package-lock.json") => {
                let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
                files.insert(relative, text);
            }
            _ => {}
        }
    }
    if let Some(manifest) = files.get("package.json") {
        let value: serde_json::Value =
            serde_json::from_str(manifest).with_context(|| format!("{}/package.json is not JSON", dir.display()))?;
        if value["type"] == "module" {
            bail!(
                "{}/package.json says \"type\": \"module\": a stdin/stdout program is built as CommonJS \
                 (`require`), Node's default",
                dir.display()
            );
        }
    }
    Ok(files)
}

/// Refuses a program with a syntax error, naming the file and line (`node --check`, which checks
/// CommonJS as Node would run it).
fn check_syntax(dir: &Path, files: &Files) -> Result<()> {
    let mut errors = Vec::new();
    for path in files.keys().filter(|path| !path.ends_with(".json")) {
        let output = Command::new("node")
            .arg("--check")
            .arg(path)
            .current_dir(dir)
            .output()
            .context("cannot run `node --check`: JavaScript bots need Node.js on the PATH")?;
        if !output.status.success() {
            errors.push(String::from_utf8_lossy(&output.stderr).trim_end().to_owned());
        }
    }
    for (path, text) in files.iter().filter(|(path, _)| path.ends_with(".json")) {
        if let Err(err) = serde_json::from_str::<serde_json::Value>(text) {
            errors.push(format!("{path}:{}: {err}", err.line()));
        }
    }
    if !errors.is_empty() {
        bail!("syntax errors in {}:\n{}", dir.display(), errors.join("\n"));
    }
    Ok(())
}

/// Refuses a `require('…')` (a string literal) that names neither a file or vendored package of
/// the program nor a built-in the arena provides. Computed requires are resolved when they run.
fn check_requires(dir: &Path, files: &Files) -> Result<()> {
    let mut problems = Vec::new();
    for (path, text) in files.iter().filter(|(path, _)| !path.ends_with(".json")) {
        let from = parent(path);
        for specifier in required_names(text) {
            let name = specifier.strip_prefix("node:").unwrap_or(&specifier);
            if PROVIDED.contains(&name) {
                continue;
            }
            if NODE_BUILTINS.contains(&name) || specifier.starts_with("node:") {
                problems.push(format!(
                    "{path} requires Node's built-in `{name}`, which the arena does not provide (a bot has \
                     only stdin and stdout; provided: {})",
                    PROVIDED.join(", ")
                ));
            } else if resolve(files, from, &specifier).is_none() {
                let hint = if is_relative(&specifier) {
                    "no such file in the bot's folder".to_owned()
                } else {
                    format!("vendor it into the bot's folder as node_modules/{specifier}")
                };
                problems.push(format!("{path} requires '{specifier}', which cannot be found: {hint}"));
            }
        }
    }
    if !problems.is_empty() {
        bail!("{}:\n{}", dir.display(), problems.join("\n"));
    }
    Ok(())
}

/// The string literals passed to `require(` in `text`.
fn required_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("require(") {
        let preceded_by_name =
            rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.');
        rest = &rest[at + "require(".len()..];
        let argument = rest.trim_start();
        let Some(quote) = argument.chars().next().filter(|c| matches!(c, '\'' | '"' | '`')) else { continue };
        if let Some(end) = argument[1..].find(quote) {
            let name = &argument[1..1 + end];
            if !preceded_by_name && !name.contains("${") {
                names.push(name.to_owned());
            }
        }
    }
    names
}

fn is_relative(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier.starts_with('/')
        || specifier == "."
        || specifier == ".."
}

/// The folder of a relative path (`""` for the bot folder).
fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |slash| &path[..slash])
}

/// Joins `path` onto `dir`, resolving `.` and `..` (as `joinPath` in node.js).
fn join(dir: &str, path: &str) -> String {
    let mut parts: Vec<&str> =
        if path.starts_with('/') { Vec::new() } else { dir.split('/').filter(|part| !part.is_empty()).collect() };
    for part in path.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// The file `path` names as Node tries it (as `Modules.file` in node.js).
fn file(files: &Files, path: &str) -> Option<String> {
    for candidate in [path.to_owned(), format!("{path}.js"), format!("{path}.cjs"), format!("{path}.json")] {
        if files.contains_key(&candidate) {
            return Some(candidate);
        }
    }
    let main = files
        .get(&join(path, "package.json"))
        .and_then(|manifest| serde_json::from_str::<serde_json::Value>(manifest).ok())
        .and_then(|manifest| manifest["main"].as_str().map(str::to_owned));
    if let Some(found) = main.and_then(|main| file(files, &join(path, &main))) {
        return Some(found);
    }
    ["index.js", "index.cjs", "index.json"]
        .into_iter()
        .map(|index| join(path, index))
        .find(|index| files.contains_key(index))
}

/// Resolves `specifier` required from the folder `from` (as `Modules.resolve` in node.js).
fn resolve(files: &Files, from: &str, specifier: &str) -> Option<String> {
    if is_relative(specifier) {
        return file(files, &join(from, specifier));
    }
    let mut at = from;
    loop {
        if let Some(found) = file(files, &join(&join(at, "node_modules"), specifier)) {
            return Some(found);
        }
        if at.is_empty() {
            return None;
        }
        at = parent(at);
    }
}

/// The generated entry module: every file of the program, compiled at snapshot time, handed to
/// `program` from node.js, which exports the command's `run`.
fn entry_module(name: &str, files: &Files, main: &str) -> Result<String> {
    let mut entry = format!(
        "// Generated by `cargo xtask build-bot` for {name}: the program's files, compiled when the\n\
         // engine is snapshotted, and the Node surface that runs them (guest-sdk/js/stdio/node.js).\n\
         import {{ program }} from './arena_stdio/node.js';\n\n\
         const files = {{\n"
    );
    for (path, text) in files {
        let key = serde_json::to_string(path)?;
        if path.ends_with(".json") {
            writeln!(entry, "  {key}: JSON.parse({}),", serde_json::to_string(text)?)?;
        } else {
            // A `#!` line is legal at the start of a script only: keep it as a comment, on its line.
            let body = match text.strip_prefix("#!") {
                Some(rest) => format!("//{rest}"),
                None => text.clone(),
            };
            // The wrapper opens on the file's first line, so line numbers in tracebacks are the file's.
            let code = format!(
                "(function (exports, require, module, __filename, __dirname) {{{body}\n}})\n//# sourceURL={path}\n"
            );
            writeln!(entry, "  {key}: (0, eval)({}),", serde_json::to_string(&code)?)?;
        }
    }
    writeln!(entry, "}};\n\nexport const run = program(files, {});", serde_json::to_string(main)?)?;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(entries: &[(&str, &str)]) -> Files {
        entries.iter().map(|(path, text)| ((*path).to_owned(), (*text).to_owned())).collect()
    }

    #[test]
    fn requires_resolve_as_node_resolves_them() {
        let program = files(&[
            ("bot.js", ""),
            ("lib/helper.js", ""),
            ("lib/data.json", "{}"),
            ("node_modules/minirand/package.json", r#"{"main": "src/rand.js"}"#),
            ("node_modules/minirand/src/rand.js", ""),
            ("node_modules/plain/index.js", ""),
        ]);
        assert_eq!(resolve(&program, "", "./lib/helper").as_deref(), Some("lib/helper.js"));
        assert_eq!(resolve(&program, "lib", "./data").as_deref(), Some("lib/data.json"));
        assert_eq!(resolve(&program, "lib", "../bot.js").as_deref(), Some("bot.js"));
        assert_eq!(resolve(&program, "lib", "minirand").as_deref(), Some("node_modules/minirand/src/rand.js"));
        assert_eq!(resolve(&program, "", "plain").as_deref(), Some("node_modules/plain/index.js"));
        assert_eq!(resolve(&program, "", "./missing"), None);
        assert_eq!(resolve(&program, "", "lodash"), None);
    }

    #[test]
    fn only_literal_requires_are_read() {
        let text = "const a = require('./a');\nconst b = require( \"b\" );\nfoo.require('c');\nrequire(name);\nmyrequire('d');";
        assert_eq!(required_names(text), ["./a", "b"]);
    }

    #[test]
    fn a_missing_package_and_an_unprovided_builtin_are_named() {
        let program = files(&[
            ("bot.js", "const rl = require('readline');\nconst _ = require('lodash');\nrequire('node:fs');"),
            ("helper.js", "const os = require('os');"),
        ]);
        let message = format!("{:#}", check_requires(Path::new("bot"), &program).unwrap_err());
        assert!(message.contains("bot.js requires 'lodash'") && message.contains("node_modules/lodash"), "{message}");
        assert!(message.contains("helper.js requires Node's built-in `os`"), "{message}");
        assert!(!message.contains("readline") || message.contains("provided: readline"), "{message}");
        assert!(!message.contains("`fs`"), "{message}");
        check_requires(Path::new("bot"), &files(&[("bot.js", "require('./helper')"), ("helper.js", "")])).unwrap();
    }

    #[test]
    fn a_syntax_error_is_named_by_file_and_line_and_addons_and_es_modules_are_refused() {
        let dir = std::env::temp_dir().join(format!("xtask-js-stdio-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("node_modules/fast")).unwrap();
        std::fs::write(dir.join("bot.js"), "const x = 1;\n\nconsole.log(x;\n").unwrap();
        std::fs::write(dir.join("helper.js"), "module.exports = 1;\n").unwrap();
        let program = program_files(&dir).unwrap();
        let message = format!("{:#}", check_syntax(&dir, &program).unwrap_err());
        assert!(message.contains("bot.js:3"), "{message}");
        assert!(!message.contains("helper.js"), "{message}");

        std::fs::write(dir.join("node_modules/fast/binding.node"), "").unwrap();
        let message = format!("{:#}", program_files(&dir).unwrap_err());
        assert!(message.contains("node_modules/fast/binding.node is a native addon"), "{message}");
        std::fs::remove_file(dir.join("node_modules/fast/binding.node")).unwrap();
        std::fs::write(dir.join("node_modules/fast/index.mjs"), "export default 1;\n").unwrap();
        program_files(&dir).unwrap();
        std::fs::write(dir.join("helper.mjs"), "export default 1;\n").unwrap();
        let message = format!("{:#}", program_files(&dir).unwrap_err());
        assert!(message.contains("helper.mjs is an ES module"), "{message}");
        std::fs::remove_file(dir.join("helper.mjs")).unwrap();
        std::fs::write(dir.join("package.json"), r#"{"type": "module"}"#).unwrap();
        let message = format!("{:#}", program_files(&dir).unwrap_err());
        assert!(message.contains("\"type\": \"module\""), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
