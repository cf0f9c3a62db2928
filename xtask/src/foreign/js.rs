//! Building js bots (placeholder until the toolchain lands).

use super::ForeignBot;
use anyhow::{Result, bail};
use std::path::Path;

/// Builds `bot` into `out`.
pub fn build(_root: &Path, bot: &ForeignBot, _out: &Path) -> Result<()> {
    bail!("{} bots cannot be built yet", bot.language)
}
