//! The transposition table: one entry per bucket, replaced when the new search is deeper or
//! the old entry belongs to another position.

use xiangqi::Move;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub(crate) struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MiB (a power of two number of entries).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / core::mem::size_of::<Option<Entry>>();
        let len = wanted.next_power_of_two() / 2;
        Table { entries: vec![None; len.max(1024)], mask: len.max(1024) - 1 }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn put(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if slot.is_none_or(|old| old.key != entry.key || entry.depth >= old.depth) {
            *slot = Some(entry);
        }
    }
}
