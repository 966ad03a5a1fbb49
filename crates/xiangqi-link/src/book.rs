//! An opening book: positions up to mirror image (by a hash of this module's own, frozen with
//! the format; see [`canonical_key`]) and
//! how often each move was played there in the training games.
//!
//! File format: records of 12 bytes, little-endian: position hash (u64), move (u16,
//! [`Move::to_u16`]), count (u16); sorted by hash then move.

use xiangqi::{Move, Position};

/// FNV-1a over the 90 board codes and the side to move. Not `Position::hash` on purpose:
/// the book must not change when the engine's Zobrist keys do.
pub(crate) fn key(pos: &Position) -> u64 {
    hash(pos.piece_codes().iter().copied(), pos.turn() as u8)
}

/// The book key of `pos`: the smaller of the keys of the position and of its mirror image
/// (files a-i swapped), so one entry serves both; and whether it is the mirror's (then the
/// book's moves are mirrored too).
pub(crate) fn canonical_key(pos: &Position) -> (u64, bool) {
    let k = key(pos);
    let mk = hash((0..90).map(|s| pos.piece_codes()[s / 9 * 9 + 8 - s % 9]), pos.turn() as u8);
    if mk < k {
        (mk, true)
    } else {
        (k, false)
    }
}

/// A move mirrored left to right.
pub(crate) fn mirror(m: Move) -> Move {
    Move::new(m.from().mirror(), m.to().mirror())
}

fn hash(board: impl Iterator<Item = u8>, turn: u8) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in board.chain([turn]) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Book {
    entries: Vec<(u64, u16, u16)>,
}

impl Book {
    pub fn from_bytes(bytes: &[u8]) -> Book {
        let entries = bytes
            .chunks_exact(12)
            .map(|c| {
                let h = u64::from_le_bytes(c[0..8].try_into().expect("8 bytes"));
                (h, u16::from_le_bytes([c[8], c[9]]), u16::from_le_bytes([c[10], c[11]]))
            })
            .collect();
        Book { entries }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * 12);
        for &(h, m, c) in &self.entries {
            out.extend(h.to_le_bytes());
            out.extend(m.to_le_bytes());
            out.extend(c.to_le_bytes());
        }
        out
    }

    pub fn from_entries(mut entries: Vec<(u64, u16, u16)>) -> Book {
        entries.sort_unstable();
        Book { entries }
    }

    /// The moves recorded for the position with this key, with their counts.
    pub fn lookup(&self, key: u64) -> impl Iterator<Item = (Move, u16)> + '_ {
        let start = self.entries.partition_point(|e| e.0 < key);
        self.entries[start..]
            .iter()
            .take_while(move |e| e.0 == key)
            .filter_map(|&(_, m, c)| Move::from_u16(m).map(|m| (m, c)))
    }
}
