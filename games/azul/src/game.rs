//! The engine: [`Azul`] holds the whole state of one match and implements `arena_game::Game`
//! (turn order, applying moves, the round end with wall tiling, restocking and the game end).
//! Every rule decision is delegated to [`crate::rules`], which bots share.
//!
//! Reachability notes (why some branches exist):
//! - **Bag exhaustion cannot happen in play.** At a restock every tile is on a wall, on a pattern
//!   line or in the bag (table and floors are empty). No wall has a complete row (else the game
//!   ended), so walls hold at most 2 x 20 tiles, and incomplete pattern lines hold at most
//!   2 x (0+1+2+3+4) = 20: the bag holds at least 40 tiles, more than the 20 the factories need.
//!   The engine still follows azul.md (factories stay partly filled or empty) and the tests
//!   exercise it on hand-built states.
//! - **An empty table at the start of a round** (so the collection phase has no move) follows
//!   from the same impossible exhaustion. **\[ours\]**: the rules are applied as written: the
//!   collection phase is over at once ("it ends when every factory and the center are empty"),
//!   the wall tiling and restock follow, and since nothing can change any more the rounds run
//!   on within the same step until the round cap ends the game. No seat is ever asked to move
//!   without a legal move.

use crate::bag;
use crate::board::{Board, FloorSlot, counts_text, tiles_text};
use crate::event::{EndReason, Event};
use crate::rules::{self, CENTER, Counts, FACTORIES, FLOOR_SLOTS, ROUND_CAP, TILES_PER_COLOUR, TILES_PER_FACTORY};
use crate::{COLOURS, Invalid, Move, View};
use arena_game::{Applied, Game, GameRng, Outcome, Seat, SetupError, new_rng, ranks_from_scores, rng_below};
use serde::{Deserialize, Serialize};

/// Game options. Azul has none yet; the empty struct keeps config files forward-compatible.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AzulConfig {}

/// The state of one Azul match (two seats).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Azul {
    /// The match seed; the bag's generator is `new_rng(seed)`.
    seed: u64,
    /// How far the generator has run (ChaCha word position). The state stores the position rather
    /// than the generator so that it serialises without rand_chacha's serde feature; restoring the
    /// position gives exactly the same stream.
    rng_words: u64,
    /// The round, 1-based.
    round: u32,
    /// The seat whose turn it is (meaningless once the game is over).
    to_move: u8,
    /// The seat that started this round: it starts the next one too if nobody takes the marker
    /// (possible when no tile ever reaches the center) **\[ours\]**.
    round_starter: u8,
    /// Tiles per colour in the bag (no box lid: every discard comes straight back here).
    bag: Counts,
    /// Tiles per colour in the center.
    center: Counts,
    /// Tiles per colour on each factory.
    factories: [Counts; FACTORIES],
    /// Who took the marker this round; `None` while it is in the center.
    marker_holder: Option<u8>,
    /// The boards, by seat.
    boards: [Board; 2],
    /// Each seat's last move.
    last_move: [Option<Move>; 2],
    /// Set once the game is over.
    end: Option<EndReason>,
}

impl Azul {
    /// The set-up before the first deal: every tile in the bag, round 1, seat 0 to start.
    fn empty(seed: u64) -> Azul {
        Azul {
            seed,
            rng_words: 0,
            round: 1,
            to_move: 0,
            round_starter: 0,
            bag: [TILES_PER_COLOUR; 5],
            center: [0; 5],
            factories: [[0; 5]; FACTORIES],
            marker_holder: None,
            boards: Default::default(),
            last_move: [None; 2],
            end: None,
        }
    }

    /// Fills each factory with up to 4 tiles drawn from the bag, factory 1 first; when the bag
    /// runs out the remaining factories stay partly filled or empty (azul.md "A round" 3).
    fn fill_factories(&mut self) {
        let mut rng: GameRng = new_rng(self.seed);
        rng.set_word_pos(u128::from(self.rng_words));
        for factory in &mut self.factories {
            for _ in 0..TILES_PER_FACTORY {
                let Some(colour) = bag::draw(&mut self.bag, &mut rng) else {
                    break;
                };
                factory[colour.index()] = factory[colour.index()].saturating_add(1);
            }
        }
        // A ChaCha8 word position stays far below 2^64 within any game (at most a few thousand
        // draws), so the conversion cannot saturate.
        self.rng_words = u64::try_from(rng.get_word_pos()).unwrap_or(u64::MAX);
    }

    /// Whether every factory and the center are empty (the marker alone does not count).
    fn table_is_empty(&self) -> bool {
        self.center.iter().chain(self.factories.iter().flatten()).all(|count| *count == 0)
    }

    /// Applies a checked move for `seat` (azul.md "A round" 1).
    fn apply_move(&mut self, seat: u8, mv: Move, fallback: bool, events: &mut Vec<Event>) {
        let c = mv.colour.index();
        let marker = rules::takes_marker(&mv, self.marker_holder.is_none());
        let mut to_center = [0u8; 5];
        let taken = if mv.source == CENTER {
            std::mem::take(&mut self.center[c])
        } else {
            let Some(factory) = usize::from(mv.source).checked_sub(1).and_then(|i| self.factories.get_mut(i)) else {
                return;
            };
            let taken = std::mem::take(&mut factory[c]);
            // The rest of the factory goes to the center.
            to_center = std::mem::take(factory);
            for (center, moved) in self.center.iter_mut().zip(to_center) {
                *center = center.saturating_add(moved);
            }
            taken
        };
        let Some(board) = self.boards.get_mut(usize::from(seat)) else {
            return;
        };
        let split = rules::split_tiles(&board.lines, mv.line, taken, marker, board.floor_len());
        if marker {
            self.marker_holder = Some(seat);
        }
        // The marker takes the leftmost free slot, before any overflow tile.
        if split.marker_on_floor {
            board.floor.push(FloorSlot::Marker);
        }
        if split.to_line > 0
            && let Some(line) = board.lines.get_mut(usize::from(mv.line))
        {
            line.count = line.count.saturating_add(split.to_line);
            line.colour = Some(mv.colour);
        }
        board.floor.extend(std::iter::repeat_n(FloorSlot::Tile(mv.colour), usize::from(split.to_floor)));
        // Tiles beyond the 7th floor slot go straight back to the bag [ours].
        self.bag[c] = self.bag[c].saturating_add(split.discarded);
        if let Some(last) = self.last_move.get_mut(usize::from(seat)) {
            *last = Some(mv);
        }
        self.to_move = 1 - seat.min(1);
        events.push(Event::Took {
            seat,
            mv,
            fallback,
            taken,
            to_line: split.to_line,
            to_floor: split.to_floor,
            discarded: split.discarded,
            marker,
            to_center,
        });
    }

    /// Ends rounds while the table is empty and the game goes on: after a move that empties the
    /// table, and (unreachable, see the module docs) after a restock that leaves it empty.
    fn settle(&mut self, events: &mut Vec<Event>) {
        while self.end.is_none() && self.table_is_empty() {
            self.end_round(events);
        }
    }

    /// Wall tiling of both boards, floor penalties, then the game end or the restock
    /// (azul.md "A round" 2 and 3, "End of the game").
    fn end_round(&mut self, events: &mut Vec<Event>) {
        events.push(Event::CollectionEnded { round: self.round });
        let next = self.marker_holder.unwrap_or(self.round_starter);
        for (seat, board) in (0u8..).zip(self.boards.iter_mut()) {
            for placed in rules::tile_wall(&mut board.lines, &mut board.wall) {
                board.score += i64::from(placed.points);
                let back = &mut self.bag[placed.colour.index()];
                *back = back.saturating_add(placed.returned);
                events.push(Event::Tiled {
                    seat,
                    row: placed.row,
                    col: placed.col,
                    colour: placed.colour,
                    points: placed.points,
                    returned: placed.returned,
                    score: board.score,
                });
            }
            if !board.floor.is_empty() {
                let penalty = rules::floor_penalty(board.floor.len());
                // The score never drops below 0.
                board.score = (board.score + i64::from(penalty)).max(0);
                for (back, tiles) in self.bag.iter_mut().zip(board.floor_tiles()) {
                    *back = back.saturating_add(tiles);
                }
                events.push(Event::Floor {
                    seat,
                    slots: board.floor_len(),
                    marker: board.markers() > 0,
                    penalty,
                    score: board.score,
                });
                board.floor.clear();
            }
        }
        // The marker goes back to the center.
        self.marker_holder = None;
        if self.boards.iter().any(|board| rules::complete_rows(&board.wall) > 0) {
            self.finish(EndReason::RowCompleted, events);
        } else if self.round >= ROUND_CAP {
            self.finish(EndReason::RoundCap, events);
        } else {
            self.round += 1;
            self.fill_factories();
            // The marker holder starts the next round.
            self.to_move = next;
            self.round_starter = next;
            events.push(Event::Restocked { round: self.round, first: next, factories: self.factories, bag: self.bag });
        }
    }

    /// Adds the end bonuses and ends the game (azul.md "End of the game").
    fn finish(&mut self, reason: EndReason, events: &mut Vec<Event>) {
        let bonuses = self.boards.each_ref().map(|board| rules::end_bonus(&board.wall));
        for (board, bonus) in self.boards.iter_mut().zip(&bonuses) {
            board.score += i64::from(bonus.points());
        }
        self.end = Some(reason);
        events.push(Event::GameEnded {
            reason,
            bonuses,
            scores: self.boards.each_ref().map(|board| board.score),
            rows: self.boards.each_ref().map(|board| rules::complete_rows(&board.wall)),
        });
    }

    /// The board of `seat`, if it exists.
    fn board(&self, seat: Seat) -> Option<&Board> {
        self.boards.get(seat)
    }

    /// Whether `seat` is the one to move in a running game.
    fn is_turn_of(&self, seat: Seat) -> bool {
        self.end.is_none() && seat == usize::from(self.to_move)
    }
}

impl Game for Azul {
    type Config = AzulConfig;
    type Action = Move;
    type Observation = View;
    type Invalid = Invalid;
    type Event = Event;

    const NAME: &'static str = "azul";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 2;
    /// Every move takes at least one tile off the table, and a restock puts at most
    /// [`FACTORIES`] x [`TILES_PER_FACTORY`] tiles on it: at most 20 moves a round, for at most
    /// [`ROUND_CAP`] rounds.
    const MAX_TURNS: u32 = ROUND_CAP * FACTORIES as u32 * TILES_PER_FACTORY as u32;

    fn new(_config: &AzulConfig, players: usize, seed: u64) -> Result<Self, SetupError> {
        if players != 2 {
            return Err(SetupError::PlayerCount {
                game: Self::NAME,
                min: Self::MIN_PLAYERS,
                max: Self::MAX_PLAYERS,
                got: players,
            });
        }
        let mut game = Azul::empty(seed);
        game.fill_factories();
        game.settle(&mut Vec::new());
        Ok(game)
    }

    fn players(&self) -> usize {
        2
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.end.is_some() { Vec::new() } else { vec![usize::from(self.to_move)] }
    }

    fn observe(&self, seat: Seat) -> View {
        let other = if seat == 0 { 1 } else { 0 };
        View {
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            to_move: self.to_move,
            round: self.round,
            center: self.center,
            center_has_marker: self.marker_holder.is_none(),
            factories: self.factories,
            marker_holder: self.marker_holder,
            boards: self.boards.each_ref().map(Board::view),
            last_move: self.last_move.get(other).copied().flatten(),
        }
    }

    fn check(&self, seat: Seat, action: &Move) -> Result<(), Invalid> {
        if !self.is_turn_of(seat) {
            return Err(Invalid::NotYourTurn);
        }
        let board = self.board(seat).ok_or(Invalid::NotYourTurn)?;
        rules::check_move(&self.center, &self.factories, &board.lines, &board.wall, action)
    }

    fn no_action(&self, seat: Seat) -> Option<Move> {
        if !self.is_turn_of(seat) {
            return None;
        }
        rules::fallback_move(&self.center, &self.factories)
    }

    fn apply(&mut self, actions: &[Applied<Move>]) -> Vec<Event> {
        let mut events = Vec::new();
        // One seat acts: the one to move. Its fallback always exists: `settle` never leaves a
        // running game with an empty table.
        if let Some(Applied { action: Some(mv), fallback, .. }) = actions.first() {
            self.apply_move(self.to_move, *mv, *fallback, &mut events);
            self.settle(&mut events);
        }
        events
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn outcome(&self) -> Outcome {
        let keys = self.boards.each_ref().map(|board| rules::rank_key(board.score, &board.wall));
        Outcome { scores: self.boards.iter().map(|board| board.score).collect(), ranks: ranks_from_scores(&keys) }
    }

    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Move> {
        if !self.is_turn_of(seat) {
            return None;
        }
        let board = self.board(seat)?;
        let moves = rules::legal_moves(&self.center, &self.factories, &board.lines, &board.wall);
        let pick = rng_below(rng, u32::try_from(moves.len()).unwrap_or(u32::MAX));
        moves.get(usize::try_from(pick).unwrap_or(usize::MAX)).copied()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if !(1..=ROUND_CAP).contains(&self.round) {
            return Err(format!("round {} outside 1..={ROUND_CAP}", self.round));
        }
        if self.to_move > 1 || self.round_starter > 1 {
            return Err(format!("seat out of range: to_move {}, round starter {}", self.to_move, self.round_starter));
        }
        // 100 tiles, 20 per colour, all accounted for.
        let mut totals = [0u32; 5];
        for counts in std::iter::once(&self.bag).chain(std::iter::once(&self.center)).chain(&self.factories) {
            for (total, count) in totals.iter_mut().zip(counts) {
                *total += u32::from(*count);
            }
        }
        for board in &self.boards {
            for (total, count) in totals.iter_mut().zip(board.tiles()) {
                *total += count;
            }
        }
        for (colour, total) in COLOURS.iter().zip(totals) {
            if total != u32::from(TILES_PER_COLOUR) {
                return Err(format!("{total} {colour:?} tiles instead of {TILES_PER_COLOUR}"));
            }
        }
        for (i, factory) in self.factories.iter().enumerate() {
            let tiles: u32 = factory.iter().map(|count| u32::from(*count)).sum();
            if tiles > u32::from(TILES_PER_FACTORY) {
                return Err(format!("factory {} holds {tiles} tiles", i + 1));
            }
        }
        // The marker is in exactly one place: the center, or with its holder (on the floor
        // unless the floor was full when it was taken).
        let markers = self.boards.each_ref().map(Board::markers);
        let marker_ok = match self.marker_holder {
            None => markers == [0, 0],
            Some(0) => markers[0] <= 1 && markers[1] == 0,
            Some(1) => markers[0] == 0 && markers[1] <= 1,
            Some(_) => false,
        };
        if !marker_ok {
            return Err(format!("marker holder {:?} but floor markers {markers:?}", self.marker_holder));
        }
        for (seat, board) in self.boards.iter().enumerate() {
            if board.floor.len() > FLOOR_SLOTS {
                return Err(format!("seat {seat}: {} floor slots", board.floor.len()));
            }
            if board.score < 0 {
                return Err(format!("seat {seat}: negative score {}", board.score));
            }
            for (row, (line, cells)) in board.lines.iter().zip(&board.wall).enumerate() {
                if usize::from(line.count) > row + 1 || (line.count == 0) != line.colour.is_none() {
                    return Err(format!("seat {seat}: bad pattern line {row}: {line:?}"));
                }
                if let Some(colour) = line.colour
                    && cells.get(rules::wall_column(row, colour)).copied().unwrap_or(false)
                {
                    return Err(format!("seat {seat}: line {row} holds {colour:?}, already on its wall row"));
                }
            }
        }
        if self.end.is_none() {
            if self.table_is_empty() {
                return Err("the game runs on with an empty table".to_string());
            }
            if self.boards.iter().any(|board| rules::complete_rows(&board.wall) > 0) {
                return Err("a complete wall row but the game is not over".to_string());
            }
        }
        Ok(())
    }
}

/// A compact board for humans and the golden playthrough: the round and turn, the bag, the
/// center (`M` = marker), the factories, then each seat's board (pattern lines filled towards the
/// wall, wall tiles in uppercase).
impl std::fmt::Display for Azul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.end {
            Some(reason) => write!(f, "round {}, game over ({reason:?})", self.round)?,
            None => write!(f, "round {}, seat {} to move", self.round, self.to_move)?,
        }
        writeln!(f, ", bag {}", counts_text(&self.bag))?;
        let center = match (self.marker_holder, tiles_text(&self.center)) {
            (None, tiles) if tiles == "-" => "M".to_string(),
            (None, tiles) => format!("M {tiles}"),
            (Some(_), tiles) => tiles,
        };
        write!(f, "center {center}, factories")?;
        for factory in &self.factories {
            write!(f, " {}", tiles_text(factory))?;
        }
        for (seat, board) in self.boards.iter().enumerate() {
            write!(f, "\nseat {seat}: {board}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
