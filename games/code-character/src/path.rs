//! Pathfinding (code-character.md "Pathfinding"): any-angle movement on a visibility graph.
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
//!   computed as `a.y + ((x - a.x) * dy) / dx`: for integer endpoints (all waypoint pairs) the
//!   product is exact and the quotient correctly rounded, so grid-vertex hits are exact.
//! - **Search** ([`Planner::next_position`]): start and goal join the graph as temporary nodes
//!   and a shortest path is found with Euclidean edge weights; the bot then advances up to its
//!   speed along the polyline, turning at waypoints within the turn. No path: no move.
//!
//! **\[ours\]** how the shortest path is found. The spec says A* (Euclidean heuristic); A* with a
//! consistent heuristic returns a shortest path, and so does this, which is what matters: the
//! path's length is the same, only the choice among equally short paths is ours. Running A* for
//! every walking bot every turn cost about 60 µs a bot in a late game with ~40 towers a side
//! (16 ms a turn); instead:
//! - when the goal is directly reachable from the start the path is that one segment;
//! - otherwise a Dijkstra rooted at the goal gives every waypoint its cost to the goal and its
//!   next hop (a "goal tree", memoised per seat and goal while the graph is unchanged: bots keep
//!   their targets for many turns and often share them), and the bot enters the graph at the
//!   waypoint it sees with the least |start - waypoint| + cost;
//! - ties (equal costs) go to the lower x, then y, in the *bot owner's* coordinates, and to the
//!   node reached first, so both seats make the same choices in their own views;
//! - reaching a waypoint within a turn snaps exactly onto it ([`Vec2::toward`]).
//!
//! A test checks the costs against a plain A* on random tower layouts.
//!
//! The graph is rebuilt at the start of each turn's update when the blocked tiles differ from
//! the last build (rebuilding unconditionally would give the same graph).

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

/// Whether the segment `p`-`q` is free of blocked tiles (see the module docs). Points outside
/// [0, 30] are never reachable.
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
            let x = a.x as i64;
            return (jlo..=jhi).all(|j| !(blocked.at(x - 1, j) && blocked.at(x, j)));
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
    let (mut xs, mut ys) = (a.x, a.y);
    loop {
        let next = floor(xs) as f64 + 1.0;
        let (xe, ye) = if next < b.x { (next, a.y + ((next - a.x) * dy) / dx) } else { (b.x, b.y) };
        let row = floor(xs);
        let (lo, hi) = if ys <= ye { (ys, ye) } else { (ye, ys) };
        if lo == hi && integral(lo) {
            // A stretch along a grid line (a slope too small to register): either side free.
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

/// A sort key for (cost, rank): costs are never negative, and non-negative floats order like
/// their bit patterns, so one integer comparison does.
fn key(cost: f64, rank: u32) -> u128 {
    (u128::from(cost.to_bits()) << 32) | u128::from(rank)
}

/// The visibility graph for one set of blocked tiles, with both seats' frames.
#[derive(Clone)]
pub(crate) struct Graph {
    /// What it was built from (engine coordinates).
    blocked: Blocked,
    /// Seat 0's frame (engine coordinates) and seat 1's (mirrored).
    frames: [Frame; 2],
    /// Edges between waypoints, by node index (the same in both frames).
    adj: Vec<Vec<(u32, f64)>>,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let edges: usize = self.adj.iter().map(Vec::len).sum();
        write!(f, "Graph {{ waypoints: {}, edges: {} }}", self.frames[0].nodes.len(), edges / 2)
    }
}

impl Graph {
    /// Builds the graph for `blocked` (engine coordinates).
    pub(crate) fn build(blocked: Blocked) -> Graph {
        let corners = waypoints(&blocked);
        let nodes: Vec<Vec2> = corners.iter().map(|t| Vec2::new(f64::from(t.x), f64::from(t.y))).collect();
        let mut adj: Vec<Vec<(u32, f64)>> = vec![Vec::new(); nodes.len()];
        for (i, &a) in nodes.iter().enumerate() {
            for (j, &b) in nodes.iter().enumerate().skip(i + 1) {
                if directly_reachable(&blocked, a, b) {
                    let cost = a.distance(b);
                    adj[i].push((j as u32, cost));
                    adj[j].push((i as u32, cost));
                }
            }
        }
        // Integer coordinates: 30 - x is exact. The waypoints are listed in row-major order, so
        // seat 0 ranks them by index and seat 1, seeing them mirrored, in reverse.
        let mirrored = nodes.iter().map(|p| p.mirrored()).collect();
        let n = nodes.len() as u32;
        let frames = [
            Frame { blocked, nodes, rank: (0..n).collect() },
            Frame { blocked: blocked.mirrored(), nodes: mirrored, rank: (0..n).map(|i| n - 1 - i).collect() },
        ];
        Graph { blocked, frames, adj }
    }

    /// The blocked tiles the graph was built from.
    pub(crate) fn blocked(&self) -> &Blocked {
        &self.blocked
    }

    /// Number of waypoints.
    #[cfg(test)]
    pub(crate) fn waypoint_count(&self) -> usize {
        self.frames[0].nodes.len()
    }

    fn frame(&self, seat: usize) -> &Frame {
        self.frames.get(seat).unwrap_or(&self.frames[0])
    }

    /// Shortest paths from every waypoint to `goal` in `seat`'s frame: a Dijkstra rooted at the
    /// goal, whose edges to the waypoints that see it are the temporary goal node's edges.
    fn goal_tree(&self, seat: usize, goal: Vec2) -> GoalTree {
        let frame = self.frame(seat);
        let n = frame.nodes.len();
        let mut cost = vec![f64::INFINITY; n];
        let mut next = vec![NO_NODE; n];
        for (v, &point) in frame.nodes.iter().enumerate() {
            if directly_reachable(&frame.blocked, point, goal) {
                cost[v] = point.distance(goal);
                next[v] = GOAL_NODE;
            }
        }
        let reachable = next.contains(&GOAL_NODE);
        // The graph is dense (waypoints see many others): an O(n^2) scan beats a heap. Ties in
        // cost settle the lower position (x, then y, own coordinates) first.
        let mut open: Vec<usize> = (0..n).filter(|&v| cost[v].is_finite()).collect();
        let mut closed = vec![false; n];
        while let Some((i, &u)) = open.iter().enumerate().min_by_key(|(_, v)| key(cost[**v], frame.rank[**v])) {
            open.swap_remove(i);
            closed[u] = true;
            for &(v, edge) in &self.adj[u] {
                let v = v as usize;
                let through = cost[u] + edge;
                // Strictly better only: the first node settled keeps a tie.
                if !closed[v] && through < cost[v] {
                    if cost[v].is_infinite() {
                        open.push(v);
                    }
                    cost[v] = through;
                    next[v] = u as u32;
                }
            }
        }
        GoalTree { cost, next, reachable }
    }
}

/// `GoalTree::next` of a waypoint that goes straight to the goal.
const GOAL_NODE: u32 = u32::MAX - 1;
/// `GoalTree::next` of a waypoint that cannot reach the goal.
const NO_NODE: u32 = u32::MAX;

/// Every waypoint's shortest-path cost to one goal, and its next hop there.
#[derive(Clone, Debug)]
struct GoalTree {
    cost: Vec<f64>,
    next: Vec<u32>,
    /// Whether any waypoint sees the goal.
    reachable: bool,
}

/// Goal trees kept per planner; beyond this many the memo starts afresh (it never changes a
/// result, only saves work).
const MAX_TREES: usize = 1024;

/// The search (see the module docs) over one [`Graph`], with a memo of goal trees: bots keep
/// their targets for many turns and often share them, and a tree stays valid as long as the
/// graph does. The memo is an optimisation only: every answer is a pure function of the graph,
/// the seat, the start and the goal.
#[derive(Clone, Debug)]
pub(crate) struct Planner {
    graph: Arc<Graph>,
    trees: BTreeMap<(usize, u64, u64), Arc<GoalTree>>,
}

impl Planner {
    /// A planner over `graph`.
    pub(crate) fn new(graph: Arc<Graph>) -> Planner {
        Planner { graph, trees: BTreeMap::new() }
    }

    /// The graph it plans on.
    pub(crate) fn graph(&self) -> &Graph {
        &self.graph
    }

    fn tree(&mut self, seat: usize, goal: Vec2) -> Arc<GoalTree> {
        let key = (seat, goal.x.to_bits(), goal.y.to_bits());
        if let Some(tree) = self.trees.get(&key) {
            return Arc::clone(tree);
        }
        if self.trees.len() >= MAX_TREES {
            self.trees.clear();
        }
        let tree = Arc::new(self.graph.goal_tree(seat, goal));
        self.trees.insert(key, Arc::clone(&tree));
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
fn best_entry(frame: &Frame, tree: &GoalTree, start: Vec2, keys: &mut Vec<(f64, usize)>) -> Option<usize> {
    keys.clear();
    for (u, (&cost, &point)) in tree.cost.iter().zip(&frame.nodes).enumerate() {
        if cost.is_finite() {
            keys.push((start.distance(point) + cost, u));
        }
    }
    let order = |&(cost, u): &(f64, usize)| key(cost, frame.rank[u]);
    for _ in 0..8 {
        let (i, &(_, u)) = keys.iter().enumerate().min_by_key(|(_, entry)| order(entry))?;
        if directly_reachable(&frame.blocked, start, frame.nodes[u]) {
            return Some(u);
        }
        keys.swap_remove(i);
    }
    // Many hidden candidates (a start among towers): check the rest in one pass.
    keys.retain(|&(_, u)| directly_reachable(&frame.blocked, start, frame.nodes[u]));
    keys.iter().min_by_key(|entry| order(entry)).map(|&(_, u)| u)
}

/// Reusable search buffers (one per turn, shared by every bot's search).
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    keys: Vec<(f64, usize)>,
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
                out.extend(graph.adj[u].iter().map(|&(v, c)| (v as usize, c)));
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
