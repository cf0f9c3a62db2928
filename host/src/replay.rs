//! Replay files: a [`MatchRecord`] as JSON, and verification by re-running the match from what
//! the replay records (seed, config, budget, bots by sha256) and comparing turn by turn.

use crate::bindings::Binding;
use crate::bot::WitContestant;
use crate::fault::BotFault;
use crate::loader::{BotSource, LoadError, bot_file_sha256_hex, compile_source, load_bot_component, open_bot};
use crate::play::play_contestants;
use crate::record::{BotRef, MatchRecord, REPLAY_FORMAT, RuntimeInfo};
use crate::runtime::Arena;
use crate::seat::Contestant;
use arena_game::Game;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest replay file read.
pub const MAX_REPLAY_FILE: u64 = 512 << 20;

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
    /// The bot could not be loaded or the match could not be played.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// The game named in a replay file, to dispatch on before parsing it fully.
pub fn replay_game(path: &Path) -> Result<String, ReplayError> {
    #[derive(serde::Deserialize)]
    struct Header {
        format: String,
        game: String,
    }
    let header: Header = parse(path)?;
    if header.format != REPLAY_FORMAT {
        return Err(ReplayError::Parse {
            path: path.into(),
            detail: format!("format {:?}, expected {REPLAY_FORMAT:?}", header.format),
        });
    }
    Ok(header.game)
}

fn parse<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReplayError> {
    let size = std::fs::metadata(path).map_err(|source| ReplayError::Read { path: path.into(), source })?.len();
    if size > MAX_REPLAY_FILE {
        return Err(ReplayError::Parse {
            path: path.into(),
            detail: format!("{size} bytes is over the {MAX_REPLAY_FILE}-byte limit"),
        });
    }
    let bytes = std::fs::read(path).map_err(|source| ReplayError::Read { path: path.into(), source })?;
    let text = if bytes.starts_with(&GZIP_MAGIC) { gunzip(path, &bytes, MAX_REPLAY_FILE)? } else { bytes };
    serde_json::from_slice(&text).map_err(|err| ReplayError::Parse { path: path.into(), detail: err.to_string() })
}

/// The first bytes of a gzip file (`arena tournament run --replays` keeps replays compressed).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A gzip-compressed replay, decompressed up to `limit` bytes ([`MAX_REPLAY_FILE`] when read from
/// disk): a small file must not inflate without bound.
fn gunzip(path: &Path, compressed: &[u8], limit: u64) -> Result<Vec<u8>, ReplayError> {
    use std::io::Read;
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(compressed)
        .take(limit + 1)
        .read_to_end(&mut text)
        .map_err(|err| ReplayError::Parse { path: path.into(), detail: format!("not valid gzip: {err}") })?;
    if text.len() as u64 > limit {
        return Err(ReplayError::Parse {
            path: path.into(),
            detail: format!("decompresses to over the {limit}-byte limit"),
        });
    }
    Ok(text)
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

/// The bots a replay names, in seat order, read before the replay is parsed for its game.
pub fn replay_bots(path: &Path) -> Result<Vec<BotRef>, ReplayError> {
    #[derive(serde::Deserialize)]
    struct Bots {
        bots: Vec<BotRef>,
    }
    let bots: Bots = parse(path)?;
    Ok(bots.bots)
}

/// Most files a bot search reads in one folder.
const MAX_SEARCHED_FILES: usize = 10_000;

/// Where a replay's bot is when it is not at its recorded path (a replay made in another folder
/// or on another machine): the recorded path, then the recorded path from the replay's folder
/// (`replay_dir`), then in each of `dirs` the recorded file name, then any `.wasm` file there with
/// the recorded sha256. `None` when no candidate has the recorded sha256.
pub fn find_bot(bot: &BotRef, replay_dir: &Path, dirs: &[PathBuf]) -> Option<PathBuf> {
    let has_hash = |path: &Path| bot_file_sha256_hex(path).is_ok_and(|sha256| sha256 == bot.sha256);
    let mut candidates = vec![bot.path.clone()];
    if bot.path.is_relative() {
        candidates.push(replay_dir.join(&bot.path));
    }
    if let Some(name) = bot.path.file_name() {
        candidates.extend(dirs.iter().map(|dir| dir.join(name)));
    }
    if let Some(found) = candidates.into_iter().find(|path| has_hash(path)) {
        return Some(found);
    }
    dirs.iter().find_map(|dir| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "wasm"))
            .take(MAX_SEARCHED_FILES)
            .collect();
        // Sorted, so the same folder gives the same answer everywhere.
        files.sort();
        files.into_iter().find(|path| has_hash(path))
    })
}

/// Reads a replay of game `G`.
pub fn read_replay<G: Game>(path: &Path) -> Result<MatchRecord<G>, ReplayError> {
    parse(path)
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

/// Re-runs the match a replay records and compares. `bot_paths` overrides where to find each
/// seat's bot (default: the recorded path); the file must have the recorded sha256.
pub fn verify<B: Binding>(
    arena: &Arena,
    recorded: &MatchRecord<B::Game>,
    bot_paths: &[Option<PathBuf>],
) -> Result<Verdict, ReplayError> {
    verify_with(arena, recorded, bot_paths, &|arena: &Arena, path: &Path, source: &BotSource| {
        let compiled = compile_source(arena, path, source, B::EXPORT)?;
        let bot = load_bot_component::<B>(arena, path, compiled)?;
        Ok(Arc::new(WitContestant(Arc::new(bot))) as Arc<dyn Contestant<B::Game>>)
    })
}

/// Loads one seat's bot from its opened file ([`open_bot`]; `path` names it in messages).
pub type SeatLoader<'a, G> = dyn Fn(&Arena, &Path, &BotSource) -> Result<Arc<dyn Contestant<G>>, LoadError> + 'a;

/// [`verify`] for games whose seats may hold bots of several kinds: `load` makes each seat's
/// contestant from the file.
pub fn verify_with<G: Game>(
    arena: &Arena,
    recorded: &MatchRecord<G>,
    bot_paths: &[Option<PathBuf>],
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
    let arena = &arena.clone().with_load_memory_limit(recorded.budget.memory_mib);
    let mut bots: Vec<Arc<dyn Contestant<G>>> = Vec::new();
    for (seat, bot) in recorded.bots.iter().enumerate() {
        let path = bot_paths.get(seat).cloned().flatten().unwrap_or_else(|| bot.path.clone());
        let source = open_bot(arena, &path).map_err(|err| ReplayError::Bot {
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
        bots.push(load(arena, &path, &source).map_err(anyhow::Error::from)?);
    }
    let rerun = play_contestants(arena, &bots, &recorded.config, recorded.seed, recorded.budget)
        .map_err(anyhow::Error::from)?;
    Ok(compare(recorded, &rerun))
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
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    /// Obeyed: a compressed file that inflates to exactly the limit is read back whole.
    #[test]
    fn gzip_within_the_limit_inflates() {
        let text = vec![b' '; 4096];
        let compressed = gzip(&text);
        assert!(compressed.starts_with(&GZIP_MAGIC));
        assert_eq!(gunzip(Path::new("r.json.gz"), &compressed, 4096).unwrap(), text);
    }

    /// Violated: a small file that inflates past the limit (a gzip bomb) is refused with a parse
    /// error naming the limit, after reading at most one byte past it.
    #[test]
    fn gzip_bomb_is_refused_at_the_limit() {
        let compressed = gzip(&vec![0u8; 1 << 20]);
        assert!(compressed.len() < 4096, "{} bytes compressed", compressed.len());
        match gunzip(Path::new("bomb.json.gz"), &compressed, 64 << 10) {
            Err(ReplayError::Parse { detail, .. }) => {
                assert_eq!(detail, "decompresses to over the 65536-byte limit")
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    /// Violated: bytes that start like gzip but are not are a parse error, not a panic.
    #[test]
    fn truncated_gzip_is_a_parse_error() {
        let compressed = gzip(b"{\"format\": 1}");
        match gunzip(Path::new("cut.json.gz"), &compressed[..compressed.len() / 2], MAX_REPLAY_FILE) {
            Err(ReplayError::Parse { detail, .. }) => assert!(detail.starts_with("not valid gzip"), "{detail}"),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }
}
