//! Command-line arguments out of range: a clear message and exit code 1 or 2, never an abort.

use std::process::Command;

fn qi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().unwrap();
    (out.status.code().expect("exited, not killed by a signal"), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn perft_deeper_than_the_limit_is_refused_not_a_stack_overflow() {
    let (code, err) = qi(&["perft", "startpos", "4294967295"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not in 0..=64"), "{err}");
    let mated = "3k4R/9/3P5/9/9/9/9/9/9/4K4 b - - 1 1";
    let (code, err) = qi(&["perft", mated, "64"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn other_numbers_out_of_range_are_refused() {
    for args in [
        &["bench", "--runs", "0"][..],
        &["bench", "--runs", "99999999999999999999"],
        &["serve", "--max-connections", "0"],
        &["serve", "--header-timeout", "0"],
        &["serve", "--grace", "100000"],
        &["link", "train", "games.tsv", "--epochs", "0"],
    ] {
        let (code, err) = qi(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("invalid value"), "{args:?}: {err}");
    }
}

#[test]
fn a_game_longer_than_the_limit_is_refused_with_the_one_message() {
    let limit = xiangqi::MAX_GAME_PLIES;
    let moves: Vec<&str> = ["h0g2", "h9g7", "g2h0", "g7h9"].into_iter().cycle().take(limit + 1).collect();
    for command in
        [&["link", "encode"][..], &["link", "encode", "--format", "seed"], &["moves", "convert", "--to", "wxf"]]
    {
        let (code, err) = qi(&[command, &moves[..]].concat());
        assert_eq!(code, 1, "{command:?}: {err}");
        assert_eq!(err.trim(), format!("error: {}", xiangqi::GameTooLong), "{command:?}");
    }
    let (code, err) = qi(&[&["link", "encode"][..], &moves[..limit]].concat());
    assert_eq!(code, 0, "{err}");
}
