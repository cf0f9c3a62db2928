//! Slurm batch scripts for a plan (`arena tournament emit slurm`): a job array with one shard of
//! the plan per array task, and the merge job that follows it.
//!
//! Each array task runs `arena tournament run-plan PLAN --shard $SLURM_ARRAY_TASK_ID/N` into its
//! own database in the shared results folder. A shard's run is idempotent (a finished shard exits
//! at once, a half-finished one resumes), so Slurm may requeue or rerun any task (`--requeue`:
//! a node failure or preemption puts the task back in the queue). The merge job
//! (`--dependency=afterany` on the array) merges whatever shard databases exist and writes the
//! array indices of the shards with missing matches, comma-separated as `sbatch --array=` takes
//! them, to `missing-shards.txt`: an operator resubmits exactly those with
//! `sbatch --array=$(cat RESULTS/missing-shards.txt) shards.sbatch`, then reruns the merge.

use std::path::Path;

/// What the scripts run, and where.
#[derive(Debug, Clone)]
pub struct SlurmJob<'a> {
    /// The `arena` executable the nodes run (on a shared file system, or on every node's PATH).
    pub arena: &'a Path,
    /// The plan file (`arena tournament plan`), readable from every node.
    pub plan: &'a Path,
    /// The shared folder for the shard databases, their logs and the merged database.
    pub results: &'a Path,
    /// Shards: array tasks `0..shards`.
    pub shards: usize,
    /// At most this many tasks at once (`%P`), if set.
    pub parallel: Option<usize>,
    /// CPUs per task: the matches each shard plays at once.
    pub cpus_per_task: usize,
    /// A name for the jobs (`arena-<name>` and `arena-<name>-merge`).
    pub name: &'a str,
}

/// A path as one single-quoted shell word (a `'` inside is closed, escaped and reopened).
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// The array job's batch script: one shard of the plan per task.
pub fn shards_script(job: &SlurmJob<'_>) -> String {
    let last = job.shards.saturating_sub(1);
    let throttle = job.parallel.map(|parallel| format!("%{parallel}")).unwrap_or_default();
    let results = quoted(job.results);
    format!(
        "#!/usr/bin/env bash
# Wasm Arena: the tournament of {plan}, as {shards} shards, one per array task
# (`arena tournament emit slurm`). Each task plays its shard into its own database in {results};
# rerunning a task resumes it, and a finished shard exits at once, so Slurm may requeue any task.
#SBATCH --job-name=arena-{name}
#SBATCH --array=0-{last}{throttle}
#SBATCH --requeue
#SBATCH --cpus-per-task={cpus}
#SBATCH --output={results_raw}/shard-%a.log
#SBATCH --open-mode=append
set -euo pipefail
mkdir -p {results}
exec {arena} tournament run-plan {plan} --shard \"${{SLURM_ARRAY_TASK_ID}}/{shards}\" \\
    --db {results}/\"shard-${{SLURM_ARRAY_TASK_ID}}.sqlite\" --jobs \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"
",
        plan = quoted(job.plan),
        shards = job.shards,
        name = job.name,
        cpus = job.cpus_per_task,
        results_raw = job.results.display(),
        arena = quoted(job.arena),
    )
}

/// The merge job's batch script: submit it with `--dependency=afterany:<array job id>`.
pub fn merge_script(job: &SlurmJob<'_>) -> String {
    let results = quoted(job.results);
    format!(
        "#!/usr/bin/env bash
# Wasm Arena: merges the shard databases of {plan} into {results}/all.sqlite once every array
# task has ended (`sbatch --dependency=afterany:<array job id>`). Shards with missing matches are
# written to {results}/missing-shards.txt as `sbatch --array=` takes them (empty: complete).
#SBATCH --job-name=arena-{name}-merge
#SBATCH --output={results_raw}/merge.log
#SBATCH --open-mode=append
set -uo pipefail
cd {results}
rm -f all.sqlite
{arena} tournament merge shard-*.sqlite -o all.sqlite --missing-shards > missing-shards.txt
status=$?
if [ -s missing-shards.txt ]; then
    echo \"shards with missing matches: $(cat missing-shards.txt); resubmit them with sbatch --array=$(cat missing-shards.txt)\" >&2
fi
exit $status
",
        plan = quoted(job.plan),
        name = job.name,
        results_raw = job.results.display(),
        arena = quoted(job.arena),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job<'a>(results: &'a Path) -> SlurmJob<'a> {
        SlurmJob {
            arena: Path::new("/opt/arena/bin/arena"),
            plan: Path::new("/shared/plan.jsonl"),
            results,
            shards: 8,
            parallel: Some(3),
            cpus_per_task: 2,
            name: "cup",
        }
    }

    #[test]
    fn the_array_runs_one_shard_per_task() {
        let results = Path::new("/shared/results");
        let script = shards_script(&job(results));
        assert!(script.starts_with("#!/usr/bin/env bash\n"));
        for line in ["#SBATCH --array=0-7%3", "#SBATCH --requeue", "#SBATCH --cpus-per-task=2"] {
            assert!(script.lines().any(|l| l == line), "{line} in\n{script}");
        }
        assert!(script.contains("'/opt/arena/bin/arena' tournament run-plan '/shared/plan.jsonl'"), "{script}");
        assert!(script.contains("--shard \"${SLURM_ARRAY_TASK_ID}/8\""), "{script}");
        assert!(script.contains("--db '/shared/results'/\"shard-${SLURM_ARRAY_TASK_ID}.sqlite\""), "{script}");
        let unthrottled = shards_script(&SlurmJob { parallel: None, ..job(results) });
        assert!(unthrottled.lines().any(|l| l == "#SBATCH --array=0-7"), "{unthrottled}");
    }

    #[test]
    fn the_merge_writes_the_missing_shards() {
        let script = merge_script(&job(Path::new("/shared/results")));
        assert!(script.contains("tournament merge shard-*.sqlite -o all.sqlite --missing-shards > missing-shards.txt"));
        assert!(script.contains("cd '/shared/results'"), "{script}");
    }

    #[test]
    fn quotes_survive_in_paths() {
        assert_eq!(quoted(Path::new("/a b/it's")), r"'/a b/it'\''s'");
    }
}
