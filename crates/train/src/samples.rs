//! Training samples in memory: each position's pieces as (square, code) pairs, its side to
//! move, and its target, read from a data file.

use crate::data_file::{for_each_packed, DataError};
use crate::record::{Record, RECORD_BYTES};
use std::path::Path;
use xiangqi::Color;

/// One position to learn from.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// `(square, piece code)` for each piece; the first `count` are used.
    pub pieces: [(u8, u8); 32],
    /// How many pieces stand on the board.
    pub count: u8,
    /// The side to move.
    pub turn: Color,
    /// The search's score for the side to move, in centipawns.
    pub score: i16,
    /// The game's result in points for the side to move (0, 0.5 or 1).
    pub result: f32,
}

impl Sample {
    /// The sample of a record.
    pub fn from_record(r: &Record) -> Sample {
        let mut pieces = [(0u8, 0u8); 32];
        let mut count = 0;
        for (sq, piece) in r.pieces() {
            pieces[count] = (sq as u8, piece.code());
            count += 1;
        }
        Sample { pieces, count: count as u8, turn: r.turn, score: r.score, result: r.result.points_for(r.turn) }
    }

    /// The pieces on the board.
    pub fn pieces(&self) -> &[(u8, u8)] {
        &self.pieces[..self.count as usize]
    }
}

/// Reads the samples of the data files, at most `limit` in all.
///
/// # Errors
/// The first [`DataError`] of any file.
pub fn read_samples(paths: &[&Path], limit: usize) -> Result<Vec<Sample>, DataError> {
    let mut out = Vec::new();
    for path in paths {
        let mut stop = false;
        for_each_packed(path, |index, packed: &[u8; RECORD_BYTES]| {
            if out.len() >= limit {
                stop = true;
                return Ok(());
            }
            let r = Record::unpack(packed).map_err(|error| DataError::Record { index, error })?;
            out.push(Sample::from_record(&r));
            Ok(())
        })?;
        if stop {
            break;
        }
    }
    Ok(out)
}
