//! Replacing the uses of values throughout a function: what a pass that forwards values (a
//! load by the value stored, a block argument by its only incoming value) does last.

use crate::grammar::Instruction;
use crate::grammar::{Id, Ids};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{Block, Function, Handle, Module, SpecValue, Structure, Terminator, Value};
use std::collections::HashMap;

/// Replaces every use of a key of `map` in `f` (ops' operands, extended instructions'
/// included, terminators and the values branches pass) by its value; the map must be
/// resolved (no value is itself a key).
pub fn replace_uses(m: &Module, f: &mut Function, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    let swap = |id: &mut Id| {
        if let Some(v) = Value::from_id(*id).and_then(|v| map.get(&v)) {
            *id = v.to_id();
        }
    };
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => m
            .ext_inst_imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    for (_, op) in f.ops.iter_mut() {
        let result = op.inst.result_id();
        let mut each = |id: &mut Id| {
            if Some(*id) != result {
                swap(id);
            }
        };
        visit_ids_mut(&mut op.inst, ext, &mut each);
    }
    for (_, block) in f.blocks.iter_mut() {
        let t = &mut block.terminator;
        let one = |v: &mut Value| {
            if let Some(&n) = map.get(v) {
                *v = n;
            }
        };
        match t {
            Terminator::BranchConditional { condition, .. } => one(condition),
            Terminator::Switch { selector, .. } => one(selector),
            Terminator::ReturnValue(v) => one(v),
            Terminator::Other(inst) => inst.visit_ids_mut(&mut |id: &mut Id| swap(id)),
            _ => {}
        }
        for s in t.successors_mut() {
            s.args.iter_mut().for_each(one);
        }
    }
}

/// Follows `map` from `v` until a value that is no key (chains of replacements, as when a
/// stored value is itself a load that goes).
pub fn resolve(map: &HashMap<Value, Value>, mut v: Value) -> Value {
    let mut steps = 0;
    while let Some(&n) = map.get(&v) {
        v = n;
        steps += 1;
        if steps > map.len() {
            break;
        }
    }
    v
}

/// Rewrites every module-level value reference by `map` (`None`: unchanged): in every
/// function's ops and terminators, module-level extended instructions and global variables'
/// initializers. Entry points and execution modes name their functions by handle: the caller
/// renumbers those.
pub fn remap_module_values(m: &mut Module, map: &dyn Fn(Value) -> Option<Value>) {
    let swap = |id: &mut Id| {
        if let Some(v) = Value::from_id(*id).and_then(map) {
            *id = v.to_id();
        }
    };
    let imports = m.ext_inst_imports.clone();
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    for (_, f) in m.functions.iter_mut() {
        for (_, op) in f.ops.iter_mut() {
            visit_ids_mut(&mut op.inst, ext, &mut |id| swap(id));
        }
        for (_, b) in f.blocks.iter_mut() {
            let one = |v: &mut Value| {
                if let Some(n) = map(*v) {
                    *v = n;
                }
            };
            match &mut b.terminator {
                Terminator::BranchConditional { condition, .. } => one(condition),
                Terminator::Switch { selector, .. } => one(selector),
                Terminator::ReturnValue(v) => one(v),
                Terminator::Other(inst) => visit_ids_mut(inst, ext, &mut |id| swap(id)),
                _ => {}
            }
            for s in b.terminator.successors_mut() {
                s.args.iter_mut().for_each(one);
            }
        }
    }
    for (_, e) in m.ext_insts.iter_mut() {
        let mut inst = Instruction::ExtInst(e.inst.clone());
        visit_ids_mut(&mut inst, ext, &mut |id| swap(id));
        if let Instruction::ExtInst(op) = inst {
            e.inst = op;
        }
    }
    for (_, g) in m.globals.iter_mut() {
        if let Some(v) = g.initializer.and_then(map) {
            g.initializer = Some(v);
        }
    }
    for (_, c) in m.spec_constants.iter_mut() {
        match &mut c.value {
            SpecValue::Composite(vs) => {
                for v in vs {
                    if let Some(n) = map(*v) {
                        *v = n;
                    }
                }
            }
            SpecValue::Op(op) => op.visit_ids_mut(&mut |id: &mut Id| swap(id)),
            _ => {}
        }
    }
}

/// Calls `f` with every value the module-level items refer to: module-level extended
/// instructions, global variables' initializers and specialization constants.
pub fn visit_module_level_values(m: &Module, f: &mut dyn FnMut(Value)) {
    for (_, e) in m.ext_insts.iter() {
        crate::ir::analysis::visit_operands(m, &Instruction::ExtInst(e.inst.clone()), f);
    }
    for (_, g) in m.globals.iter() {
        if let Some(v) = g.initializer {
            f(v);
        }
    }
    for (_, c) in m.spec_constants.iter() {
        match &c.value {
            SpecValue::Composite(vs) => vs.iter().for_each(|&v| f(v)),
            SpecValue::Op(op) => op.visit_ids(&mut |id| {
                if let Some(v) = Value::from_id(id) {
                    f(v)
                }
            }),
            _ => {}
        }
    }
}

/// Rebuilds `f`'s blocks in the layout `order` (each block once; blocks left out are dropped,
/// so nothing may branch to them) and renumbers every block reference: branch targets,
/// merge and continue targets, and block operands of ops. Why: passes that add blocks append
/// them to the arena, while SPIR-V needs every block after its dominators.
pub fn relayout_blocks(m: &Module, f: &mut Function, order: &[Handle<Block>]) {
    let old = std::mem::take(&mut f.blocks);
    let mut renumber: Vec<Option<Handle<Block>>> = vec![None; old.len()];
    for (i, &b) in order.iter().enumerate() {
        renumber[b.index()] = Some(Handle::new(i));
    }
    let new_of = |b: Handle<Block>| renumber.get(b.index()).copied().flatten().unwrap_or(b);
    let mut slots: Vec<Option<Block>> = old.into_iter_values().map(Some).collect();
    for &b in order {
        let Some(mut block) = slots[b.index()].take() else {
            continue;
        };
        for s in block.terminator.successors_mut() {
            s.block = new_of(s.block);
        }
        match &mut block.structure {
            Some(Structure::Selection { merge, .. }) => *merge = new_of(*merge),
            Some(Structure::Loop {
                merge,
                continue_target,
                ..
            }) => {
                *merge = new_of(*merge);
                *continue_target = new_of(*continue_target);
            }
            None => {}
        }
        f.blocks.append(block);
    }
    let swap = |id: &mut Id| {
        if let Some(Value::Block(b)) = Value::from_id(*id) {
            *id = Value::Block(new_of(b)).to_id();
        }
    };
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => m
            .ext_inst_imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    for (_, op) in f.ops.iter_mut() {
        visit_ids_mut(&mut op.inst, ext, &mut |id| swap(id));
    }
    // Blocks named as values (invalid modules only) are renumbered too.
    let value = |v: &mut Value| {
        if let Value::Block(b) = v {
            *b = new_of(*b);
        }
    };
    for (_, b) in f.blocks.iter_mut() {
        match &mut b.terminator {
            Terminator::Other(inst) => visit_ids_mut(inst, ext, &mut |id| swap(id)),
            Terminator::BranchConditional { condition: v, .. }
            | Terminator::Switch { selector: v, .. }
            | Terminator::ReturnValue(v) => value(v),
            _ => {}
        }
        for s in b.terminator.successors_mut() {
            s.args.iter_mut().for_each(value);
        }
    }
}
