//! `arena view`: a replay as one self-contained HTML page that replays the match in a browser,
//! from `file://`, with no network: the page's script, styles and data are all inlined.
//!
//! The host re-plays the recorded actions on the engine ([`replay_states`], which checks every
//! turn's state hash), so the page draws the engine's own states rather than re-implementing a
//! game's rules in JavaScript. States go into the page once in full, then as patches from turn to
//! turn (the `patch` module). The page (`page.html`) holds the controls, the fuel charts, the fault
//! markers and the logs, the same for every game; each game adds a renderer
//! (`games/<game>.js`) that draws one state on the canvas and reads its scores.
//!
//! [`page`] makes the page of a match record; [`page_of_replay`] reads a replay file of any
//! game the arena plays (the game's types come from the registry, `registry::visit_game`).

mod patch;

use arena_game::Game;
use arena_host::bindings::Binding;
use arena_host::record::{MatchRecord, MatchResult, SeatTurn, TurnRecord};
use arena_host::registry::{GameVisitor, visit_game};
use arena_host::replay::{ReplayError, read_replay, replay_states};
use serde::Serialize;
use std::path::Path;

/// Why a replay has no page.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// The replay could not be read, or its engine does not reproduce it.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The replay names a game this arena does not play.
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    /// A state or the page's data could not be written as JSON.
    #[error("cannot write the {what}: {source}")]
    Json {
        /// "game's state" or "page's data".
        what: &'static str,
        /// Why.
        source: serde_json::Error,
    },
}

/// Name and version of the data a page carries.
pub const VIEW_FORMAT: &str = "wasm-arena-view/1";

/// The page: the player, its styles and the part every game shares.
const PAGE: &str = include_str!("page.html");

/// Where the data and the game's renderer go in [`PAGE`].
const DATA_SLOT: &str = "/*REPLAY-DATA*/";
const RENDERER_SLOT: &str = "/*GAME-RENDERER*/";

// `RENDERERS`: every `games/<game>.js`, embedded (build.rs).
include!(concat!(env!("OUT_DIR"), "/renderers.rs"));

/// What the page's script reads.
#[derive(Serialize)]
#[serde(bound = "")]
struct PageData<'a, G: Game> {
    format: &'static str,
    game: &'a str,
    /// As text: a JavaScript number holds 53 bits, a seed 64.
    seed: String,
    bots: Vec<&'a str>,
    turn_fuel: u64,
    game_fuel: u64,
    setup: &'a [SeatTurn<G>],
    turns: &'a [TurnRecord<G>],
    result: &'a MatchResult,
    /// The state before the first turn.
    initial: serde_json::Value,
    /// Per turn, the patch from the previous state (`null`: unchanged).
    patches: Vec<Option<serde_json::Value>>,
}

/// The page of the replay file `replay`, a match of the game called `game` (which
/// `replay::replay_game` reads from the file).
pub fn page_of_replay(game: &str, replay: &Path) -> Result<String, ViewError> {
    struct ReplayPage<'a>(&'a Path);
    impl GameVisitor for ReplayPage<'_> {
        type Output = Result<String, ViewError>;
        fn visit<B: Binding>(self) -> Self::Output {
            page(&read_replay::<B::Game>(self.0)?)
        }
    }
    visit_game(game, ReplayPage(replay)).unwrap_or_else(|| Err(ViewError::UnknownGame(game.to_owned())))
}

/// The page for `record`.
pub fn page<G: Game>(record: &MatchRecord<G>) -> Result<String, ViewError> {
    let mut states = Vec::with_capacity(record.turns.len() + 1);
    let mut unwritable = None;
    replay_states(record, |game: &G| match serde_json::to_value(game) {
        Ok(state) => states.push(state),
        Err(err) => {
            unwritable.get_or_insert(err);
        }
    })?;
    if let Some(err) = unwritable {
        return Err(ViewError::Json { what: "game's state", source: err });
    }
    let patches = states.windows(2).map(|pair| patch::diff(&pair[0], &pair[1])).collect();
    let data = PageData::<G> {
        format: VIEW_FORMAT,
        game: &record.game,
        seed: record.seed.to_string(),
        bots: record.bots.iter().map(|bot| bot.name.as_str()).collect(),
        turn_fuel: record.budget.turn_fuel,
        game_fuel: record.budget.game_fuel,
        setup: &record.setup,
        turns: &record.turns,
        result: &record.result,
        initial: states.into_iter().next().unwrap_or(serde_json::Value::Null),
        patches,
    };
    let json = serde_json::to_vec(&data).map_err(|source| ViewError::Json { what: "page's data", source })?;
    let renderer = RENDERERS.iter().find(|(name, _)| *name == G::NAME).map_or("", |(_, script)| script);
    Ok(PAGE.replacen(RENDERER_SLOT, renderer, 1).replacen(DATA_SLOT, &packed(&json), 1))
}

/// The page data gzip-compressed and base64-encoded; the page inflates it with the browser's
/// own `DecompressionStream`. States repeat from turn to turn: a 1000-turn Code Character match
/// is 14 MB of JSON and 1.4 MB packed. Base64 holds no `<`, so nothing in it can end the
/// `<script>` element it sits in.
fn packed(json: &[u8]) -> String {
    use base64::Engine;
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let compressed = encoder.write_all(json).and_then(|()| encoder.finish()).unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(compressed)
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn packed_data_inflates_to_the_json_and_cannot_end_the_script_element() {
        use base64::Engine;
        use std::io::Read;
        let json = serde_json::to_vec(&serde_json::json!({"log": "</script><!-- x"})).unwrap();
        let text = packed(&json);
        assert!(!text.contains('<'), "{text}");
        let compressed = base64::engine::general_purpose::STANDARD.decode(&text).unwrap();
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&compressed[..]).read_to_end(&mut inflated).unwrap();
        assert_eq!(inflated, json);
    }

    #[test]
    fn every_game_has_a_renderer_that_registers_itself() {
        for name in arena_host::registry::game_names() {
            let script = RENDERERS.iter().find(|(game, _)| *game == name).map(|(_, script)| *script);
            let file = name.replace('-', "_");
            let script =
                script.unwrap_or_else(|| panic!("{name} has no renderer: write host/view/src/games/{file}.js"));
            let registered = [format!("ARENA_RENDERERS.{name} ="), format!("ARENA_RENDERERS[\"{name}\"] =")];
            assert!(
                registered.iter().any(|line| script.contains(line.as_str())),
                "{name}'s script registers another game"
            );
        }
    }

    #[test]
    fn the_page_has_a_slot_for_the_data_and_one_for_the_renderer_and_no_external_resource() {
        assert_eq!(PAGE.matches(DATA_SLOT).count(), 1);
        assert_eq!(PAGE.matches(RENDERER_SLOT).count(), 1);
        for (game, script) in std::iter::once(("page", PAGE)).chain(RENDERERS.iter().copied()) {
            for external in ["http:", "https:", "//cdn", "<link", "@import", "src=", "url("] {
                assert!(!script.contains(external), "{game} mentions {external}");
            }
        }
    }
}
