//! LLVM intrinsics with no one-op SPIR-V form, built from core ops and OpenCL.std with LLVM's
//! semantics: `vector.reduce.*` (a chain of OpCompositeExtract and the operation, in LLVM's
//! order: `fadd`/`fmul` start from the start value), `bswap`, `fshl`/`fshr` (the shift amount
//! modulo the width), `nearbyint` and `roundeven` (rint), `tan`, `exp10`, the inverse and hyperbolic
//! trigonometric functions, `ldexp`, `sincos` (sin and cos), `modf` (trunc and the rest), `lround`/`llround` (round, then convert),
//! `powi` (pown), `scmp`/`ucmp` (-1, 0 or 1), `is.constant` (LLVM's `-O0` folding: true only
//! for a manifest constant), `ushl.sat`/`sshl.sat` (clamped), and `maximum`/`minimum` (NaN
//! propagating, -0 < +0), `maximumnum`/`minimumnum` (a NaN gives the other operand).

use super::error::{err, Result};
use super::function::Fx;
use super::module::Val;
use super::read;
use crate::grammar::tables::EXT_INST_SETS;
use crate::grammar::Opcode;
use crate::ir::{ConstantValue, Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMTypeKind as K, LLVMValueKind as VK};

use super::builtins::ExtOperand;

/// Whether intrinsic `name` (without `llvm.`) is `family`, with or without type suffixes.
fn is(name: &str, family: &str) -> bool {
    name.strip_prefix(family)
        .is_some_and(|r| r.is_empty() || r.starts_with('.'))
}

/// The integer width of an LLVM integer (or integer vector) type; 0 for other types.
fn llvm_int_width(t: LLVMTypeRef) -> u32 {
    let e = if read::type_kind(t) == K::LLVMVectorTypeKind {
        read::element_type(t)
    } else {
        t
    };
    if read::type_kind(e) == K::LLVMIntegerTypeKind {
        read::int_width(e)
    } else {
        0
    }
}

/// LLVM's `isManifestConstant`: constant data, or constant aggregates and expressions of it.
fn manifest_constant(v: LLVMValueRef) -> bool {
    match read::value_kind(v) {
        VK::LLVMConstantIntValueKind
        | VK::LLVMConstantFPValueKind
        | VK::LLVMConstantAggregateZeroValueKind
        | VK::LLVMConstantDataArrayValueKind
        | VK::LLVMConstantDataVectorValueKind
        | VK::LLVMConstantPointerNullValueKind
        | VK::LLVMUndefValueValueKind
        | VK::LLVMPoisonValueKind
        | VK::LLVMConstantTokenNoneValueKind
        | VK::LLVMConstantTargetNoneValueKind => true,
        VK::LLVMConstantArrayValueKind
        | VK::LLVMConstantStructValueKind
        | VK::LLVMConstantVectorValueKind
        | VK::LLVMConstantExprValueKind => {
            (0..read::num_operands(v)).all(|k| manifest_constant(read::operand(v, k)))
        }
        _ => false,
    }
}

impl Fx<'_, '_> {
    /// The intrinsics of this module; `None` for the others.
    pub fn composed_intrinsic(
        &mut self,
        name: &str,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        let Some(ty) = ret else {
            return Ok(None);
        };
        const SIMPLE: &[(&str, &str)] = &[
            ("nearbyint", "rint"),
            ("tan", "tan"),
            ("powi", "pown"),
            ("exp10", "exp10"),
            ("roundeven", "rint"),
            ("acos", "acos"),
            ("asin", "asin"),
            ("atan", "atan"),
            ("atan2", "atan2"),
            ("cosh", "cosh"),
            ("sinh", "sinh"),
            ("tanh", "tanh"),
            ("ldexp", "ldexp"),
        ];
        for (family, ocl) in SIMPLE {
            if is(name, family) {
                return self.ocl_call(ocl, ret, args, None).map(Some);
            }
        }
        if let Some(rest) = name.strip_prefix("vector.reduce.") {
            let op = rest.split('.').next().unwrap_or("");
            return self.reduce(op, ty, args).map(Some);
        }
        if is(name, "is.constant") {
            let Some(&a) = args.first() else {
                return err("llvm.is.constant without an operand");
            };
            let c = self
                .f
                .constant(ty, ConstantValue::Bool(manifest_constant(a)));
            return Ok(Some(Val {
                v: Value::Constant(c),
                ty,
            }));
        }
        if is(name, "sincos") || is(name, "modf") {
            return self.pair_intrinsic(is(name, "modf"), ty, args).map(Some);
        }
        if is(name, "lround") || is(name, "llround") {
            let [a] = args else {
                return err(format!("llvm.{name} takes one operand"));
            };
            let x = self.value(*a)?;
            let r = self.ocl_ext(x.ty, "round", &[x.v])?;
            return self.emit_val(Opcode::ConvertFToS, ty, &[r.v]).map(Some);
        }
        let minmax = ["maximum", "minimum", "maximumnum", "minimumnum"];
        if let Some(family) = minmax.into_iter().find(|f| is(name, f)) {
            let [a, b] = args else {
                return err(format!("llvm.{name} takes two operands"));
            };
            let (a, b) = (self.value(*a)?, self.value(*b)?);
            let max = family.starts_with("max");
            let r = self.fmaximum(max, a.v, b.v, ty)?;
            if !family.ends_with("num") {
                return Ok(Some(r));
            }
            // maximumnum/minimumnum: a NaN operand gives the other one.
            let bt = self.bool_like(ty);
            let nb = self.emit_val(Opcode::IsNan, bt, &[b.v])?.v;
            let v = self.select(ty, nb, a.v, r.v)?;
            let na = self.emit_val(Opcode::IsNan, bt, &[a.v])?.v;
            let v = self.select(ty, na, b.v, v)?;
            return Ok(Some(Val { v, ty }));
        }
        // The integer ones: on the SPIR-V widths only (narrow integers are held wider).
        let int_families = [
            "bswap", "fshl", "fshr", "scmp", "ucmp", "ushl.sat", "sshl.sat",
        ];
        let Some(family) = int_families.into_iter().find(|f| is(name, f)) else {
            return Ok(None);
        };
        let Some(&first) = args.first() else {
            return err(format!("llvm.{name} without operands"));
        };
        let w = llvm_int_width(read::type_of(first));
        if !matches!(w, 8 | 16 | 32 | 64) {
            return err(format!(
                "llvm.{name} on i{w}: only 8, 16, 32 and 64-bit integers are supported"
            ));
        }
        let vals = args
            .iter()
            .map(|&a| self.value(a))
            .collect::<Result<Vec<_>>>()?;
        let v: Vec<Value> = vals.iter().map(|x| x.v).collect();
        let t = vals[0].ty;
        let r = match (family, &v[..]) {
            ("bswap", [x]) => self.bswap(*x, t, w)?,
            ("fshl", [a, b, s]) => self.funnel(true, *a, *b, *s, t, w)?,
            ("fshr", [a, b, s]) => self.funnel(false, *a, *b, *s, t, w)?,
            ("scmp", [a, b]) => self.three_way(true, *a, *b, t, ty)?,
            ("ucmp", [a, b]) => self.three_way(false, *a, *b, t, ty)?,
            ("ushl.sat", [a, s]) => self.shl_sat(false, *a, *s, t, w)?,
            ("sshl.sat", [a, s]) => self.shl_sat(true, *a, *s, t, w)?,
            _ => return err(format!("llvm.{name} with {} operands", v.len())),
        };
        Ok(Some(r))
    }

    /// `llvm.sincos` (`{ sin x, cos x }`) and `llvm.modf` (`{ fraction, integral part }`,
    /// both with the sign of x: the fraction of an infinity is 0).
    fn pair_intrinsic(
        &mut self,
        modf: bool,
        ty: Handle<Type>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let [x] = args else {
            return err("llvm.sincos/llvm.modf take one operand");
        };
        let x = self.value(*x)?;
        let t = x.ty;
        let (first, second) = if modf {
            let int = self.ocl_ext(t, "trunc", &[x.v])?.v;
            let frac = self.op2(Opcode::FSub, t, x.v, int)?;
            let bt = self.bool_like(t);
            let inf = self.emit_val(Opcode::IsInf, bt, &[x.v])?.v;
            let zero = Value::Constant(self.f.constant_null(t));
            let frac = self.select(t, inf, zero, frac)?;
            let frac = self.ocl_ext(t, "copysign", &[frac, x.v])?.v;
            (frac, int)
        } else {
            let s = self.ocl_ext(t, "sin", &[x.v])?.v;
            let c = self.ocl_ext(t, "cos", &[x.v])?.v;
            (s, c)
        };
        self.emit_val(Opcode::CompositeConstruct, ty, &[first, second])
    }

    /// An OpenCL.std instruction by name on ids.
    fn ocl_ext(&mut self, ty: Handle<Type>, name: &str, ops: &[Value]) -> Result<Val> {
        let Some(d) = EXT_INST_SETS
            .iter()
            .find(|s| s.name == "OpenCL.std")
            .and_then(|s| s.instruction_by_name(name))
        else {
            return err(format!("OpenCL.std has no instruction {name}"));
        };
        let ops: Vec<ExtOperand> = ops.iter().map(|&v| ExtOperand::Id(v)).collect();
        self.ext_inst(ty, d.opcode, &ops)
    }

    /// `bool`, or a vector of `bool` as wide as `t`.
    fn bool_like(&mut self, t: Handle<Type>) -> Handle<Type> {
        let b = self.f.type_bool();
        match self.width_of(t) {
            1 => b,
            n => self.f.type_vector(b, n),
        }
    }

    fn op2(&mut self, op: Opcode, t: Handle<Type>, a: Value, b: Value) -> Result<Value> {
        Ok(self.emit_val(op, t, &[a, b])?.v)
    }

    fn select(&mut self, t: Handle<Type>, c: Value, a: Value, b: Value) -> Result<Value> {
        Ok(self.emit_val(Opcode::Select, t, &[c, a, b])?.v)
    }

    /// `llvm.vector.reduce.<op>`: the elements combined left to right (from the start value
    /// for `fadd` and `fmul`).
    fn reduce(&mut self, op: &str, ty: Handle<Type>, args: &[LLVMValueRef]) -> Result<Val> {
        let ordered = matches!(op, "fadd" | "fmul");
        let (start, vec) = match (ordered, args) {
            (true, [s, v]) => (Some(self.value(*s)?.v), self.value(*v)?),
            (false, [v]) => (None, self.value(*v)?),
            _ => return err(format!("llvm.vector.reduce.{op} with the wrong operands")),
        };
        let n = self.width_of(vec.ty);
        let mut elems = Vec::new();
        for k in 0..n {
            let w = [vec.v.to_id().0, k];
            elems.push(self.emit(Opcode::CompositeExtract, Some(ty), &w)?);
        }
        let logical = self.is_bool(ty);
        let b = self.f.type_bool();
        let mut acc = match start {
            Some(s) => s,
            None => elems.remove(0),
        };
        for e in elems {
            acc = match op {
                "fadd" => self.op2(Opcode::FAdd, ty, acc, e)?,
                "fmul" => self.op2(Opcode::FMul, ty, acc, e)?,
                "fmax" | "fmin" => self.ocl_ext(ty, op, &[acc, e])?.v,
                "fmaximum" => self.fmaximum(true, acc, e, ty)?.v,
                "fminimum" => self.fmaximum(false, acc, e, ty)?.v,
                // On i1: add and xor are xor; mul and and are and; true is -1 signed.
                "add" | "xor" if logical => self.op2(Opcode::LogicalNotEqual, ty, acc, e)?,
                "mul" | "and" | "smax" | "umin" if logical => {
                    self.op2(Opcode::LogicalAnd, ty, acc, e)?
                }
                "or" | "smin" | "umax" if logical => self.op2(Opcode::LogicalOr, ty, acc, e)?,
                "add" => self.op2(Opcode::IAdd, ty, acc, e)?,
                "mul" => self.op2(Opcode::IMul, ty, acc, e)?,
                "and" => self.op2(Opcode::BitwiseAnd, ty, acc, e)?,
                "or" => self.op2(Opcode::BitwiseOr, ty, acc, e)?,
                "xor" => self.op2(Opcode::BitwiseXor, ty, acc, e)?,
                "smax" | "smin" | "umax" | "umin" => {
                    let cmp = match op {
                        "smax" => Opcode::SGreaterThan,
                        "smin" => Opcode::SLessThan,
                        "umax" => Opcode::UGreaterThan,
                        _ => Opcode::ULessThan,
                    };
                    let c = self.op2(cmp, b, acc, e)?;
                    self.select(ty, c, acc, e)?
                }
                _ => return err(format!("llvm.vector.reduce.{op} has no SPIR-V form")),
            };
        }
        Ok(Val { v: acc, ty })
    }

    /// `llvm.maximum`/`llvm.minimum` (and their reductions): NaN if either is NaN; otherwise
    /// the larger (smaller), with -0 < +0.
    fn fmaximum(&mut self, max: bool, a: Value, b: Value, ty: Handle<Type>) -> Result<Val> {
        let bt = self.bool_like(ty);
        let (gt, lt) = if max {
            (Opcode::FOrdGreaterThan, Opcode::FOrdLessThan)
        } else {
            (Opcode::FOrdLessThan, Opcode::FOrdGreaterThan)
        };
        // Equal (or ±0): for the maximum, b when a's sign is set; for the minimum, a.
        let sign = self.emit_val(Opcode::SignBitSet, bt, &[a])?.v;
        let eq = if max {
            self.select(ty, sign, b, a)?
        } else {
            self.select(ty, sign, a, b)?
        };
        let c = self.op2(lt, bt, a, b)?;
        let r = self.select(ty, c, b, eq)?;
        let c = self.op2(gt, bt, a, b)?;
        let r = self.select(ty, c, a, r)?;
        let nb = self.emit_val(Opcode::IsNan, bt, &[b])?.v;
        let r = self.select(ty, nb, b, r)?;
        let na = self.emit_val(Opcode::IsNan, bt, &[a])?.v;
        let r = self.select(ty, na, a, r)?;
        Ok(Val { v: r, ty })
    }

    /// An integer constant of `t`.
    fn k(&mut self, t: Handle<Type>, x: u64) -> Result<Value> {
        self.const_int_of(t, x)
    }

    /// `llvm.bswap` on `w`-bit integers: each byte shifted to its mirror place and masked.
    fn bswap(&mut self, x: Value, t: Handle<Type>, w: u32) -> Result<Val> {
        let n = w / 8;
        if n < 2 {
            return err("llvm.bswap of an i8");
        }
        let mut acc: Option<Value> = None;
        for k in 0..n {
            let d = n - 1 - k;
            let moved = if d > k {
                let s = self.k(t, u64::from(8 * (d - k)))?;
                self.op2(Opcode::ShiftLeftLogical, t, x, s)?
            } else {
                let s = self.k(t, u64::from(8 * (k - d)))?;
                self.op2(Opcode::ShiftRightLogical, t, x, s)?
            };
            let m = self.k(t, 0xffu64 << (8 * d))?;
            let byte = self.op2(Opcode::BitwiseAnd, t, moved, m)?;
            acc = Some(match acc {
                None => byte,
                Some(a) => self.op2(Opcode::BitwiseOr, t, a, byte)?,
            });
        }
        Ok(Val {
            v: acc.unwrap_or(x),
            ty: t,
        })
    }

    /// `llvm.fshl` (`left`) / `llvm.fshr` on `w`-bit integers: `a:b` shifted by `s mod w`,
    /// the high (low) half. The second part shifts by one first, so no shift reaches `w`.
    fn funnel(
        &mut self,
        left: bool,
        a: Value,
        b: Value,
        s: Value,
        t: Handle<Type>,
        w: u32,
    ) -> Result<Val> {
        let mask = self.k(t, u64::from(w - 1))?;
        let one = self.k(t, 1)?;
        let r = self.op2(Opcode::BitwiseAnd, t, s, mask)?;
        let rest = self.op2(Opcode::ISub, t, mask, r)?;
        let (sh, back) = (Opcode::ShiftLeftLogical, Opcode::ShiftRightLogical);
        let v = if left {
            let hi = self.op2(sh, t, a, r)?;
            let lo = self.op2(back, t, b, one)?;
            let lo = self.op2(back, t, lo, rest)?;
            self.op2(Opcode::BitwiseOr, t, hi, lo)?
        } else {
            let lo = self.op2(back, t, b, r)?;
            let hi = self.op2(sh, t, a, one)?;
            let hi = self.op2(sh, t, hi, rest)?;
            self.op2(Opcode::BitwiseOr, t, hi, lo)?
        };
        Ok(Val { v, ty: t })
    }

    /// `llvm.scmp`/`llvm.ucmp`: -1, 0 or 1 of the result type `ty`.
    fn three_way(
        &mut self,
        signed: bool,
        a: Value,
        b: Value,
        t: Handle<Type>,
        ty: Handle<Type>,
    ) -> Result<Val> {
        let bt = self.bool_like(t);
        let (lt, gt) = if signed {
            (Opcode::SLessThan, Opcode::SGreaterThan)
        } else {
            (Opcode::ULessThan, Opcode::UGreaterThan)
        };
        let minus = self.k(ty, u64::MAX)?;
        let (zero, one) = (self.k(ty, 0)?, self.k(ty, 1)?);
        let c = self.op2(gt, bt, a, b)?;
        let r = self.select(ty, c, one, zero)?;
        let c = self.op2(lt, bt, a, b)?;
        let v = self.select(ty, c, minus, r)?;
        Ok(Val { v, ty })
    }

    /// `llvm.ushl.sat`/`llvm.sshl.sat`: `a << s`, or the bound it passes when shifting back
    /// does not give `a`.
    fn shl_sat(
        &mut self,
        signed: bool,
        a: Value,
        s: Value,
        t: Handle<Type>,
        w: u32,
    ) -> Result<Val> {
        let bt = self.bool_like(t);
        let r = self.op2(Opcode::ShiftLeftLogical, t, a, s)?;
        let back = if signed {
            Opcode::ShiftRightArithmetic
        } else {
            Opcode::ShiftRightLogical
        };
        let b = self.op2(back, t, r, s)?;
        let lost = self.op2(Opcode::INotEqual, bt, b, a)?;
        let bound = if signed {
            let zero = self.k(t, 0)?;
            let neg = self.op2(Opcode::SLessThan, bt, a, zero)?;
            let min = self.k(t, 1u64 << (w - 1))?;
            let max = self.k(t, (1u64 << (w - 1)) - 1)?;
            self.select(t, neg, min, max)?
        } else {
            self.k(t, u64::MAX)?
        };
        let v = self.select(t, lost, bound, r)?;
        Ok(Val { v, ty: t })
    }
}
