//! A set of layout codes: open addressing with linear probing on a power-of-two table.
//!
//! Codes of legal layouts are never 0 (Cao Cao is always on the board), so 0 marks an empty
//! slot and a slot is just the u64. Codes use 60 bits; bit 63 carries a one-bit tag stored
//! with the code (the solver's mirror orientation). One multiply spreads the code; the table
//! stays at most half full so probes are short.

pub(crate) struct CodeSet {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
    /// Grow when `len` exceeds this (half the slots).
    limit: usize,
}

/// The tag bit kept beside a code.
pub(crate) const TAG: u64 = 1 << 63;

impl CodeSet {
    /// A set that holds `expected` codes before growing.
    pub(crate) fn with_capacity(expected: usize) -> Self {
        let bits = (expected.max(8) * 2).next_power_of_two().trailing_zeros();
        CodeSet { slots: vec![0; 1 << bits], shift: 64 - bits, len: 0, limit: 1 << (bits - 1) }
    }

    /// Empties the set for reuse. A recycled table avoids page faults on every solve; a table
    /// above `keep` slots is kept only while it is well used (at least 1/8 full), so a run of
    /// big solves keeps its table and small solves after a big one get a table for `fresh`
    /// codes back.
    pub(crate) fn clear(&mut self, keep: usize, fresh: usize) {
        if self.slots.len() > keep && self.len * 8 < self.slots.len() {
            *self = CodeSet::with_capacity(fresh);
        } else {
            // Also on a new table: its pages are probed at random, and a page read before it
            // is written faults twice (the shared zero page, then a copy); written first, once.
            self.slots.fill(0);
            self.len = 0;
        }
    }

    #[inline(always)]
    fn slot(&self, code: u64) -> usize {
        ((code & !TAG).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Adds a nonzero code with its tag bit. Returns 0 if the code was new, else the entry
    /// already there (with its own tag). The store and the count do not branch on which, so
    /// a caller can also use the answer without a branch.
    #[inline(always)]
    pub(crate) fn insert(&mut self, tagged: u64) -> u64 {
        debug_assert_ne!(tagged & !TAG, 0);
        let mask = self.slots.len() - 1;
        let mut i = self.slot(tagged);
        let mut here = self.slots[i];
        // One test for "empty or the same code" (the smaller of the slot and its difference
        // from the code is 0): it fails only on a collision, so the loop exit is predictable
        // whether the code is new or not.
        while here.min((here ^ tagged) & !TAG) != 0 {
            i = (i + 1) & mask;
            here = self.slots[i];
        }
        self.slots[i] = if here == 0 { tagged } else { here };
        self.len += usize::from(here == 0);
        if self.len > self.limit {
            self.grow();
        }
        here
    }

    /// Codes in the set.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; old.len() * 2];
        self.shift -= 1;
        self.limit *= 2;
        let mask = self.slots.len() - 1;
        for code in old.into_iter().filter(|&c| c != 0) {
            let mut i = self.slot(code);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_once_keeps_tags_and_grows() {
        let mut set = CodeSet::with_capacity(4);
        for code in 1..10_000u64 {
            let tag = if code % 3 == 0 { TAG } else { 0 };
            assert_eq!(set.insert((code * 7) | tag), 0);
        }
        for code in 1..10_000u64 {
            let tag = if code % 3 == 0 { TAG } else { 0 };
            assert_eq!(set.insert(code * 7), (code * 7) | tag);
        }
        assert_eq!(set.len(), 9_999);
        set.clear(1 << 10, 8);
        assert_eq!(set.len(), 0);
        assert_eq!(set.insert(7), 0);
    }
}
