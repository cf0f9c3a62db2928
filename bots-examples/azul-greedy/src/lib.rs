//! `azul-greedy`: plays the legal move with the best immediate score change (placement points
//! of a completed pattern line minus the floor penalty it causes); ties go to the first move in
//! `legal_moves` order, so it is deterministic without randomness.

use arena_sdk::azul::prelude::*;

/// The greedy policy, also called natively by the benchmarks.
pub fn choose(state: &arena_sdk::azul::prelude::BoardState) -> Option<Move> {
    let mut best: Option<(i32, Move)> = None;
    for mv in state.legal_moves() {
        let gain = state.score_if_placed(&mv);
        if best.is_none_or(|(best_gain, _)| gain > best_gain) {
            best = Some((gain, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// Best immediate score change.
#[derive(Default)]
pub struct GreedyBot;

impl AzulBot for GreedyBot {
    fn act(&mut self, view: &View) -> Move {
        choose(&view.state).unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(GreedyBot);
