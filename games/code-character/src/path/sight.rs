//! The blocked-tile grid and line of sight over it: [`Blocked`] (one bit per tile),
//! [`directly_reachable`] (whether a segment crosses no blocked tile, the rule in the `path`
//! module docs) and [`waypoints`] (the blocked tiles' corners the graph is built on).

use crate::geometry::{MAP_EXTENT, MAP_SIZE, Tile, Vec2};

/// Every tile of a row (bits 0..30).
const FULL_ROW: u32 = (1 << MAP_SIZE) - 1;

/// The blocked tiles: bit `y` of `rows[x]` is set when tile (x, y) is blocked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Blocked {
    rows: [u32; MAP_SIZE],
}

impl Blocked {
    /// Marks `tile` as blocked.
    pub(crate) fn set(&mut self, tile: Tile) {
        if let Some(row) = self.rows.get_mut(usize::from(tile.x)) {
            *row |= 1 << tile.y.min(31);
        }
    }

    /// Whether `tile` is blocked.
    pub(crate) fn contains(&self, tile: Tile) -> bool {
        self.row(i64::from(tile.x)) & (1 << tile.y.min(31)) != 0
    }

    /// The same grid seen by the other player.
    pub(crate) fn mirrored(&self) -> Blocked {
        let mut rows = [0; MAP_SIZE];
        for (row, source) in rows.iter_mut().zip(self.rows.iter().rev()) {
            // Bit y -> bit 29 - y.
            *row = source.reverse_bits() >> (32 - MAP_SIZE);
        }
        Blocked { rows }
    }

    /// Flips `tile` between blocked and free.
    #[cfg(test)]
    pub(super) fn toggle(&mut self, tile: Tile) {
        self.rows[usize::from(tile.x)] ^= 1 << tile.y;
    }

    /// Row `x` as bits; rows outside the map are entirely blocked.
    fn row(&self, x: i64) -> u32 {
        usize::try_from(x).ok().and_then(|x| self.rows.get(x)).copied().unwrap_or(FULL_ROW)
    }

    /// Whether (x, y) is blocked (outside the map counts as blocked).
    fn at(&self, x: i64, y: i64) -> bool {
        match u32::try_from(y) {
            Ok(y) if (y as usize) < MAP_SIZE => self.row(x) & (1 << y) != 0,
            _ => true,
        }
    }

    /// Whether any of the tiles (x, ylo..=yhi) is blocked (tiles outside the map are).
    fn any_in_row(&self, x: i64, ylo: i64, yhi: i64) -> bool {
        if ylo < 0 || yhi >= MAP_SIZE as i64 {
            return true;
        }
        if yhi < ylo {
            return false;
        }
        let mask = (FULL_ROW >> (MAP_SIZE as i64 - 1 - yhi)) & (FULL_ROW << ylo);
        self.row(x) & mask != 0
    }
}

/// floor(v) for the map's coordinates (|v| far below 2^53), without a libm call (the
/// baseline x86-64 target has no rounding instruction, and this is the pathfinder's hot loop).
fn floor(v: f64) -> i64 {
    let t = v as i64;
    if (t as f64) > v { t - 1 } else { t }
}

/// ceil(v), like [`floor`].
fn ceil(v: f64) -> i64 {
    let t = v as i64;
    if (t as f64) < v { t + 1 } else { t }
}

/// Whether `v` is an integer.
fn integral(v: f64) -> bool {
    floor(v) as f64 == v
}

/// How close (in tile units) an estimated crossing may come to a grid line before
/// [`directly_reachable`] computes it exactly; the estimate's error is below 1e-13.
const NEAR_GRID: f64 = 1e-9;

/// The tiles `floor(y)` and `ceil(y) - 1` of a crossing `y`: equal unless `y` is an integer.
fn tiles_of(y: f64) -> (i64, i64) {
    (floor(y), ceil(y) - 1)
}

/// Whether the segment `p`-`q` is free of blocked tiles (see the `path` module docs). Points outside
/// [0, 30] are never reachable.
///
/// The strip walk gives the same answer as computing every crossing as
/// `a.y + ((x - a.x) * dy) / dx` (the `path` module docs' rule), without a division per strip: only
/// the crossings' floor and ceiling matter, so each is estimated as `a.y + (x - a.x) * slope`
/// (within 1e-13 of the exact float on this map) and computed the exact way only when the
/// estimate lies within [`NEAR_GRID`] of an integer, where the two could round to different
/// tiles. A test checks this against the plain walk.
pub(super) fn directly_reachable(blocked: &Blocked, p: Vec2, q: Vec2) -> bool {
    let inside = |v: f64| (0.0..=MAP_EXTENT).contains(&v);
    if !(inside(p.x) && inside(p.y) && inside(q.x) && inside(q.y)) {
        return false;
    }
    if p == q {
        return true;
    }
    // Sort by x so that the strips run forward.
    let (a, b) = if (p.x, p.y) <= (q.x, q.y) { (p, q) } else { (q, p) };
    if a.x == b.x {
        // Constant x: walk the tiles along y.
        let (lo, hi) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
        let (jlo, jhi) = (floor(lo), ceil(hi) - 1);
        if integral(a.x) {
            // Both sides blocked somewhere along the stretch.
            let x = a.x as i64;
            return !(jlo..=jhi).any(|j| blocked.at(x - 1, j) && blocked.at(x, j));
        }
        return !blocked.any_in_row(floor(a.x), jlo, jhi);
    }
    if a.y == b.y {
        // Constant y: walk the tiles along x.
        let (ilo, ihi) = (floor(a.x), ceil(b.x) - 1);
        if integral(a.y) {
            let y = a.y as i64;
            return (ilo..=ihi).all(|i| !(blocked.at(i, y - 1) && blocked.at(i, y)));
        }
        let y = floor(a.y);
        return (ilo..=ihi).all(|i| !blocked.at(i, y));
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let slope = dy / dx;
    let crossing = |next: f64| {
        // Shifted by 8 so that truncation floors (estimates are above -1e-13).
        let estimate = a.y + (next - a.x) * slope + 8.0;
        let below = estimate as i64;
        let fraction = estimate - below as f64;
        if fraction <= NEAR_GRID || fraction >= 1.0 - NEAR_GRID {
            tiles_of(a.y + ((next - a.x) * dy) / dx)
        } else {
            (below - 8, below - 8)
        }
    };
    // Each strip [row, row + 1] runs between two crossings, each as (floor, ceil - 1); a
    // crossing is an integer exactly when the two differ, and integers are always exact.
    let last_row = ceil(b.x) - 1;
    let mut row = floor(a.x);
    let mut start = tiles_of(a.y);
    loop {
        let last = row >= last_row;
        let end = if last { tiles_of(b.y) } else { crossing((row + 1) as f64) };
        if start.0 == end.0 && start.0 != start.1 && end.0 != end.1 {
            // A stretch along a grid line (a slope too small to register): either side free.
            if blocked.at(row, start.0 - 1) && blocked.at(row, start.0) {
                return false;
            }
        } else if blocked.any_in_row(row, start.0.min(end.0), start.1.max(end.1)) {
            return false;
        }
        if last {
            return true;
        }
        row += 1;
        start = end;
    }
}

/// The waypoints of `blocked`, in row-major order (see the `path` module docs).
pub(super) fn waypoints(blocked: &Blocked) -> Vec<Tile> {
    let mut points = Vec::new();
    for x in 1..MAP_SIZE as i64 {
        for y in 1..MAP_SIZE as i64 {
            let tl = blocked.at(x - 1, y - 1);
            let tr = blocked.at(x - 1, y);
            let bl = blocked.at(x, y - 1);
            let br = blocked.at(x, y);
            let corner = tl || tr || bl || br;
            // Spelled out as the spec's four sides (clippy's shorter form hides them).
            #[allow(clippy::nonminimal_bool)]
            let side_blocked = (tl && tr) || (bl && br) || (tl && bl) || (tr && br);
            if corner && !side_blocked {
                // x, y < 30: the conversion cannot fail.
                points.push(Tile::new(x as u8, y as u8));
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::path::testing::{v, water};

    /// The plain strip walk of the module docs: every crossing computed as
    /// `a.y + ((x - a.x) * dy) / dx`.
    fn reference_reachable(blocked: &Blocked, p: Vec2, q: Vec2) -> bool {
        let inside = |v: f64| (0.0..=MAP_EXTENT).contains(&v);
        if !(inside(p.x) && inside(p.y) && inside(q.x) && inside(q.y)) {
            return false;
        }
        if p == q {
            return true;
        }
        let (a, b) = if (p.x, p.y) <= (q.x, q.y) { (p, q) } else { (q, p) };
        if a.x == b.x {
            let (lo, hi) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
            let (jlo, jhi) = (floor(lo), ceil(hi) - 1);
            if integral(a.x) {
                let x = a.x as i64;
                return (jlo..=jhi).all(|j| !(blocked.at(x - 1, j) && blocked.at(x, j)));
            }
            return !blocked.any_in_row(floor(a.x), jlo, jhi);
        }
        if a.y == b.y {
            let (ilo, ihi) = (floor(a.x), ceil(b.x) - 1);
            if integral(a.y) {
                let y = a.y as i64;
                return (ilo..=ihi).all(|i| !(blocked.at(i, y - 1) && blocked.at(i, y)));
            }
            let y = floor(a.y);
            return (ilo..=ihi).all(|i| !blocked.at(i, y));
        }
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let (mut xs, mut ys) = (a.x, a.y);
        loop {
            let next = floor(xs) as f64 + 1.0;
            let (xe, ye) = if next < b.x { (next, a.y + ((next - a.x) * dy) / dx) } else { (b.x, b.y) };
            let row = floor(xs);
            let (lo, hi) = if ys <= ye { (ys, ye) } else { (ye, ys) };
            if lo == hi && integral(lo) {
                let y = lo as i64;
                if blocked.at(row, y - 1) && blocked.at(row, y) {
                    return false;
                }
            } else if blocked.any_in_row(row, floor(lo), ceil(hi) - 1) {
                return false;
            }
            if xe >= b.x {
                return true;
            }
            (xs, ys) = (xe, ye);
        }
    }

    /// The fast walk answers exactly like the plain one: integer, half-integer, decimal,
    /// near-grid and arbitrary endpoints on random layouts.
    #[test]
    fn reachability_matches_the_plain_walk() {
        let mut rng = arena_game::new_rng(5);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        let mut agree = [0usize; 2];
        for layout in 0..60 {
            let mut blocked = if layout % 2 == 0 { water(&Map::default()) } else { Blocked::default() };
            for _ in 0..r(120) {
                blocked.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            for _ in 0..4000 {
                let coordinate = |r: &mut dyn FnMut(u32) -> u32| -> f64 {
                    match r(6) {
                        0 => f64::from(r(31)),
                        1 => f64::from(r(30)) + 0.5,
                        2 => f64::from(r(3001)) / 100.0,
                        3 => f64::from(r(31)) + (f64::from(r(3)) - 1.0) * 1e-12,
                        4 => f64::from(r(1 << 30)) / f64::from(1u32 << 30) * 30.0,
                        _ => f64::from(r(31)) * (1.0 / 3.0),
                    }
                };
                let p = v(coordinate(&mut r), coordinate(&mut r));
                let q = v(coordinate(&mut r), coordinate(&mut r));
                let expected = reference_reachable(&blocked, p, q);
                assert_eq!(directly_reachable(&blocked, p, q), expected, "{p:?} {q:?}");
                agree[usize::from(expected)] += 1;
            }
        }
        assert!(agree[0] > 10_000 && agree[1] > 10_000, "{agree:?}");
    }

    /// code-character.md "Pathfinding": on the default map only the eight channel-end corners
    /// next to the flag block are waypoints (the rest lie on the border or between two water
    /// tiles).
    #[test]
    fn default_map_waypoints() {
        let points = waypoints(&water(&Map::default()));
        let expected = [(13, 14), (13, 16), (14, 13), (14, 17), (16, 13), (16, 17), (17, 14), (17, 16)];
        let expected: Vec<Tile> = expected.iter().map(|&(x, y)| Tile::new(x, y)).collect();
        assert_eq!(points, expected);
    }

    /// code-character.md "Pathfinding": a segment may run along a grid line when either adjacent
    /// tile is free, not between two blocked tiles; the map's outside counts as blocked.
    #[test]
    fn grid_line_segments() {
        let blocked = water(&Map::default());
        // x = 14: land row 13 above, water row 14 below.
        assert!(directly_reachable(&blocked, v(14.0, 2.0), v(14.0, 9.5)));
        // x = 15: water on both sides.
        assert!(!directly_reachable(&blocked, v(15.0, 2.0), v(15.0, 9.5)));
        // Along the border y = 0 beside land, and beside water.
        assert!(directly_reachable(&blocked, v(1.0, 0.0), v(13.0, 0.0)));
        assert!(!directly_reachable(&blocked, v(13.0, 0.0), v(17.0, 0.0)));
        // Crossing the channel.
        assert!(!directly_reachable(&blocked, v(13.5, 2.5), v(16.5, 2.5)));
        assert!(!directly_reachable(&blocked, v(2.0, 2.0), v(20.0, 5.0)));
        // Within a quadrant, diagonally.
        assert!(directly_reachable(&blocked, v(0.5, 0.5), v(13.9, 13.0)));
        // The diagonal from the base to the centre passes the flag block.
        assert!(directly_reachable(&blocked, v(0.5, 0.5), v(15.0, 15.0)));
        assert!(!directly_reachable(&blocked, v(-0.5, 0.5), v(1.0, 1.0)));
    }

    /// code-character.md "Pathfinding": a segment through a grid vertex between two diagonal
    /// blocked tiles touches neither interior; one through a blocked tile's interior is refused.
    #[test]
    fn diagonal_squeeze_and_interiors() {
        let mut blocked = Blocked::default();
        blocked.set(Tile::new(4, 4));
        blocked.set(Tile::new(5, 5));
        assert!(directly_reachable(&blocked, v(4.0, 6.0), v(6.0, 4.0)));
        assert!(!directly_reachable(&blocked, v(3.5, 3.5), v(6.5, 6.5)));
        assert!(!directly_reachable(&blocked, v(4.5, 3.0), v(4.6, 6.0)));
        // Touching a blocked tile's corner from outside is fine.
        assert!(directly_reachable(&blocked, v(3.0, 3.0), v(4.0, 4.0)));
        assert!(directly_reachable(&blocked, v(3.0, 5.0), v(4.0, 4.0)));
    }

    /// The waypoint graph is point-symmetric: reachability between integer points agrees with
    /// the mirrored grid (exact arithmetic).
    #[test]
    fn integer_reachability_is_mirror_exact() {
        let mut blocked = water(&Map::default());
        for (x, y) in [(3, 4), (7, 7), (20, 9), (25, 26), (12, 3)] {
            blocked.set(Tile::new(x, y));
        }
        let mirror = blocked.mirrored();
        assert_eq!(mirror.mirrored(), blocked);
        let mut count = 0;
        for a in (0..=30).step_by(3) {
            for b in (0..=30).step_by(2) {
                for c in (1..=30).step_by(4) {
                    for d in (0..=30).step_by(5) {
                        let (p, q) = (v(f64::from(a), f64::from(b)), v(f64::from(c), f64::from(d)));
                        let here = directly_reachable(&blocked, p, q);
                        assert_eq!(here, directly_reachable(&mirror, p.mirrored(), q.mirrored()), "{p} {q}");
                        count += usize::from(here);
                    }
                }
            }
        }
        assert!(count > 100);
    }
}
