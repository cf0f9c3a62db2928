//! A WIT component bot in a match ([`BotRunner`]), under the budget contract
//! (docs/design.md#the-budget-contract); its seat's books, start-up metering and the turn's
//! charging and classification are [`crate::seat::runner`]'s:
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
//!   [`crate::store::MAX_HOSTCALL_BYTES`]) is an invalid action, not a trap. wasmtime cannot
//!   re-enter an instance whose answer failed to lift, so the instance is replaced before the
//!   bot's next turn (a restart, but no trap is counted). A WASI `exit` is the typed
//!   [`TrapKind::Exited`].

use crate::bindings::{Binding, Live};
use crate::budget::Budget;
use crate::driver::Driven;
use crate::fault::{BotFault, InvalidReason, Phase, TrapKind, is_lift_failure};
use crate::loader::LoadedBot;
use crate::meter::CallMeter;
use crate::record::BotRef;
use crate::runtime::Arena;
use crate::seat::runner::{Ending, InFlight, Runner, SeatCore, TurnEnd, TurnOutcome};
use crate::seat::{CallOutput, Contestant, OwnedCall, SeatBot};
use crate::wasi::locked_down_ctx;
use arena_game::Game;
use std::sync::Arc;

type Action<B> = <<B as Binding>::Game as Game>::Action;

/// A bot's instance between turns.
enum Slot<B: Binding> {
    /// An instance waiting for its next turn.
    Idle(Live<B>),
    /// A call suspended at a turn boundary.
    Busy(OwnedCall<(B::Instance, B::Answer)>),
}

/// A live WIT bot: its instance (or suspended call) and its store's call meter.
pub struct LiveBot<B: Binding> {
    slot: Slot<B>,
    meter: Arc<CallMeter>,
}

/// A WIT bot's `take-turn` call in flight.
pub struct TurnCall<B: Binding> {
    call: OwnedCall<(B::Instance, B::Answer)>,
    meter: Arc<CallMeter>,
}

/// One WIT bot in one match.
pub struct BotRunner<B: Binding> {
    bot: Arc<LoadedBot<B>>,
    /// Context, books and the live instance.
    core: SeatCore<LiveBot<B>>,
    /// The match's initial state, for [`Binding::init_in`] (set by [`Runner::seated_in`]).
    initial: Option<Arc<B::Game>>,
}

impl<B: Binding> BotRunner<B> {
    /// A bot ready to start.
    pub fn new(arena: &Arena, bot: Arc<LoadedBot<B>>, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Self {
        let core = SeatCore::new(arena, budget, seat, players, match_seed, bot.sha256);
        BotRunner { bot, core, initial: None }
    }

    /// Game fuel left.
    pub fn game_fuel_left(&self) -> u64 {
        self.core.game_fuel_left()
    }

    /// The bot.
    pub fn bot(&self) -> &LoadedBot<B> {
        &self.bot
    }
}

impl<B: Binding> Runner for BotRunner<B> {
    type Game = B::Game;
    type Live = LiveBot<B>;
    type Answer = (B::Instance, B::Answer);
    type Call = TurnCall<B>;

    fn core(&self) -> &SeatCore<LiveBot<B>> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut SeatCore<LiveBot<B>> {
        &mut self.core
    }

    fn identity(&self) -> BotRef {
        self.bot.identity()
    }

    fn seated_in(&mut self, game: &Arc<B::Game>) {
        self.initial = Some(game.clone());
    }

    /// Creates a fresh store and instance and calls `init`, each capped at one turn budget.
    fn start_instance(&mut self, faults: &mut Vec<BotFault>) -> u64 {
        let core = &mut self.core;
        let handles = core.fresh_handles();
        let wasi = locked_down_ctx(core.match_seed(), &self.bot.sha256, core.log(), &handles.clock);
        let mut store = core.arena().new_seat_store(core.budget(), wasi, &handles, core.seat());
        // Before any bot code runs: a bot may ask for its preopens once, at start-up.
        if let Some(data) = &self.bot.data {
            store.data_mut().set_data(data.tree.clone());
        }
        let meter = handles.meter;
        let never_idle = &|| false;

        let bot = self.bot.clone();
        let (spent, instantiated) = core.startup_step(
            store,
            &meter,
            Phase::Instantiate,
            faults,
            |store| B::instantiate(&bot.pre, store),
            never_idle,
            |_, _| {},
        );
        let Some((store, instance)) = instantiated else { return spent };
        let info = core.init_info();
        let initial = self.initial.clone();
        let (init_spent, initialised) = core.startup_step(
            store,
            &meter,
            Phase::Init,
            faults,
            |store| B::init_in(Live { store, instance }, info, initial.as_deref()),
            never_idle,
            |_, _| {},
        );
        if let Some((store, instance)) = initialised {
            core.live = Some(LiveBot { slot: Slot::Idle(Live { store, instance }), meter });
        }
        spent + init_spent
    }

    /// Starts a `take-turn` call with a fresh turn budget, or resumes a suspended one.
    fn arm(
        &mut self,
        live: LiveBot<B>,
        observation: &<B::Game as Game>::Observation,
    ) -> Result<TurnCall<B>, TurnEnd<LiveBot<B>, Action<B>>> {
        let core = &mut self.core;
        let LiveBot { slot, meter } = live;
        let call = match slot {
            Slot::Busy(call) => {
                // A resumed call is asked again.
                core.asked_again();
                call
            }
            Slot::Idle(mut live) => {
                let left = core.game_fuel_left();
                let turn_fuel = core.budget().turn_fuel;
                let configured =
                    live.store.fuel_async_yield_interval(Some(turn_fuel)).and_then(|()| live.store.set_fuel(left));
                if let Err(err) = configured {
                    return Err(TurnEnd::at(left, TurnOutcome::Ended(Ending::Trap(TrapKind::other(&err)))));
                }
                meter.set_chunk(turn_fuel);
                meter.set_fuel(left);
                let info = core.ask_turn(turn_fuel.min(left), left);
                B::take_turn(live, observation, info)
            }
        };
        Ok(TurnCall { call, meter })
    }

    fn in_flight(call: &mut TurnCall<B>) -> InFlight<'_, (B::Instance, B::Answer)> {
        InFlight { call: &mut call.call, meter: &call.meter, is_idle: Box::new(|| false) }
    }

    /// The fuel left is exact however the call ended: read from the store it hands back, or
    /// from the meter at the yield or the host call it was stuck in.
    fn read(
        &mut self,
        TurnCall { call, meter }: TurnCall<B>,
        driven: Driven<CallOutput<(B::Instance, B::Answer)>>,
        _observation: &<B::Game as Game>::Observation,
    ) -> TurnEnd<LiveBot<B>, Action<B>> {
        match driven {
            Driven::Suspended => {
                TurnEnd::at(meter.fuel(), TurnOutcome::Suspended(LiveBot { slot: Slot::Busy(call), meter }))
            }
            Driven::Stuck | Driven::Idle => {
                drop(call);
                TurnEnd::at(meter.fuel(), TurnOutcome::Ended(Ending::Trap(TrapKind::WallClockBackstop)))
            }
            Driven::Ready((store, result)) => {
                let left = store.get_fuel().unwrap_or(0);
                let outcome = match result {
                    Ok((instance, answer)) => {
                        let live = LiveBot { slot: Slot::Idle(Live { store, instance }), meter };
                        TurnOutcome::Answered(live, B::decode(answer))
                    }
                    // The instance cannot be re-entered: replaced before the next turn,
                    // without counting a trap.
                    Err(err) if is_lift_failure(&err) => TurnOutcome::Unreadable(InvalidReason::malformed(&err)),
                    Err(err) => TurnOutcome::Ended(Ending::Error(err)),
                };
                TurnEnd::at(left, outcome)
            }
        }
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
