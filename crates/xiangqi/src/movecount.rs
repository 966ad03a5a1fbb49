//! Counting the legal moves without listing them (perft's last ply, "bulk counting").
//!
//! The same generator as `Position::legal_moves`, but a piece that cannot expose its king
//! (not in the risk masks) has its moves counted at once: a rook's or cannon's quiet moves
//! by a table of bit counts rather than one by one.

use crate::movegen::{ADVISOR_CODE, CANNON_CODE, ELEPHANT_CODE, HORSE_CODE, KING_CODE, NOT_OWN, PAWN_CODE, ROOK_CODE};
use crate::tables::{ADVISOR, ELEPHANT, FILE_SLIDE, HORSE, KING, PAWN, RANK_SLIDE};
use crate::Position;

/// `ONES[bits]`: how many bits are set, for a line's 9 or 10 points (a lookup: the
/// baseline x86-64 and WebAssembly builds have no cheap population count for every target).
static ONES: [u8; 1024] = {
    let mut t = [0; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

impl Position {
    /// The number of legal moves (perft's last ply), without building a list.
    ///
    /// ```
    /// use xiangqi::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.count_legal_moves(), pos.legal_moves().len());
    /// ```
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        let Some((risky_from, risky_to)) = self.risk_masks() else {
            self.generate_evasions::<false>(|_, _| n += 1);
            return n;
        };
        let own = self.by_color[self.turn.index()];
        // With no risky target square, the pieces off the risky squares need no test at all.
        let (safe, mut tested) = if risky_to == 0 { (own & !risky_from, own & risky_from) } else { (0, own) };
        n += self.safe_count(safe);
        while tested != 0 {
            let s = tested.trailing_zeros() as usize;
            tested &= tested - 1;
            let from_risky = risky_from >> s & 1 != 0;
            self.targets_of::<false>(s, self.board[s], |t| {
                if !(from_risky || risky_to >> t & 1 != 0) || !self.exposes_king(s, t) {
                    n += 1;
                }
            });
        }
        n
    }

    /// The number of pseudo-legal moves (what `Position::targets_of` would emit) of the side
    /// to move's pieces on the squares `safe`, kind by kind so that no piece needs a dispatch.
    #[inline(always)]
    fn safe_count(&self, safe: u128) -> usize {
        let us = self.turn.index();
        let not_own = &NOT_OWN[us];
        let board = &self.board;
        let of = |kind: u8| self.by_piece[us * 7 + kind as usize] & safe;
        let count = |targets: &[u8]| targets.iter().filter(|&&t| not_own[board[t as usize] as usize]).count();
        let mut n = 0;
        for_squares(of(ROOK_CODE), |s| n += self.slider_count(s, true));
        for_squares(of(CANNON_CODE), |s| n += self.slider_count(s, false));
        for_squares(of(HORSE_CODE), |s| n += count(HORSE[s][self.leg_index(s)].as_slice()));
        for_squares(of(PAWN_CODE), |s| n += count(PAWN[us][s].as_slice()));
        for_squares(of(ELEPHANT_CODE), |s| n += count(ELEPHANT[s][self.eye_index(s)].as_slice()));
        for_squares(of(ADVISOR_CODE), |s| n += count(ADVISOR[s].as_slice()));
        // The king is always risky (its moves are tested), but count it if ever safe.
        for_squares(of(KING_CODE), |s| n += count(KING[s].as_slice()));
        n
    }

    /// The pseudo-legal moves of the side to move's rook (`rook`) or cannon on `s`: the quiet
    /// ones by a bit count, the captures by a look at the pieces in line.
    #[inline(always)]
    fn slider_count(&self, s: usize, rook: bool) -> usize {
        let not_own = &NOT_OWN[self.turn.index()];
        let board = &self.board;
        let (f, r) = (s % 9, s / 9);
        let rank = RANK_SLIDE[f][self.ranks[r + 1] as usize];
        let file = FILE_SLIDE[r][self.files[f] as usize];
        let (across, along) = if rook { (rank.first, file.first) } else { (rank.second, file.second) };
        let enemy = |t: usize| board[t] != 0 && not_own[board[t] as usize];
        let mut n = ONES[rank.quiet as usize] as usize + ONES[file.quiet as usize] as usize;
        let base = r * 9;
        let mut bits = across;
        while bits != 0 {
            n += enemy(base + bits.trailing_zeros() as usize) as usize;
            bits &= bits - 1;
        }
        let mut bits = along;
        while bits != 0 {
            n += enemy(bits.trailing_zeros() as usize * 9 + f) as usize;
            bits &= bits - 1;
        }
        n
    }
}

#[inline(always)]
fn for_squares(mut set: u128, mut f: impl FnMut(usize)) {
    while set != 0 {
        f(set.trailing_zeros() as usize);
        set &= set - 1;
    }
}
