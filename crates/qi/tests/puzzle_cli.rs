//! `qi puzzle endgames`, `rerate` and `confirm`, run as a program: the JSON other programs read,
//! the grade filter, a file of the first rating formula rated again (once only), and merge
//! refusing to join files of the two formulas.

use serde_json::Value;
use std::process::Command;

fn qi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().unwrap();
    (
        out.status.code().expect("exited, not killed by a signal"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn endgames_are_listed_as_json_and_filtered_by_grade() {
    let (code, out, err) = qi(&["puzzle", "endgames", "--json"]);
    assert_eq!(code, 0, "{err}");
    let all: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert!(all.len() >= 30, "{} endgames", all.len());
    for e in &all {
        for key in ["id", "grade", "fen", "goal", "name_zh", "name_en", "source"] {
            assert!(!e[key].is_null(), "{key} in {e}");
        }
        assert!(["win", "draw"].contains(&e["goal"].as_str().unwrap()));
    }
    let (code, out, _) = qi(&["puzzle", "endgames", "--grade", "5", "--json"]);
    assert_eq!(code, 0);
    let hard: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert!(!hard.is_empty() && hard.iter().all(|e| e["grade"] == 5));
    assert_eq!(hard.len(), all.iter().filter(|e| e["grade"] == 5).count());
    let (code, _, err) = qi(&["puzzle", "endgames", "--grade", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("--grade 9"), "{err}");
}

/// Two puzzles as the first formula rated them: a mate in one seen at once, and its mirror
/// image rated as found after about 1,000 nodes.
const FIRST_FORMULA: &str = "# a run of the first formula
# id\tfen\tmoves\tkind\tmate_in\trating\tthemes\tsource
a1\t4k4/9/9/9/5R3/R8/8p/9/9/3K5 w - - 0 1\ta4e4\tmate\t1\t1040\tmate\ttest 1
b2\t4k4/9/9/9/3R5/8R/p8/9/9/5K3 w - - 0 1\ti4e4\tmate\t1\t1380\tmate\ttest 2
";

#[test]
fn rerate_rates_a_first_formula_file_once_and_merge_keeps_formulas_apart() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.tsv");
    let new = dir.path().join("new.tsv");
    std::fs::write(&old, FIRST_FORMULA).unwrap();
    let (code, out, err) = qi(&["puzzle", "rerate", old.to_str().unwrap(), "--out", new.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["puzzles"], 2);
    let text = std::fs::read_to_string(&new).unwrap();
    assert!(text.contains("# ratings: formula 2"), "{text}");
    assert!(text.starts_with("# a run of the first formula\n"));
    assert_eq!(text.matches("# id\t").count(), 1, "the column names once");
    let (code, out, _) = qi(&["puzzle", "list", "--file", new.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let listed: Vec<Value> = serde_json::from_str(&out).unwrap();
    let ratings: Vec<u64> = listed.iter().map(|p| p["rating"].as_u64().unwrap()).collect();
    assert!(ratings.iter().all(|r| (600..=2400).contains(r)), "{ratings:?}");
    // The one the engine took longer to find rates higher, and comes last.
    assert_eq!(listed[1]["id"], "b2");
    assert!(ratings[1] > ratings[0], "{ratings:?}");
    // Once only: its ratings are no longer of the first formula.
    let (code, _, err) = qi(&["puzzle", "rerate", new.to_str().unwrap(), "--out", new.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("already rated"), "{err}");
    let joined = dir.path().join("joined.tsv");
    let (code, _, err) =
        qi(&["puzzle", "merge", old.to_str().unwrap(), new.to_str().unwrap(), "--out", joined.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("qi puzzle rerate"), "{err}");
}

#[test]
fn confirm_keeps_what_a_deeper_search_agrees_with_and_says_why_it_takes_the_rest_out() {
    // Two true mates in one, and the first position again as a "win" by a rook move that does
    // not mate: the fresh search mates at once and takes the third out (another first move).
    let file = format!("{FIRST_FORMULA}c3\t4k4/9/9/9/5R3/R8/8p/9/9/3K5 w - - 0 1\ta4a5\twin\t-\t1100\t-\ttest 3\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three.tsv");
    let out_path = dir.path().join("confirmed.tsv");
    std::fs::write(&path, file).unwrap();
    let (code, out, err) = qi(&[
        "puzzle",
        "confirm",
        path.to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
        "--nodes",
        "20000",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["checked"], 3);
    assert_eq!(summary["kept"], 2);
    assert_eq!(summary["taken_out"][0]["id"], "c3");
    assert_eq!(summary["taken_out"][0]["reason"], "NotConfirmed");
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert!(text.contains("qi puzzle confirm --nodes 20000"), "{text}");
    assert_eq!(text.matches("# id\t").count(), 1, "the column names once");
    let (code, out, _) = qi(&["puzzle", "list", "--file", out_path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let kept: Vec<Value> = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = kept.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a1", "b2"]);
    // Merging keeps the confirming search in the header's history.
    let joined = dir.path().join("joined.tsv");
    let (code, _, err) = qi(&["puzzle", "merge", out_path.to_str().unwrap(), "--out", joined.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&joined).unwrap();
    assert!(text.contains("# qi puzzle confirm --nodes 20000"), "{text}");
    let (code, _, err) = qi(&["puzzle", "confirm", path.to_str().unwrap(), "--out", "x.tsv", "--nodes", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("--nodes"), "{err}");
}

#[test]
fn the_shipped_set_is_listed_by_theme_and_mate_length() {
    let count = |args: &[&str]| {
        let mut all = vec!["puzzle", "list", "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = qi(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Vec<Value>>(&out).unwrap()
    };
    let every = count(&[]);
    let pins = count(&["--theme", "pin"]);
    assert!(!pins.is_empty() && pins.len() < every.len());
    assert!(pins.iter().all(|p| p["themes"].as_array().unwrap().iter().any(|t| t == "pin")));
    let by_hand = every.iter().filter(|p| p["themes"].as_array().unwrap().iter().any(|t| t == "pin")).count();
    assert_eq!(pins.len(), by_hand);
    let mates_in_two = count(&["--mate-in", "2", "--kind", "mate"]);
    assert!(!mates_in_two.is_empty());
    assert!(mates_in_two.iter().all(|p| p["mate_in"] == 2 && p["kind"] == "mate"));
    // A win is never a mate in two; an unknown theme or length is refused with the choices.
    assert!(count(&["--mate-in", "2", "--kind", "win"]).is_empty());
    let (code, _, err) = qi(&["puzzle", "list", "--theme", "fork"]);
    assert_eq!(code, 1);
    assert!(err.contains("double-attack"), "{err}");
    let (code, _, err) = qi(&["puzzle", "list", "--mate-in", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("1 to 7"), "{err}");
}
