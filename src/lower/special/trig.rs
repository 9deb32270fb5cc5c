//! GLSL.std.450 Tan and Tanh.
//!
//! Hand-written because the reference prescribes formulas that LLVM 19 makes unnecessary and
//! that are worse: `sin(x) / cos(x)` rounds three times; `(e^x − e^−x) / (e^x + e^−x)` is
//! inf/inf = NaN for |x| > 88 in f32, and every form built on `llvm.exp` (LLVM has no `expm1`)
//! cancels near 0: tanh(1e-10) comes out 0, not 1e-10. LLVM 19 has `llvm.tan` and `llvm.tanh`,
//! lowered to the C library's `tan`/`tanf` and `tanh`/`tanhf` (half promoted to float), which
//! reduce the argument exactly and are within an ulp or two everywhere: tanh gives ±1 for large
//! |x|, keeps the sign of ±0 and propagates NaN; tan of ±inf is NaN. Vectors are lowered lane by
//! lane by the backend. A JIT must resolve those C symbols, as it must for `llvm.sin` already.

use super::common::{arg, call_unary_intrinsic, FloatShape, MISFIT};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The tangent of a float (vector) in radians (GLSL.std.450 Tan).
pub fn tan<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    unary(b, "llvm.tan", args, result)
}

/// The hyperbolic tangent of a float (vector) (GLSL.std.450 Tanh).
pub fn tanh<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    unary(b, "llvm.tanh", args, result)
}

fn unary<'ctx>(
    b: &Builder<'ctx>,
    intrinsic: &str,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let x = arg(args, 0)?;
    FloatShape::of(x)?;
    if x.get_type() != result {
        return Err(MISFIT);
    }
    call_unary_intrinsic(b, intrinsic, &[x])
}
