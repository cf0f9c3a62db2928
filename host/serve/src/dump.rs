//! A ladder's public dump and its verification (docs/ladder.md#verifying-a-ladder): what
//! `GET /api/games/{game}/dump` serves ([`DumpStream`]), what `arena ladder dump` writes from it
//! ([`write_results`]: the results as a tournament database, the merge format `arena tournament
//! show` reads) and what `arena ladder verify` checks ([`verify`]): a sample of the matches (or
//! all) re-played here, each compared with the dump field by field and by its record's digest,
//! then the leaderboard recomputed from the dump alone ([`Dump::recompute`], the function the
//! pages use) and compared with the dumped one.
//!
//! A dump read back is untrusted input: [`Dump::parse`] checks its shape and every reference in
//! it (a sha256 becomes a file name), and nothing here panics on what it holds.

use crate::ratings::{Leaderboard, Line, Results, leaderboard, leaderboard_of};
use crate::service::{Service, ServiceError};
use crate::store::{Bot, Match, MatchKind, MatchState, Seat, SeatOutcome, Version, VersionStatus};
use arena_host::Arena;
use arena_host::bot_data::{BotData, BotFiles, DATA_EXTENSION, DataRef, bot_identity};
use arena_host::budget::{Budget, WASMTIME_VERSION};
use arena_host::fault::ForfeitReason;
use arena_host::record::{MatchResult, PlayerSummary};
use arena_host::registry::{PoolMatch, ReplayText, find_game};
use arena_tournament::merge::{MergeError, MergeReport, Merger};
use arena_tournament::plan::{MatchSpec, Plan, PlanBot, PlannedMatch};
use arena_tournament::store::{Outcome, StoredMatch, StoredPlan};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The dump format this arena writes and reads.
pub const FORMAT: u32 = 1;

/// The largest dump read (`ladder.json`): about 600 bytes a match, so some 1.5 million matches.
pub const MAX_DUMP_BYTES: u64 = 1 << 30;

/// Ratings (and their intervals) agree when they differ by no more than this.
pub const RATING_TOLERANCE: f64 = 1e-9;

/// A ladder's dump: its ranked results, the bots and versions they seat, and its leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dump {
    /// [`FORMAT`].
    pub format: u32,
    /// The game.
    pub game: String,
    /// The arena release the server runs (what a re-play must run to agree bit for bit).
    pub arena: String,
    /// Its wasmtime release (what a unit of fuel means).
    pub wasmtime: String,
    /// The budget the ladder gives the game's bots (its matches are played with no options).
    pub budget: Budget,
    /// The bots of the versions below, by id.
    pub bots: Vec<DumpBot>,
    /// Every version seated in a ranked match, by id.
    pub versions: Vec<DumpVersion>,
    /// Every ranked match played, as the store lists them (oldest first).
    pub matches: Vec<DumpMatch>,
    /// The leaderboard fitted on exactly these matches, as the pages show it.
    pub leaderboard: Leaderboard,
}

/// A bot of a dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpBot {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its owner's name.
    pub owner: String,
    /// Its current version's id (its latest accepted one), if it has one.
    pub current: Option<i64>,
    /// Whether its files are public: downloadable, so its matches can be re-played by anyone.
    /// A private bot's are not: its matches stay in the dump (and in the ratings) but are not
    /// re-played by [`verify`].
    pub public: bool,
}

/// A version of a dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpVersion {
    /// Its id.
    pub id: i64,
    /// Its bot's id.
    pub bot_id: i64,
    /// Its file's sha256 (hex): the file is `/blobs/bots/SHA256.wasm` on the server and
    /// `bots/SHA256.wasm` in a dump's folder.
    pub sha256: String,
    /// The file's size in bytes.
    pub size: i64,
    /// Its data folder's `data-tree/v1` digest (hex), when it brought one: the folder is
    /// `/blobs/data/DIGEST.tar` on the server and `bots/DIGEST.data/` in a dump's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
}

impl DumpVersion {
    /// Its identity, as plans and results key bots ([`bot_identity`]).
    pub fn identity(&self) -> String {
        bot_identity(&self.sha256, self.data.as_deref())
    }

    /// Its bot file and data folder in a dump's folder `dir`.
    pub fn files_in(&self, dir: &Path) -> BotFiles {
        BotFiles {
            wasm: dir.join(format!("{}.wasm", self.sha256)),
            data: self.data.as_ref().map(|digest| dir.join(format!("{digest}.{DATA_EXTENSION}"))),
        }
    }
}

/// A ranked match of a dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpMatch {
    /// Its id on the ladder (its page is `/matches/ID`).
    pub id: i64,
    /// Its seed.
    pub seed: u64,
    /// Each seat's version and how it did, in seat order.
    pub seats: Vec<DumpSeat>,
    /// The winner's seat, if one placed first alone.
    pub winner: Option<u32>,
    /// Turns played.
    pub turns: u32,
    /// The match record's digest (`<algorithm>:<hex>`), what a re-play must give.
    pub digest: Option<String>,
}

/// One seat of a dumped match: the version in it and its line of the result (the match
/// result's figures without the bot's name and sha256, which its version gives).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpSeat {
    /// The version in the seat.
    pub version_id: i64,
    /// Final score.
    pub score: i64,
    /// Placement, 1 = first.
    pub rank: u32,
    /// Whether it forfeited.
    pub forfeit: bool,
    /// Why, if it did.
    pub forfeit_reason: Option<ForfeitReason>,
    /// Fuel spent, start-up included.
    pub fuel_total: u64,
    /// Most fuel in one turn.
    pub fuel_max_turn: u64,
    /// Turns skipped while suspended.
    pub skipped_turns: u32,
    /// Traps.
    pub traps: u32,
    /// Refused answers.
    pub invalid_actions: u32,
    /// Turns it was asked to play.
    pub turns: u32,
}

/// The fields of a [`DumpSeat`] a re-play is compared on, in the order they are compared.
const SEAT_FIELDS: [&str; 10] = [
    "score",
    "rank",
    "forfeit",
    "forfeit_reason",
    "fuel_total",
    "fuel_max_turn",
    "skipped_turns",
    "traps",
    "invalid_actions",
    "turns",
];

impl DumpSeat {
    /// The seat of `version_id` from its line of a result and the turns it was asked to play.
    pub fn of(version_id: i64, player: &PlayerSummary, turns: u32) -> DumpSeat {
        DumpSeat {
            version_id,
            score: player.score,
            rank: player.rank,
            forfeit: player.forfeit,
            forfeit_reason: player.forfeit_reason,
            fuel_total: player.fuel_total,
            fuel_max_turn: player.fuel_max_turn,
            skipped_turns: player.skipped_turns,
            traps: player.traps,
            invalid_actions: player.invalid_actions,
            turns,
        }
    }

    /// Its line of a match result, for the bot `name` whose file has `sha256` (and data folder
    /// the digest `data`).
    pub fn player(&self, name: &str, sha256: &str, data: Option<&str>) -> PlayerSummary {
        PlayerSummary {
            bot: name.to_owned(),
            sha256: sha256.to_owned(),
            data: data.map(str::to_owned),
            score: self.score,
            rank: self.rank,
            forfeit: self.forfeit,
            forfeit_reason: self.forfeit_reason,
            fuel_total: self.fuel_total,
            fuel_max_turn: self.fuel_max_turn,
            skipped_turns: self.skipped_turns,
            traps: self.traps,
            invalid_actions: self.invalid_actions,
        }
    }
}

/// Why a dump cannot be read, made or written.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// The file.
    #[error(transparent)]
    Read(#[from] arena_host::regular_file::TextError),
    /// Not the JSON of a dump.
    #[error("not a ladder dump: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format.
    #[error("a dump of format {found}: this arena reads format {FORMAT}")]
    Format {
        /// The dump's.
        found: u32,
    },
    /// A dump whose parts do not fit together (a seat of an unknown version, a sha256 that is
    /// not one, ...).
    #[error("not a valid ladder dump: {0}")]
    Invalid(String),
    /// A bot file of the dump's folder missing or not the version's.
    #[error("{0}")]
    BotFile(String),
    /// The game refused its setup.
    #[error("{game}: {reason}")]
    Setup {
        /// The game.
        game: String,
        /// Why.
        reason: String,
    },
    /// Writing the results database.
    #[error("writing the results database: {0}")]
    Results(#[from] MergeError),
}

/// Whether `bot`'s files are public: not a private bot's (whose file `/blobs/bots/` serves only
/// to its owner, the admins and the trusted workers, and `arena ladder dump` does not fetch).
fn public(bot: &Bot) -> bool {
    !bot.private
}

/// The versions a dump lists (those of `versions` that `seated` names) and their bots, each
/// with its current version (`current`, by bot).
fn listed(
    versions: &[Version],
    bots: &[Bot],
    current: &BTreeMap<i64, i64>,
    seated: &BTreeSet<i64>,
) -> (Vec<DumpVersion>, Vec<DumpBot>) {
    let versions: Vec<DumpVersion> = versions
        .iter()
        .filter(|version| seated.contains(&version.id))
        .map(|version| DumpVersion {
            id: version.id,
            bot_id: version.bot_id,
            sha256: version.sha256.clone(),
            size: version.size,
            data: version.data_digest.clone(),
        })
        .collect();
    let owners: BTreeSet<i64> = versions.iter().map(|version| version.bot_id).collect();
    let bots = bots
        .iter()
        .filter(|bot| owners.contains(&bot.id))
        .map(|bot| DumpBot {
            id: bot.id,
            name: bot.name.clone(),
            owner: bot.owner_name.clone(),
            current: current.get(&bot.id).copied(),
            public: public(bot),
        })
        .collect();
    (versions, bots)
}

/// The dump of `results`, done matches of `game` (a ladder's ranked ones, or a competition's),
/// with the bots and versions they seat, read after them, and the leaderboard fitted on them.
pub fn of_results(service: &Service, game: &str, mut results: Vec<Match>) -> Result<Dump, ServiceError> {
    // A done match has every seat's result; one without is left out (and so out of the
    // leaderboard dumped with it), said in the log.
    results.retain(|one| {
        let kept = whole(one);
        if !kept {
            tracing::warn!(id = one.id, game, "a match without its seats' results is left out of the dump");
        }
        kept
    });
    let bots = service.store.bots_of_game(game)?;
    let mut versions = Vec::new();
    for bot in &bots {
        versions.extend(service.store.versions_of_bot(bot.id)?);
    }
    let current: BTreeMap<i64, i64> =
        service.current_versions(&bots)?.into_iter().map(|(bot, version)| (bot, version.id)).collect();
    let board = leaderboard_of(game, &bots, &versions, &current, &results);
    let seated: BTreeSet<i64> = results.iter().flat_map(|one| one.seats.iter().map(|seat| seat.version_id)).collect();
    let (versions, bots) = listed(&versions, &bots, &current, &seated);
    let matches = results.iter().map(dump_match).collect();
    Ok(Dump {
        format: FORMAT,
        game: game.to_owned(),
        arena: env!("CARGO_PKG_VERSION").into(),
        wasmtime: WASMTIME_VERSION.into(),
        budget: service.settings.budget(game),
        bots,
        versions,
        matches,
        leaderboard: board,
    })
}

/// The part of a ladder's dump read before its first byte is sent ([`DumpStream::of_game`]),
/// then written a page of results at a time ([`DumpStream::write`]): what
/// `GET /api/games/{game}/dump` streams, so the server holds the versions and a page of results,
/// not the ladder. The bytes are those of the ladder's [`Dump`] ([`of_results`] of its ranked results) as
/// `serde_json` writes it.
///
/// The results are read twice: once to learn which versions they seat (the bots and versions
/// come before the matches in the JSON), once to write them. A result recorded between the two
/// readings (an id above the first reading's last) or one seating a version the first did not
/// see is left out, and the leaderboard is fitted on exactly the matches written, so a dump taken
/// while matches land still fits together.
pub struct DumpStream {
    game: String,
    /// The JSON up to and including `"matches":[`.
    head: Vec<u8>,
    /// The last result of the first reading: later ones are the next dump's.
    last: i64,
    /// The versions listed (those the first reading's results seat).
    listed: BTreeSet<i64>,
    /// The game's bots, every version of them and each one's current version: the leaderboard's.
    bots: Vec<Bot>,
    versions: Vec<Version>,
    current: BTreeMap<i64, i64>,
}

impl DumpStream {
    /// The dump of `game`'s ladder up to its matches: its ranked results read once (a page at a
    /// time) for the versions they seat, then its bots and versions (read after, so every
    /// version a result seats is among them). An unknown game or a store that cannot be read
    /// is an error here, before anything is sent.
    pub fn of_game(service: &Service, game: &str) -> Result<DumpStream, ServiceError> {
        if find_game(game).is_none() {
            return Err(ServiceError::UnknownGame(game.to_owned()));
        }
        let (mut last, mut seated) = (0, BTreeSet::new());
        service.store.for_each_ranked_result(game, &mut |one| {
            last = one.id;
            if whole(one) {
                seated.extend(one.seats.iter().map(|seat| seat.version_id));
            }
        })?;
        let bots = service.store.bots_of_game(game)?;
        let mut versions = Vec::new();
        for bot in &bots {
            versions.extend(service.store.versions_of_bot(bot.id)?);
        }
        let current: BTreeMap<i64, i64> =
            service.current_versions(&bots)?.into_iter().map(|(bot, version)| (bot, version.id)).collect();
        let (dumped, dumped_bots) = listed(&versions, &bots, &current, &seated);
        let listed: BTreeSet<i64> = dumped.iter().map(|version| version.id).collect();
        // The fields in [`Dump`]'s order, as `serde_json` writes a struct: compact, no space.
        let mut head = b"{".to_vec();
        let fields = (|| {
            field(&mut head, "format", &FORMAT)?;
            field(&mut head, "game", game)?;
            field(&mut head, "arena", env!("CARGO_PKG_VERSION"))?;
            field(&mut head, "wasmtime", WASMTIME_VERSION)?;
            field(&mut head, "budget", &service.settings.budget(game))?;
            field(&mut head, "bots", &dumped_bots)?;
            field(&mut head, "versions", &dumped)
        })();
        fields.map_err(|err| ServiceError::Io(err.into()))?;
        head.extend_from_slice(b",\"matches\":[");
        Ok(DumpStream { game: game.to_owned(), head, last, listed, bots, versions, current })
    }

    /// Writes the dump to `out`: the head, the results read again a page at a time, then the
    /// leaderboard fitted on exactly those written. An error (the store, `out` refusing bytes:
    /// the client gone) stops the writing, the JSON unfinished.
    pub fn write(self, service: &Service, out: &mut dyn std::io::Write) -> Result<(), ServiceError> {
        let game = self.game.as_str();
        out.write_all(&self.head)?;
        let mut results = Results::new(&self.versions);
        let (mut after, mut written) = (0, 0_u64);
        'pages: while after < self.last {
            let page = service.store.ranked_results_page(game, after, crate::store::RESULTS_PAGE)?;
            for one in &page {
                if one.id > self.last {
                    break 'pages;
                }
                after = one.id;
                if !whole(one) {
                    tracing::warn!(id = one.id, game, "a match without its seats' results is left out of the dump");
                    continue;
                }
                if !one.seats.iter().all(|seat| self.listed.contains(&seat.version_id)) {
                    // Done since the first reading (an older match that was running then).
                    continue;
                }
                if written > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, &dump_match(one)).map_err(std::io::Error::from)?;
                results.add(one);
                written += 1;
            }
            if page.len() < crate::store::RESULTS_PAGE as usize {
                break;
            }
        }
        out.write_all(b"],\"leaderboard\":")?;
        let board = leaderboard(game, &self.bots, &self.versions, &self.current, &results);
        serde_json::to_writer(&mut *out, &board).map_err(std::io::Error::from)?;
        out.write_all(b"}")?;
        out.flush()?;
        Ok(())
    }
}

/// Appends `"name":value` to the JSON object begun in `head` (a comma first unless it is the
/// first field).
fn field<T: Serialize + ?Sized>(head: &mut Vec<u8>, name: &str, value: &T) -> Result<(), serde_json::Error> {
    if head.len() > 1 {
        head.push(b',');
    }
    serde_json::to_writer(&mut *head, name)?;
    head.push(b':');
    serde_json::to_writer(&mut *head, value)
}

/// Whether a done match has every seat's result: one without is left out of a dump (and so out
/// of the leaderboard dumped with it).
fn whole(one: &Match) -> bool {
    one.seats.iter().all(|seat| seat.outcome.is_some())
}

/// A done match as a dump lists it.
fn dump_match(one: &Match) -> DumpMatch {
    DumpMatch {
        id: one.id,
        seed: one.seed,
        seats: one
            .seats
            .iter()
            .filter_map(|seat| {
                let outcome = seat.outcome.as_ref()?;
                Some(DumpSeat::of(seat.version_id, &outcome.player, outcome.turns))
            })
            .collect(),
        winner: one.winner,
        turns: one.turns.unwrap_or_default(),
        digest: one.digest.clone(),
    }
}

/// Whether `text` is a sha256 as the ladder writes them: 64 lowercase hex digits.
fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

impl Dump {
    /// Reads the dump in the file `path` (a regular file of at most [`MAX_DUMP_BYTES`]).
    pub fn read(path: &Path) -> Result<Dump, DumpError> {
        Dump::parse(&arena_host::regular_file::read_text(path, MAX_DUMP_BYTES)?)
    }

    /// Parses a dump and checks that its parts fit together: its format, a game this arena has,
    /// ids each once, every seat's version and every version's bot present, every sha256 one.
    pub fn parse(text: &str) -> Result<Dump, DumpError> {
        // The format first: a dump of another format may not have this one's fields.
        #[derive(Deserialize)]
        struct Head {
            format: u32,
        }
        let head: Head = serde_json::from_str(text)?;
        if head.format != FORMAT {
            return Err(DumpError::Format { found: head.format });
        }
        let dump: Dump = serde_json::from_str(text)?;
        dump.check()?;
        Ok(dump)
    }

    fn check(&self) -> Result<(), DumpError> {
        let invalid = |why: String| Err(DumpError::Invalid(why));
        if find_game(&self.game).is_none() {
            return invalid(format!("no game {:?} in this arena", self.game));
        }
        let mut bots = BTreeSet::new();
        for bot in &self.bots {
            if !bots.insert(bot.id) {
                return invalid(format!("bot {} is listed twice", bot.id));
            }
        }
        let mut versions = BTreeSet::new();
        for version in &self.versions {
            if !versions.insert(version.id) {
                return invalid(format!("version {} is listed twice", version.id));
            }
            if !bots.contains(&version.bot_id) {
                return invalid(format!("version {} is of bot {}, which is not listed", version.id, version.bot_id));
            }
            if !is_sha256(&version.sha256) {
                return invalid(format!("version {} has {:?} for a sha256", version.id, version.sha256));
            }
            if let Some(data) = version.data.as_ref().filter(|data| !is_sha256(data)) {
                return invalid(format!("version {} has {data:?} for a data digest", version.id));
            }
        }
        let mut matches = BTreeSet::new();
        for one in &self.matches {
            if !matches.insert(one.id) {
                return invalid(format!("match {} is listed twice", one.id));
            }
            if one.seats.is_empty() {
                return invalid(format!("match {} has no seat", one.id));
            }
            if let Some(seat) = one.seats.iter().find(|seat| !versions.contains(&seat.version_id)) {
                return invalid(format!("match {} seats version {}, which is not listed", one.id, seat.version_id));
            }
        }
        Ok(())
    }

    /// The version `id` and its bot.
    fn version(&self, id: i64) -> Option<(&DumpVersion, &DumpBot)> {
        let version = self.versions.iter().find(|version| version.id == id)?;
        let bot = self.bots.iter().find(|bot| bot.id == version.bot_id)?;
        Some((version, bot))
    }

    /// The leaderboard of the dump's matches, recomputed from the dump alone with the function
    /// the pages use ([`crate::ratings::leaderboard_of`]).
    pub fn recompute(&self) -> Leaderboard {
        let bots: Vec<Bot> = self
            .bots
            .iter()
            .map(|bot| Bot {
                id: bot.id,
                owner: 0,
                owner_name: bot.owner.clone(),
                game: self.game.clone(),
                name: bot.name.clone(),
                disabled: false,
                private: !bot.public,
            })
            .collect();
        let versions: Vec<Version> = self
            .versions
            .iter()
            .map(|version| Version {
                status: VersionStatus::Accepted,
                data_digest: version.data.clone(),
                ..Version::pending(version.id, version.bot_id, &version.sha256, version.size)
            })
            .collect();
        let current: BTreeMap<i64, i64> = self.bots.iter().filter_map(|bot| Some((bot.id, bot.current?))).collect();
        let sha256_of: BTreeMap<i64, &str> =
            self.versions.iter().map(|version| (version.id, version.sha256.as_str())).collect();
        let results: Vec<Match> = self
            .matches
            .iter()
            .map(|one| Match {
                id: one.id,
                game: self.game.clone(),
                seed: one.seed,
                kind: MatchKind::Ranked,
                state: MatchState::Done,
                seats: one
                    .seats
                    .iter()
                    .map(|seat| {
                        let sha256 = sha256_of.get(&seat.version_id).copied().unwrap_or_default();
                        let player = seat.player(sha256, sha256, None);
                        Seat {
                            version_id: seat.version_id,
                            outcome: Some(SeatOutcome { player, turns: seat.turns, faults: Vec::new() }),
                        }
                    })
                    .collect(),
                winner: one.winner,
                turns: Some(one.turns),
                replay_sha256: None,
                digest: one.digest.clone(),
                error: None,
            })
            .collect();
        leaderboard_of(&self.game, &bots, &versions, &current, &results)
    }

    /// Why a re-play here may differ from the ladder's for a reason other than the results: the
    /// dump was played by another arena or wasmtime release than this one.
    pub fn other_release(&self) -> Option<String> {
        let here = (env!("CARGO_PKG_VERSION"), WASMTIME_VERSION);
        (here != (self.arena.as_str(), self.wasmtime.as_str())).then(|| {
            format!(
                "the ladder runs arena {} (wasmtime {}) and this is arena {} (wasmtime {}): a match may play \
                 differently across releases",
                self.arena, self.wasmtime, here.0, here.1
            )
        })
    }

    /// The tournament's spec of the dumped match `one`: what it is as a tournament match (its
    /// sha256 is its id in the merge format).
    fn spec(&self, one: &DumpMatch) -> MatchSpec {
        MatchSpec {
            arena: self.arena.clone(),
            wasmtime: self.wasmtime.clone(),
            game: self.game.clone(),
            options: Vec::new(),
            budget: self.budget,
            seed: one.seed,
            seats: one
                .seats
                .iter()
                .map(|seat| self.version(seat.version_id).map(|(version, _)| version.identity()).unwrap_or_default())
                .collect(),
        }
    }
}

/// The name a version has in a results database: its bot's name and its sha256's first 8
/// digits, as the ladder's viewer names a seat.
fn version_name(version: &DumpVersion, bot: &DumpBot) -> String {
    format!("{}@{}", bot.name, version.sha256.get(..8).unwrap_or(&version.sha256))
}

/// Writes the dump's results to the new tournament database `path` (the merge format: each
/// match under its spec's sha256, its bots by sha256 at `bots/SHA256.wasm`), which `arena
/// tournament show` and `report` read. Two ladder matches of one spec are one match there,
/// compared as a merge compares copies (the report counts them).
pub fn write_results(dump: &Dump, path: &Path) -> Result<MergeReport, DumpError> {
    let mut bots: Vec<PlanBot> = Vec::new();
    for version in &dump.versions {
        let Some((_, bot)) = dump.version(version.id) else { continue };
        if !bots.iter().any(|known| known.identity() == version.identity()) {
            let files = version.files_in(Path::new("bots"));
            bots.push(PlanBot {
                name: version_name(version, bot),
                sha256: version.sha256.clone(),
                path: files.wasm,
                data: version.data.clone().zip(files.data).map(|(digest, path)| DataRef { digest, path }),
            });
        }
    }
    let name_of = |identity: &str| bots.iter().find(|bot| bot.identity() == identity).map(|bot| bot.name.clone());
    let mut stored = Vec::with_capacity(dump.matches.len());
    let mut matches = Vec::with_capacity(dump.matches.len());
    for one in &dump.matches {
        let spec = dump.spec(one);
        let players: Vec<PlayerSummary> = one
            .seats
            .iter()
            .zip(&spec.seats)
            .map(|(seat, identity)| {
                let version = dump.version(seat.version_id).map(|(version, _)| version);
                let sha256 = version.map_or("", |version| version.sha256.as_str());
                let data = version.and_then(|version| version.data.as_deref());
                seat.player(&name_of(identity).unwrap_or_default(), sha256, data)
            })
            .collect();
        let result = MatchResult {
            game: dump.game.clone(),
            seed: one.seed,
            turns: one.turns,
            winner: one.winner.map(|seat| seat as usize),
            players,
        };
        let seat_turns: Vec<u32> = one.seats.iter().map(|seat| seat.turns).collect();
        let planned = PlannedMatch { id: spec.id(), spec, seating: Vec::new() };
        let digest = one.digest.clone().unwrap_or_default();
        let mut row = StoredMatch::new(
            &planned,
            Outcome::Played { result: &result, seat_turns: &seat_turns, replay_digest: &digest },
        );
        row.replay_digest = one.digest.clone();
        stored.push(row);
        matches.push(planned);
    }
    let plan = Plan { bots, matches, digest: None };
    let stored_plan = StoredPlan {
        digest: arena_tournament::run::spec_digest(&plan),
        match_ids: plan.matches.iter().map(|planned| planned.id.clone()).collect(),
        bots: plan
            .bots
            .iter()
            .map(|bot| (bot.identity(), bot.name.clone(), bot.path.display().to_string(), None))
            .collect(),
        shard: None,
    };
    let mut merger = Merger::new(path, stored_plan)?;
    for row in stored {
        merger.add(row, "ladder.json")?;
    }
    Ok(merger.finish(None))
}

/// How to verify a dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Re-play this many matches chosen at random (all of them if `None`, or if the dump has
    /// no more).
    pub sample: Option<usize>,
    /// The seed choosing them ([`sample`]).
    pub seed: u64,
    /// Matches re-played at once.
    pub jobs: usize,
}

/// A match that differs: the first field that does, as dumped and as re-played here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The match's id.
    #[serde(rename = "match")]
    pub match_id: i64,
    /// What differs: `winner`, `turns`, `seat 1 score`, `digest`, ... (`load` or `play` when it
    /// could not be re-played here).
    pub field: String,
    /// The dump's value.
    pub dumped: String,
    /// The value re-played here.
    pub replayed: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "match {} differs: {}: {} in the dump, {} re-played here",
            self.match_id, self.field, self.dumped, self.replayed
        )
    }
}

/// A leaderboard that differs from the one recomputed: where, as dumped and as recomputed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RatingDifference {
    /// The version whose line differs, if the lines are of one version.
    pub version_id: Option<i64>,
    /// What differs: `rating`, `interval`, `wins`, `place 2`, `lines`, ...
    pub field: String,
    /// The dump's value.
    pub dumped: String,
    /// The value recomputed.
    pub recomputed: String,
}

impl std::fmt::Display for RatingDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.version_id {
            Some(version) => write!(f, "the {} of version {version}", self.field)?,
            None => write!(f, "the leaderboard's {}", self.field)?,
        }
        write!(f, " differs: {} in the dump, {} recomputed", self.dumped, self.recomputed)
    }
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    /// Ranked matches in the dump.
    pub matches_total: usize,
    /// Matches re-played here.
    pub matches_checked: usize,
    /// Matches of the sample not re-played: they seat a bot whose files are not public.
    pub matches_skipped: usize,
    /// The seed that chose the sample, when a sample was asked for.
    pub sample_seed: Option<u64>,
    /// Every match that differs (its first difference), by match id.
    pub mismatches: Vec<Mismatch>,
    /// Whether the leaderboard recomputed from the dump is the dumped one.
    pub ratings_equal: bool,
    /// Where it differs first, if it does.
    pub rating_difference: Option<RatingDifference>,
}

impl Verification {
    /// Every match re-played agrees, and so do the ratings.
    pub fn identical(&self) -> bool {
        self.mismatches.is_empty() && self.ratings_equal
    }
}

/// A deterministic stream of numbers from a seed (SplitMix64): the sample's choice.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `count` distinct indices of `0..len` chosen by `seed` (all of them when `count >= len`), in
/// increasing order: the same seed chooses the same ones.
pub fn sample(len: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..len).collect();
    if count >= len {
        return indices;
    }
    let mut random = SplitMix(seed);
    // A partial Fisher-Yates shuffle: the first `count` places are a uniform choice.
    for place in 0..count {
        let left = (len - place) as u64;
        let pick = place + (random.next() % left) as usize;
        indices.swap(place, pick);
    }
    indices.truncate(count);
    indices.sort_unstable();
    indices
}

/// A number nobody can predict (the operating system's randomness, else the clock): a verify
/// sample's seed, and the service's node names, message ids and audit draws.
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: the clock still keeps a server from knowing the sample in advance.
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.as_nanos());
        return nanos as u64;
    }
    u64::from_le_bytes(bytes)
}

/// The first difference between the dumped match `dumped` and `played`, its re-play: the seat
/// count, the winner, the turns, each seat's figures in seat order, then the record's digest.
pub fn compare_match(dumped: &DumpMatch, played: &PoolMatch) -> Option<Mismatch> {
    let mismatch = |field: String, was: String, now: String| {
        Some(Mismatch { match_id: dumped.id, field, dumped: was, replayed: now })
    };
    let result = &played.result;
    if result.players.len() != dumped.seats.len() || played.seat_turns.len() != dumped.seats.len() {
        return mismatch("seats".into(), dumped.seats.len().to_string(), result.players.len().to_string());
    }
    let winner = |winner: Option<u32>| winner.map_or_else(|| "none (a draw)".to_owned(), |seat| format!("seat {seat}"));
    let replayed_winner = result.winner.map(|seat| seat as u32);
    if dumped.winner != replayed_winner {
        return mismatch("winner".into(), winner(dumped.winner), winner(replayed_winner));
    }
    if dumped.turns != result.turns {
        return mismatch("turns".into(), dumped.turns.to_string(), result.turns.to_string());
    }
    for (seat, ((was, player), turns)) in dumped.seats.iter().zip(&result.players).zip(&played.seat_turns).enumerate() {
        let now = DumpSeat::of(was.version_id, player, *turns);
        let (was_json, now_json) = (serde_json::to_value(was).ok()?, serde_json::to_value(&now).ok()?);
        if let Some(field) = SEAT_FIELDS.iter().find(|field| was_json[**field] != now_json[**field]) {
            return mismatch(
                format!("seat {seat} {field}"),
                was_json[*field].to_string(),
                now_json[*field].to_string(),
            );
        }
    }
    match &dumped.digest {
        Some(digest) if *digest != played.digest => mismatch("digest".into(), digest.clone(), played.digest.clone()),
        _ => None,
    }
}

/// The fields of a leaderboard line compared exactly (the rating and its interval are compared
/// to [`RATING_TOLERANCE`] first), in the order they are compared.
const LINE_FIELDS: [&str; 11] = [
    "bot_id",
    "bot",
    "owner",
    "version",
    "current",
    "matches",
    "wins",
    "draws",
    "losses",
    "faults",
    "mean_fuel_per_turn",
];

/// The first difference between a line of the dumped leaderboard and the recomputed one's:
/// (field, dumped, recomputed).
fn line_difference(was: &Line, now: &Line) -> Option<(String, String, String)> {
    // A number that is not one (NaN) is never close.
    let close = |a: f64, b: f64| (a - b).abs() <= RATING_TOLERANCE;
    if !close(was.rating, now.rating) {
        return Some(("rating".into(), was.rating.to_string(), now.rating.to_string()));
    }
    if !(close(was.interval[0], now.interval[0]) && close(was.interval[1], now.interval[1])) {
        let interval = |line: &Line| format!("{}-{}", line.interval[0], line.interval[1]);
        return Some(("interval".into(), interval(was), interval(now)));
    }
    let (was, now) = (serde_json::to_value(was).ok()?, serde_json::to_value(now).ok()?);
    let field = LINE_FIELDS.iter().find(|field| was[**field] != now[**field])?;
    Some(((*field).to_owned(), was[*field].to_string(), now[*field].to_string()))
}

/// The first difference between the dumped leaderboard and the one recomputed from the dump:
/// its game, its count of matches, its count of lines, then line by line, best first, each
/// line's version (the order), rating, interval and figures.
pub fn compare_leaderboards(dumped: &Leaderboard, recomputed: &Leaderboard) -> Option<RatingDifference> {
    let board = |field: &str, was: String, now: String| {
        Some(RatingDifference { version_id: None, field: field.to_owned(), dumped: was, recomputed: now })
    };
    if dumped.game != recomputed.game {
        return board("game", dumped.game.clone(), recomputed.game.clone());
    }
    if dumped.matches != recomputed.matches {
        return board("count of matches", dumped.matches.to_string(), recomputed.matches.to_string());
    }
    if dumped.leaderboard.len() != recomputed.leaderboard.len() {
        let lines = |board: &Leaderboard| format!("{} lines", board.leaderboard.len());
        return board("count of lines", lines(dumped), lines(recomputed));
    }
    for (place, (was, now)) in dumped.leaderboard.iter().zip(&recomputed.leaderboard).enumerate() {
        if was.version_id != now.version_id {
            let version = |line: &Line| format!("version {} ({})", line.version_id, line.bot);
            return board(&format!("place {}", place + 1), version(was), version(now));
        }
        if let Some((field, was_value, now_value)) = line_difference(was, now) {
            return Some(RatingDifference {
                version_id: Some(was.version_id),
                field,
                dumped: was_value,
                recomputed: now_value,
            });
        }
    }
    None
}

/// Re-plays the dump's matches (all, or a sample: [`VerifyOptions`]) with its bots from
/// `bots_dir` (`SHA256.wasm`, each checked against its sha256 and loaded once), compares each
/// with the dump ([`compare_match`]), then recomputes the leaderboard from the dump and compares
/// it with the dumped one ([`compare_leaderboards`]). `progress` is called with (re-played,
/// to re-play) after each match. An error is a dump that cannot be verified here (a bot file
/// missing or not its version's); a difference is in the [`Verification`].
pub fn verify(
    arena: &Arena,
    dump: &Dump,
    bots_dir: &Path,
    options: &VerifyOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Verification, DumpError> {
    let chosen: Vec<&DumpMatch> = match options.sample {
        Some(count) => {
            sample(dump.matches.len(), count, options.seed).into_iter().filter_map(|i| dump.matches.get(i)).collect()
        }
        None => dump.matches.iter().collect(),
    };
    let is_public = |id: i64| dump.version(id).is_some_and(|(_, bot)| bot.public);
    let (playable, skipped): (Vec<&DumpMatch>, Vec<&DumpMatch>) =
        chosen.into_iter().partition(|one| one.seats.iter().all(|seat| is_public(seat.version_id)));
    // Each bot once, checked before it is loaded: a dump's folder is untrusted.
    let mut paths: Vec<BotFiles> = Vec::new();
    let mut index_of: BTreeMap<i64, usize> = BTreeMap::new();
    for seat in playable.iter().flat_map(|one| &one.seats) {
        if index_of.contains_key(&seat.version_id) {
            continue;
        }
        let (version, _) = dump
            .version(seat.version_id)
            .ok_or_else(|| DumpError::Invalid(format!("version {} is not listed", seat.version_id)))?;
        let files = version.files_in(bots_dir);
        let index = match paths.iter().position(|known| *known == files) {
            Some(index) => index,
            None => {
                let actual = arena_host::loader::bot_file_sha256_hex(&files.wasm)
                    .map_err(|err| DumpError::BotFile(format!("the file of version {}: {err}", version.id)))?;
                if actual != version.sha256 {
                    return Err(DumpError::BotFile(format!(
                        "{} is not the file of version {} (its sha256 is {actual})",
                        files.wasm.display(),
                        version.id
                    )));
                }
                if let (Some(folder), Some(digest)) = (&files.data, &version.data) {
                    let read = BotData::read(folder, arena.data_limits())
                        .map_err(|err| DumpError::BotFile(format!("the data of version {}: {err}", version.id)))?;
                    if read.tree.digest_hex() != *digest {
                        return Err(DumpError::BotFile(format!(
                            "{} is not the data of version {} (its digest is {})",
                            folder.display(),
                            version.id,
                            read.tree.digest_hex()
                        )));
                    }
                }
                paths.push(files);
                paths.len() - 1
            }
        };
        index_of.insert(seat.version_id, index);
    }
    let game = find_game(&dump.game).ok_or_else(|| DumpError::Invalid(format!("no game {:?}", dump.game)))?;
    let pool = game
        .load_pool(arena, &paths, &[], dump.budget.memory_mib)
        .map_err(|err| DumpError::Setup { game: dump.game.clone(), reason: err.to_string() })?;
    let failures = pool.load_failures();
    let replay = |one: &DumpMatch| -> Option<Mismatch> {
        let differs = |field: &str, dumped: &str, replayed: String| {
            Some(Mismatch { match_id: one.id, field: field.to_owned(), dumped: dumped.to_owned(), replayed })
        };
        let seating: Vec<usize> = one.seats.iter().filter_map(|seat| index_of.get(&seat.version_id).copied()).collect();
        if let Some(failure) = seating.iter().find_map(|index| failures.get(*index).cloned().flatten()) {
            return differs("load", "loaded on the ladder", format!("not loaded: {}", failure.message));
        }
        match pool.play(arena, &seating, one.seed, dump.budget, ReplayText::DigestOnly) {
            Ok(played) => compare_match(one, &played),
            Err(err) => differs("play", "played on the ladder", format!("not played: {err}")),
        }
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    let jobs = options.jobs.clamp(1, playable.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                while let Some(one) = playable.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(mismatch) = replay(one) {
                        found.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(mismatch);
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, playable.len());
                }
            });
        }
    });
    let mut mismatches = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    mismatches.sort_by_key(|mismatch| mismatch.match_id);
    let rating_difference = compare_leaderboards(&dump.leaderboard, &dump.recompute());
    Ok(Verification {
        matches_total: dump.matches.len(),
        matches_checked: playable.len(),
        matches_skipped: skipped.len(),
        sample_seed: options.sample.map(|_| options.seed),
        mismatches,
        ratings_equal: rating_difference.is_none(),
        rating_difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The dump of `game`'s ladder built in memory: what the stream must write byte for byte.
    fn of_game(service: &Service, game: &str) -> Result<Dump, ServiceError> {
        if find_game(game).is_none() {
            return Err(ServiceError::UnknownGame(game.to_owned()));
        }
        of_results(service, game, service.store.ranked_results(game)?)
    }

    fn seat(version_id: i64, score: i64, rank: u32) -> DumpSeat {
        DumpSeat {
            version_id,
            score,
            rank,
            forfeit: false,
            forfeit_reason: None,
            fuel_total: 1000 + score as u64,
            fuel_max_turn: 100,
            skipped_turns: 0,
            traps: 0,
            invalid_actions: 0,
            turns: 20,
        }
    }

    /// A dump of two bots' six matches (version 1 wins four), its leaderboard recomputed.
    fn dump() -> Dump {
        let matches = (0..6)
            .map(|id| {
                let first_wins = id % 3 != 2;
                let (a, b) =
                    if first_wins { (seat(1, 40, 1), seat(2, 30, 2)) } else { (seat(1, 20, 2), seat(2, 35, 1)) };
                let seats = if id % 2 == 0 { vec![a, b] } else { vec![b, a] };
                let winner = seats.iter().position(|seat| seat.rank == 1).map(|seat| seat as u32);
                DumpMatch {
                    id: 10 + id,
                    seed: id as u64,
                    seats,
                    winner,
                    turns: 40,
                    digest: Some(format!("blake3:{id}")),
                }
            })
            .collect();
        let bot = |id: i64, name: &str| DumpBot {
            id,
            name: name.into(),
            owner: "alice".into(),
            current: Some(id),
            public: true,
        };
        let mut dump = Dump {
            format: FORMAT,
            game: "azul".into(),
            arena: env!("CARGO_PKG_VERSION").into(),
            wasmtime: WASMTIME_VERSION.into(),
            budget: Budget::default(),
            bots: vec![bot(1, "greedy"), bot(2, "random")],
            versions: vec![
                DumpVersion { id: 1, bot_id: 1, sha256: "a".repeat(64), size: 10, data: None },
                DumpVersion { id: 2, bot_id: 2, sha256: "b".repeat(64), size: 20, data: None },
            ],
            matches,
            leaderboard: Leaderboard { game: "azul".into(), matches: 0, leaderboard: Vec::new() },
        };
        dump.leaderboard = dump.recompute();
        dump
    }

    /// `dumped` as a re-play would give it.
    fn played(dumped: &DumpMatch) -> PoolMatch {
        let players = dumped.seats.iter().map(|seat| seat.player("x", "y", None)).collect();
        PoolMatch {
            result: MatchResult {
                game: "azul".into(),
                seed: dumped.seed,
                turns: dumped.turns,
                winner: dumped.winner.map(|seat| seat as usize),
                players,
            },
            digest: dumped.digest.clone().unwrap_or_default(),
            replay: None,
            seat_turns: dumped.seats.iter().map(|seat| seat.turns).collect(),
            seat_faults: vec![Vec::new(); dumped.seats.len()],
        }
    }

    #[test]
    fn a_sample_is_chosen_by_its_seed_distinct_in_order_and_whole_when_asked_for_all() {
        let chosen = sample(100, 10, 7);
        assert_eq!(chosen, sample(100, 10, 7), "the same seed, the same sample");
        assert_eq!(chosen.len(), 10);
        assert!(chosen.windows(2).all(|pair| pair[0] < pair[1]), "distinct, in order: {chosen:?}");
        assert!(chosen.iter().all(|&index| index < 100));
        assert_ne!(chosen, sample(100, 10, 8), "another seed, another sample");
        assert_ne!(chosen, (0..10).collect::<Vec<_>>(), "not the first ten");
        assert_eq!(sample(5, 5, 1), [0, 1, 2, 3, 4]);
        assert_eq!(sample(5, 50, 1), [0, 1, 2, 3, 4]);
        assert!(sample(0, 3, 1).is_empty());
        assert!(sample(5, 0, 1).is_empty());
        // Over many seeds every match gets its turn.
        let seen: BTreeSet<usize> = (0..200).flat_map(|seed| sample(20, 2, seed)).collect();
        assert_eq!(seen.len(), 20);
    }

    #[test]
    fn a_replay_is_compared_field_by_field_and_by_digest() {
        let dumped = dump().matches[0].clone();
        assert_eq!(compare_match(&dumped, &played(&dumped)), None);
        let differs = |change: &dyn Fn(&mut PoolMatch)| {
            let mut replay = played(&dumped);
            change(&mut replay);
            compare_match(&dumped, &replay).map(|mismatch| (mismatch.field, mismatch.dumped, mismatch.replayed))
        };
        assert_eq!(
            differs(&|replay| replay.result.winner = Some(1)),
            Some(("winner".into(), "seat 0".into(), "seat 1".into()))
        );
        assert_eq!(differs(&|replay| replay.result.winner = None).map(|found| found.2), Some("none (a draw)".into()));
        assert_eq!(differs(&|replay| replay.result.turns = 41), Some(("turns".into(), "40".into(), "41".into())));
        assert_eq!(
            differs(&|replay| replay.result.players[1].score = 31),
            Some(("seat 1 score".into(), "30".into(), "31".into()))
        );
        assert_eq!(
            differs(&|replay| replay.result.players[0].fuel_max_turn = 7),
            Some(("seat 0 fuel_max_turn".into(), "100".into(), "7".into()))
        );
        assert_eq!(differs(&|replay| replay.seat_turns[1] = 3), Some(("seat 1 turns".into(), "20".into(), "3".into())));
        assert_eq!(
            differs(&|replay| replay.result.players[0].forfeit_reason = Some(ForfeitReason::GameFuelExhausted))
                .map(|found| found.0),
            Some("seat 0 forfeit_reason".into())
        );
        assert_eq!(
            differs(&|replay| replay.digest = "blake3:other".into()),
            Some(("digest".into(), "blake3:0".into(), "blake3:other".into()))
        );
        assert_eq!(
            differs(&|replay| replay.result.players.pop().map(drop).unwrap_or(())).map(|found| found.0),
            Some("seats".into())
        );
        // The first difference is named: the winner before the scores that made it.
        let both = differs(&|replay| {
            replay.result.winner = Some(1);
            replay.result.players[0].score = 0;
        });
        assert_eq!(both.map(|found| found.0), Some("winner".into()));
        let text = compare_match(&dumped, &{
            let mut replay = played(&dumped);
            replay.result.turns = 41;
            replay
        })
        .unwrap()
        .to_string();
        assert_eq!(text, "match 10 differs: turns: 40 in the dump, 41 re-played here");
    }

    #[test]
    fn ratings_recomputed_from_a_dump_are_its_leaderboard_and_a_changed_one_is_named() {
        let dump = dump();
        let board = &dump.leaderboard;
        assert_eq!((board.matches, board.leaderboard.len()), (6, 2));
        assert_eq!(board.leaderboard[0].bot, "greedy", "{board:?}");
        assert_eq!((board.leaderboard[0].wins, board.leaderboard[0].losses), (4, 2));
        assert!(board.leaderboard.iter().all(|line| line.current));
        assert_eq!(compare_leaderboards(board, &dump.recompute()), None);

        let changed = |change: &dyn Fn(&mut Leaderboard)| {
            let mut dumped = board.clone();
            change(&mut dumped);
            compare_leaderboards(&dumped, &dump.recompute())
        };
        let moved = changed(&|dumped| dumped.leaderboard[1].rating += 1e-6).unwrap();
        assert_eq!((moved.version_id, moved.field.as_str()), (Some(2), "rating"));
        assert!(moved.to_string().starts_with("the rating of version 2 differs: "), "{moved}");
        assert_eq!(changed(&|dumped| dumped.leaderboard[0].rating += 1e-12), None, "within the tolerance");
        assert_eq!(
            changed(&|dumped| dumped.leaderboard[0].rating = f64::NAN).map(|found| found.field),
            Some("rating".into())
        );
        assert_eq!(
            changed(&|dumped| dumped.leaderboard[0].interval[1] -= 1.0).map(|found| found.field),
            Some("interval".into())
        );
        assert_eq!(changed(&|dumped| dumped.leaderboard[0].wins = 5).map(|found| found.field), Some("wins".into()));
        assert_eq!(
            changed(&|dumped| dumped.leaderboard[1].current = false).map(|found| found.field),
            Some("current".into())
        );
        let swapped = changed(&|dumped| dumped.leaderboard.swap(0, 1)).unwrap();
        assert_eq!((swapped.version_id, swapped.field.as_str()), (None, "place 1"));
        assert_eq!(changed(&|dumped| dumped.matches = 7).map(|found| found.field), Some("count of matches".into()));
        assert_eq!(
            changed(&|dumped| drop(dumped.leaderboard.pop())).map(|found| found.field),
            Some("count of lines".into())
        );
    }

    #[test]
    fn a_dump_reads_back_and_one_whose_parts_do_not_fit_is_refused_in_words() {
        let dump = dump();
        let text = serde_json::to_string(&dump).unwrap();
        assert_eq!(Dump::parse(&text).unwrap(), dump);
        let refused = |change: &dyn Fn(&mut serde_json::Value)| {
            let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
            change(&mut json);
            Dump::parse(&json.to_string()).unwrap_err().to_string()
        };
        assert!(Dump::parse("not json").unwrap_err().to_string().starts_with("not a ladder dump: "));
        assert!(Dump::parse("[1, 2]").unwrap_err().to_string().starts_with("not a ladder dump: "));
        assert_eq!(refused(&|json| json["format"] = 2.into()), "a dump of format 2: this arena reads format 1");
        assert!(refused(&|json| json["matches"][0]["seats"] = "x".into()).starts_with("not a ladder dump: "));
        assert_eq!(
            refused(&|json| json["matches"][3]["seats"][1]["version_id"] = 9.into()),
            "not a valid ladder dump: match 13 seats version 9, which is not listed"
        );
        assert_eq!(
            refused(&|json| json["versions"][0]["sha256"] = "../../etc/passwd".into()),
            "not a valid ladder dump: version 1 has \"../../etc/passwd\" for a sha256"
        );
        assert!(refused(&|json| json["versions"][1]["bot_id"] = 5.into()).contains("bot 5, which is not listed"));
        assert!(refused(&|json| json["matches"][1]["id"] = 10.into()).contains("match 10 is listed twice"));
        assert!(refused(&|json| json["game"] = "chess".into()).contains("no game \"chess\""));
        assert!(refused(&|json| json["matches"][0]["seats"] = serde_json::json!([])).contains("match 10 has no seat"));
    }

    /// A service on a database in memory (no thread started), its data in a scratch folder.
    fn service() -> (std::sync::Arc<Service>, PathBuf) {
        use crate::config::{Flags, Settings};
        let data = std::env::temp_dir().join(format!("arena-dump-{}-{:016x}", std::process::id(), random_seed()));
        let settings = Settings::resolve(&Flags { data: Some(data.clone()), workers: Some(1), ..Flags::default() });
        let store: std::sync::Arc<dyn crate::store::Store> =
            std::sync::Arc::new(crate::store::sqlite::SqliteStore::in_memory().unwrap());
        (Service::new(settings.unwrap(), store, Arena::new().unwrap()).unwrap(), data)
    }

    /// Records `id` as played: the seat `winner` first, 30 turns.
    fn finish(service: &Service, id: i64, winner: u32) {
        let outcome = |seat: u32| SeatOutcome { player: seat_player(seat == winner), turns: 15, faults: Vec::new() };
        let finished = crate::store::Finished {
            winner: Some(winner),
            turns: 30,
            outcomes: vec![outcome(0), outcome(1)],
            digest: format!("blake3:{id}"),
            replay_sha256: None,
        };
        assert!(service.store.finish_match(id, &finished).unwrap());
    }

    fn seat_player(won: bool) -> PlayerSummary {
        seat(0, if won { 40 } else { 25 }, if won { 1 } else { 2 }).player("b", &"a".repeat(64), None)
    }

    /// The dump of `game` as `GET /api/games/{game}/dump` streams it.
    fn streamed(service: &Service, game: &str) -> Vec<u8> {
        let mut bytes = Vec::new();
        DumpStream::of_game(service, game).unwrap().write(service, &mut bytes).unwrap();
        bytes
    }

    #[test]
    fn a_streamed_dump_is_the_dump_in_memory_byte_for_byte_and_one_cut_short_is_refused() {
        let (service, data) = service();
        let store = &service.store;
        let alice = store.create_user("alice", "", false).unwrap();
        let bob = store.create_user("bob", "", false).unwrap();
        let version = |owner: i64, name: &str, file: char| {
            let bot = store.bot_for_upload(owner, "azul", name).unwrap();
            let id = store.add_version(bot.id, &file.to_string().repeat(64), None, 7, 0).unwrap().0.id;
            store.finish_version(id, VersionStatus::Accepted, None, &[]).unwrap();
            id
        };
        let (greedy, random, unseated) =
            (version(alice.id, "greedy", 'a'), version(bob.id, "random", 'b'), { version(bob.id, "idle", 'c') });
        let newer = version(alice.id, "greedy", 'd');
        let ranked = |seats: Vec<i64>| crate::store::NewMatch {
            game: "azul".into(),
            seed: 3,
            kind: MatchKind::Ranked,
            seats,
            requested_by: None,
        };
        let pairs = [vec![greedy, random], vec![random, greedy], vec![newer, random], vec![random, unseated]];
        let ids = store.enqueue(&pairs.iter().cloned().cycle().take(1003).map(ranked).collect::<Vec<_>>(), 0).unwrap();
        // More than a page of results (`RESULTS_PAGE`), every match played but one still queued
        // and those with the idle bot.
        for (index, id) in ids.iter().enumerate() {
            if index != 5 && pairs[index % 4][1] != unseated {
                finish(&service, *id, (index % 3 == 0) as u32);
            }
        }

        let expected = serde_json::to_vec(&of_game(&service, "azul").unwrap()).unwrap();
        assert_eq!(String::from_utf8(streamed(&service, "azul")).unwrap(), String::from_utf8(expected).unwrap());
        let dump = Dump::parse(std::str::from_utf8(&streamed(&service, "azul")).unwrap()).unwrap();
        assert_eq!(dump.matches.len(), 752);
        assert!(!dump.versions.iter().any(|listed| listed.id == unseated), "a version never seated is not listed");
        assert!(!dump.bots.iter().any(|bot| bot.name == "idle"));
        assert_eq!(compare_leaderboards(&dump.leaderboard, &dump.recompute()), None);
        // Another game's ladder, empty, and one that does not exist.
        let empty = serde_json::to_vec(&of_game(&service, "paint").unwrap()).unwrap();
        assert_eq!(streamed(&service, "paint"), empty);
        assert!(matches!(DumpStream::of_game(&service, "chess"), Err(ServiceError::UnknownGame(_))));

        // Matches done between the two readings: one of listed versions is written, one seating
        // a version the first reading did not list is the next dump's; the dump fits together.
        let stream = DumpStream::of_game(&service, "azul").unwrap();
        finish(&service, ids[5], 0);
        finish(&service, ids[3], 1);
        let mut bytes = Vec::new();
        stream.write(&service, &mut bytes).unwrap();
        let during = Dump::parse(std::str::from_utf8(&bytes).unwrap()).unwrap();
        assert_eq!((during.matches.len(), during.leaderboard.matches), (753, 753));
        assert!(
            during.matches.iter().any(|one| one.id == ids[5]) && !during.matches.iter().any(|one| one.id == ids[3])
        );
        assert_eq!(compare_leaderboards(&during.leaderboard, &during.recompute()), None);
        assert_eq!(Dump::parse(std::str::from_utf8(&streamed(&service, "azul")).unwrap()).unwrap().matches.len(), 754);

        // A body ended early (an error mid-stream) is refused, typed, wherever it was cut.
        let text = String::from_utf8(streamed(&service, "azul")).unwrap();
        for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
            assert!(matches!(Dump::parse(&text[..cut]), Err(DumpError::Json(_))), "cut at {cut}");
        }
        // A client gone stops the writing with an error.
        struct Gone;
        impl std::io::Write for Gone {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert!(matches!(
            DumpStream::of_game(&service, "azul").unwrap().write(&service, &mut Gone),
            Err(ServiceError::Io(_))
        ));
        let _ = std::fs::remove_dir_all(data);
    }

    #[test]
    fn the_results_database_holds_every_match_under_its_spec_and_rates_as_the_ladder_does() {
        let dump = dump();
        let path = std::env::temp_dir().join(format!("arena-dump-results-{}.sqlite", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        let report = write_results(&dump, &path).unwrap();
        assert_eq!((report.planned, report.merged, report.duplicates), (6, 6, 0));
        assert!(report.complete(), "{report:?}");
        let store = arena_tournament::store::Store::open(&path).unwrap();
        let board = arena_tournament::leaderboard::read(&store, None).unwrap().unwrap();
        assert_eq!((board.matches_planned, board.matches_played), (6, 6));
        let names: BTreeSet<&str> = board.leaderboard.iter().map(|standing| standing.bot.as_str()).collect();
        assert_eq!(names, BTreeSet::from(["greedy@aaaaaaaa", "random@bbbbbbbb"]));
        for line in &dump.leaderboard.leaderboard {
            let standing = board.leaderboard.iter().find(|standing| standing.sha256 == line.version).unwrap();
            assert!((standing.rating - line.rating).abs() < 1e-6, "{standing:?} {line:?}");
            assert_eq!((standing.wins, standing.losses), (line.wins, line.losses));
        }
        let stored = store.stored_matches().unwrap();
        let spec: MatchSpec = serde_json::from_str(&stored[0].spec).unwrap();
        assert_eq!(spec.id(), stored[0].id, "each match under its spec's sha256");
        assert!(
            stored.iter().all(|row| row.replay_digest.as_deref().is_some_and(|digest| digest.starts_with("blake3:")))
        );
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
