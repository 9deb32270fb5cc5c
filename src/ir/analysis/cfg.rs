//! A function's control-flow graph: successors and predecessors of each block, and the blocks
//! the entry reaches in reverse postorder.

use crate::ir::{Block, Function, Handle};

/// The control-flow graph of one function, indexed by block handle.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    succs: Vec<Vec<Handle<Block>>>,
    preds: Vec<Vec<Handle<Block>>>,
    rpo: Vec<Handle<Block>>,
    rpo_index: Vec<usize>,
}

impl Cfg {
    /// The graph of `f`'s branches (a target named twice by one terminator is one edge).
    pub fn new(f: &Function) -> Self {
        let n = f.blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for (b, block) in f.blocks.iter() {
            for s in block.terminator.successors() {
                if s.block.index() < n && !succs[b.index()].contains(&s.block) {
                    succs[b.index()].push(s.block);
                    preds[s.block.index()].push(b);
                }
            }
        }
        let mut cfg = Cfg {
            succs,
            preds,
            rpo: Vec::new(),
            rpo_index: vec![usize::MAX; n],
        };
        if let Some(entry) = f.entry() {
            cfg.rpo = super::graph::postorder(n, &[entry], |b| cfg.succs[b.index()].as_slice());
            cfg.rpo.reverse();
            for (i, b) in cfg.rpo.iter().enumerate() {
                cfg.rpo_index[b.index()] = i;
            }
        }
        cfg
    }

    /// The blocks `b` branches to.
    pub fn successors(&self, b: Handle<Block>) -> &[Handle<Block>] {
        self.succs.get(b.index()).map_or(&[], Vec::as_slice)
    }

    /// The blocks that branch to `b` (reachable or not).
    pub fn predecessors(&self, b: Handle<Block>) -> &[Handle<Block>] {
        self.preds.get(b.index()).map_or(&[], Vec::as_slice)
    }

    /// The blocks the entry reaches, in reverse postorder (the entry first).
    pub fn reverse_postorder(&self) -> &[Handle<Block>] {
        &self.rpo
    }

    /// Whether the entry reaches `b`.
    pub fn is_reachable(&self, b: Handle<Block>) -> bool {
        self.rpo_index(b).is_some()
    }

    /// `b`'s position in [`Self::reverse_postorder`], if reachable.
    pub fn rpo_index(&self, b: Handle<Block>) -> Option<usize> {
        self.rpo_index
            .get(b.index())
            .copied()
            .filter(|&i| i != usize::MAX)
    }

    /// The number of blocks of the function.
    pub fn len(&self) -> usize {
        self.succs.len()
    }

    /// Whether the function has no blocks (a declaration).
    pub fn is_empty(&self) -> bool {
        self.succs.is_empty()
    }
}
