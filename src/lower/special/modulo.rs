//! OpSMod and OpFMod: remainders that take the sign of the divisor (Operand 2).
//!
//! Not table entries because LLVM's `srem`/`frem` take the sign of the dividend. Both start from
//! the truncated remainder r, which is exact, and add the divisor once when r is nonzero and of
//! the other sign. For floats that one addition is the only rounding, so the result is the
//! correctly rounded floored remainder, exact whenever it is representable (FMod(1e10, 3) = 1 in
//! f32, where the reference's `x - y * floor(x / y)` gives garbage); when |r| is tiny next to |y|
//! the true value y − |r| may round to y itself.
//!
//! Defined results where SPIR-V leaves them undefined or LLVM would trap:
//! - SMod by 0 gives 0, and INT_MIN SMod −1 gives 0 (the true value), without the `srem` that is
//!   immediate undefined behaviour in LLVM for both;
//! - FMod by ±0, FMod of ±inf and any NaN operand give NaN (from `frem`);
//! - FMod by ±inf gives x when x has the divisor's sign (or is zero), and that infinity when not
//!   (the limit of the floored remainder);
//! - a zero FMod result is a zero with the divisor's sign, as "the sign of Operand 2" reads.

use super::common::{
    arg, fbin, fcmp, ibin, icmp, select, FBin, FloatShape, IBin, IntShape, MISFIT,
};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;
use inkwell::{FloatPredicate, IntPredicate};

/// Signed remainder with the divisor's sign (SPIR-V OpSMod); 0 for a zero divisor.
pub fn s_mod<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let (x, y) = (arg(args, 0)?, arg(args, 1)?);
    let shape = IntShape::of(x)?;
    if x.get_type() != result || y.get_type() != result {
        return Err(MISFIT);
    }
    let zero = shape.splat(0);
    let one = shape.splat(1);
    // y = 0 and y = −1 divide by 1 instead: the remainder by ±1 is 0 either way.
    let y_zero = icmp(b, IntPredicate::EQ, y, zero)?;
    let y_minus_one = icmp(b, IntPredicate::EQ, y, shape.ones())?;
    let unsafe_divisor = ibin(b, IBin::Or, y_zero, y_minus_one)?;
    let divisor = select(b, unsafe_divisor, one, y)?;
    let r = ibin(b, IBin::SRem, x, divisor)?;
    let nonzero = icmp(b, IntPredicate::NE, r, zero)?;
    let signs = ibin(b, IBin::Xor, r, y)?;
    let differ = icmp(b, IntPredicate::SLT, signs, zero)?;
    let adjust = ibin(b, IBin::And, nonzero, differ)?;
    let moved = ibin(b, IBin::Add, r, y)?;
    select(b, adjust, moved, r)
}

/// Float remainder with the divisor's sign (SPIR-V OpFMod), correctly rounded; NaN for a zero
/// divisor.
pub fn f_mod<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let (x, y) = (arg(args, 0)?, arg(args, 1)?);
    let shape = FloatShape::of(x)?;
    if x.get_type() != result || y.get_type() != result {
        return Err(MISFIT);
    }
    let zero = shape.splat(0.0);
    let r = fbin(b, FBin::Rem, x, y)?;
    // A NaN r fails every ordered compare below and stays NaN through the selects.
    let r_nonzero = fcmp(b, FloatPredicate::ONE, r, zero)?;
    let r_neg = fcmp(b, FloatPredicate::OLT, r, zero)?;
    let y_neg = fcmp(b, FloatPredicate::OLT, y, zero)?;
    let differ = ibin(b, IBin::Xor, r_neg, y_neg)?;
    let adjust = ibin(b, IBin::And, r_nonzero, differ)?;
    let moved = fbin(b, FBin::Add, r, y)?;
    let r_zero = fcmp(b, FloatPredicate::OEQ, r, zero)?;
    let signed_zero = select(b, y_neg, shape.splat(-0.0), zero)?;
    let same_sign = select(b, r_zero, signed_zero, r)?;
    select(b, adjust, moved, same_sign)
}
