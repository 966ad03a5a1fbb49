//! Differential test of WXF notation against pyffish on every move of the test games. The
//! file comes from tests/differential/notation.py (scripts/test.d/notation.sh), path in
//! `NOTATION_CASES`. pyffish writes `=` where we write `.`, and names tandem pawns its own way
//! (`27=8`, the second pawn on file 7): those moves are left out. pyffish names one of two
//! pieces on a file by the file when the move is unambiguous (`H7+8`); the WXF rules (and we)
//! always write front and rear (`H-+8`), and we read both.

use xiangqi::notation::{format, parse, Notation};
use xiangqi::{Move, Position};

#[test]
#[ignore = "needs the file from tests/differential/notation.py (scripts/test.d/notation.sh)"]
fn wxf_agrees_with_pyffish() {
    let path = std::env::var("NOTATION_CASES").expect("set NOTATION_CASES to the TSV from notation.py");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut compared, mut skipped, mut by_file, mut wrong) = (0, 0, 0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let mut pos: Position = cols[1].parse().unwrap();
        let theirs: Vec<&str> = cols[3].split_whitespace().collect();
        for (i, m) in cols[2].split_whitespace().enumerate() {
            let m: Move = m.parse().unwrap();
            let them = theirs[i].replace('=', ".");
            if them.as_bytes()[0].is_ascii_digit() {
                skipped += 1;
            } else {
                let ours = format(&pos, m, Notation::Wxf);
                if tandem_named_by_file(&ours, &them) {
                    by_file += 1;
                } else if ours != them {
                    wrong.push(format!("{} ply {}: {m} ours {ours} pyffish {them} in {}", cols[0], i + 1, pos.fen()));
                }
                // And we read pyffish's text (with its `=`) as the same move.
                if parse(&pos, theirs[i]) != Ok(m) {
                    wrong.push(format!("{} ply {}: cannot read pyffish's {}", cols[0], i + 1, theirs[i]));
                }
                compared += 1;
            }
            pos.play(m).unwrap();
        }
    }
    eprintln!(
        "{compared} moves compared ({by_file} tandem pieces named by file), {skipped} tandem-pawn moves left out"
    );
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(compared > 100_000);
}

/// Whether `ours` names a tandem piece `+`/`-` where `theirs` names it by its file, the rest alike.
fn tandem_named_by_file(ours: &str, theirs: &str) -> bool {
    let (a, b) = (ours.as_bytes(), theirs.as_bytes());
    a.len() == 4
        && b.len() == 4
        && a[0] == b[0]
        && matches!(a[1], b'+' | b'-')
        && b[1].is_ascii_digit()
        && a[2..] == b[2..]
}
