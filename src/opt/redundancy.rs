//! Redundancy elimination by dominator-scoped value numbering (spirv-opt's
//! `--redundancy-elimination`): an op that computes what an op dominating it computed (same
//! opcode, result type and operands) is replaced by that op's result. Why: front ends and
//! inlining recompute addresses, extracts and conversions (`id.x` read three times, the same
//! access chain per use); one of each is enough.
//!
//! Only ops whose result depends on their operands alone take part (the grammar classes of
//! `Opcode::is_value_numbering`, GLSL.std.450 value computations, and plain loads from
//! memory nothing writes while the shader runs: uniform constants, push constants, inputs,
//! uniform blocks); other loads, image and group operations and derivatives do not, and
//! neither does an op with decorations.

use super::replace::{replace_uses, resolve};
use crate::grammar::{Id, Instruction, StorageClass};
use crate::ir::analysis::{Cfg, DomTree};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{Block, Function, Handle, Module, Type, Value};
use std::collections::HashMap;

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| in_function(m, f))
}

/// Whether `inst` is a value computation that may be numbered (in `f`).
fn numberable(m: &Module, f: &Function, inst: &Instruction) -> bool {
    if let Instruction::Load(l) = inst {
        return l.memory_access.is_none()
            && Value::from_id(l.pointer).is_some_and(|p| read_only(m, f, p));
    }
    if !inst.opcode().is_some_and(|o| o.is_value_numbering()) || inst.result_id().is_none() {
        return false;
    }
    match inst {
        Instruction::ExtInst(e) => {
            use crate::grammar::ext::glsl_std_450::Opcode as Glsl;
            let writes = [Glsl::Modf as u32, Glsl::Frexp as u32];
            match Value::from_id(e.set) {
                Some(Value::ExtInstSet(s)) => {
                    m.ext_inst_imports
                        .get(s)
                        .is_some_and(|i| i.name == "GLSL.std.450")
                        && !writes.contains(&e.instruction)
                }
                _ => false,
            }
        }
        _ => true,
    }
}

/// Whether `p` points into memory nothing writes while the shader runs: uniform constants,
/// push constants, inputs, and uniform blocks (not `BufferBlock` storage); reached through
/// access chains from the variable.
fn read_only(m: &Module, f: &Function, mut p: Value) -> bool {
    for _ in 0..64 {
        match p {
            Value::Op(h) => match f.ops.get(h).map(|o| &o.inst) {
                Some(Instruction::AccessChain(a)) => match Value::from_id(a.base) {
                    Some(b) => p = b,
                    None => return false,
                },
                Some(Instruction::InBoundsAccessChain(a)) => match Value::from_id(a.base) {
                    Some(b) => p = b,
                    None => return false,
                },
                _ => return false,
            },
            Value::Global(g) => {
                let Some(var) = m.globals.get(g) else {
                    return false;
                };
                return match var.storage_class {
                    StorageClass::UniformConstant
                    | StorageClass::PushConstant
                    | StorageClass::Input => true,
                    StorageClass::Uniform => match m.types.get(var.ty) {
                        Some(Type::Pointer { pointee, .. }) => {
                            matches!(m.types.get(*pointee), Some(Type::Struct(s)) if s.is_block() && !s.is_buffer_block())
                        }
                        _ => false,
                    },
                    _ => false,
                };
            }
            _ => return false,
        }
    }
    false
}

fn in_function(m: &Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::dominators(&cfg);
    let mut children: HashMap<Handle<Block>, Vec<Handle<Block>>> = HashMap::new();
    for &b in cfg.reverse_postorder() {
        if let Some(p) = dom.idom(b) {
            children.entry(p).or_default().push(b);
        }
    }
    let Some(entry) = f.entry() else { return false };
    // A depth-first walk of the dominator tree; each block's new entries are undone when its
    // subtree is done.
    let mut table: HashMap<Instruction, Value> = HashMap::new();
    let mut map: HashMap<Value, Value> = HashMap::new();
    let mut stack: Vec<(Handle<Block>, bool)> = vec![(entry, false)];
    let mut added: Vec<Vec<Instruction>> = Vec::new();
    while let Some((b, done)) = stack.pop() {
        if done {
            for key in added.pop().unwrap_or_default() {
                table.remove(&key);
            }
            continue;
        }
        let mut mine = Vec::new();
        for &h in &f.blocks[b].ops {
            let op = &f.ops[h];
            if !op.decorations().is_empty() || !numberable(m, f, &op.inst) {
                continue;
            }
            let mut key = op.inst.clone();
            let result = op.inst.result_id();
            let mut in_use = |id: &mut Id| {
                if Some(*id) == result {
                    *id = Id(0);
                } else if let Some(v) = Value::from_id(*id) {
                    if map.contains_key(&v) {
                        *id = resolve(&map, v).to_id();
                    }
                }
            };
            let ext = |set: Id, number: u32| match Value::from_id(set) {
                Some(Value::ExtInstSet(s)) => m
                    .ext_inst_imports
                    .get(s)
                    .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
                _ => ExtOperands::Unknown,
            };
            visit_ids_mut(&mut key, ext, &mut in_use);
            match table.get(&key) {
                Some(&v) => {
                    map.insert(Value::Op(h), v);
                }
                None => {
                    table.insert(key.clone(), Value::Op(h));
                    mine.push(key);
                }
            }
        }
        added.push(mine);
        stack.push((b, true));
        if let Some(kids) = children.get(&b) {
            stack.extend(kids.iter().rev().map(|&k| (k, false)));
        }
    }
    if map.is_empty() {
        return false;
    }
    let resolved: HashMap<Value, Value> = map.keys().map(|&k| (k, resolve(&map, k))).collect();
    replace_uses(m, f, &resolved);
    true
}
