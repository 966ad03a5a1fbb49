//! The seed's link format ("scheme 3"): `p` the current board, `r` the history newest move
//! first, `s` kept as given. See `docs/seed-format.md` in this crate for how it
//! was reconstructed.
//!
//! The seed numbers squares `row * 9 + column` with row 0 at the top (Black's back rank); this
//! module converts at its edges. Each of the 32 pieces has an id: its side and its index 0..16
//! in the order king, advisor, advisor, elephant, elephant, horse, horse, rook, rook, cannon,
//! cannon, five soldiers.
//!
//! Where the seed's example link does not pin the format down, this project reads it as
//! follows (frozen): the candidate squares a move came from, around the square the piece now
//! stands on and ignoring occupancy, skipping squares off the board or outside the piece's
//! area, are for a king up, down, left, right (rows -1, +1, columns -1, +1 in the seed's
//! numbering); for an advisor up-left, up-right, down-left, down-right; for an elephant the
//! same four diagonals two steps away; for a horse clockwise from two up and one right:
//! (-2,+1), (-1,+2), (+1,+2), (+2,+1), (+2,-1), (+1,-2), (-1,-2), (-2,-1); for a soldier that
//! has crossed the river behind, then right, then left. The leading bit of `p` is 1 when Red
//! is to move.

use super::bits::{BitReader, BitWriter};
use super::{bits, LinkError};
use xiangqi::{Color, Move, Piece, PieceKind, Position, Setup, Square, MAX_GAME_PLIES};

/// "Captured" in a candidate list.
const OFF: u8 = 127;

/// The kind of the piece with index `j` (0..16) within its side.
pub(crate) const fn slot_kind(j: usize) -> PieceKind {
    match j {
        0 => PieceKind::King,
        1 | 2 => PieceKind::Advisor,
        3 | 4 => PieceKind::Elephant,
        5 | 6 => PieceKind::Horse,
        7 | 8 => PieceKind::Rook,
        9 | 10 => PieceKind::Cannon,
        _ => PieceKind::Pawn,
    }
}

/// The seed's `PieceCandidates`: the squares (seed numbering) each of the 32 pieces may
/// stand on, most likely first.
fn candidates(slot: usize) -> &'static [u8] {
    static LISTS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    &LISTS.get_or_init(|| {
        let red_all: Vec<u8> = (0..90).map(|i| 89 - i).collect();
        let black_all: Vec<u8> = (0..90).collect();
        let red_soldier: Vec<u8> = (0..45).map(|i| 44 - i).collect();
        let black_soldier: Vec<u8> = (0..45).map(|i| 45 + i).collect();
        let with = |head: &[u8], tail: &[u8]| head.iter().chain(tail).copied().collect::<Vec<u8>>();
        let mut lists = vec![
            vec![85, 86, 84, 76, 77, 75, 67, 68, 66, OFF],
            vec![OFF, 86, 84, 76, 68, 66],
            vec![OFF, 84, 86, 76, 66, 68],
            vec![OFF, 87, 67, 71, 51, 83, 47, 63],
            vec![OFF, 83, 67, 63, 47, 87, 51, 71],
        ];
        lists.extend((0..6).map(|_| with(&[OFF], &red_all)));
        for (a, b) in [(62, 53), (60, 51), (58, 49), (56, 47), (54, 45)] {
            lists.push(with(&[OFF, a, b], &red_soldier));
        }
        lists.extend([
            vec![4, 3, 5, 13, 12, 14, 22, 21, 23, OFF],
            vec![OFF, 3, 5, 13, 21, 23],
            vec![OFF, 5, 3, 13, 23, 21],
            vec![OFF, 2, 22, 18, 38, 6, 42, 26],
            vec![OFF, 6, 22, 26, 42, 2, 38, 18],
        ]);
        lists.extend((0..6).map(|_| with(&[OFF], &black_all)));
        for (a, b) in [(27, 36), (29, 38), (31, 40), (33, 42), (35, 44)] {
            lists.push(with(&[OFF, a, b], &black_soldier));
        }
        lists
    })[slot]
}

/// Seed square of one of ours.
pub(crate) fn to_seed(sq: Square) -> u8 {
    (9 - sq.rank()) * 9 + sq.file()
}

/// Our square of a seed square (0..90).
pub(crate) fn from_seed(s: u8) -> Square {
    Square::new(s % 9, 9 - s / 9).expect("seed squares are 0..90")
}

/// The seed's truncated binary code of `index` among `n` candidates.
pub(crate) fn write_truncated(w: &mut BitWriter, index: usize, n: usize) {
    let k = usize::BITS - 1 - n.leading_zeros();
    let u = 1usize << k;
    let b = n - u;
    if b == 0 || index < u - b {
        w.write(index as u32, k);
    } else if index < u {
        w.write(index as u32, k);
        w.push(false);
    } else {
        w.write((index - b) as u32, k);
        w.push(true);
    }
}

/// Reads a truncated binary index among `n` candidates (n >= 1).
pub(crate) fn read_truncated(r: &mut BitReader, n: usize) -> Option<usize> {
    let k = usize::BITS - 1 - n.leading_zeros();
    let u = 1usize << k;
    let b = n - u;
    let v = r.read(k)? as usize;
    if b == 0 || v < u - b {
        return Some(v);
    }
    Some(if r.bit()? { v + b } else { v })
}

/// Where each of the 32 pieces stands (seed squares, `OFF` when captured), and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
struct IdBoard {
    at: [u8; 32],
    turn: Color,
}

impl IdBoard {
    /// Gives the pieces of `pos` ids, slot by slot taking the piece that comes first in the
    /// slot's candidate list (this gives the seed's ids in the start position).
    fn assign(pos: &Position) -> Result<IdBoard, LinkError> {
        let mut taken = [false; 90];
        let mut at = [OFF; 32];
        for (slot, place) in at.iter_mut().enumerate() {
            let piece = Piece::new(if slot < 16 { Color::Red } else { Color::Black }, slot_kind(slot % 16));
            let found = candidates(slot)
                .iter()
                .find(|&&s| s != OFF && !taken[s as usize] && pos.piece_at(from_seed(s)) == Some(piece));
            if let Some(&s) = found {
                taken[s as usize] = true;
                *place = s;
            }
        }
        for (sq, piece) in pos.pieces() {
            if !taken[to_seed(sq) as usize] {
                return Err(LinkError::Unrepresentable(format!("the seed format has no code for the {piece} on {sq}")));
            }
        }
        Ok(IdBoard { at, turn: pos.turn() })
    }

    fn slot_on(&self, s: u8) -> Option<usize> {
        self.at.iter().position(|&a| a == s)
    }

    fn setup(&self) -> Setup {
        let mut setup = Setup::empty();
        setup.turn = self.turn;
        for (slot, &s) in self.at.iter().enumerate() {
            if s != OFF {
                let color = if slot < 16 { Color::Red } else { Color::Black };
                setup.board[from_seed(s).index()] = Some(Piece::new(color, slot_kind(slot % 16)));
            }
        }
        setup
    }
}

/// `p` and its length in bits before padding.
fn write_board(b: &IdBoard) -> Result<(String, usize), LinkError> {
    let mut w = BitWriter::new();
    w.push(b.turn == Color::Red);
    for (slot, &s) in b.at.iter().enumerate() {
        let list = candidates(slot);
        let index = list
            .iter()
            .position(|&c| c == s)
            .ok_or_else(|| LinkError::Unrepresentable(format!("piece {slot} cannot stand on seed square {s}")))?;
        write_truncated(&mut w, index, list.len());
    }
    let len = w.len();
    Ok((bits::to_base64(&w.into_bytes(true)), len))
}

fn read_board(text: &str) -> Result<IdBoard, LinkError> {
    let bytes = bits::from_base64(text, "p")?;
    let mut r = BitReader::new(&bytes);
    let truncated = LinkError::Truncated { field: "p" };
    let turn = if r.bit().ok_or(truncated.clone())? { Color::Red } else { Color::Black };
    let mut at = [OFF; 32];
    for (slot, place) in at.iter_mut().enumerate() {
        let list = candidates(slot);
        let i = read_truncated(&mut r, list.len()).ok_or(truncated.clone())?;
        *place = *list.get(i).ok_or(truncated.clone())?;
    }
    let board = IdBoard { at, turn };
    let mut seen = [false; 90];
    for (slot, &s) in at.iter().enumerate() {
        if s == OFF {
            if slot % 16 == 0 {
                return Err(LinkError::BadBoard("a king is marked captured".into()));
            }
            continue;
        }
        if std::mem::replace(&mut seen[s as usize], true) {
            return Err(LinkError::BadBoard(format!("two pieces on {}", from_seed(s))));
        }
    }
    Position::from_setup(&board.setup()).map_err(|e| LinkError::BadBoard(e.to_string()))?;
    Ok(board)
}

/// The squares (seed numbering) a piece of `kind` and `color` now on `to` may have come from,
/// in this format's order; see the module documentation.
fn from_candidates(kind: PieceKind, color: Color, to: u8) -> Vec<u8> {
    let (row, col) = ((to / 9) as i32, (to % 9) as i32);
    let at = |dr: i32, dc: i32| -> Option<(i32, i32)> {
        let (r, c) = (row + dr, col + dc);
        ((0..10).contains(&r) && (0..9).contains(&c)).then_some((r, c))
    };
    let palace = |(r, c): (i32, i32)| (3..=5).contains(&c) && if color == Color::Red { r >= 7 } else { r <= 2 };
    let own_half = |(r, _): (i32, i32)| if color == Color::Red { r >= 5 } else { r <= 4 };
    let steps: Vec<(i32, i32)> = match kind {
        PieceKind::Rook | PieceKind::Cannon => {
            let mut v = Vec::with_capacity(17);
            for (dr, dc) in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
                let mut k = 1;
                while at(dr * k, dc * k).is_some() {
                    v.push((dr * k, dc * k));
                    k += 1;
                }
            }
            v
        }
        PieceKind::King => vec![(-1, 0), (1, 0), (0, -1), (0, 1)],
        PieceKind::Advisor => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
        PieceKind::Elephant => vec![(-2, -2), (-2, 2), (2, -2), (2, 2)],
        PieceKind::Horse => vec![(-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1)],
        PieceKind::Pawn => {
            let back = if color == Color::Red { 1 } else { -1 };
            let crossed = if color == Color::Red { row <= 4 } else { row >= 5 };
            if crossed {
                vec![(back, 0), (0, 1), (0, -1)]
            } else {
                vec![(back, 0)]
            }
        }
    };
    steps
        .into_iter()
        .filter_map(|(dr, dc)| at(dr, dc))
        .filter(|&rc| match kind {
            PieceKind::King | PieceKind::Advisor => palace(rc),
            PieceKind::Elephant => own_half(rc),
            _ => true,
        })
        .map(|(r, c)| (r * 9 + c) as u8)
        .collect()
}

/// A link in the seed's format: its three query values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedLink {
    /// The current board.
    pub p: String,
    /// The history, newest move first (empty when there is none).
    pub r: String,
    /// Kept as given (the seed's example has `1`).
    pub s: String,
}

impl SeedLink {
    /// The query string `p=...&r=...&s=...` (`r` left out when empty).
    pub fn query(&self) -> String {
        let mut q = format!("p={}", self.p);
        if !self.r.is_empty() {
            q += &format!("&r={}", self.r);
        }
        q + &format!("&s={}", self.s)
    }
}

/// Encodes a game (a start position and legal moves) in the seed's format.
pub fn encode(start: &Position, moves: &[Move]) -> Result<SeedLink, LinkError> {
    encode_counted(start, moves).map(|e| e.0)
}

/// [`encode`], also giving the bits of the history and of the board before padding.
pub fn encode_counted(start: &Position, moves: &[Move]) -> Result<(SeedLink, usize, usize), LinkError> {
    if moves.len() > MAX_GAME_PLIES {
        return Err(LinkError::TooLong);
    }
    // The format has no move counters: its games start at `0 1`, and another start would come
    // back changed (a game near the move limit would lose its clock).
    if (start.halfmoves(), start.fullmoves()) != (0, 1) {
        return Err(LinkError::Unrepresentable(format!(
            "it has no move counters, and the game starts at {} {}",
            start.halfmoves(),
            start.fullmoves()
        )));
    }
    let mut board = IdBoard::assign(start)?;
    let mut pos = start.clone();
    let mut records = Vec::with_capacity(moves.len());
    for (ply, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(LinkError::IllegalMove { ply: ply + 1, mv: m.to_string() });
        }
        let (from, to) = (to_seed(m.from()), to_seed(m.to()));
        let slot = board.slot_on(from).expect("every piece has an id");
        let captured = board.slot_on(to);
        let list = from_candidates(slot_kind(slot % 16), pos.turn(), to);
        let index = list.iter().position(|&s| s == from).expect("a legal move comes from a candidate square");
        records.push((slot % 16, captured.map(|c| c % 16), index, list.len()));
        if let Some(c) = captured {
            board.at[c] = OFF;
        }
        board.at[slot] = to;
        pos.play_unchecked(m);
    }
    board.turn = pos.turn();
    let mut w = BitWriter::new();
    for &(id, captured, index, n) in records.iter().rev() {
        w.write(id as u32, 4);
        w.push(captured.is_some());
        if let Some(c) = captured {
            w.write(c as u32, 4);
        }
        write_truncated(&mut w, index, n);
    }
    let hist_bits = w.len();
    let r = if w.len() == 0 { String::new() } else { bits::to_base64(&w.into_bytes(true)) };
    let (p, board_bits) = write_board(&board)?;
    Ok((SeedLink { p, r, s: "1".into() }, hist_bits, board_bits))
}

/// Decodes `p` and `r` (empty for none) into the start position and the moves.
pub fn decode(p: &str, r: &str) -> Result<(Position, Vec<Move>), LinkError> {
    let mut board = read_board(p)?;
    let bytes = bits::from_base64(r, "r")?;
    let mut reader = BitReader::new(&bytes);
    let mut side = board.turn.other();
    let mut moves = Vec::new();
    loop {
        let mark = reader.position();
        let Some(record) = read_record(&mut reader) else {
            // The end: what is left must be the padding, fewer than 8 one bits.
            let total = bytes.len() * 8;
            let ones = (mark..total).all(|k| bytes[k / 8] & (0x80 >> (k % 8)) != 0);
            if total - mark >= 8 || !ones {
                return Err(LinkError::Truncated { field: "r" });
            }
            break;
        };
        let ply = moves.len() + 1;
        let bad = |what: String| LinkError::BadHistory { ply_from_end: ply, reason: what };
        let (id, captured, index_reader) = record;
        let slot = side.index() * 16 + id;
        let to = board.at[slot];
        if to == OFF {
            return Err(bad(format!("piece {id} of {side} moves but is not on the board")));
        }
        let list = from_candidates(slot_kind(id), side, to);
        let index = index_reader(&mut reader, list.len())
            .ok_or(LinkError::Truncated { field: "r" })?
            .filter(|&i| i < list.len())
            .ok_or_else(|| bad(format!("piece {id} of {side} has no square to come from")))?;
        let from = list[index];
        // Every board of the game must be one the format can write (a soldier's list covers
        // only its own file on its side of the river).
        if !candidates(slot).contains(&from) {
            return Err(bad(format!("piece {id} of {side} cannot stand on {}", from_seed(from))));
        }
        if board.slot_on(from).is_some() {
            return Err(bad(format!("the square {} the move came from is occupied", from_seed(from))));
        }
        board.at[slot] = from;
        if let Some(c) = captured {
            let cslot = side.other().index() * 16 + c;
            if c == 0 || board.at[cslot] != OFF || !candidates(cslot).contains(&to) {
                return Err(bad(format!(
                    "captured piece {c} of {} is a king, still on the board or cannot stand on {}",
                    side.other(),
                    from_seed(to)
                )));
            }
            board.at[cslot] = to;
        }
        moves.push(Move::new(from_seed(from), from_seed(to)));
        side = side.other();
        if moves.len() > MAX_GAME_PLIES {
            return Err(LinkError::TooLong);
        }
    }
    moves.reverse();
    board.turn = if moves.is_empty() { board.turn } else { side.other() };
    let start =
        Position::from_setup(&board.setup()).map_err(|e| LinkError::BadBoard(format!("start position: {e}")))?;
    let mut pos = start.clone();
    for (ply, &m) in moves.iter().enumerate() {
        pos.play(m).map_err(|_| LinkError::IllegalMove { ply: ply + 1, mv: m.to_string() })?;
    }
    Ok((start, moves))
}

type IndexReader = fn(&mut BitReader, usize) -> Option<Option<usize>>;

/// Reads a record's head (mover id, captured id); the from index is read by the returned
/// function once the candidate count is known. `None` when the bits run out.
fn read_record(r: &mut BitReader) -> Option<(usize, Option<usize>, IndexReader)> {
    let id = r.read(4)? as usize;
    let captured = if r.bit()? { Some(r.read(4)? as usize) } else { None };
    Some((id, captured, |r, n| if n == 0 { Some(None) } else { read_truncated(r, n).map(Some) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str = "gSQCL5P5oIDhCFJCIBJ4eQCAkX8";
    const R: &str = "86pU6-4nbSh38OCojLarcupWOb1rXw";

    #[test]
    fn seed_example_decodes_and_encodes_back() {
        let (start, moves) = decode(P, R).unwrap();
        assert_eq!(start, Position::startpos());
        assert_eq!(moves.len(), 20);
        let link = encode(&start, &moves).unwrap();
        assert_eq!(link.p, P);
        assert_eq!(link.r, R);
    }

    #[test]
    fn start_position_ids_match_the_seed() {
        let b = IdBoard::assign(&Position::startpos()).unwrap();
        let black: Vec<u8> = b.at[16 + 5..16 + 11].to_vec();
        assert_eq!(black, [1, 7, 0, 8, 19, 25]);
        let red: Vec<u8> = b.at[5..11].to_vec();
        assert_eq!(red, [88, 82, 89, 81, 70, 64]);
    }

    #[test]
    fn truncated_binary_round_trips() {
        for n in 1..100 {
            let mut w = BitWriter::new();
            for i in 0..n {
                write_truncated(&mut w, i, n);
            }
            let bytes = w.into_bytes(true);
            let mut r = BitReader::new(&bytes);
            for i in 0..n {
                assert_eq!(read_truncated(&mut r, n), Some(i));
            }
        }
    }
}
