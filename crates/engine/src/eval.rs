//! Static evaluation: material plus piece-square bonuses, from the side to move's view.

use xiangqi::{Color, PieceKind, Position, Square};

/// Material in centipawns.
pub(crate) const fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Horse => 400,
        PieceKind::Rook => 900,
        PieceKind::Cannon => 450,
        PieceKind::Pawn => 100,
    }
}

/// A positional bonus for `kind` on `sq`, seen from its own side (rank 0 = own back rank).
fn bonus(kind: PieceKind, color: Color, sq: Square) -> i32 {
    let sq = if color == Color::Red { sq } else { sq.flip() };
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let centre = 4 - (f - 4).abs(); // 0 at the edge, 4 on the middle file
    match kind {
        PieceKind::Pawn => match r {
            0..=2 => 0,
            3 => 0,
            4 => 10,
            5..=7 => 90 + centre * 8 + (r - 4) * 6,
            8 => 80 + centre * 6,
            _ => 40,
        },
        PieceKind::Horse => centre * 6 + r.min(7) * 5 - if (f == 0 || f == 8) && r == 0 { 10 } else { 0 },
        PieceKind::Rook => centre * 2 + if r >= 5 { 15 } else { 0 } + if r == 6 { 10 } else { 0 },
        PieceKind::Cannon => {
            (if f == 4 { 15 } else { 0 })
                + if r == 2 || r == 9 { 5 } else { 0 }
                + if (3..=6).contains(&r) { -5 } else { 0 }
        }
        PieceKind::King => -(r * 10) - (f - 4).abs() * 4,
        PieceKind::Advisor | PieceKind::Elephant => 0,
    }
}

/// The evaluation of `pos` for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for (sq, piece) in pos.pieces() {
        let v = value(piece.kind) + bonus(piece.kind, piece.color, sq);
        score += if piece.color == pos.turn() { v } else { -v };
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::startpos()), 0);
    }

    #[test]
    fn symmetric_for_both_sides() {
        let red: Position = "3k5/9/9/9/9/2P6/9/9/4A4/4K4 w - - 0 1".parse().unwrap();
        let black: Position = "4k4/4a4/9/9/6p2/9/9/9/9/5K3 b - - 0 1".parse().unwrap();
        assert_eq!(evaluate(&red), evaluate(&black));
        assert!(evaluate(&red) > 0);
    }
}
