//! Engine speed benchmark: turns per second of `step` alone in a late-game
//! position, 150 bots a side all walking (many across the water, so along goal trees on the
//! visibility graph) and dozens of towers; the same with towers blasting and being rebuilt, so
//! that the graph changes on most turns (the planner rebuilds the graph from the previous one
//! and repairs its goal trees); and a whole 1000-turn match. Run it in release:
//!
//! ```text
//! cargo bench -p arena-code-character --bench speed             (all; or: cargo xtask bench)
//! cargo bench -p arena-code-character --bench speed -- churn    (scenarios whose name has "churn")
//! ```
//!
//! Besides wall-clock time it reports the thread's CPU time (from `/proc/thread-self/schedstat`
//! on Linux), which other processes on a busy machine do not inflate; and, when both late-game
//! scenarios ran, the two side by side.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test binary: a failed assumption stops the test (clippy.toml)

#[path = "../tests/all/common/mod.rs"]
mod common;

use arena_code_character::{
    BotStatus, CodeCharacter, CodeCharacterConfig, Command, Event, Order, StaticView, Terrain, Tile, Vec2, View,
};
use arena_game::{Game, GameRng, new_rng, rng_below};
use std::time::{Duration, Instant};

/// A random LAND/FLAG tile centre anywhere (`own_half`: x and y below 14, off the base).
fn random_target(statics: &StaticView, rng: &mut GameRng, own_half: bool) -> Vec2 {
    loop {
        let span = if own_half { 13 } else { 30 };
        let tile = Tile::new(rng_below(rng, span) as u8, rng_below(rng, span) as u8);
        if statics.map.terrain(tile) != Terrain::Water && tile != Tile::new(0, 0) {
            return tile.centre();
        }
    }
}

/// Idle bots: the first `towers` of them go and transform somewhere in their own quarter, the
/// others walk to random targets anywhere. With `churn`, each old-enough tower blasts with
/// probability 1/churn per turn (so the graph keeps changing).
fn busy(view: &View, statics: &StaticView, rng: &mut GameRng, towers: usize, churn: u32) -> Vec<Command> {
    let mut building = view.towers.len() + view.bots.iter().filter(|b| b.state == BotStatus::Transform).count();
    let mut commands = Vec::new();
    for bot in view.bots.iter().filter(|b| b.state == BotStatus::Idle) {
        let order = if building < towers {
            building += 1;
            Order::TransformAt(random_target(statics, rng, true))
        } else {
            Order::Move(random_target(statics, rng, false))
        };
        commands.push(Command::new(bot.id, order));
    }
    if churn > 0 {
        for tower in view.towers.iter().filter(|t| t.age >= 3) {
            if rng_below(rng, churn) == 0 {
                commands.push(Command::new(tower.id, Order::Blast));
            }
        }
    }
    commands
}

/// This thread's CPU time in nanoseconds (Linux), or 0 where it cannot be read.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next().and_then(|ns| ns.parse().ok()))
        .unwrap_or(0)
}

/// What a phase of play did.
#[derive(Default)]
struct Tally {
    spent: Duration,
    cpu_ns: u64,
    rebuilds: u32,
}

fn play(game: &mut CodeCharacter, turns: u32, rng: &mut GameRng, towers: usize, churn: u32, tally: &mut Tally) {
    let statics = [game.static_view(0), game.static_view(1)];
    for _ in 0..turns {
        let answers: Vec<(usize, Option<Vec<Command>>)> =
            (0..2).map(|seat| (seat, Some(busy(&game.observe(seat), &statics[seat], rng, towers, churn)))).collect();
        let (start, cpu) = (Instant::now(), cpu_ns());
        let events = game.step(&answers).unwrap();
        tally.spent += start.elapsed();
        tally.cpu_ns += cpu_ns().saturating_sub(cpu);
        // The graph changes when a tower appears or a dead one is removed (next turn).
        let changes =
            events.iter().filter(|e| matches!(e, Event::Transformed { .. } | Event::Died { tower: true, .. }));
        tally.rebuilds += u32::from(changes.count() > 0);
    }
}

/// Plays the late-game scenario; returns the CPU seconds of the measured 1000 turns.
fn late_game(churn: u32) -> f64 {
    let mut game = CodeCharacter::new(&CodeCharacterConfig { turns: 1300, map: None }, 2, 1).unwrap();
    let mut rng = new_rng(1);
    play(&mut game, 250, &mut rng, 40, 0, &mut Tally::default());
    let moving = |v: &View| v.bots.iter().filter(|b| b.state == BotStatus::Move).count();
    let describe = |game: &CodeCharacter| {
        let (v0, v1) = (game.observe(0), game.observe(1));
        format!(
            "bots {}/{} ({}/{} moving), towers {}/{}",
            v0.bots.len(),
            v1.bots.len(),
            moving(&v0),
            moving(&v1),
            v0.towers.len(),
            v1.towers.len()
        )
    };
    println!("churn 1/{churn}: after 250 turns of set-up: {}", describe(&game));
    let mut tally = Tally::default();
    play(&mut game, 1000, &mut rng, 40, churn, &mut tally);
    let cpu = tally.cpu_ns as f64 / 1e9;
    println!(
        "churn 1/{churn}: 1000 turns of step(): wall {:.3} s, CPU {cpu:.3} s ({:.0} turns/s of CPU, {:.3} ms/turn); \
         graph changed on {} turns; at the end: {}",
        tally.spent.as_secs_f64(),
        1000.0 / cpu,
        cpu,
        tally.rebuilds,
        describe(&game)
    );
    cpu
}

/// 150 bots a side walking to random targets (most across the water), ~40 towers a side, the
/// towers standing still: the graph does not change.
fn late_game_turns_per_second() -> Option<f64> {
    Some(late_game(0))
}

/// The same with towers blasting now and then and being rebuilt: the graph changes on most
/// turns, so the planner keeps updating the graph and repairing its goal trees.
fn late_game_with_tower_churn() -> Option<f64> {
    Some(late_game(40))
}

fn whole_match_flag_rush() -> Option<f64> {
    let mut game = CodeCharacter::new(&CodeCharacterConfig::default(), 2, 3).unwrap();
    let statics = [game.static_view(0), game.static_view(1)];
    let mut rng = new_rng(3);
    let mut spent = Duration::ZERO;
    let mut cpu = 0;
    while !game.is_over() {
        let answers: Vec<(usize, Option<Vec<Command>>)> =
            (0..2).map(|seat| (seat, Some(common::flag_rush(&game.observe(seat), &statics[seat], &mut rng)))).collect();
        let (start, before) = (Instant::now(), cpu_ns());
        game.step(&answers).unwrap();
        spent += start.elapsed();
        cpu += cpu_ns().saturating_sub(before);
    }
    println!(
        "whole 1000-turn flag-rush match: step() wall {:.3} s, CPU {:.3} s; outcome {:?}",
        spent.as_secs_f64(),
        cpu as f64 / 1e9,
        game.outcome()
    );
    None
}

/// A scenario: its name and what runs it (returning its CPU seconds where they compare).
type Scenario = (&'static str, fn() -> Option<f64>);

fn main() {
    // An optional argument picks the scenarios whose name contains it (cargo passes `--bench`).
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with("--"));
    let scenarios: [Scenario; 3] = [
        ("late_game", late_game_turns_per_second),
        ("churn", late_game_with_tower_churn),
        ("whole_match", whole_match_flag_rush),
    ];
    let mut cpu = [None; 3];
    for ((name, run), cpu) in scenarios.into_iter().zip(&mut cpu) {
        if filter.as_deref().is_none_or(|f| name.contains(f)) {
            *cpu = run();
        }
    }
    if let [_, Some(churn), _] = cpu {
        // In CPU time (what other processes on a shared machine inflate least):
        // the CPU seconds of 1000 turns are the milliseconds of one.
        let per_turn_ms = churn;
        arena_game::bench::verdict(
            "Code Character, a turn with tower churn (CPU)",
            &format!("{per_turn_ms:.3} ms"),
            "<= 0.3 ms",
            Some(per_turn_ms <= 0.3),
        );
    }
    if let [Some(stable), Some(churn), _] = cpu {
        println!(
            "late game, 1000 turns of CPU: {stable:.3} s with the towers standing ({:.0} turns/s), {churn:.3} s \
             with tower churn ({:.0} turns/s): churn costs {:.1}x",
            1000.0 / stable,
            1000.0 / churn,
            churn / stable
        );
    }
}
