use arena_sdk::paint::prelude::*;

#[derive(Default)]
struct MyBot;

impl PaintBot for MyBot {
    fn act(&mut self, view: &View) -> Action {
        // Most squares gained this turn, as if nobody else moved.
        let actions = view.legal_actions();
        let best = actions.iter().max_by_key(|action| view.squares_gained(action).len());
        if let Some(action) = best.filter(|action| !view.squares_gained(action).is_empty()) {
            return *action;
        }
        // Nothing to gain here: walk toward the nearest square not of our colour.
        let me = view.me().unwrap_or(Pos::new(0, 0));
        let target = nearest(&view.board, me, |pos| view.color(pos) != Some(view.seat));
        let walk = target.and_then(|to| towards(me, to)).map(Action::walk);
        walk.filter(|action| actions.contains(action))
            .or(actions.first().copied())
            .unwrap_or(Action::walk(Direction::North))
    }
}

arena_sdk::export_paint_bot!(MyBot);
