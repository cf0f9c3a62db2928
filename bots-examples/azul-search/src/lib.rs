//! `azul-search`: a depth-limited alpha-beta search over the rest of the round. Within a round
//! nothing is hidden or random (the factories were filled at its start), so the bot plays the
//! drafting out exactly, both sides, and scores the leaves by what each board would score when
//! the round ends (the wall tiling of its full pattern lines, minus its floor). The search
//! deepens one ply at a time while it stays within a fixed number of nodes, so its cost is a
//! pure function of the view: the same position always spends the same fuel (over a million, a
//! good part of the 10M turn budget; the README's benchmark runs it natively and metered).
//!
//! Ties keep the earlier move in `legal_moves` order, so it is deterministic without
//! randomness. It beats `azul-greedy`, which looks at the immediate score change only.

use arena_sdk::azul::prelude::*;

/// Nodes (positions visited) one decision may use; a new depth starts only while fewer than
/// this many have been used, and a started depth that runs over is abandoned.
pub const NODE_BUDGET: u32 = 600;
/// The deepest search (plies).
const MAX_DEPTH: u32 = 8;

/// The move the search chooses in `state` (`None` when the observer has no legal move).
pub fn choose(state: &BoardState) -> Option<Move> {
    let root = Position::from_view(state);
    let moves = ordered_moves(&root);
    let mut best = *moves.first()?;
    let mut search = Search { nodes: 0 };
    for depth in 1..=MAX_DEPTH {
        match search.root(&root, &moves, depth) {
            Some(found) => best = found,
            None => break,
        }
        if search.nodes >= NODE_BUDGET {
            break;
        }
    }
    Some(best)
}

/// The drafting state the search plays on: the view, with the side to move as the observer
/// (so `legal_moves` and `score_if_placed` answer for it).
#[derive(Clone)]
struct Position {
    view: BoardState,
}

impl Position {
    fn from_view(view: &BoardState) -> Position {
        let mut view = view.clone();
        view.seat = view.to_move;
        Position { view }
    }

    /// The position after the side to move plays `mv` (legal): the source's other tiles go to
    /// the center, the taken ones onto the line and the floor as the rules split them.
    fn play(&self, mv: &Move) -> Position {
        let mut view = self.view.clone();
        let seat = usize::from(view.to_move);
        let colour = mv.colour.index();
        let takes_marker = rules::takes_marker(mv, view.center_has_marker);
        let taken = if mv.source == CENTER {
            let taken = view.center[colour];
            view.center[colour] = 0;
            if takes_marker {
                view.center_has_marker = false;
                view.marker_holder = Some(view.to_move);
            }
            taken
        } else {
            let factory = &mut view.factories[usize::from(mv.source) - 1];
            let taken = factory[colour];
            for (other, count) in factory.iter().enumerate() {
                if other != colour {
                    view.center[other] += count;
                }
            }
            *factory = [0; 5];
            taken
        };
        let board = &mut view.boards[seat];
        let split = rules::split_tiles(&board.lines, mv.line, taken, takes_marker, board.floor_len);
        if let Some(line) = board.lines.get_mut(usize::from(mv.line))
            && split.to_line > 0
        {
            line.count += split.to_line;
            line.colour = Some(mv.colour);
        }
        board.floor_len += split.to_floor + u8::from(split.marker_on_floor);
        view.to_move = 1 - view.to_move;
        view.seat = view.to_move;
        Position { view }
    }

    /// The round's end score of the side to move minus the other's (see [`round_end_score`]).
    fn evaluate(&self) -> i32 {
        let me = usize::from(self.view.to_move);
        round_end_score(&self.view.boards[me]) - round_end_score(&self.view.boards[1 - me])
    }
}

/// What `board` scores when the round ends as it stands: its full pattern lines tiled (with
/// their placement points), its floor penalty, the result clamped at 0 as the rules clamp it;
/// plus a little for tiles waiting on unfinished lines (they score next round).
fn round_end_score(board: &BoardView) -> i32 {
    let (mut lines, mut wall) = (board.lines, board.wall);
    let placed: u32 = rules::tile_wall(&mut lines, &mut wall).iter().map(|placement| placement.points).sum();
    let score = (board.score as i32 + placed as i32 + rules::floor_penalty(usize::from(board.floor_len))).max(0);
    let waiting: i32 = lines.iter().map(|line| i32::from(line.count)).sum();
    score * 4 + waiting
}

/// The legal moves of the side to move, the best immediate score change first (ties in
/// `legal_moves` order: the sort is stable), so alpha-beta cuts early.
fn ordered_moves(position: &Position) -> Vec<Move> {
    let mut moves = position.view.legal_moves();
    // Each move's score once, not once per comparison (the sort keeps equal moves in order).
    moves.sort_by_cached_key(|mv| std::cmp::Reverse(position.view.score_if_placed(mv)));
    moves
}

struct Search {
    nodes: u32,
}

impl Search {
    /// The best root move at `depth`, `None` if the node budget ran out first.
    fn root(&mut self, root: &Position, moves: &[Move], depth: u32) -> Option<Move> {
        let (mut alpha, beta) = (i32::MIN + 1, i32::MAX);
        let mut best = None;
        for mv in moves {
            let value = -self.negamax(&root.play(mv), depth - 1, -beta, -alpha)?;
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some(*mv);
            }
        }
        best
    }

    /// Negamax with alpha-beta; `None` once the node budget is spent.
    fn negamax(&mut self, position: &Position, depth: u32, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            return None;
        }
        if depth == 0 {
            return Some(position.evaluate());
        }
        // Ordering pays for itself only where it prunes subtrees, not above the leaves.
        let moves = if depth == 1 { position.view.legal_moves() } else { ordered_moves(position) };
        if moves.is_empty() {
            return Some(position.evaluate());
        }
        for mv in &moves {
            let value = -self.negamax(&position.play(mv), depth - 1, -beta, -alpha)?;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
        Some(alpha)
    }
}

/// The search bot.
#[derive(Default)]
pub struct SearchBot;

impl AzulBot for SearchBot {
    fn act(&mut self, view: &View) -> Move {
        choose(&view.state).unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(SearchBot);
