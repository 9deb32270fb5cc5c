//! Memory instructions: variables (pointer result, storage class agreement and placement,
//! initializers, what Vulkan allows per storage class, 8- and 16-bit storage, bools in
//! externally visible storage), loads and stores (logical pointers, matching types, read-only
//! storage classes), memory copies and access chains (index types, constant struct indexes,
//! the type reached, storage class agreement).
//!
//! Hand-written because the grammar has no notion of pointer types relating to the values
//! loaded and stored through them; the rules follow `spirv-val`'s memory pass.

use super::module::{deco, Inst, Module};
use super::query::Ty;
use super::Cx;
use crate::grammar::{Capability, Instruction, Opcode, StorageClass};

const RULE: &str = "core:memory";

/// Storage class values used below.
mod sc {
    use crate::grammar::StorageClass as S;
    pub const UNIFORM_CONSTANT: u32 = S::UniformConstant as u32;
    pub const INPUT: u32 = S::Input as u32;
    pub const UNIFORM: u32 = S::Uniform as u32;
    pub const OUTPUT: u32 = S::Output as u32;
    pub const WORKGROUP: u32 = S::Workgroup as u32;
    pub const CROSS_WORKGROUP: u32 = S::CrossWorkgroup as u32;
    pub const PRIVATE: u32 = S::Private as u32;
    pub const FUNCTION: u32 = S::Function as u32;
    pub const GENERIC: u32 = S::Generic as u32;
    pub const PUSH_CONSTANT: u32 = S::PushConstant as u32;
    pub const STORAGE_BUFFER: u32 = S::StorageBuffer as u32;
    pub const PHYSICAL_STORAGE_BUFFER: u32 = S::PhysicalStorageBuffer as u32;
}

/// Whether the module may use variable pointers.
fn variable_pointers(cx: &Cx<'_>) -> bool {
    cx.m.capabilities.has(Capability::VariablePointers)
        || cx
            .m
            .capabilities
            .has(Capability::VariablePointersStorageBuffer)
}

/// Whether `op` makes a pointer that logical addressing accepts as a load/store address.
fn logical_pointer(op: Opcode, variable: bool) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Variable
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::FunctionParameter
            | O::ImageTexelPointer
            | O::CopyObject
    ) || (variable
        && matches!(
            op,
            O::Select | O::Phi | O::FunctionCall | O::PtrAccessChain | O::Load | O::ConstantNull
        ))
        || op.is_raw_access_chain()
}

/// Checks a memory instruction.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    match typed {
        Instruction::Variable(v) => variable(
            cx,
            inst,
            v.result_type.0,
            v.result_id.0,
            v.storage_class.value(),
            v.initializer.map(|i| i.0),
        ),
        Instruction::Load(l) => load(cx, inst, l.result_type.0, l.pointer.0),
        Instruction::Store(s) => store(cx, inst, s.pointer.0, s.object.0),
        Instruction::CopyMemory(c) => copy(cx, inst, c.target.0, c.source.0, false),
        Instruction::CopyMemorySized(c) => copy(cx, inst, c.target.0, c.source.0, true),
        Instruction::AccessChain(a) => {
            access_chain(cx, inst, a.result_type.0, a.base.0, None, &a.indexes)
        }
        Instruction::InBoundsAccessChain(a) => {
            access_chain(cx, inst, a.result_type.0, a.base.0, None, &a.indexes)
        }
        Instruction::PtrAccessChain(a) => access_chain(
            cx,
            inst,
            a.result_type.0,
            a.base.0,
            Some(a.element.0),
            &a.indexes,
        ),
        Instruction::InBoundsPtrAccessChain(a) => access_chain(
            cx,
            inst,
            a.result_type.0,
            a.base.0,
            Some(a.element.0),
            &a.indexes,
        ),
        _ => {}
    }
}

fn variable(cx: &mut Cx<'_>, inst: &Inst<'_>, rt: u32, id: u32, storage: u32, init: Option<u32>) {
    let m = cx.m;
    let mut err = |rule: &'static str, msg: String| cx.sink.push(inst.offset, rule, msg);
    let Some((ptr_sc, pointee)) = m.pointer(rt) else {
        return err(
            RULE,
            format!("OpVariable: result type %{rt} is not a pointer type"),
        );
    };
    if let Some(i) = init {
        let global_var = m.def_op(i) == Some(Opcode::Variable)
            && m.def(i).is_some_and(|d| d.word(2) != sc::FUNCTION);
        let constant = m.def_op(i).is_some_and(Opcode::is_constant_creation);
        if !global_var && !constant {
            return err(
                RULE,
                format!("OpVariable: initializer %{i} is not a constant or module-scope variable"),
            );
        }
        if m.type_of(i) != Some(pointee) {
            return err(
                RULE,
                "OpVariable: the initializer's type must be the pointee type".into(),
            );
        }
    }
    let vulkan = cx.env.is_vulkan();
    if !matches!(
        storage,
        sc::WORKGROUP | sc::CROSS_WORKGROUP | sc::PRIVATE | sc::FUNCTION | sc::UNIFORM_CONSTANT
    ) && !ray_storage(storage)
    {
        let io = matches!(storage, sc::INPUT | sc::OUTPUT);
        let builtin = io && m.has_decoration(id, deco::BuiltIn);
        if !builtin && contains_bool(m, pointee, io, 0) {
            return err(
                RULE,
                if io {
                    "OpVariable: a bool in the Input or Output storage class needs a BuiltIn \
                     decoration"
                        .into()
                } else {
                    "OpVariable: bools may only be stored in storage classes that are not \
                     externally visible"
                        .into()
                },
            );
        }
    }
    if storage == sc::GENERIC {
        return err(
            RULE,
            "OpVariable: the storage class cannot be Generic".into(),
        );
    }
    let in_function = cx.func.is_some();
    if in_function && storage != sc::FUNCTION {
        return err(
            RULE,
            "OpVariable: variables inside a function must have the Function storage class".into(),
        );
    }
    if !in_function && storage == sc::FUNCTION {
        return err(
            RULE,
            "OpVariable: variables outside functions cannot have the Function storage class".into(),
        );
    }
    if storage != ptr_sc {
        return err(
            RULE,
            "OpVariable: the storage class must be the result type's storage class".into(),
        );
    }
    if cx.logical && m.is_pointer(pointee) {
        if !m
            .capabilities
            .has(Capability::VariablePointersStorageBuffer)
        {
            return err(
                RULE,
                "OpVariable: in logical addressing, variables may not allocate a pointer".into(),
            );
        } else if storage != sc::FUNCTION && storage != sc::PRIVATE {
            return err(
                RULE,
                "OpVariable: with variable pointers, variables allocating pointers must be \
                 Function or Private"
                    .into(),
            );
        }
    }
    if vulkan {
        let base = array_base(m, pointee);
        match storage {
            sc::PUSH_CONSTANT if !matches!(m.ty(pointee), Some(Ty::Struct { .. })) => {
                return err(
                    "vulkan:variable-type",
                    "PushConstant variables must be structures".into(),
                )
            }
            sc::UNIFORM_CONSTANT => {
                let ok = matches!(
                    m.ty(base),
                    Some(Ty::Image(_) | Ty::Sampler | Ty::SampledImage { .. })
                ) || m
                    .def_op(base)
                    .is_some_and(|o| o == Opcode::TypeAccelerationStructureKHR);
                if !ok {
                    return err(
                        "vulkan:variable-type",
                        "UniformConstant variables must be images, samplers, sampled images or \
                         acceleration structures, or arrays of them"
                            .into(),
                    );
                }
            }
            sc::UNIFORM | sc::STORAGE_BUFFER => {
                if !matches!(m.ty(base), Some(Ty::Struct { .. })) {
                    return err(
                        "vulkan:variable-type",
                        "Uniform and StorageBuffer variables must be structures or arrays of them"
                            .into(),
                    );
                }
            }
            _ => {}
        }
        if init.is_some() && !matches!(storage, sc::OUTPUT | sc::PRIVATE | sc::FUNCTION) {
            if storage == sc::WORKGROUP {
                if init.and_then(|i| m.def_op(i)) != Some(Opcode::ConstantNull) {
                    return err(
                        "vulkan:variable-initializer",
                        "Workgroup variables may only be initialized with OpConstantNull".into(),
                    );
                }
            } else {
                return err(
                    "vulkan:variable-initializer",
                    "only Output, Private, Function and Workgroup variables may have \
                     initializers in Vulkan"
                        .into(),
                );
            }
        }
    }
    if init.is_some() && storage == sc::INPUT {
        return err(
            RULE,
            "OpVariable: Input variables cannot have initializers".into(),
        );
    }
    if storage == sc::PHYSICAL_STORAGE_BUFFER {
        return err(
            RULE,
            "OpVariable: PhysicalStorageBuffer must not be used with OpVariable".into(),
        );
    }
    if vulkan {
        if matches!(m.ty(pointee), Some(Ty::RuntimeArray { .. }))
            && !m.capabilities.has(Capability::RuntimeDescriptorArray)
        {
            return err(
                "vulkan:runtime-array",
                "a variable cannot be a bare runtime array in Vulkan".into(),
            );
        }
        if matches!(m.ty(pointee), Some(Ty::Struct { .. })) && contains_runtime_array(m, pointee, 0)
        {
            let ok = match storage {
                sc::STORAGE_BUFFER | sc::PHYSICAL_STORAGE_BUFFER => {
                    m.has_decoration(pointee, deco::Block)
                }
                sc::UNIFORM => m.has_decoration(pointee, deco::BufferBlock),
                _ => false,
            };
            if !ok {
                return err(
                    "vulkan:runtime-array",
                    "a structure with a runtime array must be a StorageBuffer Block or a Uniform \
                     BufferBlock"
                        .into(),
                );
            }
        }
    }
    if cx.shader {
        small_types(cx, inst, storage, pointee);
    }
}

/// Storage classes of the ray tracing and mesh extensions that behave like private memory.
fn ray_storage(storage: u32) -> bool {
    use StorageClass as S;
    [
        S::RayPayloadNV,
        S::IncomingRayPayloadNV,
        S::HitAttributeNV,
        S::CallableDataNV,
        S::IncomingCallableDataNV,
        S::TaskPayloadWorkgroupEXT,
        S::HitObjectAttributeNV,
    ]
    .iter()
    .any(|s| s.value() == storage)
}

/// Strips arrays.
fn array_base(m: &Module<'_>, mut t: u32) -> u32 {
    for _ in 0..64 {
        match m.ty(t) {
            Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => t = element,
            _ => break,
        }
    }
    t
}

/// Whether `t` contains a bool; with `skip_builtin`, types with a BuiltIn decoration (on
/// them or their members) do not count.
fn contains_bool(m: &Module<'_>, t: u32, skip_builtin: bool, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    if skip_builtin && m.decorations_of(t).iter().any(|d| d.kind == deco::BuiltIn) {
        return false;
    }
    match m.ty(t) {
        Some(Ty::Bool) => true,
        Some(Ty::Vector { component: e, .. })
        | Some(Ty::Array { element: e, .. })
        | Some(Ty::RuntimeArray { element: e })
        | Some(Ty::Matrix { column: e, .. }) => contains_bool(m, e, skip_builtin, depth + 1),
        Some(Ty::Struct { members }) => members
            .iter()
            .any(|&x| contains_bool(m, x, skip_builtin, depth + 1)),
        _ => false,
    }
}

fn contains_runtime_array(m: &Module<'_>, t: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match m.ty(t) {
        Some(Ty::RuntimeArray { .. }) => true,
        Some(Ty::Array { element, .. }) => contains_runtime_array(m, element, depth + 1),
        Some(Ty::Struct { members }) => members
            .iter()
            .any(|&x| contains_runtime_array(m, x, depth + 1)),
        _ => false,
    }
}

/// Whether `t` contains an `OpTypeInt`/`OpTypeFloat` (per `float`) of `width` bits, not
/// looking through pointers.
fn contains_sized(m: &Module<'_>, t: u32, float: bool, width: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match m.ty(t) {
        Some(Ty::Int { width: w, .. }) => !float && w == width,
        Some(Ty::Float { width: w }) => float && w == width,
        Some(Ty::Vector { component: e, .. })
        | Some(Ty::Matrix { column: e, .. })
        | Some(Ty::Array { element: e, .. })
        | Some(Ty::RuntimeArray { element: e }) => contains_sized(m, e, float, width, depth + 1),
        Some(Ty::Struct { members }) => members
            .iter()
            .any(|&x| contains_sized(m, x, float, width, depth + 1)),
        _ => false,
    }
}

/// 8- and 16-bit types in variables of shader modules need the storage capabilities.
fn small_types(cx: &mut Cx<'_>, inst: &Inst<'_>, storage: u32, pointee: u32) {
    use Capability as C;
    let m = cx.m;
    let has = |c: C| m.capabilities.has(c);
    let mut check = |bits: u32, needs_cap: bool| {
        if !needs_cap {
            return;
        }
        let mut storage = storage;
        let mut under = pointee;
        for _ in 0..64 {
            match m.pointer(under) {
                Some((s, p)) => {
                    storage = s;
                    under = p;
                }
                None => break,
            }
        }
        let (sb, ub, pc, io, wg) = if bits == 16 {
            (
                C::StorageBuffer16BitAccess,
                C::UniformAndStorageBuffer16BitAccess,
                C::StoragePushConstant16,
                Some(C::StorageInputOutput16),
                C::WorkgroupMemoryExplicitLayout16BitAccessKHR,
            )
        } else {
            (
                C::StorageBuffer8BitAccess,
                C::UniformAndStorageBuffer8BitAccess,
                C::StoragePushConstant8,
                None,
                C::WorkgroupMemoryExplicitLayout8BitAccessKHR,
            )
        };
        let ok = match storage {
            sc::STORAGE_BUFFER | sc::PHYSICAL_STORAGE_BUFFER => has(sb),
            sc::UNIFORM => {
                has(ub) || {
                    let base = array_base(m, under);
                    has(sb) && m.has_decoration(base, deco::BufferBlock)
                }
            }
            sc::PUSH_CONSTANT => has(pc),
            sc::INPUT | sc::OUTPUT => io.is_some_and(has),
            sc::WORKGROUP => has(wg),
            _ => {
                cx.sink.push(
                    inst.offset,
                    "core:capability-required",
                    format!(
                        "OpVariable: cannot allocate a variable containing a {bits}-bit type in \
                         this storage class"
                    ),
                );
                return;
            }
        };
        if !ok {
            cx.sink.push(
                inst.offset,
                "core:capability-required",
                format!(
                    "OpVariable: a variable containing a {bits}-bit type in this storage class \
                     needs an additional capability"
                ),
            );
        }
    };
    let n16 = (!has(C::Int16) && contains_sized(m, pointee, false, 16, 0))
        || (!has(C::Float16) && contains_sized(m, pointee, true, 16, 0));
    check(16, n16);
    let n8 = !has(C::Int8) && contains_sized(m, pointee, false, 8, 0);
    check(8, n8);
}

/// Checks that `ptr` is a pointer load and store accept; returns its type.
fn address(cx: &mut Cx<'_>, inst: &Inst<'_>, what: &str, ptr: u32) -> Option<(u32, u32)> {
    let m = cx.m;
    let op = m.def_op(ptr)?;
    if cx.logical && !logical_pointer(op, variable_pointers(cx)) {
        cx.err(
            inst,
            RULE,
            format!("{what}: pointer %{ptr} is not a logical pointer"),
        );
        return None;
    }
    match m.type_of(ptr).and_then(|t| m.pointer(t)) {
        Some(p) => Some(p),
        None => {
            cx.err(
                inst,
                RULE,
                format!("{what}: the type of pointer %{ptr} is not a pointer type"),
            );
            None
        }
    }
}

fn load(cx: &mut Cx<'_>, inst: &Inst<'_>, rt: u32, ptr: u32) {
    let Some((_, pointee)) = address(cx, inst, "OpLoad", ptr) else {
        return;
    };
    if rt != pointee {
        cx.err(
            inst,
            RULE,
            "OpLoad: the result type must be the pointer's pointee type",
        );
    } else if contains_runtime_array(cx.m, rt, 0) {
        cx.err(inst, RULE, "OpLoad: cannot load a runtime-sized array");
    }
}

fn store(cx: &mut Cx<'_>, inst: &Inst<'_>, ptr: u32, obj: u32) {
    let m = cx.m;
    let Some((storage, pointee)) = address(cx, inst, "OpStore", ptr) else {
        return;
    };
    if m.ty(pointee) == Some(Ty::Void) {
        return cx.err(inst, RULE, "OpStore: the pointer's pointee type is void");
    }
    if matches!(
        storage,
        sc::UNIFORM_CONSTANT | sc::INPUT | sc::PUSH_CONSTANT
    ) {
        return cx.err(
            inst,
            RULE,
            "OpStore: the pointer's storage class is read-only",
        );
    }
    let Some(ot) = m.type_of(obj) else {
        return cx.err(inst, RULE, format!("OpStore: object %{obj} is not a value"));
    };
    if m.ty(ot) == Some(Ty::Void) {
        return cx.err(inst, RULE, "OpStore: the object's type is void");
    }
    if ot != pointee {
        cx.err(
            inst,
            RULE,
            "OpStore: the object's type must be the pointer's pointee type",
        );
    }
}

fn copy(cx: &mut Cx<'_>, inst: &Inst<'_>, target: u32, source: u32, sized: bool) {
    let m = cx.m;
    let name = if sized {
        "OpCopyMemorySized"
    } else {
        "OpCopyMemory"
    };
    let t = m.type_of(target).and_then(|t| m.pointer(t));
    let s = m.type_of(source).and_then(|t| m.pointer(t));
    let (Some((tsc, tp)), Some((_, sp))) = (t, s) else {
        return cx.err(
            inst,
            RULE,
            format!("{name}: the target and source must be pointers"),
        );
    };
    if tsc == sc::UNIFORM_CONSTANT || tsc == sc::INPUT || tsc == sc::PUSH_CONSTANT {
        return cx.err(
            inst,
            RULE,
            format!("{name}: the target's storage class is read-only"),
        );
    }
    if !sized && tp != sp {
        cx.err(
            inst,
            RULE,
            format!("{name}: the target and source must point to the same type"),
        );
    }
}

fn access_chain(
    cx: &mut Cx<'_>,
    inst: &Inst<'_>,
    rt: u32,
    base: u32,
    element: Option<u32>,
    indexes: &[crate::grammar::Id],
) {
    let m = cx.m;
    let op = inst
        .op()
        .map_or("an access chain".to_string(), |o| o.to_string());
    let mut err = |msg: String| cx.sink.push(inst.offset, RULE, format!("{op}: {msg}"));
    let Some((rsc, rp)) = m.pointer(rt) else {
        return err("the result type must be a pointer".into());
    };
    let Some((bsc, bp)) = m.type_of(base).and_then(|t| m.pointer(t)) else {
        return err(format!("the base %{base} must be a pointer"));
    };
    if rsc != bsc {
        return err("the result and the base must have the same storage class".into());
    }
    if let Some(e) = element {
        if !m.is_int_scalar(m.type_of(e).unwrap_or(0)) {
            return err("the element must be an integer scalar".into());
        }
    }
    let mut t = bp;
    for (k, idx) in indexes.iter().enumerate() {
        let ity = m.type_of(idx.0).unwrap_or(0);
        if !m.is_int_scalar(ity) {
            return err("indexes must be integer scalars".into());
        }
        t = match m.ty(t) {
            Some(Ty::Vector { component: e, .. })
            | Some(Ty::Matrix { column: e, .. })
            | Some(Ty::Array { element: e, .. })
            | Some(Ty::RuntimeArray { element: e }) => e,
            Some(Ty::Struct { members }) => {
                let is_const = m.def_op(idx.0) == Some(Opcode::Constant);
                let Some(v) = m.const_int(idx.0).filter(|_| is_const) else {
                    return err("a structure index must be an OpConstant".into());
                };
                match usize::try_from(v).ok().and_then(|v| members.get(v)) {
                    Some(&mt) => mt,
                    None => {
                        return err(format!(
                            "index {v} is out of bounds: the structure has {} members",
                            members.len()
                        ))
                    }
                }
            }
            _ if m.def_op(t).is_some_and(Opcode::is_cooperative_matrix_type) => {
                m.def(t).map_or(0, |d| d.word(1))
            }
            _ => {
                return err(format!(
                    "reached a non-composite type with {} indexes left",
                    indexes.len() - k
                ))
            }
        };
    }
    if t != rp {
        err("the result type does not point to the type reached by indexing into the base".into());
    }
}
