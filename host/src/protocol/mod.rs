//! Line-protocol bots: a WASI command (a component exporting `wasi:cli/run`, for example a Rust
//! binary built for `wasm32-wasip2`) that reads the game's original text protocol on stdin and
//! answers on stdout, metered exactly like a WIT bot (docs/design.md#the-budget-contract).
//!
//! - [`LineProtocol`]: the one small trait a game implements to get a line protocol: what the
//!   host sends before the first turn and each turn, and how an answer line parses.
//! - [`azul`]: Azul's original text protocol.
//! - [`paint`]: Paint's original line-delimited JSON protocol.
//! - [`wasip1`]: `wasm32-wasip1` commands (core modules) wrapped into components when loaded.
//! - [`stdio`]: the bot's stdin (fed by the host), its stdout (a bounded answer collector) and
//!   the fuel meter (a store call hook).
//! - [`runner`]: `ProtocolRunner`, one command bot's life in a match.
//!
//! **Time is fuel.** Protocols that tell a bot its remaining thinking time in milliseconds get
//! fuel-equivalent milliseconds: [`FUEL_PER_MS`] fuel = 1 ms, so the default 10,000,000-fuel turn
//! is 1,000 ms. It is a fixed conversion for the protocol's sake, not a measurement of any clock.
//!
//! **Stale answers.** A bot that ran out of turn fuel is suspended mid-thought and resumes at its
//! next turn; the answer it then writes answers an old state. The runner knows how many bytes of
//! stdin the bot had read when it wrote each line: a line written before the bot had read the
//! whole of the current turn's message is stale ([`AnswerError::Stale`]), whatever it says.
//! Messages are released to stdin one at a time (the next once the previous one is read), so a
//! buffered reader cannot take in a newer message before answering an older one.
//! Protocols whose answers carry a nonce also check it in [`LineProtocol::parse_answer`]
//! ([`AnswerError::WrongNonce`]).

pub mod azul;
#[cfg(test)]
mod conformance;
pub mod paint;
pub mod runner;
pub mod stdio;
pub mod suitebot;
pub use arena_load::wasip1;

use crate::budget::Budget;
pub use crate::fault::AnswerError;
use crate::loader::LoadedCommand;
use crate::record::BotRef;
use crate::runtime::Arena;
use crate::seat::{Contestant, SeatBot};
use crate::seat::{InitInfo, TurnInfo};
use arena_game::Game;
use runner::ProtocolRunner;
use std::marker::PhantomData;
use std::sync::Arc;

/// Fuel per fuel-equivalent millisecond: protocols that send thinking time in ms send
/// `fuel / FUEL_PER_MS`.
pub const FUEL_PER_MS: u64 = 10_000;

/// Fuel as fuel-equivalent milliseconds (rounded down).
pub fn fuel_to_ms(fuel: u64) -> u64 {
    fuel / FUEL_PER_MS
}

/// A game's line protocol. Every line is UTF-8 text ending in `\n`; the host writes lines to the
/// bot's stdin and reads answer lines from its stdout.
pub trait LineProtocol: Send + Sync + 'static {
    /// The game.
    type Game: Game;
    /// What one bot instance's conversation remembers: what its greeting reply chose and what
    /// was last sent (for incremental updates). A restarted instance starts a new session.
    type Session: Send + 'static;

    /// The protocol's name, for `arena games`.
    const NAME: &'static str;
    /// Longest answer line accepted, in bytes without the newline. A longer line is an invalid
    /// action; the host never holds more than this many bytes of it.
    const MAX_LINE: usize;

    /// Lines sent when an instance starts, before its first turn.
    fn greeting(info: &InitInfo) -> Vec<String>;
    /// For a protocol without a handshake (the bot's first line is its first answer): the
    /// session to start when the bot waits for its first state without writing anything. `None`
    /// (the default) means a reply to the greeting is required.
    fn session_without_reply() -> Option<Self::Session> {
        None
    }

    /// Checks the first line the bot writes (its reply to the greeting) and starts the session.
    fn check_greeting_reply(line: &str) -> Result<Self::Session, String>;
    /// The lines of one turn's message. A message must let the bot tell where it ends.
    fn state_lines(
        session: &mut Self::Session,
        observation: &<Self::Game as Game>::Observation,
        info: &TurnInfo,
    ) -> Vec<String>;
    /// Parses an answer line (newline and trailing `\r` removed) against the state it answers.
    fn parse_answer(
        line: &str,
        observation: &<Self::Game as Game>::Observation,
    ) -> Result<<Self::Game as Game>::Action, AnswerError>;

    /// Replies to the greeting a bot may write, as the protocol's rules page shows them (each
    /// starts a session; a protocol without a handshake lists what a bot might wrongly write
    /// first). The conformance kit checks them and the fuzz target edits them.
    const GREETING_REPLIES: &'static [&'static str];
    /// `action` as a bot writes it in answer to `observation`: the reference encoding, which
    /// [`LineProtocol::parse_answer`] reads back as `action` (the conformance kit checks it).
    fn answer_line(action: &<Self::Game as Game>::Action, observation: &<Self::Game as Game>::Observation) -> String;
}

/// The first `max` characters of `text`, for error details in replays.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// A WASI command takes a seat as a [`ProtocolRunner`] speaking protocol `P`.
pub struct CommandContestant<P: LineProtocol> {
    bot: Arc<LoadedCommand>,
    _protocol: PhantomData<P>,
}

impl<P: LineProtocol> CommandContestant<P> {
    /// A contestant for a loaded command.
    pub fn new(bot: Arc<LoadedCommand>) -> Self {
        CommandContestant { bot, _protocol: PhantomData }
    }
}

impl<P: LineProtocol> Contestant<P::Game> for CommandContestant<P> {
    fn identity(&self) -> BotRef {
        self.bot.identity()
    }

    fn seat(&self, arena: &Arena, budget: Budget, seat: u8, players: u8, match_seed: u64) -> Box<dyn SeatBot<P::Game>> {
        Box::new(ProtocolRunner::<P>::new(arena, self.bot.clone(), budget, seat, players, match_seed))
    }
}
