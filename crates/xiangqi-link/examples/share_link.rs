//! A share-link round trip.
//!
//! ```text
//! cargo run -p xiangqi-link --example share_link -- [MOVES... | LINK]
//! ```
//!
//! Given moves (ICCS, from the start position), writes the game as a compact link and as a
//! seed link, decodes both back and checks that they give the same game. Given a link (a URL,
//! a query string or a bare value), prints the game it holds. Without arguments it uses the
//! moves `h2e2 h9g7 h0g2 i9h9`.

use std::error::Error;
use std::io::Write;
use xiangqi::notation::{format_line, Notation};
use xiangqi::{Move, Position};
use xiangqi_link::{self as link, DecodedLink};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = &mut std::io::stdout().lock();
    match args.as_slice() {
        [one] if one.contains('=') || one.parse::<Move>().is_err() => print_game(&link::decode(one)?, out)?,
        [] => round_trip(&["h2e2", "h9g7", "h0g2", "i9h9"], out)?,
        moves => round_trip(moves, out)?,
    }
    Ok(())
}

/// Encodes the moves in both formats, decodes them back and checks the game survives.
fn round_trip<S: AsRef<str>>(texts: &[S], out: &mut impl Write) -> Result<(), Box<dyn Error>> {
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (ply, text) in texts.iter().map(AsRef::as_ref).enumerate() {
        let m: Move = text.parse().map_err(|e| format!("move {} {text:?}: {e}", ply + 1))?;
        pos.play(m).map_err(|e| format!("move {}: {e}", ply + 1))?;
        moves.push(m);
    }
    let compact = format!("https://example.org/xq?g={}", link::encode_compact(&start, &moves));
    let seed = format!("https://example.org/xq?{}", link::encode_seed(&start, &moves)?.query());
    for url in [&compact, &seed] {
        let game = link::decode(url)?;
        if (&game.start, &game.moves) != (&start, &moves) {
            return Err(format!("{url} decodes to another game").into());
        }
        writeln!(out, "{} ({} characters): {url}", game.format.name(), url.len())?;
    }
    writeln!(out)?;
    print_game(&link::decode(&compact)?, out)?;
    Ok(())
}

fn print_game(game: &DecodedLink, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "format: {}\nstart: {}", game.format.name(), game.start.fen())?;
    let texts = format_line(&game.start, &game.moves, Notation::Chinese);
    writeln!(out, "moves: {}", texts.join(" "))?;
    writeln!(out, "{}", game.final_position())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(run: impl FnOnce(&mut Vec<u8>) -> Result<(), Box<dyn Error>>) -> String {
        let mut out = Vec::new();
        run(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn moves_survive_both_formats() {
        let text = output(|out| round_trip(&["h2e2", "h9g7", "h0g2", "i9h9"], out));
        assert!(text.contains("compact (") && text.contains("seed ("), "{text}");
        assert!(text.contains("moves: 炮二平五 马8进7 马二进三 车9平8"), "{text}");
    }

    #[test]
    fn a_link_prints_its_game() {
        let text = output(|out| Ok(print_game(&link::decode("xq?g=BQV")?, out)?));
        assert!(text.contains("format: compact\n"), "{text}");
        assert!(text.contains("moves: 炮二平五\n"), "{text}");
    }

    #[test]
    fn an_illegal_move_is_an_error() {
        let err = round_trip(&["h2e2", "h2e2"], &mut Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "move 2: illegal move h2e2");
    }
}
