//! Calls: user functions (OpFunctionCall, imported declarations), LLVM intrinsics (the
//! pattern table backwards, `memcpy`, `memset`, and the ones with no effect), SPIR-V builtins
//! (`__spirv_<Op>` with `_R<Type>`, `_sat`, `_rt*` postfixes; `__spirv_ocl_<name>` →
//! OpenCL.std; `__spirv_BuiltIn<Name>` → builtin Input variables), and the OpenCL C builtins
//! of [`super::opencl`].

use super::error::{err, Result};
use super::function::Fx;
use super::mangle::{demangle, Demangled, MType};
use super::module::{FuncInfo, Val};
use super::read;
use crate::grammar::lowering::PatternKind;
use crate::grammar::tables::EXT_INST_SETS;
use crate::grammar::{
    BuiltIn, Decoration, FPRoundingMode, FunctionControl, KindClass, LinkageType, Opcode,
    StorageClass,
};
use crate::ir::{ConstantValue, Type, Value};
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMTypeKind as K, LLVMValueKind as VK};

/// An operand of an extended instruction: an id or a literal.
#[derive(Clone, Copy, Debug)]
pub enum ExtOperand {
    /// An id.
    Id(Value),
    /// A literal word.
    Lit(u32),
}

impl Fx<'_, '_> {
    /// Translates a call.
    pub fn call(&mut self, i: LLVMValueRef) -> Result<Option<Val>> {
        let n = read::num_operands(i);
        let callee = read::operand(i, n.saturating_sub(1));
        if read::value_kind(callee) != VK::LLVMFunctionValueKind {
            return err("an indirect call has no SPIR-V form");
        }
        let args: Vec<LLVMValueRef> = (0..n.saturating_sub(1))
            .map(|k| read::operand(i, k))
            .collect();
        let name = read::name(callee);
        if name.starts_with("llvm.ptr.annotation") {
            return self.ptr_annotation(&args);
        }
        let ret_t = read::type_of(i);
        let ret = if read::type_kind(ret_t) == K::LLVMVoidTypeKind {
            None
        } else {
            Some(self.ty(ret_t)?)
        };
        if let Some(rest) = name.strip_prefix("llvm.") {
            return self.intrinsic(rest, ret, &args);
        }
        if name == "printf" && read::is_declaration(callee) {
            return self.printf(ret, &args).map(Some);
        }
        if let Some(sc) = address_space_query(&name).filter(|_| read::is_declaration(callee)) {
            return self.address_space_cast(sc, &args).map(Some);
        }
        if super::enqueue::is_enqueue(&name) && read::is_declaration(callee) {
            return self.enqueue_kernel(&name, ret, &args).map(Some);
        }
        if let Some(v) = self.spirv_kernel_query(&name, ret, &args)? {
            return Ok(Some(v));
        }
        if name.starts_with("_Z21__spirv_EnqueueKernel") {
            // Its block-pointer parameter (`U13block_pointerFvvE`) is beyond the demangler.
            return self.spirv_enqueue_kernel(ret, &args).map(Some);
        }
        if super::pipes::is_pipe_builtin(&name) && read::is_declaration(callee) {
            return self.pipe_call(&name, ret, &args);
        }
        if name == "__translate_sampler_initializer" {
            return self.sampler_initializer(&args).map(Some);
        }
        if let Some(info) = self.st.funcs.get(&(callee as usize)).cloned() {
            return self.function_call(&info, ret, &args);
        }
        if let Some(d) = demangle(&name).filter(|d| !d.nested) {
            // An `sret` result (`ndrange_1D`) is a first argument the mangled name leaves out.
            let named = if returns_by_sret(i) {
                &args[1..]
            } else {
                &args[..]
            };
            // llvm-spirv-15's SPV-IR passes the 2-D and 3-D sizes of `__spirv_BuildNDRange_*`
            // as arrays by value, where the mangled name says pointers.
            let arrays_by_value = d.name.starts_with("__spirv_BuildNDRange_");
            if let Some(why) = signature_mismatch(&d, named).filter(|_| !arrays_by_value && d.typed)
            {
                return err(format!(
                    "the arguments of @{name} do not match its mangled name: {why}"
                ));
            }
            if d.name.starts_with("__spirv_") && !arrays_by_value {
                if let Some(t) = sret_type(i) {
                    // `void __spirv_IAddCarry(ptr sret(%struct) %r, a, b)`: the instruction's
                    // struct result, stored where the caller asked.
                    let ty = self.ty(t)?;
                    let v = self
                        .spirv_builtin(&d, Some(ty), &args[1..])?
                        .ok_or_else(|| {
                            super::error::FromLlvmError::new(format!(
                                "unknown SPIR-V builtin {}",
                                d.name
                            ))
                        })?;
                    let p = self.value(args[0])?;
                    let p = self.ptr_to(p, v.ty)?;
                    self.emit(Opcode::Store, None, &[p.v.to_id().0, v.v.to_id().0])?;
                    return Ok(None);
                }
            }
            if d.name.starts_with("__spirv_") {
                return self.spirv_builtin(&d, ret, &args).map(Some).and_then(|r| {
                    r.ok_or_else(|| {
                        super::error::FromLlvmError::new(format!(
                            "unknown SPIR-V builtin {}",
                            d.name
                        ))
                    })
                });
            }
            match d.name.as_str() {
                "is_valid_reserve_id" => return self.is_valid_reserve_id(&args).map(Some),
                "get_default_queue" => return self.default_queue().map(Some),
                "enqueue_marker" => return self.enqueue_marker(ret, &args).map(Some),
                "release_event" | "retain_event" => {
                    let op = if d.name == "release_event" {
                        Opcode::ReleaseEvent
                    } else {
                        Opcode::RetainEvent
                    };
                    self.event_call(op, &args)?;
                    return Ok(None);
                }
                "ndrange_1D" | "ndrange_2D" | "ndrange_3D" => {
                    let dims = u32::from(d.name.as_bytes()[8] - b'0');
                    return self.build_ndrange(dims, &args, false, None);
                }
                _ => {}
            }
            if let Some(r) = self.event_function(&d.name, &args)? {
                return Ok(r);
            }
            if let Some(r) = self.opencl_builtin(&d, ret, &args)? {
                return Ok(r);
            }
            if read::is_declaration(callee) && super::builtin_names::is_builtin(&d.name) {
                return err(format!(
                    "builtin {} (@{name}) has no SPIR-V form in spvkit",
                    d.name
                ));
            }
        } else if let Some(bi) = name.strip_prefix("__spirv_BuiltIn") {
            return self.builtin_call(bi, ret, &args).map(Some);
        }
        if !read::is_declaration(callee) {
            return err(format!("call of @{name} before its definition"));
        }
        // A function the module declares and does not define: never a builtin, which would
        // compute nothing once imported; an import only when the user asks for imports.
        match demangle(&name) {
            None if name.starts_with("_Z") => {
                return err(format!(
                    "@{name}: a mangled name spvkit cannot read, so it cannot tell which \
                     builtin or function it is"
                ))
            }
            None if super::builtin_names::is_builtin(&name) => {
                return err(format!("builtin @{name} has no SPIR-V form in spvkit"))
            }
            Some(d)
                if d.name.split("::").any(|c| c.starts_with("__spv"))
                    || (!d.nested && super::builtin_names::is_builtin(&d.name)) =>
            {
                return err(format!(
                    "builtin {} (@{name}) has no SPIR-V form in spvkit",
                    d.name
                ))
            }
            _ => {}
        }
        // SAFETY: `callee` is a function.
        let ft = unsafe { inkwell::llvm_sys::core::LLVMGlobalGetValueType(callee) };
        // SAFETY: `ft` is a function type.
        if unsafe { inkwell::llvm_sys::core::LLVMIsFunctionVarArg(ft) } != 0 {
            return err(format!(
                "a call of the variadic function @{name}: SPIR-V functions take a fixed list of \
                 parameters (OpenCL's only variadic function is printf)"
            ));
        }
        if !self.st.allow_imports {
            return err(format!(
                "call of @{name}, which the module declares but does not define: spvkit \
                 imports such functions (LinkageAttributes Import, for a linker to resolve) \
                 only under --allow-imports"
            ));
        }
        let info = self.declare(callee, &name, &args)?;
        self.function_call(&info, ret, &args)
    }

    /// `to_global`/`to_local`/`to_private` (clang-15's `__to_global(p)` ...): the generic
    /// pointer in that storage class, or null when it points elsewhere.
    fn address_space_cast(&mut self, sc: StorageClass, args: &[LLVMValueRef]) -> Result<Val> {
        let [p] = args else {
            return err("an address-space query takes one pointer");
        };
        self.generic_cast(Opcode::GenericCastToPtrExplicit, sc, *p)
    }

    /// `OpGenericCastToPtrExplicit` (or `OpGenericCastToPtr`) of the generic pointer `p` to a
    /// pointer to the same pointee in `sc`.
    fn generic_cast(&mut self, op: Opcode, sc: StorageClass, p: LLVMValueRef) -> Result<Val> {
        let p = self.value(p)?;
        let Some((from, pointee)) = self.ptr_parts(p.ty) else {
            return err("an address-space cast of a non-pointer");
        };
        if from != StorageClass::Generic {
            return err(format!(
                "an address-space cast to {sc:?} of a pointer in {from:?}, not Generic"
            ));
        }
        let ty = self.f.type_pointer(sc, pointee);
        let v = if op == Opcode::GenericCastToPtrExplicit {
            self.emit(op, Some(ty), &[p.v.to_id().0, sc as u32])?
        } else {
            self.emit(op, Some(ty), &[p.v.to_id().0])?
        };
        Ok(Val { v, ty })
    }

    fn declare(
        &mut self,
        callee: LLVMValueRef,
        name: &str,
        args: &[LLVMValueRef],
    ) -> Result<FuncInfo> {
        // SAFETY: `callee` is a function.
        let ft = unsafe { inkwell::llvm_sys::core::LLVMGlobalGetValueType(callee) };
        // SAFETY: `ft` is a function type.
        let ret_t = unsafe { inkwell::llvm_sys::core::LLVMGetReturnType(ft) };
        let ret = self.ty(ret_t)?;
        let mut params = Vec::new();
        for &a in args {
            params.push(self.value(a)?.ty);
        }
        let fty = self.f.type_function(ret, &params);
        let h = {
            let b: &mut crate::ir::Builder = &mut self.f;
            let fb = b.function(fty, FunctionControl::None);
            fb.finish()
        };
        let m = self.f.module_mut();
        if let Some(func) = m.functions.get_mut(h) {
            func.blocks = crate::ir::Arena::new();
            func.name = Some(name.to_owned());
            func.decorations.push(Decoration::LinkageAttributes(
                name.to_owned(),
                LinkageType::Import,
            ));
        }
        let info = FuncInfo {
            handle: h,
            ret,
            params,
        };
        self.st.funcs.insert(callee as usize, info.clone());
        Ok(info)
    }

    fn function_call(
        &mut self,
        info: &FuncInfo,
        _ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        let mut w = vec![Value::Function(info.handle).to_id().0];
        for (k, &a) in args.iter().enumerate() {
            let v = self.value(a)?;
            let v = match info.params.get(k) {
                Some(&t) => self.coerce(v, t)?,
                None => v,
            };
            w.push(v.v.to_id().0);
        }
        let v = self.emit(Opcode::FunctionCall, Some(info.ret), &w)?;
        let is_void = matches!(self.f.module().types.get(info.ret), Some(Type::Void));
        Ok(if is_void {
            None
        } else {
            Some(Val { v, ty: info.ret })
        })
    }

    fn intrinsic(
        &mut self,
        name: &str,
        ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        const IGNORED: &[&str] = &[
            "lifetime.start",
            "lifetime.end",
            "dbg.",
            "assume",
            "experimental.noalias.scope.decl",
            "invariant.start",
            "invariant.end",
            "var.annotation",
            "donothing",
            "sideeffect",
        ];
        if IGNORED.iter().any(|p| name.starts_with(p)) {
            return Ok(None);
        }
        if name.starts_with("memcpy") || name.starts_with("memmove") {
            let d = self.value(args[0])?;
            let s = self.value(args[1])?;
            let len = self.value(args[2])?;
            let w = [d.v.to_id().0, s.v.to_id().0, len.v.to_id().0];
            self.emit(Opcode::CopyMemorySized, None, &w)?;
            return Ok(None);
        }
        if name.starts_with("memset") {
            let d = self.value(args[0])?;
            let (Some(byte), Some(len)) = (read::const_int(args[1]), read::const_int(args[2]))
            else {
                return err("a memset of a variable value or length has no SPIR-V form");
            };
            if len == 0 {
                return Ok(None);
            }
            let u8t = self.f.type_int(8, false);
            let arr = self.f.type_array(u8t, len as u32, None);
            let c = if byte == 0 {
                self.f.constant_null(arr)
            } else {
                let e = self.const_int_of(u8t, byte)?;
                self.f
                    .constant(arr, ConstantValue::Composite(vec![e; len as usize]))
            };
            let p = self.ptr_to(d, arr)?;
            let w = [p.v.to_id().0, Value::Constant(c).to_id().0];
            self.emit(Opcode::Store, None, &w)?;
            return Ok(None);
        }
        if let Some((kind, _)) = name.split_once(".with.overflow") {
            let Some(ty) = ret else {
                return err("an intrinsic without a result");
            };
            return self.with_overflow(kind, ty, args).map(Some);
        }
        if let Some(v) = self.composed_intrinsic(name, ret, args)? {
            return Ok(Some(v));
        }
        let r = super::instructions::reverse();
        let mut base = format!("llvm.{name}");
        loop {
            if let Some(ops) = r.core.get(&(PatternKind::Intrinsic, base.as_str())) {
                let Some(ty) = ret else {
                    return err("an intrinsic without a result");
                };
                let op = ops[0];
                let want = matches!(op, Opcode::Any | Opcode::All);
                let a0 = self.value(args[0])?.ty;
                if !want || self.is_bool(a0) {
                    let v = self.value(args[0])?;
                    return Ok(Some(self.emit_val(op, ty, &[v.v])?));
                }
            }
            if base == "llvm.fmuladd" {
                return self.ocl_call("mad", ret, args, None).map(Some);
            }
            if let Some(&num) = r.ocl_intrinsic.get(base.as_str()) {
                let name = EXT_INST_SETS
                    .iter()
                    .find(|s| s.name == "OpenCL.std")
                    .and_then(|s| s.instruction(num))
                    .map(|d| d.name)
                    .unwrap_or("");
                return self.ocl_call(name, ret, args, None).map(Some);
            }
            match base.rfind('.') {
                Some(p) if p > 4 => base.truncate(p),
                _ => break,
            }
        }
        err(format!("intrinsic llvm.{name} has no SPIR-V form"))
    }

    /// `llvm.{s,u}{add,sub,mul}.with.overflow`: the wrapped result and whether it overflowed,
    /// in the `{ T, bool }` struct `ret`. Unsigned ones take the carry, borrow or high half of
    /// OpIAddCarry, OpISubBorrow, OpUMulExtended; signed ones compare signs (add, sub) or the
    /// high half with the low half's sign (OpSMulExtended).
    fn with_overflow(
        &mut self,
        kind: &str,
        ret: crate::ir::Handle<Type>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let (a, b) = (self.value(args[0])?, self.value(args[1])?);
        let t = a.ty;
        let Some(Type::Struct(st)) = self.f.module().types.get(ret).cloned() else {
            return err("an overflow intrinsic whose result is not a struct");
        };
        let Some(flag_t) = st.members.get(1).map(|m| m.ty) else {
            return err("an overflow intrinsic whose result has no flag");
        };
        let pair = self.f.ty(Type::Struct(crate::ir::StructType {
            name: None,
            members: vec![crate::ir::Member::new(t), crate::ir::Member::new(t)],
            decorations: Vec::new(),
        }));
        let zero = self.const_int_of(t, 0)?;
        let half = |fx: &mut Self, p: Val, k: u32| -> Result<Value> {
            let w = [p.v.to_id().0, k];
            fx.emit(Opcode::CompositeExtract, Some(t), &w)
        };
        let (value, flag) = match kind {
            "uadd" | "usub" | "umul" => {
                let op = match kind {
                    "uadd" => Opcode::IAddCarry,
                    "usub" => Opcode::ISubBorrow,
                    _ => Opcode::UMulExtended,
                };
                let p = self.emit_val(op, pair, &[a.v, b.v])?;
                let (lo, hi) = (half(self, p, 0)?, half(self, p, 1)?);
                let flag = self.emit_val(Opcode::INotEqual, flag_t, &[hi, zero])?;
                (lo, flag.v)
            }
            "sadd" | "ssub" => {
                let op = if kind == "sadd" {
                    Opcode::IAdd
                } else {
                    Opcode::ISub
                };
                let r = self.emit_val(op, t, &[a.v, b.v])?;
                // Overflow iff the operands' signs allow it and the result's sign differs:
                // add: (a ^ r) & (b ^ r) < 0; sub: (a ^ b) & (a ^ r) < 0.
                let x = self.emit_val(Opcode::BitwiseXor, t, &[a.v, r.v])?;
                let y = if kind == "sadd" {
                    self.emit_val(Opcode::BitwiseXor, t, &[b.v, r.v])?
                } else {
                    self.emit_val(Opcode::BitwiseXor, t, &[a.v, b.v])?
                };
                let both = self.emit_val(Opcode::BitwiseAnd, t, &[x.v, y.v])?;
                let flag = self.emit_val(Opcode::SLessThan, flag_t, &[both.v, zero])?;
                (r.v, flag.v)
            }
            "smul" => {
                let p = self.emit_val(Opcode::SMulExtended, pair, &[a.v, b.v])?;
                let (lo, hi) = (half(self, p, 0)?, half(self, p, 1)?);
                let width = match self.f.module().types.get(t) {
                    Some(Type::Int { width, .. }) => *width,
                    Some(Type::Vector { component, .. }) => {
                        match self.f.module().types.get(*component) {
                            Some(Type::Int { width, .. }) => *width,
                            _ => 0,
                        }
                    }
                    _ => 0,
                };
                let shift = self.const_int_of(t, u64::from(width.saturating_sub(1)))?;
                let sign = self.emit_val(Opcode::ShiftRightArithmetic, t, &[lo, shift])?;
                let flag = self.emit_val(Opcode::INotEqual, flag_t, &[hi, sign.v])?;
                (lo, flag.v)
            }
            _ => {
                return err(format!(
                    "intrinsic llvm.{kind}.with.overflow has no SPIR-V form"
                ))
            }
        };
        self.emit_val(Opcode::CompositeConstruct, ret, &[value, flag])
    }

    /// An OpenCL.std instruction over call arguments (ids, or literals where the grammar has
    /// literal operands); extra arguments past the grammar's operands are dropped; scalar
    /// arguments of a vector function are splatted.
    pub fn ocl_call(
        &mut self,
        name: &str,
        ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
        extra: Option<u32>,
    ) -> Result<Val> {
        let mut vals = Vec::new();
        for &a in args {
            vals.push(a);
        }
        let mut ops = Vec::new();
        let Some(set) = EXT_INST_SETS.iter().find(|s| s.name == "OpenCL.std") else {
            return err("the OpenCL.std grammar is missing");
        };
        let Some(desc) = set.instruction_by_name(name) else {
            return err(format!("OpenCL.std has no instruction {name}"));
        };
        let void = self.f.type_void();
        let ty = ret.unwrap_or(void);
        let width = self.width_of(ty);
        let mut k = 0;
        for od in desc.operands {
            if matches!(od.kind.class, KindClass::Id) {
                let Some(&a) = vals.get(k) else {
                    return err(format!("too few arguments for OpenCL.std {name}"));
                };
                k += 1;
                let mut v = self.value(a)?;
                if let Some((_, pointee)) = self.ptr_parts(v.ty) {
                    let data = match vals.first() {
                        Some(&d) => Some(self.value(d)?.ty),
                        None => None,
                    };
                    let want = self.ocl_pointee(name, data, ty, pointee);
                    v = self.ptr_to(v, want)?;
                } else if width > 1
                    && self.width_of(v.ty) == 1
                    && !name.starts_with("vstore")
                    && !name.starts_with("vload")
                    && name != "shuffle"
                {
                    let vt = self.f.type_vector(v.ty, width);
                    let parts = vec![v.v; width as usize];
                    v = self.emit_val(Opcode::CompositeConstruct, vt, &parts)?;
                }
                ops.push(ExtOperand::Id(v.v));
            } else if let Some(x) = extra.filter(|_| k >= vals.len()) {
                ops.push(ExtOperand::Lit(x));
            } else if let Some(&a) = vals.get(k) {
                k += 1;
                let Some(x) = read::const_int(a) else {
                    return err(format!(
                        "a literal operand of OpenCL.std {name} is not a constant"
                    ));
                };
                ops.push(ExtOperand::Lit(x as u32));
            } else if let Some(x) = extra {
                ops.push(ExtOperand::Lit(x));
            }
        }
        self.ext_inst(ty, desc.opcode, &ops)
    }

    fn ocl_pointee(
        &mut self,
        name: &str,
        data: Option<crate::ir::Handle<Type>>,
        ty: crate::ir::Handle<Type>,
        pointee: crate::ir::Handle<Type>,
    ) -> crate::ir::Handle<Type> {
        match name {
            "fract" | "modf" | "sincos" => ty,
            "frexp" | "lgamma_r" | "remquo" => {
                let i = self.f.type_int(32, false);
                let w = self.width_of(ty);
                if w > 1 {
                    self.f.type_vector(i, w)
                } else {
                    i
                }
            }
            n if n.starts_with("vload") && !n.contains("half") => self.scalar_of(ty),
            n if n.contains("half") => self.f.type_float(16),
            "vstoren" => match data {
                Some(d) => self.scalar_of(d),
                None => pointee,
            },
            _ => pointee,
        }
    }

    /// Appends an OpenCL.std `OpExtInst`.
    pub fn ext_inst(
        &mut self,
        ty: crate::ir::Handle<Type>,
        number: u32,
        ops: &[ExtOperand],
    ) -> Result<Val> {
        let set = self.st.ocl(&mut self.f);
        let mut w = vec![Value::ExtInstSet(set).to_id().0, number];
        for o in ops {
            w.push(match o {
                ExtOperand::Id(v) => v.to_id().0,
                ExtOperand::Lit(x) => *x,
            });
        }
        let v = self.emit(Opcode::ExtInst, Some(ty), &w)?;
        Ok(Val { v, ty })
    }

    /// A load of builtin variable `name` (`GlobalInvocationId`), component `index` for vectors.
    pub fn builtin_value(
        &mut self,
        bi: BuiltIn,
        index: Option<Value>,
        ret: Option<crate::ir::Handle<Type>>,
    ) -> Result<Val> {
        let var = self.st.builtin(&mut self.f, bi);
        let Some((_, pointee)) = self.ptr_parts(var.ty) else {
            return err("a builtin variable is not a pointer");
        };
        let w = [var.v.to_id().0];
        let loaded = self.emit(Opcode::Load, Some(pointee), &w)?;
        let loaded = Val {
            v: loaded,
            ty: pointee,
        };
        let v = match (index, self.width_of(pointee) > 1) {
            (Some(Value::Constant(c)), true) => {
                let k = match self.f.module().constants.get(c).map(|c| &c.value) {
                    Some(ConstantValue::Scalar(n)) => n.low_u64() as u32,
                    _ => 0,
                };
                let et = self.scalar_of(pointee);
                if k > 2 {
                    let v = self.const_int_of(et, if bi.name().contains("Id") { 0 } else { 1 })?;
                    Val { v, ty: et }
                } else {
                    let r =
                        self.emit(Opcode::CompositeExtract, Some(et), &[loaded.v.to_id().0, k])?;
                    Val { v: r, ty: et }
                }
            }
            (Some(ix), true) => {
                let et = self.scalar_of(pointee);
                self.emit_val(Opcode::VectorExtractDynamic, et, &[loaded.v, ix])?
            }
            _ => loaded,
        };
        match ret {
            Some(t) if t != v.ty => {
                let conv = self.emit_val(Opcode::UConvert, t, &[v.v])?;
                Ok(conv)
            }
            _ => Ok(v),
        }
    }

    fn builtin_call(
        &mut self,
        bi: &str,
        ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let Ok(b) = bi.parse::<BuiltIn>() else {
            return err(format!("unknown builtin {bi}"));
        };
        let index = match args.first() {
            Some(&a) => Some(self.value(a)?.v),
            None => None,
        };
        self.builtin_value(b, index, ret)
    }

    /// `__spirv_*` builtins (the document's names).
    fn spirv_builtin(
        &mut self,
        d: &Demangled,
        ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        let name = &d.name["__spirv_".len()..];
        if let Some(bi) = name.strip_prefix("BuiltIn") {
            return self.builtin_call(bi, ret, args).map(Some);
        }
        if let Some(ext) = name.strip_prefix("ocl_") {
            let mut base = ext.split("__").next().unwrap_or(ext);
            // A `_R<type>` postfix after one underscore (`vloadn_Rfloat4`).
            while ocl_desc(base).is_none() {
                match base.rfind('_') {
                    Some(p) => base = &base[..p],
                    None => break,
                }
            }
            if base == "printf" {
                return self.printf(ret, args).map(Some);
            }
            let v = self.ocl_call(base, ret, args, None)?;
            return Ok(if ret.is_some() { Some(v) } else { None });
        }
        if name == "SpecConstant" && args.len() == 2 {
            return self.spec_constant_call(ret, args).map(Some);
        }
        // The translator's `__spirv_GenericCastToPtr_To<Space>(p, storage)`: OpGenericCastToPtr
        // has no storage operand (its result type says it), so the argument must agree.
        if let Some(space) = name.strip_prefix("GenericCastToPtr_To") {
            let sc = match space {
                "Global" => StorageClass::CrossWorkgroup,
                "Local" => StorageClass::Workgroup,
                "Private" => StorageClass::Function,
                _ => return err(format!("__spirv_GenericCastToPtr_To{space} names no space")),
            };
            let (p, rest) = args
                .split_first()
                .ok_or_else(|| super::error::FromLlvmError::new("a cast of no pointer"))?;
            match rest {
                [] => {}
                [s] if read::const_int(*s) == Some(sc as u64) => {}
                _ => {
                    return err(format!(
                        "__spirv_GenericCastToPtr_To{space} takes the pointer and the constant \
                         {sc:?} storage class ({})",
                        sc as u32
                    ))
                }
            }
            return self
                .generic_cast(Opcode::GenericCastToPtr, sc, *p)
                .map(Some);
        }
        if let Some(nd) = name.strip_prefix("BuildNDRange_") {
            let dims = match nd {
                "1D" => 1,
                "2D" => 2,
                "3D" => 3,
                _ => return err(format!("__spirv_BuildNDRange_{nd} has no dimension")),
            };
            return self.build_ndrange(dims, args, true, ret);
        }
        match name {
            "GetDefaultQueue" => return self.default_queue().map(Some),
            "ReleaseEvent" | "RetainEvent" => {
                let op = if name == "ReleaseEvent" {
                    Opcode::ReleaseEvent
                } else {
                    Opcode::RetainEvent
                };
                self.event_call(op, args)?;
                return Ok(None);
            }
            _ => {}
        }
        if name == "EnqueueMarker" {
            return self.enqueue_marker(ret, args).map(Some);
        }
        let event_fn = match name {
            "CreateUserEvent" => Some("create_user_event"),
            "IsValidEvent" => Some("is_valid_event"),
            "SetUserEventStatus" => Some("set_user_event_status"),
            "CaptureEventProfilingInfo" => Some("capture_event_profiling_info"),
            _ => None,
        };
        if let Some(f) = event_fn {
            if let Some(r) = self.event_function(f, args)? {
                return Ok(r);
            }
        }
        // __spirv_<Op>{_R<type>}{_sat}{_rt*}{_To<Space>}
        let mut parts = name.split('_');
        let op = parts.next().unwrap_or("");
        let (sat, rounding) = conversion_postfixes(parts);
        let Ok(code) = format!("Op{op}").parse::<Opcode>() else {
            return err(format!("__spirv_{op} names no SPIR-V instruction"));
        };
        let Some(desc) = crate::grammar::tables::core_instruction(code as u16) else {
            return err(format!("__spirv_{op} names no SPIR-V instruction"));
        };
        if let (Opcode::AtomicFAddEXT | Opcode::AtomicFMinEXT | Opcode::AtomicFMaxEXT, Some(t)) =
            (code, ret)
        {
            self.float_atomic_requirements(code == Opcode::AtomicFAddEXT, t)?;
        }
        let has_result = desc
            .operands
            .iter()
            .any(|o| matches!(o.kind.class, KindClass::Result));
        let mut ty = if has_result { ret } else { None };
        if has_result && ty.is_none() {
            ty = Some(self.f.type_void());
        }
        // GenericCastToPtrExplicit_To<Space>: the result's pointee is the operand's.
        let is_atomic = op.starts_with("Atomic");
        let mut words = Vec::new();
        // The first operand's type as passed (after the casts its mangled type asks for).
        let mut first_ty = None;
        let mut k = 0;
        for od in desc.operands {
            match od.kind.class {
                KindClass::ResultType | KindClass::Result => continue,
                KindClass::Id => {
                    let Some(&a) = args.get(k) else { break };
                    k += 1;
                    let mut v = self.value(a)?;
                    let expected = d
                        .params
                        .get(k - 1)
                        .and_then(|m| super::images::opaque_of_mangled(self.st, &mut self.f, m));
                    match expected {
                        Some((t, true)) if v.ty != t && self.ptr_parts(v.ty).is_some() => {
                            // The opaque value itself (a null event is OpConstantNull).
                            let is_sampler =
                                matches!(self.f.module().types.get(t), Some(Type::Sampler));
                            if is_sampler {
                                return err("a null sampler has no SPIR-V form");
                            }
                            if read::value_kind(a) == VK::LLVMConstantPointerNullValueKind {
                                v = Val {
                                    v: Value::Constant(self.f.constant_null(t)),
                                    ty: t,
                                };
                            }
                        }
                        _ => {}
                    }
                    if let (Some(MType::Pointer(_, inner)), Some((_, pointee))) =
                        (d.params.get(k - 1), self.ptr_parts(v.ty))
                    {
                        if matches!(&**inner, MType::Scalar(_) | MType::Vector(..)) {
                            if let Ok(want) = self.mtype(inner) {
                                if want != pointee {
                                    v = self.ptr_to(v, want)?;
                                }
                            }
                        }
                        if let MType::Pointer(_, inner2) = &**inner {
                            if let MType::Named(_) = &**inner2 {
                                let m = MType::Pointer(0, inner2.clone());
                                if let Some((t, _)) =
                                    super::images::opaque_of_mangled(self.st, &mut self.f, &m)
                                {
                                    if t != pointee {
                                        v = self.ptr_to(v, t)?;
                                    }
                                }
                            }
                        }
                    }
                    if k == 1 && is_atomic && self.ptr_parts(v.ty).is_some() {
                        let flag =
                            matches!(code, Opcode::AtomicFlagTestAndSet | Opcode::AtomicFlagClear);
                        let elem = match ty {
                            // A flag is a 32-bit integer whatever the result.
                            _ if flag => self.f.type_int(32, false),
                            Some(t)
                                if !matches!(self.f.module().types.get(t), Some(Type::Void)) =>
                            {
                                t
                            }
                            _ => match args.last() {
                                Some(&l) => self.value(l)?.ty,
                                None => v.ty,
                            },
                        };
                        v = self.ptr_to(v, elem)?;
                    }
                    // `__spirv_Load` returns what the call says, whatever its mangled pointee
                    // (`double __spirv_Load(int*)` loads a double, as LLVM's load would).
                    if let (1, Opcode::Load, Some(t)) = (k, code, ty) {
                        if self.ptr_parts(v.ty).is_some_and(|(_, p)| p != t) {
                            v = self.ptr_to(v, t)?;
                        }
                    }
                    if matches!(code, Opcode::Any | Opcode::All) && !self.is_bool(v.ty) {
                        let n = self.width_of(v.ty);
                        let bool_t = self.f.type_bool();
                        let bt = self.f.type_vector(bool_t, n);
                        let zero = self.const_int_of(v.ty, 0)?;
                        v = self.emit_val(Opcode::INotEqual, bt, &[v.v, zero])?;
                    }
                    if k == 1 {
                        first_ty = Some(v.ty);
                    }
                    words.push(v.v.to_id().0);
                }
                _ => {
                    let Some(&a) = args.get(k) else { break };
                    k += 1;
                    let x = literal_arg(op, od.kind.name, a)?;
                    words.push(x);
                    // An enumerant's parameters follow it (`Aligned`'s alignment), in the
                    // order of the mask's bits.
                    let chosen: Vec<&crate::grammar::EnumerantDesc> = match od.kind.class {
                        KindClass::BitEnum => od
                            .kind
                            .enumerants
                            .iter()
                            .filter(|e| e.value != 0 && x & e.value == e.value)
                            .collect(),
                        KindClass::ValueEnum => od.kind.enumerant(x).into_iter().collect(),
                        _ => Vec::new(),
                    };
                    for p in chosen.iter().flat_map(|e| e.parameters) {
                        let Some(&a) = args.get(k) else {
                            return err(format!(
                                "__spirv_{op}: the {} operand lacks its parameters",
                                od.kind.name
                            ));
                        };
                        k += 1;
                        if p.kind.class == KindClass::Id {
                            let v = self.value(a)?;
                            words.push(v.v.to_id().0);
                        } else {
                            words.push(literal_arg(op, p.kind.name, a)?);
                        }
                    }
                }
            }
        }
        // Arguments past the operands: the rest of a trailing list (`Many`), of its kind.
        if k < args.len() {
            let Some(last) = desc
                .operands
                .last()
                .filter(|o| o.quantifier == crate::grammar::Quantifier::Many)
            else {
                return err(format!(
                    "__spirv_{op} takes at most {k} arguments, this call passes {}",
                    args.len()
                ));
            };
            for &a in &args[k..] {
                if last.kind.class == KindClass::Id {
                    let v = self.value(a)?;
                    words.push(v.v.to_id().0);
                } else {
                    words.push(literal_arg(op, last.kind.name, a)?);
                }
            }
        }
        if code == Opcode::GroupAsyncCopy {
            ty = Some(self.f.ty(Type::Event));
        }
        if code == Opcode::SampledImage {
            if let Some(&a0) = args.first() {
                let img = self.value(a0)?;
                ty = Some(self.f.type_sampled_image(img.ty));
            }
        }
        // Pointer results take the pointee of the first pointer operand, as passed.
        if let (Some(t), Some(a0)) = (ty, first_ty) {
            if let Some((sc, _)) = self.ptr_parts(t) {
                if let Some((_, p)) = self.ptr_parts(a0) {
                    ty = Some(self.f.type_pointer(sc, p));
                }
            }
        }
        // SPV-IR gives boolean results as integers (`<4 x i8>` of 0 and 1, then `trunc`): the
        // instruction gets its boolean type and an OpSelect makes the integers.
        if let Some(t) = ty.filter(|&t| returns_bool(op) && !self.is_bool(t)) {
            let n = self.width_of(t);
            let bool_t = self.f.type_bool();
            let bt = if n > 1 {
                self.f.type_vector(bool_t, n)
            } else {
                bool_t
            };
            let b = self.emit(code, Some(bt), &words)?;
            let v = self.bool_to_int(b, t, 1)?;
            return Ok(ret.map(|_| v));
        }
        let v = self.emit(code, ty, &words)?;
        if sat {
            self.f.decorate(v, Decoration::SaturatedConversion);
        }
        if let Some(r) = rounding {
            self.f.decorate(v, Decoration::FPRoundingMode(r));
        }
        Ok(match ty {
            Some(t) if ret.is_some() => Some(Val { v, ty: t }),
            _ => None,
        })
    }
}

impl Fx<'_, '_> {
    /// SYCL's `__spirv_SpecConstant(id, default)`: a specialization constant with `SpecId`
    /// `id` and the default value, of the call's (integer or boolean) type.
    fn spec_constant_call(
        &mut self,
        ret: Option<crate::ir::Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let (Some(id), Some(default)) = (read::const_int(args[0]), read::const_int(args[1])) else {
            return err(
                "__spirv_SpecConstant: the id and the default value must be integer constants \
                 (a floating-point default is not supported yet)",
            );
        };
        let Some(ty) = ret else {
            return err("__spirv_SpecConstant without a result");
        };
        let value = if self.is_bool(ty) {
            crate::ir::SpecValue::Bool(default != 0)
        } else if matches!(self.f.module().types.get(ty), Some(Type::Int { .. })) {
            let width = self.width_of(ty);
            let bits = if width >= 64 {
                default
            } else {
                default & ((1u64 << width) - 1)
            };
            if width > 32 {
                crate::ir::SpecValue::Scalar(crate::grammar::LiteralNumber::DoubleWord(bits))
            } else {
                crate::ir::SpecValue::Scalar(crate::grammar::LiteralNumber::Word(bits as u32))
            }
        } else {
            return err("__spirv_SpecConstant: not supported yet for this result type");
        };
        let mut sc = crate::ir::SpecConstant::new(ty, value);
        sc.spec_id = Some(u32::try_from(id).map_err(|_| {
            super::error::FromLlvmError::new("__spirv_SpecConstant: the id does not fit 32 bits")
        })?);
        let h = self.f.spec_constant(sc);
        Ok(Val {
            v: Value::SpecConstant(h),
            ty,
        })
    }
}

/// Whether a `__spirv_<Op>` instruction's result is a boolean (or a vector of them).
fn returns_bool(op: &str) -> bool {
    const EXACT: &[&str] = &[
        "SignBitSet",
        "LessOrGreater",
        "Ordered",
        "Unordered",
        "Any",
        "All",
        "IEqual",
        "INotEqual",
        "UGreaterThan",
        "SGreaterThan",
        "UGreaterThanEqual",
        "SGreaterThanEqual",
        "ULessThan",
        "SLessThan",
        "ULessThanEqual",
        "SLessThanEqual",
        "GroupAll",
        "GroupAny",
        "AtomicFlagTestAndSet",
        "GroupNonUniformElect",
        "GroupNonUniformAll",
        "GroupNonUniformAny",
        "GroupNonUniformAllEqual",
        "GroupNonUniformInverseBallot",
        "GroupNonUniformBallotBitExtract",
    ];
    EXACT.contains(&op)
        || op.starts_with("Is")
        || op.starts_with("FOrd")
        || op.starts_with("FUnord")
        || op.starts_with("Logical")
}

/// The OpenCL.std instruction of a name.
fn ocl_desc(name: &str) -> Option<&'static crate::grammar::InstructionDesc> {
    EXT_INST_SETS
        .iter()
        .find(|s| s.name == "OpenCL.std")
        .and_then(|s| s.instruction_by_name(name))
}

/// The type of a call's `sret` first argument, if it has one.
fn sret_type(call: LLVMValueRef) -> Option<LLVMTypeRef> {
    let name = "sret";
    // SAFETY: `call` is a call instruction; index 1 is its first argument; a type attribute
    // has a type value.
    unsafe {
        let kind = inkwell::llvm_sys::core::LLVMGetEnumAttributeKindForName(
            name.as_ptr().cast(),
            name.len(),
        );
        if read::num_operands(call) < 2 || kind == 0 {
            return None;
        }
        let a = inkwell::llvm_sys::core::LLVMGetCallSiteEnumAttribute(call, 1, kind);
        if a.is_null() {
            return None;
        }
        let t = inkwell::llvm_sys::core::LLVMGetTypeAttributeValue(a);
        (!t.is_null()).then_some(t)
    }
}

/// Whether a call's first argument carries the `sret` attribute.
fn returns_by_sret(call: LLVMValueRef) -> bool {
    let name = "sret";
    // SAFETY: `call` is a call instruction; index 1 is its first argument.
    unsafe {
        let kind = inkwell::llvm_sys::core::LLVMGetEnumAttributeKindForName(
            name.as_ptr().cast(),
            name.len(),
        );
        read::num_operands(call) > 1
            && kind != 0
            && !inkwell::llvm_sys::core::LLVMGetCallSiteEnumAttribute(call, 1, kind).is_null()
    }
}

/// Why a call's arguments cannot be the parameters its mangled name spells, if they cannot:
/// builtins are translated by their names, so a call that disagrees with its name (LLVM allows
/// any call signature with opaque pointers) would otherwise make invalid SPIR-V.
fn signature_mismatch(d: &Demangled, args: &[LLVMValueRef]) -> Option<String> {
    if d.params.len() != args.len() {
        return Some(format!(
            "{} arguments for {} parameters",
            args.len(),
            d.params.len()
        ));
    }
    d.params
        .iter()
        .zip(args)
        .position(|(m, &a)| !fits(m, read::type_of(a)))
        .map(|k| format!("argument {} is not a {:?}", k + 1, d.params[k]))
}

/// Whether an LLVM type can carry a value of the mangled type `m`.
fn fits(m: &MType, t: LLVMTypeRef) -> bool {
    let kind = read::type_kind(t);
    let int = |w: u32| kind == K::LLVMIntegerTypeKind && read::int_width(t) == w;
    match m {
        MType::Scalar(s) => match *s {
            "c" | "a" | "h" => int(8),
            "s" | "t" => int(16),
            "i" | "j" => int(32),
            "l" | "m" | "x" | "y" => int(64),
            "b" => int(1) || int(8) || int(32),
            "f" => kind == K::LLVMFloatTypeKind,
            "d" => kind == K::LLVMDoubleTypeKind,
            "Dh" | "DF16_" => kind == K::LLVMHalfTypeKind,
            "DF16b" => kind == K::LLVMBFloatTypeKind,
            "n" | "o" => int(128),
            _ => false,
        },
        MType::BitInt { bits, .. } => int(*bits),
        MType::Vector(n, e) => {
            kind == K::LLVMVectorTypeKind
                && read::vector_size(t) == *n
                && fits(e, read::element_type(t))
        }
        // A pointer to an opaque type is the type itself in LLVM 19's target-type form.
        MType::Pointer(_, e) if matches!(&**e, MType::Named(_)) => {
            matches!(kind, K::LLVMPointerTypeKind | K::LLVMTargetExtTypeKind)
        }
        MType::Pointer(..) => kind == K::LLVMPointerTypeKind,
        // Opaque OpenCL and SPIR-V types travel as pointers or target types; other names
        // are enums (`memory_order`, `memory_scope`), passed as integers.
        MType::Named(n) if n.starts_with("ocl_") || n.starts_with("__spirv_") => {
            matches!(kind, K::LLVMPointerTypeKind | K::LLVMTargetExtTypeKind)
        }
        MType::Named(_) => kind == K::LLVMIntegerTypeKind,
        MType::Reference(_) => kind == K::LLVMPointerTypeKind,
        MType::Array(n, e) => {
            kind == K::LLVMArrayTypeKind
                && read::array_length(t) == *n
                && fits(e, read::element_type(t))
        }
        MType::Function | MType::Literal(..) | MType::Qualified(..) | MType::Pack(_) => false,
    }
}

/// The storage class an OpenCL C address-space query (`to_global` ...) casts to.
fn address_space_query(name: &str) -> Option<StorageClass> {
    match name {
        "__to_global" => Some(StorageClass::CrossWorkgroup),
        "__to_local" => Some(StorageClass::Workgroup),
        "__to_private" => Some(StorageClass::Function),
        _ => None,
    }
}

/// The `_sat` and `_rt{e,z,p,n}` postfixes of a conversion's name (OpenCL C's `convert_int_sat_rte`,
/// the document's `__spirv_ConvertFToS_Rint_sat_rte`): saturation and the rounding mode.
pub(crate) fn conversion_postfixes<'a>(
    parts: impl Iterator<Item = &'a str>,
) -> (bool, Option<FPRoundingMode>) {
    let (mut sat, mut rounding) = (false, None);
    for p in parts {
        match p {
            "sat" => sat = true,
            "rte" => rounding = Some(FPRoundingMode::RTE),
            "rtz" => rounding = Some(FPRoundingMode::RTZ),
            "rtp" => rounding = Some(FPRoundingMode::RTP),
            "rtn" => rounding = Some(FPRoundingMode::RTN),
            _ => {}
        }
    }
    (sat, rounding)
}

/// A literal operand of a `__spirv_*` call: a constant integer argument (the word), or an
/// error, never the id of whatever value was passed.
fn literal_arg(op: &str, kind: &str, a: LLVMValueRef) -> Result<u32> {
    match read::const_int(a) {
        // The word as the call's integer type holds it (a literal is one word).
        Some(x) => Ok(x as u32),
        None => err(format!(
            "__spirv_{op}: the {kind} operand is a literal, and this argument is not a constant"
        )),
    }
}
