//! The conformance kit every line protocol's tests run ([`check_protocol`]), as every engine
//! runs `arena_game::conformance`: over the observations of the engine kit's random playouts,
//!
//! - every turn's message is lines a bot can read: at least one, none holding a line break, in
//!   a session started by each documented greeting reply (or without one, for a protocol with no
//!   handshake), twice in a row (an incremental protocol sends the difference the second time);
//! - every action a seat played, written as the protocol's reference answer
//!   ([`LineProtocol::answer_line`]), fits the answer bound ([`LineProtocol::MAX_LINE`]) and
//!   parses back as itself;
//! - an empty answer and one past the bound are refused (an [`super::AnswerError`], not a panic).
//!
//! What is particular to one protocol (its field order, its nonce) stays in its own tests.

use super::LineProtocol;
use crate::seat::TurnInfo;
use arena_game::conformance::{Plan, for_each_observation};

/// Runs the kit over `plan`'s playouts; panics (test code) naming the protocol, the playout and
/// the seat.
pub(super) fn check_protocol<P: LineProtocol>(plan: &Plan<P::Game>) {
    let name = P::NAME;
    let info = TurnInfo { turn: 0, turn_fuel_remaining: 10_000_000, game_fuel_remaining: 90_000_000, missed_turns: 0 };
    let sessions = || -> Vec<P::Session> {
        match P::session_without_reply() {
            Some(session) => vec![session],
            None => P::GREETING_REPLIES
                .iter()
                .map(|reply| {
                    P::check_greeting_reply(reply)
                        .unwrap_or_else(|err| panic!("{name}: reply {reply:?} refused: {err}"))
                })
                .collect(),
        }
    };
    assert!(!sessions().is_empty(), "{name}: no documented greeting reply");
    let mut answers = 0;
    for_each_observation::<P::Game>(plan, |playout, seat, observation, action| {
        for mut session in sessions() {
            for _ in 0..2 {
                let lines = P::state_lines(&mut session, observation, &info);
                assert!(!lines.is_empty(), "{name}: playout {playout}, seat {seat}: an empty message");
                for line in &lines {
                    assert!(!line.contains(['\n', '\r']), "{name}: playout {playout}, seat {seat}: {line:?}");
                }
            }
        }
        if let Some(action) = action {
            let line = P::answer_line(action, observation);
            assert!(line.len() <= P::MAX_LINE, "{name}: {line:?} is longer than the {}-byte bound", P::MAX_LINE);
            match P::parse_answer(&line, observation) {
                Ok(parsed) => assert_eq!(&parsed, action, "{name}: {line:?} parsed as another action"),
                Err(err) => panic!("{name}: playout {playout}, seat {seat}: the answer {line:?} was refused: {err:?}"),
            }
            answers += 1;
        }
        let refused = |line: &str| P::parse_answer(line, observation).is_err();
        assert!(refused(""), "{name}: an empty answer was accepted");
        assert!(refused(&"9".repeat(P::MAX_LINE + 1)), "{name}: an answer past the bound was accepted");
    });
    assert!(answers > 100, "{name}: only {answers} answers checked");
}
