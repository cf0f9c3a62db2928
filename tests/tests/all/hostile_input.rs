//! What an operator feeds the host that it did not write: corrupted bot files and replay files
//! never panic the host (they get typed errors), and a bot that defeats fuel metering is still
//! stopped by the wall-clock backstop (docs/design.md#wall-clock-backstop, "Wall-clock backstop").

use arena_azul::Azul;
use arena_game::{new_rng, rng_below};
use arena_host::bindings::azul::AzulBinding;
use arena_host::fault::{ForfeitReason, Phase, TrapKind};
use arena_host::loader::load_bot_bytes;
use arena_host::replay::read_replay;
use arena_host::{BotFault, Budget};
use arena_tests::{arena, bot_path, play_azul, scratch, turns_of, workspace_root};
use std::path::Path;

/// "Wall-clock backstop ... a bot that hits it is handled as a trap, and the replay says so":
/// with fuel budgets too large to ever run out, a bot that never returns is stopped by the
/// epoch deadline each time (a trap), and forfeits at the trap limit (2 here, to keep it short).
/// (The outcome does not depend on timing: the loop
/// never ends, so only the backstop can end it.)
#[test]
fn the_backstop_stops_a_call_that_fuel_cannot() {
    let budget = Budget { turn_fuel: 1 << 50, game_fuel: 1 << 52, backstop_ms: 50, max_traps: 2, ..Budget::default() };
    let record = play_azul(["fx-loop-forever", "azul-greedy"], 0, budget);
    let trapped = BotFault::Trapped { phase: Phase::Turn, trap: TrapKind::WallClockBackstop };
    let faults: Vec<_> = turns_of(&record, 0).into_iter().map(|turn| turn.faults.clone()).collect();
    assert_eq!(faults[0], std::slice::from_ref(&trapped));
    assert_eq!(faults[1], [trapped, BotFault::Forfeit { reason: ForfeitReason::TooManyTraps }]);
    assert_eq!(faults.len(), 2);
    assert_eq!(record.result.winner, Some(1));
}

/// Deterministic corruptions of `bytes`: single byte flips, truncations, and spliced garbage.
fn corruptions(bytes: &[u8], count: u32) -> Vec<Vec<u8>> {
    let mut rng = new_rng(0xbad_f11e);
    (0..count)
        .map(|i| {
            let mut corrupt = bytes.to_vec();
            let at = rng_below(&mut rng, bytes.len() as u32) as usize;
            match i % 3 {
                0 => corrupt[at] ^= 1 << rng_below(&mut rng, 8),
                1 => corrupt.truncate(at),
                _ => {
                    for byte in corrupt.iter_mut().skip(at).take(16) {
                        *byte = rng_below(&mut rng, 256) as u8;
                    }
                }
            }
            corrupt
        })
        .collect()
}

/// Untrusted input: a corrupted bot file is refused with a typed error or, if it still happens
/// to be a valid component for the world, loaded; it never panics the host.
#[test]
fn corrupted_bot_files_never_panic_the_loader() {
    let bytes = std::fs::read(bot_path("azul-random")).unwrap();
    let mut refused = 0;
    for corrupt in corruptions(&bytes, 48) {
        if load_bot_bytes::<AzulBinding>(arena(), Path::new("corrupt.wasm"), &corrupt).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 24, "most corruptions are refused ({refused} of 48)");
}

/// Untrusted input: a corrupted replay file is a typed error, never a panic.
#[test]
fn corrupted_replays_never_panic_the_reader() {
    let path = workspace_root().join("tests/golden/azul-reference-seed-1.json");
    let bytes = std::fs::read(&path).unwrap();
    let scratch = scratch("corrupt-replay.json");
    let mut refused = 0;
    for corrupt in corruptions(&bytes, 300) {
        std::fs::write(&scratch, &corrupt).unwrap();
        if read_replay::<Azul>(&scratch).is_err() {
            refused += 1;
        }
    }
    std::fs::remove_file(&scratch).ok();
    assert!(refused > 150, "most corruptions are refused ({refused} of 300)");
}

/// Untrusted input: a corrupted `wasm32-wasip1` command is wrapped into a component or refused
/// with a typed error by the preview1 adapter path; it never panics the host.
#[test]
fn corrupted_wasip1_commands_never_panic_the_wrapper() {
    use arena_host::protocol::wasip1::wrap_preview1_command;
    let bytes = std::fs::read(bot_path("paint-stdio-random-wasip1")).unwrap();
    assert!(matches!(wrap_preview1_command(Path::new("ok.wasm"), &bytes), Ok(Some(_))), "the real one wraps");
    let mut refused = 0;
    for corrupt in corruptions(&bytes, 48) {
        if !matches!(wrap_preview1_command(Path::new("corrupt.wasm"), &corrupt), Ok(Some(_))) {
            refused += 1;
        }
    }
    assert!(refused > 24, "most corruptions are refused ({refused} of 48)");
}
