//! Analyses of the IR that passes share (after SPIRV-Tools' `source/opt` analyses): the
//! control-flow graph of a function, its dominator and post-dominator trees, its loop nest,
//! the uses of its values (def-use chains and counts), and the module's call graph. Each is computed on demand from the IR as it is and
//! owns no reference to it, so a pass recomputes what its rewrites invalidate.

mod call_graph;
mod cfg;
mod def_use;
mod dominators;
pub mod graph;
mod loops;

pub use call_graph::CallGraph;
pub use cfg::Cfg;
pub use def_use::{visit_operands, DefUse, UseCounts, User};
pub use dominators::DomTree;
pub use loops::{Loop, LoopNest};
