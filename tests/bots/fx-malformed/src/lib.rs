//! `fx-malformed`: a bot written against the raw component ABI, whose first instance answers
//! an action whose colour is discriminant 9 (the enum has 5 cases); an instance started after
//! a restart answers `source 0, colour 0, line 5` (well formed; the game judges it).
//!
//! docs/design.md#memory-and-sizes, "Memory and sizes: ... a bot's answer ... the host cannot lift
//! (a bad enum value) is an invalid action, not a trap": the first answer is an `InvalidAction {
//! Malformed }` with no trap counted, the instance is replaced (wasmtime cannot re-enter it after a
//! failed lift), and the next instance's answers are decoded.
//!
//! The bindings are generated only for the component type they describe; the two exports are
//! written by hand with the canonical ABI's flat signatures, so any bytes can be answered.

#![allow(unsafe_code)] // raw canonical-ABI exports, the point of this fixture

/// The component type (and `cabi_realloc`) of the Azul world.
#[allow(missing_docs, dead_code, clippy::all)]
mod bindings {
    wit_bindgen::generate!({
        path: "../../../wit/azul",
        world: "arena:azul/bot@0.2.0",
        generate_all,
    });
}

use std::sync::atomic::{AtomicU32, Ordering};

/// The restart count `init` was given.
static RESTART: AtomicU32 = AtomicU32::new(0);

/// The return area of `take-turn`: `action { source: u8, colour: colour, line: u8 }`.
static mut ANSWER: [u8; 4] = [0; 4];

/// `init: func(info: init-info)`, flattened: seat, players, restart-count, seed, turn-fuel,
/// game-fuel, game-fuel-remaining.
#[unsafe(export_name = "arena:azul/player@0.2.0#init")]
pub extern "C" fn init(_seat: i32, _players: i32, restart_count: i32, _seed: i64, _turn: i64, _game: i64, _left: i64) {
    // Keeps `cabi_realloc` (the host lowers the view through it) and the component type.
    bindings::__link_custom_section_describing_imports();
    RESTART.store(restart_count as u32, Ordering::Relaxed);
}

/// `take-turn: func(view: view) -> action`: the view is passed by pointer (too many flat
/// values), the action returned through a pointer to its return area.
#[unsafe(export_name = "arena:azul/player@0.2.0#take-turn")]
pub extern "C" fn take_turn(_view: *mut u8) -> *mut u8 {
    let colour = if RESTART.load(Ordering::Relaxed) == 0 { 9 } else { 0 };
    let answer = &raw mut ANSWER;
    // SAFETY: the return area is only touched here, by the one thread a wasm instance has.
    unsafe {
        (*answer) = [0, colour, 5, 0];
        answer.cast()
    }
}
