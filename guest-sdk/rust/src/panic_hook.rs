//! Reports a bot's panic to its log before the instance traps, so the replay says why.

use std::sync::Once;

static INSTALL: Once = Once::new();

/// Installs the hook once per instance (the export glue calls it on every entry).
pub fn install() {
    INSTALL.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            crate::log::error(&format!("bot panicked: {info}"));
        }));
    });
}
