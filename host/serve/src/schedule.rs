//! Which bots play next on a game's ladder: a pure function of the entrants (each bot's current
//! version, its rating and interval, its matches) and the pairs played so far, so the choice is
//! deterministic and testable. New versions first: one with fewer than [`PLACEMENT_MATCHES`]
//! plays the entrant closest in rating. Then the pair whose result tells the most: wide intervals
//! on both sides and an even predicted outcome, discounted by how often the pair has met, and
//! never the pair just played when another exists, nor one that has met [`MAX_MEETINGS`] times.
//! A pairing is played twice, from both seat
//! orders, on one seed derived from the game, the pair and how often it has met
//! ([`pairing_seed`]).

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
    let digest = Sha256::digest(format!("{game}:{a}:{b}:{times}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
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
    fn seeds_are_fixed_by_game_pair_and_count() {
        assert_eq!(pairing_seed("azul", 3, 1, 0), pairing_seed("azul", 1, 3, 0));
        assert_ne!(pairing_seed("azul", 1, 3, 0), pairing_seed("azul", 1, 3, 1));
        assert_ne!(pairing_seed("azul", 1, 3, 0), pairing_seed("paint", 1, 3, 0));
    }
}
