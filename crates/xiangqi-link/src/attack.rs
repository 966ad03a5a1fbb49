//! Attack primitives on the raw board, written here from the rules so that the link model
//! never depends on how the move generator is implemented (its tables may change; the link
//! format must not).

/// Piece kind index (0 king .. 6 pawn) and colour (0 red, 1 black) of a non-zero piece code.
#[inline]
pub(crate) fn split(code: u8) -> (usize, usize) {
    let c = (code - 1) as usize;
    (c % 7, c / 7)
}

const fn at(f: i32, r: i32) -> Option<usize> {
    if 0 <= f && f < 9 && 0 <= r && r < 10 {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

const fn in_palace(f: i32, r: i32, color: usize) -> bool {
    3 <= f && f <= 5 && if color == 0 { 0 <= r && r <= 2 } else { 7 <= r && r <= 9 }
}

/// No square: ends a step list, or marks a step nothing can block.
const NONE: u8 = u8::MAX;

/// One step of a king, advisor, elephant, horse or pawn: its target and the square that must
/// be empty for it (elephant eye, horse leg) or `NONE`.
#[derive(Clone, Copy)]
struct Step {
    to: u8,
    block: u8,
}

/// `STEPS[code - 1][s]`: the steps of the piece with code `code` (kind + 7 * colour + 1) on
/// square `s`, ended by `to == NONE` (rook and cannon rows stay empty: they slide).
static STEPS: [[[Step; 8]; 90]; 14] = {
    let mut table = [[[Step { to: NONE, block: NONE }; 8]; 90]; 14];
    let mut code = 0;
    while code < 14 {
        let (kind, color) = (code % 7, code / 7);
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut list = [Step { to: NONE, block: NONE }; 8];
            let mut n = 0;
            let mut i = 0;
            while i < 8 {
                // The i-th candidate step: its offset, whether the rules allow it from here,
                // and the square that must be empty for it, if any.
                let (df, dr, allowed, block) = match kind {
                    0 if i < 4 => {
                        let (df, dr) = [(0, 1), (0, -1), (1, 0), (-1, 0)][i];
                        (df, dr, in_palace(f + df, r + dr, color), None)
                    }
                    1 if i < 4 => {
                        let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][i];
                        (df, dr, in_palace(f + df, r + dr, color), None)
                    }
                    2 if i < 4 => {
                        let (df, dr) = [(2, 2), (2, -2), (-2, 2), (-2, -2)][i];
                        let own_half = if color == 0 { r + dr <= 4 } else { r + dr >= 5 };
                        let eye = at(f + df / 2, r + dr / 2);
                        (df, dr, own_half && eye.is_some(), eye)
                    }
                    3 => {
                        let (df, dr) = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)][i];
                        let leg = if dr == 2 || dr == -2 { at(f, r + dr / 2) } else { at(f + df / 2, r) };
                        (df, dr, leg.is_some(), leg)
                    }
                    6 if i < 3 => {
                        let (fwd, crossed) = if color == 0 { (1, r >= 5) } else { (-1, r <= 4) };
                        let (df, dr) = [(0, fwd), (1, 0), (-1, 0)][i];
                        (df, dr, i == 0 || crossed, None)
                    }
                    _ => (0, 0, false, None),
                };
                if let (true, Some(to)) = (allowed, at(f + df, r + dr)) {
                    let block = match block {
                        Some(b) => b as u8,
                        None => NONE,
                    };
                    list[n] = Step { to: to as u8, block };
                    n += 1;
                }
                i += 1;
            }
            table[code][s] = list;
            s += 1;
        }
        code += 1;
    }
    table
};

/// `RAYS[s]`: how many squares lie beyond `s` towards each of `DELTAS`.
static RAYS: [[u8; 4]; 90] = {
    let mut table = [[0u8; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        table[s] = [(8 - f) as u8, f as u8, (9 - r) as u8, r as u8];
        s += 1;
    }
    table
};
const DELTAS: [isize; 4] = [1, -1, 9, -9];

/// Calls `emit` with every square the piece on `s` attacks (own pieces included: those it
/// defends). The flying-general rule is left out: it is a check, not an attack on a square.
pub(crate) fn for_each_attack(board: &[u8; 90], s: usize, mut emit: impl FnMut(usize)) {
    let code = board[s];
    if code == 0 {
        return;
    }
    let kind = split(code).0;
    if kind == 4 || kind == 5 {
        let cannon = kind == 5;
        for (dir, &delta) in DELTAS.iter().enumerate() {
            let mut screened = false;
            let mut t = s;
            for _ in 0..RAYS[s][dir] {
                t = t.wrapping_add_signed(delta);
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
            }
        }
        return;
    }
    for step in &STEPS[code as usize - 1][s] {
        if step.to == NONE {
            break;
        }
        if step.block == NONE || board[step.block as usize] == 0 {
            emit(step.to as usize);
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
    use xiangqi::Position;

    /// Every capture the move generator allows is an attack here.
    #[test]
    fn captures_are_attacks() {
        let pos: Position =
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1".parse().unwrap();
        let map = AttackMap::new(pos.piece_codes());
        for m in pos.legal_moves().iter() {
            if pos.is_capture(*m) {
                assert!(map.count[0][m.to().index()] > 0, "{m}");
            }
        }
        let start = Position::startpos();
        let mut seen = Vec::new();
        for_each_attack(start.piece_codes(), "b2".parse::<xiangqi::Square>().unwrap().index(), |t| seen.push(t));
        assert_eq!(seen, ["b9".parse::<xiangqi::Square>().unwrap().index()]);
    }
}
