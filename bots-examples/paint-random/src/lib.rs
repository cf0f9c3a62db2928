//! `paint-random`: plays a uniformly random legal action (one of the 8 walks and 8 shots), from a
//! generator seeded by the host (so the same match seed gives the same game).

use arena_sdk::paint::prelude::*;

/// Uniform over legal actions.
#[derive(Default)]
pub struct RandomBot {
    rng: Option<GameRng>,
}

impl PaintBot for RandomBot {
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed));
    }

    fn act(&mut self, view: &View) -> Action {
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        let actions = view.legal_actions();
        let pick = rng_below(rng, u32::try_from(actions.len()).unwrap_or(u32::MAX));
        match usize::try_from(pick).ok().and_then(|pick| actions.get(pick)) {
            Some(action) => *action,
            // Unreachable in a real game (every seat acts while turns are left); answer
            // something, the host's validation takes care of it.
            None => Action::walk(Direction::North),
        }
    }
}

arena_sdk::export_paint_bot!(RandomBot);
