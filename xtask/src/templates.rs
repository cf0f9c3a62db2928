//! The templates of `arena new-bot`, checked as a new user meets them: each is generated into a
//! temporary folder outside the repository, built the way the README says
//! (`cargo xtask build-bot DIR`), and played against its game's random bot.

use crate::foreign::{self, ForeignBot};
use crate::rust_bots;
use crate::util::{arena_binary, bots_dir, cargo, run, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// The templates in other languages than Rust: (language, game). Every game has a Rust one.
const FOREIGN_TEMPLATES: [(&str, &str); 4] = [("c", "azul"), ("python", "azul"), ("js", "azul"), ("js", "paint")];

/// Every template, (language, game, the opponent it plays): a Rust one for every game `arena
/// games --json` lists and the foreign ones, each against its game's random example bot.
fn templates(arena: &Path) -> Result<Vec<(String, String, String)>> {
    let output = Command::new(arena).args(["games", "--json"]).output().context("cannot run arena games")?;
    if !output.status.success() {
        bail!("arena games failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let games: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let random_of = |game: &str| -> Result<String> {
        let info = games.as_array().into_iter().flatten().find(|info| info["name"] == game);
        let random = info.and_then(|info| info["examples"]["random"].as_str());
        Ok(random.with_context(|| format!("arena games lists no random example bot for {game}"))?.to_owned())
    };
    let mut templates = Vec::new();
    for game in games.as_array().into_iter().flatten().filter_map(|info| info["name"].as_str()) {
        templates.push(("rust".to_owned(), game.to_owned(), random_of(game)?));
    }
    for (language, game) in FOREIGN_TEMPLATES {
        templates.push((language.to_owned(), game.to_owned(), random_of(game)?));
    }
    Ok(templates)
}

/// Generates, builds and plays every template; the bots must already be built (the opponents).
pub fn check(root: &Path) -> Result<()> {
    run(root, &cargo(), &["build", "-p", "arena-cli", "--bin", "arena"])?;
    let arena = arena_binary(root);
    // Outside the repository, as a user's bot would be.
    let scratch = std::env::temp_dir().join(format!("arena-new-bot-{}", std::process::id()));
    let checked = check_in(root, &arena, &scratch);
    // Best effort: a leftover temporary folder is harmless, the result is what counts.
    let _ = std::fs::remove_dir_all(&scratch);
    checked
}

fn check_in(root: &Path, arena: &Path, scratch: &Path) -> Result<()> {
    for (language, game, opponent) in templates(arena)? {
        let (language, game) = (language.as_str(), game.as_str());
        let dir = scratch.join(format!("my-{language}-{game}-bot"));
        run_command(Command::new(arena).args(["new-bot", "--game", game, "--lang", language]).arg(&dir))?;
        let out = scratch.join(format!("{language}-{game}.wasm"));
        if language == "rust" {
            // One target folder for every generated crate (kept between runs), so the SDK's
            // dependencies build once, not once per template.
            rust_bots::build_crate_into(root, &dir, Some(out.clone()), Some(&target_dir(root).join("new-bot")))?;
        } else {
            foreign::build(root, &ForeignBot::read(root, &dir)?, &out)?;
        }
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
