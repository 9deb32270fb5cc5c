//! The table-driven lowering: a generated [`Pattern`] and operand values in, one LLVM
//! instruction, comparison, intrinsic call or C math call out.

use crate::grammar::lowering::{Pattern, PatternKind};
use crate::lower::error::{LowerError, Result};
use crate::lower::llvm::{fcmp, icmp, int_resize, per_lane, scalar_of};
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, InstructionOpcode as O};
use inkwell::{FloatPredicate as F, IntPredicate as I};

fn binop(name: &str) -> Option<O> {
    Some(match name {
        "add" => O::Add,
        "sub" => O::Sub,
        "mul" => O::Mul,
        "udiv" => O::UDiv,
        "sdiv" => O::SDiv,
        "urem" => O::URem,
        "srem" => O::SRem,
        "fadd" => O::FAdd,
        "fsub" => O::FSub,
        "fmul" => O::FMul,
        "fdiv" => O::FDiv,
        "frem" => O::FRem,
        "and" => O::And,
        "or" => O::Or,
        "xor" => O::Xor,
        _ => return None,
    })
}

/// The casts a pattern may name. Not `fptoui`/`fptosi`: out of range they make poison, so the
/// float → integer conversions are hand-written (`super::convert`).
fn cast(name: &str) -> Option<O> {
    Some(match name {
        "uitofp" => O::UIToFP,
        "sitofp" => O::SIToFP,
        "bitcast" => O::BitCast,
        "ptrtoint" => O::PtrToInt,
        "inttoptr" => O::IntToPtr,
        _ => return None,
    })
}

fn ipred(name: &str) -> Option<I> {
    Some(match name {
        "eq" => I::EQ,
        "ne" => I::NE,
        "ugt" => I::UGT,
        "uge" => I::UGE,
        "ult" => I::ULT,
        "ule" => I::ULE,
        "sgt" => I::SGT,
        "sge" => I::SGE,
        "slt" => I::SLT,
        "sle" => I::SLE,
        _ => return None,
    })
}

fn fpred(name: &str) -> Option<F> {
    Some(match name {
        "oeq" => F::OEQ,
        "one" => F::ONE,
        "olt" => F::OLT,
        "ole" => F::OLE,
        "ogt" => F::OGT,
        "oge" => F::OGE,
        "ord" => F::ORD,
        "ueq" => F::UEQ,
        "une" => F::UNE,
        "ult" => F::ULT,
        "ule" => F::ULE,
        "ugt" => F::UGT,
        "uge" => F::UGE,
        "uno" => F::UNO,
        _ => return None,
    })
}

fn unknown(p: &Pattern) -> LowerError {
    LowerError::malformed(format!(
        "the table names `{}` for {}, which the lowering does not know",
        p.llvm, p.name
    ))
}

fn arity(p: &Pattern, args: &[BasicValueEnum<'_>], n: usize) -> Result<()> {
    if args.len() != n {
        return Err(LowerError::malformed(format!(
            "{} takes {n} operands, not {}",
            p.name,
            args.len()
        )));
    }
    Ok(())
}

/// Lowers one table pattern.
pub fn apply<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    p: &Pattern,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    match p.kind {
        PatternKind::BinOp => {
            arity(p, args, 2)?;
            let op = binop(p.llvm).ok_or_else(|| unknown(p))?;
            if args[0].get_type() != args[1].get_type() {
                return Err(LowerError::malformed("operands of different types"));
            }
            Ok(crate::lower::llvm::binop(b, op, args[0], args[1])?)
        }
        PatternKind::UnOp => {
            arity(p, args, 1)?;
            match p.llvm {
                "fneg" if !crate::lower::llvm::scalar_of(args[0].get_type()).is_float_type() => {
                    Err(LowerError::malformed("fneg of a non-float"))
                }
                "fneg" => Ok(match args[0] {
                    BasicValueEnum::FloatValue(v) => b.build_float_neg(v, "")?.into(),
                    BasicValueEnum::VectorValue(v) => b.build_float_neg(v, "")?.into(),
                    _ => return Err(LowerError::malformed("fneg of a non-float")),
                }),
                "neg" => {
                    let zero = crate::lower::llvm::null(args[0].get_type());
                    Ok(crate::lower::llvm::binop(b, O::Sub, zero, args[0])?)
                }
                _ => Err(unknown(p)),
            }
        }
        PatternKind::Cast => {
            arity(p, args, 1)?;
            let mut op = cast(p.llvm).ok_or_else(|| unknown(p))?;
            let from = args[0].get_type();
            if op == O::BitCast {
                let (fp, tp) = (
                    scalar_of(from).is_pointer_type(),
                    scalar_of(result).is_pointer_type(),
                );
                op = match (fp, tp) {
                    (true, true) => return Ok(args[0]),
                    (true, false) => O::PtrToInt,
                    (false, true) => O::IntToPtr,
                    _ => O::BitCast,
                };
                if op != O::BitCast && from.is_vector_type() != result.is_vector_type() {
                    // A pointer and a vector of integers (`uvec2` ↔ pointer): through i64.
                    let i64t = cx.i64_type();
                    return Ok(if op == O::IntToPtr {
                        let i = crate::lower::llvm::cast(b, O::BitCast, args[0], i64t)?;
                        crate::lower::llvm::cast(b, O::IntToPtr, i, result)?
                    } else {
                        let i = crate::lower::llvm::cast(b, O::PtrToInt, args[0], i64t)?;
                        crate::lower::llvm::cast(b, O::BitCast, i, result)?
                    });
                }
            }
            Ok(crate::lower::llvm::cast(b, op, args[0], result)?)
        }
        PatternKind::ICmp => {
            arity(p, args, 2)?;
            icmp(
                b,
                ipred(p.llvm).ok_or_else(|| unknown(p))?,
                args[0],
                args[1],
            )
        }
        PatternKind::FCmp => {
            arity(p, args, 2)?;
            fcmp(
                b,
                fpred(p.llvm).ok_or_else(|| unknown(p))?,
                args[0],
                args[1],
            )
        }
        PatternKind::FCmpSelf => {
            arity(p, args, 1)?;
            fcmp(
                b,
                fpred(p.llvm).ok_or_else(|| unknown(p))?,
                args[0],
                args[0],
            )
        }
        PatternKind::Select => {
            arity(p, args, 3)?;
            crate::lower::llvm::select(b, args[0], args[1], args[2])
        }
        PatternKind::Intrinsic => intrinsic(cx, m, b, p, args, result),
        PatternKind::LibM => libm(cx, m, b, p.llvm, args, result),
    }
}

/// A call of an LLVM intrinsic overloaded as the pattern says.
pub fn intrinsic<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    p: &Pattern,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    // Reductions of a scalar (OpAny/OpAll of a bool) are the scalar.
    if p.llvm.starts_with("llvm.vector.reduce.") && args.len() == 1 && !args[0].is_vector_value() {
        return Ok(args[0]);
    }
    let mut tys = Vec::new();
    for o in p.overload {
        tys.push(match o {
            None => result,
            Some(i) => args
                .get(usize::from(*i))
                .ok_or_else(|| LowerError::malformed("missing operand"))?
                .get_type(),
        });
    }
    call_intrinsic(cx, m, b, p.llvm, &tys, args, p.trailing_i1, result)
}

/// Calls intrinsic `name` overloaded on `tys`; an integer result of another width than
/// `result` is zero-extended or truncated to it.
#[allow(clippy::too_many_arguments)]
pub fn call_intrinsic<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    name: &str,
    tys: &[BasicTypeEnum<'ctx>],
    args: &[BasicValueEnum<'ctx>],
    trailing_i1: Option<bool>,
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let i = Intrinsic::find(name)
        .ok_or_else(|| LowerError::unsupported(format!("LLVM has no intrinsic {name}")))?;
    let f = i
        .get_declaration(m, tys)
        .ok_or_else(|| LowerError::malformed(format!("{name} does not take these types")))?;
    let mut call_args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
    if let Some(flag) = trailing_i1 {
        call_args.push(cx.bool_type().const_int(u64::from(flag), false).into());
    }
    let expected = f.count_params() as usize;
    if call_args.len() != expected {
        return Err(LowerError::malformed(format!(
            "{name} takes {expected} operands, not {}",
            call_args.len()
        )));
    }
    for (a, p) in call_args.iter().zip(f.get_type().get_param_types()) {
        let at = match a {
            BasicMetadataValueEnum::IntValue(v) => v.get_type().as_basic_type_enum(),
            BasicMetadataValueEnum::FloatValue(v) => v.get_type().as_basic_type_enum(),
            BasicMetadataValueEnum::VectorValue(v) => v.get_type().as_basic_type_enum(),
            BasicMetadataValueEnum::PointerValue(v) => v.get_type().as_basic_type_enum(),
            _ => continue,
        };
        if inkwell::types::BasicMetadataTypeEnum::from(at) != p {
            return Err(LowerError::malformed(format!(
                "an operand of {name} of the wrong type"
            )));
        }
    }
    let r = crate::lower::llvm::call_result(b.build_call(f, &call_args, "")?)
        .ok_or_else(|| LowerError::malformed(format!("{name} returns nothing")))?;
    if r.get_type() != result && scalar_of(result).is_int_type() {
        return int_resize(b, r, result, false);
    }
    Ok(r)
}

/// A call of the C math function `name` (its `double` spelling), per component, with `f16`
/// computed in `float`.
pub fn libm<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let st = scalar_of(result);
    if !st.is_float_type() {
        return Err(LowerError::malformed(format!("{name} of a non-float")));
    }
    let width = cx_width(st);
    let (fname, ct) = match width {
        64 => (name.to_string(), cx.f64_type()),
        _ => (format!("{name}f"), cx.f32_type()),
    };
    let ps: Vec<_> = args.iter().map(|_| ct.into()).collect();
    let f = crate::lower::llvm::external(m, &fname, ct.fn_type(&ps, false))?;
    per_lane(b, cx, args, result, |lane| {
        let mut call_args: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
        for a in lane {
            let BasicValueEnum::FloatValue(v) = a else {
                return Err(LowerError::malformed(format!("{name} of a non-float")));
            };
            let v = if width == 16 {
                b.build_float_ext(*v, ct, "")?
            } else {
                *v
            };
            call_args.push(v.into());
        }
        let r = crate::lower::llvm::call_result(b.build_call(f, &call_args, "")?)
            .ok_or_else(|| LowerError::malformed("libm"))?;
        if width == 16 {
            Ok(
                b.build_float_trunc(r.into_float_value(), cx.f16_type(), "")?
                    .into(),
            )
        } else {
            Ok(r)
        }
    })
}

fn cx_width(t: BasicTypeEnum<'_>) -> u32 {
    match t {
        BasicTypeEnum::FloatType(f) => {
            let cx = f.get_context();
            if f == cx.f16_type() {
                16
            } else if f == cx.f64_type() {
                64
            } else {
                32
            }
        }
        _ => 32,
    }
}
