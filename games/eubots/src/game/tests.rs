//! Engine tests on hand-built states (counters set directly, broken states for the invariants)
//! and on the options: each cites the eubots.md rule it checks.

use super::*;

fn game(map: &str, players: usize) -> Eubots {
    let config = EubotsConfig { map: MapChoice::Text(map.to_string()), unequal: true };
    Eubots::new(&config, players, 0).unwrap()
}

fn wait_all(game: &mut Eubots) -> Vec<Event> {
    let actions: Vec<(Seat, Option<Vec<Order>>)> = game.to_act().into_iter().map(|seat| (seat, None)).collect();
    let events = game.step(&actions).unwrap();
    game.check_invariants().unwrap();
    events
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// eubots.md "End of the match" [ours]: after 5,000 turns the match ends, scored as a stalemate.
#[test]
fn turn_cap_ends_as_a_stalemate() {
    let mut g = game("11.\n..2\n", 2);
    g.turns_played = TURN_CAP - 2;
    wait_all(&mut g);
    assert!(!g.is_over());
    let events = wait_all(&mut g);
    assert_eq!(g.turns_played, TURN_CAP);
    let Some(Event::GameEnded { reason, standings, scores }) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!((*reason, standings.clone(), scores.clone()), (EndReason::TurnCap, vec![Standing::Drew; 2], vec![2, 1]));
    assert_eq!(g.outcome().ranks, [1, 1]);
}

/// eubots.md "End of the match": the 500th consecutive quiet turn ends the match, the 499th not.
#[test]
fn quiet_turn_count_boundary() {
    let mut g = game("11.\n..2\n", 2);
    g.quiet_turns = STALEMATE_TURNS - 2;
    g.turns_played = STALEMATE_TURNS - 2;
    wait_all(&mut g);
    assert!(!g.is_over());
    wait_all(&mut g);
    assert_eq!(g.end_reason(), Some(EndReason::NoDeaths));
}

/// The invariants catch broken states: two units on a square, a unit in a wall, a living unit
/// with no defence, more units than a seat started with, a running match that should have ended.
#[test]
fn invariants_catch_broken_states() {
    let g = game("11.\n#.2\n", 2);
    g.check_invariants().unwrap();

    let mut broken = g.clone();
    broken.units[1].as_mut().unwrap().pos = Pos::new(1, 1);
    assert!(broken.check_invariants().unwrap_err().contains("unit 1"));

    let mut broken = g.clone();
    broken.grid.set(Pos::new(1, 2), Square::Unit(0));
    broken.grid.set(Pos::new(1, 1), Square::Empty);
    broken.units[0].as_mut().unwrap().pos = Pos::new(1, 2);
    broken.check_invariants().unwrap(); // moved consistently (the wall square is overwritten)
    broken.grid.set(Pos::new(2, 2), Square::Unit(0));
    assert!(broken.check_invariants().unwrap_err().contains("holds unit 0"));

    let mut broken = g.clone();
    broken.units[2].as_mut().unwrap().defence = 0;
    assert!(broken.check_invariants().unwrap_err().contains("defence 0"));

    let mut broken = g.clone();
    broken.initial_units[0] = 1;
    assert!(broken.check_invariants().unwrap_err().contains("more than"));

    let mut broken = g.clone();
    broken.units[2] = None;
    broken.grid.set(Pos::new(3, 2), Square::Empty);
    assert!(broken.check_invariants().unwrap_err().contains("runs on"));

    let mut broken = g.clone();
    broken.units[0].as_mut().unwrap().pos = Pos::new(0, 1);
    assert!(broken.check_invariants().is_err(), "outside the map");
}

/// eubots.md "Arena" [ours]: the compact text map is the map-file format under a header line.
#[test]
fn display_is_a_header_and_the_map() {
    let mut g = game("1.#\n.12\n..2\n", 2);
    assert_eq!(g.to_string(), "turn 1, units [2, 2], 0 quiet turns\n1.#\n.12\n..2");
    let body: String = g.to_string().lines().skip(1).map(|line| format!("{line}\n")).collect();
    assert_eq!(Map::parse(&body).unwrap().setup(2, false).unwrap().0, g.grid);
    wait_all(&mut g);
    assert_eq!(g.to_string().lines().next(), Some("turn 2, units [2, 2], 1 quiet turns"));
    g.end = Some(End { reason: EndReason::NoDeaths, standings: vec![Standing::Drew; 2] });
    assert_eq!(g.to_string().lines().next(), Some("after turn 1, game over (NoDeaths), units [2, 2], 1 quiet turns"));
}

/// eubots.md "Arena" [ours]: `map=standard|corners|FILE` and `unequal=true|false`; a map file's
/// contents go into the config, its syntax is checked at once with line and column.
#[test]
fn options_read_map_files_into_the_config() {
    assert_eq!(Eubots::config_from_options(&[]).unwrap(), EubotsConfig::default());
    let config = Eubots::config_from_options(&pairs(&[("map", "corners"), ("unequal", "true")])).unwrap();
    assert_eq!(config, EubotsConfig { map: MapChoice::Corners, unequal: true });
    assert!(Eubots::new(&config, 4, 0).is_ok());
    let err = Eubots::new(&config, 2, 0).unwrap_err().to_string();
    assert!(err.contains("no built-in map for 2 players"), "{err}");

    let dir = std::env::temp_dir().join(format!("arena-eubots-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "1..\n.#.\n..2\n").unwrap();
    let config = Eubots::config_from_options(&pairs(&[("map", good.to_str().unwrap())])).unwrap();
    assert_eq!(config.map, MapChoice::Text("1..\n.#.\n..2\n".to_string()));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "1..\n.x.\n..2\n").unwrap();
    let err = Eubots::config_from_options(&pairs(&[("map", bad.to_str().unwrap())])).unwrap_err().to_string();
    assert!(err.contains("line 2, column 2"), "{err}");
    let missing = dir.join("missing.txt");
    let err = Eubots::config_from_options(&pairs(&[("map", missing.to_str().unwrap())])).unwrap_err().to_string();
    assert!(err.contains("missing.txt"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();

    let err = Eubots::config_from_options(&pairs(&[("size", "3")])).unwrap_err().to_string();
    assert!(err.contains("unknown option \"size\" (options: map, unequal)"), "{err}");
    let err = Eubots::config_from_options(&pairs(&[("unequal", "yes")])).unwrap_err().to_string();
    assert!(err.contains("expected true or false"), "{err}");
    let names: Vec<&str> = Eubots::option_docs().iter().map(|doc| doc.name).collect();
    assert_eq!(names, ["map", "unequal"]);
}

/// The config (with a map's contents) round-trips through JSON, so a replay is self-contained.
#[test]
fn config_round_trips_through_json() {
    for config in [
        EubotsConfig::default(),
        EubotsConfig { map: MapChoice::Corners, unequal: false },
        EubotsConfig { map: MapChoice::Text("1.2\n".into()), unequal: true },
    ] {
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(serde_json::from_str::<EubotsConfig>(&json).unwrap(), config, "{json}");
    }
}

/// eubots.md "Orders": the fallback is no orders at all (every unit waits, status INVALID), and
/// `random_action` always gives an answer the engine accepts.
#[test]
fn fallback_and_random_answers_are_valid() {
    let g = Eubots::new(&EubotsConfig::default(), 3, 0).unwrap();
    assert_eq!(g.no_action(0), Some(Vec::new()));
    let mut rng = arena_game::new_rng(1);
    for seat in 0..3 {
        for _ in 0..20 {
            let action = g.random_action(seat, &mut rng).unwrap();
            assert_eq!(g.check(seat, &action), Ok(()));
        }
    }
    assert_eq!(g.random_action(3, &mut rng), None);
    assert_eq!(g.check(3, &Vec::new()), Err(Invalid::NotActing { seat: 3 }));
}
