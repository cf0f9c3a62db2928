//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic game written out as text, so that any rule change shows up as a diff in
//! review.
//!
//! The game: seed 7. The policy: the move with the best `View::score_if_placed`, ties broken
//! uniformly with a generator seeded from 7; every 13th step the seat gives no action, so the
//! fallback is pinned too. Set `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use arena_azul::{Azul, AzulConfig, Event, Move};
use arena_game::{Game, GameRng, new_rng, rng_below};
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

/// Plays the game and writes it out.
fn playthrough() -> String {
    let mut game = Azul::new(&AzulConfig::default(), 2, SEED).unwrap();
    let mut rng = new_rng(SEED);
    let mut out = String::new();
    writeln!(out, "# Azul golden playthrough: seed {SEED}; policy: best score_if_placed, ties by an rng").unwrap();
    writeln!(out, "# seeded from {SEED}; every 13th step gives no action (fallback). Regenerate with").unwrap();
    writeln!(out, "# UPDATE_GOLDEN=1 cargo test -p arena-azul --test golden").unwrap();
    writeln!(out, "\n{game}").unwrap();
    let mut step = 0;
    while !game.is_over() {
        step += 1;
        let seat = game.to_act()[0];
        let action = if step % 13 == 0 { None } else { choose(&game, seat, &mut rng) };
        match action {
            Some(mv) => writeln!(out, "\nstep {step}: seat {seat} answers {mv}").unwrap(),
            None => writeln!(out, "\nstep {step}: seat {seat} gives no action").unwrap(),
        }
        let events = game.step(&[(seat, action)]).unwrap();
        game.check_invariants().unwrap();
        for event in &events {
            writeln!(out, "  {event}").unwrap();
        }
        if events.iter().any(|event| matches!(event, Event::CollectionEnded { .. })) {
            writeln!(out, "{game}").unwrap();
        }
    }
    let outcome = game.outcome();
    writeln!(out, "\noutcome: scores {:?}, ranks {:?}", outcome.scores, outcome.ranks).unwrap();
    out
}

/// azul.md, all of it: the golden playthrough for seed 7 is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let got = playthrough();
    assert_eq!(got, playthrough(), "the playthrough is not deterministic");
    arena_game::golden::check_golden(&path, &got, "cargo test -p arena-azul --test all golden::");
}
