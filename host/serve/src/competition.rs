//! Competitions (seasons): an organizer's event for one game, with a submission deadline at
//! which each entrant's current version is frozen, played by the service's workers as
//! [`MatchKind::Competition`] matches (never rated on the ladder), in one of the formats of
//! [`CompetitionFormat`], its results released to whom and up to which round the organizer
//! says. docs/ladder.md#competitions has the rules in words.
//!
//! - [`parse_format`], [`parse_deadline`]: what `arena serve admin competition create` takes.
//! - [`entrants_in_seed_order`]: the seeding rule (ladder rating, best first; ties by version id).
//! - [`Service::advance_competitions`]: the step that starts a competition past its deadline and
//!   moves it on as its matches finish (a bracket's next series, a Swiss competition's next
//!   round, paired by the tournament runner's [`arena_tournament::swiss::pair`]); idempotent,
//!   and safe on several nodes (the store moves a competition on only from the state it was read
//!   in).
//! - Rounds: every pairing or series has one ([`round_robin_rounds`], a gauntlet's pool member,
//!   a Swiss round, [`Bracket::rounds`]), and each match is its pairing's by its seed
//!   ([`competition_seed`]); results are released up to a round.
//! - [`sight`], [`may_see_match`], [`visible_results`], [`view`]: what a viewer may see of one
//!   (its standings, series, match pages, replays, its results as a tournament database), as its
//!   release allows.

use crate::ratings::{Leaderboard, leaderboard_of};
use crate::service::{Service, ServiceError, unix_now};
use crate::store::{
    Bot, Competition, CompetitionFormat, CompetitionState, Match, MatchKind, MatchState, NewMatch, Release, Store,
    StoreError, User, Version,
};
use arena_tournament::bracket::{Bracket, Elimination, Placement, SeriesResult, SeriesState};
use arena_tournament::store::SeatRow;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The most seeds a pairing or series may have (each played in both seat orders).
pub const MAX_SEEDS: u32 = 64;

/// The most rounds a Swiss competition may be asked to play.
pub const MAX_ROUNDS: u32 = 64;

/// The format called `text` (`round-robin`, `swiss`, `gauntlet`, `single-elimination`,
/// `double-elimination`), or why not in words.
pub fn parse_format(text: &str) -> Result<CompetitionFormat, String> {
    CompetitionFormat::parse(text).ok_or_else(|| {
        let names: Vec<&str> = CompetitionFormat::ALL.iter().map(|format| format.as_str()).collect();
        format!("no format {text:?}: {}", names.join(", "))
    })
}

/// A deadline in Unix seconds: `now`, or an RFC 3339 time (`2025-06-01T18:00:00Z`,
/// `2025-06-01T20:00:00+02:00`, fractions of a second dropped).
pub fn parse_deadline(text: &str, now: i64) -> Result<i64, String> {
    if text == "now" {
        return Ok(now);
    }
    rfc3339(text).ok_or_else(|| format!("{text:?} is not `now` nor an RFC 3339 time such as 2025-06-01T18:00:00Z"))
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` (`T` or `t` or a space; `Z` or `z`).
fn rfc3339(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = bytes.get(range)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    if bytes.get(4) != Some(&b'-')
        || bytes.get(7) != Some(&b'-')
        || !matches!(bytes.get(10), Some(b'T' | b't' | b' '))
        || bytes.get(13) != Some(&b':')
        || bytes.get(16) != Some(&b':')
    {
        return None;
    }
    let mut rest = 19;
    if bytes.get(rest) == Some(&b'.') {
        rest += 1;
        let start = rest;
        while bytes.get(rest).is_some_and(u8::is_ascii_digit) {
            rest += 1;
        }
        if rest == start {
            return None;
        }
    }
    let offset = match bytes.get(rest..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let number = |a: u8, b: u8| {
                (a.is_ascii_digit() && b.is_ascii_digit()).then(|| i64::from((a - b'0') * 10 + (b - b'0')))
            };
            let (hours, minutes) = (number(*h1, *h2)?, number(*m1, *m2)?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = hours * 3600 + minutes * 60;
            if *sign == b'+' { offset } else { -offset }
        }
        _ => return None,
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let days_in_month = *month_days.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second.min(59) - offset)
}

/// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The seed of the `k`-th seed of a pairing or series `label` of competition `id`: the first
/// 8 bytes of sha256("competition:ID:LABEL:K"), little-endian. A pairing (round robin, Swiss,
/// gauntlet) is labelled `V<a>-V<b>` (its versions, lower id first: two entrants meet once);
/// a bracket's series by its id (`W1-1`).
pub fn competition_seed(id: i64, label: &str, k: u32) -> u64 {
    let digest = Sha256::digest(format!("competition:{id}:{label}:{k}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The label of the pairing of versions `a` and `b`.
fn pairing_label([a, b]: [i64; 2]) -> String {
    format!("V{}-V{}", a.min(b), a.max(b))
}

/// The matches of a pairing or series of `competition`: each of its seeds in both seat orders.
fn series_matches(competition: &Competition, label: &str, [a, b]: [i64; 2]) -> Vec<NewMatch> {
    (0..competition.seeds)
        .flat_map(|k| {
            let seed = competition_seed(competition.id, label, k);
            [[a, b], [b, a]].map(|seats| NewMatch {
                game: competition.game.clone(),
                seed,
                kind: MatchKind::Competition,
                seats: seats.to_vec(),
                requested_by: None,
            })
        })
        .collect()
}

/// The matches of the pairings `pairs` (round robin, Swiss, gauntlet) of `competition`.
fn pairing_matches(competition: &Competition, pairs: impl IntoIterator<Item = [i64; 2]>) -> Vec<NewMatch> {
    pairs.into_iter().flat_map(|versions| series_matches(competition, &pairing_label(versions), versions)).collect()
}

/// The seeding rule: the versions `current` ordered by their ladder rating on `board`, best
/// first; versions with no rating after every rated one; ties (and the unrated) by version id,
/// lowest (oldest) first.
pub fn entrants_in_seed_order(board: &Leaderboard, current: impl IntoIterator<Item = i64>) -> Vec<i64> {
    let rating =
        |version: i64| board.leaderboard.iter().find(|line| line.version_id == version).map(|line| line.rating);
    let mut entrants: Vec<(Option<f64>, i64)> = current.into_iter().map(|version| (rating(version), version)).collect();
    entrants.sort_by(|(a_rating, a), (b_rating, b)| {
        let by_rating = match (a_rating, b_rating) {
            (Some(a), Some(b)) => b.total_cmp(a),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        };
        by_rating.then(a.cmp(b))
    });
    entrants.into_iter().map(|(_, version)| version).collect()
}

/// A round robin's rounds by the circle method over `entrants` entrants (indices in seed
/// order): with an even count `m` (one more when odd: whoever it meets sits the round out),
/// `m - 1` rounds in which the last index stays put and the others turn one place round; each
/// pair (lower index first) meets in exactly one round, and nobody plays twice in a round.
pub fn round_robin_rounds(entrants: usize) -> Vec<Vec<[usize; 2]>> {
    let even = entrants + entrants % 2;
    let turning = even.saturating_sub(1);
    (0..turning)
        .map(|round| {
            let at = |place: usize| if place == turning { turning } else { (round + place) % turning };
            (0..even / 2)
                .map(|place| (at(place), at(even - 1 - place)))
                .filter(|&(a, b)| a < entrants && b < entrants)
                .map(|(a, b)| [a.min(b), a.max(b)])
                .collect()
        })
        .collect()
}

/// The rounds a Swiss competition of `entrants` plays: as it was created with, else enough to
/// single out a winner (⌈log2 entrants⌉).
pub fn swiss_rounds(competition: &Competition, entrants: usize) -> u32 {
    competition.rounds.unwrap_or_else(|| usize::BITS - entrants.saturating_sub(1).leading_zeros())
}

/// A Swiss competition's state: its rounds paired so far, each a list of pairings' versions
/// (the better placed first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SwissState {
    rounds: Vec<Vec<[i64; 2]>>,
}

/// A gauntlet's state: its pool's versions as frozen at the deadline, in seed order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GauntletState {
    pool: Vec<i64>,
}

/// A pairing of a round robin, Swiss or gauntlet competition.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pairing {
    /// Its round, from 1.
    round: u32,
    /// Its two versions.
    versions: [i64; 2],
}

/// What a competition plays, as far as it is known.
#[derive(Debug, Clone)]
enum Schedule {
    /// Round robin, Swiss, gauntlet: pairings, each in a round.
    Pairings(Vec<Pairing>),
    /// Elimination: the bracket as it stands.
    Bracket(Bracket),
}

impl Schedule {
    /// Each match seed the schedule plays, with its pairing's or series' round. A match is its
    /// pairing's by its seed ([`competition_seed`] of the pairing's label).
    fn rounds_by_seed(&self, competition: &Competition) -> BTreeMap<u64, u32> {
        let labelled: Vec<(String, u32)> = match self {
            Schedule::Pairings(pairings) => {
                pairings.iter().map(|pairing| (pairing_label(pairing.versions), pairing.round)).collect()
            }
            Schedule::Bracket(bracket) => {
                bracket.series().into_iter().map(|series| (series.id, series.round)).collect()
            }
        };
        let mut rounds = BTreeMap::new();
        for (label, round) in labelled {
            for k in 0..competition.seeds {
                rounds.insert(competition_seed(competition.id, &label, k), round);
            }
        }
        rounds
    }
}

/// The elimination of an elimination format.
fn elimination_of(format: CompetitionFormat) -> Option<Elimination> {
    match format {
        CompetitionFormat::RoundRobin | CompetitionFormat::Swiss | CompetitionFormat::Gauntlet => None,
        CompetitionFormat::SingleElimination => Some(Elimination::Single),
        CompetitionFormat::DoubleElimination => Some(Elimination::Double),
    }
}

fn corrupt(detail: impl ToString) -> ServiceError {
    ServiceError::Store(StoreError::Corrupt { what: "competition state", detail: detail.to_string() })
}

/// The state stored for a competition, read back as `T`.
fn stored_state<T: serde::de::DeserializeOwned>(competition: &Competition) -> Result<T, ServiceError> {
    let stored =
        competition.bracket.as_deref().ok_or_else(|| corrupt(format!("competition {}: none", competition.id)))?;
    serde_json::from_str(stored).map_err(corrupt)
}

/// What `competition` plays (known once it started): its pairings or its bracket.
fn schedule(competition: &Competition) -> Result<Schedule, ServiceError> {
    let entrants = &competition.entrants;
    if competition.state == CompetitionState::Open || entrants.len() < 2 {
        return Ok(Schedule::Pairings(Vec::new()));
    }
    let pairings = match competition.format {
        CompetitionFormat::RoundRobin => (1..)
            .zip(round_robin_rounds(entrants.len()))
            .flat_map(|(round, pairs)| {
                pairs.into_iter().map(move |[a, b]| Pairing { round, versions: [entrants[a], entrants[b]] })
            })
            .collect(),
        CompetitionFormat::Gauntlet => {
            let GauntletState { pool } = stored_state(competition)?;
            let challengers: Vec<i64> = entrants.iter().copied().filter(|version| !pool.contains(version)).collect();
            (1..)
                .zip(&pool)
                .flat_map(|(round, member)| {
                    challengers.iter().map(move |challenger| Pairing { round, versions: [*challenger, *member] })
                })
                .collect()
        }
        CompetitionFormat::Swiss => {
            let SwissState { rounds } = stored_state(competition)?;
            (1..)
                .zip(rounds)
                .flat_map(|(round, pairs)| pairs.into_iter().map(move |versions| Pairing { round, versions }))
                .collect()
        }
        CompetitionFormat::SingleElimination | CompetitionFormat::DoubleElimination => {
            return Ok(Schedule::Bracket(stored_state(competition)?));
        }
    };
    Ok(Schedule::Pairings(pairings))
}

/// Whether a match will not change any more (played, or could not be played).
fn settled(one: &Match) -> bool {
    matches!(one.state, MatchState::Done | MatchState::Failed)
}

/// A series' result from its matches (sides `versions`): matches won alone by each side, and
/// each side's total score over the matches played.
fn series_result(played: &[&Match], versions: [i64; 2]) -> SeriesResult {
    let mut result = SeriesResult { wins: [0, 0], tiebreak: [0, 0] };
    for one in played.iter().filter(|one| one.state == MatchState::Done) {
        for (side, version) in versions.iter().enumerate() {
            for (seat, taken) in one.seats.iter().enumerate() {
                if taken.version_id != *version {
                    continue;
                }
                if one.winner == Some(seat as u32) {
                    result.wins[side] += 1;
                }
                if let Some(outcome) = &taken.outcome {
                    result.tiebreak[side] = result.tiebreak[side].saturating_add(outcome.player.score);
                }
            }
        }
    }
    result
}

/// The entrants (indices into `entrants`, in seed order) best first by their standings over
/// `done`, for pairing a Swiss round: the tournament runner's standings (rating, then name),
/// each entrant named by its seed, so ties (all of them before round 1) go to the better seed.
fn swiss_ranking(entrants: &[i64], done: &[Match]) -> Vec<usize> {
    let keys: Vec<(String, String, Option<String>)> =
        entrants.iter().enumerate().map(|(seed, version)| (version.to_string(), format!("{seed:012}"), None)).collect();
    let mut seats = Vec::new();
    for one in done {
        for (seat, taken) in one.seats.iter().enumerate() {
            let Some(outcome) = &taken.outcome else { continue };
            let key = taken.version_id.to_string();
            seats.push(SeatRow::of(one.id.to_string(), seat as u32, key, &outcome.player, outcome.turns));
        }
    }
    arena_tournament::leaderboard::standings(&keys, &seats)
        .into_iter()
        .filter_map(|standing| entrants.iter().position(|version| version.to_string() == standing.sha256))
        .collect()
}

/// A Swiss round paired from the standings over `done`, never two entrants that met in
/// `earlier` rounds: the tournament runner's pairing ([`arena_tournament::swiss::pair`]), those
/// left over sitting the round out.
fn swiss_round(entrants: &[i64], done: &[Match], earlier: &[Vec<[i64; 2]>]) -> Vec<[i64; 2]> {
    let index = |version: &i64| entrants.iter().position(|entrant| entrant == version);
    let met: BTreeSet<(usize, usize)> = earlier
        .iter()
        .flatten()
        .filter_map(|[a, b]| {
            let (a, b) = (index(a)?, index(b)?);
            Some((a.min(b), a.max(b)))
        })
        .collect();
    let (pairs, _byes) = arena_tournament::swiss::pair(&swiss_ranking(entrants, done), &met);
    pairs.into_iter().filter_map(|(a, b)| Some([*entrants.get(a)?, *entrants.get(b)?])).collect()
}

impl Service {
    /// Starts every open competition whose deadline has passed and moves every running one on
    /// (records the series whose matches are all played, enqueues the series or the Swiss
    /// round that became ready, marks it done when over); whether any changed. Safe to run on
    /// several nodes at once.
    pub fn advance_competitions(&self) -> Result<bool, ServiceError> {
        let now = unix_now();
        let mut changed = false;
        for competition in self.store.competitions()? {
            let moved = match competition.state {
                CompetitionState::Open if competition.deadline <= now => self.start_competition(&competition, now)?,
                CompetitionState::Running => self.move_competition_on(&competition, now)?,
                CompetitionState::Open | CompetitionState::Done => false,
            };
            changed |= moved;
        }
        if changed {
            self.wake_workers();
        }
        Ok(changed)
    }

    /// Freezes a competition's entrants (each enabled bot's current version, in seed order) and
    /// enqueues its first matches: a round robin's and a gauntlet's all, a Swiss competition's
    /// first round, a bracket's first series.
    fn start_competition(&self, competition: &Competition, now: i64) -> Result<bool, ServiceError> {
        let bots: Vec<Bot> =
            self.store.bots_of_game(&competition.game)?.into_iter().filter(|bot| !bot.disabled).collect();
        let current = self.current_versions(&bots)?;
        let board = self.leaderboard(&competition.game)?;
        let entrants = entrants_in_seed_order(&board, current.values().map(|version| version.id));
        let id = competition.id;
        if entrants.len() < 2 {
            tracing::warn!(id, entrants = entrants.len(), "competition with fewer than 2 entrants: done at once");
            return self.finish_at_once(id, &entrants, None, now);
        }
        let (state, matches) = match competition.format {
            CompetitionFormat::RoundRobin => {
                let rounds = round_robin_rounds(entrants.len());
                (
                    None,
                    pairing_matches(competition, rounds.into_iter().flatten().map(|[a, b]| [entrants[a], entrants[b]])),
                )
            }
            CompetitionFormat::Gauntlet => {
                let in_pool = |version: &i64| {
                    current.iter().any(|(bot, found)| {
                        found.id == *version
                            && bots.iter().any(|known| known.id == *bot && competition.pool.contains(&known.name))
                    })
                };
                let pool: Vec<i64> = entrants.iter().copied().filter(in_pool).collect();
                let state = serde_json::to_string(&GauntletState { pool: pool.clone() }).map_err(corrupt)?;
                if pool.is_empty() || pool.len() == entrants.len() {
                    tracing::warn!(id, pool = pool.len(), "gauntlet without a pool or a challenger: done at once");
                    return self.finish_at_once(id, &entrants, Some(&state), now);
                }
                let challengers: Vec<i64> =
                    entrants.iter().copied().filter(|version| !pool.contains(version)).collect();
                let pairs =
                    pool.iter().flat_map(|member| challengers.iter().map(move |challenger| [*challenger, *member]));
                (Some(state), pairing_matches(competition, pairs))
            }
            CompetitionFormat::Swiss => {
                let first = swiss_round(&entrants, &[], &[]);
                let matches = pairing_matches(competition, first.iter().copied());
                (Some(serde_json::to_string(&SwissState { rounds: vec![first] }).map_err(corrupt)?), matches)
            }
            CompetitionFormat::SingleElimination | CompetitionFormat::DoubleElimination => {
                let elimination = elimination_of(competition.format).ok_or_else(|| corrupt("no elimination"))?;
                let bracket = Bracket::new(elimination, entrants.len()).map_err(corrupt)?;
                let matches = bracket
                    .ready()
                    .iter()
                    .flat_map(|series| {
                        series_matches(competition, &series.id, series.entrants.map(|index| entrants[index]))
                    })
                    .collect();
                (Some(serde_json::to_string(&bracket).map_err(corrupt)?), matches)
            }
        };
        let started = self.store.start_competition(id, &entrants, state.as_deref(), &matches, now)?;
        if started {
            tracing::info!(id, entrants = entrants.len(), matches = matches.len(), "competition started");
        }
        Ok(started)
    }

    /// Starts a competition with nothing to play and marks it done.
    fn finish_at_once(&self, id: i64, entrants: &[i64], state: Option<&str>, now: i64) -> Result<bool, ServiceError> {
        let started = self.store.start_competition(id, entrants, state, &[], now)?;
        self.store.advance_competition(id, state, state, &[], true, now)?;
        Ok(started)
    }

    /// Moves a running competition on; whether it moved.
    fn move_competition_on(&self, competition: &Competition, now: i64) -> Result<bool, ServiceError> {
        let played = self.store.competition_matches(competition.id)?;
        let state = competition.bracket.as_deref();
        let all_settled = played.iter().all(settled);
        if competition.entrants.len() < 2 {
            return Ok(all_settled && self.store.advance_competition(competition.id, state, state, &[], true, now)?);
        }
        match competition.format {
            // Every match was enqueued at the start: done once every match is.
            CompetitionFormat::RoundRobin | CompetitionFormat::Gauntlet => {
                Ok(all_settled && self.store.advance_competition(competition.id, state, state, &[], true, now)?)
            }
            CompetitionFormat::Swiss if all_settled => self.next_swiss_round(competition, &played, now),
            CompetitionFormat::Swiss => Ok(false),
            CompetitionFormat::SingleElimination | CompetitionFormat::DoubleElimination => {
                self.move_bracket_on(competition, &played, now)
            }
        }
    }

    /// Pairs and enqueues a Swiss competition's next round, every match of the rounds before it
    /// settled; done after its last round, or when no two entrants that have not met are left.
    fn next_swiss_round(&self, competition: &Competition, played: &[Match], now: i64) -> Result<bool, ServiceError> {
        let stored = competition.bracket.as_deref();
        let SwissState { mut rounds } = stored_state(competition)?;
        let total = swiss_rounds(competition, competition.entrants.len());
        let next = if rounds.len() < total as usize {
            let done: Vec<Match> = played.iter().filter(|one| one.state == MatchState::Done).cloned().collect();
            swiss_round(&competition.entrants, &done, &rounds)
        } else {
            Vec::new()
        };
        if next.is_empty() {
            return Ok(self.store.advance_competition(competition.id, stored, stored, &[], true, now)?);
        }
        let matches = pairing_matches(competition, next.iter().copied());
        rounds.push(next);
        let state = serde_json::to_string(&SwissState { rounds }).map_err(corrupt)?;
        Ok(self.store.advance_competition(competition.id, stored, Some(&state), &matches, false, now)?)
    }

    /// Moves a bracket on: records the series whose matches are all played, enqueues the series
    /// that became ready, marks the competition done once the bracket is decided.
    fn move_bracket_on(&self, competition: &Competition, played: &[Match], now: i64) -> Result<bool, ServiceError> {
        let stored = competition.bracket.as_deref().ok_or_else(|| corrupt("a bracket competition without one"))?;
        let mut bracket: Bracket = serde_json::from_str(stored).map_err(corrupt)?;
        let version_of = |index: usize| {
            competition.entrants.get(index).copied().ok_or_else(|| corrupt(format!("no entrant {index}")))
        };
        let mut enqueue = Vec::new();
        let mut recorded = false;
        loop {
            let mut progressed = false;
            for series in bracket.ready() {
                let versions = [version_of(series.entrants[0])?, version_of(series.entrants[1])?];
                let expected = series_matches(competition, &series.id, versions);
                let found: Vec<&Match> = played
                    .iter()
                    .filter(|one| {
                        expected.iter().any(|new| {
                            new.seed == one.seed
                                && one.seats.iter().map(|seat| seat.version_id).eq(new.seats.iter().copied())
                        })
                    })
                    .collect();
                if found.is_empty() {
                    if !enqueue.iter().any(|new: &NewMatch| expected.contains(new)) {
                        enqueue.extend(expected);
                    }
                } else if found.len() >= expected.len() && found.iter().all(|one| settled(one)) {
                    bracket.record(&series.id, series_result(&found, versions)).map_err(corrupt)?;
                    progressed = true;
                    recorded = true;
                }
            }
            if !progressed {
                break;
            }
        }
        if !recorded && enqueue.is_empty() {
            return Ok(false);
        }
        let next = serde_json::to_string(&bracket).map_err(corrupt)?;
        let done = bracket.is_finished();
        Ok(self.store.advance_competition(competition.id, Some(stored), Some(&next), &enqueue, done, now)?)
    }
}

/// An entrant as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntrantView {
    /// Its seed, from 1 (the best).
    pub seed: usize,
    /// The version frozen.
    pub version_id: i64,
    /// Its bot's name.
    pub bot: String,
    /// A gauntlet's pool member (the others are its challengers).
    pub pool: bool,
}

/// A line of the standings: places `first..=last` shared (a bracket's round) or its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingView {
    /// The best place of the range.
    pub first: usize,
    /// The worst place of the range.
    pub last: usize,
    /// The version.
    pub version_id: i64,
    /// Its bot's name.
    pub bot: String,
    /// Its rating over the competition's matches (round robin, Swiss, gauntlet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Matches won alone (round robin, Swiss, gauntlet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
}

/// A series of a bracket, or a pairing of the other formats, as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesView {
    /// Its id: a series' (`W1-1`, `L2-1`, `GF1`, ...) or a pairing's label (`V3-V7`).
    pub id: String,
    /// Its round as the page heads it: a series id's part before the dash (`W1`, `L2`, `GF1`),
    /// a pairing's round number.
    pub round: String,
    /// Its round of play, from 1: what results are released up to.
    pub play_round: u32,
    /// Its entrants' versions as far as known.
    pub entrants: [Option<i64>; 2],
    /// Their bots' names.
    pub names: [Option<String>; 2],
    /// Its result (matches won, total scores), once all its matches are played.
    pub result: Option<SeriesResult>,
    /// The version that advanced, once recorded (a bracket's series).
    pub winner: Option<i64>,
}

/// What the API and the page show of a competition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompetitionView {
    /// The competition.
    #[serde(flatten)]
    pub competition: Competition,
    /// Whether the viewer may see its results (standings, series, matches): its release allows.
    pub results_visible: bool,
    /// The last round whose results the viewer sees (`None`: every round, or none when the
    /// results are not visible).
    pub results_up_to_round: Option<u32>,
    /// Its entrants, in seed order (known once it started).
    pub entrant_list: Vec<EntrantView>,
    /// Its matches: how many, how many played.
    pub matches: [usize; 2],
    /// The standings, best first (when visible).
    pub standings: Vec<StandingView>,
    /// Its series (a bracket's) or pairings (the other formats') in order of play (when
    /// visible).
    pub series: Vec<SeriesView>,
}

/// How much of a competition's results a viewer may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// None: not released to them.
    Nothing,
    /// Those of rounds 1 to this one.
    UpToRound(u32),
    /// All of them.
    All,
}

impl Sight {
    /// Whether a result of round `round` is seen.
    pub fn sees(self, round: u32) -> bool {
        match self {
            Sight::Nothing => false,
            Sight::UpToRound(last) => round <= last,
            Sight::All => true,
        }
    }
}

/// What `viewer` may see of the results of `competition` whose entrants' owners are `owners`:
/// an admin everything; the others what the release lets them (hidden: nothing, participants:
/// the owners, public: everyone), up to its released round if it names one.
pub fn sight(competition: &Competition, viewer: Option<&User>, owners: &[i64]) -> Sight {
    if viewer.is_some_and(|user| user.admin) {
        return Sight::All;
    }
    let released = match competition.release {
        Release::Public => true,
        Release::Participants => viewer.is_some_and(|user| owners.contains(&user.id)),
        Release::Hidden => false,
    };
    match (released, competition.released_rounds) {
        (false, _) => Sight::Nothing,
        (true, Some(last)) => Sight::UpToRound(last),
        (true, None) => Sight::All,
    }
}

/// The entrants' versions and their bots (those still there).
fn entrant_versions(store: &dyn Store, competition: &Competition) -> Result<(Vec<Version>, Vec<Bot>), ServiceError> {
    let mut versions: Vec<Version> = Vec::new();
    let mut bots: Vec<Bot> = Vec::new();
    for version in &competition.entrants {
        if let Some(found) = store.version(*version)? {
            if let Some(bot) = store.bot(found.bot_id)? {
                bots.push(bot);
            }
            versions.push(found);
        }
    }
    Ok((versions, bots))
}

/// What `viewer` may see of `competition`'s results, with the entrants' owners read.
fn sight_of(store: &dyn Store, competition: &Competition, viewer: Option<&User>) -> Result<Sight, ServiceError> {
    if viewer.is_some_and(|user| user.admin) {
        return Ok(Sight::All);
    }
    let (_, bots) = entrant_versions(store, competition)?;
    let owners: Vec<i64> = bots.iter().map(|bot| bot.owner).collect();
    Ok(sight(competition, viewer, &owners))
}

/// Whether `viewer` may see the match `one` (its page, its replay): any match but a
/// competition's; a competition's when its release shows the viewer the match's round.
pub fn may_see_match(store: &dyn Store, one: &Match, viewer: Option<&User>) -> Result<bool, ServiceError> {
    if one.kind != MatchKind::Competition || viewer.is_some_and(|user| user.admin) {
        return Ok(true);
    }
    let Some(competition) = store.competition_of_match(one.id)?.map(|id| store.competition(id)).transpose()?.flatten()
    else {
        return Ok(false);
    };
    let seen = sight_of(store, &competition, viewer)?;
    if seen == Sight::All {
        return Ok(true);
    }
    let round = schedule(&competition)?.rounds_by_seed(&competition).get(&one.seed).copied();
    Ok(round.is_some_and(|round| seen.sees(round)))
}

/// The played matches of `competition` that `viewer` may see (`None`: its results are not
/// released to them), oldest first.
pub fn visible_results(
    store: &dyn Store,
    competition: &Competition,
    viewer: Option<&User>,
) -> Result<Option<Vec<Match>>, ServiceError> {
    let seen = sight_of(store, competition, viewer)?;
    if seen == Sight::Nothing {
        return Ok(None);
    }
    let rounds = schedule(competition)?.rounds_by_seed(competition);
    let mut played = store.competition_matches(competition.id)?;
    played.retain(|one| one.state == MatchState::Done && rounds.get(&one.seed).is_some_and(|round| seen.sees(*round)));
    Ok(Some(played))
}

/// What `viewer` may see of `competition`.
pub fn view(
    store: &dyn Store,
    competition: Competition,
    viewer: Option<&User>,
) -> Result<CompetitionView, ServiceError> {
    let names = store.bot_names(&competition.entrants)?;
    let name = |version: i64| names.get(&version).cloned().unwrap_or_else(|| format!("version {version}"));
    let (versions, bots) = entrant_versions(store, &competition)?;
    let owners: Vec<i64> = bots.iter().map(|bot| bot.owner).collect();
    let seen = sight(&competition, viewer, &owners);
    let schedule = schedule(&competition)?;
    let pool: Vec<i64> = match (competition.format, competition.bracket.as_deref()) {
        (CompetitionFormat::Gauntlet, Some(_)) => stored_state::<GauntletState>(&competition)?.pool,
        _ => Vec::new(),
    };
    let entrant_list = competition
        .entrants
        .iter()
        .enumerate()
        .map(|(seed, version)| EntrantView {
            seed: seed + 1,
            version_id: *version,
            bot: name(*version),
            pool: pool.contains(version),
        })
        .collect();
    let played = store.competition_matches(competition.id)?;
    let matches = [played.len(), played.iter().filter(|one| one.state == MatchState::Done).count()];
    let mut standings = Vec::new();
    let mut series = Vec::new();
    match (&schedule, seen) {
        (_, Sight::Nothing) => {}
        (Schedule::Pairings(pairings), _) => {
            let rounds = schedule.rounds_by_seed(&competition);
            let shown: Vec<&Match> =
                played.iter().filter(|one| rounds.get(&one.seed).is_some_and(|round| seen.sees(*round))).collect();
            let done: Vec<Match> =
                shown.iter().filter(|one| one.state == MatchState::Done).map(|one| (*one).clone()).collect();
            let current: BTreeMap<i64, i64> = versions.iter().map(|version| (version.bot_id, version.id)).collect();
            let board = leaderboard_of(&competition.game, &bots, &versions, &current, &done);
            standings = board
                .leaderboard
                .iter()
                .enumerate()
                .map(|(place, line)| StandingView {
                    first: place + 1,
                    last: place + 1,
                    version_id: line.version_id,
                    bot: line.bot.clone(),
                    rating: Some(line.rating),
                    wins: Some(line.wins),
                })
                .collect();
            for pairing in pairings.iter().filter(|pairing| seen.sees(pairing.round)) {
                let label = pairing_label(pairing.versions);
                let seeds: Vec<u64> =
                    (0..competition.seeds).map(|k| competition_seed(competition.id, &label, k)).collect();
                let found: Vec<&Match> = shown.iter().copied().filter(|one| seeds.contains(&one.seed)).collect();
                let complete = found.len() >= 2 * seeds.len() && found.iter().all(|one| settled(one));
                series.push(SeriesView {
                    id: label,
                    round: pairing.round.to_string(),
                    play_round: pairing.round,
                    entrants: pairing.versions.map(Some),
                    names: pairing.versions.map(|version| Some(name(version))),
                    result: complete.then(|| series_result(&found, pairing.versions)),
                    winner: None,
                });
            }
        }
        (Schedule::Bracket(bracket), _) => {
            let shown = match seen {
                Sight::UpToRound(last) => bracket.up_to_round(last),
                Sight::All | Sight::Nothing => bracket.clone(),
            };
            let version = |index: usize| competition.entrants.get(index).copied();
            for Placement { first, last, entrants } in shown.placements() {
                for index in entrants {
                    if let Some(version_id) = version(index) {
                        let bot = name(version_id);
                        standings.push(StandingView { first, last, version_id, bot, rating: None, wins: None });
                    }
                }
            }
            for SeriesState { id, round, entrants, result, winner } in shown.series() {
                if !seen.sees(round) {
                    continue;
                }
                let entrants = entrants.map(|index| index.and_then(version));
                series.push(SeriesView {
                    round: id.split('-').next().unwrap_or_default().to_owned(),
                    id,
                    play_round: round,
                    names: entrants.map(|version| version.map(name)),
                    entrants,
                    result,
                    winner: winner.and_then(version),
                });
            }
        }
    }
    let results_up_to_round = match seen {
        Sight::UpToRound(last) => Some(last),
        Sight::All | Sight::Nothing => None,
    };
    Ok(CompetitionView {
        competition,
        results_visible: seen != Sight::Nothing,
        results_up_to_round,
        entrant_list,
        matches,
        standings,
        series,
    })
}

/// `results`, played matches of `competition` ([`visible_results`]), as a tournament database
/// (the merge format `arena tournament show` and `report` read, written by
/// [`crate::dump::write_results`]): its bytes. Written to a scratch file, read back and removed.
pub fn database(service: &Service, competition: &Competition, results: Vec<Match>) -> Result<Vec<u8>, ServiceError> {
    let dump = crate::dump::of_results(service, &competition.game, results)?;
    let path = std::env::temp_dir().join(format!(
        "arena-competition-{}-{:016x}.sqlite",
        competition.id,
        crate::dump::random_seed()
    ));
    let written = crate::dump::write_results(&dump, &path)
        .map_err(|err| ServiceError::Io(std::io::Error::other(format!("writing the competition's database: {err}"))))
        .and_then(|_| Ok(std::fs::read(&path)?));
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_now_or_rfc_3339_and_anything_else_is_refused_in_words() {
        assert_eq!(parse_deadline("now", 1234), Ok(1234));
        assert_eq!(parse_deadline("1970-01-01T00:00:00Z", 5), Ok(0));
        assert_eq!(parse_deadline("2025-06-01T18:00:00Z", 0), Ok(1_748_800_800));
        assert_eq!(parse_deadline("2025-06-01T20:00:00+02:00", 0), Ok(1_748_800_800));
        assert_eq!(parse_deadline("2025-06-01t17:30:00.250-00:30", 0), Ok(1_748_800_800));
        assert_eq!(parse_deadline("2024-02-29T00:00:00Z", 0), Ok(1_709_164_800), "a leap day");
        for bad in [
            "",
            "tomorrow",
            "2025-06-01",
            "2025-06-01T18:00:00",
            "2023-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-06-01T24:00:00Z",
            "2025-06-01T18:00:00+2:00",
            "2025-06-01T18:00:00.Z",
            "2025-06-01T18:00:00Zjunk",
            "+025-06-01T18:00:00Z",
            "２025-06-01T18:00:00Z",
        ] {
            let refused = parse_deadline(bad, 0).unwrap_err();
            assert!(refused.contains("RFC 3339"), "{bad:?}: {refused}");
        }
    }

    #[test]
    fn every_format_is_named_and_another_name_is_refused_listing_them() {
        for format in CompetitionFormat::ALL {
            assert_eq!(parse_format(format.as_str()), Ok(format));
        }
        let refused = parse_format("knockout").unwrap_err();
        assert!(refused.contains("no format") && refused.contains("swiss, gauntlet"), "{refused}");
    }

    #[test]
    fn a_round_robin_meets_every_pair_once_nobody_twice_in_a_round() {
        assert_eq!(round_robin_rounds(2), [vec![[0, 1]]]);
        assert_eq!(round_robin_rounds(3).len(), 3, "one sits out each round");
        assert!(round_robin_rounds(1).iter().all(Vec::is_empty) && round_robin_rounds(0).is_empty());
        for entrants in 2..12 {
            let rounds = round_robin_rounds(entrants);
            assert_eq!(rounds.len(), entrants + entrants % 2 - 1, "{entrants}");
            let mut met = BTreeSet::new();
            for round in &rounds {
                let playing: Vec<usize> = round.iter().flatten().copied().collect();
                assert_eq!(playing.iter().collect::<BTreeSet<_>>().len(), playing.len(), "{entrants}: {round:?}");
                assert_eq!(round.len(), entrants / 2, "{entrants}");
                for pair in round {
                    assert!(pair[0] < pair[1] && pair[1] < entrants && met.insert(*pair), "{entrants}: {pair:?}");
                }
            }
            assert_eq!(met.len(), entrants * (entrants - 1) / 2, "{entrants}: every pair");
        }
    }

    fn competition(format: CompetitionFormat, entrants: Vec<i64>, rounds: Option<u32>) -> Competition {
        Competition {
            id: 1,
            game: "azul".into(),
            name: "c".into(),
            format,
            deadline: 0,
            seeds: 1,
            state: CompetitionState::Running,
            release: Release::Public,
            released_rounds: None,
            rounds,
            pool: Vec::new(),
            bracket: None,
            created: 0,
            entrants,
        }
    }

    #[test]
    fn swiss_plays_enough_rounds_to_single_out_a_winner_unless_told() {
        let rounds =
            |entrants: usize, told| swiss_rounds(&competition(CompetitionFormat::Swiss, vec![], told), entrants);
        assert_eq!(
            [rounds(2, None), rounds(3, None), rounds(4, None), rounds(5, None), rounds(64, None)],
            [1, 2, 2, 3, 6]
        );
        assert_eq!(rounds(5, Some(4)), 4);
    }

    #[test]
    fn a_swiss_round_pairs_down_the_standings_by_seed_before_any_result_and_never_twice() {
        let entrants = [40, 10, 30, 20];
        assert_eq!(swiss_round(&entrants, &[], &[]), [[40, 10], [30, 20]], "seed order");
        let earlier = vec![vec![[40, 10], [30, 20]]];
        assert_eq!(swiss_round(&entrants, &[], &earlier), [[40, 30], [10, 20]], "never twice");
        assert_eq!(swiss_round(&[7, 8, 9], &[], &[]), [[7, 8]], "the last seed sits out");
    }

    #[test]
    fn a_viewer_sees_what_the_release_allows_up_to_its_round() {
        let user = |id: i64, admin: bool| User { id, name: format!("u{id}"), password_hash: String::new(), admin };
        let (admin, owner, other) = (user(1, true), user(2, false), user(3, false));
        let mut one = competition(CompetitionFormat::RoundRobin, vec![5, 6], None);
        let owners = [owner.id];
        let seen = |one: &Competition, viewer: Option<&User>| sight(one, viewer, &owners);
        for (release, expected) in [
            (Release::Hidden, [Sight::All, Sight::Nothing, Sight::Nothing, Sight::Nothing]),
            (Release::Participants, [Sight::All, Sight::All, Sight::Nothing, Sight::Nothing]),
            (Release::Public, [Sight::All, Sight::All, Sight::All, Sight::All]),
        ] {
            one.release = release;
            let found =
                [seen(&one, Some(&admin)), seen(&one, Some(&owner)), seen(&one, Some(&other)), seen(&one, None)];
            assert_eq!(found, expected, "{release:?}");
        }
        one.released_rounds = Some(2);
        assert_eq!((seen(&one, None), seen(&one, Some(&admin))), (Sight::UpToRound(2), Sight::All));
        assert!(Sight::UpToRound(2).sees(2) && !Sight::UpToRound(2).sees(3) && !Sight::Nothing.sees(1));
    }

    #[test]
    fn every_match_seed_of_a_schedule_has_its_pairings_round() {
        let round_robin = competition(CompetitionFormat::RoundRobin, vec![5, 6, 7], None);
        let Ok(planned) = schedule(&round_robin) else { panic!("a round robin's schedule") };
        let rounds = planned.rounds_by_seed(&round_robin);
        assert_eq!(rounds.len(), 3, "3 pairings of 1 seed");
        let mut by_round: Vec<u32> = rounds.values().copied().collect();
        by_round.sort_unstable();
        assert_eq!(by_round, [1, 2, 3]);
        let mut gauntlet = competition(CompetitionFormat::Gauntlet, vec![5, 6, 7], None);
        gauntlet.bracket = Some(r#"{"pool":[6]}"#.into());
        let Ok(Schedule::Pairings(pairings)) = schedule(&gauntlet) else { panic!("a gauntlet's pairings") };
        let expected = [Pairing { round: 1, versions: [5, 6] }, Pairing { round: 1, versions: [7, 6] }];
        assert_eq!(pairings, expected);
        gauntlet.bracket = Some(r#"{"pool":[6],"extra":1}"#.into());
        assert!(schedule(&gauntlet).is_err(), "a state that does not fit is refused");
    }
}
