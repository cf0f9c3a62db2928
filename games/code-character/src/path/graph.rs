//! The visibility graph over the waypoints ([`Graph`]: edges between the waypoints that see
//! each other, both seats' frames) and its incremental rebuild when towers come and go
//! ([`Graph::rebuild`]: only the waypoint pairs a changed tile may affect are asked again).

use super::sight::{Blocked, directly_reachable, waypoints};
use super::tree::NO_NODE;
use crate::geometry::{Tile, Vec2};

/// One seat's view of the graph: its blocked grid and the waypoints in its own coordinates.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) blocked: Blocked,
    pub(super) nodes: Vec<Vec2>,
    /// Each node's rank in (x, y) order in this frame: the tie-break.
    pub(super) rank: Vec<u32>,
}

/// Whether [`directly_reachable`] for the segment `a`-`b` may read tile `t`. It reads tile
/// (x, y) only where the segment has a point with x in [x, x + 1] and y in [y - 1, y + 2]
/// (strips take the tiles the segment crosses in row x; a stretch along a grid line also
/// reads the tile on its other side; computed crossings stray from the exact line by far less
/// than [`TOUCH_MARGIN`]). So this tests the segment against that box, widened by the margin:
/// bounding boxes, then whether all four corners lie clearly on one side of the line.
pub(super) fn touches(a: Vec2, b: Vec2, t: Tile) -> bool {
    let (x0, x1) = (f64::from(t.x) - TOUCH_MARGIN, f64::from(t.x) + 1.0 + TOUCH_MARGIN);
    let (y0, y1) = (f64::from(t.y) - 1.0 - TOUCH_MARGIN, f64::from(t.y) + 2.0 + TOUCH_MARGIN);
    if a.x.max(b.x) < x0 || a.x.min(b.x) > x1 || a.y.max(b.y) < y0 || a.y.min(b.y) > y1 {
        return false;
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let side = |x: f64, y: f64| dx * (y - a.y) - dy * (x - a.x);
    let corners = [side(x0, y0), side(x0, y1), side(x1, y0), side(x1, y1)];
    // The products are within 1e-12 of exact: only a clear margin counts as one side.
    !(corners.iter().all(|&c| c > TOUCH_MARGIN) || corners.iter().all(|&c| c < -TOUCH_MARGIN))
}

/// See [`touches`].
const TOUCH_MARGIN: f64 = 1e-9;

/// The tiles whose blocking changed, with the bounding box of their [`touches`] boxes (most
/// segments miss it).
#[derive(Debug, Default)]
pub(super) struct Changed {
    /// Each tile, and whether it is blocked now.
    tiles: Vec<(Tile, bool)>,
    lo: Vec2,
    hi: Vec2,
}

/// How a segment's line of sight may have changed ([`Changed::sight`]). Blocking more tiles
/// can only hide what was seen, freeing tiles only reveal what was hidden: a segment that read
/// only tiles blocked since keeps a "hidden", one that read only tiles freed since keeps a
/// "seen".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Sight {
    /// It reads no changed tile: same answer.
    Same,
    /// It reads only newly blocked tiles: hidden stays hidden.
    Narrower,
    /// It reads only newly freed tiles: seen stays seen.
    Wider,
    /// Either way.
    Unknown,
}

impl Changed {
    fn new(tiles: Vec<(Tile, bool)>) -> Changed {
        let (mut lo, mut hi) = (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(-1.0, -1.0));
        for (t, _) in &tiles {
            let (x, y) = (f64::from(t.x), f64::from(t.y));
            lo = Vec2::new(lo.x.min(x - TOUCH_MARGIN), lo.y.min(y - 1.0 - TOUCH_MARGIN));
            hi = Vec2::new(hi.x.max(x + 1.0 + TOUCH_MARGIN), hi.y.max(y + 2.0 + TOUCH_MARGIN));
        }
        Changed { tiles, lo, hi }
    }

    /// How [`directly_reachable`] for `a`-`b` may have changed.
    fn sight(&self, a: Vec2, b: Vec2) -> Sight {
        let missed = a.x.max(b.x) < self.lo.x
            || a.x.min(b.x) > self.hi.x
            || a.y.max(b.y) < self.lo.y
            || a.y.min(b.y) > self.hi.y;
        if missed {
            return Sight::Same;
        }
        let mut sight = Sight::Same;
        for &(t, now_blocked) in &self.tiles {
            if touches(a, b, t) {
                sight = match (sight, now_blocked) {
                    (Sight::Same | Sight::Narrower, true) => Sight::Narrower,
                    (Sight::Same | Sight::Wider, false) => Sight::Wider,
                    _ => return Sight::Unknown,
                };
            }
        }
        sight
    }

    /// Line of sight for `a`-`b` over `blocked` (the new grid), given that it was `before`:
    /// checked again only when the change may have altered it.
    pub(super) fn reachable(&self, blocked: &Blocked, a: Vec2, b: Vec2, before: bool) -> bool {
        match self.sight(a, b) {
            Sight::Same => before,
            Sight::Narrower if !before => false,
            Sight::Wider if before => true,
            _ => directly_reachable(blocked, a, b),
        }
    }
}

/// Beyond this many changed tiles a graph is built afresh instead of from the previous one.
const MAX_CHANGED: usize = 16;

/// The visibility graph for one set of blocked tiles, with both seats' frames.
#[derive(Clone)]
pub(crate) struct Graph {
    /// What it was built from (engine coordinates).
    pub(super) blocked: Blocked,
    /// The waypoints (engine coordinates, row-major order).
    pub(super) corners: Vec<Tile>,
    /// Seat 0's frame (engine coordinates) and seat 1's (mirrored).
    frames: [Frame; 2],
    /// Edges between waypoints by node index (the same in both frames): node `u`'s neighbours
    /// are `to[start[u]..start[u + 1]]`, at distances `length[..]`.
    pub(super) start: Vec<u32>,
    pub(super) to: Vec<u32>,
    pub(super) length: Vec<f64>,
    /// The same edges as an adjacency matrix: row `u` is `matrix[u * words..(u + 1) * words]`.
    pub(super) matrix: Vec<u64>,
    words: usize,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph {{ waypoints: {}, edges: {} }}", self.corners.len(), self.to.len() / 2)
    }
}

/// How a graph differs from the one it was rebuilt from (see [`Graph::rebuild`]).
#[derive(Debug, Default)]
pub(super) struct Delta {
    /// Each new node's index in the old graph ([`NO_NODE`]: a new waypoint).
    pub(super) old_of: Vec<u32>,
    /// Each old node's index in the new graph ([`NO_NODE`]: no longer a waypoint).
    pub(super) new_of: Vec<u32>,
    /// The tiles whose blocking changed, in each seat's frame.
    pub(super) changed: [Changed; 2],
    /// The new graph's edges that the old one lacks (new node indices, lower first), with
    /// their lengths.
    pub(super) added: Vec<(u32, u32, f64)>,
}

impl Graph {
    /// Builds the graph for `blocked` (engine coordinates).
    pub(crate) fn build(blocked: Blocked) -> Graph {
        Graph::assemble(blocked, waypoints(&blocked), |_, _, a, b| directly_reachable(&blocked, a, b))
    }

    /// The graph over the waypoints `corners` of `blocked`, with an edge between nodes `i < j`
    /// when `edge(i, j, point i, point j)`.
    fn assemble(blocked: Blocked, corners: Vec<Tile>, mut edge: impl FnMut(usize, usize, Vec2, Vec2) -> bool) -> Graph {
        let nodes: Vec<Vec2> = corners.iter().map(|t| Vec2::new(f64::from(t.x), f64::from(t.y))).collect();
        let n = nodes.len();
        let words = n.div_ceil(64);
        let mut matrix = vec![0u64; n * words];
        for (i, &a) in nodes.iter().enumerate() {
            for (j, &b) in nodes.iter().enumerate().skip(i + 1) {
                if edge(i, j, a, b) {
                    matrix[i * words + j / 64] |= 1 << (j % 64);
                    matrix[j * words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let (mut to, mut length) = (Vec::new(), Vec::new());
        start.push(0);
        for (i, &a) in nodes.iter().enumerate() {
            for (w, &word) in matrix[i * words..(i + 1) * words].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    to.push(j as u32);
                    // |a - b| and |b - a| are the same float: squares ignore the sign.
                    length.push(a.distance(nodes[j]));
                }
            }
            start.push(to.len() as u32);
        }
        // Integer coordinates: 30 - x is exact. The waypoints are listed in row-major order, so
        // seat 0 ranks them by index and seat 1, seeing them mirrored, in reverse.
        let mirrored = nodes.iter().map(|p| p.mirrored()).collect();
        let count = n as u32;
        let frames = [
            Frame { blocked, nodes, rank: (0..count).collect() },
            Frame { blocked: blocked.mirrored(), nodes: mirrored, rank: (0..count).map(|i| count - 1 - i).collect() },
        ];
        Graph { blocked, corners, frames, start, to, length, matrix, words }
    }

    /// The graph for `blocked`, asking [`directly_reachable`] again only about the waypoint
    /// pairs whose answer the change may alter ([`Changed::reachable`]); the other pairs keep
    /// this graph's answer. Also says what changed. `None` when too much changed for that to pay.
    pub(super) fn rebuild(&self, blocked: Blocked) -> Option<(Graph, Delta)> {
        let changed = Changed::new(
            Tile::all()
                .filter(|&t| self.blocked.contains(t) != blocked.contains(t))
                .map(|t| (t, blocked.contains(t)))
                .collect(),
        );
        if changed.tiles.len() > MAX_CHANGED {
            return None;
        }
        let corners = waypoints(&blocked);
        // Both lists are in row-major order: merge them.
        let mut old_of = vec![NO_NODE; corners.len()];
        let mut new_of = vec![NO_NODE; self.corners.len()];
        let (mut i, mut j) = (0, 0);
        while let (Some(new), Some(old)) = (corners.get(i), self.corners.get(j)) {
            match new.cmp(old) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    old_of[i] = j as u32;
                    new_of[j] = i as u32;
                    (i, j) = (i + 1, j + 1);
                }
            }
        }
        let mut added = Vec::new();
        let graph = Graph::assemble(blocked, corners, |i, j, a, b| {
            let (oi, oj) = (old_of[i], old_of[j]);
            let kept = oi != NO_NODE && oj != NO_NODE;
            let before = kept && self.has_edge(oi as usize, oj as usize);
            let now = if kept { changed.reachable(&blocked, a, b, before) } else { directly_reachable(&blocked, a, b) };
            if now && !before {
                added.push((i as u32, j as u32, a.distance(b)));
            }
            now
        });
        let mirrored = Changed::new(changed.tiles.iter().map(|&(t, now)| (t.mirrored(), now)).collect());
        Some((graph, Delta { old_of, new_of, changed: [changed, mirrored], added }))
    }

    /// Number of waypoints.
    #[cfg(test)]
    pub(super) fn waypoint_count(&self) -> usize {
        self.corners.len()
    }

    pub(super) fn frame(&self, seat: usize) -> &Frame {
        self.frames.get(seat).unwrap_or(&self.frames[0])
    }

    /// Whether nodes `u` and `v` are joined.
    pub(super) fn has_edge(&self, u: usize, v: usize) -> bool {
        self.matrix.get(u * self.words + v / 64).is_some_and(|word| (word >> (v % 64)) & 1 != 0)
    }

    /// Node `u`'s neighbours and the distances to them.
    pub(super) fn neighbours(&self, u: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (lo, hi) = (self.start[u] as usize, self.start[u + 1] as usize);
        self.to[lo..hi].iter().zip(&self.length[lo..hi]).map(|(&v, &length)| (v as usize, length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::path::testing::{v, water};

    /// A tile that `touches` says a segment does not read never changes its answer.
    #[test]
    fn untouched_tiles_do_not_matter() {
        let mut rng = arena_game::new_rng(23);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        let mut untouched = 0;
        for layout in 0..40 {
            let mut blocked = if layout % 2 == 0 { water(&Map::default()) } else { Blocked::default() };
            for _ in 0..r(150) {
                blocked.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            for i in 0..3000 {
                let point = |r: &mut dyn FnMut(u32) -> u32| match i % 3 {
                    0 => v(f64::from(r(31)), f64::from(r(31))),
                    1 => v(f64::from(r(30)) + 0.5, f64::from(r(30)) + 0.5),
                    _ => v(f64::from(r(3001)) / 100.0, f64::from(r(3001)) / 100.0),
                };
                let (p, q) = (point(&mut r), point(&mut r));
                let before = directly_reachable(&blocked, p, q);
                for _ in 0..10 {
                    let tile = Tile::new(r(30) as u8, r(30) as u8);
                    if touches(p, q, tile) {
                        continue;
                    }
                    let mut toggled = blocked;
                    toggled.toggle(tile);
                    assert_eq!(directly_reachable(&toggled, p, q), before, "{p:?} {q:?} {tile}");
                    untouched += 1;
                }
            }
        }
        assert!(untouched > 100_000, "{untouched}");
    }

    /// Blocking more tiles never reveals a segment (what [`Sight`] relies on).
    #[test]
    fn blocking_only_hides() {
        let mut rng = arena_game::new_rng(31);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        for _ in 0..40 {
            let mut fewer = water(&Map::default());
            for _ in 0..r(60) {
                fewer.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            let mut more = fewer;
            for _ in 0..=r(5) {
                more.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            for _ in 0..2000 {
                let p = v(f64::from(r(3001)) / 100.0, f64::from(r(31)));
                let q = v(f64::from(r(31)), f64::from(r(3001)) / 100.0);
                assert!(!directly_reachable(&more, p, q) || directly_reachable(&fewer, p, q), "{p:?} {q:?}");
            }
        }
    }
}
