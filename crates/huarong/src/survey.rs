//! Survey of every legal layout: enumeration per piece set, groups of mutually reachable
//! layouts, every layout's distance to a solution, and a one-byte-per-layout database.
//!
//! Within a piece set the layouts are indexed by their rank in the sorted list of codes, so a
//! distance table is a plain byte array. Distances come from one multi-source breadth-first
//! search backwards from every solved layout (moves are reversible), over mirror classes (a
//! layout and its left-right mirror image are equally far from the symmetric goal); piece
//! sets are surveyed in parallel with rayon.
//!
//! ```
//! use huarong::survey::SetSurvey;
//! use huarong::{Layout, PieceSet};
//! let survey = SetSurvey::run(PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
//! assert_eq!((survey.codes.len(), survey.groups), (65_880, 898));
//! let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
//! assert_eq!(survey.distance_of(start), Some(81));
//! ```

use crate::board::{mirror, FULL, SHAPE};
use crate::layout::{is_solved_code, Layout, PieceSet};
#[cfg(test)]
use crate::moves::Convention;
use crate::moves::{for_each_neighbor_mirrored, PIECE, UNIT};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::io::{self, Read, Seek, SeekFrom, Write};

pub use crate::index::LayoutIndex;

/// Legal layouts on the board, over all piece sets.
pub const TOTAL_LAYOUTS: u64 = 29_334_498;

/// Distance byte of a layout that cannot be solved.
pub const UNSOLVABLE: u8 = u8::MAX;

/// Calls `visit` with the code of every layout of `set` (row-major, each first uncovered cell
/// takes a piece's top-left or stays empty).
pub fn for_each_layout(set: PieceSet, mut visit: impl FnMut(u64)) {
    let mut left = [set.empty_cells() as u8, 1, set.vertical, set.horizontal, set.soldiers];
    fill(0, 0, &mut left, &mut visit);
}

fn fill(occupied: u32, code: u64, left: &mut [u8; 5], visit: &mut impl FnMut(u64)) {
    if occupied == FULL {
        // Only a full use of the piece set counts (matters for sets that cannot fill the board).
        if left.iter().all(|&n| n == 0) {
            visit(code);
        }
        return;
    }
    let cell = (!occupied & FULL).trailing_zeros() as usize;
    for t in 0..5 {
        if left[t] == 0 {
            continue;
        }
        let mask = if t == 0 { 1 << cell } else { SHAPE[t][cell] };
        if mask == 0 || mask & occupied != 0 {
            continue;
        }
        left[t] -= 1;
        fill(occupied | mask, code | (t as u64) << (3 * cell), left, visit);
        left[t] += 1;
    }
}

/// The codes of every layout of `set`, sorted (a layout's index is its rank).
pub fn layouts(set: PieceSet) -> Vec<u64> {
    let mut codes = Vec::new();
    for_each_layout(set, |code| codes.push(code));
    codes.sort_unstable();
    codes
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
    /// Sorted codes; index = rank.
    pub codes: Vec<u64>,
    /// Minimum piece-convention steps to a solution by rank, [`UNSOLVABLE`] if none.
    pub distance: Vec<u8>,
    /// Groups of mutually reachable layouts.
    pub groups: usize,
    /// Groups that contain a solved layout.
    pub solvable_groups: usize,
}

impl SetSurvey {
    /// Surveys every layout of `set`.
    pub fn run(set: PieceSet) -> SetSurvey {
        let codes = layouts(set);
        // A hash index beats a binary search here: one cache miss instead of ~20.
        let index: FxHashMap<u64, u32> = codes.iter().enumerate().map(|(i, &code)| (code, i as u32)).collect();
        let rank = |code: u64| index[&code];
        let n = codes.len();

        // Multi-source BFS from every solved layout, level by level, over mirror classes: a
        // layout and its mirror image are the same distance from the (symmetric) goal, so only
        // the smaller code of each pair is expanded and both get the distance.
        let mut distance = vec![UNSOLVABLE; n];
        let mut frontier: Vec<u32> = Vec::new();
        for (i, &code) in codes.iter().enumerate() {
            if is_solved_code(code) {
                distance[i] = 0;
                if code <= mirror(code) {
                    frontier.push(i as u32);
                }
            }
        }
        let mut level = 0u8;
        let mut next = Vec::new();
        while !frontier.is_empty() {
            level = level.checked_add(1).filter(|&l| l < UNSOLVABLE).expect("distances fit in a byte");
            for &i in &frontier {
                let code = codes[i as usize];
                for_each_neighbor_mirrored::<PIECE>(code, mirror(code), 0, |n| {
                    let (class, twin) = if n.code <= n.mirrored { (n.code, n.mirrored) } else { (n.mirrored, n.code) };
                    let j = rank(class);
                    if distance[j as usize] == UNSOLVABLE {
                        distance[j as usize] = level;
                        if twin != class {
                            distance[rank(twin) as usize] = level;
                        }
                        next.push(j);
                    }
                });
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }

        // Groups: flood each mirror class's group (unit moves connect the same layouts),
        // remembering for each class whether the real layout reached is the class's code or
        // its mirror. A group of classes is one real group if it holds a symmetric layout or
        // some class is reached both ways (it contains its own mirror image), else two.
        const UNSEEN: u8 = 0;
        let mut seen = vec![UNSEEN; n]; // 1 + orientation once seen
        let (mut groups, mut solvable_groups) = (0, 0);
        let mut stack = Vec::new();
        for start in 0..n {
            let code = codes[start];
            if seen[start] != UNSEEN || code > mirror(code) {
                continue;
            }
            let mut closed = false;
            seen[start] = 1;
            stack.push(start as u32);
            while let Some(i) = stack.pop() {
                let code = codes[i as usize];
                let flipped = seen[i as usize] - 1;
                let mirrored = mirror(code);
                closed |= mirrored == code;
                for_each_neighbor_mirrored::<UNIT>(code, mirrored, 0, |n| {
                    let class = n.code.min(n.mirrored);
                    let tag = 1 + (flipped ^ u8::from(class != n.code));
                    let j = rank(class) as usize;
                    if seen[j] == UNSEEN {
                        seen[j] = tag;
                        stack.push(j as u32);
                    } else {
                        closed |= seen[j] != tag;
                    }
                });
            }
            let real = if closed { 1 } else { 2 };
            groups += real;
            if distance[start] != UNSOLVABLE {
                solvable_groups += real;
            }
        }
        SetSurvey { set, codes, distance, groups, solvable_groups }
    }

    /// Layouts that can be solved.
    pub fn solvable(&self) -> usize {
        self.distance.iter().filter(|&&d| d != UNSOLVABLE).count()
    }

    /// The largest finite distance and the layouts at it (none if nothing is solvable).
    pub fn hardest(&self) -> Option<(u8, Vec<Layout>)> {
        let max = self.distance.iter().copied().filter(|&d| d != UNSOLVABLE).max()?;
        let at = self
            .distance
            .iter()
            .zip(&self.codes)
            .filter(|&(&d, _)| d == max)
            .map(|(_, &c)| Layout::from_code_unchecked(c))
            .collect();
        Some((max, at))
    }

    /// The distance of a layout of this piece set.
    pub fn distance_of(&self, layout: Layout) -> Option<u8> {
        self.codes.binary_search(&layout.code()).ok().map(|i| self.distance[i])
    }
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
        // Biggest sets first so the last thread is not left with a giant.
        let mut order: Vec<usize> = (0..sets.len()).collect();
        let sizes: Vec<usize> = sets.par_iter().map(|&s| estimate(s)).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
        let mut done: Vec<(usize, SetSummary, Vec<u8>)> = order
            .into_par_iter()
            .map(|i| {
                let survey = SetSurvey::run(sets[i]);
                let summary = SetSummary {
                    set: survey.set,
                    layouts: survey.codes.len(),
                    groups: survey.groups,
                    solvable_groups: survey.solvable_groups,
                    solvable: survey.solvable(),
                    hardest: survey.hardest().map(|(d, at)| (d, at.len(), at[0])),
                };
                progress(survey.codes.len() as u64);
                (i, summary, survey.distance)
            })
            .collect();
        done.sort_by_key(|(i, _, _)| *i);
        let mut database = Database { sets: Vec::new(), distances: Vec::new() };
        let mut summaries = Vec::new();
        for (_, summary, distance) in done {
            database.sets.push((summary.set, distance.len() as u32));
            database.distances.extend_from_slice(&distance);
            summaries.push(summary);
        }
        Survey { sets: summaries, database }
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

/// A rough size for scheduling: the number of symbol orders (an upper bound on layouts).
fn estimate(set: PieceSet) -> usize {
    let counts = [set.empty_cells(), 1, set.vertical as usize, set.horizontal as usize, set.soldiers as usize];
    let mut total: f64 = 1.0;
    let mut placed = 0;
    for c in counts {
        for k in 1..=c {
            placed += 1;
            total = total * placed as f64 / k as f64;
        }
    }
    total as usize
}

/// Every layout's distance, one byte each, grouped by piece set.
///
/// File format (little-endian): `QIHRDB01`, u32 number of piece sets, then per set
/// `vertical, horizontal, soldiers, 0` bytes and a u32 layout count, then the distance bytes
/// of each set in order, by rank ([`layouts`]); 255 = unsolvable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Database {
    /// Piece sets with their layout counts, in file order.
    pub sets: Vec<(PieceSet, u32)>,
    /// The distance bytes (may be empty for a database opened for lookups only).
    pub distances: Vec<u8>,
}

const MAGIC: &[u8; 8] = b"QIHRDB01";

/// Why a database cannot be used.
fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("not a Huarong Dao database: {what}"))
}

impl Database {
    fn header_len(&self) -> u64 {
        12 + 8 * self.sets.len() as u64
    }

    /// Writes the database.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(MAGIC)?;
        out.write_all(&(self.sets.len() as u32).to_le_bytes())?;
        for (set, count) in &self.sets {
            out.write_all(&[set.vertical, set.horizontal, set.soldiers, 0])?;
            out.write_all(&count.to_le_bytes())?;
        }
        out.write_all(&self.distances)
    }

    /// Reads the header only (for [`Database::lookup`] and [`Database::read_set`]).
    ///
    /// # Errors
    /// The magic bytes are wrong, the header is cut short, or it lists an impossible piece
    /// set, one twice, or more layouts than exist.
    pub fn read_header(input: &mut impl Read) -> io::Result<Database> {
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(invalid("wrong magic bytes"));
        }
        let mut word = [0u8; 4];
        input.read_exact(&mut word)?;
        let n = u32::from_le_bytes(word);
        if n > 1000 {
            return Err(invalid("too many piece sets"));
        }
        let mut sets: Vec<(PieceSet, u32)> = Vec::new();
        let mut total = 0u64;
        for _ in 0..n {
            let mut entry = [0u8; 8];
            input.read_exact(&mut entry)?;
            let set = PieceSet { vertical: entry[0], horizontal: entry[1], soldiers: entry[2] };
            let count = u32::from_le_bytes([entry[4], entry[5], entry[6], entry[7]]);
            if entry[3] != 0 || set.empty_cells() < 2 {
                return Err(invalid("a piece set that leaves fewer than two empty cells"));
            }
            if sets.iter().any(|&(s, _)| s == set) {
                return Err(invalid("a piece set listed twice"));
            }
            total += u64::from(count);
            if total > TOTAL_LAYOUTS {
                return Err(invalid("more layouts than there are"));
            }
            sets.push((set, count));
        }
        Ok(Database { sets, distances: Vec::new() })
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
                let codes = layouts(set);
                if codes.len() != count as usize {
                    return Err(invalid("piece set size differs from this program's enumeration"));
                }
                let rank = codes.binary_search(&layout.code()).map_err(|_| invalid("layout missing"))?;
                input.seek(SeekFrom::Start(offset + rank as u64))?;
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
        assert!(survey.codes.len() > 1000);
        for &code in survey.codes.iter().step_by(97) {
            let layout = Layout::from_code(code).unwrap();
            let solved = crate::solve(layout, Convention::Piece).steps.map(|s| s as u8);
            assert_eq!(survey.distance_of(layout), Some(solved.unwrap_or(UNSOLVABLE)));
        }
    }

    #[test]
    fn a_piece_set_that_does_not_fit_has_no_layouts() {
        assert!(layouts(PieceSet { vertical: 9, horizontal: 0, soldiers: 0 }).is_empty());
        assert!(layouts(PieceSet { vertical: 0, horizontal: 0, soldiers: 17 }).is_empty());
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
        let layout = Layout::parse("SV../.V../CC../CC../....").unwrap();
        let expected = crate::solve(layout, Convention::Piece).steps.unwrap() as u8;
        assert_eq!(db.lookup(&mut cursor, layout).unwrap(), Some(expected));
        let other = Layout::parse("VCCV/VCCV/VHHV/VSSV/S..S").unwrap();
        assert_eq!(db.lookup(&mut cursor, other).unwrap(), None);
    }
}
