//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic 60-turn match written out as text by `arena_game::golden`'s writer, so that any rule change shows up as a
//! diff in review.
//!
//! The match: default map, 60 turns. The policy, for both seats, through the bot-facing view:
//! the flag rush of `tests/common` plus a few junk commands (so rejections are pinned too), drawn
//! from one generator seeded with 7; every 9th turn seat 1 gives no answer. Set
//! `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use crate::common;

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command, Event, StaticView};
use arena_game::golden::{Playthrough, check_playthrough};
use arena_game::{Game, GameRng, Seat, new_rng};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const TURNS: u32 = 60;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// The match, each seat's static view (the policy's map) and the policy's generator.
struct Golden {
    statics: [StaticView; 2],
    rng: GameRng,
}

impl Playthrough for Golden {
    type Game = CodeCharacter;

    fn header(&self) -> Vec<String> {
        vec![
            format!("Code Character golden playthrough: default map, {TURNS} turns; policy: flag rush plus junk"),
            format!("commands, one generator seeded from {SEED}; seat 1 gives no answer every 9th turn."),
            "Events and commands are in each seat's own view (its coordinates and ids); the maps are".to_owned(),
            "in engine coordinates (seat 0's view).".to_owned(),
        ]
    }

    fn new_game(&self) -> CodeCharacter {
        new_game()
    }

    fn answers(&mut self, game: &CodeCharacter, _step: usize, out: &mut String) -> Vec<(Seat, Option<Vec<Command>>)> {
        let turn = game.turn() + 1;
        writeln!(out, "\nturn {turn}").unwrap();
        let mut answers = Vec::new();
        for (seat, statics) in self.statics.iter().enumerate() {
            let view = game.observe(seat);
            let mut commands: Vec<Command> = common::flag_rush(&view, statics, &mut self.rng);
            commands.extend(common::junk(&view, &mut self.rng));
            if seat == 1 && turn.is_multiple_of(9) {
                writeln!(out, "  seat 1 gives no answer").unwrap();
                answers.push((seat, None));
                continue;
            }
            let list: Vec<String> = commands.iter().map(Command::to_string).collect();
            writeln!(
                out,
                "  seat {seat} commands: {}",
                if list.is_empty() { "-".to_string() } else { list.join(", ") }
            )
            .unwrap();
            answers.push((seat, Some(commands)));
        }
        answers
    }

    /// The maps every 15 turns.
    fn shows_state(&self, game: &CodeCharacter, _step: usize, _events: &[Event]) -> bool {
        game.turn().is_multiple_of(15)
    }
}

fn new_game() -> CodeCharacter {
    CodeCharacter::new(&CodeCharacterConfig { turns: TURNS, map: None }, 2, SEED).unwrap()
}

/// code-character.md, all of it: the golden playthrough is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let golden = || {
        let game = new_game();
        Golden { statics: [game.static_view(0), game.static_view(1)], rng: new_rng(SEED) }
    };
    check_playthrough(golden, &path, "cargo test -p arena-code-character --test all golden::");
}
