//! One bot's life in a match, implementing the budget contract (DESIGN.md section 1):
//!
//! - **Turn overrun: suspend.** Each `take-turn` call runs with the store's fuel set to what is
//!   left of the game budget and wasmtime's async fuel yielding set to the turn budget: when a
//!   turn's fuel is used up the call's future returns `Pending` with the bot's stack and memory
//!   intact. The future owns the store, so it can be kept and polled again at the bot's next
//!   turn, with a fresh turn budget. Its answer applies to the turn in which it returns.
//! - **Game overrun: forfeit.** When the game budget runs out wasmtime traps with `OutOfFuel`;
//!   the bot is out.
//! - **Traps:** the store is dropped (a trapped store is never re-entered); a fresh instance is
//!   created before the bot's next turn and `init` is told the restart count. After
//!   `max_traps` traps the bot forfeits.
//! - **Start-up is metered:** instantiation and `init` each get at most one turn budget, taken
//!   from the game budget; running out there is a trap.
//! - **Wall-clock backstop:** an epoch deadline per call, far above any turn budget, handled as
//!   a trap; a call blocked in a host function past it is dropped the same way.
//! - **Fuel is charged for whatever the store consumed, however a call ends**: from the store
//!   when the call hands it back, else from its [`CallMeter`] (fuel left at the last host-call
//!   transition: exact for a call stuck in a host function, and for a fuel yield, which enters
//!   the host too). A suspended turn is charged exactly what it spent: its turn budget and the
//!   few instructions wasmtime runs past it before checking. So the fuel of a bot's turns always adds up to what its stores
//!   consumed, and never to more than the game budget.
//! - **An answer the host cannot lift** (a bad enum value, a list past
//!   [`crate::runtime::MAX_HOSTCALL_BYTES`]) is an invalid action, not a trap. wasmtime cannot
//!   re-enter an instance whose answer failed to lift, so the instance is replaced before the
//!   bot's next turn (a restart, but no trap is counted). A WASI `exit` is the typed
//!   [`TrapKind::Exited`].

use crate::budget::Budget;
use crate::driver::{Driven, drive};
use crate::fault::{
    BotFault, ForfeitReason, InvalidReason, Phase, TrapKind, classify, is_host_exhaustion, is_lift_failure,
    is_out_of_fuel,
};
use crate::games::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::ledger::Ledger;
use crate::loader::LoadedBot;
use crate::log::{BotLog, TurnLog};
use crate::meter::CallMeter;
use crate::runtime::{Arena, BotState, StoreHandles};
use crate::wasi::{init_seed, locked_down_ctx};
use arena_game::Game;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime::Store;

type Action<B> = <<B as Binding>::Game as Game>::Action;

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

enum Slot<B: Binding> {
    /// No instance: start (or restart) before the next turn.
    Empty,
    /// An instance waiting for its next turn.
    Idle(Live<B>),
    /// A call suspended at a turn boundary.
    Busy {
        call: OwnedCall<(B::Instance, B::Answer)>,
        /// Game fuel left when the call started.
        start_left: u64,
        /// Fuel already charged to earlier turns of this call.
        charged: u64,
    },
}

/// One bot in one match.
pub struct BotRunner<B: Binding> {
    arena: Arena,
    bot: Arc<LoadedBot<B>>,
    budget: Budget,
    seat: u8,
    players: u8,
    match_seed: u64,
    log: BotLog,
    deadline: Arc<AtomicU64>,
    /// The current instance's call meter.
    meter: Arc<CallMeter>,
    slot: Slot<B>,
    /// Fuel, totals and faults.
    ledger: Ledger,
    /// The match's initial state, for [`Binding::init_in`] (set by [`BotRunner::seated_in`]).
    initial: Option<Arc<B::Game>>,
    /// The host could not make an instance (see [`BotRunner::host_failure`]).
    host_failure: Option<String>,
}

impl<B: Binding> BotRunner<B> {
    /// A bot ready to start.
    pub fn new(arena: &Arena, bot: Arc<LoadedBot<B>>, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Self {
        BotRunner {
            arena: arena.clone(),
            bot,
            budget,
            seat,
            players,
            match_seed,
            log: BotLog::default(),
            deadline: Arc::new(AtomicU64::new(u64::MAX)),
            meter: CallMeter::new(),
            slot: Slot::Empty,
            ledger: Ledger::new(budget.game_fuel, budget.max_traps),
            initial: None,
            host_failure: None,
        }
    }

    /// Tells the runner the match's initial state, passed to [`Binding::init_in`] at the start
    /// and at every restart. Call it before [`BotRunner::start`].
    pub fn seated_in(&mut self, game: Arc<B::Game>) {
        self.initial = Some(game);
    }

    /// Totals so far.
    pub fn stats(&self) -> BotStats {
        self.ledger.stats
    }

    /// Why the bot is out, if it is.
    pub fn forfeit(&self) -> Option<ForfeitReason> {
        self.ledger.forfeit
    }

    /// Why the host could not run the bot, if it could not (the match must stop; no fault is
    /// recorded against the bot).
    pub fn host_failure(&self) -> Option<String> {
        self.host_failure.clone()
    }

    /// Game fuel left.
    pub fn game_fuel_left(&self) -> u64 {
        self.ledger.game_fuel_left
    }

    /// The bot.
    pub fn bot(&self) -> &LoadedBot<B> {
        &self.bot
    }

    /// Records that the game refused this turn's answer.
    pub fn note_invalid_action(&mut self) {
        self.ledger.stats.invalid_actions += 1;
    }

    /// Instantiates the bot and calls `init` (both metered). Called once before the match; a
    /// restart after a trap happens inside [`BotRunner::play`].
    pub fn start(&mut self) -> TurnReport<Action<B>> {
        let mut faults = Vec::new();
        let fuel = self.start_instance(&mut faults);
        self.finish_turn(None, fuel, faults)
    }

    /// Plays one turn: restarts the bot if it trapped, then starts or resumes its call.
    pub fn play(&mut self, observation: &<B::Game as Game>::Observation) -> TurnReport<Action<B>> {
        let mut faults = Vec::new();
        let mut fuel = 0;
        if self.ledger.forfeit.is_some() {
            return self.finish_turn(None, 0, faults);
        }
        if matches!(self.slot, Slot::Empty) {
            self.ledger.restarts += 1;
            fuel += self.start_instance(&mut faults);
        }
        let (call, start_left, charged) = match std::mem::replace(&mut self.slot, Slot::Empty) {
            Slot::Empty => {
                // Start-up failed: this turn has no action.
                self.ledger.missed += 1;
                return self.finish_turn(None, fuel, faults);
            }
            Slot::Busy { call, start_left, charged } => (call, start_left, charged),
            Slot::Idle(mut live) => {
                let left = self.ledger.game_fuel_left;
                if left == 0 {
                    self.forfeit_now(ForfeitReason::GameFuelExhausted, &mut faults);
                    return self.finish_turn(None, fuel, faults);
                }
                let configured = live
                    .store
                    .fuel_async_yield_interval(Some(self.budget.turn_fuel))
                    .and_then(|()| live.store.set_fuel(left));
                if let Err(err) = configured {
                    self.trap(Phase::Turn, TrapKind::other(&err), &mut faults);
                    return self.finish_turn(None, fuel, faults);
                }
                self.meter.set_chunk(self.budget.turn_fuel);
                self.meter.set_fuel(left);
                let info = TurnInfo {
                    turn: self.ledger.turns_asked,
                    turn_fuel_remaining: self.budget.turn_fuel.min(left),
                    game_fuel_remaining: left,
                    missed_turns: self.ledger.missed,
                };
                // Reset when a new call is told, not when an answer returns: a call that was
                // suspended answers from an old observation, and the next one must still say
                // how many turns were missed.
                self.ledger.missed = 0;
                (B::take_turn(live, observation, info), left, 0)
            }
        };
        self.ledger.turns_asked += 1;
        let mut call = call;
        match self.drive(&mut call, true) {
            Driven::Suspended => {
                // Exact: the fuel left when the yield entered the host.
                let chunk = self.ledger.charge(self.meter.fuel());
                self.slot = Slot::Busy { call, start_left, charged: charged + chunk };
                self.ledger.suspended(&mut faults);
                self.finish_turn(None, fuel + chunk, faults)
            }
            Driven::Stuck | Driven::Idle => {
                drop(call);
                fuel += self.ledger.charge(self.meter.fuel());
                self.ledger.missed += 1;
                self.trap(Phase::Turn, TrapKind::WallClockBackstop, &mut faults);
                self.finish_turn(None, fuel, faults)
            }
            Driven::Ready((store, result)) => {
                let left = store.get_fuel().unwrap_or(0);
                let spent = start_left.saturating_sub(left).saturating_sub(charged);
                self.ledger.game_fuel_left = left;
                fuel += spent;
                match result {
                    Ok((instance, answer)) => {
                        self.slot = Slot::Idle(Live { store, instance });
                        match B::decode(answer) {
                            Ok(action) => self.finish_turn(Some(action), fuel, faults),
                            Err(reason) => {
                                self.ledger.invalid(reason, &mut faults);
                                self.finish_turn(None, fuel, faults)
                            }
                        }
                    }
                    Err(err) => {
                        drop(store);
                        if is_lift_failure(&err) {
                            self.slot = Slot::Empty;
                            self.ledger.invalid(InvalidReason::malformed(&err), &mut faults);
                            return self.finish_turn(None, fuel, faults);
                        }
                        self.ledger.missed += 1;
                        if is_out_of_fuel(&err) {
                            self.ledger.game_fuel_left = 0;
                            self.forfeit_now(ForfeitReason::GameFuelExhausted, &mut faults);
                        } else {
                            self.trap(Phase::Turn, classify(&err), &mut faults);
                        }
                        self.finish_turn(None, fuel, faults)
                    }
                }
            }
        }
    }

    /// Creates a fresh store and instance and calls `init`, each capped at one turn budget.
    /// Returns the fuel spent; on failure the slot stays empty and the fault is recorded.
    fn start_instance(&mut self, faults: &mut Vec<BotFault>) -> u64 {
        let handles = StoreHandles::fresh(&self.log, &self.deadline);
        let wasi = locked_down_ctx(self.match_seed, &self.bot.sha256, &self.log, &handles.clock);
        let store = self.arena.new_store(&self.budget, wasi, &handles);
        self.meter = handles.meter;
        let mut spent = 0;

        let bot = self.bot.clone();
        let (store, instance) = match self
            .startup_step(store, Phase::Instantiate, &mut spent, faults, |store| B::instantiate(&bot.pre, store))
        {
            Some(ok) => ok,
            None => return spent,
        };
        let info = InitInfo {
            seat: self.seat,
            players: self.players,
            restart_count: self.ledger.restarts,
            seed: init_seed(self.match_seed, &self.bot.sha256),
            turn_fuel: self.budget.turn_fuel,
            game_fuel: self.budget.game_fuel,
            game_fuel_remaining: self.ledger.game_fuel_left,
        };
        let initial = self.initial.clone();
        if let Some((store, instance)) = self.startup_step(store, Phase::Init, &mut spent, faults, |store| {
            B::init_in(Live { store, instance }, info, initial.as_deref())
        }) {
            self.slot = Slot::Idle(Live { store, instance });
        }
        spent
    }

    /// Runs one start-up call with at most one turn budget of fuel and no yielding.
    fn startup_step<T>(
        &mut self,
        mut store: Store<BotState>,
        phase: Phase,
        spent: &mut u64,
        faults: &mut Vec<BotFault>,
        call: impl FnOnce(Store<BotState>) -> OwnedCall<T>,
    ) -> Option<(Store<BotState>, T)> {
        if self.ledger.game_fuel_left == 0 {
            self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
            return None;
        }
        let cap = self.budget.turn_fuel.min(self.ledger.game_fuel_left);
        if let Err(err) = store.set_fuel(cap) {
            self.trap(phase, TrapKind::other(&err), faults);
            return None;
        }
        self.meter.set_fuel(cap);
        let mut call = call(store);
        let outcome = self.drive(&mut call, false);
        drop(call);
        let left = match &outcome {
            Driven::Ready((store, _)) => store.get_fuel().unwrap_or(0),
            Driven::Suspended | Driven::Stuck | Driven::Idle => self.meter.fuel(),
        };
        let used = cap.saturating_sub(left);
        *spent += used;
        self.ledger.game_fuel_left = self.ledger.game_fuel_left.saturating_sub(used);
        let (store, result) = match outcome {
            Driven::Ready(ready) => ready,
            Driven::Suspended | Driven::Stuck | Driven::Idle => {
                self.trap(phase, TrapKind::WallClockBackstop, faults);
                return None;
            }
        };
        match result {
            Ok(value) => Some((store, value)),
            Err(err) if is_host_exhaustion(&err) => {
                self.host_failure = Some(format!("{err:#}"));
                None
            }
            Err(err) if is_out_of_fuel(&err) && self.ledger.game_fuel_left == 0 => {
                self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
                None
            }
            Err(err) if is_out_of_fuel(&err) => {
                self.trap(phase, TrapKind::StartupFuelExhausted, faults);
                None
            }
            Err(err) => {
                self.trap(phase, classify(&err), faults);
                None
            }
        }
    }

    /// Records a trap (the last allowed one forfeits) and drops the instance.
    fn trap(&mut self, phase: Phase, trap: TrapKind, faults: &mut Vec<BotFault>) {
        self.slot = Slot::Empty;
        self.ledger.trap(phase, trap, faults);
    }

    /// Forfeits the bot and drops the instance.
    fn forfeit_now(&mut self, reason: ForfeitReason, faults: &mut Vec<BotFault>) {
        self.slot = Slot::Empty;
        self.ledger.forfeit(reason, faults);
    }

    /// Closes a turn with this turn's log.
    fn finish_turn(&mut self, answer: Option<Action<B>>, fuel: u64, faults: Vec<BotFault>) -> TurnReport<Action<B>> {
        let log = self.log.take_turn();
        self.ledger.finish_turn(answer, fuel, faults, log)
    }

    /// Drives `call` with this bot's backstop.
    fn drive<F: Future + ?Sized>(&self, call: &mut Pin<Box<F>>, yield_is_suspend: bool) -> Driven<F::Output> {
        drive(&self.arena, &self.deadline, self.budget.backstop_ms, &self.meter, call.as_mut(), yield_is_suspend)
    }
}
