//! Control flow, per function: branch targets are labels of the same function, the entry
//! block is not a branch target, blocks appear after their dominators, every use of an id
//! defined in the function is dominated by its definition (for `OpPhi`, the definition
//! dominates the parent block), and in shader modules control flow is structured: merge and
//! continue targets belong to one header each, headers dominate their merges, back-edges go
//! to loop headers (one per loop), conditional branches and switches have their merges.
//!
//! Hand-written because the grammar has no notion of blocks or dominance. Blocks are
//! collected while the function streams by; dominators are computed when it ends
//! (Cooper–Harvey–Kennedy on the reverse postorder), so memory is bounded by the largest
//! function.

use super::module::Inst;
use super::Cx;
use crate::grammar::{Instruction, Opcode};
use crate::ir::analysis::graph;
use std::collections::HashMap;

/// A block of the function being walked.
#[derive(Debug)]
struct Block {
    label: u32,
    /// Index of its `OpLabel`.
    first: u32,
    /// Index of its terminator (or of its last instruction).
    last: u32,
    /// Branch targets (labels).
    succ: Vec<u32>,
    /// Its merge instruction: (instruction index, loop?, merge label, continue label).
    merge: Option<(u32, bool, u32, u32)>,
    /// Its terminator opcode.
    terminator: Option<Opcode>,
}

/// A use of an id defined in the function: the using instruction, its block, the
/// definition, and for `OpPhi` operands the parent block's label.
#[derive(Debug, Clone, Copy)]
struct Use {
    inst: u32,
    block: u32,
    def: u32,
    phi_parent: Option<u32>,
}

/// The function being walked.
#[derive(Debug, Default)]
pub(super) struct State {
    blocks: Vec<Block>,
    uses: Vec<Use>,
    /// `OpPhi`s of the function: (instruction index, block index).
    phis: Vec<(u32, u32)>,
    /// Labels already named as a merge block in the function.
    merges: std::collections::HashSet<u32>,
}

impl State {
    /// Records that instruction `inst` of the current block uses the value defined by
    /// instruction `def` (for `OpPhi`, coming from block `phi_parent`).
    pub fn record_use(&mut self, inst: u32, def: u32, phi_parent: Option<u32>) {
        if let Some(b) = self.blocks.len().checked_sub(1) {
            self.uses.push(Use {
                inst,
                block: b as u32,
                def,
                phi_parent,
            });
        }
    }
}

const RULE_LABEL: &str = "core:branch-target";
const RULE_PHI: &str = "core:phi";

/// Each `OpPhi` names every predecessor of its block once.
fn phis(cx: &mut Cx<'_>) {
    let blocks = &cx.cfg.blocks;
    if cx.cfg.phis.is_empty() {
        return;
    }
    let index: HashMap<u32, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i))
        .collect();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); blocks.len()];
    for b in blocks {
        for t in &b.succ {
            if let Some(&ti) = index.get(t) {
                if !preds[ti].contains(&b.label) {
                    preds[ti].push(b.label);
                }
            }
        }
    }
    let mut errors = Vec::new();
    for &(i, b) in &cx.cfg.phis {
        let inst = cx.m.inst(i);
        let parents: Vec<u32> = inst
            .rest(2)
            .chunks(2)
            .filter_map(|c| c.get(1).copied())
            .collect();
        let p = &preds[b as usize];
        if parents.len() != p.len() {
            errors.push((
                inst,
                format!(
                    "OpPhi has {} incoming blocks, its block has {} predecessors",
                    parents.len(),
                    p.len()
                ),
            ));
        } else if let Some(x) = parents.iter().find(|x| !p.contains(x)) {
            errors.push((
                inst,
                format!(
                    "OpPhi: incoming block %{x} is not a predecessor of %{}",
                    blocks[b as usize].label
                ),
            ));
        }
    }
    for (inst, msg) in errors {
        cx.err(&inst, RULE_PHI, msg);
    }
}

/// Checks a branch target: an `OpLabel` of the current function.
fn target(cx: &mut Cx<'_>, inst: &Inst<'_>, what: &str, id: u32) {
    let ok = cx.m.def_op(id) == Some(Opcode::Label)
        && match (cx.func, cx.m.def_index(id)) {
            (Some(f), Some(d)) => {
                let f = cx.m.functions[f];
                d > f.start && d <= f.end
            }
            _ => false,
        };
    if !ok {
        cx.err(
            inst,
            RULE_LABEL,
            format!("{what} %{id} must be the id of an OpLabel in the same function"),
        );
    }
}

/// Tracks blocks and checks the control-flow instructions.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    if cx.func.is_none() {
        return;
    }
    let Some(op) = inst.op() else { return };
    match typed {
        Instruction::Label(l) => {
            cx.cfg.blocks.push(Block {
                label: l.result_id.0,
                first: inst.index,
                last: inst.index,
                succ: Vec::new(),
                merge: None,
                terminator: None,
            });
            return;
        }
        Instruction::FunctionEnd(_) => {
            phis(cx);
            analyze(cx, inst);
            cx.cfg.blocks.clear();
            cx.cfg.uses.clear();
            cx.cfg.phis.clear();
            cx.cfg.merges.clear();
            return;
        }
        _ => {}
    }
    if cx.block.is_none() {
        return;
    }
    let mut succ = Vec::new();
    match typed {
        Instruction::Phi(p) => {
            let m = cx.m;
            if let Some(b) = cx.cfg.blocks.len().checked_sub(1) {
                cx.cfg.phis.push((inst.index, b as u32));
            }
            let rt = p.result_type.0;
            if m.ty(rt) == Some(super::query::Ty::Void) {
                return cx.err(inst, RULE_PHI, "OpPhi must not have a void result type");
            }
            if cx.logical
                && m.is_pointer(rt)
                && !m
                    .capabilities
                    .has(crate::grammar::Capability::VariablePointers)
                && !m
                    .capabilities
                    .has(crate::grammar::Capability::VariablePointersStorageBuffer)
            {
                return cx.err(
                    inst,
                    RULE_PHI,
                    "OpPhi of pointers requires the VariablePointers capabilities",
                );
            }
            for (v, parent) in &p.variables {
                if m.type_of(v.0) != Some(rt) {
                    return cx.err(
                        inst,
                        RULE_PHI,
                        format!("OpPhi: incoming value %{} is not of the result type", v.0),
                    );
                }
                if m.def_op(parent.0) != Some(Opcode::Label) {
                    return cx.err(
                        inst,
                        RULE_PHI,
                        format!("OpPhi: incoming block %{} is not an OpLabel", parent.0),
                    );
                }
            }
        }
        Instruction::Branch(b) => {
            target(cx, inst, "OpBranch target", b.target_label.0);
            succ.push(b.target_label.0);
        }
        Instruction::BranchConditional(b) => {
            let cond_ty = cx.m.type_of(b.condition.0).unwrap_or(0);
            if !cx.m.is_bool_scalar(cond_ty) {
                cx.err(
                    inst,
                    "core:operand-type",
                    "the condition of OpBranchConditional must be a bool scalar",
                );
            }
            target(cx, inst, "OpBranchConditional true label", b.true_label.0);
            target(cx, inst, "OpBranchConditional false label", b.false_label.0);
            if cx.m.version >= crate::grammar::Version(1, 6) && b.true_label == b.false_label {
                cx.err(
                    inst,
                    "core:branch-target",
                    "in SPIR-V 1.6 and later the true and false labels must differ",
                );
            }
            if !b.branch_weights.is_empty() && b.branch_weights.len() != 2 {
                cx.err(
                    inst,
                    "core:operand-count",
                    "OpBranchConditional has either no branch weights or two",
                );
            }
            succ.push(b.true_label.0);
            succ.push(b.false_label.0);
        }
        Instruction::Switch(s) => {
            let sel_ty = cx.m.type_of(s.selector.0).unwrap_or(0);
            if !cx.m.is_int_scalar(sel_ty) {
                cx.err(
                    inst,
                    "core:operand-type",
                    "the selector of OpSwitch must be an integer scalar",
                );
            }
            target(cx, inst, "OpSwitch default", s.default.0);
            succ.push(s.default.0);
            let mut seen = std::collections::HashSet::new();
            for (lit, l) in &s.targets {
                target(cx, inst, "OpSwitch target", l.0);
                succ.push(l.0);
                if !seen.insert(lit.low_u64()) {
                    cx.err(
                        inst,
                        "core:switch-literal",
                        format!("OpSwitch has the case literal {} twice", lit.low_u64()),
                    );
                }
            }
        }
        Instruction::SelectionMerge(s) => {
            target(cx, inst, "OpSelectionMerge merge block", s.merge_block.0);
            merge(cx, inst, false, s.merge_block.0, 0);
        }
        Instruction::LoopMerge(l) => {
            target(cx, inst, "OpLoopMerge merge block", l.merge_block.0);
            target(cx, inst, "OpLoopMerge continue target", l.continue_target.0);
            if l.merge_block == l.continue_target {
                cx.err(
                    inst,
                    "core:structured-cfg",
                    "the merge block and continue target of OpLoopMerge must differ",
                );
            }
            merge(cx, inst, true, l.merge_block.0, l.continue_target.0);
        }
        _ => {}
    }
    if op.is_block_terminator() {
        if let Some(b) = cx.cfg.blocks.last_mut() {
            b.succ = succ;
            b.last = inst.index;
            b.terminator = Some(op);
        }
    }
}

/// Records a merge instruction on the current block.
fn merge(cx: &mut Cx<'_>, inst: &Inst<'_>, is_loop: bool, merge: u32, cont: u32) {
    if !cx.cfg.merges.insert(merge) {
        cx.err(
            inst,
            "core:structured-cfg",
            format!("block %{merge} is already the merge block of another header"),
        );
    }
    if let Some(b) = cx.cfg.blocks.last_mut() {
        let label = b.label;
        b.merge = Some((inst.index, is_loop, merge, cont));
        if merge == label {
            cx.err(
                inst,
                "core:structured-cfg",
                "a header block cannot be its own merge block",
            );
        }
    }
}

const UNDEF: u32 = u32::MAX;

/// Checks the finished function.
fn analyze(cx: &mut Cx<'_>, end: &Inst<'_>) {
    let blocks = std::mem::take(&mut cx.cfg.blocks);
    let uses = std::mem::take(&mut cx.cfg.uses);
    let n = blocks.len();
    if n == 0 {
        return;
    }
    let index: HashMap<u32, u32> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i as u32))
        .collect();
    let succ: Vec<Vec<u32>> = blocks
        .iter()
        .map(|b| {
            b.succ
                .iter()
                .filter_map(|l| index.get(l).copied())
                .collect()
        })
        .collect();
    // The entry block cannot be a branch target.
    for (i, s) in succ.iter().enumerate() {
        if s.contains(&0) {
            let inst = cx.m.inst(blocks[i].last);
            cx.err(
                &inst,
                "core:entry-block",
                format!(
                    "the first block %{} of a function cannot be a branch target",
                    blocks[0].label
                ),
            );
        }
    }
    // Reverse postorder from the entry.
    let order = postorder(&succ);
    let mut rpo_num = vec![UNDEF; n];
    for (k, &b) in order.iter().rev().enumerate() {
        rpo_num[b as usize] = k as u32;
    }
    let reachable = |b: usize| rpo_num[b] != UNDEF;
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, s) in succ.iter().enumerate() {
        if reachable(b) {
            for &t in s {
                preds[t as usize].push(b as u32);
            }
        }
    }
    let idom = dominators(&order, &preds);
    let tree = Tree::new(&idom);
    let dominates =
        |a: usize, b: usize| -> bool { reachable(a) && reachable(b) && tree.contains(a, b) };
    // Blocks appear after their dominators.
    for b in 1..n {
        if reachable(b) {
            let d = idom[b] as usize;
            if d != b && d > b {
                let inst = cx.m.inst(blocks[d].first);
                cx.err(
                    &inst,
                    "core:block-order",
                    format!(
                        "block %{} appears in the binary before its dominator %{}",
                        blocks[b].label, blocks[d].label
                    ),
                );
            }
        }
    }
    // Uses are dominated by their definitions.
    let block_of = |inst: u32| -> usize {
        blocks
            .partition_point(|b| b.first <= inst)
            .saturating_sub(1)
    };
    for u in &uses {
        let db = block_of(u.def);
        let (ub, what) = match u.phi_parent {
            Some(p) => match index.get(&p) {
                Some(&p) => (p as usize, "its OpPhi parent block"),
                None => continue,
            },
            None => (u.block as usize, "its use"),
        };
        if !reachable(db) || !reachable(ub) || !reachable(u.block as usize) {
            continue;
        }
        if db == ub && u.phi_parent.is_none() {
            continue; // Order within a block is the use-before-definition rule.
        }
        if !dominates(db, ub) {
            let inst = cx.m.inst(u.inst);
            let def = cx.m.inst(u.def).result_id().unwrap_or(0);
            cx.err(
                &inst,
                "core:dominance",
                format!(
                    "%{def} defined in block %{} does not dominate {what} in block %{}",
                    blocks[db].label, blocks[ub].label
                ),
            );
        }
    }
    if cx.shader {
        structured(cx, &blocks, &index, &succ);
    }
    let _ = end;
}

/// Blocks reachable from block 0 in postorder.
fn postorder(succ: &[Vec<u32>]) -> Vec<u32> {
    graph::postorder(succ.len(), &[0], |b| succ[b as usize].as_slice())
}

/// Immediate dominators by block index, from `order` (a postorder from block 0) and the
/// predecessors; the entry and unreachable blocks are their own.
fn dominators(order: &[u32], preds: &[Vec<u32>]) -> Vec<u32> {
    let rpo: Vec<u32> = order.iter().rev().copied().collect();
    let idom =
        graph::immediate_dominators(preds.len(), &rpo, &[0], |b| preds[b as usize].as_slice());
    idom.into_iter()
        .enumerate()
        .map(|(b, d)| d.unwrap_or(b as u32))
        .collect()
}

/// Immediate post-dominators over the reachable blocks: the blocks without successors are
/// roots (under a virtual exit), as is a block that cannot reach an exit (an infinite loop);
/// a root is its own.
fn post_dominators(succ: &[Vec<u32>], reachable: &[bool]) -> Vec<u32> {
    let n = succ.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, s) in succ.iter().enumerate() {
        if reachable[b] {
            for &t in s {
                preds[t as usize].push(b as u32);
            }
        }
    }
    let exits: Vec<u32> = (0..n as u32)
        .filter(|&b| reachable[b as usize] && succ[b as usize].is_empty())
        .collect();
    let mut order = graph::postorder(n, &exits, |b| preds[b as usize].as_slice());
    order.reverse();
    let ipdom = graph::immediate_dominators(n, &order, &exits, |b| succ[b as usize].as_slice());
    ipdom
        .into_iter()
        .enumerate()
        .map(|(b, d)| d.unwrap_or(b as u32))
        .collect()
}

/// A tree given by parent links (a node that is its own parent is a root), numbered in
/// depth-first pre- and post-order so that ancestry is an O(1) interval test.
struct Tree {
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Tree {
    fn new(parent: &[u32]) -> Tree {
        let n = parent.len();
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (b, &p) in parent.iter().enumerate() {
            if p as usize == b || p as usize >= n {
                roots.push(b as u32);
            } else {
                children[p as usize].push(b as u32);
            }
        }
        let (mut pre, mut post) = (vec![0u32; n], vec![0u32; n]);
        let (mut tick_pre, mut tick_post) = (0u32, 0u32);
        for r in roots {
            let mut stack: Vec<(u32, usize)> = vec![(r, 0)];
            pre[r as usize] = tick_pre;
            tick_pre += 1;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                let c = &children[b as usize];
                if *next < c.len() {
                    let t = c[*next];
                    *next += 1;
                    pre[t as usize] = tick_pre;
                    tick_pre += 1;
                    stack.push((t, 0));
                } else {
                    post[b as usize] = tick_post;
                    tick_post += 1;
                    stack.pop();
                }
            }
        }
        Tree { pre, post }
    }

    /// Whether `a` is `b` or an ancestor of it.
    fn contains(&self, a: usize, b: usize) -> bool {
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// Structured control flow rules (modules with the `Shader` capability).
fn structured(cx: &mut Cx<'_>, blocks: &[Block], index: &HashMap<u32, u32>, succ: &[Vec<u32>]) {
    // The structural CFG: branch edges plus header -> merge and header -> continue edges;
    // constructs and their dominance are defined on it.
    let n = blocks.len();
    let ssucc: Vec<Vec<u32>> = blocks
        .iter()
        .zip(succ)
        .map(|(b, s)| {
            let mut s = s.clone();
            if let Some((_, is_loop, merge, cont)) = b.merge {
                s.extend(index.get(&merge).copied());
                if is_loop {
                    s.extend(index.get(&cont).copied());
                }
            }
            s
        })
        .collect();
    let order = postorder(&ssucc);
    let mut rpo_num = vec![UNDEF; n];
    for (k, &b) in order.iter().rev().enumerate() {
        rpo_num[b as usize] = k as u32;
    }
    let reachable: Vec<bool> = rpo_num.iter().map(|&r| r != UNDEF).collect();
    let mut spreds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, s) in ssucc.iter().enumerate() {
        if reachable[b] {
            for &t in s {
                spreds[t as usize].push(b as u32);
            }
        }
    }
    let idom = dominators(&order, &spreds);
    let tree = Tree::new(&idom);
    let dominates =
        |a: usize, b: usize| -> bool { reachable[a] && reachable[b] && tree.contains(a, b) };
    // Control-flow nesting depth (spirv-val's universal limit): a merge block is at its
    // header's depth, a continue target one deeper than its loop header, any other block at
    // its immediate dominator's depth, plus one when that dominator is a header.
    const MAX_NESTING: u32 = 1023;
    let mut merge_of: HashMap<usize, usize> = HashMap::new();
    let mut continue_of: HashMap<usize, usize> = HashMap::new();
    for (h, b) in blocks.iter().enumerate() {
        if let Some((_, is_loop, merge, cont)) = b.merge {
            if let Some(&m) = index.get(&merge) {
                merge_of.entry(m as usize).or_insert(h);
            }
            if is_loop {
                if let Some(&c) = index.get(&cont).filter(|&&c| c as usize != h) {
                    continue_of.entry(c as usize).or_insert(h);
                }
            }
        }
    }
    let mut depth = vec![0u32; n];
    for &b in order.iter().rev() {
        let b = b as usize;
        depth[b] = if let Some(&h) = merge_of.get(&b) {
            depth[h]
        } else if let Some(&h) = continue_of.get(&b) {
            depth[h] + 1
        } else {
            let d = idom[b] as usize;
            if d == b {
                0
            } else {
                depth[d] + u32::from(blocks[d].merge.is_some())
            }
        };
        if depth[b] > MAX_NESTING {
            let inst = cx.m.inst(blocks[b].first);
            cx.err(
                &inst,
                "core:structured-cfg",
                format!("the control flow nesting depth exceeds the limit of {MAX_NESTING}"),
            );
            break;
        }
    }
    // Headers dominate their merge blocks; a block continues at most one loop.
    let mut continues: HashMap<u32, u32> = HashMap::new();
    for (h, b) in blocks.iter().enumerate() {
        let Some((mi, is_loop, merge, cont)) = b.merge else {
            continue;
        };
        let inst = cx.m.inst(mi);
        if let Some(&m) = index.get(&merge) {
            if reachable[h] && reachable[m as usize] && !dominates(h, m as usize) {
                cx.err(
                    &inst,
                    "core:structured-cfg",
                    format!(
                        "header block %{} does not dominate its merge block %{merge}",
                        b.label
                    ),
                );
            }
        }
        if is_loop {
            if let Some(prev) = continues.insert(cont, b.label) {
                cx.err(
                    &inst,
                    "core:structured-cfg",
                    format!("block %{cont} is already the continue target of loop header %{prev}"),
                );
            }
            if let Some(&c) = index.get(&cont) {
                if reachable[h] && reachable[c as usize] && !dominates(h, c as usize) {
                    cx.err(
                        &inst,
                        "core:structured-cfg",
                        format!(
                            "loop header %{} does not dominate its continue target %{cont}",
                            b.label
                        ),
                    );
                }
            }
        }
    }
    // Back-edges go to loop headers, one back-edge block per loop.
    let mut back_edges: Vec<u32> = vec![0; blocks.len()];
    for (b, s) in succ.iter().enumerate() {
        if !reachable[b] {
            continue;
        }
        for &t in s {
            let t = t as usize;
            if dominates(t, b) {
                let is_loop_header = blocks[t].merge.is_some_and(|(_, l, _, _)| l);
                if !is_loop_header {
                    let inst = cx.m.inst(blocks[b].last);
                    cx.err(
                        &inst,
                        "core:structured-cfg",
                        format!(
                            "back-edge (%{} -> %{}) can only be formed between a block and a \
                             loop header",
                            blocks[b].label, blocks[t].label
                        ),
                    );
                } else {
                    back_edges[t] += 1;
                }
            }
        }
    }
    for (h, b) in blocks.iter().enumerate() {
        if reachable[h] && b.merge.is_some_and(|(_, l, _, _)| l) && back_edges[h] > 1 {
            let inst = cx.m.inst(b.first);
            cx.err(
                &inst,
                "core:structured-cfg",
                format!(
                    "loop header %{} is targeted by {} back-edge blocks but exactly one is \
                     allowed",
                    b.label, back_edges[h]
                ),
            );
        }
    }
    // No block outside a construct branches into it except to its header, and the back-edge
    // block of a loop post-dominates its continue target.
    let n = blocks.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, s) in succ.iter().enumerate() {
        if reachable[b] {
            for &t in s {
                preds[t as usize].push(b as u32);
            }
        }
    }
    let ipdom = post_dominators(&ssucc, &reachable);
    let ptree = Tree::new(&ipdom);
    let post_dominates = |a: usize, b: usize| -> bool { ptree.contains(a, b) };
    // A header H's construct is the dominator subtree of H minus those of its merge M (and, for
    // a loop, of its continue target C). An edge P -> B with B in the construct (B != H) and
    // P outside it has P under M or C and B not: the boundary blocks to look at are P's
    // dominator ancestors up to (not including) the lowest common ancestor of P and B, which
    // keeps the walk short.
    let mut boundary: HashMap<usize, Vec<usize>> = HashMap::new();
    for (h, hb) in blocks.iter().enumerate() {
        if let Some((_, is_loop, merge, cont)) = hb.merge {
            if let Some(&m) = index.get(&merge) {
                boundary.entry(m as usize).or_default().push(h);
            }
            if is_loop {
                if let Some(&c) = index.get(&cont).filter(|&&c| c as usize != h) {
                    boundary.entry(c as usize).or_default().push(h);
                }
            }
        }
    }
    let in_construct = |h: usize, b: usize| -> bool {
        let Some((_, is_loop, merge, cont)) = blocks[h].merge else {
            return false;
        };
        let out = |x: u32| index.get(&x).is_some_and(|&x| dominates(x as usize, b));
        dominates(h, b) && !out(merge) && !(is_loop && cont != blocks[h].label && out(cont))
    };
    let mut reported = std::collections::HashSet::new();
    if !boundary.is_empty() {
        for (p, targets) in succ.iter().enumerate() {
            if !reachable[p] {
                continue;
            }
            for &b in targets {
                let b = b as usize;
                if !reachable[b] {
                    continue;
                }
                let mut x = p;
                while !tree.contains(x, b) {
                    for &h in boundary.get(&x).map_or(&[][..], |v| &v[..]) {
                        if h != b && in_construct(h, b) && reported.insert(h) {
                            let inst = cx.m.inst(blocks[p].last);
                            let is_loop = blocks[h].merge.is_some_and(|(_, l, _, _)| l);
                            cx.err(
                                &inst,
                                "core:structured-cfg",
                                format!(
                                    "block %{} branches to the {} construct of %{}, but not to \
                                     its header",
                                    blocks[p].label,
                                    if is_loop { "loop" } else { "selection" },
                                    blocks[h].label
                                ),
                            );
                        }
                    }
                    let up = idom[x] as usize;
                    if up == x {
                        break;
                    }
                    x = up;
                }
            }
        }
    }
    for (h, hb) in blocks.iter().enumerate() {
        let Some((mi, is_loop, _, cont)) = hb.merge else {
            continue;
        };
        if !reachable[h] {
            continue;
        }
        let c = index.get(&cont).map(|&c| c as usize);
        if let (true, Some(c)) = (is_loop, c) {
            if c != h && reachable[c] {
                let back_edge = preds[h]
                    .iter()
                    .map(|&p| p as usize)
                    .find(|&p| dominates(h, p));
                if let Some(b) = back_edge {
                    if !post_dominates(b, c) {
                        let inst = cx.m.inst(mi);
                        cx.err(
                            &inst,
                            "core:structured-cfg",
                            format!(
                                "the continue construct with the continue target %{cont} is not \
                                 post-dominated by the back-edge block %{}",
                                blocks[b].label
                            ),
                        );
                    }
                }
            }
        }
    }
    // Conditional branches and switches need merges (spirv-val's "structured selections").
    let mut seen: std::collections::HashSet<u32> = std::collections::HashSet::new();
    for &bi in order.iter().rev() {
        let b = &blocks[bi as usize];
        if let Some((_, is_loop, merge, cont)) = b.merge {
            seen.insert(merge);
            if is_loop {
                seen.insert(cont);
            }
        }
        match b.terminator {
            Some(Opcode::BranchConditional) => {
                let t = b.succ.first().copied().unwrap_or(0);
                let f = b.succ.get(1).copied().unwrap_or(0);
                let t_new = seen.insert(t);
                let f_new = seen.insert(f);
                if b.merge.is_none() && t_new && f_new {
                    let inst = cx.m.inst(b.last);
                    cx.err(
                        &inst,
                        "core:structured-cfg",
                        "selection must be structured: this conditional branch needs an \
                         OpSelectionMerge",
                    );
                }
            }
            Some(Opcode::Switch) => {
                if b.merge.is_none() {
                    let inst = cx.m.inst(b.last);
                    cx.err(
                        &inst,
                        "core:structured-cfg",
                        "OpSwitch must be preceded by an OpSelectionMerge instruction",
                    );
                }
                for &t in &b.succ {
                    seen.insert(t);
                }
            }
            _ => {}
        }
    }
}
