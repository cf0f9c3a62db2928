//! The WIT conversions of every game, both ways: every observation of the conformance kit's
//! random playouts, pushed through to-WIT (what the host sends) and from-WIT (what the SDK
//! rebuilds, carrying its between-turn memory), comes back equal to the engine's observation,
//! and so does every action. The two directions are one macro per game (`wit_glue!` in each
//! engine crate), expanded here against the host's bindings and in the SDK against its own.

#![allow(clippy::panic, clippy::expect_used)]

use super::common;
use arena_game::Game;
use arena_game::conformance::{Plan, for_each_observation};

/// Budget facts to send with a view (their round trip is `arena:common`'s, not the game's).
fn info(turn: u32) -> common::TurnInfo {
    common::TurnInfo { turn, turn_fuel_remaining: 10_000_000, game_fuel_remaining: 99_000_000, missed_turns: 0 }
}

fn plan<G: Game>(config: G::Config, players: Vec<usize>, seeds: std::ops::Range<u64>) -> Plan<G> {
    Plan { config, players, seeds, max_steps: 5_000 }
}

#[test]
fn azul_views_and_moves_survive_the_round_trip() {
    use super::azul::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
    let mut views = 0;
    for_each_observation::<arena_azul::Azul>(&plan(Default::default(), vec![2], 0..30), |_, _, view, action| {
        let back = view_from_wit(&view_to_wit(view, info(0)));
        assert_eq!(&back, view);
        if let Some(action) = action {
            assert_eq!(&action_from_wit(&action_to_wit(action)), action);
        }
        views += 1;
    });
    assert!(views > 1_000, "{views} views");
}

/// Paint sends only the last turn's actions; the SDK's history rebuilds the rest.
#[test]
fn paint_views_and_actions_survive_the_round_trip() {
    use super::paint::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
    let mut memory: std::collections::BTreeMap<(usize, usize), (arena_paint::View, Vec<u8>)> = Default::default();
    let mut views = 0;
    let plan = plan::<arena_paint::Paint>(Default::default(), vec![2, 3, 4], 0..6);
    for_each_observation(&plan, |playout, seat, view, action| {
        let wit_view = view_to_wit(view, info(0));
        let back = match memory.remove(&(playout, seat)) {
            Some((previous, squares)) => view_from_wit(&wit_view, Some((previous, &squares))),
            None => view_from_wit(&wit_view, None),
        };
        assert_eq!(&back, view, "playout {playout}, seat {seat}");
        memory.insert((playout, seat), (back, wit_view.squares));
        if let Some(action) = action {
            assert_eq!(&action_from_wit(&action_to_wit(action)), action);
        }
        views += 1;
    });
    assert!(views > 1_000, "{views} views");
}

#[test]
fn suitebot_views_and_actions_survive_the_round_trip() {
    use super::suitebot::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
    let mut views = 0;
    let plan = plan::<arena_suitebot::Suitebot>(Default::default(), vec![2, 4], 0..6);
    for_each_observation(&plan, |_, _, view, action| {
        assert_eq!(&view_from_wit(view_to_wit(view, info(0))), view);
        if let Some(action) = action {
            assert_eq!(&action_from_wit(action_to_wit(*action)), action);
        }
        views += 1;
    });
    assert!(views > 1_000, "{views} views");
}

/// Code Character's static view goes once, to `init`; the per-turn view carries the rest.
#[test]
fn code_character_views_and_commands_survive_the_round_trip() {
    use super::code_character::{
        command_from_wit, command_to_wit, static_view_from_wit, static_view_to_wit, view_from_wit, view_to_wit,
    };
    use arena_code_character::{CodeCharacter, CodeCharacterConfig};
    let config = CodeCharacterConfig { turns: 150, ..Default::default() };
    for seed in 0..3 {
        let game = CodeCharacter::new(&config, 2, seed).expect("the default map");
        for seat in 0..2 {
            let statics = game.static_view(seat);
            assert_eq!(static_view_from_wit(static_view_to_wit(&statics)), statics);
        }
    }
    let mut views = 0;
    for_each_observation::<CodeCharacter>(&plan(config, vec![2], 0..3), |_, _, view, commands| {
        assert_eq!(&view_from_wit(&view_to_wit(view, info(0))), view);
        for command in commands.into_iter().flatten() {
            assert_eq!(&command_from_wit(&command_to_wit(command)), command);
        }
        views += 1;
    });
    assert!(views >= 600, "{views} views");
}

/// Eubots sends the map as square kinds and the units index; the SDK rebuilds the engine's grid
/// from the last view the bot read (walls never change), which may be some turns old: here every
/// third view is not kept, as if the bot had not read it.
#[test]
fn eubots_views_and_orders_survive_the_round_trip() {
    use super::eubots::{order_from_wit, order_to_wit, view_from_wit, view_to_wit};
    let mut memory: std::collections::BTreeMap<(usize, usize), arena_eubots::View> = Default::default();
    let mut views = 0;
    let plan = plan::<arena_eubots::Eubots>(Default::default(), vec![2, 3], 0..4);
    for_each_observation(&plan, |playout, seat, view, orders| {
        let previous = memory.get(&(playout, seat)).cloned();
        let back = view_from_wit(view_to_wit(view, info(0)), previous);
        assert_eq!(&back, view, "playout {playout}, seat {seat}");
        if views % 3 != 2 {
            memory.insert((playout, seat), back);
        }
        for order in orders.into_iter().flatten() {
            assert_eq!(&order_from_wit(&order_to_wit(order)), order);
        }
        views += 1;
    });
    assert!(views > 500, "{views} views");
}
