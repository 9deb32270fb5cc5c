//! OpenCL's asynchronous work-group copies, made synchronous: every invocation that reaches
//! `OpGroupAsyncCopy` copies all the elements itself (all invocations of the group must reach
//! it with the same operands, so each writes the same values), and the returned event is null;
//! `OpGroupWaitEvents` has nothing left to wait for. The stride applies to the side that is
//! not Workgroup memory, as OpenCL's `async_work_group_strided_copy` says.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::{Instruction, StorageClass};
use crate::ir::{Op, Type};
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::AddressSpace;
use inkwell::IntPredicate;

/// Lowers `OpGroupAsyncCopy` and `OpGroupWaitEvents`.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    let c = match &op.inst {
        Instruction::GroupWaitEvents(_) => return Ok(None),
        Instruction::GroupAsyncCopy(c) => c,
        _ => return Err(LowerError::unsupported("this group copy")),
    };
    let ptr = |v: BasicValueEnum<'ctx>| -> Result<PointerValue<'ctx>> {
        match v {
            BasicValueEnum::PointerValue(p) => Ok(p),
            _ => Err(LowerError::malformed(
                "a copy operand that is not a pointer",
            )),
        }
    };
    let int = |v: BasicValueEnum<'ctx>| -> Result<IntValue<'ctx>> {
        match v {
            BasicValueEnum::IntValue(i) => Ok(i),
            _ => Err(LowerError::malformed(
                "a count or stride that is not an integer",
            )),
        }
    };
    let dst = ptr(l.id(fx, c.destination)?)?;
    let src = ptr(l.id(fx, c.source)?)?;
    let n = int(l.id(fx, c.num_elements)?)?;
    let stride = int(l.id(fx, c.stride)?)?;
    let dst_ty = l.type_of_id(fx, c.destination)?;
    let (dst_class, elem) = match l.spv_type(dst_ty)? {
        Type::Pointer {
            storage_class,
            pointee,
            ..
        } => (*storage_class, *pointee),
        _ => return Err(LowerError::malformed("a destination that is not a pointer")),
    };
    let et = l.basic(elem)?;
    let i64t = l.cx.i64_type();
    let n = l.b.build_int_z_extend_or_bit_cast(n, i64t, "")?;
    let stride = l.b.build_int_z_extend_or_bit_cast(stride, i64t, "")?;
    let (dst_step, src_step) = if dst_class == StorageClass::Workgroup {
        (i64t.const_int(1, false), stride)
    } else {
        (stride, i64t.const_int(1, false))
    };
    // for (i = 0; i < n; i++) dst[i * dst_step] = src[i * src_step];
    let here =
        l.b.get_insert_block()
            .ok_or_else(|| LowerError::malformed("no insertion point"))?;
    let head = l.cx.append_basic_block(fx.llf, "copy.head");
    let body = l.cx.append_basic_block(fx.llf, "copy.body");
    let done = l.cx.append_basic_block(fx.llf, "copy.done");
    l.b.build_unconditional_branch(head)?;
    l.b.position_at_end(head);
    let i = l.b.build_phi(i64t, "i")?;
    i.add_incoming(&[(&i64t.const_zero(), here)]);
    let iv = i.as_basic_value().into_int_value();
    let more = l.b.build_int_compare(IntPredicate::ULT, iv, n, "")?;
    l.b.build_conditional_branch(more, body, done)?;
    l.b.position_at_end(body);
    let di = l.b.build_int_mul(iv, dst_step, "")?;
    let si = l.b.build_int_mul(iv, src_step, "")?;
    // SAFETY: the element addresses the copy's operands describe.
    let (dp, sp) = unsafe {
        (
            l.b.build_gep(et, dst, &[di], "")?,
            l.b.build_gep(et, src, &[si], "")?,
        )
    };
    let v = crate::lower::llvm::load(&l.b, &l.td, et, sp, "")?;
    crate::lower::llvm::store(&l.b, &l.td, dp, v)?;
    let next = l.b.build_int_add(iv, i64t.const_int(1, false), "")?;
    i.add_incoming(&[(&next, body)]);
    l.b.build_unconditional_branch(head)?;
    l.b.position_at_end(done);
    Ok(Some(
        l.cx.ptr_type(AddressSpace::default()).const_null().into(),
    ))
}
