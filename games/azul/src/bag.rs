//! Drawing tiles from the bag: the only randomness in Azul (azul.md "Randomness" **\[ours\]**).
//!
//! Draws go through `arena_game::rng_below` on the shared ChaCha8 generator, never `rand`'s
//! distributions, so the same seed deals the same tiles on every machine and every release.

use crate::rules::Counts;
use crate::{COLOURS, Colour};
use arena_game::{GameRng, rng_below};

/// Draws one tile uniformly among the tiles in `bag` (each tile, not each colour, is equally
/// likely) and removes it; `None` when the bag is empty. Consumes randomness only when the bag is
/// not empty.
pub(crate) fn draw(bag: &mut Counts, rng: &mut GameRng) -> Option<Colour> {
    let total: u32 = bag.iter().map(|count| u32::from(*count)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng_below(rng, total);
    for colour in COLOURS {
        let count = &mut bag[colour.index()];
        if pick < u32::from(*count) {
            *count -= 1;
            return Some(colour);
        }
        pick -= u32::from(*count);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_game::new_rng;

    /// azul.md "A round" 3: tiles are drawn at random from the bag, one tile at a time, until
    /// it is empty.
    #[test]
    fn draws_every_tile_then_reports_empty() {
        let mut bag = [1, 0, 2, 0, 1];
        let mut rng = new_rng(7);
        let mut drawn = [0u8; 5];
        while let Some(colour) = draw(&mut bag, &mut rng) {
            drawn[colour.index()] += 1;
        }
        assert_eq!(drawn, [1, 0, 2, 0, 1]);
        assert_eq!(bag, [0; 5]);
    }

    /// azul.md "Randomness": the same seed gives the same deal.
    #[test]
    fn same_seed_same_draws() {
        let deal = |seed| {
            let mut bag = [20; 5];
            let mut rng = new_rng(seed);
            (0..20).map(|_| draw(&mut bag, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(deal(3), deal(3));
        assert_ne!(deal(3), deal(4));
    }
}
