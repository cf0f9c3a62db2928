//! `arena tournament emit slurm` (issue "Past one machine", item 1), with bash standing in for
//! Slurm: every array task's script run with its `SLURM_ARRAY_TASK_ID`, one task left out, the
//! merge job's script names exactly that shard for resubmission, and once it has run the merged
//! leaderboard equals a single-process run. (The same scripts under a real slurmctld/slurmd are
//! the item 4.) Needs the example bots (`cargo xtask bots`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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

#[test]
fn the_array_and_merge_scripts_play_every_shard_and_name_the_missing_one() {
    let dir = fresh_scratch("slurm");
    let listed: Vec<String> =
        ["azul-greedy", "azul-random", "azul-trivial"].iter().map(|name| format!("{:?}", bot(name))).collect();
    let spec = dir.join("spec.toml");
    let body = format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"1..2\"\n", listed.join(", "));
    std::fs::write(&spec, body).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let single = arena(&[
        "tournament",
        "run",
        spec.to_str().unwrap(),
        "--db",
        &path("single.sqlite"),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap(), "-o", &path("plan.jsonl")]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));

    let emit = |extra: &[&str], file: &str| {
        let mut args = vec!["tournament", "emit", "slurm", "--plan"];
        let (plan, results) = (path("plan.jsonl"), path("results"));
        args.extend([plan.as_str(), "--shards", "4", "--parallel", "2", "--results", results.as_str()]);
        args.extend(extra);
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::write(dir.join(file), stdout(&out)).unwrap();
        stdout(&out)
    };
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
    assert_eq!(stdout(&shown), stdout(&single), "the merged leaderboard is the single run's");
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
