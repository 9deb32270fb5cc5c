//! Hand-written math of GLSL.std.450 and OpenCL.std: the instructions that are not one LLVM
//! instruction or intrinsic (sign, fract, clamp, mix, step, smoothstep, geometric functions,
//! find-LSB/MSB, modf, frexp, determinant, reciprocal square roots, ...), each a few
//! instructions built from scalars or whole vectors. See `docs/lowering.md` for the rest.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{fcmp, icmp, lane, null, scalar_of, splat, splat_float, splat_int};
use super::super::Lowerer;
use super::matrix::dot;
use super::table::call_intrinsic;
use crate::grammar::OpExtInst;
use crate::ir::Op;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, InstructionOpcode as O};
use inkwell::{FloatPredicate as F, IntPredicate as I};

struct M<'m, 'ctx> {
    cx: &'ctx Context,
    m: &'m Module<'ctx>,
    b: &'m Builder<'ctx>,
    td: &'m inkwell::targets::TargetData,
}

impl<'m, 'ctx> M<'m, 'ctx> {
    fn bin(
        &self,
        op: O,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        crate::lower::llvm::binop(self.b, op, a, b)
    }
    fn intr(&self, name: &str, args: &[BasicValueEnum<'ctx>]) -> Result<BasicValueEnum<'ctx>> {
        let t = args[0].get_type();
        call_intrinsic(self.cx, self.m, self.b, name, &[t], args, None, t)
    }
    fn intr_i1(
        &self,
        name: &str,
        x: BasicValueEnum<'ctx>,
        flag: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        call_intrinsic(self.cx, self.m, self.b, name, &[t], &[x], Some(flag), t)
    }
    fn select(
        &self,
        c: BasicValueEnum<'ctx>,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        crate::lower::llvm::select(self.b, c, a, b)
    }
    fn f(&self, t: BasicTypeEnum<'ctx>, v: f64) -> Result<BasicValueEnum<'ctx>> {
        splat_float(t, v)
    }
    /// Length of a float scalar or vector.
    fn length(&self, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        match x {
            BasicValueEnum::VectorValue(v) => {
                let d = dot(self.cx, self.b, v, v)?;
                self.intr("llvm.sqrt", &[d.into()])
            }
            s => self.intr("llvm.fabs", &[s]),
        }
    }
    fn dot_any(
        &self,
        x: BasicValueEnum<'ctx>,
        y: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        match (x, y) {
            (BasicValueEnum::VectorValue(a), BasicValueEnum::VectorValue(b)) => {
                Ok(dot(self.cx, self.b, a, b)?.into())
            }
            _ => self.bin(O::FMul, x, y),
        }
    }
    fn splat_like(
        &self,
        s: BasicValueEnum<'ctx>,
        like: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        splat(self.b, s, super::super::llvm::lanes(like.get_type()))
    }
    fn fsign(&self, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let z = null(t);
        let gt = fcmp(self.b, F::OGT, x, z)?;
        let lt = fcmp(self.b, F::OLT, x, z)?;
        let neg = self.select(lt, self.f(t, -1.0)?, z)?;
        self.select(gt, self.f(t, 1.0)?, neg)
    }
    fn clamp(
        &self,
        min: &str,
        max: &str,
        x: BasicValueEnum<'ctx>,
        lo: BasicValueEnum<'ctx>,
        hi: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let lo = self.splat_like(lo, x)?;
        let hi = self.splat_like(hi, x)?;
        let a = self.intr(max, &[x, lo])?;
        self.intr(min, &[a, hi])
    }
    fn mix(
        &self,
        x: BasicValueEnum<'ctx>,
        y: BasicValueEnum<'ctx>,
        a: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let a = self.splat_like(a, x)?;
        let d = self.bin(O::FSub, y, x)?;
        let p = self.bin(O::FMul, d, a)?;
        self.bin(O::FAdd, x, p)
    }
    fn step(
        &self,
        edge: BasicValueEnum<'ctx>,
        x: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let edge = self.splat_like(edge, x)?;
        let lt = fcmp(self.b, F::OLT, x, edge)?;
        self.select(lt, null(t), self.f(t, 1.0)?)
    }
    fn smoothstep(
        &self,
        e0: BasicValueEnum<'ctx>,
        e1: BasicValueEnum<'ctx>,
        x: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let e0 = self.splat_like(e0, x)?;
        let e1 = self.splat_like(e1, x)?;
        let n = self.bin(O::FSub, x, e0)?;
        let d = self.bin(O::FSub, e1, e0)?;
        let q = self.bin(O::FDiv, n, d)?;
        let c = self.clamp(
            "llvm.minnum",
            "llvm.maxnum",
            q,
            self.f(scalar_of(t), 0.0)?,
            self.f(scalar_of(t), 1.0)?,
        )?;
        let two_t = self.bin(O::FMul, self.f(t, 2.0)?, c)?;
        let k = self.bin(O::FSub, self.f(t, 3.0)?, two_t)?;
        let tt = self.bin(O::FMul, c, c)?;
        self.bin(O::FMul, tt, k)
    }
    fn rsqrt(&self, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let s = self.intr("llvm.sqrt", &[x])?;
        self.bin(O::FDiv, self.f(x.get_type(), 1.0)?, s)
    }
    fn normalize(&self, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let len = self.length(x)?;
        let len = self.splat_like(len, x)?;
        self.bin(O::FDiv, x, len)
    }
    fn cross(
        &self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let (BasicValueEnum::VectorValue(a), BasicValueEnum::VectorValue(b)) = (a, b) else {
            return Err(LowerError::malformed("cross of non-vectors"));
        };
        let e = |v: inkwell::values::VectorValue<'ctx>, i: u32| -> Result<BasicValueEnum<'ctx>> {
            Ok(self.b.build_extract_element(v, lane(self.cx, i), "")?)
        };
        let mut out = super::super::llvm::undef(a.get_type().into()).into_vector_value();
        for (k, (i, j)) in [(1u32, 2u32), (2, 0), (0, 1)].into_iter().enumerate() {
            let p = self.bin(O::FMul, e(a, i)?, e(b, j)?)?;
            let q = self.bin(O::FMul, e(a, j)?, e(b, i)?)?;
            let d = self.bin(O::FSub, p, q)?;
            out = crate::lower::llvm::insert_element(self.b, out, d, lane(self.cx, k as u32), "")?;
        }
        // A 4-component cross (OpenCL) has 0 in w.
        if a.get_type().get_size() == 4 {
            let z = null(scalar_of(a.get_type().into()));
            out = crate::lower::llvm::insert_element(self.b, out, z, lane(self.cx, 3), "")?;
        }
        Ok(out.into())
    }
    fn find_umsb(
        &self,
        x: BasicValueEnum<'ctx>,
        r: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let w = super::super::llvm::int_width(t)?;
        let lz = self.intr_i1("llvm.ctlz", x, false)?;
        let msb = self.bin(O::Sub, splat_int(t, (w - 1).into())?, lz)?;
        // ctlz(0) = w gives w-1-w = -1, as FindUMsb(0) must.
        super::super::llvm::int_resize(self.b, msb, r, true)
    }
    /// The elements of a square matrix (an array of column vectors), column by column; `op`
    /// names the instruction in errors.
    #[allow(clippy::type_complexity)]
    fn square_columns(
        &self,
        v: BasicValueEnum<'ctx>,
        op: &str,
    ) -> Result<(
        inkwell::values::ArrayValue<'ctx>,
        Vec<Vec<BasicValueEnum<'ctx>>>,
    )> {
        let BasicValueEnum::ArrayValue(mat) = v else {
            return Err(LowerError::malformed(format!("{op} of a non-matrix")));
        };
        let n = mat.get_type().len();
        let mut cols = Vec::new();
        for c in 0..n {
            let BasicValueEnum::VectorValue(col) = self.b.build_extract_value(mat, c, "")? else {
                return Err(LowerError::malformed(
                    "a matrix column that is not a vector",
                ));
            };
            if col.get_type().get_size() != n {
                return Err(LowerError::malformed("a matrix that is not square"));
            }
            let mut v = Vec::new();
            for r in 0..n {
                v.push(self.b.build_extract_element(col, lane(self.cx, r), "")?);
            }
            cols.push(v);
        }
        Ok((mat, cols))
    }

    fn det(&self, m: &[Vec<BasicValueEnum<'ctx>>]) -> Result<BasicValueEnum<'ctx>> {
        let n = m.len();
        if n == 1 {
            return Ok(m[0][0]);
        }
        if n == 2 {
            let a = self.bin(O::FMul, m[0][0], m[1][1])?;
            let b = self.bin(O::FMul, m[1][0], m[0][1])?;
            return self.bin(O::FSub, a, b);
        }
        let mut acc: Option<BasicValueEnum<'ctx>> = None;
        for c in 0..n {
            let minor: Vec<Vec<_>> = m
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != c)
                .map(|(_, col)| col[1..].to_vec())
                .collect();
            let d = self.det(&minor)?;
            let t = self.bin(O::FMul, m[c][0], d)?;
            acc = Some(match acc {
                None => t,
                Some(a) if c % 2 == 1 => self.bin(O::FSub, a, t)?,
                Some(a) => self.bin(O::FAdd, a, t)?,
            });
        }
        acc.ok_or_else(|| LowerError::malformed("an empty matrix"))
    }
    fn mul_hi(
        &self,
        x: BasicValueEnum<'ctx>,
        y: BasicValueEnum<'ctx>,
        signed: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        let t = x.get_type();
        let w = super::super::llvm::int_width(t)?;
        let ws = super::super::llvm::int_ty(self.cx, 2 * w)?;
        let wide: BasicTypeEnum<'ctx> = match t {
            BasicTypeEnum::VectorType(v) => ws.vec_type(v.get_size()).into(),
            _ => ws.into(),
        };
        let ext = if signed { O::SExt } else { O::ZExt };
        let a = crate::lower::llvm::cast(self.b, ext, x, wide)?;
        let b = crate::lower::llvm::cast(self.b, ext, y, wide)?;
        let p = self.bin(O::Mul, a, b)?;
        let h = self.bin(O::LShr, p, splat_int(wide, w.into())?)?;
        crate::lower::llvm::cast(self.b, O::Trunc, h, t)
    }
}

fn arg<'ctx>(args: &[BasicValueEnum<'ctx>], i: usize) -> Result<BasicValueEnum<'ctx>> {
    args.get(i)
        .copied()
        .ok_or_else(|| LowerError::malformed("a missing operand"))
}

/// GLSL.std.450 instructions not in the table.
pub(crate) fn glsl<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    _fx: &mut FnCx<'_, 'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
    _e: &OpExtInst,
    _op: &Op,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let m = M {
        cx: l.cx,
        m: &l.llm,
        b: &l.b,
        td: &l.td,
    };
    let a = |i| arg(args, i);
    match name {
        "FSign" => m.fsign(a(0)?),
        "SSign" => {
            let t = r;
            let x = m.intr("llvm.smin", &[a(0)?, splat_int(t, 1)?])?;
            m.intr("llvm.smax", &[x, splat_int(t, u64::MAX)?])
        }
        "Fract" => {
            let f = m.intr("llvm.floor", &[a(0)?])?;
            m.bin(O::FSub, a(0)?, f)
        }
        "Radians" => m.bin(O::FMul, a(0)?, m.f(r, std::f64::consts::PI / 180.0)?),
        "Degrees" => m.bin(O::FMul, a(0)?, m.f(r, 180.0 / std::f64::consts::PI)?),
        "InverseSqrt" => m.rsqrt(a(0)?),
        "FClamp" | "NClamp" => m.clamp("llvm.minnum", "llvm.maxnum", a(0)?, a(1)?, a(2)?),
        "UClamp" => m.clamp("llvm.umin", "llvm.umax", a(0)?, a(1)?, a(2)?),
        "SClamp" => m.clamp("llvm.smin", "llvm.smax", a(0)?, a(1)?, a(2)?),
        "FMix" => m.mix(a(0)?, a(1)?, a(2)?),
        "Step" => m.step(a(0)?, a(1)?),
        "SmoothStep" => m.smoothstep(a(0)?, a(1)?, a(2)?),
        "Length" => m.length(a(0)?),
        "Distance" => {
            let d = m.bin(O::FSub, a(0)?, a(1)?)?;
            m.length(d)
        }
        "Normalize" => m.normalize(a(0)?),
        "Cross" => m.cross(a(0)?, a(1)?),
        "FaceForward" => {
            let d = m.dot_any(a(2)?, a(1)?)?;
            let lt = fcmp(m.b, F::OLT, d, null(d.get_type()))?;
            let neg = crate::lower::llvm::binop(m.b, O::FSub, null(r), a(0)?)?;
            m.select(lt, a(0)?, neg)
        }
        "Reflect" => {
            let (i, n) = (a(0)?, a(1)?);
            let d = m.dot_any(n, i)?;
            let d2 = m.bin(O::FMul, d, m.f(d.get_type(), 2.0)?)?;
            let s = m.splat_like(d2, n)?;
            let p = m.bin(O::FMul, s, n)?;
            m.bin(O::FSub, i, p)
        }
        "Refract" => {
            let (i, n, eta) = (a(0)?, a(1)?, a(2)?);
            let st = eta.get_type();
            let d = m.dot_any(n, i)?;
            let one = m.f(st, 1.0)?;
            let dd = m.bin(O::FMul, d, d)?;
            let om = m.bin(O::FSub, one, dd)?;
            let e2 = m.bin(O::FMul, eta, eta)?;
            let k = m.bin(O::FSub, one, m.bin(O::FMul, e2, om)?)?;
            let neg = fcmp(m.b, F::OLT, k, null(st))?;
            let sq = m.intr("llvm.sqrt", &[k])?;
            let ed = m.bin(O::FMul, eta, d)?;
            let coef = m.bin(O::FAdd, ed, sq)?;
            let ei = m.bin(O::FMul, m.splat_like(eta, i)?, i)?;
            let cn = m.bin(O::FMul, m.splat_like(coef, n)?, n)?;
            let res = m.bin(O::FSub, ei, cn)?;
            let negv = m.splat_like(neg, i)?;
            m.select(negv, null(r), res)
        }
        "FindILsb" => {
            let x = a(0)?;
            let tz = m.intr_i1("llvm.cttz", x, false)?;
            let zero = icmp(m.b, I::EQ, x, null(x.get_type()))?;
            let v = m.select(zero, splat_int(x.get_type(), u64::MAX)?, tz)?;
            super::super::llvm::int_resize(m.b, v, r, true)
        }
        "FindUMsb" => m.find_umsb(a(0)?, r),
        "FindSMsb" => {
            let x = a(0)?;
            let neg = icmp(m.b, I::SLT, x, null(x.get_type()))?;
            let inv = m.bin(O::Xor, x, splat_int(x.get_type(), u64::MAX)?)?;
            let y = m.select(neg, inv, x)?;
            m.find_umsb(y, r)
        }
        "ModfStruct" => {
            let x = a(0)?;
            let i = m.intr("llvm.trunc", &[x])?;
            let f = m.bin(O::FSub, x, i)?;
            let s = crate::lower::llvm::undef_struct(r)?;
            let s = crate::lower::llvm::insert_value(m.b, s, f, 0, "")?;
            Ok(crate::lower::llvm::insert_value(m.b, s, i, 1, "")?
                .into_struct_value()
                .into())
        }
        "Modf" => {
            let x = a(0)?;
            let BasicValueEnum::PointerValue(p) = a(1)? else {
                return Err(LowerError::malformed("Modf without a pointer"));
            };
            let i = m.intr("llvm.trunc", &[x])?;
            crate::lower::llvm::store(m.b, m.td, p, i)?;
            m.bin(O::FSub, x, i)
        }
        "FrexpStruct" => {
            let x = a(0)?;
            let BasicTypeEnum::StructType(st) = r else {
                return Err(LowerError::malformed("FrexpStruct without a struct result"));
            };
            let et = st
                .get_field_type_at_index(1)
                .ok_or_else(|| LowerError::malformed("FrexpStruct"))?;
            frexp(&m, x, et, r)
        }
        "Frexp" => {
            let x = a(0)?;
            let BasicValueEnum::PointerValue(p) = a(1)? else {
                return Err(LowerError::malformed("Frexp without a pointer"));
            };
            let et = int_like(l.cx, x.get_type());
            let s = frexp(
                &m,
                x,
                et,
                l.cx.struct_type(&[x.get_type(), et], false).into(),
            )?;
            let s = s.into_struct_value();
            let e = m.b.build_extract_value(s, 1, "")?;
            crate::lower::llvm::store(m.b, m.td, p, e)?;
            Ok(m.b.build_extract_value(s, 0, "")?)
        }
        "Determinant" => {
            let (_, cols) = m.square_columns(a(0)?, "Determinant")?;
            m.det(&cols)
        }
        "PackSnorm4x8" => pack(&m, a(0)?, 8, true),
        "PackUnorm4x8" => pack(&m, a(0)?, 8, false),
        "PackSnorm2x16" => pack(&m, a(0)?, 16, true),
        "PackUnorm2x16" => pack(&m, a(0)?, 16, false),
        "UnpackSnorm4x8" => unpack(&m, a(0)?, 8, true, r),
        "UnpackUnorm4x8" => unpack(&m, a(0)?, 8, false, r),
        "UnpackSnorm2x16" => unpack(&m, a(0)?, 16, true, r),
        "UnpackUnorm2x16" => unpack(&m, a(0)?, 16, false, r),
        "PackHalf2x16" => {
            let h = crate::lower::llvm::cast(m.b, O::FPTrunc, a(0)?, m.cx.f16_type().vec_type(2))?;
            Ok(crate::lower::llvm::cast(
                m.b,
                O::BitCast,
                h,
                m.cx.i32_type(),
            )?)
        }
        "UnpackHalf2x16" => {
            let h = crate::lower::llvm::cast(m.b, O::BitCast, a(0)?, m.cx.f16_type().vec_type(2))?;
            Ok(crate::lower::llvm::cast(m.b, O::FPExt, h, r)?)
        }
        "PackDouble2x32" | "UnpackDouble2x32" => {
            Ok(crate::lower::llvm::cast(m.b, O::BitCast, a(0)?, r)?)
        }
        "MatrixInverse" => {
            let (mat, cols) = m.square_columns(a(0)?, "MatrixInverse")?;
            let n = mat.get_type().len();
            let det = m.det(&cols)?;
            // inverse[c][r] = cofactor(r, c) / det (the adjugate is the transposed cofactors).
            let mut out = crate::lower::llvm::undef_array(r)?;
            let ct = mat.get_type().get_element_type();
            for c in 0..n as usize {
                let mut col = crate::lower::llvm::undef_vector(ct)?;
                for rr in 0..n as usize {
                    let minor: Vec<Vec<_>> = cols
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != rr)
                        .map(|(_, col)| {
                            col.iter()
                                .enumerate()
                                .filter(|(j, _)| *j != c)
                                .map(|(_, v)| *v)
                                .collect()
                        })
                        .collect();
                    let mut cof = if minor.is_empty() {
                        m.f(det.get_type(), 1.0)?
                    } else {
                        m.det(&minor)?
                    };
                    if (rr + c) % 2 == 1 {
                        cof = crate::lower::llvm::binop(m.b, O::FSub, null(cof.get_type()), cof)?;
                    }
                    let v = m.bin(O::FDiv, cof, det)?;
                    col =
                        crate::lower::llvm::insert_element(m.b, col, v, lane(m.cx, rr as u32), "")?;
                }
                out = crate::lower::llvm::insert_value(m.b, out, col, c as u32, "")?
                    .into_array_value();
            }
            Ok(out.into())
        }
        _ => Err(LowerError::unsupported(format!(
            "GLSL.std.450 {name} is not lowered"
        ))),
    }
}

fn int_like<'ctx>(cx: &'ctx Context, t: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
    match t {
        BasicTypeEnum::VectorType(v) => cx.i32_type().vec_type(v.get_size()).into(),
        _ => cx.i32_type().into(),
    }
}

fn frexp<'ctx>(
    m: &M<'_, 'ctx>,
    x: BasicValueEnum<'ctx>,
    et: BasicTypeEnum<'ctx>,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    // The intrinsic's struct is a literal `{ T, iN }`; rebuild it as the result type.
    let (a, e) = crate::lower::llvm::frexp(m.b, m.m, x, et)?;
    let out = crate::lower::llvm::undef_struct(r)?;
    let out = crate::lower::llvm::insert_value(m.b, out, a, 0, "")?;
    Ok(crate::lower::llvm::insert_value(m.b, out, e, 1, "")?
        .into_struct_value()
        .into())
}

/// OpenCL.std math not in the table.
pub(crate) fn opencl<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let m = M {
        cx: l.cx,
        m: &l.llm,
        b: &l.b,
        td: &l.td,
    };
    let a = |i| arg(args, i);
    match name {
        "rsqrt" | "native_rsqrt" | "half_rsqrt" => m.rsqrt(a(0)?),
        "native_recip" | "half_recip" => m.bin(O::FDiv, m.f(r, 1.0)?, a(0)?),
        "fclamp" => m.clamp("llvm.minnum", "llvm.maxnum", a(0)?, a(1)?, a(2)?),
        "s_clamp" => m.clamp("llvm.smin", "llvm.smax", a(0)?, a(1)?, a(2)?),
        "u_clamp" => m.clamp("llvm.umin", "llvm.umax", a(0)?, a(1)?, a(2)?),
        "mix" => m.mix(a(0)?, a(1)?, a(2)?),
        "step" => m.step(a(0)?, a(1)?),
        "smoothstep" => m.smoothstep(a(0)?, a(1)?, a(2)?),
        "degrees" => m.bin(O::FMul, a(0)?, m.f(r, 180.0 / std::f64::consts::PI)?),
        "radians" => m.bin(O::FMul, a(0)?, m.f(r, std::f64::consts::PI / 180.0)?),
        "sign" => m.fsign(a(0)?),
        "u_abs" => a(0),
        "rotate" => {
            let t = a(0)?.get_type();
            call_intrinsic(
                m.cx,
                m.m,
                m.b,
                "llvm.fshl",
                &[t],
                &[a(0)?, a(0)?, a(1)?],
                None,
                t,
            )
        }
        "s_mul_hi" => m.mul_hi(a(0)?, a(1)?, true),
        "u_mul_hi" => m.mul_hi(a(0)?, a(1)?, false),
        "cross" => m.cross(a(0)?, a(1)?),
        "length" | "fast_length" => m.length(a(0)?),
        "distance" | "fast_distance" => {
            let d = m.bin(O::FSub, a(0)?, a(1)?)?;
            m.length(d)
        }
        "normalize" | "fast_normalize" => m.normalize(a(0)?),
        "sinpi" | "cospi" | "tanpi" => {
            let px = m.bin(O::FMul, a(0)?, m.f(r, std::f64::consts::PI)?)?;
            let f = &name[..3];
            super::table::libm(m.cx, m.m, m.b, f, &[px], r)
        }
        "asinpi" | "acospi" | "atanpi" => {
            let v = super::table::libm(m.cx, m.m, m.b, &name[..4], &[a(0)?], r)?;
            m.bin(O::FDiv, v, m.f(r, std::f64::consts::PI)?)
        }
        "atan2pi" => {
            let v = super::table::libm(m.cx, m.m, m.b, "atan2", &[a(0)?, a(1)?], r)?;
            m.bin(O::FDiv, v, m.f(r, std::f64::consts::PI)?)
        }
        "s_mad_hi" | "u_mad_hi" => {
            let h = m.mul_hi(a(0)?, a(1)?, name == "s_mad_hi")?;
            m.bin(O::Add, h, a(2)?)
        }
        "s_mul24" | "u_mul24" => m.bin(O::Mul, a(0)?, a(1)?),
        "s_mad24" | "u_mad24" => {
            let p = m.bin(O::Mul, a(0)?, a(1)?)?;
            m.bin(O::Add, p, a(2)?)
        }
        "s_hadd" | "u_hadd" | "s_rhadd" | "u_rhadd" => {
            // (x >> 1) + (y >> 1) + ((x & y) & 1), or ((x | y) & 1) when rounding.
            let signed = name.starts_with('s');
            let sh = if signed { O::AShr } else { O::LShr };
            let t = a(0)?.get_type();
            let one = splat_int(t, 1)?;
            let hx = m.bin(sh, a(0)?, one)?;
            let hy = m.bin(sh, a(1)?, one)?;
            let low = if name.contains("rhadd") {
                m.bin(O::Or, a(0)?, a(1)?)?
            } else {
                m.bin(O::And, a(0)?, a(1)?)?
            };
            let low = m.bin(O::And, low, one)?;
            let s = m.bin(O::Add, hx, hy)?;
            m.bin(O::Add, s, low)
        }
        _ => Err(LowerError::unsupported(format!(
            "OpenCL.std {name} is not lowered"
        ))),
    }
}

/// OpenCL `vloadn(offset, p, n)` and `vstoren(data, offset, p)`: `n` elements at
/// `p + offset * n`.
pub(crate) fn vload_store<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    name: &str,
    e: &OpExtInst,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let w = |i: usize| {
        e.operands
            .get(i)
            .copied()
            .ok_or_else(|| LowerError::malformed("a missing operand"))
    };
    let (data, offset, ptr) = if name == "vloadn" {
        (None, w(0)?, w(1)?)
    } else {
        (Some(w(0)?), w(1)?, w(2)?)
    };
    let BasicValueEnum::IntValue(off) = l.id(fx, crate::grammar::Id(offset))? else {
        return Err(LowerError::malformed("an offset that is not an integer"));
    };
    let BasicValueEnum::PointerValue(p) = l.id(fx, crate::grammar::Id(ptr))? else {
        return Err(LowerError::malformed(
            "a pointer operand that is not a pointer",
        ));
    };
    let vt = match data {
        Some(d) => l.id(fx, crate::grammar::Id(d))?.get_type(),
        None => r,
    };
    let BasicTypeEnum::VectorType(vt) = vt else {
        return Err(LowerError::malformed("vloadn/vstoren of a non-vector"));
    };
    let n = off.get_type().const_int(vt.get_size().into(), false);
    let idx = l.b.build_int_mul(off, n, "")?;
    // SAFETY: the address of element `offset * n`, as OpenCL defines it.
    let at = unsafe { l.b.build_gep(vt.get_element_type(), p, &[idx], "")? };
    match data {
        None => {
            let v = l.b.build_load(vt, at, "")?;
            if let Some(i) = v.as_instruction_value() {
                let _ = i.set_alignment(l.td.get_abi_alignment(&vt.get_element_type()));
            }
            Ok(v)
        }
        Some(d) => {
            let v = l.id(fx, crate::grammar::Id(d))?;
            let i = crate::lower::llvm::store(&l.b, &l.td, at, v)?;
            let _ = i.set_alignment(l.td.get_abi_alignment(&vt.get_element_type()));
            Ok(super::super::llvm::undef(l.cx.i8_type().into()))
        }
    }
}

/// `Pack[SU]norm{4x8,2x16}`: each component clamped, scaled, rounded to even and packed,
/// the first component in the lowest bits.
fn pack<'ctx>(
    m: &M<'_, 'ctx>,
    v: BasicValueEnum<'ctx>,
    bits: u32,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    let t = v.get_type();
    let n = super::super::llvm::lanes(t);
    let (lo, scale) = if signed {
        (-1.0, f64::from((1u32 << (bits - 1)) - 1))
    } else {
        (0.0, ((1u64 << bits) - 1) as f64)
    };
    let c = m.clamp(
        "llvm.minnum",
        "llvm.maxnum",
        v,
        m.f(scalar_of(t), lo)?,
        m.f(scalar_of(t), 1.0)?,
    )?;
    let s = m.bin(O::FMul, c, m.f(t, scale)?)?;
    let rounded = m.intr("llvm.roundeven", &[s])?;
    let it = super::super::llvm::int_ty(m.cx, bits)?.vec_type(n);
    let op = if signed { O::FPToSI } else { O::FPToUI };
    let i = crate::lower::llvm::cast(m.b, op, rounded, it)?;
    crate::lower::llvm::cast(m.b, O::BitCast, i, m.cx.i32_type())
}

/// `Unpack[SU]norm{4x8,2x16}`: the inverse of [`pack`] (signed values clamped to -1).
fn unpack<'ctx>(
    m: &M<'_, 'ctx>,
    v: BasicValueEnum<'ctx>,
    bits: u32,
    signed: bool,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let n = super::super::llvm::lanes(r);
    let it = super::super::llvm::int_ty(m.cx, bits)?.vec_type(n);
    let i = crate::lower::llvm::cast(m.b, O::BitCast, v, it)?;
    let op = if signed { O::SIToFP } else { O::UIToFP };
    let f = crate::lower::llvm::cast(m.b, op, i, r)?;
    let scale = if signed {
        f64::from((1u32 << (bits - 1)) - 1)
    } else {
        ((1u64 << bits) - 1) as f64
    };
    let q = m.bin(O::FDiv, f, m.f(r, scale)?)?;
    if signed {
        m.intr("llvm.maxnum", &[q, m.f(r, -1.0)?])
    } else {
        Ok(q)
    }
}
