//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic game written out as text by `arena_game::golden`'s writer, so that any
//! rule change shows up as a diff in review.
//!
//! The game: seed 7. The policy: the move with the best `View::score_if_placed`, ties broken
//! uniformly with a generator seeded from 7; every 13th step the seat gives no action, so the
//! fallback is pinned too. The state is written after every collection. Set `UPDATE_GOLDEN=1`
//! to rewrite the file after an intended change.

use arena_azul::{Azul, AzulConfig, Event, Move};
use arena_game::golden::{Playthrough, check_playthrough};
use arena_game::{Game, GameRng, Seat, new_rng, rng_below};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// The fixed policy: highest immediate score change, uniform among the best.
fn choose(game: &Azul, seat: usize, rng: &mut GameRng) -> Option<Move> {
    let view = game.observe(seat);
    let moves = view.legal_moves();
    let best = moves.iter().map(|mv| view.score_if_placed(mv)).max()?;
    let top: Vec<Move> = moves.into_iter().filter(|mv| view.score_if_placed(mv) == best).collect();
    let pick = rng_below(rng, u32::try_from(top.len()).unwrap());
    top.get(usize::try_from(pick).unwrap()).copied()
}

/// The match and its policy's generator.
struct Golden(GameRng);

impl Playthrough for Golden {
    type Game = Azul;

    fn header(&self) -> Vec<String> {
        vec![
            format!("Azul golden playthrough: seed {SEED}; policy: best score_if_placed, ties by an rng"),
            format!("seeded from {SEED}; every 13th step gives no action (fallback)."),
        ]
    }

    fn new_game(&self) -> Azul {
        Azul::new(&AzulConfig::default(), 2, SEED).unwrap()
    }

    fn answers(&mut self, game: &Azul, step: usize, out: &mut String) -> Vec<(Seat, Option<Move>)> {
        let seat = game.to_act()[0];
        let action = if step.is_multiple_of(13) { None } else { choose(game, seat, &mut self.0) };
        match action {
            Some(mv) => writeln!(out, "\nstep {step}: seat {seat} answers {mv}").unwrap(),
            None => writeln!(out, "\nstep {step}: seat {seat} gives no action").unwrap(),
        }
        vec![(seat, action)]
    }

    fn shows_state(&self, _game: &Azul, _step: usize, events: &[Event]) -> bool {
        events.iter().any(|event| matches!(event, Event::CollectionEnded { .. }))
    }
}

/// azul.md, all of it: the golden playthrough for seed 7 is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    check_playthrough(|| Golden(new_rng(SEED)), &path, "cargo test -p arena-azul --test all golden::");
}
