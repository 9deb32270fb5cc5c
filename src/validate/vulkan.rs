//! Vulkan's shader rules (the "Standalone SPIR-V" and interface chapters of the Vulkan
//! specification) beyond what the core rules and [`super::block_layout`] check:
//! - no recursion in the static call graph;
//! - descriptor resources (Uniform, StorageBuffer, UniformConstant variables used by an entry
//!   point) have DescriptorSet and Binding; Uniform blocks are `Block` or `BufferBlock`,
//!   StorageBuffer and PushConstant blocks are `Block`; at most one push constant block per
//!   entry point;
//! - user-defined Input and Output interface variables of the graphics stages have locations
//!   that do not overlap;
//! - built-in variables have the types the specification gives them.
//!
//! Hand-written because these are client-API rules; the grammar does not describe them.

use super::module::deco;
use super::query::Ty;
use super::Cx;
use crate::grammar::{BuiltIn as B, ExecutionModel as E, Opcode, StorageClass as S};
use std::collections::{HashMap, HashSet};

/// Module-wide Vulkan rules.
pub(super) fn finish(cx: &mut Cx<'_>) {
    for (f, at) in super::functions::recursive_calls(cx) {
        let inst = cx.m.inst(at);
        cx.err(
            &inst,
            "vulkan:recursion",
            format!("the static call graph has a cycle through %{f}: recursion is not allowed"),
        );
    }
    let ep_globals = super::functions::entry_point_globals(cx);
    descriptors(cx, &ep_globals);
    locations(cx);
    builtins(cx);
}

fn descriptors(cx: &mut Cx<'_>, ep_globals: &[(u32, HashSet<u32>)]) {
    let m = cx.m;
    let used: HashSet<u32> = ep_globals
        .iter()
        .flat_map(|(_, g)| g.iter().copied())
        .collect();
    for (ep, globals) in ep_globals {
        let mut push: Vec<u32> = globals
            .iter()
            .copied()
            .filter(|&v| {
                m.def(v)
                    .is_some_and(|d| d.word(2) == S::PushConstant.value())
            })
            .collect();
        push.sort_unstable();
        if push.len() > 1 {
            let inst = m.def(push[1]).unwrap_or_else(|| m.inst(0));
            cx.err(
                &inst,
                "vulkan:push-constant",
                format!("entry point %{ep} uses more than one push constant block"),
            );
        }
    }
    for i in 0..m.len() as u32 {
        let inst = m.inst(i);
        if inst.op() != Some(Opcode::Variable) || m.function_at(i).is_some() {
            continue;
        }
        let var = inst.word(1);
        let sc = inst.word(2);
        let uniform = sc == S::Uniform.value();
        let ssbo = sc == S::StorageBuffer.value();
        let push = sc == S::PushConstant.value();
        let uniform_constant = sc == S::UniformConstant.value();
        if !(uniform || ssbo || push || uniform_constant) {
            continue;
        }
        let referenced = used.contains(&var);
        let mut err = |msg: String| cx.sink.push(inst.offset, "vulkan:descriptor", msg);
        if uniform_constant {
            if referenced && !m.has_decoration(var, deco::DescriptorSet) {
                err(format!(
                    "UniformConstant variable %{var} is missing a DescriptorSet decoration"
                ));
            } else if referenced && !m.has_decoration(var, deco::Binding) {
                err(format!(
                    "UniformConstant variable %{var} is missing a Binding decoration"
                ));
            }
            continue;
        }
        let Some((_, mut t)) = m.pointer(inst.word(0)) else {
            continue;
        };
        if let Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) = m.ty(t) {
            t = element;
        }
        if !matches!(m.ty(t), Some(Ty::Struct { .. })) {
            continue;
        }
        let block = has_nested(cx, t, deco::Block, 0);
        let buffer_block = has_nested(cx, t, deco::BufferBlock, 0);
        let mut err = |msg: String| cx.sink.push(inst.offset, "vulkan:descriptor", msg);
        if ssbo && buffer_block {
            err(format!(
                "StorageBuffer variable %{var}: BufferBlock is not allowed in the StorageBuffer \
                 storage class"
            ));
            continue;
        }
        if uniform && !block && !buffer_block {
            err(format!(
                "Uniform variable %{var} is not decorated Block or BufferBlock"
            ));
            continue;
        }
        if (uniform || ssbo) && referenced {
            if !m.has_decoration(var, deco::DescriptorSet) {
                err(format!(
                    "variable %{var} is missing a DescriptorSet decoration"
                ));
                continue;
            }
            if !m.has_decoration(var, deco::Binding) {
                err(format!("variable %{var} is missing a Binding decoration"));
                continue;
            }
        }
        if ssbo && !block {
            err(format!(
                "StorageBuffer variable %{var} is not decorated Block"
            ));
        } else if push && !block {
            err(format!(
                "PushConstant variable %{var} is not decorated Block"
            ));
        }
    }
}

/// Whether `t` or a struct directly nested in it has decoration `kind`.
fn has_nested(cx: &Cx<'_>, t: u32, kind: u32, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    let m = cx.m;
    if m.has_decoration(t, kind) {
        return true;
    }
    match m.ty(t) {
        Some(Ty::Struct { members }) => members.iter().any(|&x| {
            matches!(m.ty(x), Some(Ty::Struct { .. })) && has_nested(cx, x, kind, depth + 1)
        }),
        _ => false,
    }
}

/// Locations consumed by a type (`None`: not a type that takes locations).
fn num_locations(cx: &Cx<'_>, t: u32, depth: u32) -> Option<u32> {
    if depth > 32 {
        return Some(1);
    }
    let m = cx.m;
    Some(match m.ty(t)? {
        Ty::Int { .. } | Ty::Float { .. } => 1,
        Ty::Vector { count, .. } => {
            if m.bit_width(t) == 64 && count > 2 {
                2
            } else {
                1
            }
        }
        Ty::Matrix { column, count } => num_locations(cx, column, depth + 1)?.saturating_mul(count),
        Ty::Array { element, length } => {
            let n = num_locations(cx, element, depth + 1)?;
            match m.const_int(length) {
                Some(v) if m.bit_width(m.type_of(length).unwrap_or(0)) == 32 => {
                    n.saturating_mul(v.clamp(0, i128::from(u32::MAX)) as u32)
                }
                _ => n,
            }
        }
        Ty::Struct { members } => {
            let mut n = 0u32;
            for &x in members {
                n = n.saturating_add(num_locations(cx, x, depth + 1)?);
            }
            n
        }
        Ty::Pointer { storage, .. } if storage == S::PhysicalStorageBuffer.value() => 1,
        _ => return None,
    })
}

/// Components consumed by a type.
fn num_components(cx: &Cx<'_>, t: u32, depth: u32) -> u32 {
    if depth > 32 {
        return 1;
    }
    let m = cx.m;
    match m.ty(t) {
        Some(Ty::Int { width, .. } | Ty::Float { width }) => {
            if width == 64 {
                2
            } else {
                1
            }
        }
        Some(Ty::Vector { component, count }) => {
            num_components(cx, component, depth + 1).saturating_mul(count)
        }
        Some(Ty::Array { element, .. }) => num_components(cx, element, depth + 1),
        Some(Ty::Pointer { storage, .. }) if storage == S::PhysicalStorageBuffer.value() => 2,
        _ => 0,
    }
}

/// Input/Output interfaces of the graphics stages have non-overlapping locations.
fn locations(cx: &mut Cx<'_>) {
    let m = cx.m;
    for &i in &m.entry_points {
        let e = m.inst(i);
        let model = e.word(0);
        let arrayed_model = |output: bool, patch: bool, per_vertex: bool| match model {
            x if x == E::TessellationControl.value() => !patch,
            x if x == E::TessellationEvaluation.value() => !output && !patch,
            x if x == E::Geometry.value() => !output,
            x if x == E::Fragment.value() => !output && per_vertex,
            _ => false,
        };
        if ![
            E::Vertex,
            E::TessellationControl,
            E::TessellationEvaluation,
            E::Geometry,
            E::Fragment,
        ]
        .iter()
        .any(|x| x.value() == model)
        {
            continue;
        }
        let name_words = e
            .rest(2)
            .iter()
            .position(|w| w.to_le_bytes().contains(&0))
            .map_or(0, |p| p + 1);
        let mut taken: [HashSet<u64>; 3] = Default::default();
        let mut seen = HashSet::new();
        for &var in e.rest(2 + name_words) {
            let Some(v) = m.def(var).filter(|d| d.op() == Some(Opcode::Variable)) else {
                continue;
            };
            let sc = v.word(2);
            let output = sc == S::Output.value();
            if !output && sc != S::Input.value() || !seen.insert(var) {
                continue;
            }
            let decos = m.decorations_of(var);
            if decos
                .iter()
                .any(|d| d.member == u32::MAX && d.kind == deco::BuiltIn)
            {
                continue;
            }
            let loc = decos
                .iter()
                .find(|d| d.member == u32::MAX && d.kind == deco::Location)
                .map(|d| d.arg);
            let component = decos
                .iter()
                .find(|d| d.member == u32::MAX && d.kind == deco::Component)
                .map_or(0, |d| d.arg);
            let index = decos
                .iter()
                .find(|d| {
                    d.member == u32::MAX && d.kind == crate::grammar::Decoration::Index(0).value()
                })
                .map_or(0, |d| d.arg);
            let has = |k: u32| decos.iter().any(|d| d.member == u32::MAX && d.kind == k);
            let patch = has(crate::grammar::Decoration::Patch.value());
            let per_vertex = has(crate::grammar::Decoration::PerVertexKHR.value());
            let Some((_, mut t)) = m.pointer(v.word(0)) else {
                continue;
            };
            if arrayed_model(output, patch, per_vertex) {
                if let Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) = m.ty(t) {
                    t = element;
                }
            }
            if matches!(m.ty(t), Some(Ty::Struct { .. }))
                && m.decorations_of(t).iter().any(|d| d.kind == deco::BuiltIn)
            {
                continue;
            }
            let block = m.has_decoration(t, deco::Block);
            let set = if !output {
                0
            } else if index == 1 {
                2
            } else {
                1
            };
            let what = if output { "output" } else { "input" };
            let Some(loc) = loc else {
                if !block {
                    cx.err(
                        &v,
                        "vulkan:location",
                        format!("interface variable %{var} must be decorated with a Location"),
                    );
                    continue;
                }
                // Each member of the block has its own location.
                let Some(Ty::Struct { members }) = m.ty(t) else {
                    continue;
                };
                for (k, &mt) in members.iter().enumerate() {
                    let md = m.decorations_of(t);
                    let Some(l) = md
                        .iter()
                        .find(|d| d.member == k as u32 && d.kind == deco::Location)
                        .map(|d| d.arg)
                    else {
                        cx.err(
                            &v,
                            "vulkan:location",
                            format!("member {k} of the interface block %{t} is missing a Location"),
                        );
                        break;
                    };
                    let c = md
                        .iter()
                        .find(|d| d.member == k as u32 && d.kind == deco::Component)
                        .map_or(0, |d| d.arg);
                    let n = num_locations(cx, mt, 0).unwrap_or(1);
                    let nc = num_components(cx, mt, 0);
                    let strided =
                        matches!(m.ty(mt), Some(Ty::Array { .. })) && (1..4).contains(&nc);
                    if let Some((l, c)) = claim(&mut taken[set], l, n, c, nc, 1, strided) {
                        cx.err(
                            &e,
                            "vulkan:location",
                            format!(
                                "the entry point has conflicting {what} location assignments at \
                                 location {l}, component {c}"
                            ),
                        );
                        break;
                    }
                }
                continue;
            };
            // Still arrayed (e.g. an array of vectors): mark each element.
            let (sub, count) = match m.ty(t) {
                Some(Ty::Array { element, length }) => {
                    let n = m
                        .const_int(length)
                        .filter(|_| m.bit_width(m.type_of(length).unwrap_or(0)) == 32)
                        .map_or(1, |n| n.clamp(1, 4096) as u32);
                    (element, n)
                }
                _ => (t, 1),
            };
            let n = num_locations(cx, sub, 0).unwrap_or(1);
            let nc = num_components(cx, sub, 0);
            if let Some((l, c)) = claim(&mut taken[set], loc, n, component, nc, count, false) {
                cx.err(
                    &e,
                    "vulkan:location",
                    format!(
                        "the entry point has conflicting {what} location assignments at location \
                         {l}, component {c}"
                    ),
                );
            }
        }
    }
}

/// Marks the location-component slots (`4 * location + component`) of `count` consecutive
/// elements of `n` locations and `nc` components (0: whole locations) from `loc`, component
/// `c`, as `spirv-val` does; `strided` marks `nc` components in each of the `n` locations.
/// Returns the first slot already taken.
fn claim(
    taken: &mut HashSet<u64>,
    loc: u32,
    n: u32,
    c: u32,
    nc: u32,
    count: u32,
    strided: bool,
) -> Option<(u64, u64)> {
    const MAX_LOCATIONS: u64 = 4096 * 4;
    for a in 0..u64::from(count.min(4096)) {
        let first = u64::from(loc) + u64::from(n) * a;
        if first * 4 >= MAX_LOCATIONS {
            break;
        }
        if strided {
            for l in first..first + u64::from(n.min(4096)) {
                for k in u64::from(c)..u64::from(c) + u64::from(nc) {
                    if !taken.insert(4 * l + k) {
                        return Some((l, k));
                    }
                }
            }
            continue;
        }
        let (start, end) = if nc != 0 {
            (
                first * 4 + u64::from(c),
                first * 4 + u64::from(c) + u64::from(nc),
            )
        } else {
            (first * 4, (first + u64::from(n)) * 4)
        };
        for slot in start..end.min(start + MAX_LOCATIONS) {
            if !taken.insert(slot) {
                return Some((slot / 4, slot % 4));
            }
        }
    }
    None
}

/// What a built-in's type must be.
#[derive(Clone, Copy)]
enum Want {
    /// A 32-bit float scalar.
    F32,
    /// A 32-bit float vector of n components.
    F32Vec(u32),
    /// A 32-bit int scalar.
    I32,
    /// A 32-bit int vector of n components.
    I32Vec(u32),
    /// A bool scalar.
    Bool,
    /// An array of 32-bit floats.
    F32Array,
    /// An array of 32-bit ints.
    I32Array,
}

fn want(b: u32) -> Option<(Want, &'static str)> {
    use Want::*;
    let table: &[(B, Want, &str)] = &[
        (B::Position, F32Vec(4), "a 4-component 32-bit float vector"),
        (B::PointSize, F32, "a 32-bit float scalar"),
        (B::ClipDistance, F32Array, "an array of 32-bit floats"),
        (B::CullDistance, F32Array, "an array of 32-bit floats"),
        (B::FragCoord, F32Vec(4), "a 4-component 32-bit float vector"),
        (B::FragDepth, F32, "a 32-bit float scalar"),
        (B::FrontFacing, Bool, "a bool scalar"),
        (B::HelperInvocation, Bool, "a bool scalar"),
        (
            B::GlobalInvocationId,
            I32Vec(3),
            "a 3-component 32-bit int vector",
        ),
        (
            B::LocalInvocationId,
            I32Vec(3),
            "a 3-component 32-bit int vector",
        ),
        (B::WorkgroupId, I32Vec(3), "a 3-component 32-bit int vector"),
        (
            B::NumWorkgroups,
            I32Vec(3),
            "a 3-component 32-bit int vector",
        ),
        (
            B::WorkgroupSize,
            I32Vec(3),
            "a 3-component 32-bit int vector",
        ),
        (B::LocalInvocationIndex, I32, "a 32-bit int scalar"),
        (B::VertexIndex, I32, "a 32-bit int scalar"),
        (B::InstanceIndex, I32, "a 32-bit int scalar"),
        (B::PrimitiveId, I32, "a 32-bit int scalar"),
        (B::InvocationId, I32, "a 32-bit int scalar"),
        (B::Layer, I32, "a 32-bit int scalar"),
        (B::ViewportIndex, I32, "a 32-bit int scalar"),
        (B::PatchVertices, I32, "a 32-bit int scalar"),
        (B::SampleId, I32, "a 32-bit int scalar"),
        (B::SampleMask, I32Array, "an array of 32-bit ints"),
        (
            B::SamplePosition,
            F32Vec(2),
            "a 2-component 32-bit float vector",
        ),
        (
            B::PointCoord,
            F32Vec(2),
            "a 2-component 32-bit float vector",
        ),
        (B::TessCoord, F32Vec(3), "a 3-component 32-bit float vector"),
        (B::TessLevelOuter, F32Array, "an array of 32-bit floats"),
        (B::TessLevelInner, F32Array, "an array of 32-bit floats"),
        (B::SubgroupSize, I32, "a 32-bit int scalar"),
        (B::SubgroupLocalInvocationId, I32, "a 32-bit int scalar"),
        (B::NumSubgroups, I32, "a 32-bit int scalar"),
        (B::SubgroupId, I32, "a 32-bit int scalar"),
        (
            B::SubgroupEqMask,
            I32Vec(4),
            "a 4-component 32-bit int vector",
        ),
        (
            B::SubgroupGeMask,
            I32Vec(4),
            "a 4-component 32-bit int vector",
        ),
        (
            B::SubgroupGtMask,
            I32Vec(4),
            "a 4-component 32-bit int vector",
        ),
        (
            B::SubgroupLeMask,
            I32Vec(4),
            "a 4-component 32-bit int vector",
        ),
        (
            B::SubgroupLtMask,
            I32Vec(4),
            "a 4-component 32-bit int vector",
        ),
        (B::BaseVertex, I32, "a 32-bit int scalar"),
        (B::BaseInstance, I32, "a 32-bit int scalar"),
        (B::DrawIndex, I32, "a 32-bit int scalar"),
        (B::DeviceIndex, I32, "a 32-bit int scalar"),
        (B::ViewIndex, I32, "a 32-bit int scalar"),
    ];
    table
        .iter()
        .find(|(x, _, _)| *x as u32 == b)
        .map(|&(_, w, s)| (w, s))
}

fn matches_want(cx: &Cx<'_>, t: u32, w: Want) -> bool {
    let m = cx.m;
    let f32s = |t: u32| m.is_float_scalar(t) && m.bit_width(t) == 32;
    let i32s = |t: u32| m.is_int_scalar(t) && m.bit_width(t) == 32;
    match w {
        Want::F32 => f32s(t),
        Want::I32 => i32s(t),
        Want::Bool => m.is_bool_scalar(t),
        Want::F32Vec(n) => m.is_float_vector(t) && m.dimension(t) == n && m.bit_width(t) == 32,
        Want::I32Vec(n) => m.is_int_vector(t) && m.dimension(t) == n && m.bit_width(t) == 32,
        Want::F32Array => match m.ty(t) {
            Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => f32s(element),
            _ => false,
        },
        Want::I32Array => match m.ty(t) {
            Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => i32s(element),
            _ => false,
        },
    }
}

/// Built-in variables and members have their specified types (one level of arraying for
/// per-vertex interfaces is allowed).
fn builtins(cx: &mut Cx<'_>) {
    let m = cx.m;
    let mut reported = HashMap::new();
    for d in &m.decorations {
        if d.kind != deco::BuiltIn {
            continue;
        }
        let Some((w, what)) = want(d.arg) else {
            continue;
        };
        let Some(def) = m.def(d.target) else { continue };
        let t = if d.member == u32::MAX {
            match def.op() {
                Some(Opcode::Variable) => m.pointer(def.word(0)).map(|(_, p)| p),
                Some(op) if op.is_constant_creation() => def.result_type(),
                _ => None,
            }
        } else {
            match m.ty(d.target) {
                Some(Ty::Struct { members }) => members.get(d.member as usize).copied(),
                _ => None,
            }
        };
        let Some(t) = t else { continue };
        let ok = matches_want(cx, t, w)
            || match m.ty(t) {
                Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
                    matches_want(cx, element, w)
                }
                _ => false,
            };
        if !ok && reported.insert((d.target, d.member), ()).is_none() {
            let name = crate::grammar::BuiltIn::from_value(d.arg).map_or("?", |b| b.name());
            let inst = m.inst(d.inst);
            cx.err(
                &inst,
                "vulkan:builtin-type",
                format!("built-in {name} must be {what}"),
            );
        }
    }
}
