//! The tournament SPEC: a TOML file naming the game, its options, the budgets, the bots, the
//! format, the seeds and the database. Parsing refuses an unknown key or a bad value naming the
//! line; [`Spec::resolve`] then finds every bot file (folders give their `.wasm` files) and its
//! data folder (given as `{ wasm = "...", data = "..." }`, else `NAME.data/` beside `NAME.wasm`),
//! and checks the game and its options, all before any match starts.

use arena_host::bot_data::BotFiles;
use arena_host::budget::Budget;
use arena_host::registry::{GameEntry, find_game, game_names};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A SPEC as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The game, as `arena games` names it.
    pub game: String,
    /// `round-robin`, `gauntlet` or `swiss`.
    pub format: Format,
    /// Swiss only: how many rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Bot files and folders (every `.wasm` file directly inside), and bots with a data folder;
    /// relative to the SPEC's folder.
    pub bots: Vec<SpecBot>,
    /// Gauntlet only: the bots that each play every bot of `bots` (the pool).
    #[serde(default)]
    pub challengers: Vec<SpecBot>,
    /// The seeds every pairing plays: a list (`[1, 2, 3]`) or a range (`"1..10"`, inclusive).
    pub seeds: Seeds,
    /// Seats per match, for games of more than two players (default: the game's fewest).
    #[serde(default)]
    pub players: Option<usize>,
    /// The results database (default `tournament.sqlite` beside the SPEC).
    #[serde(default)]
    pub database: Option<PathBuf>,
    /// Game options, as `--option KEY=VALUE`.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Budgets (default: the arena's defaults).
    #[serde(default)]
    pub budget: SpecBudget,
}

/// One entry of `bots` or `challengers`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum SpecBot {
    /// `"a.wasm"` (with the data folder `a.data` beside it, if there is one) or `"folder/"` (its
    /// `.wasm` files, each likewise).
    Path(PathBuf),
    /// `{ wasm = "a.wasm", data = "tables/" }`: a bot file and its data folder (none when `data`
    /// is left out, whatever lies beside the file).
    Files(SpecBotFiles),
}

/// A bot given as a table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecBotFiles {
    /// The bot file.
    pub wasm: PathBuf,
    /// Its data folder.
    #[serde(default)]
    pub data: Option<PathBuf>,
}

/// The formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of `players` bots, every seed, every seat rotation.
    RoundRobin,
    /// Every challenger against every group of the pool, every seed, every seat rotation.
    Gauntlet,
    /// `rounds` rounds; each pairs the bots by their rating so far, never twice the same pair,
    /// and every pair plays every seed in both seat orders (two-player games).
    Swiss,
}

/// The seeds, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Seeds {
    /// `[1, 2, 3]`.
    List(Vec<u64>),
    /// `"1..10"`, both ends included.
    Range(String),
}

/// The `[budget]` table; anything left out is the arena's default.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecBudget {
    /// Fuel per turn.
    pub turn_fuel: Option<u64>,
    /// Fuel per game.
    pub game_fuel: Option<u64>,
    /// Memory per bot, MiB.
    pub memory_mib: Option<u32>,
}

/// Why a SPEC is refused.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file cannot be read: missing, not a regular file, over [`MAX_SPEC_FILE`] or not
    /// text.
    #[error("cannot read the SPEC: {0}")]
    Read(#[from] arena_host::regular_file::TextError),
    /// Not TOML, an unknown key or a bad value (the message names the line).
    #[error("{path}: {message}")]
    Parse {
        /// The SPEC.
        path: PathBuf,
        /// toml's message, with the line and column.
        message: String,
    },
    /// A value is impossible (an unknown game, a missing bot file, ...).
    #[error("{path}: {message}")]
    Invalid {
        /// The SPEC.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// A SPEC checked and with every path resolved.
#[derive(Clone)]
pub struct Resolved {
    /// The game's registry entry.
    pub game: &'static dyn GameEntry,
    /// The game, as `arena games` names it.
    pub game_name: &'static str,
    /// The format.
    pub format: Format,
    /// The pool (round robin: every bot), deduplicated, in the order given.
    pub bots: Vec<BotFiles>,
    /// Gauntlet challengers.
    pub challengers: Vec<BotFiles>,
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Seats per match.
    pub players: usize,
    /// Swiss rounds (0 for the other formats).
    pub rounds: u32,
    /// The database.
    pub database: PathBuf,
    /// Game options, sorted by key.
    pub options: Vec<(String, String)>,
    /// The budgets.
    pub budget: Budget,
}

/// Largest SPEC file read (a SPEC is a few lines of TOML naming bots, seeds and budgets).
pub const MAX_SPEC_FILE: u64 = 1 << 20;

/// The most seeds one SPEC may list: a typo such as `"1..1000000000"` is refused, not planned.
pub const MAX_SEEDS: u64 = 100_000;

impl Spec {
    /// Reads and parses the SPEC at `path`.
    pub fn read(path: &Path) -> Result<Spec, SpecError> {
        let text = arena_host::regular_file::read_text(path, MAX_SPEC_FILE)?;
        Spec::parse(path, &text)
    }

    /// Parses SPEC text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Spec, SpecError> {
        toml::from_str(text)
            .map_err(|err| SpecError::Parse { path: path.into(), message: err.to_string().trim_end().to_owned() })
    }

    /// Checks the SPEC and resolves its paths against `base` (the SPEC's folder).
    pub fn resolve(&self, path: &Path, base: &Path) -> Result<Resolved, SpecError> {
        let invalid = |message: String| SpecError::Invalid { path: path.into(), message };
        let game = find_game(&self.game)
            .ok_or_else(|| invalid(format!("unknown game {:?} (games: {})", self.game, game_names().join(", "))))?;
        let info = game.info();
        let players = self.players.unwrap_or(info.min_players);
        if !(info.min_players..=info.max_players).contains(&players) {
            return Err(invalid(format!(
                "players = {players}: {} takes {} players",
                info.name,
                arena_host::registry::player_count(info.min_players, info.max_players)
            )));
        }
        let bots = bot_files(&self.bots, base).map_err(invalid)?;
        let challengers = bot_files(&self.challengers, base).map_err(invalid)?;
        match self.format {
            Format::RoundRobin if !challengers.is_empty() => {
                return Err(invalid("`challengers` is for format = \"gauntlet\"".into()));
            }
            Format::RoundRobin if bots.len() < players => {
                return Err(invalid(format!(
                    "a round robin of {players}-player matches needs at least {players} bots, {} given",
                    bots.len()
                )));
            }
            Format::Swiss if self.rounds.unwrap_or(0) == 0 || players != 2 || !challengers.is_empty() => {
                return Err(invalid(
                    "format = \"swiss\" needs `rounds` (at least 1), two players per match and no `challengers`".into(),
                ));
            }
            Format::Swiss if bots.len() < 2 => {
                return Err(invalid(format!("a swiss tournament needs at least 2 bots, {} given", bots.len())));
            }
            _ if self.format != Format::Swiss && self.rounds.is_some() => {
                return Err(invalid("`rounds` is for format = \"swiss\"".into()));
            }
            Format::Gauntlet if challengers.is_empty() || bots.len() + 1 < players => {
                return Err(invalid(format!(
                    "a gauntlet needs `challengers` and at least {} bots in its pool",
                    players.saturating_sub(1).max(1)
                )));
            }
            _ => {}
        }
        let seeds = self.seeds.values().map_err(invalid)?;
        let defaults = Budget::default();
        let budget = Budget {
            turn_fuel: self.budget.turn_fuel.unwrap_or(defaults.turn_fuel),
            game_fuel: self.budget.game_fuel.unwrap_or(defaults.game_fuel),
            memory_mib: self.budget.memory_mib.unwrap_or(defaults.memory_mib),
            ..defaults
        };
        budget.validate().map_err(|message| invalid(format!("[budget]: {message}")))?;
        let options: Vec<(String, String)> = self.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        game.check_options(&options).map_err(|err| invalid(format!("[options]: {err}")))?;
        let database = base.join(self.database.clone().unwrap_or_else(|| PathBuf::from("tournament.sqlite")));
        Ok(Resolved {
            game,
            game_name: info.name,
            format: self.format,
            bots,
            challengers,
            seeds,
            players,
            rounds: self.rounds.unwrap_or(0),
            database,
            options,
            budget,
        })
    }
}

impl Seeds {
    /// The seeds in order, duplicates refused.
    pub fn values(&self) -> Result<Vec<u64>, String> {
        let seeds = match self {
            Seeds::List(list) => list.clone(),
            Seeds::Range(text) => {
                let parse = |part: &str| part.trim().parse::<u64>().ok();
                let (first, last) = text
                    .split_once("..")
                    .and_then(|(first, last)| Some((parse(first)?, parse(last)?)))
                    .filter(|(first, last)| first <= last)
                    .ok_or_else(|| format!("seeds = {text:?}: expected \"FIRST..LAST\" with FIRST <= LAST"))?;
                if last - first >= MAX_SEEDS {
                    return Err(format!("seeds = {text:?}: more than {MAX_SEEDS} seeds"));
                }
                (first..=last).collect()
            }
        };
        if seeds.is_empty() {
            return Err("seeds: at least one seed".into());
        }
        let mut sorted = seeds.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err("seeds: a seed is listed twice".into());
        }
        if seeds.len() as u64 > MAX_SEEDS {
            return Err(format!("seeds: more than {MAX_SEEDS} seeds"));
        }
        Ok(seeds)
    }
}

/// The bots `entries` name: files as given, folders as the `.wasm` files directly inside them
/// (sorted by name), each with its data folder (by convention for a path, as given for a table);
/// each bot once, in order.
fn bot_files(entries: &[SpecBot], base: &Path) -> Result<Vec<BotFiles>, String> {
    let mut files = Vec::new();
    for entry in entries {
        let entry = match entry {
            SpecBot::Path(path) => path,
            SpecBot::Files(SpecBotFiles { wasm, data }) => {
                let path = base.join(wasm);
                if !path.is_file() {
                    return Err(format!("bots: {} is not a file", path.display()));
                }
                let data = data.as_ref().map(|data| base.join(data));
                if let Some(data) = data.as_ref().filter(|data| !data.is_dir()) {
                    return Err(format!("bots: the data folder {} is not a folder", data.display()));
                }
                files.push(BotFiles { wasm: path, data });
                continue;
            }
        };
        let path = base.join(entry);
        if path.is_dir() {
            let listing =
                std::fs::read_dir(&path).map_err(|err| format!("bots: cannot read {}: {err}", path.display()))?;
            let mut found: Vec<PathBuf> = listing
                .filter_map(|item| item.ok().map(|item| item.path()))
                .filter(|file| file.extension().is_some_and(|ext| ext == "wasm") && file.is_file())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("bots: {} holds no .wasm file", path.display()));
            }
            files.extend(found.into_iter().map(BotFiles::by_convention));
        } else if path.is_file() {
            files.push(BotFiles::by_convention(path));
        } else {
            return Err(format!("bots: {} does not exist", path.display()));
        }
    }
    let mut unique: Vec<BotFiles> = Vec::with_capacity(files.len());
    for file in files {
        if !unique.contains(&file) {
            unique.push(file);
        }
    }
    Ok(unique)
}

/// `path` as seen from the folder `from`, both absolute: `..` for every component of `from` past
/// their common prefix, then the rest of `path` (`.` and `..` in either resolved lexically first).
/// What `arena tournament init -o FILE` writes, so a SPEC's bot paths resolve from its folder.
pub fn relative_to(path: &Path, from: &Path) -> PathBuf {
    fn lexical(path: &Path) -> Vec<std::path::Component<'_>> {
        let mut parts = Vec::new();
        for part in path.components() {
            match part {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir if matches!(parts.last(), Some(std::path::Component::Normal(_))) => {
                    parts.pop();
                }
                other => parts.push(other),
            }
        }
        parts
    }
    let (path, from) = (lexical(path), lexical(from));
    let common = path.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut relative = PathBuf::new();
    for _ in common..from.len() {
        relative.push("..");
    }
    for part in &path[common..] {
        relative.push(part);
    }
    if relative.as_os_str().is_empty() { PathBuf::from(".") } else { relative }
}

/// A starter SPEC for `arena tournament init`: a seat-swapped round robin of `bots` on 10 seeds.
pub fn starter(game: &str, bots: &[String]) -> String {
    let listed: Vec<String> = bots.iter().map(|bot| format!("    {:?},", bot)).collect();
    format!(
        r#"# A Wasm Arena tournament (`arena tournament run THIS_FILE`).
game = "{game}"
# round-robin: every pair (every group of `players`), every seed, every seat order.
# gauntlet: every bot of `challengers` against the pool in `bots`.
# swiss: `rounds = N` rounds, each pairing bots of similar rating that have not met yet.
format = "round-robin"
# Bot files, and folders (every .wasm file directly inside); relative to this file. A bot file
# NAME.wasm brings the data folder NAME.data beside it, if there is one; name another one with
# {{ wasm = "a.wasm", data = "tables/" }}.
bots = [
{}
]
# Every pairing plays every seed, in every seat order: "FIRST..LAST" or a list [1, 2, 3].
seeds = "1..10"
# Seats per match (games of 2 to 8 players; default: the game's fewest).
# players = 2
# Results, resumable: rerunning the same command continues where it stopped.
database = "tournament.sqlite"

# Game options, as `arena match --option KEY=VALUE` (`arena games` lists them).
[options]

# Budgets (defaults shown).
[budget]
turn_fuel = 10000000
game_fuel = 100000000
memory_mib = 64
"#,
        listed.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_relative_to_a_folder_climbs_past_the_common_prefix() {
        let rel = |path: &str, from: &str| relative_to(Path::new(path), Path::new(from));
        assert_eq!(rel("/work/bots/a.wasm", "/work/specs/azul"), Path::new("../../bots/a.wasm"));
        assert_eq!(rel("/work/bots/a.wasm", "/work"), Path::new("bots/a.wasm"));
        assert_eq!(rel("/work/./x/../bots", "/work/bots"), Path::new("."));
        assert_eq!(rel("/a", "/b/c"), Path::new("../../a"));
    }

    #[test]
    fn an_unknown_key_is_refused_naming_its_line() {
        let text = "game = \"azul\"\nformat = \"round-robin\"\nbots = []\nseeds = [1]\nturn_fuel = 5\n";
        let err = Spec::parse(Path::new("t.toml"), text).unwrap_err().to_string();
        assert!(err.contains("line 5") && err.contains("turn_fuel"), "{err}");
    }

    #[test]
    fn a_bot_is_a_path_or_a_table_naming_its_data_folder() {
        let dir = std::env::temp_dir().join(format!("arena-spec-data-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bots/a.data")).unwrap();
        std::fs::create_dir_all(dir.join("tables")).unwrap();
        for name in ["a", "b"] {
            std::fs::write(dir.join(format!("bots/{name}.wasm")), b"bot").unwrap();
        }
        let text = "game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = [\"bots/\", \
                    { wasm = \"bots/b.wasm\", data = \"tables\" }, { wasm = \"bots/a.wasm\" }]\n";
        let spec = Spec::parse(Path::new("t.toml"), text).unwrap();
        let resolved = spec.resolve(Path::new("t.toml"), &dir).unwrap();
        let listed: Vec<(PathBuf, Option<PathBuf>)> =
            resolved.bots.iter().map(|bot| (bot.wasm.clone(), bot.data.clone())).collect();
        let (a, b) = (dir.join("bots/a.wasm"), dir.join("bots/b.wasm"));
        assert_eq!(
            listed,
            [(a.clone(), Some(dir.join("bots/a.data"))), (b.clone(), None), (b, Some(dir.join("tables"))), (a, None),],
            "the convention for paths, the table as written"
        );
        let missing = "game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\n\
                       bots = [{ wasm = \"bots/a.wasm\", data = \"none\" }, \"bots/b.wasm\"]\n";
        let err = Spec::parse(Path::new("t.toml"), missing).unwrap().resolve(Path::new("t.toml"), &dir).err();
        assert!(err.is_some_and(|err| err.to_string().contains("is not a folder")));
        let unknown = "game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = [{ file = \"a.wasm\" }]\n";
        assert!(Spec::parse(Path::new("t.toml"), unknown).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn seeds_are_a_list_or_an_inclusive_range() {
        assert_eq!(Seeds::Range("3..5".into()).values().unwrap(), [3, 4, 5]);
        assert_eq!(Seeds::List(vec![9, 2]).values().unwrap(), [9, 2]);
        assert!(Seeds::Range("5..3".into()).values().is_err());
        assert!(Seeds::List(vec![1, 1]).values().is_err());
        assert!(Seeds::Range("0..100000000".into()).values().is_err());
    }

    #[test]
    fn the_starter_spec_parses() {
        let spec = Spec::parse(Path::new("s.toml"), &starter("azul", &["a.wasm".into(), "b/".into()])).unwrap();
        assert_eq!((spec.game.as_str(), spec.format, spec.bots.len()), ("azul", Format::RoundRobin, 2));
    }
}
