//! The shipped set (data/puzzles.tsv) read back and a sample of it checked again by a search
//! independent of the one that made it: a fresh engine, twice the nodes, two lines.

use xiangqi_engine::{Engine, Limits};
use xiangqi_puzzle::{file, Kind};

const SHIPPED: &str = include_str!("../data/puzzles.tsv");

#[test]
fn the_shipped_set_reads_back_and_is_sorted() {
    let puzzles = file::read(SHIPPED).expect("the shipped set reads");
    assert!(puzzles.len() >= 1900, "{} puzzles", puzzles.len());
    assert!(puzzles.windows(2).all(|w| w[0].rating <= w[1].rating));
    let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), puzzles.len(), "ids are unique");
    assert!(puzzles.iter().any(|p| p.kind == Kind::Mate) && puzzles.iter().any(|p| p.kind == Kind::Win));
}

#[test]
fn a_sample_is_confirmed_by_a_deeper_search() {
    let puzzles = file::read(SHIPPED).expect("the shipped set reads");
    let sample: Vec<_> = puzzles.iter().step_by((puzzles.len() / 6).max(1)).take(6).collect();
    for p in sample {
        let mut engine = Engine::new(16);
        let limits = Limits { nodes: Some(600_000), multipv: 2, ..Limits::default() };
        let info = engine.search(&p.position, &[], &limits, |_| {});
        let best = &info.lines[0];
        assert_eq!(info.best, Some(p.moves[0]), "{}: the first move is the engine's choice", p.id);
        match p.kind {
            Kind::Mate => {
                let n = p.mate_in.expect("a mate has its length") as i32;
                assert!(best.score.mate_in().is_some_and(|m| m <= n), "{}: mate in {n}", p.id);
                if let Some(second) = info.lines.get(1) {
                    assert!(!second.score.mate_in().is_some_and(|m| (1..=n).contains(&m)), "{}: one mating move", p.id);
                }
            }
            Kind::Win => {
                assert!(best.score.centipawns() >= 100, "{}: still ahead ({:?})", p.id, best.score);
                if let Some(second) = info.lines.get(1) {
                    // A little looser than the finder's 0.2: a deeper search moves scores a bit.
                    let expected = |cp: i32| 1.0 / (1.0 + 10f64.powf(-f64::from(cp.clamp(-4000, 4000)) / 400.0));
                    assert!(
                        expected(best.score.centipawns()) - expected(second.score.centipawns()) >= 0.1,
                        "{}: the only winning move ({:?} against {:?})",
                        p.id,
                        best.score,
                        second.score
                    );
                }
            }
        }
    }
}
