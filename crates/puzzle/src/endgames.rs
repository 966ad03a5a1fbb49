//! The endgame file: one endgame a line, tab-separated, after `#` comment lines:
//!
//! ```text
//! id  grade (1-5)  fen  goal (win or draw)  name_zh  name_en  source
//! ```
//!
//! Reading checks every field (a legal position whose side to move has a move, a grade from 1
//! to 5, ids unique), with bounds on the size of the file and of each line, so a damaged file is
//! refused with its line number. [`SHIPPED`] is the track the site ships.

use crate::endgame::{Endgame, Goal};
use crate::file::FileError;
use std::collections::HashSet;
use xiangqi::Position;

/// The shipped track (data/endgames.tsv).
pub const SHIPPED: &str = include_str!("../data/endgames.tsv");

/// The most endgames a file may hold.
pub const MAX_ENDGAMES: usize = 10_000;
/// The longest line read, in bytes.
pub const MAX_LINE_BYTES: usize = 1_024;
/// The longest id, in bytes.
pub const MAX_ID_BYTES: usize = 48;
/// The hardest grade.
pub const MAX_GRADE: u8 = 5;

/// Reads an endgame file.
pub fn read(text: &str) -> Result<Vec<Endgame>, FileError> {
    let mut endgames = Vec::new();
    let mut ids = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let err = |message: String| FileError { line: number, message };
        if line.len() > MAX_LINE_BYTES {
            return Err(err(format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if endgames.len() == MAX_ENDGAMES {
            return Err(err(format!("more than {MAX_ENDGAMES} endgames")));
        }
        let endgame = read_line(line).map_err(err)?;
        if !ids.insert(endgame.id.clone()) {
            return Err(err(format!("id {} appears twice", endgame.id)));
        }
        endgames.push(endgame);
    }
    Ok(endgames)
}

/// The shipped track, read.
pub fn shipped() -> Vec<Endgame> {
    read(SHIPPED).expect("the shipped endgames read (tests/endgames.rs checks them)")
}

fn read_line(line: &str) -> Result<Endgame, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, grade, fen, goal, name_zh, name_en, source] = fields[..] else {
        return Err(format!("{} fields, expected 7", fields.len()));
    };
    let id_ok = !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !id_ok {
        return Err(format!("bad id {id:?}: lowercase letters, digits and dashes, at most {MAX_ID_BYTES}"));
    }
    let grade: u8 = grade.parse().map_err(|_| format!("bad grade {grade:?}"))?;
    if !(1..=MAX_GRADE).contains(&grade) {
        return Err(format!("grade {grade} out of 1-{MAX_GRADE}"));
    }
    let position: Position = fen.parse().map_err(|e| format!("FEN: {e}"))?;
    if position.legal_moves().is_empty() {
        return Err("the side to move has no move: the game is already over".to_string());
    }
    let goal = Goal::from_name(goal).ok_or_else(|| format!("bad goal {goal:?}: win or draw"))?;
    for (name, value) in [("name_zh", name_zh), ("name_en", name_en), ("source", source)] {
        if value.trim().is_empty() {
            return Err(format!("empty {name}"));
        }
    }
    Ok(Endgame {
        id: id.to_string(),
        grade,
        position,
        goal,
        name_zh: name_zh.to_string(),
        name_en: name_en.to_string(),
        source: source.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "rook-lone-king\t1\t9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1\twin\t单车杀将\trook mates a lone king\tsomewhere";

    #[test]
    fn reads_a_line() {
        let endgames = read(&format!("# header\n{GOOD}\n")).unwrap();
        assert_eq!(endgames.len(), 1);
        assert_eq!(endgames[0].id, "rook-lone-king");
        assert_eq!(endgames[0].goal, Goal::Win);
        assert_eq!(endgames[0].grade, 1);
    }

    #[test]
    fn refuses_damage_with_the_line() {
        // Black to move and mated: the rook on e1 checks, the one on f1 holds f9, the king on
        // d0 holds d9 (the kings may not face each other).
        let mated = "4k4/9/9/9/9/9/9/9/4RR3/3K5 b - - 0 1";
        let cases = [
            (GOOD.replace("\t1\t", "\t6\t"), "grade 6"),
            (GOOD.replace("\t1\t", "\tx\t"), "bad grade"),
            (GOOD.replace("\twin\t", "\tmate\t"), "bad goal"),
            (GOOD.replace("rook-lone-king", "Rook King"), "bad id"),
            (GOOD.replace("9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1", mated), "already over"),
            (GOOD.replace("3K5", "4K4"), "FEN"),
            (GOOD.replace("\tsomewhere", "\t "), "empty source"),
            (GOOD.replace("\tsomewhere", ""), "6 fields"),
            ("x".repeat(2000), "longer than"),
        ];
        for (text, expected) in cases {
            let e = read(&format!("# h\n{text}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{text}");
            assert!(e.to_string().contains(expected), "{e} (wanted {expected})");
        }
        let twice = read(&format!("{GOOD}\n{GOOD}\n")).unwrap_err();
        assert_eq!((twice.line, twice.to_string().contains("twice")), (2, true));
    }
}
