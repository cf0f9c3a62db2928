//! SuiteBot II's original protocol (suitebot.md "Original protocol"): one JSON object per round
//! on stdin, one of `U D L R H B` back. The JSON shape and the answer parsing are the engine's
//! ([`arena_suitebot::protocol`]); this module wires them to the line-protocol runner.
//!
//! The original bot ran a TCP server and had no handshake: here there is no greeting either, and
//! a bot that waits for its first round without writing anything has started correctly. Player
//! names in the JSON are `player <id>` (ids are seats + 1). The original's 200 ms per answer is
//! the turn fuel budget here (see [`super::FUEL_PER_MS`]); the JSON carries no time field.
//! **\[ours\]** The game option `board=strings` ([`arena_suitebot::BoardEncoding`]) writes the
//! board fields as one string per column instead of the original arrays of arrays: the same
//! fields, for a fraction of the parsing (and so of the fuel) an ordinary JSON library spends.
//! **Late answers:** an answer is one letter with no round number, so a line written before the
//! bot has read the current round's object is stale (see [`super`]).

use super::{AnswerError, LineProtocol, excerpt};
use crate::seat::{InitInfo, TurnInfo};
use arena_suitebot::protocol::{AnswerError as SuitebotAnswerError, MAX_ANSWER_BYTES, parse_answer, state_line};
use arena_suitebot::{Action, Suitebot, View};

/// SuiteBot II's JSON-per-round protocol.
pub struct SuitebotJson;

impl LineProtocol for SuitebotJson {
    type Game = Suitebot;
    type Session = ();

    const NAME: &'static str = "suitebot-json";
    const MAX_LINE: usize = MAX_ANSWER_BYTES;
    /// No handshake: what a bot might wrongly write before its first round.
    const GREETING_REPLIES: &'static [&'static str] = &["H", ""];

    fn answer_line(action: &Action, _view: &View) -> String {
        action.to_string()
    }

    fn greeting(_info: &InitInfo) -> Vec<String> {
        Vec::new()
    }

    fn session_without_reply() -> Option<()> {
        Some(())
    }

    fn check_greeting_reply(line: &str) -> Result<(), String> {
        Err(format!("this protocol has no handshake: wrote {:?} before its first round", excerpt(line, 40)))
    }

    fn state_lines(_session: &mut (), view: &View, _info: &TurnInfo) -> Vec<String> {
        vec![state_line::<&str>(view, &[])]
    }

    fn parse_answer(line: &str, _view: &View) -> Result<Action, AnswerError> {
        parse_answer(line).map_err(|err| match err {
            SuitebotAnswerError::TooLong { .. } => AnswerError::TooLong { limit: MAX_ANSWER_BYTES },
            other => AnswerError::Malformed { detail: other.to_string() },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_game::Game;

    /// The line-protocol conformance kit over SuiteBot II's random playouts.
    #[test]
    fn the_protocol_conforms() {
        let plan = arena_game::conformance::Plan {
            config: Default::default(),
            players: vec![2, 4],
            seeds: 0..3,
            max_steps: 5_000,
        };
        super::super::conformance::check_protocol::<SuitebotJson>(&plan);
    }

    #[test]
    fn a_round_is_one_json_line_and_answers_are_letters() {
        let game = Suitebot::new(&Default::default(), 4, 0).unwrap_or_else(|err| panic!("{err}"));
        let view = game.observe(2);
        let info = TurnInfo { turn: 0, turn_fuel_remaining: 1, game_fuel_remaining: 1, missed_turns: 0 };
        let lines = SuitebotJson::state_lines(&mut (), &view, &info);
        assert_eq!(lines.len(), 1);
        let json: serde_json::Value = serde_json::from_str(&lines[0]).unwrap_or_default();
        assert_eq!(json["aiPlayerId"], 3);
        assert_eq!(SuitebotJson::parse_answer("B", &view), Ok(Action::PlantBomb));
        assert_eq!(SuitebotJson::parse_answer(" u ", &view), Ok(Action::Up));
        assert!(matches!(SuitebotJson::parse_answer("X", &view), Err(AnswerError::Malformed { .. })));
        assert!(
            SuitebotJson::greeting(&InitInfo {
                seat: 0,
                players: 4,
                restart_count: 0,
                seed: 0,
                turn_fuel: 1,
                game_fuel: 1,
                game_fuel_remaining: 1
            })
            .is_empty()
        );
    }
}
