//! The tournament SPEC: a TOML file naming the game, its options, the budgets, the bots, the
//! format, the seeds and the database. Parsing refuses an unknown key or a bad value naming the
//! line; [`Spec::resolve`] then finds every bot file (folders give their `.wasm` files) and its
//! data folder (given as `{ wasm = "...", data = "..." }`, else `NAME.data/` beside `NAME.wasm`)
//! and its name (`name = "..."` in the table, else the file's stem), and checks the game, its
//! options and the data limits (`data_max_mib`, `data_max_entries`), all before any match starts.

use arena_host::bot_data::BotFiles;
use arena_host::budget::Budget;
use arena_host::data::DataLimits;
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
    /// Most MiB of files in a bot's data folder, as `arena match --data-max-mib` (default 64).
    #[serde(default)]
    pub data_max_mib: Option<u64>,
    /// Most entries (files and folders) in a bot's data folder, as `arena match
    /// --data-max-entries` (default 10,000).
    #[serde(default)]
    pub data_max_entries: Option<usize>,
}

/// One entry of `bots` or `challengers`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum SpecBot {
    /// `"a.wasm"` (with the data folder `a.data` beside it, if there is one) or `"folder/"` (its
    /// `.wasm` files, each likewise).
    Path(PathBuf),
    /// `{ wasm = "a.wasm", data = "tables/", name = "a-tables" }`: a bot file, its data folder
    /// (none when `data` is left out, whatever lies beside the file) and its name (default: the
    /// file's stem).
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
    /// Its name in the results ([`check_bot_name`]; default: the file's stem), so that one file
    /// with two data folders can be two bots.
    #[serde(default)]
    pub name: Option<String>,
}

/// A bot of a resolved SPEC: its files and the name the results give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBot {
    /// Its name: the SPEC's `name`, else the file's stem.
    pub name: String,
    /// Its bot file and data folder.
    pub files: BotFiles,
}

impl ResolvedBot {
    /// The bot `files` named by its file's stem (`bots/greedy.wasm` is `greedy`).
    pub fn named_by_file(files: BotFiles) -> ResolvedBot {
        let name = files.wasm.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
        ResolvedBot { name, files }
    }
}

impl From<BotFiles> for ResolvedBot {
    fn from(files: BotFiles) -> ResolvedBot {
        ResolvedBot::named_by_file(files)
    }
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
    pub bots: Vec<ResolvedBot>,
    /// Gauntlet challengers.
    pub challengers: Vec<ResolvedBot>,
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
    /// How big a bot's data folder may be (`data_max_mib`, `data_max_entries`): what the plan
    /// reads each folder within, and the arena loads it within.
    pub data_limits: DataLimits,
}

/// Largest SPEC file read (a SPEC is a few lines of TOML naming bots, seeds and budgets).
pub const MAX_SPEC_FILE: u64 = 1 << 20;

/// The most seeds one SPEC may list: a typo such as `"1..1000000000"` is refused, not planned.
pub const MAX_SEEDS: u64 = 100_000;

/// The default `data_max_mib`: the arena's ([`DataLimits::DEFAULT`], as `--data-max-mib`).
pub const DEFAULT_DATA_MIB: u64 = DataLimits::DEFAULT.max_bytes >> 20;
/// The largest `data_max_mib`: a thousand times the default (a folder is read whole into
/// memory; a typo such as an extra zero or two still fits, a stray string of digits does not).
pub const MAX_DATA_MIB: u64 = 1000 * DEFAULT_DATA_MIB;
/// The largest `data_max_entries`: a thousand times the default.
pub const MAX_DATA_ENTRIES: usize = 1000 * DataLimits::DEFAULT.max_entries;

/// Longest bot name a SPEC's `name` may give.
pub const MAX_BOT_NAME: usize = 40;

/// Whether `name` is a name as the platform writes them (a tournament's bots, a ladder's accounts
/// and bots: `arena_serve::auth::check_name` uses it): 1 to [`MAX_BOT_NAME`] letters, digits, `-`
/// and `_` (ASCII). A name is written into results, reports, pages and file names.
pub fn is_valid_name(name: &str) -> bool {
    (1..=MAX_BOT_NAME).contains(&name.len())
        && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// Checks a bot's `name` ([`is_valid_name`]); the message quotes the SPEC's key.
pub fn check_bot_name(name: &str) -> Result<(), String> {
    if is_valid_name(name) {
        Ok(())
    } else {
        Err(format!(
            "name = {:?}: a bot's name has 1 to {MAX_BOT_NAME} characters among letters, digits, '-' and '_'",
            name.chars().take(60).collect::<String>()
        ))
    }
}

/// The data limits of `data_max_mib` MiB in `data_max_entries` entries (each left out: the
/// arena's default, as `arena match --data-max-mib` and `--data-max-entries`), each checked to
/// be at least 1 and at most [`MAX_DATA_MIB`] or [`MAX_DATA_ENTRIES`]; the message names the key.
pub fn data_limits(data_max_mib: Option<u64>, data_max_entries: Option<usize>) -> Result<DataLimits, String> {
    let mib = data_max_mib.unwrap_or(DEFAULT_DATA_MIB);
    if !(1..=MAX_DATA_MIB).contains(&mib) {
        return Err(format!("data_max_mib = {mib}: a data folder's limit is 1 to {MAX_DATA_MIB} MiB"));
    }
    let entries = data_max_entries.unwrap_or(DataLimits::DEFAULT.max_entries);
    if !(1..=MAX_DATA_ENTRIES).contains(&entries) {
        return Err(format!("data_max_entries = {entries}: a data folder's limit is 1 to {MAX_DATA_ENTRIES} entries"));
    }
    Ok(DataLimits { max_bytes: mib << 20, max_entries: entries })
}

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
        let data_limits = data_limits(self.data_max_mib, self.data_max_entries).map_err(invalid)?;
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
            data_limits,
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
/// (sorted by name), each with its data folder (by convention for a path, as given for a table)
/// and its name (the table's `name`, else the file's stem); each bot once, in order.
fn bot_files(entries: &[SpecBot], base: &Path) -> Result<Vec<ResolvedBot>, String> {
    let mut files = Vec::new();
    for entry in entries {
        let entry = match entry {
            SpecBot::Path(path) => path,
            SpecBot::Files(SpecBotFiles { wasm, data, name }) => {
                if let Some(name) = name {
                    check_bot_name(name).map_err(|why| format!("bots: {why}"))?;
                }
                let path = base.join(wasm);
                if !path.is_file() {
                    return Err(format!("bots: {} is not a file", path.display()));
                }
                let data = data.as_ref().map(|data| base.join(data));
                if let Some(data) = data.as_ref().filter(|data| !data.is_dir()) {
                    return Err(format!("bots: the data folder {} is not a folder", data.display()));
                }
                let files_of = BotFiles { wasm: path, data };
                files.push(match name {
                    Some(name) => ResolvedBot { name: name.clone(), files: files_of },
                    None => ResolvedBot::named_by_file(files_of),
                });
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
            files.extend(found.into_iter().map(|file| ResolvedBot::named_by_file(BotFiles::by_convention(file))));
        } else if path.is_file() {
            files.push(ResolvedBot::named_by_file(BotFiles::by_convention(path)));
        } else {
            return Err(format!("bots: {} does not exist", path.display()));
        }
    }
    let mut unique: Vec<ResolvedBot> = Vec::with_capacity(files.len());
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
# NAME.wasm brings the data folder NAME.data beside it, if there is one, and is named NAME; give
# another folder, or another name, with {{ wasm = "a.wasm", data = "tables/", name = "a-tables" }}
# (one file with two data folders is two bots: give each its name).
bots = [
{}
]
# Every pairing plays every seed, in every seat order: "FIRST..LAST" or a list [1, 2, 3].
seeds = "1..10"
# Seats per match (games of 2 to 8 players; default: the game's fewest).
# players = 2
# Results, resumable: rerunning the same command continues where it stopped.
database = "tournament.sqlite"
# How big each bot's data folder may be (defaults shown, as `arena match --data-max-mib` and
# `--data-max-entries`): MiB of files, and files and folders; a bigger one is refused.
data_max_mib = 64
data_max_entries = 10000

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
            resolved.bots.iter().map(|bot| (bot.files.wasm.clone(), bot.files.data.clone())).collect();
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

    /// A scratch folder holding `bots/a.wasm`, `bots/b.wasm` and the folder `tables/`.
    fn two_bots(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-spec-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bots")).unwrap();
        std::fs::create_dir_all(dir.join("tables")).unwrap();
        for bot in ["a", "b"] {
            std::fs::write(dir.join(format!("bots/{bot}.wasm")), bot).unwrap();
        }
        dir
    }

    /// A round robin of `bots` (TOML) with the top-level keys `extra`, resolved in `dir`.
    fn resolve_in(dir: &Path, bots: &str, extra: &str) -> Result<Resolved, SpecError> {
        let text = format!("game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = {bots}\n{extra}\n");
        Spec::parse(Path::new("t.toml"), &text)?.resolve(Path::new("t.toml"), dir)
    }

    /// Obeyed: `data_max_mib` and `data_max_entries` give every bot's data limits, the arena's
    /// (and `arena match`'s) defaults when left out. Violated: 0, over a thousand times the
    /// default, or not a whole number is refused, the message naming the key.
    #[test]
    fn data_limits_default_to_the_arenas_and_a_bad_value_is_refused_naming_its_key() {
        let dir = two_bots("data-limits");
        let limits = |extra: &str| resolve_in(&dir, "[\"bots/\"]", extra).map(|spec| spec.data_limits);
        assert_eq!(limits("").unwrap(), DataLimits::DEFAULT);
        assert_eq!(
            limits("data_max_mib = 1\ndata_max_entries = 5").unwrap(),
            DataLimits { max_bytes: 1 << 20, max_entries: 5 }
        );
        assert_eq!(
            limits(&format!("data_max_mib = {MAX_DATA_MIB}\ndata_max_entries = {MAX_DATA_ENTRIES}")).unwrap(),
            DataLimits { max_bytes: 64_000 << 20, max_entries: 10_000_000 }
        );
        assert_eq!(limits("data_max_entries = 7").unwrap(), DataLimits { max_entries: 7, ..DataLimits::DEFAULT });
        for (extra, says) in [
            ("data_max_mib = 0", "data_max_mib = 0: a data folder's limit is 1 to 64000 MiB"),
            ("data_max_mib = 64001", "data_max_mib = 64001: a data folder's limit is 1 to 64000 MiB"),
            ("data_max_entries = 0", "data_max_entries = 0: a data folder's limit is 1 to 10000000 entries"),
            ("data_max_entries = 10000001", "data_max_entries = 10000001: a data folder's limit is 1 to 10000000"),
        ] {
            let err = limits(extra).unwrap_err();
            assert!(matches!(err, SpecError::Invalid { .. }) && err.to_string().contains(says), "{extra}: {err}");
        }
        for extra in ["data_max_mib = \"64\"", "data_max_mib = -1", "data_max_mib = 1.5", "data_max_entries = \"many\""]
        {
            let err = limits(extra).unwrap_err();
            let key = extra.split(' ').next().unwrap();
            assert!(matches!(err, SpecError::Parse { .. }), "{extra}: {err}");
            assert!(err.to_string().contains("line 5") && err.to_string().contains(key), "{extra}: {err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Obeyed: a table's `name` names its bot (so one file with two data folders can be two
    /// bots), a path is named by its file's stem. Violated: a name that is empty, too long or
    /// has a character other than a letter, a digit, `-` or `_` is refused, saying the rule.
    #[test]
    fn a_table_names_its_bot_and_a_bad_name_is_refused_with_the_rule() {
        let dir = two_bots("names");
        let bots = "[\"bots/a.wasm\", { wasm = \"bots/b.wasm\" }, { wasm = \"bots/b.wasm\", data = \"tables\", \
                    name = \"b-tables_2\" }]";
        let resolved = resolve_in(&dir, bots, "").unwrap();
        let named: Vec<(&str, Option<PathBuf>)> =
            resolved.bots.iter().map(|bot| (bot.name.as_str(), bot.files.data.clone())).collect();
        assert_eq!(named, [("a", None), ("b", None), ("b-tables_2", Some(dir.join("tables")))]);
        let long = "x".repeat(MAX_BOT_NAME + 1);
        for bad in ["", "b tables", "../b", "b.tables", "é", long.as_str()] {
            let err = resolve_in(&dir, &format!("[\"bots/a.wasm\", {{ wasm = \"bots/b.wasm\", name = {bad:?} }}]"), "")
                .err()
                .map(|err| err.to_string())
                .unwrap_or_default();
            assert!(
                err.contains("name = ") && err.contains("1 to 40 characters among letters, digits, '-' and '_'"),
                "{bad:?}: {err}"
            );
        }
        assert!(check_bot_name(&"x".repeat(MAX_BOT_NAME)).is_ok());
        assert!(resolve_in(&dir, "[{ wasm = \"bots/b.wasm\", name = 5 }, \"bots/a.wasm\"]", "").is_err());
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
        let shown = data_limits(spec.data_max_mib, spec.data_max_entries).unwrap();
        assert_eq!(shown, DataLimits::DEFAULT, "the starter shows the defaults");
    }
}
