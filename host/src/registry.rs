//! Every game the arena plays, by name, behind one object-safe interface, so the CLI (and any
//! other front end) dispatches on a name without knowing the games' types. Adding a game is one
//! line in the `registered_games!` list at the end: the game's binding, and `Entry<Binding>` for
//! a game whose bots are WIT components or `ProtocolEntry<Binding, LineProtocol>` for one that
//! also seats WASI commands speaking its original line protocol (any bot file exporting
//! `wasi:cli/run` is loaded as one). From that list come [`games`] and [`visit_game`], which
//! hands a crate above this one (the viewer) a game's types by name.

use crate::bindings::Binding;
use crate::bindings::azul::AzulBinding;
use crate::bindings::code_character::CodeCharacterBinding;
use crate::bindings::eubots::EubotsBinding;
use crate::bindings::paint::PaintBinding;
use crate::bindings::suitebot::SuitebotBinding;
use crate::bot::WitContestant;
use crate::bot_data::{BotData, BotFiles};
use crate::budget::Budget;
use crate::fault::BotFault;
use crate::loader::{
    BotSource, COMMAND_EXPORT, LoadError, LoadStage, Loader, compile, compile_source, is_command, load_bot_component,
    load_command_component, load_preview1_command, open_bot,
};
use crate::play::{MatchError, play_contestants};
use crate::post_mortem::PostMortem;
use crate::protocol::azul::AzulText;
use crate::protocol::paint::PaintJson;
use crate::protocol::suitebot::SuitebotJson;
use crate::protocol::wasip1::{Preview1Command, preview1_command};
use crate::protocol::{CommandContestant, LineProtocol};
use crate::record::{MatchRecord, MatchResult, SeatTurn, TurnRecord};
use crate::replay::{ReplayError, SeatLoader, Verdict, read_replay, verify, verify_with};
use crate::runtime::Arena;
use crate::seat::Contestant;
use arena_game::{Game, OptionDoc, SetupError};
use serde::Serialize;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

/// What `arena games` shows for a game.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// Its name, as `--game` takes it.
    pub name: &'static str,
    /// Fewest bots.
    pub min_players: usize,
    /// Most bots.
    pub max_players: usize,
    /// Most turns a match lasts ([`Game::MAX_TURNS`]).
    pub max_turns: u32,
    /// `--option` keys.
    pub options: Vec<OptionDoc>,
    /// The kinds of bot file it accepts.
    pub bot_kinds: Vec<String>,
    /// Its example bots in the repository's `bots-examples/` (built by `cargo xtask bots`).
    pub examples: ExampleBots,
}

/// A game's example bots, by name (`bots-examples/<name>`, built to
/// `target/bots/<name>.wasm`): what a newcomer plays first, what a demo ladder enters, and what
/// the tests that cover every game play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ExampleBots {
    /// The strongest simple example: it beats [`ExampleBots::random`] from either seat.
    pub strong: &'static str,
    /// A bot that plays a random legal action every turn.
    pub random: &'static str,
    /// For a game with a line protocol, a WASI command that speaks it, playing a random legal
    /// action every turn; `None` for a game without one.
    pub stdio: Option<&'static str>,
}

impl ExampleBots {
    /// The strong and the random example of a game without a line protocol (see
    /// [`ProtocolEntry`] for the one with).
    const fn of(strong: &'static str, random: &'static str) -> ExampleBots {
        ExampleBots { strong, random, stdio: None }
    }
}

/// A played match, type-erased.
pub struct PlayedMatch {
    /// The result (what `--json` prints).
    pub result: MatchResult,
    /// The replay, as JSON.
    pub replay: String,
    /// Per seat, why it forfeited for its traps, if it did: picked out of the match record for
    /// the terminal (the replay already holds all of it, so nothing is added to it).
    pub post_mortems: Vec<Option<PostMortem>>,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Wrong number of bots.
    #[error("{game} takes {} bots, {given} given", player_count(*min, *max))]
    Players {
        /// The game.
        game: &'static str,
        /// Fewest.
        min: usize,
        /// Most.
        max: usize,
        /// Given.
        given: usize,
    },
    /// A bot file was refused.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The options were refused.
    #[error(transparent)]
    Options(#[from] SetupError),
    /// The match could not run.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The replay could not be encoded.
    #[error("encoding the replay: {0}")]
    Encode(#[from] serde_json::Error),
    /// The match record could not be digested.
    #[error("digesting the match record: {0}")]
    Digest(#[from] bincode::error::EncodeError),
}

/// One game, for front ends.
pub trait GameEntry: Send + Sync {
    /// What `arena games` shows.
    fn info(&self) -> GameInfo;
    /// Loads the bots (each distinct file compiled once, each data folder read once), builds the
    /// config from `options`, and plays one match: a series of one, the bots in command-line
    /// order.
    fn play(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        seed: u64,
        budget: Budget,
    ) -> Result<PlayedMatch, PlayError> {
        let seating: Vec<usize> = (0..bots.len()).collect();
        let mut played = self.play_series(arena, bots, options, &[(seed, seating)], budget)?;
        let info = self.info();
        played.pop().ok_or(PlayError::Players {
            game: info.name,
            min: info.min_players,
            max: info.max_players,
            given: bots.len(),
        })
    }
    /// Loads the bots once and plays a series of matches: each `(seed, seating)` of `plan` is
    /// one match whose seat `s` is `bots[seating[s]]` (a bot may take several seats).
    fn play_series(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        plan: &[(u64, Vec<usize>)],
        budget: Budget,
    ) -> Result<Vec<PlayedMatch>, PlayError>;
    /// Re-runs a replay of this game and compares; `bot_files` overrides seats' bot files and
    /// data folders.
    fn verify(&self, arena: &Arena, replay: &Path, bot_files: &[Option<BotFiles>]) -> Result<Verdict, ReplayError>;
    /// Checks game options (`--option KEY=VALUE`) without playing.
    fn check_options(&self, options: &[(String, String)]) -> Result<(), SetupError>;
    /// Checks `options` and loads every bot of `bots` once, for many matches (a tournament):
    /// a bot that fails to load is kept as its error, so the others still play.
    fn load_pool(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        memory_mib: u32,
    ) -> Result<Box<dyn BotPool>, SetupError>;
}

/// Bots loaded once and seated in any number of matches, from any thread.
pub trait BotPool: Send + Sync {
    /// Why each bot (in the order given) could not be loaded, with the step that refused it;
    /// `None` for a loaded bot.
    fn load_failures(&self) -> Vec<Option<LoadFailure>>;
    /// Why each bot (in the order given) could not be loaded; `None` for a loaded bot.
    fn load_errors(&self) -> Vec<Option<String>> {
        self.load_failures().into_iter().map(|failure| failure.map(|failure| failure.message)).collect()
    }
    /// Plays one match whose seat `s` is bot `seating[s]`; its replay's JSON text only when
    /// `replay` asks for it (a quarter of a short match's time goes into writing it).
    fn play(
        &self,
        arena: &Arena,
        seating: &[usize],
        seed: u64,
        budget: Budget,
        replay: ReplayText,
    ) -> Result<PoolMatch, PlayError>;
}

/// Why a bot of a [`BotPool`] could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadFailure {
    /// The step of loading that refused it.
    pub stage: LoadStage,
    /// Why, as `arena match` says it.
    pub message: String,
}

impl LoadFailure {
    fn of(err: &LoadError) -> LoadFailure {
        LoadFailure { stage: err.stage(), message: err.to_string() }
    }
}

/// Whether [`BotPool::play`] writes the replay's JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayText {
    /// Yes, in [`PoolMatch::replay`].
    Json,
    /// No: the match's digest is enough.
    DigestOnly,
}

/// A match a [`BotPool`] played.
pub struct PoolMatch {
    /// The result.
    pub result: MatchResult,
    /// The match record's digest ([`crate::record::MatchRecord::digest`]).
    pub digest: String,
    /// The replay, as JSON, when asked for ([`ReplayText::Json`]).
    pub replay: Option<String>,
    /// Turns each seat was asked to play (its answers, suspensions and missed turns included).
    pub seat_turns: Vec<u32>,
    /// Each seat's faults in the order they happened, each with its turn (0: the start-up).
    pub seat_faults: Vec<Vec<(u32, BotFault)>>,
}

/// Per seat of `seats`: the turns it was asked to play and its faults with their turns (0 for
/// the start-up's, `setup`), from a match record's parts.
fn seat_tallies<G: Game>(
    seats: usize,
    setup: &[SeatTurn<G>],
    turns: &[TurnRecord<G>],
) -> (Vec<u32>, Vec<Vec<(u32, BotFault)>>) {
    let mut seat_turns = vec![0u32; seats];
    let mut seat_faults = vec![Vec::new(); seats];
    let started = setup.iter().map(|seat_turn| (0, seat_turn));
    let played = turns.iter().flat_map(|turn| turn.seats.iter().map(move |seat_turn| (turn.turn, seat_turn)));
    for (turn, seat_turn) in started.chain(played) {
        if turn > 0
            && let Some(count) = seat_turns.get_mut(seat_turn.seat)
        {
            *count += 1;
        }
        if let Some(faults) = seat_faults.get_mut(seat_turn.seat) {
            faults.extend(seat_turn.faults.iter().map(|fault| (turn, fault.clone())));
        }
    }
    (seat_turns, seat_faults)
}

/// The generic [`BotPool`]: the game's config and each bot's contestant or load error.
struct Pool<G: Game> {
    config: G::Config,
    bots: Vec<Result<Arc<dyn Contestant<G>>, LoadFailure>>,
}

impl<G: Game> BotPool for Pool<G> {
    fn load_failures(&self) -> Vec<Option<LoadFailure>> {
        self.bots.iter().map(|bot| bot.as_ref().err().cloned()).collect()
    }

    fn play(
        &self,
        arena: &Arena,
        seating: &[usize],
        seed: u64,
        budget: Budget,
        replay: ReplayText,
    ) -> Result<PoolMatch, PlayError> {
        let record = self.play_record(arena, seating, seed, budget)?;
        let (seat_turns, seat_faults) = seat_tallies(seating.len(), &record.setup, &record.turns);
        let digest = record.digest()?;
        let replay = match replay {
            ReplayText::Json => Some(serde_json::to_string(&record)?),
            ReplayText::DigestOnly => None,
        };
        Ok(PoolMatch { digest, replay, result: record.result, seat_turns, seat_faults })
    }
}

impl<G: Game> Pool<G> {
    /// Plays one match whose seat `s` is bot `seating[s]` and returns its record.
    fn play_record(
        &self,
        arena: &Arena,
        seating: &[usize],
        seed: u64,
        budget: Budget,
    ) -> Result<MatchRecord<G>, PlayError> {
        let (min, max) = (G::MIN_PLAYERS, G::MAX_PLAYERS);
        let seated: Vec<Arc<dyn Contestant<G>>> =
            seating.iter().filter_map(|&index| self.bots.get(index)?.as_ref().ok().map(Arc::clone)).collect();
        if seated.len() != seating.len() || !(min..=max).contains(&seated.len()) {
            return Err(PlayError::Players { game: G::NAME, min, max, given: seated.len() });
        }
        Ok(play_contestants(arena, &seated, &self.config, seed, budget)?)
    }
}

/// Loads a pool of bots for `G` with `load`.
fn load_pool_with<G: Game>(
    arena: &Arena,
    files: &[BotFiles],
    options: &[(String, String)],
    memory_mib: u32,
    load: &SeatLoader<'_, G>,
) -> Result<Box<dyn BotPool>, SetupError> {
    let config = G::config_from_options(options)?;
    let loader = Loader::new(arena, memory_mib);
    let bots =
        files.iter().map(|files| load_files(&loader, files, load).map_err(|err| LoadFailure::of(&err))).collect();
    Ok(Box::new(Pool::<G> { config, bots }))
}

/// Loads one bot: its file with `load`, given its data folder (read once, within the arena's
/// limits) if it has one.
fn load_files<G: Game>(
    loader: &Loader<'_>,
    files: &BotFiles,
    load: &SeatLoader<'_, G>,
) -> Result<Arc<dyn Contestant<G>>, LoadError> {
    let source = open_bot(loader, &files.wasm)?;
    let data = files.data.as_deref().map(|folder| BotData::read(folder, loader.arena().data_limits())).transpose()?;
    load(loader, &files.wasm, &source, data)
}

/// A game whose bots are components exporting its WIT world.
struct Entry<B> {
    examples: ExampleBots,
    binding: PhantomData<B>,
}

impl<B> Entry<B> {
    const fn new(examples: ExampleBots) -> Self {
        Entry { examples, binding: PhantomData }
    }
}

fn wit_kind<B: Binding>() -> String {
    format!("component exporting {} (world {})", B::EXPORT, B::WORLD)
}

fn info_of<G: Game>(bot_kinds: Vec<String>, examples: ExampleBots) -> GameInfo {
    GameInfo {
        name: G::NAME,
        min_players: G::MIN_PLAYERS,
        max_players: G::MAX_PLAYERS,
        max_turns: G::MAX_TURNS,
        options: G::option_docs(),
        bot_kinds,
        examples,
    }
}

impl<B: Binding> GameEntry for Entry<B> {
    fn info(&self) -> GameInfo {
        info_of::<B::Game>(vec![wit_kind::<B>()], self.examples)
    }

    fn play_series(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        plan: &[(u64, Vec<usize>)],
        budget: Budget,
    ) -> Result<Vec<PlayedMatch>, PlayError> {
        play_series_files(arena, bots, options, plan, budget, &load_wit::<B>)
    }

    fn verify(&self, arena: &Arena, replay: &Path, bot_files: &[Option<BotFiles>]) -> Result<Verdict, ReplayError> {
        let recorded = read_replay::<B::Game>(replay)?;
        verify::<B>(arena, &recorded, bot_files)
    }

    fn load_pool(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        memory_mib: u32,
    ) -> Result<Box<dyn BotPool>, SetupError> {
        load_pool_with(arena, bots, options, memory_mib, &load_wit::<B>)
    }

    fn check_options(&self, options: &[(String, String)]) -> Result<(), SetupError> {
        <B::Game as Game>::config_from_options(options).map(drop)
    }
}

/// A game that also seats WASI commands speaking its original line protocol `P`.
struct ProtocolEntry<B, P> {
    examples: ExampleBots,
    types: PhantomData<(B, P)>,
}

impl<B, P> ProtocolEntry<B, P> {
    /// The game's `examples`, and `stdio`: its line-protocol example.
    const fn new(examples: ExampleBots, stdio: &'static str) -> Self {
        ProtocolEntry { examples: ExampleBots { stdio: Some(stdio), ..examples }, types: PhantomData }
    }
}

impl<B: Binding, P: LineProtocol<Game = B::Game>> GameEntry for ProtocolEntry<B, P> {
    fn info(&self) -> GameInfo {
        let command = format!(
            "WASI command (exporting {COMMAND_EXPORT}.x, e.g. a wasm32-wasip2 binary) speaking the original protocol ({})",
            P::NAME
        );
        let wasip1 = format!(
            "wasm32-wasip1 command (a core module exporting _start and importing wasi_snapshot_preview1: Go, Zig, \
             C/C++ with wasi-libc, AssemblyScript with its WASI shim, Rust's wasm32-wasip1) speaking the original \
             protocol ({})",
            P::NAME
        );
        info_of::<B::Game>(vec![wit_kind::<B>(), command, wasip1], self.examples)
    }

    fn play_series(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        plan: &[(u64, Vec<usize>)],
        budget: Budget,
    ) -> Result<Vec<PlayedMatch>, PlayError> {
        play_series_files(arena, bots, options, plan, budget, &load_either::<B, P>)
    }

    fn verify(&self, arena: &Arena, replay: &Path, bot_files: &[Option<BotFiles>]) -> Result<Verdict, ReplayError> {
        let recorded = read_replay::<B::Game>(replay)?;
        verify_with(arena, &recorded, bot_files, &load_either::<B, P>)
    }

    fn load_pool(
        &self,
        arena: &Arena,
        bots: &[BotFiles],
        options: &[(String, String)],
        memory_mib: u32,
    ) -> Result<Box<dyn BotPool>, SetupError> {
        load_pool_with(arena, bots, options, memory_mib, &load_either::<B, P>)
    }

    fn check_options(&self, options: &[(String, String)]) -> Result<(), SetupError> {
        <B::Game as Game>::config_from_options(options).map(drop)
    }
}

/// Loads a WIT bot for `B`.
fn load_wit<B: Binding>(
    loader: &Loader<'_>,
    path: &Path,
    source: &BotSource,
    data: Option<BotData>,
) -> Result<Arc<dyn Contestant<B::Game>>, LoadError> {
    let bot = load_bot_component::<B>(loader.arena(), path, compile_source(loader, path, source, B::EXPORT)?)?;
    Ok(Arc::new(WitContestant(Arc::new(bot.with_data(data)))))
}

/// Loads a WASI command as a protocol-`P` bot (a `wasm32-wasip1` command is wrapped into one
/// first, keeping the file's sha256, or run on WASI preview1 when it is a Go program), anything else as a WIT bot for `B` (whose refusals name
/// `B`'s export).
fn load_either<B: Binding, P: LineProtocol<Game = B::Game>>(
    loader: &Loader<'_>,
    path: &Path,
    source: &BotSource,
    data: Option<BotData>,
) -> Result<Arc<dyn Contestant<B::Game>>, LoadError> {
    let arena = loader.arena();
    // A cached component was compiled from the file itself: the file is a component.
    if let BotSource::Read { bytes, sha256 } = source
        && let Some(program) = preview1_command(path, bytes)?
    {
        let command = match program {
            Preview1Command::Wrapped(wrapped) => {
                let compiled = compile(loader, path, &wrapped, COMMAND_EXPORT)?;
                let mut command = load_command_component(arena, path, compiled)?;
                command.sha256 = *sha256;
                command
            }
            Preview1Command::Native => load_preview1_command(loader, path, bytes, sha256)?,
        };
        return Ok(Arc::new(CommandContestant::<P>::new(Arc::new(command.with_data(data)))));
    }
    let compiled = compile_source(loader, path, source, B::EXPORT)?;
    if is_command(arena, &compiled.component) {
        let command = load_command_component(arena, path, compiled)?.with_data(data);
        return Ok(Arc::new(CommandContestant::<P>::new(Arc::new(command))));
    }
    let bot = load_bot_component::<B>(arena, path, compiled)?.with_data(data);
    Ok(Arc::new(WitContestant(Arc::new(bot))))
}

/// Checks the player count, loads each distinct file once and plays every match of `plan`.
fn play_series_files<G: Game>(
    arena: &Arena,
    files: &[BotFiles],
    options: &[(String, String)],
    plan: &[(u64, Vec<usize>)],
    budget: Budget,
    load: &SeatLoader<'_, G>,
) -> Result<Vec<PlayedMatch>, PlayError> {
    let (min, max) = (G::MIN_PLAYERS, G::MAX_PLAYERS);
    if !(min..=max).contains(&files.len()) {
        return Err(PlayError::Players { game: G::NAME, min, max, given: files.len() });
    }
    let config = G::config_from_options(options)?;
    // A bot that declares more initial memory than this match grants is refused at load.
    let loader = Loader::new(arena, budget.memory_mib);
    let mut bots: Vec<Arc<dyn Contestant<G>>> = Vec::with_capacity(files.len());
    for (seat, bot_files) in files.iter().enumerate() {
        let earlier = files[..seat].iter().position(|other| other == bot_files);
        let bot = match earlier.and_then(|index| bots.get(index)) {
            Some(same) => Arc::clone(same),
            None => load_files(&loader, bot_files, load)?,
        };
        bots.push(bot);
    }
    // The same seating and match path as a tournament's pool.
    let pool = Pool::<G> { config, bots: bots.into_iter().map(Ok).collect() };
    let mut played = Vec::with_capacity(plan.len());
    for (seed, seating) in plan {
        let record = pool.play_record(arena, seating, *seed, budget)?;
        let replay = serde_json::to_string(&record)?;
        let post_mortems = PostMortem::of_match(&record);
        played.push(PlayedMatch { result: record.result, replay, post_mortems });
    }
    Ok(played)
}

/// A game's player count in words: "exactly 2", "2 to 8".
pub fn player_count(min: usize, max: usize) -> String {
    if min == max { format!("exactly {min}") } else { format!("{min} to {max}") }
}

/// Something done with one game's types, chosen by name at run time ([`visit_game`]): what a
/// crate above this one needs of every game without a list of its own (the viewer's page).
pub trait GameVisitor {
    /// What it gives.
    type Output;
    /// Does it for the game whose WIT binding is `B`.
    fn visit<B: Binding>(self) -> Self::Output;
}

/// The one list of games: `binding => entry`, in the order `arena games` lists them.
macro_rules! registered_games {
    ($($binding:ty => $entry:expr),* $(,)?) => {
        /// Every game, in the order `arena games` lists them.
        pub fn games() -> Vec<&'static dyn GameEntry> {
            vec![$({
                const ENTRY: &dyn GameEntry = &$entry;
                ENTRY
            }),*]
        }

        /// `visitor` done with the types of the game called `name`; `None` when the arena plays
        /// no such game.
        pub fn visit_game<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
            $(
                if name == <<$binding as Binding>::Game as Game>::NAME {
                    return Some(visitor.visit::<$binding>());
                }
            )*
            None
        }
    };
}

registered_games! {
    AzulBinding => ProtocolEntry::<AzulBinding, AzulText>::new(ExampleBots::of("azul-greedy", "azul-random"), "azul-stdio-random"),
    SuitebotBinding => ProtocolEntry::<SuitebotBinding, SuitebotJson>::new(
        ExampleBots::of("suitebot-harvester", "suitebot-random"),
        "suitebot-stdio-random",
    ),
    PaintBinding => ProtocolEntry::<PaintBinding, PaintJson>::new(ExampleBots::of("paint-greedy", "paint-random"), "paint-stdio-random"),
    EubotsBinding => Entry::<EubotsBinding>::new(ExampleBots::of("eubots-swarm", "eubots-random")),
    CodeCharacterBinding => Entry::<CodeCharacterBinding>::new(ExampleBots::of("cc-rush", "cc-random")),
}

/// The game called `name`.
pub fn find_game(name: &str) -> Option<&'static dyn GameEntry> {
    games().into_iter().find(|game| game.info().name == name)
}

/// What a replay's header scan needs to know of the game called `name`, if the arena plays it
/// (the [`crate::replay::KnownGames`] the CLI hands to `replay_game` and `replay_bots`).
pub fn replay_limits(name: &str) -> Option<crate::replay::GameLimits> {
    let info = find_game(name)?.info();
    Some(crate::replay::GameLimits { name: info.name, max_turns: info.max_turns, max_players: info.max_players })
}

/// Every game's name.
pub fn game_names() -> Vec<&'static str> {
    games().iter().map(|game| game.info().name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fault::{ForfeitReason, InvalidReason, Phase, TrapKind};
    use arena_azul::Azul;

    fn seat_turn(seat: usize, faults: Vec<BotFault>) -> SeatTurn<Azul> {
        SeatTurn { seat, answer: None, applied: None, fuel: 1, faults, log: Default::default() }
    }

    #[test]
    fn seat_tallies_count_each_seats_turns_and_list_its_faults_with_their_turns() {
        let trap = BotFault::Trapped { phase: Phase::Init, trap: TrapKind::StartupFuelExhausted };
        let invalid = BotFault::InvalidAction { reason: InvalidReason::Malformed { detail: "no".into() } };
        let forfeit = BotFault::Forfeit { reason: ForfeitReason::TooManyTraps };
        let setup = [seat_turn(0, vec![]), seat_turn(1, vec![trap.clone()])];
        let turn = |turn: u32, seats: Vec<SeatTurn<Azul>>| TurnRecord::<Azul> {
            turn,
            seats,
            events: Vec::new(),
            state_hash: String::new(),
        };
        let turns = [
            turn(1, vec![seat_turn(0, vec![invalid.clone()])]),
            turn(2, vec![seat_turn(1, vec![BotFault::Suspended])]),
            turn(3, vec![seat_turn(0, vec![]), seat_turn(1, vec![invalid.clone(), forfeit.clone()])]),
            // A seat the match does not have is ignored.
            turn(4, vec![seat_turn(7, vec![BotFault::Suspended])]),
        ];
        let (seat_turns, seat_faults) = seat_tallies(2, &setup, &turns);
        assert_eq!(seat_turns, [2, 2], "the start-up is not a turn");
        assert_eq!(seat_faults[0], [(1, invalid.clone())]);
        assert_eq!(seat_faults[1], [(0, trap), (2, BotFault::Suspended), (3, invalid), (3, forfeit)]);
    }
}
