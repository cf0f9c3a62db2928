//! The engine: [`Suitebot`] holds the whole state of one match and implements `arena_game::Game`
//! (a simultaneous game: every seat answers every round; one step is one round of suitebot.md
//! "One round", its five steps in order). Every rule decision is delegated to [`crate::rules`],
//! which bots share.
//!
//! Notes on what the rules imply:
//! - **Agents never share a field between rounds.** Step 2 kills every agent sharing a field, an
//!   explosion only removes agents, and step 5 puts each base's owner, and nobody else, on it.
//!   `check_invariants` checks it.
//! - **Dead agents are off the board until step 5**: an agent killed in a collision is not on a
//!   field during step 4, so it cannot be killed twice or earn its killer points **\[ours\]**, and it
//!   does not plant (suitebot.md "One round" 3 **\[ours\]**).
//! - **Collisions and enemy-base kills score nothing \[ours\]** (suitebot.md "One round" 2 and 5):
//!   only explosions give points.
//! - **The game uses no randomness**: the seed is ignored, and the same actions give the same game.
//! - **Scores only grow**: fields and kills give points, nothing takes them away. The engine keeps
//!   the counts of mined points and of enemy kills, and the score is derived from them.

use crate::board::by_seat;
use crate::config::{MAX_ROUNDS, SuitebotConfig};
use crate::event::Event;
use crate::rules::{self, BOMB_COUNTDOWN, FIELD_POINTS, KILL_POINTS, MAX_PLAYERS, MIN_PLAYERS, Torus};
use crate::{Action, Bomb, Invalid, PlayerView, Pos, View};
use arena_game::{Applied, Game, GameRng, OptionDoc, Outcome, Seat, SetupError, ranks_from_scores, rng_below};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One player's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Player {
    /// Its home base.
    base: Pos,
    /// Where its agent stands.
    agent: Pos,
    /// The action its agent played last round; `None` before the first round.
    last_move: Option<Action>,
    /// Field points it has mined.
    mined: u32,
    /// Enemy agents it has killed.
    kills: u32,
}

impl Player {
    /// Mined points plus [`KILL_POINTS`] per enemy kill (suitebot.md "One round" 4).
    fn score(&self) -> i64 {
        i64::from(self.mined) + i64::from(KILL_POINTS) * i64::from(self.kills)
    }

    fn view(&self) -> PlayerView {
        PlayerView { score: self.score(), base: self.base, agent: self.agent, last_move: self.last_move }
    }
}

/// The state of one SuiteBot II match (2 to 8 seats).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suitebot {
    /// The match's options.
    config: SuitebotConfig,
    /// Rounds played so far; the game is over when this reaches `config.rounds`.
    played: u32,
    /// Points left per field, row-major ([`Torus::index`]).
    points: Vec<u8>,
    /// The bombs, row-major; between rounds every countdown is below [`BOMB_COUNTDOWN`].
    bombs: Vec<Bomb>,
    /// The players, by seat.
    players: Vec<Player>,
}

impl Suitebot {
    /// The board.
    fn torus(&self) -> Torus {
        self.config.torus()
    }

    /// The seat whose home base is `pos`, if any.
    fn base_owner(&self, pos: Pos) -> Option<u8> {
        by_seat(&self.players).find(|(_, player)| player.base == pos).map(|(seat, _)| seat)
    }

    fn scores(&self) -> Vec<i64> {
        self.players.iter().map(Player::score).collect()
    }

    /// Plays one round with the actions `applied` (by seat); suitebot.md "One round", steps 1 to 5.
    fn play_round(&mut self, applied: &[Action], fallback: Vec<u8>, events: &mut Vec<Event>) {
        let torus = self.torus();
        let round = self.played.saturating_add(1);
        events.push(Event::Acted { round, actions: applied.to_vec(), fallback });

        // 1. Agents move, all at once.
        let agents: Vec<Pos> = self.players.iter().map(|player| player.agent).collect();
        let moved = rules::moved(torus, &agents, applied);
        for ((player, to), action) in self.players.iter_mut().zip(&moved).zip(applied) {
            player.agent = *to;
            player.last_move = Some(*action);
        }

        // 2. Colliding agents die.
        let mut dead = rules::collided(&moved);
        let mut collisions: BTreeMap<Pos, Vec<u8>> = BTreeMap::new();
        for ((seat, at), _) in by_seat(&moved).zip(&dead).filter(|(_, dead)| **dead) {
            collisions.entry(*at).or_default().push(seat);
        }
        events.extend(collisions.into_iter().map(|(at, seats)| Event::Collided { at, seats }));

        // 3. Living agents plant bombs, replacing any bomb on their field.
        for (((seat, player), action), dead) in by_seat(&self.players).zip(applied).zip(&dead) {
            if *action == Action::PlantBomb && !*dead {
                let bomb = Bomb { at: player.agent, owner: seat, countdown: BOMB_COUNTDOWN };
                let replaced = rules::plant(&mut self.bombs, bomb);
                events.push(Event::Planted { seat, at: player.agent, replaced });
            }
        }

        // 4. Bombs explode: chains, mining, kills.
        let explosion = rules::explode(torus, self.config.blast_radius, &self.bombs);
        if !explosion.exploded.is_empty() {
            events.push(Event::Exploded { bombs: explosion.exploded.clone() });
            let mut mined = vec![0u32; self.players.len()];
            let mut contested = 0u32;
            for (field, cover) in &explosion.fields {
                let Some(points) = torus.index(*field).and_then(|i| self.points.get_mut(i)) else { continue };
                let points = u32::from(std::mem::take(points));
                match cover.owner().and_then(|owner| mined.get_mut(usize::from(owner))) {
                    Some(gain) => *gain += points,
                    None => contested += points,
                }
            }
            for (player, gain) in self.players.iter_mut().zip(&mined) {
                player.mined = player.mined.saturating_add(*gain);
            }
            events.push(Event::Mined { points: mined, contested });
            for (seat, dead) in by_seat(dead.iter_mut()) {
                let Some(at) = self.players.get(usize::from(seat)).map(|player| player.agent) else { continue };
                let Some(cover) = explosion.cover_at(at).filter(|_| !*dead) else { continue };
                *dead = true;
                let credit = cover.kill_credit(seat);
                if let Some(killer) = credit.and_then(|killer| self.players.get_mut(usize::from(killer))) {
                    killer.kills = killer.kills.saturating_add(1);
                }
                events.push(Event::Killed { seat, at, cover, credit });
            }
        }
        self.bombs = explosion.left;

        // 5. The dead respawn on their bases; then agents on enemy bases are killed and respawn.
        for ((seat, player), dead) in by_seat(&mut self.players).zip(&dead) {
            if *dead {
                player.agent = player.base;
                events.push(Event::Respawned { seat, at: player.base });
            }
        }
        for seat in 0..self.players.len() {
            let Some(at) = self.players.get(seat).map(|player| player.agent) else { continue };
            let seat = u8::try_from(seat).unwrap_or(u8::MAX);
            let Some(base_of) = self.base_owner(at).filter(|owner| *owner != seat) else { continue };
            if let Some(player) = self.players.get_mut(usize::from(seat)) {
                player.agent = player.base;
                events.push(Event::OnEnemyBase { seat, at, base_of });
                events.push(Event::Respawned { seat, at: player.base });
            }
        }

        self.played = round;
        events.push(Event::RoundEnded { round, scores: self.scores() });
        if self.is_over() {
            let outcome = self.outcome();
            events.push(Event::GameEnded { scores: outcome.scores, ranks: outcome.ranks });
        }
    }
}

impl Game for Suitebot {
    type Config = SuitebotConfig;
    type Action = Action;
    type Observation = View;
    type Invalid = Invalid;
    type Event = Event;

    const NAME: &'static str = "suitebot";
    const MIN_PLAYERS: usize = MIN_PLAYERS;
    const MAX_PLAYERS: usize = MAX_PLAYERS;
    /// One round a step, at most [`MAX_ROUNDS`] of them.
    const MAX_TURNS: u32 = MAX_ROUNDS;

    fn option_docs() -> Vec<OptionDoc> {
        SuitebotConfig::option_docs()
    }

    /// [`SuitebotConfig::from_options`]: the generic reader, plus the `board` option it cannot see.
    fn config_from_options(pairs: &[(String, String)]) -> Result<SuitebotConfig, SetupError> {
        SuitebotConfig::from_options(pairs)
    }

    /// Sets up the board: every field holds [`FIELD_POINTS`], home bases none, each agent on its
    /// base ([`rules::home_bases`]). The seed is not used: the game has no randomness.
    fn new(config: &SuitebotConfig, players: usize, _seed: u64) -> Result<Self, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::PlayerCount { game: Self::NAME, min: MIN_PLAYERS, max: MAX_PLAYERS, got: players });
        }
        config.validate()?;
        let torus = config.torus();
        let bases = rules::home_bases(torus, players);
        let mut points = vec![FIELD_POINTS; torus.fields()];
        for base in &bases {
            if let Some(points) = torus.index(*base).and_then(|i| points.get_mut(i)) {
                *points = 0;
            }
        }
        let players =
            bases.into_iter().map(|base| Player { base, agent: base, last_move: None, mined: 0, kills: 0 }).collect();
        Ok(Suitebot { config: config.clone(), played: 0, points, bombs: Vec::new(), players })
    }

    fn players(&self) -> usize {
        self.players.len()
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.is_over() { Vec::new() } else { (0..self.players.len()).collect() }
    }

    fn observe(&self, seat: Seat) -> View {
        View {
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            round: self.played.saturating_add(1),
            rounds: self.config.rounds,
            width: self.config.width,
            height: self.config.height,
            blast_radius: self.config.blast_radius,
            players: self.players.iter().map(Player::view).collect(),
            points: self.points.clone(),
            bombs: self.bombs.clone(),
            board: self.config.board,
        }
    }

    /// Every action is valid for every seat while the game runs (see [`Invalid`]).
    fn check(&self, seat: Seat, _action: &Action) -> Result<(), Invalid> {
        if self.is_over() {
            return Err(Invalid::GameOver);
        }
        if seat >= self.players.len() {
            return Err(Invalid::NoSuchSeat { seat, players: self.players.len() });
        }
        Ok(())
    }

    /// HOLD (suitebot.md "Actions": a missing or invalid answer, or a skipped turn, is HOLD).
    fn no_action(&self, seat: Seat) -> Option<Action> {
        self.check(seat, &Action::Hold).ok().map(|()| Action::Hold)
    }

    fn apply(&mut self, actions: &[Applied<Action>]) -> Vec<Event> {
        let mut applied = vec![Action::Hold; self.players.len()];
        // Seats that gave no action, ascending (their fallback is `Hold`).
        let mut fallback = Vec::new();
        for seat_action in actions {
            if seat_action.fallback {
                fallback.push(u8::try_from(seat_action.seat).unwrap_or(u8::MAX));
            } else if let (Some(action), Some(slot)) = (seat_action.action, applied.get_mut(seat_action.seat)) {
                *slot = action;
            }
        }
        let mut events = Vec::new();
        self.play_round(&applied, fallback, &mut events);
        events
    }

    fn is_over(&self) -> bool {
        self.played >= self.config.rounds
    }

    /// Scores, and ranks by score alone: equal points share a place (suitebot.md "End").
    fn outcome(&self) -> Outcome {
        let scores = self.scores();
        Outcome { ranks: ranks_from_scores(&scores), scores }
    }

    /// Uniform over the six actions (all are always valid).
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        self.check(seat, &Action::Hold).ok()?;
        let pick = rng_below(rng, Action::ALL.len() as u32);
        Action::ALL.get(usize::try_from(pick).unwrap_or(usize::MAX)).copied()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let torus = self.torus();
        let n = self.players.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(format!("{n} players"));
        }
        if self.played > self.config.rounds {
            return Err(format!("{} rounds played of {}", self.played, self.config.rounds));
        }
        if self.points.len() != torus.fields() {
            return Err(format!("{} field entries for {} fields", self.points.len(), torus.fields()));
        }
        if let Some(i) = self.points.iter().position(|points| *points > FIELD_POINTS) {
            return Err(format!("field {:?} holds {} points", torus.pos(i), self.points.get(i).unwrap_or(&0)));
        }
        for (seat, player) in self.players.iter().enumerate() {
            if !torus.contains(player.agent) || !torus.contains(player.base) {
                return Err(format!("seat {seat}: agent {} or base {} off the board", player.agent, player.base));
            }
            if self.players.iter().skip(seat + 1).any(|other| other.agent == player.agent) {
                return Err(format!("seat {seat}: another agent shares {}", player.agent));
            }
            if self.players.iter().skip(seat + 1).any(|other| other.base == player.base) {
                return Err(format!("seat {seat}: another seat shares the base {}", player.base));
            }
            if let Some(owner) = self.base_owner(player.agent).filter(|owner| usize::from(*owner) != seat) {
                return Err(format!("seat {seat}: agent on seat {owner}'s base"));
            }
            if torus.index(player.base).and_then(|i| self.points.get(i)).copied() != Some(0) {
                return Err(format!("seat {seat}: points on the base {}", player.base));
            }
            if (self.played == 0) != player.last_move.is_none() {
                return Err(format!("seat {seat}: last move {:?} after {} rounds", player.last_move, self.played));
            }
        }
        if let Some(pair) = self.bombs.windows(2).find(|pair| pair.first().map(|b| b.at) >= pair.get(1).map(|b| b.at)) {
            return Err(format!("bombs out of order or sharing a field: {pair:?}"));
        }
        if let Some(bomb) = self
            .bombs
            .iter()
            .find(|bomb| !torus.contains(bomb.at) || usize::from(bomb.owner) >= n || bomb.countdown >= BOMB_COUNTDOWN)
        {
            return Err(format!("bad bomb {bomb:?}"));
        }
        // Mined points come from fields: no more than the points gone from the board.
        let start = u64::from(FIELD_POINTS) * torus.fields().saturating_sub(n) as u64;
        let left: u64 = self.points.iter().map(|points| u64::from(*points)).sum();
        let mined: u64 = self.players.iter().map(|player| u64::from(player.mined)).sum();
        if mined + left > start {
            return Err(format!("{mined} points mined and {left} left, of {start}"));
        }
        Ok(())
    }
}

/// A compact board for humans and the golden playthrough: a header, one line per seat, the board
/// (agents `a`..`h` by seat, bombs as their countdown digit, free home bases `A`..`H`, `.` a field
/// with a point, `-` a mined one), then the bombs with owners.
impl std::fmt::Display for Suitebot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let torus = self.torus();
        if self.is_over() {
            write!(f, "game over after {} rounds", self.played)?;
        } else {
            write!(f, "round {} of {}", self.played.saturating_add(1), self.config.rounds)?;
        }
        writeln!(f, ", {} x {}, blast radius {}", self.config.width, self.config.height, self.config.blast_radius)?;
        for (seat, player) in self.players.iter().enumerate() {
            let last = player.last_move.map_or('-', Action::letter);
            writeln!(
                f,
                "seat {seat} ({}): score {} ({} mined, {} kills), agent {}, base {}, last {last}",
                seat_letter(seat, b'a'),
                player.score(),
                player.mined,
                player.kills,
                player.agent,
                player.base
            )?;
        }
        for y in 0..torus.height {
            let row: String = (0..torus.width).map(|x| self.field_char(Pos::new(x, y))).collect();
            writeln!(f, "{row}")?;
        }
        write!(f, "bombs:")?;
        if self.bombs.is_empty() {
            write!(f, " none")?;
        }
        for bomb in &self.bombs {
            write!(f, " {} {}{}", bomb.at, seat_letter(usize::from(bomb.owner), b'a'), bomb.countdown)?;
        }
        Ok(())
    }
}

impl Suitebot {
    /// One field of the text board (see the `Display` impl).
    fn field_char(&self, pos: Pos) -> char {
        if let Some(seat) = self.players.iter().position(|player| player.agent == pos) {
            return seat_letter(seat, b'a');
        }
        if let Some(bomb) = self.bombs.iter().find(|bomb| bomb.at == pos) {
            return char::from_digit(u32::from(bomb.countdown), 10).unwrap_or('*');
        }
        if let Some(seat) = self.base_owner(pos) {
            return seat_letter(usize::from(seat), b'A');
        }
        match self.torus().index(pos).and_then(|i| self.points.get(i)) {
            Some(points) if *points > 0 => '.',
            _ => '-',
        }
    }
}

/// `a`.. (or `A`..) for a seat.
fn seat_letter(seat: usize, first: u8) -> char {
    char::from(first.saturating_add(u8::try_from(seat).unwrap_or(u8::MAX - first)))
}

#[cfg(test)]
mod tests;
