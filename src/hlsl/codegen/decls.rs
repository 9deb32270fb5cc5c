//! Module-level declarations: type names (builtins, `vector<T,N>`, structs, typedefs, resource
//! templates), global variables by kind (resources with their bindings, cbuffers,
//! `ConstantBuffer<T>`, `$Globals`, `static`, `groupshared`, specialization constants, push
//! constants), the reachable functions in callee-first order (recursion rejected), and the
//! driver that emits the whole module.

use super::func::FnCx;
use super::types::{ir_ty, matrix_decorations};
use super::{FuncSym, ParamDir, Place, Resource, State, Sym};
use crate::grammar::{Decoration, FunctionControl, LiteralNumber, StorageClass};
use crate::hlsl::ast::{Expr, ExprKind, Initializer, Item, Modifier, TypeExpr};
use crate::hlsl::hir::{Descriptor, Global, GlobalKind};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls::{self, has, TypeResolver};
use crate::hlsl::sema::layout::{struct_offsets, LayoutRule};
use crate::hlsl::sema::types::{ResourceKind, Scalar, StructDef, TexDim, Ty};
use crate::hlsl::source::Span;
use crate::ir::{
    Builder, GlobalVariable, Handle, Member, SpecConstant, SpecValue, StructType, Type, Value,
};
use std::collections::HashMap;

/// A block struct (`Block` or `BufferBlock`) with the fields of `def` laid out by `layout`.
fn block_struct(
    b: &mut Builder,
    st: &mut State,
    def: &StructDef,
    layout: LayoutRule,
    deco: Decoration,
    non_writable: bool,
) -> Handle<Type> {
    let offsets = struct_offsets(def, layout, &st.types.structs);
    let mut members = Vec::new();
    for (k, f) in def.fields.iter().enumerate() {
        let t = ir_ty(b, st, &f.ty, layout, f.row_major);
        let mut m = Member::new(t);
        m.name = Some(f.name.clone());
        m.offset = offsets.get(k).copied();
        matrix_decorations(&f.ty, layout, f.row_major, &mut m.decorations);
        if f.relaxed {
            m.decorations.push(Decoration::RelaxedPrecision);
        }
        if non_writable {
            m.decorations.push(Decoration::NonWritable);
        }
        members.push(m);
    }
    b.type_struct(StructType {
        name: Some(def.name.clone()),
        members,
        decorations: vec![deco],
    })
}

/// A global waiting for its binding.
struct Pending {
    name: String,
    span: Span,
    /// Its binding, as semantic analysis assigned it.
    descriptor: Descriptor,
    what: PendingKind,
    /// `globallycoherent`: the variable is decorated `Coherent`.
    coherent: bool,
    /// `-fspv-reflect`: the `UserTypeGOOGLE` string of the resource, if it has one.
    user_type: Option<String>,
    /// A counter buffer goes with it: `Some(Some(b))` at `[[vk::counter_binding(b)]]`.
    counter: Option<Option<u32>>,
    /// An array of this many resources (one binding for all, as DXC).
    array: Option<u32>,
    /// `[[vk::input_attachment_index(N)]]` of a `SubpassInput`.
    input_attachment: Option<u32>,
    /// `[[vk::ext_decorate*]]`: more decorations of its variables.
    extra: Vec<Decoration>,
}

enum PendingKind {
    Resource(ResourceKind, Ty),
    /// A cbuffer or `ConstantBuffer<T>` (`as_var`: the name is the whole buffer) as a block.
    Block {
        def: StructDef,
        as_var: bool,
        push_constant: bool,
        /// A `tbuffer` or `TextureBuffer<T>`: read-only storage, structured-buffer layout.
        texture: bool,
    },
}

impl State<'_> {
    /// The value of the constant `n` where the emitter stands (`a[k]` for an element of a
    /// constant array). The innermost declaration of the name decides: a constant, a `const`
    /// local with a constant value, or a variable (not a constant even if a global constant
    /// has its name).
    fn constant(&self, n: &str) -> Option<ConstVal> {
        if let Some((array, k)) = n.strip_suffix(']').and_then(|n| n.split_once('[')) {
            let Some(Sym::Var(p)) = self.scopes.lookup(array) else {
                return None;
            };
            let k: usize = k.parse().ok()?;
            return self.const_arrays.get(&p.ptr)?.get(k).copied();
        }
        match self.scopes.lookup(n) {
            Some(Sym::Const(c, _)) => Some(*c),
            Some(Sym::Var(p)) => self.const_locals.get(&p.ptr).copied(),
            Some(_) => None,
            None => self.types.consts.get(n).copied(),
        }
    }

    /// Folds a constant expression.
    pub fn const_eval(&self, e: &Expr) -> Option<ConstVal> {
        decls::fold(e, self.opts, &|n| self.constant(n))
    }

    /// Runs `f` with a type resolver that sees the names in scope.
    fn with_resolver<T>(&mut self, f: impl FnOnce(&mut TypeResolver) -> T) -> T {
        let mut diags = std::mem::take(&mut self.diags);
        let lookup = |n: &str| self.constant(n);
        let mut r = TypeResolver {
            env: &self.types,
            opts: self.opts,
            consts: &lookup,
            diags: &mut diags,
            pack: None,
        };
        let out = f(&mut r);
        self.diags = diags;
        out
    }

    /// Resolves a written type; the bool says whether it has minimum precision.
    pub fn resolve_type(&mut self, t: &TypeExpr) -> Option<(Ty, bool)> {
        self.with_resolver(|r| r.resolve_type(t))
    }

    /// `base` with a declarator's array dimensions (see [`TypeResolver::array_type`]).
    pub fn array_type(
        &mut self,
        base: &Ty,
        dims: &[Option<Expr>],
        init: Option<&Initializer>,
        at: Span,
    ) -> Option<Ty> {
        self.with_resolver(|r| r.array_type(base, dims, init, at))
    }

    /// The names of a function's parameters.
    pub fn param_names(&self, item: usize) -> Vec<String> {
        match self.unit.items.get(item) {
            Some(Item::Function(f)) => f
                .params
                .iter()
                .map(|p| p.name.as_ref().map_or(String::new(), |n| n.name.clone()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Emits the module; false when an error stopped it.
pub(crate) fn emit_module(st: &mut State, b: &mut Builder) -> bool {
    // A binding semantic analysis refused (and reported) stops before the function bodies.
    let refused = st.globals.iter().any(|g| g.descriptor.refused);
    let mut pending: Vec<Pending> = Vec::new();
    let mut aliases = Vec::new();
    let mut bundles = Vec::new();
    for g in std::mem::take(&mut st.globals) {
        match g.kind {
            GlobalKind::Alias(target) => aliases.push((g.name, g.span, target)),
            GlobalKind::ResourceStruct { leaves, .. } => {
                bundles.push((g.name, g.span, g.ty, leaves))
            }
            GlobalKind::HeapAlias {
                view,
                init: (item, decl),
                ..
            } => declare_global(st, &g.name, g.span, Sym::HeapElement { view, item, decl }),
            _ => define_global(st, b, g, &mut pending),
        }
    }
    bind_globals(st, b, pending);
    // A struct of resources names the variables of its resources.
    for (name, span, ty, leaves) in bundles {
        let leaves: Option<Vec<Resource>> = leaves
            .iter()
            .map(|l| match st.scopes.lookup(l) {
                Some(Sym::Resource(r)) => Some(r.clone()),
                _ => None,
            })
            .collect();
        let sym = match leaves {
            Some(leaves) => Sym::ResourceStruct { ty, leaves },
            // A resource refused (reported).
            None => Sym::Refused,
        };
        declare_global(st, &name, span, sym);
    }
    // A static resource initialized with another is a second name for it.
    for (name, span, target) in aliases {
        if let Some(sym) = st.scopes.lookup(&target).cloned() {
            declare_global(st, &name, span, sym);
        }
    }

    let entry_name = st.opts.entry.clone();
    let Some(order) = st.order.take() else {
        return false;
    };
    let Some(entry) = st
        .functions
        .get(&entry_name)
        .and_then(|v| v.first())
        .cloned()
    else {
        return false;
    };
    if refused
        || st
            .diags
            .iter()
            .any(|d| d.severity == crate::hlsl::diag::Severity::Error)
    {
        return false;
    }
    plan_instances(st, &order);
    for name in &order {
        let n = st.functions.get(name).map_or(0, Vec::len);
        for k in 0..n {
            let Some(item) = st
                .functions
                .get(name)
                .and_then(|v| v.get(k))
                .map(|f| f.item)
            else {
                continue;
            };
            let mut planned: Vec<(Vec<Handle<GlobalVariable>>, Vec<Sym>)> = st
                .instances
                .iter()
                .filter(|((i, _), _)| *i == item)
                .map(|((_, key), (rs, _))| (key.clone(), rs.clone()))
                .collect();
            // In the order of the buffers' declarations, whatever the table's: the same
            // source gives the same module every time.
            planned.sort_by(|a, b| a.0.cmp(&b.0));
            // A function returning a resource is evaluated where it is called
            // (`FnCx::resource_call`): no SPIR-V function.
            let returns_resource = st
                .functions
                .get(name)
                .and_then(|v| v.get(k))
                .is_some_and(|f| f.ret.is_resource());
            if returns_resource && name != &entry_name {
                continue;
            }
            if planned.is_empty() {
                emit_function(st, b, name, k, name == &entry_name, None);
                continue;
            }
            for (key, resources) in planned {
                let h = emit_function(st, b, name, k, false, Some(&resources));
                if let Some(slot) = st.instances.get_mut(&(item, key)) {
                    slot.1 = h;
                }
            }
        }
    }
    let Some(entry) = st
        .functions
        .get(&entry_name)
        .and_then(|v| v.first())
        .cloned()
        .or(Some(entry))
    else {
        return false;
    };
    super::entry::emit_wrapper(st, b, &entry);
    !st.diags
        .iter()
        .any(|d| d.severity == crate::hlsl::diag::Severity::Error)
}

/// Defines the module-scope declaration `g`: a variable, a constant or a name for a literal;
/// resources and buffers wait in `pending` for their bindings.
fn define_global(st: &mut State, b: &mut Builder, g: Global, pending: &mut Vec<Pending>) {
    let Global {
        name,
        span,
        ty,
        relaxed,
        kind,
        descriptor,
        decorations: extra,
    } = g;
    match kind {
        GlobalKind::String(text) => {
            st.string_id(b, &text);
            st.strings.insert(name, text);
        }
        GlobalKind::Resource {
            binding: _,
            coherent,
            user_type,
            counter,
            array,
            input_attachment,
        } => {
            let Ty::Resource(kind, elem) = ty else { return };
            pending.push(Pending {
                name,
                span,
                descriptor,
                what: PendingKind::Resource(kind, *elem),
                coherent,
                user_type,
                counter,
                array,
                input_attachment,
                extra,
            });
        }
        GlobalKind::Block {
            def,
            as_var,
            push_constant,
            texture,
            binding: _,
            user_type,
            array,
        } => pending.push(Pending {
            name,
            span,
            descriptor,
            what: PendingKind::Block {
                def,
                as_var,
                push_constant,
                texture,
            },
            coherent: false,
            user_type,
            counter: None,
            array,
            input_attachment: None,
            extra,
        }),
        GlobalKind::SpecConstant { id, value } => {
            let Ty::Scalar(s) = ty else { return };
            let t = super::types::scalar_ty(b, s);
            let value = match s {
                Scalar::Bool => SpecValue::Bool(value.as_bool()),
                Scalar::Float => {
                    SpecValue::Scalar(LiteralNumber::Word((value.as_float() as f32).to_bits()))
                }
                _ => SpecValue::Scalar(LiteralNumber::Word(value.as_int().unwrap_or(0) as u32)),
            };
            let mut sc = SpecConstant::new(t, value);
            sc.spec_id = Some(id);
            sc.name = Some(name.clone());
            let h = b.spec_constant(sc);
            declare_global(st, &name, span, Sym::Spec(h, ty));
        }
        GlobalKind::GroupShared { row_depth } => {
            let sc = StorageClass::Workgroup;
            let place = plain_global(st, b, &name, ty, relaxed, row_depth, sc);
            decorate_global(b, &place, extra);
            declare_global(st, &name, span, Sym::Var(place));
        }
        GlobalKind::Static {
            konst,
            init,
            row_depth,
            elements,
        } => {
            let sc = StorageClass::Private;
            let place = plain_global(st, b, &name, ty, relaxed, row_depth, sc);
            decorate_global(b, &place, extra);
            if let Some(elems) = elements {
                st.const_arrays.insert(place.ptr, elems);
            }
            if let Some((idx, k)) = init {
                st.static_inits.push((place.clone(), idx, k));
            }
            declare_global(st, &name, span, Sym::Var(Place { konst, ..place }));
        }
        GlobalKind::Constant(c) => declare_global(st, &name, span, Sym::Const(c, ty)),
        GlobalKind::BuiltInVar { builtin, output } => {
            let sc = if output {
                StorageClass::Output
            } else {
                StorageClass::Input
            };
            let g = match st.builtin_vars.get(&(builtin, output)) {
                Some(&g) => g,
                None => {
                    let mut decorations = vec![Decoration::BuiltIn(builtin)];
                    // Integer and 64-bit pixel inputs are flat, as DXC decorates them.
                    let pixel = st.opts.profile.stage == crate::hlsl::Stage::Pixel;
                    let flat = ty
                        .component()
                        .is_some_and(|s| s.is_int() || s == Scalar::Double);
                    if pixel && !output && flat {
                        decorations.push(Decoration::Flat);
                    }
                    let t = ir_ty(b, st, &ty, LayoutRule::None, false);
                    let p = b.type_pointer(sc, t);
                    let g = b.global(GlobalVariable {
                        name: Some(name.clone()),
                        decorations,
                        ..GlobalVariable::new(p, sc)
                    });
                    st.interface.push(g);
                    st.builtin_vars.insert((builtin, output), g);
                    if let Some(v) = b.module_mut().globals.get_mut(g) {
                        v.decorations.extend(extra);
                    }
                    g
                }
            };
            let place = Place {
                ptr: Value::Global(g),
                ty,
                sc,
                layout: LayoutRule::None,
                row_major: false,
                konst: !output,
            };
            declare_global(st, &name, span, Sym::Var(place));
        }
        // Declared by `emit_module`, as names.
        GlobalKind::Alias(_) | GlobalKind::HeapAlias { .. } | GlobalKind::ResourceStruct { .. } => {
        }
    }
}

/// A `groupshared` (Workgroup) or `static` (Private) variable.
fn plain_global(
    st: &mut State,
    b: &mut Builder,
    name: &str,
    ty: Ty,
    relaxed: bool,
    row_depth: Option<u8>,
    sc: StorageClass,
) -> Place {
    let t = ir_ty(b, st, &ty, LayoutRule::None, false);
    let p = b.type_pointer(sc, t);
    let g = b.global(GlobalVariable {
        name: Some(name.to_owned()),
        decorations: relaxed_decoration(relaxed),
        ..GlobalVariable::new(p, sc)
    });
    if relaxed {
        st.relaxed_globals.insert(g);
    }
    if let Some(depth) = row_depth {
        st.row_globals.insert(g, depth);
    }
    Place {
        ptr: Value::Global(g),
        ty,
        sc,
        layout: LayoutRule::None,
        row_major: false,
        konst: false,
    }
}

/// Adds `[[vk::ext_decorate*]]`'s decorations to the module-scope variable at `place`.
fn decorate_global(b: &mut Builder, place: &Place, extra: Vec<Decoration>) {
    if let Value::Global(g) = place.ptr {
        if let Some(v) = b.module_mut().globals.get_mut(g) {
            v.decorations.extend(extra);
        }
    }
}

/// `RelaxedPrecision` for a variable of a minimum-precision type, as DXC decorates it.
fn relaxed_decoration(relaxed: bool) -> Vec<Decoration> {
    if relaxed {
        vec![Decoration::RelaxedPrecision]
    } else {
        Vec::new()
    }
}

fn declare_global(st: &mut State, name: &str, span: Span, sym: Sym) {
    if !st.scopes.declare(name, sym) {
        st.error(span, format!("redefinition of '{name}'"));
    }
}

/// The storage class of a resource variable of `kind`: buffers are blocks in StorageBuffer
/// (Uniform before SPIR-V 1.3's class), images and samplers UniformConstant.
pub(crate) fn resource_class(st: &State, kind: ResourceKind) -> StorageClass {
    match kind {
        ResourceKind::StructuredBuffer { .. } | ResourceKind::ByteAddressBuffer { .. } => {
            if st.storage_buffer_class() {
                StorageClass::StorageBuffer
            } else {
                StorageClass::Uniform
            }
        }
        _ => StorageClass::UniformConstant,
    }
}

/// Defines the resources and buffers at the bindings semantic analysis gave them.
fn bind_globals(st: &mut State, b: &mut Builder, pending: Vec<Pending>) {
    for p in pending {
        let binding = p.descriptor.binding;
        let decos = |binding: Option<(u32, u32)>| match binding {
            Some((bd, set)) => vec![Decoration::DescriptorSet(set), Decoration::Binding(bd)],
            None => Vec::new(),
        };
        let coherent = p.coherent;
        match p.what {
            PendingKind::Resource(kind, elem) => {
                let sc = resource_class(st, kind);
                use crate::grammar::Capability;
                match kind {
                    ResourceKind::TexelBuffer { rw, .. } => b.capability(if rw {
                        Capability::ImageBuffer
                    } else {
                        Capability::SampledBuffer
                    }),
                    ResourceKind::Texture {
                        dim: TexDim::D1,
                        rw,
                        ..
                    } => b.capability(if rw {
                        Capability::Image1D
                    } else {
                        Capability::Sampled1D
                    }),
                    _ => {}
                }
                let rty = Ty::Resource(kind, Box::new(elem.clone()));
                let t = ir_ty(b, st, &rty, LayoutRule::None, false);
                match (kind, b.module().types.get(t).cloned()) {
                    // As DXC outside the ray tracing stages: ray queries read it. (Named as DXC
                    // names it, after its NV ancestor.)
                    (ResourceKind::AccelerationStructure, _) => {
                        b.capability(Capability::RayQueryKHR);
                        b.extension("SPV_KHR_ray_query");
                        b.module_mut()
                            .type_names
                            .entry(t)
                            .or_insert_with(|| "accelerationStructureNV".to_owned());
                    }
                    (ResourceKind::Sampler { .. }, Some(Type::Sampler)) => {
                        b.module_mut()
                            .type_names
                            .entry(t)
                            .or_insert_with(|| "type.sampler".to_owned());
                    }
                    (ResourceKind::TexelBuffer { .. }, Some(Type::Image(_))) => {
                        b.module_mut()
                            .type_names
                            .entry(t)
                            .or_insert_with(|| "type.buffer.image".to_owned());
                    }
                    (ResourceKind::Subpass { .. }, Some(Type::Image(_))) => {
                        b.module_mut()
                            .type_names
                            .entry(t)
                            .or_insert_with(|| "type.subpass.image".to_owned());
                    }
                    (
                        ResourceKind::Texture { dim, arrayed, .. },
                        Some(ty @ (Type::Image(_) | Type::SampledImage { .. })),
                    ) => {
                        let image = match ty {
                            Type::SampledImage { image } => {
                                b.module_mut()
                                    .type_names
                                    .entry(t)
                                    .or_insert_with(|| "type.sampled.image".to_owned());
                                image
                            }
                            _ => t,
                        };
                        let tn = image_type_name(dim, arrayed);
                        b.module_mut().type_names.entry(image).or_insert(tn);
                    }
                    _ => {}
                }
                let t = match p.array {
                    // `R r[]`: a runtime array of descriptors (descriptor indexing).
                    Some(0) => b.type_runtime_array(t, None),
                    Some(n) => b.type_array(t, n, None),
                    None => t,
                };
                let ptr = b.type_pointer(sc, t);
                let mut decorations = decos(binding);
                if coherent {
                    decorations.push(Decoration::Coherent);
                }
                decorations.extend(p.extra.iter().cloned());
                if let Some(n) = p.input_attachment {
                    decorations.push(Decoration::InputAttachmentIndex(n));
                }
                if let (true, Some(u)) = (st.opts.reflect, &p.user_type) {
                    decorations.push(Decoration::UserTypeGOOGLE(u.clone()));
                }
                // A heap's views are all named after the heap (`sema::body` tells them apart
                // after a `#`).
                let ir_name = p.name.split('#').next().unwrap_or(&p.name);
                let counter = p
                    .counter
                    .map(|_| counter_var(st, b, ir_name, sc, decos(p.descriptor.counter), p.array));
                if let (true, Some(c)) = (st.opts.reflect, counter) {
                    decorations.push(Decoration::CounterBuffer(Value::Global(c).to_id()));
                }
                let g = b.global(GlobalVariable {
                    name: Some(ir_name.to_owned()),
                    decorations,
                    ..GlobalVariable::new(ptr, sc)
                });
                declare_global(
                    st,
                    &p.name,
                    p.span,
                    Sym::Resource(Resource {
                        kind,
                        elem,
                        sc,
                        counter: counter.map(Value::Global),
                        ptr: Value::Global(g),
                        array: p.array,
                    }),
                );
            }
            PendingKind::Block {
                def,
                as_var,
                push_constant,
                texture,
            } => {
                let (sc, layout) = if push_constant {
                    (StorageClass::PushConstant, st.sbuffer_rule())
                } else if texture && st.storage_buffer_class() {
                    (StorageClass::StorageBuffer, st.sbuffer_rule())
                } else if texture {
                    (StorageClass::Uniform, st.sbuffer_rule())
                } else {
                    (StorageClass::Uniform, st.cbuffer_rule())
                };
                // A tbuffer is read-only storage: BufferBlock before SPIR-V 1.3's
                // StorageBuffer, every member NonWritable.
                let deco = if texture && !st.storage_buffer_class() {
                    Decoration::BufferBlock
                } else {
                    Decoration::Block
                };
                let t = block_struct(b, st, &def, layout, deco, texture);
                // An array of blocks (one descriptor each) takes no ArrayStride, as DXC.
                let var_t = match p.array {
                    Some(0) => b.type_runtime_array(t, None),
                    Some(n) => b.type_array(t, n, None),
                    None => t,
                };
                let ptr = b.type_pointer(sc, var_t);
                let mut decorations = decos(binding);
                if let (true, Some(u)) = (st.opts.reflect, &p.user_type) {
                    decorations.push(Decoration::UserTypeGOOGLE(u.clone()));
                }
                let g = b.global(GlobalVariable {
                    name: Some(p.name.clone()),
                    decorations,
                    ..GlobalVariable::new(ptr, sc)
                });
                let _ = p.span;
                if as_var {
                    let i = st.types.structs.len();
                    st.types.structs.push(def.clone());
                    st.type_cache.insert((Ty::Struct(i), layout, false), t);
                    let ty = match p.array {
                        Some(n) => {
                            if n == 0 {
                                st.unsized_globals.insert(Value::Global(g));
                            }
                            Ty::Array(Box::new(Ty::Struct(i)), n)
                        }
                        None => Ty::Struct(i),
                    };
                    let place = Place {
                        ptr: Value::Global(g),
                        ty,
                        sc,
                        layout,
                        row_major: false,
                        konst: true,
                    };
                    declare_global(st, &p.name, p.span, Sym::Var(place));
                } else {
                    for (k, f) in def.fields.iter().enumerate() {
                        declare_global(
                            st,
                            &f.name,
                            p.span,
                            Sym::Member {
                                block: g,
                                index: k as u32,
                                ty: f.ty.clone(),
                                sc,
                                layout,
                                row_major: f.row_major,
                                relaxed: f.relaxed,
                                row_depth: f.row_depth,
                            },
                        );
                    }
                }
            }
        }
    }
}

/// Whether a parameter of type `t` is bound to the module-scope object its calls pass
/// (a function instance per object, see [`plan_instances`]): a structured or byte-address
/// buffer or a constant or texture buffer (whose pointer a call cannot pass), or an array of
/// resources.
pub(crate) fn is_buffer(t: &Ty) -> bool {
    match t {
        Ty::Resource(
            ResourceKind::StructuredBuffer { .. }
            | ResourceKind::ByteAddressBuffer { .. }
            | ResourceKind::ConstantBuffer
            | ResourceKind::TextureBuffer,
            _,
        ) => true,
        Ty::Array(e, _) => e.is_resource(),
        _ => false,
    }
}

/// The module-scope variable a bound parameter of type `t` stands for when `sym` is passed
/// (see [`is_buffer`]): a buffer or array of resources of that type, or a constant or texture
/// buffer of that struct.
pub(crate) fn bound_variable(st: &State, t: &Ty, sym: &Sym) -> Option<Handle<GlobalVariable>> {
    match (t, sym) {
        (
            Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, elem),
            Sym::Var(p),
        ) => {
            let Value::Global(g) = p.ptr else { return None };
            let Ty::Struct(got) = p.ty else { return None };
            let origin = st.types.structs.get(got)?.origin.as_ref()?;
            let Ty::Struct(want) = **elem else {
                return None;
            };
            (st.types.structs.get(want)?.name == *origin && p.konst).then_some(g)
        }
        (Ty::Array(e, n), Sym::Resource(r)) => {
            let Value::Global(g) = r.ptr else { return None };
            let Ty::Resource(kind, elem) = &**e else {
                return None;
            };
            let fits =
                r.kind == *kind && r.elem == **elem && r.array.is_some_and(|m| *n == 0 || m == *n);
            fits.then_some(g)
        }
        (Ty::Resource(kind, elem), Sym::Resource(r)) => {
            let Value::Global(g) = r.ptr else { return None };
            (r.kind == *kind && r.elem == **elem && r.array.is_none()).then_some(g)
        }
        _ => None,
    }
}

/// The instances of the functions with buffer parameters: one per distinct list of
/// module-scope buffers its calls pass (found in the callers' bodies before any is emitted,
/// callers first, a parameter bound in an instance passing on its buffer). An instance has
/// no parameter for those buffers; its body names them directly, as DXC's legalization makes
/// it. A call passing anything else finds no instance and is refused where it is emitted.
fn plan_instances(st: &mut State, order: &[String]) {
    let has_buffers = |f: &FuncSym| f.params.iter().any(|(t, _)| is_buffer(t));
    if !st.functions.values().flatten().any(has_buffers) {
        return;
    }
    for name in order.iter().rev() {
        let overloads: Vec<FuncSym> = st.functions.get(name).cloned().unwrap_or_default();
        for f in overloads {
            let Some(Item::Function(decl)) = st.unit.items.get(f.item) else {
                continue;
            };
            let Some(body) = &decl.body else { continue };
            // The bindings the body is seen under: none, or each planned instance's.
            let bindings: Vec<HashMap<String, String>> = if has_buffers(&f) {
                let names: Vec<String> = decl
                    .params
                    .iter()
                    .zip(&f.params)
                    .filter(|(_, (t, _))| is_buffer(t))
                    .map(|(p, _)| p.name.as_ref().map_or(String::new(), |n| n.name.clone()))
                    .collect();
                st.instance_names
                    .iter()
                    .filter(|(i, _)| *i == f.item)
                    .map(|(_, globals)| {
                        names.iter().cloned().zip(globals.iter().cloned()).collect()
                    })
                    .collect()
            } else {
                vec![HashMap::new()]
            };
            for binding in bindings {
                let mut found = Vec::new();
                crate::hlsl::sema::calls::walk_block(body, &mut |e| {
                    if let ExprKind::Call { callee, args, .. } = &e.kind {
                        found.push((callee.name.clone(), args.clone()));
                    }
                });
                for (callee, args) in found {
                    plan_call(st, &callee, &args, &binding);
                }
            }
        }
    }
}

/// Records the instance a call of `callee` with `args` needs, if it passes buffers that are
/// module-scope ones (`binding` maps the caller's own buffer parameters to theirs).
fn plan_call(st: &mut State, callee: &str, args: &[Expr], binding: &HashMap<String, String>) {
    let Some(cands) = st.functions.get(callee) else {
        return;
    };
    let fitting: Vec<&FuncSym> = cands
        .iter()
        .filter(|c| (c.required..=c.params.len()).contains(&args.len()))
        .collect();
    // Only an unambiguous callee by arity (overloads by type are resolved at the call).
    let [f] = fitting.as_slice() else { return };
    let mut names = Vec::new();
    let mut types = Vec::new();
    for ((t, _), a) in f.params.iter().zip(args) {
        if !is_buffer(t) {
            continue;
        }
        let ExprKind::Ident(id) = &a.kind else { return };
        names.push(
            binding
                .get(&id.name)
                .cloned()
                .unwrap_or_else(|| id.name.clone()),
        );
        types.push(t.clone());
    }
    if names.is_empty() {
        return;
    }
    let item = f.item;
    let mut handles = Vec::new();
    let mut syms = Vec::new();
    for (n, t) in names.iter().zip(&types) {
        let Some(sym) = st.scopes.lookup(n).cloned() else {
            return;
        };
        let Some(h) = bound_variable(st, t, &sym) else {
            return;
        };
        handles.push(h);
        syms.push(sym);
    }
    if !st.instance_names.contains(&(item, names.clone())) {
        st.instance_names.push((item, names));
    }
    st.instances.entry((item, handles)).or_insert((syms, None));
}

/// Emits overload `k` of `name`; `bound` gives the buffers its buffer parameters stand for
/// (an instance of a function with such parameters: they are not passed).
fn emit_function(
    st: &mut State,
    b: &mut Builder,
    name: &str,
    k: usize,
    is_entry: bool,
    bound: Option<&[Sym]>,
) -> Option<Handle<crate::ir::Function>> {
    let fsym = st.functions.get(name).and_then(|v| v.get(k)).cloned()?;
    let Some(Item::Function(decl)) = st.unit.items.get(fsym.item) else {
        return None;
    };
    let bodies = st.bodies;
    let body = bodies.get(&fsym.item)?;
    let mut ptypes = Vec::new();
    for (pi, (t, dir)) in fsym.params.iter().enumerate() {
        if *t == Ty::Void {
            return None;
        }
        if is_buffer(t) && bound.is_some() {
            continue;
        }
        // An image or sampler parameter is a pointer to the one the caller names (its
        // variable, or an element of an array of them), as SPIR-V lets a call pass it; a
        // buffer's pointer may not be passed without VariablePointers.
        let sc = match t {
            // A ray query: a pointer to the caller's Function variable.
            _ if t.is_ray_query() => StorageClass::Function,
            Ty::Resource(kind, _) => {
                let span = decl.params.get(pi).map_or(decl.span, |p| p.ty.span);
                let why = match kind {
                    _ if *dir != ParamDir::In => Some("out and inout resource parameters"),
                    ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer => {
                        Some("ConstantBuffer and TextureBuffer parameters")
                    }
                    ResourceKind::StructuredBuffer { .. }
                    | ResourceKind::ByteAddressBuffer { .. } => {
                        Some("structured and byte-address buffer parameters")
                    }
                    _ => None,
                };
                if let Some(why) = why {
                    st.error(span, format!("not supported yet: {why}"));
                    if let Some(fs) = st.functions.get_mut(name).and_then(|v| v.get_mut(k)) {
                        fs.failed = true;
                    }
                    return None;
                }
                resource_class(st, *kind)
            }
            Ty::Array(..) if is_buffer(t) => {
                let span = decl.params.get(pi).map_or(decl.span, |p| p.ty.span);
                st.error(
                    span,
                    "not supported yet: arrays of resources as parameters of a function not \
                     called with a module-scope array named directly",
                );
                if let Some(fs) = st.functions.get_mut(name).and_then(|v| v.get_mut(k)) {
                    fs.failed = true;
                }
                return None;
            }
            _ => StorageClass::Function,
        };
        let it = ir_ty(b, st, t, LayoutRule::None, false);
        ptypes.push(b.type_pointer(sc, it));
    }
    let rt = ir_ty(b, st, &fsym.ret, LayoutRule::None, false);
    let fty = b.type_function(rt, &ptypes);
    // `[noinline]` is a request the function is not inlined, as DXC writes it.
    let noinline = decl
        .attributes
        .iter()
        .any(|a| a.namespace.is_none() && a.name.name == "noinline");
    let control = if noinline {
        FunctionControl::DontInline
    } else {
        FunctionControl::None
    };
    let f = b.function(fty, control);
    let handle = f.handle();
    let mut cx = FnCx::new(f, st, fsym.ret.clone());
    let fname = if is_entry {
        format!("src.{name}")
    } else {
        name.to_owned()
    };
    cx.st.scopes.push();
    // The IR parameters: the source's, less the bound buffers.
    let mut ir_index = 0;
    let mut bound_left = bound.unwrap_or(&[]).iter();
    for (i, (p, (t, _))) in decl.params.iter().zip(&fsym.params).enumerate() {
        if is_buffer(t) && bound.is_some() {
            let (Some(n), Some(sym)) = (&p.name, bound_left.next()) else {
                continue;
            };
            if !cx.st.scopes.declare(&n.name, sym.clone()) {
                cx.st
                    .error(n.span, format!("redefinition of parameter '{}'", n.name));
            }
            continue;
        }
        let v = cx.f.param(ir_index);
        ir_index += 1;
        for d in fsym.param_decorations.get(i).into_iter().flatten() {
            cx.f.decorate(v, d.clone());
        }
        if fsym.relaxed_params.get(i).copied().unwrap_or(false) {
            cx.relax(v);
        }
        if let Some(Some(depth)) = fsym.row_params.get(i) {
            cx.row_matrices.insert(v, *depth);
        }
        if let (Some(n), Ty::Resource(kind, elem), false) = (&p.name, t, t.is_ray_query()) {
            cx.f.name(v, &n.name);
            let resource = Resource {
                kind: *kind,
                elem: (**elem).clone(),
                sc: resource_class(cx.st, *kind),
                counter: None,
                ptr: v,
                array: None,
            };
            if !cx.st.scopes.declare(&n.name, Sym::Resource(resource)) {
                cx.st
                    .error(n.span, format!("redefinition of parameter '{}'", n.name));
            }
            continue;
        }
        if let Some(n) = &p.name {
            cx.f.name(v, &n.name);
            let konst = has(&p.modifiers, Modifier::Const);
            let place = Place {
                ptr: v,
                ty: t.clone(),
                sc: StorageClass::Function,
                layout: LayoutRule::None,
                row_major: false,
                konst,
            };
            if !cx.st.scopes.declare(&n.name, Sym::Var(place)) {
                cx.st
                    .error(n.span, format!("redefinition of parameter '{}'", n.name));
            }
        }
    }
    for s in &body.stmts {
        cx.stmt(s);
    }
    cx.st.scopes.pop();
    let h = cx.finish();
    let _ = h;
    b.name_function(handle, &fname);
    if let Some(f) = b.module_mut().functions.get_mut(handle) {
        if fsym.relaxed_ret {
            f.decorations.push(Decoration::RelaxedPrecision);
        }
        f.decorations.extend(fsym.decorations.iter().cloned());
    }
    if bound.is_none() {
        if let Some(fs) = st.functions.get_mut(name).and_then(|v| v.get_mut(k)) {
            fs.handle = Some(handle);
        }
    }
    Some(handle)
}

/// The counter buffer of the structured buffer `name` (`counter.var.<name>`, a block of one
/// `int`, as DXC declares it); for an array of buffers (`array`, 0 when unsized), an array of
/// them.
fn counter_var(
    st: &mut State,
    b: &mut Builder,
    name: &str,
    sc: StorageClass,
    decorations: Vec<Decoration>,
    array: Option<u32>,
) -> Handle<GlobalVariable> {
    let t = match st.counter_type {
        Some(t) => t,
        None => {
            let int = b.type_int(32, true);
            let mut m = Member::new(int);
            m.offset = Some(0);
            let block = if st.storage_buffer_class() {
                Decoration::Block
            } else {
                Decoration::BufferBlock
            };
            let t = b.type_struct(StructType {
                name: Some("type.ACSBuffer.counter".to_owned()),
                members: vec![m],
                decorations: vec![block],
            });
            st.counter_type = Some(t);
            t
        }
    };
    // Arrays of blocks take no ArrayStride, as DXC writes them.
    let t = match array {
        Some(0) => b.type_runtime_array(t, None),
        Some(n) => b.type_array(t, n, None),
        None => t,
    };
    let ptr = b.type_pointer(sc, t);
    b.global(GlobalVariable {
        name: Some(format!("counter.var.{name}")),
        decorations,
        ..GlobalVariable::new(ptr, sc)
    })
}

/// DXC's name of a texture's image type (`type.2d.image`, `type.cube.image.array`).
fn image_type_name(dim: TexDim, arrayed: bool) -> String {
    let d = match dim {
        TexDim::D1 => "1d",
        TexDim::D2 => "2d",
        TexDim::D3 => "3d",
        TexDim::Cube => "cube",
    };
    format!("type.{d}.image{}", if arrayed { ".array" } else { "" })
}
