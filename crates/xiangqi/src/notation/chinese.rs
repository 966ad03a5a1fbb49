//! Chinese notation: `炮二平五`, `马8进7`, `前车退二`, `中兵平四`, `前三进一`.
//!
//! Written in simplified characters with each side's own glyphs (Red 帅仕相马车炮兵, Black
//! 将士象马车炮卒); Red's numbers in Chinese numerals, Black's in Arabic digits. Four or five
//! pawns on a file are written 前, 二, 三, 四, (五). In traditional characters ([`Script`]) as
//! Taiwan and Hong Kong print it: Red 帥仕相傌俥炮兵, Black 將士象馬車炮卒, 進 and 後, and
//! Black's numbers in full-width digits (`炮二平五`, `馬８進７`). Reading also accepts traditional glyphs
//! (車馬帥將砲俥傌進後), either side's glyphs and digits, full-width digits, and 一二三四五 for
//! the pawns' places.

use super::designator::{Action, Facts, Order, Pattern};
use super::NotationError;
use crate::{Color, PieceKind};

const EXPECTED: &str = "a Chinese move such as 炮二平五, 马8进7 or 前车退一";
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Which characters a Chinese move is written in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Script {
    /// 简体: 马8进7, 后车.
    Simplified,
    /// 繁體: 馬８進７, 後車, with Red's own 帥傌俥.
    Traditional,
}

fn glyph(color: Color, kind: PieceKind, script: Script) -> char {
    if script == Script::Traditional {
        return traditional_glyph(color, kind);
    }
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Black, PieceKind::King) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Rook) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

fn traditional_glyph(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帥',
        (Color::Black, PieceKind::King) => '將',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Black, PieceKind::Rook) => '車',
        // 仕士相象炮兵卒 are the same in both scripts.
        _ => glyph(color, kind, Script::Simplified),
    }
}

fn piece_of(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' | '㐷' => PieceKind::Horse,
        '车' | '車' | '俥' | '伡' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// A number 1..=9 in any of the accepted forms.
fn number_of(c: char) -> Option<u8> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

fn numeral(color: Color, n: u8, script: Script) -> char {
    match (color, script) {
        (Color::Red, _) => NUMERALS[(n - 1) as usize],
        (Color::Black, Script::Simplified) => char::from(b'0' + n),
        // Full-width, as printed beside the Chinese numerals.
        (Color::Black, Script::Traditional) => char::from_u32('０' as u32 + u32::from(n)).unwrap_or('０'),
    }
}

fn order_of(c: char) -> Option<Order> {
    match c {
        '前' => Some(Order::Front),
        '中' => Some(Order::Middle),
        '后' | '後' => Some(Order::Rear),
        _ => None,
    }
}

/// Writes the move of `color`; see [`super::designator`] for the rules.
pub(crate) fn format(facts: &Facts, color: Color, script: Script) -> String {
    let p = &facts.place;
    let g = glyph(color, p.kind, script);
    let rear = if script == Script::Traditional { '後' } else { '后' };
    let numeral = |color, n| numeral(color, n, script);
    let front_rear = |i: u8| if i == 0 { '前' } else { rear };
    let three = |i: u8| ['前', '中', rear][i as usize];
    let (a, b) = match p.kind {
        _ if p.count == 1 => (g, numeral(color, p.file)),
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => (g, numeral(color, p.file)),
        PieceKind::Pawn if p.tandem_files >= 2 => {
            (if p.count == 3 { three(p.index) } else { front_rear(p.index) }, numeral(color, p.file))
        }
        PieceKind::Pawn if p.count == 3 => (three(p.index), g),
        PieceKind::Pawn if p.count >= 4 && p.index > 0 => (NUMERALS[p.index as usize], g),
        _ => (front_rear(p.index), g),
    };
    let action = match facts.action {
        Action::Forward if script == Script::Traditional => '進',
        Action::Forward => '进',
        Action::Backward => '退',
        Action::Across => '平',
    };
    [a, b, action, numeral(color, facts.arg)].iter().collect()
}

/// Reads the text into a pattern (not yet matched against the position).
pub(crate) fn read(text: &str) -> Result<Pattern, NotationError> {
    let syntax = || NotationError::Syntax { text: text.to_string(), expected: EXPECTED };
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if c.len() != 4 {
        return Err(syntax());
    }
    let (kind, file, order) = if let Some(kind) = piece_of(c[0]) {
        (kind, Some(number_of(c[1]).ok_or_else(syntax)?), None)
    } else {
        let order = match (order_of(c[0]), number_of(c[0])) {
            (Some(o), _) => o,
            (None, Some(n)) if n <= 5 => Order::Nth(n),
            (None, Some(_)) => return Err(syntax()),
            (None, None) if is_cjk(c[0]) => return Err(NotationError::UnknownPiece(c[0])),
            (None, None) => return Err(syntax()),
        };
        match (piece_of(c[1]), number_of(c[1])) {
            (Some(kind), _) => (kind, None, Some(order)),
            // 前三进一: the front pawn of those on file 3 (tandem pawns on two files).
            (None, Some(f)) if !matches!(order, Order::Nth(_)) => (PieceKind::Pawn, Some(f), Some(order)),
            (None, _) if is_cjk(c[1]) => return Err(NotationError::UnknownPiece(c[1])),
            _ => return Err(syntax()),
        }
    };
    let action = match c[2] {
        '进' | '進' => Action::Forward,
        '退' => Action::Backward,
        '平' => Action::Across,
        _ => return Err(syntax()),
    };
    let arg = number_of(c[3]).ok_or_else(syntax)?;
    Ok(Pattern { kind, file, order, action, arg })
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3400}'..='\u{4dbf}').contains(&c)
}
