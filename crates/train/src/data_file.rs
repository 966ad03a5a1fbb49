//! The training data file: a 16-byte header (magic, format version, record size), then
//! 32-byte [`Record`]s. Appending is resumable: a record cut short by a killed writer is
//! dropped when the file is opened again.

use crate::record::{Record, RecordError, RECORD_BYTES};
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"QIXQDATA";
/// The version of the record format this crate reads and writes.
pub const VERSION: u32 = 1;
/// The header's size in bytes.
pub const HEADER_BYTES: u64 = 16;

/// Why a data file cannot be read.
#[derive(Debug)]
pub enum DataError {
    /// The file could not be read or written.
    Io(io::Error),
    /// The file is not a Qi training file, or of another version.
    Header(String),
    /// Record `index` (from 0) is not valid.
    Record {
        /// Which record.
        index: u64,
        /// What is wrong with it.
        error: RecordError,
    },
}

impl core::fmt::Display for DataError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Header(why) => write!(f, "not a Qi training file: {why}"),
            DataError::Record { index, error } => write!(f, "record {index}: {error}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> DataError {
        DataError::Io(e)
    }
}

fn header() -> [u8; HEADER_BYTES as usize] {
    let mut h = [0u8; HEADER_BYTES as usize];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    h
}

fn check_header(h: &[u8]) -> Result<(), DataError> {
    if h.len() < HEADER_BYTES as usize || h[..8] != MAGIC {
        return Err(DataError::Header("no QIXQDATA header".into()));
    }
    let version = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    let size = u32::from_le_bytes([h[12], h[13], h[14], h[15]]);
    if version != VERSION || size as usize != RECORD_BYTES {
        return Err(DataError::Header(format!(
            "version {version} with {size}-byte records (this build reads version {VERSION}, {RECORD_BYTES} bytes)"
        )));
    }
    Ok(())
}

/// Reads every record of a data file, checking each.
///
/// # Errors
/// A [`DataError`] for a missing or foreign file or an invalid record. A record cut short at
/// the end (a writer killed mid-write) is left out, not an error.
pub fn read_all(path: &Path) -> Result<Vec<Record>, DataError> {
    let mut records = Vec::new();
    for_each_packed(path, |index, packed| {
        records.push(Record::unpack(packed).map_err(|error| DataError::Record { index, error })?);
        Ok(())
    })?;
    Ok(records)
}

/// Calls `f` with the index and bytes of each whole record of the file, in order.
///
/// # Errors
/// What [`read_all`] gives, and what `f` returns.
pub fn for_each_packed(
    path: &Path,
    mut f: impl FnMut(u64, &[u8; RECORD_BYTES]) -> Result<(), DataError>,
) -> Result<u64, DataError> {
    let mut reader = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut h = [0u8; HEADER_BYTES as usize];
    reader.read_exact(&mut h).map_err(|_| DataError::Header("shorter than its header".into()))?;
    check_header(&h)?;
    let mut packed = [0u8; RECORD_BYTES];
    let mut index = 0;
    loop {
        match read_whole(&mut reader, &mut packed)? {
            false => return Ok(index),
            true => {
                f(index, &packed)?;
                index += 1;
            }
        }
    }
}

/// Fills `buf`; false at the end of the file or on a record cut short.
fn read_whole(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<bool> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => return Ok(false),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Appends records to a data file, creating it with its header when it does not exist.
pub struct Appender {
    out: BufWriter<File>,
    records: u64,
}

impl Appender {
    /// Opens `path` for appending: a new file gets the header; an existing one is checked, and
    /// a record cut short at its end is cut off. `seen` hears each whole record already there
    /// (to resume deduplication).
    ///
    /// # Errors
    /// A [`DataError`] for a file that cannot be opened or is not a training file.
    pub fn open(path: &Path, mut seen: impl FnMut(&[u8; RECORD_BYTES])) -> Result<Appender, DataError> {
        let exists = path.metadata().map(|m| m.len() > 0).unwrap_or(false);
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        let records = if exists {
            let n = for_each_packed(path, |_, packed| {
                seen(packed);
                Ok(())
            })?;
            file.set_len(HEADER_BYTES + n * RECORD_BYTES as u64)?;
            n
        } else {
            file.write_all(&header())?;
            0
        };
        file.seek(SeekFrom::End(0))?;
        Ok(Appender { out: BufWriter::with_capacity(1 << 16, file), records })
    }

    /// Appends one packed record (buffered: see [`Appender::flush`]).
    ///
    /// # Errors
    /// A write error.
    pub fn push(&mut self, packed: &[u8; RECORD_BYTES]) -> io::Result<()> {
        self.records += 1;
        self.out.write_all(packed)
    }

    /// Writes what is buffered to the file.
    ///
    /// # Errors
    /// A write error.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Records in the file, those buffered included.
    pub fn records(&self) -> u64 {
        self.records
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;
    use xiangqi::Position;

    #[test]
    fn appending_resumes_after_a_record_cut_short() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let r = Record::new(&Position::startpos(), 12, GameResult::Draw);
        let mut a = Appender::open(&path, |_| {}).unwrap();
        a.push(&r.pack()).unwrap();
        a.push(&r.pack()).unwrap();
        a.flush().unwrap();
        drop(a);
        // A writer killed half-way through a third record.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&r.pack()[..10]).unwrap();
        drop(f);
        let mut seen = 0;
        let mut a = Appender::open(&path, |_| seen += 1).unwrap();
        assert_eq!((seen, a.records()), (2, 2));
        a.push(&r.pack()).unwrap();
        a.flush().unwrap();
        assert_eq!(read_all(&path).unwrap(), vec![r.clone(), r.clone(), r]);
    }

    #[test]
    fn a_foreign_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, b"PK\x03\x04 not ours at all").unwrap();
        assert!(matches!(read_all(&path), Err(DataError::Header(_))));
        assert!(matches!(Appender::open(&path, |_| {}), Err(DataError::Header(_))));
    }
}
