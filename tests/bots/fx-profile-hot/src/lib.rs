//! `fx-profile-hot`: every turn it runs `hot_three_quarters` (3 x 5,000 rounds of a hash
//! chain) and `hot_one_quarter` (5,000 rounds of the same), then plays the first legal move.
//! The fuel profiler's test (`arena profile`) checks that the
//! first gets three times the fuel of the second, and that both are named from the name
//! section; `fx-profile-stripped` is the same code linked without one.

include!("bot.rs");
