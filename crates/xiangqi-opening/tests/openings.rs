//! Hand-checked openings: each game's moves typed by hand in Chinese notation from the published
//! ECCO definition of its code, and the code and name the crate gives them.

use xiangqi::notation::parse_line;
use xiangqi::{Move, Position};
use xiangqi_opening::{classify, classify_position, Table};

fn moves(chinese: &str) -> Vec<Move> {
    let texts: Vec<&str> = chinese.split_whitespace().collect();
    parse_line(&Position::startpos(), &texts).unwrap_or_else(|(i, e)| panic!("move {} of {chinese}: {e}", i + 1))
}

fn code_of(chinese: &str) -> (String, String) {
    let o = classify(&Position::startpos(), &moves(chinese)).expect("a game from the start has a code");
    (o.code.to_string(), o.name_zh.to_string())
}

#[test]
fn hand_checked_openings() {
    let cases = [
        // A: openings other than the central cannon and the pawn opening.
        ("仕四进五 炮8平5", "A01", "上仕局"),
        ("马二进一 马8进7", "A02", "边马局"),
        ("兵九进一 炮8平5", "A08", "边兵局"),
        ("相三进五 炮8平5 马二进三", "A11", "顺相局"),
        ("相三进五 炮2平5", "A12", "列相局"),
        ("相七进五 马2进3", "A13", "飞相对进左马"), // the mirror of 相三进五 马8进7
        ("相三进五 卒7进1 兵七进一 马8进7", "A38", "飞相互进七兵局"),
        ("马二进三 马8进7", "A40", "起马局"),
        ("马二进三 卒7进1 马八进七", "A41", "起马对进7卒"),
        ("马二进三 卒7进1 炮二平一", "A42", "起马转边炮对进7卒"),
        ("马二进三 卒7进1 炮八平六", "A43", "起马转仕角炮对进7卒"),
        ("马二进三 卒7进1 炮八平五", "A44", "起马转中炮对进7卒"),
        ("马二进三 卒7进1 兵七进一", "A45", "起马互进七兵局"),
        ("炮二平四 卒7进1", "A50", "仕角炮局"),
        ("炮二平四 马8进7", "A51", "仕角炮对进左马"),
        ("炮八平六 炮8平5", "A52", "仕角炮对右中炮"),
        ("炮二平六 马8进7 马二进三", "A61", "过宫炮对进左马"),
        // B: the central cannon against the reverse palcorner horse and others.
        ("炮二平五 卒3进1", "B00", "中炮局"),
        ("炮二平五 马8进7 马二进三 炮8平9 车一平二 车9平8", "B20", "中炮对左三步虎"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4", "B07", "中炮对左炮封车"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7", "B30", "中炮对反宫马"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八平六 车1平2", "B40", "五六炮对反宫马"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八平七", "B50", "五七炮对反宫马"),
        // C: the central cannon against the screen horse.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵三进一", "C00", "中炮对屏风马"),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六 卒7进1 马八进七 卒3进1",
            "C20",
            "中炮过河车七路马对屏风马两头蛇",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 象3进5",
            "C30",
            "中炮过河车互进七兵对屏风马",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二进三 马7退8",
            "C40",
            "中炮过河车互进七兵对屏风马平炮兑车",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二平三 炮9退1",
            "C41",
            "中炮过河车互进七兵对屏风马平炮兑车 黑退边炮",
        ),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平六", "C50", "五六炮对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平七", "C60", "五七炮对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵三进一 卒3进1 炮八平七", "C70", "五七炮对屏风马进3卒"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八进二", "C80", "中炮巡河炮对屏风马"),
        // D: same and opposite direction cannons.
        ("炮二平五 炮8平5 马二进三 马8进7 马八进七", "D00", "顺炮局"),
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9平8", "D10", "顺炮直车对缓开车"),
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1", "D20", "顺炮直车对横车"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4 兵三进一 炮2平5", "D30", "中炮对左炮封车转列炮"),
        ("炮二平五 炮2平5 马二进三", "D50", "中炮对列炮"),
        // E: the pawn opening.
        ("兵七进一 马2进3", "E00", "仙人指路"),
        ("兵三进一 象7进5", "E01", "仙人指路对飞象"), // the mirror of 兵七进一 象3进5
        ("兵三进一 象7进5 马二进三", "E02", "仙人指路进右马对飞象"),
        ("兵七进一 象3进5 马二进三", "E01", "仙人指路对飞象"), // the left horse: no more specific code
        ("兵七进一 炮2平3 马二进三", "E10", "仙人指路对卒底炮"),
        ("兵三进一 炮8平7 炮八平五 象7进5", "E20", "仙人指路转左中炮对卒底炮飞左象"),
        ("兵七进一 炮2平3 炮二平五 象3进5 马二进三", "E20", "仙人指路转左中炮对卒底炮飞左象"), // its mirror
        ("兵七进一 卒7进1 马八进七", "E40", "对兵局"),
        ("兵七进一 卒7进1 炮二平三", "E46", "对兵转兵底炮"),
    ];
    for (line, code, name) in cases {
        assert_eq!(code_of(line), (code.to_string(), name.to_string()), "{line}");
    }
}

#[test]
fn transpositions_are_named_by_the_position_reached() {
    // The screen horse with both 7th pawns advanced, in two move orders.
    let main = "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一";
    let other = "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1 车二进六";
    assert_eq!(code_of(main).0, "C30");
    assert_eq!(code_of(other).0, "C30");
    // The reverse palcorner horse, the palcorner cannon first.
    assert_eq!(code_of("炮二平五 炮8平6 马二进三 马2进3 车一平二 马8进7").0, "B30");
    // The screen horse with Black's right horse first.
    assert_eq!(code_of("炮二平五 马2进3 马二进三 马8进7 车一平二 车9平8").0, "C00");
}

#[test]
fn a_position_is_named_only_when_it_is_a_table_position() {
    let mut pos = Position::startpos();
    for m in moves("炮八平五 马2进3 马八进七 车1平2 车九平八 马8进7") {
        pos.play(m).unwrap();
    }
    assert_eq!(classify_position(&pos).map(|o| o.code), Some("C00"));
    pos.play("a3a4".parse().unwrap()).unwrap();
    assert_eq!(classify_position(&pos), None);
    assert_eq!(classify_position(&Position::startpos()).map(|o| o.code), Some("A00"));
}

#[test]
fn a_set_up_position_that_reaches_no_table_position_has_no_code() {
    let start = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
    assert_eq!(classify(&start, &["e1d0".parse().unwrap()]), None);
}

#[test]
fn the_group_name_and_the_variation() {
    let o = classify(
        &Position::startpos(),
        &moves("炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二平三 炮9退1"),
    )
    .unwrap();
    assert_eq!(o.group_zh, "中炮过河车互进七兵对屏风马平炮兑车");
    assert_eq!(o.variation(), Some("中炮过河车互进七兵对屏风马平炮兑车 黑退边炮"));
    assert!(!o.is_others());
    assert_eq!(o.family(), 'C');
    let o = classify(&Position::startpos(), &moves("马二进三 马8进7")).unwrap();
    assert_eq!((o.group_zh, o.variation(), o.is_others()), ("起马局", None, true));
}

#[test]
fn every_table_line_replays_legally_from_the_start() {
    let table = Table::builtin();
    for e in table.entries() {
        let mut pos = Position::startpos();
        for (i, &m) in e.moves.iter().enumerate() {
            pos.play(m).unwrap_or_else(|err| panic!("{} move {}: {err}", e.code, i + 1));
        }
        // And the line's own game is named by its code.
        let o = table.classify(&Position::startpos(), &e.moves).unwrap();
        assert_eq!(o.code, e.code, "{:?}", e.moves);
    }
}

#[test]
fn every_family_has_its_others_code() {
    let table = Table::builtin();
    for code in [
        "A00", "A10", "A40", "A50", "A60", "B00", "B20", "B30", "B40", "B50", "C00", "C20", "C30", "C40", "C50", "C60",
        "C70", "C80", "D00", "D10", "D20", "D30", "D50", "E00", "E10", "E20", "E40",
    ] {
        assert!(table.entries().iter().any(|e| e.code == code), "{code}");
    }
}
