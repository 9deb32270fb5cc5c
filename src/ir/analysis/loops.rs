//! The loop nest of a function, from the structured loops the IR records (`OpLoopMerge`): each
//! loop's header, merge block, continue target, blocks and enclosing loop. A loop's blocks are
//! those its header dominates and its merge block does not (the loop construct with its
//! continue construct, as the structured rules define them).

use super::{Cfg, DomTree};
use crate::ir::{Block, Function, Handle, Structure};

/// One structured loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The block with the `OpLoopMerge`.
    pub header: Handle<Block>,
    /// Where the loop exits to.
    pub merge: Handle<Block>,
    /// Where the back edge starts its way from.
    pub continue_target: Handle<Block>,
    /// The loop's reachable blocks, in reverse postorder (the header first).
    pub blocks: Vec<Handle<Block>>,
    /// The innermost loop containing this one, as an index into [`LoopNest::loops`].
    pub parent: Option<usize>,
}

/// Every reachable structured loop of a function, outer loops before the loops they contain.
#[derive(Clone, Debug, Default)]
pub struct LoopNest {
    /// The loops, in reverse postorder of their headers.
    pub loops: Vec<Loop>,
}

impl LoopNest {
    /// The loops of `f`, given its graph and dominator tree.
    pub fn new(f: &Function, cfg: &Cfg, dom: &DomTree) -> Self {
        let mut loops: Vec<Loop> = Vec::new();
        for &h in cfg.reverse_postorder() {
            let Some(Structure::Loop {
                merge,
                continue_target,
                ..
            }) = f.blocks[h].structure
            else {
                continue;
            };
            let blocks: Vec<Handle<Block>> = cfg
                .reverse_postorder()
                .iter()
                .copied()
                .filter(|&b| dom.dominates(h, b) && !dom.dominates(merge, b))
                .collect();
            // The innermost earlier loop holding the header (outer headers come first).
            let parent = loops.iter().rposition(|l| l.blocks.contains(&h));
            loops.push(Loop {
                header: h,
                merge,
                continue_target,
                blocks,
                parent,
            });
        }
        LoopNest { loops }
    }

    /// The loop headed by `header`, if it heads one.
    pub fn headed_by(&self, header: Handle<Block>) -> Option<&Loop> {
        self.loops.iter().find(|l| l.header == header)
    }

    /// How many loops contain `b`.
    pub fn depth(&self, b: Handle<Block>) -> usize {
        self.loops.iter().filter(|l| l.blocks.contains(&b)).count()
    }
}
