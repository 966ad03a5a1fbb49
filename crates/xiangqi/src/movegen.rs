//! Legal move generation: pseudo-legal targets from the tables, then a legality test for the
//! few moves that can expose the king (check, pins, cannon screens, the flying general).

use crate::position::Position;
use crate::tables::{ADVISOR, ELEPHANT, FILE_SLIDE, HORSE, HORSE_ATTACKERS, KING, PAWN, PAWN_ATTACKERS, RANK_SLIDE};
use crate::{Color, Move, MoveList, Square};

// Piece codes per colour, as `Piece::code`: Red 1..=7, Black 8..=14.
const KING_CODE: u8 = 1;
const ADVISOR_CODE: u8 = 2;
const ELEPHANT_CODE: u8 = 3;
const HORSE_CODE: u8 = 4;
const ROOK_CODE: u8 = 5;
const CANNON_CODE: u8 = 6;
const PAWN_CODE: u8 = 7;

/// `NOT_OWN[color][code]`: whether a piece of `color` may move onto a square holding `code`.
const NOT_OWN: [[bool; 16]; 2] = {
    let mut t = [[false; 16]; 2];
    let mut c = 0;
    while c < 16 {
        t[0][c] = c == 0 || (c > 7 && c < 15);
        t[1][c] = c <= 7;
        c += 1;
    }
    t
};

/// Squares of each rank, file and the diagonal neighbours, as `u128` masks.
const RANK_MASK: [u128; 10] = {
    let mut t = [0; 10];
    let mut r = 0;
    while r < 10 {
        t[r] = 0x1ff << (9 * r);
        r += 1;
    }
    t
};
const FILE_MASK: [u128; 9] = {
    let mut t = [0; 9];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 10 {
            t[f] |= 1 << (r * 9 + f);
            r += 1;
        }
        f += 1;
    }
    t
};
const DIAG_MASK: [u128; 90] = {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (a, b) = (f + if d & 1 == 0 { -1 } else { 1 }, r + if d & 2 == 0 { -1 } else { 1 });
            if a >= 0 && a < 9 && b >= 0 && b < 10 {
                t[s] |= 1 << (b * 9 + a);
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Squares from which a horse could attack each square (with every leg free).
const HORSE_ZONE: [u128; 90] = {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        let a = &crate::tables::HORSE_ATTACKERS_CONST[s][0];
        let mut i = 0;
        while i < a.len as usize {
            t[s] |= 1 << a.sq[i];
            i += 1;
        }
        s += 1;
    }
    t
};

impl Position {
    /// Leg pattern of a horse on `s`: bit 0 left, 1 down, 2 right, 3 up occupied.
    /// Read without branches from the bit rank and bit file, as the seed suggests.
    #[inline(always)]
    pub(crate) fn leg_index(&self, s: usize) -> usize {
        let (f, r) = (s % 9, s / 9);
        let across = ((self.ranks[r + 1] as usize) << 1 >> f) & 5;
        let along = ((self.files[f] as usize) << 1 >> r) & 5;
        across | along << 1
    }

    /// Pattern of the diagonal neighbours of `s` (elephant eyes; horse legs of attackers):
    /// bit 0 (-1,-1), 1 (-1,+1), 2 (+1,-1), 3 (+1,+1).
    #[inline(always)]
    pub(crate) fn eye_index(&self, s: usize) -> usize {
        let (f, r) = (s % 9, s / 9);
        let below = ((self.ranks[r] as usize) << 1 >> f) & 5;
        let above = ((self.ranks[r + 2] as usize) << 1 >> f) & 5;
        below | above << 1
    }

    /// Whether `us`'s king is attacked, or faces the other king.
    pub(crate) fn king_attacked(&self, us: Color) -> bool {
        let k = self.kings[us.index()] as usize;
        self.attacked_after(us, k, k, k)
    }

    /// Whether the square `k` (where `us`'s king stands after the move) is attacked once the
    /// piece on `from` has moved to `to`. The board itself is not changed: the occupancy words
    /// of the king's lines are adjusted and whatever stands on `to` is treated as ours.
    #[inline]
    pub(crate) fn attacked_after(&self, us: Color, k: usize, from: usize, to: usize) -> bool {
        let them = (us.other() as u8) * 7;
        let (kf, kr) = (k % 9, k / 9);
        let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
        let board = &self.board;
        let enemy = |s: usize, code: u8| s != to && board[s] == them + code;

        // Along the rank: a rook next in line, or a cannon behind one screen.
        let mut rank = self.ranks[kr + 1];
        if fr == kr {
            rank &= !(1 << ff);
        }
        if tr == kr {
            rank |= 1 << tf;
        }
        let line = RANK_SLIDE[kf][rank as usize & 0x1ff];
        let base = kr * 9;
        if bits_any(line.first, |b| enemy(base + b, ROOK_CODE))
            || bits_any(line.second, |b| enemy(base + b, CANNON_CODE))
        {
            return true;
        }

        // Along the file: also the other king (the flying general).
        let mut file = self.files[kf];
        if ff == kf {
            file &= !(1 << fr);
        }
        if tf == kf {
            file |= 1 << tr;
        }
        let line = FILE_SLIDE[kr][file as usize & 0x3ff];
        if bits_any(line.first, |b| {
            let s = b * 9 + kf;
            enemy(s, ROOK_CODE) || enemy(s, KING_CODE)
        }) || bits_any(line.second, |b| enemy(b * 9 + kf, CANNON_CODE))
        {
            return true;
        }

        // Horses whose leg (a diagonal neighbour of k) is empty after the move.
        let mut eyes = self.eye_index(k);
        let eye_bit = |s: usize| -> usize {
            let (f, r) = (s % 9, s / 9);
            if (f + 1 == kf || f == kf + 1) && (r + 1 == kr || r == kr + 1) {
                return 1 << ((f > kf) as usize * 2 + (r > kr) as usize);
            }
            0
        };
        eyes &= !eye_bit(from);
        eyes |= eye_bit(to);
        if HORSE_ATTACKERS[k][eyes].as_slice().iter().any(|&s| enemy(s as usize, HORSE_CODE)) {
            return true;
        }

        PAWN_ATTACKERS[us.other().index()][k].as_slice().iter().any(|&s| enemy(s as usize, PAWN_CODE))
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(|from, to| {
            list.push(Move::new(Square::from_index_unchecked(from as u8), Square::from_index_unchecked(to as u8)))
        });
        list
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        let code = self.board[from];
        if code == 0
            || (code > 7) != (self.turn == Color::Black)
            || !NOT_OWN[self.turn.index()][self.board[to] as usize]
        {
            return false;
        }
        let mut found = false;
        self.targets_of(from, code, |t| found |= t == to);
        found && !self.exposes_king(from, to)
    }

    /// Whether moving `from` -> `to` (a pseudo-legal move of the side to move) leaves its
    /// own king attacked.
    #[inline]
    fn exposes_king(&self, from: usize, to: usize) -> bool {
        let us = self.turn;
        let k = self.kings[us.index()] as usize;
        let k = if from == k { to } else { k };
        self.attacked_after(us, k, from, to)
    }

    /// Calls `emit` with every pseudo-legal target (empty or enemy) of the piece `code` on `s`.
    #[inline(always)]
    fn targets_of(&self, s: usize, code: u8, mut emit: impl FnMut(usize)) {
        let us = (code > 7) as usize;
        let not_own = &NOT_OWN[us];
        let board = &self.board;
        let mut list = |targets: &[u8]| {
            for &t in targets {
                if not_own[board[t as usize] as usize] {
                    emit(t as usize);
                }
            }
        };
        let (f, r) = (s % 9, s / 9);
        match code - us as u8 * 7 {
            KING_CODE => list(KING[s].as_slice()),
            ADVISOR_CODE => list(ADVISOR[s].as_slice()),
            ELEPHANT_CODE => list(ELEPHANT[s][self.eye_index(s)].as_slice()),
            HORSE_CODE => list(HORSE[s][self.leg_index(s)].as_slice()),
            PAWN_CODE => list(PAWN[us][s].as_slice()),
            kind => {
                let rook = kind == ROOK_CODE;
                let rank = RANK_SLIDE[f][self.ranks[r + 1] as usize];
                let file = FILE_SLIDE[r][self.files[f] as usize];
                let base = r * 9;
                for_bits(rank.quiet, |b| emit(base + b));
                for_bits(file.quiet, |b| emit(b * 9 + f));
                let (across, along) = if rook { (rank.first, file.first) } else { (rank.second, file.second) };
                let enemy_of = |t: usize| board[t] != 0 && not_own[board[t] as usize];
                for_bits(across, |b| {
                    if enemy_of(base + b) {
                        emit(base + b)
                    }
                });
                for_bits(along, |b| {
                    if enemy_of(b * 9 + f) {
                        emit(b * 9 + f)
                    }
                });
            }
        }
    }

    /// The squares from which a move (`risky_from`) or onto which a move (`risky_to`) may
    /// expose the side to move's king; every other move of a non-king piece is legal when the
    /// king is not in check. Enemy sliders on the king's lines make leaving them risky, enemy
    /// cannons there make entering them risky (a new screen), an enemy horse within reach
    /// makes the king's diagonal neighbours (its possible legs) risky.
    #[inline]
    fn risk_masks(&self) -> (u128, u128) {
        let us = self.turn;
        let k = self.kings[us.index()] as usize;
        if self.king_attacked(us) {
            return (u128::MAX, u128::MAX);
        }
        let them = us.other() as usize * 7;
        let (rank, file) = (RANK_MASK[k / 9], FILE_MASK[k % 9]);
        let cannons = self.by_piece[them + CANNON_CODE as usize];
        let sliders = self.by_piece[them + ROOK_CODE as usize] | cannons;
        let king = self.by_piece[them + KING_CODE as usize];
        let line = |mask: u128, present: u128| if present & mask != 0 { mask } else { 0 };
        let horses = self.by_piece[them + HORSE_CODE as usize];
        let legs = line(DIAG_MASK[k], if horses & HORSE_ZONE[k] != 0 { u128::MAX } else { 0 });
        let risky_from = line(rank, sliders) | line(file, sliders | king) | legs | 1 << k;
        let risky_to = line(rank, cannons) | line(file, cannons);
        (risky_from, risky_to)
    }

    /// Calls `emit(from, to)` for every legal move.
    #[inline(always)]
    fn generate(&self, mut emit: impl FnMut(usize, usize)) {
        let (risky_from, risky_to) = self.risk_masks();
        let mut own = self.by_color[self.turn.index()];
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let code = self.board[s];
            let from_risky = risky_from >> s & 1 != 0;
            self.targets_of(s, code, |t| {
                if !(from_risky || risky_to >> t & 1 != 0) || !self.exposes_king(s, t) {
                    emit(s, t);
                }
            });
        }
    }

    /// The number of legal moves (perft's last ply), without building a list.
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.generate(|_, _| n += 1);
        n
    }
}

#[inline(always)]
fn for_bits(mut bits: u16, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

#[inline(always)]
fn bits_any(mut bits: u16, mut f: impl FnMut(usize) -> bool) -> bool {
    while bits != 0 {
        if f(bits.trailing_zeros() as usize) {
            return true;
        }
        bits &= bits - 1;
    }
    false
}
