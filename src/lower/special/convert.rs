//! The plain width changes of OpFConvert, OpSConvert and OpUConvert.
//!
//! One SPIR-V op is one of several LLVM casts depending on the widths: wider →
//! `fpext`/`sext`/`zext`, narrower → `fptrunc`/`trunc`, equal → the value itself (the reference
//! says equal widths cannot happen, but a relaxed-precision or signedness-only conversion can
//! produce them, and LLVM rejects a same-width extension). Between the two 16-bit floats
//! (`half` and `bfloat`), which have equal widths but different formats, the value goes through
//! `float`, which holds both exactly, so one rounding happens.
//!
//! The table routes the ops to `src/lower/ops/convert.rs`, which honours their
//! `SaturatedConversion` and `FPRoundingMode` decorations and uses these for the spv-ir
//! style's undecorated casts.

use super::common::{arg, fcast, sext, trunc, zext, FCast, FloatShape, IntShape, MISFIT};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The float (vector) operand converted to the float (vector) `result`, rounding to nearest
/// even when narrowing (SPIR-V OpFConvert).
pub fn f_convert<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let v = arg(args, 0)?;
    let from = FloatShape::of(v)?;
    let to = FloatShape::of_type(result).ok_or(MISFIT)?;
    if from.lanes != to.lanes {
        return Err(MISFIT);
    }
    let (wf, wt) = (from.elem.get_bit_width(), to.elem.get_bit_width());
    if from.elem == to.elem {
        Ok(v)
    } else if wf < wt {
        fcast(b, FCast::Ext, v, to)
    } else if wf > wt {
        fcast(b, FCast::Trunc, v, to)
    } else if wf == 16 {
        let via = FloatShape {
            elem: cx.f32_type(),
            lanes: to.lanes,
        };
        let wide = fcast(b, FCast::Ext, v, via)?;
        fcast(b, FCast::Trunc, wide, to)
    } else {
        Err(MISFIT)
    }
}

/// The integer (vector) operand sign-extended or truncated to `result` (SPIR-V OpSConvert).
pub fn s_convert<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    int_convert(b, true, args, result)
}

/// The integer (vector) operand zero-extended or truncated to `result` (SPIR-V OpUConvert).
pub fn u_convert<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    int_convert(b, false, args, result)
}

fn int_convert<'ctx>(
    b: &Builder<'ctx>,
    signed: bool,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let v = arg(args, 0)?;
    let from = IntShape::of(v)?;
    let to = IntShape::of_type(result).ok_or(MISFIT)?;
    if from.lanes != to.lanes {
        return Err(MISFIT);
    }
    let (wf, wt) = (from.width(), to.width());
    if wf == wt {
        Ok(v)
    } else if wf > wt {
        trunc(b, v, to)
    } else if signed {
        sext(b, v, to)
    } else {
        zext(b, v, to)
    }
}
