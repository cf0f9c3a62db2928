//! The [`Store`] on an embedded SQLite database (one file, write-ahead log): one connection
//! behind a mutex, so every method is one transaction and claims are atomic. The schema version
//! is SQLite's `user_version`, set in the transaction of the migration that brings it.

use super::migrations::{MIGRATIONS, latest};
use super::{
    Bot, Finished, Match, MatchKind, MatchState, NewMatch, QueueCounts, Seat, SeatOutcome, Step, Store, StoreError,
    User, Version, VersionStatus,
};
use rusqlite::{Connection, OptionalExtension, Row, params};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The store in one SQLite file.
pub struct SqliteStore {
    connection: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating it if needed) the database at `path` and migrates it to the latest schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let connection = Connection::open(path)?;
        SqliteStore::with_connection(connection)
    }

    /// A database in memory (for tests), migrated.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::with_connection(Connection::open_in_memory()?)
    }

    /// Opens `path` and applies migrations up to `version` only (for the migration tests).
    pub fn open_at_version(path: &Path, version: i64) -> Result<SqliteStore, StoreError> {
        let mut connection = Connection::open(path)?;
        configure(&connection)?;
        migrate(&mut connection, version)?;
        Ok(SqliteStore { connection: Mutex::new(connection) })
    }

    fn with_connection(mut connection: Connection) -> Result<SqliteStore, StoreError> {
        configure(&connection)?;
        migrate(&mut connection, latest())?;
        Ok(SqliteStore { connection: Mutex::new(connection) })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no transaction open (rusqlite rolls back on
        // drop), so the connection is still consistent.
        self.connection.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn configure(connection: &Connection) -> Result<(), StoreError> {
    connection.busy_timeout(Duration::from_secs(10))?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    // In memory the journal mode stays `memory`; on disk the write-ahead log lets readers run
    // beside the writer.
    let _mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

/// Applies the migrations after the database's version, up to `target`.
fn migrate(connection: &mut Connection, target: i64) -> Result<(), StoreError> {
    let found: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > latest() {
        return Err(StoreError::NewerSchema { found, known: latest() });
    }
    for migration in MIGRATIONS.iter().filter(|migration| migration.version > found && migration.version <= target) {
        let transaction = connection.transaction()?;
        transaction.execute_batch(migration.sqlite)?;
        transaction.pragma_update(None, "user_version", migration.version)?;
        transaction.commit()?;
        tracing::info!(version = migration.version, "database migrated: {}", migration.summary);
    }
    Ok(())
}

const USER_COLUMNS: &str = "id, name, password_hash, admin";

fn user_of(row: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User { id: row.get(0)?, name: row.get(1)?, password_hash: row.get(2)?, admin: row.get(3)? })
}

const BOT_COLUMNS: &str = "bots.id, bots.owner, users.name, bots.game, bots.name, bots.disabled";
const BOT_FROM: &str = "bots JOIN users ON users.id = bots.owner";

fn bot_of(row: &Row<'_>) -> rusqlite::Result<Bot> {
    Ok(Bot {
        id: row.get(0)?,
        owner: row.get(1)?,
        owner_name: row.get(2)?,
        game: row.get(3)?,
        name: row.get(4)?,
        disabled: row.get(5)?,
    })
}

const VERSION_COLUMNS: &str = "id, bot_id, sha256, size, status, reason, steps";

/// A version row, its status and steps still as text.
type VersionRow = (i64, i64, String, i64, String, Option<String>, String);

fn version_row(row: &Row<'_>) -> rusqlite::Result<VersionRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

fn version_of((id, bot_id, sha256, size, status, reason, steps): VersionRow) -> Result<Version, StoreError> {
    let steps: Vec<Step> = serde_json::from_str(&steps)
        .map_err(|err| StoreError::Corrupt { what: "version steps", detail: err.to_string() })?;
    Ok(Version { id, bot_id, sha256, size, status: VersionStatus::parse(&status)?, reason, steps })
}

const MATCH_COLUMNS: &str = "id, game, seed, kind, state, winner, turns, replay_sha256, error";

/// A match row without its seats, kind and state still as text.
type MatchRow = (i64, String, i64, String, String, Option<u32>, Option<u32>, Option<String>, Option<String>);

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
    ))
}

/// Completes match rows with their seats.
fn matches_of(connection: &Connection, rows: Vec<MatchRow>) -> Result<Vec<Match>, StoreError> {
    let mut seats =
        connection.prepare_cached("SELECT version_id, outcome FROM match_seats WHERE match_id = ?1 ORDER BY seat")?;
    let mut matches = Vec::with_capacity(rows.len());
    for (id, game, seed, kind, state, winner, turns, replay_sha256, error) in rows {
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
            error,
        });
    }
    Ok(matches)
}

fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::SqliteFailure(failure, _) if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

impl Store for SqliteStore {
    fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self.lock().query_row("PRAGMA user_version", [], |row| row.get(0))?)
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
        Ok(self.lock().query_row(&sql, [name], user_of).optional()?)
    }

    fn user(&self, id: i64) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1");
        Ok(self.lock().query_row(&sql, [id], user_of).optional()?)
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
        Ok(self.lock().query_row(sql, params![token_sha256, now], |row| Ok((user_of(row)?, row.get(4)?))).optional()?)
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
        Ok(self.lock().query_row(sql, [token_sha256], user_of).optional()?)
    }

    fn token_labels(&self, user: i64) -> Result<Vec<String>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT label FROM api_tokens WHERE user_id = ?1 ORDER BY rowid")?;
        Ok(statement.query_map([user], |row| row.get(0))?.collect::<Result<_, _>>()?)
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
        let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id = ?1");
        Ok(self.lock().query_row(&sql, [id], bot_of).optional()?)
    }

    fn bots_of_game(&self, game: &str) -> Result<Vec<Bot>, StoreError> {
        let connection = self.lock();
        let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.game = ?1 ORDER BY bots.name");
        let mut statement = connection.prepare(&sql)?;
        Ok(statement.query_map([game], bot_of)?.collect::<Result<_, _>>()?)
    }

    fn bots_of_owner(&self, owner: i64) -> Result<Vec<Bot>, StoreError> {
        let connection = self.lock();
        let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.owner = ?1 ORDER BY bots.game, bots.name");
        let mut statement = connection.prepare(&sql)?;
        Ok(statement.query_map([owner], bot_of)?.collect::<Result<_, _>>()?)
    }

    fn set_bot_disabled(&self, bot: i64, disabled: bool) -> Result<(), StoreError> {
        self.lock().execute("UPDATE bots SET disabled = ?2 WHERE id = ?1", params![bot, disabled])?;
        Ok(())
    }

    fn add_version(&self, bot: i64, sha256: &str, size: i64, now: i64) -> Result<(Version, bool), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = ?1 AND sha256 = ?2");
        if let Some(row) = transaction.query_row(&sql, params![bot, sha256], version_row).optional()? {
            return Ok((version_of(row)?, false));
        }
        transaction.execute(
            "INSERT INTO versions (bot_id, sha256, size, status, uploaded) VALUES (?1, ?2, ?3, 'pending', ?4)",
            params![bot, sha256, size, now],
        )?;
        let id = transaction.last_insert_rowid();
        transaction.commit()?;
        Ok((Version::pending(id, bot, sha256, size), true))
    }

    fn uploads_since(&self, owner: i64, since: i64) -> Result<u64, StoreError> {
        let count: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM versions JOIN bots ON bots.id = versions.bot_id \
             WHERE bots.owner = ?1 AND versions.uploaded >= ?2",
            params![owner, since],
            |row| row.get(0),
        )?;
        Ok(count as u64)
    }

    fn finish_version(
        &self,
        version: i64,
        status: VersionStatus,
        reason: Option<&str>,
        steps: &[Step],
    ) -> Result<(), StoreError> {
        let steps = serde_json::to_string(steps)
            .map_err(|err| StoreError::Corrupt { what: "steps", detail: err.to_string() })?;
        self.lock().execute(
            "UPDATE versions SET status = ?2, reason = ?3, steps = ?4 WHERE id = ?1",
            params![version, status.as_str(), reason, steps],
        )?;
        Ok(())
    }

    fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE id = ?1");
        self.lock().query_row(&sql, [id], version_row).optional()?.map(version_of).transpose()
    }

    fn versions_of_bot(&self, bot: i64) -> Result<Vec<Version>, StoreError> {
        let connection = self.lock();
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = ?1 ORDER BY id");
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<VersionRow> = statement.query_map([bot], version_row)?.collect::<Result<_, _>>()?;
        rows.into_iter().map(version_of).collect()
    }

    fn pending_versions(&self) -> Result<Vec<Version>, StoreError> {
        let connection = self.lock();
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE status = 'pending' ORDER BY id");
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<VersionRow> = statement.query_map([], version_row)?.collect::<Result<_, _>>()?;
        rows.into_iter().map(version_of).collect()
    }

    fn enqueue(&self, matches: &[NewMatch], now: i64) -> Result<Vec<i64>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let mut ids = Vec::with_capacity(matches.len());
        for new in matches {
            transaction.execute(
                "INSERT INTO matches (game, seed, kind, state, requested_by, requested) \
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5)",
                params![new.game, new.seed as i64, new.kind.as_str(), new.requested_by, now],
            )?;
            let id = transaction.last_insert_rowid();
            for (seat, version) in new.seats.iter().enumerate() {
                transaction.execute(
                    "INSERT INTO match_seats (match_id, seat, version_id) VALUES (?1, ?2, ?3)",
                    params![id, seat as i64, version],
                )?;
            }
            ids.push(id);
        }
        transaction.commit()?;
        Ok(ids)
    }

    fn scrimmages_since(&self, user: i64, since: i64) -> Result<u64, StoreError> {
        let count: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM matches WHERE requested_by = ?1 AND kind = 'scrimmage' AND requested >= ?2",
            params![user, since],
            |row| row.get(0),
        )?;
        Ok(count as u64)
    }

    fn claim(&self, worker: &str) -> Result<Option<Match>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let next: Option<i64> = transaction
            .query_row(
                "SELECT id FROM matches WHERE state = 'queued' \
                 ORDER BY CASE kind WHEN 'scrimmage' THEN 0 ELSE 1 END, id LIMIT 1",
                [],
                |row| row.get(0),
            )
            .optional()?;
        let Some(id) = next else { return Ok(None) };
        transaction
            .execute("UPDATE matches SET state = 'running', claimed_by = ?2 WHERE id = ?1", params![id, worker])?;
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
            "UPDATE matches SET state = 'done', winner = ?2, turns = ?3, replay_sha256 = ?4, claimed_by = NULL \
             WHERE id = ?1 AND state <> 'done'",
            params![id, finished.winner, finished.turns, finished.replay_sha256],
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

    fn requeue_running(&self) -> Result<u64, StoreError> {
        let requeued = self
            .lock()
            .execute("UPDATE matches SET state = 'queued', claimed_by = NULL WHERE state = 'running'", [])?;
        Ok(requeued as u64)
    }

    fn match_by_id(&self, id: i64) -> Result<Option<Match>, StoreError> {
        let connection = self.lock();
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1");
        let Some(row) = connection.query_row(&sql, [id], match_row).optional()? else { return Ok(None) };
        Ok(matches_of(&connection, vec![row])?.pop())
    }

    fn recent_matches(&self, game: Option<&str>, limit: u32) -> Result<Vec<Match>, StoreError> {
        let connection = self.lock();
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE state = 'done' AND (?1 IS NULL OR game = ?1) \
             ORDER BY id DESC LIMIT ?2"
        );
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<MatchRow> = statement.query_map(params![game, limit], match_row)?.collect::<Result<_, _>>()?;
        matches_of(&connection, rows)
    }

    fn matches_of_version(&self, version: i64, limit: u32) -> Result<Vec<Match>, StoreError> {
        let connection = self.lock();
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE id IN \
             (SELECT match_id FROM match_seats WHERE version_id = ?1) ORDER BY id DESC LIMIT ?2"
        );
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<MatchRow> = statement.query_map(params![version, limit], match_row)?.collect::<Result<_, _>>()?;
        matches_of(&connection, rows)
    }

    fn ranked_results(&self, game: &str) -> Result<Vec<Match>, StoreError> {
        let connection = self.lock();
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = ?1 AND kind = 'ranked' AND state = 'done' ORDER BY id"
        );
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<MatchRow> = statement.query_map([game], match_row)?.collect::<Result<_, _>>()?;
        matches_of(&connection, rows)
    }

    fn ranked_pending(&self, game: &str) -> Result<Vec<Match>, StoreError> {
        let connection = self.lock();
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = ?1 AND kind = 'ranked' AND state IN ('queued', 'running') \
             ORDER BY id"
        );
        let mut statement = connection.prepare(&sql)?;
        let rows: Vec<MatchRow> = statement.query_map([game], match_row)?.collect::<Result<_, _>>()?;
        matches_of(&connection, rows)
    }

    fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        let connection = self.lock();
        let count = |state: &str| -> Result<u64, StoreError> {
            let count: i64 =
                connection.query_row("SELECT COUNT(*) FROM matches WHERE state = ?1", [state], |row| row.get(0))?;
            Ok(count as u64)
        };
        Ok(QueueCounts { queued: count("queued")?, running: count("running")?, done: count("done")? })
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
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT game FROM frozen_games ORDER BY game")?;
        Ok(statement.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?)
    }

    fn audit(&self, actor: &str, action: &str, detail: &str) -> Result<(), StoreError> {
        self.lock()
            .execute("INSERT INTO audit (actor, action, detail) VALUES (?1, ?2, ?3)", params![actor, action, detail])?;
        Ok(())
    }

    fn audit_log(&self) -> Result<Vec<(String, String, String)>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT actor, action, detail FROM audit ORDER BY id")?;
        Ok(statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?.collect::<Result<_, _>>()?)
    }
}
