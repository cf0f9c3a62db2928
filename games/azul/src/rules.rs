//! The rules of azul.md once, as pure functions on plain data (per-colour count arrays, pattern
//! lines, walls). The engine ([`crate::Azul`]) and the bots' view ([`crate::View`]) both call
//! these, so a bot that simulates with them plays by exactly the engine's rules; the guest SDK
//! re-exports this module.
//!
//! Conventions: a `[u8; 5]` "counts" array is indexed by [`Colour::index`]; a [`Wall`] is
//! `[row][column]`; rows, columns and pattern lines are 0-based. Functions never panic: out-of-range
//! inputs give an `Invalid`, `None`, `0` or no effect, as each documents.

use crate::{COLOURS, Colour, Invalid, Move, PatternLine};
use serde::{Deserialize, Serialize};

/// Source id of the table center; factories are 1..=[`FACTORIES`].
pub const CENTER: u8 = 0;
/// Number of factory displays.
pub const FACTORIES: usize = 5;
/// Line id of the floor line (pattern lines are 0..=4).
pub const FLOOR_LINE: u8 = 5;
/// Slots on a floor line.
pub const FLOOR_SLOTS: usize = 7;
/// Pattern lines per board, which is also the wall's size (5x5).
pub const LINES: usize = 5;
/// Tiles of each colour in the game (100 in all).
pub const TILES_PER_COLOUR: u8 = 20;
/// Tiles drawn into each factory at a restock.
pub const TILES_PER_FACTORY: u8 = 4;
/// azul.md "End of the game" **\[ours\]**: the game ends after this many rounds at the latest.
pub const ROUND_CAP: u32 = 100;
/// Score change per occupied floor slot, left to right (azul.md "A round" 2). Negative numbers:
/// they are added to the score.
pub const FLOOR_PENALTIES: [i32; FLOOR_SLOTS] = [-1, -1, -2, -2, -2, -3, -3];
/// End bonus per complete horizontal row.
pub const ROW_BONUS: u32 = 2;
/// End bonus per complete vertical column.
pub const COLUMN_BONUS: u32 = 7;
/// End bonus per colour with all 5 tiles on the wall.
pub const COLOUR_BONUS: u32 = 10;

/// A wall, `[row][column]`, `true` where a tile lies.
pub type Wall = [[bool; 5]; 5];
/// Tiles per colour, indexed by [`Colour::index`].
pub type Counts = [u8; 5];

/// The colour of wall space (`row`, `col`): `COLOURS[(col - row) mod 5]` (azul.md "Components").
/// Arguments are taken mod 5.
pub fn wall_colour(row: usize, col: usize) -> Colour {
    COLOURS[(col % LINES + LINES - row % LINES) % LINES]
}

/// The column where `colour` goes in wall row `row` (the inverse of [`wall_colour`]); `row` is
/// taken mod 5.
pub fn wall_column(row: usize, colour: Colour) -> usize {
    (row % LINES + colour.index()) % LINES
}

/// Points for a tile placed at (`row`, `col`) on `wall`, which must not contain it yet
/// (azul.md "A round" 2): +1 with no orthogonal neighbour, else `H + V`, where `H` is the length of
/// the contiguous horizontal run through the tile when at least 2 (else 0), and `V` likewise
/// vertically. Tiles placed earlier in the same wall tiling are simply already on `wall`.
/// 0 when (`row`, `col`) is off the wall.
pub fn placement_score(wall: &Wall, row: usize, col: usize) -> u32 {
    if row >= LINES || col >= LINES {
        return 0;
    }
    let filled = |r: usize, c: usize| wall.get(r).and_then(|cells| cells.get(c)).copied().unwrap_or(false);
    let left = (0..col).rev().take_while(|&c| filled(row, c)).count();
    let right = (col + 1..LINES).take_while(|&c| filled(row, c)).count();
    let up = (0..row).rev().take_while(|&r| filled(r, col)).count();
    let down = (row + 1..LINES).take_while(|&r| filled(r, col)).count();
    let run = |len: usize| if len >= 2 { len } else { 0 };
    let score = run(left + right + 1) + run(up + down + 1);
    if score == 0 { 1 } else { score as u32 }
}

/// The total score change for `len` occupied floor slots: the sum of the first `len` entries of
/// [`FLOOR_PENALTIES`], so 0 or **negative** (slots beyond 7 do not exist and cost nothing).
pub fn floor_penalty(len: usize) -> i32 {
    FLOOR_PENALTIES.iter().take(len).sum()
}

/// The tile counts of source `source` (0 = `center`, 1..=5 = `factories[source - 1]`), `None`
/// if there is no such source.
pub fn source_counts(center: &Counts, factories: &[Counts; FACTORIES], source: u8) -> Option<Counts> {
    match source {
        CENTER => Some(*center),
        _ => factories.get(usize::from(source) - 1).copied(),
    }
}

/// Whether the move takes the starting-player marker: it takes from the center while the marker
/// is still there (azul.md "A round" 1; the move must also take tiles, which [`check_move`] checks).
pub fn takes_marker(mv: &Move, center_has_marker: bool) -> bool {
    mv.source == CENTER && center_has_marker
}

/// The pattern-line legality check (azul.md "A round" 1): the floor line is always legal; a pattern
/// line must exist, not be full, be empty or already hold `colour`, and its wall row must not
/// already hold `colour`.
pub fn check_line(lines: &[PatternLine; LINES], wall: &Wall, line: u8, colour: Colour) -> Result<(), Invalid> {
    if line == FLOOR_LINE {
        return Ok(());
    }
    let row = usize::from(line);
    let Some(pattern) = lines.get(row) else {
        return Err(Invalid::NoSuchLine { line });
    };
    if usize::from(pattern.count) > row {
        return Err(Invalid::LineFull { line });
    }
    if let Some(holds) = pattern.colour
        && holds != colour
    {
        return Err(Invalid::LineHoldsOtherColour { line, holds });
    }
    let on_wall = wall.get(row).and_then(|cells| cells.get(wall_column(row, colour))).copied().unwrap_or(false);
    if on_wall {
        return Err(Invalid::WallRowHasColour { line, colour });
    }
    Ok(())
}

/// Whether `mv` is legal for the player owning `lines` and `wall`, turn aside (azul.md "A round" 1).
/// Checks, in order: the source exists, the line exists, the source holds `colour`, then
/// [`check_line`].
pub fn check_move(
    center: &Counts,
    factories: &[Counts; FACTORIES],
    lines: &[PatternLine; LINES],
    wall: &Wall,
    mv: &Move,
) -> Result<(), Invalid> {
    let Some(counts) = source_counts(center, factories, mv.source) else {
        return Err(Invalid::NoSuchSource { source: mv.source });
    };
    if mv.line > FLOOR_LINE {
        return Err(Invalid::NoSuchLine { line: mv.line });
    }
    if counts[mv.colour.index()] == 0 {
        return Err(Invalid::ColourNotInSource { source: mv.source, colour: mv.colour });
    }
    check_line(lines, wall, mv.line, mv.colour)
}

/// Every legal move, in the one deterministic order bots and engine share: source ascending,
/// then colour order, then line ascending (0..=5, the floor last).
pub fn legal_moves(
    center: &Counts,
    factories: &[Counts; FACTORIES],
    lines: &[PatternLine; LINES],
    wall: &Wall,
) -> Vec<Move> {
    let mut moves = Vec::new();
    for source in 0..=FACTORIES as u8 {
        let Some(counts) = source_counts(center, factories, source) else {
            continue;
        };
        for colour in COLOURS {
            if counts[colour.index()] == 0 {
                continue;
            }
            for line in 0..=FLOOR_LINE {
                if check_line(lines, wall, line, colour).is_ok() {
                    moves.push(Move { source, colour, line });
                }
            }
        }
    }
    moves
}

/// The fallback move (azul.md "What a bot sees" **\[ours\]**): from the lowest-numbered non-empty
/// source, the colour with the fewest tiles there (ties: first in colour order), all to the floor
/// line. `None` when every source is empty (then nobody has a move).
pub fn fallback_move(center: &Counts, factories: &[Counts; FACTORIES]) -> Option<Move> {
    (0..=FACTORIES as u8).find_map(|source| {
        let counts = source_counts(center, factories, source)?;
        // `min_by_key` keeps the first of equal minima: the colour-order tie-break.
        let colour = COLOURS
            .into_iter()
            .filter(|colour| counts[colour.index()] > 0)
            .min_by_key(|colour| counts[colour.index()])?;
        Some(Move { source, colour, line: FLOOR_LINE })
    })
}

/// Where the tiles of one move go (azul.md "A round" 1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileSplit {
    /// Tiles added to the chosen pattern line.
    pub to_line: u8,
    /// Tiles added to the floor line.
    pub to_floor: u8,
    /// Tiles beyond the 7 floor slots, returned to the bag without penalty.
    pub discarded: u8,
    /// Whether the marker (when taken) got a floor slot; it takes the leftmost free slot before
    /// any overflow tile.
    pub marker_on_floor: bool,
}

/// How `taken` tiles put on `line` split between the pattern line, the floor and the bag, given
/// `floor_len` occupied floor slots and whether the move takes the marker. Tiles fill the line
/// first (none on [`FLOOR_LINE`] or a line that does not exist), the marker takes the next free
/// floor slot, then overflow tiles fill the floor, and the rest go back to the bag.
///
/// **\[ours\]** A marker taken onto a full floor has no slot: its taker still holds it (and starts
/// the next round) but it costs nothing, like any tile beyond the seventh slot.
pub fn split_tiles(lines: &[PatternLine; LINES], line: u8, taken: u8, takes_marker: bool, floor_len: u8) -> TileSplit {
    let room = lines.get(usize::from(line)).map_or(0, |pattern| (line + 1).saturating_sub(pattern.count));
    let to_line = taken.min(room);
    let overflow = taken - to_line;
    let mut free = (FLOOR_SLOTS as u8).saturating_sub(floor_len);
    let marker_on_floor = takes_marker && free > 0;
    if marker_on_floor {
        free -= 1;
    }
    let to_floor = overflow.min(free);
    TileSplit { to_line, to_floor, discarded: overflow - to_floor, marker_on_floor }
}

/// The immediate score change of putting `taken` tiles of `mv.colour` on `mv.line`: placement
/// points (against `wall` as it is now) if the move completes its pattern line, plus the extra
/// (negative) floor penalty of the overflow tiles and the marker, given `floor_len` occupied slots.
/// Not clamped at 0: it is the change the move causes before the round's clamp.
pub fn score_change(
    lines: &[PatternLine; LINES],
    wall: &Wall,
    floor_len: u8,
    mv: &Move,
    taken: u8,
    takes_marker: bool,
) -> i32 {
    let split = split_tiles(lines, mv.line, taken, takes_marker, floor_len);
    let row = usize::from(mv.line);
    let completes = lines
        .get(row)
        .is_some_and(|pattern| split.to_line > 0 && usize::from(pattern.count) + usize::from(split.to_line) == row + 1);
    let points = if completes { placement_score(wall, row, wall_column(row, mv.colour)) as i32 } else { 0 };
    let before = usize::from(floor_len);
    let after = before + usize::from(split.to_floor) + usize::from(split.marker_on_floor);
    points + floor_penalty(after) - floor_penalty(before)
}

/// One tile moved from a full pattern line to the wall.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WallPlacement {
    /// Wall row (= pattern line).
    pub row: u8,
    /// Wall column.
    pub col: u8,
    /// The tile's colour.
    pub colour: Colour,
    /// Points scored by [`placement_score`].
    pub points: u32,
    /// The line's other tiles, which go back to the bag.
    pub returned: u8,
}

/// The wall tiling of one board (azul.md "A round" 2), rows top to bottom: each full pattern line
/// puts one tile on the wall, scores it with the tiles already there (including those placed
/// earlier in this call) and empties. Incomplete lines stay. Returns the placements in order; the
/// caller adds the points and returns each placement's `returned` tiles to the bag.
pub fn tile_wall(lines: &mut [PatternLine; LINES], wall: &mut Wall) -> Vec<WallPlacement> {
    let mut placed = Vec::new();
    for (row, line) in lines.iter_mut().enumerate() {
        let Some(colour) = line.colour else {
            continue;
        };
        if usize::from(line.count) < row + 1 {
            continue;
        }
        let col = wall_column(row, colour);
        let points = placement_score(wall, row, col);
        if let Some(cell) = wall.get_mut(row).and_then(|cells| cells.get_mut(col)) {
            *cell = true;
        }
        placed.push(WallPlacement {
            row: row as u8,
            col: col as u8,
            colour,
            points,
            returned: line.count.saturating_sub(1),
        });
        *line = PatternLine::default();
    }
    placed
}

/// Complete horizontal rows on `wall`: the game-end trigger and the tie-break.
pub fn complete_rows(wall: &Wall) -> u32 {
    wall.iter().filter(|row| row.iter().all(|cell| *cell)).count() as u32
}

/// The end-of-game bonuses of one wall (azul.md "End of the game").
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndBonus {
    /// Complete horizontal rows (+[`ROW_BONUS`] each).
    pub rows: u32,
    /// Complete vertical columns (+[`COLUMN_BONUS`] each).
    pub columns: u32,
    /// Colours with all 5 tiles on the wall (+[`COLOUR_BONUS`] each).
    pub colours: u32,
}

impl EndBonus {
    /// The bonus points in all.
    pub fn points(&self) -> u32 {
        self.rows * ROW_BONUS + self.columns * COLUMN_BONUS + self.colours * COLOUR_BONUS
    }
}

/// Counts the end-of-game bonuses of `wall`.
pub fn end_bonus(wall: &Wall) -> EndBonus {
    let columns =
        (0..LINES).filter(|&col| wall.iter().all(|row| row.get(col).copied().unwrap_or(false))).count() as u32;
    let colours = COLOURS
        .into_iter()
        .filter(|colour| {
            wall.iter().enumerate().all(|(row, cells)| cells.get(wall_column(row, *colour)).copied().unwrap_or(false))
        })
        .count() as u32;
    EndBonus { rows: complete_rows(wall), columns, colours }
}

/// The ranking key of one player (azul.md "End of the game"): higher score, then more complete
/// rows; equal keys are a draw. Feed a slice of these to `arena_game::ranks_from_scores`.
pub fn rank_key(score: i64, wall: &Wall) -> (i64, u32) {
    (score, complete_rows(wall))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Colour::{Blue, Green, Orange, Red, Yellow};

    fn wall_with(cells: &[(usize, usize)]) -> Wall {
        let mut wall = [[false; 5]; 5];
        for &(row, col) in cells {
            wall[row][col] = true;
        }
        wall
    }

    fn line(count: u8, colour: Colour) -> PatternLine {
        PatternLine { count, colour: Some(colour) }
    }

    /// azul.md "Components": the wall pattern, row by row.
    #[test]
    fn wall_pattern_matches_the_spec() {
        let rows: Vec<String> = (0..5).map(|row| (0..5).map(|col| wall_colour(row, col).letter()).collect()).collect();
        assert_eq!(rows, ["gobyr", "rgoby", "yrgob", "byrgo", "obyrg"]);
        for row in 0..5 {
            for colour in COLOURS {
                assert_eq!(wall_colour(row, wall_column(row, colour)), colour);
            }
        }
    }

    /// azul.md "A round" 2: a tile with no orthogonal neighbour scores +1 (diagonals do not count).
    #[test]
    fn single_tile_scores_one() {
        assert_eq!(placement_score(&[[false; 5]; 5], 2, 2), 1);
        assert_eq!(placement_score(&wall_with(&[(1, 1), (3, 3)]), 2, 2), 1);
    }

    /// azul.md "A round" 2: a horizontal run scores its length (H), only while contiguous.
    #[test]
    fn row_run_scores_its_length() {
        assert_eq!(placement_score(&wall_with(&[(0, 0), (0, 1)]), 0, 2), 3);
        assert_eq!(placement_score(&wall_with(&[(0, 0), (0, 1), (0, 3), (0, 4)]), 0, 2), 5);
        // The gap at column 1 stops the run.
        assert_eq!(placement_score(&wall_with(&[(0, 0), (0, 3)]), 0, 2), 2);
    }

    /// azul.md "A round" 2: a tile joining a row and a column scores H + V.
    #[test]
    fn cross_scores_h_plus_v() {
        let wall = wall_with(&[(2, 0), (2, 1), (2, 3), (1, 2)]);
        // H = 4 (columns 0..=3), V = 2 (rows 1..=2).
        assert_eq!(placement_score(&wall, 2, 2), 6);
        // A column only: V alone.
        assert_eq!(placement_score(&wall_with(&[(0, 4), (1, 4)]), 2, 4), 3);
        assert_eq!(placement_score(&wall, 5, 0), 0, "off the wall");
    }

    /// azul.md "A round" 2: tiles placed earlier in this wall tiling count as neighbours, rows
    /// top to bottom; full lines empty and return their other tiles; incomplete lines stay.
    #[test]
    fn tiles_placed_earlier_in_the_phase_count() {
        let mut lines = [
            line(1, Green), // row 0: green at column 0
            line(2, Red),   // row 1: red at column 0, below the green
            line(2, Blue),  // incomplete: stays
            PatternLine::default(),
            line(5, Orange), // row 4: orange at column 0, not adjacent to row 1
        ];
        let mut wall = wall_with(&[(3, 0)]);
        let placed = tile_wall(&mut lines, &mut wall);
        let got: Vec<(u8, u8, Colour, u32, u8)> =
            placed.iter().map(|p| (p.row, p.col, p.colour, p.points, p.returned)).collect();
        // Row 4's orange joins row 3's blue, giving a column of 2 (rows 3..=4).
        assert_eq!(got, [(0, 0, Green, 1, 0), (1, 0, Red, 2, 1), (4, 0, Orange, 2, 4)]);
        assert_eq!(lines[0], PatternLine::default());
        assert_eq!(lines[2], line(2, Blue));
        assert_eq!(wall, wall_with(&[(0, 0), (1, 0), (3, 0), (4, 0)]));
        // A fifth tile in column 0 (row 2: yellow) would now score the whole column.
        assert_eq!(placement_score(&wall, 2, wall_column(2, Yellow)), 5);
    }

    /// azul.md "A round" 2: floor penalties -1, -1, -2, -2, -2, -3, -3; nothing beyond 7 slots.
    #[test]
    fn floor_penalties_by_slot() {
        let totals: Vec<i32> = (0..=9).map(floor_penalty).collect();
        assert_eq!(totals, [0, -1, -2, -4, -6, -8, -11, -14, -14, -14]);
    }

    /// azul.md "A round" 1: tiles fill the line, the marker takes the leftmost free floor slot,
    /// overflow fills the floor, and tiles beyond 7 slots go back to the bag.
    #[test]
    fn tiles_split_between_line_floor_and_bag() {
        let mut lines = [PatternLine::default(); 5];
        lines[2] = line(1, Red);
        let split = |line, taken, marker, floor| split_tiles(&lines, line, taken, marker, floor);
        let fits = TileSplit { to_line: 2, ..TileSplit::default() };
        assert_eq!(split(2, 2, false, 0), fits);
        let overflow = TileSplit { to_line: 2, to_floor: 2, discarded: 0, marker_on_floor: true };
        assert_eq!(split(2, 4, true, 0), overflow);
        let beyond = TileSplit { to_line: 0, to_floor: 1, discarded: 3, marker_on_floor: true };
        assert_eq!(split(FLOOR_LINE, 4, true, 5), beyond);
        // [ours] A full floor has no slot for the marker.
        let full = TileSplit { to_line: 1, to_floor: 0, discarded: 2, marker_on_floor: false };
        assert_eq!(split(0, 3, true, 7), full);
        assert_eq!(split(9, 3, false, 0).discarded, 0, "an unknown line sends all to the floor");
    }

    /// azul.md "A round" 1: the pattern-line rules, one refusal each; the floor is always legal.
    #[test]
    fn pattern_line_legality() {
        let mut lines = [PatternLine::default(); 5];
        lines[0] = line(1, Green);
        lines[1] = line(1, Blue);
        let wall = wall_with(&[(2, wall_column(2, Red))]);
        assert_eq!(check_line(&lines, &wall, 0, Green), Err(Invalid::LineFull { line: 0 }));
        assert_eq!(check_line(&lines, &wall, 1, Red), Err(Invalid::LineHoldsOtherColour { line: 1, holds: Blue }));
        assert_eq!(check_line(&lines, &wall, 1, Blue), Ok(()));
        assert_eq!(check_line(&lines, &wall, 2, Red), Err(Invalid::WallRowHasColour { line: 2, colour: Red }));
        assert_eq!(check_line(&lines, &wall, 6, Red), Err(Invalid::NoSuchLine { line: 6 }));
        for colour in COLOURS {
            assert_eq!(check_line(&lines, &wall, FLOOR_LINE, colour), Ok(()));
        }
    }

    /// azul.md "A round" 1: a source must exist and hold the colour.
    #[test]
    fn move_needs_a_source_holding_the_colour() {
        let center = [0, 0, 1, 0, 0];
        let mut factories = [[0; 5]; 5];
        factories[4] = [4, 0, 0, 0, 0];
        let lines = [PatternLine::default(); 5];
        let wall = [[false; 5]; 5];
        let check =
            |source, colour, line| check_move(&center, &factories, &lines, &wall, &Move { source, colour, line });
        assert_eq!(check(6, Green, 0), Err(Invalid::NoSuchSource { source: 6 }));
        assert_eq!(check(255, Green, 0), Err(Invalid::NoSuchSource { source: 255 }));
        assert_eq!(check(5, Green, 6), Err(Invalid::NoSuchLine { line: 6 }));
        assert_eq!(check(1, Green, 0), Err(Invalid::ColourNotInSource { source: 1, colour: Green }));
        assert_eq!(check(0, Red, 0), Err(Invalid::ColourNotInSource { source: 0, colour: Red }));
        assert_eq!(check(0, Blue, 3), Ok(()));
        assert_eq!(check(5, Green, FLOOR_LINE), Ok(()));
    }

    /// azul.md "What a bot sees" (moves): one deterministic order, source, colour, line.
    #[test]
    fn legal_moves_are_ordered_by_source_colour_line() {
        let center = [0, 0, 0, 0, 1];
        let mut factories = [[0; 5]; 5];
        factories[1] = [1, 0, 0, 0, 0];
        let mut lines = [PatternLine::default(); 5];
        lines[0] = line(1, Red);
        lines[3] = line(1, Green);
        let wall = wall_with(&[(1, wall_column(1, Red))]);
        let moves: Vec<(u8, Colour, u8)> =
            legal_moves(&center, &factories, &lines, &wall).iter().map(|m| (m.source, m.colour, m.line)).collect();
        assert_eq!(
            moves,
            [
                (0, Red, 2),
                (0, Red, 4),
                (0, Red, 5),
                (2, Green, 1),
                (2, Green, 2),
                (2, Green, 3),
                (2, Green, 4),
                (2, Green, 5),
            ]
        );
    }

    /// azul.md "What a bot sees" fallback [ours]: lowest non-empty source, fewest tiles there
    /// (ties: colour order), all to the floor.
    #[test]
    fn fallback_takes_the_fewest_from_the_first_source() {
        let mut factories = [[0; 5]; 5];
        factories[1] = [0, 2, 1, 1, 0];
        factories[2] = [1, 0, 0, 0, 0];
        let mv = fallback_move(&[0; 5], &factories);
        assert_eq!(mv, Some(Move { source: 2, colour: Blue, line: FLOOR_LINE }));
        let mv = fallback_move(&[0, 3, 0, 0, 3], &factories);
        assert_eq!(mv, Some(Move { source: 0, colour: Orange, line: FLOOR_LINE }));
        assert_eq!(fallback_move(&[0; 5], &[[0; 5]; 5]), None);
    }

    /// azul.md "End of the game": +2 per row, +7 per column, +10 per colour.
    #[test]
    fn end_bonuses() {
        assert_eq!(end_bonus(&[[false; 5]; 5]), EndBonus::default());
        let row: Vec<(usize, usize)> = (0..5).map(|col| (0, col)).collect();
        let column: Vec<(usize, usize)> = (0..5).map(|row| (row, 3)).collect();
        let yellow: Vec<(usize, usize)> = (0..5).map(|row| (row, wall_column(row, Yellow))).collect();
        let cells: Vec<(usize, usize)> = [row, column, yellow].concat();
        let bonus = end_bonus(&wall_with(&cells));
        assert_eq!(bonus, EndBonus { rows: 1, columns: 1, colours: 1 });
        assert_eq!(bonus.points(), 2 + 7 + 10);
        assert_eq!(end_bonus(&[[true; 5]; 5]).points(), 5 * 2 + 5 * 7 + 5 * 10);
    }

    /// azul.md "End of the game": ties are broken by complete rows.
    #[test]
    fn rank_key_orders_by_score_then_rows() {
        let one_row = wall_with(&(0..5).map(|col| (4, col)).collect::<Vec<_>>());
        assert!(rank_key(10, &one_row) > rank_key(10, &[[false; 5]; 5]));
        assert!(rank_key(11, &[[false; 5]; 5]) > rank_key(10, &one_row));
    }

    /// azul.md "A round" 1 and 2: the immediate score change of a move.
    #[test]
    fn score_change_counts_completion_and_floor() {
        let mut lines = [PatternLine::default(); 5];
        lines[1] = line(1, Green);
        let wall = wall_with(&[(1, 0)]); // red at row 1, column 0, next to green's column 1
        let mv = Move { source: 1, colour: Green, line: 1 };
        // Completes line 1: H = 2; one tile overflows onto slot 2 (-1).
        assert_eq!(score_change(&lines, &wall, 1, &mv, 2, false), 2 - 1);
        // Does not complete line 2.
        let mv = Move { source: 0, colour: Green, line: 2 };
        assert_eq!(score_change(&lines, &wall, 0, &mv, 2, true), -1);
        // Filling line 2 with 9 tiles completes it (+1, no neighbour) while the full floor
        // costs nothing more.
        assert_eq!(score_change(&lines, &wall, 7, &mv, 9, true), 1);
        let to_floor = Move { line: FLOOR_LINE, ..mv };
        assert_eq!(score_change(&lines, &wall, 7, &to_floor, 9, true), 0);
        assert_eq!(score_change(&lines, &wall, 5, &to_floor, 1, true), -6);
    }
}
