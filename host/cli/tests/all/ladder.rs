//! `arena serve` against real requests on loopback: bots submitted with `arena submit` are
//! validated, rated and shown, and a rated match is reproduced locally bit for bit; every refusal
//! names its step and reason; the forms need their CSRF token and the cookies are HttpOnly; the
//! pages carry the content security policy; a server killed mid-play and restarted loses no
//! upload and records no match twice; accounts and tokens made through the JSON API follow the
//! forms' rules; `arena ladder bot` and `arena ladder matches` show versions, ratings and seats;
//! an `https://` URL at a server speaking plain HTTP fails the TLS handshake in one line. Needs
//! the example bots (`cargo xtask bots`).

use crate::common::ladder::Ladder;
use crate::common::{arena, arena_with_env, bot, fresh_scratch, scratch, stderr, stdout};
use std::collections::BTreeSet;

/// `arena submit --wait --json` of `file` as `name`, with `token`: its exit status and JSON.
fn submit(ladder: &Ladder, token: &str, game: &str, file: &str, name: &str) -> (Option<i32>, serde_json::Value) {
    let out = arena_with_env(
        &["submit", "--server", &ladder.url, "--game", game, file, "--name", name, "--wait", "--json"],
        &[("ARENA_TOKEN", token)],
    );
    let text = stdout(&out);
    let json = serde_json::from_str(text.trim()).unwrap_or(serde_json::Value::Null);
    (out.status.code(), json)
}

/// The data a viewer page carries (its `replay` script: gzip, then base64), as text.
fn viewer_data(page: &str) -> String {
    use base64::Engine;
    use std::io::Read;
    let encoded = page.split("id=\"replay\">").nth(1).and_then(|rest| rest.split("</script>").next()).unwrap();
    let compressed = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(compressed.as_slice()).read_to_string(&mut text).unwrap();
    text
}

fn sha256_of(path: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

#[test]
fn submitted_bots_are_validated_rated_shown_and_their_matches_reproduce_locally() {
    let ladder = Ladder::start(&fresh_scratch("ladder-rated"), &[]);
    let token = ladder.add_user("alice");
    let (greedy, random) = (bot("azul-greedy"), bot("azul-random"));
    let (code, accepted) = submit(&ladder, &token, "azul", &greedy, "greedy");
    assert_eq!(code, Some(0), "{accepted}\n{}", ladder.log());
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(accepted["bot"], "greedy");
    assert_eq!(accepted["version"], sha256_of(&greedy), "a version is its file's sha256");
    let steps: Vec<&str> =
        accepted["steps"].as_array().unwrap().iter().map(|step| step["step"].as_str().unwrap()).collect();
    assert_eq!(steps, ["upload", "read", "shape", "type check", "compile", "validation"]);
    let (code, _) = submit(&ladder, &token, "azul", &random, "random");
    assert_eq!(code, Some(0));
    // A line-protocol program (a WASI command) is accepted where the game has a protocol.
    let (code, command) = submit(&ladder, &token, "azul", &bot("azul-stdio-random"), "stdio");
    assert_eq!((code, &command["status"]), (Some(0), &serde_json::json!("accepted")), "{command}");

    // Rated without anyone asking: both seat orders of each pairing, the greedy bot on top.
    let board = ladder.wait_for("/api/games/azul/leaderboard", 120, |board| {
        let lines = board["leaderboard"].as_array().unwrap();
        lines.len() == 3 && lines.iter().all(|line| line["matches"].as_u64().unwrap() >= 4)
    });
    let lines = board["leaderboard"].as_array().unwrap();
    assert_eq!(lines[0]["bot"], "greedy", "{board}");
    for line in lines {
        let interval = line["interval"].as_array().unwrap();
        assert!(interval[0].as_f64().unwrap() < line["rating"].as_f64().unwrap(), "{line}");
        assert!(line["rating"].as_f64().unwrap() < interval[1].as_f64().unwrap(), "{line}");
        let games = ["wins", "draws", "losses"].iter().map(|key| line[key].as_u64().unwrap()).sum::<u64>();
        assert_eq!(games, line["matches"].as_u64().unwrap(), "{line}");
    }
    let out = arena(&["ladder", "--server", &ladder.url, "--game", "azul", "--json"]);
    let printed: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(printed["game"], "azul");
    assert_eq!(printed["leaderboard"][0]["version"], sha256_of(&greedy));
    let table = stdout(&arena(&["ladder", "--server", &ladder.url, "--game", "azul"]));
    assert!(table.lines().nth(2).is_some_and(|line| line.contains("greedy")), "{table}");

    // A match: its page names the command that reproduces it; the replay verifies; the command
    // run here on the downloaded bots gives the same result.
    let recent = ladder.get("/api/matches?game=azul&limit=1", None).json();
    let one = &recent[0];
    let id = one["id"].as_i64().unwrap();
    let page = ladder.get(&format!("/matches/{id}"), None);
    assert_eq!(page.status, 200);
    assert!(page.policy.as_deref().is_some_and(|policy| policy.contains("script-src 'self'")), "{:?}", page.policy);
    let command =
        page.body.split("<pre class=\"command\">").nth(1).and_then(|rest| rest.split("</pre>").next()).unwrap();
    assert!(command.starts_with(&format!("arena match --game azul --seed {}", one["seed"])), "{command}");
    let replay = scratch("ladder-match.json");
    std::fs::write(&replay, ladder.get(&format!("/matches/{id}/replay.json"), None).body).unwrap();
    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(stdout(&verify).trim(), "identical", "{}", stderr(&verify));
    let mut files = Vec::new();
    for seat in one["seats"].as_array().unwrap() {
        let version = ladder.get(&format!("/api/versions/{}", seat["version_id"]), None).json();
        let file = scratch(&format!("{}.wasm", &version["version"].as_str().unwrap()[..12]));
        std::fs::write(&file, ladder.get_bytes(&format!("/versions/{}/bot.wasm", seat["version_id"]))).unwrap();
        assert_eq!(sha256_of(file.to_str().unwrap()), version["version"]);
        files.push(file.to_string_lossy().into_owned());
    }
    let seed = one["seed"].to_string();
    let local = arena(&["match", "--game", "azul", "--seed", &seed, &files[0], &files[1], "--json"]);
    let local: serde_json::Value = serde_json::from_str(stdout(&local).trim()).unwrap();
    assert_eq!(local["winner"], one["winner"]);
    for (seat, player) in local["players"].as_array().unwrap().iter().enumerate() {
        let recorded = &one["seats"][seat]["outcome"];
        for key in ["score", "rank", "fuel_total", "fuel_max_turn"] {
            assert_eq!(player[key], recorded[key], "seat {seat} {key}");
        }
    }

    // The viewer's page is allowed its own inline scripts by hash, nothing else.
    let viewer = ladder.get(&format!("/matches/{id}/viewer"), None);
    assert_eq!(viewer.status, 200);
    let policy = viewer.policy.unwrap();
    assert!(policy.contains("script-src 'sha256-") && !policy.contains("unsafe-inline"), "{policy}");
    // The viewer names each seat's bot as the ladder does; the download keeps the file names
    // `replay verify` checks (above).
    let seat_names: Vec<String> = one["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|seat| ladder.get(&format!("/api/versions/{}", seat["version_id"]), None).json()["bot"].to_string())
        .collect();
    let data = viewer_data(&viewer.body);
    for name in &seat_names {
        let shown = format!("\"{}@", name.trim_matches('"'));
        assert!(data.contains(&shown), "the viewer names {shown}...: {}", &data[..data.len().min(400)]);
    }
    for path in
        ["/", "/games/azul", "/games/azul/table", "/live", "/bots/1", "/api/games", "/api/queue", "/api/openapi.json"]
    {
        let answer = ladder.get(path, None);
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
        assert!(answer.policy.is_some(), "{path} has no content security policy");
    }
}

#[test]
fn refusals_name_the_step_and_the_reason() {
    let data = fresh_scratch("ladder-refusals");
    let config = data.with_extension("toml");
    std::fs::write(&config, "max_upload_mib = 1\n").unwrap();
    let ladder = Ladder::start(&data, &["--config", config.to_str().unwrap()]);
    let token = ladder.add_user("alice");
    let other = ladder.add_user("bob");

    let garbage = scratch("garbage.wasm");
    std::fs::write(&garbage, b"not a wasm file at all").unwrap();
    let (code, refused) = submit(&ladder, &token, "azul", garbage.to_str().unwrap(), "garbage");
    assert_eq!(code, Some(1), "{refused}");
    assert_eq!(refused["status"], "refused");
    let reason = refused["reason"].as_str().unwrap();
    assert!(reason.starts_with("shape: garbage.wasm: not a WebAssembly file"), "{reason}");

    let (code, refused) = submit(&ladder, &token, "azul", &bot("paint-greedy"), "painter");
    assert_eq!(code, Some(1), "{refused}");
    let reason = refused["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("type check: painter.wasm: exports") && reason.contains("arena:azul/player"),
        "{reason}"
    );

    let bomb = scratch("bomb.wasm");
    let wat = arena_host::shape::bomb_wat(5_000, 5_000).replacen("(module", "(component (core module", 1) + ")";
    std::fs::write(&bomb, wat::parse_str(wat).unwrap()).unwrap();
    let (code, refused) = submit(&ladder, &token, "azul", bomb.to_str().unwrap(), "bomb");
    assert_eq!(code, Some(1), "{refused}");
    assert!(refused["reason"].as_str().unwrap().contains("nests blocks more than 3000 deep"), "{refused}");

    let (code, refused) = submit(&ladder, &token, "azul", &bot("fx-panic"), "panicky");
    assert_eq!(code, Some(1), "{refused}");
    let reason = refused["reason"].as_str().unwrap();
    assert!(reason.starts_with("validation: self-play on seed 1: seat 0 forfeited (too_many_traps)"), "{reason}");

    let big = scratch("big.wasm");
    std::fs::write(&big, vec![0u8; (1 << 20) + 1]).unwrap();
    let (code, refused) = submit(&ladder, &token, "azul", big.to_str().unwrap(), "big");
    assert_eq!(code, Some(1), "{refused}");
    assert!(refused["reason"].as_str().unwrap().contains("larger than the 1048576-byte limit"), "{refused}");

    let greedy = bot("azul-greedy");
    assert_eq!(submit(&ladder, &token, "azul", &greedy, "greedy").0, Some(0));
    let (code, refused) = submit(&ladder, &other, "azul", &greedy, "greedy");
    assert_eq!(code, Some(1), "a name another account owns: {refused}");
    assert!(refused["reason"].as_str().unwrap().contains("taken"), "{refused}");

    // Bad usage: exit 2 with one line.
    for (token, game, why) in
        [("arena_nonsense", "azul", "not valid"), (token.as_str(), "chess", "no such game \"chess\"")]
    {
        let out = arena_with_env(
            &["submit", "--server", &ladder.url, "--game", game, &greedy, "--wait", "--json"],
            &[("ARENA_TOKEN", token)],
        );
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
    let out = arena_with_env(
        &["submit", "--server", "http://127.0.0.1:9", "--game", "azul", &greedy],
        &[("ARENA_TOKEN", "x")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot reach"), "{}", stderr(&out));

    // The same refusals through the API, with their statuses.
    let answer = ladder.post_bytes("/api/games/azul/bots/x", "arena_nonsense", "application/wasm", b"\0asm");
    assert_eq!(answer.status, 401, "{}", answer.body);
    let answer = ladder.post_bytes("/api/games/azul/bots/x", &token, "application/wasm", &vec![0u8; (1 << 20) + 1]);
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert!(answer.json()["reason"].as_str().unwrap().starts_with("upload: "), "{}", answer.body);
    let answer = ladder.post_bytes("/api/games/azul/bots/bad%20name", &token, "application/wasm", b"\0asm");
    assert_eq!(answer.status, 400, "{}", answer.body);
}

#[test]
fn forms_need_their_csrf_token_and_sessions_are_httponly_cookies() {
    let ladder = Ladder::start(&fresh_scratch("ladder-forms"), &[]);
    let form = ladder.get("/signup", None);
    let cookie = form.cookies.iter().find(|cookie| cookie.starts_with("arena_form=")).expect("a form cookie").clone();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let token = cookie.trim_start_matches("arena_form=").split(';').next().unwrap().to_owned();
    assert!(form.body.contains(&format!("value=\"{token}\"")), "the form carries the cookie's token");
    let jar = format!("arena_form={token}");

    let forged = ladder.post_form(
        "/signup",
        Some(&jar),
        &[("csrf", "forged"), ("name", "carol"), ("password", "a long password")],
    );
    assert_eq!(forged.status, 403, "{}", forged.body);
    let weak = ladder.post_form("/signup", Some(&jar), &[("csrf", &token), ("name", "carol"), ("password", "short")]);
    assert_eq!(weak.status, 400);
    let signed = ladder.post_form(
        "/signup",
        Some(&jar),
        &[("csrf", &token), ("name", "carol"), ("password", "a long password")],
    );
    assert_eq!(signed.status, 303, "{}", signed.body);
    let session = signed.cookies.iter().find(|cookie| cookie.starts_with("arena_session=")).expect("a session").clone();
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Lax"), "{session}");
    let session = session.split(';').next().unwrap().to_owned();

    let account = ladder.get("/account", Some(&session));
    assert!(account.body.contains("<h1>carol</h1>"), "{}", account.body);
    let csrf =
        account.body.split("name=\"csrf\" value=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap().to_owned();
    assert_eq!(ladder.post_form("/account/tokens", Some(&session), &[("csrf", "nope"), ("label", "x")]).status, 403);
    let made = ladder.post_form("/account/tokens", Some(&session), &[("csrf", &csrf), ("label", "<laptop>")]);
    assert!(made.body.contains("&lt;laptop&gt;") && !made.body.contains("<laptop>"), "labels are escaped");
    let api_token =
        made.body.split("id=\"new-token\">").nth(1).and_then(|rest| rest.split('<').next()).unwrap().to_owned();
    assert!(api_token.starts_with("arena_"), "{api_token}");
    let uploaded = ladder.post_bytes(
        "/api/games/azul/bots/web",
        &api_token,
        "application/wasm",
        &std::fs::read(bot("azul-random")).unwrap(),
    );
    assert_eq!(uploaded.status, 201, "{}", uploaded.body);

    let wrong =
        ladder.post_form("/login", Some(&jar), &[("csrf", &token), ("name", "carol"), ("password", "wrong password")]);
    assert_eq!(wrong.status, 401);
    let again =
        ladder.post_form("/login", Some(&jar), &[("csrf", &token), ("name", "carol"), ("password", "a long password")]);
    assert_eq!(again.status, 303);
    assert_eq!(ladder.post_form("/logout", Some(&session), &[("csrf", &csrf)]).status, 303);
    assert!(!ladder.get("/account", Some(&session)).body.contains("carol"), "the session is closed");
}

#[test]
fn a_server_killed_mid_play_loses_no_upload_and_records_no_match_twice() {
    let mut ladder = Ladder::start(&fresh_scratch("ladder-kill"), &[]);
    let token = ladder.add_user("alice");
    for (name, file) in [("greedy", bot("paint-greedy")), ("random", bot("paint-random"))] {
        let answer = ladder.post_bytes(
            &format!("/api/games/paint/bots/{name}"),
            &token,
            "application/wasm",
            &std::fs::read(file).unwrap(),
        );
        assert_eq!(answer.status, 201, "{}", answer.body);
    }
    // Killed as soon as it plays, and again while validating a third upload.
    ladder.wait_for("/api/queue", 120, |queue| queue["done"].as_u64().unwrap() >= 1);
    ladder.kill_and_restart();
    let answer = ladder.post_bytes(
        "/api/games/paint/bots/other",
        &token,
        "application/wasm",
        &std::fs::read(bot("paint-random-js")).unwrap(),
    );
    assert_eq!(answer.status, 201, "{}", answer.body);
    let version = answer.json()["version_id"].as_i64().unwrap();
    ladder.kill_and_restart();

    let checked = ladder.wait_for(&format!("/api/versions/{version}"), 300, |version| version["status"] != "pending");
    assert_eq!(checked["status"], "accepted", "the upload survived and its checks ran after the restart: {checked}");
    ladder.wait_for("/api/queue", 300, |queue| queue["done"].as_u64().unwrap() >= 12);
    let matches = ladder.get("/api/matches?game=paint&limit=500", None).json();
    let matches = matches.as_array().unwrap();
    assert!(matches.len() >= 12, "{}", matches.len());
    // A pairing's seed and seats name its match: played once, whatever the kills interrupted.
    let mut seen = BTreeSet::new();
    for one in matches {
        let seats: Vec<i64> =
            one["seats"].as_array().unwrap().iter().map(|seat| seat["version_id"].as_i64().unwrap()).collect();
        assert!(seen.insert((one["seed"].as_u64().unwrap(), seats)), "match {} recorded twice", one["id"]);
        assert!(one["replay_sha256"].is_string(), "{one}");
    }
}

#[test]
fn quotas_refuse_with_the_limit_in_words_and_admin_actions_are_audited() {
    let data = fresh_scratch("ladder-quotas");
    let config = data.with_extension("toml");
    std::fs::write(&config, "[quotas]\nuploads_per_hour = 2\nscrimmages_per_hour = 1\n").unwrap();
    let ladder = Ladder::start(&data, &["--config", config.to_str().unwrap()]);
    let admin = |args: &[&str]| arena(&[&["serve", "admin", "--data", data.to_str().unwrap()], args].concat());
    let token = ladder.add_user("alice");
    // Frozen from the start: only the scrimmage below may play until the thaw.
    assert_eq!(admin(&["freeze", "azul"]).status.code(), Some(0));

    let upload = |name: &str, file: &str| {
        ladder.post_bytes(
            &format!("/api/games/azul/bots/{name}"),
            &token,
            "application/wasm",
            &std::fs::read(bot(file)).unwrap(),
        )
    };
    let greedy = upload("greedy", "azul-greedy").json();
    let random = upload("random", "azul-random").json();
    let over = upload("search", "azul-search");
    assert_eq!(over.status, 429, "{}", over.body);
    assert!(over.json()["reason"].as_str().unwrap().contains("may upload 2 versions an hour"), "{}", over.body);
    for version in [&greedy, &random] {
        let path = format!("/api/versions/{}", version["version_id"]);
        assert_eq!(ladder.wait_for(&path, 120, |version| version["status"] != "pending")["status"], "accepted");
    }

    let scrimmage = |opponent: &serde_json::Value| {
        let body = serde_json::json!({ "opponent": opponent["bot_id"] }).to_string();
        ladder.post_bytes(
            &format!("/api/bots/{}/scrimmage", greedy["bot_id"]),
            &token,
            "application/json",
            body.as_bytes(),
        )
    };
    let asked = scrimmage(&random);
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert_eq!(asked.json()["matches"].as_array().unwrap().len(), 2, "both seat orders");
    let again = scrimmage(&random);
    assert_eq!(again.status, 429, "{}", again.body);
    assert!(again.json()["reason"].as_str().unwrap().contains("1 scrimmages an hour"), "{}", again.body);

    let played = ladder.wait_for("/api/matches?game=azul", 120, |matches| matches.as_array().unwrap().len() >= 2);
    assert!(played.as_array().unwrap().iter().all(|one| one["kind"] == "scrimmage"), "a frozen ladder: {played}");
    assert_eq!(admin(&["freeze", "azul", "--thaw"]).status.code(), Some(0));
    ladder.wait_for("/api/matches?game=azul", 120, |matches| {
        matches.as_array().unwrap().iter().any(|one| one["kind"] == "ranked")
    });

    let bot_id = random["bot_id"].to_string();
    assert_eq!(admin(&["disable-bot", &bot_id]).status.code(), Some(0));
    assert_eq!(ladder.get(&format!("/api/bots/{bot_id}"), None).json()["bot"]["disabled"], true);
    let refused = admin(&["requeue", "1"]);
    assert_eq!(refused.status.code(), Some(2), "match 1 is not failed");
    assert!(stderr(&refused).contains("not a failed match"), "{}", stderr(&refused));
    let audit = stdout(&admin(&["audit"]));
    let actions: Vec<&str> = audit.lines().map(|line| line.split('\t').nth(1).unwrap()).collect();
    assert_eq!(actions, ["add-user", "freeze", "thaw", "disable-bot"], "{audit}");
}

#[test]
fn accounts_and_tokens_are_made_through_the_json_api_by_the_forms_rules() {
    let ladder = Ladder::start(&fresh_scratch("ladder-api-accounts"), &[]);
    let signup = |name: &str, password: &str| {
        ladder.post_json("/api/signup", None, &serde_json::json!({ "name": name, "password": password }))
    };
    let made = signup("dora", "a long password");
    assert_eq!(made.status, 201, "{}", made.body);
    let made = made.json();
    assert_eq!((&made["user"]["name"], &made["user"]["admin"]), (&"dora".into(), &false.into()), "{made}");
    assert!(made["user"].get("password_hash").is_none(), "{made}");
    assert_eq!(made["label"], "api signup");
    let first = made["token"].as_str().unwrap().to_owned();
    assert!(first.starts_with("arena_") && first.len() == 70, "{first}");

    // Refused in the sign-up form's words.
    for (name, password, status, words) in [
        ("dora", "another long one", 409, "the name \"dora\" is taken"),
        ("bad name", "a long password", 400, "a name has 1 to 40 characters"),
        ("eve", "short", 400, "a password has 8 to 256 characters"),
    ] {
        let refused = signup(name, password);
        assert_eq!(refused.status, status, "{name}: {}", refused.body);
        assert!(refused.json()["reason"].as_str().unwrap().contains(words), "{name}: {}", refused.body);
    }
    let garbage = ladder.post("/api/signup", None, "application/json", b"{\"name\": 3");
    assert_eq!(garbage.status, 400, "{}", garbage.body);
    assert!(garbage.json()["reason"].as_str().unwrap().starts_with("the body is not the JSON expected"));

    // A token from the first one (default label), or from the name and password (label cut).
    let more = ladder.post("/api/tokens", Some(&first), "application/json", b"");
    assert_eq!(more.status, 201, "{}", more.body);
    assert_eq!(more.json()["label"], "api");
    let long = "x".repeat(100);
    let more = ladder.post_json(
        "/api/tokens",
        None,
        &serde_json::json!({ "name": "dora", "password": "a long password", "label": long }),
    );
    assert_eq!(more.status, 201, "{}", more.body);
    let more = more.json();
    assert_eq!(more["label"].as_str().unwrap().len(), 60, "{more}");
    let second = more["token"].as_str().unwrap();
    assert_ne!(second, first);
    let uploaded = ladder.post_bytes(
        "/api/games/azul/bots/api-made",
        second,
        "application/wasm",
        &std::fs::read(bot("azul-random")).unwrap(),
    );
    assert_eq!(uploaded.status, 201, "the new token uploads: {}", uploaded.body);
    assert_eq!(uploaded.json()["bot"], "api-made");

    // Refusals: 401 with the reason.
    ladder.add_user("alice"); // no password: tokens only
    for (token, body, words) in [
        (None, serde_json::json!({ "name": "dora", "password": "a wrong password" }), "wrong name or password"),
        (None, serde_json::json!({ "name": "nobody", "password": "a long password" }), "wrong name or password"),
        (None, serde_json::json!({ "name": "alice", "password": "a long password" }), "wrong name or password"),
        (None, serde_json::json!({ "label": "x" }), "no credentials"),
        (Some("arena_nonsense"), serde_json::json!({}), "the API token is not valid"),
    ] {
        let refused = ladder.post_json("/api/tokens", token, &body);
        assert_eq!(refused.status, 401, "{body}: {}", refused.body);
        assert_eq!(refused.json()["error"], 401);
        assert!(refused.json()["reason"].as_str().unwrap().contains(words), "{body}: {}", refused.body);
    }

    // An account made through the API logs in with the form, one made with the form gets tokens
    // through the API: one set of rules.
    let form = ladder.get("/login", None);
    let cookie = form.cookies.iter().find(|cookie| cookie.starts_with("arena_form=")).unwrap();
    let csrf = cookie.trim_start_matches("arena_form=").split(';').next().unwrap().to_owned();
    let jar = format!("arena_form={csrf}");
    let login = |name: &str, password: &str| {
        ladder.post_form("/login", Some(&jar), &[("csrf", &csrf), ("name", name), ("password", password)]).status
    };
    assert_eq!(login("dora", "a long password"), 303);
    assert_eq!(login("dora", "a wrong password"), 401);
    let signed = ladder.post_form(
        "/signup",
        Some(&jar),
        &[("csrf", &csrf), ("name", "frank"), ("password", "frank's password")],
    );
    assert_eq!(signed.status, 303, "{}", signed.body);
    let taken = ladder.post_form(
        "/signup",
        Some(&jar),
        &[("csrf", &csrf), ("name", "frank"), ("password", "frank's password")],
    );
    assert_eq!(taken.status, 400);
    assert!(taken.body.contains("the name &quot;frank&quot; is taken"), "{}", taken.body);
    let token = ladder.post_json(
        "/api/tokens",
        None,
        &serde_json::json!({ "name": "frank", "password": "frank's password", "label": "ci" }),
    );
    assert_eq!((token.status, &token.json()["label"]), (201, &"ci".into()), "{}", token.body);
}

#[test]
fn arena_ladder_bot_and_matches_show_versions_refusals_ratings_and_seats() {
    let ladder = Ladder::start(&fresh_scratch("ladder-cli-views"), &[]);
    let token = ladder.add_user("alice");
    let (code, greedy) = submit(&ladder, &token, "paint", &bot("paint-greedy"), "greedy");
    assert_eq!(code, Some(0), "{greedy}");
    let garbage = scratch("ladder-cli-garbage.wasm");
    std::fs::write(&garbage, b"not a wasm file at all").unwrap();
    let (code, refused) = submit(&ladder, &token, "paint", garbage.to_str().unwrap(), "greedy");
    assert_eq!(code, Some(1), "a refused second version of the same bot: {refused}");
    assert_eq!(submit(&ladder, &token, "paint", &bot("paint-random"), "random").0, Some(0));
    let id = greedy["bot_id"].as_i64().unwrap();
    ladder.wait_for("/api/games/paint/leaderboard", 120, |board| {
        let lines = board["leaderboard"].as_array().unwrap();
        lines.len() == 2 && lines.iter().all(|line| line["matches"].as_u64().unwrap() >= 2)
    });

    // A bot: its versions, newest first, the refused one with its reason; its rating line.
    let out = arena(&["ladder", "bot", "--server", &ladder.url, &id.to_string(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!((&shown["bot"]["name"], &shown["bot"]["game"]), (&"greedy".into(), &"paint".into()), "{shown}");
    let statuses: Vec<&str> =
        shown["versions"].as_array().unwrap().iter().map(|version| version["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["accepted", "refused"], "{shown}");
    assert!(shown["versions"][1]["reason"].as_str().unwrap().starts_with("shape: "), "{shown}");
    let rating = &shown["rating"];
    assert_eq!((&rating["bot_id"], &rating["version"]), (&id.into(), &greedy["version"]), "{shown}");
    assert!(rating["rank"] == 1 || rating["rank"] == 2, "{shown}");
    assert!(rating["matches"].as_u64().unwrap() >= 2, "{shown}");
    let text = stdout(&arena(&["ladder", "bot", "--server", &ladder.url, &id.to_string()]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("paint bot greedy (id ") && lines[0].contains("by alice"), "{text}");
    assert!(lines[2].contains(" refused ") && lines[2].contains("shape: "), "newest first: {text}");
    let sha = &greedy["version"].as_str().unwrap()[..12];
    assert!(lines[3].contains(sha) && lines[3].ends_with(" accepted"), "{text}");
    assert!(lines[4].contains("95% interval") && lines[5].contains("greedy"), "{text}");
    assert_eq!(lines[5].find("greedy"), lines[4].find("bot"), "the rating line under its titles: {text}");

    // Matches: a bot's, each with that bot in a seat, seats named, the winner one of them.
    let out =
        arena(&["ladder", "matches", "--server", &ladder.url, "--bot", &id.to_string(), "--limit", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let matches = shown["matches"].as_array().unwrap();
    assert!((1..=3).contains(&matches.len()), "{shown}");
    for one in matches {
        assert_eq!(one["game"], "paint", "{one}");
        let seats = one["seats"].as_array().unwrap();
        assert!(seats.iter().any(|seat| seat["bot_id"] == id), "{one}");
        assert!(seats.iter().all(|seat| seat["version"].as_str().unwrap().len() == 64), "{one}");
        if let Some(winner) = one["winner"].as_u64() {
            assert_eq!(one["winner_bot"], seats[winner as usize]["bot"], "{one}");
        }
    }
    let ids: Vec<i64> = matches.iter().map(|one| one["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|pair| pair[0] > pair[1]), "newest first: {ids:?}");
    let text = stdout(&arena(&["ladder", "matches", "--server", &ladder.url, "--game", "paint", "--limit", "2"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("match") && lines[0].ends_with("seats"), "{text}");
    assert!(lines[1].contains("paint") && lines[1].contains(&format!("greedy@{sha}")), "{text}");
    assert_eq!(lines[1].find("paint"), lines[0].find("game"), "aligned: {text}");

    // Not found: exit 1 with the server's reason; bad usage: exit 2.
    for args in [
        ["ladder", "bot", "--server", &ladder.url, "999"].as_slice(),
        &["ladder", "matches", "--server", &ladder.url, "--bot", "999"],
    ] {
        let out = arena(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains("no such bot 999"), "{}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    for args in [
        ["ladder"].as_slice(),
        &["ladder", "--server", &ladder.url],
        &["ladder", "bot", "--server", &ladder.url, "seven"],
        &["ladder", "matches", "--server", &ladder.url, "--limit", "0"],
        &["ladder", "--server", &ladder.url, "--game", "paint", "bot", "1"],
    ] {
        assert_eq!(arena(args).status.code(), Some(2), "{args:?}");
    }
    let answer = ladder.get("/api/matches?bot=seven", None);
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.json()["reason"].is_string(), "{}", answer.body);
    assert_eq!(ladder.get("/api/matches?bot=999", None).status, 404);
    assert_eq!(ladder.get(&format!("/api/matches?bot={id}&game=azul"), None).json(), serde_json::json!([]));
}

#[test]
fn https_urls_at_a_server_speaking_plain_http_fail_the_tls_handshake() {
    let ladder = Ladder::start(&fresh_scratch("ladder-https"), &[]);
    let https = ladder.url.replacen("http://", "https://", 1);
    // A listener that closes every connection at once, for at most 60 s.
    let closer = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closing = format!("https://{}", closer.local_addr().unwrap());
    closer.set_nonblocking(true).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = std::sync::Arc::clone(&stop);
    let thread = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        while !stopped.load(std::sync::atomic::Ordering::Relaxed) && started.elapsed().as_secs() < 60 {
            match closer.accept() {
                Ok((stream, _)) => drop(stream),
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
            }
        }
    });
    let greedy = bot("azul-greedy");
    for server in [&https, &closing] {
        for args in [
            ["ladder", "--server", server, "--game", "azul"].as_slice(),
            &["ladder", "matches", "--server", server],
            &["ladder", "bot", "--server", server, "1", "--json"],
            &["submit", "--server", server, "--game", "azul", &greedy],
        ] {
            let out = arena_with_env(args, &[("ARENA_TOKEN", "arena_x")]);
            let said = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
            assert_eq!(said.trim().lines().count(), 1, "{args:?}: one line: {said}");
            assert!(said.contains("TLS handshake failed") && said.contains(server.as_str()), "{args:?}: {said}");
            assert!(!said.to_lowercase().contains("scheme"), "{args:?}: {said}");
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    thread.join().unwrap();
    // Nothing listening is not a TLS failure.
    let out = arena(&["ladder", "--server", "https://127.0.0.1:9", "--game", "azul"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot reach") && !stderr(&out).contains("TLS"), "{}", stderr(&out));
}

#[test]
fn a_game_for_more_than_two_bots_is_played_at_tables_in_every_seat_order() {
    let ladder = Ladder::start(&fresh_scratch("ladder-tables"), &[]);
    let token = ladder.add_user("alice");
    // Frozen until the three are in, so every ranked match is at a table of three.
    let admin = |args: &[&str]| {
        let out = arena(&[&["serve", "admin", "--data", ladder.data.to_str().unwrap()], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    admin(&["freeze", "suitebot"]);
    for (name, file) in [
        ("harvester", bot("suitebot-harvester")),
        ("random", bot("suitebot-random")),
        ("stdio", bot("suitebot-stdio-random")),
    ] {
        ladder.upload_accepted(&token, "suitebot", name, &file);
    }
    admin(&["freeze", "suitebot", "--thaw"]);
    // SuiteBot II takes up to 8 bots: the three sit at one table, each in every seat once.
    let board = ladder.wait_for("/api/games/suitebot/leaderboard", 300, |board| {
        let lines = board["leaderboard"].as_array().unwrap();
        lines.len() == 3 && lines.iter().all(|line| line["matches"].as_u64().unwrap() >= 6)
    });
    assert_eq!(board["leaderboard"][0]["bot"], "harvester", "{board}");
    let matches = ladder.get("/api/matches?game=suitebot&limit=500", None).json();
    let mut by_seed: std::collections::BTreeMap<u64, Vec<Vec<i64>>> = std::collections::BTreeMap::new();
    for one in matches.as_array().unwrap() {
        let seats: Vec<i64> =
            one["seats"].as_array().unwrap().iter().map(|seat| seat["version_id"].as_i64().unwrap()).collect();
        assert_eq!(seats.iter().collect::<BTreeSet<_>>().len(), 3, "three bots at every table: {one}");
        by_seed.entry(one["seed"].as_u64().unwrap()).or_default().push(seats);
    }
    // A table whose three matches are all played shows the three rotations of one order.
    let full: Vec<&Vec<Vec<i64>>> = by_seed.values().filter(|orders| orders.len() == 3).collect();
    assert!(!full.is_empty(), "{by_seed:?}");
    for orders in full {
        let mut first = orders[0].clone();
        let rotations: BTreeSet<Vec<i64>> = (0..3)
            .map(|_| {
                first.rotate_left(1);
                first.clone()
            })
            .collect();
        assert_eq!(orders.iter().cloned().collect::<BTreeSet<_>>(), rotations, "each bot once in each seat");
    }
}
