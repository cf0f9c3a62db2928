//! Bots in other languages: a folder holding a `bot.json` manifest and the language's sources,
//! turned into a component by that language's toolchain, which is installed on demand.
//!
//! The manifest names the language and the game (whose WIT world, `wit/<game>/` world `bot`,
//! the bot implements):
//!
//! ```json
//! { "language": "c", "game": "azul" }
//! ```
//!
//! Sources by language: C compiles every `*.c` file in the folder ([`c`]); Python's entry module
//! is `app.py` ([`python`]); JavaScript's is `bot.js` ([`js`]). The built component is named after
//! the folder.
//!
//! A bot that is an ordinary program speaking its game's original line protocol on stdin and
//! stdout says `"protocol": "stdio"` and names its script (Python or JavaScript):
//!
//! ```json
//! { "language": "python", "protocol": "stdio", "game": "paint", "main": "bot.py" }
//! ```
//!
//! It is built into a WASI command that runs the script as `python bot.py` or `node bot.js`
//! would (world `command`: `wit/wasi/` for Python, `guest-sdk/js/stdio/wit/` for JavaScript,
//! whose engine implements an older WASI 0.2 release; see [`js_stdio`]).
//!
//! A bot in a compiled language without component tooling here ([`Language::programs_only`]) is
//! always such a program, compiled by the language's own toolchain into a `wasm32-wasip1` command;
//! `main` is optional there and means what the language's builder says: Go's main package folder
//! (default: the bot folder itself, [`go`]), Zig's root source file (default `main.zig`, else
//! `src/main.zig`, [`zig`]), C++'s folder of `*.cpp`/`*.cc` files or one file (default: the bot
//! folder, [`cpp`]), AssemblyScript's entry file ([`assemblyscript`]):
//!
//! ```json
//! { "language": "go", "protocol": "stdio", "game": "paint" }
//! ```

pub mod assemblyscript;
pub mod c;
pub mod cpp;
pub mod go;
pub mod js;
pub mod js_stdio;
pub mod python;
pub mod zig;

use crate::util::bots_dir;
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::{Path, PathBuf};

/// Folders whose subfolders with a [`MANIFEST`] are bots. The test fixtures are not in
/// `tests/bots/`: every folder there is a cargo workspace member (`tests/bots/*`), and cargo's
/// `exclude` cannot take one out because `tests/` is itself a member's folder.
pub const BOT_DIRS: [&str; 2] = ["bots-examples", "tests/foreign-bots"];

/// The manifest's file name.
pub const MANIFEST: &str = "bot.json";

/// A language the project builds bots from, besides Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Language {
    /// C, through wit-bindgen's C bindings, clang and the WASI preview1 reactor adapter.
    C,
    /// Python, through componentize-py.
    Python,
    /// JavaScript, through componentize-js (jco).
    JavaScript,
    /// Go, through Go's own compiler for `GOOS=wasip1` (stdin/stdout programs only).
    Go,
    /// Zig, through Zig's own compiler for `wasm32-wasi` (stdin/stdout programs only).
    Zig,
    /// C++ programs, through Debian's clang++ and wasm32 libc++ (stdin/stdout programs only; a
    /// C++ bot of a game's WIT world is a `"language": "c"` folder).
    Cpp,
    /// AssemblyScript, through its compiler and WASI shim from npm (stdin/stdout programs only).
    AssemblyScript,
}

impl Language {
    /// Every language, in the order builds run.
    pub const ALL: [Language; 7] = [
        Language::C,
        Language::Python,
        Language::JavaScript,
        Language::Go,
        Language::Zig,
        Language::Cpp,
        Language::AssemblyScript,
    ];

    /// The manifest's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::Go => "go",
            Language::Zig => "zig",
            Language::Cpp => "cpp",
            Language::AssemblyScript => "assemblyscript",
        }
    }

    /// Whether the language's bots are only ever ordinary programs speaking their game's line
    /// protocol on stdin/stdout, built by the language's own compiler into a `wasm32-wasip1`
    /// command (`"protocol": "stdio"`; `"main"` optional, its meaning the language's).
    pub fn programs_only(self) -> bool {
        matches!(self, Language::Go | Language::Zig | Language::Cpp | Language::AssemblyScript)
    }

    /// The manifest's spelling, or `js` for JavaScript.
    pub fn parse(name: &str) -> Option<Language> {
        match name {
            "js" => Some(Language::JavaScript),
            "as" => Some(Language::AssemblyScript),
            "c++" => Some(Language::Cpp),
            _ => Language::ALL.into_iter().find(|language| language.name() == name),
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot folder and what its manifest says.
#[derive(Debug, Clone)]
pub struct ForeignBot {
    /// The folder's name, which is the built component's name.
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// Its language.
    pub language: Language,
    /// The game, as `arena match --game` spells it; the WIT package is `wit/<game>/`.
    pub game: String,
    /// For a program speaking the game's line protocol on stdin/stdout: its main script
    /// (`"protocol": "stdio"`, `"main"`), or for Go its main package's folder relative to the
    /// bot folder (`"main"`, default `.`); `None` for a bot of the game's WIT world.
    pub stdio_main: Option<String>,
}

impl ForeignBot {
    /// Reads `dir/bot.json`.
    pub fn read(root: &Path, dir: &Path) -> Result<ForeignBot> {
        let manifest_path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&manifest_path)
            .with_context(|| format!("cannot read {}: a bot folder needs a {MANIFEST}", manifest_path.display()))?;
        let manifest: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{} is not JSON", manifest_path.display()))?;
        let field = |key: &str| {
            manifest[key].as_str().map(str::to_owned).with_context(|| {
                format!(
                    "{}: missing string field {key:?} (expected {{\"language\": \"c\", \"game\": \"azul\"}})",
                    manifest_path.display()
                )
            })
        };
        let language_name = field("language")?;
        let Some(language) = Language::parse(&language_name) else {
            let known: Vec<_> = Language::ALL.iter().map(|language| language.name()).collect();
            bail!("{}: unknown language {language_name:?} (known: {})", manifest_path.display(), known.join(", "));
        };
        let game = field("game")?;
        if !root.join("wit").join(&game).is_dir() {
            bail!("{}: no WIT package for game {game:?} (looked in wit/{game}/)", manifest_path.display());
        }
        let protocol = manifest["protocol"].as_str().unwrap_or("wit");
        let stdio_main = match protocol {
            "stdio" if language.programs_only() => Some(match &manifest["main"] {
                serde_json::Value::Null => ".".to_owned(),
                serde_json::Value::String(main) => main.clone(),
                _ => bail!("{}: \"main\" is a path in the bot folder, a string", manifest_path.display()),
            }),
            _ if language.programs_only() => bail!(
                "{}: {}; a {language} bot is built only as a program speaking its game's line protocol \
                 on stdin/stdout, \"protocol\": \"stdio\" (a WIT bot in another language: see \
                 docs/writing-a-bot.md, \"Other languages\")",
                manifest_path.display(),
                match manifest["protocol"].as_str() {
                    None => "no \"protocol\"".to_owned(),
                    Some(other) => format!("protocol {other:?}"),
                }
            ),
            "wit" => None,
            "stdio" if language != Language::C => Some(field("main")?),
            "stdio" => bail!(
                "{}: a stdin/stdout bot is built from C++ (\"language\": \"cpp\"), Python, JavaScript, Go, \
                 Zig or AssemblyScript (a C program is a WASI command already: build it with a WASI \
                 toolchain, e.g. wasi-sdk's clang, and play the .wasm)",
                manifest_path.display()
            ),
            other => bail!("{}: unknown protocol {other:?} (\"wit\" or \"stdio\")", manifest_path.display()),
        };
        let dir = dir.canonicalize().with_context(|| format!("cannot resolve {}", dir.display()))?;
        let name = dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| "bot".into());
        Ok(ForeignBot { name, dir, language, game, stdio_main })
    }

    /// The WIT package folder of the bot's world: the game's, or for a program speaking the
    /// line protocol, the WASI command world of its language's toolchain.
    pub fn wit_dir(&self, root: &Path) -> PathBuf {
        match (&self.stdio_main, self.language) {
            (None, _) => root.join("wit").join(&self.game),
            (Some(_), Language::JavaScript) => js_stdio::wit_dir(root),
            (Some(_), _) => root.join("wit").join("wasi"),
        }
    }
}

/// Every folder under the bot folders that has a `bot.json`, sorted by name.
pub fn discover(root: &Path) -> Result<Vec<ForeignBot>> {
    let mut bots = Vec::new();
    for parent in BOT_DIRS {
        let Ok(entries) = std::fs::read_dir(root.join(parent)) else { continue };
        for entry in entries {
            let dir = entry?.path();
            if dir.join(MANIFEST).is_file() {
                bots.push(ForeignBot::read(root, &dir)?);
            }
        }
    }
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(bots)
}

/// Builds one bot into `out`.
pub fn build(root: &Path, bot: &ForeignBot, out: &Path) -> Result<()> {
    eprintln!("building {} ({}, {}) -> {}", bot.name, bot.language, bot.game, out.display());
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let built = match bot.language {
        Language::C => c::build(root, bot, out),
        Language::Python => python::build(root, bot, out),
        Language::JavaScript => js::build(root, bot, out),
        Language::Go => go::build(root, bot, out),
        Language::Zig => zig::build(root, bot, out),
        Language::Cpp => cpp::build(root, bot, out),
        Language::AssemblyScript => assemblyscript::build(root, bot, out),
    };
    built.with_context(|| format!("building the {} bot {}", bot.language, bot.dir.display()))?;
    place_data(&bot.dir, out)
}

/// Builds every discovered bot of `languages` into `target/bots/<name>.wasm`, skipping a bot
/// whose inputs have not changed since its last build ([`input_digest`], kept beside the
/// output as `<name>.wasm.inputs`); returns the output paths.
pub fn build_all(root: &Path, languages: &[Language]) -> Result<Vec<PathBuf>> {
    let mut outputs = Vec::new();
    for bot in discover(root)?.into_iter().filter(|bot| languages.contains(&bot.language)) {
        let out = bots_dir(root).join(format!("{}.wasm", bot.name));
        let stamp = out.with_extension("wasm.inputs");
        let digest = input_digest(root, &bot)?;
        let current = std::fs::read_to_string(&stamp).is_ok_and(|recorded| recorded == digest);
        if current && out.is_file() {
            eprintln!("{} is up to date ({})", bot.name, out.display());
        } else {
            build(root, &bot, &out)?;
            std::fs::write(&stamp, &digest).with_context(|| format!("cannot write {}", stamp.display()))?;
        }
        outputs.push(out);
    }
    Ok(outputs)
}

/// A digest (SHA-256, hex) of everything a foreign bot's build reads: the bot's folder, its
/// language's SDK folder (`guest-sdk/<language>/`), the WIT packages, and this builder's own
/// source (where the toolchain versions are pinned), each file by relative path and contents.
/// A program of a [`Language::programs_only`] language reads neither an SDK nor the WIT: its
/// folder and the builders only.
pub fn input_digest(root: &Path, bot: &ForeignBot) -> Result<String> {
    let builder = match bot.language {
        Language::C => include_str!("c.rs"),
        Language::Python => include_str!("python.rs"),
        Language::JavaScript => concat!(include_str!("js.rs"), include_str!("js_stdio.rs")),
        Language::Go => include_str!("go.rs"),
        Language::Zig => include_str!("zig.rs"),
        Language::Cpp => include_str!("cpp.rs"),
        Language::AssemblyScript => include_str!("assemblyscript.rs"),
    };
    let sdk = match bot.language {
        Language::C => Some("c"),
        Language::Python => Some("python"),
        Language::JavaScript => Some("js"),
        Language::Go | Language::Zig | Language::Cpp | Language::AssemblyScript => None,
    };
    let mut hasher = Sha256::new();
    for text in [include_str!("mod.rs"), builder] {
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(text.as_bytes());
    }
    // A JavaScript program's vendored packages are in its `node_modules/`; elsewhere that folder
    // holds a developer's own installs, which the build does not read.
    let keep_node_modules = |name: &str| name == "__pycache__";
    let mut sources = vec![(bot.dir.clone(), bot.stdio_main.is_some() && bot.language == Language::JavaScript)];
    if let Some(sdk) = sdk {
        sources.extend([(root.join("guest-sdk").join(sdk), false), (root.join("wit"), false)]);
    }
    for (dir, with_node_modules) in sources {
        let mut files = Vec::new();
        list_files(&dir, &mut files, if with_node_modules { &keep_node_modules } else { &toolchain_cache })?;
        files.sort();
        for file in files {
            let relative = file.strip_prefix(&dir).unwrap_or(&file).to_string_lossy().into_owned();
            let contents = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            hasher.update((relative.len() as u64).to_le_bytes());
            hasher.update(relative.as_bytes());
            hasher.update((contents.len() as u64).to_le_bytes());
            hasher.update(&contents);
        }
    }
    Ok(hex_string(&hasher.finalize()))
}

/// The folders toolchains write into source folders (`__pycache__`, `node_modules`).
pub(crate) fn toolchain_cache(name: &str) -> bool {
    name == "__pycache__" || name == "node_modules"
}

/// Every file under `dir`, leaving out hidden entries and the entries `skip` names.
pub(crate) fn list_files(dir: &Path, files: &mut Vec<PathBuf>, skip: &dyn Fn(&str) -> bool) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with('.') || skip(&name) {
            continue;
        }
        if path.is_dir() {
            list_files(&path, files, skip)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

fn hex_string(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Empties (or creates) the folder a build stages its sources in.
pub fn fresh_stage(stage: &Path) -> Result<()> {
    if stage.exists() {
        std::fs::remove_dir_all(stage).with_context(|| format!("cannot clear {}", stage.display()))?;
    }
    std::fs::create_dir_all(stage).with_context(|| format!("cannot create {}", stage.display()))
}

/// The folder of a bot's data in its source folder: built bots bring it (see [`place_data`]).
pub const DATA_FOLDER: &str = "data";

/// Puts a bot source folder's data (its [`DATA_FOLDER`] subfolder, if it has one) beside the bot
/// file `out` as `NAME.data/`, where `arena match` finds it, replacing an earlier copy. Without
/// one nothing is touched (a folder the user put beside `out` is theirs).
pub fn place_data(bot_dir: &Path, out: &Path) -> Result<()> {
    let source = bot_dir.join(DATA_FOLDER);
    if !source.is_dir() {
        return Ok(());
    }
    let target = out.with_extension("data");
    if target.exists() {
        std::fs::remove_dir_all(&target).with_context(|| format!("cannot replace {}", target.display()))?;
    }
    copy_tree(&source, &target, &|_| false)
}

/// Copies the folder `from` to `to`, following symbolic links, leaving out hidden entries and
/// the entries `skip` names. The toolchains build from such copies: they write into their
/// inputs (`__pycache__`) or resolve imports against one folder.
pub fn copy_tree(from: &Path, to: &Path, skip: &dyn Fn(&str) -> bool) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let name = entry?.file_name();
        let name_text = name.to_string_lossy();
        if name_text.starts_with('.') || skip(&name_text) {
            continue;
        }
        let (source, target) = (from.join(&name), to.join(&name));
        // `metadata` follows links, unlike `DirEntry::file_type`.
        let metadata = std::fs::metadata(&source).with_context(|| format!("cannot read {}", source.display()))?;
        if metadata.is_dir() {
            copy_tree(&source, &target, skip)?;
        } else {
            std::fs::copy(&source, &target)
                .with_context(|| format!("cannot copy {} to {}", source.display(), target.display()))?;
        }
    }
    Ok(())
}

/// A fresh folder `xtask-NAME-PID` under the temporary directory holding `files` (path, text),
/// for tests of a language's build.
#[cfg(test)]
pub(crate) fn scratch_folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(path, text);
    }
    dir
}

/// The repository's root, for tests.
#[cfg(test)]
pub(crate) fn test_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A language of programs only ([`Language::programs_only`]) reads `"protocol": "stdio"`
    /// with `main` defaulting to the folder (`"c++"` and `"as"` are spellings too); without a
    /// protocol, or with `wit`, it is refused, pointing at the documentation.
    #[test]
    fn a_programs_only_manifest_is_a_stdio_program_whose_main_defaults_to_the_folder() {
        for language in Language::ALL.into_iter().filter(|language| language.programs_only()) {
            let name = language.name();
            let manifest = format!(r#"{{ "language": "{name}", "protocol": "stdio", "game": "paint" }}"#);
            let dir = scratch_folder(&format!("manifest-{name}"), &[("bot.json", &manifest)]);
            let bot = ForeignBot::read(&test_root(), &dir).unwrap();
            assert_eq!((bot.language, bot.stdio_main.as_deref()), (language, Some(".")));
            for refused in [
                format!(r#"{{ "language": "{name}", "game": "paint" }}"#),
                format!(r#"{{ "language": "{name}", "protocol": "wit", "game": "paint" }}"#),
            ] {
                std::fs::write(dir.join("bot.json"), refused).unwrap();
                let message = format!("{:#}", ForeignBot::read(&test_root(), &dir).unwrap_err());
                let pointed = message.contains("\"protocol\": \"stdio\"") && message.contains("docs/writing-a-bot.md");
                assert!(pointed, "{name}: {message}");
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
        assert_eq!(Language::parse("c++"), Some(Language::Cpp));
        assert_eq!(Language::parse("as"), Some(Language::AssemblyScript));
    }
}
