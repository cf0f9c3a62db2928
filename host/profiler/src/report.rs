//! What `arena profile` writes and prints from a seat's [`Samples`]: a speedscope file (the
//! format <https://www.speedscope.app> opens, offline too: `npx speedscope FILE`) and a table of
//! the functions that spent the most fuel.
//!
//! The file holds two profiles of the same samples, weighted by fuel: `whole match` (the bot's
//! own call stacks) and `by phase`, where every stack sits under a frame naming the phase it
//! fell in (`start-up and init`, `turn 12`, `turn 13 (suspended)`, ...), so the time-order view
//! reads turn by turn. Nothing in it depends on the machine or the clock: the same match gives
//! the same bytes.

use super::phases::{Phase, phase_of};
use super::sampler::Samples;
use crate::fuel_profile::thousands;
use serde::Serialize;
use std::collections::BTreeSet;

/// The speedscope file format's schema address (its files name it).
const SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

/// A speedscope file.
#[derive(Debug, Serialize)]
struct SpeedscopeFile<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    name: String,
    exporter: String,
    #[serde(rename = "activeProfileIndex")]
    active_profile_index: usize,
    shared: Shared<'a>,
    profiles: Vec<SampledProfile>,
}

#[derive(Debug, Serialize)]
struct Shared<'a> {
    frames: Vec<FrameName<'a>>,
}

#[derive(Debug, Serialize)]
struct FrameName<'a> {
    name: &'a str,
}

#[derive(Debug, Serialize)]
struct SampledProfile {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'static str,
    unit: &'static str,
    #[serde(rename = "startValue")]
    start_value: u64,
    #[serde(rename = "endValue")]
    end_value: u64,
    samples: Vec<Vec<usize>>,
    weights: Vec<u64>,
}

/// What a profile is of, for its title.
#[derive(Debug, Clone)]
pub struct Subject {
    /// The bot's name.
    pub bot: String,
    /// Its seat.
    pub seat: usize,
    /// The match's game.
    pub game: String,
    /// The match's seed.
    pub seed: u64,
}

/// The speedscope file of `samples`, its phases from `phases` (see [`super::phases`]).
pub fn speedscope(samples: &Samples, phases: &[Phase], subject: &Subject) -> String {
    let mut names: Vec<&str> = samples.frames.iter().map(|frame| frame.name.as_str()).collect();
    // Phase frames follow the bot's own, in the order first seen.
    let mut phase_frames: Vec<&str> = Vec::new();
    let mut by_phase = Vec::with_capacity(samples.samples.len());
    for sample in &samples.samples {
        let label = phase_of(phases, sample.at).map_or("after the last turn", |phase| phase.label.as_str());
        let position = match phase_frames.iter().position(|name| *name == label) {
            Some(position) => position,
            None => {
                phase_frames.push(label);
                phase_frames.len() - 1
            }
        };
        let mut stack = vec![samples.frames.len() + position];
        stack.extend_from_slice(&sample.stack);
        by_phase.push(stack);
    }
    names.extend(phase_frames);
    let weights: Vec<u64> = samples.samples.iter().map(|sample| sample.weight).collect();
    let total: u64 = weights.iter().sum();
    let profile = |name, stacks| SampledProfile {
        kind: "sampled",
        name,
        unit: "none",
        start_value: 0,
        end_value: total,
        samples: stacks,
        weights: weights.clone(),
    };
    let file = SpeedscopeFile {
        schema: SCHEMA,
        name: format!("{} (seat {}), {} seed {}: fuel", subject.bot, subject.seat, subject.game, subject.seed),
        exporter: format!("wasm-arena {} (arena profile)", env!("CARGO_PKG_VERSION")),
        active_profile_index: 0,
        shared: Shared { frames: names.into_iter().map(|name| FrameName { name }).collect() },
        profiles: vec![
            profile("whole match", samples.samples.iter().map(|sample| sample.stack.clone()).collect()),
            profile("by phase", by_phase),
        ],
    };
    serde_json::to_string(&file).unwrap_or_default()
}

/// One function's share of the sampled fuel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionFuel {
    /// Its name.
    pub name: String,
    /// Fuel of the samples it was running in (the innermost frame).
    pub self_fuel: u64,
    /// Fuel of the samples it was on the stack in (once per sample, recursion or not).
    pub total_fuel: u64,
}

/// Every function's self and total fuel, most self fuel first (ties by total, then name).
pub fn functions(samples: &Samples) -> Vec<FunctionFuel> {
    let mut self_fuel = vec![0u64; samples.frames.len()];
    let mut total_fuel = vec![0u64; samples.frames.len()];
    for sample in &samples.samples {
        if let Some(&innermost) = sample.stack.last() {
            self_fuel[innermost] += sample.weight;
        }
        let distinct: BTreeSet<usize> = sample.stack.iter().copied().collect();
        for frame in distinct {
            total_fuel[frame] += sample.weight;
        }
    }
    let mut rows: Vec<FunctionFuel> = samples
        .frames
        .iter()
        .enumerate()
        .map(|(index, frame)| FunctionFuel {
            name: frame.name.clone(),
            self_fuel: self_fuel[index],
            total_fuel: total_fuel[index],
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.self_fuel, b.total_fuel).cmp(&(a.self_fuel, a.total_fuel)).then_with(|| a.name.cmp(&b.name))
    });
    rows
}

/// The terminal table `arena profile --summary` prints: the `top` functions by self fuel, with
/// their total fuel, and what the samples cover.
pub fn summary(samples: &Samples, every: u64, subject: &Subject, top: usize) -> String {
    let sampled: u64 = samples.samples.iter().map(|sample| sample.weight).sum();
    let percent = |fuel: u64| 100.0 * fuel as f64 / sampled.max(1) as f64;
    let mut out = format!(
        "{} (seat {}), {} seed {}: {} samples, one per {} fuel; {} of the {} fuel the bot spent\n",
        subject.bot,
        subject.seat,
        subject.game,
        subject.seed,
        thousands(samples.samples.len() as u64),
        thousands(every),
        thousands(sampled),
        thousands(samples.consumed),
    );
    out.push_str(&format!("{:>14} {:>6} {:>14} {:>6}  function\n", "self fuel", "self", "total fuel", "total"));
    for row in functions(samples).into_iter().take(top) {
        out.push_str(&format!(
            "{:>14} {:>5.1}% {:>14} {:>5.1}%  {}\n",
            thousands(row.self_fuel),
            percent(row.self_fuel),
            thousands(row.total_fuel),
            percent(row.total_fuel),
            row.name
        ));
    }
    let unnamed = samples.frames.iter().filter(|frame| !frame.named).count();
    if unnamed > 0 {
        out.push_str(&format!(
            "{unnamed} of {} functions have no name: their module has no name section (a stripped build), so they are \
             shown by index\n",
            samples.frames.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::sampler::{Frame, Sample};
    use super::*;

    fn samples() -> Samples {
        let frame = |name: &str| Frame { name: name.into(), named: true };
        Samples {
            frames: vec![frame("main"), frame("hot"), frame("cold")],
            samples: vec![
                Sample { at: 10, weight: 10, stack: vec![0, 1] },
                Sample { at: 20, weight: 10, stack: vec![0, 1, 1] },
                Sample { at: 30, weight: 10, stack: vec![0, 2] },
                Sample { at: 45, weight: 15, stack: vec![0] },
            ],
            consumed: 50,
            unsampled: 5,
            ..Samples::default()
        }
    }

    fn subject() -> Subject {
        Subject { bot: "b".into(), seat: 0, game: "azul".into(), seed: 1 }
    }

    #[test]
    fn self_and_total_fuel_count_each_sample_once() {
        let rows = functions(&samples());
        let row = |name: &str| rows.iter().find(|row| row.name == name).unwrap().clone();
        assert_eq!((row("hot").self_fuel, row("hot").total_fuel), (20, 20), "recursion counts once");
        assert_eq!((row("main").self_fuel, row("main").total_fuel), (15, 45));
        assert_eq!((row("cold").self_fuel, row("cold").total_fuel), (10, 10));
        assert_eq!(rows[0].name, "hot", "most self fuel first");
    }

    #[test]
    fn the_speedscope_file_has_both_profiles_and_phase_frames() {
        let phases =
            vec![Phase { label: "start-up and init".into(), end: 15 }, Phase { label: "turn 1".into(), end: 40 }];
        let file: serde_json::Value = serde_json::from_str(&speedscope(&samples(), &phases, &subject())).unwrap();
        let frames: Vec<&str> =
            file["shared"]["frames"].as_array().unwrap().iter().map(|frame| frame["name"].as_str().unwrap()).collect();
        assert_eq!(frames, ["main", "hot", "cold", "start-up and init", "turn 1", "after the last turn"]);
        assert_eq!(file["profiles"][0]["samples"][1], serde_json::json!([0, 1, 1]));
        assert_eq!(file["profiles"][1]["samples"][1], serde_json::json!([4, 0, 1, 1]));
        assert_eq!(file["profiles"][1]["samples"][3], serde_json::json!([5, 0]));
        assert_eq!(file["profiles"][0]["endValue"], 45);
    }

    #[test]
    fn the_summary_says_when_names_are_missing() {
        let mut stripped = samples();
        assert!(!summary(&stripped, 10, &subject(), 10).contains("no name"));
        stripped.frames[2].named = false;
        let text = summary(&stripped, 10, &subject(), 10);
        assert!(text.contains("1 of 3 functions have no name"), "{text}");
        assert!(text.contains("45 of the 50 fuel"), "{text}");
    }
}
