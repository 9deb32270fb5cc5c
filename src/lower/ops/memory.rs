//! Memory: function variables (`alloca` in the prologue, initializer stored where the variable
//! is declared), loads and stores with their memory-access masks (`Volatile` → volatile,
//! `Aligned` → align, `Nontemporal` → `!nontemporal`), access chains (GEPs through the
//! lowered layout: struct members by field index, padded array elements), copies, and the
//! generic-pointer casts (one address space: identities).

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::{Id, Instruction, MemoryAccess, MemoryAccessArgs, StorageClass};
use crate::ir::{Handle, Op, Type};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, InstructionValue, IntValue, PointerValue};

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
    pub(crate) fn pointee_of(&self, fx: &FnCx<'a, 'ctx>, id: Id) -> Result<Handle<Type>> {
        let t = self.type_of_id(fx, id)?;
        match self.spv_type(t)? {
            Type::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(LowerError::malformed(
                "a pointer operand of non-pointer type",
            )),
        }
    }

    fn ptr_operand(&mut self, fx: &mut FnCx<'a, 'ctx>, id: Id) -> Result<PointerValue<'ctx>> {
        match self.id(fx, id)? {
            BasicValueEnum::PointerValue(p) => Ok(p),
            _ => Err(LowerError::malformed(
                "a pointer operand that is not a pointer",
            )),
        }
    }

    /// GEP indices (after the first) for an access chain from `base` through `indexes`.
    fn chain(
        &mut self,
        fx: &mut FnCx<'a, 'ctx>,
        base: Handle<Type>,
        indexes: &[Id],
        out: &mut Vec<IntValue<'ctx>>,
    ) -> Result<bool> {
        let i32t = self.cx.i32_type();
        let mut cur = base;
        // Inside a RowMajor matrix: the column index waits for the row index.
        let mut row_major = false;
        let mut column: Option<IntValue<'ctx>> = None;
        for &ix in indexes {
            if row_major {
                let BasicValueEnum::IntValue(iv) = self.id(fx, ix)? else {
                    return Err(LowerError::malformed(
                        "an access chain index that is not an integer",
                    ));
                };
                match column.take() {
                    None => column = Some(iv),
                    Some(c) => {
                        // Element (column c, row r) is row r's component c.
                        out.push(iv);
                        out.push(c);
                        row_major = false;
                        cur = match self.spv_type(cur)? {
                            Type::Matrix { column, .. } => match self.spv_type(*column)? {
                                Type::Vector { component, .. } => *component,
                                _ => return Err(LowerError::malformed("a matrix column")),
                            },
                            _ => return Err(LowerError::malformed("a RowMajor member")),
                        };
                        continue;
                    }
                }
                continue;
            }

            let t = self.spv_type(cur)?.clone();
            let info = self.ty(cur)?;
            let v = self.id(fx, ix)?;
            let BasicValueEnum::IntValue(iv) = v else {
                return Err(LowerError::malformed(
                    "an access chain index that is not an integer",
                ));
            };
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
                    row_major = info.row_major.get(k as usize).copied().unwrap_or(false);
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
        if column.is_some() {
            return Err(LowerError::unsupported(
                "a pointer to a column of a RowMajor matrix (its components are not adjacent)",
            ));
        }
        // `true`: the chain ends at a RowMajor matrix, stored as rows.
        Ok(row_major)
    }
}

/// Lowers a memory op.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'a, 'ctx>,
    op: &'a Op,
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
            let p = l.ptr_operand(fx, ld.pointer)?;
            let rm = is_row_major_ptr(fx, ld.pointer);
            let t = if rm {
                super::matrix::transposed_type(need()?)?
            } else {
                need()?
            };
            let v = crate::lower::llvm::load(&l.b, &l.td, t, p, op.name().unwrap_or(""))?;
            if let Some(i) = v.as_instruction_value() {
                apply_access(l.cx, i, ld.memory_access.as_ref())?;
            }
            if rm {
                super::matrix::transpose_to(l.cx, &l.b, v, need()?)?
            } else {
                v
            }
        }
        I::Store(st) => {
            let p = l.ptr_operand(fx, st.pointer)?;
            let mut v = l.id(fx, st.object)?;
            if is_row_major_ptr(fx, st.pointer) {
                let rows = super::matrix::transposed_type(v.get_type())?;
                v = super::matrix::transpose_to(l.cx, &l.b, v, rows)?;
            }
            let i = crate::lower::llvm::store(&l.b, &l.td, p, v)?;
            apply_access(l.cx, i, st.memory_access.as_ref())?;
            return Ok(None);
        }
        I::AccessChain(crate::grammar::OpAccessChain { base, indexes, .. })
        | I::InBoundsAccessChain(crate::grammar::OpInBoundsAccessChain { base, indexes, .. }) => {
            if is_row_major_ptr(fx, *base) {
                return Err(LowerError::unsupported(
                    "an access chain from a pointer to a RowMajor matrix",
                ));
            }
            let p = l.ptr_operand(fx, *base)?;
            let pointee = l.pointee_of(fx, *base)?;
            let t = l.basic(pointee)?;
            let mut idx = vec![l.cx.i32_type().const_zero()];
            if l.chain(fx, pointee, indexes, &mut idx)? {
                if let Some(crate::ir::Value::Op(h)) =
                    op.inst.result_id().and_then(crate::ir::Value::from_id)
                {
                    fx.row_major_ptrs.insert(h);
                }
            }
            // SAFETY: GEP computes an address only; SPIR-V's rules keep chains in bounds.
            unsafe { l.b.build_gep(t, p, &idx, "")? }.into()
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
            if is_row_major_ptr(fx, *base) || l.chain(fx, pointee, indexes, &mut idx)? {
                return Err(LowerError::unsupported(
                    "a pointer access chain to or from a RowMajor matrix",
                ));
            }
            // SAFETY: as for access chains.
            unsafe { l.b.build_gep(t, p, &idx, "")? }.into()
        }
        I::CopyMemory(c) => {
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
        I::GenericCastToPtrExplicit(c) => l.id(fx, c.pointer)?,
        _ => return Err(LowerError::unsupported("this memory op")),
    }))
}

/// Whether an operand is an access chain to a `RowMajor` matrix.
pub(crate) fn is_row_major_ptr(fx: &FnCx<'_, '_>, id: Id) -> bool {
    matches!(crate::ir::Value::from_id(id), Some(crate::ir::Value::Op(h)) if fx.row_major_ptrs.contains(&h))
}

/// `OpArrayLength`: the element count of a buffer's trailing runtime array, from the byte size
/// of the buffer bound to the variable's slot (`ctx.resource_sizes`, docs/lowering-abi.md):
/// (size − the member's Offset) / its ArrayStride, 0 when the buffer ends before the member.
fn array_length<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'a, 'ctx>,
    a: &crate::grammar::OpArrayLength,
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use super::super::globals::Place;
    let slot = match crate::ir::Value::from_id(a.structure) {
        Some(crate::ir::Value::Global(h)) => {
            match l.placement.places.get(h.index()).copied().flatten() {
                Some(Place::Resource(slot)) => slot,
                _ => {
                    return Err(LowerError::unsupported(
                        "OpArrayLength of a variable that is not a descriptor-bound buffer",
                    ))
                }
            }
        }
        _ => {
            return Err(LowerError::unsupported(
                "OpArrayLength through a pointer other than the buffer variable",
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
    let i64t = l.cx.i64_type();
    let table = l.ctx_ptr_field(&l.b, fx.ctx, crate::run::context::offsets::RESOURCE_SIZES)?;
    // SAFETY: one size per slot, as the runner provides.
    let p = unsafe {
        l.b.build_gep(i64t, table, &[i64t.const_int(slot.into(), false)], "")?
    };
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
