//! The [`Store`] on a PostgreSQL server, for several API nodes sharing one ladder: one
//! connection per node behind a mutex (as SQLite's writer), every method one transaction. Claims use
//! `FOR UPDATE SKIP LOCKED`, so nodes claiming at once never get the same match, and finishing a
//! match is an update of a match not yet done, so a result recorded twice is recorded once.
//!
//! The client is the synchronous `postgres` crate: it drives its connection on a single-thread
//! tokio runtime of its own, which must not run inside another runtime's async task (it panics
//! there). Every method is therefore called from a thread that may block: a plain thread, or
//! `tokio::task::spawn_blocking` as the web side does (the store suite checks both). Dropping the
//! store is safe anywhere: on an async thread the connection is closed from a thread of its own.
//! A connection lost (the server restarted) is opened again by the next call.
//!
//! The schema version is the highest row of the table `schema_version`, written in the
//! transaction of the migration that brings it; nodes starting together migrate one at a time
//! (an advisory lock). No TLS: the server is on loopback or a private network.

use super::migrations::{MIGRATIONS, latest};
use super::{
    Audit, AuditState, Bot, BotPage, COMPETITION_COLUMNS, Competition, CompetitionRow, Finished, Match, MatchKind,
    MatchState, NewCompetition, NewMatch, QueueCounts, RatingPoint, Release, Seat, SeatOutcome, Step, Store,
    StoreError, User, Version, VersionStatus, Worker, tables_of,
};
use postgres::error::SqlState;
use postgres::{Client, Config, IsolationLevel, NoTls, Row, Transaction};
use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The store on a PostgreSQL database.
pub struct PostgresStore {
    /// Where to connect again after the connection is lost.
    config: Config,
    /// The connection; `None` after a failed reconnection (the next call tries again).
    client: Mutex<Option<Client>>,
}

/// The key of the advisory lock held while migrating (any constant the ladder alone uses).
const MIGRATION_LOCK: i64 = 0x6172_656e_615f_6462; // "arena_db"

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user@host:port/db`) and migrates it to the
    /// latest schema.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect_at_version(url, latest())
    }

    /// Connects to `url` and applies migrations up to `version` only (for the migration tests).
    pub fn connect_at_version(url: &str, version: i64) -> Result<PostgresStore, StoreError> {
        let mut config: Config = url.parse()?;
        if config.get_connect_timeout().is_none() {
            // An unreachable server is an error at start, not a hang.
            config.connect_timeout(Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("arena serve");
        }
        // Notices (e.g. of a server shutting down) go to the service's log, not the `log` crate's.
        config.notice_callback(|notice| tracing::info!("PostgreSQL: {}: {}", notice.severity(), notice.message()));
        let mut client = config.connect(NoTls)?;
        migrate(&mut client, version)?;
        Ok(PostgresStore { config, client: Mutex::new(Some(client)) })
    }

    /// Runs `work` on the connection, opening it again if it was lost.
    fn with<T>(&self, work: impl FnOnce(&mut Client) -> Result<T, StoreError>) -> Result<T, StoreError> {
        // A panic while holding the lock leaves no transaction open (a dropped transaction rolls
        // back), so the connection is still usable.
        let mut slot = self.client.lock().unwrap_or_else(PoisonError::into_inner);
        let client = match slot.take() {
            Some(client) if !client.is_closed() => client,
            _ => self.config.connect(NoTls)?,
        };
        work(slot.insert(client))
    }

    /// Runs `work` in a read-write transaction (READ COMMITTED), committed if it succeeds.
    fn write<T>(&self, work: impl FnOnce(&mut Transaction<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        self.with(|client| {
            let mut transaction = client.transaction()?;
            let value = work(&mut transaction)?;
            transaction.commit()?;
            Ok(value)
        })
    }

    /// Runs `work` in a read-only transaction on one snapshot (REPEATABLE READ): a match and its
    /// seats are read as they were at one instant.
    fn read<T>(&self, work: impl FnOnce(&mut Transaction<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        self.with(|client| {
            let mut transaction =
                client.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start()?;
            let value = work(&mut transaction)?;
            transaction.commit()?;
            Ok(value)
        })
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        let client = self.client.get_mut().unwrap_or_else(PoisonError::into_inner).take();
        // The client closes its connection on its own runtime, which panics on a thread that runs
        // async tasks; the last handle of the store may well be dropped on one.
        if let Some(client) = client {
            if tokio::runtime::Handle::try_current().is_ok() {
                std::thread::scope(|scope| {
                    scope.spawn(move || drop(client));
                });
            } else {
                drop(client);
            }
        }
    }
}

impl From<postgres::Error> for StoreError {
    fn from(err: postgres::Error) -> StoreError {
        StoreError::Postgres(describe(&err))
    }
}

/// The error in words: the server's message with its SQLSTATE, or the client's with its causes.
fn describe(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        let mut text = format!("{} (SQLSTATE {}, {})", db.message(), db.code().code(), db.severity());
        if let Some(detail) = db.detail() {
            text.push_str(": ");
            text.push_str(detail);
        }
        return text;
    }
    let mut text = err.to_string();
    let mut cause = std::error::Error::source(err);
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

/// [`StoreError::Taken`] for a unique violation (SQLSTATE 23505), the error itself otherwise.
fn taken_or(err: postgres::Error, what: &'static str, name: String) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) { StoreError::Taken { what, name } } else { err.into() }
}

/// Applies the migrations after the database's version, up to `target`, each in a transaction
/// with the version it brings.
fn migrate(client: &mut Client, target: i64) -> Result<(), StoreError> {
    loop {
        let mut transaction = client.transaction()?;
        // Nodes starting at once: one migrates, the others wait and then find it done.
        transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let exists: bool =
            transaction.query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?.try_get(0)?;
        if !exists {
            transaction.batch_execute("CREATE TABLE schema_version (version BIGINT PRIMARY KEY)")?;
        }
        let found: i64 =
            transaction.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])?.try_get(0)?;
        if found > latest() {
            return Err(StoreError::NewerSchema { found, known: latest() });
        }
        let next = MIGRATIONS.iter().find(|migration| migration.version > found && migration.version <= target);
        let Some(migration) = next else {
            transaction.commit()?;
            return Ok(());
        };
        transaction.batch_execute(migration.postgres)?;
        transaction.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&migration.version])?;
        transaction.commit()?;
        tracing::info!(version = migration.version, "database migrated: {}", migration.summary);
    }
}

const USER_COLUMNS: &str = "users.id, users.name, users.password_hash, users.admin";

fn user_of(row: &Row) -> Result<User, StoreError> {
    Ok(User { id: row.try_get(0)?, name: row.try_get(1)?, password_hash: row.try_get(2)?, admin: row.try_get(3)? })
}

const BOT_COLUMNS: &str = "bots.id, bots.owner, users.name, bots.game, bots.name, bots.disabled, bots.private";
const BOT_FROM: &str = "bots JOIN users ON users.id = bots.owner";

fn bot_of(row: &Row) -> Result<Bot, StoreError> {
    Ok(Bot {
        id: row.try_get(0)?,
        owner: row.try_get(1)?,
        owner_name: row.try_get(2)?,
        game: row.try_get(3)?,
        name: row.try_get(4)?,
        disabled: row.try_get(5)?,
        private: row.try_get(6)?,
    })
}

fn bots_of(rows: Vec<Row>) -> Result<Vec<Bot>, StoreError> {
    rows.iter().map(bot_of).collect()
}

const VERSION_COLUMNS: &str = "id, bot_id, sha256, size, status, reason, steps, data_digest";

fn version_of(row: &Row) -> Result<Version, StoreError> {
    let status: String = row.try_get(4)?;
    let steps: String = row.try_get(6)?;
    let steps: Vec<Step> = serde_json::from_str(&steps)
        .map_err(|err| StoreError::Corrupt { what: "version steps", detail: err.to_string() })?;
    Ok(Version {
        id: row.try_get(0)?,
        bot_id: row.try_get(1)?,
        sha256: row.try_get(2)?,
        size: row.try_get(3)?,
        data_digest: Some(row.try_get::<_, String>(7)?).filter(|data| !data.is_empty()),
        status: VersionStatus::parse(&status)?,
        reason: row.try_get(5)?,
        steps,
    })
}

fn versions_of(rows: Vec<Row>) -> Result<Vec<Version>, StoreError> {
    rows.iter().map(version_of).collect()
}

const MATCH_COLUMNS: &str = "id, game, seed, kind, state, winner, turns, replay_sha256, error, digest";

/// A BIGINT column that holds a u32 (a seat, a turn count).
fn small(row: &Row, column: usize, what: &'static str) -> Result<Option<u32>, StoreError> {
    let value: Option<i64> = row.try_get(column)?;
    value
        .map(|value| u32::try_from(value).map_err(|_| StoreError::Corrupt { what, detail: value.to_string() }))
        .transpose()
}

/// Completes match rows with their seats (one query for all of them).
fn matches_of(transaction: &mut Transaction<'_>, rows: Vec<Row>) -> Result<Vec<Match>, StoreError> {
    let ids = rows.iter().map(|row| row.try_get(0)).collect::<Result<Vec<i64>, _>>()?;
    let mut seats: BTreeMap<i64, Vec<Seat>> = BTreeMap::new();
    if !ids.is_empty() {
        let seat_rows = transaction.query(
            "SELECT match_id, version_id, outcome FROM match_seats WHERE match_id = ANY($1) ORDER BY match_id, seat",
            &[&ids],
        )?;
        for row in seat_rows {
            let outcome: Option<String> = row.try_get(2)?;
            let outcome = outcome
                .map(|text| serde_json::from_str::<SeatOutcome>(&text))
                .transpose()
                .map_err(|err| StoreError::Corrupt { what: "seat outcome", detail: err.to_string() })?;
            seats.entry(row.try_get(0)?).or_default().push(Seat { version_id: row.try_get(1)?, outcome });
        }
    }
    let mut matches = Vec::with_capacity(rows.len());
    for row in rows {
        let id: i64 = row.try_get(0)?;
        let seed: i64 = row.try_get(2)?;
        let kind: String = row.try_get(3)?;
        let state: String = row.try_get(4)?;
        matches.push(Match {
            id,
            game: row.try_get(1)?,
            // Seeds are stored as signed 64-bit integers, bit for bit.
            seed: seed as u64,
            kind: MatchKind::parse(&kind)?,
            state: MatchState::parse(&state)?,
            seats: seats.remove(&id).unwrap_or_default(),
            winner: small(&row, 5, "winner")?,
            turns: small(&row, 6, "turn count")?,
            replay_sha256: row.try_get(7)?,
            digest: row.try_get(9)?,
            error: row.try_get(8)?,
        });
    }
    Ok(matches)
}

fn bot_by_id(tx: &mut Transaction<'_>, id: i64) -> Result<Option<Bot>, StoreError> {
    let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id = $1");
    tx.query_opt(&sql, &[&id])?.as_ref().map(bot_of).transpose()
}

/// Names sort by their bytes (`COLLATE "C"`), as SQLite sorts them, whatever the database's
/// locale.
fn bots_of_game(tx: &mut Transaction<'_>, game: &str) -> Result<Vec<Bot>, StoreError> {
    let sql = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.game = $1 ORDER BY bots.name COLLATE \"C\"");
    bots_of(tx.query(&sql, &[&game])?)
}

fn versions_of_bot(tx: &mut Transaction<'_>, bot: i64) -> Result<Vec<Version>, StoreError> {
    let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = $1 ORDER BY id");
    versions_of(tx.query(&sql, &[&bot])?)
}

/// The latest `limit` matches with one of `versions` in a seat, newest first: each version's
/// latest from its index, merged.
fn latest_matches(tx: &mut Transaction<'_>, versions: &[i64], limit: u32) -> Result<Vec<Match>, StoreError> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS} FROM matches WHERE id IN \
         (SELECT latest.match_id FROM unnest($1::BIGINT[]) AS chosen(version_id) CROSS JOIN LATERAL \
          (SELECT DISTINCT match_seats.match_id FROM match_seats JOIN matches ON matches.id = match_seats.match_id \
           WHERE match_seats.version_id = chosen.version_id AND matches.kind <> 'competition' \
           ORDER BY match_seats.match_id DESC LIMIT $2) AS latest) \
         ORDER BY id DESC LIMIT $2"
    );
    let rows = tx.query(&sql, &[&versions, &i64::from(limit)])?;
    matches_of(tx, rows)
}

/// The bot name of each of `versions` that exists.
fn bot_names(tx: &mut Transaction<'_>, versions: &[i64]) -> Result<BTreeMap<i64, String>, StoreError> {
    let rows = tx.query(
        "SELECT versions.id, bots.name FROM versions JOIN bots ON bots.id = versions.bot_id WHERE versions.id = ANY($1)",
        &[&versions],
    )?;
    rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
}

/// The latest `limit` rating snapshots of each of `versions`, by version, oldest first.
fn latest_points(tx: &mut Transaction<'_>, versions: &[i64], limit: u32) -> Result<Vec<RatingPoint>, StoreError> {
    let rows = tx.query(
        "SELECT latest.version_id, latest.results, latest.rating, latest.low, latest.high, latest.matches \
         FROM unnest($1::BIGINT[]) AS chosen(version_id) CROSS JOIN LATERAL \
         (SELECT id, version_id, results, rating, low, high, matches FROM rating_snapshots \
          WHERE rating_snapshots.version_id = chosen.version_id ORDER BY id DESC LIMIT $2) AS latest \
         ORDER BY latest.version_id, latest.id",
        &[&versions, &i64::from(limit)],
    )?;
    rows.iter()
        .map(|row| {
            Ok(RatingPoint {
                version_id: row.try_get(0)?,
                results: row.try_get::<_, i64>(1)? as u64,
                rating: row.try_get(2)?,
                interval: [row.try_get(3)?, row.try_get(4)?],
                matches: row.try_get::<_, i64>(5)? as u64,
            })
        })
        .collect()
}

const WORKER_COLUMNS: &str = "name, key, trusted, suspect, results, audits, mismatches";

fn worker_of(row: &Row) -> Result<Worker, StoreError> {
    let count = |index: usize| -> Result<u64, StoreError> { Ok(row.try_get::<_, i64>(index)? as u64) };
    Ok(Worker {
        name: row.try_get(0)?,
        key: row.try_get(1)?,
        trusted: row.try_get(2)?,
        suspect: row.try_get(3)?,
        results: count(4)?,
        audits: count(5)?,
        mismatches: count(6)?,
    })
}

const AUDIT_COLUMNS: &str = "id, match_id, spec_id, worker, result, auditor, audit_result, state";

fn audit_of(row: &Row) -> Result<Audit, StoreError> {
    let state: String = row.try_get(7)?;
    Ok(Audit {
        id: row.try_get(0)?,
        match_id: row.try_get(1)?,
        spec_id: row.try_get(2)?,
        worker: row.try_get(3)?,
        result: row.try_get(4)?,
        auditor: row.try_get(5)?,
        audit_result: row.try_get(6)?,
        state: AuditState::parse(&state)?,
    })
}

/// Inserts queued matches (of `competition`, if one) with their seats; their ids.
fn insert_matches(
    tx: &mut Transaction<'_>,
    matches: &[NewMatch],
    now: i64,
    competition: Option<i64>,
) -> Result<Vec<i64>, StoreError> {
    // Prepared once for the whole batch (a round trip less per row).
    let insert_match = tx.prepare(
        "INSERT INTO matches (game, seed, kind, state, requested_by, requested, competition_id) \
         VALUES ($1, $2, $3, 'queued', $4, $5, $6) RETURNING id",
    )?;
    let insert_seat = tx.prepare("INSERT INTO match_seats (match_id, seat, version_id) VALUES ($1, $2, $3)")?;
    let mut ids = Vec::with_capacity(matches.len());
    for new in matches {
        let row = tx.query_one(
            &insert_match,
            &[&new.game, &(new.seed as i64), &new.kind.as_str(), &new.requested_by, &now, &competition],
        )?;
        let id: i64 = row.try_get(0)?;
        for (seat, version) in new.seats.iter().enumerate() {
            tx.execute(&insert_seat, &[&id, &(seat as i64), version])?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// The competitions `WHERE` selects (`$1` bound to `param`), with their entrants.
fn competitions_where(
    tx: &mut Transaction<'_>,
    clause: &str,
    param: Option<i64>,
) -> Result<Vec<Competition>, StoreError> {
    let sql = format!("SELECT {COMPETITION_COLUMNS} FROM competitions WHERE {clause} ORDER BY id DESC");
    let rows = tx.query(&sql, &[&param])?;
    let mut competitions = Vec::with_capacity(rows.len());
    for row in rows {
        let row: CompetitionRow = (
            row.try_get(0)?,
            row.try_get(1)?,
            row.try_get(2)?,
            row.try_get(3)?,
            row.try_get(4)?,
            row.try_get(5)?,
            row.try_get(6)?,
            row.try_get(7)?,
            row.try_get(8)?,
            row.try_get(9)?,
            row.try_get(10)?,
            row.try_get(11)?,
            row.try_get(12)?,
        );
        let entrants =
            tx.query("SELECT version_id FROM competition_entrants WHERE competition_id = $1 ORDER BY seed", &[&row.0])?;
        let versions = entrants.iter().map(|entrant| entrant.try_get(0)).collect::<Result<Vec<i64>, _>>()?;
        competitions.push(Competition::of_row(row, versions)?);
    }
    Ok(competitions)
}

fn count(row: &Row) -> Result<u64, StoreError> {
    let count: i64 = row.try_get(0)?;
    Ok(count as u64)
}

impl Store for PostgresStore {
    fn schema_version(&self) -> Result<i64, StoreError> {
        self.read(|tx| Ok(tx.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])?.try_get(0)?))
    }

    fn create_user(&self, name: &str, password_hash: &str, admin: bool) -> Result<User, StoreError> {
        self.write(|tx| {
            let row = tx
                .query_one(
                    "INSERT INTO users (name, password_hash, admin) VALUES ($1, $2, $3) RETURNING id",
                    &[&name, &password_hash, &admin],
                )
                .map_err(|err| taken_or(err, "account", name.to_owned()))?;
            Ok(User { id: row.try_get(0)?, name: name.to_owned(), password_hash: password_hash.to_owned(), admin })
        })
    }

    fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE name = $1");
        self.read(|tx| tx.query_opt(&sql, &[&name])?.as_ref().map(user_of).transpose())
    }

    fn user(&self, id: i64) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        self.read(|tx| tx.query_opt(&sql, &[&id])?.as_ref().map(user_of).transpose())
    }

    fn create_session(&self, user: i64, token_sha256: &str, csrf: &str, expires: i64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO sessions (token_sha256, user_id, csrf, expires) VALUES ($1, $2, $3, $4)",
                &[&token_sha256, &user, &csrf, &expires],
            )?;
            Ok(())
        })
    }

    fn session(&self, token_sha256: &str, now: i64) -> Result<Option<(User, String)>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS}, sessions.csrf FROM sessions JOIN users ON users.id = sessions.user_id \
             WHERE sessions.token_sha256 = $1 AND sessions.expires > $2"
        );
        self.read(|tx| {
            let Some(row) = tx.query_opt(&sql, &[&token_sha256, &now])? else { return Ok(None) };
            Ok(Some((user_of(&row)?, row.try_get(4)?)))
        })
    }

    fn delete_session(&self, token_sha256: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("DELETE FROM sessions WHERE token_sha256 = $1", &[&token_sha256])?;
            Ok(())
        })
    }

    fn create_token(&self, user: i64, token_sha256: &str, label: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO api_tokens (token_sha256, user_id, label) VALUES ($1, $2, $3)",
                &[&token_sha256, &user, &label],
            )?;
            Ok(())
        })
    }

    fn token_user(&self, token_sha256: &str) -> Result<Option<User>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM api_tokens JOIN users ON users.id = api_tokens.user_id \
             WHERE api_tokens.token_sha256 = $1"
        );
        self.read(|tx| tx.query_opt(&sql, &[&token_sha256])?.as_ref().map(user_of).transpose())
    }

    fn token_labels(&self, user: i64) -> Result<Vec<String>, StoreError> {
        self.read(|tx| {
            let rows = tx.query("SELECT label FROM api_tokens WHERE user_id = $1 ORDER BY id", &[&user])?;
            Ok(rows.iter().map(|row| row.try_get(0)).collect::<Result<_, _>>()?)
        })
    }

    fn bot_for_upload(&self, owner: i64, game: &str, name: &str) -> Result<Bot, StoreError> {
        let select = format!("SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.game = $1 AND bots.name = $2");
        self.write(|tx| {
            let mut existing = tx.query_opt(&select, &[&game, &name])?;
            if existing.is_none() {
                // Another node may be creating the same bot: the insert waits for it and keeps
                // its row, which the next statement sees.
                tx.execute(
                    "INSERT INTO bots (owner, game, name) VALUES ($1, $2, $3) ON CONFLICT (game, name) DO NOTHING",
                    &[&owner, &game, &name],
                )?;
                existing = tx.query_opt(&select, &[&game, &name])?;
            }
            let Some(row) = existing else {
                return Err(StoreError::Postgres(format!("the bot {game}/{name} is missing right after its insert")));
            };
            let bot = bot_of(&row)?;
            if bot.owner != owner {
                return Err(StoreError::Taken { what: "bot name", name: format!("{game}/{name}") });
            }
            Ok(bot)
        })
    }

    fn bot(&self, id: i64) -> Result<Option<Bot>, StoreError> {
        self.read(|tx| bot_by_id(tx, id))
    }

    fn bots_of_game(&self, game: &str) -> Result<Vec<Bot>, StoreError> {
        self.read(|tx| bots_of_game(tx, game))
    }

    fn bots_of_owner(&self, owner: i64) -> Result<Vec<Bot>, StoreError> {
        let sql = format!(
            "SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.owner = $1 \
             ORDER BY bots.game COLLATE \"C\", bots.name COLLATE \"C\""
        );
        self.read(|tx| bots_of(tx.query(&sql, &[&owner])?))
    }

    fn set_bot_disabled(&self, bot: i64, disabled: bool) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("UPDATE bots SET disabled = $2 WHERE id = $1", &[&bot, &disabled])?;
            Ok(())
        })
    }

    fn set_bot_private(&self, bot: i64, private: bool) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("UPDATE bots SET private = $2 WHERE id = $1", &[&bot, &private])?;
            Ok(())
        })
    }

    fn bots_with_file(&self, sha256: &str) -> Result<Vec<Bot>, StoreError> {
        let sql = format!(
            "SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id IN (SELECT bot_id FROM versions WHERE sha256 = $1) \
             ORDER BY bots.id"
        );
        self.read(|tx| bots_of(tx.query(&sql, &[&sha256])?))
    }

    fn bots_with_data(&self, digest: &str) -> Result<Vec<Bot>, StoreError> {
        let sql = format!(
            "SELECT {BOT_COLUMNS} FROM {BOT_FROM} WHERE bots.id IN \
             (SELECT bot_id FROM versions WHERE data_digest = $1 AND data_digest <> '') ORDER BY bots.id"
        );
        self.read(|tx| bots_of(tx.query(&sql, &[&digest])?))
    }

    fn add_version(
        &self,
        bot: i64,
        sha256: &str,
        data: Option<&str>,
        size: i64,
        now: i64,
    ) -> Result<(Version, bool), StoreError> {
        let select =
            format!("SELECT {VERSION_COLUMNS} FROM versions WHERE bot_id = $1 AND sha256 = $2 AND data_digest = $3");
        let digest = data.unwrap_or_default();
        self.write(|tx| {
            if let Some(row) = tx.query_opt(&select, &[&bot, &sha256, &digest])? {
                return Ok((version_of(&row)?, false));
            }
            let inserted = tx.query_opt(
                "INSERT INTO versions (bot_id, sha256, size, status, uploaded, data_digest) \
                 VALUES ($1, $2, $3, 'pending', $4, $5) \
                 ON CONFLICT (bot_id, sha256, data_digest) DO NOTHING RETURNING id",
                &[&bot, &sha256, &size, &now, &digest],
            )?;
            let Some(inserted) = inserted else {
                // The same file and data uploaded at the same moment through another node: its version.
                let row = tx.query_one(&select, &[&bot, &sha256, &digest])?;
                return Ok((version_of(&row)?, false));
            };
            let pending = Version::pending(inserted.try_get(0)?, bot, sha256, size);
            Ok((Version { data_digest: data.map(str::to_owned), ..pending }, true))
        })
    }

    fn uploads_since(&self, owner: i64, since: i64) -> Result<u64, StoreError> {
        self.read(|tx| {
            count(&tx.query_one(
                "SELECT COUNT(*) FROM versions JOIN bots ON bots.id = versions.bot_id \
                 WHERE bots.owner = $1 AND versions.uploaded >= $2",
                &[&owner, &since],
            )?)
        })
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
        self.write(|tx| {
            let updated = tx.execute(
                "UPDATE versions SET status = $2, reason = $3, steps = $4 WHERE id = $1 AND status = 'pending'",
                &[&version, &status.as_str(), &reason, &steps],
            )?;
            Ok(updated == 1)
        })
    }

    fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE id = $1");
        self.read(|tx| tx.query_opt(&sql, &[&id])?.as_ref().map(version_of).transpose())
    }

    fn versions_of_bot(&self, bot: i64) -> Result<Vec<Version>, StoreError> {
        self.read(|tx| versions_of_bot(tx, bot))
    }

    fn pending_versions(&self) -> Result<Vec<Version>, StoreError> {
        let sql = format!("SELECT {VERSION_COLUMNS} FROM versions WHERE status = 'pending' ORDER BY id");
        self.read(|tx| versions_of(tx.query(&sql, &[])?))
    }

    fn pending_versions_before(&self, before: i64) -> Result<Vec<Version>, StoreError> {
        let sql =
            format!("SELECT {VERSION_COLUMNS} FROM versions WHERE status = 'pending' AND uploaded < $1 ORDER BY id");
        self.read(|tx| versions_of(tx.query(&sql, &[&before])?))
    }

    fn enqueue(&self, matches: &[NewMatch], now: i64) -> Result<Vec<i64>, StoreError> {
        self.write(|tx| insert_matches(tx, matches, now, None))
    }

    fn scrimmages_since(&self, user: i64, since: i64) -> Result<u64, StoreError> {
        self.read(|tx| {
            count(&tx.query_one(
                "SELECT COUNT(*) FROM matches WHERE requested_by = $1 AND kind = 'scrimmage' AND requested >= $2",
                &[&user, &since],
            )?)
        })
    }

    fn claim(&self, worker: &str, lease_until: i64) -> Result<Option<Match>, StoreError> {
        // The row chosen is locked until the transaction ends; other nodes skip it and take the
        // next one rather than wait for it (and then find it running).
        let sql = format!(
            "UPDATE matches SET state = 'running', claimed_by = $1, lease_until = $2 WHERE id = \
             (SELECT id FROM matches WHERE state = 'queued' \
              ORDER BY CASE kind WHEN 'scrimmage' THEN 0 WHEN 'competition' THEN 1 ELSE 2 END, id LIMIT 1 FOR UPDATE SKIP LOCKED) \
             RETURNING {MATCH_COLUMNS}"
        );
        self.write(|tx| {
            let Some(row) = tx.query_opt(&sql, &[&worker, &lease_until])? else { return Ok(None) };
            Ok(matches_of(tx, vec![row])?.pop())
        })
    }

    fn finish_match(&self, id: i64, finished: &Finished) -> Result<bool, StoreError> {
        let outcomes = finished
            .outcomes
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| StoreError::Corrupt { what: "seat outcome", detail: err.to_string() })?;
        self.write(|tx| {
            // A node finishing the same match at once waits for this row, then finds it done.
            let updated = tx.execute(
                "UPDATE matches SET state = 'done', winner = $2, turns = $3, replay_sha256 = $4, digest = $5, \
                 claimed_by = NULL WHERE id = $1 AND state <> 'done'",
                &[
                    &id,
                    &finished.winner.map(i64::from),
                    &i64::from(finished.turns),
                    &finished.replay_sha256,
                    &finished.digest,
                ],
            )?;
            if updated == 0 {
                return Ok(false);
            }
            let update_seat = tx.prepare("UPDATE match_seats SET outcome = $3 WHERE match_id = $1 AND seat = $2")?;
            for (seat, outcome) in outcomes.iter().enumerate() {
                tx.execute(&update_seat, &[&id, &(seat as i64), outcome])?;
            }
            Ok(true)
        })
    }

    fn set_replay(&self, id: i64, replay_sha256: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("UPDATE matches SET replay_sha256 = $2 WHERE id = $1", &[&id, &replay_sha256])?;
            Ok(())
        })
    }

    fn fail_match(&self, id: i64, error: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE matches SET state = 'failed', error = $2, claimed_by = NULL WHERE id = $1 AND state <> 'done'",
                &[&id, &error],
            )?;
            Ok(())
        })
    }

    fn requeue_failed(&self, id: i64) -> Result<bool, StoreError> {
        self.write(|tx| {
            let requeued = tx.execute(
                "UPDATE matches SET state = 'queued', error = NULL, claimed_by = NULL WHERE id = $1 AND state = 'failed'",
                &[&id],
            )?;
            Ok(requeued == 1)
        })
    }

    fn renew_leases(&self, node: &str, until: i64) -> Result<u64, StoreError> {
        let pattern = format!("{node}/%");
        self.write(|tx| {
            Ok(tx.execute(
                "UPDATE matches SET lease_until = $2 WHERE state = 'running' AND claimed_by LIKE $1",
                &[&pattern, &until],
            )?)
        })
    }

    fn requeue_lapsed(&self, now: i64) -> Result<u64, StoreError> {
        self.write(|tx| {
            Ok(tx.execute(
                "UPDATE matches SET state = 'queued', claimed_by = NULL \
                 WHERE state = 'running' AND (lease_until IS NULL OR lease_until < $1)",
                &[&now],
            )?)
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn set_spec_id(&self, id: i64, spec_id: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("UPDATE matches SET spec_id = $2 WHERE id = $1", &[&id, &spec_id])?;
            Ok(())
        })
    }

    fn unfinished_with_spec(&self, spec_id: &str) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE spec_id = $1 AND state IN ('queued', 'running') ORDER BY id"
        );
        self.read(|tx| {
            let rows = tx.query(&sql, &[&spec_id])?;
            matches_of(tx, rows)
        })
    }

    fn add_worker(&self, name: &str, key: &str, trusted: bool) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("INSERT INTO workers (name, key, trusted) VALUES ($1, $2, $3)", &[&name, &key, &trusted])
                .map_err(|err| taken_or(err, "worker", name.to_owned()))?;
            Ok(())
        })
    }

    fn worker(&self, name: &str) -> Result<Option<Worker>, StoreError> {
        let sql = format!("SELECT {WORKER_COLUMNS} FROM workers WHERE name = $1");
        self.read(|tx| tx.query_opt(&sql, &[&name])?.as_ref().map(worker_of).transpose())
    }

    fn workers(&self) -> Result<Vec<Worker>, StoreError> {
        let sql = format!("SELECT {WORKER_COLUMNS} FROM workers ORDER BY name COLLATE \"C\"");
        self.read(|tx| tx.query(&sql, &[])?.iter().map(worker_of).collect())
    }

    fn tally_worker(
        &self,
        name: &str,
        [results, audits, mismatches]: [u64; 3],
        suspect: Option<bool>,
    ) -> Result<Option<Worker>, StoreError> {
        let sql = format!(
            "UPDATE workers SET results = results + $2, audits = audits + $3, mismatches = mismatches + $4, \
             suspect = COALESCE($5, suspect) WHERE name = $1 RETURNING {WORKER_COLUMNS}"
        );
        let counts = [results as i64, audits as i64, mismatches as i64];
        self.write(|tx| {
            tx.query_opt(&sql, &[&name, &counts[0], &counts[1], &counts[2], &suspect])?
                .as_ref()
                .map(worker_of)
                .transpose()
        })
    }

    fn open_audit(&self, match_id: i64, spec_id: &str, worker: &str, result: &str) -> Result<i64, StoreError> {
        self.write(|tx| {
            let row = tx.query_one(
                "INSERT INTO audits (match_id, spec_id, worker, result, state) VALUES ($1, $2, $3, $4, 'pending') \
                 RETURNING id",
                &[&match_id, &spec_id, &worker, &result],
            )?;
            Ok(row.try_get(0)?)
        })
    }

    fn open_audit_for_spec(&self, spec_id: &str) -> Result<Option<Audit>, StoreError> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audits WHERE spec_id = $1 AND state IN ('pending', 'disputed') \
             ORDER BY id LIMIT 1"
        );
        self.read(|tx| tx.query_opt(&sql, &[&spec_id])?.as_ref().map(audit_of).transpose())
    }

    fn update_audit(
        &self,
        id: i64,
        state: AuditState,
        auditor: Option<&str>,
        audit_result: Option<&str>,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE audits SET state = $2, auditor = COALESCE($3, auditor), \
                 audit_result = COALESCE($4, audit_result) WHERE id = $1",
                &[&id, &state.as_str(), &auditor, &audit_result],
            )?;
            Ok(())
        })
    }

    fn audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError> {
        let sql = format!("SELECT {AUDIT_COLUMNS} FROM audits ORDER BY id DESC LIMIT $1");
        self.read(|tx| tx.query(&sql, &[&i64::from(limit)])?.iter().map(audit_of).collect())
    }

    fn disagreed_audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audits WHERE state IN ('disputed', 'decided', 'undecided') \
             ORDER BY id DESC LIMIT $1"
        );
        self.read(|tx| tx.query(&sql, &[&i64::from(limit)])?.iter().map(audit_of).collect())
    }

    fn set_disputed(&self, match_id: i64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("UPDATE matches SET state = 'disputed' WHERE id = $1 AND state = 'done'", &[&match_id])?;
            Ok(())
        })
    }

    fn requeue_running(&self) -> Result<u64, StoreError> {
        self.write(|tx| {
            Ok(tx.execute("UPDATE matches SET state = 'queued', claimed_by = NULL WHERE state = 'running'", &[])?)
        })
    }

    fn match_by_id(&self, id: i64) -> Result<Option<Match>, StoreError> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1");
        self.read(|tx| {
            let Some(row) = tx.query_opt(&sql, &[&id])? else { return Ok(None) };
            Ok(matches_of(tx, vec![row])?.pop())
        })
    }

    fn recent_matches(&self, game: Option<&str>, limit: u32) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE state = 'done' AND ($1::TEXT IS NULL OR game = $1) \
             AND kind <> 'competition' \
             ORDER BY id DESC LIMIT $2"
        );
        self.read(|tx| {
            let rows = tx.query(&sql, &[&game, &i64::from(limit)])?;
            matches_of(tx, rows)
        })
    }

    fn matches_of_version(&self, version: i64, limit: u32) -> Result<Vec<Match>, StoreError> {
        self.read(|tx| latest_matches(tx, &[version], limit))
    }

    fn ranked_results_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = $1 AND kind = 'ranked' AND state = 'done' AND id > $2 \
             ORDER BY id LIMIT $3"
        );
        self.read(|tx| {
            let rows = tx.query(&sql, &[&game, &after, &i64::from(limit)])?;
            matches_of(tx, rows)
        })
    }

    fn ranked_tables_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<(i64, Vec<i64>)>, StoreError> {
        self.read(|tx| {
            let rows = tx.query(
                "SELECT s.match_id, s.version_id FROM match_seats s WHERE s.match_id IN \
                 (SELECT id FROM matches WHERE game = $1 AND kind = 'ranked' AND id > $2 ORDER BY id LIMIT $3) \
                 ORDER BY s.match_id, s.seat",
                &[&game, &after, &i64::from(limit)],
            )?;
            tables_of(rows.iter().map(|row| Ok::<_, StoreError>((row.try_get(0)?, row.try_get(1)?))))
        })
    }

    fn ranked_pending(&self, game: &str) -> Result<Vec<Match>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE game = $1 AND kind = 'ranked' \
             AND state IN ('queued', 'running', 'disputed') \
             ORDER BY id"
        );
        self.read(|tx| {
            let rows = tx.query(&sql, &[&game])?;
            matches_of(tx, rows)
        })
    }

    fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        self.read(|tx| {
            let row = tx.query_one(
                "SELECT COUNT(*) FILTER (WHERE state = 'queued'), COUNT(*) FILTER (WHERE state = 'running'), \
                 COUNT(*) FILTER (WHERE state = 'done') FROM matches",
                &[],
            )?;
            let (queued, running, done): (i64, i64, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
            Ok(QueueCounts { queued: queued as u64, running: running as u64, done: done as u64 })
        })
    }

    fn bot_names(&self, versions: &[i64]) -> Result<BTreeMap<i64, String>, StoreError> {
        self.read(|tx| bot_names(tx, versions))
    }

    fn bot_page(&self, id: i64, matches: u32, ratings: u32) -> Result<Option<BotPage>, StoreError> {
        self.read(|tx| {
            let Some(bot) = bot_by_id(tx, id)? else { return Ok(None) };
            let versions = versions_of_bot(tx, id)?;
            let ids: Vec<i64> = versions.iter().map(|version| version.id).collect();
            let found = latest_matches(tx, &ids, matches)?;
            let seated: Vec<i64> = found.iter().flat_map(|one| one.seats.iter().map(|seat| seat.version_id)).collect();
            let names = bot_names(tx, &seated)?;
            let opponents = bots_of_game(tx, &bot.game)?.into_iter().filter(|other| other.id != id).collect();
            let points = latest_points(tx, &ids, ratings)?;
            Ok(Some(BotPage { bot, versions, matches: found, names, opponents, ratings: points }))
        })
    }

    fn record_ratings(&self, points: &[RatingPoint]) -> Result<u64, StoreError> {
        let ids: Vec<i64> = points.iter().map(|point| point.version_id).collect();
        self.write(|tx| {
            let last: BTreeMap<i64, RatingPoint> =
                latest_points(tx, &ids, 1)?.into_iter().map(|point| (point.version_id, point)).collect();
            let kept: Vec<&RatingPoint> =
                points.iter().filter(|point| point.worth_keeping(last.get(&point.version_id))).collect();
            if kept.is_empty() {
                return Ok(0);
            }
            // One statement for them all: a column of each.
            let column = |of: fn(&RatingPoint) -> i64| kept.iter().map(|point| of(point)).collect::<Vec<i64>>();
            let real = |of: fn(&RatingPoint) -> f64| kept.iter().map(|point| of(point)).collect::<Vec<f64>>();
            tx.execute(
                "INSERT INTO rating_snapshots (version_id, results, rating, low, high, matches) \
                 SELECT * FROM unnest($1::BIGINT[], $2::BIGINT[], $3::FLOAT8[], $4::FLOAT8[], $5::FLOAT8[], $6::BIGINT[])",
                &[
                    &column(|point| point.version_id),
                    &column(|point| point.results as i64),
                    &real(|point| point.rating),
                    &real(|point| point.interval[0]),
                    &real(|point| point.interval[1]),
                    &column(|point| point.matches as i64),
                ],
            )?;
            Ok(kept.len() as u64)
        })
    }

    fn set_frozen(&self, game: &str, frozen: bool) -> Result<(), StoreError> {
        let sql = if frozen {
            "INSERT INTO frozen_games (game) VALUES ($1) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM frozen_games WHERE game = $1"
        };
        self.write(|tx| {
            tx.execute(sql, &[&game])?;
            Ok(())
        })
    }

    fn frozen_games(&self) -> Result<Vec<String>, StoreError> {
        self.read(|tx| {
            let rows = tx.query("SELECT game FROM frozen_games ORDER BY game COLLATE \"C\"", &[])?;
            Ok(rows.iter().map(|row| row.try_get(0)).collect::<Result<_, _>>()?)
        })
    }

    fn create_competition(&self, new: &NewCompetition, now: i64) -> Result<i64, StoreError> {
        self.write(|tx| {
            let row = tx.query_one(
                "INSERT INTO competitions (game, name, format, deadline, seeds, state, release, created, rounds, pool) \
                 VALUES ($1, $2, $3, $4, $5, 'open', 'hidden', $6, $7, $8) RETURNING id",
                &[
                    &new.game,
                    &new.name,
                    &new.format.as_str(),
                    &new.deadline,
                    &i64::from(new.seeds),
                    &now,
                    &new.rounds.map(i64::from),
                    &new.pool_column(),
                ],
            )?;
            Ok(row.try_get(0)?)
        })
    }

    fn competition(&self, id: i64) -> Result<Option<Competition>, StoreError> {
        self.read(|tx| Ok(competitions_where(tx, "id = $1", Some(id))?.pop()))
    }

    fn competitions(&self) -> Result<Vec<Competition>, StoreError> {
        self.read(|tx| competitions_where(tx, "$1::BIGINT IS NULL", None))
    }

    fn set_competition_release(&self, id: i64, release: Release, rounds: Option<u32>) -> Result<bool, StoreError> {
        self.write(|tx| {
            let updated = tx.execute(
                "UPDATE competitions SET release = $2, released_rounds = $3 WHERE id = $1",
                &[&id, &release.as_str(), &rounds.map(i64::from)],
            )?;
            Ok(updated == 1)
        })
    }

    fn start_competition(
        &self,
        id: i64,
        entrants: &[i64],
        bracket: Option<&str>,
        matches: &[NewMatch],
        now: i64,
    ) -> Result<bool, StoreError> {
        self.write(|tx| {
            let started = tx.execute(
                "UPDATE competitions SET state = 'running', bracket = $2 WHERE id = $1 AND state = 'open'",
                &[&id, &bracket],
            )?;
            if started == 0 {
                return Ok(false);
            }
            for (seed, version) in entrants.iter().enumerate() {
                tx.execute(
                    "INSERT INTO competition_entrants (competition_id, version_id, seed) VALUES ($1, $2, $3)",
                    &[&id, version, &(seed as i64)],
                )?;
            }
            insert_matches(tx, matches, now, Some(id))?;
            Ok(true)
        })
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
        let state = if done { "done" } else { "running" };
        self.write(|tx| {
            let moved = tx.execute(
                "UPDATE competitions SET bracket = $3, state = $4 \
                 WHERE id = $1 AND state = 'running' AND bracket IS NOT DISTINCT FROM $2",
                &[&id, &from, &to, &state],
            )?;
            if moved == 0 {
                return Ok(false);
            }
            insert_matches(tx, matches, now, Some(id))?;
            Ok(true)
        })
    }

    fn competition_matches(&self, id: i64) -> Result<Vec<Match>, StoreError> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE competition_id = $1 ORDER BY id");
        self.read(|tx| {
            let rows = tx.query(&sql, &[&id])?;
            matches_of(tx, rows)
        })
    }

    fn competition_of_match(&self, id: i64) -> Result<Option<i64>, StoreError> {
        self.read(|tx| {
            let row = tx.query_opt("SELECT competition_id FROM matches WHERE id = $1", &[&id])?;
            Ok(row.map(|row| row.try_get::<_, Option<i64>>(0)).transpose()?.flatten())
        })
    }

    fn audit(&self, actor: &str, action: &str, detail: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("INSERT INTO audit (actor, action, detail) VALUES ($1, $2, $3)", &[&actor, &action, &detail])?;
            Ok(())
        })
    }

    fn audit_log(&self) -> Result<Vec<(String, String, String)>, StoreError> {
        self.read(|tx| {
            let rows = tx.query("SELECT actor, action, detail FROM audit ORDER BY id", &[])?;
            rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?))).collect()
        })
    }
}
