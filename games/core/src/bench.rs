//! The benchmarks' goal lines (`cargo xtask bench`), written once for every benchmark binary:
//! [`verdict`] prints a measurement against its goal and, when the environment names a results
//! file ([`RESULTS_ENV`], which `cargo xtask bench --write` sets), appends it there as one line
//! of tab-separated fields, from which the table of `docs/performance.md` is written. Measured
//! figures are wall-clock timings of a shared machine: they live here and in that table, never
//! in a test.

use std::io::Write as _;

/// The environment variable naming the results file (appended to, one line per verdict).
pub const RESULTS_ENV: &str = "ARENA_BENCH_RESULTS";

/// Prints `label`'s measurement `value` against `goal` and records it; `met` says whether the
/// goal was met (`None`: not applicable on this machine, e.g. scaling on one core).
pub fn verdict(label: &str, value: &str, goal: &str, met: Option<bool>) {
    let status = match met {
        Some(true) => "met",
        Some(false) => "MISSED",
        None => "n/a",
    };
    println!("  {label:<50} {value:>10}  target {goal}: {status}");
    let Some(path) = std::env::var_os(RESULTS_ENV) else { return };
    // Tabs and line breaks would split the record; none of the labels has any.
    let clean = |text: &str| text.replace(['\t', '\n'], " ");
    // The console's indentation is not part of the name.
    let line = format!("{}\t{}\t{}\t{status}\n", clean(goal), clean(label.trim()), clean(value.trim()));
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    if let Err(err) = written {
        eprintln!("cannot record the result in {}: {err}", std::path::Path::new(&path).display());
    }
}
