//! OpenCL.std instructions with pointer results, literal operands or C-library calls:
//! `fract`, `modf`, `sincos`, `frexp` (results through a pointer), the half-precision loads and
//! stores (`vload_half`, `vstore_halfn_r`, ...; the `_r` forms round as their operand says,
//! through [`super::convert`]), `printf` (the host's C `printf`, see [`super::printf`]),
//! `prefetch` (nothing), and the
//! integer and selection functions that are a few instructions each.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{
    fcmp, float_width, icmp, lane, lanes, null, scalar_of, splat_float, splat_int, undef,
};
use super::super::Lowerer;
use super::table::{call_intrinsic, libm};
use crate::grammar::{Id, OpExtInst};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum, InstructionOpcode as O};
use inkwell::{AddressSpace, FloatPredicate as F, IntPredicate as I};

fn int_like<'ctx>(
    cx: &'ctx inkwell::context::Context,
    t: BasicTypeEnum<'ctx>,
    width: u32,
) -> Result<BasicTypeEnum<'ctx>> {
    let it = super::super::llvm::int_ty(cx, width)?;
    Ok(match t {
        BasicTypeEnum::VectorType(v) => it.vec_type(v.get_size()).into(),
        _ => it.into(),
    })
}

/// Lowers one of this module's instructions. `r` is the result type (`i8` for `void`).
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    name: &str,
    e: &OpExtInst,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let cx = l.cx;
    let word = |i: usize| {
        e.operands
            .get(i)
            .copied()
            .ok_or_else(|| LowerError::malformed("a missing operand"))
    };
    let mut id = |l: &mut Lowerer<'a, 'ctx>, i: usize| -> Result<BasicValueEnum<'ctx>> {
        let w = word(i)?;
        l.id(fx, Id(w))
    };
    let ptr = |v: BasicValueEnum<'ctx>| match v {
        BasicValueEnum::PointerValue(p) => Ok(p),
        _ => Err(LowerError::malformed(
            "a pointer operand that is not a pointer",
        )),
    };
    let int = |v: BasicValueEnum<'ctx>| match v {
        BasicValueEnum::IntValue(i) => Ok(i),
        _ => Err(LowerError::malformed("an offset that is not an integer")),
    };
    Ok(match name {
        "fract" => {
            let x = id(l, 0)?;
            let p = ptr(id(l, 1)?)?;
            let t = x.get_type();
            let fl = call_intrinsic(cx, &l.llm, &l.b, "llvm.floor", &[t], &[x], None, t)?;
            crate::lower::llvm::store(&l.b, &l.td, p, fl)?;
            let d = crate::lower::llvm::binop(&l.b, O::FSub, x, fl)?;
            let below_one = match float_width(t) {
                16 => 0.999_511_718_75,
                64 => 1.0 - f64::EPSILON / 2.0,
                _ => f64::from(1.0f32 - f32::EPSILON / 2.0),
            };
            call_intrinsic(
                cx,
                &l.llm,
                &l.b,
                "llvm.minnum",
                &[t],
                &[d, splat_float(t, below_one)?],
                None,
                t,
            )?
        }
        "modf" => {
            let x = id(l, 0)?;
            let p = ptr(id(l, 1)?)?;
            let t = x.get_type();
            let tr = call_intrinsic(cx, &l.llm, &l.b, "llvm.trunc", &[t], &[x], None, t)?;
            crate::lower::llvm::store(&l.b, &l.td, p, tr)?;
            let d = crate::lower::llvm::binop(&l.b, O::FSub, x, tr)?;
            // modf(±inf) is ±0 with the sign of x.
            call_intrinsic(cx, &l.llm, &l.b, "llvm.copysign", &[t], &[d, x], None, t)?
        }
        "sincos" => {
            let x = id(l, 0)?;
            let p = ptr(id(l, 1)?)?;
            let t = x.get_type();
            let c = call_intrinsic(cx, &l.llm, &l.b, "llvm.cos", &[t], &[x], None, t)?;
            crate::lower::llvm::store(&l.b, &l.td, p, c)?;
            call_intrinsic(cx, &l.llm, &l.b, "llvm.sin", &[t], &[x], None, t)?
        }
        "frexp" => {
            let x = id(l, 0)?;
            let p = ptr(id(l, 1)?)?;
            let et = int_like(cx, x.get_type(), 32)?;
            let (mantissa, ex) = crate::lower::llvm::frexp(&l.b, &l.llm, x, et)?;
            crate::lower::llvm::store(&l.b, &l.td, p, ex)?;
            mantissa
        }
        "ilogb" => {
            let x = id(l, 0)?;
            let et = int_like(cx, x.get_type(), 32)?;
            let (_, ex) = crate::lower::llvm::frexp(&l.b, &l.llm, x, et)?;
            crate::lower::llvm::binop(&l.b, O::Sub, ex, splat_int(et, 1)?)?
        }
        "nan" => {
            let code = id(l, 0)?;
            let w = float_width(r);
            let quiet: u64 = match w {
                16 => 0x7e00,
                64 => 0x7ff8_0000_0000_0000,
                _ => 0x7fc0_0000,
            };
            let it = int_like(cx, r, w)?;
            let c = super::super::llvm::int_resize(&l.b, code, it, false)?;
            let bits = crate::lower::llvm::binop(&l.b, O::Or, c, splat_int(it, quiet)?)?;
            crate::lower::llvm::cast(&l.b, O::BitCast, bits, r)?
        }
        "vload_half" | "vload_halfn" | "vloada_halfn" => {
            let off = int(id(l, 0)?)?;
            let p = ptr(id(l, 1)?)?;
            let n = lanes(r);
            let stride = if name == "vloada_halfn" && n == 3 {
                4
            } else {
                n
            };
            let idx =
                l.b.build_int_mul(off, off.get_type().const_int(stride.into(), false), "")?;
            // SAFETY: the element address OpenCL defines.
            let at = unsafe { l.b.build_gep(cx.f16_type(), p, &[idx], "")? };
            let ht: BasicTypeEnum<'ctx> = if n > 1 {
                cx.f16_type().vec_type(n).into()
            } else {
                cx.f16_type().into()
            };
            let h = l.b.build_load(ht, at, "")?;
            if let Some(i) = h.as_instruction_value() {
                let _ = i.set_alignment(2);
            }
            crate::lower::llvm::cast(&l.b, O::FPExt, h, r)?
        }
        "vstore_half" | "vstore_half_r" | "vstore_halfn" | "vstore_halfn_r" | "vstorea_halfn"
        | "vstorea_halfn_r" => {
            let data = id(l, 0)?;
            let off = int(id(l, 1)?)?;
            let p = ptr(id(l, 2)?)?;
            let n = lanes(data.get_type());
            let stride = if name.starts_with("vstorea") && n == 3 {
                4
            } else {
                n
            };
            let idx =
                l.b.build_int_mul(off, off.get_type().const_int(stride.into(), false), "")?;
            // SAFETY: the element address OpenCL defines.
            let at = unsafe { l.b.build_gep(cx.f16_type(), p, &[idx], "")? };
            let ht: BasicTypeEnum<'ctx> = if n > 1 {
                cx.f16_type().vec_type(n).into()
            } else {
                cx.f16_type().into()
            };
            // The `_r` forms' last operand is the rounding mode.
            let mode = if name.ends_with("_r") {
                let w = word(3)?;
                Some(
                    crate::grammar::FPRoundingMode::from_value(w).ok_or_else(|| {
                        LowerError::malformed(format!("{name}: {w} is not an FP rounding mode"))
                    })?,
                )
            } else {
                None
            };
            let h = super::convert::to_half(cx, &l.b, data, mode)?;
            if h.get_type() != ht {
                return Err(LowerError::malformed(format!("{name} of a non-float")));
            }
            let st = crate::lower::llvm::store(&l.b, &l.td, at, h)?;
            let _ = st.set_alignment(2);
            undef(r)
        }
        "prefetch" => undef(r),
        "printf" => {
            let pt = cx.ptr_type(AddressSpace::default());
            let f = super::super::llvm::external(
                &l.llm,
                "printf",
                cx.i32_type().fn_type(&[pt.into()], true),
            )?;
            let format = id(l, 0)?;
            let mut vals = Vec::new();
            for i in 1..e.operands.len() {
                vals.push(id(l, i)?);
            }
            let args = if super::printf::has_vectors(&vals) {
                super::printf::expand(l, fx, Id(word(0)?), &vals)?
            } else {
                let mut args: Vec<BasicMetadataValueEnum<'ctx>> = vec![format.into()];
                for v in vals {
                    // Integers as the module has them: only the format knows their sign.
                    let v = match v {
                        BasicValueEnum::FloatValue(_) => super::printf::promote(l, v, false)?,
                        v => v,
                    };
                    args.push(v.into());
                }
                args
            };
            let c = super::super::llvm::call_result(l.b.build_call(f, &args, "")?)
                .ok_or_else(|| LowerError::malformed("printf"))?;
            super::super::llvm::int_resize(&l.b, c, r, true)?
        }
        // The C library's reentrant forms, for scalars: `lgammaf_r(x, &sign)`,
        // `remquof(x, y, &quo)`.
        "lgamma_r" | "remquo" => {
            if r.is_vector_type() {
                return Err(LowerError::unsupported(format!("vector {name}")));
            }
            let n = if name == "remquo" { 2 } else { 1 };
            let mut vals = Vec::new();
            for i in 0..n {
                vals.push(id(l, i)?);
            }
            let p = ptr(id(l, n)?)?;
            let w = float_width(r);
            if vals.iter().any(|v| v.get_type() != r) || w == 16 {
                return Err(LowerError::unsupported(format!("{name} of this type")));
            }
            let ft = r;
            let fname = match (w, name) {
                (64, "remquo") => "remquo".to_string(),
                (64, _) => "lgamma_r".to_string(),
                (_, "remquo") => "remquof".to_string(),
                _ => "lgammaf_r".to_string(),
            };
            let pt = cx.ptr_type(AddressSpace::default());
            let mut ps: Vec<inkwell::types::BasicMetadataTypeEnum<'ctx>> =
                vals.iter().map(|_| ft.into()).collect();
            ps.push(pt.into());
            let fty = match ft {
                BasicTypeEnum::FloatType(f) => f.fn_type(&ps, false),
                _ => return Err(LowerError::malformed("a float result was expected")),
            };
            let f = super::super::llvm::external(&l.llm, &fname, fty)?;
            let mut args: Vec<BasicMetadataValueEnum<'ctx>> =
                vals.iter().map(|&v| v.into()).collect();
            args.push(p.into());
            super::super::llvm::call_result(l.b.build_call(f, &args, "")?)
                .ok_or_else(|| LowerError::malformed(name.to_string()))?
        }
        "bitselect" => {
            let (a, bb, c) = (id(l, 0)?, id(l, 1)?, id(l, 2)?);
            let t = a.get_type();
            let is_float = scalar_of(t).is_float_type();
            let it = if is_float {
                int_like(cx, t, float_width(t))?
            } else {
                t
            };
            let cast = |v: BasicValueEnum<'ctx>| -> Result<BasicValueEnum<'ctx>> {
                Ok(if is_float {
                    crate::lower::llvm::cast(&l.b, O::BitCast, v, it)?
                } else {
                    v
                })
            };
            let (a, bb, c) = (cast(a)?, cast(bb)?, cast(c)?);
            let nc = crate::lower::llvm::binop(&l.b, O::Xor, c, splat_int(it, u64::MAX)?)?;
            let x = crate::lower::llvm::binop(&l.b, O::And, a, nc)?;
            let y = crate::lower::llvm::binop(&l.b, O::And, bb, c)?;
            let o = crate::lower::llvm::binop(&l.b, O::Or, x, y)?;
            if is_float {
                crate::lower::llvm::cast(&l.b, O::BitCast, o, t)?
            } else {
                o
            }
        }
        "select" => {
            let (a, bb, c) = (id(l, 0)?, id(l, 1)?, id(l, 2)?);
            // Scalars: c != 0; vectors: the most significant bit of each c lane.
            let cond = if c.is_vector_value() {
                icmp(&l.b, I::SLT, c, null(c.get_type()))?
            } else {
                icmp(&l.b, I::NE, c, null(c.get_type()))?
            };
            match cond {
                BasicValueEnum::IntValue(_) | BasicValueEnum::VectorValue(_) => {
                    crate::lower::llvm::select(&l.b, cond, bb, a)?
                }
                _ => return Err(LowerError::malformed("select")),
            }
        }
        "pown" | "rootn" => {
            let (x, n) = (id(l, 0)?, id(l, 1)?);
            let t = x.get_type();
            let nf = crate::lower::llvm::cast(&l.b, O::SIToFP, n, t)?;
            if name == "pown" {
                libm(cx, &l.llm, &l.b, "pow", &[x, nf], t)?
            } else {
                // rootn(x, n) = sign(x) * |x|^(1/n), defined for negative x when n is odd.
                let inv = crate::lower::llvm::binop(&l.b, O::FDiv, splat_float(t, 1.0)?, nf)?;
                let ax = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[x], None, t)?;
                let p = libm(cx, &l.llm, &l.b, "pow", &[ax, inv], t)?;
                let odd = crate::lower::llvm::binop(&l.b, O::And, n, splat_int(n.get_type(), 1)?)?;
                let odd = icmp(&l.b, I::NE, odd, null(n.get_type()))?;
                let neg = fcmp(&l.b, F::OLT, x, null(t))?;
                let signed =
                    call_intrinsic(cx, &l.llm, &l.b, "llvm.copysign", &[t], &[p, x], None, t)?;
                let nan = splat_float(t, f64::NAN)?;
                let neg_result = select_v(&l.b, odd, signed, nan)?;
                select_v(&l.b, neg, neg_result, p)?
            }
        }
        "maxmag" | "minmag" => {
            let (x, y) = (id(l, 0)?, id(l, 1)?);
            let t = x.get_type();
            let ax = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[x], None, t)?;
            let ay = call_intrinsic(cx, &l.llm, &l.b, "llvm.fabs", &[t], &[y], None, t)?;
            let (first, second) = if name == "maxmag" {
                (F::OGT, F::OLT)
            } else {
                (F::OLT, F::OGT)
            };
            let pick_x = fcmp(&l.b, first, ax, ay)?;
            let pick_y = fcmp(&l.b, second, ax, ay)?;
            let tie = if name == "maxmag" {
                "llvm.maxnum"
            } else {
                "llvm.minnum"
            };
            let m = call_intrinsic(cx, &l.llm, &l.b, tie, &[t], &[x, y], None, t)?;
            let r1 = select_v(&l.b, pick_y, y, m)?;
            select_v(&l.b, pick_x, x, r1)?
        }
        "s_abs_diff" | "u_abs_diff" => {
            let (x, y) = (id(l, 0)?, id(l, 1)?);
            let t = x.get_type();
            let (mx, mn) = if name == "s_abs_diff" {
                ("llvm.smax", "llvm.smin")
            } else {
                ("llvm.umax", "llvm.umin")
            };
            let hi = call_intrinsic(cx, &l.llm, &l.b, mx, &[t], &[x, y], None, t)?;
            let lo = call_intrinsic(cx, &l.llm, &l.b, mn, &[t], &[x, y], None, t)?;
            crate::lower::llvm::binop(&l.b, O::Sub, hi, lo)?
        }
        "s_upsample" | "u_upsample" => {
            let (hi, lo) = (id(l, 0)?, id(l, 1)?);
            let w = super::super::llvm::int_width(hi.get_type())?;
            let h = super::super::llvm::int_resize(&l.b, hi, r, name == "s_upsample")?;
            let lw = super::super::llvm::int_resize(&l.b, lo, r, false)?;
            let sh = crate::lower::llvm::binop(&l.b, O::Shl, h, splat_int(r, w.into())?)?;
            crate::lower::llvm::binop(&l.b, O::Or, sh, lw)?
        }
        "s_mad_sat" | "u_mad_sat" => {
            let (x, y, z) = (id(l, 0)?, id(l, 1)?, id(l, 2)?);
            let t = x.get_type();
            let signed = name == "s_mad_sat";
            let w = super::super::llvm::int_width(t)?;
            let wide = int_like(cx, t, 2 * w + 2)?;
            let ext = |v| super::super::llvm::int_resize(&l.b, v, wide, signed);
            let p = crate::lower::llvm::binop(&l.b, O::Mul, ext(x)?, ext(y)?)?;
            let s = crate::lower::llvm::binop(&l.b, O::Add, p, ext(z)?)?;
            let (lo, hi) = if signed {
                (
                    super::super::llvm::int_resize(&l.b, splat_int(t, 1 << (w - 1))?, wide, true)?,
                    super::super::llvm::int_resize(
                        &l.b,
                        splat_int(t, (1u64 << (w - 1)) - 1)?,
                        wide,
                        true,
                    )?,
                )
            } else {
                (
                    null(wide),
                    super::super::llvm::int_resize(&l.b, splat_int(t, u64::MAX)?, wide, false)?,
                )
            };
            let (mx, mn) = ("llvm.smax", "llvm.smin");
            let c = call_intrinsic(cx, &l.llm, &l.b, mx, &[wide], &[s, lo], None, wide)?;
            let c = call_intrinsic(cx, &l.llm, &l.b, mn, &[wide], &[c, hi], None, wide)?;
            crate::lower::llvm::cast(&l.b, O::Trunc, c, t)?
        }
        "shuffle" | "shuffle2" => {
            let two = name == "shuffle2";
            let x = id(l, 0)?;
            let y = if two { Some(id(l, 1)?) } else { None };
            let mask = id(l, if two { 2 } else { 1 })?;
            let (BasicValueEnum::VectorValue(xv), BasicValueEnum::VectorValue(mv)) = (x, mask)
            else {
                return Err(LowerError::malformed("shuffle of non-vectors"));
            };
            let n = xv.get_type().get_size();
            let BasicTypeEnum::IntType(mt) = mv.get_type().get_element_type() else {
                return Err(LowerError::malformed("a shuffle mask that is not integer"));
            };
            let mut out = crate::lower::llvm::undef_vector(r)?;
            for i in 0..lanes(r) {
                let k =
                    l.b.build_extract_element(mv, lane(cx, i), "")?
                        .into_int_value();
                let total = if two { 2 * n } else { n };
                let k =
                    l.b.build_int_unsigned_rem(k, mt.const_int(total.into(), false), "")?;
                let from_x = l.b.build_extract_element(xv, k, "")?;
                let v = match y {
                    Some(BasicValueEnum::VectorValue(yv)) => {
                        let k2 = l.b.build_int_sub(k, mt.const_int(n.into(), false), "")?;
                        let k2 =
                            l.b.build_int_unsigned_rem(k2, mt.const_int(n.into(), false), "")?;
                        let from_y = l.b.build_extract_element(yv, k2, "")?;
                        let in_x =
                            l.b.build_int_compare(I::ULT, k, mt.const_int(n.into(), false), "")?;
                        crate::lower::llvm::select(&l.b, in_x.into(), from_x, from_y)?
                    }
                    _ => from_x,
                };
                out = crate::lower::llvm::insert_element(&l.b, out, v, lane(cx, i), "")?;
            }
            out.into()
        }
        _ => {
            return Err(LowerError::unsupported(format!(
                "OpenCL.std {name} is not lowered"
            )))
        }
    })
}

fn select_v<'ctx>(
    b: &inkwell::builder::Builder<'ctx>,
    c: BasicValueEnum<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    crate::lower::llvm::select(b, c, x, y)
}
