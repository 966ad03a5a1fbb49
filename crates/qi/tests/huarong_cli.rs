//! `qi huarong random` and `qi huarong hardest` through the real binary: every random layout
//! solves in exactly the steps asked for, with the keys `qi huarong solve --json` uses.

use serde_json::Value;
use std::process::Command;

fn qi(args: &[&str]) -> (bool, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.success(), serde_json::from_str(&stdout).unwrap_or(Value::Null), stderr)
}

/// No database here: the piece set is surveyed in-process.
const NO_DB: &str = "/nonexistent/huarong.qdb";

#[test]
fn random_steps_n_always_solves_in_n() {
    for (i, steps) in [1u32, 2, 9, 27, 50, 64, 81, 93].into_iter().enumerate() {
        let seed = (i * 7919).to_string();
        let n = steps.to_string();
        let (ok, v, err) =
            qi(&["huarong", "random", "--steps", &n, "--pieces", "4V+1H+4S", "--seed", &seed, "--db", NO_DB, "--json"]);
        assert!(ok, "{err}");
        assert_eq!(v["steps"], steps);
        assert_eq!(v["source"], "search");
        assert_eq!(v["pieces"], "C+4V+1H+4S");
        let layout = v["layout"].as_str().unwrap();
        let (ok, solved, err) = qi(&["huarong", "solve", layout, "--json"]);
        assert!(ok, "{err}");
        assert_eq!(solved["steps"], steps, "{layout}");
        assert_eq!(solved["share_code"], v["share_code"]);
    }
}

#[test]
fn random_in_a_range_is_repeatable_by_seed() {
    let args = [
        "huarong",
        "random",
        "--min",
        "10",
        "--max",
        "30",
        "--pieces",
        "横刀立马",
        "--seed",
        "5",
        "--db",
        NO_DB,
        "--json",
    ];
    let (ok, first, err) = qi(&args);
    assert!(ok, "{err}");
    let steps = first["steps"].as_u64().unwrap();
    assert!((10..=30).contains(&steps));
    let (_, again, _) = qi(&args);
    assert_eq!(first, again);
}

#[test]
fn hardest_of_a_piece_set_and_bad_arguments() {
    let (ok, v, err) = qi(&["huarong", "hardest", "--pieces", "4V+1H+4S", "--db", NO_DB, "--json"]);
    assert!(ok, "{err}");
    assert_eq!(v["steps"], 93);
    assert_eq!(v["count"], 2);
    let layout = v["layouts"][0]["layout"].as_str().unwrap();
    let (_, solved, _) = qi(&["huarong", "solve", layout, "--json"]);
    assert_eq!(solved["steps"], 93);

    let (ok, _, err) = qi(&["huarong", "random", "--steps", "94", "--pieces", "4V+1H+4S", "--db", NO_DB]);
    assert!(!ok && err.contains("no solvable layout"), "{err}");
    let (ok, _, err) = qi(&["huarong", "random", "--pieces", "9V+9H", "--db", NO_DB]);
    assert!(!ok && err.contains("fewer than two empty cells"), "{err}");
    let (ok, _, err) = qi(&["huarong", "random", "--min", "30", "--max", "10", "--db", NO_DB]);
    assert!(!ok && err.contains("--min"), "{err}");
}

/// A small database of two piece sets, written by the library as `qi huarong survey` does.
fn small_database(name: &str) -> std::path::PathBuf {
    use huarong::survey::Survey;
    use huarong::PieceSet;
    let sets =
        [PieceSet { vertical: 0, horizontal: 1, soldiers: 2 }, PieceSet { vertical: 4, horizontal: 1, soldiers: 4 }];
    let survey = Survey::run_sets(&sets, &|_| {});
    let path = std::env::temp_dir().join(format!("qi-huarong-{}-{name}.qdb", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    survey.database.write(&mut file).unwrap();
    path
}

#[test]
fn random_lookup_and_hardest_read_the_database() {
    let path = small_database("read");
    let db = path.to_str().unwrap();
    // Without --pieces the header's counts choose the set; only that set is read.
    for (i, steps) in [3u32, 40, 81, 90].into_iter().enumerate() {
        let (seed, n) = (i.to_string(), steps.to_string());
        let (ok, v, err) = qi(&["huarong", "random", "--steps", &n, "--seed", &seed, "--db", db, "--json"]);
        assert!(ok, "{err}");
        assert_eq!((v["steps"].as_u64(), v["source"].as_str()), (Some(u64::from(steps)), Some("database")));
        let (ok, found, err) = qi(&["huarong", "lookup", v["layout"].as_str().unwrap(), "--db", db, "--json"]);
        assert!(ok, "{err}");
        assert_eq!(found["steps"], steps);
    }
    let (ok, v, err) = qi(&["huarong", "random", "--steps", "200", "--db", db]);
    assert!(!ok && v.is_null() && err.contains("no solvable layout"), "{err}");
    let (ok, v, err) = qi(&["huarong", "lookup", "横刀立马", "--db", db, "--json"]);
    assert!(ok, "{err}");
    assert_eq!(v["steps"], 81);
    let (ok, v, err) = qi(&["huarong", "hardest", "--db", db, "--json"]);
    assert!(ok, "{err}");
    let (_, searched, _) = qi(&["huarong", "hardest", "--pieces", "4V+1H+4S", "--db", NO_DB, "--json"]);
    assert_eq!(v["steps"], searched["steps"]);
    assert_eq!(v["layouts"], searched["layouts"]);
    std::fs::remove_file(path).unwrap();
}
