//! The results database: SQLite (bundled into the binary), one transaction per finished match,
//! in WAL mode so that `arena tournament show` reads it while a run writes, and a run killed at
//! any moment leaves every committed match and nothing half-written.
//!
//! Tables: `bots` (by sha256), `plans` and `plan_bots` (which match ids and bots each SPEC
//! plans, tagged with the SPEC's digest, so results of an earlier SPEC stay and are told
//! apart) and `matches` (one row per finished match: its canonical spec, whether it was played,
//! its result, with every seat's figures the leaderboard sums, its turns per seat and its
//! replay's digest).

use super::plan::{Plan, PlanBot, PlannedMatch};
use arena_host::record::{MatchResult, PlayerSummary};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

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
    row INTEGER PRIMARY KEY, id TEXT NOT NULL, spec TEXT NOT NULL, played INTEGER NOT NULL,
    detail TEXT, turns INTEGER, winner INTEGER, result TEXT, replay_digest TEXT, seat_turns TEXT);
";

/// The layout version, in SQLite's `user_version`. Layout 3: recording a match writes one row
/// of one table, appended, so a commit writes one page. Layout 2 also kept a `seats` table and
/// a unique index of match ids: three pages per commit, 33 us of a 200 us match (measured by
/// the `tournament` bench section). A seat's figures are now read from the match's `result`
/// (they always were in it) and `seat_turns`; an id is recorded once because one process at a
/// time writes a database ([`WriterLock`](super::lock::WriterLock) for a run, a new file for a
/// merge) and [`Store::insert_stored`] refuses an id the database has, from the ids it read
/// once: a lookup in memory instead of an index page per commit.
/// The match's digest is BLAKE3 of its record's bincode encoding (`blake3:<hex>`), which needs no
/// replay JSON text: sha256 of the JSON text took 13.5 us of a 200 us Azul match, and writing the
/// text another 50 us.
const LAYOUT: i64 = 3;

/// Layout 2 to 3, in one transaction: seats folded into their match's row, the unique index
/// dropped (SQLite drops a constraint only by rebuilding the table), the replay's sha256 kept
/// as a digest named by its algorithm.
const MIGRATE_2_TO_3: &str = "
BEGIN;
CREATE TABLE matches_3 (
    row INTEGER PRIMARY KEY, id TEXT NOT NULL, spec TEXT NOT NULL, played INTEGER NOT NULL,
    detail TEXT, turns INTEGER, winner INTEGER, result TEXT, replay_digest TEXT, seat_turns TEXT);
INSERT INTO matches_3 (row, id, spec, played, detail, turns, winner, result, replay_digest, seat_turns)
    SELECT m.row, m.id, m.spec, m.played, m.detail, m.turns, m.winner, m.result, 'sha256:' || m.replay_sha256,
        CASE WHEN m.played THEN
            (SELECT '[' || group_concat(turns, ',' ORDER BY seat) || ']' FROM seats WHERE match_row = m.row) END
    FROM matches m ORDER BY m.row;
DROP TABLE seats;
DROP TABLE matches;
ALTER TABLE matches_3 RENAME TO matches;
PRAGMA user_version = 3;
COMMIT;
";

/// Why the database could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed, with what was being done.
    #[error("{what}: {source}")]
    Sql {
        /// What was being done.
        what: String,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A second result for a match the database already has one for: a match is recorded
    /// once, so that its plan's "planned" and "played" counts agree.
    #[error("{path}: match {id} already has a result: a match is recorded once")]
    DuplicateResult {
        /// The database.
        path: PathBuf,
        /// The match id.
        id: String,
    },
}

trait Context<T> {
    fn doing(self, what: &str) -> Result<T, StoreError>;
}

impl<T> Context<T> for Result<T, rusqlite::Error> {
    fn doing(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|source| StoreError::Sql { what: what.to_owned(), source })
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

impl SeatRow {
    /// Seat `seat` of match `match_id`, from its line of the result and the turns it was asked
    /// to play; keyed by `key` (a bot's sha256 in a tournament).
    pub fn of(match_id: String, seat: u32, key: String, player: &PlayerSummary, turns: u32) -> SeatRow {
        SeatRow {
            match_id,
            seat,
            sha256: key,
            score: player.score,
            rank: player.rank,
            forfeit: player.forfeit,
            traps: player.traps,
            invalid_actions: player.invalid_actions,
            skipped_turns: player.skipped_turns,
            fuel_total: player.fuel_total,
            fuel_max_turn: player.fuel_max_turn,
            turns,
        }
    }
}

/// How one planned match ended.
pub enum Outcome<'a> {
    /// Played: the result, each seat's turn count, the replay's sha256.
    Played {
        /// The result.
        result: &'a MatchResult,
        /// Turns per seat.
        seat_turns: &'a [u32],
        /// The match record's digest ([`arena_host::record::MatchRecord::digest`]): what a merge
        /// compares.
        replay_digest: &'a str,
    },
    /// Not played (a bot failed to load, or the match could not run), and why.
    NotPlayed(&'a str),
}

/// A finished match as stored: what a merge copies and compares, and what a NATS worker
/// publishes (as JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// The replay's digest, `<algorithm>:<hex>`.
    pub replay_digest: Option<String>,
    /// Turns per seat (JSON list).
    pub seat_turns: Option<String>,
}

impl StoredMatch {
    /// `planned` as it finished.
    pub fn new(planned: &PlannedMatch, outcome: Outcome<'_>) -> StoredMatch {
        // Serialising plain data to a string cannot fail.
        let spec = serde_json::to_string(&planned.spec).unwrap_or_default();
        let unplayed = StoredMatch {
            id: planned.id.clone(),
            spec,
            played: false,
            detail: None,
            turns: None,
            winner: None,
            result: None,
            replay_digest: None,
            seat_turns: None,
        };
        match outcome {
            Outcome::Played { result, seat_turns, replay_digest } => StoredMatch {
                played: true,
                turns: Some(i64::from(result.turns)),
                winner: result.winner.map(|seat| seat as i64),
                result: Some(serde_json::to_string(result).unwrap_or_default()),
                replay_digest: Some(replay_digest.to_owned()),
                seat_turns: Some(serde_json::to_string(seat_turns).unwrap_or_default()),
                ..unplayed
            },
            Outcome::NotPlayed(detail) => StoredMatch { detail: Some(detail.to_owned()), ..unplayed },
        }
    }

    /// Whether `other` records the same outcome: every field equal, the replay digests
    /// compared when both are of one algorithm (a database from before layout 3 has sha256
    /// digests, which cannot be compared with BLAKE3 ones).
    pub fn agrees_with(&self, other: &StoredMatch) -> bool {
        let algorithm =
            |digest: &Option<String>| digest.as_deref().and_then(|d| d.split_once(':')).map(|(a, _)| a.to_owned());
        let digests_agree = self.replay_digest == other.replay_digest
            || algorithm(&self.replay_digest) != algorithm(&other.replay_digest);
        digests_agree
            && StoredMatch { replay_digest: None, ..self.clone() }
                == StoredMatch { replay_digest: None, ..other.clone() }
    }
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
    /// The file, for messages.
    path: PathBuf,
    /// The ids that have a result, read on the first [`Store::insert_stored`] and kept up to
    /// date by it: what refuses a second result for one id (see [`LAYOUT`] for why no unique
    /// index does).
    recorded: Option<HashSet<String>>,
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
        let layout: i64 =
            connection.pragma_query_value(None, "user_version", |row| row.get(0)).doing("reading the layout")?;
        match layout {
            0 | LAYOUT => {}
            2 => connection
                .execute_batch(MIGRATE_2_TO_3)
                .doing(&format!("updating {} to layout {LAYOUT}", path.display()))?,
            _ => {
                return Err(StoreError::Sql {
                    what: format!("{} has layout {layout}, this arena reads {LAYOUT} (and updates 2)", path.display()),
                    source: rusqlite::Error::InvalidQuery,
                });
            }
        }
        connection.execute_batch(SCHEMA).doing("creating the tables")?;
        connection.pragma_update(None, "user_version", LAYOUT).doing("recording the layout")?;
        Ok(Store { connection, path: path.to_owned(), recorded: None })
    }

    /// Records the bots and the plan of a SPEC (digest `spec_digest`), in one transaction, and
    /// makes it the current one (the one `show` reports).
    pub fn record_plan(&mut self, spec_digest: &str, plan: &Plan) -> Result<(), StoreError> {
        let tx = self.connection.transaction().doing("starting a transaction")?;
        for bot in &plan.bots {
            tx.execute(
                "INSERT INTO bots (sha256, name, path) VALUES (?1, ?2, ?3)
                 ON CONFLICT(sha256) DO UPDATE SET name = excluded.name, path = excluded.path",
                params![bot.identity(), bot.name, bot.path.display().to_string()],
            )
            .doing("recording a bot")?;
            tx.execute(
                "INSERT OR IGNORE INTO plan_bots (spec_digest, sha256) VALUES (?1, ?2)",
                params![spec_digest, bot.identity()],
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
            .execute("UPDATE bots SET load_error = ?2 WHERE sha256 = ?1", params![bot.identity(), error])
            .doing("recording a load error")
            .map(drop)
    }

    /// The ids of every finished match (played or not), whatever SPEC planned it.
    pub fn finished_ids(&self) -> Result<BTreeSet<String>, StoreError> {
        let mut statement = self.connection.prepare("SELECT id FROM matches").doing("reading finished matches")?;
        let ids = statement.query_map([], |row| row.get::<_, String>(0)).doing("reading finished matches")?;
        ids.collect::<Result<_, _>>().doing("reading finished matches")
    }

    /// Records one finished match in one transaction (one appended row); a second result for
    /// one id is refused ([`StoreError::DuplicateResult`]). A run plays only the ids
    /// [`Store::finished_ids`] lacks, holding the [`WriterLock`](super::lock::WriterLock).
    pub fn record_match(&mut self, planned: &PlannedMatch, outcome: Outcome<'_>) -> Result<(), StoreError> {
        self.insert_stored(&StoredMatch::new(planned, outcome))
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

    /// Every finished match, by id.
    pub fn stored_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT id, spec, played, detail, turns, winner, result, replay_digest, seat_turns
                 FROM matches ORDER BY id",
            )
            .doing("reading matches")?;
        let matches = statement
            .query_map([], |row| {
                Ok(StoredMatch {
                    id: row.get(0)?,
                    spec: row.get(1)?,
                    played: row.get(2)?,
                    detail: row.get(3)?,
                    turns: row.get(4)?,
                    winner: row.get(5)?,
                    result: row.get(6)?,
                    replay_digest: row.get(7)?,
                    seat_turns: row.get(8)?,
                })
            })
            .doing("reading matches")?;
        matches.collect::<Result<_, _>>().doing("reading matches")
    }

    /// Copies a stored match in (one transaction), refusing an id the database already has a
    /// result for ([`StoreError::DuplicateResult`]): every path that records results (a run, a
    /// merge, a NATS collect) goes through here, so none can count a match twice. A merge
    /// compares a copy with the first before it gets here ([`super::merge::Merger`]).
    pub fn insert_stored(&mut self, stored: &StoredMatch) -> Result<(), StoreError> {
        if self.recorded.is_none() {
            self.recorded = Some(self.finished_ids()?.into_iter().collect());
        }
        if self.recorded.as_ref().is_some_and(|recorded| recorded.contains(&stored.id)) {
            return Err(StoreError::DuplicateResult { path: self.path.clone(), id: stored.id.clone() });
        }
        self.connection
            .prepare_cached(
                "INSERT INTO matches (id, spec, played, detail, turns, winner, result, replay_digest, seat_turns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    stored.id,
                    stored.spec,
                    stored.played,
                    stored.detail,
                    stored.turns,
                    stored.winner,
                    stored.result,
                    stored.replay_digest,
                    stored.seat_turns
                ])
            })
            .doing("copying a match")?;
        if let Some(recorded) = &mut self.recorded {
            recorded.insert(stored.id.clone());
        }
        Ok(())
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

    /// Every seat of the SPEC `digest`'s played matches, by match id then seat: read from each
    /// match's result (a result that does not parse is an error naming the match).
    pub fn seats(&self, digest: &str) -> Result<Vec<SeatRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT m.id, m.result, m.seat_turns FROM matches m JOIN plans p ON p.match_id = m.id
                 WHERE p.spec_digest = ?1 AND m.played = 1 ORDER BY m.id",
            )
            .doing("reading results")?;
        let mut rows = statement.query(params![digest]).doing("reading results")?;
        let mut seats = Vec::new();
        while let Some(row) = rows.next().doing("reading results")? {
            let match_id: String = row.get(0).doing("reading results")?;
            let result: String = row.get(1).doing("reading results")?;
            let turns: Option<String> = row.get(2).doing("reading results")?;
            let parsed = serde_json::from_str::<MatchResult>(&result).and_then(|result| {
                let turns: Vec<u32> = turns.as_deref().map(serde_json::from_str).transpose()?.unwrap_or_default();
                Ok((result, turns))
            });
            let (result, turns) = parsed.map_err(|err| StoreError::Sql {
                what: format!("reading the result of match {match_id}"),
                source: rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, Box::new(err)),
            })?;
            seats.extend(result.players.iter().enumerate().map(|(seat, player)| {
                let turns = turns.get(seat).copied().unwrap_or(0);
                SeatRow::of(match_id.clone(), seat as u32, player.identity(), player, turns)
            }));
        }
        Ok(seats)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Layout 2's tables, as an arena before layout 3 created them.
    const LAYOUT_2: &str = "
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE bots (sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, load_error TEXT);
    CREATE TABLE plan_bots (spec_digest TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (spec_digest, sha256));
    CREATE TABLE plans (spec_digest TEXT NOT NULL, match_id TEXT NOT NULL, ordinal INTEGER NOT NULL,
        PRIMARY KEY (spec_digest, match_id));
    CREATE TABLE matches (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, spec TEXT NOT NULL,
        played INTEGER NOT NULL, detail TEXT, turns INTEGER, winner INTEGER, result TEXT, replay_sha256 TEXT);
    CREATE TABLE seats (match_row INTEGER NOT NULL REFERENCES matches (row), seat INTEGER NOT NULL,
        sha256 TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER NOT NULL, forfeit INTEGER NOT NULL,
        traps INTEGER NOT NULL, invalid_actions INTEGER NOT NULL, skipped_turns INTEGER NOT NULL,
        fuel_total INTEGER NOT NULL, fuel_max_turn INTEGER NOT NULL, turns INTEGER NOT NULL,
        PRIMARY KEY (match_row, seat)) WITHOUT ROWID;
    INSERT INTO meta VALUES ('current_spec', 'd');
    INSERT INTO plans VALUES ('d', 'played', 0), ('d', 'unplayed', 1);
    INSERT INTO matches (row, id, spec, played, turns, winner, result, replay_sha256) VALUES (7, 'played', '{}', 1,
        55, 1, '{\"game\":\"azul\",\"seed\":1,\"turns\":55,\"winner\":1,\"players\":[
        {\"bot\":\"a\",\"sha256\":\"aa\",\"score\":3,\"rank\":2,\"forfeit\":false,\"forfeit_reason\":null,
         \"fuel_total\":100,\"fuel_max_turn\":10,\"skipped_turns\":1,\"traps\":0,\"invalid_actions\":2},
        {\"bot\":\"b\",\"sha256\":\"bb\",\"score\":9,\"rank\":1,\"forfeit\":false,\"forfeit_reason\":null,
         \"fuel_total\":200,\"fuel_max_turn\":20,\"skipped_turns\":0,\"traps\":1,\"invalid_actions\":0}]}', 'r');
    INSERT INTO matches (row, id, spec, played, detail) VALUES (8, 'unplayed', '{}', 0, 'a did not load');
    INSERT INTO seats VALUES (7, 1, 'bb', 9, 1, 0, 1, 0, 0, 200, 20, 27), (7, 0, 'aa', 3, 2, 0, 0, 2, 1, 100, 10, 28);
    PRAGMA user_version = 2;
    ";

    #[test]
    fn a_layout_2_database_is_updated_in_place_with_the_same_seats() {
        let path = std::env::temp_dir().join(format!("arena-store-layout2-{}.sqlite", std::process::id()));
        let _ = std::fs::remove_file(&path);
        Connection::open(&path).unwrap().execute_batch(LAYOUT_2).unwrap();
        let store = Store::open(&path).unwrap();
        let layout: i64 = store.connection.pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
        assert_eq!(layout, LAYOUT);
        let seats = store.seats("d").unwrap();
        let figures: Vec<_> = seats
            .iter()
            .map(|s| (s.match_id.as_str(), s.seat, s.sha256.as_str(), s.score, s.rank, s.invalid_actions, s.turns))
            .collect();
        assert_eq!(figures, [("played", 0, "aa", 3, 2, 2, 28), ("played", 1, "bb", 9, 1, 0, 27)]);
        assert_eq!(
            (seats[1].traps, seats[0].skipped_turns, seats[1].fuel_total, seats[1].fuel_max_turn),
            (1, 1, 200, 20)
        );
        let stored = store.stored_matches().unwrap();
        let rows: Vec<_> = stored.iter().map(|m| (m.id.as_str(), m.played, m.seat_turns.as_deref())).collect();
        assert_eq!(rows, [("played", true, Some("[28,27]")), ("unplayed", false, None)]);
        assert_eq!(stored[0].replay_digest.as_deref(), Some("sha256:r"));
        assert_eq!(store.integrity_check().unwrap(), "ok");
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[test]
    fn stored_matches_agree_when_equal_and_digests_of_two_algorithms_are_not_compared() {
        let stored = StoredMatch {
            id: "m".into(),
            spec: "{}".into(),
            played: true,
            detail: None,
            turns: Some(5),
            winner: Some(0),
            result: Some("{}".into()),
            replay_digest: Some("blake3:aa".into()),
            seat_turns: Some("[3,2]".into()),
        };
        let with = |change: &dyn Fn(&mut StoredMatch)| {
            let mut other = stored.clone();
            change(&mut other);
            stored.agrees_with(&other)
        };
        assert!(with(&|_| {}));
        assert!(!with(&|m| m.replay_digest = Some("blake3:ab".into())), "another replay");
        assert!(!with(&|m| m.seat_turns = Some("[3,3]".into())), "another turn count");
        assert!(!with(&|m| m.result = Some("{ }".into())), "another result");
        assert!(with(&|m| m.replay_digest = Some("sha256:ff".into())), "a layout-2 digest is not comparable");
        assert!(!with(&|m| {
            m.replay_digest = Some("sha256:ff".into());
            m.winner = Some(1);
        }));
    }

    /// A stored result of match `id`.
    fn result(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.into(),
            spec: "{}".into(),
            played: false,
            detail: Some("not played".into()),
            turns: None,
            winner: None,
            result: None,
            replay_digest: None,
            seat_turns: None,
        }
    }

    fn remove_database(path: &Path) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    /// Obeyed: results of distinct matches are each recorded, also by a store opened later.
    #[test]
    fn results_of_distinct_matches_are_each_recorded() {
        let path = std::env::temp_dir().join(format!("arena-store-distinct-{}.sqlite", std::process::id()));
        remove_database(&path);
        let mut store = Store::open(&path).unwrap();
        store.insert_stored(&result("m1")).unwrap();
        store.insert_stored(&result("m2")).unwrap();
        drop(store);
        let mut store = Store::open(&path).unwrap();
        store.insert_stored(&result("m3")).unwrap();
        assert_eq!(store.finished_ids().unwrap(), BTreeSet::from(["m1".into(), "m2".into(), "m3".into()]));
        drop(store);
        remove_database(&path);
    }

    /// Violated: a second result for one match id is refused, naming the database and the match,
    /// whether the first was recorded by this store or is already in the file; the database
    /// keeps one row.
    #[test]
    fn a_second_result_for_one_match_is_refused() {
        let path = std::env::temp_dir().join(format!("arena-store-twice-{}.sqlite", std::process::id()));
        remove_database(&path);
        let mut store = Store::open(&path).unwrap();
        store.insert_stored(&result("m1")).unwrap();
        let refused = |store: &mut Store| match store.insert_stored(&result("m1")) {
            Err(err @ StoreError::DuplicateResult { .. }) => {
                assert_eq!(
                    err.to_string(),
                    format!("{}: match m1 already has a result: a match is recorded once", path.display())
                );
            }
            other => panic!("expected a duplicate result, got {other:?}"),
        };
        refused(&mut store);
        drop(store);
        let mut reopened = Store::open(&path).unwrap();
        refused(&mut reopened);
        assert_eq!(reopened.stored_matches().unwrap(), [result("m1")]);
        drop(reopened);
        remove_database(&path);
    }

    #[test]
    fn a_result_that_does_not_parse_is_an_error_naming_its_match() {
        let path = std::env::temp_dir().join(format!("arena-store-bad-result-{}.sqlite", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path).unwrap();
        store
            .connection
            .execute_batch(
                "INSERT INTO plans VALUES ('d', 'm1', 0);
                 INSERT INTO matches (id, spec, played, result, seat_turns) VALUES ('m1', '{}', 1, '{\"players\": 3}', '[1]');",
            )
            .unwrap();
        let err = store.seats("d").unwrap_err();
        assert!(err.to_string().contains("reading the result of match m1"), "{err}");
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
