//! Intrinsic calls: the component-wise GLSL.std.450 ones from the table in
//! [`crate::hlsl::sema::intrinsics`], and the hand-written ones (`mul` in DXC's operand order
//! for the transposed matrices, integer `dot`, `Interlocked*`, barriers, `clip`, ...).

use super::func::FnCx;
use super::Val;
use crate::grammar::{MemorySemantics, Scope};
use crate::hlsl::ast::{BinaryOp, Expr};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::intrinsics::{lookup, Glsl, Intrinsic};
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::{Terminator, Value};

/// Scope and memory-semantics constants (Vulkan).
const SCOPE_DEVICE: u32 = Scope::Device as u32;
const SCOPE_WORKGROUP: u32 = Scope::Workgroup as u32;
const SEM_ACQ_REL: u32 = MemorySemantics::AcquireRelease.0;
const SEM_UNIFORM: u32 = MemorySemantics::UniformMemory.0;
const SEM_WORKGROUP: u32 = MemorySemantics::WorkgroupMemory.0;
const SEM_IMAGE: u32 = MemorySemantics::ImageMemory.0;

impl FnCx<'_, '_> {
    pub(super) fn ext(&mut self, ty: &Ty, op: u32, args: &[Value]) -> Value {
        let set = self.st.glsl(&mut self.f);
        let t = self.ty(ty);
        self.f.ext_inst(t, set, op, args)
    }

    /// The arguments of an intrinsic whose arguments meet in one type, converted to it as
    /// semantic analysis recorded ([`crate::hlsl::sema::rules::intrinsic_operands`]), and
    /// that type.
    pub(super) fn args_common(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<(Vec<Value>, Ty)> {
        let vals: Vec<Option<(Value, Ty)>> = args.iter().map(|a| self.operand(a)).collect();
        let vals: Vec<(Value, Ty)> = vals.into_iter().collect::<Option<_>>()?;
        let ty = vals.first()?.1.clone();
        if let Some((_, t)) = vals.iter().find(|(_, t)| *t != ty || !t.is_numeric()) {
            let msg = format!(
                "internal: the arguments of '{name}' are not converted to one type ('{}', '{}')",
                self.show(&ty),
                self.show(t)
            );
            self.st.error(span, msg);
            return None;
        }
        Some((vals.into_iter().map(|(v, _)| v).collect(), ty))
    }

    /// [`Self::args_common`] for the intrinsics defined on floats only.
    pub(super) fn float_args(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<(Vec<Value>, Ty)> {
        let (vals, ty) = self.args_common(name, args, span)?;
        if !ty.component()?.is_float() {
            let msg = format!("internal: the arguments of '{name}' are not converted to floats");
            self.st.error(span, msg);
            return None;
        }
        Some((vals, ty))
    }

    /// `if (c) discard;` as DXC writes it for `clip`: a selection to a block that kills.
    fn kill_if(&mut self, c: Value) -> Val {
        let kill = self.f.block();
        let merge = self.f.block();
        self.f
            .selection_merge(merge, crate::grammar::SelectionControl::None);
        self.f.branch_conditional(c, (kill, &[]), (merge, &[]));
        self.f.switch_to(kill);
        self.f.terminate(Terminator::Kill);
        self.f.switch_to(merge);
        self.void_val()
    }

    /// `printf(format, args...)`: NonSemantic.DebugPrintf's `DebugPrintf` with the format as
    /// an `OpString` (a string literal or a global `string`) and the arguments as values.
    fn printf(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        use crate::grammar::ext::nonsemantic_debugprintf::{Opcode, IMPORT_NAME};
        use crate::hlsl::ast::{ExprKind, Literal};
        let text = match &args[0].kind {
            ExprKind::Literal(Literal::String(t)) => t.clone(),
            ExprKind::Ident(id) if self.st.strings.contains_key(&id.name) => {
                self.st.strings[&id.name].clone()
            }
            _ => {
                self.st.error(
                    args[0].span,
                    "printf's format must be a string literal or a string variable",
                );
                return None;
            }
        };
        let mut operands = vec![Value::String(self.st.string_id(&mut self.f, &text))];
        for a in &args[1..] {
            let (v, t) = self.rvalue(a)?;
            if !t.is_numeric() {
                self.st.error(
                    a.span,
                    format!("not supported yet: printf of '{}'", self.show(&t)),
                );
                return None;
            }
            operands.push(v);
        }
        let set = self.f.ext_inst_import(IMPORT_NAME);
        let void = self.f.type_void();
        self.f
            .ext_inst(void, set, Opcode::DebugPrintf as u32, &operands);
        let _ = span;
        Some(self.void_val())
    }

    /// The result of a call that returns nothing.
    pub fn void_val(&mut self) -> Val {
        Val::R(Value::Constant(self.f.constant_u32(0)), Ty::Void)
    }

    /// A call of the intrinsic `name`.
    pub fn intrinsic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let kind = lookup(name)?;
        let (lo, hi) = match kind {
            Intrinsic::ComponentWise(c) => (c.args, c.args),
            Intrinsic::Special(lo, hi) => (lo, hi),
        };
        if args.len() < lo || args.len() > hi {
            self.st.error(
                span,
                format!(
                    "wrong number of arguments to '{name}': expected {lo}, got {}",
                    args.len()
                ),
            );
            return None;
        }
        if let Intrinsic::ComponentWise(c) = kind {
            let (vals, ty) = self.args_common(name, args, span)?;
            let s = ty.component()?;
            let op = if s.is_float() {
                Some(c.float)
            } else if s.is_signed() {
                c.sint
            } else if s == Scalar::Bool {
                None
            } else {
                c.uint.or(if name == "abs" { Some(u32::MAX) } else { None })
            };
            if op == Some(u32::MAX) {
                return Some(Val::R(vals[0], ty));
            }
            let Some(op) = op else {
                let msg = format!("internal: '{name}' of '{}'", self.show(&ty));
                self.st.error(span, msg);
                return None;
            };
            let relaxed = self.relaxed_operands(&vals);
            let r = self.componentwise(&ty, op, &vals);
            if relaxed {
                self.relax(r);
            }
            return Some(Val::R(r, ty));
        }
        self.special(name, args, span)
    }

    /// `countbits` and `reversebits` of 16-bit integers, as DXC: the bits widened to 32
    /// (`OpBitCount` and `OpBitReverse` take 32-bit operands in Vulkan); `countbits` gives a
    /// `uint`, `reversebits` the reversed 16 bits in the argument's type.
    fn bits16(&mut self, name: &str, v: Value, t: Ty, span: Span) -> Option<Val> {
        let s = t.component()?;
        if let Ty::Matrix(..) = t {
            self.st
                .error(span, format!("not supported yet: {name} of a matrix"));
            return None;
        }
        let u16t = t.with_component(Scalar::UInt16);
        let u32t = t.with_component(Scalar::UInt);
        let v = if s == Scalar::UInt16 {
            v
        } else {
            let it = self.ty(&u16t);
            self.f.bitcast(it, v)
        };
        let wt = self.ty(&u32t);
        let wide = self.f.u_convert(wt, v);
        if name == "countbits" {
            return Some(Val::R(self.f.bit_count(wt, wide), u32t));
        }
        let rev = self.f.bit_reverse(wt, wide);
        let sixteen = self.splat_const(&u32t, ConstVal::Int(16));
        let shr = self.f.shift_right_logical(wt, rev, sixteen);
        let nt = self.ty(&u16t);
        let r = self.f.u_convert(nt, shr);
        let r = if s == Scalar::UInt16 {
            r
        } else {
            let it = self.ty(&t);
            self.f.bitcast(it, r)
        };
        Some(Val::R(r, t))
    }

    /// Applies a GLSL.std.450 instruction, row by row for matrices.
    pub(super) fn componentwise(&mut self, ty: &Ty, op: u32, vals: &[Value]) -> Value {
        if let Ty::Matrix(s, r, c) = ty {
            let rt = Ty::Vector(*s, *c);
            let rit = self.ty(&rt);
            let mut rows = Vec::new();
            for i in 0..*r {
                let parts: Vec<Value> = vals
                    .iter()
                    .map(|v| self.f.composite_extract(rit, *v, vec![i]))
                    .collect();
                rows.push(self.ext(&rt, op, &parts));
            }
            let t = self.ty(ty);
            return self.f.composite_construct(t, &rows);
        }
        self.ext(ty, op, vals)
    }

    /// Applies `op` to `vals` (each with its type, all of `ty`'s shape) as one instruction of
    /// result type `ty`, or row by row for a matrix.
    pub(super) fn row_by_row(
        &mut self,
        ty: &Ty,
        vals: &[(Value, Ty)],
        op: impl Fn(&mut Self, crate::ir::Handle<crate::ir::Type>, &[Value]) -> Value,
    ) -> Value {
        let Ty::Matrix(s, r, c) = ty else {
            let t = self.ty(ty);
            let vals: Vec<Value> = vals.iter().map(|(v, _)| *v).collect();
            return op(self, t, &vals);
        };
        let rt = self.ty(&Ty::Vector(*s, *c));
        let rows: Vec<Value> = (0..*r)
            .map(|i| {
                let parts: Vec<Value> = vals
                    .iter()
                    .map(|(v, vt)| {
                        let t = self.ty(&Ty::Vector(vt.component().unwrap_or(*s), *c));
                        self.f.composite_extract(t, *v, vec![i])
                    })
                    .collect();
                op(self, rt, &parts)
            })
            .collect();
        let t = self.ty(ty);
        self.f.composite_construct(t, &rows)
    }

    fn special(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        match name {
            "mul" => self.mul(args, span),
            "NonUniformResourceIndex" => {
                // A copy of the index, decorated NonUniform; `opt::nonuniform` then decorates
                // what is computed and selected from it (as DXC).
                let ut = Ty::Scalar(Scalar::UInt);
                let i = self.rvalue_as(&args[0], &ut)?;
                let t = self.ty(&ut);
                let c = self.f.copy_object(t, i);
                self.f.decorate(c, crate::grammar::Decoration::NonUniform);
                Some(Val::R(c, ut))
            }
            "printf" => self.printf(args, span),
            "D3DCOLORtoUBYTE4" => {
                // int4(c.zyxw * 255.002), as DXC.
                let f4 = Ty::Vector(Scalar::Float, 4);
                let c = self.rvalue_as(&args[0], &f4)?;
                let t = self.ty(&f4);
                let swizzled = self.f.vector_shuffle(t, c, c, vec![2, 1, 0, 3]);
                let k = self.scalar_const(Scalar::Float, ConstVal::Float(255.002));
                let scaled = self.f.vector_times_scalar(t, swizzled, k);
                let rt = Ty::Vector(Scalar::Int, 4);
                let it = self.ty(&rt);
                Some(Val::R(self.f.convert_f_to_s(it, scaled), rt))
            }
            "CheckAccessFullyMapped" => {
                // The residency code a sparse `Sample`/`Load` gave through its status.
                let code = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::UInt))?;
                let rt = Ty::Scalar(Scalar::Bool);
                let t = self.ty(&rt);
                Some(Val::R(self.f.image_sparse_texels_resident(t, code), rt))
            }
            "vk::ReadClock" => {
                // OpReadClockKHR at the given scope (a constant: `vk::DeviceScope`...).
                let scope = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::UInt))?;
                if !matches!(scope, Value::Constant(_)) {
                    self.st
                        .error(args[0].span, "vk::ReadClock needs a constant scope");
                    return None;
                }
                let rt = Ty::Scalar(Scalar::UInt64);
                let t = self.ty(&rt);
                Some(Val::R(self.f.read_clock_khr(t, scope), rt))
            }
            "dot2add" => self.dot2add(args),
            "msad4" => self.msad4(args),
            "dot" => {
                let (v, ty) = self.args_common(name, args, span)?;
                let s = ty.component()?;
                let st = Ty::Scalar(s);
                match ty {
                    Ty::Scalar(_) => Some(Val::R(
                        self.arith(BinaryOp::Mul, v[0], v[1], &st, span)?,
                        st,
                    )),
                    Ty::Vector(..) if s.is_float() => {
                        let t = self.ty(&st);
                        Some(Val::R(self.f.dot(t, v[0], v[1]), st))
                    }
                    Ty::Vector(_, n) => {
                        let prod = self.arith(BinaryOp::Mul, v[0], v[1], &ty, span)?;
                        let t = self.ty(&st);
                        let mut acc = self.f.composite_extract(t, prod, vec![0]);
                        for i in 1..n {
                            let x = self.f.composite_extract(t, prod, vec![i]);
                            acc = self.arith(BinaryOp::Add, acc, x, &st, span)?;
                        }
                        Some(Val::R(acc, st))
                    }
                    _ => {
                        self.st.error(span, "dot needs vector arguments");
                        None
                    }
                }
            }
            "cross" => {
                let (v, ty) = self.float_args(name, args, span)?;
                if !matches!(ty, Ty::Vector(Scalar::Float | Scalar::Half, 3)) {
                    self.st.error(span, "cross needs float3 arguments");
                    return None;
                }
                Some(Val::R(self.ext(&ty, Glsl::Cross as u32, &v), ty))
            }
            "length" | "normalize" => {
                let (v, ty) = self.float_args(name, args, span)?;
                if let Ty::Matrix(..) = ty {
                    self.st
                        .error(span, format!("{name} needs a vector argument"));
                    return None;
                }
                if name == "length" {
                    let st = Ty::Scalar(ty.component()?);
                    Some(Val::R(self.ext(&st, Glsl::Length as u32, &v), st))
                } else {
                    Some(Val::R(self.ext(&ty, Glsl::Normalize as u32, &v), ty))
                }
            }
            "distance" => {
                let (v, ty) = self.float_args(name, args, span)?;
                let st = Ty::Scalar(ty.component()?);
                Some(Val::R(self.ext(&st, Glsl::Distance as u32, &v), st))
            }
            "reflect" => {
                let (v, ty) = self.float_args(name, args, span)?;
                Some(Val::R(self.ext(&ty, Glsl::Reflect as u32, &v), ty))
            }
            "saturate" => {
                let (v, ty) = self.float_args(name, args, span)?;
                let zero = self.splat_const(&ty, ConstVal::Float(0.0));
                let one = self.splat_const(&ty, ConstVal::Float(1.0));
                Some(Val::R(
                    self.componentwise(&ty, Glsl::FClamp as u32, &[v[0], zero, one]),
                    ty,
                ))
            }
            "sign" => {
                let (v, ty) = self.args_common(name, args, span)?;
                let s = ty.component()?;
                let it = ty.with_component(Scalar::Int);
                let r = if s.is_float() {
                    let x = self.componentwise(&ty, Glsl::FSign as u32, &v);
                    self.convert(x, &ty, &it, span)?
                } else {
                    let x = self.convert(v[0], &ty, &it, span)?;
                    self.componentwise(&it, Glsl::SSign as u32, &[x])
                };
                Some(Val::R(r, it))
            }
            "fmod" => {
                let (v, ty) = self.float_args(name, args, span)?;
                Some(Val::R(
                    self.arith(BinaryOp::Rem, v[0], v[1], &ty, span)?,
                    ty,
                ))
            }
            "mad" => {
                let (v, ty) = self.args_common(name, args, span)?;
                if ty.component()?.is_float() {
                    return Some(Val::R(self.componentwise(&ty, Glsl::Fma as u32, &v), ty));
                }
                let m = self.arith(BinaryOp::Mul, v[0], v[1], &ty, span)?;
                Some(Val::R(self.arith(BinaryOp::Add, m, v[2], &ty, span)?, ty))
            }
            "all" | "any" => {
                let (v, t) = self.rvalue(&args[0])?;
                if let Ty::Matrix(s, r, c) = t {
                    // Row by row, then the rows' answers combined.
                    let row_t = if c == 1 {
                        Ty::Scalar(s)
                    } else {
                        Ty::Vector(s, c)
                    };
                    let (rt, bt) = (self.ty(&row_t), self.ty(&Ty::Scalar(Scalar::Bool)));
                    let mut acc: Option<Value> = None;
                    for i in 0..r {
                        let row = self.f.composite_extract(rt, v, vec![i]);
                        let (b, _) = self.bool_of(row, &row_t, span)?;
                        let x = match (c, name) {
                            (1, _) => b,
                            (_, "all") => self.f.all(bt, b),
                            _ => self.f.any(bt, b),
                        };
                        acc = Some(match (acc, name) {
                            (None, _) => x,
                            (Some(a), "all") => self.f.logical_and(bt, a, x),
                            (Some(a), _) => self.f.logical_or(bt, a, x),
                        });
                    }
                    return Some(Val::R(acc?, Ty::Scalar(Scalar::Bool)));
                }
                let (b, bt) = self.bool_of(v, &t, span)?;
                let st = Ty::Scalar(Scalar::Bool);
                let r = match bt {
                    Ty::Scalar(_) => b,
                    _ => {
                        let it = self.ty(&st);
                        if name == "all" {
                            self.f.all(it, b)
                        } else {
                            self.f.any(it, b)
                        }
                    }
                };
                Some(Val::R(r, st))
            }
            "asuint" if args.len() == 3 => {
                // The low and high words of each double, as DXC: a bitcast to uint2 each.
                let (v, t) = self.rvalue(&args[0])?;
                if t.component() != Some(Scalar::Double) {
                    self.st.error(
                        span,
                        format!(
                            "asuint with three arguments splits doubles, not '{}'",
                            self.show(&t)
                        ),
                    );
                    return None;
                }
                let mut doubles = Vec::new();
                self.scalars_of(v, &t, Scalar::Double, span, &mut doubles)?;
                let ut = self.ty(&Ty::Scalar(Scalar::UInt));
                let pair = self.ty(&Ty::Vector(Scalar::UInt, 2));
                let (mut lows, mut highs) = (Vec::new(), Vec::new());
                for d in doubles {
                    let words = self.f.bitcast(pair, d);
                    lows.push(self.f.composite_extract(ut, words, vec![0]));
                    highs.push(self.f.composite_extract(ut, words, vec![1]));
                }
                let rt = t.with_component(Scalar::UInt);
                let low = self.compose_scalars(&rt, &lows);
                let high = self.compose_scalars(&rt, &highs);
                self.store_out(&args[1], low, &rt)?;
                self.store_out(&args[2], high, &rt)?;
                Some(self.void_val())
            }
            "asuint" | "asint" | "asfloat" | "asuint16" | "asint16" | "asfloat16" => {
                let (v, t) = self.rvalue(&args[0])?;
                let bits = if name.ends_with("16") { 16 } else { 32 };
                let Some(s) = t
                    .component()
                    .filter(|s| s.bits() == bits && *s != Scalar::Bool)
                else {
                    self.st
                        .error(span, format!("{name} needs a {bits}-bit numeric argument"));
                    return None;
                };
                let to = match name {
                    "asuint" => Scalar::UInt,
                    "asint" => Scalar::Int,
                    "asfloat" => Scalar::Float,
                    "asuint16" => Scalar::UInt16,
                    "asint16" => Scalar::Int16,
                    _ => Scalar::Half,
                };
                let rt = t.with_component(to);
                if s == to {
                    return Some(Val::R(v, rt));
                }
                if let Ty::Matrix(_, r, c) = t {
                    // Row by row: a matrix of one kind is not bit-castable as a whole (a float
                    // matrix is OpTypeMatrix, an integer one an array of rows).
                    let (from_row, to_row) = (Ty::Vector(s, c), Ty::Vector(to, c));
                    let (ft, tt) = (self.ty(&from_row), self.ty(&to_row));
                    let rows: Vec<Value> = (0..r)
                        .map(|i| {
                            let row = self.f.composite_extract(ft, v, vec![i]);
                            self.f.bitcast(tt, row)
                        })
                        .collect();
                    let mt = self.ty(&rt);
                    return Some(Val::R(self.f.composite_construct(mt, &rows), rt));
                }
                let it = self.ty(&rt);
                Some(Val::R(self.f.bitcast(it, v), rt))
            }
            "countbits" | "reversebits" | "firstbithigh" | "firstbitlow" => {
                let (v, t) = self.rvalue(&args[0])?;
                // A float argument of firstbithigh is converted to `int` and its FindSMsb
                // typed `uint`, as DXC does.
                let from_float = name == "firstbithigh" && t.component() == Some(Scalar::Float);
                let (v, t) = if from_float {
                    let it = t.with_component(Scalar::Int);
                    (self.convert(v, &t, &it, args[0].span)?, it)
                } else {
                    (v, t)
                };
                let sixteen = t.component().is_some_and(|s| s.is_int() && s.bits() == 16);
                if sixteen && matches!(name, "countbits" | "reversebits") {
                    return self.bits16(name, v, t, span);
                }
                let wide = t.component().is_some_and(|s| s.is_int() && s.bits() == 64);
                if wide && matches!(name, "countbits" | "reversebits") {
                    let rt = if name == "countbits" {
                        t.with_component(Scalar::UInt)
                    } else {
                        t.clone()
                    };
                    return Some(Val::R(self.bits64(name, v, &t), rt));
                }
                let Some(s) = t.component().filter(|s| s.is_int() && s.bits() == 32) else {
                    let msg = if sixteen {
                        format!("not supported yet: {name} of 16-bit integers")
                    } else {
                        format!("{name} needs a 32-bit integer argument")
                    };
                    self.st.error(span, msg);
                    return None;
                };
                let it = self.ty(&t);
                let rt = if from_float {
                    t.with_component(Scalar::UInt)
                } else {
                    t.clone()
                };
                let r = match name {
                    "countbits" => self.f.bit_count(it, v),
                    "reversebits" => self.f.bit_reverse(it, v),
                    "firstbithigh" => self.ext(
                        &rt,
                        if s.is_signed() {
                            Glsl::FindSMsb as u32
                        } else {
                            Glsl::FindUMsb as u32
                        },
                        &[v],
                    ),
                    _ => self.ext(&t, Glsl::FindILsb as u32, &[v]),
                };
                Some(Val::R(r, rt))
            }
            "determinant" => {
                let (v, t) = self.float_args(name, args, span)?;
                match t {
                    Ty::Matrix(s, r, c) if r == c => Some(Val::R(
                        self.ext(&Ty::Scalar(s), Glsl::Determinant as u32, &v),
                        Ty::Scalar(s),
                    )),
                    _ => {
                        self.st.error(span, "determinant needs a square matrix");
                        None
                    }
                }
            }
            "transpose" => {
                let (v, t) = self.rvalue(&args[0])?;
                match t {
                    Ty::Matrix(s, r, c) if s.is_float() => {
                        let rt = Ty::Matrix(s, c, r);
                        let it = self.ty(&rt);
                        Some(Val::R(self.f.transpose(it, v), rt))
                    }
                    Ty::Matrix(s, r, c) => {
                        // An integer or bool matrix is an array of rows (no OpTranspose): its
                        // elements rebuilt column by column, as DXC.
                        let et = self.ty(&Ty::Scalar(s));
                        let mut elems = Vec::with_capacity((r * c) as usize);
                        for i in 0..r {
                            for j in 0..c {
                                elems.push(self.f.composite_extract(et, v, vec![i, j]));
                            }
                        }
                        let mut comps = Vec::with_capacity(elems.len());
                        for j in 0..c {
                            for i in 0..r {
                                comps.push(elems[(i * c + j) as usize]);
                            }
                        }
                        let rt = Ty::Matrix(s, c, r);
                        Some(Val::R(self.compose_scalars(&rt, &comps), rt))
                    }
                    // 1x1, 1xN and Nx1 matrices are scalars and vectors, their own transposes.
                    Ty::Scalar(_) | Ty::Vector(..) => Some(Val::R(v, t)),
                    _ => {
                        self.st.error(span, "transpose needs a matrix");
                        None
                    }
                }
            }
            "clip" => {
                let (v, t) = self.rvalue(&args[0])?;
                let ft = t.with_component(Scalar::Float);
                let v = self.convert(v, &t, &ft, span)?;
                let bool_t = self.ty(&Ty::Scalar(Scalar::Bool));
                if let Ty::Matrix(_, r, c) = ft {
                    // As DXC: each row's "any component negative", then any of those.
                    let row_t = Ty::Vector(Scalar::Float, c);
                    let rt = self.ty(&row_t);
                    let zero = self.splat_const(&row_t, ConstVal::Float(0.0));
                    let mut rows = Vec::new();
                    for i in 0..r {
                        let row = self.f.composite_extract(rt, v, vec![i]);
                        let (lt, _) = self.compare(BinaryOp::Lt, row, zero, &row_t, span)?;
                        rows.push(self.f.any(bool_t, lt));
                    }
                    let vt = self.ty(&Ty::Vector(Scalar::Bool, r));
                    let all_rows = self.f.composite_construct(vt, &rows);
                    let c = self.f.any(bool_t, all_rows);
                    return Some(self.kill_if(c));
                }
                let zero = self.splat_const(&ft, ConstVal::Float(0.0));
                let (lt, bt) = self.compare(BinaryOp::Lt, v, zero, &ft, span)?;
                let c = match bt {
                    Ty::Scalar(_) => lt,
                    _ => {
                        let it = self.ty(&Ty::Scalar(Scalar::Bool));
                        self.f.any(it, lt)
                    }
                };
                Some(self.kill_if(c))
            }
            "GroupMemoryBarrierWithGroupSync"
            | "GroupMemoryBarrier"
            | "DeviceMemoryBarrier"
            | "DeviceMemoryBarrierWithGroupSync"
            | "AllMemoryBarrier"
            | "AllMemoryBarrierWithGroupSync" => {
                let (mem_scope, sem) = match name {
                    "GroupMemoryBarrierWithGroupSync" | "GroupMemoryBarrier" => {
                        (SCOPE_WORKGROUP, SEM_ACQ_REL | SEM_WORKGROUP)
                    }
                    "DeviceMemoryBarrier" | "DeviceMemoryBarrierWithGroupSync" => {
                        (SCOPE_DEVICE, SEM_ACQ_REL | SEM_UNIFORM | SEM_IMAGE)
                    }
                    _ => (
                        SCOPE_DEVICE,
                        SEM_ACQ_REL | SEM_UNIFORM | SEM_WORKGROUP | SEM_IMAGE,
                    ),
                };
                let ms = self.u32c(mem_scope);
                let sm = self.u32c(sem);
                if name.ends_with("WithGroupSync") {
                    let es = self.u32c(SCOPE_WORKGROUP);
                    self.f.control_barrier(es, ms, sm);
                } else {
                    self.f.memory_barrier(ms, sm);
                }
                Some(self.void_val())
            }
            "and" | "or" => {
                let (v, ty) = self.args_common(name, args, span)?;
                let and = name == "and";
                let r = self.row_by_row(
                    &ty,
                    &[(v[0], ty.clone()), (v[1], ty.clone())],
                    |cx, t, v| {
                        if and {
                            cx.f.logical_and(t, v[0], v[1])
                        } else {
                            cx.f.logical_or(t, v[0], v[1])
                        }
                    },
                );
                Some(Val::R(r, ty))
            }
            "select" => {
                let c = self.operand(&args[0]);
                let (v, ty) = self.args_common(name, &args[1..], span)?;
                let (c, cty) = c?;
                let parts = [(c, cty), (v[0], ty.clone()), (v[1], ty.clone())];
                let r = self.row_by_row(&ty, &parts, |cx, t, v| cx.f.select(t, v[0], v[1], v[2]));
                Some(Val::R(r, ty))
            }
            n if Self::is_math_intrinsic(n) => self.math_intrinsic(n, args, span),
            n if Self::is_packed_intrinsic(n) => self.packed_intrinsic(n, args),
            n if crate::hlsl::sema::availability::is_wave_intrinsic(n) => {
                self.wave_intrinsic(n, args, span)
            }
            n if n.starts_with("Interlocked") => {
                let dst = self.expr(&args[0]);
                self.interlocked(n, dst, &args[1..], span)
            }
            _ => {
                self.st
                    .error(span, format!("not supported yet: the intrinsic '{name}'"));
                None
            }
        }
    }

    /// `InterlockedOp(dest, value[, original])` and `InterlockedCompareExchange(dest, compare,
    /// value, original)` with `dest` already evaluated.
    pub fn interlocked(&mut self, name: &str, dst: Val, rest: &[Expr], span: Span) -> Option<Val> {
        let dst = match dst {
            Val::Texel(r, coord)
                if matches!(
                    r.kind,
                    crate::hlsl::sema::types::ResourceKind::Texture { rw: true, .. }
                        | crate::hlsl::sema::types::ResourceKind::TexelBuffer { rw: true, .. }
                ) =>
            {
                // An atomic on a storage-image texel goes through OpImageTexelPointer.
                let elem = r.elem.clone();
                let pt = self.ptr_ty(
                    crate::grammar::StorageClass::Image,
                    &elem,
                    crate::hlsl::sema::layout::LayoutRule::None,
                    false,
                );
                let zero = self.u32c(0);
                let ptr = self.f.image_texel_pointer(pt, r.ptr, coord, zero);
                Val::P(super::Place {
                    ptr,
                    ty: elem,
                    sc: crate::grammar::StorageClass::Image,
                    layout: crate::hlsl::sema::layout::LayoutRule::None,
                    row_major: false,
                    konst: false,
                })
            }
            d => d,
        };
        let super::Val::P(p) = dst else {
            if !matches!(dst, Val::Err) {
                self.st.error(span, format!("the destination of {name} must be a buffer element or groupshared variable"));
            }
            return None;
        };
        if p.konst {
            self.st
                .error(span, format!("the destination of {name} is read-only"));
            return None;
        }
        if !matches!(
            p.sc,
            crate::grammar::StorageClass::Workgroup
                | crate::grammar::StorageClass::Uniform
                | crate::grammar::StorageClass::StorageBuffer
                | crate::grammar::StorageClass::Image
        ) {
            self.st.error(
                span,
                format!(
                    "the destination of {name} must be a buffer element or groupshared variable"
                ),
            );
            return None;
        }
        // A float is exchanged as it is (OpAtomicExchange takes floats), as DXC does.
        let s = match p.ty {
            Ty::Scalar(s @ (Scalar::Int | Scalar::UInt | Scalar::Int64 | Scalar::UInt64)) => s,
            Ty::Scalar(Scalar::Float) if name == "InterlockedExchange" => Scalar::Float,
            _ => {
                self.st.error(
                    span,
                    format!("{name} needs a 32- or 64-bit integer destination"),
                );
                return None;
            }
        };
        let ty = Ty::Scalar(s);
        let t = self.ty(&ty);
        let scope = self.u32c(SCOPE_DEVICE);
        let sem = self.u32c(0);
        let (result, original) = if name == "InterlockedCompareExchange"
            || name == "InterlockedCompareStore"
        {
            if rest.len() < 2 {
                self.st
                    .error(span, format!("{name} needs compare and value arguments"));
                return None;
            }
            let cmp = self.rvalue_as(&rest[0], &ty)?;
            let val = self.rvalue_as(&rest[1], &ty)?;
            let r = self
                .f
                .atomic_compare_exchange(t, p.ptr, scope, sem, sem, val, cmp);
            (r, rest.get(2))
        } else {
            let Some(v) = rest.first() else {
                self.st.error(span, format!("{name} needs a value"));
                return None;
            };
            let val = self.rvalue_as(v, &ty)?;
            let r = match name {
                "InterlockedAdd" => self.f.atomic_i_add(t, p.ptr, scope, sem, val),
                "InterlockedMin" if s.is_signed() => self.f.atomic_s_min(t, p.ptr, scope, sem, val),
                "InterlockedMin" => self.f.atomic_u_min(t, p.ptr, scope, sem, val),
                "InterlockedMax" if s.is_signed() => self.f.atomic_s_max(t, p.ptr, scope, sem, val),
                "InterlockedMax" => self.f.atomic_u_max(t, p.ptr, scope, sem, val),
                "InterlockedAnd" => self.f.atomic_and(t, p.ptr, scope, sem, val),
                "InterlockedOr" => self.f.atomic_or(t, p.ptr, scope, sem, val),
                "InterlockedXor" => self.f.atomic_xor(t, p.ptr, scope, sem, val),
                "InterlockedExchange" => self.f.atomic_exchange(t, p.ptr, scope, sem, val),
                _ => {
                    self.st.error(span, format!("not supported yet: '{name}'"));
                    return None;
                }
            };
            (r, rest.get(1))
        };
        if let Some(o) = original {
            let d = self.expr(o);
            self.assign(&d, result, &ty, o.span);
        }
        Some(self.void_val())
    }

    /// `dot2add(a, b, acc)` (shader model 6.4): the dot product of two `half2`s, in `half`
    /// then widened, plus `acc`, in `float` (DXC's expansion: OpFMul, OpFConvert, two
    /// OpFAdds). Without `-enable-16bit-types` `half` is `float`.
    fn dot2add(&mut self, args: &[Expr]) -> Option<Val> {
        let half = if self.st.opts.enable_16bit_types {
            Scalar::Half
        } else {
            Scalar::Float
        };
        let ht = Ty::Vector(half, 2);
        let ft = Ty::Scalar(Scalar::Float);
        let a = self.rvalue_as(&args[0], &ht)?;
        let b = self.rvalue_as(&args[1], &ht)?;
        let acc = self.rvalue_as(&args[2], &ft)?;
        let hv = self.ty(&ht);
        let prod = self.f.f_mul(hv, a, b);
        let fv_t = Ty::Vector(Scalar::Float, 2);
        let fv = self.ty(&fv_t);
        let wide = if half == Scalar::Half {
            self.f.f_convert(fv, prod)
        } else {
            prod
        };
        let f = self.ty(&ft);
        let x = self.f.composite_extract(f, wide, vec![0]);
        let y = self.f.composite_extract(f, wide, vec![1]);
        let sum = self.f.f_add(f, x, y);
        Some(Val::R(self.f.f_add(f, sum, acc), ft))
    }

    /// `msad4(reference, source, accum)`: for each k of 0..4, the sum over the four bytes j of
    /// `reference` that are not zero of |reference byte j - source byte k + j| (the source
    /// being the eight bytes of `source.x` then `source.y`), plus `accum[k]`, as `uint4`.
    fn msad4(&mut self, args: &[Expr]) -> Option<Val> {
        let ut = Ty::Scalar(Scalar::UInt);
        let reference = self.rvalue_as(&args[0], &ut)?;
        let source = self.rvalue_as(&args[1], &Ty::Vector(Scalar::UInt, 2))?;
        let u4 = Ty::Vector(Scalar::UInt, 4);
        let accum = self.rvalue_as(&args[2], &u4)?;
        let u = self.ty(&ut);
        let lo = self.f.composite_extract(u, source, vec![0]);
        let hi = self.f.composite_extract(u, source, vec![1]);
        let bool_t = Ty::Scalar(Scalar::Bool);
        let bt = self.ty(&bool_t);
        let zero = self.u32c(0);
        let eight = self.u32c(8);
        let byte = |cx: &mut Self, v: Value, k: u32| -> Value {
            let off = cx.u32c(8 * k);
            cx.f.bit_field_u_extract(u, v, off, eight)
        };
        let ref_bytes: Vec<Value> = (0..4).map(|j| byte(self, reference, j)).collect();
        let mut out = Vec::new();
        for k in 0..4u32 {
            // The four source bytes from byte k of (hi:lo).
            let window = if k == 0 {
                lo
            } else {
                let right = self.u32c(8 * k);
                let left = self.u32c(32 - 8 * k);
                let a = self.f.shift_right_logical(u, lo, right);
                let b = self.f.shift_left_logical(u, hi, left);
                self.f.bitwise_or(u, a, b)
            };
            let mut sum = self.f.composite_extract(u, accum, vec![k]);
            for (j, &r) in ref_bytes.iter().enumerate() {
                let s = byte(self, window, j as u32);
                let ge = self.f.u_greater_than_equal(bt, r, s);
                let d1 = self.f.i_sub(u, r, s);
                let d2 = self.f.i_sub(u, s, r);
                let diff = self.f.select(u, ge, d1, d2);
                let masked = self.f.i_equal(bt, r, zero);
                let term = self.f.select(u, masked, zero, diff);
                sum = self.f.i_add(u, sum, term);
            }
            out.push(sum);
        }
        let t = self.ty(&u4);
        Some(Val::R(self.f.composite_construct(t, &out), u4))
    }

    /// `mul(a, b)`: HLSL's row-vector convention on DXC's transposed matrices.
    fn mul(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let (a, at) = self.operand(&args[0])?;
        let (b, bt) = self.operand(&args[1])?;
        let (Some(ca), Some(cb)) = (at.component(), bt.component()) else {
            self.st.error(span, "mul needs numeric arguments");
            return None;
        };
        let comp = if ca.rank() >= cb.rank() { ca } else { cb };
        let cvt = |cx: &mut Self, v, t: &Ty| cx.convert(v, t, &t.with_component(comp), span);
        let a = cvt(self, a, &at)?;
        let b = cvt(self, b, &bt)?;
        let (at, bt) = (at.with_component(comp), bt.with_component(comp));
        match (&at, &bt) {
            (Ty::Scalar(_), _) | (_, Ty::Scalar(_)) => {
                let relaxed = self.relaxed_operands(&[a, b]);
                let (v, t) = self.emit_binary(
                    BinaryOp::Mul,
                    (a, at.clone()),
                    (b, bt.clone()),
                    relaxed,
                    span,
                )?;
                Some(Val::R(v, t))
            }
            (Ty::Vector(_, n), Ty::Vector(_, m)) if n == m => {
                let st = Ty::Scalar(comp);
                if comp.is_float() {
                    let t = self.ty(&st);
                    return Some(Val::R(self.f.dot(t, a, b), st));
                }
                Some(Val::R(self.int_dot(a, b, comp, *n, span)?, st))
            }
            // Integer matrices are arrays of row vectors: DXC expands the products into dot
            // products (OpIMul, then OpIAdd of the components) of rows and columns.
            (Ty::Vector(_, n), Ty::Matrix(_, r, c)) if !comp.is_float() && n == r => {
                let cols = self.int_columns(b, comp, *r, *c);
                let mut parts = Vec::new();
                for col in cols {
                    parts.push(self.int_dot(a, col, comp, *n, span)?);
                }
                let rt = Ty::Vector(comp, *c);
                let t = self.ty(&rt);
                Some(Val::R(self.f.composite_construct(t, &parts), rt))
            }
            (Ty::Matrix(_, r, c), Ty::Vector(_, n)) if !comp.is_float() && n == c => {
                let vt = Ty::Vector(comp, *c);
                let vit = self.ty(&vt);
                let mut parts = Vec::new();
                for i in 0..*r {
                    let row = self.f.composite_extract(vit, a, vec![i]);
                    parts.push(self.int_dot(row, b, comp, *c, span)?);
                }
                let rt = Ty::Vector(comp, *r);
                let t = self.ty(&rt);
                Some(Val::R(self.f.composite_construct(t, &parts), rt))
            }
            (Ty::Matrix(_, r, k), Ty::Matrix(_, k2, c)) if !comp.is_float() && k == k2 => {
                let cols = self.int_columns(b, comp, *k, *c);
                let at_row = self.ty(&Ty::Vector(comp, *k));
                let out_row = Ty::Vector(comp, *c);
                let out_row_t = self.ty(&out_row);
                let mut rows = Vec::new();
                for i in 0..*r {
                    let row = self.f.composite_extract(at_row, a, vec![i]);
                    let mut parts = Vec::new();
                    for col in &cols {
                        parts.push(self.int_dot(row, *col, comp, *k, span)?);
                    }
                    rows.push(self.f.composite_construct(out_row_t, &parts));
                }
                let rt = Ty::matrix(comp, *r, *c);
                let t = self.ty(&rt);
                Some(Val::R(self.f.composite_construct(t, &rows), rt))
            }
            (Ty::Vector(_, n), Ty::Matrix(_, r, c)) if n == r => {
                let rt = Ty::Vector(comp, *c);
                let t = self.ty(&rt);
                Some(Val::R(self.f.matrix_times_vector(t, b, a), rt))
            }
            (Ty::Matrix(_, r, c), Ty::Vector(_, n)) if n == c => {
                let rt = Ty::Vector(comp, *r);
                let t = self.ty(&rt);
                Some(Val::R(self.f.vector_times_matrix(t, b, a), rt))
            }
            (Ty::Matrix(_, r, k), Ty::Matrix(_, k2, c)) if k == k2 => {
                let rt = Ty::matrix(comp, *r, *c);
                let t = self.ty(&rt);
                Some(Val::R(self.f.matrix_times_matrix(t, b, a), rt))
            }
            // `mul(Mx1, 1xN)`: both collapse to vectors; when the second is known to be a 1xN
            // matrix (a variable declared so), the first can only be Mx1: the outer product.
            (Ty::Vector(_, m), Ty::Vector(_, n)) if self.is_row_matrix(&args[1]) => {
                let row_ty = Ty::Vector(comp, *n);
                let rt = self.ty(&row_ty);
                let st = self.ty(&Ty::Scalar(comp));
                let mut rows = Vec::new();
                for i in 0..*m {
                    let x = self.f.composite_extract(st, a, vec![i]);
                    rows.push(if comp.is_float() {
                        self.f.vector_times_scalar(rt, b, x)
                    } else {
                        let xs = self.splat(x, comp, *n);
                        self.arith(BinaryOp::Mul, b, xs, &row_ty, span)?
                    });
                }
                let mt = Ty::matrix(comp, *m, *n);
                let t = self.ty(&mt);
                Some(Val::R(self.f.composite_construct(t, &rows), mt))
            }
            _ => {
                self.st.error(
                    span,
                    format!(
                        "mul of mismatched shapes '{}' and '{}'",
                        self.show(&at),
                        self.show(&bt)
                    ),
                );
                None
            }
        }
    }

    /// Whether `e` names a variable (or cbuffer member) declared as a 1xN matrix, which the
    /// type system sees as a vector.
    fn is_row_matrix(&self, e: &Expr) -> bool {
        let crate::hlsl::ast::ExprKind::Ident(id) = &e.kind else {
            return false;
        };
        match self.st.scopes.lookup(&id.name) {
            Some(super::Sym::Var(p)) => {
                let depth = match p.ptr {
                    Value::Global(g) => self.st.row_globals.get(&g).copied(),
                    ptr => self.row_matrices.get(&ptr).copied(),
                };
                depth == Some(0)
            }
            Some(super::Sym::Member { row_depth, .. }) => *row_depth == Some(0),
            _ => false,
        }
    }

    /// `countbits`/`reversebits` of 64-bit integers, on the two 32-bit halves as DXC does
    /// (the bit instructions take 32 bits in Vulkan): the counts added (a `uint` result), or
    /// the reversed halves swapped.
    fn bits64(&mut self, name: &str, v: Value, t: &Ty) -> Value {
        let u64t = t.with_component(Scalar::UInt64);
        let u32t = t.with_component(Scalar::UInt);
        let (wt, nt) = (self.ty(&u64t), self.ty(&u32t));
        let v = if t.component() == Some(Scalar::Int64) {
            self.f.bitcast(wt, v)
        } else {
            v
        };
        let k32 = self.splat_const(&u64t, ConstVal::Int(32));
        let lo = self.f.u_convert(nt, v);
        let shifted = self.f.shift_right_logical(wt, v, k32);
        let hi = self.f.u_convert(nt, shifted);
        if name == "countbits" {
            let a = self.f.bit_count(nt, lo);
            let b = self.f.bit_count(nt, hi);
            return self.f.i_add(nt, b, a);
        }
        let rlo = self.f.bit_reverse(nt, lo);
        let rhi = self.f.bit_reverse(nt, hi);
        let wlo = self.f.u_convert(wt, rlo);
        let whi = self.f.u_convert(wt, rhi);
        let top = self.f.shift_left_logical(wt, wlo, k32);
        let r = self.f.bitwise_or(wt, top, whi);
        if t.component() == Some(Scalar::Int64) {
            let it = self.ty(t);
            self.f.bitcast(it, r)
        } else {
            r
        }
    }

    /// The dot product of two integer vectors of `n` components: OpIMul, then the components
    /// summed with OpIAdd, as DXC expands it.
    fn int_dot(&mut self, a: Value, b: Value, comp: Scalar, n: u32, span: Span) -> Option<Value> {
        let vt = Ty::Vector(comp, n);
        let st = Ty::Scalar(comp);
        let prod = self.arith(BinaryOp::Mul, a, b, &vt, span)?;
        let t = self.ty(&st);
        let mut acc = self.f.composite_extract(t, prod, vec![0]);
        for i in 1..n {
            let x = self.f.composite_extract(t, prod, vec![i]);
            acc = self.arith(BinaryOp::Add, acc, x, &st, span)?;
        }
        Some(acc)
    }

    /// The `cols` columns of an integer `rows`×`cols` matrix value (an array of row vectors),
    /// each a vector of `rows` components.
    fn int_columns(&mut self, m: Value, comp: Scalar, rows: u32, cols: u32) -> Vec<Value> {
        let et = self.ty(&Ty::Scalar(comp));
        let ct = self.ty(&Ty::Vector(comp, rows));
        (0..cols)
            .map(|j| {
                let parts: Vec<Value> = (0..rows)
                    .map(|i| self.f.composite_extract(et, m, vec![i, j]))
                    .collect();
                self.f.composite_construct(ct, &parts)
            })
            .collect()
    }
}
