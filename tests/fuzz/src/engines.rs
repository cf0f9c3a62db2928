//! Engine targets, one per game: a random config (usually valid, sometimes wild: a replay's
//! config is untrusted JSON and reaches `Game::new`), a random player count and seed, then a
//! sequence of joint actions in which each acting seat plays a legal action
//! (`Game::random_action`), its fallback, nothing, or an arbitrary value of the game's action
//! type built straight from the bytes (out-of-range numbers, NaN coordinates, over-long order
//! lists, other seats' units). Every action goes through `check` first and a refused one becomes
//! `None`, as the match loop does.
//!
//! What must hold (a panic otherwise): nothing panics; `step` accepts every checked joint
//! action; `to_act` is empty exactly when `is_over`; the game's own invariants hold; a clone
//! has the same `state_hash` and is not changed by stepping the original; `observe` works for
//! every seat; `check` answers (never panics) for any seat, even one not in the match; a joint
//! action naming the wrong seats is refused and changes nothing; the final state survives a
//! JSON round trip with the same hash. Sequences are capped at [`MAX_STEPS`] steps and stop when
//! the bytes run out, so every input is cheap.

use arbitrary::{Result, Unstructured};
use arena_game::{Game, Seat, StepError, new_rng};

/// Most joint actions in one input.
pub const MAX_STEPS: usize = 300;

/// What the harness needs from a game beyond [`Game`]: a config and an arbitrary action.
pub(crate) trait Subject: Game {
    /// A config: mostly valid, sometimes wild.
    fn config(u: &mut Unstructured) -> Result<Self::Config>;
    /// Any value of the action type, legal or not.
    fn wild_action(u: &mut Unstructured) -> Result<Self::Action>;
    /// The short match the replay target's sample of this game plays: its config and players.
    fn sample() -> (Self::Config, usize);
}

/// Something done with every game's [`Subject`] ([`for_each_subject`]).
pub(crate) trait SubjectVisitor {
    /// Does it for `G`.
    fn visit<G: Subject>(&mut self);
}

/// The one list of the harness's games: `(name, engine target's function, engine type)`, the name
/// as `--game` takes it (the structure test checks it against the registry). It gives
/// the engine targets' functions below, [`for_each_subject`], and (through `with_subjects!`) the
/// engine targets in `crate::TARGETS`.
macro_rules! with_subjects {
    ($callback:ident) => {
        $callback! {
            ("azul", azul, arena_azul::Azul),
            ("paint", paint, arena_paint::Paint),
            ("code-character", code_character, arena_code_character::CodeCharacter),
            ("eubots", eubots, arena_eubots::Eubots),
            ("suitebot", suitebot, arena_suitebot::Suitebot),
        }
    };
}
pub(crate) use with_subjects;

macro_rules! engine_functions {
    ($(($name:literal, $function:ident, $engine:ty)),* $(,)?) => {
        $(
            #[doc = concat!("The engine target of `", stringify!($engine), "`.")]
            pub fn $function(data: &[u8]) {
                run::<$engine>(data);
            }
        )*

        /// `visitor` done with every game's [`Subject`], in the list's order.
        pub(crate) fn for_each_subject(visitor: &mut impl SubjectVisitor) {
            $(visitor.visit::<$engine>();)*
        }
    };
}
with_subjects!(engine_functions);

fn run<G: Subject>(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // Running out of bytes ends the sequence early; that is not a finding.
    let _ = play::<G>(&mut u);
}

fn play<G: Subject>(u: &mut Unstructured) -> Result<()> {
    let config = G::config(u)?;
    let players = if u.ratio(1, 16)? {
        u.int_in_range(0..=G::MAX_PLAYERS + 2)?
    } else {
        u.int_in_range(G::MIN_PLAYERS..=G::MAX_PLAYERS)?
    };
    let seed: u64 = u.arbitrary()?;
    let mut game = match G::new(&config, players, seed) {
        Ok(game) => game,
        // A refused setup is the right answer to a wild config; a valid one must be accepted,
        // but which configs are valid is each engine's business (its own tests pin it).
        Err(_) => return Ok(()),
    };
    let mut rng = new_rng(seed ^ 0xf022);
    for step in 0..MAX_STEPS {
        check_state(&game, u, step)?;
        if game.is_over() || u.is_empty() {
            break;
        }
        let to_act = game.to_act();
        if u.ratio(1, 32)? {
            check_refusals(&mut game, &to_act, step);
        }
        let mut actions = Vec::with_capacity(to_act.len());
        for &seat in &to_act {
            let action = match u.int_in_range(0..=7)? {
                0 => None,
                1 => game.no_action(seat),
                2 | 3 => Some(G::wild_action(u)?),
                _ => game.random_action(seat, &mut rng),
            };
            // The match loop's validation: a refused action is no action.
            actions.push((seat, action.filter(|action| game.check(seat, action).is_ok())));
        }
        if u.arbitrary()? {
            actions.reverse();
        }
        let before = game.clone();
        let before_hash = before.state_hash();
        if let Err(err) = game.step(&actions) {
            panic!("{}: step {step}: checked joint action {actions:?} refused: {err}", G::NAME);
        }
        assert_eq!(before.state_hash(), before_hash, "{}: step {step}: stepping changed a clone", G::NAME);
    }
    let outcome = game.outcome();
    assert_eq!(outcome.ranks.len(), game.players(), "{}: outcome has the wrong number of ranks", G::NAME);
    if u.ratio(1, 4).unwrap_or(false) {
        let json = serde_json::to_string(&game).unwrap_or_default();
        match serde_json::from_str::<G>(&json) {
            Ok(back) => {
                assert_eq!(back.state_hash(), game.state_hash(), "{}: JSON round trip changed the hash", G::NAME)
            }
            Err(err) => panic!("{}: state does not read back its own JSON: {err}", G::NAME),
        }
    }
    Ok(())
}

/// What must hold in every state.
fn check_state<G: Subject>(game: &G, u: &mut Unstructured, step: usize) -> Result<()> {
    let name = G::NAME;
    if let Err(broken) = game.check_invariants() {
        panic!("{name}: step {step}: invariant broken: {broken}");
    }
    let to_act = game.to_act();
    assert_eq!(to_act.is_empty(), game.is_over(), "{name}: step {step}: to_act {to_act:?} disagrees with is_over");
    assert!(to_act.iter().all(|seat| *seat < game.players()), "{name}: step {step}: to_act names a missing seat");
    assert_eq!(game.clone().state_hash(), game.state_hash(), "{name}: step {step}: a clone hashes differently");
    for seat in 0..game.players() {
        let _ = game.observe(seat);
    }
    // `check` is the host's validation of untrusted answers: any seat, any value.
    let seat = u.int_in_range(0..=game.players() + 1)?;
    let action = G::wild_action(u)?;
    let _ = game.check(seat, &action);
    Ok(())
}

/// A joint action naming the wrong seats is refused and changes nothing.
fn check_refusals<G: Game>(game: &mut G, to_act: &[Seat], step: usize) {
    let hash = game.state_hash();
    let mut extra: Vec<(Seat, Option<G::Action>)> = to_act.iter().map(|&seat| (seat, None)).collect();
    extra.push((game.players(), None));
    assert!(
        matches!(game.step(&extra), Err(StepError::WrongSeats { .. })),
        "{}: step {step}: a joint action naming a missing seat was accepted",
        G::NAME
    );
    assert!(
        matches!(game.step(&[]), Err(StepError::WrongSeats { .. })),
        "{}: step {step}: an empty joint action was accepted",
        G::NAME
    );
    assert_eq!(game.state_hash(), hash, "{}: step {step}: a refused step changed the state", G::NAME);
}

/// A small integer most of the time (in range, or just out of it), any value sometimes.
fn small_or_any<T>(u: &mut Unstructured, small: std::ops::RangeInclusive<T>) -> Result<T>
where
    T: arbitrary::unstructured::Int + for<'a> arbitrary::Arbitrary<'a>,
{
    if u.ratio(7, 8)? { u.int_in_range(small) } else { u.arbitrary() }
}

/// A coordinate: on or near the map most of the time, an edge-case float sometimes.
fn coordinate(u: &mut Unstructured) -> Result<f64> {
    const SPECIAL: [f64; 10] =
        [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e308, f64::MIN_POSITIVE, 29.99999, 30.0, -1e-9, 0.5];
    Ok(match u.int_in_range(0..=9)? {
        0 => SPECIAL[u.choose_index(SPECIAL.len())?],
        1 => f64::from_bits(u.arbitrary()?),
        _ => f64::from(u.int_in_range(-16..=496)?) / 16.0,
    })
}

impl Subject for arena_azul::Azul {
    fn config(_u: &mut Unstructured) -> Result<arena_azul::AzulConfig> {
        Ok(arena_azul::AzulConfig::default())
    }

    fn sample() -> (arena_azul::AzulConfig, usize) {
        (Default::default(), 2)
    }

    fn wild_action(u: &mut Unstructured) -> Result<arena_azul::Move> {
        Ok(arena_azul::Move {
            source: small_or_any(u, 0..=6)?,
            colour: *u.choose(&arena_azul::COLOURS)?,
            line: small_or_any(u, 0..=6)?,
        })
    }
}

impl Subject for arena_paint::Paint {
    fn sample() -> (arena_paint::PaintConfig, usize) {
        (arena_paint::PaintConfig { turns: Some(8), ..Default::default() }, 3)
    }

    fn config(u: &mut Unstructured) -> Result<arena_paint::PaintConfig> {
        use arena_paint::{BOARD_NAMES, Placement, Pos, PreviousActions};
        let turns = match u.int_in_range(0..=7)? {
            0 => None,
            1 => Some(u.arbitrary()?),
            _ => Some(u.int_in_range(1..=40)?),
        };
        let obstacles = if u.ratio(1, 4)? {
            let count = u.int_in_range(0..=4)?;
            (0..count)
                .map(|_| Ok(Pos::new(u.int_in_range(-1..=13)?, u.int_in_range(-1..=13)?)))
                .collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        Ok(arena_paint::PaintConfig {
            board: *u.choose(&BOARD_NAMES)?,
            placement: *u.choose(&[Placement::Auto, Placement::Symmetric])?,
            turns,
            obstacles,
            previous_actions: *u.choose(&[PreviousActions::All, PreviousActions::Last])?,
        })
    }

    fn wild_action(u: &mut Unstructured) -> Result<arena_paint::Action> {
        use arena_paint::ActionKind;
        Ok(arena_paint::Action {
            kind: *u.choose(&[ActionKind::Walk, ActionKind::Shoot])?,
            direction: [small_or_any(u, -2..=2)?, small_or_any(u, -2..=2)?],
        })
    }
}

impl Subject for arena_code_character::CodeCharacter {
    fn sample() -> (arena_code_character::CodeCharacterConfig, usize) {
        (arena_code_character::CodeCharacterConfig { turns: 6, map: None }, 2)
    }

    fn config(u: &mut Unstructured) -> Result<arena_code_character::CodeCharacterConfig> {
        let turns = if u.ratio(1, 16)? { u.arbitrary()? } else { u.int_in_range(1..=30)? };
        let map = if u.ratio(1, 8)? {
            // A map file is untrusted too: the default map's text with a few edits.
            let text = arena_code_character::Map::default().to_text();
            Some(String::from_utf8_lossy(&crate::mutate::bytes(text.as_bytes(), u)).into_owned())
        } else {
            None
        };
        Ok(arena_code_character::CodeCharacterConfig { turns, map })
    }

    fn wild_action(u: &mut Unstructured) -> Result<Vec<arena_code_character::Command>> {
        use arena_code_character::{Command, MAX_COMMANDS, Order, Vec2};
        let len = match u.int_in_range(0..=15)? {
            0 => u.int_in_range(MAX_COMMANDS - 1..=MAX_COMMANDS + 1)?,
            _ => u.int_in_range(0..=6)?,
        };
        let mut commands = Vec::with_capacity(len);
        for i in 0..len {
            // Past the first few, repeat cheaply: an over-long answer is the point, not its body.
            if i >= 8 {
                commands.push(Command::new(i as u32, Order::Blast));
                continue;
            }
            let id = small_or_any(u, 0..=400)?;
            let order = match u.int_in_range(0..=4)? {
                0 => Order::Move(Vec2::new(coordinate(u)?, coordinate(u)?)),
                1 => Order::Blast,
                2 => Order::BlastAt(Vec2::new(coordinate(u)?, coordinate(u)?)),
                3 => Order::Transform,
                _ => Order::TransformAt(Vec2::new(coordinate(u)?, coordinate(u)?)),
            };
            commands.push(Command::new(id, order));
        }
        Ok(commands)
    }
}

impl Subject for arena_eubots::Eubots {
    fn sample() -> (arena_eubots::EubotsConfig, usize) {
        let map = arena_eubots::MapChoice::Text("1.#..\n1...2\n..#.2\n".into());
        (arena_eubots::EubotsConfig { map, unequal: false }, 2)
    }

    fn config(u: &mut Unstructured) -> Result<arena_eubots::EubotsConfig> {
        use arena_eubots::MapChoice;
        let map = match u.int_in_range(0..=7)? {
            0 => MapChoice::Corners,
            1..=4 => MapChoice::Text(small_map(u)?),
            _ => MapChoice::Standard,
        };
        Ok(arena_eubots::EubotsConfig { map, unequal: u.arbitrary()? })
    }

    fn wild_action(u: &mut Unstructured) -> Result<Vec<arena_eubots::Order>> {
        use arena_eubots::{Action, Direction, MAX_ORDERS, Order};
        // More orders than units (up to 8 x 30 on the standard maps) now and then, more than any
        // map allows rarely: those are big.
        let len = match u.int_in_range(0..=255)? {
            0 => MAX_ORDERS + 1,
            1..=8 => u.int_in_range(9..=250)?,
            _ => u.int_in_range(0..=8)?,
        };
        let mut orders = Vec::with_capacity(len);
        for i in 0..len {
            if i >= 8 {
                orders.push(Order::wait(i as u32));
                continue;
            }
            orders.push(Order {
                handle: small_or_any(u, 0..=250)?,
                action: *u.choose(&[Action::Wait, Action::Move, Action::Attack])?,
                direction: *u.choose(&Direction::ALL)?,
            });
        }
        Ok(orders)
    }
}

/// A small Eubots map file: mostly well formed (units of up to 8 seats, walls), sometimes ragged
/// or with a stray character.
fn small_map(u: &mut Unstructured) -> Result<String> {
    const TILES: &[u8] = b".....##12345678";
    let (width, height) = (u.int_in_range(1..=12)?, u.int_in_range(1..=10)?);
    let mut text = String::new();
    for _ in 0..height {
        let row_width = if u.ratio(1, 32)? { u.int_in_range(0..=13)? } else { width };
        for _ in 0..row_width {
            let tile = if u.ratio(1, 64)? { u.arbitrary::<char>()? } else { char::from(*u.choose(TILES)?) };
            text.push(tile);
        }
        text.push('\n');
    }
    Ok(text)
}

impl Subject for arena_suitebot::Suitebot {
    fn sample() -> (arena_suitebot::SuitebotConfig, usize) {
        (arena_suitebot::SuitebotConfig { rounds: 8, ..Default::default() }, 4)
    }

    fn config(u: &mut Unstructured) -> Result<arena_suitebot::SuitebotConfig> {
        use arena_suitebot::{BoardEncoding, MAX_BLAST_RADIUS, MIN_SIDE, SuitebotConfig};
        if u.ratio(1, 16)? {
            return Ok(SuitebotConfig {
                width: u.arbitrary()?,
                height: u.arbitrary()?,
                rounds: u.arbitrary()?,
                blast_radius: u.arbitrary()?,
                board: *u.choose(&BoardEncoding::ALL)?,
            });
        }
        Ok(SuitebotConfig {
            width: u.int_in_range(MIN_SIDE..=20)?,
            height: u.int_in_range(MIN_SIDE..=20)?,
            rounds: u.int_in_range(1..=40)?,
            blast_radius: u.int_in_range(0..=MAX_BLAST_RADIUS)?,
            board: *u.choose(&BoardEncoding::ALL)?,
        })
    }

    fn wild_action(u: &mut Unstructured) -> Result<arena_suitebot::Action> {
        Ok(*u.choose(&arena_suitebot::Action::ALL)?)
    }
}
