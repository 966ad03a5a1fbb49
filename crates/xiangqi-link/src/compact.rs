//! Our compact format: the value of `g` is one version character, then base64url characters
//! holding the bits of one arithmetic-coded stream (integer only, `coder`):
//!
//! 1. a flag "custom start" (probability 1/64); when set, the start position's board code
//!    ([`super::board`]);
//! 2. for each ply, unless the side to move has no legal move (then the game ends): a flag
//!    "the game ends here" (probability 1/1024 before ply 40, 1/64 before ply 100, then 1/32),
//!    then the move, coded with the probability the
//!    version's move model ([`super::model`]) gives it among the legal moves in `Move::to_u16`
//!    order.
//!
//! Trailing zero bits (and so trailing `A` characters) are dropped: the decoder reads zeros past
//! the end.
//!
//! Versions (the first character is the version number in base64url): `B` = 1. A version's
//! model data never changes; a new model gets a new version and the old ones keep decoding.

use super::board::BoardModel;
use super::coder::{Decoder, Encoder};
use super::model::Model;
use super::{bits, LinkError};
use xiangqi::{Move, Position};

/// The version this library writes.
pub const VERSION: u8 = 1;
/// More plies than any game has; a longer stream is an error (it also bounds decoding time).
pub const MAX_PLIES: usize = 4000;
const CUSTOM_P: (u32, u32) = (1, 64);

/// The probability that the game ends before ply `ply` (0-based), fitted to the length of real
/// games (14 to 198 plies, 88 on average).
fn end_p(ply: usize) -> (u32, u32) {
    match ply {
        0..=39 => (1, 1024),
        40..=99 => (1, 64),
        _ => (1, 32),
    }
}

/// Whether `text` starts with the character of a version this library reads.
pub(crate) fn is_versioned(text: &str) -> bool {
    text.as_bytes().first().and_then(|&c| bits::char_value(c)) == Some(VERSION)
}

fn models(version: u8) -> Option<(&'static Model, &'static BoardModel)> {
    match version {
        1 => Some((Model::v1(), BoardModel::v1())),
        _ => None,
    }
}

fn sorted_moves(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    moves.sort_unstable();
    moves
}

/// The stream's bits for a game (without the version character).
pub(crate) fn encode_bits(start: &Position, moves: &[Move]) -> Result<bits::BitWriter, LinkError> {
    let (model, board) = models(VERSION).expect("the current version has models");
    let mut enc = Encoder::new();
    // Only the board and the side to move count: the move counters are not stored.
    let standard = Position::startpos();
    let custom = start.piece_codes() != standard.piece_codes() || start.turn() != standard.turn();
    enc.encode_bit(custom, CUSTOM_P.0, CUSTOM_P.1);
    if custom {
        board.encode(&mut enc, start);
    }
    let mut pos = start.clone();
    // Counters are not part of the format: the standard start has 0 and 1.
    let (mut scratch, mut freq) = (Vec::with_capacity(128), Vec::with_capacity(128));
    for ply in 0..=moves.len() {
        let legal = sorted_moves(&pos);
        if legal.is_empty() {
            if ply < moves.len() {
                return Err(LinkError::IllegalMove { ply: ply + 1, mv: moves[ply].to_string() });
            }
            break;
        }
        let (p, total) = end_p(ply);
        enc.encode_bit(ply == moves.len(), p, total);
        if ply == moves.len() {
            break;
        }
        let m = moves[ply];
        let i = legal.binary_search(&m).map_err(|_| LinkError::IllegalMove { ply: ply + 1, mv: m.to_string() })?;
        let total = model.frequencies(&mut pos, &moves[..ply], &legal, &mut scratch, &mut freq);
        let lo: u32 = freq[..i].iter().sum();
        enc.encode(lo, lo + freq[i], total);
        pos.play_unchecked(m);
    }
    if moves.len() > MAX_PLIES {
        return Err(LinkError::TooLong);
    }
    Ok(enc.finish())
}

/// The length in bits of a game's stream (the value without its version character and
/// before the last character's padding).
pub fn stream_bits(start: &Position, moves: &[Move]) -> Result<usize, LinkError> {
    encode_bits(start, moves).map(|b| b.len())
}

/// Encodes a game; an illegal move is an error naming its ply.
pub fn try_encode(start: &Position, moves: &[Move]) -> Result<String, LinkError> {
    let out = encode_bits(start, moves)?;
    let mut s = String::with_capacity(1 + out.len().div_ceil(6));
    s.push(bits::value_char(VERSION));
    s += &out.to_base64_bits();
    Ok(s)
}

/// Encodes a game (the value of `g`).
///
/// # Panics
/// If a move is illegal; [`try_encode`] returns an error instead.
pub fn encode(start: &Position, moves: &[Move]) -> String {
    try_encode(start, moves).unwrap_or_else(|e| panic!("encode_compact: {e}"))
}

/// Decodes the value of `g`.
pub fn decode(text: &str) -> Result<(Position, Vec<Move>), LinkError> {
    let first = *text.as_bytes().first().ok_or(LinkError::Empty)?;
    let version = bits::char_value(first).ok_or(LinkError::BadCharacter {
        field: "g",
        position: 0,
        character: bits::char_of(text, 0),
    })?;
    let (model, board) = models(version).ok_or(LinkError::UnknownVersion(first as char))?;
    // The payload's bits, 6 per character.
    let payload = &text.as_bytes()[1..];
    let mut bytes = vec![0u8; (payload.len() * 6).div_ceil(8)];
    for (i, &c) in payload.iter().enumerate() {
        let v = bits::char_value(c).ok_or(LinkError::BadCharacter {
            field: "g",
            position: i + 1,
            character: bits::char_of(text, i + 1),
        })?;
        for b in 0..6 {
            if v >> (5 - b) & 1 != 0 {
                let k = i * 6 + b;
                bytes[k / 8] |= 0x80 >> (k % 8);
            }
        }
    }
    let mut nbits = payload.len() * 6;
    while nbits > 0 && bytes[(nbits - 1) / 8] & (0x80 >> ((nbits - 1) % 8)) == 0 {
        nbits -= 1;
    }
    let mut dec = Decoder::new(&bytes, nbits);
    let start = if dec.decode_bit(CUSTOM_P.0, CUSTOM_P.1) { board.decode(&mut dec)? } else { Position::startpos() };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let (mut scratch, mut freq, mut cum) = (Vec::with_capacity(128), Vec::with_capacity(128), Vec::with_capacity(129));
    loop {
        let legal = sorted_moves(&pos);
        let (p, total) = end_p(moves.len());
        if legal.is_empty() || dec.decode_bit(p, total) {
            break;
        }
        if moves.len() >= MAX_PLIES {
            return Err(LinkError::TooLong);
        }
        let total = model.frequencies(&mut pos, &moves, &legal, &mut scratch, &mut freq);
        cum.clear();
        cum.push(0);
        let mut acc = 0;
        for &f in freq.iter() {
            acc += f;
            cum.push(acc);
        }
        debug_assert_eq!(acc, total);
        let m = legal[dec.decode_symbol(&cum)];
        // A truncated link runs into the zeros past its end; a real one never reads far there.
        if dec.overrun() > 64 {
            return Err(LinkError::Truncated { field: "g" });
        }
        pos.play_unchecked(m);
        moves.push(m);
    }
    if nbits > dec.bits_read() + 2 {
        return Err(LinkError::TrailingData { field: "g" });
    }
    Ok((start, moves))
}
