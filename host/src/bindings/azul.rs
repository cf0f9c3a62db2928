//! Azul's binding: `arena:azul/bot@0.2.0` to and from [`arena_azul`]'s types.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_azul::{Azul, Move, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/azul",
        world: "arena:azul/bot@0.2.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::azul::types as wit;

/// Azul's [`Binding`].
pub struct AzulBinding;

bot_world!(AzulBinding, bindings, world: "arena:azul/bot@0.2.0", export: "arena:azul/player@0.2.0", wit: "../../../wit/azul/azul.wit");

impl Binding for AzulBinding {
    type Game = Azul;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_azul_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = lowered::LoweredView {
            rest: view_to_wit_with_lists(view, common::TurnInfo::from(info), Vec::new(), Vec::new()),
            tiles: tiles_bytes(view),
            lines: lines_bytes(&view.boards),
        };
        let take_turn = lowered::take_turn(&instance);
        Box::pin(async move {
            let result = take_turn.call_async(&mut store, (view,)).await.map(|(answer,)| answer);
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: wit::Action) -> Result<Move, InvalidReason> {
        // Every WIT value is representable: range checks are the engine's (`check`).
        Ok(action_from_wit(&answer))
    }
}

arena_azul::wit_glue!(common::TurnInfo);

/// The view lowered in one copy instead of field by field (see [`super::abi`]).
mod lowered {
    use super::super::abi::AbiWriter;
    use super::{bindings, common, wit};
    use std::mem::MaybeUninit;
    use wasmtime::component::__internal::{CanonicalAbiInfo, InstanceType, InterfaceType, LowerContext};
    use wasmtime::component::{ComponentType, Lower, TypedFunc};

    /// Azul's WIT view, lowered by [`write_view`]: the lists' bytes in arrays (no allocation per
    /// turn), every other field in `rest` (whose lists are empty).
    pub(super) struct LoweredView {
        pub(super) rest: wit::View,
        pub(super) tiles: [u8; 30],
        pub(super) lines: [u8; 20],
    }

    /// `take-turn` of `instance`, taking a [`LoweredView`].
    #[allow(unsafe_code)]
    pub(super) fn take_turn(instance: &bindings::Bot) -> TypedFunc<(LoweredView,), (wit::Action,)> {
        let func = *instance.arena_azul_player().func_take_turn().func();
        // SAFETY: the generated bindings type-checked this function as `(view) -> action` when
        // the instance was made (`BotPre::instantiate_async`), and `LoweredView` is `view` to
        // the component model: the same type check, ABI and flat representation as
        // `wit::View` (delegated below), and the same bytes in memory.
        unsafe { TypedFunc::new_unchecked(func) }
    }

    // SAFETY: every item is `wit::View`'s own (the generated, checked implementation).
    #[allow(unsafe_code)]
    unsafe impl ComponentType for LoweredView {
        type Lower = <wit::View as ComponentType>::Lower;
        const ABI: CanonicalAbiInfo = <wit::View as ComponentType>::ABI;

        fn typecheck(ty: &InterfaceType, types: &InstanceType<'_>) -> wasmtime::Result<()> {
            <wit::View as ComponentType>::typecheck(ty, types)
        }
    }

    // SAFETY: flat lowering is the generated implementation's; lowering to memory writes the
    // canonical-ABI bytes of the same value (`write_view`), exactly `SIZE32` of them, at
    // `offset`, inside the guest's memory (checked: out of range is an error).
    #[allow(unsafe_code)]
    unsafe impl Lower for LoweredView {
        fn linear_lower_to_flat<U>(
            &self,
            cx: &mut LowerContext<'_, U>,
            ty: InterfaceType,
            dst: &mut MaybeUninit<Self::Lower>,
        ) -> wasmtime::Result<()> {
            // Not reached: the view has more flat values than a call passes flat.
            let view = wit::View { tiles: self.tiles.to_vec(), lines: self.lines.to_vec(), ..self.rest.clone() };
            view.linear_lower_to_flat(cx, ty, dst)
        }

        fn linear_lower_to_memory<U>(
            &self,
            cx: &mut LowerContext<'_, U>,
            _ty: InterfaceType,
            offset: usize,
        ) -> wasmtime::Result<()> {
            // The lists' memory first: allocating in the guest may grow its memory. Then one
            // look-up of the memory for all three copies (each `as_slice_mut` costs one).
            let tiles_at = cx.realloc(0, 0, 1, self.tiles.len())?;
            let lines_at = cx.realloc(0, 0, 1, self.lines.len())?;
            let mut bytes = [0u8; <wit::View as ComponentType>::SIZE32];
            let mut writer = AbiWriter::new(&mut bytes);
            write_view(&mut writer, &self.rest, list_at(tiles_at, &self.tiles)?, list_at(lines_at, &self.lines)?);
            wasmtime::ensure!(writer.fits(), "the Azul view's layout overran its {} bytes", bytes.len());
            let memory = cx.as_slice_mut();
            for (at, value) in [(tiles_at, &self.tiles[..]), (lines_at, &self.lines[..]), (offset, &bytes[..])] {
                let slot = memory.get_mut(at..at + value.len());
                let slot =
                    slot.ok_or_else(|| wasmtime::format_err!("the Azul view does not fit the guest's memory"))?;
                slot.copy_from_slice(value);
            }
            Ok(())
        }
    }

    /// A list's canonical-ABI pointer and length: `bytes` at `at` in the guest's memory, which
    /// the guest allocated for them (its `cabi_realloc`, as wasmtime's own list lowering does).
    fn list_at(at: usize, bytes: &[u8]) -> wasmtime::Result<(u32, u32)> {
        Ok((u32::try_from(at)?, u32::try_from(bytes.len())?))
    }

    /// The view's fields in the WIT's order; the lists' bytes go (or went) to `tiles` and
    /// `lines` (pointer, length) in the guest's memory.
    fn write_view(w: &mut AbiWriter<'_>, view: &wit::View, tiles: (u32, u32), lines: (u32, u32)) {
        w.record::<wit::View>(|w| {
            w.u8(view.seat);
            w.u32(view.round);
            w.list(tiles);
            w.bool(view.center_has_marker);
            w.option::<u8, _>(view.marker_holder, |w, seat| w.u8(seat));
            w.list(lines);
            let pair = |w: &mut AbiWriter<'_>, (first, second): (u32, u32)| {
                w.record::<(u32, u32)>(|w| {
                    w.u32(first);
                    w.u32(second);
                })
            };
            pair(w, view.walls);
            let (floor0, floor1) = view.floor_lens;
            w.record::<(u8, u8)>(|w| {
                w.u8(floor0);
                w.u8(floor1);
            });
            pair(w, view.scores);
            w.option::<wit::Action, _>(view.last_move.as_ref(), action);
            let info = &view.info;
            w.record::<common::TurnInfo>(|w| {
                w.u32(info.turn);
                w.u64(info.turn_fuel_remaining);
                w.u64(info.game_fuel_remaining);
                w.u32(info.missed_turns);
            });
        });
    }

    fn action(w: &mut AbiWriter<'_>, action: &wit::Action) {
        w.record::<wit::Action>(|w| {
            w.u8(action.source);
            colour(w, action.colour);
            w.u8(action.line);
        });
    }

    /// An enum is its case's index.
    fn colour(w: &mut AbiWriter<'_>, colour: wit::Colour) {
        w.u8(match colour {
            wit::Colour::Green => 0,
            wit::Colour::Orange => 1,
            wit::Colour::Blue => 2,
            wit::Colour::Yellow => 3,
            wit::Colour::Red => 4,
        });
    }
}

/// The generated bindings and the view conversion, for `cargo xtask bench`'s reference: a raw
/// wasmtime component call with the same arguments as [`AzulBinding::take_turn`]'s. Not an API.
#[doc(hidden)]
pub mod raw {
    pub use super::bindings::Bot;
    pub use super::wit::View;

    /// The WIT view the host passes for `view`.
    pub fn view(view: &arena_azul::View, info: crate::seat::TurnInfo) -> View {
        super::view_to_wit(view, super::common::TurnInfo::from(info))
    }
}

/// This binding's conversions both ways over the conformance kit's random playouts
/// (`super::roundtrip`).
#[cfg(test)]
mod round_trip {

    use super::super::roundtrip::{info, plan};
    use arena_game::conformance::for_each_observation;

    #[test]
    fn azul_views_and_moves_survive_the_round_trip() {
        use super::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
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
}
