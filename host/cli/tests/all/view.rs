//! `arena view` in a real browser: Debian's Chromium, headless, driven over the DevTools protocol
//! (`headless_chrome`). For each game, a replay of the example bots becomes a page; the test opens
//! it from `file://`, steps to the last turn with the keyboard, and checks what the page shows
//! against the replay: the final scores, the number of fault markers, and that the page asked the
//! network for nothing. Screenshots go to `target/view-screenshots/`. Needs the example bots
//! (`cargo xtask bots`) and Chromium (`cargo xtask test` installs Debian's `chromium`).

use crate::common::{arena, bot, fresh_scratch, scratch, stderr};
use headless_chrome::browser::tab::RequestPausedDecision;
use headless_chrome::browser::transport::{SessionId, Transport};
use headless_chrome::protocol::cdp::Fetch::events::RequestPausedEvent;
use headless_chrome::protocol::cdp::Fetch::{RequestPattern, RequestStage};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Chromium: `$ARENA_CHROMIUM`, else `chromium` on the PATH.
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("ARENA_CHROMIUM") {
        return PathBuf::from(path);
    }
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("chromium"))
        .find(|path| path.is_file());
    found.expect("Chromium is missing: `cargo xtask test` installs Debian's chromium (or set ARENA_CHROMIUM)")
}

fn browser() -> Browser {
    // No sandbox: test machines run as root in containers, where Chromium's sandbox cannot start.
    let options = LaunchOptions::default_builder()
        .path(Some(chromium()))
        .sandbox(false)
        .headless(true)
        .window_size(Some((1300, 900)))
        .args(vec![OsStr::new("--disable-gpu"), OsStr::new("--allow-file-access-from-files")])
        .idle_browser_timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    Browser::new(options).unwrap()
}

/// Plays a match of `game` between `bots` (seed 3) and writes its replay and its page into a
/// scratch folder; returns both paths.
fn replay_and_page(name: &str, game: &str, bots: &[&str]) -> (PathBuf, PathBuf) {
    let dir = scratch(&format!("view-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let (replay, page) = (dir.join("match.json"), dir.join("match.html"));
    let mut args = vec!["match", "--game", game, "--seed", "3", "--replay", replay.to_str().unwrap()];
    let paths: Vec<String> = bots.iter().map(|name| bot(name)).collect();
    args.extend(paths.iter().map(String::as_str));
    let played = arena(&args);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    let viewed = arena(&["view", replay.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(viewed.status.code(), Some(0), "{}", stderr(&viewed));
    (replay, page)
}

/// What the page shows after End: the turn label, each seat's score as displayed, the fault
/// markers, and every URL the page requested.
struct Shown {
    label: String,
    scores: Vec<String>,
    fault_markers: u64,
    requests: Vec<String>,
    first_frame: Duration,
    page_bytes: u64,
}

/// Every URL `tab` requests from now on (navigations included).
fn record_requests(tab: &headless_chrome::Tab) -> Arc<Mutex<Vec<String>>> {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let patterns =
        [RequestPattern { url_pattern: None, resource_Type: None, request_stage: Some(RequestStage::Request) }];
    tab.enable_fetch(Some(&patterns), None).unwrap();
    let seen = Arc::clone(&requests);
    tab.enable_request_interception(Arc::new(move |_: Arc<Transport>, _: SessionId, paused: RequestPausedEvent| {
        seen.lock().unwrap().push(paused.params.request.url.clone());
        RequestPausedDecision::Continue(None)
    }))
    .unwrap();
    requests
}

fn open_and_step_to_the_end(browser: &Browser, page: &Path, screenshot: &str) -> Shown {
    let tab = browser.new_tab().unwrap();
    let requests = record_requests(&tab);
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let started = Instant::now();
    tab.navigate_to(&url).unwrap().wait_until_navigated().unwrap();
    tab.wait_for_element("#board").unwrap();
    let ready = |tab: &headless_chrome::Tab| {
        tab.evaluate("Boolean(window.arenaView && window.arenaView.ready)", false).unwrap().value
            == Some(serde_json::Value::Bool(true))
    };
    while !ready(&tab) {
        assert!(started.elapsed() < Duration::from_secs(60), "the page never became ready");
        std::thread::sleep(Duration::from_millis(10));
    }
    let drawn_at = tab.evaluate("window.arenaView.drawnAt", false).unwrap().value.unwrap().as_f64().unwrap();
    let first_frame = Duration::from_secs_f64(drawn_at / 1000.0);
    tab.press_key("End").unwrap();
    let text = |expression: &str| tab.evaluate(expression, false).unwrap().value.unwrap();
    let label = text("document.getElementById('turn-label').textContent").as_str().unwrap().to_owned();
    let scores = text("JSON.stringify([...document.querySelectorAll('.score')].map((cell) => cell.textContent))");
    let scores: Vec<String> = serde_json::from_str(scores.as_str().unwrap()).unwrap();
    let fault_markers = text("document.querySelectorAll('#timeline .fault').length").as_u64().unwrap();
    let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("view-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join(format!("{screenshot}.png")), png).unwrap();
    let requests = requests.lock().unwrap().clone();
    let page_bytes = std::fs::metadata(page).unwrap().len();
    Shown { label, scores, fault_markers, requests, first_frame, page_bytes }
}

/// Every fault the replay records (start-up and turns), as the timeline should mark them.
fn faults_in(replay: &serde_json::Value) -> u64 {
    let faults = |seat: &serde_json::Value| seat["faults"].as_array().map_or(0, Vec::len) as u64;
    let setup: u64 = replay["setup"].as_array().unwrap().iter().map(faults).sum();
    let turns: u64 = replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|turn| turn["seats"].as_array().unwrap().iter().map(faults))
        .sum();
    setup + turns
}

/// The page of `bots` playing `game`, checked in the browser against its replay.
fn check_game(browser: &Browser, name: &str, game: &str, bots: &[&str]) -> Shown {
    let (replay, page) = replay_and_page(name, game, bots);
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let shown = open_and_step_to_the_end(browser, &page, name);
    let turns = recorded["turns"].as_array().unwrap().len();
    assert_eq!(shown.label, format!("turn {turns} / {turns}"), "{name}: End steps to the last turn");
    let final_scores: Vec<String> = recorded["result"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|player| player["score"].as_i64().unwrap().to_string())
        .collect();
    assert_eq!(shown.scores, final_scores, "{name}: the scores on screen at the last turn are the result's");
    assert_eq!(shown.fault_markers, faults_in(&recorded), "{name}: one marker per recorded fault");
    let page_url = format!("file://{}", page.canonicalize().unwrap().display());
    assert!(shown.requests.contains(&page_url), "{name}: requests are seen at all: {:?}", shown.requests);
    assert!(
        shown.requests.iter().all(|url| *url == page_url),
        "{name}: the page requested more than itself: {:?}",
        shown.requests
    );
    // Measured and printed, not asserted: these machines are shared.
    eprintln!(
        "{name}: {turns} turns, page {} bytes, first frame drawn {:?} after the navigation started",
        shown.page_bytes, shown.first_frame
    );
    shown
}

/// Every registered game's page (its two example bots, from the registry), in one browser; then
/// a match with faults, and the longest page.
#[test]
fn every_game_page_shows_the_final_scores_and_every_fault_and_loads_nothing() {
    let browser = browser();
    for info in arena_host::registry::games().iter().map(|entry| entry.info()) {
        check_game(&browser, info.name, info.name, &[info.examples.strong, info.examples.random]);
    }
    let faulty = check_game(&browser, "azul-faults", "azul", &["fx-illegal", "azul-greedy"]);
    assert!(faulty.fault_markers > 0, "the fixture's invalid answers are marked");
    // A 1000-turn Code Character page stays under 5 MB (its first frame's time is printed).
    let code_character = check_game(&browser, "code-character-long", "code-character", &["cc-rush", "cc-default"]);
    assert_eq!(code_character.label, "turn 1000 / 1000");
    assert!(code_character.page_bytes < 5 << 20, "a 1000-turn page is {} bytes", code_character.page_bytes);
}

/// The report's leaderboard sorts by the clicked column, its pages
/// request nothing, and a bot page links each kept replay's viewer page.
#[test]
fn the_tournament_report_sorts_by_a_clicked_column_and_loads_nothing() {
    let dir = fresh_scratch("view-report");
    let spec = dir.join("spec.toml");
    let bots = format!("[{:?}, {:?}, {:?}]", bot("azul-greedy"), bot("azul-random"), bot("azul-trivial"));
    std::fs::write(&spec, format!("game = \"azul\"\nformat = \"round-robin\"\nbots = {bots}\nseeds = [1, 2]\n"))
        .unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let run =
        ["tournament", "run", spec.to_str().unwrap(), "--db", &path("t.sqlite"), "--replays", &path("r"), "--quiet"];
    assert_eq!(arena(&run).status.code(), Some(0));
    let report = arena(&["tournament", "report", &path("t.sqlite"), "-o", &path("site")]);
    assert_eq!(report.status.code(), Some(0), "{}", stderr(&report));

    let browser = browser();
    let tab = browser.new_tab().unwrap();
    let requests = record_requests(&tab);
    let index = dir.join("site/index.html").canonicalize().unwrap();
    tab.navigate_to(&format!("file://{}", index.display())).unwrap().wait_until_navigated().unwrap();
    let names = || -> Vec<String> {
        let json = tab
            .evaluate("JSON.stringify([...document.querySelectorAll('#leaderboard tbody td.name a')].map((a) => a.textContent))", false)
            .unwrap()
            .value
            .unwrap();
        serde_json::from_str(json.as_str().unwrap()).unwrap()
    };
    assert_eq!(names()[0], "azul-greedy", "best first");
    let header = tab.wait_for_element("#leaderboard th:nth-child(2)").unwrap();
    header.click().unwrap();
    assert_eq!(names(), ["azul-trivial", "azul-random", "azul-greedy"], "by name, descending");
    header.click().unwrap();
    assert_eq!(names(), ["azul-greedy", "azul-random", "azul-trivial"], "again: ascending");

    // A bot page, and the first match it links: the viewer, drawn.
    tab.wait_for_element("#leaderboard tbody a").unwrap().click().unwrap();
    tab.wait_until_navigated().unwrap();
    tab.wait_for_element("#matches tbody a").unwrap().click().unwrap();
    tab.wait_until_navigated().unwrap();
    let started = Instant::now();
    while tab.evaluate("Boolean(window.arenaView && window.arenaView.ready)", false).unwrap().value
        != Some(serde_json::Value::Bool(true))
    {
        assert!(started.elapsed() < Duration::from_secs(60), "the match page never became ready");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(tab.get_url().contains("/matches/"), "{}", tab.get_url());
    let site = format!("file://{}/", index.parent().unwrap().display());
    let requests = requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 3, "the three pages navigated to: {requests:?}");
    assert!(requests.iter().all(|url| url.starts_with(&site)), "only the site's own pages: {requests:?}");
}

#[test]
fn a_file_that_is_not_a_replay_gets_an_error_not_a_page() {
    let dir = scratch("view-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"format\": \"something else\"}").unwrap();
    let page = dir.join("bad.html");
    let out = arena(&["view", bad.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not a Wasm Arena replay"), "{}", stderr(&out));
    assert!(!page.exists(), "no page is written");

    // A replay whose states were edited no longer matches the engine.
    let (replay, _) = replay_and_page("tampered", "azul", &["azul-greedy", "azul-random"]);
    let mut recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    recorded["turns"][2]["state_hash"] = serde_json::json!("0000000000000000");
    std::fs::write(&replay, recorded.to_string()).unwrap();
    let out = arena(&["view", replay.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not match this engine at turn 3"), "{}", stderr(&out));
}
