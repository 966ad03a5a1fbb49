//! Breadth-first search from one layout: minimum steps, reachable states and a shortest path.

use crate::codeset::CodeSet;
use crate::layout::{is_solved_code, Layout};
use crate::moves::{for_each_neighbor, Convention, Move};

/// One step of a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The piece and the top-left cells it moves between.
    pub mv: Move,
    /// The layout after the step.
    pub layout: Layout,
}

/// The result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The layout solved.
    pub start: Layout,
    /// The step convention.
    pub convention: Convention,
    /// Minimum number of steps, `None` when no solved layout can be reached.
    pub steps: Option<usize>,
    /// Layouts reachable from the start, the start included (same-shaped pieces identical).
    pub states: usize,
    /// A shortest sequence of steps (empty when unsolvable or already solved).
    pub path: Vec<Step>,
}

/// Solves a layout: breadth-first over the whole group of reachable layouts, keyed by the
/// seed's 64-bit code in a hash set, keeping each layout's parent for the path.
///
/// ```
/// use huarong::{solve, Convention, Layout};
/// let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse()?;
/// let solution = solve(start, Convention::Piece);
/// assert_eq!(solution.steps, Some(81));
/// assert_eq!(solution.states, 25_955);
/// assert_eq!(solution.path.len(), 81);
/// assert!(solution.path.last().unwrap().layout.is_solved());
/// # Ok::<(), huarong::LayoutError>(())
/// ```
pub fn solve(start: Layout, convention: Convention) -> Solution {
    let (states, goal, parents) = search(start.code(), convention);
    let mut path = Vec::new();
    if let Some(mut at) = goal {
        while parents[at].1 != NO_PARENT {
            let parent = parents[at].1 as usize;
            let before = Layout::from_code_unchecked(parents[parent].0);
            let after = Layout::from_code_unchecked(parents[at].0);
            let mv = Move::between(before, after).expect("BFS links layouts one move apart");
            path.push(Step { mv, layout: after });
            at = parent;
        }
        path.reverse();
    }
    Solution { start, convention, steps: goal.map(|_| path.len()), states, path }
}

const NO_PARENT: u32 = u32::MAX;

/// The BFS itself: the queue doubles as the parent table (code, index of the parent).
/// Returns the number of states, the queue index of the first solved layout, and the queue.
fn search(start: u64, convention: Convention) -> (usize, Option<usize>, Vec<(u64, u32)>) {
    let mut seen = CodeSet::with_capacity(1 << 15);
    let mut queue: Vec<(u64, u32)> = Vec::with_capacity(1 << 15);
    seen.insert(start);
    queue.push((start, NO_PARENT));
    let mut goal = None;
    let mut head = 0;
    while head < queue.len() {
        let code = queue[head].0;
        if goal.is_none() && is_solved_code(code) {
            goal = Some(head);
        }
        for_each_neighbor(code, convention, |next| {
            if seen.insert(next) {
                queue.push((next, head as u32));
            }
        });
        head += 1;
    }
    (queue.len(), goal, queue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn already_solved_needs_no_step() {
        let start = Layout::parse("VSSV/VSSV/HH.V/VCCV/VCC.").unwrap();
        let s = solve(start, Convention::Piece);
        assert_eq!(s.steps, Some(0));
        assert!(s.path.is_empty());
    }

    #[test]
    fn path_replays_from_the_start() {
        let start = Layout::parse("VCCV/VCCV/VHHV/VSSV/S..S").unwrap();
        for convention in Convention::ALL {
            let s = solve(start, convention);
            let mut at = start;
            for step in &s.path {
                assert!(at.moves(convention).contains(&(step.mv, step.layout)));
                at = step.layout;
            }
            assert!(at.is_solved());
        }
    }
}
