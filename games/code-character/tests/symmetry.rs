//! code-character.md "Perspective": every player sees the game as player 1. So a match, and the
//! same match with the seats swapped (each player sending the same commands in its own view,
//! with the other match's ids), must give every player the very same view, turn after turn:
//! the states are mirror images, bit for bit. Ids differ (player 1's units are numbered first),
//! so the test maps them; everything else must be equal, f64 positions included.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command, Map, View};
use arena_game::{Game, new_rng};
use std::collections::BTreeMap;

/// Maps the ids of `view` through `ids` (unknown ids stay) and sets its seat.
fn translate(view: &View, ids: &BTreeMap<u32, u32>, seat: u8) -> View {
    let map = |id: u32| ids.get(&id).copied().unwrap_or(id);
    let mut out = view.clone();
    out.seat = seat;
    for bot in out.bots.iter_mut().chain(out.enemy_bots.iter_mut()) {
        bot.id = map(bot.id);
    }
    for tower in out.towers.iter_mut().chain(out.enemy_towers.iter_mut()) {
        tower.id = map(tower.id);
    }
    for rejection in &mut out.rejected {
        rejection.command.id = map(rejection.command.id);
    }
    out
}

/// Records that the units of `a` (match A) are those of `b` (match B), in list order.
fn learn(ids: &mut BTreeMap<u32, u32>, a: &View, b: &View) {
    for (x, y) in a.bots.iter().zip(&b.bots).chain(a.enemy_bots.iter().zip(&b.enemy_bots)) {
        ids.insert(x.id, y.id);
    }
    for (x, y) in a.towers.iter().zip(&b.towers).chain(a.enemy_towers.iter().zip(&b.enemy_towers)) {
        ids.insert(x.id, y.id);
    }
}

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
    let mut ids = BTreeMap::new();
    let mut towers = 0;
    while !a.is_over() {
        let mut answers_a = Vec::new();
        let mut answers_b = Vec::new();
        for (seat, statics) in statics.iter().enumerate() {
            let (va, vb) = (a.observe(seat), b.observe(1 - seat));
            learn(&mut ids, &va, &vb);
            assert_eq!(translate(&va, &ids, 1 - seat as u8), vb, "seed {seed}, turn {}, seat {seat}", a.turn());
            towers = towers.max(va.towers.len());
            let mut commands: Vec<Command> = common::flag_rush(&va, statics, &mut rng);
            commands.extend(common::junk(&va, &mut rng));
            let mirrored: Vec<Command> =
                commands.iter().map(|c| Command::new(ids.get(&c.id).copied().unwrap_or(c.id), c.order)).collect();
            answers_a.push((seat, Some(commands)));
            answers_b.push((1 - seat, Some(mirrored)));
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

/// The same on a map with more obstacles (symmetric water islands and gaps in the channels), so
/// that more paths bend at waypoints.
#[test]
fn seat_swap_on_a_custom_map() {
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
    for seed in 10..13 {
        mirror_match(seed, 200, Some(text.clone()));
    }
}
