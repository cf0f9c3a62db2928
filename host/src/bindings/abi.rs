//! Writing a value's canonical-ABI bytes in one pass, for the views the host lowers every turn.
//!
//! wasmtime's generated lowering stores a record field by field, and looks the instance's
//! memory up again for every primitive it stores: for Azul's view (about 80 primitives) that
//! was most of a bot call's host cost (`cargo xtask bench`, `Instance::options_memory_mut`).
//! A view with a hand-written [`Lower`](wasmtime::component::Lower) builds its bytes here, in a
//! buffer, and copies them into the guest's memory at once. The layout rules are the component
//! model's: every value at an offset aligned to its alignment, records and tuples aligned to
//! their largest field and padded to it, an option a `u8` discriminant then its payload at the
//! payload's alignment. Nested records take their size and alignment from wasmtime's own
//! [`ComponentType`] of the generated type, so a layout mistake here cannot go unnoticed: it
//! overruns a size wasmtime computed (an error, not a panic) or the guest reads other values
//! (the `lowered_views_reach_the_guest_exactly` test compares what a bot saw with what was sent).

use wasmtime::component::ComponentType;

/// A cursor over the bytes of one value being lowered.
pub(crate) struct AbiWriter<'a> {
    out: &'a mut [u8],
    at: usize,
    overrun: bool,
}

impl<'a> AbiWriter<'a> {
    /// Writes from the start of `out` (whose start is aligned as the value requires).
    pub(crate) fn new(out: &'a mut [u8]) -> AbiWriter<'a> {
        AbiWriter { out, at: 0, overrun: false }
    }

    /// Whether every write fit in the buffer.
    pub(crate) fn fits(&self) -> bool {
        !self.overrun
    }

    fn align(&mut self, align: usize) {
        self.at = self.at.next_multiple_of(align.max(1));
    }

    fn bytes(&mut self, bytes: &[u8]) {
        match self.out.get_mut(self.at..self.at + bytes.len()) {
            Some(slot) => slot.copy_from_slice(bytes),
            None => self.overrun = true,
        }
        self.at += bytes.len();
    }

    /// A `u8` (or an enum's discriminant).
    pub(crate) fn u8(&mut self, value: u8) {
        self.bytes(&[value]);
    }

    /// A `bool`: one byte, 0 or 1.
    pub(crate) fn bool(&mut self, value: bool) {
        self.u8(u8::from(value));
    }

    /// A `u32`, little-endian at a 4-byte boundary.
    pub(crate) fn u32(&mut self, value: u32) {
        self.align(4);
        self.bytes(&value.to_le_bytes());
    }

    /// A `u64`, little-endian at an 8-byte boundary.
    pub(crate) fn u64(&mut self, value: u64) {
        self.align(8);
        self.bytes(&value.to_le_bytes());
    }

    /// A list whose elements are already in the guest's memory: its pointer and length, two
    /// `u32`s.
    pub(crate) fn list(&mut self, (pointer, length): (u32, u32)) {
        self.u32(pointer);
        self.u32(length);
    }

    /// A record or tuple laid out as wasmtime lays out `T`: aligned to `T`'s alignment, its
    /// fields written by `fields`, then padded to `T`'s size.
    pub(crate) fn record<T: ComponentType>(&mut self, fields: impl FnOnce(&mut Self)) {
        self.align(T::ALIGN32 as usize);
        let start = self.at;
        fields(self);
        if self.at > start + T::SIZE32 {
            self.overrun = true;
        }
        self.at = start + T::SIZE32;
    }

    /// `option<T>` of a payload laid out as `T`: the discriminant, then (if `Some`) the payload
    /// at `T`'s alignment, the whole padded to the option's size.
    pub(crate) fn option<T: ComponentType, V>(&mut self, value: Option<V>, payload: impl FnOnce(&mut Self, V)) {
        let align = T::ALIGN32 as usize;
        self.align(align);
        let start = self.at;
        self.u8(u8::from(value.is_some()));
        self.align(align);
        let payload_at = self.at;
        if let Some(value) = value {
            payload(self, value);
            if self.at > payload_at + T::SIZE32 {
                self.overrun = true;
            }
        }
        self.at = (payload_at + T::SIZE32).next_multiple_of(align.max(1));
        debug_assert!(self.at > start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `option<u8>` is a discriminant byte then the payload; `None` leaves the payload zero.
    /// A `u32` after it starts at the next 4-byte boundary.
    #[test]
    fn options_and_alignment_follow_the_canonical_abi() {
        let mut out = [0xAA_u8; 8];
        let mut w = AbiWriter::new(&mut out);
        w.option::<u8, _>(Some(7), |w, v| w.u8(v));
        w.u32(0x0102_0304);
        assert!(w.fits());
        assert_eq!(out, [1, 7, 0xAA, 0xAA, 4, 3, 2, 1]);
        let mut out = [0_u8; 2];
        let mut w = AbiWriter::new(&mut out);
        w.option::<u8, _>(None::<u8>, |w, v| w.u8(v));
        assert!(w.fits());
        assert_eq!(out, [0, 0]);
    }

    /// Writing past the buffer is reported, never a panic.
    #[test]
    fn an_overrun_is_reported() {
        let mut out = [0_u8; 6];
        let mut w = AbiWriter::new(&mut out);
        w.u8(1);
        w.u64(2);
        assert!(!w.fits());
    }
}
