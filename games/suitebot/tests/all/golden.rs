//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic game written out as text by `arena_game::golden`'s writer, so that any rule change shows up as a diff in
//! review.
//!
//! The game: the default 4 seats on 14 x 14 (the engine ignores the seed; 7 seeds the policy).
//! The policy, per seat, on its [`View`] and its helpers: avoid fields an explosion will cover
//! soon ([`View::danger`]) and enemy bases; plant where [`View::points_in_blast`] is high (plus 10
//! per enemy agent in the square) and no bomb lies; else walk towards points; ties broken
//! uniformly with a generator seeded from 7. Every 13th answer is missing, so the fallback is
//! pinned too. Set `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use arena_game::golden::{Playthrough, check_playthrough};
use arena_game::{Game, GameRng, Seat, new_rng, rng_below};
use arena_suitebot::{Action, Event, Suitebot, SuitebotConfig, View};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// How much the policy likes `action` for the observer.
fn value(view: &View, action: Action, danger: &[Option<u8>]) -> i64 {
    let Some(me) = view.me() else { return 0 };
    let to = view.neighbour(me.agent, action);
    let mut value = 0;
    if let Some(round) = view.torus().index(to).and_then(|i| danger.get(i).copied().flatten()) {
        value -= 20 * (4 - i64::from(round.min(3)));
    }
    if view.base_of(to).is_some_and(|owner| owner != view.seat) {
        value -= 100;
    }
    if action == Action::PlantBomb {
        if view.bomb_at(me.agent).is_some() {
            return value - 5;
        }
        let enemies = (0u8..)
            .zip(&view.players)
            .filter(|(seat, player)| *seat != view.seat && view.in_blast(me.agent, player.agent))
            .count();
        value += i64::from(view.points_in_blast(me.agent)) - 6 + 10 * enemies as i64;
    } else if action.is_move() {
        value += i64::from(view.points_in_blast(to)) / 3;
    }
    value
}

/// The fixed policy: the best-valued action, uniform among the best.
fn choose(view: &View, rng: &mut GameRng) -> Action {
    let danger = view.danger();
    let values: Vec<i64> = Action::ALL.iter().map(|action| value(view, *action, &danger)).collect();
    let best = values.iter().copied().max().unwrap();
    let top: Vec<Action> = Action::ALL.iter().zip(&values).filter(|(_, v)| **v == best).map(|(a, _)| *a).collect();
    top[usize::try_from(rng_below(rng, u32::try_from(top.len()).unwrap())).unwrap()]
}

/// The match, its policy's generator and the answers given so far (every 13th is missing).
struct Golden {
    rng: GameRng,
    answers: usize,
}

impl Playthrough for Golden {
    type Game = Suitebot;

    fn header(&self) -> Vec<String> {
        vec![
            "SuiteBot II golden playthrough: 4 seats, default board; policy: avoid danger, plant".to_owned(),
            format!("for points and kills, walk to points, ties by an rng seeded from {SEED}; every 13th answer"),
            "is missing (fallback HOLD).".to_owned(),
        ]
    }

    fn new_game(&self) -> Suitebot {
        Suitebot::new(&SuitebotConfig::default(), 4, SEED).unwrap()
    }

    fn answers(&mut self, game: &Suitebot, _step: usize, out: &mut String) -> Vec<(Seat, Option<Action>)> {
        writeln!(out).unwrap();
        game.to_act()
            .into_iter()
            .map(|seat| {
                self.answers += 1;
                let action = choose(&game.observe(seat), &mut self.rng);
                (seat, (!self.answers.is_multiple_of(13)).then_some(action))
            })
            .collect()
    }

    /// Every event, unindented.
    fn write_events(&self, events: &[Event], out: &mut String) {
        for event in events {
            writeln!(out, "{event}").unwrap();
        }
    }

    /// The board every 10 rounds.
    fn shows_state(&self, game: &Suitebot, _step: usize, _events: &[Event]) -> bool {
        game.observe(0).round % 10 == 1
    }
}

/// suitebot.md, all of it: the golden playthrough is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let golden = || Golden { rng: new_rng(SEED), answers: 0 };
    check_playthrough(golden, &path, "cargo test -p arena-suitebot --test all golden::");
}
