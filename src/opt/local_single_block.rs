//! Local load and store elimination (spirv-opt's `--eliminate-local-single-block`, with its
//! dead-store half): within a block, a load from a local that a store or load earlier in the
//! block already gave a value is that value, and a store of the value memory already holds
//! goes; a local nothing ever reads loses its stores, access chains and itself. Why: locals the
//! SSA rewrite cannot promote (arrays indexed by variables, locals reached through access
//! chains) still carry loads right after stores, and front ends leave locals only written.
//!
//! Only Function variables whose address goes nowhere but into loads, stores (as the pointer)
//! and access chains are followed: nothing else can reach their memory, so a store through one
//! chain of a variable forgets what is known about every chain of it, and a store anywhere else
//! touches none of them. Volatile accesses end what is known about their variable and stay.

use super::replace::replace_uses;
use super::ssa_rewrite::value_type;
use crate::grammar::{Instruction, MemoryAccess, MemoryAccessArgs, StorageClass};
use crate::ir::analysis::visit_operands;
use crate::ir::{Function, Handle, Module, Op, Value};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| in_function(m, f))
}

fn volatile(a: &Option<MemoryAccessArgs>) -> bool {
    a.as_ref()
        .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile))
}

fn in_function(m: &Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    // The variable each pointer is into: the variables, then chains of known pointers (a
    // chain's base is defined before it).
    let listed: Vec<Handle<Op>> = f
        .blocks
        .iter()
        .flat_map(|(_, b)| b.ops.iter().copied())
        .collect();
    let mut base: HashMap<Value, Handle<Op>> = HashMap::new();
    for &h in f.header.iter().chain(&listed) {
        if let Instruction::Variable(v) = &f.ops[h].inst {
            if v.storage_class == StorageClass::Function {
                base.insert(Value::Op(h), h);
            }
        }
    }
    if base.is_empty() {
        return false;
    }
    let mut changed_base = true;
    while changed_base {
        changed_base = false;
        for &h in &listed {
            let chain_base = match &f.ops[h].inst {
                Instruction::AccessChain(c) => Value::from_id(c.base),
                Instruction::InBoundsAccessChain(c) => Value::from_id(c.base),
                _ => None,
            };
            if let Some(v) = chain_base.and_then(|b| base.get(&b).copied()) {
                if base.insert(Value::Op(h), v).is_none() {
                    changed_base = true;
                }
            }
        }
    }
    // Variables whose address goes anywhere else are not followed; variables read count.
    let mut escaped: HashSet<Handle<Op>> = HashSet::new();
    let mut read: HashSet<Handle<Op>> = HashSet::new();
    for &h in f.header.iter().chain(&listed) {
        let inst = &f.ops[h].inst;
        let allowed: Option<Value> = match inst {
            Instruction::Load(l) => {
                if let Some(&v) = Value::from_id(l.pointer).and_then(|p| base.get(&p)) {
                    read.insert(v);
                }
                Value::from_id(l.pointer)
            }
            Instruction::Store(s) => Value::from_id(s.pointer),
            Instruction::AccessChain(c) => Value::from_id(c.base),
            Instruction::InBoundsAccessChain(c) => Value::from_id(c.base),
            _ => None,
        };
        visit_operands(m, inst, &mut |v| {
            if Some(v) != allowed {
                if let Some(&b) = base.get(&v) {
                    escaped.insert(b);
                }
            }
        });
        // A store of a local's address (as the object) lets it escape.
        if let Instruction::Store(s) = inst {
            if let Some(&b) = Value::from_id(s.object).and_then(|o| base.get(&o)) {
                escaped.insert(b);
            }
        }
    }
    for (_, b) in f.blocks.iter() {
        b.terminator.visit_values(|v| {
            if let Some(&x) = base.get(&v) {
                escaped.insert(x);
            }
        });
    }
    let followed = |p: Value| base.get(&p).copied().filter(|b| !escaped.contains(b));

    let mut values: HashMap<Value, Value> = HashMap::new();
    let mut dropped: HashSet<Handle<Op>> = HashSet::new();
    for (_, block) in f.blocks.iter() {
        // Pointer -> the value its memory holds, with the variable it is into.
        let mut known: HashMap<Value, (Value, Handle<Op>)> = HashMap::new();
        for &h in &block.ops {
            match &f.ops[h].inst {
                Instruction::Load(l) => {
                    let Some(p) = Value::from_id(l.pointer) else {
                        continue;
                    };
                    let Some(var) = followed(p) else { continue };
                    if volatile(&l.memory_access) {
                        known.retain(|_, (_, b)| *b != var);
                        continue;
                    }
                    match known.get(&p) {
                        // (A store of a value of another type, in an invalid module, is
                        // not read back as that value.)
                        Some(&(v, _))
                            if value_type(m, f, v).is_some()
                                && value_type(m, f, v) == f.ops[h].result_type() =>
                        {
                            values.insert(Value::Op(h), v);
                        }
                        Some(_) => {}
                        None => {
                            known.insert(p, (Value::Op(h), var));
                        }
                    }
                }
                Instruction::Store(s) => {
                    let (Some(p), Some(object)) =
                        (Value::from_id(s.pointer), Value::from_id(s.object))
                    else {
                        continue;
                    };
                    let Some(var) = followed(p) else { continue };
                    let object = super::replace::resolve(&values, object);
                    if !volatile(&s.memory_access)
                        && known.get(&p).is_some_and(|&(v, _)| v == object)
                    {
                        // Memory already holds the value.
                        dropped.insert(h);
                        continue;
                    }
                    known.retain(|_, (_, b)| *b != var);
                    if !volatile(&s.memory_access) {
                        known.insert(p, (object, var));
                    }
                }
                _ => {}
            }
        }
    }
    // Stores to (and through chains of) locals nothing reads.
    for &h in &listed {
        if let Instruction::Store(s) = &f.ops[h].inst {
            if let Some(var) = Value::from_id(s.pointer).and_then(followed) {
                if !read.contains(&var) && !volatile(&s.memory_access) {
                    dropped.insert(h);
                }
            }
        }
    }
    if values.is_empty() && dropped.is_empty() {
        return false;
    }
    for (_, block) in f.blocks.iter_mut() {
        block.ops.retain(|h| !dropped.contains(h));
    }
    let resolved: HashMap<Value, Value> = values
        .keys()
        .map(|&k| (k, super::replace::resolve(&values, k)))
        .collect();
    replace_uses(m, f, &resolved);
    // A variable left with no use goes (its chains die with dead-code elimination first).
    let mut used: HashSet<Handle<Op>> = HashSet::new();
    for (_, block) in f.blocks.iter() {
        for &h in &block.ops {
            visit_operands(m, &f.ops[h].inst, &mut |v| {
                if let Value::Op(o) = v {
                    used.insert(o);
                }
            });
        }
    }
    let gone = |h: &Handle<Op>| {
        matches!(&f.ops[*h].inst, Instruction::Variable(_))
            && base.contains_key(&Value::Op(*h))
            && !escaped.contains(h)
            && !read.contains(h)
            && !used.contains(h)
            && f.ops[*h].decorations().is_empty()
    };
    let header: Vec<Handle<Op>> = f.header.iter().copied().filter(|h| !gone(h)).collect();
    let mut kept_in_blocks: Vec<Vec<Handle<Op>>> = Vec::new();
    for (_, block) in f.blocks.iter() {
        kept_in_blocks.push(block.ops.iter().copied().filter(|h| !gone(h)).collect());
    }
    f.header = header;
    for ((_, block), ops) in f.blocks.iter_mut().zip(kept_in_blocks) {
        block.ops = ops;
    }
    true
}
