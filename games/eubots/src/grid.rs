//! The arena's geometry (eubots.md "Arena"): 1-based positions ([`Pos`]), the eight
//! [`Direction`]s, what a square holds ([`Square`]) and the grid of squares ([`Grid`], the
//! spec's "map"). These are the helpers a bot SDK re-exports: neighbours, in-map checks and
//! distances live here once.
//!
//! Everything outside the rectangle `{1, 1}..={width, height}` is a wall: every lookup takes any
//! [`Pos`], including ones far outside, and answers [`Square::Wall`] there. Nothing here panics.

use serde::{Deserialize, Serialize};

/// A unit's handle: its index in the units index, stable for the whole match (eubots.md "Units").
///
/// **\[ours\]** Handles are 0-based and assigned in the map file's reading order (top row first,
/// left to right within a row).
pub type Handle = u32;

/// A square's coordinates, 1-based: `x` grows to the east (1..=width), `y` grows to the south
/// (1..=height). Any value is allowed; positions outside the map are walls.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column, 1 = west edge.
    pub x: i32,
    /// Row, 1 = north edge.
    pub y: i32,
}

impl Pos {
    /// The position `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The adjacent square in `direction` (the target of an order in that direction).
    /// Saturates at the ends of `i32`, which are walls anyway.
    pub fn step(self, direction: Direction) -> Pos {
        let (dx, dy) = direction.offset();
        Pos { x: self.x.saturating_add(dx), y: self.y.saturating_add(dy) }
    }

    /// The eight adjacent squares, in [`Direction::ALL`] order (some may be outside the map).
    pub fn neighbours(self) -> [Pos; 8] {
        Direction::ALL.map(|direction| self.step(direction))
    }

    /// Chebyshev distance: the number of single steps (in any of the 8 directions) from `self`
    /// to `other` on an open field. 1 exactly when the squares are adjacent.
    pub fn distance(self, other: Pos) -> u32 {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        dx.max(dy)
    }

    /// Manhattan distance `|dx| + |dy|` (saturating).
    pub fn manhattan(self, other: Pos) -> u32 {
        self.x.abs_diff(other.x).saturating_add(self.y.abs_diff(other.y))
    }

    /// Whether `other` is one of the eight adjacent squares.
    pub fn is_adjacent(self, other: Pos) -> bool {
        self.distance(other) == 1
    }

    /// The direction of the first step of a straight (diagonal first) path from `self` towards
    /// `target`: each coordinate moves by the sign of its difference. `None` when they are equal.
    pub fn direction_to(self, target: Pos) -> Option<Direction> {
        // `cmp` rather than a subtraction, which could overflow.
        let sign = |to: i32, from: i32| to.cmp(&from) as i32;
        Direction::from_offset(sign(target.x, self.x), sign(target.y, self.y))
    }
}

impl std::fmt::Display for Pos {
    /// `(x,y)`, 1-based.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// One of the eight directions of an order (eubots.md "Arena", **\[ours\]** offsets; `y` grows
/// downwards, so north is `y - 1`). The variant order is the spec's: E, NE, N, NW, W, SW, S, SE.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// East, (+1, 0).
    E,
    /// North-east, (+1, -1).
    NE,
    /// North, (0, -1).
    N,
    /// North-west, (-1, -1).
    NW,
    /// West, (-1, 0).
    W,
    /// South-west, (-1, +1).
    SW,
    /// South, (0, +1).
    S,
    /// South-east, (+1, +1).
    SE,
}

impl Direction {
    /// All eight, in the spec's order.
    pub const ALL: [Direction; 8] = [
        Direction::E,
        Direction::NE,
        Direction::N,
        Direction::NW,
        Direction::W,
        Direction::SW,
        Direction::S,
        Direction::SE,
    ];

    /// The translation `(dx, dy)` of one step. A bot returns the direction, never this.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::E => (1, 0),
            Direction::NE => (1, -1),
            Direction::N => (0, -1),
            Direction::NW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::SW => (-1, 1),
            Direction::S => (0, 1),
            Direction::SE => (1, 1),
        }
    }

    /// The direction whose offset is `(dx, dy)`, `None` for any other pair (including `(0, 0)`).
    pub fn from_offset(dx: i32, dy: i32) -> Option<Direction> {
        Direction::ALL.into_iter().find(|direction| direction.offset() == (dx, dy))
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::E => Direction::W,
            Direction::NE => Direction::SW,
            Direction::N => Direction::S,
            Direction::NW => Direction::SE,
            Direction::W => Direction::E,
            Direction::SW => Direction::NE,
            Direction::S => Direction::N,
            Direction::SE => Direction::NW,
        }
    }

    /// Position in [`Direction::ALL`], 0..=7.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The short name (`"NE"`), as in the spec.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::E => "E",
            Direction::NE => "NE",
            Direction::N => "N",
            Direction::NW => "NW",
            Direction::W => "W",
            Direction::SW => "SW",
            Direction::S => "S",
            Direction::SE => "SE",
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one square holds (eubots.md "Arena"): nothing, a wall, or exactly one unit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Square {
    /// An empty square.
    #[default]
    Empty,
    /// A wall; also everything outside the map.
    Wall,
    /// The living unit with this handle.
    Unit(Handle),
}

impl Square {
    /// The unit's handle, if the square holds one.
    pub const fn unit(self) -> Option<Handle> {
        match self {
            Square::Unit(handle) => Some(handle),
            _ => None,
        }
    }
}

/// The spec's "map": a `width` x `height` grid of squares, 1-based, indexed `map[x][y]`.
///
/// The fields are public so bots and tests can build grids; `squares` is column-major like the
/// spec's `map[x][y]`: square `{x, y}` is `squares[(x - 1) * height + (y - 1)]`. Lookups never
/// panic: a missing entry reads as a wall and a write to it is refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grid {
    /// Columns, 1..=[`crate::rules::MAX_SIDE`].
    pub width: i32,
    /// Rows, 1..=[`crate::rules::MAX_SIDE`].
    pub height: i32,
    /// `width * height` squares, column-major (see the type's docs).
    pub squares: Vec<Square>,
}

impl Grid {
    /// An all-empty grid; sides are clamped to `0..=`[`crate::rules::MAX_SIDE`] so that any input
    /// gives a bounded allocation.
    pub fn new(width: i32, height: i32) -> Grid {
        let width = width.clamp(0, crate::rules::MAX_SIDE);
        let height = height.clamp(0, crate::rules::MAX_SIDE);
        let len = usize::try_from(width * height).unwrap_or(0);
        Grid { width, height, squares: vec![Square::Empty; len] }
    }

    /// Whether `pos` lies inside the map (eubots.md "Arena": 1 <= x <= width, 1 <= y <= height).
    pub fn in_map(&self, pos: Pos) -> bool {
        crate::rules::in_map(self.width, self.height, pos)
    }

    /// The index of `pos` in `squares`, `None` outside the map.
    pub fn index(&self, pos: Pos) -> Option<usize> {
        if !self.in_map(pos) {
            return None;
        }
        // In i64: a deserialised grid may claim any sides, and this must not overflow.
        let index = (i64::from(pos.x) - 1) * i64::from(self.height) + (i64::from(pos.y) - 1);
        usize::try_from(index).ok()
    }

    /// The position of `squares[index]` (the inverse of [`Grid::index`]), `None` out of range.
    pub fn pos_of(&self, index: usize) -> Option<Pos> {
        let height = usize::try_from(self.height).ok().filter(|height| *height > 0)?;
        let x = i32::try_from(index / height).ok()? + 1;
        let y = i32::try_from(index % height).ok()? + 1;
        let pos = Pos::new(x, y);
        self.in_map(pos).then_some(pos)
    }

    /// What `pos` holds; [`Square::Wall`] outside the map.
    pub fn get(&self, pos: Pos) -> Square {
        self.index(pos).and_then(|index| self.squares.get(index)).copied().unwrap_or(Square::Wall)
    }

    /// Puts `square` at `pos`; `false` (and no change) outside the map.
    pub fn set(&mut self, pos: Pos, square: Square) -> bool {
        match self.index(pos).and_then(|index| self.squares.get_mut(index)) {
            Some(slot) => {
                *slot = square;
                true
            }
            None => false,
        }
    }

    /// Whether `pos` is inside the map and not a wall (a unit may stand there).
    pub fn is_open(&self, pos: Pos) -> bool {
        self.get(pos) != Square::Wall
    }

    /// Every position of the map in reading order: top row first, west to east.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (1..=self.height).flat_map(move |y| (1..=self.width).map(move |x| Pos::new(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// eubots.md "Arena" [ours]: the eight offsets, y growing downwards.
    #[test]
    fn direction_offsets_follow_the_spec() {
        let offsets: Vec<(i32, i32)> = Direction::ALL.iter().map(|d| d.offset()).collect();
        assert_eq!(offsets, [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]);
        for direction in Direction::ALL {
            assert_eq!(Direction::from_offset(direction.offset().0, direction.offset().1), Some(direction));
            assert_eq!(direction.opposite().opposite(), direction);
            assert_eq!(Pos::new(5, 5).step(direction).step(direction.opposite()), Pos::new(5, 5));
            assert_eq!(Direction::ALL[direction.index()], direction);
        }
        assert_eq!(Direction::from_offset(0, 0), None);
        assert_eq!(Direction::from_offset(2, 0), None);
    }

    /// eubots.md "Arena": everything outside {1,1}..{width,height} is a wall.
    #[test]
    fn outside_the_map_is_wall() {
        let mut grid = Grid::new(3, 2);
        assert_eq!(grid.squares.len(), 6);
        for pos in [Pos::new(0, 1), Pos::new(1, 0), Pos::new(4, 1), Pos::new(1, 3), Pos::new(i32::MIN, i32::MAX)] {
            assert_eq!(grid.get(pos), Square::Wall, "{pos}");
            assert!(!grid.set(pos, Square::Empty));
            assert!(!grid.is_open(pos));
        }
        assert!(grid.set(Pos::new(3, 2), Square::Unit(4)));
        assert_eq!(grid.get(Pos::new(3, 2)), Square::Unit(4));
        // map[x][y]: column-major.
        assert_eq!(grid.index(Pos::new(2, 1)), Some(2));
        assert_eq!(grid.pos_of(5), Some(Pos::new(3, 2)));
        assert_eq!(grid.pos_of(6), None);
        let order: Vec<Pos> = grid.positions().collect();
        assert_eq!(order[..4], [Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1), Pos::new(1, 2)]);
    }

    /// A truncated (deserialised) grid reads missing squares as walls and refuses writes.
    #[test]
    fn short_square_list_never_panics() {
        let mut grid = Grid { width: 4, height: 4, squares: vec![Square::Empty; 3] };
        assert_eq!(grid.get(Pos::new(4, 4)), Square::Wall);
        assert!(!grid.set(Pos::new(4, 4), Square::Empty));
        assert_eq!(Grid::new(-5, 1_000_000).squares.len(), 0);
    }

    /// Distances: Chebyshev counts 8-direction steps; helpers are consistent with adjacency.
    #[test]
    fn distances_and_neighbours() {
        let a = Pos::new(2, 3);
        assert_eq!(a.distance(Pos::new(5, 1)), 3);
        assert_eq!(a.manhattan(Pos::new(5, 1)), 5);
        assert!(a.neighbours().iter().all(|n| a.is_adjacent(*n)));
        assert!(!a.is_adjacent(a));
        assert_eq!(a.direction_to(Pos::new(9, 0)), Some(Direction::NE));
        assert_eq!(a.direction_to(Pos::new(2, 9)), Some(Direction::S));
        assert_eq!(a.direction_to(a), None);
        assert_eq!(Pos::new(i32::MAX, 0).step(Direction::E), Pos::new(i32::MAX, 0));
        assert_eq!(Pos::new(i32::MIN, i32::MIN).distance(Pos::new(i32::MAX, i32::MAX)), u32::MAX);
    }
}
