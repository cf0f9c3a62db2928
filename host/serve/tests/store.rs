//! The store suite: every [`Store`] method's contract, run on each backend (SQLite in memory
//! and in a file, PostgreSQL on a real server the tests start: `common::postgres`); a new backend
//! passes the same functions. Also what only a server shows (several nodes claiming from one
//! queue), many threads reading and writing at once (a SQLite file's reads run on connections of
//! their own), the stores' use from tokio's blocking threads, and the migrations: a database made
//! at the first schema is brought to the latest one with its rows kept (a seat's outcome stored
//! before faults were kept reads without them), and a database newer than this program is
//! refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test: a failed assumption stops it

mod common;

use arena_host::record::PlayerSummary;
use arena_serve::store::postgres::PostgresStore;
use arena_serve::store::sqlite::SqliteStore;
use arena_serve::store::{
    AuditState, Bot, CompetitionFormat, CompetitionState, Finished, MatchKind, MatchState, NewCompetition, NewMatch,
    RatingPoint, Release, SeatFault, SeatOutcome, Step, Store, StoreError, User, Version, VersionStatus, migrations,
};
use std::path::PathBuf;
use std::sync::Arc;

/// A fresh database path of its own (tests run in parallel threads of one process).
fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("store-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("arena.sqlite")
}

/// Every backend under test, fresh.
fn backends() -> Vec<(&'static str, Arc<dyn Store>)> {
    vec![
        ("sqlite in memory", Arc::new(SqliteStore::in_memory().unwrap())),
        ("sqlite file", Arc::new(SqliteStore::open(&scratch("suite")).unwrap())),
        ("postgres", Arc::new(PostgresStore::connect(&common::postgres::database()).unwrap())),
    ]
}

fn outcome(rank: u32) -> SeatOutcome {
    let player = PlayerSummary {
        bot: "a".into(),
        sha256: "a".repeat(64),
        data: None,
        score: 10 - i64::from(rank),
        rank,
        forfeit: false,
        forfeit_reason: None,
        fuel_total: 1000,
        fuel_max_turn: 100,
        skipped_turns: 0,
        traps: 0,
        invalid_actions: 0,
    };
    SeatOutcome { player, turns: 10, faults: Vec::new() }
}

/// A new account `alice` and her azul bot `a` with a version of each file of `files`, a letter
/// each (the file's sha256 is 64 of it).
fn alices_bot(store: &dyn Store, files: &str) -> (User, Bot, Vec<Version>) {
    let alice = store.create_user("alice", "", false).unwrap();
    let bot = store.bot_for_upload(alice.id, "azul", "a").unwrap();
    let versions =
        files.chars().map(|file| store.add_version(bot.id, &file.to_string().repeat(64), None, 1, 0).unwrap().0);
    let versions = versions.collect();
    (alice, bot, versions)
}

/// A ranked azul match of the versions `seats` on `seed`.
fn ranked(seed: u64, seats: Vec<i64>) -> NewMatch {
    NewMatch { game: "azul".into(), seed, kind: MatchKind::Ranked, seats, requested_by: None }
}

#[test]
fn accounts_sessions_and_tokens() {
    for (name, store) in backends() {
        let alice = store.create_user("alice", "$argon2id$hash", false).unwrap();
        assert!(matches!(store.create_user("alice", "x", true), Err(StoreError::Taken { .. })), "{name}");
        assert_eq!(store.user_by_name("alice").unwrap(), Some(alice.clone()), "{name}");
        assert_eq!(store.user(alice.id).unwrap().map(|user| user.name), Some("alice".into()));
        assert_eq!(store.user_by_name("bob").unwrap(), None);

        store.create_session(alice.id, "session-hash", "csrf-1", 1_000).unwrap();
        assert_eq!(store.session("session-hash", 999).unwrap(), Some((alice.clone(), "csrf-1".into())), "{name}");
        assert_eq!(store.session("session-hash", 1_000).unwrap(), None, "{name}: expired");
        store.delete_session("session-hash").unwrap();
        assert_eq!(store.session("session-hash", 0).unwrap(), None, "{name}: closed");

        store.create_token(alice.id, "token-hash", "laptop").unwrap();
        store.create_token(alice.id, "token-hash-2", "ci").unwrap();
        assert_eq!(store.token_user("token-hash").unwrap().map(|user| user.id), Some(alice.id));
        assert_eq!(store.token_user("unknown").unwrap(), None);
        assert_eq!(store.token_labels(alice.id).unwrap(), ["laptop", "ci"]);
    }
}

#[test]
fn bots_belong_to_one_account_and_versions_are_idempotent() {
    for (name, store) in backends() {
        let alice = store.create_user("alice", "", false).unwrap();
        let bob = store.create_user("bob", "", false).unwrap();
        let bot = store.bot_for_upload(alice.id, "azul", "greedy").unwrap();
        assert_eq!((bot.owner_name.as_str(), bot.game.as_str(), bot.disabled), ("alice", "azul", false));
        assert_eq!(store.bot_for_upload(alice.id, "azul", "greedy").unwrap(), bot, "{name}: the same bot");
        assert!(matches!(store.bot_for_upload(bob.id, "azul", "greedy"), Err(StoreError::Taken { .. })), "{name}");
        let other_game = store.bot_for_upload(bob.id, "paint", "greedy").unwrap();
        assert_ne!(other_game.id, bot.id);
        assert_eq!(store.bots_of_game("azul").unwrap(), std::slice::from_ref(&bot));
        assert_eq!(store.bots_of_owner(bob.id).unwrap(), [other_game]);
        store.set_bot_disabled(bot.id, true).unwrap();
        assert!(store.bot(bot.id).unwrap().unwrap().disabled);

        let (first, new) = store.add_version(bot.id, &"a".repeat(64), None, 100, 1_000).unwrap();
        assert!(new && first.status == VersionStatus::Pending);
        let (again, new) = store.add_version(bot.id, &"a".repeat(64), None, 100, 1_000).unwrap();
        assert!(!new, "{name}: the same file is the same version");
        assert_eq!(again.id, first.id);
        let (second, _) = store.add_version(bot.id, &"b".repeat(64), None, 200, 2_000).unwrap();
        // A version is its file and its data: the same file with a data folder is another one,
        // the same file and data the one it already is; the data folder names the bots holding it.
        let (data, _) = {
            let digest = "d".repeat(64);
            let (with, new) = store.add_version(bot.id, &"a".repeat(64), Some(&digest), 100, 500).unwrap();
            assert!(new && with.id != first.id, "{name}: the same file with data is a new version");
            assert_eq!(with.data_digest.as_deref(), Some(digest.as_str()), "{name}");
            let (again, new) = store.add_version(bot.id, &"a".repeat(64), Some(&digest), 100, 500).unwrap();
            assert!(!new && again.id == with.id && again.data_digest == with.data_digest, "{name}");
            assert_eq!(store.version(with.id).unwrap().unwrap().data_digest, with.data_digest, "{name}");
            assert!(store.version(first.id).unwrap().unwrap().data_digest.is_none(), "{name}");
            let holders: Vec<i64> = store.bots_with_data(&digest).unwrap().iter().map(|bot| bot.id).collect();
            assert_eq!(holders, [bot.id], "{name}");
            assert!(store.bots_with_data(&"e".repeat(64)).unwrap().is_empty(), "{name}");
            assert!(store.bots_with_data("").unwrap().is_empty(), "{name}: no data is no digest");
            (with, new)
        };
        assert!(store.finish_version(data.id, VersionStatus::Accepted, None, &[]).unwrap());
        assert_eq!(store.pending_versions().unwrap().iter().map(|v| v.id).collect::<Vec<_>>(), [first.id, second.id]);
        let before = |at: i64| store.pending_versions_before(at).unwrap().iter().map(|v| v.id).collect::<Vec<_>>();
        assert_eq!((before(1_000), before(1_001), before(2_001)), (vec![], vec![first.id], vec![first.id, second.id]));
        let steps = [Step { step: "shape".into(), ok: false, detail: "not a component".into() }];
        assert!(
            store.finish_version(first.id, VersionStatus::Refused, Some("shape: not a component"), &steps).unwrap()
        );
        // A second node's checks of it finishing later leave the first record as it is.
        assert!(!store.finish_version(first.id, VersionStatus::Accepted, None, &[]).unwrap(), "{name}");
        assert_eq!(before(2_001), [second.id], "{name}");
        let refused = store.version(first.id).unwrap().unwrap();
        assert_eq!(
            (refused.status, refused.reason.as_deref()),
            (VersionStatus::Refused, Some("shape: not a component"))
        );
        assert_eq!(refused.steps, steps);
        assert_eq!(store.versions_of_bot(bot.id).unwrap().len(), 3);
        assert_eq!(store.pending_versions().unwrap().len(), 1);
        assert_eq!(store.uploads_since(alice.id, 1_000).unwrap(), 2, "{name}");
        assert_eq!(store.uploads_since(alice.id, 0).unwrap(), 3, "{name}");
        assert_eq!(store.uploads_since(alice.id, 1_001).unwrap(), 1);
        assert_eq!(store.uploads_since(bob.id, 0).unwrap(), 0);
    }
}

#[test]
fn a_bot_is_made_private_and_public_again_and_a_file_names_the_bots_holding_it() {
    for (name, store) in backends() {
        let (_, bot, versions) = alices_bot(&*store, "ab");
        assert!(!bot.private, "{name}: a new bot is public");
        store.set_bot_private(bot.id, true).unwrap();
        assert!(store.bot(bot.id).unwrap().unwrap().private, "{name}");
        assert!(store.bots_of_game("azul").unwrap()[0].private, "{name}: every read of a bot says so");
        assert!(store.bot_for_upload(bot.owner, "azul", "a").unwrap().private, "{name}: a new version keeps it");
        // Bob's bot holds the same file as one of Alice's versions: the file names both.
        let bob = store.create_user("bob", "", false).unwrap();
        let copy = store.bot_for_upload(bob.id, "azul", "copy").unwrap();
        store.add_version(copy.id, &versions[0].sha256, None, 1, 0).unwrap();
        let holders: Vec<(i64, bool)> =
            store.bots_with_file(&versions[0].sha256).unwrap().iter().map(|bot| (bot.id, bot.private)).collect();
        assert_eq!(holders, [(bot.id, true), (copy.id, false)], "{name}");
        let only: Vec<i64> = store.bots_with_file(&versions[1].sha256).unwrap().iter().map(|bot| bot.id).collect();
        assert_eq!(only, [bot.id], "{name}");
        assert!(store.bots_with_file(&"c".repeat(64)).unwrap().is_empty(), "{name}: a file no version holds");
        assert!(store.bot_page(bot.id, 10, 10).unwrap().unwrap().bot.private, "{name}: the bot page reads it");
        store.set_bot_private(bot.id, false).unwrap();
        assert!(!store.bot(bot.id).unwrap().unwrap().private, "{name}: public again");
        assert!(!store.bots_with_file(&versions[0].sha256).unwrap().iter().any(|bot| bot.private), "{name}");
    }
}

#[test]
fn a_frozen_ladder_is_listed_until_it_thaws() {
    for (name, store) in backends() {
        store.set_frozen("azul", true).unwrap();
        store.set_frozen("azul", true).unwrap();
        store.set_frozen("paint", true).unwrap();
        assert_eq!(store.frozen_games().unwrap(), ["azul", "paint"], "{name}");
        store.set_frozen("azul", false).unwrap();
        assert_eq!(store.frozen_games().unwrap(), ["paint"]);
    }
}

#[test]
fn the_queue_claims_scrimmages_first_each_match_once_and_records_a_result_once() {
    for (name, store) in backends() {
        let (alice, _, versions) = alices_bot(&*store, "ab");
        let (a, b) = (&versions[0], &versions[1]);
        let ids = store.enqueue(&[ranked(u64::MAX, vec![a.id, b.id]), ranked(2, vec![a.id, b.id])], 100).unwrap();
        let asked = NewMatch {
            game: "azul".into(),
            seed: 3,
            kind: MatchKind::Scrimmage,
            seats: vec![b.id, a.id],
            requested_by: Some(alice.id),
        };
        let scrimmage = store.enqueue(&[asked], 500).unwrap();
        assert_eq!(
            (store.scrimmages_since(alice.id, 500).unwrap(), store.scrimmages_since(alice.id, 501).unwrap()),
            (1, 0)
        );
        assert_eq!(store.queue_counts().unwrap().queued, 3);
        assert_eq!(store.ranked_pending("azul").unwrap().len(), 2);

        let first = store.claim("n1/w1", i64::MAX).unwrap().unwrap();
        assert_eq!(
            (first.id, first.kind, first.state),
            (scrimmage[0], MatchKind::Scrimmage, MatchState::Running),
            "{name}"
        );
        let second = store.claim("n1/w2", i64::MAX).unwrap().unwrap();
        assert_eq!(second.id, ids[0]);
        assert_eq!(second.seed, u64::MAX, "{name}: a seed keeps all 64 bits");
        assert_eq!(second.seats.iter().map(|seat| seat.version_id).collect::<Vec<_>>(), [a.id, b.id]);

        let finished = Finished {
            winner: Some(0),
            turns: 10,
            outcomes: vec![outcome(1), outcome(2)],
            digest: format!("sha256:{}", "e".repeat(64)),
            replay_sha256: None,
        };
        assert!(store.finish_match(second.id, &finished).unwrap());
        assert!(!store.finish_match(second.id, &finished).unwrap(), "{name}: recorded once");
        let done = store.match_by_id(second.id).unwrap().unwrap();
        assert_eq!((done.state, done.winner, done.turns), (MatchState::Done, Some(0), Some(10)));
        assert_eq!(done.digest, Some(finished.digest.clone()), "{name}");
        assert_eq!(done.replay_sha256, None, "{name}: played elsewhere, no replay yet");
        store.set_replay(second.id, &"c".repeat(64)).unwrap();
        assert_eq!(store.match_by_id(second.id).unwrap().unwrap().replay_sha256, Some("c".repeat(64)), "{name}");
        assert_eq!(done.seats[1].outcome, Some(outcome(2)));
        assert_eq!(store.ranked_results("azul").unwrap().iter().map(|m| m.id).collect::<Vec<_>>(), [second.id]);
        assert_eq!(store.matches_of_version(a.id, 10).unwrap().len(), 3);
        assert_eq!(store.recent_matches(Some("azul"), 10).unwrap().len(), 1);
        assert_eq!(store.recent_matches(Some("paint"), 10).unwrap().len(), 0);
        assert_eq!(store.recent_matches(None, 10).unwrap().len(), 1, "{name}: every game");

        // A worker gone (the server killed): its matches go back to the queue, once.
        assert_eq!(store.requeue_running().unwrap(), 1, "{name}: the scrimmage claimed by w1");
        store.fail_match(ids[1], "a bot file is missing").unwrap();
        assert_eq!(store.match_by_id(ids[1]).unwrap().unwrap().error.as_deref(), Some("a bot file is missing"));
        assert!(!store.requeue_failed(second.id).unwrap(), "{name}: a done match stays done");
        assert!(store.requeue_failed(ids[1]).unwrap());
        let requeued = store.match_by_id(ids[1]).unwrap().unwrap();
        assert_eq!((requeued.state, requeued.error), (MatchState::Queued, None));
        store.fail_match(ids[1], "again").unwrap();
        let counts = store.queue_counts().unwrap();
        assert_eq!((counts.queued, counts.running, counts.done), (1, 0, 1), "{name}");
        assert!(!store.finish_match(second.id, &finished).unwrap());
    }
}

#[test]
fn results_and_tables_are_read_a_page_at_a_time_after_an_id() {
    for (name, store) in backends() {
        let (_, _, versions) = alices_bot(&*store, "abc");
        let (a, b, c) = (versions[0].id, versions[1].id, versions[2].id);
        let ids = store
            .enqueue(
                &[ranked(1, vec![a, b]), ranked(2, vec![b, c, a]), ranked(3, vec![c, a]), ranked(4, vec![b, a])],
                100,
            )
            .unwrap();
        // Two done, one failed, one still queued; a scrimmage is not ranked.
        let mut claimed = Vec::new();
        while let Some(one) = store.claim("n1/w1", i64::MAX).unwrap() {
            claimed.push(one.id);
        }
        assert_eq!(claimed, ids, "{name}");
        let two = Finished { outcomes: vec![outcome(1), outcome(2)], ..first_seat_won() };
        let three = Finished { outcomes: vec![outcome(1), outcome(2), outcome(3)], ..first_seat_won() };
        assert!(store.finish_match(ids[0], &two).unwrap());
        assert!(store.finish_match(ids[1], &three).unwrap());
        store.fail_match(ids[2], "could not run").unwrap();

        // Tables: every ranked match ever queued, whatever its state, seats in seat order.
        let tables = store.ranked_tables_page("azul", 0, 1000).unwrap();
        assert_eq!(
            tables,
            [(ids[0], vec![a, b]), (ids[1], vec![b, c, a]), (ids[2], vec![c, a]), (ids[3], vec![b, a])],
            "{name}"
        );
        assert_eq!(store.ranked_tables_page("azul", ids[0], 2).unwrap(), tables[1..3], "{name}: after an id, a limit");
        assert!(store.ranked_tables_page("azul", ids[3], 1000).unwrap().is_empty(), "{name}");
        assert!(store.ranked_tables_page("paint", 0, 1000).unwrap().is_empty(), "{name}");

        // Results: the done ones only, in pages, and all of them through the fold.
        let page = store.ranked_results_page("azul", 0, 1).unwrap();
        assert_eq!(page.iter().map(|one| one.id).collect::<Vec<_>>(), [ids[0]], "{name}");
        let page = store.ranked_results_page("azul", ids[0], 1).unwrap();
        assert_eq!(page.iter().map(|one| one.id).collect::<Vec<_>>(), [ids[1]], "{name}");
        assert_eq!(page[0].seats.len(), 3, "{name}: the seats come with the page");
        let mut folded = Vec::new();
        assert_eq!(store.for_each_ranked_result("azul", &mut |one| folded.push(one.id)).unwrap(), 2, "{name}");
        assert_eq!(folded, [ids[0], ids[1]], "{name}");
    }
}

/// A match the first seat won, played elsewhere (no replay).
fn first_seat_won() -> Finished {
    let digest = format!("sha256:{}", "e".repeat(64));
    Finished { winner: Some(0), turns: 10, outcomes: vec![outcome(1), outcome(2)], digest, replay_sha256: None }
}

/// A competition match of the versions `seats` on `seed`.
fn competing(seed: u64, seats: Vec<i64>) -> NewMatch {
    NewMatch { game: "azul".into(), seed, kind: MatchKind::Competition, seats, requested_by: None }
}

#[test]
fn a_competition_starts_once_moves_on_only_from_its_bracket_and_its_matches_stay_off_the_ladder() {
    for (name, store) in backends() {
        let (_, _, versions) = alices_bot(&*store, "abc");
        let (a, b, c) = (versions[0].id, versions[1].id, versions[2].id);
        let new = NewCompetition {
            game: "azul".into(),
            name: "<season 1>".into(),
            format: CompetitionFormat::SingleElimination,
            deadline: 1000,
            seeds: 2,
            rounds: None,
            pool: Vec::new(),
        };
        let id = store.create_competition(&new, 900).unwrap();
        let gauntlet = NewCompetition {
            name: "two".into(),
            format: CompetitionFormat::Gauntlet,
            rounds: Some(3),
            pool: vec!["abc".into(), "<\"d\">".into()],
            ..new.clone()
        };
        let other = store.create_competition(&gauntlet, 901).unwrap();
        let two = store.competition(other).unwrap().unwrap();
        assert_eq!((two.format, two.rounds, two.pool.clone()), (gauntlet.format, Some(3), gauntlet.pool), "{name}");
        let created = store.competition(id).unwrap().unwrap();
        assert_eq!(
            (created.name.as_str(), created.format, created.deadline, created.seeds, created.created),
            ("<season 1>", CompetitionFormat::SingleElimination, 1000, 2, 900),
            "{name}"
        );
        assert_eq!(
            (created.state, created.release, created.released_rounds, created.bracket, created.entrants),
            (CompetitionState::Open, Release::Hidden, None, None, Vec::new())
        );
        assert_eq!((created.rounds, created.pool), (None, Vec::<String>::new()), "{name}");
        assert_eq!(store.competitions().unwrap().iter().map(|one| one.id).collect::<Vec<_>>(), [other, id], "{name}");
        assert!(store.competition(other + 100).unwrap().is_none());

        // Moving on an open competition changes nothing.
        assert!(!store.advance_competition(id, None, Some("x"), &[], false, 1000).unwrap(), "{name}");
        let first = [competing(7, vec![c, b]), competing(7, vec![b, c])];
        assert!(store.start_competition(id, &[c, b, a], Some("{\"r\":0}"), &first, 1000).unwrap(), "{name}");
        assert!(!store.start_competition(id, &[a], None, &first, 1001).unwrap(), "{name}: started once");
        let running = store.competition(id).unwrap().unwrap();
        assert_eq!((running.state, running.entrants.clone()), (CompetitionState::Running, vec![c, b, a]), "{name}");
        assert_eq!(running.bracket.as_deref(), Some("{\"r\":0}"));
        let matches = store.competition_matches(id).unwrap();
        assert_eq!(matches.len(), 2, "{name}");
        assert!(matches.iter().all(|one| one.kind == MatchKind::Competition && one.state == MatchState::Queued));
        assert!(store.competition_matches(other).unwrap().is_empty());

        // Claimed after scrimmages, before ranked matches; never in the ladder's results.
        let ranked_id = store.enqueue(&[ranked(1, vec![a, b])], 1000).unwrap()[0];
        let claimed = store.claim("n/w", i64::MAX).unwrap().unwrap();
        assert_eq!((claimed.id, claimed.kind), (matches[0].id, MatchKind::Competition), "{name}");
        assert!(store.finish_match(claimed.id, &first_seat_won()).unwrap());
        assert!(store.ranked_results("azul").unwrap().is_empty(), "{name}: a competition match is not rated");
        assert_eq!(store.competition_of_match(claimed.id).unwrap(), Some(id), "{name}");
        assert_eq!(store.competition_of_match(ranked_id).unwrap(), None, "{name}: a ranked match");
        assert_eq!(store.competition_of_match(ranked_id + 100).unwrap(), None, "{name}: no such match");
        assert_eq!(store.ranked_pending("azul").unwrap().iter().map(|one| one.id).collect::<Vec<_>>(), [ranked_id]);
        assert_eq!(store.competition_matches(id).unwrap()[0].state, MatchState::Done);

        // Moving on from a bracket that moved meanwhile changes nothing; from the one stored, it does.
        let next = [competing(8, vec![a, c])];
        assert!(!store.advance_competition(id, Some("stale"), Some("{}"), &next, false, 1002).unwrap(), "{name}");
        assert_eq!(store.competition_matches(id).unwrap().len(), 2);
        assert!(store.advance_competition(id, Some("{\"r\":0}"), Some("{\"r\":1}"), &next, false, 1002).unwrap());
        assert_eq!(store.competition_matches(id).unwrap().len(), 3, "{name}");
        assert!(store.advance_competition(id, Some("{\"r\":1}"), Some("{\"r\":2}"), &[], true, 1003).unwrap());
        let done = store.competition(id).unwrap().unwrap();
        assert_eq!((done.state, done.bracket.as_deref()), (CompetitionState::Done, Some("{\"r\":2}")), "{name}");
        assert!(!store.advance_competition(id, Some("{\"r\":2}"), None, &[], true, 1004).unwrap(), "{name}: done");

        assert!(store.set_competition_release(id, Release::Participants, Some(2)).unwrap());
        let released = store.competition(id).unwrap().unwrap();
        assert_eq!((released.release, released.released_rounds), (Release::Participants, Some(2)), "{name}");
        assert!(store.set_competition_release(id, Release::Public, None).unwrap());
        assert!(!store.set_competition_release(other + 100, Release::Public, None).unwrap(), "{name}: no such");
        let released = store.competition(id).unwrap().unwrap();
        assert_eq!((released.release, released.released_rounds), (Release::Public, None), "{name}");
        assert_eq!(store.competition(other).unwrap().unwrap().release, Release::Hidden, "{name}");
    }
}

#[test]
fn a_bot_page_reads_the_bot_its_versions_latest_matches_with_their_faults_names_and_opponents() {
    for (name, store) in backends() {
        let alice = store.create_user("alice", "", false).unwrap();
        let bob = store.create_user("bob", "", false).unwrap();
        let mine = store.bot_for_upload(alice.id, "azul", "mine").unwrap();
        let theirs = store.bot_for_upload(bob.id, "azul", "theirs").unwrap();
        let elsewhere = store.bot_for_upload(bob.id, "paint", "elsewhere").unwrap();
        let (old, _) = store.add_version(mine.id, &"a".repeat(64), None, 1, 0).unwrap();
        let (new, _) = store.add_version(mine.id, &"b".repeat(64), None, 1, 0).unwrap();
        let (other, _) = store.add_version(theirs.id, &"c".repeat(64), None, 1, 0).unwrap();
        store.add_version(elsewhere.id, &"d".repeat(64), None, 1, 0).unwrap();
        let pairing = |seats| ranked(1, seats);
        // Old's matches first, then new's; one between the other bot and itself.
        let ids = store
            .enqueue(
                &[
                    pairing(vec![old.id, other.id]),
                    pairing(vec![other.id, old.id]),
                    pairing(vec![other.id, other.id]),
                    pairing(vec![new.id, other.id]),
                    pairing(vec![other.id, new.id]),
                ],
                0,
            )
            .unwrap();
        let mut faulty = outcome(2);
        faulty.faults = vec![
            SeatFault { turn: 0, kind: "trap".into(), detail: "init: unreachable".into() },
            SeatFault { turn: 4, kind: "invalid action".into(), detail: "<b>malformed</b>".into() },
        ];
        let finished = Finished {
            winner: Some(1),
            turns: 9,
            outcomes: vec![outcome(1), faulty.clone()],
            digest: "d".into(),
            replay_sha256: None,
        };
        assert!(store.finish_match(ids[4], &finished).unwrap());

        let page = store.bot_page(mine.id, 3, 10).unwrap().expect("the bot");
        assert_eq!(page.bot, mine, "{name}");
        assert_eq!(page.versions.iter().map(|version| version.id).collect::<Vec<_>>(), [old.id, new.id]);
        assert_eq!(
            page.matches.iter().map(|one| one.id).collect::<Vec<_>>(),
            [ids[4], ids[3], ids[1]],
            "{name}: its latest 3, newest first, of any state and either version"
        );
        assert_eq!(page.matches[0].seats[1].outcome, Some(faulty), "{name}: the faults as recorded");
        assert_eq!(page.matches[1].state, MatchState::Queued);
        let names: Vec<(i64, &str)> = page.names.iter().map(|(version, name)| (*version, name.as_str())).collect();
        let mut expected = vec![(old.id, "mine"), (new.id, "mine"), (other.id, "theirs")];
        expected.sort();
        assert_eq!(names, expected, "{name}: every seated version's bot");
        assert_eq!(page.opponents, [theirs], "{name}: the other bots of its game");
        assert!(page.ratings.is_empty());
        assert_eq!(store.bot_page(mine.id + 100, 3, 10).unwrap(), None, "{name}: no such bot");
        assert_eq!(store.bot_names(&[other.id, other.id, old.id, 9999]).unwrap().len(), 2, "{name}");
        assert_eq!(
            store.matches_of_version(new.id, 10).unwrap().iter().map(|one| one.id).collect::<Vec<_>>(),
            [ids[4], ids[3]],
            "{name}"
        );
        assert_eq!(store.matches_of_version(other.id, 10).unwrap().len(), 5, "{name}: the one against itself once");
    }
}

#[test]
fn rating_snapshots_are_kept_when_they_move_and_read_latest_last() {
    for (name, store) in backends() {
        let (_, bot, versions) = alices_bot(&*store, "ab");
        let (one, two) = (&versions[0], &versions[1]);
        let point = |version_id, results, rating: f64, matches| RatingPoint {
            version_id,
            results,
            rating,
            interval: [rating - 30.0, rating + 30.5],
            matches,
        };
        let fit = [point(one.id, 10, 1500.0, 4), point(two.id, 10, 1400.0, 6)];
        assert_eq!(store.record_ratings(&fit).unwrap(), 2, "{name}: the first points");
        assert_eq!(store.record_ratings(&fit).unwrap(), 0, "{name}: the same fit again");
        let next = [point(one.id, 12, 1500.5, 6), point(two.id, 12, 1410.0, 8), point(one.id, 11, f64::INFINITY, 5)];
        assert_eq!(store.record_ratings(&next).unwrap(), 1, "{name}: only the version that moved a point");
        assert_eq!(store.record_ratings(&[point(one.id, 40, 1500.7, 24)]).unwrap(), 1, "{name}: 20 more matches");
        assert_eq!(store.record_ratings(&[]).unwrap(), 0);
        let page = store.bot_page(bot.id, 10, 10).unwrap().unwrap();
        assert_eq!(
            page.ratings,
            [
                point(one.id, 10, 1500.0, 4),
                point(one.id, 40, 1500.7, 24),
                point(two.id, 10, 1400.0, 6),
                point(two.id, 12, 1410.0, 8)
            ],
            "{name}: each version's, oldest first, numbers as stored"
        );
        let latest = store.bot_page(bot.id, 10, 1).unwrap().unwrap().ratings;
        assert_eq!(
            latest,
            [point(one.id, 40, 1500.7, 24), point(two.id, 12, 1410.0, 8)],
            "{name}: the latest one each"
        );
    }
}

#[test]
fn reads_on_many_threads_beside_writes_see_every_write_committed_before_them() {
    for (name, store) in backends() {
        let (_, bot, versions) = alices_bot(&*store, "a");
        let a = &versions[0];
        // Each thread enqueues a match and reads it back at once, and the counts never go down.
        std::thread::scope(|scope| {
            for thread in 0..8u64 {
                let store = &store;
                scope.spawn(move || {
                    let mut seen = 0;
                    for round in 0..20 {
                        let id = store.enqueue(&[ranked(thread * 100 + round, vec![a.id, a.id])], 0).unwrap()[0];
                        let read = store.match_by_id(id).unwrap().expect("a match just enqueued");
                        assert_eq!(read.seed, thread * 100 + round, "{name}");
                        let queued = store.queue_counts().unwrap().queued;
                        assert!(queued > seen, "{name}: {queued} after {seen}");
                        seen = queued;
                        let listed = store.bot_page(bot.id, 5, 5).unwrap().expect("the bot").matches.len();
                        assert!((seen.min(5) as usize..=5).contains(&listed), "{name}: {listed} of {seen}");
                    }
                });
            }
        });
        assert_eq!(store.queue_counts().unwrap().queued, 160, "{name}");
    }
}

#[test]
fn a_sqlite_files_reads_are_answered_while_its_writer_waits() {
    let path = scratch("readers");
    let store = SqliteStore::open(&path).unwrap();
    store.create_user("alice", "", false).unwrap();
    // Another process's write transaction holds the file's write lock.
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    std::thread::scope(|scope| {
        // The store's writer waits for that lock (up to its busy timeout, 10 s), holding the
        // store's own lock.
        let writing = scope.spawn(|| store.create_user("bob", "", false));
        std::thread::sleep(std::time::Duration::from_millis(300));
        // A read meanwhile is answered (by a reader), and only then does the other transaction
        // end: a read that waited for the writer would be answered after the writer gave up.
        assert!(store.user_by_name("alice").unwrap().is_some());
        other.execute_batch("COMMIT").unwrap();
        let written = writing.join().unwrap();
        assert!(written.is_ok(), "the write went through once the lock was free: {written:?}");
    });
    assert!(store.user_by_name("bob").unwrap().is_some());
}

#[test]
fn a_claim_holds_while_its_node_renews_its_lease_and_a_result_finds_its_match_by_spec() {
    for (name, store) in backends() {
        let (_, _, versions) = alices_bot(&*store, "ab");
        let seats = vec![versions[0].id, versions[1].id];
        let ids = store.enqueue(&[ranked(1, seats.clone()), ranked(2, seats.clone()), ranked(3, seats)], 0).unwrap();
        let live = store.claim("live/w0", 100).unwrap().unwrap();
        let gone = store.claim("gone/w0", 100).unwrap().unwrap();
        let gone_too = store.claim("gone-too/nats", 100).unwrap().unwrap();
        assert_eq!(store.shared(), name == "postgres", "{name}");
        // At 150 only the live node has renewed (to 200): the others' claims lapse.
        assert_eq!(store.renew_leases("live", 200).unwrap(), 1, "{name}: its one claim, not gone's");
        assert_eq!(store.requeue_lapsed(99).unwrap(), 0, "{name}: nothing ended yet");
        assert_eq!(store.requeue_lapsed(150).unwrap(), 2, "{name}");
        let states: Vec<MatchState> =
            [live.id, gone.id, gone_too.id].iter().map(|id| store.match_by_id(*id).unwrap().unwrap().state).collect();
        assert_eq!(states, [MatchState::Running, MatchState::Queued, MatchState::Queued], "{name}");

        // A match sent with a spec id is found by it while not done, queued again or running.
        store.set_spec_id(gone_too.id, "spec-a").unwrap();
        store.set_spec_id(live.id, "spec-b").unwrap();
        let found: Vec<i64> = store.unfinished_with_spec("spec-a").unwrap().iter().map(|one| one.id).collect();
        assert_eq!(found, [gone_too.id], "{name}: queued again, still found");
        let finished = Finished {
            winner: Some(1),
            turns: 4,
            outcomes: vec![outcome(2), outcome(1)],
            digest: format!("blake3:{}", "f".repeat(64)),
            replay_sha256: None,
        };
        assert!(store.finish_match(gone_too.id, &finished).unwrap());
        assert!(store.unfinished_with_spec("spec-a").unwrap().is_empty(), "{name}: done, no longer waiting");
        assert_eq!(store.unfinished_with_spec("spec-b").unwrap().len(), 1);
        assert!(store.unfinished_with_spec("spec-c").unwrap().is_empty());
        assert_eq!(ids.len(), 3);
    }
}

#[test]
fn workers_are_registered_once_tallied_and_their_audits_move_on() {
    for (name, store) in backends() {
        store.add_worker("w1", "key-1", false).unwrap();
        store.add_worker("w2", "key-2", true).unwrap();
        assert!(matches!(store.add_worker("w1", "other", false), Err(StoreError::Taken { .. })), "{name}");
        let w1 = store.tally_worker("w1", [3, 2, 1], Some(true)).unwrap().unwrap();
        assert_eq!((w1.results, w1.audits, w1.mismatches, w1.suspect, w1.key.as_str()), (3, 2, 1, true, "key-1"));
        let w1 = store.tally_worker("w1", [1, 0, 0], None).unwrap().unwrap();
        assert_eq!((w1.results, w1.suspect), (4, true), "{name}: the mark stays unless set");
        assert_eq!(store.tally_worker("nobody", [1, 0, 0], None).unwrap(), None);
        let names: Vec<(String, bool)> =
            store.workers().unwrap().into_iter().map(|worker| (worker.name, worker.trusted)).collect();
        assert_eq!(names, [("w1".to_owned(), false), ("w2".to_owned(), true)], "{name}");

        let (_, _, versions) = alices_bot(&*store, "ab");
        let ids = store.enqueue(&[ranked(1, vec![versions[0].id, versions[1].id])], 0).unwrap();
        store.claim("node/nats", i64::MAX).unwrap().unwrap();
        let finished = Finished {
            winner: Some(0),
            turns: 4,
            outcomes: vec![outcome(1), outcome(2)],
            digest: format!("blake3:{}", "a".repeat(64)),
            replay_sha256: None,
        };
        assert!(store.finish_match(ids[0], &finished).unwrap());
        let audit = store.open_audit(ids[0], "spec-x", "w1", "{\"id\":\"spec-x\"}").unwrap();
        let open = store.open_audit_for_spec("spec-x").unwrap().unwrap();
        assert_eq!((open.id, open.state, open.worker.as_str(), open.auditor), (audit, AuditState::Pending, "w1", None));
        store.update_audit(audit, AuditState::Disputed, Some("w2"), Some("{}")).unwrap();
        store.set_disputed(ids[0]).unwrap();
        assert!(store.ranked_results("azul").unwrap().is_empty(), "{name}: a disputed match is out of the ratings");
        assert_eq!(store.match_by_id(ids[0]).unwrap().unwrap().state, MatchState::Disputed);
        let disputed = store.open_audit_for_spec("spec-x").unwrap().unwrap();
        assert_eq!((disputed.state, disputed.auditor.as_deref()), (AuditState::Disputed, Some("w2")));
        // A third run decides: the match is recorded again, the audit closed.
        assert!(store.finish_match(ids[0], &finished).unwrap(), "{name}: a disputed match takes its decided result");
        store.update_audit(audit, AuditState::Decided, None, None).unwrap();
        assert_eq!(store.open_audit_for_spec("spec-x").unwrap(), None);
        assert_eq!(store.ranked_results("azul").unwrap().len(), 1);
        let listed = store.audits(10).unwrap();
        assert_eq!(
            (listed.len(), listed[0].state, listed[0].audit_result.as_deref()),
            (1, AuditState::Decided, Some("{}"))
        );
        // An agreeing audit after it is in the latest audits but not among those that disagreed.
        let agreed = store.open_audit(ids[0], "spec-y", "w2", "{}").unwrap();
        store.update_audit(agreed, AuditState::Agreed, Some("w1"), Some("{}")).unwrap();
        assert_eq!(store.audits(1).unwrap()[0].id, agreed, "{name}");
        let disagreed: Vec<i64> = store.disagreed_audits(10).unwrap().iter().map(|audit| audit.id).collect();
        assert_eq!(disagreed, [audit], "{name}");
    }
}

/// Claims every queued match from `workers` (one thread each, at once); the ids claimed.
fn claim_everything(workers: &[&dyn Store]) -> Vec<i64> {
    std::thread::scope(|scope| {
        let threads: Vec<_> = workers
            .iter()
            .enumerate()
            .map(|(worker, store)| {
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    while let Some(one) = store.claim(&format!("node/w{worker}"), i64::MAX).unwrap() {
                        mine.push(one.id);
                    }
                    mine
                })
            })
            .collect();
        threads.into_iter().flat_map(|thread| thread.join().unwrap()).collect()
    })
}

#[test]
fn concurrent_claims_never_hand_out_one_match_twice() {
    for (name, store) in backends() {
        let (_, _, versions) = alices_bot(&*store, "a");
        let new: Vec<NewMatch> = (0..200).map(|seed| ranked(seed, vec![versions[0].id, versions[0].id])).collect();
        store.enqueue(&new, 0).unwrap();
        let claimed = claim_everything(&[&*store, &*store, &*store, &*store]);
        let distinct: std::collections::BTreeSet<i64> = claimed.iter().copied().collect();
        assert_eq!((claimed.len(), distinct.len()), (200, 200), "{name}");
    }
}

#[test]
fn the_audit_log_keeps_every_action_in_order() {
    for (_, store) in backends() {
        store.audit("admin", "add-user", "alice").unwrap();
        store.audit("root", "disable", "bot 3").unwrap();
        assert_eq!(
            store.audit_log().unwrap(),
            [("admin".into(), "add-user".into(), "alice".into()), ("root".into(), "disable".into(), "bot 3".into())]
        );
    }
}

/// Rows of the first schema, in SQL both dialects read alike: a bot of account 1, a version of
/// it, a queued match with that version in a seat.
const FIRST_SCHEMA_ROWS: &str = r#"
    INSERT INTO bots (owner, game, name) VALUES (1, 'azul', 'old');
    INSERT INTO versions (bot_id, sha256, size, status) VALUES (1, 'aa', 3, 'accepted');
    INSERT INTO matches (game, seed, kind, state) VALUES ('azul', 7, 'ranked', 'queued');
    INSERT INTO match_seats (match_id, seat, version_id) VALUES (1, 0, 1);
    INSERT INTO matches (game, seed, kind, state, winner, turns) VALUES ('azul', 8, 'ranked', 'done', 0, 12);
    INSERT INTO match_seats (match_id, seat, version_id, outcome) VALUES (2, 0, 1, '{"bot": "old", "sha256": "aa",
        "score": 3, "rank": 1, "forfeit": false, "forfeit_reason": null, "fuel_total": 10, "fuel_max_turn": 5,
        "skipped_turns": 0, "traps": 1, "invalid_actions": 0, "turns": 12}');
"#;

/// A store migrated from the first schema holds the rows made there (account 1 made by the store,
/// the others by [`FIRST_SCHEMA_ROWS`]).
fn assert_first_schema_rows_survive(latest: &dyn Store) {
    assert_eq!(latest.schema_version().unwrap(), migrations::latest());
    assert!(latest.user_by_name("alice").unwrap().is_some_and(|user| user.admin), "rows survive the migrations");
    assert_eq!(latest.version(1).unwrap().map(|version| version.status), Some(VersionStatus::Accepted));
    assert!(
        latest.version(1).unwrap().is_some_and(|version| version.data_digest.is_none()),
        "an old version has no data"
    );
    assert_eq!(latest.uploads_since(1, 0).unwrap(), 1, "an old version counts as uploaded at time 0");
    let queued = latest.match_by_id(1).unwrap().unwrap();
    assert_eq!((queued.seed, queued.state, queued.seats.len()), (7, MatchState::Queued, 1));
    let done = latest.match_by_id(2).unwrap().unwrap();
    let outcome = done.seats[0].outcome.as_ref().expect("an outcome stored before faults were kept");
    assert_eq!((outcome.player.traps, outcome.turns, outcome.faults.len()), (1, 12, 0));
    assert!(latest.bot(1).unwrap().is_some_and(|bot| !bot.private), "a bot made before privacy is public");
}

fn assert_newer_schema_refused<S>(opened: Result<S, StoreError>) {
    match opened {
        Err(StoreError::NewerSchema { found, known }) => {
            assert_eq!((found, known), (migrations::latest() + 1, migrations::latest()))
        }
        Err(other) => panic!("expected a refusal of the newer schema, got {other}"),
        Ok(_) => panic!("a database newer than this program was opened"),
    }
}

#[test]
fn migrations_run_from_the_first_schema_forward_and_a_newer_database_is_refused() {
    let path = scratch("migrations");
    {
        let first = SqliteStore::open_at_version(&path, 1).unwrap();
        assert_eq!(first.schema_version().unwrap(), 1);
        first.create_user("alice", "hash", true).unwrap();
        rusqlite::Connection::open(&path).unwrap().execute_batch(FIRST_SCHEMA_ROWS).unwrap();
    }
    let latest = SqliteStore::open(&path).unwrap();
    assert_first_schema_rows_survive(&latest);
    drop(latest);

    let connection = rusqlite::Connection::open(&path).unwrap();
    connection.pragma_update(None, "user_version", migrations::latest() + 1).unwrap();
    drop(connection);
    assert_newer_schema_refused(SqliteStore::open(&path));
}

#[test]
fn postgres_migrations_run_from_the_first_schema_forward_and_a_newer_database_is_refused() {
    let url = common::postgres::database();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let first = PostgresStore::connect_at_version(&url, 1).unwrap();
    assert_eq!(first.schema_version().unwrap(), 1);
    first.create_user("alice", "hash", true).unwrap();
    client.batch_execute(FIRST_SCHEMA_ROWS).unwrap();
    assert_eq!(first.schema_version().unwrap(), 1, "still at the first schema");

    let latest = PostgresStore::connect(&url).unwrap();
    assert_first_schema_rows_survive(&latest);
    assert_eq!(PostgresStore::connect(&url).unwrap().schema_version().unwrap(), migrations::latest(), "no-op");

    client.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&(migrations::latest() + 1)]).unwrap();
    assert_newer_schema_refused(PostgresStore::connect(&url));
}

#[test]
fn postgres_nodes_starting_together_migrate_once_and_never_claim_one_match_twice() {
    let url = common::postgres::database();
    // Four API nodes on one database, started at once: one migrates, the others wait for it.
    let nodes: Vec<PostgresStore> = std::thread::scope(|scope| {
        let starting: Vec<_> = (0..4).map(|_| scope.spawn(|| PostgresStore::connect(&url))).collect();
        starting.into_iter().map(|node| node.join().unwrap().unwrap()).collect()
    });
    assert_eq!(nodes[3].schema_version().unwrap(), migrations::latest());

    let alice = nodes[0].create_user("alice", "", false).unwrap();
    let bot = nodes[1].bot_for_upload(alice.id, "azul", "a").unwrap();
    let (a, _) = nodes[2].add_version(bot.id, &"a".repeat(64), None, 1, 0).unwrap();
    let new: Vec<NewMatch> = (0..200).map(|seed| ranked(seed, vec![a.id, a.id])).collect();
    nodes[3].enqueue(&new, 0).unwrap();
    // Each node its own connection: the database, not a mutex, keeps claims apart.
    let claimed = claim_everything(&nodes.iter().map(|node| node as &dyn Store).collect::<Vec<_>>());
    let distinct: std::collections::BTreeSet<i64> = claimed.iter().copied().collect();
    assert_eq!((claimed.len(), distinct.len()), (200, 200));
    assert_eq!(nodes[0].queue_counts().unwrap().running, 200);

    // Two nodes recording one result (a match re-played elsewhere): recorded once.
    let finished = Finished {
        winner: None,
        turns: 3,
        outcomes: vec![outcome(1), outcome(1)],
        digest: format!("sha256:{}", "d".repeat(64)),
        replay_sha256: Some("d".repeat(64)),
    };
    let recorded: Vec<bool> = std::thread::scope(|scope| {
        let finishing: Vec<_> =
            nodes.iter().map(|node| scope.spawn(|| node.finish_match(claimed[0], &finished).unwrap())).collect();
        finishing.into_iter().map(|node| node.join().unwrap()).collect()
    });
    assert_eq!(recorded.iter().filter(|&&recorded| recorded).count(), 1, "{recorded:?}");
}

#[test]
fn a_postgres_store_connects_again_after_its_connection_is_lost() {
    let url = common::postgres::database();
    let store = PostgresStore::connect(&url).unwrap();
    store.create_user("alice", "", false).unwrap();
    // The server ends the store's connection (as when it restarts).
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let others = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()";
    admin.execute(&format!("SELECT pg_terminate_backend(pid) FROM ({others}) AS others"), &[]).unwrap();
    while !admin.query(others, &[]).unwrap().is_empty() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // The call that finds the connection gone may fail; the next one connects again.
    let _ = store.user_by_name("alice");
    assert!(store.user_by_name("alice").unwrap().is_some());
}

#[test]
fn stores_serve_tokio_blocking_threads_and_may_be_dropped_on_an_async_task() {
    // The web side calls the store from `spawn_blocking`; PostgreSQL's sync client runs a
    // runtime of its own, which must work there.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for (name, store) in backends() {
        let user = {
            let store = Arc::clone(&store);
            runtime.block_on(
                async move { tokio::task::spawn_blocking(move || store.create_user("alice", "", false)).await },
            )
        };
        let user = user.unwrap().unwrap();
        let found = {
            let store = Arc::clone(&store);
            runtime.block_on(async move { tokio::task::spawn_blocking(move || store.user_by_name("alice")).await })
        };
        let found = found.unwrap().unwrap();
        assert_eq!(found, Some(user), "{name}");
        // The last handle dropped on an async task, as when a server shuts down.
        runtime.block_on(async move { drop(store) });
    }
}
