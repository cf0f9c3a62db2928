//! Fuzz targets for everything a bot or a file can feed the host, on the stable toolchain.
//!
//! Every target is a plain `pub fn target(data: &[u8])` that must never panic, whatever the
//! bytes: a panic is a finding. The bytes are read through [`arbitrary::Unstructured`], so each
//! target can be wrapped as a cargo-fuzz (libFuzzer) target in three lines
//! (`fuzz_target!(|data: &[u8]| arena_fuzz::engines::azul(data));`); here the `arena-fuzz`
//! binary feeds them seeded random buffers instead ([`TARGETS`] lists them).
//!
//! - [`engines`]: every engine's `check` and `step` with arbitrary configs and joint actions.
//! - [`replay`]: the replay reader `arena replay verify` uses, up to running the bots.
//! - [`protocols`]: every line protocol's answer and greeting-reply parsers, and the stdout
//!   line splitter in front of them.
//! - [`loader`]: the bot loader fed generated (wasm-smith) and mutated modules and components.
//! - [`mutate`]: the mutations shared by the text targets, which start from valid samples so
//!   that the inputs get past the first byte.

// A failed invariant is how a target reports a finding: panicking is its job.
#![allow(clippy::panic)]

pub mod engines;
pub mod loader;
pub mod mutate;
pub mod protocols;
pub mod replay;

use std::path::PathBuf;

/// One fuzz target.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// Its name on the command line.
    pub name: &'static str,
    /// The target itself: must not panic on any input.
    pub run: fn(&[u8]),
    /// Longest input the runner generates (the target caps its own work too).
    pub max_len: usize,
}

/// `TARGETS`: the engine targets, one per game of the harness's list (`engines::with_subjects!`,
/// named `engine-` and the game's name), then the others.
macro_rules! targets {
    ($(($name:literal, $function:ident, $engine:ty)),* $(,)?) => {
        /// Every target, in the order the runner runs them.
        pub const TARGETS: &[Target] = &[
            $(Target { name: concat!("engine-", $name), run: engines::$function, max_len: 2048 },)*
            Target { name: "replay", run: replay::replay_file, max_len: 1024 },
            Target { name: "protocol-azul", run: protocols::azul, max_len: 512 },
            Target { name: "protocol-paint", run: protocols::paint, max_len: 512 },
            Target { name: "protocol-suitebot", run: protocols::suitebot, max_len: 512 },
            Target { name: "loader", run: loader::loader, max_len: 8192 },
        ];
    };
}
engines::with_subjects!(targets);

/// The target called `name`.
pub fn find_target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|target| target.name == name)
}

/// The cargo target folder (`CARGO_TARGET_DIR`, else the workspace's `target`): failing inputs
/// and scratch files go under it.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
    }
}

/// This process's scratch folder, `target/tmp/arena-fuzz-<pid>` (created on first use; the
/// runner and the tests remove it when done).
pub fn scratch_dir() -> PathBuf {
    target_dir().join("tmp").join(format!("arena-fuzz-{}", std::process::id()))
}
