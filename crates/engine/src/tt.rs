//! The transposition table: buckets of two 16-byte entries, shared without locks by the threads
//! of a search. A store goes to the entry that
//! already holds the position, else to the one least worth keeping (shallower, or left over
//! from an earlier search). Mate scores are stored relative to the node (see
//! [`crate::Score::to_tt`]).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use xiangqi::Move;

/// The kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One entry: the position's key XORed with its data, and the data. Threads read and write
/// entries without locks (lazy SMP); an entry torn by two writers at once, or read half
/// written, no longer checks against its key and is not found (Hyatt and Mann's lockless
/// hashing). Both words are atomics, so this is never a data race.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The data word of a slot, unpacked.
#[derive(Clone, Copy, Default)]
struct Data {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bits 0-1: bound (0 empty, 1 exact, 2 lower, 3 upper); bits 2-7: search generation.
    flags: u8,
}

impl Data {
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }

    fn unpack(w: u64) -> Data {
        Data {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            flags: (w >> 56) as u8,
        }
    }
}

impl Slot {
    /// The slot's key and data as one consistent read (a torn one gives a key no probe asks for).
    #[inline]
    fn read(&self) -> (u64, Data) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, Data::unpack(data))
    }

    #[inline]
    fn write(&self, key: u64, d: Data) {
        let data = d.pack();
        self.data.store(data, Relaxed);
        self.check.store(key ^ data, Relaxed);
    }
}

const BUCKET: usize = 2;

/// The largest table [`Table::new`] builds, in MiB (what `Hash` may be set to).
pub(crate) const MAX_MB: usize = 1 << 12;

/// The table, shared by the threads of a search (every method takes `&self`).
pub(crate) struct Table {
    slots: Vec<Slot>,
    /// Number of buckets minus one (a power of two).
    mask: usize,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two), or `None` when
    /// `megabytes` is above [`MAX_MB`] or the memory cannot be had.
    pub fn new(megabytes: usize) -> Option<Table> {
        if megabytes > MAX_MB {
            return None;
        }
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / (BUCKET * core::mem::size_of::<Slot>())).next_power_of_two() / 2;
        let buckets = buckets.max(1024);
        let mut slots = Vec::new();
        slots.try_reserve_exact(buckets * BUCKET).ok()?;
        slots.resize_with(buckets * BUCKET, Slot::default);
        Some(Table { slots, mask: buckets - 1, generation: AtomicU8::new(0) })
    }

    /// Empties the table (no search may be running).
    pub fn clear(&self) {
        for s in &self.slots {
            s.data.store(0, Relaxed);
            s.check.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// A new search begins: older entries become the first to go.
    pub fn new_search(&self) {
        self.generation.store((self.generation() + 1) & 63, Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits pick the bucket; the full key is checked on reading.
        let b = ((key >> 32) as usize & self.mask) * BUCKET;
        &self.slots[b..b + BUCKET]
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let slot = self.bucket(key).iter().map(Slot::read).find(|(k, d)| *k == key && d.flags & 3 != 0)?.1;
        Some(Entry {
            mv: if slot.mv == 0 { None } else { Move::from_u16(slot.mv) },
            score: slot.score as i32,
            eval: slot.eval as i32,
            depth: slot.depth as i32 - 1,
            bound: match slot.flags & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    /// Stores a result; a result without a move keeps the move already stored for the position.
    pub fn put(&self, key: u64, entry: Entry) {
        let generation = self.generation();
        let worth = |s: &Data| -> i32 {
            if s.flags & 3 == 0 {
                return i32::MIN;
            }
            let age = (generation.wrapping_sub(s.flags >> 2) & 63) as i32;
            s.depth as i32 - 4 * age
        };
        let bucket = self.bucket(key);
        let read: [(u64, Data); BUCKET] = core::array::from_fn(|i| bucket[i].read());
        let i = match read.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| worth(&read[i].1)).expect("buckets are not empty"),
        };
        let (old_key, slot) = read[i];
        let same = old_key == key;
        // Keep a deeper exact result of this position from this search.
        if same && entry.bound != Bound::Exact && slot.depth as i32 > entry.depth + 3 && slot.flags >> 2 == generation {
            return;
        }
        let mv = match entry.mv {
            Some(m) => m.to_u16(),
            None if same => slot.mv,
            None => 0,
        };
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket[i].write(
            key,
            Data {
                mv,
                score: entry.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                eval: entry.eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: (entry.depth + 1).clamp(0, 255) as u8,
                flags: bound | generation << 2,
            },
        );
    }

    /// Permille of the first thousand entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation();
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.read().1;
                d.flags & 3 != 0 && d.flags >> 2 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: i32, score: i32) -> Entry {
        Entry { mv: Move::from_u16(1 + 9 * 128), score, eval: 0, depth, bound: Bound::Exact }
    }

    #[test]
    fn stores_and_finds() {
        let t = Table::new(1).unwrap();
        t.put(0xdead_beef_0000_0001, entry(5, 42));
        let e = t.get(0xdead_beef_0000_0001).unwrap();
        assert_eq!((e.depth, e.score, e.bound), (5, 42, Bound::Exact));
        assert!(t.get(0xdead_beef_0000_0002).is_none());
    }

    #[test]
    fn too_large_is_refused() {
        assert!(Table::new(MAX_MB + 1).is_none());
        assert!(Table::new(usize::MAX).is_none());
    }

    #[test]
    fn both_entries_of_a_bucket_are_used() {
        let t = Table::new(1).unwrap();
        // Same bucket (same high bits), different keys.
        t.put(0x1_0000_0001, entry(3, 1));
        t.put(0x1_0000_0002, entry(4, 2));
        assert!(t.get(0x1_0000_0001).is_some() && t.get(0x1_0000_0002).is_some());
        // A third goes over the shallower one.
        t.put(0x1_0000_0003, entry(9, 3));
        assert!(t.get(0x1_0000_0001).is_none());
        assert!(t.get(0x1_0000_0002).is_some() && t.get(0x1_0000_0003).is_some());
    }

    #[test]
    fn bounds_and_moves_are_kept() {
        let t = Table::new(1).unwrap();
        let key = 0x2_0000_0007;
        t.put(key, Entry { bound: Bound::Lower, ..entry(2, -7) });
        let e = t.get(key).unwrap();
        assert_eq!((e.bound, e.score, e.mv), (Bound::Lower, -7, Move::from_u16(1 + 9 * 128)));
        // A result without a move keeps the stored move; a new move replaces it.
        t.put(key, Entry { mv: None, bound: Bound::Upper, ..entry(3, 5) });
        let e = t.get(key).unwrap();
        assert_eq!((e.bound, e.depth, e.mv), (Bound::Upper, 3, Move::from_u16(1 + 9 * 128)));
        t.put(key, Entry { mv: Move::from_u16(2 + 9 * 128), ..entry(3, 5) });
        assert_eq!(t.get(key).unwrap().mv, Move::from_u16(2 + 9 * 128));
        // Quiescence entries (depth -1) round-trip too.
        t.put(key, entry(-1, 9));
        assert_eq!(t.get(key).unwrap().depth, -1);
    }

    #[test]
    fn a_deep_exact_result_survives_a_shallow_bound_of_the_same_search() {
        let t = Table::new(1).unwrap();
        let key = 0x3_0000_0001;
        t.put(key, entry(10, 50));
        t.put(key, Entry { bound: Bound::Lower, ..entry(2, 400) });
        assert_eq!((t.get(key).unwrap().depth, t.get(key).unwrap().score), (10, 50));
        // Within three plies of it: replaced.
        t.put(key, Entry { bound: Bound::Upper, ..entry(8, -3) });
        assert_eq!(t.get(key).unwrap().score, -3);
        // From a later search the old one goes whatever its depth.
        t.put(key, entry(12, 1));
        t.new_search();
        t.put(key, Entry { bound: Bound::Lower, ..entry(1, 2) });
        assert_eq!(t.get(key).unwrap().depth, 1);
    }

    #[test]
    fn older_searches_are_replaced_first() {
        let t = Table::new(1).unwrap();
        // One bucket: a deep entry from long ago and a shallow one from now.
        t.put(0x4_0000_0001, entry(8, 1));
        for _ in 0..3 {
            t.new_search();
        }
        t.put(0x4_0000_0002, entry(1, 2));
        t.put(0x4_0000_0003, entry(2, 3));
        // 8 - 4 * 3 < 1: the old deep entry went.
        assert!(t.get(0x4_0000_0001).is_none());
        assert!(t.get(0x4_0000_0002).is_some() && t.get(0x4_0000_0003).is_some());
        assert!(t.hashfull() > 0);
        t.clear();
        assert!(t.get(0x4_0000_0002).is_none());
        assert_eq!(t.hashfull(), 0);
    }

    #[test]
    fn mate_scores_are_stored_from_the_node_and_read_back_from_the_root() {
        use crate::score::{Score, MATE};
        // Found at ply 5: the side to move there mates 2 plies later (root distance 7).
        let at_node = Score(MATE - 7);
        let t = Table::new(1).unwrap();
        t.put(0x5_0000_0001, Entry { score: at_node.to_tt(5), ..entry(4, 0) });
        let stored = t.get(0x5_0000_0001).unwrap().score;
        assert_eq!(stored, MATE - 2, "stored as mate 2 plies from the node");
        // Met again at ply 1 by another order: mate 3 plies from the root, "mate 2" (moves).
        assert_eq!(Score::from_tt(stored, 1), Score(MATE - 3));
        assert_eq!(Score::from_tt(stored, 1).mate_in(), Some(2));
        // Being mated, and ordinary scores, likewise.
        assert_eq!(Score::from_tt(Score(-MATE + 6).to_tt(4), 0), Score(-MATE + 2));
        assert_eq!(Score::from_tt(Score(123).to_tt(9), 2), Score(123));
    }

    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        // Four threads write one bucket's keys over and over, each entry consistent in itself
        // (score = depth * 7 = eval, and a move that names the key); four read. Whatever the
        // interleaving, a found entry is one that was written whole.
        let t = Table::new(1).unwrap();
        let keys: Vec<u64> = (1..=6).map(|k| 0x6_0000_0000 | k).collect();
        let entry = |k: u64, depth: i32| {
            let mv = Move::from_u16((k & 0x7f) as u16 + 9 * 128);
            Entry { mv, score: depth * 7, eval: depth * 7, depth, bound: Bound::Exact }
        };
        // Written once before the threads start: on a loaded machine the readers may otherwise
        // finish before any writer has run, and find nothing.
        for &k in &keys {
            t.put(k, entry(k, 0));
        }
        std::thread::scope(|s| {
            for w in 0..4 {
                let (t, keys, entry) = (&t, &keys, &entry);
                s.spawn(move || {
                    for n in 0..20_000 {
                        let k = keys[(n + w) % keys.len()];
                        t.put(k, entry(k, ((n * 7 + w) % 60) as i32));
                    }
                });
            }
            for r in 0..4 {
                let (t, keys, entry) = (&t, &keys, &entry);
                s.spawn(move || {
                    let mut found = 0;
                    for n in 0..40_000 {
                        let k = keys[(n + r) % keys.len()];
                        if let Some(e) = t.get(k) {
                            found += 1;
                            let whole = entry(k, e.depth);
                            assert_eq!((e.score, e.eval, e.mv), (whole.score, whole.eval, whole.mv));
                        }
                    }
                    assert!(found > 0);
                });
            }
        });
    }

    #[test]
    fn a_slot_whose_words_do_not_match_is_not_found() {
        let t = Table::new(1).unwrap();
        let key = 0x7_0000_0001;
        t.put(key, entry(4, 11));
        let b = ((key >> 32) as usize & t.mask) * BUCKET;
        let slot = t.slots[b..b + BUCKET].iter().find(|s| s.read().0 == key).unwrap();
        // Another writer's data beside this key's check word: the read gives another key.
        slot.data.store(Data { depth: 9, flags: 1, ..Data::default() }.pack(), Relaxed);
        assert!(t.get(key).is_none());
    }
}
