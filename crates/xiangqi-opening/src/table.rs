//! The ECCO table: its text format, its checks, and the look-up by position reached.

use crate::key::Key;
use crate::Opening;
use core::fmt;
use std::collections::HashMap;
use std::sync::OnceLock;
use xiangqi::{Move, Position};

/// The built-in table's text (`data/ecco.tsv`).
pub const ECCO_TSV: &str = include_str!("../data/ecco.tsv");

/// One line of the table: a code, its names, and moves from the start that reach a position it
/// names.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The ECCO code.
    pub code: String,
    /// The Chinese name.
    pub name_zh: String,
    /// The English name, where one is in use.
    pub name_en: Option<String>,
    /// The defining moves from the standard start position.
    pub moves: Vec<Move>,
}

/// A table line that does not read, with its line number (from 1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ECCO table line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TableError {}

/// An ECCO table, ready to name openings.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Entry>,
    /// The end position of each line, to the entry that names it.
    by_key: HashMap<Key, usize>,
    /// The group name of each entry (the `X0` code's name, else its own).
    group: Vec<usize>,
    /// The fewest pieces any line's position has: a game with fewer has left the table.
    min_pieces: usize,
}

impl Table {
    /// Reads a table in the format of `data/ecco.tsv`: `#` lines and blank lines are skipped;
    /// every other line is `code \t name_zh \t name_en \t moves` with the moves in ICCS,
    /// space-separated, legal from the standard start. A code may have several lines, but
    /// then with the same names; two codes may not name one position (or its mirror).
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut entries: Vec<Entry> = Vec::new();
        let mut by_key = HashMap::new();
        let mut min_pieces = usize::MAX;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |message: String| TableError { line, message };
            if raw.trim().is_empty() || raw.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = raw.split('\t').collect();
            let [code, name_zh, name_en, moves] = fields[..] else {
                return Err(err(format!("{} fields, expected 4 (code, name_zh, name_en, moves)", fields.len())));
            };
            if !is_code(code) {
                return Err(err(format!("{code:?} is not an ECCO code (A00 to E99)")));
            }
            if name_zh.trim().is_empty() {
                return Err(err(format!("{code} has no Chinese name")));
            }
            let mut pos = Position::startpos();
            let mut line_moves = Vec::new();
            for (ply, text) in moves.split_whitespace().enumerate() {
                let m: Move = text.parse().map_err(|e| err(format!("{code}: move {} {text:?}: {e}", ply + 1)))?;
                pos.play(m).map_err(|e| err(format!("{code}: move {} {text:?}: {e}", ply + 1)))?;
                line_moves.push(m);
            }
            let entry = Entry {
                code: code.to_string(),
                name_zh: name_zh.to_string(),
                name_en: (!name_en.trim().is_empty()).then(|| name_en.to_string()),
                moves: line_moves,
            };
            if let Some(same) = entries.iter().find(|e| e.code == entry.code) {
                if same.name_zh != entry.name_zh || same.name_en != entry.name_en {
                    return Err(err(format!("{code} has other names on an earlier line")));
                }
            }
            let key = Key::of(&pos);
            for k in [key, key.mirrored()] {
                if let Some(&other) = by_key.get(&k) {
                    let other: &Entry = &entries[other];
                    return Err(err(format!("{code} names the position {} already names", other.code)));
                }
            }
            min_pieces = min_pieces.min(key.pieces());
            by_key.insert(key, entries.len());
            entries.push(entry);
        }
        let group = (0..entries.len())
            .map(|i| {
                let head = format!("{}0", &entries[i].code[..2]);
                entries.iter().position(|e| e.code == head).unwrap_or(i)
            })
            .collect();
        Ok(Table { entries, by_key, group, min_pieces })
    }

    /// The table in `data/ecco.tsv`, read once.
    pub fn builtin() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        // The file is part of the crate and `builtin_table_reads` checks it, so this cannot fail
        // at run time.
        TABLE.get_or_init(|| Table::parse(ECCO_TSV).expect("data/ecco.tsv reads (see the builtin_table_reads test)"))
    }

    /// The lines, in the file's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many codes the table holds (a code with several lines counts once).
    pub fn codes(&self) -> usize {
        let mut codes: Vec<&str> = self.entries.iter().map(|e| e.code.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        codes.len()
    }

    /// The opening of a game: the deepest table position that the game reaches, in any order
    /// of moves and on either wing (its mirror image counts), names it. `start` is included;
    /// a game from a set-up position that reaches no table position has none. The moves are
    /// played until the first illegal one, if any, or until too few pieces are left for any
    /// table position.
    pub fn classify(&self, start: &Position, moves: &[Move]) -> Option<Opening<'_>> {
        let mut pos = start.clone();
        let mut best = self.lookup(&pos);
        for &m in moves {
            if pos.play(m).is_err() {
                break;
            }
            let key = Key::of(&pos);
            if key.pieces() < self.min_pieces {
                break;
            }
            if let Some(found) = self.lookup_key(key) {
                // Deeper lines win; at equal depth, the later position in the game.
                if best.map_or(true, |b| self.entries[found].moves.len() >= self.entries[b].moves.len()) {
                    best = Some(found);
                }
            }
        }
        best.map(|i| self.opening(i))
    }

    /// The opening a position is the table position of (or the mirror of), if any. Unlike
    /// [`Table::classify`], nothing before it is known, so only an exact table position names it.
    pub fn classify_position(&self, pos: &Position) -> Option<Opening<'_>> {
        self.lookup(pos).map(|i| self.opening(i))
    }

    fn lookup(&self, pos: &Position) -> Option<usize> {
        self.lookup_key(Key::of(pos))
    }

    fn lookup_key(&self, key: Key) -> Option<usize> {
        self.by_key.get(&key).or_else(|| self.by_key.get(&key.mirrored())).copied()
    }

    fn opening(&self, i: usize) -> Opening<'_> {
        let e = &self.entries[i];
        Opening {
            code: &e.code,
            name_zh: &e.name_zh,
            name_en: e.name_en.as_deref(),
            group_zh: &self.entries[self.group[i]].name_zh,
            depth: e.moves.len(),
        }
    }
}

/// `A00` to `E99`.
fn is_code(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_reads() {
        let t = Table::parse(ECCO_TSV).unwrap();
        assert!(t.codes() >= 50, "{} codes", t.codes());
    }

    #[test]
    fn bad_lines_are_errors_with_their_line() {
        let e = Table::parse("# c\nA0\tx\t\t\n").unwrap_err();
        assert_eq!(e.to_string(), "ECCO table line 2: \"A0\" is not an ECCO code (A00 to E99)");
        let e = Table::parse("A40\t起马局\t\th0g2 h0g2\n").unwrap_err();
        assert!(e.to_string().starts_with("ECCO table line 1: A40: move 2 \"h0g2\""), "{e}");
        let e = Table::parse("A40\t起马局\t\th0g2\nA41\tx\t\tb0c2\n").unwrap_err();
        assert_eq!(e.to_string(), "ECCO table line 2: A41 names the position A40 already names");
        let e = Table::parse("A40\t起马局\n").unwrap_err();
        assert_eq!(e.to_string(), "ECCO table line 1: 2 fields, expected 4 (code, name_zh, name_en, moves)");
    }
}
