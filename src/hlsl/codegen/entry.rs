//! The wrapper entry function in DXC's shape: `main` (void, no parameters) runs the `static`
//! initializers, loads every stage input from its Input variable (struct inputs flattened,
//! semantics to BuiltIn or Location), calls the source entry function with Function-storage
//! copies, and stores the results to Output variables; plus the entry point's execution modes.

use super::func::FnCx;
use super::types::ir_ty;
use super::{FuncSym, ParamDir, State};
use crate::grammar::{
    BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionControl, StorageClass,
};
use crate::hlsl::ast::{Attribute, Item};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::layout::LayoutRule;
use crate::hlsl::sema::types::{Interp, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::Stage;
use crate::ir::{Builder, GlobalVariable, Handle, Value};

/// The derivative group of a compute shader that uses derivatives, by the rules of shader
/// model 6.6 as DXC applies them: a one-dimensional group of a multiple of 4 threads takes
/// them over each 4 consecutive threads (`DerivativeGroupLinearNV`), one whose X and Y are
/// even over 2x2 quads (`DerivativeGroupQuadsNV`); any other size is an error at the first
/// use (`span`).
fn derivative_group(
    st: &mut State,
    b: &mut Builder,
    entry: Handle<crate::ir::Function>,
    [x, y, z]: [u32; 3],
    span: Span,
) {
    let (mode, capability) = if x % 4 == 0 && y == 1 && z == 1 {
        (
            ExecutionMode::DerivativeGroupLinearNV,
            Capability::ComputeDerivativeGroupLinearNV,
        )
    } else if x % 2 == 0 && y % 2 == 0 {
        (
            ExecutionMode::DerivativeGroupQuadsNV,
            Capability::ComputeDerivativeGroupQuadsNV,
        )
    } else {
        st.error(
            span,
            "derivatives in a compute shader need numthreads with even X and Y, or X a \
             multiple of 4 and Y and Z of 1",
        );
        return;
    };
    b.capability(capability);
    b.execution_mode(entry, mode);
}

/// The Vulkan attributes of a pixel shader's entry point that are execution modes of
/// SPV_AMD_shader_early_and_late_fragment_tests: `[[vk::early_and_late_tests]]`,
/// `[[vk::depth_unchanged]]` and one `[[vk::stencil_ref_*_front]]` and `_back` each.
pub(crate) const FRAGMENT_TEST_ATTRIBUTES: &[(&str, &str)] = &[
    ("early_and_late_tests", "EarlyAndLateFragmentTestsAMD"),
    ("depth_unchanged", "DepthUnchanged"),
    ("stencil_ref_unchanged_front", "StencilRefUnchangedFrontAMD"),
    (
        "stencil_ref_greater_equal_front",
        "StencilRefGreaterFrontAMD",
    ),
    ("stencil_ref_less_equal_front", "StencilRefLessFrontAMD"),
    ("stencil_ref_unchanged_back", "StencilRefUnchangedBackAMD"),
    ("stencil_ref_greater_equal_back", "StencilRefGreaterBackAMD"),
    ("stencil_ref_less_equal_back", "StencilRefLessBackAMD"),
    ("post_depth_coverage", "PostDepthCoverage"),
];

/// Adds the execution modes of [`FRAGMENT_TEST_ATTRIBUTES`] among `attrs`; more than one
/// stencil-reference mode per face is DXC's error.
fn fragment_test_modes(
    st: &mut State,
    b: &mut Builder,
    entry: Handle<crate::ir::Function>,
    attrs: &[Attribute],
) {
    let mut faces = [None::<Span>; 2];
    for a in attrs {
        if a.namespace.as_ref().is_none_or(|n| n.name != "vk") {
            continue;
        }
        let Some(&(name, mode)) = FRAGMENT_TEST_ATTRIBUTES
            .iter()
            .find(|(n, _)| *n == a.name.name)
        else {
            continue;
        };
        if let Some(face) = name.strip_prefix("stencil_ref_") {
            let back = usize::from(face.ends_with("_back"));
            if faces[back].replace(a.span).is_some() {
                let side = if back == 1 { "back" } else { "front" };
                st.error(
                    a.span,
                    format!(
                        "Shaders must not specify more than one of stencil_ref_unchanged_{side}, \
                         stencil_ref_greater_equal_{side}, and stencil_ref_less_equal_{side}."
                    ),
                );
                continue;
            }
        }
        // By name, from the grammar (the names are those of every grammar spvkit builds from).
        match mode.parse::<ExecutionMode>() {
            Ok(m) => b.execution_mode(entry, m),
            Err(_) => st.error(
                a.span,
                format!("not supported yet: [[vk::{name}]] (the grammar has no {mode})"),
            ),
        }
    }
}

/// Splits `TEXCOORD3` into (`TEXCOORD`, 3).
fn split_semantic(s: &str) -> (String, u32) {
    let base = s.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = s[base.len()..].parse().unwrap_or(0);
    (base.to_ascii_uppercase(), index)
}

/// The wrapper's state while it builds the stage interface.
struct Io {
    vars: Vec<(String, bool, Handle<GlobalVariable>, Ty)>,
    depth_replacing: bool,
    /// `DepthLess` or `DepthGreater` for SV_DepthLessEqual or SV_DepthGreaterEqual.
    depth_mode: Option<ExecutionMode>,
    /// Per direction (input, output): the locations taken (with their `vk::index`, 0 by
    /// default), with the semantic that took each.
    taken: [Vec<(u32, u32, String)>; 2],
    /// Per direction: where a `[[vk::location]]` was given, and whether one was not.
    explicit: [Option<Span>; 2],
    implicit: [bool; 2],
    /// The variables that took the next free location (semantic, output, variable,
    /// location, how many locations), for `-fvk-stage-io-order=alpha` to reorder.
    auto_located: Vec<AutoLocated>,
    /// Every SV_ClipDistance / SV_CullDistance semantic of the stage, placed in its direction's
    /// one float array.
    clip_cull: Vec<ClipCull>,
}

/// Where one SV_ClipDistance / SV_CullDistance semantic sits: DXC packs all of a direction's
/// clip (cull) distances into one `float[K]` built-in array, ordered by semantic index.
struct ClipCull {
    output: bool,
    cull: bool,
    index: u32,
    /// The first element it takes in the array.
    offset: u32,
    /// The array variable.
    var: Handle<GlobalVariable>,
}

/// System-value semantics that are ordinary located stage variables where they are used (DXC's
/// "arbitrary" interpretation there): a vertex shader's SV_Position, SV_RenderTargetArrayIndex,
/// SV_ViewportArrayIndex and clip and cull distance inputs, SV_InstanceID past the vertex
/// input, and SV_Target.
fn located_sv(stage: Stage, output: bool, base: &str) -> bool {
    match (stage, output) {
        (Stage::Vertex, false) => matches!(
            base,
            "SV_POSITION"
                | "SV_RENDERTARGETARRAYINDEX"
                | "SV_VIEWPORTARRAYINDEX"
                | "SV_CLIPDISTANCE"
                | "SV_CULLDISTANCE"
        ),
        (Stage::Vertex, true) | (Stage::Pixel, false) => base == "SV_INSTANCEID",
        (Stage::Pixel, true) => base == "SV_TARGET",
        _ => false,
    }
}

/// Whether `base` is SV_CullDistance (`Some(true)`) or SV_ClipDistance (`Some(false)`) where
/// it maps to the built-in array: vertex outputs and pixel inputs.
fn clip_cull_kind(stage: Stage, output: bool, base: &str) -> Option<bool> {
    if !matches!(
        (stage, output),
        (Stage::Vertex, true) | (Stage::Pixel, false)
    ) {
        return None;
    }
    match base {
        "SV_CLIPDISTANCE" => Some(false),
        "SV_CULLDISTANCE" => Some(true),
        _ => None,
    }
}

/// How many floats a clip or cull distance of `ty` takes: a 32-bit float scalar or vector, or
/// an array of them; `None` for any other type.
fn distance_floats(ty: &Ty) -> Option<u32> {
    match ty {
        Ty::Scalar(Scalar::Float) => Some(1),
        Ty::Vector(Scalar::Float, n) => Some(*n),
        Ty::Array(e, n) if matches!(**e, Ty::Scalar(_) | Ty::Vector(..)) => {
            Some(n * distance_floats(e)?)
        }
        _ => None,
    }
}

/// A stage variable placed at the next free location: semantic, output, variable, location
/// and how many locations it takes.
type AutoLocated = (String, bool, Handle<GlobalVariable>, u32, u32);

/// How many locations a stage variable of `ty` takes: one per vector, two for a 64-bit
/// vector of three or four components.
fn location_count(ty: &Ty) -> u32 {
    match ty {
        Ty::Vector(s, n) if s.bits() == 64 && *n > 2 => 2,
        // One location per SPIR-V column: an HLSL `RxC` matrix is R vectors of C.
        Ty::Matrix(s, r, c) => r * location_count(&Ty::Vector(*s, *c)),
        Ty::Array(e, n) => n.saturating_mul(location_count(e)),
        _ => 1,
    }
}

/// The scalar a stage variable of `ty` is made of: a scalar, vector or matrix, or an array of
/// them; `None` for anything else.
fn stage_scalar(ty: &Ty) -> Option<Scalar> {
    match ty {
        Ty::Array(e, _) => stage_scalar(e),
        t => t.component(),
    }
}

impl FnCx<'_, '_> {
    /// The Input or Output variable of a semantic (created on first use), and its type.
    #[allow(clippy::too_many_arguments)]
    fn stage_var(
        &mut self,
        io: &mut Io,
        semantic: &str,
        ty: &Ty,
        output: bool,
        interp: Interp,
        at: StagePlace,
        span: Span,
    ) -> Option<(Handle<GlobalVariable>, Ty)> {
        let stage = self.st.opts.profile.stage;
        let (base, index) = split_semantic(semantic);
        if self.duplicate_semantic(io, semantic, output, span) {
            return None;
        }
        let u3 = Ty::Vector(Scalar::UInt, 3);
        // Integer built-ins take the declared signedness, as in DXC (`int` gives an `int`
        // variable); anything else is converted from a uint.
        let int_ty = match ty {
            Ty::Scalar(Scalar::Int | Scalar::UInt) => ty.clone(),
            _ => Ty::Scalar(Scalar::UInt),
        };
        let location = at.location;
        if let (Some(_), Some(_)) = (at.location, at.builtin) {
            self.st
                .error(span, "cannot use vk::builtin and vk::location together");
            return None;
        }
        let builtin = match (at.builtin, stage) {
            (Some(bi), ..) => Some(self.forced_builtin(bi, ty, output, span)?),
            (None, ..) => match (stage, output, base.as_str()) {
                (Stage::Compute, false, "SV_DISPATCHTHREADID") => {
                    Some((BuiltIn::GlobalInvocationId, u3, "gl_GlobalInvocationID"))
                }
                (Stage::Compute, false, "SV_GROUPID") => {
                    Some((BuiltIn::WorkgroupId, u3, "gl_WorkGroupID"))
                }
                (Stage::Compute, false, "SV_GROUPTHREADID") => {
                    Some((BuiltIn::LocalInvocationId, u3, "gl_LocalInvocationID"))
                }
                (Stage::Compute, false, "SV_GROUPINDEX") => Some((
                    BuiltIn::LocalInvocationIndex,
                    Ty::Scalar(Scalar::UInt),
                    "gl_LocalInvocationIndex",
                )),
                (Stage::Vertex, false, "SV_VERTEXID") => {
                    Some((BuiltIn::VertexIndex, int_ty, "gl_VertexIndex"))
                }
                (Stage::Vertex, false, "SV_INSTANCEID") => {
                    Some((BuiltIn::InstanceIndex, int_ty, "gl_InstanceIndex"))
                }
                (Stage::Vertex, false, "SV_STARTVERTEXLOCATION") => {
                    Some((BuiltIn::BaseVertex, int_ty, "gl_BaseVertex"))
                }
                (Stage::Vertex, false, "SV_STARTINSTANCELOCATION") => {
                    Some((BuiltIn::BaseInstance, int_ty, "gl_BaseInstance"))
                }
                (Stage::Vertex | Stage::Pixel, false, "SV_VIEWID") => {
                    Some((BuiltIn::ViewIndex, int_ty, "gl_ViewIndex"))
                }
                (Stage::Vertex, true, "SV_POSITION") => Some((
                    BuiltIn::Position,
                    Ty::Vector(Scalar::Float, 4),
                    "gl_Position",
                )),
                // Vertex outputs and pixel inputs; a vertex input is an ordinary located one.
                (Stage::Vertex, true, "SV_RENDERTARGETARRAYINDEX")
                | (Stage::Pixel, false, "SV_RENDERTARGETARRAYINDEX") => {
                    Some((BuiltIn::Layer, int_ty, "gl_Layer"))
                }
                (Stage::Vertex, true, "SV_VIEWPORTARRAYINDEX")
                | (Stage::Pixel, false, "SV_VIEWPORTARRAYINDEX") => {
                    Some((BuiltIn::ViewportIndex, int_ty, "gl_ViewportIndex"))
                }
                (Stage::Vertex, true, "SV_SHADINGRATE") => Some((
                    BuiltIn::PrimitiveShadingRateKHR,
                    int_ty,
                    "gl_PrimitiveShadingRateEXT",
                )),
                (Stage::Pixel, false, "SV_SHADINGRATE") => {
                    Some((BuiltIn::ShadingRateKHR, int_ty, "gl_ShadingRateEXT"))
                }
                (Stage::Pixel, false, "SV_POSITION") => Some((
                    BuiltIn::FragCoord,
                    Ty::Vector(Scalar::Float, 4),
                    "gl_FragCoord",
                )),
                (Stage::Pixel, false, "SV_ISFRONTFACE") => Some((
                    BuiltIn::FrontFacing,
                    Ty::Scalar(Scalar::Bool),
                    "gl_FrontFacing",
                )),
                (Stage::Pixel, false, "SV_PRIMITIVEID") => {
                    Some((BuiltIn::PrimitiveId, int_ty, "gl_PrimitiveID"))
                }
                (Stage::Pixel, false, "SV_SAMPLEINDEX") => {
                    Some((BuiltIn::SampleId, int_ty, "gl_SampleID"))
                }
                // SampleMask is an array (of one word for up to 32 samples).
                (Stage::Pixel, _, "SV_COVERAGE") => Some((
                    BuiltIn::SampleMask,
                    Ty::Array(Box::new(Ty::Scalar(Scalar::UInt)), 1),
                    "gl_SampleMask",
                )),
                (Stage::Pixel, false, "SV_INNERCOVERAGE") => {
                    if *ty != Ty::Scalar(Scalar::UInt) {
                        self.st
                            .error(span, "SV_InnerCoverage must be of uint type.");
                        return None;
                    }
                    Some((
                        BuiltIn::FullyCoveredEXT,
                        Ty::Scalar(Scalar::Bool),
                        "gl_FullyCoveredEXT",
                    ))
                }
                (Stage::Pixel, false, "SV_BARYCENTRICS") => {
                    let f3 = Ty::Vector(Scalar::Float, 3);
                    if *ty != f3 {
                        self.st.error(
                            span,
                            format!(
                                "not supported yet: the semantic '{semantic}' of type '{}' (only \
                             float3)",
                                self.show(ty)
                            ),
                        );
                        return None;
                    }
                    // The KHR extension, as DXC (the grammar lists the NV one first).
                    self.f.extension("SPV_KHR_fragment_shader_barycentric");
                    // The interpolation picks the built-in; centroid and sample stay decorations.
                    if interp.noperspective {
                        Some((BuiltIn::BaryCoordNoPerspKHR, f3, "gl_BaryCoordNoPerspEXT"))
                    } else {
                        Some((BuiltIn::BaryCoordKHR, f3, "gl_BaryCoordEXT"))
                    }
                }
                (Stage::Pixel, true, "SV_DEPTH" | "SV_DEPTHLESSEQUAL" | "SV_DEPTHGREATEREQUAL") => {
                    io.depth_replacing = true;
                    // The conservative-depth semantics promise the direction of the change.
                    io.depth_mode = match base.as_str() {
                        "SV_DEPTHLESSEQUAL" => Some(ExecutionMode::DepthLess),
                        "SV_DEPTHGREATEREQUAL" => Some(ExecutionMode::DepthGreater),
                        _ => io.depth_mode.clone(),
                    };
                    Some((
                        BuiltIn::FragDepth,
                        Ty::Scalar(Scalar::Float),
                        "gl_FragDepth",
                    ))
                }
                (Stage::Pixel, true, "SV_STENCILREF") => {
                    Some((BuiltIn::FragStencilRefEXT, int_ty, "gl_FragStencilRefARB"))
                }
                _ => None,
            },
        };
        let bad_position = base == "SV_POSITION"
            && builtin.is_some()
            && *ty != Ty::Vector(Scalar::Float, 4)
            && ty.component().is_some_and(|s| s.bits() != 16);
        if bad_position {
            self.st.error(
                span,
                "SV_Position must be a 4-component 32-bit float vector or a composite which \
                 recursively contains only such a vector",
            );
            return None;
        }
        if builtin.is_some() && ty.component().is_some_and(|s| s.bits() == 16) {
            // Built-ins have fixed 32-bit types: a 16-bit one would need a conversion DXC
            // does not make.
            let msg = if base == "SV_POSITION" {
                "SV_Position must be a 4-component 32-bit float vector or a composite which \
                 recursively contains only such a vector"
                    .to_owned()
            } else {
                format!(
                    "the semantic '{semantic}' needs a 32-bit type, not '{}'",
                    self.show(ty)
                )
            };
            self.st.error(span, msg);
            return None;
        }
        let sc = if output {
            StorageClass::Output
        } else {
            StorageClass::Input
        };
        if stage == Stage::Vertex
            && output
            && matches!(
                base.as_str(),
                "SV_RENDERTARGETARRAYINDEX" | "SV_VIEWPORTARRAYINDEX"
            )
        {
            // Core from SPIR-V 1.5 (Vulkan 1.2), by SPV_EXT_shader_viewport_index_layer
            // before, as DXC chooses: declared here, the requirements pass keeps the choice.
            let core = self.st.opts.target_env.spirv_version() >= crate::grammar::Version(1, 5);
            self.f.capability(match (core, base.as_str()) {
                (false, _) => Capability::ShaderViewportIndexLayerEXT,
                (true, "SV_RENDERTARGETARRAYINDEX") => Capability::ShaderLayer,
                (true, _) => Capability::ShaderViewportIndex,
            });
        }
        let (var_ty, name, decorations, auto_loc) = match builtin {
            Some((bi, t, n)) => {
                let mut d = vec![Decoration::BuiltIn(bi)];
                // Integer pixel inputs are flat, built-ins too (as DXC decorates them).
                let int = stage_scalar(&t).is_some_and(|s| s.is_int());
                if stage == Stage::Pixel && !output && int {
                    d.push(Decoration::Flat);
                }
                if base == "SV_BARYCENTRICS" {
                    if interp.centroid {
                        d.push(Decoration::Centroid);
                    }
                    if interp.sample {
                        d.push(Decoration::Sample);
                    }
                }
                (t, n.to_owned(), d, None)
            }
            None => {
                if base.starts_with("SV_") && !located_sv(stage, output, &base) {
                    self.st.error(
                        span,
                        format!("not supported yet: the semantic '{semantic}' here"),
                    );
                    return None;
                }
                if stage == Stage::Compute {
                    self.st.error(
                        span,
                        format!(
                            "compute shader inputs need a system-value semantic, not '{semantic}'"
                        ),
                    );
                    return None;
                }
                let plain = matches!(ty, Ty::Scalar(_) | Ty::Vector(..));
                if !plain && stage_scalar(ty).is_none_or(|s| s == Scalar::Bool) {
                    self.st.error(
                        span,
                        format!(
                            "not supported yet: stage variables of type '{}'",
                            self.show(ty)
                        ),
                    );
                    return None;
                }
                let dir = usize::from(output);
                let count = location_count(ty);
                let automatic = base != "SV_TARGET" && location.is_none();
                let loc = if let Some(l) = location {
                    // A render target's too (`[[vk::location(0), vk::index(1)]]` for
                    // dual-source blending), as DXC.
                    if base != "SV_TARGET" {
                        io.explicit[dir].get_or_insert(span);
                    }
                    l
                } else if base == "SV_TARGET" {
                    index
                } else {
                    io.implicit[dir] = true;
                    let next = if output {
                        &mut self.st.next_out_location
                    } else {
                        &mut self.st.next_in_location
                    };
                    let l = *next;
                    *next += count;
                    l
                };
                let blend = at.index.unwrap_or(0);
                for l in loc..loc + count {
                    if let Some((_, _, by)) = io.taken[dir]
                        .iter()
                        .find(|(t, i, _)| (*t, *i) == (l, blend))
                    {
                        let what = if output { "output" } else { "input" };
                        let by = by.clone();
                        self.st.error(
                            span,
                            format!(
                                "stage {what} location #{l} already consumed by semantic '{by}'"
                            ),
                        );
                        return None;
                    }
                }
                io.taken[dir].extend((loc..loc + count).map(|l| (l, blend, semantic.to_owned())));
                let is_int = stage_scalar(ty).is_some_and(|s| !s.is_float());
                if stage == Stage::Pixel
                    && !output
                    && is_int
                    && (interp.linear || interp.centroid || interp.noperspective || interp.sample)
                {
                    self.st.error(
                        span,
                        "only nointerpolation mode allowed for integer input parameters in pixel \
                         shader",
                    );
                    return None;
                }
                let mut d = vec![Decoration::Location(loc)];
                if let Some(i) = at.index {
                    // DXC's checks of dual-source blending.
                    let why = if !(output && stage == Stage::Pixel) {
                        Some("vk::index only allowed in pixel shader outputs")
                    } else if location.is_none() {
                        Some(
                            "vk::index should be used together with vk::location for \
                             dual-source blending",
                        )
                    } else if loc != 0 {
                        Some("dual-source blending should use vk::location 0")
                    } else if i > 1 {
                        Some("dual-source blending only accepts 0 or 1 as vk::index")
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        self.st.error(span, why);
                        return None;
                    }
                    d.push(Decoration::Index(i));
                }
                if interp.flat || (stage == Stage::Pixel && !output && is_int) {
                    d.push(Decoration::Flat);
                }
                if interp.noperspective {
                    d.push(Decoration::NoPerspective);
                }
                if interp.centroid {
                    d.push(Decoration::Centroid);
                }
                if interp.sample {
                    d.push(Decoration::Sample);
                }
                let prefix = if output { "out.var." } else { "in.var." };
                // A bool crosses stages as a uint (flat), as DXC passes it.
                let var_ty = if ty.component() == Some(Scalar::Bool) {
                    ty.with_component(Scalar::UInt)
                } else {
                    ty.clone()
                };
                (
                    var_ty,
                    format!("{prefix}{semantic}"),
                    d,
                    automatic.then_some(loc),
                )
            }
        };
        let mut decorations = decorations;
        if self.st.opts.reflect {
            // SPV_GOOGLE_hlsl_functionality1: the semantic as written.
            decorations.push(Decoration::UserSemantic(semantic.to_owned()));
        }
        let t = ir_ty(&mut self.f, self.st, &var_ty, LayoutRule::None, false);
        let p = self.f.type_pointer(sc, t);
        let g = self.f.global(GlobalVariable {
            name: Some(name),
            decorations,
            ..GlobalVariable::new(p, sc)
        });
        io.vars
            .push((semantic.to_owned(), output, g, var_ty.clone()));
        if let Some(l) = auto_loc {
            io.auto_located
                .push((semantic.to_owned(), output, g, l, location_count(&var_ty)));
        }
        self.st.interface.push(g);
        Some((g, var_ty))
    }

    /// The built-in `[[vk::builtin("...")]]` asks for, with its variable's type and name, where
    /// DXC allows it: `PointSize` as a vertex output `float`, `HelperInvocation` as a pixel
    /// input `bool`, `BaseVertex`/`BaseInstance`/`DrawIndex` as vertex inputs and
    /// `DeviceIndex` as any input (`int` or `uint`).
    fn forced_builtin(
        &mut self,
        bi: BuiltIn,
        ty: &Ty,
        output: bool,
        span: Span,
    ) -> Option<(BuiltIn, Ty, &'static str)> {
        let stage = self.st.opts.profile.stage;
        let int = matches!(ty, Ty::Scalar(Scalar::Int | Scalar::UInt));
        let (fits, typed, name) = match bi {
            BuiltIn::PointSize => (
                stage == Stage::Vertex && output,
                *ty == Ty::Scalar(Scalar::Float),
                "gl_PointSize",
            ),
            BuiltIn::HelperInvocation => (
                stage == Stage::Pixel && !output,
                *ty == Ty::Scalar(Scalar::Bool),
                "gl_HelperInvocation",
            ),
            BuiltIn::BaseVertex => (stage == Stage::Vertex && !output, int, "gl_BaseVertex"),
            BuiltIn::BaseInstance => (stage == Stage::Vertex && !output, int, "gl_BaseInstance"),
            BuiltIn::DrawIndex => (stage == Stage::Vertex && !output, int, "gl_DrawID"),
            BuiltIn::DeviceIndex => (!output, int, "gl_DeviceIndex"),
            _ => (false, false, ""),
        };
        if !fits {
            let dir = if output { "an output" } else { "an input" };
            self.st.error(
                span,
                format!("not supported yet: [[vk::builtin(\"{bi}\")]] as {dir} of this stage"),
            );
            return None;
        }
        if !typed {
            self.st.error(
                span,
                format!(
                    "[[vk::builtin(\"{bi}\")]] cannot be of type '{}'",
                    self.show(ty)
                ),
            );
            return None;
        }
        Some((bi, ty.clone(), name))
    }

    /// Reports a semantic the direction already used; semantics compare without case, a
    /// missing index being 0 (`SV_Target` is `SV_Target0`).
    fn duplicate_semantic(&mut self, io: &Io, semantic: &str, output: bool, span: Span) -> bool {
        let key = split_semantic(semantic);
        if io
            .vars
            .iter()
            .any(|(s, o, _, _)| *o == output && split_semantic(s) == key)
        {
            let dir = if output { "output" } else { "input" };
            self.st.error(
                span,
                format!("{dir} semantic '{semantic}' used more than once"),
            );
            return true;
        }
        false
    }

    /// Collects the clip and cull distances under a stage input or output of `ty` (output,
    /// cull, semantic index, float count), walking structs as the loads and stores do.
    fn collect_distances(
        &self,
        ty: &Ty,
        semantic: Option<&str>,
        output: bool,
        out: &mut Vec<(bool, bool, u32, u32)>,
    ) {
        if let Ty::Struct(i) = ty {
            let Some(def) = self.st.types.structs.get(*i) else {
                return;
            };
            let inherited = self.inherited_semantics(semantic, &def.fields);
            for (f, sem) in def.fields.iter().zip(&inherited) {
                let sem = sem.as_deref().or(f.semantic.as_deref());
                self.collect_distances(&f.ty, sem, output, out);
            }
            return;
        }
        let Some(sem) = semantic else { return };
        let (base, index) = split_semantic(sem);
        let stage = self.st.opts.profile.stage;
        if let (Some(cull), Some(n)) = (clip_cull_kind(stage, output, &base), distance_floats(ty)) {
            if !out.iter().any(|e| (e.0, e.1, e.2) == (output, cull, index)) {
                out.push((output, cull, index, n));
            }
        }
    }

    /// Creates the ClipDistance and CullDistance arrays of the stage: per direction and kind,
    /// the semantics in the order of their indices, packed tightly (DXC's layout).
    fn distance_arrays(&mut self, io: &mut Io, mut found: Vec<(bool, bool, u32, u32)>) {
        found.sort_by_key(|e| (e.0, e.1, e.2));
        for output in [false, true] {
            for cull in [false, true] {
                let group: Vec<_> = found
                    .iter()
                    .filter(|e| e.0 == output && e.1 == cull)
                    .collect();
                let total: u32 = group.iter().map(|e| e.3).sum();
                if total == 0 {
                    continue;
                }
                let sc = if output {
                    StorageClass::Output
                } else {
                    StorageClass::Input
                };
                let (builtin, name, sem) = if cull {
                    (BuiltIn::CullDistance, "gl_CullDistance", "SV_CullDistance")
                } else {
                    (BuiltIn::ClipDistance, "gl_ClipDistance", "SV_ClipDistance")
                };
                let mut decorations = vec![Decoration::BuiltIn(builtin)];
                if self.st.opts.reflect {
                    decorations.push(Decoration::UserSemantic(sem.to_owned()));
                }
                let arr = Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), total);
                let t = self.ty(&arr);
                let p = self.f.type_pointer(sc, t);
                let var = self.f.global(GlobalVariable {
                    name: Some(name.to_owned()),
                    decorations,
                    ..GlobalVariable::new(p, sc)
                });
                self.st.interface.push(var);
                let mut offset = 0;
                for e in group {
                    io.clip_cull.push(ClipCull {
                        output,
                        cull,
                        index: e.2,
                        offset,
                        var,
                    });
                    offset += e.3;
                }
            }
        }
    }

    /// The clip or cull distance array and the offset in it of `semantic` (of `ty`), after
    /// checking its type and that the direction has not used it yet.
    fn distance_place(
        &mut self,
        io: &mut Io,
        semantic: &str,
        ty: &Ty,
        output: bool,
        span: Span,
    ) -> Option<(Handle<GlobalVariable>, u32)> {
        let (base, index) = split_semantic(semantic);
        let cull = base == "SV_CULLDISTANCE";
        if distance_floats(ty).is_none() {
            let what = if cull {
                "SV_CullDistance"
            } else {
                "SV_ClipDistance"
            };
            self.st.error(
                span,
                format!(
                    "elements for {what} variable must be scalar, vector, or array with float \
                     type, not '{}'",
                    self.show(ty)
                ),
            );
            return None;
        }
        if self.duplicate_semantic(io, semantic, output, span) {
            return None;
        }
        let e = io
            .clip_cull
            .iter()
            .find(|e| (e.output, e.cull, e.index) == (output, cull, index))?;
        let place = (e.var, e.offset);
        io.vars
            .push((semantic.to_owned(), output, place.0, ty.clone()));
        Some(place)
    }

    /// Reads a clip or cull distance input of `ty` element by element from the array, from
    /// element `*k` on.
    fn read_distance(&mut self, var: Handle<GlobalVariable>, ty: &Ty, k: &mut u32) -> Value {
        match ty {
            Ty::Vector(_, n) | Ty::Array(_, n) => {
                let elem = match ty {
                    Ty::Array(e, _) => (**e).clone(),
                    _ => Ty::Scalar(Scalar::Float),
                };
                let parts: Vec<Value> =
                    (0..*n).map(|_| self.read_distance(var, &elem, k)).collect();
                let t = self.ty(ty);
                self.f.composite_construct(t, &parts)
            }
            _ => {
                let ft = self.ty(&Ty::Scalar(Scalar::Float));
                let pt = self.f.type_pointer(StorageClass::Input, ft);
                let i = Value::Constant(self.f.constant_u32(*k));
                *k += 1;
                let ptr = self.f.access_chain(pt, Value::Global(var), &[i]);
                self.f.load(ft, ptr, None)
            }
        }
    }

    /// Writes a clip or cull distance output `v` of `ty` element by element into the array
    /// from element `offset` on (array elements at a computed offset, as DXC writes them).
    fn write_distance(&mut self, var: Handle<GlobalVariable>, v: Value, ty: &Ty, offset: u32) {
        let ft = self.ty(&Ty::Scalar(Scalar::Float));
        let pt = self.f.type_pointer(StorageClass::Output, ft);
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        match ty {
            Ty::Array(e, n) => {
                let per = distance_floats(e).unwrap_or(1);
                let start = Value::Constant(self.f.constant_u32(offset));
                for i in 0..*n {
                    let step = Value::Constant(self.f.constant_u32(i * per));
                    let base = self.f.i_add(ut, start, step);
                    for j in 0..per {
                        let c = Value::Constant(self.f.constant_u32(j));
                        let idx = self.f.i_add(ut, base, c);
                        let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                        let path = if per == 1 && matches!(**e, Ty::Scalar(_)) {
                            vec![i]
                        } else {
                            vec![i, j]
                        };
                        let x = self.f.composite_extract(ft, v, path);
                        self.f.store(ptr, x, None);
                    }
                }
            }
            Ty::Vector(_, n) => {
                for j in 0..*n {
                    let idx = Value::Constant(self.f.constant_u32(offset + j));
                    let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                    let x = self.f.composite_extract(ft, v, vec![j]);
                    self.f.store(ptr, x, None);
                }
            }
            _ => {
                let idx = Value::Constant(self.f.constant_u32(offset));
                let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                self.f.store(ptr, v, None);
            }
        }
    }

    /// The Input variable of the `BaseInstance` or `BaseVertex` built-in, of type `ty`
    /// (created on first use).
    fn base_var(
        &mut self,
        io: &mut Io,
        builtin: BuiltIn,
        name: &str,
        ty: &Ty,
    ) -> Handle<GlobalVariable> {
        let key = format!("{name}.base");
        if let Some((_, _, g, _)) = io.vars.iter().find(|(s, o, _, _)| *s == key && !*o) {
            return *g;
        }
        let t = ir_ty(&mut self.f, self.st, ty, LayoutRule::None, false);
        let p = self.f.type_pointer(StorageClass::Input, t);
        let g = self.f.global(GlobalVariable {
            name: Some(name.to_owned()),
            decorations: vec![Decoration::BuiltIn(builtin)],
            ..GlobalVariable::new(p, StorageClass::Input)
        });
        io.vars.push((key, false, g, ty.clone()));
        self.st.interface.push(g);
        g
    }

    /// The semantics a struct's fields take from a semantic on the struct itself (DXC: it
    /// overrides theirs, the index counting up through the flattened fields: `: TEXCOORD2`
    /// gives `TEXCOORD2`, `TEXCOORD3`...); `None` each when the struct has none.
    fn inherited_semantics(
        &self,
        semantic: Option<&str>,
        fields: &[crate::hlsl::sema::types::Field],
    ) -> Vec<Option<String>> {
        let Some(sem) = semantic else {
            return vec![None; fields.len()];
        };
        let base = sem.trim_end_matches(|c: char| c.is_ascii_digit());
        let mut index: u32 = sem[base.len()..].parse().unwrap_or(0);
        let explicit = sem.len() > base.len();
        let mut out = Vec::with_capacity(fields.len());
        for f in fields {
            out.push(Some(if index == 0 && !explicit {
                base.to_owned()
            } else {
                format!("{base}{index}")
            }));
            index += self.leaf_count(&f.ty);
        }
        out
    }

    /// Refuses a field declared as a 1xN or Nx1 matrix (collapsed to a vector) with the
    /// semantic `SV_Position`, as DXC does.
    fn matrix_positions(
        &mut self,
        fields: &[crate::hlsl::sema::types::Field],
        inherited: &[Option<String>],
        span: Span,
    ) -> Option<()> {
        for (f, sem) in fields.iter().zip(inherited) {
            let sem = sem.as_deref().or(f.semantic.as_deref()).unwrap_or("");
            if f.row_depth.is_some() && split_semantic(sem).0 == "SV_POSITION" {
                self.st.error(
                    span,
                    "SV_Position must be a 4-component 32-bit float vector or a composite \
                     which recursively contains only such a vector",
                );
                return None;
            }
        }
        Some(())
    }

    /// How many stage variables a value of `ty` flattens into.
    fn leaf_count(&self, ty: &Ty) -> u32 {
        match ty {
            Ty::Struct(i) => self
                .st
                .types
                .structs
                .get(*i)
                .map_or(1, |d| d.fields.iter().map(|f| self.leaf_count(&f.ty)).sum()),
            _ => 1,
        }
    }

    /// Loads a stage input of `ty` (a struct is loaded field by field).
    fn load_input(
        &mut self,
        io: &mut Io,
        ty: &Ty,
        semantic: Option<&str>,
        interp: Interp,
        at: StagePlace,
        span: Span,
    ) -> Option<Value> {
        if let Ty::Struct(i) = ty {
            if self.bitfield_struct(*i, span) {
                return None;
            }
            let fields = self.st.types.structs.get(*i)?.fields.clone();
            let inherited = self.inherited_semantics(semantic, &fields);
            self.matrix_positions(&fields, &inherited, span)?;
            let mut parts = Vec::new();
            for (f, sem) in fields.iter().zip(&inherited) {
                parts.push(self.load_input(
                    io,
                    &f.ty,
                    sem.as_deref().or(f.semantic.as_deref()),
                    f.interp,
                    StagePlace {
                        location: f.location,
                        index: f.index,
                        builtin: f.builtin,
                    },
                    span,
                )?);
            }
            let t = self.ty(ty);
            return Some(self.f.composite_construct(t, &parts));
        }
        let Some(sem) = semantic else {
            self.st
                .error(span, "an entry point parameter needs a semantic");
            return None;
        };
        let stage = self.st.opts.profile.stage;
        if clip_cull_kind(stage, false, &split_semantic(sem).0).is_some() {
            let (var, mut k) = self.distance_place(io, sem, ty, false, span)?;
            return Some(self.read_distance(var, ty, &mut k));
        }
        let (g, vt) = self.stage_var(io, sem, ty, false, interp, at, span)?;
        let t = self.ty(&vt);
        let mut v = self.f.load(t, Value::Global(g), None);
        let sem_base = split_semantic(sem).0;
        if stage == Stage::Pixel && sem_base == "SV_COVERAGE" {
            // The mask of up to 32 samples is the array's one element.
            let ut = Ty::Scalar(Scalar::UInt);
            let u = self.ty(&ut);
            let x = self.f.composite_extract(u, v, vec![0]);
            return self.convert(x, &ut, ty, span, true);
        }
        if stage == Stage::Pixel && sem_base == "SV_BARYCENTRICS" {
            // As DXC: the third weight is rebuilt as 1 - x - y.
            let ft = self.ty(&Ty::Scalar(Scalar::Float));
            let x = self.f.composite_extract(ft, v, vec![0]);
            let y = self.f.composite_extract(ft, v, vec![1]);
            let xy = self.f.f_add(ft, x, y);
            let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
            let z = self.f.f_sub(ft, one, xy);
            v = self.f.composite_construct(t, &[x, y, z]);
        }
        let base = match split_semantic(sem).0.as_str() {
            "SV_INSTANCEID" if self.st.opts.nonzero_base_instance => {
                Some((BuiltIn::BaseInstance, "gl_BaseInstance"))
            }
            "SV_VERTEXID" if self.st.opts.nonzero_base_vertex => {
                Some((BuiltIn::BaseVertex, "gl_BaseVertex"))
            }
            _ => None,
        };
        if let (Stage::Vertex, Some((builtin, name))) = (stage, base) {
            // Vulkan's InstanceIndex and VertexIndex count from the draw's first instance
            // and vertex; DirectX's SV_InstanceID and SV_VertexID from 0.
            let g = self.base_var(io, builtin, name, &vt);
            let b = self.f.load(t, Value::Global(g), None);
            v = self.f.i_sub(t, v, b);
        }
        if self.st.opts.dx_position_w && stage == Stage::Pixel && is_position(sem) {
            // DirectX's SV_Position.w is 1/w of Vulkan's FragCoord.w.
            let ft = self.ty(&Ty::Scalar(Scalar::Float));
            let w = self.f.composite_extract(ft, v, vec![3]);
            let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
            let inv = self.f.f_div(ft, one, w);
            v = self.f.composite_insert(t, inv, v, vec![3]);
        }
        self.convert(v, &vt, ty, span, true)
    }

    /// Stores a stage output of `ty`.
    #[allow(clippy::too_many_arguments)]
    fn store_output(
        &mut self,
        io: &mut Io,
        v: Value,
        ty: &Ty,
        semantic: Option<&str>,
        interp: Interp,
        at: StagePlace,
        span: Span,
    ) {
        if let Ty::Struct(i) = ty {
            if self.bitfield_struct(*i, span) {
                return;
            }
            let Some(def) = self.st.types.structs.get(*i) else {
                return;
            };
            let fields = def.fields.clone();
            let inherited = self.inherited_semantics(semantic, &fields);
            if self.matrix_positions(&fields, &inherited, span).is_none() {
                return;
            }
            for (k, (f, sem)) in fields.iter().zip(&inherited).enumerate() {
                let ft = self.ty(&f.ty);
                let x = self.f.composite_extract(ft, v, vec![k as u32]);
                self.store_output(
                    io,
                    x,
                    &f.ty,
                    sem.as_deref().or(f.semantic.as_deref()),
                    f.interp,
                    StagePlace {
                        location: f.location,
                        index: f.index,
                        builtin: f.builtin,
                    },
                    span,
                );
            }
            return;
        }
        let Some(sem) = semantic else {
            self.st
                .error(span, "an entry point output needs a semantic");
            return;
        };
        let stage = self.st.opts.profile.stage;
        if clip_cull_kind(stage, true, &split_semantic(sem).0).is_some() {
            if let Some((var, offset)) = self.distance_place(io, sem, ty, true, span) {
                self.write_distance(var, v, ty, offset);
            }
            return;
        }
        let Some((g, vt)) = self.stage_var(io, sem, ty, true, interp, at, span) else {
            return;
        };
        if stage == Stage::Pixel && split_semantic(sem).0 == "SV_COVERAGE" {
            // The mask of up to 32 samples is the array's one element.
            let ut = Ty::Scalar(Scalar::UInt);
            let Some(x) = self.convert(v, ty, &ut, span, true) else {
                return;
            };
            let u = self.ty(&ut);
            let pt = self.f.type_pointer(StorageClass::Output, u);
            let zero = Value::Constant(self.f.constant_u32(0));
            let ptr = self.f.access_chain(pt, Value::Global(g), &[zero]);
            self.f.store(ptr, x, None);
            return;
        }
        let Some(mut x) = self.convert(v, ty, &vt, span, true) else {
            return;
        };
        if self.st.opts.invert_y && self.st.opts.profile.stage == Stage::Vertex && is_position(sem)
        {
            // Vulkan's y axis points down where DirectX's points up.
            let ft = self.ty(&Ty::Scalar(Scalar::Float));
            let t = self.ty(&vt);
            let y = self.f.composite_extract(ft, x, vec![1]);
            let neg = self.f.f_negate(ft, y);
            x = self.f.composite_insert(t, neg, x, vec![1]);
        }
        self.f.store(Value::Global(g), x, None);
    }
}

/// Whether a semantic is `SV_Position` (any case, any index).
fn is_position(semantic: &str) -> bool {
    split_semantic(semantic).0 == "SV_POSITION"
}

/// Where a stage variable goes, when the source says: `[[vk::location(N)]]`, or
/// `[[vk::builtin("...")]]`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StagePlace {
    pub location: Option<u32>,
    /// `[[vk::index(N)]]` of a fragment output (dual-source blending).
    pub index: Option<u32>,
    pub builtin: Option<BuiltIn>,
}

/// The [`StagePlace`] of a parameter or function from its attributes.
fn stage_place(st: &mut State, attrs: &[Attribute]) -> StagePlace {
    let vk = |name: &str| {
        attrs
            .iter()
            .find(|a| a.name.name == name && a.namespace.as_ref().is_some_and(|n| n.name == "vk"))
    };
    StagePlace {
        location: vk("location")
            .and_then(|a| a.args.first())
            .and_then(|e| st.const_eval(e))
            .and_then(ConstVal::as_int)
            .map(|v| v as u32),
        index: vk("index")
            .and_then(|a| a.args.first())
            .and_then(|e| st.const_eval(e))
            .and_then(ConstVal::as_int)
            .map(|v| v as u32),
        builtin: match vk("builtin").map(|a| (a, crate::hlsl::sema::decls::builtin_attr(a))) {
            Some((_, Ok(b))) => Some(b),
            Some((a, Err(e))) => {
                st.error(a.span, e);
                None
            }
            None => None,
        },
    }
}

/// `-fvk-stage-io-order=alpha`: the inputs, then the outputs, that took the next free
/// location get the same locations again, given out in the alphabetical order of their
/// semantics (as written, compared byte by byte, as DXC sorts them).
fn alpha_locations(b: &mut Builder, vars: &[AutoLocated]) {
    for output in [false, true] {
        let mut side: Vec<_> = vars.iter().filter(|v| v.1 == output).collect();
        // The same block of locations, handed out again in semantic order (a 64-bit vector
        // of three or four components takes two).
        let mut next = side.iter().map(|v| v.3).min().unwrap_or(0);
        side.sort_by(|x, y| x.0.cmp(&y.0));
        for v in side {
            let loc = next;
            next += v.4;
            let g = &mut b.module_mut().globals[v.2];
            for d in &mut g.decorations {
                if let Decoration::Location(l) = d {
                    *l = loc;
                }
            }
        }
    }
}

/// Emits the wrapper `main` around the source entry function.
pub(crate) fn emit_wrapper(st: &mut State, b: &mut Builder, entry: &FuncSym) {
    let Some(Item::Function(decl)) = st.unit.items.get(entry.item) else {
        return;
    };
    let Some(src) = entry.handle else { return };
    let stage = st.opts.profile.stage;
    let void = b.type_void();
    let fty = b.type_function(void, &[]);
    let f = b.function(fty, FunctionControl::None);
    let handle = f.handle();
    let mut cx = FnCx::new(f, st, Ty::Void);
    let mut io = Io {
        vars: Vec::new(),
        depth_replacing: false,
        depth_mode: None,
        taken: [Vec::new(), Vec::new()],
        explicit: [None, None],
        implicit: [false, false],
        auto_located: Vec::new(),
        clip_cull: Vec::new(),
    };
    // The clip and cull distance arrays need every semantic's size before the first access.
    let mut distances = Vec::new();
    for (p, (ty, dir)) in decl.params.iter().zip(&entry.params) {
        let sem = crate::hlsl::sema::decls::semantic_of(&p.annotations);
        if *dir != ParamDir::Out {
            cx.collect_distances(ty, sem.as_deref(), false, &mut distances);
        }
        if *dir != ParamDir::In {
            cx.collect_distances(ty, sem.as_deref(), true, &mut distances);
        }
    }
    let ret_sem = crate::hlsl::sema::decls::semantic_of(&decl.annotations);
    cx.collect_distances(&entry.ret, ret_sem.as_deref(), true, &mut distances);
    cx.distance_arrays(&mut io, distances);
    // `static` initializers run first.
    let inits = cx.st.static_inits.clone();
    let unit = cx.st.unit;
    for (place, idx, k) in inits {
        let init = match unit.items.get(idx) {
            Some(Item::Variables(v)) => v.declarators.get(k).and_then(|d| d.init.as_ref()),
            _ => None,
        };
        if let Some(init) = init {
            if let Some(v) = cx.initializer(init, &place.ty) {
                cx.f.store(place.ptr, v, None);
            }
        }
    }
    let mut args = Vec::new();
    let mut outs = Vec::new();
    for (p, (ty, dir)) in decl.params.iter().zip(&entry.params) {
        let name = p.name.as_ref().map_or(String::new(), |n| n.name.clone());
        let sem = crate::hlsl::sema::decls::semantic_of(&p.annotations);
        let interp = crate::hlsl::sema::decls::interp_of(&p.modifiers);
        let loc = stage_place(cx.st, &p.attributes);
        let tmp = cx.local(ty, &format!("param.var.{name}"));
        if *dir != ParamDir::Out {
            let at = p.name.as_ref().map_or(p.span, |n| n.span);
            if let Some(v) = cx.load_input(&mut io, ty, sem.as_deref(), interp, loc, at) {
                cx.f.store(tmp, v, None);
            }
        }
        if *dir != ParamDir::In {
            outs.push((tmp, ty.clone(), sem, interp, loc, p.span));
        }
        args.push(tmp);
    }
    let rt = cx.ty(&entry.ret);
    // Rasterizer-ordered views: the whole shader is the critical section of the fragment
    // shader interlock (entered and left once, in the entry point, as Vulkan requires; the
    // accesses DXC's optimizer gathers into one section all lie inside it).
    let interlock = cx.st.interlock.is_some() && cx.st.opts.profile.stage == Stage::Pixel;
    if interlock {
        cx.f.begin_invocation_interlock_ext();
    }
    let r = cx.f.function_call(rt, Value::Function(src), &args);
    if interlock {
        cx.f.end_invocation_interlock_ext();
    }
    if entry.ret != Ty::Void {
        let sem = crate::hlsl::sema::decls::semantic_of(&decl.annotations);
        let ret = entry.ret.clone();
        // `[[vk::location(N)]]` before the function places its return value.
        let loc = stage_place(cx.st, &decl.attributes);
        cx.store_output(
            &mut io,
            r,
            &ret,
            sem.as_deref(),
            Interp::default(),
            loc,
            decl.span,
        );
    }
    for (tmp, ty, sem, interp, loc, span) in outs {
        let t = cx.ty(&ty);
        let v = cx.f.load(t, tmp, None);
        cx.store_output(&mut io, v, &ty, sem.as_deref(), interp, loc, span);
    }
    // DXC assigns locations either all explicitly or all implicitly, per direction.
    for (dir, what) in ["input", "output"].iter().enumerate() {
        if let (Some(span), true) = (io.explicit[dir], io.implicit[dir]) {
            cx.st.error(
                span,
                format!(
                    "partial explicit stage {what} location assignment via vk::location(X) \
                     unsupported"
                ),
            );
        }
    }
    cx.f.ret();
    cx.terminated = true;
    cx.finish();
    if st.opts.stage_io_alpha {
        alpha_locations(b, &io.auto_located);
    }
    let name = st.opts.entry.clone();
    b.name_function(handle, &name);
    let model = match stage {
        Stage::Compute => ExecutionModel::GLCompute,
        Stage::Vertex => ExecutionModel::Vertex,
        Stage::Pixel => ExecutionModel::Fragment,
    };
    let interface = st.interface.clone();
    b.entry_point(model, handle, &name, &interface);
    if st.opts.maximal_reconvergence {
        // Newer than the bundled grammar: by name, where the grammar spvkit was built from
        // has it (its extension follows from the grammar).
        match "MaximallyReconvergesKHR".parse::<ExecutionMode>() {
            Ok(m) => b.execution_mode(handle, m),
            Err(_) => st.error(
                Span::whole_file(Default::default()),
                "not supported yet: -fspv-enable-maximal-reconvergence: the SPIR-V grammar spvkit \
                 was built from has no MaximallyReconvergesKHR execution mode (build with \
                 SPIRV_GRAMMAR_DIR naming a newer grammar)",
            ),
        }
    }
    // `-denorm`: for 32-bit floats only, as DXC.
    match st.opts.denorm {
        crate::hlsl::Denorm::Any => {}
        crate::hlsl::Denorm::Preserve => {
            b.execution_mode(handle, ExecutionMode::DenormPreserve(32));
        }
        crate::hlsl::Denorm::FlushToZero => {
            b.execution_mode(handle, ExecutionMode::DenormFlushToZero(32));
        }
    }
    match stage {
        Stage::Compute => {
            let nt = decl.attributes.iter().find(|a| a.name.name == "numthreads");
            let Some(a) = nt else {
                st.error(
                    decl.name.span,
                    "compute entry point needs a [numthreads(x, y, z)] attribute",
                );
                return;
            };
            let dims: Vec<Option<i64>> = a
                .args
                .iter()
                .map(|e| st.const_eval(e).and_then(ConstVal::as_int))
                .collect();
            match dims.as_slice() {
                [Some(x), Some(y), Some(z)] if *x > 0 && *y > 0 && *z > 0 => {
                    let size = [*x as u32, *y as u32, *z as u32];
                    b.execution_mode(handle, ExecutionMode::LocalSize(size[0], size[1], size[2]));
                    if let Some(span) = st.compute_derivatives {
                        derivative_group(st, b, handle, size, span);
                    }
                }
                _ => st.error(a.span, "numthreads needs three positive integer constants"),
            }
        }
        Stage::Pixel => {
            b.execution_mode(handle, ExecutionMode::OriginUpperLeft);
            let early = decl
                .attributes
                .iter()
                .any(|a| a.namespace.is_none() && a.name.name == "earlydepthstencil");
            if early {
                b.execution_mode(handle, ExecutionMode::EarlyFragmentTests);
            }
            if io.depth_replacing {
                b.execution_mode(handle, ExecutionMode::DepthReplacing);
            }
            if let Some(mode) = io.depth_mode {
                b.execution_mode(handle, mode);
            }
            fragment_test_modes(st, b, handle, &decl.attributes);
            if st.interlock.is_some() {
                // Ordered per sample when the shader runs per sample, per shading-rate
                // region when it reads the rate, else per pixel (as DXC picks).
                let reads = |base: &str| {
                    io.vars
                        .iter()
                        .any(|(s, output, ..)| !output && split_semantic(s).0 == base)
                };
                let mode = if reads("SV_SAMPLEINDEX") {
                    ExecutionMode::SampleInterlockOrderedEXT
                } else if reads("SV_SHADINGRATE") {
                    ExecutionMode::ShadingRateInterlockOrderedEXT
                } else {
                    ExecutionMode::PixelInterlockOrderedEXT
                };
                b.execution_mode(handle, mode);
            }
        }
        Stage::Vertex => {}
    }
}
