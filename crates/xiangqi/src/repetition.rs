//! The Asian repetition rules as engines such as Pikafish and Fairy-Stockfish apply them:
//! perpetual check and perpetual chase lose, anything else repeated is a draw.
//!
//! A *chase* here is what this module detects, the common cases of the AXF rules:
//! - the chaser is a rook, horse or cannon: the piece that just moved (king and pawn moves
//!   never count: they may chase freely);
//! - it attacks an enemy piece it could legally capture next move, other than the king and a
//!   pawn that has not crossed the river;
//! - that piece is unprotected (its side could not take back legally), except that a rook
//!   attacked by a horse or cannon counts even when protected;
//! - a piece of the same kind that can take the chaser back (two rooks facing) is an exchange
//!   offer, not a chase;
//! - the *same* piece must be chased on every move of the side: it is followed as it moves.
//!
//! Not implemented: attacks uncovered by the move (discovered chases), chases by several
//! pieces in turn, the finer AXF cases (e.g. "protected but pinned" protectors, horses
//! chasing protected cannons of higher value), and the idle-move tables of the Chinese rules.

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
            let chased = chased_by(&positions[i + 1], m);
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

/// The enemy pieces that the move `m`, which led to `after`, chases (see the module doc).
pub(crate) fn chased_by(after: &Position, m: Move) -> Vec<Square> {
    let from = m.to();
    let Some(chaser) = after.piece_at(from) else { return Vec::new() };
    if !matches!(chaser.kind, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon) {
        return Vec::new();
    }
    after
        .attacks_from(from)
        .into_iter()
        .filter(|&t| {
            let Some(target) = after.piece_at(t) else { return false };
            if target.color == chaser.color || target.kind == PieceKind::King {
                return false;
            }
            if target.kind == PieceKind::Pawn && target.color.owns_rank(t.rank()) {
                return false;
            }
            if !after.can_capture(from, t) {
                return false;
            }
            if target.kind == chaser.kind && after.can_capture(t, from) {
                return false;
            }
            let rook_by_minor = target.kind == PieceKind::Rook && chaser.kind != PieceKind::Rook;
            rook_by_minor || !after.is_protected_against(t, from)
        })
        .collect()
}
