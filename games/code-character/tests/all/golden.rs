//! The golden playthrough (docs/design.md#the-game-trait, OpenSpiel's "playthrough" files): one
//! fixed, deterministic 60-turn match written out as text, so that any rule change shows up as a
//! diff in review.
//!
//! The match: default map, 60 turns. The policy, for both seats, through the bot-facing view:
//! the flag rush of `tests/common` plus a few junk commands (so rejections are pinned too), drawn
//! from one generator seeded with 7; every 9th turn seat 1 gives no answer. Set
//! `UPDATE_GOLDEN=1` to rewrite the file after an intended change.

use crate::common;

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command};
use arena_game::{Game, new_rng};
use std::fmt::Write as _;
use std::path::PathBuf;

const SEED: u64 = 7;
const TURNS: u32 = 60;
const FILE: &str = "tests/golden/playthrough-seed-7.txt";

/// Plays the match and writes it out.
fn playthrough() -> String {
    let mut game = CodeCharacter::new(&CodeCharacterConfig { turns: TURNS, map: None }, 2, SEED).unwrap();
    let statics = [game.static_view(0), game.static_view(1)];
    let mut rng = new_rng(SEED);
    let mut out = String::new();
    writeln!(out, "# Code Character golden playthrough: default map, {TURNS} turns; policy: flag rush plus junk")
        .unwrap();
    writeln!(out, "# commands, one generator seeded from {SEED}; seat 1 gives no answer every 9th turn.").unwrap();
    writeln!(out, "# Events and commands are in each seat's own view (its coordinates and ids); the maps are").unwrap();
    writeln!(out, "# in engine coordinates (seat 0's view).").unwrap();
    writeln!(out, "# Regenerate with UPDATE_GOLDEN=1 cargo test -p arena-code-character --test golden").unwrap();
    writeln!(out, "\n{game}").unwrap();
    while !game.is_over() {
        let turn = game.turn() + 1;
        writeln!(out, "\nturn {turn}").unwrap();
        let mut answers = Vec::new();
        for (seat, statics) in statics.iter().enumerate() {
            let view = game.observe(seat);
            let mut commands: Vec<Command> = common::flag_rush(&view, statics, &mut rng);
            commands.extend(common::junk(&view, &mut rng));
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
        let events = game.step(&answers).unwrap();
        game.check_invariants().unwrap();
        for event in &events {
            writeln!(out, "  {event}").unwrap();
        }
        if turn.is_multiple_of(15) {
            writeln!(out, "{game}").unwrap();
        }
    }
    let outcome = game.outcome();
    writeln!(out, "\noutcome: scores {:?}, ranks {:?}", outcome.scores, outcome.ranks).unwrap();
    out
}

/// code-character.md, all of it: the golden playthrough is unchanged.
#[test]
fn golden_playthrough_seed_7() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let got = playthrough();
    assert_eq!(got, playthrough(), "the playthrough is not deterministic");
    arena_game::golden::check_golden(&path, &got, "cargo test -p arena-code-character --test all golden::");
}
