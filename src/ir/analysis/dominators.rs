//! Dominator and post-dominator trees (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
//! Algorithm": iterate over reverse postorder until the immediate dominators settle).

use super::{graph, Cfg};
use crate::ir::{Block, Handle};

/// The immediate dominators of a function's reachable blocks (or, for a post-dominator tree,
/// the immediate post-dominators of the blocks that reach an exit).
#[derive(Clone, Debug)]
pub struct DomTree {
    /// Immediate dominator by block index; `None` for roots and blocks outside the tree.
    idom: Vec<Option<Handle<Block>>>,
    /// Position in the order the tree was built in, `usize::MAX` outside the tree.
    order: Vec<usize>,
    /// Preorder number of each block in the tree, and the largest preorder number in its
    /// subtree: `a` dominates `b` when `b`'s number is in `a`'s range, so a query is O(1)
    /// however deep the tree (unrolled loops make long chains).
    pre: Vec<u32>,
    last: Vec<u32>,
}

impl DomTree {
    /// The dominator tree: the entry is its root; unreachable blocks are outside it.
    pub fn dominators(cfg: &Cfg) -> Self {
        let order = cfg.reverse_postorder();
        Self::build(cfg.len(), order, &order[..order.len().min(1)], |b| {
            cfg.predecessors(b)
        })
    }

    /// The post-dominator tree: the blocks that end the function (no successors) are its
    /// roots, joined under a virtual exit that is no block; a block that reaches no exit (an
    /// infinite loop) is outside it.
    pub fn post_dominators(cfg: &Cfg) -> Self {
        let n = cfg.len();
        let exits: Vec<Handle<Block>> = (0..n)
            .map(Handle::new)
            .filter(|&b| cfg.successors(b).is_empty() && cfg.is_reachable(b))
            .collect();
        // Reverse postorder of the reversed graph, from every exit (reachable blocks only).
        let mut order = graph::postorder(n, &exits, |b| cfg.predecessors(b));
        // A predecessor the entry does not reach leads only to others it does not reach.
        order.retain(|&b| cfg.is_reachable(b));
        order.reverse();
        Self::build(n, &order, &exits, |b| cfg.successors(b))
    }

    /// The tree over `order` (a reverse postorder of the graph from a virtual root whose
    /// successors are `roots`), where `preds` gives the edges into a block.
    fn build<'a>(
        n: usize,
        order: &[Handle<Block>],
        roots: &[Handle<Block>],
        preds: impl Fn(Handle<Block>) -> &'a [Handle<Block>],
    ) -> Self {
        let mut index = vec![usize::MAX; n];
        for (i, b) in order.iter().enumerate() {
            index[b.index()] = i;
        }
        let idom = graph::immediate_dominators(n, order, roots, preds);
        // Children lists, then an iterative depth-first walk of the forest numbering it.
        let mut first_child = vec![usize::MAX; n];
        let mut next_sibling = vec![usize::MAX; n];
        let mut tops = Vec::new();
        for &b in order.iter().rev() {
            match idom[b.index()] {
                Some(d) => {
                    next_sibling[b.index()] = first_child[d.index()];
                    first_child[d.index()] = b.index();
                }
                None => tops.push(b.index()),
            }
        }
        let (mut pre, mut last) = (vec![u32::MAX; n], vec![0u32; n]);
        let mut counter = 0u32;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for &t in tops.iter().rev() {
            pre[t] = counter;
            counter += 1;
            stack.push((t, first_child[t]));
            while let Some(top) = stack.last_mut() {
                let (node, child) = *top;
                if child == usize::MAX {
                    last[node] = counter - 1;
                    stack.pop();
                    continue;
                }
                top.1 = next_sibling[child];
                pre[child] = counter;
                counter += 1;
                stack.push((child, first_child[child]));
            }
        }
        DomTree {
            idom,
            order: index,
            pre,
            last,
        }
    }

    /// `b`'s immediate dominator; `None` for a root or a block outside the tree.
    pub fn idom(&self, b: Handle<Block>) -> Option<Handle<Block>> {
        self.idom.get(b.index()).copied().flatten()
    }

    /// Whether `b` is in the tree (reachable, or reaching an exit).
    pub fn contains(&self, b: Handle<Block>) -> bool {
        self.order.get(b.index()).is_some_and(|&i| i != usize::MAX)
    }

    /// Whether `a` dominates `b` (every block dominates itself; blocks outside the tree
    /// dominate and are dominated by nothing).
    pub fn dominates(&self, a: Handle<Block>, b: Handle<Block>) -> bool {
        if !self.contains(a) || !self.contains(b) {
            return false;
        }
        let (a, b) = (a.index(), b.index());
        self.pre[a] <= self.pre[b] && self.pre[b] <= self.last[a]
    }
}
