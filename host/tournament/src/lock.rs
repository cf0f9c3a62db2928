//! One run at a time per results database: an exclusive lock on `<database>.lock`, taken before a
//! run reads which matches are finished and held until it has recorded its last one.
//!
//! Why: the database records each match id once because the one run writing it plays only the ids
//! it lacks (layout 3 keeps no unique index of ids: that index cost a page write per match). Two
//! runs of one database at once would both play the same matches; the second is refused instead.
//! The lock is the kernel's (`flock`), so a run killed by SIGKILL releases it with its process; the
//! file stays (removing it could race with a run that just opened it), empty and harmless.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Why a run could not take the database.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another run holds it.
    #[error(
        "another `arena tournament` run is writing {database} (it holds {lock}): wait for it to finish, or give this \
         run another database"
    )]
    Busy {
        /// The database.
        database: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock {lock}: {source}")]
    Io {
        /// The lock file.
        lock: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Held while a run writes a database; dropping it releases the database.
#[derive(Debug)]
pub struct WriterLock {
    _file: File,
}

impl WriterLock {
    /// Takes the database at `database` for this run, or says who has it.
    pub fn acquire(database: &Path) -> Result<WriterLock, LockError> {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        let lock = PathBuf::from(name);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)
            .map_err(|source| LockError::Io { lock: lock.clone(), source })?;
        match file.try_lock() {
            Ok(()) => Ok(WriterLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LockError::Busy { database: database.to_path_buf(), lock }),
            Err(TryLockError::Error(source)) => Err(LockError::Io { lock, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_lets_go() {
        let database = std::env::temp_dir().join(format!("arena-lock-test-{}.sqlite", std::process::id()));
        let first = WriterLock::acquire(&database).unwrap();
        match WriterLock::acquire(&database) {
            Err(LockError::Busy { database: named, .. }) => assert_eq!(named, database),
            other => panic!("expected Busy, got {other:?}"),
        }
        drop(first);
        drop(WriterLock::acquire(&database).unwrap());
        std::fs::remove_file(database.with_extension("sqlite.lock")).unwrap();
    }
}
