//! End-to-end tests of Paint's original line protocol (paint.md "Original protocol"): WASI commands
//! speaking line-delimited JSON on stdin/stdout, seated through the registry exactly as `arena
//! match` seats them, against WIT bots, under the budget contract of
//! docs/design.md#the-budget-contract (per-turn fuel, suspension, stale late answers, the
//! `turns_left` nonce).
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_game::Game;
use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::fault::{AnswerError, BotFault};
use arena_host::log::LogSource;
use arena_host::protocol::paint::{player_id, state_line};
use arena_host::record::MatchRecord;
use arena_host::registry::{GameEntry, find_game};
use arena_host::replay::Verdict;
use arena_paint::{Paint, PreviousActions};
use arena_tests::{arena, bot_path, play_registered, protocol_error, scratch, turns_of};

fn paint() -> &'static dyn GameEntry {
    find_game("paint").expect("paint is registered")
}

fn play(names: [&str; 2], seed: u64, budget: Budget) -> (String, MatchRecord<Paint>) {
    play_registered("paint", &names, seed, budget)
}

/// For Paint: a plain std + serde_json program built for wasm32-wasip2 plays a
/// WIT bot a full 100-turn match, in either seat; every turn's fuel is recorded and within the
/// turn budget, it never faults, and the same seed gives the same replay byte for byte, which
/// verifies.
#[test]
fn a_stdio_bot_plays_a_wit_bot_a_full_match_deterministically() {
    for (names, seat) in [(["paint-stdio-random", "paint-greedy"], 0), (["paint-greedy", "paint-stdio-random"], 1)] {
        let (replay, record) = play(names, 5, Budget::default());
        let (again, _) = play(names, 5, Budget::default());
        assert_eq!(replay, again, "two runs give identical replays");

        assert_eq!(record.bots[seat].name, "paint-stdio-random");
        assert_eq!(record.result.turns, 100, "ten_by_ten plays 100 turns");
        assert_eq!(record.setup[seat].faults, [], "greeting and ready went fine");
        assert!(record.setup[seat].fuel > 0, "start-up is metered");
        let turns = turns_of(&record, seat);
        assert_eq!(turns.len(), 100);
        for seat_turn in &turns {
            assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
            assert!(seat_turn.answer.is_some(), "a valid action every turn");
            assert_eq!(seat_turn.applied, seat_turn.answer);
            assert!(seat_turn.fuel > 0 && seat_turn.fuel < Budget::default().turn_fuel, "{}", seat_turn.fuel);
        }
        let player = &record.result.players[seat];
        assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
        let total: u64 = record.setup[seat].fuel + turns.iter().map(|turn| turn.fuel).sum::<u64>();
        assert_eq!(player.fuel_total, total, "every unit of fuel is charged to exactly one turn");
        assert!(record.result.players.iter().all(|player| player.score > 0));

        let file = scratch(&format!("mixed-{seat}.json"));
        std::fs::write(&file, &replay).unwrap();
        assert_eq!(paint().verify(arena(), &file, &[]).unwrap(), Verdict::Identical);
    }
}

/// The stdio bot seeds its generator from its player id and first state: two copies of it in
/// one match draw different actions, and both play cleanly.
#[test]
fn the_stdio_bot_is_seeded_from_its_player_id() {
    let (_, first) = play(["paint-stdio-random", "paint-stdio-random"], 1, Budget::default());
    let actions = |seat: usize| -> Vec<_> { turns_of(&first, seat).iter().map(|turn| turn.answer).collect() };
    assert_ne!(actions(0), actions(1), "seats a and b draw different actions from the same first board");
    for player in &first.result.players {
        assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    }
}

/// docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend, never kill", and
/// paint.md's nonce: the slow fixture spends about 15M fuel on its first turn, so it is suspended
/// there (charged exactly its turn budget, plus the few units of the last block); on its second
/// turn it resumes and writes its answer to the first state (stale: an invalid action), reads the
/// second state and answers it in time; on its third it answers with the previous state's
/// `turns_left` (a wrong nonce: an invalid action); then it plays cleanly. Its memory survived the
/// suspension.
#[test]
fn a_slow_stdio_bot_is_suspended_and_late_or_mis_nonced_answers_are_refused() {
    let budget = Budget::default();
    let (replay, record) = play(["fx-paint-stdio-slow", "paint-greedy"], 3, budget);
    let turns = turns_of(&record, 0);

    assert_eq!(turns[0].faults, [BotFault::Suspended]);
    assert_eq!((turns[0].answer, turns[0].applied), (None, None), "no action that turn");
    assert!((budget.turn_fuel..budget.turn_fuel + 1_000).contains(&turns[0].fuel), "{}", turns[0].fuel);

    let [stale] = turns[1].faults.as_slice() else { panic!("{:?}", turns[1].faults) };
    assert!(matches!(protocol_error(stale), Some(AnswerError::Stale { line }) if line.contains("\"turns_left\":100")));
    assert!(turns[1].answer.is_some(), "it answered the current state too, in time");
    assert_eq!(turns[1].applied, turns[1].answer);
    assert!(turns[1].fuel < budget.turn_fuel);
    let logged: Vec<&str> =
        turns[1].log.entries.iter().filter(|e| e.source == LogSource::Stderr).map(|e| e.text.as_str()).collect();
    assert_eq!(logged, ["chain 67a8cadd632d6b76\n"], "the computation finished where it stopped");

    let [wrong] = turns[2].faults.as_slice() else { panic!("{:?}", turns[2].faults) };
    assert_eq!(protocol_error(wrong), Some(&AnswerError::WrongNonce { expected: 98, got: 99 }));
    assert_eq!((turns[2].answer, turns[2].applied), (None, None));

    for seat_turn in &turns[3..] {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.answer.is_some());
        assert_eq!(seat_turn.applied, seat_turn.answer);
    }
    let player = &record.result.players[0];
    assert_eq!((player.skipped_turns, player.invalid_actions, player.traps, player.forfeit), (1, 2, 0, false));

    let file = scratch("slow.json");
    std::fs::write(&file, &replay).unwrap();
    assert_eq!(paint().verify(arena(), &file, &[]).unwrap(), Verdict::Identical);
}

/// A `wasm32-wasip1` build of the same program (a core module with `_start`) is wrapped into a
/// component when loaded: it plays the same actions as the wasip2 build, keeps its file's sha256
/// as its identity, and its replay verifies (re-wrapped identically).
#[test]
fn a_wasip1_command_is_wrapped_and_plays_like_the_wasip2_build() {
    let (replay, record) = play(["paint-stdio-random-wasip1", "paint-greedy"], 5, Budget::default());
    let (_, wasip2) = play(["paint-stdio-random", "paint-greedy"], 5, Budget::default());
    let answers = |record: &MatchRecord<Paint>| -> Vec<_> { turns_of(record, 0).iter().map(|t| t.answer).collect() };
    assert_eq!(answers(&record), answers(&wasip2), "the same program answers the same");
    assert_eq!(record.result.turns, 100);
    assert_eq!(record.setup[0].faults, []);
    for seat_turn in turns_of(&record, 0) {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.fuel > 0 && seat_turn.fuel < Budget::default().turn_fuel);
    }
    let file = std::fs::read(bot_path("paint-stdio-random-wasip1")).unwrap();
    assert_eq!(&file[..8], b"\0asm\x01\0\0\0", "the file is a core module");
    assert_eq!(
        record.bots[0].sha256,
        arena_host::loader::sha256(&file).iter().map(|b| format!("{b:02x}")).collect::<String>()
    );

    let saved = scratch("wasip1.json");
    std::fs::write(&saved, &replay).unwrap();
    assert_eq!(paint().verify(arena(), &saved, &[]).unwrap(), Verdict::Identical);
}

/// Plays built bots through the registry, as `arena match --option KEY=VALUE` does.
fn play_with(names: [&str; 2], seed: u64, options: &[(&str, &str)]) -> (String, MatchRecord<Paint>) {
    let paths: Vec<_> = names.iter().map(|name| bot_path(name)).collect();
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let played = paint()
        .play(arena(), &BotFiles::all_code_only(&paths), &options, seed, Budget::default())
        .expect("the match is playable");
    let record = serde_json::from_str(&played.replay).expect("the replay parses");
    (played.replay, record)
}

/// paint.md "Original protocol" 2 and its option `previous_actions`: with `last`, the state
/// line seat `s` receives on turn N holds exactly turn N-1's actions as applied (`[]` on the
/// first turn), by player id, leaving out seats that did nothing; the match records the option,
/// and its replay verifies.
#[test]
fn with_previous_actions_last_each_line_holds_only_the_turn_before() {
    let (replay, record) = play_with(["paint-stdio-random", "paint-greedy"], 5, &[("previous_actions", "last")]);
    assert_eq!(record.config.previous_actions, PreviousActions::Last, "the option is recorded");
    assert_eq!(record.result.turns, 100);
    let mut game = Paint::new(&record.config, 2, record.seed).unwrap();
    let mut before: Option<serde_json::Value> = None;
    for turn in &record.turns {
        for seat in 0..2 {
            let line = state_line(&game.observe(seat));
            let state: serde_json::Value = serde_json::from_str(&line).unwrap();
            let expected = before.clone().map_or_else(|| serde_json::json!([]), |last| serde_json::json!([last]));
            assert_eq!(state["previous_actions"], expected, "turn {}, seat {seat}", turn.turn);
        }
        let applied: Vec<_> = turn.seats.iter().map(|seat_turn| (seat_turn.seat, seat_turn.applied)).collect();
        let by_id: serde_json::Map<String, serde_json::Value> = applied
            .iter()
            .filter_map(|(seat, action)| Some((player_id(*seat), serde_json::to_value((*action)?).unwrap())))
            .collect();
        before = Some(by_id.into());
        game.step(&applied).unwrap();
    }
    let file = scratch("previous-actions-last.json");
    std::fs::write(&file, &replay).unwrap();
    assert_eq!(paint().verify(arena(), &file, &[]).unwrap(), Verdict::Identical);
}

/// What the option is for, and why `last` is the default: the whole default match costs the
/// line-protocol examples less game fuel with `last` than with the original `all` (the totals
/// measured, both seats), and the Python example, which parses its whole line, forfeits out of
/// game fuel under the default budget with `all` but finishes with `last`.
#[test]
fn previous_actions_last_costs_the_line_protocol_examples_less_fuel() {
    let fuel = |record: &MatchRecord<Paint>| -> Vec<u64> {
        record.result.players.iter().map(|player| player.fuel_total).collect()
    };
    let (_, all) = play_with(["paint-stdio-random", "paint-stdio-random"], 1, &[("previous_actions", "all")]);
    let (_, last) = play_with(["paint-stdio-random", "paint-stdio-random"], 1, &[]);
    assert_eq!(last.config.previous_actions, PreviousActions::Last, "last is the default");
    for (all, last) in fuel(&all).into_iter().zip(fuel(&last)) {
        assert!(last < all, "last {last} < all {all}");
    }
    let (_, all) = play_with(["paint-stdio-py", "paint-greedy"], 1, &[("previous_actions", "all")]);
    assert!(all.result.players[0].forfeit, "the full history costs more than the default game budget");
    let (_, last) = play_with(["paint-stdio-py", "paint-greedy"], 1, &[]);
    assert_eq!(last.result.turns, 100);
    let player = &last.result.players[0];
    assert!(!player.forfeit && player.fuel_total < Budget::default().game_fuel, "{player:?}");
}

/// The option is the line protocol's: WIT bots get the same view either way and play the same
/// match, answer for answer and fuel for fuel (only the recorded config and the state hashes,
/// which cover it, differ).
#[test]
fn previous_actions_leaves_wit_bots_unaffected() {
    let (_, all) = play_with(["paint-greedy", "paint-random"], 3, &[("previous_actions", "all")]);
    let (_, last) = play_with(["paint-greedy", "paint-random"], 3, &[]);
    let seats = |record: &MatchRecord<Paint>| -> Vec<_> {
        record.turns.iter().flat_map(|turn| &turn.seats).map(|seat| (seat.answer, seat.applied, seat.fuel)).collect()
    };
    assert_eq!(seats(&all), seats(&last));
    assert_eq!(all.setup, last.setup);
    assert_eq!(all.result, last.result);
}

/// An unknown value is refused before any bot is loaded, naming the values allowed.
#[test]
fn an_unknown_previous_actions_value_is_a_config_error() {
    let options = [("previous_actions".to_string(), "some".to_string())];
    let err = paint().check_options(&options).unwrap_err().to_string();
    assert!(err.contains(r#"previous_actions must be "all" or "last", not "some""#), "{err}");
    assert!(!err.contains('\n'), "{err}");
}
