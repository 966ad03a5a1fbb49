//! A UCI engine in a few lines on `xiangqi-engine`.
//!
//! ```text
//! cargo run --release -p xiangqi-engine --example uci
//! ```
//!
//! Understands `uci`, `isready`, `ucinewgame`, `position startpos|fen FEN [moves ...]`,
//! `go [depth N | movetime MS]` (one second without a limit) and `quit`. It searches on the
//! reading thread, so `stop` waits for the search; the `qi engine uci` command is the full
//! engine (a search thread, `stop`, time controls, options).

use std::io::{self, BufRead, Write};
use std::time::Duration;
use xiangqi::Position;
use xiangqi_engine::{Engine, Limits, Played};

fn main() -> io::Result<()> {
    uci(io::stdin().lock(), &mut io::stdout().lock())
}

fn uci(input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    let mut engine = Engine::new(16);
    // The position to search and the hashes of the positions before it (for repetitions).
    let mut game: Result<(Position, Vec<Played>), String> = Ok((Position::startpos(), Vec::new()));
    for line in input.lines() {
        let line = line?;
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["uci"] => writeln!(out, "id name xiangqi-engine example\nuciok")?,
            ["isready"] => writeln!(out, "readyok")?,
            ["ucinewgame"] => engine = Engine::new(16),
            ["position", words @ ..] => game = position(words),
            ["go", words @ ..] => match &game {
                Ok((pos, history)) => {
                    let result = engine.search(pos, history, &limits(words), |info| {
                        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                        let _ = writeln!(out, "info depth {} score {} pv {}", info.depth, info.score, pv.join(" "));
                    });
                    writeln!(out, "bestmove {}", result.best.map_or("(none)".to_string(), |m| m.to_string()))?;
                }
                // Never search a stale position: say why there is none.
                Err(e) => writeln!(out, "info string no position: {e}\nbestmove (none)")?,
            },
            ["quit"] => break,
            [] => {}
            _ => writeln!(out, "info string unknown command: {line}")?,
        }
    }
    Ok(())
}

/// Reads `startpos|fen FEN [moves m1 m2 ...]` into the position and the game before it.
fn position(words: &[&str]) -> Result<(Position, Vec<Played>), String> {
    let split = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut pos = match &words[..split] {
        ["startpos"] => Position::startpos(),
        ["fen", fen @ ..] => fen.join(" ").parse().map_err(|e| format!("bad FEN: {e}"))?,
        _ => return Err("expected startpos or fen".into()),
    };
    let mut history = Vec::new();
    for (ply, text) in words.iter().skip(split + 1).enumerate() {
        let m = text.parse().map_err(|e| format!("move {} {text:?}: {e}", ply + 1))?;
        history.push(Played { hash: pos.hash(), mv: m });
        pos.play(m).map_err(|e| format!("move {} {text:?}: {e}", ply + 1))?;
    }
    Ok((pos, history))
}

fn limits(words: &[&str]) -> Limits {
    match words {
        ["depth", n] => Limits::depth(n.parse().unwrap_or(1)),
        ["movetime", ms] => Limits::time(Duration::from_millis(ms.parse().unwrap_or(1000))),
        _ => Limits::time(Duration::from_secs(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str) -> String {
        let mut out = Vec::new();
        uci(script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_a_gui() {
        let out = session("uci\nisready\nposition startpos moves h2e2 h9g7\ngo depth 3\nquit\n");
        assert!(out.contains("uciok\nreadyok\n"), "{out}");
        assert!(out.contains("info depth 3 score "), "{out}");
        let best = out.lines().last().unwrap().strip_prefix("bestmove ").unwrap();
        let mut pos = Position::startpos();
        pos.play("h2e2".parse().unwrap()).unwrap();
        pos.play("h9g7".parse().unwrap()).unwrap();
        assert!(pos.legal_moves().contains(&best.parse().unwrap()), "{out}");
    }

    #[test]
    fn finds_a_mate_in_one() {
        let out = session("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1\ngo depth 3\n");
        assert!(out.contains("score mate 1"), "{out}");
        assert!(out.ends_with("bestmove a1d1\n"), "{out}");
    }

    #[test]
    fn a_bad_position_is_never_searched() {
        let out = session("position startpos moves h2e2 h2e2\ngo depth 2\nfoo\n");
        assert_eq!(
            out,
            "info string no position: move 2 \"h2e2\": illegal move h2e2\nbestmove (none)\n\
             info string unknown command: foo\n"
        );
    }
}
