//! `arena serve` in a real browser: Debian's Chromium, headless, driven through Debian's
//! `chromedriver` over WebDriver (`fantoccini`), against the real binary on loopback. One
//! competitor's whole visit, through the pages and their forms as a person would use them:
//! signing up, making an API token on the account page (shown once), uploading a bot with the
//! upload form's file input, and watching the bot page reload itself (app.js, on the `version`
//! event) when its checks pass. With a second bot entered through the API, the game page's
//! leaderboard, its line of counts and its latest matches fill in live, without a reload (app.js,
//! on `result` events). A rated match's page shows the replay in its viewer frame, whose inline
//! scripts and stylesheet run under the viewer's hash-based content security policy; the bot page
//! then shows its version's rating history (an inline SVG chart and a table), and its scrimmage
//! form queues a match and lands on its page. A bot whose every answer is illegal (`fx-illegal`)
//! has its faults listed on its page, turn by turn. No page of the visit reports a content
//! security policy violation, and
//! an inline script injected into a page is refused (so the check would see one). Screenshots of
//! each page go to `target/tmp/ladder-screenshots/`. Needs the example bots (`cargo xtask bots`),
//! Chromium and chromedriver (`cargo xtask test` installs Debian's `chromium` and
//! `chromium-driver`; `ARENA_CHROMIUM` and `ARENA_CHROMEDRIVER` override the ones on the PATH).

use crate::common::ladder::Ladder;
use crate::common::{bot, fresh_scratch};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a wait may last before the test gives up: only so that a broken page fails the test
/// instead of hanging it (validation and rating run debug builds on busy machines).
const PATIENCE: Duration = Duration::from_secs(180);
/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(200);

/// `$VARIABLE`, else `name` found on the PATH.
fn program(variable: &str, name: &str, install: &str) -> PathBuf {
    if let Some(path) = std::env::var_os(variable) {
        return PathBuf::from(path);
    }
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file());
    found.unwrap_or_else(|| {
        panic!("{name} is missing: `cargo xtask test` installs Debian's {install} (or set {variable})")
    })
}

/// A chromedriver for one test, on a free loopback port, in a process group of its own, with the
/// browser it starts using a fresh profile folder. Dropping it stops the group and then every
/// process left whose command line names that profile (Chromium's processes outlive a killed
/// driver), all by pid.
struct Driver {
    /// `http://127.0.0.1:PORT`.
    url: String,
    /// Chromium's `--user-data-dir`: new and empty, and unique to this test process.
    profile: PathBuf,
    /// chromedriver's own log.
    log: PathBuf,
    driver: Child,
}

impl Driver {
    /// Starts chromedriver with its files in the scratch folder `name` (emptied) and waits until
    /// it answers.
    fn start(name: &str) -> Driver {
        let dir = fresh_scratch(name);
        let profile = dir.join("profile");
        std::fs::create_dir_all(&profile).unwrap();
        let log = dir.join("chromedriver.log");
        // A free port: the system's choice for a socket bound and closed at once.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(program("ARENA_CHROMEDRIVER", "chromedriver", "chromium-driver"))
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let driver = Driver { url: format!("http://127.0.0.1:{port}"), profile, log, driver };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(5)))
            .build()
            .into();
        let started = Instant::now();
        loop {
            let status = agent.get(&format!("{}/status", driver.url)).call().ok().and_then(|mut response| {
                response.body_mut().read_json::<Value>().ok().filter(|status| status["value"]["ready"] == true)
            });
            if status.is_some() {
                return driver;
            }
            assert!(started.elapsed() < PATIENCE, "chromedriver does not answer:\n{}", driver.log());
            std::thread::sleep(POLL);
        }
    }

    /// chromedriver's log so far.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// A new browser session: headless Chromium without sandbox (test machines run as root in
    /// containers) on the fresh profile, keeping the browser's console for [`console`].
    async fn session(&self) -> Client {
        let chromium = program("ARENA_CHROMIUM", "chromium", "chromium");
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--window-size=1280,1000",
                    format!("--user-data-dir={}", self.profile.display()),
                ],
            },
            "goog:loggingPrefs": { "browser": "ALL" },
        });
        let Value::Object(capabilities) = capabilities else { unreachable!() };
        // Plain HTTP: the driver and the ladder are on loopback.
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .unwrap_or_else(|err| panic!("no browser session: {err}\n{}", self.log()))
    }

    /// The browser's console messages since the last call (chromedriver's `se/log`, which keeps
    /// them because the session asked for `goog:loggingPrefs`): the pages' errors, and each
    /// content security policy violation (Chromium's "Refused to ... because it violates the
    /// following Content Security Policy directive ...").
    async fn console(&self, client: &Client) -> Vec<String> {
        let session = client.session_id().await.unwrap().unwrap();
        let agent: ureq::Agent =
            ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(30))).build().into();
        let mut response = agent
            .post(&format!("{}/session/{session}/se/log", self.url))
            .send_json(json!({ "type": "browser" }))
            .unwrap_or_else(|err| panic!("the browser's console: {err}\n{}", self.log()));
        let answer: Value = response.body_mut().read_json().unwrap();
        let entries = answer["value"].as_array().cloned().unwrap_or_default();
        entries.iter().map(|entry| format!("{} {}", entry["level"], entry["message"])).collect()
    }
}

/// The content security policy violations among console messages.
fn policy_violations(console: &[String]) -> Vec<&String> {
    console.iter().filter(|line| line.contains("Content Security Policy")).collect()
}

impl Drop for Driver {
    /// SIGKILLs chromedriver's process group (Chromium's processes stay in it), then every process
    /// whose command line names this driver's profile folder, by pid: what left the group
    /// (Chromium's crash handlers start sessions of their own) or outlived it.
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.driver.id())]).output();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let profile = self.profile.to_string_lossy().into_owned();
        let started = Instant::now();
        loop {
            let left = processes_naming(&profile);
            if left.is_empty() || started.elapsed() > Duration::from_secs(10) {
                break;
            }
            for pid in left {
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).output();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// The pids of the processes whose command line contains `text`.
fn processes_naming(text: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| String::from_utf8_lossy(&line).replace('\0', " ").contains(text))
        })
        .collect()
}

/// Saves a screenshot of what the browser shows as `target/tmp/ladder-screenshots/NAME.png`.
async fn screenshot(client: &Client, name: &str) {
    save_png(name, &client.screenshot().await.unwrap());
}

/// Saves `png` as `target/tmp/ladder-screenshots/NAME.png`, and says so (with the time since
/// the first screenshot: where a slow run spends its time).
fn save_png(name: &str, png: &[u8]) {
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    println!("{:6.1} s  {name}.png", FIRST.get_or_init(Instant::now).elapsed().as_secs_f64());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ladder-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Runs `script` (a function body) in the page until it returns something other than `null`,
/// `undefined` or `false`, and returns that. A page being replaced (a reload, a navigation) only
/// makes a round fail: the next one asks the new page.
async fn wait_in_page(client: &Client, what: &str, script: &str) -> Value {
    let started = Instant::now();
    loop {
        let last = client.execute(script, Vec::new()).await;
        match &last {
            Ok(Value::Null | Value::Bool(false)) | Err(_) => {}
            Ok(value) => return value.clone(),
        }
        if started.elapsed() > PATIENCE {
            let url = client.current_url().await.map(|url| url.to_string()).unwrap_or_default();
            panic!("{what}: not after {} s on {url} (last answer: {last:?})", PATIENCE.as_secs());
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Waits until the browser is on a page whose path starts with `prefix` and has loaded; returns
/// the path.
async fn wait_for_path(client: &Client, prefix: &str) -> String {
    let path = wait_in_page(
        client,
        &format!("a page under {prefix}"),
        &format!(
            "return document.readyState === 'complete'
                 && location.pathname.startsWith({prefix:?}) && location.pathname;"
        ),
    )
    .await;
    path.as_str().unwrap().to_owned()
}

/// The text of the first element matching `css`.
async fn text(client: &Client, css: &str) -> String {
    client.find(Locator::Css(css)).await.unwrap_or_else(|err| panic!("{css}: {err}")).text().await.unwrap()
}

/// Types `value` into the form field `css`.
async fn fill(client: &Client, css: &str, value: &str) {
    client.find(Locator::Css(css)).await.unwrap_or_else(|err| panic!("{css}: {err}")).send_keys(value).await.unwrap();
}

/// Clicks `css` (a form's submit button).
async fn click(client: &Client, css: &str) {
    client.find(Locator::Css(css)).await.unwrap_or_else(|err| panic!("{css}: {err}")).click().await.unwrap();
}

/// A JavaScript expression: the number in the Matches column of web-greedy's line of the game
/// page's leaderboard, or -1 while it has no line.
const WEB_GREEDY_MATCHES: &str = "(() => {
    const rows = Array.from(document.querySelectorAll('#leaderboard table tbody tr'));
    const row = rows.find((row) => row.cells[1].textContent.trim() === 'web-greedy');
    return row === undefined ? -1 : Number(row.cells[6].textContent);
})()";

#[test]
fn a_competitor_signs_up_uploads_watches_the_ladder_live_views_a_replay_and_asks_for_a_scrimmage() {
    let ladder = Ladder::start(&fresh_scratch("ladder-browser"), &[]);
    let driver = Driver::start("ladder-browser-driver");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(visit(&ladder, &driver));
}

async fn visit(ladder: &Ladder, driver: &Driver) {
    let client = driver.session().await;
    let url = |path: &str| format!("{}{path}", ladder.url);

    // Sign up: the form, then the account page it leads to.
    client.goto(&url("/signup")).await.unwrap();
    fill(&client, "main form input[name=name]", "web-alice").await;
    fill(&client, "main form input[name=password]", "a long password").await;
    screenshot(&client, "01-signup").await;
    click(&client, "main form button[type=submit]").await;
    wait_for_path(&client, "/account").await;
    assert_eq!(text(&client, "main h1").await, "web-alice");
    assert_eq!(text(&client, "nav a[href='/account']").await, "web-alice", "signed in: the menu names the account");
    screenshot(&client, "02-account").await;

    // An API token, shown once.
    fill(&client, "main form input[name=label]", "browser").await;
    click(&client, "main form button[type=submit]").await;
    wait_for_path(&client, "/account/tokens").await;
    let token = text(&client, "code#new-token").await;
    assert!(token.starts_with("arena_"), "{token}");
    assert_eq!(text(&client, "ul#tokens").await, "browser");
    screenshot(&client, "03-account-token").await;

    // Upload a bot with the form: the browser sends the file its input was given.
    client.goto(&url("/upload")).await.unwrap();
    client.find(Locator::Css("select[name=game]")).await.unwrap().select_by_value("azul").await.unwrap();
    fill(&client, "main form input[name=name]", "web-greedy").await;
    let greedy = std::fs::canonicalize(bot("azul-greedy")).unwrap();
    fill(&client, "main form input[type=file]", greedy.to_str().unwrap()).await;
    screenshot(&client, "04-upload").await;
    click(&client, "main form button[type=submit]").await;
    let bot_page = wait_for_path(&client, "/bots/").await;
    assert_eq!(text(&client, "main h1").await, "web-greedy");

    // The bot page while its checks run reloads itself when they finish (app.js, on the
    // `version` event): a marker set in the page now is gone from the page that shows the result.
    // The marker is set and the status read in one script: a reload between the two would put
    // the marker on the page that already shows the result.
    let status = client
        .execute(
            "window.__arenaMarker = 1; return document.querySelector('#versions .status').textContent;",
            Vec::new(),
        )
        .await
        .unwrap();
    let status = status.as_str().unwrap_or_default().to_owned();
    let pending = status == "pending";
    if pending {
        screenshot(&client, "05-bot-pending").await;
    } else {
        println!("the checks of web-greedy were done before its page showed ({status}): no reload to watch");
    }
    let status = wait_in_page(
        &client,
        "the bot page showing the checks' result",
        "const status = document.querySelector('#versions .status');
         return document.readyState === 'complete' && status !== null
             && status.textContent !== 'pending' && status.textContent;",
    )
    .await;
    let reason = match client.find(Locator::Css("#versions .reason")).await {
        Ok(reason) => reason.text().await.unwrap(),
        Err(_) => String::new(),
    };
    assert_eq!(status, "accepted", "{reason}\n{}", ladder.log());
    // Only a page that showed the checks pending has a reload to watch: checks done before the
    // page showed (a fast machine) leave the first page, marker and all, showing the result.
    if pending {
        let marker = client.execute("return window.__arenaMarker === undefined;", Vec::new()).await.unwrap();
        assert_eq!(marker, true, "the page that shows the result is a new one (reloaded by app.js)");
    }
    let steps = client
        .execute(
            "return Array.from(document.querySelectorAll('#versions table.steps tr'))
                 .map((row) => row.cells[0].textContent + ': ' + row.cells[1].textContent);",
            Vec::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        steps,
        json!(["upload: ok", "read: ok", "shape: ok", "type check: ok", "compile: ok", "validation: ok"]),
        "every check passed, in order"
    );
    assert_eq!(client.current_url().await.unwrap().path(), bot_page, "still the bot page");
    screenshot(&client, "06-bot-accepted").await;

    // The game page, open before any match can be played (web-greedy is alone on the ladder):
    // marked, then a second bot is entered through the API with the token made above, and the
    // leaderboard fills in on this very page as the results land (app.js, on `result` events).
    client.goto(&url("/games/azul")).await.unwrap();
    let before = client.execute(&format!("return {WEB_GREEDY_MATCHES};"), Vec::new()).await.unwrap();
    assert!(before.as_i64().unwrap() <= 0, "no match yet: {before}");
    client.execute("window.__arenaMarker = 1;", Vec::new()).await.unwrap();
    screenshot(&client, "07-game-alone").await;
    let random = std::fs::read(bot("azul-random")).unwrap();
    let answer = ladder.post_bytes("/api/games/azul/bots/rand", &token, "application/wasm", &random);
    assert_eq!(answer.status, 201, "{}", answer.body);
    let matches = wait_in_page(
        &client,
        "web-greedy's line on the live leaderboard",
        &format!(
            "if (window.__arenaMarker !== 1) return 'reloaded';
             const matches = {WEB_GREEDY_MATCHES};
             return matches > 0 && matches;"
        ),
    )
    .await;
    assert!(matches.as_u64().is_some_and(|matches| matches > 0), "{matches}");
    // The line of counts and the latest matches follow (the counts are the leaderboard's).
    let latest = wait_in_page(
        &client,
        "the game page's latest matches and counts, live",
        "if (window.__arenaMarker !== 1) return 'reloaded';
         const rows = document.querySelectorAll('#latest table tbody tr').length;
         const summary = document.getElementById('game-summary').textContent;
         return rows > 0 && summary.startsWith('2 bots rated, ') && !summary.includes(' 0 ranked') && summary;",
    )
    .await;
    assert!(latest.as_str().is_some_and(|summary| summary.ends_with(" ranked matches.")), "{latest}");
    let marker = client.execute("return window.__arenaMarker;", Vec::new()).await.unwrap();
    assert_eq!(marker, 1, "the leaderboard, counts and latest matches changed without a reload");
    screenshot(&client, "08-game-live").await;

    // A rated match's page: its viewer frame reads the replay and draws it. The viewer's inline
    // scripts (the frame's title is written by one, the board by the game's renderer) and its
    // inline stylesheet (the header's colour) are allowed by their hashes only.
    let recent = ladder.wait_for("/api/matches?game=azul&limit=1", PATIENCE.as_secs(), |recent| recent[0].is_object());
    let id = recent[0]["id"].as_i64().unwrap();
    client.goto(&url(&format!("/matches/{id}"))).await.unwrap();
    assert_eq!(text(&client, "main h1").await, format!("Match #{id}"));
    let frame = client.find(Locator::Css("iframe.viewer")).await.unwrap();
    frame.enter_frame().await.unwrap();
    let title = wait_in_page(
        &client,
        "the viewer's title once it has read the replay",
        "return window.arenaView !== undefined && window.arenaView.ready === true
             && document.getElementById('title').textContent;",
    )
    .await;
    let title = title.as_str().unwrap().to_owned();
    assert!(title.starts_with("azul: ") && title.contains(" vs "), "{title}");
    let shown = client
        .execute(
            "return { turns: window.arenaView.turns,
                      header: getComputedStyle(document.querySelector('header')).backgroundColor,
                      label: document.getElementById('turn-label').textContent };",
            Vec::new(),
        )
        .await
        .unwrap();
    assert!(shown["turns"].as_u64().is_some_and(|turns| turns > 0), "{shown}");
    assert_eq!(shown["header"], "rgb(38, 50, 56)", "the viewer's inline stylesheet applies: {shown}");
    assert!(shown["label"].as_str().unwrap().starts_with("start-up / "), "{shown}");
    client.enter_parent_frame().await.unwrap();
    screenshot(&client, "09-match").await;
    save_png("10-match-viewer", &frame.screenshot().await.unwrap());
    let console = driver.console(&client).await;
    let violations = policy_violations(&console);
    assert!(violations.is_empty(), "content security policy violations so far: {violations:#?}");

    // The bot page: its version's rating history since its first rated results (kept when the
    // game page's leaderboard was refitted), as a chart and a table.
    client.goto(&url(&bot_page)).await.unwrap();
    let history = client
        .execute(
            "const chart = document.querySelector('#versions svg.chart');
             const rows = document.querySelectorAll('#versions table.ratings tbody tr');
             return chart && { line: chart.querySelector('polyline.rating').getAttribute('points'),
                               band: getComputedStyle(chart.querySelector('polygon.band')).fill,
                               rows: rows.length, rating: rows[0].cells[2].textContent };",
            Vec::new(),
        )
        .await
        .unwrap();
    assert!(history["line"].as_str().is_some_and(|points| !points.is_empty()), "a rating chart: {history}");
    assert_eq!(history["band"], "rgb(187, 222, 251)", "the stylesheet colours the chart: {history}");
    assert!(history["rows"].as_u64().is_some_and(|rows| rows >= 1), "{history}");
    assert!(history["rating"].as_str().is_some_and(|rating| rating.parse::<f64>().is_ok()), "{history}");

    // A scrimmage from the bot page's form: it lands on the new match's page, which shows the
    // replay once the match is played.
    client.find(Locator::Css("select[name=opponent]")).await.unwrap().select_by_label("rand").await.unwrap();
    screenshot(&client, "11-bot-scrimmage-form").await;
    click(&client, "form[action$='/scrimmage'] button[type=submit]").await;
    let match_page = wait_for_path(&client, "/matches/").await;
    let scrimmage: i64 = match_page.trim_start_matches("/matches/").parse().unwrap();
    assert_eq!(text(&client, "main h1").await, format!("Match #{scrimmage}"));
    assert!(text(&client, "main p").await.starts_with("scrimmage azul"), "an unranked match of azul");
    screenshot(&client, "12-scrimmage-queued").await;
    let played = ladder.wait_for(&format!("/api/matches/{scrimmage}"), PATIENCE.as_secs(), |one| {
        one["state"] != "queued" && one["state"] != "running"
    });
    assert_eq!(played["state"], "done", "{played}");
    assert_eq!(played["kind"], "scrimmage", "{played}");
    client.refresh().await.unwrap();
    let frame = client.find(Locator::Css("iframe.viewer")).await.unwrap();
    frame.enter_frame().await.unwrap();
    wait_in_page(
        &client,
        "the scrimmage's viewer",
        "return window.arenaView !== undefined && window.arenaView.ready === true;",
    )
    .await;
    client.enter_parent_frame().await.unwrap();
    screenshot(&client, "13-scrimmage-played").await;

    // A bot whose every answer is illegal: once it has played, its page lists its faults, each
    // with its match, its turn and the game's reason.
    let illegal = std::fs::read(bot("fx-illegal")).unwrap();
    let answer = ladder.post_bytes("/api/games/azul/bots/illegal", &token, "application/wasm", &illegal);
    assert_eq!(answer.status, 201, "{}", answer.body);
    let entered = answer.json();
    let version = entered["version_id"].as_i64().unwrap();
    ladder.wait_for("/api/matches?game=azul&limit=100", PATIENCE.as_secs(), |matches| {
        let seated =
            |one: &Value| one["seats"].as_array().into_iter().flatten().any(|seat| seat["version_id"] == version);
        matches.as_array().into_iter().flatten().any(seated)
    });
    client.goto(&url(&format!("/bots/{}", entered["bot_id"]))).await.unwrap();
    let faults = client
        .execute(
            "return Array.from(document.querySelectorAll('table.faults tbody tr'))
                 .map((row) => [row.cells[0].textContent, row.cells[1].textContent, row.cells[2].textContent,
                                row.cells[3].textContent]);",
            Vec::new(),
        )
        .await
        .unwrap();
    let faults = faults.as_array().cloned().unwrap_or_default();
    assert!(!faults.is_empty(), "version {version}'s faults are listed");
    let first = &faults[0];
    assert!(first[0].as_str().unwrap().starts_with('#'), "{first}");
    assert!(first[1].as_str().unwrap().parse::<u32>().is_ok_and(|turn| turn >= 1), "{first}");
    assert_eq!(first[2], "invalid action", "{first}");
    assert!(first[3].as_str().unwrap().starts_with("refused: "), "the game's reason: {first}");
    screenshot(&client, "14-bot-faults").await;

    // No page of the visit broke its content security policy, and the check sees a violation
    // when there is one: an inline script added to this page is refused, and reported.
    let console = driver.console(&client).await;
    let violations = policy_violations(&console);
    assert!(violations.is_empty(), "content security policy violations: {violations:#?}");
    client
        .execute(
            "const script = document.createElement('script');
             script.textContent = 'window.__injected = 1;';
             document.body.append(script);",
            Vec::new(),
        )
        .await
        .unwrap();
    let injected = client.execute("return window.__injected === undefined;", Vec::new()).await.unwrap();
    assert_eq!(injected, true, "the page's policy refused the inline script");
    let started = Instant::now();
    loop {
        let console = driver.console(&client).await;
        if !policy_violations(&console).is_empty() {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "the refused inline script was not reported: {console:#?}");
        tokio::time::sleep(POLL).await;
    }
    client.close().await.unwrap();
    println!("screenshots in {}", Path::new(env!("CARGO_TARGET_TMPDIR")).join("ladder-screenshots").display());
}
