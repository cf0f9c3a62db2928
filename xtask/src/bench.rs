//! `cargo xtask bench [--write] [SECTION...]`: sets up, builds the bots and runs the benchmarks
//! (`cargo bench -p arena-cli --bench arena`, and Code Character's engine-only bench when no
//! section is named). With `--write`, every goal line the benchmarks print
//! (`arena_game::bench::verdict`) is recorded and the table of `docs/performance.md` rewritten:
//! one row per goal, the latest measurement and its date; rows of sections not run this time
//! are kept as they were.
//!
//! `cargo xtask soak [--matches N] [--workers N] [--nats] [--write]` is the benchmarks' `soak` section
//! (`benches/soak.rs`: ladder matches through a release `arena serve`, and the inputs of
//! `docs/scaling.md`), which only runs when named, with its size passed in the environment.

use crate::util::{cargo, run_command, target_dir};
use crate::{debian, rust_bots, setup};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// The document whose table `--write` rewrites, and the markers around the table.
const DOCUMENT: &str = "docs/performance.md";
const TABLE_START: &str = "<!-- bench table: written by `cargo xtask bench --write` -->";
const TABLE_END: &str = "<!-- end of bench table -->";
const HEADER: &str = "| measurement | goal | measured | status | on |\n| --- | --- | --- | --- | --- |";

/// The soak's settings: `benches/soak.rs`'s `MATCHES_ENV`, `WORKERS_ENV` and `NATS_ENV` (xtask
/// does not build the benchmarks).
const SOAK_MATCHES_ENV: &str = "ARENA_SOAK_MATCHES";
const SOAK_WORKERS_ENV: &str = "ARENA_SOAK_WORKERS";
const SOAK_NATS_ENV: &str = "ARENA_SOAK_NATS";
const SOAK_USAGE: &str = "usage: cargo xtask soak [--matches N] [--workers N] [--nats] [--write]";

pub fn bench(root: &Path, args: &[String]) -> Result<()> {
    let write = args.iter().any(|arg| arg == "--write");
    let sections: Vec<&str> = args.iter().map(String::as_str).filter(|arg| *arg != "--write").collect();
    if let Some(flag) = sections.iter().find(|section| section.starts_with('-')) {
        bail!("unknown option {flag}; usage: cargo xtask bench [--write] [SECTION...]");
    }
    run_benches(root, &sections, write, &[])
}

/// `cargo xtask soak [--matches N] [--workers N] [--nats] [--write]`: the `soak` section, N
/// matches (default 100,000) with N workers (default 2): the server's threads, or `arena
/// worker`s on a NATS server with `--nats` (Debian's `nats-server`, installed when missing).
pub fn soak(root: &Path, args: &[String]) -> Result<()> {
    let (mut matches, mut workers, mut write, mut nats) = ("100000".to_owned(), "2".to_owned(), false, false);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let target = match arg.as_str() {
            "--write" => {
                write = true;
                continue;
            }
            "--nats" => {
                nats = true;
                continue;
            }
            "--matches" => &mut matches,
            "--workers" => &mut workers,
            _ => bail!("unknown argument {arg:?}; {SOAK_USAGE}"),
        };
        let value = rest.next().with_context(|| format!("{arg} needs a count; {SOAK_USAGE}"))?;
        value.replace([',', '_'], "").parse::<u64>().with_context(|| format!("{arg} {value:?}: not a count"))?;
        *target = value.clone();
    }
    let mut env = vec![(SOAK_MATCHES_ENV, matches), (SOAK_WORKERS_ENV, workers)];
    if nats {
        debian::NATS.ensure()?;
        env.push((SOAK_NATS_ENV, "1".to_owned()));
    }
    run_benches(root, &["soak"], write, &env)
}

/// Sets up, builds the bots and runs the benchmarks' `sections` (every one but the soak when
/// none is named) with `env` set; with `write`, rewrites the table from what they measured.
fn run_benches(root: &Path, sections: &[&str], write: bool, env: &[(&str, String)]) -> Result<()> {
    setup(root)?;
    rust_bots::build_all(root)?;
    // The queue section (`benches/queue.rs`) starts a NATS server, as the cluster tests do.
    if sections.is_empty() || sections.iter().any(|section| "queue".contains(section)) {
        debian::NATS.ensure()?;
    }
    // The ladder section measures the API's latency with wrk from a second process.
    if sections.is_empty() || sections.iter().any(|section| "ladder".contains(section)) {
        debian::WRK.ensure()?;
    }
    let results = target_dir(root).join("bench-results.tsv");
    if results.exists() {
        std::fs::remove_file(&results).with_context(|| format!("cannot remove {}", results.display()))?;
    }
    let mut benches = vec![Command::new(cargo())];
    benches[0].args(["bench", "-p", "arena-cli", "--bench", "arena"]);
    benches[0].envs(env.iter().map(|(name, value)| (name, value)));
    if !sections.is_empty() {
        benches[0].arg("--").args(sections);
    } else {
        // Engine-only speed of the largest engine.
        let mut speed = Command::new(cargo());
        speed.args(["bench", "-p", "arena-code-character", "--bench", "speed"]);
        benches.push(speed);
    }
    for command in &mut benches {
        command.current_dir(root);
        if write {
            command.env(arena_game_results_env(), &results);
        }
        run_command(command)?;
    }
    if write {
        let recorded = std::fs::read_to_string(&results).unwrap_or_default();
        let document = root.join(DOCUMENT);
        let text = std::fs::read_to_string(&document).with_context(|| format!("cannot read {}", document.display()))?;
        let updated = rewrite_table(&text, &recorded, &today())?;
        std::fs::write(&document, updated).with_context(|| format!("cannot write {}", document.display()))?;
        eprintln!("wrote the table of {DOCUMENT} ({} measurements this run)", recorded.lines().count());
    }
    Ok(())
}

/// `arena_game::bench::RESULTS_ENV` (xtask does not build the game crates).
fn arena_game_results_env() -> &'static str {
    "ARENA_BENCH_RESULTS"
}

/// Today's date, `YYYY-MM-DD` (UTC), for the table's "on" column.
fn today() -> String {
    let output = Command::new("date").args(["-u", "+%F"]).output();
    output.ok().map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned()).unwrap_or_default()
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    label: String,
    goal: String,
    measured: String,
    status: String,
    on: String,
}

impl Row {
    fn markdown(&self) -> String {
        let cell = |text: &str| text.replace('|', "\\|");
        format!(
            "| {} | {} | {} | {} | {} |",
            cell(&self.label),
            cell(&self.goal),
            cell(&self.measured),
            cell(&self.status),
            self.on
        )
    }

    /// A row of the table as written by [`Row::markdown`].
    fn parse(line: &str) -> Option<Row> {
        let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
        let mut cells = Vec::new();
        let mut cell = String::new();
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'|') => cell.push(chars.next()?),
                '|' => cells.push(std::mem::take(&mut cell).trim().to_owned()),
                c => cell.push(c),
            }
        }
        cells.push(cell.trim().to_owned());
        let [label, goal, measured, status, on] = <[String; 5]>::try_from(cells).ok()?;
        Some(Row { label, goal, measured, status, on })
    }
}

/// `text` with its table holding `recorded`'s rows (tab-separated: goal, label, measured,
/// status) measured `on`, and the earlier rows no measurement of this run replaces.
fn rewrite_table(text: &str, recorded: &str, on: &str) -> Result<String> {
    let start = text.find(TABLE_START).with_context(|| format!("{DOCUMENT} has no line {TABLE_START}"))?;
    let end = text.find(TABLE_END).with_context(|| format!("{DOCUMENT} has no line {TABLE_END}"))?;
    let body = &text[start + TABLE_START.len()..end];
    // The header's two lines are not rows.
    let mut rows: Vec<Row> =
        body.lines().skip_while(|line| !line.starts_with("| ---")).skip(1).filter_map(Row::parse).collect();
    for line in recorded.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [goal, label, measured, status] = fields[..] else { bail!("a malformed result line: {line:?}") };
        let row = Row {
            label: label.into(),
            goal: goal.into(),
            measured: measured.into(),
            status: status.into(),
            on: on.into(),
        };
        match rows.iter_mut().find(|old| old.label == row.label) {
            Some(old) => *old = row,
            None => rows.push(row),
        }
    }
    let table: Vec<String> = rows.iter().map(Row::markdown).collect();
    Ok(format!("{}{TABLE_START}\n{HEADER}\n{}\n{}", &text[..start], table.join("\n"), &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_replaces_its_rows_keeps_the_others_and_adds_new_ones() {
        let document = format!(
            "intro\n{TABLE_START}\n{HEADER}\n| a \\| b | <= 1 | 2 | MISSED | 2026-01-01 |\n| c | >= 5 | 6 | met | 2026-01-01 |\n{TABLE_END}\nnotes\n"
        );
        let recorded = "<= 1\ta | b\t0.5\tmet\n< 3\td\t1\tmet\n";
        let written = rewrite_table(&document, recorded, "2026-11-27").unwrap();
        assert_eq!(
            written,
            format!(
                "intro\n{TABLE_START}\n{HEADER}\n| a \\| b | <= 1 | 0.5 | met | 2026-11-27 |\n| c | >= 5 | 6 | met | 2026-01-01 |\n| d | < 3 | 1 | met | 2026-11-27 |\n{TABLE_END}\nnotes\n"
            )
        );
        // Written twice, the table is the same.
        assert_eq!(rewrite_table(&written, recorded, "2026-11-27").unwrap(), written);
        assert!(rewrite_table("no table", recorded, "x").is_err());
        assert!(rewrite_table(&document, "one field", "x").is_err());
    }
}
