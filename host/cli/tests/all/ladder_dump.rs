//! `arena ladder dump` and `arena ladder verify` against a real `arena serve` on loopback: a
//! frozen ladder's dump holds every ranked match, the bots' files by sha256, the leaderboard the
//! pages show and the results as a tournament database `arena tournament show` reads; re-played
//! here it is `identical`; a dump with a result or a rating changed names the match or the
//! rating (exit 1); one that does not read is refused in one line (exit 2). Needs the example
//! bots (`cargo xtask bots`).

use crate::common::ladder::Ladder;
use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use std::path::{Path, PathBuf};

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

/// `arena ladder verify DIR ARGS... --json`: its exit status and JSON.
fn verify_json(dir: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = arena(&[&["ladder", "verify", dir.to_str().unwrap(), "--json"], args].concat());
    let json = serde_json::from_str(stdout(&out).trim()).unwrap_or_else(|_| panic!("{}", stderr(&out)));
    (out.status.code(), json)
}

/// A copy of the dump in `dir` (its ladder.json and bots) with `change` made to its ladder.json.
fn tampered(dir: &Path, name: &str, change: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let copy = fresh_scratch(name);
    std::fs::create_dir_all(copy.join("bots")).unwrap();
    for file in std::fs::read_dir(dir.join("bots")).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(&file, copy.join("bots").join(file.file_name().unwrap())).unwrap();
    }
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ladder.json")).unwrap()).unwrap();
    change(&mut json);
    std::fs::write(copy.join("ladder.json"), json.to_string()).unwrap();
    copy
}

#[test]
fn a_frozen_ladders_dump_verifies_identical_and_a_tampered_one_names_what_differs() {
    let data = fresh_scratch("ladder-dump");
    let ladder = Ladder::start(&data, &[]);
    let token = ladder.add_user("alice");
    let admin = |args: &[&str]| {
        let out = arena(&[&["serve", "admin", "--data", ladder.data.to_str().unwrap()], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    ladder.upload_accepted(&token, "azul", "greedy", &greedy);
    ladder.upload_accepted(&token, "azul", "random", &random);
    ladder.wait_for("/api/games/azul/leaderboard", 120, |board| {
        let lines = board["leaderboard"].as_array().unwrap();
        lines.len() == 2 && lines.iter().all(|line| line["matches"].as_u64().unwrap() >= 4)
    });
    // Frozen, and what was queued played: the dump is stable. Idle twice a second apart, so a
    // scheduler that read the game as not frozen just before has enqueued by then.
    admin(&["freeze", "azul"]);
    let mut done = serde_json::Value::Null;
    loop {
        let queue = ladder.wait_for("/api/queue", 120, |queue| queue["queued"] == 0 && queue["running"] == 0);
        if queue["done"] == done {
            break;
        }
        done = queue["done"].clone();
        std::thread::sleep(std::time::Duration::from_secs(1));
    }

    let dir = fresh_scratch("ladder-dump-out");
    let out =
        arena(&["ladder", "dump", "--server", &ladder.url, "--game", "azul", "-o", dir.to_str().unwrap(), "--replays"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("ranked matches of azul, 2 versions (2 files fetched)"), "{}", stdout(&out));
    let dump: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ladder.json")).unwrap()).unwrap();
    assert_eq!((&dump["format"], &dump["game"]), (&1.into(), &"azul".into()), "{dump}");
    let matches = dump["matches"].as_array().unwrap();
    let done = done.as_u64().unwrap();
    assert_eq!(matches.len() as u64, done, "every ranked match played, and nothing else");
    assert!(matches.len() >= 4);
    for one in matches {
        assert_eq!(one["seats"].as_array().unwrap().len(), 2, "{one}");
        assert!(one["digest"].as_str().unwrap().starts_with("blake3:"), "{one}");
    }
    // The bots by sha256, as uploaded.
    for (file, version) in [(&greedy, &dump["versions"][0]), (&random, &dump["versions"][1])] {
        let sha256 = version["sha256"].as_str().unwrap();
        assert_eq!(sha256_of(Path::new(file)), sha256);
        assert_eq!(sha256_of(&dir.join("bots").join(format!("{sha256}.wasm"))), sha256);
    }
    // The leaderboard is the pages' (once they refitted on every result).
    let served = ladder.wait_for("/api/games/azul/leaderboard", 30, |board| board["matches"] == matches.len());
    assert_eq!(served, dump["leaderboard"], "the dumped leaderboard is the one the pages show");
    // Replays: one per match, each verifying.
    let replays: Vec<PathBuf> =
        std::fs::read_dir(dir.join("replays")).unwrap().map(|file| file.unwrap().path()).collect();
    assert_eq!(replays.len(), matches.len());
    let replay = dir.join("replays").join(format!("{}.json", matches[0]["id"]));
    let out = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(stdout(&out).trim(), "identical", "{}", stderr(&out));

    // The results as a tournament database: the same matches, the same ratings.
    let results = dir.join("results.sqlite");
    let out = arena(&["tournament", "show", results.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!((shown["matches_planned"].as_u64(), shown["matches_played"].as_u64()), (Some(done), Some(done)));
    for line in dump["leaderboard"]["leaderboard"].as_array().unwrap() {
        let standing =
            shown["leaderboard"].as_array().unwrap().iter().find(|standing| standing["sha256"] == line["version"]);
        let standing = standing.unwrap_or_else(|| panic!("{line} in {shown}"));
        assert!(
            standing["bot"].as_str().unwrap().starts_with(&format!("{}@", line["bot"].as_str().unwrap())),
            "{standing}"
        );
        assert!(
            (standing["rating"].as_f64().unwrap() - line["rating"].as_f64().unwrap()).abs() < 1e-6,
            "{standing} {line}"
        );
        assert_eq!(standing["wins"], line["wins"]);
    }

    // Re-played here: identical, all of them or a sample.
    let out = arena(&["ladder", "verify", dir.to_str().unwrap()]);
    assert_eq!((out.status.code(), stdout(&out).trim()), (Some(0), "identical"), "{}", stderr(&out));
    let (code, found) = verify_json(&dir, &[]);
    assert_eq!(code, Some(0), "{found}");
    assert_eq!(found["matches_checked"], matches.len(), "{found}");
    assert_eq!((&found["mismatches"], &found["ratings_equal"]), (&serde_json::json!([]), &true.into()), "{found}");
    // Dumped again into the same folder: the files already there are kept, the database replaced.
    let out = arena(&["ladder", "dump", "--server", &ladder.url, "--game", "azul", "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("2 versions (0 files fetched)"), "{}", stdout(&out));
    let (code, sampled) = verify_json(&dir, &["--sample", "3", "--seed", "7"]);
    assert_eq!(
        (code, &sampled["matches_checked"], &sampled["sample_seed"]),
        (Some(0), &3.into(), &7.into()),
        "{sampled}"
    );

    // A result changed: exit 1 naming the match and the field.
    let id = matches[1]["id"].as_i64().unwrap();
    let winner = matches[1]["winner"].as_u64().unwrap();
    let other = tampered(&dir, "ladder-dump-winner", |json| json["matches"][1]["winner"] = (1 - winner).into());
    let out = arena(&["ladder", "verify", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        format!("match {id} differs: winner: seat {} in the dump, seat {winner} re-played here", 1 - winner)
    );
    let scored = tampered(&dir, "ladder-dump-score", |json| {
        let score = &mut json["matches"][2]["seats"][1]["score"];
        *score = (score.as_i64().unwrap() + 1).into();
    });
    let (code, found) = verify_json(&scored, &[]);
    assert_eq!(code, Some(1), "{found}");
    let mismatches = found["mismatches"].as_array().unwrap();
    assert_eq!(mismatches.len(), 1, "{found}");
    assert_eq!(
        (&mismatches[0]["match"], &mismatches[0]["field"]),
        (&matches[2]["id"], &"seat 1 score".into()),
        "{found}"
    );
    assert_eq!(found["ratings_equal"], true, "a score is not what ratings are fitted on: {found}");

    // A rating changed: exit 1 naming the rating.
    let version = dump["leaderboard"]["leaderboard"][1]["version_id"].as_i64().unwrap();
    let rated = tampered(&dir, "ladder-dump-rating", |json| {
        let rating = &mut json["leaderboard"]["leaderboard"][1]["rating"];
        *rating = (rating.as_f64().unwrap() + 0.5).into();
    });
    let out = arena(&["ladder", "verify", rated.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).starts_with(&format!("the rating of version {version} differs: ")), "{}", stdout(&out));
    let (code, found) = verify_json(&rated, &["--sample", "1"]);
    assert_eq!((code, &found["ratings_equal"], &found["mismatches"]), (Some(1), &false.into(), &serde_json::json!([])));
    assert_eq!(found["rating_difference"]["version_id"], version, "{found}");

    // A dump that does not read, a bot file that is not its version's, a server that is not
    // there: exit 2 in one line.
    let garbage = tampered(&dir, "ladder-dump-garbage", |_| {});
    std::fs::write(garbage.join("ladder.json"), "{\"format\": 1, \"game\": [").unwrap();
    let swapped = tampered(&dir, "ladder-dump-swapped", |_| {});
    let (first, second) =
        (dump["versions"][0]["sha256"].as_str().unwrap(), dump["versions"][1]["sha256"].as_str().unwrap());
    std::fs::copy(
        swapped.join("bots").join(format!("{second}.wasm")),
        swapped.join("bots").join(format!("{first}.wasm")),
    )
    .unwrap();
    for (args, words) in [
        (vec!["ladder", "verify", garbage.to_str().unwrap()], "not a ladder dump"),
        (vec!["ladder", "verify", swapped.to_str().unwrap()], "is not the file of version"),
        (vec!["ladder", "verify", data.join("nowhere").to_str().unwrap()], "cannot read"),
        (
            vec!["ladder", "dump", "--server", "http://127.0.0.1:9", "--game", "azul", "-o", garbage.to_str().unwrap()],
            "cannot reach",
        ),
        (vec!["ladder", "dump", "--server", &ladder.url, "--game", "chess", "-o", garbage.to_str().unwrap()], "chess"),
        (vec!["ladder", "verify", dir.to_str().unwrap(), "--sample", "0"], "0"),
    ] {
        let out = arena(&args);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {said}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        if args[1] == "verify" && args.len() == 3 {
            assert_eq!(said.trim().lines().count(), 1, "{args:?}: one line: {said}");
        }
    }
}
