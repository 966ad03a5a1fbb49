//! Hand-checked Vietnamese and traditional Chinese moves: each row is a position, a move in
//! ICCS, and its text in both notations, written by hand from the notations' rules (not from
//! the program). Each text must be what the writer gives and must read back to the move.

use xiangqi::notation::{format, parse, parse_as, Notation};
use xiangqi::Position;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// After 1. 炮二平五: Black to move.
const BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
/// Red rook on i1 (file 1), ready to retreat.
const ROOK_UP: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8R/RNBAKABN1 w - - 0 1";
/// Red cannons on e2 and e4 (file 5); pawns: three on file 7 (c6 c7 c8), two on file 3 (g5 g6).
const TANDEM: &str = "3k5/2P6/2P6/2P3P2/6P2/4C4/9/4C4/9/4K4 w - - 0 1";
/// Three Red pawns on file 7 (c5 c6 c7), no other tandem.
const THREE: &str = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
/// Five Red pawns on file 7 (c5 to c9).
const FIVE: &str = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
/// Black rooks on b9 and b4 (Black's file 2): b4 is the front one, nearer Red.
const BLACK_ROOKS: &str = "1r2k4/9/9/9/9/1r7/9/9/9/3K5 b - - 0 1";
/// Red horses on g2 and g4 (file 3).
const HORSES: &str = "3k5/9/9/9/9/6N2/9/6N2/9/4K4 w - - 0 1";

/// (position, ICCS, Vietnamese, traditional Chinese).
const TABLE: &[(&str, &str, &str, &str)] = &[
    (START, "h2e2", "P2-5", "炮二平五"),
    (START, "h0g2", "M2.3", "傌二進三"),
    (START, "i0i1", "X1.1", "俥一進一"),
    (START, "e0e1", "Tg5.1", "帥五進一"),
    (START, "g0e2", "T3.5", "相三進五"),
    (START, "f0e1", "S4.5", "仕四進五"),
    (START, "g3g4", "B3.1", "兵三進一"),
    (BLACK, "h9g7", "M8.7", "馬８進７"),
    (BLACK, "b7e7", "P2-5", "炮２平５"),
    (BLACK, "a9a8", "X1.1", "車１進１"),
    (BLACK, "c6c5", "B3.1", "卒３進１"),
    (BLACK, "e9e8", "Tg5.1", "將５進１"),
    (ROOK_UP, "i1i0", "X1/1", "俥一退一"),
    (TANDEM, "e4d4", "Pt-6", "前炮平六"),
    (TANDEM, "e2d2", "Ps-6", "後炮平六"),
    (TANDEM, "e2e1", "Ps/1", "後炮退一"),
    (TANDEM, "e4e5", "Pt.1", "前炮進一"),
    (TANDEM, "c8b8", "1B7-8", "前七平八"),
    (TANDEM, "c7b7", "2B7-8", "中七平八"),
    (TANDEM, "c6b6", "3B7-8", "後七平八"),
    (TANDEM, "g6f6", "B3t-4", "前三平四"),
    (TANDEM, "g5h5", "B3s-2", "後三平二"),
    (THREE, "c7c8", "1B.1", "前兵進一"),
    (THREE, "c6b6", "2B-8", "中兵平八"),
    (THREE, "c5d5", "3B-6", "後兵平六"),
    (FIVE, "c9b9", "1B-8", "前兵平八"),
    (FIVE, "c8b8", "2B-8", "二兵平八"),
    (FIVE, "c7b7", "3B-8", "三兵平八"),
    (FIVE, "c6b6", "4B-8", "四兵平八"),
    (FIVE, "c5b5", "5B-8", "五兵平八"),
    (BLACK_ROOKS, "b4b0", "Xt.4", "前車進４"),
    (BLACK_ROOKS, "b9a9", "Xs-1", "後車平１"),
    (HORSES, "g4f6", "Mt.4", "前傌進四"),
    (HORSES, "g2h0", "Ms/2", "後傌退二"),
];

#[test]
fn hand_checked_table() {
    for &(fen, iccs, vi, zh_hant) in TABLE {
        let pos: Position = fen.parse().unwrap();
        let m = iccs.parse().unwrap();
        assert_eq!(format(&pos, m, Notation::Vietnamese), vi, "{iccs} in {fen}");
        assert_eq!(format(&pos, m, Notation::Traditional), zh_hant, "{iccs} in {fen}");
        assert_eq!(parse_as(&pos, vi, Notation::Vietnamese), Ok(m), "{vi} in {fen}");
        assert_eq!(parse(&pos, zh_hant), Ok(m), "{zh_hant} in {fen}");
    }
}

/// What people paste: any case, spaces, full-width forms, other dashes; the Vietnamese names of
/// the front, middle and rear pawn of three; traditional or simplified glyphs.
#[test]
fn readers_take_what_people_paste() {
    let cases: &[(&str, &str, &str)] = &[
        (START, "p2 - 5", "h2e2"),
        (START, "Ｐ２－５", "h2e2"),
        (START, "P2–5", "h2e2"),
        (START, "x1 . 1", "i0i1"),
        (START, "TG5.1", "e0e1"),
        (START, "炮二平五", "h2e2"),
        (START, "俥一进一", "i0i1"),
        (BLACK, "m8.7", "h9g7"),
        (BLACK, "M８．７", "h9g7"),
        (BLACK, "馬8进7", "h9g7"),
        (BLACK, "马８進７", "h9g7"),
        (ROOK_UP, "X 1 / 1", "i1i0"),
        (ROOK_UP, "Ｘ１／１", "i1i0"),
        (THREE, "Bt.1", "c7c8"),
        (THREE, "Bg-8", "c6b6"),
        (THREE, "bs-6", "c5d5"),
        (BLACK_ROOKS, "XT+4", "b4b0"),
    ];
    for &(fen, text, iccs) in cases {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(parse(&pos, text).map(|m| m.to_string()), Ok(iccs.to_string()), "{text:?} in {fen}");
    }
}

#[test]
fn vietnamese_and_wxf_share_p_and_b() {
    // Red cannon h2 and a Red pawn on the same file (h6): `P2.2` is a cannon's advance in
    // Vietnamese, a pawn's sideways move to file 2 in WXF, which no pawn can make, so `parse`
    // falls back to Vietnamese; `P2.3` is a legal WXF pawn move and stays WXF.
    let fen = "3k5/9/9/7P1/9/9/9/7C1/9/4K4 w - - 0 1";
    let pos: Position = fen.parse().unwrap();
    assert_eq!(parse(&pos, "P2.2").unwrap().to_string(), "h2h4");
    assert_eq!(parse(&pos, "P2.3").unwrap().to_string(), "h6g6");
    assert_eq!(parse_as(&pos, "P2.3", Notation::Vietnamese).unwrap().to_string(), "h2h5");
    // A Vietnamese pawn moving sideways is never a legal WXF elephant move.
    let pos: Position = START.parse().unwrap();
    assert!(parse(&pos, "B3-4").is_err());
    assert!(parse_as(&pos, "B3-4", Notation::Vietnamese).is_err());
}

#[test]
fn vietnamese_reader_rejects_malformed_text() {
    let pos: Position = START.parse().unwrap();
    for text in ["P2", "P2-", "P2-55", "Pt2-5", "1P2-5", "1Bt.1", "P0-5", "P2*5", "X.1"] {
        assert!(parse_as(&pos, text, Notation::Vietnamese).is_err(), "{text:?}");
    }
}
