//! The early-exit search gives the same minimum (and a path of that length that really
//! solves) as the full search, on thousands of random layouts of random piece sets.

use huarong::{shortest, solve, Convention, Layout, PieceSet};
use proptest::prelude::*;

/// A layout of `set` built by filling cells in row-major order with pieces chosen by `picks`
/// (each first uncovered cell takes the first piece, in the rotated order, that fits and is
/// left; the 2x2 block is placed first where it fits). `None` when the choices dead-end.
fn layout_from(set: PieceSet, cao: usize, picks: &[u8]) -> Option<Layout> {
    let mut grid = ['.'; 20];
    let covers = |r: usize, c: usize, h: usize, w: usize, grid: &[char; 20]| {
        r + h <= 5 && c + w <= 4 && (0..h).all(|dr| (0..w).all(|dc| grid[(r + dr) * 4 + c + dc] == '.'))
    };
    let put = |r: usize, c: usize, h: usize, w: usize, letter: char, grid: &mut [char; 20]| {
        for dr in 0..h {
            for dc in 0..w {
                grid[(r + dr) * 4 + c + dc] = letter;
            }
        }
    };
    let (cr, cc) = (cao / 3, cao % 3);
    put(cr, cc, 2, 2, 'C', &mut grid);
    let mut left = [set.vertical as usize, set.horizontal as usize, set.soldiers as usize];
    let mut taken = [false; 20];
    let mut pick = picks.iter().cycle();
    for cell in 0..20 {
        if grid[cell] != '.' || taken[cell] {
            continue;
        }
        let (r, c) = (cell / 4, cell % 4);
        let first = *pick.next().unwrap() as usize % 4;
        let mut placed = false;
        for k in 0..4 {
            match (first + k) % 4 {
                0 if left[0] > 0 && covers(r, c, 2, 1, &grid) => {
                    put(r, c, 2, 1, 'V', &mut grid);
                    left[0] -= 1;
                }
                1 if left[1] > 0 && covers(r, c, 1, 2, &grid) => {
                    put(r, c, 1, 2, 'H', &mut grid);
                    left[1] -= 1;
                }
                2 if left[2] > 0 => {
                    put(r, c, 1, 1, 'S', &mut grid);
                    left[2] -= 1;
                }
                3 => taken[cell] = true, // stays empty
                _ => continue,
            }
            placed = true;
            break;
        }
        if !placed {
            return None;
        }
    }
    let rows: Vec<String> = grid.chunks(4).map(|row| row.iter().collect()).collect();
    rows.join("/").parse().ok()
}

fn check(start: Layout, convention: Convention) {
    let full = solve(start, convention);
    let found = shortest(start, convention);
    assert_eq!(found.steps, full.steps, "{start} {convention}");
    assert_eq!(found.path.len(), full.path.len(), "{start} {convention}");
    let mut at = start;
    for step in &found.path {
        assert!(at.moves(convention).contains(&(step.mv, step.layout)), "{start} {convention}");
        at = step.layout;
    }
    assert_eq!(at.is_solved(), found.steps.is_some(), "{start} {convention}");
}

/// A random layout with two to four empty cells, as in every classic (more empty cells make
/// groups of hundreds of thousands of layouts, too slow for a test of thousands of cases).
fn random_start(generals: u8, vertical_share: u8, extra_empty: u8, cao: usize, picks: &[u8]) -> Option<Layout> {
    let vertical = vertical_share.min(generals);
    // Seven generals fill 14 cells: no room for extra empty ones (`None`, not an underflow).
    let soldiers = (14 - 2 * generals).checked_sub(extra_empty)?;
    layout_from(PieceSet { vertical, horizontal: generals - vertical, soldiers }, cao, picks)
}

/// One test per convention, 500 layouts each (1,500 in all), so that they share the cores.
macro_rules! early_exit_equals_the_full_search {
    ($name:ident, $convention:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]

            #[test]
            fn $name(
                generals in 0u8..=7, vertical_share in 0u8..=7, extra_empty in 0u8..=2, cao in 0usize..12,
                picks in proptest::collection::vec(any::<u8>(), 1..20),
            ) {
                if let Some(start) = random_start(generals, vertical_share, extra_empty, cao, &picks) {
                    check(start, $convention);
                }
            }
        }
    };
}

early_exit_equals_the_full_search!(early_exit_equals_the_full_search_piece, Convention::Piece);
early_exit_equals_the_full_search!(early_exit_equals_the_full_search_straight, Convention::Straight);
early_exit_equals_the_full_search!(early_exit_equals_the_full_search_unit, Convention::Unit);
