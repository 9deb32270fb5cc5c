//! Conversions (the document's cast table, plus splats and truncations) and the arithmetic,
//! bitwise, comparison and logical operators per component kind, as DXC emits them.

use super::func::FnCx;
use crate::hlsl::ast::BinaryOp;
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::Value;

impl FnCx<'_, '_> {
    /// Converts `v` of `from` to `to`, a conversion semantic analysis allowed (and warned
    /// about where it truncates).
    pub fn convert(&mut self, v: Value, from: &Ty, to: &Ty, span: Span) -> Option<Value> {
        if from == to {
            return Some(v);
        }
        match (from, to) {
            (Ty::Scalar(a), Ty::Scalar(b)) => Some(self.convert_scalar(v, *a, *b, from, to)),
            (Ty::Scalar(a), Ty::Vector(b, n)) => {
                let s = self.convert_scalar(v, *a, *b, from, &Ty::Scalar(*b));
                Some(self.splat(s, *b, *n))
            }
            (Ty::Scalar(a), Ty::Matrix(b, r, c)) => {
                let s = self.convert_scalar(v, *a, *b, from, &Ty::Scalar(*b));
                let row = self.splat(s, *b, *c);
                let t = self.ty(to);
                Some(self.f.composite_construct(t, &vec![row; *r as usize]))
            }
            (Ty::Vector(a, n), Ty::Vector(b, m)) if n == m => {
                Some(self.convert_scalar(v, *a, *b, from, to))
            }
            (Ty::Vector(a, n), Ty::Vector(_, m)) if m < n => {
                let t = self.ty(&Ty::Vector(*a, *m));
                let cut = self.f.vector_shuffle(t, v, v, (0..*m).collect());
                self.convert(cut, &Ty::Vector(*a, *m), to, span)
            }
            (Ty::Vector(a, _), Ty::Scalar(_)) => {
                let t = self.ty(&Ty::Scalar(*a));
                let x = self.f.composite_extract(t, v, vec![0]);
                self.convert(x, &Ty::Scalar(*a), to, span)
            }
            (Ty::Matrix(a, r, c), Ty::Matrix(b, r2, c2)) if r == r2 && c == c2 => {
                let rt = self.ty(&Ty::Vector(*a, *c));
                let mut rows = Vec::new();
                for i in 0..*r {
                    let row = self.f.composite_extract(rt, v, vec![i]);
                    rows.push(self.convert_scalar(
                        row,
                        *a,
                        *b,
                        &Ty::Vector(*a, *c),
                        &Ty::Vector(*b, *c),
                    ));
                }
                let t = self.ty(to);
                Some(self.f.composite_construct(t, &rows))
            }
            (Ty::Matrix(a, r, c), Ty::Matrix(b, r2, c2)) if r2 <= r && c2 <= c => {
                let rt = self.ty(&Ty::Vector(*a, *c));
                let mut rows = Vec::new();
                for i in 0..*r2 {
                    let row = self.f.composite_extract(rt, v, vec![i]);
                    let cut = self.convert(row, &Ty::Vector(*a, *c), &Ty::vector(*b, *c2), span)?;
                    rows.push(cut);
                }
                let t = self.ty(to);
                Some(self.f.composite_construct(t, &rows))
            }
            (Ty::Vector(a, n), Ty::Matrix(_, r, c)) if n == &(r * c) => {
                let st = Ty::Scalar(*a);
                let et = self.ty(&st);
                let mut rows = Vec::new();
                for i in 0..*r {
                    let comps: Vec<Value> = (0..*c)
                        .map(|j| self.f.composite_extract(et, v, vec![i * c + j]))
                        .collect();
                    let rt = self.ty(&Ty::Vector(*a, *c));
                    rows.push(self.f.composite_construct(rt, &comps));
                }
                let mt = self.ty(&Ty::Matrix(*a, *r, *c));
                let m = self.f.composite_construct(mt, &rows);
                self.convert(m, &Ty::Matrix(*a, *r, *c), to, span)
            }
            (Ty::Matrix(a, r, c), Ty::Vector(_, n)) if *n == r * c => {
                // `float4 v = float2x2(...)`: the elements in row order.
                let flat = self.truncate_matrix(v, from, (*r, *c), span)?;
                self.convert(flat, &Ty::Vector(*a, *n), to, span)
            }
            (Ty::Struct(a), Ty::Struct(b))
                if crate::hlsl::sema::rules::same_fields(&self.st.types.structs, *a, *b) =>
            {
                // A `ConstantBuffer<T>` or push-constant block as its `T`: field by field.
                let fields = self
                    .st
                    .types
                    .structs
                    .get(*a)
                    .map(|d| d.fields.clone())
                    .unwrap_or_default();
                let mut parts = Vec::new();
                for (k, f) in fields.iter().enumerate() {
                    let ft = self.ty(&f.ty);
                    parts.push(self.f.composite_extract(ft, v, vec![k as u32]));
                }
                let t = self.ty(to);
                Some(self.f.composite_construct(t, &parts))
            }
            (Ty::Array(..) | Ty::Struct(_), _) | (_, Ty::Array(..) | Ty::Struct(_)) => {
                self.cannot_convert(from, to, span)
            }
            _ => {
                self.st.error(
                    span,
                    format!(
                        "cannot convert from '{}' to '{}'",
                        self.show(from),
                        self.show(to)
                    ),
                );
                None
            }
        }
    }

    /// A type as the user wrote it (struct names resolved).
    pub fn show(&self, t: &Ty) -> String {
        self.st.types.show(t)
    }

    /// Reports that `from` does not convert to `to`.
    pub(super) fn cannot_convert<T>(&mut self, from: &Ty, to: &Ty, span: Span) -> Option<T> {
        self.st.error(
            span,
            format!(
                "cannot convert from '{}' to '{}'",
                self.show(from),
                self.show(to)
            ),
        );
        None
    }

    /// Converts components of kind `a` to `b` (same shape).
    fn convert_scalar(&mut self, v: Value, a: Scalar, b: Scalar, from: &Ty, _to: &Ty) -> Value {
        let to = &from.with_component(b);
        if a == b {
            return v;
        }
        if let (Some(c), Ty::Scalar(_)) = (self.const_of(v), to) {
            let c = match (a, c) {
                (Scalar::UInt, ConstVal::Int(i)) => ConstVal::Int(i64::from(i as u32)),
                (Scalar::Float, _) if b == Scalar::Double => {
                    self.literals.get(&v).map_or(c, |&x| ConstVal::Float(x))
                }
                (_, c) => c,
            };
            return self.scalar_const(b, c);
        }
        let t = self.ty(to);
        match (a, b) {
            (Scalar::Bool, _) => {
                let one = self.splat_const(to, ConstVal::Int(1));
                let zero = self.splat_const(to, ConstVal::Int(0));
                self.f.select(t, v, one, zero)
            }
            (_, Scalar::Bool) => {
                let zero = self.splat_const(&from.with_component(a), ConstVal::Int(0));
                if a.is_float() {
                    self.f.f_ord_not_equal(t, v, zero)
                } else {
                    self.f.i_not_equal(t, v, zero)
                }
            }
            (x, y) if x.is_float() && y.is_float() => self.f.f_convert(t, v),
            (x, y) if x.is_float() && y.is_signed() => self.f.convert_f_to_s(t, v),
            (x, _) if x.is_float() => self.f.convert_f_to_u(t, v),
            (x, y) if y.is_float() && x.is_signed() => self.f.convert_s_to_f(t, v),
            (_, y) if y.is_float() => self.f.convert_u_to_f(t, v),
            (x, y) if x.bits() == y.bits() => self.f.bitcast(t, v),
            (x, y) => {
                // Widen or narrow in the source's signedness, then reinterpret.
                let mid = from.with_component(match (y.bits(), x.is_signed()) {
                    (64, true) => Scalar::Int64,
                    (64, false) => Scalar::UInt64,
                    (16, true) => Scalar::Int16,
                    (16, false) => Scalar::UInt16,
                    (_, true) => Scalar::Int,
                    (_, false) => Scalar::UInt,
                });
                let mt = self.ty(&mid);
                let w = if x.is_signed() {
                    self.f.s_convert(mt, v)
                } else {
                    self.f.u_convert(mt, v)
                };
                if mid == *to {
                    w
                } else {
                    self.f.bitcast(t, w)
                }
            }
        }
    }

    /// Emits an arithmetic or bitwise operator on two values already of type `ty`.
    pub fn arith(
        &mut self,
        op: BinaryOp,
        x: Value,
        y: Value,
        ty: &Ty,
        span: Span,
    ) -> Option<Value> {
        let s = ty.component()?;
        if let Ty::Matrix(_, r, c) = ty {
            let rt_ty = Ty::Vector(s, *c);
            let rt = self.ty(&rt_ty);
            let mut rows = Vec::new();
            for i in 0..*r {
                let a = self.f.composite_extract(rt, x, vec![i]);
                let b = self.f.composite_extract(rt, y, vec![i]);
                rows.push(self.arith(op, a, b, &rt_ty, span)?);
            }
            let t = self.ty(ty);
            return Some(self.f.composite_construct(t, &rows));
        }
        let t = self.ty(ty);
        let float = s.is_float();
        let bool_ = s == Scalar::Bool;
        if bool_ && !matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor) {
            self.st.error(span, "arithmetic on bool operands");
            return None;
        }
        Some(match op {
            BinaryOp::Add if float => self.f.f_add(t, x, y),
            BinaryOp::Add => self.f.i_add(t, x, y),
            BinaryOp::Sub if float => self.f.f_sub(t, x, y),
            BinaryOp::Sub => self.f.i_sub(t, x, y),
            BinaryOp::Mul if float => self.f.f_mul(t, x, y),
            BinaryOp::Mul => self.f.i_mul(t, x, y),
            BinaryOp::Div if float => self.f.f_div(t, x, y),
            BinaryOp::Div if s.is_signed() => self.f.s_div(t, x, y),
            BinaryOp::Div => self.f.u_div(t, x, y),
            BinaryOp::Rem if float => self.f.f_rem(t, x, y),
            BinaryOp::Rem if s.is_signed() => self.f.s_rem(t, x, y),
            BinaryOp::Rem => self.f.u_mod(t, x, y),
            BinaryOp::BitAnd
            | BinaryOp::BitOr
            | BinaryOp::BitXor
            | BinaryOp::Shl
            | BinaryOp::Shr
                if float =>
            {
                self.st
                    .error(span, "bitwise operators need integer operands");
                return None;
            }
            BinaryOp::BitAnd if bool_ => self.f.logical_and(t, x, y),
            BinaryOp::BitOr if bool_ => self.f.logical_or(t, x, y),
            BinaryOp::BitXor if bool_ => self.f.logical_not_equal(t, x, y),
            BinaryOp::BitAnd => self.f.bitwise_and(t, x, y),
            BinaryOp::BitOr => self.f.bitwise_or(t, x, y),
            BinaryOp::BitXor => self.f.bitwise_xor(t, x, y),
            BinaryOp::Shl | BinaryOp::Shr => {
                // DXC masks the shift amount to the bit width.
                let mask = self.splat_const(ty, ConstVal::Int(i64::from(s.bits() - 1)));
                let amount = self.f.bitwise_and(t, y, mask);
                match op {
                    BinaryOp::Shl => self.f.shift_left_logical(t, x, amount),
                    _ if s.is_signed() => self.f.shift_right_arithmetic(t, x, amount),
                    _ => self.f.shift_right_logical(t, x, amount),
                }
            }
            _ => return None,
        })
    }

    /// Emits a comparison of two values of type `ty`; the result is bool of the same shape.
    pub fn compare(
        &mut self,
        op: BinaryOp,
        x: Value,
        y: Value,
        ty: &Ty,
        span: Span,
    ) -> Option<(Value, Ty)> {
        let s = ty.component()?;
        if let Ty::Matrix(_, r, c) = ty {
            // Row by row, into a bool matrix of the same shape.
            let row_ty = Ty::Vector(s, *c);
            let rt = self.ty(&row_ty);
            let mut rows = Vec::new();
            for i in 0..*r {
                let a = self.f.composite_extract(rt, x, vec![i]);
                let b = self.f.composite_extract(rt, y, vec![i]);
                rows.push(self.compare(op, a, b, &row_ty, span)?.0);
            }
            let rty = ty.with_component(Scalar::Bool);
            let t = self.ty(&rty);
            return Some((self.f.composite_construct(t, &rows), rty));
        }
        let rty = ty.with_component(Scalar::Bool);
        let t = self.ty(&rty);
        let v = if s.is_float() {
            match op {
                BinaryOp::Lt => self.f.f_ord_less_than(t, x, y),
                BinaryOp::Gt => self.f.f_ord_greater_than(t, x, y),
                BinaryOp::Le => self.f.f_ord_less_than_equal(t, x, y),
                BinaryOp::Ge => self.f.f_ord_greater_than_equal(t, x, y),
                BinaryOp::Eq => self.f.f_ord_equal(t, x, y),
                _ => self.f.f_ord_not_equal(t, x, y),
            }
        } else if s == Scalar::Bool {
            match op {
                BinaryOp::Eq => self.f.logical_equal(t, x, y),
                BinaryOp::Ne => self.f.logical_not_equal(t, x, y),
                _ => {
                    self.st.error(span, "ordered comparison of bool operands");
                    return None;
                }
            }
        } else if s.is_signed() {
            match op {
                BinaryOp::Lt => self.f.s_less_than(t, x, y),
                BinaryOp::Gt => self.f.s_greater_than(t, x, y),
                BinaryOp::Le => self.f.s_less_than_equal(t, x, y),
                BinaryOp::Ge => self.f.s_greater_than_equal(t, x, y),
                BinaryOp::Eq => self.f.i_equal(t, x, y),
                _ => self.f.i_not_equal(t, x, y),
            }
        } else {
            match op {
                BinaryOp::Lt => self.f.u_less_than(t, x, y),
                BinaryOp::Gt => self.f.u_greater_than(t, x, y),
                BinaryOp::Le => self.f.u_less_than_equal(t, x, y),
                BinaryOp::Ge => self.f.u_greater_than_equal(t, x, y),
                BinaryOp::Eq => self.f.i_equal(t, x, y),
                _ => self.f.i_not_equal(t, x, y),
            }
        };
        Some((v, rty))
    }

    /// Converts a value to bool of the same shape (conditions, `!`, `&&`).
    pub fn bool_of(&mut self, v: Value, ty: &Ty, span: Span) -> Option<(Value, Ty)> {
        let to = ty.with_component(Scalar::Bool);
        if !ty.is_numeric() || matches!(ty, Ty::Matrix(..)) {
            self.st
                .error(span, format!("cannot convert '{}' to bool", self.show(ty)));
            return None;
        }
        let v = self.convert(v, ty, &to, span)?;
        Some((v, to))
    }
}
