//! Squares and directions (paint.md "State" and "Actions"): a square is `[i, j]` with `i` the row
//! (0 at the top, `0..height`) and `j` the column (`0..width`); a direction is one of the 8 king
//! moves `[di, dj]`, `di` being the row delta. Both serialise as the protocol's two-number arrays.

use serde::{Deserialize, Serialize};

/// A square `[row, col]` (paint.md's `[i, j]`). Signed, so that `square + direction` is always
/// representable and a square off the board is a value like any other (the rules drop or stop
/// what lands there). Serialises as `[row, col]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Pos {
    /// Row `i`, 0 at the top.
    pub row: i32,
    /// Column `j`, 0 at the left.
    pub col: i32,
}

impl Pos {
    /// The square at `row`, `col`.
    pub const fn new(row: i32, col: i32) -> Pos {
        Pos { row, col }
    }

    /// The neighbouring square in `direction` (saturating at the `i32` range, which no board
    /// comes near).
    pub fn step(self, direction: Direction) -> Pos {
        self.offset(direction, 1)
    }

    /// The square `n` steps away in `direction` (saturating).
    pub fn offset(self, direction: Direction, n: i32) -> Pos {
        let [di, dj] = direction.delta();
        Pos { row: self.row.saturating_add(di.saturating_mul(n)), col: self.col.saturating_add(dj.saturating_mul(n)) }
    }
}

impl From<[i32; 2]> for Pos {
    fn from([row, col]: [i32; 2]) -> Pos {
        Pos { row, col }
    }
}

impl From<Pos> for [i32; 2] {
    fn from(pos: Pos) -> [i32; 2] {
        [pos.row, pos.col]
    }
}

impl std::fmt::Display for Pos {
    /// `[row, col]`, as in the protocol.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.row, self.col)
    }
}

/// One of the 8 king directions. Compass names read the board with row 0 at the top: `North` is
/// `[-1, 0]`. Serialises as its `[di, dj]` vector; deserialising any other vector fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "[i32; 2]", into = "[i32; 2]")]
pub enum Direction {
    /// `[-1, -1]`.
    NorthWest,
    /// `[-1, 0]`.
    North,
    /// `[-1, 1]`.
    NorthEast,
    /// `[0, -1]`.
    West,
    /// `[0, 1]`.
    East,
    /// `[1, -1]`.
    SouthWest,
    /// `[1, 0]`.
    South,
    /// `[1, 1]`.
    SouthEast,
}

/// The 8 directions in the one order used everywhere (legal action lists, neighbours): by `di`,
/// then `dj` (the original engine's `VALID_DIRECTIONS` order).
pub const DIRECTIONS: [Direction; 8] = [
    Direction::NorthWest,
    Direction::North,
    Direction::NorthEast,
    Direction::West,
    Direction::East,
    Direction::SouthWest,
    Direction::South,
    Direction::SouthEast,
];

impl Direction {
    /// The vector `[di, dj]`.
    pub const fn delta(self) -> [i32; 2] {
        match self {
            Direction::NorthWest => [-1, -1],
            Direction::North => [-1, 0],
            Direction::NorthEast => [-1, 1],
            Direction::West => [0, -1],
            Direction::East => [0, 1],
            Direction::SouthWest => [1, -1],
            Direction::South => [1, 0],
            Direction::SouthEast => [1, 1],
        }
    }

    /// The direction with vector `delta`; `None` for `[0, 0]` and every vector that is not a
    /// king move (paint.md "Actions").
    pub fn from_delta(delta: [i32; 2]) -> Option<Direction> {
        DIRECTIONS.into_iter().find(|direction| direction.delta() == delta)
    }

    /// The direction pointing the other way (a shot's range is measured this way).
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NorthWest => Direction::SouthEast,
            Direction::North => Direction::South,
            Direction::NorthEast => Direction::SouthWest,
            Direction::West => Direction::East,
            Direction::East => Direction::West,
            Direction::SouthWest => Direction::NorthEast,
            Direction::South => Direction::North,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    /// Short compass name: `N`, `NE`, ..., `NW`.
    pub const fn short_name(self) -> &'static str {
        match self {
            Direction::NorthWest => "NW",
            Direction::North => "N",
            Direction::NorthEast => "NE",
            Direction::West => "W",
            Direction::East => "E",
            Direction::SouthWest => "SW",
            Direction::South => "S",
            Direction::SouthEast => "SE",
        }
    }
}

impl From<Direction> for [i32; 2] {
    fn from(direction: Direction) -> [i32; 2] {
        direction.delta()
    }
}

impl TryFrom<[i32; 2]> for Direction {
    type Error = crate::Invalid;

    fn try_from(delta: [i32; 2]) -> Result<Direction, crate::Invalid> {
        Direction::from_delta(delta).ok_or(crate::Invalid::BadDirection { direction: delta })
    }
}

impl std::fmt::Display for Direction {
    /// The short compass name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.short_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// paint.md "Actions": exactly the 8 king vectors are directions; `[0, 0]` is not.
    #[test]
    fn exactly_the_king_vectors_are_directions() {
        let mut found = 0;
        for di in -2i32..=2 {
            for dj in -2i32..=2 {
                let king = (di, dj) != (0, 0) && di.abs() <= 1 && dj.abs() <= 1;
                let direction = Direction::from_delta([di, dj]);
                assert_eq!(direction.is_some(), king, "[{di}, {dj}]");
                if let Some(direction) = direction {
                    found += 1;
                    assert_eq!(direction.delta(), [di, dj]);
                    assert_eq!(direction.opposite().delta(), [-di, -dj]);
                }
            }
        }
        assert_eq!(found, 8);
        let mut sorted = DIRECTIONS;
        sorted.sort_by_key(|direction| direction.delta());
        assert_eq!(sorted, DIRECTIONS, "DIRECTIONS is in (di, dj) order");
    }

    #[test]
    fn positions_and_directions_serialise_as_vectors() {
        assert_eq!(serde_json::to_string(&Pos::new(2, 7)).ok(), Some("[2,7]".to_string()));
        assert_eq!(serde_json::from_str::<Pos>("[-1,3]").ok(), Some(Pos::new(-1, 3)));
        assert_eq!(serde_json::to_string(&Direction::SouthWest).ok(), Some("[1,-1]".to_string()));
        assert_eq!(serde_json::from_str::<Direction>("[0,1]").ok(), Some(Direction::East));
        assert!(serde_json::from_str::<Direction>("[0,0]").is_err());
        assert_eq!(Pos::new(3, 3).offset(Direction::NorthEast, 2), Pos::new(1, 5));
    }
}
