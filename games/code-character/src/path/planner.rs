//! The search a bot's move uses ([`Planner::next_position`]): straight to a goal it sees, else
//! into the graph by the best visible waypoint ([`best_entry`]) and along the goal's tree; with
//! a memo of goal trees kept up to date as the graph changes ([`Planner::update`]).

use super::graph::{Frame, Graph};
use super::sight::{Blocked, directly_reachable};
use super::tree::{GOAL_NODE, GoalTree, Work};
use crate::geometry::Vec2;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Goal trees kept per planner; beyond this many the memo starts afresh (it never changes a
/// result, only saves work).
const MAX_TREES: usize = 1024;

/// A memoised goal tree, and whether a search used it since the last [`Planner::update`].
#[derive(Clone, Debug)]
pub(super) struct Memo {
    pub(super) tree: Arc<GoalTree>,
    used: bool,
}

/// The search (see the `path` module docs) over one [`Graph`], with a memo of goal trees: bots keep
/// their targets for many turns and often share them. A tree stays valid as long as the graph
/// does, and when the graph changes the trees searched last turn are repaired for the new one
/// ([`Graph::repair`], exactly the trees a fresh build gives). The memo is an optimisation
/// only: every answer
/// is a pure function of the graph, the seat, the start and the goal.
#[derive(Clone, Debug)]
pub(crate) struct Planner {
    graph: Arc<Graph>,
    pub(super) trees: BTreeMap<(usize, u64, u64), Memo>,
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
    pub(super) fn graph(&self) -> &Graph {
        &self.graph
    }

    pub(super) fn tree(&mut self, seat: usize, goal: Vec2) -> Arc<GoalTree> {
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
    fn find_path<'s>(&mut self, seat: usize, start: Vec2, goal: Vec2, s: &'s mut Scratch) -> Option<&'s [Vec2]> {
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
mod tests {
    use super::*;
    use crate::geometry::Tile;
    use crate::map::Map;
    use crate::path::testing::{v, water};
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
