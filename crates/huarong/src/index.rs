//! An exact combinatorial index of the layouts of one piece set: rank a layout into
//! `0..len` and back, with small tables and no list of codes.
//!
//! A layout is read as the decisions of the row-major fill that [`crate::enumerate::for_each_layout`]
//! makes: at the first uncovered cell, either a blank or the top-left of a piece. What can
//! still follow such a point depends only on the pieces left and on which of the next four
//! cells are covered already (a piece reaches at most five cells past its top-left), so the
//! number of completions of each such state is a small table, and the rank of a layout is
//! the sum, over its decisions, of the completions of the choices that come earlier
//! (blank, Cao Cao, vertical, horizontal, soldier). Ranks follow the enumeration order.

use crate::board::{empty_and_pieces, FULL, LOW, SHAPE, SPREAD_SHAPE_AT};
use crate::layout::{Layout, PieceSet};

/// Choices at a fill point, by seed type code: 0 blank, 1 Cao Cao ... 4 soldier.
const CHOICES: usize = 5;
/// `SHAPE_AT[t][3 * cell]`: [`SHAPE`] by code shift, with room for any 3-bit type (the
/// types 5 to 7 never occur).
const SHAPE_AT: [[u32; 64]; 8] = {
    let mut table = [[0u32; 64]; 8];
    let mut t = 0;
    while t < 5 {
        let mut cell = 0;
        while cell < 20 {
            table[t][3 * cell] = SHAPE[t][cell];
            cell += 1;
        }
        t += 1;
    }
    table
};
/// Offset of a choice that does not fit (never read by a valid code).
const NO_FIT: u32 = u32::MAX;

/// Ranks and unranks the layouts of one piece set.
///
/// ```
/// use huarong::LayoutIndex;
/// use huarong::{Layout, PieceSet};
/// let index = LayoutIndex::new(PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
/// assert_eq!(index.len(), 65_880);
/// let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
/// let rank = index.rank(start).unwrap();
/// assert_eq!(index.layout(rank), Some(start));
/// ```
#[derive(Clone, Debug)]
pub struct LayoutIndex {
    set: PieceSet,
    len: u32,
    /// Strides of the pieces-left part of a state (blank, Cao Cao, vertical, horizontal,
    /// soldier), times five: steps in the offset table.
    stride: [u32; 8],
    /// The pieces-left part of the start state (the whole set).
    start: u32,
    /// Number of pieces-left combinations (the window is the high part of a state).
    kinds: u32,
    /// `offset[state * 5 + t]`: completions of the choices before `t` at `state`, or
    /// [`NO_FIT`] when `t` cannot be placed there.
    offset: Vec<u32>,
}

impl LayoutIndex {
    /// The index of `set` (any counts; a set that does not fit the board has no layouts).
    pub fn new(set: PieceSet) -> LayoutIndex {
        let left =
            [set.empty_cells() as u32, 1, u32::from(set.vertical), u32::from(set.horizontal), u32::from(set.soldiers)];
        let mut stride = [0u32; CHOICES];
        let mut kinds = 1;
        for t in (0..CHOICES).rev() {
            stride[t] = kinds;
            kinds *= left[t] + 1;
        }
        let start: u32 = (0..CHOICES).map(|t| left[t] * stride[t]).sum();
        let states = 16 * kinds as usize;
        let mut builder =
            Builder { stride, left, count: vec![u32::MAX; states], offset: vec![NO_FIT; states * CHOICES] };
        // Pieces that overflow the board have no layouts (and would give a negative cell).
        let fits = 4 + 2 * (left[2] + left[3]) + left[4] <= 20;
        let len = if fits { builder.count(0, start) } else { 0 };
        // Scaled to the offset table's rows of five, with room for any 3-bit type.
        let mut wide = [0u32; 8];
        for (w, s) in wide.iter_mut().zip(stride) {
            *w = s * CHOICES as u32;
        }
        LayoutIndex { set, len, stride: wide, start, kinds, offset: builder.offset }
    }

    /// The piece set indexed.
    pub fn set(&self) -> PieceSet {
        self.set
    }

    /// Number of layouts.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the set has no layout at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The rank of `layout` in `0..len()`, `None` if it has another piece set.
    pub fn rank(&self, layout: Layout) -> Option<u32> {
        (layout.piece_set() == self.set).then(|| self.rank_code(layout.code()))
    }

    /// The rank of the code of a legal layout of this piece set (anything else gives a
    /// meaningless number or panics).
    ///
    /// The fill points are known before the walk (every empty cell and every piece's top-left
    /// cell), so the loop only carries the cells covered so far and the pieces left: a short
    /// dependency chain, which keeps a rank near the cost of a hash lookup.
    #[inline]
    pub(crate) fn rank_code(&self, code: u64) -> u32 {
        let mut points = fill_points(code);
        let mut covered = 0u32;
        let mut left = self.start * CHOICES as u32;
        let mut rank = 0;
        while points != 0 {
            let shift = points.trailing_zeros() & 63;
            points &= points - 1;
            rank += self.decide(shift, ((code >> shift) & 7) as usize, &mut covered, &mut left);
        }
        rank
    }

    /// The contribution of the fill point at `shift` (type `t` there) to a rank, given the
    /// cells covered and the pieces left before it; updates both.
    #[inline(always)]
    fn decide(&self, shift: u32, t: usize, covered: &mut u32, left: &mut u32) -> u32 {
        let window = (*covered >> (shift / 3 + 1)) & 15;
        let offset = self.offset[(window * self.kinds * CHOICES as u32 + *left) as usize + t];
        // A blank covers only its own cell, which no later window looks at.
        *covered |= SHAPE_AT[t][shift as usize];
        *left -= self.stride[t];
        offset
    }

    /// The rank walk of the code of a legal layout of this piece set, remembered at every
    /// fill point, for [`LayoutIndex::rank_after_move`].
    #[inline]
    pub(crate) fn walk(&self, code: u64) -> RankWalk {
        let points = fill_points(code);
        let mut walk = RankWalk { points, before: [0; 21], covered: [0; 20], left: [0; 20] };
        let (mut covered, mut left, mut rank) = (0u32, self.start * CHOICES as u32, 0u32);
        let mut rest = points;
        while rest != 0 {
            let shift = rest.trailing_zeros() & 63;
            rest &= rest - 1;
            let cell = (shift / 3) as usize;
            walk.before[cell] = rank;
            walk.covered[cell] = covered;
            walk.left[cell] = left;
            rank += self.decide(shift, ((code >> shift) & 7) as usize, &mut covered, &mut left);
        }
        walk.before[20] = rank;
        walk
    }

    /// The rank of `code`, one move from the layout of `walk`: the piece of type `t` went
    /// from code shift `from` to `to`. Equal to [`LayoutIndex::rank_code`] of `code`.
    ///
    /// Fill points before the first cell the move touches decide the same way in both
    /// layouts, and so do those after the last cell either position of the piece covers (the
    /// same pieces are placed before them and none of their windows reaches the piece): only
    /// the fill points in between are walked.
    #[inline(always)]
    pub(crate) fn rank_after_move(&self, walk: &RankWalk, code: u64, t: u64, from: u32, to: u32) -> u32 {
        let (old, new) = (SPREAD_SHAPE_AT[t as usize][from as usize], SPREAD_SHAPE_AT[t as usize][to as usize]);
        let points = ((walk.points | old) & !new) | 1 << to;
        // The first touched cell is a fill point of both layouts (a top-left or an empty cell).
        let first = from.min(to);
        // Past the last cell covered in either position; the first of the layout's fill points
        // from there on (or the end) starts the shared tail.
        let past = 66 - (old | new).leading_zeros();
        let tail = if past < 60 { walk.points >> past << past } else { 0 };
        let (end, end_cell) =
            if tail == 0 { (60, 20) } else { (tail.trailing_zeros(), (tail.trailing_zeros() / 3) as usize) };
        let start_cell = (first / 3) as usize;
        let (mut covered, mut left) = (walk.covered[start_cell], walk.left[start_cell]);
        let mut rank = walk.before[start_cell] + (walk.before[20] - walk.before[end_cell]);
        let mut rest = points & ((1u64 << end) - 1) & !((1u64 << first) - 1);
        while rest != 0 {
            let shift = rest.trailing_zeros() & 63;
            rest &= rest - 1;
            rank += self.decide(shift, ((code >> shift) & 7) as usize, &mut covered, &mut left);
        }
        rank
    }

    /// The layout of a rank, `None` if `rank >= len()`.
    pub fn layout(&self, rank: u32) -> Option<Layout> {
        (rank < self.len).then(|| Layout::from_code_unchecked(self.code(rank)))
    }

    /// The code of a rank below `len()`.
    pub(crate) fn code(&self, mut rank: u32) -> u64 {
        let mut occupied = 0u32;
        let mut left = self.start * CHOICES as u32;
        let mut code = 0;
        loop {
            let free = !occupied & FULL;
            if free == 0 {
                return code;
            }
            let cell = free.trailing_zeros() as usize;
            let window = (occupied >> (cell + 1)) & 15;
            let at = (window * self.kinds * CHOICES as u32 + left) as usize;
            // The last choice whose offset is not past the rank (offsets grow with the choice).
            let t = (0..CHOICES).rev().find(|&t| self.offset[at + t] <= rank).expect("rank below len");
            rank -= self.offset[at + t];
            code |= (t as u64) << (3 * cell);
            occupied |= if t == 0 { 1 << cell } else { SHAPE[t][cell] };
            left -= self.stride[t];
        }
    }
}

/// The fill points of a code (spread): its empty cells and its pieces' top-left cells, the
/// cells where the row-major fill makes a choice.
#[inline(always)]
fn fill_points(code: u64) -> u64 {
    empty_and_pieces(code).0 | (code | code >> 1 | code >> 2) & LOW
}

/// A layout's rank walk kept at each of its fill points ([`LayoutIndex::walk`]), so that the
/// rank of a layout one move away re-walks only the cells the move changed.
#[derive(Clone, Copy)]
pub(crate) struct RankWalk {
    /// The fill points (spread): empty cells and top-left cells.
    points: u64,
    /// By cell of a fill point: the rank's sum before it; at 20, the whole rank.
    before: [u32; 21],
    /// By cell of a fill point: the cells covered before it.
    covered: [u32; 20],
    /// By cell of a fill point: the pieces-left part of the state there.
    left: [u32; 20],
}

impl RankWalk {
    /// The rank of the layout walked.
    pub(crate) fn rank(&self) -> u32 {
        self.before[20]
    }
}

/// Fills the completion counts and offsets by memoised recursion over reachable states.
struct Builder {
    stride: [u32; CHOICES],
    left: [u32; CHOICES],
    /// Completions by state, `u32::MAX` until computed.
    count: Vec<u32>,
    offset: Vec<u32>,
}

impl Builder {
    /// Completions from the state `window` (the next four cells after the first uncovered
    /// one, bit 0 = the next) with the pieces-left combination `left`.
    fn count(&mut self, window: u32, left: u32) -> u32 {
        let kinds = self.count.len() as u32 / 16;
        let state = (window * kinds + left) as usize;
        if self.count[state] != u32::MAX {
            return self.count[state];
        }
        let have: [u32; CHOICES] = std::array::from_fn(|t| left / self.stride[t] % (self.left[t] + 1));
        // Cells still to cover decide where the first uncovered cell is.
        let to_cover = have[0] + 4 * have[1] + 2 * (have[2] + have[3]) + have[4];
        let cell = 20 - (to_cover + window.count_ones()) as usize;
        let mut total = 0u32;
        if to_cover == 0 {
            total = 1;
        } else {
            // Cells from `cell` on, as a local mask (bit 0 = `cell`).
            let local = window << 1;
            for t in 0..CHOICES {
                let shape = if t == 0 { 1 << cell } else { SHAPE[t][cell] } >> cell;
                if have[t] == 0 || shape == 0 || shape & local != 0 {
                    continue;
                }
                let after = local | shape;
                let step = (!after).trailing_zeros();
                // Past the board's last cell only once everything is placed.
                let next = (after >> step >> 1) & 15;
                if cell + step as usize > 20 || (cell + step as usize == 20 && to_cover - shape.count_ones() != 0) {
                    continue;
                }
                self.offset[state * CHOICES + t] = total;
                total += self.count(next, left - self.stride[t]);
            }
        }
        self.count[state] = total;
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::for_each_layout;

    #[test]
    fn ranks_follow_the_enumeration_order_and_invert() {
        let sets = [
            PieceSet { vertical: 4, horizontal: 1, soldiers: 4 },
            PieceSet { vertical: 0, horizontal: 0, soldiers: 14 },
            PieceSet { vertical: 7, horizontal: 0, soldiers: 0 },
            PieceSet { vertical: 2, horizontal: 3, soldiers: 2 },
            PieceSet { vertical: 0, horizontal: 1, soldiers: 2 },
        ];
        for set in sets {
            let index = LayoutIndex::new(set);
            let mut next = 0u32;
            for_each_layout(set, |code| {
                assert_eq!(index.rank_code(code), next, "{set}");
                assert_eq!(index.code(next), code, "{set}");
                next += 1;
            });
            assert_eq!(index.len(), next as usize, "{set}");
            assert_eq!(index.layout(next), None);
        }
    }

    #[test]
    fn sizes_match_the_enumeration_for_every_set() {
        for set in PieceSet::all() {
            let mut n = 0;
            for_each_layout(set, |_| n += 1);
            assert_eq!(LayoutIndex::new(set).len(), n, "{set}");
        }
        assert!(LayoutIndex::new(PieceSet { vertical: 9, horizontal: 0, soldiers: 0 }).is_empty());
        assert!(LayoutIndex::new(PieceSet { vertical: 0, horizontal: 0, soldiers: 17 }).is_empty());
    }

    /// Every neighbour in every convention, and every neighbour's mirror image from the
    /// mirror image's walk, on piece sets with two to six empty cells.
    #[test]
    fn ranks_after_a_move_equal_full_ranks() {
        use crate::board::mirror;
        use crate::moves::{fill_rounds, for_each_neighbor_mirrored, PIECE, STRAIGHT, UNIT};
        let mut checked = 0;
        for &(v, h, s) in &[(4, 1, 4), (2, 2, 5), (3, 1, 4), (1, 3, 3), (2, 1, 4), (0, 2, 6), (5, 0, 2), (0, 0, 14)] {
            let set = PieceSet { vertical: v, horizontal: h, soldiers: s };
            let index = LayoutIndex::new(set);
            for code in crate::enumerate::layouts(set).into_iter().step_by(37) {
                let (walk, mirrored) = (index.walk(code), mirror(code));
                let mirror_walk = index.walk(mirrored);
                assert_eq!(walk.rank(), index.rank_code(code));
                let mut check = |n: crate::moves::Neighbor| {
                    assert_eq!(index.rank_after_move(&walk, n.code, n.t, n.from, n.to), index.rank_code(n.code));
                    let m = index.rank_after_move(&mirror_walk, n.mirrored, n.t, n.mirrored_from, n.mirrored_to);
                    assert_eq!(m, index.rank_code(n.mirrored));
                    checked += 1;
                };
                let rounds = fill_rounds(code);
                for_each_neighbor_mirrored::<PIECE>(code, mirrored, 0, rounds, &mut check);
                for_each_neighbor_mirrored::<STRAIGHT>(code, mirrored, 0, rounds, &mut check);
                for_each_neighbor_mirrored::<UNIT>(code, mirrored, 0, rounds, &mut check);
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn another_piece_set_has_no_rank() {
        let index = LayoutIndex::new(PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
        let other: Layout = "SSSV/CCVV/CCVV/.HHV/.SHH".parse().unwrap();
        assert_eq!(index.rank(other), None);
    }
}
