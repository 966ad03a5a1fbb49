//! Groups of the solvable layouts, found while the survey's breadth-first search runs: a
//! union-find over the search's sources (the solved mirror classes), joined along every move
//! the search looks at, so no second pass over the layouts is needed for them.
//!
//! The search runs over mirror classes, so each class carries a *label*: the source it was
//! reached from and its orientation, whether the real layout reached is the class's code (0)
//! or its mirror image (1). A group of classes is one real group when it holds a symmetric
//! layout or some class is reached both ways (it contains its own mirror image), else two:
//! the union-find keeps the orientation of each source relative to its root (a union-find
//! with parity), and a move that closes a cycle with the other parity marks the group closed.
//!
//! The search expands a level's frontier on several threads, so unions link roots by an
//! atomic compare-and-swap, always the higher index under the lower (no cycles), and
//! [`SourceGroups::flatten`] shortens the paths between levels, when no thread runs.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// The label of a class: `source << 1 | orientation`.
pub(crate) type Label = u32;

/// A label with its orientation turned over (the same class reached through its mirror image).
pub(crate) const fn flipped(label: Label, flip: bool) -> Label {
    label ^ flip as u32
}

/// The union-find over the sources.
#[derive(Debug)]
pub(crate) struct SourceGroups {
    /// Per source: `parent << 1 | parity`, the parity being the source's orientation relative
    /// to its parent's; a root is its own parent with parity 0.
    parent: Vec<AtomicU32>,
    /// Per source: a cycle of the other parity, or a symmetric layout, was found while it was
    /// the root of its group (collected over the final roots by [`SourceGroups::count`]).
    closed: Vec<AtomicBool>,
}

impl SourceGroups {
    /// `sources` sources, each its own group; source `i` has the label `i << 1`.
    pub(crate) fn new(sources: usize) -> SourceGroups {
        // The survey keeps a label in 24 bits, all ones meaning none: source numbers stay
        // below 2^22 (a piece set has under a million layouts).
        assert!(sources < 1 << 22, "source numbers fit a label");
        SourceGroups {
            parent: (0..sources as u32).map(|s| AtomicU32::new(s << 1)).collect(),
            closed: (0..sources).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The label of source `i`.
    pub(crate) fn label(i: usize) -> Label {
        (i as u32) << 1
    }

    /// The root of `source` and the source's orientation relative to it.
    fn find(&self, mut source: u32) -> (u32, u32) {
        let mut parity = 0;
        loop {
            let entry = self.parent[source as usize].load(Ordering::Acquire);
            if entry >> 1 == source {
                return (source, parity);
            }
            parity ^= entry & 1;
            source = entry >> 1;
        }
    }

    /// Records that the labels `a` and `b` name the same real layout (a move joined them).
    pub(crate) fn join(&self, a: Label, b: Label) {
        // The orientations must agree: a's source relative to b's source is this parity.
        let relation = (a ^ b) & 1;
        let (a, b) = (a >> 1, b >> 1);
        loop {
            let (root_a, parity_a) = self.find(a);
            let (root_b, parity_b) = self.find(b);
            let parity = relation ^ parity_a ^ parity_b;
            if root_a == root_b {
                if parity != 0 {
                    self.closed[root_a as usize].store(true, Ordering::Relaxed);
                }
                return;
            }
            let (high, low) = if root_a > root_b { (root_a, root_b) } else { (root_b, root_a) };
            // Linked only while still a root; else another thread linked it first: again.
            if self.parent[high as usize]
                .compare_exchange(high << 1, low << 1 | parity, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Marks the group of a class with a symmetric layout: one real group.
    pub(crate) fn close(&self, label: Label) {
        self.closed[(label >> 1) as usize].store(true, Ordering::Relaxed);
    }

    /// Points every source straight at its root (only while no thread joins).
    pub(crate) fn flatten(&mut self) {
        for source in 0..self.parent.len() {
            // Parents have lower numbers, so theirs are flat already: two steps at most.
            let (root, parity) = self.find(source as u32);
            *self.parent[source].get_mut() = root << 1 | parity;
        }
    }

    /// Real groups: one per closed group of classes, two per other.
    pub(crate) fn count(&mut self) -> usize {
        self.flatten();
        let mut closed = vec![false; self.parent.len()];
        let mut roots = Vec::new();
        for source in 0..self.parent.len() {
            let root = (*self.parent[source].get_mut() >> 1) as usize;
            if root == source {
                roots.push(root);
            }
            closed[root] |= *self.closed[source].get_mut();
        }
        roots.iter().map(|&root| if closed[root] { 1 } else { 2 }).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separate_sources_are_two_real_groups_each() {
        let mut groups = SourceGroups::new(3);
        assert_eq!(groups.count(), 6);
        groups.close(SourceGroups::label(1));
        assert_eq!(groups.count(), 5);
    }

    #[test]
    fn joins_merge_and_a_cycle_of_the_other_parity_closes() {
        let mut groups = SourceGroups::new(4);
        let [a, b, c, d] = [0, 1, 2, 3].map(SourceGroups::label);
        groups.join(a, b);
        groups.join(flipped(b, true), c); // c is b's mirror image
        assert_eq!(groups.count(), 2 + 2);
        groups.join(a, flipped(c, true)); // consistent with the two joins: still open
        assert_eq!(groups.count(), 2 + 2);
        groups.join(a, c); // a is both c and c's mirror image: its own mirror image
        assert_eq!(groups.count(), 1 + 2);
        groups.join(d, b);
        assert_eq!(groups.count(), 1);
    }
}
