//! Repetition rulings under the Asian (AXF) rules: who, if anyone, loses when a position
//! comes back.
//!
//! [`judge`] takes a cycle (a position and the moves that lead back to it) and returns a
//! [`Ruling`]. It is the whole rule, with no game bookkeeping, so a search can call it on its
//! own move stack; [`crate::outcome::Game::status`] calls it when a position occurs for the
//! third time. The rules, and the branch of the code that applies each (marked *R1*..*R9*
//! in the comments below):
//!
//! - **R1 perpetual check first.** A side that gave check with every one of its moves loses
//!   if the other side did not, whatever the other side chased; both: draw. Otherwise the
//!   chases decide, and a move that gives check may chase as well: the AXF rules judge a
//!   move that is two things (a check and a chase) as the one that is forbidden, so "one
//!   check, one chase" of the same piece is a perpetual chase. Two consequences the issue's
//!   wording leaves open, decided as AXF and pyffish decide them (table rows hand-19 and
//!   hand-20): a perpetual check against a perpetual chase loses for the checker (the chase is
//!   never looked at), and a side that checks on some moves only is no excuse for the other
//!   side's perpetual chase, which loses, although "a check anywhere in the cycle makes it a
//!   perpetual check question" and "while the other neither checks nor chases", read
//!   literally, would call it a draw.
//! - **R2 who can chase:** every piece but the king and the pawns (they may attack freely).
//! - **R3 what can be chased:** any enemy piece but the king; a pawn only once it has crossed
//!   the river.
//! - **R4 legal captures only:** an attack counts only if the capture would be legal, so it
//!   must not expose the attacker's own king (to an attack or to the facing king). A pinned
//!   piece therefore chases only the piece that pins it, and only with its own move: when
//!   another move of its side takes away the pinner's protection, the pinned piece's attack is
//!   no chase (the AXF rule book's example D39, a rook pinned by a horse in a mutual chase;
//!   table rows fsf-22 and fsf-23).
//! - **R5 stronger pieces:** a rook attacked by a horse or a cannon, and a rook, horse or
//!   cannon attacked by an advisor or an elephant, is chased even when protected.
//! - **R6 true protection:** otherwise the target is chased only if, after the capture, no
//!   piece of its side could legally take back. A pinned protector, or a king that would
//!   step onto an attacked square (or face the other king), protects nothing.
//! - **R7 exchanges:** two pieces of the same kind attacking each other offer an exchange,
//!   not a chase, unless the victim cannot take back: a horse whose own leg is blocked, or a
//!   reverse capture that would be illegal.
//! - **R8 only new attacks:** a move chases the pieces that are chased (R2-R7) after it and
//!   were not chased before it. Whatever the move changed counts: the moved piece's own
//!   attacks, discovered attacks (a line opened, a leg or an eye freed, a screen placed) and
//!   protection taken away (a protector pinned or cut off). A perpetual chase is one and the
//!   same piece chased by every move of one side through the cycle; the piece is followed
//!   when it moves.
//! - **R9 verdict:** a side that chases perpetually loses if the other side does not; both
//!   or neither: draw.
//!
//! These are the rules as Pikafish's `chased` / `detect_chases` state them, except that, as in
//! Fairy-Stockfish and the AXF text, checks do not switch the chase rules off. The table
//! `tests/data/rulings.tsv` holds 114 hand-built cases (both colours) with the rule that decides
//! each; pyffish (Fairy-Stockfish) gives the same verdict on all but 10 of them, all of one of
//! its shortcuts, which the table spells out: it counts an attack on a piece that was already
//! attacked before the move (a rook backing off along the line it attacks), it does not test
//! that the chasing capture is legal, it takes any king that attacks the square as a
//! protector, and it takes a side's only piece on the other king's file as pinned even when
//! other pieces stand between the kings.
//!
//! ```
//! use xiangqi::repetition::{judge, Ruling};
//! use xiangqi::{Color, Move, Position};
//! // Red's rook follows Black's unprotected cannon between c7 and d7.
//! let pos: Position = "5k3/9/2c6/9/9/9/2R6/9/9/4K4 b - - 0 1".parse().unwrap();
//! let cycle: Vec<Move> = ["c7d7", "c3d3", "d7c7", "d3c3"].iter().map(|m| m.parse().unwrap()).collect();
//! assert_eq!(judge(&pos, &cycle), Ruling::PerpetualChase { loser: Color::Red });
//! ```

use crate::attacks::{home_half, kind_code, squares, SquareSet};
use crate::attacks::{ADVISOR_CODE, CANNON_CODE, ELEPHANT_CODE, HORSE_CODE, KING_CODE, PAWN_CODE, ROOK_CODE};
use crate::{Color, Move, Position, Square};

/// The verdict on a repetition cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ruling {
    /// Nobody is to blame, or both sides are: the game is drawn.
    Draw,
    /// `loser` gave check with every one of its moves and the other side did not (R1).
    PerpetualCheck {
        /// The side that checked.
        loser: Color,
    },
    /// `loser` chased one and the same piece with every one of its moves, and the other side
    /// neither checked nor chased perpetually (R2-R9).
    PerpetualChase {
        /// The side that chased.
        loser: Color,
    },
}

impl Ruling {
    /// The side that loses, if any.
    pub fn loser(self) -> Option<Color> {
        match self {
            Ruling::Draw => None,
            Ruling::PerpetualCheck { loser } | Ruling::PerpetualChase { loser } => Some(loser),
        }
    }

    /// The side that wins, if any.
    pub fn winner(self) -> Option<Color> {
        self.loser().map(Color::other)
    }
}

/// Judges a repetition cycle: `moves`, played from `position`, lead back to `position`
/// (the same board and side to move). The moves must be legal, as for
/// [`Position::play_unchecked`]; there can be no capture in a cycle. Moves before the cycle
/// do not matter: for a position that occurs a third time, pass the moves since its first
/// occurrence (two cycles) or since its second (one), the ruling is the same.
///
/// For a search: `position` may be either end of the cycle (they are equal), so the current
/// position and the moves since its earlier occurrence are enough. The cost is a few
/// microseconds for a short cycle (see `benches/repetition.rs`): checks are looked at
/// first, and the chase scan judges only the pieces still followed and stops as soon as
/// neither side can be chasing perpetually.
///
/// ```
/// use xiangqi::repetition::{judge, Ruling};
/// use xiangqi::{Color, Move, Position};
/// let moves = |s: &str| -> Vec<Move> { s.split(' ').map(|m| m.parse().unwrap()).collect() };
/// // Red's rook checks from e5 and d5 while Black's king steps aside: Red loses.
/// let pos: Position = "4k4/9/9/9/4R4/9/9/9/9/5K3 b - - 0 1".parse().unwrap();
/// assert_eq!(judge(&pos, &moves("e9d9 e5d5 d9e9 d5e5")), Ruling::PerpetualCheck { loser: Color::Red });
/// // Both horses shuttle home and back: a draw.
/// let start = Position::startpos();
/// assert_eq!(judge(&start, &moves("h0g2 h9g7 g2h0 g7h9")), Ruling::Draw);
/// ```
pub fn judge(position: &Position, moves: &[Move]) -> Ruling {
    // R1: perpetual check first.
    let mut pos = position.clone();
    let (mut moved, mut every_check) = ([false; 2], [true; 2]);
    for &m in moves {
        let side = pos.turn().index();
        pos.play_unchecked(m);
        moved[side] = true;
        every_check[side] &= pos.is_check();
    }
    let perpetual = |c: Color| moved[c.index()] && every_check[c.index()];
    match (perpetual(Color::Red), perpetual(Color::Black)) {
        // The other side's chases do not matter here: a perpetual check against a perpetual
        // chase loses for the checker (table row hand-19).
        (true, false) => return Ruling::PerpetualCheck { loser: Color::Red },
        (false, true) => return Ruling::PerpetualCheck { loser: Color::Black },
        (true, true) => return Ruling::Draw,
        // Checks on some moves only are no excuse: the chases decide (hand-20).
        (false, false) => {}
    }

    // R8: `followed[c]` holds the pieces that every move of `c` so far chased, on the
    // squares where they stand now; `UNSEEN` until `c` has moved.
    const UNSEEN: SquareSet = SquareSet::MAX;
    let mut followed = [UNSEEN; 2];
    let mut pos = position.clone();
    for &m in moves {
        let side = pos.turn();
        let (us, them) = (side.index(), side.other().index());
        let (from, to) = (m.from().index(), m.to().index());
        // The pieces the other side chases move with their owner.
        if followed[them] != UNSEEN && followed[them] >> from & 1 != 0 {
            followed[them] ^= 1 << from | 1 << to;
        }
        let undo = pos.play_unchecked(m);
        if followed[us] != 0 {
            // Only the pieces still followed need judging: compute what is chased after the
            // move, and only if something is, what was chased before it.
            let after = chased(&mut pos, side, followed[us], Some(to));
            followed[us] = if after == 0 {
                0
            } else {
                pos.undo(m, undo);
                let before = chased(&mut pos, side, after, None);
                pos.play_unchecked(m);
                after & !before
            };
        }
        if followed == [0, 0] {
            return Ruling::Draw;
        }
    }
    // R9: the verdict.
    let chaser = |c: Color| !matches!(followed[c.index()], 0 | UNSEEN);
    match (chaser(Color::Red), chaser(Color::Black)) {
        (true, false) => Ruling::PerpetualChase { loser: Color::Red },
        (false, true) => Ruling::PerpetualChase { loser: Color::Black },
        _ => Ruling::Draw,
    }
}

/// The enemy pieces that `by` chases in `position` as it stands (R2-R7): the pieces it could
/// legally capture that are worth more than the attacker or are not truly protected, outside
/// exchanges of like pieces. Whose turn it is does not matter. Whether a *move* chases a piece
/// depends on this set before and after it (R8), see [`judge`].
///
/// ```
/// use xiangqi::repetition::chased_pieces;
/// use xiangqi::{Color, Position, Square};
/// // Red's horse on c5 attacks the black rook on b7 (chased although the rook on a7 protects
/// // it: R5), the pawn on e6 (not across the river: R3) and the horse on e4, which can take
/// // back on c5 (an exchange: R7).
/// let pos: Position = "4k4/9/rr7/4p4/2N6/4n4/9/9/9/4K4 w - - 0 1".parse().unwrap();
/// let names: Vec<String> = chased_pieces(&pos, Color::Red).iter().map(Square::to_string).collect();
/// assert_eq!(names, ["b7"]);
/// ```
pub fn chased_pieces(position: &Position, by: Color) -> Vec<Square> {
    squares(chased(&mut position.clone(), by, SquareSet::MAX, None)).collect()
}

/// The pieces among `candidates` that `chaser` chases in `pos` (R2-R7). `pos` is used as
/// scratch space (captures are played and taken back) and is unchanged afterwards.
///
/// `moved` is the square of the piece that has just moved, when the set is judged after a move:
/// then a pinned piece other than that one chases nothing (R4).
fn chased(pos: &mut Position, chaser: Color, candidates: SquareSet, moved: Option<usize>) -> SquareSet {
    let victim = chaser.other();
    let (ours, theirs) = (chaser.index() * 7, victim.index() * 7);
    // R3: any enemy piece but the king; pawns only once they have crossed the river.
    let pawns_at_home = pos.by_piece[theirs + PAWN_CODE as usize] & home_half(victim);
    let targets =
        pos.by_color[victim.index()] & !pos.by_piece[theirs + KING_CODE as usize] & !pawns_at_home & candidates;
    if targets == 0 {
        return 0;
    }
    // R2: every piece but the king and the pawns.
    let mut attackers = pos.by_color[chaser.index()]
        & !(pos.by_piece[ours + KING_CODE as usize] | pos.by_piece[ours + PAWN_CODE as usize]);
    let mut found = 0;
    while attackers != 0 {
        let from = attackers.trailing_zeros() as usize;
        attackers &= attackers - 1;
        let code = pos.board[from];
        let kind = kind_code(code);
        // R4: a pinned piece chases its pinner only with its own move (AXF example D39).
        if moved.is_some_and(|m| m != from) && pinned(pos, chaser, from) {
            continue;
        }
        let mut hits = pos.attack_set(from, code) & targets & !found;
        while hits != 0 {
            let to = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            // R4: only a legal capture threatens (a pinned piece threatens only its pinner).
            if !pos.capture_is_legal(chaser, from, to) {
                continue;
            }
            let prey = kind_code(pos.board[to]);
            // R5: worth more than the attacker, chased even when protected. Otherwise R6: it
            // must be unprotected, and R7: not an exchange of like pieces.
            let chase = outranks(prey, kind) || {
                let protected = pos.recapture_exists(from, to);
                let exchange = prey == kind && strikes_back(pos, victim, to, from);
                !protected && !exchange
            };
            if chase {
                found |= 1 << to;
            }
        }
    }
    found
}

/// R4: whether `color`'s piece on `from` is pinned: taking it off the board would expose its
/// king (to an attack or to the facing king), while the king is not in check already.
#[inline]
fn pinned(pos: &Position, color: Color, from: usize) -> bool {
    let king = pos.kings[color.index()] as usize;
    !pos.attacked_after(color, king, king, king) && pos.attacked_after(color, king, from, king)
}

/// R5: whether a piece of kind `prey` is worth more than its attacker of kind `attacker`
/// (kind codes as in `attacks`).
#[inline]
fn outranks(prey: u8, attacker: u8) -> bool {
    match attacker {
        HORSE_CODE | CANNON_CODE => prey == ROOK_CODE,
        ADVISOR_CODE | ELEPHANT_CODE => matches!(prey, ROOK_CODE | HORSE_CODE | CANNON_CODE),
        _ => false,
    }
}

/// R7: whether `victim`'s piece on `at` could legally capture the attacker on `attacker` in
/// return (a horse with its own leg blocked cannot).
#[inline]
fn strikes_back(pos: &Position, victim: Color, at: usize, attacker: usize) -> bool {
    pos.attack_set(at, pos.board[at]) >> attacker & 1 != 0 && pos.capture_is_legal(victim, at, attacker)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<Move> {
        s.split_whitespace().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn either_end_of_the_cycle() {
        let pos: Position = "5k3/9/2c6/9/9/9/2R6/9/9/4K4 b - - 0 1".parse().unwrap();
        assert_eq!(judge(&pos, &moves("c7d7 c3d3 d7c7 d3c3")), Ruling::PerpetualChase { loser: Color::Red });
        assert_eq!(
            judge(&pos, &moves("c7d7 c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3")),
            Ruling::PerpetualChase { loser: Color::Red }
        );
        // The same cycle entered one ply later.
        let mut later = pos.clone();
        later.play("c7d7".parse().unwrap()).unwrap();
        assert_eq!(judge(&later, &moves("c3d3 d7c7 d3c3 c7d7")), Ruling::PerpetualChase { loser: Color::Red });
    }

    #[test]
    fn short_or_empty_input_is_a_draw() {
        let pos = Position::startpos();
        assert_eq!(judge(&pos, &[]), Ruling::Draw);
        assert_eq!(Ruling::Draw.loser(), None);
        assert_eq!(Ruling::PerpetualCheck { loser: Color::Red }.winner(), Some(Color::Black));
    }
}
