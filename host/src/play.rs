//! The match loop (docs/design.md#the-match-loop): observe, meter and call (or resume) each acting
//! bot, validate its answer, step the game, record the turn; repeat until the game is over or too
//! few bots are left in it. Seats are [`SeatBot`]s, so WIT bots and line-protocol bots play in one
//! match.

use crate::bindings::Binding;
use crate::bot::WitContestant;
use crate::budget::Budget;
use crate::fault::InvalidReason;
use crate::loader::LoadedBot;
use crate::record::{MatchRecord, MatchResult, PlayerSummary, RuntimeInfo, SeatTurn, TurnRecord, replay_format};
use crate::runtime::Arena;
use crate::seat::{BotStats, Contestant, SeatBot, TurnReport};
use arena_game::{Game, Outcome, SetupError, ranks_from_scores};
use std::sync::Arc;

/// Why a match could not be played at all (bots' misbehaviour never is).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The game refused the setup.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The budget is unusable.
    #[error("bad budget: {0}")]
    Budget(String),
    /// The host ran out of resources to run a bot (the pooling allocator's instance slots are
    /// all in use): the match cannot be played fairly, and no bot is blamed.
    #[error("seat {seat}: the host could not run the bot: {detail}")]
    HostResources {
        /// The seat whose bot could not be run.
        seat: usize,
        /// What the runtime said.
        detail: String,
    },
    /// The engine refused a joint action the host had validated (an engine bug).
    #[error("engine error at turn {turn}: {detail}")]
    Engine {
        /// The turn.
        turn: u32,
        /// What the engine said.
        detail: String,
    },
}

/// Plays one match between already loaded WIT bots, in seat order: [`play_contestants`] with
/// each bot seated as a [`BotRunner`](crate::bot::BotRunner).
pub fn play_match<B: Binding>(
    arena: &Arena,
    bots: &[Arc<LoadedBot<B>>],
    config: &<B::Game as Game>::Config,
    seed: u64,
    budget: Budget,
) -> Result<MatchRecord<B::Game>, MatchError> {
    let contestants: Vec<Arc<dyn Contestant<B::Game>>> =
        bots.iter().map(|bot| Arc::new(WitContestant(bot.clone())) as Arc<dyn Contestant<B::Game>>).collect();
    play_contestants(arena, &contestants, config, seed, budget)
}

/// Plays one match between bots of any kind (WIT components, line-protocol commands), in seat
/// order. Each contestant makes its seat's [`SeatBot`] for this match.
pub fn play_contestants<G: Game>(
    arena: &Arena,
    bots: &[Arc<dyn Contestant<G>>],
    config: &G::Config,
    seed: u64,
    budget: Budget,
) -> Result<MatchRecord<G>, MatchError> {
    budget.validate().map_err(MatchError::Budget)?;
    let players = bots.len();
    let mut game = G::new(config, players, seed)?;
    let seats = u8::try_from(players).unwrap_or(u8::MAX);
    let mut runners: Vec<Box<dyn SeatBot<G>>> =
        bots.iter().enumerate().map(|(seat, bot)| bot.seat(arena, budget, seat as u8, seats, seed)).collect();
    let initial = Arc::new(game.clone());
    let mut setup = Vec::new();
    for (seat, runner) in runners.iter_mut().enumerate() {
        runner.seated_in(&initial);
        setup.push(seat_turn::<G>(seat, runner.start(), None));
        host_check(seat, runner.as_ref())?;
    }

    let min_living = players.min(2);
    let mut turns = Vec::new();
    while !game.is_over() && runners.iter().filter(|r| r.forfeit().is_none()).count() >= min_living {
        let turn = turns.len() as u32 + 1;
        let mut actions = Vec::new();
        let mut seat_turns = Vec::new();
        for seat in game.to_act() {
            let Some(runner) = runners.get_mut(seat) else { continue };
            let mut report = runner.take_turn(&game.observe(seat));
            host_check(seat, runner.as_ref())?;
            let valid = match report.answer.as_ref().map(|action| game.check(seat, action)) {
                Some(Err(invalid)) => {
                    let reason = serde_json::to_value(&invalid).unwrap_or(serde_json::Value::Null);
                    runner.refused(InvalidReason::Refused { reason }, &mut report.faults);
                    None
                }
                Some(Ok(())) => report.answer.clone(),
                None => None,
            };
            tracing::debug!(turn, seat, fuel = report.fuel, faults = ?report.faults, answer = ?valid, "bot turn");
            actions.push((seat, valid));
            seat_turns.push(seat_turn::<G>(seat, report, None));
        }
        let stepped =
            game.step_applied(&actions).map_err(|err| MatchError::Engine { turn, detail: err.to_string() })?;
        // The record says what the engine applied (the answer, or the fallback it substituted).
        for applied in stepped.applied {
            if let Some(record) = seat_turns.iter_mut().find(|record| record.seat == applied.seat) {
                record.applied = applied.action;
            }
        }
        let events = stepped.events;
        turns.push(TurnRecord { turn, seats: seat_turns, events, state_hash: format!("{:016x}", game.state_hash()) });
    }

    let result = summarise(&game, &runners, seed, turns.len() as u32);
    let identities: Vec<_> = runners.iter().map(|runner| runner.identity()).collect();
    tracing::info!(game = G::NAME, seed, turns = result.turns, winner = ?result.winner, "match over");
    Ok(MatchRecord {
        format: replay_format(&identities).into(),
        game: G::NAME.into(),
        config: config.clone(),
        seed,
        budget,
        runtime: RuntimeInfo::current(),
        bots: identities,
        setup,
        turns,
        result,
    })
}

fn seat_turn<G: Game>(seat: usize, report: TurnReport<G::Action>, applied: Option<G::Action>) -> SeatTurn<G> {
    SeatTurn { seat, answer: report.answer, applied, fuel: report.fuel, faults: report.faults, log: report.log }
}

/// Final ranks: bots still in the match by the game's ranks, then every forfeited bot sharing
/// the rank below them (so two forfeits in a two-player game are a draw).
pub fn final_outcome(outcome: &Outcome, forfeited: &[bool]) -> Outcome {
    let keys: Vec<(bool, i64)> = outcome
        .ranks
        .iter()
        .zip(forfeited)
        .map(|(rank, out)| if *out { (false, 0) } else { (true, -i64::from(*rank)) })
        .collect();
    Outcome { scores: outcome.scores.clone(), ranks: ranks_from_scores(&keys) }
}

fn summarise<G: Game>(game: &G, runners: &[Box<dyn SeatBot<G>>], seed: u64, turns: u32) -> MatchResult {
    let forfeited: Vec<bool> = runners.iter().map(|r| r.forfeit().is_some()).collect();
    let outcome = final_outcome(&game.outcome(), &forfeited);
    let players = runners
        .iter()
        .enumerate()
        .map(|(seat, runner)| {
            let stats: BotStats = runner.stats();
            let identity = runner.identity();
            PlayerSummary {
                bot: identity.name,
                sha256: identity.sha256,
                data: identity.data.map(|data| data.digest),
                score: outcome.scores.get(seat).copied().unwrap_or(0),
                rank: outcome.ranks.get(seat).copied().unwrap_or(0),
                forfeit: runner.forfeit().is_some(),
                forfeit_reason: runner.forfeit(),
                fuel_total: stats.fuel_total,
                fuel_max_turn: stats.fuel_max_turn,
                skipped_turns: stats.skipped_turns,
                traps: stats.traps,
                invalid_actions: stats.invalid_actions,
            }
        })
        .collect();
    MatchResult { game: G::NAME.into(), seed, turns, winner: outcome.winner(), players }
}

/// Stops the match if the host could not run `runner`'s bot.
fn host_check<G: Game>(seat: usize, runner: &dyn SeatBot<G>) -> Result<(), MatchError> {
    match runner.host_failure() {
        Some(detail) => Err(MatchError::HostResources { seat, detail }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forfeited_bots_rank_below_the_rest_and_two_forfeits_draw() {
        let outcome = Outcome { scores: vec![50, 10], ranks: vec![1, 2] };
        let one_out = final_outcome(&outcome, &[true, false]);
        assert_eq!(one_out.ranks, vec![2, 1]);
        assert_eq!(one_out.winner(), Some(1));
        let both_out = final_outcome(&outcome, &[true, true]);
        assert_eq!(both_out.ranks, vec![1, 1]);
        assert_eq!(both_out.winner(), None);
        let none_out = final_outcome(&outcome, &[false, false]);
        assert_eq!(none_out.ranks, vec![1, 2]);
    }
}
