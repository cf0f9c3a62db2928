//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic game written out as text by `arena_game::golden`'s writer, so that any
//! rule change shows up as a diff in review.
//!
//! The game: the default config (ten_by_ten, 2 players, 100 turns); paint has no randomness, so
//! the seed 7 only seeds the policy. The policy: the action with the most
//! `View::squares_gained`, ties broken uniformly with a generator seeded from 7; every 13th step
//! seat `step % 2` gives no action, so "no action" is pinned too. The board is printed every 10
//! steps. Set `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use arena_game::golden::{Playthrough, check_playthrough};
use arena_game::{Game, GameRng, Seat, new_rng, rng_below};
use arena_paint::{Action, Event, Paint, PaintConfig};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// The fixed policy: most squares gained, uniform among the best.
fn choose(game: &Paint, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    let view = game.observe(seat);
    let actions = view.legal_actions();
    let best = actions.iter().map(|action| view.squares_gained(action).len()).max()?;
    let top: Vec<Action> = actions.into_iter().filter(|action| view.squares_gained(action).len() == best).collect();
    let pick = rng_below(rng, u32::try_from(top.len()).unwrap());
    top.get(usize::try_from(pick).unwrap()).copied()
}

/// The match and its policy's generator.
struct Golden(GameRng);

impl Playthrough for Golden {
    type Game = Paint;

    fn header(&self) -> Vec<String> {
        vec![
            "Paint golden playthrough: ten_by_ten, 2 players; policy: most squares_gained, ties by an".to_owned(),
            format!("rng seeded from {SEED}; every 13th step seat (step % 2) gives no action."),
        ]
    }

    fn new_game(&self) -> Paint {
        Paint::new(&PaintConfig::default(), 2, SEED).unwrap()
    }

    fn answers(&mut self, game: &Paint, step: usize, out: &mut String) -> Vec<(Seat, Option<Action>)> {
        let actions: Vec<(Seat, Option<Action>)> = game
            .to_act()
            .into_iter()
            .map(|seat| {
                let skip = step.is_multiple_of(13) && seat == step % 2;
                (seat, if skip { None } else { choose(game, seat, &mut self.0) })
            })
            .collect();
        write!(out, "\nstep {step}:").unwrap();
        for (seat, action) in &actions {
            match action {
                Some(action) => write!(out, " seat {seat} {action};").unwrap(),
                None => write!(out, " seat {seat} no action;").unwrap(),
            }
        }
        writeln!(out).unwrap();
        actions
    }

    fn shows_state(&self, _game: &Paint, step: usize, _events: &[Event]) -> bool {
        step.is_multiple_of(10)
    }
}

/// paint.md, all of it: the golden playthrough for seed 7 is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    check_playthrough(|| Golden(new_rng(SEED)), &path, "cargo test -p arena-paint --test all golden::");
}
