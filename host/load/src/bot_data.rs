//! A bot's data folder as a load sees it: which folder goes with a bot file ([`BotFiles`]: one
//! given, or by convention the `NAME.data/` folder beside `NAME.wasm`), the folder read once into
//! a [`DataTree`] within the arena's [`DataLimits`] ([`BotData::read`]; every instance of the bot
//! shares it), and how replays and results name it ([`DataRef`]: the tree's `data-tree/v1`
//! digest, `arena_sandbox::data`).
//!
//! A bot's identity is its file's sha256 plus, when it has data, that digest: two folders with
//! the same digest are the same data to every bot on every machine, and any change to a name or a
//! byte changes it.

use arena_sandbox::data::{DataError, DataLimits, DataTree};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A bot's identity as one string, where plans, match ids and databases key bots: its file's
/// sha256 (hex) alone for a bot without data, so every id from before data folders stays valid,
/// else `SHA256+DIGEST` with its data's `data-tree/v1` digest (hex).
pub fn bot_identity(sha256: &str, data_digest: Option<&str>) -> String {
    match data_digest {
        None => sha256.to_owned(),
        Some(digest) => format!("{sha256}+{digest}"),
    }
}

/// The extension of a data folder found by convention: `NAME.data/` beside `NAME.wasm`.
pub const DATA_EXTENSION: &str = "data";

/// A bot as files: its `.wasm` and the data folder it brings, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotFiles {
    /// The bot file.
    pub wasm: PathBuf,
    /// Its data folder, if it has one.
    pub data: Option<PathBuf>,
}

impl BotFiles {
    /// A bot without data, whatever lies beside its file.
    pub fn code_only(wasm: impl Into<PathBuf>) -> BotFiles {
        BotFiles { wasm: wasm.into(), data: None }
    }

    /// Bots without data, one per file.
    pub fn all_code_only(wasms: &[PathBuf]) -> Vec<BotFiles> {
        wasms.iter().cloned().map(BotFiles::code_only).collect()
    }

    /// A bot with its data by convention: the folder [`data_folder_beside`] its file, when there
    /// is one.
    pub fn by_convention(wasm: impl Into<PathBuf>) -> BotFiles {
        let wasm = wasm.into();
        let beside = data_folder_beside(&wasm);
        let data = beside.is_dir().then_some(beside);
        BotFiles { wasm, data }
    }

    /// A bot with the data folder `data`.
    pub fn with_data(wasm: impl Into<PathBuf>, data: impl Into<PathBuf>) -> BotFiles {
        BotFiles { wasm: wasm.into(), data: Some(data.into()) }
    }
}

/// Where the convention looks for a bot file's data: `NAME.data` beside `NAME.wasm` (its
/// extension replaced, or added to a file without one).
pub fn data_folder_beside(wasm: &Path) -> PathBuf {
    wasm.with_extension(DATA_EXTENSION)
}

/// A bot's data folder, read: where from, and the tree every instance of the bot sees at `/data`.
#[derive(Debug, Clone)]
pub struct BotData {
    /// The folder it was read from.
    pub path: PathBuf,
    /// What was read.
    pub tree: Arc<DataTree>,
}

impl BotData {
    /// Reads the folder `path` within `limits`: refused whole when it holds a link, a special
    /// file or a name that is not UTF-8, or is over a limit (a load says so as
    /// `LoadError::Data`).
    pub fn read(path: &Path, limits: DataLimits) -> Result<BotData, DataError> {
        let tree = DataTree::read_dir(path, limits)?;
        Ok(BotData { path: path.to_owned(), tree: Arc::new(tree) })
    }

    /// How replays and results name it.
    pub fn identity(&self) -> DataRef {
        DataRef { digest: self.tree.digest_hex(), path: self.path.clone() }
    }
}

/// A bot's data as a replay names it: its digest, which is its identity, and where it was read
/// from (a hint for `replay verify`, like the bot file's path).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DataRef {
    /// The tree's `data-tree/v1` digest, hex (`arena_sandbox::data`).
    pub digest: String,
    /// The folder it was read from.
    pub path: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_convention_is_the_data_folder_beside_the_file() {
        assert_eq!(data_folder_beside(Path::new("bots/greedy.wasm")), Path::new("bots/greedy.data"));
        assert_eq!(data_folder_beside(Path::new("greedy")), Path::new("greedy.data"));
        let dir = std::env::temp_dir().join(format!("arena-bot-data-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("with.data")).unwrap();
        std::fs::write(dir.join("without.data"), b"a file, not a folder").unwrap();
        assert_eq!(BotFiles::by_convention(dir.join("with.wasm")).data, Some(dir.join("with.data")));
        assert_eq!(BotFiles::by_convention(dir.join("without.wasm")).data, None, "a file is not a data folder");
        assert_eq!(BotFiles::by_convention(dir.join("none.wasm")).data, None);
        assert_eq!(BotFiles::code_only(dir.join("with.wasm")).data, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
