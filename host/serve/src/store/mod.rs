//! The ladder's database behind one interface, [`Store`]: accounts, sessions and API tokens, bots
//! and their versions, the match queue and its results (each seat's first faults with them), the
//! versions' rating snapshots (bounded: [`RatingPoint::worth_keeping`]), the admin audit log.
//! Two backends: SQLite, embedded, for one node ([`sqlite`]), and a PostgreSQL server that
//! several nodes share ([`postgres`]). Each applies the versioned migrations ([`migrations`]) from
//! the first schema forward, and both pass one suite (`tests/store.rs`).
//!
//! Every method is one transaction: what a page shows from one call ([`Store::bot_page`]) was
//! true at one instant. Claiming a queued match is atomic (two workers never get the
//! same one), and finishing one is idempotent (a match re-played after a crash is recorded once):
//! the durability rules of docs/ladder.md#durability.

pub mod migrations;
pub mod postgres;
pub mod sqlite;

use arena_host::fault::BotFault;
use arena_host::record::PlayerSummary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Private (its owner's choice, or an admin's): its files are served only to its owner, the
    /// admins and the trusted workers, so its matches go to trusted workers only; they stay on
    /// the ladder and in the ratings.
    pub private: bool,
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
    /// Its data folder's `data-tree/v1` digest (hex), when it brought one: its name in the data
    /// store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_digest: Option<String>,
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
            data_digest: None,
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
    /// A competition's match: never rated on the ladder, played after scrimmages and before
    /// ranked matches.
    Competition,
}

impl MatchKind {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Ranked => "ranked",
            MatchKind::Scrimmage => "scrimmage",
            MatchKind::Competition => "competition",
        }
    }

    fn parse(text: &str) -> Result<MatchKind, StoreError> {
        match text {
            "ranked" => Ok(MatchKind::Ranked),
            "scrimmage" => Ok(MatchKind::Scrimmage),
            "competition" => Ok(MatchKind::Competition),
            other => Err(StoreError::Corrupt { what: "match kind", detail: other.to_owned() }),
        }
    }
}

/// How a competition is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompetitionFormat {
    /// Every pair of entrants, each seed in both seat orders.
    RoundRobin,
    /// Rounds pairing entrants of similar standing that have not met yet.
    Swiss,
    /// Every challenger against every bot of the organizer's pool.
    Gauntlet,
    /// A single-elimination bracket of seat-swapped series.
    SingleElimination,
    /// A double-elimination bracket of seat-swapped series.
    DoubleElimination,
}

impl CompetitionFormat {
    /// Every format, in the order they are listed to people.
    pub const ALL: [CompetitionFormat; 5] = [
        CompetitionFormat::RoundRobin,
        CompetitionFormat::Swiss,
        CompetitionFormat::Gauntlet,
        CompetitionFormat::SingleElimination,
        CompetitionFormat::DoubleElimination,
    ];

    /// The name stored, shown and typed (`round-robin`, `swiss`, `gauntlet`,
    /// `single-elimination`, `double-elimination`).
    pub fn as_str(self) -> &'static str {
        match self {
            CompetitionFormat::RoundRobin => "round-robin",
            CompetitionFormat::Swiss => "swiss",
            CompetitionFormat::Gauntlet => "gauntlet",
            CompetitionFormat::SingleElimination => "single-elimination",
            CompetitionFormat::DoubleElimination => "double-elimination",
        }
    }

    /// The format called `text`, if this program plays it.
    pub fn parse(text: &str) -> Option<CompetitionFormat> {
        CompetitionFormat::ALL.into_iter().find(|format| format.as_str() == text)
    }

    fn stored(text: &str) -> Result<CompetitionFormat, StoreError> {
        CompetitionFormat::parse(text)
            .ok_or_else(|| StoreError::Corrupt { what: "competition format", detail: text.to_owned() })
    }
}

/// Where a competition stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompetitionState {
    /// Before its deadline: entrants may still upload.
    Open,
    /// Its entrants are frozen and its matches are being played.
    Running,
    /// Every match is played: the standings are final.
    Done,
}

impl CompetitionState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            CompetitionState::Open => "open",
            CompetitionState::Running => "running",
            CompetitionState::Done => "done",
        }
    }

    fn parse(text: &str) -> Result<CompetitionState, StoreError> {
        match text {
            "open" => Ok(CompetitionState::Open),
            "running" => Ok(CompetitionState::Running),
            "done" => Ok(CompetitionState::Done),
            other => Err(StoreError::Corrupt { what: "competition state", detail: other.to_owned() }),
        }
    }
}

/// Who may see a competition's results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Release {
    /// The admins only.
    Hidden,
    /// The admins and the entrants' owners.
    Participants,
    /// Everyone.
    Public,
}

impl Release {
    /// The name stored, shown and typed.
    pub fn as_str(self) -> &'static str {
        match self {
            Release::Hidden => "hidden",
            Release::Participants => "participants",
            Release::Public => "public",
        }
    }

    /// The release called `text`.
    pub fn parse(text: &str) -> Option<Release> {
        match text {
            "hidden" => Some(Release::Hidden),
            "participants" => Some(Release::Participants),
            "public" => Some(Release::Public),
            _ => None,
        }
    }

    fn stored(text: &str) -> Result<Release, StoreError> {
        Release::parse(text).ok_or_else(|| StoreError::Corrupt { what: "competition release", detail: text.to_owned() })
    }
}

/// A competition to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCompetition {
    /// The game.
    pub game: String,
    /// Its name, for the pages.
    pub name: String,
    /// How it is played.
    pub format: CompetitionFormat,
    /// When its entrants are frozen (Unix seconds).
    pub deadline: i64,
    /// Seeds per pairing (round robin) or per series (elimination), each in both seat orders.
    pub seeds: u32,
    /// Swiss: the rounds to play (`None`: enough to single out a winner, ⌈log2 entrants⌉).
    pub rounds: Option<u32>,
    /// Gauntlet: the pool, by bot name (every other entrant is a challenger).
    pub pool: Vec<String>,
}

/// A competition (a season) of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Competition {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game: String,
    /// Its name.
    pub name: String,
    /// How it is played.
    pub format: CompetitionFormat,
    /// When its entrants are frozen (Unix seconds).
    pub deadline: i64,
    /// Seeds per pairing or series.
    pub seeds: u32,
    /// Where it stands.
    pub state: CompetitionState,
    /// Who may see its results.
    pub release: Release,
    /// The rounds whose results are released, `1..=R` (`None`: every round); admins see all.
    pub released_rounds: Option<u32>,
    /// Swiss: the rounds to play (`None`: ⌈log2 entrants⌉).
    pub rounds: Option<u32>,
    /// Gauntlet: the pool, by bot name.
    pub pool: Vec<String>,
    /// The format's state as JSON, once running: an elimination's bracket, a Swiss
    /// competition's rounds paired so far, a gauntlet's pool as frozen (a round robin has none).
    #[serde(skip)]
    pub bracket: Option<String>,
    /// When it was created (Unix seconds).
    pub created: i64,
    /// The entrants' versions, frozen at the deadline, in seed order (best first).
    pub entrants: Vec<i64>,
}

impl Competition {
    /// Reads a stored row (format, state and release as text).
    #[allow(clippy::too_many_arguments)]
    fn of_row(
        (id, game, name, format, deadline, seeds, state, release, bracket, created, released_rounds, rounds, pool): CompetitionRow,
        entrants: Vec<i64>,
    ) -> Result<Competition, StoreError> {
        let count = |what: &'static str, value: Option<i64>| {
            value
                .map(|value| u32::try_from(value).map_err(|_| StoreError::Corrupt { what, detail: value.to_string() }))
                .transpose()
        };
        let pool = match pool {
            Some(text) => serde_json::from_str(&text)
                .map_err(|_| StoreError::Corrupt { what: "competition pool", detail: text.clone() })?,
            None => Vec::new(),
        };
        Ok(Competition {
            id,
            game,
            name,
            format: CompetitionFormat::stored(&format)?,
            deadline,
            seeds: u32::try_from(seeds)
                .map_err(|_| StoreError::Corrupt { what: "competition seeds", detail: seeds.to_string() })?,
            state: CompetitionState::parse(&state)?,
            release: Release::stored(&release)?,
            released_rounds: count("competition released rounds", released_rounds)?,
            rounds: count("competition rounds", rounds)?,
            pool,
            bracket,
            created,
            entrants,
        })
    }
}

/// A competition row as read, before its text fields are parsed.
type CompetitionRow = (
    i64,
    String,
    String,
    String,
    i64,
    i64,
    String,
    String,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

/// The columns of a competition row, in [`CompetitionRow`]'s order.
const COMPETITION_COLUMNS: &str =
    "id, game, name, format, deadline, seeds, state, release, bracket, created, released_rounds, rounds, pool";

impl NewCompetition {
    /// Its pool as stored: a JSON list of bot names (`None` when empty).
    fn pool_column(&self) -> Option<String> {
        (!self.pool.is_empty()).then(|| serde_json::Value::from(self.pool.clone()).to_string())
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
    /// Played, but an audit's re-run disagreed with the result: out of the ratings until a third
    /// run decides which result stands.
    Disputed,
}

impl MatchState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchState::Queued => "queued",
            MatchState::Running => "running",
            MatchState::Done => "done",
            MatchState::Failed => "failed",
            MatchState::Disputed => "disputed",
        }
    }

    fn parse(text: &str) -> Result<MatchState, StoreError> {
        match text {
            "queued" => Ok(MatchState::Queued),
            "running" => Ok(MatchState::Running),
            "done" => Ok(MatchState::Done),
            "failed" => Ok(MatchState::Failed),
            "disputed" => Ok(MatchState::Disputed),
            other => Err(StoreError::Corrupt { what: "match state", detail: other.to_owned() }),
        }
    }
}

/// A worker of NATS matches, as the ladder knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Worker {
    /// Its name (from its token).
    pub name: String,
    /// Its signing key: the sha256 of its token, hex.
    #[serde(skip)]
    pub key: String,
    /// Marked trusted by the operator.
    pub trusted: bool,
    /// An audit found a result of it that a re-run disagreed with.
    pub suspect: bool,
    /// Results of it recorded.
    pub results: u64,
    /// Of those, audited (re-run by another worker).
    pub audits: u64,
    /// Audits that disagreed with it (its own results, or its re-runs of others').
    pub mismatches: u64,
}

/// Where an audit stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditState {
    /// Waiting for another worker's re-run.
    Pending,
    /// The re-run agreed: the result stands.
    Agreed,
    /// The re-run disagreed: the match is out of the ratings, waiting for a third run.
    Disputed,
    /// A third run agreed with one of the two: that result stands.
    Decided,
    /// The third run agreed with neither: the match stays disputed for the operator.
    Undecided,
}

impl AuditState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditState::Pending => "pending",
            AuditState::Agreed => "agreed",
            AuditState::Disputed => "disputed",
            AuditState::Decided => "decided",
            AuditState::Undecided => "undecided",
        }
    }

    fn parse(text: &str) -> Result<AuditState, StoreError> {
        match text {
            "pending" => Ok(AuditState::Pending),
            "agreed" => Ok(AuditState::Agreed),
            "disputed" => Ok(AuditState::Disputed),
            "decided" => Ok(AuditState::Decided),
            "undecided" => Ok(AuditState::Undecided),
            other => Err(StoreError::Corrupt { what: "audit state", detail: other.to_owned() }),
        }
    }
}

/// An audit of a worker's result: the same match re-run by another worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Audit {
    /// Its id.
    pub id: i64,
    /// The match.
    pub match_id: i64,
    /// The match's spec id (what its results are published under).
    pub spec_id: String,
    /// The worker audited.
    pub worker: String,
    /// Its result (a `StoredMatch` as JSON).
    pub result: String,
    /// The worker that re-ran it, once one has.
    pub auditor: Option<String>,
    /// The re-run's result, once there is one.
    pub audit_result: Option<String>,
    /// Where it stands.
    pub state: AuditState,
}

/// A seat of a match: the version in it and, once played, how it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The version in the seat.
    pub version_id: i64,
    /// How it did, once the match is done.
    pub outcome: Option<SeatOutcome>,
}

/// One seat's line of a match's result, the turns it was asked to play, and its first faults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// Its line of the result (score, rank, fault counts, fuel).
    #[serde(flatten)]
    pub player: PlayerSummary,
    /// Turns it was asked to play.
    pub turns: u32,
    /// Its first [`FAULTS_KEPT`] faults, in order. Empty for a match recorded without them (by
    /// a NATS worker, or before they were kept): the counts of `player` still hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<SeatFault>,
}

/// Seat rows (match id, version id), in match then seat order, grouped per match: what
/// [`Store::ranked_tables_page`] returns.
fn tables_of<E>(rows: impl IntoIterator<Item = Result<(i64, i64), E>>) -> Result<Vec<(i64, Vec<i64>)>, StoreError>
where
    StoreError: From<E>,
{
    let mut tables: Vec<(i64, Vec<i64>)> = Vec::new();
    for row in rows {
        let (id, version) = row?;
        match tables.last_mut() {
            Some((last, versions)) if *last == id => versions.push(version),
            _ => tables.push((id, vec![version])),
        }
    }
    Ok(tables)
}

/// Matches per page when results are read a page at a time ([`Store::for_each_ranked_result`]).
pub const RESULTS_PAGE: u32 = 250;

/// Faults kept per seat of a match (its first ones; the counts cover them all).
pub const FAULTS_KEPT: usize = 20;

/// One fault of a seat, in words: what the bot page lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatFault {
    /// The turn it happened on (1-based; 0 is the bot's start-up).
    pub turn: u32,
    /// `suspended`, `trap`, `invalid action` or `forfeit`.
    pub kind: String,
    /// What happened, bounded ([`arena_host::fault::MAX_DETAIL_BYTES`]): partly the bot's own
    /// words (a trap's message, its answer), so a page escapes it.
    pub detail: String,
}

impl SeatFault {
    /// The fault `fault` of turn `turn` (0: start-up) in words.
    pub fn of(turn: u32, fault: &BotFault) -> SeatFault {
        let (kind, detail) = arena_host::fault::in_words(fault);
        SeatFault { turn, kind: kind.to_owned(), detail }
    }

    /// A seat's first [`FAULTS_KEPT`] faults, from the match record's (turn, fault) pairs.
    pub fn first_of(faults: &[(u32, BotFault)]) -> Vec<SeatFault> {
        faults.iter().take(FAULTS_KEPT).map(|(turn, fault)| SeatFault::of(*turn, fault)).collect()
    }
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
    /// Once done: the replay's sha256 (its name in the blob store); none until made when the
    /// match was played by a NATS worker (made by re-playing it: [`Finished::digest`] checks it).
    pub replay_sha256: Option<String>,
    /// Once done: the match record's digest (`<algorithm>:<hex>`), what a re-play must give.
    pub digest: Option<String>,
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
    /// The match record's digest (`<algorithm>:<hex>`).
    pub digest: String,
    /// The replay's sha256 (already in the blob store); none when it was played elsewhere.
    pub replay_sha256: Option<String>,
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

/// A version's line of a refitted leaderboard, kept for its rating's history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    /// The version.
    pub version_id: i64,
    /// Ranked results of the game the fit saw: the history's clock.
    pub results: u64,
    /// Rating (Elo scale).
    pub rating: f64,
    /// 95% interval.
    pub interval: [f64; 2],
    /// The version's ranked matches.
    pub matches: u64,
}

/// A rating moving less than this (in points) since a version's last snapshot is not kept ...
pub const SNAPSHOT_POINTS: f64 = 1.0;
/// ... unless the version has played this many ranked matches since.
pub const SNAPSHOT_MATCHES: u64 = 20;

impl RatingPoint {
    /// Whether this point is kept after `last`, the version's last one kept (the rule that bounds
    /// a history's growth): always for its first point; after that only for a later fit (more
    /// results seen) in which the rating moved at least [`SNAPSHOT_POINTS`] or the version played
    /// at least [`SNAPSHOT_MATCHES`] more matches. A version that stopped playing gets a point
    /// only when the others' results move its rating a whole point; one that plays gets one at
    /// least every 20 of its matches. Never a point with a number that is not finite.
    pub fn worth_keeping(&self, last: Option<&RatingPoint>) -> bool {
        let finite = self.rating.is_finite() && self.interval.iter().all(|bound| bound.is_finite());
        finite
            && last.is_none_or(|last| {
                self.results > last.results
                    && ((self.rating - last.rating).abs() >= SNAPSHOT_POINTS
                        || self.matches >= last.matches.saturating_add(SNAPSHOT_MATCHES))
            })
    }
}

/// What a bot's page shows, read in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct BotPage {
    /// The bot.
    pub bot: Bot,
    /// Its versions, oldest first.
    pub versions: Vec<Version>,
    /// The latest matches with one of its versions in a seat (any state), newest first.
    pub matches: Vec<Match>,
    /// The bot name of every version seated in those matches, by version id.
    pub names: BTreeMap<i64, String>,
    /// The other bots of its game, by name.
    pub opponents: Vec<Bot>,
    /// The latest rating snapshots of each of its versions, by version, oldest first.
    pub ratings: Vec<RatingPoint>,
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
    /// Makes a bot private, or public again.
    fn set_bot_private(&self, bot: i64, private: bool) -> Result<(), StoreError>;
    /// The bots with a version whose file is `sha256`, by id (one file may be several bots'
    /// versions: it is private when one of them is).
    fn bots_with_file(&self, sha256: &str) -> Result<Vec<Bot>, StoreError>;
    /// The bots with a version whose data folder has the digest `digest`, by id.
    fn bots_with_data(&self, digest: &str) -> Result<Vec<Bot>, StoreError>;

    /// Records a version of `bot` (pending), uploaded at `now` (Unix seconds), for a file (and
    /// the data folder of digest `data`) already stored; the same file and data uploaded again
    /// to the same bot is the version it already has (`false`: not new).
    fn add_version(
        &self,
        bot: i64,
        sha256: &str,
        data: Option<&str>,
        size: i64,
        now: i64,
    ) -> Result<(Version, bool), StoreError>;
    /// Versions uploaded to `owner`'s bots since `since` (Unix seconds).
    fn uploads_since(&self, owner: i64, since: i64) -> Result<u64, StoreError>;
    /// Records how a version's checks went, if it is still pending: whether it was. Several nodes
    /// may check one version at once (one taking over another's, [`Store::pending_versions_before`]);
    /// the first to finish records it, and a version decided stays as it was decided.
    fn finish_version(
        &self,
        version: i64,
        status: VersionStatus,
        reason: Option<&str>,
        steps: &[Step],
    ) -> Result<bool, StoreError>;
    /// The version `id`.
    fn version(&self, id: i64) -> Result<Option<Version>, StoreError>;
    /// The versions of `bot`, oldest first.
    fn versions_of_bot(&self, bot: i64) -> Result<Vec<Version>, StoreError>;
    /// Versions whose checks have not finished, oldest first (resumed after a restart).
    fn pending_versions(&self) -> Result<Vec<Version>, StoreError>;
    /// Versions still pending that were uploaded before `before` (Unix seconds), oldest first:
    /// on a shared database, those whose node may have died before checking them.
    fn pending_versions_before(&self, before: i64) -> Result<Vec<Version>, StoreError>;

    /// Enqueues matches, in order, in one transaction, as requested at `now` (Unix seconds);
    /// returns their ids.
    fn enqueue(&self, matches: &[NewMatch], now: i64) -> Result<Vec<i64>, StoreError>;
    /// Scrimmage matches `user` asked for since `since` (Unix seconds).
    fn scrimmages_since(&self, user: i64, since: i64) -> Result<u64, StoreError>;
    /// Claims the next queued match for `worker` (`NODE/NAME`: scrimmages first, then the
    /// oldest), atomically, with a lease until `lease_until` (Unix seconds) that its node renews
    /// ([`Store::renew_leases`]) while it lives.
    fn claim(&self, worker: &str, lease_until: i64) -> Result<Option<Match>, StoreError>;
    /// Extends to `until` the lease of every running match claimed by a worker of `node`.
    fn renew_leases(&self, node: &str, until: i64) -> Result<u64, StoreError>;
    /// Puts back in the queue every running match whose lease ended before `now` (its node is
    /// gone); returns how many.
    fn requeue_lapsed(&self, now: i64) -> Result<u64, StoreError>;
    /// Whether several nodes may share this database (PostgreSQL): a node starting then leaves
    /// the others' claims alone; on SQLite, one node by construction, it requeues every claim.
    fn shared(&self) -> bool;
    /// Notes the spec id (sha256 of everything the result depends on) of a match sent to NATS
    /// workers, so whichever node receives its result can record it.
    fn set_spec_id(&self, id: i64, spec_id: &str) -> Result<(), StoreError>;
    /// The matches sent with `spec_id` that are not done yet (queued again or running).
    fn unfinished_with_spec(&self, spec_id: &str) -> Result<Vec<Match>, StoreError>;
    /// Registers the NATS worker `name` with its signing key; [`StoreError::Taken`] when the
    /// name is.
    fn add_worker(&self, name: &str, key: &str, trusted: bool) -> Result<(), StoreError>;
    /// The worker `name`.
    fn worker(&self, name: &str) -> Result<Option<Worker>, StoreError>;
    /// Every worker, by name.
    fn workers(&self) -> Result<Vec<Worker>, StoreError>;
    /// Adds to the worker's counts (results, audits, mismatches) and sets its suspect mark when
    /// given; the worker as it is then.
    fn tally_worker(&self, name: &str, counts: [u64; 3], suspect: Option<bool>) -> Result<Option<Worker>, StoreError>;
    /// Opens an audit of `worker`'s `result` of match `match_id`; its id.
    fn open_audit(&self, match_id: i64, spec_id: &str, worker: &str, result: &str) -> Result<i64, StoreError>;
    /// The audit of the match sent with `spec_id` still waiting for a run (pending or
    /// disputed), if any.
    fn open_audit_for_spec(&self, spec_id: &str) -> Result<Option<Audit>, StoreError>;
    /// Moves an audit on: its state, and the re-run's worker and result once there is one.
    fn update_audit(
        &self,
        id: i64,
        state: AuditState,
        auditor: Option<&str>,
        audit_result: Option<&str>,
    ) -> Result<(), StoreError>;
    /// The latest `limit` audits, newest first.
    fn audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError>;
    /// The latest `limit` audits whose re-run disagreed (disputed, decided or undecided), newest
    /// first: what the admin page lists, however many agreeing audits came after them.
    fn disagreed_audits(&self, limit: u32) -> Result<Vec<Audit>, StoreError>;
    /// Takes a done match out of the ratings while its audit is disputed.
    fn set_disputed(&self, match_id: i64) -> Result<(), StoreError>;
    /// Records a played match; a match already done is left as it is (`false`).
    fn finish_match(&self, id: i64, finished: &Finished) -> Result<bool, StoreError>;
    /// Records the replay made for a done match that had none.
    fn set_replay(&self, id: i64, replay_sha256: &str) -> Result<(), StoreError>;
    /// Records a match that could not be played.
    fn fail_match(&self, id: i64, error: &str) -> Result<(), StoreError>;
    /// Puts a failed match back in the queue (an admin's requeue); whether it was failed.
    fn requeue_failed(&self, id: i64) -> Result<bool, StoreError>;
    /// Puts every match claimed by a worker that is gone (all of them, on a single node's
    /// start) back in the queue; returns how many.
    fn requeue_running(&self) -> Result<u64, StoreError>;
    /// The match `id`.
    fn match_by_id(&self, id: i64) -> Result<Option<Match>, StoreError>;
    /// The latest `limit` matches of `game` that are done, newest first: ranked matches and
    /// scrimmages (a competition's are released on its own page).
    fn recent_matches(&self, game: Option<&str>, limit: u32) -> Result<Vec<Match>, StoreError>;
    /// The latest `limit` matches with `version` in a seat, newest first, a competition's left
    /// out (as in [`Store::recent_matches`]).
    fn matches_of_version(&self, version: i64, limit: u32) -> Result<Vec<Match>, StoreError>;
    /// Up to `limit` ranked matches of `game` that are done, with ids above `after`, oldest
    /// first: a page of what the ratings are fitted on.
    fn ranked_results_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<Match>, StoreError>;
    /// Every ranked match of `game` that is done, oldest first (what the ratings are fitted on),
    /// handed to `visit` a page at a time, so memory holds a page, not the ladder; how many.
    /// Pages are read one after the other: a result recorded meanwhile may be left out (the
    /// next reading has it).
    fn for_each_ranked_result(&self, game: &str, visit: &mut dyn FnMut(&Match)) -> Result<u64, StoreError> {
        let (mut after, mut count) = (0, 0);
        loop {
            let page = self.ranked_results_page(game, after, RESULTS_PAGE)?;
            for one in &page {
                visit(one);
                after = one.id;
                count += 1;
            }
            if page.len() < RESULTS_PAGE as usize {
                return Ok(count);
            }
        }
    }
    /// Every ranked match of `game` that is done, oldest first, in memory (a dump; the ratings
    /// fold them with [`Store::for_each_ranked_result`]).
    fn ranked_results(&self, game: &str) -> Result<Vec<Match>, StoreError> {
        let mut all = Vec::new();
        self.for_each_ranked_result(game, &mut |one| all.push(one.clone()))?;
        Ok(all)
    }
    /// Up to `limit` ranked matches of `game` ever queued (whatever their state now), with ids
    /// above `after`, oldest first: each one's id and its seats' versions in seat order. What
    /// the scheduler counts meetings and tables from, reading only what is new since it last
    /// looked.
    fn ranked_tables_page(&self, game: &str, after: i64, limit: u32) -> Result<Vec<(i64, Vec<i64>)>, StoreError>;
    /// Ranked matches of `game` not settled yet: queued, running or disputed (an audit's third
    /// run to come), oldest first. The scheduler counts them with the results, so it never sets a
    /// match identical to one of them (same seats and seed: same spec id, whose results would be
    /// taken for the other's).
    fn ranked_pending(&self, game: &str) -> Result<Vec<Match>, StoreError>;
    /// How many matches wait, run and are done.
    fn queue_counts(&self) -> Result<QueueCounts, StoreError>;
    /// The bot name of each of `versions` that exists, by version id.
    fn bot_names(&self, versions: &[i64]) -> Result<BTreeMap<i64, String>, StoreError>;
    /// What the page of bot `id` shows: its latest `matches` matches and each version's latest
    /// `ratings` rating snapshots; `None` when there is no such bot.
    fn bot_page(&self, id: i64, matches: u32, ratings: u32) -> Result<Option<BotPage>, StoreError>;

    /// Keeps the points of a refitted leaderboard that [`RatingPoint::worth_keeping`] after each
    /// version's last one; returns how many were kept.
    fn record_ratings(&self, points: &[RatingPoint]) -> Result<u64, StoreError>;

    /// Freezes a game's ladder (no new ranked matches; what is queued still plays) or thaws it.
    fn set_frozen(&self, game: &str, frozen: bool) -> Result<(), StoreError>;
    /// The frozen games, by name.
    fn frozen_games(&self) -> Result<Vec<String>, StoreError>;

    /// Creates a competition (open, hidden) at `now` (Unix seconds); its id.
    fn create_competition(&self, new: &NewCompetition, now: i64) -> Result<i64, StoreError>;
    /// The competition `id`, with its entrants.
    fn competition(&self, id: i64) -> Result<Option<Competition>, StoreError>;
    /// Every competition, newest first, with their entrants.
    fn competitions(&self) -> Result<Vec<Competition>, StoreError>;
    /// Sets who may see a competition's results, and of which rounds (`1..=R`; `None`: all);
    /// whether there is such a competition.
    fn set_competition_release(&self, id: i64, release: Release, rounds: Option<u32>) -> Result<bool, StoreError>;
    /// Starts an open competition, in one transaction: its entrants (versions in seed order),
    /// its bracket's state, its first matches (enqueued as of `now`, tagged with it); `false`
    /// (nothing changed) when it is not open, as when another node started it first.
    fn start_competition(
        &self,
        id: i64,
        entrants: &[i64],
        bracket: Option<&str>,
        matches: &[NewMatch],
        now: i64,
    ) -> Result<bool, StoreError>;
    /// Moves a running competition on, in one transaction, if its bracket is still `from`: the
    /// bracket becomes `to`, `matches` are enqueued (tagged with it) and, when `done`, it is
    /// done; `false` (nothing changed) when it is not running or its bracket moved meanwhile.
    fn advance_competition(
        &self,
        id: i64,
        from: Option<&str>,
        to: Option<&str>,
        matches: &[NewMatch],
        done: bool,
        now: i64,
    ) -> Result<bool, StoreError>;
    /// Every match of competition `id` (any state), oldest first.
    fn competition_matches(&self, id: i64) -> Result<Vec<Match>, StoreError>;
    /// The competition match `id` is played for, if it is a competition's.
    fn competition_of_match(&self, id: i64) -> Result<Option<i64>, StoreError>;

    /// Appends to the admin audit log.
    fn audit(&self, actor: &str, action: &str, detail: &str) -> Result<(), StoreError>;
    /// The audit log, oldest first: (actor, action, detail).
    fn audit_log(&self) -> Result<Vec<(String, String, String)>, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_host::fault::{Phase, TrapKind};

    #[test]
    fn a_seat_fault_is_the_fault_in_arena_hosts_words() {
        let fault = BotFault::Trapped { phase: Phase::Init, trap: TrapKind::Exited { code: 3 } };
        let seat = SeatFault::of(3, &fault);
        assert_eq!((seat.turn, seat.kind.as_str(), seat.detail.as_str()), (3, "trap", "init: exited: code 3"));
        let stored = r#"{"turn":3,"kind":"trap","detail":"init: exited: code 3"}"#;
        assert_eq!(serde_json::to_string(&seat).unwrap(), stored, "the stored form is unchanged");
    }

    #[test]
    fn a_seat_keeps_its_first_faults_and_an_outcome_stored_without_them_reads() {
        let many: Vec<(u32, BotFault)> = (1..=50).map(|turn| (turn, BotFault::Suspended)).collect();
        let kept = SeatFault::first_of(&many);
        assert_eq!(kept.len(), FAULTS_KEPT);
        assert_eq!((kept[0].turn, kept[FAULTS_KEPT - 1].turn), (1, FAULTS_KEPT as u32));
        let old = r#"{"bot":"a","sha256":"aa","score":1,"rank":1,"forfeit":false,"forfeit_reason":null,
            "fuel_total":1,"fuel_max_turn":1,"skipped_turns":0,"traps":2,"invalid_actions":0,"turns":4}"#;
        let outcome: SeatOutcome = serde_json::from_str(old).unwrap();
        assert_eq!((outcome.player.traps, outcome.turns, outcome.faults.len()), (2, 4, 0));
        assert!(!serde_json::to_string(&outcome).unwrap().contains("faults"), "none, none written");
    }

    #[test]
    fn a_rating_history_keeps_a_point_when_the_rating_moves_a_point_or_the_version_plays_on() {
        let point = |results, rating: f64, matches| RatingPoint {
            version_id: 1,
            results,
            rating,
            interval: [rating - 40.0, rating + 40.0],
            matches,
        };
        let last = point(100, 1500.0, 10);
        assert!(point(100, 1500.0, 10).worth_keeping(None), "the first");
        assert!(!point(100, 1520.0, 12).worth_keeping(Some(&last)), "a fit on no more results");
        assert!(!point(101, 1500.9, 29).worth_keeping(Some(&last)), "moved less than a point, 19 matches");
        assert!(point(101, 1499.0, 11).worth_keeping(Some(&last)), "moved a point");
        assert!(point(150, 1500.2, 30).worth_keeping(Some(&last)), "20 more matches");
        assert!(!point(150, f64::NAN, 30).worth_keeping(None), "not a number");
        let mut infinite = point(150, 1500.0, 30);
        infinite.interval[1] = f64::INFINITY;
        assert!(!infinite.worth_keeping(Some(&last)));
    }
}
