//! Elimination brackets: single and double elimination over entrants given in seed order, as a
//! deterministic state machine a service drives, stores (as JSON) and resumes.
//!
//! This module owns the bracket's shape and its progress, nothing else: entrants are indices
//! into the caller's list (0 = the best seed, sorted by ladder rating, ties broken by a rule the
//! caller documents), and each series (a seat-swapped run of matches over N seeds) is played by
//! the caller, which records its [`SeriesResult`]. The bracket says which series can be played
//! now ([`Bracket::ready`]), who advances (the tie rule of [`SeriesResult::advancing`]), when it
//! is over, the final standings ([`Bracket::placements`]) and each series' round of play
//! ([`Bracket::rounds`]: what results released round by round are cut at).
//!
//! - **Seeding**: a bracket of `P` = the next power of two ≥ `n` positions, seed 1 against seed
//!   `P`, 2 against `P - 1` and so on, placed recursively so that seeds 1 and 2 can meet only in
//!   the final (and seeds 1 to 4 only from the semifinals on). Positions past `n` are byes, so the
//!   top seeds get them; a bye advances without a series.
//! - **Double elimination**: a winners' bracket as above; a losers' bracket whose odd rounds pair
//!   its own survivors and whose even rounds take the losers of the next winners' round, dropped in
//!   an order cycling round by round through reversed, halves swapped, each half reversed and as
//!   is (the usual layout: a dropped loser does not meet at once someone from its own part of the
//!   winners' bracket, while the winners' bracket is wide enough for that); a grand final between
//!   the two brackets' champions; and a second grand final (the bracket reset) when the losers'
//!   champion wins the first, so that every entrant but the champion leaves with two losses.
//!
//! Everything is a pure function of the entrant count and the recorded results: no clock, no
//! hash-ordered container. The stored form is the format, the entrant count and the results; a
//! stored bracket is rebuilt and every result re-recorded (and so checked) as it is read back.

use serde::{Deserialize, Serialize, Serializer};
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// The most entrants a bracket takes: each call resolves the whole bracket (about `2n`
/// positions), so a bracket is played out in time quadratic in its size.
pub const MAX_ENTRANTS: usize = 1 << 12;

/// Single or double elimination (stored as `single-elimination` and `double-elimination`, the
/// competition formats' names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elimination {
    /// One loss eliminates: `n - 1` series.
    #[serde(rename = "single-elimination")]
    Single,
    /// Two losses eliminate: `2n - 2` series, or `2n - 1` with the bracket reset.
    #[serde(rename = "double-elimination")]
    Double,
}

/// A bracket refused to be built, to record a result, or to be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    /// Fewer than two entrants.
    #[error("a bracket needs at least 2 entrants, not {0}")]
    TooFew(usize),
    /// More than [`MAX_ENTRANTS`] entrants.
    #[error("a bracket takes at most {MAX_ENTRANTS} entrants, not {0}")]
    TooMany(usize),
    /// No series has this id.
    #[error("the bracket has no series {0}")]
    UnknownSeries(String),
    /// The position is a bye: its entrant advances without a series.
    #[error("{0} is a bye, not a series")]
    Bye(String),
    /// An entrant of the series is not known yet (or, for `GF2`, the reset is not needed).
    #[error("series {0} cannot be played yet")]
    NotReady(String),
    /// The series has a result already.
    #[error("series {0} is decided already")]
    AlreadyDecided(String),
}

/// What a series came to, each field by side in the order of the series' `entrants`: the
/// matches each side won, and each side's tiebreak (the caller passes its total score over the
/// series).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesResult {
    /// Matches won by each side (a drawn match counts for neither).
    pub wins: [u32; 2],
    /// Each side's tiebreak value: its total score over the series' matches.
    pub tiebreak: [i64; 2],
}

impl SeriesResult {
    /// The entrant of `entrants` (seed indices, in side order) that advances. The tie rule: more
    /// match wins; if equal, the higher tiebreak; if still equal, the better (lower) seed.
    pub fn advancing(&self, entrants: [usize; 2]) -> usize {
        let [first, second] = entrants;
        let first_key = (self.wins[0], self.tiebreak[0], Reverse(first));
        let second_key = (self.wins[1], self.tiebreak[1], Reverse(second));
        if second_key > first_key { second } else { first }
    }
}

/// A series that can be played now: both entrants known, no result yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadySeries {
    /// Its stable id: `W<round>-<n>` (winners' bracket, or the only bracket of single
    /// elimination), `L<round>-<n>` (losers' bracket), `GF1` or `GF2` (grand final and reset).
    pub id: String,
    /// Its two entrants (seed indices); the [`SeriesResult`] lists sides in this order.
    pub entrants: [usize; 2],
}

/// A series of the bracket as it stands, for a page that draws the bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesState {
    /// Its stable id (see [`ReadySeries::id`]).
    pub id: String,
    /// Its round of play, from the bracket's shape alone ([`Bracket::rounds`]).
    pub round: u32,
    /// Its entrants as far as they are known.
    pub entrants: [Option<usize>; 2],
    /// Its result, once recorded.
    pub result: Option<SeriesResult>,
    /// The entrant that advanced, once recorded.
    pub winner: Option<usize>,
}

/// Places `first..=last` (from 1) shared by `entrants` (seed indices, best seed first): the
/// entrants eliminated in the same round tie.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The best place of the range.
    pub first: usize,
    /// The worst place of the range (equal to `first` for a place of its own).
    pub last: usize,
    /// Who holds it (so far: fewer than `last - first + 1` while the round is being played).
    pub entrants: Vec<usize>,
}

/// Where a side of a position comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// An entrant, by seed index.
    Entrant(usize),
    /// Nobody: the other side advances without a series.
    Bye,
    /// The winner of an earlier position.
    Winner(usize),
    /// The loser of an earlier position.
    Loser(usize),
}

/// What losing a position means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The loser drops into the losers' bracket.
    Drops,
    /// The loser is eliminated in this stage (a later stage places better).
    Eliminates(u32),
    /// The first grand final (the position before the reset): its loser is eliminated in this
    /// stage only if the winners' champion (side 0) won.
    GrandFinal(u32),
    /// The reset, played only if the losers' champion won the grand final at this position.
    Reset { grand_final: usize, stage: u32 },
}

/// One position of the bracket: a series, or a bye when a side is nobody.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Position {
    id: String,
    sides: [Source; 2],
    stage: Stage,
    result: Option<SeriesResult>,
}

/// A side, a winner or a loser as far as the results so far say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Nobody, whatever the results (a bye, or what comes of byes).
    Empty,
    /// Someone, not known yet.
    Pending,
    /// This entrant.
    Entrant(usize),
}

impl Slot {
    fn entrant(self) -> Option<usize> {
        match self {
            Slot::Entrant(entrant) => Some(entrant),
            Slot::Empty | Slot::Pending => None,
        }
    }
}

/// A position resolved against the results so far.
#[derive(Debug, Clone, Copy)]
struct Resolved {
    sides: [Slot; 2],
    winner: Slot,
    loser: Slot,
    /// Both entrants known (and, for the reset, the reset needed).
    playable: bool,
}

impl Resolved {
    /// A bye (or a position only byes lead to): never a series.
    fn is_bye(&self) -> bool {
        self.sides.contains(&Slot::Empty)
    }

    /// The grand final at this position was won by the losers' champion (side 1).
    fn needs_reset(&self) -> bool {
        matches!((self.winner, self.sides[1]), (Slot::Entrant(winner), Slot::Entrant(second)) if winner == second)
    }
}

/// A single or double elimination bracket and the results recorded so far.
///
/// It serializes as `{"elimination", "entrants", "results": [{"series", "wins", "tiebreak"}]}`
/// and deserializes by rebuilding the bracket and recording every result again, so a stored
/// bracket that does not add up is refused rather than half read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Stored")]
pub struct Bracket {
    elimination: Elimination,
    entrants: usize,
    positions: Vec<Position>,
    /// Position index by id.
    index: BTreeMap<String, usize>,
}

/// The seed indices (from 0) of a bracket of `size` (a power of two) in position order: each
/// seed `s` of the half-size order followed by its opponent `2 * half - 1 - s`.
fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let doubled = order.len() * 2;
        order = order.iter().flat_map(|&seed| [seed, doubled - 1 - seed]).collect();
    }
    order
}

/// For each series of the losers' round that takes the losers of winners' round `round` (from
/// 2; `count` series), the index of the winners' series whose loser it takes: reversed, halves
/// swapped, each half reversed, as is, and around again.
fn drop_order(round: u32, count: usize) -> Vec<usize> {
    let half = count / 2;
    (0..count)
        .map(|at| match round.saturating_sub(2) % 4 {
            0 => count - 1 - at,
            1 => (at + half) % count,
            2 if at < half => half - 1 - at,
            2 => count + half - 1 - at,
            _ => at,
        })
        .collect()
}

impl Bracket {
    /// A single elimination bracket of `entrants` (at least 2) entrants in seed order.
    pub fn single_elimination(entrants: usize) -> Result<Self, BracketError> {
        Self::new(Elimination::Single, entrants)
    }

    /// A double elimination bracket of `entrants` (at least 2) entrants in seed order.
    pub fn double_elimination(entrants: usize) -> Result<Self, BracketError> {
        Self::new(Elimination::Double, entrants)
    }

    /// A bracket of `entrants` (2 to [`MAX_ENTRANTS`]) entrants in seed order, no result yet.
    pub fn new(elimination: Elimination, entrants: usize) -> Result<Self, BracketError> {
        if entrants < 2 {
            return Err(BracketError::TooFew(entrants));
        }
        if entrants > MAX_ENTRANTS {
            return Err(BracketError::TooMany(entrants));
        }
        let mut bracket = Bracket { elimination, entrants, positions: Vec::new(), index: BTreeMap::new() };
        let size = entrants.next_power_of_two();
        let rounds = size.trailing_zeros();
        let winners_stage = |round: u32| match elimination {
            Elimination::Single => Stage::Eliminates(round),
            Elimination::Double => Stage::Drops,
        };
        let order = seed_order(size);
        let side = |seed: usize| if seed < entrants { Source::Entrant(seed) } else { Source::Bye };
        let mut winners = vec![bracket.add_round("W1", Self::pairs(&order, side), winners_stage(1))];
        for round in 2..=rounds {
            let pairs = Self::pairs(winners.last().map(Vec::as_slice).unwrap_or_default(), Source::Winner);
            winners.push(bracket.add_round(&format!("W{round}"), pairs, winners_stage(round)));
        }
        let Some(&final_position) = winners.last().and_then(|last| last.first()) else {
            return Ok(bracket);
        };
        if elimination == Elimination::Single {
            return Ok(bracket);
        }
        // The losers' bracket: round 1 pairs the losers of winners' round 1; then, for each later
        // winners' round, a round taking its losers and, but after the last, a round pairing the
        // survivors.
        let mut losers_champion = Source::Loser(final_position);
        if rounds >= 2 {
            let mut survivors = bracket.add_round(
                "L1",
                Self::pairs(winners.first().map(Vec::as_slice).unwrap_or_default(), Source::Loser),
                Stage::Eliminates(1),
            );
            let mut losers_round = 1;
            for (round, dropping) in (2..=rounds).zip(winners.iter().skip(1)) {
                losers_round += 1;
                let drops = drop_order(round, dropping.len()).into_iter().filter_map(|at| dropping.get(at));
                let sides = survivors
                    .iter()
                    .zip(drops)
                    .map(|(&survivor, &dropped)| [Source::Winner(survivor), Source::Loser(dropped)]);
                survivors = bracket.add_round(&format!("L{losers_round}"), sides, Stage::Eliminates(losers_round));
                if round < rounds {
                    losers_round += 1;
                    let pairs = Self::pairs(&survivors, Source::Winner);
                    survivors = bracket.add_round(&format!("L{losers_round}"), pairs, Stage::Eliminates(losers_round));
                }
            }
            if let Some(&champion) = survivors.first() {
                losers_champion = Source::Winner(champion);
            }
        }
        let top = 2 * rounds - 1;
        let sides = [Source::Winner(final_position), losers_champion];
        let grand_final = bracket.add("GF1".into(), sides, Stage::GrandFinal(top));
        bracket.add("GF2".into(), sides, Stage::Reset { grand_final, stage: top });
        Ok(bracket)
    }

    /// The sides of a round made of `items` (seeds, or the positions of the round before) two
    /// by two, each side the `source` of its item.
    fn pairs(items: &[usize], source: impl Fn(usize) -> Source) -> Vec<[Source; 2]> {
        items
            .chunks_exact(2)
            .filter_map(|pair| pair.first().zip(pair.last()))
            .map(|(&a, &b)| [source(a), source(b)])
            .collect()
    }

    /// Adds a round of positions `<prefix>-1`, `<prefix>-2`, ... with these sides; returns their
    /// indices.
    fn add_round(&mut self, prefix: &str, sides: impl IntoIterator<Item = [Source; 2]>, stage: Stage) -> Vec<usize> {
        sides.into_iter().enumerate().map(|(at, pair)| self.add(format!("{prefix}-{}", at + 1), pair, stage)).collect()
    }

    /// Adds one position; returns its index.
    fn add(&mut self, id: String, sides: [Source; 2], stage: Stage) -> usize {
        let at = self.positions.len();
        self.index.insert(id.clone(), at);
        self.positions.push(Position { id, sides, stage, result: None });
        at
    }

    /// Single or double elimination.
    pub fn elimination(&self) -> Elimination {
        self.elimination
    }

    /// How many entrants (seed indices `0..entrants`).
    pub fn entrants(&self) -> usize {
        self.entrants
    }

    /// Every position resolved against the results so far (each refers to earlier ones only).
    fn resolve(&self) -> Vec<Resolved> {
        let mut resolved: Vec<Resolved> = Vec::with_capacity(self.positions.len());
        for position in &self.positions {
            let slot = |source: Source| match source {
                Source::Entrant(entrant) => Slot::Entrant(entrant),
                Source::Bye => Slot::Empty,
                Source::Winner(at) => resolved.get(at).map_or(Slot::Pending, |earlier| earlier.winner),
                Source::Loser(at) => resolved.get(at).map_or(Slot::Pending, |earlier| earlier.loser),
            };
            let [first, second] = position.sides;
            let sides = [slot(first), slot(second)];
            let (winner, loser, playable) = match sides {
                [Slot::Empty, Slot::Empty] => (Slot::Empty, Slot::Empty, false),
                [Slot::Empty, other] | [other, Slot::Empty] => (other, Slot::Empty, false),
                [Slot::Entrant(first), Slot::Entrant(second)] => {
                    let playable = match position.stage {
                        Stage::Reset { grand_final, .. } => {
                            resolved.get(grand_final).is_some_and(Resolved::needs_reset)
                        }
                        Stage::Drops | Stage::Eliminates(_) | Stage::GrandFinal(_) => true,
                    };
                    match position.result {
                        Some(result) if playable => {
                            let winner = result.advancing([first, second]);
                            let loser = if winner == first { second } else { first };
                            (Slot::Entrant(winner), Slot::Entrant(loser), true)
                        }
                        _ => (Slot::Pending, Slot::Pending, playable),
                    }
                }
                _ => (Slot::Pending, Slot::Pending, false),
            };
            resolved.push(Resolved { sides, winner, loser, playable });
        }
        resolved
    }

    /// The series that can be played now (both entrants known, no result yet), in bracket order
    /// (winners' rounds, losers' rounds, grand final).
    pub fn ready(&self) -> Vec<ReadySeries> {
        let resolved = self.resolve();
        self.positions
            .iter()
            .zip(&resolved)
            .filter(|(position, state)| state.playable && position.result.is_none())
            .filter_map(|(position, state)| match state.sides {
                [Slot::Entrant(first), Slot::Entrant(second)] => {
                    Some(ReadySeries { id: position.id.clone(), entrants: [first, second] })
                }
                _ => None,
            })
            .collect()
    }

    /// Records the result of series `id` (sides in the order [`Bracket::ready`] gave) and
    /// returns the entrant that advances. Refused, leaving the bracket as it was, for an unknown
    /// id, a bye, a series whose entrants are not both known (or a reset not needed) and a series
    /// already decided.
    pub fn record(&mut self, id: &str, result: SeriesResult) -> Result<usize, BracketError> {
        let at = *self.index.get(id).ok_or_else(|| BracketError::UnknownSeries(id.to_string()))?;
        let resolved = self.resolve();
        let (Some(position), Some(state)) = (self.positions.get_mut(at), resolved.get(at)) else {
            return Err(BracketError::UnknownSeries(id.to_string()));
        };
        if position.result.is_some() {
            return Err(BracketError::AlreadyDecided(id.to_string()));
        }
        if state.is_bye() {
            return Err(BracketError::Bye(id.to_string()));
        }
        match state.sides {
            [Slot::Entrant(first), Slot::Entrant(second)] if state.playable => {
                position.result = Some(result);
                Ok(result.advancing([first, second]))
            }
            _ => Err(BracketError::NotReady(id.to_string())),
        }
    }

    /// The champion, once the bracket is decided.
    pub fn champion(&self) -> Option<usize> {
        self.champion_of(&self.resolve())
    }

    fn champion_of(&self, resolved: &[Resolved]) -> Option<usize> {
        let last = resolved.last()?;
        match self.elimination {
            Elimination::Single => last.winner.entrant(),
            Elimination::Double => {
                let grand_final = resolved.get(resolved.len().checked_sub(2)?)?;
                let decider = if grand_final.needs_reset() { last } else { grand_final };
                decider.winner.entrant()
            }
        }
    }

    /// Whether the bracket is decided: no series left to play.
    pub fn is_finished(&self) -> bool {
        self.champion().is_some()
    }

    /// The standings so far, best first: the champion (1st, once decided), then the entrants
    /// eliminated in each round, later rounds first, every entrant of a round tying over the
    /// places that round's eliminations span (e.g. 3rd-4th for single elimination's semifinals;
    /// byes make rounds narrower). The ranges are fixed by the bracket's shape, so an entrant's
    /// range is final once it is eliminated; once [`Bracket::is_finished`], every entrant is
    /// placed exactly once, over places 1 to `entrants`.
    pub fn placements(&self) -> Vec<Placement> {
        let resolved = self.resolve();
        // Per stage, how many series eliminate someone in it, and who has been eliminated.
        let mut stages: BTreeMap<u32, (usize, Vec<usize>)> = BTreeMap::new();
        for (position, state) in self.positions.iter().zip(&resolved) {
            if state.is_bye() {
                continue;
            }
            let (stage, counts, eliminated) = match position.stage {
                Stage::Drops => continue,
                Stage::Eliminates(stage) => (stage, true, state.loser.entrant()),
                Stage::GrandFinal(stage) => {
                    (stage, true, state.loser.entrant().filter(|_| state.winner == state.sides[0]))
                }
                Stage::Reset { stage, .. } => (stage, false, state.loser.entrant()),
            };
            let (count, who) = stages.entry(stage).or_default();
            *count += usize::from(counts);
            who.extend(eliminated);
        }
        let mut placements: Vec<Placement> = self
            .champion_of(&resolved)
            .map(|champion| Placement { first: 1, last: 1, entrants: vec![champion] })
            .into_iter()
            .collect();
        let mut next = 2;
        for (count, mut who) in stages.into_values().rev() {
            if !who.is_empty() {
                who.sort_unstable();
                placements.push(Placement { first: next, last: next + count.saturating_sub(1), entrants: who });
            }
            next += count;
        }
        placements
    }

    /// Each position's round of play, in position order: 1 plus the latest round of the
    /// positions its sides come from (an entrant or a bye: 0), the reset one after its grand
    /// final. So `W<k>` is round `k`, `L<k>` round `k + 1`, and with `r` winners' rounds the
    /// grand final is round `2r` and its reset `2r + 1`: a series of round `k` can only depend
    /// on results of rounds before `k`, which is what lets results be released round by round.
    /// Byes count as positions, so the rounds are the same whoever turns up.
    pub fn rounds(&self) -> Vec<u32> {
        let mut rounds: Vec<u32> = Vec::with_capacity(self.positions.len());
        for position in &self.positions {
            let of = |source: Source| match source {
                Source::Entrant(_) | Source::Bye => 0,
                Source::Winner(at) | Source::Loser(at) => rounds.get(at).copied().unwrap_or(0),
            };
            let after = match position.stage {
                Stage::Reset { grand_final, .. } => rounds.get(grand_final).copied().unwrap_or(0),
                Stage::Drops | Stage::Eliminates(_) | Stage::GrandFinal(_) => 0,
            };
            rounds.push(1 + of(position.sides[0]).max(of(position.sides[1])).max(after));
        }
        rounds
    }

    /// The bracket with only the results of the series of rounds up to `last` ([`Bracket::rounds`]):
    /// what it looked like once those rounds were played, as results released round by round show
    /// it. The later results are dropped, never re-decided: an earlier round never depends on them.
    pub fn up_to_round(&self, last: u32) -> Bracket {
        let mut earlier = self.clone();
        for (position, round) in earlier.positions.iter_mut().zip(self.rounds()) {
            if round > last {
                position.result = None;
            }
        }
        earlier
    }

    /// Every series of the bracket, played or to be played, in bracket order: byes left out, and
    /// the reset left out once the grand final made it unnecessary.
    pub fn series(&self) -> Vec<SeriesState> {
        let resolved = self.resolve();
        let rounds = self.rounds();
        self.positions
            .iter()
            .zip(&resolved)
            .zip(rounds)
            .map(|((position, state), round)| (position, state, round))
            .filter(|(position, state, _)| {
                let unneeded = match position.stage {
                    Stage::Reset { grand_final, .. } => resolved.get(grand_final).is_some_and(|grand_final| {
                        grand_final.winner.entrant().is_some() && !grand_final.needs_reset()
                    }),
                    Stage::Drops | Stage::Eliminates(_) | Stage::GrandFinal(_) => false,
                };
                !state.is_bye() && !unneeded
            })
            .map(|(position, state, round)| SeriesState {
                id: position.id.clone(),
                round,
                entrants: state.sides.map(Slot::entrant),
                result: position.result,
                winner: position.result.and(state.winner.entrant()),
            })
            .collect()
    }
}

/// A bracket as stored: its format, its entrant count and its results in bracket order.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    elimination: Elimination,
    entrants: usize,
    results: Vec<StoredResult>,
}

/// One recorded result as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredResult {
    series: String,
    wins: [u32; 2],
    tiebreak: [i64; 2],
}

impl Serialize for Bracket {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let results = self
            .positions
            .iter()
            .filter_map(|position| {
                let result = position.result?;
                Some(StoredResult { series: position.id.clone(), wins: result.wins, tiebreak: result.tiebreak })
            })
            .collect();
        Stored { elimination: self.elimination, entrants: self.entrants, results }.serialize(serializer)
    }
}

impl TryFrom<Stored> for Bracket {
    type Error = BracketError;

    /// Rebuilds the bracket and records the stored results in bracket order (each position only
    /// depends on earlier ones), refusing the first that does not fit.
    fn try_from(stored: Stored) -> Result<Self, BracketError> {
        let mut bracket = Bracket::new(stored.elimination, stored.entrants)?;
        let mut results = Vec::with_capacity(stored.results.len());
        for result in stored.results {
            let at = bracket.index.get(&result.series).copied();
            results.push((at.ok_or_else(|| BracketError::UnknownSeries(result.series.clone()))?, result));
        }
        results.sort_by_key(|(at, _)| *at);
        for (_, result) in results {
            bracket.record(&result.series, SeriesResult { wins: result.wins, tiebreak: result.tiebreak })?;
        }
        Ok(bracket)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The sizes every format is tried on.
    const SIZES: [usize; 9] = [2, 3, 4, 5, 6, 7, 8, 9, 16];

    /// A series won 2-0 by `winner` of `entrants`.
    fn won_by(entrants: [usize; 2], winner: usize) -> SeriesResult {
        if winner == entrants[0] {
            SeriesResult { wins: [2, 0], tiebreak: [20, 10] }
        } else {
            SeriesResult { wins: [0, 2], tiebreak: [10, 20] }
        }
    }

    /// One played series: its id, its entrants and the entrant that advanced.
    type Played = (String, [usize; 2], usize);

    /// Plays the bracket to its end, the winner of each series picked by `pick`, every ready
    /// series recorded before `ready` is asked again; checks on the way that no entrant is in
    /// two ready series at once.
    fn play(bracket: &mut Bracket, mut pick: impl FnMut(&str, [usize; 2]) -> usize) -> Vec<Played> {
        let mut played = Vec::new();
        for _ in 0..4 * bracket.entrants() {
            let ready = bracket.ready();
            if ready.is_empty() {
                break;
            }
            let busy: Vec<usize> = ready.iter().flat_map(|series| series.entrants).collect();
            assert_eq!(busy.iter().collect::<BTreeSet<_>>().len(), busy.len(), "{ready:?}");
            for series in ready {
                let winner = pick(&series.id, series.entrants);
                let advanced = bracket.record(&series.id, won_by(series.entrants, winner)).unwrap();
                assert_eq!(advanced, winner, "{}", series.id);
                played.push((series.id, series.entrants, winner));
            }
        }
        assert!(bracket.is_finished(), "{played:?}");
        assert!(bracket.ready().is_empty());
        played
    }

    fn better_seed(_: &str, [first, second]: [usize; 2]) -> usize {
        first.min(second)
    }

    fn worse_seed(_: &str, [first, second]: [usize; 2]) -> usize {
        first.max(second)
    }

    /// Deterministic pseudo-random winners (xorshift).
    fn random(mut state: u64) -> impl FnMut(&str, [usize; 2]) -> usize {
        move |_, [first, second]| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(2) { first } else { second }
        }
    }

    fn fresh(elimination: Elimination, entrants: usize) -> Bracket {
        Bracket::new(elimination, entrants).unwrap()
    }

    #[test]
    fn seeds_are_placed_so_the_top_two_meet_only_in_the_final() {
        assert_eq!(seed_order(2), [0, 1]);
        assert_eq!(seed_order(4), [0, 3, 1, 2]);
        assert_eq!(seed_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        for size in [2, 4, 8, 16, 32] {
            let order = seed_order(size);
            assert_eq!(order.iter().collect::<BTreeSet<_>>().len(), size);
            // Seed 1 in the first half, seed 2 in the second; every pair sums to size - 1.
            assert!(order.iter().take(size / 2).any(|&seed| seed == 0));
            assert!(order.iter().skip(size / 2).any(|&seed| seed == 1));
            assert!(order.chunks_exact(2).all(|pair| pair.iter().sum::<usize>() == size - 1));
        }
    }

    #[test]
    fn fewer_than_two_or_too_many_entrants_are_refused() {
        assert_eq!(Bracket::single_elimination(0), Err(BracketError::TooFew(0)));
        assert_eq!(Bracket::double_elimination(1), Err(BracketError::TooFew(1)));
        assert_eq!(Bracket::single_elimination(MAX_ENTRANTS + 1), Err(BracketError::TooMany(MAX_ENTRANTS + 1)));
        assert_eq!(Bracket::double_elimination(usize::MAX), Err(BracketError::TooMany(usize::MAX)));
        assert!(Bracket::single_elimination(2).is_ok());
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        for elimination in [Elimination::Single, Elimination::Double] {
            for entrants in SIZES {
                let bracket = fresh(elimination, entrants);
                let byes = entrants.next_power_of_two() - entrants;
                // The first round's series: every entrant but the top `byes` seeds, all ready.
                let first_round: Vec<SeriesState> =
                    bracket.series().into_iter().filter(|series| series.id.starts_with("W1-")).collect();
                let playing: BTreeSet<usize> =
                    first_round.iter().flat_map(|series| series.entrants).flatten().collect();
                assert_eq!(playing, (byes..entrants).collect(), "{elimination:?} {entrants}");
                let ready = bracket.ready();
                assert!(first_round.iter().all(|series| ready.iter().any(|ready| ready.id == series.id)));
            }
        }
        // 5 entrants: seeds 1 to 3 sit out round 1; seeds 4 and 5 play for the place against
        // seed 1, and seeds 2 and 3, both through on byes, can play their second round at once.
        let five = fresh(Elimination::Single, 5);
        let ready = ready_pairs(&five);
        assert_eq!(ready, [("W1-2".into(), [3, 4]), ("W2-2".into(), [1, 2])]);
    }

    #[test]
    fn every_entrant_plays_until_eliminated() {
        for elimination in [Elimination::Single, Elimination::Double] {
            let lives = match elimination {
                Elimination::Single => 1,
                Elimination::Double => 2,
            };
            for entrants in SIZES {
                for (policy, pick) in [
                    ("better", Box::new(better_seed) as Box<dyn FnMut(&str, [usize; 2]) -> usize>),
                    ("worse", Box::new(worse_seed)),
                    ("random 1", Box::new(random(1))),
                    ("random 7", Box::new(random(7))),
                ] {
                    let mut bracket = fresh(elimination, entrants);
                    let played = play(&mut bracket, pick);
                    let context = format!("{elimination:?} {entrants} {policy}: {played:?}");
                    let champion = bracket.champion().unwrap_or(usize::MAX);
                    let mut losses = vec![0; entrants];
                    for (_, pair, winner) in &played {
                        for entrant in pair {
                            let count = &mut losses[*entrant];
                            assert!(*count < lives, "{entrant} played after elimination: {context}");
                            *count += usize::from(entrant != winner);
                        }
                    }
                    for (entrant, lost) in losses.iter().enumerate() {
                        if entrant == champion {
                            assert!(*lost < lives, "{context}");
                        } else {
                            assert_eq!(*lost, lives, "{entrant}: {context}");
                        }
                    }
                    let reset = played.iter().any(|(id, _, _)| id == "GF2");
                    let expected = match elimination {
                        Elimination::Single => entrants - 1,
                        Elimination::Double => 2 * entrants - 2 + usize::from(reset),
                    };
                    assert_eq!(played.len(), expected, "{context}");
                    assert_eq!(bracket.series().len(), expected, "{context}");
                    // Standings: every entrant once, ranges tiling 1..=entrants.
                    let placements = bracket.placements();
                    let mut next = 1;
                    let mut placed = BTreeSet::new();
                    for placement in &placements {
                        assert_eq!(placement.first, next, "{placements:?} {context}");
                        assert_eq!(placement.last - placement.first + 1, placement.entrants.len(), "{context}");
                        next = placement.last + 1;
                        placed.extend(placement.entrants.iter().copied());
                    }
                    assert_eq!(next, entrants + 1, "{placements:?} {context}");
                    assert_eq!(placed, (0..entrants).collect(), "{context}");
                    assert_eq!(placements.first().map(|first| first.entrants.clone()), Some(vec![champion]));
                }
            }
        }
    }

    #[test]
    fn the_better_seed_always_winning_crowns_seed_one_and_the_top_two_meet_last() {
        for elimination in [Elimination::Single, Elimination::Double] {
            for entrants in SIZES {
                let mut bracket = fresh(elimination, entrants);
                let played = play(&mut bracket, better_seed);
                assert_eq!(bracket.champion(), Some(0));
                let meetings: Vec<&str> = played
                    .iter()
                    .filter(|(_, pair, _)| pair.contains(&0) && pair.contains(&1))
                    .map(|(id, _, _)| id.as_str())
                    .collect();
                let winners_final = format!("W{}-1", entrants.next_power_of_two().trailing_zeros());
                let expected = match elimination {
                    Elimination::Single => vec![winners_final.as_str()],
                    Elimination::Double => vec![winners_final.as_str(), "GF1"],
                };
                assert_eq!(meetings, expected, "{elimination:?} {entrants}");
                // The final is the last series of single elimination; no reset in double.
                if elimination == Elimination::Single {
                    assert_eq!(played.last().map(|(id, _, _)| id.as_str()), Some(winners_final.as_str()));
                }
                assert!(!played.iter().any(|(id, _, _)| id == "GF2"));
                // Seeds 1 and 2 are 1st and 2nd, seed 3 is at least tied 3rd.
                let placements = bracket.placements();
                assert_eq!(placements.first().map(|place| place.entrants.clone()), Some(vec![0]));
                assert_eq!(placements.get(1).map(|place| place.entrants.clone()), Some(vec![1]));
                if entrants > 2 {
                    assert!(placements.get(2).is_some_and(|place| place.first == 3 && place.entrants.contains(&2)));
                }
            }
        }
    }

    /// The standings (first, last, entrants) of a bracket the better seed always won.
    fn standings_by_seed(elimination: Elimination, entrants: usize) -> Vec<(usize, usize, Vec<usize>)> {
        let mut bracket = fresh(elimination, entrants);
        play(&mut bracket, better_seed);
        bracket.placements().into_iter().map(|place| (place.first, place.last, place.entrants)).collect()
    }

    /// The ready series as (id, entrants).
    fn ready_pairs(bracket: &Bracket) -> Vec<(String, [usize; 2])> {
        bracket.ready().into_iter().map(|series| (series.id, series.entrants)).collect()
    }

    #[test]
    fn single_elimination_standings_tie_by_round() {
        assert_eq!(
            standings_by_seed(Elimination::Single, 8),
            [(1, 1, vec![0]), (2, 2, vec![1]), (3, 4, vec![2, 3]), (5, 8, vec![4, 5, 6, 7])]
        );
        // With byes the ranges narrow: 5 entrants, one first-round series.
        assert_eq!(
            standings_by_seed(Elimination::Single, 5),
            [(1, 1, vec![0]), (2, 2, vec![1]), (3, 4, vec![2, 3]), (5, 5, vec![4])]
        );
    }

    #[test]
    fn double_elimination_standings_tie_by_losers_round() {
        assert_eq!(
            standings_by_seed(Elimination::Double, 8),
            [
                (1, 1, vec![0]),
                (2, 2, vec![1]),
                (3, 3, vec![2]),
                (4, 4, vec![3]),
                (5, 6, vec![4, 5]),
                (7, 8, vec![6, 7])
            ]
        );
    }

    #[test]
    fn placements_are_settled_as_entrants_are_eliminated() {
        let mut bracket = fresh(Elimination::Single, 4);
        assert!(bracket.placements().is_empty());
        assert_eq!(bracket.record("W1-1", won_by([0, 3], 0)), Ok(0));
        assert_eq!(bracket.placements(), [Placement { first: 3, last: 4, entrants: vec![3] }]);
        assert!(!bracket.is_finished());
    }

    #[test]
    fn more_match_wins_advance() {
        let result = SeriesResult { wins: [1, 2], tiebreak: [50, 10] };
        assert_eq!(result.advancing([0, 5]), 5);
        assert_eq!(result.advancing([5, 0]), 0);
        let mut bracket = fresh(Elimination::Single, 2);
        assert_eq!(bracket.record("W1-1", result), Ok(1));
        assert_eq!(bracket.champion(), Some(1));
    }

    #[test]
    fn equal_wins_go_to_the_higher_tiebreak() {
        let result = SeriesResult { wins: [1, 1], tiebreak: [7, 9] };
        assert_eq!(result.advancing([0, 5]), 5);
        let result = SeriesResult { wins: [1, 1], tiebreak: [-3, -4] };
        assert_eq!(result.advancing([5, 0]), 5);
        let mut bracket = fresh(Elimination::Single, 2);
        assert_eq!(bracket.record("W1-1", SeriesResult { wins: [0, 0], tiebreak: [3, 4] }), Ok(1));
    }

    #[test]
    fn a_full_tie_goes_to_the_better_seed() {
        let tie = SeriesResult { wins: [1, 1], tiebreak: [8, 8] };
        assert_eq!(tie.advancing([0, 5]), 0);
        assert_eq!(tie.advancing([5, 0]), 0);
        // In a bracket, the better seed on side 1: seed 4 upsets seed 1, then ties seed 2.
        let mut bracket = fresh(Elimination::Single, 4);
        assert_eq!(bracket.record("W1-1", won_by([0, 3], 3)), Ok(3));
        assert_eq!(bracket.record("W1-2", won_by([1, 2], 1)), Ok(1));
        assert_eq!(bracket.ready(), [ReadySeries { id: "W2-1".into(), entrants: [3, 1] }]);
        assert_eq!(bracket.record("W2-1", tie), Ok(1));
        assert_eq!(bracket.champion(), Some(1));
    }

    #[test]
    fn losers_drop_in_reversed_order() {
        let mut bracket = fresh(Elimination::Double, 8);
        for (id, pair) in [("W1-1", [0, 7]), ("W1-2", [3, 4]), ("W1-3", [1, 6]), ("W1-4", [2, 5])] {
            assert_eq!(bracket.record(id, won_by(pair, pair[0])), Ok(pair[0]));
        }
        let ready = ready_pairs(&bracket);
        assert_eq!(
            ready,
            [("W2-1".into(), [0, 3]), ("W2-2".into(), [1, 2]), ("L1-1".into(), [7, 4]), ("L1-2".into(), [6, 5])]
        );
        for (id, pair) in [("W2-1", [0, 3]), ("W2-2", [1, 2]), ("L1-1", [7, 4]), ("L1-2", [6, 5])] {
            assert!(bracket.record(id, won_by(pair, pair[0].min(pair[1]))).is_ok());
        }
        // The loser of W2-2 (seed 3) meets the survivor of W2-1's side, and the other way round.
        let ready = ready_pairs(&bracket);
        assert_eq!(ready, [("W3-1".into(), [0, 1]), ("L2-1".into(), [4, 2]), ("L2-2".into(), [5, 3])]);
    }

    #[test]
    fn dropped_losers_meet_nobody_they_met_while_the_winners_bracket_is_wide() {
        for entrants in [8_usize, 16, 32, 64] {
            let rounds = entrants.next_power_of_two().trailing_zeros();
            for state in 1..=40 {
                let mut bracket = fresh(Elimination::Double, entrants);
                let played = play(&mut bracket, random(state));
                let mut met = BTreeSet::new();
                for (id, [first, second], _) in &played {
                    let pair = (*first.min(second), *first.max(second));
                    // L<2j>: the losers of winners' round j + 1, of entrants / 2^(j + 1) series.
                    let drop_round = id
                        .strip_prefix('L')
                        .and_then(|rest| rest.split('-').next())
                        .and_then(|round| round.parse::<u32>().ok())
                        .filter(|round| round % 2 == 0)
                        .map(|round| round / 2 + 1);
                    if let Some(round) = drop_round {
                        let width = entrants >> round;
                        if width >= 4 || (round == 2 && width >= 2) {
                            assert!(!met.contains(&pair), "{entrants} {state} {id} {pair:?} of {rounds}");
                        }
                    }
                    met.insert(pair);
                }
            }
        }
    }

    #[test]
    fn a_losers_champion_winning_the_grand_final_resets_the_bracket() {
        let mut bracket = fresh(Elimination::Double, 4);
        // Seed 2 (index 1) loses the winners' final, wins the losers' bracket and the grand final.
        let played = play(&mut bracket, |id, pair| if id == "GF1" { 1 } else { better_seed(id, pair) });
        let ids: Vec<&str> = played.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF1", "GF2"]);
        assert_eq!(played.get(5).map(|(_, pair, _)| *pair), Some([0, 1]));
        assert_eq!(played.get(6).map(|(_, pair, _)| *pair), Some([0, 1]));
        assert_eq!(bracket.champion(), Some(0));
        assert_eq!(bracket.series().len(), 2 * 4 - 1);

        // Step by step: after GF1 the bracket is not finished, GF2 is ready with the same sides.
        let mut bracket = bracket_up_to_grand_final();
        assert!(bracket.record("GF2", won_by([0, 1], 0)).is_err());
        assert_eq!(bracket.record("GF1", won_by([0, 1], 1)), Ok(1));
        assert!(!bracket.is_finished());
        assert_eq!(bracket.ready(), [ReadySeries { id: "GF2".into(), entrants: [0, 1] }]);
        assert_eq!(bracket.record("GF2", won_by([0, 1], 1)), Ok(1));
        assert_eq!(bracket.champion(), Some(1));
        let top: Vec<Vec<usize>> = bracket.placements().into_iter().take(2).map(|place| place.entrants).collect();
        assert_eq!(top, [vec![1], vec![0]]);
    }

    #[test]
    fn the_winners_champion_winning_the_grand_final_ends_it() {
        let mut bracket = bracket_up_to_grand_final();
        assert_eq!(bracket.record("GF1", won_by([0, 1], 0)), Ok(0));
        assert!(bracket.is_finished());
        assert!(bracket.ready().is_empty());
        assert_eq!(bracket.record("GF2", won_by([0, 1], 0)), Err(BracketError::NotReady("GF2".into())));
        assert!(bracket.series().iter().all(|series| series.id != "GF2"));
        assert_eq!(bracket.series().len(), 2 * 4 - 2);
    }

    /// 4 entrants, double elimination, the better seed winning everything up to the grand final.
    fn bracket_up_to_grand_final() -> Bracket {
        let mut bracket = fresh(Elimination::Double, 4);
        for _ in 0..8 {
            let ready = bracket.ready();
            let Some(series) = ready.iter().find(|series| series.id != "GF1") else { break };
            let winner = better_seed(&series.id, series.entrants);
            assert!(bracket.record(&series.id, won_by(series.entrants, winner)).is_ok());
        }
        assert_eq!(bracket.ready(), [ReadySeries { id: "GF1".into(), entrants: [0, 1] }]);
        bracket
    }

    #[test]
    fn two_entrants_double_elimination_is_a_final_and_a_grand_final() {
        let mut bracket = fresh(Elimination::Double, 2);
        assert_eq!(bracket.record("W1-1", won_by([0, 1], 1)), Ok(1));
        assert_eq!(bracket.ready(), [ReadySeries { id: "GF1".into(), entrants: [1, 0] }]);
        assert_eq!(bracket.record("GF1", won_by([1, 0], 0)), Ok(0));
        assert_eq!(bracket.ready(), [ReadySeries { id: "GF2".into(), entrants: [1, 0] }]);
        assert_eq!(bracket.record("GF2", won_by([1, 0], 0)), Ok(0));
        assert_eq!(bracket.champion(), Some(0));
    }

    #[test]
    fn bad_records_are_refused_and_change_nothing() {
        let mut bracket = fresh(Elimination::Double, 3);
        let before = bracket.clone();
        let result = won_by([1, 2], 1);
        assert_eq!(bracket.record("W7-1", result), Err(BracketError::UnknownSeries("W7-1".into())));
        assert_eq!(bracket.record("", result), Err(BracketError::UnknownSeries(String::new())));
        assert_eq!(bracket.record("W1-1", result), Err(BracketError::Bye("W1-1".into())));
        assert_eq!(bracket.record("L1-1", result), Err(BracketError::Bye("L1-1".into())));
        assert_eq!(bracket.record("W2-1", result), Err(BracketError::NotReady("W2-1".into())));
        assert_eq!(bracket.record("GF1", result), Err(BracketError::NotReady("GF1".into())));
        assert_eq!(bracket, before);
        assert_eq!(bracket.record("W1-2", result), Ok(1));
        assert_eq!(bracket.record("W1-2", result), Err(BracketError::AlreadyDecided("W1-2".into())));
        assert_eq!(bracket.ready(), [ReadySeries { id: "W2-1".into(), entrants: [0, 1] }]);
    }

    #[test]
    fn a_bracket_survives_a_json_round_trip_mid_way() {
        for elimination in [Elimination::Single, Elimination::Double] {
            let mut bracket = fresh(elimination, 9);
            let mut pick = random(3);
            for _ in 0..3 {
                for series in bracket.ready() {
                    let winner = pick(&series.id, series.entrants);
                    assert!(bracket.record(&series.id, won_by(series.entrants, winner)).is_ok());
                }
            }
            assert!(!bracket.is_finished());
            let json = serde_json::to_string(&bracket).unwrap();
            let name = match elimination {
                Elimination::Single => "single-elimination",
                Elimination::Double => "double-elimination",
            };
            let start = format!(r#"{{"elimination":"{name}","entrants":9,"results":[{{"series":"W1-"#);
            assert!(json.starts_with(&start), "{json}");
            let back: Bracket = serde_json::from_str(&json).unwrap();
            assert_eq!(back, bracket);
            assert_eq!(back.ready(), bracket.ready());
            assert_eq!(back.placements(), bracket.placements());
            // Both play on alike.
            let (mut original, mut restored) = (bracket, back);
            assert_eq!(play(&mut original, random(11)), play(&mut restored, random(11)));
            assert_eq!(original.placements(), restored.placements());
        }
    }

    #[test]
    fn rounds_follow_the_shape_and_a_round_depends_only_on_the_rounds_before_it() {
        let rounds = |bracket: &Bracket| -> Vec<(String, u32)> {
            bracket.series().into_iter().map(|series| (series.id, series.round)).collect()
        };
        let single = rounds(&fresh(Elimination::Single, 8));
        assert!(single.iter().all(|(id, round)| id.starts_with(&format!("W{round}-"))), "{single:?}");
        // Double elimination of 8 (3 winners' rounds): W<k> is k, L<k> is k + 1, then 6 and 7.
        for (id, round) in rounds(&fresh(Elimination::Double, 8)) {
            let expected = match id.split('-').next().unwrap_or_default() {
                "GF1" => 6,
                "GF2" => 7,
                bracket_round if bracket_round.starts_with('W') => bracket_round[1..].parse().unwrap(),
                bracket_round => bracket_round[1..].parse::<u32>().unwrap() + 1,
            };
            assert_eq!(round, expected, "{id}");
        }
        // Played to the end, the bracket cut at any round has every series of that round and
        // before with the same entrants and results, and nothing recorded after it.
        for elimination in [Elimination::Single, Elimination::Double] {
            for entrants in SIZES {
                let mut bracket = fresh(elimination, entrants);
                play(&mut bracket, random(entrants as u64 + 7));
                let whole = bracket.series();
                let last = whole.iter().map(|series| series.round).max().unwrap();
                assert!(!bracket.up_to_round(last - 1).is_finished());
                assert_eq!(bracket.up_to_round(last), bracket);
                for cut in 0..last {
                    let earlier = bracket.up_to_round(cut);
                    for series in earlier.series() {
                        assert_eq!(
                            series.result.is_some(),
                            series.round <= cut,
                            "{elimination:?} {entrants} {series:?}"
                        );
                        if series.round <= cut {
                            assert!(whole.contains(&series), "{elimination:?} {entrants} cut {cut}: {series:?}");
                        }
                    }
                }
            }
        }
    }

    /// A stored single elimination bracket of `entrants` with these results (series ids), each
    /// won 2-0 by side 0.
    fn stored(elimination: &str, entrants: usize, series: &[&str]) -> Result<Bracket, serde_json::Error> {
        let results: Vec<String> =
            series.iter().map(|id| format!(r#"{{"series":"{id}","wins":[2,0],"tiebreak":[1,0]}}"#)).collect();
        let results = results.join(",");
        serde_json::from_str(&format!(
            r#"{{"elimination":"{elimination}","entrants":{entrants},"results":[{results}]}}"#
        ))
    }

    #[test]
    fn a_stored_bracket_that_does_not_add_up_is_refused() {
        let single = "single-elimination";
        assert!(stored(single, 2, &["W1-1"]).is_ok());
        assert!(stored(single, 1, &[]).is_err());
        assert!(stored("triple-elimination", 4, &[]).is_err());
        assert!(stored(single, 4, &["W9-1"]).is_err());
        assert!(stored(single, 4, &["W2-1"]).is_err());
        assert!(stored(single, 4, &["W1-1", "W1-1"]).is_err());
        assert!(stored("double-elimination", 4, &["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF1", "GF2"]).is_err());
        assert!(serde_json::from_str::<Bracket>(r#"{"elimination":"single-elimination","entrants":2}"#).is_err());
        // Stored out of order, results are still recorded in bracket order.
        let bracket = stored(single, 4, &["W2-1", "W1-2", "W1-1"]).unwrap();
        assert_eq!(bracket.champion(), Some(0));
        assert_eq!(bracket.series().iter().filter(|series| series.winner.is_some()).count(), 3);
    }
}
