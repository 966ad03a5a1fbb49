//! Legal move generation: pseudo-legal targets from the tables, then a legality test for the
//! few moves that can expose the king (check, pins, cannon screens, the flying general).

use crate::position::Position;
use crate::tables::{ADVISOR, ELEPHANT, FILE_SLIDE, HORSE, HORSE_ATTACKERS, KING, PAWN, PAWN_ATTACKERS, RANK_SLIDE};
use crate::{Color, Move, MoveList, Square};

// Piece codes per colour, as `Piece::code`: Red 1..=7, Black 8..=14 (defined beside the attacks).
pub(crate) use crate::attacks::{
    ADVISOR_CODE, CANNON_CODE, ELEPHANT_CODE, HORSE_CODE, KING_CODE, PAWN_CODE, ROOK_CODE,
};

/// `NOT_OWN[color][code]`: whether a piece of `color` may move onto a square holding `code`.
pub(crate) const NOT_OWN: [[bool; 16]; 2] = {
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
    /// The board as [`crate::Piece::code`]s, square index order (`a0` = 0, `i9` = 89), 0 for an
    /// empty square: a read-only view for evaluation code that scans the whole board.
    ///
    /// ```
    /// use xiangqi::{Piece, Position};
    /// let pos = Position::startpos();
    /// let rook = Piece::from_code(pos.codes()[0]).unwrap();
    /// assert_eq!(rook.fen_char(), 'R');
    /// assert_eq!(pos.codes()[40], 0);
    /// ```
    #[inline]
    pub fn codes(&self) -> &[u8; 90] {
        &self.board
    }

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
        // Which kinds of attacker are present at all where they could matter (a piece on
        // `to` is captured): most calls need no line or table scan.
        let present = |code: u8| self.by_piece[(them + code) as usize] & !(1u128 << to);
        let sliders = present(ROOK_CODE) | present(CANNON_CODE);

        // Along the rank: a rook next in line, or a cannon behind one screen.
        if sliders & RANK_MASK[kr] != 0 && self.rank_attack(kr, kf, ff, fr, tf, tr, &enemy) {
            return true;
        }
        if (sliders | present(KING_CODE)) & FILE_MASK[kf] != 0 && self.file_attack(kr, kf, ff, fr, tf, tr, &enemy) {
            return true;
        }
        if present(HORSE_CODE) & HORSE_ZONE[k] != 0 && self.horse_attack(k, kf, kr, from, to, &enemy) {
            return true;
        }
        present(PAWN_CODE) != 0
            && PAWN_ATTACKERS[us.other().index()][k].as_slice().iter().any(|&s| enemy(s as usize, PAWN_CODE))
    }

    /// A rook or cannon attack along the king's rank after the move (see `attacked_after`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn rank_attack(
        &self,
        kr: usize,
        kf: usize,
        ff: usize,
        fr: usize,
        tf: usize,
        tr: usize,
        enemy: &impl Fn(usize, u8) -> bool,
    ) -> bool {
        let mut rank = self.ranks[kr + 1];
        if fr == kr {
            rank &= !(1 << ff);
        }
        if tr == kr {
            rank |= 1 << tf;
        }
        let line = RANK_SLIDE[kf][rank as usize & 0x1ff];
        let base = kr * 9;
        bits_any(line.first, |b| enemy(base + b, ROOK_CODE)) || bits_any(line.second, |b| enemy(base + b, CANNON_CODE))
    }

    /// A rook, cannon or king (the flying general) attack along the king's file after the move.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn file_attack(
        &self,
        kr: usize,
        kf: usize,
        ff: usize,
        fr: usize,
        tf: usize,
        tr: usize,
        enemy: &impl Fn(usize, u8) -> bool,
    ) -> bool {
        let mut file = self.files[kf];
        if ff == kf {
            file &= !(1 << fr);
        }
        if tf == kf {
            file |= 1 << tr;
        }
        let line = FILE_SLIDE[kr][file as usize & 0x3ff];
        bits_any(line.first, |b| {
            let s = b * 9 + kf;
            enemy(s, ROOK_CODE) || enemy(s, KING_CODE)
        }) || bits_any(line.second, |b| enemy(b * 9 + kf, CANNON_CODE))
    }

    /// A horse attack on `k` after the move: a horse whose leg (a diagonal neighbour of `k`)
    /// is empty once the piece has gone from `from` to `to`.
    #[inline(always)]
    fn horse_attack(
        &self,
        k: usize,
        kf: usize,
        kr: usize,
        from: usize,
        to: usize,
        enemy: &impl Fn(usize, u8) -> bool,
    ) -> bool {
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
        HORSE_ATTACKERS[k][eyes].as_slice().iter().any(|&s| enemy(s as usize, HORSE_CODE))
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<false>(|from, to| {
            list.push(Move::new(Square::from_index_unchecked(from as u8), Square::from_index_unchecked(to as u8)))
        });
        list
    }

    /// The legal moves that capture a piece: what a quiescence search looks at, generated
    /// without the quiet moves (about a tenth of the work of [`Position::legal_moves`]).
    ///
    /// ```
    /// use xiangqi::Position;
    /// // Each cannon can take the horse beyond its screen on the back rank.
    /// let pos = Position::startpos();
    /// let captures: Vec<String> = pos.legal_captures().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(captures, ["b2b9", "h2h9"]);
    /// let all = pos.legal_moves();
    /// assert!(pos.legal_captures().iter().all(|m| all.contains(m) && pos.is_capture(*m)));
    /// ```
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true>(|from, to| {
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
        self.targets_of::<false>(from, code, |t| found |= t == to);
        found && !self.exposes_king(from, to)
    }

    /// Whether moving `from` -> `to` (a pseudo-legal move of the side to move) leaves its
    /// own king attacked.
    #[inline]
    pub(crate) fn exposes_king(&self, from: usize, to: usize) -> bool {
        let us = self.turn;
        let k = self.kings[us.index()] as usize;
        let k = if from == k { to } else { k };
        self.attacked_after(us, k, from, to)
    }

    /// Calls `emit` with every pseudo-legal target (empty or enemy; with `CAPTURES` only the
    /// enemy ones) of the piece `code` on `s`.
    #[inline(always)]
    pub(crate) fn targets_of<const CAPTURES: bool>(&self, s: usize, code: u8, mut emit: impl FnMut(usize)) {
        let us = (code > 7) as usize;
        let not_own = &NOT_OWN[us];
        let board = &self.board;
        let mut list = |targets: &[u8]| {
            for &t in targets {
                let target = board[t as usize];
                if not_own[target as usize] && (!CAPTURES || target != 0) {
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
                if !CAPTURES {
                    for_bits(rank.quiet, |b| emit(base + b));
                    for_bits(file.quiet, |b| emit(b * 9 + f));
                }
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
    /// king is not in check. `None` when the king is in check (found on the same scan, so
    /// no separate attack test is needed).
    ///
    /// Along each of the king's four rays (see `Risks::line`) only the pieces that actually
    /// shield it are risky to move, and only the empty squares next to an unscreened cannon
    /// are risky to enter. An enemy horse within reach makes the king's diagonal neighbours
    /// (its possible legs) risky.
    #[inline]
    pub(crate) fn risk_masks(&self) -> Option<(u128, u128)> {
        let us = self.turn;
        let k = self.kings[us.index()] as usize;
        let (kf, kr) = (k % 9, k / 9);
        let them = us.other() as usize * 7;
        let cannons = self.by_piece[them + CANNON_CODE as usize];
        let rooks = self.by_piece[them + ROOK_CODE as usize];
        let king = self.by_piece[them + KING_CODE as usize];
        let horses = self.by_piece[them + HORSE_CODE as usize];
        let mut risks = Risks { from: 1 << k, to: 0, check: false };
        if horses & HORSE_ZONE[k] != 0 {
            risks.from |= DIAG_MASK[k];
            let board = &self.board;
            let horse = them as u8 + HORSE_CODE;
            risks.check |= HORSE_ATTACKERS[k][self.eye_index(k)].as_slice().iter().any(|&h| board[h as usize] == horse);
        }
        let pawns = self.by_piece[them + PAWN_CODE as usize];
        if pawns != 0 {
            let pawn = them as u8 + PAWN_CODE;
            risks.check |=
                PAWN_ATTACKERS[us.other().index()][k].as_slice().iter().any(|&p| self.board[p as usize] == pawn);
        }
        let codes = (them as u8 + ROOK_CODE, them as u8 + ROOK_CODE, them as u8 + CANNON_CODE);
        if (rooks | cannons) & RANK_MASK[kr] != 0 {
            let occ = self.ranks[kr + 1] as usize & 0x1ff;
            let base = kr * 9;
            risks.line(&self.board, kf, occ, &RANK_SLIDE[kf], codes, |b| base + b.trailing_zeros() as usize);
        }
        if (rooks | cannons | king) & FILE_MASK[kf] != 0 {
            let codes = (codes.0, them as u8 + KING_CODE, codes.2);
            risks.line(&self.board, kr, self.files[kf] as usize & 0x3ff, &FILE_SLIDE[kr], codes, |b| {
                b.trailing_zeros() as usize * 9 + kf
            });
        }
        (!risks.check).then_some((risks.from, risks.to))
    }

    /// Calls `emit(from, to)` for every legal move (with `CAPTURES`, every legal capture).
    #[inline(always)]
    fn generate<const CAPTURES: bool>(&self, mut emit: impl FnMut(usize, usize)) {
        let Some((risky_from, risky_to)) = self.risk_masks() else {
            return self.generate_evasions::<CAPTURES>(emit);
        };
        let mut own = self.by_color[self.turn.index()];
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let code = self.board[s];
            let from_risky = risky_from >> s & 1 != 0;
            self.targets_of::<CAPTURES>(s, code, |t| {
                if !(from_risky || risky_to >> t & 1 != 0) || !self.exposes_king(s, t) {
                    emit(s, t);
                }
            });
        }
    }

    /// The legal moves when in check. With one checker a move other than the king's can only
    /// help if it captures the checker, blocks its line or leg, or takes away a cannon's
    /// screen: the others are skipped without the costly test. Two checkers: everything is
    /// tested.
    #[cold]
    pub(crate) fn generate_evasions<const CAPTURES: bool>(&self, mut emit: impl FnMut(usize, usize)) {
        let k = self.kings[self.turn.index()] as usize;
        let (to_mask, from_mask) = self.evasion_masks(k).unwrap_or((u128::MAX, u128::MAX));
        let mut own = self.by_color[self.turn.index()];
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let code = self.board[s];
            let any_target = s == k || from_mask >> s & 1 != 0;
            self.targets_of::<CAPTURES>(s, code, |t| {
                if (any_target || to_mask >> t & 1 != 0) && !self.exposes_king(s, t) {
                    emit(s, t);
                }
            });
        }
    }

    /// For a king on `k` in check by exactly one piece: the squares a move must reach (the
    /// checker, the squares between it and the king, a horse's leg) and the squares a move may
    /// leave (a checking cannon's screen). `None` when more than one piece gives check.
    fn evasion_masks(&self, k: usize) -> Option<(u128, u128)> {
        let us = self.turn;
        let them = (us.other() as u8) * 7;
        let board = &self.board;
        let enemy = |s: usize, code: u8| board[s] == them + code;
        let (kf, kr) = (k % 9, k / 9);
        let mut found: Option<(u128, u128)> = None;
        let mut checkers = 0;
        let mut add = |to: u128, from: u128| {
            checkers += 1;
            found = Some((to, from));
        };
        // Squares strictly between k and s on a line, with s itself.
        let segment = |s: usize| -> u128 {
            let (lo, hi) = (k.min(s), k.max(s));
            let step = if lo / 9 == hi / 9 { 1 } else { 9 };
            let mut m = 0u128;
            let mut x = lo + step;
            while x < hi {
                m |= 1 << x;
                x += step;
            }
            m | 1 << s
        };
        let rank = RANK_SLIDE[kf][self.ranks[kr + 1] as usize & 0x1ff];
        let base = kr * 9;
        for_bits(rank.first, |b| {
            if enemy(base + b, ROOK_CODE) {
                add(segment(base + b), 0);
            }
        });
        for_bits(rank.second, |b| {
            let s = base + b;
            if enemy(s, CANNON_CODE) {
                // The screen is the first piece on the same side of the king.
                let side = rank.first & if b < kf { (1 << kf) - 1 } else { !((2 << kf) - 1) };
                let screen = base + side.trailing_zeros() as usize;
                add(segment(s), 1 << screen);
            }
        });
        let file = FILE_SLIDE[kr][self.files[kf] as usize & 0x3ff];
        for_bits(file.first, |b| {
            let s = b * 9 + kf;
            if enemy(s, ROOK_CODE) || enemy(s, KING_CODE) {
                add(segment(s), 0);
            }
        });
        for_bits(file.second, |b| {
            let s = b * 9 + kf;
            if enemy(s, CANNON_CODE) {
                let side = file.first & if b < kr { (1 << kr) - 1 } else { !((2 << kr) - 1) };
                let screen = side.trailing_zeros() as usize * 9 + kf;
                add(segment(s), 1 << screen);
            }
        });
        for &h in HORSE_ATTACKERS[k][self.eye_index(k)].as_slice() {
            let h = h as usize;
            if enemy(h, HORSE_CODE) {
                // The leg is next to the horse, a step along the long side of its jump.
                let (dx, dy) = (kf as i32 - (h % 9) as i32, kr as i32 - (h / 9) as i32);
                let leg = if dx.abs() == 2 { h as i32 + dx.signum() } else { h as i32 + 9 * dy.signum() };
                add(1 << h | 1 << leg, 0);
            }
        }
        for &p in PAWN_ATTACKERS[us.other().index()][k].as_slice() {
            if enemy(p as usize, PAWN_CODE) {
                add(1 << p, 0);
            }
        }
        if checkers == 1 {
            found
        } else {
            None
        }
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

/// The squares where a move may expose the king (see `Position::risk_masks`), gathered ray by
/// ray along the king's rank and file.
struct Risks {
    from: u128,
    to: u128,
    /// Whether the king is attacked (then the masks are not needed).
    check: bool,
}

impl Risks {
    /// Adds the risks of one line through the king, at point `at` of the line with occupancy
    /// `occ`; `slide` is the line's slide table for that point and `square` gives the square
    /// of the lowest point set in a mask of points. `rook` and `rook_too` are the codes of the enemy pieces that attack along
    /// the line with nothing between (rook; on the file also the king), `cannon` the code of
    /// the one that needs a screen.
    ///
    /// A rook first or a cannon second on a ray gives check. Otherwise the first piece is
    /// pinned by a rook behind it, the first two are pinned by a cannon third, and a cannon
    /// first may not get a screen on the empty points before it.
    #[inline(always)]
    fn line(
        &mut self,
        board: &[u8; 90],
        at: usize,
        occ: usize,
        slide: &[crate::tables::Slide],
        (rook, rook_too, cannon): (u8, u8, u8),
        square: impl Fn(u16) -> usize,
    ) {
        let line = slide[occ];
        for side in [(1u16 << at) - 1, !((2u16 << at) - 1)] {
            let first = line.first & side;
            if first == 0 {
                continue;
            }
            let s1 = square(first);
            let c1 = board[s1];
            if c1 == rook || c1 == rook_too {
                self.check = true;
                continue;
            }
            if c1 == cannon {
                let mut quiet = line.quiet & side;
                while quiet != 0 {
                    self.to |= 1 << square(quiet);
                    quiet &= quiet - 1;
                }
            }
            let second = line.second & side;
            if second == 0 {
                continue;
            }
            let s2 = square(second);
            let c2 = board[s2];
            if c2 == cannon {
                self.check = true;
            } else if c2 == rook || c2 == rook_too {
                self.from |= 1 << s1;
            }
            // With the first piece taken away, the second one beyond is the third.
            let third = slide[occ & !(first as usize)].second & side;
            if third != 0 && board[square(third)] == cannon {
                self.from |= 1 << s1 | 1 << s2;
            }
        }
    }
}
