//! Opening names in the CLI: `qi opening`, the `ecco` and `opening` keys of `qi record show
//! --json`, its text line, and the `ECCO` / `Opening` / `Variation` headers of PGN export.

use serde_json::{json, Value};
use std::process::Command;

fn qi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs");
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The screen horse with both 7th pawns advanced and the edge cannon, Black retreating it.
const C41: &str = "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵七进一 炮8平9 车二平三 炮9退1";

#[test]
fn opening_from_moves_and_from_a_fen() {
    let (ok, out, err) = qi(&["opening", "--json", C41]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["code"], "C41");
    assert_eq!(v["name_zh"], "中炮过河车互进七兵对屏风马平炮兑车 黑退边炮");
    assert!(v["name_en"].as_str().unwrap().starts_with("Central cannon"));

    // A transposed order in ICCS gives the same code.
    let (ok, out, _) = qi(&["opening", "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "h0h6"]);
    assert!(ok);
    assert!(out.starts_with("C30 中炮过河车互进七兵对屏风马"), "{out}");

    // The mirror image of the screen horse, as a FEN.
    let fen = "1rbakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/2N1C2C1/9/1RBAKABNR w - - 0 4";
    let (ok, out, err) = qi(&["opening", "--json", fen]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["code"].as_str(), v["name_zh"].as_str()), (Some("C00"), Some("中炮对屏风马")), "{fen}");

    let (ok, out, _) = qi(&["opening", "--json", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert!(ok);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), json!({"code": null, "name_zh": null, "name_en": null}));

    let (ok, _, err) = qi(&["opening", "炮二平五", "车9进9"]);
    assert!(!ok);
    assert!(err.contains("move 2"), "{err}");
}

#[test]
fn record_show_and_pgn_export_name_the_opening() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("a.txt");
    // A plain-text record: numbered moves, then the result.
    let words: Vec<&str> = C41.split(' ').collect();
    let numbered: Vec<String> =
        words.chunks(2).enumerate().map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" "))).collect();
    std::fs::write(&plain, format!("{} 和棋", numbered.join(" "))).unwrap();
    let plain = plain.to_str().unwrap();

    let (ok, out, err) = qi(&["record", "show", "--json", plain]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"][0]["ecco"], "C41");
    assert_eq!(v["games"][0]["opening"], "中炮过河车互进七兵对屏风马平炮兑车 黑退边炮");

    let (ok, out, _) = qi(&["record", "show", plain]);
    assert!(ok);
    assert!(out.contains("  opening: C41 中炮过河车互进七兵对屏风马平炮兑车 黑退边炮 (Central cannon"), "{out}");

    let (ok, out, err) = qi(&["record", "convert", "--to", "pgn", plain]);
    assert!(ok, "{err}");
    assert!(out.contains("[ECCO \"C41\"]"), "{out}");
    assert!(out.contains("[Opening \"中炮过河车互进七兵对屏风马平炮兑车\"]"), "{out}");
    assert!(out.contains("[Variation \"中炮过河车互进七兵对屏风马平炮兑车 黑退边炮\"]"), "{out}");

    // A game that names its opening keeps its own naming.
    let named = dir.path().join("b.pgn");
    std::fs::write(&named, "[ECCO \"C40\"]\n[Opening \"x\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let (ok, out, err) = qi(&["record", "convert", "--to", "pgn", named.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("[ECCO \"C40\"]") && out.contains("[Opening \"x\"]") && !out.contains("Variation"), "{out}");
    // A game from a set-up position that reaches no table position gets no headers and null keys.
    let setup = dir.path().join("c.pgn");
    std::fs::write(&setup, "[FEN \"3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1\"]\n\n1. e1d0 *\n").unwrap();
    let (ok, out, _) = qi(&["record", "convert", "--to", "pgn", setup.to_str().unwrap()]);
    assert!(ok);
    assert!(!out.contains("ECCO"), "{out}");
    let (ok, out, _) = qi(&["record", "show", "--json", setup.to_str().unwrap()]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((&v["games"][0]["ecco"], &v["games"][0]["opening"]), (&Value::Null, &Value::Null));
}
