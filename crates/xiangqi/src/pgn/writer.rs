//! The PGN writer.

use super::lexer::is_result;
use super::{Line, PgnGame};
use crate::notation::{format, Notation};
use crate::{Color, Move, Position};

/// Lines of movetext are wrapped before this many characters.
const WIDTH: usize = 80;

impl PgnGame {
    /// Writes the game as PGN with moves in `notation`: `[Game "Chinese Chess"]` first, the
    /// other tags in their order, `[Format]` set to the notation, `[FEN]` when the game does not
    /// start from the standard position. ICCS moves are written `H2-E2`, as XQ PGN files do.
    pub fn write(&self, notation: Notation) -> String {
        let mut out = String::from("[Game \"Chinese Chess\"]\n");
        let mut tags: Vec<(String, String)> =
            self.tags.iter().filter(|(k, _)| k != "Game" && k != "Format").cloned().collect();
        if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN")) && self.start != Position::startpos() {
            tags.push(("FEN".into(), self.start.fen()));
        }
        if let (Some(r), false) = (&self.result, tags.iter().any(|(k, _)| k == "Result")) {
            tags.push(("Result".into(), r.clone()));
        }
        // Other programs know ICCS, WXF and Chinese; traditional glyphs are Chinese notation.
        let format = if notation == Notation::Traditional { Notation::Chinese } else { notation };
        tags.push(("Format".into(), format.name().into()));
        for (k, v) in &tags {
            out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        out.push('\n');
        let mut words = Vec::new();
        write_line(&self.start, &self.line, notation, &mut words);
        // Only a termination marker ends the movetext: other text would read back as a move.
        let marker = self.result.as_deref().filter(|r| is_result(r)).unwrap_or("*");
        words.push(marker.to_string());
        let mut width = 0;
        for w in glue_parentheses(words) {
            let len = w.chars().count();
            if width > 0 && width + 1 + len > WIDTH {
                out.push('\n');
                width = 0;
            } else if width > 0 {
                out.push(' ');
                width += 1;
            }
            out.push_str(&w);
            width += len;
        }
        out.push('\n');
        out
    }
}

fn move_text(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => {
            let s = m.to_string().to_ascii_uppercase();
            format!("{}-{}", &s[..2], &s[2..])
        }
        _ => format(pos, m, notation),
    }
}

/// Appends the words of `line` played from `start`: numbers, moves, comments, variations.
fn write_line(start: &Position, line: &Line, notation: Notation, words: &mut Vec<String>) {
    let mut pos = start.clone();
    if let Some(c) = &line.comment {
        words.push(comment(c));
    }
    let mut need_number = true;
    for m in &line.moves {
        // A move number and its move are one word, so that wrapping never parts them.
        let text = move_text(&pos, m.mv, notation);
        words.push(if pos.turn() == Color::Red {
            format!("{}. {text}", pos.fullmoves())
        } else if need_number {
            format!("{}... {text}", pos.fullmoves())
        } else {
            text
        });
        need_number = false;
        if let Some(c) = &m.comment {
            words.push(comment(c));
            need_number = true;
        }
        for v in &m.variations {
            words.push("(".into());
            write_line(&pos, v, notation, words);
            words.push(")".into());
            need_number = true;
        }
        pos.play_unchecked(m.mv);
    }
}

fn comment(c: &str) -> String {
    format!("{{{}}}", c.replace('}', ")"))
}

/// Glues the parentheses to their neighbours: `(2. h0g2)`. One pass: removing words in place
/// took time quadratic in the number of variations.
fn glue_parentheses(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut after_open = false;
    for w in words {
        match out.last_mut() {
            Some(last) if after_open || w == ")" => {
                last.push_str(&w);
                after_open = false;
            }
            _ => {
                after_open = w == "(";
                out.push(w);
            }
        }
    }
    out
}
