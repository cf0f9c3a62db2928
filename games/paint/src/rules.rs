//! The rules of paint.md once, as pure functions on plain data (a [`Board`], the avatars'
//! squares by seat, actions by seat). The engine ([`crate::Paint`]) and the bots' view
//! ([`crate::View`]) both call these, so a bot that simulates with them plays by exactly the
//! engine's rules; the guest SDK re-exports this module.
//!
//! Conventions: seat `s` is index `s` of the `positions` and `actions` slices and paints with
//! colour `s`. Functions never panic: squares off the board, missing seats and invalid actions
//! give `0`, no effect or "no action", as each documents.

use crate::event::{Event, ShotStop, WalkDrop};
use crate::{Action, ActionKind, Board, Direction, Pos};

/// Length `L` of the run of `seat`'s colour starting at `from` (included) and going
/// `direction`, up to the board edge (paint.md "One turn" 2). 0 when `from` itself is not of
/// that colour (or off the board). Obstacles are never painted, so they end a run.
pub fn run_length(board: &Board, from: Pos, seat: u8, direction: Direction) -> u32 {
    let mut length = 0;
    let mut pos = from;
    while board.color(pos) == Some(seat) {
        length += 1;
        pos = pos.step(direction);
    }
    length
}

/// The range of a shot fired by `seat` from `from` in `direction`: `max(1, L - 1)`, `L` being
/// [`run_length`] measured the opposite way (paint.md "One turn" 2). The engine measures it on
/// the board after the walks and their painting.
pub fn shot_range(board: &Board, from: Pos, seat: u8, direction: Direction) -> u32 {
    run_length(board, from, seat, direction.opposite()).saturating_sub(1).max(1)
}

/// Where a walk from `from` in `direction` would go if no other avatar interfered: the target,
/// or why it is dropped whatever the others do (off the board, or an obstacle).
pub fn walk_target(board: &Board, from: Pos, direction: Direction) -> Result<Pos, WalkDrop> {
    let target = from.step(direction);
    if !board.contains(target) {
        Err(WalkDrop::OffBoard)
    } else if board.is_blocked(target) {
        Err(WalkDrop::Obstacle)
    } else {
        Ok(target)
    }
}

/// The squares that `squares` holds two or more times, sorted.
fn crowded(squares: impl Iterator<Item = Pos>) -> Vec<Pos> {
    let mut sorted: Vec<Pos> = squares.collect();
    sorted.sort_unstable();
    let mut crowded: Vec<Pos> = sorted.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
    crowded.dedup();
    crowded
}

/// The direction of `seat`'s action if it is of `kind` and valid.
fn direction_of(actions: &[Option<Action>], seat: usize, kind: ActionKind) -> Option<Direction> {
    actions.get(seat).copied().flatten().filter(|action| action.kind == kind)?.checked_direction().ok()
}

/// One walk in resolution.
struct Walk {
    direction: Direction,
    from: Pos,
    target: Pos,
    dropped: Option<WalkDrop>,
}

/// One shot in flight.
struct Flight {
    seat: u8,
    direction: Direction,
    from: Pos,
    range: u32,
    at: Pos,
    left: u32,
    painted: Vec<Pos>,
    stop: Option<ShotStop>,
}

/// Plays one turn's walks and shots (paint.md "One turn" 1 and 2) on `board` and `positions`,
/// and returns what happened: the walk events in seat order, then the shot events in seat order.
/// `actions[s]` is seat `s`'s action; `None`, a missing entry or an invalid direction is no
/// action. Step 3 (`turns_left`, `previous_actions`) is the engine's.
///
/// 1. Walks: targets off the board (or on an obstacle) are dropped; then, until nothing
///    changes, every remaining walk whose target holds two or more avatars (with the remaining
///    walks applied) is dropped. Standing avatars never move, so swaps and rotations go through
///    and a blocked walk can block a chain behind it. Then every avatar's square is painted.
/// 2. Shots: ranges are measured first, on the walk-painted board. Then, in lock-step, every
///    live shot advances one square (its range dropping by one); shots off the board, on an
///    obstacle, on a square a shot painted earlier this turn, on a square shared with another
///    live shot, or on an avatar are removed; the rest paint their square; those with no range
///    left are removed.
///
/// Seats from index 256 on (colours are `u8`) take no part; states never have them.
pub fn apply_turn(board: &mut Board, positions: &mut [Pos], actions: &[Option<Action>]) -> Vec<Event> {
    let seats = positions.len().min(usize::from(u8::MAX) + 1);
    let mut events = Vec::new();

    // 1. Walks.
    let mut walks: Vec<Option<Walk>> = (0..seats)
        .map(|seat| {
            let direction = direction_of(actions, seat, ActionKind::Walk)?;
            let from = *positions.get(seat)?;
            let (target, dropped) = match walk_target(board, from, direction) {
                Ok(target) => (target, None),
                Err(reason) => (from.step(direction), Some(reason)),
            };
            Some(Walk { direction, from, target, dropped })
        })
        .collect();
    loop {
        let next = positions.iter().zip(&walks).map(|(pos, walk)| match walk {
            Some(Walk { target, dropped: None, .. }) => *target,
            _ => *pos,
        });
        let crowded = crowded(next);
        let mut changed = false;
        for walk in walks.iter_mut().flatten() {
            if walk.dropped.is_none() && crowded.binary_search(&walk.target).is_ok() {
                walk.dropped = Some(WalkDrop::Collision);
                changed = true;
            }
        }
        // Each pass drops at least one walk or ends, so this runs at most seats + 1 times.
        if !changed {
            break;
        }
    }
    // (Enumerating rather than zipping with `0u8..`, whose successor of 255 overflows.)
    for (seat, (pos, walk)) in positions.iter_mut().zip(&walks).enumerate() {
        let (Some(walk), Ok(seat)) = (walk, u8::try_from(seat)) else { continue };
        match walk.dropped {
            None => {
                *pos = walk.target;
                events.push(Event::Walked { seat, direction: walk.direction, from: walk.from, to: walk.target });
            }
            Some(reason) => events.push(Event::WalkDropped {
                seat,
                direction: walk.direction,
                from: walk.from,
                target: walk.target,
                reason,
            }),
        }
    }
    // Every avatar's square, walkers, shooters and idle players alike.
    for (seat, pos) in positions.iter().enumerate().take(seats) {
        if let Ok(seat) = u8::try_from(seat) {
            board.paint(*pos, seat);
        }
    }

    // 2. Shots, from the post-walk squares; every range is measured before any shot moves.
    let mut flights: Vec<Flight> = (0..seats)
        .filter_map(|seat| {
            let direction = direction_of(actions, seat, ActionKind::Shoot)?;
            let from = *positions.get(seat)?;
            let seat = u8::try_from(seat).ok()?;
            let range = shot_range(board, from, seat, direction);
            Some(Flight { seat, direction, from, range, at: from, left: range, painted: Vec::new(), stop: None })
        })
        .collect();
    let mut avatars: Vec<Pos> = positions.to_vec();
    avatars.sort_unstable();
    let mut shot_painted = vec![false; board.colors.len()];
    loop {
        let mut live: Vec<&mut Flight> = flights.iter_mut().filter(|flight| flight.stop.is_none()).collect();
        if live.is_empty() {
            break;
        }
        for flight in &mut live {
            flight.at = flight.at.step(flight.direction);
            flight.left = flight.left.saturating_sub(1);
        }
        // Counted over every live shot before any removal, shots off the board included.
        let collisions = crowded(live.iter().map(|flight| flight.at));
        for flight in &mut live {
            let at = flight.at;
            flight.stop = if !board.contains(at) {
                Some(ShotStop::OffBoard)
            } else if board.is_blocked(at) {
                Some(ShotStop::Obstacle)
            } else if board.index(at).and_then(|i| shot_painted.get(i)).copied().unwrap_or(false) {
                Some(ShotStop::PaintedThisTurn)
            } else if collisions.binary_search(&at).is_ok() {
                Some(ShotStop::Collision)
            } else if avatars.binary_search(&at).is_ok() {
                Some(ShotStop::Avatar)
            } else {
                None
            };
        }
        // The survivors stand on distinct squares (shared ones were collisions), so the order
        // in which they paint does not matter.
        for flight in live.iter_mut().filter(|flight| flight.stop.is_none()) {
            board.paint(flight.at, flight.seat);
            flight.painted.push(flight.at);
            if let Some(painted) = board.index(flight.at).and_then(|i| shot_painted.get_mut(i)) {
                *painted = true;
            }
            if flight.left == 0 {
                flight.stop = Some(ShotStop::RangeSpent);
            }
        }
    }
    for flight in flights {
        events.push(Event::Shot {
            seat: flight.seat,
            direction: flight.direction,
            from: flight.from,
            range: flight.range,
            painted: flight.painted,
            stopped_at: flight.at,
            stop: flight.stop.unwrap_or(ShotStop::RangeSpent),
        });
    }
    events
}

/// The squares `seat` would gain with `action` if every other player did nothing: those that
/// [`apply_turn`] would turn to `seat`'s colour from another colour or none, row-major. A walk
/// gains its target unless it is already `seat`'s; a shot gains the squares it would paint that
/// are not yet `seat`'s. An invalid action (or a missing seat) gains what no action gains
/// (usually nothing).
pub fn squares_gained(board: &Board, positions: &[Pos], seat: u8, action: &Action) -> Vec<Pos> {
    let mut after = board.clone();
    let mut moved = positions.to_vec();
    let mut actions = vec![None; positions.len()];
    if let Some(slot) = actions.get_mut(usize::from(seat)) {
        *slot = Some(*action);
    }
    apply_turn(&mut after, &mut moved, &actions);
    board.squares().filter(|pos| after.color(*pos) == Some(seat) && board.color(*pos) != Some(seat)).collect()
}

/// Each seat's score, the number of squares of its colour (paint.md "End and score"), for seats
/// `0..players`.
pub fn scores(board: &Board, players: usize) -> Vec<i64> {
    (0..players).map(|seat| u8::try_from(seat).map_or(0, |seat| i64::from(board.count(seat)))).collect()
}
