//! Survey of every legal layout: groups of mutually reachable layouts and every layout's
//! distance to a solution, per piece set (the layouts come from [`crate::enumerate`], the
//! tables go to a [`Database`] file).
//!
//! Within a piece set the layouts are numbered by an exact combinatorial index
//! ([`LayoutIndex`]: the rank in enumeration order, computed from small tables), so a distance
//! table is a plain byte array and no list of codes or hash map is needed. Distances come from
//! one multi-source breadth-first search backwards from every solved layout (moves are
//! reversible), over mirror classes (a layout and its left-right mirror image are equally far
//! from the symmetric goal); a neighbour's rank is found from its parent's by re-walking only
//! the cells the move changed ([`LayoutIndex`]'s rank walk). The same search finds the groups
//! of the solvable layouts (a union-find over the solved layouts, joined along the moves it
//! looks at: `groups.rs`), so only the few unsolvable layouts are flooded again. Piece sets
//! are surveyed in parallel with rayon, and so is each level of a big set's search.
//!
//! ```
//! use huarong::survey::SetSurvey;
//! use huarong::{Layout, PieceSet};
//! let survey = SetSurvey::run(PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
//! assert_eq!((survey.index.len(), survey.groups), (65_880, 898));
//! let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
//! assert_eq!(survey.distance_of(start), Some(81));
//! ```

use crate::board::mirror;
use crate::database::Database;
use crate::distance::{hardest, level_counts, Source, Table, Tables, UNSOLVABLE};
use crate::enumerate::for_each_solved_layout;
use crate::groups::{flipped, Label, SourceGroups};
use crate::index::{LayoutIndex, RankWalk};
use crate::layout::{Layout, PieceSet};
#[cfg(test)]
use crate::moves::Convention;
use crate::moves::{for_each_neighbor_mirrored, Neighbor, PIECE, UNIT};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// The survey of one piece set.
#[derive(Clone, Debug)]
pub struct SetSurvey {
    /// The pieces besides Cao Cao.
    pub set: PieceSet,
    /// Numbers the layouts: `distance[index.rank(layout)]`.
    pub index: LayoutIndex,
    /// Minimum piece-convention steps to a solution by rank, [`UNSOLVABLE`] if none.
    pub distance: Vec<u8>,
    /// Groups of mutually reachable layouts.
    pub groups: usize,
    /// Groups that contain a solved layout.
    pub solvable_groups: usize,
}

/// Frontier codes handed to one rayon task at a time.
const CHUNK: usize = 2048;

impl SetSurvey {
    /// Surveys every layout of `set`.
    pub fn run(set: PieceSet) -> SetSurvey {
        let index = LayoutIndex::new(set);
        let mut distance = vec![UNSOLVABLE; index.len()];
        let (groups, solvable_groups) = survey_part(&index, &mut distance);
        SetSurvey { set, index, distance, groups, solvable_groups }
    }

    /// Layouts that can be solved.
    pub fn solvable(&self) -> usize {
        self.distance.iter().filter(|&&d| d != UNSOLVABLE).count()
    }

    /// The largest finite distance and the layouts at it (none if nothing is solvable).
    pub fn hardest(&self) -> Option<(u8, Vec<Layout>)> {
        hardest(&[Table { index: &self.index, distance: &self.distance }])
    }

    /// The distance of a layout of this piece set (`None` for another piece set).
    pub fn distance_of(&self, layout: Layout) -> Option<u8> {
        self.index.rank(layout).map(|rank| self.distance[rank as usize])
    }
}

/// Distances and groups of one piece set's layouts, the distances written to `distance` (one
/// cell per layout): `(groups, solvable groups)`.
fn survey_part(index: &LayoutIndex, distance: &mut [u8]) -> (usize, usize) {
    let mut cells: Vec<AtomicU32> = (0..index.len()).map(|_| AtomicU32::new(UNREACHED)).collect();
    let solvable_groups = fill_distances(index, &cells);
    let groups = solvable_groups + unsolvable_groups(index, &mut cells);
    for (out, cell) in distance.iter_mut().zip(cells) {
        *out = cell.into_inner() as u8;
    }
    (groups, solvable_groups)
}

/// A layout's state while its piece set is surveyed: the distance in the low byte and, for
/// the smaller code of a mirror class, its label above (one load reads both: a move looks at
/// both, and the table is bigger than a core's cache).
type Cell = u32;

/// The label bits of a cell without a label (not reached, or not a class's smaller code).
const NO_LABEL: Label = (1 << 24) - 1;

/// A cell not reached yet.
const UNREACHED: Cell = cell(UNSOLVABLE, NO_LABEL);

const fn cell(distance: u8, label: Label) -> Cell {
    distance as u32 | label << 8
}

const fn label_of(cell: Cell) -> Label {
    cell >> 8
}

/// Every layout's distance: a multi-source BFS from the solved layouts, level by level, over
/// mirror classes (a layout and its mirror image are the same distance from the symmetric
/// goal, so only the smaller code of each pair is expanded and both get the distance).
/// Returns the solvable groups, joined along the moves the search looks at ([`SourceGroups`]).
///
/// (Searching the big levels backwards, from the layouts not reached yet, as
/// direction-optimising BFS does, was measured and is 3-4 times slower per level here: the
/// levels grow slowly, about 50,000 classes each in the biggest piece set, so most layouts
/// left are far from the frontier and try all of their 30-odd moves.)
fn fill_distances(index: &LayoutIndex, cells: &[AtomicU32]) -> usize {
    let mut frontier: Vec<u64> = Vec::new();
    for_each_solved_layout(index.set(), |code| {
        let rank = index.rank_code(code) as usize;
        let label = if code <= mirror(code) { SourceGroups::label(frontier.len()) } else { NO_LABEL };
        cells[rank].store(cell(0, label), Ordering::Relaxed);
        if label != NO_LABEL {
            frontier.push(code);
        }
    });
    let mut sources = SourceGroups::new(frontier.len());
    let rounds = index.set().empty_cells() as u32;
    let mut level = 0u8;
    while !frontier.is_empty() {
        level = level.checked_add(1).filter(|&l| l < UNSOLVABLE).expect("distances fit in a byte");
        frontier = push_level(Search { index, cells, sources: &sources, rounds }, &frontier, level);
        sources.flatten();
    }
    sources.count()
}

/// The rank walks of a class's code and of its mirror image: a neighbour's rank comes from
/// the first, its mirror image's from the second.
struct ClassWalks {
    code: RankWalk,
    mirrored: RankWalk,
}

impl ClassWalks {
    fn new(index: &LayoutIndex, code: u64, mirrored: u64) -> ClassWalks {
        ClassWalks { code: index.walk(code), mirrored: index.walk(mirrored) }
    }

    /// The rank of the neighbour `n.code`.
    #[inline(always)]
    fn rank(&self, index: &LayoutIndex, n: &Neighbor) -> u32 {
        index.rank_after_move(&self.code, n.code, n.t, n.from, n.to)
    }

    /// The rank of the neighbour's mirror image `n.mirrored`.
    #[inline(always)]
    fn mirror_rank(&self, index: &LayoutIndex, n: &Neighbor) -> u32 {
        index.rank_after_move(&self.mirrored, n.mirrored, n.t, n.mirrored_from, n.mirrored_to)
    }
}

/// What every level of [`fill_distances`] works on.
#[derive(Clone, Copy)]
struct Search<'a> {
    index: &'a LayoutIndex,
    cells: &'a [AtomicU32],
    sources: &'a SourceGroups,
    /// [`crate::moves::fill_rounds`] of the piece set.
    rounds: u32,
}

/// One level: every neighbour of the frontier (distance `level - 1`) not reached yet gets
/// `level` and the label of the class it was reached from; a neighbour reached before joins
/// the two labels. The frontier is split among rayon's threads; a class is claimed by one
/// atomic compare-and-swap, so it is queued once. Returns the classes reached.
fn push_level(search: Search, frontier: &[u64], level: u8) -> Vec<u64> {
    let Search { index, cells, sources, rounds } = search;
    let expand = |next: &mut Vec<u64>, code: u64| {
        let mirrored = mirror(code);
        let walks = ClassWalks::new(index, code, mirrored);
        let label = label_of(cells[walks.code.rank() as usize].load(Ordering::Relaxed));
        if code == mirrored {
            sources.close(label);
        }
        for_each_neighbor_mirrored::<PIECE>(code, mirrored, 0, rounds, |n| {
            let low = n.code <= n.mirrored;
            let (class, class_rank) =
                if low { (n.code, walks.rank(index, &n)) } else { (n.mirrored, walks.mirror_rank(index, &n)) };
            // The neighbour's class as reached by this move: turned over if its code is the
            // mirror image of the layout reached.
            let reached = flipped(label, !low);
            let at = &cells[class_rank as usize];
            let before = at.load(Ordering::Relaxed);
            if before == UNREACHED {
                if at.compare_exchange(UNREACHED, cell(level, reached), Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                    if n.code != n.mirrored {
                        let twin_rank = if low { walks.mirror_rank(index, &n) } else { walks.rank(index, &n) };
                        cells[twin_rank as usize].store(cell(level, NO_LABEL), Ordering::Relaxed);
                    }
                    next.push(class);
                }
                // Else another thread reached it on this level, and may have done so with
                // another label: the move is looked at again when that class is expanded.
            } else if (before as u8) < level {
                // Labelled on an earlier level (the threads of that level have joined).
                sources.join(reached, label_of(before));
            }
        });
    };
    if frontier.len() <= CHUNK {
        let mut next = Vec::new();
        frontier.iter().for_each(|&code| expand(&mut next, code));
        return next;
    }
    frontier
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut next = Vec::new();
            chunk.iter().for_each(|&code| expand(&mut next, code));
            next
        })
        .reduce(Vec::new, concatenate)
}

/// Joins two parts of a level, copying the smaller.
fn concatenate(mut all: Vec<u64>, mut part: Vec<u64>) -> Vec<u64> {
    if all.len() < part.len() {
        std::mem::swap(&mut all, &mut part);
    }
    all.extend_from_slice(&part);
    all
}

/// The orientation bit of an [`unsolvable_groups`] stack entry.
const FLIPPED: u64 = 1 << 63;

/// Groups of the layouts no solved layout reaches: floods each mirror class's group (unit
/// moves connect the same layouts), marking each class in its cell's label bits with whether
/// the real layout reached is the class's code (0) or its mirror (1). A group of classes is
/// one real group if it holds a symmetric layout or some class is reached both ways (it
/// contains its own mirror image), else two.
fn unsolvable_groups(index: &LayoutIndex, cells: &mut [AtomicU32]) -> usize {
    let mut groups = 0;
    // Codes with the orientation in bit 63 (codes use 60 bits).
    let mut stack: Vec<u64> = Vec::new();
    for start in 0..index.len() {
        if *cells[start].get_mut() != UNREACHED {
            continue;
        }
        let code = index.code(start as u32);
        if code > mirror(code) {
            continue; // the class's smaller code starts its flood
        }
        let mut closed = false;
        *cells[start].get_mut() = cell(UNSOLVABLE, 0);
        stack.push(code);
        while let Some(entry) = stack.pop() {
            let (code, flipped) = (entry & !FLIPPED, (entry >> 63) as u32);
            let mirrored = mirror(code);
            closed |= mirrored == code;
            let walks = ClassWalks::new(index, code, mirrored);
            for_each_neighbor_mirrored::<UNIT>(code, mirrored, 0, 0, |n| {
                let low = n.code <= n.mirrored;
                let (class, j) =
                    if low { (n.code, walks.rank(index, &n)) } else { (n.mirrored, walks.mirror_rank(index, &n)) };
                let mark = flipped ^ u32::from(!low);
                let seen = cells[j as usize].get_mut();
                if *seen == UNREACHED {
                    *seen = cell(UNSOLVABLE, mark);
                    stack.push(class | u64::from(mark) << 63);
                } else {
                    closed |= label_of(*seen) != mark;
                }
            });
        }
        groups += if closed { 1 } else { 2 };
    }
    groups
}

/// What the survey keeps of one piece set once its tables are in the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetSummary {
    /// The pieces besides Cao Cao.
    pub set: PieceSet,
    /// Layouts.
    pub layouts: usize,
    /// Groups of mutually reachable layouts.
    pub groups: usize,
    /// Groups containing a solved layout.
    pub solvable_groups: usize,
    /// Layouts that can be solved.
    pub solvable: usize,
    /// The largest finite distance, with how many layouts need it and the first of them.
    pub hardest: Option<(u8, usize, Layout)>,
}

/// The whole survey: a summary per piece set and the distance database.
#[derive(Clone, Debug)]
pub struct Survey {
    /// One entry per piece set, in [`PieceSet::all`] order.
    pub sets: Vec<SetSummary>,
    /// The distance of every layout.
    pub database: Database,
}

impl Survey {
    /// Surveys every piece set in parallel (rayon); `progress` gets the number of layouts of each
    /// piece set as it finishes (from any thread).
    pub fn run(progress: &(dyn Fn(u64) + Sync)) -> Survey {
        Self::run_sets(&PieceSet::all(), progress)
    }

    /// Surveys the given piece sets only.
    pub fn run_sets(sets: &[PieceSet], progress: &(dyn Fn(u64) + Sync)) -> Survey {
        // Each index is built where it is used, so the tables of only the sets in flight are
        // in memory at a time.
        let sizes: Vec<usize> = sets.par_iter().map(|&set| LayoutIndex::new(set).len()).collect();
        // One buffer for every distance, cut into each set's part: the set's search ends by
        // writing its distances there (no copy of the whole at the end).
        let mut distances = vec![UNSOLVABLE; sizes.iter().sum()];
        let mut parts: Vec<(usize, &mut [u8])> = Vec::with_capacity(sets.len());
        let mut rest = distances.as_mut_slice();
        for (i, &size) in sizes.iter().enumerate() {
            let (part, after) = rest.split_at_mut(size);
            parts.push((i, part));
            rest = after;
        }
        // Biggest sets first so the last thread is not left with a giant.
        parts.sort_by_key(|(i, _)| std::cmp::Reverse(sizes[*i]));
        let mut done: Vec<(usize, SetSummary, Vec<u32>)> = parts
            .into_par_iter()
            .map(|(i, part)| {
                let index = LayoutIndex::new(sets[i]);
                let (groups, solvable_groups) = survey_part(&index, part);
                let levels = level_counts(part);
                let hardest = levels.len().checked_sub(1).map(|top| {
                    let at = (0..part.len()).filter(|&rank| part[rank] as usize == top);
                    // The smallest code at the top distance: the same example whatever the order.
                    let first = at.map(|rank| index.code(rank as u32)).min().expect("one at least");
                    (top as u8, levels[top] as usize, Layout::from_code_unchecked(first))
                });
                let summary = SetSummary {
                    set: sets[i],
                    layouts: sizes[i],
                    groups,
                    solvable_groups,
                    solvable: levels.iter().map(|&n| n as usize).sum(),
                    hardest,
                };
                progress(sizes[i] as u64);
                (i, summary, levels)
            })
            .collect();
        done.sort_by_key(|(i, _, _)| *i);
        let sets = sets.iter().zip(&sizes).map(|(&set, &size)| (set, size as u32)).collect();
        let (summaries, levels) = done.into_iter().map(|(_, summary, levels)| (summary, levels)).unzip();
        Survey { sets: summaries, database: Database { sets, levels, distances } }
    }

    /// Total layouts.
    pub fn layouts(&self) -> usize {
        self.sets.iter().map(|s| s.layouts).sum()
    }

    /// Total groups.
    pub fn groups(&self) -> usize {
        self.sets.iter().map(|s| s.groups).sum()
    }

    /// Total solvable layouts.
    pub fn solvable(&self) -> usize {
        self.sets.iter().map(|s| s.solvable).sum()
    }

    /// The distance tables of the surveyed sets, cut out of the database's one buffer.
    pub fn tables(&self) -> Tables {
        let mut tables = Vec::new();
        let mut at = 0;
        for &(set, count) in &self.database.sets {
            let distance = self.database.distances[at..at + count as usize].to_vec();
            at += count as usize;
            tables.push((LayoutIndex::new(set), distance));
        }
        Tables { sets: tables, source: Source::Search }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::layouts;

    #[test]
    fn small_set_distances_match_the_solver() {
        let set = PieceSet { vertical: 0, horizontal: 1, soldiers: 2 };
        let survey = SetSurvey::run(set);
        assert!(survey.index.len() > 1000);
        for &code in layouts(set).iter().step_by(97) {
            let layout = Layout::from_code(code).unwrap();
            let solved = crate::solve(layout, Convention::Piece).steps.map(|s| s as u8);
            assert_eq!(survey.distance_of(layout), Some(solved.unwrap_or(UNSOLVABLE)));
        }
    }

    /// Groups and solvable groups against a plain flood over real layouts (no mirror
    /// classes, no union-find), on piece sets with one group and with many.
    #[test]
    fn groups_match_a_plain_flood() {
        let mut unsolvable_groups = 0;
        for (vertical, horizontal, soldiers) in [(0, 1, 2), (2, 0, 3), (1, 2, 2), (3, 1, 2), (4, 1, 2), (2, 2, 4)] {
            let set = PieceSet { vertical, horizontal, soldiers };
            let mut seen = std::collections::HashSet::new();
            let (mut groups, mut solvable_groups) = (0, 0);
            for code in layouts(set) {
                let start = Layout::from_code(code).unwrap();
                if !seen.insert(start) {
                    continue;
                }
                let (mut stack, mut solvable) = (vec![start], false);
                while let Some(at) = stack.pop() {
                    solvable |= at.is_solved();
                    for (_, next) in at.moves(Convention::Unit) {
                        if seen.insert(next) {
                            stack.push(next);
                        }
                    }
                }
                groups += 1;
                solvable_groups += usize::from(solvable);
            }
            let survey = SetSurvey::run(set);
            assert_eq!((survey.groups, survey.solvable_groups), (groups, solvable_groups), "{set}");
            unsolvable_groups += groups - solvable_groups;
        }
        // The last two sets have 10 and 70 groups that cannot be solved (the others one group).
        assert_eq!(unsolvable_groups, 80);
    }

    #[test]
    fn database_round_trip() {
        let sets = [
            PieceSet { vertical: 1, horizontal: 0, soldiers: 1 },
            PieceSet { vertical: 0, horizontal: 0, soldiers: 2 },
        ];
        let survey = Survey::run_sets(&sets, &|_| {});
        let mut file = Vec::new();
        survey.database.write(&mut file).unwrap();
        let mut cursor = std::io::Cursor::new(file);
        let db = Database::read_header(&mut cursor).unwrap();
        assert_eq!(db.sets, survey.database.sets);
        assert_eq!(db.levels, survey.database.levels);
        let first = db.read_set(&mut cursor, sets[0]).unwrap().unwrap();
        assert_eq!(db.levels[0], level_counts(&first));
        assert_eq!(db.layouts_at(0, &(0..=254)), first.iter().filter(|&&d| d != UNSOLVABLE).count() as u64);
        let layout = Layout::parse("SV../.V../CC../CC../....").unwrap();
        let expected = crate::solve(layout, Convention::Piece).steps.unwrap() as u8;
        assert_eq!(db.lookup(&mut cursor, layout).unwrap(), Some(expected));
        let other = Layout::parse("VCCV/VCCV/VHHV/VSSV/S..S").unwrap();
        assert_eq!(db.lookup(&mut cursor, other).unwrap(), None);
    }
}
