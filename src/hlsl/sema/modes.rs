//! The entry point's execution modes, from its attributes (`[numthreads]`,
//! `[earlydepthstencil]`, the fragment-test `[[vk::...]]` attributes), the semantics of its
//! stage variables (depth outputs, interlock ordering) and the options (`-denorm`,
//! `-fspv-enable-maximal-reconvergence`), in the order DXC emits them, with DXC's errors about
//! them.

use crate::grammar::ExecutionMode;
use crate::hlsl::ast::{Attribute, FunctionDecl, Item, TranslationUnit};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::Module;
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls;
use crate::hlsl::source::Span;
use crate::hlsl::{Options, Stage};

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

/// Reports the fragment-test attributes ([`FRAGMENT_TEST_ATTRIBUTES`]) of the reached functions
/// (those code generation emits) that are not a pixel shader's entry point.
pub(crate) fn misplaced_fragment_tests(
    unit: &TranslationUnit,
    m: &Module,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(order) = &m.order else { return };
    for name in order {
        let is_entry = *name == opts.entry;
        for sig in m.functions.get(name).into_iter().flatten() {
            // A function returning a resource is evaluated where it is called: never emitted.
            let emitted = is_entry || !sig.ret.is_resource();
            let Some(Item::Function(decl)) = unit.items.get(sig.item) else {
                continue;
            };
            if !emitted || !m.bodies.contains_key(&sig.item) {
                continue;
            }
            for a in &decl.attributes {
                let vk = a.namespace.as_ref().is_some_and(|n| n.name == "vk");
                let fragment_test = FRAGMENT_TEST_ATTRIBUTES
                    .iter()
                    .any(|(n, _)| *n == a.name.name);
                if vk && fragment_test && !(is_entry && opts.profile.stage == Stage::Pixel) {
                    diags.push(Diagnostic::error(
                        a.span,
                        format!(
                            "[[vk::{}]] applies to a pixel shader's entry point only",
                            a.name.name
                        ),
                    ));
                }
            }
        }
    }
}

/// What the stage variables tell the execution modes.
pub(crate) struct IoFacts<'a> {
    /// A depth output: `DepthReplacing`.
    pub depth_replacing: bool,
    /// `DepthLess` or `DepthGreater` for SV_DepthLessEqual or SV_DepthGreaterEqual.
    pub depth_mode: Option<ExecutionMode>,
    /// Whether an input has the semantic whose upper-case base is the argument.
    pub reads: &'a dyn Fn(&str) -> bool,
}

/// The execution modes of the entry point `decl` and its `[numthreads]` size, reporting what
/// DXC refuses.
pub(crate) fn plan(
    decl: &FunctionDecl,
    m: &Module,
    opts: &Options,
    io: &IoFacts,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<ExecutionMode>, Option<[u32; 3]>) {
    let mut modes = Vec::new();
    // `[[vk::spvexecutionmode(m)]]` on the entry point.
    let constant = |e: &crate::hlsl::ast::Expr| {
        crate::hlsl::sema::decls::fold(e, opts, &|n| m.types.constant(n)).and_then(|c| c.as_int())
    };
    match crate::hlsl::sema::attributes::spv_execution_modes(&decl.attributes, &constant) {
        Ok(list) => modes.extend(list),
        Err(e) => diags.push(e),
    }
    if opts.maximal_reconvergence {
        // Newer than the bundled grammar: by name, where the grammar spvkit was built from
        // has it (its extension follows from the grammar).
        match "MaximallyReconvergesKHR".parse::<ExecutionMode>() {
            Ok(m) => modes.push(m),
            Err(_) => diags.push(Diagnostic::error(
                Span::whole_file(Default::default()),
                "not supported yet: -fspv-enable-maximal-reconvergence: the SPIR-V grammar spvkit \
                 was built from has no MaximallyReconvergesKHR execution mode (build with \
                 SPIRV_GRAMMAR_DIR naming a newer grammar)",
            )),
        }
    }
    // `-denorm`: for 32-bit floats only, as DXC.
    match opts.denorm {
        crate::hlsl::Denorm::Any => {}
        crate::hlsl::Denorm::Preserve => modes.push(ExecutionMode::DenormPreserve(32)),
        crate::hlsl::Denorm::FlushToZero => modes.push(ExecutionMode::DenormFlushToZero(32)),
    }
    let mut local_size = None;
    match opts.profile.stage {
        Stage::Compute => {
            let nt = decl.attributes.iter().find(|a| a.name.name == "numthreads");
            let Some(a) = nt else {
                diags.push(Diagnostic::error(
                    decl.name.span,
                    "compute entry point needs a [numthreads(x, y, z)] attribute",
                ));
                return (modes, None);
            };
            let dims: Vec<Option<i64>> = a
                .args
                .iter()
                .map(|e| decls::fold(e, opts, &|n| m.types.constant(n)).and_then(ConstVal::as_int))
                .collect();
            match dims.as_slice() {
                [Some(x), Some(y), Some(z)] if *x > 0 && *y > 0 && *z > 0 => {
                    let size = [*x as u32, *y as u32, *z as u32];
                    modes.push(ExecutionMode::LocalSize(size[0], size[1], size[2]));
                    local_size = Some(size);
                }
                _ => diags.push(Diagnostic::error(
                    a.span,
                    "numthreads needs three positive integer constants",
                )),
            }
        }
        Stage::Pixel => {
            modes.push(ExecutionMode::OriginUpperLeft);
            let early = decl
                .attributes
                .iter()
                .any(|a| a.namespace.is_none() && a.name.name == "earlydepthstencil");
            if early {
                modes.push(ExecutionMode::EarlyFragmentTests);
            }
            if io.depth_replacing {
                modes.push(ExecutionMode::DepthReplacing);
            }
            if let Some(mode) = &io.depth_mode {
                modes.push(mode.clone());
            }
            fragment_test_modes(&decl.attributes, &mut modes, diags);
            if m.interlock.is_some() {
                // Ordered per sample when the shader runs per sample, per shading-rate
                // region when it reads the rate, else per pixel (as DXC picks).
                modes.push(if (io.reads)("SV_SAMPLEINDEX") {
                    ExecutionMode::SampleInterlockOrderedEXT
                } else if (io.reads)("SV_SHADINGRATE") {
                    ExecutionMode::ShadingRateInterlockOrderedEXT
                } else {
                    ExecutionMode::PixelInterlockOrderedEXT
                });
            }
        }
        Stage::Vertex => {}
    }
    (modes, local_size)
}

/// Adds the execution modes of [`FRAGMENT_TEST_ATTRIBUTES`] among `attrs`; more than one
/// stencil-reference mode per face is DXC's error.
fn fragment_test_modes(
    attrs: &[Attribute],
    modes: &mut Vec<ExecutionMode>,
    diags: &mut Vec<Diagnostic>,
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
                diags.push(Diagnostic::error(
                    a.span,
                    format!(
                        "Shaders must not specify more than one of stencil_ref_unchanged_{side}, \
                         stencil_ref_greater_equal_{side}, and stencil_ref_less_equal_{side}."
                    ),
                ));
                continue;
            }
        }
        // By name, from the grammar (the names are those of every grammar spvkit builds from).
        match mode.parse::<ExecutionMode>() {
            Ok(m) => modes.push(m),
            Err(_) => diags.push(Diagnostic::error(
                a.span,
                format!("not supported yet: [[vk::{name}]] (the grammar has no {mode})"),
            )),
        }
    }
}
