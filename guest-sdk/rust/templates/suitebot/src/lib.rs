use arena_sdk::suitebot::prelude::*;

#[derive(Default)]
struct MyBot;

impl SuitebotBot for MyBot {
    // `init(&mut self, info: &InitInfo)` is optional, as for every game.
    fn act(&mut self, view: &View) -> Action {
        let Some(me) = view.me() else { return Action::Hold };
        let danger = view.danger(); // per field: the first round from now a blast covers it
        let fields = (0..view.height).flat_map(|y| (0..view.width).map(move |x| Pos { x, y }));
        let safe: Vec<Pos> = fields.filter(|pos| view.torus().index(*pos).and_then(|i| danger[i]).is_none()).collect();
        let to_safety = |pos: Pos| safe.iter().map(|field| view.distance(pos, *field)).min().unwrap_or(u32::MAX);
        let moves = [Action::Hold].into_iter().chain(DIRECTIONS);
        if to_safety(me.agent) > 0 {
            // Inside a blast area: the move nearest to a field no blast covers.
            return moves.min_by_key(|m| to_safety(view.neighbour(me.agent, *m))).unwrap_or(Action::Hold);
        }
        if view.points_in_blast(me.agent) >= 5 && view.rounds_left() > 5 {
            return Action::PlantBomb; // it explodes in 4 rounds: time enough to walk out of its area
        }
        // Toward points: the safe move whose blast area would hold the most.
        let safe_moves = moves.filter(|m| to_safety(view.neighbour(me.agent, *m)) == 0);
        safe_moves.max_by_key(|m| view.points_in_blast(view.neighbour(me.agent, *m))).unwrap_or(Action::Hold)
    }
}

arena_sdk::export_suitebot_bot!(MyBot);
