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
//! symmetric in its arguments.

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

/// The engine (player 1) coordinates of a position stored in `owner`'s coordinates.
pub(crate) fn engine_pos(owner: usize, p: Vec2) -> Vec2 {
    view_pos(0, owner, p)
}

/// The distance between `a`, in one player's coordinates, and `b`, in the other player's:
/// |a - mirror(b)|, computed as ((a.x + b.x) - 30, (a.y + b.y) - 30) so that it is the same
/// number whichever of the two is the blaster.
pub(crate) fn cross_distance(a: Vec2, b: Vec2) -> f64 {
    let dx = (a.x + b.x) - MAP_EXTENT;
    let dy = (a.y + b.y) - MAP_EXTENT;
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
        assert_eq!(engine_pos(1, own), Vec2::new(14.0, 3.0));
    }

    #[test]
    fn cross_distance_is_symmetric() {
        // Player 1 at (10, 10); player 2's unit at engine (13, 14) = own (17, 16).
        let a = Vec2::new(10.0, 10.0);
        let b = Vec2::new(17.0, 16.0);
        assert_eq!(cross_distance(a, b), 5.0);
        assert_eq!(cross_distance(b, a), 5.0);
    }
}
