//! The puzzle file reader (`xiangqi_puzzle::file::read`, which the CLI's `qi puzzle list --file`
//! runs on any file given): never a panic, and what it accepts is written back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(puzzles) = xiangqi_puzzle::file::read(text) {
        let again = xiangqi_puzzle::file::read(&xiangqi_puzzle::file::write(&puzzles, &[])).expect("written back");
        assert_eq!(again.len(), puzzles.len());
        for (a, b) in puzzles.iter().zip(&again) {
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.position.fen(), b.position.fen());
        }
    }
});
