//! Why a move is illegal, in words a player understands: "the horse's leg is blocked",
//! "the rook is pinned: the king would be in check".
//!
//! Move generation only answers yes or no; [`Position::why_illegal`] walks the rules one by one
//! (whose piece, how it moves, what stands in the way, what the move does to the own king) and
//! names the first one the move breaks.

use crate::{Color, Move, Piece, PieceKind, Position, Square};
use core::fmt;

/// The rule an illegal move breaks; see [`Position::why_illegal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalReason {
    /// The move starts on an empty point.
    NoPiece {
        /// The empty start point.
        from: Square,
    },
    /// The piece on the start point belongs to the side not to move.
    NotYourTurn {
        /// The moving piece.
        piece: Piece,
    },
    /// The move ends on the moving side's own piece.
    OwnPiece {
        /// The moving piece.
        piece: Piece,
        /// The own piece on the target point.
        target: Piece,
    },
    /// The move starts and ends on the same point.
    NullMove,
    /// The piece never moves that way (a horse moving straight, a rook moving diagonally...).
    WrongShape {
        /// The moving piece.
        piece: Piece,
    },
    /// A king or an advisor would leave its palace.
    LeavesPalace {
        /// The moving piece.
        piece: Piece,
    },
    /// An elephant would cross the river.
    CrossesRiver {
        /// The moving piece.
        piece: Piece,
    },
    /// A pawn would move backwards.
    PawnBackwards {
        /// The moving piece.
        piece: Piece,
    },
    /// A pawn would move sideways before it has crossed the river.
    PawnSidewaysBeforeRiver {
        /// The moving piece.
        piece: Piece,
    },
    /// A horse's leg (the point next to it in the direction it moves) is taken.
    HorseLegBlocked {
        /// The moving piece.
        piece: Piece,
        /// The taken leg point.
        leg: Square,
    },
    /// An elephant's eye (the point between its start and end) is taken.
    ElephantEyeBlocked {
        /// The moving piece.
        piece: Piece,
        /// The taken eye point.
        eye: Square,
    },
    /// A rook, a cannon moving without capturing, or a king stepping is blocked by the piece on
    /// `blocker`.
    PathBlocked {
        /// The moving piece.
        piece: Piece,
        /// The first piece in the way.
        blocker: Square,
    },
    /// A cannon captures only by jumping over exactly one piece (the screen); `screens` is how
    /// many stand between.
    CannonNeedsScreen {
        /// The moving piece.
        piece: Piece,
        /// How many pieces stand between the cannon and its target.
        screens: u8,
    },
    /// After the move the two kings would face each other on an open file.
    FacingKings {
        /// The moving piece.
        piece: Piece,
    },
    /// The piece shields its own king from the enemy piece on `by`; moving it away exposes it.
    Pinned {
        /// The moving piece.
        piece: Piece,
        /// The enemy piece that would take the king.
        by: Square,
    },
    /// The king is in check from `by` and the move does not answer it.
    StillInCheck {
        /// The moving piece.
        piece: Piece,
        /// The enemy piece that would take the king.
        by: Square,
    },
    /// The king would step onto a point the enemy piece on `by` attacks.
    KingIntoCheck {
        /// The moving piece.
        piece: Piece,
        /// The enemy piece that would take the king.
        by: Square,
    },
}

impl IllegalReason {
    /// A short, stable name for the reason (`"horse leg blocked"`), for programs and translations.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalReason::NoPiece { .. } => "no piece",
            IllegalReason::NotYourTurn { .. } => "not your turn",
            IllegalReason::OwnPiece { .. } => "own piece",
            IllegalReason::NullMove => "null move",
            IllegalReason::WrongShape { .. } => "wrong shape",
            IllegalReason::LeavesPalace { .. } => "leaves palace",
            IllegalReason::CrossesRiver { .. } => "crosses river",
            IllegalReason::PawnBackwards { .. } => "pawn backwards",
            IllegalReason::PawnSidewaysBeforeRiver { .. } => "pawn sideways before river",
            IllegalReason::HorseLegBlocked { .. } => "horse leg blocked",
            IllegalReason::ElephantEyeBlocked { .. } => "elephant eye blocked",
            IllegalReason::PathBlocked { .. } => "path blocked",
            IllegalReason::CannonNeedsScreen { .. } => "cannon needs screen",
            IllegalReason::FacingKings { .. } => "facing kings",
            IllegalReason::Pinned { .. } => "pinned",
            IllegalReason::StillInCheck { .. } => "still in check",
            IllegalReason::KingIntoCheck { .. } => "king into check",
        }
    }

    /// The moving piece, when there is one.
    pub const fn piece(self) -> Option<Piece> {
        match self {
            IllegalReason::NoPiece { .. } | IllegalReason::NullMove => None,
            IllegalReason::NotYourTurn { piece }
            | IllegalReason::OwnPiece { piece, .. }
            | IllegalReason::WrongShape { piece }
            | IllegalReason::LeavesPalace { piece }
            | IllegalReason::CrossesRiver { piece }
            | IllegalReason::PawnBackwards { piece }
            | IllegalReason::PawnSidewaysBeforeRiver { piece }
            | IllegalReason::HorseLegBlocked { piece, .. }
            | IllegalReason::ElephantEyeBlocked { piece, .. }
            | IllegalReason::PathBlocked { piece, .. }
            | IllegalReason::CannonNeedsScreen { piece, .. }
            | IllegalReason::FacingKings { piece }
            | IllegalReason::Pinned { piece, .. }
            | IllegalReason::StillInCheck { piece, .. }
            | IllegalReason::KingIntoCheck { piece, .. } => Some(piece),
        }
    }

    /// The other point the reason is about: the leg, the eye, the blocker or the attacker.
    pub const fn square(self) -> Option<Square> {
        match self {
            IllegalReason::NoPiece { from } => Some(from),
            IllegalReason::HorseLegBlocked { leg: s, .. }
            | IllegalReason::ElephantEyeBlocked { eye: s, .. }
            | IllegalReason::PathBlocked { blocker: s, .. }
            | IllegalReason::Pinned { by: s, .. }
            | IllegalReason::StillInCheck { by: s, .. }
            | IllegalReason::KingIntoCheck { by: s, .. } => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalReason::NoPiece { from } => write!(f, "there is no piece on {from}"),
            IllegalReason::NotYourTurn { piece } => {
                write!(f, "the {} {} belongs to the side not to move", piece.color, piece.kind)
            }
            IllegalReason::OwnPiece { piece, target } => {
                write!(f, "the {} cannot capture its own {}", piece.kind, target.kind)
            }
            IllegalReason::NullMove => f.write_str("the move does not go anywhere"),
            IllegalReason::WrongShape { piece } => write!(f, "the {} does not move that way", piece.kind),
            IllegalReason::LeavesPalace { piece } => write!(f, "the {} cannot leave the palace", piece.kind),
            IllegalReason::CrossesRiver { piece } => write!(f, "the {} cannot cross the river", piece.kind),
            IllegalReason::PawnBackwards { .. } => f.write_str("a pawn never moves backwards"),
            IllegalReason::PawnSidewaysBeforeRiver { .. } => {
                f.write_str("a pawn moves sideways only after crossing the river")
            }
            IllegalReason::HorseLegBlocked { leg, .. } => write!(f, "the horse's leg is blocked (on {leg})"),
            IllegalReason::ElephantEyeBlocked { eye, .. } => write!(f, "the elephant's eye is blocked (on {eye})"),
            IllegalReason::PathBlocked { piece, blocker } => {
                write!(f, "the {}'s path is blocked (on {blocker})", piece.kind)
            }
            IllegalReason::CannonNeedsScreen { screens, .. } => {
                write!(f, "a cannon captures by jumping over exactly one piece ({screens} in between)")
            }
            IllegalReason::FacingKings { .. } => f.write_str("the kings would face each other on an open file"),
            IllegalReason::Pinned { piece, by } => {
                write!(f, "the {} is pinned: the king would be in check from {by}", piece.kind)
            }
            IllegalReason::StillInCheck { by, .. } => write!(f, "the king is in check from {by} and stays in check"),
            IllegalReason::KingIntoCheck { by, .. } => write!(f, "the king would be in check from {by}"),
        }
    }
}

impl std::error::Error for IllegalReason {}

impl Position {
    /// Why `m` is illegal here, or `None` when it is legal (exactly when
    /// [`is_legal`](Position::is_legal) says so).
    ///
    /// The reasons are checked in the order a player thinks of them: is there a piece of the
    /// side to move, does the piece move that way, is something in the way, and does the move
    /// leave the own king in check (pinned, facing kings, an unanswered check, a king stepping
    /// into check).
    ///
    /// ```
    /// use xiangqi::{IllegalReason, Position};
    /// let pos = Position::startpos();
    /// assert!(pos.why_illegal("b0c2".parse().unwrap()).is_none()); // a legal horse jump
    /// // Straight ahead is no horse move at all.
    /// let why = pos.why_illegal("b0b3".parse().unwrap()).unwrap();
    /// assert_eq!(why.code(), "wrong shape");
    /// // The rook on a0 cannot pass its own pawn on a3.
    /// let why = pos.why_illegal("a0a5".parse().unwrap()).unwrap();
    /// assert_eq!(why.to_string(), "the rook's path is blocked (on a3)");
    /// ```
    pub fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else { return Some(IllegalReason::NoPiece { from }) };
        if piece.color != self.turn() {
            return Some(IllegalReason::NotYourTurn { piece });
        }
        if from == to {
            return Some(IllegalReason::NullMove);
        }
        if let Some(target) = self.piece_at(to).filter(|t| t.color == piece.color) {
            return Some(IllegalReason::OwnPiece { piece, target });
        }
        if let Err(reason) = self.reaches(piece, from, to) {
            return Some(reason);
        }
        self.king_safety(piece, m)
    }

    /// Whether `piece` on `from` could move to `to` by its own rules (ignoring check).
    fn reaches(&self, piece: Piece, from: Square, to: Square) -> Result<(), IllegalReason> {
        let (df, dr) = (to.file() as i8 - from.file() as i8, to.rank() as i8 - from.rank() as i8);
        let forward: i8 = if piece.color == Color::Red { 1 } else { -1 };
        let wrong = IllegalReason::WrongShape { piece };
        let at = |f: i8, r: i8| Square::new((from.file() as i8 + f) as u8, (from.rank() as i8 + r) as u8);
        match piece.kind {
            PieceKind::King => {
                if df.abs() + dr.abs() != 1 {
                    return Err(wrong);
                }
                if !to.in_palace(piece.color) {
                    return Err(IllegalReason::LeavesPalace { piece });
                }
            }
            PieceKind::Advisor => {
                if df.abs() != 1 || dr.abs() != 1 {
                    return Err(wrong);
                }
                if !to.in_palace(piece.color) {
                    return Err(IllegalReason::LeavesPalace { piece });
                }
            }
            PieceKind::Elephant => {
                if df.abs() != 2 || dr.abs() != 2 {
                    return Err(wrong);
                }
                if !piece.color.owns_rank(to.rank()) {
                    return Err(IllegalReason::CrossesRiver { piece });
                }
                let eye = at(df / 2, dr / 2).expect("between two points of the board");
                if self.piece_at(eye).is_some() {
                    return Err(IllegalReason::ElephantEyeBlocked { piece, eye });
                }
            }
            PieceKind::Horse => {
                let leg = match (df.abs(), dr.abs()) {
                    (1, 2) => at(0, dr / 2),
                    (2, 1) => at(df / 2, 0),
                    _ => return Err(wrong),
                };
                let leg = leg.expect("next to the horse");
                if self.piece_at(leg).is_some() {
                    return Err(IllegalReason::HorseLegBlocked { piece, leg });
                }
            }
            PieceKind::Pawn => {
                let crossed = !piece.color.owns_rank(from.rank());
                if dr == -forward && df == 0 {
                    return Err(IllegalReason::PawnBackwards { piece });
                }
                if dr == 0 && df.abs() == 1 {
                    if !crossed {
                        return Err(IllegalReason::PawnSidewaysBeforeRiver { piece });
                    }
                } else if !(dr == forward && df == 0) {
                    return Err(if dr * forward < 0 { IllegalReason::PawnBackwards { piece } } else { wrong });
                }
            }
            PieceKind::Rook | PieceKind::Cannon => {
                if df != 0 && dr != 0 {
                    return Err(wrong);
                }
                let (sf, sr) = (df.signum(), dr.signum());
                let between: Vec<Square> = (1..df.abs().max(dr.abs()))
                    .filter_map(|i| at(sf * i, sr * i))
                    .filter(|&s| self.piece_at(s).is_some())
                    .collect();
                let capture = self.piece_at(to).is_some();
                if piece.kind == PieceKind::Cannon && capture {
                    if between.len() != 1 {
                        return Err(IllegalReason::CannonNeedsScreen { piece, screens: between.len() as u8 });
                    }
                } else if let Some(&blocker) = between.first() {
                    return Err(IllegalReason::PathBlocked { piece, blocker });
                }
            }
        }
        Ok(())
    }

    /// For a move the piece can make: what it does to the own king, `None` when nothing bad.
    fn king_safety(&self, piece: Piece, m: Move) -> Option<IllegalReason> {
        if self.is_legal(m) {
            return None;
        }
        let us = piece.color;
        let mut after = self.clone();
        after.play_unchecked(m);
        let king = after.king(us);
        let enemy = after.king(us.other());
        if king.file() == enemy.file() && after.between_count(king, enemy) == 0 {
            return Some(IllegalReason::FacingKings { piece });
        }
        // An enemy piece that could now take the king; after the move it is the enemy's turn.
        let by = after
            .pieces()
            .filter(|&(_, p)| p.color != us && p.kind != PieceKind::King)
            .find(|&(s, p)| after.reaches(p, s, king).is_ok())
            .map(|(s, _)| s)
            .unwrap_or(enemy);
        Some(if piece.kind == PieceKind::King {
            IllegalReason::KingIntoCheck { piece, by }
        } else if self.is_check() {
            IllegalReason::StillInCheck { piece, by }
        } else {
            IllegalReason::Pinned { piece, by }
        })
    }

    /// The number of pieces strictly between two points of one file.
    fn between_count(&self, a: Square, b: Square) -> usize {
        let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
        (lo + 1..hi).filter(|&r| Square::new(a.file(), r).and_then(|s| self.piece_at(s)).is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(fen: &str, m: &str) -> Option<IllegalReason> {
        let pos: Position = fen.parse().unwrap();
        pos.why_illegal(m.parse().unwrap())
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn names_each_rule() {
        let code = |fen: &str, m: &str| why(fen, m).map(IllegalReason::code);
        assert_eq!(code(START, "e4e5"), Some("no piece"));
        assert_eq!(code(START, "e6e5"), Some("not your turn"));
        assert_eq!(code(START, "a0a3"), Some("own piece"));
        assert_eq!(code(START, "b0b3"), Some("wrong shape"));
        assert_eq!(code(START, "e0e1").or(Some("legal")), Some("legal"));
        assert_eq!(code(START, "d0c1"), Some("leaves palace"));
        assert_eq!(code(START, "a3b3"), Some("pawn sideways before river"));
        assert_eq!(code(START, "a0a5"), Some("path blocked"));
        assert!(why(START, "b2b9").is_none(), "the cannon takes the horse over the cannon on b7");
        assert_eq!(code(START, "b2b8"), Some("path blocked"));
        let no_screen = why(START, "b2b7").unwrap().to_string();
        assert_eq!(no_screen, "a cannon captures by jumping over exactly one piece (0 in between)");
        // Horse with a blocked leg: the rook on b1 stops b0-c2.
        let legged = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1R7/1NBAKABNR w - - 0 1";
        assert_eq!(
            why(legged, "b0c2"),
            Some(IllegalReason::HorseLegBlocked {
                piece: Piece::new(Color::Red, PieceKind::Horse),
                leg: "b1".parse().unwrap(),
            })
        );
        // Elephant: the eye d1 taken, and the river.
        let eye = "3k5/9/9/9/9/2B6/9/9/3N5/2B1K4 w - - 0 1";
        assert_eq!(code(eye, "c0e2"), Some("elephant eye blocked"));
        assert_eq!(code(eye, "c4e6"), Some("crosses river"));
        // A pawn over the river may go sideways but never back.
        let pawn = "4k4/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1";
        assert!(why(pawn, "e6d6").is_none());
        assert_eq!(code(pawn, "e6e5"), Some("pawn backwards"));
        assert_eq!(code(pawn, "e6e8"), Some("wrong shape"));
    }

    #[test]
    fn names_the_check_reasons_with_the_attacker() {
        // The rook on e3 shields the king on e0 from the rook on e9... a pin.
        let pinned = "3kr4/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1";
        let reason = why(pinned, "e3d3").unwrap();
        assert_eq!(
            reason,
            IllegalReason::Pinned { piece: Piece::new(Color::Red, PieceKind::Rook), by: "e9".parse().unwrap() }
        );
        assert_eq!(reason.to_string(), "the rook is pinned: the king would be in check from e9");
        // The only piece between the kings cannot leave the file.
        let facing = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
        assert_eq!(why(facing, "e4c5").map(IllegalReason::code), Some("facing kings"));
        // In check from a rook, a move elsewhere does not answer it.
        let check = "3k5/9/9/9/9/9/9/9/9/r3K3R w - - 0 1";
        assert_eq!(why(check, "i0i1").map(IllegalReason::code), Some("still in check"));
        assert_eq!(why(check, "i0i1").unwrap().square(), Some("a0".parse().unwrap()));
        // The king steps into the rook's file.
        let into = "3k5/9/9/9/9/9/9/9/3r5/4K4 w - - 0 1";
        assert_eq!(why(into, "e0d0").map(IllegalReason::code), Some("king into check"));
    }

    #[test]
    fn agrees_with_move_generation_on_every_from_to_pair() {
        let fens = [
            START,
            "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
            "3k5/9/9/9/9/9/4R4/9/9/4K4 b - - 0 1",
            "3kr4/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1",
            "2bak4/4a4/4b4/9/2n1c4/9/4P4/4C4/4A4/3AK1B2 w - - 0 1",
            "4k4/4a4/3P5/9/9/9/9/9/2p6/4K4 b - - 0 1",
        ];
        for fen in fens {
            let pos: Position = fen.parse().unwrap();
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(pos.why_illegal(m).is_none(), pos.is_legal(m), "{fen} {m}: {:?}", pos.why_illegal(m));
                }
            }
        }
    }
}
