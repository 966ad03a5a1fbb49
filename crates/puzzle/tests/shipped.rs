//! The shipped set (data/puzzles.tsv) read back and a sample of it checked again by a search
//! independent of the one that made it: a fresh engine, twice the nodes, two lines (the
//! generator's last check, `confirm`).

use xiangqi_engine::Engine;
use xiangqi_puzzle::{confirm, file, Kind, Rejection, Settings};

const SHIPPED: &str = include_str!("../data/puzzles.tsv");

#[test]
fn the_shipped_set_reads_back_and_is_sorted() {
    let puzzles = file::read(SHIPPED).expect("the shipped set reads");
    assert!(puzzles.len() >= 2000, "{} puzzles", puzzles.len());
    assert!(puzzles.windows(2).all(|w| w[0].rating <= w[1].rating));
    let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), puzzles.len(), "ids are unique");
    assert!(puzzles.iter().any(|p| p.kind == Kind::Mate) && puzzles.iter().any(|p| p.kind == Kind::Win));
}

#[test]
fn the_shipped_themes_are_those_the_board_shows() {
    // Themes come from the board alone: the file must agree with the current finder (after a
    // change to it, `qi puzzle merge` writes them again).
    for p in file::read(SHIPPED).expect("the shipped set reads") {
        assert_eq!(p.themes, xiangqi_puzzle::themes(&p.position, &p.moves, p.kind), "{}", p.id);
    }
}

#[test]
fn a_sample_is_confirmed_by_a_deeper_search() {
    // `confirm`: a fresh engine, twice the verifying nodes, two lines, from the position alone;
    // the same first move, and still the only mate (within its length) or the only winning move.
    let puzzles = file::read(SHIPPED).expect("the shipped set reads");
    let settings = Settings::default();
    let mut engine = Engine::new(16);
    for p in puzzles.iter().step_by((puzzles.len() / 6).max(1)).take(6) {
        assert_eq!(confirm(&mut engine, p, &settings), Ok(()), "{} ({:?}, {:?})", p.id, p.kind, p.moves);
    }
}

#[test]
fn a_puzzle_with_another_first_move_is_not_confirmed() {
    let puzzles = file::read(SHIPPED).expect("the shipped set reads");
    let mut p = puzzles.iter().find(|p| p.kind == Kind::Mate && p.mate_in == Some(1)).expect("a mate in one").clone();
    let other = p.position.legal_moves().iter().copied().find(|&m| m != p.moves[0]).expect("another move");
    p.moves = vec![other];
    let mut engine = Engine::new(16);
    let settings = Settings { confirm_nodes: 20_000, ..Settings::default() };
    assert_eq!(confirm(&mut engine, &p, &settings), Err(Rejection::NotConfirmed));
}
