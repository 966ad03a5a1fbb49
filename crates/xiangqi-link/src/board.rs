//! The board code of the compact format: the side to move, then square by square (in our
//! square order) what stands there, each coded with a static frequency table learned from the
//! final positions of real games. A piece whose count is used up, or that can never stand on
//! the square, gets no share.
//!
//! Table file: 90 lines (one per square), each with 15 counts: empty, then the piece codes
//! 1..=14 ([`Piece::code`]).

use super::coder::{Decoder, Encoder};
use super::LinkError;
use xiangqi::{can_stand, Color, Piece, PieceKind, Position, Setup, Square};

/// Per-square content frequencies.
pub struct BoardModel {
    table: Vec<[u32; 15]>,
}

impl BoardModel {
    /// Reads the table file (missing or bad numbers count as 1).
    pub fn from_text(text: &str) -> BoardModel {
        let mut table = vec![[1u32; 15]; 90];
        for (row, line) in text.lines().take(90).enumerate() {
            for (i, t) in line.split_whitespace().take(15).enumerate() {
                table[row][i] = t.parse::<u32>().unwrap_or(1).clamp(1, 1 << 16);
            }
        }
        BoardModel { table }
    }

    /// The table of compact format version 1.
    pub fn v1() -> &'static BoardModel {
        static M: std::sync::OnceLock<BoardModel> = std::sync::OnceLock::new();
        M.get_or_init(|| BoardModel::from_text(include_str!("../data/link_v1_board.txt")))
    }

    /// Builds the table from boards: counts + 1 wherever the piece can stand.
    pub fn train<'a>(boards: impl Iterator<Item = &'a Position>) -> BoardModel {
        let mut table = vec![[0u32; 15]; 90];
        for pos in boards {
            for (s, row) in table.iter_mut().enumerate() {
                row[pos.piece_codes()[s] as usize] += 1;
            }
        }
        for (s, row) in table.iter_mut().enumerate() {
            row[0] += 1;
            for code in 1..15u8 {
                let piece = Piece::from_code(code).expect("1..=14");
                if can_stand(piece, Square::from_index(s as u8).expect("0..90")) {
                    row[code as usize] += 1;
                }
            }
            let max = *row.iter().max().expect("15 entries");
            if max > 1 << 16 {
                for v in row.iter_mut() {
                    *v = (*v as u64 * (1 << 16) / max as u64).max(1) as u32;
                }
            }
        }
        BoardModel { table }
    }

    /// The table file: the inverse of [`BoardModel::from_text`] (90 lines of 15 counts).
    pub fn to_text(&self) -> String {
        self.table.iter().map(|row| row.map(|v| v.to_string()).join(" ") + "\n").collect()
    }

    /// Cumulative frequencies of the contents allowed on `s` given the pieces left.
    fn cum(&self, s: usize, left: &[u8; 15], cum: &mut [u32; 16]) {
        let sq = Square::from_index(s as u8).expect("0..90");
        cum[0] = 0;
        for c in 0..15 {
            let allowed = c == 0 || {
                let piece = Piece::from_code(c as u8).expect("1..=14");
                left[c] > 0 && can_stand(piece, sq)
            };
            cum[c + 1] = cum[c] + if allowed { self.table[s][c].max(1) } else { 0 };
        }
    }

    pub(crate) fn encode(&self, enc: &mut Encoder, pos: &Position) {
        enc.encode_bit(pos.turn() == Color::Black, 1, 2);
        let mut left = initial_counts();
        let mut cum = [0u32; 16];
        for s in 0..90 {
            self.cum(s, &left, &mut cum);
            let c = pos.piece_codes()[s] as usize;
            enc.encode(cum[c], cum[c + 1], cum[15]);
            if c != 0 {
                left[c] -= 1;
            }
        }
    }

    pub(crate) fn decode(&self, dec: &mut Decoder) -> Result<Position, LinkError> {
        let mut setup = Setup::empty();
        setup.turn = if dec.decode_bit(1, 2) { Color::Black } else { Color::Red };
        let mut left = initial_counts();
        let mut cum = [0u32; 16];
        for s in 0..90 {
            self.cum(s, &left, &mut cum);
            let c = dec.decode_symbol(&cum);
            if c != 0 {
                left[c] -= 1;
                setup.board[s] = Piece::from_code(c as u8);
            }
        }
        Position::from_setup(&setup).map_err(|e| LinkError::BadBoard(e.to_string()))
    }

    /// The length in bits of `pos` coded alone (board code only, ended and trimmed).
    pub fn bits(&self, pos: &Position) -> usize {
        let mut enc = Encoder::new();
        self.encode(&mut enc, pos);
        enc.finish().len()
    }
}

fn initial_counts() -> [u8; 15] {
    let mut left = [0u8; 15];
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            left[Piece::new(color, kind).code() as usize] = kind.initial_count();
        }
    }
    left
}
