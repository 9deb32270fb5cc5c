//! Composite instructions: vector extract/insert/shuffle, composite construct, extract and
//! insert (literal index walks), copy object and transpose.
//!
//! Hand-written because the relation between a composite's type, the indexes and the result
//! type is structural: the grammar only says the indexes are literal integers.

use super::module::{Inst, Module};
use super::query::{Ty, WalkError};
use super::Cx;
use crate::grammar::{Instruction, Opcode};

const RULE: &str = "core:composite";

/// Checks a composite instruction.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    let ty = |id: crate::grammar::Id| m.type_of(id.0).unwrap_or(0);
    let mut err = |msg: String| cx.sink.push(inst.offset, RULE, msg);
    match typed {
        Instruction::VectorExtractDynamic(i) => {
            let rt = i.result_type.0;
            if !m.is_scalar(rt) {
                return err("OpVectorExtractDynamic: the result type must be a scalar".into());
            }
            let Some(Ty::Vector { component, .. }) = m.ty(ty(i.vector)) else {
                return err("OpVectorExtractDynamic: the vector must be a vector".into());
            };
            if component != rt {
                return err(
                    "OpVectorExtractDynamic: the vector's component type must be the result type"
                        .into(),
                );
            }
            if !m.is_int_scalar(ty(i.index)) {
                err("OpVectorExtractDynamic: the index must be an int scalar".into());
            }
        }
        Instruction::VectorInsertDynamic(i) => {
            let rt = i.result_type.0;
            let Some(Ty::Vector { component, .. }) = m.ty(rt) else {
                return err("OpVectorInsertDynamic: the result type must be a vector".into());
            };
            if ty(i.vector) != rt {
                return err("OpVectorInsertDynamic: the vector must be of the result type".into());
            }
            if ty(i.component) != component {
                return err(
                    "OpVectorInsertDynamic: the component must be of the result's component type"
                        .into(),
                );
            }
            if !m.is_int_scalar(ty(i.index)) {
                err("OpVectorInsertDynamic: the index must be an int scalar".into());
            }
        }
        Instruction::VectorShuffle(i) => {
            let rt = i.result_type.0;
            let Some(Ty::Vector { component, count }) = m.ty(rt) else {
                return err("OpVectorShuffle: the result type must be a vector".into());
            };
            if count as usize != i.components.len() {
                return err(format!(
                    "OpVectorShuffle: {} component literals for a {count}-component result",
                    i.components.len()
                ));
            }
            let mut total = 0u64;
            for (k, v) in [i.vector_1, i.vector_2].iter().enumerate() {
                let Some(Ty::Vector {
                    component: c,
                    count: n,
                }) = m.ty(ty(*v))
                else {
                    return err(format!(
                        "OpVectorShuffle: vector {} must be a vector",
                        k + 1
                    ));
                };
                if c != component {
                    return err(format!(
                        "OpVectorShuffle: vector {}'s component type must be the result's",
                        k + 1
                    ));
                }
                total += u64::from(n);
            }
            for &c in &i.components {
                if c != u32::MAX && u64::from(c) >= total {
                    return cx.sink.push(
                        inst.offset,
                        RULE,
                        format!(
                            "OpVectorShuffle: component index {c} is out of bounds for the \
                             combined size {total}"
                        ),
                    );
                }
            }
        }
        Instruction::CompositeConstruct(i) => construct(cx, inst, i.result_type.0, &i.constituents),
        Instruction::CompositeExtract(i) => {
            let ct = ty(i.composite);
            match walk(m, ct, &i.indexes) {
                Ok(t) => {
                    if t != i.result_type.0 {
                        err(
                            "OpCompositeExtract: the result type does not match the type \
                             reached by indexing into the composite"
                                .into(),
                        );
                    }
                }
                Err(msg) => err(format!("OpCompositeExtract: {msg}")),
            }
        }
        Instruction::CompositeInsert(i) => {
            let ct = ty(i.composite);
            match walk(m, ct, &i.indexes) {
                Ok(t) => {
                    if t != ty(i.object) {
                        return err("OpCompositeInsert: the object's type does not match the \
                                    type reached by indexing into the composite"
                            .into());
                    }
                    if ct != i.result_type.0 {
                        err(
                            "OpCompositeInsert: the result type must be the composite's type"
                                .into(),
                        );
                    }
                }
                Err(msg) => err(format!("OpCompositeInsert: {msg}")),
            }
        }
        Instruction::CopyObject(i) => {
            if ty(i.operand) != i.result_type.0 {
                err("OpCopyObject: the result type and the operand's type must be the same".into());
            }
        }
        Instruction::Transpose(i) => {
            let (
                Some(Ty::Matrix {
                    column: rc,
                    count: rn,
                }),
                Some(Ty::Matrix {
                    column: mc,
                    count: mn,
                }),
            ) = (m.ty(i.result_type.0), m.ty(ty(i.matrix)))
            else {
                return err("OpTranspose: the result type and the operand must be matrices".into());
            };
            if m.component_type(rc) != m.component_type(mc)
                || m.dimension(rc) != mn
                || m.dimension(mc) != rn
            {
                err("OpTranspose: the result must be the transposed matrix type".into());
            }
        }
        _ => {}
    }
}

/// Walks literal indexes; the error message says why it failed.
fn walk(m: &Module<'_>, ty: u32, indexes: &[u32]) -> Result<u32, String> {
    if indexes.is_empty() {
        return Err("expected at least one index".into());
    }
    if !m.is_composite(ty) && !is_coop(m, ty) {
        return Err("the composite is not of a composite type".into());
    }
    if is_coop(m, ty) {
        return Ok(m.def(ty).map_or(0, |d| d.word(1)));
    }
    m.walk_literal_indexes(ty, indexes).map_err(|e| match e {
        WalkError::OutOfBounds { depth, index, size } => format!(
            "index {index} (at position {depth}) is out of bounds: the composite has {size} \
             elements"
        ),
        WalkError::NotComposite { depth } => {
            format!("reached a non-composite type at position {depth} with indexes left")
        }
    })
}

fn is_coop(m: &Module<'_>, t: u32) -> bool {
    m.def_op(t).is_some_and(Opcode::is_cooperative_matrix_type)
}

fn construct(cx: &mut Cx<'_>, inst: &Inst<'_>, rt: u32, parts: &[crate::grammar::Id]) {
    let m = cx.m;
    let ty = |id: &crate::grammar::Id| m.type_of(id.0).unwrap_or(0);
    let mut err = |msg: String| {
        cx.sink
            .push(inst.offset, RULE, format!("OpCompositeConstruct: {msg}"))
    };
    match m.ty(rt) {
        Some(Ty::Vector { component, count }) => {
            let mut total = 0;
            for p in parts {
                let t = ty(p);
                if t == component {
                    total += 1;
                } else if let Some(Ty::Vector {
                    component: c,
                    count: n,
                }) = m.ty(t)
                {
                    if c != component {
                        return err("constituents must be scalars or vectors of the result's \
                                    component type"
                            .into());
                    }
                    total += n;
                } else {
                    return err("constituents must be scalars or vectors of the result's \
                                component type"
                        .into());
                }
            }
            if total != count {
                err(format!(
                    "the constituents have {total} components, the result type {count}"
                ));
            }
        }
        Some(Ty::Matrix { column, count }) => {
            if parts.len() != count as usize {
                return err("one constituent per matrix column is needed".into());
            }
            if parts.iter().any(|p| ty(p) != column) {
                err("constituents must be of the matrix's column type".into());
            }
        }
        Some(Ty::Array { element, length }) => {
            if let Some(n) = m.const_int(length) {
                if n != parts.len() as i128 {
                    return err(format!(
                        "{} constituents for an array of {n} elements",
                        parts.len()
                    ));
                }
            }
            if parts.iter().any(|p| ty(p) != element) {
                err("constituents must be of the array's element type".into());
            }
        }
        Some(Ty::Struct { members }) => {
            if parts.len() != members.len() {
                return err(format!(
                    "{} constituents for a structure of {} members",
                    parts.len(),
                    members.len()
                ));
            }
            if parts.iter().zip(members).any(|(p, &mt)| ty(p) != mt) {
                err("constituents must be of the corresponding member types".into());
            }
        }
        _ if is_coop(m, rt) => {}
        _ => err("the result type must be a composite type".into()),
    }
}
