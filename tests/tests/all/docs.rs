//! The Rust bots the guides show are real: every ` ```rust ` block that exports a bot is, byte
//! for byte, one of the SDK's templates (`guest-sdk/rust/templates/<game>/src/lib.rs`, what
//! `arena new-bot --lang rust` writes), which `cargo xtask bots` builds; every template beats
//! its game's random bot; and the documented fuel tables are what `arena fuel --markdown` prints.

use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::registry::find_game;
use arena_profiler::fuel_profile::{FuelProfile, markdown_table, measuring_budget};
use arena_tests::{arena, bot_path, workspace_root};
use std::path::PathBuf;

/// Each registered game with its template crate folder's name (the game's) and its random
/// example bot, from the registry.
fn templates() -> Vec<(&'static str, &'static str)> {
    arena_host::registry::games()
        .iter()
        .map(|entry| entry.info())
        .map(|info| (info.name, info.examples.random))
        .collect()
}

/// The documents whose Rust bot snippets must be templates.
const DOCUMENTS: [&str; 2] = ["docs/writing-a-bot.md", "guest-sdk/rust/README.md"];

fn template_source(game: &str) -> String {
    let path = workspace_root().join("guest-sdk/rust/templates").join(game).join("src/lib.rs");
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The ` ```rust ` blocks of a Markdown text that export a bot (`export_<game>_bot!`).
fn bot_snippets(markdown: &str) -> Vec<String> {
    let mut snippets = Vec::new();
    let mut rest = markdown;
    while let Some(start) = rest.find("```rust\n") {
        let body = &rest[start + "```rust\n".len()..];
        let end = body.find("```").expect("every code block is closed");
        if body[..end].contains("_bot!(") {
            snippets.push(body[..end].to_owned());
        }
        rest = &body[end + 3..];
    }
    snippets
}

/// Every registered game has a template crate (a game added without one fails here, naming the
/// folder to write).
#[test]
fn every_registered_game_has_a_template() {
    for (game, _) in templates() {
        let folder = workspace_root().join("guest-sdk/rust/templates").join(game);
        assert!(folder.join("src/lib.rs").is_file(), "{game} has no template: write {}", folder.display());
    }
}

#[test]
fn every_bot_snippet_in_the_readmes_is_a_built_template() {
    let templates: Vec<(&str, String)> =
        templates().into_iter().map(|(game, _)| (game, template_source(game))).collect();
    for document in DOCUMENTS {
        let text = std::fs::read_to_string(workspace_root().join(document)).unwrap();
        let snippets = bot_snippets(&text);
        assert!(!snippets.is_empty(), "{document} shows no bot");
        for snippet in snippets {
            assert!(
                templates.iter().any(|(_, source)| *source == snippet),
                "{document} shows a bot that is no template; copy it from (or into) \
                 guest-sdk/rust/templates/<game>/src/lib.rs:\n{snippet}"
            );
        }
    }
    // The SDK guide shows every game's template.
    let guide = std::fs::read_to_string(workspace_root().join("guest-sdk/rust/README.md")).unwrap();
    let shown = bot_snippets(&guide);
    for (game, source) in &templates {
        assert!(shown.contains(source), "the SDK guide does not show the {game} template");
    }
}

/// Every template wins more matches than the random bot of its game and scores more on
/// average: 2-player games on 5 seeds in both seat orders; SuiteBot II (whose snippet shows 4
/// players) against three random bots in every seat rotation of 2 seeds.
#[test]
fn every_template_beats_the_random_bot_of_its_game() {
    for (game, random) in templates() {
        let entry = find_game(game).unwrap();
        let template = format!("template-{game}");
        let players = if game == "suitebot" { 4 } else { 2 };
        let seeds = if players == 2 { 0..5 } else { 0..2 };
        let mut paths: Vec<PathBuf> = vec![bot_path(&template)];
        paths.extend((1..players).map(|_| bot_path(random)));
        for path in &paths {
            assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
        }
        let plan: Vec<(u64, Vec<usize>)> = seeds
            .flat_map(|seed| {
                (0..players).map(move |shift| (seed, (0..players).map(|i| (i + shift) % players).collect()))
            })
            .collect();
        let played =
            entry.play_series(arena(), &BotFiles::all_code_only(&paths), &[], &plan, Budget::default()).unwrap();
        let (mut wins, mut template_score, mut best_random_score) = (0, 0, vec![0; players]);
        for ((_, seating), played) in plan.iter().zip(&played) {
            for (seat, player) in played.result.players.iter().enumerate() {
                assert!(!player.forfeit && player.traps == 0 && player.invalid_actions == 0, "{game}: {player:?}");
                match seating[seat] {
                    0 => template_score += player.score,
                    bot => best_random_score[bot] += player.score,
                }
            }
            let template_seat = seating.iter().position(|bot| *bot == 0).unwrap();
            wins += usize::from(played.result.winner == Some(template_seat));
        }
        let best_random = best_random_score.iter().max().copied().unwrap_or(0);
        assert!(wins * 4 >= plan.len() * 3, "{game}: the template won {wins} of {} matches", plan.len());
        assert!(
            template_score > best_random,
            "{game}: the template scored {template_score}, a random bot {best_random}"
        );
    }
}

/// Rows of reproducible builds (Rust, C) must match exactly; componentize-py and
/// componentize-js builds (bots named `*-py`, `*-js`) snapshot a different interpreter state
/// from one build to the next, so their rows' figures may differ by this share (the README says
/// so). Measured: up to 4.2% for the trivial Azul Python program, whose turns are mostly global
/// variable lookups; 2% or less for the others.
const INTERPRETED_TOLERANCE: f64 = 0.08;

/// The numbers of a table row's cells (`1,014,372`, `3.6%`, `9x`, `19.3 MB`), in order.
fn row_numbers(row: &str) -> Vec<f64> {
    row.split('|')
        .filter_map(|cell| {
            let digits: String = cell.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
            digits.parse().ok()
        })
        .collect()
}

/// What `cargo xtask fuel-table` writes into a block: per game (after its bold title when the
/// block has several), the table `arena fuel --markdown` prints for its bots.
fn measured_block(games: &[serde_json::Value]) -> String {
    let budget = Budget::default();
    let mut text = String::new();
    for definition in games {
        let entry = find_game(definition["game"].as_str().unwrap()).unwrap();
        let mut rows = Vec::new();
        for name in definition["bots"].as_array().unwrap() {
            let path = bot_path(name.as_str().unwrap());
            assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
            let copies = vec![path.clone(); entry.info().min_players];
            let played =
                entry.play(arena(), &BotFiles::all_code_only(&copies), &[], 1, measuring_budget(&budget)).unwrap();
            let replay: serde_json::Value = serde_json::from_str(&played.replay).unwrap();
            let size = std::fs::metadata(&path).unwrap().len();
            rows.push((FuelProfile::from_replay(&replay, 0).unwrap(), size));
        }
        if games.len() > 1 {
            let title = definition["title"].as_str().unwrap();
            text.push_str(&format!("{}**{title}**\n\n", if text.is_empty() { "" } else { "\n" }));
        }
        text.push_str(&markdown_table(&rows, &budget));
    }
    text
}

/// The documentation's fuel tables (which bots, in which document: `xtask/fuel-tables.json`,
/// which the xtask generating them reads too) are what `arena fuel` measures now.
#[test]
fn the_documented_fuel_tables_are_what_arena_fuel_prints() {
    let definitions = std::fs::read_to_string(workspace_root().join("xtask/fuel-tables.json")).unwrap();
    let definitions: serde_json::Value = serde_json::from_str(&definitions).unwrap();
    for table in definitions.as_array().unwrap() {
        let block = table["block"].as_str().unwrap();
        let document = table["document"].as_str().unwrap();
        let readme = std::fs::read_to_string(workspace_root().join(document)).unwrap();
        let measured = measured_block(table["games"].as_array().unwrap());
        let marker = format!("<!-- {block}: ");
        let start = readme.find(&marker).unwrap_or_else(|| panic!("{document} has no {block} block"));
        let start = start + readme[start..].find('\n').unwrap() + 1;
        let end = start + readme[start..].find(&format!("<!-- /{block} -->")).expect("the block is closed");
        let documented = &readme[start..end];
        let stale =
            || format!("{document}'s {block} is stale: run `cargo xtask fuel-table --write`\nmeasured:\n{measured}");
        assert_eq!(documented.lines().count(), measured.lines().count(), "{}", stale());
        for (documented, measured) in documented.lines().zip(measured.lines()) {
            let bot = measured.split('|').nth(1).unwrap_or("").trim();
            if !(bot.ends_with("-py") || bot.ends_with("-js")) {
                assert_eq!(documented, measured, "{}", stale());
                continue;
            }
            assert_eq!(documented.split('|').nth(1), measured.split('|').nth(1), "{}", stale());
            let (documented, measured) = (row_numbers(documented), row_numbers(measured));
            assert_eq!(documented.len(), measured.len(), "{}", stale());
            for (doc, now) in documented.iter().zip(&measured) {
                let close = (doc - now).abs() <= INTERPRETED_TOLERANCE * now.abs().max(1.0) + 0.1;
                assert!(close, "{doc} vs {now}: {}", stale());
            }
        }
    }
}
