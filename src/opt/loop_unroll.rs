//! Full loop unrolling (spirv-opt's `--loop-unroll`): a loop marked `Unroll` whose trip count
//! its constants decide becomes that many copies of its body, one after the other. Why:
//! HLSL's `[unroll]` asks for it, and code that indexes resource arrays or passes texel offsets
//! with the loop counter needs the counter constant (DXC's legalization unrolls for that); the
//! copies then fold.
//!
//! A loop is unrolled when its header decides (an `OpBranchConditional` to the merge block and
//! into the loop), that branch is the only way out (no break, return or kill inside), its one
//! back edge is an unconditional branch, and the condition, run through the folder from the
//! header arguments' first values and their updates, ends the loop within [`MAX_TRIPS`]
//! iterations and [`MAX_COPIED_OPS`] copied ops. Other loops, `[unroll]` or not, stay as they
//! are: the mark is a hint.
//!
//! The header keeps its place and becomes the first copy's header (so a construct naming it
//! as its merge block still does); each copy's back edge goes to the next copy's header, and
//! a last copy of the header computes the values the code after the loop reads and branches to
//! the merge block.

use super::fold;
use super::replace::{relayout_blocks, replace_uses};
use crate::grammar::{Id, LoopControl};
use crate::ir::analysis::{Cfg, DomTree, Loop, LoopNest};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{Block, Function, Handle, Module, Structure, Successor, Terminator, Value};
use std::collections::{HashMap, HashSet};

/// The most iterations a loop is unrolled to.
pub const MAX_TRIPS: usize = 256;

/// The most ops one unrolling may copy (the loop's ops times its trip count).
pub const MAX_COPIED_OPS: usize = 16_384;

/// Unrollings per function at most (nested `[unroll]` loops unroll the inner copies too).
const MAX_UNROLLINGS: usize = 1_024;

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let floats = fold::floats_fold(m);
    super::each_function(m, |m, f| {
        let mut changed = false;
        for _ in 0..MAX_UNROLLINGS {
            if !unroll_one(m, f, floats) {
                break;
            }
            changed = true;
        }
        changed
    })
}

/// What unrolling one loop needs to know.
struct Plan {
    header: Handle<Block>,
    /// The loop's blocks in reverse postorder (the header first).
    blocks: Vec<Handle<Block>>,
    /// The block whose branch goes back to the header.
    latch: Handle<Block>,
    /// The header's successor inside the loop, and the one out (to the merge block).
    inside: Successor,
    exit: Successor,
    /// The values the header's arguments take on entry and along the back edge.
    entry_args: Vec<Value>,
    back_args: Vec<Value>,
    trips: usize,
}

/// Unrolls the innermost `Unroll` loop that qualifies; whether there was one.
fn unroll_one(m: &mut Module, f: &mut Function, floats: bool) -> bool {
    if f.is_declaration() {
        return false;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::dominators(&cfg);
    let nest = LoopNest::new(f, &cfg, &dom);
    // Inner loops come after their outer loop.
    for l in nest.loops.iter().rev() {
        let unroll_marked = matches!(&f.blocks[l.header].structure,
            Some(Structure::Loop { control, .. }) if control.mask.contains(LoopControl::Unroll));
        if !unroll_marked {
            continue;
        }
        if let Some(plan) = plan(m, f, &cfg, &dom, l, floats) {
            unroll(m, f, &plan);
            return true;
        }
    }
    false
}

/// Whether every value of the loop's blocks that they use is defined where it dominates the
/// use (as in every valid module; copies of an invalid one would read undefined values).
fn defs_dominate_uses(m: &Module, f: &Function, dom: &DomTree, blocks: &[Handle<Block>]) -> bool {
    let mut def: HashMap<Value, (Handle<Block>, usize)> = HashMap::new();
    for &b in blocks {
        for &a in &f.blocks[b].args {
            def.insert(Value::BlockArg(a), (b, 0));
        }
        for (i, &o) in f.blocks[b].ops.iter().enumerate() {
            def.insert(Value::Op(o), (b, i + 1));
        }
    }
    let reaches = |v: Value, at: Handle<Block>, index: usize| match def.get(&v) {
        Some(&(d, k)) if d == at => k < index,
        Some(&(d, _)) => dom.dominates(d, at),
        None => true,
    };
    let mut ok = true;
    for &b in blocks {
        let block = &f.blocks[b];
        for (i, &o) in block.ops.iter().enumerate() {
            crate::ir::analysis::visit_operands(m, &f.ops[o].inst, &mut |v| {
                ok &= reaches(v, b, i + 1);
            });
        }
        let end = block.ops.len() + 1;
        block.terminator.visit_values(|v| ok &= reaches(v, b, end));
    }
    ok
}

/// Whether loop `l` can be unrolled, and how.
fn plan(
    m: &mut Module,
    f: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    l: &Loop,
    floats: bool,
) -> Option<Plan> {
    let (h, merge, blocks) = (l.header, l.merge, l.blocks.clone());
    let in_loop: HashSet<Handle<Block>> = blocks.iter().copied().collect();
    // The header decides: one way into the loop, one to the merge block.
    let Terminator::BranchConditional {
        condition,
        true_target,
        false_target,
        ..
    } = &f.blocks[h].terminator
    else {
        return None;
    };
    let (stay_when, inside, exit) = if false_target.block == merge {
        (true, true_target.clone(), false_target.clone())
    } else if true_target.block == merge {
        (false, false_target.clone(), true_target.clone())
    } else {
        return None;
    };
    if inside.block == merge || inside.block == h || !in_loop.contains(&inside.block) {
        return None;
    }
    // The only way out is the header's; one unconditional back edge.
    let mut latch = None;
    for &b in &blocks {
        let t = &f.blocks[b].terminator;
        if !matches!(
            t,
            Terminator::Branch(_)
                | Terminator::BranchConditional { .. }
                | Terminator::Switch { .. }
        ) {
            return None;
        }
        for s in t.successors() {
            if s.block == h {
                if latch.is_some() || b == h || !matches!(t, Terminator::Branch(_)) {
                    return None;
                }
                latch = Some((b, s.args.clone()));
            } else if s.block == merge {
                if b != h {
                    return None;
                }
            } else if !in_loop.contains(&s.block) {
                return None;
            }
        }
    }
    let (latch, back_args) = latch?;
    // One way in.
    let outside_preds: Vec<Handle<Block>> = cfg
        .predecessors(h)
        .iter()
        .copied()
        .filter(|p| !in_loop.contains(p) && cfg.is_reachable(*p))
        .collect();
    let [pre] = outside_preds.as_slice() else {
        return None;
    };
    let entry_args = f.blocks[*pre]
        .terminator
        .successors()
        .find(|s| s.block == h)?
        .args
        .clone();
    let header_args = &f.blocks[h].args;
    if entry_args.len() != header_args.len() || back_args.len() != header_args.len() {
        return None;
    }
    if !defs_dominate_uses(m, f, dom, &blocks) {
        return None;
    }
    // (The trip count first: it fails fast where the walk of the whole function would not.)
    let size: usize = blocks.iter().map(|&b| f.blocks[b].ops.len() + 1).sum();
    // The trip count: run the condition and the updates through the folder.
    let mut state: HashMap<Value, Value> = HashMap::new();
    for (&a, &v) in header_args.iter().zip(&entry_args) {
        if matches!(v, Value::Constant(_)) {
            state.insert(Value::BlockArg(a), v);
        }
    }
    let mut trips = 0;
    loop {
        let mut memo = HashMap::new();
        let c = evaluate(m, f, &state, &mut memo, *condition, floats, 0)?;
        let Value::Constant(c) = c else { return None };
        let stays = match &m.constants.get(c)?.value {
            crate::ir::ConstantValue::Bool(b) => *b == stay_when,
            _ => return None,
        };
        if !stays {
            break;
        }
        trips += 1;
        if trips > MAX_TRIPS || trips * size > MAX_COPIED_OPS {
            return None;
        }
        let mut next = HashMap::new();
        for (&a, &v) in header_args.iter().zip(&back_args) {
            if let Some(c) = evaluate(m, f, &state, &mut memo, v, floats, 0) {
                next.insert(Value::BlockArg(a), c);
            }
        }
        state = next;
    }
    // Nothing outside reads a value of the loop other than the header's, or names a block of
    // it (a branch from outside, a debug record).
    let mut owned: HashSet<Value> = HashSet::new();
    for &b in &blocks {
        owned.insert(Value::Block(b));
        if b != h {
            owned.extend(f.blocks[b].ops.iter().map(|&o| Value::Op(o)));
            owned.extend(f.blocks[b].args.iter().map(|&a| Value::BlockArg(a)));
        }
    }
    owned.insert(Value::Block(h));
    let mut escapes = false;
    for (b, block) in f.blocks.iter() {
        if in_loop.contains(&b) {
            continue;
        }
        for &o in &block.ops {
            crate::ir::analysis::visit_operands(m, &f.ops[o].inst, &mut |v| {
                escapes |= owned.contains(&v) && v != Value::Block(h);
            });
        }
        block
            .terminator
            .visit_values(|v| escapes |= owned.contains(&v));
    }
    for &o in &f.header {
        crate::ir::analysis::visit_operands(m, &f.ops[o].inst, &mut |v| {
            escapes |= owned.contains(&v);
        });
    }
    if escapes {
        return None;
    }
    Some(Plan {
        header: h,
        blocks,
        latch,
        inside,
        exit,
        entry_args,
        back_args,
        trips,
    })
}

/// The constant `v` is in an iteration where the header's arguments are `state`, if the
/// folder can tell.
fn evaluate(
    m: &mut Module,
    f: &Function,
    state: &HashMap<Value, Value>,
    memo: &mut HashMap<Value, Option<Value>>,
    v: Value,
    floats: bool,
    depth: usize,
) -> Option<Value> {
    match v {
        Value::Constant(_) => return Some(v),
        Value::BlockArg(_) => return state.get(&v).copied(),
        Value::Op(_) => {}
        _ => return None,
    }
    if let Some(known) = memo.get(&v) {
        return *known;
    }
    let Value::Op(o) = v else { return None };
    let op = f.ops.get(o)?;
    if depth > 64 || !op.decorations().is_empty() {
        return None;
    }
    let ty = op.result_type()?;
    let mut inst = op.inst.clone();
    let result = op.inst.result_id();
    let mut operands = Vec::new();
    crate::grammar::Ids::visit_ids(&inst, &mut |id| {
        if Some(id) != result {
            operands.push(id);
        }
    });
    let mut values: HashMap<Id, Id> = HashMap::new();
    for id in operands {
        if let Some(x @ (Value::Op(_) | Value::BlockArg(_))) = Value::from_id(id) {
            let c = evaluate(m, f, state, memo, x, floats, depth + 1)?;
            values.insert(id, c.to_id());
        }
    }
    crate::grammar::Ids::visit_ids_mut(&mut inst, &mut |id| {
        if let Some(&c) = values.get(id) {
            *id = c;
        }
    });
    let folded = fold::fold(m, &inst, ty, floats).filter(|c| matches!(c, Value::Constant(_)));
    memo.insert(v, folded);
    folded
}

/// Replaces the loop by `plan.trips` copies of its blocks and a last copy of its header.
fn unroll(m: &Module, f: &mut Function, plan: &Plan) {
    let h = plan.header;
    let header_args = f.blocks[h].args.clone();
    let originals: Vec<Block> = plan.blocks.iter().map(|&b| f.blocks[b].clone()).collect();
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => m
            .ext_inst_imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    let mut carried = plan.entry_args.clone();
    let mut layout: Vec<Handle<Block>> = Vec::new();
    let mut previous_latch: Option<Handle<Block>> = None;
    let mut last_values: HashMap<Value, Value> = HashMap::new();
    for k in 0..=plan.trips {
        let last = k == plan.trips;
        let copied: Vec<usize> = if last {
            vec![0]
        } else {
            (0..originals.len()).collect()
        };
        let mut values: HashMap<Value, Value> = HashMap::new();
        for (&a, &v) in header_args.iter().zip(&carried) {
            values.insert(Value::BlockArg(a), v);
        }
        let mut blocks: HashMap<Handle<Block>, Handle<Block>> = HashMap::new();
        for &i in &copied {
            let nb = f.blocks.append(Block::new(Terminator::Unreachable));
            blocks.insert(plan.blocks[i], nb);
            values.insert(Value::Block(plan.blocks[i]), Value::Block(nb));
        }
        let mut new_ops = Vec::new();
        for &i in &copied {
            let src = &originals[i];
            if i != 0 {
                for &a in &src.args {
                    let na = f.block_args.append(f.block_args[a].clone());
                    values.insert(Value::BlockArg(a), Value::BlockArg(na));
                }
            }
            for &o in &src.ops {
                let no = f.ops.append(f.ops[o].clone());
                values.insert(Value::Op(o), Value::Op(no));
                new_ops.push(no);
            }
        }
        let map = |v: Value| values.get(&v).copied().unwrap_or(v);
        for &o in &new_ops {
            visit_ids_mut(&mut f.ops[o].inst, ext, &mut |id: &mut Id| {
                if let Some(v) = Value::from_id(*id) {
                    *id = map(v).to_id();
                }
            });
        }
        let map_block = |b: Handle<Block>| blocks.get(&b).copied().unwrap_or(b);
        let map_successor = |s: &Successor| Successor {
            block: map_block(s.block),
            args: s.args.iter().map(|&v| map(v)).collect(),
        };
        for &i in &copied {
            let src = &originals[i];
            let b = plan.blocks[i];
            let terminator = if b == h {
                Terminator::Branch(map_successor(if last { &plan.exit } else { &plan.inside }))
            } else {
                let mut t = src.terminator.clone();
                match &mut t {
                    Terminator::BranchConditional { condition, .. } => *condition = map(*condition),
                    Terminator::Switch { selector, .. } => *selector = map(*selector),
                    _ => {}
                }
                for s in t.successors_mut() {
                    *s = if s.block == h {
                        // The back edge: linked to the next header once it exists.
                        Successor::new(h)
                    } else {
                        map_successor(s)
                    };
                }
                t
            };
            let structure = if b == h {
                None
            } else {
                src.structure.clone().map(|s| s.map_blocks(map_block))
            };
            let nb = blocks[&b];
            let block = &mut f.blocks[nb];
            block.name.clone_from(&src.name);
            block.args = if b == h {
                Vec::new()
            } else {
                src.args
                    .iter()
                    .map(|&a| match map(Value::BlockArg(a)) {
                        Value::BlockArg(na) => na,
                        _ => a,
                    })
                    .collect()
            };
            block.ops = src
                .ops
                .iter()
                .map(|&o| match map(Value::Op(o)) {
                    Value::Op(no) => no,
                    _ => o,
                })
                .collect();
            block.structure = structure;
            block.terminator = terminator;
            block.terminator_loc = src.terminator_loc;
        }
        let this_header = blocks[&h];
        if let Some(l) = previous_latch {
            for s in f.blocks[l].terminator.successors_mut() {
                if s.block == h {
                    *s = Successor::new(this_header);
                }
            }
        }
        layout.extend(copied.iter().map(|&i| blocks[&plan.blocks[i]]));
        if last {
            for &o in &originals[0].ops {
                last_values.insert(Value::Op(o), map(Value::Op(o)));
            }
            for (&a, &v) in header_args.iter().zip(&carried) {
                last_values.insert(Value::BlockArg(a), v);
            }
        } else {
            carried = plan.back_args.iter().map(|&v| map(v)).collect();
            previous_latch = Some(blocks[&plan.latch]);
        }
    }
    // The first copy's header takes the header's place, so that what names it (its
    // predecessor's branch, a construct it merges) names the unrolled code.
    let first = layout[0];
    let taken = std::mem::replace(&mut f.blocks[first], Block::new(Terminator::Unreachable));
    f.blocks[h] = taken;
    layout[0] = h;
    for l in layout.iter_mut() {
        if *l == first {
            *l = h;
        }
    }
    for (b, block) in f.blocks.iter_mut() {
        if b == h {
            continue;
        }
        for s in block.terminator.successors_mut() {
            if s.block == h {
                s.args.clear();
            } else if s.block == first {
                s.block = h;
            }
        }
    }
    // The code after the loop reads the last copy of the header.
    replace_uses(m, f, &last_values);
    let mut skipped: HashSet<Handle<Block>> = plan.blocks.iter().copied().collect();
    skipped.extend(layout.iter().copied());
    skipped.insert(first);
    let mut order: Vec<Handle<Block>> = Vec::new();
    let arena: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in arena {
        if b == h {
            order.extend(layout.iter().copied());
        } else if !skipped.contains(&b) {
            order.push(b);
        }
    }
    relayout_blocks(m, f, &order);
}
