//! Survey of every legal layout: enumeration per piece set, groups of mutually reachable
//! layouts, every layout's distance to a solution, and a one-byte-per-layout database.
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

use crate::board::{mirror, FULL, GOAL_CELL, SHAPE};
use crate::groups::{flipped, Label, SourceGroups};
#[cfg(test)]
use crate::layout::is_solved_code;
use crate::layout::{Layout, PieceSet};
#[cfg(test)]
use crate::moves::Convention;
use crate::moves::{for_each_neighbor_mirrored, Neighbor, PIECE, UNIT};
use rayon::prelude::*;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU32, Ordering};

pub use crate::index::LayoutIndex;
use crate::index::RankWalk;

/// Legal layouts on the board, over all piece sets.
pub const TOTAL_LAYOUTS: u64 = 29_334_498;

/// Distance byte of a layout that cannot be solved.
pub const UNSOLVABLE: u8 = u8::MAX;

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

/// The codes of every layout of `set` in rank order ([`LayoutIndex`]: a layout's position
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
/// use huarong::{survey, PieceSet};
/// let set = PieceSet { vertical: 4, horizontal: 1, soldiers: 4 };
/// assert_eq!(survey::layouts(set).len(), 65_880);
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
        crate::puzzle::hardest(&[crate::puzzle::Table { index: &self.index, distance: &self.distance }])
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
}

/// Every layout's distance, one byte each, grouped by piece set.
///
/// File format (little-endian): `QIHRDB02`, u32 number of piece sets, then per set
/// `vertical, horizontal, soldiers, L` bytes, a u32 layout count and L u32 counts of the
/// layouts at distance 0, 1 ... L - 1 (L - 1 is the set's largest distance; the rest are
/// unsolvable); then the distance bytes of each set in order, by rank ([`LayoutIndex`], the
/// order of [`layouts`]); 255 = unsolvable. The counts let a reader choose a set for a
/// puzzle of some difficulty from the header alone. (Version 01 had no counts and ordered
/// each set by sorted code; it is refused with a hint to survey again.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Database {
    /// Piece sets with their layout counts, in file order.
    pub sets: Vec<(PieceSet, u32)>,
    /// Per set (same order), how many layouts are at each distance from 0 to the largest.
    pub levels: Vec<Vec<u32>>,
    /// The distance bytes (may be empty for a database opened for lookups only).
    pub distances: Vec<u8>,
}

const MAGIC: &[u8; 8] = b"QIHRDB02";
/// The first version's magic.
const MAGIC_01: &[u8; 8] = b"QIHRDB01";

/// Why a database cannot be used.
fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("not a Huarong Dao database: {what}"))
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

impl Database {
    fn header_len(&self) -> u64 {
        12 + self.levels.iter().map(|l| 8 + 4 * l.len() as u64).sum::<u64>()
    }

    /// Writes the database.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(MAGIC)?;
        out.write_all(&(self.sets.len() as u32).to_le_bytes())?;
        for ((set, count), levels) in self.sets.iter().zip(&self.levels) {
            out.write_all(&[set.vertical, set.horizontal, set.soldiers, levels.len() as u8])?;
            out.write_all(&count.to_le_bytes())?;
            for level in levels {
                out.write_all(&level.to_le_bytes())?;
            }
        }
        out.write_all(&self.distances)
    }

    /// Reads the header only (for [`Database::lookup`] and [`Database::read_set`]).
    ///
    /// # Errors
    /// The magic bytes are wrong (or of version 01), the header is cut short, or it lists an
    /// impossible piece set, one twice, more layouts than exist, or more layouts at some
    /// distance than the set has.
    pub fn read_header(input: &mut impl Read) -> io::Result<Database> {
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic)?;
        if &magic == MAGIC_01 {
            return Err(invalid("an older version (QIHRDB01): run `qi huarong survey` again"));
        }
        if &magic != MAGIC {
            return Err(invalid("wrong magic bytes"));
        }
        let mut word = [0u8; 4];
        input.read_exact(&mut word)?;
        let n = u32::from_le_bytes(word);
        if n > 1000 {
            return Err(invalid("too many piece sets"));
        }
        let mut database = Database::default();
        let mut total = 0u64;
        for _ in 0..n {
            let mut entry = [0u8; 8];
            input.read_exact(&mut entry)?;
            let set = PieceSet { vertical: entry[0], horizontal: entry[1], soldiers: entry[2] };
            let count = u32::from_le_bytes([entry[4], entry[5], entry[6], entry[7]]);
            if set.empty_cells() < 2 {
                return Err(invalid("a piece set that leaves fewer than two empty cells"));
            }
            if database.sets.iter().any(|&(s, _)| s == set) {
                return Err(invalid("a piece set listed twice"));
            }
            total += u64::from(count);
            if total > TOTAL_LAYOUTS {
                return Err(invalid("more layouts than there are"));
            }
            let mut levels = Vec::with_capacity(entry[3] as usize);
            let mut at_levels = 0u64;
            for _ in 0..entry[3] {
                input.read_exact(&mut word)?;
                let level = u32::from_le_bytes(word);
                at_levels += u64::from(level);
                levels.push(level);
            }
            if at_levels > u64::from(count) || entry[3] == UNSOLVABLE {
                return Err(invalid("more layouts at some distance than the piece set has"));
            }
            database.sets.push((set, count));
            database.levels.push(levels);
        }
        Ok(database)
    }

    /// Layouts of the `i`-th set (file order) whose distance is in `steps` (from the header).
    pub fn layouts_at(&self, i: usize, steps: &RangeInclusive<u8>) -> u64 {
        self.levels[i].iter().enumerate().filter(|(d, _)| steps.contains(&(*d as u8))).map(|(_, &c)| u64::from(c)).sum()
    }

    /// The distance bytes of every layout of `set` (by rank, see [`layouts`]) read from the
    /// file behind `input`; `Ok(None)` when the set is not in the database.
    ///
    /// # Errors
    /// Reading fails, or the file ends early.
    pub fn read_set(&self, input: &mut (impl Read + Seek), set: PieceSet) -> io::Result<Option<Vec<u8>>> {
        let mut offset = self.header_len();
        for &(s, count) in &self.sets {
            if s == set {
                input.seek(SeekFrom::Start(offset))?;
                let mut bytes = vec![0u8; count as usize];
                input.read_exact(&mut bytes)?;
                return Ok(Some(bytes));
            }
            offset += count as u64;
        }
        Ok(None)
    }

    /// The distance byte of `layout` read from the file behind `input`: `Ok(None)` when its
    /// piece set is not in the database, else `Some(distance)` with [`UNSOLVABLE`] for none.
    pub fn lookup(&self, input: &mut (impl Read + Seek), layout: Layout) -> io::Result<Option<u8>> {
        let set = layout.piece_set();
        let mut offset = self.header_len();
        for &(s, count) in &self.sets {
            if s == set {
                let index = LayoutIndex::new(set);
                if index.len() != count as usize {
                    return Err(invalid("piece set size differs from this program's enumeration"));
                }
                let rank = index.rank(layout).expect("the layout has this piece set");
                input.seek(SeekFrom::Start(offset + u64::from(rank)))?;
                let mut byte = [0u8; 1];
                input.read_exact(&mut byte)?;
                return Ok(Some(byte[0]));
            }
            offset += count as u64;
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_first_version_is_refused_with_a_hint() {
        let mut old = b"QIHRDB01".to_vec();
        old.extend_from_slice(&0u32.to_le_bytes());
        let err = Database::read_header(&mut io::Cursor::new(old)).unwrap_err();
        assert!(err.to_string().contains("survey` again"), "{err}");
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
        let mut cursor = io::Cursor::new(file);
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
