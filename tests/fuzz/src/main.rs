//! `arena-fuzz`: runs the fuzz targets of [`arena_fuzz`] on seeded random inputs.
//!
//! ```text
//! arena-fuzz [--seconds N] [--seed S] [TARGET...]    each target N seconds (default 10)
//! arena-fuzz --input FILE TARGET                     re-run one saved input
//! arena-fuzz --list                                  the targets' names
//! ```
//!
//! Inputs are byte buffers of random length from a ChaCha8 stream seeded with `S` (printed at
//! start; each target's stream is derived from it and the target's position, so a run is
//! reproducible target by target). A panic in a target is a finding: the input is written to
//! `target/fuzz-failures/<target>-<n>.bin`, printed, and the runner exits with status 1 once
//! every target has run. One line per target: name, inputs run, failures, seconds, inputs/s.

use arena_fuzz::{TARGETS, Target, find_target, scratch_dir, target_dir};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: arena-fuzz [--seconds N] [--seed S] [TARGET...]
       arena-fuzz --input FILE TARGET
       arena-fuzz --list";

thread_local! {
    /// The message of the last panic on this thread (the hook keeps it instead of printing it:
    /// a run prints one report per failing target, not a backtrace per input).
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

struct Options {
    seconds: f64,
    seed: u64,
    input: Option<PathBuf>,
    targets: Vec<&'static Target>,
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1).collect()) {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let message = match (info.payload().downcast_ref::<&str>(), info.payload().downcast_ref::<String>()) {
            (Some(text), _) => (*text).to_owned(),
            (_, Some(text)) => text.clone(),
            _ => "(no message)".to_owned(),
        };
        LAST_PANIC.with(|last| *last.borrow_mut() = format!("{message}{location}"));
    }));
    let status = match &options.input {
        Some(file) => rerun(file, options.targets[0]),
        None => fuzz(&options),
    };
    let _ = std::fs::remove_dir_all(scratch_dir());
    status
}

fn parse(args: Vec<String>) -> Result<Option<Options>, String> {
    let mut options = Options { seconds: 10.0, seed: 0, input: None, targets: Vec::new() };
    let mut seed = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--seconds" => {
                let text = value("--seconds")?;
                options.seconds = text.parse().map_err(|_| format!("--seconds {text:?} is not a number"))?;
                if !(options.seconds.is_finite() && options.seconds >= 0.0) {
                    return Err(format!("--seconds {text:?} is not a duration"));
                }
            }
            "--seed" => {
                let text = value("--seed")?;
                seed = Some(text.parse().map_err(|_| format!("--seed {text:?} is not a u64"))?);
            }
            "--input" => options.input = Some(PathBuf::from(value("--input")?)),
            "--list" => {
                for target in TARGETS {
                    println!("{}", target.name);
                }
                return Ok(None);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            name => match find_target(name) {
                Some(target) => options.targets.push(target),
                None => return Err(format!("unknown target {name:?} (--list shows them)")),
            },
        }
    }
    if options.input.is_some() && options.targets.len() != 1 {
        return Err("--input takes exactly one TARGET".into());
    }
    if options.targets.is_empty() {
        options.targets = TARGETS.iter().collect();
    }
    // A fresh seed unless one is given: the clock is only a source of variety here.
    options.seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    Ok(Some(options))
}

/// Runs every selected target for the time given; the report's status.
fn fuzz(options: &Options) -> ExitCode {
    println!("arena-fuzz: seed {}, {} s per target", options.seed, options.seconds);
    println!("{:<24} {:>12} {:>9} {:>9} {:>11}", "target", "inputs", "failures", "seconds", "inputs/s");
    let mut failed = false;
    for target in &options.targets {
        let index = TARGETS.iter().position(|t| t.name == target.name).unwrap_or(0);
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(index as u64);
        let report = run_target(target, &mut rng, Duration::from_secs_f64(options.seconds));
        println!(
            "{:<24} {:>12} {:>9} {:>9.1} {:>11.0}",
            target.name,
            report.inputs,
            u32::from(report.failure.is_some()),
            report.seconds,
            report.inputs as f64 / report.seconds.max(1e-9)
        );
        if let Some((n, input, message)) = report.failure {
            failed = true;
            report_failure(target, n, &input, &message);
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

struct Report {
    inputs: u64,
    seconds: f64,
    /// The first failing input: its number, bytes and panic message.
    failure: Option<(u64, Vec<u8>, String)>,
}

/// Feeds `target` random inputs until `time` is up or one fails (the first input always runs).
fn run_target(target: &Target, rng: &mut ChaCha8Rng, time: Duration) -> Report {
    let start = Instant::now();
    let mut inputs = 0;
    let mut data = Vec::with_capacity(target.max_len);
    loop {
        // Short inputs are most of them (fast, and enough for most paths); long ones reach
        // deep sequences.
        let len = match rng.next_u32() % 8 {
            0 => (rng.next_u32() as usize) % (target.max_len + 1),
            1..=3 => (rng.next_u32() as usize) % (target.max_len / 8 + 1),
            _ => (rng.next_u32() as usize) % 65,
        };
        data.resize(len, 0);
        rng.fill_bytes(&mut data);
        inputs += 1;
        if let Err(message) = run_one(target, &data) {
            return Report { inputs, seconds: start.elapsed().as_secs_f64(), failure: Some((inputs, data, message)) };
        }
        if start.elapsed() >= time {
            return Report { inputs, seconds: start.elapsed().as_secs_f64(), failure: None };
        }
    }
}

/// Runs one input; `Err` with the panic message if the target panicked.
fn run_one(target: &Target, data: &[u8]) -> Result<(), String> {
    std::panic::catch_unwind(|| (target.run)(data)).map_err(|_| LAST_PANIC.with(|last| last.borrow().clone()))
}

/// Saves and prints a failing input.
fn report_failure(target: &Target, n: u64, input: &[u8], message: &str) {
    let dir = target_dir().join("fuzz-failures");
    let file = dir.join(format!("{}-{n}.bin", target.name));
    let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, input));
    println!("FAILURE in {} (input {n}, {} bytes): {message}", target.name, input.len());
    match saved {
        Ok(()) => println!(
            "  saved to {}; re-run with: arena-fuzz --input {} {}",
            file.display(),
            file.display(),
            target.name
        ),
        Err(err) => println!("  could not save it to {}: {err}", file.display()),
    }
    let hex: String = input.iter().map(|byte| format!("{byte:02x}")).collect();
    println!("  input (hex): {hex}");
}

/// Re-runs one saved input.
fn rerun(file: &PathBuf, target: &Target) -> ExitCode {
    let data = match std::fs::read(file) {
        Ok(data) => data,
        Err(err) => {
            eprintln!("{}: cannot read: {err}", file.display());
            return ExitCode::from(2);
        }
    };
    match run_one(target, &data) {
        Ok(()) => {
            println!("{}: no failure on {}", target.name, file.display());
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("FAILURE in {}: {message}", target.name);
            ExitCode::FAILURE
        }
    }
}
