//! WXF notation: `C2.5`, `H8+7`, `R+.3`, `P3.4`, `++.4`, `3-.4`.

use super::designator::{Action, Facts, Order, Pattern};
use super::NotationError;
use crate::PieceKind;

const EXPECTED: &str = "a WXF move such as C2.5, H8+7, R+.3 or ++.4";

/// The WXF letter of a piece kind (K A E H R C P).
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        other => other.fen_char(),
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// Writes the move; see [`super::designator`] for the rules.
pub(crate) fn format(facts: &Facts) -> String {
    let p = &facts.place;
    let sign = |front: bool| if front { '+' } else { '-' };
    let (a, b) = match p.kind {
        _ if p.count == 1 => (letter(p.kind), digit(p.file)),
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => (letter(p.kind), digit(p.file)),
        PieceKind::Pawn if p.tandem_files >= 2 => match (p.count, p.index) {
            (3, 1) => (digit(p.file), digit(p.file)),
            (_, i) => (digit(p.file), sign(i == 0)),
        },
        PieceKind::Pawn => match (p.count, p.index) {
            (2 | 3, 0) => ('P', '+'),
            (2, _) => ('P', '-'),
            (3 | 5, i) if i + 1 == p.count.div_ceil(2) => ('P', digit(p.file)),
            (3, _) => ('P', '-'),
            (_, 0) => ('+', '+'),
            (_, 1) => ('P', '+'),
            (_, i) if i + 1 == p.count => ('-', '-'),
            _ => ('P', '-'),
        },
        _ => (letter(p.kind), sign(p.index == 0)),
    };
    let action = match facts.action {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Across => '.',
    };
    [a, b, action, digit(facts.arg)].iter().collect()
}

/// Reads the text into a pattern (not yet matched against the position).
pub(crate) fn read(text: &str) -> Result<Pattern, NotationError> {
    let syntax = || NotationError::Syntax { text: text.to_string(), expected: EXPECTED };
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_uppercase()).collect();
    if c.len() != 4 {
        return Err(syntax());
    }
    let num = |d: char| d.to_digit(10).filter(|&n| (1..=9).contains(&n)).map(|n| n as u8);
    let kind = |l: char| {
        if l.is_ascii_alphabetic() {
            PieceKind::from_char(l).ok_or(NotationError::UnknownPiece(l))
        } else {
            Err(syntax())
        }
    };
    let sign = |s: char| match s {
        '+' => Some(Order::Plus),
        '-' => Some(Order::Minus),
        _ => None,
    };
    let (kind, file, order) = match (c[0], c[1]) {
        ('+', '+') => (PieceKind::Pawn, None, Some(Order::PlusPlus)),
        ('-', '-') => (PieceKind::Pawn, None, Some(Order::MinusMinus)),
        (s, l) if sign(s).is_some() => (kind(l)?, None, sign(s)),
        (d, e) if num(d).is_some() => match (num(e), sign(e)) {
            (Some(f), _) if Some(f) == num(d) => (PieceKind::Pawn, num(d), Some(Order::Middle)),
            (_, Some(o)) => (PieceKind::Pawn, num(d), Some(o)),
            _ => return Err(syntax()),
        },
        (l, s) if sign(s).is_some() => (kind(l)?, None, sign(s)),
        (l, d) => (kind(l)?, Some(num(d).ok_or_else(syntax)?), None),
    };
    let action = match c[2] {
        '+' => Action::Forward,
        '-' => Action::Backward,
        '.' | '=' => Action::Across,
        _ => return Err(syntax()),
    };
    let arg = num(c[3]).ok_or_else(syntax)?;
    Ok(Pattern { kind, file, order, action, arg })
}
