//! Splits PGN text into tokens, each with its line number.

/// One piece of PGN text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Token {
    /// `[Key "Value"]` (escapes `\"` and `\\` undone).
    Tag(String, String),
    /// A tag line that does not read as `[Key "Value"]`.
    BadTag(String),
    /// `{...}` or `; ...` up to the end of the line.
    Comment(String),
    /// `{` without its `}`.
    UnterminatedComment,
    /// A comment longer than [`MAX_COMMENT_BYTES`], with its length in bytes (its text is
    /// not kept: a hostile file costs no more memory than the bound).
    CommentTooLong(usize),
    Open,
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(String),
    /// A move (or anything else that is not one of the above), without move numbers and
    /// annotation marks (`!`, `?`, `$n` are dropped).
    Word(String),
}

use super::MAX_COMMENT_BYTES;

/// A comment's text as it is read: kept up to [`MAX_COMMENT_BYTES`], only counted past it.
/// The bound is on the text without the spaces round it (which the reader drops), so that
/// every comment the reader returns reads back.
#[derive(Default)]
struct Body {
    text: String,
    /// Bytes up to the last character that is not a space, from the first.
    len: usize,
    /// Bytes of the spaces after it.
    trailing: usize,
}

impl Body {
    fn push(&mut self, c: char) {
        if c.is_whitespace() {
            if self.len > 0 {
                self.trailing += c.len_utf8();
                if self.len + self.trailing <= MAX_COMMENT_BYTES {
                    self.text.push(c);
                }
            }
            return;
        }
        self.len += self.trailing + c.len_utf8();
        self.trailing = 0;
        if self.len <= MAX_COMMENT_BYTES {
            self.text.push(c);
        }
    }

    fn token(self) -> Token {
        if self.len > MAX_COMMENT_BYTES {
            Token::CommentTooLong(self.len)
        } else {
            Token::Comment(self.text.trim_end().to_string())
        }
    }
}

/// The tokens of `text` with their 1-based line numbers, all at once.
#[cfg(test)]
pub(crate) fn tokens(text: &str) -> Vec<(usize, Token)> {
    let mut lexer = Lexer::default();
    std::iter::from_fn(|| lexer.next(text)).collect()
}

/// Reads tokens one at a time, so that a reader holds only the tokens of the game it is on.
/// It keeps its place as a byte offset rather than borrowing the text, so that the text can
/// live beside it (the PGN reader owns the text it decoded from GBK).
pub(crate) struct Lexer {
    /// Byte offset of the next character to read.
    at: usize,
    /// 1-based line of that character.
    line: usize,
    /// Whether only spaces stand between the line's start and that character (a `[` there
    /// opens a tag).
    at_line_start: bool,
}

impl Default for Lexer {
    fn default() -> Lexer {
        Lexer { at: 0, line: 1, at_line_start: true }
    }
}

/// The characters still to read, with a look at the next one.
struct Cursor<'a>(core::str::Chars<'a>);

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.0.clone().next()
    }
}

impl Iterator for Cursor<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        self.0.next()
    }
}

impl Lexer {
    /// The next token of `text` (the same text on every call) with its 1-based line, or
    /// `None` at its end.
    pub(crate) fn next(&mut self, text: &str) -> Option<(usize, Token)> {
        let rest = text.get(self.at..).unwrap_or("");
        let mut chars = Cursor(rest.chars());
        let token = self.scan(&mut chars);
        self.at += rest.len() - chars.0.as_str().len();
        token
    }

    fn scan(&mut self, chars: &mut Cursor<'_>) -> Option<(usize, Token)> {
        while let Some(c) = chars.peek() {
            if c == '\n' {
                self.line += 1;
                self.at_line_start = true;
                chars.next();
                continue;
            }
            if c.is_whitespace() || c == '\u{feff}' {
                chars.next();
                continue;
            }
            let start_line = self.line;
            if c == '[' && self.at_line_start {
                let mut raw = String::new();
                while let Some(c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    raw.push(c);
                    chars.next();
                }
                return Some((start_line, tag(raw.trim())));
            }
            self.at_line_start = false;
            match c {
                '{' => {
                    chars.next();
                    let mut body = Body::default();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        if c == '\n' {
                            self.line += 1;
                        }
                        body.push(c);
                    }
                    return Some((start_line, if closed { body.token() } else { Token::UnterminatedComment }));
                }
                ';' => {
                    let mut body = Body::default();
                    chars.next();
                    while let Some(c) = chars.peek() {
                        if c == '\n' {
                            break;
                        }
                        body.push(c);
                        chars.next();
                    }
                    return Some((start_line, body.token()));
                }
                '(' => {
                    chars.next();
                    return Some((start_line, Token::Open));
                }
                ')' => {
                    chars.next();
                    return Some((start_line, Token::Close));
                }
                _ => {
                    let mut word = String::new();
                    while let Some(c) = chars.peek() {
                        if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']') {
                            break;
                        }
                        word.push(c);
                        chars.next();
                    }
                    if word.is_empty() {
                        // A stray `}`, `[` or `]`: skip it.
                        chars.next();
                        continue;
                    }
                    if let Some(t) = word_token(&word) {
                        return Some((start_line, t));
                    }
                }
            }
        }
        None
    }
}

fn tag(raw: &str) -> Token {
    let bad = || Token::BadTag(raw.to_string());
    let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else { return bad() };
    let inner = inner.trim();
    let Some(space) = inner.find(|c: char| c.is_whitespace() || c == '"') else { return bad() };
    let (key, rest) = inner.split_at(space);
    let rest = rest.trim();
    let Some(value) = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else { return bad() };
    if key.is_empty() {
        return bad();
    }
    let mut out = String::new();
    let mut escaped = false;
    for c in value.chars() {
        if escaped || c != '\\' {
            out.push(c);
            escaped = false;
        } else {
            escaped = true;
        }
    }
    Token::Tag(key.to_string(), out)
}

/// Whether `word` is a game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
pub(crate) fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// A word without its move number and annotation marks; `None` if nothing is left.
fn word_token(word: &str) -> Option<Token> {
    if is_result(word) {
        return Some(Token::Result(word.to_string()));
    }
    if word.starts_with('$') {
        return None;
    }
    // `12.`, `12...`, `12.h2e2`, `12。炮二平五`.
    let digits = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
    let rest = &word[digits..];
    let dots = rest.trim_start_matches(['.', '。', '…']);
    // `33.4` is a WXF pawn move, not move 33 followed by `4`: a move has four characters.
    let word = if digits > 0 && dots.len() < rest.len() && (dots.is_empty() || dots.chars().count() >= 4) {
        dots
    } else {
        word
    };
    let word = word.trim_end_matches(['!', '?']);
    if word.is_empty() {
        None
    } else {
        Some(Token::Word(word.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_lines() {
        let t = tokens("[Red \"Hu \\\"R\\\"\"]\n1. h2e2 {centre\ncannon} h9g7!? (1... c6c5) 2.C2.5 $1 33.4 *");
        assert_eq!(
            t,
            [
                (1, Token::Tag("Red".into(), "Hu \"R\"".into())),
                (2, Token::Word("h2e2".into())),
                (2, Token::Comment("centre\ncannon".into())),
                (3, Token::Word("h9g7".into())),
                (3, Token::Open),
                (3, Token::Word("c6c5".into())),
                (3, Token::Close),
                (3, Token::Word("C2.5".into())),
                (3, Token::Word("33.4".into())),
                (3, Token::Result("*".into())),
            ]
        );
    }
}
