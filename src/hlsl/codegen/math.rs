//! Math intrinsics whose lowering is not one GLSL.std.450 instruction, each as DXC lowers it
//! (its CHECK lines in `tools/clang/test/CodeGenSPIRV/intrinsics.*.hlsl`): `rcp` is `1 / x`,
//! `log10` is `Log2(x) * 0.30103`, `ldexp` is `x * Exp2(e)`, `modf` and `frexp` use the
//! `*Struct` instructions, `f16tof32` / `f32tof16` unpack and pack one half per component,
//! `lit` and `dst` are built from their definitions, and derivatives are `OpDPdx`... (pixel
//! shaders only).

use super::func::FnCx;
use super::Val;
use crate::hlsl::ast::{Expr, ExprKind};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::intrinsics::Glsl;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::{Member, StructType, Value};

/// `log10(x) = log2(x) * log10(2)`, with log10(2) rounded to 0.30103 as DXC writes it (not
/// `std::f64::consts::LOG10_2`: the output must be DXC's constant).
#[allow(clippy::approx_constant)]
const LOG10_2: f64 = 0.30103;

impl FnCx<'_, '_> {
    /// Whether `name` is one of this module's intrinsics.
    pub(super) fn is_math_intrinsic(name: &str) -> bool {
        matches!(
            name,
            "rcp"
                | "isnan"
                | "isinf"
                | "isfinite"
                | "isnormal"
                | "log10"
                | "f16tof32"
                | "f32tof16"
                | "fma"
                | "lit"
                | "refract"
                | "faceforward"
                | "sincos"
                | "ldexp"
                | "modf"
                | "frexp"
                | "dst"
                | "asdouble"
                | "dot4add_u8packed"
                | "dot4add_i8packed"
                | "ddx"
                | "ddy"
                | "ddx_coarse"
                | "ddy_coarse"
                | "ddx_fine"
                | "ddy_fine"
                | "fwidth"
        )
    }

    /// The float arguments of `name`, refused when they are `double` and the instruction
    /// (GLSL.std.450's, as DXC uses it) takes 16- and 32-bit floats only.
    fn float_args_no_double(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<(Vec<Value>, Ty)> {
        let (v, t) = self.float_args(name, args, span)?;
        if t.component() == Some(Scalar::Double) {
            self.st
                .error(span, format!("not supported yet: {name} of double"));
            return None;
        }
        Some((v, t))
    }

    /// `isnan`/`isinf`/`isfinite`/`isnormal` of a float scalar or vector `x` of type `t`, as
    /// DXC computes them (`isfinite` = !(nan || inf); `isnormal` = exponent neither 0 nor all
    /// ones).
    fn float_class(&mut self, name: &str, x: Value, t: &Ty) -> Value {
        let b = self.ty(&t.with_component(Scalar::Bool));
        match name {
            "isnan" => self.f.is_nan(b, x),
            "isinf" => self.f.is_inf(b, x),
            "isfinite" => {
                let nan = self.f.is_nan(b, x);
                let inf = self.f.is_inf(b, x);
                let either = self.f.logical_or(b, nan, inf);
                self.f.logical_not(b, either)
            }
            _ => {
                let (bits, mask) = if t.component() == Some(Scalar::Half) {
                    (Scalar::UInt16, 0x7c00)
                } else {
                    (Scalar::UInt, 0x7f80_0000)
                };
                let ut = t.with_component(bits);
                let u = self.ty(&ut);
                let word = self.f.bitcast(u, x);
                let mask = self.splat_const(&ut, ConstVal::Int(mask));
                let zero = self.splat_const(&ut, ConstVal::Int(0));
                let exp = self.f.bitwise_and(u, word, mask);
                let not_zero = self.f.i_not_equal(b, exp, zero);
                let not_ones = self.f.i_not_equal(b, exp, mask);
                self.f.logical_and(b, not_zero, not_ones)
            }
        }
    }

    /// A math intrinsic of this module.
    pub(super) fn math_intrinsic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        match name {
            "isnan" | "isinf" | "isfinite" | "isnormal" => {
                let (v, ty) = self.float_args(name, args, span)?;
                if name == "isnormal" && ty.component() == Some(Scalar::Double) {
                    self.st.error(span, "not supported yet: isnormal of double");
                    return None;
                }
                let bt = ty.with_component(Scalar::Bool);
                let r = match ty {
                    Ty::Matrix(s, rows, c) => {
                        let row_ty = Ty::Vector(s, c);
                        let rt = self.ty(&row_ty);
                        let parts: Vec<Value> = (0..rows)
                            .map(|i| {
                                let row = self.f.composite_extract(rt, v[0], vec![i]);
                                self.float_class(name, row, &row_ty)
                            })
                            .collect();
                        let t = self.ty(&bt);
                        self.f.composite_construct(t, &parts)
                    }
                    ref t => self.float_class(name, v[0], t),
                };
                Some(Val::R(r, bt))
            }
            "rcp" => {
                let (v, ty) = self.float_args(name, args, span)?;
                let row_ty = match ty {
                    Ty::Matrix(s, _, c) => Ty::Vector(s, c),
                    ref t => t.clone(),
                };
                let one = self.splat_const(&row_ty, ConstVal::Float(1.0));
                let r = self.row_by_row(&ty, &[(v[0], ty.clone())], |cx, t, v| {
                    cx.f.f_div(t, one, v[0])
                });
                Some(Val::R(r, ty))
            }
            "log10" => {
                let (v, ty) = self.float_args_no_double(name, args, span)?;
                let s = ty.component()?;
                if s == Scalar::Half {
                    // DXC's constant for 16-bit floats is not known here.
                    self.st
                        .error(span, "not supported yet: log10 of 16-bit floats");
                    return None;
                }
                let l = self.componentwise(&ty, Glsl::Log2 as u32, &v);
                let k = self.scalar_const(s, ConstVal::Float(LOG10_2));
                let t = self.ty(&ty);
                let r = match ty {
                    Ty::Scalar(_) => self.f.f_mul(t, l, k),
                    Ty::Vector(..) => self.f.vector_times_scalar(t, l, k),
                    _ => self.f.matrix_times_scalar(t, l, k),
                };
                Some(Val::R(r, ty))
            }
            "ldexp" => {
                let (v, ty) = self.float_args_no_double(name, args, span)?;
                let parts = [(v[0], ty.clone()), (v[1], ty.clone())];
                let set = self.st.glsl(&mut self.f);
                let r = self.row_by_row(&ty, &parts, |cx, t, v| {
                    let e = cx.f.ext_inst(t, set, Glsl::Exp2 as u32, &[v[1]]);
                    cx.f.f_mul(t, v[0], e)
                });
                Some(Val::R(r, ty))
            }
            "fma" => {
                let (v, ty) = self.args_common(name, args, span)?;
                if ty.component() != Some(Scalar::Double) {
                    self.st.error(
                        span,
                        format!(
                            "not supported yet: fma of '{}' (HLSL's fma takes double)",
                            self.show(&ty)
                        ),
                    );
                    return None;
                }
                Some(Val::R(self.componentwise(&ty, Glsl::Fma as u32, &v), ty))
            }
            "refract" => {
                let (v, ty) = self.float_args_no_double(name, &args[..2], span)?;
                if !matches!(ty, Ty::Vector(..)) {
                    self.st.error(span, "refract needs float vector arguments");
                    return None;
                }
                let et = Ty::Scalar(ty.component()?);
                let eta = self.rvalue_as(&args[2], &et)?;
                Some(Val::R(
                    self.ext(&ty, Glsl::Refract as u32, &[v[0], v[1], eta]),
                    ty,
                ))
            }
            "faceforward" => {
                let (v, ty) = self.float_args_no_double(name, args, span)?;
                if !matches!(ty, Ty::Vector(..)) {
                    self.st
                        .error(span, "faceforward needs float vector arguments");
                    return None;
                }
                Some(Val::R(self.ext(&ty, Glsl::FaceForward as u32, &v), ty))
            }
            "sincos" => self.sincos(args, span),
            "modf" | "frexp" => self.modf_frexp(name, args, span),
            "lit" => {
                let f = Ty::Scalar(Scalar::Float);
                let l = self.rvalue_as(&args[0], &f)?;
                let h = self.rvalue_as(&args[1], &f)?;
                let m = self.rvalue_as(&args[2], &f)?;
                let ft = self.ty(&f);
                let zero = self.scalar_const(Scalar::Float, ConstVal::Float(0.0));
                let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
                let diffuse = self.ext(&f, Glsl::FMax as u32, &[zero, l]);
                let min = self.ext(&f, Glsl::FMin as u32, &[l, h]);
                let bt = self.ty(&Ty::Scalar(Scalar::Bool));
                let neg = self.f.f_ord_less_than(bt, min, zero);
                let mul = self.f.f_mul(ft, h, m);
                let spec = self.f.select(ft, neg, zero, mul);
                let f4 = Ty::Vector(Scalar::Float, 4);
                let t4 = self.ty(&f4);
                Some(Val::R(
                    self.f.composite_construct(t4, &[one, diffuse, spec, one]),
                    f4,
                ))
            }
            "dst" => {
                let f4 = Ty::Vector(Scalar::Float, 4);
                let a = self.rvalue_as(&args[0], &f4)?;
                let b = self.rvalue_as(&args[1], &f4)?;
                let ft = self.ty(&Ty::Scalar(Scalar::Float));
                let ay = self.f.composite_extract(ft, a, vec![1]);
                let by = self.f.composite_extract(ft, b, vec![1]);
                let az = self.f.composite_extract(ft, a, vec![2]);
                let bw = self.f.composite_extract(ft, b, vec![3]);
                let y = self.f.f_mul(ft, ay, by);
                let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
                let t4 = self.ty(&f4);
                Some(Val::R(
                    self.f.composite_construct(t4, &[one, y, az, bw]),
                    f4,
                ))
            }
            "f16tof32" | "f32tof16" => self.half_pack(name, args, span),
            "asdouble" => self.asdouble(args, span),
            "dot4add_u8packed" | "dot4add_i8packed" => {
                let u = Ty::Scalar(Scalar::UInt);
                let a = self.rvalue_as(&args[0], &u)?;
                let b = self.rvalue_as(&args[1], &u)?;
                let signed = name == "dot4add_i8packed";
                let rt = Ty::Scalar(if signed { Scalar::Int } else { Scalar::UInt });
                let acc = self.rvalue_as(&args[2], &rt)?;
                let t = self.ty(&rt);
                // Offered, not forced: the requirements pass uses the extension rather than
                // SPIR-V 1.6 where the target allows less.
                self.f.extension("SPV_KHR_integer_dot_product");
                let fmt = Some(crate::grammar::PackedVectorFormat::PackedVectorFormat4x8Bit);
                let d = if signed {
                    self.f.s_dot(t, a, b, fmt)
                } else {
                    self.f.u_dot(t, a, b, fmt)
                };
                Some(Val::R(self.f.i_add(t, d, acc), rt))
            }
            _ => self.derivative(name, args, span),
        }
    }

    /// `sincos(x, s, c)`: `s = sin(x)` is stored before `x` is read again for `c = cos(x)`
    /// when `x` is a name, as DXC does (so `sincos(a, a, c)` gives `cos(sin(a))`, as there).
    fn sincos(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let (v, ty) = self.float_args_no_double("sincos", &args[..1], span)?;
        let s = self.componentwise(&ty, Glsl::Sin as u32, &v);
        self.store_out(&args[1], s, &ty)?;
        let x = if matches!(args[0].kind, ExprKind::Ident(_)) {
            self.float_args_no_double("sincos", &args[..1], span)?.0[0]
        } else {
            v[0]
        };
        let c = self.componentwise(&ty, Glsl::Cos as u32, &[x]);
        self.store_out(&args[2], c, &ty)?;
        Some(self.void_val())
    }

    /// The struct type `ModfStruct` / `FrexpStruct` return for operands of `t` (a scalar or
    /// vector), named as DXC names it.
    fn pair_struct(&mut self, name: &str, t: &Ty) -> crate::ir::Handle<crate::ir::Type> {
        let ft = self.ty(t);
        let (sname, m0, m1, t1) = if name == "modf" {
            ("ModfStructType", "frac", "ip", ft)
        } else {
            let it = self.ty(&t.with_component(Scalar::Int));
            ("FrexpStructType", "mantissa", "exponent", it)
        };
        let member = |ty, n: &str| Member {
            name: Some(n.to_owned()),
            ..Member::new(ty)
        };
        self.f.type_struct(StructType {
            name: Some(sname.to_owned()),
            members: vec![member(ft, m0), member(t1, m1)],
            decorations: Vec::new(),
        })
    }

    /// `modf(x, out ip)` and `frexp(x, out exp)`: the `*Struct` instruction per row, the out
    /// part converted to its variable's type and stored, the other part returned (in `x`'s
    /// type for `modf`, whose integer arguments are converted to float as DXC does).
    fn modf_frexp(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let (v, xt) = self.rvalue(&args[0])?;
        let Some(s) = xt.component().filter(|s| *s != Scalar::Bool) else {
            self.st
                .error(span, format!("{name} needs a numeric argument"));
            return None;
        };
        if name == "frexp" && !s.is_float() {
            self.st.error(
                span,
                format!("not supported yet: frexp of '{}'", self.show(&xt)),
            );
            return None;
        }
        if s == Scalar::Double || s.bits() == 16 || s.bits() == 64 {
            self.st.error(
                span,
                format!("not supported yet: {name} of '{}'", self.show(&xt)),
            );
            return None;
        }
        let ft = xt.with_component(Scalar::Float);
        let x = self.convert(v, &xt, &ft, span)?;
        let op = if name == "modf" {
            Glsl::ModfStruct
        } else {
            Glsl::FrexpStruct
        } as u32;
        let set = self.st.glsl(&mut self.f);
        // Row by row for a matrix; the out part is stored, the other returned.
        let ret = match &ft {
            Ty::Matrix(_, r, c) => {
                let row_t = Ty::Vector(Scalar::Float, *c);
                let rt = self.ty(&row_t);
                let st = self.pair_struct(name, &row_t);
                let out_row_t = if name == "modf" {
                    row_t.clone()
                } else {
                    row_t.with_component(Scalar::Int)
                };
                let ot = self.ty(&out_row_t);
                let mut rets = Vec::new();
                let mut outs = Vec::new();
                for i in 0..*r {
                    let row = self.f.composite_extract(rt, x, vec![i]);
                    let pair = self.f.ext_inst(st, set, op, &[row]);
                    let o = self.f.composite_extract(ot, pair, vec![1]);
                    let o = if name == "frexp" {
                        self.f.convert_s_to_f(rt, o)
                    } else {
                        o
                    };
                    outs.push(o);
                    rets.push(self.f.composite_extract(rt, pair, vec![0]));
                }
                let mt = self.ty(&ft);
                let out = self.f.composite_construct(mt, &outs);
                self.store_out(&args[1], out, &ft)?;
                self.f.composite_construct(mt, &rets)
            }
            _ => {
                let st = self.pair_struct(name, &ft);
                let pair = self.f.ext_inst(st, set, op, &[x]);
                let t = self.ty(&ft);
                let o = if name == "modf" {
                    self.f.composite_extract(t, pair, vec![1])
                } else {
                    let it = self.ty(&ft.with_component(Scalar::Int));
                    let e = self.f.composite_extract(it, pair, vec![1]);
                    self.f.convert_s_to_f(t, e)
                };
                self.store_out(&args[1], o, &ft)?;
                self.f.composite_extract(t, pair, vec![0])
            }
        };
        let r = self.convert(ret, &ft, &xt, span)?;
        Some(Val::R(r, xt))
    }

    /// Stores `v` of type `t` to the out argument `e`, converted to its type.
    pub(super) fn store_out(&mut self, e: &Expr, v: Value, t: &Ty) -> Option<()> {
        let d = self.expr(e);
        let dt = self.val_ty(&d)?;
        let v = self.convert(v, t, &dt, e.span)?;
        self.assign(&d, v, &dt, e.span);
        Some(())
    }

    /// `f16tof32(uint)`: `UnpackHalf2x16` per component, its first half; `f32tof16(float)`:
    /// `PackHalf2x16` of `(x, 0)` per component.
    fn half_pack(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let (v, t) = self.rvalue(&args[0])?;
        let n = match t {
            Ty::Scalar(_) => 1,
            Ty::Vector(_, n) => n,
            _ => {
                self.st.error(
                    span,
                    format!("{name} needs a scalar or vector, not '{}'", self.show(&t)),
                );
                return None;
            }
        };
        let (from, to) = if name == "f16tof32" {
            (Scalar::UInt, Scalar::Float)
        } else {
            (Scalar::Float, Scalar::UInt)
        };
        let from_t = t.with_component(from);
        let v = self.convert(v, &t, &from_t, span)?;
        let set = self.st.glsl(&mut self.f);
        let fs = self.ty(&Ty::Scalar(Scalar::Float));
        let us = self.ty(&Ty::Scalar(Scalar::UInt));
        let f2 = self.ty(&Ty::Vector(Scalar::Float, 2));
        let one = |cx: &mut Self, x: Value| {
            if name == "f16tof32" {
                let p = cx.f.ext_inst(f2, set, Glsl::UnpackHalf2x16 as u32, &[x]);
                cx.f.composite_extract(fs, p, vec![0])
            } else {
                let zero = cx.scalar_const(Scalar::Float, ConstVal::Float(0.0));
                let p = cx.f.composite_construct(f2, &[x, zero]);
                cx.f.ext_inst(us, set, Glsl::PackHalf2x16 as u32, &[p])
            }
        };
        let rt = t.with_component(to);
        if n == 1 {
            return Some(Val::R(one(self, v), rt));
        }
        let from_s = if from == Scalar::UInt { us } else { fs };
        let parts: Vec<Value> = (0..n)
            .map(|i| {
                let x = self.f.composite_extract(from_s, v, vec![i]);
                one(self, x)
            })
            .collect();
        let it = self.ty(&rt);
        Some(Val::R(self.f.composite_construct(it, &parts), rt))
    }

    /// `asdouble(lo, hi)`: each (lo, hi) pair of `uint`s bit-cast to a double.
    fn asdouble(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let (a, at) = self.rvalue(&args[0])?;
        let (b, bt) = self.rvalue(&args[1])?;
        let n = match (&at, &bt) {
            (Ty::Scalar(_), Ty::Scalar(_)) => 1,
            (Ty::Vector(_, n), Ty::Vector(_, m)) if n == m => *n,
            _ => {
                self.st.error(
                    span,
                    format!(
                        "not supported yet: asdouble of '{}' and '{}'",
                        self.show(&at),
                        self.show(&bt)
                    ),
                );
                return None;
            }
        };
        let (ut, ct) = (
            at.with_component(Scalar::UInt),
            bt.with_component(Scalar::UInt),
        );
        let a = self.convert(a, &at, &ut, span)?;
        let b = self.convert(b, &bt, &ct, span)?;
        let u2 = self.ty(&Ty::Vector(Scalar::UInt, 2));
        let dt = Ty::Scalar(Scalar::Double);
        let d = self.ty(&dt);
        if n == 1 {
            let p = self.f.composite_construct(u2, &[a, b]);
            return Some(Val::R(self.f.bitcast(d, p), dt));
        }
        let parts: Vec<Value> = (0..n)
            .map(|i| {
                let p = self.f.vector_shuffle(u2, a, b, vec![i, i + n]);
                self.f.bitcast(d, p)
            })
            .collect();
        let rt = Ty::Vector(Scalar::Double, n);
        let t = self.ty(&rt);
        Some(Val::R(self.f.composite_construct(t, &parts), rt))
    }

    /// `ddx`, `ddy` (and their `_coarse` and `_fine` forms) and `fwidth`: `OpDPdx`... on
    /// 32-bit floats (16- and 64-bit ones converted there and back, as DXC), row by row for
    /// a matrix; pixel shaders only.
    fn derivative(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let (v, ty) = self.float_args(name, args, span)?;
        let s = ty.component()?;
        let ft = ty.with_component(Scalar::Float);
        let x = if s == Scalar::Float {
            v[0]
        } else {
            self.convert(v[0], &ty, &ft, span)?
        };
        let name = name.to_owned();
        let r = self.row_by_row(&ft, &[(x, ft.clone())], move |cx, t, v| {
            match name.as_str() {
                "ddx" => cx.f.d_pdx(t, v[0]),
                "ddy" => cx.f.d_pdy(t, v[0]),
                "ddx_coarse" => cx.f.d_pdx_coarse(t, v[0]),
                "ddy_coarse" => cx.f.d_pdy_coarse(t, v[0]),
                "ddx_fine" => cx.f.d_pdx_fine(t, v[0]),
                "ddy_fine" => cx.f.d_pdy_fine(t, v[0]),
                _ => cx.f.fwidth(t, v[0]),
            }
        });
        if s == Scalar::Float {
            return Some(Val::R(r, ty));
        }
        let r = self.convert(r, &ft, &ty, span)?;
        Some(Val::R(r, ty))
    }
}
