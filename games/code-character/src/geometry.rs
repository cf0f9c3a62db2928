//! Vectors and tiles (code-character.md "Constants", "Map" and "Perspective").
//!
//! Coordinates follow the original: `x` is the line index (moving down), `y` the character
//! index (moving right). Tile (x, y) covers [x, x+1) x [y, y+1). Positions are `f64`; only
//! `+ - * /` and `sqrt` are used on them (all IEEE-exact operations), so results are the same
//! on every machine.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Sub};

/// Tiles per side of the map.
pub const MAP_SIZE: usize = 30;
/// [`MAP_SIZE`] as a coordinate.
pub const MAP_EXTENT: f64 = 30.0;
/// Two positions are equal when both coordinates differ by at most this much.
pub const EPSILON: f64 = 0.0001;

/// A position (or a direction) on the map.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    /// Line index direction (down).
    pub x: f64,
    /// Character index direction (right).
    pub y: f64,
}

impl Vec2 {
    /// The vector (x, y).
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    /// Euclidean length.
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Euclidean distance to `other`.
    pub fn distance(self, other: Vec2) -> f64 {
        (self - other).length()
    }

    /// The spec's vector equality: both coordinates differ by at most [`EPSILON`].
    pub fn approx_eq(self, other: Vec2) -> bool {
        (self.x - other.x).abs() <= EPSILON && (self.y - other.y).abs() <= EPSILON
    }

    /// The same point seen from the other player: (30 - x, 30 - y).
    pub fn mirrored(self) -> Vec2 {
        Vec2::new(MAP_EXTENT - self.x, MAP_EXTENT - self.y)
    }

    /// Whether both coordinates are finite numbers.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Whether 0 <= x, y < 30 (the command-validation range).
    pub fn in_map(self) -> bool {
        (0.0..MAP_EXTENT).contains(&self.x) && (0.0..MAP_EXTENT).contains(&self.y)
    }

    /// The tile of this position in the viewer's own perspective: (floor(x), floor(y)),
    /// clamped into the map (so a position on the far border, or a non-finite one, still names
    /// a tile instead of failing).
    pub fn tile(self) -> Tile {
        Tile::new(floor_index(self.x), floor_index(self.y))
    }

    /// The point `distance` along the way to `target`, or `target` itself when it is at most
    /// `distance` away (snapping there exactly, so that waypoints and goals are reached without
    /// rounding error **\[ours\]**).
    pub fn toward(self, target: Vec2, distance: f64) -> Vec2 {
        let gap = self.distance(target);
        if gap <= distance {
            return target;
        }
        let t = distance / gap;
        Vec2::new(self.x + (target.x - self.x) * t, self.y + (target.y - self.y) * t)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, other: Vec2) -> Vec2 {
        Vec2::new(self.x + other.x, self.y + other.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, other: Vec2) -> Vec2 {
        Vec2::new(self.x - other.x, self.y - other.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl std::fmt::Display for Vec2 {
    /// `(x, y)` with up to 4 decimals, trailing zeros dropped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", short(self.x), short(self.y))
    }
}

/// A number with up to 4 decimals and no trailing zeros (for logs and golden files).
fn short(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

/// floor(v) as a tile index, clamped to 0..=29 (NaN gives 0).
fn floor_index(v: f64) -> u8 {
    let f = v.floor();
    if f >= (MAP_SIZE - 1) as f64 {
        (MAP_SIZE - 1) as u8
    } else if f >= 0.0 {
        f as u8
    } else {
        0
    }
}

/// One map tile, by its top-left corner (x, y), both in 0..30.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Tile {
    /// Line index.
    pub x: u8,
    /// Character index.
    pub y: u8,
}

impl Tile {
    /// The tile (x, y).
    pub const fn new(x: u8, y: u8) -> Tile {
        Tile { x, y }
    }

    /// The tile's centre (x + 0.5, y + 0.5): where a tower stands.
    pub fn centre(self) -> Vec2 {
        Vec2::new(f64::from(self.x) + 0.5, f64::from(self.y) + 0.5)
    }

    /// The same tile seen from the other player: (29 - x, 29 - y) (out-of-range tiles saturate).
    pub fn mirrored(self) -> Tile {
        let last = (MAP_SIZE - 1) as u8;
        Tile::new(last.saturating_sub(self.x), last.saturating_sub(self.y))
    }

    /// Row-major index `x * 30 + y`.
    pub fn index(self) -> usize {
        usize::from(self.x) * MAP_SIZE + usize::from(self.y)
    }

    /// The up-to-four in-map neighbours, in the order up (x - 1), down, left (y - 1), right.
    pub fn neighbours(self) -> impl Iterator<Item = Tile> {
        let (x, y) = (i16::from(self.x), i16::from(self.y));
        [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].into_iter().filter_map(|(x, y)| Tile::checked(x, y))
    }

    /// The tile (x, y) if it is inside the map.
    pub fn checked(x: i16, y: i16) -> Option<Tile> {
        let x = u8::try_from(x).ok().filter(|x| usize::from(*x) < MAP_SIZE)?;
        let y = u8::try_from(y).ok().filter(|y| usize::from(*y) < MAP_SIZE)?;
        Some(Tile::new(x, y))
    }

    /// Every tile in row-major order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..MAP_SIZE as u8).flat_map(|x| (0..MAP_SIZE as u8).map(move |y| Tile::new(x, y)))
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// code-character.md "Constants": vector equality tolerates 0.0001 per coordinate.
    #[test]
    fn approx_equality_uses_the_spec_tolerance() {
        let p = Vec2::new(3.0, 4.0);
        assert!(p.approx_eq(Vec2::new(3.00009, 3.99991)));
        assert!(!p.approx_eq(Vec2::new(3.00011, 4.0)));
    }

    /// code-character.md "Perspective": tiles are floors, clamped into the map.
    #[test]
    fn tiles_of_positions() {
        assert_eq!(Vec2::new(2.2, 2.5).tile(), Tile::new(2, 2));
        assert_eq!(Vec2::new(14.0, 0.0).tile(), Tile::new(14, 0));
        assert_eq!(Vec2::new(30.0, -1.0).tile(), Tile::new(29, 0));
        assert_eq!(Vec2::new(f64::NAN, 29.99).tile(), Tile::new(0, 29));
        assert_eq!(Tile::new(0, 3).mirrored(), Tile::new(29, 26));
        assert_eq!(Tile::new(4, 7).centre(), Vec2::new(4.5, 7.5));
    }

    #[test]
    fn toward_stops_or_snaps() {
        let a = Vec2::new(0.0, 0.0);
        assert_eq!(a.toward(Vec2::new(3.0, 4.0), 1.0), Vec2::new(0.6000000000000001, 0.8));
        assert_eq!(a.toward(Vec2::new(0.5, 0.5), 1.0), Vec2::new(0.5, 0.5));
        assert_eq!(Vec2::new(1.25, 7.0).to_string(), "(1.25, 7)");
    }

    #[test]
    fn neighbours_stay_in_the_map() {
        let n: Vec<Tile> = Tile::new(0, 29).neighbours().collect();
        assert_eq!(n, [Tile::new(1, 29), Tile::new(0, 28)]);
        assert_eq!(Tile::all().count(), 900);
    }
}
