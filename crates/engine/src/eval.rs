//! Static evaluation, from the side to move's view, in centipawns (an uncrossed pawn is 100).
//!
//! Every term has a middlegame and an endgame weight, blended by the game phase (how much of
//! the rooks, horses and cannons are still on the board):
//! - material and piece-square bonuses (pawns gain across the river and near the palace;
//!   horses and rooks in the enemy half; the central cannon; the raised king is unsafe);
//! - mobility of rooks, horses (blocked legs) and cannons (screens), elephants (eyes);
//! - king safety: missing advisors and elephants against the attackers left, attackers across
//!   the river, the "empty-head cannon" (a cannon facing the king with nothing between), a
//!   rook on the king's open file, a horse at the palace, and the palace squares the enemy
//!   rooks, cannons, horses and crossed pawns attack (the danger grows with their square:
//!   attackers together are worth far more than apart);
//! - material that cannot win: a side without attackers cannot mate, so its advantage is
//!   scaled down; with no attackers at all it is a draw.

use crate::weights::{self as w, Weights};
use xiangqi::{PieceKind, Position};

const KING: usize = PieceKind::King.index();
const ADVISOR: usize = PieceKind::Advisor.index();
const ELEPHANT: usize = PieceKind::Elephant.index();
const HORSE: usize = PieceKind::Horse.index();
const ROOK: usize = PieceKind::Rook.index();
const CANNON: usize = PieceKind::Cannon.index();
const PAWN: usize = PieceKind::Pawn.index();

/// Material in centipawns, for move ordering and pruning margins.
pub(crate) const fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Horse => 430,
        PieceKind::Rook => 950,
        PieceKind::Cannon => 450,
        PieceKind::Pawn => 100,
    }
}

/// A middlegame / endgame pair.
#[derive(Clone, Copy, Default)]
struct Pair(i32, i32);

impl core::ops::AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl core::ops::SubAssign for Pair {
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

/// Bonuses by rank counted from the piece's own side (0 = own back rank) and by the distance
/// from the edge file (`0` = a or i file, `4` = the middle file).
const fn pst(kind: usize, rank: usize, centre: usize) -> Pair {
    let (rr, c) = (rank as i32, centre as i32);
    match kind {
        PAWN => match rr {
            0..=3 => Pair(0, 0),
            4 => Pair(10 + 4 * c, 15 + 3 * c),
            5 => Pair(55 + 8 * c, 75 + 6 * c),
            6 => Pair(75 + 10 * c, 95 + 8 * c),
            7 => Pair(80 + if c >= 3 { 35 } else { 5 * c }, 100 + if c >= 3 { 25 } else { 5 * c }),
            8 => Pair(60 + if c >= 3 { 25 } else { 0 }, 80 + if c >= 3 { 20 } else { 0 }),
            _ => Pair(10, 30),
        },
        HORSE => {
            let advance = [0, 4, 10, 14, 20, 26, 34, 40, 28, 5][rank];
            let edge = if c == 0 { -18 } else { 0 };
            let attack = if rr >= 6 && c >= 2 { 15 } else { 0 };
            let centre = 7 * if c > 3 { 3 } else { c };
            Pair(advance + edge + attack + centre, advance / 2 + edge + centre)
        }
        ROOK => {
            let deep = match rr {
                6 | 7 => 20,
                5 | 8 => 10,
                9 => 5,
                _ => 0,
            };
            let rib = if c == 3 { 8 } else { 0 };
            Pair(deep + rib, deep / 2)
        }
        CANNON => {
            let central = if c == 4 { 25 } else { 0 };
            let line = match rr {
                0 => -5,
                1 | 2 => 0,
                3..=5 => -8,
                6 => 0,
                7 => 6,
                8 => 0,
                _ => 12,
            };
            Pair(central + line, line / 2)
        }
        KING => Pair(-25 * rr - if c != 4 { 10 } else { 0 }, -8 * rr),
        ADVISOR | ELEPHANT => {
            let home = if c == 4 { 10 } else { 0 };
            Pair(home, home / 2)
        }
        _ => Pair(0, 0),
    }
}

/// `TABLE[kind][relative square]`: the square bonus, the square counted from the piece's own
/// side (Black's board is turned around).
static TABLE: [[Pair; 90]; 7] = {
    let mut t = [[Pair(0, 0); 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = (s % 9, s / 9);
            let centre = if f < 4 { f } else { 8 - f };
            let p = pst(k, r, centre);
            t[k][s] = p;
            s += 1;
        }
        k += 1;
    }
    t
};

/// Phase weight of each kind; the start position has `MAX_PHASE`.
const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const MAX_PHASE: i32 = 32;

/// What one side's pieces are, gathered during the scan.
#[derive(Default, Clone, Copy)]
struct Side {
    count: [i32; 7],
    /// Rooks, horses, cannons and crossed pawns in the enemy half.
    invaders: i32,
    king: usize,
    /// Squares of the rooks, horses and cannons, with their kind.
    attackers: [(u8, u8); 6],
    attacker_count: usize,
    /// Squares of the enemy palace this side's pieces attack, weighted by attacker kind.
    palace_units: i32,
    /// How many of this side's pieces attack the enemy palace.
    palace_attackers: i32,
}

#[inline]
fn at(f: i32, r: i32) -> Option<usize> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

/// Occupancy of each rank (bit = file) and file (bit = rank), for the line pieces' mobility.
struct Lines {
    ranks: [u16; 10],
    files: [u16; 9],
}

impl Lines {
    /// The occupancy of `pos`.
    #[inline]
    fn of(pos: &Position) -> Lines {
        let mut lines = Lines { ranks: [0; 10], files: [0; 9] };
        for (square, _) in pos.pieces() {
            let s = square.index();
            lines.ranks[s / 9] |= 1 << (s % 9);
            lines.files[s % 9] |= 1 << (s / 9);
        }
        lines
    }
}

/// A rook's or cannon's moves along one line, both ways: the empty squares before the first
/// piece, and a capture of the first piece (rook) or of the one beyond it (cannon, counted
/// twice). `occ` is the line's occupancy, `at` the piece's place on it, `len` its length,
/// `enemy(i)` whether the piece at place `i` is an enemy.
#[inline]
fn line_mobility(occ: u16, at: u32, len: u32, rook: bool, enemy: impl Fn(u32) -> bool) -> i32 {
    let mut n = 0;
    // Upwards: the places above `at`, shifted down to start at 0.
    let above = (occ as u32) >> (at + 1);
    let room = len - at - 1;
    let free = above.trailing_zeros().min(room);
    n += free as i32;
    if free < room {
        let first = at + 1 + free;
        if rook {
            n += enemy(first) as i32;
        } else {
            let beyond = above >> (free + 1);
            if beyond != 0 {
                n += 2 * enemy(first + 1 + beyond.trailing_zeros()) as i32;
            }
        }
    }
    // Downwards.
    let below = (occ as u32) & ((1 << at) - 1);
    if below == 0 {
        n += at as i32;
    } else {
        let first = 31 - below.leading_zeros();
        n += (at - first - 1) as i32;
        if rook {
            n += enemy(first) as i32;
        } else {
            let beyond = below & !(1 << first);
            if beyond != 0 {
                n += 2 * enemy(31 - beyond.leading_zeros()) as i32;
            }
        }
    }
    n
}

/// The places a rook (the first piece each way included) or a cannon (past its screen, up to
/// and including the next piece) attacks along one line, as a bit set of places.
#[inline]
fn line_attacks(occ: u16, at: u32, len: u32, rook: bool) -> u32 {
    let full = (1u32 << len) - 1;
    let occ = occ as u32 & full;
    // Upwards: `ray_up` is every place above `at`.
    let ray_up = full & !((2u32 << at) - 1);
    let blockers_up = occ & ray_up;
    let mut attacked = 0;
    let up_to = |b: u32| if b == 0 { ray_up } else { ray_up & ((b & b.wrapping_neg()) * 2 - 1) };
    if rook {
        attacked |= up_to(blockers_up);
    } else if blockers_up != 0 {
        let screen = blockers_up & blockers_up.wrapping_neg();
        let beyond = ray_up & !(screen * 2 - 1);
        let next = occ & beyond;
        attacked |= if next == 0 { beyond } else { beyond & ((next & next.wrapping_neg()) * 2 - 1) };
    }
    // Downwards: every place below `at`, nearest first from the top bit.
    let ray_down = (1u32 << at) - 1;
    let blockers_down = occ & ray_down;
    let down_from = |b: u32| -> u32 {
        if b == 0 {
            ray_down
        } else {
            let top = 31 - b.leading_zeros();
            ray_down & !((1u32 << top) - 1)
        }
    };
    if rook {
        attacked |= down_from(blockers_down);
    } else if blockers_down != 0 {
        let screen = 31 - blockers_down.leading_zeros();
        let beyond = (1u32 << screen) - 1;
        let next = occ & beyond;
        attacked |= if next == 0 {
            beyond
        } else {
            let top = 31 - next.leading_zeros();
            beyond & !((1u32 << top) - 1)
        };
    }
    attacked
}

/// The palace a side attacks: its ranks on the board and its files (3 to 5).
#[inline]
const fn enemy_palace_ranks(color: usize) -> (usize, usize) {
    if color == 0 {
        (7, 9)
    } else {
        (0, 2)
    }
}

/// Squares of the enemy palace the piece on `s` attacks.
#[inline]
fn palace_attacks(board: &[u8; 90], lines: &Lines, s: usize, kind: usize, color: usize) -> i32 {
    let (f, r) = (s % 9, s / 9);
    let (lo, hi) = enemy_palace_ranks(color);
    let in_palace = |t: usize| (3..=5).contains(&(t % 9)) && (lo..=hi).contains(&(t / 9));
    match kind {
        ROOK | CANNON => {
            let rook = kind == ROOK;
            let mut n = 0;
            if (lo..=hi).contains(&r) {
                n += (line_attacks(lines.ranks[r], f as u32, 9, rook) & 0b111_000).count_ones();
            }
            if (3..=5).contains(&f) {
                let ranks = ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1);
                n += (line_attacks(lines.files[f], r as u32, 10, rook) & ranks).count_ones();
            }
            n as i32
        }
        HORSE => HORSE_STEPS[s]
            .iter()
            .take_while(|st| st.0 != STEPS_END)
            .filter(|&&(leg, t)| board[leg as usize] == 0 && in_palace(t as usize))
            .count() as i32,
        PAWN => {
            let ahead = if color == 0 { s + 9 } else { s.wrapping_sub(9) };
            let mut n = (ahead < 90 && in_palace(ahead)) as i32;
            if f > 0 {
                n += in_palace(s - 1) as i32;
            }
            if f < 8 {
                n += in_palace(s + 1) as i32;
            }
            n
        }
        _ => 0,
    }
}

/// A horse's steps from each square: (leg, target) pairs, `STEPS_END` after the last.
static HORSE_STEPS: [[(u8, u8); 8]; 90] = {
    let mut t = [[(STEPS_END, STEPS_END); 8]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let legs = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut n = 0;
        let mut l = 0;
        while l < 4 {
            let (lf, lr) = legs[l];
            let mut side = -1;
            while side <= 1 {
                let (tf, tr) = if lf != 0 { (f + 2 * lf, r + side) } else { (f + side, r + 2 * lr) };
                if tf >= 0 && tf < 9 && tr >= 0 && tr < 10 {
                    t[s][n] = (((r + lr) * 9 + f + lf) as u8, (tr * 9 + tf) as u8);
                    n += 1;
                }
                side += 2;
            }
            l += 1;
        }
        s += 1;
    }
    t
};
const STEPS_END: u8 = u8::MAX;

/// Squares a horse on `s` can reach, and a rook's and cannon's moves along lines (cannon
/// captures count twice), an elephant's free eyes.
fn mobility(board: &[u8; 90], lines: &Lines, s: usize, kind: usize, color: usize) -> i32 {
    let (f, r) = ((s % 9) as i32, (s / 9) as i32);
    let own = |code: u8| code != 0 && ((code - 1) / 7) as usize == color;
    match kind {
        HORSE => {
            let mut n = 0;
            for &(leg, t) in HORSE_STEPS[s].iter().take_while(|st| st.0 != STEPS_END) {
                n += (board[leg as usize] == 0 && !own(board[t as usize])) as i32;
            }
            n
        }
        ROOK | CANNON => {
            let (f, r) = (f as usize, r as usize);
            let rook = kind == ROOK;
            let across = line_mobility(lines.ranks[r], f as u32, 9, rook, |x| !own(board[r * 9 + x as usize]));
            let along = line_mobility(lines.files[f], r as u32, 10, rook, |y| !own(board[y as usize * 9 + f]));
            across + along
        }
        ELEPHANT => {
            let mut n = 0;
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if let (Some(eye), Some(t)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr)) {
                    let own_half = if color == 0 { r + 2 * dr <= 4 } else { r + 2 * dr >= 5 };
                    if own_half && board[eye] == 0 && !own(board[t]) {
                        n += 1;
                    }
                }
            }
            n
        }
        _ => 0,
    }
}

/// The pieces between `a` and `b` on one file (exclusive), or `None` if not on one file.
fn between_on_file(board: &[u8; 90], a: usize, b: usize) -> Option<i32> {
    if a % 9 != b % 9 {
        return None;
    }
    let (lo, hi) = (a.min(b), a.max(b));
    Some(((lo + 9)..hi).step_by(9).filter(|&s| board[s] != 0).count() as i32)
}

/// How much king safety (all of [`king_safety`] and [`palace_danger`]) counts, in percent of
/// its weights. The weights were fitted to self-play results, where neither side attacks the
/// king hard; twice as much won two 40 ms self-play SPRTs, 150 over 100 and then 200 over 150
/// (807 games, 53.5 %, LLR 3.03 for [0, 20]).
const KING_SAFETY_PERCENT: i32 = 200;

/// Weight of one attacked palace square by the attacker's kind.
const PALACE_UNIT: [i32; 7] = [0, 0, 0, 4, 3, 3, 2];

/// The danger to a king from the enemy pieces attacking its palace: growing with the square
/// of the attacks (two attackers together are worth far more than twice one), halved for a
/// lone attacker, and less for each palace defender (advisors, elephants) left.
#[inline]
fn palace_danger(attacker: &Side, defender: &Side, wt: &Weights) -> Pair {
    if attacker.palace_attackers == 0 {
        return Pair(0, 0);
    }
    let squared = attacker.palace_units * attacker.palace_units;
    let lone = if attacker.palace_attackers == 1 { 2 } else { 1 };
    let defenders = defender.count[ADVISOR] + defender.count[ELEPHANT];
    let (mg, eg) = wt.pair(w::PALACE_DANGER);
    let scale = |weight: i32| squared * weight / 256 / lone * (8 - defenders) / 8;
    Pair(scale(mg), scale(eg))
}

/// King safety for the side `us` (a penalty is negative).
#[inline(always)]
fn king_safety(board: &[u8; 90], us: usize, sides: &[Side; 2], wt: &Weights) -> Pair {
    let them = 1 - us;
    let enemy = &sides[them];
    let own = &sides[us];
    let k = own.king;
    let mut score = Pair(0, 0);
    let attack_force = enemy.count[ROOK] * 2 + enemy.count[HORSE] + enemy.count[CANNON];
    if attack_force == 0 {
        return score;
    }
    // Missing defenders hurt in proportion to what can still attack.
    let missing_advisors = 2 - own.count[ADVISOR];
    let missing_elephants = 2 - own.count[ELEPHANT];
    let cannons = enemy.count[CANNON];
    let term = |t: usize| Pair(wt.pair(t).0, wt.pair(t).1);
    let (a, a_force) = (term(w::MISSING_ADVISOR), term(w::MISSING_ADVISOR_PER_ATTACKER));
    let (e, e_cannon, e_force) =
        (term(w::MISSING_ELEPHANT), term(w::MISSING_ELEPHANT_PER_CANNON), term(w::MISSING_ELEPHANT_PER_ATTACKER));
    score -= Pair(
        missing_advisors * (a.0 + a_force.0 * attack_force)
            + missing_elephants * (e.0 + e_cannon.0 * cannons + e_force.0 * attack_force),
        missing_advisors * (a.1 + a_force.1 * attack_force)
            + missing_elephants * (e.1 + e_cannon.1 * cannons + e_force.1 * attack_force),
    );
    // Attackers across the river, more dangerous together.
    const PRESSURE: [i32; 8] = [0, 0, 12, 35, 70, 115, 160, 200];
    let p = PRESSURE[(enemy.invaders as usize).min(7)];
    let pct = term(w::PRESSURE);
    score -= Pair(p * (10 - own.count[ADVISOR] - own.count[ELEPHANT]) * pct.0 / 1000, p * pct.1 / 100);
    // Pieces on the king's file and next to the palace.
    for &(kind, s) in &enemy.attackers[..enemy.attacker_count] {
        let (kind, s) = (kind as usize, s as usize);
        if kind == CANNON {
            match between_on_file(board, s, k) {
                // The empty-head cannon: the king can leave neither the file nor let anything in.
                Some(0) => score -= term(w::EMPTY_HEAD_CANNON),
                Some(2) => score -= term(w::CANNON_TWO_SCREENS),
                _ => {}
            }
        } else if kind == ROOK {
            if between_on_file(board, s, k).is_some_and(|n| n <= 1) {
                score -= term(w::ROOK_ON_KING_FILE);
            }
        } else if kind == HORSE {
            let (df, dr) = ((s % 9) as i32 - (k % 9) as i32, (s / 9) as i32 - (k / 9) as i32);
            if df.abs() <= 2 && dr.abs() <= 2 {
                score -= term(w::HORSE_NEAR_KING);
            }
        }
    }
    score
}

/// The evaluation of `pos` for the side to move, in centipawns.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::evaluate;
/// // The start position is balanced but for the side to move's tempo.
/// assert!(evaluate(&Position::startpos()).abs() < 50);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::DEFAULT)
}

/// [`evaluate`] with other weights (for tuning them).
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::{evaluate, evaluate_with, Weights};
/// let pos = Position::startpos();
/// assert_eq!(evaluate_with(&pos, &Weights::DEFAULT), evaluate(&pos));
/// ```
#[inline(always)]
pub fn evaluate_with(pos: &Position, wt: &Weights) -> i32 {
    let board = pos.codes();
    let mut sides = [Side::default(); 2];
    let mut score = [Pair(0, 0); 2];
    let lines = Lines::of(pos);
    // Square order, as a scan of the board would give, but over the occupied squares only.
    for (square, _) in pos.pieces() {
        let s = square.index();
        let code = board[s];
        let (color, kind) = (((code - 1) / 7) as usize, ((code - 1) % 7) as usize);
        let rel = if color == 0 { s } else { 89 - s };
        let side = &mut sides[color];
        side.count[kind] += 1;
        let material = wt.pair(w::MATERIAL + kind);
        score[color] += TABLE[kind][rel];
        score[color] += Pair(material.0, material.1);
        if matches!(kind, HORSE | ROOK | CANNON | ELEPHANT) {
            let m = mobility(board, &lines, s, kind, color);
            let weight = wt.pair(w::MOBILITY + kind);
            score[color] += Pair(weight.0 * m, weight.1 * m);
        }
        if matches!(kind, ROOK | HORSE | CANNON) || (kind == PAWN && rel >= 45) {
            let n = palace_attacks(board, &lines, s, kind, color);
            if n > 0 {
                side.palace_units += n * PALACE_UNIT[kind];
                side.palace_attackers += 1;
            }
        }
        match kind {
            KING => side.king = s,
            ROOK | HORSE | CANNON => {
                side.invaders += (rel >= 45) as i32;
                if side.attacker_count < side.attackers.len() {
                    side.attackers[side.attacker_count] = (kind as u8, s as u8);
                    side.attacker_count += 1;
                }
            }
            PAWN => side.invaders += (rel >= 45) as i32,
            _ => {}
        }
    }
    for (us, side_score) in score.iter_mut().enumerate() {
        let mut safety = king_safety(board, us, &sides, wt);
        safety -= palace_danger(&sides[1 - us], &sides[us], wt);
        *side_score += Pair(safety.0 * KING_SAFETY_PERCENT / 100, safety.1 * KING_SAFETY_PERCENT / 100);
    }
    let phase: i32 =
        sides.iter().map(|s| (0..7).map(|k| PHASE[k] * s.count[k]).sum::<i32>()).sum::<i32>().min(MAX_PHASE);
    let blend = |p: Pair| (p.0 * phase + p.1 * (MAX_PHASE - phase)) / MAX_PHASE;
    let us = pos.turn().index();
    let tempo = wt.pair(w::TEMPO);
    let mut total = blend(score[us]) - blend(score[1 - us]) + blend(Pair(tempo.0, tempo.1));
    // A side that cannot attack cannot win.
    let attackers = |s: &Side| s.count[ROOK] + s.count[HORSE] + s.count[CANNON] + s.count[PAWN];
    let (a_us, a_them) = (attackers(&sides[us]), attackers(&sides[1 - us]));
    if a_us == 0 && a_them == 0 {
        return 0;
    }
    if (total > 0 && a_us == 0) || (total < 0 && a_them == 0) {
        total /= 8;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::startpos()), Weights::DEFAULT.pair(w::TEMPO).0);
    }

    #[test]
    fn symmetric_for_both_sides() {
        let red: Position = "3k5/9/9/9/9/2P6/9/9/4A4/4K4 w - - 0 1".parse().unwrap();
        let black: Position = "4k4/4a4/9/9/6p2/9/9/9/9/5K3 b - - 0 1".parse().unwrap();
        assert_eq!(evaluate(&red), evaluate(&black));
        assert!(evaluate(&red) > 0);
    }

    /// The line mobility read from occupancy bits, against a walk along the board.
    #[test]
    fn line_mobility_matches_a_walk() {
        let walk = |board: &[u8; 90], s: usize, rook: bool, color: usize| -> i32 {
            let own = |code: u8| code != 0 && ((code - 1) / 7) as usize == color;
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut n = 0;
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut x, mut y, mut screen) = (f + df, r + dr, false);
                while let Some(t) = at(x, y) {
                    if board[t] == 0 {
                        n += !screen as i32;
                    } else if !screen {
                        if rook {
                            n += !own(board[t]) as i32;
                            break;
                        }
                        screen = true;
                    } else {
                        n += 2 * !own(board[t]) as i32;
                        break;
                    }
                    (x, y) = (x + df, y + dr);
                }
            }
            n
        };
        // Positions along a pseudo-random game, every rook and cannon of both sides.
        let mut pos = Position::startpos();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for _ in 0..300 {
            let board = pos.codes();
            let lines = Lines::of(&pos);
            for (sq, piece) in pos.pieces() {
                let (kind, color) = (piece.kind.index(), piece.color.index());
                if kind == ROOK || kind == CANNON {
                    let fast = mobility(board, &lines, sq.index(), kind, color);
                    assert_eq!(fast, walk(board, sq.index(), kind == ROOK, color), "{} {sq}", pos.fen());
                    checked += 1;
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Line attacks read from occupancy bits, against a walk along the line.
    #[test]
    fn line_attacks_match_a_walk() {
        for len in [9u32, 10] {
            for occ in 0u32..(1 << len) {
                for at in 0..len {
                    if occ & (1 << at) == 0 {
                        continue;
                    }
                    for rook in [true, false] {
                        let mut want = 0u32;
                        for dir in [1i32, -1] {
                            let (mut x, mut screen) = (at as i32 + dir, false);
                            while (0..len as i32).contains(&x) {
                                let occupied = occ & (1 << x) != 0;
                                if rook || screen {
                                    want |= 1 << x;
                                }
                                if occupied {
                                    if rook || screen {
                                        break;
                                    }
                                    screen = true;
                                }
                                x += dir;
                            }
                        }
                        assert_eq!(line_attacks(occ as u16, at, len, rook), want, "occ {occ:b} at {at} rook {rook}");
                    }
                }
            }
        }
    }

    #[test]
    fn palace_attacks_are_counted() {
        // A red rook on the open e file attacks e7, e8 and e9 (the king's square included).
        let pos: Position = "4k4/9/9/9/9/9/9/9/9/4RK3 b - - 0 1".parse().unwrap();
        let lines = Lines::of(&pos);
        let rook = "e0".parse::<xiangqi::Square>().unwrap().index();
        assert_eq!(palace_attacks(pos.codes(), &lines, rook, ROOK, 0), 3);
        // With the king's file shut by an advisor, the rook attacks only e7 and the advisor's e8.
        let closed: Position = "4k4/4a4/9/9/9/9/9/9/9/4RK3 w - - 0 1".parse().unwrap();
        let lines = Lines::of(&closed);
        assert_eq!(palace_attacks(closed.codes(), &lines, rook, ROOK, 0), 2);
    }

    /// The horse's step table against a walk over legs and targets.
    #[test]
    fn horse_steps_match_a_walk() {
        for (s, steps) in HORSE_STEPS.iter().enumerate() {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut walk = Vec::new();
            for (lf, lr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let Some(leg) = at(f + lf, r + lr) else { continue };
                for side in [-1, 1] {
                    let (tf, tr) = if lf != 0 { (f + 2 * lf, r + side) } else { (f + side, r + 2 * lr) };
                    if let Some(t) = at(tf, tr) {
                        walk.push((leg as u8, t as u8));
                    }
                }
            }
            let table: Vec<(u8, u8)> = steps.iter().copied().take_while(|st| st.0 != STEPS_END).collect();
            assert_eq!(table, walk, "square {s}");
        }
    }

    #[test]
    fn no_attackers_is_a_draw() {
        let pos: Position = "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1".parse().unwrap();
        assert_eq!(evaluate(&pos), 0);
    }

    #[test]
    fn empty_head_cannon_is_feared() {
        // The same material; in the first the black cannon faces the red king with nothing between.
        let open: Position = "3k5/9/4c4/9/9/9/9/9/9/4K4 w - - 0 1".parse().unwrap();
        let closed: Position = "3k5/9/3c5/9/9/9/9/9/9/4K4 w - - 0 1".parse().unwrap();
        assert!(evaluate(&open) < evaluate(&closed) - 30, "{} {}", evaluate(&open), evaluate(&closed));
    }
}
