//! The engine: [`CodeCharacter`] holds the whole state of one match and implements
//! `arena_game::Game`. The turn itself (code-character.md "One turn") is in `turn.rs`; the rule
//! decisions are in [`crate::rules`], [`crate::command`], [`crate::unit`] and the pathfinder.
//!
//! - Two seats, simultaneous: `to_act()` is both seats on every turn until the last.
//! - An answer is a list of [`Command`]s. `None` (no answer: the player was over its turn
//!   budget, faulted, or its answer was refused) means no commands: units keep their intents.
//!   So `no_action` is `None`: nothing is itself the fallback.
//! - There is no randomness in the rules: the seed is not used **\[ours\]**.
//! - Each player's units are stored in that player's own coordinates and numbered by that
//!   player (see [`crate::perspective`] for why): a match with the seats swapped is its exact
//!   mirror image (`arena_game::SeatSymmetric`, checked by the conformance kit).

mod turn;

use crate::Event;
use crate::command::{Command, Invalid, Order, Rejection, check_answer};
use crate::geometry::{MAP_SIZE, Tile, Vec2};
use crate::map::{Map, Terrain};
use crate::path::{Blocked, Graph, Planner};
use crate::perspective::{ENEMY_ID_BASE, enemy_id, engine_tile, view_id, view_pos, view_tile};
use crate::rules::{
    self, BASE_POSITION, ENEMY_BASE_POSITION, MAX_BOT_HP, MAX_NUM_BOTS, MAX_NUM_TOWERS, NUM_BOTS_START,
};
use crate::unit::{Bot, BotState, Intent, Tower, TowerState};
use crate::view::{BotView, StaticView, TowerView, View};
use arena_game::{
    Applied, Game, GameRng, OptionDoc, Outcome, Seat, SetupError, config_from_pairs, ranks_from_scores, rng_below,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Game options (`--option turns=N`, `--option map=FILE`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeCharacterConfig {
    /// Turns in the match (NUM_TURNS, default 1000; 1..=[`CodeCharacterConfig::MAX_TURNS`]
    /// **\[ours\]**).
    pub turns: u32,
    /// The map file's *contents* (so that a replay is self-contained); `None` for the default
    /// map.
    pub map: Option<String>,
}

impl Default for CodeCharacterConfig {
    fn default() -> CodeCharacterConfig {
        CodeCharacterConfig { turns: rules::NUM_TURNS, map: None }
    }
}

impl CodeCharacterConfig {
    /// Most turns a match may have **\[ours\]** (so that a player's own ids stay below
    /// [`crate::ENEMY_ID_BASE`]).
    pub const MAX_TURNS: u32 = 100_000;

    /// Checks the turn count: 1..=[`CodeCharacterConfig::MAX_TURNS`].
    fn check_turns(&self) -> Result<(), SetupError> {
        if (1..=Self::MAX_TURNS).contains(&self.turns) {
            Ok(())
        } else {
            Err(config_error(format!("turns must be within 1..={}", Self::MAX_TURNS)))
        }
    }

    /// The map this config names, parsed and checked.
    pub fn parse_map(&self) -> Result<Map, SetupError> {
        match &self.map {
            None => Ok(Map::default()),
            Some(text) => Map::parse(text).map_err(|err| config_error(format!("map: {err}"))),
        }
    }
}

fn config_error(reason: String) -> SetupError {
    SetupError::Config { game: CodeCharacter::NAME, reason }
}

/// One player's units, each list oldest first, and the id its next unit gets (each player
/// numbers its own units, see [`crate::perspective`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Player {
    bots: Vec<Bot>,
    towers: Vec<Tower>,
    next_id: u32,
}

impl Default for Player {
    fn default() -> Player {
        // Ids start at 1 [ours].
        Player { bots: Vec::new(), towers: Vec::new(), next_id: 1 }
    }
}

/// The visibility graph and its path memo, derived from the map and the towers: not part of
/// the state (skipped by serde, ignored by equality) and brought up to date when the blocked
/// tiles change (answers never depend on its history).
#[derive(Clone, Debug, Default)]
struct GraphCache(Option<Planner>);

impl PartialEq for GraphCache {
    fn eq(&self, _: &GraphCache) -> bool {
        true
    }
}

/// The state of one Code Character match (two seats).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeCharacter {
    /// Turns in the match.
    turns: u32,
    /// The terrain (point-symmetric, so the same grid in both perspectives).
    map: Map,
    /// Turns played.
    turn: u32,
    /// Both players' units, by seat.
    players: [Player; 2],
    /// Game scores (turns won), by seat.
    scores: [u32; 2],
    /// Last turn's points, by seat.
    points: [u32; 2],
    /// Last turn's rejected commands, by seat.
    rejected: [Vec<Rejection>; 2],
    #[serde(skip)]
    graph: GraphCache,
}

impl CodeCharacter {
    /// What never changes, for `seat`'s bot (`init`), in its perspective.
    pub fn static_view(&self, seat: Seat) -> StaticView {
        let map = if seat == 1 { self.map.mirrored() } else { self.map.clone() };
        let flags = map.flags().into_iter().map(Tile::centre).collect();
        StaticView {
            seat: seat.min(1) as u8,
            map,
            flags,
            turns: self.turns,
            base: BASE_POSITION,
            enemy_base: ENEMY_BASE_POSITION,
        }
    }

    /// The map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Turns played so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Turns in the match.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Game scores by seat.
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// Adds a fresh bot for `seat` at its base (the seat's id counter advances); returns its
    /// id (the seat's own).
    fn spawn(&mut self, seat: usize) -> u32 {
        let Some(player) = self.players.get_mut(seat) else {
            return 0;
        };
        let id = player.next_id;
        player.next_id = player.next_id.saturating_add(1);
        player.bots.push(Bot {
            id,
            hp: MAX_BOT_HP,
            pos: BASE_POSITION,
            state: BotState::Idle,
            intent: Intent::None,
            extra_move: None,
            held: None,
        });
        id
    }

    /// The blocked tiles now, in engine coordinates: WATER and every tower (DEAD ones until
    /// they are removed).
    fn blocked(&self) -> Blocked {
        let mut blocked = Blocked::default();
        for tile in Tile::all() {
            if !self.map.terrain(tile).is_walkable() {
                blocked.set(tile);
            }
        }
        for (seat, player) in self.players.iter().enumerate() {
            for tower in &player.towers {
                blocked.set(engine_tile(seat, tower.tile));
            }
        }
        blocked
    }

    /// The planner over the visibility graph for the current towers (taken out of the cache;
    /// give it back with [`CodeCharacter::keep_planner`]), brought up to date if the towers
    /// changed since the last one ([`Planner::update`]).
    fn take_planner(&mut self) -> Planner {
        let blocked = self.blocked();
        match self.graph.0.take() {
            Some(planner) => planner.update(blocked),
            None => Planner::new(Arc::new(Graph::build(blocked))),
        }
    }

    /// Puts the planner back into the cache.
    fn keep_planner(&mut self, planner: Planner) {
        self.graph = GraphCache(Some(planner));
    }

    /// `seat`'s points now: 10 per living bot on a FLAG tile, 25 per tower on one (DEAD towers
    /// still count until they are removed).
    fn points_of(&self, seat: usize) -> u32 {
        let Some(player) = self.players.get(seat) else {
            return 0;
        };
        let on_flag = |own: Tile| rules::is_flag(self.map.terrain(engine_tile(seat, own)));
        let bots = player.bots.iter().filter(|b| b.state != BotState::Dead && on_flag(b.pos.tile())).count();
        let towers = player.towers.iter().filter(|t| on_flag(t.tile)).count();
        rules::turn_points(bots, towers)
    }

    fn bot_view(observer: usize, owner: usize, bot: &Bot) -> BotView {
        BotView {
            id: view_id(observer, owner, bot.id),
            hp: bot.hp,
            position: view_pos(observer, owner, bot.pos),
            state: bot.state.status(),
            // An order stored in TRANSFORM shows as the intent, as the original's view shows
            // the targets the bot holds.
            intent: bot.held.unwrap_or(bot.intent).map_target(|p| view_pos(observer, owner, p)),
            extra_move: bot.extra_move.map(|p| view_pos(observer, owner, p)),
        }
    }

    fn tower_view(observer: usize, owner: usize, tower: &Tower) -> TowerView {
        let tile = view_tile(observer, owner, tower.tile);
        TowerView {
            id: view_id(observer, owner, tower.id),
            hp: tower.hp,
            position: tile.centre(),
            tile,
            age: tower.age,
            state: tower.state,
        }
    }

    /// A position the random player aims at: on half-grid points (often exactly on grid lines),
    /// anywhere (including outside the map), or near the centre.
    fn random_position(rng: &mut GameRng) -> Vec2 {
        fn coordinate(rng: &mut GameRng, kind: u32) -> f64 {
            match kind {
                0 => f64::from(rng_below(rng, 61)) * 0.5,
                1 => f64::from(rng_below(rng, 3200)) / 100.0 - 1.0,
                _ => 11.0 + f64::from(rng_below(rng, 800)) / 100.0,
            }
        }
        let kind = rng_below(rng, 3);
        let x = coordinate(rng, kind);
        Vec2::new(x, coordinate(rng, kind))
    }
}

impl Game for CodeCharacter {
    type Config = CodeCharacterConfig;
    type Action = Vec<Command>;
    type Observation = View;
    type Invalid = Invalid;
    type Event = Event;

    const NAME: &'static str = "code-character";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 2;
    /// One turn a step, at most [`CodeCharacterConfig::MAX_TURNS`] of them.
    const MAX_TURNS: u32 = CodeCharacterConfig::MAX_TURNS;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "turns",
                help: "number of turns in the match (1 to 100000)",
                default: rules::NUM_TURNS.to_string(),
            },
            OptionDoc {
                name: "map",
                help: "a map file: 30 lines of 30 characters L (land), W (water), F (flag), point-symmetric; \
                       its contents are kept in the config and the replay",
                default: "the built-in map (a water cross with a 4x4 flag block in the centre)".to_string(),
            },
        ]
    }

    fn config_from_options(pairs: &[(String, String)]) -> Result<CodeCharacterConfig, SetupError> {
        let mut map = None;
        let mut rest = Vec::new();
        for (key, value) in pairs {
            if key == "map" {
                let text = std::fs::read_to_string(value)
                    .map_err(|err| config_error(format!("cannot read the map file {value:?}: {err}")))?;
                Map::parse(&text).map_err(|err| config_error(format!("map file {value:?}: {err}")))?;
                map = Some(text);
            } else {
                rest.push((key.clone(), value.clone()));
            }
        }
        let mut config: CodeCharacterConfig = config_from_pairs(Self::NAME, &rest)?;
        if map.is_some() {
            config.map = map;
        }
        config.check_turns()?;
        Ok(config)
    }

    fn new(config: &CodeCharacterConfig, players: usize, _seed: u64) -> Result<Self, SetupError> {
        if players != 2 {
            return Err(SetupError::PlayerCount {
                game: Self::NAME,
                min: Self::MIN_PLAYERS,
                max: Self::MAX_PLAYERS,
                got: players,
            });
        }
        config.check_turns()?;
        let mut game = CodeCharacter {
            turns: config.turns,
            map: config.parse_map()?,
            turn: 0,
            players: Default::default(),
            scores: [0; 2],
            points: [0; 2],
            rejected: Default::default(),
            graph: GraphCache::default(),
        };
        // Player 1's starting bots, then player 2's.
        for seat in 0..2 {
            for _ in 0..NUM_BOTS_START {
                game.spawn(seat);
            }
        }
        Ok(game)
    }

    fn players(&self) -> usize {
        2
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.is_over() { Vec::new() } else { vec![0, 1] }
    }

    fn observe(&self, seat: Seat) -> View {
        let me = seat.min(1);
        let enemy = 1 - me;
        let (own, other) = (&self.players[me], &self.players[enemy]);
        View {
            seat: me as u8,
            turn: self.turn,
            scores: [self.scores[me], self.scores[enemy]],
            points: [self.points[me], self.points[enemy]],
            bots: own.bots.iter().map(|b| Self::bot_view(me, me, b)).collect(),
            enemy_bots: other.bots.iter().map(|b| Self::bot_view(me, enemy, b)).collect(),
            towers: own.towers.iter().map(|t| Self::tower_view(me, me, t)).collect(),
            enemy_towers: other.towers.iter().map(|t| Self::tower_view(me, enemy, t)).collect(),
            rejected: self.rejected[me].clone(),
        }
    }

    fn check(&self, seat: Seat, action: &Vec<Command>) -> Result<(), Invalid> {
        if self.is_over() {
            return Err(Invalid::GameOver);
        }
        if seat > 1 {
            return Err(Invalid::NoSuchSeat { seat });
        }
        check_answer(action)
    }

    fn no_action(&self, _seat: Seat) -> Option<Vec<Command>> {
        None
    }

    fn apply(&mut self, actions: &[Applied<Vec<Command>>]) -> Vec<Event> {
        let mut answers: [Option<&[Command]>; 2] = [None, None];
        for applied in actions {
            if let (Some(commands), Some(slot)) = (&applied.action, answers.get_mut(applied.seat)) {
                *slot = Some(commands.as_slice());
            }
        }
        let mut events = Vec::new();
        self.play_turn(answers, &mut events);
        events
    }

    fn is_over(&self) -> bool {
        self.turn >= self.turns
    }

    fn outcome(&self) -> Outcome {
        let scores = self.scores.map(i64::from);
        Outcome { scores: scores.to_vec(), ranks: ranks_from_scores(&scores) }
    }

    /// A few commands for random units (mostly the seat's own, sometimes the enemy's or unknown
    /// ids), with random orders and positions (often on grid lines or out of the map), so that
    /// every rejection and every state is exercised.
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Vec<Command>> {
        if self.is_over() || seat > 1 {
            return None;
        }
        let own = &self.players[seat];
        let enemy = &self.players[1 - seat];
        // Ids as the seat names them (its own, and the enemy's as it sees them), plus a few
        // that name nothing: only what the seat sees, so that the seat-swapped match draws the
        // same commands.
        let any_id = |rng: &mut GameRng| match rng_below(rng, 2) {
            0 => rng_below(rng, own.next_id.saturating_add(3)),
            _ => enemy_id(rng_below(rng, enemy.next_id.saturating_add(3))),
        };
        let count = rng_below(rng, 7);
        let mut commands = Vec::new();
        for _ in 0..count {
            let pick = |rng: &mut GameRng, n: usize| rng_below(rng, u32::try_from(n).unwrap_or(u32::MAX)) as usize;
            let id = match rng_below(rng, 10) {
                0 => any_id(rng),
                1 | 2 if !own.towers.is_empty() => own.towers[pick(rng, own.towers.len())].id,
                _ if !own.bots.is_empty() => own.bots[pick(rng, own.bots.len())].id,
                _ => any_id(rng),
            };
            let order = match rng_below(rng, 16) {
                0..=7 => Order::Move(Self::random_position(rng)),
                8 | 9 => Order::BlastAt(Self::random_position(rng)),
                10 => Order::Blast,
                11 | 12 => Order::TransformAt(Self::random_position(rng)),
                13 => Order::Transform,
                _ => Order::Move(Vec2::new(14.5, 14.5)),
            };
            commands.push(Command::new(id, order));
        }
        Some(commands)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.turn > self.turns {
            return Err(format!("turn {} beyond {}", self.turn, self.turns));
        }
        if self.scores.iter().sum::<u32>() > self.turn {
            return Err(format!("game scores {:?} exceed the {} turns played", self.scores, self.turn));
        }
        let blocked = self.blocked();
        let mut tower_tiles: Vec<Tile> = Vec::new();
        for (seat, player) in self.players.iter().enumerate() {
            if player.bots.len() > MAX_NUM_BOTS {
                return Err(format!("seat {seat} has {} bots", player.bots.len()));
            }
            if player.towers.len() > MAX_NUM_TOWERS {
                return Err(format!("seat {seat} has {} towers", player.towers.len()));
            }
            // Each player numbers its own units.
            let mut ids: Vec<u32> = Vec::new();
            for bot in &player.bots {
                // A bot that just transformed shares its id with its tower until it is removed.
                let transformed = bot.state == BotState::Dead && player.towers.iter().any(|t| t.id == bot.id);
                if !transformed {
                    ids.push(bot.id);
                }
                if bot.hp > MAX_BOT_HP {
                    return Err(format!("bot {} has {} hp", bot.id, bot.hp));
                }
                if (bot.hp == 0) != (bot.state == BotState::Dead) {
                    return Err(format!("bot {} has {} hp in state {:?}", bot.id, bot.hp, bot.state));
                }
                // Orders are stored only in TRANSFORM (and kept, beside a move, once dead).
                if bot.held.is_some() && !matches!(bot.state, BotState::Transform | BotState::Dead) {
                    return Err(format!("bot {} holds an order in state {:?}", bot.id, bot.state));
                }
                let p = bot.pos;
                let on_map = |v: f64| (0.0..=MAP_SIZE as f64).contains(&v);
                if !(on_map(p.x) && on_map(p.y)) {
                    return Err(format!("bot {} is off the map at {p}", bot.id));
                }
                // Strictly inside a blocked tile (standing on its edge is allowed: a tower can
                // be built next to a bot on a grid line). A bot that just transformed is DEAD
                // on its tower's tile until it is removed.
                let tile = engine_tile(seat, p.tile());
                let inside = p.x.floor() != p.x && p.y.floor() != p.y && blocked.contains(tile);
                if inside && bot.state != BotState::Dead {
                    return Err(format!("seat {seat}'s bot {} stands inside blocked tile {tile}", bot.id));
                }
            }
            for tower in &player.towers {
                ids.push(tower.id);
                if tower.hp > rules::MAX_TOWER_HP || (tower.hp == 0) != (tower.state == TowerState::Dead) {
                    return Err(format!("tower {} has {} hp in state {:?}", tower.id, tower.hp, tower.state));
                }
                let tile = engine_tile(seat, tower.tile);
                if self.map.terrain(tile) == Terrain::Water || rules::is_base_tile(tile) {
                    return Err(format!("tower {} stands on {tile}", tower.id));
                }
                tower_tiles.push(tile);
            }
            ids.sort_unstable();
            if ids.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("two units of seat {seat} share an id"));
            }
            let next = player.next_id.min(ENEMY_ID_BASE);
            if ids.last().is_some_and(|id| *id >= next) || ids.first() == Some(&0) {
                return Err(format!("seat {seat}'s unit ids {:?}..{:?} outside 1..{next}", ids.first(), ids.last()));
            }
        }
        tower_tiles.sort_unstable();
        if tower_tiles.windows(2).any(|w| w[0] == w[1]) {
            return Err("two towers share a tile".to_string());
        }
        Ok(())
    }
}

/// A compact picture for humans and the golden playthrough, in engine coordinates: the turn,
/// scores and unit counts, then the map (`.` land, `~` water, `+` flag; `A`/`B` a tower of seat
/// 0/1; `a`/`b` living bots of seat 0/1 counted on that tile, `*` both).
impl std::fmt::Display for CodeCharacter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "turn {}/{}, game score {}-{}, last points {}-{}",
            self.turn, self.turns, self.scores[0], self.scores[1], self.points[0], self.points[1]
        )?;
        let mut grid: Vec<char> = Tile::all()
            .map(|tile| match self.map.terrain(tile) {
                Terrain::Land => '.',
                Terrain::Water => '~',
                Terrain::Flag => '+',
            })
            .collect();
        let mut bots = [[false; MAP_SIZE * MAP_SIZE]; 2];
        for (seat, player) in self.players.iter().enumerate() {
            let dead_bots = player.bots.iter().filter(|b| b.state == BotState::Dead).count();
            let dead_towers = player.towers.iter().filter(|t| t.state == TowerState::Dead).count();
            writeln!(
                f,
                "seat {seat}: {} bots ({dead_bots} dead), {} towers ({dead_towers} dead)",
                player.bots.len(),
                player.towers.len()
            )?;
            for bot in player.bots.iter().filter(|b| b.state != BotState::Dead) {
                bots[seat][engine_tile(seat, bot.pos.tile()).index()] = true;
            }
        }
        for (i, cell) in grid.iter_mut().enumerate() {
            *cell = match (bots[0][i], bots[1][i]) {
                (true, true) => '*',
                (true, false) => 'a',
                (false, true) => 'b',
                (false, false) => *cell,
            };
        }
        for (seat, player) in self.players.iter().enumerate() {
            for tower in player.towers.iter().filter(|t| t.state != TowerState::Dead) {
                if let Some(cell) = grid.get_mut(engine_tile(seat, tower.tile).index()) {
                    *cell = if seat == 0 { 'A' } else { 'B' };
                }
            }
        }
        for (x, row) in grid.chunks(MAP_SIZE).enumerate() {
            let line: String = row.iter().collect();
            write!(f, "{x:2} {line}")?;
            if x + 1 < MAP_SIZE {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
