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
    // At least one line per ECCO group (A0 to E4), each typed from the published definition of
    // its code, often with a move or two more that reach no deeper table position.
    let cases = [
        // A0: uncommon first moves.
        ("仕四进五 炮8平5", "A01", "上仕局"),
        ("马二进一 马8进7", "A02", "边马局"),
        ("炮二平一 马8进7", "A03", "边炮局"),
        ("炮二平七 马8进7", "A07", "金钩炮局"),
        ("兵九进一 炮8平5", "A08", "边兵局"), // the mirror of 兵一进一
        // A1: the elephant opening (1).
        ("相三进五 象7进5 马二进三", "A11", "顺相局"),
        ("相三进五 象3进5", "A12", "列相局"),
        ("相七进五 马2进3", "A13", "飞相对进左马"), // the mirror of 相三进五 马8进7
        ("相三进五 马2进3 马二进三", "A14", "飞相对进右马"),
        ("相三进五 马2进3 兵三进一", "A15", "飞相进三兵对进右马"),
        // A2: the elephant opening (2).
        ("相三进五 炮8平6 马二进三", "A20", "飞相对左士角炮"),
        ("相三进五 炮2平4 马八进九", "A23", "飞相左边马对右士角炮"),
        ("相三进五 炮8平5 马二进三", "A27", "飞相对左中炮"),
        ("相三进五 炮8平5 马二进三 马8进7 马八进七", "A28", "飞相转屏风马对左中炮"),
        ("相三进五 炮2平5", "A29", "飞相对右中炮"),
        // A3: the elephant opening (3).
        ("相三进五 炮8平4 马二进三 马8进7 车一平二 卒7进1 兵七进一", "A34", "飞相进右马对左过宫炮 互进七兵"),
        ("相三进五 炮2平6", "A35", "飞相对右过宫炮"),
        ("相三进五 卒7进1 兵七进一 马8进7", "A38", "飞相互进七兵局"),
        ("相三进五 卒3进1", "A39", "飞相对进3卒"),
        // A4: the horse opening.
        ("马二进三 马8进7", "A40", "起马局"),
        ("马二进三 卒7进1 马八进七", "A41", "起马对进7卒"),
        ("马二进三 卒7进1 炮二平一", "A42", "起马转边炮对进7卒"),
        ("马二进三 卒7进1 炮八平六", "A43", "起马转仕角炮对进7卒"),
        ("马二进三 卒7进1 炮八平五", "A44", "起马转中炮对进7卒"),
        ("马二进三 卒7进1 兵七进一", "A45", "起马互进七兵局"),
        // A5: the palcorner cannon.
        ("炮二平四 卒3进1", "A50", "仕角炮局"),
        ("炮二平四 马8进7", "A51", "仕角炮对进左马"),
        ("炮八平六 炮8平5", "A52", "仕角炮对右中炮"),
        ("炮二平四 炮2平5 马八进七 马2进3 马二进三", "A53", "仕角炮转反宫马对右中炮"),
        ("炮二平四 卒7进1", "A54", "仕角炮对进7卒"),
        // A6: the cross-palace cannon.
        ("炮二平六 马8进7 马二进三", "A61", "过宫炮对进左马"),
        ("炮二平六 车9进1", "A62", "过宫炮对横车"),
        ("炮二平六 炮8平5 马二进三 马8进7 车一平二 车9进1", "A65", "过宫炮直车对左中炮横车"),
        // B0: the central cannon against uncommon defences.
        ("炮二平五 卒3进1", "B00", "中炮局"),
        ("炮二平五 马2进3 马二进三 炮2平1", "B04", "中炮对右三步虎"),
        ("炮二平五 马8进7 马二进三 卒3进1", "B05", "中炮对进左马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4", "B07", "中炮对左炮封车"),
        // B1: the single horse.
        ("炮二平五 马2进3 马二进三 马8进9", "B10", "中炮对单提马"),
        ("炮二平五 马2进3 马二进三 车9进1 车一平二 车9平4 炮八进二", "B13", "中炮巡河炮对单提马横车"),
        // B2: the left three-step tiger.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8平9", "B20", "中炮对左三步虎"),
        ("炮二平五 马8进7 马二进三 车9平8 马八进七 炮8平9 车一进一", "B22", "中炮右横车对左三步虎"),
        ("炮二平五 马8进7 马二进三 车9平8 马八进七 炮8平9 炮八进四", "B24", "中炮过河炮对左三步虎"),
        // B3: the reverse palcorner horse (1).
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7", "B31", "中炮对反宫马"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 车二进六", "B33", "中炮过河车对反宫马"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八进四", "B36", "五八炮对反宫马"),
        // B4: the central and palcorner cannons against it.
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八平六 车1平2 马八进七", "B42", "五六炮左正马对反宫马 黑右直车"),
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八平六 车1平2 马八进九", "B45", "五六炮左边马对反宫马"),
        // B5: the fifth and seventh file cannons against it.
        ("炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 炮八平七", "B50", "五七炮对反宫马"),
        (
            "炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7 兵三进一 卒3进1 马八进九 象7进5 炮八平七 车1平2 车九平八 炮2进4 兵七进一 卒3进1 兵三进一",
            "B56",
            "五七炮互进三兵对反宫马 红弃双兵对黑右炮过河",
        ),
        // C0: the screen horse (1).
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵三进一", "C00", "中炮对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进七", "C01", "中炮七路马对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进九 卒7进1 车九进一", "C06", "中炮左边马对屏风马 红左横车"),
        // C1: the screen horse (2).
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进四", "C15", "中炮巡河车对屏风马 红不进左马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六", "C17", "中炮过河车对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六 卒7进1 马八进九", "C19", "中炮过河车左边马对屏风马"),
        // C2: the river-crossing chariot and 7th-file horse against the two-headed snake.
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六 卒7进1 马八进七 卒3进1",
            "C20",
            "中炮过河车七路马对屏风马两头蛇",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六 卒7进1 马八进七 卒3进1 车九进一 炮2进1 车二退二 象3进5 兵三进一",
            "C23",
            "中炮过河车七路马对屏风马两头蛇 红左横车兑三兵对黑高右炮",
        ),
        // C3: the river-crossing chariot, both 7th pawns advanced.
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 车1进1",
            "C33",
            "中炮过河车互进七兵对屏风马右横车",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 马7进6 马八进七 象3进5 炮八平九",
            "C39",
            "中炮过河车互进七兵对屏风马左马盘河 红边炮对黑飞右象",
        ),
        // C4: the same with the edge cannon for the chariot exchange.
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二进三 马7退8",
            "C40",
            "中炮过河车互进七兵对屏风马平炮兑车",
        ),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二平三 炮9退1 马八进七 士4进5 马七进六",
            "C44",
            "中炮过河车互进七兵对屏风马平炮兑车 红左马盘河对黑退边炮上右士",
        ),
        // C5: the central and palcorner cannons.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平六 卒7进1 马八进七", "C50", "五六炮对屏风马"),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进九 卒7进1 炮八平六 车1平2 车九平八 炮2进4",
            "C53",
            "五六炮左边马对屏风马 黑进7卒右直车右炮过河",
        ),
        // C6: the fifth and seventh file cannons (1).
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平七", "C60", "五七炮对屏风马"),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进九 卒7进1 炮八平七 车1平2 车九平八 炮2进4",
            "C66",
            "五七炮对屏风马进7卒 红左直车对黑右直车右炮过河",
        ),
        // C7: the fifth and seventh file cannons (2).
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平七 卒3进1", "C70", "五七炮对屏风马进3卒"),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵三进一 卒3进1 马八进九 卒1进1 炮八平七 马3进2 车九进一 象7进5 马三进四",
            "C75",
            "五七炮互进三兵对屏风马边卒右马外盘河 红左横车右马盘河对黑飞左象",
        ),
        // C8: the river-bank cannon.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八进二", "C80", "中炮巡河炮对屏风马"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八进二 象3进5", "C84", "中炮巡河炮对屏风马 黑飞右象"),
        // C9: the fifth and eighth, fifth and ninth file cannons.
        (
            "炮二平五 马8进7 马二进三 车9平8 兵三进一 马2进3 炮八进四 卒3进1 马八进九 卒7进1",
            "C95",
            "五八炮互进三兵对屏风马 红左边马对黑兑7卒",
        ),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进七 卒7进1 炮八平九", "C99", "五九炮对屏风马"),
        // D0: same direction cannons without the filed chariot.
        ("炮二平五 炮8平5 马二进三 马8进7 马八进七", "D00", "顺炮缓开车对其他"),
        ("炮二平五 炮8平5 马二进三 马8进7 车一进一 车9平8 车一平六 车8进4", "D05", "顺炮横车对直车巡河"),
        // D1: the filed chariot against the delayed chariot.
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 马2进3", "D10", "顺炮直车对缓开车"),
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9平8", "D13", "顺炮直车对缓开车 黑兑直车"),
        // D2: the filed chariot against the ranked chariot.
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1", "D20", "顺炮直车对横车"),
        ("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1 马八进七 车9平4 车二进六", "D24", "顺炮直车对横车 红过河车"),
        (
            "炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1 兵三进一 车9平4 兵七进一 车1进1",
            "D29",
            "顺炮直车对横车 红两头蛇对黑双横车",
        ),
        // D3: the left cannon blocking the chariot, then opposite direction cannons.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4 马八进七 炮2平5", "D30", "中炮不进三兵对左炮封车转列炮"),
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4 兵三进一 炮2平5", "D31", "中炮进三兵对左炮封车转列炮"),
        (
            "炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4 兵三进一 炮2平5 兵七进一",
            "D36",
            "中炮进三兵对左炮封车转列炮 红两头蛇",
        ),
        // D4: the left three-step tiger, then opposite direction cannons.
        ("炮二平五 马8进7 马二进三 车9平8 车一平二 炮8平9 马八进七 炮2平5", "D40", "中炮对左三步虎转列炮"),
        ("炮二平五 马8进7 马二进三 车9平8 兵三进一 炮8平9 兵七进一 炮2平5", "D43", "中炮对左三步虎转列炮 红两头蛇"),
        // D5: opposite direction cannons.
        ("炮二平五 炮2平5 马二进三", "D50", "中炮对列炮"),
        ("炮二平五 马8进7 马二进三 炮2平5 车一平二 马2进3 车二进六", "D53", "中炮过河车对后补列炮"),
        // E0: the pawn opening.
        ("兵三进一 马8进7", "E00", "仙人指路局"),
        ("兵三进一 象7进5", "E01", "仙人指路对飞象"),
        ("兵七进一 象3进5", "E01", "仙人指路对飞象"), // its mirror
        ("兵三进一 象7进5 马二进三", "E02", "仙人指路对飞象"),
        ("兵七进一 象3进5 马二进三", "E01", "仙人指路对飞象"), // the left horse: no more specific code
        ("兵三进一 炮2平5", "E03", "仙人指路对中炮"),
        ("兵三进一 马2进3 兵七进一 炮8平7", "E09", "两头蛇对进右马转卒底炮"),
        // E1: the pawn opening against the cannon behind the pawn.
        ("兵七进一 炮2平3 马二进三", "E10", "仙人指路对卒底炮"),
        ("兵三进一 炮8平7 炮二平五", "E12", "仙人指路转右中炮对卒底炮"),
        ("兵三进一 炮8平7 炮八平五 炮2平5", "E17", "仙人指路转左中炮对卒底炮转顺炮"),
        // E2: the left central cannon against it with the left elephant (1).
        ("兵三进一 炮8平7 炮八平五 象7进5", "E20", "仙人指路转左中炮对卒底炮飞左象"),
        (
            "兵七进一 炮2平3 炮二平五 象3进5 马二进三",
            "E22",
            "仙人指路转左中炮对卒底炮飞左象 红进左马",
        ), // the mirror of 兵三进一 炮8平7 炮八平五 象7进5 马八进七
        (
            "兵三进一 炮8平7 炮八平五 象7进5 马八进七 车1进1 车九平八 车1平8 马二进三 马8进6 炮二平一 马2进1 马三进四 士6进5",
            "E25",
            "仙人指路转左中炮对卒底炮飞左象 红左直车右马盘河对黑右横车上士",
        ),
        // E3: the same (2).
        ("兵三进一 炮8平7 炮八平五 象7进5 马八进七 卒7进1 车九平八 卒7进1", "E31", "仙人指路转左中炮对卒底炮飞左象 黑连进7卒"),
        ("兵三进一 炮8平7 炮八平五 象7进5 马二进一", "E37", "仙人指路转左中炮对卒底炮飞左象 红右边马"),
        ("兵三进一 炮8平7 炮八平五 象7进5 炮五进四", "E38", "仙人指路转左中炮对卒底炮飞左象 红炮打中卒"),
        // E4: the pawn opening against the pawn.
        ("兵三进一 卒3进1 兵七进一", "E40", "对兵局"),
        ("兵七进一 卒7进1 马八进七", "E41", "对兵进右马局"), // the mirror of 兵三进一 卒3进1 马二进三
        ("兵三进一 卒3进1 马二进三 马2进3 相三进五", "E43", "对兵对进右马局 红飞相"),
        ("兵七进一 卒7进1 炮二平三", "E46", "对兵转兵底炮"),
        ("兵三进一 卒3进1 炮八平七 炮2平5", "E47", "对兵转兵底炮对右中炮"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(line, code, name)| code_of(line) != (code.to_string(), name.to_string()))
        .map(|(line, code, name)| format!("{line}: {:?}, expected {code} {name}", code_of(line)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn transpositions_are_named_by_the_position_reached() {
    // The screen horse with both 7th pawns advanced, in two move orders.
    let main = "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一";
    let other = "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1 车二进六";
    assert_eq!(code_of(main).0, "C30");
    assert_eq!(code_of(other).0, "C30");
    // The reverse palcorner horse, the palcorner cannon first.
    assert_eq!(code_of("炮二平五 炮8平6 马二进三 马2进3 车一平二 马8进7").0, "B31");
    // The screen horse with Black's right horse first.
    assert_eq!(code_of("炮二平五 马2进3 马二进三 马8进7 车一平二 车9平8").0, "C00");
    // The elephant opening turned screen horse, the left horse first.
    assert_eq!(code_of("相三进五 炮8平5 马八进七 马8进7 马二进三").0, "A28");
    // Both right horses in the pawn opening against the pawn, the horse before the pawn.
    assert_eq!(code_of("兵三进一 马2进3 马二进三 卒3进1").0, "E42");
    // The same direction cannons' river-bank chariot, the left horse first.
    assert_eq!(code_of("炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1 马八进七 车9平4 车二进四").0, "D23");
    // The 7th-file horse against the screen horse: the published order, the master games' order
    // with both 7th pawns first, and Black's right horse first.
    assert_eq!(code_of("炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进七").0, "C01");
    assert_eq!(code_of("炮二平五 马8进7 马二进三 车9平8 兵七进一 卒7进1 马八进七 马2进3").0, "C01");
    assert_eq!(code_of("炮二平五 马2进3 兵七进一 卒7进1 马八进七 马8进7 马二进三 车9平8").0, "C01");
    // The same direction cannons' right cannon across the river, in two orders.
    let d14 = "炮二平五 炮8平5 马二进三 马8进7 车一平二 马2进3 兵七进一 卒7进1 马八进七 炮2进4";
    assert_eq!(code_of(d14), ("D14".to_string(), "顺炮直车对缓开车 黑过河炮".to_string()));
    assert_eq!(code_of("炮二平五 炮8平5 马二进三 马8进7 车一平二 炮2进4").0, "D14");
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
        "A00", "A10", "A20", "A30", "A40", "A50", "A60", "B00", "B10", "B20", "B30", "B40", "B50", "C00", "C10", "C20",
        "C30", "C40", "C50", "C60", "C70", "C80", "C90", "D00", "D10", "D20", "D30", "D40", "D50", "E00", "E10", "E20",
        "E30", "E40",
    ] {
        assert!(table.entries().iter().any(|e| e.code == code), "{code}");
    }
}
