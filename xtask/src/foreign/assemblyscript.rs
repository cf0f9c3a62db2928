//! AssemblyScript bots: ordinary programs speaking their game's line protocol on stdin/stdout, built into
//! a `wasm32-wasip1` command. Not written yet.

use super::ForeignBot;
use anyhow::{Result, bail};
use std::path::Path;

/// Builds `bot` into `out`.
pub fn build(_root: &Path, bot: &ForeignBot, _out: &Path) -> Result<()> {
    bail!("{}: AssemblyScript bots are not built yet", bot.dir.display())
}
