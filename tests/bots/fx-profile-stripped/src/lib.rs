//! `fx-profile-stripped`: `fx-profile-hot`'s bot (the same source), linked with `--strip-all`
//! (see `build.rs`), so its module has no name section: `arena profile` names its functions by
//! index and says so.

include!("../../fx-profile-hot/src/bot.rs");
