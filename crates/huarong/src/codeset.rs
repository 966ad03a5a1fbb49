//! A set of layout codes: open addressing with linear probing on a power-of-two table.
//!
//! Codes of legal layouts are never 0 (Cao Cao is always on the board), so 0 marks an empty
//! slot and a slot is just the u64. One multiply spreads the code; the table stays at most
//! half full so probes are short.

pub(crate) struct CodeSet {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

impl CodeSet {
    /// A set that holds `expected` codes before growing.
    pub(crate) fn with_capacity(expected: usize) -> Self {
        let bits = (expected.max(8) * 2).next_power_of_two().trailing_zeros();
        CodeSet { slots: vec![0; 1 << bits], shift: 64 - bits, len: 0 }
    }

    #[inline(always)]
    fn slot(&self, code: u64) -> usize {
        (code.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Adds a nonzero code; true if it was not there yet.
    #[inline]
    pub(crate) fn insert(&mut self, code: u64) -> bool {
        debug_assert_ne!(code, 0);
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        loop {
            let here = self.slots[i];
            if here == code {
                return false;
            }
            if here == 0 {
                self.slots[i] = code;
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; old.len() * 2];
        self.shift -= 1;
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
    fn inserts_once_and_grows() {
        let mut set = CodeSet::with_capacity(4);
        for code in 1..10_000u64 {
            assert!(set.insert(code * 7));
        }
        for code in 1..10_000u64 {
            assert!(!set.insert(code * 7));
        }
        assert_eq!(set.len, 9_999);
    }
}
