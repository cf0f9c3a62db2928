//! Ratings: a Bradley-Terry model fitted by maximum likelihood over every result at once, so the
//! order matches finished in (resumed runs, any number of jobs, merged shards) cannot change it.
//!
//! Each match gives one pairwise game per pair of seats: the better placement wins, equal
//! placements draw (half a win each); a multi-player match is its placements' pairs. Bot `i`
//! has a strength `p_i`, and beats `j` with probability `p_i / (p_i + p_j)`. The fit is
//! Hunter's MM iteration (2004), with a prior of one virtual draw against a reference bot of
//! strength 1, which keeps an unbeaten or winless bot finite and anchors the scale. A rating
//! is `1500 + 400 log10(p_i)` (the Elo scale: 400 points = 10:1 odds); its 95% interval is
//! ±1.96 standard errors from the Fisher information of `ln p_i`, the others held at their fit.

/// One pairwise game: bots `a` and `b` (indices), and `a`'s score (1 win, 0.5 draw, 0 loss).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// One bot.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// `a`'s score.
    pub score_a: f64,
}

/// A bot's rating and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// `1500 + 400 log10(strength)`.
    pub rating: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// The iteration stops when no strength moves by this share, or after [`MAX_ITERATIONS`].
const TOLERANCE: f64 = 1e-12;
const MAX_ITERATIONS: usize = 100_000;
/// Elo scale: rating points per natural-log unit of strength.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// Pairwise totals, summed game by game: games played per pair that met and score won per bot.
/// All a fit needs, so a ladder keeps these as results land instead of every game; every
/// total is a count of half points, summed exactly in any order, so the fit of the same games
/// is the same however they were added.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meetings {
    /// Per bot, its opponents (ascending) and the games played against each.
    met: Vec<std::collections::BTreeMap<usize, f64>>,
    /// Per bot, the score it won.
    won: Vec<f64>,
}

impl Meetings {
    /// No games yet between `bots` bots.
    pub fn new(bots: usize) -> Meetings {
        Meetings { met: vec![std::collections::BTreeMap::new(); bots], won: vec![0.0; bots] }
    }

    /// Adds one game (a game naming a bot out of range, or a bot against itself, is ignored).
    pub fn add(&mut self, game: Game) {
        let bots = self.won.len();
        if game.a >= bots || game.b >= bots || game.a == game.b {
            return;
        }
        *self.met[game.a].entry(game.b).or_default() += 1.0;
        *self.met[game.b].entry(game.a).or_default() += 1.0;
        self.won[game.a] += game.score_a;
        self.won[game.b] += 1.0 - game.score_a;
    }
}

/// Fits the ratings of `bots` bots from `games`.
pub fn bradley_terry(bots: usize, games: &[Game]) -> Vec<Rating> {
    let mut meetings = Meetings::new(bots);
    for game in games {
        meetings.add(*game);
    }
    bradley_terry_of(&meetings)
}

/// Fits the ratings of the bots of `meetings` from their totals.
pub fn bradley_terry_of(meetings: &Meetings) -> Vec<Rating> {
    // Each bot's opponents in ascending order, so the sums below run in the order a dense
    // table's would: the fit does not depend on how the totals are kept. A ladder's bots meet
    // a few others each: an iteration costs the pairs that met, not the square of the bots.
    let bots = meetings.won.len();
    let won = &meetings.won;
    let played: Vec<Vec<(usize, f64)>> =
        meetings.met.iter().map(|opponents| opponents.iter().map(|(j, times)| (*j, *times)).collect()).collect();
    let mut strength = vec![1.0f64; bots];
    for _ in 0..MAX_ITERATIONS {
        let mut next = strength.clone();
        for i in 0..bots {
            // The prior: half a win out of one game against the reference (strength 1).
            let mut denominator = 1.0 / (strength[i] + 1.0);
            for &(j, times) in &played[i] {
                denominator += times / (strength[i] + strength[j]);
            }
            next[i] = (won[i] + 0.5) / denominator;
        }
        let moved = strength.iter().zip(&next).map(|(old, new)| ((new - old) / old).abs()).fold(0.0, f64::max);
        strength = next;
        if moved < TOLERANCE {
            break;
        }
    }
    (0..bots)
        .map(|i| {
            let odds = |other: f64| strength[i] / (strength[i] + other);
            let mut information = odds(1.0) * (1.0 - odds(1.0));
            for &(j, times) in &played[i] {
                information += times * odds(strength[j]) * (1.0 - odds(strength[j]));
            }
            let rating = 1500.0 + SCALE * strength[i].ln();
            let half_width = 1.96 * SCALE / information.sqrt();
            Rating { rating, low: rating - half_width, high: rating + half_width }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<Game> {
        let mut out = Vec::new();
        out.extend((0..wins).map(|_| Game { a, b, score_a: 1.0 }));
        out.extend((0..draws).map(|_| Game { a, b, score_a: 0.5 }));
        out.extend((0..losses).map(|_| Game { a, b, score_a: 0.0 }));
        out
    }

    #[test]
    fn equal_records_give_equal_ratings_and_the_reference_anchors_the_scale() {
        let ratings = bradley_terry(2, &games(0, 1, 5, 0, 5));
        assert!((ratings[0].rating - ratings[1].rating).abs() < 1e-9);
        assert!((ratings[0].rating - 1500.0).abs() < 1e-6, "{ratings:?}");
    }

    #[test]
    fn the_stronger_bot_rates_higher_and_more_games_narrow_the_interval() {
        let few = bradley_terry(2, &games(0, 1, 3, 0, 1));
        let many = bradley_terry(2, &games(0, 1, 30, 0, 10));
        assert!(few[0].rating > few[1].rating);
        assert!(many[0].high - many[0].low < few[0].high - few[0].low);
        assert!(few[0].low < few[0].rating && few[0].rating < few[0].high);
    }

    #[test]
    fn an_unbeaten_bot_has_a_finite_rating() {
        let ratings = bradley_terry(2, &games(0, 1, 20, 0, 0));
        assert!(ratings[0].rating.is_finite() && ratings[1].rating.is_finite());
        assert!(ratings[0].rating - ratings[1].rating > 400.0, "{ratings:?}");
    }

    #[test]
    fn the_order_of_the_games_does_not_matter() {
        let mut all = games(0, 1, 4, 1, 2);
        all.extend(games(1, 2, 3, 0, 3));
        all.extend(games(2, 0, 1, 2, 5));
        let forward = bradley_terry(3, &all);
        all.reverse();
        let backward = bradley_terry(3, &all);
        for (f, b) in forward.iter().zip(&backward) {
            assert!((f.rating - b.rating).abs() < 1e-6);
        }
    }
}
