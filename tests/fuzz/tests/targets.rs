//! The fuzz targets' own checks: every target takes edge inputs, the samples the mutations
//! start from are valid, and the loader's templates get as deep into the loader as they claim.

use arena_fuzz::loader::{PREVIEW1_COMMAND, WRONG_TYPES};
use arena_fuzz::{TARGETS, find_target, scratch_dir};
use arena_host::LoadError;
use arena_host::bindings::azul::AzulBinding;
use arena_host::loader::{
    COMMAND_EXPORT, Loader, compile, load_bot_component, load_command_component, load_preview1_command, sha256,
};
use arena_host::protocol::wasip1::wrap_preview1_command;
use arena_host::runtime::Arena;
use std::path::Path;

/// Every target takes the edge inputs (empty, all zeros, all ones, a counting pattern) without
/// a finding, and names are unique (the runner finds targets by name).
#[test]
fn every_target_takes_edge_inputs() {
    let counting: Vec<u8> = (0..=255).cycle().take(4096).collect();
    for target in TARGETS {
        for input in [&[][..], &[0; 512][..], &[0xff; 512][..], &counting[..target.max_len.min(counting.len())]] {
            (target.run)(input);
        }
        assert_eq!(find_target(target.name).map(|found| found.name), Some(target.name));
    }
    let mut names: Vec<&str> = TARGETS.iter().map(|target| target.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), TARGETS.len(), "target names are not unique");
    let _ = std::fs::remove_dir_all(scratch_dir());
}

/// Every registered game's sample replay is played and has turns, and the golden one is there
/// too.
#[test]
fn every_game_has_a_valid_sample_replay() {
    let summary = arena_fuzz::replay::sample_summary();
    let mut games: Vec<&str> = summary.iter().map(|(game, _)| game.as_str()).collect();
    // The last is the golden Azul replay; the others are one per registered game.
    assert_eq!(games.pop(), Some("azul"));
    games.sort_unstable();
    let mut registered = arena_host::registry::game_names();
    registered.sort_unstable();
    assert_eq!(games, registered, "one played sample per registered game (tests/fuzz/src/engines.rs)");
    assert!(summary.iter().all(|(_, turns)| *turns > 0), "{summary:?}");
}

/// The command template is a preview1 command the loader wraps and accepts (and runs natively); the wrong-types
/// template is refused for its types: so their edits start from files deep in the loader.
#[test]
fn loader_templates_are_what_they_claim() {
    let arena = Arena::new().unwrap_or_else(|err| panic!("{err}"));
    let path = Path::new("t.wasm");
    let command = wat::parse_str(PREVIEW1_COMMAND).unwrap_or_default();
    let wrapped = wrap_preview1_command(path, &command).ok().flatten().unwrap_or_default();
    let compiled =
        compile(&Loader::for_any_match(&arena), path, &wrapped, COMMAND_EXPORT).unwrap_or_else(|err| panic!("{err}"));
    assert!(load_command_component(&arena, path, compiled).is_ok());
    // The fuzz target also loads every preview1 command as a Go program is loaded.
    let native = load_preview1_command(&Loader::for_any_match(&arena), path, &command, &sha256(&command));
    assert!(native.is_ok(), "{:?}", native.err());
    let wrong = wat::parse_str(WRONG_TYPES).unwrap_or_default();
    let compiled =
        compile(&Loader::for_any_match(&arena), path, &wrong, COMMAND_EXPORT).unwrap_or_else(|err| panic!("{err}"));
    let refused = load_bot_component::<AzulBinding>(&arena, path, compiled).err();
    assert!(matches!(refused, Some(LoadError::WrongTypes { .. })), "{refused:?}");
}
