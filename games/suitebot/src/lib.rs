//! suitebot: engine under construction (see the issue notes).
