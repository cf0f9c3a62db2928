//! Every game the arena plays, by name, behind one object-safe interface, so the CLI (and any
//! other front end) dispatches on a name without knowing the games' types. Adding a game is one
//! line in [`games`].

use crate::budget::Budget;
use crate::games::Binding;
use crate::games::azul::AzulBinding;
use crate::loader::{LoadError, LoadedBot, load_bot};
use crate::play::{MatchError, MatchResult, play_match};
use crate::replay::{ReplayError, Verdict, read_replay, verify};
use crate::runtime::Arena;
use arena_game::{Game, OptionDoc, SetupError};
use serde::Serialize;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
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
    /// `--option` keys.
    pub options: Vec<OptionDoc>,
    /// The kinds of bot file it accepts.
    pub bot_kinds: Vec<String>,
}

/// A played match, type-erased.
pub struct PlayedMatch {
    /// The result (what `--json` prints).
    pub result: MatchResult,
    /// The replay, as JSON.
    pub replay: String,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Wrong number of bots.
    #[error("{game} takes {min}..={max} bots, {given} given")]
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
}

/// One game, for front ends.
pub trait GameEntry: Send + Sync {
    /// What `arena games` shows.
    fn info(&self) -> GameInfo;
    /// Loads the bots (each distinct file compiled once), builds the config from `options`,
    /// and plays one match.
    fn play(
        &self,
        arena: &Arena,
        bots: &[PathBuf],
        options: &[(String, String)],
        seed: u64,
        budget: Budget,
    ) -> Result<PlayedMatch, PlayError>;
    /// Re-runs a replay of this game and compares; `bot_paths` overrides seats' bot files.
    fn verify(&self, arena: &Arena, replay: &Path, bot_paths: &[Option<PathBuf>]) -> Result<Verdict, ReplayError>;
}

struct Entry<B>(PhantomData<B>);

impl<B: Binding> GameEntry for Entry<B> {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: B::Game::NAME,
            min_players: B::Game::MIN_PLAYERS,
            max_players: B::Game::MAX_PLAYERS,
            options: B::Game::option_docs(),
            bot_kinds: vec![format!("component exporting {} (world {})", B::EXPORT, B::WORLD)],
        }
    }

    fn play(
        &self,
        arena: &Arena,
        paths: &[PathBuf],
        options: &[(String, String)],
        seed: u64,
        budget: Budget,
    ) -> Result<PlayedMatch, PlayError> {
        let (min, max) = (B::Game::MIN_PLAYERS, B::Game::MAX_PLAYERS);
        if !(min..=max).contains(&paths.len()) {
            return Err(PlayError::Players { game: B::Game::NAME, min, max, given: paths.len() });
        }
        let config = B::Game::config_from_options(options)?;
        let mut bots: Vec<Arc<LoadedBot<B>>> = Vec::with_capacity(paths.len());
        for (seat, path) in paths.iter().enumerate() {
            let earlier = paths[..seat].iter().position(|other| other == path);
            let bot = match earlier.and_then(|index| bots.get(index)) {
                Some(same) => Arc::clone(same),
                None => Arc::new(load_bot::<B>(arena, path)?),
            };
            bots.push(bot);
        }
        let record = play_match::<B>(arena, &bots, &config, seed, budget)?;
        Ok(PlayedMatch { replay: serde_json::to_string(&record)?, result: record.result })
    }

    fn verify(&self, arena: &Arena, replay: &Path, bot_paths: &[Option<PathBuf>]) -> Result<Verdict, ReplayError> {
        let recorded = read_replay::<B::Game>(replay)?;
        verify::<B>(arena, &recorded, bot_paths)
    }
}

/// Every game, in the order `arena games` lists them.
pub fn games() -> Vec<&'static dyn GameEntry> {
    vec![&Entry::<AzulBinding>(PhantomData)]
}

/// The game called `name`.
pub fn find_game(name: &str) -> Option<&'static dyn GameEntry> {
    games().into_iter().find(|game| game.info().name == name)
}

/// Every game's name.
pub fn game_names() -> Vec<&'static str> {
    games().iter().map(|game| game.info().name).collect()
}
