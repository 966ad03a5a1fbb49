//! Move generation in the three step conventions, straight on the 64-bit code.
//!
//! A move takes the piece's type off its old top-left cell and puts it on the new one, so a
//! neighbour is `code ^ (t << 3*from) ^ (t << 3*to)`: no decoding into a piece list.

use crate::board::{dilate, empty_and_movable, empty_and_pieces, fitting_any, slide, MIRROR_SHIFT, SPREAD_SHAPE_AT};
use crate::layout::{Layout, Piece};
use std::fmt;
use std::str::FromStr;

/// What counts as one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// One piece moves any distance along any path of one-cell slides (the Chinese convention).
    #[default]
    Piece,
    /// One piece slides any distance in one direction.
    Straight,
    /// One piece slides one cell.
    Unit,
}

impl Convention {
    /// All three, in the order `piece`, `straight`, `unit`.
    pub const ALL: [Convention; 3] = [Convention::Piece, Convention::Straight, Convention::Unit];

    /// The lower-case name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Convention::Piece => "piece",
            Convention::Straight => "straight",
            Convention::Unit => "unit",
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown convention name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownConvention(pub String);

impl fmt::Display for UnknownConvention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown convention {:?} (use piece, straight or unit)", self.0)
    }
}

impl std::error::Error for UnknownConvention {}

impl FromStr for Convention {
    type Err = UnknownConvention;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "piece" => Ok(Convention::Piece),
            "straight" => Ok(Convention::Straight),
            "unit" => Ok(Convention::Unit),
            _ => Err(UnknownConvention(s.to_string())),
        }
    }
}

/// One step: a piece goes from one top-left cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The piece that moves.
    pub piece: Piece,
    /// Its top-left cell before (row * 4 + col).
    pub from: usize,
    /// Its top-left cell after.
    pub to: usize,
}

impl Move {
    /// The move between two layouts one step apart (any convention), if there is one piece
    /// that left one cell for another.
    pub fn between(before: Layout, after: Layout) -> Option<Move> {
        let diff = before.code() ^ after.code();
        if diff == 0 {
            return None;
        }
        let low = diff.trailing_zeros() / 3;
        let high = (63 - diff.leading_zeros()) / 3;
        let (from, to) = if before.piece_at(low as usize).is_some() { (low, high) } else { (high, low) };
        let piece = before.piece_at(from as usize)?;
        (after.piece_at(to as usize) == Some(piece) && before.piece_at(to as usize).is_none()).then_some(Move {
            piece,
            from: from as usize,
            to: to as usize,
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |c: usize| (c / 4, c % 4);
        let (fr, fc) = cell(self.from);
        let (tr, tc) = cell(self.to);
        write!(f, "{} {fr},{fc} -> {tr},{tc}", self.piece)
    }
}

/// Calls `visit` with the code of every layout one step from `code`.
///
/// Each result is distinct: different pieces or different targets give different codes.
#[inline]
pub(crate) fn for_each_neighbor(code: u64, convention: Convention, mut visit: impl FnMut(u64)) {
    let visit = |next: Neighbor| visit(next.code);
    let rounds = fill_rounds(code);
    match convention {
        Convention::Piece => neighbors::<false, PIECE>(code, 0, 0, rounds, visit),
        Convention::Straight => neighbors::<false, STRAIGHT>(code, 0, 0, rounds, visit),
        Convention::Unit => neighbors::<false, UNIT>(code, 0, 0, rounds, visit),
    }
}

/// Flood-fill rounds that reach every piece-convention target of a layout: its number of
/// empty cells (at least 2 in every piece set). A piece lifted off the board moves inside its
/// own cells and the `e` empty ones; its top-left cells there number at most `e + 1` (a run
/// of `k` free cells in a row holds `k - 1` places for a 2-wide piece, and so on), so none is
/// more than `e` slides away. The same for every layout of a piece set.
#[inline]
pub(crate) fn fill_rounds(code: u64) -> u32 {
    empty_and_pieces(code).0.count_ones()
}

/// A neighbour reported by [`for_each_neighbor_mirrored`].
#[derive(Clone, Copy)]
pub(crate) struct Neighbor {
    /// The code one step away.
    pub(crate) code: u64,
    /// Its mirror image (0 when not asked for).
    pub(crate) mirrored: u64,
    /// Type code of the moved piece.
    pub(crate) t: u64,
    /// Code shift of the moved piece's old top-left cell in `code` (3 * cell).
    pub(crate) from: u32,
    /// Code shift of the moved piece's new top-left cell in `code`.
    pub(crate) to: u32,
    /// The old top-left cell's shift in `mirrored` (0 when not asked for).
    pub(crate) mirrored_from: u32,
    /// The new top-left cell's shift in `mirrored`.
    pub(crate) mirrored_to: u32,
}

/// The conventions as const parameters, so that each search is compiled for one of them.
pub(crate) const PIECE: u8 = 0;
/// See [`PIECE`].
pub(crate) const STRAIGHT: u8 = 1;
/// See [`PIECE`].
pub(crate) const UNIT: u8 = 2;

/// The const parameter of a convention.
pub(crate) const fn convention_id(convention: Convention) -> u8 {
    match convention {
        Convention::Piece => PIECE,
        Convention::Straight => STRAIGHT,
        Convention::Unit => UNIT,
    }
}

/// Like [`for_each_neighbor`] for the convention `CONV`, also passing each neighbour's mirror
/// image, given the mirror image `mirrored` of `code` (two table lookups instead of mirroring
/// every neighbour), and leaving alone the pieces whose top-left cells are in `keep` (spread
/// mask: the solver passes the piece that just moved, whose every target is a neighbour of
/// the layout before). `rounds` is [`fill_rounds`] of the layout (the same for a whole
/// search, so it is computed once).
#[inline(always)]
pub(crate) fn for_each_neighbor_mirrored<const CONV: u8>(
    code: u64,
    mirrored: u64,
    keep: u64,
    rounds: u32,
    visit: impl FnMut(Neighbor),
) {
    neighbors::<true, CONV>(code, mirrored, keep, rounds, visit);
}

/// One piece lifted off the board: its type code, the code (and mirror image) without it,
/// and the top-left cells it can move to (spread).
#[derive(Clone, Copy)]
struct Lifted {
    t: u64,
    base: u64,
    mirror_base: u64,
    targets: u64,
}

/// Lifts the piece whose top-left cell is the one bit of `from` and finds its targets,
/// without a branch on the data in the piece convention (the flood fill runs a fixed number
/// of rounds).
#[inline(always)]
fn lift<const MIRROR: bool, const CONV: u8>(code: u64, mirrored: u64, empty: u64, from: u64, rounds: u32) -> Lifted {
    let shift = from.trailing_zeros();
    let t = (code >> shift) & 7;
    // Where the piece fits once lifted off the board; targets are reached inside this set.
    let fits = fitting_any(t, empty | SPREAD_SHAPE_AT[t as usize][shift as usize]);
    let base = code ^ (t << shift);
    let mirror_base = if MIRROR { mirrored ^ (t << MIRROR_SHIFT[t as usize][shift as usize]) } else { 0 };
    let targets = match CONV {
        UNIT => (dilate(from) ^ from) & fits,
        STRAIGHT => {
            let mut ray = 0;
            for dir in 0..4 {
                let mut at = slide(from, dir) & fits;
                while at != 0 {
                    ray |= at;
                    at = slide(at, dir) & fits;
                }
            }
            ray
        }
        _ => {
            // Bit-parallel flood fill, one slide per round, as many rounds as empty cells
            // (see `fill_rounds`): two rounds for most layouts, a loop count that stays the
            // same for a whole search.
            let mut reach = dilate(dilate(from) & fits) & fits;
            for _ in 2..rounds {
                reach = dilate(reach) & fits;
            }
            reach ^ from
        }
    };
    Lifted { t, base, mirror_base, targets }
}

/// Every neighbour: a loop over the movable pieces (found bit-parallel) and their targets.
#[inline(always)]
fn neighbors<const MIRROR: bool, const CONV: u8>(
    code: u64,
    mirrored: u64,
    keep: u64,
    rounds: u32,
    mut visit: impl FnMut(Neighbor),
) {
    let (empty, movable) = empty_and_movable(code);
    // One loop over every movable piece whatever its shape (the shape is read from the code
    // and only indexes tables): fewer unpredictable loop exits than one loop per shape.
    let mut pieces = (movable[1] | movable[2] | movable[3] | movable[4]) & !keep;
    while pieces != 0 {
        let from = pieces & pieces.wrapping_neg();
        pieces ^= from;
        let at = lift::<MIRROR, CONV>(code, mirrored, empty, from, rounds);
        let mirror_shift = &MIRROR_SHIFT[at.t as usize];
        let from = from.trailing_zeros();
        let mirrored_from = if MIRROR { u32::from(mirror_shift[from as usize]) } else { 0 };
        let mut targets = at.targets;
        while targets != 0 {
            let to = targets.trailing_zeros();
            let mirrored_to = if MIRROR { u32::from(mirror_shift[to as usize]) } else { 0 };
            let mirrored = if MIRROR { at.mirror_base | at.t << mirrored_to } else { 0 };
            visit(Neighbor { code: at.base | at.t << to, mirrored, t: at.t, from, to, mirrored_from, mirrored_to });
            targets &= targets - 1;
        }
    }
}

impl Layout {
    /// Every move in `convention` with the layout it leads to.
    ///
    /// ```
    /// use huarong::{Convention, Layout};
    /// let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
    /// assert_eq!(start.moves(Convention::Unit).len(), 4);
    /// assert_eq!(start.moves(Convention::Straight).len(), 6);
    /// assert_eq!(start.moves(Convention::Piece).len(), 8);
    /// ```
    pub fn moves(self, convention: Convention) -> Vec<(Move, Layout)> {
        let mut out = Vec::new();
        for_each_neighbor(self.code(), convention, |code| {
            let next = Layout::from_code_unchecked(code);
            if let Some(m) = Move::between(self, next) {
                out.push((m, next));
            }
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, convention: Convention) -> usize {
        Layout::parse(text).unwrap().moves(convention).len()
    }

    #[test]
    fn a_soldier_turning_a_corner_is_one_piece_move() {
        // The soldier at 0,0 reaches 0,1 / 0,2 / 1,2 (turning) / 1,0 ... in the piece convention.
        let text = "S.../.CC./.CC./..../....";
        let layout = Layout::parse(text).unwrap();
        let soldier: Vec<_> =
            layout.moves(Convention::Piece).into_iter().filter(|(m, _)| m.piece == Piece::Soldier).collect();
        assert_eq!(soldier.len(), 20 - 4 - 1);
        assert_eq!(count(text, Convention::Unit), 2 + 4);
    }

    #[test]
    fn moves_are_reversible_and_keep_the_layout_legal() {
        let start = Layout::parse("VCCV/VCCV/VHHV/VSSV/S..S").unwrap();
        for convention in Convention::ALL {
            for (m, next) in start.moves(convention) {
                let back = next.moves(convention);
                assert!(back.iter().any(|&(_, l)| l == start), "{m} in {convention}");
                assert_eq!(Layout::from_code(next.code()), Ok(next));
            }
        }
    }

    /// Piece-convention moves are the layouts one piece reaches by unit slides alone: checks
    /// the fixed number of flood-fill rounds (`fill_rounds`) on piece sets with two to six
    /// empty cells.
    #[test]
    fn piece_moves_are_unit_slides_of_one_piece() {
        for start in crate::enumerate::sampled(&[(4, 1, 4), (2, 2, 5), (3, 1, 4), (1, 3, 3), (2, 1, 4), (0, 2, 6)], 251)
        {
            let mut expected = std::collections::BTreeSet::new();
            for (first, next) in start.moves(Convention::Unit) {
                // Follow the moved piece by its top-left cell.
                let mut stack = vec![(next, first.to)];
                let mut seen = std::collections::BTreeSet::from([(start.code(), first.from)]);
                while let Some((at, cell)) = stack.pop() {
                    if !seen.insert((at.code(), cell)) {
                        continue;
                    }
                    if at != start {
                        expected.insert(at.code());
                    }
                    for (m, after) in at.moves(Convention::Unit) {
                        if m.from == cell {
                            stack.push((after, m.to));
                        }
                    }
                }
            }
            let got: std::collections::BTreeSet<u64> =
                start.moves(Convention::Piece).into_iter().map(|(_, l)| l.code()).collect();
            assert_eq!(got, expected, "{start} ({} empty cells)", start.piece_set().empty_cells());
        }
    }

    #[test]
    fn convention_names_parse() {
        for c in Convention::ALL {
            assert_eq!(c.name().parse::<Convention>(), Ok(c));
        }
        assert!("diagonal".parse::<Convention>().is_err());
    }
}
