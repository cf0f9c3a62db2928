//! One line-protocol bot's life in a match: a WASI command whose `main` runs as one long-lived
//! call, fed by the host one message per turn, under the same budget contract as a WIT bot
//! (docs/design.md#the-budget-contract; compare [`crate::bot`]). What both kinds share (the seat's
//! books, the metered start-up step, the turn's charging and classification) is [`crate::seat::runner`]'s.
//!
//! - **Start-up.** Instantiation gets at most one turn budget (no yielding), like a WIT bot's.
//!   Then `wasi:cli/run` is called once (a Go program's `_start`, run on WASI preview1:
//!   [`CommandProgram::Preview1`]), in a store whose fuel is the game budget left and whose
//!   async fuel yield interval is the turn budget; the future owns the store and lives across
//!   turns. The greeting is handed first; the bot's first line must be an acceptable reply
//!   ([`LineProtocol::check_greeting_reply`]). Greeting and reply are the `init` phase: at most
//!   one turn budget, counted against the game budget.
//! - **A turn** hands the message and polls the call until the bot waits for its next input
//!   ([`Driven::Idle`]), is suspended by a fuel yield, ends or hits the backstop. The answer is
//!   the first line written after the bot had read the whole message ([`super::stdio`]).
//! - **Fuel per turn** is exact and deterministic: fuel left at the previous charge point minus
//!   fuel left when the answer line was written, both read by the store's call hook. Charge
//!   points are answers, suspensions and turns that end without an answer. Work a bot does after
//!   writing its answer (until it waits for input) counts toward its *next* turn, and the turn
//!   budget is a window of the same extent: the turn-fuel chunk restarts at each answer (and, after
//!   a turn without one, when the next message is read), so no fuel is charged to one turn and
//!   metered against another. The `ms` a protocol shows is what is left of that window.
//! - **Turn overrun: suspend.** A fuel yield before the answer suspends the bot
//!   ([`BotFault::Suspended`]); it resumes at its next turn with a fresh turn budget, and the
//!   message of that turn waits in its stdin. The answer it then writes to the old state is
//!   stale (written before it read the current message): an invalid action. A bot that answers
//!   and then spends a whole turn budget before waiting for input is suspended for its next turn
//!   without being run.
//! - **Game overrun: forfeit** (wasmtime's `OutOfFuel`). **Traps, `exit` and `main` returning**
//!   drop the store; the next turn starts a fresh instance (greeting again); a trapped turn has
//!   no action, even if the bot had written its answer before trapping. After `max_traps`
//!   traps the bot forfeits.
//! - **Wall-clock backstop** per drive, as for WIT bots.

use super::stdio::{Exchange, Line, Written};
use super::{AnswerError, LineProtocol, excerpt};
use crate::budget::Budget;
use crate::driver::Driven;
use crate::fault::{BotFault, ForfeitReason, InvalidReason, Phase, TrapKind};
use crate::loader::{CommandProgram, LoadedCommand};
use crate::meter::CallMeter;
use crate::record::BotRef;
use crate::runtime::Arena;
use crate::seat::runner::{Ending, InFlight, Runner, SeatCore, TurnEnd, TurnOutcome};
use crate::seat::{CallOutput, OwnedCall};
use crate::wasi::locked_down_builder;
use arena_game::Game;
use std::sync::Arc;

type Action<P> = <<P as LineProtocol>::Game as Game>::Action;
type RunOutput = CallOutput<Result<(), ()>>;
type RunCall = OwnedCall<Result<(), ()>>;

/// A started instance.
pub struct LiveCommand<P: LineProtocol> {
    /// The pending `wasi:cli/run` call; it owns the store.
    call: RunCall,
    exchange: Arc<Exchange>,
    /// The store's call meter.
    meter: Arc<CallMeter>,
    session: P::Session,
    /// The bot spent a whole turn budget after its last answer and was suspended before it
    /// waited for input: its next turn is skipped without running it.
    overdrawn: bool,
}

/// One line-protocol bot in one match.
pub struct ProtocolRunner<P: LineProtocol> {
    bot: Arc<LoadedCommand>,
    /// Context, books and the live instance.
    core: SeatCore<LiveCommand<P>>,
}

impl<P: LineProtocol> ProtocolRunner<P> {
    /// A bot ready to start.
    pub fn new(arena: &Arena, bot: Arc<LoadedCommand>, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Self {
        let core = SeatCore::new(arena, budget, seat, players, match_seed, bot.sha256);
        ProtocolRunner { bot, core }
    }

    /// Game fuel left.
    pub fn game_fuel_left(&self) -> u64 {
        self.core.game_fuel_left()
    }
}

impl<P: LineProtocol> Runner for ProtocolRunner<P> {
    type Game = P::Game;
    type Live = LiveCommand<P>;
    type Answer = Result<(), ()>;
    type Call = LiveCommand<P>;

    fn core(&self) -> &SeatCore<LiveCommand<P>> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut SeatCore<LiveCommand<P>> {
        &mut self.core
    }

    fn identity(&self) -> BotRef {
        self.bot.identity()
    }

    /// Instantiates the command, starts `run` and exchanges the greeting.
    fn start_instance(&mut self, faults: &mut Vec<BotFault>) -> u64 {
        let core = &mut self.core;
        let handles = core.fresh_handles();
        let meter = handles.meter.clone();
        let exchange = Exchange::new(P::MAX_LINE, meter.clone());
        let mut wasi = locked_down_builder(core.match_seed(), &self.bot.sha256, core.log(), &handles.clock);
        wasi.stdin(exchange.stdin()).stdout(exchange.stdout());
        let mut store = core.arena().new_seat_store(core.budget(), wasi.build_p1(), &handles, core.seat());
        // Before any bot code runs: wasi-libc and the preview1 adapter ask for the preopens
        // once, at start-up.
        if let Some(data) = &self.bot.data {
            store.data_mut().set_data(data.tree.clone());
        }

        // Instantiation: at most one turn budget, no yielding. The only early stop is waiting
        // for stdin, which nothing fills during instantiation (a start function reading it).
        let program = self.bot.program.clone();
        let waiting = exchange.clone();
        let (spent, instantiated) = core.startup_step(
            store,
            &meter,
            Phase::Instantiate,
            faults,
            |mut store| async move {
                let result = match program {
                    CommandProgram::Component(pre) => pre.instantiate_async(&mut store).await.map(Started::Component),
                    CommandProgram::Preview1(pre) => pre.instantiate_async(&mut store).await.map(Started::Preview1),
                };
                (store, result)
            },
            &|| waiting.is_waiting(),
            |ledger, faults| {
                // Lines written while being instantiated answer nothing.
                let mut early = exchange.take_written();
                early.stale.extend(early.answer.take());
                for reason in stale_lines(&early) {
                    ledger.invalid(reason, faults);
                }
            },
        );
        let Some((mut store, command)) = instantiated else { return spent };

        // `main`: one call for the instance's life, yielding at every turn budget.
        let mark = core.game_fuel_left();
        if mark == 0 {
            core.forfeit(ForfeitReason::GameFuelExhausted, faults);
            return spent;
        }
        let turn_fuel = core.budget().turn_fuel;
        let configured = store.fuel_async_yield_interval(Some(turn_fuel)).and_then(|()| store.set_fuel(mark));
        if let Err(err) = configured {
            core.trap(Phase::Init, TrapKind::other(&err), faults);
            return spent;
        }
        meter.set_chunk(turn_fuel);
        meter.set_fuel(mark);
        let info = core.init_info();
        if exchange.hand(&P::greeting(&info), false).is_err() {
            core.trap(Phase::Init, TrapKind::InputBacklog, faults);
            return spent;
        }
        let mut call: RunCall = Box::pin(async move {
            let result = match command {
                Started::Component(command) => command.wasi_cli_run().call_run(&mut store).await,
                // `_start` returning is `main` returning; `proc_exit` ends it with wasmtime-wasi's
                // `I32Exit`, as `wasi:cli/exit` does a component's.
                Started::Preview1(instance) => match instance.get_typed_func::<(), ()>(&mut store, "_start") {
                    Ok(start) => start.call_async(&mut store, ()).await.map(Ok),
                    Err(err) => Err(err),
                },
            };
            (store, result)
        });
        let driven = core.drive(&meter, call.as_mut(), true, &|| exchange.is_waiting());
        let written = exchange.take_written();
        for reason in stale_lines(&written) {
            core.refused(reason, faults);
        }
        let (now, trap) = match driven {
            Driven::Idle | Driven::Suspended => {
                let suspended = matches!(driven, Driven::Suspended);
                match written.answer {
                    Some(Line { text, fuel }) => match text.map_err(|err| format!("{err:?}")).and_then(|reply| {
                        P::check_greeting_reply(&reply)
                            .map_err(|why| format!("{why} (reply {:?})", excerpt(&reply, 40)))
                    }) {
                        Ok(session) => {
                            core.ledger.settle(fuel);
                            core.live = Some(LiveCommand { call, exchange, meter, session, overdrawn: suspended });
                            return spent + mark.saturating_sub(fuel);
                        }
                        Err(detail) => (exchange.fuel(), TrapKind::BadGreeting { detail }),
                    },
                    None if suspended => (exchange.fuel(), TrapKind::StartupFuelExhausted),
                    None => match P::session_without_reply() {
                        // A protocol without a handshake: waiting for the first state is the reply.
                        Some(session) => {
                            core.ledger.settle(exchange.fuel());
                            core.live = Some(LiveCommand { call, exchange, meter, session, overdrawn: false });
                            return spent + mark.saturating_sub(core.ledger.game_fuel_left());
                        }
                        None => (
                            exchange.fuel(),
                            TrapKind::BadGreeting {
                                detail: "waited for input without replying to the greeting".into(),
                            },
                        ),
                    },
                }
            }
            Driven::Stuck => (exchange.fuel(), TrapKind::WallClockBackstop),
            Driven::Ready((store, result)) => {
                let now = store.get_fuel().unwrap_or(0);
                core.ledger.settle(now);
                core.ended(Phase::Init, run_ended(result), faults);
                return spent + mark.saturating_sub(now);
            }
        };
        drop(call);
        core.ledger.settle(now);
        core.trap(Phase::Init, trap, faults);
        spent + mark.saturating_sub(now)
    }

    /// Hands the turn's message (the call is already running: it waits for input, or was
    /// suspended).
    fn arm(
        &mut self,
        mut live: LiveCommand<P>,
        observation: &<P::Game as Game>::Observation,
    ) -> Result<LiveCommand<P>, TurnEnd<LiveCommand<P>, Action<P>>> {
        let core = &mut self.core;
        // Fuel left now, and what the turn budget has left: a bot waiting for input may have
        // worked after its last answer (that counts toward this turn).
        let mark = core.game_fuel_left();
        let now = if live.exchange.is_waiting() { live.exchange.fuel().min(mark) } else { mark };
        let info = core.ask_turn(core.budget().turn_fuel.saturating_sub(mark - now).min(now), now);
        let lines = P::state_lines(&mut live.session, observation, &info);
        if live.exchange.hand(&lines, true).is_err() {
            return Err(TurnEnd::at(now, TurnOutcome::Ended(Ending::Trap(TrapKind::InputBacklog))));
        }
        if live.overdrawn {
            live.overdrawn = false;
            return Err(TurnEnd::at(live.exchange.fuel(), TurnOutcome::Suspended(live)));
        }
        Ok(live)
    }

    fn in_flight(live: &mut LiveCommand<P>) -> InFlight<'_, Result<(), ()>> {
        let exchange = &live.exchange;
        InFlight { call: &mut live.call, meter: &live.meter, is_idle: Box::new(|| exchange.is_waiting()) }
    }

    /// Reads the first line written after the bot read the whole message.
    fn read(
        &mut self,
        mut live: LiveCommand<P>,
        driven: Driven<RunOutput>,
        observation: &<P::Game as Game>::Observation,
    ) -> TurnEnd<LiveCommand<P>, Action<P>> {
        let written = live.exchange.take_written();
        let refusals = stale_lines(&written);
        let (left, outcome) = match driven {
            Driven::Idle | Driven::Suspended => {
                let suspended = matches!(driven, Driven::Suspended);
                match written.answer {
                    Some(line) => {
                        live.overdrawn = suspended;
                        let answer = line
                            .text
                            .and_then(|text| P::parse_answer(&text, observation))
                            .map_err(|error| InvalidReason::Protocol { error });
                        (line.fuel, TurnOutcome::Answered(live, answer))
                    }
                    None if suspended => (live.exchange.fuel(), TurnOutcome::Suspended(live)),
                    None => {
                        let left = live.exchange.fuel();
                        live.exchange.restart_chunk_on_read();
                        let reason = InvalidReason::Protocol { error: AnswerError::NoAnswer };
                        (left, TurnOutcome::Silent(live, reason))
                    }
                }
            }
            Driven::Stuck => (live.exchange.fuel(), TurnOutcome::Ended(Ending::Trap(TrapKind::WallClockBackstop))),
            Driven::Ready((store, result)) => (store.get_fuel().unwrap_or(0), TurnOutcome::Ended(run_ended(result))),
        };
        TurnEnd { left, refusals, outcome }
    }
}

/// An instance, started: a component's command, or a core module run on WASI preview1.
enum Started {
    Component(wasmtime_wasi::p2::bindings::Command),
    Preview1(wasmtime::Instance),
}

/// Why `run` ended: a trap, an `exit`, `main` returning, or the game budget.
fn run_ended(result: wasmtime::Result<Result<(), ()>>) -> Ending {
    match result {
        Ok(Ok(())) => Ending::Trap(TrapKind::Exited { code: 0 }),
        Ok(Err(())) => Ending::Trap(TrapKind::Exited { code: 1 }),
        Err(err) => Ending::Error(err),
    }
}

/// One refusal per stale line kept, and one for the rest.
fn stale_lines(written: &Written) -> Vec<InvalidReason> {
    let mut stale: Vec<String> = written
        .stale
        .iter()
        .map(|line| match &line.text {
            Ok(text) => excerpt(text, 40),
            Err(err) => format!("({err:?})"),
        })
        .collect();
    if written.more_stale > 0 {
        stale.push(format!("({} more lines)", written.more_stale));
    }
    stale.into_iter().map(|line| InvalidReason::Protocol { error: AnswerError::Stale { line } }).collect()
}
