//! Kubernetes manifests for a plan (`arena tournament emit k8s`): an Indexed Job with one shard of
//! the plan per completion index, and the Job that merges the shards afterwards.
//!
//! Each pod runs `arena tournament run-plan PLAN --shard $JOB_COMPLETION_INDEX/N` into its own
//! database on a shared volume (a PersistentVolumeClaim mounted in every pod). A pod that fails
//! is retried for its index alone, up to `backoffLimitPerIndex` times; a retried shard resumes
//! from its database. The manifests are printed as JSON, which `kubectl apply -f` reads as it
//! reads YAML.

use serde_json::json;

/// What the Job runs, and where.
#[derive(Debug, Clone)]
pub struct IndexedJob<'a> {
    /// The Job's name (a DNS label).
    pub name: &'a str,
    /// The container image; it must hold `arena` on its PATH, and `sh`.
    pub image: &'a str,
    /// The PersistentVolumeClaim holding the plan and the results, mounted at `mount`.
    pub claim: &'a str,
    /// Where the claim is mounted in the pods.
    pub mount: &'a str,
    /// The plan file, as the pods see it.
    pub plan: &'a str,
    /// The results folder, as the pods see it.
    pub results: &'a str,
    /// Shards: completion indexes `0..shards`.
    pub shards: usize,
    /// Pods at once.
    pub parallel: usize,
    /// Retries of one index before it is marked failed.
    pub backoff_limit_per_index: u32,
    /// CPUs per pod: the matches each shard plays at once.
    pub cpus: usize,
}

/// The pod template of `job` running `script` (an `sh -c` line reading `$PLAN`, `$RESULTS`,
/// `$SHARDS`, `$CPUS`).
fn pod_template(job: &IndexedJob<'_>, container: &str, script: &str) -> serde_json::Value {
    json!({
        "spec": {
            "restartPolicy": "Never",
            "containers": [{
                "name": container,
                "image": job.image,
                "command": ["sh", "-c", script],
                "env": [
                    {"name": "PLAN", "value": job.plan},
                    {"name": "RESULTS", "value": job.results},
                    {"name": "SHARDS", "value": job.shards.to_string()},
                    {"name": "CPUS", "value": job.cpus.to_string()},
                ],
                "resources": {"requests": {"cpu": job.cpus.to_string()}},
                "volumeMounts": [{"name": "data", "mountPath": job.mount}],
            }],
            "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": job.claim}}],
        }
    })
}

/// The Indexed Job: one shard per completion index.
pub fn shards_job(job: &IndexedJob<'_>) -> String {
    let script = "mkdir -p \"$RESULTS\" && exec arena tournament run-plan \"$PLAN\" \
                  --shard \"$JOB_COMPLETION_INDEX/$SHARDS\" --db \"$RESULTS/shard-$JOB_COMPLETION_INDEX.sqlite\" \
                  --jobs \"$CPUS\"";
    let manifest = json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": job.name, "labels": {"app.kubernetes.io/name": "wasm-arena"}},
        "spec": {
            "completionMode": "Indexed",
            "completions": job.shards,
            "parallelism": job.parallel,
            "backoffLimitPerIndex": job.backoff_limit_per_index,
            "maxFailedIndexes": job.shards,
            "template": pod_template(job, "shard", script),
        }
    });
    serde_json::to_string_pretty(&manifest).unwrap_or_default()
}

/// The Job that merges the shards into `$RESULTS/all.sqlite` (run it once the Indexed Job has
/// ended: `kubectl wait --for=condition=complete` or `failed`); the shards with missing matches
/// go to `$RESULTS/missing-shards.txt` and its log.
pub fn merge_job(job: &IndexedJob<'_>) -> String {
    let script = "cd \"$RESULTS\" && rm -f all.sqlite && arena tournament merge shard-*.sqlite -o all.sqlite \
                  --missing-shards > missing-shards.txt; status=$?; cat missing-shards.txt; exit $status";
    let manifest = json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": format!("{}-merge", job.name), "labels": {"app.kubernetes.io/name": "wasm-arena"}},
        "spec": {
            "backoffLimit": 0,
            "template": pod_template(job, "merge", script),
        }
    });
    serde_json::to_string_pretty(&manifest).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::batch::v1::Job;

    fn job() -> IndexedJob<'static> {
        IndexedJob {
            name: "arena-0123456789ab",
            image: "registry.example/arena:1",
            claim: "arena-data",
            mount: "/data",
            plan: "/data/plan.jsonl",
            results: "/data/results",
            shards: 8,
            parallel: 4,
            backoff_limit_per_index: 3,
            cpus: 2,
        }
    }

    /// The manifest is a valid `batch/v1` Job as the Kubernetes API types read it.
    #[test]
    fn the_indexed_job_is_a_kubernetes_job() {
        let parsed: Job = serde_json::from_str(&shards_job(&job())).unwrap();
        let spec = parsed.spec.unwrap();
        assert_eq!(spec.completion_mode.as_deref(), Some("Indexed"));
        assert_eq!((spec.completions, spec.parallelism), (Some(8), Some(4)));
        assert_eq!((spec.backoff_limit_per_index, spec.max_failed_indexes), (Some(3), Some(8)));
        let pod = spec.template.spec.unwrap();
        assert_eq!(pod.restart_policy.as_deref(), Some("Never"));
        let container = &pod.containers[0];
        let command = container.command.clone().unwrap().join(" ");
        assert!(command.contains("run-plan \"$PLAN\" --shard \"$JOB_COMPLETION_INDEX/$SHARDS\""), "{command}");
        let env: Vec<(String, String)> =
            container.env.clone().unwrap().into_iter().map(|var| (var.name, var.value.unwrap_or_default())).collect();
        assert!(env.contains(&("SHARDS".into(), "8".into())), "{env:?}");
        let volume = &pod.volumes.unwrap()[0];
        assert_eq!(volume.persistent_volume_claim.as_ref().unwrap().claim_name, "arena-data");
    }

    #[test]
    fn the_merge_job_is_a_kubernetes_job() {
        let parsed: Job = serde_json::from_str(&merge_job(&job())).unwrap();
        assert_eq!(parsed.metadata.name.as_deref(), Some("arena-0123456789ab-merge"));
        let spec = parsed.spec.unwrap();
        assert_eq!((spec.completion_mode, spec.backoff_limit), (None, Some(0)));
        let command = spec.template.spec.unwrap().containers[0].command.clone().unwrap().join(" ");
        assert!(command.contains("merge shard-*.sqlite -o all.sqlite --missing-shards"), "{command}");
    }
}
