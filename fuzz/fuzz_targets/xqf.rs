#![no_main]
//! Any bytes as an XQF file: reading never panics; a game that reads writes XQF 1.0 and
//! DhtmlXQ that read back to the same start, main line and number of variations (comments may
//! change: XQF holds GBK only, DhtmlXQ has no brackets).

use libfuzzer_sys::fuzz_target;
use xiangqi::record::{count_variations, dhtmlxq, xqf};

fuzz_target!(|data: &[u8]| {
    // The reader checks the magic bytes; give most inputs a valid start.
    let mut bytes = b"XQ".to_vec();
    bytes.extend_from_slice(data);
    for input in [data, &bytes[..]] {
        if let Ok(game) = xqf::read(input) {
            let again = xqf::read(&xqf::write(&game)).expect("our own XQF reads");
            assert_eq!(again.start, game.start);
            assert_eq!(again.main_line(), game.main_line());
            assert_eq!(count_variations(&again.line), count_variations(&game.line));
            let block = dhtmlxq::read(&dhtmlxq::write(&game)).expect("our own DhtmlXQ reads");
            assert_eq!(block.main_line(), game.main_line());
            assert_eq!(count_variations(&block.line), count_variations(&game.line));
        }
    }
});
