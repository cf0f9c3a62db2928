//! `arena view REPLAY`: writes the replay viewer page of a replay (see `arena_view`).

use anyhow::Context;
use arena_host::replay::replay_game;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena match --game azul target/bots/azul-greedy.wasm target/bots/azul-random.wasm --replay match.json
  arena view match.json                 # writes match.html beside it
  arena view match.json -o /tmp/m.html --open

The page is one self-contained HTML file: it needs no network and opens from disk. It re-plays the
recorded actions on this arena's engine first; a replay its engine does not reproduce is refused.
Compressed replays (`arena tournament run --replays DIR`) are read as they are. A replay recording
more turns than its game can last (`arena games`) is refused before its turns are read.";

/// `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The replay file (`.json`, or `.json.gz` as a tournament keeps them).
    replay: PathBuf,
    /// Where to write the page (default: the replay's name with `.html`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Open the page in the default browser once written.
    #[arg(long)]
    open: bool,
}

pub fn run(args: ViewArgs) -> anyhow::Result<ExitCode> {
    let name = replay_game(&args.replay, arena_host::registry::replay_limits)?;
    let page = arena_view::page_of_replay(&name, &args.replay)?;
    let output = args.output.unwrap_or_else(|| default_output(&args.replay));
    std::fs::write(&output, page).with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!("wrote {}", output.display());
    if args.open {
        open_in_browser(&output);
    }
    Ok(ExitCode::SUCCESS)
}

/// `match.json` and `match.json.gz` become `match.html`, in the same folder.
fn default_output(replay: &Path) -> PathBuf {
    let name = replay.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    let stem = stem.strip_suffix(".json").unwrap_or(stem);
    replay.with_file_name(format!("{stem}.html"))
}

/// Hands the page to the desktop's opener; where there is none, says where the page is.
fn open_in_browser(page: &Path) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    match std::process::Command::new(opener).arg(page).status() {
        Ok(status) if status.success() => {}
        _ => eprintln!("could not open a browser ({opener}); open {} yourself", page.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_goes_beside_the_replay() {
        assert_eq!(default_output(Path::new("a/match.json")), Path::new("a/match.html"));
        assert_eq!(default_output(Path::new("a/abc.json.gz")), Path::new("a/abc.html"));
        assert_eq!(default_output(Path::new("replay")), Path::new("replay.html"));
    }
}
