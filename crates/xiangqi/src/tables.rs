//! Move tables, built at compile time by `const fn`.
//!
//! The horse and elephant tables follow the seed (`001`): for every square and every pattern
//! of the four blocking squares (horse legs, elephant eyes) the table lists the reachable
//! targets, so move generation needs no test per direction. The pattern itself is read from
//! the bit-rank / bit-file occupancy words without branches (see `Position::leg_index`).
//! Rook and cannon use the same words: one lookup per rank and per file gives every target.

/// Up to eight target squares.
#[derive(Clone, Copy)]
pub(crate) struct Targets {
    pub len: u8,
    pub sq: [u8; 8],
}

impl Targets {
    const EMPTY: Targets = Targets { len: 0, sq: [0; 8] };

    const fn push(mut self, sq: u8) -> Targets {
        self.sq[self.len as usize] = sq;
        self.len += 1;
        self
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.sq[..self.len as usize]
    }
}

/// What a rook or cannon sees along one line (a rank or a file) for one occupancy pattern.
/// Bits are positions along the line (files for a rank, ranks for a file).
#[derive(Clone, Copy)]
pub(crate) struct Slide {
    /// Empty points up to the first piece in each direction: quiet moves of rook and cannon.
    pub quiet: u16,
    /// The first piece in each direction: rook captures (if an enemy), and what a king attack
    /// along the line must be.
    pub first: u16,
    /// The second piece in each direction, behind a screen: cannon captures.
    pub second: u16,
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq(f: i32, r: i32) -> u8 {
    (r * 9 + f) as u8
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7) && on_board(f, r)
}

/// Orthogonal neighbours in leg-index order: bit 0 left, 1 down, 2 right, 3 up.
const ORTHO: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];
/// Diagonal neighbours in eye-index order: bit 0 (-1,-1), 1 (-1,+1), 2 (+1,-1), 3 (+1,+1).
const DIAG: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// `HORSE[sq][legs]`: horse targets from `sq` when the leg squares flagged in `legs` are
/// occupied (bit order of [`ORTHO`]).
pub(crate) static HORSE: [[Targets; 16]; 90] = build_horse();

const fn build_horse() -> [[Targets; 16]; 90] {
    let mut t = [[Targets::EMPTY; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut legs = 0;
        while legs < 16 {
            let mut list = Targets::EMPTY;
            let mut d = 0;
            while d < 4 {
                if legs & (1 << d) == 0 {
                    let (dx, dy) = ORTHO[d];
                    // Two steps along the leg's direction, one step to either side.
                    let (sx, sy) = (dy, dx);
                    let (a, b) = (f + 2 * dx + sx, r + 2 * dy + sy);
                    if on_board(a, b) {
                        list = list.push(sq(a, b));
                    }
                    let (a, b) = (f + 2 * dx - sx, r + 2 * dy - sy);
                    if on_board(a, b) {
                        list = list.push(sq(a, b));
                    }
                }
                d += 1;
            }
            t[s][legs] = list;
            legs += 1;
        }
        s += 1;
    }
    t
}

/// `HORSE_ATTACKERS[sq][eyes]`: the squares from which a horse attacks `sq`, given which of
/// its diagonal neighbours are occupied (bit order of [`DIAG`]). A horse's leg is always the
/// diagonal neighbour of the square it attacks.
pub(crate) static HORSE_ATTACKERS: [[Targets; 16]; 90] = HORSE_ATTACKERS_CONST;
pub(crate) const HORSE_ATTACKERS_CONST: [[Targets; 16]; 90] = build_horse_attackers();

const fn build_horse_attackers() -> [[Targets; 16]; 90] {
    let mut t = [[Targets::EMPTY; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut eyes = 0;
        while eyes < 16 {
            let mut list = Targets::EMPTY;
            let mut d = 0;
            while d < 4 {
                let (dx, dy) = DIAG[d];
                if eyes & (1 << d) == 0 && on_board(f + dx, r + dy) {
                    if on_board(f + 2 * dx, r + dy) {
                        list = list.push(sq(f + 2 * dx, r + dy));
                    }
                    if on_board(f + dx, r + 2 * dy) {
                        list = list.push(sq(f + dx, r + 2 * dy));
                    }
                }
                d += 1;
            }
            t[s][eyes] = list;
            eyes += 1;
        }
        s += 1;
    }
    t
}

/// `ELEPHANT[sq][eyes]`: elephant targets from `sq`, never across the river.
pub(crate) static ELEPHANT: [[Targets; 16]; 90] = build_elephant();

const fn build_elephant() -> [[Targets; 16]; 90] {
    let mut t = [[Targets::EMPTY; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut eyes = 0;
        while eyes < 16 {
            let mut list = Targets::EMPTY;
            let mut d = 0;
            while d < 4 {
                let (dx, dy) = DIAG[d];
                let (a, b) = (f + 2 * dx, r + 2 * dy);
                if eyes & (1 << d) == 0 && on_board(a, b) && (b <= 4) == (r <= 4) {
                    list = list.push(sq(a, b));
                }
                d += 1;
            }
            t[s][eyes] = list;
            eyes += 1;
        }
        s += 1;
    }
    t
}

/// Advisor steps: one point diagonally, inside the palace.
pub(crate) static ADVISOR: [Targets; 90] = build_steps(&DIAG);
/// King steps: one point orthogonally, inside the palace.
pub(crate) static KING: [Targets; 90] = build_steps(&ORTHO);

const fn build_steps(dirs: &[(i32, i32); 4]) -> [Targets; 90] {
    let mut t = [Targets::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (a, b) = (f + dirs[d].0, r + dirs[d].1);
                if in_palace(a, b) && (b <= 4) == (r <= 4) {
                    t[s] = t[s].push(sq(a, b));
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// `PAWN[color][sq]`: forward, and sideways once across the river.
pub(crate) static PAWN: [[Targets; 90]; 2] = [build_pawn(0), build_pawn(1)];

const fn build_pawn(color: usize) -> [Targets; 90] {
    let mut t = [Targets::EMPTY; 90];
    let dir: i32 = if color == 0 { 1 } else { -1 };
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let crossed = if color == 0 { r >= 5 } else { r <= 4 };
        if on_board(f, r + dir) {
            t[s] = t[s].push(sq(f, r + dir));
        }
        if crossed {
            if f > 0 {
                t[s] = t[s].push(sq(f - 1, r));
            }
            if f < 8 {
                t[s] = t[s].push(sq(f + 1, r));
            }
        }
        s += 1;
    }
    t
}

/// `PAWN_ATTACKERS[color][sq]`: squares from which a pawn of `color` attacks `sq`.
pub(crate) static PAWN_ATTACKERS: [[Targets; 90]; 2] = [build_pawn_attackers(0), build_pawn_attackers(1)];

const fn build_pawn_attackers(color: usize) -> [Targets; 90] {
    let mut t = [Targets::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let mut from = 0;
        while from < 90 {
            let targets = &PAWN[color][from];
            let mut i = 0;
            while i < targets.len as usize {
                if targets.sq[i] as usize == s {
                    t[s] = t[s].push(from as u8);
                }
                i += 1;
            }
            from += 1;
        }
        s += 1;
    }
    t
}

/// `RANK_SLIDE[file][occupancy of the rank]`.
pub(crate) static RANK_SLIDE: [[Slide; 512]; 9] = build_slide::<9, 512>();
/// `FILE_SLIDE[rank][occupancy of the file]`.
pub(crate) static FILE_SLIDE: [[Slide; 1024]; 10] = build_slide::<10, 1024>();

const fn build_slide<const N: usize, const M: usize>() -> [[Slide; M]; N] {
    let mut t = [[Slide { quiet: 0, first: 0, second: 0 }; M]; N];
    let mut pos = 0;
    while pos < N {
        let mut occ = 0;
        while occ < M {
            let mut s = Slide { quiet: 0, first: 0, second: 0 };
            let mut dir = 0;
            while dir < 2 {
                let step: i32 = if dir == 0 { 1 } else { -1 };
                let mut i = pos as i32 + step;
                let mut screens = 0;
                while i >= 0 && i < N as i32 && screens < 2 {
                    if occ & (1 << i) != 0 {
                        if screens == 0 {
                            s.first |= 1 << i;
                        } else {
                            s.second |= 1 << i;
                        }
                        screens += 1;
                    } else if screens == 0 {
                        s.quiet |= 1 << i;
                    }
                    i += step;
                }
                dir += 1;
            }
            t[pos][occ] = s;
            occ += 1;
        }
        pos += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horse_in_the_corner() {
        // a0 (square 0): targets b2 (19) and c1 (11); blocking the up leg (a1) removes b2.
        let mut all: Vec<u8> = HORSE[0][0].as_slice().to_vec();
        all.sort();
        assert_eq!(all, vec![11, 19]);
        assert_eq!(HORSE[0][0b1000].as_slice(), &[11]);
        // The centre has all eight targets.
        assert_eq!(HORSE[40][0].len, 8);
    }

    #[test]
    fn elephant_stays_home() {
        // c4 (square 38) cannot cross to e6 or a6.
        let mut t: Vec<u8> = ELEPHANT[38][0].as_slice().to_vec();
        t.sort();
        assert_eq!(t, vec![18, 22]);
    }

    #[test]
    fn slides() {
        // Rook on file 0 of a rank with pieces on files 3 and 6: quiet 1,2; first 3; second 6.
        let s = RANK_SLIDE[0][0b1_0100_1001];
        assert_eq!(s.quiet, 0b110);
        assert_eq!(s.first, 0b1000);
        assert_eq!(s.second, 0b100_0000);
    }

    #[test]
    fn palace_steps() {
        assert_eq!(KING[4].len, 3);
        assert_eq!(ADVISOR[13].len, 4);
        assert_eq!(ADVISOR[3].len, 1);
        assert_eq!(KING[0].len, 0);
    }

    #[test]
    fn pawns() {
        assert_eq!(PAWN[0][27].as_slice(), &[36]);
        assert_eq!(PAWN[0][45].len, 2);
        assert_eq!(PAWN[0][89].len, 1);
        assert_eq!(PAWN_ATTACKERS[1][4].len, 3);
    }
}
