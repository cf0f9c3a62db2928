//! The replay reader: what `arena replay verify FILE` does with the file before it loads any
//! bot ([`arena_host::replay::replay_game`] for the game's name, then
//! [`arena_host::replay::read_replay`] for that game), then what the verification does with the
//! record before running bots: the budget's validation and `Game::new` with the recorded config,
//! seed and player count (a replay's config is untrusted JSON), and [`compare`] (a record must
//! compare identical to itself).
//!
//! Inputs are raw bytes, byte-edited sample replays, or JSON-edited sample replays. The samples
//! are real: one short match per game, played at start-up through the host's own match loop
//! ([`play_contestants`]) by native bots that answer arbitrary values of the game's action type
//! (so the samples hold refused answers and faults too), plus the checked-in golden Azul replay.
//! The reader reads from a path, so each input is written to a scratch file first.

use crate::engines::{Subject, SubjectVisitor, for_each_subject};
use crate::mutate;
use arbitrary::Unstructured;
use arena_game::{Game, GameRng, new_rng};
use arena_host::Budget;
use arena_host::bindings::Binding;
use arena_host::fault::{BotFault, ForfeitReason, InvalidReason};
use arena_host::play::play_contestants;
use arena_host::record::BotRef;
use arena_host::registry::{GameVisitor, visit_game};
use arena_host::replay::{Verdict, compare, read_replay, replay_game};
use arena_host::runtime::Arena;
use arena_host::seat::{BotStats, TurnReport};
use arena_host::seat::{Contestant, SeatBot};
use rand_core::Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The golden Azul replay (a real match between real bots).
const GOLDEN_AZUL: &str = include_str!("../../golden/azul-reference-seed-1.json");

/// Turns kept in a sample replay: enough for every record shape, small enough to parse fast.
const SAMPLE_TURNS: usize = 12;

/// A valid replay, as text and as JSON.
struct Sample {
    text: Vec<u8>,
    value: Value,
}

/// The samples, made on first use.
fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut texts = Vec::new();
        // Without an arena there are no played samples; the golden replay still gives one.
        if let Ok(arena) = Arena::new() {
            struct Played<'a>(&'a Arena, &'a mut Vec<Option<String>>);
            impl SubjectVisitor for Played<'_> {
                fn visit<G: Subject>(&mut self) {
                    let (config, players) = G::sample();
                    self.1.push(played::<G>(self.0, &config, players));
                }
            }
            for_each_subject(&mut Played(&arena, &mut texts));
        }
        texts.push(Some(GOLDEN_AZUL.into()));
        texts
            .into_iter()
            .flatten()
            .filter_map(|text: String| {
                let value = serde_json::from_str(&text).ok()?;
                Some(Sample { text: text.into_bytes(), value })
            })
            .collect()
    })
}

/// A short match of `G` between native bots, as replay JSON (its turns cut to
/// [`SAMPLE_TURNS`]); `None` if the match could not be played.
fn played<G: Subject>(arena: &Arena, config: &G::Config, players: usize) -> Option<String> {
    let bots: Vec<Arc<dyn Contestant<G>>> =
        (0..players).map(|_| Arc::new(NativeBot::<G>(std::marker::PhantomData)) as Arc<dyn Contestant<G>>).collect();
    let mut record = play_contestants(arena, &bots, config, 7, Budget::default()).ok()?;
    record.turns.truncate(SAMPLE_TURNS);
    serde_json::to_string(&record).ok()
}

/// A native bot answering arbitrary values of the game's action type, drawn from a seeded
/// stream: some are legal, the rest are refused by the match loop and recorded as faults.
struct NativeBot<G>(std::marker::PhantomData<G>);

struct NativeSeat<G> {
    rng: GameRng,
    seat: u8,
    stats: BotStats,
    _game: std::marker::PhantomData<G>,
}

impl<G: Subject> Contestant<G> for NativeBot<G> {
    fn identity(&self) -> BotRef {
        BotRef { name: "native".into(), path: PathBuf::from("native.wasm"), sha256: "00".repeat(32), data: None }
    }

    fn seat(&self, _arena: &Arena, _budget: Budget, seat: u8, _players: u8, match_seed: u64) -> Box<dyn SeatBot<G>> {
        let rng = new_rng(match_seed ^ u64::from(seat));
        Box::new(NativeSeat::<G> { rng, seat, stats: BotStats::default(), _game: std::marker::PhantomData })
    }
}

impl<G> NativeSeat<G> {
    fn report<A>(&self, answer: Option<A>) -> TurnReport<A> {
        TurnReport { answer, fuel: 1, faults: Vec::new(), log: Default::default() }
    }
}

impl<G: Subject> SeatBot<G> for NativeSeat<G> {
    fn start(&mut self) -> TurnReport<G::Action> {
        self.report(None)
    }

    fn take_turn(&mut self, _observation: &G::Observation) -> TurnReport<G::Action> {
        let mut bytes = [0u8; 64];
        self.rng.fill_bytes(&mut bytes);
        let answer = G::wild_action(&mut Unstructured::new(&bytes)).ok();
        self.stats.fuel_total += 1;
        self.report(answer)
    }

    fn refused(&mut self, reason: InvalidReason, faults: &mut Vec<BotFault>) {
        self.stats.invalid_actions += 1;
        faults.push(BotFault::InvalidAction { reason });
    }

    fn stats(&self) -> BotStats {
        self.stats
    }

    fn forfeit(&self) -> Option<ForfeitReason> {
        None
    }

    fn identity(&self) -> BotRef {
        BotRef {
            name: format!("native-{}", self.seat),
            path: PathBuf::from("native.wasm"),
            sha256: "00".repeat(32),
            data: None,
        }
    }
}

/// The file this thread writes each input to (one per thread: test threads share the process).
fn scratch_file() -> Option<PathBuf> {
    static THREADS: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static FILE: Option<PathBuf> = {
            let dir = crate::scratch_dir();
            let thread = THREADS.fetch_add(1, Ordering::Relaxed);
            std::fs::create_dir_all(&dir).ok().map(|()| dir.join(format!("replay-{thread}.json")))
        };
    }
    FILE.with(Clone::clone)
}

/// Each sample replay's game and number of turns, in order (for the tests: the mutations must
/// start from valid files).
pub fn sample_summary() -> Vec<(String, usize)> {
    samples()
        .iter()
        .map(|sample| {
            let game = sample.value["game"].as_str().unwrap_or_default().to_owned();
            (game, sample.value["turns"].as_array().map_or(0, Vec::len))
        })
        .collect()
}

/// The replay reader fed raw, byte-edited and JSON-edited replays.
pub fn replay_file(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let samples = samples();
    let text = match (u.int_in_range(0..=9).unwrap_or(0), samples.is_empty()) {
        (0, _) | (_, true) => u.take_rest().to_vec(),
        (mode, false) => {
            // The big golden replay (the last sample) is slow to parse: one input in eight.
            let last = samples.len() - 1;
            let pick = if u.ratio(1, 8).unwrap_or(false) { last } else { u.choose_index(last.max(1)).unwrap_or(0) };
            let sample = &samples[pick];
            if mode <= 3 {
                mutate::bytes(&sample.text, &mut u)
            } else {
                serde_json::to_vec(&mutate::json(&sample.value, &mut u)).unwrap_or_default()
            }
        }
    };
    let Some(path) = scratch_file() else { return };
    if std::fs::write(&path, &text).is_ok() {
        read(&path);
    }
}

/// What `arena replay verify` does with a file before running bots.
fn read(path: &Path) {
    let Ok(name) = replay_game(path, arena_host::registry::replay_limits) else { return };
    /// [`check`] for the game the registry names.
    struct Check<'a>(&'a Path);
    impl GameVisitor for Check<'_> {
        type Output = ();
        fn visit<B: Binding>(self) {
            check::<B::Game>(self.0);
        }
    }
    // A game the arena does not play (`replay_game` returns any name; the front ends refuse it)
    // has nothing more to read.
    let _ = visit_game(&name, Check(path));
}

fn check<G: Game>(path: &Path) {
    let Ok(record) = read_replay::<G>(path) else { return };
    if record.budget.validate().is_ok() {
        let _ = G::new(&record.config, record.bots.len(), record.seed);
    }
    assert_eq!(compare(&record, &record), Verdict::Identical, "a replay does not compare identical to itself");
}
