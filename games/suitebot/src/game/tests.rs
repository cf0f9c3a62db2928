//! Engine tests on hand-built states: each cites the suitebot.md rule it checks. The default
//! match has 4 seats on 14 x 14 with bases (3,3), (10,3), (3,10), (10,10); tests move agents and
//! lay bombs by hand, away from those bases unless a test says otherwise.

use super::*;
use crate::Action::{Down, Hold, Left, PlantBomb, Right, Up};
use crate::{BoardEncoding, Cover};
use arena_game::StepError;

const BASES: [Pos; 4] = [Pos::new(3, 3), Pos::new(10, 3), Pos::new(3, 10), Pos::new(10, 10)];

fn new_game(players: usize) -> Suitebot {
    Suitebot::new(&SuitebotConfig::default(), players, 7).unwrap()
}

fn p(x: u16, y: u16) -> Pos {
    Pos::new(x, y)
}

fn put_agent(game: &mut Suitebot, seat: usize, at: Pos) {
    game.players[seat].agent = at;
}

fn put_bomb(game: &mut Suitebot, at: Pos, owner: u8, countdown: u8) {
    rules::plant(&mut game.bombs, Bomb { at, owner, countdown });
}

/// Plays one round with an action for every seat, checking the invariants afterwards.
fn play(game: &mut Suitebot, actions: &[Action]) -> Vec<Event> {
    let joint: Vec<(Seat, Option<Action>)> = actions.iter().enumerate().map(|(seat, a)| (seat, Some(*a))).collect();
    let events = game.step(&joint).unwrap();
    game.check_invariants().unwrap();
    events
}

fn agent(game: &Suitebot, seat: usize) -> Pos {
    game.observe(0).players[seat].agent
}

fn scores(game: &Suitebot) -> Vec<i64> {
    game.outcome().scores
}

fn exploded(events: &[Event]) -> Vec<Bomb> {
    events
        .iter()
        .find_map(|event| match event {
            Event::Exploded { bombs } => Some(bombs.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn killed(events: &[Event]) -> Vec<(u8, Cover, Option<u8>)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Killed { seat, cover, credit, .. } => Some((*seat, *cover, *credit)),
            _ => None,
        })
        .collect()
}

/// suitebot.md "Constants" [ours] and "Board": 4 seats on 14 x 14, agents on their bases, every
/// field with 1 point except the bases; round 1 of 100, everyone acts.
#[test]
fn setup_puts_agents_on_their_bases_and_a_point_on_every_other_field() {
    let game = new_game(4);
    assert_eq!(game.to_act(), vec![0, 1, 2, 3]);
    let view = game.observe(2);
    assert_eq!((view.seat, view.round, view.rounds, view.rounds_left()), (2, 1, 100, 100));
    assert_eq!((view.width, view.height, view.blast_radius), (14, 14, 1));
    for (player, base) in view.players.iter().zip(BASES) {
        assert_eq!((player.base, player.agent, player.score, player.last_move), (base, base, 0, None));
    }
    assert_eq!(view.points.len(), 196);
    assert_eq!(view.points.iter().map(|p| u32::from(*p)).sum::<u32>(), 192);
    assert!(BASES.iter().all(|base| view.points_at(*base) == 0));
    assert!(view.bombs.is_empty());
    let two = new_game(2).observe(0);
    assert_eq!(two.players.iter().map(|player| player.base).collect::<Vec<_>>(), vec![p(3, 3), p(10, 10)]);
}

/// 2 to 8 players; options out of range are refused by name.
#[test]
fn player_counts_and_option_ranges() {
    for players in [0, 1, 9] {
        assert!(matches!(
            Suitebot::new(&SuitebotConfig::default(), players, 0),
            Err(SetupError::PlayerCount { min: 2, max: 8, .. })
        ));
    }
    for players in 2..=8 {
        new_game(players).check_invariants().unwrap();
    }
    let bad = [
        SuitebotConfig { width: 2, ..SuitebotConfig::default() },
        SuitebotConfig { height: 101, ..SuitebotConfig::default() },
        SuitebotConfig { rounds: 0, ..SuitebotConfig::default() },
        SuitebotConfig { blast_radius: 11, ..SuitebotConfig::default() },
    ];
    for (config, name) in bad.iter().zip(["width", "height", "rounds", "blast_radius"]) {
        let err = Suitebot::new(config, 4, 0).unwrap_err();
        assert!(matches!(&err, SetupError::Config { reason, .. } if reason.starts_with(name)), "{err}");
    }
    let small = SuitebotConfig { width: 3, height: 3, rounds: 1, blast_radius: 10, board: BoardEncoding::Nested };
    Suitebot::new(&small, 8, 0).unwrap().check_invariants().unwrap();
}

/// `--option key=value` pairs lay over the defaults; option_docs lists every config field.
#[test]
fn options_from_the_command_line() {
    let pairs = [("blast_radius".to_string(), "2".to_string()), ("rounds".to_string(), "30".to_string())];
    let config = Suitebot::config_from_options(&pairs).unwrap();
    assert_eq!(config, SuitebotConfig { blast_radius: 2, rounds: 30, ..SuitebotConfig::default() });
    let docs: Vec<&str> = Suitebot::option_docs().iter().map(|doc| doc.name).collect();
    // `board` is left out of the default config's JSON, so it is put back first.
    let mut fields = serde_json::to_value(SuitebotConfig::default()).unwrap();
    fields["board"] = serde_json::to_value(BoardEncoding::default()).unwrap();
    let mut keys: Vec<&str> = fields.as_object().unwrap().keys().map(String::as_str).collect();
    let mut sorted = docs.clone();
    sorted.sort_unstable();
    keys.sort_unstable();
    assert_eq!(sorted, keys);
    assert!(Suitebot::config_from_options(&[("walls".to_string(), "1".to_string())]).is_err());
}

/// **\[ours\]** suitebot.md "Original protocol": `board` is `strings` unless set to `nested` (the
/// original), as a bare word or a JSON string, beside the other options; any other value is
/// refused by name, in one line. Every view carries it for the line protocol. A config or a state
/// serialises it only when it is not `nested`, and one stored without it means `nested`, the
/// default when it was written: those made before `strings` became the default are unchanged.
#[test]
fn the_board_option_is_parsed_and_kept() {
    let config = |pairs: &[(&str, &str)]| {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Suitebot::config_from_options(&pairs)
    };
    let nested = SuitebotConfig { board: BoardEncoding::Nested, ..SuitebotConfig::default() };
    assert_eq!(config(&[]).unwrap().board, BoardEncoding::Strings);
    assert_eq!(config(&[]).unwrap(), SuitebotConfig::default());
    assert_eq!(config(&[("board", "nested")]).unwrap(), nested);
    assert_eq!(config(&[("board", "strings")]).unwrap(), SuitebotConfig::default());
    let both = config(&[("rounds", "7"), ("board", "\"strings\"")]).unwrap();
    assert_eq!((both.rounds, both.board), (7, BoardEncoding::Strings));
    for bad in ["rows", "", "1", "[\"strings\"]", "STRINGS"] {
        let err = config(&[("board", bad)]).unwrap_err();
        assert!(matches!(err, SetupError::Config { game: "suitebot", .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains(r#"board must be "nested" or "strings""#) && !text.contains('\n'), "{text}");
    }
    let unknown = config(&[("boards", "strings")]).unwrap_err().to_string();
    assert!(unknown.contains("(options: blast_radius, board, height, rounds, width)"), "{unknown}");

    let default_game = Suitebot::new(&SuitebotConfig::default(), 2, 0).unwrap();
    assert_eq!(default_game.observe(1).board, BoardEncoding::Strings);
    assert!(json(&SuitebotConfig::default()).contains(r#""board":"strings""#));
    let back = serde_json::from_str::<SuitebotConfig>(&json(&SuitebotConfig::default())).unwrap();
    assert_eq!(back, SuitebotConfig::default());
    // The original: left out when serialised, and what a config, state or view without the
    // field means.
    let original = Suitebot::new(&nested, 2, 0).unwrap();
    assert_eq!(original.observe(0).board, BoardEncoding::Nested);
    assert!(!json(&nested).contains("board"));
    assert_eq!(serde_json::from_str::<SuitebotConfig>(r#"{"rounds":100}"#).unwrap(), nested);
    assert!(!json(&original).contains("board"), "state hashes of matches with the original are unchanged");
    assert!(!json(&original.observe(0)).contains("board"));
    let view: crate::View = serde_json::from_str(&json(&original.observe(0))).unwrap();
    assert_eq!(view.board, BoardEncoding::Nested);
}

/// A value's JSON text.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

/// suitebot.md "Board" and "One round" 1: moves wrap around every edge.
#[test]
fn moves_wrap_around_the_torus() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(0, 0));
    put_agent(&mut game, 1, p(13, 13));
    play(&mut game, &[Left, Right, Hold, Hold]);
    assert_eq!((agent(&game, 0), agent(&game, 1)), (p(13, 0), p(0, 13)));
    play(&mut game, &[Up, Down, Hold, Hold]);
    assert_eq!((agent(&game, 0), agent(&game, 1)), (p(13, 13), p(0, 0)));
    assert_eq!(game.observe(0).players[0].last_move, Some(Up));
}

/// suitebot.md "One round" 2: agents ending on one field die, a standing agent included, and
/// respawn on their own bases; collisions score nothing [ours].
#[test]
fn a_head_on_collision_kills_both() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(5, 5));
    put_agent(&mut game, 1, p(7, 5));
    put_agent(&mut game, 2, p(5, 7));
    put_agent(&mut game, 3, p(5, 8));
    let events = play(&mut game, &[Right, Left, Hold, Up]);
    assert!(events.contains(&Event::Collided { at: p(6, 5), seats: vec![0, 1] }));
    assert!(events.contains(&Event::Collided { at: p(5, 7), seats: vec![2, 3] }));
    for (seat, base) in BASES.iter().enumerate() {
        assert_eq!(agent(&game, seat), *base);
        assert!(events.contains(&Event::Respawned { seat: seat as u8, at: *base }));
    }
    assert_eq!(scores(&game), vec![0; 4]);
    // The fields the agents passed keep their points: agents mine nothing.
    assert_eq!(game.observe(0).points_at(p(6, 5)), 1);
}

/// suitebot.md "One round" 2: swapping places is not a collision.
#[test]
fn swapping_places_is_not_a_collision() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(5, 5));
    put_agent(&mut game, 1, p(6, 5));
    let events = play(&mut game, &[Right, Left, Hold, Hold]);
    assert!(!events.iter().any(|event| matches!(event, Event::Collided { .. } | Event::Respawned { .. })));
    assert_eq!((agent(&game, 0), agent(&game, 1)), (p(6, 5), p(5, 5)));
}

/// suitebot.md "One round" 3 and 4: a bomb planted in round r explodes in step 4 of round r+4;
/// bots see its countdown as 3 in round r+1 down to 0 in round r+4. Its owner mines the 3x3
/// square around it.
#[test]
fn a_bomb_explodes_in_the_fourth_round_after_planting() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(6, 6));
    let events = play(&mut game, &[PlantBomb, Hold, Hold, Hold]);
    assert!(events.contains(&Event::Planted { seat: 0, at: p(6, 6), replaced: None }));
    let mut seen = Vec::new();
    for (round, flee) in [(2, Right), (3, Right), (4, Hold), (5, Hold)] {
        let view = game.observe(1);
        assert_eq!(view.round, round);
        let bomb = view.bomb_at(p(6, 6)).copied().unwrap();
        assert_eq!(bomb.owner, 0);
        seen.push(bomb.countdown);
        let events = play(&mut game, &[flee, Hold, Hold, Hold]);
        assert_eq!(exploded(&events).is_empty(), round < 5, "round {round}");
    }
    assert_eq!(seen, vec![3, 2, 1, 0]);
    assert!(game.observe(0).bombs.is_empty());
    assert_eq!(scores(&game), vec![9, 0, 0, 0]);
    assert!(game.observe(0).blast_area(p(6, 6)).iter().all(|field| game.observe(0).points_at(*field) == 0));
}

/// suitebot.md "One round" 4: an explosion sets off every bomb in its area, transitively, in the
/// same round; a bomb out of every exploding area only counts down.
#[test]
fn a_chain_of_three_bombs() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(5, 6), 0, 0);
    put_bomb(&mut game, p(6, 6), 0, 3);
    put_bomb(&mut game, p(7, 7), 0, 3); // in (6,6)'s area, not in (5,6)'s
    put_bomb(&mut game, p(9, 7), 0, 3); // next to none of them
    let events = play(&mut game, &[Hold; 4]);
    let chain: Vec<Pos> = exploded(&events).iter().map(|bomb| bomb.at).collect();
    assert_eq!(chain, vec![p(5, 6), p(6, 6), p(7, 7)]);
    assert_eq!(game.observe(0).bombs, vec![Bomb { at: p(9, 7), owner: 0, countdown: 2 }]);
    // The union of the three squares: x 4..=7 by y 5..=7, plus (8,6..=8), (6,8), (7,8).
    assert_eq!(scores(&game), vec![17, 0, 0, 0]);
}

/// suitebot.md "One round" 4: a field covered by two seats' exploding bombs scores for nobody (and
/// is emptied); an agent there dies and earns nobody the kill.
#[test]
fn a_field_covered_by_two_owners_scores_for_nobody() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(5, 6), 0, 0);
    put_bomb(&mut game, p(7, 6), 1, 0);
    put_agent(&mut game, 2, p(6, 6));
    let events = play(&mut game, &[Hold; 4]);
    // Column x = 6 (three fields) is covered by both squares.
    assert!(events.contains(&Event::Mined { points: vec![6, 6, 0, 0], contested: 3 }));
    assert_eq!(killed(&events), vec![(2, Cover::Contested, None)]);
    assert_eq!(scores(&game), vec![6, 6, 0, 0]);
    let view = game.observe(0);
    assert_eq!((view.points_at(p(6, 5)), view.points_at(p(6, 6)), view.points_at(p(6, 7))), (0, 0, 0));
    assert_eq!(agent(&game, 2), BASES[2]);
}

/// suitebot.md "One round" 4: two bombs of one owner covering a field score it once.
#[test]
fn two_bombs_of_one_owner_score_a_field_once() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(5, 6), 0, 0);
    put_bomb(&mut game, p(7, 6), 0, 0);
    let events = play(&mut game, &[Hold; 4]);
    assert!(events.contains(&Event::Mined { points: vec![15, 0, 0, 0], contested: 0 }));
    assert_eq!(scores(&game), vec![15, 0, 0, 0]);
}

/// suitebot.md "One round" 4 and 5: killing an enemy agent gives +10; killing your own agent
/// gives and costs nothing; both respawn on their bases. A second explosion on a mined field
/// gives nothing.
#[test]
fn killing_an_enemy_scores_ten_and_yourself_nothing() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(6, 6), 0, 0);
    put_agent(&mut game, 0, p(5, 5));
    put_agent(&mut game, 1, p(6, 7));
    let events = play(&mut game, &[Hold; 4]);
    assert_eq!(killed(&events), vec![(0, Cover::Owner(0), None), (1, Cover::Owner(0), Some(0))]);
    assert_eq!(scores(&game), vec![9 + 10, 0, 0, 0]);
    assert_eq!((agent(&game, 0), agent(&game, 1)), (BASES[0], BASES[1]));
    let text: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert!(text.contains(&"seat 0 killed at (5,5) by its own bomb".to_string()), "{text:?}");
    assert!(text.contains(&"seat 1 killed at (6,7) by seat 0 (+10)".to_string()), "{text:?}");
    // Same square again: no points left to mine.
    put_bomb(&mut game, p(6, 6), 1, 0);
    let events = play(&mut game, &[Hold; 4]);
    assert!(events.contains(&Event::Mined { points: vec![0; 4], contested: 0 }));
    assert_eq!(scores(&game), vec![19, 0, 0, 0]);
}

/// suitebot.md "One round" 5: an agent standing on an enemy base is killed and reappears on its
/// own base, without points [ours]; moving onto a base its owner stands on is a collision.
#[test]
fn death_on_an_enemy_base_and_respawn_on_the_own_base() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(9, 3));
    put_agent(&mut game, 1, p(10, 6));
    let events = play(&mut game, &[Right, Hold, Hold, Hold]);
    assert!(events.contains(&Event::OnEnemyBase { seat: 0, at: p(10, 3), base_of: 1 }));
    assert!(events.contains(&Event::Respawned { seat: 0, at: BASES[0] }));
    assert_eq!(agent(&game, 0), BASES[0]);
    assert_eq!(scores(&game), vec![0; 4]);
    // Owner at home: the visitor collides with it, both die and respawn at home.
    put_agent(&mut game, 1, p(3, 2));
    let events = play(&mut game, &[Hold, Down, Hold, Hold]);
    assert!(events.contains(&Event::Collided { at: BASES[0], seats: vec![0, 1] }));
    assert_eq!((agent(&game, 0), agent(&game, 1)), (BASES[0], BASES[1]));
}

/// suitebot.md "One round" 3: planting on a bomb replaces it: the new owner's, countdown reset.
/// Here it stops an enemy bomb that would have exploded this round.
#[test]
fn replacing_a_bomb_resets_its_countdown_and_owner() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(6, 6), 1, 0);
    put_agent(&mut game, 0, p(6, 6));
    let events = play(&mut game, &[PlantBomb, Hold, Hold, Hold]);
    let old = Bomb { at: p(6, 6), owner: 1, countdown: 0 };
    assert!(events.contains(&Event::Planted { seat: 0, at: p(6, 6), replaced: Some(old) }));
    assert!(exploded(&events).is_empty());
    assert_eq!(game.observe(1).bombs, vec![Bomb { at: p(6, 6), owner: 0, countdown: 3 }]);
    for _ in 0..3 {
        assert!(exploded(&play(&mut game, &[Up, Hold, Hold, Hold])).is_empty());
    }
    let events = play(&mut game, &[Hold; 4]);
    assert_eq!(exploded(&events), vec![Bomb { at: p(6, 6), owner: 0, countdown: 0 }]);
    assert_eq!(scores(&game), vec![9, 0, 0, 0]);
}

/// suitebot.md "One round" 3 [ours]: an agent that died in a collision in step 2 does not plant.
#[test]
fn an_agent_killed_in_a_collision_does_not_plant() {
    let mut game = new_game(4);
    put_agent(&mut game, 0, p(5, 5));
    put_agent(&mut game, 1, p(6, 5));
    let events = play(&mut game, &[PlantBomb, Left, Hold, Hold]);
    assert!(events.contains(&Event::Collided { at: p(5, 5), seats: vec![0, 1] }));
    assert!(game.observe(0).bombs.is_empty());
    assert_eq!(game.observe(0).players[0].last_move, Some(PlantBomb));
}

/// suitebot.md "One round" 2 and 4 [ours]: agents that died in a collision are off the board in
/// step 4: an explosion on their field neither kills them again nor scores them.
#[test]
fn collided_agents_are_not_killed_again_by_an_explosion() {
    let mut game = new_game(4);
    put_bomb(&mut game, p(6, 6), 2, 0);
    put_agent(&mut game, 0, p(5, 6));
    put_agent(&mut game, 1, p(7, 6));
    let events = play(&mut game, &[Right, Left, Hold, Hold]);
    assert!(events.contains(&Event::Collided { at: p(6, 6), seats: vec![0, 1] }));
    assert!(killed(&events).is_empty());
    assert_eq!(scores(&game), vec![0, 0, 9, 0]);
}

/// suitebot.md "Actions": no answer is HOLD, and the round says so.
#[test]
fn no_action_is_hold() {
    let mut game = new_game(2);
    assert_eq!(game.no_action(1), Some(Hold));
    assert_eq!(game.no_action(2), None);
    let events = game.step(&[(1, None), (0, Some(Right))]).unwrap();
    assert_eq!(events[0], Event::Acted { round: 1, actions: vec![Right, Hold], fallback: vec![1] });
    assert_eq!(events[0].to_string(), "round 1: 0:R 1:H(fallback)");
    assert_eq!(game.observe(0).players[1].last_move, Some(Hold));
}

/// Every action is valid for every seat while the game runs; only missing seats and the game's
/// end are refused. A wrong joint action changes nothing.
#[test]
fn only_seats_can_be_invalid() {
    let mut game = new_game(4);
    for seat in 0..4 {
        for action in Action::ALL {
            assert_eq!(game.check(seat, &action), Ok(()));
        }
    }
    assert_eq!(game.check(4, &Hold), Err(Invalid::NoSuchSeat { seat: 4, players: 4 }));
    let before = game.state_hash();
    assert!(matches!(game.step(&[(0, Some(Hold))]), Err(StepError::WrongSeats { .. })));
    assert_eq!(game.state_hash(), before);
}

/// suitebot.md "End": the game ends after the last round (100 by default); equal points share a
/// place; nothing is accepted afterwards.
#[test]
fn the_game_ends_after_the_last_round() {
    let mut game = new_game(4);
    for round in 1..=100 {
        assert!(!game.is_over());
        let events = play(&mut game, &[Hold; 4]);
        assert_eq!(events.iter().any(|event| matches!(event, Event::GameEnded { .. })), round == 100);
    }
    assert!(game.is_over());
    assert_eq!(game.to_act(), Vec::<Seat>::new());
    assert_eq!(game.outcome().ranks, vec![1, 1, 1, 1]);
    assert_eq!(game.check(0, &Hold), Err(Invalid::GameOver));
    assert_eq!(game.no_action(0), None);
    assert!(matches!(game.step(&[]), Err(StepError::GameOver)));
    assert_eq!(game.observe(0).rounds_left(), 0);

    // A shorter match (the rounds option); equal points share a place, the next place is skipped.
    let config = SuitebotConfig { rounds: 2, ..SuitebotConfig::default() };
    let mut game = Suitebot::new(&config, 4, 0).unwrap();
    put_bomb(&mut game, p(6, 6), 2, 1);
    put_bomb(&mut game, p(12, 6), 1, 1);
    put_bomb(&mut game, p(0, 6), 3, 1);
    play(&mut game, &[Hold; 4]);
    let events = play(&mut game, &[Hold; 4]);
    // (12,6) and (0,6) are 2 apart across the edge: they do not chain, but share column 13.
    assert_eq!(events.last(), Some(&Event::GameEnded { scores: vec![0, 6, 9, 6], ranks: vec![4, 2, 1, 2] }));
}

/// The blast radius option: radius 2 blasts the 5x5 square.
#[test]
fn blast_radius_option_widens_the_square() {
    let config = SuitebotConfig { blast_radius: 2, ..SuitebotConfig::default() };
    let mut game = Suitebot::new(&config, 4, 0).unwrap();
    put_bomb(&mut game, p(6, 6), 0, 0);
    put_agent(&mut game, 1, p(8, 8));
    play(&mut game, &[Hold; 4]);
    assert_eq!(scores(&game), vec![25 + 10, 0, 0, 0]);
}

/// The invariants catch broken states.
#[test]
fn invariants_catch_broken_states() {
    let game = new_game(4);
    type Breaks = Box<dyn Fn(&mut Suitebot)>;
    let broken: Vec<(&str, Breaks)> = vec![
        ("shares", Box::new(|g| g.players[1].agent = g.players[0].agent)),
        (
            "base",
            Box::new(|g| {
                g.players[1].agent = p(9, 9);
                g.players[0].agent = BASES[1];
            }),
        ),
        ("off the board", Box::new(|g| g.players[0].agent = p(14, 0))),
        ("holds 2 points", Box::new(|g| g.points[0] = 2)),
        ("points on the base", Box::new(|g| g.points[3 * 14 + 3] = 1)),
        ("bad bomb", Box::new(|g| g.bombs.push(Bomb { at: p(1, 1), owner: 0, countdown: 4 }))),
        ("bad bomb", Box::new(|g| g.bombs.push(Bomb { at: p(1, 1), owner: 4, countdown: 1 }))),
        ("mined", Box::new(|g| g.players[0].mined = 1)),
        ("last move", Box::new(|g| g.players[0].last_move = Some(Hold))),
        (
            "field entries",
            Box::new(|g| {
                g.points.pop();
            }),
        ),
    ];
    for (what, breaks) in broken {
        let mut bad = game.clone();
        breaks(&mut bad);
        let err = bad.check_invariants().unwrap_err();
        assert!(err.contains(what), "{what}: {err}");
    }
    let mut doubled = game.clone();
    doubled.bombs = vec![Bomb { at: p(1, 1), owner: 0, countdown: 1 }; 2];
    assert!(doubled.check_invariants().unwrap_err().contains("order"));
}

/// Display: a compact board (also pinned by the golden playthrough).
#[test]
fn display_shows_the_board() {
    let config = SuitebotConfig { width: 6, height: 4, ..SuitebotConfig::default() };
    let mut game = Suitebot::new(&config, 2, 0).unwrap();
    put_bomb(&mut game, p(4, 0), 1, 2);
    put_agent(&mut game, 1, p(0, 2));
    game.points[5] = 0;
    let want = "round 1 of 100, 6 x 4, blast radius 1\n\
                seat 0 (a): score 0 (0 mined, 0 kills), agent (1,0), base (1,0), last -\n\
                seat 1 (b): score 0 (0 mined, 0 kills), agent (0,2), base (4,2), last -\n\
                .a..2-\n\
                ......\n\
                b...B.\n\
                ......\n\
                bombs: (4,0) b2";
    assert_eq!(game.to_string(), want);
}
