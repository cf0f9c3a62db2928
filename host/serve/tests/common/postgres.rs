//! A throwaway PostgreSQL cluster for the tests, real and local: made with Debian's server
//! programs (under /usr/lib/postgresql/VERSION/bin, not on PATH) in a folder under cargo's target
//! dir, listening on a free loopback port, started once per test binary on first use. Each
//! caller of [`database`] gets a database of its own, so tests stay independent and run in
//! parallel.
//!
//! The cluster lives in a static, and statics are never dropped: a watchdog process (a shell
//! reading a pipe whose other end only this process holds) stops it when the test binary exits,
//! however it exits (passed, failed, killed), with `pg_ctl stop -m immediate` (which signals the
//! postmaster by the pid in its `postmaster.pid`), then removes the folder. `Drop` closes the
//! same pipe and waits for the watchdog, for a cluster that failed to start.
//!
//! initdb and pg_ctl refuse to run as root, which this machine and CI are: as root they run as
//! the `postgres` account (`su`), in a folder it owns. Without the server programs the tests fail,
//! saying how to install them; they are never skipped.

use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Where Debian installs each PostgreSQL version's server programs.
const INSTALL_ROOT: &str = "/usr/lib/postgresql";

/// The account initdb and pg_ctl run as when the tests run as root.
const SERVER_ACCOUNT: &str = "postgres";

/// The superuser initdb creates (any name; trust authentication on loopback, no password).
const SUPERUSER: &str = "arena";

/// The URL of a fresh, empty database on the tests' cluster (started on first use).
pub fn database() -> String {
    static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
    match CLUSTER.get_or_init(Cluster::start) {
        Ok(cluster) => cluster.create_database(),
        Err(why) => panic!("{why}"),
    }
}

/// A running cluster.
struct Cluster {
    port: u16,
    /// Opens the databases.
    admin: Mutex<Option<postgres::Client>>,
    /// Numbers the databases.
    next: AtomicU32,
    /// The watchdog's stdin: closing it (this process exiting) stops the cluster.
    stop: Option<ChildStdin>,
    /// The watchdog.
    watchdog: Child,
}

impl Cluster {
    fn start() -> Result<Cluster, String> {
        let started = Instant::now();
        let bin = server_programs()?;
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("postgres-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
        let as_root = std::fs::metadata("/proc/self").map_err(|err| format!("/proc/self: {err}"))?.uid() == 0;
        if as_root {
            run("chown", Command::new("chown").arg(format!("{SERVER_ACCOUNT}:{SERVER_ACCOUNT}")).arg(&dir))?;
        }
        let data = dir.join("data");
        let pg_ctl = quote(&bin.join("pg_ctl"));

        // From here on the folder (and soon the server) is the watchdog's to clean up.
        let stop_command = format!("{pg_ctl} -D {} stop -m immediate", quote(&data));
        // Tried again while the folder remains: this process killed while starting the server
        // leaves pg_ctl running, which may start it after the first stop or write into the folder
        // as it is removed.
        let watchdog_script = format!(
            "trap '' INT HUP TERM; cat >/dev/null; \
             for attempt in 1 2 3 4 5; do {} >/dev/null 2>&1; rm -rf {dir}; [ -e {dir} ] || exit 0; sleep 1; done",
            as_server(&stop_command, as_root),
            dir = quote(&dir)
        );
        let mut watchdog = Command::new("sh")
            .arg("-c")
            .arg(watchdog_script)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| format!("sh (the cluster's watchdog): {err}"))?;
        let stop = watchdog.stdin.take();
        let mut cluster = Cluster { port: 0, admin: Mutex::new(None), next: AtomicU32::new(0), stop, watchdog };

        // No fsync: the cluster is thrown away, and the tests run on 2 busy cores.
        let initdb = format!(
            "{} -D {} -A trust -U {SUPERUSER} -E UTF8 --no-locale --no-sync --no-instructions",
            quote(&bin.join("initdb")),
            quote(&data)
        );
        run("initdb", &mut shell(&as_server(&initdb, as_root)))?;

        // The port is free when asked for; another program may take it before the server binds
        // it, so a failed start is tried again on another.
        let log = dir.join("log");
        let mut attempts = 0;
        cluster.port = loop {
            attempts += 1;
            let port = free_port()?;
            let options = format!(
                "-k {} -c listen_addresses=127.0.0.1 -p {port} -c fsync=off -c synchronous_commit=off \
                 -c full_page_writes=off",
                dir.display()
            );
            let start =
                format!("{pg_ctl} -D {} -o {} -l {} -w -t 120 start", quote(&data), quote_str(&options), quote(&log));
            match run("pg_ctl start", &mut shell(&as_server(&start, as_root))) {
                Ok(()) => break port,
                Err(why) if attempts == 3 => {
                    let log = std::fs::read_to_string(&log).unwrap_or_default();
                    return Err(format!("{why}\nthe server's log:\n{log}"));
                }
                Err(_) => continue,
            }
        };
        let admin = connect(&cluster.url("postgres"))?;
        cluster.admin = Mutex::new(Some(admin));
        eprintln!(
            "PostgreSQL ({}) started on 127.0.0.1:{} in {:.1} s",
            bin.display(),
            cluster.port,
            started.elapsed().as_secs_f64()
        );
        Ok(cluster)
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
    }

    fn create_database(&self) -> String {
        let name = format!("t_{}", self.next.fetch_add(1, Ordering::Relaxed));
        let mut admin = self.admin.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(admin) = admin.as_mut() else { panic!("the tests' PostgreSQL cluster has no admin connection") };
        admin.batch_execute(&format!("CREATE DATABASE {name}")).unwrap_or_else(|err| panic!("CREATE DATABASE: {err}"));
        self.url(&name)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        drop(self.stop.take());
        let _ = self.watchdog.wait();
    }
}

/// The newest installed version's server programs.
fn server_programs() -> Result<PathBuf, String> {
    let missing = || {
        format!(
            "PostgreSQL's server programs are not installed (no {INSTALL_ROOT}/VERSION/bin/initdb): \
             `cargo xtask test` installs Debian's postgresql package (or: apt-get install postgresql)"
        )
    };
    let entries = std::fs::read_dir(INSTALL_ROOT).map_err(|_| missing())?;
    let newest = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse::<u32>().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
        .max_by_key(|(version, _)| *version);
    newest.map(|(_, bin)| bin).ok_or_else(missing)
}

/// A loopback port nothing listens on now.
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|err| format!("a free port: {err}"))?;
    listener.local_addr().map(|address| address.port()).map_err(|err| format!("a free port: {err}"))
}

/// Connects, waiting a little for a server that has just said it is ready.
fn connect(url: &str) -> Result<postgres::Client, String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match postgres::Client::connect(url, postgres::NoTls) {
            Ok(client) => return Ok(client),
            Err(err) if Instant::now() > deadline => return Err(format!("connecting to {url}: {err}")),
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// `command` as the server's account when running as root (initdb and pg_ctl refuse root).
fn as_server(command: &str, as_root: bool) -> String {
    if as_root { format!("su {SERVER_ACCOUNT} -s /bin/sh -c {}", quote_str(command)) } else { command.to_owned() }
}

fn shell(command: &str) -> Command {
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(command);
    shell
}

/// Runs a program to its end; its output, in the error, if it fails.
fn run(what: &str, command: &mut Command) -> Result<(), String> {
    // stdin closed and output to files, not pipes: pg_ctl's server outlives it and would hold a
    // pipe open.
    let mut output = scratch_file(what)?;
    let status = command
        .stdin(Stdio::null())
        .stdout(output.try_clone().map_err(|err| format!("{what}: {err}"))?)
        .stderr(output.try_clone().map_err(|err| format!("{what}: {err}"))?)
        .status()
        .map_err(|err| format!("{what}: {err}"))?;
    if status.success() {
        return Ok(());
    }
    let mut text = String::new();
    let _ = std::io::Seek::rewind(&mut output);
    let _ = output.read_to_string(&mut text);
    Err(format!("{what} failed ({status}):\n{text}"))
}

/// An unnamed scratch file for a program's output.
fn scratch_file(what: &str) -> Result<std::fs::File, String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "postgres-output-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|err| format!("{what}: {}: {err}", path.display()))?;
    // Unlinked at once: the open file is all that is needed.
    let _ = std::fs::remove_file(&path);
    Ok(file)
}

fn quote(path: &Path) -> String {
    quote_str(&path.to_string_lossy())
}

/// `text` as one word of a POSIX shell.
fn quote_str(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
