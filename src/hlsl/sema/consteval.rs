//! Constant folding of the expressions that must be constant: array sizes, `[numthreads]`,
//! `case` labels, attribute arguments, and initializers of `static const` scalars.

use crate::hlsl::ast::{BinaryOp, Expr, ExprKind, Literal, UnaryOp};

/// A folded constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstVal {
    /// A boolean.
    Bool(bool),
    /// An integer (signedness decided by use).
    Int(i64),
    /// A float.
    Float(f64),
}

impl ConstVal {
    /// The value as an integer, if it is one (or a bool).
    pub fn as_int(self) -> Option<i64> {
        match self {
            ConstVal::Int(i) => Some(i),
            ConstVal::Bool(b) => Some(i64::from(b)),
            ConstVal::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(f as i64),
            ConstVal::Float(_) => None,
        }
    }

    /// The value as a float.
    pub fn as_float(self) -> f64 {
        match self {
            ConstVal::Int(i) => i as f64,
            ConstVal::Bool(b) => f64::from(u8::from(b)),
            ConstVal::Float(f) => f,
        }
    }

    /// The value as a bool.
    pub fn as_bool(self) -> bool {
        match self {
            ConstVal::Int(i) => i != 0,
            ConstVal::Bool(b) => b,
            ConstVal::Float(f) => f != 0.0,
        }
    }
}

/// Folds `e`; `lookup` gives the value of a named constant, and of `name[k]`, element `k` of a
/// constant array. `None` when the expression is not constant (or divides by zero, or
/// overflows).
pub fn eval(e: &Expr, lookup: &dyn Fn(&str) -> Option<ConstVal>) -> Option<ConstVal> {
    fold(e, lookup, &|_| true)
}

/// [`eval`] for HLSL 202x, whose literals are typed as in C (an unsuffixed float literal is a
/// 32-bit `float`, an integer literal an `int`): folding here tracks no types, so only
/// expressions whose every value is a bool or an integer in `int`'s range fold; the others
/// are `None`, left to code generation, which types them.
pub fn eval_conforming(e: &Expr, lookup: &dyn Fn(&str) -> Option<ConstVal>) -> Option<ConstVal> {
    // A lone float literal (possibly negated) is its own value, typed by its suffix: an
    // unsuffixed one is a 32-bit float (`l` makes a double).
    let (negated, lit) = match &e.kind {
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => (true, &operand.kind),
        k => (false, k),
    };
    if let ExprKind::Literal(Literal::Float { value, suffix }) = lit {
        let v = if suffix.eq_ignore_ascii_case("l") {
            *value
        } else {
            f64::from(*value as f32)
        };
        return Some(ConstVal::Float(if negated { -v } else { v }));
    }
    fold(e, lookup, &|v| match v {
        ConstVal::Bool(_) => true,
        ConstVal::Int(i) => i32::try_from(i).is_ok(),
        ConstVal::Float(_) => false,
    })
}

/// [`eval`] where every value (each literal, name and intermediate result) is a bool or an
/// integer in `0..=i32::MAX`: there signed and unsigned arithmetic of every width from 32 bits
/// agree, so the value holds whatever the operands' types, which name resolution (folding a
/// template's value argument) does not know.
pub fn eval_sign_agnostic(e: &Expr, lookup: &dyn Fn(&str) -> Option<ConstVal>) -> Option<ConstVal> {
    fold(e, lookup, &|v| match v {
        ConstVal::Bool(_) => true,
        ConstVal::Int(i) => (0..=i64::from(i32::MAX)).contains(&i),
        ConstVal::Float(_) => false,
    })
}

/// Folds `e`, giving up when a value (each literal, name and intermediate result) fails `ok`.
fn fold(
    e: &Expr,
    lookup: &dyn Fn(&str) -> Option<ConstVal>,
    ok: &dyn Fn(ConstVal) -> bool,
) -> Option<ConstVal> {
    let v = fold_node(e, lookup, ok)?;
    ok(v).then_some(v)
}

fn fold_node(
    e: &Expr,
    lookup: &dyn Fn(&str) -> Option<ConstVal>,
    ok: &dyn Fn(ConstVal) -> bool,
) -> Option<ConstVal> {
    use ConstVal::*;
    let eval = |e: &Expr, lookup: &dyn Fn(&str) -> Option<ConstVal>| fold(e, lookup, ok);
    match &e.kind {
        ExprKind::Literal(Literal::Int { value, .. }) => Some(Int(i64::try_from(*value).ok()?)),
        ExprKind::Literal(Literal::Float { value, .. }) => Some(Float(*value)),
        ExprKind::Literal(Literal::Bool(b)) => Some(Bool(*b)),
        ExprKind::Literal(Literal::String(_)) => None,
        ExprKind::Ident(id) => lookup(&id.name),
        // An element of a constant array: `lookup` answers `name[k]`.
        ExprKind::Index { base, index } => {
            let ExprKind::Ident(id) = &base.kind else {
                return None;
            };
            let k = eval(index, lookup)?.as_int()?;
            lookup(&format!("{}[{k}]", id.name))
        }
        ExprKind::Unary { op, operand } => {
            let v = eval(operand, lookup)?;
            match (op, v) {
                (UnaryOp::Neg, Int(i)) => Some(Int(i.checked_neg()?)),
                (UnaryOp::Neg, Float(f)) => Some(Float(-f)),
                (UnaryOp::Neg, Bool(b)) => Some(Int(-i64::from(b))),
                (UnaryOp::Plus, v) => Some(v),
                (UnaryOp::Not, v) => Some(Bool(!v.as_bool())),
                (UnaryOp::BitNot, Int(i)) => Some(Int(!i)),
                _ => None,
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let a = eval(lhs, lookup)?;
            let b = eval(rhs, lookup)?;
            binary(*op, a, b)
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            if eval(cond, lookup)?.as_bool() {
                eval(then, lookup)
            } else {
                eval(otherwise, lookup)
            }
        }
        ExprKind::Cast {
            ty,
            operand,
            array_dims,
        } if array_dims.is_empty() => {
            let v = eval(operand, lookup)?;
            cast(&ty.name.name, v)
        }
        ExprKind::Construct { ty, args } if args.len() == 1 => {
            let v = eval(&args[0], lookup)?;
            cast(&ty.name.name, v)
        }
        _ => None,
    }
}

fn cast(name: &str, v: ConstVal) -> Option<ConstVal> {
    match name {
        "int" | "uint" | "dword" | "int64_t" | "uint64_t" | "min16int" | "min16uint"
        | "min12int" => Some(ConstVal::Int(match v {
            ConstVal::Float(f) => f as i64,
            v => v.as_int()?,
        })),
        "float" | "double" | "half" | "min16float" | "min10float" => {
            Some(ConstVal::Float(v.as_float()))
        }
        "bool" => Some(ConstVal::Bool(v.as_bool())),
        _ => None,
    }
}

/// Folds one binary operation on constants.
pub fn binary(op: BinaryOp, a: ConstVal, b: ConstVal) -> Option<ConstVal> {
    use ConstVal::*;
    let float = matches!(a, Float(_)) || matches!(b, Float(_));
    let r = match op {
        BinaryOp::And => Bool(a.as_bool() && b.as_bool()),
        BinaryOp::Or => Bool(a.as_bool() || b.as_bool()),
        BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne => {
            let ord = if float {
                a.as_float().partial_cmp(&b.as_float())?
            } else {
                a.as_int()?.cmp(&b.as_int()?)
            };
            use std::cmp::Ordering::*;
            Bool(match op {
                BinaryOp::Lt => ord == Less,
                BinaryOp::Gt => ord == Greater,
                BinaryOp::Le => ord != Greater,
                BinaryOp::Ge => ord != Less,
                BinaryOp::Eq => ord == Equal,
                _ => ord != Equal,
            })
        }
        _ if float => {
            let (x, y) = (a.as_float(), b.as_float());
            Float(match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                BinaryOp::Rem => x % y,
                _ => return None,
            })
        }
        _ => {
            let (x, y) = (a.as_int()?, b.as_int()?);
            Int(match op {
                BinaryOp::Add => x.checked_add(y)?,
                BinaryOp::Sub => x.checked_sub(y)?,
                BinaryOp::Mul => x.checked_mul(y)?,
                BinaryOp::Div => x.checked_div(y)?,
                BinaryOp::Rem => x.checked_rem(y)?,
                BinaryOp::Shl => x.checked_shl(u32::try_from(y & 63).ok()?)?,
                BinaryOp::Shr => x >> (y & 63),
                BinaryOp::BitAnd => x & y,
                BinaryOp::BitOr => x | y,
                BinaryOp::BitXor => x ^ y,
                _ => return None,
            })
        }
    };
    Some(r)
}
