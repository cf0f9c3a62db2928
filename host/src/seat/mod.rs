//! What the match loop talks to: one [`SeatBot`] per seat, whatever kind of bot sits there, the
//! [`Contestant`] that makes one for each match, what a seat is told ([`InitInfo`], [`TurnInfo`])
//! and what it reports ([`TurnReport`], [`BotStats`]).
//!
//! Two kinds of bot take a seat: a component exporting the game's WIT world
//! ([`BotRunner`](crate::bot::BotRunner), from a [`LoadedBot`](crate::loader::LoadedBot)) and a
//! WASI command speaking the game's original line protocol
//! ([`ProtocolRunner`](crate::protocol::runner::ProtocolRunner), from a
//! [`LoadedCommand`](crate::loader::LoadedCommand)). Both are [`runner::Runner`]s: the seat's
//! context, books, start-up metering and turns are [`runner::SeatCore`]'s, written once, so
//! both keep the same budget contract (docs/design.md#the-budget-contract) and one match can seat
//! both.

pub(crate) mod ledger;
pub mod runner;

use crate::budget::Budget;
use crate::fault::{BotFault, ForfeitReason, InvalidReason};
use crate::log::TurnLog;
use crate::record::BotRef;
use crate::runtime::Arena;
use crate::store::BotState;
use arena_game::Game;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use wasmtime::Store;

/// What a bot's call hands back when it returns: its store and the call's result.
pub type CallOutput<T> = (Store<BotState>, wasmtime::Result<T>);

/// A future that owns the bot's store while it runs (so a suspended call can outlive the turn
/// that started it) and hands it back with the result.
pub type OwnedCall<T> = Pin<Box<dyn Future<Output = CallOutput<T>> + Send>>;

/// Per-bot totals over a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotStats {
    /// Fuel spent in the match, start-up included.
    pub fuel_total: u64,
    /// Most fuel spent in one turn (start-up included in the turn it happened in).
    pub fuel_max_turn: u64,
    /// Turns with no answer because the bot was suspended.
    pub skipped_turns: u32,
    /// Traps, start-up included.
    pub traps: u32,
    /// Answers the game refused.
    pub invalid_actions: u32,
}

/// What one turn of one bot produced.
#[derive(Debug)]
pub struct TurnReport<A> {
    /// The decoded answer, if the bot answered this turn (not yet checked against the game).
    pub answer: Option<A>,
    /// Fuel spent this turn (a restart's start-up included).
    pub fuel: u64,
    /// What went wrong, in order.
    pub faults: Vec<BotFault>,
    /// What the bot logged this turn.
    pub log: TurnLog,
}

/// Fuel facts passed with `init` (the WIT `init-info`, in plain Rust).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitInfo {
    /// The bot's seat.
    pub seat: u8,
    /// Seats in the match.
    pub players: u8,
    /// Restarts so far.
    pub restart_count: u32,
    /// The bot's own seed.
    pub seed: u64,
    /// Fuel per turn.
    pub turn_fuel: u64,
    /// Fuel per game.
    pub game_fuel: u64,
    /// Game fuel left as `init` starts.
    pub game_fuel_remaining: u64,
}

/// Fuel facts passed with every turn (the WIT `turn-info`, in plain Rust).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnInfo {
    /// Turns the bot was asked to play before this one.
    pub turn: u32,
    /// Fuel the call may spend this turn.
    pub turn_fuel_remaining: u64,
    /// Fuel left for the match.
    pub game_fuel_remaining: u64,
    /// Turns without an action since the previous call was handed its view (see the WIT).
    pub missed_turns: u32,
}

/// One bot in one seat of one match. Object-safe: the match loop holds `Box<dyn SeatBot<G>>`.
pub trait SeatBot<G: Game>: Send {
    /// Starts the bot (metered: instantiation and `init` or the protocol's greeting). Called
    /// once before the match; restarts after traps happen inside [`SeatBot::take_turn`].
    fn start(&mut self) -> TurnReport<G::Action>;
    /// Tells the bot the match's initial state before [`SeatBot::start`] (a WIT bot passes it to
    /// [`Binding::init_in`](crate::bindings::Binding::init_in)); the default ignores it.
    fn seated_in(&mut self, game: &Arc<G>) {
        let _ = game;
    }
    /// Takes one turn: restarts the bot if it trapped, then asks (or resumes) it.
    fn take_turn(&mut self, observation: &G::Observation) -> TurnReport<G::Action>;
    /// Records that the game refused this turn's answer, for `reason`, in the bot's books and
    /// in `faults` (the turn's), as every fault is recorded.
    fn refused(&mut self, reason: InvalidReason, faults: &mut Vec<BotFault>);
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

/// Every kind of bot is a [`SeatBot`] the same way: its [`runner::SeatCore`] keeps the books.
impl<R: runner::Runner> SeatBot<R::Game> for R {
    fn start(&mut self) -> TurnReport<<R::Game as Game>::Action> {
        runner::start(self)
    }

    fn seated_in(&mut self, game: &Arc<R::Game>) {
        runner::Runner::seated_in(self, game)
    }

    fn take_turn(&mut self, observation: &<R::Game as Game>::Observation) -> TurnReport<<R::Game as Game>::Action> {
        runner::take_turn(self, observation)
    }

    fn refused(&mut self, reason: InvalidReason, faults: &mut Vec<BotFault>) {
        self.core_mut().refused(reason, faults)
    }

    fn stats(&self) -> BotStats {
        self.core().stats()
    }

    fn forfeit(&self) -> Option<ForfeitReason> {
        self.core().forfeit_reason()
    }

    fn identity(&self) -> BotRef {
        runner::Runner::identity(self)
    }

    fn host_failure(&self) -> Option<String> {
        self.core().host_failure()
    }
}
