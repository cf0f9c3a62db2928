//! What the meter costs compute-bound code: `azul-search.wasm` called through
//! its generated bindings on engines built from the arena's own configuration
//! ([`engine_config`]) with fuel counting, epoch checks, or both switched off. The arena never
//! runs a bot this way; the rows only split the search's distance from native into Cranelift's
//! code and the two kinds of check the meter compiles into it.

use super::{Sample, block_on, measure};
use anyhow::{Context, Result, ensure};
use arena_azul::View;
use arena_host::bindings::Binding;
use arena_host::bindings::azul::AzulBinding;
use arena_host::bindings::azul::raw as azul_raw;
use arena_host::engine::{ArenaOptions, engine_config};
use arena_host::seat::TurnInfo;
use std::hint::black_box;
use std::path::Path;
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// The checks compiled into an engine's code.
#[derive(Clone, Copy)]
pub struct Checks {
    pub fuel: bool,
    pub epochs: bool,
}

impl Checks {
    pub fn label(self) -> &'static str {
        match (self.fuel, self.epochs) {
            (true, true) => "fuel and epoch checks (the arena's code)",
            (false, true) => "epoch checks only",
            (true, false) => "fuel checks only",
            (false, false) => "neither (Cranelift's code alone)",
        }
    }
}

/// A bare store's data: the WASI context the bot's standard library links against.
struct Plain {
    ctx: WasiCtx,
    table: ResourceTable,
}

impl WasiView for Plain {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.ctx, table: &mut self.table }
    }
}

/// Time per move of `bot_path`'s `take-turn` over `views`, compiled with `checks` only.
pub fn time_per_move(bot_path: &Path, views: &[View], checks: Checks) -> Result<Sample> {
    let mut config = engine_config(&ArenaOptions::default());
    config.consume_fuel(checks.fuel).epoch_interruption(checks.epochs);
    let engine = Engine::new(&config)?;
    let component = Component::from_file(&engine, bot_path)
        .map_err(anyhow::Error::from)
        .with_context(|| format!("cannot compile {}", bot_path.display()))?;
    let mut linker = Linker::new(&engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
    // The search never logs; anything else it imports would trap rather than run unlinked.
    linker.define_unknown_imports_as_traps(&component)?;
    let mut store = Store::new(&engine, Plain { ctx: WasiCtx::builder().build(), table: ResourceTable::new() });
    if checks.fuel {
        store.set_fuel(u64::MAX)?;
    }
    if checks.epochs {
        // The epoch never advances here: every check runs and none fires.
        store.set_epoch_deadline(u64::MAX);
    }
    let bot = block_on(std::pin::pin!(azul_raw::Bot::instantiate_async(&mut store, &component, &linker)))?;
    let info = TurnInfo { turn: 0, turn_fuel_remaining: 1 << 30, game_fuel_remaining: 1 << 60, missed_turns: 0 };
    let wit_views: Vec<_> = views.iter().map(|view| azul_raw::view(view, info)).collect();
    // The rows time the search itself: each engine's code must choose what the native code does.
    for (view, wit_view) in views.iter().zip(&wit_views) {
        let answer = block_on(std::pin::pin!(bot.arena_azul_player().call_take_turn(&mut store, wit_view)))?;
        ensure!(
            AzulBinding::decode(answer).ok() == azul_search::choose(view),
            "the search compiled with {} disagrees with native code on {view:?}",
            checks.label()
        );
    }
    let sample = measure(|| {
        for view in &wit_views {
            let call = bot.arena_azul_player().call_take_turn(&mut store, view);
            black_box(block_on(std::pin::pin!(call))?);
        }
        Ok(())
    })?;
    Ok(sample.per(views.len()))
}
