//! Atomic instructions and scopes: the pointer operand is a pointer to the atomic's type, the
//! value operands and result agree with it, 64-bit integer atomics need `Int64Atomics`, float
//! atomics need the capability for their width, and every scope and memory-semantics operand
//! is a 32-bit integer.
//!
//! Hand-written because the grammar types these operands as `IdRef`, `IdScope` and
//! `IdMemorySemantics` without saying what they must hold. The operand positions are found
//! in the grammar's descriptor tables, so every instruction with a scope is covered.

use super::module::Inst;
use super::Cx;
use crate::grammar::tables::core_instruction;
use crate::grammar::{Capability, Instruction, KindClass, Opcode};

const RULE: &str = "core:atomic";

/// An atomic instruction's operands.
#[derive(Clone, Copy, Debug)]
pub(super) struct Atomic {
    /// The `Pointer` operand.
    pub pointer: u32,
    /// The type of the atomic's data: the result type, or the `Value`'s type for stores.
    pub data_type: Option<u32>,
    /// The `Value` operand, if any.
    pub value: Option<u32>,
    /// Flag instructions (`OpAtomicFlagTestAndSet`, `OpAtomicFlagClear`) have no data.
    pub flag: bool,
}

/// The operands of an atomic instruction (grammar class `Atomic`), found by name in its
/// descriptor.
pub(super) fn atomic(cx: &Cx<'_>, inst: &Inst<'_>) -> Option<Atomic> {
    let op = inst.op()?;
    let desc = core_instruction(op.value())?;
    if desc.class != "Atomic" {
        return None;
    }
    let mut pointer = None;
    let mut value = None;
    for (pos, o) in desc.operands.iter().enumerate() {
        if !matches!(
            o.kind.class,
            KindClass::Id | KindClass::ResultType | KindClass::Result
        ) {
            break;
        }
        match o.name {
            "Pointer" => pointer = inst.ops.get(pos).copied(),
            "Value" => value = inst.ops.get(pos).copied(),
            _ => {}
        }
    }
    let flag = matches!(op, Opcode::AtomicFlagTestAndSet | Opcode::AtomicFlagClear);
    let data_type = if flag {
        None
    } else {
        inst.result_type()
            .or_else(|| value.and_then(|v| cx.m.type_of(v)))
    };
    Some(Atomic {
        pointer: pointer?,
        data_type,
        value,
        flag,
    })
}

/// The scope and memory-semantics operands of an instruction: (operand name, id, is_scope).
pub(super) fn scopes(inst: &Inst<'_>) -> Vec<(&'static str, u32, bool)> {
    let mut out = Vec::new();
    let Some(desc) = inst.op().and_then(|o| core_instruction(o.value())) else {
        return out;
    };
    for (pos, o) in desc.operands.iter().enumerate() {
        let scope = std::ptr::eq(o.kind, &crate::grammar::tables::KIND_ID_SCOPE);
        let semantics = std::ptr::eq(o.kind, &crate::grammar::tables::KIND_ID_MEMORY_SEMANTICS);
        if scope || semantics {
            if let Some(&id) = inst.ops.get(pos) {
                out.push((o.name, id, scope));
            }
        }
        if !matches!(
            o.kind.class,
            KindClass::Id | KindClass::ResultType | KindClass::Result
        ) || o.quantifier != crate::grammar::Quantifier::One
        {
            break;
        }
    }
    out
}

/// Whether the module uses the Vulkan memory model.
fn vulkan_memory_model(cx: &Cx<'_>) -> bool {
    cx.m.memory_models
        .first()
        .is_some_and(|&i| cx.m.inst(i).word(1) == crate::grammar::MemoryModel::Vulkan.value())
}

/// Checks atomics and scope operands.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, _typed: &Instruction) {
    let m = cx.m;
    let Some(op) = inst.op() else { return };
    for (name, id, scope) in scopes(inst) {
        let t = m.type_of(id).unwrap_or(0);
        if !m.is_int_scalar(t) || m.bit_width(t) != 32 {
            let what = if scope { "scope" } else { "memory semantics" };
            cx.err(
                inst,
                "core:scope",
                format!("{op}: the {what} operand {name} must be a 32-bit integer scalar"),
            );
        } else if scope
            && name == "Memory"
            && m.const_int(id) == Some(i128::from(crate::grammar::Scope::QueueFamily.value()))
            && !m.capabilities.has(Capability::VulkanMemoryModel)
        {
            cx.err(
                inst,
                "core:scope",
                format!(
                    "{op}: the QueueFamily memory scope requires the VulkanMemoryModel capability"
                ),
            );
        } else if scope
            && name == "Memory"
            && m.const_int(id) == Some(i128::from(crate::grammar::Scope::Device.value()))
            && vulkan_memory_model(cx)
            && !m.capabilities.has(Capability::VulkanMemoryModelDeviceScope)
        {
            cx.err(
                inst,
                "core:scope",
                format!(
                    "{op}: the Device memory scope with the Vulkan memory model requires the \
                     VulkanMemoryModelDeviceScope capability"
                ),
            );
        }
    }
    let Some(a) = atomic(cx, inst) else { return };
    let rt = inst.result_type();
    let float_op = matches!(
        op.name(),
        "OpAtomicFAddEXT" | "OpAtomicFMinEXT" | "OpAtomicFMaxEXT"
    );
    if let Some(rt) = rt {
        let (ok, what) = match op {
            Opcode::AtomicLoad | Opcode::AtomicExchange => (
                m.is_int_scalar(rt) || m.is_float_scalar(rt),
                "an integer or float scalar",
            ),
            Opcode::AtomicFlagTestAndSet => (m.is_bool_scalar(rt), "a bool scalar"),
            _ if float_op => (m.is_float_scalar(rt), "a float scalar"),
            _ => (m.is_int_scalar(rt), "an integer scalar"),
        };
        if !ok {
            return cx.err(inst, RULE, format!("{op}: the result type must be {what}"));
        }
    }
    let Some((storage, pointee)) = m.type_of(a.pointer).and_then(|t| m.pointer(t)) else {
        return cx.err(inst, RULE, format!("{op}: the Pointer must be a pointer"));
    };
    if m.is_int_scalar(pointee)
        && m.bit_width(pointee) == 64
        && !m.capabilities.has(Capability::Int64Atomics)
    {
        return cx.err(
            inst,
            "core:capability-required",
            format!("{op}: 64-bit atomics require the Int64Atomics capability"),
        );
    }
    use crate::grammar::StorageClass as S;
    let is = |list: &[S]| list.iter().any(|s| s.value() == storage);
    if !is(&[
        S::Uniform,
        S::StorageBuffer,
        S::Workgroup,
        S::CrossWorkgroup,
        S::Generic,
        S::AtomicCounter,
        S::Image,
        S::Function,
        S::PhysicalStorageBuffer,
        S::TaskPayloadWorkgroupEXT,
    ]) {
        return cx.err(
            inst,
            RULE,
            format!("{op}: the Pointer's storage class is forbidden for atomics"),
        );
    }
    if cx.shader {
        if cx.env.is_vulkan() {
            if !is(&[
                S::Uniform,
                S::StorageBuffer,
                S::Workgroup,
                S::Image,
                S::PhysicalStorageBuffer,
                S::TaskPayloadWorkgroupEXT,
            ]) {
                return cx.err(
                    inst,
                    "vulkan:atomic",
                    format!(
                        "{op}: Vulkan allows atomics on Uniform, Workgroup, Image, StorageBuffer, \
                         PhysicalStorageBuffer and TaskPayloadWorkgroupEXT memory only"
                    ),
                );
            }
        } else if is(&[S::Function]) {
            return cx.err(
                inst,
                RULE,
                format!("{op}: the Function storage class is forbidden with the Shader capability"),
            );
        }
    }
    if float_op {
        let w = m.bit_width(pointee);
        let add = op == Opcode::AtomicFAddEXT;
        let need = match (add, w) {
            (true, 16) => Some(Capability::AtomicFloat16AddEXT),
            (true, 32) => Some(Capability::AtomicFloat32AddEXT),
            (true, 64) => Some(Capability::AtomicFloat64AddEXT),
            (false, 16) => Some(Capability::AtomicFloat16MinMaxEXT),
            (false, 32) => Some(Capability::AtomicFloat32MinMaxEXT),
            (false, 64) => Some(Capability::AtomicFloat64MinMaxEXT),
            _ => None,
        };
        if let Some(c) = need.filter(|&c| !m.capabilities.has(c)) {
            return cx.err(
                inst,
                "core:capability-required",
                format!(
                    "{op}: {w}-bit float atomics require the {} capability",
                    c.name()
                ),
            );
        }
    }
    if cx.env.is_opencl() {
        if !is(&[S::Function, S::Workgroup, S::CrossWorkgroup, S::Generic]) {
            return cx.err(
                inst,
                "opencl:atomic",
                format!(
                    "{op}: the storage class must be Function, Workgroup, CrossWorkgroup or \
                     Generic in OpenCL"
                ),
            );
        }
        if cx.env == crate::target_env::TargetEnv::OpenCl1_2 && is(&[S::Generic]) {
            return cx.err(
                inst,
                "opencl:atomic",
                format!("{op}: the storage class cannot be Generic in OpenCL 1.2"),
            );
        }
    }
    if a.flag {
        if !m.is_int_scalar(pointee) || m.bit_width(pointee) != 32 {
            cx.err(
                inst,
                RULE,
                format!("{op}: the Pointer must point to a 32-bit integer"),
            );
        }
        return;
    }
    match rt {
        None => {
            if !m.is_int_scalar(pointee) && !m.is_float_scalar(pointee) {
                return cx.err(
                    inst,
                    RULE,
                    format!("{op}: the Pointer must point to an integer or float scalar"),
                );
            }
            if a.value.and_then(|v| m.type_of(v)) != Some(pointee) {
                cx.err(
                    inst,
                    RULE,
                    format!("{op}: the Value's type must be the type the Pointer points to"),
                );
            }
        }
        Some(rt) => {
            if pointee != rt {
                return cx.err(
                    inst,
                    RULE,
                    format!("{op}: the Pointer must point to the result type"),
                );
            }
            if let Some(v) = a.value {
                if m.type_of(v) != Some(rt) {
                    cx.err(
                        inst,
                        RULE,
                        format!("{op}: the Value must be of the result type"),
                    );
                }
            }
        }
    }
}
