//! Every legal layout of a piece set, in rank order: the row-major fill that
//! [`LayoutIndex`](crate::LayoutIndex) numbers (a layout's rank is its place here).

use crate::board::{FULL, GOAL_CELL, SHAPE};
#[cfg(test)]
use crate::layout::is_solved_code;
#[cfg(test)]
use crate::layout::Layout;
use crate::layout::PieceSet;
use rayon::prelude::*;

/// Legal layouts on the board, over all piece sets.
pub const TOTAL_LAYOUTS: u64 = 29_334_498;

/// Calls `visit` with the code of every layout of `set` (row-major, each first uncovered cell
/// takes a piece's top-left or stays empty).
pub fn for_each_layout(set: PieceSet, mut visit: impl FnMut(u64)) {
    let mut left = [set.empty_cells() as u8, 1, set.vertical, set.horizontal, set.soldiers];
    fill::<false>(0, 0, &mut left, &mut visit);
}

/// Calls `visit` with the code of every solved layout of `set` (Cao Cao at the goal), in the
/// order of [`for_each_layout`], without going through the others.
pub(crate) fn for_each_solved_layout(set: PieceSet, mut visit: impl FnMut(u64)) {
    let mut left = [set.empty_cells() as u8, 1, set.vertical, set.horizontal, set.soldiers];
    fill::<true>(0, 0, &mut left, &mut visit);
}

/// The fill behind [`for_each_layout`]; `SOLVED` places Cao Cao on the goal cell only.
fn fill<const SOLVED: bool>(occupied: u32, code: u64, left: &mut [u8; 5], visit: &mut impl FnMut(u64)) {
    if occupied == FULL {
        // Only a full use of the piece set counts (matters for sets that cannot fill the board).
        if left.iter().all(|&n| n == 0) {
            visit(code);
        }
        return;
    }
    let cell = (!occupied & FULL).trailing_zeros() as usize;
    if SOLVED && cell > GOAL_CELL && left[1] != 0 {
        return; // the goal cell went to another piece
    }
    for t in 0..5 {
        if left[t] == 0 || (SOLVED && t == 1 && cell != GOAL_CELL) {
            continue;
        }
        let mask = if t == 0 { 1 << cell } else { SHAPE[t][cell] };
        if mask == 0 || mask & occupied != 0 {
            continue;
        }
        left[t] -= 1;
        fill::<SOLVED>(occupied | mask, code | (t as u64) << (3 * cell), left, visit);
        left[t] += 1;
    }
}

/// The codes of every layout of `set` in rank order ([`LayoutIndex`](crate::LayoutIndex): a layout's position
/// here is its rank).
pub fn layouts(set: PieceSet) -> Vec<u64> {
    let mut codes = Vec::new();
    for_each_layout(set, |code| codes.push(code));
    codes
}

/// Every `step`-th layout of each of the piece sets given (`(v, h, s)` counts), for tests
/// that check something layout by layout.
#[cfg(test)]
pub(crate) fn sampled(sets: &[(u8, u8, u8)], step: usize) -> Vec<Layout> {
    sets.iter()
        .flat_map(|&(vertical, horizontal, soldiers)| {
            layouts(PieceSet { vertical, horizontal, soldiers }).into_iter().step_by(step)
        })
        .map(|code| Layout::from_code(code).expect("an enumerated layout"))
        .collect()
}

/// Counts the legal layouts over all piece sets by enumeration ([`TOTAL_LAYOUTS`]).
///
/// ```
/// # // The full count takes a moment; check one piece set here.
/// use huarong::{enumerate, PieceSet};
/// let set = PieceSet { vertical: 4, horizontal: 1, soldiers: 4 };
/// assert_eq!(enumerate::layouts(set).len(), 65_880);
/// ```
pub fn count_all_layouts() -> u64 {
    PieceSet::all()
        .par_iter()
        .map(|&set| {
            let mut n = 0u64;
            for_each_layout(set, |_| n += 1);
            n
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_layouts_are_the_layouts_with_cao_cao_at_the_goal() {
        for set in PieceSet::all().into_iter().step_by(7) {
            let mut all = Vec::new();
            for_each_layout(set, |code| {
                if is_solved_code(code) {
                    all.push(code);
                }
            });
            let mut solved = Vec::new();
            for_each_solved_layout(set, |code| solved.push(code));
            assert_eq!(solved, all, "{set}");
        }
    }

    #[test]
    fn a_piece_set_that_does_not_fit_has_no_layouts() {
        assert!(layouts(PieceSet { vertical: 9, horizontal: 0, soldiers: 0 }).is_empty());
        assert!(layouts(PieceSet { vertical: 0, horizontal: 0, soldiers: 17 }).is_empty());
    }
}
