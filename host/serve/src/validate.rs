//! An uploaded version's checks, after the upload itself (size cap, sha256): loading (the file
//! read, its shape limits, its WIT type check, the bounded compile: each named as the loader
//! names it, [`LoadStage`]) and a validation, self-play on fixed seeds in the sandbox under the
//! game's budget. A refusal names the step and the reason in the words `arena match` prints,
//! with the file named as the competitor named it.

use crate::store::{Step, VersionStatus};
use arena_host::bot_data::BotFiles;
use arena_host::fault::ForfeitReason;
use arena_host::loader::LoadStage;
use arena_host::registry::{GameEntry, ReplayText};
use arena_host::{Arena, Budget};

/// The seeds of the validation's self-play: fixed, so a version's validation is reproducible.
pub const VALIDATION_SEEDS: [u64; 2] = [1, 2];

/// A self-play match that spends a seat's whole game budget before this many turns refuses the
/// bot: it cannot play a short game within its budget. Later, a long game between two copies of
/// a weak bot (two random bots that never end it) may outlast any budget: that is noted, not
/// refused. A forfeit for traps always refuses.
pub const EARLY_TURNS: u32 = 50;

/// The stages of loading, in order (a failure at one means the ones before it passed); the data
/// folder's only for a bot that brings one.
const STAGES: [LoadStage; 5] =
    [LoadStage::Read, LoadStage::Data, LoadStage::Shape, LoadStage::TypeCheck, LoadStage::Compile];

/// How a version's checks went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Accepted or refused.
    pub status: VersionStatus,
    /// When refused: `STEP: why`.
    pub reason: Option<String>,
    /// Every step run, in order.
    pub steps: Vec<Step>,
}

impl Checked {
    fn refused(mut steps: Vec<Step>, step: &str, detail: String) -> Checked {
        let reason = format!("{step}: {detail}");
        steps.push(Step { step: step.to_owned(), ok: false, detail });
        Checked { status: VersionStatus::Refused, reason: Some(reason), steps }
    }
}

/// Loads and validates the bot `files` for `game` under `budget`; `shown` is the file's name in
/// messages (the path is the blob store's, which means nothing to the competitor).
pub fn check(arena: &Arena, game: &dyn GameEntry, files: &BotFiles, shown: &str, budget: Budget) -> Checked {
    let mut steps = Vec::new();
    let rename = |message: &str| {
        let message = message.replace(&files.wasm.display().to_string(), shown);
        match &files.data {
            Some(data) => message.replace(&data.display().to_string(), "data"),
            None => message,
        }
    };
    let stages: Vec<LoadStage> =
        STAGES.into_iter().filter(|stage| *stage != LoadStage::Data || files.data.is_some()).collect();
    let pool = match game.load_pool(arena, std::slice::from_ref(files), &[], budget.memory_mib) {
        Ok(pool) => pool,
        Err(err) => return Checked::refused(steps, "load", rename(&err.to_string())),
    };
    if let Some(Some(failure)) = pool.load_failures().into_iter().next() {
        for stage in stages.iter().take_while(|stage| **stage != failure.stage) {
            steps.push(Step { step: stage.name().to_owned(), ok: true, detail: String::new() });
        }
        return Checked::refused(steps, failure.stage.name(), rename(&failure.message));
    }
    for stage in stages {
        steps.push(Step { step: stage.name().to_owned(), ok: true, detail: String::new() });
    }
    let info = game.info();
    let seating = vec![0; info.min_players];
    let mut played = Vec::new();
    for seed in VALIDATION_SEEDS {
        let result = match pool.play(arena, &seating, seed, budget, ReplayText::DigestOnly) {
            Ok(played) => played.result,
            Err(err) => {
                return Checked::refused(steps, "validation", format!("seed {seed}: {}", rename(&err.to_string())));
            }
        };
        let refusing = |player: &&arena_host::record::PlayerSummary| {
            player.forfeit
                && (player.forfeit_reason != Some(ForfeitReason::GameFuelExhausted) || result.turns < EARLY_TURNS)
        };
        if let Some((seat, player)) = result.players.iter().enumerate().find(|(_, player)| refusing(player)) {
            let why = player.forfeit_reason.map_or_else(
                || "forfeited".to_owned(),
                |reason| {
                    serde_json::to_value(reason)
                        .ok()
                        .and_then(|name| name.as_str().map(str::to_owned))
                        .unwrap_or_default()
                },
            );
            return Checked::refused(
                steps,
                "validation",
                format!("self-play on seed {seed}: seat {seat} forfeited ({why}) after {} turns", result.turns),
            );
        }
        let (traps, invalid): (u32, u32) =
            result.players.iter().fold((0, 0), |(t, i), player| (t + player.traps, i + player.invalid_actions));
        let fuel = result.players.iter().map(|player| player.fuel_total).max().unwrap_or(0);
        let out_of_fuel =
            if result.players.iter().any(|player| player.forfeit) { ", ran out of game fuel" } else { "" };
        played.push(format!(
            "seed {seed}: {} turns, {traps} traps, {invalid} invalid actions, at most {fuel} fuel a seat{out_of_fuel}",
            result.turns
        ));
    }
    steps.push(Step { step: "validation".to_owned(), ok: true, detail: format!("self-play: {}", played.join("; ")) });
    Checked { status: VersionStatus::Accepted, reason: None, steps }
}
