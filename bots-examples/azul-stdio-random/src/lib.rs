//! What a line-protocol Azul bot needs, in plain std Rust: a model of the game built from the
//! host's text messages ([`State::apply`]), the legal moves ([`State::legal_moves`]) and a small
//! random generator. The protocol is the arena's Azul text protocol (README, "Line-protocol
//! bots"): a greeting `azul <seat> <restarts>`, then per turn `turn <n> <ms>`, state lines
//! (`round`, `factories`, `center`, `marker`, `board`, `last`) and `go`; the answer is `d c l`.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{self, BufRead, Write};

/// Colour letters in the game's fixed order.
pub const COLOURS: [char; 5] = ['g', 'o', 'b', 'y', 'r'];

/// One move: source (0 = center, 1..5 = factories), colour letter, line (5 = floor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// 0 = center, 1..=5 = factories.
    pub source: u8,
    /// Index into [`COLOURS`].
    pub colour: usize,
    /// 0..=4 = pattern lines, 5 = floor.
    pub line: u8,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.source, COLOURS[self.colour % 5], self.line)
    }
}

/// One player's board as far as legality goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Board {
    /// Pattern lines: (tiles, colour index).
    pub lines: [(u8, Option<usize>); 5],
    /// Wall, `[row][column]`.
    pub wall: [[bool; 5]; 5],
}

/// What the bot knows of the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    /// This bot's seat (from the greeting).
    pub seat: usize,
    /// Restarts so far (from the greeting).
    pub restarts: u32,
    /// This turn's number (from `turn`).
    pub turn: u32,
    /// Thinking time left this turn, in fuel-equivalent ms (from `turn`).
    pub ms: u64,
    /// Tiles per colour: index 0 = center, 1..=5 = factories.
    pub sources: [[u8; 5]; 6],
    /// Both boards, by seat.
    pub boards: [Board; 2],
}

/// Tiles per colour in a protocol tile string (`-` = none); unknown letters are ignored.
fn counts(text: &str) -> [u8; 5] {
    let mut counts = [0u8; 5];
    for letter in text.chars() {
        if let Some(index) = COLOURS.iter().position(|c| *c == letter) {
            counts[index] = counts[index].saturating_add(1);
        }
    }
    counts
}

impl State {
    /// Applies one line from the host; returns `true` on `go` (time to answer). Unknown lines
    /// are ignored.
    pub fn apply(&mut self, line: &str) -> bool {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
        match fields.first().copied() {
            Some("go") => return true,
            Some("azul") => {
                self.seat = number(1) as usize % 2;
                self.restarts = number(2) as u32;
            }
            Some("turn") => {
                self.turn = number(1) as u32;
                self.ms = number(2);
            }
            Some("factories") => {
                for (i, tiles) in fields.iter().skip(1).take(5).enumerate() {
                    self.sources[i + 1] = counts(tiles);
                }
            }
            Some("center") => self.sources[0] = counts(fields.get(1).copied().unwrap_or("-")),
            Some("board") => {
                let seat = number(1) as usize % 2;
                let board = &mut self.boards[seat];
                if let Some(wall) = fields.get(4) {
                    for (row, cells) in wall.split('/').take(5).enumerate() {
                        for (col, cell) in cells.chars().take(5).enumerate() {
                            board.wall[row][col] = cell != '.';
                        }
                    }
                }
                for (i, tiles) in fields.iter().skip(5).take(5).enumerate() {
                    let colour = COLOURS.iter().position(|c| tiles.starts_with(*c));
                    board.lines[i] = (if colour.is_some() { tiles.len() as u8 } else { 0 }, colour);
                }
            }
            _ => {}
        }
        false
    }

    /// Every legal move for this bot: source ascending, colour order, line 0..=5.
    pub fn legal_moves(&self) -> Vec<Move> {
        let board = &self.boards[self.seat % 2];
        let mut moves = Vec::new();
        for (source, tiles) in self.sources.iter().enumerate() {
            for colour in (0..5).filter(|c| tiles[*c] > 0) {
                for line in 0..6u8 {
                    let legal = match board.lines.get(usize::from(line)) {
                        None => true, // the floor
                        Some((count, held)) => {
                            let row = usize::from(line);
                            *count < line + 1
                                && held.is_none_or(|held| held == colour)
                                && !board.wall[row][(colour + row) % 5]
                        }
                    };
                    if legal {
                        moves.push(Move { source: source as u8, colour, line });
                    }
                }
            }
        }
        moves
    }
}

/// A small generator (xorshift64*), seeded from std's `RandomState`, which the arena seeds
/// per match and bot: the same match replays the same moves.
pub struct Rng(u64);

impl Rng {
    /// Seeded from the platform.
    pub fn from_platform() -> Rng {
        Rng(RandomState::new().hash_one(0x5eed_u64) | 1)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        if n == 0 { 0 } else { (x % n as u64) as usize }
    }
}

/// The protocol loop: declares `mode`, then reads lines into a [`State`] and, at each `go`,
/// writes the move `choose` returns (the floor move `0 g 5` if it returns none). Returns when
/// stdin ends.
pub fn play(mode: &str, mut choose: impl FnMut(&State) -> Option<Move>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{mode}")?;
    out.flush()?;
    let mut input = io::stdin().lock();
    let mut state = State::default();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if state.apply(&line) {
            let mv = choose(&state).unwrap_or(Move { source: 0, colour: 0, line: 5 });
            writeln!(out, "{mv}")?;
            out.flush()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_builds_the_state_and_its_legal_moves() {
        let mut state = State::default();
        for line in [
            "azul 1 0",
            "turn 3 1000",
            "state",
            "round 1",
            "factories bbyr - gooy - -",
            "center g",
            "marker center",
            "board 0 0 0 ...../...../...../...../..... - - - - -",
            "board 1 4 1 ..b../...../...../...../..... - bb - - -",
            "last 2 o 1",
        ] {
            assert!(!state.apply(line));
        }
        assert!(state.apply("go"));
        assert_eq!((state.seat, state.turn, state.ms), (1, 3, 1000));
        let moves = state.legal_moves();
        // Blue: row 0 has it on the wall, line 1 holds blue (room for 0 more? it holds 2 of 2).
        assert!(!moves.contains(&Move { source: 1, colour: 2, line: 0 }));
        assert!(!moves.contains(&Move { source: 1, colour: 2, line: 1 }));
        assert!(moves.contains(&Move { source: 1, colour: 2, line: 2 }));
        assert!(moves.contains(&Move { source: 0, colour: 0, line: 5 }));
        assert!(moves.iter().all(|mv| [0, 1, 3].contains(&mv.source)));
    }
}
