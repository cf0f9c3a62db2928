//! The engine: [`Eubots`] holds the whole state of one match and implements `arena_game::Game`
//! (setup from a map, who is asked for orders, stepping a turn, the end of the match). Every rule
//! decision is delegated to [`crate::rules`], which bots share.
//!
//! Eubots has no chance element: the seed given to `Game::new` changes nothing (it only seeds
//! random bots). Setup and the turn resolution are functions of the map and the orders alone.

use crate::event::{EndReason, Event, Standing};
use crate::grid::{Direction, Grid, Pos, Square};
use crate::map::{Map, MapError, Tile, tile_char};
use crate::order::{Action, IgnoredOrder, Invalid, Order};
use crate::rules::{self, DEFENCE, MAX_PLAYERS, MIN_PLAYERS, STALEMATE_TURNS, TURN_CAP};
use crate::unit::Unit;
use crate::view::{Metrics, View};
use arena_game::{Applied, Game, GameRng, OptionDoc, Outcome, Seat, SetupError, rng_below};
use serde::{Deserialize, Serialize};

/// Which map a match is played on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapChoice {
    /// The built-in map for the player count ([`Map::standard`]): 2 players at opposite corners,
    /// 4 at all four corners.
    #[default]
    Standard,
    /// The built-in four-corner map ([`Map::standard`] for 4 players); for 4 players only.
    Corners,
    /// A map file's contents (kept in the config, so a replay is self-contained).
    Text(String),
}

/// Game options (`--option map=...`, `--option unequal=true`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EubotsConfig {
    /// The map.
    pub map: MapChoice,
    /// Whether a map may give players unequal unit counts (eubots.md "Arena": only with an
    /// explicit option).
    pub unequal: bool,
}

impl EubotsConfig {
    /// The map this config names, for `players` players.
    pub fn map(&self, players: usize) -> Result<Map, MapError> {
        match &self.map {
            MapChoice::Standard => Map::standard(players),
            MapChoice::Corners if players == 4 => Map::standard(4),
            MapChoice::Corners => Err(MapError::NoBuiltin { players }),
            MapChoice::Text(text) => Map::parse(text),
        }
    }
}

/// How the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct End {
    reason: EndReason,
    standings: Vec<Standing>,
}

/// The state of one Eubots match (2 to 8 seats).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eubots {
    /// Seats in the match.
    players: u8,
    /// Turns resolved so far; the next turn is `turns_played + 1`.
    turns_played: u32,
    /// Consecutive turns, up to the last one, in which no unit died.
    quiet_turns: u32,
    /// The map with its units.
    grid: Grid,
    /// The units index, by handle; `None` once dead. Its length never changes.
    units: Vec<Option<Unit>>,
    /// Units each seat started with (unit counts never grow past them).
    initial_units: Vec<u32>,
    /// Per seat, its orders ignored in the last turn.
    ignored: Vec<Vec<IgnoredOrder>>,
    /// Set once the match is over.
    end: Option<End>,
}

impl Eubots {
    /// Sets a match up on `map` (eubots.md "Arena"). A map on which every player has one unit
    /// is a stalemate at once **\[ours\]**: the match is over before turn 1.
    fn from_map(map: &Map, players: usize, unequal: bool) -> Result<Eubots, MapError> {
        let (grid, units) = map.setup(players, unequal)?;
        let units: Vec<Option<Unit>> = units.into_iter().map(Some).collect();
        let initial_units = rules::units_remaining(&units, players);
        let mut game = Eubots {
            players: u8::try_from(players).unwrap_or(u8::MAX),
            turns_played: 0,
            quiet_turns: 0,
            grid,
            units,
            initial_units: initial_units.clone(),
            ignored: vec![Vec::new(); players],
            end: None,
        };
        game.end =
            rules::match_end(&initial_units, &initial_units, 0, 0).map(|(reason, standings)| End { reason, standings });
        Ok(game)
    }

    /// Living units per seat.
    fn remaining(&self) -> Vec<u32> {
        rules::units_remaining(&self.units, usize::from(self.players))
    }

    /// Whether `seat` is asked for orders now.
    fn is_acting(&self, seat: Seat) -> bool {
        self.end.is_none() && self.units.iter().flatten().any(|unit| usize::from(unit.owner) == seat)
    }

    /// The standings now: final once over, else provisional (living seats draw, the others lost).
    fn standings(&self) -> Vec<Standing> {
        match &self.end {
            Some(end) => end.standings.clone(),
            None => {
                self.remaining().iter().map(|units| if *units > 0 { Standing::Drew } else { Standing::Lost }).collect()
            }
        }
    }

    /// The turn about to be played (1-based).
    pub fn turn(&self) -> u32 {
        self.turns_played.saturating_add(1)
    }

    /// Why the match ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end.as_ref().map(|end| end.reason)
    }
}

impl Game for Eubots {
    type Config = EubotsConfig;
    type Action = Vec<Order>;
    type Observation = View;
    type Invalid = Invalid;
    type Event = Event;

    const NAME: &'static str = "eubots";
    const MIN_PLAYERS: usize = MIN_PLAYERS;
    const MAX_PLAYERS: usize = MAX_PLAYERS;
    /// The match ends at [`TURN_CAP`] turns at the latest ([`rules::match_end`]).
    const MAX_TURNS: u32 = TURN_CAP;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "map",
                help: "`standard` (built-in 40x30 map for the player count: opposite corners for 2, all four corners \
                       for 4), `corners` (the four-corner map, 4 players), or the path of a map file (rows of `.` \
                       empty, `#` wall, `1`-`8` a unit of that player), whose contents the replay keeps",
                default: "standard".to_string(),
            },
            OptionDoc {
                name: "unequal",
                help: "`true` to accept a map that gives players unequal unit counts",
                default: "false".to_string(),
            },
        ]
    }

    /// Reads `map=FILE` into the config (the contents, not the path) and checks its syntax now,
    /// so a bad file is reported with its line and column before any bot is loaded.
    fn config_from_options(pairs: &[(String, String)]) -> Result<EubotsConfig, SetupError> {
        let bad = |reason: String| SetupError::Config { game: Self::NAME, reason };
        let mut config = EubotsConfig::default();
        for (key, value) in pairs {
            match key.as_str() {
                "map" => {
                    config.map = match value.as_str() {
                        "standard" => MapChoice::Standard,
                        "corners" => MapChoice::Corners,
                        path => {
                            let text = std::fs::read_to_string(path)
                                .map_err(|err| bad(format!("map file {path:?}: {err}")))?;
                            Map::parse(&text).map_err(|err| bad(format!("map file {path:?}: {err}")))?;
                            MapChoice::Text(text)
                        }
                    }
                }
                "unequal" => {
                    config.unequal = match value.as_str() {
                        "true" => true,
                        "false" => false,
                        other => return Err(bad(format!("unequal={other:?}: expected true or false"))),
                    }
                }
                other => return Err(bad(format!("unknown option {other:?} (options: map, unequal)"))),
            }
        }
        Ok(config)
    }

    fn new(config: &EubotsConfig, players: usize, _seed: u64) -> Result<Self, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::PlayerCount { game: Self::NAME, min: MIN_PLAYERS, max: MAX_PLAYERS, got: players });
        }
        let bad = |err: MapError| SetupError::Config { game: Self::NAME, reason: err.to_string() };
        let map = config.map(players).map_err(bad)?;
        Eubots::from_map(&map, players, config.unequal).map_err(bad)
    }

    fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// Every seat that still has units (eubots.md "End of the match": a player with no units is
    /// no longer asked); nobody once the match is over.
    fn to_act(&self) -> Vec<Seat> {
        if self.end.is_some() {
            return Vec::new();
        }
        self.remaining().iter().enumerate().filter(|(_, units)| **units > 0).map(|(seat, _)| seat).collect()
    }

    fn observe(&self, seat: Seat) -> View {
        View {
            metrics: Metrics {
                width: self.grid.width,
                height: self.grid.height,
                players: self.players,
                player: u8::try_from(seat).unwrap_or(u8::MAX),
                total_units: u32::try_from(self.units.len()).unwrap_or(u32::MAX),
                units_remaining: self.remaining(),
                turn: self.turn(),
            },
            map: self.grid.clone(),
            units: self.units.clone(),
            ignored: self.ignored.get(seat).cloned().unwrap_or_default(),
        }
    }

    fn check(&self, seat: Seat, action: &Vec<Order>) -> Result<(), Invalid> {
        if !self.is_acting(seat) {
            return Err(Invalid::NotActing { seat });
        }
        rules::check_answer(&self.units, seat, action)
    }

    /// No orders: every unit of the seat waits with status INVALID (eubots.md "Orders").
    fn no_action(&self, seat: Seat) -> Option<Vec<Order>> {
        self.is_acting(seat).then(Vec::new)
    }

    fn apply(&mut self, actions: &[Applied<Vec<Order>>]) -> Vec<Event> {
        let mut orders: Vec<Vec<Order>> = vec![Vec::new(); usize::from(self.players)];
        for applied in actions {
            if let (Some(action), Some(slot)) = (&applied.action, orders.get_mut(applied.seat)) {
                slot.clone_from(action);
            }
        }

        let before = self.remaining();
        let mut events = rules::resolve_turn(&mut self.grid, &mut self.units, &orders);
        let after = self.remaining();
        self.turns_played = self.turns_played.saturating_add(1);
        let deaths = before.iter().sum::<u32>() > after.iter().sum::<u32>();
        self.quiet_turns = if deaths { 0 } else { self.quiet_turns.saturating_add(1) };
        for list in &mut self.ignored {
            list.clear();
        }
        for event in &events {
            if let Event::Ignored { seat, ignored } = event
                && let Some(list) = self.ignored.get_mut(usize::from(*seat))
            {
                list.push(*ignored);
            }
        }
        for (seat, (was, is)) in (0..=u8::MAX).zip(before.iter().zip(&after)) {
            if *was > 0 && *is == 0 {
                events.push(Event::Eliminated { seat });
            }
        }
        if let Some((reason, standings)) = rules::match_end(&before, &after, self.quiet_turns, self.turns_played) {
            events.push(Event::GameEnded { reason, standings: standings.clone(), scores: rules::scores(&after) });
            self.end = Some(End { reason, standings });
        }
        events
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Points are the units left ([`rules::scores`]); ranks follow the standings
    /// ([`rules::ranks`]). Before the end **\[ours\]**: living seats share first place, the
    /// eliminated the last.
    fn outcome(&self) -> Outcome {
        Outcome { scores: rules::scores(&self.remaining()), ranks: rules::ranks(&self.standings()) }
    }

    /// A random answer with a bias towards fighting **\[ours\]**, so that random matches end by
    /// combat rather than by the stalemate count. One order per own unit, in handle order: with 3
    /// in 4 chance an attack on a random adjacent enemy when there is one; else with 1 in 2
    /// chance a move straight towards the nearest enemy (the first by handle among equals); else
    /// uniformly one of the 17 orders (wait, 8 moves, 8 attacks). To exercise the ignored-order
    /// paths, a unit is sometimes left without an order or given two, and sometimes an order
    /// names a random handle (dead, foreign or unknown).
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Vec<Order>> {
        if !self.is_acting(seat) {
            return None;
        }
        let view = self.observe(seat);
        let enemies: Vec<Pos> =
            self.units.iter().flatten().filter(|unit| usize::from(unit.owner) != seat).map(|unit| unit.pos).collect();
        let mut orders = Vec::new();
        let pick =
            |rng: &mut GameRng, n: usize| usize::try_from(rng_below(rng, u32::try_from(n).unwrap_or(1))).unwrap_or(0);
        let direction = |rng: &mut GameRng| Direction::ALL.get(pick(rng, 8)).copied().unwrap_or(Direction::E);
        for (handle, unit) in view.own_units() {
            let times = match pick(rng, 32) {
                0 => 0,
                1 => 2,
                _ => 1,
            };
            for _ in 0..times {
                let adjacent = view.adjacent_enemies(unit.pos);
                let nearest = enemies.iter().min_by_key(|pos| unit.pos.distance(**pos)).copied();
                let order = if !adjacent.is_empty() && pick(rng, 4) < 3 {
                    let (toward, _) = adjacent.get(pick(rng, adjacent.len())).copied().unwrap_or((Direction::E, 0));
                    Order::attack(handle, toward)
                } else if let Some(toward) =
                    nearest.and_then(|pos| unit.pos.direction_to(pos)).filter(|_| pick(rng, 2) == 0)
                {
                    Order::walk(handle, toward)
                } else {
                    match pick(rng, 17) {
                        0 => Order::wait(handle),
                        n if n <= 8 => Order::walk(handle, direction(rng)),
                        _ => Order::attack(handle, direction(rng)),
                    }
                };
                orders.push(order);
            }
        }
        if pick(rng, 16) == 0 {
            let handle = u32::try_from(pick(rng, self.units.len() + 2)).unwrap_or(0);
            orders.push(Order { handle, action: Action::Move, direction: direction(rng) });
        }
        orders.truncate(rules::max_orders(&self.units));
        Some(orders)
    }

    /// eubots.md's invariants: the grid and the units index agree (so no two units share a square
    /// and no unit stands in a wall or outside the map), living units have defence 1..=2 and a
    /// seat of the match, no seat has more units than it started with, the counters stay within
    /// their limits, and a running match meets no end condition.
    fn check_invariants(&self) -> Result<(), String> {
        let players = usize::from(self.players);
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("{players} players"));
        }
        let (width, height) = (self.grid.width, self.grid.height);
        if !(1..=rules::MAX_SIDE).contains(&width) || !(1..=rules::MAX_SIDE).contains(&height) {
            return Err(format!("map size {width} x {height}"));
        }
        if i64::try_from(self.grid.squares.len()).ok() != Some(i64::from(width) * i64::from(height)) {
            return Err(format!("{} squares on a {width} x {height} map", self.grid.squares.len()));
        }
        for (handle, unit) in (0u32..).zip(&self.units) {
            let Some(unit) = unit else {
                continue;
            };
            if self.grid.get(unit.pos) != Square::Unit(handle) {
                return Err(format!(
                    "unit {handle} at {} but the square holds {:?}",
                    unit.pos,
                    self.grid.get(unit.pos)
                ));
            }
            if !(1..=DEFENCE).contains(&unit.defence) {
                return Err(format!("living unit {handle} has defence {}", unit.defence));
            }
            if usize::from(unit.owner) >= players {
                return Err(format!("unit {handle} belongs to seat {}", unit.owner));
            }
        }
        // Every unit square names a living unit standing there: with the loop above, squares and
        // units are in one-to-one correspondence.
        for (index, square) in self.grid.squares.iter().enumerate() {
            if let Square::Unit(handle) = square {
                let pos = self.grid.pos_of(index);
                let unit = usize::try_from(*handle).ok().and_then(|i| self.units.get(i)).copied().flatten();
                if unit.map(|unit| unit.pos) != pos {
                    return Err(format!("square {pos:?} holds unit {handle}, which is {unit:?}"));
                }
            }
        }
        let remaining = self.remaining();
        if self.initial_units.len() != players || self.ignored.len() != players {
            return Err("per-seat lists of the wrong length".to_string());
        }
        for (seat, (now, start)) in remaining.iter().zip(&self.initial_units).enumerate() {
            if now > start {
                return Err(format!("seat {seat} has {now} units, more than the {start} it started with"));
            }
        }
        if self.quiet_turns > STALEMATE_TURNS || self.quiet_turns > self.turns_played || self.turns_played > TURN_CAP {
            return Err(format!("{} quiet turns of {} played", self.quiet_turns, self.turns_played));
        }
        match &self.end {
            None => {
                if let Some((reason, _)) = rules::match_end(&remaining, &remaining, self.quiet_turns, self.turns_played)
                {
                    return Err(format!("the match runs on although it has ended ({reason:?})"));
                }
            }
            Some(end) if end.standings.len() != players => return Err("standings of the wrong length".to_string()),
            Some(_) => {}
        }
        Ok(())
    }
}

/// A compact text map for humans and the golden playthrough: one header line (the turn to play
/// or the end, units per seat), then the map in map-file format (`.` empty, `#` wall, a digit
/// seat + 1 per unit), so the body parses back as a [`Map`].
impl std::fmt::Display for Eubots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.end {
            Some(end) => write!(f, "after turn {}, game over ({:?})", self.turns_played, end.reason)?,
            None => write!(f, "turn {}", self.turn())?,
        }
        write!(f, ", units {:?}, {} quiet turns", self.remaining(), self.quiet_turns)?;
        for y in 1..=self.grid.height {
            let row: String = (1..=self.grid.width)
                .map(|x| {
                    let tile = match self.grid.get(Pos::new(x, y)) {
                        Square::Empty => Tile::Empty,
                        Square::Wall => Tile::Wall,
                        Square::Unit(handle) => {
                            let owner = usize::try_from(handle).ok().and_then(|i| self.units.get(i)).copied().flatten();
                            owner.map_or(Tile::Empty, |unit| Tile::Unit(unit.owner))
                        }
                    };
                    tile_char(tile)
                })
                .collect();
            write!(f, "\n{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
