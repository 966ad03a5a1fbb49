//! Every classic layout in all three conventions against the reference table, with the full
//! search and with the early-exit one.

use huarong::catalog::{classics, Classic};
use huarong::{shortest, solve, Convention, Step};

/// The steps found are the reference ones and the path replays legally to a solved layout.
fn check(classic: &Classic, convention: Convention, steps: Option<usize>, path: &[Step]) {
    let expected = classic.steps(convention).map(|s| s as usize);
    assert_eq!(steps, expected, "{} ({}) {convention}", classic.name, classic.layout);
    assert_eq!(path.len(), expected.unwrap_or(0), "{} {convention}", classic.name);
    let mut at = classic.layout;
    for step in path {
        assert!(at.moves(convention).contains(&(step.mv, step.layout)), "{} {convention}", classic.name);
        at = step.layout;
    }
    assert_eq!(at.is_solved(), expected.is_some(), "{} {convention}", classic.name);
}

#[test]
fn all_classics_in_all_conventions() {
    for classic in classics() {
        for convention in Convention::ALL {
            let solution = solve(classic.layout, convention);
            assert_eq!(solution.states, classic.states, "{} {convention}", classic.name);
            check(classic, convention, solution.steps, &solution.path);
        }
    }
}

#[test]
fn the_early_exit_search_agrees_on_every_classic() {
    for classic in classics() {
        for convention in Convention::ALL {
            let found = shortest(classic.layout, convention);
            check(classic, convention, found.steps, &found.path);
        }
    }
}
