//! [`Lazy`]: a game's observation converted from what the host sent the first time a bot reads
//! it.
//!
//! Why: a bot pays fuel for every instruction of the SDK's glue, and converting a view with
//! hundreds of units into the engine's types costs tens of thousands of fuel a turn, which a bot
//! that answers without looking (or looks every few turns) should not pay. The games whose WIT
//! sends unit lists as records of plain numbers (Eubots, Code Character) hand the bot a `Lazy`
//! view: the lists arrive as one block, and the conversion runs on first `Deref`, once.

use std::cell::{Cell, OnceCell};

/// A value made on first read: `Deref` converts (once) and returns it, so `view.units`,
/// `view.own_units()` and a `&view.state` argument where the engine's type is expected work as
/// on the value itself. Natively (tests, simulations), make one with `Lazy::from(value)`.
pub struct Lazy<S> {
    state: OnceCell<S>,
    /// The conversion, until it runs.
    convert: Cell<Option<Box<dyn FnOnce() -> S>>>,
}

impl<S> Lazy<S> {
    /// A value `convert` makes when it is first read.
    pub(crate) fn new(convert: impl FnOnce() -> S + 'static) -> Lazy<S> {
        Lazy { state: OnceCell::new(), convert: Cell::new(Some(Box::new(convert))) }
    }

    /// The value if it was read (or made `from` one), `None` if it was never converted.
    // Eubots' grid carry-over is its one user: a bot built with another game's feature only
    // would warn.
    #[cfg_attr(not(any(test, feature = "eubots")), allow(dead_code))]
    pub(crate) fn into_read(self) -> Option<S> {
        self.state.into_inner()
    }

    /// Whether the value was converted (read) yet.
    pub fn is_converted(&self) -> bool {
        self.state.get().is_some()
    }
}

impl<S> From<S> for Lazy<S> {
    fn from(state: S) -> Lazy<S> {
        Lazy { state: OnceCell::from(state), convert: Cell::new(None) }
    }
}

impl<S: Default> std::ops::Deref for Lazy<S> {
    type Target = S;

    fn deref(&self) -> &S {
        // Only a `Lazy` made `from` a value has no conversion, and its state is set.
        self.state.get_or_init(|| self.convert.take().map(|convert| convert()).unwrap_or_default())
    }
}

impl<S: Default + Clone> Clone for Lazy<S> {
    fn clone(&self) -> Lazy<S> {
        Lazy::from(S::clone(self))
    }
}

impl<S: Default + PartialEq> PartialEq for Lazy<S> {
    fn eq(&self, other: &Lazy<S>) -> bool {
        **self == **other
    }
}

impl<S: Default + std::fmt::Debug> std::fmt::Debug for Lazy<S> {
    /// As the value's own `Debug` (converting it if needed).
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, formatter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// The conversion runs on the first read only, and never if nothing reads.
    #[test]
    fn converts_once_on_first_read() {
        let runs = Rc::new(Cell::new(0));
        let counted = runs.clone();
        let lazy = Lazy::new(move || {
            counted.set(counted.get() + 1);
            vec![1, 2, 3]
        });
        assert!(!lazy.is_converted());
        assert_eq!(runs.get(), 0);
        assert_eq!(lazy.len(), 3);
        assert_eq!(lazy[1], 2);
        assert_eq!(runs.get(), 1);
        assert_eq!(lazy.clone(), Lazy::from(vec![1, 2, 3]));
        assert_eq!(format!("{lazy:?}"), "[1, 2, 3]");
        assert_eq!(lazy.into_read(), Some(vec![1, 2, 3]));

        let unread = Lazy::new(|| -> Vec<u8> { panic!("never converted") });
        assert_eq!(unread.into_read(), None);
    }
}
