//! Section 7 of the arena benchmarks: what `arena profile` costs. One whole Azul match of `azul-search` against `azul-greedy` (tens of millions of fuel),
//! played unprofiled and with `azul-search` profiled every 10,000 and every 1,000 units of fuel;
//! the same loaded bots, the same arena's engine.

use super::{load, measure, row};
use anyhow::{Result, ensure};
use arena_azul::AzulConfig;
use arena_host::budget::Budget;
use arena_host::play_match;
use arena_host::runtime::Arena;
use arena_profiler::{FuelSampler, Profiled};
use std::path::PathBuf;
use std::sync::Arc;

pub fn profiling(bot_path: &dyn Fn(&str) -> PathBuf) -> Result<()> {
    let (search_path, greedy_path) = (bot_path("azul-search"), bot_path("azul-greedy"));
    if !search_path.exists() {
        println!("7. profiler: {} missing (`cargo xtask bots`), skipped\n", search_path.display());
        return Ok(());
    }
    println!("7. profiler: one match, azul-search (seat 0, profiled) vs azul-greedy, seed 1");
    let arena = Arena::new()?;
    let bots = [load(&arena, &search_path)?, load(&arena, &greedy_path)?];
    let play = |arena: &Arena| play_match(arena, &bots, &AzulConfig::default(), 1, Budget::default());
    let plain = play(&arena)?;
    let unprofiled = measure(|| play(&arena).map(drop).map_err(Into::into))?;
    row("unprofiled", unprofiled, "match");
    for every in [10_000, 1_000] {
        let profiled_arena = |sampler: &Arc<FuelSampler>| {
            arena.clone().with_store_hook(Some(Arc::new(Profiled { seat: 0, sampler: sampler.clone() })))
        };
        let sampler = FuelSampler::new(every);
        ensure!(play(&profiled_arena(&sampler))?.result == plain.result, "profiling changed the match");
        let samples = sampler.samples().samples.len();
        let profiled = measure(|| play(&profiled_arena(&FuelSampler::new(every))).map(drop).map_err(Into::into))?;
        row(&format!("profiled every {every} fuel ({samples} samples)"), profiled, "match");
        println!("  {:<50} {:>9.2}x", "  overhead: profiled / unprofiled", profiled.median / unprofiled.median);
    }
    println!();
    Ok(())
}
