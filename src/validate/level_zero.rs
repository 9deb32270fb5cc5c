//! The oneAPI Level Zero SPIR-V environment (`level-zero-spirv-environment.rst`), rule by
//! rule. Each rule id names the section it comes from:
//!
//! | rule id | document section |
//! |---|---|
//! | `level-zero:spirv-version` | Supported SPIR-V Versions (1.0 to 1.2) |
//! | `level-zero:extended-instruction-set` | Extended Instruction Sets (`OpenCL.std`) |
//! | `level-zero:unsupported-type` | Supported Types |
//! | `level-zero:int-width`, `level-zero:float-width` | Basic Scalar and Vector Types |
//! | `level-zero:vector-size` | Basic Scalar and Vector Types (2, 3, 4, 8, 16) |
//! | `level-zero:image-type` | Image-Related Data Types (the Dim/Depth/Arrayed table) |
//! | `level-zero:kernel-return-type` | Kernel Return Types |
//! | `level-zero:kernel-argument-type` | Kernel Arguments |
//! | `level-zero:capability` | Required Capabilities (and the extensions' capabilities) |
//! | `level-zero:extension` | Extensions |
//! | `level-zero:execution-model` | Validation Rules: Kernel |
//! | `level-zero:addressing-model` | Validation Rules: Physical64 |
//! | `level-zero:memory-model` | Validation Rules: OpenCL |
//! | `level-zero:int-signedness` | Validation Rules: Signedness 0 |
//! | `level-zero:image-sampled-type`, `-image-sampled`, `-image-ms`, `-image-arrayed`, `-image-format`, `-image-access-qualifier` | Validation Rules: OpTypeImage |
//! | `level-zero:image-write-operands` | Validation Rules: OpImageWrite |
//! | `level-zero:image-read-const-offset` | Validation Rules: OpImageRead, OpImageSampleExplicitLod |
//! | `level-zero:atomic-type`, `level-zero:atomic-pointer` | Validation Rules: Atomic Instructions |
//! | `level-zero:recursion` | Validation Rules: recursion |
//! | `level-zero:execution-scope`, `level-zero:memory-scope` | Validation Rules: scopes |
//! | `level-zero:subgroup-shuffle-type` | SPV_INTEL_subgroups: shuffle Data |
//! | `level-zero:subgroup-block-io-type` | SPV_INTEL_subgroups: block IO Result and Data |
//! | `level-zero:subgroup-block-io-pointer` | SPV_INTEL_subgroups: Ptr |
//! | `level-zero:subgroup-image-block-io-image` | SPV_INTEL_subgroups: Image |
//! | `level-zero:subgroup-image-block-io-coordinate` | SPV_INTEL_subgroups: Coordinate |
//! | `level-zero:subgroup-image-block-write-coordinate` | SPV_INTEL_subgroups: write x multiple of 4 |
//! | `level-zero:float-atomic-type`, `level-zero:float-atomic-pointer` | Floating-Point Atomics |
//!
//! Decisions where the document leaves room: `OpTypeEvent` and `OpTypeSampledImage` are
//! accepted because instructions the document names need them; `NonSemantic.*` imports are
//! not rejected by the instruction-set rule (a consumer may ignore them; their extension is
//! still subject to `level-zero:extension`); the "TBD" shuffle types (8-bit integers, vectors
//! of 64-bit integers) are accepted; 64-bit integer atomics are accepted when the module
//! declares `Int64Atomics` (the optional device feature); float atomics may use only
//! CrossWorkgroup and Workgroup pointers; 32- and 64-bit float atomic loads, stores and
//! exchanges are not listed by the document and are rejected. The "Notes and Restrictions"
//! on uniform control flow, run-time alignment and out-of-range behaviour are about
//! execution and cannot be checked statically (except the constant x coordinate of image
//! block writes).
//!
//! Hand-written because it is an environment document, not grammar.

use super::atomics::{atomic, scopes};
use super::module::Inst;
use super::query::{ImageTy, Ty};
use super::Cx;
use crate::grammar::{
    AddressingModel, Capability, Dim, ExecutionModel, ImageFormat, Instruction, MemoryModel,
    Opcode, Scope, StorageClass as S,
};

/// Level Zero's rules for one instruction.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    match typed {
        Instruction::ExtInstImport(i) => {
            if i.name != "OpenCL.std" && !i.name.starts_with("NonSemantic.") {
                cx.err(
                    inst,
                    "level-zero:extended-instruction-set",
                    format!(
                        "extended instruction set {:?} is not supported: Level Zero supports \
                         OpenCL.std",
                        i.name
                    ),
                );
            }
        }
        Instruction::MemoryModel(mm) => {
            if mm.addressing_model != AddressingModel::Physical64 {
                cx.err(
                    inst,
                    "level-zero:addressing-model",
                    format!(
                        "the addressing model must be Physical64, not {}",
                        mm.addressing_model.name()
                    ),
                );
            }
            if mm.memory_model != MemoryModel::OpenCL {
                cx.err(
                    inst,
                    "level-zero:memory-model",
                    format!(
                        "the memory model must be OpenCL, not {}",
                        mm.memory_model.name()
                    ),
                );
            }
        }
        Instruction::EntryPoint(e) => {
            if e.execution_model != ExecutionModel::Kernel {
                cx.err(
                    inst,
                    "level-zero:execution-model",
                    format!(
                        "the execution model must be Kernel, not {}",
                        e.execution_model.name()
                    ),
                );
            }
            kernel_signature(cx, inst, e.entry_point.0);
        }
        Instruction::ImageWrite(w) => {
            if w.image_operands.is_some() {
                cx.err(
                    inst,
                    "level-zero:image-write-operands",
                    "OpImageWrite must not have image operands",
                );
            }
        }
        Instruction::ImageRead(r) => {
            if r.image_operands
                .as_ref()
                .is_some_and(|o| o.const_offset.is_some())
            {
                cx.err(
                    inst,
                    "level-zero:image-read-const-offset",
                    "OpImageRead must not have the ConstOffset image operand",
                );
            }
        }
        Instruction::ImageSampleExplicitLod(s) => {
            if s.image_operands.const_offset.is_some() {
                cx.err(
                    inst,
                    "level-zero:image-read-const-offset",
                    "OpImageSampleExplicitLod must not have the ConstOffset image operand",
                );
            }
        }
        _ => {}
    }
    if op.is_declares_type() {
        type_decl(cx, inst, op);
    }
    atomics(cx, inst, op);
    scope_rules(cx, inst, op);
    subgroups(cx, inst, typed);
}

/// Supported types, widths, vector sizes, images.
fn type_decl(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode) {
    let m = cx.m;
    match op {
        Opcode::TypeVoid
        | Opcode::TypeBool
        | Opcode::TypeArray
        | Opcode::TypeStruct
        | Opcode::TypeFunction
        | Opcode::TypePointer
        | Opcode::TypeSampler
        | Opcode::TypeEvent
        | Opcode::TypeSampledImage => {}
        Opcode::TypeInt => {
            let (w, s) = (inst.word(1), inst.word(2));
            if ![8, 16, 32, 64].contains(&w) {
                cx.err(
                    inst,
                    "level-zero:int-width",
                    format!("integer width {w} is not supported (8, 16, 32 or 64)"),
                );
            }
            if s != 0 {
                cx.err(
                    inst,
                    "level-zero:int-signedness",
                    "OpTypeInt signedness must be 0 (no signedness semantics)",
                );
            }
        }
        Opcode::TypeFloat => {
            let w = inst.word(1);
            if ![16, 32, 64].contains(&w) {
                cx.err(
                    inst,
                    "level-zero:float-width",
                    format!("float width {w} is not supported (16, 32 or 64)"),
                );
            }
        }
        Opcode::TypeVector => {
            let n = inst.word(2);
            if ![2, 3, 4, 8, 16].contains(&n) {
                cx.err(
                    inst,
                    "level-zero:vector-size",
                    format!("{n} components are not supported (2, 3, 4, 8 or 16)"),
                );
            }
            if !m.is_scalar(inst.word(1)) {
                cx.err(
                    inst,
                    "level-zero:unsupported-type",
                    "vector components must be bool, integer or float scalars",
                );
            }
        }
        Opcode::TypeImage => image(cx, inst),
        _ => cx.err(
            inst,
            "level-zero:unsupported-type",
            format!("{op} is not a supported type"),
        ),
    }
}

fn image(cx: &mut Cx<'_>, inst: &Inst<'_>) {
    let m = cx.m;
    let i = ImageTy::from_words(inst.rest(1));
    let d = |x: Dim| x as u32;
    let table = [
        (d(Dim::Dim1D), 0, 0),
        (d(Dim::Dim1D), 0, 1),
        (d(Dim::Dim2D), 0, 0),
        (d(Dim::Dim2D), 1, 0),
        (d(Dim::Dim2D), 0, 1),
        (d(Dim::Dim2D), 1, 1),
        (d(Dim::Dim3D), 0, 0),
        (d(Dim::Buffer), 0, 0),
    ];
    if i.arrayed == 1 && i.dim != d(Dim::Dim1D) && i.dim != d(Dim::Dim2D) {
        cx.err(
            inst,
            "level-zero:image-arrayed",
            "Arrayed may only be 1 when Dim is 1D or 2D",
        );
    } else if !table.contains(&(i.dim, i.depth, i.arrayed)) {
        let dim = Dim::from_value(i.dim).map_or("?", |x| x.name());
        cx.err(
            inst,
            "level-zero:image-type",
            format!(
                "image type (Dim {dim}, Depth {}, Arrayed {}) is not in the supported table",
                i.depth, i.arrayed
            ),
        );
    }
    if m.ty(i.sampled_type) != Some(Ty::Void) {
        cx.err(
            inst,
            "level-zero:image-sampled-type",
            "the Sampled Type must be OpTypeVoid",
        );
    }
    if i.sampled != 0 {
        cx.err(inst, "level-zero:image-sampled", "Sampled must be 0");
    }
    if i.ms != 0 {
        cx.err(inst, "level-zero:image-ms", "MS must be 0");
    }
    if i.format != ImageFormat::Unknown as u32 {
        cx.err(
            inst,
            "level-zero:image-format",
            "the Image Format must be Unknown",
        );
    }
    if i.access.is_none() {
        cx.err(
            inst,
            "level-zero:image-access-qualifier",
            "the optional Access Qualifier must be present",
        );
    }
}

/// Kernel return and argument types.
fn kernel_signature(cx: &mut Cx<'_>, inst: &Inst<'_>, f: u32) {
    let m = cx.m;
    let Some(fty) = m
        .def(f)
        .filter(|d| d.op() == Some(Opcode::Function))
        .map(|d| d.word(3))
    else {
        return;
    };
    let Some(Ty::Function { ret, params }) = m.ty(fty) else {
        return;
    };
    if m.ty(ret) != Some(Ty::Void) {
        cx.err(
            inst,
            "level-zero:kernel-return-type",
            format!("kernel %{f} must return OpTypeVoid"),
        );
    }
    for (k, &p) in params.iter().enumerate() {
        if let Err(why) = argument_type(cx, p) {
            cx.err(
                inst,
                "level-zero:kernel-argument-type",
                format!("argument {k} of kernel %{f}: {why}"),
            );
        }
    }
}

fn int_ok(cx: &Cx<'_>, t: u32) -> Result<(), String> {
    match cx.m.ty(t) {
        Some(Ty::Int { width, signed }) => {
            if ![8, 16, 32, 64].contains(&width) {
                Err(format!("integer width {width} is not supported"))
            } else if signed {
                Err("integers must have no signedness semantics".into())
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// Allowed kernel argument types.
fn argument_type(cx: &Cx<'_>, t: u32) -> Result<(), String> {
    let m = cx.m;
    match m.ty(t) {
        Some(Ty::Int { .. }) => int_ok(cx, t),
        Some(Ty::Float { width }) => {
            if width == 16 || width == 32 {
                Ok(())
            } else {
                Err(format!(
                    "{width}-bit float arguments are not supported (16 or 32)"
                ))
            }
        }
        Some(Ty::Vector { .. } | Ty::Sampler | Ty::Image(_)) => Ok(()),
        Some(Ty::Struct { .. }) => struct_members(cx, t, 0),
        Some(Ty::Pointer { storage, .. }) => {
            let ok = [S::CrossWorkgroup, S::Workgroup, S::UniformConstant]
                .iter()
                .any(|s| s.value() == storage);
            if ok {
                Ok(())
            } else {
                let name = S::from_value(storage).map_or("?", |s| s.name());
                Err(format!(
                    "pointers to the {name} storage class are not supported (CrossWorkgroup, \
                     Workgroup or UniformConstant)"
                ))
            }
        }
        _ => Err(
            "the type is not one of OpTypeInt, OpTypeFloat, OpTypeStruct, OpTypeVector, \
                  OpTypePointer, OpTypeSampler, OpTypeImage"
                .into(),
        ),
    }
}

fn struct_members(cx: &Cx<'_>, t: u32, depth: u32) -> Result<(), String> {
    if depth > 32 {
        return Ok(());
    }
    let Some(Ty::Struct { members }) = cx.m.ty(t) else {
        return Ok(());
    };
    for &mt in members {
        match cx.m.ty(mt) {
            Some(Ty::Int { .. }) => int_ok(cx, mt)?,
            Some(Ty::Float { .. } | Ty::Vector { .. } | Ty::Pointer { .. }) => {}
            Some(Ty::Struct { .. }) => struct_members(cx, mt, depth + 1)?,
            _ => {
                return Err(format!(
                    "struct member type %{mt} is not OpTypeInt, OpTypeFloat, OpTypeStruct, \
                     OpTypeVector or OpTypePointer"
                ))
            }
        }
    }
    Ok(())
}

/// Atomic types and pointers, float atomics.
fn atomics(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode) {
    let m = cx.m;
    let Some(a) = atomic(cx, inst) else { return };
    let Some((storage, pointee)) = m.type_of(a.pointer).and_then(|t| m.pointer(t)) else {
        return;
    };
    let is = |list: &[S]| list.iter().any(|s| s.value() == storage);
    if !is(&[S::Function, S::Workgroup, S::CrossWorkgroup, S::Generic]) {
        cx.err(
            inst,
            "level-zero:atomic-pointer",
            "the Pointer must point to the Function, Workgroup, CrossWorkgroup or Generic \
             storage class",
        );
    }
    let data = if a.flag { Some(pointee) } else { a.data_type };
    let Some(dt) = data else { return };
    let float_op = matches!(
        op.name(),
        "OpAtomicFAddEXT" | "OpAtomicFMinEXT" | "OpAtomicFMaxEXT"
    );
    let load_store = matches!(
        op,
        Opcode::AtomicLoad | Opcode::AtomicStore | Opcode::AtomicExchange
    );
    match m.ty(dt) {
        Some(Ty::Int { width: 32, .. }) if !float_op => {}
        Some(Ty::Int { width: 64, .. }) if !float_op => {
            if !m.capabilities.has(Capability::Int64Atomics) {
                cx.err(
                    inst,
                    "level-zero:atomic-type",
                    "64-bit integer atomics are only supported with the Int64Atomics capability",
                );
            }
        }
        Some(Ty::Float { width }) if float_op || (load_store && width == 16) => {
            if !is(&[S::CrossWorkgroup, S::Workgroup]) {
                cx.err(
                    inst,
                    "level-zero:float-atomic-pointer",
                    "float atomics may only use CrossWorkgroup or Workgroup pointers",
                );
            }
            if float_op {
                let ext_ok = match (op.name(), width) {
                    ("OpAtomicFAddEXT", 16) => m.has_extension("SPV_EXT_shader_atomic_float16_add"),
                    ("OpAtomicFAddEXT", _) => m.has_extension("SPV_EXT_shader_atomic_float_add"),
                    _ => m.has_extension("SPV_EXT_shader_atomic_float_min_max"),
                };
                let cap = match (op.name(), width) {
                    ("OpAtomicFAddEXT", 16) => Some(Capability::AtomicFloat16AddEXT),
                    ("OpAtomicFAddEXT", 32) => Some(Capability::AtomicFloat32AddEXT),
                    ("OpAtomicFAddEXT", 64) => Some(Capability::AtomicFloat64AddEXT),
                    (_, 16) => Some(Capability::AtomicFloat16MinMaxEXT),
                    (_, 32) => Some(Capability::AtomicFloat32MinMaxEXT),
                    (_, 64) => Some(Capability::AtomicFloat64MinMaxEXT),
                    _ => None,
                };
                if !ext_ok || !cap.is_some_and(|c| m.capabilities.has(c)) {
                    cx.err(
                        inst,
                        "level-zero:float-atomic-type",
                        format!(
                            "{width}-bit {op} needs its float atomics extension and the matching \
                             AtomicFloat capability"
                        ),
                    );
                }
            }
        }
        _ => {
            let what = if float_op {
                "16-, 32- or 64-bit floats"
            } else if load_store {
                "32-bit integers (64-bit with Int64Atomics, 16-bit floats)"
            } else {
                "32-bit integers (64-bit with Int64Atomics)"
            };
            cx.err(
                inst,
                "level-zero:atomic-type",
                format!("{op}: atomics are supported on {what}"),
            );
        }
    }
}

/// Execution and memory scopes.
fn scope_rules(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode) {
    let m = cx.m;
    for (name, id, is_scope) in scopes(inst) {
        if !is_scope {
            continue;
        }
        let Some(v) = m.const_int(id) else { continue };
        let v = u32::try_from(v).unwrap_or(u32::MAX);
        let scope = Scope::from_value(v);
        let execution = name == "Execution" || (name == "Scope" && op != Opcode::ReadClockKHR);
        if execution {
            let async_copy = matches!(op, Opcode::GroupAsyncCopy | Opcode::GroupWaitEvents);
            let ok = if async_copy {
                scope == Some(Scope::Workgroup)
            } else {
                matches!(scope, Some(Scope::Workgroup | Scope::Subgroup))
            };
            if !ok {
                let allowed = if async_copy {
                    "Workgroup"
                } else {
                    "Workgroup or Subgroup"
                };
                cx.err(
                    inst,
                    "level-zero:execution-scope",
                    format!("{op}: the execution scope must be {allowed}"),
                );
            }
        } else {
            let ok = matches!(
                scope,
                Some(
                    Scope::CrossDevice
                        | Scope::Device
                        | Scope::Workgroup
                        | Scope::Invocation
                        | Scope::Subgroup
                )
            );
            if !ok {
                cx.err(
                    inst,
                    "level-zero:memory-scope",
                    format!(
                        "{op}: the memory scope must be CrossDevice, Device, Workgroup, \
                         Invocation or Subgroup"
                    ),
                );
            }
        }
    }
}

/// The component type and count of a scalar or vector type.
fn shape(cx: &Cx<'_>, t: u32) -> Option<(Ty<'static>, u32)> {
    let m = cx.m;
    let (c, n) = match m.ty(t)? {
        Ty::Vector { component, count } => (component, count),
        _ => (t, 1),
    };
    let s = match m.ty(c)? {
        Ty::Int { width, signed } => Ty::Int { width, signed },
        Ty::Float { width } => Ty::Float { width },
        _ => return None,
    };
    Some((s, n))
}

/// SPV_INTEL_subgroups operand types.
fn subgroups(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    let ty = |id: crate::grammar::Id| m.type_of(id.0).unwrap_or(0);
    let shuffle = match typed {
        Instruction::SubgroupShuffleINTEL(s) => Some(ty(s.data)),
        Instruction::SubgroupShuffleDownINTEL(s) => Some(ty(s.current)),
        Instruction::SubgroupShuffleUpINTEL(s) => Some(ty(s.current)),
        Instruction::SubgroupShuffleXorINTEL(s) => Some(ty(s.data)),
        _ => None,
    };
    if let Some(t) = shuffle {
        let ok = match shape(cx, t) {
            Some((Ty::Float { width: 32 }, n))
            | Some((
                Ty::Int {
                    width: 8 | 16 | 32,
                    signed: false,
                },
                n,
            )) => [1, 2, 4, 8, 16].contains(&n),
            Some((
                Ty::Int {
                    width: 64,
                    signed: false,
                },
                n,
            )) => [1, 2, 4, 8, 16].contains(&n),
            Some((Ty::Float { width: 16 }, 1)) => m.capabilities.has(Capability::Float16),
            Some((Ty::Float { width: 64 }, 1)) => m.capabilities.has(Capability::Float64),
            _ => false,
        };
        if !ok {
            cx.err(
                inst,
                "level-zero:subgroup-shuffle-type",
                "shuffle Data must be a float, 8/16/32-bit integer scalar or vector of 2, 4, 8 or \
                 16 components, a 64-bit integer, or a 16/64-bit float scalar with Float16/\
                 Float64",
            );
        }
        return;
    }
    let block_type = |cx: &mut Cx<'_>, t: u32| {
        let ok = matches!(
            shape(cx, t),
            Some((
                Ty::Int {
                    width: 16 | 32,
                    signed: false
                },
                1 | 2 | 4 | 8
            ))
        );
        if !ok {
            cx.err(
                inst,
                "level-zero:subgroup-block-io-type",
                "block IO data must be a 16- or 32-bit integer scalar or vector of 2, 4 or 8 \
                 components",
            );
        }
    };
    let pointer = |cx: &mut Cx<'_>, p: u32| {
        let sc = m.type_of(p).and_then(|t| m.pointer(t)).map(|(s, _)| s);
        if sc != Some(S::CrossWorkgroup.value()) {
            cx.err(
                inst,
                "level-zero:subgroup-block-io-pointer",
                "block IO Ptr must point to the CrossWorkgroup storage class",
            );
        }
    };
    let image = |cx: &mut Cx<'_>, img: u32, coord: u32| {
        let it = m.type_of(img).and_then(|t| m.def(t));
        let ok = it.is_some_and(|d| {
            d.op() == Some(Opcode::TypeImage) && {
                let i = ImageTy::from_words(d.rest(1));
                i.dim == Dim::Dim2D as u32 && i.depth == 0 && i.arrayed == 0 && i.ms == 0
            }
        });
        if !ok {
            cx.err(
                inst,
                "level-zero:subgroup-image-block-io-image",
                "the Image must be 2D, not depth, not arrayed, single-sampled",
            );
        }
        let ct = m.type_of(coord).unwrap_or(0);
        let int2 =
            m.is_int_vector(ct) && matches!(shape(cx, ct), Some((Ty::Int { width: 32, .. }, 2)));
        if !int2 {
            cx.err(
                inst,
                "level-zero:subgroup-image-block-io-coordinate",
                "the Coordinate must be a vector of two 32-bit integers (int2)",
            );
        }
    };
    match typed {
        Instruction::SubgroupBlockReadINTEL(r) => {
            block_type(cx, r.result_type.0);
            pointer(cx, r.ptr.0);
        }
        Instruction::SubgroupBlockWriteINTEL(w) => {
            block_type(cx, ty(w.data));
            pointer(cx, w.ptr.0);
        }
        Instruction::SubgroupImageBlockReadINTEL(r) => {
            block_type(cx, r.result_type.0);
            image(cx, r.image.0, r.coordinate.0);
        }
        Instruction::SubgroupImageBlockWriteINTEL(w) => {
            block_type(cx, ty(w.data));
            image(cx, w.image.0, w.coordinate.0);
            // The x byte coordinate of a write must be a multiple of four.
            let x = m.def(w.coordinate.0).and_then(|d| match d.op() {
                Some(Opcode::ConstantComposite) => m.const_int(d.word(2)),
                _ => None,
            });
            if x.is_some_and(|x| x % 4 != 0) {
                cx.err(
                    inst,
                    "level-zero:subgroup-image-block-write-coordinate",
                    "the x byte coordinate of an image block write must be a multiple of 4",
                );
            }
        }
        _ => {}
    }
}

/// Level Zero's module-wide rules: recursion.
pub(super) fn finish(cx: &mut Cx<'_>) {
    for (f, at) in super::functions::recursive_calls(cx) {
        let inst = cx.m.inst(at);
        cx.err(
            &inst,
            "level-zero:recursion",
            format!("the static call graph has a cycle through %{f}: recursion is not supported"),
        );
    }
}
