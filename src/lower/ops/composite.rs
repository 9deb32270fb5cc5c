//! Composites: construction (vectors from scalars and vectors, arrays, structs with padding
//! fields, matrices from columns), extraction and insertion along SPIR-V index paths mapped to
//! the lowered layout, vector shuffles (lanes `0xFFFFFFFF` stay undefined), dynamic vector
//! element access, and copies.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::llvm::{lane, undef};
use super::super::matrix_layout::MatLayout;
use super::super::Lowerer;
use crate::grammar::Instruction;
use crate::ir::{Handle, Op, Type};
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{AggregateValueEnum, BasicValueEnum};

/// Extracts along LLVM indices (aggregate members, then a vector lane last).
pub(crate) fn extract_path<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    mut v: BasicValueEnum<'ctx>,
    path: &[u32],
) -> Result<BasicValueEnum<'ctx>> {
    for &i in path {
        v = match v {
            BasicValueEnum::VectorValue(vv) => {
                if i >= vv.get_type().get_size() {
                    return Err(LowerError::malformed("a vector index out of range"));
                }
                b.build_extract_element(vv, lane(cx, i), "")?
            }
            BasicValueEnum::StructValue(s) => {
                if i >= s.get_type().count_fields() {
                    return Err(LowerError::malformed("a struct index out of range"));
                }
                b.build_extract_value(s, i, "")?
            }
            BasicValueEnum::ArrayValue(a) => {
                if i >= a.get_type().len() {
                    return Err(LowerError::malformed("an array index out of range"));
                }
                b.build_extract_value(a, i, "")?
            }
            _ => return Err(LowerError::malformed("an index into a scalar")),
        };
    }
    Ok(v)
}

/// Inserts `o` into `c` along LLVM indices.
pub(crate) fn insert_path<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    c: BasicValueEnum<'ctx>,
    o: BasicValueEnum<'ctx>,
    path: &[u32],
) -> Result<BasicValueEnum<'ctx>> {
    let Some((&first, rest)) = path.split_first() else {
        return Ok(o);
    };
    match c {
        BasicValueEnum::VectorValue(vv) => {
            if !rest.is_empty() || first >= vv.get_type().get_size() {
                return Err(LowerError::malformed("a vector index out of range"));
            }
            Ok(crate::lower::llvm::insert_element(b, vv, o, lane(cx, first), "")?.into())
        }
        BasicValueEnum::StructValue(_) | BasicValueEnum::ArrayValue(_) => {
            let inner = extract_path(cx, b, c, &[first])?;
            let new = insert_path(cx, b, inner, o, rest)?;
            let new = super::super::llvm::fit(cx, b, new, inner.get_type())?;
            let agg: AggregateValueEnum<'ctx> = match c {
                BasicValueEnum::StructValue(s) => s.into(),
                BasicValueEnum::ArrayValue(a) => a.into(),
                _ => unreachable_agg()?,
            };
            Ok(
                match crate::lower::llvm::insert_value(b, agg, new, first, "")? {
                    AggregateValueEnum::StructValue(s) => s.into(),
                    AggregateValueEnum::ArrayValue(a) => a.into(),
                },
            )
        }
        _ => Err(LowerError::malformed("an index into a scalar")),
    }
}

fn unreachable_agg<T>() -> Result<T> {
    Err(LowerError::malformed("not an aggregate"))
}

/// A shuffle of two vectors of any sizes into `result`; `0xFFFFFFFF` lanes are undefined.
pub(crate) fn shuffle<'ctx>(
    cx: &'ctx Context,
    b: &Builder<'ctx>,
    v1: BasicValueEnum<'ctx>,
    v2: BasicValueEnum<'ctx>,
    components: &[u32],
    result: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let (BasicValueEnum::VectorValue(a), BasicValueEnum::VectorValue(c)) = (v1, v2) else {
        return Err(LowerError::malformed("a shuffle of non-vectors"));
    };
    let n1 = a.get_type().get_size();
    let n2 = c.get_type().get_size();
    let mut out = crate::lower::llvm::undef_vector(result)?;
    for (i, &k) in components.iter().enumerate() {
        if k == u32::MAX {
            continue;
        }
        let x = if k < n1 {
            b.build_extract_element(a, lane(cx, k), "")?
        } else if k - n1 < n2 {
            b.build_extract_element(c, lane(cx, k - n1), "")?
        } else {
            return Err(LowerError::malformed("a shuffle component out of range"));
        };
        out = crate::lower::llvm::insert_element(b, out, x, lane(cx, i as u32), "")?;
    }
    Ok(out.into())
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// LLVM indices for a SPIR-V literal index path into a value of type `ty`, stopping at a
    /// struct member laid out otherwise than its value (`RowMajor` or padded matrices, see
    /// `matrix_layout`): the path to the member and, when there is such a member on the path,
    /// the SPIR-V indices left inside it, its type and its layout.
    #[allow(clippy::type_complexity)]
    pub(crate) fn llvm_path_rm<'i>(
        &mut self,
        ty: Handle<Type>,
        indexes: &'i [u32],
    ) -> Result<(Vec<u32>, Option<(&'i [u32], Handle<Type>, MatLayout)>)> {
        let mut out = Vec::new();
        let mut cur = ty;
        for (pos, &i) in indexes.iter().enumerate() {
            let info = self.ty(cur)?;
            cur = match self.spv_type(cur)?.clone() {
                Type::Struct(s) => {
                    out.push(
                        *info
                            .fields
                            .get(i as usize)
                            .ok_or_else(|| LowerError::malformed("a struct index out of range"))?,
                    );
                    let m = s
                        .members
                        .get(i as usize)
                        .ok_or_else(|| LowerError::malformed("a struct index out of range"))?;
                    if let Some(lay) = info.mat_layout.get(i as usize).copied().flatten() {
                        return Ok((out, Some((&indexes[pos + 1..], m.ty, lay))));
                    }
                    m.ty
                }
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                    out.push(i);
                    if info.padded_elem {
                        out.push(0);
                    }
                    element
                }
                Type::Vector { component, .. } => {
                    out.push(i);
                    component
                }
                Type::Matrix { column, .. } => {
                    out.push(i);
                    column
                }
                _ => return Err(LowerError::malformed("an index into a scalar")),
            };
        }
        Ok((out, None))
    }
}

/// Lowers a composite op.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    result: Option<BasicTypeEnum<'ctx>>,
) -> Result<BasicValueEnum<'ctx>> {
    use Instruction as I;
    let r = result.ok_or_else(|| LowerError::malformed("a composite op without a result type"))?;
    let cx = l.cx;
    match &op.inst {
        I::CompositeExtract(e) => {
            let t = l.type_of_id(fx, e.composite)?;
            let (path, rest) = l.llvm_path_rm(t, &e.indexes)?;
            let c = l.id(fx, e.composite)?;
            let v = extract_path(cx, &l.b, c, &path)?;
            match rest {
                None => super::super::llvm::fit(cx, &l.b, v, r),
                // A member in its memory layout: its value, then the rest of the path.
                Some((rest, mty, lay)) => {
                    let v = l.value_form(v, mty, lay)?;
                    let (inner, _) = l.llvm_path_rm(mty, rest)?;
                    let v = extract_path(cx, &l.b, v, &inner)?;
                    super::super::llvm::fit(cx, &l.b, v, r)
                }
            }
        }
        I::CompositeInsert(e) => {
            let t = l.type_of_id(fx, e.composite)?;
            let (path, rest) = l.llvm_path_rm(t, &e.indexes)?;
            let c = l.id(fx, e.composite)?;
            let o = l.id(fx, e.object)?;
            match rest {
                None => insert_path(cx, &l.b, c, o, &path),
                Some((rest, mty, lay)) => {
                    // A member in its memory layout: through its value.
                    let m = if rest.is_empty() {
                        o
                    } else {
                        let mem = extract_path(cx, &l.b, c, &path)?;
                        let v = l.value_form(mem, mty, lay)?;
                        let (inner, _) = l.llvm_path_rm(mty, rest)?;
                        insert_path(cx, &l.b, v, o, &inner)?
                    };
                    let m = l.memory_form(m, mty, lay)?;
                    insert_path(cx, &l.b, c, m, &path)
                }
            }
        }
        I::CompositeConstruct(c) => {
            let rt = op
                .result_type()
                .ok_or_else(|| LowerError::malformed("no result type"))?;
            let mut parts = Vec::new();
            for &id in &c.constituents {
                parts.push(l.id(fx, id)?);
            }
            construct(l, rt, r, &parts)
        }
        I::VectorShuffle(s) => {
            let a = l.id(fx, s.vector_1)?;
            let c = l.id(fx, s.vector_2)?;
            shuffle(cx, &l.b, a, c, &s.components, r)
        }
        I::VectorExtractDynamic(e) => {
            let (BasicValueEnum::VectorValue(v), BasicValueEnum::IntValue(i)) =
                (l.id(fx, e.vector)?, l.id(fx, e.index)?)
            else {
                return Err(LowerError::malformed("a dynamic extract of a non-vector"));
            };
            Ok(l.b.build_extract_element(v, i, "")?)
        }
        I::VectorInsertDynamic(e) => {
            let (BasicValueEnum::VectorValue(v), BasicValueEnum::IntValue(i)) =
                (l.id(fx, e.vector)?, l.id(fx, e.index)?)
            else {
                return Err(LowerError::malformed("a dynamic insert into a non-vector"));
            };
            let c = l.id(fx, e.component)?;
            Ok(crate::lower::llvm::insert_element(&l.b, v, c, i, "")?.into())
        }
        I::CopyObject(c) => {
            if super::memory::layout_ptr(fx, c.operand).is_some() {
                return Err(LowerError::unsupported(
                    "a copy of a pointer into a RowMajor or padded matrix member",
                ));
            }
            l.id(fx, c.operand)
        }
        I::CopyLogical(c) => {
            let v = l.id(fx, c.operand)?;
            if v.get_type() != r {
                return Err(LowerError::unsupported(
                    "OpCopyLogical between differently laid out types",
                ));
            }
            Ok(v)
        }
        _ => Err(LowerError::unsupported("this composite op")),
    }
}

/// Builds a composite of SPIR-V type `rt` (LLVM `r`) from its constituents.
pub(crate) fn construct<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    rt: Handle<Type>,
    r: BasicTypeEnum<'ctx>,
    parts: &[BasicValueEnum<'ctx>],
) -> Result<BasicValueEnum<'ctx>> {
    let cx = l.cx;
    if parts.iter().all(|p| super::super::llvm::is_constant(*p))
        && !matches!(r, BasicTypeEnum::VectorType(_))
        && !l.ty(rt)?.mat_layout.iter().any(Option::is_some)
    {
        return l.composite_of(rt, parts);
    }
    match r {
        BasicTypeEnum::VectorType(vt) => {
            let mut out = crate::lower::llvm::undef_vector(r)?;
            let mut k = 0u32;
            for p in parts {
                match p {
                    BasicValueEnum::VectorValue(v) => {
                        for j in 0..v.get_type().get_size() {
                            let x = l.b.build_extract_element(*v, lane(cx, j), "")?;
                            if k < vt.get_size() {
                                out = crate::lower::llvm::insert_element(
                                    &l.b,
                                    out,
                                    x,
                                    lane(cx, k),
                                    "",
                                )?;
                            }
                            k += 1;
                        }
                    }
                    s => {
                        if k < vt.get_size() {
                            out =
                                crate::lower::llvm::insert_element(&l.b, out, *s, lane(cx, k), "")?;
                        }
                        k += 1;
                    }
                }
            }
            Ok(out.into())
        }
        BasicTypeEnum::ArrayType(_) | BasicTypeEnum::StructType(_) => {
            let mut out = undef(r);
            for (i, p) in parts.iter().enumerate() {
                let index = [i as u32];
                let (path, rest) = l.llvm_path_rm(rt, &index)?;
                let mut p = *p;
                if let Some((_, mty, lay)) = rest {
                    // A member in its memory layout.
                    p = l.memory_form(p, mty, lay)?;
                }
                out = insert_path(cx, &l.b, out, p, &path)?;
            }
            Ok(out)
        }
        _ => Err(LowerError::malformed("a composite of a scalar type")),
    }
}
