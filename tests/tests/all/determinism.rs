//! End-to-end tests of determinism and capabilities (docs/design.md#capabilities, "Capabilities"):
//! seeded randomness, virtual clocks, and no filesystem, network or environment.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_host::Budget;
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;

use arena_azul::Azul;
use arena_tests::{play_azul, turns_of};

/// `fx-entropy`'s `entropy ...` line of each of its turns in seat `seat`.
fn entropy_lines(record: &MatchRecord<Azul>, seat: usize) -> Vec<String> {
    turns_of(record, seat)
        .into_iter()
        .map(|seat_turn| {
            let lines: Vec<&str> = seat_turn
                .log
                .entries
                .iter()
                .filter(|entry| entry.source == LogSource::Info && entry.text.starts_with("entropy "))
                .map(|entry| entry.text.as_str())
                .collect();
            assert_eq!(lines.len(), 1, "{:?}", seat_turn.log);
            lines[0].to_owned()
        })
        .collect()
}

/// The `key=value` field of an entropy line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ').find_map(|part| part.strip_prefix(key).and_then(|rest| rest.strip_prefix('='))).unwrap()
}

/// Asserts seat `seat` played the whole match with no fault.
fn assert_no_faults(record: &MatchRecord<Azul>, seat: usize) {
    assert_eq!(record.setup[seat].faults, []);
    for seat_turn in turns_of(record, seat) {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.answer.is_some());
        assert_eq!(seat_turn.applied, seat_turn.answer, "a legal answer");
    }
    let player = &record.result.players[seat];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
}

/// "Randomness is seeded per (match seed, the bot's sha256) ... so a bot that uses `HashMap`
/// or `rand` is still deterministic" and "Clocks ... are virtual and deterministic": a bot
/// choosing its moves from `HashMap` order, OS randomness and both clocks plays the same match
/// twice to byte-identical replays; its clocks do advance.
#[test]
fn entropy_bot_replays_byte_for_byte() {
    let first = play_azul(["fx-entropy", "azul-greedy"], 7, Budget::default());
    let second = play_azul(["fx-entropy", "azul-greedy"], 7, Budget::default());
    assert_no_faults(&first, 0);
    assert_eq!(serde_json::to_string(&first).unwrap(), serde_json::to_string(&second).unwrap());

    let lines = entropy_lines(&first, 0);
    assert!(lines.len() > 10);
    let instants: Vec<u64> = lines.iter().map(|line| field(line, "instant").parse().unwrap()).collect();
    let systems: Vec<u64> = lines.iter().map(|line| field(line, "system").parse().unwrap()).collect();
    assert!(instants.windows(2).all(|w| w[0] < w[1]), "the monotonic clock advances: {instants:?}");
    assert!(systems.windows(2).all(|w| w[0] < w[1]), "the wall clock advances: {systems:?}");
    let rands: Vec<&str> = lines.iter().map(|line| field(line, "rand")).collect();
    assert!(rands.windows(2).all(|w| w[0] != w[1]), "rand does draw fresh values: {rands:?}");
}

/// "... swapping seats changes nothing but the seat": the entropy bot's randomness, `HashMap`
/// order and clock readings are the same turn for turn whether it sits in seat 0 or seat 1
/// (nothing it logs depends on the board), while another match seed gives other random values.
#[test]
fn entropy_bot_is_the_same_in_either_seat_and_differs_with_the_match_seed() {
    let seat0 = entropy_lines(&play_azul(["fx-entropy", "azul-greedy"], 7, Budget::default()), 0);
    let seat1 = entropy_lines(&play_azul(["azul-greedy", "fx-entropy"], 7, Budget::default()), 1);
    let common = seat0.len().min(seat1.len());
    assert!(common > 10);
    assert_eq!(seat0[..common], seat1[..common]);

    let other_seed = entropy_lines(&play_azul(["fx-entropy", "azul-greedy"], 8, Budget::default()), 0);
    for key in ["rand", "random", "hash"] {
        let a: Vec<&str> = seat0.iter().map(|line| field(line, key)).collect();
        let b: Vec<&str> = other_seed.iter().map(|line| field(line, key)).collect();
        assert_ne!(a[..10], b[..10], "{key} follows the match seed");
    }
    assert_eq!(field(&seat0[0], "instant"), field(&other_seed[0], "instant"), "the clocks do not depend on seeds");
}

/// "Capabilities: none by default. No filesystem, no network, no environment": every attempt
/// the snooping bot makes fails inside the bot (it logs `denied`), it plays on legally, and it
/// is charged no fault.
#[test]
fn snoop_finds_no_filesystem_environment_or_network_and_is_no_fault() {
    let record = play_azul(["fx-snoop", "azul-greedy"], 1, Budget::default());
    assert_no_faults(&record, 0);
    let attempts = ["read /etc/passwd", "read .", "read_dir .", "write", "env HOME", "env vars", "tcp"];
    for seat_turn in turns_of(&record, 0) {
        let lines: Vec<&str> = seat_turn.log.entries.iter().map(|entry| entry.text.as_str()).collect();
        assert_eq!(lines.len(), attempts.len(), "{lines:?}");
        for (line, attempt) in lines.iter().zip(attempts) {
            assert!(line.starts_with(&format!("snoop {attempt}: denied")), "{line}");
        }
        assert!(seat_turn.log.entries.iter().all(|entry| entry.source == LogSource::Info), "no `GOT` warning");
    }
    assert!(std::fs::metadata("fx-snoop.txt").is_err(), "nothing was written on the host");
}

/// A match's record digest (what a tournament merge and the ladder compare between machines) is
/// the same whichever folder the bot files were loaded from, and changes with what was played:
/// a NATS worker's bots folder and a ladder's blob store hold the same files at other paths.
#[test]
fn the_record_digest_leaves_out_where_the_bot_files_are() {
    let first = play_azul(["azul-greedy", "azul-random"], 3, Budget::default());
    let mut moved = first.clone();
    for bot in &mut moved.bots {
        bot.path = std::path::Path::new("/elsewhere").join(bot.path.file_name().unwrap());
    }
    assert_ne!(serde_json::to_string(&first).unwrap(), serde_json::to_string(&moved).unwrap());
    assert_eq!(first.digest().unwrap(), moved.digest().unwrap());
    let mut renamed = first.clone();
    renamed.bots[0].sha256 = "0".repeat(64);
    assert_ne!(first.digest().unwrap(), renamed.digest().unwrap(), "which bot played is in");
    let mut other = first.clone();
    other.result.turns += 1;
    assert_ne!(first.digest().unwrap(), other.digest().unwrap(), "what happened is in");
}
