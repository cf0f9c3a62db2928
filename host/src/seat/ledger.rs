//! A bot's books over one match, whatever kind of bot it is (kept by its
//! [`crate::seat::runner::SeatCore`]):
//! game fuel left, the totals, restarts, turns asked and missed, and the fault rules that turn
//! events into typed faults (every trap counts and the third forfeits; a forfeit happens once).
//! The seat core owns the instance and drops it on a trap or forfeit; this owns the counting.

use crate::fault::{BotFault, ForfeitReason, InvalidReason, Phase, TrapKind};
use crate::log::TurnLog;
use crate::seat::{BotStats, TurnReport};

/// One bot's books in one match.
#[derive(Debug)]
pub(crate) struct Ledger {
    /// Traps that forfeit ([`crate::Budget::max_traps`]).
    max_traps: u32,
    /// The game budget the books started with.
    game_fuel: u64,
    /// Game fuel left at the last charge point.
    pub game_fuel_left: u64,
    /// Totals so far.
    pub stats: BotStats,
    /// Instances started after a trap.
    pub restarts: u32,
    /// Turns the bot has been handed a view (or message) for.
    pub turns_asked: u32,
    /// Turns without an action since the bot was last told how many it missed.
    pub missed: u32,
    /// Why the bot is out, once it is.
    pub forfeit: Option<ForfeitReason>,
}

impl Ledger {
    /// Fresh books: the whole game budget left.
    pub fn new(game_fuel: u64, max_traps: u32) -> Ledger {
        Ledger {
            max_traps,
            game_fuel,
            game_fuel_left: game_fuel,
            stats: BotStats::default(),
            restarts: 0,
            turns_asked: 0,
            missed: 0,
            forfeit: None,
        }
    }

    /// Records a trap in `phase`; the last one allowed forfeits. The caller drops its instance.
    pub fn trap(&mut self, phase: Phase, trap: TrapKind, faults: &mut Vec<BotFault>) {
        self.stats.traps += 1;
        faults.push(BotFault::Trapped { phase, trap });
        if self.stats.traps >= self.max_traps {
            self.forfeit(ForfeitReason::TooManyTraps, faults);
        }
    }

    /// Forfeits the bot, once (later reasons are not recorded). The caller drops its instance.
    pub fn forfeit(&mut self, reason: ForfeitReason, faults: &mut Vec<BotFault>) {
        if self.forfeit.is_none() {
            self.forfeit = Some(reason);
            faults.push(BotFault::Forfeit { reason });
        }
    }

    /// Records a turn the bot missed because it was suspended (out of turn fuel).
    pub fn suspended(&mut self, faults: &mut Vec<BotFault>) {
        self.stats.skipped_turns += 1;
        self.missed += 1;
        faults.push(BotFault::Suspended);
    }

    /// Records an answer the game (or the protocol) refused.
    pub fn invalid(&mut self, reason: InvalidReason, faults: &mut Vec<BotFault>) {
        self.stats.invalid_actions += 1;
        faults.push(BotFault::InvalidAction { reason });
    }

    /// Charges the game budget down to `now` (fuel left) and returns what was spent.
    pub fn charge(&mut self, now: u64) -> u64 {
        let spent = self.game_fuel_left.saturating_sub(now);
        self.game_fuel_left = now;
        spent
    }

    /// Closes a turn: adds its fuel to the totals and packs the report.
    pub fn finish_turn<A>(
        &mut self,
        answer: Option<A>,
        fuel: u64,
        faults: Vec<BotFault>,
        log: TurnLog,
    ) -> TurnReport<A> {
        self.stats.fuel_total += fuel;
        self.stats.fuel_max_turn = self.stats.fuel_max_turn.max(fuel);
        // The books balance after every turn of every match the tests play: the fuel charged
        // to turns is what the stores consumed, and never more than the game budget.
        debug_assert_eq!(
            self.stats.fuel_total + self.game_fuel_left,
            self.game_fuel,
            "fuel charged {} + left {} != budget {}",
            self.stats.fuel_total,
            self.game_fuel_left,
            self.game_fuel
        );
        TurnReport { answer, fuel, faults, log }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_allowed_trap_forfeits_once() {
        let mut ledger = Ledger::new(1_000, 2);
        let mut faults = Vec::new();
        ledger.trap(Phase::Turn, TrapKind::Unreachable, &mut faults);
        assert_eq!(ledger.forfeit, None);
        ledger.trap(Phase::Init, TrapKind::Unreachable, &mut faults);
        ledger.forfeit(ForfeitReason::GameFuelExhausted, &mut faults);
        assert_eq!(ledger.forfeit, Some(ForfeitReason::TooManyTraps));
        assert_eq!(
            faults,
            [
                BotFault::Trapped { phase: Phase::Turn, trap: TrapKind::Unreachable },
                BotFault::Trapped { phase: Phase::Init, trap: TrapKind::Unreachable },
                BotFault::Forfeit { reason: ForfeitReason::TooManyTraps },
            ]
        );
        assert_eq!(ledger.stats.traps, 2);
    }

    #[test]
    fn charges_and_turns_add_up() {
        let mut ledger = Ledger::new(1_000, 3);
        assert_eq!(ledger.charge(700), 300);
        let report = ledger.finish_turn(Some(1), 300, Vec::new(), TurnLog::default());
        assert_eq!(ledger.charge(650), 50);
        ledger.finish_turn::<u8>(None, 50, Vec::new(), TurnLog::default());
        assert_eq!((report.answer, report.fuel), (Some(1), 300));
        assert_eq!((ledger.stats.fuel_total, ledger.stats.fuel_max_turn), (350, 300));
    }
}
