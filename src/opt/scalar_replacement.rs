//! Scalar replacement of aggregates (spirv-opt's `--scalar-replacement`): a Function variable
//! of struct or small array type whose every use is an access chain with a constant first
//! index, or a whole load or store, becomes one variable per member. Why: the SSA rewrite
//! promotes whole variables, so a struct local (or a struct holding a texture, in HLSL) must
//! first become its members; a struct value carried through a loop becomes scalar phis.
//!
//! A chain's first index picks the member variable (the rest of the chain stays); a whole
//! load becomes member loads and `OpCompositeConstruct`, a whole store `OpCompositeExtract`s
//! and member stores, and a constant initializer member initializers. Members that are
//! aggregates are split again on the next round.

use crate::grammar::{Id, Instruction, MemoryAccess, StorageClass};
use crate::grammar::{OpCompositeConstruct, OpCompositeExtract, OpLoad, OpStore, OpVariable};
use crate::ir::analysis::visit_operands;
use crate::ir::{Block, Constant, ConstantValue, Function, Handle, Module, Op, Type, Value};
use std::collections::{HashMap, HashSet};

/// Arrays longer than this stay whole (spirv-opt's default limit).
const MAX_ELEMENTS: u64 = 100;

/// Rounds of splitting (each splits one level of nesting).
const MAX_ROUNDS: usize = 8;

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| {
        let mut changed = false;
        for _ in 0..MAX_ROUNDS {
            if !in_function(m, f) {
                break;
            }
            changed = true;
        }
        changed
    })
}

/// The member types of an aggregate that may be split.
fn member_types(m: &Module, t: Handle<Type>) -> Option<Vec<Handle<Type>>> {
    match m.types.get(t)? {
        Type::Struct(s) if !s.members.is_empty() => {
            Some(s.members.iter().map(|mb| mb.ty).collect())
        }
        Type::Array {
            element, length, ..
        } => {
            let Value::Constant(l) = length else {
                return None;
            };
            let n = match &m.constants.get(*l)?.value {
                ConstantValue::Scalar(n) => n.low_u64(),
                _ => return None,
            };
            (n > 0 && n <= MAX_ELEMENTS).then(|| vec![*element; n as usize])
        }
        _ => None,
    }
}

/// The constant index `id` holds.
fn constant_index(m: &Module, id: Id) -> Option<u64> {
    let Some(Value::Constant(c)) = Value::from_id(id) else {
        return None;
    };
    match &m.constants.get(c)?.value {
        ConstantValue::Scalar(l) => Some(l.low_u64()),
        ConstantValue::Null => Some(0),
        _ => None,
    }
}

/// The constituents of constant `c` of an aggregate type with `members` (a null's and an
/// undefined value's are nulls and undefined values).
fn constant_members(m: &mut Module, c: Value, members: &[Handle<Type>]) -> Option<Vec<Value>> {
    let Value::Constant(c) = c else { return None };
    let k = m.constants.get(c)?.clone();
    match k.value {
        ConstantValue::Composite(parts) if parts.len() == members.len() => Some(parts),
        ConstantValue::Null | ConstantValue::Undef => Some(
            members
                .iter()
                .map(|&t| Value::Constant(m.constants.insert(Constant::new(t, k.value.clone()))))
                .collect(),
        ),
        _ => None,
    }
}

fn in_function(m: &mut Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    let volatile = |a: &Option<crate::grammar::MemoryAccessArgs>| {
        a.as_ref()
            .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile))
    };
    let Some(entry) = f.entry() else { return false };
    let mut vars: HashMap<Handle<Op>, Vec<Handle<Type>>> = HashMap::new();
    for &h in &f.blocks[entry].ops {
        let op = &f.ops[h];
        let Instruction::Variable(v) = &op.inst else {
            continue;
        };
        if v.storage_class != StorageClass::Function || !op.decorations().is_empty() {
            continue;
        }
        let Some(Type::Pointer { pointee, .. }) = op.result_type().and_then(|t| m.types.get(t))
        else {
            continue;
        };
        if let Some(members) = member_types(m, *pointee) {
            vars.insert(h, members);
        }
    }
    if vars.is_empty() {
        return false;
    }
    // Every use must be a chain with a constant first index in range, or a whole plain load
    // or store.
    let mut bad: HashSet<Handle<Op>> = HashSet::new();
    let listed: Vec<Handle<Op>> = f
        .header
        .iter()
        .copied()
        .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter().copied()))
        .collect();
    for &h in &listed {
        let inst = &f.ops[h].inst;
        let allowed: Option<Value> = match inst {
            Instruction::Load(l) if !volatile(&l.memory_access) => Value::from_id(l.pointer),
            Instruction::Store(s) if !volatile(&s.memory_access) => Value::from_id(s.pointer),
            Instruction::AccessChain(_) | Instruction::InBoundsAccessChain(_) => {
                chain_of(inst).and_then(|(b, ix)| chain_base(m, &vars, b, ix))
            }
            _ => None,
        };
        visit_operands(m, inst, &mut |v| {
            if let Value::Op(o) = v {
                if vars.contains_key(&o) && Some(v) != allowed {
                    bad.insert(o);
                }
            }
        });
        if let Instruction::Store(s) = inst {
            if let Some(Value::Op(o)) = Value::from_id(s.object) {
                bad.insert(o);
            }
        }
        if let Instruction::Variable(v) = inst {
            if vars.contains_key(&h) {
                if let Some(init) = v.initializer.and_then(Value::from_id) {
                    if !matches!(init, Value::Constant(_)) {
                        bad.insert(h);
                    }
                }
            }
        }
    }
    for (_, b) in f.blocks.iter() {
        b.terminator.visit_values(|v| {
            if let Value::Op(o) = v {
                bad.insert(o);
            }
        });
    }
    vars.retain(|h, _| !bad.contains(h));
    if vars.is_empty() {
        return false;
    }
    // The member variables, where the aggregate was.
    let mut split: HashMap<Handle<Op>, Vec<Handle<Op>>> = HashMap::new();
    let mut order: Vec<Handle<Op>> = vars.keys().copied().collect();
    order.sort();
    for h in order {
        let members = vars[&h].clone();
        let Instruction::Variable(v) = f.ops[h].inst.clone() else {
            continue;
        };
        let inits = match v.initializer.and_then(Value::from_id) {
            Some(c) => match constant_members(m, c, &members) {
                Some(parts) => parts.into_iter().map(Some).collect(),
                None => continue,
            },
            None => vec![None; members.len()],
        };
        let name = f.ops[h].name().map(str::to_string);
        let loc = f.ops[h].loc;
        let mut handles = Vec::with_capacity(members.len());
        for (i, (&t, init)) in members.iter().zip(inits).enumerate() {
            let ptr = m.types.insert(Type::Pointer {
                storage_class: StorageClass::Function,
                pointee: t,
                stride: None,
            });
            let nh = f.ops.append(Op {
                inst: Instruction::Variable(OpVariable {
                    result_type: Value::Type(ptr).to_id(),
                    result_id: Id(0),
                    storage_class: StorageClass::Function,
                    initializer: init.map(Value::to_id),
                }),
                loc,
                attrs: crate::ir::Attrs::boxed(
                    name.as_ref().map(|n| format!("{n}_{i}")),
                    Vec::new(),
                ),
            });
            if let Instruction::Variable(v) = &mut f.ops[nh].inst {
                v.result_id = Value::Op(nh).to_id();
            }
            handles.push(nh);
        }
        split.insert(h, handles);
    }
    if split.is_empty() {
        return false;
    }
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let blocks: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in blocks {
        let ops = std::mem::take(&mut f.blocks[b].ops);
        let mut out = Vec::with_capacity(ops.len());
        for h in ops {
            if let Some(parts) = split.get(&h) {
                // The aggregate variable goes; its members take its place.
                out.extend(parts.iter().copied());
                continue;
            }
            let inst = f.ops[h].inst.clone();
            let loc = f.ops[h].loc;
            match inst {
                Instruction::AccessChain(_) | Instruction::InBoundsAccessChain(_)
                    if chain_of(&inst).is_some_and(|(b, _)| split_of(&split, b).is_some()) =>
                {
                    let (base, indexes) = chain_of(&inst).expect("checked");
                    let parts = split_of(&split, base).expect("checked");
                    let k = constant_index(m, indexes[0]).expect("checked") as usize;
                    let member = Value::Op(parts[k]);
                    if indexes.len() == 1 {
                        replaced.insert(Value::Op(h), member);
                    } else {
                        let rest = indexes[1..].to_vec();
                        set_chain(&mut f.ops[h].inst, member.to_id(), rest);
                        out.push(h);
                    }
                }
                Instruction::Load(l) if split_of(&split, l.pointer).is_some() => {
                    let parts = split_of(&split, l.pointer).expect("checked").clone();
                    let var = Value::from_id(l.pointer).and_then(|v| match v {
                        Value::Op(o) => Some(o),
                        _ => None,
                    });
                    let members = &vars[&var.expect("checked")];
                    let mut loads = Vec::with_capacity(parts.len());
                    for (&p, &t) in parts.iter().zip(members) {
                        let nh = f.ops.append(Op {
                            inst: Instruction::Load(OpLoad {
                                result_type: Value::Type(t).to_id(),
                                result_id: Id(0),
                                pointer: Value::Op(p).to_id(),
                                memory_access: None,
                            }),
                            loc,
                            attrs: None,
                        });
                        if let Instruction::Load(x) = &mut f.ops[nh].inst {
                            x.result_id = Value::Op(nh).to_id();
                        }
                        out.push(nh);
                        loads.push(Value::Op(nh).to_id());
                    }
                    f.ops[h].inst = Instruction::CompositeConstruct(OpCompositeConstruct {
                        result_type: l.result_type,
                        result_id: l.result_id,
                        constituents: loads,
                    });
                    out.push(h);
                }
                Instruction::Store(s) if split_of(&split, s.pointer).is_some() => {
                    let parts = split_of(&split, s.pointer).expect("checked").clone();
                    let var = match Value::from_id(s.pointer) {
                        Some(Value::Op(o)) => o,
                        _ => unreachable!("checked"),
                    };
                    let members = vars[&var].clone();
                    for (i, (&p, &t)) in parts.iter().zip(&members).enumerate() {
                        let x = f.ops.append(Op {
                            inst: Instruction::CompositeExtract(OpCompositeExtract {
                                result_type: Value::Type(t).to_id(),
                                result_id: Id(0),
                                composite: s.object,
                                indexes: vec![i as u32],
                            }),
                            loc,
                            attrs: None,
                        });
                        if let Instruction::CompositeExtract(e) = &mut f.ops[x].inst {
                            e.result_id = Value::Op(x).to_id();
                        }
                        let st = f.ops.append(Op {
                            inst: Instruction::Store(OpStore {
                                pointer: Value::Op(p).to_id(),
                                object: Value::Op(x).to_id(),
                                memory_access: None,
                            }),
                            loc,
                            attrs: None,
                        });
                        out.push(x);
                        out.push(st);
                    }
                }
                _ => out.push(h),
            }
        }
        f.blocks[b].ops = out;
    }
    super::replace::replace_uses(m, f, &replaced);
    true
}

/// The member variables of the split aggregate `id` names.
fn split_of(split: &HashMap<Handle<Op>, Vec<Handle<Op>>>, id: Id) -> Option<&Vec<Handle<Op>>> {
    match Value::from_id(id) {
        Some(Value::Op(o)) => split.get(&o),
        _ => None,
    }
}

/// The base and indexes of an access chain.
fn chain_of(inst: &Instruction) -> Option<(Id, &[Id])> {
    match inst {
        Instruction::AccessChain(a) => Some((a.base, &a.indexes)),
        Instruction::InBoundsAccessChain(a) => Some((a.base, &a.indexes)),
        _ => None,
    }
}

/// Points a chain at a new base with the indexes left.
fn set_chain(inst: &mut Instruction, base: Id, indexes: Vec<Id>) {
    match inst {
        Instruction::AccessChain(a) => {
            a.base = base;
            a.indexes = indexes;
        }
        Instruction::InBoundsAccessChain(a) => {
            a.base = base;
            a.indexes = indexes;
        }
        _ => {}
    }
}

/// The variable a chain with a constant first index in range starts from, as the one use of
/// it the chain may make.
fn chain_base(
    m: &Module,
    vars: &HashMap<Handle<Op>, Vec<Handle<Type>>>,
    base: Id,
    indexes: &[Id],
) -> Option<Value> {
    let Some(Value::Op(o)) = Value::from_id(base) else {
        return None;
    };
    let members = vars.get(&o)?;
    let k = constant_index(m, *indexes.first()?)?;
    (k < members.len() as u64).then_some(Value::Op(o))
}
