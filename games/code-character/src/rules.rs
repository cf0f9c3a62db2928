//! The rules of code-character.md once, as constants and pure functions on plain data, shared by
//! the engine ([`crate::CodeCharacter`]) and the bots' view ([`crate::View`]); the guest SDK
//! re-exports this module (with [`crate::geometry`] and the command validation in
//! [`crate::command`]).
//!
//! Every function works in one player's own perspective and never panics.

use crate::geometry::{MAP_SIZE, Tile, Vec2};
use crate::map::{Map, Terrain};
use std::collections::VecDeque;

pub use crate::geometry::{EPSILON, MAP_EXTENT};

/// Bots each player starts with.
pub const NUM_BOTS_START: usize = 20;
/// Most bots a player can have (DEAD ones not yet removed count).
pub const MAX_NUM_BOTS: usize = 150;
/// Most towers a player can have.
pub const MAX_NUM_TOWERS: usize = 100;
/// A bot's hp at spawn, and its maximum.
pub const MAX_BOT_HP: u32 = 200;
/// A tower's maximum hp (a tower built from a full-hp bot has it).
pub const MAX_TOWER_HP: u32 = 600;
/// Distance a bot moves per turn along its path.
pub const BOT_SPEED: f64 = 1.0;
/// A bot blast reaches this far.
pub const BOT_BLAST_IMPACT_RADIUS: f64 = 2.0;
/// A bot blast's damage at distance 0.
pub const BOT_BLAST_DAMAGE_POINTS: u32 = 50;
/// A tower blast reaches this far (from the tile centre).
pub const TOWER_BLAST_IMPACT_RADIUS: f64 = 6.0;
/// A tower blast's damage at distance 0.
pub const TOWER_BLAST_DAMAGE_POINTS: u32 = 500;
/// Age from which a tower may be commanded to blast.
pub const TOWER_MIN_BLAST_AGE: u32 = 3;
/// Points per bot on a FLAG tile.
pub const BOT_SCORE_MULTIPLIER: u32 = 10;
/// Points per tower on a FLAG tile.
pub const TOWER_SCORE_MULTIPLIER: u32 = 25;
/// Turns in a match by default (the `turns` option).
pub const NUM_TURNS: u32 = 1000;
/// Every player's base position in its own perspective (player 2's is (29.5, 29.5) in engine
/// coordinates).
pub const BASE_POSITION: Vec2 = Vec2::new(0.5, 0.5);
/// The enemy's base position in a player's own perspective.
pub const ENEMY_BASE_POSITION: Vec2 = Vec2::new(29.5, 29.5);

/// Damage of a blast of radius `radius` and full damage `damage` at distance `distance`:
/// trunc(damage x ((radius - distance) / radius)) for distance <= radius, else 0
/// (code-character.md "Blast damage"). Computed in that order, the original's: the falloff
/// fraction first, then the product, then the truncation (the order matters in the last bit,
/// and so for the truncation: a tower blast at d = 1.2 does 500 x (4.8 / 6) =
/// 399.99999999999994, so 399, where (500 x 4.8) / 6 would give 400).
pub fn blast_damage(distance: f64, radius: f64, damage: u32) -> u32 {
    if distance.is_nan() || distance > radius || radius <= 0.0 {
        return 0;
    }
    let points = f64::from(damage) * ((radius - distance) / radius);
    // 0 <= points <= damage: the conversion cannot overflow.
    points.trunc() as u32
}

/// A bot blast's damage at `distance`.
pub fn bot_blast_damage(distance: f64) -> u32 {
    blast_damage(distance, BOT_BLAST_IMPACT_RADIUS, BOT_BLAST_DAMAGE_POINTS)
}

/// A tower blast's damage at `distance` from the tower's tile centre.
pub fn tower_blast_damage(distance: f64) -> u32 {
    blast_damage(distance, TOWER_BLAST_IMPACT_RADIUS, TOWER_BLAST_DAMAGE_POINTS)
}

/// A tower's hp when built from a bot with `bot_hp`: 3 x the bot's hp.
pub fn tower_hp(bot_hp: u32) -> u32 {
    bot_hp.saturating_mul(MAX_TOWER_HP / MAX_BOT_HP)
}

/// The tile of a position in the viewer's own perspective: (floor(x), floor(y)).
pub fn tile_of(position: Vec2) -> Tile {
    position.tile()
}

/// The tile an *enemy* unit at `position` (in the viewer's perspective) counts as standing on:
/// the floor in the enemy's own perspective, so (ceil(x) - 1, ceil(y) - 1) here. It differs from
/// [`tile_of`] only on grid lines.
pub fn enemy_tile_of(position: Vec2) -> Tile {
    position.mirrored().tile().mirrored()
}

/// Whether `tile` is a base tile ([0, 0] or [29, 29], the same in both perspectives).
pub fn is_base_tile(tile: Tile) -> bool {
    let last = (MAP_SIZE - 1) as u8;
    tile == Tile::new(0, 0) || tile == Tile::new(last, last)
}

/// A player's points for one turn: 10 per bot on a FLAG tile plus 25 per tower on one.
pub fn turn_points(bots_on_flags: usize, towers_on_flags: usize) -> u32 {
    let bots = u32::try_from(bots_on_flags).unwrap_or(u32::MAX);
    let towers = u32::try_from(towers_on_flags).unwrap_or(u32::MAX);
    bots.saturating_mul(BOT_SCORE_MULTIPLIER).saturating_add(towers.saturating_mul(TOWER_SCORE_MULTIPLIER))
}

/// Who wins a turn's points: `Some(seat)` for strictly more, `None` on a tie.
pub fn turn_winner(points: [u32; 2]) -> Option<usize> {
    match points[0].cmp(&points[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// The flag tile centre nearest to `from` (Euclidean), the first in row-major order on ties
/// **\[ours\]**; `None` on a map without flags.
pub fn nearest_flag(map: &Map, from: Vec2) -> Option<Vec2> {
    let mut best: Option<(f64, Vec2)> = None;
    for flag in map.flags() {
        let centre = flag.centre();
        let d = from.distance(centre);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, centre));
        }
    }
    best.map(|(_, centre)| centre)
}

/// The nearest tile to `from` where a transform could succeed: a breadth-first search over
/// 4-neighbours (up, down, left, right) from the tile of `from`, walking LAND and FLAG tiles
/// without towers, returning the first that is not a base tile and is not in `occupied`
/// (tiles with a unit: bots by their counting tile, towers). **\[ours\]**: the start tile is
/// searched from even when it is not walkable, and a caller that wants to ignore one of its
/// own bots leaves that bot's tile out of `occupied`.
pub fn nearest_free_tile(map: &Map, towers: &[Tile], occupied: &[Tile], from: Vec2) -> Option<Tile> {
    let mut blocked = [false; MAP_SIZE * MAP_SIZE];
    let mut taken = [false; MAP_SIZE * MAP_SIZE];
    for tile in Tile::all() {
        blocked[tile.index()] = !map.terrain(tile).is_walkable();
    }
    for tile in towers.iter().chain(occupied) {
        if let Some(slot) = taken.get_mut(tile.index()) {
            *slot = true;
        }
    }
    for tile in towers {
        if let Some(slot) = blocked.get_mut(tile.index()) {
            *slot = true;
        }
    }
    let start = tile_of(from);
    let mut seen = [false; MAP_SIZE * MAP_SIZE];
    seen[start.index()] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(tile) = queue.pop_front() {
        if !blocked[tile.index()] && !taken[tile.index()] && !is_base_tile(tile) {
            return Some(tile);
        }
        if blocked[tile.index()] && tile != start {
            continue;
        }
        for next in tile.neighbours() {
            if !seen[next.index()] && !blocked[next.index()] {
                seen[next.index()] = true;
                queue.push_back(next);
            }
        }
    }
    None
}

/// Whether `terrain` scores.
pub fn is_flag(terrain: Terrain) -> bool {
    terrain == Terrain::Flag
}

#[cfg(test)]
mod tests {
    use super::*;

    /// code-character.md "Blast damage": trunc(D x (R - d) / R), 0 at and beyond R.
    #[test]
    fn blast_falloff_and_truncation() {
        assert_eq!(bot_blast_damage(0.0), 50);
        assert_eq!(bot_blast_damage(0.5), 37, "37.5 truncates");
        assert_eq!(bot_blast_damage(1.0), 25);
        assert_eq!(bot_blast_damage(2.0_f64.sqrt()), 14, "14.64 truncates");
        assert_eq!(bot_blast_damage(1.99), 0, "0.25 truncates to 0");
        assert_eq!(bot_blast_damage(2.0), 0);
        assert_eq!(bot_blast_damage(2.5), 0);
        assert_eq!(tower_blast_damage(0.5), 458, "458.33 truncates");
        assert_eq!(tower_blast_damage(1.5), 375);
        assert_eq!(tower_blast_damage(3.0), 250);
        assert_eq!(tower_blast_damage(5.0), 83, "83.33 truncates");
        assert_eq!(tower_blast_damage(6.0), 0);
        assert_eq!(blast_damage(f64::NAN, 2.0, 50), 0);
    }

    /// code-character.md "Blast damage": D x ((R - d) / R), in that order, then truncated.
    #[test]
    fn blast_damage_divides_before_multiplying() {
        assert_eq!(tower_blast_damage(1.2), 399, "500 x (4.8 / 6) = 399.99999999999994");
        assert_eq!(tower_blast_damage(0.408), 465);
        for i in 0..=6000 {
            let d = f64::from(i) / 1000.0;
            let expected = (500.0 * ((6.0 - d) / 6.0)).trunc() as u32;
            assert_eq!(tower_blast_damage(d), expected, "d = {d}");
        }
    }

    /// code-character.md "One turn" 4.6: hp = 3 x bot hp.
    #[test]
    fn tower_hp_is_three_times_the_bot_hp() {
        assert_eq!(tower_hp(MAX_BOT_HP), MAX_TOWER_HP);
        assert_eq!(tower_hp(37), 111);
    }

    /// code-character.md "Perspective": an enemy on a grid line counts on the tile its own
    /// floor names, ceil - 1 here.
    #[test]
    fn enemy_tiles_on_grid_lines() {
        assert_eq!(enemy_tile_of(Vec2::new(14.0, 3.5)), Tile::new(13, 3));
        assert_eq!(enemy_tile_of(Vec2::new(14.2, 3.5)), Tile::new(14, 3));
        assert_eq!(tile_of(Vec2::new(14.0, 3.5)), Tile::new(14, 3));
    }

    /// code-character.md "One turn" 4.7: 10 per bot, 25 per tower on flags; ties give nothing.
    #[test]
    fn points_and_winner() {
        assert_eq!(turn_points(3, 2), 80);
        assert_eq!(turn_winner([80, 70]), Some(0));
        assert_eq!(turn_winner([0, 25]), Some(1));
        assert_eq!(turn_winner([50, 50]), None);
    }

    /// code-character.md "What a bot sees and returns": the SDK helpers.
    #[test]
    fn nearest_flag_and_free_tile() {
        let map = Map::default();
        assert_eq!(nearest_flag(&map, Vec2::new(0.5, 0.5)), Some(Vec2::new(13.5, 13.5)));
        assert_eq!(nearest_flag(&map, Vec2::new(29.0, 29.0)), Some(Vec2::new(16.5, 16.5)));
        // From the base tile, [0, 0] is a base tile: the BFS goes down first.
        assert_eq!(nearest_free_tile(&map, &[], &[], Vec2::new(0.5, 0.5)), Some(Tile::new(1, 0)));
        let occupied = [Tile::new(1, 0), Tile::new(0, 1)];
        assert_eq!(nearest_free_tile(&map, &[], &occupied, Vec2::new(0.5, 0.5)), Some(Tile::new(2, 0)));
        // Towers block the search as well as occupy.
        let towers = [Tile::new(1, 0), Tile::new(0, 1)];
        assert_eq!(nearest_free_tile(&map, &towers, &[], Vec2::new(0.5, 0.5)), None);
        // From water, the search still starts.
        assert_eq!(nearest_free_tile(&map, &[], &[], Vec2::new(14.5, 3.5)), Some(Tile::new(13, 3)));
    }
}
