//! Merging results of one plan (`arena tournament merge` of shard databases, and `collect` of a
//! NATS results stream) into one database, checking that every planned match is present,
//! reporting the missing ones by shard, and comparing a match found twice field by field: a match
//! is a pure function of its spec, so two different results for one id are a determinism
//! failure, reported, never resolved by picking one. [`Merger`] is that, for results from
//! anywhere; [`merge`] feeds it shard databases.

use super::store::{Store, StoreError, StoredMatch, StoredPlan};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why shards cannot be merged at all.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An input holds no tournament, or another tournament than the first input.
    #[error("{0}")]
    Inputs(String),
}

/// What a merge found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MergeReport {
    /// Matches planned.
    pub planned: usize,
    /// Distinct matches copied into the output.
    pub merged: usize,
    /// Matches found in more than one input, identical.
    pub duplicates: usize,
    /// Planned matches no input has, by shard index (`None` when the inputs do not say).
    pub missing: BTreeMap<Option<usize>, Vec<String>>,
    /// Match ids whose results differ between inputs, with the inputs that differ.
    pub mismatches: Vec<(String, String, String)>,
}

impl MergeReport {
    /// Every planned match is present, none differs.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.mismatches.is_empty()
    }
}

/// Merges `inputs` (shard databases of one plan) into the new database `output`.
pub fn merge(inputs: &[PathBuf], output: &Path) -> Result<MergeReport, MergeError> {
    if output.exists() {
        return Err(MergeError::Inputs(format!("{} exists: a merge writes a new database", output.display())));
    }
    let mut plan: Option<StoredPlan> = None;
    let mut shard_count: Option<usize> = None;
    let mut sources = Vec::new();
    for input in inputs {
        if !input.is_file() {
            return Err(MergeError::Inputs(format!("{} does not exist", input.display())));
        }
        let store = Store::open(input)?;
        let stored = store
            .stored_plan()?
            .ok_or_else(|| MergeError::Inputs(format!("{} holds no tournament", input.display())))?;
        if let Some(first) = &plan
            && first.digest != stored.digest
        {
            return Err(MergeError::Inputs(format!(
                "{} holds another tournament than {} (another plan)",
                input.display(),
                inputs[0].display()
            )));
        }
        let count = stored.shard.as_deref().and_then(|shard| shard.split_once('/')).and_then(|(_, n)| n.parse().ok());
        shard_count = shard_count.or(count);
        plan = Some(match plan {
            None => stored,
            Some(mut merged) => {
                for bot in stored.bots {
                    if !merged.bots.iter().any(|known| known.0 == bot.0) {
                        merged.bots.push(bot);
                    }
                }
                merged
            }
        });
        sources.push((input.clone(), store));
    }
    let Some(plan) = plan else { return Err(MergeError::Inputs("no input database".into())) };
    let mut merger = Merger::new(output, plan)?;
    for (input, store) in &sources {
        let source = input.display().to_string();
        for stored in store.stored_matches()? {
            merger.add(stored, &source)?;
        }
    }
    Ok(merger.finish(shard_count))
}

/// Results of one plan going into a new database, each id once, duplicates compared.
pub struct Merger {
    out: Store,
    plan: StoredPlan,
    report: MergeReport,
    /// Every id copied, with the result and where it came from.
    seen: BTreeMap<String, (StoredMatch, String)>,
}

impl Merger {
    /// Starts the new database `output` (it must not exist) with `plan`.
    pub fn new(output: &Path, plan: StoredPlan) -> Result<Merger, MergeError> {
        if output.exists() {
            return Err(MergeError::Inputs(format!("{} exists: a merge writes a new database", output.display())));
        }
        let mut out = Store::open(output)?;
        out.write_plan(&plan)?;
        let report = MergeReport { planned: plan.match_ids.len(), ..MergeReport::default() };
        Ok(Merger { out, plan, report, seen: BTreeMap::new() })
    }

    /// Adds a result found in `source`: copied if its id is new, else compared with the copy.
    pub fn add(&mut self, stored: StoredMatch, source: &str) -> Result<(), MergeError> {
        match self.seen.get(&stored.id) {
            Some((first, first_source)) if !first.agrees_with(&stored) => {
                self.report.mismatches.push((stored.id.clone(), first_source.clone(), source.to_owned()));
            }
            Some(_) => self.report.duplicates += 1,
            None => {
                // A copy is expected here (shards run twice, a NATS message delivered again), so
                // it is compared and counted above; the store would refuse it.
                self.out.insert_stored(&stored)?;
                self.report.merged += 1;
                self.seen.insert(stored.id.clone(), (stored, source.to_owned()));
            }
        }
        Ok(())
    }

    /// What the merge found; a planned match no source had is missing, filed under its shard
    /// when the plan was played in `shard_count` shards.
    pub fn finish(mut self, shard_count: Option<usize>) -> MergeReport {
        for (ordinal, id) in self.plan.match_ids.iter().enumerate() {
            if !self.seen.contains_key(id) {
                self.report.missing.entry(shard_count.map(|count| ordinal % count)).or_default().push(id.clone());
            }
        }
        self.report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, turns: i64) -> StoredMatch {
        StoredMatch {
            id: id.into(),
            spec: "{}".into(),
            played: true,
            detail: None,
            turns: Some(turns),
            winner: Some(0),
            result: Some("{}".into()),
            replay_digest: Some("blake3:aa".into()),
            seat_turns: Some("[1,1]".into()),
        }
    }

    /// A new database path and a plan of matches `m1` and `m2`.
    fn output(name: &str) -> (PathBuf, StoredPlan) {
        let path = std::env::temp_dir().join(format!("arena-merge-{name}-{}.sqlite", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        let plan =
            StoredPlan { digest: "d".into(), match_ids: vec!["m1".into(), "m2".into()], bots: Vec::new(), shard: None };
        (path, plan)
    }

    /// Obeyed: a result found twice (a shard run twice, a NATS message delivered again) is
    /// copied once and counted as a duplicate: planned and merged agree.
    #[test]
    fn a_result_found_twice_is_copied_once_and_counted() {
        let (path, plan) = output("twice");
        let mut merger = Merger::new(&path, plan).unwrap();
        merger.add(result("m1", 5), "a").unwrap();
        merger.add(result("m2", 6), "a").unwrap();
        merger.add(result("m1", 5), "b").unwrap();
        let report = merger.finish(None);
        assert_eq!((report.planned, report.merged, report.duplicates), (2, 2, 1));
        assert!(report.complete(), "{report:?}");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.progress("d").unwrap(), (2, 2, 0));
        assert_eq!(store.stored_matches().unwrap().len(), 2);
    }

    /// Violated: a second result for one id that says another thing is a determinism failure,
    /// named, and not copied.
    #[test]
    fn a_result_that_differs_is_a_mismatch_and_not_copied() {
        let (path, plan) = output("differs");
        let mut merger = Merger::new(&path, plan).unwrap();
        merger.add(result("m1", 5), "a").unwrap();
        merger.add(result("m1", 7), "b").unwrap();
        let report = merger.finish(None);
        assert_eq!(report.mismatches, [("m1".to_owned(), "a".to_owned(), "b".to_owned())]);
        assert_eq!(report.merged, 1);
        assert_eq!(Store::open(&path).unwrap().stored_matches().unwrap(), [result("m1", 5)]);
    }
}
