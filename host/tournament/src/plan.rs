//! The plan: every match a tournament plays, each a pure function of its canonical spec (game,
//! options, budgets, the bots' identities in seat order (a file's sha256, plus its data folder's
//! digest when it brings one), seed, arena and wasmtime versions), whose
//! sha256 is the match id. Equal specs are one match wherever and whenever they are planned,
//! which is what makes a run resumable and shards mergeable.
//!
//! A bot's data folder is read within its SPEC's data limits (`data_max_mib`,
//! `data_max_entries`) when the plan is made. A plan file does not carry those limits (a header
//! would not reach workers, which the queue hands batches of lines): `run-plan` and workers read
//! a plan's folders, each checked against the digest the plan names, within the default limits.
//!
//! Formats: a round robin plays every group of `players` bots (every pair, for two-player
//! games); a gauntlet every challenger with every group of `players - 1` pool bots; a swiss
//! tournament is paired round by round ([`super::swiss`]). Every group
//! plays every seed in every seat rotation, and the rotations of one group share each seed, so
//! a seat's advantage cancels.

use super::spec::{Format, Resolved};
use arena_host::bot_data::{BotData, BotFiles, DataRef, bot_identity};
use arena_host::budget::{Budget, WASMTIME_VERSION};
use arena_host::data::{DataError, DataLimits};
use arena_host::loader::{bot_file_sha256_hex, sha256};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A bot of the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanBot {
    /// Its name: the SPEC's `name` for it, else the file name without `.wasm`.
    pub name: String,
    /// sha256 of the file, hex.
    pub sha256: String,
    /// The file.
    pub path: PathBuf,
    /// Its data folder, if it brings one (left out when it does not, so plans without data read
    /// and write as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<DataRef>,
}

impl PlanBot {
    /// Its identity ([`bot_identity`]): what a match spec's seats, the database and the results
    /// name it by.
    pub fn identity(&self) -> String {
        bot_identity(&self.sha256, self.data.as_ref().map(|data| data.digest.as_str()))
    }

    /// Its files, to load it.
    pub fn files(&self) -> BotFiles {
        BotFiles { wasm: self.path.clone(), data: self.data.as_ref().map(|data| data.path.clone()) }
    }

    /// Checks its files are the bot the plan names: the file's sha256 and, when it brings data,
    /// the data folder's digest (a plan is run where its bots may have been replaced).
    pub fn check_files(&self) -> Result<(), PlanError> {
        let actual = bot_file_sha256_hex(&self.path).map_err(|err| PlanError::Read(err.to_string()))?;
        if actual != self.sha256 {
            return Err(PlanError::Invalid(replaced_bot(&self.path, &actual, &self.sha256)));
        }
        if let Some(data) = &self.data {
            // A plan file does not carry its SPEC's data limits (module documentation): read within
            // the defaults, which the arena that runs it loads the folder within too.
            let read = BotData::read(&data.path, DataLimits::DEFAULT).map_err(|err| {
                PlanError::Read(match err {
                    DataError::TooManyBytes { .. } | DataError::TooManyEntries { .. } => format!(
                        "{err} (a plan file is run within the default data limits: a SPEC's data_max_mib and \
                         data_max_entries hold for `arena tournament run` only)"
                    ),
                    _ => err.to_string(),
                })
            })?;
            let digest = read.tree.digest_hex();
            if digest != data.digest {
                return Err(PlanError::Invalid(format!(
                    "{} is not the data the plan names (digest {digest}, the plan says {})",
                    data.path.display(),
                    data.digest
                )));
            }
        }
        Ok(())
    }
}

/// What a match is: everything its result depends on. Serialised with its fields in this order
/// (and `options` sorted), it is the canonical text whose sha256 is the match id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The arena's version.
    pub arena: String,
    /// The wasmtime release (what a unit of fuel means).
    pub wasmtime: String,
    /// The game.
    pub game: String,
    /// Game options, sorted by key.
    pub options: Vec<(String, String)>,
    /// Budgets.
    pub budget: Budget,
    /// The match seed.
    pub seed: u64,
    /// The identity of the bot in each seat ([`PlanBot::identity`]).
    pub seats: Vec<String>,
}

impl MatchSpec {
    /// The match id: sha256 of the canonical JSON, hex.
    pub fn id(&self) -> String {
        // Serialising plain data to a string cannot fail.
        let canonical = serde_json::to_string(self).unwrap_or_default();
        hex::encode(sha256(canonical.as_bytes()))
    }
}

/// One planned match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedMatch {
    /// [`MatchSpec::id`].
    pub id: String,
    /// What it is.
    pub spec: MatchSpec,
    /// Index into [`Plan::bots`] of the bot in each seat.
    pub seating: Vec<usize>,
}

/// Largest plan file read (`tournament run-plan`, `emit`, `enqueue`): a plan line is a few
/// hundred bytes, so this holds about a million matches.
pub const MAX_PLAN_FILE: u64 = 512 << 20;

/// Every match of a tournament, in a fixed order.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The bots, pool first then challengers, in SPEC order.
    pub bots: Vec<PlanBot>,
    /// The matches.
    pub matches: Vec<PlannedMatch>,
    /// The tournament's digest when it is not its matches' (a swiss plan grows round by round,
    /// under the digest of its SPEC).
    pub digest: Option<String>,
}

/// Why a plan cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A bot file cannot be read.
    #[error("{0}")]
    Read(String),
    /// The plan or its bots cannot be played: two files of one bot, two bots of one name, a plan
    /// line whose id or bots do not match its spec, an empty plan, mixed games.
    #[error("{0}")]
    Invalid(String),
    /// A match is planned twice: it would be played and counted twice ("2 planned, 3 played").
    #[error("plan line {line}: match {id} is already planned on line {first}: a plan names each match once")]
    Duplicate {
        /// The match id.
        id: String,
        /// The line (1-based; for a plan in memory, its position in plan order) planning it again.
        line: usize,
        /// The line that planned it first.
        first: usize,
    },
}

/// Plans the tournament `spec` describes. A swiss tournament is paired round by round from its
/// results, so its plan has its bots and no match yet ([`super::swiss`] adds each round's).
pub fn plan(spec: &Resolved) -> Result<Plan, PlanError> {
    let bots = plan_bots(spec)?;
    let pool: Vec<usize> = (0..spec.bots.len()).collect();
    let groups: Vec<Vec<usize>> = match spec.format {
        Format::RoundRobin => combinations(&pool, spec.players),
        Format::Gauntlet => {
            let challengers = spec.bots.len()..bots.len();
            let mut groups = Vec::new();
            for challenger in challengers {
                for others in combinations(&pool, spec.players - 1) {
                    groups.push([vec![challenger], others].concat());
                }
            }
            groups
        }
        Format::Swiss => Vec::new(),
    };
    let matches = groups.iter().flat_map(|group| group_matches(spec, &bots, group)).collect();
    Ok(Plan { bots, matches, digest: None })
}

/// Every match of one group of bots: every seed of the SPEC, every seat rotation.
pub fn group_matches(spec: &Resolved, bots: &[PlanBot], group: &[usize]) -> Vec<PlannedMatch> {
    let mut matches = Vec::new();
    for &seed in &spec.seeds {
        for shift in 0..group.len() {
            let seating: Vec<usize> = (0..group.len()).map(|seat| group[(seat + shift) % group.len()]).collect();
            let spec = MatchSpec {
                arena: env!("CARGO_PKG_VERSION").into(),
                wasmtime: WASMTIME_VERSION.into(),
                game: spec.game_name.into(),
                options: spec.options.clone(),
                budget: spec.budget,
                seed,
                seats: seating.iter().map(|&bot| bots[bot].identity()).collect(),
            };
            matches.push(PlannedMatch { id: spec.id(), spec, seating });
        }
    }
    matches
}

/// Why a plan cannot run the file at `path`: its sha256 is `actual`, not the `planned` one.
pub(crate) fn replaced_bot(path: &Path, actual: &str, planned: &str) -> String {
    format!("{} is not the bot the plan names (sha256 {actual}, the plan says {planned})", path.display())
}

/// The SPEC's bots, pool first then challengers, each read and hashed (with its data folder,
/// read within the SPEC's data limits and digested); two files of one bot, or two bots of one
/// name, are refused.
fn plan_bots(spec: &Resolved) -> Result<Vec<PlanBot>, PlanError> {
    let mut bots = Vec::new();
    for bot in spec.bots.iter().chain(&spec.challengers) {
        let path = &bot.files.wasm;
        let sha256 = bot_file_sha256_hex(path).map_err(|err| PlanError::Read(err.to_string()))?;
        let data = match &bot.files.data {
            Some(folder) => {
                let read = BotData::read(folder, spec.data_limits)
                    .map_err(|err| PlanError::Read(over_spec_limit(&err, spec.data_limits)))?;
                Some(read.identity())
            }
            None => None,
        };
        bots.push(PlanBot { name: bot.name.clone(), sha256, path: path.clone(), data });
    }
    for (index, bot) in bots.iter().enumerate() {
        if let Some(other) = bots[..index].iter().find(|other| other.identity() == bot.identity()) {
            return Err(PlanError::Invalid(format!(
                "{} and {} are the same bot ({}): list it once",
                described(other),
                described(bot),
                bot.identity()
            )));
        }
        if let Some(other) = bots[..index].iter().find(|other| other.name == bot.name) {
            return Err(PlanError::Invalid(format!(
                "{} and {} are both named {:?}: a bot is named by its file's stem; give one another name \
                 with the SPEC's `name` key, as in {{ wasm = \"...\", data = \"...\", name = \"{}-2\" }}",
                described(other),
                described(bot),
                bot.name,
                bot.name
            )));
        }
    }
    Ok(bots)
}

/// A bot as an error names it: its file, and its data folder when it brings one (one file with
/// two data folders is two bots).
fn described(bot: &PlanBot) -> String {
    match &bot.data {
        Some(data) => format!("{} (data {})", bot.path.display(), data.path.display()),
        None => bot.path.display().to_string(),
    }
}

/// Why a data folder was refused, naming the SPEC key to raise when it is over a limit.
fn over_spec_limit(err: &DataError, limits: DataLimits) -> String {
    match err {
        DataError::TooManyBytes { .. } => {
            format!("{err} (the SPEC's data_max_mib = {}: raise it to admit the folder)", limits.max_bytes >> 20)
        }
        DataError::TooManyEntries { .. } => {
            format!("{err} (the SPEC's data_max_entries = {}: raise it to admit the folder)", limits.max_entries)
        }
        _ => err.to_string(),
    }
}

/// One line of a plan file: a match's id, its spec and its bots in seat order.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanLine {
    /// The match id.
    pub id: String,
    /// What the match is.
    pub spec: MatchSpec,
    /// Its bots, in seat order.
    pub bots: Vec<PlanBot>,
}

impl PlanLine {
    /// Reads one line, checking its id against its spec and its bots against the spec's seats
    /// (not the bot files: see [`Plan::from_jsonl`]).
    pub fn parse(text: &str) -> Result<PlanLine, String> {
        let line: PlanLine = serde_json::from_str(text).map_err(|err| err.to_string())?;
        if line.spec.id() != line.id {
            return Err(format!("id {} is not the sha256 of its spec", line.id));
        }
        if !line.bots.iter().map(PlanBot::identity).eq(line.spec.seats.iter().cloned()) {
            return Err("its bots are not the spec's seats".into());
        }
        Ok(line)
    }
}

impl Plan {
    /// The plan file: one JSON object per match (`id`, `spec`, `bots` in seat order), in plan
    /// order.
    pub fn to_jsonl(&self) -> String {
        let mut lines = String::new();
        for planned in &self.matches {
            let bots = planned.seating.iter().filter_map(|&bot| self.bots.get(bot).cloned()).collect();
            let line = PlanLine { id: planned.id.clone(), spec: planned.spec.clone(), bots };
            lines.push_str(&serde_json::to_string(&line).unwrap_or_default());
            lines.push('\n');
        }
        lines
    }

    /// Reads a plan file, checking every id against its spec, that no id is planned twice, and
    /// every bot file against the sha256 the plan names and every data folder against its digest
    /// (a plan is run where its bots may have been replaced).
    pub fn from_jsonl(text: &str) -> Result<Plan, PlanError> {
        let mut plan = Plan { bots: Vec::new(), matches: Vec::new(), digest: None };
        // The identities of `plan.bots`, in order: each line's seats are its bots' (checked by
        // `PlanLine::parse`), compared without making one per known bot per line.
        let mut identities: Vec<String> = Vec::new();
        // Each id's line, to name both lines of a duplicate.
        let mut lines: HashMap<String, usize> = HashMap::new();
        for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            let at = |what: String| PlanError::Invalid(format!("plan line {}: {what}", number + 1));
            let line = PlanLine::parse(line).map_err(at)?;
            if let Some(&first) = lines.get(&line.id) {
                return Err(PlanError::Duplicate { id: line.id, line: number + 1, first });
            }
            lines.insert(line.id.clone(), number + 1);
            let mut seating = Vec::with_capacity(line.bots.len());
            for (bot, identity) in line.bots.into_iter().zip(&line.spec.seats) {
                let index = match identities.iter().position(|known| known == identity) {
                    Some(index) => index,
                    None => {
                        match bot.check_files() {
                            Err(PlanError::Invalid(why)) => return Err(at(why)),
                            other => other?,
                        }
                        plan.bots.push(bot);
                        identities.push(identity.clone());
                        plan.bots.len() - 1
                    }
                };
                seating.push(index);
            }
            plan.matches.push(PlannedMatch { id: line.id, spec: line.spec, seating });
        }
        Ok(plan)
    }

    /// Refuses a plan that names a match twice ([`PlanError::Duplicate`], lines counted in plan
    /// order): [`Plan::from_jsonl`] refuses such a file, and a plan made in memory is checked
    /// before it is run.
    pub fn check_unique_ids(&self) -> Result<(), PlanError> {
        let mut positions: HashMap<&str, usize> = HashMap::with_capacity(self.matches.len());
        for (position, planned) in self.matches.iter().enumerate() {
            if let Some(&first) = positions.get(planned.id.as_str()) {
                return Err(PlanError::Duplicate { id: planned.id.clone(), line: position + 1, first });
            }
            positions.insert(&planned.id, position + 1);
        }
        Ok(())
    }
}

/// Every `k`-element subset of `items`, each in `items` order, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (index, &first) in items.iter().enumerate() {
        for rest in combinations(&items[index + 1..], k - 1) {
            out.push([vec![first], rest].concat());
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plan of one match per seed between two bot files written into `dir` (any bytes: a plan
    /// only hashes its bots).
    pub(crate) fn two_bot_plan(dir: &Path, seeds: &[u64]) -> Plan {
        std::fs::create_dir_all(dir).unwrap();
        let bots: Vec<PlanBot> = ["a", "b"]
            .iter()
            .map(|name| {
                let path = dir.join(format!("{name}.wasm"));
                std::fs::write(&path, format!("bot {name}")).unwrap();
                PlanBot { name: (*name).into(), sha256: bot_file_sha256_hex(&path).unwrap(), path, data: None }
            })
            .collect();
        let matches = seeds
            .iter()
            .map(|&seed| {
                let spec = MatchSpec {
                    arena: env!("CARGO_PKG_VERSION").into(),
                    wasmtime: WASMTIME_VERSION.into(),
                    game: "azul".into(),
                    options: vec![],
                    budget: Budget::default(),
                    seed,
                    seats: bots.iter().map(|bot| bot.sha256.clone()).collect(),
                };
                PlannedMatch { id: spec.id(), spec, seating: vec![0, 1] }
            })
            .collect();
        Plan { bots, matches, digest: None }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-plan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// Obeyed: a plan file of distinct matches reads back as written.
    #[test]
    fn a_plan_file_of_distinct_matches_reads_back() {
        let dir = scratch("distinct");
        let plan = two_bot_plan(&dir, &[1, 2]);
        let read = Plan::from_jsonl(&plan.to_jsonl()).unwrap();
        assert_eq!(read.matches, plan.matches);
        assert!(read.check_unique_ids().is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: a plan file with one match's line twice (it was played and counted twice: "2
    /// planned, 3 played") is refused, naming the match and both lines.
    #[test]
    fn a_plan_file_naming_a_match_twice_is_refused_with_both_lines() {
        let dir = scratch("twice");
        let plan = two_bot_plan(&dir, &[1, 2]);
        let text = plan.to_jsonl();
        let first = text.lines().next().unwrap();
        let doubled = format!("{text}\n{first}\n");
        let err = Plan::from_jsonl(&doubled).unwrap_err();
        assert!(matches!(&err, PlanError::Duplicate { id, line: 4, first: 1 } if *id == plan.matches[0].id), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!(
                "plan line 4: match {} is already planned on line 1: a plan names each match once",
                plan.matches[0].id
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: a plan made in memory with a match twice is refused by the check a run makes.
    #[test]
    fn a_plan_in_memory_naming_a_match_twice_fails_the_check() {
        let dir = scratch("memory");
        let mut plan = two_bot_plan(&dir, &[1, 2]);
        plan.matches.push(plan.matches[1].clone());
        match plan.check_unique_ids() {
            Err(PlanError::Duplicate { id, line: 3, first: 2 }) => assert_eq!(id, plan.matches[1].id),
            other => panic!("expected a duplicate, got {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A round robin SPEC of `bots` (TOML) with the top-level keys `extra`, resolved in `dir`.
    fn spec_in(dir: &Path, bots: &str, extra: &str) -> Resolved {
        let text = format!("game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = {bots}\n{extra}\n");
        let spec = crate::spec::Spec::parse(Path::new("t.toml"), &text).unwrap();
        spec.resolve(Path::new("t.toml"), dir).unwrap()
    }

    /// A scratch folder holding `probe.wasm` (any bytes: a plan only hashes its bots) and the
    /// data folders `small/` (one file) and `large/` (a folder and two files: 3 entries).
    fn probe_and_tables(name: &str) -> PathBuf {
        let dir = scratch(name);
        std::fs::create_dir_all(dir.join("small")).unwrap();
        std::fs::create_dir_all(dir.join("large/sub")).unwrap();
        std::fs::write(dir.join("probe.wasm"), "probe").unwrap();
        std::fs::write(dir.join("small/t.txt"), "small").unwrap();
        std::fs::write(dir.join("large/t.txt"), "large").unwrap();
        std::fs::write(dir.join("large/sub/u.txt"), "more").unwrap();
        dir
    }

    /// Obeyed: one file with two data folders, named apart by the SPEC, is two bots of those
    /// names. Violated: left to their file's stem, both are named alike, and the plan is refused
    /// with a message suggesting the `name` key.
    #[test]
    fn one_file_with_two_data_folders_is_two_bots_when_the_spec_names_them() {
        let dir = probe_and_tables("two-names");
        let named = "[{ wasm = \"probe.wasm\", data = \"small\", name = \"probe-small\" }, \
                     { wasm = \"probe.wasm\", data = \"large\", name = \"probe-large\" }]";
        let planned = plan(&spec_in(&dir, named, "")).unwrap();
        let names: Vec<&str> = planned.bots.iter().map(|bot| bot.name.as_str()).collect();
        assert_eq!(names, ["probe-small", "probe-large"]);
        assert_ne!(planned.bots[0].identity(), planned.bots[1].identity());
        assert_eq!(planned.matches.len(), 2, "one pair, one seed, both seat orders");

        let unnamed = "[{ wasm = \"probe.wasm\", data = \"small\" }, { wasm = \"probe.wasm\", data = \"large\" }]";
        let err = plan(&spec_in(&dir, unnamed, "")).unwrap_err().to_string();
        assert!(err.contains("are both named \"probe\"") && err.contains("name = \"probe-2\""), "{err}");
        assert!(err.contains("(data ") && err.contains("small") && err.contains("large"), "{err}");

        let same = "[{ wasm = \"probe.wasm\", data = \"small\", name = \"one\" }, \
                    { wasm = \"probe.wasm\", data = \"small\", name = \"two\" }]";
        let err = plan(&spec_in(&dir, same, "")).unwrap_err().to_string();
        assert!(err.contains("are the same bot") && err.contains("list it once"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Obeyed: the plan reads each data folder within the SPEC's limits. Violated: a folder over
    /// them is refused, the message naming the SPEC key and its value.
    #[test]
    fn the_plan_reads_data_folders_within_the_spec_limits() {
        let dir = probe_and_tables("limits");
        let bots = "[{ wasm = \"probe.wasm\", data = \"large\", name = \"large\" }, \
                    { wasm = \"probe.wasm\", data = \"small\", name = \"small\" }]";
        assert!(plan(&spec_in(&dir, bots, "data_max_entries = 3")).is_ok());
        let err = plan(&spec_in(&dir, bots, "data_max_entries = 2")).unwrap_err().to_string();
        assert!(err.contains("more than 2 entries") && err.contains("the SPEC's data_max_entries = 2"), "{err}");
        std::fs::write(dir.join("large/big.bin"), vec![0u8; (1 << 20) + 1]).unwrap();
        let err = plan(&spec_in(&dir, bots, "data_max_mib = 1")).unwrap_err().to_string();
        assert!(err.contains("over its 1048576-byte limit") && err.contains("the SPEC's data_max_mib = 1"), "{err}");
        assert!(plan(&spec_in(&dir, bots, "data_max_mib = 2")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn combinations_are_every_subset_once() {
        assert_eq!(combinations(&[0, 1, 2], 2), [vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(combinations(&[0, 1, 2, 3], 3).len(), 4);
        assert_eq!(combinations(&[0, 1], 3), Vec::<Vec<usize>>::new());
    }

    #[test]
    fn the_id_is_the_sha256_of_the_canonical_spec_and_changes_with_any_field() {
        let spec = MatchSpec {
            arena: "0.1.0".into(),
            wasmtime: WASMTIME_VERSION.into(),
            game: "azul".into(),
            options: vec![],
            budget: Budget::default(),
            seed: 1,
            seats: vec!["aa".into(), "bb".into()],
        };
        assert_eq!(spec.id().len(), 64);
        assert_eq!(spec.id(), spec.clone().id());
        let swapped = MatchSpec { seats: vec!["bb".into(), "aa".into()], ..spec.clone() };
        let reseeded = MatchSpec { seed: 2, ..spec.clone() };
        let budgeted = MatchSpec { budget: Budget { turn_fuel: 5, ..Budget::default() }, ..spec.clone() };
        for other in [swapped, reseeded, budgeted] {
            assert_ne!(other.id(), spec.id());
        }
    }
}
