//! Subgroup (GroupNonUniform) operations under spvkit's subgroup model: **every subgroup has
//! exactly one invocation** (`SubgroupSize` 1, `SubgroupLocalInvocationId` 0). So `Elect` is
//! true, broadcasts and shuffles return the value itself, `All`/`Any` return the predicate,
//! `AllEqual` is true, reductions and inclusive scans return the value, exclusive scans the
//! operation's identity, and `Ballot` has only bit 0 (the predicate).

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{null, splat_float, splat_int, undef};
use super::super::Lowerer;
use super::operand_values;
use crate::grammar::{GroupOperation, Instruction, Opcode};
use crate::ir::Op;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The identity of a reduction (for exclusive scans): `0`, `1`, the type's extreme, all ones.
#[derive(Clone, Copy)]
enum Identity {
    Zero,
    One,
    AllOnes,
    SMin,
    SMax,
    UMax,
    FInf,
    FNegInf,
}

fn arithmetic(op: Opcode) -> Option<Identity> {
    use Opcode as O;
    Some(match op {
        O::GroupNonUniformIAdd
        | O::GroupNonUniformFAdd
        | O::GroupNonUniformBitwiseOr
        | O::GroupNonUniformBitwiseXor
        | O::GroupNonUniformLogicalOr
        | O::GroupNonUniformLogicalXor => Identity::Zero,
        O::GroupIAdd | O::GroupFAdd | O::GroupUMax => Identity::Zero,
        O::GroupFMin => Identity::FInf,
        O::GroupUMin => Identity::UMax,
        O::GroupSMin => Identity::SMax,
        O::GroupFMax => Identity::FNegInf,
        O::GroupSMax => Identity::SMin,
        O::GroupNonUniformIMul | O::GroupNonUniformFMul => Identity::One,
        O::GroupNonUniformBitwiseAnd | O::GroupNonUniformLogicalAnd => Identity::AllOnes,
        O::GroupNonUniformSMin => Identity::SMax,
        O::GroupNonUniformUMin => Identity::UMax,
        O::GroupNonUniformSMax => Identity::SMin,
        O::GroupNonUniformUMax => Identity::Zero,
        O::GroupNonUniformFMin => Identity::FInf,
        O::GroupNonUniformFMax => Identity::FNegInf,
        _ => return None,
    })
}

/// The group operation of a reduction or scan (GroupNonUniform and OpenCL `OpGroup*`).
pub(crate) fn group_operation(inst: &Instruction) -> Option<GroupOperation> {
    use Instruction as I;
    Some(match inst {
        I::GroupNonUniformIAdd(o) => o.operation,
        I::GroupNonUniformFAdd(o) => o.operation,
        I::GroupNonUniformIMul(o) => o.operation,
        I::GroupNonUniformFMul(o) => o.operation,
        I::GroupNonUniformSMin(o) => o.operation,
        I::GroupNonUniformUMin(o) => o.operation,
        I::GroupNonUniformFMin(o) => o.operation,
        I::GroupNonUniformSMax(o) => o.operation,
        I::GroupNonUniformUMax(o) => o.operation,
        I::GroupNonUniformFMax(o) => o.operation,
        I::GroupNonUniformBitwiseAnd(o) => o.operation,
        I::GroupNonUniformBitwiseOr(o) => o.operation,
        I::GroupNonUniformBitwiseXor(o) => o.operation,
        I::GroupNonUniformLogicalAnd(o) => o.operation,
        I::GroupNonUniformLogicalOr(o) => o.operation,
        I::GroupNonUniformLogicalXor(o) => o.operation,
        I::GroupIAdd(o) => o.operation,
        I::GroupFAdd(o) => o.operation,
        I::GroupFMin(o) => o.operation,
        I::GroupUMin(o) => o.operation,
        I::GroupSMin(o) => o.operation,
        I::GroupFMax(o) => o.operation,
        I::GroupUMax(o) => o.operation,
        I::GroupSMax(o) => o.operation,
        _ => return None,
    })
}

fn identity(id: Identity, t: BasicTypeEnum<'_>) -> Result<BasicValueEnum<'_>> {
    let s = super::super::llvm::scalar_of(t);
    let width = if s.is_int_type() {
        s.into_int_type().get_bit_width()
    } else {
        0
    };
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    Ok(match id {
        Identity::Zero => null(t),
        Identity::One if s.is_float_type() => splat_float(t, 1.0)?,
        Identity::One => splat_int(t, 1)?,
        Identity::AllOnes | Identity::UMax => splat_int(t, mask)?,
        Identity::SMax => splat_int(t, mask >> 1)?,
        Identity::SMin => splat_int(t, (mask >> 1) + 1)?,
        Identity::FInf => splat_float(t, f64::INFINITY)?,
        Identity::FNegInf => splat_float(t, f64::NEG_INFINITY)?,
    })
}

/// Lowers a subgroup op.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let opcode = op
        .inst
        .opcode()
        .ok_or_else(|| LowerError::unsupported("unknown op"))?;
    // Operand 0 is the execution scope; operand 1 the value or predicate.
    let vals = operand_values(&op.inst);
    let value =
        |l: &mut Lowerer<'a, 'ctx>, fx: &mut FnCx<'_, 'ctx>| -> Result<BasicValueEnum<'ctx>> {
            let v = *vals
                .get(1)
                .ok_or_else(|| LowerError::malformed("a subgroup op without a value"))?;
            l.val(fx, v)
        };
    use Opcode as O;
    // The OpenCL work-group and sub-group collectives (`OpGroup*`): with sub-group scope the
    // group is the one invocation; with Workgroup scope the runner meets them (`workgroup`).
    if matches!(
        opcode,
        O::GroupAll
            | O::GroupAny
            | O::GroupBroadcast
            | O::GroupIAdd
            | O::GroupFAdd
            | O::GroupFMin
            | O::GroupUMin
            | O::GroupSMin
            | O::GroupFMax
            | O::GroupUMax
            | O::GroupSMax
    ) {
        let scope = *vals
            .first()
            .ok_or_else(|| LowerError::malformed("a group op without a scope"))?;
        let BasicValueEnum::IntValue(s) = l.val(fx, scope)? else {
            return Err(LowerError::malformed("a scope that is not an integer"));
        };
        const WORKGROUP: u64 = crate::grammar::Scope::Workgroup as u64;
        const SUBGROUP: u64 = crate::grammar::Scope::Subgroup as u64;
        match s.get_zero_extended_constant() {
            Some(WORKGROUP) => return super::workgroup::lower(l, fx, op, opcode, r),
            Some(SUBGROUP) => {}
            _ => {
                return Err(LowerError::unsupported(
                    "a collective over more than a workgroup (OpGroup* with Device scope)",
                ))
            }
        }
    }
    if let Some(id) = arithmetic(opcode) {
        let v = value(l, fx)?;
        return match group_operation(&op.inst) {
            Some(GroupOperation::ExclusiveScan) => identity(id, r),
            Some(
                GroupOperation::Reduce
                | GroupOperation::InclusiveScan
                | GroupOperation::ClusteredReduce,
            ) => Ok(v),
            _ => Err(LowerError::unsupported("this group operation")),
        };
    }
    // The KHR forms have no execution-scope operand.
    let khr_value =
        |l: &mut Lowerer<'a, 'ctx>, fx: &mut FnCx<'_, 'ctx>| -> Result<BasicValueEnum<'ctx>> {
            let v = *vals
                .first()
                .ok_or_else(|| LowerError::malformed("a subgroup op without a value"))?;
            l.val(fx, v)
        };
    // Bit 0 of a ballot's first component: the one invocation's bit.
    let ballot_bit0 = |l: &mut Lowerer<'a, 'ctx>,
                       v: BasicValueEnum<'ctx>|
     -> Result<inkwell::values::IntValue<'ctx>> {
        let BasicValueEnum::VectorValue(v) = v else {
            return Err(LowerError::malformed("a ballot that is not a vector"));
        };
        let BasicValueEnum::IntValue(x) =
            l.b.build_extract_element(v, l.cx.i32_type().const_zero(), "")?
        else {
            return Err(LowerError::malformed("a ballot of non-integers"));
        };
        if x.get_type().get_bit_width() < 2 {
            return Err(LowerError::malformed("a ballot of booleans"));
        }
        Ok(l.b.build_and(x, x.get_type().const_int(1, false), "")?)
    };
    match opcode {
        O::SubgroupAllEqualKHR => Ok(l.cx.bool_type().const_int(1, false).into()),
        O::SubgroupFirstInvocationKHR
        | O::SubgroupAllKHR
        | O::SubgroupAnyKHR
        | O::SubgroupReadInvocationKHR => khr_value(l, fx),
        O::SubgroupBallotKHR => {
            let p = khr_value(l, fx)?;
            ballot(l, p, r)
        }
        O::GroupNonUniformInverseBallot => {
            let v = value(l, fx)?;
            let bit = ballot_bit0(l, v)?;
            Ok(l.b.build_int_truncate(bit, l.cx.bool_type(), "")?.into())
        }
        O::GroupNonUniformBallotBitExtract => {
            let v = value(l, fx)?;
            let bit = ballot_bit0(l, v)?;
            let idx = vals
                .get(2)
                .copied()
                .ok_or_else(|| LowerError::malformed("an index"))?;
            let BasicValueEnum::IntValue(idx) = l.val(fx, idx)? else {
                return Err(LowerError::malformed("an index that is not an integer"));
            };
            let zero = l.b.build_int_compare(
                inkwell::IntPredicate::EQ,
                idx,
                idx.get_type().const_zero(),
                "",
            )?;
            let set = l.b.build_int_truncate(bit, l.cx.bool_type(), "")?;
            Ok(l.b.build_and(zero, set, "")?.into())
        }
        O::GroupNonUniformBallotBitCount => {
            let v = value(l, fx)?;
            let bit = ballot_bit0(l, v)?;
            let op = match &op.inst {
                Instruction::GroupNonUniformBallotBitCount(b) => b.operation,
                _ => GroupOperation::Reduce,
            };
            let bit = super::super::llvm::int_resize(&l.b, bit.into(), r, false)?;
            Ok(if op == GroupOperation::ExclusiveScan {
                null(r)
            } else {
                bit
            })
        }
        O::GroupNonUniformBallotFindLSB | O::GroupNonUniformBallotFindMSB => {
            // The one invocation's bit is bit 0 (or the result is undefined).
            Ok(null(r))
        }
        O::GroupNonUniformElect | O::GroupNonUniformAllEqual => {
            Ok(l.cx.bool_type().const_int(1, false).into())
        }
        O::GroupNonUniformBallot => {
            let p = value(l, fx)?;
            ballot(l, p, r)
        }
        _ => {
            let v = value(l, fx)?;
            if v.get_type() != r {
                return Ok(undef(r));
            }
            Ok(v)
        }
    }
}

/// A ballot of one invocation: `(predicate, 0, 0, 0)`.
fn ballot<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    p: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let BasicValueEnum::IntValue(p) = p else {
        return Err(LowerError::malformed("a ballot of a non-boolean"));
    };
    if p.get_type().get_bit_width() != 1 {
        return Err(LowerError::malformed("a ballot of a non-boolean"));
    }
    let BasicTypeEnum::VectorType(vt) = r else {
        return Err(LowerError::malformed("a ballot of a non-vector type"));
    };
    let et = match vt.get_element_type() {
        BasicTypeEnum::IntType(t) if t.get_bit_width() > 1 => t,
        _ => return Err(LowerError::malformed("a ballot of a non-integer type")),
    };
    let x = l.b.build_int_z_extend(p, et, "")?;
    let z = crate::lower::llvm::null(r).into_vector_value();
    Ok(crate::lower::llvm::insert_element(&l.b, z, x, l.cx.i32_type().const_zero(), "")?.into())
}
