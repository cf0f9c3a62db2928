//! The board ([`Board`]): its size, each square's colour and the optional obstacle layer. The
//! engine and every bot's [`crate::View`] hold the same struct, and [`crate::rules`] works on it.
//!
//! Squares are stored row-major (`index = row * width + col`). Every accessor takes any [`Pos`]
//! (including squares off the board) and never panics: off the board a square has no colour, is
//! not blocked and cannot be painted.

use crate::{DIRECTIONS, Direction, Pos};
use serde::{Deserialize, Serialize};

/// A board: `width` x `height` squares, each unpainted or painted by one seat, some of them
/// possibly blocked (paint.md "Obstacles").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Columns (`j` ranges over `0..width`).
    pub width: u16,
    /// Rows (`i` ranges over `0..height`).
    pub height: u16,
    /// Colour per square, row-major: the seat that painted it, `None` when unpainted
    /// (`width * height` entries).
    pub colors: Vec<Option<u8>>,
    /// Obstacle per square, row-major (`width * height` entries): `true` squares cannot be
    /// painted, entered or shot through. All `false` unless the config lists obstacles.
    pub blocked: Vec<bool>,
}

impl Board {
    /// An unpainted board without obstacles.
    pub fn new(width: u16, height: u16) -> Board {
        let cells = usize::from(width) * usize::from(height);
        Board { width, height, colors: vec![None; cells], blocked: vec![false; cells] }
    }

    /// Whether `pos` is on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        (0..i32::from(self.height)).contains(&pos.row) && (0..i32::from(self.width)).contains(&pos.col)
    }

    /// The row-major index of `pos`, `None` off the board.
    pub fn index(&self, pos: Pos) -> Option<usize> {
        if !self.contains(pos) {
            return None;
        }
        let row = usize::try_from(pos.row).ok()?;
        let col = usize::try_from(pos.col).ok()?;
        Some(row * usize::from(self.width) + col)
    }

    /// The square at row-major `index`, `None` past the end.
    pub fn pos_of(&self, index: usize) -> Option<Pos> {
        let width = usize::from(self.width);
        if width == 0 || index >= width * usize::from(self.height) {
            return None;
        }
        Some(Pos::new(i32::try_from(index / width).ok()?, i32::try_from(index % width).ok()?))
    }

    /// The seat whose colour `pos` has; `None` when unpainted or off the board.
    pub fn color(&self, pos: Pos) -> Option<u8> {
        self.index(pos).and_then(|i| self.colors.get(i).copied().flatten())
    }

    /// Whether `pos` is an obstacle (never true off the board).
    pub fn is_blocked(&self, pos: Pos) -> bool {
        self.index(pos).and_then(|i| self.blocked.get(i).copied()).unwrap_or(false)
    }

    /// Whether an avatar may stand on `pos` and a shot may pass it: on the board and not an
    /// obstacle.
    pub fn is_open(&self, pos: Pos) -> bool {
        self.contains(pos) && !self.is_blocked(pos)
    }

    /// Paints `pos` in `seat`'s colour; returns whether it did (nothing happens off the board or
    /// on an obstacle, paint.md "Obstacles").
    pub fn paint(&mut self, pos: Pos, seat: u8) -> bool {
        if !self.is_open(pos) {
            return false;
        }
        match self.index(pos).and_then(|i| self.colors.get_mut(i)) {
            Some(cell) => {
                *cell = Some(seat);
                true
            }
            None => false,
        }
    }

    /// Marks `pos` as an obstacle and clears its paint; returns whether `pos` is on the board.
    pub fn block(&mut self, pos: Pos) -> bool {
        let Some(i) = self.index(pos) else {
            return false;
        };
        if let Some(cell) = self.colors.get_mut(i) {
            *cell = None;
        }
        match self.blocked.get_mut(i) {
            Some(blocked) => {
                *blocked = true;
                true
            }
            None => false,
        }
    }

    /// Every square, row-major.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..i32::from(self.height)).flat_map(move |row| (0..i32::from(self.width)).map(move |col| Pos::new(row, col)))
    }

    /// The obstacles, row-major.
    pub fn obstacles(&self) -> Vec<Pos> {
        self.squares().filter(|pos| self.is_blocked(*pos)).collect()
    }

    /// How many squares have `seat`'s colour: its score (paint.md "End and score").
    pub fn count(&self, seat: u8) -> u32 {
        let count = self.colors.iter().filter(|color| **color == Some(seat)).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// The squares next to `pos` that are on the board, with the direction leading to each, in
    /// [`DIRECTIONS`] order (obstacles included: check [`Board::is_open`] to walk there).
    pub fn neighbours(&self, pos: Pos) -> Vec<(Direction, Pos)> {
        DIRECTIONS
            .into_iter()
            .map(|direction| (direction, pos.step(direction)))
            .filter(|(_, next)| self.contains(*next))
            .collect()
    }

    /// The compact text board **\[ours\]** of [`crate::Paint`]'s and [`crate::View`]'s `Display`: one line per
    /// row, one character per square: the avatar of seat `s` as the `s`-th uppercase letter
    /// (`A`, `B`, ...), a square painted by it as the lowercase letter, `.` unpainted, `#` an
    /// obstacle. Seats past `z` show as `?` / `!`.
    pub fn text(&self, positions: &[Pos]) -> String {
        let mut out = String::with_capacity((usize::from(self.width) + 1) * usize::from(self.height));
        for row in 0..i32::from(self.height) {
            if row > 0 {
                out.push('\n');
            }
            for col in 0..i32::from(self.width) {
                let pos = Pos::new(row, col);
                let avatar = positions.iter().position(|p| *p == pos);
                let cell = match (avatar, self.color(pos)) {
                    (Some(seat), _) => seat_letter(seat).to_ascii_uppercase(),
                    (None, Some(seat)) => seat_letter(usize::from(seat)),
                    (None, None) if self.is_blocked(pos) => '#',
                    (None, None) => '.',
                };
                out.push(if avatar.is_some() && cell == '?' { '!' } else { cell });
            }
        }
        out
    }
}

/// The lowercase letter of `seat` (`a` for seat 0), `?` past `z`.
pub fn seat_letter(seat: usize) -> char {
    u8::try_from(seat).ok().filter(|s| *s < 26).map_or('?', |s| char::from(b'a' + s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_never_panic_off_the_board() {
        let mut board = Board::new(3, 2);
        for pos in [Pos::new(-1, 0), Pos::new(0, -1), Pos::new(2, 0), Pos::new(0, 3), Pos::new(i32::MAX, i32::MIN)] {
            assert!(!board.contains(pos));
            assert_eq!(board.index(pos), None);
            assert_eq!(board.color(pos), None);
            assert!(!board.is_blocked(pos));
            assert!(!board.paint(pos, 0));
            assert!(!board.block(pos));
        }
        assert_eq!(board.index(Pos::new(1, 2)), Some(5));
        assert_eq!(board.pos_of(5), Some(Pos::new(1, 2)));
        assert_eq!(board.pos_of(6), None);
        assert_eq!(board.squares().count(), 6);
    }

    /// paint.md "Obstacles" **\[ours\]**: an obstacle cannot be painted.
    #[test]
    fn obstacles_take_no_paint() {
        let mut board = Board::new(3, 3);
        assert!(board.paint(Pos::new(1, 1), 0));
        assert!(board.block(Pos::new(1, 1)));
        assert_eq!(board.color(Pos::new(1, 1)), None);
        assert!(!board.paint(Pos::new(1, 1), 0));
        assert!(!board.is_open(Pos::new(1, 1)));
        assert_eq!(board.obstacles(), vec![Pos::new(1, 1)]);
        assert_eq!(board.count(0), 0);
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let board = Board::new(3, 3);
        let corner: Vec<Direction> = board.neighbours(Pos::new(0, 0)).into_iter().map(|(d, _)| d).collect();
        assert_eq!(corner, vec![Direction::East, Direction::South, Direction::SouthEast]);
        assert_eq!(board.neighbours(Pos::new(1, 1)).len(), 8);
    }

    #[test]
    fn text_shows_avatars_paint_and_obstacles() {
        let mut board = Board::new(4, 2);
        board.paint(Pos::new(0, 0), 0);
        board.paint(Pos::new(0, 1), 0);
        board.paint(Pos::new(1, 3), 1);
        board.block(Pos::new(1, 0));
        assert_eq!(board.text(&[Pos::new(0, 0), Pos::new(1, 3)]), "Aa..\n#..B");
    }
}
