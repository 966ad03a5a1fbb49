//! Perft: counts the leaf nodes of the legal move tree, the standard test of move generation.

use crate::{Move, Position};

/// The number of legal move sequences of length `depth` from `pos`.
///
/// At the last ply the legal moves are counted, not played ("bulk counting").
///
/// ```
/// use xiangqi::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 2), 1920);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut pos = pos.clone();
    perft_in_place(&mut pos, depth)
}

fn perft_in_place(pos: &mut Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.play_unchecked(m);
        nodes += perft_in_place(pos, depth - 1);
        pos.undo(m, undo);
    }
    nodes
}

/// Perft split by root move ("divide"), in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.play_unchecked(m);
            let n = if depth <= 1 { 1 } else { perft_in_place(&mut pos, depth - 1) };
            pos.undo(m, undo);
            (m, n)
        })
        .collect()
}
