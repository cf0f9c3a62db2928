//! The templates of `arena new-bot`, checked as a new user meets them: each is generated into a
//! temporary folder outside the repository and played against its game's random bot. The first
//! template of each language is built there the way the README says (`cargo xtask build-bot
//! DIR`); the others are the same builder on the same sources as the repository's own copy of
//! the template, which `cargo xtask bots` built: their generated sources are checked to be that
//! copy's, byte for byte, and that build plays (a template build costs 3 to 10 s, 13 of them
//! more than 1.5 minutes of CI).

use crate::foreign::{self, ForeignBot};
use crate::rust_bots;
use crate::util::{arena_binary, bots_dir, cargo, run, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// A template as `arena new-bot --list --json` lists it, with the opponent it plays.
struct Template {
    language: String,
    game: String,
    /// The repository's folder it copies (a Rust crate, or a foreign bot folder).
    source: String,
    /// Its game's random example bot (`arena games --json`).
    opponent: String,
}

/// Every template: what `arena new-bot --list --json` lists (a Rust one for every game and the
/// foreign ones), each against its game's random example bot from `arena games --json`.
fn templates(arena: &Path) -> Result<Vec<Template>> {
    let games = json_of(arena, &["games", "--json"])?;
    let random_of = |game: &str| -> Result<String> {
        let info = games.as_array().into_iter().flatten().find(|info| info["name"] == game);
        let random = info.and_then(|info| info["examples"]["random"].as_str());
        Ok(random.with_context(|| format!("arena games lists no random example bot for {game}"))?.to_owned())
    };
    let listed = json_of(arena, &["new-bot", "--list", "--json"])?;
    let mut templates = Vec::new();
    for template in listed.as_array().into_iter().flatten() {
        let (Some(language), Some(game), Some(source)) =
            (template["language"].as_str(), template["game"].as_str(), template["source"].as_str())
        else {
            bail!("arena new-bot --list --json printed {template}");
        };
        let (language, game, source) = (language.to_owned(), game.to_owned(), source.to_owned());
        templates.push(Template { opponent: random_of(&game)?, language, game, source });
    }
    Ok(templates)
}

/// What `arena ARGS` prints, as JSON.
fn json_of(arena: &Path, args: &[&str]) -> Result<serde_json::Value> {
    let output = Command::new(arena).args(args).output().with_context(|| format!("cannot run arena {args:?}"))?;
    if !output.status.success() {
        bail!("arena {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// That the template generated into `generated` has the sources of the repository's `source`
/// folder, byte for byte: every file under `source` (for a Rust crate, those under `src/`: its
/// manifest is rewritten with pinned versions; hidden entries, a build's scratch, left out) is in
/// `generated` with the same bytes.
fn same_sources(source: &Path, generated: &Path, rust: bool) -> Result<()> {
    let mut folders = vec![if rust { source.join("src") } else { source.to_owned() }];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).with_context(|| format!("cannot read {}", folder.display()))? {
            let path = entry?.path();
            if path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.')) {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let relative = path.strip_prefix(source)?;
            let copy = std::fs::read(generated.join(relative)).with_context(|| {
                format!("the template generated into {} has no {}", generated.display(), relative.display())
            })?;
            if copy != std::fs::read(&path)? {
                bail!("the template's {} differs from {}", relative.display(), path.display());
            }
        }
    }
    Ok(())
}

/// Generates, builds and plays every template; the bots must already be built (the opponents).
pub fn check(root: &Path) -> Result<()> {
    run(root, &cargo(), &["build", "-p", "arena-cli", "--bin", "arena"])?;
    check_with_built_arena(root)
}

/// [`check`] with the `arena` a dev build left, right after `cargo test --workspace` (which
/// builds it for the command-line tests with the workspace's features: `cargo build -p
/// arena-cli` selects other features and rebuilt much of the host, three minutes of CI).
pub fn check_with_built_arena(root: &Path) -> Result<()> {
    let arena = arena_binary(root);
    // Outside the repository, as a user's bot would be.
    let scratch = std::env::temp_dir().join(format!("arena-new-bot-{}", std::process::id()));
    let checked = check_in(root, &arena, &scratch);
    // Best effort: a leftover temporary folder is harmless, the result is what counts.
    let _ = std::fs::remove_dir_all(&scratch);
    checked
}

fn check_in(root: &Path, arena: &Path, scratch: &Path) -> Result<()> {
    let mut built_outside: Vec<String> = Vec::new();
    let crate_names = rust_bots::crate_names_by_dir(root)?;
    for Template { language, game, source, opponent } in templates(arena)? {
        let (language, game) = (language.as_str(), game.as_str());
        let dir = scratch.join(format!("my-{language}-{game}-bot"));
        run_command(Command::new(arena).args(["new-bot", "--game", game, "--lang", language]).arg(&dir))?;
        let out = if built_outside.iter().any(|built| built == language) {
            same_sources(&root.join(&source), &dir, language == "rust")?;
            let name = match language {
                "rust" => crate_names.get(&root.join(&source)).cloned(),
                _ => Path::new(&source).file_name().map(|name| name.to_string_lossy().into_owned()),
            };
            let name = name.with_context(|| format!("no bot built from {source}"))?;
            bots_dir(root).join(format!("{name}.wasm"))
        } else {
            built_outside.push(language.to_owned());
            let out = scratch.join(format!("{language}-{game}.wasm"));
            if language == "rust" {
                // Its own target folder (kept between runs), apart from the workspace's.
                rust_bots::build_crate_into(root, &dir, Some(out.clone()), Some(&target_dir(root).join("new-bot")))?;
            } else {
                foreign::build(root, &ForeignBot::read(root, &dir)?, &out)?;
            }
            out
        };
        let opponent = bots_dir(root).join(format!("{opponent}.wasm"));
        let output = Command::new(arena)
            .args(["match", "--game", game, "--seed", "1", "--json"])
            .arg(&out)
            .arg(&opponent)
            .output()
            .context("cannot run arena match")?;
        if !output.status.success() {
            bail!("the {language} template for {game} did not play: {}", String::from_utf8_lossy(&output.stderr));
        }
        let result: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        let seat = &result["players"][0];
        let clean = seat["forfeit"] == false && seat["traps"] == 0 && seat["invalid_actions"] == 0;
        if !clean || result["turns"].as_u64().unwrap_or(0) == 0 {
            bail!("the {language} template for {game} did not play cleanly: {seat}");
        }
        eprintln!("template {language}/{game}: played {} turns, score {}", result["turns"], seat["score"]);
    }
    Ok(())
}
