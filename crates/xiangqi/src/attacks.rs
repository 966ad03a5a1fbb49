//! Attacks and protection as the repetition rules see them: which squares a piece attacks,
//! whether a capture would be legal for either colour, and whether a piece is truly protected.
//!
//! The move generator answers only for the side to move; these work for either colour in any
//! position, because a chase is judged for the side that has just moved as well as for the
//! side to move. Sets of squares are `u128` words, bit `s` for square index `s`.

use crate::tables::{
    Targets, ADVISOR, ELEPHANT, FILE_SLIDE, HORSE, HORSE_ATTACKERS, KING, PAWN, PAWN_ATTACKERS, RANK_SLIDE,
};
use crate::{Color, Move, Position, Square};

/// A set of squares, bit `s` for the square with index `s`.
pub(crate) type SquareSet = u128;

/// The squares of Red's half (ranks 0-4); Black's half is the complement.
pub(crate) const RED_HALF: SquareSet = (1 << 45) - 1;

/// The half of the board a side starts on.
#[inline]
pub(crate) const fn home_half(color: Color) -> SquareSet {
    match color {
        Color::Red => RED_HALF,
        Color::Black => !RED_HALF & ((1 << 90) - 1),
    }
}

#[inline]
fn set_of(targets: &Targets) -> SquareSet {
    targets.as_slice().iter().fold(0, |set, &s| set | 1 << s)
}

/// Spreads a file's occupancy-style bits (bit `r` for rank `r`) onto the squares of file `f`.
#[inline]
fn file_squares(mut ranks: u16, f: usize) -> SquareSet {
    let mut set = 0;
    while ranks != 0 {
        set |= 1 << (ranks.trailing_zeros() as usize * 9 + f);
        ranks &= ranks - 1;
    }
    set
}

/// The kind of a piece code (1..=14), as [`PieceKind`] index plus one: 1 king .. 7 pawn.
#[inline]
pub(crate) const fn kind_code(code: u8) -> u8 {
    if code > 7 {
        code - 7
    } else {
        code
    }
}

pub(crate) const KING_CODE: u8 = 1;
pub(crate) const ADVISOR_CODE: u8 = 2;
pub(crate) const ELEPHANT_CODE: u8 = 3;
pub(crate) const HORSE_CODE: u8 = 4;
pub(crate) const ROOK_CODE: u8 = 5;
pub(crate) const CANNON_CODE: u8 = 6;
pub(crate) const PAWN_CODE: u8 = 7;

impl Position {
    /// The squares the piece `code` standing on `s` attacks under the current occupancy:
    /// where it could capture, whoever stands there (own pieces included, which is what
    /// protecting them means), pins ignored. The kings' facing each other is not an attack.
    #[inline]
    pub(crate) fn attack_set(&self, s: usize, code: u8) -> SquareSet {
        let color = (code > 7) as usize;
        match kind_code(code) {
            KING_CODE => set_of(&KING[s]),
            ADVISOR_CODE => set_of(&ADVISOR[s]),
            ELEPHANT_CODE => set_of(&ELEPHANT[s][self.eye_index(s)]),
            HORSE_CODE => set_of(&HORSE[s][self.leg_index(s)]),
            PAWN_CODE => set_of(&PAWN[color][s]),
            kind => {
                let (f, r) = (s % 9, s / 9);
                let rank = RANK_SLIDE[f][self.ranks[r + 1] as usize];
                let file = FILE_SLIDE[r][self.files[f] as usize];
                let (across, along) = if kind == ROOK_CODE {
                    (rank.quiet | rank.first, file.quiet | file.first)
                } else {
                    (rank.second, file.second)
                };
                (across as SquareSet) << (r * 9) | file_squares(along, f)
            }
        }
    }

    /// The pieces of `color` that attack the occupied square `to` (in the sense of
    /// [`Position::attack_set`]), found by looking outwards from `to`. (On an empty square a
    /// cannon's screen would be miscounted; the rules only ask about occupied ones.)
    pub(crate) fn attackers_to(&self, to: usize, color: Color) -> SquareSet {
        let base = color as usize * 7;
        let of = |code: u8| self.by_piece[base + code as usize];
        let (f, r) = (to % 9, to / 9);
        let rank = RANK_SLIDE[f][self.ranks[r + 1] as usize];
        let file = FILE_SLIDE[r][self.files[f] as usize];
        let first = (rank.first as SquareSet) << (r * 9) | file_squares(file.first, f);
        let second = (rank.second as SquareSet) << (r * 9) | file_squares(file.second, f);
        let eyes = self.eye_index(to);
        // Steps of king and advisor, the elephant's jump and its eye, are the same both ways.
        (first & of(ROOK_CODE))
            | (second & of(CANNON_CODE))
            | (set_of(&HORSE_ATTACKERS[to][eyes]) & of(HORSE_CODE))
            | (set_of(&PAWN_ATTACKERS[color.index()][to]) & of(PAWN_CODE))
            | (set_of(&KING[to]) & of(KING_CODE))
            | (set_of(&ADVISOR[to]) & of(ADVISOR_CODE))
            | (set_of(&ELEPHANT[to][eyes]) & of(ELEPHANT_CODE))
    }

    /// Whether `color`'s piece on `from` may legally capture on `to` (an attacked square
    /// holding an enemy piece), whoever is to move: afterwards its own king must not be
    /// attacked, nor face the other king.
    #[inline]
    pub(crate) fn capture_is_legal(&self, color: Color, from: usize, to: usize) -> bool {
        let king = self.kings[color.index()] as usize;
        let king = if king == from { to } else { king };
        !self.attacked_after(color, king, from, to)
    }

    /// Whether the piece on `to` would be taken back if the enemy piece on `from` captured it:
    /// some piece of its side could then legally recapture on `to`. A pinned protector, or a
    /// king that would step onto an attacked square, protects nothing.
    ///
    /// The capture is played and taken back on `self`, so the position is unchanged after.
    pub(crate) fn recapture_exists(&mut self, from: usize, to: usize) -> bool {
        let defender = if self.board[to] > 7 { Color::Black } else { Color::Red };
        let m = Move::new(Square::from_index_unchecked(from as u8), Square::from_index_unchecked(to as u8));
        // `play_unchecked` uses the turn only for the mover's king square, and the capturing
        // piece is never a king here (kings do not chase), so any turn will do.
        let undo = self.play_unchecked(m);
        let mut recapturers = self.attackers_to(to, defender);
        let mut found = false;
        while recapturers != 0 {
            let s = recapturers.trailing_zeros() as usize;
            recapturers &= recapturers - 1;
            if self.capture_is_legal(defender, s, to) {
                found = true;
                break;
            }
        }
        self.undo(m, undo);
        found
    }

    /// The squares the piece on `from` attacks: where it could capture an enemy piece, its pins
    /// ignored. Squares holding its own pieces are included (that is what protecting means).
    /// The kings' facing each other is not an attack here. Empty when `from` is empty.
    ///
    /// ```
    /// use xiangqi::{Position, Square};
    /// let pos = Position::startpos();
    /// let c: Square = "h2".parse().unwrap();
    /// let attacked: Vec<String> = pos.attacks_from(c).iter().map(|s| s.to_string()).collect();
    /// assert_eq!(attacked, ["h9"]); // over the screen on h7; the cannon attacks nothing else
    /// ```
    pub fn attacks_from(&self, from: Square) -> Vec<Square> {
        let code = self.board[from.index()];
        if code == 0 {
            return Vec::new();
        }
        squares(self.attack_set(from.index(), code)).collect()
    }

    /// Whether the piece on `from` could legally capture the piece on `to` if it were its
    /// side's turn: `to` holds an enemy piece, `from` attacks it, and the capture does not
    /// expose the capturer's own king.
    ///
    /// ```
    /// use xiangqi::{Position, Square};
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// // The red rook on e5 may take the pawn on e6 although Black is to move.
    /// let pos: Position = "4k4/9/9/4p4/4R4/9/9/9/9/3K5 b - - 0 1".parse().unwrap();
    /// assert!(pos.can_capture(sq("e5"), sq("e6")));
    /// assert!(!pos.can_capture(sq("e5"), sq("e4")));
    /// ```
    pub fn can_capture(&self, from: Square, to: Square) -> bool {
        let (a, b) = (self.board[from.index()], self.board[to.index()]);
        if a == 0 || b == 0 || (a > 7) == (b > 7) {
            return false;
        }
        let color = if a > 7 { Color::Black } else { Color::Red };
        self.attack_set(from.index(), a) >> to.index() & 1 != 0
            && self.capture_is_legal(color, from.index(), to.index())
    }

    /// Whether the piece on `sq` is protected against the enemy piece on `by`: if `by` took it,
    /// its side could legally take back on `sq`. A piece that `by` cannot legally capture
    /// counts as protected.
    ///
    /// ```
    /// use xiangqi::{Position, Square};
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// // The black rook on a6 guards the pawn on e6 against the red rook on e5.
    /// let pos: Position = "4k4/9/9/r3p4/4R4/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
    /// assert!(pos.is_protected_against(sq("e6"), sq("e5")));
    /// let pos: Position = "4k4/9/9/4p4/4R4/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
    /// assert!(!pos.is_protected_against(sq("e6"), sq("e5")));
    /// ```
    pub fn is_protected_against(&self, sq: Square, by: Square) -> bool {
        if !self.can_capture(by, sq) {
            return true;
        }
        self.clone().recapture_exists(by.index(), sq.index())
    }
}

/// The squares of a set, in index order.
pub(crate) fn squares(mut set: SquareSet) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let s = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Square::from_index_unchecked(s))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn names(set: SquareSet) -> Vec<String> {
        squares(set).map(|s| s.to_string()).collect()
    }

    #[test]
    fn attacks_of_each_kind() {
        let pos = Position::startpos();
        let at = |s: &str| {
            let s = sq(s);
            names(pos.attack_set(s.index(), pos.board[s.index()]))
        };
        assert_eq!(at("b0"), ["a2", "c2"]); // d1 is blocked by the elephant on c0
        assert_eq!(at("a0"), ["b0", "a1", "a2", "a3"]);
        assert_eq!(at("c0"), ["a2", "e2"]);
        assert_eq!(at("d0"), ["e1"]);
        assert_eq!(at("e0"), ["d0", "f0", "e1"]);
        assert_eq!(at("c3"), ["c4"]);
        assert_eq!(at("h7"), ["h0"]);
        assert_eq!(at("a6"), ["a5"]);
    }

    #[test]
    fn attackers_agree_with_attacks() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "2bak4/4a4/4b4/9/9/2r6/9/4B4/4A1n2/2CAK4 w - - 0 1",
            "3k1ab2/4a4/9/6N2/2p6/9/9/2n6/4A4/4K4 w - - 0 1",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        ];
        for fen in fens {
            let pos: Position = fen.parse().unwrap();
            for (to, _) in pos.pieces() {
                let to = to.index();
                for color in [Color::Red, Color::Black] {
                    let mut expected = 0;
                    for (s, p) in pos.pieces() {
                        if p.color == color && pos.attack_set(s.index(), p.code()) >> to & 1 != 0 {
                            expected |= 1 << s.index();
                        }
                    }
                    assert_eq!(pos.attackers_to(to, color), expected, "{fen} square {to}");
                }
            }
        }
    }

    #[test]
    fn protection() {
        let pos: Position = "4k4/9/9/r3p4/4R4/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        assert!(pos.can_capture(sq("e5"), sq("e6")));
        assert!(pos.is_protected_against(sq("e6"), sq("e5")), "the black rook on a6 takes back");
        // A king protects nothing on a square the capturer would still attack: the red rook
        // on d9 could take the horse on d8, and the king's recapture would walk into the
        // cannon on d0 (the horse on d4 its screen).
        let pos: Position = "3R5/3nk4/9/9/9/3N5/9/9/9/3C1K3 w - - 0 1".parse().unwrap();
        assert!(!pos.is_protected_against(sq("d8"), sq("d9")));
    }
}
