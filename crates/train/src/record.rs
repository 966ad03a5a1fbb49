//! One training position in 32 bytes: where the pieces stand, whose turn it is, the search's
//! score and how the game ended.

use xiangqi::{Color, Piece, Position};

/// The size of one packed record in bytes.
pub const RECORD_BYTES: usize = 32;

/// The most pieces a Xiangqi position holds (16 a side).
const MAX_PIECES: usize = 32;

/// How the game a position came from ended, from Red's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won.
    BlackWin = 0,
    /// Nobody won.
    Draw = 1,
    /// Red won.
    RedWin = 2,
}

impl GameResult {
    /// The result as points for Red: 0, 0.5 or 1.
    pub fn red_points(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The result as points for `color`.
    pub fn points_for(self, color: Color) -> f32 {
        match color {
            Color::Red => self.red_points(),
            Color::Black => 1.0 - self.red_points(),
        }
    }

    fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::RedWin),
            _ => None,
        }
    }
}

/// A training position: the board, the side to move, the search's score for the side to move
/// and the game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The piece code ([`Piece::code`]) on each square, 0 for an empty one.
    pub board: [u8; 90],
    /// The side to move.
    pub turn: Color,
    /// The search's score in centipawns, for the side to move.
    pub score: i16,
    /// How the game ended.
    pub result: GameResult,
}

/// Why 32 bytes are not a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 squares are marked as occupied, or a square past the 90th.
    TooManyPieces,
    /// A piece code outside 1..=14.
    BadPiece,
    /// A result byte other than 0, 1 or 2.
    BadResult,
    /// Flag bits that no version of the format sets.
    BadFlags,
}

impl core::fmt::Display for RecordError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            RecordError::TooManyPieces => "more than 32 pieces, or a square past the board",
            RecordError::BadPiece => "a piece code outside 1 to 14",
            RecordError::BadResult => "a game result other than 0, 1 or 2",
            RecordError::BadFlags => "unknown flag bits",
        })
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of `pos` with a score for the side to move and the game's result.
    pub fn new(pos: &Position, score: i16, result: GameResult) -> Record {
        Record { board: *pos.piece_codes(), turn: pos.turn(), score, result }
    }

    /// The pieces on the board, by square index, in ascending order.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, Piece)> + '_ {
        self.board.iter().enumerate().filter_map(|(sq, &code)| Piece::from_code(code).map(|p| (sq, p)))
    }

    /// Packs the record: 12 bytes of occupied squares, 16 of piece codes (4 bits each, in
    /// square order), the score (2 bytes, little-endian), the result, and a flag byte (bit 0:
    /// Black to move).
    pub fn pack(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let mut n = 0;
        for (sq, &code) in self.board.iter().enumerate() {
            if code == 0 {
                continue;
            }
            out[sq / 8] |= 1 << (sq % 8);
            if n < MAX_PIECES {
                out[12 + n / 2] |= code << (4 * (n % 2));
            }
            n += 1;
        }
        out[28..30].copy_from_slice(&self.score.to_le_bytes());
        out[30] = self.result as u8;
        out[31] = u8::from(self.turn == Color::Black);
        out
    }

    /// Reads a packed record.
    ///
    /// # Errors
    /// A [`RecordError`] when the bytes are not a record this format writes.
    pub fn unpack(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let mut board = [0u8; 90];
        let mut n = 0;
        for byte in 0..12 {
            let mut bits = bytes[byte];
            while bits != 0 {
                let sq = byte * 8 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if sq >= 90 || n >= MAX_PIECES {
                    return Err(RecordError::TooManyPieces);
                }
                let code = (bytes[12 + n / 2] >> (4 * (n % 2))) & 0xf;
                if Piece::from_code(code).is_none() {
                    return Err(RecordError::BadPiece);
                }
                board[sq] = code;
                n += 1;
            }
        }
        let score = i16::from_le_bytes([bytes[28], bytes[29]]);
        let result = GameResult::from_byte(bytes[30]).ok_or(RecordError::BadResult)?;
        let turn = match bytes[31] {
            0 => Color::Red,
            1 => Color::Black,
            _ => return Err(RecordError::BadFlags),
        };
        Ok(Record { board, turn, score, result })
    }

    /// The bytes that say where the pieces stand and whose turn it is (not the score or the
    /// result): two records of the same position share them.
    pub fn position_key(packed: &[u8; RECORD_BYTES]) -> [u8; 29] {
        let mut key = [0u8; 29];
        key[..28].copy_from_slice(&packed[..28]);
        key[28] = packed[31];
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips() {
        let mut pos = Position::startpos();
        pos.play("h2e2".parse().unwrap()).unwrap();
        let r = Record::new(&pos, -37, GameResult::RedWin);
        let packed = r.pack();
        assert_eq!(Record::unpack(&packed), Ok(r.clone()));
        assert_eq!(r.pieces().count(), 32);
        assert_eq!(r.turn, Color::Black);
    }

    #[test]
    fn bad_bytes_are_errors_not_panics() {
        let mut b = [0x11u8; RECORD_BYTES];
        b[..12].fill(0xff);
        assert_eq!(Record::unpack(&b), Err(RecordError::TooManyPieces));
        b = Record::new(&Position::startpos(), 0, GameResult::Draw).pack();
        b[30] = 7;
        assert_eq!(Record::unpack(&b), Err(RecordError::BadResult));
        b[30] = 1;
        b[12] = 0;
        assert_eq!(Record::unpack(&b), Err(RecordError::BadPiece));
    }

    #[test]
    fn the_key_ignores_score_and_result() {
        let pos = Position::startpos();
        let a = Record::new(&pos, 10, GameResult::Draw).pack();
        let b = Record::new(&pos, -10, GameResult::RedWin).pack();
        assert_eq!(Record::position_key(&a), Record::position_key(&b));
    }
}
