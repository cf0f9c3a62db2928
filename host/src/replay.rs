//! Replay files: a [`MatchRecord`] as JSON, and verification by re-running the match from what
//! the replay records (seed, config, budget, bots by sha256) and comparing turn by turn.
//!
//! A replay file is untrusted: it is opened only if it is a regular file ([`regular_file`]: a
//! named pipe would block the read), read as a stream (its text is never held whole, and a gzip
//! file inflates to at most [`MAX_REPLAY_FILE`] bytes), and scanned before it is parsed: a scan
//! that keeps nothing of the turns counts them, and a replay recording more turns than its game
//! can last ([`Game::MAX_TURNS`]), or more bots or seats than it seats, is refused before any
//! turn is held in memory. A 1.6 MB compressed Azul replay of five million empty turns took
//! 2.7 GB to parse; it is now refused at its 2001st turn by a scan that keeps none of them (the
//! whole `arena replay verify` process peaks at 17 MB).

use crate::bindings::Binding;
use crate::bot::WitContestant;
use crate::bot_data::{BotData, BotFiles, DATA_EXTENSION, data_folder_beside};
use crate::fault::BotFault;
use crate::loader::{BotSource, LoadError, Loader, bot_file_sha256_hex, compile_source, load_bot_component, open_bot};
use crate::play::play_contestants;
use crate::record::{BotRef, MatchRecord, REPLAY_FORMAT, REPLAY_FORMAT_WITH_DATA, RuntimeInfo, replay_format};
use crate::regular_file::{self, OpenError};
use crate::runtime::Arena;
use crate::seat::Contestant;
use arena_game::Game;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest replay file read, and most bytes of JSON text a compressed one may inflate to.
pub const MAX_REPLAY_FILE: u64 = 512 << 20;

/// Most bots, start-ups or seats of a turn a replay may list before its game is known: more than
/// any game seats (a seat is a `u8`).
const MAX_SEATS_ANY_GAME: usize = 256;

/// Why a replay cannot be verified.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Unreadable.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The path is not a regular file (a named pipe would block the read forever).
    #[error("{path}: is {kind}, not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is: "a named pipe (FIFO)", "a directory", ...
        kind: &'static str,
    },
    /// The replay records more turns than a match of its game can last: refused before any turn
    /// is held in memory.
    #[error("{path}: records more than {limit} turns, and a {game} match lasts at most {limit}")]
    TooManyTurns {
        /// The file.
        path: PathBuf,
        /// The game.
        game: &'static str,
        /// [`Game::MAX_TURNS`].
        limit: u32,
    },
    /// The replay lists more bots, start-ups or seats in a turn than its game seats.
    #[error("{path}: lists more than {limit} {what}, more than its game seats")]
    TooManySeats {
        /// The file.
        path: PathBuf,
        /// "bots", "seat start-ups" or "seats in a turn".
        what: &'static str,
        /// The game's most players (256 before the game is known).
        limit: usize,
    },
    /// Not a replay.
    #[error("{path}: not a Wasm Arena replay: {detail}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// Recorded by another runtime: fuel would not mean the same.
    #[error(
        "replay was recorded with {recorded:?}; this arena runs {current:?}: fuel is only comparable on the same runtime"
    )]
    Runtime {
        /// What the replay recorded.
        recorded: Box<RuntimeInfo>,
        /// This build.
        current: Box<RuntimeInfo>,
    },
    /// A bot file is missing or changed.
    #[error("seat {seat}: {detail}")]
    Bot {
        /// The seat.
        seat: usize,
        /// What is wrong.
        detail: String,
    },
    /// The recorded actions do not lead the engine to the recorded states.
    #[error("the replay does not match this engine at turn {turn}: {detail}")]
    Diverged {
        /// The first turn that differs (0: the setup).
        turn: u32,
        /// How.
        detail: String,
    },
    /// A bot could not be loaded.
    #[error(transparent)]
    Load(#[from] crate::loader::LoadError),
    /// The match could not be played again.
    #[error(transparent)]
    Match(#[from] crate::play::MatchError),
}

/// What a scan needs to know of a game before the replay is parsed as that game's: its name
/// (for messages), most turns and most seats.
#[derive(Debug, Clone, Copy)]
pub struct GameLimits {
    /// The game's name.
    pub name: &'static str,
    /// Its [`Game::MAX_TURNS`].
    pub max_turns: u32,
    /// Its [`Game::MAX_PLAYERS`].
    pub max_players: usize,
}

/// The games a replay may name, by name (the registry's `replay_limits`): a caller above the
/// registry hands it in, so this module does not depend on the registry that depends on it.
pub type KnownGames = fn(&str) -> Option<GameLimits>;

/// The game named in a replay file, to dispatch on before parsing it fully; `games` gives the
/// limits of the game it names.
pub fn replay_game(path: &Path, games: KnownGames) -> Result<String, ReplayError> {
    let scan = scan(path, &mut open_replay(path)?, ScanLimits::any_game(games))?;
    let refused = |detail: String| ReplayError::Parse { path: path.into(), detail };
    match scan.format {
        Some(format) if format == replay_format(&scan.bots) => {}
        // Only a match in which a bot brought data is written in the second format.
        Some(format) if format == REPLAY_FORMAT || format == REPLAY_FORMAT_WITH_DATA => {
            let expected = replay_format(&scan.bots);
            return Err(refused(format!("format {format:?}, but a replay of its bots is {expected:?}")));
        }
        Some(format) => {
            return Err(refused(format!(
                "format {format:?}, expected {REPLAY_FORMAT:?} or {REPLAY_FORMAT_WITH_DATA:?}"
            )));
        }
        None => return Err(refused("missing field `format`".into())),
    }
    scan.game.ok_or_else(|| refused("missing field `game`".into()))
}

/// Opens a replay file: a regular file (see [`regular_file`]) of at most [`MAX_REPLAY_FILE`]
/// bytes.
fn open_replay(path: &Path) -> Result<File, ReplayError> {
    let (file, metadata) = regular_file::open(path).map_err(|err| match err {
        OpenError::Io { path, source } => ReplayError::Read { path, source },
        OpenError::NotRegular { path, kind } => ReplayError::NotAFile { path, kind },
    })?;
    let size = metadata.len();
    if size > MAX_REPLAY_FILE {
        return Err(ReplayError::Parse {
            path: path.into(),
            detail: format!("{size} bytes is over the {MAX_REPLAY_FILE}-byte limit"),
        });
    }
    Ok(file)
}

/// The first bytes of a gzip file (`arena tournament run --replays` keeps replays compressed).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The JSON text of a replay file, from its start, read as a stream: gzip-decompressed when the
/// file starts like gzip, and at most `limit` bytes of text ([`MAX_REPLAY_FILE`] when read from
/// disk): a small file must not inflate without bound.
fn json_text<'a>(path: &Path, file: impl Read + 'a, limit: u64) -> Result<Text<'a>, ReplayError> {
    let mut file = BufReader::new(file);
    let gzip =
        file.fill_buf().map_err(|source| ReplayError::Read { path: path.into(), source })?.starts_with(&GZIP_MAGIC);
    let inner: Box<dyn Read + 'a> = if gzip { Box::new(flate2::bufread::GzDecoder::new(file)) } else { Box::new(file) };
    Ok(Text { inner, gzip, left: limit, limit })
}

/// A replay's text ([`json_text`]): its reads fail, saying why, on bytes that are not gzip and
/// past the limit.
struct Text<'a> {
    inner: Box<dyn Read + 'a>,
    gzip: bool,
    /// Bytes that may still be read.
    left: u64,
    limit: u64,
}

impl Read for Text<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte past the limit is asked for, to tell a text of exactly `limit` bytes from a
        // longer one.
        let most = usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX).min(buf.len());
        let gzip = self.gzip;
        let read = self.inner.read(&mut buf[..most]).map_err(|err| {
            if gzip { std::io::Error::new(err.kind(), format!("not valid gzip: {err}")) } else { err }
        })?;
        if read as u64 > self.left {
            let how = if self.gzip { "decompresses to" } else { "is" };
            let limit = self.limit;
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{how} over the {limit}-byte limit"),
            ));
        }
        self.left -= read as u64;
        Ok(read)
    }
}

/// Parses the replay in `file` (from its start) as a `T`, as a stream.
fn parse<T: serde::de::DeserializeOwned>(path: &Path, file: &mut File) -> Result<T, ReplayError> {
    file.rewind().map_err(|source| ReplayError::Read { path: path.into(), source })?;
    let text = BufReader::new(json_text(path, &*file, MAX_REPLAY_FILE)?);
    serde_json::from_reader(text).map_err(|err| ReplayError::Parse { path: path.into(), detail: err.to_string() })
}

/// How many turns, and bots or seats, a scan accepts.
#[derive(Debug, Clone, Copy)]
struct ScanLimits {
    /// The game (for messages) and its [`Game::MAX_TURNS`]; `None`: any number of turns.
    turns: Option<(&'static str, u32)>,
    /// Most bots, start-ups, and seats in one turn.
    seats: usize,
    /// Where the limits of the game the replay names are found, while it is not known yet.
    games: Option<KnownGames>,
}

impl ScanLimits {
    /// Before the game is known: seats bounded by [`MAX_SEATS_ANY_GAME`], turns not bounded; once
    /// the scan reads the name of a game the arena plays (the arena writes it before the bots
    /// and turns), that game's limits.
    fn any_game(games: KnownGames) -> ScanLimits {
        ScanLimits { turns: None, seats: MAX_SEATS_ANY_GAME, games: Some(games) }
    }

    /// Game `G`'s.
    fn of<G: Game>() -> ScanLimits {
        ScanLimits { turns: Some((G::NAME, G::MAX_TURNS)), seats: G::MAX_PLAYERS, games: None }
    }

    /// The limits of the game called `name`, if `games` knows it.
    fn of_game_named(self, name: &str) -> Option<ScanLimits> {
        let known = (self.games?)(name)?;
        Some(ScanLimits { turns: Some((known.name, known.max_turns)), seats: known.max_players, games: None })
    }

    /// A count of `what` (bots, start-ups, seats in a turn) within these limits.
    fn seats(self, what: &'static str) -> Over {
        Over::Seats { what, limit: self.seats }
    }
}

/// What a scan keeps of a replay: its format, game and bots; turns and seats are only counted.
#[derive(Debug, Default)]
struct Scan {
    format: Option<String>,
    game: Option<String>,
    bots: Vec<BotRef>,
}

/// A list's limit, and the one it went past: serde's errors are strings, so the scan says which
/// limit here.
#[derive(Debug, Clone, Copy)]
enum Over {
    /// A game's [`Game::MAX_TURNS`].
    Turns { game: &'static str, limit: u32 },
    /// Most bots, start-ups or seats in a turn.
    Seats { what: &'static str, limit: usize },
}

impl Over {
    fn limit(self) -> usize {
        match self {
            Over::Turns { limit, .. } => limit as usize,
            Over::Seats { limit, .. } => limit,
        }
    }
}

/// Reads a replay in `file` in one streaming pass that keeps nothing of its turns, refusing it
/// as soon as a list goes past `limits` (one item past a limit is read, as nothing).
fn scan(path: &Path, file: &mut File, limits: ScanLimits) -> Result<Scan, ReplayError> {
    file.rewind().map_err(|source| ReplayError::Read { path: path.into(), source })?;
    let text = BufReader::new(json_text(path, &*file, MAX_REPLAY_FILE)?);
    let over = Cell::new(None);
    let mut json = serde_json::Deserializer::from_reader(text);
    let scanned = ScanSeed { limits, over: &over }.deserialize(&mut json).and_then(|scan| json.end().map(|()| scan));
    match over.get() {
        Some(Over::Turns { game, limit }) => Err(ReplayError::TooManyTurns { path: path.into(), game, limit }),
        Some(Over::Seats { what, limit }) => Err(ReplayError::TooManySeats { path: path.into(), what, limit }),
        None => scanned.map_err(|err| ReplayError::Parse { path: path.into(), detail: err.to_string() }),
    }
}

/// The replay object, as [`scan`] reads it.
struct ScanSeed<'a> {
    limits: ScanLimits,
    over: &'a Cell<Option<Over>>,
}

/// The replay's fields a scan looks at.
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Format,
    Game,
    Bots,
    Setup,
    Turns,
    #[serde(other)]
    Other,
}

impl<'de> DeserializeSeed<'de> for ScanSeed<'_> {
    type Value = Scan;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Scan, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ScanSeed<'_> {
    type Value = Scan;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a replay object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scan, A::Error> {
        let ScanSeed { mut limits, over } = self;
        let counted =
            |limits: ScanLimits, what| Items { item: PhantomData::<IgnoredAny>, bound: Some(limits.seats(what)), over };
        let mut scan = Scan::default();
        while let Some(field) = map.next_key()? {
            match field {
                Field::Format => scan.format = Some(map.next_value()?),
                Field::Game => {
                    let game: String = map.next_value()?;
                    if limits.turns.is_none()
                        && let Some(known) = limits.of_game_named(&game)
                    {
                        limits = known;
                    }
                    scan.game = Some(game);
                }
                Field::Bots => {
                    let bots = Items { item: PhantomData::<BotRef>, bound: Some(limits.seats("bots")), over };
                    scan.bots = map.next_value_seed(bots)?;
                }
                Field::Setup => {
                    map.next_value_seed(counted(limits, "seat start-ups"))?;
                }
                Field::Turns => {
                    let turn = TurnSeed { seats: counted(limits, "seats in a turn") };
                    let bound = limits.turns.map(|(game, limit)| Over::Turns { game, limit });
                    map.next_value_seed(Items { item: turn, bound, over })?;
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(scan)
    }
}

/// A list of at most `bound`'s limit of items, each read with `item`: the item past the limit is
/// read as nothing, and refused (the bound it went past kept in `over`). Items read as
/// [`IgnoredAny`] or `()` are zero-sized: counting them allocates nothing.
#[derive(Clone)]
struct Items<'a, S> {
    item: S,
    /// `None`: any number.
    bound: Option<Over>,
    over: &'a Cell<Option<Over>>,
}

impl<'de, S: DeserializeSeed<'de> + Clone> DeserializeSeed<'de> for Items<'_, S> {
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, S: DeserializeSeed<'de> + Clone> Visitor<'de> for Items<'_, S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        loop {
            if let Some(bound) = self.bound
                && items.len() >= bound.limit()
            {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    return Ok(items);
                }
                self.over.set(Some(bound));
                return Err(serde::de::Error::custom("a list past its limit"));
            }
            match seq.next_element_seed(self.item.clone())? {
                Some(item) => items.push(item),
                None => return Ok(items),
            }
        }
    }
}

/// One turn, as a scan reads it: its seats counted, the rest skipped.
#[derive(Clone)]
struct TurnSeed<'a> {
    seats: Items<'a, PhantomData<IgnoredAny>>,
}

/// The fields of a turn a scan looks at.
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum TurnField {
    Seats,
    #[serde(other)]
    Other,
}

impl<'de> DeserializeSeed<'de> for TurnSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TurnSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a turn object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(field) = map.next_key()? {
            match field {
                TurnField::Seats => {
                    map.next_value_seed(self.seats.clone())?;
                }
                TurnField::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// Plays a replay's recorded actions on the engine alone (no bot runs): calls `visit` with the
/// state before the first turn and after every turn, and checks each turn's state hash against
/// the recorded one. A seat's action is what the match passed to the engine: its answer, unless
/// the game refused it (then the engine's fallback applies again).
pub fn replay_states<G: Game>(record: &MatchRecord<G>, mut visit: impl FnMut(&G)) -> Result<(), ReplayError> {
    let diverged = |turn: u32, detail: String| ReplayError::Diverged { turn, detail };
    let mut game =
        G::new(&record.config, record.bots.len(), record.seed).map_err(|err| diverged(0, err.to_string()))?;
    visit(&game);
    for turn in &record.turns {
        let actions: Vec<_> = turn
            .seats
            .iter()
            .map(|seat| {
                let refused = seat.faults.iter().any(|fault| matches!(fault, BotFault::InvalidAction { .. }));
                (seat.seat, if refused { None } else { seat.answer.clone() })
            })
            .collect();
        game.step(&actions).map_err(|err| diverged(turn.turn, err.to_string()))?;
        let hash = format!("{:016x}", game.state_hash());
        if hash != turn.state_hash {
            return Err(diverged(turn.turn, format!("state hash {hash}, the replay records {}", turn.state_hash)));
        }
        visit(&game);
    }
    Ok(())
}

/// The bots a replay names, in seat order, read before the replay is parsed for its game
/// (`games` gives the limits of the game it names).
pub fn replay_bots(path: &Path, games: KnownGames) -> Result<Vec<BotRef>, ReplayError> {
    Ok(scan(path, &mut open_replay(path)?, ScanLimits::any_game(games))?.bots)
}

/// Most files a bot search reads in one folder.
const MAX_SEARCHED_FILES: usize = 10_000;

/// Most data folders a search reads in one folder (each is read whole to be digested).
const MAX_SEARCHED_DATA_FOLDERS: usize = 100;

/// Where a replay's bot is when it is not at its recorded path (a replay made in another folder
/// or on another machine): the recorded path, then the recorded path from the replay's folder
/// (`replay_dir`), then in each of `dirs` the recorded file name, then any `.wasm` file there with
/// the recorded sha256. `None` when no candidate has the recorded sha256.
pub fn find_bot(bot: &BotRef, replay_dir: &Path, dirs: &[PathBuf]) -> Option<PathBuf> {
    find_by(&bot.path, ("wasm", MAX_SEARCHED_FILES), replay_dir, dirs, |path| {
        bot_file_sha256_hex(path).is_ok_and(|sha256| sha256 == bot.sha256)
    })
}

/// Where a replay's bot's data folder is, when the replay records one (`None` when it records
/// none, or no candidate has the recorded digest): the folder [`data_folder_beside`] the bot's
/// file (`wasm`, where it was found), then the recorded folder, that folder from the replay's
/// folder, the recorded folder's name in the bot file's folder and in each of `dirs`, then any
/// `.data` folder in those with the recorded digest. Each candidate is read within the arena's
/// limits and digested.
pub fn find_data(
    arena: &Arena,
    bot: &BotRef,
    wasm: Option<&Path>,
    replay_dir: &Path,
    dirs: &[PathBuf],
) -> Option<PathBuf> {
    let recorded = bot.data.as_ref()?;
    let has_digest = |path: &Path| {
        path.is_dir()
            && BotData::read(path, arena.data_limits()).is_ok_and(|data| data.tree.digest_hex() == recorded.digest)
    };
    if let Some(beside) = wasm.map(data_folder_beside)
        && has_digest(&beside)
    {
        return Some(beside);
    }
    let mut searched = Vec::with_capacity(dirs.len() + 1);
    searched.extend(wasm.and_then(Path::parent).map(Path::to_owned));
    searched.extend(dirs.iter().cloned());
    find_by(&recorded.path, (DATA_EXTENSION, MAX_SEARCHED_DATA_FOLDERS), replay_dir, &searched, has_digest)
}

/// The search of [`find_bot`] and [`find_data`]: `recorded` as it is, then from `replay_dir`,
/// then its file name in each of `dirs`, then any entry with `extension` in each of `dirs`
/// (sorted, at most `most` a folder) for which `matches` holds.
fn find_by(
    recorded: &Path,
    (extension, most): (&str, usize),
    replay_dir: &Path,
    dirs: &[PathBuf],
    matches: impl Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let mut candidates = vec![recorded.to_owned()];
    if recorded.is_relative() {
        candidates.push(replay_dir.join(recorded));
    }
    if let Some(name) = recorded.file_name() {
        candidates.extend(dirs.iter().map(|dir| dir.join(name)));
    }
    if let Some(found) = candidates.into_iter().find(|path| matches(path)) {
        return Some(found);
    }
    dirs.iter().find_map(|dir| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == extension))
            .take(most)
            .collect();
        // Sorted, so the same folder gives the same answer everywhere.
        files.sort();
        files.into_iter().find(|path| matches(path))
    })
}

/// Reads a replay of game `G`: scanned first, so that one recording more turns than a `G`
/// match can last ([`ReplayError::TooManyTurns`]), or more bots or seats than it seats, is
/// refused before any turn is held; then parsed, from the same opened file.
pub fn read_replay<G: Game>(path: &Path) -> Result<MatchRecord<G>, ReplayError> {
    let mut file = open_replay(path)?;
    scan(path, &mut file, ScanLimits::of::<G>())?;
    parse(path, &mut file)
}

/// Writes a replay.
pub fn write_replay<G: Game>(record: &MatchRecord<G>, path: &Path) -> std::io::Result<()> {
    let json = serde_json::to_string(record).map_err(std::io::Error::other)?;
    std::fs::write(path, json + "\n")
}

/// The outcome of a verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every turn and the result match.
    Identical,
    /// The first difference.
    Differs {
        /// The first turn that differs (0 = start-up, or the result when past the last turn).
        turn: u32,
        /// What differs.
        detail: String,
    },
}

/// Re-runs the match a replay records and compares. `bot_files` overrides where to find each
/// seat's bot and data folder (default: the recorded paths); the file must have the recorded
/// sha256, and the data folder (read only when the replay records one) the recorded digest.
pub fn verify<B: Binding>(
    arena: &Arena,
    recorded: &MatchRecord<B::Game>,
    bot_files: &[Option<BotFiles>],
) -> Result<Verdict, ReplayError> {
    verify_with(arena, recorded, bot_files, &|loader: &Loader<'_>, path: &Path, source: &BotSource, data| {
        let compiled = compile_source(loader, path, source, B::EXPORT)?;
        let bot = load_bot_component::<B>(loader.arena(), path, compiled)?.with_data(data);
        Ok(Arc::new(WitContestant(Arc::new(bot))) as Arc<dyn Contestant<B::Game>>)
    })
}

/// Loads one seat's bot from its opened file ([`open_bot`]; `path` names it in messages) with
/// the match's loader, giving it its data folder if it has one.
pub type SeatLoader<'a, G> =
    dyn Fn(&Loader<'_>, &Path, &BotSource, Option<BotData>) -> Result<Arc<dyn Contestant<G>>, LoadError> + 'a;

/// [`verify`] for games whose seats may hold bots of several kinds: `load` makes each seat's
/// contestant from the file.
pub fn verify_with<G: Game>(
    arena: &Arena,
    recorded: &MatchRecord<G>,
    bot_files: &[Option<BotFiles>],
    load: &SeatLoader<'_, G>,
) -> Result<Verdict, ReplayError> {
    let current = RuntimeInfo::current();
    if recorded.runtime.wasmtime != current.wasmtime
        || recorded.runtime.fuel_costs != current.fuel_costs
        || recorded.runtime.rng != current.rng
    {
        return Err(ReplayError::Runtime { recorded: Box::new(recorded.runtime.clone()), current: Box::new(current) });
    }
    // As when it was played: a bot declaring more initial memory than the budget is refused.
    let loader = Loader::new(arena, recorded.budget.memory_mib);
    let mut bots: Vec<Arc<dyn Contestant<G>>> = Vec::new();
    for (seat, bot) in recorded.bots.iter().enumerate() {
        let files = bot_files.get(seat).cloned().flatten().unwrap_or_else(|| BotFiles {
            wasm: bot.path.clone(),
            data: bot.data.as_ref().map(|data| data.path.clone()),
        });
        let path = files.wasm;
        let source = open_bot(&loader, &path).map_err(|err| ReplayError::Bot {
            seat,
            detail: match err {
                LoadError::Read { source, .. } => {
                    format!("{}: cannot read ({source}); pass the bot with --bot", path.display())
                }
                other => other.to_string(),
            },
        })?;
        let hash = hex::encode(source.sha256());
        if hash != bot.sha256 {
            return Err(ReplayError::Bot {
                seat,
                detail: format!("{}: sha256 {hash}, but the replay recorded {}", path.display(), bot.sha256),
            });
        }
        let data = recorded_data(arena, seat, bot, files.data.as_deref())?;
        bots.push(load(&loader, &path, &source, data)?);
    }
    let rerun = play_contestants(arena, &bots, &recorded.config, recorded.seed, recorded.budget)?;
    Ok(compare(recorded, &rerun))
}

/// The data folder of a replay's `seat` (`bot`), read from `folder`: none when the replay records
/// none (whatever folder is given: the match was played without), else the folder must exist and
/// have the recorded digest.
fn recorded_data(
    arena: &Arena,
    seat: usize,
    bot: &BotRef,
    folder: Option<&Path>,
) -> Result<Option<BotData>, ReplayError> {
    let Some(recorded) = &bot.data else { return Ok(None) };
    let Some(folder) = folder else {
        let detail = format!("the replay recorded a data folder (digest {}); pass it with --data", recorded.digest);
        return Err(ReplayError::Bot { seat, detail });
    };
    let data = BotData::read(folder, arena.data_limits())
        .map_err(|err| ReplayError::Bot { seat, detail: format!("data folder refused: {err}; pass it with --data") })?;
    let digest = data.tree.digest_hex();
    if digest != recorded.digest {
        let detail = format!("{}: data digest {digest}, but the replay recorded {}", folder.display(), recorded.digest);
        return Err(ReplayError::Bot { seat, detail });
    }
    Ok(Some(data))
}

/// The first difference between two records of the same match, ignoring bot paths and names
/// (bots are identified by their sha256).
pub fn compare<G: Game>(recorded: &MatchRecord<G>, rerun: &MatchRecord<G>) -> Verdict {
    for (seat, (a, b)) in recorded.setup.iter().zip(&rerun.setup).enumerate() {
        if !same(a, b) {
            return Verdict::Differs { turn: 0, detail: format!("seat {seat} start-up: {}", first_field(a, b)) };
        }
    }
    for (a, b) in recorded.turns.iter().zip(&rerun.turns) {
        if !same(a, b) {
            return Verdict::Differs { turn: a.turn, detail: first_field(a, b) };
        }
    }
    if recorded.turns.len() != rerun.turns.len() {
        let turn = recorded.turns.len().min(rerun.turns.len()) as u32 + 1;
        return Verdict::Differs {
            turn,
            detail: format!("the replay has {} turns, the re-run {}", recorded.turns.len(), rerun.turns.len()),
        };
    }
    // A bot is named after its file: the same bot found under another name is the same bot.
    let mut result = rerun.result.clone();
    for (player, named) in result.players.iter_mut().zip(&recorded.result.players) {
        player.bot.clone_from(&named.bot);
    }
    if recorded.result != result {
        return Verdict::Differs {
            turn: recorded.turns.len() as u32,
            detail: format!("result: {}", first_field(&recorded.result, &result)),
        };
    }
    Verdict::Identical
}

/// Equality through JSON: game types need not implement `PartialEq` for replays to compare.
fn same<T: serde::Serialize>(a: &T, b: &T) -> bool {
    serde_json::to_value(a).ok() == serde_json::to_value(b).ok()
}

/// Names the first JSON field (as a path) where two values differ.
fn first_field<T: serde::Serialize>(a: &T, b: &T) -> String {
    let (a, b) = (serde_json::to_value(a).unwrap_or_default(), serde_json::to_value(b).unwrap_or_default());
    match json_diff(&a, &b, String::new()) {
        Some((path, x, y)) => format!("{path}: recorded {x}, re-run {y}"),
        None => "values differ".into(),
    }
}

fn json_diff(a: &serde_json::Value, b: &serde_json::Value, path: String) -> Option<(String, String, String)> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|key| {
                let (va, vb) = (x.get(key).unwrap_or(&Value::Null), y.get(key).unwrap_or(&Value::Null));
                json_diff(va, vb, format!("{path}.{key}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (va, vb))| json_diff(va, vb, format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some((if path.is_empty() { ".".into() } else { path }, a.to_string(), b.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MatchResult, TurnRecord};
    use arena_azul::{Azul, AzulConfig};
    use std::io::Write;
    use std::sync::mpsc;
    use std::time::Duration;

    /// The games these tests' replays name: Azul only.
    fn azul_only(name: &str) -> Option<GameLimits> {
        (name == Azul::NAME).then_some(GameLimits {
            name: Azul::NAME,
            max_turns: Azul::MAX_TURNS,
            max_players: Azul::MAX_PLAYERS,
        })
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    /// `compressed` inflated through [`json_text`] with `limit`.
    fn inflate(compressed: &[u8], limit: u64) -> std::io::Result<Vec<u8>> {
        let mut text = Vec::new();
        json_text(Path::new("r.json.gz"), compressed, limit).unwrap().read_to_end(&mut text)?;
        Ok(text)
    }

    /// Obeyed: a compressed file that inflates to exactly the limit is read back whole.
    #[test]
    fn gzip_within_the_limit_inflates() {
        let text = vec![b' '; 4096];
        let compressed = gzip(&text);
        assert!(compressed.starts_with(&GZIP_MAGIC));
        assert_eq!(inflate(&compressed, 4096).unwrap(), text);
    }

    /// Violated: a small file that inflates past the limit (a gzip bomb) is refused with an error
    /// naming the limit, after reading at most one byte past it.
    #[test]
    fn gzip_bomb_is_refused_at_the_limit() {
        let compressed = gzip(&vec![0u8; 1 << 20]);
        assert!(compressed.len() < 4096, "{} bytes compressed", compressed.len());
        let err = inflate(&compressed, 64 << 10).unwrap_err();
        assert_eq!(err.to_string(), "decompresses to over the 65536-byte limit");
    }

    /// Violated: bytes that start like gzip but are not are an error saying so, not a panic.
    #[test]
    fn truncated_gzip_is_an_error() {
        let compressed = gzip(b"{\"format\": 1}");
        let err = inflate(&compressed[..compressed.len() / 2], MAX_REPLAY_FILE).unwrap_err();
        assert!(err.to_string().starts_with("not valid gzip"), "{err}");
    }

    /// A scratch folder of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-replay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// An Azul replay with `turns` empty turns and `bots` bots, as a file's JSON text.
    fn azul_replay(turns: usize, bots: usize) -> String {
        let turn = TurnRecord::<Azul> { turn: 1, seats: vec![], events: vec![], state_hash: "0".into() };
        let bot = BotRef { name: "a".into(), path: "a.wasm".into(), sha256: "00".into(), data: None };
        let record = MatchRecord::<Azul> {
            format: REPLAY_FORMAT.into(),
            game: "azul".into(),
            config: AzulConfig {},
            seed: 1,
            budget: crate::budget::Budget::default(),
            runtime: RuntimeInfo::current(),
            bots: vec![bot; bots],
            setup: vec![],
            turns: vec![turn; turns],
            result: MatchResult { game: "azul".into(), seed: 1, turns: 0, winner: None, players: vec![] },
        };
        serde_json::to_string(&record).unwrap()
    }

    /// Obeyed: a replay of as many turns as its game can last, plain or compressed, is read
    /// whole.
    #[test]
    fn a_replay_of_as_many_turns_as_its_game_lasts_is_read() {
        let dir = scratch("longest");
        let text = azul_replay(Azul::MAX_TURNS as usize, 2);
        let (plain, compressed) = (dir.join("r.json"), dir.join("r.json.gz"));
        std::fs::write(&plain, &text).unwrap();
        std::fs::write(&compressed, gzip(text.as_bytes())).unwrap();
        for path in [&plain, &compressed] {
            assert_eq!(replay_game(path, azul_only).unwrap(), "azul");
            assert_eq!(replay_bots(path, azul_only).unwrap().len(), 2);
            assert_eq!(read_replay::<Azul>(path).unwrap().turns.len(), 2000);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: one turn more than an Azul match can last is refused by the scan, before any
    /// turn is held, naming the file, the game and its limit; so are a hundred times as many.
    #[test]
    fn a_replay_of_more_turns_than_its_game_lasts_is_refused_unread() {
        let dir = scratch("too-long");
        for turns in [Azul::MAX_TURNS as usize + 1, 100 * Azul::MAX_TURNS as usize] {
            let path = dir.join(format!("{turns}.json.gz"));
            std::fs::write(&path, gzip(azul_replay(turns, 2).as_bytes())).unwrap();
            let err = read_replay::<Azul>(&path).unwrap_err();
            assert!(
                matches!(&err, ReplayError::TooManyTurns { game: "azul", limit: 2000, path: named } if *named == path),
                "{err:?}"
            );
            assert_eq!(
                err.to_string(),
                format!("{}: records more than 2000 turns, and a azul match lasts at most 2000", path.display())
            );
            // Reading the game's name (it comes first), the scan for it stops at the same turn.
            assert!(matches!(replay_game(&path, azul_only), Err(ReplayError::TooManyTurns { limit: 2000, .. })));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: more bots, or more seats in a turn, than the game seats are refused by the scan.
    #[test]
    fn a_replay_of_more_seats_than_its_game_seats_is_refused_unread() {
        let dir = scratch("too-many-seats");
        let path = dir.join("bots.json");
        std::fs::write(&path, azul_replay(1, 3)).unwrap();
        let err = read_replay::<Azul>(&path).unwrap_err();
        assert!(matches!(err, ReplayError::TooManySeats { what: "bots", limit: 2, .. }), "{err:?}");
        assert_eq!(err.to_string(), format!("{}: lists more than 2 bots, more than its game seats", path.display()));
        assert!(matches!(replay_bots(&path, azul_only), Err(ReplayError::TooManySeats { what: "bots", limit: 2, .. })));
        // A game the arena does not play: three bots are fine, 257 are more than any game seats.
        std::fs::write(&path, azul_replay(1, 3).replace(r#""game":"azul""#, r#""game":"chess""#)).unwrap();
        assert_eq!(replay_bots(&path, azul_only).unwrap().len(), 3);
        let many = azul_replay(1, MAX_SEATS_ANY_GAME + 1).replace(r#""game":"azul""#, r#""game":"chess""#);
        std::fs::write(&path, many).unwrap();
        assert!(matches!(
            replay_bots(&path, azul_only),
            Err(ReplayError::TooManySeats { what: "bots", limit: 256, .. })
        ));

        let seat = r#"{"seat":0,"answer":null,"applied":null,"fuel":0}"#;
        let turn = format!(r#"{{"turn":1,"seats":[{seat},{seat},{seat}],"events":[],"state_hash":"0"}}"#);
        let text = azul_replay(1, 2).replace(r#"{"turn":1,"seats":[],"events":[],"state_hash":"0"}"#, &turn);
        std::fs::write(&path, text).unwrap();
        let err = read_replay::<Azul>(&path).unwrap_err();
        assert!(matches!(err, ReplayError::TooManySeats { what: "seats in a turn", limit: 2, .. }), "{err:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Runs `work` on a thread and waits for it, failing (instead of hanging) if it blocks: a
    /// guard against a regression that opens a named pipe, not a speed threshold.
    fn within_a_minute<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
        let (sent, received) = mpsc::channel();
        std::thread::spawn(move || sent.send(work()));
        received.recv_timeout(Duration::from_secs(60)).expect("blocked on a named pipe")
    }

    /// A named pipe nobody writes to, in `dir`.
    fn fifo(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
        path
    }

    /// Violated: a replay path naming a named pipe is refused at once, saying what it is.
    #[test]
    fn a_replay_that_is_a_named_pipe_is_refused_without_blocking() {
        let dir = scratch("fifo-replay");
        let path = fifo(&dir, "match.json");
        let named = path.clone();
        let (game, record) =
            within_a_minute(move || (replay_game(&named, azul_only), read_replay::<Azul>(&named).map(drop)));
        for err in [game.map(drop).unwrap_err(), record.unwrap_err()] {
            assert!(matches!(&err, ReplayError::NotAFile { kind: "a named pipe (FIFO)", .. }), "{err:?}");
            assert_eq!(err.to_string(), format!("{}: is a named pipe (FIFO), not a regular file", path.display()));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: a replay whose bot path names a named pipe: the bot search skips it and
    /// verifying refuses it at once (the loader opens only regular files, without blocking).
    #[test]
    fn a_bot_path_that_is_a_named_pipe_is_refused_without_blocking() {
        let dir = scratch("fifo-bot");
        let path = fifo(&dir, "bot.wasm");
        let mut record: MatchRecord<Azul> = serde_json::from_str(&azul_replay(0, 1)).unwrap();
        record.bots[0].path = path.clone();
        let (search, dirs) = (record.bots[0].clone(), vec![dir.clone()]);
        assert_eq!(within_a_minute(move || find_bot(&search, Path::new("."), &dirs)), None);
        let verified = within_a_minute(move || {
            let arena = Arena::new().unwrap();
            let load: &SeatLoader<'_, Azul> =
                &|_: &Loader<'_>, _: &Path, _: &BotSource, _| unreachable!("nothing loads");
            verify_with(&arena, &record, &[], load)
        });
        match verified {
            Err(ReplayError::Bot { seat: 0, detail }) => {
                assert!(
                    detail.contains(&path.display().to_string()) && detail.contains("not a regular file"),
                    "{detail}"
                )
            }
            other => panic!("expected the bot refused, got {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
