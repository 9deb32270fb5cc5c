//! Annotations and debug names: what each decoration may target (structures for `Block`,
//! arrays or pointers for `ArrayStride`, variables for `Location` and `Binding`, memory
//! objects for interpolation and access qualifiers, scalar spec constants for `SpecId`,
//! struct members only for `Offset`-like decorations and never for others), in-bounds
//! member indexes, decoration groups used only by annotations, `OpMemberName` on structs,
//! `OpLine` on strings, the storage classes Vulkan allows per decoration, and linkage of
//! function declarations and definitions.
//!
//! Hand-written because the grammar lists decorations and their parameters but not what
//! they may be applied to.

use super::module::{deco, Inst};
use super::query::{is_spec_constant_op, Ty};
use super::Cx;
use crate::grammar::{Decoration as D, Instruction, LinkageType, Opcode, StorageClass as S};

const RULE: &str = "core:decoration";

/// Decorations only structure members may carry.
fn member_only(d: &D) -> bool {
    matches!(d, D::RowMajor | D::ColMajor | D::MatrixStride(_))
}

/// Decorations structure members may not carry.
fn not_member(d: &D) -> bool {
    matches!(
        d,
        D::SpecId(_)
            | D::Block
            | D::BufferBlock
            | D::ArrayStride(_)
            | D::GLSLShared
            | D::GLSLPacked
            | D::CPacked
            | D::Aliased
            | D::Constant
            | D::Uniform
            | D::UniformId(_)
            | D::SaturatedConversion
            | D::Index(_)
            | D::Binding(_)
            | D::DescriptorSet(_)
            | D::FuncParamAttr(_)
            | D::FPRoundingMode(_)
            | D::FPFastMathMode(_)
            | D::LinkageAttributes(..)
            | D::NoContraction
            | D::InputAttachmentIndex(_)
            | D::Alignment(_)
            | D::MaxByteOffset(_)
            | D::AlignmentId(_)
            | D::MaxByteOffsetId(_)
            | D::NoSignedWrap
            | D::NoUnsignedWrap
            | D::NonUniform
            | D::RestrictPointer
            | D::AliasedPointer
            | D::CounterBuffer(_)
    )
}

/// Decorations whose parameters are ids (they need `OpDecorateId`).
fn takes_ids(d: &D) -> bool {
    matches!(
        d,
        D::UniformId(_) | D::AlignmentId(_) | D::MaxByteOffsetId(_) | D::CounterBuffer(_)
    )
}

/// Checks annotation and debug-name instructions.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    match typed {
        Instruction::Decorate(d) => {
            if cx.env.is_vulkan() && matches!(d.decoration, D::GLSLShared | D::GLSLPacked) {
                cx.err(
                    inst,
                    "vulkan:decoration",
                    format!("decoration {} is not valid in Vulkan", d.decoration.name()),
                );
            }
            if takes_ids(&d.decoration) {
                cx.err(
                    inst,
                    RULE,
                    format!(
                        "decoration {} takes ids and needs OpDecorateId",
                        d.decoration.name()
                    ),
                );
            }
            target(cx, inst, d.target.0, &d.decoration);
        }
        Instruction::DecorateId(d) => {
            if !takes_ids(&d.decoration) {
                cx.err(
                    inst,
                    RULE,
                    format!(
                        "decoration {} takes no ids and may not be used with OpDecorateId",
                        d.decoration.name()
                    ),
                );
            }
            target(cx, inst, d.target.0, &d.decoration);
        }
        Instruction::MemberDecorate(d) => {
            let s = d.structure_type.0;
            let Some(Ty::Struct { members }) = m.ty(s) else {
                return cx.err(
                    inst,
                    RULE,
                    format!("OpMemberDecorate: %{s} is not a struct type"),
                );
            };
            if d.member as usize >= members.len() {
                return cx.err(
                    inst,
                    RULE,
                    format!(
                        "OpMemberDecorate: member {} is out of bounds: the structure has {} \
                         members",
                        d.member,
                        members.len()
                    ),
                );
            }
            if not_member(&d.decoration) {
                cx.err(
                    inst,
                    RULE,
                    format!(
                        "decoration {} cannot be applied to structure members",
                        d.decoration.name()
                    ),
                );
            }
        }
        Instruction::DecorationGroup(_) => {}
        Instruction::GroupDecorate(g) => {
            if m.def_op(g.decoration_group.0) != Some(Opcode::DecorationGroup) {
                return cx.err(
                    inst,
                    RULE,
                    format!("%{} is not a decoration group", g.decoration_group.0),
                );
            }
            for t in &g.targets {
                if m.def_op(t.0) == Some(Opcode::DecorationGroup) {
                    cx.err(
                        inst,
                        RULE,
                        format!("OpGroupDecorate may not target decoration group %{}", t.0),
                    );
                }
            }
        }
        Instruction::GroupMemberDecorate(g) => {
            if m.def_op(g.decoration_group.0) != Some(Opcode::DecorationGroup) {
                return cx.err(
                    inst,
                    RULE,
                    format!("%{} is not a decoration group", g.decoration_group.0),
                );
            }
            for (s, i) in &g.targets {
                match m.ty(s.0) {
                    Some(Ty::Struct { members }) => {
                        if *i as usize >= members.len() {
                            cx.err(
                                inst,
                                RULE,
                                format!(
                                    "OpGroupMemberDecorate: member {i} of %{} is out of bounds",
                                    s.0
                                ),
                            );
                        }
                    }
                    _ => cx.err(
                        inst,
                        RULE,
                        format!("OpGroupMemberDecorate: %{} is not a struct type", s.0),
                    ),
                }
            }
        }
        Instruction::MemberName(n) => {
            let s = n.type_.0;
            match m.ty(s) {
                Some(Ty::Struct { members }) => {
                    if n.member as usize >= members.len() {
                        cx.err(
                            inst,
                            "core:debug",
                            format!("OpMemberName: member {} is out of bounds", n.member),
                        );
                    }
                }
                _ => cx.err(
                    inst,
                    "core:debug",
                    format!("OpMemberName: %{s} is not a struct type"),
                ),
            }
        }
        Instruction::Line(l) => {
            if m.def_op(l.file.0) != Some(Opcode::String) {
                cx.err(
                    inst,
                    "core:debug",
                    format!("OpLine: %{} is not an OpString", l.file.0),
                );
            }
        }
        _ => {}
    }
}

/// Checks the target of a whole-id decoration.
fn target(cx: &mut Cx<'_>, inst: &Inst<'_>, t: u32, d: &D) {
    let m = cx.m;
    let Some(def) = m.def(t) else { return };
    let Some(op) = def.op() else { return };
    if op == Opcode::DecorationGroup {
        return;
    }
    let name = d.name();
    if member_only(d) {
        return cx.err(
            inst,
            RULE,
            format!("decoration {name} can only be applied to structure members"),
        );
    }
    let mut fail = |msg: &str| {
        cx.sink.push(
            inst.offset,
            RULE,
            format!("decoration {name} on %{t} {msg}"),
        )
    };
    let variable = op == Opcode::Variable;
    match d {
        D::SpecId(_) => {
            let scalar_spec = is_spec_constant_op(op)
                && op != Opcode::SpecConstantComposite
                && op != Opcode::SpecConstantOp;
            if !scalar_spec {
                return fail("must target a scalar specialization constant");
            }
        }
        D::Block | D::BufferBlock | D::GLSLShared | D::GLSLPacked | D::CPacked => {
            if op != Opcode::TypeStruct {
                return fail("must target a structure type");
            }
        }
        D::ArrayStride(_) => {
            if !matches!(
                op,
                Opcode::TypeArray | Opcode::TypeRuntimeArray | Opcode::TypePointer
            ) {
                return fail("must target an array or pointer type");
            }
        }
        D::BuiltIn(b) => {
            if !variable && !op.is_constant_creation() {
                return fail("must target a variable, a structure member or a constant");
            }
            if cx.shader && *b == crate::grammar::BuiltIn::WorkgroupSize {
                if !op.is_constant_creation() {
                    return fail("must target a constant for WorkgroupSize");
                }
            } else if !variable {
                return fail("must target a variable");
            }
        }
        D::NoPerspective
        | D::Flat
        | D::Patch
        | D::Centroid
        | D::Sample
        | D::Restrict
        | D::Aliased
        | D::Volatile
        | D::Coherent
        | D::NonWritable
        | D::NonReadable
        | D::XfbBuffer(_)
        | D::XfbStride(_)
        | D::Component(_)
        | D::Stream(_)
        | D::RestrictPointer
        | D::AliasedPointer => {
            if !variable && op != Opcode::FunctionParameter {
                return fail("must target a memory object declaration");
            }
            if !m.is_pointer(def.result_type().unwrap_or(0)) {
                return fail("must target a pointer");
            }
        }
        D::Invariant
        | D::Constant
        | D::Location(_)
        | D::Index(_)
        | D::Binding(_)
        | D::DescriptorSet(_)
        | D::InputAttachmentIndex(_) => {
            if !variable {
                return fail("must target a variable");
            }
        }
        _ => {}
    }
    if !cx.env.is_vulkan() {
        return;
    }
    let sc = def
        .result_type()
        .and_then(|rt| m.pointer(rt))
        .map_or(S::Uniform.value(), |(sc, _)| sc);
    let is = |list: &[S]| list.iter().any(|s| s.value() == sc);
    let ok = match d {
        D::Location(_) | D::Component(_) => is(&[
            S::Input,
            S::Output,
            S::RayPayloadNV,
            S::IncomingRayPayloadNV,
            S::HitAttributeNV,
            S::CallableDataNV,
            S::IncomingCallableDataNV,
            S::ShaderRecordBufferNV,
        ]),
        D::Index(_) => is(&[S::Output]),
        D::Binding(_) | D::DescriptorSet(_) => {
            is(&[S::StorageBuffer, S::Uniform, S::UniformConstant])
        }
        D::InputAttachmentIndex(_) => is(&[S::UniformConstant]),
        D::Flat | D::NoPerspective | D::Centroid | D::Sample => is(&[S::Input, S::Output]),
        D::PerVertexKHR => is(&[S::Input]),
        _ => true,
    };
    if !ok {
        cx.err(
            inst,
            "vulkan:decoration",
            format!("decoration {name} on %{t} is not allowed in this storage class in Vulkan"),
        );
    }
}

/// Module-level rules: linkage of function declarations and definitions.
pub(super) fn finish(cx: &mut Cx<'_>) {
    let m = cx.m;
    for f in &m.functions {
        let import = m.decorations_of(f.id).iter().any(|d| {
            d.kind == deco::LinkageAttributes && {
                let di = m.inst(d.inst);
                di.ops.last() == Some(&(LinkageType::Import as u32))
            }
        });
        let inst = m.inst(f.start);
        if !f.has_body && !import {
            cx.err(
                &inst,
                "core:linkage",
                format!(
                    "function declaration %{} must have a LinkageAttributes decoration with the \
                     Import linkage type",
                    f.id
                ),
            );
        } else if f.has_body && import {
            cx.err(
                &inst,
                "core:linkage",
                format!(
                    "function definition %{} may not be decorated with the Import linkage type",
                    f.id
                ),
            );
        }
    }
}
