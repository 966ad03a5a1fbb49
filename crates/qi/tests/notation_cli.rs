//! `qi moves convert`, `qi game status` and `qi pgn convert` end to end.

use std::process::Command;

fn qi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs");
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn moves_convert() {
    let (ok, out, _) = qi(&["moves", "convert", "--to", "chinese", "h2e2 h9g7", "H2+3"]);
    assert!(ok);
    assert_eq!(out.trim(), "炮二平五 马8进7 马二进三");
    let (ok, out, _) = qi(&["moves", "convert", "--to", "iccs", "--json", "炮二平五", "馬８進７"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"], serde_json::json!(["h2e2", "h9g7"]));
    assert_eq!(v["fen"], "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    let (ok, out, _) = qi(&["moves", "convert", "--to", "vietnamese", "h2e2 h9g7 i0i1 i9h9 i1i0"]);
    assert!(ok);
    assert_eq!(out.trim(), "P2-5 M8.7 X1.1 X9-8 X1/1");
    let (ok, out, _) = qi(&["moves", "convert", "--to", "traditional", "--json", "P2-5", "M8.7", "h0g2", "h7h0"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"], serde_json::json!(["炮二平五", "馬８進７", "傌二進三", "炮８進７"]));
    let (ok, out, _) = qi(&["moves", "convert", "--to", "iccs", "Ｐ２－５ m8.7 X1.1"]);
    assert!(ok);
    assert_eq!(out.trim(), "h2e2 h9g7 i0i1");
    let (ok, _, err) = qi(&["moves", "convert", "--to", "wxf", "h2e2", "C9.5"]);
    assert!(!ok);
    assert!(err.contains("move 2"), "{err}");
}

#[test]
fn game_status() {
    let fen = "4k4/9/9/9/R8/9/9/9/9/5K3 w - - 0 1";
    let moves = "a5e5 e9d9 e5d5 d9e9 d5e5 e9d9 e5d5 d9e9 d5e5";
    let (ok, out, _) = qi(&["game", "status", "--fen", fen, moves]);
    assert!(ok);
    assert_eq!(out.trim(), "black wins (perpetual check)");
    let (ok, out, _) = qi(&["game", "status", "--json", "h2e2"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["outcome"].as_str(), v["reason"].is_null()), (Some("ongoing"), true));
    let (_, out, _) = qi(&["game", "status", "--json", "--fen", "3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1", "R1+9"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["outcome"].as_str(), v["reason"].as_str()), (Some("red wins"), Some("checkmate")));
}

#[test]
fn pgn_convert_reports_bad_games_and_converts_the_rest() {
    let dir = std::env::temp_dir().join(format!("qi-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    // The second of three games has an unreadable move.
    std::fs::write(
        &file,
        "[Red \"A\"]\n1. h2e2 h9g7 *\n\n[Red \"B\"]\n1. h2e2 Q2.5 *\n\n[Red \"C\"]\n1. 炮二平五 1-0\n",
    )
    .unwrap();
    let (ok, out, err) = qi(&["pgn", "convert", file.to_str().unwrap(), "--to", "wxf"]);
    assert!(!ok);
    assert!(err.contains("game 2, line 5"), "{err}");
    assert!(out.contains("1. C2.5 H8+7 *"), "{out}");
    assert!(out.contains("[Red \"C\"]") && out.contains("1. C2.5 1-0"), "{out}");
    assert!(!out.contains("[Red \"B\"]"));
    std::fs::remove_dir_all(&dir).ok();
}
