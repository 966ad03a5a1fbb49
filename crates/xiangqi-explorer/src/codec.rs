//! The packed games format: what the build script writes for the master games and what
//! [`Explorer::pack`](crate::Explorer::pack) writes for a user's collection. One byte a move:
//! its place among the position's legal moves sorted by their number, so a game of 90 plies
//! takes 90 bytes plus its name. Shared with `build.rs` (included there by path), so it uses
//! nothing but `std` and the rules.
//!
//! Layout: `QIX1`, the game count, then per game its id, its result byte (0 unknown, 1 Red
//! won, 2 draw, 3 Black won), its start FEN (empty for the standard start), its ply count and
//! one byte per ply. Counts and lengths are LEB128 numbers.

use xiangqi::{Move, Position};

/// The format's first bytes (its version is the digit).
const MAGIC: &[u8; 4] = b"QIX1";

/// A game as the format holds it, its moves unpacked (what the build script writes).
#[allow(dead_code)] // Only build.rs, which includes this file, makes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PackedGame {
    /// The game's name in its collection.
    pub id: String,
    /// 0 unknown, 1 Red won, 2 draw, 3 Black won.
    pub result: u8,
    /// The start position.
    pub start: Position,
    /// Its moves, all legal.
    pub moves: Vec<Move>,
}

/// The legal moves of `pos`, sorted by number: a move's byte is its place here.
fn sorted_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves().to_vec();
    moves.sort_unstable();
    moves
}

/// A game with its moves still packed, one byte a ply (what the format stores).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawGame {
    /// The game's name.
    pub id: String,
    /// 0 unknown, 1 Red won, 2 draw, 3 Black won.
    pub result: u8,
    /// The start position.
    pub start: Position,
    /// One byte a ply: the move's place among the sorted legal moves.
    pub plies: Vec<u8>,
}

fn put_number(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The bytes of `moves` played from `pos` (which ends after them); a move that is not legal is
/// an error with its index.
pub(crate) fn plies_of(pos: &mut Position, moves: &[Move]) -> Result<Vec<u8>, usize> {
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let place = sorted_moves(pos).iter().position(|&l| l == m).ok_or(i)?;
        plies.push(place as u8);
        pos.play_unchecked(m);
    }
    Ok(plies)
}

/// The moves of `plies` played from `pos` (which ends after them); a byte that names no legal
/// move is an error with its index.
pub(crate) fn moves_of(pos: &mut Position, plies: &[u8]) -> Result<Vec<Move>, usize> {
    let mut moves = Vec::with_capacity(plies.len());
    for (i, &place) in plies.iter().enumerate() {
        let m = *sorted_moves(pos).get(usize::from(place)).ok_or(i)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Writes games whose moves are packed already.
pub(crate) fn encode_raw<'a>(games: impl ExactSizeIterator<Item = &'a RawGame>) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    put_number(&mut out, games.len());
    let standard = Position::startpos();
    for game in games {
        put_number(&mut out, game.id.len());
        out.extend_from_slice(game.id.as_bytes());
        out.push(game.result);
        let fen = if game.start == standard { String::new() } else { game.start.fen() };
        put_number(&mut out, fen.len());
        out.extend_from_slice(fen.as_bytes());
        put_number(&mut out, game.plies.len());
        out.extend_from_slice(&game.plies);
    }
    out
}

/// Packs `games`; a move that is not legal where it is played is an error naming the game.
#[allow(dead_code)] // Only build.rs, which includes this file, calls it.
pub(crate) fn encode(games: &[PackedGame]) -> Result<Vec<u8>, String> {
    let mut raw = Vec::with_capacity(games.len());
    for g in games {
        let plies = plies_of(&mut g.start.clone(), &g.moves)
            .map_err(|i| format!("game {}: move {} ({}) is not legal", g.id, i + 1, g.moves[i]))?;
        raw.push(RawGame { id: g.id.clone(), result: g.result, start: g.start.clone(), plies });
    }
    Ok(encode_raw(raw.iter()))
}

/// A reader over the packed bytes that says where they stop making sense.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or_else(|| format!("the data stops at byte {}", self.at))?;
        self.at += 1;
        Ok(b)
    }

    fn number(&mut self) -> Result<usize, String> {
        let mut n = 0usize;
        for shift in (0..usize::BITS).step_by(7) {
            let b = self.byte()?;
            n |= usize::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(format!("a number too large at byte {}", self.at))
    }

    fn text(&mut self) -> Result<String, String> {
        let len = self.number()?;
        let end = self.at.checked_add(len).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("a text of {len} bytes runs past the end at byte {}", self.at))?;
        let text = std::str::from_utf8(&self.bytes[self.at..end])
            .map_err(|_| format!("text at byte {} is not UTF-8", self.at))?;
        self.at = end;
        Ok(text.to_string())
    }
}

/// Reads what [`encode`] wrote, leaving the moves packed (one byte a ply, so nothing needs
/// the rules): anything else is an error saying where it went wrong.
pub(crate) fn decode_raw(bytes: &[u8]) -> Result<Vec<RawGame>, String> {
    if bytes.get(..4) != Some(&MAGIC[..]) {
        return Err("not packed games (no QIX1 header)".to_string());
    }
    let mut r = Reader { bytes, at: 4 };
    let count = r.number()?;
    // Every game takes at least four bytes: a count past that is a damaged file.
    if count > bytes.len() / 4 {
        return Err(format!("{count} games cannot fit in {} bytes", bytes.len()));
    }
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        let id = r.text()?;
        let result = r.byte()?;
        if result > 3 {
            return Err(format!("game {id}: result byte {result}"));
        }
        let fen = r.text()?;
        let start = if fen.is_empty() {
            Position::startpos()
        } else {
            Position::from_fen(&fen).map_err(|e| format!("game {id}: start position: {e}"))?
        };
        let plies = r.number()?;
        let end = r.at.checked_add(plies).filter(|&e| e <= bytes.len());
        let end = end.ok_or_else(|| {
            format!("game {id}: {plies} plies run past the end, the data stops at byte {}", bytes.len())
        })?;
        games.push(RawGame { id, result, start, plies: bytes[r.at..end].to_vec() });
        r.at = end;
    }
    if r.at != bytes.len() {
        return Err(format!("{} bytes left over after {count} games", bytes.len() - r.at));
    }
    Ok(games)
}

/// The error for a ply byte of `game` (at index `ply`) that names no legal move.
pub(crate) fn bad_ply(game: &RawGame, ply: usize) -> String {
    format!("game {}: ply {} names move {}, which is not there", game.id, ply + 1, game.plies[ply])
}
