//! Copy propagation of arrays and structs (spirv-opt's `--copy-propagate-arrays`): a Function
//! variable written once, whole, with a copy of memory nothing else changes is read from that
//! memory instead. Why: HLSL copies arrays and structs into locals (`float4 a[4] = cb.a;`,
//! `Texture2D t[2] = gTextures;`, `S s = buf[i];`) and then indexes them with values only
//! known at run time, which scalar replacement cannot split; reading the original keeps the
//! copy out of the shader and, for arrays of resources, is what makes the module legal.
//!
//! The copy is the variable's only store, of a value made of one memory object: a load, an
//! extract of a loaded aggregate, or a `OpCompositeConstruct` that rebuilds an aggregate of
//! another layout from its members (DXC's and spvkit's copy between layouts). The memory
//! copied is a module variable of a storage class no other invocation writes (uniform and
//! push constants, inputs, handles, read-only storage buffers, Private) or a local, and no
//! instruction of the module writes it except, at most, one whole store that dominates the
//! copy. Every load and access chain of the variable that the store dominates and that reads
//! the same types from the original is rewritten; whatever else reads the variable stays.

use crate::grammar::{Decoration, Id, Instruction, LiteralNumber, MemoryAccess, StorageClass};
use crate::grammar::{MemoryAccessArgs, OpAccessChain};
use crate::ir::analysis::{visit_operands, Cfg, DefUse, DomTree, User};
use crate::ir::{Block, Constant, ConstantValue, Function, Handle, Module, Op, Type, Value};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let globals = global_writes(m);
    super::each_function(m, |m, f| in_function(m, f, &globals))
}

/// How a variable (a module variable or a local) is written.
#[derive(Clone, Copy, Debug, Default)]
struct Writes {
    /// Its address goes somewhere other than a load, an access chain or a whole store's
    /// pointer, or a store writes part of it: anything may happen to it.
    escaped: bool,
    /// How many whole stores write it.
    stores: u32,
    /// The last whole store, and whether it is in the function being rewritten (handles of
    /// ops are per function).
    store: Option<(Handle<Op>, bool)>,
}

/// The variable each pointer of `f` is into: the Function variables, the module variables,
/// and access chains of known pointers (a chain's base comes before it in layout order).
fn roots(f: &Function) -> HashMap<Value, Value> {
    let mut root = HashMap::new();
    for &h in f
        .header
        .iter()
        .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()))
    {
        match &f.ops[h].inst {
            Instruction::Variable(v) if v.storage_class == StorageClass::Function => {
                root.insert(Value::Op(h), Value::Op(h));
            }
            inst => {
                let Some(base) = chain_parts(inst).and_then(|(b, _)| Value::from_id(b)) else {
                    continue;
                };
                let r = match base {
                    Value::Global(_) => Some(base),
                    _ => root.get(&base).copied(),
                };
                if let Some(r) = r {
                    root.insert(Value::Op(h), r);
                }
            }
        }
    }
    root
}

/// Notes in `writes` how `f` writes each variable it reaches (`here`: whether `f` is the
/// function being rewritten).
fn note_writes(
    m: &Module,
    f: &Function,
    root: &HashMap<Value, Value>,
    here: bool,
    writes: &mut HashMap<Value, Writes>,
) {
    let root_of = |v: Value| match v {
        Value::Global(_) => Some(v),
        _ => root.get(&v).copied(),
    };
    for &h in f
        .header
        .iter()
        .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()))
    {
        let inst = &f.ops[h].inst;
        let allowed = match inst {
            Instruction::Load(l) => Value::from_id(l.pointer),
            Instruction::Store(s) => {
                if let Some(p) = Value::from_id(s.pointer) {
                    if let Some(r) = root_of(p) {
                        let w = writes.entry(r).or_default();
                        if p == r && !volatile(&s.memory_access) {
                            w.stores += 1;
                            w.store = Some((h, here));
                        } else {
                            w.escaped = true;
                        }
                    }
                }
                Value::from_id(s.pointer)
            }
            _ => chain_parts(inst).and_then(|(b, _)| Value::from_id(b)),
        };
        visit_operands(m, inst, &mut |v| {
            if Some(v) != allowed {
                if let Some(r) = root_of(v) {
                    writes.entry(r).or_default().escaped = true;
                }
            }
        });
        if let Instruction::Store(s) = inst {
            // The pointer stored as a value escapes even when it is also the pointer.
            if let Some(r) = Value::from_id(s.object).and_then(root_of) {
                writes.entry(r).or_default().escaped = true;
            }
        }
    }
    for (_, b) in f.blocks.iter() {
        b.terminator.visit_values(|v| {
            if let Some(r) = root_of(v) {
                writes.entry(r).or_default().escaped = true;
            }
        });
    }
}

/// How every function writes each module variable (no function is "here").
fn global_writes(m: &Module) -> HashMap<Value, Writes> {
    let mut writes = HashMap::new();
    for (_, f) in m.functions.iter() {
        note_writes(m, f, &roots(f), false, &mut writes);
    }
    writes.retain(|v, _| matches!(v, Value::Global(_)));
    writes
}

fn volatile(a: &Option<MemoryAccessArgs>) -> bool {
    a.as_ref()
        .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile))
}

/// The base and indexes of an access chain.
fn chain_parts(inst: &Instruction) -> Option<(Id, &[Id])> {
    match inst {
        Instruction::AccessChain(a) => Some((a.base, &a.indexes)),
        Instruction::InBoundsAccessChain(a) => Some((a.base, &a.indexes)),
        _ => None,
    }
}

/// Where a copied value comes from: a pointer, the literal indexes into what it points to,
/// and the loads that read it.
struct Source {
    pointer: Value,
    path: Vec<u32>,
    loads: Vec<Handle<Op>>,
}

/// The memory object `v` is a copy of, if it is one (nesting bounded, so a hostile module
/// cannot recurse deeply).
fn source_of(m: &Module, f: &Function, v: Value, depth: u32) -> Option<Source> {
    let Value::Op(h) = v else { return None };
    if depth > 8 {
        return None;
    }
    match &f.ops.get(h)?.inst {
        Instruction::Load(l) if !volatile(&l.memory_access) => Some(Source {
            pointer: Value::from_id(l.pointer)?,
            path: Vec::new(),
            loads: vec![h],
        }),
        Instruction::CompositeExtract(e) => {
            let mut s = source_of(m, f, Value::from_id(e.composite)?, depth + 1)?;
            s.path.extend_from_slice(&e.indexes);
            Some(s)
        }
        Instruction::CopyObject(c) => source_of(m, f, Value::from_id(c.operand)?, depth + 1),
        Instruction::CopyLogical(c) => source_of(m, f, Value::from_id(c.operand)?, depth + 1),
        Instruction::CompositeConstruct(c) => {
            let ty = f.ops[h].result_type()?;
            if !matches!(m.types.get(ty)?, Type::Array { .. } | Type::Struct(_)) {
                return None;
            }
            // Every part is member i of one object, and the object has no other members.
            let mut whole: Option<Source> = None;
            for (i, &part) in c.constituents.iter().enumerate() {
                let mut s = source_of(m, f, Value::from_id(part)?, depth + 1)?;
                if s.path.pop() != Some(i as u32) {
                    return None;
                }
                match &mut whole {
                    None => whole = Some(s),
                    Some(w) if w.pointer == s.pointer && w.path == s.path => {
                        w.loads.append(&mut s.loads)
                    }
                    Some(_) => return None,
                }
            }
            let whole = whole?;
            let at = walk_literal(m, pointee(m, f, whole.pointer)?, &whole.path)?;
            (members(m, at)? == c.constituents.len() as u64).then_some(whole)
        }
        _ => None,
    }
}

/// How many members or elements an aggregate type has.
fn members(m: &Module, ty: Handle<Type>) -> Option<u64> {
    match m.types.get(ty)? {
        Type::Struct(s) => Some(s.members.len() as u64),
        Type::Array { length, .. } => constant_index(m, *length),
        _ => None,
    }
}

/// The value of an integer constant used as an index or a length.
fn constant_index(m: &Module, v: Value) -> Option<u64> {
    let Value::Constant(c) = v else { return None };
    match &m.constants.get(c)?.value {
        ConstantValue::Scalar(l) => Some(l.low_u64()),
        ConstantValue::Null => Some(0),
        _ => None,
    }
}

/// The type an index of any kind selects in `ty` (a struct member needs a constant).
fn element(m: &Module, ty: Handle<Type>, index: Value) -> Option<Handle<Type>> {
    match m.types.get(ty)? {
        Type::Struct(s) => Some(
            s.members
                .get(usize::try_from(constant_index(m, index)?).ok()?)?
                .ty,
        ),
        Type::Array { element, .. } | Type::RuntimeArray { element, .. } => Some(*element),
        Type::Vector { component, .. } => Some(*component),
        Type::Matrix { column, .. } => Some(*column),
        _ => None,
    }
}

/// The type literal indexes reach in `ty`.
fn walk_literal(m: &Module, mut ty: Handle<Type>, path: &[u32]) -> Option<Handle<Type>> {
    for &i in path {
        ty = match m.types.get(ty)? {
            Type::Struct(s) => s.members.get(i as usize)?.ty,
            Type::Array { element, .. } | Type::RuntimeArray { element, .. } => *element,
            Type::Vector { component, .. } => *component,
            Type::Matrix { column, .. } => *column,
            _ => return None,
        };
    }
    Some(ty)
}

/// The storage class and pointee of pointer value `p`.
fn pointer_type(m: &Module, f: &Function, p: Value) -> Option<(StorageClass, Handle<Type>)> {
    match m.types.get(m.type_of(Some(f), p)?)? {
        Type::Pointer {
            storage_class,
            pointee,
            ..
        } => Some((*storage_class, *pointee)),
        _ => None,
    }
}

fn pointee(m: &Module, f: &Function, p: Value) -> Option<Handle<Type>> {
    pointer_type(m, f, p).map(|(_, t)| t)
}

/// Whether no other invocation can write memory of module variable `g`: the storage class
/// is read-only or per invocation, and a storage buffer is `NonWritable` in every member.
fn invocation_private_or_read_only(m: &Module, g: Value) -> bool {
    let Value::Global(g) = g else { return true };
    let Some(var) = m.globals.get(g) else {
        return false;
    };
    let block = match m.types.get(var.ty) {
        Some(Type::Pointer { pointee, .. }) => match m.types.get(*pointee) {
            Some(Type::Struct(s)) => Some(s),
            _ => None,
        },
        _ => None,
    };
    let non_writable = |d: &[Decoration]| d.iter().any(|d| matches!(d, Decoration::NonWritable));
    match var.storage_class {
        StorageClass::UniformConstant
        | StorageClass::PushConstant
        | StorageClass::Input
        | StorageClass::Private => true,
        StorageClass::Uniform | StorageClass::StorageBuffer
            if var.storage_class == StorageClass::Uniform
                && !block.is_some_and(|s| s.is_buffer_block()) =>
        {
            true
        }
        // Storage buffers (`BufferBlock` in Uniform before SPIR-V 1.3).
        StorageClass::Uniform | StorageClass::StorageBuffer => {
            non_writable(&var.decorations)
                || block.is_some_and(|s| s.members.iter().all(|mb| non_writable(&mb.decorations)))
        }
        _ => false,
    }
}

/// Where each op of `f` is: its block and its place in it (header ops have none).
fn places(f: &Function) -> HashMap<Handle<Op>, (Handle<Block>, usize)> {
    let mut at = HashMap::new();
    for (b, block) in f.blocks.iter() {
        for (i, &h) in block.ops.iter().enumerate() {
            at.insert(h, (b, i));
        }
    }
    at
}

/// A reader of the copy: a load of it, or an access chain into it whose users are readers.
struct Reader {
    op: Handle<Op>,
    /// The type the op reads or points to, in the original's types.
    ty: Handle<Type>,
    chains: Vec<Reader>,
}

/// The reader tree of `op` (a user of pointer `p`, whose pointee in the original is `src`),
/// if every op in it is a plain load or an access chain the store dominates and reads what
/// the original holds in the same types.
fn reader(
    m: &Module,
    f: &Function,
    uses: &DefUse,
    dominated: &dyn Fn(Handle<Op>) -> bool,
    p: Value,
    src: Handle<Type>,
    op: Handle<Op>,
) -> Option<Reader> {
    if !dominated(op) {
        return None;
    }
    match &f.ops[op].inst {
        Instruction::Load(l)
            if !volatile(&l.memory_access)
                && Value::from_id(l.pointer) == Some(p)
                && f.ops[op].result_type() == Some(src) =>
        {
            Some(Reader {
                op,
                ty: src,
                chains: Vec::new(),
            })
        }
        inst => {
            let (base, indexes) = chain_parts(inst)?;
            if Value::from_id(base) != Some(p) {
                return None;
            }
            let mut ty = src;
            for &i in indexes {
                ty = element(m, ty, Value::from_id(i)?)?;
            }
            // (The chain's pointee may differ in layout; the loads at the leaves compare.)
            let mut chains = Vec::new();
            for &u in uses.users(Value::Op(op)) {
                let User::Op(u) = u else { return None };
                chains.push(reader(m, f, uses, dominated, Value::Op(op), ty, u)?);
            }
            Some(Reader { op, ty, chains })
        }
    }
}

/// Sweeps `f` until a sweep changes nothing (a copy of a copy is read from the first copy
/// after one sweep, from the original after the next), a few times at most.
fn in_function(m: &mut Module, f: &mut Function, globals: &HashMap<Value, Writes>) -> bool {
    if f.is_declaration() {
        return false;
    }
    let mut changed = false;
    for _ in 0..4 {
        if !sweep(m, f, globals) {
            break;
        }
        changed = true;
    }
    changed
}

/// One rewrite of every copy whose original is known now; whether any reader changed.
fn sweep(m: &mut Module, f: &mut Function, globals: &HashMap<Value, Writes>) -> bool {
    let root = roots(f);
    let mut writes: HashMap<Value, Writes> = globals.clone();
    let mut local = HashMap::new();
    note_writes(m, f, &root, true, &mut local);
    for (v, w) in local {
        match writes.get_mut(&v) {
            // A module variable all of whose stores are here has its store here.
            Some(g) if matches!(v, Value::Global(_)) => {
                if w.stores > 0 && w.stores == g.stores {
                    g.store = w.store;
                }
            }
            _ => {
                writes.insert(v, w);
            }
        }
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::dominators(&cfg);
    let at = places(f);
    // Whether op `a` is before op `b` on every path to `b`.
    let dominates = |a: Handle<Op>, b: Handle<Op>| match (at.get(&a), at.get(&b)) {
        (Some(&(ba, ia)), Some(&(bb, ib))) => {
            if ba == bb {
                ia < ib
            } else {
                dom.dominates(ba, bb)
            }
        }
        _ => false,
    };
    let uses = DefUse::new(m, f);
    let variables: Vec<Handle<Op>> = f
        .blocks
        .iter()
        .flat_map(|(_, b)| b.ops.iter().copied())
        .filter(|&h| {
            matches!(&f.ops[h].inst, Instruction::Variable(v)
                if v.storage_class == StorageClass::Function && v.initializer.is_none())
        })
        .collect();
    // The rewrites: new chains to place before ops, and pointers to set.
    let mut before: HashMap<Handle<Op>, Vec<Handle<Op>>> = HashMap::new();
    let mut retargeted: HashSet<Handle<Op>> = HashSet::new();
    let mut changed = false;
    for var in variables {
        let copy = Value::Op(var);
        let Some(Type::Array { .. } | Type::Struct(_)) =
            pointee(m, f, copy).and_then(|t| m.types.get(t))
        else {
            continue;
        };
        let Some(&Writes {
            escaped: false,
            stores: 1,
            store: Some((store, true)),
        }) = writes.get(&copy)
        else {
            continue;
        };
        let Instruction::Store(s) = &f.ops[store].inst else {
            continue;
        };
        let Some(source) = Value::from_id(s.object).and_then(|o| source_of(m, f, o, 0)) else {
            continue;
        };
        // The original: not the copy, nothing else writes it, at most one whole store
        // before every load of the copy.
        let Some(original) = (match source.pointer {
            Value::Global(_) => Some(source.pointer),
            p => root.get(&p).copied(),
        }) else {
            continue;
        };
        if original == copy || !invocation_private_or_read_only(m, original) {
            continue;
        }
        let unchanged = match writes.get(&original) {
            None => true,
            Some(w) if w.escaped => false,
            Some(w) => match (w.stores, w.store) {
                (0, _) => true,
                (1, Some((s, true))) => source.loads.iter().all(|&l| dominates(s, l)),
                _ => false,
            },
        };
        if !unchanged {
            continue;
        }
        let Some((class, original_ty)) = pointer_type(m, f, source.pointer) else {
            continue;
        };
        let Some(src) = walk_literal(m, original_ty, &source.path) else {
            continue;
        };
        let dominated = |op: Handle<Op>| dominates(store, op);
        let readers: Vec<Reader> = uses
            .users(copy)
            .iter()
            .filter_map(|&u| match u {
                User::Op(u) if u != store => reader(m, f, &uses, &dominated, copy, src, u),
                _ => None,
            })
            // (A reader rewritten earlier in this sweep reads the original already.)
            .filter(|r| !retargeted.contains(&r.op))
            .collect();
        for r in readers {
            let pointer = if source.path.is_empty() {
                source.pointer
            } else {
                let chain = path_chain(m, f, source.pointer, class, src, &source.path);
                before.entry(r.op).or_default().push(chain);
                Value::Op(chain)
            };
            retarget(m, f, &r, pointer, class);
            retargeted.insert(r.op);
            changed = true;
        }
    }
    if before.is_empty() {
        return changed;
    }
    for (_, block) in f.blocks.iter_mut() {
        if !block.ops.iter().any(|h| before.contains_key(h)) {
            continue;
        }
        let mut ops = Vec::with_capacity(block.ops.len() + before.len());
        for &h in &block.ops {
            if let Some(new) = before.get(&h) {
                ops.extend_from_slice(new);
            }
            ops.push(h);
        }
        block.ops = ops;
    }
    changed
}

/// A new access chain from `base` (a pointer of `class`) along literal `path`, reaching `ty`.
fn path_chain(
    m: &mut Module,
    f: &mut Function,
    base: Value,
    class: StorageClass,
    ty: Handle<Type>,
    path: &[u32],
) -> Handle<Op> {
    let uint = m.types.insert(Type::Int {
        width: 32,
        signed: false,
    });
    let indexes = path
        .iter()
        .map(|&i| {
            let c = m.constants.insert(Constant::new(
                uint,
                ConstantValue::Scalar(LiteralNumber::Word(i)),
            ));
            Value::Constant(c).to_id()
        })
        .collect();
    let ptr = m.types.insert(Type::Pointer {
        storage_class: class,
        pointee: ty,
        stride: None,
    });
    let h = f.ops.next_handle();
    f.ops.append(Op {
        inst: Instruction::AccessChain(OpAccessChain {
            result_type: Value::Type(ptr).to_id(),
            result_id: Value::Op(h).to_id(),
            base: base.to_id(),
            indexes,
        }),
        loc: None,
        attrs: None,
    })
}

/// Points reader `r` at `pointer` (of `class`), and its chains' types at `class`.
fn retarget(m: &mut Module, f: &mut Function, r: &Reader, pointer: Value, class: StorageClass) {
    let ptr = m.types.insert(Type::Pointer {
        storage_class: class,
        pointee: r.ty,
        stride: None,
    });
    match &mut f.ops[r.op].inst {
        Instruction::Load(l) => l.pointer = pointer.to_id(),
        Instruction::AccessChain(c) => {
            c.base = pointer.to_id();
            c.result_type = Value::Type(ptr).to_id();
        }
        Instruction::InBoundsAccessChain(c) => {
            c.base = pointer.to_id();
            c.result_type = Value::Type(ptr).to_id();
        }
        _ => {}
    }
    for c in &r.chains {
        retarget(m, f, c, Value::Op(r.op), class);
    }
}
