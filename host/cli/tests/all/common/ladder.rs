//! An `arena serve` for one test or benchmark: the real binary on a free loopback port (it prints
//! the address it listens on), its data in a scratch folder, one worker unless told otherwise;
//! stopped by its pid when dropped, or killed (SIGKILL) and started again on the same data by the
//! durability test. Requests go through ureq, statuses and bodies as they are. Shared by
//! `ladder.rs` and the benchmarks' ladder section (`benches/ladder.rs`, through `#[path]`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running ladder server.
pub struct Ladder {
    /// Its data folder.
    pub data: PathBuf,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    server: Child,
    extra: Vec<String>,
    /// Its log file (`server.log` in the data folder, or one per node for a node that joined).
    log: PathBuf,
}

/// A response: status, headers we check, body.
pub struct Answer {
    /// The status.
    pub status: u16,
    /// `Content-Security-Policy`, if sent.
    pub policy: Option<String>,
    /// Every `Set-Cookie`.
    pub cookies: Vec<String>,
    /// `Location`, if sent.
    pub location: Option<String>,
    /// The body.
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|err| panic!("not JSON ({err}): {}", self.body))
    }
}

impl Ladder {
    /// Starts `arena serve --data DATA --bind 127.0.0.1:0 EXTRA...` on a fresh folder, with
    /// `--workers 1` unless `extra` names the workers.
    pub fn start(data: &Path, extra: &[&str]) -> Ladder {
        let _ = std::fs::remove_dir_all(data);
        std::fs::create_dir_all(data).unwrap();
        Ladder::spawn(data, extra.iter().map(|arg| (*arg).to_owned()).collect(), data.join("server.log"))
    }

    /// Starts another node on the data folder of a running one (`extra` naming their shared
    /// database), logging to a file of its own.
    pub fn join(data: &Path, extra: &[&str]) -> Ladder {
        let log = (1..).map(|n| data.join(format!("server-{n}.log"))).find(|log| !log.exists()).unwrap();
        Ladder::spawn(data, extra.iter().map(|arg| (*arg).to_owned()).collect(), log)
    }

    fn spawn(data: &Path, extra: Vec<String>, log: PathBuf) -> Ladder {
        let workers: &[&str] = if extra.iter().any(|arg| arg == "--workers") { &[] } else { &["--workers", "1"] };
        let mut server = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "--data", data.to_str().unwrap(), "--bind", "127.0.0.1:0"])
            .args(workers)
            .args(&extra)
            .env("ARENA_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().strip_prefix("listening on ").unwrap_or_else(|| {
            panic!("the server did not start: {line:?}\n{}", std::fs::read_to_string(&log).unwrap_or_default())
        });
        Ladder { data: data.to_owned(), url: url.to_owned(), server, extra, log }
    }

    /// SIGKILLs the server.
    pub fn kill(&mut self) {
        self.server.kill().unwrap();
        self.server.wait().unwrap();
    }

    /// SIGKILLs the server and starts it again on the same data (a new port).
    pub fn kill_and_restart(&mut self) {
        self.kill();
        let restarted = Ladder::spawn(&self.data, self.extra.clone(), self.log.clone());
        *self = restarted;
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Creates an account with `arena serve admin add-user` and returns its API token.
    pub fn add_user(&self, name: &str) -> String {
        self.admin(&["add-user", name])
    }

    /// Registers a NATS worker with `arena serve admin add-worker` and returns its token.
    pub fn add_worker(&self, name: &str) -> String {
        self.admin(&["add-worker", name])
    }

    /// `arena serve admin ACTION...` on the server's database (its `--config` or `--database`,
    /// if given): what it printed, once it succeeded.
    pub fn admin(&self, action: &[&str]) -> String {
        let database: Vec<&str> = self
            .extra
            .windows(2)
            .filter(|pair| pair[0] == "--config" || pair[0] == "--database")
            .flat_map(|pair| [pair[0].as_str(), pair[1].as_str()])
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "admin", "--data", self.data.to_str().unwrap()])
            .args(&database)
            .args(action)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .new_agent()
    }

    fn answer(response: ureq::http::Response<ureq::Body>) -> Answer {
        let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(str::to_owned);
        let policy = header("content-security-policy");
        let location = header("location");
        let cookies = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .map(str::to_owned)
            .collect();
        let status = response.status().as_u16();
        let body = response.into_body().read_to_string().unwrap_or_default();
        Answer { status, policy, cookies, location, body }
    }

    /// `GET PATH` with the API token `token`.
    pub fn get_with_token(&self, path: &str, token: &str) -> Answer {
        let request = Ladder::agent().get(&format!("{}{path}", self.url));
        Ladder::answer(request.header("Authorization", &format!("Bearer {token}")).call().unwrap())
    }

    /// `GET PATH`, with `cookie` if given.
    pub fn get(&self, path: &str, cookie: Option<&str>) -> Answer {
        let mut request = Ladder::agent().get(&format!("{}{path}", self.url));
        if let Some(cookie) = cookie {
            request = request.header("Cookie", cookie);
        }
        Ladder::answer(request.call().unwrap())
    }

    /// `GET PATH`'s body as bytes (a download).
    pub fn get_bytes(&self, path: &str) -> Vec<u8> {
        let response = Ladder::agent().get(&format!("{}{path}", self.url)).call().unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        response.into_body().read_to_vec().unwrap()
    }

    /// `POST PATH` of a form (`application/x-www-form-urlencoded`), with `cookie` if given.
    pub fn post_form(&self, path: &str, cookie: Option<&str>, form: &[(&str, &str)]) -> Answer {
        let body: Vec<String> = form.iter().map(|(key, value)| format!("{key}={}", encode(value))).collect();
        let mut request = Ladder::agent()
            .post(&format!("{}{path}", self.url))
            .header("Content-Type", "application/x-www-form-urlencoded");
        if let Some(cookie) = cookie {
            request = request.header("Cookie", cookie);
        }
        Ladder::answer(request.send(body.join("&")).unwrap())
    }

    /// `POST PATH` with `body` and a bearer token.
    pub fn post_bytes(&self, path: &str, token: &str, content_type: &str, body: &[u8]) -> Answer {
        self.post(path, Some(token), content_type, body)
    }

    /// `POST PATH` of `body` as JSON, with a bearer token if given.
    pub fn post_json(&self, path: &str, token: Option<&str>, body: &serde_json::Value) -> Answer {
        self.post(path, token, "application/json", body.to_string().as_bytes())
    }

    /// `POST PATH` with `body`, with a bearer token if given.
    pub fn post(&self, path: &str, token: Option<&str>, content_type: &str, body: &[u8]) -> Answer {
        let mut request = Ladder::agent().post(&format!("{}{path}", self.url)).header("Content-Type", content_type);
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        Ladder::answer(request.send(body).unwrap())
    }

    /// Uploads `file` as `token`'s bot `name` in `game`, waits for its checks and asserts they
    /// accepted it; the version as the API shows it.
    pub fn upload_accepted(&self, token: &str, game: &str, name: &str, file: &str) -> serde_json::Value {
        let path = format!("/api/games/{game}/bots/{name}");
        let answer = self.post_bytes(&path, token, "application/wasm", &std::fs::read(file).unwrap());
        assert_eq!(answer.status, 201, "{}", answer.body);
        let version = answer.json()["version_id"].as_i64().unwrap();
        let checked = self.wait_for(&format!("/api/versions/{version}"), 120, |version| version["status"] != "pending");
        assert_eq!(checked["status"], "accepted", "{checked}");
        checked
    }

    /// Polls `GET PATH` (JSON) until `done` holds for it, for at most `seconds`.
    pub fn wait_for(&self, path: &str, seconds: u64, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let started = Instant::now();
        loop {
            let answer = self.get(path, None);
            if answer.status == 200 && done(&answer.json()) {
                return answer.json();
            }
            assert!(
                started.elapsed() < Duration::from_secs(seconds),
                "{path} after {seconds} s: {}\n{}",
                answer.body,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// Percent-encodes a form value.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(byte).to_string(),
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

impl Drop for Ladder {
    /// Stops the server (SIGTERM by pid, then SIGKILL after 10 s) and reaps it.
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.server.id().to_string()).output();
        let started = Instant::now();
        while self.server.try_wait().ok().flatten().is_none() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
