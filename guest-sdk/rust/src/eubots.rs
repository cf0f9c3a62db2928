//! Eubots bots: the prelude, the [`EubotsBot`] trait, the
//! [`export_eubots_bot!`](crate::export_eubots_bot) macro, and movement helpers
//! ([`towards`], [`DistanceField`]).
//!
//! The view a bot gets is the engine's own [`arena_eubots::View`] (inside [`crate::View`],
//! converted from what the host sent on first read: [`crate::Lazy`]), so its helpers
//! (`own_units`, `units_of`, `unit_at`, `enemy_at`, `adjacent_enemies`, `square`,
//! `max_orders`, `check`, `validate`) are the very rules the host plays by; [`Pos`] has the
//! geometry (`step`, `neighbours`, `distance`, `direction_to`, `is_adjacent`), [`Direction`] the
//! eight directions, and [`rules`](arena_eubots::rules) the turn resolution
//! ([`rules::resolve_turn`](arena_eubots::rules::resolve_turn)) for bots that simulate ahead.
//!
//! [`Pos`]: arena_eubots::Pos
//! [`Direction`]: arena_eubots::Direction

use crate::{InitInfo, TurnInfo};
use arena_eubots::{Direction, Grid, Pos, Square};

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    // As for SuiteBot: every game's world is called `bot`, and wit-bindgen names a crate-root
    // macro after the world, so the bindings are generated for an SDK-local alias world that
    // includes `arena:eubots/bot@0.2.0` unchanged.
    wit_bindgen::generate!({
        path: "../../wit/eubots",
        inline: "package arena-sdk:eubots;\nworld eubots-bot { include arena:eubots/bot@0.2.0; }",
        world: "arena-sdk:eubots/eubots-bot",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
            "arena:eubots/types@0.2.0": generate,
        },
        pub_export_macro: true,
        export_macro_name: "__export_eubots_world",
        default_bindings_module: "arena_sdk::eubots::bindings",
    });
}

use bindings::arena::eubots::types as wit;

/// Everything an Eubots bot needs: `use arena_sdk::eubots::prelude::*;`.
pub mod prelude {
    pub use super::{DIRECTIONS, DistanceField, EubotsBot, View, towards};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, Lazy, TurnInfo, log};
    pub use arena_eubots::rules::{self, DEFENCE, MAX_ORDERS};
    pub use arena_eubots::{
        Action, Direction, Grid, Handle, IgnoredOrder, Metrics, Order, OrderError, Pos, Square, Status, Unit,
        Validation, View as BoardState,
    };
}

/// What an Eubots bot sees: the engine's [`arena_eubots::View`], converted from what the host
/// sent when the bot first reads it ([`Lazy`](crate::Lazy): a bot that answers without looking
/// pays no fuel for the conversion), plus this turn's budget. Natively, build one with
/// `state: Lazy::from(engine_view)`.
pub type View = crate::View<crate::Lazy<arena_eubots::View>>;

/// The eight directions, in the spec's order (E, NE, N, NW, W, SW, S, SE).
pub const DIRECTIONS: [Direction; 8] = Direction::ALL;

/// An Eubots bot. One value lives for the whole match (and is rebuilt with `Default` after a
/// restart); its fields persist between turns.
pub trait EubotsBot: Default + 'static {
    /// Called once before the first turn, and again after every restart. Budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// Chooses this turn's orders, at most one per own unit (a unit without an order waits with
    /// status INVALID). Bad single orders are ignored and reported in the next view's `ignored`;
    /// more orders than [`arena_eubots::View::max_orders`] is an invalid action: none apply.
    fn act(&mut self, view: &View) -> Vec<arena_eubots::Order>;
}

/// Exports a type implementing [`EubotsBot`] as the component's `arena:eubots/player`
/// interface. See [`crate::__export_bot`] for what a native build gets instead.
#[macro_export]
macro_rules! export_eubots_bot {
    ($bot:ty) => {
        $crate::__export_bot!($bot, eubots, __export_eubots_world);
    };
}

/// The directions from `from` towards `to`, best first: sorted by the distance
/// ([`Pos::distance`]) left after the step, then by the Manhattan distance, then in
/// [`DIRECTIONS`] order. The first is [`Pos::direction_to`]'s straight step; the later ones are
/// detours for when it is blocked. Walls are not looked at: filter with
/// [`Grid::is_open`](arena_eubots::Grid::is_open) or [`arena_eubots::View::square`].
pub fn towards(from: Pos, to: Pos) -> [Direction; 8] {
    let mut directions = DIRECTIONS;
    directions.sort_by_key(|direction| {
        let next = from.step(*direction);
        (next.distance(to), next.manhattan(to))
    });
    directions
}

/// Step counts over the map from a set of squares (breadth first, 8 directions), going around
/// walls; units do not block (they move). Build one per turn from, say, every enemy's square,
/// then walk each unit downhill ([`DistanceField::downhill`]).
///
/// Fuel: the search grows one layer at a time on bit sets, 64 squares of a row per machine word,
/// and [`DistanceField::reaching`] stops as soon as the squares that matter (say, one's own units)
/// have their count; a whole 40 x 30 map still costs about 200k fuel, a fair share of a turn in a
/// long match (see the README).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistanceField {
    width: i32,
    height: i32,
    /// Steps per square, row-major (`{x, y}` at `(y - 1) * width + (x - 1)`); [`UNSEEN`] where
    /// the search did not get (walls included).
    steps: Vec<u16>,
}

/// A square the search did not reach.
const UNSEEN: u16 = u16::MAX;

impl DistanceField {
    /// Unreachable, a wall, or outside the map.
    pub const UNREACHABLE: u32 = u32::MAX;

    /// The step counts on `grid` from `sources` to every square (sources that are walls or
    /// outside are skipped).
    pub fn new(grid: &Grid, sources: impl IntoIterator<Item = Pos>) -> DistanceField {
        Self::reaching(grid, sources, &[])
    }

    /// As [`DistanceField::new`], but the search stops once every square of `goals` has its count
    /// (or cannot be reached): squares farther from the sources than the farthest goal may read
    /// as unreachable. Everything [`DistanceField::downhill`] needs from a goal is counted. An
    /// empty `goals` searches the whole map.
    pub fn reaching(grid: &Grid, sources: impl IntoIterator<Item = Pos>, goals: &[Pos]) -> DistanceField {
        let (width, height) = (grid.width.max(0), grid.height.max(0));
        let columns = usize::try_from(width).unwrap_or(0);
        let rows = usize::try_from(height).unwrap_or(0);
        let mut field = DistanceField { width, height, steps: vec![UNSEEN; columns * rows] };
        if columns == 0 || rows == 0 {
            return field;
        }
        // Bit sets of squares: per row, `words` 64-bit words, bit `x - 1` of the row for column `x`.
        let words = columns.div_ceil(64);
        let bit = |index: usize| ((index / columns) * words + (index % columns) / 64, 1u64 << (index % columns % 64));
        // `avail`: open squares not reached yet (the grid is column-major; a missing entry reads as
        // a wall).
        let mut avail = vec![0u64; words * rows];
        let mut squares = grid.squares.iter();
        for x in 0..columns {
            for y in 0..rows {
                if squares.next().is_some_and(|square| *square != Square::Wall)
                    && let Some(word) = avail.get_mut(y * words + x / 64)
                {
                    *word |= 1 << (x % 64);
                }
            }
        }
        let mut frontier = vec![0u64; words * rows];
        for pos in sources {
            let Some(index) = field.index(pos) else {
                continue;
            };
            let (word, mask) = bit(index);
            if let (Some(open), Some(front), Some(slot)) =
                (avail.get_mut(word), frontier.get_mut(word), field.steps.get_mut(index))
                && *open & mask != 0
            {
                *open &= !mask;
                *front |= mask;
                *slot = 0;
            }
        }
        // The goals not counted yet, as a bit set, and how many there are.
        let mut pending = vec![0u64; words * rows];
        let mut left = 0usize;
        for pos in goals {
            let Some(index) = field.index(*pos) else {
                continue;
            };
            let (word, mask) = bit(index);
            if let (Some(open), Some(goal)) = (avail.get(word), pending.get_mut(word))
                && *open & mask != 0
                && *goal & mask == 0
            {
                *goal |= mask;
                left += 1;
            }
        }
        let search_all = goals.is_empty();
        let mut grown = vec![0u64; words * rows];
        for steps in 1..UNSEEN {
            if !search_all && left == 0 {
                break;
            }
            // Grow the frontier by one square in all 8 directions: first up and down (whole rows),
            // then left and right within each row, across word boundaries.
            grown.copy_from_slice(&frontier);
            let below = frontier.get(words..).unwrap_or(&[]);
            for (word, from) in grown.iter_mut().zip(below) {
                *word |= from;
            }
            if let Some(above) = grown.get_mut(words..) {
                for (word, from) in above.iter_mut().zip(&frontier) {
                    *word |= from;
                }
            }
            let mut grew = false;
            for (y, (row, (open, (next, goal)))) in grown
                .chunks_exact(words)
                .zip(
                    avail
                        .chunks_exact_mut(words)
                        .zip(frontier.chunks_exact_mut(words).zip(pending.chunks_exact_mut(words))),
                )
                .enumerate()
            {
                let mut carry = 0;
                for (i, (word, (open, (next, goal)))) in
                    row.iter().zip(open.iter_mut().zip(next.iter_mut().zip(goal.iter_mut()))).enumerate()
                {
                    let right = row.get(i + 1).map_or(0, |word| word << 63);
                    let fresh = (word | (word << 1) | carry | (word >> 1) | right) & *open;
                    carry = word >> 63;
                    *open &= !fresh;
                    *next = fresh;
                    if *goal & fresh != 0 {
                        left = left.saturating_sub((*goal & fresh).count_ones() as usize);
                        *goal &= !fresh;
                    }
                    let mut bits = fresh;
                    while bits != 0 {
                        let x = i * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if let Some(slot) = field.steps.get_mut(y * columns + x) {
                            *slot = steps;
                        }
                    }
                    grew |= fresh != 0;
                }
            }
            if !grew {
                break;
            }
        }
        field
    }

    /// The index of `pos` in `steps`, `None` outside the map.
    fn index(&self, pos: Pos) -> Option<usize> {
        if !(1..=self.width).contains(&pos.x) || !(1..=self.height).contains(&pos.y) {
            return None;
        }
        let index = (pos.y - 1) * self.width + (pos.x - 1);
        usize::try_from(index).ok()
    }

    /// Steps from `pos` to the nearest source, [`Self::UNREACHABLE`] if none can be reached (or
    /// `pos` is a wall or outside the map).
    pub fn get(&self, pos: Pos) -> u32 {
        match self.index(pos).and_then(|index| self.steps.get(index)).copied() {
            Some(steps) if steps != UNSEEN => u32::from(steps),
            _ => Self::UNREACHABLE,
        }
    }

    /// The directions from `from` whose step gets strictly closer to a source, best first (ties
    /// in [`DIRECTIONS`] order). Empty on a source or where no source is reachable.
    pub fn downhill(&self, from: Pos) -> Vec<Direction> {
        let here = self.get(from);
        if here == Self::UNREACHABLE {
            return Vec::new();
        }
        let mut directions: Vec<(u32, Direction)> = DIRECTIONS
            .into_iter()
            .map(|direction| (self.get(from.step(direction)), direction))
            .filter(|(steps, _)| *steps < here)
            .collect();
        directions.sort_by_key(|(steps, _)| *steps);
        directions.into_iter().map(|(_, direction)| direction).collect()
    }
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitView = wit::View;
    pub type WitAction = Vec<wit::Order>;

    pub fn init<B: EubotsBot>(slot: &RefCell<Option<B>>, info: WitInitInfo) {
        crate::__private::start(slot, |bot| bot.init(&InitInfo::from(info)));
    }

    pub fn take_turn<B: EubotsBot>(slot: &RefCell<Option<B>>, view: WitView) -> WitAction {
        let view = crate::View { info: TurnInfo::from(view.info), state: lazy_board(view) };
        let answer = crate::__private::with_bot(slot, |bot: &mut B| bot.act(&view).iter().map(order_to_wit).collect());
        keep_if_read(view.state);
        answer
    }
}

thread_local! {
    /// The last view this instance converted, whose grid the next conversion reuses (an older
    /// grid serves as well as last turn's, see `next_grid`). A restart is a fresh instance, so
    /// it starts empty again.
    static PREVIOUS: std::cell::RefCell<Option<arena_eubots::View>> = const { std::cell::RefCell::new(None) };
}

/// The engine's view of `view`, converted on first read from the grid of the last view this
/// instance converted.
fn lazy_board(view: wit::View) -> crate::Lazy<arena_eubots::View> {
    crate::Lazy::new(move || view_from_wit(view, PREVIOUS.with(|previous| previous.borrow_mut().take())))
}

/// Keeps this turn's view for the next conversion if the bot read it; otherwise the one kept
/// before stays.
fn keep_if_read(board: crate::Lazy<arena_eubots::View>) {
    if let Some(state) = board.into_read() {
        PREVIOUS.with(|previous| *previous.borrow_mut() = Some(state));
    }
}

arena_eubots::wit_glue!(crate::common::wit::TurnInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_eubots::wit_glue::{SQUARE_WALL, grid_from_wit, next_grid};

    /// The row-major WIT map becomes the engine's column-major grid, units placed by handle.
    #[test]
    fn grid_is_rebuilt_from_kinds_and_units() {
        // 3 x 2: row 1 `.#.`, row 2 `1..` (the unit's kind is 2).
        let kinds = [0, SQUARE_WALL, 0, 2, 0, 0];
        let units = [None, Some(arena_eubots::Unit::new(0, Pos::new(1, 2)))];
        let grid = grid_from_wit(3, 2, &kinds, &units);
        assert_eq!(grid.get(Pos::new(2, 1)), Square::Wall);
        assert_eq!(grid.get(Pos::new(1, 2)), Square::Unit(1));
        assert_eq!(grid.get(Pos::new(3, 2)), Square::Empty);
        assert_eq!(grid.squares.len(), 6);
    }

    /// The grid carried over from the previous turn equals the grid rebuilt from scratch, over
    /// random walls and random unit moves, deaths and births; other sides rebuild.
    #[test]
    fn a_carried_over_grid_equals_a_rebuilt_one() {
        let (width, height) = (7, 5);
        let mut rng = crate::rng::new_rng(9);
        let kinds: Vec<u8> = (0..width * height).map(|_| u8::from(crate::rng::rng_below(&mut rng, 5) == 0)).collect();
        let mut previous: Option<(Grid, Vec<Option<arena_eubots::Unit>>)> = None;
        for _turn in 0..200 {
            // Up to 6 units on distinct free squares, some dead.
            let mut free: Vec<Pos> = (0..width * height)
                .filter(|index| kinds[*index as usize] != SQUARE_WALL)
                .map(|index| Pos::new(index % width + 1, index / width + 1))
                .collect();
            let units: Vec<Option<arena_eubots::Unit>> = (0..6)
                .map(|owner| {
                    let pick = crate::rng::rng_below(&mut rng, free.len() as u32 + 2) as usize;
                    (pick < free.len()).then(|| arena_eubots::Unit::new(owner % 2, free.swap_remove(pick)))
                })
                .collect();
            let fresh = grid_from_wit(width, height, &kinds, &units);
            let carried = next_grid(previous.clone(), width, height, &kinds, &units);
            assert_eq!(carried, fresh);
            // A bot that does not read a view keeps the one before: the next conversion then
            // starts from a grid some turns old.
            if crate::rng::rng_below(&mut rng, 3) != 0 {
                previous = Some((carried, units));
            }
        }
        let other_sides = next_grid(previous, 5, 7, &kinds, &[]);
        assert_eq!(other_sides, grid_from_wit(5, 7, &kinds, &[]));
    }

    /// A WIT view as the host sends it: 4 x 3, one wall, units 0 (seat 0) and 2 (seat 1) alive,
    /// unit 1 dead; both living units moved east last turn.
    fn wit_view(turn: u32, x0: u8) -> wit::View {
        let alive = |owner, x, y| wit::Unit { owner, x, y, defence: 2, last_action: 1, last_direction: 0, status: 1 };
        let dead = wit::Unit { owner: 0, x: 0, y: 0, defence: 0, last_action: 0, last_direction: 0, status: 0 };
        let mut squares = vec![0; 12];
        squares[5] = SQUARE_WALL;
        squares[usize::from(x0 - 1)] = 2;
        squares[11] = 2;
        wit::View {
            metrics: wit::Metrics {
                width: 4,
                height: 3,
                players: 2,
                player: 0,
                total_units: 3,
                units_remaining: vec![1, 1],
                turn,
            },
            squares,
            units: vec![alive(0, x0, 1), dead, alive(1, 4, 3)],
            ignored: Vec::new(),
            info: crate::common::wit::TurnInfo {
                turn,
                turn_fuel_remaining: 1,
                game_fuel_remaining: 1,
                missed_turns: 0,
            },
        }
    }

    /// A board converts what the host sent only when read; one not read leaves the view kept
    /// before it, one read is kept, and either way the next board's grid is right.
    #[test]
    fn a_board_converts_on_first_read_and_the_last_one_read_is_kept() {
        let kept = || PREVIOUS.with(|previous| previous.borrow().as_ref().map(|view| view.metrics.turn));
        let first = lazy_board(wit_view(1, 1));
        assert!(!first.is_converted(), "nothing is converted before a read");
        assert_eq!(first.unit(0).map(|unit| unit.pos), Some(Pos::new(1, 1)));
        assert!(first.unit(1).is_none(), "defence 0 is a dead unit");
        let last_order = first.unit(2).and_then(|unit| unit.last_order);
        assert_eq!(last_order, Some(arena_eubots::Order::walk(2, Direction::E)));
        assert_eq!(first.square(Pos::new(2, 2)), Square::Wall);
        keep_if_read(first);
        assert_eq!(kept(), Some(1));

        keep_if_read(lazy_board(wit_view(2, 2)));
        assert_eq!(kept(), Some(1), "an unread board leaves the older view");

        let third = lazy_board(wit_view(3, 3));
        assert_eq!(third.square(Pos::new(3, 1)), Square::Unit(0));
        assert_eq!(third.square(Pos::new(1, 1)), Square::Empty);
        assert_eq!(third.map, grid_from_wit(4, 3, &wit_view(3, 3).squares, &third.units));
        assert_eq!(format!("{third:?}"), format!("{:?}", *third), "Debug shows the engine's view");
        assert_eq!(crate::Lazy::from((*third).clone()), third);
        assert_eq!(kept(), None, "the conversion took the kept view");
        keep_if_read(third);
        assert_eq!(kept(), Some(3));
    }

    /// A plain breadth-first search, square by square.
    fn naive(grid: &Grid, sources: &[Pos]) -> Vec<u32> {
        let mut steps = vec![DistanceField::UNREACHABLE; grid.squares.len()];
        let mut queue = Vec::new();
        for pos in sources {
            if grid.is_open(*pos) && steps[grid.index(*pos).unwrap()] != 0 {
                steps[grid.index(*pos).unwrap()] = 0;
                queue.push(*pos);
            }
        }
        let mut head = 0;
        while let Some(&pos) = queue.get(head) {
            head += 1;
            for next in pos.neighbours() {
                if grid.is_open(next) && steps[grid.index(next).unwrap()] == DistanceField::UNREACHABLE {
                    steps[grid.index(next).unwrap()] = steps[grid.index(pos).unwrap()] + 1;
                    queue.push(next);
                }
            }
        }
        steps
    }

    /// The bit-set search agrees with a plain one, across word boundaries (maps wider than 64)
    /// and with early stops at goals.
    #[test]
    fn distance_field_matches_a_plain_search() {
        let mut rng = crate::rng::new_rng(3);
        for (width, height) in [(1, 1), (40, 30), (64, 3), (65, 4), (130, 5), (3, 70), (255, 2)] {
            for _ in 0..5 {
                let mut grid = Grid::new(width, height);
                let positions: Vec<Pos> = grid.positions().collect();
                for pos in &positions {
                    if crate::rng::rng_below(&mut rng, 4) == 0 {
                        grid.set(*pos, Square::Wall);
                    }
                }
                let pick = |rng: &mut crate::rng::GameRng| {
                    positions[crate::rng::rng_below(rng, positions.len() as u32) as usize]
                };
                let sources: Vec<Pos> = (0..3).map(|_| pick(&mut rng)).chain([Pos::new(0, 0)]).collect();
                let expected = naive(&grid, &sources);
                let field = DistanceField::new(&grid, sources.clone());
                for pos in &positions {
                    assert_eq!(field.get(*pos), expected[grid.index(*pos).unwrap()], "{width}x{height} {pos}");
                }
                let goals: Vec<Pos> = (0..2).map(|_| pick(&mut rng)).collect();
                let partial = DistanceField::reaching(&grid, sources, &goals);
                for goal in &goals {
                    assert_eq!(partial.get(*goal), field.get(*goal));
                    assert_eq!(partial.downhill(*goal), field.downhill(*goal));
                }
            }
        }
    }

    /// Steps go around walls; downhill directions get strictly closer.
    #[test]
    fn distance_field_goes_around_walls() {
        // 5 x 3 with a wall column in the middle except at the bottom row.
        let mut grid = Grid::new(5, 3);
        grid.set(Pos::new(3, 1), Square::Wall);
        grid.set(Pos::new(3, 2), Square::Wall);
        let field = DistanceField::new(&grid, [Pos::new(5, 1)]);
        assert_eq!(field.get(Pos::new(5, 1)), 0);
        assert_eq!(field.get(Pos::new(1, 1)), 4, "diagonally under the wall and up again");
        assert_eq!(field.get(Pos::new(3, 1)), DistanceField::UNREACHABLE);
        assert_eq!(field.get(Pos::new(0, 1)), DistanceField::UNREACHABLE);
        let first = field.downhill(Pos::new(2, 1));
        assert_eq!(first.first(), Some(&Direction::S), "{first:?}");
        assert!(field.downhill(Pos::new(5, 1)).is_empty());
        assert_eq!(towards(Pos::new(1, 1), Pos::new(4, 4))[0], Direction::SE);
    }
}
