//! Puzzles by difficulty: a layout whose minimum is a given number of steps, picked from
//! distance tables ([`crate::distance`]: the survey's or the database's), or from the small
//! list shipped with the crate.
//!
//! ```
//! use huarong::puzzle::{self, SplitMix64};
//! use huarong::{shortest, Convention};
//! let mut random = SplitMix64::new(7);
//! let (layout, steps) = puzzle::pick_shipped(40..=60, None, random.next_u64()).unwrap();
//! assert!((40..=60).contains(&steps));
//! assert_eq!(shortest(layout, Convention::Piece).steps, Some(steps as usize));
//! ```

use crate::distance::{Table, UNSOLVABLE};
use crate::layout::{Layout, PieceSet};
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// A small, fast pseudo-random generator (SplitMix64): the same seed gives the same puzzles
/// on every machine, which is what a daily puzzle needs.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A seed from a text (a date such as `2026-12-01` for the daily puzzle): FNV-1a.
    pub fn seed_from(text: &str) -> u64 {
        text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3))
    }
}

/// A layout picked uniformly among all layouts of `tables` whose distance is in `steps`, with
/// its distance; `None` when there is none. `random` chooses which.
///
/// # Panics
/// If a table's `distance` does not have one entry per layout of its `index`.
pub fn pick(tables: &[Table<'_>], steps: RangeInclusive<u8>, random: u64) -> Option<(Layout, u8)> {
    let wanted = |d: u8| d != UNSOLVABLE && steps.contains(&d);
    let counts: Vec<u64> = tables
        .iter()
        .map(|t| {
            assert_eq!(t.index.len(), t.distance.len(), "one distance per layout");
            t.distance.iter().filter(|&&d| wanted(d)).count() as u64
        })
        .collect();
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let mut index = random % total;
    for (table, &count) in tables.iter().zip(&counts) {
        if index >= count {
            index -= count;
            continue;
        }
        let (rank, &d) = table.distance.iter().enumerate().filter(|&(_, &d)| wanted(d)).nth(index as usize)?;
        return Some((table.index.layout(rank as u32)?, d));
    }
    None
}

/// The shipped list: `data/puzzles.tsv`, made by `qi huarong puzzles` from the survey of the
/// classic family (Cao Cao, five generals, four soldiers, two empty cells).
const SHIPPED_TSV: &str = include_str!("../data/puzzles.tsv");

/// The shipped puzzles as (minimum steps, layout), sorted by steps: a few layouts for every
/// minimum from 1 to 138 steps, so that a program without the 29 MB database (the web page)
/// can offer puzzles of any difficulty.
pub fn shipped() -> &'static [(u8, Layout)] {
    static LIST: OnceLock<Vec<(u8, Layout)>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<(u8, Layout)> = SHIPPED_TSV
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let (steps, grid) = line.split_once('\t').expect("steps<TAB>layout");
                (steps.parse().expect("steps"), grid.parse().expect("a legal layout"))
            })
            .collect();
        list.sort();
        list
    })
}

/// A shipped puzzle whose minimum is in `steps`, of the piece set `set` if given; `random`
/// chooses which.
pub fn pick_shipped(steps: RangeInclusive<u8>, set: Option<PieceSet>, random: u64) -> Option<(Layout, u8)> {
    let fits: Vec<&(u8, Layout)> = shipped()
        .iter()
        .filter(|(d, layout)| steps.contains(d) && set.map_or(true, |s| layout.piece_set() == s))
        .collect();
    if fits.is_empty() {
        return None;
    }
    let &(d, layout) = fits[(random % fits.len() as u64) as usize];
    Some((layout, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::hardest;
    use crate::{shortest, Convention};

    #[test]
    fn every_shipped_puzzle_needs_its_listed_steps() {
        let list = shipped();
        assert!(list.len() > 300);
        for &(steps, layout) in list {
            assert_eq!(shortest(layout, Convention::Piece).steps, Some(steps as usize), "{layout}");
        }
        for steps in 1..=138 {
            assert!(list.iter().any(|&(d, _)| d == steps), "no puzzle of {steps} steps");
        }
    }

    #[test]
    fn picks_are_uniform_over_the_range_and_repeatable() {
        let set = PieceSet { vertical: 0, horizontal: 1, soldiers: 2 };
        let survey = crate::survey::SetSurvey::run(set);
        let table = Table { index: &survey.index, distance: &survey.distance };
        let mut random = SplitMix64::new(1);
        for _ in 0..50 {
            let (layout, d) = pick(&[table], 5..=9, random.next_u64()).unwrap();
            assert!((5..=9).contains(&d));
            assert_eq!(survey.distance_of(layout), Some(d));
        }
        assert_eq!(pick(&[table], 200..=210, 3), None);
        assert_eq!(pick(&[table], 3..=3, 42), pick(&[table], 3..=3, 42));
        let (max, at) = hardest(&[table]).unwrap();
        assert_eq!(survey.hardest(), Some((max, at)));
    }

    #[test]
    fn daily_seeds_differ_by_date() {
        assert_ne!(SplitMix64::seed_from("2026-12-01"), SplitMix64::seed_from("2026-12-02"));
        assert_eq!(SplitMix64::new(5).next_u64(), SplitMix64::new(5).next_u64());
    }
}
