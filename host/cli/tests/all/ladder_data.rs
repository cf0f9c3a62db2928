//! A ladder and bots with data folders: a bot and its data uploaded as one archive (`arena submit`
//! by the convention, and the raw API), the version named by its file and its data, its matches
//! reading the data on the server and on a NATS worker that fetches the folder by digest, the
//! public dump carrying the digest and verifying with the folder; and every archive that reaches
//! outside itself or smuggles a special file refused with the entry named. Needs the example bots
//! (`cargo xtask bots`: `azul-table` and its `azul-table.data/`) and `nats-server`.

use crate::common::ladder::Ladder;
#[cfg(feature = "nats")]
use crate::common::nats::Nats;
use crate::common::{arena, arena_with_env, bot, fresh_scratch, stderr, stdout};
use arena_host::bot_archive::{ArchiveLimits, read_archive, write_archive};
use arena_host::data::{DataLimits, DataTree};
use std::path::Path;

/// `arena submit --wait --json EXTRA... FILE` as `name`: its exit status and JSON.
fn submit(ladder: &Ladder, token: &str, file: &str, name: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let args =
        [&["submit", "--server", &ladder.url, "--game", "azul", "--name", name, "--wait", "--json"], extra, &[file]]
            .concat();
    let out = arena_with_env(&args, &[("ARENA_TOKEN", token)]);
    (out.status.code(), serde_json::from_str(stdout(&out).trim()).unwrap_or(serde_json::Value::Null))
}

/// The digest of the example table bot's data folder.
fn table_digest() -> String {
    let folder = Path::new(&bot("azul-table")).with_extension("data");
    DataTree::read_dir(&folder, DataLimits::DEFAULT).unwrap().digest_hex()
}

/// The first match played of `version` (waited for) and the seat it played at.
fn played_match(ladder: &Ladder, version: i64) -> (serde_json::Value, usize) {
    let seat_of = |one: &serde_json::Value| {
        let seats = one["seats"].as_array().unwrap();
        seats.iter().position(|seat| seat["version_id"] == version).filter(|_| one["state"] == "done")
    };
    let played = ladder.wait_for("/api/matches?game=azul&limit=100", 180, |matches| {
        matches.as_array().unwrap().iter().any(|one| seat_of(one).is_some())
    });
    let one = played.as_array().unwrap().iter().find(|one| seat_of(one).is_some()).unwrap().clone();
    let seat = seat_of(&one).unwrap();
    (one, seat)
}

/// The digest of the data folder a match seat's player line names.
fn seat_data(one: &serde_json::Value, seat: usize) -> serde_json::Value {
    one["seats"][seat]["outcome"]["data"].clone()
}

#[test]
fn a_bot_and_its_data_upload_as_one_archive_and_its_matches_dump_and_verify_with_the_data() {
    let dir = fresh_scratch("ladder-data");
    let ladder = Ladder::start(&dir.join("data"), &[]);
    let token = ladder.add_user("alice");
    let (table, random, digest) = (bot("azul-table"), bot("azul-random"), table_digest());

    // The file alone first (`--no-data`); then `arena submit` sends `azul-table.data/` beside the
    // file: another version, named by both; the same file and data again: the same version.
    let (code, alone) = submit(&ladder, &token, &table, "table", &["--no-data"]);
    assert_eq!(code, Some(0), "{alone}\n{}", ladder.log());
    assert!(alone["data"].is_null(), "{alone}");
    let (code, with) = submit(&ladder, &token, &table, "table", &[]);
    assert_eq!(code, Some(0), "{with}\n{}", ladder.log());
    assert_eq!(with["status"], "accepted", "{with}");
    assert_ne!(alone["version_id"], with["version_id"], "the same file with data is another version");
    assert_eq!(with["data"], digest.as_str(), "the version names its data's digest: {with}");
    let steps: Vec<&str> =
        with["steps"].as_array().unwrap().iter().map(|step| step["step"].as_str().unwrap()).collect();
    assert_eq!(steps, ["upload", "read", "data", "shape", "type check", "compile", "validation"]);
    let (_, again) = submit(&ladder, &token, &table, "table", &[]);
    assert_eq!(again["version_id"], with["version_id"], "{again}");
    // The raw API's archive (uncompressed, as `write_archive` packs it): the same version.
    let folder = DataTree::read_dir(&Path::new(&table).with_extension("data"), DataLimits::DEFAULT).unwrap();
    let mut archive = Vec::new();
    write_archive(&mut archive, Some(&std::fs::read(&table).unwrap()), Some(&folder)).unwrap();
    let answer = ladder.post_bytes("/api/games/azul/bots/table", &token, "application/x-tar", &archive);
    assert_eq!(answer.status, 200, "the version it already is: {}", answer.body);
    assert_eq!(answer.json()["version_id"], with["version_id"]);
    let version = with["version_id"].as_i64().unwrap();
    let page = ladder.get("/bots/1", None).body;
    assert!(page.contains(&format!("/blobs/data/{digest}.tar")), "the bot's page links the data");
    ladder.upload_accepted(&token, "azul", "random", &random);

    // Its matches read the data: each seat's line names it.
    let (one, seat) = played_match(&ladder, version);
    let one = &one;
    assert_eq!(seat_data(one, seat), digest.as_str(), "{one}");
    assert!(seat_data(one, 1 - seat).is_null(), "{one}");
    let id = one["id"].as_i64().unwrap();
    let replay = ladder.get(&format!("/matches/{id}/replay.json"), None).json();
    assert_eq!(replay["format"], "wasm-arena-replay/2", "a replay of a bot with data");
    let recorded = &replay["bots"][seat]["data"]["digest"];
    assert_eq!(recorded, digest.as_str(), "{}", replay["bots"]);

    // Served by digest as the archive it was, and only as one the ladder holds.
    let served = ladder.get_bytes(&format!("/blobs/data/{digest}.tar"));
    let limits = ArchiveLimits { max_wasm: 0, data: DataLimits::DEFAULT };
    assert_eq!(read_archive(served.as_slice(), limits).unwrap().data.unwrap().digest_hex(), digest);
    assert_eq!(ladder.get(&format!("/blobs/data/{}.tar", "0".repeat(64)), None).status, 404);
    assert_eq!(ladder.get("/blobs/data/..%2F..%2Fetc.tar", None).status, 404);

    // The dump names the digest; its folder holds the data; verify re-plays with it.
    let dumped = dir.join("dump");
    let out = arena(&["ladder", "dump", "--server", &ladder.url, "--game", "azul", "-o", dumped.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dumped.join("ladder.json")).unwrap();
    let dump: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(dump["versions"].as_array().unwrap().iter().any(|version| version["data"] == digest.as_str()), "{text}");
    let copy = DataTree::read_dir(&dumped.join(format!("bots/{digest}.data")), DataLimits::DEFAULT).unwrap();
    assert_eq!(copy.digest_hex(), digest);
    let out = arena(&["ladder", "verify", dumped.to_str().unwrap(), "--sample", "3", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("identical"), "{}", stdout(&out));
    // A changed byte in the dump's copy of the data: refused, naming the version.
    let weights = dumped.join(format!("bots/{digest}.data/weights.txt"));
    let mut changed = std::fs::read(&weights).unwrap();
    changed[0] ^= 1;
    std::fs::write(&weights, changed).unwrap();
    let out = arena(&["ladder", "verify", dumped.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("is not the data of version"), "{}", stderr(&out));
}

/// An archive entry: its name, kind and contents.
type Entry<'a> = (&'a str, tar::EntryType, &'a [u8]);

/// A tar of `bot.wasm` (a real bot) and one raw `entry`, bypassing the tar crate's own checks.
fn archive_with(entry: Entry<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    let wasm = std::fs::read(bot("azul-random")).unwrap();
    for (name, kind, contents) in [("bot.wasm", tar::EntryType::Regular, wasm.as_slice()), entry] {
        let mut header = tar::Header::new_ustar();
        header.as_ustar_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(kind);
        header.set_size(contents.len() as u64);
        header.set_mode(0o644);
        if matches!(kind, tar::EntryType::Symlink | tar::EntryType::Link) {
            header.set_link_name("/etc/passwd").unwrap();
        }
        header.set_cksum();
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(contents);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

/// Obeyed: an archive of a bot and a plain data file is a version with data. Violated: every
/// entry that is not a plain file or folder inside the archive, refused (400) with its name and
/// why, nothing stored for it.
#[test]
fn an_archive_that_reaches_outside_or_smuggles_a_special_entry_is_refused_naming_the_entry() {
    let dir = fresh_scratch("ladder-data-refused");
    let ladder = Ladder::start(&dir.join("data"), &[]);
    let token = ladder.add_user("mallory");
    let upload = |name: &str, body: &[u8]| {
        ladder.post_bytes(&format!("/api/games/azul/bots/{name}"), &token, "application/x-tar", body)
    };

    let plain = upload("plain", &archive_with(("data/book.txt", tar::EntryType::Regular, b"e4 e5")));
    assert_eq!(plain.status, 201, "{}", plain.body);
    assert_eq!(plain.json()["data"].as_str().map(str::len), Some(64), "{}", plain.body);

    let cases: [(&str, Entry<'_>, &str); 7] = [
        ("symlink", ("data/passwd", tar::EntryType::Symlink, b""), "data/passwd: is a link"),
        ("hardlink", ("data/passwd", tar::EntryType::Link, b""), "data/passwd: is a link"),
        ("device", ("data/tty", tar::EntryType::Char, b""), "data/tty: is a character device"),
        ("fifo", ("data/pipe", tar::EntryType::Fifo, b""), "data/pipe: is a named pipe"),
        ("absolute", ("/etc/cron.d/x", tar::EntryType::Regular, b"x"), "/etc/cron.d/x: an absolute path or `..`"),
        ("dotdot", ("data/../../x", tar::EntryType::Regular, b"x"), "data/../../x: an absolute path or `..`"),
        (
            "stranger",
            ("run.sh", tar::EntryType::Regular, b"x"),
            "run.sh: an archive holds `bot.wasm` and a `data/` folder",
        ),
    ];
    for (name, entry, why) in cases {
        let refused = upload(name, &archive_with(entry));
        assert_eq!(refused.status, 400, "{name}: {}", refused.body);
        let reason = refused.json()["reason"].as_str().unwrap_or_default().to_owned();
        assert!(reason.contains(why), "{name}: {reason}");
    }
    let gzipped = {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&archive_with(("data/passwd", tar::EntryType::Symlink, b""))).unwrap();
        encoder.finish().unwrap()
    };
    let refused = upload("gzipped", &gzipped);
    assert_eq!(refused.status, 400, "a compressed archive is read and refused alike: {}", refused.body);
    // Nothing of the refused uploads was kept: one bot (the plain one), no temporary left.
    assert_eq!(ladder.get("/api/bots/1", None).status, 200);
    assert_eq!(ladder.get("/api/bots/2", None).status, 404, "a refused archive makes no bot");
    let left: Vec<_> = std::fs::read_dir(dir.join("data/archives/tmp")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(!dir.join("data/data").join("passwd").exists());
}

/// A NATS worker fetches a bot's data folder from the ladder by digest (`--bots-from`), keeps it
/// as `DIGEST.data/` and plays the bot's matches with it.
#[cfg(feature = "nats")]
#[test]
fn a_nats_worker_fetches_a_bots_data_folder_by_digest_and_plays_with_it() {
    let dir = fresh_scratch("ladder-data-nats");
    let nats = Nats::start(&dir.join("nats"));
    let config = dir.join("serve.toml");
    std::fs::write(&config, "[nats]\nladder = \"data\"\nbatch = 2\naudit_first = 0\naudit_share = 0\n").unwrap();
    let ladder = Ladder::start(
        &dir.join("data"),
        &["--workers", "0", "--nats", &nats.url, "--config", config.to_str().unwrap()],
    );
    let token = ladder.add_user("alice");
    let worker_token = ladder.add_worker("w1");
    let (code, with) = submit(&ladder, &token, &bot("azul-table"), "table", &[]);
    assert_eq!(code, Some(0), "{with}");
    ladder.upload_accepted(&token, "azul", "random", &bot("azul-random"));
    let bots = dir.join("worker-bots");
    let mut worker = crate::ladder_nats::worker(&nats.url, &worker_token, &bots, &["--bots-from", &ladder.url]);
    let version = with["version_id"].as_i64().unwrap();
    let (one, seat) = played_match(&ladder, version);
    let one = &one;
    worker.kill().unwrap();
    worker.wait().unwrap();
    let digest = table_digest();
    assert_eq!(seat_data(one, seat), digest.as_str(), "the worker played it with its data: {one}");
    let kept = DataTree::read_dir(&bots.join(format!("{digest}.data")), DataLimits::DEFAULT).unwrap();
    assert_eq!(kept.digest_hex(), digest, "the worker kept the folder by digest");
}
