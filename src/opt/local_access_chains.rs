//! Local access-chain conversion (spirv-opt's `--convert-local-access-chains`): a load or
//! store through an access chain with constant indices into a Function variable becomes a
//! load of the whole variable with `OpCompositeExtract`, or a load, `OpCompositeInsert` and a
//! store of the whole variable. Why: front ends write `v.x = 1`, `s.member = f` and `a[2] = x`
//! through access chains, which keeps vectors, structs and small arrays in memory;
//! afterwards the SSA rewrite promotes the whole variable and folding reads the values
//! through the inserts.
//!
//! A variable takes part only when every use is a whole non-volatile load or store, or such
//! an access chain whose every use is a non-volatile load or store, with indices in range,
//! and its type holds plain data only.

use crate::grammar::{Id, Instruction, MemoryAccess, StorageClass};
use crate::grammar::{OpCompositeExtract, OpCompositeInsert, OpLoad};
use crate::ir::analysis::visit_operands;
use crate::ir::{Block, ConstantValue, Function, Handle, Module, Op, Type, Value};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| in_function(m, f))
}

/// The literal index path of an access chain's constant indices into `base`, and the type it
/// reaches; `None` if an index is not a constant in range.
fn literal_path(
    m: &Module,
    mut ty: Handle<Type>,
    indexes: &[Id],
) -> Option<(Vec<u32>, Handle<Type>)> {
    let mut path = Vec::with_capacity(indexes.len());
    for &id in indexes {
        let Some(Value::Constant(c)) = Value::from_id(id) else {
            return None;
        };
        let i = match &m.constants.get(c)?.value {
            ConstantValue::Scalar(l) => l.low_u64(),
            ConstantValue::Null => 0,
            _ => return None,
        };
        let (next, len) = match m.types.get(ty)? {
            Type::Vector { component, count } => (*component, u64::from(*count)),
            Type::Matrix { column, count } => (*column, u64::from(*count)),
            Type::Struct(s) => (
                s.members.get(usize::try_from(i).ok()?)?.ty,
                s.members.len() as u64,
            ),
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
                (*element, n)
            }
            _ => return None,
        };
        // (A signed index is non-negative here: a negative one reads as huge and is refused.)
        if i >= len || i > u64::from(u32::MAX) {
            return None;
        }
        path.push(i as u32);
        ty = next;
    }
    Some((path, ty))
}

fn in_function(m: &Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    let volatile = |a: &Option<crate::grammar::MemoryAccessArgs>| {
        a.as_ref()
            .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile))
    };
    // Candidate variables and their pointee types.
    let mut vars: HashMap<Handle<Op>, Handle<Type>> = HashMap::new();
    for (_, b) in f.blocks.iter() {
        for &h in &b.ops {
            let op = &f.ops[h];
            if let Instruction::Variable(v) = &op.inst {
                if v.storage_class != StorageClass::Function {
                    continue;
                }
                if let Some(Type::Pointer { pointee, .. }) =
                    op.result_type().and_then(|t| m.types.get(t))
                {
                    if super::ssa_rewrite::plain_data(m, *pointee, 0) {
                        vars.insert(h, *pointee);
                    }
                }
            }
        }
    }
    if vars.is_empty() {
        return false;
    }
    // Access chains on candidates (with their paths), and the ops that disqualify.
    let mut chains: HashMap<Handle<Op>, (Handle<Op>, Vec<u32>)> = HashMap::new();
    let mut bad: HashSet<Handle<Op>> = HashSet::new();
    let listed: Vec<Handle<Op>> = f
        .header
        .iter()
        .copied()
        .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter().copied()))
        .collect();
    for &h in &listed {
        let op = &f.ops[h];
        let Some((base, indexes)) = chain_parts(&op.inst) else {
            continue;
        };
        let Some(Value::Op(base)) = Value::from_id(base) else {
            continue;
        };
        // A chain into a chain continues its path (bases come first in layout order).
        let (var, prefix) = match (vars.get(&base), chains.get(&base)) {
            (Some(_), _) => (base, Vec::new()),
            (None, Some((var, prefix))) => (*var, prefix.clone()),
            (None, None) => continue,
        };
        let reached = op.result_type().and_then(|t| match m.types.get(t) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        });
        // Where the base points: the variable's type, or what the base chain reached.
        let from = f.ops[base]
            .result_type()
            .and_then(|t| match m.types.get(t) {
                Some(Type::Pointer { pointee, .. }) => Some(*pointee),
                _ => None,
            });
        match from.and_then(|from| literal_path(m, from, indexes)) {
            Some((path, t)) if Some(t) == reached && !path.is_empty() => {
                let mut full = prefix;
                full.extend(path);
                chains.insert(h, (var, full));
            }
            _ => {
                bad.insert(var);
            }
        }
    }
    // Every other use of a variable or a chain must be a plain load's or store's pointer.
    for &h in &listed {
        let inst = &f.ops[h].inst;
        let allowed = match inst {
            Instruction::Load(l) if !volatile(&l.memory_access) => Value::from_id(l.pointer),
            Instruction::Store(s) if !volatile(&s.memory_access) => Value::from_id(s.pointer),
            _ => None,
        };
        // A chain's own base (a variable or a chain into it) is no escape.
        let own_chain = chain_parts(inst)
            .and_then(|(b, _)| Value::from_id(b))
            .filter(|_| chains.contains_key(&h));
        visit_operands(m, inst, &mut |v| {
            let Value::Op(o) = v else { return };
            if Some(v) == allowed || Some(v) == own_chain {
                return;
            }
            if vars.contains_key(&o) {
                bad.insert(o);
            } else if let Some((base, _)) = chains.get(&o) {
                bad.insert(*base);
            }
        });
        if let Instruction::Store(s) = inst {
            if let Some(Value::Op(o)) = Value::from_id(s.object) {
                if vars.contains_key(&o) {
                    bad.insert(o);
                } else if let Some((base, _)) = chains.get(&o) {
                    bad.insert(*base);
                }
            }
        }
    }
    for (_, b) in f.blocks.iter() {
        b.terminator.visit_values(|v| {
            if let Value::Op(o) = v {
                if vars.contains_key(&o) {
                    bad.insert(o);
                } else if let Some((base, _)) = chains.get(&o) {
                    bad.insert(*base);
                }
            }
        });
    }
    chains.retain(|_, (base, _)| !bad.contains(base));
    if chains.is_empty() {
        return false;
    }
    // Rewrite the loads and stores through the chains, block by block.
    let blocks: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in blocks {
        let ops = std::mem::take(&mut f.blocks[b].ops);
        let mut out = Vec::with_capacity(ops.len());
        for h in ops {
            let through = match &f.ops[h].inst {
                Instruction::Load(l) => Value::from_id(l.pointer),
                Instruction::Store(s) => Value::from_id(s.pointer),
                _ => None,
            };
            let Some((base, path)) = through.and_then(|v| match v {
                Value::Op(o) => chains.get(&o).cloned(),
                _ => None,
            }) else {
                out.push(h);
                continue;
            };
            let var_ty = vars[&base];
            let loc = f.ops[h].loc;
            let whole = f.ops.append(Op {
                inst: Instruction::Load(OpLoad {
                    result_type: Value::Type(var_ty).to_id(),
                    result_id: Id(0),
                    pointer: Value::Op(base).to_id(),
                    memory_access: None,
                }),
                loc,
                attrs: None,
            });
            set_result(f, whole);
            out.push(whole);
            match f.ops[h].inst.clone() {
                Instruction::Load(l) => {
                    // The load becomes the extract (its uses stay).
                    f.ops[h].inst = Instruction::CompositeExtract(OpCompositeExtract {
                        result_type: l.result_type,
                        result_id: l.result_id,
                        composite: Value::Op(whole).to_id(),
                        indexes: path,
                    });
                    out.push(h);
                }
                Instruction::Store(s) => {
                    let insert = f.ops.append(Op {
                        inst: Instruction::CompositeInsert(OpCompositeInsert {
                            result_type: Value::Type(var_ty).to_id(),
                            result_id: Id(0),
                            object: s.object,
                            composite: Value::Op(whole).to_id(),
                            indexes: path,
                        }),
                        loc,
                        attrs: None,
                    });
                    set_result(f, insert);
                    out.push(insert);
                    if let Instruction::Store(st) = &mut f.ops[h].inst {
                        st.pointer = Value::Op(base).to_id();
                        st.object = Value::Op(insert).to_id();
                    }
                    out.push(h);
                }
                _ => unreachable!("only loads and stores go through chains here"),
            }
        }
        f.blocks[b].ops = out;
    }
    // The chains are unused now.
    let gone: HashSet<Handle<Op>> = chains.keys().copied().collect();
    for (_, block) in f.blocks.iter_mut() {
        block.ops.retain(|h| !gone.contains(h));
    }
    true
}

/// The base and indexes of an access chain.
fn chain_parts(inst: &Instruction) -> Option<(Id, &[Id])> {
    match inst {
        Instruction::AccessChain(a) => Some((a.base, &a.indexes)),
        Instruction::InBoundsAccessChain(a) => Some((a.base, &a.indexes)),
        _ => None,
    }
}

/// Sets the result id of new op `h` to its own value.
fn set_result(f: &mut Function, h: Handle<Op>) {
    match &mut f.ops[h].inst {
        Instruction::Load(l) => l.result_id = Value::Op(h).to_id(),
        Instruction::CompositeInsert(i) => i.result_id = Value::Op(h).to_id(),
        _ => {}
    }
}
