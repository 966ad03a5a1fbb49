//! Distance tables: each layout's minimum number of steps to a solution (piece convention),
//! one byte per layout by rank, as the survey finds them and the database stores them; and
//! what is read off them (the hardest layouts, the count at each distance).
//!
//! The survey ([`crate::survey`]) writes tables, the database ([`crate::database`]) stores
//! and reads them, puzzles ([`crate::puzzle`]) pick from them; this module is all they share.

use crate::index::LayoutIndex;
use crate::layout::Layout;

/// Distance byte of a layout that cannot be solved.
pub const UNSOLVABLE: u8 = u8::MAX;

/// The distance table of one piece set: the distance of each layout by rank
/// ([`UNSOLVABLE`] for none), as [`crate::survey::SetSurvey`] and the database hold them.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// Numbers the piece set's layouts.
    pub index: &'a LayoutIndex,
    /// Distance by rank (one per layout of `index`).
    pub distance: &'a [u8],
}

/// Where a set of [`Tables`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from a survey database file.
    Database,
    /// Searched here ([`crate::survey::Survey::run_sets`]).
    Search,
}

impl Source {
    /// `database` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Database => "database",
            Source::Search => "search",
        }
    }
}

/// Distance tables of several piece sets, owned: each set's index with its distances.
#[derive(Clone, Debug)]
pub struct Tables {
    /// One entry per piece set: its index and the distance of each of its layouts by rank.
    pub sets: Vec<(LayoutIndex, Vec<u8>)>,
    /// Where they came from.
    pub source: Source,
}

impl Tables {
    /// Borrowed views of the tables, for [`crate::puzzle::pick`] and [`hardest`].
    pub fn views(&self) -> Vec<Table<'_>> {
        self.sets.iter().map(|(index, distance)| Table { index, distance }).collect()
    }
}

/// The hardest layouts of `tables`: the largest finite distance and every layout at it.
pub fn hardest(tables: &[Table<'_>]) -> Option<(u8, Vec<Layout>)> {
    let max = tables.iter().flat_map(|t| t.distance.iter().copied()).filter(|&d| d != UNSOLVABLE).max()?;
    let mut layouts: Vec<Layout> = tables
        .iter()
        .flat_map(|t| {
            let at = t.distance.iter().enumerate().filter(|&(_, &d)| d == max);
            at.filter_map(|(rank, _)| t.index.layout(rank as u32))
        })
        .collect();
    // By code, whatever the order of the tables' ranks.
    layouts.sort_unstable();
    Some((max, layouts))
}

/// How many layouts are at each distance from 0 to the largest finite one.
pub(crate) fn level_counts(distance: &[u8]) -> Vec<u32> {
    let mut counts = [0u32; 256];
    for &d in distance {
        counts[d as usize] += 1;
    }
    let levels = counts[..UNSOLVABLE as usize].iter().rposition(|&c| c != 0).map_or(0, |last| last + 1);
    counts[..levels].to_vec()
}
