//! The text parser, share-code decoder and seed-code check never panic on arbitrary input, and
//! every layout they accept round-trips through all three forms.

use huarong::Layout;
use proptest::prelude::*;

fn round_trips(layout: Layout) {
    assert_eq!(Layout::parse(&layout.to_text()), Ok(layout));
    assert_eq!(Layout::from_share_code(&layout.share_code()), Ok(layout));
    assert_eq!(Layout::from_code(layout.code()), Ok(layout));
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(layout) = Layout::parse(&text) { round_trips(layout); }
        if let Ok(layout) = Layout::from_share_code(&text) { round_trips(layout); }
    }

    #[test]
    fn grid_like_text_never_panics(text in "[CVHS./xA]{0,30}") {
        if let Ok(layout) = Layout::parse(&text) { round_trips(layout); }
        if let Ok(layout) = Layout::from_share_code(&text) { round_trips(layout); }
    }

    #[test]
    fn well_formed_grids_never_panic(rows in proptest::collection::vec("[CVHS.]{4}", 5)) {
        if let Ok(layout) = Layout::parse(&rows.join("/")) { round_trips(layout); }
    }

    #[test]
    fn share_code_alphabet_never_panics(text in "[A-Za-z0-9_-]{1,8}") {
        if let Ok(layout) = Layout::from_share_code(&text) {
            prop_assert_eq!(layout.share_code(), text);
            round_trips(layout);
        }
    }

    #[test]
    fn any_seed_code_never_panics(code in any::<u64>(), small in 0u64..(1 << 30)) {
        for c in [code, code >> 4, small, small << 30] {
            if let Ok(layout) = Layout::from_code(c) { round_trips(layout); }
        }
    }
}
