//! The memory a bot may hold, counted for the whole bot: every linear memory and table of every
//! core instance in its component, against one limit (`Budget::memory_mib`).
//!
//! wasmtime's `StoreLimits` bounds each memory separately, so a component with 16 memories of
//! 64 MiB each held 1 GiB under a "64 MiB" limit. This limiter keeps a running total instead:
//! every memory's creation and growth (and every table's, at [`TABLE_ELEMENT_BYTES`] per
//! element) adds to it, and a request that would take the total over the limit is refused (the
//! guest's `memory.grow` returns -1; instantiation fails for an initial size). The number of
//! instances, memories and tables is capped too, and each table at
//! [`MAX_TABLE_ELEMENTS`] elements.
//!
//! These are the per-bot limits of both instance allocators: the pooling allocator is
//! configured from the same constants (`engine::pool_config`), and a component over them is
//! refused at load whatever the allocator, so a bot plays, and its replay verifies, the same
//! in `arena match` as in a tournament.

use wasmtime::ResourceLimiter;

/// Most elements a bot's table may hold (a table declared larger is refused at load; `table.grow`
/// past it returns -1).
pub const MAX_TABLE_ELEMENTS: usize = 100_000;

/// Bytes one table element is counted as (a pointer-sized slot on the host).
pub const TABLE_ELEMENT_BYTES: usize = 8;
/// Core instances a bot's component may create (components are made of several; an
/// interpreter bot links a dozen). The host's fuel burner is one more in the bot's store.
pub const MAX_CORE_INSTANCES: usize = 32;
/// Linear memories a bot may create (across its core instances).
pub const MAX_MEMORIES: usize = 4;
/// Tables a bot may create (across its core instances).
pub const MAX_TABLES: usize = 8;

/// One store's running total against its limit.
#[derive(Debug)]
pub struct BotLimits {
    limit: usize,
    total: usize,
    /// The growth approved last, taken back if wasmtime then fails to grow.
    pending: usize,
}

impl BotLimits {
    /// A limiter allowing `limit` bytes in total.
    pub fn new(limit: usize) -> BotLimits {
        BotLimits { limit, total: 0, pending: 0 }
    }

    /// Bytes counted so far.
    #[cfg(test)]
    pub fn total(&self) -> usize {
        self.total
    }

    fn grow(&mut self, bytes: usize) -> bool {
        match self.total.checked_add(bytes) {
            Some(total) if total <= self.limit => {
                self.total = total;
                self.pending = bytes;
                true
            }
            _ => false,
        }
    }

    fn grow_failed(&mut self) {
        self.total = self.total.saturating_sub(std::mem::take(&mut self.pending));
    }
}

impl ResourceLimiter for BotLimits {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(self.grow(desired.saturating_sub(current)))
    }

    fn memory_grow_failed(&mut self, _error: wasmtime::Error) -> wasmtime::Result<()> {
        self.grow_failed();
        Ok(())
    }

    fn table_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > MAX_TABLE_ELEMENTS {
            return Ok(false);
        }
        Ok(self.grow(desired.saturating_sub(current).saturating_mul(TABLE_ELEMENT_BYTES)))
    }

    fn table_grow_failed(&mut self, _error: wasmtime::Error) -> wasmtime::Result<()> {
        self.grow_failed();
        Ok(())
    }

    fn instances(&self) -> usize {
        // The host's fuel burner is a core instance in the bot's store too (`host_fuel`).
        MAX_CORE_INSTANCES + 1
    }

    fn tables(&self) -> usize {
        MAX_TABLES
    }

    fn memories(&self) -> usize {
        MAX_MEMORIES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_and_tables_share_one_total() {
        let mut limits = BotLimits::new(100 << 20);
        assert!(limits.memory_growing(0, 64 << 20, None).unwrap_or(false));
        assert!(!limits.memory_growing(0, 64 << 20, None).unwrap_or(true), "a second 64 MiB memory is over");
        assert!(limits.memory_growing(0, 30 << 20, None).unwrap_or(false));
        assert!(limits.table_growing(0, 1000, None).unwrap_or(false));
        assert_eq!(limits.total(), (94 << 20) + 8000);
        assert!(!limits.table_growing(1000, 1 << 20, None).unwrap_or(true));
        let mut roomy = BotLimits::new(1 << 30);
        assert!(!roomy.table_growing(0, MAX_TABLE_ELEMENTS + 1, None).unwrap_or(true), "one table's cap");
    }

    #[test]
    fn a_failed_grow_is_taken_back() {
        let mut limits = BotLimits::new(10 << 20);
        assert!(limits.memory_growing(1 << 20, 5 << 20, None).unwrap_or(false));
        assert_eq!(limits.total(), 4 << 20);
        limits.memory_grow_failed(wasmtime::Error::msg("mmap failed")).unwrap_or(());
        assert_eq!(limits.total(), 0);
    }
}
