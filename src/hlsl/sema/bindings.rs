//! Descriptor sets and binding numbers as DXC assigns them (`docs/SPIR-V.rst`, "Descriptor sets
//! and bindings"): `[[vk::binding(B, S)]]` first, then `register(xN, spaceM)` shifted by
//! `-fvk-x-shift`, then every other resource in declaration order takes the lowest free binding
//! of the default set (`-auto-binding-space`; shifted too with `-fvk-auto-shift-bindings`).
//! `-fvk-bind-register` replaces all of that with its table; `-fvk-bind-globals` places
//! `$Globals`. [`bind_module`] gives every module-scope resource and buffer of the HIR its
//! [`Descriptor`], reporting what DXC refuses; code generation decorates with it.

use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{Binding, Descriptor, Global, GlobalKind, Heap, Module};
use crate::hlsl::sema::decls::TypeEnv;
use crate::hlsl::sema::types::{ResourceKind, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::{Options, ResourceBindings};
use std::collections::{HashMap, HashSet};

/// Assigns every resource and buffer of `m` its binding (and its counter's), in declaration
/// order, and reports the bindings DXC refuses (`-fvk-bind-register` without a place, a
/// column-major non-float matrix in a buffer); false when one was refused.
pub fn bind_module(m: &mut Module, opts: &Options, diags: &mut Vec<Diagnostic>) -> bool {
    let mut refused = vec![false; m.globals.len()];
    for (g, refused) in m.globals.iter().zip(refused.iter_mut()) {
        let bad = match (&g.kind, &g.ty) {
            (
                GlobalKind::Resource { .. },
                Ty::Resource(ResourceKind::StructuredBuffer { row_major, .. }, elem),
            ) => column_major_int_matrix(&m.types, elem, *row_major),
            (GlobalKind::Block { def, .. }, _) => def
                .fields
                .iter()
                .any(|f| column_major_int_matrix(&m.types, &f.ty, f.row_major)),
            _ => false,
        };
        if bad {
            diags.push(Diagnostic::error(
                g.span,
                "externally initialized non-floating-point column-major matrices not supported \
                 yet",
            ));
            *refused = true;
        }
    }
    // Push constants have no binding; a counter comes right after its buffer: at
    // `[[vk::counter_binding]]` in the buffer's set, after the buffer when that is implicit,
    // else in the lowest hole of the buffer's set.
    let default_set = opts.bindings.default_space;
    let composite = m
        .globals
        .iter()
        .any(|g| matches!(g.kind, GlobalKind::ResourceStruct { .. }));
    let mut requests: Vec<Request> = Vec::new();
    // Per request: the global (by index) and whether it is its counter's.
    let mut owners: Vec<(usize, bool)> = Vec::new();
    for (i, g) in m.globals.iter().enumerate() {
        let Some((mut assignment, mut class, counter)) = request_of(g, &m.globals) else {
            continue;
        };
        // A `[[vk::combinedImageSampler]]` sampler takes its texture's register class (and
        // shift): the pair is one combined image sampler.
        if m.combined.contains(&g.name) && class == 's' {
            class = 't';
            if let Assignment::Register { class: c @ 's', .. } = &mut assignment {
                *c = 't';
            }
        }
        let count = match &g.kind {
            GlobalKind::ResourceStruct { bindings, .. } => *bindings,
            // Beside a struct of resources, which is split, DXC counts arrays of resources
            // the same way: one binding per element.
            GlobalKind::Resource {
                array: Some(n @ 1..),
                ..
            }
            | GlobalKind::Block {
                array: Some(n @ 1..),
                ..
            } if composite => *n,
            _ => flattened(opts, g).unwrap_or(1),
        };
        requests.push(Request {
            assignment,
            count,
            class,
            globals: g.name == "$Globals" && g.span == Span::default(),
            span: g.span,
        });
        owners.push((i, false));
        if let Some(explicit) = counter {
            let set = match assignment {
                Assignment::VkBinding { set, .. } => set.unwrap_or(default_set),
                Assignment::Register { space, .. } => space.unwrap_or(default_set),
                Assignment::ImplicitIn { set } | Assignment::Hole { set } => set,
                Assignment::Implicit | Assignment::Heap(_) | Assignment::CounterHeap => default_set,
            };
            let assignment = match (explicit, assignment) {
                // A heap's buffers' counters: the counter heap's.
                (_, Assignment::Heap(_)) => Assignment::CounterHeap,
                (Some(binding), _) => Assignment::VkBinding {
                    binding,
                    set: Some(set),
                },
                (None, a @ (Assignment::Implicit | Assignment::ImplicitIn { .. })) => a,
                (None, _) => Assignment::Hole { set },
            };
            // An array of counters, flattened as its buffers are, takes a binding each.
            requests.push(Request {
                assignment,
                count: flattened(opts, g).unwrap_or(1),
                class: 'u',
                globals: false,
                span: g.span,
            });
            owners.push((i, true));
        }
    }
    let assigned = assign(&opts.bindings, &requests, diags);
    let mut descriptors = vec![Descriptor::default(); m.globals.len()];
    for ((i, counter), place) in owners.into_iter().zip(assigned) {
        let d = &mut descriptors[i];
        if place.is_none() {
            refused[i] = true;
        }
        if counter {
            d.counter = place;
        } else {
            d.binding = place;
        }
    }
    // A struct of resources' resources: from its binding on.
    for (i, g) in m.globals.iter().enumerate() {
        if let GlobalKind::Resource {
            binding: Binding::Member { owner, offset },
            ..
        } = g.kind
        {
            let place = descriptors.get(owner).and_then(|d| d.binding);
            descriptors[i].binding = place.map(|(b, s)| (b.saturating_add(offset), s));
            refused[i] = refused.get(owner).copied().unwrap_or(true);
        }
    }
    // Each `[[vk::combinedImageSampler]]` texture and sampler at the same place as one of the
    // other kind: DXC's error otherwise.
    let mut places: Vec<((u32, u32), bool, bool)> = Vec::new();
    let mut ok = true;
    for (g, d) in m.globals.iter().zip(&descriptors) {
        let (Some(place), true) = (d.binding, m.combined.contains(&g.name)) else {
            continue;
        };
        let sampler = matches!(g.ty, Ty::Resource(ResourceKind::Sampler { .. }, _));
        match places.iter_mut().find(|(p, ..)| *p == place) {
            Some((_, t, s)) if (sampler && !*s) || (!sampler && !*t) => {
                *s |= sampler;
                *t |= !sampler;
            }
            Some(_) => {
                diags.push(Diagnostic::error(
                    g.span,
                    format!(
                        "a second [[vk::combinedImageSampler]] {} at descriptor set and \
                         binding: {}, {}",
                        if sampler { "sampler" } else { "texture" },
                        place.1,
                        place.0
                    ),
                ));
                ok = false;
            }
            None => places.push((place, !sampler, sampler)),
        }
    }
    for &((binding, set), t, s) in &places {
        if !(t && s) {
            let g =
                m.globals.iter().zip(&descriptors).find(|(g, d)| {
                    d.binding == Some((binding, set)) && m.combined.contains(&g.name)
                });
            diags.push(Diagnostic::error(
                g.map_or(Span::default(), |(g, _)| g.span),
                format!(
                    "Texture or Sampler with [[vk::combinedImageSampler]] attribute is missing \
                     for descriptor set and binding: {set}, {binding}"
                ),
            ));
            ok = false;
        }
    }
    m.combined_places = places.iter().map(|&((b, s), ..)| (s, b)).collect();
    for ((g, mut d), refused) in m.globals.iter_mut().zip(descriptors).zip(&refused) {
        d.refused = *refused;
        g.descriptor = d;
    }
    ok && !refused.contains(&true)
}

/// What a global asks of the binding assignment: what the source says, the register class it
/// would take, and its counter (`Some(Some(b))` at `[[vk::counter_binding(b)]]`); `None` for
/// what takes no binding (a push constant block, what is no resource or buffer).
fn request_of(g: &Global, globals: &[Global]) -> Option<(Assignment, char, Option<Option<u32>>)> {
    match (&g.kind, &g.ty) {
        // A struct of resources: the class of its first resource.
        (
            GlobalKind::ResourceStruct {
                binding, leaves, ..
            },
            _,
        ) => {
            let first = leaves.first()?;
            let class = globals.iter().find_map(|l| match &l.ty {
                Ty::Resource(kind, _) if l.name == *first => Some(resource_class(*kind)),
                _ => None,
            })?;
            Some(((*binding).into(), class, None))
        }
        (
            GlobalKind::Resource {
                binding: Binding::Member { .. },
                ..
            },
            _,
        ) => None,
        (
            GlobalKind::Resource {
                binding, counter, ..
            },
            Ty::Resource(kind, _),
        ) => Some(((*binding).into(), resource_class(*kind), *counter)),
        (
            GlobalKind::Block {
                push_constant: false,
                texture,
                binding,
                ..
            },
            _,
        ) => Some(((*binding).into(), if *texture { 't' } else { 'b' }, None)),
        _ => None,
    }
}

/// The register class DXC infers for a resource of `kind` (`-fvk-auto-shift-bindings`).
fn resource_class(kind: ResourceKind) -> char {
    match kind {
        ResourceKind::TextureBuffer
        | ResourceKind::Subpass { .. }
        | ResourceKind::AccelerationStructure
        // (Never bound: a ray query is a Function variable.)
        | ResourceKind::RayQuery { .. } => 't',
        ResourceKind::Sampler { .. } => 's',
        ResourceKind::ConstantBuffer => 'b',
        ResourceKind::StructuredBuffer { rw, .. }
        | ResourceKind::ByteAddressBuffer { rw }
        | ResourceKind::TexelBuffer { rw, .. }
        | ResourceKind::Texture { rw, .. } => {
            if rw {
                'u'
            } else {
                't'
            }
        }
    }
}

/// The length of `g` if it is an array of resources or blocks that `-fspv-flatten-resource-arrays`
/// makes one variable per element (at consecutive bindings).
pub(crate) fn flattened(opts: &Options, g: &Global) -> Option<u32> {
    match g.kind {
        GlobalKind::Resource { array, .. } | GlobalKind::Block { array, .. }
            if opts.bindings.flatten_arrays =>
        {
            array.filter(|&n| n > 0)
        }
        _ => None,
    }
}

/// Whether `ty` holds a column-major matrix of non-floats: DXC cannot lay those out in a
/// buffer (it refuses them, and so does spvkit rather than guess).
fn column_major_int_matrix(env: &TypeEnv, ty: &Ty, row_major: bool) -> bool {
    match ty {
        Ty::Matrix(s, ..) => !s.is_float() && !row_major,
        Ty::Array(e, _) => column_major_int_matrix(env, e, row_major),
        Ty::Struct(i) => env.structs.get(*i).is_some_and(|d| {
            d.fields
                .iter()
                .any(|f| column_major_int_matrix(env, &f.ty, f.row_major))
        }),
        _ => false,
    }
}

/// What the source says about a resource's binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Assignment {
    /// `[[vk::binding(binding, set)]]`.
    VkBinding { binding: u32, set: Option<u32> },
    /// `: register(xN, spaceM)`.
    Register {
        class: char,
        index: u32,
        space: Option<u32>,
    },
    /// Nothing.
    Implicit,
    /// `register(spaceM)`: the lowest free binding of set M, as for an implicit one.
    ImplicitIn { set: u32 },
    /// The lowest binding free in `set` once the explicit ones are placed (the counter of a
    /// buffer bound explicitly, as DXC places it).
    Hole { set: u32 },
    /// A descriptor heap's view: the heap's binding (`-fvk-bind-resource-heap`,
    /// `-fvk-bind-sampler-heap`), or the lowest free in the default set once every other
    /// resource is bound, the resource heap's first; all views of a heap share it.
    Heap(Heap),
    /// The counters of a heap's buffers (`-fvk-bind-counter-heap`, or the lowest free in the
    /// default set after the resource heap's).
    CounterHeap,
}

impl From<crate::hlsl::hir::Binding> for Assignment {
    fn from(b: crate::hlsl::hir::Binding) -> Assignment {
        use crate::hlsl::hir::Binding;
        match b {
            Binding::VkBinding { binding, set } => Assignment::VkBinding { binding, set },
            Binding::Register {
                class,
                index,
                space,
            } => Assignment::Register {
                class,
                index,
                space,
            },
            Binding::Space(set) => Assignment::ImplicitIn { set },
            Binding::Implicit => Assignment::Implicit,
            Binding::Heap(h) => Assignment::Heap(h),
            // Never requested: bound from the struct's binding.
            Binding::Member { .. } => Assignment::Implicit,
        }
    }
}

/// One resource to bind.
#[derive(Clone, Copy, Debug)]
struct Request {
    /// What the source says.
    assignment: Assignment,
    /// The register class the resource would take (`b`, `t`, `s`, `u`), for
    /// `-fvk-auto-shift-bindings`.
    class: char,
    /// Whether it is the `$Globals` buffer.
    globals: bool,
    /// How many consecutive bindings it takes (an array flattened by
    /// `-fspv-flatten-resource-arrays` takes one per element).
    count: u32,
    /// Where it is declared.
    span: Span,
}

/// The `(binding, set)` of each request, in order; errors (from `-fvk-bind-register`) go to
/// `diags` and leave `None`.
fn assign(
    opts: &ResourceBindings,
    requests: &[Request],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<(u32, u32)>> {
    if !opts.registers.is_empty() {
        return by_table(opts, requests, diags);
    }
    let default_set = opts.default_space;
    let mut used: HashMap<u32, HashSet<u32>> = HashMap::new();
    let mut out = vec![None; requests.len()];
    // [[vk::binding]], then register(): both taken as given (overlaps are not errors).
    for pass in 0..2 {
        for (r, slot) in requests.iter().zip(out.iter_mut()) {
            let (binding, set) = match (pass, r.assignment) {
                (0, Assignment::VkBinding { binding, set }) => {
                    (binding, set.unwrap_or(default_set))
                }
                (
                    1,
                    Assignment::Register {
                        class,
                        index,
                        space,
                    },
                ) => {
                    let set = space.unwrap_or(default_set);
                    (index.saturating_add(opts.shift(class, set)), set)
                }
                _ => continue,
            };
            let taken = used.entry(set).or_default();
            taken.extend((0..r.count).map(|k| binding.saturating_add(k)));
            *slot = Some((binding, set));
        }
    }
    for (r, slot) in requests.iter().zip(out.iter_mut()) {
        if let Assignment::Hole { set } = r.assignment {
            let taken = used.entry(set).or_default();
            let mut binding = 0;
            while taken.contains(&binding) {
                binding += 1;
            }
            taken.insert(binding);
            *slot = Some((binding, set));
            continue;
        }
        let set = match r.assignment {
            Assignment::Implicit => default_set,
            Assignment::ImplicitIn { set } => set,
            _ => continue,
        };
        let shift = |set| {
            if opts.auto_shift {
                opts.shift(r.class, set)
            } else {
                0
            }
        };
        if let (true, Some((binding, set))) = (r.globals, opts.globals) {
            // As DXC: -fvk-bind-globals does not reserve its binding.
            *slot = Some((binding.saturating_add(shift(set)), set));
            continue;
        }
        let taken = used.entry(set).or_default();
        let mut binding = shift(set);
        // The lowest binding from which `count` consecutive ones are free.
        while (0..r.count).any(|k| taken.contains(&binding.saturating_add(k))) {
            binding += 1;
        }
        taken.extend((0..r.count).map(|k| binding.saturating_add(k)));
        *slot = Some((binding, set));
    }
    let heaps = [
        (Assignment::Heap(Heap::Resource), opts.resource_heap),
        (Assignment::CounterHeap, opts.counter_heap),
        (Assignment::Heap(Heap::Sampler), opts.sampler_heap),
    ];
    for (heap, flag) in heaps {
        let views = || requests.iter().map(|r| r.assignment == heap);
        if !views().any(|v| v) {
            continue;
        }
        let place = flag.unwrap_or_else(|| {
            let taken = used.entry(default_set).or_default();
            let mut binding = 0;
            while taken.contains(&binding) {
                binding += 1;
            }
            taken.insert(binding);
            (binding, default_set)
        });
        for (view, slot) in views().zip(out.iter_mut()) {
            if view {
                *slot = Some(place);
            }
        }
    }
    out
}

/// `-fvk-bind-register`: every resource has a `register()` listed in the table (or is
/// `$Globals` placed by `-fvk-bind-globals`).
fn by_table(
    opts: &ResourceBindings,
    requests: &[Request],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<(u32, u32)>> {
    let mut out = Vec::with_capacity(requests.len());
    for r in requests {
        let found = match r.assignment {
            Assignment::Register {
                class,
                index,
                space,
            } => {
                let space = space.unwrap_or(opts.default_space);
                let hit = opts
                    .registers
                    .iter()
                    .rev()
                    .find(|b| b.class == class && b.index == index && b.space == space);
                match hit {
                    Some(b) => Some((b.binding, b.set)),
                    None => {
                        diags.push(Diagnostic::error(
                            r.span,
                            "missing -fvk-bind-register for resource",
                        ));
                        None
                    }
                }
            }
            _ if r.globals && opts.globals.is_some() => opts.globals,
            Assignment::Heap(_) | Assignment::CounterHeap => {
                let (place, flag) = match r.assignment {
                    Assignment::Heap(Heap::Resource) => {
                        (opts.resource_heap, "-fvk-bind-resource-heap")
                    }
                    Assignment::Heap(Heap::Sampler) => {
                        (opts.sampler_heap, "-fvk-bind-sampler-heap")
                    }
                    _ => (opts.counter_heap, "-fvk-bind-counter-heap"),
                };
                if place.is_none() {
                    diags.push(Diagnostic::error(
                        r.span,
                        format!("{flag} is required when using -fvk-bind-register"),
                    ));
                }
                place
            }
            _ => {
                diags.push(Diagnostic::error(
                    r.span,
                    "-fvk-bind-register requires register annotations on all resources",
                ));
                None
            }
        };
        out.push(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hlsl::{RegisterBinding, ResourceBindings};

    fn req(assignment: Assignment, class: char) -> Request {
        Request {
            count: 1,
            assignment,
            class,
            globals: false,
            span: Span::default(),
        }
    }

    fn reg(class: char, index: u32, space: Option<u32>) -> Assignment {
        Assignment::Register {
            class,
            index,
            space,
        }
    }

    #[test]
    fn explicit_then_shifted_registers_then_the_lowest_free() {
        let mut o = ResourceBindings {
            shifts: vec![('b', Some(0), 100), ('t', None, 5)],
            ..ResourceBindings::default()
        };
        let reqs = [
            req(Assignment::Implicit, 't'),
            req(reg('b', 0, None), 'b'),
            req(reg('t', 1, Some(2)), 't'),
            req(
                Assignment::VkBinding {
                    binding: 0,
                    set: None,
                },
                't',
            ),
            req(Assignment::Implicit, 'u'),
        ];
        let got = assign(&o, &reqs, &mut Vec::new());
        assert_eq!(
            got,
            vec![
                Some((1, 0)),
                Some((100, 0)),
                Some((6, 2)),
                Some((0, 0)),
                Some((2, 0))
            ]
        );
        o.auto_shift = true;
        o.default_space = 3;
        let got = assign(&o, &reqs, &mut Vec::new());
        // Implicit ones move to set 3; `t` is shifted by 5 in every set, `u` by nothing (0
        // is taken by the register and the vk::binding, which may overlap).
        assert_eq!(got[0], Some((5, 3)));
        assert_eq!(got[1], Some((0, 3)));
        assert_eq!(got[3], Some((0, 3)));
        assert_eq!(got[4], Some((1, 3)));
    }

    #[test]
    fn the_register_table_needs_every_resource() {
        let o = ResourceBindings {
            registers: vec![RegisterBinding {
                class: 't',
                index: 5,
                space: 0,
                binding: 1,
                set: 2,
            }],
            ..ResourceBindings::default()
        };
        let mut diags = Vec::new();
        let got = assign(&o, &[req(reg('t', 5, None), 't')], &mut diags);
        assert_eq!(got, vec![Some((1, 2))]);
        let got = assign(
            &o,
            &[
                req(reg('t', 5, Some(1)), 't'),
                req(Assignment::Implicit, 's'),
            ],
            &mut diags,
        );
        assert_eq!(got, vec![None, None]);
        assert_eq!(diags.len(), 2);
    }
}
