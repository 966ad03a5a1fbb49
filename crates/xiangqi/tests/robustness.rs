//! Random text never panics the PGN reader or the move parser (the fuzz targets in fuzz/ go
//! further); parsed moves are always legal.

use proptest::prelude::*;
use xiangqi::notation::{format, parse, Notation};
use xiangqi::pgn::{decode, read_games};
use xiangqi::Position;

/// Text made of the characters that matter to the readers, so that near-misses are common.
fn notation_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            proptest::char::range('a', 'i'),
            proptest::char::range('0', '9'),
            prop::sample::select(vec![
                '+', '-', '.', '=', 'K', 'A', 'E', 'H', 'R', 'C', 'P', 'N', 'B', '车', '馬', '炮', '兵', '卒', '前',
                '中', '后', '进', '退', '平', '一', '二', '五', '九', '８', ' ', '(', ')', '{', '}', '[', ']', '"',
                '\n', ';', '*', '$',
            ]),
        ],
        0..40,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn move_parser_never_panics(text in notation_text()) {
        let pos = Position::startpos();
        if let Ok(m) = parse(&pos, &text) {
            prop_assert!(pos.is_legal(m));
            for n in Notation::ALL {
                prop_assert_eq!(parse(&pos, &format(&pos, m, n)), Ok(m));
            }
        }
    }

    #[test]
    fn move_parser_survives_any_string(text in ".*") {
        let _ = parse(&Position::startpos(), &text);
    }

    #[test]
    fn pgn_reader_never_panics(text in notation_text(), any in ".*") {
        for t in [text.as_str(), any.as_str()] {
            for game in read_games(t).into_iter().flatten() {
                let again = read_games(&game.write(Notation::Wxf));
                prop_assert_eq!(again[0].as_ref().unwrap().main_line(), game.main_line());
            }
        }
    }

    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = read_games(&decode(&bytes));
    }
}
