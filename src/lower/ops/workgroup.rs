//! Work-group collectives: `OpGroupAll`, `OpGroupAny`, `OpGroupBroadcast` and the `OpGroup*`
//! reductions and scans with Workgroup execution scope call the runner's
//! `i64 @spvkit_rt_group(ptr %ctx, i32 %op, i64 %value, i64 %x, i64 %y, i64 %z)`
//! (`docs/lowering-abi.md`; the operation word is [`crate::lower::abi::group::encode`]). The runner
//! meets the workgroup's invocations there as at a barrier, so the function counts as one that
//! reaches a barrier. Scalars only, as OpenCL C's `work_group_*` functions take them.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{float_width, int_ty};
use super::super::Lowerer;
use super::operand_values;
use crate::grammar::{GroupOperation, Instruction, Opcode};
use crate::ir::Op;
use crate::lower::abi::group as g;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::AddressSpace;

use crate::lower::abi::GROUP_HOOK;

/// The operation word's `operation` and `kind` for an opcode (the kind of `All`, `Any` and
/// `Broadcast` comes from the value).
fn operation(op: Opcode) -> Option<(u32, Option<u32>)> {
    use Opcode as O;
    Some(match op {
        O::GroupBroadcast => (g::BROADCAST, None),
        O::GroupAll => (g::ALL, Some(g::UNSIGNED)),
        O::GroupAny => (g::ANY, Some(g::UNSIGNED)),
        O::GroupIAdd => (g::ADD, Some(g::UNSIGNED)),
        O::GroupFAdd => (g::ADD, Some(g::FLOAT)),
        O::GroupUMin => (g::MIN, Some(g::UNSIGNED)),
        O::GroupSMin => (g::MIN, Some(g::SIGNED)),
        O::GroupFMin => (g::MIN, Some(g::FLOAT)),
        O::GroupUMax => (g::MAX, Some(g::UNSIGNED)),
        O::GroupSMax => (g::MAX, Some(g::SIGNED)),
        O::GroupFMax => (g::MAX, Some(g::FLOAT)),
        _ => return None,
    })
}

/// The `group_operation` of a reduction or scan (0 for the others).
fn group_operation(inst: &Instruction) -> Result<u32> {
    match super::subgroup::group_operation(inst) {
        None | Some(GroupOperation::Reduce) => Ok(g::REDUCE),
        Some(GroupOperation::InclusiveScan) => Ok(g::INCLUSIVE_SCAN),
        Some(GroupOperation::ExclusiveScan) => Ok(g::EXCLUSIVE_SCAN),
        Some(_) => Err(LowerError::unsupported(
            "a work-group collective with a clustered or partitioned group operation",
        )),
    }
}

/// Lowers a work-group collective whose result has type `r`.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    opcode: Opcode,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let (operation, kind) =
        operation(opcode).ok_or_else(|| LowerError::unsupported("this work-group collective"))?;
    let vals = operand_values(&op.inst);
    let value = *vals
        .get(1)
        .ok_or_else(|| LowerError::malformed("a work-group collective without a value"))?;
    let value = l.val(fx, value)?;
    let i64t = l.cx.i64_type();
    // The value as the low bits of an i64, and the kind and width of its type.
    let (bits, kind, width) = match value {
        BasicValueEnum::IntValue(v) => {
            let w = v.get_type().get_bit_width();
            let kind = kind.unwrap_or(g::UNSIGNED);
            (l.b.build_int_z_extend_or_bit_cast(v, i64t, "")?, kind, w)
        }
        BasicValueEnum::FloatValue(v) => {
            let w = float_width(v.get_type().into());
            let as_int = l.b.build_bit_cast(v, int_ty(l.cx, w)?, "")?;
            let as_int = as_int.into_int_value();
            (
                l.b.build_int_z_extend_or_bit_cast(as_int, i64t, "")?,
                g::FLOAT,
                w,
            )
        }
        _ => {
            return Err(LowerError::unsupported(
                "a work-group collective of a vector or composite",
            ))
        }
    };
    let id = if opcode == Opcode::GroupBroadcast {
        let id = *vals
            .get(2)
            .ok_or_else(|| LowerError::malformed("a broadcast without a local id"))?;
        let id = l.val(fx, id)?;
        local_id(l, id)?
    } else {
        [i64t.const_zero(); 3]
    };
    let word = g::encode(operation, group_operation(&op.inst)?, kind, width);
    let ptr = l.cx.ptr_type(AddressSpace::default());
    let hook = super::super::llvm::external(
        &l.llm,
        GROUP_HOOK,
        i64t.fn_type(
            &[
                ptr.into(),
                l.cx.i32_type().into(),
                i64t.into(),
                i64t.into(),
                i64t.into(),
                i64t.into(),
            ],
            false,
        ),
    )?;
    let call = l.b.build_call(
        hook,
        &[
            fx.ctx.into(),
            l.cx.i32_type().const_int(u64::from(word), false).into(),
            bits.into(),
            id[0].into(),
            id[1].into(),
            id[2].into(),
        ],
        "",
    )?;
    let inkwell::values::ValueKind::Basic(BasicValueEnum::IntValue(result)) =
        call.try_as_basic_value()
    else {
        return Err(LowerError::malformed("the group hook returns nothing"));
    };
    // Its invocations must run concurrently, as for a barrier.
    if let Some(slot) = l.barrier_fns.get_mut(fx.fh.index()) {
        *slot = true;
    }
    match r {
        BasicTypeEnum::IntType(t) => Ok(l.b.build_int_truncate_or_bit_cast(result, t, "")?.into()),
        BasicTypeEnum::FloatType(t) => {
            let w = float_width(t.into());
            let narrow =
                l.b.build_int_truncate_or_bit_cast(result, int_ty(l.cx, w)?, "")?;
            Ok(l.b.build_bit_cast(narrow, t, "")?)
        }
        _ => Err(LowerError::malformed(
            "a work-group collective whose result is not a scalar",
        )),
    }
}

/// The x, y, z of a broadcast's local id (a scalar or a vector of 2 or 3 integers), as i64.
fn local_id<'ctx>(
    l: &mut Lowerer<'_, 'ctx>,
    id: BasicValueEnum<'ctx>,
) -> Result<[IntValue<'ctx>; 3]> {
    let i64t = l.cx.i64_type();
    let mut out = [i64t.const_zero(); 3];
    let widen = |l: &mut Lowerer<'_, 'ctx>, v: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
        Ok(l.b.build_int_z_extend_or_bit_cast(v, i64t, "")?)
    };
    match id {
        BasicValueEnum::IntValue(v) => out[0] = widen(l, v)?,
        BasicValueEnum::VectorValue(v) if v.get_type().get_size() <= 3 => {
            for (k, slot) in out
                .iter_mut()
                .enumerate()
                .take(v.get_type().get_size() as usize)
            {
                let e =
                    l.b.build_extract_element(v, l.cx.i32_type().const_int(k as u64, false), "")?;
                let BasicValueEnum::IntValue(e) = e else {
                    return Err(LowerError::malformed("a local id that is not integers"));
                };
                *slot = widen(l, e)?;
            }
        }
        _ => return Err(LowerError::malformed("a local id that is not integers")),
    }
    Ok(out)
}
