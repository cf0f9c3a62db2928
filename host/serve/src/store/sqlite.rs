//! The [`Store`] on an embedded SQLite database (one file, write-ahead log). One connection
//! writes, behind a mutex: every method that writes is one transaction on it, so claims are
//! atomic. The methods that only read run on a small pool of read-only connections to the same
//! file instead ([`READERS`] at most), each in a transaction of its own (one snapshot of the
//! database): the write-ahead log lets them read beside the writer, so a page never waits for a
//! worker recording a match or for a long read (a leaderboard's every result), and a read sees
//! every write committed before it began. In memory (the tests' stores), or on a file the
//! write-ahead log could not be set on, the one connection does both. The schema version is
//! SQLite's `user_version`, set in the transaction of the migration that brings it.

use super::migrations::{MIGRATIONS, latest};
use super::{
    Audit, AuditState, Bot, BotPage, COMPETITION_COLUMNS, Competition, CompetitionRow, Finished, Match, MatchKind,
    MatchState, NewCompetition, NewMatch, QueueCounts, RatingPoint, Release, Seat, SeatOutcome, Step, Store,
    StoreError, User, Version, VersionStatus, Worker, tables_of,
};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Read-only connections a file's store opens at most: reads beyond them wait for one (the web
/// side's blocking threads are many; the cores reading are few).
pub const READERS: usize = 4;

/// Each reader's page cache, in KiB.
const READER_CACHE_KIB: i64 = 256;

/// The store in one SQLite file.
pub struct SqliteStore {
    /// Read-only connections to the same file; none in memory. (Closed before the writer: the
    /// last connection to close folds the write-ahead log back into the file.)
    readers: Option<Readers>,
    /// The connection that writes (and reads, when there are no readers).
    writer: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating it if needed) the database at `path` and migrates it to the latest schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_at_version(path, latest())
    }

    /// A database in memory (for tests), migrated; its one connection also reads.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let mut connection = Connection::open_in_memory()?;
        configure(&connection)?;
        migrate(&mut connection, latest())?;
        Ok(SqliteStore { readers: None, writer: Mutex::new(connection) })
    }

    /// Opens `path` and applies migrations up to `version` only (for the migration tests).
    pub fn open_at_version(path: &Path, version: i64) -> Result<SqliteStore, StoreError> {
        let mut connection = Connection::open(path)?;
        let wal = configure(&connection)?;
        migrate(&mut connection, version)?;
        let readers = wal.then(|| Readers {
            path: path.to_owned(),
            pool: Mutex::new(Pool { idle: Vec::new(), open: 0 }),
            returned: Condvar::new(),
        });
        Ok(SqliteStore { readers, writer: Mutex::new(connection) })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no transaction open (rusqlite rolls back on
        // drop), so the connection is still consistent.
        self.writer.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `work` in a read transaction: on a reader when there are readers, else on the writer.
    fn read<T>(&self, work: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let in_transaction = |connection: &mut Connection| {
            // Deferred: the snapshot is taken at the first read, and no lock is taken for writing.
            let transaction = connection.transaction()?;
            let value = work(&transaction)?;
            transaction.commit()?;
            Ok(value)
        };
        match &self.readers {
            Some(readers) => readers.with(in_transaction),
            None => in_transaction(&mut self.lock()),
        }
    }
}

/// The readers of a file: idle ones kept for the next read, more opened up to [`READERS`].
struct Readers {
    path: PathBuf,
    pool: Mutex<Pool>,
    /// Signalled when a reader is given back (or its place freed).
    returned: Condvar,
}

struct Pool {
    /// Connections not in use.
    idle: Vec<Connection>,
    /// Connections open, in use or idle (or being opened).
    open: usize,
}

/// Frees a reader's place in the pool if the work it was lent for panicked (the connection is
/// dropped with the work's stack).
struct Place<'a>(&'a Readers);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.pool.lock().unwrap_or_else(PoisonError::into_inner).open -= 1;
        self.0.returned.notify_one();
    }
}

impl Readers {
    /// Runs `work` on a reader: an idle one, a new one if fewer than [`READERS`] are open, else
    /// the first one given back.
    fn with<T>(&self, work: impl FnOnce(&mut Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        let idle = loop {
            if let Some(connection) = pool.idle.pop() {
                break Some(connection);
            }
            if pool.open < READERS {
                pool.open += 1;
                break None;
            }
            pool = self.returned.wait(pool).unwrap_or_else(PoisonError::into_inner);
        };
        drop(pool);
        let place = Place(self);
        let mut connection = match idle {
            Some(connection) => connection,
            // Opened outside the pool's lock; a failure frees its place (`place` dropped).
            None => open_reader(&self.path)?,
        };
        let value = work(&mut connection);
        std::mem::forget(place);
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).idle.push(connection);
        self.returned.notify_one();
        value
    }
}

/// A read-only connection to the database at `path` (already migrated by the writer).
fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let connection =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    connection.busy_timeout(Duration::from_secs(10))?;
    connection.set_prepared_statement_cache_capacity(64);
    // A reader's page cache is bounded small (the writer keeps SQLite's default, 2 MiB): the
    // readers scan whole tables (a refit, a dump) and are opened as reads overlap, so with the
    // default each would fill 2 MiB at its own time and the server's memory would climb for
    // hours before it settles; the operating system's file cache serves their pages anyway.
    connection.pragma_update(None, "cache_size", -READER_CACHE_KIB)?;
    Ok(connection)
}

/// Sets the writer's pragmas; whether the database is in write-ahead-log mode (readers may run
/// beside the writer).
fn configure(connection: &Connection) -> Result<bool, StoreError> {
    connection.busy_timeout(Duration::from_secs(10))?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    // In memory the journal mode stays `memory`; on disk the write-ahead log lets readers run
    // beside the writer.
    let mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(mode.eq_ignore_ascii_case("wal"))
}

/// Applies the migrations after the database's version, up to `target`.
fn migrate(connection: &mut Connection, target: i64) -> Result<(), StoreError> {
    let found: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > latest() {
        return Err(StoreError::NewerSchema { found, known: latest() });
    }
    // SQLite's way of changing a table's constraints is to rebuild it, which a DROP TABLE under
    // enforced foreign keys forbids; so migrations run with them off (outside any transaction,
    // the only place the pragma takes effect), each checked before it commits.
    connection.pragma_update(None, "foreign_keys", "OFF")?;
    let migrated = (|| {
        for migration in MIGRATIONS.iter().filter(|migration| migration.version > found && migration.version <= target)
        {
            let transaction = connection.transaction()?;
            transaction.execute_batch(migration.sqlite)?;
            let broken: Option<String> =
                transaction.query_row("PRAGMA foreign_key_check", [], |row| row.get(0)).optional()?;
            if let Some(table) = broken {
                return Err(StoreError::Corrupt {
                    what: "migration",
                    detail: format!("migration {} leaves a broken reference in {table}", migration.version),
                });
            }
            transaction.pragma_update(None, "user_version", migration.version)?;
            transaction.commit()?;
            tracing::info!(version = migration.version, "database migrated: {}", migration.summary);
        }
        Ok(())
    })();
    connection.pragma_update(None, "foreign_keys", "ON")?;
    migrated
}

const USER_COLUMNS: &str = "id, name, password_hash, admin";

fn user_of(row: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User { id: row.get(0)?, name: row.get(1)?, password_hash: row.get(2)?, admin: row.get(3)? })
}

const BOT_COLUMNS: &str = "bots.id, bots.owner, users.name, bots.game, bots.name, bots.disabled, bots.private";
const BOT_FROM: &str = "bots JOIN users ON users.id = bots.owner";

fn bot_of(row: &Row<'_>) -> rusqlite::Result<Bot> {
    Ok(Bot {
        id: row.get(0)?,
        owner: row.get(1)?,
        owner_name: row.get(2)?,
        game: row.get(3)?,
        name: row.get(4)?,
        disabled: row.get(5)?,
        private: row.get(6)?,
    })
}

const VERSION_COLUMNS: &str = "id, bot_id, sha256, size, status, reason, steps, data_digest";

/// A version row, its status and steps still as text, its data digest `''` for none.
type VersionRow = (i64, i64, String, i64, String, Option<String>, String, String);

fn version_row(row: &Row<'_>) -> rusqlite::Result<VersionRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?))
}

fn version_of((id, bot_id, sha256, size, status, reason, steps, data): VersionRow) -> Result<Version, StoreError> {
    let steps: Vec<Step> = serde_json::from_str(&steps)
        .map_err(|err| StoreError::Corrupt { what: "version steps", detail: err.to_string() })?;
    let data_digest = Some(data).filter(|data| !data.is_empty());
    Ok(Version { id, bot_id, sha256, size, data_digest, status: VersionStatus::parse(&status)?, reason, steps })
}

const MATCH_COLUMNS: &str = "id, game, seed, kind, state, winner, turns, replay_sha256, error, digest";

/// A match row without its seats, kind and state still as text.
type MatchRow =
    (i64, String, i64, String, String, Option<u32>, Option<u32>, Option<String>, Option<String>, Option<String>);

fn match_row(row: &Row<'_>) -> rusqlite::Result<MatchRow> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
        row.get(9)?,
    ))
}

/// Completes match rows with their seats.
fn matches_of(connection: &Connection, rows: Vec<MatchRow>) -> Result<Vec<Match>, StoreError> {
    let mut seats =
        connection.prepare_cached("SELECT version_id, outcome FROM match_seats WHERE match_id = ?1 ORDER BY seat")?;
    let mut matches = Vec::with_capacity(rows.len());
    for (id, game, seed, kind, state, winner, turns, replay_sha256, error, digest) in rows {
        let seat_rows: Vec<(i64, Option<String>)> =
            seats.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<Result<_, _>>()?;
        let seats = seat_rows
            .into_iter()
            .map(|(version_id, outcome)| {
                let outcome = outcome
                    .map(|text| serde_json::from_str::<SeatOutcome>(&text))
                    .transpose()
                    .map_err(|err| StoreError::Corrupt { what: "seat outcome", detail: err.to_string() })?;
                Ok(Seat { version_id, outcome })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        matches.push(Match {
            id,
            game,
            // Seeds are stored as SQLite's signed 64-bit integers, bit for bit.
            seed: seed as u64,
            kind: MatchKind::parse(&kind)?,
            state: MatchState::parse(&state)?,
            seats,
            winner,
            turns,
            replay_sha256,
            digest,
            error,
        });
    }
    Ok(matches)
}

/// The matches `ids`, in that order (those that exist).
fn matches_by_ids(connection: &Connection, ids: &[i64]) -> Result<Vec<Match>, StoreError> {
    let mut statement = connection.prepare_cached(&format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1"))?;
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        rows.extend(statement.query_row([id], match_row).optional()?);
    }
    matches_of(connection, rows)
}

/// The ids of the latest `limit` matches with one of `versions` in a seat, newest first: each
/// version's latest from its index, merged.
fn latest_match_ids(connection: &Connection, versions: &[i64], limit: u32) -> Result<Vec<i64>, StoreError> {
    let mut statement = connection.prepare_cached(
        "SELECT DISTINCT match_seats.match_id FROM match_seats JOIN matches ON matches.id = match_seats.match_id \
         WHERE match_seats.version_id = ?1 AND matches.kind <> 'competition' ORDER BY match_seats.match_id DESC LIMIT ?2",
    )?;
    let mut ids = BTreeSet::new();
    for version in versions {
        for id in statement.query_map(params![version, limit], |row| row.get::<_, i64>(0))? {
            ids.insert(id?);
        }
    }
    Ok(ids.into_iter().rev().take(limit as usize).collect())
}

/// Inserts queued matches (of `competition`, if one) with their seats; their ids.
fn insert_matches(
    connection: &Connection,
    matches: &[NewMatch],
    now: i64,
    competition: Option<i64>,
) -> Result<Vec<i64>, StoreError> {
    let mut ids = Vec::with_capacity(matches.len());
    for new in matches {
        connection.execute(
            "INSERT INTO matches (game, seed, kind, state, requested_by, requested, competition_id) \
             VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6)",
            params![new.game, new.seed as i64, new.kind.as_str(), new.requested_by, now, competition],
        )?;
        let id = connection.last_insert_rowid();
        for (seat, version) in new.seats.iter().enumerate() {
            connection.execute(
                "INSERT INTO match_seats (match_id, seat, version_id) VALUES (?1, ?2, ?3)",
                params![id, seat as i64, version],
            )?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// The competitions `WHERE` selects (`?1` bound to `param`), with their entrants.
fn competitions_where(
    connection: &Connection,
    clause: &str,
    param: Option<i64>,
) -> Result<Vec<Competition>, StoreError> {
    let sql = format!("SELECT {COMPETITION_COLUMNS} FROM competitions WHERE {clause} ORDER BY id DESC");
    let mut statement = connection.prepare_cached(&sql)?;
    let rows: Vec<CompetitionRow> =
        statement.query_map([param], |row| CompetitionRow::try_from(row))?.collect::<Result<_, _>>()?;
    let mut entrants = connection
        .prepare_cached("SELECT version_id FROM competition_entrants WHERE competition_id = ?1 ORDER BY seed")?;
    let mut competitions = Vec::with_capacity(rows.len());
    for row in rows {
        let versions: Vec<i64> = entrants.query_map([row.0], |row| row.get(0))?.collect::<Result<_, _>>()?;
        competitions.push(Competition::of_row(row, versions)?);
    }
    Ok(competitions)
}

fn bot_by_id(connection: &Connection, id: i64) -> Result<Option<Bot>, StoreError> {
    let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id = ?1");
    Ok(connection.prepare_cached(&sql)?.query_row([id], bot_of).optional()?)
}

fn bots_of_game(connection: &Connection, game: &str) -> Result<Vec<Bot>, StoreError> {
    let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.game = ?1 ORDER BY bots.name");
    let mut statement = connection.prepare_cached(&sql)?;
    Ok(statement.query_map([game], bot_of)?.collect::<Result<_, _>>()?)
}

fn versions_of_bot(connection: &Connection, bot: i64) -> Result<Vec<Version>, StoreError> {
    let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = ?1 ORDER BY id");
    let mut statement = connection.prepare_cached(&sql)?;
    let rows: Vec<VersionRow> = statement.query_map([bot], version_row)?.collect::<Result<_, _>>()?;
    rows.into_iter().map(version_of).collect()
}

/// The bot name of each of `versions` that exists.
fn bot_names(
    connection: &Connection,
    versions: impl IntoIterator<Item = i64>,
) -> Result<BTreeMap<i64, String>, StoreError> {
    let mut statement = connection.prepare_cached(
        "SELECT bots.name FROM versions JOIN bots ON bots.id = versions.bot_id WHERE versions.id = ?1",
    )?;
    let mut names = BTreeMap::new();
    for version in versions {
        if let std::collections::btree_map::Entry::Vacant(vacant) = names.entry(version)
            && let Some(name) = statement.query_row([version], |row| row.get::<_, String>(0)).optional()?
        {
            vacant.insert(name);
        }
    }
    Ok(names)
}

/// The latest `limit` rating snapshots of `version`, oldest first.
fn latest_points(connection: &Connection, version: i64, limit: u32) -> Result<Vec<RatingPoint>, StoreError> {
    let mut statement = connection.prepare_cached(
        "SELECT results, rating, low, high, matches FROM rating_snapshots WHERE version_id = ?1 \
         ORDER BY id DESC LIMIT ?2",
    )?;
    let mut points: Vec<RatingPoint> = statement
        .query_map(params![version, limit], |row| {
            Ok(RatingPoint {
                version_id: version,
                results: row.get::<_, i64>(0)? as u64,
                rating: row.get(1)?,
                interval: [row.get(2)?, row.get(3)?],
                matches: row.get::<_, i64>(4)? as u64,
            })
        })?
        .collect::<Result<_, _>>()?;
    points.reverse();
    Ok(points)
}

const WORKER_COLUMNS: &str = "name, key, trusted, suspect, results, audits, mismatches";

fn worker_row(row: &Row<'_>) -> rusqlite::Result<Worker> {
    let count = |index: usize| -> rusqlite::Result<u64> { Ok(row.get::<_, i64>(index)? as u64) };
    Ok(Worker {
        name: row.get(0)?,
        key: row.get(1)?,
        trusted: row.get(2)?,
        suspect: row.get(3)?,
        results: count(4)?,
        audits: count(5)?,
        mismatches: count(6)?,
    })
}

const AUDIT_COLUMNS: &str = "id, match_id, spec_id, worker, result, auditor, audit_result, state";

/// An audit row, its state still as text.
type AuditRow = (i64, i64, String, String, String, Option<String>, Option<String>, String);

fn audit_row(row: &Row<'_>) -> rusqlite::Result<AuditRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?))
}

fn audit_of(
    (id, match_id, spec_id, worker, result, auditor, audit_result, state): AuditRow,
) -> Result<Audit, StoreError> {
    Ok(Audit { id, match_id, spec_id, worker, result, auditor, audit_result, state: AuditState::parse(&state)? })
}

fn is_unique_violation(err: &rusqlite::Error) -> bool {
    // A UNIQUE column, or a primary key that is a name (the workers').
    matches!(err, rusqlite::Error::SqliteFailure(failure, _)
        if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            || failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY)
}

impl Store for SqliteStore {
    fn schema_version(&self) -> Result<i64, StoreError> {
        self.read(|connection| Ok(connection.query_row("PRAGMA user_version", [], |row| row.get(0))?))
    }

    fn create_user(&self, name: &str, password_hash: &str, admin: bool) -> Result<User, StoreError> {
        let connection = self.lock();
        match connection.execute(
            "INSERT INTO users (name, password_hash, admin) VALUES (?1, ?2, ?3)",
            params![name, password_hash, admin],
        ) {
            Ok(_) => {}
            Err(err) if is_unique_violation(&err) => {
                return Err(StoreError::Taken { what: "account", name: name.into() });
            }
            Err(err) => return Err(err.into()),
        }
        let id = connection.last_insert_rowid();
        Ok(User { id, name: name.to_owned(), password_hash: password_hash.to_owned(), admin })
    }

    fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE name = ?1");
        self.read(|connection| Ok(connection.query_row(&sql, [name], user_of).optional()?))
    }

    fn user(&self, id: i64) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1");
        self.read(|connection| Ok(connection.query_row(&sql, [id], user_of).optional()?))
    }

    fn create_session(&self, user: i64, token_sha256: &str, csrf: &str, expires: i64) -> Result<(), StoreError> {
        self.lock().execute(
            "INSERT INTO sessions (token_sha256, user_id, csrf, expires) VALUES (?1, ?2, ?3, ?4)",
            params![token_sha256, user, csrf, expires],
        )?;
        Ok(())
    }

    fn session(&self, token_sha256: &str, now: i64) -> Result<Option<(User, String)>, StoreError> {
        let sql = "SELECT users.id, users.name, users.password_hash, users.admin, sessions.csrf FROM sessions \
                   JOIN users ON users.id = sessions.user_id WHERE sessions.token_sha256 = ?1 AND sessions.expires > ?2";
        self.read(|connection| {
            let mut statement = connection.prepare_cached(sql)?;
            Ok(statement.query_row(params![token_sha256, now], |row| Ok((user_of(row)?, row.get(4)?))).optional()?)
        })
    }

    fn delete_session(&self, token_sha256: &str) -> Result<(), StoreError> {
        self.lock().execute("DELETE FROM sessions WHERE token_sha256 = ?1", [token_sha256])?;
        Ok(())
    }

    fn create_token(&self, user: i64, token_sha256: &str, label: &str) -> Result<(), StoreError> {
        self.lock().execute(
            "INSERT INTO api_tokens (token_sha256, user_id, label) VALUES (?1, ?2, ?3)",
            params![token_sha256, user, label],
        )?;
        Ok(())
    }

    fn token_user(&self, token_sha256: &str) -> Result<Option<User>, StoreError> {
        let sql = "SELECT users.id, users.name, users.password_hash, users.admin FROM api_tokens \
                   JOIN users ON users.id = api_tokens.user_id WHERE api_tokens.token_sha256 = ?1";
        self.read(|connection| Ok(connection.query_row(sql, [token_sha256], user_of).optional()?))
    }

    fn token_labels(&self, user: i64) -> Result<Vec<String>, StoreError> {
        self.read(|connection| {
            let mut statement = connection.prepare("SELECT label FROM api_tokens WHERE user_id = ?1 ORDER BY rowid")?;
            Ok(statement.query_map([user], |row| row.get(0))?.collect::<Result<_, _>>()?)
        })
    }

    fn bot_for_upload(&self, owner: i64, game: &str, name: &str) -> Result<Bot, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.game = ?1 AND bots.name = ?2");
        let existing = transaction.query_row(&sql, params![game, name], bot_of).optional()?;
        let bot = match existing {
            Some(bot) if bot.owner == owner => bot,
            Some(_) => return Err(StoreError::Taken { what: "bot name", name: format!("{game}/{name}") }),
            None => {
                transaction
                    .execute("INSERT INTO bots (owner, game, name) VALUES (?1, ?2, ?3)", params![owner, game, name])?;
                let id = transaction.last_insert_rowid();
                let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id = ?1");
                transaction.query_row(&sql, [id], bot_of)?
            }
        };
        transaction.commit()?;
        Ok(bot)
    }

    fn bot(&self, id: i64) -> Result<Option<Bot>, StoreError> {
        self.read(|connection| bot_by_id(connection, id))
    }

    fn bots_of_game(&self, game: &str) -> Result<Vec<Bot>, StoreError> {
        self.read(|connection| bots_of_game(connection, game))
    }

    fn bots_of_owner(&self, owner: i64) -> Result<Vec<Bot>, StoreError> {
        let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.owner = ?1 ORDER BY bots.game, bots.name");
        self.read(|connection| {
            let mut statement = connection.prepare(&sql)?;
            Ok(statement.query_map([owner], bot_of)?.collect::<Result<_, _>>()?)
        })
    }

    fn set_bot_disabled(&self, bot: i64, disabled: bool) -> Result<(), StoreError> {
        self.lock().execute("UPDATE bots SET disabled = ?2 WHERE id = ?1", params![bot, disabled])?;
        Ok(())
    }

    fn set_bot_private(&self, bot: i64, private: bool) -> Result<(), StoreError> {
        self.lock().execute("UPDATE bots SET private = ?2 WHERE id = ?1", params![bot, private])?;
        Ok(())
    }

    fn bots_with_file(&self, sha256: &str) -> Result<Vec<Bot>, StoreError> {
        let sql = format!(
            "SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id IN (SELECT bot_id FROM versions WHERE sha256 = ?1) \
             ORDER BY bots.id"
        );
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            Ok(statement.query_map([sha256], bot_of)?.collect::<Result<_, _>>()?)
        })
    }

    fn bots_with_data(&self, digest: &str) -> Result<Vec<Bot>, StoreError> {
        let sql = format!(
            "SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id IN \
             (SELECT bot_id FROM versions WHERE data_digest = ?1 AND data_digest <> '') ORDER BY bots.id"
        );
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            Ok(statement.query_map([digest], bot_of)?.collect::<Result<_, _>>()?)
        })
    }

    fn add_version(
        &self,
        bot: i64,
        sha256: &str,
        data: Option<&str>,
        size: i64,
        now: i64,
    ) -> Result<(Version, bool), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let sql =
            format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = ?1 AND sha256 = ?2 AND data_digest = ?3");
        let digest = data.unwrap_or_default();
        if let Some(row) = transaction.query_row(&sql, params![bot, sha256, digest], version_row).optional()? {
            return Ok((version_of(row)?, false));
        }
        transaction.execute(
            "INSERT INTO versions (bot_id, sha256, size, status, uploaded, data_digest) \
             VALUES (?1, ?2, ?3, 'pending', ?4, ?5)",
            params![bot, sha256, size, now, digest],
        )?;
        let id = transaction.last_insert_rowid();
        transaction.commit()?;
        let version = Version { data_digest: data.map(str::to_owned), ..Version::pending(id, bot, sha256, size) };
        Ok((version, true))
    }

    fn uploads_since(&self, owner: i64, since: i64) -> Result<u64, StoreError> {
        let count: i64 = self.read(|connection| {
            Ok(connection.query_row(
                "SELECT COUNT(*) FROM versions JOIN bots ON bots.id = versions.bot_id \
                 WHERE bots.owner = ?1 AND versions.uploaded >= ?2",
                params![owner, since],
                |row| row.get(0),
            )?)
        })?;
        Ok(count as u64)
    }

    fn finish_version(
        &self,
        version: i64,
        status: VersionStatus,
        reason: Option<&str>,
        steps: &[Step],
    ) -> Result<bool, StoreError> {
        let steps = serde_json::to_string(steps)
            .map_err(|err| StoreError::Corrupt { what: "steps", detail: err.to_string() })?;
        let updated = self.lock().execute(
            "UPDATE versions SET status = ?2, reason = ?3, steps = ?4 WHERE id = ?1 AND status = 'pending'",
            params![version, status.as_str(), reason, steps],
        )?;
        Ok(updated == 1)
    }

    fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE id = ?1");
        self.read(|connection| {
            let row = connection.prepare_cached(&sql)?.query_row([id], version_row).optional()?;
            row.map(version_of).transpose()
        })
    }

    fn versions_of_bot(&self, bot: i64) -> Result<Vec<Version>, StoreError> {
        self.read(|connection| versions_of_bot(connection, bot))
    }

    fn pending_versions(&self) -> Result<Vec<Version>, StoreError> {
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE status = 'pending' ORDER BY id");
        self.read(|connection| {
            let mut statement = connection.prepare(&sql)?;
            let rows: Vec<VersionRow> = statement.query_map([], version_row)?.collect::<Result<_, _>>()?;
            rows.into_iter().map(version_of).collect()
        })
    }

    fn pending_versions_before(&self, before: i64) -> Result<Vec<Version>, StoreError> {
        let sql =
            format!("SELECT {VERSION_COLUMNS} FROM versions WHERE status = 'pending' AND uploaded < ?1 ORDER BY id");
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            let rows: Vec<VersionRow> = statement.query_map([before], version_row)?.collect::<Result<_, _>>()?;
            rows.into_iter().map(version_of).collect()
        })
    }

    fn enqueue(&self, matches: &[NewMatch], now: i64) -> Result<Vec<i64>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let ids = insert_matches(&transaction, matches, now, None)?;
        transaction.commit()?;
        Ok(ids)
    }

    fn scrimmages_since(&self, user: i64, since: i64) -> Result<u64, StoreError> {
        let count: i64 = self.read(|connection| {
            Ok(connection.query_row(
                "SELECT COUNT(*) FROM matches WHERE requested_by = ?1 AND kind = 'scrimmage' AND requested >= ?2",
                params![user, since],
                |row| row.get(0),
            )?)
        })?;
        Ok(count as u64)
    }

    fn claim(&self, worker: &str, lease_until: i64) -> Result<Option<Match>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let next: Option<i64> = transaction
            .query_row(
                "SELECT id FROM matches WHERE state = 'queued' \
                 ORDER BY CASE kind WHEN 'scrimmage' THEN 0 WHEN 'competition' THEN 1 ELSE 2 END, id LIMIT 1",
                [],
                |row| row.get(0),
            )
            .optional()?;
        let Some(id) = next else { return Ok(None) };
        transaction.execute(
            "UPDATE matches SET state = 'running', claimed_by = ?2, lease_until = ?3 WHERE id = ?1",
            params![id, worker, lease_until],
        )?;
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1");
        let row = transaction.query_row(&sql, [id], match_row)?;
        let claimed = matches_of(&transaction, vec![row])?.pop();
        transaction.commit()?;
        Ok(claimed)
    }

    fn finish_match(&self, id: i64, finished: &Finished) -> Result<bool, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let updated = transaction.execute(
            "UPDATE matches SET state = 'done', winner = ?2, turns = ?3, replay_sha256 = ?4, digest = ?5, \
             claimed_by = NULL WHERE id = ?1 AND state <> 'done'",
            params![id, finished.winner, finished.turns, finished.replay_sha256, finished.digest],
        )?;
        if updated == 0 {
            return Ok(false);
        }
        for (seat, outcome) in finished.outcomes.iter().enumerate() {
            let outcome = serde_json::to_string(outcome)
                .map_err(|err| StoreError::Corrupt { what: "seat outcome", detail: err.to_string() })?;
            transaction.execute(
                "UPDATE match_seats SET outcome = ?3 WHERE match_id = ?1 AND seat = ?2",
                params![id, seat as i64, outcome],
            )?;
        }
        transaction.commit()?;
        Ok(true)
    }

    fn fail_match(&self, id: i64, error: &str) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE matches SET state = 'failed', error = ?2, claimed_by = NULL WHERE id = ?1 AND state <> 'done'",
            params![id, error],
        )?;
        Ok(())
    }

    fn requeue_failed(&self, id: i64) -> Result<bool, StoreError> {
        let requeued = self.lock().execute(
            "UPDATE matches SET state = 'queued', error = NULL, claimed_by = NULL WHERE id = ?1 AND state = 'failed'",
            [id],
        )?;
        Ok(requeued == 1)
    }

    fn set_replay(&self, id: i64, replay_sha256: &str) -> Result<(), StoreError> {
        self.lock().execute("UPDATE matches SET replay_sha256 = ?2 WHERE id = ?1", params![id, replay_sha256])?;
        Ok(())
    }

    fn renew_leases(&self, node: &str, until: i64) -> Result<u64, StoreError> {
        let renewed = self.lock().execute(
            "UPDATE matches SET lease_until = ?2 WHERE state = 'running' AND claimed_by LIKE ?1",
            params![format!("{node}/%"), until],
        )?;
        Ok(renewed as u64)
    }

    fn requeue_lapsed(&self, now: i64) -> Result<u64, StoreError> {
        let requeued = self.lock().execute(
            "UPDATE matches SET state = 'queued', claimed_by = NULL \
             WHERE state = 'running' AND (lease_until IS NULL OR lease_until < ?1)",
            [now],
        )?;
        Ok(requeued as u64)
    }

    fn shared(&self) -> bool {
        false
    }

    fn set_spec_id(&self, id: i64, spec_id: &str) -> Result<(), StoreError> {
        self.lock().execute("UPDATE matches SET spec_id = ?2 WHERE id = ?1", params![id, spec_id])?;
        Ok(())
    }

    fn unfinished_with_spec(&self, spec_id: &str) -> Result<Vec<Match>, StoreError> {
        self.read(|connection| {
            let mut statement = connection
                .prepare_cached("SELECT id FROM matches WHERE spec_id = ?1 AND state IN ('queued', 'running')")?;
            let ids: Vec<i64> = statement.query_map([spec_id], |row| row.get(0))?.collect::<Result<_, _>>()?;
            matches_by_ids(connection, &ids)
        })
    }

    fn add_worker(&self, name: &str, key: &str, trusted: bool) -> Result<(), StoreError> {
        match self
            .lock()
            .execute("INSERT INTO workers (name, key, trusted) VALUES (?1, ?2, ?3)", params![name, key, trusted])
        {
            Ok(_) => Ok(()),
            Err(err) if is_unique_violation(&err) => Err(StoreError::Taken { what: "worker", name: name.into() }),
            Err(err) => Err(err.into()),
        }
    }

    fn worker(&self, name: &str) -> Result<Option<Worker>, StoreError> {
        let sql = format!("SELECT {WORKER_COLUMNS} FROM workers WHERE name = ?1");
        self.read(|connection| Ok(connection.query_row(&sql, [name], worker_row).optional()?))
    }

    fn workers(&self) -> Result<Vec<Worker>, StoreError> {
        let sql = format!("SELECT {WORKER_COLUMNS} FROM workers ORDER BY name");
        self.read(|connection| {
            let mut statement = connection.prepare(&sql)?;
            let rows = statement.query_map([], worker_row)?.collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    fn tally_worker(
        &self,
        name: &str,
        [results, audits, mismatches]: [u64; 3],
        suspect: Option<bool>,
    ) -> Result<Option<Worker>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        transaction.execute(
            "UPDATE workers SET results = results + ?2, audits = audits + ?3, mismatches = mismatches + ?4, \
             suspect = COALESCE(?5, suspect) WHERE name = ?1",
            params![name, results as i64, audits as i64, mismatches as i64, suspect],
        )?;
        let sql = format!("SELECT {WORKER_COLUMNS} FROM workers WHERE name = ?1");
        let worker = transaction.query_row(&sql, [name], worker_row).optional()?;
        transaction.commit()?;
        Ok(worker)
    }

    fn open_audit(&self, match_id: i64, spec_id: &str, worker: &str, result: &str) -> Result<i64, StoreError> {
        let connection = self.lock();
        connection.execute(
            "INSERT INTO audits (match_id, spec_id, worker, result, state) VALUES (?1, ?2, ?3, ?4, 'pending')",
            params![match_id, spec_id, worker, result],
        )?;
        Ok(connection.last_insert_rowid())
    }

    fn open_audit_for_spec(&self, spec_id: &str) -> Result<Option<Audit>, StoreError> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audits WHERE spec_id = ?1 AND state IN ('pending', 'disputed') \
             ORDER BY id LIMIT 1"
        );
        self.read(|connection| connection.query_row(&sql, [spec_id], audit_row).optional()?.map(audit_of).transpose())
    }

    fn update_audit(
        &self,
        id: i64,
        state: AuditState,
        auditor: Option<&str>,
        audit_result: Option<&str>,
    ) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE audits SET state = ?2, auditor = COALESCE(?3, auditor), audit_result = COALESCE(?4, audit_result) \
             WHERE id = ?1",
            params![id, state.as_str(), auditor, audit_result],
        )?;
        Ok(())
    }

    fn audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError> {
        let sql = format!("SELECT {AUDIT_COLUMNS} FROM audits ORDER BY id DESC LIMIT ?1");
        self.read(|connection| {
            let mut statement = connection.prepare(&sql)?;
            let rows: Vec<AuditRow> = statement.query_map([limit], audit_row)?.collect::<Result<_, _>>()?;
            rows.into_iter().map(audit_of).collect()
        })
    }

    fn disagreed_audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audits WHERE state IN ('disputed', 'decided', 'undecided') \
             ORDER BY id DESC LIMIT ?1"
        );
        self.read(|connection| {
            let mut statement = connection.prepare(&sql)?;
            let rows: Vec<AuditRow> = statement.query_map([limit], audit_row)?.collect::<Result<_, _>>()?;
            rows.into_iter().map(audit_of).collect()
        })
    }

    fn set_disputed(&self, match_id: i64) -> Result<(), StoreError> {
        self.lock().execute("UPDATE matches SET state = 'disputed' WHERE id = ?1 AND state = 'done'", [match_id])?;
        Ok(())
    }

    fn requeue_running(&self) -> Result<u64, StoreError> {
        let requeued = self
            .lock()
            .execute("UPDATE matches SET state = 'queued', claimed_by = NULL WHERE state = 'running'", [])?;
        Ok(requeued as u64)
    }

    fn match_by_id(&self, id: i64) -> Result<Option<Match>, StoreError> {
        self.read(|connection| Ok(matches_by_ids(connection, &[id])?.pop()))
    }

    fn recent_matches(&self, game: Option<&str>, limit: u32) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE state = 'done' AND (?1 IS NULL OR game = ?1) \
             AND kind <> 'competition' \
             ORDER BY id DESC LIMIT ?2"
        );
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            let rows: Vec<MatchRow> =
                statement.query_map(params![game, limit], match_row)?.collect::<Result<_, _>>()?;
            matches_of(connection, rows)
        })
    }

    fn matches_of_version(&self, version: i64, limit: u32) -> Result<Vec<Match>, StoreError> {
        self.read(|connection| {
            let ids = latest_match_ids(connection, &[version], limit)?;
            matches_by_ids(connection, &ids)
        })
    }

    fn ranked_results_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = ?1 AND kind = 'ranked' AND state = 'done' AND id > ?2 \
             ORDER BY id LIMIT ?3"
        );
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            let rows: Vec<MatchRow> =
                statement.query_map(params![game, after, limit], match_row)?.collect::<Result<_, _>>()?;
            matches_of(connection, rows)
        })
    }

    fn ranked_tables_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<(i64, Vec<i64>)>, StoreError> {
        self.read(|connection| {
            let mut statement = connection.prepare_cached(
                "SELECT s.match_id, s.version_id FROM match_seats s WHERE s.match_id IN \
                 (SELECT id FROM matches WHERE game = ?1 AND kind = 'ranked' AND id > ?2 ORDER BY id LIMIT ?3) \
                 ORDER BY s.match_id, s.seat",
            )?;
            let rows = statement.query_map(params![game, after, limit], |row| Ok((row.get(0)?, row.get(1)?)))?;
            tables_of(rows)
        })
    }

    fn ranked_pending(&self, game: &str) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = ?1 AND kind = 'ranked' \
             AND state IN ('queued', 'running', 'disputed') \
             ORDER BY id"
        );
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            let rows: Vec<MatchRow> = statement.query_map([game], match_row)?.collect::<Result<_, _>>()?;
            matches_of(connection, rows)
        })
    }

    fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        self.read(|connection| {
            let mut statement = connection.prepare_cached("SELECT COUNT(*) FROM matches WHERE state = ?1")?;
            let mut count = |state: &str| -> Result<u64, StoreError> {
                let count: i64 = statement.query_row([state], |row| row.get(0))?;
                Ok(count as u64)
            };
            Ok(QueueCounts { queued: count("queued")?, running: count("running")?, done: count("done")? })
        })
    }

    fn bot_names(&self, versions: &[i64]) -> Result<BTreeMap<i64, String>, StoreError> {
        self.read(|connection| bot_names(connection, versions.iter().copied()))
    }

    fn bot_page(&self, id: i64, matches: u32, ratings: u32) -> Result<Option<BotPage>, StoreError> {
        self.read(|connection| {
            let Some(bot) = bot_by_id(connection, id)? else { return Ok(None) };
            let versions = versions_of_bot(connection, id)?;
            let ids: Vec<i64> = versions.iter().map(|version| version.id).collect();
            let found = matches_by_ids(connection, &latest_match_ids(connection, &ids, matches)?)?;
            let names =
                bot_names(connection, found.iter().flat_map(|one| one.seats.iter().map(|seat| seat.version_id)))?;
            let opponents = bots_of_game(connection, &bot.game)?.into_iter().filter(|other| other.id != id).collect();
            let mut points = Vec::new();
            for version in &ids {
                points.extend(latest_points(connection, *version, ratings)?);
            }
            Ok(Some(BotPage { bot, versions, matches: found, names, opponents, ratings: points }))
        })
    }

    fn record_ratings(&self, points: &[RatingPoint]) -> Result<u64, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let mut kept = 0;
        {
            let mut insert = transaction.prepare_cached(
                "INSERT INTO rating_snapshots (version_id, results, rating, low, high, matches) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for point in points {
                let last = latest_points(&transaction, point.version_id, 1)?.pop();
                if point.worth_keeping(last.as_ref()) {
                    insert.execute(params![
                        point.version_id,
                        point.results as i64,
                        point.rating,
                        point.interval[0],
                        point.interval[1],
                        point.matches as i64
                    ])?;
                    kept += 1;
                }
            }
        }
        transaction.commit()?;
        Ok(kept)
    }

    fn set_frozen(&self, game: &str, frozen: bool) -> Result<(), StoreError> {
        let sql = if frozen {
            "INSERT OR IGNORE INTO frozen_games (game) VALUES (?1)"
        } else {
            "DELETE FROM frozen_games WHERE game = ?1"
        };
        self.lock().execute(sql, [game])?;
        Ok(())
    }

    fn frozen_games(&self) -> Result<Vec<String>, StoreError> {
        self.read(|connection| {
            let mut statement = connection.prepare_cached("SELECT game FROM frozen_games ORDER BY game")?;
            Ok(statement.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?)
        })
    }

    fn create_competition(&self, new: &NewCompetition, now: i64) -> Result<i64, StoreError> {
        let connection = self.lock();
        connection.execute(
            "INSERT INTO competitions (game, name, format, deadline, seeds, state, release, created, rounds, pool) \
             VALUES (?1, ?2, ?3, ?4, ?5, 'open', 'hidden', ?6, ?7, ?8)",
            params![
                new.game,
                new.name,
                new.format.as_str(),
                new.deadline,
                i64::from(new.seeds),
                now,
                new.rounds.map(i64::from),
                new.pool_column()
            ],
        )?;
        Ok(connection.last_insert_rowid())
    }

    fn competition(&self, id: i64) -> Result<Option<Competition>, StoreError> {
        self.read(|connection| Ok(competitions_where(connection, "id = ?1", Some(id))?.pop()))
    }

    fn competitions(&self) -> Result<Vec<Competition>, StoreError> {
        self.read(|connection| competitions_where(connection, "?1 IS NULL", None))
    }

    fn set_competition_release(&self, id: i64, release: Release, rounds: Option<u32>) -> Result<bool, StoreError> {
        let updated = self.lock().execute(
            "UPDATE competitions SET release = ?2, released_rounds = ?3 WHERE id = ?1",
            params![id, release.as_str(), rounds.map(i64::from)],
        )?;
        Ok(updated == 1)
    }

    fn start_competition(
        &self,
        id: i64,
        entrants: &[i64],
        bracket: Option<&str>,
        matches: &[NewMatch],
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let started = transaction.execute(
            "UPDATE competitions SET state = 'running', bracket = ?2 WHERE id = ?1 AND state = 'open'",
            params![id, bracket],
        )?;
        if started == 0 {
            return Ok(false);
        }
        for (seed, version) in entrants.iter().enumerate() {
            transaction.execute(
                "INSERT INTO competition_entrants (competition_id, version_id, seed) VALUES (?1, ?2, ?3)",
                params![id, version, seed as i64],
            )?;
        }
        insert_matches(&transaction, matches, now, Some(id))?;
        transaction.commit()?;
        Ok(true)
    }

    fn advance_competition(
        &self,
        id: i64,
        from: Option<&str>,
        to: Option<&str>,
        matches: &[NewMatch],
        done: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let state = if done { "done" } else { "running" };
        let moved = transaction.execute(
            "UPDATE competitions SET bracket = ?3, state = ?4 WHERE id = ?1 AND state = 'running' AND bracket IS ?2",
            params![id, from, to, state],
        )?;
        if moved == 0 {
            return Ok(false);
        }
        insert_matches(&transaction, matches, now, Some(id))?;
        transaction.commit()?;
        Ok(true)
    }

    fn competition_matches(&self, id: i64) -> Result<Vec<Match>, StoreError> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE competition_id = ?1 ORDER BY id");
        self.read(|connection| {
            let mut statement = connection.prepare_cached(&sql)?;
            let rows: Vec<MatchRow> = statement.query_map([id], match_row)?.collect::<Result<_, _>>()?;
            matches_of(connection, rows)
        })
    }

    fn competition_of_match(&self, id: i64) -> Result<Option<i64>, StoreError> {
        self.read(|connection| {
            let found: Option<Option<i64>> = connection
                .prepare_cached("SELECT competition_id FROM matches WHERE id = ?1")?
                .query_row([id], |row| row.get(0))
                .optional()?;
            Ok(found.flatten())
        })
    }

    fn audit(&self, actor: &str, action: &str, detail: &str) -> Result<(), StoreError> {
        self.lock()
            .execute("INSERT INTO audit (actor, action, detail) VALUES (?1, ?2, ?3)", params![actor, action, detail])?;
        Ok(())
    }

    fn audit_log(&self) -> Result<Vec<(String, String, String)>, StoreError> {
        self.read(|connection| {
            let mut statement = connection.prepare("SELECT actor, action, detail FROM audit ORDER BY id")?;
            Ok(statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?.collect::<Result<_, _>>()?)
        })
    }
}
