//! What a merge found, for people: `arena tournament merge` and `arena tournament collect`
//! print it the same way.

use arena_tournament::merge::MergeReport;
use std::path::Path;
use std::process::ExitCode;

/// Prints what a merge (or a `collect`) found; success when every planned match is present and
/// no copies differ. With `missing_shards`, stdout is only the indices of shards to run again.
pub fn print_merge_report(report: &MergeReport, output: &Path, missing_shards: bool) -> ExitCode {
    if missing_shards {
        let shards: Vec<String> = report.missing.keys().flatten().map(usize::to_string).collect();
        if !shards.is_empty() {
            outln!("{}", shards.join(","));
        }
        if report.missing.contains_key(&None) {
            eprintln!("some shard databases do not say which shard they hold: their missing matches have no index");
        }
    }
    for (id, first, second) in &report.mismatches {
        eprintln!("determinism failure: match {id} differs between {first} and {second}");
    }
    for (shard, ids) in &report.missing {
        let shard = shard.map_or_else(|| "unknown shard".to_owned(), |shard| format!("shard {shard}"));
        eprintln!("{shard}: {} planned matches missing (first: {})", ids.len(), ids[0]);
    }
    eprintln!(
        "{} planned, {} merged into {}, {} identical duplicates, {} missing, {} differing",
        report.planned,
        report.merged,
        output.display(),
        report.duplicates,
        report.missing.values().map(Vec::len).sum::<usize>(),
        report.mismatches.len()
    );
    if report.complete() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
