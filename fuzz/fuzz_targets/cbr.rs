#![no_main]
//! Any bytes as a 象棋桥 (ChessBridge) record and library: reading never panics and stays in
//! its bounds; a game that reads writes XQF 1.0 that reads back to the same start, main line
//! and number of variations. Most inputs are given the record's magic and a header's length,
//! so that the fuzzer spends its time in the board and the move tree.

use libfuzzer_sys::fuzz_target;
use xiangqi::record::{cbr, count_variations, xqf, MAX_RECORD_GAMES};

fuzz_target!(|data: &[u8]| {
    let mut record = cbr::RECORD_MAGIC.to_vec();
    record.extend_from_slice(data);
    if record.len() < cbr::HEADER_LEN {
        // The input lands on the board and the moves: a short header of zeros before it.
        let mut padded = cbr::RECORD_MAGIC.to_vec();
        padded.resize(cbr::HEADER_LEN - 90 - 94, 0);
        padded.extend_from_slice(data);
        padded.resize(cbr::HEADER_LEN.max(padded.len()), 0);
        record = padded;
    }
    let mut library = cbr::LIBRARY_MAGIC.to_vec();
    library.resize(576, 0);
    library.extend_from_slice(&record);
    for input in [data, &record[..]] {
        if let Ok(game) = cbr::read(input) {
            let again = xqf::read(&xqf::write(&game)).expect("our own XQF reads");
            assert_eq!(again.start, game.start);
            assert_eq!(again.main_line(), game.main_line());
            assert_eq!(count_variations(&again.line), count_variations(&game.line));
        }
    }
    assert!(cbr::library(&library).count() <= MAX_RECORD_GAMES + 1);
    assert!(cbr::library(data).count() <= MAX_RECORD_GAMES + 1);
});
