//! The commit loop every SQL store shares: one transaction for a group of jobs, each job in a
//! savepoint of its own, so that a conflict undoes that job only and the others still commit.
//! A store opens and commits the transaction with its own client and writes one save through
//! [`JobWriter`]; the savepoints are plain SQL that SQLite and PostgreSQL both speak.
//!
//! ```
//! use qi_rooms::store::jobs::{commit_jobs, JobWriter};
//! use qi_rooms::{RoomSpec, Room, Save, SaveError};
//! // A writer that logs its SQL and refuses the save of version 7.
//! struct Log(Vec<String>);
//! impl JobWriter for Log {
//!     type Error = ();
//!     fn batch(&mut self, sql: &str) -> Result<(), ()> { self.0.push(sql.to_string()); Ok(()) }
//!     fn write(&mut self, save: &Save) -> Result<bool, ()> { self.0.push("write".into()); Ok(save.follows != Some(7)) }
//! }
//! let record = Room::new(RoomSpec::standard(None), 0, tokio::time::Instant::now()).to_record(tokio::time::Instant::now(), 0);
//! let ok = Save { record: record.clone(), follows: None, fence: 0 };
//! let stale = Save { record: record.clone(), follows: Some(7), fence: 0 };
//! let mut log = Log(Vec::new());
//! let results = commit_jobs(&mut log, &[vec![ok], vec![stale]]).unwrap();
//! assert_eq!(results, vec![Ok(()), Err(SaveError::Conflict(record.id.clone()))]);
//! assert_eq!(log.0, ["SAVEPOINT job", "write", "RELEASE SAVEPOINT job",
//!                    "SAVEPOINT job", "write", "ROLLBACK TO SAVEPOINT job", "RELEASE SAVEPOINT job"]);
//! ```

use super::{Save, SaveError};

/// A store's open transaction, as the commit loop uses it.
pub trait JobWriter {
    /// The client's error.
    type Error;

    /// Runs `sql` (a savepoint statement) in the transaction.
    ///
    /// # Errors
    /// The client's.
    fn batch(&mut self, sql: &str) -> Result<(), Self::Error>;

    /// Writes one save; `false` when the row is not at the version and fence it follows.
    ///
    /// # Errors
    /// The client's.
    fn write(&mut self, save: &Save) -> Result<bool, Self::Error>;
}

/// Writes `jobs` in `tx`, each job all or nothing: its result is [`SaveError::Conflict`] for the
/// first save refused (the job's earlier writes are undone), `Ok` otherwise. The caller commits
/// the transaction; on an error it is dropped (rolled back) whole.
///
/// # Errors
/// The client's, as soon as a statement fails.
pub fn commit_jobs<W: JobWriter>(tx: &mut W, jobs: &[Vec<Save>]) -> Result<Vec<Result<(), SaveError>>, W::Error> {
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        tx.batch("SAVEPOINT job")?;
        let mut result = Ok(());
        for save in job {
            if !tx.write(save)? {
                result = Err(SaveError::Conflict(save.record.id.clone()));
                break;
            }
        }
        if result.is_err() {
            tx.batch("ROLLBACK TO SAVEPOINT job")?;
        }
        tx.batch("RELEASE SAVEPOINT job")?;
        results.push(result);
    }
    Ok(results)
}
