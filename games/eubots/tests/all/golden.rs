//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic match written out as text by `arena_game::golden`'s writer, so that any rule change shows up as a diff in
//! review.
//!
//! The match: the standard map, 2 players, seed 7. The policy, per unit in handle order: attack
//! the adjacent enemy with the least defence left (first in direction order among equals); else
//! pick a nearest enemy and step onto an empty neighbouring square closer to it (or, if none,
//! one as close), all ties broken uniformly with a generator seeded from 7; else wait. Every 13th
//! step each seat gives no answer, so the fallback is pinned too; every 7th step seat 0 adds a
//! duplicate and an order for an unknown unit, which are ignored. Every event is written except
//! the moves, which get a one-line digest per step; the map every 5 steps pins where they went.
//! Set `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use arena_eubots::{Direction, Eubots, EubotsConfig, Event, MoveFail, Order, Pos, Square, View};
use arena_game::golden::{Playthrough, check_playthrough};
use arena_game::{Game, GameRng, Seat, new_rng, rng_below};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// The fixed policy (see the module docs).
fn choose(view: &View, rng: &mut GameRng) -> Vec<Order> {
    let me = view.metrics.player;
    let enemies: Vec<Pos> = view.units.iter().flatten().filter(|unit| unit.owner != me).map(|unit| unit.pos).collect();
    let mut orders = Vec::new();
    for (handle, unit) in view.own_units() {
        let weakest = view
            .adjacent_enemies(unit.pos)
            .into_iter()
            .min_by_key(|(_, enemy)| view.unit(*enemy).map_or(u8::MAX, |enemy| enemy.defence));
        if let Some((direction, _)) = weakest {
            orders.push(Order::attack(handle, direction));
            continue;
        }
        let Some(best) = enemies.iter().map(|pos| unit.pos.distance(*pos)).min() else {
            continue;
        };
        let nearest: Vec<Pos> = enemies.iter().copied().filter(|pos| unit.pos.distance(*pos) == best).collect();
        let target = nearest[rng_below(rng, nearest.len() as u32) as usize];
        // Empty neighbours that bring it closer, else ones that keep the distance.
        let free: Vec<Direction> =
            Direction::ALL.into_iter().filter(|d| view.square(unit.pos.step(*d)) == Square::Empty).collect();
        let closer: Vec<Direction> =
            free.iter().copied().filter(|d| unit.pos.step(*d).distance(target) < best).collect();
        let level: Vec<Direction> =
            free.iter().copied().filter(|d| unit.pos.step(*d).distance(target) == best).collect();
        let choices = if closer.is_empty() { level } else { closer };
        match choices.len() {
            0 => orders.push(Order::wait(handle)),
            n => orders.push(Order::walk(handle, choices[rng_below(rng, n as u32) as usize])),
        }
    }
    orders
}

/// One line for the movement phase: how many moved and why the others failed.
fn movement_digest(events: &[Event]) -> Option<String> {
    let moved = events.iter().filter(|e| matches!(e, Event::Moved { .. })).count();
    let blocked =
        |why: MoveFail| events.iter().filter(|e| matches!(e, Event::Blocked { reason, .. } if *reason == why)).count();
    let (wall, contested, occupied) =
        (blocked(MoveFail::Wall), blocked(MoveFail::Contested), blocked(MoveFail::Occupied));
    (moved + wall + contested + occupied > 0)
        .then(|| format!("moves: {moved} moved, failed: {contested} contested, {occupied} occupied, {wall} wall"))
}

/// The match and its policy's generator.
struct Golden(GameRng);

impl Playthrough for Golden {
    type Game = Eubots;

    fn header(&self) -> Vec<String> {
        vec![
            format!("Eubots golden playthrough: standard map, 2 players, seed {SEED}; policy: attack the weakest"),
            format!("adjacent enemy, else step towards the nearest (ties by an rng seeded from {SEED}); every 13th"),
            "step gives no answers (fallback); every 7th seat 0 adds a duplicate and an unknown handle.".to_owned(),
            "Moves as a digest, the map every 5 steps.".to_owned(),
        ]
    }

    fn new_game(&self) -> Eubots {
        Eubots::new(&EubotsConfig::default(), 2, SEED).unwrap()
    }

    fn answers(&mut self, game: &Eubots, step: usize, out: &mut String) -> Vec<(Seat, Option<Vec<Order>>)> {
        let mut actions: Vec<(Seat, Option<Vec<Order>>)> = game
            .to_act()
            .into_iter()
            .map(|seat| {
                (seat, if step.is_multiple_of(13) { None } else { Some(choose(&game.observe(seat), &mut self.0)) })
            })
            .collect();
        // Every 7th step seat 0 repeats its first order and names an unknown handle: both are
        // ignored (and the repeated unit waits).
        if step.is_multiple_of(7)
            && let Some((0, Some(orders))) = actions.first_mut()
            && let Some(first) = orders.first().copied()
        {
            orders.extend([first, Order::wait(1000)]);
        }
        writeln!(out, "\nstep {step}:").unwrap();
        for (seat, action) in &actions {
            match action {
                Some(orders) => writeln!(out, "  seat {seat} answers {} orders", orders.len()).unwrap(),
                None => writeln!(out, "  seat {seat} gives no answer").unwrap(),
            }
        }
        actions
    }

    /// Every event but the moves, whose digest stands where the movement phase's events were.
    fn write_events(&self, events: &[Event], out: &mut String) {
        let mut digest = movement_digest(events);
        for event in events {
            if matches!(event, Event::Moved { .. } | Event::Blocked { .. }) {
                if let Some(line) = digest.take() {
                    writeln!(out, "  {line}").unwrap();
                }
            } else {
                writeln!(out, "  {event}").unwrap();
            }
        }
    }

    /// The map every 5 steps and at the end.
    fn shows_state(&self, game: &Eubots, step: usize, _events: &[Event]) -> bool {
        step.is_multiple_of(5) || game.is_over()
    }
}

/// eubots.md, all of it: the golden playthrough for seed 7 is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    check_playthrough(|| Golden(new_rng(SEED)), &path, "cargo test -p arena-eubots --test all golden::");
}
