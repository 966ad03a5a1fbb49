//! `qi explore`: the opening explorer on the master games, as text and JSON, from moves in any
//! notation or a FEN, with the counts the explorer crate checks against the games file.

use serde_json::Value;
use std::process::Command;

fn qi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs");
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &[&str]) -> Value {
    let (ok, out, err) = qi(args);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn explore_the_start_and_a_line_in_any_notation() {
    let start = json(&["explore", "--json"]);
    assert_eq!(start["total"], 2401);
    assert_eq!(start["ecco"]["code"], "A00");
    assert_eq!(start["depth"], 30);
    let moves = start["moves"].as_array().unwrap();
    let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(sum, 2401);
    // Most played first; the central cannon leads.
    assert_eq!(moves[0]["move"], "h2e2");
    assert_eq!(moves[0]["wxf"], "C2.5");
    assert_eq!(moves[0]["chinese"], "炮二平五");
    assert!(moves.windows(2).all(|w| w[0]["games"].as_u64() >= w[1]["games"].as_u64()));
    for m in moves {
        let sum = ["red", "draw", "black"].iter().map(|k| m[k].as_u64().unwrap()).sum::<u64>();
        assert!(sum <= m["games"].as_u64().unwrap());
        let typical: Vec<&str> = m["typical"]["moves"].as_str().unwrap().split(' ').collect();
        assert_eq!(typical[m["typical"]["ply"].as_u64().unwrap() as usize], m["move"]);
    }

    // The same position in ICCS, in Chinese, and as a FEN.
    let iccs = json(&["explore", "--json", "h2e2", "h9g7"]);
    let chinese = json(&["explore", "--json", "炮二平五 马8进7"]);
    assert_eq!(iccs, chinese);
    let fen = iccs["fen"].as_str().unwrap();
    let by_fen = json(&["explore", "--json", fen]);
    assert_eq!(by_fen["moves"], iccs["moves"]);
    // Its games are those that answered h2e2 with h9g7 (no other order reaches it).
    let after_cannon = json(&["explore", "--json", "h2e2"]);
    let h9g7 = after_cannon["moves"].as_array().unwrap().iter().find(|m| m["move"] == "h9g7").unwrap();
    assert_eq!(iccs["total"], h9g7["games"]);

    let (ok, out, _) = qi(&["explore", "h2e2"]);
    assert!(ok);
    assert!(out.lines().nth(1).unwrap().ends_with(" games"), "{out}");
    assert!(out.contains("h9g7"), "{out}");
}

#[test]
fn a_position_no_game_reached_and_bad_input() {
    let none = json(&["explore", "--json", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert_eq!(none["total"], 0);
    assert_eq!(none["moves"], Value::Array(vec![]));
    assert_eq!(none["ecco"], Value::Null);
    let (ok, out, _) = qi(&["explore", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert!(ok);
    assert!(out.contains("no master game reached this position in its first 30 plies"), "{out}");

    let (ok, _, err) = qi(&["explore", "炮二平五", "车9进9"]);
    assert!(!ok);
    assert!(err.contains("move 2"), "{err}");
    let (ok, _, err) = qi(&["explore", "not/a/fen"]);
    assert!(!ok);
    assert!(err.contains("bad FEN"), "{err}");
}
