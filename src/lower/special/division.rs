//! OpUDiv, OpSDiv, OpUMod and OpSRem: integer division that never traps.
//!
//! Not table entries because LLVM's `udiv`/`sdiv`/`urem`/`srem` are immediate undefined
//! behaviour for a zero divisor and for `INT_MIN / -1`, and x86 raises SIGFPE for both, while
//! SPIR-V only leaves the *result* undefined. Shader compilers flatten `b != 0 ? a / b : c` into
//! an `OpSelect` that evaluates the division anyway, so a trap would kill a correct program.
//!
//! Defined results chosen where SPIR-V leaves them undefined:
//! - a quotient by 0 is all ones (UDiv: the largest value, as D3D10's `udiv`; SDiv: −1);
//! - a remainder by 0 is 0 (as OpSMod here);
//! - `INT_MIN / −1` is `INT_MIN` (the wrapped true value) and `INT_MIN rem −1` is 0.

use super::common::{arg, ibin, icmp, select, IBin, IntShape, MISFIT};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;
use inkwell::IntPredicate;

/// Which of the four divisions.
#[derive(Clone, Copy)]
enum Kind {
    UDiv,
    SDiv,
    URem,
    SRem,
}

fn divide<'ctx>(
    b: &Builder<'ctx>,
    op: Kind,
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
    let y_zero = icmp(b, IntPredicate::EQ, y, zero)?;
    // Divisors that would trap are replaced by 1; the lanes they affect are fixed afterwards.
    let mut unsafe_divisor = y_zero;
    if matches!(op, Kind::SDiv | Kind::SRem) {
        let min = shape.splat(1u64 << (shape.width() - 1));
        let x_min = icmp(b, IntPredicate::EQ, x, min)?;
        let y_minus_one = icmp(b, IntPredicate::EQ, y, shape.ones())?;
        let overflow = ibin(b, IBin::And, x_min, y_minus_one)?;
        unsafe_divisor = ibin(b, IBin::Or, unsafe_divisor, overflow)?;
    }
    let divisor = select(b, unsafe_divisor, one, y)?;
    let (q, by_zero) = match op {
        Kind::UDiv => (ibin(b, IBin::UDiv, x, divisor)?, shape.ones()),
        Kind::SDiv => (ibin(b, IBin::SDiv, x, divisor)?, shape.ones()),
        Kind::URem => (ibin(b, IBin::URem, x, divisor)?, zero),
        Kind::SRem => (ibin(b, IBin::SRem, x, divisor)?, zero),
    };
    select(b, y_zero, by_zero, q)
}

/// Unsigned quotient (SPIR-V OpUDiv); all ones for a zero divisor.
pub fn u_div<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    divide(b, Kind::UDiv, args, result)
}

/// Signed quotient rounded toward zero (SPIR-V OpSDiv); −1 for a zero divisor, `INT_MIN` for
/// `INT_MIN / −1`.
pub fn s_div<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    divide(b, Kind::SDiv, args, result)
}

/// Unsigned remainder (SPIR-V OpUMod); 0 for a zero divisor.
pub fn u_mod<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    divide(b, Kind::URem, args, result)
}

/// Signed remainder with the dividend's sign (SPIR-V OpSRem); 0 for a zero divisor and for
/// `INT_MIN rem −1`.
pub fn s_rem<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    divide(b, Kind::SRem, args, result)
}
