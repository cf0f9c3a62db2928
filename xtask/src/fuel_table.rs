//! `cargo xtask fuel-table [--write]`: the documentation's fuel tables, as `arena fuel
//! --markdown` prints them. Which tables, in which document, and which bots is
//! `xtask/fuel-tables.json`, which `tests/tests/all/docs.rs` reads too to check the copies: the same trivial Azul bot in
//! each language; and per game with a line protocol, the stdin/stdout programs (the Rust one, the
//! trivial Python and JavaScript programs, which parse every state and answer a simple legal
//! move: the floor an interpreted program pays, and the examples).

use crate::all_bots;
use crate::util::{bots_dir, cargo};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// The tables' definitions, relative to the workspace root.
const DEFINITIONS: &str = "xtask/fuel-tables.json";

/// Prints the tables; with `--write`, puts each into its document between its marker lines
/// (`<!-- BLOCK: ... -->` and `<!-- /BLOCK -->`).
pub fn run(root: &Path, args: &[String]) -> Result<()> {
    let write = match args {
        [] => false,
        [flag] if flag == "--write" => true,
        _ => bail!("usage: cargo xtask fuel-table [--write]"),
    };
    let definitions_path = root.join(DEFINITIONS);
    let definitions: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&definitions_path)?)
        .with_context(|| format!("{} is not JSON", definitions_path.display()))?;
    all_bots(root)?;
    for table in definitions.as_array().context("the table definitions are a JSON array")? {
        let block = table["block"].as_str().context("a table without a `block` name")?;
        let text = render(root, table["games"].as_array().context("a table without `games`")?)?;
        if !write {
            print!("{text}");
            continue;
        }
        let document = table["document"].as_str().context("a table without the `document` it is in")?;
        let path = root.join(document);
        let mut page = std::fs::read_to_string(&path).with_context(|| format!("cannot read {document}"))?;
        let (start_marker, end_marker) = (format!("<!-- {block}: "), format!("<!-- /{block} -->"));
        let (Some(start), Some(end)) = (page.find(&start_marker), page.find(&end_marker)) else {
            bail!("{document} has no `{start_marker}...` ... `{end_marker}` block");
        };
        let start_line_end = start + page[start..].find('\n').context("the start marker ends its line")? + 1;
        page = format!("{}{text}{}", &page[..start_line_end], &page[end..]);
        std::fs::write(&path, page)?;
        eprintln!("{document}: {block} updated");
    }
    Ok(())
}

/// The block's text: one `arena fuel --markdown` table per game, each after a line with the
/// game's title in bold when the block has several games.
fn render(root: &Path, games: &[serde_json::Value]) -> Result<String> {
    let mut text = String::new();
    for entry in games {
        let (Some(game), Some(title), Some(bots)) =
            (entry["game"].as_str(), entry["title"].as_str(), entry["bots"].as_array())
        else {
            bail!("{DEFINITIONS}: each game needs `game`, `title` and `bots`");
        };
        let mut args = vec!["run", "--quiet", "-p", "arena-cli", "--bin", "arena", "--", "fuel", "--game", game];
        args.push("--markdown");
        let paths: Vec<String> = bots
            .iter()
            .filter_map(|name| name.as_str())
            .map(|name| bots_dir(root).join(format!("{name}.wasm")).display().to_string())
            .collect();
        args.extend(paths.iter().map(String::as_str));
        let output = Command::new(cargo()).args(&args).current_dir(root).output().context("cannot run arena fuel")?;
        if !output.status.success() {
            bail!("arena fuel failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        if games.len() > 1 {
            text.push_str(&format!("{}**{title}**\n\n", if text.is_empty() { "" } else { "\n" }));
        }
        text.push_str(&String::from_utf8(output.stdout)?);
    }
    Ok(text)
}
