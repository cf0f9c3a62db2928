//! The service's settings: a TOML file (`--config FILE`), then the command line's flags over it,
//! then the defaults ([`Settings::resolve`]). Every key is documented in docs/ladder.md#configuration;
//! an unknown key is refused, naming it, so a typo does not silently fall back to a default.

use arena_host::Budget;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default address: loopback only, so a first run exposes nothing.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// The default data folder, relative to where the server starts.
pub const DEFAULT_DATA: &str = "arena-data";

/// Why the settings were refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not valid TOML for these settings.
    #[error("{path}: {error}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why (names the key).
        error: String,
    },
    /// A value out of range or a game that does not exist.
    #[error("{0}")]
    Invalid(String),
}

/// Per-account limits (429 past them, with the limit in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Quotas {
    /// Uploads per account per hour.
    pub uploads_per_hour: u32,
    /// Scrimmages requested per account per hour.
    pub scrimmages_per_hour: u32,
    /// Bots an account may own.
    pub bots_per_account: u32,
}

impl Default for Quotas {
    fn default() -> Self {
        Quotas { uploads_per_hour: 30, scrimmages_per_hour: 30, bots_per_account: 20 }
    }
}

/// One game's budget, as the file gives it (a missing key keeps the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetFile {
    /// Fuel per turn.
    pub turn_fuel: Option<u64>,
    /// Fuel per game.
    pub game_fuel: Option<u64>,
    /// Linear memory per bot, MiB.
    pub memory_mib: Option<u32>,
}

/// The `[nats]` table: matches played by `arena worker`s on a NATS JetStream server.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NatsFile {
    /// The server, `nats://HOST:PORT`.
    pub url: Option<String>,
    /// The ladder's name on that server (its subjects' last token; ladders sharing a server need
    /// names of their own).
    pub ladder: Option<String>,
    /// Seconds a worker may hold a batch without acking it before another worker gets it.
    pub ack_wait_seconds: Option<u64>,
    /// Matches per message.
    pub batch: Option<usize>,
    /// Matches out on the queue at most (the rest wait in the database, where new versions and
    /// scrimmages can still go first).
    pub in_flight: Option<usize>,
    /// Seconds after which a match sent out with no result is sent again.
    pub result_timeout_seconds: Option<u64>,
    /// The share of each worker's results re-run by another worker (0 to 1).
    pub audit_share: Option<f64>,
    /// A worker's first this-many results are all re-run.
    pub audit_first: Option<u64>,
}

/// How the ladder uses NATS, when it does.
#[derive(Debug, Clone, PartialEq)]
pub struct NatsSettings {
    /// The server.
    pub url: String,
    /// The ladder's name on it.
    pub ladder: String,
    /// How long a worker may hold a batch.
    pub ack_wait: Duration,
    /// Matches per message.
    pub batch: usize,
    /// Matches out at most.
    pub in_flight: usize,
    /// When a match with no result is sent again.
    pub result_timeout: Duration,
    /// The share of each worker's results audited.
    pub audit_share: f64,
    /// A worker's first results, all audited.
    pub audit_first: u64,
}

impl NatsSettings {
    /// The file's table with `url` (the flag's, else the file's) over it; `None` without a URL.
    fn resolve(file: &NatsFile, url: Option<&str>) -> Result<Option<NatsSettings>, ConfigError> {
        let Some(url) = url.or(file.url.as_deref()) else { return Ok(None) };
        let ladder = file.ladder.clone().unwrap_or_else(|| "ladder".to_owned());
        let token = !ladder.is_empty()
            && ladder.len() <= 64
            && ladder.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
        if !token {
            return Err(ConfigError::Invalid(format!(
                "[nats] ladder = {ladder:?}: 1 to 64 letters, digits, '-' or '_' (it is a NATS subject token)"
            )));
        }
        let ack_wait = Duration::from_secs(file.ack_wait_seconds.unwrap_or(30).max(1));
        let audit_share = file.audit_share.unwrap_or(0.02);
        if !(0.0..=1.0).contains(&audit_share) {
            return Err(ConfigError::Invalid(format!("[nats] audit_share = {audit_share}: between 0 and 1")));
        }
        Ok(Some(NatsSettings {
            url: url.to_owned(),
            ladder,
            ack_wait,
            batch: file.batch.unwrap_or(4).clamp(1, 100),
            in_flight: file.in_flight.unwrap_or(64).max(1),
            result_timeout: Duration::from_secs(file.result_timeout_seconds.unwrap_or(600)).max(ack_wait * 2),
            audit_share,
            audit_first: file.audit_first.unwrap_or(20),
        }))
    }
}

/// The settings file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Address to listen on.
    pub bind: Option<SocketAddr>,
    /// The data folder (blobs, the SQLite database by default, the compiled-artifact cache).
    pub data: Option<PathBuf>,
    /// `sqlite:PATH` (the default: `sqlite:DATA/arena.sqlite`) or
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    pub database: Option<String>,
    /// Threads playing matches (default: every core).
    pub workers: Option<usize>,
    /// Enter every game's example bots (as the account `demo`).
    pub demo: Option<bool>,
    /// Largest upload, MiB.
    pub max_upload_mib: Option<u64>,
    /// Per-account limits.
    #[serde(default)]
    pub quotas: Quotas,
    /// Budgets per game, by game name.
    #[serde(default)]
    pub budgets: BTreeMap<String, BudgetFile>,
    /// Matches played by NATS workers.
    #[serde(default)]
    pub nats: NatsFile,
    /// Bots at a ranked table, by game (default: the most the game takes).
    #[serde(default)]
    pub seats: BTreeMap<String, usize>,
    /// Seconds a node's claim of a match holds unless renewed (several nodes on PostgreSQL).
    pub lease_seconds: Option<u64>,
}

impl ConfigFile {
    /// Reads a settings file.
    pub fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read { path: path.to_owned(), error })?;
        toml::from_str(&text).map_err(|error| ConfigError::Parse { path: path.to_owned(), error: error.to_string() })
    }
}

/// The database to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL server, by its connection URL (which may hold a password: not for logs).
    Postgres(String),
}

impl Database {
    /// Parses `sqlite:PATH` or a `postgres://` (or `postgresql://`) URL.
    pub fn parse(url: &str) -> Result<Database, ConfigError> {
        if let Some(path) = url.strip_prefix("sqlite:") {
            if path.is_empty() {
                return Err(ConfigError::Invalid("--database sqlite:PATH needs a path".into()));
            }
            return Ok(Database::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // Checked now, so a malformed URL is a settings error, not a failure to connect later.
            // The URL is not repeated: it may hold a password.
            if let Err(err) = url.parse::<postgres::Config>() {
                return Err(ConfigError::Invalid(format!("--database: the PostgreSQL URL is malformed: {err}")));
            }
            return Ok(Database::Postgres(url.to_owned()));
        }
        Err(ConfigError::Invalid(format!("--database {url:?}: expected sqlite:PATH or postgres://USER@HOST/DATABASE")))
    }
}

/// What the command line gives (each overrides the file).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--bind`.
    pub bind: Option<SocketAddr>,
    /// `--data`.
    pub data: Option<PathBuf>,
    /// `--database`.
    pub database: Option<String>,
    /// `--workers`.
    pub workers: Option<usize>,
    /// `--demo`.
    pub demo: bool,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--nats`.
    pub nats: Option<String>,
}

/// The settings the service runs with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on.
    pub bind: SocketAddr,
    /// The data folder.
    pub data: PathBuf,
    /// The database.
    pub database: Database,
    /// Threads playing matches here.
    pub workers: usize,
    /// Matches sent to NATS workers too (`None`: played here only).
    pub nats: Option<NatsSettings>,
    /// Enter the example bots.
    pub demo: bool,
    /// Largest upload in bytes.
    pub max_upload: u64,
    /// Per-account limits.
    pub quotas: Quotas,
    /// Each game's budget (every registered game has one).
    pub budgets: BTreeMap<String, Budget>,
    /// Bots at a ranked table, per game (every registered game has a number).
    pub seats: BTreeMap<String, usize>,
    /// How long a node's claim of a match holds without being renewed: a node renews its claims
    /// every third of it while it lives, so on a shared database a killed node's matches go back
    /// to the queue within this long (a node alone on its database takes its claims back at
    /// start).
    pub lease: Duration,
}

impl Settings {
    /// The file (if any), the flags over it, the defaults under both.
    pub fn resolve(flags: &Flags) -> Result<Settings, ConfigError> {
        let file = match &flags.config {
            Some(path) => ConfigFile::read(path)?,
            None => ConfigFile::default(),
        };
        let bind = match flags.bind.or(file.bind) {
            Some(bind) => bind,
            None => DEFAULT_BIND.parse().map_err(|_| ConfigError::Invalid("default bind address".into()))?,
        };
        let data = flags.data.clone().or(file.data).unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
        let database = match flags.database.as_deref().or(file.database.as_deref()) {
            Some(url) => Database::parse(url)?,
            None => Database::Sqlite(data.join("arena.sqlite")),
        };
        let nats = NatsSettings::resolve(&file.nats, flags.nats.as_deref())?;
        // With NATS workers, the matches go to them unless this node is told to play too.
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let workers = flags.workers.or(file.workers).unwrap_or(if nats.is_some() { 0 } else { cores });
        if workers == 0 && nats.is_none() {
            return Err(ConfigError::Invalid(
                "workers = 0 would play no match: give at least 1, or NATS workers (--nats URL)".into(),
            ));
        }
        let max_upload_mib = file.max_upload_mib.unwrap_or(arena_host::loader::MAX_BOT_FILE >> 20);
        if max_upload_mib == 0 || max_upload_mib > arena_host::loader::MAX_BOT_FILE >> 20 {
            return Err(ConfigError::Invalid(format!(
                "max_upload_mib = {max_upload_mib}: between 1 and {} (the largest bot file the arena loads)",
                arena_host::loader::MAX_BOT_FILE >> 20
            )));
        }
        let names = arena_host::registry::game_names();
        if let Some(unknown) = file.budgets.keys().find(|game| !names.contains(&game.as_str())) {
            return Err(ConfigError::Invalid(format!(
                "[budgets.{unknown}]: no such game (games: {})",
                names.join(", ")
            )));
        }
        let mut seats = BTreeMap::new();
        for game in arena_host::registry::games() {
            let info = game.info();
            let wanted = file.seats.get(info.name).copied().unwrap_or(info.max_players);
            if !(info.min_players..=info.max_players).contains(&wanted) {
                return Err(ConfigError::Invalid(format!(
                    "[seats] {} = {wanted}: {} takes {} to {} bots",
                    info.name, info.name, info.min_players, info.max_players
                )));
            }
            seats.insert(info.name.to_owned(), wanted);
        }
        if let Some(unknown) = file.seats.keys().find(|game| !names.contains(&game.as_str())) {
            return Err(ConfigError::Invalid(format!("[seats] {unknown}: no such game (games: {})", names.join(", "))));
        }
        let budgets = names
            .iter()
            .map(|game| {
                let given = file.budgets.get(*game).copied().unwrap_or_default();
                let default = Budget::default();
                let budget = Budget {
                    turn_fuel: given.turn_fuel.unwrap_or(default.turn_fuel),
                    game_fuel: given.game_fuel.unwrap_or(default.game_fuel),
                    memory_mib: given.memory_mib.unwrap_or(default.memory_mib),
                    ..default
                };
                ((*game).to_owned(), budget)
            })
            .collect();
        Ok(Settings {
            bind,
            data,
            database,
            workers,
            nats,
            demo: flags.demo || file.demo.unwrap_or(false),
            max_upload: max_upload_mib << 20,
            quotas: file.quotas,
            budgets,
            seats,
            lease: Duration::from_secs(file.lease_seconds.unwrap_or(30).clamp(3, 3600)),
        })
    }

    /// The budget of `game` (the default for a game the settings do not know).
    pub fn budget(&self, game: &str) -> Budget {
        self.budgets.get(game).copied().unwrap_or_default()
    }

    /// Bots at a ranked table of `game` (fewer while the ladder has fewer bots; two for a game the
    /// settings do not know).
    pub fn seats(&self, game: &str) -> usize {
        self.seats.get(game).copied().unwrap_or(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_file_and_defaults_fill_the_rest() {
        let dir = std::env::temp_dir().join(format!("arena-serve-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("serve.toml");
        std::fs::write(
            &file,
            "bind = \"127.0.0.1:9000\"\nworkers = 3\n[budgets.paint]\ngame_fuel = 300000000\n[quotas]\nuploads_per_hour = 2\n",
        )
        .unwrap();
        let flags = Flags { workers: Some(1), config: Some(file.clone()), ..Flags::default() };
        let settings = Settings::resolve(&flags).unwrap();
        assert_eq!(settings.bind.to_string(), "127.0.0.1:9000");
        assert_eq!(settings.workers, 1);
        assert_eq!(settings.database, Database::Sqlite(PathBuf::from("arena-data/arena.sqlite")));
        assert_eq!(settings.budget("paint").game_fuel, 300_000_000);
        assert_eq!(settings.budget("azul"), Budget::default());
        assert_eq!(settings.quotas.uploads_per_hour, 2);
        assert_eq!(settings.quotas.scrimmages_per_hour, Quotas::default().scrimmages_per_hour);

        assert_eq!((settings.seats("azul"), settings.seats("eubots")), (2, 8), "the most each game takes");
        std::fs::write(&file, "[seats]\neubots = 4\n").unwrap();
        assert_eq!(Settings::resolve(&flags).unwrap().seats("eubots"), 4);
        std::fs::write(&file, "[seats]\nazul = 3\n").unwrap();
        let err = Settings::resolve(&flags).unwrap_err().to_string();
        assert!(err.contains("azul takes 2 to 2 bots"), "{err}");
        std::fs::write(&file, "[budgets.chess]\ngame_fuel = 1\n").unwrap();
        let err = Settings::resolve(&flags).unwrap_err().to_string();
        assert!(err.contains("[budgets.chess]: no such game"), "{err}");
        std::fs::write(&file, "bnid = \"x\"\n").unwrap();
        let err = Settings::resolve(&flags).unwrap_err().to_string();
        assert!(err.contains("bnid"), "{err}");
        assert!(Database::parse("mysql://x").is_err());
        for url in ["postgres://arena@127.0.0.1:5432/ladder", "postgresql://arena:secret@db/ladder"] {
            assert_eq!(Database::parse(url).unwrap(), Database::Postgres(url.into()));
        }
        assert!(Database::parse("postgres://arena@db:port/ladder").is_err(), "a port must be a number");
    }

    #[test]
    fn the_example_in_the_docs_is_a_valid_configuration() {
        let docs = include_str!("../../../docs/ladder.md");
        let example = docs
            .split("### Configuration")
            .nth(1)
            .and_then(|rest| rest.split("```toml\n").nth(1))
            .and_then(|rest| rest.split("```").next())
            .expect("docs/ladder.md has a TOML example under Configuration");
        let dir = std::env::temp_dir().join(format!("arena-serve-docs-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("serve.toml");
        std::fs::write(&file, example).unwrap();
        let settings = Settings::resolve(&Flags { config: Some(file), ..Flags::default() }).unwrap();
        assert_eq!((settings.workers, settings.seats("eubots"), settings.lease), (8, 4, Duration::from_secs(30)));
        assert_eq!(settings.nats.as_ref().map(|nats| nats.in_flight), Some(64));
        assert_eq!(settings.budget("paint").game_fuel, 300_000_000);
    }

    #[test]
    fn nats_workers_replace_the_local_ones_unless_told_otherwise() {
        let dir = std::env::temp_dir().join(format!("arena-serve-nats-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("serve.toml");
        std::fs::write(&file, "[nats]\nladder = \"season-1\"\nbatch = 2\nack_wait_seconds = 5\n").unwrap();
        let flags = Flags { config: Some(file.clone()), ..Flags::default() };
        assert_eq!(Settings::resolve(&flags).unwrap().nats, None, "no URL: no NATS");
        let flags = Flags { nats: Some("nats://127.0.0.1:4222".into()), ..flags };
        let settings = Settings::resolve(&flags).unwrap();
        let nats = settings.nats.unwrap();
        assert_eq!((nats.ladder.as_str(), nats.batch, nats.ack_wait), ("season-1", 2, Duration::from_secs(5)));
        assert_eq!(nats.result_timeout, Duration::from_secs(600));
        assert_eq!(settings.workers, 0, "the NATS workers play");
        let both = Flags { workers: Some(2), ..flags.clone() };
        assert_eq!(Settings::resolve(&both).unwrap().workers, 2);
        let none = Flags { workers: Some(0), nats: None, ..flags.clone() };
        assert!(Settings::resolve(&none).unwrap_err().to_string().contains("would play no match"));
        std::fs::write(&file, "[nats]\nladder = \"a.b\"\n").unwrap();
        let err = Settings::resolve(&flags).unwrap_err().to_string();
        assert!(err.contains("NATS subject token"), "{err}");
        std::fs::write(&file, "[nats]\nurll = \"x\"\n").unwrap();
        assert!(Settings::resolve(&flags).unwrap_err().to_string().contains("urll"));
    }
}
