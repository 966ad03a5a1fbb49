//! Differential test against Fairy-Stockfish (pyffish): the full legal move list and the
//! check status of every position in a file written by `tests/differential/movegen.py`.
//! `scripts/test.d/differential.sh` makes the file and runs this with `--ignored`.

use xiangqi::{Move, Position};

#[test]
#[ignore = "needs the pyffish dump; run by scripts/test.d/differential.sh"]
fn legal_moves_match_fairy_stockfish() {
    let path = std::env::var("XQ_DIFFERENTIAL_FILE").expect("XQ_DIFFERENTIAL_FILE names the pyffish dump");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut positions, mut moves, mut checks) = (0, 0, 0);
    for (n, line) in text.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        let pos: Position = cols[0].parse().unwrap_or_else(|e| panic!("line {}: {e}: {}", n + 1, cols[0]));
        let expected: Vec<Move> = cols[2].split_whitespace().map(|m| m.parse().unwrap()).collect();
        let mut ours: Vec<Move> = pos.legal_moves().to_vec();
        ours.sort_by_key(|m| m.to_string());
        assert_eq!(
            ours.iter().map(ToString::to_string).collect::<Vec<_>>(),
            expected.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "legal moves differ at line {}: {}",
            n + 1,
            cols[0]
        );
        assert_eq!(pos.is_check(), cols[1] == "1", "check status differs at line {}: {}", n + 1, cols[0]);
        assert_eq!(pos.count_legal_moves(), ours.len());
        positions += 1;
        moves += ours.len();
        checks += pos.is_check() as usize;
    }
    assert!(positions > 0, "empty dump");
    eprintln!("{positions} positions, {moves} legal moves, {checks} in check: all agree with Fairy-Stockfish");
}
