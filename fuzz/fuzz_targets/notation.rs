#![no_main]
//! A FEN and a move text: parsing never panics, and a parsed move is legal and formats in
//! every notation to text that parses back to it.

use libfuzzer_sys::fuzz_target;
use xiangqi::notation::{format, parse, Notation};
use xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // "FEN|move", or just a move from the start position.
    let (pos, mv) = match text.split_once('|') {
        Some((fen, mv)) => match fen.parse::<Position>() {
            Ok(pos) => (pos, mv),
            Err(_) => return,
        },
        None => (Position::startpos(), text),
    };
    if let Ok(m) = parse(&pos, mv) {
        assert!(pos.is_legal(m));
        for n in Notation::ALL {
            assert_eq!(parse(&pos, &format(&pos, m, n)), Ok(m));
        }
    }
});
