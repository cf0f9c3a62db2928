//! Swiss tournaments: `rounds` rounds, each pairing bots of similar standing that have not met
//! yet, every pair playing every seed of the SPEC in both seat orders.
//!
//! Round `r` is paired from the results of rounds before it, read back from the database: the
//! bots in leaderboard order (rating, then name; round 1 is all ties, so by name), each paired
//! with the best-placed bot below it that it has not met (greedy from the top); a bot left
//! without an opponent sits the round out (a bye: no match, no points). So a resumed run
//! re-derives the very same pairings, and the match ids do the rest.

use super::leaderboard::standings;
use super::plan::{Plan, PlanBot, group_matches, plan};
use super::run::{Progress, RunOptions, RunReport, Shard, TournamentError, run_plan};
use super::spec::Resolved;
use super::store::Store;
use arena_host::budget::WASMTIME_VERSION;
use arena_host::loader::sha256;
use arena_host::runtime::Arena;
use std::collections::BTreeSet;
use std::path::Path;

/// Pairs the bots of `ranking` (best first) greedily, never two that `met`; returns the pairs
/// (better-placed first) and the bots left out.
pub fn pair(ranking: &[usize], met: &BTreeSet<(usize, usize)>) -> (Vec<(usize, usize)>, Vec<usize>) {
    let mut unpaired: Vec<usize> = ranking.to_vec();
    let (mut pairs, mut byes) = (Vec::new(), Vec::new());
    while !unpaired.is_empty() {
        let a = unpaired.remove(0);
        let fresh = |b: &usize| !met.contains(&(a.min(*b), a.max(*b)));
        match unpaired.iter().position(fresh) {
            Some(at) => pairs.push((a, unpaired.remove(at))),
            None => byes.push(a),
        }
    }
    (pairs, byes)
}

/// The digest a swiss tournament's plan grows under: its SPEC, canonically (format, rounds,
/// game, options, budgets, seeds, the bots' sha256s, arena and wasmtime versions).
fn digest(spec: &Resolved, plan: &Plan) -> String {
    let canonical = serde_json::json!({
        "format": "swiss",
        "rounds": spec.rounds,
        "game": spec.game_name,
        "options": spec.options,
        "budget": spec.budget,
        "seeds": spec.seeds,
        "bots": plan.bots.iter().map(PlanBot::identity).collect::<Vec<_>>(),
        "arena": env!("CARGO_PKG_VERSION"),
        "wasmtime": WASMTIME_VERSION,
    });
    hex::encode(sha256(canonical.to_string().as_bytes()))
}

/// Runs (or resumes) a swiss tournament: each round is paired from the results before it and
/// played to the end before the next is paired.
pub fn run_swiss(
    arena: &Arena,
    spec: &Resolved,
    database: &Path,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RunReport, TournamentError> {
    let mut plan = plan(spec)?;
    let digest = digest(spec, &plan);
    plan.digest = Some(digest.clone());
    let mut total = RunReport {
        spec_digest: digest.clone(),
        planned: 0,
        already_done: 0,
        played: 0,
        not_played: 0,
        retry: 0,
        load_errors: Vec::new(),
        other_results: 0,
    };
    let mut met = BTreeSet::new();
    for _round in 0..spec.rounds {
        let ranking = {
            let store = Store::open(database)?;
            let known = store.bots(&digest)?;
            // Only the rounds before this one: a resumed run pairs every round as it was paired.
            let earlier: BTreeSet<&str> = plan.matches.iter().map(|planned| planned.id.as_str()).collect();
            let seats: Vec<_> =
                store.seats(&digest)?.into_iter().filter(|seat| earlier.contains(seat.match_id.as_str())).collect();
            let bots: Vec<_> = plan
                .bots
                .iter()
                .map(|bot| {
                    let load_error =
                        known.iter().find(|(id, _, _)| *id == bot.identity()).and_then(|(_, _, error)| error.clone());
                    (bot.identity(), bot.name.clone(), load_error)
                })
                .collect();
            standings(&bots, &seats)
                .into_iter()
                .filter(|standing| standing.load_error.is_none())
                .filter_map(|standing| plan.bots.iter().position(|bot| bot.identity() == standing.sha256))
                .collect::<Vec<usize>>()
        };
        let (pairs, _byes) = pair(&ranking, &met);
        if pairs.is_empty() {
            break;
        }
        for &(a, b) in &pairs {
            met.insert((a.min(b), a.max(b)));
            let matches = group_matches(spec, &plan.bots, &[a, b]);
            plan.matches.extend(matches);
        }
        let report = run_plan(arena, &plan, Shard::WHOLE, database, options, progress)?;
        total.planned = report.planned;
        total.played += report.played;
        total.not_played += report.not_played;
        total.other_results = report.other_results;
        total.load_errors.extend(report.load_errors);
        if report.retry > 0 {
            // A round must be complete before the next is paired: stop, the next run resumes.
            total.retry = report.retry;
            break;
        }
    }
    total.already_done = total.planned.saturating_sub(total.played + total.not_played + total.retry);
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_pair_down_the_ranking_and_never_twice() {
        let none = BTreeSet::new();
        assert_eq!(pair(&[3, 1, 0, 2], &none), (vec![(3, 1), (0, 2)], vec![]));
        let met: BTreeSet<(usize, usize)> = [(1, 3)].into_iter().collect();
        assert_eq!(pair(&[3, 1, 0, 2], &met), (vec![(3, 0), (1, 2)], vec![]));
        assert_eq!(pair(&[0, 1, 2], &none), (vec![(0, 1)], vec![2]));
        let everyone: BTreeSet<(usize, usize)> = [(0, 1)].into_iter().collect();
        assert_eq!(pair(&[0, 1], &everyone), (vec![], vec![0, 1]));
    }
}
