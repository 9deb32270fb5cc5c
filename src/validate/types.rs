//! Type declarations: widths and the capabilities they need, vector and matrix shapes, array
//! lengths, struct members, pointers, function types, images and sampled images (with the
//! OpenCL and Vulkan environment restrictions), and uniqueness of non-aggregate types.
//!
//! Hand-written because the grammar types a declaration's operands (`IdRef`,
//! `LiteralInteger`) but not their constraints: which widths a capability allows, that a
//! vector's component is a scalar, that an array length is a positive integer constant.

use super::module::{deco, Inst};
use super::query::{ImageTy, Ty};
use super::Cx;
use crate::grammar::{Capability, Dim, ImageFormat, Instruction, Opcode, Version};
use crate::target_env::ClientApi;
use std::collections::HashMap;

/// Non-aggregate type declarations seen so far, by their operand words.
#[derive(Debug, Default)]
pub(super) struct State {
    seen: HashMap<(u16, Vec<u32>), u32>,
}

const RULE: &str = "core:type";

/// Whether the module may declare 8-bit integers.
fn int8_ok(cx: &Cx<'_>) -> bool {
    use Capability as C;
    let c = &cx.m.capabilities;
    c.has(C::Int8)
        || c.has(C::StorageBuffer8BitAccess)
        || c.has(C::UniformAndStorageBuffer8BitAccess)
        || c.has(C::StoragePushConstant8)
        || c.has(C::WorkgroupMemoryExplicitLayout8BitAccessKHR)
}

/// Whether the module may declare 16-bit integers (`float`: 16-bit floats).
fn sixteen_ok(cx: &Cx<'_>, float: bool) -> bool {
    use Capability as C;
    let c = &cx.m.capabilities;
    (if float {
        c.has(C::Float16) || c.has(C::Float16Buffer)
    } else {
        c.has(C::Int16)
    }) || c.has(C::StorageBuffer16BitAccess)
        || c.has(C::UniformAndStorageBuffer16BitAccess)
        || c.has(C::StoragePushConstant16)
        || c.has(C::StorageInputOutput16)
        || c.has(C::WorkgroupMemoryExplicitLayout16BitAccessKHR)
}

/// Checks a type declaration.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    if !op.is_declares_type() && op != Opcode::TypeForwardPointer {
        return;
    }
    let m = cx.m;
    match typed {
        Instruction::TypeInt(t) => {
            let ok = match t.width {
                32 => true,
                8 => int8_ok(cx),
                16 => sixteen_ok(cx, false),
                64 => m.capabilities.has(Capability::Int64),
                w => {
                    cx.err(inst, RULE, format!("invalid width {w} for OpTypeInt"));
                    true
                }
            };
            if !ok {
                cx.err(
                    inst,
                    "core:capability-required",
                    format!(
                        "a {}-bit integer type requires the Int{} capability (or an extension \
                         that enables it)",
                        t.width, t.width
                    ),
                );
            }
            if t.signedness > 1 {
                cx.err(inst, RULE, "OpTypeInt signedness must be 0 or 1");
            } else if t.signedness != 0 && cx.kernel {
                cx.err(
                    inst,
                    RULE,
                    "the signedness of OpTypeInt must be 0 when the Kernel capability is used",
                );
            }
        }
        Instruction::TypeFloat(t) => {
            let ok = match t.width {
                32 => true,
                16 => sixteen_ok(cx, true),
                64 => m.capabilities.has(Capability::Float64),
                w => {
                    cx.err(inst, RULE, format!("invalid width {w} for OpTypeFloat"));
                    true
                }
            };
            if !ok {
                cx.err(
                    inst,
                    "core:capability-required",
                    format!(
                        "a {}-bit float type requires the Float{} capability (or an extension \
                         that enables it)",
                        t.width, t.width
                    ),
                );
            }
        }
        Instruction::TypeVector(t) => {
            if !m.is_scalar(t.component_type.0) {
                cx.err(
                    inst,
                    RULE,
                    format!(
                        "vector component type %{} is not a scalar type",
                        t.component_type.0
                    ),
                );
            }
            match t.component_count {
                2..=4 => {}
                8 | 16 => {
                    if !m.capabilities.has(Capability::Vector16) {
                        cx.err(
                            inst,
                            "core:capability-required",
                            format!(
                                "{} components require the Vector16 capability",
                                t.component_count
                            ),
                        );
                    }
                }
                n => cx.err(inst, RULE, format!("a vector cannot have {n} components")),
            }
        }
        Instruction::TypeMatrix(t) => {
            match m.ty(t.column_type.0) {
                Some(Ty::Vector { component, .. }) => {
                    if !m.is_float_scalar(component) {
                        cx.err(inst, RULE, "matrix columns must be vectors of floats");
                    }
                }
                _ => cx.err(inst, RULE, "matrix columns must be vectors"),
            }
            if !(2..=4).contains(&t.column_count) {
                cx.err(inst, RULE, "a matrix has 2, 3 or 4 columns");
            }
        }
        Instruction::TypeArray(t) => {
            element(cx, inst, t.element_type.0, "array");
            let len = t.length.0;
            match m.def(len) {
                Some(d) if d.op().is_some_and(Opcode::is_constant_creation) => {
                    let ty = d.result_type().unwrap_or(0);
                    if !m.is_int_scalar(ty) {
                        cx.err(
                            inst,
                            RULE,
                            format!("array length %{len} is not an integer constant"),
                        );
                    } else {
                        match d.op() {
                            Some(Opcode::Constant | Opcode::SpecConstant) => {
                                let v = const_literal(cx, &d, ty);
                                if v < 1 {
                                    cx.err(
                                        inst,
                                        RULE,
                                        format!("array length must be at least 1, found {v}"),
                                    );
                                }
                            }
                            Some(Opcode::ConstantNull) => {
                                cx.err(inst, RULE, "array length must be at least 1, found null")
                            }
                            _ => {}
                        }
                    }
                }
                _ => cx.err(inst, RULE, format!("array length %{len} is not a constant")),
            }
        }
        Instruction::TypeRuntimeArray(t) => element(cx, inst, t.element_type.0, "runtime array"),
        Instruction::TypeStruct(t) => structure(cx, inst, t.result_id.0, &t.member_types),
        Instruction::TypePointer(t) => {
            if !m.is_type(t.type_.0) {
                cx.err(inst, RULE, format!("pointee %{} is not a type", t.type_.0));
            }
            if cx.env.is_vulkan() && !vulkan_storage_class(t.storage_class.value()) {
                cx.err(
                    inst,
                    "vulkan:storage-class",
                    format!(
                        "storage class {} is not valid in Vulkan",
                        t.storage_class.name()
                    ),
                );
            }
        }
        Instruction::TypeFunction(t) => {
            if !m.is_type(t.return_type.0) {
                cx.err(
                    inst,
                    RULE,
                    format!("return type %{} is not a type", t.return_type.0),
                );
            }
            for p in &t.parameter_types {
                if !m.is_type(p.0) {
                    cx.err(inst, RULE, format!("parameter type %{} is not a type", p.0));
                } else if m.ty(p.0) == Some(Ty::Void) {
                    cx.err(inst, RULE, "a parameter type cannot be OpTypeVoid");
                }
            }
        }
        Instruction::TypeForwardPointer(t) => match m.ty(t.pointer_type.0) {
            Some(Ty::Pointer { storage, pointee }) => {
                if storage != t.storage_class.value() {
                    cx.err(
                        inst,
                        RULE,
                        "the storage class of OpTypeForwardPointer does not match the pointer's",
                    );
                }
                if !matches!(m.ty(pointee), Some(Ty::Struct { .. })) {
                    cx.err(inst, RULE, "forward pointers must point to a structure");
                }
            }
            _ => cx.err(inst, RULE, "OpTypeForwardPointer must name a pointer type"),
        },
        Instruction::TypeImage(_) => image(cx, inst),
        Instruction::TypeSampledImage(t) => match m.def(t.image_type.0) {
            Some(d) if d.op() == Some(Opcode::TypeImage) => {
                let info = ImageTy::from_words(d.rest(1));
                if cx.env.is_vulkan() {
                    if info.sampled != 1 {
                        cx.err(
                            inst,
                            "vulkan:image",
                            "a sampled image's image type must have Sampled 1 in Vulkan",
                        );
                    }
                } else if info.sampled > 1 {
                    cx.err(
                        inst,
                        RULE,
                        "a sampled image's image type must have Sampled 0 or 1",
                    );
                }
                if info.dim == Dim::SubpassData as u32 {
                    cx.err(inst, RULE, "a sampled image cannot have Dim SubpassData");
                }
                if info.dim == Dim::Buffer as u32 && m.version >= Version(1, 6) {
                    cx.err(
                        inst,
                        RULE,
                        "in SPIR-V 1.6 and later a sampled image cannot have Dim Buffer",
                    );
                }
            }
            _ => cx.err(inst, RULE, "OpTypeSampledImage needs an OpTypeImage"),
        },
        _ => {}
    }
    // Uniqueness of non-aggregate types.
    if !matches!(
        op,
        Opcode::TypeArray
            | Opcode::TypeRuntimeArray
            | Opcode::TypeStruct
            | Opcode::TypePointer
            | Opcode::TypeForwardPointer
    ) && !m.has_extension("SPV_VALIDATOR_ignore_type_decl_unique")
    {
        let mut key = inst.ops.to_vec();
        if !key.is_empty() {
            key.remove(0);
        }
        if let Some(prev) = cx.types.seen.insert((inst.opcode, key), inst.word(0)) {
            cx.err(
                inst,
                "core:type-unique",
                format!("duplicate non-aggregate type declaration: %{prev} is the same {op}"),
            );
        }
    }
}

/// Value of an integer `OpConstant`/`OpSpecConstant` of type `ty` (sign-extended when signed).
fn const_literal(cx: &Cx<'_>, d: &Inst<'_>, ty: u32) -> i128 {
    let (width, signed) = match cx.m.ty(ty) {
        Some(Ty::Int { width, signed }) => (width, signed),
        _ => return 1,
    };
    let lo = u64::from(d.word(2));
    let v = if width > 32 {
        lo | u64::from(d.word(3)) << 32
    } else {
        lo
    };
    if signed && width > 0 && width <= 64 {
        let shift = 64 - width;
        i128::from(((v << shift) as i64) >> shift)
    } else if width < 64 && width > 0 {
        i128::from(v & ((1u64 << width) - 1))
    } else {
        i128::from(v)
    }
}

/// An array's element type.
fn element(cx: &mut Cx<'_>, inst: &Inst<'_>, elem: u32, what: &str) {
    match cx.m.ty(elem) {
        None => cx.err(
            inst,
            RULE,
            format!("{what} element type %{elem} is not a type"),
        ),
        Some(Ty::Void) => cx.err(inst, RULE, format!("{what} element type cannot be void")),
        Some(Ty::RuntimeArray { .. }) if cx.env.is_vulkan() => cx.err(
            inst,
            "vulkan:runtime-array",
            format!("in Vulkan a {what} cannot have runtime array elements"),
        ),
        _ => {}
    }
}

fn structure(cx: &mut Cx<'_>, inst: &Inst<'_>, id: u32, members: &[crate::grammar::Id]) {
    let m = cx.m;
    for (k, mem) in members.iter().enumerate() {
        let mem = mem.0;
        if mem == id {
            cx.err(inst, RULE, "structure members may not be self references");
            continue;
        }
        match m.ty(mem) {
            None => {
                if !m.forward_pointers.contains(&mem) {
                    cx.err(
                        inst,
                        RULE,
                        format!("structure member type %{mem} is not a type"),
                    );
                }
            }
            Some(Ty::Void) => cx.err(inst, RULE, "structures cannot contain a void member"),
            Some(Ty::RuntimeArray { .. }) if cx.env.is_vulkan() && k + 1 != members.len() => cx
                .err(
                    inst,
                    "vulkan:runtime-array",
                    "in Vulkan a runtime array must be the last member of a structure",
                ),
            Some(Ty::Struct { .. }) => {
                if struct_has_builtin_member(cx, mem) {
                    cx.err(
                        inst,
                        RULE,
                        format!(
                            "structure %{mem} has BuiltIn members, so it cannot be a member of \
                             another structure"
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    // All members or none are built-ins.
    let mut builtins: Vec<u32> = m
        .decorations_of(id)
        .iter()
        .filter(|d| d.kind == deco::BuiltIn && d.member != u32::MAX)
        .map(|d| d.member)
        .collect();
    builtins.sort_unstable();
    builtins.dedup();
    if !builtins.is_empty() && builtins.len() != members.len() {
        cx.err(
            inst,
            "core:builtin-struct",
            "when a structure member is decorated BuiltIn, all its members must be",
        );
    }
    // No Block or BufferBlock inside another.
    let block = |s: u32| m.has_decoration(s, deco::Block) || m.has_decoration(s, deco::BufferBlock);
    if block(id) && members.iter().any(|mem| nests_block(cx, mem.0, 0)) {
        cx.err(
            inst,
            "core:block-nesting",
            "a Block or BufferBlock structure cannot contain another Block or BufferBlock",
        );
    }
}

/// Whether type `t` is or contains (through structs) a Block or BufferBlock struct.
fn nests_block(cx: &Cx<'_>, t: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let m = cx.m;
    match m.ty(t) {
        Some(Ty::Struct { members }) => {
            m.has_decoration(t, deco::Block)
                || m.has_decoration(t, deco::BufferBlock)
                || members.iter().any(|&x| nests_block(cx, x, depth + 1))
        }
        _ => false,
    }
}

fn struct_has_builtin_member(cx: &Cx<'_>, s: u32) -> bool {
    cx.m.decorations_of(s)
        .iter()
        .any(|d| d.kind == deco::BuiltIn && d.member != u32::MAX)
}

/// Storage classes Vulkan allows.
fn vulkan_storage_class(sc: u32) -> bool {
    use crate::grammar::StorageClass as S;
    const OK: &[S] = &[
        S::UniformConstant,
        S::Uniform,
        S::StorageBuffer,
        S::Input,
        S::Output,
        S::Image,
        S::Workgroup,
        S::Private,
        S::Function,
        S::PushConstant,
        S::PhysicalStorageBuffer,
        S::RayPayloadNV,
        S::IncomingRayPayloadNV,
        S::HitAttributeNV,
        S::CallableDataNV,
        S::IncomingCallableDataNV,
        S::ShaderRecordBufferNV,
        S::TaskPayloadWorkgroupEXT,
        S::HitObjectAttributeNV,
    ];
    OK.iter().any(|s| s.value() == sc)
}

fn image(cx: &mut Cx<'_>, inst: &Inst<'_>) {
    let m = cx.m;
    let info = ImageTy::from_words(inst.rest(1));
    let st = info.sampled_type;
    if m.is_int_scalar(st)
        && m.bit_width(st) == 64
        && !m.capabilities.has(Capability::Int64ImageEXT)
    {
        cx.err(
            inst,
            "core:capability-required",
            "a 64-bit integer sampled type requires the Int64ImageEXT capability",
        );
    }
    match cx.env.client_api() {
        ClientApi::Vulkan => {
            let w = m.bit_width(st);
            let scalar = m.is_float_scalar(st) || m.is_int_scalar(st);
            if !scalar || (w != 32 && !(w == 64 && m.capabilities.has(Capability::Int64ImageEXT))) {
                cx.err(
                    inst,
                    "vulkan:image",
                    "the sampled type must be a 32-bit int, 64-bit int or 32-bit float scalar in \
                     Vulkan",
                );
            }
        }
        ClientApi::OpenCl => {
            if m.ty(st) != Some(Ty::Void) {
                cx.err(
                    inst,
                    "opencl:image",
                    "the sampled type must be OpTypeVoid in OpenCL",
                );
            }
        }
        _ => {
            if !matches!(m.ty(st), Some(Ty::Void | Ty::Int { .. } | Ty::Float { .. })) {
                cx.err(
                    inst,
                    RULE,
                    "the sampled type must be void or a numerical scalar type",
                );
            }
        }
    }
    if info.depth > 2 {
        cx.err(
            inst,
            RULE,
            format!("invalid Depth {} (must be 0, 1 or 2)", info.depth),
        );
    }
    if info.arrayed > 1 {
        cx.err(
            inst,
            RULE,
            format!("invalid Arrayed {} (must be 0 or 1)", info.arrayed),
        );
    }
    if info.ms > 1 {
        cx.err(
            inst,
            RULE,
            format!("invalid MS {} (must be 0 or 1)", info.ms),
        );
    }
    if info.sampled > 2 {
        cx.err(
            inst,
            RULE,
            format!("invalid Sampled {} (must be 0, 1 or 2)", info.sampled),
        );
    }
    if info.dim == Dim::SubpassData as u32 {
        if info.sampled != 2 {
            cx.err(inst, RULE, "Dim SubpassData requires Sampled 2");
        }
        if info.format != ImageFormat::Unknown as u32 {
            cx.err(inst, RULE, "Dim SubpassData requires format Unknown");
        }
        if cx.env.is_vulkan() && info.arrayed != 0 {
            cx.err(inst, "vulkan:image", "Dim SubpassData requires Arrayed 0");
        }
    } else if info.ms == 1
        && info.sampled == 2
        && !m.capabilities.has(Capability::StorageImageMultisample)
    {
        cx.err(
            inst,
            "core:capability-required",
            "a multisampled storage image requires the StorageImageMultisample capability",
        );
    }
    if cx.env.is_opencl() {
        if info.arrayed == 1 && info.dim != Dim::Dim1D as u32 && info.dim != Dim::Dim2D as u32 {
            cx.err(
                inst,
                "opencl:image",
                "in OpenCL, Arrayed may only be 1 when Dim is 1D or 2D",
            );
        }
        if info.ms != 0 {
            cx.err(inst, "opencl:image", "MS must be 0 in OpenCL");
        }
        if info.sampled != 0 {
            cx.err(inst, "opencl:image", "Sampled must be 0 in OpenCL");
        }
        if info.access.is_none() {
            cx.err(
                inst,
                "opencl:image",
                "in OpenCL the optional access qualifier must be present",
            );
        }
    }
    if cx.env.is_vulkan() && info.sampled == 0 {
        cx.err(inst, "vulkan:image", "Sampled must be 1 or 2 in Vulkan");
    }
}
