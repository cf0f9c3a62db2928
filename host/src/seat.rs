//! What the match loop talks to: one [`SeatBot`] per seat, whatever kind of bot sits there, and
//! the [`Contestant`] that makes one for each match.
//!
//! Two kinds implement them: a component exporting the game's WIT world
//! (`BotRunner`, from a [`LoadedBot`]) and a WASI command speaking the
//! game's original line protocol ([`ProtocolRunner`](crate::protocol::runner::ProtocolRunner),
//! from a [`LoadedCommand`](crate::loader::LoadedCommand)). Both implement the same budget
//! contract (DESIGN.md section 1), so one match can seat both.

use crate::bot::{BotRunner, BotStats, TurnReport};
use crate::budget::Budget;
use crate::fault::ForfeitReason;
use crate::games::Binding;
use crate::loader::LoadedBot;
use crate::play::BotRef;
use crate::runtime::Arena;
use arena_game::Game;
use std::sync::Arc;

/// One bot in one seat of one match. Object-safe: the match loop holds `Box<dyn SeatBot<G>>`.
pub trait SeatBot<G: Game>: Send {
    /// Starts the bot (metered: instantiation and `init` or the protocol's greeting). Called
    /// once before the match; restarts after traps happen inside [`SeatBot::play`].
    fn start(&mut self) -> TurnReport<G::Action>;
    /// Tells the bot the match's initial state before [`SeatBot::start`] (a WIT bot passes it to
    /// [`Binding::init_in`]); the default ignores it.
    fn seated_in(&mut self, game: &Arc<G>) {
        let _ = game;
    }
    /// Plays one turn: restarts the bot if it trapped, then asks (or resumes) it.
    fn play(&mut self, observation: &G::Observation) -> TurnReport<G::Action>;
    /// Records that the game refused this turn's answer.
    fn note_invalid_action(&mut self);
    /// Totals so far.
    fn stats(&self) -> BotStats;
    /// Why the bot is out, if it is.
    fn forfeit(&self) -> Option<ForfeitReason>;
    /// The bot as the replay names it.
    fn identity(&self) -> BotRef;
    /// Why the host could not run the bot (an instance it could not make for want of host
    /// resources, see [`crate::fault::is_host_exhaustion`]), if that happened: the match cannot
    /// be played fairly and stops with [`crate::play::MatchError::HostResources`], no fault is
    /// recorded against the bot.
    fn host_failure(&self) -> Option<String> {
        None
    }
}

/// A loaded bot that can take a seat: makes a fresh [`SeatBot`] for each match.
pub trait Contestant<G: Game>: Send + Sync {
    /// The bot as the replay names it.
    fn identity(&self) -> BotRef;
    /// A bot for `seat` of a match with `players` seats, not started yet.
    fn seat(&self, arena: &Arena, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Box<dyn SeatBot<G>>;
}

impl<B: Binding> SeatBot<B::Game> for BotRunner<B> {
    fn start(&mut self) -> TurnReport<<B::Game as Game>::Action> {
        BotRunner::start(self)
    }

    fn seated_in(&mut self, game: &Arc<B::Game>) {
        BotRunner::seated_in(self, game.clone())
    }

    fn play(&mut self, observation: &<B::Game as Game>::Observation) -> TurnReport<<B::Game as Game>::Action> {
        BotRunner::play(self, observation)
    }

    fn note_invalid_action(&mut self) {
        BotRunner::note_invalid_action(self)
    }

    fn stats(&self) -> BotStats {
        BotRunner::stats(self)
    }

    fn forfeit(&self) -> Option<ForfeitReason> {
        BotRunner::forfeit(self)
    }

    fn identity(&self) -> BotRef {
        self.bot().identity()
    }

    fn host_failure(&self) -> Option<String> {
        BotRunner::host_failure(self)
    }
}

impl<B: Binding> LoadedBot<B> {
    /// The bot as the replay names it.
    pub fn identity(&self) -> BotRef {
        BotRef { name: self.name.clone(), path: self.path.clone(), sha256: self.sha256_hex() }
    }
}

/// A WIT bot takes a seat as a [`BotRunner`].
pub struct WitContestant<B: Binding>(pub Arc<LoadedBot<B>>);

impl<B: Binding> Contestant<B::Game> for WitContestant<B> {
    fn identity(&self) -> BotRef {
        self.0.identity()
    }

    fn seat(&self, arena: &Arena, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Box<dyn SeatBot<B::Game>> {
        Box::new(BotRunner::new(arena, self.0.clone(), budget, seat, players, match_seed))
    }
}
