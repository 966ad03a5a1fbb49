//! Perft against published values (tests/data/perft.tsv): every position, every depth whose
//! count stays under a node budget. The full depths run with `--ignored`.

use xiangqi::{perft, Position};

const SUITE: &str = include_str!("data/perft.tsv");
/// Keeps `cargo test --release` quick; `cargo test --release -- --ignored` lifts it.
const BUDGET: u64 = 5_000_000;

fn cases() -> impl Iterator<Item = (&'static str, Position, Vec<u64>)> {
    SUITE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|line| {
        let cols: Vec<&str> = line.split('\t').collect();
        let pos: Position = cols[1].parse().unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
        let counts = cols[2].split_whitespace().map(|n| n.parse().unwrap()).collect();
        (cols[0], pos, counts)
    })
}

fn check(limit: u64) -> usize {
    let mut checked = 0;
    for (name, pos, counts) in cases() {
        for (i, &expected) in counts.iter().enumerate() {
            if expected > limit {
                break;
            }
            assert_eq!(perft(&pos, i as u32 + 1), expected, "{name} depth {}", i + 1);
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite_within_budget() {
    let n = check(BUDGET);
    assert!(n >= 13 * 3, "only {n} counts checked");
}

#[test]
#[ignore = "full depths: minutes in release mode"]
fn perft_suite_full() {
    check(u64::MAX);
}
