//! A player's board: pattern lines, wall, floor line and score. [`BoardView`] is what bots see;
//! the engine's own `Board` also remembers what lies on each floor slot, which the tile count
//! (conservation) and the round end need but the spec does not show bots (only the floor length).

use crate::rules::{self, LINES, Wall};
use crate::{COLOURS, Colour};
use serde::{Deserialize, Serialize};

/// One pattern line: how many tiles it holds and of which colour (`None` exactly when empty).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatternLine {
    /// Tiles on the line; line `i` holds at most `i + 1`.
    pub count: u8,
    /// Their colour, `None` when `count == 0`.
    pub colour: Option<Colour>,
}

/// A player's board as every bot sees it (azul.md "What a bot sees").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// Pattern lines 0..=4.
    pub lines: [PatternLine; 5],
    /// Wall `[row][column]`: `true` where a tile lies; see [`rules::wall_colour`] for colours.
    pub wall: Wall,
    /// Occupied floor slots (0..=7), the marker included.
    pub floor_len: u8,
    /// Current score (never negative).
    pub score: i64,
}

/// What occupies one floor slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum FloorSlot {
    /// The starting-player marker.
    Marker,
    /// A tile.
    Tile(Colour),
}

/// The engine's board: a [`BoardView`] plus the floor's contents, left to right.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Board {
    pub(crate) lines: [PatternLine; LINES],
    pub(crate) wall: Wall,
    /// At most [`crate::FLOOR_SLOTS`] entries (a Vec rather than an array so that serialised
    /// states and the Display stay readable).
    pub(crate) floor: Vec<FloorSlot>,
    pub(crate) score: i64,
}

impl Board {
    /// Occupied floor slots, saturating (the invariant keeps it at most 7).
    pub(crate) fn floor_len(&self) -> u8 {
        u8::try_from(self.floor.len()).unwrap_or(u8::MAX)
    }

    /// Floor tiles per colour (the marker is not a tile).
    pub(crate) fn floor_tiles(&self) -> [u8; 5] {
        let mut counts = [0u8; 5];
        for slot in &self.floor {
            if let FloorSlot::Tile(colour) = slot {
                counts[colour.index()] = counts[colour.index()].saturating_add(1);
            }
        }
        counts
    }

    /// Tiles on this board per colour: pattern lines, wall and floor.
    pub(crate) fn tiles(&self) -> [u32; 5] {
        let mut counts = [0u32; 5];
        for line in &self.lines {
            if let Some(colour) = line.colour {
                counts[colour.index()] += u32::from(line.count);
            }
        }
        for (row, cells) in self.wall.iter().enumerate() {
            for (col, filled) in cells.iter().enumerate() {
                if *filled {
                    counts[rules::wall_colour(row, col).index()] += 1;
                }
            }
        }
        for (count, floor) in counts.iter_mut().zip(self.floor_tiles()) {
            *count += u32::from(floor);
        }
        counts
    }

    /// How many markers lie on this floor (0 or 1 in a valid state).
    pub(crate) fn markers(&self) -> usize {
        self.floor.iter().filter(|slot| **slot == FloorSlot::Marker).count()
    }

    /// What bots see of this board.
    pub(crate) fn view(&self) -> BoardView {
        BoardView { lines: self.lines, wall: self.wall, floor_len: self.floor_len(), score: self.score }
    }
}

/// Writes the board in the golden playthrough's format: a header, then one row per pattern line,
/// filled from the right towards the wall (as on the physical board), and the wall with an
/// uppercase letter per tile.
impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "score {}, floor [", self.score)?;
        for (i, slot) in self.floor.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            match slot {
                FloorSlot::Marker => write!(f, "{sep}M")?,
                FloorSlot::Tile(colour) => write!(f, "{sep}{colour}")?,
            }
        }
        write!(f, "]")?;
        for (row, (line, cells)) in self.lines.iter().zip(&self.wall).enumerate() {
            let count = usize::from(line.count);
            let letter = line.colour.map_or('.', Colour::letter);
            let empty = (row + 1).saturating_sub(count);
            write!(f, "\n  {:>w$}", "", w = LINES - 1 - row)?;
            for _ in 0..empty {
                write!(f, ".")?;
            }
            for _ in 0..count {
                write!(f, "{letter}")?;
            }
            write!(f, " |")?;
            for (col, filled) in cells.iter().enumerate() {
                let cell = if *filled { rules::wall_colour(row, col).letter().to_ascii_uppercase() } else { '.' };
                write!(f, " {cell}")?;
            }
        }
        Ok(())
    }
}

/// Colours, in order, for a per-colour count array: `[2, 0, 1, 0, 0]` is `ggb`; `-` when empty.
pub(crate) fn tiles_text(counts: &[u8; 5]) -> String {
    let text: String = COLOURS
        .iter()
        .zip(counts)
        .flat_map(|(colour, count)| std::iter::repeat_n(colour.letter(), usize::from(*count)))
        .collect();
    if text.is_empty() { "-".to_string() } else { text }
}

/// Per-colour counts with their letters, for large counts such as the bag: `g14 o11 b13 y15 r16`.
pub(crate) fn counts_text(counts: &[u8; 5]) -> String {
    COLOURS.iter().zip(counts).map(|(colour, count)| format!("{colour}{count}")).collect::<Vec<_>>().join(" ")
}
