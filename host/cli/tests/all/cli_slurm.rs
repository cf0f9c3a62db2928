//! `arena tournament emit slurm`, with bash standing in for
//! Slurm: every array task's script run with its `SLURM_ARRAY_TASK_ID`, one task left out, the
//! merge job's script names exactly that shard for resubmission, and once it has run the merged
//! leaderboard equals a single-process run. (The same scripts under a real slurmctld and slurmd:
//! `cluster_slurm.rs`.) Needs the example bots (`cargo xtask bots`).

use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use std::path::Path;
use std::process::Command;

/// Runs a batch script with bash, as Slurm would run it for array task `task` (if any).
fn run_script(script: &Path, task: Option<usize>, dir: &Path) -> std::process::Output {
    let mut command = Command::new("bash");
    command.arg(script).current_dir(dir);
    if let Some(task) = task {
        command.env("SLURM_ARRAY_TASK_ID", task.to_string()).env("SLURM_CPUS_PER_TASK", "1");
    }
    command.output().unwrap()
}

/// Writes a round robin of `bots` on `seeds` into `dir` (`spec.toml`), plays it in one process
/// into `single.sqlite` and plans it into `plan.jsonl`; returns the single run's leaderboard
/// (JSON) and the number of planned matches.
pub fn planned_round_robin(dir: &Path, bots: &[&str], seeds: &str) -> (String, usize) {
    let listed: Vec<String> = bots.iter().map(|name| format!("{:?}", bot(name))).collect();
    let spec = dir.join("spec.toml");
    let body =
        format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"{seeds}\"\n", listed.join(", "));
    std::fs::write(&spec, body).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (spec, single_db) = (spec.to_str().unwrap().to_owned(), path("single.sqlite"));
    let single = arena(&["tournament", "run", &spec, "--db", &single_db, "--format", "json", "--quiet"]);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
    let planned = arena(&["tournament", "plan", &spec, "-o", &path("plan.jsonl")]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));
    (stdout(&single), std::fs::read_to_string(dir.join("plan.jsonl")).unwrap().lines().count())
}

/// `arena tournament emit slurm` for `dir`'s plan (results in `dir/results`) with `options` and
/// `extra`, written to `dir/file`; returns the script.
pub fn emit_slurm(dir: &Path, options: &[&str], extra: &[&str], file: &str) -> String {
    let (plan, results) = (dir.join("plan.jsonl"), dir.join("results"));
    let mut args = vec!["tournament", "emit", "slurm", "--plan", plan.to_str().unwrap()];
    args.extend(["--results", results.to_str().unwrap()]);
    args.extend(options.iter().chain(extra));
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(dir.join(file), stdout(&out)).unwrap();
    stdout(&out)
}

#[test]
fn the_array_and_merge_scripts_play_every_shard_and_name_the_missing_one() {
    let dir = fresh_scratch("slurm");
    let (single, _) = planned_round_robin(&dir, &["azul-greedy", "azul-random", "azul-trivial"], "1..2");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let emit = |extra: &[&str], file: &str| emit_slurm(&dir, &["--shards", "4", "--parallel", "2"], extra, file);
    let shards_script = emit(&[], "shards.sbatch");
    assert!(shards_script.contains("#SBATCH --array=0-3%2"), "{shards_script}");
    emit(&["--merge"], "merge.sbatch");
    assert!(dir.join("results").is_dir(), "emit creates the results folder (Slurm opens the logs there)");

    // Tasks 0, 1 and 3 run; task 2 never does (a node lost for good).
    for task in [0, 1, 3] {
        let out = run_script(&dir.join("shards.sbatch"), Some(task), &dir);
        assert_eq!(out.status.code(), Some(0), "task {task}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let merged = run_script(&dir.join("merge.sbatch"), None, &dir);
    assert_eq!(merged.status.code(), Some(1), "an incomplete merge fails");
    assert_eq!(std::fs::read_to_string(dir.join("results/missing-shards.txt")).unwrap(), "2\n");

    // The operator resubmits task 2; a rerun task (requeued) plays nothing twice; merge again.
    for task in [2, 0] {
        let out = run_script(&dir.join("shards.sbatch"), Some(task), &dir);
        assert_eq!(out.status.code(), Some(0), "task {task}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let merged = run_script(&dir.join("merge.sbatch"), None, &dir);
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("results/missing-shards.txt")).unwrap(), "");
    let shown = arena(&["tournament", "show", &path("results/all.sqlite"), "--format", "json"]);
    assert_eq!(stdout(&shown), single, "the merged leaderboard is the single run's");
}

#[test]
fn a_plan_that_cannot_be_read_is_refused() {
    let dir = fresh_scratch("slurm-bad");
    std::fs::write(dir.join("plan.jsonl"), "not json\n").unwrap();
    let plan = dir.join("plan.jsonl");
    let out = arena(&["tournament", "emit", "slurm", "--plan", plan.to_str().unwrap(), "--shards", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("plan line 1"), "{}", stderr(&out));
    let zero = arena(&["tournament", "emit", "slurm", "--plan", plan.to_str().unwrap(), "--shards", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}
