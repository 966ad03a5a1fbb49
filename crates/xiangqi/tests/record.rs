//! Records from other programs: XQF (real files of versions 1.0, 1.2, 1.6 and 1.8, and files
//! of every version made by the encrypting encoder below), DhtmlXQ as several sites write it,
//! plain text, the importer, round trips and hostile bytes.

use proptest::prelude::*;
use xiangqi::notation::{parse_line, Notation};
use xiangqi::pgn::{read_games, Line, PgnGame};
use xiangqi::record::{
    count_comments, count_variations, detect, dhtmlxq, import, text, xqf, Format, Location, RecordErrorKind,
};
use xiangqi::{Color, Move, Position};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn moves(texts: &str) -> Vec<Move> {
    let texts: Vec<&str> = texts.split(',').collect();
    parse_line(&Position::startpos(), &texts).unwrap()
}

/// Every line from the start to a leaf, as moves.
fn leaves(start: &Position, line: &Line, prefix: &[Move], out: &mut Vec<Vec<Move>>) {
    let _ = start;
    let mut path = prefix.to_vec();
    for m in &line.moves {
        for v in &m.variations {
            leaves(start, v, &path, out);
        }
        path.push(m.mv);
    }
    out.push(path);
}

fn all_lines(game: &PgnGame) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    leaves(&game.start, &game.line, &[], &mut out);
    out.sort();
    out
}

// ---- XQF: real files ----

#[test]
fn xqf_version_18_with_six_lines() {
    let game = xqf::read(&data("variations-v18.xqf")).unwrap();
    assert_eq!(game.tag("Title"), Some("中炮对屏风马"));
    assert_eq!(game.tag("Event"), Some("全国象棋锦标赛"));
    assert_eq!(game.tag("Red"), Some("红方棋手"));
    // The six lines as the file's source lists them.
    let mut expected: Vec<Vec<Move>> = [
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进七,马２进３",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵三进一,卒３进１",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵七进一,车９平４",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进九,马２进３",
        "炮二平五,马８进７,马二进三,卒７进１,车一平二,车９平８,兵七进一,马２进３",
        "炮二平五,马８进７,马二进三,卒７进１,车一平二,炮２平５,车二进六,马２进３",
    ]
    .iter()
    .map(|l| moves(l))
    .collect();
    expected.sort();
    assert_eq!(all_lines(&game), expected);
    assert_eq!(game.main_line(), moves("炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进七,马２进３"));
    assert_eq!(count_variations(&game.line), 5);
}

#[test]
fn xqf_version_16_endgame_matches_its_text() {
    let game = xqf::read(&data("endgame-v16.xqf")).unwrap();
    let txt = String::from_utf8(data("endgame-v16.txt")).unwrap();
    let from_text = text::read(&txt).unwrap();
    assert_eq!(game.start, from_text.start);
    assert_eq!(game.start.fen(), "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1");
    assert_eq!(game.main_line(), from_text.main_line());
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(from_text.result.as_deref(), Some("1-0"));
    assert_eq!(game.tag("Title"), Some("第006局 蝇垂骥尾"));
}

#[test]
fn xqf_version_10_and_12() {
    let old = xqf::read(&data("game-v10.xqf")).unwrap();
    assert_eq!(old.main_line().len(), 110);
    assert_eq!(old.tag("Red"), Some("柳大华"));
    assert_eq!(old.result.as_deref(), Some("0-1"));
    assert_eq!(count_comments(&old.line), 11);
    let v12 = xqf::read(&data("game-v12.xqf")).unwrap();
    assert_eq!(v12.tag("Black"), Some("郑国庆"));
    assert_eq!((v12.main_line().len(), count_variations(&v12.line), count_comments(&v12.line)), (35, 1, 3));
}

#[test]
fn xqf_truncated_and_corrupted_files_are_errors_with_offsets() {
    let bytes = data("variations-v18.xqf");
    for len in 0..bytes.len() {
        let err = xqf::read(&bytes[..len]).unwrap_err();
        assert_eq!(err.format, Format::Xqf);
        match err.location {
            Location::Offset(o) => assert!(o <= len, "{len}: {err}"),
            other => panic!("{other:?}"),
        }
    }
    // A flipped byte anywhere: an error or a game, never a panic.
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[i] ^= flip;
            let _ = xqf::read(&b);
        }
    }
    let mut b = bytes.clone();
    b[2] = 19;
    assert_eq!(xqf::read(&b).unwrap_err().kind, RecordErrorKind::UnknownVersion(19));
    assert_eq!(detect(&b), Format::Xqf);
    assert_eq!(import(&b).unwrap_err().kind, RecordErrorKind::UnknownVersion(19));
}

// ---- XQF: an encrypting encoder for versions 1.1 to 1.8 ----

/// The key bytes of a test file: mask, or-bytes A-D, sum, xy, xyf, xyt.
#[derive(Clone, Copy, Debug)]
struct KeyBytes {
    mask: u8,
    or: [u8; 4],
    sum: u8,
    xy: u8,
    xyf: u8,
    xyt: u8,
}

fn derive(key: u8, factor: u8) -> u8 {
    let k = u32::from(key);
    ((54 * k * k + 221) * u32::from(factor)) as u8
}

/// One record to write: move (none at the root), has a continuation, has an alternative,
/// comment.
type Rec<'a> = (Option<Move>, bool, bool, Option<&'a str>);

/// The records of a line's tree in the file's pre-order.
fn records(line: &Line) -> Vec<Rec<'_>> {
    fn options(line: &Line, i: usize) -> Vec<(&Line, usize)> {
        let mut out = Vec::new();
        if let Some(m) = line.moves.get(i) {
            out.push((line, i));
            out.extend(m.variations.iter().map(|v| (v, 0)));
        }
        out
    }
    fn emit<'a>(opts: &[(&'a Line, usize)], out: &mut Vec<Rec<'a>>) {
        for (k, &(line, i)) in opts.iter().enumerate() {
            let m = &line.moves[i];
            let children = options(line, i + 1);
            out.push((Some(m.mv), !children.is_empty(), k + 1 < opts.len(), m.comment.as_deref()));
            emit(&children, out);
        }
    }
    let first = options(line, 0);
    let mut out = vec![(None, !first.is_empty(), false, line.comment.as_deref())];
    emit(&first, &mut out);
    out
}

/// Writes `game` as an encrypted XQF file of `version` (11-18) with these keys; `turn`
/// overrides the side-to-move byte.
fn encrypt(game: &PgnGame, version: u8, k: KeyBytes, turn: Option<u8>) -> Vec<u8> {
    let plain = xqf::write(game);
    let mut out = plain[..1024].to_vec();
    out[2] = version;
    out[3] = k.mask;
    out[8..12].copy_from_slice(&k.or);
    out[12] = k.sum;
    out[13] = k.xy;
    out[14] = k.xyf;
    out[15] = k.xyt;
    if let Some(t) = turn {
        out[50] = t;
    }
    let pieces = derive(k.xy, k.xy);
    let from = derive(k.xyf, pieces);
    let to = derive(k.xyt, from);
    let comment = (u32::from(k.sum) * 256 + u32::from(k.xy)) % 32000 + 767;
    let seed = b"[(C) Copyright Mr. Dong Shiwei.]";
    let kb =
        [(k.sum & k.mask) | k.or[0], (k.xy & k.mask) | k.or[1], (k.xyf & k.mask) | k.or[2], (k.xyt & k.mask) | k.or[3]];
    let stream: Vec<u8> = (0..32).map(|i| seed[i] & kb[i % 4]).collect();
    // Piece squares: offset, and from 1.2 rotated.
    let squares: Vec<u8> = plain[16..48].to_vec();
    for i in 0..32 {
        let src = if version >= 12 { (i + usize::from(pieces) + 1) % 32 } else { i };
        out[16 + i] = squares[src].wrapping_add(pieces);
    }
    for (mv, next, sibling, text) in records(&game.line) {
        let (f, t) =
            mv.map_or((0, 0), |m| (m.from().file() * 10 + m.from().rank(), m.to().file() * 10 + m.to().rank()));
        let tag = if next { 0x80 } else { 0 } | if sibling { 0x40 } else { 0 } | if text.is_some() { 0x20 } else { 0 };
        out.extend_from_slice(&[
            f.wrapping_add(0x18).wrapping_add(from),
            t.wrapping_add(0x20).wrapping_add(to),
            tag,
            0,
        ]);
        if let Some(text) = text {
            let bytes = encoding_rs::GBK.encode(text).0;
            out.extend_from_slice(&(bytes.len() as u32 + comment).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
    }
    for (p, b) in out.iter_mut().enumerate().skip(1024) {
        *b = b.wrapping_add(stream[p % 32]);
    }
    out
}

const KEYS: [KeyBytes; 3] = [
    KeyBytes { mask: 0xFF, or: [0, 0, 0, 0], sum: 0, xy: 0, xyf: 0, xyt: 0 },
    KeyBytes { mask: 0x5A, or: [0x11, 0x22, 0x44, 0x88], sum: 0x37, xy: 0x9C, xyf: 0x21, xyt: 0xEE },
    KeyBytes { mask: 0xF3, or: [0xA0, 0x05, 0x30, 0x0C], sum: 0xFF, xy: 0x7F, xyf: 0xC8, xyt: 0x03 },
];

/// A game with a non-standard start (Black to move), nested variations and comments.
fn rich_game() -> PgnGame {
    let pgn = "[FEN \"3akab2/9/4b4/p3p3p/2p6/6P2/P3P3P/4B4/4A4/3AK1B2 b - - 0 1\"]\n[Red \"红方\"]\n[Black \"黑方\"]\n[Event \"测试赛\"]\n\
        {开始} 1... e9e8 {将上} (1... a6a5 {卒} 2. i3i4 (2. g4g5) 2... a5a4) 2. e3e4 (2. g0i2 {相} e8e9 (2... c5c4)) 2... e8e9 0-1";
    read_games(pgn)[0].clone().unwrap()
}

#[test]
fn xqf_every_encrypted_version_reads_back() {
    for game in [rich_game(), xqf::read(&data("variations-v18.xqf")).unwrap()] {
        for version in 11..=18 {
            for k in KEYS {
                let bytes = encrypt(&game, version, k, None);
                let back = xqf::read(&bytes).unwrap_or_else(|e| panic!("v{version} {k:?}: {e}"));
                assert_eq!(back.start, game.start, "v{version} {k:?}");
                assert_eq!(back.line, game.line, "v{version} {k:?}");
                assert_eq!(back.tag("Red"), game.tag("Red"));
                assert_eq!(back.result, game.result);
            }
        }
    }
}

#[test]
fn xqf_version_10_round_trip_keeps_everything() {
    let game = rich_game();
    let bytes = xqf::write(&game);
    assert_eq!(&bytes[..3], b"XQ\x0a");
    let back = xqf::read(&bytes).unwrap();
    assert_eq!(back.start, game.start);
    assert_eq!(back.line, game.line);
    assert_eq!(back.result.as_deref(), Some("0-1"));
    assert_eq!((back.tag("Event"), back.tag("Black")), (Some("测试赛"), Some("黑方")));
    assert_eq!(count_comments(&back.line), 4);
    // Real files too: read, write 1.0, read again.
    for name in ["variations-v18.xqf", "endgame-v16.xqf", "game-v10.xqf", "game-v12.xqf"] {
        let game = xqf::read(&data(name)).unwrap();
        let again = xqf::read(&xqf::write(&game)).unwrap();
        assert_eq!((&again.start, &again.line, &again.tags), (&game.start, &game.line, &game.tags), "{name}");
    }
}

#[test]
fn xqf_side_to_move_follows_the_first_move() {
    let game = rich_game();
    assert_eq!(game.start.turn(), Color::Black);
    // The header says Red moves; the first move is Black's.
    let bytes = encrypt(&game, 18, KEYS[1], Some(0));
    let back = xqf::read(&bytes).unwrap();
    assert_eq!(back.start.turn(), Color::Black);
    assert_eq!(back.line, game.line);
    let mut plain = xqf::write(&game);
    plain[50] = 0;
    assert_eq!(xqf::read(&plain).unwrap().start.turn(), Color::Black);
    // The other way round: the header says Black, the game starts with Red.
    let start = read_games("1. h2e2 h9g7 *")[0].clone().unwrap();
    let mut plain = xqf::write(&start);
    plain[50] = 1;
    assert_eq!(xqf::read(&plain).unwrap().main_line(), start.main_line());
}

#[test]
fn xqf_pgn_xqf_keeps_the_tree() {
    for game in
        [rich_game(), xqf::read(&data("variations-v18.xqf")).unwrap(), xqf::read(&data("game-v12.xqf")).unwrap()]
    {
        let pgn = game.write(Notation::Chinese);
        let via = read_games(&pgn)[0].clone().unwrap();
        assert_eq!(via.line, game.line);
        let back = xqf::read(&xqf::write(&via)).unwrap();
        assert_eq!((&back.start, &back.line), (&game.start, &game.line));
    }
}

// ---- DhtmlXQ ----

const DPXQ: &str = "[DhtmlXQ]
[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]
[DhtmlXQ_init]500,350[/DhtmlXQ_init]
[DhtmlXQ_title]许银川 先胜 吕钦[/DhtmlXQ_title]
[DhtmlXQ_event]全国赛[/DhtmlXQ_event]
[DhtmlXQ_date]2005-05-01[/DhtmlXQ_date]
[DhtmlXQ_place]北京[/DhtmlXQ_place]
[DhtmlXQ_red]许银川[/DhtmlXQ_red]
[DhtmlXQ_black]吕钦[/DhtmlXQ_black]
[DhtmlXQ_result]红胜[/DhtmlXQ_result]
[DhtmlXQ_open]中炮对屏风马[/DhtmlXQ_open]
[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
[DhtmlXQ_movelist]7747706279678070[/DhtmlXQ_movelist]
[DhtmlXQ_move_0_1_1]17472042[/DhtmlXQ_move_0_1_1]
[DhtmlXQ_move_0_2_2]1022[/DhtmlXQ_move_0_2_2]
[DhtmlXQ_move_2_3_3]7967[/DhtmlXQ_move_2_3_3]
[DhtmlXQ_move_2_3_4]6987[/DhtmlXQ_move_2_3_4]
[DhtmlXQ_comment0]对局开始[/DhtmlXQ_comment0]
[DhtmlXQ_comment1]中炮||开局[/DhtmlXQ_comment1]
[DhtmlXQ_comment2_2]起马[/DhtmlXQ_comment2_2]
[DhtmlXQ_comment4_3]飞相[/DhtmlXQ_comment4_3]
[/DhtmlXQ]";

#[test]
fn dhtmlxq_with_branches_and_comments() {
    let game = dhtmlxq::read(DPXQ).unwrap();
    assert_eq!(game.tag("Red"), Some("许银川"));
    assert_eq!(game.tag("Site"), Some("北京"));
    assert_eq!(game.tag("Opening"), Some("中炮对屏风马"));
    assert_eq!(game.result.as_deref(), Some("1-0"));
    let main: Vec<String> = game.main_line().iter().map(|m| m.to_string()).collect();
    assert_eq!(main, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(game.line.comment.as_deref(), Some("对局开始"));
    assert_eq!(game.line.moves[0].comment.as_deref(), Some("中炮\n开局"));
    // Branch 1 replaces ply 1; branch 2 replaces ply 2, branches 3 and 4 replace its ply 3.
    let v1 = &game.line.moves[0].variations[0];
    assert_eq!(v1.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["b2e2", "c9e7"]);
    let v2 = &game.line.moves[1].variations[0];
    assert_eq!(v2.moves[0].mv.to_string(), "b9c7");
    assert_eq!(v2.moves[0].comment.as_deref(), Some("起马"));
    // Branch 3 (h0g2) is the same move as the main line's ply 3 but a separate branch.
    assert_eq!(v2.moves[0].variations.len(), 0);
    assert_eq!(v2.moves.len(), 2);
    assert_eq!(v2.moves[1].variations.len(), 1);
    assert_eq!(v2.moves[1].variations[0].moves[0].comment.as_deref(), Some("飞相"));
    // Branch 3 continues branch 2 (which has no ply 3), so three alternatives in all.
    assert_eq!(count_variations(&game.line), 3);
}

#[test]
fn dhtmlxq_inside_html_with_entities_iframe_and_bad_closing_tags() {
    let html = "<div class=\"post\">[DhtmlXQiFrame]<br />[DhtmlXQ_title]红&nbsp;先&amp;胜[/DhtmlXQ_titl]<br />\
        [DhtmlXQ_red]A&#20320;[/DhtmlXQ_red]<br/>[DhtmlXQ_movelist]7747<br>7062[/DhtmlXQ_movelist]<BR>\
        [DhtmlXQ_comment2]&lt;好&gt;[/DhtmlXQ_comment2][/DhtmlXQiFrame]</div>";
    assert_eq!(detect(html.as_bytes()), Format::DhtmlXq);
    let game = dhtmlxq::read(html).unwrap();
    assert_eq!(game.tag("Title"), Some("红 先&胜"));
    assert_eq!(game.tag("Red"), Some("A你"));
    assert_eq!(game.main_line().len(), 2);
    assert_eq!(game.line.moves[1].comment.as_deref(), Some("<好>"));
}

#[test]
fn dhtmlxq_off_board_pieces_gbk_and_several_blocks() {
    // An endgame: most pieces off the board, written 99 or nn; Black to move.
    let mut binit = String::new();
    for i in 0..32 {
        binit.push_str(match i {
            4 => "49",  // red king e0
            0 => "80",  // red rook i9
            20 => "30", // black king d9
            _ if i % 2 == 0 => "99",
            _ => "nn",
        });
    }
    let block =
        format!("[DhtmlXQ][DhtmlXQ_binit]{binit}[/DhtmlXQ_binit][DhtmlXQ_movelist]3031[/DhtmlXQ_movelist][/DhtmlXQ]");
    let game = dhtmlxq::read(&block).unwrap();
    assert_eq!(game.start.fen(), "3k4R/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(game.main_line()[0].to_string(), "d9d8");
    // GBK bytes, two blocks.
    let two = format!("{DPXQ}\n<hr>\n{block}");
    let gbk = encoding_rs::GBK.encode(&two).0;
    let (format, games) = import(&gbk).unwrap();
    assert_eq!(format, Format::DhtmlXq);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Black"), Some("吕钦"));
    assert_eq!(games[1].start.turn(), Color::Black);
}

#[test]
fn dhtmlxq_errors_say_which_line() {
    let bad = DPXQ.replace("[DhtmlXQ_move_2_3_3]7967", "[DhtmlXQ_move_2_3_3]7966");
    let err = dhtmlxq::read(&bad).unwrap_err();
    assert_eq!(err.location, Location::Line(16));
    assert!(matches!(err.kind, RecordErrorKind::BadMove { ply: 3, .. }), "{err}");
    let detached = DPXQ.replace("[DhtmlXQ_move_2_3_4]", "[DhtmlXQ_move_7_3_4]");
    let err = dhtmlxq::read(&detached).unwrap_err();
    assert!(matches!(err.kind, RecordErrorKind::DetachedBranch(_)), "{err}");
    assert_eq!(err.location, Location::Line(17));
}

#[test]
fn dhtmlxq_pgn_dhtmlxq_keeps_the_tree() {
    for game in [dhtmlxq::read(DPXQ).unwrap(), rich_game(), xqf::read(&data("variations-v18.xqf")).unwrap()] {
        let block = dhtmlxq::write(&game);
        let back = dhtmlxq::read(&block).unwrap();
        assert_eq!((&back.start, &back.line), (&game.start, &game.line), "{block}");
        let via = read_games(&back.write(Notation::Iccs))[0].clone().unwrap();
        let again = dhtmlxq::read(&dhtmlxq::write(&via)).unwrap();
        assert_eq!((&again.start, &again.line), (&game.start, &game.line));
        assert_eq!(again.tag("Red"), game.tag("Red"));
        assert_eq!(again.result, game.result.filter(|r| r != "*"));
    }
}

// ---- plain text ----

#[test]
fn text_in_every_notation_and_style() {
    let expected = moves("炮二平五,马８进７,马二进三,车９平８");
    for t in [
        "1. 炮二平五 马８进７ 2. 马二进三 车９平８",
        "1．炮二平五　马8进7\n2．马二进三　车9平8",
        "1、炮二平五 馬８進７ 2、馬二進三 車９平８",
        "炮二平五马８进７马二进三车９平８",
        "1.C2.5 H8+7 2.H2+3 R9.8",
        "1. h2e2 h9g7 2. h0g2 i9h9",
        "1. H2-E2 H9-G7, 2. H0-G2 I9-H9",
        "1.炮二平五 1...马8进7 2.马二进三 2...车9平8",
    ] {
        let game = text::read(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(game.main_line(), expected, "{t}");
        assert_eq!(detect(t.as_bytes()), Format::Text, "{t}");
    }
    let with_fen = "FEN: 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\n红方：甲\n1. 车五进七 {将军} 和棋";
    let game = text::read(with_fen).unwrap();
    assert_eq!(game.start.fen(), "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_eq!(game.tag("Red"), Some("甲"));
    assert_eq!(game.line.moves[0].comment.as_deref(), Some("将军"));
    assert_eq!(game.result.as_deref(), Some("1/2-1/2"));
}

#[test]
fn text_errors_give_line_and_move_number() {
    let err = text::read("1. 炮二平五 马８进７\n2. 马二进三 车９进９").unwrap_err();
    assert_eq!(err.location, Location::Line(2));
    match &err.kind {
        RecordErrorKind::BadMove { ply, number, text, .. } => {
            assert_eq!((*ply, *number, text.as_str()), (4, 2, "车９进９"))
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("move 2"), "{err}");
    assert!(text::read("hello world").is_err());
}

#[test]
fn text_write_reads_back() {
    for game in [rich_game(), xqf::read(&data("game-v10.xqf")).unwrap()] {
        for n in Notation::ALL {
            let t = text::write(&game, n);
            let back = text::read(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!((&back.start, back.main_line()), (&game.start, game.main_line()), "{t}");
            assert_eq!(back.result, game.result.clone().filter(|r| r != "*"));
            assert_eq!((back.tag("Red"), back.tag("Black")), (game.tag("Red"), game.tag("Black")));
        }
    }
}

// ---- the importer ----

#[test]
fn import_tells_the_formats_apart() {
    assert_eq!(import(&data("variations-v18.xqf")).unwrap().0, Format::Xqf);
    assert_eq!(import(DPXQ.as_bytes()).unwrap().0, Format::DhtmlXq);
    let pgn = rich_game().write(Notation::Wxf);
    let (format, games) = import(pgn.as_bytes()).unwrap();
    assert_eq!((format, games[0].line.clone()), (Format::Pgn, rich_game().line));
    assert_eq!(import(b"1. h2e2 h9g7").unwrap().0, Format::Text);
    let err = import(b"").unwrap_err();
    assert_eq!(err.kind, RecordErrorKind::Empty);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1400)) {
        let _ = import(&bytes);
        let mut xqf_like = b"XQ".to_vec();
        xqf_like.extend_from_slice(&bytes);
        let _ = xqf::read(&xqf_like);
        let _ = import(&xqf_like);
    }

    #[test]
    fn hostile_dhtmlxq_never_panics(parts in proptest::collection::vec(0usize..12, 0..40), digits in "[0-9n]{0,80}") {
        let pieces = ["[DhtmlXQ]", "[/DhtmlXQ]", "[DhtmlXQ_movelist]", "[/DhtmlXQ_movelist]", "[DhtmlXQ_move_0_1_1]",
            "[DhtmlXQ_move_1_2_2]", "[DhtmlXQ_comment1]", "[DhtmlXQ_binit]", "<br />", "&#x4e2d;", "7747", digits.as_str()];
        let text: String = parts.iter().map(|&i| pieces[i]).collect();
        let _ = dhtmlxq::read_all(&text);
    }

    /// Corrupting a real encrypted file byte by byte never panics.
    #[test]
    fn corrupted_encrypted_files_never_panic(at in 0usize..1400, value in any::<u8>(), version in 11u8..=18) {
        let mut bytes = encrypt(&rich_game(), version, KEYS[2], None);
        let i = at % bytes.len();
        bytes[i] = value;
        let _ = xqf::read(&bytes);
    }
}

#[test]
fn a_file_holds_at_most_the_games_bound_in_every_format_and_errors_keep_their_lines() {
    use xiangqi::record::{import_each, MAX_RECORD_GAMES};
    let block = |moves: &str| format!("[DhtmlXQ]\n[DhtmlXQ_movelist]{moves}[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n");
    // Lines are counted once over the text: a bad block's line is right after many blocks.
    let text = block("7747").repeat(3) + &block("0000") + &block("7747");
    let games = dhtmlxq::read_all(&text);
    let err = games[3].as_ref().unwrap_err();
    assert_eq!((err.game, err.location), (4, Location::Line(11)));
    assert!(games[4].is_ok());

    let many = block("7747").repeat(MAX_RECORD_GAMES + 3);
    let mut games = import_each(many.as_bytes());
    assert_eq!(games.format(), Format::DhtmlXq);
    assert_eq!(games.next().unwrap().unwrap().main_line().len(), 1);
    let rest: Vec<_> = games.collect();
    assert_eq!(rest.len(), MAX_RECORD_GAMES);
    let err = rest.last().unwrap().as_ref().unwrap_err();
    assert_eq!((err.game, &err.kind), (MAX_RECORD_GAMES + 1, &RecordErrorKind::TooManyGames));
    assert_eq!(err.location, Location::Line(3 * MAX_RECORD_GAMES + 1));

    let pgn = "[Event \"e\"]\n1. h2e2 *\n".repeat(MAX_RECORD_GAMES + 1);
    let (format, games) = xiangqi::record::import_all(pgn.as_bytes());
    assert_eq!((format, games.len()), (Format::Pgn, MAX_RECORD_GAMES + 1));
    let err = games.last().unwrap().as_ref().unwrap_err();
    assert_eq!((err.format, &err.kind), (Format::Pgn, &RecordErrorKind::TooManyGames));
    assert!(err.to_string().contains("more than 100000 games"), "{err}");

    // Nothing that reads as a game is one error, as before.
    let empty: Vec<_> = import_each(b"[Event \"x\"]\n").collect();
    assert_eq!(empty.len(), 1);
    let none: Vec<_> = import_each(b"").collect();
    assert!(matches!(none[..], [Err(ref e)] if e.kind == RecordErrorKind::Empty), "{none:?}");
}
