//! The move model: for each legal move a probability, from a learned linear score (softmax
//! over per-move features, integer weights) mixed with an opening book. Integer arithmetic
//! only, and the legal moves are taken in `Move::to_u16` order, so every machine and every
//! move generator gives the same numbers.
//!
//! Everything here (the features, the exponential table, the book mixing) is part of compact
//! format version 1, together with its data files and `attack.rs`. A better model is a new
//! version with its own code path; this one must keep giving the same numbers.

use super::attack::{for_each_attack, split, AttackMap, VALUE};
use super::book::{self, Book};
use xiangqi::{Move, Position};

/// Features per move: one index from each group below.
pub const NF: usize = 24;

const G_FROM: usize = 0; // kind x from square (mover's view): 630
const G_TO: usize = G_FROM + 630; // opening (ply < 20) or not x kind x to square: 1260
const G_CAPTURE: usize = G_TO + 1260; // victim (none, kind) x mover: 56
const G_SEE: usize = G_CAPTURE + 56; // exchange class x mover: 35
const G_DEST: usize = G_SEE + 35; // destination attackers (0, 1, 2+) x defenders x by a cheaper piece x mover: 126
const G_ORIGIN: usize = G_DEST + 126; // origin attackers (0, 1, 2+) x defenders x by a cheaper piece x mover: 126
const G_CHECK: usize = G_ORIGIN + 126; // gives check x destination attacked x mover: 28
const G_IN_CHECK: usize = G_CHECK + 28; // side to move in check x mover: 14
const G_TAKE_LAST: usize = G_IN_CHECK + 14; // captures the piece that just moved: 2
const G_SAME: usize = G_TAKE_LAST + 2; // moves the piece it moved last x mover: 14
const G_UNDO: usize = G_SAME + 14; // takes back its own last move: 2
const G_REPEAT: usize = G_UNDO + 2; // repeats its move of two turns ago: 2
const G_THREAT: usize = G_REPEAT + 2; // best piece attacked after the move x mover: 35
const G_PHASE: usize = G_THREAT + 35; // ply bucket x mover: 42
const G_REPLY: usize = G_PHASE + 42; // kind that moved last x mover: 56
const G_ESCAPE: usize = G_REPLY + 56; // leaves a square the last mover attacks x mover: 14
const G_NEAR: usize = G_ESCAPE + 14; // distance to the last move's square (0..4+, none) x mover: 42
const G_SEE_VICTIM: usize = G_NEAR + 42; // exchange class x victim: 40
const G_FOLLOW: usize = G_SEE_VICTIM + 40; // kind it moved last (none, kind) x mover: 56
const G_MOVE: usize = G_FOLLOW + 56; // opening (ply < 20) or not x from square x to square (mover's view): 16200
const G_ABANDON: usize = G_MOVE + 16200; // leaves an attacked piece it alone defended x mover: 14
const G_MOBILITY: usize = G_ABANDON + 14; // squares attacked from the new square (0-2, 3-5, 6-9, 10+) x mover: 28
const G_MOBILITY_GAIN: usize = G_MOBILITY + 28; // fewer, as many, more than before x mover: 21
const G_APPROACH: usize = G_MOBILITY_GAIN + 21; // farther from, as far, nearer the enemy king x mover: 21
/// Number of weights.
pub const NW: usize = G_APPROACH + 21;

/// Weights are in 1/64 nat.
pub const SCALE: f64 = 64.0;
/// Score differences beyond this (12 nats) are clamped.
const DMAX: usize = 768;
/// Book plies: the book is only consulted before this ply.
pub(crate) const BOOK_PLIES: usize = 40;
/// How many games' worth of weight the model has against the book's counts (in quarters).
const BOOK_PRIOR_Q: u32 = 3;
/// Book counts above this are scaled down.
const BOOK_CAP: u32 = 64;

/// round(1024 * exp(-d / 64)), at least 1, by a fixed-point recurrence (no floating point).
static EXP: [u32; DMAX + 1] = {
    // exp(-1/64) in Q32.
    const R: u64 = 4_228_380_000;
    let mut t = [0u32; DMAX + 1];
    let mut v: u64 = 1024 << 32;
    let mut d = 0;
    while d <= DMAX {
        let r = ((v + (1 << 31)) >> 32) as u32;
        t[d] = if r == 0 { 1 } else { r };
        v = ((v >> 16) * R) >> 16;
        d += 1;
    }
    t
};

fn phase(ply: usize) -> usize {
    match ply {
        0..=5 => 0,
        6..=11 => 1,
        12..=19 => 2,
        20..=39 => 3,
        40..=79 => 4,
        _ => 5,
    }
}

fn bucket(kind: usize) -> usize {
    match kind {
        6 => 1,
        1 | 2 => 2,
        3 | 5 => 3,
        4 => 4,
        _ => 0,
    }
}

/// The feature indices of each of `moves` (legal in `pos`, after `history`).
/// `pos` is used for trial moves and left as it was.
pub fn features(pos: &mut Position, history: &[Move], moves: &[Move], out: &mut Vec<[u16; NF]>) {
    out.clear();
    let us = pos.turn().index();
    let them = 1 - us;
    let map = AttackMap::new(pos.piece_codes());
    let in_check = pos.is_check() as usize;
    let n = history.len();
    let opp_last = n.checked_sub(1).map(|i| history[i]);
    let own_last = n.checked_sub(2).map(|i| history[i]);
    let own_4 = n.checked_sub(4).map(|i| history[i]);
    let (reply_kind, last_attacks) = match opp_last {
        Some(l) if pos.piece_codes()[l.to().index()] != 0 => {
            let mut mask = 0u128;
            for_each_attack(pos.piece_codes(), l.to().index(), |t| mask |= 1 << t);
            (split(pos.piece_codes()[l.to().index()]).0, mask)
        }
        _ => (7, 0),
    };
    let ph = phase(n);
    let their_king = pos.king(pos.turn().other()).index();
    // Own pieces attacked by the opponent that have exactly one defender.
    let mut exposed = 0u128;
    for t in 0..90 {
        let c = pos.piece_codes()[t];
        if c != 0 && split(c).1 == us && map.count[them][t] > 0 && map.count[us][t] == 1 {
            exposed |= 1 << t;
        }
    }
    let follow_kind = match own_last {
        Some(l) if pos.piece_codes()[l.to().index()] != 0 => split(pos.piece_codes()[l.to().index()]).0,
        _ => 7,
    };
    let rel = |s: usize| if us == 0 { s } else { 89 - s };
    for &m in moves {
        let (from, to) = (m.from().index(), m.to().index());
        let (kind, _) = split(pos.piece_codes()[from]);
        let victim = pos.piece_codes()[to];
        let vk = if victim != 0 { split(victim).0 } else { 7 };
        let see = if victim == 0 {
            0
        } else if map.count[them][to] == 0 {
            1
        } else {
            match VALUE[vk].cmp(&VALUE[kind]) {
                core::cmp::Ordering::Greater => 2,
                core::cmp::Ordering::Equal => 3,
                core::cmp::Ordering::Less => 4,
            }
        };
        let self_attack = (kind != 5 || victim != 0) as u8;
        let dest = ((map.count[them][to].min(2) as usize) * 3
            + (map.count[us][to] - self_attack.min(map.count[us][to])).min(2) as usize)
            * 2
            + (map.least[them][to] < VALUE[kind]) as usize;
        let cheaper = (map.least[them][from] < VALUE[kind]) as usize;
        let origin = ((map.count[them][from].min(2) as usize) * 3 + map.count[us][from].min(2) as usize) * 2 + cheaper;
        let abandon = (map.attacks[from] & exposed & !(1u128 << to) != 0) as usize;
        // The board after the move, for what the moved piece attacks from its new square.
        let mut after = *pos.piece_codes();
        after[to] = after[from];
        after[from] = 0;
        let mut threat = 0;
        let mut direct_check = false;
        let mut reach = 0u32;
        for_each_attack(&after, to, |t| {
            reach += 1;
            let c = after[t];
            if c != 0 {
                let (k, color) = split(c);
                if color == them && k != 0 && (VALUE[k] > VALUE[kind] || map.count[them][t] == 0) {
                    threat = threat.max(bucket(k));
                }
                direct_check |= t == their_king;
            }
        });
        // A check not given by the moved piece is discovered through `from` (a line or a horse
        // leg) or comes from a cannon screen on `to`: only then ask the rules.
        let (kf, kr) = (their_king % 9, their_king / 9);
        let maybe = from % 9 == kf
            || from / 9 == kr
            || to % 9 == kf
            || to / 9 == kr
            || ((from % 9).abs_diff(kf) == 1 && (from / 9).abs_diff(kr) == 1);
        let check = if direct_check {
            1
        } else if maybe {
            let undo = pos.play_unchecked(m);
            let c = pos.is_check() as usize;
            pos.undo(m, undo);
            c
        } else {
            0
        };
        let mobility = match reach {
            0..=2 => 0,
            3..=5 => 1,
            6..=9 => 2,
            _ => 3,
        };
        let gain = match reach.cmp(&map.attacks[from].count_ones()) {
            core::cmp::Ordering::Less => 0,
            core::cmp::Ordering::Equal => 1,
            core::cmp::Ordering::Greater => 2,
        };
        let dist = |s: usize| (s % 9).abs_diff(kf) + (s / 9).abs_diff(kr);
        let approach = match dist(to).cmp(&dist(from)) {
            core::cmp::Ordering::Greater => 0,
            core::cmp::Ordering::Equal => 1,
            core::cmp::Ordering::Less => 2,
        };
        let same = own_last.is_some_and(|l| l.to().index() == from) as usize;
        let near = match opp_last {
            Some(l) => {
                let (a, b) = (l.to(), m.to());
                (a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())) as usize).min(4)
            }
            None => 5,
        };
        let back = own_last.is_some_and(|l| l.to() == m.from() && l.from() == m.to()) as usize;
        let f = [
            G_FROM + kind * 90 + rel(from),
            G_TO + ((n >= 20) as usize * 7 + kind) * 90 + rel(to),
            G_CAPTURE + (if victim == 0 { 0 } else { 1 + vk }) * 7 + kind,
            G_SEE + see * 7 + kind,
            G_DEST + dest * 7 + kind,
            G_ORIGIN + origin * 7 + kind,
            G_CHECK + (check * 2 + (map.count[them][to] > 0) as usize) * 7 + kind,
            G_IN_CHECK + in_check * 7 + kind,
            G_TAKE_LAST + opp_last.is_some_and(|l| l.to() == m.to()) as usize,
            G_SAME + same * 7 + kind,
            G_UNDO + back,
            G_REPEAT + (own_4 == Some(m)) as usize,
            G_THREAT + threat * 7 + kind,
            G_PHASE + ph * 7 + kind,
            G_REPLY + reply_kind * 7 + kind,
            G_ESCAPE + (last_attacks >> from & 1) as usize * 7 + kind,
            G_NEAR + near * 7 + kind,
            G_SEE_VICTIM + see * 8 + vk,
            G_FOLLOW + follow_kind * 7 + kind,
            G_MOVE + (n >= 20) as usize * 8100 + rel(from) * 90 + rel(to),
            G_ABANDON + abandon * 7 + kind,
            G_MOBILITY + mobility * 7 + kind,
            G_MOBILITY_GAIN + gain * 7 + kind,
            G_APPROACH + approach * 7 + kind,
        ];
        out.push(f.map(|i| i as u16));
    }
}

/// Weights and book of one format version.
pub struct Model {
    pub(crate) weights: Vec<i32>,
    pub(crate) book: Book,
}

impl Model {
    /// A model from its data files' contents (weights as text, book as bytes).
    pub fn from_data(weights: &str, book: &[u8]) -> Model {
        let mut w: Vec<i32> = weights.split_whitespace().filter_map(|t| t.parse().ok()).collect();
        w.resize(NW, 0);
        Model { weights: w, book: Book::from_bytes(book) }
    }

    /// The model of compact format version 1.
    pub fn v1() -> &'static Model {
        static M: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
        M.get_or_init(|| {
            Model::from_data(include_str!("../data/link_v1_weights.txt"), include_bytes!("../data/link_v1_book.bin"))
        })
    }

    /// Fills `freq` (one per move of `moves`, which must be the legal moves sorted by
    /// `Move::to_u16`) with integer frequencies, each at least 1; returns their sum (below
    /// `coder::MAX_TOTAL`).
    pub(crate) fn frequencies(
        &self,
        pos: &mut Position,
        history: &[Move],
        moves: &[Move],
        scratch: &mut Vec<[u16; NF]>,
        freq: &mut Vec<u32>,
    ) -> u32 {
        features(pos, history, moves, scratch);
        freq.clear();
        let scores: Vec<i32> = scratch.iter().map(|f| f.iter().map(|&i| self.weights[i as usize]).sum()).collect();
        let max = scores.iter().copied().max().unwrap_or(0);
        let mut sum = 0u32;
        for &s in &scores {
            let d = ((max - s) as usize).min(DMAX);
            freq.push(EXP[d]);
            sum += EXP[d];
        }
        if history.len() < BOOK_PLIES {
            let (k, mirrored) = book::canonical_key(pos);
            let entries: Vec<(Move, u16)> =
                self.book.lookup(k).map(|(m, c)| (if mirrored { book::mirror(m) } else { m }, c)).collect();
            let n: u32 = entries.iter().filter(|(m, _)| moves.binary_search(m).is_ok()).map(|e| e.1 as u32).sum();
            if n > 0 {
                let scaled = |c: u32| if n > BOOK_CAP { c * BOOK_CAP / n } else { c };
                for f in freq.iter_mut() {
                    *f *= BOOK_PRIOR_Q;
                }
                for (m, c) in entries {
                    if let Ok(i) = moves.binary_search(&m) {
                        freq[i] += scaled(c as u32) * sum * 4;
                    }
                }
                sum = freq.iter().sum();
            }
        }
        while sum >= super::coder::MAX_TOTAL {
            for f in freq.iter_mut() {
                *f = (*f >> 1).max(1);
            }
            sum = freq.iter().sum();
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_table() {
        assert_eq!(EXP[0], 1024);
        assert_eq!(EXP[64], 377); // 1024 / e = 376.7
        assert_eq!(EXP[DMAX], 1);
    }
}
