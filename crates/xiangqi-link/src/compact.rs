//! Our compact format: the value of `g` is one version character, then base64url characters
//! holding the bits of one arithmetic-coded stream (integer only, `coder`):
//!
//! 1. a flag "custom start" (probability 1/64); when set, the start position's board code
//!    ([`super::board`]);
//! 2. version 2 only: the start position's move counters, the half-move clock and then the
//!    move number minus one, each an Elias gamma code of the number plus one (bits of
//!    probability 1/2: `119 80` takes 26 bits);
//! 3. for each ply, unless the side to move has no legal move (then the game ends): a flag
//!    "the game ends here" (probability 1/1024 before ply 40, 1/64 before ply 100, then 1/32),
//!    then the move, coded with the probability the
//!    version's move model ([`super::model`]) gives it among the legal moves in `Move::to_u16`
//!    order.
//!
//! Trailing zero bits (and so trailing `A` characters) are dropped: the decoder reads zeros past
//! the end.
//!
//! Versions (the first character is the version number in base64url): `B` = 1, `C` = 2. A
//! version's model data never changes; a new model gets a new version and the old ones keep
//! decoding. Version 2 is version 1 (same models) with the move counters: the encoder writes it
//! only for a start whose counters are not `0 1`, so every other game keeps its version 1 link.

use super::board::BoardModel;
use super::coder::{Decoder, Encoder};
use super::model::Model;
use super::{bits, LinkError};
use xiangqi::{Move, Position, MAX_GAME_PLIES};

/// The version written for a start whose move counters are `0 1` (they are not stored).
pub const VERSION: u8 = 1;
/// The version written for a start with other move counters (they are stored).
pub const VERSION_WITH_COUNTERS: u8 = 2;
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
    text.as_bytes().first().and_then(|&c| bits::char_value(c)).is_some_and(|v| models(v).is_some())
}

fn models(version: u8) -> Option<(&'static Model, &'static BoardModel)> {
    match version {
        VERSION | VERSION_WITH_COUNTERS => Some((Model::v1(), BoardModel::v1())),
        _ => None,
    }
}

/// The version a game from `start` is written in.
fn version_for(start: &Position) -> u8 {
    if (start.halfmoves(), start.fullmoves()) == (0, 1) {
        VERSION
    } else {
        VERSION_WITH_COUNTERS
    }
}

/// Longest Elias gamma prefix read: a `u32` plus one has at most 33 bits.
const MAX_GAMMA_ZEROS: u32 = 32;

/// Writes `n` as the Elias gamma code of `n + 1`, one bit of probability 1/2 at a time.
fn encode_number(enc: &mut Encoder, n: u32) {
    let v = u64::from(n) + 1;
    let len = 64 - v.leading_zeros();
    for _ in 1..len {
        enc.encode_bit(false, 1, 2);
    }
    for i in (0..len).rev() {
        enc.encode_bit(v >> i & 1 == 1, 1, 2);
    }
}

fn counters_out_of_range() -> LinkError {
    LinkError::BadBoard("the move counters are out of range".into())
}

fn decode_number(dec: &mut Decoder) -> Result<u32, LinkError> {
    let mut zeros = 0;
    while !dec.decode_bit(1, 2) {
        zeros += 1;
        if zeros > MAX_GAMMA_ZEROS {
            return Err(counters_out_of_range());
        }
    }
    let mut v = 1u64;
    for _ in 0..zeros {
        v = v << 1 | u64::from(dec.decode_bit(1, 2));
    }
    u32::try_from(v - 1).map_err(|_| counters_out_of_range())
}

fn sorted_moves(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    moves.sort_unstable();
    moves
}

/// The stream's bits for a game (without the version character).
pub(crate) fn encode_bits(start: &Position, moves: &[Move]) -> Result<bits::BitWriter, LinkError> {
    if moves.len() > MAX_GAME_PLIES {
        return Err(LinkError::TooLong);
    }
    let version = version_for(start);
    let (model, board) = models(version).expect("the versions written have models");
    let mut enc = Encoder::new();
    // Only the board and the side to move count here; the counters follow in version 2.
    let standard = Position::startpos();
    let custom = start.piece_codes() != standard.piece_codes() || start.turn() != standard.turn();
    enc.encode_bit(custom, CUSTOM_P.0, CUSTOM_P.1);
    if custom {
        board.encode(&mut enc, start);
    }
    if version >= VERSION_WITH_COUNTERS {
        encode_number(&mut enc, start.halfmoves());
        encode_number(&mut enc, start.fullmoves() - 1);
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
    s.push(bits::value_char(version_for(start)));
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
    let mut start = if dec.decode_bit(CUSTOM_P.0, CUSTOM_P.1) { board.decode(&mut dec)? } else { Position::startpos() };
    if version >= VERSION_WITH_COUNTERS {
        let mut setup = start.to_setup();
        setup.halfmoves = decode_number(&mut dec)?;
        setup.fullmoves = decode_number(&mut dec)?.checked_add(1).ok_or_else(counters_out_of_range)?;
        start = Position::from_setup(&setup).map_err(|e| LinkError::BadBoard(e.to_string()))?;
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let (mut scratch, mut freq, mut cum) = (Vec::with_capacity(128), Vec::with_capacity(128), Vec::with_capacity(129));
    loop {
        let legal = sorted_moves(&pos);
        let (p, total) = end_p(moves.len());
        if legal.is_empty() || dec.decode_bit(p, total) {
            break;
        }
        // A longer stream is an error (the limit also bounds decoding time).
        if moves.len() >= MAX_GAME_PLIES {
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
