//! The ladder's database behind one interface, [`Store`]: accounts, sessions and API tokens, bots
//! and their versions, the match queue and its results, the admin audit log. Two backends:
//! SQLite, embedded, for one node ([`sqlite`]), and a PostgreSQL server that several nodes share
//! ([`postgres`]). Each applies the versioned migrations ([`migrations`]) from the first schema
//! forward, and both pass one suite (`tests/store.rs`).
//!
//! Every method is one transaction. Claiming a queued match is atomic (two workers never get the
//! same one), and finishing one is idempotent (a match re-played after a crash is recorded once):
//! the durability rules of docs/ladder.md#durability.

pub mod migrations;
pub mod postgres;
pub mod sqlite;

use arena_host::record::PlayerSummary;
use serde::{Deserialize, Serialize};

/// Why the database refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A name that must be unique is taken.
    #[error("{what} {name:?} is taken")]
    Taken {
        /// What kind of name.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// The database holds a schema newer than this program knows.
    #[error("the database is at schema version {found}; this arena knows versions up to {known}: upgrade arena")]
    NewerSchema {
        /// The database's version.
        found: i64,
        /// The newest this program applies.
        known: i64,
    },
    /// A stored value this program cannot read.
    #[error("the database holds an unreadable {what}: {detail}")]
    Corrupt {
        /// What.
        what: &'static str,
        /// Why.
        detail: String,
    },
    /// SQLite failed.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed.
    #[error("PostgreSQL: {0}")]
    Postgres(String),
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// Its id.
    pub id: i64,
    /// Its name (unique).
    pub name: String,
    /// Its password's argon2id PHC string (empty for an account made by `arena serve admin`
    /// with no password: it can only use API tokens).
    #[serde(skip)]
    pub password_hash: String,
    /// Whether it may use the admin actions.
    pub admin: bool,
}

/// A bot: a name in one game, owned by an account, with versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bot {
    /// Its id.
    pub id: i64,
    /// Its owner.
    pub owner: i64,
    /// The owner's name.
    pub owner_name: String,
    /// The game.
    pub game: String,
    /// Its name (unique within the game).
    pub name: String,
    /// Taken off the ladder by an admin.
    pub disabled: bool,
}

/// Where a version stands in the upload pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionStatus {
    /// Stored; its checks have not finished.
    Pending,
    /// Passed every check: it plays on the ladder.
    Accepted,
    /// Failed a check: the reason says which and why.
    Refused,
}

impl VersionStatus {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            VersionStatus::Pending => "pending",
            VersionStatus::Accepted => "accepted",
            VersionStatus::Refused => "refused",
        }
    }

    fn parse(text: &str) -> Result<VersionStatus, StoreError> {
        match text {
            "pending" => Ok(VersionStatus::Pending),
            "accepted" => Ok(VersionStatus::Accepted),
            "refused" => Ok(VersionStatus::Refused),
            other => Err(StoreError::Corrupt { what: "version status", detail: other.to_owned() }),
        }
    }
}

/// One step of the upload pipeline and how it went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The step (`upload`, `load`, `validation`, ...).
    pub step: String,
    /// Whether it passed.
    pub ok: bool,
    /// What it found, in the words the command line uses.
    pub detail: String,
}

/// A version of a bot: one uploaded file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Version {
    /// Its id.
    pub id: i64,
    /// The bot.
    pub bot_id: i64,
    /// The file's sha256 (hex): its name in the blob store.
    pub sha256: String,
    /// The file's size in bytes.
    pub size: i64,
    /// Where it stands.
    pub status: VersionStatus,
    /// When refused: the failing step and why.
    pub reason: Option<String>,
    /// Each step's outcome, in order.
    pub steps: Vec<Step>,
}

impl Version {
    /// A version just uploaded, before its checks.
    pub fn pending(id: i64, bot_id: i64, sha256: &str, size: i64) -> Version {
        Version {
            id,
            bot_id,
            sha256: sha256.to_owned(),
            size,
            status: VersionStatus::Pending,
            reason: None,
            steps: Vec::new(),
        }
    }
}

/// Why a match is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Counts for the ratings.
    Ranked,
    /// Requested by a competitor; not rated, played first.
    Scrimmage,
}

impl MatchKind {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Ranked => "ranked",
            MatchKind::Scrimmage => "scrimmage",
        }
    }

    fn parse(text: &str) -> Result<MatchKind, StoreError> {
        match text {
            "ranked" => Ok(MatchKind::Ranked),
            "scrimmage" => Ok(MatchKind::Scrimmage),
            other => Err(StoreError::Corrupt { what: "match kind", detail: other.to_owned() }),
        }
    }
}

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// Waiting for a worker.
    Queued,
    /// Claimed by a worker.
    Running,
    /// Played; the result is recorded.
    Done,
    /// Could not be played (a bot file missing, the host out of resources): the reason says.
    Failed,
}

impl MatchState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchState::Queued => "queued",
            MatchState::Running => "running",
            MatchState::Done => "done",
            MatchState::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Result<MatchState, StoreError> {
        match text {
            "queued" => Ok(MatchState::Queued),
            "running" => Ok(MatchState::Running),
            "done" => Ok(MatchState::Done),
            "failed" => Ok(MatchState::Failed),
            other => Err(StoreError::Corrupt { what: "match state", detail: other.to_owned() }),
        }
    }
}

/// A seat of a match: the version in it and, once played, how it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The version in the seat.
    pub version_id: i64,
    /// How it did, once the match is done.
    pub outcome: Option<SeatOutcome>,
}

/// One seat's line of a match's result, and the turns it was asked to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// Its line of the result (score, rank, faults, fuel).
    #[serde(flatten)]
    pub player: PlayerSummary,
    /// Turns it was asked to play.
    pub turns: u32,
}

/// A match of the ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Match {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game: String,
    /// Its seed.
    pub seed: u64,
    /// Why it is played.
    pub kind: MatchKind,
    /// Where it stands.
    pub state: MatchState,
    /// The seats, in order.
    pub seats: Vec<Seat>,
    /// Once done: the winner's seat, if one placed first alone.
    pub winner: Option<u32>,
    /// Once done: turns played.
    pub turns: Option<u32>,
    /// Once done: the replay's sha256 (its name in the blob store).
    pub replay_sha256: Option<String>,
    /// When failed: why.
    pub error: Option<String>,
}

/// A match to enqueue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMatch {
    /// The game.
    pub game: String,
    /// Its seed.
    pub seed: u64,
    /// Why it is played.
    pub kind: MatchKind,
    /// The versions, by seat.
    pub seats: Vec<i64>,
    /// The account that asked for it (a scrimmage), if one did.
    pub requested_by: Option<i64>,
}

/// How a played match ended, to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The winner's seat, if one placed first alone.
    pub winner: Option<u32>,
    /// Turns played.
    pub turns: u32,
    /// Each seat's figures, in seat order.
    pub outcomes: Vec<SeatOutcome>,
    /// The replay's sha256 (already in the blob store).
    pub replay_sha256: String,
}

/// Queue figures, for the live page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct QueueCounts {
    /// Matches waiting.
    pub queued: u64,
    /// Matches being played.
    pub running: u64,
    /// Matches played.
    pub done: u64,
}

/// The ladder's database. Every method is one transaction; see the module doc for the rules.
pub trait Store: Send + Sync {
    /// The schema version the database is at.
    fn schema_version(&self) -> Result<i64, StoreError>;

    /// Creates an account; [`StoreError::Taken`] when the name is.
    fn create_user(&self, name: &str, password_hash: &str, admin: bool) -> Result<User, StoreError>;
    /// The account called `name`.
    fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError>;
    /// The account `id`.
    fn user(&self, id: i64) -> Result<Option<User>, StoreError>;

    /// Opens a session (its token's sha256 and its CSRF token), valid until `expires` (Unix seconds).
    fn create_session(&self, user: i64, token_sha256: &str, csrf: &str, expires: i64) -> Result<(), StoreError>;
    /// The account and CSRF token of the session whose token hashes to `token_sha256`, if it has
    /// not expired at `now`.
    fn session(&self, token_sha256: &str, now: i64) -> Result<Option<(User, String)>, StoreError>;
    /// Closes a session.
    fn delete_session(&self, token_sha256: &str) -> Result<(), StoreError>;

    /// Records an API token (its sha256) for `user`.
    fn create_token(&self, user: i64, token_sha256: &str, label: &str) -> Result<(), StoreError>;
    /// The account whose API token hashes to `token_sha256`.
    fn token_user(&self, token_sha256: &str) -> Result<Option<User>, StoreError>;
    /// The labels of `user`'s tokens, oldest first.
    fn token_labels(&self, user: i64) -> Result<Vec<String>, StoreError>;

    /// The bot `name` of `game` owned by `owner`, created if there is none; [`StoreError::Taken`]
    /// when another account owns that name in that game.
    fn bot_for_upload(&self, owner: i64, game: &str, name: &str) -> Result<Bot, StoreError>;
    /// The bot `id`.
    fn bot(&self, id: i64) -> Result<Option<Bot>, StoreError>;
    /// Every bot of `game`, by name.
    fn bots_of_game(&self, game: &str) -> Result<Vec<Bot>, StoreError>;
    /// Every bot of `owner`, by game and name.
    fn bots_of_owner(&self, owner: i64) -> Result<Vec<Bot>, StoreError>;
    /// Takes a bot off the ladder, or puts it back.
    fn set_bot_disabled(&self, bot: i64, disabled: bool) -> Result<(), StoreError>;

    /// Records a version of `bot` (pending), uploaded at `now` (Unix seconds), for a file already
    /// in the blob store; the same file uploaded again to the same bot is the version it already
    /// has (`false`: not new).
    fn add_version(&self, bot: i64, sha256: &str, size: i64, now: i64) -> Result<(Version, bool), StoreError>;
    /// Versions uploaded to `owner`'s bots since `since` (Unix seconds).
    fn uploads_since(&self, owner: i64, since: i64) -> Result<u64, StoreError>;
    /// Records how a version's checks went.
    fn finish_version(
        &self,
        version: i64,
        status: VersionStatus,
        reason: Option<&str>,
        steps: &[Step],
    ) -> Result<(), StoreError>;
    /// The version `id`.
    fn version(&self, id: i64) -> Result<Option<Version>, StoreError>;
    /// The versions of `bot`, oldest first.
    fn versions_of_bot(&self, bot: i64) -> Result<Vec<Version>, StoreError>;
    /// Versions whose checks have not finished, oldest first (resumed after a restart).
    fn pending_versions(&self) -> Result<Vec<Version>, StoreError>;

    /// Enqueues matches, in order, in one transaction, as requested at `now` (Unix seconds);
    /// returns their ids.
    fn enqueue(&self, matches: &[NewMatch], now: i64) -> Result<Vec<i64>, StoreError>;
    /// Scrimmage matches `user` asked for since `since` (Unix seconds).
    fn scrimmages_since(&self, user: i64, since: i64) -> Result<u64, StoreError>;
    /// Claims the next queued match for `worker` (scrimmages first, then the oldest), atomically.
    fn claim(&self, worker: &str) -> Result<Option<Match>, StoreError>;
    /// Records a played match; a match already done is left as it is (`false`).
    fn finish_match(&self, id: i64, finished: &Finished) -> Result<bool, StoreError>;
    /// Records a match that could not be played.
    fn fail_match(&self, id: i64, error: &str) -> Result<(), StoreError>;
    /// Puts a failed match back in the queue (an admin's requeue); whether it was failed.
    fn requeue_failed(&self, id: i64) -> Result<bool, StoreError>;
    /// Puts every match claimed by a worker that is gone (all of them, on a single node's
    /// start) back in the queue; returns how many.
    fn requeue_running(&self) -> Result<u64, StoreError>;
    /// The match `id`.
    fn match_by_id(&self, id: i64) -> Result<Option<Match>, StoreError>;
    /// The latest `limit` matches of `game` that are done, newest first (all kinds).
    fn recent_matches(&self, game: Option<&str>, limit: u32) -> Result<Vec<Match>, StoreError>;
    /// The latest `limit` matches with `version` in a seat, newest first.
    fn matches_of_version(&self, version: i64, limit: u32) -> Result<Vec<Match>, StoreError>;
    /// Every ranked match of `game` that is done, oldest first (what the ratings are fitted on).
    fn ranked_results(&self, game: &str) -> Result<Vec<Match>, StoreError>;
    /// Ranked matches of `game` queued or running, oldest first.
    fn ranked_pending(&self, game: &str) -> Result<Vec<Match>, StoreError>;
    /// How many matches wait, run and are done.
    fn queue_counts(&self) -> Result<QueueCounts, StoreError>;

    /// Freezes a game's ladder (no new ranked matches; what is queued still plays) or thaws it.
    fn set_frozen(&self, game: &str, frozen: bool) -> Result<(), StoreError>;
    /// The frozen games, by name.
    fn frozen_games(&self) -> Result<Vec<String>, StoreError>;

    /// Appends to the admin audit log.
    fn audit(&self, actor: &str, action: &str, detail: &str) -> Result<(), StoreError>;
    /// The audit log, oldest first: (actor, action, detail).
    fn audit_log(&self) -> Result<Vec<(String, String, String)>, StoreError>;
}
