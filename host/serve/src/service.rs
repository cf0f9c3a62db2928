//! The ladder itself, what the pages and the API stand on: [`Service`] holds the settings, the
//! store, the blob stores and the arena, and runs the background work in threads: the validator
//! (each new version's checks, [`crate::validate`]) and the workers (each claims the next match,
//! tops up a game's queue with the next pairing when it finds none, [`crate::schedule`], plays
//! it and records it). Results, versions and queue changes are broadcast as [`Event`]s (the live
//! page's server-sent events). A thread of its own starts competitions and moves them on
//! ([`crate::competition`]). On start, matches a killed server left running go back to the
//! queue and unfinished checks run again; while it runs, a node also checks the versions another
//! node left pending a minute after their upload (that node may be gone):
//! docs/ladder.md#durability.

use crate::blobs::{BlobError, BlobWriter, Blobs, DataFolders};
use crate::config::Settings;
use crate::ratings::{Leaderboard, Results, leaderboard, moved_lines};
use crate::schedule::{Entrant, Scheduled, next_table, pairing_seed, table_seed};
use crate::store::{
    Bot, Finished, Match, MatchKind, MatchState, NewMatch, RESULTS_PAGE, SeatFault, SeatOutcome, Store, StoreError,
    User, Version, VersionStatus,
};
use crate::validate::check;
use arena_host::Arena;
use arena_host::bot_archive::{ArchiveLimits, read_bot_archive};
use arena_host::bot_data::BotFiles;
use arena_host::registry::{BotPool, PlayError, ReplayText, find_game, game_names};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::broadcast;

/// Ranked matches a game keeps queued per worker: enough that the scheduler (which reads the
/// game's results) runs once per several matches, few enough that a new version's first matches
/// are not stuck behind a long queue.
const QUEUED_PER_WORKER: u64 = 8;

/// A leaderboard is refitted at most this often while results stream in (the last fit is served
/// in between): under load, a fit per request would cost more than the requests.
const REFIT_EVERY: Duration = Duration::from_secs(2);

/// A version still pending this long after its upload, and not being checked on this node, is
/// checked here: on a shared database, the node it was uploaded to may have died before checking
/// it (a live one checks a version within seconds; one with a backlog holds it in its queue and
/// would check it twice at worst, recorded once: [`Store::finish_version`]).
const PENDING_TAKEN_OVER_AFTER: Duration = Duration::from_secs(60);

/// Unix seconds now: for sessions' expiry and the hourly quotas, never for anything a bot sees.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.as_secs() as i64)
}

/// Something that happened, for the live page.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// `result` (a match recorded), `version` (a version's checks finished) or `queue`.
    pub kind: &'static str,
    /// The game it concerns.
    pub game: String,
    /// What the API returns for it (the match, the version).
    pub data: serde_json::Value,
}

/// Why an operation of the service failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The blob store.
    #[error(transparent)]
    Blob(#[from] BlobError),
    /// The file system.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A game that does not exist.
    #[error("no game {0:?} (games: {games})", games = game_names().join(", "))]
    UnknownGame(String),
    /// Something missing.
    #[error("no {0}")]
    NotFound(String),
    /// Refused for a reason given in words.
    #[error("{0}")]
    Refused(String),
    /// Over a quota.
    #[error("{0}")]
    Quota(String),
    /// A match re-played here gave another record than the one recorded: the platform's fault
    /// (or a worker's), never the caller's.
    #[error("{0}")]
    Determinism(String),
}

/// A leaderboard fitted: on the results of a generation, at an instant.
type Fit = (u64, std::time::Instant, Arc<Leaderboard>);

/// A game's bots, loaded once for many matches.
struct GamePool {
    /// The bots it holds (file and data folder), in its order.
    paths: Vec<BotFiles>,
    /// Why each could not be loaded, if it could not.
    failures: Vec<Option<arena_host::registry::LoadFailure>>,
    pool: Box<dyn BotPool>,
}

/// An upload's body as received: a bot file or an archive of a bot and its data
/// ([`Service::upload_writer`] chooses).
pub enum Upload {
    /// A `.wasm` file, on its way into the bot store.
    Wasm(BlobWriter),
    /// A tar archive (gzip-compressed or not) of `bot.wasm` and `data/`, in a temporary file.
    Archive(BlobWriter),
}

impl Upload {
    /// Appends `chunk` within the writer's cap.
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), BlobError> {
        match self {
            Upload::Wasm(writer) | Upload::Archive(writer) => writer.write(chunk),
        }
    }
}

/// The running ladder.
pub struct Service {
    /// The settings it runs with.
    pub settings: Settings,
    /// The database.
    pub store: Arc<dyn Store>,
    /// Bot files by sha256.
    pub bot_files: Blobs,
    /// Replays by sha256.
    pub replays: Blobs,
    /// Bots' data folders by digest.
    pub data_folders: DataFolders,
    /// Archive uploads while they are read (never kept).
    archives: Blobs,
    /// The sandbox and loader.
    pub arena: Arena,
    events: broadcast::Sender<Event>,
    /// Per game: results recorded since start (a leaderboard is refitted when it moves).
    generations: BTreeMap<String, AtomicU64>,
    /// Held while a leaderboard is refitted.
    refitting: Mutex<()>,
    /// Per game: its last fit.
    leaderboards: Mutex<BTreeMap<String, Fit>>,
    validations: Mutex<Option<mpsc::Sender<i64>>>,
    /// The versions queued for the validator here or being checked by it.
    validating: Mutex<std::collections::BTreeSet<i64>>,
    /// Wakes idle workers (a new version, a scrimmage, stopping).
    wake: (Mutex<u64>, Condvar),
    /// Each game's loaded bots, shared by the workers ([`Service::pool_for`]).
    pools: Mutex<BTreeMap<String, Arc<GamePool>>>,
    /// One scheduler at a time; what it has counted of each game's matches.
    scheduling: Mutex<BTreeMap<String, Scheduled>>,
    stopping: AtomicBool,
    /// This node's name in its claims (`NODE/WORKER`): random per start.
    node: String,
}

impl Service {
    /// The service on `store`, its blobs under the settings' data folder.
    pub fn new(settings: Settings, store: Arc<dyn Store>, arena: Arena) -> Result<Arc<Service>, ServiceError> {
        let bot_files = Blobs::open(&settings.data.join("bots"), "wasm")?;
        let replays = Blobs::open(&settings.data.join("replays"), "json.gz")?;
        let data_folders = DataFolders::open(&settings.data.join("data"))?;
        let archives = Blobs::open(&settings.data.join("archives"), "tar")?;
        let (events, _) = broadcast::channel(256);
        let generations = game_names().into_iter().map(|game| (game.to_owned(), AtomicU64::new(0))).collect();
        Ok(Arc::new(Service {
            settings,
            store,
            bot_files,
            replays,
            data_folders,
            archives,
            arena,
            events,
            generations,
            refitting: Mutex::new(()),
            leaderboards: Mutex::new(BTreeMap::new()),
            validations: Mutex::new(None),
            validating: Mutex::new(std::collections::BTreeSet::new()),
            wake: (Mutex::new(0), Condvar::new()),
            pools: Mutex::new(BTreeMap::new()),
            scheduling: Mutex::new(BTreeMap::new()),
            stopping: AtomicBool::new(false),
            node: format!("node-{:012x}", crate::dump::random_seed() >> 16),
        }))
    }

    /// Starts the validator and the workers: matches left running go back to the queue first,
    /// and versions whose checks did not finish are checked again.
    pub fn start(self: &Arc<Self>) -> Result<Vec<std::thread::JoinHandle<()>>, ServiceError> {
        // On a database of its own, every claim is an earlier run's; on a shared one, only those
        // whose lease ended (their node is gone): the others are live nodes' matches.
        let requeued =
            if self.store.shared() { self.store.requeue_lapsed(unix_now())? } else { self.store.requeue_running()? };
        if requeued > 0 {
            tracing::info!(requeued, "matches left running by an earlier run are queued again");
        }
        let (sender, receiver) = mpsc::channel();
        *self.validations.lock().unwrap_or_else(PoisonError::into_inner) = Some(sender);
        for version in self.store.pending_versions()? {
            self.queue_validation(version.id);
        }
        let mut threads = Vec::new();
        let service = Arc::clone(self);
        threads.push(std::thread::Builder::new().name("leases".into()).spawn(move || service.keep_leases())?);
        let service = Arc::clone(self);
        threads.push(std::thread::Builder::new().name("validator".into()).spawn(move || {
            while let Ok(version) = receiver.recv() {
                if service.stopping.load(Ordering::Relaxed) {
                    break;
                }
                if let Err(err) = service.validate(version) {
                    tracing::error!(version, "validating: {err}");
                }
                service.validating.lock().unwrap_or_else(PoisonError::into_inner).remove(&version);
            }
        })?);
        let service = Arc::clone(self);
        threads.push(std::thread::Builder::new().name("competitions".into()).spawn(move || {
            // Competitions past their deadline start; running ones move on as their matches finish
            // (a competition match recorded wakes this thread).
            while !service.stopping() {
                let seen = service.wake_count();
                if let Err(err) = service.advance_competitions() {
                    tracing::error!("moving competitions on: {err}");
                }
                service.sleep_unless_woken(seen, Duration::from_secs(1));
            }
        })?);
        for worker in 0..self.settings.workers {
            let service = Arc::clone(self);
            threads.push(std::thread::Builder::new().name(format!("worker-{worker}")).spawn(move || {
                // Nice 10 for this thread only (Linux's priorities are per thread): the matches
                // take every core the web's threads leave, and a page waits for no match. Fuel,
                // not time, is what a bot is given, so its results do not move.
                if let Err(err) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 10) {
                    tracing::warn!("cannot lower the priority of a match thread: {err}");
                }
                service.work(&format!("local-{worker}"));
            })?);
        }
        Ok(threads)
    }

    /// Claims the next queued match for this node's `worker`, leased for the settings' lease.
    pub(crate) fn claim(&self, worker: &str) -> Result<Option<Match>, StoreError> {
        self.store.claim(&format!("{}/{worker}", self.node), unix_now() + self.settings.lease.as_secs() as i64)
    }

    /// Renews this node's leases every third of the settings' lease, puts back in the queue the
    /// matches of nodes whose leases ended (killed, or cut off from the database), and checks
    /// the versions left pending by a node that is gone ([`Service::take_over_pending`]), until
    /// stopping.
    fn keep_leases(&self) {
        let lease = self.settings.lease;
        let mut last = std::time::Instant::now();
        while !self.stopping() {
            std::thread::sleep(Duration::from_millis(250));
            if last.elapsed() < lease / 3 {
                continue;
            }
            last = std::time::Instant::now();
            let now = unix_now();
            if let Err(err) = self.store.renew_leases(&self.node, now + lease.as_secs() as i64) {
                tracing::error!("renewing this node's claims: {err}");
            }
            match self.store.requeue_lapsed(now) {
                Ok(0) => {}
                Ok(requeued) => {
                    tracing::info!(requeued, "matches of a node that is gone are queued again");
                    self.wake_workers();
                }
                Err(err) => tracing::error!("requeueing lapsed claims: {err}"),
            }
            match self.take_over_pending(now) {
                Ok(0) => {}
                Ok(taken) => tracing::info!(taken, "versions left pending (by a node that is gone?) are checked here"),
                Err(err) => tracing::error!("looking for versions left pending: {err}"),
            }
        }
    }

    /// Queues for the validator here every version still pending [`PENDING_TAKEN_OVER_AFTER`]
    /// after its upload (at `now`) that this node is not checking already; how many.
    fn take_over_pending(&self, now: i64) -> Result<usize, ServiceError> {
        let before = now - PENDING_TAKEN_OVER_AFTER.as_secs() as i64;
        let mut taken = 0;
        for version in self.store.pending_versions_before(before)? {
            taken += usize::from(self.queue_validation(version.id));
        }
        Ok(taken)
    }

    /// Asks the background threads to stop (a match being played finishes first).
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        *self.validations.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.wake_workers();
    }

    /// A receiver of every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    pub(crate) fn publish(&self, kind: &'static str, game: &str, data: impl Serialize) {
        let data = serde_json::to_value(data).unwrap_or(serde_json::Value::Null);
        // No receiver (nobody on the live page) is fine.
        let _ = self.events.send(Event { kind, game: game.to_owned(), data });
    }

    /// Wakes every thread waiting for work ([`Service::sleep_unless_woken`]).
    pub(crate) fn wake_workers(&self) {
        let (lock, condvar) = &self.wake;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        condvar.notify_all();
    }

    /// How many wake-ups so far: read before looking for work, given to
    /// [`Service::sleep_unless_woken`] after finding none.
    pub(crate) fn wake_count(&self) -> u64 {
        *self.wake.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sleeps until a wake-up after `seen` (a new version, a scrimmage, a result, stopping) or
    /// `timeout`, unless one already came.
    pub(crate) fn sleep_unless_woken(&self, seen: u64, timeout: Duration) {
        let (lock, condvar) = &self.wake;
        let guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if *guard == seen && !self.stopping() {
            let _ = condvar.wait_timeout(guard, timeout);
        }
    }

    /// Whether the service is stopping.
    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Stores an upload for `user`'s bot `name` in `game`: `upload` holds the file, already
    /// capped, or an archive of the file and its data folder (read here, within
    /// [`Service::archive_limits`]; the folder stored by digest). A new version is checked in the
    /// background; the same file (and data) uploaded again is the version it already is
    /// (`false`). `private`, when given, makes the bot private or public, before the version
    /// exists (so no match of it is ever sent as a public one).
    pub fn upload(
        &self,
        user: &User,
        game: &str,
        name: &str,
        upload: Upload,
        private: Option<bool>,
    ) -> Result<(Bot, Version, bool), ServiceError> {
        self.may_upload(user, game, name)?;
        let now = unix_now();
        let (sha256, size, data_digest) = match upload {
            Upload::Wasm(writer) => {
                let (sha256, size) = writer.finish()?;
                (sha256, size, None)
            }
            Upload::Archive(mut archive) => {
                let (wasm, data) = read_bot_archive(archive.read_back()?, self.archive_limits())
                    .map_err(|err| ServiceError::Refused(format!("upload: {err}")))?;
                drop(archive);
                // Within the upload cap already: `read_bot_archive` checked it.
                let sha256 = self.bot_files.put(&wasm)?;
                let digest = data.map(|tree| self.data_folders.put(&tree)).transpose()?;
                (sha256, wasm.len() as u64, digest)
            }
        };
        let mut bot = self.store.bot_for_upload(user.id, game, name)?;
        if let Some(private) = private.filter(|private| *private != bot.private) {
            self.store.set_bot_private(bot.id, private)?;
            bot.private = private;
        }
        let (version, new) = self.store.add_version(bot.id, &sha256, data_digest.as_deref(), size as i64, now)?;
        if new {
            self.queue_validation(version.id);
        }
        Ok((bot, version, new))
    }

    /// What an archive upload may hold: the upload cap for the bot file, the arena's data limits
    /// for its folder.
    pub fn archive_limits(&self) -> ArchiveLimits {
        ArchiveLimits { max_wasm: self.settings.max_upload, data: self.arena.data_limits() }
    }

    /// A writer for an upload's body, chosen by its first bytes (`head`, at least 262 when the
    /// body has them): an archive goes to a temporary file, capped at what the archive limits
    /// unpack to; a bot file straight to the bot store, capped at the upload limit.
    pub fn upload_writer(&self, head: &[u8]) -> Result<Upload, ServiceError> {
        Ok(if arena_host::bot_archive::looks_like_archive(head) {
            Upload::Archive(self.archives.writer(self.archive_limits().unpacked_bytes())?)
        } else {
            Upload::Wasm(self.bot_files.writer(self.settings.max_upload)?)
        })
    }

    /// Whether `user` may upload a version of the bot `name` in `game` now: the game exists, the
    /// name is valid, and the quotas allow it. Checked before an upload's body is received (no
    /// file is streamed in only to be refused) and again when it is stored.
    pub fn may_upload(&self, user: &User, game: &str, name: &str) -> Result<(), ServiceError> {
        if find_game(game).is_none() {
            return Err(ServiceError::UnknownGame(game.to_owned()));
        }
        crate::auth::check_name("bot", name).map_err(|err| ServiceError::Refused(err.to_string()))?;
        let owned = self.store.bots_of_owner(user.id)?;
        let exists = owned.iter().any(|bot| bot.game == game && bot.name == name);
        let limit = self.settings.quotas.bots_per_account;
        if !exists && owned.len() >= limit as usize {
            return Err(ServiceError::Quota(format!(
                "an account may own {limit} bots and {} owns {}: upload a new version of one of them",
                user.name,
                owned.len()
            )));
        }
        let now = unix_now();
        let per_hour = self.settings.quotas.uploads_per_hour;
        if self.store.uploads_since(user.id, now - 3600)? >= u64::from(per_hour) {
            return Err(ServiceError::Quota(format!(
                "an account may upload {per_hour} versions an hour and {} has: try again later",
                user.name
            )));
        }
        Ok(())
    }

    /// Queues `version` for the validator here unless it is queued or being checked already;
    /// whether it was queued.
    fn queue_validation(&self, version: i64) -> bool {
        let validations = self.validations.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(sender) = validations.as_ref() else { return false };
        let mut validating = self.validating.lock().unwrap_or_else(PoisonError::into_inner);
        if !validating.insert(version) {
            return false;
        }
        if sender.send(version).is_err() {
            validating.remove(&version);
            return false;
        }
        true
    }

    /// Runs a version's checks and records them.
    fn validate(&self, version_id: i64) -> Result<(), ServiceError> {
        let version =
            self.store.version(version_id)?.ok_or_else(|| ServiceError::NotFound(format!("version {version_id}")))?;
        if version.status != VersionStatus::Pending {
            // Checked by another node since it was queued here.
            return Ok(());
        }
        let bot =
            self.store.bot(version.bot_id)?.ok_or_else(|| ServiceError::NotFound(format!("bot {}", version.bot_id)))?;
        let game = find_game(&bot.game).ok_or_else(|| ServiceError::UnknownGame(bot.game.clone()))?;
        let files = self.bot_files_of(&version)?;
        let mut checked =
            check(&self.arena, game, &files, &format!("{}.wasm", bot.name), self.settings.budget(&bot.game));
        let data = version.data_digest.as_ref().map(|digest| format!(", data {digest}")).unwrap_or_default();
        let upload = crate::store::Step {
            step: "upload".into(),
            ok: true,
            detail: format!("{} bytes, sha256 {}{data}", version.size, version.sha256),
        };
        checked.steps.insert(0, upload);
        if !self.store.finish_version(version.id, checked.status, checked.reason.as_deref(), &checked.steps)? {
            // Another node checked it meanwhile (and told its own pages): its record stands.
            tracing::info!(version = version.id, "checked here and by another node first: its record stands");
            return Ok(());
        }
        tracing::info!(bot = %bot.name, game = %bot.game, version = version.id, status = checked.status.as_str(), "checked");
        let version = self.store.version(version.id)?;
        self.publish("version", &bot.game, &version);
        if checked.status == VersionStatus::Accepted {
            self.wake_workers();
        }
        Ok(())
    }

    /// Where a version's file is.
    pub fn bot_file(&self, version: &Version) -> Result<PathBuf, ServiceError> {
        self.bot_files
            .path(&version.sha256)
            .ok_or_else(|| ServiceError::NotFound(format!("file of version {}", version.id)))
    }

    /// A version's bot file and data folder.
    pub fn bot_files_of(&self, version: &Version) -> Result<BotFiles, ServiceError> {
        let data = version
            .data_digest
            .as_deref()
            .map(|digest| {
                self.data_folders
                    .path(digest)
                    .ok_or_else(|| ServiceError::NotFound(format!("data of version {}", version.id)))
            })
            .transpose()?;
        Ok(BotFiles { wasm: self.bot_file(version)?, data })
    }

    /// Each bot's current version: its latest accepted one.
    pub fn current_versions(&self, bots: &[Bot]) -> Result<BTreeMap<i64, Version>, ServiceError> {
        let mut current = BTreeMap::new();
        for bot in bots {
            let versions = self.store.versions_of_bot(bot.id)?;
            if let Some(version) = versions.into_iter().rev().find(|version| version.status == VersionStatus::Accepted)
            {
                current.insert(bot.id, version);
            }
        }
        Ok(current)
    }

    /// The leaderboard of `game`, refitted when a result has landed since the last fit and that
    /// fit is older than `REFIT_EVERY` (2 s). A refit's lines that moved since the fit before go
    /// to the versions' rating histories, in one store call ([`Store::record_ratings`]).
    pub fn leaderboard(&self, game: &str) -> Result<Arc<Leaderboard>, ServiceError> {
        let generation = self.generations.get(game).ok_or_else(|| ServiceError::UnknownGame(game.to_owned()))?;
        let now = generation.load(Ordering::Acquire);
        let last = self.leaderboards.lock().unwrap_or_else(PoisonError::into_inner).get(game).cloned();
        if let Some((fitted, at, board)) = &last
            && (*fitted == now || at.elapsed() < REFIT_EVERY)
        {
            return Ok(Arc::clone(board));
        }
        // One refit at a time: while it runs, the others serve the last fit.
        let _refitting = match (self.refitting.try_lock(), last) {
            (Ok(guard), _) => guard,
            (Err(_), Some((_, _, board))) => return Ok(board),
            (Err(_), None) => self.refitting.lock().unwrap_or_else(PoisonError::into_inner),
        };
        let previous = self.leaderboards.lock().unwrap_or_else(PoisonError::into_inner).get(game).cloned();
        let bots = self.store.bots_of_game(game)?;
        let mut versions = Vec::new();
        for bot in &bots {
            versions.extend(self.store.versions_of_bot(bot.id)?);
        }
        let current = self.current_versions(&bots)?.into_iter().map(|(bot, version)| (bot, version.id)).collect();
        // Folded a page at a time: memory holds the versions' sums, not the results.
        let mut results = Results::new(&versions);
        self.store.for_each_ranked_result(game, &mut |one| results.add(one))?;
        let board = Arc::new(leaderboard(game, &bots, &versions, &current, &results));
        let fitted = (now, std::time::Instant::now(), Arc::clone(&board));
        self.leaderboards.lock().unwrap_or_else(PoisonError::into_inner).insert(game.to_owned(), fitted);
        // The lines that moved since the last fit go to the ratings' history (the store keeps
        // those worth keeping); a failure there costs a point of history, not the leaderboard.
        let moved = moved_lines(previous.as_ref().map(|(_, _, board)| board.as_ref()), &board);
        if !moved.is_empty()
            && let Err(err) = self.store.record_ratings(&moved)
        {
            tracing::warn!(game, "recording the ratings' history: {err}");
        }
        Ok(board)
    }

    /// Queues an unranked match for `user` of `version` against `opponent` (any bot's current
    /// version), ahead of ranked play, both seat orders on one seed (a request counts as one
    /// against the hourly quota); returns the match ids.
    pub fn scrimmage(
        &self,
        user: &User,
        version: &Version,
        opponent: &Version,
        game: &str,
    ) -> Result<Vec<i64>, ServiceError> {
        let now = unix_now();
        let per_hour = self.settings.quotas.scrimmages_per_hour;
        if self.store.scrimmages_since(user.id, now - 3600)? / 2 >= u64::from(per_hour) {
            return Err(ServiceError::Quota(format!(
                "an account may ask for {per_hour} scrimmages an hour and {} has: try again later",
                user.name
            )));
        }
        let asked = self.store.scrimmages_since(user.id, 0)? / 2;
        let seed = pairing_seed(game, version.id, opponent.id, u64::MAX - asked);
        let match_of = |seats: Vec<i64>| NewMatch {
            game: game.to_owned(),
            seed,
            kind: MatchKind::Scrimmage,
            seats,
            requested_by: Some(user.id),
        };
        let ids = self
            .store
            .enqueue(&[match_of(vec![version.id, opponent.id]), match_of(vec![opponent.id, version.id])], now)?;
        self.wake_workers();
        Ok(ids)
    }

    /// A worker: plays queued matches until the service stops, topping up the queue when it
    /// finds it empty and sleeping when there is nothing to schedule.
    fn work(&self, name: &str) {
        while !self.stopping.load(Ordering::Relaxed) {
            let claimed = match self.claim(name) {
                Ok(claimed) => claimed,
                Err(err) => {
                    tracing::error!("claiming a match: {err}");
                    None
                }
            };
            match claimed {
                Some(one) => self.play(one),
                None => {
                    let seen = self.wake_count();
                    match self.top_up() {
                        Ok(true) => continue,
                        Ok(false) => {}
                        Err(err) => tracing::error!("scheduling: {err}"),
                    }
                    // Woken by a new version or a scrimmage; the timeout is a safety net.
                    self.sleep_unless_woken(seen, Duration::from_secs(2));
                }
            }
        }
    }

    /// Enqueues the next tables of every game whose ranked queue is short (a game for more than
    /// two bots seats [`Settings::seats`] of them at a table); whether any was.
    pub(crate) fn top_up(&self) -> Result<bool, ServiceError> {
        let mut scheduled = self.scheduling.lock().unwrap_or_else(PoisonError::into_inner);
        let mut queued = false;
        let frozen = self.store.frozen_games()?;
        for game in game_names().into_iter().filter(|game| !frozen.iter().any(|cold| cold == game)) {
            // Matches out on NATS are still pending here (running): they count on top.
            let remote = self.settings.nats.as_ref().map_or(0, |nats| nats.in_flight as u64);
            let wanted = QUEUED_PER_WORKER * self.settings.workers.max(1) as u64 + remote;
            let pending = self.store.ranked_pending(game)?.len() as u64;
            if pending >= wanted {
                continue;
            }
            let bots: Vec<Bot> = self.store.bots_of_game(game)?.into_iter().filter(|bot| !bot.disabled).collect();
            let current = self.current_versions(&bots)?;
            if current.len() < 2 {
                continue;
            }
            let board = self.leaderboard(game)?;
            let counted = scheduled.entry(game.to_owned()).or_default();
            self.count_new_tables(game, counted)?;
            let mut entrants: Vec<Entrant> = current
                .values()
                .map(|version| {
                    let line = board.leaderboard.iter().find(|line| line.version_id == version.id);
                    Entrant {
                        version: version.id,
                        rating: line.map_or(1500.0, |line| line.rating),
                        width: line.map_or(1000.0, |line| line.interval[1] - line.interval[0]),
                        matches: counted.played.get(&version.id).copied().unwrap_or(0),
                    }
                })
                .collect();
            let size = self.settings.seats(game).min(entrants.len());
            // Tables until the queue is full, each one chosen counted as if already queued (on a
            // copy: the queued matches are counted from the store once they have ids).
            let mut planned = counted.clone();
            let mut batch = Vec::new();
            let mut queued_now = pending;
            while queued_now < wanted {
                let Some(table) = next_table(&entrants, &planned.met, planned.last_table.as_deref(), size) else {
                    break;
                };
                // Every seat order by rotation, one seed: each bot once in each seat.
                let seats = table.len() as u64;
                let times = planned.tables.get(&table).copied().unwrap_or(0) / seats;
                let seed = table_seed(game, &table, times);
                for rotation in 0..table.len() {
                    let mut order = table.clone();
                    order.rotate_left(rotation);
                    batch.push(NewMatch {
                        game: game.to_owned(),
                        seed,
                        kind: MatchKind::Ranked,
                        seats: order,
                        requested_by: None,
                    });
                }
                planned.count(&table, seats);
                for entrant in entrants.iter_mut().filter(|entrant| table.contains(&entrant.version)) {
                    entrant.matches += seats;
                }
                planned.last_table = Some(table);
                queued_now += seats;
            }
            counted.last_table = planned.last_table;
            if !batch.is_empty() {
                self.store.enqueue(&batch, unix_now())?;
                queued = true;
            }
        }
        Ok(queued)
    }

    /// Brings `counted` up to date with `game`'s ranked matches queued since it last looked (by
    /// this node or another), a page at a time.
    fn count_new_tables(&self, game: &str, counted: &mut Scheduled) -> Result<(), ServiceError> {
        loop {
            let page = self.store.ranked_tables_page(game, counted.after, RESULTS_PAGE)?;
            for (id, versions) in &page {
                counted.add(*id, versions);
            }
            if page.len() < RESULTS_PAGE as usize {
                return Ok(());
            }
        }
    }

    /// Plays a claimed match and records it (or why it could not be played).
    fn play(&self, one: Match) {
        match self.play_inner(&one) {
            Ok(()) => {}
            Err(err) => {
                tracing::warn!(id = one.id, "match not played: {err}");
                if let Err(err) = self.store.fail_match(one.id, &err.to_string()) {
                    tracing::error!(id = one.id, "recording a failed match: {err}");
                }
            }
        }
        if let Ok(Some(recorded)) = self.store.match_by_id(one.id) {
            // A competition's results are released on its page, not broadcast.
            if recorded.kind != MatchKind::Competition {
                self.publish("result", &one.game, &recorded);
            }
        }
    }

    /// A loaded pool of `game` holding every bot of `paths`, and `seating` (indices into
    /// `paths`) as indices into it. A game's pool is kept and shared by the workers, so a bot is
    /// loaded once, not once per match; it is loaded again when a match needs a file it lacks, as
    /// after a new version is accepted, with the files of the game's current versions and this
    /// match's: a replaced version's bot leaves the pool then (a later match of it, such as a
    /// replay made on demand, loads it again).
    fn pool_for(
        &self,
        game: &str,
        paths: &[BotFiles],
        seating: &[usize],
    ) -> Result<(Arc<GamePool>, Vec<usize>), ServiceError> {
        let mut pools = self.pools.lock().unwrap_or_else(PoisonError::into_inner);
        let held = pools.get(game).filter(|held| paths.iter().all(|path| held.paths.contains(path))).cloned();
        let pool = match held {
            Some(pool) => pool,
            None => {
                let entry = find_game(game).ok_or_else(|| ServiceError::UnknownGame(game.to_owned()))?;
                let bots = self.store.bots_of_game(game)?;
                let mut all: Vec<BotFiles> = Vec::new();
                let current = self.current_versions(&bots)?;
                for path in
                    current.values().filter_map(|version| self.bot_files_of(version).ok()).chain(paths.iter().cloned())
                {
                    if !all.contains(&path) {
                        all.push(path);
                    }
                }
                let memory_mib = self.settings.budget(game).memory_mib;
                let loaded = entry
                    .load_pool(&self.arena, &all, &[], memory_mib)
                    .map_err(|err| ServiceError::Refused(err.to_string()))?;
                let pool = Arc::new(GamePool { paths: all, failures: loaded.load_failures(), pool: loaded });
                pools.insert(game.to_owned(), Arc::clone(&pool));
                pool
            }
        };
        drop(pools);
        let mut at = Vec::with_capacity(seating.len());
        for &index in seating {
            let position = pool.paths.iter().position(|path| *path == paths[index]).unwrap_or_default();
            if let Some(Some(failure)) = pool.failures.get(position) {
                return Err(ServiceError::Refused(failure.message.clone()));
            }
            at.push(position);
        }
        Ok((pool, at))
    }

    /// Plays `one` here: its result, with the replay's JSON text when `replay` asks for it.
    fn play_here(&self, one: &Match, replay: ReplayText) -> Result<arena_host::registry::PoolMatch, ServiceError> {
        let budget = self.settings.budget(&one.game);
        let mut paths: Vec<BotFiles> = Vec::new();
        let mut seating = Vec::new();
        for seat in &one.seats {
            let version = self
                .store
                .version(seat.version_id)?
                .ok_or_else(|| ServiceError::NotFound(format!("version {}", seat.version_id)))?;
            let path = self.bot_files_of(&version)?;
            let index = paths.iter().position(|known| *known == path).unwrap_or_else(|| {
                paths.push(path.clone());
                paths.len() - 1
            });
            seating.push(index);
        }
        let (pool, seating) = self.pool_for(&one.game, &paths, &seating)?;
        pool.pool
            .play(&self.arena, &seating, one.seed, budget, replay)
            .map_err(|err: PlayError| ServiceError::Refused(err.to_string()))
    }

    fn play_inner(&self, one: &Match) -> Result<(), ServiceError> {
        let played = self.play_here(one, ReplayText::Json)?;
        let replay = played.replay.unwrap_or_default();
        let replay_sha256 = self.replays.put_compressed(&replay)?;
        let outcomes = played
            .result
            .players
            .iter()
            .zip(&played.seat_turns)
            .zip(&played.seat_faults)
            .map(|((player, turns), faults)| SeatOutcome {
                player: player.clone(),
                turns: *turns,
                faults: SeatFault::first_of(faults),
            })
            .collect();
        let finished = Finished {
            winner: played.result.winner.map(|seat| seat as u32),
            turns: played.result.turns,
            outcomes,
            digest: played.digest,
            replay_sha256: Some(replay_sha256),
        };
        self.record(one, &finished).map(|_| ())
    }

    /// Records how `one` finished (once: a result of a match already recorded changes nothing).
    /// Whether it was recorded now.
    pub(crate) fn record(&self, one: &Match, finished: &Finished) -> Result<bool, ServiceError> {
        let recorded = self.store.finish_match(one.id, finished)?;
        if recorded && one.kind == MatchKind::Ranked {
            self.results_changed(&one.game);
        }
        if recorded && one.kind == MatchKind::Competition {
            // The competitions' thread moves its bracket on.
            self.wake_workers();
        }
        Ok(recorded)
    }

    /// Notes that `game`'s ranked results changed (a result recorded, or one taken out while
    /// disputed): its leaderboard is refitted.
    pub(crate) fn results_changed(&self, game: &str) {
        if let Some(generation) = self.generations.get(game) {
            generation.fetch_add(1, Ordering::Release);
        }
    }

    /// The replay of a done match, as JSON text: from the blob store, or, when it is not there
    /// (played by a NATS worker, or its unsynced file lost in a crash), made by re-playing the
    /// match here, checked against the digest recorded with its result, and stored.
    pub fn replay_text(&self, one: &Match) -> Result<String, ServiceError> {
        if one.state != MatchState::Done {
            return Err(ServiceError::NotFound(format!("replay of match {} (not played yet)", one.id)));
        }
        if let Some(sha256) = &one.replay_sha256
            && let Ok(text) = self.replays.get_compressed(sha256)
        {
            return Ok(text);
        }
        let played = self.play_here(one, ReplayText::Json)?;
        if one.digest.as_ref().is_some_and(|digest| *digest != played.digest) {
            return Err(ServiceError::Determinism(format!(
                "match {} re-played here gives the record {} but {} was recorded: a determinism failure",
                one.id,
                played.digest,
                one.digest.as_deref().unwrap_or_default()
            )));
        }
        let text = played.replay.unwrap_or_default();
        let sha256 = self.replays.put_compressed(&text)?;
        self.store.set_replay(one.id, &sha256)?;
        Ok(text)
    }

    /// Enters every game's example bots from `dir` (`NAME.wasm`, built by `cargo xtask bots`) as
    /// the account `demo`, which has no password (it cannot log in).
    pub fn enter_examples(&self, dir: &Path) -> Result<usize, ServiceError> {
        let demo = match self.store.user_by_name("demo")? {
            Some(user) => user,
            None => self.store.create_user("demo", "", false)?,
        };
        let mut entered = 0;
        for game in arena_host::registry::games() {
            let info = game.info();
            for name in [info.examples.strong, info.examples.random] {
                let path = dir.join(format!("{name}.wasm"));
                let bytes = std::fs::read(&path).map_err(|err| {
                    ServiceError::Refused(format!(
                        "{}: {err} (the example bots are built by `cargo xtask bots`)",
                        path.display()
                    ))
                })?;
                let mut writer = self.bot_files.writer(self.settings.max_upload)?;
                writer.write(&bytes)?;
                let (_, _, new) = self.upload(&demo, info.name, name, Upload::Wasm(writer), None)?;
                entered += usize::from(new);
            }
        }
        Ok(entered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Flags, Settings};
    use crate::store::sqlite::SqliteStore;

    /// A service on a database in memory (no thread started), its data in a scratch folder.
    fn service() -> (Arc<Service>, PathBuf) {
        let data = std::env::temp_dir().join(format!(
            "arena-service-{}-{:016x}",
            std::process::id(),
            crate::dump::random_seed()
        ));
        let settings = Settings::resolve(&Flags { data: Some(data.clone()), workers: Some(1), ..Flags::default() });
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        (Service::new(settings.unwrap(), store, Arena::new().unwrap()).unwrap(), data)
    }

    #[test]
    fn a_version_left_pending_by_another_node_is_checked_here_and_recorded_once() {
        let (service, data) = service();
        let store = &service.store;
        let alice = store.create_user("alice", "", false).unwrap();
        let bot = store.bot_for_upload(alice.id, "azul", "greedy").unwrap();
        let now = unix_now();
        // Uploaded two minutes ago to a node that died before checking it, and one just now
        // (its node is checking it).
        let sha256 = service.bot_files.put(b"not a component").unwrap();
        let (left, _) = store.add_version(bot.id, &sha256, None, 15, now - 120).unwrap();
        let recent = service.bot_files.put(b"not one either").unwrap();
        let (fresh, _) = store.add_version(bot.id, &recent, None, 14, now).unwrap();
        let (sender, receiver) = mpsc::channel();
        *service.validations.lock().unwrap() = Some(sender);

        assert_eq!(service.take_over_pending(now).unwrap(), 1);
        assert_eq!(receiver.try_iter().collect::<Vec<_>>(), [left.id], "the fresh one is its node's");
        assert_eq!(service.take_over_pending(now).unwrap(), 0, "queued here already");
        assert!(receiver.try_recv().is_err());
        service.validate(left.id).unwrap();
        let checked = store.version(left.id).unwrap().unwrap();
        assert_eq!(checked.status, VersionStatus::Refused, "{checked:?}");
        assert!(store.version(fresh.id).unwrap().unwrap().status == VersionStatus::Pending);

        // The dead node's checks finishing late (or a second node's) change nothing.
        assert!(!store.finish_version(left.id, VersionStatus::Accepted, None, &[]).unwrap());
        service.validate(left.id).unwrap();
        assert_eq!(store.version(left.id).unwrap().unwrap(), checked);
        service.validating.lock().unwrap().remove(&left.id);
        assert_eq!(service.take_over_pending(now).unwrap(), 0, "decided: nothing to take over");
        let _ = std::fs::remove_dir_all(data);
    }
}
