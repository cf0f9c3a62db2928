//! What a seat sees ([`View`], the engine's `Game::Observation`) and the rule helpers bots call on
//! it. Every helper delegates to [`crate::rules`], the same functions the engine uses.

use crate::board::by_seat;
use crate::rules::{self, Torus};
use crate::{Action, BoardEncoding, Bomb, PlayerView, Pos};
use serde::{Deserialize, Serialize};

/// Everything suitebot.md "What a bot sees" lists except fuel (the host adds fuel). Player ids are
/// seats (0-based here; the original protocol numbers them from 1, see [`crate::protocol`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The observer's seat.
    pub seat: u8,
    /// The round about to be played, 1-based (`rounds + 1` once the game is over).
    pub round: u32,
    /// Rounds in the game.
    pub rounds: u32,
    /// Board width.
    pub width: u16,
    /// Board height.
    pub height: u16,
    /// The match's blast radius: a bomb's area is the (2r+1) x (2r+1) square around it.
    pub blast_radius: u8,
    /// Every player, by seat: score, home base, agent, last move.
    pub players: Vec<PlayerView>,
    /// Points left on every field, row-major (index `y * width + x`, see [`Torus::index`]).
    pub points: Vec<u8>,
    /// Every bomb, row-major, with its owner and countdown (rounds left before the round it
    /// explodes in: 0 = this round).
    pub bombs: Vec<Bomb>,
    /// How the line protocol writes the board (the match's `board` option); the view itself is
    /// the same either way. Left out when serialised as the original, `nested`.
    #[serde(default = "BoardEncoding::when_missing", skip_serializing_if = "BoardEncoding::is_nested")]
    pub board: BoardEncoding,
}

impl View {
    /// The board.
    pub fn torus(&self) -> Torus {
        Torus::new(self.width, self.height)
    }

    /// The observer's own player, `None` only for a malformed view.
    pub fn me(&self) -> Option<&PlayerView> {
        self.players.get(usize::from(self.seat))
    }

    /// Rounds still to play, this one included (the original `remainingRounds`); 0 once the game
    /// is over.
    pub fn rounds_left(&self) -> u32 {
        self.rounds.saturating_add(1).saturating_sub(self.round)
    }

    /// Points left on `pos` (0 off the board).
    pub fn points_at(&self, pos: Pos) -> u8 {
        self.torus().index(pos).and_then(|i| self.points.get(i)).copied().unwrap_or(0)
    }

    /// The bomb on `pos`, if any.
    pub fn bomb_at(&self, pos: Pos) -> Option<&Bomb> {
        self.bombs.iter().find(|bomb| bomb.at == pos)
    }

    /// The seat whose agent stands on `pos`, if any.
    pub fn agent_at(&self, pos: Pos) -> Option<u8> {
        by_seat(&self.players).find(|(_, player)| player.agent == pos).map(|(seat, _)| seat)
    }

    /// The seat whose home base is `pos`, if any.
    pub fn base_of(&self, pos: Pos) -> Option<u8> {
        by_seat(&self.players).find(|(_, player)| player.base == pos).map(|(seat, _)| seat)
    }

    /// (`x`, `y`) wrapped onto the board ([`Torus::wrap`]).
    pub fn wrap(&self, x: i64, y: i64) -> Pos {
        self.torus().wrap(x, y)
    }

    /// Where an agent on `pos` stands after `action` ([`Torus::neighbour`]).
    pub fn neighbour(&self, pos: Pos, action: Action) -> Pos {
        self.torus().neighbour(pos, action)
    }

    /// Moves needed from `a` to `b` ([`Torus::distance`]).
    pub fn distance(&self, a: Pos, b: Pos) -> u32 {
        self.torus().distance(a, b)
    }

    /// The fields a bomb on `at` would blast ([`Torus::blast_area`]).
    pub fn blast_area(&self, at: Pos) -> Vec<Pos> {
        self.torus().blast_area(at, self.blast_radius)
    }

    /// Whether a bomb on `bomb` blasts `field` ([`Torus::in_blast`]).
    pub fn in_blast(&self, bomb: Pos, field: Pos) -> bool {
        self.torus().in_blast(bomb, field, self.blast_radius)
    }

    /// Points left in the blast area of `at`: what a lone bomb there would mine now.
    pub fn points_in_blast(&self, at: Pos) -> u32 {
        self.blast_area(at).into_iter().map(|field| u32::from(self.points_at(field))).sum()
    }

    /// When each bomb of [`View::bombs`] explodes if nobody plants or replaces a bomb
    /// ([`rules::explosion_schedule`]): rounds from now, 0 = this round.
    pub fn explosion_schedule(&self) -> Vec<u8> {
        rules::explosion_schedule(self.torus(), self.blast_radius, &self.bombs)
    }

    /// Per field (row-major), the first round from now in which an explosion covers it, if
    /// nobody plants or replaces a bomb ([`rules::blast_schedule`]); an agent whose move this
    /// round ends on a field marked 0 dies.
    pub fn danger(&self) -> Vec<Option<u8>> {
        rules::blast_schedule(self.torus(), self.blast_radius, &self.bombs)
    }
}
