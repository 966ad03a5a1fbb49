//! The puzzle file: one puzzle a line, tab-separated, after `#` comment lines that say where
//! the set came from:
//!
//! ```text
//! id  fen  moves (ICCS, space-separated)  kind  mate_in (or -)  rating  themes (comma-separated, or -)  source
//! ```
//!
//! Reading checks every field and replays every solution, with bounds on the size of the file
//! and of each line, so a damaged or hostile file is refused with its line number.

use crate::{Kind, Puzzle, Theme};
use std::fmt;
use xiangqi::{Move, Position};

/// The most puzzles a file may hold.
pub const MAX_PUZZLES: usize = 100_000;
/// The longest line read, in bytes.
pub const MAX_LINE_BYTES: usize = 1_024;
/// The longest solution, in plies (a mate in 7 is 13).
pub const MAX_SOLUTION_PLIES: usize = 15;

/// What is wrong with a puzzle file, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for FileError {}

/// Writes `puzzles` after the comment lines `header` (each written with a leading `# `).
pub fn write(puzzles: &[Puzzle], header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("# id\tfen\tmoves\tkind\tmate_in\trating\tthemes\tsource\n");
    for p in puzzles {
        let moves: Vec<String> = p.moves.iter().map(Move::to_string).collect();
        let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            p.id,
            p.position.fen(),
            moves.join(" "),
            p.kind.name(),
            p.mate_in.map_or("-".to_string(), |n| n.to_string()),
            p.rating,
            if themes.is_empty() { "-".to_string() } else { themes.join(",") },
            p.source.replace(['\t', '\n'], " "),
        ));
    }
    out
}

/// Reads a puzzle file.
pub fn read(text: &str) -> Result<Vec<Puzzle>, FileError> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let err = |message: String| FileError { line: number, message };
        if line.len() > MAX_LINE_BYTES {
            return Err(err(format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if puzzles.len() == MAX_PUZZLES {
            return Err(FileError { line: number, message: format!("more than {MAX_PUZZLES} puzzles") });
        }
        puzzles.push(read_line(line).map_err(err)?);
    }
    Ok(puzzles)
}

fn read_line(line: &str) -> Result<Puzzle, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, fen, moves, kind, mate_in, rating, themes, source] = fields[..] else {
        return Err(format!("{} fields, expected 8", fields.len()));
    };
    if id.is_empty() || id.len() > 16 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!("bad id {id:?}"));
    }
    let position: Position = fen.parse().map_err(|e| format!("FEN: {e}"))?;
    let moves: Vec<Move> =
        moves.split_whitespace().map(|m| m.parse().map_err(|_| format!("bad move {m:?}"))).collect::<Result<_, _>>()?;
    if moves.is_empty() || moves.len() > MAX_SOLUTION_PLIES || moves.len() % 2 == 0 {
        return Err(format!("{} moves: a solution has an odd number, 1 to {MAX_SOLUTION_PLIES}", moves.len()));
    }
    let mut replay = position.clone();
    for &m in &moves {
        replay.play(m).map_err(|_| format!("move {m} is not legal in the solution"))?;
    }
    let kind = Kind::from_name(kind).ok_or_else(|| format!("bad kind {kind:?}"))?;
    let mate_in = match (kind, mate_in) {
        (Kind::Win, "-") => None,
        (Kind::Mate, n) => {
            let n: u32 = n.parse().map_err(|_| format!("bad mate_in {n:?}"))?;
            if n as usize != moves.len().div_ceil(2) {
                return Err(format!("mate_in {n} but the solution has {} solver moves", moves.len().div_ceil(2)));
            }
            if !replay.legal_moves().is_empty() {
                return Err("the solution does not end in mate".to_string());
            }
            Some(n)
        }
        (Kind::Win, n) => return Err(format!("a win has no mate_in ({n:?})")),
    };
    let rating: u32 = rating.parse().map_err(|_| format!("bad rating {rating:?}"))?;
    if !(100..=4000).contains(&rating) {
        return Err(format!("rating {rating} out of 100-4000"));
    }
    let themes: Vec<Theme> = if themes == "-" {
        Vec::new()
    } else {
        themes
            .split(',')
            .map(|t| Theme::from_name(t).ok_or_else(|| format!("unknown theme {t:?}")))
            .collect::<Result<_, _>>()?
    };
    Ok(Puzzle { id: id.to_string(), position, moves, kind, mate_in, rating, themes, source: source.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Puzzle {
        // Red's rook checks on the e-file: the rook on f5 guards f9 and f8, Red's king on d0
        // keeps Black's off the d-file (the kings may not face each other).
        let position: Position = "4k4/9/9/9/5R3/R8/8p/9/9/3K5 w - - 0 1".parse().unwrap();
        let moves = vec!["a4e4".parse().unwrap()];
        Puzzle {
            id: Puzzle::id_of(&position, moves[0]),
            position,
            moves,
            kind: Kind::Mate,
            mate_in: Some(1),
            rating: 1000,
            themes: vec![Theme::Mate],
            source: "test".to_string(),
        }
    }

    #[test]
    fn round_trips() {
        let p = sample();
        let text = write(std::slice::from_ref(&p), &["made by a test".to_string()]);
        assert!(text.starts_with("# made by a test\n"));
        assert_eq!(read(&text).unwrap(), vec![p]);
    }

    #[test]
    fn refuses_damage_with_the_line() {
        let good = write(&[sample()], &[]);
        let line = good.lines().nth(1).unwrap();
        let cases = [
            (line.replace("\tmate\t", "\tdraw\t"), "bad kind"),
            (line.replace("a4e4", "a4d4"), "does not end in mate"),
            (line.replace("a4e4", "a4b5"), "not legal"),
            (line.replace("\t1\t", "\t2\t"), "mate_in 2"),
            (line.replace("\tmate\t", "\twin\t"), "no mate_in"),
            (line.replace("\t1000\t", "\tx\t"), "bad rating"),
            (line.replace("\tmate\ttest", "\tfork\ttest"), "unknown theme"),
            (line.split('\t').take(7).collect::<Vec<_>>().join("\t"), "7 fields"),
            ("x".repeat(2000), "longer than"),
        ];
        for (text, expected) in cases {
            let e = read(&format!("# h\n{text}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{text}");
            assert!(e.to_string().contains(expected), "{e} (wanted {expected})");
        }
    }
}
