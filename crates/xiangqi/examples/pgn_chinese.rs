//! Reads a PGN file and prints its games in Chinese notation.
//!
//! ```text
//! cargo run -p xiangqi --example pgn_chinese -- [FILE.pgn]
//! ```
//!
//! The file may be UTF-8 or GBK, its moves in ICCS, WXF or Chinese. Each game is written back
//! as PGN with Chinese moves (tags, comments and variations kept). A game that does not read
//! is reported on stderr with its number, line and reason, and the others still print. Without
//! an argument it reads the sample games shipped in `examples/data/sample.pgn`.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use xiangqi::notation::Notation;
use xiangqi::pgn;

fn main() -> Result<(), Box<dyn Error>> {
    let path = match std::env::args_os().nth(1) {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/sample.pgn"),
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let failed = print_chinese(&pgn::decode(&bytes), &mut std::io::stdout().lock(), &mut std::io::stderr())?;
    if failed > 0 {
        return Err(format!("{}: {failed} game(s) did not read", path.display()).into());
    }
    Ok(())
}

/// Writes every game of `text` to `out` in Chinese notation and the errors to `err`; returns
/// how many games did not read.
fn print_chinese(text: &str, out: &mut impl Write, err: &mut impl Write) -> std::io::Result<usize> {
    let mut failed = 0;
    for game in pgn::read_games(text) {
        match game {
            Ok(game) => writeln!(out, "{}", game.write(Notation::Chinese))?,
            Err(e) => {
                writeln!(err, "{e}")?;
                failed += 1;
            }
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(text: &str) -> (String, String, usize) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let failed = print_chinese(text, &mut out, &mut err).unwrap();
        (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap(), failed)
    }

    #[test]
    fn the_sample_games_print_in_chinese() {
        let sample = include_str!("data/sample.pgn");
        let (out, err, failed) = print(sample);
        assert_eq!((err.as_str(), failed), ("", 0));
        let out = out.split_whitespace().collect::<Vec<_>>().join(" "); // wherever lines wrap
        assert!(out.contains("[Format \"Chinese\"]"), "{out}");
        assert!(out.contains("1. 炮二平五 马2进3 2. 马二进三 马8进7"), "{out}");
        assert!(out.contains("1. 车一进九 将4进1 2. 车九进七 将4进1 3. 车一退二 {mate}"), "{out}");
        assert!(out.contains("(3. 车九平六 {check, but} 3... 将4退1 {the king takes the rook}) 1-0"), "{out}");
    }

    #[test]
    fn a_game_that_does_not_read_is_reported_and_the_others_print() {
        let (out, err, failed) = print("1. h2e2 h9g7 *\n\n[Red \"x\"]\n1. h2e2 h9h0 *\n");
        assert_eq!(failed, 1);
        assert!(out.contains("1. 炮二平五 马8进7 *"), "{out}");
        assert!(err.starts_with("game 2, line 4: move 1 \"h9h0\""), "{err}");
    }
}
