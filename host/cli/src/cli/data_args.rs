//! The data-folder options `arena match` and `arena replay verify` share: a seat's folder given
//! (`--data SEAT=DIR`), the convention (`NAME.data/` beside `NAME.wasm`) or none (`--no-data`),
//! and the limits a folder is read within.

use arena_host::bot_data::BotFiles;
use arena_host::data::DataLimits;
use clap::Args;
use std::path::PathBuf;

/// Where each seat's data folder comes from.
#[derive(Debug, Args)]
pub struct DataArgs {
    /// A seat's data folder, SEAT=DIR (repeatable): its bot reads it at /data, read-only.
    #[arg(long = "data", value_name = "SEAT=DIR", value_parser = super::parse_seat_path)]
    pub data: Vec<(usize, PathBuf)>,
    #[command(flatten)]
    pub limits: DataLimitArgs,
}

/// How big a data folder may be: one over either limit is refused when the bot loads.
#[derive(Debug, Args)]
pub struct DataLimitArgs {
    /// Most bytes of a data folder's files, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DataLimits::DEFAULT.max_bytes >> 20)]
    pub data_max_mib: u64,
    /// Most entries (files and folders) in a data folder.
    #[arg(long, value_name = "N", default_value_t = DataLimits::DEFAULT.max_entries)]
    pub data_max_entries: usize,
}

impl DataLimitArgs {
    /// The limits.
    pub fn limits(&self) -> DataLimits {
        DataLimits { max_bytes: self.data_max_mib.saturating_mul(1 << 20), max_entries: self.data_max_entries }
    }
}

impl DataArgs {
    /// Each seat's files: its bot file and the `--data` folder given for the seat, else (unless
    /// `convention` is off) the folder `NAME.data` beside `NAME.wasm` if there is one. A `--data`
    /// for a seat that has no bot is refused.
    pub fn bot_files(&self, bots: &[PathBuf], convention: bool) -> anyhow::Result<Vec<BotFiles>> {
        let mut files: Vec<BotFiles> = bots
            .iter()
            .map(|bot| if convention { BotFiles::by_convention(bot) } else { BotFiles::code_only(bot) })
            .collect();
        for (seat, folder) in &self.data {
            let Some(seat_files) = files.get_mut(*seat) else {
                anyhow::bail!("--data {seat}={}: there is no seat {seat} ({} bots)", folder.display(), bots.len());
            };
            seat_files.data = Some(folder.clone());
        }
        Ok(files)
    }
}
