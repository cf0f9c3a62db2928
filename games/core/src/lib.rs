//! The one abstraction every Wasm Arena game implements, and what all games share.
//!
//! A game is a value you step (OpenSpiel's model): the host asks [`Game::to_act`] which seats must
//! answer now, shows each of them [`Game::observe`], validates each answer with [`Game::check`], and
//! calls [`Game::step`] with the joint action (`None` for "no action", for which the game applies
//! its own [`Game::no_action`] fallback). `step` is written once, here, around the turn an
//! engine implements ([`Game::apply`]), which never sees an unchecked action. Engines never panic
//! on any action value: a bad one is a typed [`Game::Invalid`] error.
//!
//! Engines know nothing of WebAssembly, fuel or bots; the host owns those. [`conformance`] is the
//! shared test kit every engine's tests call.

pub mod bench;
pub mod case_codes;
pub mod conformance;
pub mod golden;
mod hash;
pub mod options;
mod outcome;
pub mod rng;

pub use hash::stable_hash;
pub use options::{OptionDoc, config_from_pairs};
pub use outcome::{Outcome, ranks_from_scores};
pub use rng::{GameRng, RNG_ALGORITHM, new_rng, rng_below};

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// A seat index, 0-based, in the order the match lists its players.
pub type Seat = usize;

/// Why a game could not be set up (bad player count or config).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The game does not support this many players.
    #[error("{game} takes {min}..={max} players, not {got}")]
    PlayerCount {
        /// The game's name.
        game: &'static str,
        /// Fewest players supported.
        min: usize,
        /// Most players supported.
        max: usize,
        /// What was asked for.
        got: usize,
    },
    /// The game's configuration is not usable.
    #[error("bad {game} config: {reason}")]
    Config {
        /// The game's name.
        game: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// Why [`Game::step`] refused a joint action. The game is unchanged when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The joint action does not name exactly the seats of [`Game::to_act`].
    #[error("expected actions for seats {expected:?}, got {got:?}")]
    WrongSeats {
        /// The seats that had to act.
        expected: Vec<Seat>,
        /// The seats that were given.
        got: Vec<Seat>,
    },
    /// An action failed [`Game::check`]; the host must validate first and pass `None` instead.
    #[error("seat {seat}: invalid action: {reason}")]
    Invalid {
        /// The seat whose action was refused.
        seat: Seat,
        /// The game's reason, rendered.
        reason: String,
    },
}

/// A game engine: a deterministic state machine stepped with joint actions.
///
/// Contract shared by every implementation (checked by [`conformance`]):
/// - same config, seed and actions give the same states, hashes and outcome on every machine;
/// - `to_act()` is empty exactly when `is_over()`;
/// - `no_action(seat)`, when `Some`, passes `check`;
/// - `step` with an invalid action or the wrong seats returns an error and changes nothing;
/// - a clone evolves independently; serialising and deserialising a state gives the same hash.
pub trait Game: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// Game options (board template, ...); `Default` is the spec's default setup.
    type Config: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What a seat answers in one turn.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What a seat sees before it answers.
    type Observation: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send;
    /// Why an action is refused (one variant per rule).
    type Invalid: std::error::Error + Clone + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What happened during a step, for replays and logs.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send;

    /// Short lowercase name, used on the command line and in replays (`"azul"`).
    const NAME: &'static str;
    /// Fewest seats the game supports.
    const MIN_PLAYERS: usize;
    /// Most seats the game supports.
    const MAX_PLAYERS: usize;
    /// The most turns (steps) a match that [`Game::new`] sets up can last, whatever its config
    /// and player count: such a game is over after at most this many steps. The host refuses a
    /// replay that records more turns before it holds them in memory (a small compressed file
    /// must not stand for millions of turns), and the conformance kit fails a playout past it.
    const MAX_TURNS: u32;

    /// The options `--option key=value` accepts, for `arena games`.
    fn option_docs() -> Vec<OptionDoc> {
        Vec::new()
    }

    /// A config from `--option key=value` pairs; by default [`config_from_pairs`]. A game whose
    /// option names a file (a map) overrides this to read it, so the config (and the replay)
    /// holds the contents, not the path.
    fn config_from_options(pairs: &[(String, String)]) -> Result<Self::Config, SetupError> {
        config_from_pairs(Self::NAME, pairs)
    }

    /// Sets up a new game. All randomness derives from `seed` through [`GameRng`].
    fn new(config: &Self::Config, players: usize, seed: u64) -> Result<Self, SetupError>;
    /// Number of seats.
    fn players(&self) -> usize;
    /// The seats that must answer now, ascending: one seat in alternating games, every living
    /// seat in simultaneous ones; empty exactly when the game is over.
    fn to_act(&self) -> Vec<Seat>;
    /// What `seat` sees now.
    fn observe(&self, seat: Seat) -> Self::Observation;
    /// Whether `action` is a valid answer for `seat` now.
    fn check(&self, seat: Seat, action: &Self::Action) -> Result<(), Self::Invalid>;
    /// The action the game applies for `seat` when it has none (skipped turn, fault, invalid
    /// answer); `None` when "nothing" is itself the fallback.
    fn no_action(&self, seat: Seat) -> Option<Self::Action>;
    /// Plays one turn whose actions are already checked: one entry per seat of
    /// [`Game::to_act`], ascending, each a valid action or the seat's fallback (see [`Applied`]).
    /// Engines implement this; callers use [`Game::step`], which checks first. It cannot fail.
    fn apply(&mut self, actions: &[Applied<Self::Action>]) -> Vec<Self::Event>;
    /// Advances the game by one turn. `actions` names each seat of [`Game::to_act`] once, in any
    /// order; `None` means the seat has no action and [`Game::no_action`] applies. The events;
    /// [`Game::step_applied`] also says what was applied.
    fn step(&mut self, actions: &[(Seat, Option<Self::Action>)]) -> Result<Vec<Self::Event>, StepError> {
        self.step_applied(actions).map(|stepped| stepped.events)
    }
    /// [`Game::step`], written once for every engine: refuses a finished game, a joint action
    /// that does not name exactly the seats of [`Game::to_act`] and any action [`Game::check`]
    /// refuses (changing nothing), substitutes [`Game::no_action`] for a missing one, then
    /// [`Game::apply`]s. Returns the events and what each seat's action became.
    fn step_applied(&mut self, actions: &[(Seat, Option<Self::Action>)]) -> Result<Stepped<Self>, StepError> {
        if self.is_over() {
            return Err(StepError::GameOver);
        }
        let to_act = self.to_act();
        check_seats(&to_act, actions)?;
        for (seat, action) in actions {
            if let Some(action) = action {
                self.check(*seat, action).map_err(|err| StepError::Invalid { seat: *seat, reason: err.to_string() })?;
            }
        }
        let applied: Vec<Applied<Self::Action>> = to_act
            .iter()
            .map(|&seat| {
                match actions.iter().find(|(given, _)| *given == seat).and_then(|(_, action)| action.clone()) {
                    Some(action) => Applied { seat, action: Some(action), fallback: false },
                    None => Applied { seat, action: self.no_action(seat), fallback: true },
                }
            })
            .collect();
        let events = self.apply(&applied);
        Ok(Stepped { events, applied })
    }
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Scores and ranks now (final once `is_over`).
    fn outcome(&self) -> Outcome;
    /// A hash of the whole state, stable across machines and runs.
    fn state_hash(&self) -> u64 {
        stable_hash(self)
    }
    /// A uniformly random valid action for `seat` (random bots and the conformance kit), or
    /// `None` if `seat` has nothing to choose.
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Self::Action>;
    /// Game-specific invariants (tile conservation, hp never negative, ...): `Err` names the
    /// broken one. The conformance kit checks this after every step.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A game that treats every seat alike, opted into by implementing this (the conformance kit's
/// [`conformance::check_symmetry`] then checks it): for a symmetric setup (`is_symmetric`),
/// permuting the seats of the players permutes the whole match. Seat `s` of a match and seat
/// `perm[s]` of the same match played with the seats permuted see the same observation up to
/// [`SeatSymmetric::permute_observation`], given actions that correspond by
/// [`SeatSymmetric::permute_action`], and the steps' events correspond by
/// [`SeatSymmetric::permute_events`]; the outcome's scores are permuted the same way.
///
/// `perm` is a permutation of `0..players`: `perm[s]` is the seat that seat `s`'s player takes.
pub trait SeatSymmetric: Game {
    /// Whether a match with `config` is symmetric (a game whose symmetry depends on its board
    /// says so here); by default every setup is.
    fn is_symmetric(config: &Self::Config) -> bool {
        let _ = config;
        true
    }

    /// What seat `perm[s]` of the permuted match sees when seat `s` of this one sees
    /// `observation` (usually the same thing, with the observer's own seat renumbered).
    fn permute_observation(observation: &Self::Observation, perm: &[Seat]) -> Self::Observation;

    /// The action seat `perm[s]` of the permuted match gives when seat `s` of this one gives
    /// `action`; by default the same action (actions in the player's own terms).
    fn permute_action(action: &Self::Action, perm: &[Seat]) -> Self::Action {
        let _ = perm;
        action.clone()
    }

    /// The events the permuted match's step gives when this match's step gives `events`, in
    /// the order that match gives them.
    fn permute_events(events: &[Self::Event], perm: &[Seat]) -> Vec<Self::Event>;
}

/// One seat's action as a step applies it: checked, with the fallback substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied<A> {
    /// The seat.
    pub seat: Seat,
    /// The action applied; `None` when the seat does nothing (its fallback is "nothing").
    pub action: Option<A>,
    /// Whether `action` is the game's fallback ([`Game::no_action`]) for a seat that gave none.
    pub fallback: bool,
}

/// What one step did: the engine's events and each acting seat's applied action, ascending.
#[derive(Debug, Clone)]
pub struct Stepped<G: Game> {
    /// What happened.
    pub events: Vec<G::Event>,
    /// Per acting seat, what was applied.
    pub applied: Vec<Applied<G::Action>>,
}

/// Checks that `actions` names exactly the seats in `to_act`, each once: the shared first step of
/// every engine's [`Game::step`].
pub fn check_seats<A>(to_act: &[Seat], actions: &[(Seat, Option<A>)]) -> Result<(), StepError> {
    let mut got: Vec<Seat> = actions.iter().map(|(seat, _)| *seat).collect();
    got.sort_unstable();
    if got != to_act {
        return Err(StepError::WrongSeats { expected: to_act.to_vec(), got });
    }
    Ok(())
}
