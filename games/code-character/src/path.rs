//! Pathfinding (code-character.md "Pathfinding"): any-angle movement on a visibility graph. This
//! module owns the blocked grid, line of sight, the waypoint graph and the search, and keeps them
//! up to date as towers come and go.
//!
//! - **Blocked tiles** are WATER and tower tiles ([`Blocked`], one bit per tile). Bots never
//!   block each other.
//! - **Waypoints** are the corners of blocked tiles, except corners on the map border
//!   (coordinate 0 or 30) and corners where both tiles on one of the corner's four sides are
//!   blocked ([`waypoints`]).
//! - **Direct reachability** ([`directly_reachable`]): the segment crosses the interior of no
//!   blocked tile, and where it runs along a grid line, at least one of the two tiles beside
//!   each stretch is free (the map's outside counts as blocked). An axis-aligned segment is
//!   checked tile by tile along its line; any other one strip by strip between the integral x
//!   it crosses, each strip checking every tile its y range touches. The y at an integral x is
//!   `a.y + ((x - a.x) * dy) / dx`: for integer endpoints (all waypoint pairs) the product is
//!   exact and the quotient correctly rounded, so grid-vertex hits are exact.
//! - **Search** ([`Planner::next_position`]): start and goal join the graph as temporary nodes
//!   and a shortest path is found with Euclidean edge weights; the bot then advances up to its
//!   speed along the polyline, turning at waypoints within the turn (reaching one snaps exactly
//!   onto it, [`Vec2::toward`]). No path: no move.
//!
//! **\[ours\] Shortest paths without A\*.** The spec says "run A*". The engine finds a shortest
//! path on the same graph with the same exact Euclidean edge lengths, but from per-goal
//! shortest-path trees (a Dijkstra rooted at the goal: every waypoint's cost to the goal and its
//! next hop, memoised per seat and goal) instead of one A* per bot and turn (about 60 µs a bot,
//! 16 ms a turn, in a late game). A* with a consistent heuristic also returns a shortest path,
//! so the path's length is the same; what can differ is only *which* of several equally short
//! paths is taken, which the spec leaves open. That choice is the deviation, if any. The rule:
//! 1. a goal the start sees directly: straight there;
//! 2. otherwise the bot enters the graph at the waypoint `u` it sees with the least
//!    |start - u| + cost(u);
//! 3. from a waypoint, the next hop is the goal if it sees the goal at its cost, else the
//!    neighbour `w` with the least cost(w) + |w - v| (what the Dijkstra settles: only strictly
//!    shorter costs replace);
//! 4. ties: in 2, the lower x, then y; in 3, the goal, then the neighbour with the lower cost(w),
//!    then x, then y; positions in the *bot owner's* coordinates, so both seats make the same
//!    choices in their own views.
//!
//! Costs are float sums accumulated from the goal end (an A* sums from the start), so paths of
//! equal exact length, or within a rounding error of it, may compare differently in the last
//! bit, and such near-ties may also go another way than in an A*. A test checks the costs
//! against a plain A*.
//!
//! The rest is speed, with results identical to rebuilding everything each turn (each part is
//! tested against the plain version):
//! - line of sight estimates each crossing with one multiply and computes it the exact way only
//!   near a grid line ([`directly_reachable`]);
//! - the graph is rebuilt at the start of each turn's update when the blocked tiles differ from
//!   the last build, asking again only about the waypoint pairs whose segment may read a
//!   changed tile ([`touches`]) and whose answer the change can alter (blocking tiles only
//!   hides, freeing them only reveals: [`Sight`]);
//! - the goal trees searched last turn are then repaired, not rebuilt ([`Graph::repair`]): only
//!   the waypoints whose path or options the change affected are worked out again.

use crate::geometry::{MAP_EXTENT, MAP_SIZE, Tile, Vec2};
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// Whether the segment `p`-`q` is free of blocked tiles (see the module docs). Points outside
/// [0, 30] are never reachable.
///
/// The strip walk gives the same answer as computing every crossing as
/// `a.y + ((x - a.x) * dy) / dx` (the module docs' rule), without a division per strip: only
/// the crossings' floor and ceiling matter, so each is estimated as `a.y + (x - a.x) * slope`
/// (within 1e-13 of the exact float on this map) and computed the exact way only when the
/// estimate lies within [`NEAR_GRID`] of an integer, where the two could round to different
/// tiles. A test checks this against the plain walk.
pub(crate) fn directly_reachable(blocked: &Blocked, p: Vec2, q: Vec2) -> bool {
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

/// The waypoints of `blocked`, in row-major order (see the module docs).
pub(crate) fn waypoints(blocked: &Blocked) -> Vec<Tile> {
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

/// One seat's view of the graph: its blocked grid and the waypoints in its own coordinates.
#[derive(Clone, Debug)]
struct Frame {
    blocked: Blocked,
    nodes: Vec<Vec2>,
    /// Each node's rank in (x, y) order in this frame: the tie-break.
    rank: Vec<u32>,
}

/// A set of node indices, one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|word| (word >> (i % 64)) & 1 != 0)
    }

    fn set(&mut self, i: usize) {
        if let Some(word) = self.0.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    fn any(&self) -> bool {
        self.0.iter().any(|&word| word != 0)
    }
}

/// Whether [`directly_reachable`] for the segment `a`-`b` may read tile `t`. It reads tile
/// (x, y) only where the segment has a point with x in [x, x + 1] and y in [y - 1, y + 2]
/// (strips take the tiles the segment crosses in row x; a stretch along a grid line also
/// reads the tile on its other side; computed crossings stray from the exact line by far less
/// than [`TOUCH_MARGIN`]). So this tests the segment against that box, widened by the margin:
/// bounding boxes, then whether all four corners lie clearly on one side of the line.
fn touches(a: Vec2, b: Vec2, t: Tile) -> bool {
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
struct Changed {
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
enum Sight {
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
    fn reachable(&self, blocked: &Blocked, a: Vec2, b: Vec2, before: bool) -> bool {
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
    blocked: Blocked,
    /// The waypoints (engine coordinates, row-major order).
    corners: Vec<Tile>,
    /// Seat 0's frame (engine coordinates) and seat 1's (mirrored).
    frames: [Frame; 2],
    /// Edges between waypoints by node index (the same in both frames): node `u`'s neighbours
    /// are `to[start[u]..start[u + 1]]`, at distances `length[..]`.
    start: Vec<u32>,
    to: Vec<u32>,
    length: Vec<f64>,
    /// The same edges as an adjacency matrix: row `u` is `matrix[u * words..(u + 1) * words]`.
    matrix: Vec<u64>,
    words: usize,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph {{ waypoints: {}, edges: {} }}", self.corners.len(), self.to.len() / 2)
    }
}

/// How a graph differs from the one it was rebuilt from (see [`Graph::rebuild`]).
#[derive(Debug, Default)]
struct Delta {
    /// Each new node's index in the old graph ([`NO_NODE`]: a new waypoint).
    old_of: Vec<u32>,
    /// Each old node's index in the new graph ([`NO_NODE`]: no longer a waypoint).
    new_of: Vec<u32>,
    /// The tiles whose blocking changed, in each seat's frame.
    changed: [Changed; 2],
    /// The new graph's edges that the old one lacks (new node indices, lower first), with
    /// their lengths.
    added: Vec<(u32, u32, f64)>,
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
    fn rebuild(&self, blocked: Blocked) -> Option<(Graph, Delta)> {
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
    pub(crate) fn waypoint_count(&self) -> usize {
        self.corners.len()
    }

    fn frame(&self, seat: usize) -> &Frame {
        self.frames.get(seat).unwrap_or(&self.frames[0])
    }

    /// Whether nodes `u` and `v` are joined.
    fn has_edge(&self, u: usize, v: usize) -> bool {
        self.matrix.get(u * self.words + v / 64).is_some_and(|word| (word >> (v % 64)) & 1 != 0)
    }

    /// Node `u`'s neighbours and the distances to them.
    fn neighbours(&self, u: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (lo, hi) = (self.start[u] as usize, self.start[u + 1] as usize);
        self.to[lo..hi].iter().zip(&self.length[lo..hi]).map(|(&v, &length)| (v as usize, length))
    }

    /// Shortest paths from every waypoint to `goal` in `seat`'s frame: a Dijkstra rooted at the
    /// goal, whose edges to the waypoints that see it are the temporary goal node's edges.
    fn goal_tree(&self, seat: usize, goal: Vec2, work: &mut Work) -> GoalTree {
        let frame = self.frame(seat);
        let n = frame.nodes.len();
        let mut cost = vec![f64::INFINITY; n];
        let mut next = vec![NO_NODE; n];
        let mut visible = Bits::new(n);
        work.node.clear();
        work.cost.clear();
        work.slot.clear();
        work.slot.resize(n, NO_NODE);
        for (v, &point) in frame.nodes.iter().enumerate() {
            if directly_reachable(&frame.blocked, point, goal) {
                cost[v] = point.distance(goal);
                next[v] = GOAL_NODE;
                visible.set(v);
                work.slot[v] = work.node.len() as u32;
                work.node.push(v as u32);
                work.cost.push(cost[v]);
            }
        }
        self.settle(&frame.rank, &mut cost, &mut next, work);
        GoalTree { cost, next, reachable: visible.any(), visible }
    }

    /// The Dijkstra's main loop over the open nodes in `work`. The graph is dense (waypoints see
    /// many others): an O(n^2) scan of the open nodes costs about what a heap does (measured). Ties in cost settle the lower
    /// rank first, and a node keeps the first settled neighbour that reaches its final cost
    /// (only strictly better costs replace). Settled nodes need no flag: a settled node's cost
    /// is at most the current one's, so no edge from it can strictly improve it.
    fn settle(&self, rank: &[u32], cost: &mut [f64], next: &mut [u32], work: &mut Work) {
        loop {
            // Two tight passes: the least cost, then the lowest rank among the open nodes at it.
            let least = work.cost.iter().fold(f64::INFINITY, |m, &c| if c < m { c } else { m });
            let mut best: Option<(usize, u32)> = None;
            for (i, (&c, &v)) in work.cost.iter().zip(&work.node).enumerate() {
                if c == least && best.is_none_or(|(_, r)| rank[v as usize] < r) {
                    best = Some((i, rank[v as usize]));
                }
            }
            let Some((i, _)) = best else {
                return;
            };
            let u = work.node.swap_remove(i) as usize;
            work.cost.swap_remove(i);
            if let Some(&moved) = work.node.get(i) {
                work.slot[moved as usize] = i as u32;
            }
            work.slot[u] = NO_NODE;
            let cu = least;
            let (lo, hi) = (self.start[u] as usize, self.start[u + 1] as usize);
            for (&v, &edge) in self.to[lo..hi].iter().zip(&self.length[lo..hi]) {
                let v = v as usize;
                let through = cu + edge;
                if through < cost[v] {
                    let slot = work.slot[v];
                    if slot == NO_NODE {
                        work.slot[v] = work.node.len() as u32;
                        work.node.push(v as u32);
                        work.cost.push(through);
                    } else if let Some(entry) = work.cost.get_mut(slot as usize) {
                        *entry = through;
                    }
                    cost[v] = through;
                    next[v] = u as u32;
                }
            }
        }
    }

    /// `tree`, the goal tree for `goal` in `seat`'s frame of the graph this one was rebuilt
    /// from (`delta`), repaired for this graph: the same tree [`Graph::goal_tree`] would build,
    /// for a fraction of the work when the change is far from most of its paths.
    ///
    /// Why this is exact: a goal tree is the unique solution of local rules. Each cost is the
    /// least over all paths to the goal of the path's length summed from the goal end (what a
    /// Dijkstra with these float sums computes), and each next hop is, among the candidates
    /// reaching that cost, the goal itself, else the neighbour with the least (cost, rank) (the
    /// one a Dijkstra settles first; only strictly better costs replace). So:
    /// 1. nodes whose old path is intact keep their costs as upper bounds; nodes whose path
    ///    lost a waypoint, an edge or the sight of the goal, and new waypoints, start from what
    ///    their intact neighbours and the goal offer;
    /// 2. a Dijkstra over those nodes, and over any node a new edge or a new sight of the goal
    ///    improves, lowers costs until no edge improves any (so they are the least path costs);
    /// 3. next hops are chosen again by the rule for every node whose inputs (its cost, its
    ///    sight of the goal, its edges, its neighbours' costs) may have changed.
    fn repair(&self, delta: &Delta, seat: usize, goal: Vec2, tree: &GoalTree, work: &mut Work) -> GoalTree {
        let frame = self.frame(seat);
        let n = frame.nodes.len();
        let Some(changed) = delta.changed.get(seat) else {
            return self.goal_tree(seat, goal, work);
        };
        let mut cost = vec![f64::INFINITY; n];
        let mut next = vec![NO_NODE; n];
        let mut visible = Bits::new(n);
        // Nodes whose next hop must be chosen again.
        let mut dirty = std::mem::take(&mut work.dirty);
        dirty.clear();
        dirty.resize(n, false);
        // Per node: 0 not yet known, 1 intact path, 2 broken path or new node.
        let mut state = std::mem::take(&mut work.state);
        state.clear();
        state.resize(n, 0);
        for (v, &point) in frame.nodes.iter().enumerate() {
            let old = delta.old_of[v];
            let saw = old != NO_NODE && tree.visible.get(old as usize);
            let sees = if old != NO_NODE {
                changed.reachable(&frame.blocked, point, goal, saw)
            } else {
                directly_reachable(&frame.blocked, point, goal)
            };
            if sees {
                visible.set(v);
            }
            if sees != saw {
                dirty[v] = true;
            }
            if old == NO_NODE {
                state[v] = 2;
                continue;
            }
            let old = old as usize;
            cost[v] = tree.cost[old];
            next[v] = match tree.next[old] {
                GOAL_NODE if sees => GOAL_NODE,
                NO_NODE => NO_NODE,
                parent => match delta.new_of.get(parent as usize) {
                    Some(&p) if p != NO_NODE && self.has_edge(v, p as usize) => p,
                    _ => {
                        state[v] = 2;
                        NO_NODE
                    }
                },
            };
        }
        // A path is broken when any link on it is (parents have lower costs: chains end).
        let mut chain = std::mem::take(&mut work.chain);
        chain.clear();
        for v in 0..n {
            let mut u = v;
            while state[u] == 0 {
                match next[u] {
                    GOAL_NODE | NO_NODE => state[u] = 1,
                    parent => {
                        chain.push(u);
                        u = parent as usize;
                    }
                }
            }
            let verdict = state[u];
            for w in chain.drain(..) {
                state[w] = verdict;
            }
        }
        // Nodes whose cost is (possibly) new: their neighbours' next hops must be chosen again.
        let mut relabelled = std::mem::take(&mut work.relabelled);
        relabelled.clear();
        let mut listed = std::mem::take(&mut work.listed);
        listed.clear();
        listed.resize(n, false);
        let mut relabel = |v: usize| {
            if !listed[v] {
                listed[v] = true;
                relabelled.push(v as u32);
            }
        };
        work.node.clear();
        work.cost.clear();
        work.slot.clear();
        work.slot.resize(n, NO_NODE);
        let open = |work: &mut Work, v: usize, c: f64| {
            let slot = work.slot[v];
            if slot == NO_NODE {
                work.slot[v] = work.node.len() as u32;
                work.node.push(v as u32);
                work.cost.push(c);
            } else if let Some(entry) = work.cost.get_mut(slot as usize) {
                *entry = c;
            }
        };
        // 1. Broken and new nodes start from their intact neighbours and the goal.
        for v in 0..n {
            if state[v] != 2 {
                continue;
            }
            let mut best = if visible.get(v) { frame.nodes[v].distance(goal) } else { f64::INFINITY };
            for (u, edge) in self.neighbours(v) {
                if state[u] == 1 {
                    let through = cost[u] + edge;
                    if through < best {
                        best = through;
                    }
                }
            }
            cost[v] = best;
            next[v] = NO_NODE;
            dirty[v] = true;
            relabel(v);
            if best.is_finite() {
                open(work, v, best);
            }
        }
        // New edges and new sights of the goal between intact nodes.
        for &(i, j, edge) in &delta.added {
            let (i, j) = (i as usize, j as usize);
            for (u, v) in [(i, j), (j, i)] {
                if state[u] == 1 && state[v] == 1 && cost[u] + edge < cost[v] {
                    cost[v] = cost[u] + edge;
                    relabel(v);
                    open(work, v, cost[v]);
                }
            }
        }
        for v in 0..n {
            // (So far only changes of sight are dirty.)
            if state[v] == 1 && visible.get(v) && dirty[v] {
                let sight = frame.nodes[v].distance(goal);
                if sight < cost[v] {
                    cost[v] = sight;
                    relabel(v);
                    open(work, v, sight);
                }
            }
        }
        // 2. The Dijkstra over what changed (see `settle`; costs only fall).
        loop {
            let least = work.cost.iter().fold(f64::INFINITY, |m, &c| if c < m { c } else { m });
            let mut best: Option<(usize, u32)> = None;
            for (i, (&c, &v)) in work.cost.iter().zip(&work.node).enumerate() {
                if c == least && best.is_none_or(|(_, r)| frame.rank[v as usize] < r) {
                    best = Some((i, frame.rank[v as usize]));
                }
            }
            let Some((i, _)) = best else {
                break;
            };
            let u = work.node.swap_remove(i) as usize;
            work.cost.swap_remove(i);
            if let Some(&moved) = work.node.get(i) {
                work.slot[moved as usize] = i as u32;
            }
            work.slot[u] = NO_NODE;
            for (v, edge) in self.neighbours(u) {
                let through = least + edge;
                if through < cost[v] {
                    cost[v] = through;
                    relabel(v);
                    open(work, v, through);
                }
            }
        }
        // 3. Next hops again where their inputs may have changed: the relabelled nodes, and
        // the nodes a relabelled neighbour or a new edge now reaches at their cost (a tie
        // the rule must settle) or that went through the relabelled neighbour. (A node that
        // went through a broken one is broken too; one with a winner untouched keeps it.)
        for &v in &relabelled {
            let v = v as usize;
            dirty[v] = true;
            for (w, edge) in self.neighbours(v) {
                if next[w] == v as u32 || cost[v] + edge <= cost[w] {
                    dirty[w] = true;
                }
            }
        }
        for &(i, j, edge) in &delta.added {
            let (i, j) = (i as usize, j as usize);
            for (u, v) in [(i, j), (j, i)] {
                if cost[u] + edge <= cost[v] {
                    dirty[v] = true;
                }
            }
        }
        (work.state, work.chain, work.relabelled, work.listed) = (state, chain, relabelled, listed);
        for v in 0..n {
            if !dirty[v] {
                continue;
            }
            next[v] = if !cost[v].is_finite() {
                NO_NODE
            } else if visible.get(v) && frame.nodes[v].distance(goal) == cost[v] {
                GOAL_NODE
            } else {
                let mut via: Option<usize> = None;
                for (u, edge) in self.neighbours(v) {
                    // Candidates reaching cost[v] all have lower costs; the least (cost, rank).
                    if cost[u] + edge == cost[v]
                        && via
                            .is_none_or(|w| cost[u] < cost[w] || (cost[u] == cost[w] && frame.rank[u] < frame.rank[w]))
                    {
                        via = Some(u);
                    }
                }
                match via {
                    Some(u) => u as u32,
                    // Unreachable (a cost is always some candidate's); built afresh to be safe.
                    None => {
                        work.dirty = dirty;
                        return self.goal_tree(seat, goal, work);
                    }
                }
            };
        }
        work.dirty = dirty;
        GoalTree { cost, next, reachable: visible.any(), visible }
    }
}

/// `GoalTree::next` of a waypoint that goes straight to the goal.
const GOAL_NODE: u32 = u32::MAX - 1;
/// `GoalTree::next` of a waypoint that cannot reach the goal (and "none" in other node maps).
const NO_NODE: u32 = u32::MAX;

/// Every waypoint's shortest-path cost to one goal, and its next hop there.
#[derive(Clone, Debug, PartialEq)]
struct GoalTree {
    cost: Vec<f64>,
    next: Vec<u32>,
    /// The waypoints that see the goal.
    visible: Bits,
    /// Whether any waypoint sees the goal.
    reachable: bool,
}

/// The Dijkstra's buffers, kept between trees.
#[derive(Clone, Debug, Default)]
struct Work {
    /// The open nodes, and their costs at the same index.
    node: Vec<u32>,
    cost: Vec<f64>,
    /// Each node's index in `node` ([`NO_NODE`]: not open).
    slot: Vec<u32>,
    /// [`Graph::repair`]'s per-node marks and lists.
    state: Vec<u8>,
    dirty: Vec<bool>,
    listed: Vec<bool>,
    chain: Vec<usize>,
    relabelled: Vec<u32>,
}

/// Goal trees kept per planner; beyond this many the memo starts afresh (it never changes a
/// result, only saves work).
const MAX_TREES: usize = 1024;

/// A memoised goal tree, and whether a search used it since the last [`Planner::update`].
#[derive(Clone, Debug)]
struct Memo {
    tree: Arc<GoalTree>,
    used: bool,
}

/// The search (see the module docs) over one [`Graph`], with a memo of goal trees: bots keep
/// their targets for many turns and often share them. A tree stays valid as long as the graph
/// does, and when the graph changes the trees searched last turn are repaired for the new one
/// ([`Graph::repair`], exactly the trees a fresh build gives). The memo is an optimisation
/// only: every answer
/// is a pure function of the graph, the seat, the start and the goal.
#[derive(Clone, Debug)]
pub(crate) struct Planner {
    graph: Arc<Graph>,
    trees: BTreeMap<(usize, u64, u64), Memo>,
    work: Work,
}

impl Planner {
    /// A planner over `graph`.
    pub(crate) fn new(graph: Arc<Graph>) -> Planner {
        Planner { graph, trees: BTreeMap::new(), work: Work::default() }
    }

    /// The planner for this turn's blocked tiles: this one if they did not change, else one over
    /// the rebuilt graph with the trees searched since the last update, repaired.
    pub(crate) fn update(self, blocked: Blocked) -> Planner {
        let mut planner = self;
        if planner.graph.blocked == blocked {
            for memo in planner.trees.values_mut() {
                memo.used = false;
            }
            return planner;
        }
        let Some((graph, delta)) = planner.graph.rebuild(blocked) else {
            return Planner::new(Arc::new(Graph::build(blocked)));
        };
        let mut trees = BTreeMap::new();
        let mut work = planner.work;
        for (&(seat, x, y), memo) in planner.trees.iter().filter(|(_, memo)| memo.used) {
            let goal = Vec2::new(f64::from_bits(x), f64::from_bits(y));
            let tree = graph.repair(&delta, seat, goal, &memo.tree, &mut work);
            trees.insert((seat, x, y), Memo { tree: Arc::new(tree), used: false });
        }
        Planner { graph: Arc::new(graph), trees, work }
    }

    /// The graph it plans on.
    #[cfg(test)]
    pub(crate) fn graph(&self) -> &Graph {
        &self.graph
    }

    fn tree(&mut self, seat: usize, goal: Vec2) -> Arc<GoalTree> {
        let key = (seat, goal.x.to_bits(), goal.y.to_bits());
        if let Some(memo) = self.trees.get_mut(&key) {
            memo.used = true;
            return Arc::clone(&memo.tree);
        }
        if self.trees.len() >= MAX_TREES {
            self.trees.clear();
        }
        let tree = Arc::new(self.graph.goal_tree(seat, goal, &mut self.work));
        self.trees.insert(key, Memo { tree: Arc::clone(&tree), used: true });
        tree
    }

    /// Where a bot of `seat` at `from` (its own coordinates) gets to this turn on its way to
    /// `to`, moving up to `speed`; `None` when there is no path.
    pub(crate) fn next_position(
        &mut self,
        seat: usize,
        from: Vec2,
        to: Vec2,
        speed: f64,
        scratch: &mut Scratch,
    ) -> Option<Vec2> {
        let path = self.find_path(seat, from, to, scratch)?;
        let mut pos = from;
        let mut left = speed;
        for &point in path {
            if left <= 0.0 {
                break;
            }
            let gap = pos.distance(point);
            if gap <= left {
                pos = point;
                left -= gap;
            } else {
                pos = pos.toward(point, left);
                break;
            }
        }
        Some(pos)
    }

    /// A shortest path from `start` to `goal` for a bot of `seat` (own coordinates): the
    /// points after `start`, ending with `goal`; `None` when the goal cannot be reached.
    pub(crate) fn find_path<'s>(
        &mut self,
        seat: usize,
        start: Vec2,
        goal: Vec2,
        s: &'s mut Scratch,
    ) -> Option<&'s [Vec2]> {
        s.path.clear();
        if directly_reachable(&self.graph.frame(seat).blocked, start, goal) {
            s.path.push(goal);
            return Some(&s.path);
        }
        let tree = self.tree(seat, goal);
        if !tree.reachable {
            return None;
        }
        let frame = self.graph.frame(seat);
        let mut node = best_entry(frame, &tree, start, &mut s.keys)?;
        // Each hop is to a node settled earlier, so this ends within n hops.
        for _ in 0..=frame.nodes.len() {
            s.path.push(frame.nodes[node]);
            match tree.next[node] {
                GOAL_NODE => {
                    s.path.push(goal);
                    return Some(&s.path);
                }
                next => node = next as usize,
            }
        }
        None
    }
}

/// The waypoint a path from `start` enters the graph by: the least |start - u| + cost(u) over
/// the waypoints `u` that `start` sees, ties broken by position (x, then y). Candidates are
/// tried cheapest first, so usually only one or two visibility checks are needed.
fn best_entry(frame: &Frame, tree: &GoalTree, start: Vec2, keys: &mut Vec<(f64, u32)>) -> Option<usize> {
    keys.clear();
    for (u, (&cost, &point)) in tree.cost.iter().zip(&frame.nodes).enumerate() {
        if cost.is_finite() {
            keys.push((start.distance(point) + cost, u as u32));
        }
    }
    let rank = &frame.rank;
    let before = |a: (f64, u32), b: (f64, u32)| a.0 < b.0 || (a.0 == b.0 && rank[a.1 as usize] < rank[b.1 as usize]);
    for _ in 0..2 {
        let mut best: Option<(usize, (f64, u32))> = None;
        for (i, &entry) in keys.iter().enumerate() {
            if best.is_none_or(|(_, b)| before(entry, b)) {
                best = Some((i, entry));
            }
        }
        let (i, (_, u)) = best?;
        if directly_reachable(&frame.blocked, start, frame.nodes[u as usize]) {
            return Some(u as usize);
        }
        keys.swap_remove(i);
    }
    // Many hidden candidates (a start among towers): the rest in order, until one is seen. The
    // next few are picked out and sorted first (sorting them all is usually wasted).
    let order = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(rank[a.1 as usize].cmp(&rank[b.1 as usize]));
    let sees = |&(_, u): &(f64, u32)| directly_reachable(&frame.blocked, start, frame.nodes[u as usize]);
    let few = keys.len().min(16);
    if few < keys.len() {
        keys.select_nth_unstable_by(few, order);
    }
    let (head, tail) = keys.split_at_mut(few);
    head.sort_unstable_by(order);
    if let Some(&(_, u)) = head.iter().find(|entry| sees(entry)) {
        return Some(u as usize);
    }
    tail.sort_unstable_by(order);
    tail.iter().find(|entry| sees(entry)).map(|&(_, u)| u as usize)
}

/// Reusable search buffers (one per turn, shared by every bot's search).
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    keys: Vec<(f64, u32)>,
    path: Vec<Vec2>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::map::Map;
    use std::cmp::Ordering;
    use std::collections::BinaryHeap;

    /// The reference A*'s open-list entry, ordered so that `BinaryHeap` pops the least `f` first,
    /// ties broken by position (x, then y).
    #[derive(Clone, Copy, Debug)]
    struct Entry {
        f: f64,
        pos: Vec2,
        node: u32,
    }

    impl Ord for Entry {
        fn cmp(&self, other: &Entry) -> Ordering {
            other
                .f
                .total_cmp(&self.f)
                .then_with(|| other.pos.x.total_cmp(&self.pos.x))
                .then_with(|| other.pos.y.total_cmp(&self.pos.y))
        }
    }

    impl PartialOrd for Entry {
        fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }

    impl PartialEq for Entry {
        fn eq(&self, other: &Entry) -> bool {
            self.cmp(other) == Ordering::Equal
        }
    }

    impl Eq for Entry {}

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
                    toggled.rows[usize::from(tile.x)] ^= 1 << tile.y;
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

    fn water(map: &Map) -> Blocked {
        let mut blocked = Blocked::default();
        for tile in Tile::all() {
            if !map.terrain(tile).is_walkable() {
                blocked.set(tile);
            }
        }
        blocked
    }

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
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

    /// code-character.md "Pathfinding": around the channel through the central gap.
    #[test]
    fn path_goes_round_the_water() {
        let mut planner = Planner::new(Arc::new(Graph::build(water(&Map::default()))));
        assert_eq!(planner.graph().waypoint_count(), 8);
        let mut scratch = Scratch::default();
        let path = planner.find_path(0, v(2.5, 2.5), v(20.5, 3.5), &mut scratch).unwrap().to_vec();
        assert_eq!(path, [v(14.0, 13.0), v(16.0, 13.0), v(20.5, 3.5)]);
        // Seat 1 asks the same question in its own coordinates and gets the same answer.
        let mirrored = planner.find_path(1, v(2.5, 2.5), v(20.5, 3.5), &mut scratch).unwrap().to_vec();
        assert_eq!(mirrored, path);
        // One step of 1.0 along it, turning at the first waypoint.
        let next = planner.next_position(0, v(13.5, 13.0), v(20.5, 3.5), 1.0, &mut scratch).unwrap();
        assert_eq!(next, v(14.0, 13.0).toward(v(16.0, 13.0), 0.5));
        // A goal inside water is never reached.
        assert_eq!(planner.find_path(0, v(2.5, 2.5), v(14.5, 3.5), &mut scratch), None);
        assert_eq!(planner.next_position(0, v(2.5, 2.5), v(14.5, 3.5), 1.0, &mut scratch), None);
    }

    /// A rebuilt graph equals a fresh one, and every goal tree repaired for it equals the tree
    /// built afresh (costs to the bit, next hops, sight of the goal), for both seats, through
    /// random tower changes (some next to other towers, so that waypoints come and go).
    #[test]
    fn repaired_trees_equal_fresh_ones() {
        let mut rng = arena_game::new_rng(17);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        let water = water(&Map::default());
        let mut repaired = 0;
        for _ in 0..40 {
            let mut blocked = water;
            for _ in 0..r(60) {
                blocked.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            let goals: Vec<Vec2> = (0..40)
                .map(|i| match i % 4 {
                    0 => v(f64::from(r(30)) + 0.5, f64::from(r(30)) + 0.5),
                    1 => v(f64::from(r(31)), f64::from(r(31))),
                    _ => v(f64::from(r(3001)) / 100.0, f64::from(r(3001)) / 100.0),
                })
                .collect();
            let mut planner = Planner::new(Arc::new(Graph::build(blocked)));
            let mut last = Tile::new(r(30) as u8, r(30) as u8);
            for _ in 0..12 {
                for (i, &goal) in goals.iter().enumerate() {
                    if r(4) != 0 {
                        planner.tree(i % 2, goal);
                    }
                }
                // Towers come and go: one to four tiles toggle (never water), often next to the
                // last one.
                for _ in 0..=r(4) {
                    let near = Tile::checked(i16::from(last.x) + r(3) as i16 - 1, i16::from(last.y) + r(3) as i16 - 1);
                    let tile = match near {
                        Some(tile) if r(2) == 0 => tile,
                        _ => Tile::new(r(30) as u8, r(30) as u8),
                    };
                    if !water.contains(tile) {
                        blocked.rows[usize::from(tile.x)] ^= 1 << tile.y;
                        last = tile;
                    }
                }
                planner = planner.update(blocked);
                let fresh = Graph::build(blocked);
                let graph = planner.graph();
                assert_eq!(graph.corners, fresh.corners);
                assert_eq!((&graph.start, &graph.to, &graph.matrix), (&fresh.start, &fresh.to, &fresh.matrix));
                assert_eq!(graph.length, fresh.length);
                for (&(seat, x, y), memo) in &planner.trees {
                    let goal = v(f64::from_bits(x), f64::from_bits(y));
                    let expected = fresh.goal_tree(seat, goal, &mut Work::default());
                    assert_eq!(*memo.tree, expected, "seat {seat} goal {goal}");
                    let bits = |tree: &GoalTree| tree.cost.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&memo.tree), bits(&expected));
                    repaired += 1;
                }
            }
        }
        assert!(repaired > 10_000, "{repaired}");
    }

    /// The entry search equals the plain rule: the least (|start - u| + cost(u), rank) over the
    /// waypoints the start sees.
    #[test]
    fn entry_is_the_least_visible_candidate() {
        let mut rng = arena_game::new_rng(29);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        let mut found = 0;
        for _ in 0..20 {
            let mut blocked = water(&Map::default());
            for _ in 0..r(80) {
                blocked.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            let graph = Graph::build(blocked);
            for _ in 0..30 {
                let seat = r(2) as usize;
                let goal = v(f64::from(r(3001)) / 100.0, f64::from(r(3001)) / 100.0);
                let tree = graph.goal_tree(seat, goal, &mut Work::default());
                let frame = graph.frame(seat);
                for _ in 0..20 {
                    let start = v(f64::from(r(3001)) / 100.0, f64::from(r(3001)) / 100.0);
                    let plain = (0..frame.nodes.len())
                        .filter(|&u| tree.cost[u].is_finite())
                        .filter(|&u| directly_reachable(&frame.blocked, start, frame.nodes[u]))
                        .min_by(|&a, &b| {
                            let total = |u: usize| start.distance(frame.nodes[u]) + tree.cost[u];
                            total(a).total_cmp(&total(b)).then(frame.rank[a].cmp(&frame.rank[b]))
                        });
                    assert_eq!(best_entry(frame, &tree, start, &mut Vec::new()), plain);
                    found += usize::from(plain.is_some());
                }
            }
        }
        assert!(found > 2000, "{found}");
    }

    /// The spec's A*, plainly: start and goal as temporary nodes, Euclidean heuristic. Returns
    /// the shortest path's length.
    fn astar_cost(graph: &Graph, seat: usize, start: Vec2, goal: Vec2) -> Option<f64> {
        let frame = graph.frame(seat);
        let n = frame.nodes.len();
        let mut points = frame.nodes.clone();
        points.push(start);
        points.push(goal);
        let (s, g) = (n, n + 1);
        let neighbours = |u: usize| -> Vec<(usize, f64)> {
            let mut out: Vec<(usize, f64)> = Vec::new();
            if u < n {
                out.extend(graph.neighbours(u));
            } else {
                out.extend(
                    (0..n)
                        .filter(|&w| directly_reachable(&frame.blocked, points[u], points[w]))
                        .map(|w| (w, points[u].distance(points[w]))),
                );
            }
            if u != g && directly_reachable(&frame.blocked, points[u], goal) {
                out.push((g, points[u].distance(goal)));
            }
            out
        };
        let mut best = vec![f64::INFINITY; n + 2];
        let mut closed = vec![false; n + 2];
        best[s] = 0.0;
        let mut heap = BinaryHeap::new();
        heap.push(Entry { f: start.distance(goal), pos: start, node: s as u32 });
        while let Some(e) = heap.pop() {
            let u = e.node as usize;
            if std::mem::replace(&mut closed[u], true) {
                continue;
            }
            if u == g {
                return Some(best[g]);
            }
            for (v, c) in neighbours(u) {
                if best[u] + c < best[v] {
                    best[v] = best[u] + c;
                    heap.push(Entry { f: best[v] + points[v].distance(goal), pos: points[v], node: v as u32 });
                }
            }
        }
        None
    }

    fn path_length(start: Vec2, path: &[Vec2]) -> f64 {
        let mut at = start;
        let mut total = 0.0;
        for &p in path {
            total += at.distance(p);
            at = p;
        }
        total
    }

    /// The planner finds paths exactly as short as the spec's A* (and the same reachability),
    /// for both seats, on random tower layouts, and its memo changes nothing.
    #[test]
    fn planner_matches_plain_astar() {
        let mut rng = arena_game::new_rng(11);
        let mut r = |n: u32| arena_game::rng_below(&mut rng, n);
        for _ in 0..12 {
            let mut blocked = water(&Map::default());
            for _ in 0..r(40) {
                blocked.set(Tile::new(r(30) as u8, r(30) as u8));
            }
            let graph = Arc::new(Graph::build(blocked));
            let mut planner = Planner::new(Arc::clone(&graph));
            let mut scratch = Scratch::default();
            for _ in 0..60 {
                let seat = r(2) as usize;
                let start = v(f64::from(r(3000)) / 100.0, f64::from(r(3000)) / 100.0);
                let goal = if r(3) == 0 {
                    v(f64::from(r(31)), f64::from(r(31)))
                } else {
                    v(f64::from(r(3000)) / 100.0, f64::from(r(3000)) / 100.0)
                };
                let expected = astar_cost(&graph, seat, start, goal);
                let got = planner.find_path(seat, start, goal, &mut scratch).map(|p| path_length(start, p));
                match (expected, got) {
                    (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{start} -> {goal}: A* {a}, planner {b}"),
                    (None, None) => {}
                    other => panic!("{start} -> {goal}: reachability differs: {other:?}"),
                }
                let again = Planner::new(Arc::clone(&graph))
                    .find_path(seat, start, goal, &mut Scratch::default())
                    .map(<[Vec2]>::to_vec);
                assert_eq!(planner.find_path(seat, start, goal, &mut scratch).map(<[Vec2]>::to_vec), again);
            }
        }
    }
}
