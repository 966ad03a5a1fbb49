//! Breadth-first search from one layout: minimum steps, reachable states and a shortest path.

use crate::board::mirror;
use crate::codeset::{CodeSet, TAG};
use crate::layout::{is_solved_code, Layout};
use crate::moves::{
    convention_id, fill_rounds, for_each_neighbor, for_each_neighbor_mirrored, Convention, Move, PIECE, STRAIGHT, UNIT,
};
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

/// The result of [`shortest`]: a shortest solution found without counting the whole group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortest {
    /// The layout solved.
    pub start: Layout,
    /// The step convention.
    pub convention: Convention,
    /// Minimum number of steps, `None` when no solved layout can be reached.
    pub steps: Option<usize>,
    /// A shortest sequence of steps (empty when unsolvable or already solved). Its length is
    /// `steps`; it may differ from [`solve`]'s path when several shortest paths exist.
    pub path: Vec<Step>,
    /// Mirror classes (a layout and its left-right mirror image) examined before stopping.
    pub explored: usize,
}

/// Solves a layout: breadth-first over the whole group of reachable layouts, keyed by the
/// seed's 64-bit code in a hash set, keeping each layout's parent for the path. Use
/// [`shortest`] when the number of reachable layouts is not wanted: it stops at the first
/// solved layout and is faster.
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
    let found = search::<false>(start.code(), convention);
    let path = found.chain.as_deref().map_or_else(Vec::new, |classes| unfold(start, convention, classes));
    Solution { start, convention, steps: found.chain.map(|c| c.len() - 1), states: found.states, path }
}

/// The minimum steps and a shortest path only: the same breadth-first search as [`solve`],
/// stopped as soon as a solved layout is generated (the first one found is on the goal layer).
/// An unsolvable layout still needs its whole group searched.
///
/// ```
/// use huarong::{shortest, Convention, Layout};
/// let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse()?;
/// let found = shortest(start, Convention::Piece);
/// assert_eq!(found.steps, Some(81));
/// assert_eq!(found.path.len(), 81);
/// assert!(found.path.last().unwrap().layout.is_solved());
/// # Ok::<(), huarong::LayoutError>(())
/// ```
pub fn shortest(start: Layout, convention: Convention) -> Shortest {
    let found = search::<true>(start.code(), convention);
    let path = found.chain.as_deref().map_or_else(Vec::new, |classes| unfold(start, convention, classes));
    Shortest { start, convention, steps: found.chain.map(|c| c.len() - 1), path, explored: found.classes }
}

/// Walks a chain of mirror classes from the real start, picking the real neighbour in each
/// next class (mirroring maps moves to moves, so it always exists).
fn unfold(start: Layout, convention: Convention, classes: &[u64]) -> Vec<Step> {
    let mut path = Vec::with_capacity(classes.len().saturating_sub(1));
    let mut at = start;
    for &class in &classes[1..] {
        let mut next = None;
        for_each_neighbor(at.code(), convention, |code| {
            if next.is_none() && canonical(code) == class {
                next = Some(code);
            }
        });
        let next = Layout::from_code_unchecked(next.expect("the next class is one move away"));
        let mv = Move::between(at, next).expect("neighbours differ by one move");
        path.push(Step { mv, layout: next });
        at = next;
    }
    path
}

/// The smaller of a code and its mirror image: one representative per mirror class.
#[inline(always)]
fn canonical(code: u64) -> u64 {
    code.min(mirror(code))
}

const NO_PARENT: u32 = u32::MAX;
/// `Entry::moved` of the start: bit 63 is never a piece's cell.
const NO_PIECE: u8 = 63;

/// A queued mirror class: its code with the orientation in the tag bit, the code's mirror
/// image (so that it is not computed again), its parent's queue index, and the code shift of
/// the piece that moved to reach it (in this code's frame).
#[derive(Clone, Copy)]
struct Entry {
    tagged: u64,
    mirrored: u64,
    parent: u32,
    moved: u8,
}

/// An [`Entry`] as the queue stores it: plain words, so a new queue is zeroed memory that
/// the system maps in only as the search reaches it (a fresh process then faults in the
/// pages a solve uses, not the whole queue).
type Packed = [u64; 3];

impl Entry {
    #[inline(always)]
    fn packed(self) -> Packed {
        [self.tagged, self.mirrored, u64::from(self.parent) | u64::from(self.moved) << 32]
    }

    #[inline(always)]
    fn unpacked([tagged, mirrored, rest]: Packed) -> Entry {
        Entry { tagged, mirrored, parent: rest as u32, moved: (rest >> 32) as u8 }
    }
}

/// Reusable BFS memory, one per thread: the code set and the queue. The queue's length is
/// its usable room (entries past a search's end are stale and get overwritten), so a search
/// writes each neighbour's entry without a branch and keeps it only if the code was new.
struct Scratch {
    seen: CodeSet,
    queue: Vec<Packed>,
    /// Entries the last search used.
    used: usize,
}

/// Tables bigger than this many slots (and queues longer than this) are not kept between
/// solves unless the last one used them well.
const KEEP_SLOTS: usize = 1 << 17;
/// The first table: room for 32,768 codes (65,536 slots, 512 KB; the classics' groups need at
/// most 41,000 mirror classes, and a bigger group grows the table by doubling). Half of it
/// faults in 62 fewer pages in a one-shot process but solves 横刀立马 about 10 % slower in a
/// warm one (its 13,000 classes fill the smaller table to 40 %).
const FIRST_CODES: usize = 1 << 15;
/// Free queue entries kept ahead of the tail: more than any layout has neighbours (at most
/// 17 pieces with at most 19 targets each).
const ROOM: usize = 512;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        seen: CodeSet::with_capacity(FIRST_CODES),
        queue: vec![[0; 3]; FIRST_CODES],
        used: 0,
    });
}

/// What a search found.
struct Found {
    /// Mirror classes queued.
    classes: usize,
    /// Real layouts reachable (meaningful for the full search only).
    states: usize,
    /// The classes from the start to the nearest solved one.
    chain: Option<Vec<u64>>,
}

/// The BFS over mirror classes; `EARLY` stops at the first solved layout generated. The queue
/// doubles as the parent table.
///
/// Orientation: whether the real layout reached is the class's code or its mirror. If some
/// class is reached in both orientations, or is its own mirror, the start's mirror image is
/// reachable and every asymmetric class stands for two real layouts; otherwise for one.
///
/// In the piece convention the piece that just moved is not moved again: every layout it
/// reaches is a neighbour of the parent (the other pieces are where they were), so it has been
/// queued already, in the same orientation.
fn search<const EARLY: bool>(start: u64, convention: Convention) -> Found {
    SCRATCH.with(|scratch| {
        let Scratch { seen, queue, used } = &mut *scratch.borrow_mut();
        if queue.len() > KEEP_SLOTS && *used * 8 < queue.len() {
            *queue = vec![[0; 3]; FIRST_CODES];
        }
        let found = match convention_id(convention) {
            PIECE => bfs::<EARLY, PIECE>(start, seen, queue),
            STRAIGHT => bfs::<EARLY, STRAIGHT>(start, seen, queue),
            _ => bfs::<EARLY, UNIT>(start, seen, queue),
        };
        *used = found.classes;
        found
    })
}

/// [`search`] in the convention `CONV`.
fn bfs<const EARLY: bool, const CONV: u8>(start: u64, seen: &mut CodeSet, queue: &mut Vec<Packed>) -> Found {
    seen.clear(KEEP_SLOTS, FIRST_CODES);
    let class = canonical(start);
    let first = class | if class == start { 0 } else { TAG };
    seen.insert(first);
    queue[0] = Entry { tagged: first, mirrored: mirror(class), parent: NO_PARENT, moved: NO_PIECE }.packed();
    let mut tail = 1;
    // The goal's queue index, NONE until found (a plain index so the test on each new
    // neighbour can be a conditional move).
    const NONE: usize = usize::MAX;
    let mut goal = if is_solved_code(start) { 0 } else { NONE };
    let mut closed = false;
    let mut symmetric = 0usize;
    let mut head = 0;
    let skip_moved = CONV == PIECE;
    let rounds = fill_rounds(start);
    while head < tail && !(EARLY && goal != NONE) {
        if tail + ROOM > queue.len() {
            queue.resize(queue.len() * 2, [0; 3]);
        }
        let Entry { tagged, mirrored, parent, moved } = Entry::unpacked(queue[head]);
        let code = tagged & !TAG;
        let flipped = tagged & TAG;
        symmetric += usize::from(mirrored == code);
        if !EARLY && goal == NONE && is_solved_code(code) {
            goal = head;
        }
        // The parent is always a neighbour and always seen: skip its lookup (only when the
        // orientation agrees, so a disagreement is still detected). In the piece convention
        // the parent is never generated: only the moved piece leads back, and it stays put.
        let parent_tagged = if CONV == PIECE || parent == NO_PARENT { 0 } else { queue[parent as usize][0] };
        let keep = if skip_moved { 1u64 << moved } else { 0 };
        for_each_neighbor_mirrored::<CONV>(code, mirrored, keep, rounds, |n| {
            let low = n.code <= n.mirrored;
            let (class, twin, moved) =
                if low { (n.code, n.mirrored, n.to) } else { (n.mirrored, n.code, n.mirrored_to) };
            let tagged = class | (flipped ^ if low { 0 } else { TAG });
            if CONV != PIECE && tagged == parent_tagged {
                return;
            }
            let old = seen.insert(tagged);
            let new = old == 0;
            queue[tail] = Entry { tagged, mirrored: twin, parent: head as u32, moved: moved as u8 }.packed();
            if EARLY {
                goal = if new & is_solved_code(class) { tail } else { goal };
            }
            tail += usize::from(new);
            closed |= !new & (old != tagged);
        });
        head += 1;
    }
    let classes = tail;
    let states = if closed || symmetric > 0 { 2 * classes - symmetric } else { classes };
    let chain = (goal != NONE).then(|| {
        let mut at = goal;
        let mut codes = vec![queue[at][0] & !TAG];
        while Entry::unpacked(queue[at]).parent != NO_PARENT {
            at = Entry::unpacked(queue[at]).parent as usize;
            codes.push(queue[at][0] & !TAG);
        }
        codes.reverse();
        codes
    });
    Found { classes, states, chain }
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
        for start in crate::enumerate::sampled(&[(4, 1, 4), (1, 4, 2), (6, 0, 1), (2, 3, 4)], 4001) {
            for convention in Convention::ALL {
                let s = solve(start, convention);
                assert_eq!((s.steps, s.states), reference(start, convention), "{start} {convention}");
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
