#![no_main]
//! Any string: FEN parsing returns a position or an error, never panics; a parsed position
//! writes a FEN that parses back to the same position.

use libfuzzer_sys::fuzz_target;
use xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pos) = text.parse::<Position>() {
            let again: Position = pos.fen().parse().expect("our own FEN parses");
            assert_eq!(again, pos);
            let _ = pos.legal_moves();
        }
    }
});
