//! The results database: SQLite (bundled into the binary), one transaction per finished match,
//! in WAL mode so that `arena tournament show` reads it while a run writes, and a run killed at
//! any moment leaves every committed match and nothing half-written.
//!
//! Tables: `bots` (by sha256), `plans` and `plan_bots` (which match ids and bots each SPEC
//! plans, tagged with the SPEC's digest, so results of an earlier SPEC stay and are told apart), `matches` (one row per
//! finished match: its canonical spec, whether it was played, its result and replay digest) and
//! `seats` (one row per seat of a played match: the figures the leaderboard sums).

use super::plan::{Plan, PlanBot, PlannedMatch};
use crate::record::MatchResult;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeSet;
use std::path::Path;

/// The schema; `user_version` tells a database of this layout.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, load_error TEXT);
CREATE TABLE IF NOT EXISTS plan_bots (
    spec_digest TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (spec_digest, sha256));
CREATE TABLE IF NOT EXISTS plans (
    spec_digest TEXT NOT NULL, match_id TEXT NOT NULL, ordinal INTEGER NOT NULL,
    PRIMARY KEY (spec_digest, match_id));
CREATE TABLE IF NOT EXISTS matches (
    row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, spec TEXT NOT NULL, played INTEGER NOT NULL,
    detail TEXT, turns INTEGER, winner INTEGER, result TEXT, replay_sha256 TEXT);
CREATE TABLE IF NOT EXISTS seats (
    match_row INTEGER NOT NULL REFERENCES matches (row), seat INTEGER NOT NULL, sha256 TEXT NOT NULL,
    score INTEGER NOT NULL, rank INTEGER NOT NULL, forfeit INTEGER NOT NULL, traps INTEGER NOT NULL,
    invalid_actions INTEGER NOT NULL, skipped_turns INTEGER NOT NULL, fuel_total INTEGER NOT NULL,
    fuel_max_turn INTEGER NOT NULL, turns INTEGER NOT NULL, PRIMARY KEY (match_row, seat)) WITHOUT ROWID;
";

/// The layout version, in SQLite's `user_version`. Layout 2: seats are keyed by their match's
/// row number, not its id, so recording a match appends to both tables instead of inserting
/// into the middle of two indexes keyed by random hashes (one page written per table per
/// match, not four: measured by the `tournament` bench section).
const LAYOUT: i64 = 2;

/// A database error, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {source}")]
pub struct StoreError {
    what: String,
    source: rusqlite::Error,
}

trait Context<T> {
    fn doing(self, what: &str) -> Result<T, StoreError>;
}

impl<T> Context<T> for Result<T, rusqlite::Error> {
    fn doing(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|source| StoreError { what: what.to_owned(), source })
    }
}

/// One seat of a played match, as the leaderboard reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatRow {
    /// The match.
    pub match_id: String,
    /// The seat.
    pub seat: u32,
    /// The bot.
    pub sha256: String,
    /// Final score.
    pub score: i64,
    /// Placement, 1 = first.
    pub rank: u32,
    /// Forfeited.
    pub forfeit: bool,
    /// Traps.
    pub traps: u32,
    /// Invalid actions.
    pub invalid_actions: u32,
    /// Skipped turns.
    pub skipped_turns: u32,
    /// Fuel over the match.
    pub fuel_total: u64,
    /// Largest turn.
    pub fuel_max_turn: u64,
    /// Turns it was asked to play.
    pub turns: u32,
}

/// How one planned match ended.
pub enum Outcome<'a> {
    /// Played: the result, each seat's turn count, the replay's sha256.
    Played {
        /// The result.
        result: &'a MatchResult,
        /// Turns per seat.
        seat_turns: &'a [u32],
        /// sha256 of the replay JSON, hex: what a merge compares.
        replay_sha256: &'a str,
    },
    /// Not played (a bot failed to load, or the match could not run), and why.
    NotPlayed(&'a str),
}

/// A finished match as stored, with its seats: what a merge copies and compares.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMatch {
    /// The match id.
    pub id: String,
    /// Its canonical spec (JSON).
    pub spec: String,
    /// Played or not.
    pub played: bool,
    /// Why not played.
    pub detail: Option<String>,
    /// Turns.
    pub turns: Option<i64>,
    /// Winning seat.
    pub winner: Option<i64>,
    /// The result (JSON).
    pub result: Option<String>,
    /// sha256 of the replay.
    pub replay_sha256: Option<String>,
    /// Its seats.
    pub seats: Vec<SeatRow>,
}

/// A database's current tournament: its digest, planned match ids in plan order, bots
/// (sha256, name, path, load error) and the shard it played (`meta` key `shard`, `I/N`).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPlan {
    /// The SPEC digest.
    pub digest: String,
    /// Match ids in plan order.
    pub match_ids: Vec<String>,
    /// Its bots.
    pub bots: Vec<(String, String, String, Option<String>)>,
    /// The shard a `run-plan` played, as written.
    pub shard: Option<String>,
}

/// An open results database.
pub struct Store {
    connection: Connection,
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let connection = Connection::open(path).doing(&format!("opening {}", path.display()))?;
        // WAL: readers (`show`) never block the writer; NORMAL sync is durable against a killed
        // process (only a power cut may lose the last commits, never corrupt the file).
        connection.pragma_update(None, "journal_mode", "WAL").doing("setting WAL mode")?;
        connection.pragma_update(None, "synchronous", "NORMAL").doing("setting synchronous")?;
        connection.busy_timeout(std::time::Duration::from_secs(30)).doing("setting the busy timeout")?;
        // A page cache for the whole index of match ids (64 bytes each): every recorded match
        // inserts into it at a random place, and a small cache reads the page back from the file
        // first (the default cache is 2 MiB, 512 pages).
        connection.pragma_update(None, "cache_size", -65_536).doing("setting the cache size")?;
        let layout: i64 =
            connection.pragma_query_value(None, "user_version", |row| row.get(0)).doing("reading the layout")?;
        if layout != 0 && layout != LAYOUT {
            return Err(StoreError {
                what: format!("{} has layout {layout}, this arena reads {LAYOUT}", path.display()),
                source: rusqlite::Error::InvalidQuery,
            });
        }
        connection.execute_batch(SCHEMA).doing("creating the tables")?;
        connection.pragma_update(None, "user_version", LAYOUT).doing("recording the layout")?;
        Ok(Store { connection })
    }

    /// Records the bots and the plan of a SPEC (digest `spec_digest`), in one transaction, and
    /// makes it the current one (the one `show` reports).
    pub fn record_plan(&mut self, spec_digest: &str, plan: &Plan) -> Result<(), StoreError> {
        let tx = self.connection.transaction().doing("starting a transaction")?;
        for bot in &plan.bots {
            tx.execute(
                "INSERT INTO bots (sha256, name, path) VALUES (?1, ?2, ?3)
                 ON CONFLICT(sha256) DO UPDATE SET name = excluded.name, path = excluded.path",
                params![bot.sha256, bot.name, bot.path.display().to_string()],
            )
            .doing("recording a bot")?;
            tx.execute(
                "INSERT OR IGNORE INTO plan_bots (spec_digest, sha256) VALUES (?1, ?2)",
                params![spec_digest, bot.sha256],
            )
            .doing("recording a plan's bot")?;
        }
        for (ordinal, planned) in plan.matches.iter().enumerate() {
            tx.execute(
                "INSERT OR IGNORE INTO plans (spec_digest, match_id, ordinal) VALUES (?1, ?2, ?3)",
                params![spec_digest, planned.id, ordinal as i64],
            )
            .doing("recording the plan")?;
        }
        tx.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current_spec', ?1)", params![spec_digest])
            .doing("recording the current SPEC")?;
        tx.commit().doing("committing the plan")
    }

    /// Records why a bot could not be loaded.
    pub fn record_load_error(&self, bot: &PlanBot, error: &str) -> Result<(), StoreError> {
        self.connection
            .execute("UPDATE bots SET load_error = ?2 WHERE sha256 = ?1", params![bot.sha256, error])
            .doing("recording a load error")
            .map(drop)
    }

    /// The ids of every finished match (played or not), whatever SPEC planned it.
    pub fn finished_ids(&self) -> Result<BTreeSet<String>, StoreError> {
        let mut statement = self.connection.prepare("SELECT id FROM matches").doing("reading finished matches")?;
        let ids = statement.query_map([], |row| row.get::<_, String>(0)).doing("reading finished matches")?;
        ids.collect::<Result<_, _>>().doing("reading finished matches")
    }

    /// Records one finished match and its seats in one transaction; a match already recorded is
    /// left as it is (returns false).
    pub fn record_match(&mut self, planned: &PlannedMatch, outcome: Outcome<'_>) -> Result<bool, StoreError> {
        let spec = serde_json::to_string(&planned.spec).unwrap_or_default();
        let tx = self.connection.transaction().doing("starting a transaction")?;
        let inserted = match &outcome {
            // Cached statements: a tournament records thousands of matches through the same few.
            Outcome::Played { result, replay_sha256, .. } => tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO matches (id, spec, played, turns, winner, result, replay_sha256)
                 VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6)",
                )
                .and_then(|mut statement| {
                    statement.execute(params![
                        planned.id,
                        spec,
                        result.turns,
                        result.winner.map(|seat| seat as i64),
                        serde_json::to_string(result).unwrap_or_default(),
                        replay_sha256
                    ])
                }),
            Outcome::NotPlayed(detail) => tx.execute(
                "INSERT OR IGNORE INTO matches (id, spec, played, detail) VALUES (?1, ?2, 0, ?3)",
                params![planned.id, spec, detail],
            ),
        }
        .doing("recording a match")?;
        if inserted == 0 {
            return Ok(false);
        }
        let match_row = tx.last_insert_rowid();
        if let Outcome::Played { result, seat_turns, .. } = outcome {
            for (seat, player) in result.players.iter().enumerate() {
                let row = SeatRow {
                    match_id: planned.id.clone(),
                    seat: seat as u32,
                    sha256: player.sha256.clone(),
                    score: player.score,
                    rank: player.rank,
                    forfeit: player.forfeit,
                    traps: player.traps,
                    invalid_actions: player.invalid_actions,
                    skipped_turns: player.skipped_turns,
                    fuel_total: player.fuel_total,
                    fuel_max_turn: player.fuel_max_turn,
                    turns: seat_turns.get(seat).copied().unwrap_or(0),
                };
                insert_seat(&tx, match_row, &row)?;
            }
        }
        tx.commit().doing("committing a match")?;
        Ok(true)
    }

    /// Records which shard of the plan this database plays (`I/N`).
    pub fn record_shard(&self, shard: &str) -> Result<(), StoreError> {
        self.connection
            .execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('shard', ?1)", params![shard])
            .doing("recording the shard")
            .map(drop)
    }

    /// Records the folder a run keeps its replays in (for `arena tournament report`).
    pub fn record_replays_dir(&self, dir: &Path) -> Result<(), StoreError> {
        self.connection
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('replays', ?1)",
                params![dir.display().to_string()],
            )
            .doing("recording the replay folder")
            .map(drop)
    }

    /// The folder the last run with `--replays` kept its replays in.
    pub fn replays_dir(&self) -> Result<Option<std::path::PathBuf>, StoreError> {
        self.connection
            .query_row("SELECT value FROM meta WHERE key = 'replays'", [], |row| row.get::<_, String>(0))
            .optional()
            .doing("reading the replay folder")
            .map(|dir| dir.map(std::path::PathBuf::from))
    }

    /// The current tournament's plan, if a run recorded one.
    pub fn stored_plan(&self) -> Result<Option<StoredPlan>, StoreError> {
        let Some(digest) = self.current_spec()? else { return Ok(None) };
        let mut statement = self
            .connection
            .prepare("SELECT match_id FROM plans WHERE spec_digest = ?1 ORDER BY ordinal")
            .doing("reading the plan")?;
        let match_ids = statement
            .query_map(params![digest], |row| row.get(0))
            .doing("reading the plan")?
            .collect::<Result<_, _>>()
            .doing("reading the plan")?;
        let mut statement = self
            .connection
            .prepare(
                "SELECT b.sha256, b.name, b.path, b.load_error FROM bots b JOIN plan_bots p ON p.sha256 = b.sha256
                 WHERE p.spec_digest = ?1 ORDER BY b.sha256",
            )
            .doing("reading the bots")?;
        let bots = statement
            .query_map(params![digest], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
            .doing("reading the bots")?
            .collect::<Result<_, _>>()
            .doing("reading the bots")?;
        let shard = self
            .connection
            .query_row("SELECT value FROM meta WHERE key = 'shard'", [], |row| row.get(0))
            .optional()
            .doing("reading the shard")?;
        Ok(Some(StoredPlan { digest, match_ids, bots, shard }))
    }

    /// Writes a merged plan: its bots, match ids and digest, as the current tournament.
    pub fn write_plan(&mut self, plan: &StoredPlan) -> Result<(), StoreError> {
        let tx = self.connection.transaction().doing("starting a transaction")?;
        for (sha256, name, path, load_error) in &plan.bots {
            tx.execute(
                "INSERT INTO bots (sha256, name, path, load_error) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(sha256) DO UPDATE SET load_error = COALESCE(bots.load_error, excluded.load_error)",
                params![sha256, name, path, load_error],
            )
            .doing("recording a bot")?;
            tx.execute(
                "INSERT OR IGNORE INTO plan_bots (spec_digest, sha256) VALUES (?1, ?2)",
                params![plan.digest, sha256],
            )
            .doing("recording a plan's bot")?;
        }
        for (ordinal, id) in plan.match_ids.iter().enumerate() {
            tx.execute(
                "INSERT OR IGNORE INTO plans (spec_digest, match_id, ordinal) VALUES (?1, ?2, ?3)",
                params![plan.digest, id, ordinal as i64],
            )
            .doing("recording the plan")?;
        }
        tx.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current_spec', ?1)", params![plan.digest])
            .doing("recording the current SPEC")?;
        tx.commit().doing("committing the plan")
    }

    /// Every finished match with its seats, by id.
    pub fn stored_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let mut statement = self
            .connection
            .prepare("SELECT id, spec, played, detail, turns, winner, result, replay_sha256 FROM matches ORDER BY id")
            .doing("reading matches")?;
        let mut matches: Vec<StoredMatch> = statement
            .query_map([], |row| {
                Ok(StoredMatch {
                    id: row.get(0)?,
                    spec: row.get(1)?,
                    played: row.get(2)?,
                    detail: row.get(3)?,
                    turns: row.get(4)?,
                    winner: row.get(5)?,
                    result: row.get(6)?,
                    replay_sha256: row.get(7)?,
                    seats: Vec::new(),
                })
            })
            .doing("reading matches")?
            .collect::<Result<_, _>>()
            .doing("reading matches")?;
        let mut statement = self
            .connection
            .prepare(
                "SELECT m.id, s.seat, s.sha256, s.score, s.rank, s.forfeit, s.traps, s.invalid_actions, s.skipped_turns,
                        s.fuel_total, s.fuel_max_turn, s.turns
                 FROM seats s JOIN matches m ON m.row = s.match_row ORDER BY m.id, s.seat",
            )
            .doing("reading seats")?;
        let seats: Vec<SeatRow> = statement
            .query_map([], seat_row)
            .doing("reading seats")?
            .collect::<Result<_, _>>()
            .doing("reading seats")?;
        for seat in seats {
            if let Ok(at) = matches.binary_search_by(|stored| stored.id.as_str().cmp(&seat.match_id)) {
                matches[at].seats.push(seat);
            }
        }
        Ok(matches)
    }

    /// Copies a stored match in, in one transaction; false when its id is already here.
    pub fn insert_stored(&mut self, stored: &StoredMatch) -> Result<bool, StoreError> {
        let tx = self.connection.transaction().doing("starting a transaction")?;
        let inserted = tx
            .execute(
                "INSERT OR IGNORE INTO matches (id, spec, played, detail, turns, winner, result, replay_sha256)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    stored.id,
                    stored.spec,
                    stored.played,
                    stored.detail,
                    stored.turns,
                    stored.winner,
                    stored.result,
                    stored.replay_sha256
                ],
            )
            .doing("copying a match")?;
        if inserted == 0 {
            return Ok(false);
        }
        let match_row = tx.last_insert_rowid();
        for seat in &stored.seats {
            insert_seat(&tx, match_row, seat)?;
        }
        tx.commit().doing("committing a match")?;
        Ok(true)
    }

    /// SQLite's `PRAGMA integrity_check`: `ok` for an intact database.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.connection.query_row("PRAGMA integrity_check", [], |row| row.get(0)).doing("checking integrity")
    }

    /// The current SPEC's digest, if a run recorded one.
    pub fn current_spec(&self) -> Result<Option<String>, StoreError> {
        self.connection
            .query_row("SELECT value FROM meta WHERE key = 'current_spec'", [], |row| row.get(0))
            .optional()
            .doing("reading the current SPEC")
    }

    /// Matches the SPEC `digest` plans, and how many of them are finished (played or not).
    pub fn progress(&self, digest: &str) -> Result<(u64, u64, u64), StoreError> {
        let count = |sql: &str| -> Result<u64, StoreError> {
            self.connection
                .query_row(sql, params![digest], |row| row.get::<_, i64>(0))
                .doing("counting matches")
                .map(|n| n as u64)
        };
        let planned = count("SELECT COUNT(*) FROM plans WHERE spec_digest = ?1")?;
        let played = count(
            "SELECT COUNT(*) FROM plans p JOIN matches m ON m.id = p.match_id WHERE p.spec_digest = ?1 AND m.played = 1",
        )?;
        let unplayed = count(
            "SELECT COUNT(*) FROM plans p JOIN matches m ON m.id = p.match_id WHERE p.spec_digest = ?1 AND m.played = 0",
        )?;
        Ok((planned, played, unplayed))
    }

    /// Finished matches that no plan of the SPEC `digest` contains (results of another SPEC).
    pub fn foreign_results(&self, digest: &str) -> Result<u64, StoreError> {
        self.connection
            .query_row(
                "SELECT COUNT(*) FROM matches WHERE id NOT IN (SELECT match_id FROM plans WHERE spec_digest = ?1)",
                params![digest],
                |row| row.get::<_, i64>(0),
            )
            .doing("counting other SPECs' results")
            .map(|n| n as u64)
    }

    /// The bots of the SPEC `digest`'s matches: (sha256, name, load error), by name.
    pub fn bots(&self, digest: &str) -> Result<Vec<(String, String, Option<String>)>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT b.sha256, b.name, b.load_error FROM bots b
                 JOIN plan_bots p ON p.sha256 = b.sha256 WHERE p.spec_digest = ?1
                 ORDER BY b.name, b.sha256",
            )
            .doing("reading bots")?;
        let rows = statement
            .query_map(params![digest], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
            .doing("reading bots")?;
        rows.collect::<Result<_, _>>().doing("reading bots")
    }

    /// Every seat of the SPEC `digest`'s played matches, by match id then seat.
    pub fn seats(&self, digest: &str) -> Result<Vec<SeatRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT m.id, s.seat, s.sha256, s.score, s.rank, s.forfeit, s.traps, s.invalid_actions,
                        s.skipped_turns, s.fuel_total, s.fuel_max_turn, s.turns
                 FROM seats s JOIN matches m ON m.row = s.match_row JOIN plans p ON p.match_id = m.id
                 WHERE p.spec_digest = ?1 ORDER BY m.id, s.seat",
            )
            .doing("reading results")?;
        let rows = statement.query_map(params![digest], seat_row).doing("reading results")?;
        rows.collect::<Result<_, _>>().doing("reading results")
    }

    /// Every finished match of the SPEC `digest`: (id, played, result JSON or why not), by id.
    pub fn matches(&self, digest: &str) -> Result<Vec<(String, bool, String)>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT m.id, m.played, COALESCE(m.result, m.detail, '') FROM matches m
                 JOIN plans p ON p.match_id = m.id WHERE p.spec_digest = ?1 ORDER BY m.id",
            )
            .doing("reading matches")?;
        let rows = statement
            .query_map(params![digest], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
            .doing("reading matches")?;
        rows.collect::<Result<_, _>>().doing("reading matches")
    }
}

/// A `seats` row joined with its match's id, columns in table order.
fn seat_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<SeatRow> {
    Ok(SeatRow {
        match_id: row.get(0)?,
        seat: row.get(1)?,
        sha256: row.get(2)?,
        score: row.get(3)?,
        rank: row.get(4)?,
        forfeit: row.get(5)?,
        traps: row.get(6)?,
        invalid_actions: row.get(7)?,
        skipped_turns: row.get(8)?,
        fuel_total: row.get::<_, i64>(9)? as u64,
        fuel_max_turn: row.get::<_, i64>(10)? as u64,
        turns: row.get(11)?,
    })
}

/// Inserts one `seats` row of the match at row `match_row`.
fn insert_seat(tx: &rusqlite::Transaction<'_>, match_row: i64, seat: &SeatRow) -> Result<(), StoreError> {
    let mut statement = tx
        .prepare_cached(
            "INSERT INTO seats (match_row, seat, sha256, score, rank, forfeit, traps, invalid_actions, skipped_turns,
         fuel_total, fuel_max_turn, turns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )
        .doing("recording a seat")?;
    statement
        .execute(params![
            match_row,
            seat.seat,
            seat.sha256,
            seat.score,
            seat.rank,
            seat.forfeit,
            seat.traps,
            seat.invalid_actions,
            seat.skipped_turns,
            seat.fuel_total as i64,
            seat.fuel_max_turn as i64,
            seat.turns
        ])
        .doing("recording a seat")
        .map(drop)
}
