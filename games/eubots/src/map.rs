//! Map files and the built-in maps (eubots.md "Arena", **\[ours\]** format): a [`Map`] is the
//! starting layout, what a map file describes; the engine turns it into a [`Grid`] and the units
//! index. [`MapError`] names the line and column of every syntax problem.
//!
//! Format: one line per row, top row first; `.` empty, `#` wall, `1`..=`8` a unit of that player
//! (the digit is the seat + 1: seats are 0-based everywhere else **\[ours\]**, as on the whole
//! platform). Every row has the same width; `\r\n` line ends are accepted and
//! blank lines at the end are ignored **\[ours\]**. Sides are 1..=[`MAX_SIDE`].

use crate::grid::{Grid, Pos, Square};
use crate::rules::{MAX_PLAYERS, MAX_SIDE};
use crate::unit::Unit;
use serde::{Deserialize, Serialize};

/// What one square of a map file holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    /// `.`
    #[default]
    Empty,
    /// `#`
    Wall,
    /// `1`..=`8`: a unit of seat (digit - 1).
    Unit(u8),
}

/// Why a map file (or a map for a given player count) is refused. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum MapError {
    /// The file has no rows.
    #[error("the map is empty")]
    Empty,
    /// A character other than `.`, `#` and `1`..=`8`.
    #[error("line {line}, column {column}: unexpected {found:?} (expected '.', '#' or a player digit 1-8)")]
    BadChar {
        /// Line, 1-based.
        line: usize,
        /// Column (character), 1-based.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A row whose width differs from the first row's.
    #[error("line {line}: {width} squares wide, but line 1 is {expected}")]
    Ragged {
        /// Line, 1-based.
        line: usize,
        /// Its width.
        width: usize,
        /// The first row's width.
        expected: usize,
    },
    /// A row wider than [`MAX_SIDE`].
    #[error("line {line}: wider than {max} squares")]
    TooWide {
        /// Line, 1-based.
        line: usize,
        /// The limit.
        max: i32,
    },
    /// More than [`MAX_SIDE`] rows.
    #[error("line {line}: more than {max} rows")]
    TooTall {
        /// The first line beyond the limit.
        line: usize,
        /// The limit.
        max: i32,
    },
    /// A player of the match has no unit on the map.
    #[error("the map has no unit for player {digit} (seat {})", digit.saturating_sub(1))]
    MissingPlayer {
        /// The player's map digit (seat + 1).
        digit: u8,
    },
    /// The map has units for a player beyond the match's player count.
    #[error("the map has units for player {digit}, but the match has only {players} players")]
    ExtraPlayer {
        /// The player's map digit (seat + 1).
        digit: u8,
        /// Players in the match.
        players: usize,
    },
    /// Players start with different numbers of units and the config does not allow it.
    #[error("players start with unequal unit counts {counts:?} (set the option unequal=true to allow it)")]
    UnequalUnits {
        /// Units per seat.
        counts: Vec<u32>,
    },
    /// No built-in map exists for this many players.
    #[error("no built-in map for {players} players")]
    NoBuiltin {
        /// Players asked for.
        players: usize,
    },
}

/// A starting layout: walls, empty squares and units by owner.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Map {
    width: i32,
    height: i32,
    /// Row-major, as the file reads: `{x, y}` is `tiles[(y - 1) * width + (x - 1)]`.
    tiles: Vec<Tile>,
}

/// The standard map's size (eubots.md "Arena": 40 x 30).
const STANDARD_WIDTH: i32 = 40;
const STANDARD_HEIGHT: i32 = 30;
/// A start block is 6 x 5 = 30 units.
const BLOCK_WIDTH: i32 = 6;
const BLOCK_HEIGHT: i32 = 5;
/// Top-left corners of the 8 start blocks, clockwise from the north-west corner: NW corner,
/// north middle, NE corner, east middle, SE corner, south middle, SW corner, west middle. Block
/// `i` and block `i + 4` are point images of each other through the map's centre.
const SPOTS: [(i32, i32); 8] = [(3, 3), (18, 3), (33, 3), (33, 14), (33, 24), (18, 24), (3, 24), (3, 13)];
/// Wall blocks in the middle, `(x0, y0, x1, y1)` inclusive, point-symmetric as a set.
const WALLS: [(i32, i32, i32, i32); 5] =
    [(19, 14, 22, 17), (12, 9, 13, 12), (28, 19, 29, 22), (28, 9, 29, 12), (12, 19, 13, 22)];

impl Map {
    /// Parses a map file (see the module docs).
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let mut rows: Vec<&str> = text.lines().collect();
        while rows.last().is_some_and(|row| row.is_empty()) {
            rows.pop();
        }
        if rows.is_empty() {
            return Err(MapError::Empty);
        }
        let max_rows = usize::try_from(MAX_SIDE).unwrap_or(0);
        if rows.len() > max_rows {
            return Err(MapError::TooTall { line: max_rows + 1, max: MAX_SIDE });
        }
        let mut tiles = Vec::new();
        let mut width = 0;
        for (i, row) in rows.iter().enumerate() {
            let line = i + 1;
            let mut row_width = 0;
            for (j, found) in row.chars().enumerate() {
                let tile = match found {
                    '.' => Tile::Empty,
                    '#' => Tile::Wall,
                    '1'..='8' => Tile::Unit(found as u8 - b'1'),
                    _ => return Err(MapError::BadChar { line, column: j + 1, found }),
                };
                if j >= max_rows {
                    return Err(MapError::TooWide { line, max: MAX_SIDE });
                }
                tiles.push(tile);
                row_width = j + 1;
            }
            if line == 1 {
                width = row_width;
            } else if row_width != width {
                return Err(MapError::Ragged { line, width: row_width, expected: width });
            }
        }
        // Both sides are 1..=MAX_SIDE here: the last row is not blank and every row is as wide.
        let width = i32::try_from(width).unwrap_or(MAX_SIDE);
        let height = i32::try_from(rows.len()).unwrap_or(MAX_SIDE);
        Ok(Map { width, height, tiles })
    }

    /// The standard map for `players` (2..=8) **\[ours\]**: 40 x 30, point-symmetric wall
    /// blocks in the middle, and for each player a block of 6 x 5 = 30 units at one of 8 spots
    /// around the rim (the corners and the middles of the sides). Seat `i` takes spot
    /// `floor(8 i / players)` clockwise from the north-west corner: with 2 players the NW and SE
    /// corners (point-symmetric), with 4 all four corners, with 8 every spot.
    pub fn standard(players: usize) -> Result<Map, MapError> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(MapError::NoBuiltin { players });
        }
        let len = usize::try_from(STANDARD_WIDTH * STANDARD_HEIGHT).unwrap_or(0);
        let mut map = Map { width: STANDARD_WIDTH, height: STANDARD_HEIGHT, tiles: vec![Tile::Empty; len] };
        for (x0, y0, x1, y1) in WALLS {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    map.set(Pos::new(x, y), Tile::Wall);
                }
            }
        }
        for seat in 0..players {
            let Some(&(x0, y0)) = SPOTS.get(seat * SPOTS.len() / players) else {
                continue;
            };
            for y in y0..y0 + BLOCK_HEIGHT {
                for x in x0..x0 + BLOCK_WIDTH {
                    map.set(Pos::new(x, y), Tile::Unit(u8::try_from(seat).unwrap_or(0)));
                }
            }
        }
        Ok(map)
    }

    /// Columns.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// What `{x, y}` holds; [`Tile::Wall`] outside the map.
    pub fn tile(&self, pos: Pos) -> Tile {
        self.index(pos).and_then(|index| self.tiles.get(index)).copied().unwrap_or(Tile::Wall)
    }

    /// Units per seat, for all 8 possible seats.
    pub fn unit_counts(&self) -> [u32; MAX_PLAYERS] {
        let mut counts = [0; MAX_PLAYERS];
        for tile in &self.tiles {
            if let Tile::Unit(seat) = tile
                && let Some(count) = counts.get_mut(usize::from(*seat))
            {
                *count += 1;
            }
        }
        counts
    }

    /// Checks the map against a match of `players` and builds the grid and the units index
    /// (handles in reading order). Every seat below `players` needs a unit, no unit may belong to
    /// a seat beyond, and counts must be equal unless `unequal` (eubots.md "Arena").
    pub fn setup(&self, players: usize, unequal: bool) -> Result<(Grid, Vec<Unit>), MapError> {
        let counts = self.unit_counts();
        for (seat, count) in counts.iter().enumerate() {
            let digit = u8::try_from(seat + 1).unwrap_or(u8::MAX);
            if seat < players && *count == 0 {
                return Err(MapError::MissingPlayer { digit });
            }
            if seat >= players && *count > 0 {
                return Err(MapError::ExtraPlayer { digit, players });
            }
        }
        let counts: Vec<u32> = counts.iter().take(players).copied().collect();
        if !unequal && counts.windows(2).any(|pair| pair[0] != pair[1]) {
            return Err(MapError::UnequalUnits { counts });
        }
        let mut grid = Grid::new(self.width, self.height);
        let mut units = Vec::new();
        for pos in grid.positions().collect::<Vec<_>>() {
            let square = match self.tile(pos) {
                Tile::Empty => Square::Empty,
                Tile::Wall => Square::Wall,
                Tile::Unit(owner) => {
                    let handle = u32::try_from(units.len()).unwrap_or(u32::MAX);
                    units.push(Unit::new(owner, pos));
                    Square::Unit(handle)
                }
            };
            grid.set(pos, square);
        }
        Ok((grid, units))
    }

    fn index(&self, pos: Pos) -> Option<usize> {
        if !crate::rules::in_map(self.width, self.height, pos) {
            return None;
        }
        let index = (i64::from(pos.y) - 1) * i64::from(self.width) + (i64::from(pos.x) - 1);
        usize::try_from(index).ok()
    }

    fn set(&mut self, pos: Pos, tile: Tile) {
        if let Some(slot) = self.index(pos).and_then(|index| self.tiles.get_mut(index)) {
            *slot = tile;
        }
    }
}

/// The map in file format, one row per line (each ending in a newline): `Map::parse` reads it back.
impl std::fmt::Display for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in 1..=self.height {
            let row: String = (1..=self.width).map(|x| tile_char(self.tile(Pos::new(x, y)))).collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// A tile's character in a map file.
pub(crate) fn tile_char(tile: Tile) -> char {
    match tile {
        Tile::Empty => '.',
        Tile::Wall => '#',
        Tile::Unit(seat) => char::from_digit(u32::from(seat) + 1, 10).unwrap_or('?'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// eubots.md "Arena" [ours]: `.`, `#`, digits; rows top first; reading order; \r\n accepted.
    #[test]
    fn parses_the_format() {
        let map = Map::parse("#.1\r\n2.#\n\n").unwrap();
        assert_eq!((map.width(), map.height()), (3, 2));
        assert_eq!(map.tile(Pos::new(1, 1)), Tile::Wall);
        assert_eq!(map.tile(Pos::new(3, 1)), Tile::Unit(0));
        assert_eq!(map.tile(Pos::new(1, 2)), Tile::Unit(1));
        assert_eq!(map.tile(Pos::new(0, 1)), Tile::Wall, "outside is wall");
        assert_eq!(map.to_string(), "#.1\n2.#\n");
        assert_eq!(&map.unit_counts()[..3], [1, 1, 0]);
    }

    /// Every syntax error names its line and column.
    #[test]
    fn syntax_errors_name_line_and_column() {
        assert_eq!(Map::parse(""), Err(MapError::Empty));
        assert_eq!(Map::parse("\n\n"), Err(MapError::Empty));
        assert_eq!(Map::parse("..\n.9\n"), Err(MapError::BadChar { line: 2, column: 2, found: '9' }));
        assert_eq!(Map::parse("..\n0.\n"), Err(MapError::BadChar { line: 2, column: 1, found: '0' }));
        assert_eq!(Map::parse("...\n..\n"), Err(MapError::Ragged { line: 2, width: 2, expected: 3 }));
        assert_eq!(Map::parse("..\n\n..\n"), Err(MapError::Ragged { line: 2, width: 0, expected: 2 }));
        assert_eq!(Map::parse("\n..\n"), Err(MapError::Ragged { line: 2, width: 2, expected: 0 }));
        let wide = ".".repeat(256);
        assert_eq!(Map::parse(&wide), Err(MapError::TooWide { line: 1, max: 255 }));
        let tall = ".\n".repeat(256);
        assert_eq!(Map::parse(&tall), Err(MapError::TooTall { line: 256, max: 255 }));
        assert!(Map::parse(&".".repeat(255)).is_ok());
        let err = Map::parse("1.\n.x\n").unwrap_err().to_string();
        assert!(err.contains("line 2, column 2"), "{err}");
    }

    /// Any text parses or gives a typed error, never a panic; what parses prints back the same.
    #[test]
    fn arbitrary_text_never_panics() {
        let mut rng = arena_game::new_rng(5);
        let alphabet = ['.', '#', '1', '2', '8', '9', '\n', '\r', ' ', 'é', '\0'];
        for _ in 0..5_000 {
            let len = arena_game::rng_below(&mut rng, 40) as usize;
            let text: String =
                (0..len).map(|_| alphabet[arena_game::rng_below(&mut rng, alphabet.len() as u32) as usize]).collect();
            if let Ok(map) = Map::parse(&text) {
                assert_eq!(Map::parse(&map.to_string()), Ok(map.clone()), "{text:?}");
                for players in 0..=9 {
                    let _ = map.setup(players, false);
                }
            }
        }
    }

    /// eubots.md "Arena": players need units, no extra players, equal counts unless allowed.
    #[test]
    fn setup_checks_players_and_counts() {
        let map = Map::parse("1.2\n1.3\n").unwrap();
        assert_eq!(map.setup(2, false).unwrap_err(), MapError::ExtraPlayer { digit: 3, players: 2 });
        assert_eq!(map.setup(4, false).unwrap_err(), MapError::MissingPlayer { digit: 4 });
        assert_eq!(map.setup(3, false).unwrap_err(), MapError::UnequalUnits { counts: vec![2, 1, 1] });
        let (grid, units) = map.setup(3, true).unwrap();
        // Reading order: (1,1), (3,1), (1,2), (3,2).
        let owners: Vec<(u8, Pos)> = units.iter().map(|unit| (unit.owner, unit.pos)).collect();
        assert_eq!(owners, [(0, Pos::new(1, 1)), (1, Pos::new(3, 1)), (0, Pos::new(1, 2)), (2, Pos::new(3, 2))]);
        assert_eq!(grid.get(Pos::new(3, 2)), Square::Unit(3));
        assert_eq!(grid.get(Pos::new(2, 2)), Square::Empty);
    }

    /// eubots.md "Arena": the default map is 40 x 30, point-symmetric, 30 units per player near
    /// opposite corners; with 4 players all four corners.
    #[test]
    fn standard_map_shape() {
        for players in 2..=8 {
            let map = Map::standard(players).unwrap();
            assert_eq!((map.width(), map.height()), (40, 30));
            let counts = map.unit_counts();
            assert!(counts[..players].iter().all(|count| *count == 30), "{players}: {counts:?}");
            assert!(counts[players..].iter().all(|count| *count == 0));
            assert_eq!(Map::parse(&map.to_string()).as_ref(), Ok(&map));
            assert!(map.setup(players, false).is_ok());
        }
        let mirror = |pos: Pos| Pos::new(41 - pos.x, 31 - pos.y);
        let two = Map::standard(2).unwrap();
        let four = Map::standard(4).unwrap();
        let grid = Grid::new(40, 30);
        for pos in grid.positions() {
            let (a, b) = (two.tile(pos), two.tile(mirror(pos)));
            match (a, b) {
                (Tile::Unit(s), Tile::Unit(t)) => assert_eq!(s, 1 - t, "{pos}"),
                _ => assert_eq!(a, b, "{pos}"),
            }
            // The walls of every layout are the same, point-symmetric set.
            assert_eq!(four.tile(pos) == Tile::Wall, two.tile(pos) == Tile::Wall);
        }
        assert_eq!(two.tile(Pos::new(3, 3)), Tile::Unit(0));
        assert_eq!(two.tile(Pos::new(38, 28)), Tile::Unit(1));
        for (seat, corner) in [(0, Pos::new(3, 3)), (1, Pos::new(38, 3)), (2, Pos::new(38, 28)), (3, Pos::new(3, 28))] {
            assert_eq!(four.tile(corner), Tile::Unit(seat));
        }
        assert_eq!(Map::standard(1), Err(MapError::NoBuiltin { players: 1 }));
        assert_eq!(Map::standard(9), Err(MapError::NoBuiltin { players: 9 }));
    }
}
