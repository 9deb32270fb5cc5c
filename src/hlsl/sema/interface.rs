//! The entry point's stage interface, laid out by DXC's Vulkan rules and checked here, so that
//! code generation only creates what [`Interface`] lists: every stage input and output (struct
//! parameters and results flattened, semantics inherited down their fields) becomes a
//! built-in, a located variable or elements of the clip/cull distance arrays. The errors are
//! DXC's (a semantic or location used twice, a built-in of the wrong type, interpolation of
//! integer pixel inputs, dual-source blending...), at the place the source gives.

use crate::grammar::BuiltIn;
use crate::hlsl::ast::{Attribute, FunctionDecl, Item, TranslationUnit};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{
    DistanceArray, Interface, IoPath, IoRoot, Module, ParamDir, StagePlace, StageVar,
};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls::{self, TypeEnv};
use crate::hlsl::sema::types::{Field, Interp, ResourceKind, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::{Options, Stage};

/// Lays out the interface of `m`'s entry point and reports what DXC refuses about it; `None`
/// when the call graph is in error or there is no entry point (code generation stops first).
pub fn plan(
    unit: &TranslationUnit,
    m: &Module,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> Option<Interface> {
    m.order.as_ref()?;
    let entry = m.functions.get(&opts.entry)?.first()?;
    if unemitted(&entry.params) {
        return None;
    }
    let Some(Item::Function(decl)) = unit.items.get(entry.item) else {
        return None;
    };
    let mut p = Planner {
        env: &m.types,
        opts,
        diags,
        stage: opts.profile.stage,
        out: Interface::default(),
        used: Vec::new(),
        taken: [Vec::new(), Vec::new()],
        explicit: [None, None],
        implicit: [false, false],
        next: [0, 0],
        depth_replacing: false,
        depth_mode: None,
        auto_located: Vec::new(),
        distances: Vec::new(),
    };
    p.distance_arrays(decl, &entry.params, &entry.ret);
    let mut outs = Vec::new();
    for (i, (param, (ty, dir))) in decl.params.iter().zip(&entry.params).enumerate() {
        let sem = decls::semantic_of(&param.annotations);
        let interp = decls::interp_of(&param.modifiers);
        let at = p.attr_place(&param.attributes);
        if *dir != ParamDir::Out {
            let span = param.name.as_ref().map_or(param.span, |n| n.span);
            let path = IoPath {
                root: IoRoot::Param(i),
                output: false,
                fields: Vec::new(),
            };
            p.walk(path, ty, sem.as_deref(), interp, at, span);
        }
        if *dir != ParamDir::In {
            outs.push((i, ty, sem, interp, at, param.span));
        }
    }
    if entry.ret != Ty::Void {
        let sem = decls::semantic_of(&decl.annotations);
        // `[[vk::location(N)]]` before the function places its return value.
        let at = p.attr_place(&decl.attributes);
        let path = IoPath {
            root: IoRoot::Return,
            output: true,
            fields: Vec::new(),
        };
        let ret = entry.ret.clone();
        p.walk(path, &ret, sem.as_deref(), Interp::default(), at, decl.span);
    }
    for (i, ty, sem, interp, at, span) in outs {
        let path = IoPath {
            root: IoRoot::Param(i),
            output: true,
            fields: Vec::new(),
        };
        p.walk(path, ty, sem.as_deref(), interp, at, span);
    }
    // DXC assigns locations either all explicitly or all implicitly, per direction.
    for (dir, what) in ["input", "output"].iter().enumerate() {
        if let (Some(span), true) = (p.explicit[dir], p.implicit[dir]) {
            p.error(
                span,
                format!(
                    "partial explicit stage {what} location assignment via vk::location(X) \
                     unsupported"
                ),
            );
        }
    }
    if opts.stage_io_alpha {
        p.alpha_locations();
    }
    let facts = super::modes::IoFacts {
        depth_replacing: p.depth_replacing,
        depth_mode: p.depth_mode.clone(),
        reads: &|base| {
            p.out
                .vars
                .iter()
                .any(|v| !v.path.output && split_semantic(&v.semantic).0 == base)
        },
    };
    let (modes, local_size) = super::modes::plan(decl, m, opts, &facts, p.diags);
    p.out.modes = modes;
    p.out.local_size = local_size;
    Some(p.out)
}

/// Whether code generation refuses (and reports) a function with these parameters before it
/// gets to the wrapper: a `void` one (an unsupported type), a resource passed `out`/`inout`, a
/// buffer, or an array of resources. There is then no interface to lay out.
fn unemitted(params: &[(Ty, ParamDir)]) -> bool {
    params.iter().any(|(t, dir)| match t {
        Ty::Void => true,
        Ty::Resource(kind, _) => {
            *dir != ParamDir::In
                || matches!(
                    kind,
                    ResourceKind::ConstantBuffer
                        | ResourceKind::TextureBuffer
                        | ResourceKind::StructuredBuffer { .. }
                        | ResourceKind::ByteAddressBuffer { .. }
                )
        }
        Ty::Array(e, _) => e.is_resource(),
        _ => false,
    })
}

/// What the source says about where one stage variable goes: `[[vk::location(N)]]`,
/// `[[vk::index(N)]]` and `[[vk::builtin("...")]]`.
#[derive(Clone, Copy, Debug, Default)]
struct AttrPlace {
    /// `[[vk::location(N)]]`.
    location: Option<u32>,
    /// `[[vk::index(N)]]` of a fragment output (dual-source blending).
    index: Option<u32>,
    /// `[[vk::builtin("...")]]`.
    builtin: Option<BuiltIn>,
}

impl AttrPlace {
    /// The place a stage struct's field gives.
    fn of_field(f: &Field) -> Self {
        AttrPlace {
            location: f.location,
            index: f.index,
            builtin: f.builtin,
        }
    }
}

/// The planner's state while it walks the entry point's signature.
struct Planner<'a, 'd> {
    /// The declared types (stage structs, module constants).
    env: &'a TypeEnv,
    /// The options (stage, `-fvk-stage-io-order`, constants' literal rules).
    opts: &'a Options,
    /// Where errors go.
    diags: &'d mut Vec<Diagnostic>,
    /// The profile's stage.
    stage: Stage,
    /// The interface so far.
    out: Interface,
    /// The semantic and direction of every variable so far (duplicates are errors).
    used: Vec<(String, bool)>,
    /// Per direction (input, output): the locations taken (with their `vk::index`, 0 by
    /// default), with the semantic that took each.
    taken: [Vec<(u32, u32, String)>; 2],
    /// Per direction: where a `[[vk::location]]` was first given.
    explicit: [Option<Span>; 2],
    /// Per direction: whether a variable took the next free location (mixing is an error).
    implicit: [bool; 2],
    /// Per direction: the next free location.
    next: [u32; 2],
    /// A depth output: `DepthReplacing`.
    depth_replacing: bool,
    /// `DepthLess` or `DepthGreater` for SV_DepthLessEqual or SV_DepthGreaterEqual.
    depth_mode: Option<crate::grammar::ExecutionMode>,
    /// The variables (by index) that took the next free location, for
    /// `-fvk-stage-io-order=alpha` to reorder.
    auto_located: Vec<usize>,
    /// Every clip/cull distance semantic: (output, cull, semantic index, array, offset).
    distances: Vec<(bool, bool, u32, usize, u32)>,
}

/// Splits `TEXCOORD3` into (`TEXCOORD`, 3).
pub(crate) fn split_semantic(s: &str) -> (String, u32) {
    let base = s.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = s[base.len()..].parse().unwrap_or(0);
    (base.to_ascii_uppercase(), index)
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
pub(crate) fn distance_floats(ty: &Ty) -> Option<u32> {
    match ty {
        Ty::Scalar(Scalar::Float) => Some(1),
        Ty::Vector(Scalar::Float, n) => Some(*n),
        Ty::Array(e, n) if matches!(**e, Ty::Scalar(_) | Ty::Vector(..)) => {
            Some(n * distance_floats(e)?)
        }
        _ => None,
    }
}

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

/// The message of a badly typed SV_Position.
const BAD_POSITION: &str = "SV_Position must be a 4-component 32-bit float vector or a \
                            composite which recursively contains only such a vector";

impl Planner<'_, '_> {
    /// Reports an error.
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// The [`AttrPlace`] of a parameter or function from its attributes (an unknown built-in
    /// is reported here).
    fn attr_place(&mut self, attrs: &[Attribute]) -> AttrPlace {
        let vk = |name: &str| decls::attr(attrs, Some("vk"), name);
        let int = |a: Option<&Attribute>| {
            a.and_then(|a| a.args.first())
                .and_then(|e| decls::fold(e, self.opts, &|n| self.env.constant(n)))
                .and_then(ConstVal::as_int)
                .map(|v| v as u32)
        };
        let location = int(vk("location"));
        let index = int(vk("index"));
        let builtin = match vk("builtin").map(|a| (a, decls::builtin_attr(a))) {
            Some((_, Ok(b))) => Some(b),
            Some((a, Err(e))) => {
                self.error(a.span, e);
                None
            }
            None => None,
        };
        AttrPlace {
            location,
            index,
            builtin,
        }
    }

    /// Lays out the stage variables of a value of `ty` at `path` (a struct field by field, as
    /// the wrapper loads and stores it); false when an error stops it (an input then stops
    /// at its first error, as its load does; an output goes on with the next field).
    fn walk(
        &mut self,
        path: IoPath,
        ty: &Ty,
        semantic: Option<&str>,
        interp: Interp,
        at: AttrPlace,
        span: Span,
    ) -> bool {
        if let Ty::Struct(i) = ty {
            let Some(def) = self.env.structs.get(*i) else {
                return false;
            };
            if !def.bitfields.is_empty() {
                self.error(
                    span,
                    "not supported yet: a struct with bit-fields as a stage input or output",
                );
                return false;
            }
            let fields = def.fields.clone();
            let inherited = self.inherited_semantics(semantic, &fields);
            for (f, sem) in fields.iter().zip(&inherited) {
                let sem = sem.as_deref().or(f.semantic.as_deref()).unwrap_or("");
                // A 1xN or Nx1 matrix collapsed to a vector is no position, as DXC says.
                if f.row_depth.is_some() && split_semantic(sem).0 == "SV_POSITION" {
                    self.error(span, BAD_POSITION);
                    return false;
                }
            }
            for (k, (f, sem)) in fields.iter().zip(&inherited).enumerate() {
                let mut sub = path.clone();
                sub.fields.push(k as u32);
                let sem = sem.as_deref().or(f.semantic.as_deref());
                let ok = self.walk(sub, &f.ty, sem, f.interp, AttrPlace::of_field(f), span);
                if !ok && !path.output {
                    return false;
                }
            }
            return true;
        }
        let Some(sem) = semantic else {
            let msg = if path.output {
                "an entry point output needs a semantic"
            } else {
                "an entry point parameter needs a semantic"
            };
            self.error(span, msg);
            return false;
        };
        if let Some(cull) = clip_cull_kind(self.stage, path.output, &split_semantic(sem).0) {
            return self.distance(path, sem, ty, cull, span);
        }
        self.stage_var(path, sem, ty, interp, at, span)
    }

    /// The semantics a struct's fields take from a semantic on the struct itself (DXC: it
    /// overrides theirs, the index counting up through the flattened fields: `: TEXCOORD2`
    /// gives `TEXCOORD2`, `TEXCOORD3`...); `None` each when the struct has none.
    fn inherited_semantics(&self, semantic: Option<&str>, fields: &[Field]) -> Vec<Option<String>> {
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

    /// How many stage variables a value of `ty` flattens into.
    fn leaf_count(&self, ty: &Ty) -> u32 {
        match ty {
            Ty::Struct(i) => self
                .env
                .structs
                .get(*i)
                .map_or(1, |d| d.fields.iter().map(|f| self.leaf_count(&f.ty)).sum()),
            _ => 1,
        }
    }

    /// Reports a semantic the direction already used; semantics compare without case, a
    /// missing index being 0 (`SV_Target` is `SV_Target0`).
    fn duplicate_semantic(&mut self, semantic: &str, output: bool, span: Span) -> bool {
        let key = split_semantic(semantic);
        if self
            .used
            .iter()
            .any(|(s, o)| *o == output && split_semantic(s) == key)
        {
            let dir = if output { "output" } else { "input" };
            self.error(
                span,
                format!("{dir} semantic '{semantic}' used more than once"),
            );
            return true;
        }
        false
    }

    /// Records a stage variable.
    fn push(&mut self, var: StageVar) {
        self.used.push((var.semantic.clone(), var.path.output));
        self.out.vars.push(var);
    }

    /// Sizes the ClipDistance and CullDistance arrays of the stage: per direction and kind, the
    /// semantics in the order of their indices, packed tightly (DXC's layout). Every
    /// semantic's size is needed before the first access.
    fn distance_arrays(&mut self, decl: &FunctionDecl, params: &[(Ty, ParamDir)], ret: &Ty) {
        let mut found = Vec::new();
        for (p, (ty, dir)) in decl.params.iter().zip(params) {
            let sem = decls::semantic_of(&p.annotations);
            if *dir != ParamDir::Out {
                self.collect_distances(ty, sem.as_deref(), false, &mut found);
            }
            if *dir != ParamDir::In {
                self.collect_distances(ty, sem.as_deref(), true, &mut found);
            }
        }
        let ret_sem = decls::semantic_of(&decl.annotations);
        self.collect_distances(ret, ret_sem.as_deref(), true, &mut found);
        found.sort_by_key(|e| (e.0, e.1, e.2));
        for output in [false, true] {
            for cull in [false, true] {
                let group: Vec<_> = found
                    .iter()
                    .filter(|e| e.0 == output && e.1 == cull)
                    .collect();
                let len: u32 = group.iter().map(|e| e.3).sum();
                if len == 0 {
                    continue;
                }
                let array = self.out.distances.len();
                self.out.distances.push(DistanceArray { output, cull, len });
                let mut offset = 0;
                for e in group {
                    self.distances.push((output, cull, e.2, array, offset));
                    offset += e.3;
                }
            }
        }
    }

    /// Collects the clip and cull distances under a stage input or output of `ty` (output,
    /// cull, semantic index, float count), walking structs as the wrapper does.
    fn collect_distances(
        &self,
        ty: &Ty,
        semantic: Option<&str>,
        output: bool,
        out: &mut Vec<(bool, bool, u32, u32)>,
    ) {
        if let Ty::Struct(i) = ty {
            let Some(def) = self.env.structs.get(*i) else {
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
        if let (Some(cull), Some(n)) = (
            clip_cull_kind(self.stage, output, &base),
            distance_floats(ty),
        ) {
            if !out.iter().any(|e| (e.0, e.1, e.2) == (output, cull, index)) {
                out.push((output, cull, index, n));
            }
        }
    }

    /// Places a clip or cull distance `semantic` (of `ty`) in its array, after checking its
    /// type and that the direction has not used it yet.
    fn distance(&mut self, path: IoPath, semantic: &str, ty: &Ty, cull: bool, span: Span) -> bool {
        let output = path.output;
        if distance_floats(ty).is_none() {
            let what = if cull {
                "SV_CullDistance"
            } else {
                "SV_ClipDistance"
            };
            let msg = format!(
                "elements for {what} variable must be scalar, vector, or array with float \
                 type, not '{}'",
                self.env.show(ty)
            );
            self.error(span, msg);
            return false;
        }
        if self.duplicate_semantic(semantic, output, span) {
            return false;
        }
        let index = split_semantic(semantic).1;
        let Some(&(.., array, offset)) = self
            .distances
            .iter()
            .find(|e| (e.0, e.1, e.2) == (output, cull, index))
        else {
            return false;
        };
        self.push(StageVar {
            path,
            semantic: semantic.to_owned(),
            ty: ty.clone(),
            var_ty: ty.clone(),
            name: String::new(),
            place: StagePlace::Distance { array, offset },
            flat: false,
            noperspective: false,
            centroid: false,
            sample: false,
        });
        true
    }

    /// Lays out the stage variable of `semantic` (of `ty`): a built-in or a located variable.
    fn stage_var(
        &mut self,
        path: IoPath,
        semantic: &str,
        ty: &Ty,
        interp: Interp,
        at: AttrPlace,
        span: Span,
    ) -> bool {
        let stage = self.stage;
        let output = path.output;
        let (base, index) = split_semantic(semantic);
        if self.duplicate_semantic(semantic, output, span) {
            return false;
        }
        if let (Some(_), Some(_)) = (at.location, at.builtin) {
            self.error(span, "cannot use vk::builtin and vk::location together");
            return false;
        }
        let builtin = match at.builtin {
            Some(bi) => match self.forced_builtin(bi, ty, output, span) {
                Some(b) => Some(b),
                None => return false,
            },
            None => match self.semantic_builtin(&base, semantic, ty, output, interp, span) {
                Ok(b) => b,
                Err(()) => return false,
            },
        };
        let bad_position = base == "SV_POSITION"
            && builtin.is_some()
            && *ty != Ty::Vector(Scalar::Float, 4)
            && ty.component().is_none_or(|s| s.bits() != 16);
        if bad_position {
            self.error(span, BAD_POSITION);
            return false;
        }
        if builtin.is_some() && ty.component().is_some_and(|s| s.bits() == 16) {
            // Built-ins have fixed 32-bit types: a 16-bit one would need a conversion DXC
            // does not make.
            let msg = if base == "SV_POSITION" {
                BAD_POSITION.to_owned()
            } else {
                format!(
                    "the semantic '{semantic}' needs a 32-bit type, not '{}'",
                    self.env.show(ty)
                )
            };
            self.error(span, msg);
            return false;
        }
        let var = match builtin {
            Some((bi, t, n)) => {
                // Integer pixel inputs are flat, built-ins too (as DXC decorates them).
                let int = stage_scalar(&t).is_some_and(|s| s.is_int());
                let bary = base == "SV_BARYCENTRICS";
                StageVar {
                    path,
                    semantic: semantic.to_owned(),
                    ty: ty.clone(),
                    var_ty: t,
                    name: n.to_owned(),
                    place: StagePlace::BuiltIn(bi),
                    flat: stage == Stage::Pixel && !output && int,
                    noperspective: false,
                    centroid: bary && interp.centroid,
                    sample: bary && interp.sample,
                }
            }
            None => match self.located(path, semantic, &base, index, ty, interp, at, span) {
                Some(v) => v,
                None => return false,
            },
        };
        self.push(var);
        true
    }

    /// The located variable of `semantic` (of `ty`), its location given or the next free one.
    #[allow(clippy::too_many_arguments)]
    fn located(
        &mut self,
        path: IoPath,
        semantic: &str,
        base: &str,
        index: u32,
        ty: &Ty,
        interp: Interp,
        at: AttrPlace,
        span: Span,
    ) -> Option<StageVar> {
        let stage = self.stage;
        let output = path.output;
        if base.starts_with("SV_") && !located_sv(stage, output, base) {
            self.error(
                span,
                format!("not supported yet: the semantic '{semantic}' here"),
            );
            return None;
        }
        if stage == Stage::Compute {
            self.error(
                span,
                format!("compute shader inputs need a system-value semantic, not '{semantic}'"),
            );
            return None;
        }
        let plain = matches!(ty, Ty::Scalar(_) | Ty::Vector(..));
        if !plain && stage_scalar(ty).is_none_or(|s| s == Scalar::Bool) {
            let msg = format!(
                "not supported yet: stage variables of type '{}'",
                self.env.show(ty)
            );
            self.error(span, msg);
            return None;
        }
        let dir = usize::from(output);
        let count = location_count(ty);
        let automatic = base != "SV_TARGET" && at.location.is_none();
        let loc = if let Some(l) = at.location {
            // A render target's too (`[[vk::location(0), vk::index(1)]]` for dual-source
            // blending), as DXC.
            if base != "SV_TARGET" {
                self.explicit[dir].get_or_insert(span);
            }
            l
        } else if base == "SV_TARGET" {
            index
        } else {
            self.implicit[dir] = true;
            let l = self.next[dir];
            self.next[dir] = l.saturating_add(count);
            l
        };
        let blend = at.index.unwrap_or(0);
        let Some(end) = loc.checked_add(count) else {
            self.error(
                span,
                format!("stage variable location {loc} is out of range"),
            );
            return None;
        };
        for l in loc..end {
            if let Some((_, _, by)) = self.taken[dir]
                .iter()
                .find(|(t, i, _)| (*t, *i) == (l, blend))
            {
                let what = if output { "output" } else { "input" };
                let msg = format!("stage {what} location #{l} already consumed by semantic '{by}'");
                self.error(span, msg);
                return None;
            }
        }
        self.taken[dir].extend((loc..end).map(|l| (l, blend, semantic.to_owned())));
        let is_int = stage_scalar(ty).is_some_and(|s| !s.is_float());
        // Vulkan does not interpolate 64-bit floats either: they are flat too.
        let is_double = stage_scalar(ty) == Some(Scalar::Double);
        let interpolated =
            interp.linear || interp.centroid || interp.noperspective || interp.sample;
        if stage == Stage::Pixel && !output && (is_int || is_double) && interpolated {
            let what = if is_int { "integer" } else { "64-bit float" };
            let msg = format!(
                "only nointerpolation mode allowed for {what} input parameters in pixel shader"
            );
            self.error(span, msg);
            return None;
        }
        if let Some(i) = at.index {
            // DXC's checks of dual-source blending.
            let why = if !(output && stage == Stage::Pixel) {
                Some("vk::index only allowed in pixel shader outputs")
            } else if at.location.is_none() {
                Some("vk::index should be used together with vk::location for dual-source blending")
            } else if loc != 0 {
                Some("dual-source blending should use vk::location 0")
            } else if i > 1 {
                Some("dual-source blending only accepts 0 or 1 as vk::index")
            } else {
                None
            };
            if let Some(why) = why {
                self.error(span, why);
                return None;
            }
        }
        let prefix = if output { "out.var." } else { "in.var." };
        // A bool crosses stages as a uint (flat), as DXC passes it.
        let var_ty = if ty.component() == Some(Scalar::Bool) {
            ty.with_component(Scalar::UInt)
        } else {
            ty.clone()
        };
        if automatic {
            self.auto_located.push(self.out.vars.len());
        }
        Some(StageVar {
            path,
            semantic: semantic.to_owned(),
            ty: ty.clone(),
            var_ty,
            name: format!("{prefix}{semantic}"),
            place: StagePlace::Location {
                location: loc,
                index: at.index,
            },
            flat: interp.flat || (stage == Stage::Pixel && !output && (is_int || is_double)),
            noperspective: interp.noperspective,
            centroid: interp.centroid,
            sample: interp.sample,
        })
    }

    /// The built-in a system-value semantic maps to in this stage and direction, with its
    /// variable's type and name (`None` for a located one); `Err` when reported.
    fn semantic_builtin(
        &mut self,
        base: &str,
        semantic: &str,
        ty: &Ty,
        output: bool,
        interp: Interp,
        span: Span,
    ) -> Result<Option<(BuiltIn, Ty, &'static str)>, ()> {
        let u3 = Ty::Vector(Scalar::UInt, 3);
        // Integer built-ins take the declared signedness, as in DXC (`int` gives an `int`
        // variable); anything else is converted from a uint.
        let int_ty = match ty {
            Ty::Scalar(Scalar::Int | Scalar::UInt) => ty.clone(),
            _ => Ty::Scalar(Scalar::UInt),
        };
        let f4 = Ty::Vector(Scalar::Float, 4);
        Ok(match (self.stage, output, base) {
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
            (Stage::Vertex, true, "SV_POSITION") => Some((BuiltIn::Position, f4, "gl_Position")),
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
            (Stage::Pixel, false, "SV_POSITION") => Some((BuiltIn::FragCoord, f4, "gl_FragCoord")),
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
                    self.error(span, "SV_InnerCoverage must be of uint type.");
                    return Err(());
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
                    let msg = format!(
                        "not supported yet: the semantic '{semantic}' of type '{}' (only float3)",
                        self.env.show(ty)
                    );
                    self.error(span, msg);
                    return Err(());
                }
                // The interpolation picks the built-in; centroid and sample stay decorations.
                if interp.noperspective {
                    Some((BuiltIn::BaryCoordNoPerspKHR, f3, "gl_BaryCoordNoPerspEXT"))
                } else {
                    Some((BuiltIn::BaryCoordKHR, f3, "gl_BaryCoordEXT"))
                }
            }
            (Stage::Pixel, true, "SV_DEPTH" | "SV_DEPTHLESSEQUAL" | "SV_DEPTHGREATEREQUAL") => {
                use crate::grammar::ExecutionMode;
                self.depth_replacing = true;
                // The conservative-depth semantics promise the direction of the change.
                match base {
                    "SV_DEPTHLESSEQUAL" => self.depth_mode = Some(ExecutionMode::DepthLess),
                    "SV_DEPTHGREATEREQUAL" => self.depth_mode = Some(ExecutionMode::DepthGreater),
                    _ => {}
                }
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
        })
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
        let stage = self.stage;
        let int = matches!(ty, Ty::Scalar(Scalar::Int | Scalar::UInt));
        let (fits, typed, name) = match bi {
            // (A pixel input as DXC allows, for a struct shared with the vertex stage: Vulkan
            // rejects a read of it, which code generation refuses after optimization.)
            BuiltIn::PointSize => (
                (stage == Stage::Vertex && output) || (stage == Stage::Pixel && !output),
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
            self.error(
                span,
                format!("not supported yet: [[vk::builtin(\"{bi}\")]] as {dir} of this stage"),
            );
            return None;
        }
        if !typed {
            let msg = format!(
                "[[vk::builtin(\"{bi}\")]] cannot be of type '{}'",
                self.env.show(ty)
            );
            self.error(span, msg);
            return None;
        }
        Some((bi, ty.clone(), name))
    }

    /// `-fvk-stage-io-order=alpha`: the inputs, then the outputs, that took the next free
    /// location get the same locations again, given out in the alphabetical order of their
    /// semantics (as written, compared byte by byte, as DXC sorts them).
    fn alpha_locations(&mut self) {
        for output in [false, true] {
            let mut side: Vec<usize> = self
                .auto_located
                .iter()
                .copied()
                .filter(|&i| self.out.vars[i].path.output == output)
                .collect();
            let location = |v: &StageVar| match v.place {
                StagePlace::Location { location, .. } => location,
                _ => 0,
            };
            // The same block of locations, handed out again in semantic order (a 64-bit vector
            // of three or four components takes two).
            let mut next = side
                .iter()
                .map(|&i| location(&self.out.vars[i]))
                .min()
                .unwrap_or(0);
            side.sort_by(|&x, &y| self.out.vars[x].semantic.cmp(&self.out.vars[y].semantic));
            for i in side {
                let v = &mut self.out.vars[i];
                if let StagePlace::Location { location, .. } = &mut v.place {
                    *location = next;
                }
                next += location_count(&v.var_ty);
            }
        }
    }
}
