//! Line-protocol targets, one per [`LineProtocol`] (Azul's text, Paint's JSON, SuiteBot's JSON):
//! everything a command bot writes on stdout.
//!
//! Each input sets up a real observation (a fresh game after a few random steps), then feeds the
//! protocol one of: an arbitrary greeting reply ([`LineProtocol::check_greeting_reply`]); an
//! arbitrary or edited valid answer line ([`LineProtocol::parse_answer`]); or arbitrary stdout
//! bytes in arbitrary chunks through the host's line splitter ([`Exchange`]), every line it
//! completes then parsed as an answer. The state lines of a session are built too.
//!
//! What must hold besides "no panic": a legal action written the way the protocol says parses
//! back to itself; the splitter never hands out a line longer than the protocol's bound.

use crate::engines::Subject;
use crate::mutate;
use arbitrary::{Result, Unstructured};
use arena_game::{Game, new_rng};
use arena_host::protocol::LineProtocol;
use arena_host::protocol::azul::AzulText;
use arena_host::protocol::paint::PaintJson;
use arena_host::protocol::stdio::Exchange;
use arena_host::protocol::suitebot::SuitebotJson;
use arena_host::seat::TurnInfo;
use arena_host::wasi::ByteSink;

/// Most random steps before the observation is taken.
const MAX_WARMUP: u32 = 24;

/// Azul's text protocol.
pub fn azul(data: &[u8]) {
    run::<AzulText>(data);
}

/// Paint's JSON protocol.
pub fn paint(data: &[u8]) {
    run::<PaintJson>(data);
}

/// SuiteBot's JSON protocol.
pub fn suitebot(data: &[u8]) {
    run::<SuitebotJson>(data);
}

fn run<P: LineProtocol<Game: Subject>>(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // Running out of bytes ends the input early; that is not a finding.
    let _ = feed::<P>(&mut u);
}

fn feed<P: LineProtocol<Game: Subject>>(u: &mut Unstructured) -> Result<()> {
    let players = u.int_in_range(P::Game::MIN_PLAYERS..=P::Game::MAX_PLAYERS)?;
    let seed: u64 = u.arbitrary()?;
    let Ok(mut game) = P::Game::new(&Default::default(), players, seed) else { return Ok(()) };
    let mut rng = new_rng(seed);
    for _ in 0..u.int_in_range(0..=MAX_WARMUP)? {
        if game.is_over() {
            break;
        }
        let actions: Vec<_> =
            game.to_act().into_iter().map(|seat| (seat, game.random_action(seat, &mut rng))).collect();
        if game.step(&actions).is_err() {
            return Ok(());
        }
    }
    let seat = match game.to_act().first() {
        Some(&seat) => seat,
        None => u.choose_index(players)?,
    };
    let view = game.observe(seat);

    // A legal action, as the protocol writes it, reads back as itself.
    let legal = game.random_action(seat, &mut rng);
    let sample = legal.as_ref().map(|action| P::answer_line(action, &view)).unwrap_or_default();
    if let Some(action) = &legal {
        match P::parse_answer(&sample, &view) {
            Ok(parsed) => assert_eq!(&parsed, action, "{}: {sample:?} parsed as another action", P::NAME),
            Err(err) => panic!("{}: a legal answer {sample:?} was refused: {err:?}", P::NAME),
        }
    }

    match u.int_in_range(0..=3)? {
        0 => {
            let template = P::GREETING_REPLIES[u.choose_index(P::GREETING_REPLIES.len())?];
            let reply = line(u, template)?;
            let session = P::check_greeting_reply(&reply).ok().or_else(P::session_without_reply);
            if let Some(mut session) = session {
                let info = TurnInfo {
                    turn: u.arbitrary()?,
                    turn_fuel_remaining: u.arbitrary()?,
                    game_fuel_remaining: u.arbitrary()?,
                    missed_turns: u.arbitrary()?,
                };
                // Twice: incremental protocols send the difference the second time.
                let _ = P::state_lines(&mut session, &view, &info);
                let _ = P::state_lines(&mut session, &view, &info);
            }
        }
        1 | 2 => {
            let answer = line(u, &sample)?;
            let _ = P::parse_answer(&answer, &view);
        }
        _ => {
            let exchange = Exchange::new(P::MAX_LINE, arena_host::meter::CallMeter::new());
            // A greeting-like message needs no reading: the first line written answers it.
            let _ = exchange.hand(&[], false);
            let stdout = exchange.stdout();
            while !u.is_empty() {
                let len = u.int_in_range(0..=96)?;
                let chunk = if u.ratio(1, 2)? {
                    mutate::bytes(format!("{sample}\n").as_bytes(), u)
                } else {
                    u.bytes(len.min(u.len()))?.to_vec()
                };
                stdout.0.accept(&chunk);
            }
            let written = exchange.take_written();
            for text in written.answer.into_iter().chain(written.stale).filter_map(|line| line.text.ok()) {
                assert!(text.len() <= P::MAX_LINE, "{}: a {}-byte line got past the splitter", P::NAME, text.len());
                let _ = P::parse_answer(&text, &view);
            }
        }
    }
    Ok(())
}

/// An answer or reply line: arbitrary text, or `sample` with a few edits.
fn line(u: &mut Unstructured, sample: &str) -> Result<String> {
    if u.ratio(1, 3)? {
        let len = u.int_in_range(0..=300)?;
        Ok(String::from_utf8_lossy(u.bytes(len.min(u.len()))?).into_owned())
    } else {
        Ok(String::from_utf8_lossy(&mutate::bytes(sample.as_bytes(), u)).into_owned())
    }
}
