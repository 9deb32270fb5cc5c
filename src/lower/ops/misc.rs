//! Ops that fit no other family: function calls (passing `%ctx` on), `IsInf`, `QuantizeToF16`,
//! the wide arithmetic ops with struct results (`IAddCarry`, `ISubBorrow`, `UMulExtended`,
//! `SMulExtended`) and `LessOrGreater`.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{fcmp, icmp, splat_float};
use super::super::Lowerer;
use super::table::call_intrinsic;
use crate::grammar::{Instruction, MemorySemantics, OpFunctionCall, StorageClass};
use crate::ir::{Op, Value};
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, InstructionOpcode as O};
use inkwell::{FloatPredicate, IntPredicate};

/// `OpFunctionCall`: `%ctx` first, then the arguments.
pub(crate) fn call<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    c: &OpFunctionCall,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    let Some(Value::Function(h)) = Value::from_id(c.function) else {
        return Err(LowerError::malformed("a call of a non-function"));
    };
    let f = l
        .functions
        .get(h.index())
        .copied()
        .flatten()
        .ok_or_else(|| LowerError::malformed("a call of a function out of range"))?;
    let mut args: Vec<BasicMetadataValueEnum<'ctx>> = if l.spv_ir() {
        Vec::new()
    } else {
        vec![fx.ctx.into()]
    };
    for &a in &c.arguments {
        args.push(crate::lower::llvm_ext::arg(l.id(fx, a)?));
    }
    if args.len() != f.count_params() as usize {
        return Err(LowerError::malformed(
            "a call with the wrong number of arguments",
        ));
    }
    let r = crate::lower::llvm_ext::call(&l.b, f, &args)?;
    r.set_call_convention(f.get_call_conventions());
    Ok(super::super::llvm::call_result(r))
}

/// `QuantizeToF16`: through `half` and back.
pub(crate) fn quantize<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let half: BasicTypeEnum<'ctx> = match r {
        BasicTypeEnum::VectorType(vt) => cx.f16_type().vec_type(vt.get_size()).into(),
        _ => cx.f16_type().into(),
    };
    let h = crate::lower::llvm::cast(b, O::FPTrunc, v, half)?;
    crate::lower::llvm::cast(b, O::FPExt, h, r)
}

/// Lowers one of this module's ops.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use Instruction as I;
    let cx = l.cx;
    match &op.inst {
        I::IsInf(o) => {
            let x = l.id(fx, o.x)?;
            let t = x.get_type();
            let a = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[x], None, t)?;
            let inf = splat_float(t, f64::INFINITY)?;
            fcmp(&l.b, FloatPredicate::OEQ, a, inf)
        }
        I::IsFinite(o) => {
            let x = l.id(fx, o.x)?;
            let t = x.get_type();
            let a = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[x], None, t)?;
            let inf = splat_float(t, f64::INFINITY)?;
            fcmp(&l.b, FloatPredicate::OLT, a, inf)
        }
        I::IsNormal(o) => {
            let x = l.id(fx, o.x)?;
            let t = x.get_type();
            let a = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[x], None, t)?;
            let inf = splat_float(t, f64::INFINITY)?;
            let min = match super::super::llvm::scalar_of(t) {
                BasicTypeEnum::FloatType(f) if f == cx.f16_type() => 6.103_515_625e-5,
                BasicTypeEnum::FloatType(f) if f == cx.f64_type() => f64::MIN_POSITIVE,
                _ => f64::from(f32::MIN_POSITIVE),
            };
            let lo = fcmp(&l.b, FloatPredicate::OGE, a, splat_float(t, min)?)?;
            let hi = fcmp(&l.b, FloatPredicate::OLT, a, inf)?;
            Ok(crate::lower::llvm::binop(&l.b, O::And, lo, hi)?)
        }
        I::SignBitSet(o) => {
            let x = l.id(fx, o.x)?;
            let t = x.get_type();
            let w = match super::super::llvm::scalar_of(t) {
                BasicTypeEnum::FloatType(f) if f == cx.f16_type() => 16,
                BasicTypeEnum::FloatType(f) if f == cx.f64_type() => 64,
                _ => 32,
            };
            let it = super::super::llvm::int_ty(cx, w)?;
            let ity: BasicTypeEnum<'ctx> = match t {
                BasicTypeEnum::VectorType(v) => it.vec_type(v.get_size()).into(),
                _ => it.into(),
            };
            let bits = crate::lower::llvm::cast(&l.b, O::BitCast, x, ity)?;
            icmp(&l.b, IntPredicate::SLT, bits, super::super::llvm::null(ity))
        }
        I::ReadClockKHR(_) => {
            let i64t: BasicTypeEnum<'ctx> = cx.i64_type().into();
            let c = call_intrinsic(
                cx,
                &l.llm,
                &l.b,
                "llvm.readcyclecounter",
                &[],
                &[],
                None,
                i64t,
            )?;
            Ok(crate::lower::llvm::cast(&l.b, O::BitCast, c, r)?)
        }
        // WorkgroupMemory for local memory, CrossWorkgroupMemory for global, none for private
        // (by address range, as `OpGenericCastToPtrExplicit`).
        I::GenericPtrMemSemantics(o) => {
            let p = match l.id(fx, o.pointer)? {
                BasicValueEnum::PointerValue(p) => p,
                _ => {
                    return Err(LowerError::malformed(
                        "OpGenericPtrMemSemantics of a non-pointer",
                    ))
                }
            };
            let class = super::memory::storage_class_of(l, fx, p)?;
            let BasicTypeEnum::IntType(t) = r else {
                return Err(LowerError::malformed(
                    "OpGenericPtrMemSemantics with a non-integer result",
                ));
            };
            let mut v = t.const_zero();
            for (sc, sem) in [
                (StorageClass::Workgroup, MemorySemantics::WorkgroupMemory),
                (
                    StorageClass::CrossWorkgroup,
                    MemorySemantics::CrossWorkgroupMemory,
                ),
            ] {
                let want = cx.i32_type().const_int(sc as u64, false);
                let is = l.b.build_int_compare(IntPredicate::EQ, class, want, "")?;
                let s = t.const_int(u64::from(sem.0), false);
                v = l.b.build_select(is, s, v, "")?.into_int_value();
            }
            Ok(v.into())
        }
        I::PtrEqual(o) => {
            let (a, b) = (l.id(fx, o.operand_1)?, l.id(fx, o.operand_2)?);
            icmp(&l.b, IntPredicate::EQ, a, b)
        }
        I::PtrNotEqual(o) => {
            let (a, b) = (l.id(fx, o.operand_1)?, l.id(fx, o.operand_2)?);
            icmp(&l.b, IntPredicate::NE, a, b)
        }
        I::PtrDiff(o) => {
            // (a - b) in elements of the pointee type.
            let pointee = l.pointee_of(fx, o.operand_1)?;
            let size =
                l.ty(pointee)?.size.filter(|&s| s > 0).ok_or_else(|| {
                    LowerError::malformed("OpPtrDiff of pointers to unsized types")
                })?;
            let (a, b) = (l.id(fx, o.operand_1)?, l.id(fx, o.operand_2)?);
            let i64t = cx.i64_type();
            let ai = crate::lower::llvm::cast(&l.b, O::PtrToInt, a, i64t)?;
            let bi = crate::lower::llvm::cast(&l.b, O::PtrToInt, b, i64t)?;
            let d = crate::lower::llvm::binop(&l.b, O::Sub, ai, bi)?;
            let n =
                crate::lower::llvm::binop(&l.b, O::SDiv, d, i64t.const_int(size, false).into())?;
            super::super::llvm::int_resize(&l.b, n, r, true)
        }
        // A branch-prediction hint: the value itself.
        I::ExpectKHR(o) => l.id(fx, o.value),
        I::LessOrGreater(o) => {
            let a = l.id(fx, o.x)?;
            let b = l.id(fx, o.y)?;
            fcmp(&l.b, FloatPredicate::ONE, a, b)
        }
        I::QuantizeToF16(o) => {
            let v = l.id(fx, o.value)?;
            quantize(cx, &l.b, v, r)
        }
        I::IAddCarry(o) => {
            let (a, b) = (l.id(fx, o.operand_1)?, l.id(fx, o.operand_2)?);
            let sum = crate::lower::llvm::binop(&l.b, O::Add, a, b)?;
            let carry = icmp(&l.b, IntPredicate::ULT, sum, a)?;
            let carry = crate::lower::llvm::cast(&l.b, O::ZExt, carry, a.get_type())?;
            pair(&l.b, r, sum, carry)
        }
        I::ISubBorrow(o) => {
            let (a, b) = (l.id(fx, o.operand_1)?, l.id(fx, o.operand_2)?);
            let diff = crate::lower::llvm::binop(&l.b, O::Sub, a, b)?;
            let borrow = icmp(&l.b, IntPredicate::ULT, a, b)?;
            let borrow = crate::lower::llvm::cast(&l.b, O::ZExt, borrow, a.get_type())?;
            pair(&l.b, r, diff, borrow)
        }
        I::UMulExtended(o) => mul_extended(l, fx, o.operand_1, o.operand_2, r, false),
        I::SMulExtended(o) => mul_extended(l, fx, o.operand_1, o.operand_2, r, true),
        _ => Err(LowerError::unsupported("this op")),
    }
}

fn pair<'ctx>(
    b: &Builder<'ctx>,
    r: BasicTypeEnum<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let BasicTypeEnum::StructType(_) = r else {
        return Err(LowerError::malformed(
            "a wide arithmetic op without a struct result",
        ));
    };
    let s = crate::lower::llvm::undef_struct(r)?;
    let s = crate::lower::llvm::insert_value(b, s, x, 0, "")?;
    Ok(crate::lower::llvm::insert_value(b, s, y, 1, "")?
        .into_struct_value()
        .into())
}

fn mul_extended<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    x: crate::grammar::Id,
    y: crate::grammar::Id,
    r: BasicTypeEnum<'ctx>,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    let (a, b) = (l.id(fx, x)?, l.id(fx, y)?);
    let t = a.get_type();
    let s = super::super::llvm::scalar_of(t);
    if !s.is_int_type() {
        return Err(LowerError::malformed(
            "a wide multiplication of non-integers",
        ));
    }
    let w = s.into_int_type().get_bit_width();
    let wide_s = super::super::llvm::int_ty(l.cx, w * 2)?;
    let wide: BasicTypeEnum<'ctx> = match t {
        BasicTypeEnum::VectorType(vt) => wide_s.vec_type(vt.get_size()).into(),
        _ => wide_s.into(),
    };
    let ext = if signed { O::SExt } else { O::ZExt };
    let aw = crate::lower::llvm::cast(&l.b, ext, a, wide)?;
    let bw = crate::lower::llvm::cast(&l.b, ext, b, wide)?;
    let p = crate::lower::llvm::binop(&l.b, O::Mul, aw, bw)?;
    let lo = crate::lower::llvm::cast(&l.b, O::Trunc, p, t)?;
    let shift = super::super::llvm::splat_int(wide, w.into())?;
    let hi = crate::lower::llvm::binop(&l.b, O::LShr, p, shift)?;
    let hi = crate::lower::llvm::cast(&l.b, O::Trunc, hi, t)?;
    pair(&l.b, r, lo, hi)
}
