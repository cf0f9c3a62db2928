//! The bot's log, kept in the match replay (bounded by the host; excess is dropped).
//! `println!`/`eprintln!` land there too.

use crate::common::bindings::arena::common::log::{Level, log};

/// Logs a debug line.
pub fn debug(message: &str) {
    log(Level::Debug, message);
}

/// Logs an info line.
pub fn info(message: &str) {
    log(Level::Info, message);
}

/// Logs a warning.
pub fn warn(message: &str) {
    log(Level::Warn, message);
}

/// Logs an error.
pub fn error(message: &str) {
    log(Level::Error, message);
}
