//! The survey database: every layout's distance, one byte each, in one file, with a header
//! that lets a reader find one layout or one piece set (or pick a puzzle by difficulty)
//! without reading the rest.

use crate::distance::{Source, Tables, UNSOLVABLE};
use crate::enumerate::TOTAL_LAYOUTS;
use crate::index::LayoutIndex;
use crate::layout::{Layout, PieceSet};
use crate::puzzle;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Every layout's distance, one byte each, grouped by piece set.
///
/// File format (little-endian): `QIHRDB02`, u32 number of piece sets, then per set
/// `vertical, horizontal, soldiers, L` bytes, a u32 layout count and L u32 counts of the
/// layouts at distance 0, 1 ... L - 1 (L - 1 is the set's largest distance; the rest are
/// unsolvable); then the distance bytes of each set in order, by rank ([`LayoutIndex`], the
/// order of [`crate::enumerate::layouts`]); 255 = unsolvable. The counts let a reader choose a set for a
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

    /// The distance bytes of every layout of `set` (by rank, see [`crate::enumerate::layouts`]) read from the
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

/// Why a database file could not give what was asked. The messages name the file; the
/// underlying I/O error, if any, is the [`source`](std::error::Error::source).
#[derive(Debug)]
#[non_exhaustive]
pub enum DatabaseError {
    /// The file exists but could not be opened.
    Open(PathBuf, io::Error),
    /// Reading the header or a set's distances failed (or found no database).
    Read(PathBuf, io::Error),
    /// The file has no entry for this piece set.
    NoEntry(PathBuf, PieceSet),
    /// A set's entry has another size than this program's enumeration.
    WrongSize {
        /// The file.
        path: PathBuf,
        /// The piece set.
        set: PieceSet,
        /// Entries in the file.
        found: usize,
        /// Layouts the piece set has.
        expected: usize,
    },
    /// The header's counts per distance do not match the set's distance bytes.
    Disagree(PathBuf, PieceSet),
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseError::Open(path, _) => write!(f, "cannot open {}", path.display()),
            DatabaseError::Read(path, _) => write!(f, "reading {}", path.display()),
            DatabaseError::NoEntry(path, set) => write!(f, "{} has no entry for the piece set {set}", path.display()),
            DatabaseError::WrongSize { path, set, found, expected } => {
                write!(f, "{}: the piece set {set} has {found} entries, not {expected}", path.display())
            }
            DatabaseError::Disagree(path, set) => {
                write!(f, "{}: the header's counts for {set} disagree with its distances", path.display())
            }
        }
    }
}

impl std::error::Error for DatabaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatabaseError::Open(_, e) | DatabaseError::Read(_, e) => Some(e),
            _ => None,
        }
    }
}

/// A database file opened for reading: the header read, the distances left on disk until a
/// piece set's are asked for.
#[derive(Debug)]
pub struct DatabaseFile {
    path: PathBuf,
    file: BufReader<File>,
    /// The header (its `distances` are empty).
    pub database: Database,
}

impl DatabaseFile {
    /// Opens the database at `path` and reads its header; `Ok(None)` when there is no file.
    ///
    /// # Errors
    /// The file cannot be opened, or its header cannot be read ([`Database::read_header`]).
    pub fn open(path: &Path) -> Result<Option<DatabaseFile>, DatabaseError> {
        if !path.exists() {
            return Ok(None);
        }
        let file = File::open(path).map_err(|e| DatabaseError::Open(path.to_path_buf(), e))?;
        let mut file = BufReader::new(file);
        let database = Database::read_header(&mut file).map_err(|e| DatabaseError::Read(path.to_path_buf(), e))?;
        Ok(Some(DatabaseFile { path: path.to_path_buf(), file, database }))
    }

    /// The distances of `sets`, read from the file and checked against the enumeration.
    ///
    /// # Errors
    /// Reading fails, a set is not in the file, or its entry has the wrong size.
    pub fn read_tables(&mut self, sets: &[PieceSet]) -> Result<Tables, DatabaseError> {
        let mut tables = Vec::new();
        for &set in sets {
            let read = self.database.read_set(&mut self.file, set);
            let Some(distance) = read.map_err(|e| DatabaseError::Read(self.path.clone(), e))? else {
                return Err(DatabaseError::NoEntry(self.path.clone(), set));
            };
            let index = LayoutIndex::new(set);
            if index.len() != distance.len() {
                let (found, expected) = (distance.len(), index.len());
                return Err(DatabaseError::WrongSize { path: self.path.clone(), set, found, expected });
            }
            tables.push((index, distance));
        }
        Ok(Tables { sets: tables, source: Source::Database })
    }

    /// A uniform pick among the layouts of `wanted` (or of every set in the file) whose
    /// distance is in `steps`, with the tables read for it: the header's counts per distance
    /// choose the set, and only that set is read. `random` chooses which layout.
    ///
    /// # Errors
    /// `wanted` is not in the file, reading fails, or the counts disagree with the distances.
    pub fn pick(
        &mut self,
        steps: &RangeInclusive<u8>,
        wanted: Option<PieceSet>,
        random: u64,
    ) -> Result<(Tables, Option<(Layout, u8)>), DatabaseError> {
        let database = &self.database;
        let candidates: Vec<(PieceSet, u64)> = (0..database.sets.len())
            .map(|i| (database.sets[i].0, database.layouts_at(i, steps)))
            .filter(|&(set, _)| wanted.map_or(true, |w| w == set))
            .collect();
        if let Some(w) = wanted {
            if candidates.is_empty() {
                return Err(DatabaseError::NoEntry(self.path.clone(), w));
            }
        }
        let total: u64 = candidates.iter().map(|&(_, n)| n).sum();
        if total == 0 {
            return Ok((Tables { sets: Vec::new(), source: Source::Database }, None));
        }
        let mut index = random % total;
        let &(set, _) = candidates
            .iter()
            .find(|&&(_, n)| {
                let here = index < n;
                if !here {
                    index -= n;
                }
                here
            })
            .expect("index below the total");
        let tables = self.read_tables(&[set])?;
        let picked = puzzle::pick(&tables.views(), steps.clone(), index);
        if picked.is_none() {
            return Err(DatabaseError::Disagree(self.path.clone(), set));
        }
        Ok((tables, picked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_version_is_refused_with_a_hint() {
        let mut old = b"QIHRDB01".to_vec();
        old.extend_from_slice(&0u32.to_le_bytes());
        let err = Database::read_header(&mut io::Cursor::new(old)).unwrap_err();
        assert!(err.to_string().contains("survey` again"), "{err}");
    }
}
