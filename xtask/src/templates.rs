//! The templates of `arena new-bot`, checked as a new user meets them: each is generated into a
//! temporary folder outside the repository, built the way the README says
//! (`cargo xtask build-bot DIR`), and played against its game's random bot.

use crate::foreign::{self, ForeignBot};
use crate::rust_bots;
use crate::util::{arena_binary, bots_dir, cargo, run, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// Every template, (language, game, the opponent it plays): what `arena new-bot --list --json`
/// lists (a Rust one for every game and the foreign ones), each against its game's random
/// example bot from `arena games --json`.
fn templates(arena: &Path) -> Result<Vec<(String, String, String)>> {
    let games = json_of(arena, &["games", "--json"])?;
    let random_of = |game: &str| -> Result<String> {
        let info = games.as_array().into_iter().flatten().find(|info| info["name"] == game);
        let random = info.and_then(|info| info["examples"]["random"].as_str());
        Ok(random.with_context(|| format!("arena games lists no random example bot for {game}"))?.to_owned())
    };
    let listed = json_of(arena, &["new-bot", "--list", "--json"])?;
    let mut templates = Vec::new();
    for template in listed.as_array().into_iter().flatten() {
        let (Some(language), Some(game)) = (template["language"].as_str(), template["game"].as_str()) else {
            bail!("arena new-bot --list --json printed {template}");
        };
        templates.push((language.to_owned(), game.to_owned(), random_of(game)?));
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
