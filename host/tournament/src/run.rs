//! Running a tournament's plan (or one shard of it): record the plan, skip every match the
//! database already has, load each bot once, and play the rest on `jobs` worker threads, each of
//! which writes the match it finished in its own transaction. A match is a pure function of its
//! spec, so which thread plays it, and when, changes nothing in its result; killing the process
//! loses at most the matches in flight, which the next run plays.

use super::plan::{Plan, PlannedMatch};
use super::store::{Outcome, Store, StoreError, StoredMatch};
use arena_host::bot_data::BotFiles;
use arena_host::loader::sha256;
use arena_host::play::MatchError;
use arena_host::registry::{PlayError, PoolMatch, ReplayText, find_game};
use arena_host::runtime::Arena;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Why a tournament could not run.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The plan could not be made (a bot file, two bots the same).
    #[error(transparent)]
    Plan(#[from] super::plan::PlanError),
    /// The database.
    #[error("the results database: {0}")]
    Store(#[from] StoreError),
    /// Another run is writing the database.
    #[error(transparent)]
    Busy(#[from] super::lock::LockError),
    /// The game options.
    #[error(transparent)]
    Setup(#[from] arena_game::SetupError),
    /// A replay could not be written.
    #[error("cannot write a replay into {path}: {source}")]
    Replays {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes `replay` as `<dir>/<id>.json.gz` (through a temporary file, so a killed run leaves no
/// truncated replay under the final name).
fn keep_replay(dir: &Path, id: &str, replay: &str) -> Result<(), TournamentError> {
    use std::io::Write;
    let path = dir.join(format!("{id}.json.gz"));
    let partial = dir.join(format!("{id}.json.gz.partial"));
    let error = |source| TournamentError::Replays { path: path.clone(), source };
    let file = std::fs::File::create(&partial).map_err(error)?;
    let mut encoder = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    encoder.write_all(replay.as_bytes()).map_err(error)?;
    encoder.finish().map_err(error)?;
    std::fs::rename(&partial, &path).map_err(error)
}

/// How far a run is, after each finished match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Matches the run set out to play (those not in the database when it started).
    pub total: usize,
    /// Of those, finished.
    pub done: usize,
    /// Forfeits so far in this run.
    pub forfeits: usize,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// The SPEC's digest (what the database tags its plan with).
    pub spec_digest: String,
    /// Matches planned (for a shard: the shard's).
    pub planned: usize,
    /// Already in the database when the run started.
    pub already_done: usize,
    /// Played by this run.
    pub played: usize,
    /// Recorded as not played by this run (a bot that did not load, ...).
    pub not_played: usize,
    /// Not recorded because the host ran out of a resource: the next run retries them.
    pub retry: usize,
    /// Bots that failed to load: (file, why).
    pub load_errors: Vec<(PathBuf, String)>,
    /// Results in the database that this SPEC does not plan (an earlier SPEC's, kept).
    pub other_results: u64,
}

/// The digest of a plan: sha256 of its match ids, one per line, in plan order.
pub fn spec_digest(plan: &Plan) -> String {
    let ids: Vec<&str> = plan.matches.iter().map(|planned| planned.id.as_str()).collect();
    hex::encode(sha256(ids.join("\n").as_bytes()))
}

/// How a run plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// Matches played at once.
    pub jobs: usize,
    /// Where to keep each played match's replay, as `<match id>.json.gz`.
    pub replays: Option<PathBuf>,
}

/// The part of a plan one process plays: the matches whose position in the plan is `index`
/// modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: usize,
    /// Shards in all.
    pub count: usize,
}

impl Shard {
    /// The whole plan.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether the match at `position` in the plan is this shard's.
    pub fn holds(self, position: usize) -> bool {
        position % self.count.max(1) == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, with `I < N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let parse = |part: &str| part.trim().parse::<usize>().ok();
        text.split_once('/')
            .and_then(|(index, count)| Some(Shard { index: parse(index)?, count: parse(count)? }))
            .filter(|shard| shard.count > 0 && shard.index < shard.count)
            .ok_or_else(|| format!("expected I/N with 0 <= I < N, got {text:?}"))
    }
}

/// Runs the matches of `shard` of `plan` that `database` does not have yet. The database records
/// the whole plan (so `show` and `merge` know every match), and plays only the shard's.
pub fn run_plan(
    arena: &Arena,
    plan: &Plan,
    shard: Shard,
    database: &Path,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RunReport, TournamentError> {
    let Some(first) = plan.matches.first() else {
        return Err(TournamentError::Plan(super::plan::PlanError::Invalid("the plan has no match".into())));
    };
    let game = find_game(&first.spec.game).ok_or_else(|| {
        TournamentError::Plan(super::plan::PlanError::Invalid(format!(
            "unknown game {:?} in the plan",
            first.spec.game
        )))
    })?;
    // One pool serves every match: they must share the game, its options and the memory limit.
    if let Some(other) = plan.matches.iter().find(|planned| {
        (&planned.spec.game, &planned.spec.options, planned.spec.budget.memory_mib)
            != (&first.spec.game, &first.spec.options, first.spec.budget.memory_mib)
    }) {
        return Err(TournamentError::Plan(super::plan::PlanError::Invalid(format!(
            "match {} has another game, options or memory limit than match {}: one plan is one tournament",
            other.id, first.id
        ))));
    }
    // A match planned twice would be played twice and counted twice against one plan row.
    plan.check_unique_ids()?;
    let digest = plan.digest.clone().unwrap_or_else(|| spec_digest(plan));
    // Taken before reading what is finished, held until the last match is recorded.
    let _writer = super::lock::WriterLock::acquire(database)?;
    let mut store = Store::open(database)?;
    store.record_plan(&digest, plan)?;
    let finished = store.finished_ids()?;
    let pending: Vec<&PlannedMatch> = plan
        .matches
        .iter()
        .enumerate()
        .filter(|(position, planned)| shard.holds(*position) && !finished.contains(&planned.id))
        .map(|(_, planned)| planned)
        .collect();
    let in_shard = (0..plan.matches.len()).filter(|position| shard.holds(*position)).count();
    let mut report = RunReport {
        spec_digest: digest.clone(),
        planned: in_shard,
        already_done: in_shard - pending.len(),
        played: 0,
        not_played: 0,
        retry: 0,
        load_errors: Vec::new(),
        other_results: store.foreign_results(&digest)?,
    };
    if pending.is_empty() {
        return Ok(report);
    }
    // Only the bots that still have matches to play are loaded (each compiled once, through the
    // artifact cache).
    let needed: Vec<usize> =
        (0..plan.bots.len()).filter(|bot| pending.iter().any(|m| m.seating.contains(bot))).collect();
    let files: Vec<BotFiles> = needed.iter().map(|&bot| plan.bots[bot].files()).collect();
    let pool = game.load_pool(arena, &files, &first.spec.options, first.spec.budget.memory_mib)?;
    let mut loaded = vec![None; plan.bots.len()];
    for (position, (&bot, error)) in needed.iter().zip(pool.load_errors()).enumerate() {
        match error {
            None => loaded[bot] = Some(position),
            Some(error) => {
                store.record_load_error(&plan.bots[bot], &error)?;
                report.load_errors.push((plan.bots[bot].path.clone(), error));
            }
        }
    }
    let total = pending.len();
    let mut playable = Vec::new();
    let mut done = 0;
    for planned in pending {
        let seating: Option<Vec<usize>> = planned.seating.iter().map(|&bot| loaded[bot]).collect();
        match seating {
            Some(seating) => playable.push((planned, seating)),
            None => {
                let missing: Vec<&str> = planned
                    .seating
                    .iter()
                    .filter(|&&bot| loaded[bot].is_none())
                    .map(|&bot| plan.bots[bot].name.as_str())
                    .collect();
                let why = format!("not played: {} could not be loaded", missing.join(", "));
                store.record_match(planned, Outcome::NotPlayed(&why))?;
                report.not_played += 1;
                done += 1;
            }
        }
    }
    progress(Progress { total, done, forfeits: 0 });
    if let Some(dir) = &options.replays {
        let error = |source| TournamentError::Replays { path: dir.clone(), source };
        std::fs::create_dir_all(dir).map_err(error)?;
        store.record_replays_dir(&dir.canonicalize().map_err(error)?)?;
    }
    // Each worker plays a match, digests and keeps its replay, then takes the store to write it
    // in one transaction. No writer thread: a hand-off per match cost a wake-up and, with a
    // second thread live in the process, a TLB shootdown for every page a finished match unmaps
    // (measured by the `tournament` bench section).
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Recorder { store, report, done, forfeits: 0, failure: None });
    let jobs = options.jobs.clamp(1, playable.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (next, stop, playable, pool, shared) = (&next, &stop, &playable, &pool, &shared);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some((planned, seating)) = playable.get(index) else { break };
                    let text = if options.replays.is_some() { ReplayText::Json } else { ReplayText::DigestOnly };
                    let played = pool.play(arena, seating, planned.spec.seed, planned.spec.budget, text);
                    let finished = finish(planned, played, options.replays.as_deref());
                    let mut recorder = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    if let Err(err) = recorder.record(planned, finished, total, progress) {
                        recorder.failure.get_or_insert(err);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let recorder = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    match recorder.failure {
        Some(err) => Err(err),
        None => Ok(recorder.report),
    }
}

/// A played match, ready to record: what happened, digested on the worker that played it.
pub(crate) enum Finished {
    /// Played to the end (its result, and the digest a merge compares).
    Played(PoolMatch),
    /// Not played, for a reason the bots own (recorded as not played).
    NotPlayed(String),
    /// The host lacked a resource: not recorded, so the next run retries it.
    Retry,
}

impl Finished {
    /// The match as a database stores it; `None` for a match to retry.
    pub(crate) fn stored(&self, planned: &PlannedMatch) -> Option<StoredMatch> {
        let outcome = match self {
            Finished::Played(played) => Outcome::Played {
                result: &played.result,
                seat_turns: &played.seat_turns,
                replay_digest: &played.digest,
            },
            Finished::NotPlayed(why) => Outcome::NotPlayed(why),
            Finished::Retry => return None,
        };
        Some(StoredMatch::new(planned, outcome))
    }
}

/// Digests a match's outcome on its worker (and keeps its replay when asked), outside the
/// store's lock.
pub(crate) fn finish(
    planned: &PlannedMatch,
    played: Result<PoolMatch, PlayError>,
    replays: Option<&Path>,
) -> Result<Finished, TournamentError> {
    match played {
        Ok(played) => {
            if let (Some(dir), Some(replay)) = (replays, &played.replay) {
                keep_replay(dir, &planned.id, replay)?;
            }
            Ok(Finished::Played(played))
        }
        Err(PlayError::Match(MatchError::HostResources { .. })) => Ok(Finished::Retry),
        Err(err) => Ok(Finished::NotPlayed(err.to_string())),
    }
}

/// The store and the run's tallies, shared by the workers behind one lock.
struct Recorder {
    store: Store,
    report: RunReport,
    done: usize,
    forfeits: usize,
    /// The first error that stopped the run.
    failure: Option<TournamentError>,
}

impl Recorder {
    /// Writes one finished match in its own transaction and reports progress.
    fn record(
        &mut self,
        planned: &PlannedMatch,
        finished: Result<Finished, TournamentError>,
        total: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<(), TournamentError> {
        let finished = finished?;
        match finished.stored(planned) {
            Some(stored) => {
                self.store.insert_stored(&stored)?;
                if let Finished::Played(played) = &finished {
                    self.forfeits += played.result.players.iter().filter(|player| player.forfeit).count();
                    self.report.played += 1;
                } else {
                    self.report.not_played += 1;
                }
            }
            None => self.report.retry += 1,
        }
        self.done += 1;
        progress(Progress { total, done: self.done, forfeits: self.forfeits });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanError;
    use crate::plan::tests::two_bot_plan;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-run-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    const ONE_JOB: RunOptions = RunOptions { jobs: 1, replays: None };

    /// Obeyed: each match of a plan is recorded once (here as not played: the plan's bot files
    /// are not WebAssembly), and the database counts as many finished as planned.
    #[test]
    fn each_planned_match_is_recorded_once() {
        let dir = scratch("once");
        let plan = two_bot_plan(&dir, &[1, 2]);
        let (arena, database) = (Arena::new().unwrap(), dir.join("t.sqlite"));
        let report = run_plan(&arena, &plan, Shard::WHOLE, &database, &ONE_JOB, &|_| {}).unwrap();
        assert_eq!((report.planned, report.played, report.not_played), (2, 0, 2));
        assert_eq!(Store::open(&database).unwrap().progress(&report.spec_digest).unwrap(), (2, 0, 2));
        let again = run_plan(&arena, &plan, Shard::WHOLE, &database, &ONE_JOB, &|_| {}).unwrap();
        assert_eq!((again.already_done, again.not_played), (2, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: a plan naming a match twice is refused before anything is recorded (it was
    /// played twice and counted twice: "2 planned, 3 played").
    #[test]
    fn a_plan_naming_a_match_twice_is_refused_before_any_match_is_played() {
        let dir = scratch("twice");
        let mut plan = two_bot_plan(&dir, &[1, 2]);
        plan.matches.push(plan.matches[0].clone());
        let (arena, database) = (Arena::new().unwrap(), dir.join("t.sqlite"));
        match run_plan(&arena, &plan, Shard::WHOLE, &database, &ONE_JOB, &|_| {}) {
            Err(TournamentError::Plan(PlanError::Duplicate { id, line: 3, first: 1 })) => {
                assert_eq!(id, plan.matches[0].id);
            }
            other => panic!("expected a duplicate match, got {other:?}"),
        }
        assert!(!database.exists(), "nothing recorded");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
