//! Dead-branch elimination (spirv-opt's `--eliminate-dead-branches`): a conditional branch or
//! switch on a constant goes only where the constant sends it, and blocks nothing reaches go.
//! Why: after inlining and folding, `if (false)`, `[branch] if (kUseFog)` and `switch` on a
//! literal leave whole regions that never run.
//!
//! Structured control flow stays valid: a selection whose taken side may still reach its merge
//! keeps its merge instruction, as a switch on a constant with only a default (which adds no
//! edge, and which a switch's nested constructs may still break out of); once the merge is reached only
//! by falling off the taken side (or not at all), the selection goes. A loop keeps its merge
//! instruction, and a branch back to a loop header stays conditional (a loop has exactly one
//! back edge). An unreachable block that a reachable header names as its merge or continue
//! target stays, emptied (`OpUnreachable`, or a branch back to the loop header). An `if` both
//! of whose sides do nothing but reach the merge becomes a branch to the merge.

use super::replace::relayout_blocks;
use crate::grammar::LiteralNumber;
use crate::ir::analysis::{Cfg, DomTree};
use crate::ir::{
    Block, Constant, ConstantValue, Function, Handle, Module, Structure, Successor, Terminator,
    Type, Value,
};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, in_function)
}

fn in_function(m: &mut Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    let mut changed = fold_branches(m, f);
    changed |= fold_empty_selections(f);
    changed |= remove_unreachable(m, f);
    if drop_finished_selections(m, f) {
        changed = true;
        remove_unreachable(m, f);
    }
    changed
}

/// The boolean a constant condition holds.
fn constant_bool(m: &Module, v: Value) -> Option<bool> {
    let Value::Constant(c) = v else { return None };
    match m.constants.get(c)?.value {
        ConstantValue::Bool(b) => Some(b),
        ConstantValue::Null => Some(false),
        _ => None,
    }
}

/// The integer a constant selector holds, as wide as its type.
fn constant_int(m: &Module, v: Value) -> Option<(u64, u32)> {
    let Value::Constant(c) = v else { return None };
    let c = m.constants.get(c)?;
    let Some(Type::Int { width, .. }) = m.types.get(c.ty) else {
        return None;
    };
    let bits = match &c.value {
        ConstantValue::Scalar(l) => l.low_u64(),
        ConstantValue::Null => 0,
        _ => return None,
    };
    Some((bits, *width))
}

fn low_bits(l: &LiteralNumber, width: u32) -> u64 {
    let x = l.low_u64();
    if width >= 64 {
        x
    } else {
        x & ((1u64 << width) - 1)
    }
}

/// An undefined value of each argument type of `b` (for an edge never taken).
fn undefs(m: &mut Module, f: &Function, b: Handle<Block>) -> Vec<Value> {
    f.blocks[b]
        .args
        .iter()
        .map(|&a| {
            Value::Constant(
                m.constants
                    .insert(Constant::new(f.block_args[a].ty, ConstantValue::Undef)),
            )
        })
        .collect()
}

/// Rewrites branches on constants; whether any changed.
fn fold_branches(m: &mut Module, f: &mut Function) -> bool {
    let mut changed = false;
    let handles: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in handles {
        let live = match &f.blocks[b].terminator {
            Terminator::BranchConditional {
                condition,
                true_target,
                false_target,
                ..
            } => match constant_bool(m, *condition) {
                Some(c) => {
                    let (live, dead) = if c {
                        (true_target, false_target)
                    } else {
                        (false_target, true_target)
                    };
                    // A loop keeps its one back edge (`do { } while (false)`), as the
                    // structured rules ask.
                    if matches!(f.blocks[dead.block].structure, Some(Structure::Loop { .. })) {
                        continue;
                    }
                    live.clone()
                }
                None => continue,
            },
            // A switch with only a default is the kept form (glslang writes it too).
            Terminator::Switch { cases, .. } if cases.is_empty() => continue,
            Terminator::Switch {
                selector,
                default,
                cases,
            } => match constant_int(m, *selector) {
                Some((x, width)) => cases
                    .iter()
                    .find(|(l, _)| low_bits(l, width) == x)
                    .map_or(default, |(_, s)| s)
                    .clone(),
                None => continue,
            },
            _ => continue,
        };
        let is_switch = matches!(f.blocks[b].terminator, Terminator::Switch { .. });
        let to_merge = f.blocks[b].structure.as_ref().map(Structure::merge) == Some(live.block);
        let terminator = match &f.blocks[b].structure {
            Some(Structure::Selection { .. }) if to_merge => {
                f.blocks[b].structure = None;
                Terminator::Branch(live)
            }
            // A switch construct may be left by breaks from nested constructs: it stays a
            // switch, with only a default.
            Some(Structure::Selection { merge, .. }) if is_switch && *merge != live.block => {
                let Terminator::Switch { selector, .. } = &f.blocks[b].terminator else {
                    unreachable!("is_switch");
                };
                Terminator::Switch {
                    selector: *selector,
                    default: live,
                    cases: Vec::new(),
                }
            }
            // An `if` whose taken side does not end at the merge keeps its merge instruction
            // as a switch on a constant with only a default: no edge is added (a value the
            // taken side defines may dominate the merge), and nothing inside can break.
            Some(Structure::Selection { .. }) => {
                let uint = m.types.insert(Type::Int {
                    width: 32,
                    signed: false,
                });
                let zero = m.constants.insert(Constant::new(
                    uint,
                    ConstantValue::Scalar(LiteralNumber::Word(0)),
                ));
                Terminator::Switch {
                    selector: Value::Constant(zero),
                    default: live,
                    cases: Vec::new(),
                }
            }
            _ => Terminator::Branch(live),
        };
        f.blocks[b].terminator = terminator;
        changed = true;
    }
    changed
}

/// An `if` whose two sides reach the merge block with nothing to do (each side the merge
/// itself or an empty block branching there, passing the same values) becomes a branch to
/// the merge; whether any did.
fn fold_empty_selections(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let mut changed = false;
    let handles: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in handles {
        let Some(Structure::Selection { merge, .. }) = f.blocks[b].structure else {
            continue;
        };
        let Terminator::BranchConditional {
            true_target,
            false_target,
            ..
        } = &f.blocks[b].terminator
        else {
            continue;
        };
        let arm = |s: &Successor| -> Option<Successor> {
            if s.block == merge {
                return Some(s.clone());
            }
            let side = &f.blocks[s.block];
            match &side.terminator {
                Terminator::Branch(to)
                    if to.block == merge
                        && side.ops.is_empty()
                        && side.args.is_empty()
                        && side.structure.is_none()
                        && cfg.predecessors(s.block) == [b] =>
                {
                    Some(to.clone())
                }
                _ => None,
            }
        };
        if let (Some(a), Some(c)) = (arm(true_target), arm(false_target)) {
            if a == c {
                let block = &mut f.blocks[b];
                block.structure = None;
                block.terminator = Terminator::Branch(a);
                changed = true;
            }
        }
    }
    changed
}

/// Removes blocks nothing reaches, emptying those a reachable header names; whether any
/// block changed.
fn remove_unreachable(m: &mut Module, f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    if f.blocks.handles().all(|b| cfg.is_reachable(b)) {
        return false;
    }
    let mut named: HashSet<Handle<Block>> = HashSet::new();
    let mut continues: Vec<(Handle<Block>, Handle<Block>)> = Vec::new();
    for (b, block) in f.blocks.iter() {
        if !cfg.is_reachable(b) {
            continue;
        }
        match &block.structure {
            Some(Structure::Selection { merge, .. }) => {
                named.insert(*merge);
            }
            Some(Structure::Loop {
                merge,
                continue_target,
                ..
            }) => {
                named.insert(*merge);
                named.insert(*continue_target);
                continues.push((*continue_target, b));
            }
            None => {}
        }
    }
    // A block named as a value (as some invalid modules have) stays too, emptied.
    named.extend(f.blocks_named_as_values(m));
    undefine_values_of_unreachable_blocks(m, f, &cfg);
    let mut keep = Vec::with_capacity(f.blocks.len());
    let handles: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in handles {
        if cfg.is_reachable(b) {
            keep.push(b);
            continue;
        }
        if !named.contains(&b) {
            continue;
        }
        // Emptied: a continue target branches back to its header, any other block ends.
        let header = continues
            .iter()
            .find(|(c, h)| *c == b && *h != b)
            .map(|&(_, h)| h);
        let terminator = match header {
            Some(h) => Terminator::Branch(Successor {
                block: h,
                args: undefs(m, f, h),
            }),
            None => Terminator::Unreachable,
        };
        let block = &mut f.blocks[b];
        let emptied = Block {
            name: block.name.take(),
            args: Vec::new(),
            ops: Vec::new(),
            structure: None,
            terminator,
            terminator_loc: None,
        };
        *block = emptied;
        keep.push(b);
    }
    relayout_blocks(m, f, &keep);
    true
}

/// Uses, in reachable blocks, of values that unreachable blocks define (which only invalid
/// modules have: such a definition cannot dominate the use) read an undefined value instead,
/// so that removing or emptying those blocks leaves no reference dangling.
fn undefine_values_of_unreachable_blocks(m: &mut Module, f: &mut Function, cfg: &Cfg) {
    let mut defined: HashMap<Value, Handle<crate::ir::Type>> = HashMap::new();
    for (b, block) in f.blocks.iter() {
        if cfg.is_reachable(b) {
            continue;
        }
        for &a in &block.args {
            defined.insert(Value::BlockArg(a), f.block_args[a].ty);
        }
        for &o in &block.ops {
            if let Some(t) = f.ops[o].result_type() {
                defined.insert(Value::Op(o), t);
            }
        }
    }
    if defined.is_empty() {
        return;
    }
    let mut used: HashSet<Value> = HashSet::new();
    for (b, block) in f.blocks.iter() {
        if !cfg.is_reachable(b) {
            continue;
        }
        for &o in &block.ops {
            crate::ir::analysis::visit_operands(m, &f.ops[o].inst, &mut |v| {
                if defined.contains_key(&v) {
                    used.insert(v);
                }
            });
        }
        block.terminator.visit_values(|v| {
            if defined.contains_key(&v) {
                used.insert(v);
            }
        });
    }
    if used.is_empty() {
        return;
    }
    let map: HashMap<Value, Value> = used
        .into_iter()
        .map(|v| {
            let undef = Constant::new(defined[&v], ConstantValue::Undef);
            (v, Value::Constant(m.constants.insert(undef)))
        })
        .collect();
    super::replace::replace_uses(m, f, &map);
}

/// Drops the merge instruction of a selection left as `OpBranchConditional %true %taken
/// %merge` or as a switch on a constant with only a default, or of a loop whose continue
/// target is unreachable, once nothing inside breaks to the merge: the merge is unreachable, or reached by
/// one block ending in `OpBranch` that no construct between it and the header holds; whether
/// any went.
fn drop_finished_selections(m: &Module, f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::dominators(&cfg);
    let mut drops = Vec::new();
    for (h, block) in f.blocks.iter() {
        let merge = match block.structure {
            Some(Structure::Selection { merge, .. }) => merge,
            // A loop whose continue target nothing reaches runs once (an inlined function's
            // returns, `do { } while (false)` after folding).
            Some(Structure::Loop {
                merge,
                continue_target,
                ..
            }) if !cfg.is_reachable(continue_target) => {
                if let Terminator::Branch(live) = &block.terminator {
                    if live.block != merge && cfg.is_reachable(h) {
                        let finished = once_left(f, &cfg, &dom, h, merge);
                        if finished {
                            drops.push((h, live.clone()));
                        }
                    }
                }
                continue;
            }
            _ => continue,
        };
        let live = match &block.terminator {
            Terminator::BranchConditional {
                condition,
                true_target,
                false_target,
                ..
            } if constant_bool(m, *condition) == Some(true) && false_target.block == merge => {
                true_target
            }
            Terminator::Switch {
                selector,
                default,
                cases,
            } if cases.is_empty() && constant_int(m, *selector).is_some() => default,
            _ => continue,
        };
        if live.block == merge || !cfg.is_reachable(h) {
            continue;
        }
        let finished = once_left(f, &cfg, &dom, h, merge);
        if finished {
            drops.push((h, live.clone()));
        }
    }
    let any = !drops.is_empty();
    for (h, live) in drops {
        let block = &mut f.blocks[h];
        block.structure = None;
        block.terminator = Terminator::Branch(live);
    }
    any
}

/// Whether the construct headed by `h` is left only by falling off its end: its merge is
/// unreachable, or reached by one block ending in `OpBranch` that no construct nested in it
/// holds.
fn once_left(
    f: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    h: Handle<Block>,
    merge: Handle<Block>,
) -> bool {
    let others: Vec<Handle<Block>> = cfg
        .predecessors(merge)
        .iter()
        .copied()
        .filter(|&p| p != h && cfg.is_reachable(p))
        .collect();
    match others.as_slice() {
        [] => true,
        [p] => matches!(f.blocks[*p].terminator, Terminator::Branch(_)) && top_level(f, dom, *p, h),
        _ => false,
    }
}

/// Whether no construct whose header lies strictly between `header` and `p` on `p`'s
/// dominator chain holds `p` (so a branch from `p` leaves no construct but `header`'s).
fn top_level(f: &Function, dom: &DomTree, p: Handle<Block>, header: Handle<Block>) -> bool {
    let mut a = Some(p);
    while let Some(x) = a {
        if x == header {
            return true;
        }
        if let Some(s) = &f.blocks[x].structure {
            if !dom.dominates(s.merge(), p) || x == p {
                return false;
            }
        }
        a = dom.idom(x);
    }
    false
}
