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
    game_fuel_left: u64,
    /// Totals so far.
    stats: BotStats,
    /// Instances started after a trap.
    restarts: u32,
    /// Turns the bot has been handed a view (or message) for.
    turns_asked: u32,
    /// Turns without an action since the bot was last told how many it missed.
    missed: u32,
    /// Why the bot is out, once it is.
    forfeit: Option<ForfeitReason>,
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

    /// Game fuel left at the last charge point.
    pub fn game_fuel_left(&self) -> u64 {
        self.game_fuel_left
    }

    /// Totals so far.
    pub fn stats(&self) -> BotStats {
        self.stats
    }

    /// Instances started after a trap.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Why the bot is out, if it is.
    pub fn forfeited(&self) -> Option<ForfeitReason> {
        self.forfeit
    }

    /// Counts an instance started after a trap.
    pub fn restart(&mut self) {
        self.restarts += 1;
    }

    /// Counts a turn the bot gave no action for (a failed start-up, a trap, no answer), which
    /// its next call is told about.
    pub fn missed_turn(&mut self) {
        self.missed += 1;
    }

    /// Counts a turn the bot is asked (a new call or message): returns the turn's number and the
    /// turns it missed since it was last told, which are then reset. (Reset when a new call is
    /// told, not when an answer returns: a suspended call answers from an old observation, and
    /// the next one must still say how many turns were missed.)
    pub fn ask(&mut self) -> (u32, u32) {
        let asked = (self.turns_asked, self.missed);
        self.missed = 0;
        self.turns_asked += 1;
        asked
    }

    /// Counts a turn a suspended call is resumed for (it was told its turn when it started).
    pub fn asked_again(&mut self) {
        self.turns_asked += 1;
    }

    /// Sets the game fuel left to `left`, read from the bot's store after a call whose spending
    /// the caller has counted itself.
    pub fn settle(&mut self, left: u64) {
        self.game_fuel_left = left;
    }

    /// Takes `used` from the game fuel left (a start-up step's spending).
    pub fn spend(&mut self, used: u64) {
        self.game_fuel_left = self.game_fuel_left.saturating_sub(used);
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
