//! Attack primitives on the raw board, written here from the rules so that the link model
//! never depends on how the move generator is implemented (its tables may change; the link
//! format must not).

/// Piece kind index (0 king .. 6 pawn) and colour (0 red, 1 black) of a non-zero piece code.
#[inline]
pub(crate) fn split(code: u8) -> (usize, usize) {
    let c = (code - 1) as usize;
    (c % 7, c / 7)
}

#[inline]
fn at(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| (r * 9 + f) as usize)
}

#[inline]
fn in_palace(f: i32, r: i32, color: usize) -> bool {
    (3..=5).contains(&f) && if color == 0 { (0..=2).contains(&r) } else { (7..=9).contains(&r) }
}

/// Calls `emit` with every square the piece on `s` attacks (own pieces included: those it
/// defends). The flying-general rule is left out: it is a check, not an attack on a square.
pub(crate) fn for_each_attack(board: &[u8; 90], s: usize, mut emit: impl FnMut(usize)) {
    let code = board[s];
    if code == 0 {
        return;
    }
    let (kind, color) = split(code);
    let (f, r) = ((s % 9) as i32, (s / 9) as i32);
    match kind {
        0 => {
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if in_palace(f + df, r + dr, color) {
                    emit(((r + dr) * 9 + f + df) as usize);
                }
            }
        }
        1 => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if in_palace(f + df, r + dr, color) {
                    emit(((r + dr) * 9 + f + df) as usize);
                }
            }
        }
        2 => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let own_half = if color == 0 { r + dr <= 4 } else { r + dr >= 5 };
                if let (Some(t), Some(eye)) = (at(f + df, r + dr), at(f + df / 2, r + dr / 2)) {
                    if own_half && board[eye] == 0 {
                        emit(t);
                    }
                }
            }
        }
        3 => {
            for (df, dr) in [(1i32, 2i32), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
                let leg = if dr.abs() == 2 { at(f, r + dr / 2) } else { at(f + df / 2, r) };
                if let (Some(t), Some(leg)) = (at(f + df, r + dr), leg) {
                    if board[leg] == 0 {
                        emit(t);
                    }
                }
            }
        }
        4 | 5 => {
            let cannon = kind == 5;
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut screened = false;
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t) = at(x, y) {
                    if !cannon {
                        emit(t);
                        if board[t] != 0 {
                            break;
                        }
                    } else if board[t] != 0 {
                        if screened {
                            emit(t);
                            break;
                        }
                        screened = true;
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        _ => {
            let (fwd, crossed) = if color == 0 { (1, r >= 5) } else { (-1, r <= 4) };
            if let Some(t) = at(f, r + fwd) {
                emit(t);
            }
            if crossed {
                for df in [1, -1] {
                    if let Some(t) = at(f + df, r) {
                        emit(t);
                    }
                }
            }
        }
    }
}

/// For each colour and square: how many pieces of that colour attack it, and the smallest
/// kind value (`VALUE` order below) among them.
pub(crate) struct AttackMap {
    pub count: [[u8; 90]; 2],
    pub least: [[u16; 90]; 2],
    /// The squares the piece on each square attacks.
    pub attacks: [u128; 90],
}

/// Rough piece values (king, advisor, elephant, horse, rook, cannon, pawn).
pub(crate) const VALUE: [u16; 7] = [1000, 20, 20, 40, 90, 45, 10];

impl AttackMap {
    pub fn new(board: &[u8; 90]) -> AttackMap {
        let mut count = [[0u8; 90]; 2];
        let mut least = [[u16::MAX; 90]; 2];
        let mut attacks = [0u128; 90];
        for s in 0..90 {
            if board[s] != 0 {
                let (kind, color) = split(board[s]);
                for_each_attack(board, s, |t| {
                    count[color][t] += 1;
                    least[color][t] = least[color][t].min(VALUE[kind]);
                    attacks[s] |= 1 << t;
                });
            }
        }
        AttackMap { count, least, attacks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// Every capture the move generator allows is an attack here.
    #[test]
    fn captures_are_attacks() {
        let pos: Position =
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1".parse().unwrap();
        let map = AttackMap::new(&pos.board);
        for m in pos.legal_moves().iter() {
            if pos.is_capture(*m) {
                assert!(map.count[0][m.to().index()] > 0, "{m}");
            }
        }
        let start = Position::startpos();
        let mut seen = Vec::new();
        for_each_attack(&start.board, "b2".parse::<crate::Square>().unwrap().index(), |t| seen.push(t));
        assert_eq!(seen, ["b9".parse::<crate::Square>().unwrap().index()]);
    }
}
