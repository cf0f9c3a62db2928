//! A bot's data folder through `arena match` and `arena replay verify` (docs/design.md,
//! "Capabilities": one read-only folder at `/data`, nothing else): what a bot reads, lists and
//! is refused there, as a WIT component, as line-protocol commands built for WASI 0.2 and 0.1,
//! and as a Go program (on WASI preview1); the `NAME.data/` convention; the digest in results
//! and replays; `replay verify` finding the folder by digest and refusing another tree; folders
//! refused at load; the fuel of reads.

use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use serde_json::Value;
use std::path::Path;

/// A data folder: `table.txt` holding `table`, `b.txt`, and `sub/deep.txt` (written in an order
/// that is not the sorted one).
fn data_folder(dir: &Path, table: &[u8]) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("table.txt"), table).unwrap();
    std::fs::write(dir.join("sub/deep.txt"), b"deep").unwrap();
    std::fs::write(dir.join("b.txt"), b"b").unwrap();
}

/// Runs `arena ARGS`, which must succeed; its stdout.
fn arena_ok(args: &[&str]) -> String {
    let out = arena(args);
    assert_eq!(out.status.code(), Some(0), "arena {args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs `arena ARGS`, which must fail with status 2 and one line on stderr; that line.
fn refused(args: &[&str]) -> String {
    let out = arena(args);
    assert_eq!(out.status.code(), Some(2), "arena {args:?}: {}{}", stdout(&out), stderr(&out));
    let text = stderr(&out);
    assert_eq!(text.trim().lines().count(), 1, "one line: {text}");
    text.trim().to_owned()
}

fn replay(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Seat 0's part of its `nth` turn (1: its first; 0: its start-up) in a replay.
fn seat0(replay: &Value, nth: usize) -> &Value {
    if nth == 0 {
        return &replay["setup"][0];
    }
    let turns = replay["turns"].as_array().unwrap();
    let own = turns.iter().filter_map(|turn| turn["seats"].as_array().unwrap().iter().find(|seat| seat["seat"] == 0));
    own.clone().nth(nth - 1).unwrap_or_else(|| panic!("seat 0 played {} turns, not {nth}", own.count()))
}

/// The `data ...` lines seat 0 logged in its `nth` turn (0: its start-up).
fn data_lines(replay: &Value, nth: usize) -> Vec<String> {
    let entries = seat0(replay, nth)["log"]["entries"].as_array().cloned().unwrap_or_default();
    entries
        .iter()
        .flat_map(|entry| entry["text"].as_str().unwrap().lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|line| line.starts_with("data "))
        .collect()
}

#[test]
fn a_bot_reads_its_data_folder_and_is_refused_every_change_and_every_way_out() {
    let dir = fresh_scratch("data-probe");
    data_folder(&dir.join("folder"), b"hello table");
    let replay_path = dir.join("match.json");
    let data = format!("0={}", dir.join("folder").display());
    let (probe, random) = (bot("fx-data-probe"), bot("azul-random"));
    let json = arena_ok(&[
        "match",
        "--game",
        "azul",
        &probe,
        &random,
        "--data",
        &data,
        "--replay",
        replay_path.to_str().unwrap(),
        "--json",
    ]);
    let result: Value = serde_json::from_str(json.trim()).unwrap();
    let recorded = replay(&replay_path);
    assert_eq!(recorded["format"], "wasm-arena-replay/2", "a match with data is written in the second format");
    let digest = recorded["bots"][0]["data"]["digest"].as_str().unwrap().to_owned();
    assert_eq!(digest.len(), 64);
    assert_eq!(result["players"][0]["data"], digest.as_str(), "the result names the data too");
    assert!(recorded["bots"][1].get("data").is_none() && result["players"][1].get("data").is_none());
    // Obeyed: what is in the folder is read; listings are sorted; times are fixed.
    // Violated: every change is refused as a read-only filesystem, every way out as absent or
    // not permitted.
    assert_eq!(
        data_lines(&recorded, 1),
        [
            r#"data read table: ok "hello table""#,
            r#"data read deep: ok "deep""#,
            r#"data read dotdot within: ok "hello table""#,
            r#"data list: ok ["b.txt", "sub", "table.txt"]"#,
            "data size: ok 11",
            "data is dir: ok true",
            "data modified: ok SystemTime { tv_sec: 0, tv_nsec: 0 }",
            r#"data seek: ok "llo table""#,
            "data write: denied (ReadOnlyFilesystem)",
            "data overwrite: denied (ReadOnlyFilesystem)",
            "data append: denied (ReadOnlyFilesystem)",
            "data truncate: denied (ReadOnlyFilesystem)",
            "data remove: denied (ReadOnlyFilesystem)",
            "data rename: denied (ReadOnlyFilesystem)",
            "data mkdir: denied (ReadOnlyFilesystem)",
            "data rmdir: denied (ReadOnlyFilesystem)",
            "data hard link: denied (ReadOnlyFilesystem)",
            "data symlink: denied (PermissionDenied)",
            "data escape dotdot: denied (PermissionDenied)",
            "data escape absolute: denied (NotFound)",
            "data escape root: denied (NotFound)",
            "data escape relative: denied (NotFound)",
            "data table bytes: ok 11",
        ]
    );
    let folder = dir.join("folder");
    assert_eq!(std::fs::read(folder.join("table.txt")).unwrap(), b"hello table", "nothing changed on the host");
    for made in ["new.txt", "moved.txt", "made", "linked.txt", "sym.txt"] {
        assert!(!folder.join(made).exists(), "{made} was not made on the host");
    }
    assert!(!dir.join("escape.txt").exists());

    // Without a data folder the bot has no filesystem at all.
    let bare = dir.join("bare.json");
    arena_ok(&["match", "--game", "azul", &probe, &random, "--replay", bare.to_str().unwrap()]);
    let bare = replay(&bare);
    assert_eq!(bare["format"], "wasm-arena-replay/1", "a match without data keeps the first format");
    assert!(bare["bots"][0].get("data").is_none());
    assert_eq!(data_lines(&bare, 1)[0], "data read table: denied (NotFound)");
}

/// Plays `name` (seat 0, with the data folder `folder`) against `game`'s random bot (5 turns of
/// Paint), its replay written into `dir`: the `data ...` lines it logged at start-up, and the
/// replay's path.
fn start_up_lines(dir: &Path, game: &str, name: &str, folder: &Path) -> (Vec<String>, std::path::PathBuf) {
    let replay_path = dir.join(format!("{name}.json"));
    let (reader, random) = (bot(name), bot(&format!("{game}-random")));
    let data = format!("0={}", folder.display());
    let replay_arg = replay_path.to_str().unwrap();
    let short = if game == "paint" { ["--option", "turns=5"].as_slice() } else { &[] };
    arena_ok(&[&["match", "--game", game, &reader, &random, "--data", &data, "--replay", replay_arg], short].concat());
    (data_lines(&replay(&replay_path), 0), replay_path)
}

#[test]
fn line_protocol_commands_read_their_data_folder_as_wasi_0_2_and_0_1_programs() {
    let dir = fresh_scratch("data-stdio");
    data_folder(&dir.join("folder"), b"table");
    for name in ["fx-stdio-data", "fx-stdio-data-wasip1"] {
        assert_eq!(
            start_up_lines(&dir, "paint", name, &dir.join("folder")).0,
            [
                r#"data read table: ok "table""#,
                r#"data list: ok ["b.txt", "sub", "table.txt"]"#,
                "data write: denied (ReadOnlyFilesystem)",
                "data escape absolute: denied (NotFound)",
            ],
            "{name}"
        );
    }
}

#[test]
fn c_and_python_bots_read_their_data_folder_with_their_own_file_functions() {
    let dir = fresh_scratch("data-languages");
    data_folder(&dir.join("folder"), b"hello table");
    for (name, write_refused) in [("fx-data-c", "Read-only file system"), ("fx-data-py", "OSError")] {
        assert_eq!(
            start_up_lines(&dir, "azul", name, &dir.join("folder")).0,
            ["data read table: ok 11".to_owned(), format!("data write: denied ({write_refused})")],
            "{name}"
        );
    }
}

/// A Go program (run as a core module on WASI preview1, not through the adapter) reads and
/// lists its data folder as the other programs do, and is refused a write with Go's words for
/// `EROFS`; the match replays identically.
#[test]
fn a_go_program_reads_its_data_folder() {
    let dir = fresh_scratch("data-go");
    data_folder(&dir.join("folder"), b"table");
    let (lines, replay_path) = start_up_lines(&dir, "paint", "fx-go-data", &dir.join("folder"));
    assert_eq!(
        lines,
        [
            r#"data read table: ok "table""#,
            "data list: ok [b.txt sub table.txt]",
            "data write: denied (open /data/new.txt: Read-only file system)",
        ]
    );
    assert!(replay(&replay_path)["bots"][0]["data"]["digest"].is_string(), "the replay names the data");
    assert_eq!(arena_ok(&["replay", "verify", replay_path.to_str().unwrap()]).trim(), "identical");
}

#[test]
fn the_data_folder_beside_a_bot_is_its_data_unless_told_otherwise() {
    let dir = fresh_scratch("data-convention");
    let probe = dir.join("probe.wasm");
    std::fs::copy(bot("fx-data-probe"), &probe).unwrap();
    data_folder(&dir.join("probe.data"), b"beside");
    let random = bot("azul-random");
    let with = dir.join("with.json");
    arena_ok(&["match", "--game", "azul", probe.to_str().unwrap(), &random, "--replay", with.to_str().unwrap()]);
    let with = replay(&with);
    assert_eq!(data_lines(&with, 1)[0], r#"data read table: ok "beside""#);
    assert_eq!(with["bots"][0]["data"]["path"], dir.join("probe.data").to_str().unwrap());

    let without = dir.join("without.json");
    let probe = probe.to_str().unwrap();
    arena_ok(&["match", "--game", "azul", probe, &random, "--no-data", "--replay", without.to_str().unwrap()]);
    assert_eq!(data_lines(&replay(&without), 1)[0], "data read table: denied (NotFound)", "--no-data");

    // --data wins over the convention.
    data_folder(&dir.join("given"), b"given");
    let given = dir.join("given.json");
    let data = format!("0={}", dir.join("given").display());
    arena_ok(&["match", "--game", "azul", probe, &random, "--data", &data, "--replay", given.to_str().unwrap()]);
    assert_eq!(data_lines(&replay(&given), 1)[0], r#"data read table: ok "given""#);
}

#[test]
fn reads_are_paid_per_byte() {
    let dir = fresh_scratch("data-fuel");
    let size = 200_000;
    data_folder(&dir.join("small"), b"x");
    data_folder(&dir.join("large"), &vec![b'x'; size]);
    let (probe, random) = (bot("fx-data-probe"), bot("azul-random"));
    // The bot reads its table whole every turn: its second turn's fuel, with each table.
    let second_turn_fuel = |folder: &str| {
        let path = dir.join(format!("{folder}.json"));
        let data = format!("0={}", dir.join(folder).display());
        arena_ok(&["match", "--game", "azul", &probe, &random, "--data", &data, "--replay", path.to_str().unwrap()]);
        let recorded = replay(&path);
        assert_eq!(
            data_lines(&recorded, 2),
            [format!("data table bytes: ok {}", if folder == "small" { 1 } else { size })]
        );
        seat0(&recorded, 2)["fuel"].as_u64().unwrap()
    };
    let (small, large) = (second_turn_fuel("small"), second_turn_fuel("large"));
    let extra = large - small;
    // The host charges one unit a byte read (exactly: `data_fs`'s unit tests), and the bot's C
    // library copies what the host wrote into its buffer (a bulk copy, paid per byte too).
    let bytes = (size - 1) as u64;
    assert!((2 * bytes..3 * bytes).contains(&extra), "reading {bytes} bytes more cost {extra} fuel more");
}

#[test]
fn replay_verify_finds_the_data_by_digest_and_refuses_another_tree() {
    let dir = fresh_scratch("data-verify");
    data_folder(&dir.join("played"), b"hello table");
    let replay_path = dir.join("match.json");
    let data = format!("0={}", dir.join("played").display());
    let (probe, random) = (bot("fx-data-probe"), bot("azul-random"));
    arena_ok(&["match", "--game", "azul", &probe, &random, "--data", &data, "--replay", replay_path.to_str().unwrap()]);
    let replay_arg = replay_path.to_str().unwrap();
    assert_eq!(arena_ok(&["replay", "verify", replay_arg]).trim(), "identical", "at the recorded folder");

    // Moved elsewhere under another name: found by its digest among a --bot-dir's .data folders.
    let moved = dir.join("moved");
    std::fs::create_dir_all(&moved).unwrap();
    std::fs::rename(dir.join("played"), moved.join("renamed.data")).unwrap();
    data_folder(&moved.join("decoy.data"), b"another table");
    let moved_arg = moved.to_str().unwrap();
    assert_eq!(arena_ok(&["replay", "verify", replay_arg, "--bot-dir", moved_arg]).trim(), "identical");
    let line = refused(&["replay", "verify", replay_arg]);
    assert!(line.contains("pass it with --data"), "{line}");

    // One changed byte is another tree.
    std::fs::write(moved.join("renamed.data/table.txt"), b"hello tablf").unwrap();
    let line =
        refused(&["replay", "verify", replay_arg, "--data", &format!("0={}", moved.join("renamed.data").display())]);
    assert!(line.contains("but the replay recorded"), "{line}");
    std::fs::write(moved.join("renamed.data/table.txt"), b"hello table").unwrap();
    let given = format!("0={}", moved.join("renamed.data").display());
    assert_eq!(arena_ok(&["replay", "verify", replay_arg, "--data", &given]).trim(), "identical");

    // A replay claiming the first format while naming data is refused: an arena from before
    // data folders would re-run it without them.
    let mut tampered = replay(&replay_path);
    tampered["format"] = "wasm-arena-replay/1".into();
    let tampered_path = dir.join("tampered.json");
    std::fs::write(&tampered_path, tampered.to_string()).unwrap();
    let line = refused(&["replay", "verify", tampered_path.to_str().unwrap(), "--data", &given]);
    assert!(line.contains("wasm-arena-replay/2"), "{line}");
}

#[test]
fn data_folders_with_links_or_over_their_limits_are_refused_at_load() {
    let dir = fresh_scratch("data-refused");
    data_folder(&dir.join("folder"), b"table");
    let (probe, random) = (bot("fx-data-probe"), bot("azul-random"));
    let data = format!("0={}", dir.join("folder").display());
    let base = ["match", "--game", "azul", probe.as_str(), random.as_str(), "--data", data.as_str()];
    let line = refused(&[&base[..], &["--data-max-entries", "3"]].concat());
    assert!(line.contains("more than 3 entries"), "{line}");
    let line = refused(&[&base[..], &["--data-max-mib", "0"]].concat());
    assert!(line.contains("over its 0-byte limit"), "{line}");
    let line = refused(&["match", "--game", "azul", &probe, &random, "--data", "2=folder"]);
    assert!(line.contains("no seat 2"), "{line}");
    let missing = format!("0={}", dir.join("missing").display());
    let line = refused(&["match", "--game", "azul", &probe, &random, "--data", &missing]);
    assert!(line.contains("cannot read"), "{line}");

    std::os::unix::fs::symlink("/etc/passwd", dir.join("folder/passwd")).unwrap();
    let line = refused(&base);
    assert!(line.contains("is a link"), "{line}");
}

#[test]
fn tournaments_plans_and_shards_carry_each_bots_data_and_refuse_a_changed_tree() {
    let dir = fresh_scratch("data-tournament");
    // One bot file twice: with the data folder beside it, and with another one named in the
    // SPEC. The same code with other data is another bot.
    std::fs::copy(bot("fx-data-probe"), dir.join("probe-a.wasm")).unwrap();
    std::fs::copy(bot("fx-data-probe"), dir.join("probe-b.wasm")).unwrap();
    data_folder(&dir.join("probe-a.data"), b"table a");
    data_folder(&dir.join("tables-b"), b"table b");
    let random = bot("azul-random");
    let spec = dir.join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = [\"probe-a.wasm\", \
             {{ wasm = \"probe-b.wasm\", data = \"tables-b\" }}, {random:?}]\n"
        ),
    )
    .unwrap();
    let replays = dir.join("replays");
    let board = arena_ok(&[
        "tournament",
        "run",
        spec.to_str().unwrap(),
        "--quiet",
        "--format",
        "json",
        "--replays",
        replays.to_str().unwrap(),
    ]);
    let board: Value = serde_json::from_str(&board).unwrap();
    // 3 pairs x 1 seed x 2 seat orders, every one played.
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(6), Some(6)), "{board}");
    let identity = |name: &str| {
        let rows = board["leaderboard"].as_array().unwrap();
        let row = rows.iter().find(|row| row["bot"] == name).unwrap_or_else(|| panic!("{name} in {board}"));
        assert_eq!(row["matches"], 4, "{row}");
        row["sha256"].as_str().unwrap().to_owned()
    };
    let (a, b, plain) = (identity("probe-a"), identity("probe-b"), identity("azul-random"));
    let sha = a.split_once('+').map(|(sha, _)| sha.to_owned()).unwrap();
    assert!(b.starts_with(&format!("{sha}+")) && a != b, "one file, two data digests: {a} {b}");
    assert!(!plain.contains('+'), "a bot without data is its sha256: {plain}");

    // Every kept replay re-runs identically, its data found at the recorded folder.
    let mut verified = 0;
    for entry in std::fs::read_dir(&replays).unwrap() {
        let path = entry.unwrap().path();
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()),
            &mut text,
        )
        .unwrap();
        let plain = path.with_extension("");
        std::fs::write(&plain, text).unwrap();
        assert_eq!(arena_ok(&["replay", "verify", plain.to_str().unwrap()]).trim(), "identical");
        verified += 1;
    }
    assert_eq!(verified, 6);

    // A plan names each bot's data by digest; a shard refuses a tree changed since.
    let plan = dir.join("plan.jsonl");
    arena_ok(&["tournament", "plan", spec.to_str().unwrap(), "-o", plan.to_str().unwrap()]);
    let first: Value = serde_json::from_str(std::fs::read_to_string(&plan).unwrap().lines().next().unwrap()).unwrap();
    assert!(first["spec"]["seats"].as_array().unwrap().iter().any(|seat| seat.as_str() == Some(b.as_str())), "{first}");
    std::fs::write(dir.join("tables-b/table.txt"), b"table c").unwrap();
    let db = dir.join("shard.sqlite");
    let line =
        refused(&["tournament", "run-plan", plan.to_str().unwrap(), "--shard", "0/1", "--db", db.to_str().unwrap()]);
    assert!(line.contains("is not the data the plan names"), "{line}");
    std::fs::write(dir.join("tables-b/table.txt"), b"table b").unwrap();
    arena_ok(&[
        "tournament",
        "run-plan",
        plan.to_str().unwrap(),
        "--shard",
        "0/1",
        "--db",
        db.to_str().unwrap(),
        "--quiet",
    ]);
}

/// A SPEC's `data_max_mib` and `data_max_entries` bound every bot's data folder, when the plan
/// reads it and when the bot loads: over them (or over the defaults, left out) a tournament is
/// refused before any match in one line naming the key; raised past the defaults, the folder
/// plays. One bot file with two data folders, named apart with `name`, plays as two bots; left
/// to its file's name, it is refused with the `name` key suggested.
#[test]
fn a_specs_data_limits_hold_for_its_bots_and_names_make_one_file_two_bots() {
    let dir = fresh_scratch("data-spec-limits");
    std::fs::copy(bot("fx-data-probe"), dir.join("probe.wasm")).unwrap();
    data_folder(&dir.join("small"), b"table s");
    // 4 entries, then 10,001 more: over the default 10,000.
    data_folder(&dir.join("large"), b"table l");
    std::fs::create_dir(dir.join("large/many")).unwrap();
    for index in 0..10_000 {
        std::fs::write(dir.join(format!("large/many/{index}")), b"").unwrap();
    }
    let random = bot("azul-random");
    let spec = dir.join("spec.toml");
    let write_spec = |bots: &str, extra: &str| {
        std::fs::write(
            &spec,
            format!("game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = [{bots}, {random:?}]\n{extra}\n"),
        )
        .unwrap();
    };
    let named = "{ wasm = \"probe.wasm\", data = \"small\", name = \"probe-small\" }, \
                 { wasm = \"probe.wasm\", data = \"large\", name = \"probe-large\" }";
    let run = ["tournament", "run", spec.to_str().unwrap(), "--quiet", "--format", "json"];

    for (extra, says) in [
        ("", "the SPEC's data_max_entries = 10000"),
        ("data_max_entries = 3", "the SPEC's data_max_entries = 3"),
        ("data_max_entries = 20000\ndata_max_mib = 1", "the SPEC's data_max_mib = 1"),
        ("data_max_mib = 0", "data_max_mib = 0: a data folder's limit is 1 to 64000 MiB"),
    ] {
        if extra.contains("data_max_mib = 1") {
            std::fs::write(dir.join("small/big.bin"), vec![0u8; (1 << 20) + 1]).unwrap();
        }
        write_spec(named, extra);
        let line = refused(&run);
        assert!(line.contains(says), "{extra:?}: {line}");
        let _ = std::fs::remove_file(dir.join("small/big.bin"));
    }
    write_spec(named, "data_max_entries = \"many\"");
    let out = arena(&run);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("data_max_entries = \"many\""), "the key and its line: {}", stderr(&out));
    assert!(!dir.join("tournament.sqlite").exists(), "refused before any match");

    // Raised past the default, the large folder is read by the plan and loaded by the arena.
    write_spec(named, "data_max_entries = 20000");
    let board: Value = serde_json::from_str(&arena_ok(&run)).unwrap();
    // 3 pairs x 1 seed x 2 seat orders, every one played.
    assert_eq!((board["matches_planned"].as_u64(), board["matches_played"].as_u64()), (Some(6), Some(6)), "{board}");
    let identity = |name: &str| {
        let rows = board["leaderboard"].as_array().unwrap();
        let row = rows.iter().find(|row| row["bot"] == name).unwrap_or_else(|| panic!("{name} in {board}"));
        assert_eq!((row["matches"].as_u64(), row["load_error"].as_str()), (Some(4), None), "{row}");
        row["sha256"].as_str().unwrap().to_owned()
    };
    let (small, large) = (identity("probe-small"), identity("probe-large"));
    let sha = small.split_once('+').map(|(sha, _)| sha.to_owned()).unwrap();
    assert!(large.starts_with(&format!("{sha}+")) && small != large, "one file, two data digests: {small} {large}");

    // Left to their file's name, both are `probe`: refused, suggesting `name`.
    write_spec(
        "{ wasm = \"probe.wasm\", data = \"small\" }, { wasm = \"probe.wasm\", data = \"large\" }",
        "data_max_entries = 20000",
    );
    let line = refused(&run);
    assert!(line.contains("both named \"probe\"") && line.contains("name = \"probe-2\""), "{line}");
}

/// The example bot whose knowledge is a table in its data folder: `cargo xtask bots` puts the
/// folder beside it (`azul-table.data/`), where `arena match` finds it, and the table is what makes
/// it play well.
#[test]
fn the_example_table_bot_plays_well_with_its_data_and_poorly_without() {
    let (table, random) = (bot("azul-table"), bot("azul-random"));
    assert!(Path::new(&table).with_extension("data").join("weights.txt").is_file(), "the build puts the data beside");
    let series = |extra: &[&str]| -> Value {
        let args =
            [&["match", "--game", "azul", &table, &random, "--seeds", "1..10", "--swap", "--json"], extra].concat();
        let standings: Value = serde_json::from_str(arena_ok(&args).trim()).unwrap();
        standings["bots"][0].clone()
    };
    let (with, without) = (series(&[]), series(&["--no-data"]));
    assert_eq!(with["bot"], "azul-table");
    assert!(with["wins"].as_u64().unwrap() >= 18, "with its table it beats the random bot: {with}");
    let (with_score, without_score) = (with["score_mean"].as_f64().unwrap(), without["score_mean"].as_f64().unwrap());
    assert!(with_score > 2.0 * without_score, "the table more than doubles its score: {with_score} vs {without_score}");

    let dir = fresh_scratch("data-table");
    let replay_path = dir.join("match.json");
    arena_ok(&["match", "--game", "azul", &table, &random, "--seed", "3", "--replay", replay_path.to_str().unwrap()]);
    let entries = seat0(&replay(&replay_path), 0)["log"]["entries"].as_array().cloned().unwrap_or_default();
    assert!(entries.is_empty(), "the table was read without a word: {entries:?}");
    let bare = dir.join("bare.json");
    arena_ok(&[
        "match",
        "--game",
        "azul",
        &table,
        &random,
        "--seed",
        "3",
        "--no-data",
        "--replay",
        bare.to_str().unwrap(),
    ]);
    let said = seat0(&replay(&bare), 0)["log"]["entries"][0]["text"].as_str().unwrap().to_owned();
    assert!(said.starts_with("no table (/data/weights.txt: "), "{said}");
}
