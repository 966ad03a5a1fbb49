//! The Asian repetition rules as engines such as Pikafish and Fairy-Stockfish apply them:
//! perpetual check and perpetual chase lose, anything else repeated is a draw.
//!
//! A *chase* here is what this module detects, the common cases of the AXF rules, in the way
//! Fairy-Stockfish (pyffish) detects them:
//! - a move chases when it creates a new threat: the moved piece attacks a piece (a rook or
//!   cannon still attacking along the line it moved on made that threat before), or another
//!   piece of the mover now attacks a piece it did not (a line opened, a horse leg or elephant
//!   eye freed, a cannon screen placed);
//! - the chaser may be a rook, horse, cannon, advisor or elephant; king and pawn moves never
//!   chase (they may chase freely);
//! - the chased piece is any enemy piece but the king and a pawn that has not crossed the
//!   river, and the chaser could legally capture it;
//! - it is unprotected (its side could not legally take back on its square), except that a
//!   rook attacked by a horse or cannon, or a rook, cannon or horse attacked by an advisor or
//!   elephant, is chased even when protected;
//! - two pieces of one kind attacking each other offer an exchange: no chase;
//! - the *same* piece must be chased on every move of the side: it is followed as it moves.
//!
//! Not implemented: "fake protection" by a pinned protector that becomes pinned by the move,
//! and discovered checks counted as chases (Fairy-Stockfish has both), and the idle-move tables
//! of the Chinese rules.

use crate::outcome::{Outcome, Reason, Status};
use crate::{Color, Move, PieceKind, Position, Square};

/// Judges a repetition: `positions[0]` equals the last position, `moves[i]` leads from
/// `positions[i]` to `positions[i + 1]`.
pub(crate) fn judge_cycle(positions: &[Position], moves: &[Move]) -> Status {
    let mover = |i: usize| positions[i].turn();
    let mut checks = [true, true];
    for (i, next) in positions.iter().enumerate().skip(1) {
        if !next.is_check() {
            checks[mover(i - 1).index()] = false;
        }
    }
    match (checks[Color::Red.index()], checks[Color::Black.index()]) {
        (true, false) => return lost(Color::Red, Reason::PerpetualCheck),
        (false, true) => return lost(Color::Black, Reason::PerpetualCheck),
        _ => {}
    }
    let chases = [perpetual_chase(positions, moves, Color::Red), perpetual_chase(positions, moves, Color::Black)];
    match chases {
        [true, false] => lost(Color::Red, Reason::PerpetualChase),
        [false, true] => lost(Color::Black, Reason::PerpetualChase),
        _ => Status { outcome: Outcome::Draw, reason: Some(Reason::Repetition) },
    }
}

fn lost(color: Color, reason: Reason) -> Status {
    Status { outcome: Outcome::win(color.other()), reason: Some(reason) }
}

/// Whether `side` chased one and the same enemy piece with every one of its moves.
fn perpetual_chase(positions: &[Position], moves: &[Move], side: Color) -> bool {
    let mut followed: Option<Vec<Square>> = None;
    for (i, &m) in moves.iter().enumerate() {
        if positions[i].turn() == side {
            let chased = chased_by(&positions[i], &positions[i + 1], m);
            let still: Vec<Square> = match followed {
                None => chased,
                Some(prev) => prev.into_iter().filter(|s| chased.contains(s)).collect(),
            };
            if still.is_empty() {
                return false;
            }
            followed = Some(still);
        } else if let Some(set) = followed.as_mut() {
            // The chased piece moves on: follow it.
            for s in set.iter_mut() {
                if *s == m.from() {
                    *s = m.to();
                }
            }
        }
    }
    followed.is_some()
}

/// The enemy pieces that the move `m` from `before` to `after` chases (see the module doc).
pub(crate) fn chased_by(before: &Position, after: &Position, m: Move) -> Vec<Square> {
    let mover = before.turn();
    let mut chased = Vec::new();
    for (sq, piece) in after.pieces() {
        if piece.color != mover || matches!(piece.kind, PieceKind::King | PieceKind::Pawn) {
            continue;
        }
        let attacks = after.attacks_from(sq);
        let new: Vec<Square> = if sq == m.to() {
            // The moved piece. A rook or cannon attacking along the line it moved on made that
            // threat before, unless its old square stood in the way (it backed away along the
            // line, as Fairy-Stockfish sees it); anything else it attacks is new.
            let on_line = |t: Square| {
                (m.from().file() == m.to().file() && t.file() == m.to().file())
                    || (m.from().rank() == m.to().rank() && t.rank() == m.to().rank())
            };
            let slider = matches!(piece.kind, PieceKind::Rook | PieceKind::Cannon);
            let blocked = if slider { after.attacks_from_with_blocker(sq, Some(m.from())) } else { Vec::new() };
            attacks.into_iter().filter(|&t| !(slider && on_line(t) && blocked.contains(&t))).collect()
        } else {
            // Another piece: what the move uncovered (a line opened, a leg or eye freed, a
            // cannon screen set up).
            let old = before.attacks_from(sq);
            attacks.into_iter().filter(|t| !old.contains(t)).collect()
        };
        for t in new {
            if !chased.contains(&t) && chases(after, sq, t) {
                chased.push(t);
            }
        }
    }
    chased
}

/// Whether the piece on `from` threatens the enemy piece on `t` in a way that counts as a chase.
fn chases(after: &Position, from: Square, t: Square) -> bool {
    let (Some(chaser), Some(target)) = (after.piece_at(from), after.piece_at(t)) else { return false };
    if target.color == chaser.color || target.kind == PieceKind::King {
        return false;
    }
    if target.kind == PieceKind::Pawn && target.color.owns_rank(t.rank()) {
        return false;
    }
    if !after.can_capture(from, t) {
        return false;
    }
    // Two pieces of a kind attacking each other offer an exchange: no chase.
    if target.kind == chaser.kind && after.can_capture(t, from) {
        return false;
    }
    // A stronger piece is chased even when protected.
    let stronger = match chaser.kind {
        PieceKind::Horse | PieceKind::Cannon => target.kind == PieceKind::Rook,
        PieceKind::Advisor | PieceKind::Elephant => {
            matches!(target.kind, PieceKind::Rook | PieceKind::Cannon | PieceKind::Horse)
        }
        _ => false,
    };
    stronger || !after.is_protected_against(t, from)
}
