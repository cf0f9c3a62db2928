//! The shared conformance kit: every engine's tests call [`check_game`]
//! (docs/design.md#errors-tests-and-habits).
//!
//! It plays seeded random playouts and checks the [`Game`] contract on every step: determinism,
//! clone independence, serialisation round trips, `to_act`/`is_over` agreement, that the
//! fallback is valid, that refused joint actions change nothing (wrong seats, and actions the game
//! refuses: near misses of valid ones), that a missing action is the fallback, the game's own
//! invariants, and that every game ends, within [`Game::MAX_TURNS`] steps, with ranks consistent
//! with the outcome.
//!
//! Games that declare themselves symmetric ([`crate::SeatSymmetric`]) also get
//! [`check_symmetry`]: every match, replayed with two seats swapped, is the exact image of the
//! original, step by step.

// This is test code run from engines' tests: failing loudly with the seed and step is its job.
#![allow(clippy::panic)]

use crate::rng::GameRng;
use crate::rng::{new_rng, rng_below};
use crate::{Game, Seat, SeatSymmetric, StepError, ranks_from_scores};

/// How much the kit plays.
#[derive(Debug, Clone)]
pub struct Plan<G: Game> {
    /// Configuration to set each game up with.
    pub config: G::Config,
    /// Player counts to try.
    pub players: Vec<usize>,
    /// Seeds (one playout per seed and player count).
    pub seeds: std::ops::Range<u64>,
    /// A playout longer than this many steps fails the kit (a game that never ends).
    pub max_steps: usize,
}

/// Runs every check of the kit; panics (it is test code) with the seed and step that failed.
pub fn check_game<G: Game>(plan: &Plan<G>) {
    for &players in &plan.players {
        for seed in plan.seeds.clone() {
            let first = playout::<G>(plan, players, seed);
            let second = playout::<G>(plan, players, seed);
            assert_eq!(first, second, "{}: seed {seed}, {players} players: playout is not deterministic", G::NAME);
        }
    }
}

/// Plays one seeded random playout, checking the contract at every step; returns the sequence
/// of state hashes.
/// Plays the plan's random playouts (random and fallback actions, as [`check_game`] does) and
/// hands `visit` every observation a seat that must act gets, with the playout's number (one per
/// player count and seed, counting from 0) and the actions it then plays. The WIT round-trip
/// tests push each observation and action through the conversions a bot's SDK runs.
pub fn for_each_observation<G: Game>(
    plan: &Plan<G>,
    mut visit: impl FnMut(usize, Seat, &G::Observation, Option<&G::Action>),
) {
    let mut number = 0;
    for &players in &plan.players {
        for seed in plan.seeds.clone() {
            let name = G::NAME;
            let mut game = match G::new(&plan.config, players, seed) {
                Ok(game) => game,
                Err(err) => panic!("{name}: seed {seed}: setup failed: {err}"),
            };
            let mut rng = new_rng(seed ^ 0x0b5e_7e55);
            let mut steps = 0;
            while !game.is_over() && steps < plan.max_steps {
                let actions: Vec<(Seat, Option<G::Action>)> = game
                    .to_act()
                    .into_iter()
                    .map(|seat| {
                        let action = match rng_below(&mut rng, 8) {
                            0 => None,
                            _ => game.random_action(seat, &mut rng),
                        };
                        visit(number, seat, &game.observe(seat), action.as_ref());
                        (seat, action)
                    })
                    .collect();
                if let Err(err) = game.step(&actions) {
                    panic!("{name}: seed {seed}, step {steps}: {err}");
                }
                steps += 1;
            }
            number += 1;
        }
    }
}

fn playout<G: Game>(plan: &Plan<G>, players: usize, seed: u64) -> Vec<u64> {
    let name = G::NAME;
    let mut game = match G::new(&plan.config, players, seed) {
        Ok(game) => game,
        Err(err) => panic!("{name}: seed {seed}: setup failed: {err}"),
    };
    let mut rng = new_rng(seed ^ 0x5eed_c0de);
    let mut hashes = vec![game.state_hash()];
    let mut steps = 0;
    loop {
        let ctx = format!("{name}: seed {seed}, {players} players, step {steps}");
        check_state(&game, &ctx);
        if game.is_over() {
            break;
        }
        assert!(steps < plan.max_steps, "{ctx}: no end after {} steps", plan.max_steps);
        assert!(steps < G::MAX_TURNS as usize, "{ctx}: not over after MAX_TURNS = {} steps", G::MAX_TURNS);
        let to_act = game.to_act();
        check_refusals(&mut game, &to_act, &ctx);
        // Every few steps (they clone and step the game several times): refused actions change
        // nothing, and a missing action is the fallback.
        if steps % 5 == 0 {
            check_invalid_actions_change_nothing(&game, &to_act, &mut rng, &ctx);
            check_missing_action_is_the_fallback(&game, &to_act, &ctx);
        }

        // Mix random actions, explicit fallbacks and "no action".
        let actions: Vec<(Seat, Option<G::Action>)> = to_act
            .iter()
            .map(|&seat| {
                let action = match rng_below(&mut rng, 8) {
                    0 => None,
                    1 => game.no_action(seat),
                    _ => game.random_action(seat, &mut rng),
                };
                if let Some(action) = &action
                    && let Err(err) = game.check(seat, action)
                {
                    panic!("{ctx}: seat {seat}: random/fallback action {action:?} refused: {err}");
                }
                (seat, action)
            })
            .collect();

        let before = game.clone();
        let before_hash = game.state_hash();
        let mut twin = game.clone();
        if let Err(err) = game.step(&actions) {
            panic!("{ctx}: valid joint action {actions:?} refused: {err}");
        }
        assert_eq!(before.state_hash(), before_hash, "{ctx}: stepping a clone changed the original");
        if let Err(err) = twin.step(&actions) {
            panic!("{ctx}: twin refused {actions:?}: {err}");
        }
        assert_eq!(twin.state_hash(), game.state_hash(), "{ctx}: same step, different states");
        hashes.push(game.state_hash());
        steps += 1;
    }
    assert!(matches!(game.step(&[]), Err(StepError::GameOver)), "{name}: seed {seed}: step after the end was accepted");
    hashes
}

/// Checks what must hold in any state.
fn check_state<G: Game>(game: &G, ctx: &str) {
    if let Err(broken) = game.check_invariants() {
        panic!("{ctx}: invariant broken: {broken}");
    }
    let to_act = game.to_act();
    assert_eq!(to_act.is_empty(), game.is_over(), "{ctx}: to_act() {to_act:?} disagrees with is_over()");
    assert!(to_act.windows(2).all(|w| w[0] < w[1]), "{ctx}: to_act() {to_act:?} not ascending");
    assert!(to_act.iter().all(|seat| *seat < game.players()), "{ctx}: to_act() names a missing seat");
    for &seat in &to_act {
        if let Some(fallback) = game.no_action(seat)
            && let Err(err) = game.check(seat, &fallback)
        {
            panic!("{ctx}: seat {seat}: fallback {fallback:?} is invalid: {err}");
        }
        let observation = game.observe(seat);
        let json = serde_json::to_string(&observation).unwrap_or_default();
        let back: Result<G::Observation, _> = serde_json::from_str(&json);
        assert_eq!(back.ok().as_ref(), Some(&observation), "{ctx}: observation does not round-trip through JSON");
    }
    let json = serde_json::to_string(game).unwrap_or_default();
    match serde_json::from_str::<G>(&json) {
        Ok(back) => assert_eq!(back.state_hash(), game.state_hash(), "{ctx}: state JSON round trip changed the hash"),
        Err(err) => panic!("{ctx}: state does not deserialise from its own JSON: {err}"),
    }
    let outcome = game.outcome();
    assert_eq!(outcome.scores.len(), game.players(), "{ctx}: outcome has the wrong number of scores");
    assert_eq!(outcome.ranks.len(), game.players(), "{ctx}: outcome has the wrong number of ranks");
    let best = outcome.ranks.iter().min().copied();
    assert_eq!(best, Some(1).filter(|_| game.players() > 0), "{ctx}: nobody is ranked 1");
    // Ranks are consistent with the "1224" scheme over some key: recomputing them from the
    // ranks themselves (lower is better) must give them back.
    let keys: Vec<i64> = outcome.ranks.iter().map(|rank| -i64::from(*rank)).collect();
    assert_eq!(ranks_from_scores(&keys), outcome.ranks, "{ctx}: ranks are not standard competition ranks");
}

/// Joint actions naming the wrong seats are refused and change nothing.
/// Actions near `action` (its JSON with one number nudged or far out of range, one list item
/// repeated or dropped) that still decode as an action; [`check_invalid_actions_change_nothing`]
/// keeps those the game refuses.
fn nearby_actions<A: serde::Serialize + serde::de::DeserializeOwned>(action: &A) -> Vec<A> {
    fn variants(value: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        use serde_json::Value;
        match value {
            Value::Number(number) => {
                if let Some(n) = number.as_i64() {
                    for m in [n + 1, n - 1, n + 100, -1, i64::from(i32::MAX)] {
                        out.push(Value::from(m));
                    }
                } else if let Some(x) = number.as_f64() {
                    for y in [x + 1.0, -1.0, 1e9] {
                        out.push(Value::from(y));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(first) = items.first() {
                    let mut repeated = items.clone();
                    repeated.push(first.clone());
                    out.push(Value::Array(repeated));
                    out.push(Value::Array(items[1..].to_vec()));
                }
                for (index, item) in items.iter().enumerate() {
                    let mut inner = Vec::new();
                    variants(item, &mut inner);
                    for variant in inner {
                        let mut changed = items.clone();
                        changed[index] = variant;
                        out.push(Value::Array(changed));
                    }
                }
            }
            Value::Object(fields) => {
                for (key, field) in fields {
                    let mut inner = Vec::new();
                    variants(field, &mut inner);
                    for variant in inner {
                        let mut changed = fields.clone();
                        changed.insert(key.clone(), variant);
                        out.push(Value::Object(changed));
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::String(_) => {}
        }
    }
    let Ok(value) = serde_json::to_value(action) else { return Vec::new() };
    let mut out = Vec::new();
    variants(&value, &mut out);
    out.truncate(64);
    out.into_iter().filter_map(|variant| serde_json::from_value(variant).ok()).collect()
}

/// A step with an action the game refuses returns [`StepError::Invalid`] for that seat and
/// changes nothing: not the state, not what any seat sees.
fn check_invalid_actions_change_nothing<G: Game>(game: &G, to_act: &[Seat], rng: &mut GameRng, ctx: &str) {
    let hash = game.state_hash();
    let observations: Vec<G::Observation> = (0..game.players()).map(|seat| game.observe(seat)).collect();
    for &seat in to_act {
        let Some(valid) = game.random_action(seat, rng) else { continue };
        for invalid in nearby_actions(&valid).into_iter().filter(|action| game.check(seat, action).is_err()).take(4) {
            let joint: Vec<(Seat, Option<G::Action>)> =
                to_act.iter().map(|&other| (other, if other == seat { Some(invalid.clone()) } else { None })).collect();
            let mut refused = game.clone();
            match refused.step(&joint) {
                Err(StepError::Invalid { seat: named, .. }) if named == seat => {}
                other => panic!("{ctx}: seat {seat}: invalid action {invalid:?} gave {other:?}"),
            }
            assert_eq!(refused.state_hash(), hash, "{ctx}: a refused action {invalid:?} changed the state");
            for (viewer, seen) in observations.iter().enumerate() {
                assert_eq!(&refused.observe(viewer), seen, "{ctx}: a refused action changed seat {viewer}'s view");
            }
        }
    }
}

/// A seat that gives no action gets the game's fallback: stepping with `None` and with
/// `Some(no_action(seat))` leaves the same state (events may say which it was).
fn check_missing_action_is_the_fallback<G: Game>(game: &G, to_act: &[Seat], ctx: &str) {
    for &seat in to_act {
        let Some(fallback) = game.no_action(seat) else { continue };
        let joint = |explicit: bool| -> Vec<(Seat, Option<G::Action>)> {
            to_act.iter().map(|&other| (other, (explicit && other == seat).then(|| fallback.clone()))).collect()
        };
        let (mut missing, mut given) = (game.clone(), game.clone());
        let stepped = match missing.step_applied(&joint(false)) {
            Ok(stepped) => stepped,
            Err(err) => panic!("{ctx}: seat {seat}: no action refused: {err}"),
        };
        if let Err(err) = given.step(&joint(true)) {
            panic!("{ctx}: seat {seat}: its own fallback {fallback:?} refused: {err}");
        }
        assert_eq!(missing.state_hash(), given.state_hash(), "{ctx}: seat {seat}: no action is not the fallback");
        let applied = stepped.applied.iter().find(|applied| applied.seat == seat);
        assert_eq!(
            applied.map(|applied| (&applied.action, applied.fallback)),
            Some((&Some(fallback.clone()), true)),
            "{ctx}: seat {seat}: the step does not report the fallback it applied"
        );
    }
}

fn check_refusals<G: Game>(game: &mut G, to_act: &[Seat], ctx: &str) {
    let hash = game.state_hash();
    assert!(matches!(game.step(&[]), Err(StepError::WrongSeats { .. })), "{ctx}: empty joint action accepted");
    let missing_seat = (0..=game.players()).find(|seat| !to_act.contains(seat)).unwrap_or(usize::MAX);
    let mut wrong: Vec<(Seat, Option<G::Action>)> = to_act.iter().map(|&seat| (seat, None)).collect();
    wrong.push((missing_seat, None));
    assert!(matches!(game.step(&wrong), Err(StepError::WrongSeats { .. })), "{ctx}: extra seat accepted");
    assert_eq!(game.state_hash(), hash, "{ctx}: a refused step changed the state");
}

/// The seat-swap property of a [`SeatSymmetric`] game: for every seed and player count of the
/// plan, and every swap of two seats `i < j`, a random playout (each seat drawing its actions
/// from its own generator: random actions mixed with "no action"), and the same playout with
/// seats `i` and `j` swapped (the swapped seat gets the same actions, through
/// [`SeatSymmetric::permute_action`]) correspond exactly at every step: who acts, every
/// observation ([`SeatSymmetric::permute_observation`]), every step's events
/// ([`SeatSymmetric::permute_events`]), and the outcome. Panics (test code) on the first
/// difference, naming the seed, swap and step, and on a plan whose config is not symmetric.
pub fn check_symmetry<G: SeatSymmetric>(plan: &Plan<G>) {
    assert!(G::is_symmetric(&plan.config), "{}: the plan's config is not symmetric", G::NAME);
    for &players in &plan.players {
        for seed in plan.seeds.clone() {
            for i in 0..players {
                for j in i + 1..players {
                    let mut perm: Vec<Seat> = (0..players).collect();
                    perm.swap(i, j);
                    mirrored_playout::<G>(plan, players, seed, &perm);
                }
            }
        }
    }
}

/// One playout of [`check_symmetry`] under `perm`.
fn mirrored_playout<G: SeatSymmetric>(plan: &Plan<G>, players: usize, seed: u64, perm: &[Seat]) {
    let name = G::NAME;
    let setup = |label: &str| match G::new(&plan.config, players, seed) {
        Ok(game) => game,
        Err(err) => panic!("{name}: seed {seed}: setup of the {label} match failed: {err}"),
    };
    let (mut game, mut twin) = (setup("original"), setup("swapped"));
    // One generator per player (indexed by its seat in the original match), so that what a
    // player draws does not depend on the seat it has.
    let mut rngs: Vec<GameRng> =
        (0..players).map(|seat| new_rng(seed ^ 0x5ea7_5000 ^ (seat as u64).wrapping_mul(0x9e37_79b9))).collect();
    let mut steps = 0;
    loop {
        let ctx = format!("{name}: seed {seed}, {players} players, seats swapped by {perm:?}, step {steps}");
        let to_act = game.to_act();
        let mut expected: Vec<Seat> = to_act.iter().map(|&seat| perm[seat]).collect();
        expected.sort_unstable();
        assert_eq!(twin.to_act(), expected, "{ctx}: to_act differs");
        if game.is_over() {
            break;
        }
        assert!(steps < plan.max_steps, "{ctx}: no end after {} steps", plan.max_steps);
        let mut actions = Vec::new();
        let mut twin_actions = Vec::new();
        for &seat in &to_act {
            let seen = game.observe(seat);
            let twin_seen = twin.observe(perm[seat]);
            assert_eq!(twin_seen, G::permute_observation(&seen, perm), "{ctx}: seat {seat}'s observation differs");
            let rng = &mut rngs[seat];
            let action = match rng_below(rng, 8) {
                0 => None,
                _ => game.random_action(seat, rng),
            };
            twin_actions.push((perm[seat], action.as_ref().map(|action| G::permute_action(action, perm))));
            actions.push((seat, action));
        }
        let events = match game.step(&actions) {
            Ok(events) => events,
            Err(err) => panic!("{ctx}: original refused {actions:?}: {err}"),
        };
        let twin_events = match twin.step(&twin_actions) {
            Ok(events) => events,
            Err(err) => panic!("{ctx}: swapped match refused {twin_actions:?}: {err}"),
        };
        assert_eq!(twin_events, G::permute_events(&events, perm), "{ctx}: events differ");
        steps += 1;
    }
    let (outcome, twin_outcome) = (game.outcome(), twin.outcome());
    for (seat, &to) in perm.iter().enumerate() {
        assert_eq!(twin_outcome.scores[to], outcome.scores[seat], "{name}: seed {seed}, {perm:?}: scores differ");
        assert_eq!(twin_outcome.ranks[to], outcome.ranks[seat], "{name}: seed {seed}, {perm:?}: ranks differ");
    }
}
