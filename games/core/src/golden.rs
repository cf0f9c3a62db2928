//! Golden files: a test renders something deterministic (a playthrough, a replay) and compares it
//! with a checked-in file, so any change to it shows up as a diff in review. Shared by every
//! engine's golden playthrough and the host's golden replays.

use std::path::Path;

/// Compares `got` with the file at `path`. With `UPDATE_GOLDEN=1` in the environment the file is
/// rewritten instead. Panics (this is test support) naming the first differing line and the
/// command that regenerates the file (`regenerate`, e.g. `cargo test -p arena-azul --test golden`).
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
