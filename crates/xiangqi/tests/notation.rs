//! Notation round trips: every move of every game in tests/data/games.tsv, and every legal move
//! of random games crowded with pawns, formats and parses back to itself in every notation (ICCS,
//! WXF, Chinese in both scripts, Vietnamese).

use xiangqi::notation::{format, parse, parse_as, Notation, NotationError};
use xiangqi::{Move, Position};

const GAMES: &str = include_str!("data/games.tsv");

fn round_trip(pos: &Position, m: Move) {
    for n in Notation::ALL {
        let text = format(pos, m, n);
        assert_eq!(parse_as(pos, &text, n), Ok(m), "{n} {text:?} for {m} in {}", pos.fen());
        // `P3.4` is a cannon's advance in Vietnamese but a pawn's sideways move in WXF, which
        // `parse` prefers when it is legal.
        let wxf_reading = n == Notation::Vietnamese && parse_as(pos, &text, Notation::Wxf).is_ok();
        if !wxf_reading {
            assert_eq!(parse(pos, &text), Ok(m), "{n} {text:?} for {m} in {}", pos.fen());
        }
    }
}

#[test]
fn every_game_move_round_trips() {
    let mut moves = 0;
    for line in GAMES.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let mut pos: Position = cols[1].parse().unwrap();
        for text in cols[2].split_whitespace() {
            let m: Move = text.parse().unwrap();
            round_trip(&pos, m);
            pos.play(m).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
            moves += 1;
        }
    }
    assert!(moves > 100_000, "{moves} moves");
}

/// A small xorshift generator: the test must not depend on a crate's random stream.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn every_legal_move_of_random_games_round_trips_and_reads_uniquely() {
    // Pawn-heavy starts so that tandem pawns (two, three, four, five on a file, two files) occur.
    let starts = [
        "4k4/9/9/9/9/2P1P1P2/2P1P4/9/9/4K4 w - - 0 1",
        "3k5/9/9/2P6/2P6/2P3P2/6P2/9/9/4K4 w - - 0 1",
        "4k4/9/9/2p6/2p6/2p6/2p6/2p6/9/3K5 b - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for fen in starts {
        for _ in 0..40 {
            let mut pos: Position = fen.parse().unwrap();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for n in Notation::ALL {
                    let mut texts: Vec<String> = moves.iter().map(|&m| format(&pos, m, n)).collect();
                    texts.sort();
                    texts.dedup();
                    assert_eq!(texts.len(), moves.len(), "{n} names two moves alike in {}", pos.fen());
                }
                for &m in moves.iter() {
                    round_trip(&pos, m);
                    checked += 1;
                }
                let m = moves[rng.below(moves.len())];
                pos.play(m).unwrap();
            }
        }
    }
    assert!(checked > 10_000);
}

fn moves_of(fen: &str, texts: &[&str]) -> Vec<String> {
    let pos: Position = fen.parse().unwrap();
    texts.iter().map(|t| parse(&pos, t).map(|m| m.to_string()).unwrap_or_else(|e| format!("error: {e}"))).collect()
}

#[test]
fn standard_examples() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(
        moves_of(start, &["C2.5", "H2+3", "R1+1", "炮二平五", "車九進一", "俥一进一", "c2=5", "h2e2", "H2-E2"]),
        ["h2e2", "h0g2", "i0i1", "h2e2", "a0a1", "i0i1", "h2e2", "h2e2", "h2e2"]
    );
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    assert_eq!(
        moves_of(black, &["马8进7", "馬８進７", "H8+7", "砲8平5", "C8.5", "卒7进1"]),
        ["h9g7", "h9g7", "h9g7", "h7e7", "h7e7", "g6g5"]
    );
}

#[test]
fn doubled_and_tandem_pieces() {
    // Red cannons on e2 and e4 (file 5), pawns: three on file 7 (c), two on file 3 (g).
    let fen = "3k5/2P6/2P6/2P3P2/6P2/4C4/9/4C4/9/4K4 w - - 0 1";
    let pos: Position = fen.parse().unwrap();
    let name = |iccs: &str, n: Notation| format(&pos, iccs.parse().unwrap(), n);
    assert_eq!(name("e4d4", Notation::Wxf), "C+.6");
    assert_eq!(name("e2d2", Notation::Wxf), "C-.6");
    assert_eq!(name("e4d4", Notation::Chinese), "前炮平六");
    assert_eq!(name("c8b8", Notation::Wxf), "7+.8");
    assert_eq!(name("c7b7", Notation::Wxf), "77.8");
    assert_eq!(name("c6b6", Notation::Wxf), "7-.8");
    assert_eq!(name("g6f6", Notation::Wxf), "3+.4");
    assert_eq!(name("c7b7", Notation::Chinese), "中七平八");
    assert_eq!(name("g5h5", Notation::Chinese), "后三平二");
    assert_eq!(
        moves_of(fen, &["+C.6", "C-.6", "后炮平六", "77.8", "3-.2", "前七进一"]),
        ["e4d4", "e2d2", "e2d2", "c7b7", "g5h5", "c8c9"]
    );
    // Five pawns on one file: ++ P+ P3 P- -- and 前 二 三 四 五 (一 二 三 四 五 accepted).
    let five = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
    let pos: Position = five.parse().unwrap();
    let wxf: Vec<String> = ["c9b9", "c8b8", "c7b7", "c6b6", "c5b5"]
        .iter()
        .map(|m| format(&pos, m.parse().unwrap(), Notation::Wxf))
        .collect();
    assert_eq!(wxf, ["++.8", "P+.8", "P7.8", "P-.8", "--.8"]);
    let cn: Vec<String> = ["c9b9", "c8b8", "c7b7", "c6b6", "c5b5"]
        .iter()
        .map(|m| format(&pos, m.parse().unwrap(), Notation::Chinese))
        .collect();
    assert_eq!(cn, ["前兵平八", "二兵平八", "三兵平八", "四兵平八", "五兵平八"]);
    assert_eq!(moves_of(five, &["一兵平八", "中兵平八", "后兵平八", "5兵平八"]), ["c9b9", "c7b7", "c5b5", "c5b5"]);
    // Four pawns: ++ P+ P- --.
    let four = "2P2k3/2P6/2P6/2P6/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        moves_of(four, &["++.8", "P+.8", "P-.8", "--.8", "前兵平八", "四兵平八"]),
        ["c9b9", "c8b8", "c7b7", "c6b6", "c9b9", "c6b6"]
    );
}

#[test]
fn errors_are_precise() {
    let pos = Position::startpos();
    assert_eq!(parse(&pos, ""), Err(NotationError::Empty));
    assert!(matches!(parse(&pos, "C3.5"), Err(NotationError::NoSuchPiece { .. })));
    assert!(matches!(parse(&pos, "C2+9"), Err(NotationError::Illegal { .. })));
    assert!(matches!(parse(&pos, "Z2.5"), Err(NotationError::UnknownPiece('Z'))));
    // X is the Vietnamese rook (xe), and there is none on file 2.
    assert!(matches!(parse(&pos, "X2.5"), Err(NotationError::NoSuchPiece { .. })));
    assert!(matches!(parse(&pos, "Q2/5"), Err(NotationError::UnknownPiece('Q'))));
    assert!(matches!(parse(&pos, "龙二平五"), Err(NotationError::UnknownPiece('龙'))));
    assert!(matches!(parse(&pos, "h2h8"), Err(NotationError::Illegal { .. })));
    assert!(matches!(parse(&pos, "hello"), Err(NotationError::Syntax { .. })));
    // Doubled rooks on one file named by the file alone: ambiguous when both can move.
    let pos: Position = "3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1".parse().unwrap();
    assert!(matches!(parse(&pos, "R9.8"), Err(NotationError::Ambiguous { .. })));
    assert_eq!(parse(&pos, "R+.8").unwrap().to_string(), "a3b3");
}

#[test]
fn king_advisor_elephant_and_black_tandems() {
    // Red: king e0, advisors d0 and d2 (both on file 6), elephants c0 and c4 (file 7).
    let fen = "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1";
    let pos: Position = fen.parse().unwrap();
    let wxf = |m: &str| format(&pos, m.parse().unwrap(), Notation::Wxf);
    let cn = |m: &str| format(&pos, m.parse().unwrap(), Notation::Chinese);
    assert_eq!([wxf("e0e1"), cn("e0e1")], ["K5+1", "帅五进一"]);
    // Two advisors on one file are told apart by their direction, not by front and rear.
    assert_eq!([wxf("d0e1"), wxf("d2e1"), cn("d2e1")], ["A6+5", "A6-5", "仕六退五"]);
    assert_eq!([wxf("c0e2"), wxf("c4e2"), cn("c4a2")], ["E7+5", "E7-5", "相七退九"]);
    assert_eq!(moves_of(fen, &["前仕退五", "后仕进五", "帥五进一", "A6-5"]), ["d2e1", "d0e1", "e0e1", "d2e1"]);
    // Black's doubled rooks on its file 2 (b): the front one is nearer Red.
    let black = "1r2k4/9/9/9/9/1r7/9/9/9/3K5 b - - 0 1";
    let pos: Position = black.parse().unwrap();
    assert_eq!(format(&pos, "b4b0".parse().unwrap(), Notation::Wxf), "R++4");
    assert_eq!(format(&pos, "b4b0".parse().unwrap(), Notation::Chinese), "前车进4");
    assert_eq!(format(&pos, "b9a9".parse().unwrap(), Notation::Chinese), "后车平1");
    assert_eq!(moves_of(black, &["前車進4", "後车平1", "-R.1", "R-.1"]), ["b4b0", "b9a9", "b9a9", "b9a9"]);
}
