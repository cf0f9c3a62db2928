use arena_sdk::azul::prelude::*;

#[derive(Default)]
struct MyBot {
    rng: Option<GameRng>,
}

impl AzulBot for MyBot {
    // Optional. Called before the first turn and after every restart; budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed));
    }

    fn act(&mut self, view: &View) -> Move {
        let moves = view.legal_moves();
        let best = moves.iter().max_by_key(|mv| view.score_if_placed(mv));
        *best.unwrap_or(&moves[0])
    }
}

arena_sdk::export_azul_bot!(MyBot);
