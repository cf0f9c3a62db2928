//! The rules of eubots.md once, as pure functions on plain data (a [`Grid`] and the units index,
//! `&[Option<Unit>]`, indexed by handle). The engine ([`crate::Eubots`]) and the bots' view
//! ([`crate::View`]) both call these, so a bot that simulates a turn with [`resolve_turn`] on a
//! copy of its view plays by exactly the engine's rules; the guest SDK re-exports this module.
//!
//! Conventions: seats are 0-based (`u8`); positions are 1-based and anything outside the map is
//! a wall. Functions never panic: a handle that is out of range, a dead unit or an inconsistent
//! grid gives an error, `None` or no effect, as each documents. Results never depend on hash
//! iteration order: everything runs in handle order.

use crate::event::{EndReason, Event, MoveFail, Standing};
use crate::grid::{Grid, Handle, Pos, Square};
use crate::order::{Action, IgnoredOrder, Invalid, Order, OrderError};
use crate::unit::{Status, Unit};
use serde::{Deserialize, Serialize};

/// Fewest players (eubots.md "Arena").
pub const MIN_PLAYERS: usize = 2;
/// Most players (eubots.md "Arena"); also the number of player digits in a map file.
pub const MAX_PLAYERS: usize = 8;
/// Longest side of a map **\[ours\]**: 255, so that coordinates fit a byte and the units index
/// (at most 255 x 255 entries) stays bounded whatever map file is given.
pub const MAX_SIDE: i32 = 255;
/// Defence of a fresh unit: it withstands 2 damage (eubots.md "Units").
pub const DEFENCE: u8 = 2;
/// Damage one attack deals (eubots.md "Units").
pub const DAMAGE: u8 = 1;
/// Consecutive turns without a death that make a stalemate (eubots.md "End of the match").
pub const STALEMATE_TURNS: u32 = 500;
/// The safety cap **\[ours\]**: after this many turns the match is scored as a stalemate.
pub const TURN_CAP: u32 = 5_000;
/// The static bound on orders in one answer: no units index can be longer than this (a map has at
/// most [`MAX_SIDE`] squared squares). A host may refuse longer answers while decoding;
/// [`max_orders`] is the bound for a given match.
pub const MAX_ORDERS: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize);

/// Whether `pos` lies in a `width` x `height` map (eubots.md "Arena": 1 <= x <= width,
/// 1 <= y <= height). Everything else is a wall.
pub fn in_map(width: i32, height: i32, pos: Pos) -> bool {
    (1..=width).contains(&pos.x) && (1..=height).contains(&pos.y)
}

/// Most orders one answer may hold **\[ours\]**: the length of the units index, one per handle
/// (the spec's TOTAL_UNITS). It never shrinks during a match, so an answer computed before some
/// units died is still accepted (its orders for dead units are ignored one by one).
pub fn max_orders(units: &[Option<Unit>]) -> usize {
    units.len().min(MAX_ORDERS)
}

/// Living units per seat, for seats `0..players` (units of other seats are not counted).
pub fn units_remaining(units: &[Option<Unit>], players: usize) -> Vec<u32> {
    let mut counts = vec![0u32; players];
    for unit in units.iter().flatten() {
        if let Some(count) = counts.get_mut(usize::from(unit.owner)) {
            *count += 1;
        }
    }
    counts
}

/// Whether a whole answer from `seat` is acceptable: the seat must still own a living unit
/// (eubots.md "End of the match": a player with no units is not asked) and the list may hold at
/// most [`max_orders`] orders. Problems with single orders are not checked here: they are
/// ignored one by one ([`validate_orders`]).
pub fn check_answer(units: &[Option<Unit>], seat: usize, orders: &[Order]) -> Result<(), Invalid> {
    if !units.iter().flatten().any(|unit| usize::from(unit.owner) == seat) {
        return Err(Invalid::NotActing { seat });
    }
    let max = max_orders(units);
    if orders.len() > max {
        return Err(Invalid::TooManyOrders { given: orders.len(), max });
    }
    Ok(())
}

/// Whether `seat` may command the unit `order` names (eubots.md "Orders"): the handle must exist,
/// the unit be alive and belong to `seat`. Checked in that order.
pub fn check_order(units: &[Option<Unit>], seat: u8, order: &Order) -> Result<(), OrderError> {
    let handle = order.handle;
    let Some(entry) = usize::try_from(handle).ok().and_then(|index| units.get(index)) else {
        return Err(OrderError::UnknownUnit { handle });
    };
    let Some(unit) = entry else {
        return Err(OrderError::DeadUnit { handle });
    };
    if unit.owner != seat {
        return Err(OrderError::NotYourUnit { handle, owner: unit.owner });
    }
    Ok(())
}

/// An answer sorted out (eubots.md "Resolution of one turn" 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validation {
    /// The orders carried out: exactly one per unit named exactly once, by handle.
    pub accepted: Vec<Order>,
    /// The orders ignored, in the answer's order: unknown, dead or foreign units, and every order
    /// for a unit named more than once (that unit waits, status INVALID).
    pub ignored: Vec<IgnoredOrder>,
}

/// Sorts `seat`'s answer into the orders carried out and those ignored (eubots.md "Orders").
/// Units of `seat` that no accepted order names wait with status INVALID.
pub fn validate_orders(units: &[Option<Unit>], seat: u8, orders: &[Order]) -> Validation {
    // Orders per handle among the valid ones; a Vec indexed by handle keeps this deterministic.
    let mut count = vec![0u32; units.len()];
    let checked: Vec<(Order, Result<(), OrderError>)> =
        orders.iter().map(|order| (*order, check_order(units, seat, order))).collect();
    for (order, result) in &checked {
        if result.is_ok()
            && let Some(n) = usize::try_from(order.handle).ok().and_then(|index| count.get_mut(index))
        {
            *n = n.saturating_add(1);
        }
    }
    let mut validation = Validation::default();
    for (order, result) in checked {
        let times = usize::try_from(order.handle).ok().and_then(|index| count.get(index)).copied().unwrap_or(0);
        match result {
            Err(reason) => validation.ignored.push(IgnoredOrder { order, reason }),
            Ok(()) if times > 1 => validation
                .ignored
                .push(IgnoredOrder { order, reason: OrderError::Duplicate { handle: order.handle, count: times } }),
            Ok(()) => validation.accepted.push(order),
        }
    }
    validation.accepted.sort_by_key(|order| order.handle);
    validation
}

/// Resolves one turn in place (eubots.md "Resolution of one turn"): `orders[seat]` is each seat's
/// answer (an empty list for a seat that gave none). Returns the events in order.
///
/// 1. Each answer is validated ([`validate_orders`]).
/// 2. Attack phase: every attack whose target square holds an enemy unit takes [`DAMAGE`] from
///    it; damage adds up; units left with less than 1 defence die at the end of the phase (so a
///    dying attacker still hits and a dying mover never moves).
/// 3. Movement phase for the surviving movers ([`resolve_moves`]).
/// 4. Every living unit's `last_order` and `status` are set.
pub fn resolve_turn(grid: &mut Grid, units: &mut [Option<Unit>], orders: &[Vec<Order>]) -> Vec<Event> {
    let mut events = Vec::new();
    // The accepted order of each unit, by handle.
    let mut plan: Vec<Option<Order>> = vec![None; units.len()];
    // Seats are u8: answers beyond seat 255 (impossible in a match) are dropped.
    for (seat, answer) in (0..=u8::MAX).zip(orders) {
        let validation = validate_orders(units, seat, answer);
        for ignored in validation.ignored {
            events.push(Event::Ignored { seat, ignored });
        }
        for order in validation.accepted {
            if let Some(slot) = usize::try_from(order.handle).ok().and_then(|index| plan.get_mut(index)) {
                *slot = Some(order);
            }
        }
    }

    // Attack phase. `hit[attacker]` is the unit its attack hit.
    let mut hit: Vec<Option<Handle>> = vec![None; units.len()];
    for (attacker, order) in (0u32..).zip(&plan) {
        let Some(order) = order.filter(|order| order.action == Action::Attack) else {
            continue;
        };
        let Some(unit) = get(units, attacker).copied() else {
            continue;
        };
        let at = unit.pos.step(order.direction);
        let enemy = grid.get(at).unit().filter(|target| get(units, *target).is_some_and(|t| t.owner != unit.owner));
        match enemy.and_then(|target| Some((target, get_mut(units, target)?))) {
            Some((target, victim)) => {
                victim.defence = victim.defence.saturating_sub(DAMAGE);
                events.push(Event::Hit { attacker, target, at, defence: victim.defence });
                if let Some(slot) = hit.get_mut(index(attacker)) {
                    *slot = Some(target);
                }
            }
            None => events.push(Event::Missed { attacker, at }),
        }
    }
    // Deaths at the end of the attack phase.
    let mut died = vec![false; units.len()];
    for ((handle, entry), dead) in (0u32..).zip(units.iter_mut()).zip(died.iter_mut()) {
        if let Some(unit) = entry
            && unit.defence < 1
        {
            grid.set(unit.pos, Square::Empty);
            events.push(Event::Died { handle, owner: unit.owner, at: unit.pos });
            *entry = None;
            *dead = true;
        }
    }

    // Movement phase: the surviving movers, by handle.
    let movers: Vec<Order> = plan
        .iter()
        .flatten()
        .filter(|order| order.action == Action::Move && get(units, order.handle).is_some())
        .copied()
        .collect();
    let fates = resolve_moves(grid, units, &movers);
    let mut moved = vec![false; units.len()];
    for (order, fate) in movers.iter().zip(&fates) {
        match fate {
            Ok((from, to)) => {
                events.push(Event::Moved { handle: order.handle, from: *from, to: *to });
                if let Some(flag) = moved.get_mut(index(order.handle)) {
                    *flag = true;
                }
            }
            Err(reason) => events.push(Event::Blocked { handle: order.handle, order: *order, reason: *reason }),
        }
    }

    // Status flags, reported next turn.
    for (handle, entry) in units.iter_mut().enumerate() {
        let Some(unit) = entry else {
            continue;
        };
        let order = plan.get(handle).copied().flatten();
        unit.last_order = order;
        unit.status = match order.map(|order| order.action) {
            None => Status::Invalid,
            Some(Action::Wait) => Status::WaitSuccess,
            Some(Action::Move) if moved.get(handle).copied().unwrap_or(false) => Status::MoveSuccess,
            Some(Action::Move) => Status::MoveFail,
            Some(Action::Attack) => {
                let target = hit.get(handle).copied().flatten();
                let killed = target.is_some_and(|target| died.get(index(target)).copied().unwrap_or(false));
                if killed { Status::AttackSuccess } else { Status::AttackFail }
            }
        };
    }
    events
}

/// The movement phase (eubots.md "Resolution of one turn" 3) for `movers` (move orders of living
/// units, at most one per unit), applied to `grid` and `units`. Returns, per mover, `(from, to)`
/// when it moved or why it failed.
///
/// A move fails when its destination is a wall (or outside the map); all moves onto a square two
/// or more movers target fail; then, to a fixed point **\[ours\]**, a move fails when its
/// destination holds a unit that is not (tentatively) moving away. Chains and cycles, two units
/// swapping included, succeed. Failing only ever adds failures, so the fixed point is unique and
/// the order of evaluation does not matter; a work list makes it linear in the number of movers.
pub fn resolve_moves(
    grid: &mut Grid,
    units: &mut [Option<Unit>],
    movers: &[Order],
) -> Vec<Result<(Pos, Pos), MoveFail>> {
    struct Move {
        handle: Handle,
        from: Pos,
        to: Pos,
        fate: Option<MoveFail>,
    }
    let mut moves: Vec<Move> = movers
        .iter()
        .map(|order| {
            let from = get(units, order.handle).map_or(Pos::default(), |unit| unit.pos);
            let to = from.step(order.direction);
            let fate = if get(units, order.handle).is_none() || grid.get(from) != Square::Unit(order.handle) {
                // Not a living unit standing where the index says: it cannot move (unreachable
                // from the engine; the grid and the index always agree).
                Some(MoveFail::Occupied)
            } else if !grid.is_open(to) {
                Some(MoveFail::Wall)
            } else {
                None
            };
            Move { handle: order.handle, from, to, fate }
        })
        .collect();

    // Contested squares: every move onto a square two or more movers target fails.
    let mut targeted = vec![0u32; grid.squares.len()];
    for mv in moves.iter().filter(|mv| mv.fate.is_none()) {
        if let Some(n) = grid.index(mv.to).and_then(|i| targeted.get_mut(i)) {
            *n = n.saturating_add(1);
        }
    }
    for mv in moves.iter_mut().filter(|mv| mv.fate.is_none()) {
        if grid.index(mv.to).and_then(|i| targeted.get(i)).is_some_and(|n| *n > 1) {
            mv.fate = Some(MoveFail::Contested);
        }
    }

    // The fixed point. `mover_of[handle]`: its entry in `moves` if still tentatively moving;
    // `incoming[square]`: the one tentative mover targeting that square (unique after contests).
    let mut mover_of: Vec<Option<usize>> = vec![None; units.len()];
    let mut incoming: Vec<Option<usize>> = vec![None; grid.squares.len()];
    for (k, mv) in moves.iter().enumerate().filter(|(_, mv)| mv.fate.is_none()) {
        if let Some(slot) = mover_of.get_mut(index(mv.handle)) {
            *slot = Some(k);
        }
        if let Some(slot) = grid.index(mv.to).and_then(|i| incoming.get_mut(i)) {
            *slot = Some(k);
        }
    }
    let mut work: Vec<usize> = (0..moves.len()).rev().collect();
    while let Some(k) = work.pop() {
        let Some(mv) = moves.get(k).filter(|mv| mv.fate.is_none()) else {
            continue;
        };
        let occupant_stays = match grid.get(mv.to) {
            Square::Empty => false,
            Square::Wall => true,
            Square::Unit(occupant) => {
                let moving = mover_of.get(index(occupant)).copied().flatten();
                moving.is_none_or(|j| moves.get(j).is_none_or(|other| other.fate.is_some()))
            }
        };
        if occupant_stays {
            let from = mv.from;
            if let Some(mv) = moves.get_mut(k) {
                mv.fate = Some(MoveFail::Occupied);
            }
            // The mover that wanted this unit's square must look again.
            if let Some(j) = grid.index(from).and_then(|i| incoming.get(i)).copied().flatten() {
                work.push(j);
            }
        }
    }

    // Apply all successful moves at once: vacate every origin, then fill every destination.
    for mv in moves.iter().filter(|mv| mv.fate.is_none()) {
        grid.set(mv.from, Square::Empty);
    }
    for mv in moves.iter().filter(|mv| mv.fate.is_none()) {
        grid.set(mv.to, Square::Unit(mv.handle));
        if let Some(unit) = get_mut(units, mv.handle) {
            unit.pos = mv.to;
        }
    }
    moves
        .iter()
        .map(|mv| match mv.fate {
            None => Ok((mv.from, mv.to)),
            Some(reason) => Err(reason),
        })
        .collect()
}

/// Whether the match ends after a turn (eubots.md "End of the match"), and each seat's result.
/// `before` and `after` are the units per seat at the start and the end of the turn,
/// `quiet_turns` the consecutive turns without a death so far and `turns_played` the turns
/// played, both counting this one. Checked in this order **\[ours\]**:
///
/// 1. one player left with units: [`EndReason::Win`] (even if it has a single unit);
/// 2. nobody left: [`EndReason::WipeOut`], a draw among the players who had units before the turn;
/// 3. every remaining player has exactly one unit: [`EndReason::LastUnits`];
/// 4. [`STALEMATE_TURNS`] turns without a death: [`EndReason::NoDeaths`];
/// 5. [`TURN_CAP`] turns played: [`EndReason::TurnCap`].
///
/// In the three stalemates every remaining player draws. Points are always the units left
/// ([`scores`]): the winner's units, 0 for everyone in a wipe-out, each survivor's units in a
/// stalemate.
pub fn match_end(
    before: &[u32],
    after: &[u32],
    quiet_turns: u32,
    turns_played: u32,
) -> Option<(EndReason, Vec<Standing>)> {
    let alive = after.iter().filter(|units| **units > 0).count();
    let survivors_draw =
        || after.iter().map(|units| if *units > 0 { Standing::Drew } else { Standing::Lost }).collect();
    match alive {
        1 => Some((
            EndReason::Win,
            after.iter().map(|units| if *units > 0 { Standing::Won } else { Standing::Lost }).collect(),
        )),
        0 => Some((
            EndReason::WipeOut,
            before.iter().map(|units| if *units > 0 { Standing::Drew } else { Standing::Lost }).collect(),
        )),
        _ if after.iter().all(|units| *units <= 1) => Some((EndReason::LastUnits, survivors_draw())),
        _ if quiet_turns >= STALEMATE_TURNS => Some((EndReason::NoDeaths, survivors_draw())),
        _ if turns_played >= TURN_CAP => Some((EndReason::TurnCap, survivors_draw())),
        _ => None,
    }
}

/// Points per seat: the units each has left (see [`match_end`]).
pub fn scores(remaining: &[u32]) -> Vec<i64> {
    remaining.iter().map(|units| i64::from(*units)).collect()
}

/// Ranks per seat from the standings **\[ours\]**: a win above a draw above a loss, equal
/// standings sharing a rank ("1224"). Unit counts do not split a draw: a stalemate is a draw for
/// every remaining player whatever its points (eubots.md "End of the match"), and losers share
/// the last rank whenever they were wiped out.
pub fn ranks(standings: &[Standing]) -> Vec<u32> {
    arena_game::ranks_from_scores(standings)
}

fn index(handle: Handle) -> usize {
    usize::try_from(handle).unwrap_or(usize::MAX)
}

fn get(units: &[Option<Unit>], handle: Handle) -> Option<&Unit> {
    units.get(index(handle)).and_then(Option::as_ref)
}

fn get_mut(units: &mut [Option<Unit>], handle: Handle) -> Option<&mut Unit> {
    units.get_mut(index(handle)).and_then(Option::as_mut)
}

#[cfg(test)]
mod tests;
