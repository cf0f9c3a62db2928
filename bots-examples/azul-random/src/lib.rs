//! `azul-random`: plays a uniformly random legal move, from a generator seeded by the host
//! (so the same match seed gives the same game).

use arena_sdk::azul::prelude::*;

/// Uniform over legal moves.
#[derive(Default)]
pub struct RandomBot {
    rng: Option<GameRng>,
}

impl AzulBot for RandomBot {
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed));
    }

    fn act(&mut self, view: &View) -> Move {
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        let moves = view.legal_moves();
        let pick = rng_below(rng, moves.len() as u32) as usize;
        match moves.get(pick) {
            Some(mv) => *mv,
            // Unreachable in a real game (a source always holds a tile on our turn); answer
            // something, the host's validation and fallback take care of it.
            None => Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE },
        }
    }
}

arena_sdk::export_azul_bot!(RandomBot);
