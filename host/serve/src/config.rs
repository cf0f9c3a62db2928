//! The service's settings: a TOML file (`--config FILE`), then the command line's flags over it,
//! then the defaults ([`Settings::resolve`]). Every key is documented in docs/ladder.md#configuration;
//! an unknown key is refused, naming it, so a typo does not silently fall back to a default.

use arena_host::Budget;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

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
    /// Threads playing matches.
    pub workers: usize,
    /// Enter the example bots.
    pub demo: bool,
    /// Largest upload in bytes.
    pub max_upload: u64,
    /// Per-account limits.
    pub quotas: Quotas,
    /// Each game's budget (every registered game has one).
    pub budgets: BTreeMap<String, Budget>,
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
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let workers = flags.workers.or(file.workers).unwrap_or(cores);
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
            demo: flags.demo || file.demo.unwrap_or(false),
            max_upload: max_upload_mib << 20,
            quotas: file.quotas,
            budgets,
        })
    }

    /// The budget of `game` (the default for a game the settings do not know).
    pub fn budget(&self, game: &str) -> Budget {
        self.budgets.get(game).copied().unwrap_or_default()
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
}
