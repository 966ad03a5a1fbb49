//! `qi engine`: the UCI / UCCI loop and `go`, fed through real pipes.

use std::io::Write;
use std::process::{Command, Stdio};

/// Sends `input` to `qi engine uci` and returns what it printed (the loop ends at `quit`).
fn session(input: &str) -> String {
    session_bytes(input.as_bytes())
}

/// [`session`] for input that need not be text.
fn session_bytes(input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["engine", "uci"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn uci_handshake_announces_the_options() {
    let out = session("uci\nisready\nquit\n");
    for want in [
        "id name Qi",
        "option name Hash type spin",
        "option name MultiPV",
        "option name Move Overhead",
        "uciok",
        "readyok",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
}

#[test]
fn too_large_hash_is_refused_without_an_abort() {
    let out = session(
        "uci\nsetoption name Hash value 1099511627776\nisready\nposition startpos\ngo depth 2\nisready\nquit\n",
    );
    assert!(out.contains("info string error: Hash 1099511627776 is out of range"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

#[test]
fn a_bad_position_leaves_no_stale_position() {
    let out = session("uci\nposition startpos moves h2e2\nposition startpos moves h2e9\ngo depth 2\nquit\n");
    assert!(out.contains("info string error: illegal move h2e9"), "{out}");
    assert!(out.contains("bestmove (none)"), "{out}");
}

#[test]
fn out_of_range_go_is_clamped_not_depth_one() {
    // Black to move with 1 ms on its clock: the search ends by itself.
    let out = session("uci\nposition startpos moves h2e2\ngo depth 4294967297 btime 1\nisready\nquit\n");
    assert!(out.contains("info string depth 4294967297 is out of range: using 80"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

#[test]
fn a_line_that_is_not_utf8_does_not_end_the_engine() {
    // `printf 'uci\n\xff\xfe\nisready\n' | qi engine uci`, as a GUI sending a GBK path does.
    let out = session_bytes(b"uci\n\xff\xfe\nisready\nposition startpos\ngo depth 1\nquit\n");
    assert!(out.contains("info string error: a line that is not UTF-8 was ignored\nreadyok\n"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

#[test]
fn go_nodes_finishes_with_seldepth_and_hashfull() {
    let out = session("uci\nposition startpos\ngo nodes 20000\nisready\n");
    let info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(info.contains(" seldepth ") && info.contains(" hashfull "), "{info}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn multipv_reports_several_lines() {
    let out = session("uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 3\nisready\n");
    for k in 1..=3 {
        assert!(out.contains(&format!("multipv {k} ")), "{out}");
    }
}

#[test]
fn ucci_dialect_from_the_first_command() {
    let out = session(
        "ucci\nsetoption hashsize 8\nposition startpos\nbanmoves h2e2 b2e2\ngo depth 3\nprobe startpos\nquit\n",
    );
    assert!(out.contains("ucciok"), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
    assert!(!best.starts_with("h2e2") && !best.starts_with("b2e2"), "{best}");
    assert!(out.contains("pophash"), "{out}");
}

#[test]
fn infinite_search_waits_for_stop() {
    let out = session("uci\nposition startpos\ngo infinite\nstop\nquit\n");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn go_refuses_out_of_range_arguments() {
    for args in [["--depth", "4294967297"], ["--depth", "0"], ["--hash", "1099511627776"], ["--multipv", "0"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(["engine", "go"]).args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"), "{args:?}");
    }
}

/// `qi engine tune` on real games: 15 games of `qi match` (qi against Fairy-Stockfish at
/// 100 ms per move, written by `qi match --pgn` on 2026-12-01), in `tests/data/match-games.pgn`.
#[test]
fn tune_fits_the_weights_to_game_results() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/match-games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["engine", "tune", games, "--rounds", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 15);
    // Every fifth game is held out: 3 of 15.
    assert!(v["samples"].as_u64().unwrap() > 4 * v["held_out_samples"].as_u64().unwrap() / 2);
    let (before, after) = (v["loss_before"].as_f64().unwrap(), v["loss_after"].as_f64().unwrap());
    assert!(after < before && after > 0.0, "{before} -> {after}");
    assert_eq!(v["weights"]["material pawn (mg)"], 100, "the pawn anchors the scale");
    // Every term of the evaluation, middlegame and endgame.
    assert_eq!(v["weights"].as_object().unwrap().len(), xiangqi_engine::Weights::names().count());
    assert!(v["weights"]["palace danger (per 256 squared units) (mg)"].is_i64(), "{}", v["weights"]);
}

#[test]
fn tune_refuses_files_without_finished_games() {
    let dir = std::env::temp_dir().join(format!("qi-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("unfinished.pgn");
    std::fs::write(&file, "[Event \"x\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(["engine", "tune"]).arg(&file).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no finished games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_prints_the_library_signature() {
    let out =
        Command::new(env!("CARGO_BIN_EXE_qi")).args(["engine", "bench", "--depth", "5", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lib = xiangqi_engine::bench::run(5, |_, _, _| {});
    assert_eq!(v["nodes"], lib.nodes, "{v}");
    assert_eq!(v["positions"], xiangqi_engine::bench::POSITIONS.len());
}

/// The loop a net is made by: self-play data, a net trained on it, and the engine searching
/// with that net (`bench --eval-file`), all through the command line.
#[test]
fn datagen_then_train_then_bench_with_the_net() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.bin");
    let net = dir.path().join("net.nnue");
    let qi = env!("CARGO_BIN_EXE_qi");
    let out = std::process::Command::new(qi)
        .args(["engine", "datagen", "--positions", "300", "--nodes", "200", "--threads", "2", "--seed", "3", "--json"])
        .arg("--out")
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["positions"], 300);
    let out = std::process::Command::new(qi)
        .args(["engine", "train", "--epochs", "2", "--batch", "64", "--json"])
        .arg(&data)
        .arg("--out")
        .arg(&net)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["epochs"].as_array().unwrap().len(), 2);
    assert_eq!(summary["bytes"], std::fs::metadata(&net).unwrap().len());
    let out = std::process::Command::new(qi)
        .args(["engine", "bench", "--depth", "3", "--json", "--eval-file"])
        .arg(&net)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A damaged net is refused with a message, not a panic.
    std::fs::write(&net, b"QIXQNNUE and then nothing").unwrap();
    let out = std::process::Command::new(qi)
        .args(["engine", "bench", "--depth", "3", "--eval-file"])
        .arg(&net)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("net"), "{}", String::from_utf8_lossy(&out.stderr));
}
