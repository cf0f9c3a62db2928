//! `suitebot-harvester`: plants where a bomb's blast area holds the most unclaimed points, and only
//! where it can still get out of every blast in time.
//!
//! Each round it:
//! 1. predicts, per field, the rounds in which an explosion covers it. The *exact* prediction is
//!    the engine's own schedule ([`rules::explosion_schedule`]: countdowns and chain reactions,
//!    if nobody plants or replaces a bomb). The *cautious* predictions add what other players
//!    can still do: a bomb set off early by a chain may go off as late as its own countdown
//!    (should the bomb triggering it be replaced), and an enemy may plant a *bridge* on a field it
//!    can reach before a blast covers it, which then goes off with that blast, covers its own
//!    area and sets off the bombs around it (transitively, as [`rules::set_off`] chains them).
//!    Bridges are assumed within any reach, then within one move, then only where enemies
//!    stand; and enemies may plant where they stand, for round 4;
//! 2. keeps the actions after which a path exists (moves or holds, never onto an enemy base,
//!    where agents are killed) that stays out of every predicted blast until the last one has
//!    gone off: for planting, with its own new bomb added to the prediction. It uses the most
//!    cautious prediction that leaves an action, and plants only under the most cautious one;
//! 3. plants if the field it stands on is worth at least as much per round as the best field it
//!    could walk to; otherwise steps towards that field, preferring steps no enemy agent can
//!    reach this round (colliding agents both die).
//!
//! A field's worth is the points left in its blast area that no bomb on the board covers yet.
//! It never plants a bomb whose area covers its own home base, so respawning after an accident
//! never puts it inside its own blast, nor one that would go off after the last round.
//! Deterministic: no randomness.
//!
//! Fuel: on the default board a round costs about 130,000 on average and rarely above 400,000,
//! against the 1,000,000 per round the default game budget allows. The work is index arithmetic
//! proportional to the bombs and the agent's surroundings, not to the board (blast areas are
//! never allocated, searches stop early), so large boards cost little more. When the game fuel
//! left per round runs short (huge blast areas, many bombs: see [`THRIFTY_BELOW`]), it plays by
//! the exact prediction alone.

use arena_sdk::suitebot::prelude::*;

/// How far enemies are assumed to walk before planting a bridge, most cautious first; after
/// these tiers comes the exact prediction.
const BRIDGE_REACH: [u32; 3] = [u32::MAX, 1, 0];

/// The bit for round `k` (rounds past 15 are folded into bit 15; bombs never count that far).
fn bit(k: u8) -> u16 {
    1u16 << k.min(15)
}

/// Every bit for rounds `k` and later.
fn from_round(k: u32) -> u16 {
    u16::MAX.checked_shl(k).unwrap_or(0)
}

/// The highest round set in `bits` (0 when none is).
fn highest(bits: u16) -> u8 {
    u8::try_from(u16::BITS - bits.leading_zeros()).unwrap_or(16).saturating_sub(1)
}

/// A prediction of blasts.
struct Danger {
    /// Per field (row-major), bit `k` set: an explosion may cover the field in step 4 of the
    /// `k`-th round from now (0 = the round being played).
    bits: Vec<u16>,
    /// Every round set anywhere in `bits`.
    rounds: u16,
}

impl Danger {
    fn at(&self, i: usize) -> u16 {
        self.bits.get(i).copied().unwrap_or(u16::MAX)
    }

    /// The last round any blast covers (0 when there is none).
    fn last(&self) -> u8 {
        highest(self.rounds)
    }
}

/// The exact prediction for some bombs, and the schedule it comes from.
struct Exact {
    danger: Danger,
    schedule: Vec<u8>,
}

/// The board as indices (`y * width + x`, as the view's per-field lists): neighbours and blast
/// areas by arithmetic.
struct Grid {
    torus: Torus,
    width: usize,
    height: usize,
    radius: usize,
    /// Fields never entered: the enemies' home bases (an agent ending a round there is killed).
    blocked: Vec<usize>,
    /// Scratch marks for searches: a field is marked when it holds the current stamp (so a
    /// search starts with a new stamp instead of clearing the board).
    marks: std::cell::RefCell<(Vec<u32>, u32)>,
}

impl Grid {
    fn fields(&self) -> usize {
        self.width * self.height
    }

    fn index(&self, pos: Pos) -> usize {
        self.torus.index(pos).unwrap_or(usize::MAX)
    }

    fn blocked(&self, i: usize) -> bool {
        self.blocked.contains(&i) || i >= self.fields()
    }

    /// Field `i` itself, then the fields up, down, left and right of it.
    fn steps(&self, i: usize) -> [usize; 5] {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i % w, i / w);
        let row = y * w;
        [i, (y + h - 1) % h * w + x, (y + 1) % h * w + x, row + (x + w - 1) % w, row + (x + 1) % w]
    }

    /// Per field, the moves from `from` to it on the open torus (no field blocked).
    fn moves_from(&self, from: Pos) -> impl Fn(usize) -> u32 + use<> {
        let w = self.width;
        let cols: Vec<u32> = (0..self.torus.width).map(|x| u32::from(self.torus.dx(from.x, x))).collect();
        let rows: Vec<u32> = (0..self.torus.height).map(|y| u32::from(self.torus.dy(from.y, y))).collect();
        move |i| {
            cols.get(i % w).copied().unwrap_or(u32::MAX).saturating_add(rows.get(i / w).copied().unwrap_or(u32::MAX))
        }
    }

    /// The fields of the blast area of a bomb on field `i`, each once (as
    /// [`Torus::blast_area`], not in order).
    fn area(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (w, h, r) = (self.width, self.height, self.radius);
        let (x, y) = (i % w, i / w);
        let (cols, rows) = ((2 * r + 1).min(w), (2 * r + 1).min(h));
        let (left, top) = ((x + w * (r / w + 1) - r) % w, (y + h * (r / h + 1) - r) % h);
        (0..rows).flat_map(move |dy| {
            let row = (top + dy) % h * w;
            (0..cols).map(move |dx| row + (left + dx) % w)
        })
    }

    /// Ors `bits` into the danger of every field in the blast area of a bomb on field `i`.
    fn cover(&self, danger: &mut Danger, i: usize, bits: u16) {
        danger.rounds |= bits;
        for field in self.area(i) {
            if let Some(slot) = danger.bits.get_mut(field) {
                *slot |= bits;
            }
        }
    }

    /// About how many field updates a cautious prediction for `bombs` bombs costs at most: the
    /// bridges' areas, by [`Grid::dilate`]'s cheaper way.
    fn cautious_cost(&self, bombs: usize) -> usize {
        let (cols, rows) = ((2 * self.radius + 1).min(self.width), (2 * self.radius + 1).min(self.height));
        let bridges = (bombs * cols * rows).min(self.fields());
        (bridges * cols * rows).min(self.fields() * (cols + rows))
    }

    /// Ors `bits` (per field) over the blast area of every field into `danger`, whichever way is
    /// cheaper: one cover per field of `set` (those with bits), or a pass along rows then one
    /// along columns (the area's square is separable).
    fn dilate(&self, danger: &mut Danger, bits: &[u16], set: &[usize]) {
        let (w, h, r) = (self.width, self.height, self.radius);
        let (cols, rows) = ((2 * r + 1).min(w), (2 * r + 1).min(h));
        if set.len() * cols * rows <= self.fields() * (cols + rows) {
            for i in set {
                self.cover(danger, *i, bits.get(*i).copied().unwrap_or(0));
            }
            return;
        }
        let (left, top) = (w * (r / w + 1) - r, h * (r / h + 1) - r);
        let along_rows: Vec<u16> = (0..self.fields())
            .map(|i| {
                let (x, row) = (i % w, i - i % w);
                (0..cols).fold(0, |all, dx| all | bits.get(row + (x + left + dx) % w).copied().unwrap_or(0))
            })
            .collect();
        for (i, slot) in danger.bits.iter_mut().enumerate() {
            let (x, y) = (i % w, i / w);
            let all =
                (0..rows).fold(0, |all, dy| all | along_rows.get((y + top + dy) % h * w + x).copied().unwrap_or(0));
            *slot |= all;
            danger.rounds |= all;
        }
    }

    fn radius(&self) -> u8 {
        u8::try_from(self.radius).unwrap_or(u8::MAX)
    }

    /// The exact prediction: when each field is blasted if nobody plants or replaces a bomb
    /// ([`rules::explosion_schedule`]).
    fn exact(&self, bombs: &[Bomb]) -> Exact {
        let mut danger = Danger { bits: vec![0; self.fields()], rounds: 0 };
        let schedule = rules::explosion_schedule(self.torus, self.radius(), bombs);
        for (bomb, round) in bombs.iter().zip(&schedule) {
            self.cover(&mut danger, self.index(bomb.at), bit(*round));
        }
        Exact { danger, schedule }
    }

    /// A cautious prediction for `bombs` (see the module docs), whose exact one is `exact`;
    /// `moves` tells how many moves the nearest of the `enemies` needs to reach a field, and
    /// bridges are assumed only on fields at most `reach` moves away from an enemy.
    fn cautious(
        &self,
        bombs: &[Bomb],
        exact: &Exact,
        enemies: &[Pos],
        moves: &impl Fn(usize) -> u32,
        reach: u32,
    ) -> Danger {
        // The rounds each bomb may go off in: from its scheduled round (a chain may bring it
        // forward) to its own countdown (the bomb setting it off may be replaced).
        let mut windows: Vec<u16> = bombs
            .iter()
            .zip(&exact.schedule)
            .map(|(bomb, round)| (*round..=bomb.countdown.max(*round)).fold(0, |bits, k| bits | bit(k)))
            .collect();
        // Bridges: a field an enemy reaches by round k, blasted in round k (only fields in a
        // blast area can be one). A bridge covers its own area, and sets off the bombs in it.
        let mut bridges = vec![0u16; self.fields()];
        let mut set = Vec::new();
        for bomb in bombs {
            for field in self.area(self.index(bomb.at)) {
                let Some(slot) = bridges.get_mut(field).filter(|slot| **slot == 0) else { continue };
                let moves = moves(field);
                *slot = if moves <= reach { exact.danger.at(field) & from_round(moves) } else { 0 };
                if *slot != 0 {
                    set.push(field);
                }
            }
        }
        let bridged = set.iter().fold(0, |all, i| all | bridges.get(*i).copied().unwrap_or(0));
        let mut danger = Danger { bits: vec![0; self.fields()], rounds: 0 };
        self.dilate(&mut danger, &bridges, &set);
        if bridged != 0 {
            // Which bombs set each other off (the same test as [`rules::set_off`]), once.
            let reaches: Vec<Vec<usize>> = bombs
                .iter()
                .map(|a| {
                    (0..bombs.len())
                        .filter(|j| bombs.get(*j).is_some_and(|b| self.torus.in_blast(a.at, b.at, self.radius())))
                        .collect()
                })
                .collect();
            for round in (0..=exact.danger.last()).filter(|round| bridged & bit(*round) != 0) {
                // Bombs that may go off this round (in their window, or with a bridge in their
                // area), then every bomb possibly still on the board that those set off.
                let live = |i: usize| windows.get(i).is_some_and(|w| w >> round != 0);
                // (`danger` holds just the bridges' areas so far.)
                let mut going: Vec<bool> = bombs
                    .iter()
                    .enumerate()
                    .map(|(i, bomb)| {
                        let bridged = danger.at(self.index(bomb.at));
                        live(i) && (windows.get(i).copied().unwrap_or(0) | bridged) & bit(round) != 0
                    })
                    .collect();
                let mut queue: Vec<usize> =
                    (0..bombs.len()).filter(|i| going.get(*i).copied().unwrap_or(false)).collect();
                while let Some(i) = queue.pop() {
                    for j in reaches.get(i).into_iter().flatten().copied() {
                        if live(j) && going.get(j).is_some_and(|going| !going) {
                            if let Some(flag) = going.get_mut(j) {
                                *flag = true;
                            }
                            queue.push(j);
                        }
                    }
                }
                for (window, _) in windows.iter_mut().zip(going).filter(|(_, going)| *going) {
                    *window |= bit(round);
                }
            }
        }
        for (bomb, window) in bombs.iter().zip(&windows) {
            self.cover(&mut danger, self.index(bomb.at), *window);
        }
        // Enemies may plant where they stand now: such a bomb goes off in round 4.
        for enemy in enemies {
            self.cover(&mut danger, self.index(*enemy), bit(BOMB_COUNTDOWN));
        }
        danger
    }

    /// Whether an agent standing on field `from` after this round's move (and alive there) can
    /// stay out of every blast of `danger` until the last one, never entering a blocked field.
    fn escapes(&self, danger: &Danger, from: usize) -> bool {
        // Safe for good once on a field no later blast covers: the agent can hold there.
        let clear_from = |i: usize, round: u8| danger.at(i) & from_round(u32::from(round)) == 0;
        if clear_from(from, 1) {
            return true;
        }
        let mut marks = self.marks.borrow_mut();
        let (marks, stamp) = &mut *marks;
        if marks.is_empty() {
            *marks = vec![0; self.fields()];
        }
        let mut frontier = vec![from];
        for round in 1..=danger.last() {
            *stamp = stamp.wrapping_add(1);
            let mut next: Vec<usize> = Vec::with_capacity(frontier.len() * 3);
            for pos in &frontier {
                for to in self.steps(*pos) {
                    if self.blocked(to) || danger.at(to) & bit(round) != 0 {
                        continue;
                    }
                    match marks.get_mut(to) {
                        Some(mark) if *mark != *stamp => *mark = *stamp,
                        _ => continue,
                    }
                    if clear_from(to, round) {
                        return true;
                    }
                    next.push(to);
                }
            }
            if next.is_empty() {
                return false;
            }
            frontier = next;
        }
        true
    }

    /// Moves from field `from` to each of the fields `wanted`, never entering a blocked one
    /// (`u32::MAX`: unreachable). A breadth-first search that stops once every wanted field is
    /// reached.
    fn distances(&self, from: usize, wanted: &[usize]) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.fields()];
        let mut left = wanted.len();
        let mut queue = std::collections::VecDeque::from([from]);
        if let Some(slot) = dist.get_mut(from) {
            *slot = 0;
            left -= wanted.iter().filter(|i| **i == from).count();
        }
        while let Some(pos) = queue.pop_front() {
            if left == 0 {
                break;
            }
            let d = dist.get(pos).copied().unwrap_or(u32::MAX).saturating_add(1);
            for to in self.steps(pos) {
                if self.blocked(to) {
                    continue;
                }
                if let Some(slot) = dist.get_mut(to)
                    && *slot == u32::MAX
                {
                    *slot = d;
                    left -= wanted.iter().filter(|i| **i == to).count();
                    queue.push_back(to);
                }
            }
        }
        wanted.iter().map(|i| dist.get(*i).copied().unwrap_or(u32::MAX)).collect()
    }
}

/// Below this much game fuel per round left, the harvester stops predicting what enemies may do
/// (the cautious tiers) and plays by the exact prediction alone, which costs a fraction. It also
/// does so for a round after one that cost more than the game fuel left per round.
pub const THRIFTY_BELOW: u64 = 400_000;

/// Most field updates a cautious prediction may cost (see [`plan`]).
const CAUTIOUS_COST_LIMIT: usize = 100_000;

/// The harvester's action for `view`, with every cautious tier.
pub fn choose(view: &BoardState) -> Action {
    plan(view, &BRIDGE_REACH)
}

/// The harvester's action for `view`, trying the cautious predictions with bridges within each
/// of `reaches` (most cautious first, planting only under the first), then the exact one. The
/// cautious ones are skipped where they would cost too much (huge blast areas on huge boards).
pub fn plan(view: &BoardState, reaches: &[u32]) -> Action {
    let torus = view.torus();
    let Some(me) = view.me() else { return Action::Hold };
    let (here, base) = (me.agent, me.base);
    let seat = usize::from(view.seat);
    let others = || view.players.iter().enumerate().filter(|(i, _)| *i != seat).map(|(_, player)| player);
    let enemies: Vec<Pos> = others().map(|player| player.agent).collect();
    let grid = Grid {
        torus,
        width: usize::from(torus.width).max(1),
        height: usize::from(torus.height).max(1),
        radius: usize::from(view.blast_radius),
        blocked: others().filter_map(|player| torus.index(player.base)).collect(),
        marks: Default::default(),
    };
    let reaches = if grid.cautious_cost(view.bombs.len() + 1) > CAUTIOUS_COST_LIMIT { &[] } else { reaches };
    let from_enemies: Vec<_> = enemies.iter().map(|enemy| grid.moves_from(*enemy)).collect();
    let moves = |i: usize| from_enemies.iter().map(|moves| moves(i)).min().unwrap_or(u32::MAX);

    let may_plant =
        view.rounds_left() > u32::from(BOMB_COUNTDOWN) && view.bomb_at(here).is_none() && !view.in_blast(here, base);
    let with_mine = may_plant.then(|| {
        let mut bombs = view.bombs.clone();
        rules::plant(&mut bombs, Bomb { at: here, owner: view.seat, countdown: BOMB_COUNTDOWN });
        let exact = grid.exact(&bombs);
        (bombs, exact)
    });
    let exact = grid.exact(&view.bombs);

    // Whether the agent survives every blast `danger` predicts after `action`.
    let survives = |action: Action, danger: &Danger| {
        let to = grid.index(torus.neighbour(here, action));
        danger.at(to) & bit(0) == 0 && !grid.blocked(to) && grid.escapes(danger, to)
    };
    // The safe actions under the cautious prediction with bridges within `reach` (`None`: the
    // exact prediction).
    let safe_under = |reach: Option<u32>| -> Vec<Action> {
        let danger = |bombs: &[Bomb], exact: &Exact| match reach {
            Some(reach) => grid.cautious(bombs, exact, &enemies, &moves, reach),
            None => Danger { bits: exact.danger.bits.clone(), rounds: exact.danger.rounds },
        };
        let now = danger(&view.bombs, &exact);
        let mut safe: Vec<Action> =
            Action::ALL.into_iter().filter(|a| *a != Action::PlantBomb && survives(*a, &now)).collect();
        // Planting only under the most cautious prediction: a bomb is never worth a risk.
        if let Some((bombs, exact)) = &with_mine
            && reach == reaches.first().copied()
            && survives(Action::PlantBomb, &danger(bombs, exact))
        {
            safe.insert(0, Action::PlantBomb);
        }
        safe
    };
    // The most cautious prediction that leaves a safe action. Cautious predictions only add
    // danger, so when the exact one leaves none, none does.
    let exact_safe = safe_under(None);
    let safe = if exact_safe.is_empty() {
        exact_safe
    } else {
        reaches.iter().map(|reach| safe_under(Some(*reach))).find(|safe| !safe.is_empty()).unwrap_or(exact_safe)
    };

    // What a bomb on a field would mine: the points in its area that no bomb on the board
    // covers yet; nothing on an enemy base, on a bomb, or where the blast would cover the own
    // base.
    let worth = |i: usize| -> u32 {
        let Some(field) = torus.pos(i) else { return 0 };
        if grid.blocked(i) || view.bomb_at(field).is_some() || view.in_blast(field, base) {
            return 0;
        }
        grid.area(i)
            .filter(|g| exact.danger.at(*g) == 0)
            .map(|g| u32::from(view.points.get(g).copied().unwrap_or(0)))
            .sum()
    };
    // The best target by worth per round spent (walking there, then planting), searched ring by
    // ring around the agent (moves on the open torus: enemy bases, the only fields never
    // entered, cost at most a detour of two) until no farther field can do better. Its bomb
    // must go off before the game ends.
    let most = u32::try_from((2 * grid.radius + 1).pow(2)).unwrap_or(u32::MAX) * u32::from(rules::FIELD_POINTS);
    let farthest = (view.rounds_left().saturating_sub(u32::from(BOMB_COUNTDOWN) + 1))
        .min(u32::from(torus.width / 2 + torus.height / 2));
    let mut best: Option<(usize, u32, u32)> = None; // (field, worth, distance)
    let mut seen = vec![false; grid.fields()];
    if let Some(seen) = seen.get_mut(grid.index(here)) {
        *seen = true;
    }
    for dist in 1..=farthest {
        if best.is_some_and(|(_, v, d)| u64::from(most) * u64::from(d + 1) <= u64::from(v) * u64::from(dist + 1)) {
            break;
        }
        let d = i64::from(dist);
        for dx in -d..=d {
            // Both signs of dy (the same field twice when dy is 0: `seen` skips it; so it does
            // a field nearer the other way round a small board).
            for dy in [d - dx.abs(), dx.abs() - d] {
                let field = grid.index(torus.wrap(i64::from(here.x) + dx, i64::from(here.y) + dy));
                match seen.get_mut(field) {
                    Some(seen) if !*seen => *seen = true,
                    _ => continue,
                }
                let value = worth(field);
                if value > 0
                    && best.is_none_or(|(_, v, d)| {
                        u64::from(value) * u64::from(d + 1) > u64::from(v) * u64::from(dist + 1)
                    })
                {
                    best = Some((field, value, dist));
                }
            }
        }
    }

    let here_worth = if may_plant { worth(grid.index(here)) } else { 0 };
    if safe.contains(&Action::PlantBomb)
        && here_worth > 0
        && best.is_none_or(|(_, v, d)| u64::from(here_worth) * u64::from(d + 1) >= u64::from(v))
    {
        return Action::PlantBomb;
    }

    // Otherwise step towards the best field (or hold when there is none), avoiding fields an
    // enemy agent can reach.
    let steps: Vec<Action> = safe.into_iter().filter(|action| *action != Action::PlantBomb).collect();
    let ends: Vec<usize> = steps.iter().map(|action| grid.index(torus.neighbour(here, *action))).collect();
    let to_target = best.map(|(target, _, _)| grid.distances(target, &ends));
    steps
        .into_iter()
        .enumerate()
        .min_by_key(|(k, action)| {
            let to = torus.neighbour(here, *action);
            let risk = enemies.iter().filter(|enemy| torus.distance(**enemy, to) <= 1).count();
            let dist = to_target.as_ref().and_then(|d| d.get(*k).copied()).unwrap_or(0);
            (risk, dist, action.is_move())
        })
        .map_or(Action::Hold, |(_, action)| action)
}

/// The harvester. Its only state is what its last round cost: everything else is in the view.
#[derive(Default)]
pub struct HarvesterBot {
    /// Game fuel left at the start of the previous call.
    fuel_before: Option<u64>,
}

impl SuitebotBot for HarvesterBot {
    fn act(&mut self, view: &View) -> Action {
        let left = view.info.game_fuel_remaining;
        // What the previous round cost (with the host's work for it), and what is left per round.
        let last_cost = self.fuel_before.map_or(0, |before| before.saturating_sub(left));
        self.fuel_before = Some(left);
        let per_round = left / u64::from(view.rounds_left().max(1));
        if per_round < THRIFTY_BELOW || last_cost > per_round { plan(&view.state, &[]) } else { choose(&view.state) }
    }
}

arena_sdk::export_suitebot_bot!(HarvesterBot);
