#![no_main]
//! Any bytes: decoding and reading PGN never panics; a game that reads writes PGN in every
//! notation that reads back to the same moves.

use libfuzzer_sys::fuzz_target;
use xiangqi::notation::Notation;
use xiangqi::pgn::{decode, read_games};

fuzz_target!(|data: &[u8]| {
    let text = decode(data);
    for game in read_games(&text).into_iter().flatten() {
        for n in Notation::ALL {
            let again = read_games(&game.write(n));
            let again = again[0].as_ref().expect("our own PGN reads");
            assert_eq!(again.main_line(), game.main_line());
        }
    }
});
