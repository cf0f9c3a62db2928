//! The rules of suitebot.md once, as pure functions on plain data ([`Torus`], [`Pos`], [`Bomb`],
//! [`Action`]). The engine ([`crate::Suitebot`]) and the bots' view ([`crate::View`]) both call
//! these, so a bot that simulates with them plays by exactly the engine's rules; the guest SDK
//! re-exports this module.
//!
//! Conventions: fields are ordered row-major ([`Pos`]'s order); a per-field vector is indexed by
//! [`Torus::index`] (`y * width + x`). Functions never panic: a degenerate torus (a zero side) or
//! an off-board position gives an empty result, `None` or a wrapped position, as each documents.
//!
//! **The countdown \[ours\].** suitebot.md "One round" 4 says a bomb is planted with countdown 4,
//! "drops by 1" each step 4 and explodes on "reaching 0", *so* one planted in round `r` explodes in
//! step 4 of round `r + 4`, and bots see 3 in round `r + 1` down to 0 in round `r + 4`. Counted
//! literally, 4 would reach 0 in round `r + 3`; the timing is the rule that is stated twice (and
//! the seed's "4 rounds to escape, at the end of the 4th round an explosion happens"), so it wins.
//! [`Bomb::countdown`] therefore holds what bots see, rounds left before the explosion round: a
//! bomb at 0 in step 4 explodes, every other bomb drops by 1, and a bomb planted (or replaced) in
//! step 3 starts at [`BOMB_COUNTDOWN`] and so shows 3 in the next round.

use crate::{Action, Bomb, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Rounds in a game (suitebot.md "Constants"); the default of the `rounds` option.
pub const ROUNDS: u32 = 100;
/// A planted bomb's countdown (suitebot.md "Constants"): it explodes in step 4 of the fourth
/// round after the one it was planted in.
pub const BOMB_COUNTDOWN: u8 = 4;
/// Points on every field at the start, except home bases (suitebot.md "Constants"; no regrowth).
pub const FIELD_POINTS: u8 = 1;
/// Points for killing an enemy agent (suitebot.md "Constants").
pub const KILL_POINTS: u32 = 10;
/// Default blast radius **\[ours\]**: 1, the 3x3 square around the bomb (suitebot.md "Constants").
pub const BLAST_RADIUS: u8 = 1;
/// Default board width **\[ours\]** (suitebot.md "Constants").
pub const WIDTH: u16 = 14;
/// Default board height **\[ours\]** (suitebot.md "Constants").
pub const HEIGHT: u16 = 14;
/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players: the original visualisation names players `A` to `H`.
pub const MAX_PLAYERS: usize = 8;

/// The board: a `width` x `height` torus (suitebot.md "Board"): leaving one edge enters the
/// opposite one, and there are no walls.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Torus {
    /// Fields per row.
    pub width: u16,
    /// Fields per column.
    pub height: u16,
}

impl Torus {
    /// A `width` x `height` torus.
    pub const fn new(width: u16, height: u16) -> Torus {
        Torus { width, height }
    }

    /// Number of fields.
    pub fn fields(self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Whether `pos` is a field of the board.
    pub fn contains(self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The index of `pos` in a per-field vector (`y * width + x`), `None` off the board.
    pub fn index(self, pos: Pos) -> Option<usize> {
        self.contains(pos).then(|| usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x))
    }

    /// The field at `index` of a per-field vector, `None` past the end.
    pub fn pos(self, index: usize) -> Option<Pos> {
        if index >= self.fields() {
            return None;
        }
        let width = usize::from(self.width);
        // Both parts are below a u16 side, so the conversions cannot fail.
        Some(Pos::new(u16::try_from(index % width).ok()?, u16::try_from(index / width).ok()?))
    }

    /// Every field, row-major.
    pub fn positions(self) -> impl Iterator<Item = Pos> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// (`x`, `y`) wrapped onto the torus, for any integers; (0, 0) on a side of length 0.
    pub fn wrap(self, x: i64, y: i64) -> Pos {
        Pos::new(wrap_coordinate(x, self.width), wrap_coordinate(y, self.height))
    }

    /// Where an agent on `pos` stands after `action` (suitebot.md "One round" 1): one field in the
    /// action's direction, wrapping around; `pos` itself (wrapped) for HOLD and PLANT_BOMB.
    pub fn neighbour(self, pos: Pos, action: Action) -> Pos {
        let (dx, dy) = action.delta();
        self.wrap(i64::from(pos.x) + i64::from(dx), i64::from(pos.y) + i64::from(dy))
    }

    /// The distance between columns `a` and `b` going round the shorter way.
    pub fn dx(self, a: u16, b: u16) -> u16 {
        cyclic_distance(a, b, self.width)
    }

    /// The distance between rows `a` and `b` going round the shorter way.
    pub fn dy(self, a: u16, b: u16) -> u16 {
        cyclic_distance(a, b, self.height)
    }

    /// The number of moves an agent needs from `a` to `b`: the Manhattan distance on the torus.
    pub fn distance(self, a: Pos, b: Pos) -> u32 {
        u32::from(self.dx(a.x, b.x)) + u32::from(self.dy(a.y, b.y))
    }

    /// Whether `field` lies in the blast area of a bomb on `bomb` (suitebot.md "Constants"): the
    /// (2r+1) x (2r+1) square centred on the bomb, torus-wrapped, that is both torus distances at
    /// most `radius`.
    pub fn in_blast(self, bomb: Pos, field: Pos, radius: u8) -> bool {
        self.dx(bomb.x, field.x) <= u16::from(radius) && self.dy(bomb.y, field.y) <= u16::from(radius)
    }

    /// The fields of the blast area of a bomb on `at`, row-major, each once (on a board narrower
    /// than the square the area wraps onto itself and simply covers whole rows or columns). Empty
    /// when `at` is off the board.
    pub fn blast_area(self, at: Pos, radius: u8) -> Vec<Pos> {
        if !self.contains(at) {
            return Vec::new();
        }
        let r = i64::from(radius);
        let mut area: Vec<Pos> = (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| self.wrap(i64::from(at.x) + dx, i64::from(at.y) + dy))
            .collect();
        area.sort_unstable();
        area.dedup();
        area
    }
}

/// `value` mod `len`, in `0..len`; 0 when `len` is 0.
fn wrap_coordinate(value: i64, len: u16) -> u16 {
    if len == 0 {
        return 0;
    }
    // rem_euclid by a positive u16 lies in 0..len, so the conversion cannot fail.
    u16::try_from(value.rem_euclid(i64::from(len))).unwrap_or(0)
}

/// The shorter way round between `a` and `b` on a circle of `len` (plain difference when `len`
/// is 0).
fn cyclic_distance(a: u16, b: u16, len: u16) -> u16 {
    if len == 0 {
        return a.abs_diff(b);
    }
    let d = wrap_coordinate(i64::from(a) - i64::from(b), len);
    d.min(len - d)
}

/// The home bases of `players` seats, by seat (suitebot.md "Constants" **\[ours\]**).
///
/// The board is cut into a grid of `cols` x `rows` cells, `cols = ceil(sqrt(players))` and
/// `rows = ceil(players / cols)`; cell `c` of `n` along a side of length `len` spans
/// `c * len / n .. (c + 1) * len / n` and its base sits on the cell's middle field (rounded
/// towards the top-left). Seats take the cells row-major. Two players are the exception the spec
/// lists: they take the diagonal cells of a 2 x 2 grid, the farthest-apart pair. On the default
/// 14 x 14 board this gives exactly the spec's (3,3), (10,3), (3,10), (10,10) for 4 players and
/// (3,3), (10,10) for 2; 3 players take the first three of the four; 5 or 6 players a 3 x 2 grid,
/// 7 or 8 a 3 x 3 grid (on 14 x 14: columns and rows 1, 6, 11).
///
/// The bases are distinct whenever the board has at least `cols` columns and `rows` rows
/// (always, for the sizes [`crate::SuitebotConfig`] accepts).
pub fn home_bases(torus: Torus, players: usize) -> Vec<Pos> {
    let (cols, rows, cells): (usize, usize, Vec<usize>) = if players == 2 {
        (2, 2, vec![0, 3])
    } else {
        let cols = (1..).find(|k| k * k >= players).unwrap_or(1);
        (cols, players.div_ceil(cols), (0..players).collect())
    };
    cells
        .into_iter()
        .map(|cell| Pos::new(cell_middle(cell % cols, cols, torus.width), cell_middle(cell / cols, rows, torus.height)))
        .collect()
}

/// The middle (rounded down) of cell `cell` of `cells` equal parts of a side of length `len`.
fn cell_middle(cell: usize, cells: usize, len: u16) -> u16 {
    let len = usize::from(len);
    let cells = cells.max(1);
    let start = cell * len / cells;
    let end = (cell + 1) * len / cells;
    u16::try_from(start + end.saturating_sub(start).saturating_sub(1) / 2).unwrap_or(0)
}

/// Where each agent stands after step 1 (suitebot.md "One round" 1): agent `i` on `agents[i]`
/// plays `actions[i]`, all at once; a missing action is HOLD.
pub fn moved(torus: Torus, agents: &[Pos], actions: &[Action]) -> Vec<Pos> {
    agents
        .iter()
        .enumerate()
        .map(|(i, pos)| torus.neighbour(*pos, actions.get(i).copied().unwrap_or(Action::Hold)))
        .collect()
}

/// Which agents die in step 2 (suitebot.md "One round" 2): every agent sharing its field with
/// another, a standing one included. Swapping places is not a collision: only where agents *end*
/// counts.
pub fn collided(agents: &[Pos]) -> Vec<bool> {
    agents
        .iter()
        .enumerate()
        .map(|(i, pos)| agents.iter().enumerate().any(|(j, other)| i != j && other == pos))
        .collect()
}

/// Plants `bomb` (suitebot.md "One round" 3): added to `bombs` (kept row-major), or replacing the
/// bomb already on its field, which is returned: the new owner and countdown replace the old.
pub fn plant(bombs: &mut Vec<Bomb>, bomb: Bomb) -> Option<Bomb> {
    match bombs.binary_search_by(|other| other.at.cmp(&bomb.at)) {
        Ok(i) => bombs.get_mut(i).map(|old| std::mem::replace(old, bomb)),
        Err(i) => {
            bombs.insert(i, bomb);
            None
        }
    }
}

/// Whose explosions cover a field in one step 4 (suitebot.md "One round" 4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cover {
    /// Only bombs of this seat: the field's point, and any enemy agent on it, count for it.
    Owner(u8),
    /// Bombs of more than one seat: nobody scores the field or the agent on it.
    Contested,
}

impl Cover {
    /// The covering seat, `None` when contested.
    pub fn owner(self) -> Option<u8> {
        match self {
            Cover::Owner(owner) => Some(owner),
            Cover::Contested => None,
        }
    }

    /// The cover once a bomb of `owner` also covers the field.
    pub fn with(self, owner: u8) -> Cover {
        match self {
            Cover::Owner(mine) if mine == owner => self,
            _ => Cover::Contested,
        }
    }

    /// Who gets [`KILL_POINTS`] for the agent of seat `victim` killed under this cover: the single
    /// owner, unless it is the victim itself (killing your own agent gives nothing, costs nothing).
    pub fn kill_credit(self, victim: u8) -> Option<u8> {
        self.owner().filter(|owner| *owner != victim)
    }
}

/// Sets off every bomb inside the blast area of an exploding one, transitively (suitebot.md "One
/// round" 4, chain reactions): on return `exploding[i]` is true for every bomb `bombs[i]` that
/// explodes along with the ones marked on entry. Extra flags beyond `bombs` are ignored.
pub fn set_off(torus: Torus, radius: u8, bombs: &[Bomb], exploding: &mut [bool]) {
    let mut queue: Vec<usize> = (0..bombs.len()).filter(|i| exploding.get(*i).copied().unwrap_or(false)).collect();
    while let Some(i) = queue.pop() {
        let Some(source) = bombs.get(i) else { continue };
        for (j, other) in bombs.iter().enumerate() {
            if let Some(flag) = exploding.get_mut(j)
                && !*flag
                && torus.in_blast(source.at, other.at, radius)
            {
                *flag = true;
                queue.push(j);
            }
        }
    }
}

/// The outcome of one step 4 (suitebot.md "One round" 4), before the engine applies it to scores
/// and agents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explosion {
    /// The bombs that explode, row-major, with their countdown at that moment (0: its own
    /// countdown ran out; more: set off by another bomb).
    pub exploded: Vec<Bomb>,
    /// Every field inside an exploding area, row-major, and whose bombs cover it. All of them are
    /// mined, and every agent on one of them dies.
    pub fields: Vec<(Pos, Cover)>,
    /// The bombs left on the board afterwards, row-major, their countdowns dropped by 1.
    pub left: Vec<Bomb>,
}

impl Explosion {
    /// Whose explosions cover `pos`, `None` if none does.
    pub fn cover_at(&self, pos: Pos) -> Option<Cover> {
        self.fields.binary_search_by(|(field, _)| field.cmp(&pos)).ok().and_then(|i| self.fields.get(i)).map(|f| f.1)
    }
}

/// Step 4 on `bombs` (row-major, as [`plant`] keeps them; see the module docs for the countdown):
/// every bomb at countdown 0 explodes and sets off a chain ([`set_off`]); the fields of all their
/// areas are covered ([`Cover`]); the other bombs' countdowns drop by 1.
pub fn explode(torus: Torus, radius: u8, bombs: &[Bomb]) -> Explosion {
    let mut exploding: Vec<bool> = bombs.iter().map(|bomb| bomb.countdown == 0).collect();
    set_off(torus, radius, bombs, &mut exploding);
    let mut covers: BTreeMap<Pos, Cover> = BTreeMap::new();
    let mut explosion = Explosion::default();
    for (bomb, explodes) in bombs.iter().zip(exploding) {
        if explodes {
            for field in torus.blast_area(bomb.at, radius) {
                covers
                    .entry(field)
                    .and_modify(|cover| *cover = cover.with(bomb.owner))
                    .or_insert(Cover::Owner(bomb.owner));
            }
            explosion.exploded.push(*bomb);
        } else {
            explosion.left.push(Bomb { countdown: bomb.countdown.saturating_sub(1), ..*bomb });
        }
    }
    explosion.fields = covers.into_iter().collect();
    explosion
}

/// When each of `bombs` explodes if nobody plants or replaces a bomb from now on: rounds from
/// now, 0 meaning step 4 of the round being played. A chain can only bring an explosion forward:
/// the bombs whose countdown runs out at round `k`, and every bomb still there that they set off,
/// explode at `k`. Same order as `bombs`.
pub fn explosion_schedule(torus: Torus, radius: u8, bombs: &[Bomb]) -> Vec<u8> {
    let mut when: Vec<Option<u8>> = vec![None; bombs.len()];
    let last = bombs.iter().map(|bomb| bomb.countdown).max().unwrap_or(0);
    for round in 0..=last {
        // Bombs that have exploded already are gone: they neither set off nor get set off again.
        let alive: Vec<usize> = (0..bombs.len()).filter(|i| when.get(*i).is_some_and(Option::is_none)).collect();
        let live: Vec<Bomb> = alive.iter().filter_map(|i| bombs.get(*i).copied()).collect();
        let mut exploding: Vec<bool> = live.iter().map(|bomb| bomb.countdown == round).collect();
        set_off(torus, radius, &live, &mut exploding);
        for (i, explodes) in alive.into_iter().zip(exploding) {
            if explodes && let Some(slot) = when.get_mut(i) {
                *slot = Some(round);
            }
        }
    }
    when.into_iter().map(|round| round.unwrap_or(last)).collect()
}

/// For every field (indexed by [`Torus::index`]), the first round from now in which an explosion
/// covers it, by [`explosion_schedule`] (0 = this round's step 4); `None` for fields no bomb
/// reaches. An agent that ends a round's moves on a field marked with that round dies.
pub fn blast_schedule(torus: Torus, radius: u8, bombs: &[Bomb]) -> Vec<Option<u8>> {
    let mut first: Vec<Option<u8>> = vec![None; torus.fields()];
    for (bomb, round) in bombs.iter().zip(explosion_schedule(torus, radius, bombs)) {
        for field in torus.blast_area(bomb.at, radius) {
            if let Some(slot) = torus.index(field).and_then(|i| first.get_mut(i)) {
                *slot = Some(slot.map_or(round, |earlier| earlier.min(round)));
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {

    use super::*;

    const T: Torus = Torus::new(14, 14);

    fn bomb(x: u16, y: u16, owner: u8, countdown: u8) -> Bomb {
        Bomb { at: Pos::new(x, y), owner, countdown }
    }

    /// suitebot.md "Board": leaving one edge enters the opposite one.
    #[test]
    fn wrap_and_neighbour_go_round_the_torus() {
        assert_eq!(T.wrap(-1, 14), Pos::new(13, 0));
        assert_eq!(T.wrap(-29, 30), Pos::new(13, 2));
        assert_eq!(T.neighbour(Pos::new(0, 0), Action::Left), Pos::new(13, 0));
        assert_eq!(T.neighbour(Pos::new(0, 0), Action::Up), Pos::new(0, 13));
        assert_eq!(T.neighbour(Pos::new(13, 13), Action::Right), Pos::new(0, 13));
        assert_eq!(T.neighbour(Pos::new(13, 13), Action::Down), Pos::new(13, 0));
        assert_eq!(T.neighbour(Pos::new(5, 5), Action::PlantBomb), Pos::new(5, 5));
        // Degenerate sides never panic.
        assert_eq!(Torus::new(0, 0).wrap(-5, 7), Pos::new(0, 0));
        assert_eq!(Torus::new(0, 0).distance(Pos::new(1, 1), Pos::new(4, 0)), 4);
    }

    /// suitebot.md "Board": distances go round the shorter way.
    #[test]
    fn distance_is_manhattan_on_the_torus() {
        assert_eq!(T.distance(Pos::new(0, 0), Pos::new(13, 13)), 2);
        assert_eq!(T.distance(Pos::new(3, 3), Pos::new(10, 10)), 14);
        assert_eq!(T.distance(Pos::new(2, 5), Pos::new(2, 5)), 0);
        assert_eq!(T.distance(Pos::new(1, 0), Pos::new(12, 0)), 3);
    }

    /// suitebot.md "Constants": the blast area is the (2r+1)^2 square, wrapped, each field once.
    #[test]
    fn blast_area_is_the_wrapped_square() {
        let area = T.blast_area(Pos::new(0, 0), 1);
        assert_eq!(area.len(), 9);
        assert!(area.contains(&Pos::new(13, 13)) && area.contains(&Pos::new(1, 1)) && area.contains(&Pos::new(13, 1)));
        assert!(area.windows(2).all(|w| w[0] < w[1]), "row-major, no repeats");
        for field in T.positions() {
            assert_eq!(area.contains(&field), T.in_blast(Pos::new(0, 0), field, 1), "{field}");
        }
        assert_eq!(T.blast_area(Pos::new(5, 5), 0), vec![Pos::new(5, 5)]);
        assert_eq!(T.blast_area(Pos::new(5, 5), 2).len(), 25);
        // A square wider than the board covers whole columns, once each.
        assert_eq!(Torus::new(3, 14).blast_area(Pos::new(1, 5), 2).len(), 15);
        assert!(T.blast_area(Pos::new(14, 0), 1).is_empty());
    }

    /// suitebot.md "Constants" [ours]: the default bases, and distinct bases for every count.
    #[test]
    fn home_bases_by_player_count() {
        let p = |x, y| Pos::new(x, y);
        assert_eq!(home_bases(T, 4), vec![p(3, 3), p(10, 3), p(3, 10), p(10, 10)]);
        assert_eq!(home_bases(T, 2), vec![p(3, 3), p(10, 10)]);
        assert_eq!(home_bases(T, 3), vec![p(3, 3), p(10, 3), p(3, 10)]);
        assert_eq!(home_bases(T, 5), vec![p(1, 3), p(6, 3), p(11, 3), p(1, 10), p(6, 10)]);
        assert_eq!(home_bases(T, 8)[7], p(6, 11));
        for (w, h) in [(14, 14), (3, 3), (3, 100), (100, 7)] {
            let torus = Torus::new(w, h);
            for players in MIN_PLAYERS..=MAX_PLAYERS {
                let mut bases = home_bases(torus, players);
                assert_eq!(bases.len(), players);
                assert!(bases.iter().all(|b| torus.contains(*b)));
                bases.sort_unstable();
                bases.dedup();
                assert_eq!(bases.len(), players, "{w}x{h}, {players} players");
            }
        }
    }

    /// suitebot.md "One round" 2: agents ending on one field die, a standing one included; a swap
    /// is no collision.
    #[test]
    fn collisions_by_end_field() {
        let agents = [Pos::new(5, 5), Pos::new(6, 5)];
        let after = moved(T, &agents, &[Action::Right, Action::Left]);
        assert_eq!(after, vec![Pos::new(6, 5), Pos::new(5, 5)]);
        assert_eq!(collided(&after), vec![false, false]);
        let after = moved(T, &agents, &[Action::Hold, Action::Left]);
        assert_eq!(collided(&after), vec![true, true]);
        let three = [Pos::new(1, 1), Pos::new(1, 1), Pos::new(1, 1), Pos::new(2, 1)];
        assert_eq!(collided(&three), vec![true, true, true, false]);
    }

    /// suitebot.md "One round" 3: planting replaces the bomb on the field.
    #[test]
    fn plant_keeps_order_and_replaces() {
        let mut bombs = Vec::new();
        assert_eq!(plant(&mut bombs, bomb(5, 5, 0, 4)), None);
        assert_eq!(plant(&mut bombs, bomb(1, 1, 0, 4)), None);
        assert_eq!(plant(&mut bombs, bomb(9, 1, 1, 4)), None);
        assert_eq!(
            bombs.iter().map(|b| b.at).collect::<Vec<_>>(),
            vec![Pos::new(1, 1), Pos::new(9, 1), Pos::new(5, 5)]
        );
        assert_eq!(plant(&mut bombs, bomb(9, 1, 2, 4)), Some(bomb(9, 1, 1, 4)));
        assert_eq!(bombs[1], bomb(9, 1, 2, 4));
    }

    /// suitebot.md "One round" 4: chains are transitive and only bring explosions forward.
    #[test]
    fn chains_and_schedule() {
        let bombs = [bomb(5, 5, 0, 0), bomb(6, 5, 0, 3), bomb(7, 6, 1, 2), bomb(9, 6, 1, 1), bomb(13, 13, 2, 3)];
        let explosion = explode(T, 1, &bombs);
        assert_eq!(explosion.exploded, bombs[..3].to_vec());
        assert_eq!(explosion.left, vec![bomb(9, 6, 1, 0), bomb(13, 13, 2, 2)]);
        assert_eq!(explosion_schedule(T, 1, &bombs), vec![0, 0, 0, 1, 3]);
        let danger = blast_schedule(T, 1, &bombs);
        assert_eq!(danger[T.index(Pos::new(4, 4)).unwrap()], Some(0));
        assert_eq!(danger[T.index(Pos::new(10, 7)).unwrap()], Some(1));
        assert_eq!(danger[T.index(Pos::new(0, 0)).unwrap()], Some(3));
        assert_eq!(danger[T.index(Pos::new(0, 5)).unwrap()], None);
        // Radius 2 reaches (9,6) from (7,6): the whole chain goes at once.
        assert_eq!(explosion_schedule(T, 2, &bombs), vec![0, 0, 0, 0, 3]);
    }

    /// suitebot.md "One round" 4: a field covered by two seats' bombs belongs to nobody.
    #[test]
    fn covers_merge_by_owner() {
        let explosion = explode(T, 1, &[bomb(5, 5, 0, 0), bomb(7, 5, 1, 0), bomb(7, 7, 1, 0)]);
        assert_eq!(explosion.cover_at(Pos::new(4, 4)), Some(Cover::Owner(0)));
        assert_eq!(explosion.cover_at(Pos::new(6, 5)), Some(Cover::Contested));
        assert_eq!(explosion.cover_at(Pos::new(8, 6)), Some(Cover::Owner(1)), "two bombs of one seat");
        assert_eq!(explosion.cover_at(Pos::new(0, 0)), None);
        assert_eq!(Cover::Owner(1).kill_credit(0), Some(1));
        assert_eq!(Cover::Owner(1).kill_credit(1), None);
        assert_eq!(Cover::Contested.kill_credit(0), None);
    }
}
