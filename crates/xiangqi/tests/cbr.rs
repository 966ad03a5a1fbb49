//! 象棋桥 (ChessBridge) records and libraries: real `.cbr` and `.cbl` files (see
//! `tests/data/records/SOURCE.md`), the importer telling them apart, and hostile bytes.

use xiangqi::record::{cbr, count_comments, count_variations, detect, import, import_all, Format, RecordErrorKind};
use xiangqi::Move;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

#[test]
fn a_record_with_comments() {
    let bytes = data("comments.cbr");
    assert_eq!(detect(&bytes), Format::Cbr);
    let game = cbr::read(&bytes).unwrap();
    // 炮二平五 炮８平５, each commented, and a comment before the first move.
    assert_eq!(iccs(&game.main_line()), ["h2e2", "h7e7"]);
    assert_eq!(game.line.comment.as_deref(), Some("李1"));
    assert_eq!(game.line.moves[0].comment.as_deref(), Some("李2"));
    assert_eq!(game.line.moves[1].comment.as_deref(), Some("李3"));
    assert_eq!(game.tag("Title"), Some("Test"));
    assert_eq!(game.result.as_deref(), Some("*"));
    assert_eq!(game.start, xiangqi::Position::startpos());
}

#[test]
fn a_record_with_variations() {
    let (format, games) = import(&data("lecture-004.cbr")).unwrap();
    assert_eq!((format, games.len()), (Format::Cbr, 1));
    let game = &games[0];
    assert_eq!(game.tag("Title"), Some("黄丹青讲座004-破解新式弃马局的攻防要领"));
    let main = game.main_line();
    assert_eq!(main.len(), 28);
    assert_eq!(iccs(&main[..6]), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5"]);
    assert_eq!(count_variations(&game.line), 11);
    assert_eq!(count_comments(&game.line), 13);
}

#[test]
fn a_library_of_38_records() {
    let bytes = data("longhua-cup-1989.cbl");
    assert_eq!(detect(&bytes), Format::Cbl);
    assert_eq!(cbr::library_name(&bytes).as_deref(), Some("1989年龙化杯象棋名师邀请赛35局"));
    let (format, games) = import_all(&bytes);
    assert_eq!(format, Format::Cbl);
    assert_eq!(games.len(), 38);
    let games: Vec<_> = games.into_iter().collect::<Result<_, _>>().unwrap();
    // Two notes (an empty board): the introduction and the women's section's title. Their
    // text is kept as the comment; they have no moves.
    for (i, title) in [(0, "龙化杯象棋名师邀请赛对局（男子组20局）"), (21, "龙化杯象棋名师邀请赛对局（女子组15局）")]
    {
        assert_eq!(games[i].tag("Title"), Some(title));
        assert!(games[i].main_line().is_empty());
        assert_eq!(games[i].start, xiangqi::Position::startpos());
    }
    assert!(games[0].line.comment.as_deref().unwrap().contains("“龙化杯”全国象棋名师邀请赛"));
    // The other 36 are games from the standard start.
    let played = games.iter().filter(|g| !g.main_line().is_empty()).count();
    assert_eq!(played, 36);
    let sixth = &games[5];
    let tags: Vec<(&str, &str)> = sixth.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Title", "第二轮 徐天利 先胜 黄仕清"),
            ("Event", "1989年龙化杯象棋名师邀请赛"),
            ("Date", "1989年6月4日"),
            ("Site", "柳州市"),
            ("Red", "徐天红"),
            ("Black", "黄仕清"),
            ("Result", "1-0"),
        ]
    );
    let main = sixth.main_line();
    assert_eq!(main.len(), 115);
    assert_eq!(iccs(&main[..4]), ["g0e2", "h7f7", "c3c4", "h9i7"]);
    assert_eq!(iccs(&main[113..]), ["h5h0", "e1f0"]);
    assert_eq!(iccs(&games[37].main_line()[..2]), ["h2e2", "b9c7"]);
    assert_eq!(games[37].tag("Red"), Some("陈淑兰"));
}

#[test]
fn bad_records_are_errors_with_their_offset() {
    let bytes = data("lecture-004.cbr");
    // Cut anywhere: an error or a shorter game, never a panic.
    for len in (0..bytes.len()).step_by(7) {
        let _ = cbr::read(&bytes[..len]);
    }
    let e = cbr::read(&bytes[..1000]).unwrap_err();
    assert_eq!(e.kind, RecordErrorKind::Truncated);
    let e = cbr::read(&bytes[..bytes.len() - 30]).unwrap_err();
    assert_eq!(e.kind, RecordErrorKind::Truncated, "{e}");
    assert!(e.to_string().starts_with("cbr game 1, offset "), "{e}");

    // A piece code that names nothing, a square off the board, an illegal move.
    let mut bad = data("comments.cbr");
    bad[2120] = 0x18;
    assert_eq!(cbr::read(&bad).unwrap_err().kind, RecordErrorKind::BadPiece(0x18));
    let mut bad = data("comments.cbr");
    let first = 2214 + 4 + 4 + 4; // the flag, the comment's length and text
    assert_eq!(bad[first + 2], 70, "the first move's from square");
    bad[first + 2] = 95;
    assert_eq!(cbr::read(&bad).unwrap_err().kind, RecordErrorKind::BadSquare(95));
    bad[first + 2] = 40;
    assert!(matches!(cbr::read(&bad).unwrap_err().kind, RecordErrorKind::BadMove { ply: 1, .. }));
    // A comment longer than the bound is refused before it is read.
    let mut bad = data("comments.cbr");
    bad[2218..2222].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(cbr::read(&bad).unwrap_err().kind, RecordErrorKind::CommentTooLong(_)));

    // A library keeps reading after a game that does not: the others still come.
    let mut lib = data("longhua-cup-1989.cbl");
    let second = 101_952 + cbr::SLOT_LEN;
    lib[second + 2120] = 0x30;
    let (_, games) = import_all(&lib);
    assert_eq!(games.len(), 38);
    assert_eq!(games.iter().filter(|g| g.is_err()).count(), 1);
    assert_eq!(games[1].as_ref().unwrap_err().game, 2);
}
