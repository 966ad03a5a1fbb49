//! Attacks and protection, for the repetition rules: which squares a piece attacks, whether
//! it can legally capture there, and whether the piece it would capture is protected.
//!
//! These read the board directly and do not depend on whose turn it is, so they work for
//! either side and in any position (the move generator only answers for the side to move).

use crate::{Color, Move, Piece, PieceKind, Position, Square};

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Position {
    fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
        let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        if (0..9).contains(&f) && (0..10).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// The squares the piece on `from` attacks: where it could capture an enemy piece, its pins
    /// ignored. Squares holding its own pieces are included (that is what protecting means).
    /// The kings' facing each other is not an attack here.
    ///
    /// ```
    /// use xiangqi::{Position, Square};
    /// let pos = Position::startpos();
    /// let c: Square = "h2".parse().unwrap();
    /// let attacked: Vec<String> = pos.attacks_from(c).iter().map(|s| s.to_string()).collect();
    /// assert!(attacked.contains(&"h9".to_string())); // over the screen on h7
    /// ```
    pub fn attacks_from(&self, from: Square) -> Vec<Square> {
        self.attacks_from_with_blocker(from, None)
    }

    /// [`Position::attacks_from`] as if `blocker` (an empty square) were occupied.
    pub(crate) fn attacks_from_with_blocker(&self, from: Square, blocker: Option<Square>) -> Vec<Square> {
        let Some(piece) = self.piece_at(from) else { return Vec::new() };
        let occupied = |s: Square| Some(s) == blocker || self.piece_at(s).is_some();
        let mut out = Vec::new();
        let color = piece.color;
        match piece.kind {
            PieceKind::King => out.extend(
                ORTHOGONAL.iter().filter_map(|&(a, b)| Self::offset(from, a, b)).filter(|s| s.in_palace(color)),
            ),
            PieceKind::Advisor => out
                .extend(DIAGONAL.iter().filter_map(|&(a, b)| Self::offset(from, a, b)).filter(|s| s.in_palace(color))),
            PieceKind::Elephant => {
                for &(a, b) in &DIAGONAL {
                    if let (Some(eye), Some(to)) = (Self::offset(from, a, b), Self::offset(from, 2 * a, 2 * b)) {
                        if !occupied(eye) && color.owns_rank(to.rank()) {
                            out.push(to);
                        }
                    }
                }
            }
            PieceKind::Horse => {
                for &(a, b) in &ORTHOGONAL {
                    let Some(leg) = Self::offset(from, a, b) else { continue };
                    if occupied(leg) {
                        continue;
                    }
                    // Two targets beyond each free leg: straight on one more, then one to the side.
                    let sides = if a == 0 { [(1, 2 * b), (-1, 2 * b)] } else { [(2 * a, 1), (2 * a, -1)] };
                    out.extend(sides.iter().filter_map(|&(x, y)| Self::offset(from, x, y)));
                }
            }
            PieceKind::Rook | PieceKind::Cannon => {
                let screens = if piece.kind == PieceKind::Rook { 0 } else { 1 };
                for &(a, b) in &ORTHOGONAL {
                    let mut seen = 0;
                    let mut sq = from;
                    while let Some(next) = Self::offset(sq, a, b) {
                        sq = next;
                        if occupied(sq) {
                            if seen == screens {
                                out.push(sq);
                                break;
                            }
                            seen += 1;
                        } else if screens == 0 {
                            out.push(sq);
                        }
                    }
                }
            }
            PieceKind::Pawn => {
                let ahead = if color == Color::Red { 1 } else { -1 };
                out.extend(Self::offset(from, 0, ahead));
                if !color.owns_rank(from.rank()) {
                    out.extend(Self::offset(from, 1, 0));
                    out.extend(Self::offset(from, -1, 0));
                }
            }
        }
        out
    }

    /// Whether the piece on `from` could legally capture the piece on `to` if it were its
    /// side's turn (the captured piece must be the other colour).
    pub fn can_capture(&self, from: Square, to: Square) -> bool {
        let (Some(a), Some(b)) = (self.piece_at(from), self.piece_at(to)) else { return false };
        if a.color == b.color {
            return false;
        }
        let mut pos = self.clone();
        if pos.turn() != a.color {
            pos.swap_turn_unchecked();
        }
        pos.is_legal(Move::new(from, to))
    }

    /// Whether the piece on `sq` is protected: if an enemy piece took it, its side could take
    /// back on `sq` with a legal move. `by` is the square of the enemy piece that takes.
    pub fn is_protected_against(&self, sq: Square, by: Square) -> bool {
        let Some(Piece { color, .. }) = self.piece_at(sq) else { return false };
        if !self.can_capture(by, sq) {
            return true;
        }
        let mut pos = self.clone();
        if pos.turn() == color {
            pos.swap_turn_unchecked();
        }
        pos.play_unchecked(Move::new(by, sq));
        pos.legal_moves().iter().any(|m| m.to() == sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn attacks_and_protection() {
        let pos = Position::startpos();
        let mut horse: Vec<String> = pos.attacks_from(sq("b0")).iter().map(|s| s.to_string()).collect();
        horse.sort();
        assert_eq!(horse, ["a2", "c2"]); // d1 is blocked by the elephant on c0
                                         // A red rook on e5 attacks the black pawn on e6; the black rook on a6 guards it.
        let pos: Position = "4k4/9/9/r3p4/4R4/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        assert!(pos.attacks_from(sq("e5")).contains(&sq("e6")));
        assert!(pos.can_capture(sq("e5"), sq("e6")));
        assert!(pos.is_protected_against(sq("e6"), sq("e5")), "the black rook on a6 takes back");
        let pos: Position = "4k4/9/9/4p4/4R4/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        assert!(!pos.is_protected_against(sq("e6"), sq("e5")));
    }
}
