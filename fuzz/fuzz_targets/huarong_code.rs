#![no_main]
//! Any string: the share-code decoder returns a layout or an error, never panics; a decoded
//! layout re-encodes to the same code. Any 8 bytes: the seed-code check never panics.

use huarong::Layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(layout) = Layout::from_share_code(text) {
            assert_eq!(layout.share_code(), text.trim());
        }
    }
    if let Ok(bytes) = <[u8; 8]>::try_from(data) {
        if let Ok(layout) = Layout::from_code(u64::from_le_bytes(bytes)) {
            assert_eq!(Layout::parse(&layout.to_text()), Ok(layout));
        }
    }
});
