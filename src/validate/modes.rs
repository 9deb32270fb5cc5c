//! Mode setting: the memory model an environment requires, entry points (a void function,
//! no parameters except for kernels, interfaces that are global variables, every global the
//! entry point's call tree uses listed from SPIR-V 1.4), and execution modes (named entry
//! point, compatible execution model, the modes a fragment, tessellation or geometry entry
//! point must or may have).
//!
//! Hand-written because which execution modes go with which execution models, and which an
//! entry point needs, is prose in the specification.

use super::module::Inst;
use super::query::Ty;
use super::Cx;
use crate::grammar::{
    AddressingModel, ExecutionMode as M, ExecutionModel, Instruction, MemoryModel, Opcode, Version,
};
use crate::target_env::ClientApi;
use std::collections::{HashMap, HashSet};

const RULE: &str = "core:entry-point";

/// Per-instruction mode-setting rules.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    match typed {
        Instruction::MemoryModel(mm) => {
            let (a, mo) = (mm.addressing_model, mm.memory_model);
            let vmm = m
                .capabilities
                .has(crate::grammar::Capability::VulkanMemoryModel);
            if mo == MemoryModel::Vulkan && !vmm {
                cx.err(
                    inst,
                    "core:memory-model",
                    "the Vulkan memory model requires the VulkanMemoryModel capability",
                );
            } else if mo != MemoryModel::Vulkan && vmm {
                cx.err(
                    inst,
                    "core:memory-model",
                    "the VulkanMemoryModel capability may only be declared with the Vulkan memory \
                     model",
                );
            }
            match cx.env.client_api() {
                ClientApi::OpenCl => {
                    if !matches!(a, AddressingModel::Physical32 | AddressingModel::Physical64) {
                        cx.err(
                            inst,
                            "opencl:memory-model",
                            "the addressing model must be Physical32 or Physical64 in OpenCL",
                        );
                    }
                    if mo != MemoryModel::OpenCL {
                        cx.err(
                            inst,
                            "opencl:memory-model",
                            "the memory model must be OpenCL in OpenCL",
                        );
                    }
                }
                ClientApi::Vulkan => {
                    if !matches!(
                        a,
                        AddressingModel::Logical | AddressingModel::PhysicalStorageBuffer64
                    ) {
                        cx.err(
                            inst,
                            "vulkan:memory-model",
                            "the addressing model must be Logical or PhysicalStorageBuffer64 in \
                             Vulkan",
                        );
                    }
                }
                _ => {}
            }
        }
        Instruction::EntryPoint(e) => {
            let f = e.entry_point.0;
            if m.def_op(f) != Some(Opcode::Function) {
                return cx.err(inst, RULE, format!("entry point %{f} is not a function"));
            }
            let fty = m.def(f).map_or(0, |d| d.word(3));
            if let Some(Ty::Function { ret, params }) = m.ty(fty) {
                if m.ty(ret) != Some(Ty::Void) {
                    cx.err(inst, RULE, "an entry point's function must return void");
                }
                if e.execution_model != ExecutionModel::Kernel && !params.is_empty() {
                    cx.err(inst, RULE, "only Kernel entry points may have parameters");
                }
            }
            let v14 = m.version >= Version(1, 4);
            let mut seen = HashSet::new();
            for i in &e.interfaces {
                let i = i.0;
                let var = m.def(i).filter(|d| d.op() == Some(Opcode::Variable));
                let Some(var) = var else {
                    cx.err(inst, RULE, format!("interface %{i} must be an OpVariable"));
                    continue;
                };
                let sc = var.word(2);
                if v14 {
                    if sc == crate::grammar::StorageClass::Function.value() {
                        cx.err(
                            inst,
                            RULE,
                            format!("interface %{i} must be a global variable"),
                        );
                    }
                    if !seen.insert(i) {
                        cx.err(inst, RULE, format!("interface %{i} is listed twice"));
                    }
                } else if sc != crate::grammar::StorageClass::Input.value()
                    && sc != crate::grammar::StorageClass::Output.value()
                {
                    cx.err(
                        inst,
                        RULE,
                        format!(
                            "before SPIR-V 1.4, interface %{i} must be an Input or Output \
                             variable"
                        ),
                    );
                }
            }
        }
        Instruction::ExecutionMode(e) => mode(cx, inst, e.entry_point.0, &e.mode),
        Instruction::ExecutionModeId(e) => mode(cx, inst, e.entry_point.0, &e.mode),
        _ => {}
    }
}

/// The execution models of the entry points naming function `f`.
fn models_of(cx: &Cx<'_>, f: u32) -> Vec<u32> {
    cx.m.entry_points
        .iter()
        .map(|&i| cx.m.inst(i))
        .filter(|e| e.word(1) == f)
        .map(|e| e.word(0))
        .collect()
}

fn mode(cx: &mut Cx<'_>, inst: &Inst<'_>, f: u32, mode: &M) {
    let models = models_of(cx, f);
    if models.is_empty() {
        return cx.err(
            inst,
            "core:execution-mode",
            format!("%{f} is not the entry point of an OpEntryPoint"),
        );
    }
    use ExecutionModel as E;
    let all = |ok: &[E]| models.iter().all(|&m| ok.iter().any(|e| e.value() == m));
    let (ok, what): (bool, &str) = match mode {
        M::Invocations(_)
        | M::InputPoints
        | M::InputLines
        | M::InputLinesAdjacency
        | M::InputTrianglesAdjacency
        | M::OutputLineStrip
        | M::OutputTriangleStrip => (all(&[E::Geometry]), "the Geometry execution model"),
        M::OutputPoints => (
            all(&[E::Geometry, E::MeshNV, E::MeshEXT]),
            "the Geometry or Mesh execution models",
        ),
        M::SpacingEqual
        | M::SpacingFractionalEven
        | M::SpacingFractionalOdd
        | M::VertexOrderCw
        | M::VertexOrderCcw
        | M::PointMode
        | M::Quads
        | M::Isolines => (
            all(&[E::TessellationControl, E::TessellationEvaluation]),
            "a tessellation execution model",
        ),
        M::Triangles => (
            all(&[
                E::Geometry,
                E::TessellationControl,
                E::TessellationEvaluation,
            ]),
            "a Geometry or tessellation execution model",
        ),
        M::OutputVertices(_) => (
            all(&[
                E::Geometry,
                E::TessellationControl,
                E::TessellationEvaluation,
                E::MeshNV,
                E::MeshEXT,
            ]),
            "a Geometry, tessellation or mesh execution model",
        ),
        M::PixelCenterInteger
        | M::OriginUpperLeft
        | M::OriginLowerLeft
        | M::EarlyFragmentTests
        | M::DepthReplacing
        | M::DepthGreater
        | M::DepthLess
        | M::DepthUnchanged
        | M::PixelInterlockOrderedEXT
        | M::PixelInterlockUnorderedEXT
        | M::SampleInterlockOrderedEXT
        | M::SampleInterlockUnorderedEXT
        | M::ShadingRateInterlockOrderedEXT
        | M::ShadingRateInterlockUnorderedEXT
        | M::EarlyAndLateFragmentTestsAMD
        | M::StencilRefReplacingEXT => (all(&[E::Fragment]), "the Fragment execution model"),
        M::LocalSizeHint(..) | M::VecTypeHint(_) | M::ContractionOff | M::LocalSizeHintId(..) => {
            (all(&[E::Kernel]), "the Kernel execution model")
        }
        M::LocalSize(..) | M::LocalSizeId(..) => (
            all(&[
                E::Kernel,
                E::GLCompute,
                E::MeshNV,
                E::MeshEXT,
                E::TaskNV,
                E::TaskEXT,
            ]),
            "a Kernel, GLCompute, mesh or task execution model",
        ),
        _ => (true, ""),
    };
    if !ok {
        cx.err(
            inst,
            "core:execution-mode",
            format!(
                "execution mode {} can only be used with {what}",
                mode.name()
            ),
        );
    }
    if cx.env.is_vulkan() {
        match mode {
            M::OriginLowerLeft => cx.err(
                inst,
                "vulkan:execution-mode",
                "the OriginLowerLeft execution mode must not be used in Vulkan",
            ),
            M::PixelCenterInteger => cx.err(
                inst,
                "vulkan:execution-mode",
                "the PixelCenterInteger execution mode must not be used in Vulkan",
            ),
            _ => {}
        }
    }
}

/// Module-level rules: modes each entry point needs, unique entry points, interfaces.
pub(super) fn finish(cx: &mut Cx<'_>) {
    let m = cx.m;
    if m.entry_points.is_empty() && !m.capabilities.has(crate::grammar::Capability::Linkage) {
        cx.err_module(
            RULE,
            "a module without OpEntryPoint must declare the Linkage capability",
        );
    }
    let mut modes: HashMap<u32, Vec<u32>> = HashMap::new();
    for &i in &m.execution_modes {
        let e = m.inst(i);
        modes.entry(e.word(0)).or_default().push(e.word(1));
    }
    let mut names = HashSet::new();
    let workgroup_size_builtin = m.decorations.iter().any(|d| {
        d.kind == super::module::deco::BuiltIn
            && d.arg == crate::grammar::BuiltIn::WorkgroupSize as u32
    });
    for &i in &m.entry_points {
        let e = m.inst(i);
        let (model, f) = (e.word(0), e.word(1));
        let name = super::module::string_at(e.rest(2));
        if !names.insert((model, name.clone())) {
            cx.err(
                &e,
                RULE,
                format!("entry points cannot share the name {name:?} and execution model"),
            );
        }
        let has = |mo: &M| modes.get(&f).is_some_and(|v| v.contains(&mo.value()));
        let count = |ms: &[M]| ms.iter().filter(|mo| has(mo)).count();
        use ExecutionModel as E;
        let mut err = |msg: &str| cx.sink.push(e.offset, "core:execution-mode", msg.into());
        match model {
            x if x == E::Fragment.value() => {
                let origins = count(&[M::OriginUpperLeft, M::OriginLowerLeft]);
                if origins == 2 {
                    err("a Fragment entry point can have only one of OriginUpperLeft and OriginLowerLeft");
                } else if origins == 0 {
                    err("a Fragment entry point needs OriginUpperLeft or OriginLowerLeft");
                }
                if count(&[M::DepthGreater, M::DepthLess, M::DepthUnchanged]) > 1 {
                    err("a Fragment entry point can have at most one of DepthGreater, DepthLess and DepthUnchanged");
                }
            }
            x if x == E::TessellationControl.value() || x == E::TessellationEvaluation.value() => {
                if count(&[
                    M::SpacingEqual,
                    M::SpacingFractionalEven,
                    M::SpacingFractionalOdd,
                ]) > 1
                {
                    err("a tessellation entry point can have at most one spacing mode");
                }
                if count(&[M::Triangles, M::Quads, M::Isolines]) > 1 {
                    err("a tessellation entry point can have at most one of Triangles, Quads and Isolines");
                }
                if count(&[M::VertexOrderCw, M::VertexOrderCcw]) > 1 {
                    err("a tessellation entry point can have at most one vertex order");
                }
            }
            x if x == E::Geometry.value() => {
                if count(&[
                    M::InputPoints,
                    M::InputLines,
                    M::InputLinesAdjacency,
                    M::Triangles,
                    M::InputTrianglesAdjacency,
                ]) != 1
                {
                    err("a Geometry entry point needs exactly one input primitive mode");
                }
                if count(&[M::OutputPoints, M::OutputLineStrip, M::OutputTriangleStrip]) != 1 {
                    err("a Geometry entry point needs exactly one output primitive mode");
                }
            }
            x if x == E::GLCompute.value() && cx.env.is_vulkan() => {
                let id_mode = m.execution_modes.iter().any(|&j| {
                    let x = m.inst(j);
                    x.op() == Some(Opcode::ExecutionModeId)
                        && x.word(1)
                            == M::LocalSizeId(
                                crate::grammar::Id(0),
                                crate::grammar::Id(0),
                                crate::grammar::Id(0),
                            )
                            .value()
                });
                if !has(&M::LocalSize(0, 0, 0)) && !id_mode && !workgroup_size_builtin {
                    cx.sink.push(
                        e.offset,
                        "vulkan:execution-mode",
                        "a GLCompute entry point needs LocalSize, LocalSizeId or a WorkgroupSize \
                         built-in in Vulkan"
                            .into(),
                    );
                }
            }
            _ => {}
        }
    }
    interfaces(cx);
}

/// Every global variable an entry point's call tree uses is in its interface (from SPIR-V
/// 1.4; before, the Input and Output ones).
fn interfaces(cx: &mut Cx<'_>) {
    let m = cx.m;
    if m.entry_points.is_empty() {
        return;
    }
    let v14 = m.version >= Version(1, 4);
    let globals = super::functions::entry_point_globals(cx);
    for &i in &m.entry_points {
        let e = m.inst(i);
        let listed: HashSet<u32> = e
            .rest(2 + string_words(e.rest(2)))
            .iter()
            .copied()
            .collect();
        let Some((_, used)) = globals.iter().find(|(f, _)| *f == e.word(1)) else {
            continue;
        };
        let mut missing: Vec<u32> = used
            .iter()
            .copied()
            .filter(|&v| {
                let sc = m.def(v).map_or(0, |d| d.word(2));
                let interface = if v14 {
                    sc != crate::grammar::StorageClass::Function.value()
                } else {
                    sc == crate::grammar::StorageClass::Input.value()
                        || sc == crate::grammar::StorageClass::Output.value()
                };
                interface && !listed.contains(&v)
            })
            .collect();
        missing.sort_unstable();
        for v in missing {
            cx.err(
                &e,
                "core:entry-point-interface",
                format!(
                    "interface variable %{v} is used by entry point %{} but is not listed as an \
                     interface",
                    e.word(1)
                ),
            );
        }
    }
}

/// Words a nul-terminated string occupies.
fn string_words(words: &[u32]) -> usize {
    words
        .iter()
        .position(|w| w.to_le_bytes().contains(&0))
        .map_or(words.len(), |p| p + 1)
}
