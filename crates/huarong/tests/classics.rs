//! Every classic layout in all three conventions against the reference table.

use huarong::catalog::classics;
use huarong::{shortest, solve, Convention};

#[test]
fn all_classics_in_all_conventions() {
    for classic in classics() {
        for convention in Convention::ALL {
            let solution = solve(classic.layout, convention);
            let expected = classic.steps(convention).map(|s| s as usize);
            assert_eq!(solution.steps, expected, "{} ({}) {convention}", classic.name, classic.layout);
            assert_eq!(solution.states, classic.states, "{} {convention}", classic.name);
            assert_eq!(solution.path.len(), expected.unwrap_or(0));
            let mut at = classic.layout;
            for step in &solution.path {
                assert!(at.moves(convention).contains(&(step.mv, step.layout)), "{} {convention}", classic.name);
                at = step.layout;
            }
            assert_eq!(at.is_solved(), expected.is_some());
        }
    }
}

#[test]
fn the_early_exit_search_agrees_on_every_classic() {
    for classic in classics() {
        for convention in Convention::ALL {
            let found = shortest(classic.layout, convention);
            let expected = classic.steps(convention).map(|s| s as usize);
            assert_eq!(found.steps, expected, "{} {convention}", classic.name);
            assert_eq!(found.path.len(), expected.unwrap_or(0), "{} {convention}", classic.name);
            let mut at = classic.layout;
            for step in &found.path {
                assert!(at.moves(convention).contains(&(step.mv, step.layout)), "{} {convention}", classic.name);
                at = step.layout;
            }
            assert_eq!(at.is_solved(), expected.is_some());
        }
    }
}
