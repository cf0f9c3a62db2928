//! code-character: engine under construction (see the issue notes).
