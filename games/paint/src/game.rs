//! The engine: [`Paint`] holds the whole state of one match and implements `arena_game::Game`
//! (set-up from a [`PaintConfig`], simultaneous turns, the end and the scores). Every rule of a
//! turn is delegated to [`crate::rules`], which bots share.
//!
//! paint.md has no randomness: the seed given to `Game::new` changes nothing.

use crate::event::Event;
use crate::rules;
use crate::template::{MAX_SEATS, symmetric_starts};
use crate::{Action, Board, BoardName, Invalid, Placement, Pos, View};
use arena_game::{
    Applied, Game, GameRng, OptionDoc, Outcome, Seat, SetupError, config_from_pairs, ranks_from_scores, rng_below,
};
use serde::{Deserialize, Serialize};

/// Game options (`--option key=value`); `Default` is the competition's set-up: ten_by_ten, two
/// players at the template's starts, 100 turns, no obstacles, with the last turn's actions in the
/// line protocol. Missing fields take their default (`previous_actions` aside: see there).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PaintConfig {
    /// The board template (paint.md "Boards").
    pub board: BoardName,
    /// Where players start **\[ours\]**.
    pub placement: Placement,
    /// Turns in the game; `None` (`null`) takes the template's **\[ours\]**. Must be within
    /// 1..=[`MAX_TURNS`].
    pub turns: Option<u32>,
    /// Obstacle squares (paint.md "Obstacles" **\[ours\]**; none by default, as in the original
    /// engine). Each must be on the board and not a start or pre-painted square.
    pub obstacles: Vec<Pos>,
    /// How much history the line protocol's `previous_actions` carries **\[ours\]**: the last
    /// turn only (the default) or every turn (the original protocol). A stored config without the
    /// field means every turn ([`PreviousActions::when_missing`]), which is what configs and
    /// replays written before `last` became the default carried; `all` is left out when
    /// serialising, so they read and hash as before.
    #[serde(default = "PreviousActions::when_missing", skip_serializing_if = "PreviousActions::is_all")]
    pub previous_actions: PreviousActions,
}

/// What the line protocol's `previous_actions` field holds each turn (paint.md "Original
/// protocol" 2). The original sends every past turn, so a program that parses its whole input
/// line does work that grows with the square of the turns (an ordinary compiled program, Go's
/// `encoding/json` on the whole line, needs about 200M fuel for a match, twice the default game
/// budget); `Last`, the default, sends only the turn just played (`[]` on the first turn), which
/// keeps every turn's line the same size (the same program: about 64M). WIT bots are unaffected
/// either way: their view carries the last turn's actions only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreviousActions {
    /// Every past turn, oldest first: the original protocol.
    All,
    /// The previous turn's actions only: a list of at most one turn.
    #[default]
    Last,
}

impl PreviousActions {
    /// What a stored config without the field means: [`PreviousActions::All`], the default when
    /// such configs were written.
    pub fn when_missing() -> PreviousActions {
        PreviousActions::All
    }

    /// Whether this is the original, [`PreviousActions::All`] (serde leaves it out then).
    pub fn is_all(&self) -> bool {
        *self == PreviousActions::All
    }

    /// The option's value as written: `all` or `last`.
    pub fn as_str(self) -> &'static str {
        match self {
            PreviousActions::All => "all",
            PreviousActions::Last => "last",
        }
    }
}

/// Most turns a game may be set up with **\[ours\]**: a thousand times a template's, and a bound
/// on how long a match (and its replay) can be ([`Game::MAX_TURNS`]).
pub const MAX_TURNS: u32 = 100_000;

/// Why [`Paint::from_parts`] refused a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// There must be 1 to 256 seats (colours are `u8`).
    #[error("{players} players: a state holds 1 to 256")]
    Players {
        /// How many were given.
        players: usize,
    },
    /// Both sides must be at least 1.
    #[error("a {width}x{height} board has no squares")]
    Size {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// `colors` or `blocked` does not have `width * height` entries.
    #[error("{field} has {got} entries, the board has {want} squares")]
    Cells {
        /// `"colors"` or `"blocked"`.
        field: &'static str,
        /// Entries given.
        got: usize,
        /// Squares on the board.
        want: usize,
    },
    /// A square's colour names no seat.
    #[error("square {pos} has the colour of seat {seat}, which does not exist")]
    UnknownColor {
        /// The square.
        pos: Pos,
        /// The colour.
        seat: u8,
    },
    /// An obstacle is painted.
    #[error("obstacle {pos} is painted")]
    PaintedObstacle {
        /// The square.
        pos: Pos,
    },
    /// Two avatars share a square (paint.md, seed: squares cannot hold several avatars).
    #[error("seats {first} and {second} share square {pos}")]
    SharedSquare {
        /// The square.
        pos: Pos,
        /// One seat.
        first: usize,
        /// Another.
        second: usize,
    },
    /// An avatar stands on an obstacle.
    #[error("seat {seat} stands on obstacle {pos}")]
    OnObstacle {
        /// The seat.
        seat: usize,
        /// The square.
        pos: Pos,
    },
    /// A past turn does not list one entry per seat, or holds an invalid action.
    #[error("previous_actions[{turn}] is malformed (one valid action or none per seat)")]
    History {
        /// The turn, 0-based.
        turn: usize,
    },
}

/// The state of one paint match: paint.md "State" with seats for player ids, plus obstacles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paint {
    /// Size, colours and obstacles.
    board: Board,
    /// Every avatar's square, by seat.
    positions: Vec<Pos>,
    /// Turns left; the game is over at 0.
    turns_left: u32,
    /// Every past turn's actions by seat (`None`: no action), oldest first.
    previous_actions: Vec<Vec<Option<Action>>>,
    /// How much of `previous_actions` the line protocol sends (the config's option); left out
    /// of the serialised state when it is the original, so state hashes stay as they were.
    #[serde(default = "PreviousActions::when_missing", skip_serializing_if = "PreviousActions::is_all")]
    sent_history: PreviousActions,
}

impl Paint {
    /// A state from its parts, as paint.md "State" and the transition fixtures describe one (the
    /// engine's seats stand for the fixture's player ids). Checks the shape (1 to 256 seats,
    /// `width * height` cells, colours naming seats, no painted obstacle, one avatar per square,
    /// none on an obstacle, one entry per seat and valid actions in `previous_actions`).
    ///
    /// **\[ours\]** Avatars may stand off the board, and on squares of any colour: the original
    /// engine accepts both and an upstream fixture (`no_actions.json`: `bob` at `[1, 1]` on a
    /// 2x1 board) relies on the first. Such an avatar plays by the same rules: its square
    /// cannot be painted, its walk may bring it onto the board, its shot's range is 1.
    /// [`Game::check_invariants`] reports both, since play never produces them.
    pub fn from_parts(
        board: Board,
        positions: Vec<Pos>,
        turns_left: u32,
        previous_actions: Vec<Vec<Option<Action>>>,
    ) -> Result<Paint, StateError> {
        let players = positions.len();
        if players == 0 || players > usize::from(u8::MAX) + 1 {
            return Err(StateError::Players { players });
        }
        if board.width == 0 || board.height == 0 {
            return Err(StateError::Size { width: board.width, height: board.height });
        }
        let cells = usize::from(board.width) * usize::from(board.height);
        for (field, got) in [("colors", board.colors.len()), ("blocked", board.blocked.len())] {
            if got != cells {
                return Err(StateError::Cells { field, got, want: cells });
            }
        }
        for pos in board.squares() {
            match board.color(pos) {
                Some(seat) if usize::from(seat) >= players => return Err(StateError::UnknownColor { pos, seat }),
                Some(_) if board.is_blocked(pos) => return Err(StateError::PaintedObstacle { pos }),
                _ => {}
            }
        }
        for (first, pos) in positions.iter().enumerate() {
            if let Some(second) = positions.iter().skip(first + 1).position(|other| other == pos) {
                return Err(StateError::SharedSquare { pos: *pos, first, second: first + 1 + second });
            }
            if board.is_blocked(*pos) {
                return Err(StateError::OnObstacle { seat: first, pos: *pos });
            }
        }
        for (turn, actions) in previous_actions.iter().enumerate() {
            let valid = actions.iter().flatten().all(|action| action.checked_direction().is_ok());
            if actions.len() != players || !valid {
                return Err(StateError::History { turn });
            }
        }
        Ok(Paint { board, positions, turns_left, previous_actions, sent_history: PreviousActions::All })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every avatar's square, by seat.
    pub fn positions(&self) -> &[Pos] {
        &self.positions
    }

    /// Turns left (0 once the game is over).
    pub fn turns_left(&self) -> u32 {
        self.turns_left
    }

    /// Every past turn's actions by seat, oldest first.
    pub fn previous_actions(&self) -> &[Vec<Option<Action>>] {
        &self.previous_actions
    }

    /// How much history the line protocol sends ([`PaintConfig::previous_actions`]).
    pub fn sent_history(&self) -> PreviousActions {
        self.sent_history
    }

    /// Each seat's score now: squares of its colour.
    pub fn scores(&self) -> Vec<i64> {
        rules::scores(&self.board, self.positions.len())
    }

    /// Whether `seat` acts now.
    fn acts(&self, seat: Seat) -> bool {
        self.turns_left > 0 && seat < self.positions.len()
    }

    /// The starts and pre-painted squares by seat for `players` players under `config`.
    fn placement(config: &PaintConfig, players: usize) -> Result<Vec<(Pos, Vec<Pos>)>, SetupError> {
        let template = config.board.template();
        if players == 2 && config.placement == Placement::Auto {
            return Ok(template
                .starts
                .iter()
                .zip(template.painted)
                .map(|(start, painted)| (*start, painted.to_vec()))
                .collect());
        }
        let starts = symmetric_starts(template.width, template.height, players).ok_or_else(|| SetupError::Config {
            game: Self::NAME,
            reason: format!("no symmetric placement of {players} players on {}", config.board),
        })?;
        Ok(starts.into_iter().map(|start| (start, vec![start])).collect())
    }
}

impl Game for Paint {
    type Config = PaintConfig;
    type Action = Action;
    type Observation = View;
    type Invalid = Invalid;
    type Event = Event;

    const NAME: &'static str = "paint";
    const MIN_PLAYERS: usize = 2;
    /// **\[ours\]** [`crate::MAX_SEATS`]: the symmetric placement seats at most eight.
    const MAX_PLAYERS: usize = MAX_SEATS;
    /// One turn a step, at most [`MAX_TURNS`] of them.
    const MAX_TURNS: u32 = MAX_TURNS;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "board",
                help: "board template: ten_by_ten (10x10, 100 turns), five_by_eleven (11 wide x 5 high, 110 turns), \
                       seven_by_thirteen or seven_by_thirteen_b (13 wide x 7 high, 130 turns)",
                default: BoardName::default().as_str().to_string(),
            },
            OptionDoc {
                name: "placement",
                help: "auto: the template's starts and pre-paint for 2 players, symmetric for more; symmetric: \
                       corners first, then edge midpoints, each start pre-painted (up to 8 players)",
                default: "auto".to_string(),
            },
            OptionDoc {
                name: "turns",
                help: "turns in the game (1 to 100000); null takes the template's",
                default: "null".to_string(),
            },
            OptionDoc {
                name: "obstacles",
                help: "blocked squares as a JSON list of [row, col], e.g. [[4,4],[5,5]]: never painted, entered \
                       or shot through; not on a start or pre-painted square",
                default: "[]".to_string(),
            },
            OptionDoc {
                name: "previous_actions",
                help: "what the line protocol's previous_actions holds each turn: all (every past turn, as the \
                       original; a program parsing its whole line pays for it with the square of the turns) or \
                       last (the previous turn only); WIT bots are unaffected",
                default: PreviousActions::default().as_str().to_string(),
            },
        ]
    }

    /// The options as `arena_game::config_from_pairs` reads them, except `previous_actions`:
    /// a config serialises it only when it is not the default (so replays made without it are
    /// unchanged), which hides it from that generic reader, so it is read here, by name.
    fn config_from_options(pairs: &[(String, String)]) -> Result<PaintConfig, SetupError> {
        let bad = |reason: String| SetupError::Config { game: Self::NAME, reason };
        let mut previous_actions = PreviousActions::default();
        let mut rest = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            if key == "previous_actions" {
                // A bare word or its JSON string, as the generic reader accepts.
                let word = serde_json::from_str::<String>(value).unwrap_or_else(|_| value.clone());
                previous_actions = match word.as_str() {
                    "all" => PreviousActions::All,
                    "last" => PreviousActions::Last,
                    _ => return Err(bad(format!("previous_actions must be \"all\" or \"last\", not {value:?}"))),
                };
            } else if Self::option_docs().iter().any(|doc| doc.name == key) {
                rest.push((key.clone(), value.clone()));
            } else {
                let mut known: Vec<&str> = Self::option_docs().iter().map(|doc| doc.name).collect();
                known.sort_unstable();
                return Err(bad(format!("unknown option {key:?} (options: {})", known.join(", "))));
            }
        }
        let mut config: PaintConfig = config_from_pairs(Self::NAME, &rest)?;
        config.previous_actions = previous_actions;
        Ok(config)
    }

    fn new(config: &PaintConfig, players: usize, _seed: u64) -> Result<Self, SetupError> {
        if !(Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: Self::NAME,
                min: Self::MIN_PLAYERS,
                max: Self::MAX_PLAYERS,
                got: players,
            });
        }
        let bad = |reason: String| SetupError::Config { game: Self::NAME, reason };
        let turns = config.turns.unwrap_or(config.board.template().turns);
        if !(1..=MAX_TURNS).contains(&turns) {
            return Err(bad(format!("turns must be within 1..={MAX_TURNS}")));
        }
        let placement = Self::placement(config, players)?;
        let template = config.board.template();
        let mut board = Board::new(template.width, template.height);
        for (seat, (_, painted)) in (0u8..).zip(&placement) {
            for pos in painted {
                board.paint(*pos, seat);
            }
        }
        for (i, pos) in config.obstacles.iter().enumerate() {
            if !board.contains(*pos) {
                return Err(bad(format!("obstacle {pos} is off the {} board", config.board)));
            }
            if board.color(*pos).is_some() {
                return Err(bad(format!("obstacle {pos} is on a start or pre-painted square")));
            }
            if config.obstacles.iter().take(i).any(|other| other == pos) {
                return Err(bad(format!("obstacle {pos} is listed twice")));
            }
            board.block(*pos);
        }
        let positions = placement.iter().map(|(start, _)| *start).collect();
        let mut game = Paint::from_parts(board, positions, turns, Vec::new()).map_err(|err| bad(err.to_string()))?;
        game.sent_history = config.previous_actions;
        Ok(game)
    }

    fn players(&self) -> usize {
        self.positions.len()
    }

    /// Every seat while turns are left (nobody is ever eliminated).
    fn to_act(&self) -> Vec<Seat> {
        if self.turns_left == 0 { Vec::new() } else { (0..self.positions.len()).collect() }
    }

    fn observe(&self, seat: Seat) -> View {
        View {
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            board: self.board.clone(),
            positions: self.positions.clone(),
            turns_left: self.turns_left,
            previous_actions: self.previous_actions.clone(),
            sent_history: self.sent_history,
        }
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Invalid> {
        if !self.acts(seat) {
            return Err(Invalid::NotActing);
        }
        action.checked_direction().map(|_| ())
    }

    /// No action: the player's avatar stands (and its square is painted, as every avatar's is).
    fn no_action(&self, _seat: Seat) -> Option<Action> {
        None
    }

    fn apply(&mut self, actions: &[Applied<Action>]) -> Vec<Event> {
        let mut joint: Vec<Option<Action>> = vec![None; self.positions.len()];
        for applied in actions {
            if let Some(slot) = joint.get_mut(applied.seat) {
                *slot = applied.action;
            }
        }
        let mut events = rules::apply_turn(&mut self.board, &mut self.positions, &joint);
        // paint.md "One turn" 3.
        self.turns_left -= 1;
        self.previous_actions.push(joint);
        if self.turns_left == 0 {
            events.push(Event::GameEnded { scores: self.scores() });
        }
        events
    }

    fn is_over(&self) -> bool {
        self.turns_left == 0
    }

    /// Scores are squares of each colour; equal scores share a rank (paint.md "End and score").
    fn outcome(&self) -> Outcome {
        let scores = self.scores();
        Outcome { ranks: ranks_from_scores(&scores), scores }
    }

    /// Uniform over the 16 valid actions ([`Action::all`]).
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        if !self.acts(seat) {
            return None;
        }
        let all = Action::all();
        let pick = rng_below(rng, u32::try_from(all.len()).unwrap_or(u32::MAX));
        all.get(usize::try_from(pick).unwrap_or(usize::MAX)).copied()
    }

    /// What play keeps true: colours name seats and never lie on obstacles; avatars stand on
    /// distinct open squares of their own colour (every turn paints them, and no shot can
    /// paint an avatar's square); one history entry per seat.
    fn check_invariants(&self) -> Result<(), String> {
        let players = self.positions.len();
        let cells = usize::from(self.board.width) * usize::from(self.board.height);
        if self.board.colors.len() != cells || self.board.blocked.len() != cells {
            return Err(format!(
                "{} colours and {} obstacle flags for {cells} squares",
                self.board.colors.len(),
                self.board.blocked.len()
            ));
        }
        for pos in self.board.squares() {
            if let Some(seat) = self.board.color(pos) {
                if usize::from(seat) >= players {
                    return Err(format!("{pos} has the colour of missing seat {seat}"));
                }
                if self.board.is_blocked(pos) {
                    return Err(format!("obstacle {pos} is painted"));
                }
            }
        }
        for (seat, pos) in self.positions.iter().enumerate() {
            if !self.board.is_open(*pos) {
                return Err(format!("seat {seat} stands on {pos}, off the board or on an obstacle"));
            }
            if self.board.color(*pos).map(usize::from) != Some(seat) {
                return Err(format!("seat {seat}'s square {pos} is not of its colour"));
            }
            if self.positions.iter().skip(seat + 1).any(|other| other == pos) {
                return Err(format!("two avatars on {pos}"));
            }
        }
        if let Some(turn) = self.previous_actions.iter().position(|actions| actions.len() != players) {
            return Err(format!("previous_actions[{turn}] does not have one entry per seat"));
        }
        let painted: u64 = self.scores().iter().map(|score| score.unsigned_abs()).sum();
        let open = self.board.blocked.iter().filter(|blocked| !**blocked).count();
        if painted > u64::try_from(open).unwrap_or(u64::MAX) {
            return Err(format!("{painted} squares painted, {open} open squares"));
        }
        Ok(())
    }
}

/// A compact board for humans and the golden playthrough: turns played and left, each seat's
/// squares, then [`Board::text`] (avatars `A`, `B`, ..., their paint `a`, `b`, ..., `.`
/// unpainted, `#` obstacles).
impl std::fmt::Display for Paint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let played = self.previous_actions.len();
        if self.turns_left == 0 {
            write!(f, "game over after {played} turns; squares")?;
        } else {
            write!(f, "{played} turns played, {} left; squares", self.turns_left)?;
        }
        for (seat, score) in self.scores().iter().enumerate() {
            let sep = if seat == 0 { "" } else { "," };
            write!(f, "{sep} {} {score}", crate::board::seat_letter(seat))?;
        }
        writeln!(f)?;
        f.write_str(&self.board.text(&self.positions))
    }
}

#[cfg(test)]
mod tests;
