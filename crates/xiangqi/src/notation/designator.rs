//! What WXF and Chinese notation share: a move is named by its piece (the file it stands on,
//! or its place among identical pieces on one file), a direction and a number.
//!
//! The WXF/AXF rules followed here (<http://www.wxf.org/xq/computer/wxf_notation.html>):
//! files count 1-9 from the mover's right; two identical pieces on a file are front/rear
//! (`C+`, `C-`; 前, 后); three pawns front/middle/rear (`P+`, `P3`, `P-`; 前, 中, 后); four or five
//! pawns `++`, `P+`, (`P3`,) `P-`, `--` in WXF and 前, 二, 三, 四, (五) in Chinese; when two
//! files hold tandem pawns, the file is named too (`3+`, `33`, `3-`; 前三, 中三, 后三).
//! Advisors and elephants are always named by their file: their direction tells two on one
//! file apart.

use super::NotationError;
use crate::{Color, Move, PieceKind, Position, Square};

/// Which way a piece moves, as the mover sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Action {
    Forward,
    Backward,
    Across,
}

/// A piece's place among identical pieces on its file, as written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Order {
    /// WXF `+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `-`: the rear one of two or three, the second last of four or five.
    Minus,
    /// WXF `++`: the foremost of four or five.
    PlusPlus,
    /// WXF `--`: the rearmost of four or five.
    MinusMinus,
    /// 前: the foremost.
    Front,
    /// 中: the middle one of three or five.
    Middle,
    /// 后: the rearmost.
    Rear,
    /// 一..五: the n-th from the front (1-based).
    Nth(u8),
}

impl Order {
    /// Whether the piece at `index` (0 = foremost) of `count` on its file is the one named.
    fn selects(self, count: u8, index: u8) -> bool {
        match self {
            Order::Plus => index == if count <= 3 { 0 } else { 1 },
            Order::Minus => index + if count <= 3 { 1 } else { 2 } == count,
            Order::PlusPlus => count >= 4 && index == 0,
            Order::MinusMinus => count >= 4 && index + 1 == count,
            Order::Front => index == 0,
            Order::Middle => (count == 3 && index == 1) || (count == 5 && index == 2),
            Order::Rear => index + 1 == count,
            Order::Nth(n) => index + 1 == n,
        }
    }
}

/// A move as read from WXF or Chinese text, before it is matched against the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Pattern {
    pub kind: PieceKind,
    /// The file (1..=9 from the mover's right), if written.
    pub file: Option<u8>,
    /// The place on the file, if written.
    pub order: Option<Order>,
    pub action: Action,
    /// Destination file (sideways moves; advisor, elephant and horse) or number of steps.
    pub arg: u8,
}

/// Where a piece stands among its identical pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Place {
    pub kind: PieceKind,
    /// 1..=9 from the mover's right.
    pub file: u8,
    /// How many identical pieces stand on that file (1..=5).
    pub count: u8,
    /// 0 for the foremost.
    pub index: u8,
    /// On how many files two or more of these pieces stand.
    pub tandem_files: u8,
}

/// Everything WXF and Chinese notation say about a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Facts {
    pub place: Place,
    pub action: Action,
    pub arg: u8,
}

/// The file number 1..=9 counted from `color`'s right.
pub(crate) fn side_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far forward `sq` is for `color` (0 on its back rank).
fn advance(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// Where the piece on `sq` stands among `same`, the squares of all pieces of its colour and kind.
fn place_among(color: Color, kind: PieceKind, sq: Square, same: &[Square]) -> Place {
    let on_file = |f: u8| same.iter().filter(move |s| s.file() == f);
    let count = on_file(sq.file()).count() as u8;
    let index = on_file(sq.file()).filter(|s| advance(color, **s) > advance(color, sq)).count() as u8;
    let tandem_files = (0..9).filter(|&f| on_file(f).count() >= 2).count() as u8;
    Place { kind, file: side_file(color, sq.file()), count, index, tandem_files }
}

/// The squares of `color`'s pieces of `kind`.
fn squares_of(pos: &Position, color: Color, kind: PieceKind) -> Vec<Square> {
    pos.pieces().filter(|(_, p)| p.color == color && p.kind == kind).map(|(s, _)| s).collect()
}

/// Direction and number of a move by a `kind` of `color`.
fn action_of(color: Color, kind: PieceKind, m: Move) -> (Action, u8) {
    let (a, b) = (advance(color, m.from()), advance(color, m.to()));
    let action = match b.cmp(&a) {
        core::cmp::Ordering::Greater => Action::Forward,
        core::cmp::Ordering::Less => Action::Backward,
        core::cmp::Ordering::Equal => Action::Across,
    };
    let diagonal = matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
    let arg = if diagonal || action == Action::Across { side_file(color, m.to().file()) } else { a.abs_diff(b) };
    (action, arg)
}

/// The facts of the legal move `m` in `pos`.
pub(crate) fn describe(pos: &Position, m: Move) -> Facts {
    let color = pos.turn();
    let kind = pos.piece_at(m.from()).map_or(PieceKind::Pawn, |p| p.kind);
    let same = squares_of(pos, color, kind);
    let place = place_among(color, kind, m.from(), &same);
    let (action, arg) = action_of(color, kind, m);
    Facts { place, action, arg }
}

/// Whether `pattern` names the piece at `place`.
fn names(pattern: &Pattern, place: &Place) -> bool {
    if pattern.kind != place.kind || pattern.file.is_some_and(|f| f != place.file) {
        return false;
    }
    match pattern.order {
        Some(order) => place.count >= 2 && order.selects(place.count, place.index),
        // A bare file names the only piece there, or the middle one of three or five pawns;
        // two or four on the file are left to the move to tell apart (advisors, elephants,
        // and lenient readers of `R2+1` with doubled rooks).
        None => match place.count {
            3 => place.index == 1,
            5 => place.index == 2,
            _ => true,
        },
    }
}

/// The legal move of `pos` that `pattern` names.
pub(crate) fn resolve(pos: &Position, pattern: &Pattern, text: &str) -> Result<Move, NotationError> {
    let color = pos.turn();
    let same = squares_of(pos, color, pattern.kind);
    let named: Vec<Square> =
        same.iter().copied().filter(|&s| names(pattern, &place_among(color, pattern.kind, s, &same))).collect();
    if named.is_empty() {
        return Err(NotationError::NoSuchPiece { kind: pattern.kind });
    }
    let candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| named.contains(&m.from()) && action_of(color, pattern.kind, *m) == (pattern.action, pattern.arg))
        .collect();
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => Err(NotationError::Illegal { text: text.to_string() }),
        _ => Err(NotationError::Ambiguous { candidates }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_select_the_right_pawn() {
        // Four pawns: ++ P+ P- --.
        let picks: Vec<u8> =
            [Order::PlusPlus, Order::Plus, Order::Minus, Order::MinusMinus].iter().map(|o| pick(*o, 4)).collect();
        assert_eq!(picks, [0, 1, 2, 3]);
        let picks: Vec<u8> = [Order::PlusPlus, Order::Plus, Order::Middle, Order::Minus, Order::MinusMinus]
            .iter()
            .map(|o| pick(*o, 5))
            .collect();
        assert_eq!(picks, [0, 1, 2, 3, 4]);
        assert_eq!([pick(Order::Plus, 3), pick(Order::Middle, 3), pick(Order::Minus, 3)], [0, 1, 2]);
        assert_eq!([pick(Order::Plus, 2), pick(Order::Minus, 2)], [0, 1]);
        assert_eq!([pick(Order::Front, 5), pick(Order::Nth(4), 5), pick(Order::Rear, 5)], [0, 3, 4]);
    }

    fn pick(order: Order, count: u8) -> u8 {
        let hits: Vec<u8> = (0..count).filter(|&i| order.selects(count, i)).collect();
        assert_eq!(hits.len(), 1, "{order:?} of {count}");
        hits[0]
    }
}
