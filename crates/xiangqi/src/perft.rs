//! Perft: counts the leaf nodes of the legal move tree, the standard test of move generation.

use crate::{Move, Position};

/// The deepest perft allowed. Perft recurses once per ply, so the depth bounds the stack it
/// uses (a few hundred bytes a ply; about 25,000 plies overflowed the main thread's stack).
/// From the start position depth 6 already has 5.4 billion leaves and depth 10 would take
/// years, so no useful count is lost.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// The number of legal move sequences of length `depth` from `pos`.
///
/// At the last ply the legal moves are counted, not played ("bulk counting").
///
/// ```
/// use xiangqi::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 2), 1920);
/// ```
///
/// # Panics
/// If `depth` is above [`MAX_PERFT_DEPTH`]; check it first where the depth comes from a user.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    check_depth(depth);
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
///
/// # Panics
/// If `depth` is above [`MAX_PERFT_DEPTH`].
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    check_depth(depth);
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

fn check_depth(depth: u32) {
    assert!(depth <= MAX_PERFT_DEPTH, "perft depth {depth} is above the limit of {MAX_PERFT_DEPTH}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deepest_allowed_perft_runs_where_there_are_no_moves() {
        // Black is mated: every depth counts 0 leaves, and the limit itself is accepted.
        let mated: Position = "3k4R/9/3P5/9/9/9/9/9/9/4K4 b - - 1 1".parse().unwrap();
        assert_eq!(perft(&mated, MAX_PERFT_DEPTH), perft(&mated, 1));
    }

    #[test]
    #[should_panic(expected = "above the limit")]
    fn a_deeper_perft_is_refused_before_it_recurses() {
        perft(&Position::startpos(), u32::MAX);
    }
}
