//! Numeric conversions: OpConvertFToU, OpConvertFToS, OpConvertSToF, OpConvertUToF,
//! OpFConvert, OpUConvert, OpSConvert, OpSatConvertSToU and OpSatConvertUToS, with their
//! `SaturatedConversion` and `FPRoundingMode` decorations.
//!
//! Not table patterns: the decorations choose the code, and the results SPIR-V leaves undefined
//! (a float outside an integer type's range) are defined here. Every conversion is exact in the
//! sense of IEEE 754 and OpenCL C §6.4.3 (`convert_<type>[_sat][_<rounding>]`):
//!
//! - **float → integer**: the value is first rounded to an integral float by the mode
//!   (`llvm.roundeven`, `llvm.ceil`, `llvm.floor`; the default, RTZ, needs nothing because the
//!   conversion truncates), then converted *saturating*: NaN gives 0, values below or above the
//!   result's range its minimum or maximum. That is OpenCL's `_sat`, and the defined choice for
//!   the undecorated conversion whose out-of-range result SPIR-V leaves undefined. The LLVM
//!   `fptosi`/`fptoui` only ever sees an operand inside the range (an out-of-range one would be
//!   poison); the rest is compares and selects, which LLVM's constant folder also evaluates, so
//!   `OpSpecConstantOp` conversions fold.
//! - **integer → float** and **float → narrower float**: LLVM's `sitofp`/`uitofp`/`fptrunc`
//!   round to nearest even (the host's default mode: LLVM's constrained intrinsics do not change
//!   the x86 rounding mode, so the directed modes are computed). For RTZ, RTP and RTN the
//!   nearest result is compared exactly with the operand (the float converted back: exact, being
//!   integral or wider), and when it lies on the wrong side it is stepped one representable value
//!   towards the right one by adding ±1 to its bits. The true result always lies between the
//!   nearest value and that neighbour, so one step is exact; overflow to ±infinity steps back to
//!   the largest finite value where the mode asks for it. `f64 → f16` is one rounding (LLVM calls
//!   `__truncdfhf2`), never through `f32`.
//! - **integer → integer**: sign- or zero-extension or truncation; with `SaturatedConversion`
//!   (and always for OpSatConvert*) the value, read signed or unsigned as the op says, is first
//!   clamped to the result's range.
//!
//! `FPRoundingMode` on an integer → integer conversion, or on a widening float conversion,
//! changes nothing (nothing is rounded); `SaturatedConversion` on a conversion to a float is
//! not defined by SPIR-V and is refused. The spv-ir style lowers undecorated conversions to the
//! plain LLVM casts (decorated ones are `__spirv_*` calls there); this module's exact forms are
//! for the CPU runner.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{
    cast, fcmp, icmp, int_resize, int_ty, null, scalar_of, select, splat_float, splat_int,
};
use super::super::Lowerer;
use super::table::call_intrinsic;
use crate::grammar::{Decoration, FPRoundingMode, Instruction, Opcode};
use crate::ir::Op;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, InstructionOpcode as O};
use inkwell::{FloatPredicate as F, IntPredicate as I};

/// What a conversion's decorations ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Exactness {
    /// `SaturatedConversion`.
    pub sat: bool,
    /// `FPRoundingMode`.
    pub rounding: Option<FPRoundingMode>,
}

impl Exactness {
    /// The conversion-related decorations of a result.
    pub(crate) fn of(decorations: &[Decoration]) -> Exactness {
        let mut e = Exactness::default();
        for d in decorations {
            match d {
                Decoration::SaturatedConversion => e.sat = true,
                Decoration::FPRoundingMode(m) => e.rounding = Some(*m),
                _ => {}
            }
        }
        e
    }
}

/// Whether `op` is one of this module's conversions.
pub(crate) fn is_numeric_conversion(op: Opcode) -> bool {
    use Opcode as C;
    matches!(
        op,
        C::ConvertFToU
            | C::ConvertFToS
            | C::ConvertSToF
            | C::ConvertUToF
            | C::FConvert
            | C::UConvert
            | C::SConvert
            | C::SatConvertSToU
            | C::SatConvertUToS
    )
}

/// Refuses `FPRoundingMode` and `SaturatedConversion` on an op that is not a numeric
/// conversion, where the lowering would otherwise ignore them: SPIR-V defines them on
/// conversions only. `FPRoundingMode RTE` is accepted anywhere: it is what every LLVM float
/// operation does.
pub(crate) fn check_other_op(opcode: Opcode, decorations: &[Decoration]) -> Result<()> {
    if is_numeric_conversion(opcode) {
        return Ok(());
    }
    for d in decorations {
        match d {
            Decoration::FPRoundingMode(m) if *m != FPRoundingMode::RTE => {
                return Err(LowerError::unsupported(format!(
                    "FPRoundingMode {m} on Op{opcode:?}: directed rounding is lowered for \
                     numeric conversions only"
                )))
            }
            Decoration::SaturatedConversion => {
                return Err(LowerError::unsupported(format!(
                    "SaturatedConversion on Op{opcode:?}, which is not a conversion to an integer"
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Lowers one of this module's ops, with the decorations of its result.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let opcode = op
        .inst
        .opcode()
        .ok_or_else(|| LowerError::unsupported("an unknown opcode"))?;
    let operand = match &op.inst {
        Instruction::ConvertFToU(o) => o.float_value,
        Instruction::ConvertFToS(o) => o.float_value,
        Instruction::ConvertSToF(o) => o.signed_value,
        Instruction::ConvertUToF(o) => o.unsigned_value,
        Instruction::FConvert(o) => o.float_value,
        Instruction::UConvert(o) => o.unsigned_value,
        Instruction::SConvert(o) => o.signed_value,
        Instruction::SatConvertSToU(o) => o.signed_value,
        Instruction::SatConvertUToS(o) => o.unsigned_value,
        _ => return Err(LowerError::malformed("not a numeric conversion")),
    };
    let x = l.id(fx, operand)?;
    if l.spv_ir() {
        // Undecorated (decorated ones are `__spirv_*` calls): the casts the translator reads.
        return plain(l.cx, &l.b, opcode, x, r);
    }
    let e = Exactness::of(op.decorations());
    convert(l.cx, &l.llm, &l.b, opcode, x, r, e)
}

/// The plain LLVM cast of a conversion (the spv-ir style): `fptoui`, `sitofp`, `fpext`,
/// `trunc`, ... as SPIRV-LLVM-Translator writes them.
fn plain<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    opcode: Opcode,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use Opcode as C;
    let args = [x];
    Ok(match opcode {
        C::ConvertFToU => cast(b, O::FPToUI, x, r)?,
        C::ConvertFToS => cast(b, O::FPToSI, x, r)?,
        C::ConvertUToF => cast(b, O::UIToFP, x, r)?,
        C::ConvertSToF => cast(b, O::SIToFP, x, r)?,
        C::FConvert => crate::lower::special::f_convert(cx, b, &args, r)?,
        C::SConvert => crate::lower::special::s_convert(cx, b, &args, r)?,
        C::UConvert => crate::lower::special::u_convert(cx, b, &args, r)?,
        C::SatConvertSToU => int_to_int(b, x, r, true, false, true)?,
        C::SatConvertUToS => int_to_int(b, x, r, false, true, true)?,
        _ => return Err(LowerError::malformed("not a numeric conversion")),
    })
}

/// The conversion `opcode` of `x` to `r` as the decorations `e` ask, with defined results
/// everywhere (see the module's documentation). Used for ops and for `OpSpecConstantOp`.
pub(crate) fn convert<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    opcode: Opcode,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
    e: Exactness,
) -> Result<BasicValueEnum<'ctx>> {
    use Opcode as C;
    let (xs, rs) = (scalar_of(x.get_type()), scalar_of(r));
    if super::super::llvm::lanes(x.get_type()) != super::super::llvm::lanes(r)
        || x.get_type().is_vector_type() != r.is_vector_type()
    {
        return Err(LowerError::malformed(
            "a conversion between different component counts",
        ));
    }
    let kinds = |from_float: bool, to_float: bool| -> Result<()> {
        if xs.is_float_type() == from_float
            && (xs.is_int_type() || xs.is_float_type())
            && rs.is_float_type() == to_float
            && (rs.is_int_type() || rs.is_float_type())
        {
            Ok(())
        } else {
            Err(LowerError::malformed(format!(
                "Op{opcode:?} of operands of the wrong kinds"
            )))
        }
    };
    let float_result = matches!(opcode, C::ConvertSToF | C::ConvertUToF | C::FConvert);
    if e.sat && float_result {
        return Err(LowerError::unsupported(format!(
            "SaturatedConversion on Op{opcode:?}, whose result is a float (SPIR-V defines it \
             for conversions to integers)"
        )));
    }
    match opcode {
        C::ConvertFToU | C::ConvertFToS => {
            kinds(true, false)?;
            let rounded = match e.rounding {
                None | Some(FPRoundingMode::RTZ) => x,
                Some(mode) => {
                    let name = match mode {
                        FPRoundingMode::RTE => "llvm.roundeven",
                        FPRoundingMode::RTP => "llvm.ceil",
                        _ => "llvm.floor",
                    };
                    let t = x.get_type();
                    call_intrinsic(cx, m, b, name, &[t], &[x], None, t)?
                }
            };
            float_to_int(cx, b, rounded, r, opcode == C::ConvertFToS)
        }
        C::ConvertSToF | C::ConvertUToF => {
            kinds(false, true)?;
            int_to_float(cx, b, x, r, opcode == C::ConvertSToF, e.rounding)
        }
        C::FConvert => {
            kinds(true, true)?;
            float_to_float(cx, b, x, r, e.rounding)
        }
        C::UConvert | C::SConvert => {
            kinds(false, false)?;
            let signed = opcode == C::SConvert;
            int_to_int(b, x, r, signed, signed, e.sat)
        }
        C::SatConvertSToU | C::SatConvertUToS => {
            kinds(false, false)?;
            let signed = opcode == C::SatConvertSToU;
            int_to_int(b, x, r, signed, !signed, true)
        }
        _ => Err(LowerError::malformed("not a numeric conversion")),
    }
}

/// `t`'s shape (scalar or vector of as many lanes) with scalars `s`.
fn like<'ctx>(t: BasicTypeEnum<'ctx>, s: BasicTypeEnum<'ctx>) -> Result<BasicTypeEnum<'ctx>> {
    Ok(match t {
        BasicTypeEnum::VectorType(v) => match s {
            BasicTypeEnum::IntType(i) => i.vec_type(v.get_size()).into(),
            BasicTypeEnum::FloatType(f) => f.vec_type(v.get_size()).into(),
            _ => return Err(LowerError::malformed("a vector of non-numbers")),
        },
        _ => s,
    })
}

/// The bits of a float type: its width, and the precision (significand bits) where known.
fn float_format(cx: &Context, t: BasicTypeEnum<'_>) -> Result<(u32, Option<u32>)> {
    match scalar_of(t) {
        BasicTypeEnum::FloatType(f) if f == cx.f16_type() => Ok((16, Some(11))),
        BasicTypeEnum::FloatType(f) if f == cx.f32_type() => Ok((32, Some(24))),
        BasicTypeEnum::FloatType(f) if f == cx.f64_type() => Ok((64, Some(53))),
        BasicTypeEnum::FloatType(_) => Ok((16, None)),
        _ => Err(LowerError::malformed("a float type was expected")),
    }
}

/// The range of a `width`-bit integer read signed or unsigned.
fn int_range(width: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    }
}

fn and<'ctx>(
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    super::super::llvm::binop(b, O::And, x, y)
}

fn or<'ctx>(
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    super::super::llvm::binop(b, O::Or, x, y)
}

/// The boolean (vector) `x` negated.
fn not<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    super::super::llvm::binop(b, O::Xor, x, bools(cx, x.get_type(), true)?)
}

/// A boolean (vector) constant shaped like the comparisons of `t`.
fn bools<'ctx>(cx: &'ctx Context, t: BasicTypeEnum<'ctx>, v: bool) -> Result<BasicValueEnum<'ctx>> {
    splat_int(like(t, cx.bool_type().into())?, u64::from(v))
}

/// The integral float (vector) `x` converted to the integer (vector) type `r`, saturating:
/// NaN → 0, below the range → its minimum, above → its maximum. The LLVM conversion only sees
/// operands inside the range.
fn float_to_int<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    let t = x.get_type();
    let w = super::super::llvm::int_width(r)?;
    let (min, max) = int_range(w, signed);
    // Powers of two (or 0), exact in every float type that has them, ±infinity otherwise
    // (then -infinity itself is below the range).
    let lo = splat_float(t, min as f64)?;
    let hi = splat_float(t, (max + 1) as f64)?;
    let too_small = or(
        b,
        fcmp(b, F::OLT, x, lo)?,
        fcmp(b, F::OEQ, x, splat_float(t, f64::NEG_INFINITY)?)?,
    )?;
    let too_big = fcmp(b, F::OGE, x, hi)?;
    // Ordered (not NaN) and neither.
    let ordered = fcmp(b, F::ORD, x, x)?;
    let outside = or(b, too_small, too_big)?;
    let inside = and(b, ordered, not(cx, b, outside)?)?;
    let safe = select(b, inside, x, null(t))?;
    let converted = cast(b, if signed { O::FPToSI } else { O::FPToUI }, safe, r)?;
    let outside = select(
        b,
        too_big,
        splat_int(r, max as u64)?,
        select(b, too_small, splat_int(r, min as u64)?, null(r))?,
    )?;
    select(b, inside, converted, outside)
}

/// The integer (vector) `x` clamped to the range of `r` (when `sat`) and converted: `x` is read
/// signed when `from_signed`, `r` when `to_signed`.
fn int_to_int<'ctx>(
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
    from_signed: bool,
    to_signed: bool,
    sat: bool,
) -> Result<BasicValueEnum<'ctx>> {
    let t = x.get_type();
    let (fw, tw) = (
        super::super::llvm::int_width(t)?,
        super::super::llvm::int_width(r)?,
    );
    let mut x = x;
    if sat {
        let (smin, smax) = int_range(fw, from_signed);
        let (dmin, dmax) = int_range(tw, to_signed);
        let (lo, hi) = (smin.max(dmin), smax.min(dmax));
        let (lt, gt) = if from_signed {
            (I::SLT, I::SGT)
        } else {
            (I::ULT, I::UGT)
        };
        if lo > smin {
            let c = splat_int(t, lo as u64)?;
            x = select(b, icmp(b, lt, x, c)?, c, x)?;
        }
        if hi < smax {
            let c = splat_int(t, hi as u64)?;
            x = select(b, icmp(b, gt, x, c)?, c, x)?;
        }
    }
    // In range (or wrapping when not saturating): extension by the operand's signedness.
    int_resize(b, x, r, from_signed)
}

/// The float (vector) `y`, nearest to an exact value `v`, moved to the result of `mode`:
/// `above`/`below` say whether `y` is greater or less than `v`, `positive`/`negative` the sign
/// of `v`. One step of the bits reaches the neighbour, which is the directed result whenever
/// `y` is not.
#[allow(clippy::too_many_arguments)]
fn step<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    y: BasicValueEnum<'ctx>,
    above: BasicValueEnum<'ctx>,
    below: BasicValueEnum<'ctx>,
    positive: BasicValueEnum<'ctx>,
    negative: BasicValueEnum<'ctx>,
    mode: FPRoundingMode,
) -> Result<BasicValueEnum<'ctx>> {
    let t = y.get_type();
    let (width, _) = float_format(cx, t)?;
    let it = like(t, int_ty(cx, width)?.into())?;
    let bits = cast(b, O::BitCast, y, it)?;
    let sign = icmp(b, I::SLT, bits, null(it))?;
    let (up, down, zero) = (splat_int(it, 1)?, splat_int(it, u64::MAX)?, null(it));
    // The bits move away from zero by +1 and towards it by -1, whatever the sign.
    let delta = match mode {
        FPRoundingMode::RTP => {
            let towards_plus = select(b, sign, down, up)?;
            select(b, below, towards_plus, zero)?
        }
        FPRoundingMode::RTN => {
            let towards_minus = select(b, sign, up, down)?;
            select(b, above, towards_minus, zero)?
        }
        FPRoundingMode::RTZ => {
            let away = or(b, and(b, above, positive)?, and(b, below, negative)?)?;
            select(b, away, down, zero)?
        }
        FPRoundingMode::RTE => return Ok(y),
    };
    let moved = super::super::llvm::binop(b, O::Add, bits, delta)?;
    cast(b, O::BitCast, moved, t)
}

/// The integer (vector) `x` converted to the float (vector) type `r`, rounded by `mode`
/// (nearest even by default).
fn int_to_float<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
    signed: bool,
    mode: Option<FPRoundingMode>,
) -> Result<BasicValueEnum<'ctx>> {
    let y = cast(b, if signed { O::SIToFP } else { O::UIToFP }, x, r)?;
    let mode = match mode {
        None | Some(FPRoundingMode::RTE) => return Ok(y),
        Some(m) => m,
    };
    let t = x.get_type();
    let w = super::super::llvm::int_width(t)?;
    let magnitude_bits = if signed { w - 1 } else { w };
    if let (_, Some(p)) = float_format(cx, r)? {
        // Every integer of the type is exact (|MIN| of a signed type is a power of two, and
        // every format's largest exponent exceeds its precision).
        if magnitude_bits <= p {
            return Ok(y);
        }
    }
    // Compare y with x exactly: y is integral (or ±inf), and inside the integer type's range
    // converts back exactly.
    let (min, max) = int_range(w, signed);
    let hi = splat_float(r, (max + 1) as f64)?;
    let lo = splat_float(r, min as f64)?;
    let beyond_hi = fcmp(b, F::OGE, y, hi)?;
    // The minimum converts exactly unless the float type cannot hold it (f16): then -inf.
    let beyond_lo = fcmp(b, F::OLT, y, lo)?;
    let beyond_lo = or(
        b,
        beyond_lo,
        fcmp(b, F::OEQ, y, splat_float(r, f64::NEG_INFINITY)?)?,
    )?;
    let outside = or(b, beyond_hi, beyond_lo)?;
    let safe = select(b, outside, null(r), y)?;
    let back = cast(b, if signed { O::FPToSI } else { O::FPToUI }, safe, t)?;
    let (gt, lt) = if signed {
        (I::SGT, I::SLT)
    } else {
        (I::UGT, I::ULT)
    };
    let inside = not(cx, b, outside)?;
    let above = or(b, beyond_hi, and(b, inside, icmp(b, gt, back, x)?)?)?;
    let below = or(b, beyond_lo, and(b, inside, icmp(b, lt, back, x)?)?)?;
    let positive = icmp(b, if signed { I::SGT } else { I::NE }, x, null(t))?;
    let negative = if signed {
        icmp(b, I::SLT, x, null(t))?
    } else {
        bools(cx, t, false)?
    };
    step(cx, b, y, above, below, positive, negative, mode)
}

/// The float (vector) `x` converted to the float (vector) type `r`, rounded by `mode` when
/// narrowing (nearest even by default).
fn float_to_float<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
    mode: Option<FPRoundingMode>,
) -> Result<BasicValueEnum<'ctx>> {
    let t = x.get_type();
    if t == r {
        return Ok(x);
    }
    let (wf, _) = float_format(cx, t)?;
    let (wr, _) = float_format(cx, r)?;
    let x = if wf < wr {
        return cast(b, O::FPExt, x, r);
    } else if wf == wr {
        // Two 16-bit formats (half, bfloat): from `float`, which holds both exactly.
        cast(b, O::FPExt, x, like(t, cx.f32_type().into())?)?
    } else {
        x
    };
    let y = cast(b, O::FPTrunc, x, r)?;
    let mode = match mode {
        None | Some(FPRoundingMode::RTE) => return Ok(y),
        Some(m) => m,
    };
    let wide = cast(b, O::FPExt, y, x.get_type())?;
    let above = fcmp(b, F::OGT, wide, x)?;
    let below = fcmp(b, F::OLT, wide, x)?;
    let zero = null(x.get_type());
    let positive = fcmp(b, F::OGT, x, zero)?;
    let negative = fcmp(b, F::OLT, x, zero)?;
    step(cx, b, y, above, below, positive, negative, mode)
}

/// `OpSpecConstantOp` of a conversion: the decorated conversion, which folds on constants
/// (directed float → integer rounding calls intrinsics and does not: the caller reports it).
pub(crate) fn constant<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    opcode: Opcode,
    args: &[BasicValueEnum<'ctx>],
    r: BasicTypeEnum<'ctx>,
    decorations: &[Decoration],
) -> Result<BasicValueEnum<'ctx>> {
    let x = *args
        .first()
        .ok_or_else(|| LowerError::malformed("operand"))?;
    convert(cx, m, b, opcode, x, r, Exactness::of(decorations))
}

/// `vstore_half*_r`: the float (vector) `x` as `half`, rounded by `mode`.
pub(crate) fn to_half<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: BasicValueEnum<'ctx>,
    mode: Option<FPRoundingMode>,
) -> Result<BasicValueEnum<'ctx>> {
    let r = like(x.get_type(), cx.f16_type().as_basic_type_enum())?;
    float_to_float(cx, b, x, r, mode)
}
