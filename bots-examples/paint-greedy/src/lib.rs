//! `paint-greedy`: a one-turn lookahead. It scores each of its 16 actions by the squares it
//! would gain if nobody else acted (shots through the engine's own `squares_gained`, walks by
//! the same rule computed directly, which is cheaper) and plays the best; among
//! equal gains it prefers ending nearer to a square not of its colour, then having more such
//! squares around it, then the first action in `Action::all` order, so it is deterministic
//! without randomness.

use arena_sdk::paint::prelude::*;

/// How far around its square the bot counts squares it could still take.
const RADIUS: u32 = 2;

/// What one action is worth, compared lexicographically (greater is better).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Value {
    /// Squares turned to our colour this turn.
    gained: usize,
    /// Minus the distance from where we end to the nearest square not of our colour.
    closeness: i64,
    /// Squares not of our colour within [`RADIUS`] of where we end.
    room: usize,
}

/// What `action` is worth for the observer of `state`; `todo` lists the open squares not of
/// its colour before the turn.
fn value(state: &BoardState, todo: &[Pos], action: &Action) -> Value {
    let me = state.me().unwrap_or(Pos::new(0, 0));
    let (gained, end) = match (action.kind, action.checked_direction()) {
        // A walk alone gains its target when it is open, free and not ours (what
        // `squares_gained` finds, without simulating the whole turn).
        (ActionKind::Walk, Ok(direction)) => {
            match rules::walk_target(&state.board, me, direction).ok().filter(|to| state.avatar_at(*to).is_none()) {
                Some(to) if state.color(to) != Some(state.seat) => (vec![to], to),
                Some(to) => (Vec::new(), to),
                None => (Vec::new(), me),
            }
        }
        _ => (state.squares_gained(action), me),
    };
    let mut nearest = u32::MAX;
    let mut room = 0;
    for pos in todo.iter().filter(|pos| !gained.contains(pos)) {
        let d = distance(end, *pos);
        nearest = nearest.min(d);
        if d <= RADIUS {
            room += 1;
        }
    }
    Value { gained: gained.len(), closeness: -i64::from(nearest), room }
}

/// The greedy policy, also callable natively: the best action by [`Value`], ties to the first.
pub fn choose(state: &BoardState) -> Option<Action> {
    let todo: Vec<Pos> = state
        .board
        .squares()
        .filter(|pos| state.board.is_open(*pos) && state.color(*pos) != Some(state.seat))
        .collect();
    let mut best: Option<(Value, Action)> = None;
    for action in state.legal_actions() {
        let value = value(state, &todo, &action);
        if best.is_none_or(|(best_value, _)| value > best_value) {
            best = Some((value, action));
        }
    }
    best.map(|(_, action)| action)
}

/// Most squares gained this turn, then toward unpainted ground.
#[derive(Default)]
pub struct GreedyBot;

impl PaintBot for GreedyBot {
    fn act(&mut self, view: &View) -> Action {
        choose(&view.state).unwrap_or(Action::walk(Direction::North))
    }
}

arena_sdk::export_paint_bot!(GreedyBot);
