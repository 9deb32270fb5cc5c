//! Memory: function variables (`alloca` in the prologue, initializer stored where the variable
//! is declared), loads and stores with their memory-access masks (`Volatile` → volatile,
//! `Aligned` → align, `Nontemporal` → `!nontemporal`), access chains (GEPs through the
//! lowered layout: struct members by field index, padded array elements), copies, and the
//! generic-pointer casts (one address space: `OpPtrCastToGeneric` and `OpGenericCastToPtr` are
//! identities; `OpGenericCastToPtrExplicit` asks where the pointer points, by address range:
//! [`storage_class_of`]).

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::matrix_layout::LayoutPtr;
use super::super::Lowerer;
use crate::grammar::{Id, Instruction, MemoryAccess, MemoryAccessArgs, StorageClass};
use crate::ir::{Handle, Op, Type};
use crate::lower::abi::STORAGE_CLASS_HOOK;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{
    BasicValue, BasicValueEnum, FunctionValue, InstructionValue, IntValue, PointerValue,
};

/// Applies a memory-access mask to a load or store.
pub(crate) fn apply_access(
    cx: &inkwell::context::Context,
    i: InstructionValue<'_>,
    access: Option<&MemoryAccessArgs>,
) -> Result<()> {
    let Some(a) = access else { return Ok(()) };
    let mask = a.effective_mask();
    if mask.contains(MemoryAccess::Volatile) {
        i.set_volatile(true)
            .map_err(|e| LowerError::malformed(format!("volatile: {e}")))?;
    }
    if let Some(al) = a.aligned {
        if al.is_power_of_two() {
            i.set_alignment(al)
                .map_err(|e| LowerError::malformed(format!("alignment: {e}")))?;
        }
    }
    if mask.contains(MemoryAccess::Nontemporal) {
        let kind = cx.get_kind_id("nontemporal");
        let one = cx.i32_type().const_int(1, false);
        let node = cx.metadata_node(&[one.into()]);
        i.set_metadata(node, kind)
            .map_err(|e| LowerError::malformed(format!("nontemporal: {e}")))?;
    }
    Ok(())
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The pointee type of a pointer operand.
    pub(crate) fn pointee_of(&self, fx: &FnCx<'_, 'ctx>, id: Id) -> Result<Handle<Type>> {
        let t = self.type_of_id(fx, id)?;
        match self.spv_type(t)? {
            Type::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(LowerError::malformed(
                "a pointer operand of non-pointer type",
            )),
        }
    }

    fn ptr_operand(&mut self, fx: &mut FnCx<'_, 'ctx>, id: Id) -> Result<PointerValue<'ctx>> {
        if bool_lane(fx, id).is_some() {
            return Err(LowerError::unsupported(
                "a pointer to a component of a bool vector used other than by OpLoad or OpStore",
            ));
        }
        match self.id(fx, id)? {
            BasicValueEnum::PointerValue(p) => Ok(p),
            _ => Err(LowerError::malformed(
                "a pointer operand that is not a pointer",
            )),
        }
    }

    /// The bool vector type an access chain from `base` through `indexes` ends at a component
    /// of, if it does.
    fn bool_vector_at(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        base: Handle<Type>,
        indexes: &[Id],
    ) -> Result<Option<Handle<Type>>> {
        let Some((_, parents)) = indexes.split_last() else {
            return Ok(None);
        };
        let mut cur = base;
        for &ix in parents {
            cur = match self.spv_type(cur)?.clone() {
                Type::Struct(s) => {
                    let BasicValueEnum::IntValue(iv) = self.id(fx, ix)? else {
                        return Ok(None);
                    };
                    let Some(k) = iv
                        .get_zero_extended_constant()
                        .and_then(|k| usize::try_from(k).ok())
                    else {
                        return Ok(None);
                    };
                    match s.members.get(k) {
                        Some(m) => m.ty,
                        None => return Ok(None),
                    }
                }
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => element,
                Type::Vector { component, .. } => component,
                Type::Matrix { column, .. } => column,
                _ => return Ok(None),
            };
        }
        Ok(match self.spv_type(cur)? {
            Type::Vector { component, .. } if matches!(self.spv_type(*component)?, Type::Bool) => {
                Some(cur)
            }
            _ => None,
        })
    }

    /// GEP indices (after the first) for an access chain from `base` (or, when the base
    /// pointer is one, from the layout pointer `from`) through `indexes`; the layout pointer
    /// the chain ends at, if it ends inside a matrix member laid out otherwise than its value.
    fn chain(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        base: Handle<Type>,
        from: Option<LayoutPtr<'ctx>>,
        indexes: &[Id],
        out: &mut Vec<IntValue<'ctx>>,
    ) -> Result<Option<LayoutPtr<'ctx>>> {
        let i32t = self.cx.i32_type();
        let mut cur = from.map_or(base, |p| p.ty);
        let mut lay = from.map(|p| p.lay);
        // Inside a RowMajor matrix: the column index waits for the row index.
        let mut column = from.and_then(|p| p.column);
        for &ix in indexes {
            let BasicValueEnum::IntValue(iv) = self.id(fx, ix)? else {
                return Err(LowerError::malformed(
                    "an access chain index that is not an integer",
                ));
            };
            let t = self.spv_type(cur)?.clone();
            if let Some(ly) = lay {
                match t {
                    Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                        let (_, padded) = self.mem_type(cur, ly)?;
                        out.push(iv);
                        if padded {
                            out.push(i32t.const_zero());
                        }
                        cur = element;
                    }
                    Type::Matrix { column: col_ty, .. } => {
                        let mm = self.mat_mem(cur, ly)?;
                        let component = match self.spv_type(col_ty)? {
                            Type::Vector { component, .. } => *component,
                            _ => return Err(LowerError::malformed("a matrix column")),
                        };
                        if !ly.row_major {
                            // Column iv, possibly wrapped with its padding.
                            out.push(iv);
                            if mm.pad != 0 {
                                out.push(i32t.const_zero());
                            }
                            cur = col_ty;
                            lay = None;
                        } else if let Some(c) = column.take() {
                            // Element (column c, row iv) is row iv's component c.
                            out.push(iv);
                            if mm.pad != 0 {
                                out.push(i32t.const_zero());
                            }
                            out.push(c);
                            cur = component;
                            lay = None;
                        } else {
                            column = Some(iv);
                        }
                    }
                    _ => return Err(LowerError::malformed("a matrix layout on a non-matrix")),
                }
                continue;
            }
            let info = self.ty(cur)?;
            match t {
                Type::Struct(s) => {
                    let k = iv.get_zero_extended_constant().ok_or_else(|| {
                        LowerError::malformed("a struct index that is not constant")
                    })?;
                    let m = s
                        .members
                        .get(k as usize)
                        .ok_or_else(|| LowerError::malformed("a struct index out of range"))?;
                    let f = *info
                        .fields
                        .get(k as usize)
                        .ok_or_else(|| LowerError::malformed("struct field"))?;
                    out.push(i32t.const_int(f.into(), false));
                    cur = m.ty;
                    lay = info.mat_layout.get(k as usize).copied().flatten();
                }
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                    out.push(iv);
                    if info.padded_elem {
                        out.push(i32t.const_zero());
                    }
                    cur = element;
                }
                Type::Vector { component, .. } => {
                    out.push(iv);
                    cur = component;
                }
                Type::Matrix { column, .. } => {
                    out.push(iv);
                    cur = column;
                }
                _ => return Err(LowerError::malformed("an access chain into a scalar")),
            }
        }
        Ok(lay.map(|lay| LayoutPtr {
            ty: cur,
            lay,
            column,
        }))
    }

    /// The address of row `r`'s component `c` of the `RowMajor` matrix at `p` (layout `lp`).
    fn row_major_element(
        &mut self,
        p: PointerValue<'ctx>,
        lp: LayoutPtr<'ctx>,
        r: u32,
        c: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>> {
        let (mt, _) = self.mem_type(lp.ty, lp.lay)?;
        let mm = self.mat_mem(lp.ty, lp.lay)?;
        let i32t = self.cx.i32_type();
        let mut idx = vec![i32t.const_zero(), i32t.const_int(r.into(), false)];
        if mm.pad != 0 {
            idx.push(i32t.const_zero());
        }
        idx.push(c);
        // SAFETY: an address inside the matrix.
        Ok(unsafe { self.b.build_gep(mt, p, &idx, "")? })
    }

    /// The number of rows of the matrix type `t`.
    fn matrix_rows(&mut self, t: Handle<Type>) -> Result<u32> {
        let Type::Matrix { column, .. } = self.spv_type(t)?.clone() else {
            return Err(LowerError::malformed("a matrix type was expected"));
        };
        match self.basic(column)? {
            BasicTypeEnum::VectorType(v) => Ok(v.get_size()),
            _ => Err(LowerError::malformed("a matrix of non-vectors")),
        }
    }
}

/// A load of a global initialized with `OpConstantSampler`, in the spv-ir style: LLVM cannot
/// initialize a `target("spirv.Sampler")` global with anything but zero, so the load becomes
/// the sampler's initializer call, as every other use of a constant sampler does.
fn constant_sampler_load<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    pointer: crate::grammar::Id,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    if !l.spv_ir() {
        return Ok(None);
    }
    let Some(crate::ir::Value::Global(g)) = crate::ir::Value::from_id(pointer) else {
        return Ok(None);
    };
    match l.m.globals.get(g).and_then(|g| g.initializer) {
        Some(init) => l.spv_ir_sampler(fx, init),
        None => Ok(None),
    }
}

/// A `getelementptr`, `inbounds` for SPIR-V's InBounds chains.
///
/// # Safety
/// As for inkwell's `build_gep`: the indices must suit `t`.
unsafe fn gep<'ctx>(
    l: &Lowerer<'_, 'ctx>,
    inbounds: bool,
    t: BasicTypeEnum<'ctx>,
    p: inkwell::values::PointerValue<'ctx>,
    idx: &[inkwell::values::IntValue<'ctx>],
) -> Result<inkwell::values::PointerValue<'ctx>> {
    Ok(if inbounds {
        l.b.build_in_bounds_gep(t, p, idx, "")?
    } else {
        l.b.build_gep(t, p, idx, "")?
    })
}

/// Lowers a memory op.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    result: Option<BasicTypeEnum<'ctx>>,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    use Instruction as I;
    let need = || result.ok_or_else(|| LowerError::malformed("an op without a result type"));
    Ok(Some(match &op.inst {
        I::Variable(v) => {
            if v.storage_class != StorageClass::Function {
                return Err(LowerError::unsupported(format!(
                    "a function-scope variable in {:?}",
                    v.storage_class
                )));
            }
            let rt = op
                .result_type()
                .ok_or_else(|| LowerError::malformed("OpVariable without a type"))?;
            let pointee = match l.spv_type(rt)? {
                Type::Pointer { pointee, .. } => *pointee,
                _ => return Err(LowerError::malformed("a variable of non-pointer type")),
            };
            let t = l.basic(pointee)?;
            let slot = fx.prologue.build_alloca(t, op.name().unwrap_or(""))?;
            // Packed structs have ABI alignment 1; give every variable 16.
            if let Some(i) = slot.as_instruction() {
                let align = l.td.get_abi_alignment(&t).max(16);
                let _ = i.set_alignment(align);
            }
            if let Some(init) = v.initializer {
                let iv = l.id(fx, init)?;
                crate::lower::llvm::store(&l.b, &l.td, slot, iv)?;
            }
            slot.into()
        }
        I::Load(ld) => {
            if let Some(s) = constant_sampler_load(l, fx, ld.pointer)? {
                return Ok(Some(s));
            }
            if let Some((vp, vector, lane)) = bool_lane(fx, ld.pointer) {
                let vt = l.basic(vector)?;
                let v = crate::lower::llvm::load(&l.b, &l.td, vt, vp, "")?;
                if let Some(i) = v.as_instruction_value() {
                    apply_access(l.cx, i, ld.memory_access.as_ref())?;
                }
                let BasicValueEnum::VectorValue(v) = v else {
                    return Err(LowerError::malformed("a bool vector that is not a vector"));
                };
                return Ok(Some(l.b.build_extract_element(v, lane, "")?));
            }
            let p = l.ptr_operand(fx, ld.pointer)?;
            match layout_ptr(fx, ld.pointer) {
                Some(lp) if lp.column.is_some() => {
                    // A column of a RowMajor matrix: one component from each row.
                    let c = lp.column.ok_or_else(|| LowerError::malformed("column"))?;
                    let r = need()?;
                    let BasicTypeEnum::VectorType(vt) = r else {
                        return Err(LowerError::malformed("a matrix column of a non-vector"));
                    };
                    let mut out = crate::lower::llvm::undef_vector(r)?;
                    for i in 0..l.matrix_rows(lp.ty)? {
                        let e = l.row_major_element(p, lp, i, c)?;
                        let x =
                            crate::lower::llvm::load(&l.b, &l.td, vt.get_element_type(), e, "")?;
                        if let Some(ins) = x.as_instruction_value() {
                            apply_volatile(ins, ld.memory_access.as_ref())?;
                        }
                        let lane = l.cx.i32_type().const_int(i.into(), false);
                        out = crate::lower::llvm::insert_element(&l.b, out, x, lane, "")?;
                    }
                    out.into()
                }
                Some(lp) => {
                    let (mt, _) = l.mem_type(lp.ty, lp.lay)?;
                    let v = crate::lower::llvm::load(&l.b, &l.td, mt, p, op.name().unwrap_or(""))?;
                    if let Some(i) = v.as_instruction_value() {
                        apply_access(l.cx, i, ld.memory_access.as_ref())?;
                    }
                    l.value_form(v, lp.ty, lp.lay)?
                }
                None => {
                    let v =
                        crate::lower::llvm::load(&l.b, &l.td, need()?, p, op.name().unwrap_or(""))?;
                    if let Some(i) = v.as_instruction_value() {
                        apply_access(l.cx, i, ld.memory_access.as_ref())?;
                    }
                    v
                }
            }
        }
        I::Store(st) => {
            let v = l.id(fx, st.object)?;
            if let Some((vp, vector, lane)) = bool_lane(fx, st.pointer) {
                let vt = l.basic(vector)?;
                let old = crate::lower::llvm::load(&l.b, &l.td, vt, vp, "")?;
                if let Some(i) = old.as_instruction_value() {
                    apply_access(l.cx, i, st.memory_access.as_ref())?;
                }
                let BasicValueEnum::VectorValue(old) = old else {
                    return Err(LowerError::malformed("a bool vector that is not a vector"));
                };
                let new = l.b.build_insert_element(old, v, lane, "")?;
                let i = crate::lower::llvm::store(&l.b, &l.td, vp, new.into())?;
                apply_access(l.cx, i, st.memory_access.as_ref())?;
                return Ok(None);
            }
            let p = l.ptr_operand(fx, st.pointer)?;
            match layout_ptr(fx, st.pointer) {
                Some(lp) if lp.column.is_some() => {
                    // A column of a RowMajor matrix: one component into each row.
                    let c = lp.column.ok_or_else(|| LowerError::malformed("column"))?;
                    let BasicValueEnum::VectorValue(vv) = v else {
                        return Err(LowerError::malformed("a matrix column of a non-vector"));
                    };
                    for i in 0..l.matrix_rows(lp.ty)? {
                        let e = l.row_major_element(p, lp, i, c)?;
                        let lane = l.cx.i32_type().const_int(i.into(), false);
                        let x = l.b.build_extract_element(vv, lane, "")?;
                        let ins = crate::lower::llvm::store(&l.b, &l.td, e, x)?;
                        apply_volatile(ins, st.memory_access.as_ref())?;
                    }
                    return Ok(None);
                }
                Some(lp) => {
                    for i in l.store_layout(p, v, lp.ty, lp.lay)? {
                        apply_volatile(i, st.memory_access.as_ref())?;
                    }
                    return Ok(None);
                }
                None => {}
            }
            let i = crate::lower::llvm::store(&l.b, &l.td, p, v)?;
            apply_access(l.cx, i, st.memory_access.as_ref())?;
            return Ok(None);
        }
        I::AccessChain(crate::grammar::OpAccessChain { base, indexes, .. })
        | I::InBoundsAccessChain(crate::grammar::OpInBoundsAccessChain { base, indexes, .. })
            if l.resource_array(*base).is_some() =>
        {
            let inbounds = matches!(op.inst, I::InBoundsAccessChain(_));
            element_chain(l, fx, *base, indexes, inbounds)?.into()
        }
        I::AccessChain(crate::grammar::OpAccessChain { base, indexes, .. })
        | I::InBoundsAccessChain(crate::grammar::OpInBoundsAccessChain { base, indexes, .. }) => {
            let from = layout_ptr(fx, *base);
            let p = l.ptr_operand(fx, *base)?;
            let pointee = l.pointee_of(fx, *base)?;
            let t = match from {
                Some(lp) => l.mem_type(lp.ty, lp.lay)?.0,
                None => l.basic(pointee)?,
            };
            let mut idx = vec![l.cx.i32_type().const_zero()];
            if from.is_none() {
                if let Some(vector) = l.bool_vector_at(fx, pointee, indexes)? {
                    // A component of a bool vector: its address is the vector's.
                    let (last, parents) = indexes
                        .split_last()
                        .ok_or_else(|| LowerError::malformed("an empty access chain"))?;
                    if l.chain(fx, pointee, None, parents, &mut idx)?.is_some() {
                        return Err(LowerError::malformed("a bool vector in a matrix layout"));
                    }
                    let BasicValueEnum::IntValue(lane) = l.id(fx, *last)? else {
                        return Err(LowerError::malformed(
                            "an access chain index that is not an integer",
                        ));
                    };
                    let inbounds = matches!(op.inst, I::InBoundsAccessChain(_));
                    // SAFETY: GEP computes an address only; SPIR-V's rules keep chains in
                    // bounds.
                    let vp = unsafe { gep(l, inbounds, t, p, &idx)? };
                    if let Some(crate::ir::Value::Op(h)) =
                        op.inst.result_id().and_then(crate::ir::Value::from_id)
                    {
                        fx.bool_lanes.insert(h, (vp, vector, lane));
                    }
                    return Ok(Some(vp.into()));
                }
            }
            if let Some(lp) = l.chain(fx, pointee, from, indexes, &mut idx)? {
                if let Some(crate::ir::Value::Op(h)) =
                    op.inst.result_id().and_then(crate::ir::Value::from_id)
                {
                    fx.layout_ptrs.insert(h, lp);
                }
            }
            // SAFETY: GEP computes an address only; SPIR-V's rules keep chains in bounds.
            unsafe { gep(l, matches!(op.inst, I::InBoundsAccessChain(_)), t, p, &idx)? }.into()
        }
        I::PtrAccessChain(crate::grammar::OpPtrAccessChain {
            base,
            element,
            indexes,
            ..
        })
        | I::InBoundsPtrAccessChain(crate::grammar::OpInBoundsPtrAccessChain {
            base,
            element,
            indexes,
            ..
        }) => {
            let p = l.ptr_operand(fx, *base)?;
            let pointee = l.pointee_of(fx, *base)?;
            let t = l.basic(pointee)?;
            let BasicValueEnum::IntValue(e) = l.id(fx, *element)? else {
                return Err(LowerError::malformed(
                    "an element index that is not an integer",
                ));
            };
            let mut idx = vec![e];
            if layout_ptr(fx, *base).is_some()
                || l.chain(fx, pointee, None, indexes, &mut idx)?.is_some()
            {
                return Err(LowerError::unsupported(
                    "a pointer access chain to or from a RowMajor or padded matrix member",
                ));
            }
            // SAFETY: as for access chains.
            unsafe {
                gep(
                    l,
                    matches!(op.inst, I::InBoundsPtrAccessChain(_)),
                    t,
                    p,
                    &idx,
                )?
            }
            .into()
        }
        I::CopyMemory(c) => {
            if layout_ptr(fx, c.target).is_some() || layout_ptr(fx, c.source).is_some() {
                return Err(LowerError::unsupported(
                    "OpCopyMemory to or from a RowMajor or padded matrix member",
                ));
            }
            let dst = l.ptr_operand(fx, c.target)?;
            let src = l.ptr_operand(fx, c.source)?;
            let pointee = l.pointee_of(fx, c.source)?;
            let size = l
                .ty(pointee)?
                .size
                .ok_or_else(|| LowerError::unsupported("a copy of a runtime-sized object"))?;
            let n = l.cx.i64_type().const_int(size, false);
            l.b.build_memmove(dst, 1, src, 1, n)?;
            return Ok(None);
        }
        I::CopyMemorySized(c) => {
            let dst = l.ptr_operand(fx, c.target)?;
            let src = l.ptr_operand(fx, c.source)?;
            let BasicValueEnum::IntValue(n) = l.id(fx, c.size)? else {
                return Err(LowerError::malformed("a size that is not an integer"));
            };
            l.b.build_memmove(dst, 1, src, 1, n)?;
            return Ok(None);
        }
        I::ArrayLength(a) => array_length(l, fx, a, need()?)?,
        I::PtrCastToGeneric(c) if l.spv_ir() => l.spv_ir_addrspace_cast(fx, c.pointer, result)?,
        I::GenericCastToPtr(c) if l.spv_ir() => l.spv_ir_addrspace_cast(fx, c.pointer, result)?,
        I::PtrCastToGeneric(c) => l.id(fx, c.pointer)?,
        I::GenericCastToPtr(c) => l.id(fx, c.pointer)?,
        I::GenericCastToPtrExplicit(c) => {
            let p = l.ptr_operand(fx, c.pointer)?;
            let class = storage_class_of(l, fx, p)?;
            let is = |l: &mut Lowerer<'a, 'ctx>, sc: StorageClass| -> Result<IntValue<'ctx>> {
                let want = l.cx.i32_type().const_int(sc as u64, false);
                Ok(l.b.build_int_compare(inkwell::IntPredicate::EQ, class, want, "")?)
            };
            let inside = match c.storage {
                StorageClass::Workgroup | StorageClass::CrossWorkgroup => is(l, c.storage)?,
                // OpenCL's private memory: the stack and the Private block.
                StorageClass::Function => {
                    let stack = is(l, StorageClass::Function)?;
                    let block = is(l, StorageClass::Private)?;
                    l.b.build_or(stack, block, "")?
                }
                other => {
                    return Err(LowerError::malformed(format!(
                        "OpGenericCastToPtrExplicit to {other:?} (only Workgroup, CrossWorkgroup \
                         and Function are allowed)"
                    )))
                }
            };
            let null = p.get_type().const_null();
            l.b.build_select(inside, p, null, "")?
        }
        _ => return Err(LowerError::unsupported("this memory op")),
    }))
}

/// The storage class of the memory the pointer `p` points into, as an `i32` (SPIR-V's number,
/// or [`NO_STORAGE_CLASS`](crate::lower::abi::NO_STORAGE_CLASS)): the module's own `CrossWorkgroup` variables are checked here, the
/// rest is the runner's answer ([`STORAGE_CLASS_HOOK`]). One internal function per module,
/// `spvkit.storage_class(ptr %ctx, ptr %p)`, which the optimizer inlines.
pub(crate) fn storage_class_of<'ctx>(
    l: &mut Lowerer<'_, 'ctx>,
    fx: &FnCx<'_, 'ctx>,
    p: PointerValue<'ctx>,
) -> Result<IntValue<'ctx>> {
    let f = match l.storage_class_fn {
        Some(f) => f,
        None => {
            let f = storage_class_fn(l)?;
            l.storage_class_fn = Some(f);
            f
        }
    };
    let call = l.b.build_call(f, &[fx.ctx.into(), p.into()], "")?;
    match call.try_as_basic_value() {
        inkwell::values::ValueKind::Basic(BasicValueEnum::IntValue(v)) => Ok(v),
        _ => Err(LowerError::malformed(
            "spvkit.storage_class returns no integer",
        )),
    }
}

/// Builds `spvkit.storage_class`: each `CrossWorkgroup` variable's address range, then the hook.
fn storage_class_fn<'ctx>(l: &mut Lowerer<'_, 'ctx>) -> Result<FunctionValue<'ctx>> {
    use super::super::globals::Place;
    let cx = l.cx;
    let (ptr, i32t, i64t) = (
        cx.ptr_type(inkwell::AddressSpace::default()),
        cx.i32_type(),
        cx.i64_type(),
    );
    let ty = i32t.fn_type(&[ptr.into(), ptr.into()], false);
    let hook = super::super::llvm::external(&l.llm, STORAGE_CLASS_HOOK, ty)?;
    let f = l.llm.add_function(
        "spvkit.storage_class",
        ty,
        Some(inkwell::module::Linkage::Internal),
    );
    let (ctx, p) = match (f.get_nth_param(0), f.get_nth_param(1)) {
        (Some(c), Some(p)) => (c.into_pointer_value(), p.into_pointer_value()),
        _ => return Err(LowerError::malformed("spvkit.storage_class parameters")),
    };
    let b = cx.create_builder();
    let global = cx.append_basic_block(f, "global");
    b.position_at_end(global);
    b.build_return(Some(
        &i32t.const_int(StorageClass::CrossWorkgroup as u64, false),
    ))?;
    let start = cx.prepend_basic_block(global, "entry");
    b.position_at_end(start);
    let a = b.build_ptr_to_int(p, i64t, "")?;
    for (h, g) in l.m.globals.iter() {
        if g.storage_class != StorageClass::CrossWorkgroup {
            continue;
        }
        let Some(Some(Place::Global(gv))) = l.placement.places.get(h.index()) else {
            continue;
        };
        let value_type = gv.get_value_type();
        let Ok(t) = BasicTypeEnum::try_from(value_type) else {
            continue;
        };
        let lo = gv.as_pointer_value();
        // SAFETY: one past the variable, the end of its range.
        let hi = unsafe { lo.const_gep(t, &[i64t.const_int(1, false)]) };
        let lo = b.build_ptr_to_int(lo, i64t, "")?;
        let hi = b.build_ptr_to_int(hi, i64t, "")?;
        let above = b.build_int_compare(inkwell::IntPredicate::UGE, a, lo, "")?;
        let below = b.build_int_compare(inkwell::IntPredicate::ULT, a, hi, "")?;
        let inside = b.build_and(above, below, "")?;
        let next = cx.append_basic_block(f, "next");
        b.build_conditional_branch(inside, global, next)?;
        b.position_at_end(next);
    }
    let r = b.build_call(hook, &[ctx.into(), p.into()], "")?;
    let inkwell::values::ValueKind::Basic(r) = r.try_as_basic_value() else {
        return Err(LowerError::malformed(
            "the storage-class hook returns nothing",
        ));
    };
    b.build_return(Some(&r))?;
    Ok(f)
}

/// The layout of an operand that is an access chain ending inside a matrix member laid out
/// otherwise than its value (`RowMajor`, padded columns).
/// The bool vector component an access chain result addresses, if it is one (see
/// `FnCx::bool_lanes`).
fn bool_lane<'ctx>(
    fx: &FnCx<'_, 'ctx>,
    id: Id,
) -> Option<(PointerValue<'ctx>, Handle<Type>, IntValue<'ctx>)> {
    match crate::ir::Value::from_id(id) {
        Some(crate::ir::Value::Op(h)) => fx.bool_lanes.get(&h).copied(),
        _ => None,
    }
}

pub(crate) fn layout_ptr<'ctx>(fx: &FnCx<'_, 'ctx>, id: Id) -> Option<LayoutPtr<'ctx>> {
    match crate::ir::Value::from_id(id) {
        Some(crate::ir::Value::Op(h)) => fx.layout_ptrs.get(&h).copied(),
        _ => None,
    }
}

/// `Volatile` of a memory-access mask, for the per-component accesses of a RowMajor column.
fn apply_volatile(i: InstructionValue<'_>, access: Option<&MemoryAccessArgs>) -> Result<()> {
    if access.is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile)) {
        i.set_volatile(true)
            .map_err(|e| LowerError::malformed(format!("volatile: {e}")))?;
    }
    Ok(())
}

impl<'ctx> Lowerer<'_, 'ctx> {
    /// The first slot and element count of an array of blocks, when `id` is one.
    pub(crate) fn resource_array(&self, id: crate::grammar::Id) -> Option<(u32, u32)> {
        use super::super::globals::Place;
        match crate::ir::Value::from_id(id)? {
            crate::ir::Value::Global(h) => match self.placement.places.get(h.index()).copied()?? {
                Place::ResourceArray { first, count } => Some((first, count)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The slot of element `index` of the array of blocks at slot `first` (an i64).
    fn element_slot(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        first: u32,
        index: crate::grammar::Id,
    ) -> Result<inkwell::values::IntValue<'ctx>> {
        let BasicValueEnum::IntValue(i) = self.id(fx, index)? else {
            return Err(LowerError::malformed(
                "an array index that is not an integer",
            ));
        };
        let i64t = self.cx.i64_type();
        let i = self.b.build_int_z_extend_or_bit_cast(i, i64t, "")?;
        Ok(self
            .b
            .build_int_add(i64t.const_int(first.into(), false), i, "")?)
    }
}

/// An access chain into an array of blocks: its first index picks the element's buffer
/// (`ctx.resources[first + i]`); the rest index into that block.
fn element_chain<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    base: crate::grammar::Id,
    indexes: &[crate::grammar::Id],
    inbounds: bool,
) -> Result<inkwell::values::PointerValue<'ctx>> {
    let (first, _) = l
        .resource_array(base)
        .ok_or_else(|| LowerError::malformed("not an array of blocks"))?;
    let (&i0, rest) = indexes
        .split_first()
        .ok_or_else(|| LowerError::unsupported("an access chain to a whole array of blocks"))?;
    let slot = l.element_slot(fx, first, i0)?;
    let ptr = l.cx.ptr_type(inkwell::AddressSpace::default());
    let table = l.ctx_ptr_field(&l.b, fx.ctx, crate::lower::abi::offsets::RESOURCES)?;
    // SAFETY: one pointer per slot, as the runner provides; SPIR-V keeps the index in bounds.
    let p = unsafe { l.b.build_gep(ptr, table, &[slot], "")? };
    let buffer = l.b.build_load(ptr, p, "")?.into_pointer_value();
    if rest.is_empty() {
        return Ok(buffer);
    }
    let array = l.pointee_of(fx, base)?;
    let block = match l.spv_type(array)? {
        Type::Array { element, .. } => *element,
        _ => return Err(LowerError::malformed("an array of blocks of no array type")),
    };
    let t = l.basic(block)?;
    let mut idx = vec![l.cx.i32_type().const_zero()];
    if l.chain(fx, block, None, rest, &mut idx)?.is_some() {
        return Err(LowerError::unsupported(
            "a RowMajor or padded matrix member in an array of blocks",
        ));
    }
    // SAFETY: GEP computes an address only; SPIR-V's rules keep chains in bounds.
    Ok(unsafe { gep(l, inbounds, t, buffer, &idx)? })
}

/// The first slot of the array of blocks and the element index of an op that is an access
/// chain with one index into an array of blocks.
fn element_of_array(
    l: &Lowerer<'_, '_>,
    fx: &FnCx<'_, '_>,
    h: crate::ir::Handle<Op>,
) -> Option<(u32, crate::grammar::Id)> {
    use Instruction as I;
    let (base, indexes) = match &fx.f.ops.get(h)?.inst {
        I::AccessChain(c) => (c.base, &c.indexes),
        I::InBoundsAccessChain(c) => (c.base, &c.indexes),
        _ => return None,
    };
    let (first, _) = l.resource_array(base)?;
    match indexes[..] {
        [i] => Some((first, i)),
        _ => None,
    }
}

/// `OpArrayLength`: the element count of a buffer's trailing runtime array, from the byte size
/// of the buffer bound to the variable's slot (`ctx.resource_sizes`, docs/lowering-abi.md):
/// (size − the member's Offset) / its ArrayStride, 0 when the buffer ends before the member.
fn array_length<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    a: &crate::grammar::OpArrayLength,
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use super::super::globals::Place;
    let i64t = l.cx.i64_type();
    // An element of an array of blocks (`&b[i]`) has the slot of that element.
    let element = match crate::ir::Value::from_id(a.structure) {
        Some(crate::ir::Value::Op(h)) => element_of_array(l, fx, h),
        _ => None,
    };
    let slot = match crate::ir::Value::from_id(a.structure) {
        _ if element.is_some() => {
            let Some((first, index)) = element else {
                return Err(LowerError::malformed("an element of an array of blocks"));
            };
            l.element_slot(fx, first, index)?
        }
        Some(crate::ir::Value::Global(h)) => {
            match l.placement.places.get(h.index()).copied().flatten() {
                Some(Place::Resource(slot)) => i64t.const_int(slot.into(), false),
                _ => {
                    return Err(LowerError::unsupported(
                        "OpArrayLength of a variable that is not a descriptor-bound buffer",
                    ))
                }
            }
        }
        // An access chain (a block in an array of blocks), a function parameter, a copy...:
        // the runner has one size per descriptor slot, and a slot per variable.
        _ => {
            return Err(LowerError::unsupported(
                "OpArrayLength through a pointer other than the buffer variable itself \
                 (a block of an array of blocks, a function parameter or a copied pointer); \
                 the runner knows only each bound variable's size",
            ))
        }
    };
    let pointee = l.pointee_of(fx, a.structure)?;
    let Type::Struct(s) = l.spv_type(pointee)? else {
        return Err(LowerError::malformed("OpArrayLength of a non-struct"));
    };
    let member = s
        .members
        .get(a.array_member as usize)
        .ok_or_else(|| LowerError::malformed("OpArrayLength member out of range"))?;
    let offset = u64::from(member.offset.unwrap_or(0));
    let (element, stride) = match l.spv_type(member.ty)? {
        Type::RuntimeArray { element, stride } => (*element, *stride),
        _ => {
            return Err(LowerError::malformed(
                "OpArrayLength of a member that is not a runtime array",
            ))
        }
    };
    let stride = match stride {
        Some(s) => u64::from(s),
        None => l
            .ty(element)?
            .size
            .ok_or_else(|| LowerError::malformed("a runtime array of unsized elements"))?,
    };
    if stride == 0 {
        return Err(LowerError::malformed("a runtime array with a zero stride"));
    }
    let BasicTypeEnum::IntType(rt) = result else {
        return Err(LowerError::malformed(
            "OpArrayLength with a non-integer result",
        ));
    };
    let table = l.ctx_ptr_field(&l.b, fx.ctx, crate::lower::abi::offsets::RESOURCE_SIZES)?;
    // SAFETY: one size per slot, as the runner provides.
    let p = unsafe { l.b.build_gep(i64t, table, &[slot], "")? };
    let size = l.b.build_load(i64t, p, "")?.into_int_value();
    let off = i64t.const_int(offset, false);
    let after =
        l.b.build_int_compare(inkwell::IntPredicate::UGT, size, off, "")?;
    let rest = l.b.build_int_sub(size, off, "")?;
    let rest =
        l.b.build_select(after, rest, i64t.const_zero(), "")?
            .into_int_value();
    let n =
        l.b.build_int_unsigned_div(rest, i64t.const_int(stride, false), "")?;
    Ok(if rt.get_bit_width() < 64 {
        l.b.build_int_truncate(n, rt, "")?.into()
    } else {
        n.into()
    })
}
