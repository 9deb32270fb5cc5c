//! The graph algorithms behind the analyses, on any dense node numbering: depth-first
//! postorder and immediate dominators (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
//! Algorithm"). The IR's analyses run them over block handles, the validator over the block
//! numbers of a function as it streams by, so both compute dominance the same way.

use crate::ir::Handle;

/// A node of a dense graph: a number below the graph's size.
pub trait Node: Copy + Eq {
    /// The node's number.
    fn index(self) -> usize;
}

impl Node for u32 {
    fn index(self) -> usize {
        self as usize
    }
}

impl<T> Node for Handle<T> {
    fn index(self) -> usize {
        Handle::index(self)
    }
}

/// The nodes reached from `roots` (in order) along `succs`, in postorder; iterative, so deep
/// graphs do not overflow the stack. `n` bounds the node numbers; larger ones are ignored.
pub fn postorder<'a, N: Node + 'a>(n: usize, roots: &[N], succs: impl Fn(N) -> &'a [N]) -> Vec<N> {
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for &r in roots {
        if r.index() >= n || seen[r.index()] {
            continue;
        }
        seen[r.index()] = true;
        let mut stack = vec![(r, 0usize)];
        while let Some((b, next)) = stack.last_mut() {
            let b = *b;
            if let Some(&s) = succs(b).get(*next) {
                *next += 1;
                if s.index() < n && !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push((s, 0));
                }
            } else {
                out.push(b);
                stack.pop();
            }
        }
    }
    out
}

/// The immediate dominator of every node, by node number: `rpo` is a reverse postorder of
/// the graph from a virtual root whose successors are `roots`, and `preds` gives the edges
/// into a node (edges from nodes outside `rpo` are ignored). Roots and nodes outside `rpo`
/// have `None`.
pub fn immediate_dominators<'a, N: Node + 'a>(
    n: usize,
    rpo: &[N],
    roots: &[N],
    preds: impl Fn(N) -> &'a [N],
) -> Vec<Option<N>> {
    const OUTSIDE: usize = usize::MAX;
    let mut position = vec![OUTSIDE; n];
    for (i, b) in rpo.iter().enumerate() {
        position[b.index()] = i;
    }
    // Positions shifted by one: 0 is the virtual root, `None` not yet known.
    let mut idom: Vec<Option<usize>> = vec![None; rpo.len() + 1];
    idom[0] = Some(0);
    let mut is_root = vec![false; rpo.len() + 1];
    for r in roots {
        if let Some(&p) = position.get(r.index()).filter(|&&p| p != OUTSIDE) {
            idom[p + 1] = Some(0);
            is_root[p + 1] = true;
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
        for (i, &b) in rpo.iter().enumerate() {
            let me = i + 1;
            if is_root[me] {
                continue;
            }
            let mut new: Option<usize> = None;
            for p in preds(b) {
                let j = position.get(p.index()).copied().unwrap_or(OUTSIDE);
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
    for (i, b) in rpo.iter().enumerate() {
        if let Some(d) = idom[i + 1].filter(|&d| d > 0) {
            out[b.index()] = Some(rpo[d - 1]);
        }
    }
    out
}
