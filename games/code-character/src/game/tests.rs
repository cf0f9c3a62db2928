//! Engine tests on hand-built states: each cites the code-character.md rule it checks. Positions
//! given to the helpers are in engine coordinates (player 1's view) unless a name says "own".

use super::*;
use crate::ENEMY_ID_BASE;
use crate::command::CommandError;
use crate::rules::{MAX_TOWER_HP, TOWER_MIN_BLAST_AGE};
use crate::view::BotView;
use crate::{BotStatus, Order};
use arena_game::StepError;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// A game on the default map with no units yet (player 1's ids continue from 100, player 2's
/// from 500, so that an id names one unit in these tests).
fn empty(turns: u32) -> CodeCharacter {
    let config = CodeCharacterConfig { turns, map: None };
    let mut game = CodeCharacter::new(&config, 2, 0).unwrap();
    for (player, next) in game.players.iter_mut().zip([100, 500]) {
        player.bots.clear();
        player.next_id = next;
    }
    game
}

/// The next id of `seat` (its own numbering).
fn next_id(game: &mut CodeCharacter, seat: usize) -> u32 {
    let id = game.players[seat].next_id;
    game.players[seat].next_id += 1;
    id
}

/// Places a bot of `seat` at engine position `at`; returns its id.
fn put_bot(game: &mut CodeCharacter, seat: usize, at: Vec2) -> u32 {
    let id = next_id(game, seat);
    let pos = if seat == 0 { at } else { at.mirrored() };
    game.players[seat].bots.push(Bot {
        id,
        hp: MAX_BOT_HP,
        pos,
        state: BotState::Idle,
        intent: Intent::None,
        extra_move: None,
        held: None,
    });
    id
}

/// Places a tower of `seat` on engine tile `tile`; returns its id.
fn put_tower(game: &mut CodeCharacter, seat: usize, tile: Tile, age: u32) -> u32 {
    let id = next_id(game, seat);
    let tile = if seat == 0 { tile } else { tile.mirrored() };
    game.players[seat].towers.push(Tower {
        id,
        hp: MAX_TOWER_HP,
        tile,
        age,
        state: TowerState::Idle,
        blast_ordered: false,
    });
    id
}

fn bot(game: &CodeCharacter, id: u32) -> &Bot {
    game.players.iter().flat_map(|p| &p.bots).find(|b| b.id == id).unwrap()
}

fn tower(game: &CodeCharacter, id: u32) -> &Tower {
    game.players.iter().flat_map(|p| &p.towers).find(|t| t.id == id).unwrap()
}

/// Plays one turn with the given commands (empty lists are answers with no commands).
fn play(game: &mut CodeCharacter, seat0: &[Command], seat1: &[Command]) -> Vec<Event> {
    let events = game.step(&[(0, Some(seat0.to_vec())), (1, Some(seat1.to_vec()))]).unwrap();
    game.check_invariants().unwrap();
    events
}

fn idle(game: &mut CodeCharacter) -> Vec<Event> {
    play(game, &[], &[])
}

fn cmd(id: u32, order: Order) -> Command {
    Command::new(id, order)
}

/// code-character.md "Constants" and our ids (see `perspective`): 20 bots each at their
/// bases; each player numbers its own units 1..=20 and sees the enemy's as ENEMY_ID_BASE + k,
/// the same in both seats; each turn one spawn per player, each taking its player's next id.
#[test]
fn start_and_spawns() {
    let mut game = CodeCharacter::new(&CodeCharacterConfig::default(), 2, 0).unwrap();
    let view = game.observe(0);
    assert_eq!(view.bots.len(), 20);
    assert_eq!(view.bots.iter().map(|b| b.id).collect::<Vec<_>>(), (1..=20).collect::<Vec<_>>());
    let enemy_ids: Vec<u32> = (1..=20).map(|k| ENEMY_ID_BASE + k).collect();
    assert_eq!(view.enemy_bots.iter().map(|b| b.id).collect::<Vec<_>>(), enemy_ids);
    let mut seat_one = game.observe(1);
    seat_one.seat = 0;
    assert_eq!(seat_one, view, "both seats see the same view");
    assert!(view.bots.iter().all(|b| b.position == v(0.5, 0.5) && b.hp == 200 && b.state == BotStatus::Idle));
    assert!(view.enemy_bots.iter().all(|b| b.position == v(29.5, 29.5)));
    // Player 2 sees itself at (0.5, 0.5) too.
    assert!(game.observe(1).bots.iter().all(|b| b.position == v(0.5, 0.5)));
    let events = idle(&mut game);
    assert!(events.ends_with(&[Event::Spawned { seat: 0, id: 21 }, Event::Spawned { seat: 1, id: 21 }]));
    assert_eq!(game.observe(1).bots.last().unwrap().id, 21);
    assert_eq!(game.observe(0).enemy_bots.last().unwrap().id, ENEMY_ID_BASE + 21);
    assert_eq!(game.to_act(), vec![0, 1]);
    assert_eq!(game.no_action(0), None);
}

/// code-character.md "Constants": no spawn at 150 bots (DEAD ones not yet removed count).
#[test]
fn spawning_stops_at_150_bots() {
    let mut game = empty(10);
    for _ in 0..150 {
        put_bot(&mut game, 0, v(3.5, 3.5));
    }
    put_bot(&mut game, 1, v(25.5, 25.5));
    game.players[0].bots[0].state = BotState::Dead;
    game.players[0].bots[0].hp = 0;
    let events = idle(&mut game);
    // The dead bot was removed before the update, so there is room for one.
    assert!(events.contains(&Event::Spawned { seat: 0, id: 250 }));
    assert_eq!(game.players[0].bots.len(), 150);
    let events = idle(&mut game);
    assert!(!events.iter().any(|e| matches!(e, Event::Spawned { seat: 0, .. })));
    assert!(events.iter().any(|e| matches!(e, Event::Spawned { seat: 1, .. })));
}

/// code-character.md "Blast damage": trunc(50 x (2 - d) / 2) on enemy bots at d = 0.5, 1,
/// sqrt(2), 2 and 2.5 (37, 25, 14, 0, untouched); no friendly fire; the blaster dies.
#[test]
fn bot_blast_falloff_on_enemies() {
    let mut game = empty(10);
    let blaster = put_bot(&mut game, 0, v(5.5, 5.5));
    let friend = put_bot(&mut game, 0, v(5.5, 6.0));
    let targets: Vec<u32> = [v(5.5, 6.0), v(6.5, 5.5), v(6.5, 6.5), v(5.5, 3.5), v(3.5, 4.0)]
        .into_iter()
        .map(|p| put_bot(&mut game, 1, p))
        .collect();
    let events = play(&mut game, &[cmd(blaster, Order::Blast)], &[]);
    assert!(events.contains(&Event::BotBlasted { seat: 0, id: blaster, at: v(5.5, 5.5) }));
    let hps: Vec<u32> = targets.iter().map(|&id| bot(&game, id).hp).collect();
    assert_eq!(hps, [200 - 37, 200 - 25, 200 - 14, 200, 200]);
    assert_eq!(bot(&game, friend).hp, 200, "no friendly fire");
    assert_eq!((bot(&game, blaster).hp, bot(&game, blaster).state), (0, BotState::Dead));
    assert!(events.contains(&Event::Died { seat: 0, id: blaster, tower: false }));
}

/// code-character.md "Blast damage": a tower blast reaches 6 from its tile centre:
/// trunc(500 x (6 - d) / 6) at d = 0.5, 3 and 5 (458, 250, 83), and towers are hit at their
/// centres.
#[test]
fn tower_blast_falloff() {
    let mut game = empty(10);
    let t = put_tower(&mut game, 1, Tile::new(20, 20), TOWER_MIN_BLAST_AGE);
    let near = put_bot(&mut game, 0, v(20.5, 21.0));
    let mid = put_bot(&mut game, 0, v(23.5, 20.5));
    let far = put_bot(&mut game, 0, v(20.5, 25.5));
    let enemy_tower = put_tower(&mut game, 0, Tile::new(24, 20), 0);
    let events = play(&mut game, &[], &[cmd(t, Order::Blast)]);
    // Events name the tile in its owner's view: engine [20, 20] is [9, 9] for player 2.
    assert!(events.contains(&Event::TowerBlasted { seat: 1, id: t, tile: Tile::new(9, 9) }));
    assert_eq!(bot(&game, near).hp, 0, "458 > 200");
    assert_eq!(bot(&game, mid).hp, 0, "250 > 200");
    assert_eq!(bot(&game, far).hp, 200 - 83);
    assert_eq!(tower(&game, enemy_tower).hp, 600 - 166, "d = 4: 166.67 truncates");
    assert_eq!(tower(&game, t).state, TowerState::Dead);
}

/// code-character.md "Blast damage": several blasts in one turn stack, and all see pre-move
/// positions (a target walking away is still hit where it stood).
#[test]
fn blasts_stack_and_see_pre_move_positions() {
    let mut game = empty(10);
    let a = put_bot(&mut game, 0, v(5.5, 5.0));
    let b = put_bot(&mut game, 0, v(5.5, 6.0));
    let target = put_bot(&mut game, 1, v(5.5, 5.5));
    let events =
        play(&mut game, &[cmd(a, Order::Blast), cmd(b, Order::Blast)], &[cmd(target, Order::Move(v(24.5, 12.5)))]);
    // d = 0.5 from both: 37 + 37.
    assert_eq!(bot(&game, target).hp, 200 - 74);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::BotBlasted { .. })).count(), 2);
    // It survived, so it moved (its own view: 1.0 toward its target).
    assert_ne!(bot(&game, target).pos, v(5.5, 5.5).mirrored());
}

/// code-character.md "One turn" 4.4: a bot killed this turn drops its pending move and leaves
/// the flag count at once; the killer and victim blast simultaneously.
#[test]
fn mutual_blasts_and_dropped_moves() {
    let mut game = empty(10);
    let a = put_bot(&mut game, 0, v(13.5, 13.5));
    let b = put_bot(&mut game, 1, v(13.5, 13.6));
    let events = play(&mut game, &[cmd(a, Order::Blast)], &[cmd(b, Order::Blast)]);
    assert_eq!(bot(&game, a).state, BotState::Dead);
    assert_eq!(bot(&game, b).state, BotState::Dead);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Died { .. })).count(), 2);
    // Both died on flags: neither scores.
    assert!(events.contains(&Event::Scored { points: [0, 0], winner: None, scores: [0, 0] }));

    let mut game = empty(10);
    let walker = put_bot(&mut game, 0, v(12.5, 12.5));
    let t = put_tower(&mut game, 1, Tile::new(10, 10), TOWER_MIN_BLAST_AGE);
    play(&mut game, &[cmd(walker, Order::Move(v(13.5, 13.5)))], &[cmd(t, Order::Blast)]);
    // d = 2.83 from the tower: 264 damage kills; the move is dropped.
    assert_eq!(bot(&game, walker).pos, v(12.5, 12.5));
    assert_eq!(bot(&game, walker).state, BotState::Dead);
}

/// code-character.md "One turn" 4.6: a transform makes a tower with the bot's id, hp = 3 x the
/// bot's hp, at the tile centre; the bot is DEAD (visible one more turn) and the tile blocks
/// at once.
#[test]
fn transform_keeps_the_id_and_triples_hp() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(8.25, 9.75));
    game.players[0].bots[0].hp = 120;
    let events = play(&mut game, &[cmd(b, Order::Transform)], &[]);
    assert!(events.contains(&Event::Transformed { seat: 0, id: b, tile: Tile::new(8, 9), hp: 360 }));
    let t = tower(&game, b);
    assert_eq!((t.id, t.hp, t.tile, t.age, t.state), (b, 360, Tile::new(8, 9), 0, TowerState::Idle));
    assert_eq!(bot(&game, b).state, BotState::Dead);
    let view = game.observe(0);
    assert_eq!(view.towers[0].position, v(8.5, 9.5));
    assert_eq!(view.bot(b).unwrap().state, BotStatus::Dead, "DEAD units stay visible for one turn");
    assert!(game.blocked().contains(Tile::new(8, 9)));
    idle(&mut game);
    assert!(game.observe(0).bot(b).is_none());
    // Player 2 sees the tower mirrored.
    assert_eq!(game.observe(1).enemy_towers[0].tile, Tile::new(21, 20));
    assert_eq!(game.observe(1).enemy_towers[0].position, v(21.5, 20.5));
}

/// code-character.md "Units and commands": a tower first accepts a blast command on the fourth
/// turn after the one it was built in (age 3 at command time: ages are 0, 1, 2 before).
#[test]
fn tower_blasts_from_the_fourth_turn_after_it_was_built() {
    let mut game = empty(20);
    let b = put_bot(&mut game, 0, v(8.5, 8.5));
    let enemy = put_bot(&mut game, 1, v(8.5, 10.5));
    play(&mut game, &[cmd(b, Order::Transform)], &[]);
    for turn in 1..=3 {
        let events = play(&mut game, &[cmd(b, Order::Blast)], &[]);
        let age = turn - 1;
        let rejection = Rejection { command: cmd(b, Order::Blast), reason: CommandError::TowerTooYoung { age } };
        assert!(events.contains(&Event::Rejected { seat: 0, rejection }), "turn {turn} after: {events:?}");
        assert_eq!(game.observe(0).rejected, [rejection], "reported in the next observation");
        assert_eq!(tower(&game, b).state, TowerState::Idle, "an early blast is not remembered");
    }
    let events = play(&mut game, &[cmd(b, Order::Blast)], &[]);
    assert!(events.contains(&Event::TowerBlasted { seat: 0, id: b, tile: Tile::new(8, 8) }));
    assert!(game.observe(0).rejected.is_empty());
    assert_eq!(bot(&game, enemy).state, BotState::Dead);
}

/// code-character.md "One turn" 4.6: two bots requesting a transform on one tile: neither
/// succeeds, and both keep trying.
#[test]
fn two_transforms_on_one_tile_both_fail() {
    let mut game = empty(10);
    let a = put_bot(&mut game, 0, v(6.2, 6.2));
    let b = put_bot(&mut game, 0, v(6.8, 6.7));
    play(&mut game, &[cmd(a, Order::Transform), cmd(b, Order::Transform)], &[]);
    assert!(game.players[0].towers.is_empty());
    assert_eq!(bot(&game, a).state, BotState::Transform);
    assert_eq!(bot(&game, b).state, BotState::Transform);
    // A bot in TRANSFORM ignores every order (the original's rule): told to walk away, b
    // stays, so both keep waiting.
    play(&mut game, &[cmd(b, Order::Move(v(9.5, 6.5)))], &[]);
    assert!(game.observe(0).rejected.is_empty(), "the order is accepted");
    assert!(game.players[0].towers.is_empty());
    assert_eq!((bot(&game, b).state, bot(&game, b).pos), (BotState::Transform, v(6.8, 6.7)));
    // When b dies (hit by an enemy blast a does not reach), a succeeds on the next turn without
    // a new command.
    game.players[0].bots.iter_mut().find(|x| x.id == b).unwrap().hp = 1;
    let blaster = put_bot(&mut game, 1, v(7.5, 8.2));
    let events = play(&mut game, &[], &[cmd(blaster, Order::Blast)]);
    assert!(events.contains(&Event::Died { seat: 0, id: b, tower: false }), "{events:?}");
    play(&mut game, &[], &[]);
    assert_eq!(tower(&game, a).tile, Tile::new(6, 6));
}

/// code-character.md "Perspective" and 4.6: an enemy bot on a grid line counts on the tile its
/// own floor names: player 2's bot at engine x = 7.0 counts on row 6, so it blocks a transform
/// on [6, 6] but not on [7, 6].
#[test]
fn enemy_on_a_grid_line_counts_on_its_own_tile() {
    let mut game = empty(10);
    let a = put_bot(&mut game, 0, v(6.5, 6.5));
    let c = put_bot(&mut game, 0, v(7.5, 6.5));
    put_bot(&mut game, 1, v(7.0, 6.5));
    play(&mut game, &[cmd(a, Order::Transform), cmd(c, Order::Transform)], &[]);
    assert_eq!(bot(&game, a).state, BotState::Transform, "not alone on [6, 6]");
    assert_eq!(tower(&game, c).tile, Tile::new(7, 6));
    // The enemy bot stands on the edge of the new tower: allowed, and it can still walk away.
    assert_eq!(bot(&game, game.players[1].bots[0].id).state, BotState::Idle);
}

/// code-character.md "Perspective": player 2's bot on the engine grid line x = 7 transforms on
/// the tile its own floor names: engine row 6 (ceil(7) - 1), not row 7.
#[test]
fn player_two_transforms_by_its_own_floor() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 1, v(7.0, 6.5));
    let events = play(&mut game, &[], &[cmd(b, Order::Transform)]);
    // In its own view (and its events) the tower is on [23, 23], centre (23.5, 23.5).
    assert!(events.contains(&Event::Transformed { seat: 1, id: b, tile: Tile::new(23, 23), hp: 600 }));
    assert_eq!(game.observe(1).towers[0].position, v(23.5, 23.5));
    assert_eq!(game.observe(0).enemy_towers[0].tile, Tile::new(6, 6));
}

/// code-character.md "Units and commands": transform(p) walks there and the tower appears on the
/// turn after arrival, on the tile of p.
#[test]
fn transform_at_walks_then_builds() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    play(&mut game, &[cmd(b, Order::TransformAt(v(2.5, 4.25)))], &[]);
    assert_eq!(game.observe(0).bots[0].state, BotStatus::Transform, "MOVE_TO_TRANSFORM shows as TRANSFORM");
    let events = idle(&mut game);
    assert_eq!(bot(&game, b).pos, v(2.5, 4.25), "arrived");
    assert!(!events.iter().any(|e| matches!(e, Event::Transformed { .. })));
    let events = idle(&mut game);
    assert!(events.contains(&Event::Transformed { seat: 0, id: b, tile: Tile::new(2, 4), hp: 600 }));
}

/// code-character.md "One turn" 4.6: a bot cannot transform on a tower's tile or on water
/// (possible when standing on a grid line whose own-floor tile is water).
#[test]
fn no_tower_on_water_or_towers() {
    let mut game = empty(10);
    // Engine x = 14.0 is the top edge of the water row 14: player 1's floor says water.
    let a = put_bot(&mut game, 0, v(14.0, 5.5));
    play(&mut game, &[cmd(a, Order::Transform)], &[]);
    assert!(game.players[0].towers.is_empty());
    assert_eq!(bot(&game, a).state, BotState::Transform, "it keeps trying");
}

/// code-character.md "Units and commands": transform is refused on base tiles and at 100
/// towers, and the refusal is reported back in the next observation.
#[test]
fn transform_refused_on_bases_and_at_100_towers() {
    let mut game = empty(10);
    let home = put_bot(&mut game, 0, v(0.5, 0.9));
    let raider = put_bot(&mut game, 0, v(5.5, 5.5));
    let p2 = put_bot(&mut game, 1, v(28.5, 28.5));
    let orders0 = [cmd(home, Order::Transform), cmd(raider, Order::TransformAt(v(29.5, 29.2)))];
    // Player 2's own base is (0.5, 0.5) in its view too.
    let orders1 = [cmd(p2, Order::TransformAt(v(0.3, 0.7)))];
    play(&mut game, &orders0, &orders1);
    let reasons: Vec<CommandError> = game.observe(0).rejected.iter().map(|r| r.reason).collect();
    assert_eq!(reasons, [CommandError::BaseTile, CommandError::BaseTile]);
    assert_eq!(game.observe(1).rejected[0].reason, CommandError::BaseTile);
    assert!(game.players.iter().all(|p| p.towers.is_empty()));

    let mut game = empty(10);
    for i in 0..100u8 {
        put_tower(&mut game, 0, Tile::new(1 + i / 12, 1 + i % 12), 5);
    }
    let b = put_bot(&mut game, 0, v(20.5, 3.5));
    play(&mut game, &[cmd(b, Order::Transform)], &[]);
    assert_eq!(game.observe(0).rejected[0].reason, CommandError::TowerLimit);
    let events = play(&mut game, &[cmd(b, Order::TransformAt(v(20.5, 5.5)))], &[]);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::Rejected { rejection: Rejection { reason: CommandError::TowerLimit, .. }, .. }
        ))
    );
    assert_eq!(game.players[0].towers.len(), 100);
}

/// [ours] code-character.md 4.6: bots already waiting to transform cannot push a player past
/// 100 towers together.
#[test]
fn waiting_transforms_respect_the_tower_limit() {
    let mut game = empty(10);
    for i in 0..98u8 {
        put_tower(&mut game, 0, Tile::new(1 + i / 12, 1 + i % 12), 5);
    }
    let bots: Vec<u32> = (0..4).map(|i| put_bot(&mut game, 0, v(20.5, 2.5 + 2.0 * f64::from(i)))).collect();
    let orders: Vec<Command> = bots.iter().map(|&id| cmd(id, Order::Transform)).collect();
    play(&mut game, &orders, &[]);
    assert_eq!(game.players[0].towers.len(), 100);
    let waiting = bots.iter().filter(|&&id| bot(&game, id).state == BotState::Transform).count();
    assert_eq!(waiting, 2);
}

/// code-character.md "Units and commands" and "Pathfinding": a move to an unreachable target
/// (inside an enemy tower's tile: only the terrain is checked) waits in MOVE without moving,
/// and goes once the target becomes reachable (the tower blasted and was removed).
#[test]
fn unreachable_move_waits_until_reachable() {
    let mut game = empty(20);
    let t = put_tower(&mut game, 1, Tile::new(5, 8), 0);
    let walker = put_bot(&mut game, 0, v(5.5, 5.5));
    play(&mut game, &[cmd(walker, Order::Move(v(5.5, 8.5)))], &[]);
    for _ in 0..3 {
        assert_eq!(bot(&game, walker).pos, v(5.5, 5.5));
        assert_eq!(bot(&game, walker).state, BotState::Move);
        idle(&mut game);
    }
    assert_eq!(tower(&game, t).age, 4);
    // The tower blasts (killing the walker would spoil the test: move it out of reach first).
    game.players[0].bots[0].pos = v(5.5, 0.5);
    play(&mut game, &[], &[cmd(t, Order::Blast)]);
    assert_eq!(bot(&game, walker).pos, v(5.5, 0.5), "still blocked during the blast turn");
    assert_eq!(tower(&game, t).state, TowerState::Dead);
    idle(&mut game);
    assert_eq!(bot(&game, walker).pos, v(5.5, 1.5), "the dead tower was removed: the way is free");
    for _ in 0..7 {
        idle(&mut game);
    }
    assert_eq!(bot(&game, walker).pos, v(5.5, 8.5));
    assert_eq!((bot(&game, walker).state, bot(&game, walker).intent), (BotState::Idle, Intent::None));
}

/// code-character.md "Units and commands": commands persist; a bot given no command continues,
/// and a new command replaces the intent.
#[test]
fn intents_persist_until_replaced() {
    let mut game = empty(20);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    play(&mut game, &[cmd(b, Order::Move(v(2.5, 6.5)))], &[]);
    assert_eq!(bot(&game, b).pos, v(2.5, 3.5));
    game.step(&[(0, None), (1, None)]).unwrap();
    assert_eq!(bot(&game, b).pos, v(2.5, 4.5), "no answer: the intent continues");
    play(&mut game, &[cmd(b, Order::Move(v(2.5, 2.5)))], &[]);
    assert_eq!(bot(&game, b).pos, v(2.5, 3.5));
    let view = game.observe(0);
    assert_eq!(view.bots[0].intent, Intent::Move(v(2.5, 2.5)));
    assert_eq!(view.bots[0].state, BotStatus::Move);
    // Player 2 sees the intent mirrored.
    assert_eq!(game.observe(1).enemy_bots[0].intent, Intent::Move(v(27.5, 27.5)));
}

/// code-character.md "Units and commands": one command per unit per turn; two are an error and
/// both are ignored. Unknown and enemy ids are reported (the enemy's unit `k` is
/// `ENEMY_ID_BASE + k`; `k` alone names none of the player's own units here).
#[test]
fn duplicate_unknown_and_enemy_commands() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let e = put_bot(&mut game, 1, v(20.5, 20.5));
    let enemy = ENEMY_ID_BASE + e;
    let orders =
        [cmd(b, Order::Move(v(2.5, 6.5))), cmd(b, Order::Blast), cmd(enemy, Order::Blast), cmd(e, Order::Blast)];
    play(&mut game, &orders, &[]);
    assert_eq!(bot(&game, b).state, BotState::Idle);
    assert_eq!(bot(&game, e).state, BotState::Idle);
    let reasons: Vec<CommandError> = game.observe(0).rejected.iter().map(|r| r.reason).collect();
    assert_eq!(
        reasons,
        [CommandError::DuplicateUnit, CommandError::DuplicateUnit, CommandError::EnemyUnit, CommandError::UnknownUnit]
    );
    idle(&mut game);
    assert!(game.observe(0).rejected.is_empty(), "reports last one turn");
}

/// code-character.md "Units and commands": blast(p) walks there and blasts on the turn after
/// arrival.
#[test]
fn blast_at_walks_then_blasts() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let victim = put_bot(&mut game, 1, v(2.5, 5.0));
    play(&mut game, &[cmd(b, Order::BlastAt(v(2.5, 4.5)))], &[]);
    assert_eq!(game.observe(0).bots[0].state, BotStatus::Blast, "MOVE_TO_BLAST shows as BLAST");
    let events = play(&mut game, &[], &[]);
    assert_eq!(bot(&game, b).pos, v(2.5, 4.5), "arrived");
    assert!(!events.iter().any(|e| matches!(e, Event::BotBlasted { .. })));
    let events = play(&mut game, &[], &[]);
    assert!(events.contains(&Event::BotBlasted { seat: 0, id: b, at: v(2.5, 4.5) }));
    assert_eq!(bot(&game, victim).hp, 200 - 37);
}

/// code-character.md "One turn" 4.7: a tower that died this turn still scores this turn; it
/// leaves the count when removed next turn. Equal points give nobody anything.
#[test]
fn dead_tower_still_scores_and_ties_give_nothing() {
    let mut game = empty(10);
    let flag_tower = put_tower(&mut game, 0, Tile::new(13, 13), 0);
    let killer = put_tower(&mut game, 1, Tile::new(17, 13), TOWER_MIN_BLAST_AGE);
    // The killer is on land; player 2 gets points from bots on flags: 3 bots = 30 > 25.
    for y in [14.5, 15.5, 16.5] {
        put_bot(&mut game, 1, v(16.5, y));
    }
    let events = play(&mut game, &[], &[cmd(killer, Order::Blast)]);
    // d = 4 from the killer: 166 damage, the tower lives; the bots on flags are far enough
    // from player 1 (it has none).
    assert_eq!(tower(&game, flag_tower).hp, 600 - 166);
    assert!(events.contains(&Event::Scored { points: [25, 30], winner: Some(1), scores: [0, 1] }));

    let mut game = empty(10);
    let t = put_tower(&mut game, 0, Tile::new(13, 13), 0);
    game.players[0].towers[0].hp = 100;
    let killer = put_tower(&mut game, 1, Tile::new(16, 16), TOWER_MIN_BLAST_AGE);
    put_bot(&mut game, 1, v(16.5, 15.5));
    put_bot(&mut game, 1, v(15.5, 16.5));
    put_bot(&mut game, 1, v(15.5, 15.5));
    let events = play(&mut game, &[], &[cmd(killer, Order::Blast)]);
    assert_eq!(tower(&game, t).state, TowerState::Dead);
    // Player 1: the dead tower, 25. Player 2: three bots, 30, plus the blasted killer on a
    // flag (dead this turn, still counted), 25.
    assert!(events.contains(&Event::Scored { points: [25, 55], winner: Some(1), scores: [0, 1] }));
    let events = idle(&mut game);
    assert!(events.contains(&Event::Scored { points: [0, 30], winner: Some(1), scores: [0, 2] }));

    let mut game = empty(10);
    put_bot(&mut game, 0, v(13.5, 13.5));
    put_bot(&mut game, 0, v(14.5, 13.5));
    put_tower(&mut game, 0, Tile::new(14, 14), 0);
    put_bot(&mut game, 1, v(16.5, 16.5));
    put_bot(&mut game, 1, v(15.5, 16.5));
    put_tower(&mut game, 1, Tile::new(15, 15), 0);
    for _ in 0..3 {
        let events = idle(&mut game);
        assert!(events.contains(&Event::Scored { points: [45, 45], winner: None, scores: [0, 0] }));
    }
    assert_eq!(game.outcome(), Outcome { scores: vec![0, 0], ranks: vec![1, 1] });
}

/// code-character.md "One turn" 4.7: a bot counts by its tile in its own view: on the grid
/// line x = 13 (land row 12 above, flag row 13 below) player 1's bot counts, player 2's (same
/// engine line, its floor is row 12) does not.
#[test]
fn flag_counting_on_grid_lines() {
    let mut game = empty(10);
    put_bot(&mut game, 0, v(13.0, 13.5));
    put_bot(&mut game, 1, v(13.0, 14.5));
    let events = idle(&mut game);
    assert!(events.contains(&Event::Scored { points: [10, 0], winner: Some(0), scores: [1, 0] }));
}

/// code-character.md "One turn" 5: the game ends after NUM_TURNS turns; more game score wins.
#[test]
fn the_game_ends_after_its_turns() {
    let mut game = empty(3);
    put_bot(&mut game, 0, v(13.5, 13.5));
    idle(&mut game);
    idle(&mut game);
    let events = idle(&mut game);
    assert_eq!(events.last(), Some(&Event::GameEnded { scores: [3, 0], winner: Some(0) }));
    assert!(game.is_over());
    assert!(game.to_act().is_empty());
    assert_eq!(game.step(&[(0, None), (1, None)]), Err(StepError::GameOver));
    assert_eq!(game.check(0, &vec![]), Err(Invalid::GameOver));
    assert_eq!(game.outcome(), Outcome { scores: vec![3, 0], ranks: vec![1, 2] });
}

/// A malformed answer is a typed `Invalid` and `step` refuses it, changing nothing.
#[test]
fn malformed_answers_are_refused_whole() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let long = vec![cmd(b, Order::Blast); crate::MAX_COMMANDS + 1];
    assert_eq!(game.check(0, &long), Err(Invalid::TooManyCommands { count: 251, max: 250 }));
    let nan = vec![cmd(b, Order::Move(v(f64::INFINITY, 1.0)))];
    assert_eq!(game.check(1, &nan), Err(Invalid::NonFinite { index: 0 }));
    assert_eq!(game.check(2, &vec![]), Err(Invalid::NoSuchSeat { seat: 2 }));
    let hash = game.state_hash();
    let refused = game.step(&[(0, Some(nan)), (1, None)]);
    assert!(matches!(refused, Err(StepError::Invalid { seat: 0, .. })), "{refused:?}");
    assert_eq!(game.state_hash(), hash);
}

/// Options: `turns=N`, and `map=FILE` keeps the file's contents (replays are self-contained);
/// a non-symmetric map file is refused naming the line and column.
#[test]
fn options_and_map_files() {
    let pairs = |list: &[(&str, &str)]| list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let config = CodeCharacter::config_from_options(&pairs(&[("turns", "50")])).unwrap();
    assert_eq!(config, CodeCharacterConfig { turns: 50, map: None });
    assert!(CodeCharacter::config_from_options(&pairs(&[("turns", "0")])).is_err());
    // At most 100000 turns [ours], so that own ids stay below ENEMY_ID_BASE.
    assert!(CodeCharacter::config_from_options(&pairs(&[("turns", "100000")])).is_ok());
    assert!(CodeCharacter::config_from_options(&pairs(&[("turns", "100001")])).is_err());
    let too_long = CodeCharacterConfig { turns: 100_001, map: None };
    assert!(CodeCharacter::new(&too_long, 2, 0).is_err());
    assert!(CodeCharacter::config_from_options(&pairs(&[("size", "3")])).is_err());

    let dir = std::env::temp_dir().join(format!("cc-map-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    let mut text = Map::default().to_text();
    // Two symmetric land tiles in the water.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[14].replace_range(3..4, "L");
    lines[15].replace_range(26..27, "L");
    text = lines.join("\n");
    std::fs::write(&good, &text).unwrap();
    let config = CodeCharacter::config_from_options(&pairs(&[("map", good.to_str().unwrap())])).unwrap();
    assert_eq!(config.map.as_deref(), Some(text.as_str()));
    let game = CodeCharacter::new(&config, 2, 0).unwrap();
    assert_eq!(game.map().terrain(Tile::new(14, 3)), Terrain::Land);
    assert_eq!(game.static_view(1).map.terrain(Tile::new(14, 3)), Terrain::Land);

    let bad = dir.join("bad.txt");
    lines[15].replace_range(26..27, "W");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let err = CodeCharacter::config_from_options(&pairs(&[("map", bad.to_str().unwrap())])).unwrap_err();
    assert!(err.to_string().contains("line 15, column 4"), "{err}");
    let missing = CodeCharacter::config_from_options(&pairs(&[("map", "/nonexistent/map.txt")])).unwrap_err();
    assert!(missing.to_string().contains("cannot read"), "{missing}");
    // A config carrying bad contents (a hand-edited replay) is refused by `new`.
    let config = CodeCharacterConfig { turns: 5, map: Some(lines.join("\n")) };
    assert!(CodeCharacter::new(&config, 2, 0).is_err());
    assert!(CodeCharacter::new(&CodeCharacterConfig::default(), 3, 0).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// code-character.md "What a bot sees": the static part (terrain and flags in the seat's own
/// view).
#[test]
fn static_view_per_seat() {
    let game = empty(77);
    let s0 = game.static_view(0);
    let s1 = game.static_view(1);
    assert_eq!((s0.seat, s1.seat, s0.turns), (0, 1, 77));
    assert_eq!(s0.flags.len(), 16);
    assert_eq!(s0.flags[0], v(13.5, 13.5));
    assert_eq!(s1.flags, s0.flags, "the default map's flags are symmetric");
    assert_eq!(s1.base, v(0.5, 0.5));
}

/// The view's helpers agree with the engine: nearest free tile skips occupied tiles, unit by id.
#[test]
fn view_helpers() {
    let mut game = empty(10);
    let a = put_bot(&mut game, 0, v(3.5, 3.5));
    put_bot(&mut game, 1, v(4.0, 3.5));
    put_tower(&mut game, 1, Tile::new(2, 3), 0);
    let view = game.observe(0);
    let statics = game.static_view(0);
    assert_eq!(view.bot(a).map(|b: &BotView| b.position), Some(v(3.5, 3.5)));
    assert!(view.is_own(a));
    assert_eq!(view.tower_tiles(), [Tile::new(2, 3)]);
    // The enemy on the grid line x = 4 counts on row 3 (its own floor).
    assert_eq!(view.bot_tiles(), [Tile::new(3, 3), Tile::new(3, 3)]);
    // From [3, 3]: up is the tower, down [4, 3] is free.
    assert_eq!(view.nearest_free_tile(&statics, v(3.5, 3.5)), Some(Tile::new(4, 3)));
    assert_eq!(view.nearest_flag(&statics, v(3.5, 3.5)), Some(v(13.5, 13.5)));
    let results = view.check_commands(&statics, &[cmd(a, Order::Move(v(14.5, 2.0)))]);
    assert_eq!(results, [Err(CommandError::Water)]);
}

#[test]
fn display_shows_the_map_and_units() {
    let mut game = empty(10);
    put_bot(&mut game, 0, v(0.5, 0.5));
    put_bot(&mut game, 1, v(0.5, 0.7));
    put_tower(&mut game, 1, Tile::new(1, 1), 0);
    let text = game.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "turn 0/10, game score 0-0, last points 0-0");
    assert_eq!(lines[1], "seat 0: 1 bots (0 dead), 0 towers (0 dead)");
    assert_eq!(lines[3], " 0 *.............~~..............");
    assert_eq!(lines[4], " 1 .B............~~..............");
    assert_eq!(lines[16], "13 .............++++.............");
    assert_eq!(lines.len(), 33);
}

/// The events that report NO_MULTIPLE_BOT_TASK for bot `id` of seat 0.
fn multiple_tasks(events: &[Event], id: u32) -> usize {
    events.iter().filter(|e| **e == Event::MultipleTasks { seat: 0, id }).count()
}

/// The extra move of seat 0's bot `id` as both seats see it: [its owner's view, the enemy's].
fn seen_extra_move(game: &CodeCharacter, id: u32) -> [Option<Vec2>; 2] {
    let own = game.observe(0).bot(id).map(|b| b.extra_move);
    let enemy = game.observe(1).bot(ENEMY_ID_BASE + id).map(|b| b.extra_move);
    [own.expect("seat 0 sees its bot"), enemy.expect("seat 1 sees the enemy bot")]
}

/// code-character.md "Orders to busy bots": `move(p)` to a bot in MOVE_TO_BLAST changes
/// nothing: it walks on to its blast target and blasts there, reporting NO_MULTIPLE_BOT_TASK
/// on every later turn it gets no command (its view, in both seats, carries the kept move
/// beside the intent); the move is accepted, not rejected.
#[test]
fn move_to_a_walking_blaster_is_kept_aside() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let victim = put_bot(&mut game, 1, v(2.5, 5.5));
    let events = play(&mut game, &[cmd(b, Order::BlastAt(v(2.5, 5.0)))], &[]);
    assert_eq!(multiple_tasks(&events, b), 0);
    assert_eq!(bot(&game, b).state, BotState::MoveToBlast);
    assert_eq!(seen_extra_move(&game, b), [None, None]);
    let events = play(&mut game, &[cmd(b, Order::Move(v(8.5, 2.5)))], &[]);
    assert!(game.observe(0).rejected.is_empty(), "accepted");
    assert_eq!(multiple_tasks(&events, b), 0, "commanded this turn");
    assert_eq!(bot(&game, b).intent, Intent::BlastAt(v(2.5, 5.0)), "the blast target stays");
    assert_eq!(bot(&game, b).pos, v(2.5, 4.5), "walking on towards it");
    // Both seats see both intents, each in its own frame (the enemy's mirrored).
    let (own, enemy) = (game.observe(0), game.observe(1));
    let (own, enemy) = (own.bot(b).expect("own bot"), enemy.bot(ENEMY_ID_BASE + b).expect("enemy bot"));
    assert_eq!((own.intent, own.extra_move), (Intent::BlastAt(v(2.5, 5.0)), Some(v(8.5, 2.5))));
    assert_eq!((enemy.intent, enemy.extra_move), (Intent::BlastAt(v(27.5, 25.0)), Some(v(21.5, 27.5))));
    let events = play(&mut game, &[], &[]);
    assert_eq!(multiple_tasks(&events, b), 1, "no command this turn");
    assert_eq!(bot(&game, b).pos, v(2.5, 5.0), "arrived");
    assert_eq!(seen_extra_move(&game, b), [Some(v(8.5, 2.5)), Some(v(21.5, 27.5))], "every turn");
    let events = play(&mut game, &[], &[]);
    assert_eq!(multiple_tasks(&events, b), 1);
    assert!(events.contains(&Event::BotBlasted { seat: 0, id: b, at: v(2.5, 5.0) }), "it blasts at its target");
    assert_eq!(bot(&game, victim).hp, 200 - 37);
    assert_eq!(seen_extra_move(&game, b), [None, None], "the dead blaster shows none");
    let events = play(&mut game, &[], &[]);
    assert_eq!(multiple_tasks(&events, b), 0, "gone");
}

/// code-character.md "Orders to busy bots": the same for MOVE_TO_TRANSFORM: the bot becomes a
/// tower at its transform target, not at the move's.
#[test]
fn move_to_a_walking_transformer_is_kept_aside() {
    let mut game = empty(10);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    play(&mut game, &[cmd(b, Order::TransformAt(v(2.5, 4.5)))], &[]);
    assert_eq!(bot(&game, b).state, BotState::MoveToTransform);
    assert_eq!(seen_extra_move(&game, b), [None, None]);
    let events = play(&mut game, &[cmd(b, Order::Move(v(8.5, 2.5)))], &[]);
    assert_eq!(multiple_tasks(&events, b), 0, "commanded this turn");
    assert_eq!(bot(&game, b).pos, v(2.5, 4.5));
    // Both seats see both intents, each in its own frame (the enemy's mirrored).
    let (own, enemy) = (game.observe(0), game.observe(1));
    let (own, enemy) = (own.bot(b).expect("own bot"), enemy.bot(ENEMY_ID_BASE + b).expect("enemy bot"));
    assert_eq!((own.intent, own.extra_move), (Intent::TransformAt(v(2.5, 4.5)), Some(v(8.5, 2.5))));
    assert_eq!((enemy.intent, enemy.extra_move), (Intent::TransformAt(v(27.5, 25.5)), Some(v(21.5, 27.5))));
    let events = play(&mut game, &[], &[]);
    assert_eq!(multiple_tasks(&events, b), 1);
    assert!(events.contains(&Event::Transformed { seat: 0, id: b, tile: Tile::new(2, 4), hp: 600 }), "{events:?}");
    assert_eq!(seen_extra_move(&game, b), [None, None], "the tower's bot shows none");
    let events = play(&mut game, &[], &[]);
    assert_eq!(multiple_tasks(&events, b), 0);
}

/// code-character.md "Orders to busy bots": a bot in TRANSFORM accepts every order (move,
/// blast, blast(p), transform(p), transform) and acts on none until it becomes a tower or dies
/// (it stores them: see `orders_to_a_transforming_bot_are_stored`).
#[test]
fn a_transforming_bot_ignores_every_order() {
    let orders = [
        Order::Move(v(5.5, 2.5)),
        Order::Blast,
        Order::BlastAt(v(5.5, 2.5)),
        Order::TransformAt(v(5.5, 2.5)),
        Order::Transform,
    ];
    for order in orders {
        let mut game = empty(10);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        // Another bot on its tile keeps the transform waiting.
        put_bot(&mut game, 0, v(2.7, 2.7));
        play(&mut game, &[cmd(b, Order::Transform)], &[]);
        assert_eq!(bot(&game, b).state, BotState::Transform);
        let events = play(&mut game, &[cmd(b, order)], &[]);
        assert!(game.observe(0).rejected.is_empty(), "{order:?} is accepted");
        assert!(!events.iter().any(|e| matches!(e, Event::BotBlasted { .. })), "{order:?}");
        let after = bot(&game, b);
        assert_eq!((after.state, after.intent, after.pos), (BotState::Transform, Intent::Transform, v(2.5, 2.5)));
        assert_eq!(multiple_tasks(&events, b), 0);
    }
}

/// code-character.md "Orders to busy bots": blast(), blast(p), transform() and transform(p) do
/// replace a walking blaster's or transformer's target.
#[test]
fn blast_and_transform_orders_replace_a_walking_target() {
    let walk = [Order::BlastAt(v(2.5, 8.5)), Order::TransformAt(v(2.5, 8.5))];
    for first in walk {
        let mut game = empty(10);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        play(&mut game, &[cmd(b, first)], &[]);
        let events = play(&mut game, &[cmd(b, Order::Blast)], &[]);
        assert!(events.contains(&Event::BotBlasted { seat: 0, id: b, at: v(2.5, 3.5) }), "{first:?}: {events:?}");

        let mut game = empty(10);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        play(&mut game, &[cmd(b, first)], &[]);
        play(&mut game, &[cmd(b, Order::BlastAt(v(4.5, 3.5)))], &[]);
        assert_eq!((bot(&game, b).state, bot(&game, b).intent), (BotState::MoveToBlast, Intent::BlastAt(v(4.5, 3.5))));
        assert_eq!(bot(&game, b).pos, v(3.5, 3.5), "heading for the new target");

        let mut game = empty(10);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        play(&mut game, &[cmd(b, first)], &[]);
        let events = play(&mut game, &[cmd(b, Order::Transform)], &[]);
        assert!(events.contains(&Event::Transformed { seat: 0, id: b, tile: Tile::new(2, 3), hp: 600 }), "{first:?}");

        let mut game = empty(10);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        play(&mut game, &[cmd(b, first)], &[]);
        play(&mut game, &[cmd(b, Order::TransformAt(v(4.5, 3.5)))], &[]);
        let moved = bot(&game, b);
        assert_eq!((moved.state, moved.intent), (BotState::MoveToTransform, Intent::TransformAt(v(4.5, 3.5))));
    }
}

/// Plays `orders` for seat 0, one entry a turn (`None`: seat 0 gives no answer at all; `Some`
/// of an empty list: an answer with no command), and returns, per turn, how many times seat 0's
/// bot `id` was reported NO_MULTIPLE_BOT_TASK.
fn reports_per_turn(game: &mut CodeCharacter, id: u32, orders: &[Option<Vec<Command>>]) -> Vec<usize> {
    orders
        .iter()
        .map(|answer| {
            let events = game.step(&[(0, answer.clone()), (1, Some(Vec::new()))]).unwrap();
            game.check_invariants().unwrap();
            multiple_tasks(&events, id)
        })
        .collect()
}

/// code-character.md "Orders to busy bots" (a): a bot holding a kept move beside its blast
/// target is reported only on turns it gets no command, as in the original, whose player API
/// clears the view's intents on every command. Any command naming it counts, a rejected one
/// too; a seat that gives no answer at all has nothing read, so nothing is reported.
#[test]
fn a_kept_move_is_reported_only_on_turns_without_a_command() {
    let mut game = empty(20);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let none = Some(Vec::new());
    let reports = reports_per_turn(
        &mut game,
        b,
        &[
            Some(vec![cmd(b, Order::BlastAt(v(2.5, 12.5)))]),
            // The move is kept aside: this turn it was commanded, so no report.
            Some(vec![cmd(b, Order::Move(v(8.5, 2.5)))]),
            none.clone(),
            // Another move replaces the kept one: commanded again.
            Some(vec![cmd(b, Order::Move(v(9.5, 2.5)))]),
            // A command that is rejected (a water tile) still names the bot.
            Some(vec![cmd(b, Order::Move(v(14.5, 2.5)))]),
            // No answer at all.
            None,
            none.clone(),
            none,
        ],
    );
    assert_eq!(reports, [0, 0, 1, 0, 0, 0, 1, 1]);
    let walker = bot(&game, b);
    assert_eq!((walker.state, walker.intent), (BotState::MoveToBlast, Intent::BlastAt(v(2.5, 12.5))));
    assert_eq!(walker.pos, v(2.5, 10.5), "walking on to its blast target all along");
    assert_eq!(seen_extra_move(&game, b), [Some(v(9.5, 2.5)), Some(v(20.5, 27.5))]);
}

/// code-character.md "Orders to busy bots" (b): `blast`, `blast-at`, `transform` and
/// `transform-at` given to a walking blaster with a kept move replace its target and clear the
/// kept move (nothing is reported afterwards), as in the original; a further `move` only
/// replaces the kept move (still reported on turns without a command).
#[test]
fn a_blast_or_transform_order_clears_the_kept_move() {
    let cases = [
        (Order::BlastAt(v(2.5, 10.5)), [0, 0, 0]),
        (Order::TransformAt(v(2.5, 10.5)), [0, 0, 0]),
        (Order::Blast, [0, 0, 0]),
        (Order::Transform, [0, 0, 0]),
        (Order::Move(v(9.5, 2.5)), [0, 1, 1]),
    ];
    for (order, expected) in cases {
        let mut game = empty(20);
        let b = put_bot(&mut game, 0, v(2.5, 2.5));
        let none = Some(Vec::new());
        let kept = reports_per_turn(
            &mut game,
            b,
            &[
                Some(vec![cmd(b, Order::BlastAt(v(2.5, 12.5)))]),
                Some(vec![cmd(b, Order::Move(v(8.5, 2.5)))]),
                none.clone(),
            ],
        );
        assert_eq!(kept[2], 1, "{order:?}: the kept move is reported on a turn without a command");
        let reports = reports_per_turn(&mut game, b, &[Some(vec![cmd(b, order)]), none.clone(), none]);
        assert_eq!(reports, expected, "{order:?}");
        if matches!(order, Order::BlastAt(_) | Order::TransformAt(_)) {
            assert_eq!(seen_extra_move(&game, b), [None, None], "{order:?}");
        }
    }
}

/// code-character.md "Orders to busy bots" (c): a bot in TRANSFORM stores the orders it is
/// given, without acting on them: a blast or transform order followed (on a later turn) by a
/// `move` makes two targets, reported on every turn without a command, and both players'
/// views show them. A `move` alone, or a `move` then a blast or transform order (which clears
/// the move), is one target: no report.
#[test]
fn orders_to_a_transforming_bot_are_stored() {
    let stored = [Order::Blast, Order::BlastAt(v(5.5, 2.5)), Order::Transform, Order::TransformAt(v(5.5, 2.5))];
    for first in stored {
        for (orders, expected) in
            [([first, Order::Move(v(8.5, 2.5))], [0, 0, 1, 1]), ([Order::Move(v(8.5, 2.5)), first], [0, 0, 0, 0])]
        {
            let mut game = empty(20);
            let b = put_bot(&mut game, 0, v(2.5, 2.5));
            // Another bot on its tile keeps the transform waiting.
            put_bot(&mut game, 0, v(2.7, 2.7));
            play(&mut game, &[cmd(b, Order::Transform)], &[]);
            assert_eq!(bot(&game, b).state, BotState::Transform);
            let none = Some(Vec::new());
            let reports = reports_per_turn(
                &mut game,
                b,
                &[Some(vec![cmd(b, orders[0])]), Some(vec![cmd(b, orders[1])]), none.clone(), none],
            );
            assert_eq!(reports, expected, "{orders:?}");
            let after = bot(&game, b);
            assert_eq!((after.state, after.pos), (BotState::Transform, v(2.5, 2.5)), "{orders:?}: nothing acted on");
            let own = game.observe(0).bot(b).copied().unwrap();
            if orders[1] == first {
                assert_eq!(own.extra_move, None, "{orders:?}");
            } else {
                assert_eq!(own.extra_move, Some(v(8.5, 2.5)), "{orders:?}");
            }
        }
    }
    // Both seats see the stored order as the intent, beside the move.
    let mut game = empty(20);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    put_bot(&mut game, 0, v(2.7, 2.7));
    play(&mut game, &[cmd(b, Order::Transform)], &[]);
    play(&mut game, &[cmd(b, Order::BlastAt(v(5.5, 2.5)))], &[]);
    play(&mut game, &[cmd(b, Order::Move(v(8.5, 2.5)))], &[]);
    let (own, enemy) = (game.observe(0), game.observe(1));
    let (own, enemy) = (own.bot(b).unwrap(), enemy.bot(ENEMY_ID_BASE + b).unwrap());
    assert_eq!(
        (own.state, own.intent, own.extra_move),
        (BotStatus::Transform, Intent::BlastAt(v(5.5, 2.5)), Some(v(8.5, 2.5)))
    );
    assert_eq!((enemy.intent, enemy.extra_move), (Intent::BlastAt(v(24.5, 27.5)), Some(v(21.5, 27.5))));
}

/// code-character.md "Orders to busy bots" (d): a bot in TRANSFORM holding two targets (c)
/// keeps them when it becomes a tower or dies, so it is reported once more, on the one turn
/// it stays visible; then it is gone. A bot holding one target, or a walking blaster with a
/// kept move (its blast target goes with its state), is not reported once dead.
#[test]
fn two_stored_targets_are_reported_once_more_when_the_bot_is_gone() {
    // ends: how the bot goes (false: it transforms, true: an enemy tower's blast kills it).
    for killed in [false, true] {
        for two in [true, false] {
            let mut game = empty(20);
            let b = put_bot(&mut game, 0, v(2.5, 2.5));
            let blocker = put_bot(&mut game, 0, v(2.7, 2.7));
            let tower = put_tower(&mut game, 1, Tile::new(2, 4), TOWER_MIN_BLAST_AGE);
            play(&mut game, &[cmd(b, Order::Transform)], &[]);
            if two {
                play(&mut game, &[cmd(b, Order::Blast)], &[]);
            }
            play(&mut game, &[cmd(b, Order::Move(v(8.5, 2.5)))], &[]);
            // This turn the bot goes: the blocker walks off its tile, or the tower blasts it.
            let last = if killed {
                game.step(&[(0, Some(Vec::new())), (1, Some(vec![cmd(tower, Order::Blast)]))]).unwrap()
            } else {
                play(&mut game, &[cmd(blocker, Order::Move(v(5.5, 2.5)))], &[])
            };
            let gone = if killed {
                Event::Died { seat: 0, id: b, tower: false }
            } else {
                Event::Transformed { seat: 0, id: b, tile: Tile::new(2, 2), hp: 600 }
            };
            assert!(last.contains(&gone), "{last:?}");
            let expected = usize::from(two);
            assert_eq!(multiple_tasks(&last, b), expected, "killed {killed}, two {two}: the turn it goes");
            let after = reports_per_turn(&mut game, b, &[Some(Vec::new()), Some(Vec::new())]);
            assert_eq!(after, [expected, 0], "killed {killed}, two {two}: once more, then gone");
        }
    }
    // A walking blaster with a kept move, killed on the way: its blast target went with its
    // state, one target is left, no report once dead.
    let mut game = empty(20);
    let b = put_bot(&mut game, 0, v(2.5, 2.5));
    let tower = put_tower(&mut game, 1, Tile::new(4, 4), TOWER_MIN_BLAST_AGE);
    play(&mut game, &[cmd(b, Order::BlastAt(v(2.5, 12.5)))], &[]);
    play(&mut game, &[cmd(b, Order::Move(v(8.5, 2.5)))], &[]);
    let last = game.step(&[(0, Some(Vec::new())), (1, Some(vec![cmd(tower, Order::Blast)]))]).unwrap();
    assert!(last.contains(&Event::Died { seat: 0, id: b, tower: false }), "{last:?}");
    assert_eq!(multiple_tasks(&last, b), 1, "reported the turn it dies");
    assert_eq!(reports_per_turn(&mut game, b, &[Some(Vec::new())]), [0], "not once dead");
}
