//! `arena tournament` as an organizer meets it: results that do not depend on the number of
//! jobs, a run killed with SIGKILL and resumed that ends with every match exactly once and the
//! same results as an uninterrupted run, and bad SPECs and bad bots refused or reported.
//! Needs the example bots (`cargo xtask bots`).

use crate::common::{arena, bot, fresh_scratch, scratch, stderr, stdout};
use arena_tournament::store::Store;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Writes a SPEC into a fresh folder of its own; returns its path.
fn write_spec(name: &str, body: &str) -> PathBuf {
    let dir = fresh_scratch(name);
    let path = dir.join("spec.toml");
    std::fs::write(&path, body).unwrap();
    path
}

/// A round robin of `bots` on `seeds`, with its database beside the SPEC.
fn round_robin(name: &str, bots: &[&str], seeds: &str) -> PathBuf {
    let listed: Vec<String> = bots.iter().map(|name| format!("{:?}", bot(name))).collect();
    write_spec(
        name,
        &format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{}]\nseeds = \"{seeds}\"\n", listed.join(", ")),
    )
}

/// Every finished match of a database's current tournament: (id, played, result JSON).
fn matches(db: &Path) -> Vec<(String, bool, String)> {
    let store = Store::open(db).unwrap();
    let digest = store.current_spec().unwrap().unwrap();
    store.matches(&digest).unwrap()
}

fn run(spec: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["tournament", "run", spec.to_str().unwrap()];
    args.extend(extra);
    arena(&args)
}

/// The same SPEC with 1 and 2 jobs gives the identical leaderboard and identical
/// per-match results; a second run plays nothing.
#[test]
fn one_job_and_two_jobs_give_identical_results_and_a_rerun_plays_nothing() {
    let spec = round_robin("jobs", &["azul-greedy", "azul-random", "azul-trivial"], "1..4");
    let (one, two) = (spec.with_file_name("one.sqlite"), spec.with_file_name("two.sqlite"));
    let first = run(&spec, &["--jobs", "1", "--db", one.to_str().unwrap(), "--format", "json"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let second = run(&spec, &["--jobs", "2", "--db", two.to_str().unwrap(), "--format", "json"]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert_eq!(stdout(&first), stdout(&second));
    let board: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    // 3 pairs x 4 seeds x 2 seat orders.
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(24), Some(24)));
    let leaderboard = board["leaderboard"].as_array().unwrap();
    assert_eq!(leaderboard[0]["bot"], "azul-greedy", "{board}");
    for row in leaderboard {
        for key in
            ["bot", "sha256", "matches", "wins", "draws", "losses", "rating", "rating_low", "rating_high", "forfeits"]
        {
            assert!(!row[key].is_null(), "{key} in {row}");
        }
        assert_eq!(row["matches"], 16);
    }
    assert_eq!(matches(&one), matches(&two));
    let again = run(&spec, &["--jobs", "2", "--db", two.to_str().unwrap()]);
    assert!(stderr(&again).contains("24 already in"), "{}", stderr(&again));
    assert!(stderr(&again).contains("0 played now"), "{}", stderr(&again));
}

/// A run killed with SIGKILL halfway, then run again, ends with
/// every planned match exactly once, results identical to an uninterrupted run, and a database
/// SQLite finds intact.
#[test]
fn a_run_killed_halfway_and_rerun_completes_with_every_match_once() {
    let spec = round_robin("killed", &["azul-trivial", "azul-random", "fx-glue-azul"], "1..150");
    let killed_db = spec.with_file_name("killed.sqlite");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", "run", spec.to_str().unwrap(), "--jobs", "2", "--quiet", "--db"])
        .arg(&killed_db)
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once some matches are in (polling the database as `show` would).
    let mut played_at_kill = 0;
    for _ in 0..3000 {
        std::thread::sleep(Duration::from_millis(5));
        if let Ok(store) = Store::open(&killed_db)
            && let Ok(Some(digest)) = store.current_spec()
            && let Ok((_, played, _)) = store.progress(&digest)
            && played >= 20
        {
            played_at_kill = played;
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(played_at_kill >= 20, "the run recorded matches before it was killed");
    let total = 3 * 150 * 2;
    let after_kill = matches(&killed_db).len();
    assert!(after_kill < total, "killed before the end: {after_kill} of {total}");

    let resumed = run(&spec, &["--jobs", "2", "--db", killed_db.to_str().unwrap()]);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains(&format!("{after_kill} already in")), "{}", stderr(&resumed));
    let reference_db = spec.with_file_name("reference.sqlite");
    let reference = run(&spec, &["--jobs", "1", "--db", reference_db.to_str().unwrap()]);
    assert_eq!(reference.status.code(), Some(0), "{}", stderr(&reference));
    let (resumed_matches, reference_matches) = (matches(&killed_db), matches(&reference_db));
    assert_eq!(resumed_matches.len(), total);
    assert_eq!(resumed_matches, reference_matches);
    assert_eq!(Store::open(&killed_db).unwrap().integrity_check().unwrap(), "ok");
}

/// An unknown key, a missing bot file and an impossible option are refused
/// before any match, naming the line, the file or the option; nothing is written.
/// One run writes a database at a time (it records each match once because it plays only the
/// ids the database lacks): while another holds it, a run is refused before it plays, and the
/// database is untouched; once it lets go, the same command plays.
#[test]
fn a_second_run_of_one_database_is_refused_while_the_first_writes() {
    let spec = round_robin("busy", &["azul-greedy", "azul-random"], "1..2");
    let db = spec.with_file_name("busy.sqlite");
    let held = arena_tournament::lock::WriterLock::acquire(&db).unwrap();
    let refused = run(&spec, &["--db", db.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("another `arena tournament` run is writing"), "{}", stderr(&refused));
    assert!(!db.exists(), "a refused run creates no database");
    drop(held);
    let played = run(&spec, &["--db", db.to_str().unwrap()]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    assert_eq!(matches(&db).len(), 4);
}

#[test]
fn bad_specs_are_refused_before_any_match() {
    let greedy = bot("azul-greedy");
    let cases = [
        (
            "unknown-key",
            format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{greedy:?}]\nseeds = [1]\nturn_fuel = 5\n"),
            "line 5",
        ),
        (
            "missing-file",
            format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{greedy:?}, \"nope.wasm\"]\nseeds = [1]\n"),
            "nope.wasm does not exist",
        ),
        (
            "bad-option",
            format!(
                "game = \"azul\"\nformat = \"round-robin\"\nbots = [{greedy:?}, {:?}]\nseeds = [1]\n[options]\ncolour = \"x\"\n",
                bot("azul-random")
            ),
            "[options]",
        ),
        (
            "bad-game",
            "game = \"chess\"\nformat = \"round-robin\"\nbots = []\nseeds = [1]\n".to_owned(),
            "unknown game \"chess\"",
        ),
    ];
    for (name, body, expected) in cases {
        let spec = write_spec(name, &body);
        let out = run(&spec, &[]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(expected), "{name}: {}", stderr(&out));
        assert!(!spec.with_file_name("tournament.sqlite").exists(), "{name}: nothing written");
    }
}

/// A SPEC change that alters match ids is reported, the earlier SPEC's results stay
/// in the database, tagged with the SPEC that planned them and not counted by the new one, and the
/// matches both SPECs plan are not played again.
#[test]
fn a_changed_spec_keeps_the_earlier_results_apart_and_says_so() {
    let spec = round_robin("respec", &["azul-greedy", "azul-random", "azul-trivial"], "1..2");
    let db = spec.with_file_name("results.sqlite");
    let db_arg = db.to_str().unwrap();
    let first = run(&spec, &["--db", db_arg]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let original = std::fs::read_to_string(&spec).unwrap();

    // Another turn budget: every match id changes.
    std::fs::write(&spec, format!("{original}[budget]\nturn_fuel = 9000000\n")).unwrap();
    let second = run(&spec, &["--db", db_arg]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(
        stderr(&second).contains(&format!("12 results in {db_arg} belong to another SPEC (kept, not counted here)")),
        "{}",
        stderr(&second)
    );
    assert!(stderr(&second).contains("12 matches planned: 0 already in"), "{}", stderr(&second));
    let shown = arena(&["tournament", "show", db_arg, "--format", "json"]);
    let board: serde_json::Value = serde_json::from_str(&stdout(&shown)).unwrap();
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(12), Some(12)));
    let connection = rusqlite::Connection::open(&db).unwrap();
    let count = |sql: &str| connection.query_row(sql, [], |row| row.get::<_, i64>(0)).unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM matches"), 24, "the earlier results stay");
    assert_eq!(count("SELECT COUNT(DISTINCT spec_digest) FROM plans"), 2, "each tagged with its SPEC");

    // One bot fewer under the same budget: its matches stay, the others are not played again.
    let without_trivial = original.replace(&format!(", {:?}", bot("azul-trivial")), "");
    assert_ne!(without_trivial, original);
    std::fs::write(&spec, format!("{without_trivial}[budget]\nturn_fuel = 9000000\n")).unwrap();
    let third = run(&spec, &["--db", db_arg]);
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    assert!(stderr(&third).contains("4 matches planned: 4 already in"), "{}", stderr(&third));
    assert!(stderr(&third).contains("0 played now"), "{}", stderr(&third));
    assert!(stderr(&third).contains("20 results in"), "{}", stderr(&third));
}

/// A plan names its bots by sha256; `run-plan` refuses a plan whose bot file
/// changed since it was planned, naming the file, before it writes anything.
#[test]
fn run_plan_refuses_a_bot_file_that_changed_since_the_plan() {
    let dir = fresh_scratch("replaced-bot");
    let (greedy, random) = (dir.join("greedy.wasm"), dir.join("random.wasm"));
    std::fs::copy(bot("azul-greedy"), &greedy).unwrap();
    std::fs::copy(bot("azul-random"), &random).unwrap();
    let spec = dir.join("spec.toml");
    std::fs::write(
        &spec,
        format!("game = \"azul\"\nformat = \"round-robin\"\nbots = [{greedy:?}, {random:?}]\nseeds = [1]\n"),
    )
    .unwrap();
    let plan = dir.join("plan.jsonl");
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap(), "-o", plan.to_str().unwrap()]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));

    std::fs::copy(bot("azul-trivial"), &random).unwrap();
    let db = dir.join("shard.sqlite");
    let out =
        arena(&["tournament", "run-plan", plan.to_str().unwrap(), "--shard", "0/1", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("{} is not the bot the plan names", random.display())), "{}", stderr(&out));
    assert!(!db.exists(), "nothing written");
}

/// Tournaments play on a pool of instance slots reserved up front (tens of GiB of address
/// space); where the address space is limited (`ulimit -v`), the run says so and allocates
/// instances on demand, with the same results.
#[test]
fn a_limited_address_space_falls_back_to_on_demand_instances_with_the_same_results() {
    let spec = round_robin("limited-address-space", &["azul-greedy", "azul-random"], "1..2");
    let (pooled, limited) = (spec.with_file_name("pooled.sqlite"), spec.with_file_name("limited.sqlite"));
    let first = run(&spec, &["--jobs", "1", "--db", pooled.to_str().unwrap(), "--quiet"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(!stderr(&first).contains("on demand"), "{}", stderr(&first));
    // 24 GiB: room for two bots' on-demand memories (4 GiB reserved plus guards each), not for
    // the pool's slots.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 25165824 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", "run", spec.to_str().unwrap(), "--jobs", "1", "--quiet"])
        .args(["--db", limited.to_str().unwrap()])
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning: allocating instances on demand"), "{}", stderr(&out));
    assert_eq!(matches(&pooled), matches(&limited));
}

/// `report` writes the leaderboard, a page per bot and a viewer
/// page for every match whose replay was kept; names from file names are escaped.
#[test]
fn the_report_links_every_bot_and_every_kept_replay() {
    let dir = fresh_scratch("report");
    let odd = dir.join("odd<b>&.wasm");
    std::fs::copy(bot("azul-random"), &odd).unwrap();
    let spec = dir.join("spec.toml");
    let bots = format!("[{:?}, {:?}, {:?}]", bot("azul-greedy"), bot("azul-trivial"), odd);
    std::fs::write(&spec, format!("game = \"azul\"\nformat = \"round-robin\"\nbots = {bots}\nseeds = [1]\n")).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let played = run(&spec, &["--db", &path("t.sqlite"), "--replays", &path("replays"), "--quiet"]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    let report = arena(&["tournament", "report", &path("t.sqlite"), "-o", &path("site")]);
    assert_eq!(report.status.code(), Some(0), "{}", stderr(&report));
    assert!(stderr(&report).contains("3 bot pages, 6 match pages"), "{}", stderr(&report));
    let site = dir.join("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("odd&lt;b&gt;&amp;") && !index.contains("odd<b>"), "the name is escaped");
    let links = |html: &str, from: &Path| -> Vec<PathBuf> {
        html.split("href=\"").skip(1).map(|rest| from.join(&rest[..rest.find('"').unwrap()])).collect()
    };
    let bot_pages = links(&index, &site);
    assert_eq!(bot_pages.len(), 3, "{index}");
    let mut match_pages = std::collections::BTreeSet::new();
    for page in &bot_pages {
        let html = std::fs::read_to_string(page).unwrap_or_else(|err| panic!("{}: {err}", page.display()));
        for link in links(&html, page.parent().unwrap()) {
            assert!(link.is_file(), "{} links to {}", page.display(), link.display());
            match_pages.insert(link.canonicalize().unwrap());
        }
    }
    // Each bot page links the leaderboard and its 4 matches; every match is on two bot pages.
    assert_eq!(match_pages.len(), 6 + 1, "{match_pages:?}");

    // Without kept replays: the same pages, no match page.
    let bare = arena(&["tournament", "report", &path("t.sqlite"), "-o", &path("bare"), "--replays", &path("nowhere")]);
    assert_eq!(bare.status.code(), Some(0), "{}", stderr(&bare));
    assert!(stderr(&bare).contains("0 match pages (6 played matches without a kept replay)"), "{}", stderr(&bare));
}

/// A bot that fails to load is reported once with its file and reason, its
/// matches are recorded as not played (not as losses), and the others play.
#[test]
fn a_bot_that_fails_to_load_is_reported_and_the_rest_play() {
    let spec_dir = fresh_scratch("bad-bot");
    let broken = spec_dir.join("broken.wasm");
    std::fs::write(&broken, b"\0asm not really").unwrap();
    let body = format!(
        "game = \"azul\"\nformat = \"round-robin\"\nbots = [{:?}, {:?}, \"broken.wasm\"]\nseeds = [1, 2]\n",
        bot("azul-greedy"),
        bot("azul-random")
    );
    std::fs::write(spec_dir.join("spec.toml"), body).unwrap();
    let out = run(&spec_dir.join("spec.toml"), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reports = stderr(&out).lines().filter(|line| line.contains("broken.wasm")).count();
    assert_eq!(reports, 1, "reported once: {}", stderr(&out));
    let board: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(board["matches_planned"], 12);
    assert_eq!(board["matches_played"], 4);
    assert_eq!(board["matches_not_played"], 8);
    let broken_row = board["leaderboard"].as_array().unwrap().iter().find(|row| row["bot"] == "broken").unwrap();
    assert_eq!((broken_row["matches"].as_u64(), broken_row["losses"].as_u64()), (Some(0), Some(0)));
    assert!(broken_row["load_error"].as_str().unwrap().contains("broken.wasm"), "{broken_row}");
}

/// `init` prints a SPEC that `run` accepts as is.
#[test]
fn the_starter_spec_runs() {
    let out = arena(&["tournament", "init", "--game", "azul", &bot("azul-greedy"), &bot("azul-random")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spec = write_spec("starter", &stdout(&out).replace("seeds = \"1..10\"", "seeds = \"1..2\""));
    let ran = run(&spec, &["--quiet"]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    assert!(stdout(&ran).starts_with("4 of 4 matches played"), "{}", stdout(&ran));
    assert!(stderr(&ran).is_empty(), "--quiet: {}", stderr(&ran));
}

/// `init -o FILE` writes a SPEC elsewhere whose bot paths resolve from its own folder: given
/// paths relative to the shell's folder, a SPEC two folders down runs from anywhere (obeyed);
/// the same paths copied as given into that SPEC (what `init > elsewhere/spec.toml` did) name
/// no bot there (violated); and an existing SPEC is never overwritten.
#[test]
fn init_with_an_output_file_writes_bot_paths_that_resolve_from_it() {
    let shell = fresh_scratch("init-output");
    std::fs::create_dir_all(shell.join("bots")).unwrap();
    for name in ["azul-greedy", "azul-random"] {
        std::fs::copy(bot(name), shell.join("bots").join(format!("{name}.wasm"))).unwrap();
    }
    std::fs::create_dir_all(shell.join("specs/azul")).unwrap();
    let init = |output: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["tournament", "init", "--game", "azul", "bots/azul-greedy.wasm", "bots/azul-random.wasm"])
            .args(["-o", output])
            .current_dir(&shell)
            .output()
            .unwrap()
    };
    let out = init("specs/azul/spec.toml");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(shell.join("specs/azul/spec.toml")).unwrap();
    assert!(written.contains("\"../../bots/azul-greedy.wasm\""), "{written}");
    let spec = shell.join("specs/azul/spec.toml");
    std::fs::write(&spec, written.replace("seeds = \"1..10\"", "seeds = \"1..1\"")).unwrap();
    let ran = run(&spec, &["--quiet"]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    assert!(stdout(&ran).starts_with("2 of 2 matches played"), "{}", stdout(&ran));

    let as_given = shell.join("specs/azul/as-given.toml");
    std::fs::write(&as_given, written.replace("../../bots/", "bots/")).unwrap();
    let refused = run(&as_given, &["--quiet"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));

    let again = init("specs/azul/spec.toml");
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("never overwritten"), "{}", stderr(&again));
}

/// The tournament guide's complete SPEC example parses (every key it shows exists).
#[test]
fn the_documented_spec_example_parses() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tournaments.md")).unwrap();
    let start = readme.find("```toml\ngame = ").expect("the guide shows a SPEC") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let spec = arena_tournament::spec::Spec::parse(Path::new("docs/tournaments.md"), &readme[start..end]).unwrap();
    assert_eq!(spec.game, "azul");
    assert_eq!(spec.budget.turn_fuel, Some(10_000_000));
}

/// `plan`, `run-plan` over 3 shards and `merge` give the same leaderboard and the
/// same per-match results as one `run`; a shard rerun plays nothing; a missing shard is
/// reported by index, and a result that differs between two shards is a determinism failure.
#[test]
fn three_shards_merged_equal_one_run_and_gaps_and_disagreements_are_reported() {
    let spec = round_robin("shards", &["azul-greedy", "azul-random", "azul-trivial"], "1..3");
    let dir = spec.parent().unwrap().to_path_buf();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let single = run(&spec, &["--db", &path("single.sqlite"), "--format", "json", "--quiet"]);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap(), "-o", &path("plan.jsonl")]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));
    assert_eq!(std::fs::read_to_string(dir.join("plan.jsonl")).unwrap().lines().count(), 18);
    for shard in 0..3 {
        let db = path(&format!("shard-{shard}.sqlite"));
        let out =
            arena(&["tournament", "run-plan", &path("plan.jsonl"), "--shard", &format!("{shard}/3"), "--db", &db]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stderr(&out).contains("6 matches planned: 0 already in"), "{}", stderr(&out));
        let again =
            arena(&["tournament", "run-plan", &path("plan.jsonl"), "--shard", &format!("{shard}/3"), "--db", &db]);
        assert!(stderr(&again).contains("6 already in"), "a finished shard plays nothing: {}", stderr(&again));
    }
    let shards: Vec<String> = (0..3).map(|shard| path(&format!("shard-{shard}.sqlite"))).collect();
    let mut args = vec!["tournament", "merge"];
    args.extend(shards.iter().map(String::as_str));
    let merged_path = path("all.sqlite");
    args.extend(["-o", &merged_path]);
    let merged = arena(&args);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let shown = arena(&["tournament", "show", &merged_path, "--format", "json"]);
    assert_eq!(stdout(&shown), stdout(&single));
    assert_eq!(matches(&dir.join("all.sqlite")), matches(&dir.join("single.sqlite")));

    // Two shards of three: shard 2's matches are missing.
    let partial_path = path("partial.sqlite");
    let partial = arena(&["tournament", "merge", &shards[0], &shards[1], "-o", &partial_path]);
    assert_eq!(partial.status.code(), Some(1), "{}", stderr(&partial));
    assert!(stderr(&partial).contains("shard 2: 6 planned matches missing"), "{}", stderr(&partial));

    // A shard whose copy of a match disagrees: reported, not resolved.
    let tampered = dir.join("tampered.sqlite");
    std::fs::copy(dir.join("shard-0.sqlite"), &tampered).unwrap();
    let connection = rusqlite::Connection::open(&tampered).unwrap();
    connection
        .execute("UPDATE matches SET result = result || ' ' WHERE rowid = (SELECT MIN(rowid) FROM matches)", [])
        .unwrap();
    drop(connection);
    let conflict_path = path("conflict.sqlite");
    let conflict = arena(&[
        "tournament",
        "merge",
        &shards[0],
        &shards[1],
        &shards[2],
        tampered.to_str().unwrap(),
        "-o",
        &conflict_path,
    ]);
    assert_eq!(conflict.status.code(), Some(1), "{}", stderr(&conflict));
    assert!(stderr(&conflict).contains("determinism failure: match"), "{}", stderr(&conflict));
}

/// `--replays DIR` keeps every played match's replay, gzip-compressed and named by
/// match id; a kept replay verifies.
#[test]
fn replays_are_kept_compressed_by_match_id_and_verify() {
    use std::io::Read;
    let spec = round_robin("replays", &["azul-greedy", "azul-random"], "1..2");
    let dir = spec.with_file_name("replays");
    let out = run(&spec, &["--quiet", "--format", "json", "--replays", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ids: Vec<String> =
        matches(&spec.with_file_name("tournament.sqlite")).into_iter().map(|(id, _, _)| id).collect();
    assert_eq!(ids.len(), 4);
    for id in &ids {
        let file = std::fs::File::open(dir.join(format!("{id}.json.gz"))).unwrap();
        let mut replay = String::new();
        flate2::read::GzDecoder::new(file).read_to_string(&mut replay).unwrap();
        let plain = dir.join(format!("{id}.json"));
        std::fs::write(&plain, replay).unwrap();
        let verified = arena(&["replay", "verify", plain.to_str().unwrap()]);
        assert_eq!(stdout(&verified).trim(), "identical", "{}", stderr(&verified));
    }
}

/// Swiss: every round pairs bots that have not met, every pair plays each seed in
/// both seat orders; a rerun re-derives the same pairings and plays nothing; 1 and 2 jobs agree;
/// `plan` refuses a swiss SPEC (it has no plan in advance).
#[test]
fn swiss_rounds_never_repeat_a_pairing_and_resume_to_the_same_pairings() {
    let bots: Vec<String> = ["azul-greedy", "azul-random", "azul-trivial", "azul-greedy-c"]
        .iter()
        .map(|b| format!("{:?}", bot(b)))
        .collect();
    let spec = write_spec(
        "swiss",
        &format!("game = \"azul\"\nformat = \"swiss\"\nrounds = 3\nbots = [{}]\nseeds = [1, 2]\n", bots.join(", ")),
    );
    let db = |name: &str| spec.with_file_name(name).to_str().unwrap().to_owned();
    let first = run(&spec, &["--jobs", "1", "--db", &db("one.sqlite"), "--format", "json"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let board: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    // 3 rounds x 2 pairs x 2 seeds x 2 seat orders: with 4 bots, 3 rounds meet every pair once.
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(24), Some(24)));
    let store = Store::open(&spec.with_file_name("one.sqlite")).unwrap();
    let digest = store.current_spec().unwrap().unwrap();
    let mut pairs = std::collections::BTreeMap::new();
    for seats in store.seats(&digest).unwrap().chunk_by(|a, b| a.match_id == b.match_id) {
        let mut pair = [seats[0].sha256.clone(), seats[1].sha256.clone()];
        pair.sort();
        *pairs.entry(pair).or_insert(0) += 1;
    }
    assert_eq!(pairs.len(), 6, "every pair met: {pairs:?}");
    assert!(pairs.values().all(|&count| count == 4), "each pair once (2 seeds x 2 seat orders): {pairs:?}");
    let again = run(&spec, &["--db", &db("one.sqlite")]);
    assert!(stderr(&again).contains("24 already in") && stderr(&again).contains("0 played now"), "{}", stderr(&again));
    let second = run(&spec, &["--jobs", "2", "--db", &db("two.sqlite"), "--format", "json"]);
    assert_eq!(stdout(&first), stdout(&second));
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap()]);
    assert_eq!(planned.status.code(), Some(2));
    assert!(stderr(&planned).contains("round by round"), "{}", stderr(&planned));
}

/// A plan file with one match's line twice was played and counted twice ("2
/// planned, 3 played"). Violated: `run-plan` and `enqueue` refuse it before anything is played
/// or queued, naming the file, the match and both lines. Obeyed: the plan as written plays each
/// match once, and the database counts as many played as planned.
#[test]
fn a_plan_naming_a_match_twice_is_refused_and_each_match_counts_once() {
    let spec = round_robin("plan-twice", &["azul-trivial", "fx-glue-azul"], "1..1");
    let dir = spec.parent().unwrap().to_path_buf();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap(), "-o", &path("plan.jsonl")]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));
    let text = std::fs::read_to_string(dir.join("plan.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 2);
    let first = text.lines().next().unwrap();
    let id = serde_json::from_str::<serde_json::Value>(first).unwrap()["id"].as_str().unwrap().to_owned();
    std::fs::write(dir.join("doubled.jsonl"), format!("{text}{first}\n")).unwrap();
    let refusal = format!("plan line 3: match {id} is already planned on line 1: a plan names each match once");

    let doubled = arena(&["tournament", "run-plan", &path("doubled.jsonl"), "--db", &path("doubled.sqlite")]);
    assert_eq!(doubled.status.code(), Some(2), "{}", stderr(&doubled));
    assert!(stderr(&doubled).contains(&path("doubled.jsonl")), "names the file: {}", stderr(&doubled));
    assert!(stderr(&doubled).contains(&refusal), "{}", stderr(&doubled));
    assert!(!dir.join("doubled.sqlite").exists(), "nothing recorded");
    // Refused before connecting: no server listens on port 9.
    let enqueued = arena(&["tournament", "enqueue", "--nats", "nats://127.0.0.1:9", &path("doubled.jsonl")]);
    assert_eq!(enqueued.status.code(), Some(2), "{}", stderr(&enqueued));
    assert!(stderr(&enqueued).contains(&refusal), "{}", stderr(&enqueued));

    let once = arena(&["tournament", "run-plan", &path("plan.jsonl"), "--db", &path("once.sqlite")]);
    assert_eq!(once.status.code(), Some(0), "{}", stderr(&once));
    assert!(stderr(&once).contains("2 matches planned: 0 already in"), "{}", stderr(&once));
    assert!(stderr(&once).contains("2 played now"), "{}", stderr(&once));
    let shown = arena(&["tournament", "show", &path("once.sqlite"), "--format", "json"]);
    let board: serde_json::Value = serde_json::from_str(&stdout(&shown)).unwrap();
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(2), Some(2)));
}
