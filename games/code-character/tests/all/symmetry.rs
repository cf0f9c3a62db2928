//! code-character.md "Perspective": every player sees the game as player 1, and each player
//! numbers its own units (see the crate's `perspective` module). So a match, and the same match
//! with the seats swapped (each player sending the same commands), must give every player the
//! very same view, turn after turn, ids and f64 positions included: the states are mirror
//! images, bit for bit. Here with the scripted flag rush (the conformance kit's
//! `check_symmetry` does the same with the engine's random actions).

use crate::common;

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command, Map};
use arena_game::conformance::{Plan, check_symmetry};
use arena_game::{Game, new_rng};

fn mirror_match(seed: u64, turns: u32, map: Option<String>) {
    let config = CodeCharacterConfig { turns, map };
    let mut a = CodeCharacter::new(&config, 2, seed).unwrap();
    let mut b = CodeCharacter::new(&config, 2, seed).unwrap();
    let statics = [a.static_view(0), a.static_view(1)];
    assert_eq!(b.static_view(1), {
        let mut s = statics[0].clone();
        s.seat = 1;
        s
    });
    let mut rng = new_rng(seed);
    let mut towers = 0;
    while !a.is_over() {
        let mut answers_a = Vec::new();
        let mut answers_b = Vec::new();
        for (seat, statics) in statics.iter().enumerate() {
            let (va, mut vb) = (a.observe(seat), b.observe(1 - seat));
            vb.seat = seat as u8;
            assert_eq!(va, vb, "seed {seed}, turn {}, seat {seat}", a.turn());
            towers = towers.max(va.towers.len());
            let mut commands: Vec<Command> = common::flag_rush(&va, statics, &mut rng);
            commands.extend(common::junk(&va, &mut rng));
            answers_b.push((1 - seat, Some(commands.clone())));
            answers_a.push((seat, Some(commands)));
        }
        answers_b.reverse();
        a.step(&answers_a).unwrap();
        b.step(&answers_b).unwrap();
    }
    assert_eq!(a.scores(), [b.scores()[1], b.scores()[0]]);
    assert!(towers > 0, "towers were built");
}

#[test]
fn seat_swap_gives_mirror_image_states() {
    for seed in 0..4 {
        mirror_match(seed, 250, None);
    }
}

/// A map with more obstacles (symmetric water islands and gaps in the channels), so that more
/// paths bend at waypoints.
fn custom_map() -> String {
    let mut lines: Vec<Vec<u8>> = Map::default().to_text().lines().map(|l| l.as_bytes().to_vec()).collect();
    for (x, y) in [(5, 5), (5, 6), (6, 5), (9, 3), (10, 11), (3, 20), (22, 8), (12, 12), (11, 12)] {
        lines[x][y] = b'W';
        lines[29 - x][29 - y] = b'W';
    }
    // A gap in the horizontal channel, and its mirror.
    lines[14][4] = b'L';
    lines[15][25] = b'L';
    let text: String = lines.iter().map(|l| format!("{}\n", String::from_utf8_lossy(l))).collect();
    Map::parse(&text).unwrap();
    text
}

/// The same on [`custom_map`].
#[test]
fn seat_swap_on_a_custom_map() {
    let text = custom_map();
    for seed in 10..13 {
        mirror_match(seed, 200, Some(text.clone()));
    }
}

/// The conformance kit's seat-swap property (random actions) on [`custom_map`].
#[test]
fn kit_seat_swap_on_a_custom_map() {
    let config = CodeCharacterConfig { turns: 150, map: Some(custom_map()) };
    check_symmetry::<CodeCharacter>(&Plan { config, players: vec![2], seeds: 20..26, max_steps: 160 });
}
