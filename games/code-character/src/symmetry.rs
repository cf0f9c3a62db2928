//! Seat symmetry ([`arena_game::SeatSymmetric`]): every map is point-symmetric and every rule is
//! applied in each player's own frame with its own ids (see [`crate::perspective`]), so the
//! match played with the seats swapped is the exact mirror image of the original, and the
//! conformance kit checks it ([`arena_game::conformance::check_symmetry`]).
//!
//! Under a swap, a player's observations and commands are *the same* (they are in its own frame
//! and ids; only the observer's seat number changes), and so is each event (in its unit owner's
//! frame and ids, see [`crate::Event`]) but for the seat numbers and the by-seat pairs. A step's
//! events are listed by phase of the turn, seat 0's before seat 1's within a phase: the mapped
//! list is reordered the same way.

use crate::game::CodeCharacter;
use crate::{Event, View};
use arena_game::{Seat, SeatSymmetric};

/// Whether `perm` swaps the two seats (it is a permutation of 0..2).
fn swaps(perm: &[Seat]) -> bool {
    perm.first() == Some(&1)
}

/// `seat` under `perm`.
fn seat_of(seat: u8, perm: &[Seat]) -> u8 {
    perm.get(usize::from(seat)).map_or(seat, |&to| to as u8)
}

/// A by-seat pair under `perm`.
fn pair<T: Copy>(values: [T; 2], perm: &[Seat]) -> [T; 2] {
    if swaps(perm) { [values[1], values[0]] } else { values }
}

/// One event under `perm`.
fn permute_event(event: &Event, perm: &[Seat]) -> Event {
    let seat = |s: &u8| seat_of(*s, perm);
    match event {
        Event::Rejected { seat: s, rejection } => Event::Rejected { seat: seat(s), rejection: *rejection },
        Event::MultipleTasks { seat: s, id } => Event::MultipleTasks { seat: seat(s), id: *id },
        Event::BotBlasted { seat: s, id, at } => Event::BotBlasted { seat: seat(s), id: *id, at: *at },
        Event::TowerBlasted { seat: s, id, tile } => Event::TowerBlasted { seat: seat(s), id: *id, tile: *tile },
        Event::Died { seat: s, id, tower } => Event::Died { seat: seat(s), id: *id, tower: *tower },
        Event::Transformed { seat: s, id, tile, hp } => {
            Event::Transformed { seat: seat(s), id: *id, tile: *tile, hp: *hp }
        }
        Event::Scored { points, winner, scores } => Event::Scored {
            points: pair(*points, perm),
            winner: winner.map(|w| seat_of(w, perm)),
            scores: pair(*scores, perm),
        },
        Event::Spawned { seat: s, id } => Event::Spawned { seat: seat(s), id: *id },
        Event::GameEnded { scores, winner } => {
            Event::GameEnded { scores: pair(*scores, perm), winner: winner.map(|w| seat_of(w, perm)) }
        }
    }
}

/// Where an event comes in a step (code-character.md "One turn"): its phase, then its seat.
fn order_key(event: &Event) -> (u8, u8) {
    match event {
        // Both come from reading a seat's answer: its rejections, then its reports.
        Event::Rejected { seat, .. } | Event::MultipleTasks { seat, .. } => (0, *seat),
        Event::BotBlasted { seat, .. } => (1, *seat),
        Event::TowerBlasted { seat, .. } => (2, *seat),
        Event::Died { seat, tower: false, .. } => (3, *seat),
        Event::Died { seat, tower: true, .. } => (4, *seat),
        Event::Transformed { seat, .. } => (5, *seat),
        Event::Scored { .. } => (6, 0),
        Event::Spawned { seat, .. } => (7, *seat),
        Event::GameEnded { .. } => (8, 0),
    }
}

impl SeatSymmetric for CodeCharacter {
    // Every map is point-symmetric (a map that is not is refused): every setup is symmetric.

    fn permute_observation(observation: &View, perm: &[Seat]) -> View {
        View { seat: seat_of(observation.seat, perm), ..observation.clone() }
    }

    fn permute_events(events: &[Event], perm: &[Seat]) -> Vec<Event> {
        let mut out: Vec<Event> = events.iter().map(|event| permute_event(event, perm)).collect();
        // Stable: within a phase and seat the order is each seat's own (its units, oldest first).
        out.sort_by_key(order_key);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tile, Vec2};

    /// Events move to the other seat (positions stay: they are in the owner's frame), and are
    /// listed seat 0 first within each phase.
    #[test]
    fn events_swap_and_reorder() {
        let events = [
            Event::BotBlasted { seat: 0, id: 3, at: Vec2::new(1.5, 2.0) },
            Event::BotBlasted { seat: 1, id: 4, at: Vec2::new(20.0, 3.5) },
            Event::Transformed { seat: 1, id: 9, tile: Tile::new(2, 3), hp: 600 },
            Event::Scored { points: [10, 0], winner: Some(0), scores: [1, 0] },
        ];
        let swapped = CodeCharacter::permute_events(&events, &[1, 0]);
        assert_eq!(
            swapped,
            [
                Event::BotBlasted { seat: 0, id: 4, at: Vec2::new(20.0, 3.5) },
                Event::BotBlasted { seat: 1, id: 3, at: Vec2::new(1.5, 2.0) },
                Event::Transformed { seat: 0, id: 9, tile: Tile::new(2, 3), hp: 600 },
                Event::Scored { points: [0, 10], winner: Some(1), scores: [0, 1] },
            ]
        );
        assert_eq!(CodeCharacter::permute_events(&events, &[0, 1]), events);
    }
}
