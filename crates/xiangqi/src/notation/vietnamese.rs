//! Vietnamese notation: `P2-5`, `M8.7`, `X1/1`, `Xt.1`, `Ps-4`, `2B.1`.
//!
//! As Vietnamese players write it: the piece's letter (`Tg` tướng, `S` sĩ, `T` tượng, `X` xe,
//! `P` pháo, `M` mã, `B` binh / tốt, the same letters for both sides), the file it stands on
//! counted 1-9 from the mover's right as in Chinese notation, then `.` (tiến, advance), `/`
//! (thoái, retreat) or `-` (bình, sideways), then the destination file (sideways moves;
//! advisors, elephants and horses) or the number of ranks. Two identical pieces on one file
//! are told apart by `t` (trước, front) and `s` (sau, rear) in place of the file: `Xt.1`,
//! `Ps-4`. Three or more pawns on one file are told apart by their order from the front,
//! written before the letter: `1B`, `2B`, `3B`; when two files hold tandem pawns the file is
//! written too (`B3t.1`, `2B3-4`). Advisors and elephants are always named by their file.
//!
//! Reading is lenient where it cannot be misread: any case, spaces anywhere, full-width
//! letters, digits and signs, `+` for `.`, dashes `–`/`—`/`−` for `-`, `t`/`g` (giữa,
//! middle)/`s` for the front, middle and rear pawn of three, and a file with `t`/`s`.

use super::designator::{Action, Facts, Order, Pattern};
use super::fullwidth::fold;
use super::NotationError;
use crate::PieceKind;

const EXPECTED: &str = "a Vietnamese move such as P2-5, M8.7, X1/1 or Xt.1";

/// The letters of a piece kind (`Tg` for the king).
fn letters(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "Tg",
        PieceKind::Advisor => "S",
        PieceKind::Elephant => "T",
        PieceKind::Rook => "X",
        PieceKind::Cannon => "P",
        PieceKind::Horse => "M",
        PieceKind::Pawn => "B",
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// Writes the move; see [`super::designator`] for which pieces need telling apart.
pub(crate) fn format(facts: &Facts) -> String {
    let p = &facts.place;
    let front_rear = if p.index == 0 { 't' } else { 's' };
    let mut out = String::new();
    match p.kind {
        _ if p.count == 1 => out.extend([letters(p.kind), &digit(p.file).to_string()]),
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => {
            out.extend([letters(p.kind), &digit(p.file).to_string()]);
        }
        PieceKind::Pawn if p.count >= 3 => {
            out.push(digit(p.index + 1));
            out.push('B');
            if p.tandem_files >= 2 {
                out.push(digit(p.file));
            }
        }
        PieceKind::Pawn if p.tandem_files >= 2 => out.extend(['B', digit(p.file), front_rear]),
        _ => {
            out.push_str(letters(p.kind));
            out.push(front_rear);
        }
    }
    out.push(match facts.action {
        Action::Forward => '.',
        Action::Backward => '/',
        Action::Across => '-',
    });
    out.push(digit(facts.arg));
    out
}

/// The text with full-width forms folded to ASCII, other dashes to `-`, and no white space.
fn normalize(text: &str) -> String {
    fold(text).chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `text` can only be Vietnamese among the ASCII notations: a `/`, a letter that WXF
/// lacks (`T`, `S`, `X`, `M`), an order digit before a letter, or a second letter after `P` or
/// `B` (`Pt`, `B3s`: WXF writes one letter at most).
pub(crate) fn looks_like(text: &str) -> bool {
    let c: Vec<char> = normalize(text).to_ascii_lowercase().chars().collect();
    if !c.iter().all(char::is_ascii) || c.len() < 4 {
        return false;
    }
    let first = if c[0].is_ascii_digit() { 1 } else { 0 };
    c.contains(&'/')
        || (first == 1 && c[1].is_ascii_alphabetic())
        || matches!(c[first], 't' | 's' | 'x' | 'm')
        || (matches!(c[first], 'p' | 'b') && c[first + 1..].iter().any(char::is_ascii_alphabetic))
}

/// Whether `text` reads both as WXF and as Vietnamese (`P3.4`: a pawn moving sideways in WXF,
/// a cannon advancing in Vietnamese), so a lenient reader may try both.
pub(crate) fn might_be(text: &str) -> bool {
    let c: Vec<char> = normalize(text).to_ascii_lowercase().chars().collect();
    c.len() == 4
        && matches!(c[0], 'p' | 'b')
        && c[1].is_ascii_digit()
        && matches!(c[2], '.' | '-')
        && c[3].is_ascii_digit()
}

/// Reads the text into a pattern (not yet matched against the position).
pub(crate) fn read(text: &str) -> Result<Pattern, NotationError> {
    let syntax = || NotationError::Syntax { text: text.to_string(), expected: EXPECTED };
    let norm = normalize(text);
    let lower = norm.to_ascii_lowercase();
    let c: Vec<char> = lower.chars().collect();
    let num = |d: char| d.to_digit(10).filter(|&n| (1..=9).contains(&n)).map(|n| n as u8);
    let mut i = 0;
    // `2B.1`: the second pawn from the front.
    let nth = c.first().and_then(|&d| num(d)).filter(|&n| n <= 5);
    if nth.is_some() {
        i += 1;
    }
    let kind = match (c.get(i), c.get(i + 1)) {
        // `Tg` is the king; `T` alone the elephant (never followed by `g`, a pawn's place).
        (Some('t'), Some('g')) => {
            i += 1;
            PieceKind::King
        }
        (Some('s'), _) => PieceKind::Advisor,
        (Some('t'), _) => PieceKind::Elephant,
        (Some('x'), _) => PieceKind::Rook,
        (Some('p'), _) => PieceKind::Cannon,
        (Some('m'), _) => PieceKind::Horse,
        (Some('b'), _) => PieceKind::Pawn,
        (Some(&l), _) if l.is_alphabetic() => {
            // Report the letter as written, not lower-cased.
            return Err(NotationError::UnknownPiece(norm.chars().nth(i).unwrap_or(l)));
        }
        _ => return Err(syntax()),
    };
    i += 1;
    let file = c.get(i).and_then(|&d| num(d));
    if file.is_some() {
        i += 1;
    }
    let place = match c.get(i) {
        Some('t') => Some(Order::Front),
        Some('g') => Some(Order::Middle),
        Some('s') => Some(Order::Rear),
        _ => None,
    };
    if place.is_some() {
        i += 1;
    }
    let order = match (nth, place) {
        (Some(_), Some(_)) => return Err(syntax()),
        (Some(n), None) => Some(Order::Nth(n)),
        (None, p) => p,
    };
    if (nth.is_some() && kind != PieceKind::Pawn) || (file.is_none() && order.is_none()) {
        return Err(syntax());
    }
    let action = match c.get(i) {
        Some('.' | '+') => Action::Forward,
        Some('/') => Action::Backward,
        Some('-') => Action::Across,
        _ => return Err(syntax()),
    };
    let arg = c.get(i + 1).and_then(|&d| num(d)).ok_or_else(syntax)?;
    if c.len() != i + 2 {
        return Err(syntax());
    }
    Ok(Pattern { kind, file, order, action, arg })
}
