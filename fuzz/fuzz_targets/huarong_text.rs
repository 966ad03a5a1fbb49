#![no_main]
//! Any string: the Huarong Dao text parser returns a layout or an error, never panics; a parsed
//! layout prints a grid that parses back to the same layout.

use huarong::Layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(layout) = Layout::parse(text) {
            assert_eq!(Layout::parse(&layout.to_text()), Ok(layout));
            assert_eq!(Layout::from_code(layout.code()), Ok(layout));
        }
    }
});
