//! `arena new-bot`: writes a bot project that builds and plays as generated, outside the
//! repository.
//!
//! A Rust bot is a crate pinned to this release: its dependency on the SDK is the SDK this
//! `arena` was built from (a path into the clone, or `--sdk`), its `Cargo.lock` is the
//! workspace's (the same dependency versions), its `rust-toolchain.toml` the workspace's (the
//! same compiler), and its release profile the workspace's `bot` profile; so the same source
//! spends the fuel it would spend built inside the repository, to a fraction of a percent (the
//! file embeds its own source paths, which moves data and so alignment-dependent copies; a
//! given file always spends the same). Its source is the game's template
//! (`guest-sdk/rust/templates/<game>/src/lib.rs`, the bot the SDK guide shows).
//!
//! A C, Python, JavaScript, Go, C++, Zig or AssemblyScript bot is a folder with a `bot.json` and
//! the sources of the example bot of that language and game, built by `cargo xtask build-bot DIR`
//! in the repository (a Go, C++, Zig or AssemblyScript one is an ordinary program speaking its
//! game's line protocol; the build installs the language's toolchain).

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena new-bot --game azul my-bot                 # a Rust crate; then: cd my-bot && cargo build --release
  arena new-bot --game paint --lang js paint-bot   # a JavaScript folder; then: cargo xtask build-bot paint-bot
  arena new-bot --game suitebot --lang go sb-bot   # a Go program on the line protocol; the same build
  arena new-bot --list                             # every template: language, game, what it is a copy of";

#[derive(Debug, Args)]
pub struct NewBotArgs {
    /// List the templates (language, game, source) instead of writing one.
    #[arg(long, conflicts_with_all = ["game", "dir", "sdk"])]
    list: bool,
    /// With --list: print one JSON array.
    #[arg(long, requires = "list")]
    json: bool,
    /// The game the bot plays (`arena games` lists them).
    #[arg(long, required_unless_present = "list")]
    game: Option<String>,
    /// The bot's language.
    #[arg(long, value_enum, default_value_t = Language::Rust)]
    lang: Language,
    /// Where the Rust SDK is (`guest-sdk/rust` of a clone); default: the clone this `arena`
    /// was built from.
    #[arg(long, value_name = "PATH")]
    sdk: Option<PathBuf>,
    /// The folder to create (it must not exist, or be empty).
    #[arg(required_unless_present = "list")]
    dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Language {
    Rust,
    C,
    Python,
    Js,
    Go,
    Cpp,
    Zig,
    Assemblyscript,
}

// `RUST_TEMPLATES`: every folder of `guest-sdk/rust/templates/`, embedded (build.rs).
include!(concat!(env!("OUT_DIR"), "/rust_templates.rs"));

/// A foreign-language template: the files of an example bot folder (`bot.json` included).
struct ForeignTemplate {
    language: Language,
    game: &'static str,
    /// The example it is copied from, for messages.
    example: &'static str,
    files: &'static [(&'static str, &'static str)],
}

const FOREIGN_TEMPLATES: [ForeignTemplate; 16] = [
    ForeignTemplate {
        language: Language::C,
        game: "azul",
        example: "azul-greedy-c",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-greedy-c/bot.json")),
            ("greedy.c", include_str!("../../../../bots-examples/azul-greedy-c/greedy.c")),
        ],
    },
    ForeignTemplate {
        language: Language::Python,
        game: "azul",
        example: "azul-random-py",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-random-py/bot.json")),
            ("app.py", include_str!("../../../../bots-examples/azul-random-py/app.py")),
        ],
    },
    ForeignTemplate {
        language: Language::Js,
        game: "azul",
        example: "azul-random-js",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-random-js/bot.json")),
            ("bot.js", include_str!("../../../../bots-examples/azul-random-js/bot.js")),
        ],
    },
    ForeignTemplate {
        language: Language::Js,
        game: "paint",
        example: "paint-random-js",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/paint-random-js/bot.json")),
            ("bot.js", include_str!("../../../../bots-examples/paint-random-js/bot.js")),
        ],
    },
    ForeignTemplate {
        language: Language::Go,
        game: "azul",
        example: "azul-stdio-go",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-stdio-go/bot.json")),
            ("go.mod", include_str!("../../../../bots-examples/azul-stdio-go/go.mod")),
            ("main.go", include_str!("../../../../bots-examples/azul-stdio-go/main.go")),
        ],
    },
    ForeignTemplate {
        language: Language::Go,
        game: "paint",
        example: "paint-stdio-go",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/paint-stdio-go/bot.json")),
            ("go.mod", include_str!("../../../../bots-examples/paint-stdio-go/go.mod")),
            ("main.go", include_str!("../../../../bots-examples/paint-stdio-go/main.go")),
        ],
    },
    ForeignTemplate {
        language: Language::Go,
        game: "suitebot",
        example: "suitebot-stdio-go",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/suitebot-stdio-go/bot.json")),
            ("go.mod", include_str!("../../../../bots-examples/suitebot-stdio-go/go.mod")),
            ("main.go", include_str!("../../../../bots-examples/suitebot-stdio-go/main.go")),
        ],
    },
    ForeignTemplate {
        language: Language::Cpp,
        game: "azul",
        example: "azul-stdio-cpp",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-stdio-cpp/bot.json")),
            ("main.cpp", include_str!("../../../../bots-examples/azul-stdio-cpp/main.cpp")),
        ],
    },
    ForeignTemplate {
        language: Language::Cpp,
        game: "paint",
        example: "paint-stdio-cpp",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/paint-stdio-cpp/bot.json")),
            ("main.cpp", include_str!("../../../../bots-examples/paint-stdio-cpp/main.cpp")),
        ],
    },
    ForeignTemplate {
        language: Language::Cpp,
        game: "suitebot",
        example: "suitebot-stdio-cpp",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/suitebot-stdio-cpp/bot.json")),
            ("main.cpp", include_str!("../../../../bots-examples/suitebot-stdio-cpp/main.cpp")),
        ],
    },
    ForeignTemplate {
        language: Language::Zig,
        game: "azul",
        example: "azul-stdio-zig",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-stdio-zig/bot.json")),
            ("main.zig", include_str!("../../../../bots-examples/azul-stdio-zig/main.zig")),
        ],
    },
    ForeignTemplate {
        language: Language::Zig,
        game: "paint",
        example: "paint-stdio-zig",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/paint-stdio-zig/bot.json")),
            ("main.zig", include_str!("../../../../bots-examples/paint-stdio-zig/main.zig")),
        ],
    },
    ForeignTemplate {
        language: Language::Zig,
        game: "suitebot",
        example: "suitebot-stdio-zig",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/suitebot-stdio-zig/bot.json")),
            ("main.zig", include_str!("../../../../bots-examples/suitebot-stdio-zig/main.zig")),
        ],
    },
    ForeignTemplate {
        language: Language::Assemblyscript,
        game: "azul",
        example: "azul-stdio-as",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/azul-stdio-as/bot.json")),
            ("asconfig.json", include_str!("../../../../bots-examples/azul-stdio-as/asconfig.json")),
            ("assembly/index.ts", include_str!("../../../../bots-examples/azul-stdio-as/assembly/index.ts")),
            ("assembly/lines.ts", include_str!("../../../../bots-examples/azul-stdio-as/assembly/lines.ts")),
        ],
    },
    ForeignTemplate {
        language: Language::Assemblyscript,
        game: "paint",
        example: "paint-stdio-as",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/paint-stdio-as/bot.json")),
            ("asconfig.json", include_str!("../../../../bots-examples/paint-stdio-as/asconfig.json")),
            ("assembly/index.ts", include_str!("../../../../bots-examples/paint-stdio-as/assembly/index.ts")),
            ("assembly/json.ts", include_str!("../../../../bots-examples/paint-stdio-as/assembly/json.ts")),
            ("assembly/lines.ts", include_str!("../../../../bots-examples/paint-stdio-as/assembly/lines.ts")),
        ],
    },
    ForeignTemplate {
        language: Language::Assemblyscript,
        game: "suitebot",
        example: "suitebot-stdio-as",
        files: &[
            ("bot.json", include_str!("../../../../bots-examples/suitebot-stdio-as/bot.json")),
            ("asconfig.json", include_str!("../../../../bots-examples/suitebot-stdio-as/asconfig.json")),
            ("assembly/index.ts", include_str!("../../../../bots-examples/suitebot-stdio-as/assembly/index.ts")),
            ("assembly/json.ts", include_str!("../../../../bots-examples/suitebot-stdio-as/assembly/json.ts")),
            ("assembly/lines.ts", include_str!("../../../../bots-examples/suitebot-stdio-as/assembly/lines.ts")),
        ],
    },
];

/// The workspace's toolchain and lock file: a generated crate builds with both.
const TOOLCHAIN: &str = include_str!("../../../../rust-toolchain.toml");
const LOCK_FILE: &str = include_str!("../../../../Cargo.lock");

/// The Rust SDK of the clone this binary was built from.
fn default_sdk() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join("guest-sdk").join("rust")
}

/// One template as `--list` shows it.
#[derive(serde::Serialize)]
struct Listed {
    language: String,
    game: &'static str,
    /// Where its source comes from.
    source: String,
}

/// Every template: a Rust one for every game (from the registry), then the foreign ones.
fn listed() -> Vec<Listed> {
    let rust = arena_host::registry::game_names().into_iter().map(|game| Listed {
        language: language_flag(Language::Rust),
        game,
        source: format!("guest-sdk/rust/templates/{game}"),
    });
    let foreign = FOREIGN_TEMPLATES.iter().map(|template| Listed {
        language: language_flag(template.language),
        game: template.game,
        source: format!("bots-examples/{}", template.example),
    });
    rust.chain(foreign).collect()
}

/// The value `--lang` takes for `language`.
fn language_flag(language: Language) -> String {
    language.to_possible_value().map(|value| value.get_name().to_owned()).unwrap_or_default()
}

pub fn run(args: NewBotArgs) -> anyhow::Result<ExitCode> {
    let (Some(game), Some(dir)) = (args.game, args.dir) else {
        let templates = listed();
        if args.json {
            outln!("{}", serde_json::to_string(&templates)?);
        } else {
            for template in templates {
                outln!("--lang {:<14} --game {:<15} {}", template.language, template.game, template.source);
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    if arena_host::registry::find_game(&game).is_none() {
        let names: Vec<&str> = arena_host::registry::games().iter().map(|game| game.info().name).collect();
        bail!("unknown game {game:?} (games: {})", names.join(", "));
    }
    refuse_occupied(&dir)?;
    let name = crate_name(&dir)?;
    match args.lang {
        Language::Rust => {
            let sdk = args.sdk.clone().unwrap_or_else(default_sdk);
            let sdk = sdk.canonicalize().ok().filter(|sdk| sdk.join("Cargo.toml").is_file()).with_context(|| {
                format!(
                    "the Rust SDK is not at {} (the clone `arena` was built from moved?): \
                     pass --sdk PATH/TO/wasm-arena/guest-sdk/rust",
                    sdk.display()
                )
            })?;
            write_rust(&dir, &name, &game, &sdk)?;
            let wasm = format!("target/wasm32-wasip2/release/{}.wasm", name.replace('-', "_"));
            eprintln!("created {}: a Rust bot for {} (src/lib.rs)", dir.display(), game);
            eprintln!("next:\n  cd {} && cargo build --release", dir.display());
            eprintln!("  arena match --game {} {wasm} OPPONENT.wasm", game);
        }
        language => {
            let template = FOREIGN_TEMPLATES
                .iter()
                .find(|template| template.language == language && template.game == game)
                .with_context(|| foreign_missing(language, &game))?;
            std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            for (file, text) in template.files {
                write(&dir.join(file), text)?;
            }
            eprintln!(
                "created {}: a {} bot for {} (a copy of the example {})",
                dir.display(),
                language_name(language),
                game,
                template.example
            );
            eprintln!("next, in the arena's repository:\n  cargo xtask build-bot {}", dir.display());
            eprintln!("  arena match --game {} target/bots/{name}.wasm OPPONENT.wasm", game);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::Rust => "Rust",
        Language::C => "C",
        Language::Python => "Python",
        Language::Js => "JavaScript",
        Language::Go => "Go",
        Language::Cpp => "C++",
        Language::Zig => "Zig",
        Language::Assemblyscript => "AssemblyScript",
    }
}

/// Says which games have a template in `language`.
fn foreign_missing(language: Language, game: &str) -> String {
    let games: Vec<&str> = FOREIGN_TEMPLATES
        .iter()
        .filter(|template| template.language == language)
        .map(|template| template.game)
        .collect();
    format!(
        "no {} template for {game} (there is one for: {}); a {} bot for {game} implements the WIT \
         world in wit/{game}/ (see its language guide in guest-sdk/), or use --lang rust",
        language_name(language),
        games.join(", "),
        language_name(language)
    )
}

/// Refuses a folder that exists and holds anything: generating never overwrites a file.
fn refuse_occupied(dir: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(entries) => match entries.count() {
            0 => Ok(()),
            _ => bail!("{} exists and is not empty", dir.display()),
        },
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// The package name: the folder's name in lower case, characters other than letters, digits,
/// `-` and `_` as `-`, prefixed with `bot-` when it does not start with a letter.
fn crate_name(dir: &Path) -> anyhow::Result<String> {
    let base = dir
        .file_name()
        .and_then(|name| name.to_str())
        .with_context(|| format!("{} has no usable folder name", dir.display()))?;
    let name: String = base
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    Ok(if name.starts_with(|c: char| c.is_ascii_lowercase()) { name } else { format!("bot-{name}") })
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn write_rust(dir: &Path, name: &str, game: &str, sdk: &Path) -> anyhow::Result<()> {
    let template = RUST_TEMPLATES
        .iter()
        .find(|(template_game, _)| *template_game == game)
        .map(|(_, source)| *source)
        .unwrap_or("");
    // A TOML basic string: the path's backslashes (Windows) and quotes escaped.
    let sdk_path = sdk.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"

[lib]
# A WebAssembly component exporting the game's WIT world.
crate-type = ["cdylib"]

[dependencies]
# The SDK of the arena release this crate was generated by; the feature picks the game.
arena-sdk = {{ path = "{sdk_path}", features = ["{game}"] }}

# The arena's own `bot` profile (its example bots are built with it): fewer instructions =
# less fuel per turn.
[profile.release]
opt-level = 3
debug = false
panic = "abort"

# A workspace of its own, even when generated inside another one.
[workspace]
"#
    );
    let config =
        "# `cargo build --release` builds the bot: a wasm32-wasip2 component.\n[build]\ntarget = \"wasm32-wasip2\"\n";
    let wasm = format!("target/wasm32-wasip2/release/{}.wasm", name.replace('-', "_"));
    let readme = format!(
        "# {name}\n\nA Wasm Arena bot for {game}.\n\n```sh\ncargo build --release\narena match --game {game} {wasm} OPPONENT.wasm\narena fuel --game {game} {wasm}\n```\n\n\
         `Cargo.lock` and `rust-toolchain.toml` pin the dependency versions and the compiler of the arena\n\
         release that generated this crate (those its example bots are built with): keep them. A given\n\
         `.wasm` file spends the same fuel on every machine; measure yours with `arena fuel`.\n"
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    write(&dir.join("Cargo.lock"), LOCK_FILE)?;
    write(&dir.join("rust-toolchain.toml"), TOOLCHAIN)?;
    write(&dir.join(".cargo").join("config.toml"), config)?;
    write(&dir.join(".gitignore"), "/target\n")?;
    write(&dir.join("README.md"), &readme)?;
    write(&dir.join("src").join("lib.rs"), template)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names_are_cargo_package_names() {
        assert_eq!(crate_name(Path::new("/tmp/My Bot")).unwrap(), "my-bot");
        assert_eq!(crate_name(Path::new("7up")).unwrap(), "bot-7up");
        assert_eq!(crate_name(Path::new("a/b_c")).unwrap(), "b_c");
    }

    #[test]
    fn every_game_has_a_rust_template() {
        for game in arena_host::registry::games() {
            let name = game.info().name;
            let found = RUST_TEMPLATES.iter().find(|(template_game, _)| *template_game == name);
            assert!(found.is_some_and(|(_, source)| source.contains("_bot!(")), "{name}");
        }
    }

    #[test]
    fn a_missing_template_names_the_ones_there_are() {
        let message = foreign_missing(Language::Js, "eubots");
        assert!(message.contains("no JavaScript template for eubots (there is one for: azul, paint)"), "{message}");
    }
}
