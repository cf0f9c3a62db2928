//! The mirrored perspective (code-character.md "Perspective").
//!
//! Every player sees the game as player 1 does: its base top-left. For player 2 a position p is
//! mirrored to (30 - x, 30 - y) and a tile `[i][j]` to `[29 - i][29 - j]`.
//!
//! **How the engine stores positions \[ours\]**: each player's units (positions, intents, tower
//! tiles) are stored in *that player's own* coordinates, exactly as the player sees and sends
//! them. "Engine coordinates" (player 1's) are only computed for events and display. Why: the
//! spec's rules are the same for both players in their own views (the tile of a position is
//! floor(x), floor(y) in the owner's view; the map is point-symmetric; bases are (0.5, 0.5) in
//! both views), so every per-unit computation runs identically for both seats, and `30 - x` is
//! not exact in floating point. Storing own coordinates makes a match and the same match with
//! seats swapped *bit-for-bit* the same, which the symmetry test checks. The only rule that
//! mixes the two players' coordinates, the blast distance, uses [`cross_distance`], which is
//! symmetric in its arguments and exact (see there).
//!
//! **Ids \[ours\]** follow the same rule: each player numbers its own units (its 20 starting
//! bots 1..=20, then its spawns 21, 22, ...; a tower keeps its bot's id), and sees the enemy's
//! unit `k` as [`ENEMY_ID_BASE`]` + k`. code-character.md ("Ids") counts one sequence for both
//! players (player 1's bots first, then player 2's, spawns interleaved, player 1 first), which
//! gives the two seats different ids for mirrored units, and bots that use ids (`id % n` to
//! spread over the flags) then play differently in the two seats: a bot against a copy of itself
//! did not draw. With per-player ids both seats see the very same view. Events name a unit by
//! its owner's seat and the owner's own id.
//!
//! **Where the original's arithmetic depends on the seat, and what we do \[ours\]**:
//! - it validates player 2's `move(p)`/`blast(p)` targets after flipping them into player 1's
//!   frame (so a target on a grid line names a different tile for each player): we validate
//!   every target in its sender's own frame ([`crate::command`]);
//! - it measures blast distances in player 1's frame after a flip that rounds: we compute the
//!   difference across frames exactly ([`cross_distance`]);
//! - its line-of-sight test rounds at grid vertices and skips the far tile of axis-aligned
//!   segments, and a path query that starts or ends exactly on a waypoint removes that waypoint
//!   for the rest of the turn: our line of sight is exact and query-independent, and every query
//!   runs in the bot owner's frame on the mirrored grid (the `path` module);
//! - it processes player 1 first wherever order could matter (ids, transforms): ids are per
//!   player, and every step of the turn is order-independent between the players (blasts are
//!   accumulated, transform requests on one tile need the bot to be alone on it).

use crate::geometry::{MAP_EXTENT, Tile, Vec2};

/// `p`, stored in `owner`'s coordinates, as `observer` sees it.
pub(crate) fn view_pos(observer: usize, owner: usize, p: Vec2) -> Vec2 {
    if observer == owner { p } else { p.mirrored() }
}

/// `tile`, stored in `owner`'s coordinates, as `observer` sees it.
pub(crate) fn view_tile(observer: usize, owner: usize, tile: Tile) -> Tile {
    if observer == owner { tile } else { tile.mirrored() }
}

/// The engine (player 1) coordinates of a tile stored in `owner`'s coordinates.
pub(crate) fn engine_tile(owner: usize, tile: Tile) -> Tile {
    view_tile(0, owner, tile)
}

/// Enemy unit `k` is seen as `ENEMY_ID_BASE + k` (own ids stay below it: a match has at most
/// [`crate::CodeCharacterConfig::MAX_TURNS`] turns, so a player has fewer units than this).
pub const ENEMY_ID_BASE: u32 = 1_000_000;

/// How an enemy's unit with (its own) id `id` is named by the other player.
pub(crate) fn enemy_id(id: u32) -> u32 {
    ENEMY_ID_BASE.saturating_add(id)
}

/// The id `observer` sees for `owner`'s unit `id` (stored as its owner numbers it).
pub(crate) fn view_id(observer: usize, owner: usize, id: u32) -> u32 {
    if observer == owner { id } else { enemy_id(id) }
}

/// The enemy's own id for an id a player gave, when it names an enemy unit.
pub(crate) fn enemy_own_id(id: u32) -> Option<u32> {
    id.checked_sub(ENEMY_ID_BASE).filter(|&k| k > 0)
}

/// One coordinate of `a - mirror(b)`, i.e. `a + b - 30`, correctly rounded: the float nearest
/// to the exact value, the same number a subtraction in one frame gives when the mirror is
/// exact. `a + b` is split into its rounded sum and the exact rounding error (Knuth's TwoSum);
/// when the sum is within [15, 60] (always so when the result is at most 15 away from 0, far
/// beyond any blast radius), subtracting 30 from it is exact (Sterbenz), and adding the error
/// back rounds once.
fn cross_difference(a: f64, b: f64) -> f64 {
    let sum = a + b;
    let b_part = sum - a;
    let error = (a - (sum - b_part)) + (b - b_part);
    (sum - MAP_EXTENT) + error
}

/// The distance between `a`, in one player's coordinates, and `b`, in the other player's:
/// |a - mirror(b)| with each coordinate difference exact before rounding
/// ([`cross_difference`]), then the same squares and root as [`Vec2::distance`]. Symmetric in
/// its arguments, so it is the same number whichever of the two is the blaster. (Rounding
/// `a.x + b.x` first and then subtracting 30 errs by up to 2^-48: a bot one step out of its
/// base, hit by an enemy blast at that base, was measured 1.0000000000000009 away instead of
/// 1 and took 24 damage instead of 25.)
pub(crate) fn cross_distance(a: Vec2, b: Vec2) -> f64 {
    let dx = cross_difference(a.x, b.x);
    let dy = cross_difference(a.y, b.y);
    (dx * dx + dy * dy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// code-character.md "Perspective": p -> (30 - x, 30 - y), tiles `[i][j]` -> `[29 - i][29 - j]`,
    /// and for player 2 the tile of an engine position on a grid line is ceil - 1.
    #[test]
    fn mirroring_positions_and_tiles() {
        assert_eq!(view_pos(1, 0, Vec2::new(0.5, 0.5)), Vec2::new(29.5, 29.5));
        assert_eq!(view_pos(0, 0, Vec2::new(0.5, 2.0)), Vec2::new(0.5, 2.0));
        assert_eq!(view_tile(0, 1, Tile::new(0, 3)), Tile::new(29, 26));
        // Player 2's bot at engine (14, 3): in its own view (16, 27), tile [16, 27], which in
        // engine coordinates is [13, 2] = (ceil(14) - 1, ceil(3) - 1).
        let own = Vec2::new(14.0, 3.0).mirrored();
        assert_eq!(engine_tile(1, own.tile()), Tile::new(13, 2));
        assert_eq!(view_pos(0, 1, own), Vec2::new(14.0, 3.0));
    }

    #[test]
    fn cross_distance_is_symmetric() {
        // Player 1 at (10, 10); player 2's unit at engine (13, 14) = own (17, 16).
        let a = Vec2::new(10.0, 10.0);
        let b = Vec2::new(17.0, 16.0);
        assert_eq!(cross_distance(a, b), 5.0);
        assert_eq!(cross_distance(b, a), 5.0);
    }

    /// code-character.md "Blast damage": d is exact whichever player owns the blast. A bot one
    /// step (toward (14.5, 13.5)) out of its base is exactly as far from an enemy blast at that
    /// base as from a blast of its own player there: 1, so 25 damage (rounding the sum first
    /// gave 1.0000000000000009 and 24).
    #[test]
    fn cross_distance_is_exact() {
        let stepped = Vec2::new(0.5, 0.5).toward(Vec2::new(14.5, 13.5), 1.0);
        let enemy_blast = Vec2::new(29.5, 29.5);
        let old = {
            let (dx, dy) = ((enemy_blast.x + stepped.x) - MAP_EXTENT, (enemy_blast.y + stepped.y) - MAP_EXTENT);
            (dx * dx + dy * dy).sqrt()
        };
        assert_eq!(old, 1.0000000000000009, "the rounding this replaces");
        let d = cross_distance(enemy_blast, stepped);
        assert_eq!(d, stepped.distance(Vec2::new(0.5, 0.5)));
        assert_eq!(d, 1.0);
        assert_eq!(crate::rules::bot_blast_damage(d), 25);
        assert_eq!(cross_distance(stepped, enemy_blast), d);
        // Each coordinate difference is the correctly rounded exact value.
        let (a, b) = (29.5, 1.2327934916262993);
        assert_eq!(cross_difference(a, b), b - 0.5);
    }

    /// Ids: own units by their own number, the enemy's past [`ENEMY_ID_BASE`].
    #[test]
    fn ids_by_viewer() {
        assert_eq!(view_id(1, 1, 7), 7);
        assert_eq!(view_id(0, 1, 7), 1_000_007);
        assert_eq!(enemy_own_id(1_000_007), Some(7));
        assert_eq!(enemy_own_id(7), None);
        assert_eq!(enemy_own_id(ENEMY_ID_BASE), None);
    }
}
