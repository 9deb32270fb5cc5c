//! OpShiftLeftLogical, OpShiftRightLogical, OpShiftRightArithmetic.
//!
//! Not a table entry for two reasons. SPIR-V lets Shift have another width than Base (and a
//! scalar Shift may meet a vector Base here), while LLVM wants one type: a narrower amount is
//! zero-extended (SPIR-V reads it as unsigned), a wider one saturates at the Base width before
//! truncation (so 2^32 never wraps to 0), a scalar is broadcast. And SPIR-V leaves amounts ≥ the
//! width undefined where LLVM makes them poison, which later passes may turn into anything; the
//! result here is defined and documented instead:
//!
//! - amount ≥ width: the logical shifts give 0, the arithmetic shift gives the sign fill
//!   (0 for a non-negative Base, all ones for a negative one), the limits of shifting one bit at
//!   a time;
//! - amount < width: exactly the LLVM shift.

use super::common::{arg, fit_amount, ibin, icmp, select, IBin, IntShape, MISFIT};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;
use inkwell::IntPredicate;

/// Which shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shift {
    Left,
    RightLogical,
    RightArithmetic,
}

/// Base shifted left by Shift (SPIR-V OpShiftLeftLogical); 0 when Shift ≥ the width.
pub fn shift_left_logical<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    shift(b, Shift::Left, args, result)
}

/// Base shifted right, zero-filling (SPIR-V OpShiftRightLogical); 0 when Shift ≥ the width.
pub fn shift_right_logical<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    shift(b, Shift::RightLogical, args, result)
}

/// Base shifted right, sign-filling (SPIR-V OpShiftRightArithmetic); the sign fill (0 or −1)
/// when Shift ≥ the width.
pub fn shift_right_arithmetic<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    shift(b, Shift::RightArithmetic, args, result)
}

fn shift<'ctx>(
    b: &Builder<'ctx>,
    kind: Shift,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let base = arg(args, 0)?;
    let shape = IntShape::of(base)?;
    if base.get_type() != result {
        return Err(MISFIT);
    }
    let amount = fit_amount(b, arg(args, 1)?, shape)?;
    shift_in_range(b, kind, shape, base, amount)
}

/// `x` shifted by `amount` (both of `shape`), with the module's defined result for any amount
/// ≥ the width; the emitted shift never sees such an amount, so no poison.
pub(crate) fn shift_in_range<'ctx>(
    b: &Builder<'ctx>,
    kind: Shift,
    shape: IntShape<'ctx>,
    x: BasicValueEnum<'ctx>,
    amount: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let width = u64::from(shape.width());
    let in_range = icmp(b, IntPredicate::ULT, amount, shape.splat(width))?;
    if kind == Shift::RightArithmetic {
        // Shifting by width − 1 already gives the sign fill.
        let amount = select(b, in_range, amount, shape.splat(width.saturating_sub(1)))?;
        return ibin(b, IBin::AShr, x, amount);
    }
    let zero = shape.splat(0);
    let amount = select(b, in_range, amount, zero)?;
    let op = match kind {
        Shift::Left => IBin::Shl,
        _ => IBin::LShr,
    };
    let shifted = ibin(b, op, x, amount)?;
    select(b, in_range, shifted, zero)
}
