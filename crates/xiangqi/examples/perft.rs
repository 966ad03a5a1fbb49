//! Legal moves and perft counts from a FEN.
//!
//! ```text
//! cargo run --release -p xiangqi --example perft -- ["FEN"] [DEPTH]
//! ```
//!
//! Prints the position, each legal move (ICCS and Chinese) with the number of move sequences
//! of length DEPTH that start with it, and the total: perft(DEPTH). Without arguments it counts
//! the start position to depth 3.

use std::error::Error;
use std::io::Write;
use std::time::Instant;
use xiangqi::notation::{format, Notation};
use xiangqi::{perft_divide, Position};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fen = args.first().map_or(START, String::as_str);
    let depth = match args.get(1) {
        Some(d) => d.parse().ok().filter(|&d| d >= 1).ok_or_else(|| format!("depth {d:?} is not a number from 1"))?,
        None => 3,
    };
    run(fen, depth, &mut std::io::stdout().lock())
}

fn run(fen: &str, depth: u32, out: &mut impl Write) -> Result<(), Box<dyn Error>> {
    let pos: Position = fen.parse()?;
    writeln!(out, "{pos}\n")?;
    let started = Instant::now();
    let divide = perft_divide(&pos, depth);
    let seconds = started.elapsed().as_secs_f64();
    for &(m, leaves) in &divide {
        writeln!(out, "{m}  {}  {leaves}", format(&pos, m, Notation::Chinese))?;
    }
    let total: u64 = divide.iter().map(|&(_, leaves)| leaves).sum();
    writeln!(out, "\n{} legal moves, perft({depth}) = {total}", divide.len())?;
    writeln!(out, "{seconds:.3} s, {:.1} M leaves/s", total as f64 / seconds.max(1e-9) / 1e6)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(fen: &str, depth: u32) -> String {
        let mut out = Vec::new();
        run(fen, depth, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn start_position_to_depth_3() {
        let text = output(START, 3);
        assert!(text.contains("h2e2  炮二平五  "), "{text}");
        assert!(text.contains("44 legal moves, perft(3) = 79666"), "{text}");
    }

    #[test]
    fn a_bad_fen_is_an_error() {
        let err = run("rnbakabnr/9/9 w", 2, &mut Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "the board has 3 rows, expected 10");
    }
}
