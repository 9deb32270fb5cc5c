//! Plain LLVM instructions → SPIR-V ops: the lowering pattern table read backwards (binary
//! operators, comparisons, casts, `select`, intrinsics → core ops or OpenCL.std) built once at
//! first use, plus the special cases: shifts and divisions, `i1` extensions and truncations,
//! memory (`load`/`store`/`getelementptr`/atomics/`fence`), address-space casts, vector and
//! aggregate element access.

use super::error::{err, Result};
use super::function::Fx;
use super::module::Val;
use super::read;
use crate::grammar::lowering::{PatternKind, CORE_PATTERNS, OPENCL_STD_PATTERNS};
use crate::grammar::{LiteralNumber, MemorySemantics, Opcode, Scope, StorageClass};
use crate::ir::{ConstantValue, Handle, Type, Value};
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{
    LLVMAtomicOrdering as AO, LLVMAtomicRMWBinOp as RMW, LLVMOpcode as O, LLVMTypeKind as K,
};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The pattern table read backwards.
pub struct Reverse {
    /// (kind, LLVM name) → core opcodes (an `and` maps to `OpBitwiseAnd` and `OpLogicalAnd`).
    pub core: HashMap<(PatternKind, &'static str), Vec<Opcode>>,
    /// LLVM intrinsic (without type suffix) → OpenCL.std instruction number.
    pub ocl_intrinsic: HashMap<&'static str, u32>,
}

/// The reverse table, built at first use from the generated lowering patterns.
pub fn reverse() -> &'static Reverse {
    static R: OnceLock<Reverse> = OnceLock::new();
    R.get_or_init(|| {
        let mut core: HashMap<(PatternKind, &'static str), Vec<Opcode>> = HashMap::new();
        for (op, p) in CORE_PATTERNS {
            core.entry((p.kind, p.llvm)).or_default().push(*op);
        }
        let mut ocl_intrinsic = HashMap::new();
        for (n, p) in OPENCL_STD_PATTERNS {
            if p.kind == PatternKind::Intrinsic {
                ocl_intrinsic.entry(p.llvm).or_insert(*n);
            }
        }
        Reverse {
            core,
            ocl_intrinsic,
        }
    })
}

fn pick(ops: &[Opcode], logical: bool) -> Option<Opcode> {
    let is_logical = |o: &Opcode| format!("{o:?}").starts_with("Logical");
    ops.iter()
        .find(|o| is_logical(o) == logical)
        .or_else(|| ops.first())
        .copied()
}

fn icmp_name(p: i32) -> &'static str {
    match p {
        32 => "eq",
        33 => "ne",
        34 => "ugt",
        35 => "uge",
        36 => "ult",
        37 => "ule",
        38 => "sgt",
        39 => "sge",
        40 => "slt",
        _ => "sle",
    }
}

fn fcmp_name(p: i32) -> &'static str {
    [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge",
        "ult", "ule", "une", "true",
    ]
    .get(p as usize)
    .copied()
    .unwrap_or("true")
}

/// Memory semantics of an LLVM ordering (without storage-class bits).
pub fn semantics(o: AO) -> u32 {
    match o {
        AO::LLVMAtomicOrderingAcquire => MemorySemantics::Acquire.0,
        AO::LLVMAtomicOrderingRelease => MemorySemantics::Release.0,
        AO::LLVMAtomicOrderingAcquireRelease => MemorySemantics::AcquireRelease.0,
        AO::LLVMAtomicOrderingSequentiallyConsistent => MemorySemantics::SequentiallyConsistent.0,
        _ => 0,
    }
}

impl Fx<'_, '_> {
    /// Translates one instruction.
    pub fn instruction(&mut self, i: LLVMValueRef) -> Result<()> {
        let op = read::opcode(i);
        match op {
            O::LLVMRet | O::LLVMBr | O::LLVMSwitch | O::LLVMUnreachable => {
                return self.terminator(i, op)
            }
            _ => {}
        }
        if matches!(op, O::LLVMAddrSpaceCast | O::LLVMBitCast)
            && super::enqueue::function_of(i).is_some()
        {
            // A block's invoke function as a pointer: read where it is used (enqueue, kernel
            // queries, the null stored into the block literal).
            return Ok(());
        }
        let first_new = self.f.function().ops.len();
        let v = match self.narrow_signed(i, op)? {
            Some(v) => Some(v),
            None => match self.operation(i, op)? {
                Some(v) => Some(self.narrow_wrap(i, op, v)?),
                None => None,
            },
        };
        if let Some(v) = v {
            self.instruction_decorations(i, v.v, first_new)?;
            let n = read::name(i);
            if !n.is_empty()
                && matches!(v.v, Value::Op(_))
                && !self.vals.values().any(|x| x.v == v.v)
            {
                self.f.name(v.v, &n);
            }
            self.vals.insert(i as usize, v);
        }
        Ok(())
    }

    /// Whether a type is `bool` or a vector of `bool`.
    pub fn is_bool(&self, t: Handle<Type>) -> bool {
        match self.f.module().types.get(t) {
            Some(Type::Bool) => true,
            Some(Type::Vector { component, .. }) => {
                matches!(self.f.module().types.get(*component), Some(Type::Bool))
            }
            _ => false,
        }
    }

    /// `true_value` or 0 of integer type `ty` per lane of the bool (vector) `c`: how OpenCL C
    /// returns a condition as a number (1 for scalars, all ones for vector lanes).
    pub fn bool_to_int(&mut self, c: Value, ty: Handle<Type>, true_value: u64) -> Result<Val> {
        let one = self.const_int_of(ty, true_value)?;
        let zero = self.const_int_of(ty, 0)?;
        self.emit_val(Opcode::Select, ty, &[c, one, zero])
    }

    /// An integer constant of type `t` (splatted for vectors).
    pub fn const_int_of(&mut self, t: Handle<Type>, x: u64) -> Result<Value> {
        let ty = self.f.module().types.get(t).cloned();
        let c = match ty {
            Some(Type::Int { width: 64, .. }) => {
                ConstantValue::Scalar(LiteralNumber::DoubleWord(x))
            }
            Some(Type::Int { width, .. }) => {
                let mask = if width >= 32 {
                    u32::MAX
                } else {
                    (1 << width) - 1
                };
                ConstantValue::Scalar(LiteralNumber::Word(x as u32 & mask))
            }
            Some(Type::Float { width: 32 }) => {
                ConstantValue::Scalar(LiteralNumber::Word((x as f32).to_bits()))
            }
            Some(Type::Float { width: 64 }) => {
                ConstantValue::Scalar(LiteralNumber::DoubleWord((x as f64).to_bits()))
            }
            Some(Type::Float { width: 16 }) => ConstantValue::Scalar(LiteralNumber::Word(
                super::constants::f64_to_f16(x as f64) as u32,
            )),
            Some(Type::Bool) => ConstantValue::Bool(x != 0),
            Some(Type::Vector { component, count }) => {
                let e = self.const_int_of(component, x)?;
                ConstantValue::Composite(vec![e; count as usize])
            }
            _ => return err("a constant of an unexpected type"),
        };
        Ok(Value::Constant(self.f.constant(t, c)))
    }

    /// The vector size of a type (1 for scalars).
    pub fn width_of(&self, t: Handle<Type>) -> u32 {
        match self.f.module().types.get(t) {
            Some(Type::Vector { count, .. }) => *count,
            _ => 1,
        }
    }

    /// The component type of a vector type (the type itself for scalars).
    pub fn scalar_of(&self, t: Handle<Type>) -> Handle<Type> {
        match self.f.module().types.get(t) {
            Some(Type::Vector { component, .. }) => *component,
            _ => t,
        }
    }

    /// Translates an instruction or constant expression; `None` when it has no value.
    pub fn operation(&mut self, i: LLVMValueRef, op: O) -> Result<Option<Val>> {
        let r = reverse();
        let result = match op {
            O::LLVMAdd
            | O::LLVMSub
            | O::LLVMMul
            | O::LLVMFAdd
            | O::LLVMFSub
            | O::LLVMFMul
            | O::LLVMFDiv
            | O::LLVMFRem
            | O::LLVMAnd
            | O::LLVMOr
            | O::LLVMXor
            | O::LLVMUDiv
            | O::LLVMSDiv
            | O::LLVMURem
            | O::LLVMSRem
            | O::LLVMShl
            | O::LLVMLShr
            | O::LLVMAShr => {
                let a = self.value(read::operand(i, 0))?;
                let b = self.value(read::operand(i, 1))?;
                let logical = self.is_bool(a.ty);
                let name = match op {
                    O::LLVMAdd => "add",
                    O::LLVMSub => "sub",
                    O::LLVMMul => "mul",
                    O::LLVMFAdd => "fadd",
                    O::LLVMFSub => "fsub",
                    O::LLVMFMul => "fmul",
                    O::LLVMFDiv => "fdiv",
                    O::LLVMFRem => "frem",
                    O::LLVMAnd => "and",
                    O::LLVMOr => "or",
                    _ => "xor",
                };
                let code = match op {
                    O::LLVMUDiv => Opcode::UDiv,
                    O::LLVMSDiv => Opcode::SDiv,
                    O::LLVMURem => Opcode::UMod,
                    O::LLVMSRem => Opcode::SRem,
                    O::LLVMShl => Opcode::ShiftLeftLogical,
                    O::LLVMLShr => Opcode::ShiftRightLogical,
                    O::LLVMAShr => Opcode::ShiftRightArithmetic,
                    // On i1, add, sub and xor are xor; mul is and.
                    O::LLVMXor | O::LLVMAdd | O::LLVMSub if logical => Opcode::LogicalNotEqual,
                    O::LLVMMul if logical => Opcode::LogicalAnd,
                    _ => match r
                        .core
                        .get(&(PatternKind::BinOp, name))
                        .and_then(|o| pick(o, logical))
                    {
                        Some(o) => o,
                        None => return err("this operator has no SPIR-V form"),
                    },
                };
                if logical && !format!("{code:?}").starts_with("Logical") {
                    return err("this operator on i1 has no SPIR-V form");
                }
                Some(self.emit_val(code, a.ty, &[a.v, b.v])?)
            }
            O::LLVMFNeg => {
                let a = self.value(read::operand(i, 0))?;
                Some(self.emit_val(Opcode::FNegate, a.ty, &[a.v])?)
            }
            O::LLVMICmp => {
                // SAFETY: `i` is an icmp.
                let p = unsafe { llc::LLVMGetICmpPredicate(i) } as i32;
                let mut a = self.value(read::operand(i, 0))?;
                let mut b = self.value(read::operand(i, 1))?;
                if self.ptr_parts(a.ty).is_some() {
                    let st = self.st.size_t(&mut self.f);
                    a = self.emit_val(Opcode::ConvertPtrToU, st, &[a.v])?;
                    b = self.emit_val(Opcode::ConvertPtrToU, st, &[b.v])?;
                }
                let logical = self.is_bool(a.ty);
                let name = icmp_name(p);
                let code = r
                    .core
                    .get(&(PatternKind::ICmp, name))
                    .and_then(|o| pick(o, logical));
                let Some(code) = code else {
                    return err("this comparison has no SPIR-V form");
                };
                if logical && !format!("{code:?}").starts_with("Logical") {
                    return err("an ordering comparison of i1 has no SPIR-V form");
                }
                let ty = self.ty(read::type_of(i))?;
                Some(self.emit_val(code, ty, &[a.v, b.v])?)
            }
            O::LLVMFCmp => {
                // SAFETY: `i` is an fcmp.
                let p = unsafe { llc::LLVMGetFCmpPredicate(i) } as i32;
                let ty = self.ty(read::type_of(i))?;
                let name = fcmp_name(p);
                if name == "true" || name == "false" {
                    let v = self.const_int_of(ty, (name == "true") as u64)?;
                    Some(Val { v, ty })
                } else {
                    let a = self.value(read::operand(i, 0))?;
                    let b = self.value(read::operand(i, 1))?;
                    let Some(code) = r
                        .core
                        .get(&(PatternKind::FCmp, name))
                        .and_then(|o| o.first())
                    else {
                        return err("this comparison has no SPIR-V form");
                    };
                    Some(self.emit_val(*code, ty, &[a.v, b.v])?)
                }
            }
            O::LLVMTrunc
            | O::LLVMZExt
            | O::LLVMSExt
            | O::LLVMFPToUI
            | O::LLVMFPToSI
            | O::LLVMUIToFP
            | O::LLVMSIToFP
            | O::LLVMFPTrunc
            | O::LLVMFPExt
            | O::LLVMPtrToInt
            | O::LLVMIntToPtr
            | O::LLVMBitCast
            | O::LLVMAddrSpaceCast => Some(self.cast(i, op)?),
            O::LLVMSelect => {
                let c = self.value(read::operand(i, 0))?;
                let a = self.value(read::operand(i, 1))?;
                let b = self.value(read::operand(i, 2))?;
                let b = self.coerce(b, a.ty)?;
                if self
                    .f
                    .module()
                    .types
                    .get(a.ty)
                    .is_some_and(Type::is_opaque_object)
                {
                    // OpSelect takes no opaque operands (spirv-val asks for BindlessTextureNV).
                    return err(
                        "a select of images, samplers or other opaque values has no SPIR-V form",
                    );
                }
                let n = self.width_of(a.ty);
                let c = if n > 1 && self.width_of(c.ty) == 1 {
                    let bool_t = self.f.type_bool();
                    let vt = self.f.type_vector(bool_t, n);
                    let parts = vec![c.v; n as usize];
                    self.emit_val(Opcode::CompositeConstruct, vt, &parts)?
                } else {
                    c
                };
                Some(self.emit_val(Opcode::Select, a.ty, &[c.v, a.v, b.v])?)
            }
            O::LLVMLoad => {
                let p = self.value(read::operand(i, 0))?;
                // A variable holding an image, sampler, pipe, ... loads that object (LLVM
                // loads a pointer).
                let held = self
                    .ptr_parts(p.ty)
                    .map(|(_, t)| t)
                    .filter(|&t| {
                        self.f
                            .module()
                            .types
                            .get(t)
                            .is_some_and(Type::is_opaque_object)
                    })
                    .filter(|_| read::type_kind(read::type_of(i)) == K::LLVMPointerTypeKind);
                let ty = match held {
                    Some(t) => t,
                    None => self.ty(read::type_of(i))?,
                };
                let p = self.ptr_to(p, ty)?;
                // SAFETY: `i` is a load.
                let (ordering, volatile, align) = unsafe {
                    (
                        llc::LLVMGetOrdering(i),
                        llc::LLVMGetVolatile(i) != 0,
                        llc::LLVMGetAlignment(i),
                    )
                };
                if ordering != AO::LLVMAtomicOrderingNotAtomic {
                    let scope = self.cu32(Scope::Device as u32);
                    let sem = self.cu32(semantics(ordering));
                    Some(self.emit_val(Opcode::AtomicLoad, ty, &[p.v, scope, sem])?)
                } else {
                    let mut w = vec![p.v.to_id().0];
                    memory_access(&mut w, volatile, align);
                    let v = self.emit(Opcode::Load, Some(ty), &w)?;
                    Some(Val { v, ty })
                }
            }
            O::LLVMStore => {
                let stored = read::operand(i, 0);
                let v = if super::enqueue::function_of(stored).is_some() {
                    // A block's invoke function pointer: null, as llvm-spirv-15 stores it.
                    let t = self.ty(read::type_of(stored))?;
                    Val {
                        v: Value::Constant(self.f.constant_null(t)),
                        ty: t,
                    }
                } else {
                    self.value(stored)?
                };
                let p = self.value(read::operand(i, 1))?;
                let p = self.ptr_to(p, v.ty)?;
                // SAFETY: `i` is a store.
                let (ordering, volatile, align) = unsafe {
                    (
                        llc::LLVMGetOrdering(i),
                        llc::LLVMGetVolatile(i) != 0,
                        llc::LLVMGetAlignment(i),
                    )
                };
                if ordering != AO::LLVMAtomicOrderingNotAtomic {
                    let scope = self.cu32(Scope::Device as u32);
                    let sem = self.cu32(semantics(ordering));
                    let w: Vec<u32> = [p.v, scope, sem, v.v].iter().map(|x| x.to_id().0).collect();
                    self.emit(Opcode::AtomicStore, None, &w)?;
                } else {
                    let mut w = vec![p.v.to_id().0, v.v.to_id().0];
                    memory_access(&mut w, volatile, align);
                    self.emit(Opcode::Store, None, &w)?;
                }
                None
            }
            O::LLVMGetElementPtr => Some(self.gep(i)?),
            O::LLVMExtractElement => {
                let v = self.value(read::operand(i, 0))?;
                let ty = self.ty(read::type_of(i))?;
                let idx = read::operand(i, 1);
                if let Some(k) = read::const_int(idx) {
                    let w = [v.v.to_id().0, k as u32];
                    let r = self.emit(Opcode::CompositeExtract, Some(ty), &w)?;
                    Some(Val { v: r, ty })
                } else {
                    let k = self.value(idx)?;
                    Some(self.emit_val(Opcode::VectorExtractDynamic, ty, &[v.v, k.v])?)
                }
            }
            O::LLVMInsertElement => {
                let v = self.value(read::operand(i, 0))?;
                let e = self.value(read::operand(i, 1))?;
                let idx = read::operand(i, 2);
                if let Some(k) = read::const_int(idx) {
                    let w = [e.v.to_id().0, v.v.to_id().0, k as u32];
                    let r = self.emit(Opcode::CompositeInsert, Some(v.ty), &w)?;
                    Some(Val { v: r, ty: v.ty })
                } else {
                    let k = self.value(idx)?;
                    Some(self.emit_val(Opcode::VectorInsertDynamic, v.ty, &[v.v, e.v, k.v])?)
                }
            }
            O::LLVMShuffleVector => {
                let a = self.value(read::operand(i, 0))?;
                let b = self.value(read::operand(i, 1))?;
                let ty = self.ty(read::type_of(i))?;
                // SAFETY: `i` is a shufflevector; mask indexed below its length.
                let mask: Vec<u32> = unsafe {
                    (0..llc::LLVMGetNumMaskElements(i))
                        .map(|k| {
                            let m = llc::LLVMGetMaskValue(i, k);
                            if m < 0 {
                                u32::MAX
                            } else {
                                m as u32
                            }
                        })
                        .collect()
                };
                let mut w = vec![a.v.to_id().0, b.v.to_id().0];
                w.extend(mask);
                let r = self.emit(Opcode::VectorShuffle, Some(ty), &w)?;
                Some(Val { v: r, ty })
            }
            O::LLVMExtractValue | O::LLVMInsertValue => {
                // SAFETY: `i` is an extractvalue/insertvalue; indices as many as reported.
                let idx: Vec<u32> = unsafe {
                    let n = llc::LLVMGetNumIndices(i);
                    let p = llc::LLVMGetIndices(i);
                    std::slice::from_raw_parts(p, n as usize).to_vec()
                };
                let agg = self.value(read::operand(i, 0))?;
                if op == O::LLVMExtractValue {
                    let ty = self.ty(read::type_of(i))?;
                    let mut w = vec![agg.v.to_id().0];
                    w.extend(idx);
                    let r = self.emit(Opcode::CompositeExtract, Some(ty), &w)?;
                    Some(Val { v: r, ty })
                } else {
                    let e = self.value(read::operand(i, 1))?;
                    let mut w = vec![e.v.to_id().0, agg.v.to_id().0];
                    w.extend(idx);
                    let r = self.emit(Opcode::CompositeInsert, Some(agg.ty), &w)?;
                    Some(Val { v: r, ty: agg.ty })
                }
            }
            O::LLVMCall => self.call(i)?,
            O::LLVMFreeze => Some(self.value(read::operand(i, 0))?),
            O::LLVMAtomicRMW => {
                // SAFETY: `i` is an atomicrmw.
                let (bop, ordering) =
                    unsafe { (llc::LLVMGetAtomicRMWBinOp(i), llc::LLVMGetOrdering(i)) };
                let p = self.value(read::operand(i, 0))?;
                let v = self.value(read::operand(i, 1))?;
                let p = self.ptr_to(p, v.ty)?;
                let float_op = match bop {
                    RMW::LLVMAtomicRMWBinOpFAdd => Some("add"),
                    RMW::LLVMAtomicRMWBinOpFSub => Some("sub"),
                    RMW::LLVMAtomicRMWBinOpFMin => Some("min"),
                    RMW::LLVMAtomicRMWBinOpFMax => Some("max"),
                    _ => None,
                };
                if let Some(f) = float_op {
                    let sem = self.cu32(semantics(ordering));
                    return Ok(Some(self.float_atomic(f, p, v, sem)?));
                }
                let code = match bop {
                    RMW::LLVMAtomicRMWBinOpXchg => Opcode::AtomicExchange,
                    RMW::LLVMAtomicRMWBinOpAdd => Opcode::AtomicIAdd,
                    RMW::LLVMAtomicRMWBinOpSub => Opcode::AtomicISub,
                    RMW::LLVMAtomicRMWBinOpAnd => Opcode::AtomicAnd,
                    RMW::LLVMAtomicRMWBinOpOr => Opcode::AtomicOr,
                    RMW::LLVMAtomicRMWBinOpXor => Opcode::AtomicXor,
                    RMW::LLVMAtomicRMWBinOpMax => Opcode::AtomicSMax,
                    RMW::LLVMAtomicRMWBinOpMin => Opcode::AtomicSMin,
                    RMW::LLVMAtomicRMWBinOpUMax => Opcode::AtomicUMax,
                    RMW::LLVMAtomicRMWBinOpUMin => Opcode::AtomicUMin,
                    _ => return err("this atomicrmw operation has no SPIR-V form"),
                };
                let scope = self.cu32(Scope::Device as u32);
                let sem = self.cu32(semantics(ordering));
                Some(self.emit_val(code, v.ty, &[p.v, scope, sem, v.v])?)
            }
            O::LLVMAtomicCmpXchg => {
                // SAFETY: `i` is a cmpxchg.
                let (ok, fail) = unsafe {
                    (
                        llc::LLVMGetCmpXchgSuccessOrdering(i),
                        llc::LLVMGetCmpXchgFailureOrdering(i),
                    )
                };
                let p = self.value(read::operand(i, 0))?;
                let cmp = self.value(read::operand(i, 1))?;
                let new = self.value(read::operand(i, 2))?;
                let p = self.ptr_to(p, cmp.ty)?;
                let scope = self.cu32(Scope::Device as u32);
                let eq = self.cu32(semantics(ok));
                let neq = self.cu32(
                    semantics(fail)
                        & !(MemorySemantics::Release | MemorySemantics::AcquireRelease).0,
                );
                let old = self.emit_val(
                    Opcode::AtomicCompareExchange,
                    cmp.ty,
                    &[p.v, scope, eq, neq, new.v, cmp.v],
                )?;
                let bool_t = self.f.type_bool();
                let same = self.emit_val(Opcode::IEqual, bool_t, &[old.v, cmp.v])?;
                let ty = self.ty(read::type_of(i))?;
                Some(self.emit_val(Opcode::CompositeConstruct, ty, &[old.v, same.v])?)
            }
            O::LLVMFence => {
                // SAFETY: `i` is a fence.
                let ordering = unsafe { llc::LLVMGetOrdering(i) };
                let scope = self.cu32(Scope::Device as u32);
                let sem = self.cu32(
                    semantics(ordering)
                        | (MemorySemantics::WorkgroupMemory
                            | MemorySemantics::CrossWorkgroupMemory)
                            .0,
                );
                let w = [scope.to_id().0, sem.to_id().0];
                self.emit(Opcode::MemoryBarrier, None, &w)?;
                None
            }
            _ => return err("this LLVM instruction has no SPIR-V form"),
        };
        Ok(result)
    }

    fn cast(&mut self, i: LLVMValueRef, op: O) -> Result<Val> {
        let x = self.value(read::operand(i, 0))?;
        let ty = self.ty(read::type_of(i))?;
        let src_bool = self.is_bool(x.ty);
        let dst_bool = self.is_bool(ty);
        let r = reverse();
        let table = |name: &str| -> Result<Opcode> {
            match r
                .core
                .get(&(PatternKind::Cast, name))
                .and_then(|o| o.first())
            {
                Some(o) => Ok(*o),
                None => err("this cast has no SPIR-V form"),
            }
        };
        match op {
            O::LLVMTrunc if dst_bool => {
                let one = self.const_int_of(x.ty, 1)?;
                let zero = self.const_int_of(x.ty, 0)?;
                let a = self.emit_val(Opcode::BitwiseAnd, x.ty, &[x.v, one])?;
                self.emit_val(Opcode::INotEqual, ty, &[a.v, zero])
            }
            O::LLVMZExt | O::LLVMSExt | O::LLVMUIToFP | O::LLVMSIToFP if src_bool => {
                let one = if op == O::LLVMSExt { u64::MAX } else { 1 };
                self.bool_to_int(x.v, ty, one)
            }
            O::LLVMTrunc | O::LLVMZExt => self.emit_val(Opcode::UConvert, ty, &[x.v]),
            O::LLVMSExt => self.emit_val(Opcode::SConvert, ty, &[x.v]),
            O::LLVMFPTrunc | O::LLVMFPExt => self.emit_val(Opcode::FConvert, ty, &[x.v]),
            // The conversions are hand-written in the table (they honour decorations), so
            // they are named here like the integer and float resizes above.
            O::LLVMFPToUI => self.emit_val(Opcode::ConvertFToU, ty, &[x.v]),
            O::LLVMFPToSI => self.emit_val(Opcode::ConvertFToS, ty, &[x.v]),
            O::LLVMUIToFP => self.emit_val(Opcode::ConvertUToF, ty, &[x.v]),
            O::LLVMSIToFP => self.emit_val(Opcode::ConvertSToF, ty, &[x.v]),
            O::LLVMPtrToInt => self.emit_val(table("ptrtoint")?, ty, &[x.v]),
            O::LLVMIntToPtr => self.emit_val(table("inttoptr")?, ty, &[x.v]),
            O::LLVMBitCast => {
                if x.ty == ty || self.ptr_parts(x.ty).is_some() {
                    Ok(x)
                } else {
                    self.emit_val(Opcode::Bitcast, ty, &[x.v])
                }
            }
            _ => {
                // addrspacecast
                let Some((sc, pointee)) = self.ptr_parts(x.ty) else {
                    return err("an address-space cast of a non-pointer");
                };
                let Some((dsc, _)) = self.ptr_parts(ty) else {
                    return err("an address-space cast to a non-pointer");
                };
                let rt = self.f.type_pointer(dsc, pointee);
                if sc == dsc {
                    Ok(x)
                } else if dsc == StorageClass::Generic && sc == StorageClass::Input {
                    self.input_to_generic(x, rt)
                } else if dsc == StorageClass::Generic {
                    self.emit_val(Opcode::PtrCastToGeneric, rt, &[x.v])
                } else if sc == StorageClass::Generic {
                    self.emit_val(Opcode::GenericCastToPtr, rt, &[x.v])
                } else {
                    err("an address-space cast between these storage classes has no SPIR-V form")
                }
            }
        }
    }

    fn gep(&mut self, i: LLVMValueRef) -> Result<Val> {
        // SAFETY: `i` is a GEP (instruction or constant expression).
        let src_t = unsafe { llc::LLVMGetGEPSourceElementType(i) };
        let base = self.value(read::operand(i, 0))?;
        let src = self.ty(src_t)?;
        let base = self.ptr_to(base, src)?;
        let Some((sc, _)) = self.ptr_parts(base.ty) else {
            return err("a GEP of a non-pointer");
        };
        let mut cur = src;
        let mut idx = Vec::new();
        let n = read::num_operands(i);
        for k in 1..n {
            let o = read::operand(i, k);
            if k > 1 {
                let t = self.f.module().types.get(cur).cloned();
                match t {
                    Some(Type::Struct(s)) => {
                        let Some(m) = read::const_int(o) else {
                            return err("a struct index is not a constant");
                        };
                        let Some(mem) = s.members.get(m as usize) else {
                            return err("a struct index is out of range");
                        };
                        cur = mem.ty;
                        idx.push(self.cu32(m as u32));
                        continue;
                    }
                    Some(Type::Array { element, .. }) => cur = element,
                    Some(Type::Vector { component, .. }) => cur = component,
                    _ => return err("a GEP index into a non-aggregate"),
                }
            }
            idx.push(self.value(o)?.v);
        }
        let rt = self.f.type_pointer(sc, cur);
        let mut ops = vec![base.v];
        ops.extend(idx);
        // SAFETY: `i` is a GEP.
        let op = if unsafe { llc::LLVMIsInBounds(i) } != 0 {
            Opcode::InBoundsPtrAccessChain
        } else {
            Opcode::PtrAccessChain
        };
        self.emit_val(op, rt, &ops)
    }
}

fn memory_access(w: &mut Vec<u32>, volatile: bool, align: u32) {
    let mut mask = 0;
    if volatile {
        mask |= 1;
    }
    if align > 0 {
        mask |= 2;
    }
    if mask != 0 {
        w.push(mask);
        if align > 0 {
            w.push(align);
        }
    }
}

impl Fx<'_, '_> {
    /// A float atomic `add`, `sub`, `min` or `max` (`atomicrmw fadd`..., OpenCL C's
    /// `atomic_fetch_add` on `atomic_float`...) → `OpAtomicFAddEXT` (`sub` adds the negated
    /// value), `OpAtomicFMinEXT`, `OpAtomicFMaxEXT`, scope Device.
    pub fn float_atomic(&mut self, op: &str, p: Val, v: Val, sem: Value) -> Result<Val> {
        let (code, add) = match op {
            "add" | "sub" => (Opcode::AtomicFAddEXT, true),
            "min" => (Opcode::AtomicFMinEXT, false),
            "max" => (Opcode::AtomicFMaxEXT, false),
            _ => return err(format!("no float atomic {op}")),
        };
        self.float_atomic_requirements(add, v.ty)?;
        let v = if op == "sub" {
            self.emit_val(Opcode::FNegate, v.ty, &[v.v])?
        } else {
            v
        };
        let scope = self.cu32(Scope::Device as u32);
        self.emit_val(code, v.ty, &[p.v, scope, sem, v.v])
    }

    /// Declares the extension and capability of a float atomic add (`add`) or min/max of
    /// type `t`: the grammar offers one per width, and the minimal set keeps declared ones.
    pub fn float_atomic_requirements(&mut self, add: bool, t: Handle<Type>) -> Result<()> {
        use crate::grammar::Capability as C;
        let width = match self.f.module().types.get(t) {
            Some(Type::Float { width }) => *width,
            _ => return err("a float atomic of a value that is not a scalar float"),
        };
        let (ext, cap) = match (add, width) {
            (true, 16) => ("SPV_EXT_shader_atomic_float16_add", C::AtomicFloat16AddEXT),
            (true, 32) => ("SPV_EXT_shader_atomic_float_add", C::AtomicFloat32AddEXT),
            (true, _) => ("SPV_EXT_shader_atomic_float_add", C::AtomicFloat64AddEXT),
            (false, 16) => (
                "SPV_EXT_shader_atomic_float_min_max",
                C::AtomicFloat16MinMaxEXT,
            ),
            (false, 32) => (
                "SPV_EXT_shader_atomic_float_min_max",
                C::AtomicFloat32MinMaxEXT,
            ),
            (false, _) => (
                "SPV_EXT_shader_atomic_float_min_max",
                C::AtomicFloat64MinMaxEXT,
            ),
        };
        self.f.extension(ext);
        self.f.capability(cap);
        Ok(())
    }
}
