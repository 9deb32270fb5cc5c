//! What each module-scope declaration is ([`crate::hlsl::hir::Module`]): variables classified
//! by kind (resources with what the source says about their bindings and counters, constant
//! buffers, push constants, specialization constants, `groupshared`, `static`, constants, the
//! loose uniforms of `$Globals`) and functions with their resolved signatures, with every
//! language rule about them checked here rather than while SPIR-V is written.

use crate::hlsl::ast::{
    Annotation, Attribute, Declarator, Expr, ExprKind, FunctionDecl, Initializer, Item, Modifier,
    TranslationUnit, TypeExpr, VarDecl,
};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{Binding, Global, GlobalKind, Module, ParamDir, Signature};
use crate::hlsl::sema::calls::{collect_calls_block, ASSIGNED, COUNTER_USE};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls::{
    self, attr, has, is_vector_matrix, row_depth, TypeEnv, TypeResolver, VECTOR_MATRIX_DX,
};
use crate::hlsl::sema::types::{
    Field, FieldOffset, Interp, ResourceKind, SbFlavor, Scalar, StructDef, Ty,
};
use crate::hlsl::source::Span;
use crate::hlsl::Options;

/// Declares everything at module scope in `unit`; problems go to `diags`.
pub fn declare_module<'u>(
    unit: &'u TranslationUnit,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> Module<'u> {
    let types = decls::declare(unit, opts, diags);
    let mut m = Module {
        types,
        ..Module::default()
    };
    // The buffers whose counter methods are called anywhere get a counter.
    let mut calls = Vec::new();
    for item in &unit.items {
        if let Item::Function(FunctionDecl {
            body: Some(body), ..
        }) = item
        {
            collect_calls_block(body, &mut calls);
        }
    }
    m.counter_users = calls
        .iter()
        .filter_map(|(c, _)| c.strip_prefix(COUNTER_USE).map(str::to_owned))
        .collect();
    // A counter used through another name (a local naming the buffer or an element of its
    // array) is the named buffer's: by name, as these are found before names resolve.
    let mut aliases = Vec::new();
    for item in &unit.items {
        if let Item::Function(FunctionDecl {
            body: Some(body),
            name,
            ..
        }) = item
        {
            super::calls::alias_edges(body, Some(&name.name), &mut aliases);
        }
    }
    loop {
        let more: Vec<String> = aliases
            .iter()
            .filter(|(a, g)| m.counter_users.contains(a) && !m.counter_users.contains(g))
            .map(|(_, g)| g.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        m.counter_users.extend(more);
    }
    m.assigned = calls
        .iter()
        .filter_map(|(c, _)| c.strip_prefix(ASSIGNED).map(str::to_owned))
        .collect();
    let mut d = Declarer {
        m,
        opts,
        diags,
        uniforms: StructDef {
            name: "type.$Globals".into(),
            fields: Vec::new(),
            bitfields: Vec::new(),
            origin: None,
        },
        push_constant_block: None,
        builtins: Default::default(),
        placed_uniforms: Vec::new(),
    };
    for (idx, item) in unit.items.iter().enumerate() {
        match item {
            Item::Variables(v) => d.variables(idx, v),
            Item::Buffer(buf) => d.buffer(buf),
            Item::Function(f) => d.function(idx, f),
            Item::Struct(_)
            | Item::Typedef(_)
            | Item::StructForward(_)
            | Item::Empty(_)
            | Item::Namespace { .. }
            | Item::Using { .. }
            | Item::Template { .. } => {}
        }
    }
    d.check_placed_uniforms();
    d.check_offsets();
    let mut m: Module<'u> = d.m;
    if !d.uniforms.fields.is_empty() {
        m.globals.push(Global {
            name: "$Globals".into(),
            span: Span::default(),
            ty: Ty::Void,
            relaxed: false,
            kind: GlobalKind::Block {
                def: d.uniforms,
                as_var: false,
                push_constant: false,
                texture: false,
                binding: Binding::Implicit,
                user_type: None,
                array: None,
            },
            descriptor: Default::default(),
            decorations: Vec::new(),
        });
    }
    redefined_globals(&m, diags);
    super::body::lower_reached(unit, &mut m, opts, diags);
    // The heaps' views are among the globals from here on.
    let bound = super::bindings::bind_module(&mut m, opts, diags);
    if bound {
        // A refused binding stops code generation before the functions and the entry point's
        // wrapper: what they would check is not reported either.
        super::modes::misplaced_fragment_tests(unit, &m, opts, diags);
        m.interface = super::interface::plan(unit, &m, opts, diags);
        derivative_group(&m, opts, diags);
    }
    m
}

/// Reports a compute shader that uses derivatives with a `numthreads` that has no derivative
/// group.
fn derivative_group(m: &Module<'_>, opts: &Options, diags: &mut Vec<Diagnostic>) {
    if opts.profile.stage != crate::hlsl::Stage::Compute {
        return;
    }
    let size = m.interface.as_ref().and_then(|i| i.local_size);
    if let (Some(size), Some(span)) = (size, m.derivative_use) {
        if super::availability::derivative_group(size).is_none() {
            diags.push(Diagnostic::error(
                span,
                "derivatives in a compute shader need numthreads with even X and Y, or X a \
                 multiple of 4 and Y and Z of 1",
            ));
        }
    }
}

/// Reports each module-scope name declared twice: variables, buffers (a `cbuffer`'s members,
/// a `ConstantBuffer<T>` itself), constants, then `static` resource aliases.
fn redefined_globals(m: &Module<'_>, diags: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    let (aliases, others): (Vec<&Global>, Vec<&Global>) = m
        .globals
        .iter()
        .partition(|g| matches!(g.kind, GlobalKind::Alias(_)));
    for g in others.into_iter().chain(aliases) {
        let names: Vec<&str> = match &g.kind {
            GlobalKind::String(_) => Vec::new(),
            GlobalKind::Block {
                def, as_var: false, ..
            } => def.fields.iter().map(|f| f.name.as_str()).collect(),
            _ => vec![g.name.as_str()],
        };
        for name in names {
            if !seen.insert(name) {
                diags.push(Diagnostic::error(
                    g.span,
                    format!("redefinition of '{name}'"),
                ));
            }
        }
    }
}

/// The state of [`declare_module`]'s walk.
struct Declarer<'a> {
    m: Module<'static>,
    opts: &'a Options,
    diags: &'a mut Vec<Diagnostic>,
    /// The loose uniforms so far: the members of `$Globals`.
    uniforms: StructDef,
    /// Where the push constant block was declared (there may be one).
    push_constant_block: Option<Span>,
    /// The built-ins `[[vk::ext_builtin_input/output]]` named so far: whether as an output,
    /// and where.
    builtins: std::collections::HashMap<u32, (bool, Span)>,
    /// The loose uniforms placed by `register(cN)`: their index in `uniforms`, and where.
    placed_uniforms: Vec<(usize, Span)>,
}

impl Declarer<'_> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn resolver<T>(&mut self, f: impl FnOnce(&mut TypeResolver) -> T) -> T {
        self.resolver_in(None, f)
    }

    /// [`Declarer::resolver`] for a declaration under `#pragma pack_matrix(pack)`.
    fn resolver_in<T>(&mut self, pack: Option<bool>, f: impl FnOnce(&mut TypeResolver) -> T) -> T {
        let env: &TypeEnv = &self.m.types;
        let lookup = |n: &str| env.constant(n);
        f(&mut TypeResolver {
            env,
            opts: self.opts,
            consts: &lookup,
            diags: self.diags,
            pack,
        })
    }

    fn const_eval(&self, e: &Expr) -> Option<ConstVal> {
        decls::fold(e, self.opts, &|n| self.m.types.constant(n))
    }

    fn push(&mut self, name: &str, span: Span, ty: Ty, relaxed: bool, kind: GlobalKind) {
        self.m.globals.push(Global {
            name: name.to_owned(),
            span,
            ty,
            relaxed,
            kind,
            descriptor: Default::default(),
            decorations: Vec::new(),
        });
    }

    /// Whether a second push constant block is declared at `span` (an error).
    fn second_push_constant(&mut self, span: Span) -> bool {
        if let Some(first) = self.push_constant_block {
            self.diags.push(
                Diagnostic::error(span, "cannot have more than one push constant block")
                    .with_note(first, "push constant block previously defined here"),
            );
            return true;
        }
        self.push_constant_block = Some(span);
        false
    }

    /// What `[[vk::binding]]` or `register()` say about a resource's binding.
    fn explicit_binding(&mut self, attrs: &[Attribute], annotations: &[Annotation]) -> Binding {
        if let Some(a) = attr(attrs, Some("vk"), "binding") {
            let b = a
                .args
                .first()
                .and_then(|e| self.const_eval(e))
                .and_then(ConstVal::as_int);
            let s = match a.args.get(1) {
                Some(e) => self.const_eval(e).and_then(ConstVal::as_int),
                None => Some(-1),
            };
            match (b, s) {
                (Some(b), Some(s)) if (0..=i64::from(u32::MAX)).contains(&b) && s >= -1 => {
                    return Binding::VkBinding {
                        binding: b as u32,
                        set: u32::try_from(s).ok(),
                    }
                }
                _ => self.error(a.span, "vk::binding needs constant binding and set numbers"),
            }
        }
        annotations
            .iter()
            .find_map(|a| match a {
                Annotation::Register(r) => Some(Binding::Register {
                    class: r.class,
                    index: r.index,
                    space: r.space,
                }),
                Annotation::RegisterSpace(space, _) => Some(Binding::Space(*space)),
                _ => None,
            })
            .unwrap_or(Binding::Implicit)
    }

    /// A `cbuffer` or `tbuffer`.
    fn buffer(&mut self, buf: &crate::hlsl::ast::BufferBlock) {
        let texture = buf.kind == crate::hlsl::ast::BufferKind::TBuffer;
        let fields = self.resolver(|r| r.fields_of(&buf.members));
        let push_constant = attr(&buf.attributes, Some("vk"), "push_constant").is_some();
        if push_constant && self.second_push_constant(buf.name.span) {
            return;
        }
        let binding = self.explicit_binding(&buf.attributes, &buf.annotations);
        let def = StructDef {
            name: format!("type.{}", buf.name.name),
            fields,
            bitfields: Vec::new(),
            origin: None,
        };
        // `packoffset` below where a member would go overlaps those before it (DXC's check).
        let rule = if push_constant || texture {
            crate::hlsl::sema::layout::LayoutRule::sbuffer(self.opts.layout)
        } else {
            crate::hlsl::sema::layout::LayoutRule::cbuffer(self.opts.layout)
        };
        let overlaps =
            crate::hlsl::sema::layout::packoffset_overlaps(&def, rule, &self.m.types.structs);
        for k in overlaps {
            let name = &def.fields[k].name;
            let span = buf
                .members
                .iter()
                .flat_map(|m| &m.declarators)
                .filter(|d| d.name.name == *name)
                .flat_map(|d| &d.annotations)
                .find_map(|a| match a {
                    Annotation::PackOffset(_, sp) => Some(*sp),
                    _ => None,
                })
                .unwrap_or(buf.span);
            self.error(span, "packoffset caused overlap with previous members");
        }
        self.push(
            &buf.name.name,
            buf.span,
            Ty::Void,
            false,
            GlobalKind::Block {
                def,
                as_var: false,
                push_constant,
                texture,
                binding,
                user_type: Some(if texture { "tbuffer" } else { "cbuffer" }.into()),
                array: None,
            },
        );
    }

    /// `string s = "...";`: a name for a string literal, usable as `printf`'s format.
    fn strings(&mut self, v: &VarDecl) {
        for d in &v.declarators {
            if !d.array_dims.is_empty() {
                self.error(d.name.span, "not supported yet: arrays of strings");
                continue;
            }
            match &d.init {
                Some(Initializer::Expr(Expr {
                    kind: ExprKind::Literal(crate::hlsl::ast::Literal::String(text)),
                    ..
                })) => self.push(
                    &d.name.name,
                    d.name.span,
                    Ty::Void,
                    false,
                    GlobalKind::String(text.clone()),
                ),
                _ => self.error(
                    d.name.span,
                    format!(
                        "the string '{}' needs a string literal as its initializer",
                        d.name.name
                    ),
                ),
            }
        }
    }

    /// The declarators of a module-scope variable declaration (item `idx`).
    fn variables(&mut self, idx: usize, v: &VarDecl) {
        let decorations =
            match crate::hlsl::sema::attributes::ext_decorations(&v.attributes, &|e| {
                self.const_eval(e).and_then(ConstVal::as_int)
            }) {
                Ok(d) => d,
                Err(e) => {
                    self.diags.push(e);
                    return;
                }
            };
        let (globals, uniforms) = (self.m.globals.len(), self.uniforms.fields.len());
        self.variables_of(idx, v);
        if decorations.is_empty() {
            return;
        }
        // Decorations go on variables: a resource, a static, groupshared or built-in one.
        let mut refused = self.uniforms.fields.len() != uniforms;
        for g in &mut self.m.globals[globals..] {
            match g.kind {
                GlobalKind::Resource { .. }
                | GlobalKind::Static { .. }
                | GlobalKind::GroupShared { .. }
                | GlobalKind::BuiltInVar { .. } => g.decorations = decorations.clone(),
                _ => refused = true,
            }
        }
        if refused {
            self.error(
                v.span,
                "not supported yet: [[vk::ext_decorate]] on a variable of this kind (a \
                 constant buffer's member, a constant, a struct of resources...)",
            );
        }
    }

    /// [`Self::variables`] less the decorations.
    fn variables_of(&mut self, idx: usize, v: &VarDecl) {
        if v.ty.name.name == "string"
            && v.ty.args.is_empty()
            && !self.m.types.struct_names.contains_key("string")
        {
            self.strings(v);
            return;
        }
        if self.m.types.is_rasterizer_ordered(&v.ty) {
            self.m.interlock.get_or_insert(v.ty.span);
        }
        let pack = decls::pack_matrix(&v.modifiers);
        let Some((base, relaxed)) = self.resolver_in(pack, |r| r.resolve_type_unchecked(&v.ty))
        else {
            return;
        };
        if let Some(a) = attr(&v.attributes, Some("vk"), "combinedImageSampler") {
            let plain = v
                .declarators
                .iter()
                .all(|d| d.array_dims.is_empty() && d.init.is_none());
            if !matches!(base, Ty::Resource(..)) || has(&v.modifiers, Modifier::Static) || !plain {
                self.error(
                    a.span,
                    "not supported yet: [[vk::combinedImageSampler]] other than on a texture or \
                     sampler variable (arrays, initialized or static ones)",
                );
                return;
            }
        }
        if let Ty::Struct(i) = base {
            if self.m.types.resource_structs.contains(&i) {
                self.resource_structs(v, i);
                return;
            }
        }
        let builtin_in = attr(&v.attributes, Some("vk"), "ext_builtin_input");
        let builtin_out = attr(&v.attributes, Some("vk"), "ext_builtin_output");
        if let Some(a) = builtin_in.or(builtin_out) {
            let output = builtin_in.is_none();
            self.builtin_variables(v, base, relaxed, a, output, builtin_out.is_some());
            return;
        }
        if decls::resource_struct_in(&base, &self.m.types.resource_structs).is_some() {
            // Refused (reported) by the checked resolution.
            let _ = self.resolver_in(pack, |r| r.resolve_type(&v.ty));
            return;
        }
        let Some(base) = self.image_format(v, base) else {
            return;
        };
        let is_static = has(&v.modifiers, Modifier::Static);
        let is_const = self.m.types.is_const(&v.modifiers, &v.ty);
        let groupshared = has(&v.modifiers, Modifier::GroupShared);
        let spec_id = attr(&v.attributes, Some("vk"), "constant_id");
        let push_constant = attr(&v.attributes, Some("vk"), "push_constant").is_some();
        if base.is_ray_query() {
            self.error(
                v.ty.span,
                "not supported yet: a RayQuery at module scope (a function's local is one)",
            );
            return;
        }
        for (k, d) in v.declarators.iter().enumerate() {
            let name = d.name.name.clone();
            if let (Ty::Resource(..), [None]) = (&base, d.array_dims.as_slice()) {
                // `Texture2D t[];`: an unsized (runtime) array of descriptors.
                self.resource_array(v, d, base.clone(), 0);
                continue;
            }
            let Some(ty) =
                self.resolver(|r| r.array_type(&base, &d.array_dims, d.init.as_ref(), d.name.span))
            else {
                continue;
            };
            if ty.is_resource() && d.init.is_some() {
                // `static Texture2D T = OtherTexture;`: a name for that resource, while no
                // function assigns it; anything else (`= ResourceDescriptorHeap[3]`) is refused.
                match self.heap_alias(v, d, &ty, is_static) {
                    Ok(Some((heap, view))) => {
                        let kind = GlobalKind::HeapAlias {
                            heap,
                            coherent: has(&v.modifiers, Modifier::GloballyCoherent),
                            init: (idx, k),
                            view,
                        };
                        self.push(&name, d.name.span, ty, false, kind);
                        continue;
                    }
                    Ok(None) => {}
                    Err(()) => continue,
                }
                match self.alias_target(d, &ty, is_static) {
                    Some(target) => {
                        self.push(&name, d.name.span, ty, false, GlobalKind::Alias(target))
                    }
                    None => self.error(
                        d.span,
                        "not supported yet: a global resource variable with an initializer \
                         other than a module-scope resource it stays",
                    ),
                }
                continue;
            }
            if let Ty::Resource(kind, elem) = &ty {
                if is_static {
                    // A `static` resource names no descriptor of its own.
                    let msg = if matches!(kind, ResourceKind::Subpass { .. }) {
                        "SubpassInput(MS) must be externally visible"
                    } else {
                        "not supported yet: a static resource variable without an initializer"
                    };
                    self.error(d.name.span, msg);
                    continue;
                }
                let _ = self.resource(v, d, *kind, elem, &ty);
                continue;
            }
            if let Ty::Array(inner, n) = &ty {
                if let Ty::Resource(..) = &**inner {
                    self.resource_array(v, d, (**inner).clone(), *n);
                    continue;
                }
            }
            if ty.is_resource() {
                self.error(d.span, "not supported yet: arrays of arrays of resources");
                continue;
            }
            if push_constant {
                let Ty::Struct(i) = ty else {
                    self.error(d.span, "a push constant block must be a struct");
                    continue;
                };
                if let Some(a) = attr(&v.attributes, Some("vk"), "binding") {
                    self.error(
                        a.span,
                        "vk::push_constant attribute cannot be used together with vk::binding \
                         attribute",
                    );
                    continue;
                }
                if self.second_push_constant(d.span) {
                    continue;
                }
                let Some(sd) = self.m.types.structs.get(i) else {
                    continue;
                };
                let def = StructDef {
                    name: format!("type.PushConstant.{}", sd.name),
                    fields: sd.fields.clone(),
                    bitfields: sd.bitfields.clone(),
                    origin: Some(sd.name.clone()),
                };
                let kind = GlobalKind::Block {
                    def,
                    as_var: true,
                    push_constant: true,
                    texture: false,
                    binding: Binding::Implicit,
                    user_type: None,
                    array: None,
                };
                self.push(&name, d.span, ty, false, kind);
                continue;
            }
            if let Some(a) = spec_id {
                let id = a
                    .args
                    .first()
                    .and_then(|e| self.const_eval(e))
                    .and_then(ConstVal::as_int);
                let Ty::Scalar(s) = ty else {
                    self.error(d.span, "a specialization constant must be a scalar");
                    continue;
                };
                // DXC's specialization constant types: bool and the 32-bit scalars.
                if !matches!(s, Scalar::Bool | Scalar::Int | Scalar::UInt | Scalar::Float) {
                    self.error(v.span, "unsupported specialization constant type");
                    continue;
                }
                if is_static {
                    self.error(
                        d.name.span,
                        "specialization constant must be externally visible",
                    );
                    continue;
                }
                let init = match &d.init {
                    Some(Initializer::Expr(e)) => self.const_eval(e),
                    _ => None,
                };
                let (Some(id), Some(value)) = (id.and_then(|i| u32::try_from(i).ok()), init) else {
                    self.error(
                        d.span,
                        "a specialization constant needs a constant id and a constant initializer",
                    );
                    continue;
                };
                let kind = GlobalKind::SpecConstant { id, value };
                self.push(&name, d.name.span, ty, false, kind);
                continue;
            }
            let rows = row_depth(&v.ty, d.array_dims.len());
            if groupshared {
                let kind = GlobalKind::GroupShared { row_depth: rows };
                self.push(&name, d.name.span, ty, relaxed, kind);
                continue;
            }
            if is_static {
                // Constants were folded with the declared types (`decls::declare`).
                if let (true, Ty::Scalar(_), Some(&c)) =
                    (is_const, &ty, self.m.types.consts.get(&name))
                {
                    self.push(&name, d.name.span, ty, false, GlobalKind::Constant(c));
                    continue;
                }
                let elements = if is_const {
                    self.m.types.const_arrays.get(&name).cloned()
                } else {
                    None
                };
                let kind = GlobalKind::Static {
                    konst: is_const,
                    init: d.init.as_ref().map(|_| (idx, k)),
                    row_depth: rows,
                    elements,
                };
                self.push(&name, d.name.span, ty, relaxed, kind);
                continue;
            }
            self.uniform(v, d, ty, relaxed);
        }
    }

    /// `[[vk::ext_builtin_input(b)]] static const T x;` (`a`, `output` false) or
    /// `[[vk::ext_builtin_output(b)]] static T x;`: the built-in variable `b`, with DXC's
    /// errors (`both`: the variable has the two attributes).
    fn builtin_variables(
        &mut self,
        v: &VarDecl,
        base: Ty,
        relaxed: bool,
        a: &Attribute,
        output: bool,
        both: bool,
    ) {
        if both && !output {
            self.error(
                v.span,
                "vk::ext_builtin_input cannot be used together with vk::ext_builtin_output",
            );
            return;
        }
        if !has(&v.modifiers, Modifier::Static) {
            self.error(
                v.span,
                "vk::ext_builtin_input and vk::ext_builtin_output can only be applied to a \
                 static variable",
            );
            return;
        }
        if !output && !self.m.types.is_const(&v.modifiers, &v.ty) {
            self.error(
                v.span,
                "vk::ext_builtin_input can only be applied to a const-qualified variable",
            );
            return;
        }
        let what = if output {
            "ext_builtin_output"
        } else {
            "ext_builtin_input"
        };
        if let Some(other) = v.attributes.iter().find(|o| {
            !std::ptr::eq(*o, a)
                && !matches!(o.name.name.as_str(), "ext_capability" | "ext_extension")
        }) {
            self.error(
                other.span,
                format!("not supported yet: this attribute with [[vk::{what}]]"),
            );
            return;
        }
        let number = match a.args.as_slice() {
            [e] => self.const_eval(e).and_then(ConstVal::as_int),
            _ => None,
        };
        let Some(builtin) = number
            .and_then(|n| u32::try_from(n).ok())
            .and_then(crate::grammar::BuiltIn::from_value)
        else {
            self.error(
                a.span,
                format!("[[vk::{what}]] takes one constant, a SPIR-V built-in's number"),
            );
            return;
        };
        if let Some((was_output, span)) = self.builtins.get(&(builtin as u32)).copied() {
            if was_output != output {
                let dir = if output { "an output" } else { "an input" };
                self.diags.push(
                    Diagnostic::error(
                        a.span,
                        format!("cannot redefine builtin {} as {dir}", builtin as u32),
                    )
                    .with_note(span, "previous definition is here"),
                );
                return;
            }
        }
        self.builtins.insert(builtin as u32, (output, a.span));
        for d in &v.declarators {
            if d.init.is_some() {
                self.error(
                    d.span,
                    format!("not supported yet: an initializer of a [[vk::{what}]] variable"),
                );
                continue;
            }
            let Some(ty) = self.resolver(|r| r.array_type(&base, &d.array_dims, None, d.name.span))
            else {
                continue;
            };
            if ty.is_resource() || matches!(ty, Ty::Struct(_)) {
                self.error(d.span, format!("[[vk::{what}]] on a variable of this type"));
                continue;
            }
            let kind = GlobalKind::BuiltInVar { builtin, output };
            self.push(&d.name.name, d.name.span, ty, relaxed, kind);
        }
    }

    /// `S g;` (or `S g[2][3];`) for a struct `S` holding resources: one resource global per
    /// resource it holds, as DXC's descriptor scalar replacement leaves it, and `g` a
    /// [`GlobalKind::ResourceStruct`] naming them. What DXC would place elsewhere or that
    /// spvkit does not split yet is refused.
    fn resource_structs(&mut self, v: &VarDecl, i: usize) {
        let struct_name = self.m.types.structs.get(i).map_or("", |d| d.name.as_str());
        let what = format!("a module-scope struct holding resources ('{struct_name}')");
        let refuse = |st: &mut Self, span: Span, why: &str| {
            st.error(span, format!("not supported yet: {why} as {what}"));
        };
        for m in &v.modifiers {
            if !matches!(
                m.modifier,
                Modifier::Uniform | Modifier::Const | Modifier::Extern
            ) {
                let spelled = format!("{:?}", m.modifier).to_lowercase();
                refuse(self, m.span, &format!("'{spelled}'"));
                return;
            }
        }
        let binding = attr(&v.attributes, Some("vk"), "binding");
        if let Some(a) = v
            .attributes
            .iter()
            .find(|a| !binding.is_some_and(|b| std::ptr::eq(*a, b)))
        {
            refuse(self, a.span, "an attribute");
            return;
        }
        if self.opts.reflect {
            refuse(self, v.span, "-fspv-reflect");
            return;
        }
        for d in &v.declarators {
            if d.init.is_some() {
                refuse(self, d.span, "an initializer");
                continue;
            }
            if d.annotations
                .iter()
                .any(|a| !matches!(a, Annotation::Register(_) | Annotation::RegisterSpace(..)))
            {
                refuse(self, d.span, "a semantic or packoffset");
                continue;
            }
            let Some(ty) =
                self.resolver(|r| r.array_type(&Ty::Struct(i), &d.array_dims, None, d.name.span))
            else {
                continue;
            };
            // DXC's refusals, in its order.
            if self.holds(&ty, &|t| !matches!(t, Ty::Resource(..))) {
                self.error(
                    d.span,
                    "global structures containing both resources and non-resources are not \
                     supported",
                );
                continue;
            }
            let buffer = |t: &Ty| {
                matches!(
                    t,
                    Ty::Resource(
                        ResourceKind::StructuredBuffer { .. }
                            | ResourceKind::ByteAddressBuffer { .. }
                            | ResourceKind::ConstantBuffer
                            | ResourceKind::TextureBuffer,
                        _
                    )
                )
            };
            if self.holds(&ty, &buffer) {
                self.error(
                    d.span,
                    "global structures containing buffers are not supported",
                );
                continue;
            }
            let mut leaves = Vec::new();
            let mut bindings = 0;
            if let Err(why) = self.resource_leaves(&ty, &d.name.name, 0, &mut bindings, &mut leaves)
            {
                self.error(d.span, format!("not supported yet: {why}"));
                continue;
            }
            let owner = self.m.globals.len();
            let kind = GlobalKind::ResourceStruct {
                binding: self.explicit_binding(&v.attributes, &d.annotations),
                bindings,
                leaves: leaves.iter().map(|(n, ..)| n.clone()).collect(),
            };
            self.push(&d.name.name, d.name.span, ty, false, kind);
            for (name, leaf, array, offset) in leaves {
                let kind = GlobalKind::Resource {
                    binding: Binding::Member { owner, offset },
                    coherent: false,
                    user_type: None,
                    counter: None,
                    array,
                    input_attachment: None,
                };
                self.push(&name, d.name.span, leaf, false, kind);
            }
        }
    }

    /// Whether `ty`, its arrays' elements and its structs' members, recursively, hold a
    /// value (other than an array or struct) that `pred` accepts.
    fn holds(&self, ty: &Ty, pred: &dyn Fn(&Ty) -> bool) -> bool {
        fn walk(env: &TypeEnv, ty: &Ty, pred: &dyn Fn(&Ty) -> bool, depth: u32) -> bool {
            match ty {
                _ if depth > 32 => false,
                Ty::Array(e, _) => walk(env, e, pred, depth + 1),
                Ty::Struct(i) => env
                    .structs
                    .get(*i)
                    .is_some_and(|d| d.fields.iter().any(|f| walk(env, &f.ty, pred, depth + 1))),
                t => pred(t),
            }
        }
        walk(&self.m.types, ty, pred, 0)
    }

    /// The resources a module-scope value of type `ty` named `name` holds, in declaration
    /// order, each with its name, its type, its array length (for an array of resources)
    /// and its place among the bindings (`next`, advanced past it); `Err` says why `ty` is
    /// not split yet.
    #[allow(clippy::type_complexity)]
    fn resource_leaves(
        &self,
        ty: &Ty,
        name: &str,
        depth: u32,
        next: &mut u32,
        out: &mut Vec<(String, Ty, Option<u32>, u32)>,
    ) -> Result<(), String> {
        if depth > 16 || out.len() > 4096 {
            return Err("structs of resources this deep or this large".into());
        }
        // (Buffers were refused before.)
        let allowed = |kind: &ResourceKind| -> Result<(), String> {
            match kind {
                ResourceKind::Subpass { .. } => {
                    Err(format!("the subpass input '{name}' inside a struct"))
                }
                _ => Ok(()),
            }
        };
        match ty {
            Ty::Resource(kind, _) => {
                allowed(kind)?;
                out.push((name.to_owned(), ty.clone(), None, *next));
                *next = next.saturating_add(1);
            }
            Ty::Array(elem, n) if matches!(**elem, Ty::Resource(..)) => {
                let Ty::Resource(kind, _) = &**elem else {
                    return Ok(());
                };
                allowed(kind)?;
                if *n == 0 {
                    return Err(format!(
                        "the unsized array of resources '{name}' inside a struct"
                    ));
                }
                if self.opts.bindings.flatten_arrays {
                    return Err(format!(
                        "-fspv-flatten-resource-arrays with the array of resources '{name}' \
                         inside a struct"
                    ));
                }
                out.push((name.to_owned(), (**elem).clone(), Some(*n), *next));
                *next = next.saturating_add(*n);
            }
            Ty::Array(..) => {
                // Arrays of arrays are split by their flattened index, as DXC names them.
                let (mut inner, mut count) = (ty, 1u32);
                while let Ty::Array(e, n) = inner {
                    count = count.saturating_mul(*n);
                    inner = e;
                }
                if count == 0 || matches!(inner, Ty::Resource(..)) {
                    return Err(format!("the array of arrays of resources '{name}'"));
                }
                for k in 0..count {
                    self.resource_leaves(inner, &format!("{name}[{k}]"), depth + 1, next, out)?;
                }
            }
            Ty::Struct(i) => {
                let Some(def) = self.m.types.structs.get(*i) else {
                    return Ok(());
                };
                if !def.bitfields.is_empty() {
                    return Err(format!("the bit-fields of '{name}' beside resources"));
                }
                for f in &def.fields {
                    let member = format!("{name}.{}", f.name);
                    self.resource_leaves(&f.ty, &member, depth + 1, next, out)?;
                }
            }
            _ => {
                return Err(format!(
                    "'{name}', a member other than a resource in a module-scope struct \
                     holding resources"
                ))
            }
        }
        Ok(())
    }

    /// The counter a buffer of `kind` gets: `Some(Some(b))` at `[[vk::counter_binding(b)]]`,
    /// `Some(None)` bound implicitly, `None` without one.
    fn counter(
        &mut self,
        kind: &ResourceKind,
        counted: bool,
        counter_binding: Option<&Attribute>,
    ) -> Option<Option<u32>> {
        match (counted, counter_binding) {
            (true, Some(a)) => {
                let b = a
                    .args
                    .first()
                    .and_then(|e| self.const_eval(e))
                    .and_then(ConstVal::as_int);
                match b.and_then(|b| u32::try_from(b).ok()) {
                    Some(b) => Some(Some(b)),
                    None => {
                        self.error(a.span, "[[vk::counter_binding]] needs a binding number");
                        Some(None)
                    }
                }
            }
            (true, None) => Some(None),
            // A RWStructuredBuffer whose counter is never used has none to bind (as DXC).
            (false, Some(_)) if matches!(kind, ResourceKind::StructuredBuffer { rw: true, .. }) => {
                None
            }
            (false, Some(a)) => {
                self.error(
                    a.span,
                    "[[vk::counter_binding]] on a resource without a counter (only \
                     Append/ConsumeStructuredBuffer and RWStructuredBuffer have one)",
                );
                None
            }
            (false, None) => None,
        }
    }

    /// An array of `n` resources of type `elem` (0: unsized, `R r[]`), one binding for all.
    fn resource_array(&mut self, v: &VarDecl, d: &Declarator, elem: Ty, n: u32) {
        let Ty::Resource(kind, _) = &elem else { return };
        let counted = matches!(
            kind,
            ResourceKind::StructuredBuffer { flavor, .. } if *flavor != SbFlavor::Plain
        ) || self.m.counter_users.contains(&d.name.name);
        let block = matches!(
            kind,
            ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer
        );
        let why = match kind {
            _ if block && attr(&v.attributes, Some("vk"), "push_constant").is_some() => {
                Some("arrays of push-constant blocks".to_owned())
            }
            _ if n == 0 && d.init.is_some() => {
                Some("an unsized array of resources with an initializer".to_owned())
            }
            _ if n == 0 && self.opts.bindings.flatten_arrays => {
                Some("-fspv-flatten-resource-arrays with an unsized array of resources".to_owned())
            }
            _ => None,
        };
        if let Some(why) = why {
            self.error(d.span, format!("not supported yet: {why}"));
            return;
        }
        let binding = self.explicit_binding(&v.attributes, &d.annotations);
        if block {
            let Ty::Resource(kind, inner) = &elem else {
                return;
            };
            if let Some(g) = self.buffer_view(v, *kind, inner, binding, Some(n)) {
                self.push(&d.name.name, d.name.span, elem.clone(), false, g);
            }
            return;
        }
        let counter_binding = attr(&v.attributes, Some("vk"), "counter_binding");
        let counter = self.counter(kind, counted, counter_binding);
        let kind = GlobalKind::Resource {
            binding,
            coherent: has(&v.modifiers, Modifier::GloballyCoherent),
            user_type: user_type(&v.ty),
            counter,
            array: Some(n),
            input_attachment: None,
        };
        self.push(&d.name.name, d.name.span, elem, false, kind);
    }

    /// The heap (`None`) or module-scope array of resources (its name) a `static` resource
    /// variable is an element of (`static R r = Heap[i];`, `= rs[i]`, never assigned by a
    /// function), when `i` reads only constants and constant-buffer members (so evaluating
    /// it where `r` is used gives the initializer's value); `Ok(None)` when the initializer
    /// is not such an element, `Err` when it is one that is refused (reported).
    fn heap_alias(
        &mut self,
        v: &VarDecl,
        d: &Declarator,
        ty: &Ty,
        is_static: bool,
    ) -> Result<Option<(Option<crate::hlsl::hir::Heap>, String)>, ()> {
        let Some(Initializer::Expr(Expr {
            kind: ExprKind::Index { base, index },
            ..
        })) = &d.init
        else {
            return Ok(None);
        };
        let ExprKind::Ident(h) = &base.kind else {
            return Ok(None);
        };
        // A heap, or a module-scope array of resources of this type.
        let array = self.m.globals.iter().rev().find(|g| g.name == h.name);
        let heap = match array {
            Some(g) => match g.kind {
                GlobalKind::Resource {
                    array: Some(_),
                    coherent,
                    ..
                } if g.ty == *ty => {
                    if coherent != has(&v.modifiers, Modifier::GloballyCoherent) {
                        // The element is the array's: it cannot differ in coherence.
                        self.error(
                            d.span,
                            "not supported yet: a static element of an array of resources \
                             that differs from the array in 'globallycoherent'",
                        );
                        return Err(());
                    }
                    None
                }
                _ => return Ok(None),
            },
            None => match crate::hlsl::hir::Heap::by_name(&h.name) {
                Some(heap) => Some(heap),
                None => return Ok(None),
            },
        };
        if !is_static || self.m.assigned.contains(&d.name.name) {
            return Ok(None);
        }
        let why = match ty {
            Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, _) => {
                "a ConstantBuffer or TextureBuffer from a descriptor heap"
            }
            Ty::Resource(ResourceKind::StructuredBuffer { flavor, rw, .. }, _)
                if *flavor != SbFlavor::Plain
                    || (*rw && self.m.counter_users.contains(&d.name.name)) =>
            {
                "a static buffer with a counter from a descriptor heap"
            }
            _ if !self.invariant(index) => {
                "a static resource from a descriptor heap at an index that is not computed from \
                 constants and constant-buffer members"
            }
            _ => {
                let view = if heap.is_some() {
                    String::new()
                } else {
                    h.name.clone()
                };
                return Ok(Some((heap, view)));
            }
        };
        self.error(d.span, format!("not supported yet: {why}"));
        Err(())
    }

    /// Whether `e` reads only literals, module constants and constant-buffer members (the
    /// same value wherever and whenever it is evaluated).
    fn invariant(&self, e: &Expr) -> bool {
        let block_member = |n: &str| {
            self.m.types.constant(n).is_some()
                || self.m.globals.iter().any(|g| match &g.kind {
                    GlobalKind::Block {
                        def,
                        as_var: false,
                        push_constant: false,
                        texture: false,
                        ..
                    } => def.fields.iter().any(|f| f.name == n),
                    GlobalKind::Block {
                        as_var: true,
                        push_constant: false,
                        texture: false,
                        ..
                    }
                    | GlobalKind::Constant(_) => g.name == n,
                    _ => false,
                })
        };
        match &e.kind {
            ExprKind::Literal(_) => true,
            ExprKind::Ident(id) => block_member(&id.name),
            ExprKind::Member { base, .. } => self.invariant(base),
            ExprKind::Index { base, index } => self.invariant(base) && self.invariant(index),
            ExprKind::Unary { op, operand } => {
                !matches!(
                    op,
                    crate::hlsl::ast::UnaryOp::PreInc
                        | crate::hlsl::ast::UnaryOp::PreDec
                        | crate::hlsl::ast::UnaryOp::PostInc
                        | crate::hlsl::ast::UnaryOp::PostDec
                ) && self.invariant(operand)
            }
            ExprKind::Binary { lhs, rhs, .. } => self.invariant(lhs) && self.invariant(rhs),
            ExprKind::Cast { operand, .. } => self.invariant(operand),
            ExprKind::Construct { args, .. } => args.iter().all(|a| self.invariant(a)),
            ExprKind::Call { callee, args, .. } => {
                callee.name == "NonUniformResourceIndex" && args.iter().all(|a| self.invariant(a))
            }
            _ => false,
        }
    }

    /// The module-scope resource a `static` resource variable initialized with its name stays
    /// (its type, never assigned by a function), if it is one.
    fn alias_target(&self, d: &Declarator, ty: &Ty, is_static: bool) -> Option<String> {
        let Some(Initializer::Expr(Expr {
            kind: ExprKind::Ident(target),
            ..
        })) = &d.init
        else {
            return None;
        };
        let same = self
            .m
            .globals
            .iter()
            .rev()
            .find(|g| g.name == target.name)?;
        let resource = matches!(
            same.kind,
            GlobalKind::Resource { array: None, .. } | GlobalKind::Alias(_)
        );
        (is_static && resource && same.ty == *ty && !self.m.assigned.contains(&d.name.name))
            .then(|| target.name.clone())
    }

    /// `base` with the format `[[vk::image_format("...")]]` on `v` gives a storage image or
    /// texel buffer (DXC's spellings: the grammar's `ImageFormat` names in lower case,
    /// `r11g11b10f` for `R11fG11fB10f`); `None` after an error.
    fn image_format(&mut self, v: &VarDecl, base: Ty) -> Option<Ty> {
        let Some(a) = attr(&v.attributes, Some("vk"), "image_format") else {
            return Some(base);
        };
        let written = match a.args.as_slice() {
            [Expr {
                kind: ExprKind::Literal(crate::hlsl::ast::Literal::String(s)),
                ..
            }] => s.clone(),
            _ => {
                self.error(a.span, "vk::image_format takes one string (\"rgba8\", ...)");
                return None;
            }
        };
        let spelled = |f: &crate::grammar::ImageFormat| {
            let n = f.to_string().to_ascii_lowercase();
            n == written || (n == "r11fg11fb10f" && written == "r11g11b10f")
        };
        let Some(format) = (0..256)
            .filter_map(crate::grammar::ImageFormat::from_value)
            .find(spelled)
        else {
            self.error(a.span, format!("unknown image format '{written}'"));
            return None;
        };
        // Vulkan's format-type matching, as DXC checks it (not for arrays of resources): a
        // float or normalized format takes `float` texels, an `i` one `int` and a `ui` one
        // `uint`, `int64_t`/`uint64_t` for the 64-bit ones.
        let texel = match &base {
            Ty::Resource(_, e) => e.component(),
            _ => None,
        };
        let wanted = if written == "unknown" {
            None
        } else if written == "r64ui" {
            Some(Scalar::UInt64)
        } else if written == "r64i" {
            Some(Scalar::Int64)
        } else if written.ends_with("ui") {
            Some(Scalar::UInt)
        } else if written.ends_with('i') {
            Some(Scalar::Int)
        } else {
            Some(Scalar::Float)
        };
        let arrays = v.declarators.iter().any(|d| !d.array_dims.is_empty());
        let compatible = arrays || wanted.is_none() || texel == wanted;
        if !compatible && matches!(base, Ty::Resource(..)) {
            self.diags.push(
                Diagnostic::error(
                    v.ty.span,
                    "The image format and the sampled type are not compatible.",
                )
                .with_note(
                    a.span,
                    "For the table of compatible types, see \
                     https://docs.vulkan.org/spec/latest/appendices/spirvenv.html#spirvenv-format-type-matching.",
                ),
            );
            return None;
        }
        match base {
            Ty::Resource(
                ResourceKind::Texture {
                    rw: true,
                    dim,
                    arrayed,
                    ms,
                    combined,
                    ..
                },
                e,
            ) => Some(Ty::Resource(
                ResourceKind::Texture {
                    dim,
                    arrayed,
                    ms,
                    rw: true,
                    combined,
                    format: Some(format),
                },
                e,
            )),
            Ty::Resource(ResourceKind::TexelBuffer { rw, .. }, e) => Some(Ty::Resource(
                ResourceKind::TexelBuffer {
                    rw,
                    format: Some(format),
                },
                e,
            )),
            _ => {
                self.error(
                    a.span,
                    "vk::image_format applies to storage images (RWTexture*) and texel buffers",
                );
                None
            }
        }
    }

    /// A `SubpassInput`'s `[[vk::input_attachment_index(N)]]` (an error on another
    /// resource); `None` after an error.
    fn input_attachment(&mut self, v: &VarDecl, kind: ResourceKind) -> Option<Option<u32>> {
        let a = attr(&v.attributes, Some("vk"), "input_attachment_index");
        let subpass = matches!(kind, ResourceKind::Subpass { .. });
        match (a, subpass) {
            (None, false) => Some(None),
            (Some(a), false) => {
                self.error(
                    a.span,
                    "vk::input_attachment_index applies to SubpassInput(MS) only",
                );
                None
            }
            // As DXC: without the attribute the variable has no index (unusable by a render
            // pass, which spirv-val checks where it is read).
            (None, true) => Some(None),
            (Some(a), true) => {
                let n = a
                    .args
                    .first()
                    .and_then(|e| self.const_eval(e))
                    .and_then(ConstVal::as_int)
                    .and_then(|n| u32::try_from(n).ok());
                if n.is_none() {
                    self.error(a.span, "vk::input_attachment_index needs a constant index");
                }
                n.map(Some)
            }
        }
    }

    /// `ConstantBuffer<T>`/`TextureBuffer<T>` (of `kind`, `elem` being `T`) declared by `v`:
    /// a block of `T`'s fields, named as the variable (`array`: an array of them).
    fn buffer_view(
        &mut self,
        v: &VarDecl,
        kind: ResourceKind,
        elem: &Ty,
        binding: Binding,
        array: Option<u32>,
    ) -> Option<GlobalKind> {
        let texture = kind == ResourceKind::TextureBuffer;
        let Ty::Struct(i) = *elem else { return None };
        let sd = self.m.types.structs.get(i)?;
        let prefix = if texture {
            "TextureBuffer"
        } else {
            "ConstantBuffer"
        };
        let def = StructDef {
            name: format!("type.{prefix}.{}", sd.name),
            fields: sd.fields.clone(),
            bitfields: sd.bitfields.clone(),
            origin: Some(sd.name.clone()),
        };
        Some(GlobalKind::Block {
            def,
            as_var: true,
            push_constant: attr(&v.attributes, Some("vk"), "push_constant").is_some(),
            texture,
            binding,
            user_type: user_type(&v.ty),
            array,
        })
    }

    /// A resource declarator of `v`.
    fn resource(
        &mut self,
        v: &VarDecl,
        d: &Declarator,
        kind: ResourceKind,
        elem: &Ty,
        ty: &Ty,
    ) -> Option<()> {
        let name = d.name.name.clone();
        if let Some(a) = attr(&v.attributes, Some("vk"), "combinedImageSampler") {
            let sampled = matches!(
                kind,
                ResourceKind::Texture {
                    rw: false,
                    ms: false,
                    combined: false,
                    ..
                } | ResourceKind::Sampler { .. }
            );
            if !sampled {
                self.error(
                    a.span,
                    "vk::combinedImageSampler applies to sampled textures and samplers",
                );
                return None;
            }
            self.m.combined.insert(name.clone());
        }
        let binding = self.explicit_binding(&v.attributes, &d.annotations);
        if matches!(
            kind,
            ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer
        ) {
            let kind = self.buffer_view(v, kind, elem, binding, None)?;
            self.push(&name, d.name.span, ty.clone(), false, kind);
            return Some(());
        }
        let counter_binding = attr(&v.attributes, Some("vk"), "counter_binding");
        let counted = match kind {
            ResourceKind::StructuredBuffer { flavor, rw, .. } => {
                flavor != SbFlavor::Plain || (rw && self.m.counter_users.contains(&name))
            }
            _ => false,
        };
        let counter = self.counter(&kind, counted, counter_binding);
        let input_attachment = self.input_attachment(v, kind)?;
        let kind = GlobalKind::Resource {
            binding,
            coherent: has(&v.modifiers, Modifier::GloballyCoherent),
            user_type: user_type(&v.ty),
            counter,
            array: None,
            input_attachment,
        };
        self.push(&name, d.name.span, ty.clone(), false, kind);
        Some(())
    }

    /// A loose uniform: a member of `$Globals`.
    fn uniform(&mut self, v: &VarDecl, d: &Declarator, ty: Ty, relaxed: bool) {
        let name = &d.name.name;
        // `register(cN)` places the member at 16 × N bytes of `$Globals`.
        let mut offset = None;
        for a in &d.annotations {
            match a {
                Annotation::Register(r) if r.class == 'c' && r.space.is_some() => {
                    self.error(r.span, "not supported yet: a space on register(cN)")
                }
                Annotation::Register(r) if r.class == 'c' => {
                    offset = Some(FieldOffset::Placed(r.index.saturating_mul(16)));
                    self.placed_uniforms
                        .push((self.uniforms.fields.len(), r.span));
                }
                _ => {}
            }
        }
        if self.opts.layout == crate::hlsl::BufferLayout::Dx && is_vector_matrix(&v.ty) {
            self.error(v.ty.span, VECTOR_MATRIX_DX);
        }
        if d.init.is_some() {
            self.diags.push(Diagnostic::warning(
                d.span,
                "the initializer of a uniform global is ignored",
            ));
        }
        if let Some(a) = attr(&v.attributes, Some("vk"), "binding") {
            self.error(
                a.span,
                format!(
                    "variable '{name}' will be placed in $Globals so cannot have vk::binding \
                     attribute"
                ),
            );
        }
        let row_major = self.resolver(|r| r.row_major(&v.modifiers, &v.ty));
        self.uniforms.fields.push(Field {
            name: name.clone(),
            ty,
            row_major,
            semantic: None,
            interp: Interp::default(),
            relaxed,
            row_depth: row_depth(&v.ty, d.array_dims.len()),
            location: None,
            index: None,
            builtin: None,
            offset,
        });
    }

    /// Reports the uniforms whose `register(cN)` places them over one another.
    /// `[[vk::offset]]` on a field of a struct a buffer holds must respect the alignment the
    /// buffer's layout needs (DXC warns, then writes SPIR-V that does not validate).
    fn check_offsets(&mut self) {
        use crate::hlsl::sema::layout::{misaligned_offset, LayoutRule};
        let (cb, sb) = (
            LayoutRule::cbuffer(self.opts.layout),
            LayoutRule::sbuffer(self.opts.layout),
        );
        let structs = &self.m.types.structs;
        let mut bad = Vec::new();
        for g in &self.m.globals {
            let found = match (&g.kind, &g.ty) {
                (
                    GlobalKind::Block {
                        def,
                        push_constant,
                        texture,
                        ..
                    },
                    _,
                ) => misaligned_offset(
                    def,
                    if *push_constant || *texture { sb } else { cb },
                    structs,
                ),
                (
                    GlobalKind::Resource { .. },
                    Ty::Resource(ResourceKind::StructuredBuffer { .. }, elem),
                ) => match &**elem {
                    Ty::Struct(i) => structs
                        .get(*i)
                        .and_then(|d| misaligned_offset(d, sb, structs)),
                    _ => None,
                },
                _ => None,
            };
            if let Some((field, off, align)) = found {
                bad.push((g.span, field, off, align));
            }
        }
        for (span, field, off, align) in bad {
            self.error(
                span,
                format!(
                    "the offset provided in the attribute should be {align}-byte aligned \
                     ([[vk::offset({off})]] or a packoffset of byte {off} on '{field}' in this \
                     buffer's layout)"
                ),
            );
        }
    }

    fn check_placed_uniforms(&mut self) {
        let rule = crate::hlsl::sema::layout::LayoutRule::cbuffer(self.opts.layout);
        let structs = &self.m.types.structs;
        let mut placed: Vec<(u32, u32, Span)> = self
            .placed_uniforms
            .iter()
            .filter_map(|&(k, span)| {
                let f = self.uniforms.fields.get(k)?;
                let (size, _) =
                    crate::hlsl::sema::layout::size_align(&f.ty, rule, f.row_major, structs);
                Some((f.offset?.bytes(), size, span))
            })
            .collect();
        placed.sort_by_key(|p| p.0);
        let clashes: Vec<Span> = placed
            .windows(2)
            .filter(|w| w[0].0.saturating_add(w[0].1) > w[1].0)
            .map(|w| w[1].2)
            .collect();
        for span in clashes {
            self.error(span, "this register(cN) overlaps another global constant");
        }
    }

    /// A function definition or inline SPIR-V declaration (item `idx`): its signature.
    fn function(&mut self, idx: usize, f: &FunctionDecl) {
        let inline_attr = attr(&f.attributes, Some("vk"), "ext_instruction");
        let inline_op = match (inline_attr, &f.body) {
            (Some(a), None) => {
                let op = match a.args.as_slice() {
                    [e] => self.const_eval(e).and_then(|v| v.as_int()),
                    [_, _, ..] => {
                        self.error(
                            a.span,
                            "not supported yet: [[vk::ext_instruction]] of an extended \
                             instruction set",
                        );
                        return;
                    }
                    _ => None,
                };
                match op
                    .and_then(|o| u32::try_from(o).ok())
                    .filter(|o| *o <= 0xffff)
                {
                    Some(o) if crate::grammar::tables::core_instruction(o as u16).is_none() => {
                        self.error(
                            a.span,
                            format!(
                                "[[vk::ext_instruction({o})]]: no SPIR-V instruction has the \
                                 opcode {o}"
                            ),
                        );
                        return;
                    }
                    Some(o) => Some((o, a.span)),
                    None => {
                        self.error(
                            a.span,
                            "[[vk::ext_instruction]] takes one constant opcode (0 to 65535)",
                        );
                        return;
                    }
                }
            }
            _ => None,
        };
        if f.body.is_none() && inline_op.is_none() {
            return;
        }
        let (ret, relaxed_ret) = self
            .resolver(|r| r.resolve_local_type(&f.return_ty))
            .unwrap_or((Ty::Void, false));
        // (A ray query parameter is a reference to the caller's, as in DXC; one is not
        // returned.)
        if ret.is_ray_query() {
            self.error(f.return_ty.span, "not supported yet: returning a RayQuery");
            return;
        }
        let mut params = Vec::new();
        let mut relaxed_params = Vec::new();
        let row_params: Vec<Option<u8>> = f
            .params
            .iter()
            .map(|p| row_depth(&p.ty, p.array_dims.len()))
            .collect();
        for p in &f.params {
            // A struct holding resources is passed in (copied) or in and out (a method's
            // `this`, an `inout` parameter: the pointers it holds are copied back).
            let resolved = if p.array_dims.is_empty() {
                self.resolver(|r| r.resolve_local_type(&p.ty))
            } else {
                self.resolver(|r| r.resolve_type(&p.ty))
            };
            let Some((ty, relaxed)) = resolved else {
                params.push((Ty::Void, ParamDir::In));
                relaxed_params.push(false);
                continue;
            };
            relaxed_params.push(relaxed);
            let ty = match (&ty, p.array_dims.as_slice()) {
                // `Texture2D ts[]`: any array of those resources (the caller's).
                (Ty::Resource(..), [None]) => Ty::Array(Box::new(ty), 0),
                _ => self
                    .resolver(|r| r.array_type(&ty, &p.array_dims, None, p.ty.span))
                    .unwrap_or(Ty::Void),
            };
            let dir = if has(&p.modifiers, Modifier::InOut)
                || (has(&p.modifiers, Modifier::In) && has(&p.modifiers, Modifier::Out))
            {
                ParamDir::InOut
            } else if has(&p.modifiers, Modifier::Out) {
                ParamDir::Out
            } else {
                ParamDir::In
            };
            params.push((ty, dir));
        }
        let list = self.m.functions.entry(f.name.name.clone()).or_default();
        if list.iter().any(|o| {
            o.params
                .iter()
                .map(|p| &p.0)
                .eq(params.iter().map(|p| &p.0))
        }) {
            let name = f.name.name.clone();
            self.error(f.name.span, format!("redefinition of '{name}'"));
            return;
        }
        let required = f.params.iter().take_while(|p| p.default.is_none()).count();
        let constant = |e: &Expr| {
            decls::fold(e, self.opts, &|n| self.m.types.constant(n)).and_then(ConstVal::as_int)
        };
        let mut decoration_errors = Vec::new();
        let mut decorations_of = |attrs: &[Attribute]| {
            crate::hlsl::sema::attributes::ext_decorations(attrs, &constant).unwrap_or_else(|e| {
                decoration_errors.push(e);
                Vec::new()
            })
        };
        let decorations = decorations_of(&f.attributes);
        let param_decorations: Vec<_> = f
            .params
            .iter()
            .map(|p| decorations_of(&p.attributes))
            .collect();
        let decorated = !decorations.is_empty() || param_decorations.iter().any(|d| !d.is_empty());
        if decorated && (f.name.name == self.opts.entry || inline_op.is_some()) {
            decoration_errors.push(Diagnostic::error(
                f.name.span,
                "not supported yet: [[vk::ext_decorate]] on the entry point, its parameters (the \
                 stage variables) or an inline SPIR-V declaration",
            ));
        }
        if inline_op.is_none() {
            for p in &f.params {
                if let Some(a) = attr(&p.attributes, Some("vk"), "ext_literal") {
                    decoration_errors.push(Diagnostic::error(
                        a.span,
                        "[[vk::ext_literal]] is only meaningful on a parameter of an inline \
                         SPIR-V declaration ([[vk::ext_instruction]])",
                    ));
                }
            }
        }
        if f.name.name != self.opts.entry {
            if let Some(a) = attr(&f.attributes, Some("vk"), "spvexecutionmode") {
                decoration_errors.push(Diagnostic::error(
                    a.span,
                    "not supported yet: [[vk::spvexecutionmode]] on a function other than the \
                     entry point",
                ));
            }
        }
        self.diags.append(&mut decoration_errors);
        let list = self.m.functions.entry(f.name.name.clone()).or_default();
        list.push(Signature {
            item: idx,
            params,
            ret,
            required,
            relaxed_params,
            relaxed_ret,
            row_params,
            inline_op,
            decorations,
            param_decorations,
        });
    }
}

/// `-fspv-reflect`: the `UserTypeGOOGLE` string DXC gives a resource of type `t`: the type's
/// name in lower case, then its template arguments as written (`texture2dmsarray:<float4,64>`).
/// `None` for a type named through a typedef (no string rather than a wrong one) and for
/// samplers.
fn user_type(t: &TypeExpr) -> Option<String> {
    use crate::hlsl::ast::TemplateArg;
    fn spell(t: &TypeExpr) -> Option<String> {
        if t.args.is_empty() {
            return Some(t.name.name.clone());
        }
        let args: Option<Vec<String>> = t.args.iter().map(arg).collect();
        Some(format!("{}<{}>", t.name.name, args?.join(",")))
    }
    fn arg(a: &TemplateArg) -> Option<String> {
        match a {
            TemplateArg::Type(t) => spell(t),
            TemplateArg::Expr(Expr {
                kind: ExprKind::Literal(crate::hlsl::ast::Literal::Int { value, .. }),
                ..
            }) => Some(value.to_string()),
            TemplateArg::Expr(_) => None,
        }
    }
    let name = t.name.name.as_str();
    let known = [
        "StructuredBuffer",
        "RWStructuredBuffer",
        "ByteAddressBuffer",
        "RWByteAddressBuffer",
        "Buffer",
        "RWBuffer",
        "Texture1D",
        "Texture2D",
        "Texture3D",
        "TextureCube",
        "RWTexture1D",
        "RWTexture2D",
        "RWTexture3D",
        "ConstantBuffer",
        "RaytracingAccelerationStructure",
    ];
    if !known.contains(&name) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    if t.args.is_empty() {
        return Some(lower);
    }
    let args: Option<Vec<String>> = t.args.iter().map(arg).collect();
    Some(format!("{lower}:<{}>", args?.join(",")))
}

/// The module `src` declares for `profile` (entry `main`), with the diagnostics: for the
/// semantic analysis tests. The module's bodies borrow the unit for as long as the test runs.
#[cfg(test)]
pub(crate) fn declare_for_test(src: &str, profile: &str) -> (Module<'static>, Vec<Diagnostic>) {
    let opts = Options::new("main", profile.parse().unwrap());
    let parsed = crate::hlsl::parse("t.hlsl", src, &opts);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let mut diags = Vec::new();
    let unit = Box::leak(Box::new(crate::hlsl::sema::names::resolve(
        parsed.unit,
        &mut diags,
    )));
    let m = declare_module(unit, &opts, &mut diags);
    (m, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hlsl::hir::Binding;
    use crate::hlsl::sema::types::Scalar;

    fn declare(src: &str) -> (Module<'static>, Vec<Diagnostic>) {
        declare_for_test(src, "cs_6_0")
    }

    #[test]
    fn module_scope_names_are_declared_once() {
        let (_, diags) = declare(
            "static float g = 1; static float g = 2; cbuffer C { float4 tint; };
             float4 tint; struct S { float x; }; ConstantBuffer<S> cb; RWBuffer<float> cb;
             [numthreads(1, 1, 1)] void main() { }",
        );
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "redefinition of 'g'",
                "redefinition of 'cb'",
                "redefinition of 'tint'"
            ]
        );
    }

    #[test]
    fn globals_are_classified_in_source_order_with_resolved_types() {
        let (m, diags) = declare(
            "static const int N = 2 + 2;
             struct S { float a[N]; };
             RWStructuredBuffer<S> buf : register(u3, space1);
             groupshared float g[N];
             static float p = 1;
             cbuffer C { float4 x; };
             float u;
             [[vk::constant_id(2)]] const int K = 7;
             [numthreads(1, 1, 1)] void main() {}",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let s = m.types.struct_names["S"];
        assert_eq!(
            m.types.structs[s].fields[0].ty,
            Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), 4)
        );
        let names: Vec<&str> = m.globals.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["N", "buf", "g", "p", "C", "K", "$Globals"]);
        let kinds = &m.globals;
        assert!(matches!(
            kinds[0].kind,
            GlobalKind::Constant(ConstVal::Int(4))
        ));
        assert!(matches!(
            kinds[1].kind,
            GlobalKind::Resource {
                binding: Binding::Register {
                    class: 'u',
                    index: 3,
                    space: Some(1)
                },
                counter: None,
                array: None,
                ..
            }
        ));
        assert_eq!(
            kinds[2].ty,
            Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), 4)
        );
        assert!(matches!(kinds[2].kind, GlobalKind::GroupShared { .. }));
        assert!(matches!(
            kinds[3].kind,
            GlobalKind::Static {
                konst: false,
                init: Some((_, 0)),
                ..
            }
        ));
        assert!(matches!(
            kinds[4].kind,
            GlobalKind::Block { as_var: false, .. }
        ));
        assert!(matches!(
            kinds[5].kind,
            GlobalKind::SpecConstant {
                id: 2,
                value: ConstVal::Int(7)
            }
        ));
        let GlobalKind::Block { def, .. } = &kinds[6].kind else {
            panic!("$Globals is a block: {:?}", kinds[6]);
        };
        assert_eq!(def.fields.len(), 1);
        assert_eq!(def.fields[0].name, "u");
        assert_eq!(m.functions["main"].len(), 1);
    }

    #[test]
    fn declaration_errors_come_from_semantic_analysis() {
        let (m, diags) = declare(
            "struct P { float4 v; };
             [[vk::push_constant]] P a;
             [[vk::push_constant]] P b;
             [[vk::constant_id(1)]] static const int K = 1;
             float f(int x) { return x; }
             float f(int y) { return y; }
             RWStructuredBuffer<float> rw;
             [numthreads(1, 1, 1)] void main() { rw.IncrementCounter(); }",
        );
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert!(
            msgs.contains(&"cannot have more than one push constant block"),
            "{msgs:?}"
        );
        assert!(msgs.contains(&"specialization constant must be externally visible"));
        assert!(msgs.contains(&"redefinition of 'f'"));
        // The buffer whose counter method is called gets a counter.
        let rw = m.globals.iter().find(|g| g.name == "rw").unwrap();
        assert!(matches!(
            rw.kind,
            GlobalKind::Resource {
                counter: Some(None),
                ..
            }
        ));
    }
}
