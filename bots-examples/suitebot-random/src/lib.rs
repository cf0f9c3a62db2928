//! `suitebot-random`: plays one of the six actions uniformly at random each round, from a
//! generator seeded by the host (so the same match seed gives the same game).
//!
//! The host's seed depends on the match seed and the bot's file, not on its seat, so the bot
//! mixes its seat in: several copies of it in one match then play different games.

use arena_sdk::suitebot::prelude::*;

/// Uniform over `U D L R H B`.
#[derive(Default)]
pub struct RandomBot {
    rng: Option<GameRng>,
}

impl SuitebotBot for RandomBot {
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed ^ u64::from(info.seat).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    }

    fn act(&mut self, _view: &View) -> Action {
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        let pick = rng_below(rng, Action::ALL.len() as u32) as usize;
        Action::ALL.get(pick).copied().unwrap_or(Action::Hold)
    }
}

arena_sdk::export_suitebot_bot!(RandomBot);
