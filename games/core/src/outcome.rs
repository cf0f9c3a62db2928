//! Final (or current) scores and ranks, shared by every game.

use serde::{Deserialize, Serialize};

/// Scores and ranks per seat. Ranks are 1-based and shared on ties ("1, 1, 3").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Score per seat, in seat order.
    pub scores: Vec<i64>,
    /// Rank per seat, in seat order; 1 is best.
    pub ranks: Vec<u32>,
}

impl Outcome {
    /// The single seat ranked 1, or `None` when first place is shared (a draw).
    pub fn winner(&self) -> Option<usize> {
        let mut firsts = self.ranks.iter().enumerate().filter(|(_, rank)| **rank == 1);
        match (firsts.next(), firsts.next()) {
            (Some((seat, _)), None) => Some(seat),
            _ => None,
        }
    }
}

/// Standard competition ranking ("1224") of `keys`, where a greater key is better. Games pass
/// a tuple key such as `(score, tie_break)`.
pub fn ranks_from_scores<K: Ord>(keys: &[K]) -> Vec<u32> {
    keys.iter().map(|key| 1 + keys.iter().filter(|other| *other > key).count() as u32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_a_rank_and_the_next_rank_is_skipped() {
        assert_eq!(ranks_from_scores(&[5, 9, 5, 1]), vec![2, 1, 2, 4]);
    }

    #[test]
    fn winner_is_none_on_a_shared_first_place() {
        let draw = Outcome { scores: vec![3, 3], ranks: vec![1, 1] };
        assert_eq!(draw.winner(), None);
        let win = Outcome { scores: vec![3, 4], ranks: vec![2, 1] };
        assert_eq!(win.winner(), Some(1));
    }
}
