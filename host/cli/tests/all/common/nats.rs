//! A NATS server with JetStream for one test or benchmark (Debian's `nats-server`, which `cargo
//! xtask test` installs), on a free loopback port with its storage in a scratch folder, stopped
//! by the pid it wrote. Shared by `cluster_nats.rs` and the benchmarks' queue section
//! (`benches/queue.rs`, through `#[path]`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A NATS server with JetStream on a free loopback port, stopped (by its pid file) when dropped.
pub struct Nats {
    dir: PathBuf,
    /// Where clients connect: `nats://127.0.0.1:PORT`.
    pub url: String,
    server: Child,
}

impl Nats {
    /// Starts `nats-server -js` with its storage, pid file and log in `dir`; waits until it
    /// accepts connections.
    pub fn start(dir: &Path) -> Nats {
        let found = Command::new("nats-server").arg("--version").output().is_ok_and(|output| output.status.success());
        assert!(found, "nats-server is missing: `cargo xtask test` installs Debian's nats-server");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        std::fs::create_dir_all(dir).unwrap();
        let path = |name: &str| dir.join(name).display().to_string();
        let args = ["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd", &path("js")];
        let server = Command::new("nats-server")
            .args(args)
            .args(["-P", &path("nats.pid"), "-l", &path("nats.log")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let nats = Nats { dir: dir.to_path_buf(), url: format!("nats://127.0.0.1:{port}"), server };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "nats-server did not start: {}", nats.log());
            std::thread::sleep(Duration::from_millis(50));
        }
        nats
    }

    /// The server's log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("nats.log")).unwrap_or_default()
    }
}

impl Drop for Nats {
    /// Stops the server by the pid it wrote (SIGTERM, then SIGKILL after 5 s), and reaps it.
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("nats.pid")) {
            let pid = pid.trim().to_owned();
            let _ = Command::new("kill").arg(&pid).output();
            let gone = Instant::now();
            while self.server.try_wait().ok().flatten().is_none() && gone.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = Command::new("kill").args(["-9", &pid]).output();
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
