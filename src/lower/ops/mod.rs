//! Op lowering: the dispatch from a SPIR-V op to the generated table ([`table`]) or to the
//! hand-written module that handles it, one concept per module.

pub(crate) mod async_copy;
pub(crate) mod atomic;
pub(crate) mod barrier;
pub(crate) mod composite;
pub(crate) mod convert;
pub(crate) mod ext;
pub(crate) mod math;
pub(crate) mod matrix;
pub(crate) mod memory;
pub(crate) mod misc;
pub(crate) mod opencl;
pub(crate) mod printf;
pub mod report;
pub(crate) mod special_dispatch;
pub(crate) mod subgroup;
pub(crate) mod table;
pub(crate) mod workgroup;

use super::error::{LowerError, Result};
use super::function::FnCx;
use super::Lowerer;
use crate::grammar::lowering::{core_hand_written, core_pattern};
use crate::grammar::{Id, Ids, Instruction, Opcode};
use crate::ir::{Handle, Op, Type, Value};
use inkwell::builder::Builder;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The values an instruction uses, in operand order, without its result type and id.
pub(crate) fn operand_values(inst: &Instruction) -> Vec<Value> {
    let skip = usize::from(inst.result_type().is_some()) + usize::from(inst.result_id().is_some());
    let mut out = Vec::new();
    let mut i = 0;
    inst.visit_ids(&mut |id: Id| {
        if i >= skip {
            if let Some(v) = Value::from_id(id) {
                out.push(v);
            }
        }
        i += 1;
    });
    out
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The LLVM value of an operand id.
    pub(crate) fn id(&mut self, fx: &mut FnCx<'_, 'ctx>, id: Id) -> Result<BasicValueEnum<'ctx>> {
        let v = Value::from_id(id)
            .ok_or_else(|| LowerError::malformed("an operand that is not a value"))?;
        self.val(fx, v)
    }

    /// The SPIR-V type of an operand id.
    pub(crate) fn type_of_id(&self, fx: &FnCx<'_, 'ctx>, id: Id) -> Result<Handle<Type>> {
        let v = Value::from_id(id)
            .ok_or_else(|| LowerError::malformed("an operand that is not a value"))?;
        self.m
            .type_of(Some(fx.f), v)
            .ok_or_else(|| LowerError::malformed(format!("{v} has no type")))
    }

    /// An integer constant operand (a scope or memory-semantics id).
    pub(crate) fn const_operand(&mut self, fx: &mut FnCx<'_, 'ctx>, id: Id) -> Result<u64> {
        match self.id(fx, id)? {
            BasicValueEnum::IntValue(i) => i.get_zero_extended_constant().ok_or_else(|| {
                LowerError::unsupported("a scope or semantics that is not constant")
            }),
            _ => Err(LowerError::malformed(
                "a scope or semantics that is not an integer",
            )),
        }
    }
}

/// Ops with no code of their own: debug lines, merge declarations, lifetimes.
pub(crate) fn is_no_op(inst: &Instruction) -> bool {
    use Instruction as I;
    matches!(
        inst,
        I::Nop(_)
            | I::Line(_)
            | I::NoLine(_)
            | I::SelectionMerge(_)
            | I::LoopMerge(_)
            | I::LifetimeStart(_)
            | I::LifetimeStop(_)
    )
}

/// Memory ops that are plain LLVM memory instructions in every style: variables, loads,
/// stores, access chains, copies, generic casts.
pub(crate) fn is_plain_memory_op(inst: &Instruction) -> bool {
    use Instruction as I;
    matches!(
        inst,
        I::Variable(_)
            | I::Load(_)
            | I::Store(_)
            | I::AccessChain(_)
            | I::InBoundsAccessChain(_)
            | I::PtrAccessChain(_)
            | I::InBoundsPtrAccessChain(_)
            | I::CopyMemory(_)
            | I::CopyMemorySized(_)
            | I::PtrCastToGeneric(_)
            | I::GenericCastToPtr(_)
    )
}

/// Composite construction, extraction and insertion, shuffles, copies.
pub(crate) fn is_composite_op(inst: &Instruction) -> bool {
    use Instruction as I;
    matches!(
        inst,
        I::CompositeConstruct(_)
            | I::CompositeExtract(_)
            | I::CompositeInsert(_)
            | I::VectorShuffle(_)
            | I::VectorExtractDynamic(_)
            | I::VectorInsertDynamic(_)
            | I::CopyObject(_)
            | I::CopyLogical(_)
    )
}

/// Lowers one op at the builder's position.
pub(crate) fn lower_op<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    h: Handle<Op>,
    op: &Op,
) -> Result<()> {
    let inst = &op.inst;
    let opcode = inst
        .opcode()
        .ok_or_else(|| LowerError::unsupported("an unknown opcode"))?;
    let result = match op.result_type() {
        Some(t) => l.ty(t)?.llvm,
        None => None,
    };
    if l.spv_ir() {
        if let Some(v) = l.spv_ir_op(fx, opcode, op, result)? {
            if let Some(v) = v {
                l.spv_ir_op_decorations(&fx.values, opcode, op, v)?;
                fx.values.insert(Value::Op(h), v);
            }
            return Ok(());
        }
    }
    // Rounding modes and saturation change what an op computes: refused where not lowered
    // (the spv-ir style carries them in `!spirv.Decorations`).
    if !l.spv_ir() {
        convert::check_other_op(opcode, op.decorations())?;
    }
    let v = if let Some(p) = core_pattern(opcode) {
        let mut args = Vec::new();
        for v in operand_values(inst) {
            args.push(l.val(fx, v)?);
        }
        let r = result.ok_or_else(|| LowerError::malformed("a pattern op without a result"))?;
        Some(table::apply(l.cx, &l.llm, &l.b, &p, &args, r)?)
    } else if let Some(name) = special_dispatch::core_special(opcode) {
        let mut args = Vec::new();
        for v in operand_values(inst) {
            args.push(l.val(fx, v)?);
        }
        let r = result.ok_or_else(|| LowerError::malformed("a special op without a result"))?;
        Some(special_dispatch::call(l.cx, &l.b, name, &args, r)?)
    } else {
        lower_other(l, fx, opcode, op, result)?
    };
    let v = match v {
        Some(v) if l.spv_ir() => {
            let v = l.spv_ir_member_annotation(fx, op, v)?;
            l.spv_ir_op_decorations(&fx.values, opcode, op, v)?;
            Some(v)
        }
        v => v,
    };
    if let Some(v) = v {
        fx.values.insert(Value::Op(h), v);
    }
    Ok(())
}

fn lower_other<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    opcode: Opcode,
    op: &Op,
    result: Option<BasicTypeEnum<'ctx>>,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    use Instruction as I;
    let inst = &op.inst;
    let need = || result.ok_or_else(|| LowerError::malformed("an op without a result type"));
    Ok(Some(match inst {
        _ if is_no_op(inst) => return Ok(None),
        I::Undef(_) => super::llvm::undef(need()?),
        I::ExtInst(e) => return ext::lower(l, fx, e, op, result),
        I::FunctionCall(c) => return misc::call(l, fx, c),
        I::GenericCastToPtrExplicit(_) | I::ArrayLength(_) => {
            return memory::lower(l, fx, op, result)
        }
        _ if is_plain_memory_op(inst) => return memory::lower(l, fx, op, result),
        _ if is_composite_op(inst) => return composite::lower(l, fx, op, result).map(Some),
        I::Transpose(_)
        | I::MatrixTimesScalar(_)
        | I::VectorTimesScalar(_)
        | I::MatrixTimesVector(_)
        | I::VectorTimesMatrix(_)
        | I::MatrixTimesMatrix(_)
        | I::OuterProduct(_)
        | I::Dot(_) => return matrix::lower(l, fx, op, need()?).map(Some),
        I::AtomicLoad(_)
        | I::AtomicStore(_)
        | I::AtomicExchange(_)
        | I::AtomicCompareExchange(_)
        | I::AtomicCompareExchangeWeak(_)
        | I::AtomicIIncrement(_)
        | I::AtomicIDecrement(_)
        | I::AtomicIAdd(_)
        | I::AtomicISub(_)
        | I::AtomicSMin(_)
        | I::AtomicUMin(_)
        | I::AtomicSMax(_)
        | I::AtomicUMax(_)
        | I::AtomicAnd(_)
        | I::AtomicOr(_)
        | I::AtomicXor(_)
        | I::AtomicFAddEXT(_)
        | I::AtomicFMinEXT(_)
        | I::AtomicFMaxEXT(_)
        | I::AtomicFlagTestAndSet(_)
        | I::AtomicFlagClear(_) => return atomic::lower(l, fx, op, result),
        I::GroupAsyncCopy(_) | I::GroupWaitEvents(_) => return async_copy::lower(l, fx, op),
        I::ControlBarrier(_) | I::MemoryBarrier(_) => {
            return barrier::lower(l, fx, op).map(|_| None)
        }
        _ if core_hand_written(opcode) == Some("convert") => {
            return convert::lower(l, fx, op, need()?).map(Some)
        }
        _ if core_hand_written(opcode) == Some("subgroup") => {
            return subgroup::lower(l, fx, op, need()?).map(Some)
        }
        I::IsInf(_)
        | I::IsFinite(_)
        | I::IsNormal(_)
        | I::SignBitSet(_)
        | I::ReadClockKHR(_)
        | I::QuantizeToF16(_)
        | I::IAddCarry(_)
        | I::ISubBorrow(_)
        | I::UMulExtended(_)
        | I::SMulExtended(_)
        | I::LessOrGreater(_)
        | I::GenericPtrMemSemantics(_)
        | I::PtrEqual(_)
        | I::PtrNotEqual(_)
        | I::PtrDiff(_)
        | I::ExpectKHR(_) => misc::lower(l, fx, op, need()?)?,
        _ => {
            return Err(LowerError::unsupported(format!(
                "Op{opcode:?} is not lowered"
            )))
        }
    }))
}

/// Evaluates an `OpSpecConstantOp` operation on constant operands, at `b` (constant-folded);
/// `decorations` are the specialization constant's (a conversion's rounding mode).
pub(crate) fn constant_op<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    b: &Builder<'ctx>,
    opcode: Opcode,
    ty: Handle<Type>,
    args: &[BasicValueEnum<'ctx>],
    literals: &[u32],
    decorations: &[crate::grammar::Decoration],
) -> Result<BasicValueEnum<'ctx>> {
    let r = l.basic(ty)?;
    convert::check_other_op(opcode, decorations)?;
    if convert::is_numeric_conversion(opcode) {
        return convert::constant(l.cx, &l.llm, b, opcode, args, r, decorations);
    }
    if let Some(p) = core_pattern(opcode) {
        return table::apply(l.cx, &l.llm, b, &p, args, r);
    }
    if let Some(name) = special_dispatch::core_special(opcode) {
        return special_dispatch::call(l.cx, b, name, args, r);
    }
    match opcode {
        Opcode::CompositeExtract => {
            let c = *args
                .first()
                .ok_or_else(|| LowerError::malformed("operand"))?;
            composite::extract_path(l.cx, b, c, literals)
        }
        Opcode::CompositeInsert => {
            let o = *args
                .first()
                .ok_or_else(|| LowerError::malformed("operand"))?;
            let c = *args
                .get(1)
                .ok_or_else(|| LowerError::malformed("operand"))?;
            composite::insert_path(l.cx, b, c, o, literals)
        }
        Opcode::VectorShuffle => {
            let (a, c) = (
                *args
                    .first()
                    .ok_or_else(|| LowerError::malformed("operand"))?,
                *args
                    .get(1)
                    .ok_or_else(|| LowerError::malformed("operand"))?,
            );
            composite::shuffle(l.cx, b, a, c, literals, r)
        }
        Opcode::QuantizeToF16 => misc::quantize(
            l.cx,
            b,
            *args
                .first()
                .ok_or_else(|| LowerError::malformed("operand"))?,
            r,
        ),
        // One address space: generic casts are identities.
        Opcode::PtrCastToGeneric | Opcode::GenericCastToPtr => args
            .first()
            .copied()
            .ok_or_else(|| LowerError::malformed("operand")),
        _ => Err(LowerError::unsupported(format!(
            "Op{opcode:?} in OpSpecConstantOp"
        ))),
    }
}
