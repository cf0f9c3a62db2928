//! `arena tournament emit k8s`: the Indexed Job and the merge
//! Job deserialise into the Kubernetes API's `batch/v1` `Job` type, and their pods' commands,
//! run with `sh` as a kubelet would (the Job's environment plus `JOB_COMPLETION_INDEX`), play every
//! shard and merge them into the single-process run's leaderboard. Needs the example bots
//! (`cargo xtask bots`).

use crate::cli_slurm::planned_round_robin;
use crate::common::{arena, fresh_scratch, scratch, stderr, stdout};
use k8s_openapi::api::batch::v1::Job;
use std::path::Path;
use std::process::Command;

/// `emit k8s` with `extra`, parsed as a Kubernetes Job.
fn emit(dir: &Path, extra: &[&str]) -> Job {
    let (plan, mount) = (dir.join("plan.jsonl"), dir.to_str().unwrap().to_owned());
    let mut args = vec!["tournament", "emit", "k8s", "--plan", plan.to_str().unwrap(), "--shards", "3"];
    args.extend(["--image", "registry.example/arena:1", "--mount", &mount]);
    args.extend(extra);
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|err| panic!("not a batch/v1 Job: {err}\n{}", stdout(&out)))
}

/// Runs the Job's single container command with `sh`, its environment, `index` as the
/// completion index, and this build's `arena` first on the PATH.
fn run_pod(job: &Job, index: Option<usize>) -> std::process::Output {
    let container = &job.spec.as_ref().unwrap().template.spec.as_ref().unwrap().containers[0];
    let command = container.command.as_ref().unwrap();
    assert_eq!(&command[..2], ["sh", "-c"]);
    let bin = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut sh = Command::new("sh");
    sh.args(["-c", &command[2]]).env("PATH", path).env("ARENA_CACHE_DIR", scratch("arena-cache"));
    for var in container.env.iter().flatten() {
        sh.env(&var.name, var.value.clone().unwrap_or_default());
    }
    if let Some(index) = index {
        sh.env("JOB_COMPLETION_INDEX", index.to_string());
    }
    sh.output().unwrap()
}

#[test]
fn the_indexed_job_runs_every_shard_and_the_merge_job_joins_them() {
    let dir = fresh_scratch("k8s");
    let (single, total) = planned_round_robin(&dir, &["azul-greedy", "azul-random", "azul-trivial"], "1..2");
    let shards = emit(&dir, &["--parallel", "2"]);
    let spec = shards.spec.as_ref().unwrap();
    assert_eq!(spec.completion_mode.as_deref(), Some("Indexed"));
    assert_eq!((spec.completions, spec.parallelism, spec.backoff_limit_per_index), (Some(3), Some(2), Some(3)));
    for index in 0..3 {
        let pod = run_pod(&shards, Some(index));
        assert!(pod.status.success(), "index {index}: {}", String::from_utf8_lossy(&pod.stderr));
    }
    let merge = emit(&dir, &["--merge"]);
    let pod = run_pod(&merge, None);
    assert!(pod.status.success(), "{}", String::from_utf8_lossy(&pod.stderr));
    let merged = dir.join("results/all.sqlite");
    let shown = arena(&["tournament", "show", merged.to_str().unwrap(), "--format", "json"]);
    assert_eq!(stdout(&shown), single, "the merged leaderboard is the single run's");
    assert!(stdout(&shown).contains(&format!("\"matches_played\":{total}")), "{}", stdout(&shown));
}
