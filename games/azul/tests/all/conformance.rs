//! The shared conformance kit (docs/design.md#errors-tests-and-habits) plus whole-game properties
//! on random playouts: tile conservation after every step (via `check_invariants`, which the kit
//! calls), the view agreeing with the engine, and the round cap.

use arena_azul::{Azul, AzulConfig, COLOURS, Event, Move, View};
use arena_game::conformance::{Plan, check_game};
use arena_game::{Game, new_rng};

/// The `Game` contract and azul.md's invariants (100 tiles accounted for, one marker, floors of at
/// most 7, scores never negative) after every step of 200 seeded random playouts.
#[test]
fn conformance_kit() {
    check_game::<Azul>(&Plan { config: AzulConfig::default(), players: vec![2], seeds: 0..200, max_steps: 10_000 });
}

/// Every move value a bot could send: all sources, colours and lines, including out-of-range ones.
fn every_move() -> Vec<Move> {
    let mut moves = Vec::new();
    for source in 0..=7 {
        for colour in COLOURS {
            for line in 0..=7 {
                moves.push(Move { source, colour, line });
            }
        }
    }
    moves
}

/// azul.md "What a bot sees": the view's `check` and `legal_moves` are the engine's, for both
/// seats, in every state of random playouts; `legal_moves` lists exactly the accepted moves in
/// source, colour, line order.
#[test]
fn view_agrees_with_the_engine() {
    let all = every_move();
    for seed in 0..20 {
        let mut game = Azul::new(&AzulConfig::default(), 2, seed).unwrap();
        let mut rng = new_rng(seed);
        while !game.is_over() {
            for seat in 0..2 {
                let view: View = game.observe(seat);
                let accepted: Vec<Move> = all.iter().copied().filter(|mv| game.check(seat, mv).is_ok()).collect();
                assert_eq!(view.legal_moves(), accepted, "seed {seed}, seat {seat}");
                for mv in &all {
                    assert_eq!(view.check(mv), game.check(seat, mv), "seed {seed}, seat {seat}, {mv:?}");
                }
                let expected_fallback = if seat == usize::from(view.to_move) { view.fallback_move() } else { None };
                assert_eq!(game.no_action(seat), expected_fallback);
            }
            let seat = game.to_act()[0];
            let mv = game.random_action(seat, &mut rng);
            assert!(mv.is_some());
            game.step(&[(seat, mv)]).unwrap();
        }
    }
}

/// azul.md "What a bot sees" fallback and "End of the game" [ours]: players who only ever play
/// the fallback put every tile on the floor, so no wall ever gains a tile; the game then ends at
/// the 100-round cap, both scores 0, a draw.
#[test]
fn fallback_only_play_reaches_the_round_cap() {
    let mut game = Azul::new(&AzulConfig::default(), 2, 5).unwrap();
    let mut last = Vec::new();
    let mut steps = 0;
    while !game.is_over() {
        let seat = game.to_act()[0];
        last = game.step(&[(seat, None)]).unwrap();
        game.check_invariants().unwrap();
        steps += 1;
    }
    assert!(steps > 100, "at least one move per round");
    assert_eq!(game.observe(0).round, 100);
    let Some(Event::GameEnded { reason, scores, .. }) = last.last() else {
        panic!("no game end: {last:?}");
    };
    assert_eq!(*reason, arena_azul::EndReason::RoundCap);
    assert_eq!(*scores, [0, 0]);
    let outcome = game.outcome();
    assert_eq!(outcome.ranks, vec![1, 1]);
    assert_eq!(outcome.winner(), None);
}
