//! What every kind of bot shares in its seat, written once: [`SeatCore`] holds the seat's
//! context (arena, budget, seat, seeds, log, backstop deadline), its books (`Ledger`) and its
//! live instance; it meters start-up under a one-turn cap and owns the whole turn (a forfeited
//! bot, a restart after a trap, arming, driving under the backstop, charging, classifying how the
//! call ended, closing the turn). [`Runner`] is only what a kind of bot adds: starting an
//! instance, starting or resuming a turn's call, and reading its answer ([`TurnEnd`]). Every
//! `Runner` is a [`SeatBot`](super::SeatBot) through one blanket implementation in [`super`], so
//! the turn, the totals and the fault rules are the same code for a WIT component
//! ([`crate::bot::BotRunner`]) and a line-protocol command
//! ([`crate::protocol::runner::ProtocolRunner`]).

use super::{BotStats, CallOutput, OwnedCall, TurnReport};
use crate::budget::Budget;
use crate::driver::{Driven, drive};
use crate::fault::{
    BotFault, ForfeitReason, InvalidReason, Phase, TrapKind, classify, is_host_exhaustion, is_out_of_fuel,
};
use crate::log::BotLog;
use crate::meter::CallMeter;
use crate::record::BotRef;
use crate::runtime::Arena;
use crate::seat::ledger::Ledger;
use crate::seat::{InitInfo, TurnInfo};
use crate::store::{BotState, StoreHandles};
use crate::wasi::init_seed;
use arena_game::Game;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime::Store;

/// A kind of bot: how it starts an instance and takes a turn with a live one. The rest of its
/// life in a match is [`SeatCore`]'s, and the [`SeatBot`](super::SeatBot) it becomes is written
/// once over this trait.
pub trait Runner: Send {
    /// The game the bot plays.
    type Game: Game;
    /// A live instance (dropped on a trap or forfeit).
    type Live: Send;

    /// The shared part of the seat.
    fn core(&self) -> &SeatCore<Self::Live>;
    /// The shared part of the seat, mutably.
    fn core_mut(&mut self) -> &mut SeatCore<Self::Live>;
    /// The bot as the replay names it.
    fn identity(&self) -> BotRef;
    /// Starts an instance (metered: at most one turn budget per start-up step), leaving it in
    /// the core's `live` slot on success. Returns the fuel spent; a failure is recorded in `faults`.
    fn start_instance(&mut self, faults: &mut Vec<BotFault>) -> u64;
    /// What a finished call returns beside its store.
    type Answer;
    /// A turn's call in flight, with what reading its answer needs.
    type Call: Send;
    /// Starts the turn's call with `live` (taken out of the core), or resumes a suspended one:
    /// tells the bot its turn (through `SeatCore::ask_turn` or `SeatCore::asked_again`),
    /// or ends the turn before the bot runs.
    fn arm(
        &mut self,
        live: Self::Live,
        observation: &<Self::Game as Game>::Observation,
    ) -> Result<Self::Call, TurnEndOf<Self>>;
    /// What the core drives: the call, its store's meter and whether the bot waits for input.
    fn in_flight(call: &mut Self::Call) -> InFlight<'_, Self::Answer>;
    /// Reads how the driven call ended: the fuel left at the turn's charge point and the answer
    /// (or why there is none).
    fn read(
        &mut self,
        call: Self::Call,
        driven: Driven<CallOutput<Self::Answer>>,
        observation: &<Self::Game as Game>::Observation,
    ) -> TurnEndOf<Self>;
    /// Tells the runner the match's initial state (see [`SeatBot::seated_in`](super::SeatBot::seated_in)).
    fn seated_in(&mut self, game: &Arc<Self::Game>) {
        let _ = game;
    }
}

/// A call the seat core drives for a turn (see [`Runner::in_flight`]).
pub struct InFlight<'a, T> {
    /// The call; it owns the store.
    pub call: &'a mut OwnedCall<T>,
    /// The store's call meter.
    pub meter: &'a CallMeter,
    /// Whether the bot waits for input (a line-protocol bot's end of turn).
    pub is_idle: Box<dyn Fn() -> bool + 'a>,
}

/// How a turn ended, as its runner read it: the core charges the turn down to `left`, records
/// `refusals` and then the outcome.
pub struct TurnEnd<L, A> {
    /// Game fuel left at the turn's charge point.
    pub left: u64,
    /// Answers refused before the outcome (a protocol's stray lines), in order.
    pub refusals: Vec<InvalidReason>,
    /// What the turn produced.
    pub outcome: TurnOutcome<L, A>,
}

impl<L, A> TurnEnd<L, A> {
    /// A turn charged down to `left` that ended with `outcome`.
    pub fn at(left: u64, outcome: TurnOutcome<L, A>) -> Self {
        TurnEnd { left, refusals: Vec::new(), outcome }
    }
}

/// How a turn of runner `R` ended.
pub type TurnEndOf<R> = TurnEnd<<R as Runner>::Live, <<R as Runner>::Game as Game>::Action>;

/// What a turn produced, and what becomes of the instance.
pub enum TurnOutcome<L, A> {
    /// An answer, decoded or refused; the instance stays live.
    Answered(L, Result<A, InvalidReason>),
    /// Out of turn fuel before answering: suspended, the instance stays live.
    Suspended(L),
    /// Waited for input without answering: a missed turn and a refusal; the instance stays live.
    Silent(L, InvalidReason),
    /// An answer the host could not read and after which the instance cannot be re-entered: a
    /// refusal, and the instance is replaced before the next turn without counting a trap.
    Unreadable(InvalidReason),
    /// The instance is gone: a missed turn and a trap (or a forfeit).
    Ended(Ending),
}

/// Why an instance is gone.
pub enum Ending {
    /// A trap the runner named.
    Trap(TrapKind),
    /// A call that failed: the game budget used up forfeits, anything else is a trap.
    Error(wasmtime::Error),
}

/// The seat's context, books and live instance.
pub struct SeatCore<L> {
    arena: Arena,
    budget: Budget,
    seat: u8,
    players: u8,
    match_seed: u64,
    bot_sha256: [u8; 32],
    log: BotLog,
    deadline: Arc<AtomicU64>,
    /// Fuel, totals and faults.
    pub(crate) ledger: Ledger,
    /// The live instance, if there is one (none before start-up and after a trap or forfeit).
    pub(crate) live: Option<L>,
    /// The host could not make an instance (see [`SeatCore::host_failure`]).
    host_failure: Option<String>,
}

impl<L> SeatCore<L> {
    /// A seat with nothing started yet and the whole game budget left.
    pub(crate) fn new(
        arena: &Arena,
        budget: Budget,
        seat: u8,
        players: u8,
        match_seed: u64,
        bot_sha256: [u8; 32],
    ) -> SeatCore<L> {
        SeatCore {
            arena: arena.clone(),
            budget,
            seat,
            players,
            match_seed,
            bot_sha256,
            log: BotLog::default(),
            deadline: Arc::new(AtomicU64::new(u64::MAX)),
            ledger: Ledger::new(budget.game_fuel, budget.max_traps),
            live: None,
            host_failure: None,
        }
    }

    /// The match's budget.
    pub(crate) fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The arena the bot runs in.
    pub(crate) fn arena(&self) -> &Arena {
        &self.arena
    }

    /// The seat, 0-based.
    pub(crate) fn seat(&self) -> u8 {
        self.seat
    }

    /// The match seed (WASI randomness derives from it and the bot's hash).
    pub(crate) fn match_seed(&self) -> u64 {
        self.match_seed
    }

    /// The bot's log (shared by all its instances).
    pub(crate) fn log(&self) -> &BotLog {
        &self.log
    }

    /// Game fuel left.
    pub fn game_fuel_left(&self) -> u64 {
        self.ledger.game_fuel_left()
    }

    /// Totals so far.
    pub fn stats(&self) -> BotStats {
        self.ledger.stats()
    }

    /// Why the bot is out, if it is.
    pub fn forfeit_reason(&self) -> Option<ForfeitReason> {
        self.ledger.forfeited()
    }

    /// Why the host could not run the bot (an instance it could not make for want of host
    /// resources), if that happened.
    pub fn host_failure(&self) -> Option<String> {
        self.host_failure.clone()
    }

    /// Records that the game refused this turn's answer.
    pub fn refused(&mut self, reason: InvalidReason, faults: &mut Vec<BotFault>) {
        self.ledger.invalid(reason, faults);
    }

    /// The handles of a fresh instance's store: the bot's log and deadline, a new meter and clock.
    pub(crate) fn fresh_handles(&self) -> StoreHandles {
        StoreHandles::fresh(&self.log, &self.deadline)
    }

    /// What `init` (or a protocol's greeting) is told as an instance starts.
    pub(crate) fn init_info(&self) -> InitInfo {
        InitInfo {
            seat: self.seat,
            players: self.players,
            restart_count: self.ledger.restarts(),
            seed: init_seed(self.match_seed, &self.bot_sha256),
            turn_fuel: self.budget.turn_fuel,
            game_fuel: self.budget.game_fuel,
            game_fuel_remaining: self.ledger.game_fuel_left(),
        }
    }

    /// What a new turn's call (or message) is told, and counts the turn as asked
    /// ([`Ledger::ask`]).
    pub(crate) fn ask_turn(&mut self, turn_fuel_remaining: u64, game_fuel_remaining: u64) -> TurnInfo {
        let (turn, missed_turns) = self.ledger.ask();
        TurnInfo { turn, turn_fuel_remaining, game_fuel_remaining, missed_turns }
    }

    /// Records a trap (the last allowed one forfeits) and drops the instance.
    pub(crate) fn trap(&mut self, phase: Phase, trap: TrapKind, faults: &mut Vec<BotFault>) {
        self.live = None;
        self.ledger.trap(phase, trap, faults);
    }

    /// Forfeits the bot and drops the instance.
    pub(crate) fn forfeit(&mut self, reason: ForfeitReason, faults: &mut Vec<BotFault>) {
        self.live = None;
        self.ledger.forfeit(reason, faults);
    }

    /// Counts a turn a suspended call is resumed for (it was told its turn when it started).
    pub(crate) fn asked_again(&mut self) {
        self.ledger.asked_again();
    }

    /// Records the end of an instance in `phase` and drops it: a trap, or a call that failed
    /// (the game budget used up forfeits, anything else is a trap).
    pub(crate) fn ended(&mut self, phase: Phase, ending: Ending, faults: &mut Vec<BotFault>) {
        match ending {
            Ending::Trap(trap) => self.trap(phase, trap, faults),
            Ending::Error(err) if is_out_of_fuel(&err) => {
                self.ledger.settle(0);
                self.forfeit(ForfeitReason::GameFuelExhausted, faults);
            }
            Ending::Error(err) => self.trap(phase, classify(&err), faults),
        }
    }

    /// Closes a turn as its runner read it (see [`TurnEnd`]): `fuel` is what the turn spent
    /// before its call (a restart's start-up).
    fn close_turn<A>(&mut self, end: TurnEnd<L, A>, mut fuel: u64, mut faults: Vec<BotFault>) -> TurnReport<A> {
        for reason in end.refusals {
            self.ledger.invalid(reason, &mut faults);
        }
        fuel += self.ledger.charge(end.left);
        let answer = match end.outcome {
            TurnOutcome::Answered(live, answer) => {
                self.live = Some(live);
                answer.map_err(|reason| self.ledger.invalid(reason, &mut faults)).ok()
            }
            TurnOutcome::Suspended(live) => {
                self.live = Some(live);
                self.ledger.suspended(&mut faults);
                None
            }
            TurnOutcome::Silent(live, reason) => {
                self.live = Some(live);
                self.ledger.missed_turn();
                self.ledger.invalid(reason, &mut faults);
                None
            }
            TurnOutcome::Unreadable(reason) => {
                self.ledger.invalid(reason, &mut faults);
                None
            }
            TurnOutcome::Ended(ending) => {
                self.ledger.missed_turn();
                self.ended(Phase::Turn, ending, &mut faults);
                None
            }
        };
        self.finish_turn(answer, fuel, faults)
    }

    /// Closes a turn with this turn's log.
    pub(crate) fn finish_turn<A>(&mut self, answer: Option<A>, fuel: u64, faults: Vec<BotFault>) -> TurnReport<A> {
        let log = self.log.take_turn();
        self.ledger.finish_turn(answer, fuel, faults, log)
    }

    /// Drives `call` (of a store metered by `meter`) with this bot's backstop; see
    /// [`crate::driver::drive`].
    pub(crate) fn drive<F: Future + ?Sized>(
        &self,
        meter: &CallMeter,
        call: Pin<&mut F>,
        yield_is_suspend: bool,
        is_idle: &dyn Fn() -> bool,
    ) -> Driven<F::Output> {
        drive(self.arena.sandbox(), &self.deadline, self.budget.backstop_ms, meter, call, yield_is_suspend, is_idle)
    }

    /// Runs one start-up call (instantiation, `init`) with at most one turn budget of fuel,
    /// charged to the game budget, and no suspension: a start-up that runs out of its turn is a
    /// trap ([`TrapKind::StartupFuelExhausted`]), one that exhausts the game budget forfeits.
    /// `call` gets the store (the future owns it while it runs and hands it back); `is_idle`
    /// tells a bot waiting for input, which no start-up call may do. Returns the fuel spent and,
    /// on success, the store and the call's value; a failure is recorded in `faults` after
    /// `before_faults` has added what the call itself caused (a protocol's stray lines).
    #[allow(clippy::too_many_arguments)] // each is one fact about the step; a struct would only rename them
    pub(crate) fn startup_step<T, F>(
        &mut self,
        mut store: Store<BotState>,
        meter: &CallMeter,
        phase: Phase,
        faults: &mut Vec<BotFault>,
        call: impl FnOnce(Store<BotState>) -> F,
        is_idle: &dyn Fn() -> bool,
        before_faults: impl FnOnce(&mut Ledger, &mut Vec<BotFault>),
    ) -> (u64, Option<(Store<BotState>, T)>)
    where
        F: Future<Output = (Store<BotState>, wasmtime::Result<T>)>,
    {
        if self.ledger.game_fuel_left() == 0 {
            self.forfeit(ForfeitReason::GameFuelExhausted, faults);
            return (0, None);
        }
        let cap = self.budget.turn_fuel.min(self.ledger.game_fuel_left());
        if let Err(err) = store.set_fuel(cap) {
            self.trap(phase, TrapKind::other(&err), faults);
            return (0, None);
        }
        meter.set_fuel(cap);
        let outcome = {
            let mut call = std::pin::pin!(call(store));
            self.drive(meter, call.as_mut(), false, is_idle)
        };
        // A call that did not hand its store back is charged from the meter: exact for one
        // stuck in a host function or waiting for input, the only ways not to return here.
        let left = match &outcome {
            Driven::Ready((store, _)) => store.get_fuel().unwrap_or(0),
            Driven::Suspended | Driven::Stuck | Driven::Idle => meter.fuel(),
        };
        let used = cap.saturating_sub(left);
        self.ledger.spend(used);
        before_faults(&mut self.ledger, faults);
        let (store, result) = match outcome {
            Driven::Ready(ready) => ready,
            Driven::Idle => {
                let detail = "waited for input during start-up".into();
                self.trap(phase, TrapKind::Other { detail }, faults);
                return (used, None);
            }
            Driven::Suspended | Driven::Stuck => {
                self.trap(phase, TrapKind::WallClockBackstop, faults);
                return (used, None);
            }
        };
        match result {
            Ok(value) => (used, Some((store, value))),
            Err(err) if is_host_exhaustion(&err) => {
                self.host_failure = Some(format!("{err:#}"));
                (used, None)
            }
            Err(err) if is_out_of_fuel(&err) && self.ledger.game_fuel_left() == 0 => {
                self.forfeit(ForfeitReason::GameFuelExhausted, faults);
                (used, None)
            }
            Err(err) if is_out_of_fuel(&err) => {
                self.trap(phase, TrapKind::StartupFuelExhausted, faults);
                (used, None)
            }
            Err(err) => {
                self.trap(phase, classify(&err), faults);
                (used, None)
            }
        }
    }
}

/// A whole turn, the same for every kind of bot: a forfeited bot is not asked; a bot without an
/// instance (it trapped) is restarted first, and if that fails the turn has no action; a bot
/// with no game fuel left forfeits. Then its runner starts or resumes the call
/// ([`Runner::arm`]), the core drives it under the backstop, the runner reads the answer
/// ([`Runner::read`]) and the core charges, classifies and closes the turn.
pub(super) fn take_turn<R: Runner>(
    runner: &mut R,
    observation: &<R::Game as Game>::Observation,
) -> TurnReport<<R::Game as Game>::Action> {
    let mut faults = Vec::new();
    let mut fuel = 0;
    if runner.core().ledger.forfeited().is_some() {
        return runner.core_mut().finish_turn(None, 0, faults);
    }
    if runner.core().live.is_none() {
        runner.core_mut().ledger.restart();
        fuel += runner.start_instance(&mut faults);
    }
    let core = runner.core_mut();
    let Some(live) = core.live.take() else {
        // Start-up failed: this turn has no action.
        core.ledger.missed_turn();
        return core.finish_turn(None, fuel, faults);
    };
    if core.game_fuel_left() == 0 {
        core.forfeit(ForfeitReason::GameFuelExhausted, &mut faults);
        return core.finish_turn(None, fuel, faults);
    }
    let end = match runner.arm(live, observation) {
        Ok(mut call) => {
            let driven = {
                let InFlight { call, meter, is_idle } = R::in_flight(&mut call);
                runner.core().drive(meter, call.as_mut(), true, &*is_idle)
            };
            runner.read(call, driven, observation)
        }
        Err(end) => end,
    };
    runner.core_mut().close_turn(end, fuel, faults)
}

/// Starts the bot before the match (its start-up is a turn of its own in the replay).
pub(super) fn start<R: Runner>(runner: &mut R) -> TurnReport<<R::Game as Game>::Action> {
    let mut faults = Vec::new();
    let fuel = runner.start_instance(&mut faults);
    runner.core_mut().finish_turn(None, fuel, faults)
}
