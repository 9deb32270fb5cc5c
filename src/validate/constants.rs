//! Constants: boolean constants are bools, composite constants match their type member by
//! member and are built from constants, null constants have a nullable type, samplers are
//! samplers, specialization constants are scalars.
//!
//! Hand-written for the same reason as the composite rules: the grammar types constituents as
//! plain ids.

use super::module::{Inst, Module};
use super::query::Ty;
use super::Cx;
use crate::grammar::{Instruction, Opcode};

const RULE: &str = "core:constant";

/// Checks a constant declaration.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    let Some(op) = inst.op() else { return };
    let rt = inst.word(0);
    if cx.shader && op.is_constant_creation() && limited_use(cx, rt, 0) {
        cx.err(
            inst,
            RULE,
            format!(
                "{op}: constants of 8- or 16-bit types need the Int8, Int16 or Float16 capability \
                 in shaders"
            ),
        );
    }
    let mut err = |msg: String| cx.sink.push(inst.offset, RULE, format!("{op}: {msg}"));
    match typed {
        Instruction::ConstantTrue(_)
        | Instruction::ConstantFalse(_)
        | Instruction::SpecConstantTrue(_)
        | Instruction::SpecConstantFalse(_) => {
            if !m.is_bool_scalar(rt) {
                err("the result type must be a bool".into());
            }
        }
        Instruction::SpecConstant(_) => {
            if !m.is_int_scalar(rt) && !m.is_float_scalar(rt) {
                err("a specialization constant must be an integer or float scalar".into());
            }
        }
        Instruction::ConstantSampler(_) => {
            if m.ty(rt) != Some(Ty::Sampler) {
                err("the result type must be OpTypeSampler".into());
            }
        }
        Instruction::ConstantNull(_) => {
            if !nullable(m, rt, 0) {
                err(format!("type %{rt} cannot have a null value"));
            }
        }
        Instruction::ConstantComposite(c) => {
            let parts = continued(
                m,
                inst,
                &c.constituents,
                Opcode::ConstantCompositeContinuedINTEL,
            );
            composite(cx, inst, op, rt, &parts)
        }
        Instruction::SpecConstantComposite(c) => {
            let continuation = Opcode::SpecConstantCompositeContinuedINTEL;
            let parts = continued(m, inst, &c.constituents, continuation);
            composite(cx, inst, op, rt, &parts)
        }
        Instruction::ConstantCompositeContinuedINTEL(_)
        | Instruction::SpecConstantCompositeContinuedINTEL(_)
        | Instruction::TypeStructContinuedINTEL(_) => {
            let base = match op {
                Opcode::ConstantCompositeContinuedINTEL => Opcode::ConstantComposite,
                Opcode::SpecConstantCompositeContinuedINTEL => Opcode::SpecConstantComposite,
                _ => Opcode::TypeStruct,
            };
            let mut i = inst.index;
            while i > 0 && m.inst(i - 1).opcode == inst.opcode {
                i -= 1;
            }
            if i == 0 || m.inst(i - 1).opcode != base as u16 {
                err(format!("must follow an {base} or another {op}"));
            }
        }
        _ => {}
    }
}

/// Whether `t` contains a type only storage capabilities enable (8-bit integers without
/// `Int8`, 16-bit integers without `Int16`, 16-bit floats without `Float16`), not looking
/// through pointers.
fn limited_use(cx: &Cx<'_>, t: u32, depth: u32) -> bool {
    use crate::grammar::Capability as C;
    if depth > 32 {
        return false;
    }
    let m = cx.m;
    match m.ty(t) {
        Some(Ty::Int { width: 8, .. }) => !m.capabilities.has(C::Int8),
        Some(Ty::Int { width: 16, .. }) => !m.capabilities.has(C::Int16),
        Some(Ty::Float { width: 16 }) => !m.capabilities.has(C::Float16),
        Some(Ty::Vector { component: e, .. })
        | Some(Ty::Matrix { column: e, .. })
        | Some(Ty::Array { element: e, .. })
        | Some(Ty::RuntimeArray { element: e }) => limited_use(cx, e, depth + 1),
        Some(Ty::Struct { members }) => members.iter().any(|&x| limited_use(cx, x, depth + 1)),
        _ => false,
    }
}

/// Whether a type has a null value.
fn nullable(m: &Module<'_>, t: u32, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    match m.ty(t) {
        Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Pointer { .. }) => true,
        Some(Ty::Vector { component, .. }) => nullable(m, component, depth + 1),
        Some(Ty::Matrix { column, .. }) => nullable(m, column, depth + 1),
        Some(Ty::Array { element, .. }) => nullable(m, element, depth + 1),
        Some(Ty::Struct { members }) => members.iter().all(|&x| nullable(m, x, depth + 1)),
        Some(Ty::Other(op)) => {
            matches!(
                op,
                Opcode::TypeEvent
                    | Opcode::TypeDeviceEvent
                    | Opcode::TypeReserveId
                    | Opcode::TypeQueue
            ) || op.is_cooperative_matrix_type()
        }
        _ => false,
    }
}

/// A composite's constituents with those of the SPV_INTEL_long_composites continuations
/// (`continuation`) right after it.
fn continued<'p>(
    m: &Module<'_>,
    inst: &Inst<'_>,
    parts: &'p [crate::grammar::Id],
    continuation: Opcode,
) -> std::borrow::Cow<'p, [crate::grammar::Id]> {
    let mut all = std::borrow::Cow::Borrowed(parts);
    let mut i = inst.index + 1;
    while (i as usize) < m.len() && m.inst(i).opcode == continuation as u16 {
        let more = m.inst(i).ops.iter().map(|&w| crate::grammar::Id(w));
        all.to_mut().extend(more);
        i += 1;
    }
    all
}

fn composite(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode, rt: u32, parts: &[crate::grammar::Id]) {
    let m = cx.m;
    let mut err = |msg: String| cx.sink.push(inst.offset, RULE, format!("{op}: {msg}"));
    // Constituents are constants (or undef).
    for p in parts {
        let ok = m
            .def_op(p.0)
            .is_some_and(|o| o.is_constant_creation() || o == Opcode::Undef);
        if !ok {
            return err(format!("constituent %{} is not a constant or undef", p.0));
        }
    }
    let ty = |p: &crate::grammar::Id| m.type_of(p.0).unwrap_or(0);
    match m.ty(rt) {
        Some(Ty::Vector { component, count }) => {
            if parts.len() != count as usize {
                return err(format!(
                    "{} constituents for a {count}-component vector",
                    parts.len()
                ));
            }
            if parts.iter().any(|p| ty(p) != component) {
                err("constituents must be of the vector's component type".into());
            }
        }
        Some(Ty::Matrix { column, count }) => {
            if parts.len() != count as usize {
                return err(format!("{} constituents for {count} columns", parts.len()));
            }
            if parts.iter().any(|p| ty(p) != column) {
                err("constituents must be of the matrix's column type".into());
            }
        }
        Some(Ty::Array { element, length }) => {
            if let Some(n) = m.const_int(length) {
                if n != parts.len() as i128 {
                    return err(format!(
                        "{} constituents for {n} array elements",
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
                    "{} constituents for {} structure members",
                    parts.len(),
                    members.len()
                ));
            }
            if parts.iter().zip(members).any(|(p, &t)| ty(p) != t) {
                err("constituents must be of the corresponding member types".into());
            }
        }
        _ if m.def_op(rt).is_some_and(Opcode::is_cooperative_matrix_type) => {}
        _ => err("the result type must be a composite type".into()),
    }
}
