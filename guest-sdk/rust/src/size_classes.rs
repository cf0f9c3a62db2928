//! The bot's memory allocator (feature `fast-alloc`, on by default; wasm32 builds only): blocks of
//! up to 4 KiB come from free lists, one per size class, and larger ones from the system
//! allocator (wasi-libc's dlmalloc).
//!
//! Why: a bot pays fuel for every instruction of its allocator, and dlmalloc costs about 140
//! fuel per allocation and as much per free. Every turn the canonical ABI allocates the view's
//! lists in the bot's memory, the SDK converts them and frees them: in Paint that was a third of
//! a trivial turn (`arena profile` on `fx-glue-paint`). Here a small allocation that a free
//! refilled is a pop from its class's list, and a free a push.
//!
//! The price: a freed small block stays in its class (it is not merged with its neighbours nor
//! given back), so a bot's memory is the peak of each class, not of the total. Allocation order
//! and addresses are a pure function of the bot's own calls, as before: no new nondeterminism.
//! A bot that wants its own allocator turns the feature off
//! (`arena-sdk = { default-features = false, features = [...] }`).
//!
//! An allocator is unsafe code by nature (raw blocks, intrusive lists): this module is the SDK's
//! only hand-written unsafe code, each block with the reason it holds.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

/// Block sizes, in bytes: a request takes the smallest that holds it.
const CLASSES: [usize; 16] = [16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096];
/// The largest size class: larger requests go to the system allocator.
const LARGEST: usize = 4096;
/// Every block's alignment (requests aligned more strictly go to the system allocator).
const ALIGN: usize = 16;

/// The class of each size, by `size.div_ceil(16)` (0 to 256): a table, so finding it costs a
/// load instead of a search.
const CLASS_OF: [u8; LARGEST / 16 + 1] = {
    let mut table = [0u8; LARGEST / 16 + 1];
    let mut sixteenths = 0;
    while sixteenths <= LARGEST / 16 {
        let mut class = 0;
        while CLASSES[class] < sixteenths * 16 {
            class += 1;
        }
        table[sixteenths] = class as u8;
        sixteenths += 1;
    }
    table
};

/// The free lists: each head points at a free block whose first word points at the next.
pub struct SizeClasses {
    heads: UnsafeCell<[*mut u8; CLASSES.len()]>,
}

// SAFETY: this allocator is only installed on wasm32 without the `atomics` target feature, where
// a program has exactly one thread.
unsafe impl Sync for SizeClasses {}

impl SizeClasses {
    /// No free blocks yet.
    pub const fn new() -> SizeClasses {
        SizeClasses { heads: UnsafeCell::new([std::ptr::null_mut(); CLASSES.len()]) }
    }
}

impl Default for SizeClasses {
    fn default() -> Self {
        SizeClasses::new()
    }
}

/// The class of `layout`, or `None` for the system allocator.
fn class_of(layout: Layout) -> Option<usize> {
    (layout.size() <= LARGEST && layout.align() <= ALIGN).then(|| usize::from(CLASS_OF[layout.size().div_ceil(16)]))
}

unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            // SAFETY: the caller's contract, passed on.
            return unsafe { System.alloc(layout) };
        };
        // SAFETY: one thread (see `Sync`); no reference to the heads outlives this call.
        let heads = unsafe { &mut *self.heads.get() };
        let head = heads[class];
        if head.is_null() {
            // SAFETY: a class size is non-zero and a multiple of ALIGN, a power of two.
            return unsafe { System.alloc(Layout::from_size_align_unchecked(CLASSES[class], ALIGN)) };
        }
        // SAFETY: a free block of this class starts with the pointer to the next one.
        heads[class] = unsafe { head.cast::<*mut u8>().read() };
        head
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            // SAFETY: the caller's contract, passed on (the block came from `System.alloc`).
            return unsafe { System.dealloc(block, layout) };
        };
        // SAFETY: one thread; the block is at least 16 bytes, 16-aligned, and ours again.
        unsafe {
            let heads = &mut *self.heads.get();
            block.cast::<*mut u8>().write(heads[class]);
            heads[class] = block;
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: `new_size` is non-zero and, rounded up to the
        // alignment, does not overflow.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class_of(layout), class_of(new_layout)) {
            // Still fits its block: nothing moves.
            (Some(old), Some(new)) if old == new => block,
            // SAFETY: both blocks are the system allocator's.
            (None, None) => unsafe { System.realloc(block, layout, new_size) },
            _ => {
                // SAFETY: a fresh block of the new size, the old contents copied, the old freed.
                unsafe {
                    let moved = self.alloc(new_layout);
                    if !moved.is_null() {
                        std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                        self.dealloc(block, layout);
                    }
                    moved
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_takes_the_smallest_class_that_holds_it() {
        for size in 1..=LARGEST {
            let class = class_of(Layout::from_size_align(size, 1).unwrap()).unwrap();
            assert!(CLASSES[class] >= size, "{size} in {}", CLASSES[class]);
            assert!(class == 0 || CLASSES[class - 1] < size, "{size} could take {}", CLASSES[class - 1]);
        }
        assert_eq!(class_of(Layout::from_size_align(LARGEST + 1, 1).unwrap()), None);
        assert_eq!(class_of(Layout::from_size_align(8, 32).unwrap()), None);
    }

    /// Exercised natively on one thread (the tests' own allocator is the system's): a freed
    /// block is handed out again for its class, realloc within a class keeps the block, and
    /// contents survive a move between classes and to the system allocator.
    #[test]
    fn freed_blocks_are_reused_and_contents_survive_reallocation() {
        let classes = SizeClasses::new();
        let small = Layout::from_size_align(24, 8).unwrap();
        unsafe {
            let first = classes.alloc(small);
            classes.dealloc(first, small);
            let again = classes.alloc(Layout::from_size_align(30, 4).unwrap());
            assert_eq!(first, again, "the 32-byte class's free block is reused");
            again.write_bytes(7, 30);
            let same = classes.realloc(again, Layout::from_size_align(30, 4).unwrap(), 32);
            assert_eq!(same, again, "30 -> 32 stays in its block");
            let grown = classes.realloc(same, Layout::from_size_align(32, 4).unwrap(), 5000);
            assert_eq!(std::slice::from_raw_parts(grown, 30), &[7u8; 30][..]);
            let shrunk = classes.realloc(grown, Layout::from_size_align(5000, 4).unwrap(), 20);
            assert_eq!(std::slice::from_raw_parts(shrunk, 20), &[7u8; 20][..]);
            classes.dealloc(shrunk, Layout::from_size_align(20, 4).unwrap());
        }
    }
}
