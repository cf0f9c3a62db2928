//! The competition's four board templates (paint.md "Boards") and where players start: the
//! template's own two starts, or **\[ours\]** the symmetric placement for any player count up to
//! [`MAX_SEATS`].

use crate::Pos;
use serde::{Deserialize, Serialize};

/// Most players a placement can seat **\[ours\]**: the four corners and the four edge midpoints
/// (paint.md allows up to width x height players, but beyond eight no placement on the smallest
/// template keeps every start on the board's edge and the layout symmetric).
pub const MAX_SEATS: usize = 8;

/// A board template by name (the `board` option; paint.md "Boards").
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BoardName {
    /// 10 x 10, 100 turns, starts `[0,0]` and `[9,9]` (the default).
    #[default]
    #[serde(rename = "ten_by_ten")]
    TenByTen,
    /// 11 wide x 5 high, 110 turns, starts `[2,3]` and `[2,7]`, each with a pre-painted patch.
    #[serde(rename = "five_by_eleven")]
    FiveByEleven,
    /// 13 wide x 7 high, 130 turns, starts `[3,1]` and `[3,11]`.
    #[serde(rename = "seven_by_thirteen")]
    SevenByThirteen,
    /// 13 wide x 7 high, 130 turns, starts `[5,5]` and `[1,7]`.
    #[serde(rename = "seven_by_thirteen_b")]
    SevenByThirteenB,
}

/// Every template, in the spec's table order.
pub const BOARD_NAMES: [BoardName; 4] =
    [BoardName::TenByTen, BoardName::FiveByEleven, BoardName::SevenByThirteen, BoardName::SevenByThirteenB];

/// One template's data, exactly as paint.md's table gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// Turns in a game.
    pub turns: u32,
    /// Start squares of player 1 (seat 0) and player 2 (seat 1).
    pub starts: [Pos; 2],
    /// The squares pre-painted for each of the two players, the start square included.
    pub painted: [&'static [Pos]; 2],
}

const TEN_P1: [Pos; 1] = [Pos::new(0, 0)];
const TEN_P2: [Pos; 1] = [Pos::new(9, 9)];
const FIVE_P1: [Pos; 5] = [Pos::new(1, 1), Pos::new(1, 2), Pos::new(2, 1), Pos::new(2, 2), Pos::new(2, 3)];
const FIVE_P2: [Pos; 5] = [Pos::new(2, 7), Pos::new(2, 8), Pos::new(2, 9), Pos::new(3, 8), Pos::new(3, 9)];
const SEVEN_P1: [Pos; 1] = [Pos::new(3, 1)];
const SEVEN_P2: [Pos; 1] = [Pos::new(3, 11)];
const SEVEN_B_P1: [Pos; 1] = [Pos::new(5, 5)];
const SEVEN_B_P2: [Pos; 1] = [Pos::new(1, 7)];

impl BoardName {
    /// The option value (`ten_by_ten`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            BoardName::TenByTen => "ten_by_ten",
            BoardName::FiveByEleven => "five_by_eleven",
            BoardName::SevenByThirteen => "seven_by_thirteen",
            BoardName::SevenByThirteenB => "seven_by_thirteen_b",
        }
    }

    /// The template's data.
    pub const fn template(self) -> Template {
        match self {
            BoardName::TenByTen => Template {
                width: 10,
                height: 10,
                turns: 100,
                starts: [Pos::new(0, 0), Pos::new(9, 9)],
                painted: [&TEN_P1, &TEN_P2],
            },
            BoardName::FiveByEleven => Template {
                width: 11,
                height: 5,
                turns: 110,
                starts: [Pos::new(2, 3), Pos::new(2, 7)],
                painted: [&FIVE_P1, &FIVE_P2],
            },
            BoardName::SevenByThirteen => Template {
                width: 13,
                height: 7,
                turns: 130,
                starts: [Pos::new(3, 1), Pos::new(3, 11)],
                painted: [&SEVEN_P1, &SEVEN_P2],
            },
            BoardName::SevenByThirteenB => Template {
                width: 13,
                height: 7,
                turns: 130,
                starts: [Pos::new(5, 5), Pos::new(1, 7)],
                painted: [&SEVEN_B_P1, &SEVEN_B_P2],
            },
        }
    }
}

impl std::fmt::Display for BoardName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where players start (the `placement` option) **\[ours\]**.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Two players: the template's starts and pre-painted squares, as in the competition.
    /// More players: [`Placement::Symmetric`].
    #[default]
    Auto,
    /// [`symmetric_starts`] for any player count; each start square is pre-painted by its
    /// player and the template's extra pre-paint (five_by_eleven's patches, laid out around the
    /// two template starts) is not used.
    Symmetric,
}

/// The symmetric placement **\[ours\]** (paint.md "Boards": corners first): seats take, in
/// order, `[0,0]`, `[h-1,w-1]`, `[0,w-1]`, `[h-1,0]` (the four corners, each pair opposite
/// through the centre), then the edge midpoints `[0,w/2]`, `[h-1,w-1-w/2]`, `[h/2,0]`,
/// `[h-1-h/2,w-1]` (again in pairs turned 180 degrees into each other). Two players get the
/// same starts as ten_by_ten's. `None` for more than [`MAX_SEATS`] players or when the board is
/// too small for the squares to be distinct.
pub fn symmetric_starts(width: u16, height: u16, players: usize) -> Option<Vec<Pos>> {
    if players > MAX_SEATS || width == 0 || height == 0 {
        return None;
    }
    let (w, h) = (i32::from(width), i32::from(height));
    let candidates = [
        Pos::new(0, 0),
        Pos::new(h - 1, w - 1),
        Pos::new(0, w - 1),
        Pos::new(h - 1, 0),
        Pos::new(0, w / 2),
        Pos::new(h - 1, w - 1 - w / 2),
        Pos::new(h / 2, 0),
        Pos::new(h - 1 - h / 2, w - 1),
    ];
    let starts: Vec<Pos> = candidates.into_iter().take(players).collect();
    let distinct = starts.iter().enumerate().all(|(i, a)| starts.iter().skip(i + 1).all(|b| a != b));
    distinct.then_some(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// paint.md "Boards": the option values are the table's names.
    #[test]
    fn names_serialise_as_the_spec_table() {
        for name in BOARD_NAMES {
            let json = serde_json::to_string(&name).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", name.as_str()));
            assert_eq!(serde_json::from_str::<BoardName>(&json).ok(), Some(name));
        }
        assert_eq!(BoardName::default(), BoardName::TenByTen);
    }

    /// Every template's starts and pre-paint are on its board and start squares are pre-painted.
    #[test]
    fn templates_are_consistent() {
        for name in BOARD_NAMES {
            let t = name.template();
            for (start, painted) in t.starts.iter().zip(t.painted) {
                assert!(painted.contains(start), "{name}");
                for pos in painted {
                    assert!((0..i32::from(t.height)).contains(&pos.row), "{name} {pos}");
                    assert!((0..i32::from(t.width)).contains(&pos.col), "{name} {pos}");
                }
            }
        }
    }

    /// **\[ours\]** the symmetric placement: every pair of seats (0,1), (2,3), ... is turned 180
    /// degrees into each other, on every template, for up to 8 players.
    #[test]
    fn symmetric_starts_come_in_opposite_pairs() {
        for name in BOARD_NAMES {
            let t = name.template();
            let (w, h) = (i32::from(t.width), i32::from(t.height));
            for players in 1..=MAX_SEATS {
                let starts = symmetric_starts(t.width, t.height, players).unwrap_or_default();
                assert_eq!(starts.len(), players, "{name}, {players} players");
                for pair in starts.chunks(2) {
                    if let [a, b] = pair {
                        assert_eq!(*b, Pos::new(h - 1 - a.row, w - 1 - a.col), "{name}");
                    }
                }
            }
            assert_eq!(symmetric_starts(t.width, t.height, MAX_SEATS + 1), None);
        }
        assert_eq!(symmetric_starts(1, 1, 2), None, "a 1x1 board has one corner");
    }
}
