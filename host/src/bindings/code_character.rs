//! Code Character's binding: `arena:code-character/bot@0.2.0` to and from
//! [`arena_code_character`]'s types.
//!
//! The map and everything else that never changes ([`StaticView`](arena_code_character::StaticView)) goes once, to `init`; the
//! binding computes it from the match's initial state ([`Binding::init_in`]), again at every
//! restart. The per-turn view carries only what changes. Everything is already in the seat's
//! own perspective (the engine mirrors it); positions are the engine's `f64`s, unchanged.
//!
//! An answer is a `list<command>`. wasmtime lifts a returned list into a host `Vec` before
//! [`Binding::decode`] sees it, so the host's transient allocation is bounded by the bot's
//! memory limit (the list must fit in the bot's linear memory), not by this module. `decode`
//! then refuses an answer longer than [`MAX_COMMANDS`] as [`InvalidReason::Malformed`] before
//! converting it; non-finite coordinates are refused by the engine's check
//! ([`arena_code_character::Invalid::NonFinite`]). Either is an invalid action.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command, MAX_COMMANDS, View};
use arena_game::Game;

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/code-character",
        world: "arena:code-character/bot@0.2.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::code_character::types as wit;

/// Code Character's [`Binding`].
pub struct CodeCharacterBinding;

bot_world!(CodeCharacterBinding, bindings, world: "arena:code-character/bot@0.2.0", export: "arena:code-character/player@0.2.0", wit: "../../../wit/code-character/code-character.wit");

impl Binding for CodeCharacterBinding {
    type Game = CodeCharacter;
    bot_world_plumbing!(bindings);

    type Answer = Vec<wit::Command>;

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        Self::init_in(live, info, None)
    }

    fn init_in(live: Live<Self>, info: InitInfo, game: Option<&CodeCharacter>) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let seat = usize::from(info.seat);
        let statics = match game {
            Some(game) => game.static_view(seat),
            None => match CodeCharacter::new(&CodeCharacterConfig::default(), 2, 0) {
                Ok(game) => game.static_view(seat),
                Err(err) => {
                    let err = wasmtime::Error::msg(format!("the default Code Character match: {err}"));
                    return Box::pin(async move { (store, Err(err)) });
                }
            },
        };
        let statics = static_view_to_wit(&statics);
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_code_character_player().call_init(&mut store, info, &statics).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, common::TurnInfo::from(info));
        Box::pin(async move {
            let result = instance.arena_code_character_player().call_take_turn(&mut store, &view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: Vec<wit::Command>) -> Result<Vec<Command>, InvalidReason> {
        // The list is already in host memory (see the module docs); refuse an over-long one
        // before converting it.
        if answer.len() > MAX_COMMANDS {
            return Err(InvalidReason::Malformed {
                detail: format!("{} commands, more than the {MAX_COMMANDS} accepted", answer.len()),
            });
        }
        Ok(answer.iter().map(command_from_wit).collect())
    }
}

arena_code_character::wit_glue!(common::TurnInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_code_character::{BotStatus, BotView, Intent, Order, Vec2};

    /// Every order survives the WIT round trip.
    #[test]
    fn commands_round_trip() {
        let p = Vec2::new(3.25, 17.5);
        for order in [Order::Move(p), Order::Blast, Order::BlastAt(p), Order::Transform, Order::TransformAt(p)] {
            let command = Command::new(9, order);
            assert_eq!(command_from_wit(&command_to_wit(&command)), command);
        }
    }

    /// A busy bot's kept move reaches the bot beside its intent; an idle bot has none.
    #[test]
    fn a_bots_extra_move_is_sent() {
        let busy = BotView {
            id: 3,
            hp: 200,
            position: Vec2::new(2.5, 4.5),
            state: BotStatus::Blast,
            intent: Intent::BlastAt(Vec2::new(2.5, 5.0)),
            extra_move: Some(Vec2::new(8.5, 2.25)),
        };
        let wit = bot_to_wit(&busy);
        assert_eq!(wit.intent, wit::IntentKind::BlastAt as u8);
        assert!(matches!(wit.intent_target, wit::Vec2 { x: 2.5, y: 5.0 }));
        assert_eq!(wit.has_extra_move, 1);
        assert!(matches!(wit.extra_move, wit::Vec2 { x: 8.5, y: 2.25 }), "{:?}", wit.extra_move);
        assert_eq!(bot_from_wit(&wit), busy);
        let idle = BotView { extra_move: None, intent: Intent::None, state: BotStatus::Idle, ..busy };
        let wit = bot_to_wit(&idle);
        assert_eq!((wit.has_extra_move, wit.intent), (0, wit::IntentKind::None as u8));
        assert_eq!(bot_from_wit(&wit), idle);
    }

    /// The unit lists' codes are the WIT enums' case indices, and every code decodes to
    /// something (the bot's side must not panic on any byte).
    #[test]
    fn unit_codes_are_the_wit_case_indices() {
        use arena_code_character::wit_glue::*;
        use arena_code_character::{Terrain, TowerState};
        let p = Vec2::new(1.5, 2.5);
        let intents = [
            (Intent::None, wit::IntentKind::None),
            (Intent::Move(p), wit::IntentKind::Move),
            (Intent::BlastAt(p), wit::IntentKind::BlastAt),
            (Intent::TransformAt(p), wit::IntentKind::TransformAt),
            (Intent::Blast, wit::IntentKind::Blast),
            (Intent::Transform, wit::IntentKind::Transform),
        ];
        for (intent, kind) in intents {
            let (code, target) = intent_code(intent);
            assert_eq!(code, kind as u8);
            assert_eq!(intent_from_code(code, target), intent);
        }
        let statuses = [
            (BotStatus::Idle, wit::BotStatus::Idle as u8),
            (BotStatus::Move, wit::BotStatus::Move as u8),
            (BotStatus::Blast, wit::BotStatus::Blast as u8),
            (BotStatus::Transform, wit::BotStatus::Transform as u8),
            (BotStatus::Dead, wit::BotStatus::Dead as u8),
        ];
        super::super::assert_case_codes(&statuses, bot_status_code, bot_status_from_code);
        let states = [
            (TowerState::Idle, wit::TowerState::Idle as u8),
            (TowerState::Blast, wit::TowerState::Blast as u8),
            (TowerState::Dead, wit::TowerState::Dead as u8),
        ];
        super::super::assert_case_codes(&states, tower_state_code, tower_state_from_code);
        let terrains = [
            (Terrain::Land, wit::Terrain::Land as u8),
            (Terrain::Water, wit::Terrain::Water as u8),
            (Terrain::Flag, wit::Terrain::Flag as u8),
        ];
        super::super::assert_case_codes(&terrains, terrain_code, terrain_from_code);
        for code in 6..=255 {
            assert_eq!(intent_from_code(code, p), Intent::None);
            assert_eq!(bot_status_from_code(code), BotStatus::Dead);
            assert_eq!(tower_state_from_code(code), TowerState::Dead);
            assert_eq!(terrain_from_code(code), Terrain::Water);
        }
    }

    /// The static view's terrain is row-major and its flags are the map's.
    #[test]
    fn static_view_is_row_major() {
        let game = CodeCharacter::new(&CodeCharacterConfig::default(), 2, 0).ok();
        let Some(statics) = game.map(|game| game.static_view(1)) else { return };
        let wit = static_view_to_wit(&statics);
        assert_eq!(wit.terrain.len(), 900);
        assert_eq!(wit.terrain[13 * 30 + 13], wit::Terrain::Flag as u8);
        assert_eq!(wit.terrain[14 * 30], wit::Terrain::Water as u8);
        assert_eq!(wit.flags.len(), 16);
    }

    /// An answer longer than MAX_COMMANDS is malformed; one within it decodes.
    #[test]
    fn over_long_answers_are_malformed() {
        let command = command_to_wit(&Command::new(1, Order::Blast));
        assert!(matches!(
            CodeCharacterBinding::decode(vec![command; MAX_COMMANDS + 1]),
            Err(InvalidReason::Malformed { .. })
        ));
        assert_eq!(CodeCharacterBinding::decode(vec![command; MAX_COMMANDS]).map(|c| c.len()).ok(), Some(MAX_COMMANDS));
    }
}

/// This binding's conversions both ways over the conformance kit's random playouts
/// (`super::roundtrip`).
#[cfg(test)]
mod round_trip {

    use super::super::roundtrip::{info, plan};
    use arena_game::Game;
    use arena_game::conformance::for_each_observation;

    /// Code Character's static view goes once, to `init`; the per-turn view carries the rest.
    #[test]
    fn code_character_views_and_commands_survive_the_round_trip() {
        use super::{
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
}
