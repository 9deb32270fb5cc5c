//! OpenCL C builtins as clang-15 emits them (Itanium-mangled calls): work-item functions →
//! builtin variables, barriers and fences (`get_fence` too), 1.x and 2.0 atomics, `convert_*` with `_sat` and
//! rounding, `vloadN`/`vstoreN`/half loads and stores, async copies, subgroup functions, and the
//! math, integer and common functions of OpenCL.std.

use super::error::{err, Result};
use super::function::Fx;
use super::mangle::{Demangled, MType};
use super::module::Val;
use super::read;
use crate::grammar::{
    BuiltIn, Decoration, FPRoundingMode, MemorySemantics, Opcode, Scope, StorageClass,
};
use crate::ir::{Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;

const SCOPE_WORKGROUP: u32 = Scope::Workgroup as u32;
const SCOPE_DEVICE: u32 = Scope::Device as u32;
const SCOPE_SUBGROUP: u32 = Scope::Subgroup as u32;
const ACQUIRE: u32 = MemorySemantics::Acquire.0;
const RELEASE: u32 = MemorySemantics::Release.0;
const ACQ_REL: u32 = MemorySemantics::AcquireRelease.0;
const SEQ_CST: u32 = MemorySemantics::SequentiallyConsistent.0;

/// Memory semantics of `cl_mem_fence_flags`.
fn fence_semantics(flags: u64) -> u32 {
    let mut s = 0;
    if flags & 1 != 0 {
        s |= MemorySemantics::WorkgroupMemory.0;
    }
    if flags & 2 != 0 {
        s |= MemorySemantics::CrossWorkgroupMemory.0;
    }
    if flags & 4 != 0 {
        s |= MemorySemantics::ImageMemory.0;
    }
    s
}

fn work_item(name: &str) -> Option<BuiltIn> {
    Some(match name {
        "get_global_id" => BuiltIn::GlobalInvocationId,
        "get_local_id" => BuiltIn::LocalInvocationId,
        "get_group_id" => BuiltIn::WorkgroupId,
        "get_global_size" => BuiltIn::GlobalSize,
        "get_local_size" => BuiltIn::WorkgroupSize,
        "get_enqueued_local_size" => BuiltIn::EnqueuedWorkgroupSize,
        "get_num_groups" => BuiltIn::NumWorkgroups,
        "get_global_offset" => BuiltIn::GlobalOffset,
        "get_work_dim" => BuiltIn::WorkDim,
        "get_global_linear_id" => BuiltIn::GlobalLinearId,
        "get_local_linear_id" => BuiltIn::LocalInvocationIndex,
        "get_sub_group_size" => BuiltIn::SubgroupSize,
        "get_max_sub_group_size" => BuiltIn::SubgroupMaxSize,
        "get_num_sub_groups" => BuiltIn::NumSubgroups,
        "get_enqueued_num_sub_groups" => BuiltIn::NumEnqueuedSubgroups,
        "get_sub_group_id" => BuiltIn::SubgroupId,
        "get_sub_group_local_id" => BuiltIn::SubgroupLocalInvocationId,
        _ => return None,
    })
}

/// Signed and unsigned spellings of OpenCL.std integer functions.
const INTEGER_FNS: &[&str] = &[
    "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "mad_hi", "mad_sat", "max", "min",
    "mul_hi", "sub_sat", "upsample", "mad24", "mul24",
];

/// Float functions whose OpenCL C name differs from OpenCL.std's.
fn float_name(name: &str) -> &str {
    match name {
        "max" => "fmax_common",
        "min" => "fmin_common",
        "clamp" => "fclamp",
        other => other,
    }
}

impl Fx<'_, '_> {
    /// An OpenCL C builtin; `Ok(None)` when `d` is not one this module knows.
    pub fn opencl_builtin(
        &mut self,
        d: &Demangled,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        let name = d.name.as_str();
        if let Some(bi) = work_item(name) {
            let index = match args.first() {
                Some(&a) => Some(self.value(a)?.v),
                None => None,
            };
            return Ok(Some(Some(self.builtin_value(bi, index, ret)?)));
        }
        match name {
            "barrier" | "work_group_barrier" | "sub_group_barrier" => {
                let flags = args.first().and_then(|&a| read::const_int(a));
                let Some(flags) = flags else {
                    return err("barrier flags that are not constant have no SPIR-V form");
                };
                let exec = if name == "sub_group_barrier" {
                    SCOPE_SUBGROUP
                } else {
                    SCOPE_WORKGROUP
                };
                let mem = match args.get(1).and_then(|&a| read::const_int(a)) {
                    Some(s) => memory_scope(s),
                    None => exec,
                };
                let e = self.cu32(exec);
                let m = self.cu32(mem);
                let s = self.cu32(fence_semantics(flags) | SEQ_CST);
                let w = [e.to_id().0, m.to_id().0, s.to_id().0];
                self.emit(Opcode::ControlBarrier, None, &w)?;
                return Ok(Some(None));
            }
            // llvm-spirv's form: the memory semantics of the pointer's storage class, shifted
            // down to `cl_mem_fence_flags` (WorkgroupMemory → CLK_LOCAL_MEM_FENCE ...).
            "get_fence" => {
                let ([p], Some(ret)) = (args, ret) else {
                    return err("get_fence takes one pointer and returns cl_mem_fence_flags");
                };
                let p = self.value(*p)?;
                if !matches!(self.ptr_parts(p.ty), Some((StorageClass::Generic, _))) {
                    return err("get_fence of a pointer that is not in the generic address space");
                }
                let sem = self.emit_val(Opcode::GenericPtrMemSemantics, ret, &[p.v])?;
                let shift = self.cu32(MemorySemantics::WorkgroupMemory.0.trailing_zeros());
                let flags = self.emit_val(Opcode::ShiftRightLogical, ret, &[sem.v, shift])?;
                return Ok(Some(Some(flags)));
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" | "atomic_work_item_fence" => {
                let Some(flags) = args.first().and_then(|&a| read::const_int(a)) else {
                    return err("fence flags that are not constant have no SPIR-V form");
                };
                let order = match name {
                    "read_mem_fence" => ACQUIRE,
                    "write_mem_fence" => RELEASE,
                    _ => ACQ_REL,
                };
                let m = self.cu32(SCOPE_WORKGROUP);
                let s = self.cu32(fence_semantics(flags) | order);
                let w = [m.to_id().0, s.to_id().0];
                self.emit(Opcode::MemoryBarrier, None, &w)?;
                return Ok(Some(None));
            }
            _ => {}
        }
        if let Some(r) = self.image_builtin(d, ret, args)? {
            return Ok(Some(r));
        }
        if let Some(r) = self.atomic(d, ret, args)? {
            return Ok(Some(r));
        }
        if let Some(rest) = name.strip_prefix("convert_") {
            return self.convert(d, rest, ret, args).map(|v| Some(Some(v)));
        }
        if let Some(n) = name.strip_prefix("vload") {
            return self.vload(n, ret, args).map(|v| Some(Some(v)));
        }
        if let Some(n) = name.strip_prefix("vstore") {
            self.vstore(n, d, args)?;
            return Ok(Some(None));
        }
        match name {
            "async_work_group_copy" | "async_work_group_strided_copy" => {
                let Some(ev_t) = ret else {
                    return err("async_work_group_copy without a result");
                };
                let _ = ev_t;
                let ev = self.f.ty(Type::Event);
                let dst = self.value(args[0])?;
                let src = self.value(args[1])?;
                let elem = match d.params.first() {
                    Some(MType::Pointer(_, inner)) => self.mtype(inner)?,
                    _ => return err("async_work_group_copy of an unknown element type"),
                };
                let dst = self.ptr_to(dst, elem)?;
                let src = self.ptr_to(src, elem)?;
                let n = self.value(args[2])?;
                let stride = if name == "async_work_group_strided_copy" {
                    self.value(args[3])?.v
                } else {
                    self.const_int_of(n.ty, 1)?
                };
                let event = self.value(args[args.len() - 1])?;
                let event = if self.ptr_parts(event.ty).is_some() {
                    Value::Constant(self.f.constant_null(ev))
                } else {
                    event.v
                };
                let scope = self.cu32(SCOPE_WORKGROUP);
                let v = self.emit_val(
                    Opcode::GroupAsyncCopy,
                    ev,
                    &[scope, dst.v, src.v, n.v, stride, event],
                )?;
                return Ok(Some(Some(v)));
            }
            "wait_group_events" => {
                let n = self.value(args[0])?;
                let p = self.value(args[1])?;
                let ev = self.f.ty(Type::Event);
                let p = self.ptr_to(p, ev)?;
                let scope = self.cu32(SCOPE_WORKGROUP);
                let w = [scope.to_id().0, n.v.to_id().0, p.v.to_id().0];
                self.emit(Opcode::GroupWaitEvents, None, &w)?;
                return Ok(Some(None));
            }
            "prefetch" => return Ok(Some(None)),
            _ => {}
        }
        if let Some(r) = self.group_function(name, d, ret, args)? {
            return Ok(Some(r));
        }
        // OpenCL.std math, integer and common functions.
        let signed = d.params.first().is_some_and(MType::is_signed);
        let unsigned = d.params.first().is_some_and(MType::is_unsigned);
        let is_int = signed || unsigned;
        let ext_name = if is_int && INTEGER_FNS.contains(&name) {
            format!("{}_{}", if signed { "s" } else { "u" }, name)
        } else if is_int && matches!(name, "popcount" | "clz" | "ctz" | "rotate") {
            name.to_owned()
        } else {
            float_name(name).to_owned()
        };
        let known = crate::grammar::tables::EXT_INST_SETS
            .iter()
            .find(|s| s.name == "OpenCL.std")
            .and_then(|s| s.instruction_by_name(&ext_name))
            .is_some();
        if known {
            let v = self.ocl_call(&ext_name, ret, args, None)?;
            return Ok(Some(if ret.is_some() { Some(v) } else { None }));
        }
        match name {
            "dot" => {
                let (Some(ty), Some(&a), Some(&b)) = (ret, args.first(), args.get(1)) else {
                    return err("dot without two operands");
                };
                let a = self.value(a)?;
                let b = self.value(b)?;
                let v = if self.width_of(a.ty) == 1 {
                    self.emit_val(Opcode::FMul, ty, &[a.v, b.v])?
                } else {
                    self.emit_val(Opcode::Dot, ty, &[a.v, b.v])?
                };
                Ok(Some(Some(v)))
            }
            "any" | "all" => {
                let Some(ty) = ret else {
                    return err("any/all without a result");
                };
                let a = self.value(args[0])?;
                let w = self.width_of(a.ty);
                let bool_t = self.f.type_bool();
                let bt = if w > 1 {
                    self.f.type_vector(bool_t, w)
                } else {
                    bool_t
                };
                let zero = self.const_int_of(a.ty, 0)?;
                let neg = self.emit_val(Opcode::SLessThan, bt, &[a.v, zero])?;
                let r = if w > 1 {
                    let op = if name == "any" {
                        Opcode::Any
                    } else {
                        Opcode::All
                    };
                    self.emit_val(op, bool_t, &[neg.v])?
                } else {
                    neg
                };
                Ok(Some(Some(self.bool_to_int(r.v, ty, 1)?)))
            }
            "isnan" | "isinf" | "isfinite" | "isnormal" | "signbit" | "isequal" | "isnotequal"
            | "isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater"
            | "isordered" | "isunordered" => {
                let Some(ty) = ret else {
                    return err("a relational function without a result");
                };
                // OpenCL C's relational functions: ordered comparisons except `isnotequal`
                // (true when either is NaN), as llvm-spirv maps them.
                let op = match name {
                    "isnan" => Opcode::IsNan,
                    "isinf" => Opcode::IsInf,
                    "isfinite" => Opcode::IsFinite,
                    "isnormal" => Opcode::IsNormal,
                    "signbit" => Opcode::SignBitSet,
                    "isequal" => Opcode::FOrdEqual,
                    "isnotequal" => Opcode::FUnordNotEqual,
                    "isgreater" => Opcode::FOrdGreaterThan,
                    "isgreaterequal" => Opcode::FOrdGreaterThanEqual,
                    "isless" => Opcode::FOrdLessThan,
                    "islessequal" => Opcode::FOrdLessThanEqual,
                    "islessgreater" => Opcode::FOrdNotEqual,
                    "isordered" => Opcode::Ordered,
                    _ => Opcode::Unordered,
                };
                let mut operands = Vec::new();
                for &x in args {
                    operands.push(self.value(x)?.v);
                }
                let a = self.value(args[0])?;
                let w = self.width_of(a.ty);
                let bool_t = self.f.type_bool();
                let bt = if w > 1 {
                    self.f.type_vector(bool_t, w)
                } else {
                    bool_t
                };
                let c = self.emit_val(op, bt, &operands)?;
                Ok(Some(Some(self.bool_to_int(
                    c.v,
                    ty,
                    if w > 1 { u64::MAX } else { 1 },
                )?)))
            }
            _ => Ok(None),
        }
    }

    /// The SPIR-V type of a mangled parameter type (scalars and vectors).
    pub fn mtype(&mut self, t: &MType) -> Result<Handle<Type>> {
        Ok(match t {
            MType::Scalar(s) => match *s {
                "c" | "a" | "h" => self.f.type_int(8, false),
                "s" | "t" => self.f.type_int(16, false),
                "i" | "j" => self.f.type_int(32, false),
                "l" | "m" | "x" | "y" => self.f.type_int(64, false),
                "f" => self.f.type_float(32),
                "d" => self.f.type_float(64),
                "Dh" | "DF16_" => self.f.type_float(16),
                "b" => self.f.type_bool(),
                _ => return err(format!("mangled type {s} has no SPIR-V form")),
            },
            MType::Vector(n, e) => {
                let e = self.mtype(e)?;
                self.f.type_vector(e, *n)
            }
            MType::Named(n) if n == "ocl_event" => self.f.ty(Type::Event),
            _ => return err("this mangled parameter type has no SPIR-V form"),
        })
    }

    fn convert(
        &mut self,
        d: &Demangled,
        rest: &str,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let Some(ty) = ret else {
            return err("a conversion without a result");
        };
        let mut parts = rest.split('_');
        let dst = parts.next().unwrap_or("");
        let (sat, rounding) = super::builtins::conversion_postfixes(parts);
        let x = self.value(args[0])?;
        let src_m = d.params.first().cloned().unwrap_or(MType::Scalar("i"));
        let src_float = !src_m.is_signed() && !src_m.is_unsigned();
        let dst_float =
            dst.starts_with("float") || dst.starts_with("double") || dst.starts_with("half");
        let dst_unsigned = dst.starts_with('u');
        let src_signed = src_m.is_signed();
        let op = match (src_float, dst_float) {
            (true, true) => Opcode::FConvert,
            (true, false) => {
                if dst_unsigned {
                    Opcode::ConvertFToU
                } else {
                    Opcode::ConvertFToS
                }
            }
            (false, true) => {
                if src_signed {
                    Opcode::ConvertSToF
                } else {
                    Opcode::ConvertUToF
                }
            }
            (false, false) => {
                if sat && src_signed && dst_unsigned {
                    Opcode::SatConvertSToU
                } else if sat && !src_signed && !dst_unsigned {
                    Opcode::SatConvertUToS
                } else if src_signed {
                    Opcode::SConvert
                } else {
                    Opcode::UConvert
                }
            }
        };
        if x.ty == ty
            && op != Opcode::ConvertFToS
            && op != Opcode::ConvertFToU
            && (!sat || matches!(op, Opcode::FConvert | Opcode::SConvert | Opcode::UConvert))
        {
            return Ok(x);
        }
        let v = self.emit_val(op, ty, &[x.v])?;
        let sat_needed =
            sat && !matches!(op, Opcode::SatConvertSToU | Opcode::SatConvertUToS) && !dst_float;
        if sat_needed {
            self.f.decorate(v.v, Decoration::SaturatedConversion);
        }
        if let Some(r) = rounding {
            if !(src_float && !dst_float && r == FPRoundingMode::RTZ) {
                self.f.decorate(v.v, Decoration::FPRoundingMode(r));
            }
        }
        Ok(v)
    }

    fn vload(&mut self, n: &str, ret: Option<Handle<Type>>, args: &[LLVMValueRef]) -> Result<Val> {
        let (name, width) = if let Some(h) = n.strip_prefix("a_half") {
            ("vloada_halfn", h.parse().unwrap_or(1))
        } else if let Some(h) = n.strip_prefix("_half") {
            if h.is_empty() {
                ("vload_half", 0)
            } else {
                ("vload_halfn", h.parse().unwrap_or(1))
            }
        } else {
            ("vloadn", n.parse().unwrap_or(1))
        };
        let extra = if width > 0 { Some(width) } else { None };
        self.ocl_call(name, ret, args, extra)
    }

    fn vstore(&mut self, n: &str, d: &Demangled, args: &[LLVMValueRef]) -> Result<()> {
        let (base, rounding) = match n.rsplit_once('_') {
            Some((b, r)) if r.starts_with("rt") => (b, Some(r)),
            _ => (n, None),
        };
        let mode = rounding.map(|r| match r {
            "rtz" => 1,
            "rtp" => 2,
            "rtn" => 3,
            _ => 0,
        });
        let name = if base.starts_with("a_half") {
            if mode.is_some() {
                "vstorea_halfn_r"
            } else {
                "vstorea_halfn"
            }
        } else if base == "_half" {
            if mode.is_some() {
                "vstore_half_r"
            } else {
                "vstore_half"
            }
        } else if base.starts_with("_half") {
            if mode.is_some() {
                "vstore_halfn_r"
            } else {
                "vstore_halfn"
            }
        } else {
            "vstoren"
        };
        let _ = d;
        self.ocl_call(name, None, args, mode)?;
        Ok(())
    }

    fn atomic(
        &mut self,
        d: &Demangled,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        let name = d.name.as_str();
        let base = name
            .strip_prefix("atomic_")
            .or_else(|| name.strip_prefix("atom_"));
        let Some(base) = base else {
            return Ok(None);
        };
        let explicit = base.ends_with("_explicit");
        let base = base.trim_end_matches("_explicit");
        if let Some(flag_op) = base.strip_prefix("flag_") {
            return self.atomic_flag(flag_op, explicit, ret, args);
        }
        let base = base.strip_prefix("fetch_").unwrap_or(base);
        // The operands each form takes before its `_explicit` orders and scope. A declaration
        // with fewer is not OpenCL's function (a user's own `atomic_cmpxchg(p, x)`): an error,
        // not a guess at the missing operands.
        let operands = match base {
            "inc" | "dec" | "load" => 1,
            "add" | "sub" | "xchg" | "exchange" | "and" | "or" | "xor" | "min" | "max"
            | "store" | "init" => 2,
            "cmpxchg" | "compare_exchange_strong" | "compare_exchange_weak" => 3,
            _ => 0,
        };
        if args.len() < operands {
            return err(format!(
                "{name} takes {operands} arguments, this call passes {}; OpenCL's function is \
                 not declared this way",
                args.len()
            ));
        }
        let signed = d
            .params
            .get(1)
            .or(d.params.first())
            .is_some_and(|t| match t {
                MType::Pointer(_, inner) => inner.is_signed(),
                t => t.is_signed(),
            });
        let Some(&object) = args.first() else {
            return err(format!("{name} without arguments"));
        };
        let p = self.value(object)?;
        let elem_t = match ret {
            Some(t) => t,
            None => match args.get(1) {
                Some(&a) => self.value(a)?.ty,
                None => return err("an atomic of an unknown type"),
            },
        };
        let p = self.ptr_to(p, elem_t)?;
        let raw = name
            .strip_prefix("atomic_")
            .or_else(|| name.strip_prefix("atom_"))
            .unwrap_or("");
        let v1 = name.starts_with("atom_")
            || matches!(
                raw,
                "add"
                    | "sub"
                    | "xchg"
                    | "inc"
                    | "dec"
                    | "cmpxchg"
                    | "min"
                    | "max"
                    | "and"
                    | "or"
                    | "xor"
            );
        let order = |fx: &mut Self, idx: usize| -> Value {
            let s = if explicit {
                args.get(idx)
                    .and_then(|&a| read::const_int(a))
                    .map(memory_order)
                    .unwrap_or(SEQ_CST)
            } else if v1 {
                0
            } else {
                SEQ_CST
            };
            fx.cu32(s)
        };
        // The `_explicit` forms end in (order[, failure order], scope): the scope, when given,
        // follows the last order.
        let scope_index = match base {
            "compare_exchange_strong" | "compare_exchange_weak" => 5,
            "load" | "inc" | "dec" => 2,
            _ => 3,
        };
        let scope = explicit_scope(self, explicit, args, scope_index);
        let simple = |op: &str| -> Option<Opcode> {
            Some(match op {
                "add" => Opcode::AtomicIAdd,
                "sub" => Opcode::AtomicISub,
                "xchg" | "exchange" => Opcode::AtomicExchange,
                "and" => Opcode::AtomicAnd,
                "or" => Opcode::AtomicOr,
                "xor" => Opcode::AtomicXor,
                "min" if signed => Opcode::AtomicSMin,
                "min" => Opcode::AtomicUMin,
                "max" if signed => Opcode::AtomicSMax,
                "max" => Opcode::AtomicUMax,
                _ => return None,
            })
        };
        let is_float = matches!(self.f.module().types.get(elem_t), Some(Type::Float { .. }));
        if is_float && matches!(base, "add" | "sub" | "min" | "max") {
            let v = self.value(args[1])?;
            let sem = order(self, 2);
            return Ok(Some(Some(self.float_atomic(base, p, v, sem)?)));
        }
        if let Some(op) = simple(base) {
            let v = self.value(args[1])?;
            let sem = order(self, 2);
            return Ok(Some(Some(self.emit_val(
                op,
                elem_t,
                &[p.v, scope, sem, v.v],
            )?)));
        }
        match base {
            "inc" | "dec" => {
                let sem = order(self, 1);
                let op = if base == "inc" {
                    Opcode::AtomicIIncrement
                } else {
                    Opcode::AtomicIDecrement
                };
                Ok(Some(Some(self.emit_val(op, elem_t, &[p.v, scope, sem])?)))
            }
            "cmpxchg" => {
                let cmp = self.value(args[1])?;
                let new = self.value(args[2])?;
                let sem = self.cu32(0);
                Ok(Some(Some(self.emit_val(
                    Opcode::AtomicCompareExchange,
                    elem_t,
                    &[p.v, scope, sem, sem, new.v, cmp.v],
                )?)))
            }
            "load" => {
                let sem = order(self, 1);
                Ok(Some(Some(self.emit_val(
                    Opcode::AtomicLoad,
                    elem_t,
                    &[p.v, scope, sem],
                )?)))
            }
            "store" | "init" => {
                let v = self.value(args[1])?;
                let sem = if base == "init" {
                    self.cu32(0)
                } else {
                    order(self, 2)
                };
                let w: Vec<u32> = [p.v, scope, sem, v.v].iter().map(|x| x.to_id().0).collect();
                self.emit(Opcode::AtomicStore, None, &w)?;
                Ok(Some(None))
            }
            "compare_exchange_strong" | "compare_exchange_weak" => {
                // (object, expected*, desired[, success, failure[, scope]]) → bool
                let exp_p = self.value(args[1])?;
                let want = elem_t_of(self, args)?;
                let exp_p = self.ptr_to(exp_p, want)?;
                let mut et = self.ptr_parts(exp_p.ty).map(|(_, t)| t).unwrap_or(elem_t);
                let mut desired = self.value(args[2])?;
                let mut exp_p = exp_p;
                // Floats are exchanged as the integers of their bits (OpAtomicCompareExchange
                // takes integers; C11 compares object representations), as the translator does.
                if let Some(Type::Float { width }) = self.f.module().types.get(et).cloned() {
                    let it = self.f.type_int(width, false);
                    exp_p = self.ptr_to(exp_p, it)?;
                    desired = self.emit_val(Opcode::Bitcast, it, &[desired.v])?;
                    et = it;
                }
                let p = self.ptr_to(p, et)?;
                let expected = self.emit(Opcode::Load, Some(et), &[exp_p.v.to_id().0])?;
                let sem = order(self, 3);
                // The failure order (seq_cst, like the success order, without `_explicit`).
                let neq = order(self, 4);
                let old = self.emit_val(
                    Opcode::AtomicCompareExchange,
                    et,
                    &[p.v, scope, sem, neq, desired.v, expected],
                )?;
                let bool_t = self.f.type_bool();
                let ok = self.emit_val(Opcode::IEqual, bool_t, &[old.v, expected])?;
                self.emit(Opcode::Store, None, &[exp_p.v.to_id().0, old.v.to_id().0])?;
                let Some(rt) = ret else {
                    return Ok(Some(None));
                };
                Ok(Some(Some(self.bool_to_int(ok.v, rt, 1)?)))
            }
            _ => Ok(None),
        }
    }

    fn group_function(
        &mut self,
        name: &str,
        d: &Demangled,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        let (scope, rest) = if let Some(r) = name.strip_prefix("sub_group_") {
            (SCOPE_SUBGROUP, r)
        } else if let Some(r) = name.strip_prefix("work_group_") {
            (SCOPE_WORKGROUP, r)
        } else {
            return Ok(None);
        };
        let Some(ty) = ret else {
            return Ok(None);
        };
        let sc = self.cu32(scope);
        let signed = d.params.first().is_some_and(MType::is_signed);
        let is_float = d
            .params
            .first()
            .is_some_and(|t| !t.is_signed() && !t.is_unsigned());
        match rest {
            "broadcast" => {
                let v = self.value(args[0])?;
                let mut ids = Vec::new();
                for &a in &args[1..] {
                    ids.push(self.value(a)?);
                }
                let id = if ids.len() == 1 {
                    ids[0].v
                } else {
                    let t = ids[0].ty;
                    let vt = self.f.type_vector(t, ids.len() as u32);
                    let parts: Vec<Value> = ids.iter().map(|x| x.v).collect();
                    self.emit_val(Opcode::CompositeConstruct, vt, &parts)?.v
                };
                Ok(Some(Some(self.emit_val(
                    Opcode::GroupBroadcast,
                    ty,
                    &[sc, v.v, id],
                )?)))
            }
            "all" | "any" => {
                let v = self.value(args[0])?;
                let bool_t = self.f.type_bool();
                let zero = self.const_int_of(v.ty, 0)?;
                let c = self.emit_val(Opcode::INotEqual, bool_t, &[v.v, zero])?;
                let op = if rest == "all" {
                    Opcode::GroupAll
                } else {
                    Opcode::GroupAny
                };
                let r = self.emit_val(op, bool_t, &[sc, c.v])?;
                Ok(Some(Some(self.bool_to_int(r.v, ty, 1)?)))
            }
            _ => {
                let (kind, op) = if let Some(o) = rest.strip_prefix("reduce_") {
                    (0, o)
                } else if let Some(o) = rest.strip_prefix("scan_inclusive_") {
                    (1, o)
                } else if let Some(o) = rest.strip_prefix("scan_exclusive_") {
                    (2, o)
                } else {
                    return Ok(None);
                };
                let code = match (op, is_float, signed) {
                    ("add", true, _) => Opcode::GroupFAdd,
                    ("add", false, _) => Opcode::GroupIAdd,
                    ("min", true, _) => Opcode::GroupFMin,
                    ("min", false, true) => Opcode::GroupSMin,
                    ("min", false, false) => Opcode::GroupUMin,
                    ("max", true, _) => Opcode::GroupFMax,
                    ("max", false, true) => Opcode::GroupSMax,
                    ("max", false, false) => Opcode::GroupUMax,
                    _ => return Ok(None),
                };
                let v = self.value(args[0])?;
                let w = [sc.to_id().0, kind, v.v.to_id().0];
                let r = self.emit(code, Some(ty), &w)?;
                Ok(Some(Some(Val { v: r, ty })))
            }
        }
    }
}

/// The scope of an atomic: the `memory_scope` argument at `index` of an `_explicit` form,
/// `memory_scope_device` otherwise (OpenCL C's default).
fn explicit_scope(
    fx: &mut Fx<'_, '_>,
    explicit: bool,
    args: &[LLVMValueRef],
    index: usize,
) -> Value {
    let s = match args.get(index).filter(|_| explicit) {
        Some(&a) => read::const_int(a).map_or(SCOPE_DEVICE, memory_scope),
        None => SCOPE_DEVICE,
    };
    fx.cu32(s)
}

impl Fx<'_, '_> {
    /// `atomic_flag_test_and_set[_explicit]` → OpAtomicFlagTestAndSet and
    /// `atomic_flag_clear[_explicit]` → OpAtomicFlagClear, on the flag's 32-bit integer.
    fn atomic_flag(
        &mut self,
        op: &str,
        explicit: bool,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        let Some(&flag) = args.first() else {
            return err("atomic_flag_* without a flag");
        };
        let p = self.value(flag)?;
        let i32_t = self.f.type_int(32, false);
        let p = self.ptr_to(p, i32_t)?;
        let order = match args.get(1).filter(|_| explicit) {
            Some(&a) => read::const_int(a).map_or(SEQ_CST, memory_order),
            None => SEQ_CST,
        };
        let sem = self.cu32(order);
        let scope = explicit_scope(self, explicit, args, 2);
        match op {
            "test_and_set" => {
                let bool_t = self.f.type_bool();
                let r = self.emit_val(Opcode::AtomicFlagTestAndSet, bool_t, &[p.v, scope, sem])?;
                match ret {
                    Some(t) if t != bool_t => Ok(Some(Some(self.bool_to_int(r.v, t, 1)?))),
                    _ => Ok(Some(Some(r))),
                }
            }
            "clear" => {
                let w = [p.v.to_id().0, scope.to_id().0, sem.to_id().0];
                self.emit(Opcode::AtomicFlagClear, None, &w)?;
                Ok(Some(None))
            }
            _ => Ok(None),
        }
    }
}

fn elem_t_of(fx: &mut Fx<'_, '_>, args: &[LLVMValueRef]) -> Result<Handle<Type>> {
    Ok(fx.value(args[2])?.ty)
}

/// Memory semantics of a `memory_order`.
fn memory_order(o: u64) -> u32 {
    match o {
        0 => 0,
        2 => ACQUIRE,
        3 => RELEASE,
        4 => ACQ_REL,
        _ => SEQ_CST,
    }
}

/// The SPIR-V scope of a `memory_scope`.
fn memory_scope(s: u64) -> u32 {
    match s {
        0 => Scope::Invocation as u32,
        1 => SCOPE_WORKGROUP,
        2 => SCOPE_DEVICE,
        3 => 0,
        4 => SCOPE_SUBGROUP,
        _ => SCOPE_WORKGROUP,
    }
}
