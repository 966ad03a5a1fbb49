//! Breadth-first search from one layout: minimum steps, reachable states and a shortest path.

use crate::board::mirror;
use crate::codeset::{CodeSet, TAG};
use crate::layout::{is_solved_code, Layout};
use crate::moves::{for_each_neighbor_mirrored, Convention, Move};
use std::cell::RefCell;

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
/// Layouts and their left-right mirror images are searched as one (the goal is symmetric, so
/// both are the same distance from it); the reachable-state count and the path are then
/// unfolded back to real layouts, so the answers are exactly those of a plain search.
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
    let (states, chain) = search(start.code(), convention);
    let mut path = Vec::new();
    if let Some(classes) = &chain {
        // Walk the chain of mirror classes from the real start, picking the real neighbour
        // in each next class (mirroring maps moves to moves, so it always exists).
        let mut at = start;
        for &class in &classes[1..] {
            let (mv, next) = at
                .moves(convention)
                .into_iter()
                .find(|(_, next)| canonical(next.code()) == class)
                .expect("the next class is one move away");
            path.push(Step { mv, layout: next });
            at = next;
        }
    }
    Solution { start, convention, steps: chain.map(|c| c.len() - 1), states, path }
}

/// The smaller of a code and its mirror image: one representative per mirror class.
#[inline(always)]
fn canonical(code: u64) -> u64 {
    code.min(mirror(code))
}

const NO_PARENT: u32 = u32::MAX;

/// Reusable BFS memory: the code set and the queue (one per thread).
struct Scratch {
    seen: CodeSet,
    queue: Vec<(u64, u32)>,
}

/// Tables bigger than this many slots are not kept between solves.
const KEEP_SLOTS: usize = 1 << 17;

thread_local! {
    static SCRATCH: RefCell<Scratch> =
        RefCell::new(Scratch { seen: CodeSet::with_capacity(KEEP_SLOTS / 2), queue: Vec::new() });
}

/// The BFS over mirror classes. The queue doubles as the parent table (class code with its
/// orientation in the tag bit, parent index).
///
/// Orientation: whether the real layout reached is the class's code or its mirror. If some
/// class is reached in both orientations, or is its own mirror, the start's mirror image is
/// reachable and every asymmetric class stands for two real layouts; otherwise for one.
///
/// Returns the number of real layouts reachable and the classes from the start to the nearest
/// solved one.
fn search(start: u64, convention: Convention) -> (usize, Option<Vec<u64>>) {
    SCRATCH.with(|scratch| {
        let Scratch { seen, queue } = &mut *scratch.borrow_mut();
        seen.clear(KEEP_SLOTS);
        queue.clear();
        let first = canonical(start) | if canonical(start) == start { 0 } else { TAG };
        seen.insert(first);
        queue.push((first, NO_PARENT));
        let mut goal = None;
        let mut closed = false;
        let mut symmetric = 0usize;
        let mut head = 0;
        while head < queue.len() {
            let (tagged, parent) = queue[head];
            let code = tagged & !TAG;
            let flipped = tagged & TAG;
            let mirrored = mirror(code);
            symmetric += usize::from(mirrored == code);
            if goal.is_none() && is_solved_code(code) {
                goal = Some(head);
            }
            // The parent is always a neighbour and always seen: skip its lookup (only when the
            // orientation agrees, so a disagreement is still detected).
            let parent_tagged = if parent == NO_PARENT { 0 } else { queue[parent as usize].0 };
            for_each_neighbor_mirrored(code, mirrored, convention, |next, mirror_next| {
                let class = next.min(mirror_next);
                let tag = flipped ^ if class == next { 0 } else { TAG };
                if class | tag == parent_tagged {
                    return;
                }
                match seen.insert(class | tag) {
                    None => queue.push((class | tag, head as u32)),
                    Some(old) => closed |= old != class | tag,
                }
            });
            head += 1;
        }
        let classes = queue.len();
        let states = if closed || symmetric > 0 { 2 * classes - symmetric } else { classes };
        let chain = goal.map(|mut at| {
            let mut codes = vec![queue[at].0 & !TAG];
            while queue[at].1 != NO_PARENT {
                at = queue[at].1 as usize;
                codes.push(queue[at].0 & !TAG);
            }
            codes.reverse();
            codes
        });
        (states, chain)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashSet, VecDeque};

    /// A plain BFS without mirror classes: (steps, states).
    fn reference(start: Layout, convention: Convention) -> (Option<usize>, usize) {
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([(start, 0)]);
        let mut steps = None;
        while let Some((at, d)) = queue.pop_front() {
            if steps.is_none() && at.is_solved() {
                steps = Some(d);
            }
            for (_, next) in at.moves(convention) {
                if seen.insert(next) {
                    queue.push_back((next, d + 1));
                }
            }
        }
        (steps, seen.len())
    }

    #[test]
    fn mirror_classes_give_the_plain_answers() {
        // Asymmetric starts whose mirror image may or may not be reachable, symmetric ones,
        // unsolvable ones, several piece sets.
        let sets = [
            crate::PieceSet { vertical: 4, horizontal: 1, soldiers: 4 },
            crate::PieceSet { vertical: 1, horizontal: 4, soldiers: 2 },
            crate::PieceSet { vertical: 6, horizontal: 0, soldiers: 1 },
            crate::PieceSet { vertical: 2, horizontal: 3, soldiers: 4 },
        ];
        for set in sets {
            for &code in crate::survey::layouts(set).iter().step_by(4001) {
                let start = Layout::from_code(code).unwrap();
                for convention in Convention::ALL {
                    let s = solve(start, convention);
                    assert_eq!((s.steps, s.states), reference(start, convention), "{start} {convention}");
                }
            }
        }
    }

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
