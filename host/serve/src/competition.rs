//! Competitions (seasons): an organizer's event for one game, with a submission deadline at
//! which each entrant's current version is frozen, played by the service's workers as
//! [`MatchKind::Competition`] matches (never rated on the ladder), in one of the formats of
//! [`CompetitionFormat`]. docs/ladder.md#competitions has the rules in words.
//!
//! - [`parse_format`], [`parse_deadline`]: what `arena serve admin competition create` takes.
//! - [`entrants_in_seed_order`]: the seeding rule (ladder rating, best first; ties by version id).
//! - [`Service::advance_competitions`]: the step that starts a competition past its deadline and
//!   moves its bracket on as series finish; idempotent, and safe on several nodes (the store
//!   moves a bracket on only from the state it was read in).
//! - [`view`]: what the API and the page show of one, as its release allows.

use crate::ratings::{Leaderboard, leaderboard};
use crate::service::{Service, ServiceError, unix_now};
use crate::store::{
    Bot, Competition, CompetitionFormat, CompetitionState, Match, MatchKind, MatchState, NewMatch, Release, Store,
    StoreError, User, Version,
};
use arena_tournament::bracket::{Bracket, Elimination, Placement, SeriesResult, SeriesState};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The most seeds a pairing or series may have (each played in both seat orders).
pub const MAX_SEEDS: u32 = 64;

/// The format called `text` (`round-robin`, `single-elimination`, `double-elimination`), or why
/// not in words (`swiss` and `gauntlet` are not played by the service yet).
pub fn parse_format(text: &str) -> Result<CompetitionFormat, String> {
    match (CompetitionFormat::parse(text), text) {
        (Some(format), _) => Ok(format),
        (None, "swiss" | "gauntlet") => Err(format!(
            "the {text} format is not yet played by the service: use round-robin, single-elimination or \
             double-elimination"
        )),
        (None, _) => Err(format!(
            "no format {text:?}: round-robin, single-elimination or double-elimination (swiss and gauntlet not yet)"
        )),
    }
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
/// 8 bytes of sha256("competition:ID:LABEL:K"), little-endian. A round robin's pairing is
/// labelled `V<a>-V<b>` (its versions, lower id first); a bracket's series by its id (`W1-1`).
pub fn competition_seed(id: i64, label: &str, k: u32) -> u64 {
    let digest = Sha256::digest(format!("competition:{id}:{label}:{k}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
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

/// The elimination of an elimination format.
fn elimination_of(format: CompetitionFormat) -> Option<Elimination> {
    match format {
        CompetitionFormat::RoundRobin => None,
        CompetitionFormat::SingleElimination => Some(Elimination::Single),
        CompetitionFormat::DoubleElimination => Some(Elimination::Double),
    }
}

fn corrupt(detail: impl ToString) -> ServiceError {
    ServiceError::Store(StoreError::Corrupt { what: "competition bracket", detail: detail.to_string() })
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

impl Service {
    /// Starts every open competition whose deadline has passed and moves every running one on
    /// (records the series whose matches are all played, enqueues the series that became ready,
    /// marks it done when over); whether any changed. Safe to run on several nodes at once.
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
    /// enqueues its first matches.
    fn start_competition(&self, competition: &Competition, now: i64) -> Result<bool, ServiceError> {
        let bots: Vec<Bot> =
            self.store.bots_of_game(&competition.game)?.into_iter().filter(|bot| !bot.disabled).collect();
        let current = self.current_versions(&bots)?;
        let board = self.leaderboard(&competition.game)?;
        let entrants = entrants_in_seed_order(&board, current.values().map(|version| version.id));
        let id = competition.id;
        if entrants.len() < 2 {
            tracing::warn!(id, entrants = entrants.len(), "competition with fewer than 2 entrants: done at once");
            let started = self.store.start_competition(id, &entrants, None, &[], now)?;
            self.store.advance_competition(id, None, None, &[], true, now)?;
            return Ok(started);
        }
        let (bracket, matches) = match elimination_of(competition.format) {
            None => {
                let mut matches = Vec::new();
                for (i, a) in entrants.iter().enumerate() {
                    for b in &entrants[i + 1..] {
                        let pair = [*a.min(b), *a.max(b)];
                        matches.extend(series_matches(competition, &format!("V{}-V{}", pair[0], pair[1]), pair));
                    }
                }
                (None, matches)
            }
            Some(elimination) => {
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
        let started = self.store.start_competition(id, &entrants, bracket.as_deref(), &matches, now)?;
        if started {
            tracing::info!(id, entrants = entrants.len(), matches = matches.len(), "competition started");
        }
        Ok(started)
    }

    /// Moves a running competition on; whether it moved.
    fn move_competition_on(&self, competition: &Competition, now: i64) -> Result<bool, ServiceError> {
        let played = self.store.competition_matches(competition.id)?;
        let Some(stored) = &competition.bracket else {
            // A round robin (or a competition of fewer than two): done once every match is.
            if played.iter().all(settled) {
                return Ok(self.store.advance_competition(competition.id, None, None, &[], true, now)?);
            }
            return Ok(false);
        };
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
    /// Its rating over the competition's matches (round robin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Matches won alone (round robin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
}

/// A series of a bracket as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesView {
    /// Its id (`W1-1`, `L2-1`, `GF1`, ...).
    pub id: String,
    /// Its round: the id's part before the dash (`W1`, `L2`, `GF1`).
    pub round: String,
    /// Its entrants' versions as far as known.
    pub entrants: [Option<i64>; 2],
    /// Their bots' names.
    pub names: [Option<String>; 2],
    /// Its result, once recorded.
    pub result: Option<SeriesResult>,
    /// The version that advanced, once recorded.
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
    /// Its entrants, in seed order (known once it started).
    pub entrant_list: Vec<EntrantView>,
    /// Its matches: how many, how many played.
    pub matches: [usize; 2],
    /// The standings, best first (when visible).
    pub standings: Vec<StandingView>,
    /// An elimination format's series in bracket order (when visible).
    pub series: Vec<SeriesView>,
}

/// Whether `viewer` may see the results of `competition` whose entrants' owners are `owners`.
pub fn may_see(competition: &Competition, viewer: Option<&User>, owners: &[i64]) -> bool {
    match (competition.release, viewer) {
        (Release::Public, _) => true,
        (_, Some(user)) if user.admin => true,
        (Release::Participants, Some(user)) => owners.contains(&user.id),
        _ => false,
    }
}

/// What `viewer` may see of `competition`.
pub fn view(
    store: &dyn Store,
    competition: Competition,
    viewer: Option<&User>,
) -> Result<CompetitionView, ServiceError> {
    let names = store.bot_names(&competition.entrants)?;
    let name = |version: i64| names.get(&version).cloned().unwrap_or_else(|| format!("version {version}"));
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
    let owners: Vec<i64> = bots.iter().map(|bot| bot.owner).collect();
    let visible = may_see(&competition, viewer, &owners);
    let entrant_list = competition
        .entrants
        .iter()
        .enumerate()
        .map(|(seed, version)| EntrantView { seed: seed + 1, version_id: *version, bot: name(*version) })
        .collect();
    let played = store.competition_matches(competition.id)?;
    let matches = [played.len(), played.iter().filter(|one| one.state == MatchState::Done).count()];
    let mut standings = Vec::new();
    let mut series = Vec::new();
    if visible {
        match &competition.bracket {
            None => {
                let done: Vec<Match> = played.into_iter().filter(|one| one.state == MatchState::Done).collect();
                let current: BTreeMap<i64, i64> = versions.iter().map(|version| (version.bot_id, version.id)).collect();
                let board = leaderboard(&competition.game, &bots, &versions, &current, &done);
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
            }
            Some(stored) => {
                let bracket: Bracket = serde_json::from_str(stored).map_err(corrupt)?;
                let version = |index: usize| competition.entrants.get(index).copied();
                for Placement { first, last, entrants } in bracket.placements() {
                    for index in entrants {
                        if let Some(version_id) = version(index) {
                            let bot = name(version_id);
                            standings.push(StandingView { first, last, version_id, bot, rating: None, wins: None });
                        }
                    }
                }
                for SeriesState { id, entrants, result, winner } in bracket.series() {
                    let entrants = entrants.map(|index| index.and_then(version));
                    series.push(SeriesView {
                        round: id.split('-').next().unwrap_or_default().to_owned(),
                        id,
                        names: entrants.map(|version| version.map(name)),
                        entrants,
                        result,
                        winner: winner.and_then(version),
                    });
                }
            }
        }
    }
    Ok(CompetitionView { competition, results_visible: visible, entrant_list, matches, standings, series })
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
    fn formats_are_named_and_swiss_and_gauntlet_are_not_yet() {
        assert_eq!(parse_format("double-elimination"), Ok(CompetitionFormat::DoubleElimination));
        assert_eq!(parse_format("round-robin"), Ok(CompetitionFormat::RoundRobin));
        assert!(parse_format("swiss").unwrap_err().contains("not yet"));
        assert!(parse_format("gauntlet").unwrap_err().contains("not yet"));
        assert!(parse_format("knockout").unwrap_err().contains("no format"));
    }
}
