//! The bot-facing helpers on [`View`], on hand-built views: each test cites the suitebot.md rule.

use arena_suitebot::Action::{Down, Hold, Left, PlantBomb, Right, Up};
use arena_suitebot::{BoardEncoding, Bomb, PlayerView, Pos, View};

fn p(x: u16, y: u16) -> Pos {
    Pos::new(x, y)
}

/// Seat 1 of 2 in round 5 on the default board: seat 0's bomb on (1,1) explodes this round and
/// sets off seat 1's bomb on (2,2); seat 1's bomb on (8,8) goes in two rounds.
fn view() -> View {
    let mut points = vec![1; 196];
    points[3 * 14 + 3] = 0;
    points[10 * 14 + 10] = 0;
    points[14 + 13] = 0; // (13,1) was mined
    View {
        seat: 1,
        round: 5,
        rounds: 100,
        width: 14,
        height: 14,
        blast_radius: 1,
        players: vec![
            PlayerView { score: 3, base: p(3, 3), agent: p(0, 0), last_move: Some(Up) },
            PlayerView { score: 0, base: p(10, 10), agent: p(13, 13), last_move: Some(PlantBomb) },
        ],
        points,
        bombs: vec![
            Bomb { at: p(1, 1), owner: 0, countdown: 0 },
            Bomb { at: p(2, 2), owner: 1, countdown: 3 },
            Bomb { at: p(8, 8), owner: 1, countdown: 2 },
        ],
        board: BoardEncoding::Nested,
    }
}

/// suitebot.md "What a bot sees": own player, rounds remaining (this one included), points,
/// bombs, agents and bases by field.
#[test]
fn lookups() {
    let v = view();
    assert_eq!(v.me().unwrap().base, p(10, 10));
    assert_eq!(v.rounds_left(), 96);
    assert_eq!((v.points_at(p(3, 3)), v.points_at(p(4, 3)), v.points_at(p(14, 0))), (0, 1, 0));
    assert_eq!(v.bomb_at(p(2, 2)).map(|bomb| bomb.owner), Some(1));
    assert_eq!(v.bomb_at(p(2, 3)), None);
    assert_eq!((v.agent_at(p(13, 13)), v.agent_at(p(3, 3))), (Some(1), None));
    assert_eq!((v.base_of(p(3, 3)), v.base_of(p(0, 0))), (Some(0), None));
}

/// suitebot.md "Board": the torus helpers.
#[test]
fn torus_helpers() {
    let v = view();
    assert_eq!(v.wrap(-1, -1), p(13, 13));
    assert_eq!(v.neighbour(p(13, 13), Right), p(0, 13));
    assert_eq!(v.neighbour(p(13, 13), Down), p(13, 0));
    assert_eq!(v.neighbour(p(0, 5), Left), p(13, 5));
    assert_eq!(v.neighbour(p(0, 5), Hold), p(0, 5));
    assert_eq!(v.distance(p(0, 0), p(13, 13)), 2);
    assert_eq!(v.distance(p(3, 3), p(10, 10)), 14);
}

/// suitebot.md "Constants" [ours]: the blast area is the wrapped 3x3 square at radius 1.
#[test]
fn blast_helpers() {
    let v = view();
    let area = v.blast_area(p(0, 0));
    assert_eq!(area.len(), 9);
    assert!(v.in_blast(p(0, 0), p(13, 1)) && !v.in_blast(p(0, 0), p(2, 0)));
    // (13,1) was mined: 8 points left around (0,0).
    assert_eq!(v.points_in_blast(p(0, 0)), 8);
    assert_eq!(v.points_in_blast(p(3, 4)), 8, "the base (3,3) holds no point");
}

/// suitebot.md "One round" 4: the chain (1,1) -> (2,2) goes this round; (8,8) in two rounds.
#[test]
fn chain_prediction() {
    let v = view();
    assert_eq!(v.explosion_schedule(), vec![0, 0, 2]);
    let danger = v.danger();
    let at = |x, y| danger[v.torus().index(p(x, y)).unwrap()];
    assert_eq!((at(0, 0), at(3, 3), at(9, 9), at(5, 5)), (Some(0), Some(0), Some(2), None));
}

/// Helpers never panic on a malformed view (a zero-sized board, missing fields or players).
#[test]
fn malformed_views_do_not_panic() {
    let v = View {
        seat: 9,
        round: 200,
        rounds: 100,
        width: 0,
        height: 0,
        blast_radius: 3,
        players: Vec::new(),
        points: Vec::new(),
        bombs: vec![Bomb { at: p(4, 4), owner: 7, countdown: 9 }],
        board: BoardEncoding::Nested,
    };
    assert!(v.me().is_none());
    assert_eq!(v.rounds_left(), 0);
    assert_eq!(v.points_at(p(0, 0)), 0);
    assert!(v.blast_area(p(0, 0)).is_empty());
    assert_eq!(v.explosion_schedule(), vec![9]);
    assert!(v.danger().is_empty());
    assert_eq!(v.neighbour(p(3, 3), Up), p(0, 0));
}
