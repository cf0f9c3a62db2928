//! A tournament on a real Slurm: Debian's `slurmctld` and
//! `slurmd` started on localhost with a throwaway configuration in a scratch folder (custom
//! ports, no systemd, `JobCompType=jobcomp/filetxt`), the scripts of `arena tournament emit
//! slurm` submitted as they are. One array task's `arena` is SIGKILLed mid-shard and requeued
//! with `scontrol requeue`; it resumes, and the merge finds every match exactly once with the
//! leaderboard of a single-process run. The daemons are stopped by the pids they wrote, also
//! when the test fails. `cargo xtask test` installs Debian's `slurm-wlm` (and `munge`, which
//! this single-machine cluster does not need: `AuthType=auth/none`, on loopback only).
//!
//! Needs the example bots (`cargo xtask bots`).

use crate::cli_slurm::{emit_slurm, planned_round_robin};
use crate::common::{arena, fresh_scratch, scratch, stderr, stdout};
use arena_tournament::store::Store;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A throwaway Slurm cluster of one node, stopped (by the pids its daemons wrote) when dropped.
struct Slurm {
    dir: PathBuf,
    conf: PathBuf,
}

/// A free TCP port on loopback (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A command's trimmed stdout.
fn output_of(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|err| panic!("cannot run {command:?}: {err}"));
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

impl Slurm {
    /// Writes the configuration into `dir` and starts `slurmctld` and `slurmd`; returns once the
    /// node is idle.
    fn start(dir: &Path) -> Slurm {
        // (Clients such as `sbatch` need a configuration even for `-V`.)
        for program in ["slurmctld", "slurmd"] {
            let found = Command::new(program).arg("-V").output().is_ok_and(|output| output.status.success());
            assert!(found, "{program} is missing: `cargo xtask test` installs Debian's slurm-wlm");
        }
        let host = output_of(Command::new("hostname").arg("-s"));
        let user = output_of(Command::new("id").arg("-un"));
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        let (ctld_port, slurmd_port) = (free_port(), free_port());
        let path = |name: &str| dir.join(name).display().to_string();
        for folder in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=arenatest
SlurmctldHost={host}(127.0.0.1)
SlurmUser={user}
SlurmdUser={user}
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/none
CredType=cred/none
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={ctld_pid}
SlurmdPidFile={slurmd_pid}
SlurmctldLogFile={ctld_log}
SlurmdLogFile={slurmd_log}
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/filetxt
JobCompLoc={jobcomp}
ReturnToService=2
MpiDefault=none
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=1000 State=UNKNOWN
PartitionName=arena Nodes={host} Default=YES MaxTime=INFINITE State=UP
",
                state = path("state"),
                spool = path("spool"),
                ctld_pid = path("slurmctld.pid"),
                slurmd_pid = path("slurmd.pid"),
                ctld_log = path("slurmctld.log"),
                slurmd_log = path("slurmd.log"),
                jobcomp = path("jobcomp.txt"),
            ),
        )
        .unwrap();
        // Dropped (and so stopped) on any failure from here on.
        let slurm = Slurm { dir: dir.to_path_buf(), conf };
        for daemon in ["slurmctld", "slurmd"] {
            let started = slurm.command(daemon).arg("-f").arg(&slurm.conf).output().unwrap();
            assert!(started.status.success(), "{daemon} did not start: {}", stderr(&started));
        }
        let ready = Instant::now();
        while output_of(slurm.command("sinfo").args(["-h", "-o", "%T"])) != "idle" {
            assert!(ready.elapsed() < Duration::from_secs(60), "the node never became idle:\n{}", slurm.logs());
            std::thread::sleep(Duration::from_millis(200));
        }
        slurm
    }

    /// A Slurm command (a daemon or a client) pointed at this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf).env("ARENA_CACHE_DIR", scratch("arena-cache"));
        command
    }

    /// The daemons' logs, for failure messages.
    fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log"]
            .iter()
            .map(|name| format!("--- {name}\n{}", std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()))
            .collect()
    }

    /// The state of array task `task` of job `job` (`RUNNING`, `FAILED`, ...).
    fn task_state(&self, job: &str, task: usize) -> String {
        let shown = output_of(self.command("scontrol").args(["show", "job", &format!("{job}_{task}")]));
        shown.split_whitespace().find_map(|field| field.strip_prefix("JobState=")).unwrap_or("UNKNOWN").to_owned()
    }
}

impl Slurm {
    /// `scontrol requeue` of a failed array task, asked until it is pending (a requeue that
    /// lands while Slurm still completes the failed task is not taken), then made eligible now
    /// (a requeued job otherwise waits two minutes).
    fn requeue(&self, job: &str, task: usize) {
        let requeued = Instant::now();
        while self.task_state(job, task) == "FAILED" {
            assert!(requeued.elapsed() < Duration::from_secs(60), "task {task} was never requeued:\n{}", self.logs());
            // Give slurmd a moment to finish with the failed run before it is asked to start it again.
            std::thread::sleep(Duration::from_millis(500));
            run_ok(self.command("scontrol").args(["requeue", &format!("{job}_{task}")]), "scontrol requeue");
        }
        let _ = self.command("scontrol").args(["update", &format!("JobId={job}_{task}"), "StartTime=now"]).output();
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        for daemon in ["slurmd", "slurmctld"] {
            let Ok(pid) = std::fs::read_to_string(self.dir.join(format!("{daemon}.pid"))) else { continue };
            let pid = pid.trim().to_owned();
            let _ = Command::new("kill").arg(&pid).output();
            let gone = Instant::now();
            while Path::new(&format!("/proc/{pid}")).exists() && gone.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = Command::new("kill").args(["-9", &pid]).output();
        }
    }
}

/// The pid of the `arena run-plan` playing into `db`, found by its command line.
fn shard_process(db: &str) -> Option<String> {
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        (cmdline.contains("run-plan") && cmdline.contains(db)).then(|| entry.file_name().to_string_lossy().into_owned())
    })
}

/// Matches recorded in a shard database so far (0 while it does not exist).
fn recorded(db: &Path) -> usize {
    Store::open(db).ok().and_then(|store| store.finished_ids().ok()).map_or(0, |ids| ids.len())
}

fn run_ok(command: &mut Command, what: &str) -> Output {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{what} failed: {}{}", stdout(&output), stderr(&output));
    output
}

#[test]
fn a_plan_runs_as_a_slurm_job_array_survives_a_killed_task_and_merges_to_the_single_run() {
    let dir = fresh_scratch("slurm-cluster");
    // 3 bots, every pair in both seat orders on 34 seeds: 204 matches; the two pairings with
    // `fx-loop-forever` (it burns its whole game budget) make a shard last long enough to kill.
    let started = Instant::now();
    let (single, total) = planned_round_robin(&dir, &["fx-loop-forever", "azul-random", "azul-greedy"], "1..34");
    let single_seconds = started.elapsed().as_secs_f64();
    assert_eq!(total, 204);
    emit_slurm(&dir, &["--shards", "8"], &[], "shards.sbatch");
    emit_slurm(&dir, &["--shards", "8"], &["--merge"], "merge.sbatch");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();

    let slurm = Slurm::start(&dir.join("slurm"));
    let started = Instant::now();
    let submitted = run_ok(slurm.command("sbatch").args(["--parsable", &path("shards.sbatch")]), "sbatch");
    let job = stdout(&submitted).trim().split(';').next().unwrap().to_owned();

    // SIGKILL the first shard seen part-way through, then wait for Slurm to mark its task failed.
    let shard_db = |task: usize| dir.join("results").join(format!("shard-{task}.sqlite"));
    // Shards hold 25 or 26 matches (204 = 8 x 25 + 4).
    let per_shard = total / 8;
    let mut killed = None;
    while killed.is_none() {
        assert!(started.elapsed() < Duration::from_secs(120), "no shard was seen mid-run:\n{}", slurm.logs());
        for task in 0..8 {
            let done = recorded(&shard_db(task));
            if done > 0
                && done < per_shard
                && let Some(pid) = shard_process(shard_db(task).to_str().unwrap())
            {
                run_ok(Command::new("kill").args(["-9", &pid]), "kill -9");
                killed = Some((task, done));
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let (task, done_at_kill) = killed.unwrap();
    while slurm.task_state(&job, task) != "FAILED" {
        assert!(started.elapsed() < Duration::from_secs(120), "task {task} never failed:\n{}", slurm.logs());
        std::thread::sleep(Duration::from_millis(100));
    }
    let after_kill = recorded(&shard_db(task));
    assert!(after_kill < per_shard, "task {task} was killed before the end of its shard ({after_kill})");
    // Requeued as an administrator would, and made eligible at once (see `Slurm::requeue`).
    slurm.requeue(&job, task);

    // Every task completes (the requeued one too); then the merge job runs, as `afterany` would
    // start it, and finds everything. A requeued task that slurmd refuses to launch while it
    // still cleans up the killed one ("Job N already killed, do not launch batch job") fails
    // again at once: requeued again, as an operator would.
    loop {
        let states: Vec<String> = (0..8).map(|shard| slurm.task_state(&job, shard)).collect();
        if states.iter().all(|state| state == "COMPLETED") {
            break;
        }
        if states[task] == "FAILED" {
            slurm.requeue(&job, task);
        }
        let failed_log = std::fs::read_to_string(dir.join(format!("results/shard-{task}.log"))).unwrap_or_default();
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "tasks did not complete: {states:?}\ntask {task}'s log:\n{failed_log}\n{}",
            slurm.logs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    run_ok(slurm.command("sbatch").args(["--wait", &path("merge.sbatch")]), "the merge job");
    let cluster_seconds = started.elapsed().as_secs_f64();
    assert_eq!(std::fs::read_to_string(dir.join("results/missing-shards.txt")).unwrap(), "");
    let log = std::fs::read_to_string(dir.join(format!("results/shard-{task}.log"))).unwrap();
    assert!(log.contains(&format!("{after_kill} already in")), "the requeued task resumed: {log}");

    let merged = dir.join("results/all.sqlite");
    let store = Store::open(&merged).unwrap();
    let digest = store.current_spec().unwrap().unwrap();
    assert_eq!(store.matches(&digest).unwrap().len(), total, "every match exactly once");
    let single_store = Store::open(&dir.join("single.sqlite")).unwrap();
    let single_digest = single_store.current_spec().unwrap().unwrap();
    assert_eq!(store.matches(&digest).unwrap(), single_store.matches(&single_digest).unwrap());
    let shown = arena(&["tournament", "show", merged.to_str().unwrap(), "--format", "json"]);
    assert_eq!(stdout(&shown), single, "the merged leaderboard is the single run's");
    println!(
        "slurm: {total} matches, 8 shards, task {task} killed after {done_at_kill} of its {per_shard} and requeued: \
         {cluster_seconds:.1} s from submission to merged ({:.0} matches/s); one process: {single_seconds:.1} s; \
         {:.0} ms more per match (shard start-up, Slurm's scheduling passes, the requeue)",
        total as f64 / cluster_seconds,
        (cluster_seconds - single_seconds) / total as f64 * 1000.0
    );
}
