//! Descriptor scalar replacement (spirv-opt's `--descriptor-scalar-replacement`): an array of
//! descriptors at one binding becomes one variable per element, at consecutive bindings
//! (`x[0]` at the array's binding, `x[1]` at the next...). Why: HLSL's
//! `-fspv-flatten-resource-arrays` targets APIs that bind no arrays of descriptors, and it
//! must run after legalization, when unrolling has made most indices constants.
//!
//! An access chain with a constant first index becomes the element's variable (or a chain
//! into it). One whose index is not a constant gets a switch over the index (spirv-opt's
//! `--replace-desc-array-access-using-var-index`): the ops from the chain to the last one in
//! its block that uses what it reached are copied into one case per element, each with its
//! element's variable; values the rest of the function uses come out through the merge
//! block's arguments. An index out of bounds is undefined behaviour in Vulkan; the switch's
//! default takes the last element. An array whose elements are reached any other way (a
//! whole load, a handle used in another block, a chain in a loop header) stays whole: the
//! caller finds it with [`unflattened`] and reports it.

use super::replace::{relayout_blocks, replace_uses};
use crate::grammar::{Decoration, Id, Instruction, LiteralNumber, OpAccessChain, StorageClass};
use crate::ir::analysis::visit_operands;
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{
    Block, BlockArg, ConstantValue, Function, GlobalVariable, Handle, Module, Op, Structure,
    Successor, Terminator, Type, Value,
};
use std::collections::{HashMap, HashSet};

/// The most bindings an array may take once flattened (no API binds more one by one; a
/// larger array stays whole).
const MAX_BINDINGS: u32 = 1 << 16;

/// How many ops the switches of one function may copy in all.
const COPY_BUDGET: usize = 1 << 16;

/// Runs the pass until no array is left that it can split; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let mut changed = false;
    let mut done: HashSet<Handle<GlobalVariable>> = HashSet::new();
    // Arrays of arrays split one level per round.
    for _ in 0..8 {
        let all: HashSet<Handle<GlobalVariable>> = m
            .globals
            .iter()
            .filter(|&(h, g)| !done.contains(&h) && descriptor_array(m, g).is_some())
            .map(|(h, _)| h)
            .collect();
        if all.is_empty() {
            break;
        }
        let handles: Vec<_> = m.functions.handles().collect();
        for fh in handles {
            let placeholder =
                Function::new(m.functions[fh].ty, crate::grammar::FunctionControl::None);
            let mut f = std::mem::replace(&mut m.functions[fh], placeholder);
            rematerialize(m, &mut f, &all);
            m.functions[fh] = f;
        }
        let mut arrays: Vec<Handle<GlobalVariable>> = splittable(m);
        arrays.retain(|g| done.insert(*g));
        if arrays.is_empty() {
            break;
        }
        split(m, &arrays);
        changed = true;
    }
    changed
}

/// The arrays of descriptors left whole (their names): every one, after [`run`], is one whose
/// elements are reached in a way the pass cannot follow.
pub fn unflattened(m: &Module) -> Vec<String> {
    m.globals
        .iter()
        .filter(|&(_, g)| bound_array(m, g).is_some())
        .map(|(_, g)| g.name.clone().unwrap_or_default())
        .collect()
}

/// The length, element type and the number of bindings one element takes, when `g` is a
/// bound array of descriptors the pass splits (one of at most [`MAX_BINDINGS`]).
fn descriptor_array(m: &Module, g: &GlobalVariable) -> Option<(u32, Handle<Type>, u32)> {
    let (n, element, per_element) = bound_array(m, g)?;
    (n.checked_mul(per_element)? <= MAX_BINDINGS).then_some((n, element, per_element))
}

/// The length, element type and the number of bindings one element takes, when `g` is a
/// bound array of descriptors of a constant length.
fn bound_array(m: &Module, g: &GlobalVariable) -> Option<(u32, Handle<Type>, u32)> {
    if !matches!(
        g.storage_class,
        StorageClass::UniformConstant | StorageClass::Uniform | StorageClass::StorageBuffer
    ) || !g
        .decorations
        .iter()
        .any(|d| matches!(d, Decoration::Binding(_)))
    {
        return None;
    }
    let Some(Type::Pointer { pointee, .. }) = m.types.get(g.ty) else {
        return None;
    };
    let Some(&Type::Array {
        element, length, ..
    }) = m.types.get(*pointee)
    else {
        return None;
    };
    let n = constant_u32(m, length)?;
    let per_element = bindings_of(m, element)?;
    Some((n, element, per_element))
}

/// How many bindings a descriptor of type `t` takes once flattened (an array: its length
/// times its element's); `None` for a runtime or specialization-sized array.
fn bindings_of(m: &Module, t: Handle<Type>) -> Option<u32> {
    match m.types.get(t)? {
        Type::Array {
            element, length, ..
        } => bindings_of(m, *element)?.checked_mul(constant_u32(m, *length)?),
        Type::RuntimeArray { .. } => None,
        _ => Some(1),
    }
}

/// The value of an integer constant, if `v` is one that fits 32 bits.
fn constant_u32(m: &Module, v: Value) -> Option<u32> {
    let Value::Constant(c) = v else { return None };
    match &m.constants.get(c)?.value {
        ConstantValue::Scalar(l) => u32::try_from(l.low_u64()).ok(),
        ConstantValue::Null => Some(0),
        _ => None,
    }
}

/// The arrays of descriptors whose every use the pass can rewrite.
fn splittable(m: &Module) -> Vec<Handle<GlobalVariable>> {
    let arrays: HashSet<Handle<GlobalVariable>> = m
        .globals
        .iter()
        .filter(|&(_, g)| descriptor_array(m, g).is_some())
        .map(|(h, _)| h)
        .collect();
    if arrays.is_empty() {
        return Vec::new();
    }
    let mut bad: HashSet<Handle<GlobalVariable>> = HashSet::new();
    let mut module_level = |v: Value| {
        if let Value::Global(g) = v {
            bad.insert(g);
        }
    };
    super::replace::visit_module_level_values(m, &mut module_level);
    for (_, f) in m.functions.iter() {
        for (bh, b) in f.blocks.iter() {
            for (k, &h) in b.ops.iter().enumerate() {
                let inst = &f.ops[h].inst;
                if let Some((g, index)) = chain_into(inst) {
                    if arrays.contains(&g)
                        && constant_u32(m, index).is_none()
                        && range_end(m, f, bh, k).is_none()
                    {
                        bad.insert(g);
                    }
                    // The chain's other operands (its indices) are no uses of the array.
                    continue;
                }
                visit_operands(m, inst, &mut |v| {
                    if let Value::Global(g) = v {
                        bad.insert(g);
                    }
                });
            }
            b.terminator.visit_values(|v| {
                if let Value::Global(g) = v {
                    bad.insert(g);
                }
            });
        }
    }
    let mut out: Vec<_> = arrays.difference(&bad).copied().collect();
    out.sort_by_key(|g| g.index());
    out
}

/// The global an access chain starts at and its first index.
fn chain_into(inst: &Instruction) -> Option<(Handle<GlobalVariable>, Value)> {
    let (base, indexes) = match inst {
        Instruction::AccessChain(c) => (c.base, &c.indexes),
        Instruction::InBoundsAccessChain(c) => (c.base, &c.indexes),
        _ => return None,
    };
    let Some(Value::Global(g)) = Value::from_id(base) else {
        return None;
    };
    let first = Value::from_id(*indexes.first()?)?;
    Some((g, first))
}

/// Whether a value of type `t` can pass through a block argument in a logical module (not a
/// pointer, image, sampler or other handle).
fn passes_as_value(m: &Module, t: Option<Handle<Type>>) -> bool {
    t.is_some_and(|t| !super::holds_handle(m, t, 0))
}

/// For the chain at `ops[k]` of block `b` with an index that is not constant: the index of
/// the last op of the range the switch copies (every op after it uses no handle or pointer
/// the range made), or `None` when the range cannot be split off (a loop header, a handle
/// used in another block or by the terminator).
fn range_end(m: &Module, f: &Function, b: Handle<Block>, k: usize) -> Option<usize> {
    let block = &f.blocks[b];
    if matches!(block.structure, Some(Structure::Loop { .. })) {
        return None;
    }
    // What the chain reaches, transitively, within the block.
    let mut reached: HashSet<Value> = HashSet::new();
    reached.insert(Value::Op(block.ops[k]));
    let mut end = k;
    for (j, &h) in block.ops.iter().enumerate().skip(k + 1) {
        let mut uses = false;
        visit_operands(m, &f.ops[h].inst, &mut |v| uses |= reached.contains(&v));
        if uses {
            reached.insert(Value::Op(h));
            end = j;
        }
    }
    // Every handle or pointer the range makes must stay inside it.
    let range: HashSet<Value> = block.ops[k..=end].iter().map(|&h| Value::Op(h)).collect();
    let mut escapes = false;
    let mut outside = |v: Value| {
        if range.contains(&v) {
            if let Value::Op(h) = v {
                escapes |= !passes_as_value(m, f.ops[h].result_type());
            }
        }
    };
    for (bh, bl) in f.blocks.iter() {
        let skip = if bh == b { end + 1 } else { 0 };
        for &h in bl.ops.iter().skip(skip) {
            visit_operands(m, &f.ops[h].inst, &mut outside);
        }
        bl.terminator.visit_values(&mut outside);
    }
    (!escapes).then_some(end)
}

/// Replaces each array of `arrays` by one variable per element and rewrites their chains.
fn split(m: &mut Module, arrays: &[Handle<GlobalVariable>]) {
    let mut elements: HashMap<Handle<GlobalVariable>, Vec<Handle<GlobalVariable>>> = HashMap::new();
    for &g in arrays {
        let Some((n, element, per_element)) = descriptor_array(m, &m.globals[g]) else {
            continue;
        };
        let array = m.globals[g].clone();
        let ptr = m.types.insert(Type::Pointer {
            storage_class: array.storage_class,
            pointee: element,
            stride: None,
        });
        let first = array.decorations.iter().find_map(|d| match d {
            Decoration::Binding(b) => Some(*b),
            _ => None,
        });
        let vars: Vec<Handle<GlobalVariable>> = (0..n)
            .map(|k| {
                let decorations = array
                    .decorations
                    .iter()
                    .map(|d| match d {
                        Decoration::Binding(_) => {
                            Decoration::Binding(first.unwrap_or(0) + k.saturating_mul(per_element))
                        }
                        d => d.clone(),
                    })
                    .collect();
                m.globals.append(GlobalVariable {
                    name: array.name.as_ref().map(|name| format!("{name}[{k}]")),
                    decorations,
                    ..GlobalVariable::new(ptr, array.storage_class)
                })
            })
            .collect();
        for e in &mut m.entry_points {
            if let Some(i) = e.interface.iter().position(|&x| x == g) {
                e.interface.splice(i..=i, vars.iter().copied());
            }
        }
        elements.insert(g, vars);
    }
    let handles: Vec<_> = m.functions.handles().collect();
    for fh in handles {
        let placeholder = Function::new(m.functions[fh].ty, crate::grammar::FunctionControl::None);
        let mut f = std::mem::replace(&mut m.functions[fh], placeholder);
        rewrite_chains(m, &mut f, &elements);
        m.functions[fh] = f;
    }
}

/// The first chain of `f`, in layout order, into an array of `elements` by an index that is
/// not a constant: its block and position.
fn first_variable_chain(
    m: &Module,
    f: &Function,
    elements: &HashMap<Handle<GlobalVariable>, Vec<Handle<GlobalVariable>>>,
    failed: &HashSet<Handle<Op>>,
) -> Option<(Handle<Block>, usize)> {
    f.blocks.iter().find_map(|(bh, b)| {
        b.ops.iter().enumerate().find_map(|(k, &h)| {
            let (g, index) = chain_into(&f.ops[h].inst)?;
            let variable = elements.contains_key(&g)
                && constant_u32(m, index).is_none()
                && !failed.contains(&h);
            variable.then_some((bh, k))
        })
    })
}

/// Rewrites the chains into the arrays of `elements` in `f`: those with an index that is not a
/// constant by a switch (the first in layout order first, so that the range it copies holds
/// the chains after it), then the constant ones to their element. A chain the switch cannot
/// be made for stays, with its array.
fn rewrite_chains(
    m: &mut Module,
    f: &mut Function,
    elements: &HashMap<Handle<GlobalVariable>, Vec<Handle<GlobalVariable>>>,
) {
    let mut failed: HashSet<Handle<Op>> = HashSet::new();
    // Chains in one range nest their switches, which multiplies the copies: past this many
    // copied ops, the chains left stay (and their arrays whole).
    let mut budget = COPY_BUDGET;
    while let Some((b, k)) = first_variable_chain(m, f, elements, &failed) {
        let chain = f.blocks[b].ops[k];
        let n = chain_into(&f.ops[chain].inst)
            .and_then(|(g, _)| elements.get(&g))
            .map_or(0, Vec::len);
        let cost = range_end(m, f, b, k).map_or(usize::MAX, |end| (end - k + 1) * n);
        if n == 0 || cost > budget || !switch_over_index(m, f, b, k, n) {
            failed.insert(chain);
            continue;
        }
        budget -= cost;
    }
    let mut forward: HashMap<Value, Value> = HashMap::new();
    for (_, b) in f.blocks.iter_mut() {
        b.ops.retain(|&h| {
            let op = &mut f.ops[h];
            let Some((g, index)) = chain_into(&op.inst) else {
                return true;
            };
            let (Some(vars), Some(i)) = (elements.get(&g), constant_u32(m, index)) else {
                return true;
            };
            // Out of bounds (undefined behaviour): the last element, as the switch's default.
            let Some(&e) = vars.get(i as usize).or(vars.last()) else {
                return true;
            };
            retarget(op, e) || {
                forward.insert(Value::Op(h), Value::Global(e));
                false
            }
        });
    }
    replace_uses(m, f, &forward);
}

/// Copies each handle or pointer made from a chain into `elements` by an index that is not a
/// constant to just before each of its uses in another block, and drops those left unused.
/// Why: descriptors never change, so reaching one again gives the same; the switch then
/// copies a range of a single block (`Texture2D t = ts[i]; if (c) { t.Sample(...) }`).
fn rematerialize(m: &Module, f: &mut Function, arrays: &HashSet<Handle<GlobalVariable>>) {
    for _ in 0..16 {
        // The handles and pointers made from such chains, with their blocks.
        let mut made: HashMap<Handle<Op>, Handle<Block>> = HashMap::new();
        for (bh, b) in f.blocks.iter() {
            for &h in &b.ops {
                let inst = &f.ops[h].inst;
                let from_chain = match chain_into(inst) {
                    Some((g, index)) => arrays.contains(&g) && constant_u32(m, index).is_none(),
                    None => {
                        let mut any = false;
                        visit_operands(m, inst, &mut |v| {
                            any |= matches!(v, Value::Op(o) if made.contains_key(&o));
                        });
                        any && matches!(
                            inst,
                            Instruction::AccessChain(_)
                                | Instruction::InBoundsAccessChain(_)
                                | Instruction::Load(_)
                                | Instruction::SampledImage(_)
                                | Instruction::Image(_)
                                | Instruction::CopyObject(_)
                        )
                    }
                };
                if from_chain && !passes_as_value(m, f.ops[h].result_type()) {
                    made.insert(h, bh);
                }
            }
        }
        // Their uses in other blocks.
        let mut moves = Vec::new();
        let mut used: HashSet<Handle<Op>> = HashSet::new();
        for (bh, b) in f.blocks.iter() {
            for &u in &b.ops {
                visit_operands(m, &f.ops[u].inst, &mut |v| {
                    if let Value::Op(o) = v {
                        used.insert(o);
                        if made.get(&o).is_some_and(|&home| home != bh) {
                            moves.push((bh, u, o));
                        }
                    }
                });
            }
            b.terminator.visit_values(|v| {
                if let Value::Op(o) = v {
                    used.insert(o);
                }
            });
        }
        let unused: HashSet<Handle<Op>> =
            made.keys().copied().filter(|h| !used.contains(h)).collect();
        if moves.is_empty() && unused.is_empty() {
            return;
        }
        for (_, b) in f.blocks.iter_mut() {
            b.ops.retain(|h| !unused.contains(h));
        }
        for (bh, u, o) in moves {
            let copy = f.ops.append(f.ops[o].clone());
            let (from, to) = (Value::Op(o).to_id(), Value::Op(copy).to_id());
            let result = f.ops[copy].inst.result_id();
            crate::grammar::Ids::visit_ids_mut(&mut f.ops[copy].inst, &mut |id: &mut Id| {
                if Some(*id) == result {
                    *id = to;
                }
            });
            let user_result = f.ops[u].inst.result_id();
            crate::grammar::Ids::visit_ids_mut(&mut f.ops[u].inst, &mut |id: &mut Id| {
                if *id == from && Some(*id) != user_result {
                    *id = to;
                }
            });
            let ops = &mut f.blocks[bh].ops;
            if let Some(p) = ops.iter().position(|&x| x == u) {
                ops.insert(p, copy);
            }
        }
    }
}

/// Points the chain `op` at `e` instead of the array, dropping the array index; false when
/// nothing is left of the chain (its result is `e` itself).
fn retarget(op: &mut Op, e: Handle<GlobalVariable>) -> bool {
    let (base, indexes) = match &mut op.inst {
        Instruction::AccessChain(c) => (&mut c.base, &mut c.indexes),
        Instruction::InBoundsAccessChain(c) => (&mut c.base, &mut c.indexes),
        _ => return true,
    };
    if indexes.len() == 1 {
        return false;
    }
    *base = Value::Global(e).to_id();
    indexes.remove(0);
    true
}

/// Splits block `b` at the chain `ops[k]`: the range of ops it starts goes into one case per
/// element of a switch over its index; whether the split was made.
fn switch_over_index(
    m: &mut Module,
    f: &mut Function,
    b: Handle<Block>,
    k: usize,
    n: usize,
) -> bool {
    let Some(end) = range_end(m, f, b, k) else {
        return false;
    };
    let chain = f.blocks[b].ops[k];
    let Some((_, selector)) = chain_into(&f.ops[chain].inst) else {
        return false;
    };
    let Some(selector_ty) = m.type_of(Some(f), selector) else {
        return false;
    };
    let width = match m.types.get(selector_ty) {
        Some(Type::Int { width, .. }) => *width,
        _ => return false,
    };
    // The index must be defined before the chain (only an invalid module defines it later).
    if let Value::Op(h) = selector {
        if f.blocks[b].ops[k..].contains(&h) {
            return false;
        }
    }
    let after = f.blocks[b].ops.split_off(end + 1);
    let range = f.blocks[b].ops.split_off(k);
    // The range's values the rest of the function uses leave through the merge's arguments.
    let in_range: HashSet<Value> = range.iter().map(|&h| Value::Op(h)).collect();
    let mut used_after: Vec<Handle<Op>> = Vec::new();
    let mut note = |v: Value| {
        if let Value::Op(h) = v {
            if in_range.contains(&v) && !used_after.contains(&h) {
                used_after.push(h);
            }
        }
    };
    for (bh, bl) in f.blocks.iter() {
        if bh != b {
            bl.ops
                .iter()
                .for_each(|&h| visit_operands(m, &f.ops[h].inst, &mut note));
        }
        bl.terminator.visit_values(&mut note);
    }
    // (Ops before the range too: only an invalid module uses a value before its definition,
    // and such a use must still name something that exists.)
    after
        .iter()
        .chain(&f.blocks[b].ops)
        .for_each(|&h| visit_operands(m, &f.ops[h].inst, &mut note));
    used_after.sort_by_key(|&h| range.iter().position(|&r| r == h));

    let merge = f.blocks.append(Block::new(Terminator::Unreachable));
    let args: Vec<Handle<BlockArg>> = used_after
        .iter()
        .map(|&h| {
            f.block_args.append(BlockArg {
                ty: f.ops[h].result_type().expect("a value"),
                name: None,
                decorations: Vec::new(),
                loc: None,
            })
        })
        .collect();
    let imports = m.ext_inst_imports.clone();
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    let mut cases = Vec::with_capacity(n);
    for e in 0..n {
        // The range, copied, its chain taking the constant index `e`.
        let mut copies: HashMap<Value, Value> = HashMap::new();
        let mut ops = Vec::with_capacity(range.len());
        for &h in &range {
            let copy = f.ops.append(f.ops[h].clone());
            copies.insert(Value::Op(h), Value::Op(copy));
            ops.push(copy);
        }
        let index = index_constant(m, selector_ty, e as u64, width);
        for &c in &ops {
            let op = &mut f.ops[c];
            let result = op.inst.result_id();
            visit_ids_mut(&mut op.inst, ext, &mut |id: &mut Id| {
                if Some(*id) == result {
                    *id = Value::Op(c).to_id();
                } else if let Some(v) = Value::from_id(*id).and_then(|v| copies.get(&v)) {
                    *id = v.to_id();
                }
            });
        }
        if let Instruction::AccessChain(OpAccessChain { indexes, .. })
        | Instruction::InBoundsAccessChain(crate::grammar::OpInBoundsAccessChain {
            indexes,
            ..
        }) = &mut f.ops[ops[0]].inst
        {
            indexes[0] = index.to_id();
        }
        let out = used_after.iter().map(|h| copies[&Value::Op(*h)]).collect();
        let mut case = Block::new(Terminator::Branch(Successor {
            block: merge,
            args: out,
        }));
        case.ops = ops;
        cases.push(f.blocks.append(case));
    }
    // The merge block takes the rest of `b`, its terminator and the construct it headed.
    let old_term = std::mem::replace(
        &mut f.blocks[b].terminator,
        Terminator::Switch {
            selector,
            default: Successor::new(*cases.last().expect("a non-empty array")),
            cases: cases
                .iter()
                .enumerate()
                .map(|(e, &c)| (literal(e as u64, width), Successor::new(c)))
                .collect(),
        },
    );
    let structure = f.blocks[b].structure.replace(Structure::Selection {
        merge,
        control: crate::grammar::SelectionControl::None,
        loc: None,
    });
    let term_loc = f.blocks[b].terminator_loc;
    {
        let mb = &mut f.blocks[merge];
        mb.args = args.clone();
        mb.ops = after;
        mb.terminator = old_term;
        mb.terminator_loc = term_loc;
        mb.structure = structure;
    }
    let forward: HashMap<Value, Value> = used_after
        .iter()
        .zip(&args)
        .map(|(&h, &a)| (Value::Op(h), Value::BlockArg(a)))
        .collect();
    replace_uses(m, f, &forward);
    // Layout: the cases and the merge right after `b`.
    let mut order = Vec::with_capacity(f.blocks.len());
    for h in f.blocks.handles() {
        if cases.contains(&h) || h == merge {
            continue;
        }
        order.push(h);
        if h == b {
            order.extend(cases.iter().copied());
            order.push(merge);
        }
    }
    relayout_blocks(m, f, &order);
    true
}

/// The integer constant `v` of type `ty`, `width` bits wide.
fn index_constant(m: &mut Module, ty: Handle<Type>, v: u64, width: u32) -> Value {
    let c = m.constants.insert(crate::ir::Constant::new(
        ty,
        ConstantValue::Scalar(literal(v, width)),
    ));
    Value::Constant(c)
}

/// `v` as a literal of `width` bits.
fn literal(v: u64, width: u32) -> LiteralNumber {
    if width > 32 {
        LiteralNumber::DoubleWord(v)
    } else {
        LiteralNumber::Word(v as u32)
    }
}
