//! Golden files: a test renders something deterministic (a playthrough, a replay) and compares it
//! with a checked-in file, so any change to it shows up as a diff in review. Shared by every
//! engine's golden playthrough and the host's golden replays.
//!
//! A golden playthrough (OpenSpiel's playthrough files are the model) is one fixed match of a
//! game under a fixed policy, written out by one writer, [`write_playthrough`]: the header, the
//! state at the start, every step's answers and events, the state now and then, the outcome. A
//! game supplies only its [`Playthrough`]: the match, the policy and how a step's answers read.

use crate::{Game, Seat};
use std::fmt::{Display, Write as _};
use std::path::Path;

/// One game's golden playthrough: what [`write_playthrough`] asks of it.
pub trait Playthrough {
    /// The game; its state and its events print as the file shows them.
    type Game: Game<Event: Display> + Display;
    /// What the file says about the match and the policy, one header line each (without `# `).
    fn header(&self) -> Vec<String>;
    /// The match at its start.
    fn new_game(&self) -> Self::Game;
    /// The joint answer of step `step` (counted from 1), chosen by the policy and written to
    /// `out` as the file shows it (the step's opening lines).
    fn answers(
        &mut self,
        game: &Self::Game,
        step: usize,
        out: &mut String,
    ) -> Vec<(Seat, Option<<Self::Game as Game>::Action>)>;
    /// Writes the events of a step: by default each on its own line, indented by two spaces.
    fn write_events(&self, events: &[<Self::Game as Game>::Event], out: &mut String) {
        for event in events {
            let _ = writeln!(out, "  {event}");
        }
    }
    /// Whether the state is written after step `step`, whose events were `events`.
    fn shows_state(&self, game: &Self::Game, step: usize, events: &[<Self::Game as Game>::Event]) -> bool;
}

/// Plays `playthrough`'s match to its end and writes it out; `regenerate` is the command that
/// rewrites its file (the header's last line). Panics (this is test support) if a checked answer
/// is refused or an invariant breaks.
#[allow(clippy::panic)]
pub fn write_playthrough<P: Playthrough>(mut playthrough: P, regenerate: &str) -> String {
    let mut game = playthrough.new_game();
    let mut out = String::new();
    for line in playthrough.header() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "# Regenerate with UPDATE_GOLDEN=1 {regenerate}");
    let _ = writeln!(out, "\n{game}");
    let mut step = 0;
    while !game.is_over() {
        step += 1;
        let answers = playthrough.answers(&game, step, &mut out);
        let events = game.step(&answers).unwrap_or_else(|err| panic!("step {step}: {err}"));
        if let Err(broken) = game.check_invariants() {
            panic!("step {step}: invariant broken: {broken}");
        }
        playthrough.write_events(&events, &mut out);
        if playthrough.shows_state(&game, step, &events) {
            let _ = writeln!(out, "{game}");
        }
    }
    let outcome = game.outcome();
    let _ = writeln!(out, "\noutcome: scores {:?}, ranks {:?}", outcome.scores, outcome.ranks);
    out
}

/// Writes the playthrough `make` gives twice (they must agree: the match is deterministic) and
/// compares it with the golden file at `path` ([`check_golden`]); `regenerate` is the test's own
/// command, e.g. `cargo test -p arena-azul --test all golden::`.
#[allow(clippy::panic)]
pub fn check_playthrough<P: Playthrough>(make: impl Fn() -> P, path: &Path, regenerate: &str) {
    let got = write_playthrough(make(), regenerate);
    if got != write_playthrough(make(), regenerate) {
        panic!("the playthrough of {} is not deterministic", path.display());
    }
    check_golden(path, &got, regenerate);
}

/// Compares `got` with the file at `path`. With `UPDATE_GOLDEN=1` in the environment the file is
/// rewritten instead. Panics (this is test support) naming the first differing line and the
/// command that regenerates the file (`regenerate`, e.g. `cargo test -p arena-azul --test all golden::`).
#[allow(clippy::panic)]
pub fn check_golden(path: &Path, got: &str, regenerate: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|value| value == "1") {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        if let Err(err) = std::fs::write(path, got) {
            panic!("cannot write {}: {err}", path.display());
        }
        return;
    }
    let want = std::fs::read_to_string(path).unwrap_or_default();
    if got == want {
        return;
    }
    let line = got
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .map_or_else(|| got.lines().count().min(want.lines().count()) + 1, |index| index + 1);
    panic!(
        "{} differs from this run (first at line {line}).\n\
         If the change is intended, regenerate it and review the diff:\n    \
         UPDATE_GOLDEN=1 {regenerate}\n\
         got line:  {:?}\nwant line: {:?}",
        path.display(),
        got.lines().nth(line - 1),
        want.lines().nth(line - 1),
    );
}
