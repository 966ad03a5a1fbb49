//! Static exchange evaluation: the material a capture wins or loses once both sides have
//! taken back on its square with their cheapest pieces, each free to stop.
//!
//! Xiangqi makes this matter more than chess: a cannon needs a screen, so removing a piece
//! from a line can create or destroy a cannon attack, and horses can be blocked at the leg.
//! The exchange is played out on a copy of the board, so every such effect is seen; pins are
//! not (as in chess engines).

use crate::eval::value;
use xiangqi::{Move, PieceKind, Position};

/// Codes of [`xiangqi::Piece::code`]: 1 + colour * 7 + kind.
const KING: u8 = PieceKind::King.index() as u8;
const ADVISOR: u8 = PieceKind::Advisor.index() as u8;
const ELEPHANT: u8 = PieceKind::Elephant.index() as u8;
const HORSE: u8 = PieceKind::Horse.index() as u8;
const ROOK: u8 = PieceKind::Rook.index() as u8;
const CANNON: u8 = PieceKind::Cannon.index() as u8;
const PAWN: u8 = PieceKind::Pawn.index() as u8;

/// Exchange values per kind (the king: more than everything else together).
const SEE_VALUE: [i32; 7] = [20_000, 200, 200, 400, 900, 450, 100];

#[inline]
fn kind(code: u8) -> u8 {
    (code - 1) % 7
}

#[inline]
fn color(code: u8) -> usize {
    ((code - 1) / 7) as usize
}

/// The cheapest piece of colour `side` that attacks `to` on `board`, as its square.
fn least_attacker(board: &[u8; 90], to: usize, side: usize) -> Option<usize> {
    let (tf, tr) = ((to % 9) as i32, (to / 9) as i32);
    let at = |f: i32, r: i32| -> Option<(usize, u8)> {
        if (0..9).contains(&f) && (0..10).contains(&r) {
            let s = (r * 9 + f) as usize;
            Some((s, board[s]))
        } else {
            None
        }
    };
    let ours = |code: u8, k: u8| code != 0 && color(code) == side && kind(code) == k;
    let mut best: Option<(i32, usize)> = None;
    let mut consider = |s: usize, code: u8| {
        let v = SEE_VALUE[kind(code) as usize];
        if best.is_none_or(|(b, _)| v < b) {
            best = Some((v, s));
        }
    };
    // Pawns: from behind, and from the sides once across the river.
    let forward = if side == 0 { 1 } else { -1 };
    if let Some((s, c)) = at(tf, tr - forward) {
        if ours(c, PAWN) {
            return Some(s);
        }
    }
    for df in [-1, 1] {
        if let Some((s, c)) = at(tf + df, tr) {
            let crossed = if side == 0 { tr >= 5 } else { tr <= 4 };
            if crossed && ours(c, PAWN) {
                return Some(s);
            }
        }
    }
    // Advisors and elephants stay in their palace / on their side of the river.
    let own_half = if side == 0 { tr <= 4 } else { tr >= 5 };
    let in_palace = (3..=5).contains(&tf) && if side == 0 { tr <= 2 } else { tr >= 7 };
    if in_palace {
        for (df, dr) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            if let Some((s, c)) = at(tf + df, tr + dr) {
                if ours(c, ADVISOR) {
                    return Some(s);
                }
            }
        }
    }
    if own_half {
        for (df, dr) in [(-2, -2), (-2, 2), (2, -2), (2, 2)] {
            if let (Some((s, c)), Some((_, eye))) = (at(tf + df, tr + dr), at(tf + df / 2, tr + dr / 2)) {
                if eye == 0 && ours(c, ELEPHANT) {
                    return Some(s);
                }
            }
        }
    }
    // Horses: the leg is the square next to the horse in the long direction of its jump.
    for (df, dr) in [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
        if let Some((s, c)) = at(tf + df, tr + dr) {
            if ours(c, HORSE) {
                let leg = if df.abs() == 2 { at(tf + df / 2, tr + dr) } else { at(tf + df, tr + dr / 2) };
                if leg.is_some_and(|(_, l)| l == 0) {
                    consider(s, c);
                    break;
                }
            }
        }
    }
    // Lines: the first piece may be a rook (or the king next door), the second a cannon.
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (mut f, mut r) = (tf + df, tr + dr);
        let mut screens = 0;
        while let Some((s, c)) = at(f, r) {
            if c != 0 {
                if screens == 0 {
                    if ours(c, ROOK) {
                        consider(s, c);
                    }
                    let adjacent = f == tf + df && r == tr + dr;
                    if adjacent && in_palace && ours(c, KING) {
                        consider(s, c);
                    }
                } else {
                    if ours(c, CANNON) {
                        consider(s, c);
                    }
                    break;
                }
                screens += 1;
            }
            f += df;
            r += dr;
        }
    }
    best.map(|(_, s)| s)
}

/// The static exchange value of the capture `m` in centipawns (0 for a quiet move).
pub(crate) fn see(pos: &Position, m: Move) -> i32 {
    let mut board = *pos.codes();
    let (from, to) = (m.from().index(), m.to().index());
    if board[to] == 0 {
        return 0;
    }
    let mut gain = [0i32; 34];
    gain[0] = SEE_VALUE[kind(board[to]) as usize];
    let mut on_square = board[from];
    board[to] = on_square;
    board[from] = 0;
    let mut side = 1 - color(on_square);
    let mut d = 0;
    while let Some(s) = least_attacker(&board, to, side) {
        d += 1;
        gain[d] = SEE_VALUE[kind(on_square) as usize] - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d == gain.len() - 1 {
            break;
        }
        on_square = board[s];
        board[to] = on_square;
        board[s] = 0;
        side = 1 - side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the capture `m` loses no material in the exchange (`see(pos, m) >= 0`), without
/// playing the exchange out when the victim is worth at least the attacker: taking and then
/// stopping after the recapture cannot lose then.
#[inline]
pub(crate) fn loses_nothing(pos: &Position, m: Move) -> bool {
    let codes = pos.codes();
    let (attacker, victim) = (codes[m.from().index()], codes[m.to().index()]);
    if victim != 0 && SEE_VALUE[kind(victim) as usize] >= SEE_VALUE[kind(attacker) as usize] {
        return true;
    }
    see(pos, m) >= 0
}

/// The value of the piece a move captures (0 for none), for ordering.
pub(crate) fn victim_value(pos: &Position, m: Move) -> i32 {
    pos.piece_at(m.to()).map_or(0, |p| value(p.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, m: &str) -> i32 {
        see(&fen.parse().unwrap(), m.parse().unwrap())
    }

    #[test]
    fn free_piece_wins_its_value() {
        // The rook takes an unprotected horse.
        assert_eq!(see_of("4k4/9/9/9/9/4n4/9/9/4R4/3K5 w - - 0 1", "e1e4"), 400);
    }

    #[test]
    fn protected_piece_costs_the_attacker() {
        // The rook takes a pawn that a pawn (and a cannon behind it) protect: +100 - 900.
        assert_eq!(see_of("4k4/9/4c4/4p4/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), 100 - 900);
    }

    #[test]
    fn a_rook_behind_the_first_joins_in() {
        // Doubled rooks against one defender: R takes, r takes back, R takes again: +100.
        assert_eq!(see_of("4rk3/9/9/9/4p4/9/9/9/4R4/3KR4 w - - 0 1", "e1e5"), 100);
    }

    #[test]
    fn a_cannon_needs_its_screen() {
        // The black cannon on e9 guards e5 only over a screen (here the advisor on e8).
        assert_eq!(see_of("3kc4/9/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), 100);
        assert_eq!(see_of("3kc4/4a4/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), 100 - 900);
    }

    #[test]
    fn the_shortcut_agrees_with_the_exchange() {
        for (fen, m) in [
            ("4k4/9/9/9/9/4n4/9/9/4R4/3K5 w - - 0 1", "e1e4"),
            ("4k4/9/4c4/4p4/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"),
            ("3kc4/4a4/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"),
            ("3kc4/4a4/9/9/4r4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"),
        ] {
            let (pos, m) = (fen.parse().unwrap(), m.parse().unwrap());
            assert_eq!(loses_nothing(&pos, m), see(&pos, m) >= 0, "{fen} {m}");
        }
    }

    #[test]
    fn quiet_move_is_zero() {
        assert_eq!(see(&Position::startpos(), "h2e2".parse().unwrap()), 0);
    }
}
