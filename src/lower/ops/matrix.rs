//! Matrix and vector products. Matrices are arrays of column vectors, so every product is
//! built from column operations: `M * v` sums columns scaled by `v`'s components, `v * M` dots
//! `v` with each column, `M * N` is `M` times each column of `N`; `Dot` multiplies lane-wise
//! and adds the lanes in order.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{lane, splat};
use super::super::Lowerer;
use crate::grammar::Instruction;
use crate::ir::Op;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{ArrayValue, BasicValueEnum, FloatValue, VectorValue};

/// A float vector operand. (Every operand is checked: LLVM without assertions crashes folding
/// float arithmetic on constants of other types.)
fn vector(v: BasicValueEnum<'_>) -> Result<VectorValue<'_>> {
    match v {
        BasicValueEnum::VectorValue(v) if v.get_type().get_element_type().is_float_type() => Ok(v),
        _ => Err(LowerError::malformed(
            "a vector operand that is not a float vector",
        )),
    }
}

/// A float matrix operand: an array of float vectors.
fn matrix(v: BasicValueEnum<'_>) -> Result<ArrayValue<'_>> {
    match v {
        BasicValueEnum::ArrayValue(a)
            if matches!(a.get_type().get_element_type(),
                BasicTypeEnum::VectorType(c) if c.get_element_type().is_float_type()) =>
        {
            Ok(a)
        }
        _ => Err(LowerError::malformed(
            "a matrix operand that is not a float matrix",
        )),
    }
}

/// A scalar operand of the vector's component type.
fn scalar_for<'ctx>(s: BasicValueEnum<'ctx>, v: VectorValue<'ctx>) -> Result<BasicValueEnum<'ctx>> {
    if s.get_type() != v.get_type().get_element_type() {
        return Err(LowerError::malformed(
            "a scalar of another type than the components",
        ));
    }
    Ok(s)
}

fn columns<'ctx>(b: &Builder<'ctx>, m: ArrayValue<'ctx>) -> Result<Vec<VectorValue<'ctx>>> {
    (0..m.get_type().len())
        .map(|i| vector(b.build_extract_value(m, i, "")?))
        .collect()
}

/// The dot product of two float vectors, lanes added in order.
pub(crate) fn dot<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    x: VectorValue<'ctx>,
    y: VectorValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    if !x.get_type().get_element_type().is_float_type() || x.get_type() != y.get_type() {
        return Err(LowerError::malformed("a dot product of non-float vectors"));
    }
    let p = b.build_float_mul(x, y, "")?;
    let mut acc = b
        .build_extract_element(p, lane(cx, 0), "")?
        .into_float_value();
    for i in 1..x.get_type().get_size() {
        let e = b
            .build_extract_element(p, lane(cx, i), "")?
            .into_float_value();
        acc = b.build_float_add(acc, e, "")?;
    }
    Ok(acc)
}

fn mat_vec<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    m: ArrayValue<'ctx>,
    v: VectorValue<'ctx>,
) -> Result<VectorValue<'ctx>> {
    let cols = columns(b, m)?;
    if cols.len() != v.get_type().get_size() as usize
        || cols
            .first()
            .is_some_and(|c| c.get_type().get_element_type() != v.get_type().get_element_type())
    {
        return Err(LowerError::malformed(
            "a matrix and vector of mismatched shapes",
        ));
    }
    let mut acc: Option<VectorValue<'ctx>> = None;
    for (i, c) in cols.iter().enumerate() {
        let s = b.build_extract_element(v, lane(cx, i as u32), "")?;
        let s = splat(b, s, c.get_type().get_size())?.into_vector_value();
        let t = b.build_float_mul(*c, s, "")?;
        acc = Some(match acc {
            None => t,
            Some(a) => b.build_float_add(a, t, "")?,
        });
    }
    acc.ok_or_else(|| LowerError::malformed("a matrix without columns"))
}

fn build_matrix<'ctx>(
    b: &Builder<'ctx>,
    r: BasicTypeEnum<'ctx>,
    cols: Vec<VectorValue<'ctx>>,
) -> Result<BasicValueEnum<'ctx>> {
    let mut out = crate::lower::llvm::undef_array(r)?;
    for (i, c) in cols.into_iter().enumerate() {
        out = crate::lower::llvm::insert_value(b, out, c, i as u32, "")?.into_array_value();
    }
    Ok(out.into())
}

/// Lowers a matrix or vector product.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    r: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use Instruction as I;
    let cx = l.cx;
    match &op.inst {
        I::Dot(d) => {
            let x = vector(l.id(fx, d.vector_1)?)?;
            let y = vector(l.id(fx, d.vector_2)?)?;
            Ok(dot(cx, &l.b, x, y)?.into())
        }
        I::VectorTimesScalar(d) => {
            let v = vector(l.id(fx, d.vector)?)?;
            let s = scalar_for(l.id(fx, d.scalar)?, v)?;
            let s = splat(&l.b, s, v.get_type().get_size())?.into_vector_value();
            Ok(l.b.build_float_mul(v, s, "")?.into())
        }
        I::MatrixTimesScalar(d) => {
            let m = matrix(l.id(fx, d.matrix)?)?;
            let s = l.id(fx, d.scalar)?;
            let mut cols = Vec::new();
            for c in columns(&l.b, m)? {
                let s = scalar_for(s, c)?;
                let sv = splat(&l.b, s, c.get_type().get_size())?.into_vector_value();
                cols.push(l.b.build_float_mul(c, sv, "")?);
            }
            build_matrix(&l.b, r, cols)
        }
        I::MatrixTimesVector(d) => {
            let m = matrix(l.id(fx, d.matrix)?)?;
            let v = vector(l.id(fx, d.vector)?)?;
            Ok(mat_vec(cx, &l.b, m, v)?.into())
        }
        I::VectorTimesMatrix(d) => {
            let v = vector(l.id(fx, d.vector)?)?;
            let m = matrix(l.id(fx, d.matrix)?)?;
            let mut out = crate::lower::llvm::undef_vector(r)?;
            for (i, c) in columns(&l.b, m)?.into_iter().enumerate() {
                let x = dot(cx, &l.b, v, c)?;
                out = crate::lower::llvm::insert_element(&l.b, out, x, lane(cx, i as u32), "")?;
            }
            Ok(out.into())
        }
        I::MatrixTimesMatrix(d) => {
            let a = matrix(l.id(fx, d.left_matrix)?)?;
            let m = matrix(l.id(fx, d.right_matrix)?)?;
            let mut cols = Vec::new();
            for c in columns(&l.b, m)? {
                cols.push(mat_vec(cx, &l.b, a, c)?);
            }
            build_matrix(&l.b, r, cols)
        }
        I::OuterProduct(d) => {
            let x = vector(l.id(fx, d.vector_1)?)?;
            let y = vector(l.id(fx, d.vector_2)?)?;
            if x.get_type().get_element_type() != y.get_type().get_element_type() {
                return Err(LowerError::malformed(
                    "an outer product of different component types",
                ));
            }
            let mut cols = Vec::new();
            for j in 0..y.get_type().get_size() {
                let s = l.b.build_extract_element(y, lane(cx, j), "")?;
                let s = splat(&l.b, s, x.get_type().get_size())?.into_vector_value();
                cols.push(l.b.build_float_mul(x, s, "")?);
            }
            build_matrix(&l.b, r, cols)
        }
        I::Transpose(d) => {
            let m = matrix(l.id(fx, d.matrix)?)?;
            let cols = columns(&l.b, m)?;
            let BasicTypeEnum::ArrayType(rt) = r else {
                return Err(LowerError::malformed("a transpose to a non-matrix"));
            };
            let ct = rt.get_element_type();
            let ok_shape = match ct {
                BasicTypeEnum::VectorType(v) => {
                    v.get_size() as usize == cols.len()
                        && cols.iter().all(|c| {
                            c.get_type().get_size() == rt.len()
                                && c.get_type().get_element_type() == v.get_element_type()
                        })
                }
                _ => false,
            };
            if !ok_shape {
                return Err(LowerError::malformed(
                    "a transpose to a matrix of another shape",
                ));
            }
            let mut out_cols = Vec::new();
            for i in 0..rt.len() {
                let mut col = crate::lower::llvm::undef_vector(ct)?;
                for (j, c) in cols.iter().enumerate() {
                    let x = l.b.build_extract_element(*c, lane(cx, i), "")?;
                    col = crate::lower::llvm::insert_element(&l.b, col, x, lane(cx, j as u32), "")?;
                }
                out_cols.push(col);
            }
            build_matrix(&l.b, r, out_cols)
        }
        _ => Err(LowerError::unsupported("this matrix op")),
    }
}

/// The type of a matrix `[C x <R x T>]` transposed: `[R x <C x T>]`.
pub(crate) fn transposed_type(t: BasicTypeEnum<'_>) -> Result<BasicTypeEnum<'_>> {
    let BasicTypeEnum::ArrayType(at) = t else {
        return Err(LowerError::malformed("a matrix type was expected"));
    };
    let BasicTypeEnum::VectorType(col) = at.get_element_type() else {
        return Err(LowerError::malformed("a matrix of non-vectors"));
    };
    let BasicTypeEnum::FloatType(ft) = col.get_element_type() else {
        return Err(LowerError::malformed("a matrix of non-floats"));
    };
    Ok(ft.vec_type(at.len()).array_type(col.get_size()).into())
}

/// A matrix value transposed into `to` (which must be its transposed type).
pub(crate) fn transpose_to<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    m: BasicValueEnum<'ctx>,
    to: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    if transposed_type(m.get_type())? != to {
        return Err(LowerError::malformed(
            "a transpose to a matrix of another shape",
        ));
    }
    let m = matrix(m)?;
    let cols = columns(b, m)?;
    let BasicTypeEnum::ArrayType(rt) = to else {
        return Err(LowerError::malformed("a matrix type was expected"));
    };
    let ct = rt.get_element_type();
    let mut out = crate::lower::llvm::undef_array(to)?;
    for i in 0..rt.len() {
        let mut col = crate::lower::llvm::undef_vector(ct)?;
        for (j, c) in cols.iter().enumerate() {
            let x = b.build_extract_element(*c, lane(cx, i), "")?;
            col = crate::lower::llvm::insert_element(b, col, x, lane(cx, j as u32), "")?;
        }
        out = crate::lower::llvm::insert_value(b, out, col, i, "")?.into_array_value();
    }
    Ok(out.into())
}
