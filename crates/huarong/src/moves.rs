//! Move generation in the three step conventions, straight on the 64-bit code.
//!
//! A move takes the piece's type off its old top-left cell and puts it on the new one, so a
//! neighbour is `code ^ (t << 3*from) ^ (t << 3*to)`: no decoding into a piece list.

use crate::board::{dilate, empty_and_movable, fitting, slide, MIRROR_SHIFT, SPREAD_SHAPE};
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
    neighbors::<false>(code, 0, convention, |next, _| visit(next));
}

/// Like [`for_each_neighbor`], also passing each neighbour's mirror image, given the mirror
/// image `mirrored` of `code` (two table lookups instead of mirroring every neighbour).
#[inline]
pub(crate) fn for_each_neighbor_mirrored(
    code: u64,
    mirrored: u64,
    convention: Convention,
    visit: impl FnMut(u64, u64),
) {
    neighbors::<true>(code, mirrored, convention, visit);
}

#[inline(always)]
fn neighbors<const MIRROR: bool>(code: u64, mirrored: u64, convention: Convention, mut visit: impl FnMut(u64, u64)) {
    let (empty, mut movable) = empty_and_movable(code);
    while movable != 0 {
        let shift = movable.trailing_zeros();
        let from = movable & movable.wrapping_neg();
        movable ^= from;
        let t = (code >> shift) & 7;
        // Where the piece fits once lifted off the board; targets are reached inside this set.
        let fits = fitting(t as usize, empty | SPREAD_SHAPE[t as usize][(shift / 3) as usize]);
        let base = code ^ (t << shift);
        let mirror_base = if MIRROR { mirrored ^ (t << MIRROR_SHIFT[t as usize][shift as usize]) } else { 0 };
        let mut emit = |targets: u64| emit::<MIRROR>(base, mirror_base, t, targets, &mut visit);
        match convention {
            Convention::Unit => emit((dilate(from) ^ from) & fits),
            Convention::Straight => {
                for dir in 0..4 {
                    let mut ray = 0;
                    let mut at = slide(from, dir) & fits;
                    while at != 0 {
                        ray |= at;
                        at = slide(at, dir) & fits;
                    }
                    emit(ray);
                }
            }
            Convention::Piece => {
                // Bit-parallel flood fill: grow the reached set by one slide until it stops.
                let mut reach = from;
                loop {
                    let next = dilate(reach) & fits;
                    if next == reach {
                        break;
                    }
                    reach = next;
                }
                emit(reach ^ from);
            }
        }
    }
}

/// Visits the piece of type `t` put on each target of `base` (the code without it), with the
/// mirror image when asked.
#[inline(always)]
fn emit<const MIRROR: bool>(base: u64, mirror_base: u64, t: u64, mut targets: u64, visit: &mut impl FnMut(u64, u64)) {
    while targets != 0 {
        let to = targets.trailing_zeros();
        let mirror_next = if MIRROR { mirror_base | t << MIRROR_SHIFT[t as usize][to as usize] } else { 0 };
        visit(base | t << to, mirror_next);
        targets &= targets - 1;
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

    #[test]
    fn convention_names_parse() {
        for c in Convention::ALL {
            assert_eq!(c.name().parse::<Convention>(), Ok(c));
        }
        assert!("diagonal".parse::<Convention>().is_err());
    }
}
