//! `arena compile-worker` (hidden): the bounded compile worker the other commands start for
//! each bot they compile (arena_host::compile). Not for people.

use arena_host::compile::worker_main;
use clap::Args;
use std::process::ExitCode;

/// Arguments of `arena compile-worker`, set by `arena_host::compile`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// Compile a core module (a WASI preview1 program run as one), not a component.
    #[arg(long)]
    core_module: bool,
    /// The parent arena's `max_memory_mib` (its engine settings).
    #[arg(long)]
    max_memory_mib: u32,
    /// Address space the compilation may add, in MiB.
    #[arg(long)]
    address_space_mib: u64,
    /// CPU time the compilation may use, in seconds.
    #[arg(long)]
    cpu_seconds: u64,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let status = worker_main(
        args.core_module,
        args.max_memory_mib,
        args.address_space_mib,
        args.cpu_seconds,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    );
    Ok(ExitCode::from(status))
}
