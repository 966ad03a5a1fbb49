//! A consistent copy of a running server's SQLite room database (`qi backup`): SQLite's online
//! backup reads one snapshot while the server goes on committing moves, and the copy is checked
//! before it is called good.

use super::sqlite::DATABASE_FILE;
use super::StoreError;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupSummary {
    /// The copy's database file.
    pub file: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Rooms in the copy (finished or not).
    pub rooms: u64,
    /// Rooms in the copy whose game is still going on.
    pub ongoing: u64,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError(e.to_string())
}

/// Copies the room database of data folder `folder` (served or not) into a new data folder
/// `out`, which must not exist or be empty: every move committed before the copy's snapshot
/// is in it, and `qi serve --data OUT` starts from it.
///
/// # Errors
/// When `folder` holds no room database, `out` is not empty or cannot be written, or the copy
/// fails SQLite's integrity check.
pub fn backup(folder: &Path, out: &Path) -> Result<BackupSummary, StoreError> {
    let source = folder.join(DATABASE_FILE);
    if !source.is_file() {
        return Err(StoreError(format!("{} has no room database ({DATABASE_FILE})", folder.display())));
    }
    if out.exists() {
        let mut entries =
            std::fs::read_dir(out).map_err(|e| StoreError(format!("cannot read {}: {e}", out.display())))?;
        if entries.next().is_some() {
            return Err(StoreError(format!("{} is not empty: a backup goes into a new folder", out.display())));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| StoreError(format!("cannot create {}: {e}", out.display())))?;

    // Read-only, so the backup can never write into the live database; WAL lets it read while
    // the server writes.
    let from = Connection::open_with_flags(&source, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(db)?;
    from.busy_timeout(Duration::from_secs(5)).map_err(db)?;
    let file = out.join(DATABASE_FILE);
    let mut to = Connection::open(&file).map_err(db)?;
    {
        use rusqlite::backup::StepResult;
        let copy = rusqlite::backup::Backup::new(&from, &mut to).map_err(db)?;
        // All pages in one step (-1): one read transaction, so one consistent snapshot. A
        // busy database (a checkpoint) is tried again for a few seconds.
        let mut tries = 0;
        loop {
            match copy.step(-1).map_err(db)? {
                StepResult::Done => break,
                StepResult::Busy | StepResult::Locked | StepResult::More if tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                other => return Err(StoreError(format!("the database stayed busy ({other:?})"))),
            }
        }
    }
    let check: String = to.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(db)?;
    if check != "ok" {
        return Err(StoreError(format!("the copy failed SQLite's integrity check: {check}")));
    }
    let count = |sql: &str| -> Result<u64, StoreError> {
        let n: i64 = to.query_row(sql, [], |r| r.get(0)).map_err(db)?;
        Ok(u64::try_from(n).unwrap_or(0))
    };
    let rooms = count("SELECT COUNT(*) FROM rooms")?;
    let ongoing = count("SELECT COUNT(*) FROM rooms WHERE outcome = 'ongoing'")?;
    drop(to);
    let bytes = std::fs::metadata(&file).map_err(|e| StoreError(e.to_string()))?.len();
    Ok(BackupSummary { file, bytes, rooms, ongoing })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Durability, RoomStore, Save, SqliteStore};

    #[test]
    fn a_copy_taken_while_the_store_is_open_holds_every_commit_and_opens() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(dir.path(), Durability::Process).unwrap();
        let records: Vec<_> = (0..5).map(|i| crate::store::sqlite::tests::record(i % 2 == 0, 1_000 + i)).collect();
        for r in &records {
            let job = vec![Save { record: r.clone(), follows: None, fence: 0 }];
            assert_eq!(store.commit(&[job]).unwrap(), vec![Ok(())]);
        }
        let out = dir.path().join("copy");
        let summary = backup(dir.path(), &out).unwrap();
        assert_eq!(summary.rooms, 5);
        assert!(summary.bytes > 0);
        // The live store goes on committing after the copy.
        let later = crate::store::sqlite::tests::record(false, 9_999);
        let job = vec![Save { record: later.clone(), follows: None, fence: 0 }];
        assert_eq!(store.commit(&[job]).unwrap(), vec![Ok(())]);
        // The copy opens as a data folder (while the original is still open) with what was committed before.
        let mut copy = SqliteStore::open(&out, Durability::Process).unwrap();
        for r in &records {
            assert_eq!(copy.load(&r.id).unwrap().as_ref(), Some(r));
        }
        assert_eq!(copy.load(&later.id).unwrap(), None);
    }

    #[test]
    fn a_backup_refuses_a_folder_without_a_database_and_a_full_destination() {
        let dir = tempfile::tempdir().unwrap();
        let err = backup(dir.path(), &dir.path().join("out")).unwrap_err();
        assert!(err.0.contains("no room database"), "{err}");
        let _store = SqliteStore::open(dir.path(), Durability::Process).unwrap();
        let full = dir.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("x"), b"x").unwrap();
        let err = backup(dir.path(), &full).unwrap_err();
        assert!(err.0.contains("not empty"), "{err}");
    }
}
