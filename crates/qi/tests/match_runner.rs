//! `qi match`: games between engine processes, judged by our rules, with faults scored.

use serde_json::Value;
use std::process::Command;

fn qi() -> &'static str {
    env!("CARGO_BIN_EXE_qi")
}

fn run_match(first: &str, second: &str, extra: &[&str]) -> Value {
    let out = Command::new(qi()).arg("match").arg(first).arg(second).args(extra).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A fake engine written as a shell script: it speaks the handshake and answers `go` with
/// `reply` (or nothing when `reply` is empty).
fn fake_engine(name: &str, reply: &str) -> String {
    let dir = std::env::temp_dir().join(format!("qi-match-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine.sh");
    let answer = if reply.is_empty() { String::new() } else { format!("echo '{reply}'") };
    let script = format!(
        "while read -r cmd rest; do case $cmd in uci) echo 'id name {name}'; echo uciok;; \
         isready) echo readyok;; go) {answer};; quit) exit 0;; esac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn self_play_by_nodes_counts_every_game() {
    let engine = format!("{} engine uci", qi());
    let v = run_match(&engine, &engine, &["--nodes", "3000", "--games", "2", "--max-plies", "30"]);
    assert_eq!(v["games"], 2);
    let sum = v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(sum, 2);
    assert!(v["median_depth"][0].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn the_pgn_carries_each_engine_move_score_depth_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let engine = format!("{} engine uci", qi());
    let path = pgn.to_str().unwrap();
    run_match(&engine, &engine, &["--nodes", "2000", "--games", "2", "--max-plies", "12", "--pgn", path]);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = xiangqi::pgn::read_games(&text);
    assert_eq!(games.len(), 2);
    for game in games {
        let game = game.unwrap();
        assert_eq!(game.line.moves.len(), 12);
        for m in &game.line.moves {
            // `+0.35/7 0.004s` (or a mate, `+M3/9 ...`).
            let c = m.comment.as_deref().unwrap_or_default();
            let (score_depth, time) = c.split_once(' ').unwrap_or_else(|| panic!("{c:?}"));
            let (score, depth) = score_depth.split_once('/').unwrap();
            assert!(score.starts_with(['+', '-']), "{c:?}");
            assert!(depth.parse::<u32>().unwrap() >= 1, "{c:?}");
            assert!(time.strip_suffix('s').unwrap().parse::<f64>().unwrap() >= 0.0, "{c:?}");
        }
    }
}

#[test]
fn an_illegal_move_loses_for_the_engine_that_played_it() {
    let engine = format!("{} engine uci", qi());
    // a0a0 reads as a move but is never legal.
    let bad = fake_engine("illegal", "bestmove a0a0");
    let v = run_match(&engine, &bad, &["--nodes", "1000", "--games", "2"]);
    assert_eq!((v["wins"].as_u64(), v["losses"].as_u64()), (Some(2), Some(0)), "{v}");
    assert_eq!(v["terminations"]["illegal played an illegal move a0a0"], 2, "{v}");
}

#[test]
fn silence_loses_on_time_and_the_match_ends() {
    let engine = format!("{} engine uci", qi());
    let mute = fake_engine("mute", "");
    // A margin wide enough that qi, answering in its 50 ms, never loses on time on a loaded
    // machine (it did at 100 ms while the other test binaries ran).
    let v = run_match(&mute, &engine, &["--tc", "50ms", "--margin", "1000", "--games", "2"]);
    assert_eq!(v["losses"], 2, "{v}");
    assert_eq!(v["terminations"]["mute lost on time"], 2, "{v}");
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        vec!["a", "b"],
        vec!["a", "b", "--tc", "fast"],
        vec!["a", "b", "--nodes", "0"],
        vec!["a", "b", "--tc", "1s", "--sprt", "5,1"],
        vec!["a", "b", "--tc", "1s", "--concurrency", "0"],
    ] {
        let out = Command::new(qi()).arg("match").args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
    }
}

#[test]
fn an_interrupted_match_reports_the_games_it_finished() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let engine = format!("{} engine uci", qi());
    let mut child = Command::new(qi())
        .args(["match", &engine, &engine, "--tc", "30ms", "--max-plies", "10", "--games", "200", "--json"])
        .arg("--pgn")
        .arg(&pgn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once a game has ended, as a person pressing Ctrl-C would.
    let mut progress = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("game ") {
        line.clear();
        assert!(progress.read_line(&mut line).unwrap() > 0, "qi match ended before a game finished");
    }
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let asked = Instant::now();
    let status = child.wait().unwrap();
    let waited = asked.elapsed();
    assert!(status.success(), "{status}");
    // A move (30 ms + the margin) and the engines' quit, not the 199 other games.
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["interrupted"], true, "{v}");
    let games = v["games"].as_u64().unwrap();
    assert!((1..200).contains(&games), "{v}");
    let written = xiangqi::pgn::read_games(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(written.len() as u64, games, "every finished game, and only those, is in the PGN");
}
