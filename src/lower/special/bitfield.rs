//! OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract.
//!
//! Not a table entry because LLVM has no bitfield instruction, and the reference expansion
//! (shift by `count`, by `offset`, by `width - count - offset`) shifts by the full width for
//! count = 0, count = width or offset = width: poison in LLVM, so wrong bits for cases SPIR-V
//! defines. It also ORs in `Insert` unmasked, so an Insert wider than Count clobbers Base. Here
//! every shift amount is kept below the width and the edge cases are chosen by `select`:
//!
//! - count = 0: Insert gives Base, both extracts give 0;
//! - count = width (offset 0): Insert gives Insert, both extracts give Base;
//! - Insert bits beyond Count are ignored.
//!
//! Offset and Count are unsigned scalars (or vectors) of any width: a scalar is broadcast to a
//! vector Base; a narrower one is zero-extended; a wider one saturates at the Base width before
//! truncation, so a huge value never wraps into a small one.
//!
//! SPIR-V leaves Offset + Count > width undefined; the result here is still defined: the field
//! is clipped at the top bit ([Offset, min(Offset + Count, width))), so Insert writes the bits
//! that fit, UExtract reads them zero-extended, SExtract reads them sign-extended from the top
//! bit, and an Offset ≥ width selects no bits (Insert gives Base, extracts give 0).

use super::common::{arg, fit_amount, ibin, icmp, select, IBin, IntShape, MISFIT};
use super::shift::{shift_in_range, Shift};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;
use inkwell::IntPredicate;

/// Base with `Count` bits of Insert written at `Offset` (SPIR-V OpBitFieldInsert); defined for
/// every input, see the module doc.
pub fn bit_field_insert<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let (base, shape) = base_of(args, result)?;
    let insert = arg(args, 1)?;
    if insert.get_type() != result {
        return Err(MISFIT);
    }
    let offset = fit_amount(b, arg(args, 2)?, shape)?;
    let count = fit_amount(b, arg(args, 3)?, shape)?;
    let field = shift_in_range(b, Shift::Left, shape, low_mask(b, shape, count)?, offset)?;
    let keep = ibin(b, IBin::Xor, field, shape.ones())?;
    let kept = ibin(b, IBin::And, base, keep)?;
    let moved = shift_in_range(b, Shift::Left, shape, insert, offset)?;
    let put = ibin(b, IBin::And, moved, field)?;
    ibin(b, IBin::Or, kept, put)
}

/// `Count` bits of Base from `Offset`, zero-extended (SPIR-V OpBitFieldUExtract); defined for
/// every input, see the module doc.
pub fn bit_field_u_extract<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let (base, shape) = base_of(args, result)?;
    let offset = fit_amount(b, arg(args, 1)?, shape)?;
    let count = fit_amount(b, arg(args, 2)?, shape)?;
    let shifted = shift_in_range(b, Shift::RightLogical, shape, base, offset)?;
    ibin(b, IBin::And, shifted, low_mask(b, shape, count)?)
}

/// `Count` bits of Base from `Offset`, sign-extended from the field's top bit (SPIR-V
/// OpBitFieldSExtract); defined for every input, see the module doc.
pub fn bit_field_s_extract<'ctx>(
    _cx: &'ctx Context,
    b: &Builder<'ctx>,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let (base, shape) = base_of(args, result)?;
    let offset = fit_amount(b, arg(args, 1)?, shape)?;
    let count = fit_amount(b, arg(args, 2)?, shape)?;
    let zero = shape.splat(0);
    let one = shape.splat(1);
    let width = shape.splat(u64::from(shape.width()));
    // (base << left) >>s right, with left = width - offset - count and right = width - count
    // for the clipped count (1 ≤ count ≤ width - offset), so both stay in [0, width - 1].
    let offset_ok = icmp(b, IntPredicate::ULT, offset, width)?;
    let count_ok = icmp(b, IntPredicate::NE, count, zero)?;
    let offset = select(b, offset_ok, offset, zero)?;
    let room = ibin(b, IBin::Sub, width, offset)?;
    let fits = icmp(b, IntPredicate::ULT, count, room)?;
    let count = select(b, fits, count, room)?;
    let count = select(b, count_ok, count, one)?;
    let left = ibin(b, IBin::Sub, room, count)?;
    let right = ibin(b, IBin::Sub, width, count)?;
    let up = ibin(b, IBin::Shl, base, left)?;
    let field = ibin(b, IBin::AShr, up, right)?;
    let ok = ibin(b, IBin::And, offset_ok, count_ok)?;
    select(b, ok, field, zero)
}

/// Operand 0 and its shape, which must be an integer (vector) of the result type.
fn base_of<'ctx>(
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<(BasicValueEnum<'ctx>, IntShape<'ctx>), BuilderError> {
    let base = arg(args, 0)?;
    let shape = IntShape::of(base)?;
    if base.get_type() != result {
        return Err(MISFIT);
    }
    Ok((base, shape))
}

/// Ones in the low `count` bits (count already fitted, so in [0, width]): `-1 >> (width - count)`
/// for count ≥ 1 (shift in [0, width - 1]), 0 for count = 0.
fn low_mask<'ctx>(
    b: &Builder<'ctx>,
    shape: IntShape<'ctx>,
    count: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let zero = shape.splat(0);
    let width = shape.splat(u64::from(shape.width()));
    let empty = icmp(b, IntPredicate::EQ, count, zero)?;
    let full = icmp(b, IntPredicate::UGE, count, width)?;
    let count = select(b, full, width, count)?;
    let count = select(b, empty, shape.splat(1), count)?;
    let amount = ibin(b, IBin::Sub, width, count)?;
    let mask = ibin(b, IBin::LShr, shape.ones(), amount)?;
    select(b, empty, zero, mask)
}
