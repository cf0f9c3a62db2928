//! Per-goal shortest-path trees ([`GoalTree`]: every waypoint's cost to one goal and its next
//! hop there, from a Dijkstra rooted at the goal) and their repair when the graph is rebuilt
//! ([`Graph::repair`]: only the waypoints the change affected are worked out again).

use super::graph::{Delta, Graph};
use super::sight::directly_reachable;
use crate::geometry::Vec2;

/// `GoalTree::next` of a waypoint that goes straight to the goal.
pub(super) const GOAL_NODE: u32 = u32::MAX - 1;
/// `GoalTree::next` of a waypoint that cannot reach the goal (and "none" in other node maps).
pub(super) const NO_NODE: u32 = u32::MAX;

/// Every waypoint's shortest-path cost to one goal, and its next hop there.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct GoalTree {
    pub(super) cost: Vec<f64>,
    pub(super) next: Vec<u32>,
    /// The waypoints that see the goal.
    visible: Bits,
    /// Whether any waypoint sees the goal.
    pub(super) reachable: bool,
}

/// The Dijkstra's buffers, kept between trees.
#[derive(Clone, Debug, Default)]
pub(super) struct Work {
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

impl Graph {
    /// Shortest paths from every waypoint to `goal` in `seat`'s frame: a Dijkstra rooted at the
    /// goal, whose edges to the waypoints that see it are the temporary goal node's edges.
    pub(super) fn goal_tree(&self, seat: usize, goal: Vec2, work: &mut Work) -> GoalTree {
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
    pub(super) fn repair(&self, delta: &Delta, seat: usize, goal: Vec2, tree: &GoalTree, work: &mut Work) -> GoalTree {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Tile;
    use crate::map::Map;
    use crate::path::Planner;
    use crate::path::testing::{v, water};
    use std::sync::Arc;

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
                        blocked.toggle(tile);
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
}
