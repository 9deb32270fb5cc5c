//! Dominator and post-dominator trees (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
//! Algorithm": iterate over reverse postorder until the immediate dominators settle).

use super::Cfg;
use crate::ir::{Block, Handle};

/// The immediate dominators of a function's reachable blocks (or, for a post-dominator tree,
/// the immediate post-dominators of the blocks that reach an exit).
#[derive(Clone, Debug)]
pub struct DomTree {
    /// Immediate dominator by block index; `None` for roots and blocks outside the tree.
    idom: Vec<Option<Handle<Block>>>,
    /// Position in the order the tree was built in, `usize::MAX` outside the tree.
    order: Vec<usize>,
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
        // Reverse postorder of the reversed graph, from every exit.
        let exits: Vec<Handle<Block>> = (0..n)
            .map(Handle::new)
            .filter(|&b| cfg.successors(b).is_empty() && cfg.is_reachable(b))
            .collect();
        let mut seen = vec![false; n];
        let mut post = Vec::new();
        for &x in &exits {
            if seen[x.index()] {
                continue;
            }
            seen[x.index()] = true;
            let mut stack = vec![(x, 0usize)];
            while let Some((b, next)) = stack.last_mut() {
                let b = *b;
                if let Some(&p) = cfg.predecessors(b).get(*next) {
                    *next += 1;
                    if !seen[p.index()] && cfg.is_reachable(p) {
                        seen[p.index()] = true;
                        stack.push((p, 0));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        post.reverse();
        Self::build(n, &post, &exits, |b| cfg.successors(b))
    }

    /// The tree over `order` (a reverse postorder of the graph from a virtual root whose
    /// successors are `roots`), where `preds` gives the edges into a block.
    fn build<'a>(
        n: usize,
        order: &[Handle<Block>],
        roots: &[Handle<Block>],
        preds: impl Fn(Handle<Block>) -> &'a [Handle<Block>],
    ) -> Self {
        const OUTSIDE: usize = usize::MAX;
        let mut index = vec![OUTSIDE; n];
        for (i, b) in order.iter().enumerate() {
            index[b.index()] = i;
        }
        // Positions shifted by one: 0 is the virtual root, `None` not yet known.
        let mut idom: Vec<Option<usize>> = vec![None; order.len() + 1];
        idom[0] = Some(0);
        for r in roots {
            if index[r.index()] != OUTSIDE {
                idom[index[r.index()] + 1] = Some(0);
            }
        }
        let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
            while a != b {
                while a > b {
                    a = idom[a].unwrap_or(0);
                }
                while b > a {
                    b = idom[b].unwrap_or(0);
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for (i, &b) in order.iter().enumerate() {
                let me = i + 1;
                if idom[me] == Some(0) && roots.contains(&b) {
                    continue;
                }
                let mut new: Option<usize> = None;
                for p in preds(b) {
                    let j = index[p.index()];
                    if j == OUTSIDE || idom[j + 1].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => j + 1,
                        Some(k) => intersect(&idom, j + 1, k),
                    });
                }
                if new.is_some() && idom[me] != new {
                    idom[me] = new;
                    changed = true;
                }
            }
        }
        let mut out = vec![None; n];
        for (i, b) in order.iter().enumerate() {
            if let Some(d) = idom[i + 1].filter(|&d| d > 0) {
                out[b.index()] = Some(order[d - 1]);
            }
        }
        DomTree {
            idom: out,
            order: index,
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
    pub fn dominates(&self, a: Handle<Block>, mut b: Handle<Block>) -> bool {
        if !self.contains(a) || !self.contains(b) {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.idom(b) {
                Some(d) => b = d,
                None => return false,
            }
        }
    }
}
