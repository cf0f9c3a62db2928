//! Bots and towers and their state machines (code-character.md "Units and commands" and "One
//! turn" 4.2-4.3).
//!
//! A bot holds one persistent [`Intent`]: a new command replaces it, no command keeps it. The
//! spec's "IDLE picks the next intent in the order move, blast-at, transform-at, blast,
//! transform" collapses to one choice because a command replaces every earlier intent, with the
//! original's exceptions for busy bots (code-character.md "Orders to busy bots",
//! [`give_order`]): a `move(p)` to a bot walking to a blast or transform target, or waiting in
//! TRANSFORM, is kept aside and never carried out, and a bot in TRANSFORM stores a blast or
//! transform order without acting on it. A bot that so holds two targets is the original's
//! NO_MULTIPLE_BOT_TASK ([`Bot::holds_two_targets`]).

use crate::command::Order;
use crate::geometry::{Tile, Vec2};
use serde::{Deserialize, Serialize};

/// A bot's state in the engine (the spec's seven states).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BotState {
    /// No intent.
    Idle,
    /// Walking to a move target.
    Move,
    /// Walking to a blast target.
    MoveToBlast,
    /// Blasting this turn (dead by the end of it).
    Blast,
    /// Walking to a transform target.
    MoveToTransform,
    /// Waiting for its transform request to succeed.
    Transform,
    /// Dead; removed at the start of the next turn.
    Dead,
}

/// A bot's state as players see it: MOVE_TO_BLAST shows as BLAST and MOVE_TO_TRANSFORM as
/// TRANSFORM.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BotStatus {
    /// IDLE.
    Idle,
    /// MOVE.
    Move,
    /// BLAST or MOVE_TO_BLAST.
    Blast,
    /// TRANSFORM or MOVE_TO_TRANSFORM.
    Transform,
    /// DEAD.
    Dead,
}

impl BotState {
    /// What players see.
    pub fn status(self) -> BotStatus {
        match self {
            BotState::Idle => BotStatus::Idle,
            BotState::Move => BotStatus::Move,
            BotState::MoveToBlast | BotState::Blast => BotStatus::Blast,
            BotState::MoveToTransform | BotState::Transform => BotStatus::Transform,
            BotState::Dead => BotStatus::Dead,
        }
    }
}

/// A tower's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TowerState {
    /// Standing.
    Idle,
    /// Blasting this turn (dead by the end of it).
    Blast,
    /// Dead; removed at the start of the next turn (it still scores this turn).
    Dead,
}

/// What a bot was last told to do, in its owner's coordinates.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Intent {
    /// Nothing (never commanded, or the last command is done).
    #[default]
    None,
    /// `move(p)`.
    Move(Vec2),
    /// `blast(p)`.
    BlastAt(Vec2),
    /// `transform(p)`.
    TransformAt(Vec2),
    /// `blast()`.
    Blast,
    /// `transform()`.
    Transform,
}

impl Intent {
    /// The intent's target position, if it has one.
    pub fn target(self) -> Option<Vec2> {
        match self {
            Intent::Move(p) | Intent::BlastAt(p) | Intent::TransformAt(p) => Some(p),
            Intent::None | Intent::Blast | Intent::Transform => None,
        }
    }

    /// The same intent with its target mapped by `f` (used to mirror it into another view).
    pub fn map_target(self, f: impl Fn(Vec2) -> Vec2) -> Intent {
        match self {
            Intent::Move(p) => Intent::Move(f(p)),
            Intent::BlastAt(p) => Intent::BlastAt(f(p)),
            Intent::TransformAt(p) => Intent::TransformAt(f(p)),
            other => other,
        }
    }
}

/// A bot, stored in its owner's coordinates (its id is its owner's own number).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Bot {
    pub(crate) id: u32,
    pub(crate) hp: u32,
    pub(crate) pos: Vec2,
    pub(crate) state: BotState,
    pub(crate) intent: Intent,
    /// A `move(p)` given while it walked to a blast or transform target or waited in
    /// TRANSFORM: kept beside the intent, never carried out (the original's `destination`,
    /// which those states never look at).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) extra_move: Option<Vec2>,
    /// A blast or transform order given while it waited in TRANSFORM: stored, never carried out
    /// (the original sets the bot's blast or transform target, which its TRANSFORM state never
    /// looks at). Only a bot in TRANSFORM, or one that left it holding two targets (see
    /// [`Bot::drop_orders`]), has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) held: Option<Intent>,
}

impl Bot {
    /// Whether the bot holds two targets, which the original reports as NO_MULTIPLE_BOT_TASK on
    /// every turn its player gives it no command (code-character.md "Orders to busy bots"): a
    /// kept move beside the target it walks to, or beside an order stored in TRANSFORM (also
    /// once the bot is dead or a tower, see [`Bot::drop_orders`]).
    pub(crate) fn holds_two_targets(&self) -> bool {
        self.extra_move.is_some()
            && (self.held.is_some() || matches!(self.state, BotState::MoveToBlast | BotState::MoveToTransform))
    }

    /// The bot died or became a tower: it shows no intent **\[ours\]** and drops its kept move,
    /// except a kept move beside an order stored in TRANSFORM: both stay, for the one turn the
    /// dead bot remains visible, so it is reported once more. In the original, leaving a
    /// walking state clears the target walked to (one target is left, nothing to report),
    /// while leaving TRANSFORM clears nothing.
    pub(crate) fn drop_orders(&mut self) {
        self.intent = Intent::None;
        if self.held.is_none() || self.extra_move.is_none() {
            self.held = None;
            self.extra_move = None;
        }
    }
}

/// Sets `bot`'s intent for an accepted `order` (code-character.md "Orders to busy bots"): a new
/// order replaces the intent, except that
/// - `move(p)` to a bot in MOVE_TO_BLAST, MOVE_TO_TRANSFORM or TRANSFORM leaves the intent as it
///   is (the bot walks on to its target and acts there, or waits on) and is kept as its extra
///   move;
/// - a bot in TRANSFORM stores any other order and acts on none until it becomes a tower or
///   dies.
///
/// As in the original, where a blast or transform target clears the move target: `blast()`,
/// `blast(p)`, `transform()` and `transform(p)` drop a kept extra move, whether they replace a
/// walking bot's target or are stored by a bot in TRANSFORM.
pub(crate) fn give_order(bot: &mut Bot, order: Order) {
    let intent = match order {
        Order::Move(p) => Intent::Move(p),
        Order::Blast => Intent::Blast,
        Order::BlastAt(p) => Intent::BlastAt(p),
        Order::Transform => Intent::Transform,
        Order::TransformAt(p) => Intent::TransformAt(p),
    };
    match (bot.state, order) {
        (BotState::MoveToBlast | BotState::MoveToTransform | BotState::Transform, Order::Move(p)) => {
            bot.extra_move = Some(p);
        }
        (BotState::Transform, _) => {
            bot.held = Some(intent);
            bot.extra_move = None;
        }
        (_, _) => {
            bot.intent = intent;
            bot.extra_move = None;
        }
    }
}

/// A tower, stored in its owner's coordinates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Tower {
    pub(crate) id: u32,
    pub(crate) hp: u32,
    pub(crate) tile: Tile,
    /// Turns of update since it was built (incremented before it may blast).
    pub(crate) age: u32,
    pub(crate) state: TowerState,
    /// Commanded to blast (accepted only at age >= 3): it blasts in this turn's update.
    pub(crate) blast_ordered: bool,
}

/// What a bot's state machine did this turn.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub(crate) struct Step {
    /// The next position (applied after damage, unless the bot dies).
    pub(crate) pending: Option<Vec2>,
    /// Where it blasted (its current position).
    pub(crate) blast: Option<Vec2>,
}

/// Longest chain of transitions in one turn (IDLE -> MOVE -> IDLE, MOVE_TO_BLAST -> IDLE ->
/// BLAST, ...); the loop stops there whatever happens, as a guard.
const MAX_TRANSITIONS: usize = 8;

/// Runs `bot`'s state machine until it stops changing state (code-character.md "One turn"
/// 4.2). `next_position(from, to)` is the pathfinder: where the bot gets to this turn, or
/// `None` when there is no path. Nothing is applied to other units: the caller accumulates the
/// blast and applies the move after damage.
pub(crate) fn run_bot(bot: &mut Bot, mut next_position: impl FnMut(Vec2, Vec2) -> Option<Vec2>) -> Step {
    let mut step = Step::default();
    for _ in 0..MAX_TRANSITIONS {
        if bot.hp == 0 && bot.state != BotState::Dead {
            bot.state = BotState::Dead;
            continue;
        }
        let next = match (bot.state, bot.intent) {
            (BotState::Dead | BotState::Blast, _) => None,
            (BotState::Idle, intent) => match intent {
                Intent::None => None,
                Intent::Move(_) => Some(BotState::Move),
                Intent::BlastAt(_) => Some(BotState::MoveToBlast),
                Intent::TransformAt(_) => Some(BotState::MoveToTransform),
                Intent::Blast => {
                    // Entering BLAST: damage around the current position; the self-damage is
                    // the caller's (full hp).
                    step.blast = Some(bot.pos);
                    bot.intent = Intent::None;
                    Some(BotState::Blast)
                }
                Intent::Transform => Some(BotState::Transform),
            },
            (BotState::Move, Intent::Move(dest)) => {
                if bot.pos.approx_eq(dest) {
                    bot.intent = Intent::None;
                    Some(BotState::Idle)
                } else {
                    match next_position(bot.pos, dest) {
                        Some(p) => {
                            step.pending = Some(p);
                            if p.approx_eq(dest) {
                                bot.intent = Intent::None;
                                Some(BotState::Idle)
                            } else {
                                None
                            }
                        }
                        // No path: stay in MOVE and try again next turn.
                        None => None,
                    }
                }
            }
            (BotState::MoveToBlast, Intent::BlastAt(target)) => {
                if bot.pos.approx_eq(target) {
                    bot.intent = Intent::Blast;
                    Some(BotState::Idle)
                } else {
                    step.pending = next_position(bot.pos, target);
                    None
                }
            }
            (BotState::MoveToTransform, Intent::TransformAt(target)) => {
                if bot.pos.approx_eq(target) {
                    bot.intent = Intent::Transform;
                    Some(BotState::Transform)
                } else {
                    step.pending = next_position(bot.pos, target);
                    None
                }
            }
            (BotState::Transform, Intent::Transform) => None,
            // A new command replaced this state's intent: go through IDLE to the new one.
            (BotState::Move | BotState::MoveToBlast | BotState::MoveToTransform | BotState::Transform, _) => {
                Some(BotState::Idle)
            }
        };
        match next {
            Some(state) => bot.state = state,
            None => break,
        }
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(intent: Intent, state: BotState) -> Bot {
        Bot { id: 1, hp: 200, pos: Vec2::new(1.5, 1.5), state, intent, extra_move: None, held: None }
    }

    /// One unit per turn straight toward the target.
    fn straight(from: Vec2, to: Vec2) -> Option<Vec2> {
        Some(from.toward(to, 1.0))
    }

    /// code-character.md "One turn" 4.2: MOVE computes the next position and returns to IDLE on
    /// reaching the destination (the intent is then done).
    #[test]
    fn move_reaches_and_idles() {
        let mut b = bot(Intent::Move(Vec2::new(1.5, 3.0)), BotState::Idle);
        let step = run_bot(&mut b, straight);
        assert_eq!(step.pending, Some(Vec2::new(1.5, 2.5)));
        assert_eq!(b.state, BotState::Move);
        b.pos = step.pending.unwrap();
        let step = run_bot(&mut b, straight);
        assert_eq!(step.pending, Some(Vec2::new(1.5, 3.0)));
        assert_eq!((b.state, b.intent), (BotState::Idle, Intent::None));
    }

    /// code-character.md "Pathfinding": no path, no move; the bot stays in MOVE.
    #[test]
    fn no_path_waits_in_move() {
        let mut b = bot(Intent::Move(Vec2::new(9.5, 9.5)), BotState::Idle);
        let step = run_bot(&mut b, |_, _| None);
        assert_eq!(step, Step::default());
        assert_eq!(b.state, BotState::Move);
        assert_eq!(b.intent, Intent::Move(Vec2::new(9.5, 9.5)));
    }

    /// code-character.md "Units and commands": blast(p) moves first and blasts on the turn after
    /// arrival; with p equal to the current position it blasts at once.
    #[test]
    fn blast_at_acts_the_turn_after_arrival() {
        let mut b = bot(Intent::BlastAt(Vec2::new(1.5, 2.0)), BotState::Idle);
        let step = run_bot(&mut b, straight);
        assert_eq!((step.pending, step.blast), (Some(Vec2::new(1.5, 2.0)), None));
        assert_eq!(b.state, BotState::MoveToBlast);
        b.pos = Vec2::new(1.5, 2.0);
        let step = run_bot(&mut b, straight);
        assert_eq!((step.pending, step.blast), (None, Some(Vec2::new(1.5, 2.0))));
        assert_eq!(b.state, BotState::Blast);

        let mut here = bot(Intent::BlastAt(Vec2::new(1.50005, 1.5)), BotState::Idle);
        let step = run_bot(&mut here, straight);
        assert_eq!(step.blast, Some(Vec2::new(1.5, 1.5)));
    }

    /// code-character.md "Units and commands": transform(p) moves, then waits in TRANSFORM.
    #[test]
    fn transform_at_then_waits() {
        let mut b = bot(Intent::TransformAt(Vec2::new(1.5, 1.5)), BotState::Idle);
        assert_eq!(run_bot(&mut b, straight), Step::default());
        assert_eq!((b.state, b.intent), (BotState::Transform, Intent::Transform));
        assert_eq!(run_bot(&mut b, straight), Step::default());
        assert_eq!(b.state, BotState::Transform);
    }

    /// code-character.md "Units and commands": a new command replaces the intent; the state
    /// machine goes through IDLE to it within the turn.
    #[test]
    fn new_intent_replaces_the_old_one() {
        let mut b = bot(Intent::Blast, BotState::Transform);
        let step = run_bot(&mut b, straight);
        assert_eq!(step.blast, Some(Vec2::new(1.5, 1.5)));
        assert_eq!(b.state, BotState::Blast);
        let mut b = bot(Intent::Move(Vec2::new(0.5, 1.5)), BotState::MoveToBlast);
        run_bot(&mut b, straight);
        assert_eq!(b.state, BotState::Idle);
        let mut dead = bot(Intent::Move(Vec2::new(0.5, 1.5)), BotState::Idle);
        dead.hp = 0;
        assert_eq!(run_bot(&mut dead, straight), Step::default());
        assert_eq!(dead.state, BotState::Dead);
    }

    #[test]
    fn statuses_merge_the_walking_states() {
        assert_eq!(BotState::MoveToBlast.status(), BotStatus::Blast);
        assert_eq!(BotState::MoveToTransform.status(), BotStatus::Transform);
        assert_eq!(BotState::Move.status(), BotStatus::Move);
    }
}
