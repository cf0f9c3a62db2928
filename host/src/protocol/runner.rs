//! One line-protocol bot's life in a match: a WASI command whose `main` runs as one long-lived
//! call, fed by the host one message per turn, under the same budget contract as a WIT bot
//! (DESIGN.md section 1; compare [`crate::bot`]).
//!
//! - **Start-up.** Instantiation gets at most one turn budget (no yielding), like a WIT bot's.
//!   Then `wasi:cli/run` is called once, in a store whose fuel is the game budget left and whose
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
use crate::bot::{BotStats, TurnReport};
use crate::budget::Budget;
use crate::driver::{Driven, drive_until_idle};
use crate::fault::{
    BotFault, ForfeitReason, InvalidReason, Phase, TrapKind, classify, is_host_exhaustion, is_out_of_fuel,
};
use crate::games::{InitInfo, TurnInfo};
use crate::ledger::Ledger;
use crate::loader::LoadedCommand;
use crate::log::BotLog;
use crate::meter::CallMeter;
use crate::play::BotRef;
use crate::runtime::{Arena, BotState, StoreHandles};
use crate::seat::SeatBot;
use crate::wasi::{init_seed, locked_down_builder};
use arena_game::Game;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime::Store;

type Action<P> = <<P as LineProtocol>::Game as Game>::Action;
type RunOutput = (Store<BotState>, wasmtime::Result<Result<(), ()>>);
type RunCall = Pin<Box<dyn Future<Output = RunOutput> + Send>>;

/// A started instance.
struct Live<P: LineProtocol> {
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
    arena: Arena,
    bot: Arc<LoadedCommand>,
    budget: Budget,
    seat: u8,
    players: u8,
    match_seed: u64,
    log: BotLog,
    deadline: Arc<AtomicU64>,
    live: Option<Live<P>>,
    /// Fuel, totals and faults.
    ledger: Ledger,
    /// The host could not make an instance ([`SeatBot::host_failure`]).
    host_failure: Option<String>,
}

impl<P: LineProtocol> ProtocolRunner<P> {
    /// A bot ready to start.
    pub fn new(arena: &Arena, bot: Arc<LoadedCommand>, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Self {
        ProtocolRunner {
            arena: arena.clone(),
            bot,
            budget,
            seat,
            players,
            match_seed,
            log: BotLog::default(),
            deadline: Arc::new(AtomicU64::new(u64::MAX)),
            live: None,
            ledger: Ledger::new(budget.game_fuel, budget.max_traps),
            host_failure: None,
        }
    }

    /// Game fuel left.
    pub fn game_fuel_left(&self) -> u64 {
        self.ledger.game_fuel_left
    }

    /// Instantiates the command, starts `run` and exchanges the greeting. Returns the fuel
    /// spent; on failure no instance is live and the fault is recorded.
    fn start_instance(&mut self, faults: &mut Vec<BotFault>) -> u64 {
        if self.ledger.game_fuel_left == 0 {
            self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
            return 0;
        }
        let handles = StoreHandles::fresh(&self.log, &self.deadline);
        let meter = handles.meter.clone();
        let exchange = Exchange::new(P::MAX_LINE, meter.clone());
        let mut wasi = locked_down_builder(self.match_seed, &self.bot.sha256, &self.log, &handles.clock);
        wasi.stdin(exchange.stdin()).stdout(exchange.stdout());
        let mut store = self.arena.new_store(&self.budget, wasi.build(), &handles);

        // Instantiation: at most one turn budget, no yielding.
        let cap = self.budget.turn_fuel.min(self.ledger.game_fuel_left);
        if let Err(err) = store.set_fuel(cap) {
            self.trap(Phase::Instantiate, TrapKind::other(&err), faults);
            return 0;
        }
        meter.set_fuel(cap);
        let pre = self.bot.pre.clone();
        let outcome = {
            // No yield interval is set yet, so the only early stop is waiting for stdin, which
            // nothing will fill during instantiation (a start function reading it): a trap.
            let mut call = std::pin::pin!(pre.instantiate_async(&mut store));
            drive_until_idle(&self.arena, &self.deadline, self.budget.backstop_ms, &meter, call.as_mut(), &|| {
                exchange.is_waiting()
            })
        };
        // Lines written while being instantiated answer nothing.
        let mut early = exchange.take_written();
        early.stale.extend(early.answer.take());
        self.stale_faults(&early, faults);
        let spent = cap.saturating_sub(store.get_fuel().unwrap_or(0));
        self.ledger.game_fuel_left = self.ledger.game_fuel_left.saturating_sub(spent);
        let command = match outcome {
            Driven::Ready(Ok(command)) => command,
            Driven::Ready(Err(err)) if is_host_exhaustion(&err) => {
                self.host_failure = Some(format!("{err:#}"));
                return spent;
            }
            Driven::Ready(Err(err)) if is_out_of_fuel(&err) && self.ledger.game_fuel_left == 0 => {
                self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
                return spent;
            }
            Driven::Ready(Err(err)) => {
                let trap = if is_out_of_fuel(&err) { TrapKind::StartupFuelExhausted } else { classify(&err) };
                self.trap(Phase::Instantiate, trap, faults);
                return spent;
            }
            Driven::Idle => {
                let detail = "waited for input while being instantiated".into();
                self.trap(Phase::Instantiate, TrapKind::Other { detail }, faults);
                return spent;
            }
            Driven::Suspended | Driven::Stuck => {
                self.trap(Phase::Instantiate, TrapKind::WallClockBackstop, faults);
                return spent;
            }
        };

        // `main`: one call for the instance's life, yielding at every turn budget.
        let mark = self.ledger.game_fuel_left;
        if mark == 0 {
            self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
            return spent;
        }
        let configured =
            store.fuel_async_yield_interval(Some(self.budget.turn_fuel)).and_then(|()| store.set_fuel(mark));
        if let Err(err) = configured {
            self.trap(Phase::Init, TrapKind::other(&err), faults);
            return spent;
        }
        meter.set_chunk(self.budget.turn_fuel);
        meter.set_fuel(mark);
        let info = InitInfo {
            seat: self.seat,
            players: self.players,
            restart_count: self.ledger.restarts,
            seed: init_seed(self.match_seed, &self.bot.sha256),
            turn_fuel: self.budget.turn_fuel,
            game_fuel: self.budget.game_fuel,
            game_fuel_remaining: mark,
        };
        if exchange.hand(&P::greeting(&info), false).is_err() {
            self.trap(Phase::Init, TrapKind::InputBacklog, faults);
            return spent;
        }
        let mut call: RunCall = Box::pin(async move {
            let result = command.wasi_cli_run().call_run(&mut store).await;
            (store, result)
        });
        let driven = self.drive(&mut call, &exchange, &meter);
        let written = exchange.take_written();
        self.stale_faults(&written, faults);
        let (now, trap) = match driven {
            Driven::Idle | Driven::Suspended => {
                let suspended = matches!(driven, Driven::Suspended);
                match written.answer {
                    Some(Line { text, fuel }) => match text.map_err(|err| format!("{err:?}")).and_then(|reply| {
                        P::check_greeting_reply(&reply)
                            .map_err(|why| format!("{why} (reply {:?})", excerpt(&reply, 40)))
                    }) {
                        Ok(session) => {
                            self.ledger.game_fuel_left = fuel;
                            self.live = Some(Live { call, exchange, meter, session, overdrawn: suspended });
                            return spent + mark.saturating_sub(fuel);
                        }
                        Err(detail) => (exchange.fuel(), TrapKind::BadGreeting { detail }),
                    },
                    None if suspended => (exchange.fuel(), TrapKind::StartupFuelExhausted),
                    None => match P::session_without_reply() {
                        // A protocol without a handshake: waiting for the first state is the reply.
                        Some(session) => {
                            self.ledger.game_fuel_left = exchange.fuel();
                            self.live = Some(Live { call, exchange, meter, session, overdrawn: false });
                            return spent + mark.saturating_sub(self.ledger.game_fuel_left);
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
                self.ledger.game_fuel_left = now;
                self.ended(Phase::Init, result, faults);
                return spent + mark.saturating_sub(now);
            }
        };
        drop(call);
        self.ledger.game_fuel_left = now;
        self.trap(Phase::Init, trap, faults);
        spent + mark.saturating_sub(now)
    }

    /// Handles the end of `run`: a trap, an `exit`, `main` returning, or the game budget.
    fn ended(&mut self, phase: Phase, result: wasmtime::Result<Result<(), ()>>, faults: &mut Vec<BotFault>) {
        self.live = None;
        let trap = match result {
            Ok(Ok(())) => TrapKind::Exited { code: 0 },
            Ok(Err(())) => TrapKind::Exited { code: 1 },
            Err(err) if is_out_of_fuel(&err) => {
                self.ledger.game_fuel_left = 0;
                self.forfeit_now(ForfeitReason::GameFuelExhausted, faults);
                return;
            }
            Err(err) => classify(&err),
        };
        self.trap(phase, trap, faults);
    }

    /// One fault per stale line kept, and one for the rest.
    fn stale_faults(&mut self, written: &Written, faults: &mut Vec<BotFault>) {
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
        for line in stale {
            self.ledger.invalid(InvalidReason::Protocol { error: AnswerError::Stale { line } }, faults);
        }
    }

    /// Records a trap (the last allowed one forfeits) and drops the instance.
    fn trap(&mut self, phase: Phase, trap: TrapKind, faults: &mut Vec<BotFault>) {
        self.live = None;
        self.ledger.trap(phase, trap, faults);
    }

    /// Forfeits the bot and drops the instance.
    fn forfeit_now(&mut self, reason: ForfeitReason, faults: &mut Vec<BotFault>) {
        self.live = None;
        self.ledger.forfeit(reason, faults);
    }

    /// Closes a turn with this turn's log.
    fn finish_turn(&mut self, answer: Option<Action<P>>, fuel: u64, faults: Vec<BotFault>) -> TurnReport<Action<P>> {
        let log = self.log.take_turn();
        self.ledger.finish_turn(answer, fuel, faults, log)
    }

    /// Polls `call` until the bot waits for input, is suspended, ends, or is stuck.
    fn drive(&self, call: &mut RunCall, exchange: &Exchange, meter: &CallMeter) -> Driven<RunOutput> {
        drive_until_idle(&self.arena, &self.deadline, self.budget.backstop_ms, meter, call.as_mut(), &|| {
            exchange.is_waiting()
        })
    }
}

impl<P: LineProtocol> SeatBot<P::Game> for ProtocolRunner<P> {
    fn start(&mut self) -> TurnReport<Action<P>> {
        let mut faults = Vec::new();
        let fuel = self.start_instance(&mut faults);
        self.finish_turn(None, fuel, faults)
    }

    fn play(&mut self, observation: &<P::Game as Game>::Observation) -> TurnReport<Action<P>> {
        let mut faults = Vec::new();
        let mut fuel = 0;
        if self.ledger.forfeit.is_some() {
            return self.finish_turn(None, 0, faults);
        }
        if self.live.is_none() {
            self.ledger.restarts += 1;
            fuel += self.start_instance(&mut faults);
        }
        let Some(mut live) = self.live.take() else {
            // Start-up failed: this turn has no action.
            self.ledger.missed += 1;
            return self.finish_turn(None, fuel, faults);
        };
        // Fuel left now, and what the turn budget has left: a bot waiting for input may have
        // worked after its last answer (that counts toward this turn).
        let mark = self.ledger.game_fuel_left;
        let now = if live.exchange.is_waiting() { live.exchange.fuel().min(mark) } else { mark };
        let info = TurnInfo {
            turn: self.ledger.turns_asked,
            turn_fuel_remaining: self.budget.turn_fuel.saturating_sub(mark - now).min(now),
            game_fuel_remaining: now,
            missed_turns: self.ledger.missed,
        };
        self.ledger.missed = 0;
        self.ledger.turns_asked += 1;
        let lines = P::state_lines(&mut live.session, observation, &info);
        if live.exchange.hand(&lines, true).is_err() {
            fuel += self.ledger.charge(now);
            self.ledger.missed += 1;
            self.trap(Phase::Turn, TrapKind::InputBacklog, &mut faults);
            return self.finish_turn(None, fuel, faults);
        }
        if live.overdrawn {
            live.overdrawn = false;
            fuel += self.ledger.charge(live.exchange.fuel());
            self.live = Some(live);
            self.ledger.suspended(&mut faults);
            return self.finish_turn(None, fuel, faults);
        }
        let driven = self.drive(&mut live.call, &live.exchange, &live.meter);
        let written = live.exchange.take_written();
        self.stale_faults(&written, &mut faults);
        match driven {
            Driven::Idle | Driven::Suspended => {
                let suspended = matches!(driven, Driven::Suspended);
                let answer = match written.answer {
                    Some(line) => {
                        fuel += self.ledger.charge(line.fuel);
                        live.overdrawn = suspended;
                        match line.text.and_then(|text| P::parse_answer(&text, observation)) {
                            Ok(action) => Some(action),
                            Err(error) => {
                                self.ledger.invalid(InvalidReason::Protocol { error }, &mut faults);
                                None
                            }
                        }
                    }
                    None => {
                        fuel += self.ledger.charge(live.exchange.fuel());
                        if suspended {
                            self.ledger.suspended(&mut faults);
                        } else {
                            self.ledger.missed += 1;
                            self.ledger.invalid(InvalidReason::Protocol { error: AnswerError::NoAnswer }, &mut faults);
                            live.exchange.restart_chunk_on_read();
                        }
                        None
                    }
                };
                self.live = Some(live);
                self.finish_turn(answer, fuel, faults)
            }
            Driven::Stuck => {
                fuel += self.ledger.charge(live.exchange.fuel());
                drop(live);
                self.ledger.missed += 1;
                self.trap(Phase::Turn, TrapKind::WallClockBackstop, &mut faults);
                self.finish_turn(None, fuel, faults)
            }
            Driven::Ready((store, result)) => {
                fuel += self.ledger.charge(store.get_fuel().unwrap_or(0));
                drop(store);
                drop(live);
                self.ledger.missed += 1;
                self.ended(Phase::Turn, result, &mut faults);
                self.finish_turn(None, fuel, faults)
            }
        }
    }

    fn note_invalid_action(&mut self) {
        self.ledger.stats.invalid_actions += 1;
    }

    fn stats(&self) -> BotStats {
        self.ledger.stats
    }

    fn forfeit(&self) -> Option<ForfeitReason> {
        self.ledger.forfeit
    }

    fn identity(&self) -> BotRef {
        self.bot.identity()
    }

    fn host_failure(&self) -> Option<String> {
        self.host_failure.clone()
    }
}
