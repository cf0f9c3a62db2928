//! Which bots play next on a game's ladder: a pure function of the entrants (each bot's current
//! version, its rating and interval, its matches) and the pairs played so far, so the choice is
//! deterministic and testable. New versions first: one with fewer than [`PLACEMENT_MATCHES`]
//! plays the entrant closest in rating. Then the pair whose result tells the most: wide intervals
//! on both sides and an even predicted outcome, discounted by how often the pair has met, and
//! never the pair just played when another exists, nor one that has met [`MAX_MEETINGS`] times.
//! A pairing is played twice, from both seat
//! orders, on one seed derived from the game, the pair and how often it has met
//! ([`pairing_seed`]).
//!
//! A game for more than two bots is played at tables ([`next_table`]): bots adjacent in rating, so
//! a table is a close contest; a new version's table is the one around it, then the table whose
//! result tells the most (wide intervals, rarely met), never the table just played when another
//! exists. A table of `k` bots is played `k` times, each bot once in each seat (the seat order
//! rotated), on one seed ([`table_seed`]).

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Matches a new version plays before it is paired by information alone.
pub const PLACEMENT_MATCHES: u64 = 6;

/// Matches a pair of versions plays at most (both seat orders count): past it the pair waits for
/// a new version of either bot, so a small ladder settles instead of replaying one pair forever.
pub const MAX_MEETINGS: u64 = 40;

/// A bot's current version on the ladder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entrant {
    /// The version.
    pub version: i64,
    /// Its rating (1500 before any match).
    pub rating: f64,
    /// Width of its 95% interval.
    pub width: f64,
    /// Ranked matches played or queued.
    pub matches: u64,
}

/// What a game's scheduler has counted of its ranked matches, every one ever queued (played,
/// pending, disputed or failed: a failed table still counts, so its seed is not dealt again):
/// kept between top-ups and brought up to date from the matches queued since
/// ([`Scheduled::add`] for each, in id order), so a top-up reads what is new, not the ladder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scheduled {
    /// The last match counted: the next reading starts after it.
    pub after: i64,
    /// Matches per pair of versions (`a < b`) that sat at one table.
    pub met: BTreeMap<(i64, i64), u64>,
    /// Matches per version.
    pub played: BTreeMap<i64, u64>,
    /// Matches per table (its versions in increasing order), for the next one's seed.
    pub tables: BTreeMap<Vec<i64>, u64>,
    /// The table dealt last (not dealt again while another exists).
    pub last_table: Option<Vec<i64>>,
}

impl Scheduled {
    /// Counts match `id` seating `versions` (any order; a version twice counts once).
    pub fn add(&mut self, id: i64, versions: &[i64]) {
        self.after = self.after.max(id);
        let table: Vec<i64> =
            versions.iter().copied().collect::<std::collections::BTreeSet<i64>>().into_iter().collect();
        self.count(&table, 1);
    }

    /// Counts `times` matches more at `table` (versions in increasing order), as a top-up does
    /// for a table it is about to queue, before the store gives them ids.
    pub fn count(&mut self, table: &[i64], times: u64) {
        for version in table {
            *self.played.entry(*version).or_default() += times;
        }
        for (i, a) in table.iter().enumerate() {
            for b in &table[i + 1..] {
                *self.met.entry((*a, *b)).or_default() += times;
            }
        }
        *self.tables.entry(table.to_vec()).or_default() += times;
    }
}

/// The pair `(a, b)` with `a < b`.
fn pair(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

/// The next pairing among `entrants` (at least two), given how often each pair has met
/// (`met`, keyed with the smaller version first) and the pair played last.
pub fn next_pairing(
    entrants: &[Entrant],
    met: &BTreeMap<(i64, i64), u64>,
    last: Option<(i64, i64)>,
) -> Option<(i64, i64)> {
    if entrants.len() < 2 {
        return None;
    }
    let times = |a: i64, b: i64| met.get(&pair(a, b)).copied().unwrap_or(0);
    let open = |a: i64, b: i64| times(a, b) < MAX_MEETINGS;
    // The newest version still placing, if any: fewest matches first, then the newest.
    let placing = entrants
        .iter()
        .filter(|entrant| entrant.matches < PLACEMENT_MATCHES)
        .filter(|entrant| {
            entrants.iter().any(|other| other.version != entrant.version && open(entrant.version, other.version))
        })
        .min_by(|x, y| x.matches.cmp(&y.matches).then(y.version.cmp(&x.version)));
    if let Some(new) = placing {
        let opponent = entrants
            .iter()
            .filter(|other| other.version != new.version && open(new.version, other.version))
            .min_by(|x, y| {
                let cost = |other: &Entrant| {
                    (other.rating - new.rating).abs() + 100.0 * times(new.version, other.version) as f64
                };
                cost(x).total_cmp(&cost(y)).then(x.version.cmp(&y.version))
            })?;
        return Some(pair(new.version, opponent.version));
    }
    let mut best: Option<((i64, i64), f64)> = None;
    let pairs = entrants
        .iter()
        .enumerate()
        .flat_map(|(i, a)| entrants[i + 1..].iter().filter(move |b| open(a.version, b.version)).map(move |b| (a, b)))
        .collect::<Vec<_>>();
    for &(a, b) in &pairs {
        let key = pair(a.version, b.version);
        if Some(key) == last && pairs.len() > 1 {
            continue;
        }
        let expected = 1.0 / (1.0 + 10f64.powf((b.rating - a.rating) / 400.0));
        let value =
            (a.width + b.width) * expected * (1.0 - expected) / (1.0 + times(a.version, b.version) as f64).powi(2);
        if best.is_none_or(|(best_key, best_value)| value > best_value || (value == best_value && key < best_key)) {
            best = Some((key, value));
        }
    }
    best.map(|(key, _)| key)
}

/// The seed of the `times`-th pairing of versions `a` and `b` in `game`: the first 8 bytes of
/// sha256("GAME:A:B:TIMES") (A the smaller version), little-endian.
pub fn pairing_seed(game: &str, a: i64, b: i64, times: u64) -> u64 {
    let (a, b) = pair(a, b);
    table_seed(game, &[a, b], times)
}

/// The seed of the `times`-th time the versions `table` (in increasing order) sit at one table
/// in `game`: the first 8 bytes of sha256("GAME:V1:V2:...:TIMES"), little-endian (for two, the
/// pairing's seed).
pub fn table_seed(game: &str, table: &[i64], times: u64) -> u64 {
    let versions: Vec<String> = table.iter().map(i64::to_string).collect();
    let digest = Sha256::digest(format!("{game}:{}:{times}", versions.join(":")).as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The next table of `size` seats among `entrants`, its versions in increasing order, given how
/// often each pair has met (`met`, every pair of a table counted once per match) and the table
/// played last. Two seats: [`next_pairing`]. More: a window of `size` entrants adjacent in rating
/// with a pair that has met fewer than [`MAX_MEETINGS`] times (a table of pairs that have all met
/// that often waits for a new version; one tired pair does not keep a new bot from its
/// neighbours): around the newest version still
/// placing, the closest in rating and least met; otherwise the one with the widest intervals,
/// discounted by how often its pairs have met.
pub fn next_table(
    entrants: &[Entrant],
    met: &BTreeMap<(i64, i64), u64>,
    last: Option<&[i64]>,
    size: usize,
) -> Option<Vec<i64>> {
    if size <= 2 {
        let last = last.and_then(|table| match table {
            [a, b] => Some((*a, *b)),
            _ => None,
        });
        return next_pairing(entrants, met, last).map(|(a, b)| vec![a, b]);
    }
    if entrants.len() < size {
        return None;
    }
    let mut ranked: Vec<&Entrant> = entrants.iter().collect();
    ranked.sort_by(|x, y| x.rating.total_cmp(&y.rating).then(x.version.cmp(&y.version)));
    let meetings = |window: &[&Entrant]| -> Vec<u64> {
        let mut counts = Vec::new();
        for (i, a) in window.iter().enumerate() {
            for b in &window[i + 1..] {
                counts.push(met.get(&pair(a.version, b.version)).copied().unwrap_or(0));
            }
        }
        counts
    };
    let windows: Vec<&[&Entrant]> =
        ranked.windows(size).filter(|window| meetings(window).iter().any(|&times| times < MAX_MEETINGS)).collect();
    let versions = |window: &[&Entrant]| {
        let mut table: Vec<i64> = window.iter().map(|entrant| entrant.version).collect();
        table.sort_unstable();
        table
    };
    let mean_meetings = |window: &[&Entrant]| {
        let counts = meetings(window);
        counts.iter().sum::<u64>() as f64 / counts.len().max(1) as f64
    };
    let placing = entrants
        .iter()
        .filter(|entrant| entrant.matches < PLACEMENT_MATCHES)
        .filter(|entrant| windows.iter().any(|window| window.iter().any(|seated| seated.version == entrant.version)))
        .min_by(|x, y| x.matches.cmp(&y.matches).then(y.version.cmp(&x.version)));
    if let Some(new) = placing {
        let cost = |window: &[&Entrant]| {
            let spread = window.iter().map(|entrant| (entrant.rating - new.rating).abs()).sum::<f64>();
            spread + 100.0 * mean_meetings(window)
        };
        return windows
            .iter()
            .filter(|window| window.iter().any(|seated| seated.version == new.version))
            .min_by(|x, y| cost(x).total_cmp(&cost(y)).then(versions(x).cmp(&versions(y))))
            .map(|window| versions(window));
    }
    let value = |window: &[&Entrant]| {
        window.iter().map(|entrant| entrant.width).sum::<f64>() / (1.0 + mean_meetings(window)).powi(2)
    };
    windows
        .iter()
        .filter(|window| windows.len() == 1 || last != Some(versions(window).as_slice()))
        .max_by(|x, y| value(x).total_cmp(&value(y)).then(versions(y).cmp(&versions(x))))
        .map(|window| versions(window))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(version: i64, rating: f64, width: f64, matches: u64) -> Entrant {
        Entrant { version, rating, width, matches }
    }

    #[test]
    fn a_new_version_plays_first_against_the_closest_rating() {
        let entrants = [entrant(1, 1700.0, 50.0, 40), entrant(2, 1500.0, 50.0, 40), entrant(3, 1520.0, 400.0, 0)];
        assert_eq!(next_pairing(&entrants, &BTreeMap::new(), None), Some((2, 3)));
        // Having met the closest twice, it meets the other.
        let met = BTreeMap::from([((2, 3), 2)]);
        assert_eq!(next_pairing(&entrants, &met, None), Some((1, 3)));
    }

    #[test]
    fn settled_versions_play_the_most_informative_pair_and_not_the_last_one_again() {
        let entrants = [entrant(1, 1500.0, 300.0, 20), entrant(2, 1510.0, 300.0, 20), entrant(3, 1900.0, 300.0, 20)];
        let chosen = next_pairing(&entrants, &BTreeMap::new(), None);
        assert_eq!(chosen, Some((1, 2)), "the even pair");
        let again = next_pairing(&entrants, &BTreeMap::new(), chosen);
        assert_ne!(again, chosen);
        assert_eq!(next_pairing(&entrants[..1], &BTreeMap::new(), None), None);
        // Two entrants: the only pair, even if just played.
        assert_eq!(next_pairing(&entrants[..2], &BTreeMap::new(), Some((1, 2))), Some((1, 2)));
    }

    #[test]
    fn a_pair_that_has_met_enough_waits_for_a_new_version() {
        let entrants = [entrant(1, 1500.0, 300.0, 80), entrant(2, 1510.0, 300.0, 80)];
        let met = BTreeMap::from([((1, 2), MAX_MEETINGS)]);
        assert_eq!(next_pairing(&entrants, &met, None), None);
        let placing = [entrant(1, 1500.0, 300.0, 80), entrant(2, 1510.0, 300.0, 2)];
        assert_eq!(next_pairing(&placing, &met, None), None);
    }

    #[test]
    fn tables_seat_bots_adjacent_in_rating_a_new_one_first() {
        let entrants = [
            entrant(1, 1200.0, 100.0, 30),
            entrant(2, 1800.0, 100.0, 30),
            entrant(3, 1500.0, 300.0, 30),
            entrant(4, 1550.0, 300.0, 30),
            entrant(5, 1450.0, 300.0, 30),
        ];
        let met = BTreeMap::new();
        // The three close, uncertain ones; not the same table twice in a row.
        let first = next_table(&entrants, &met, None, 3).unwrap();
        assert_eq!(first, [3, 4, 5]);
        let second = next_table(&entrants, &met, Some(&first), 3).unwrap();
        assert_ne!(second, first);
        assert_eq!(second.len(), 3);
        // A new version sits with its neighbours in rating.
        let mut with_new = entrants.to_vec();
        with_new.push(entrant(6, 1790.0, 1000.0, 0));
        assert_eq!(next_table(&with_new, &met, Some(&first), 3), Some(vec![2, 4, 6]));
        // A table whose pairs have all met enough is not set again, while one tired pair does
        // not keep a table from being set; too few entrants, no table.
        let tired = BTreeMap::from([((3, 4), MAX_MEETINGS), ((3, 5), MAX_MEETINGS), ((4, 5), MAX_MEETINGS)]);
        let table = next_table(&entrants, &tired, None, 3).unwrap();
        assert_ne!(table, [3, 4, 5]);
        let one_tired = BTreeMap::from([((3, 4), MAX_MEETINGS)]);
        assert_eq!(next_table(&entrants[2..], &one_tired, None, 3), Some(vec![3, 4, 5]), "the only table");
        assert_eq!(next_table(&entrants[..2], &met, None, 3), None);
        // Two seats are a pairing.
        assert_eq!(next_table(&entrants, &met, None, 2), next_pairing(&entrants, &met, None).map(|(a, b)| vec![a, b]));
    }

    #[test]
    fn seeds_are_fixed_by_game_pair_and_count() {
        assert_eq!(pairing_seed("azul", 3, 1, 0), table_seed("azul", &[1, 3], 0), "a pairing is a table of two");
        assert_ne!(table_seed("eubots", &[1, 2, 3], 0), table_seed("eubots", &[1, 2, 4], 0));
        assert_eq!(pairing_seed("azul", 3, 1, 0), pairing_seed("azul", 1, 3, 0));
        assert_ne!(pairing_seed("azul", 1, 3, 0), pairing_seed("azul", 1, 3, 1));
        assert_ne!(pairing_seed("azul", 1, 3, 0), pairing_seed("paint", 1, 3, 0));
    }
}
