//! The original JSON-per-round protocol (suitebot.md "Original protocol"): the state line a bot
//! receives and the answer line it sends back.

use arena_game::{Game, Seat};
use arena_suitebot::protocol::{AnswerError, MAX_ANSWER_BYTES, answer_line, parse_answer, player_id, state_line};
use arena_suitebot::{Action, BoardEncoding, Suitebot, SuitebotConfig};
use serde_json::{Value, json};

fn play(game: &mut Suitebot, actions: &[Action]) {
    let joint: Vec<(Seat, Option<Action>)> = actions.iter().enumerate().map(|(seat, a)| (seat, Some(*a))).collect();
    game.step(&joint).unwrap();
}

/// The whole line, pinned on a 3 x 3 board with the original board arrays (`board=nested`): ids
/// from 1, `[x][y]` arrays, last moves by rule name, bombs with owner id and the countdown the
/// view shows, default names.
#[test]
fn state_line_is_the_original_object() {
    let config = SuitebotConfig { width: 3, height: 3, board: BoardEncoding::Nested, ..SuitebotConfig::default() };
    let mut game = Suitebot::new(&config, 2, 0).unwrap();
    play(&mut game, &[Action::PlantBomb, Action::Right]);
    let line = state_line(&game.observe(1), &["alice"]);
    let want = r#"{"aiPlayerId":2,"currentRound":2,"remainingRounds":99,"gamePlanWidth":3,"gamePlanHeight":3,"players":{"1":{"name":"alice","resources":0,"homeBaseLocation":{"x":0,"y":0},"agentLocation":{"x":0,"y":0},"agentLastMove":"PLANT_BOMB"},"2":{"name":"player 2","resources":0,"homeBaseLocation":{"x":1,"y":1},"agentLocation":{"x":2,"y":1},"agentLastMove":"RIGHT"}},"fieldResources":[[0,1,1],[1,0,1],[1,1,1]],"fieldBombs":[[{"ownerId":1,"countdown":3},null,null],[null,null,null],[null,null,null]]}"#;
    assert_eq!(line, want);
    assert!(!line.contains('\n'));
}

/// The default set-up with the original board arrays, seen by seat 2 in round 1 and in the last
/// round.
#[test]
fn state_line_for_the_default_game() {
    let nested = SuitebotConfig { board: BoardEncoding::Nested, ..SuitebotConfig::default() };
    let mut game = Suitebot::new(&nested, 4, 0).unwrap();
    let names = vec!["a".to_string(), "b".to_string(), "c".to_string(), "d".to_string()];
    let state: Value = serde_json::from_str(&state_line(&game.observe(2), &names)).unwrap();
    assert_eq!(state["aiPlayerId"], 3);
    assert_eq!((state["currentRound"].clone(), state["remainingRounds"].clone()), (json!(1), json!(100)));
    assert_eq!((state["gamePlanWidth"].clone(), state["gamePlanHeight"].clone()), (json!(14), json!(14)));
    let bases: Vec<Value> = (1..=4).map(|id| state["players"][id.to_string()]["homeBaseLocation"].clone()).collect();
    assert_eq!(
        bases,
        vec![json!({"x": 3, "y": 3}), json!({"x": 10, "y": 3}), json!({"x": 3, "y": 10}), json!({"x": 10, "y": 10})]
    );
    assert_eq!(state["players"]["3"]["name"], "c");
    assert_eq!(state["players"]["4"]["agentLastMove"], Value::Null);
    assert_eq!(state["players"]["1"]["resources"], 0);
    assert_eq!((state["fieldResources"][3][10].clone(), state["fieldResources"][4][10].clone()), (json!(0), json!(1)));
    assert_eq!(state["fieldResources"].as_array().unwrap().len(), 14);
    assert!(state["fieldBombs"].as_array().unwrap().iter().flat_map(|col| col.as_array().unwrap()).all(Value::is_null));
    for _ in 1..100 {
        play(&mut game, &[Action::Hold; 4]);
    }
    let state: Value = serde_json::from_str(&state_line(&game.observe(0), &names)).unwrap();
    assert_eq!((state["currentRound"].clone(), state["remainingRounds"].clone()), (json!(100), json!(1)));
    assert_eq!(state["players"]["4"]["agentLastMove"], "HOLD");
    assert_eq!(player_id(7), 8);
}

/// suitebot.md "Original protocol": one of `U D L R H B`; whitespace around it is ignored, and
/// lowercase accepted [ours]; anything else is a typed error.
#[test]
fn answers_parse_to_actions() {
    for action in Action::ALL {
        assert_eq!(parse_answer(&answer_line(action)), Ok(action));
        assert_eq!(parse_answer(&format!("{}\n", answer_line(action))), Ok(action));
    }
    assert_eq!(parse_answer(" b\r\n"), Ok(Action::PlantBomb));
    assert_eq!(parse_answer("u"), Ok(Action::Up));
    assert_eq!(parse_answer(""), Err(AnswerError::Empty));
    assert_eq!(parse_answer(" \r\n"), Err(AnswerError::Empty));
    assert_eq!(parse_answer("X"), Err(AnswerError::Unknown { answer: "X".into() }));
    assert_eq!(parse_answer("UP\n"), Err(AnswerError::Unknown { answer: "UP".into() }));
    assert_eq!(parse_answer("U D"), Err(AnswerError::Unknown { answer: "U D".into() }));
    assert_eq!(parse_answer("é"), Err(AnswerError::Unknown { answer: "é".into() }));
    let long = "H".repeat(MAX_ANSWER_BYTES + 1);
    assert_eq!(parse_answer(&long), Err(AnswerError::TooLong { len: MAX_ANSWER_BYTES + 1 }));
    let padded = format!("H{}", " ".repeat(MAX_ANSWER_BYTES - 1));
    assert_eq!(parse_answer(&padded), Ok(Action::Hold));
    assert_eq!(AnswerError::Empty.to_string(), "empty answer (expected one of U D L R H B)");
}
