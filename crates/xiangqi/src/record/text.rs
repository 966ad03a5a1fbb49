//! Moves as plain text, as players paste them from forums and chat:
//! `1. 炮二平五 马８进７ 2. 马二进三 车９平８`, `1. C2.5 H8+7`, `h2e2 h9g7`.
//!
//! Moves may be in any of the three notations (told apart move by move, see
//! [`crate::notation::parse`]), with full-width or half-width digits, simplified or
//! traditional characters, with or without move numbers (`1.`, `1、`, `1...`, `１．`) and with
//! Chinese moves run together (`炮二平五马８进７`). A FEN on a line of its own (or after
//! `FEN:`) sets the start position. Header lines such as `红方：胡荣华` become tags, `{...}` and
//! `（...）` become comments on the move before, a result (`1-0`, `红胜`, `和棋`...) ends the game.

use super::tree::check_comment;
use super::{parse_result, Format, Location, RecordError, RecordErrorKind, MAX_COMMENT_BYTES};
use crate::notation::{format, parse, Notation};
use crate::pgn::{PgnGame, PgnMove};
use crate::{check_game_length, Color, Position};

/// Header words (before a `：` or `:`) and the tags they become.
const HEADERS: [(&str, &str); 16] = [
    ("红方", "Red"),
    ("紅方", "Red"),
    ("黑方", "Black"),
    ("标题", "Title"),
    ("標題", "Title"),
    ("赛事", "Event"),
    ("賽事", "Event"),
    ("比赛", "Event"),
    ("日期", "Date"),
    ("时间", "Date"),
    ("地点", "Site"),
    ("地點", "Site"),
    ("结果", "Result"),
    ("結果", "Result"),
    ("开局", "Opening"),
    ("開局", "Opening"),
];

/// Whether a line is a FEN (9 slashes in its first word).
fn fen_of(line: &str) -> Option<&str> {
    let line = line.trim();
    let line = line
        .strip_prefix("FEN:")
        .or_else(|| line.strip_prefix("FEN："))
        .or_else(|| line.strip_prefix("fen:"))
        .unwrap_or(line)
        .trim();
    let first = line.split_whitespace().next()?;
    (first.matches('/').count() == 9 && first.chars().all(|c| c == '/' || c.is_ascii_alphanumeric())).then_some(line)
}

/// Whether a word is only a move number: digits (half- or full-width) and dots, `、` or `...`.
fn is_number(word: &str) -> bool {
    let digits = word.trim_end_matches(['.', '．', '、', '。', '…']);
    !digits.is_empty() && digits.len() < word.len() && digits.chars().all(is_digit)
        || word.chars().all(is_digit) && word.chars().count() <= 3 && !word.is_empty()
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || ('０'..='９').contains(&c)
}

/// Strips a move number glued to a move (`1.C2.5`, `1．炮二平五`); leaves `33.4`-like WXF
/// moves alone (a digit follows the dot).
fn strip_number(word: &str) -> &str {
    let digits_end = word.find(|c: char| !is_digit(c)).unwrap_or(word.len());
    if digits_end == 0 {
        return word;
    }
    let rest = &word[digits_end..];
    let after = rest.trim_start_matches(['.', '．', '、', '。', '…']);
    if after.len() == rest.len() || after.is_empty() || after.starts_with(|c: char| c.is_ascii_digit()) {
        return word;
    }
    after
}

/// Splits Chinese moves run together into moves of four characters.
fn split_chinese(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    if word.is_ascii() || chars.len() <= 4 || chars.len() % 4 != 0 {
        return vec![word.to_string()];
    }
    chars.chunks(4).map(|c| c.iter().collect()).collect()
}

/// Whether a text reads as a game in plain text: some word in it is a move from the start
/// position or from a FEN line (the detector asks, after ruling out the other formats).
pub fn looks_like(text: &str) -> bool {
    read(text).is_ok()
}

/// Reads a game written as plain text.
///
/// ```
/// let game = xiangqi::record::text::read("１．炮二平五　马８进７\n２．馬二進三 車９平８\n红胜").unwrap();
/// let moves: Vec<String> = game.main_line().iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
/// assert_eq!(game.result.as_deref(), Some("1-0"));
/// let err = xiangqi::record::text::read("1. h2e2 h9g7\n2. 炮二平九").unwrap_err();
/// assert_eq!(err.location, xiangqi::record::Location::Line(2));
/// ```
///
/// # Errors
///
/// A [`RecordError`] with the line and the move number: a bad FEN, a move that does not read,
/// no move at all, a game or a comment over the bounds.
pub fn read(text: &str) -> Result<PgnGame, RecordError> {
    let err = |line: usize, kind| RecordError { format: Format::Text, game: 1, location: Location::Line(line), kind };
    let mut game = PgnGame::new(Position::startpos(), &[]);
    let mut pos = game.start.clone();
    let mut comment: Option<(String, usize, char)> = None;
    for (n, raw_line) in text.lines().enumerate() {
        let line_no = n + 1;
        if comment.is_none() {
            if game.line.moves.is_empty() {
                if let Some(fen) = fen_of(raw_line) {
                    game.start = Position::from_fen(fen).map_err(|e| err(line_no, RecordErrorKind::BadFen(e)))?;
                    pos = game.start.clone();
                    continue;
                }
            }
            if let Some((key, value)) = raw_line.split_once(['：', ':']) {
                if let Some((_, tag)) = HEADERS.iter().find(|(k, _)| *k == key.trim()) {
                    let value = value.trim();
                    if *tag == "Result" {
                        if let Some(r) = parse_result(value) {
                            game.result = Some(r.to_string());
                        }
                    } else if !value.is_empty() {
                        game.set_tag(tag, value);
                    }
                    continue;
                }
            }
        }
        for word in raw_line.split(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | ';' | '；')) {
            let mut word = word;
            // Comments: `{...}` and `（...）`, across words and lines.
            if comment.is_none() {
                if let Some(open) = word.chars().next().filter(|c| matches!(c, '{' | '（' | '(')) {
                    let close = match open {
                        '{' => '}',
                        '（' => '）',
                        _ => ')',
                    };
                    comment = Some((String::new(), line_no, close));
                    word = &word[open.len_utf8()..];
                }
            }
            if let Some((buf, at, close)) = &mut comment {
                let (body, done) = match word.find(*close) {
                    Some(i) => (&word[..i], true),
                    None => (word, false),
                };
                if !buf.is_empty() && !body.is_empty() {
                    buf.push(' ');
                }
                buf.push_str(body);
                if buf.len() > MAX_COMMENT_BYTES {
                    return Err(err(*at, RecordErrorKind::CommentTooLong(buf.len())));
                }
                if done {
                    let (buf, at, _) = comment.take().expect("a comment is open");
                    let text = check_comment(buf, at).map_err(|(l, k)| err(l, k))?;
                    let slot = match game.line.moves.last_mut() {
                        Some(m) => &mut m.comment,
                        None => &mut game.line.comment,
                    };
                    if let Some(t) = text {
                        match slot {
                            Some(s) => {
                                s.push(' ');
                                s.push_str(&t);
                            }
                            None => *slot = Some(t),
                        }
                    }
                }
                continue;
            }
            let word = word.trim_matches(|c: char| matches!(c, '.' | '。' | '!' | '?' | '！' | '？'));
            if word.is_empty() || is_number(word) {
                continue;
            }
            if let Some(r) = parse_result(word) {
                game.result = Some(r.to_string());
                continue;
            }
            let word = strip_number(word);
            for mv_text in split_chinese(word) {
                let ply = game.line.moves.len() + 1;
                let number = pos.fullmoves();
                let mv = parse(&pos, &mv_text).map_err(|e| {
                    err(line_no, RecordErrorKind::BadMove { ply, number, text: mv_text.clone(), error: Some(e) })
                })?;
                check_game_length(ply).map_err(|e| err(line_no, RecordErrorKind::TooLong(e)))?;
                pos.play_unchecked(mv);
                game.line.moves.push(PgnMove { mv, comment: None, variations: Vec::new() });
            }
        }
    }
    if game.line.moves.is_empty() && game.start == Position::startpos() {
        return Err(err(1, RecordErrorKind::Empty));
    }
    if let Some(r) = &game.result {
        let r = r.clone();
        game.set_tag("Result", &r);
    }
    Ok(game)
}

/// Writes a game's main line as plain text in `notation`, one move number per line: header
/// lines first (`标题：`, `赛事：`, `日期：`, `地点：`, `红方：`, `黑方：`, `开局：` for the tags
/// Title, Event, Date, Site, Red, Black, Opening), a FEN line when the game does not start from
/// the standard position, the result last (in Chinese for Chinese notation, in its script). Variations,
/// comments and other tags are not written.
///
/// ```
/// use xiangqi::notation::Notation;
/// let game = xiangqi::record::text::read("1. h2e2 h9g7 1-0").unwrap();
/// assert_eq!(xiangqi::record::text::write(&game, Notation::Chinese), "1. 炮二平五 马8进7\n红胜\n");
/// ```
pub fn write(game: &PgnGame, notation: Notation) -> String {
    let mut out = String::new();
    // Header lines the reader takes back (the first name of each tag in `HEADERS`).
    for tag in ["Title", "Event", "Date", "Site", "Red", "Black", "Opening"] {
        if let (Some(value), Some((name, _))) = (game.tag(tag), HEADERS.iter().find(|(_, t)| *t == tag)) {
            let value = value.lines().next().unwrap_or_default().trim();
            if !value.is_empty() {
                out.push_str(&format!("{name}：{value}\n"));
            }
        }
    }
    if game.start != Position::startpos() {
        out.push_str(&format!("FEN: {}\n", game.start.fen()));
    }
    let mut pos = game.start.clone();
    for (i, m) in game.line.moves.iter().enumerate() {
        if pos.turn() == Color::Red || i == 0 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("{}.", pos.fullmoves()));
            if pos.turn() == Color::Black {
                out.push_str("..");
            }
        }
        out.push(' ');
        out.push_str(&format(&pos, m.mv, notation));
        pos.play_unchecked(m.mv);
    }
    if !game.line.moves.is_empty() {
        out.push('\n');
    }
    let result = game.result.as_deref().unwrap_or("*");
    let result = match (notation, result) {
        (Notation::Chinese, "1-0") => "红胜",
        (Notation::Chinese, "0-1") => "黑胜",
        (Notation::Chinese | Notation::Traditional, "1/2-1/2") => "和棋",
        (Notation::Traditional, "1-0") => "紅勝",
        (Notation::Traditional, "0-1") => "黑勝",
        (_, r) => r,
    };
    if result != "*" {
        out.push_str(result);
        out.push('\n');
    }
    out
}
