//! The types declarations spell: the type environment (structs, typedefs, global constants)
//! built from the module's declarations in source order, and the resolution of a written type
//! (`float3x4`, `vector<T, N>`, `RWStructuredBuffer<S>`, a typedef, arrays) against it, with
//! struct fields, bit-fields and majorness. Code generation asks this module for types and
//! never resolves a name itself.

use crate::hlsl::ast::{
    Annotation, Attribute, Expr, ExprKind, Initializer, Item, Modifier, ModifierSpan, TemplateArg,
    TypeExpr, VarDecl,
};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::sema::consteval::{self, ConstVal};
use crate::hlsl::sema::types::{
    builtin_by_name, is_unimplemented_builtin, needs_16bit_types, rasterizer_ordered_as_rw,
    BitField, Field, FieldOffset, Interp, ResourceKind, SbFlavor, Scalar, StructDef, TexDim, Ty,
};
use crate::hlsl::source::Span;
use crate::hlsl::Options;
use std::collections::HashMap;

/// The error for a texture or texel buffer of 64-bit floats in a Vulkan environment, whose
/// sampled types are 32-bit floats and 32- or 64-bit integers.
const SAMPLED_DOUBLE: &str = "The sampled type for textures cannot be a 64-bit floating point \
     type when targeting a Vulkan environment.";

/// DXC's error for a texture or texel buffer of 16-bit components: Vulkan's sampled types
/// are 32-bit (or 64-bit) scalars.
const SAMPLED_16BIT: &str = "The sampled type for textures cannot be a floating point type \
     smaller than 32-bits when targeting a Vulkan environment.";

impl TypeResolver<'_> {
    /// Whether textures of 16-bit `c` components are refused: in a Vulkan environment
    /// (DXC's error); other environments take `half` ones (DXC's universal targets).
    fn narrow_texel_refused(&self, c: Scalar) -> bool {
        self.opts.target_env.is_vulkan() || !c.is_float()
    }
}

/// Whether `ty` is or holds a resource (in arrays, or in a struct of `resource_structs`).
fn holds_resource(ty: &Ty, resource_structs: &std::collections::HashSet<usize>) -> bool {
    match ty {
        Ty::Resource(..) => true,
        Ty::Array(e, _) => holds_resource(e, resource_structs),
        Ty::Struct(i) => resource_structs.contains(i),
        _ => false,
    }
}

/// The struct of `resource_structs` that `ty` is or holds (in arrays, or as a resource's
/// element type).
pub(crate) fn resource_struct_in(
    ty: &Ty,
    resource_structs: &std::collections::HashSet<usize>,
) -> Option<usize> {
    match ty {
        Ty::Struct(i) if resource_structs.contains(i) => Some(*i),
        Ty::Array(e, _) | Ty::Resource(_, e) => resource_struct_in(e, resource_structs),
        _ => None,
    }
}

/// The largest array length accepted (layouts and initializers walk every element).
const MAX_ARRAY: i64 = 1 << 16;

/// The refusal of a 1xN or Nx1 matrix under `-fvk-use-dx-layout`: fxc gives each of its
/// one-component vectors a 16-byte register (DXC turns it into an array of scalars).
pub(crate) const VECTOR_MATRIX_DX: &str =
    "not supported yet: a 1xN or Nx1 matrix in a structure or constant with -fvk-use-dx-layout";

/// The type name the parser gives `row_major T` as a template argument (`row_major<T>`; no
/// source can spell it, `row_major` being a keyword).
pub const ROW_MAJOR: &str = "row_major";

/// The type name of `column_major T` as a template argument (see [`ROW_MAJOR`]).
pub const COLUMN_MAJOR: &str = "column_major";

/// Whether `t` is `row_major T` or `column_major T` as the parser writes them.
fn is_majorness_wrapper(t: &TypeExpr) -> bool {
    matches!(t.name.name.as_str(), ROW_MAJOR | COLUMN_MAJOR) && t.args.len() == 1
}

/// Whether `t` is a matrix or an array of them.
fn holds_matrix(t: &Ty) -> bool {
    match t {
        Ty::Matrix(..) => true,
        Ty::Array(e, _) => holds_matrix(e),
        _ => false,
    }
}

/// The majorness the `#pragma pack_matrix` in force gives a declaration with `mods`.
pub(crate) fn pack_matrix(mods: &[ModifierSpan]) -> Option<bool> {
    mods.iter().find_map(|m| match m.modifier {
        Modifier::PackMatrix(row_major) => Some(row_major),
        _ => None,
    })
}

/// The built-in of a `[[vk::builtin("Name")]]` attribute (DXC's names, which are the
/// grammar's), or why there is none; the stage variable reports where it cannot be.
pub(crate) fn builtin_attr(a: &Attribute) -> Result<crate::grammar::BuiltIn, String> {
    match a.args.as_slice() {
        [Expr {
            kind: ExprKind::Literal(crate::hlsl::ast::Literal::String(s)),
            ..
        }] => s.parse().map_err(|_| format!("unknown built-in '{s}'")),
        _ => Err("vk::builtin takes one string (\"PointSize\", ...)".into()),
    }
}

/// Whether `mods` has `m`.
pub(crate) fn has(mods: &[ModifierSpan], m: Modifier) -> bool {
    mods.iter().any(|x| x.modifier == m)
}

/// The majorness `mods` spell, if they spell one.
fn spelled_majorness(mods: &[ModifierSpan]) -> Option<bool> {
    if has(mods, Modifier::RowMajor) {
        Some(true)
    } else if has(mods, Modifier::ColumnMajor) {
        Some(false)
    } else {
        None
    }
}

/// The interpolation modifiers among `mods`.
pub(crate) fn interp_of(mods: &[ModifierSpan]) -> Interp {
    Interp {
        flat: has(mods, Modifier::NoInterpolation),
        noperspective: has(mods, Modifier::NoPerspective),
        centroid: has(mods, Modifier::Centroid),
        sample: has(mods, Modifier::Sample),
        linear: has(mods, Modifier::Linear),
    }
}

/// The semantic among annotations.
pub(crate) fn semantic_of(annotations: &[Annotation]) -> Option<String> {
    annotations.iter().find_map(|a| match a {
        Annotation::Semantic(id) => Some(id.name.clone()),
        _ => None,
    })
}

/// The attribute `ns::name` among `attrs`.
pub(crate) fn attr<'a>(
    attrs: &'a [Attribute],
    ns: Option<&str>,
    name: &str,
) -> Option<&'a Attribute> {
    attrs
        .iter()
        .find(|a| a.name.name == name && a.namespace.as_ref().map(|n| n.name.as_str()) == ns)
}

/// Folds a constant expression with the language version's literal rules; `consts` gives the
/// value of a name in scope.
pub fn fold(
    e: &Expr,
    opts: &Options,
    consts: &dyn Fn(&str) -> Option<ConstVal>,
) -> Option<ConstVal> {
    if opts.version >= crate::hlsl::LanguageVersion::V202x {
        consteval::eval_conforming(e, consts)
    } else {
        consteval::eval(e, consts)
    }
}

/// The type environment of `unit`: its structs, typedefs and `static const` constants, in
/// source order (a declaration sees what precedes it); problems go to `diags`.
pub fn declare(
    unit: &crate::hlsl::ast::TranslationUnit,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> TypeEnv {
    let mut env = TypeEnv::default();
    for item in &unit.items {
        match item {
            Item::Struct(s) => {
                let lookup = |n: &str| env.constant(n);
                let mut r = TypeResolver {
                    env: &env,
                    opts,
                    consts: &lookup,
                    diags,
                    pack: None,
                };
                let (mut fields, mut bitfields) = r.fields_and_bits(&s.fields, true);
                if let Some(base) = &s.base {
                    match r.resolve_type_unchecked(base) {
                        Some((ty @ Ty::Struct(_), _)) => {
                            bitfields.iter_mut().for_each(|b| b.field += 1);
                            fields.insert(
                                0,
                                Field {
                                    name: crate::hlsl::sema::names::BASE_FIELD.into(),
                                    ty,
                                    row_major: false,
                                    semantic: None,
                                    interp: Default::default(),
                                    relaxed: false,
                                    row_depth: None,
                                    location: None,
                                    index: None,
                                    builtin: None,
                                    offset: None,
                                },
                            )
                        }
                        Some(_) => r.error(base.span, "a base must be a struct"),
                        None => {}
                    }
                }
                let name = s
                    .name
                    .as_ref()
                    .map_or("anon".to_owned(), |n| n.name.clone());
                let i = env.structs.len();
                if fields
                    .iter()
                    .any(|f| holds_resource(&f.ty, &env.resource_structs))
                {
                    env.resource_structs.insert(i);
                }
                env.structs.push(StructDef {
                    name: name.clone(),
                    fields,
                    bitfields,
                    origin: None,
                });
                if let Some(n) = &s.name {
                    if env.struct_names.insert(name.clone(), i).is_some() {
                        diags.push(Diagnostic::error(
                            n.span,
                            format!("redefinition of struct '{}'", n.name),
                        ));
                    }
                    // The struct completes its forward declaration and the typedefs of it.
                    let done: Vec<String> = env
                        .incomplete
                        .iter()
                        .filter(|(_, target)| **target == name)
                        .map(|(alias, _)| alias.clone())
                        .collect();
                    for alias in done {
                        env.incomplete.remove(&alias);
                        if alias != name {
                            env.typedefs.insert(alias, (Ty::Struct(i), false, None));
                        }
                    }
                }
            }
            Item::StructForward(n) if !env.struct_names.contains_key(&n.name) => {
                env.incomplete.insert(n.name.clone(), n.name.clone());
            }
            Item::Typedef(t)
                if t.ty.args.is_empty() && env.incomplete.contains_key(&t.ty.name.name) =>
            {
                // A typedef of a struct declared but not yet defined (`typedef struct S T;`
                // before `struct S { ... };`) takes effect with the definition.
                let target = env.incomplete[&t.ty.name.name].clone();
                if t.array_dims.is_empty() && t.modifiers.is_empty() {
                    env.incomplete.insert(t.name.name.clone(), target);
                } else {
                    diags.push(Diagnostic::error(
                        t.ty.span,
                        format!(
                            "not supported yet: an array or modified typedef of '{target}' \
                             before its definition"
                        ),
                    ));
                }
            }
            Item::Typedef(t) => {
                if opts.layout == crate::hlsl::BufferLayout::Dx && is_vector_matrix(&t.ty) {
                    diags.push(Diagnostic::error(t.ty.span, VECTOR_MATRIX_DX));
                }
                let lookup = |n: &str| env.constant(n);
                let mut r = TypeResolver {
                    env: &env,
                    opts,
                    consts: &lookup,
                    diags,
                    pack: None,
                };
                let Some((ty, relaxed)) = r.resolve_type(&t.ty) else {
                    continue;
                };
                let Some(ty) = r.array_type(&ty, &t.array_dims, None, t.ty.span) else {
                    continue;
                };
                let rm = spelled_majorness(&t.modifiers)
                    .or_else(|| env.typedefs.get(&t.ty.name.name).and_then(|(_, _, m)| *m));
                if env.is_rasterizer_ordered(&t.ty) {
                    env.rasterizer_ordered.insert(t.name.name.clone());
                }
                if has(&t.modifiers, Modifier::Const)
                    || env.const_typedefs.contains(&t.ty.name.name)
                {
                    env.const_typedefs.insert(t.name.name.clone());
                }
                env.typedefs.insert(t.name.name.clone(), (ty, relaxed, rm));
            }
            Item::Variables(v) => declare_constants(&mut env, opts, v),
            _ => {}
        }
    }
    env
}

/// Records the constants among the `static const` declarators of `v`: scalars with a
/// constant initializer, and one-dimensional integer arrays of constants. Their types are
/// resolved again, with errors reported, where the variables are defined.
fn declare_constants(env: &mut TypeEnv, opts: &Options, v: &VarDecl) {
    if !has(&v.modifiers, Modifier::Static)
        || !env.is_const(&v.modifiers, &v.ty)
        || has(&v.modifiers, Modifier::GroupShared)
        || attr(&v.attributes, Some("vk"), "constant_id").is_some()
        || attr(&v.attributes, Some("vk"), "push_constant").is_some()
    {
        return;
    }
    let mut quiet = Vec::new();
    let lookup = |n: &str| env.constant(n);
    let mut r = TypeResolver {
        env,
        opts,
        consts: &lookup,
        diags: &mut quiet,
        pack: pack_matrix(&v.modifiers),
    };
    let Some((base, _)) = r.resolve_type(&v.ty) else {
        return;
    };
    let mut found = Vec::new();
    for d in &v.declarators {
        let Some(ty) = r.array_type(&base, &d.array_dims, d.init.as_ref(), d.name.span) else {
            continue;
        };
        match (&ty, &d.init) {
            (Ty::Scalar(_), Some(Initializer::Expr(e))) => {
                if let Some(c) = r.const_eval(e) {
                    found.push((d.name.name.clone(), Err(c)));
                }
            }
            (_, Some(init)) => {
                if let Some(elems) = r.const_elements(&ty, init) {
                    found.push((d.name.name.clone(), Ok(elems)));
                }
            }
            _ => {}
        }
    }
    for (name, c) in found {
        match c {
            Err(c) => {
                env.consts.insert(name, c);
            }
            Ok(elems) => {
                env.const_arrays.insert(name, elems);
            }
        }
    }
}

/// The named types and constants declared at module scope.
#[derive(Debug, Default)]
pub struct TypeEnv {
    /// Every struct, by index (`Ty::Struct`).
    pub structs: Vec<StructDef>,
    /// Struct names to their index.
    pub struct_names: HashMap<String, usize>,
    /// Typedefs: the type, whether it is of minimum precision, and its majorness when the
    /// typedef spells one (`typedef row_major float2x3 M;`).
    pub typedefs: HashMap<String, (Ty, bool, Option<bool>)>,
    /// The typedefs that spell `const` (`typedef const int C;`), directly or through another:
    /// a variable of one is `const`.
    pub const_typedefs: std::collections::HashSet<String>,
    /// `static const` scalars with a constant initializer.
    pub consts: HashMap<String, ConstVal>,
    /// `static const` integer arrays initialized with constants, to fold `a[k]`.
    pub const_arrays: HashMap<String, Vec<ConstVal>>,
    /// Incomplete types: structs declared (`struct S;`) and not yet defined, and typedefs of
    /// them, each with the struct it names.
    pub incomplete: HashMap<String, String>,
    /// Typedefs of rasterizer-ordered views.
    pub rasterizer_ordered: std::collections::HashSet<String>,
    /// The structs holding a resource (directly, in an array, or in a member struct): they
    /// may be declared, but not used yet.
    pub resource_structs: std::collections::HashSet<usize>,
}

impl TypeEnv {
    /// Whether a declaration with `modifiers` of the written type `ty` is `const` (spelled,
    /// or through a `const` typedef).
    pub fn is_const(&self, modifiers: &[ModifierSpan], ty: &TypeExpr) -> bool {
        has(modifiers, Modifier::Const) || self.const_typedefs.contains(&ty.name.name)
    }

    /// A type as the user wrote it (struct names resolved), for messages.
    pub fn show(&self, t: &Ty) -> String {
        match t {
            Ty::Struct(i) => self
                .structs
                .get(*i)
                .map_or("struct".into(), |d| d.name.clone()),
            Ty::Array(e, n) => format!("{}[{n}]", self.show(e)),
            t => t.to_string(),
        }
    }

    /// Whether `t` names a rasterizer-ordered view (directly or through a typedef).
    pub fn is_rasterizer_ordered(&self, t: &TypeExpr) -> bool {
        rasterizer_ordered_as_rw(&t.name.name).is_some()
            || self.rasterizer_ordered.contains(&t.name.name)
    }

    /// The value of the module-scope constant `n` (`a[k]` for an element of a constant array).
    pub fn constant(&self, n: &str) -> Option<ConstVal> {
        if let Some((array, k)) = n.strip_suffix(']').and_then(|n| n.split_once('[')) {
            let k: usize = k.parse().ok()?;
            return self.const_arrays.get(array)?.get(k).copied();
        }
        self.consts.get(n).copied()
    }
}

/// Resolves written types against a [`TypeEnv`]; constants in array sizes and template
/// arguments are folded with `consts`, which sees the names in scope where the type is
/// written.
pub struct TypeResolver<'a> {
    /// The declared types.
    pub env: &'a TypeEnv,
    /// The compilation options (16-bit types, layout, majorness, language version).
    pub opts: &'a Options,
    /// The value of a constant name in scope (`n`, or `a[k]` for an element of a constant
    /// array).
    pub consts: &'a dyn Fn(&str) -> Option<ConstVal>,
    /// Where problems go.
    pub diags: &'a mut Vec<Diagnostic>,
    /// The majorness `#pragma pack_matrix` gives the declaration being resolved (a structured
    /// buffer's matrix element takes it), if one is in force.
    pub pack: Option<bool>,
}

impl TypeResolver<'_> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Folds a constant expression with the language version's literal rules.
    pub fn const_eval(&self, e: &Expr) -> Option<ConstVal> {
        fold(e, self.opts, self.consts)
    }

    /// Whether a declaration with `mods` of type `ty` is row-major: its modifiers, else its
    /// typedef's, else the `#pragma pack_matrix` in force, else the default (`-Zpr` / `-Zpc`).
    pub(crate) fn row_major(&self, mods: &[ModifierSpan], ty: &TypeExpr) -> bool {
        spelled_majorness(mods)
            .or_else(|| {
                let (_, _, m) = self.env.typedefs.get(&ty.name.name)?;
                *m
            })
            .or_else(|| pack_matrix(mods))
            .unwrap_or(self.opts.row_major)
    }

    /// The integer elements of a `const` one-dimensional array of `ty` initialized by `init`
    /// with constants, to fold `a[k]` (array sizes, other constants); `None` otherwise.
    pub fn const_elements(&self, ty: &Ty, init: &Initializer) -> Option<Vec<ConstVal>> {
        let Ty::Array(e, n) = ty else { return None };
        if !matches!(**e, Ty::Scalar(s) if s.is_int()) {
            return None;
        }
        let items: Vec<&Expr> = match init {
            Initializer::List(items, _) => items
                .iter()
                .map(|i| match i {
                    Initializer::Expr(e) => Some(e),
                    Initializer::List(..) => None,
                })
                .collect::<Option<_>>()?,
            Initializer::Expr(Expr {
                kind: ExprKind::InitList(items),
                ..
            }) => items.iter().collect(),
            Initializer::Expr(_) => return None,
        };
        if items.len() != *n as usize {
            return None;
        }
        items
            .iter()
            .map(|e| self.const_eval(e).filter(|c| matches!(c, ConstVal::Int(_))))
            .collect()
    }

    /// Resolves a written type; the bool says whether it has minimum precision. A struct
    /// holding resources is refused here, where it is used (its declaration is accepted).
    pub fn resolve_type(&mut self, t: &TypeExpr) -> Option<(Ty, bool)> {
        let (ty, relaxed) = self.resolve_type_unchecked(t)?;
        if let Some(i) = resource_struct_in(&ty, &self.env.resource_structs) {
            let name = self.env.structs.get(i).map_or("", |d| d.name.as_str());
            self.error(
                t.span,
                format!(
                    "not supported yet: resources inside structs or buffers (the struct \
                     '{name}' holds a resource)"
                ),
            );
            return None;
        }
        Some((ty, relaxed))
    }

    /// The type of a local variable or an `in` parameter: [`Self::resolve_type`], where a
    /// struct holding resources is accepted as long as each of them is one resource other
    /// than a constant or texture buffer or an append or consume buffer (code generation
    /// holds each in a pointer member, which legalization makes direct).
    pub fn resolve_local_type(&mut self, t: &TypeExpr) -> Option<(Ty, bool)> {
        let (ty, relaxed) = self.resolve_type_unchecked(t)?;
        if let Ty::Struct(i) = &ty {
            if self.env.resource_structs.contains(i) {
                return match self.unsupported_resource_member(*i, 0) {
                    None => Some((ty, relaxed)),
                    Some(why) => {
                        self.error(t.span, format!("not supported yet: {why}"));
                        None
                    }
                };
            }
        }
        self.resolve_type(t)
    }

    /// Why a local of struct `i` cannot hold its resources yet, if it cannot.
    fn unsupported_resource_member(&self, i: usize, depth: u32) -> Option<String> {
        use crate::hlsl::sema::types::{ResourceKind, SbFlavor};
        let def = self.env.structs.get(i)?;
        if depth > 16 {
            return Some("structs of resources nested this deeply".into());
        }
        for f in &def.fields {
            match &f.ty {
                Ty::Struct(j) if self.env.resource_structs.contains(j) => {
                    if let Some(why) = self.unsupported_resource_member(*j, depth + 1) {
                        return Some(why);
                    }
                }
                Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, _) => {
                    return Some(format!(
                        "the member '{}' of struct '{}': constant and texture buffers inside \
                         structs",
                        f.name, def.name
                    ))
                }
                Ty::Resource(
                    ResourceKind::StructuredBuffer {
                        flavor: SbFlavor::Append | SbFlavor::Consume,
                        ..
                    },
                    _,
                ) => {
                    return Some(format!(
                        "the member '{}' of struct '{}': append and consume buffers inside \
                         structs",
                        f.name, def.name
                    ))
                }
                Ty::Resource(..) => {}
                // A fixed-size array of structs that may hold their resources.
                Ty::Array(e, n)
                    if *n > 0
                        && matches!(**e, Ty::Struct(j) if self.env.resource_structs.contains(&j)) =>
                {
                    let Ty::Struct(j) = **e else { continue };
                    if let Some(why) = self.unsupported_resource_member(j, depth + 1) {
                        return Some(why);
                    }
                }
                // A fixed-size array of images or samplers: an array of their handles.
                Ty::Array(e, n)
                    if *n > 0
                        && matches!(
                            **e,
                            Ty::Resource(
                                ResourceKind::Texture { .. }
                                    | ResourceKind::Sampler { .. }
                                    | ResourceKind::TexelBuffer { .. },
                                _
                            )
                        ) => {}
                t if holds_resource(t, &self.env.resource_structs) => {
                    return Some(format!(
                        "the member '{}' of struct '{}': arrays of buffers or of structs \
                         holding resources inside structs",
                        f.name, def.name
                    ))
                }
                _ => {}
            }
        }
        None
    }

    /// [`Self::resolve_type`] without refusing structs that hold resources (for the members
    /// of a struct being declared).
    pub fn resolve_type_unchecked(&mut self, t: &TypeExpr) -> Option<(Ty, bool)> {
        let name = t.name.name.as_str();
        // A rasterizer-ordered view is its `RW` type (code generation orders the accesses).
        let name = rasterizer_ordered_as_rw(name).unwrap_or(name);
        if name == "void" {
            return Some((Ty::Void, false));
        }
        if t.args.is_empty() {
            if let Some(b) = builtin_by_name(name, self.opts.enable_16bit_types) {
                return Some(b);
            }
            if needs_16bit_types(name)
                && !self.env.struct_names.contains_key(name)
                && !self.env.typedefs.contains_key(name)
            {
                let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
                self.error(
                    t.span,
                    format!("{base} is only supported with -enable-16bit-types option"),
                );
                return None;
            }
            if let Some(&i) = self.env.struct_names.get(name) {
                return Some((Ty::Struct(i), false));
            }
            if let Some((ty, relaxed, _)) = self.env.typedefs.get(name) {
                return Some((ty.clone(), *relaxed));
            }
        }
        let int_arg = |st: &mut Self, a: Option<&TemplateArg>, what: &str| -> Option<u32> {
            match a {
                Some(TemplateArg::Expr(e)) => match st.const_eval(e).and_then(ConstVal::as_int) {
                    Some(n) if (1..=4).contains(&n) => Some(n as u32),
                    _ => {
                        st.error(e.span, format!("{what} must be a constant from 1 to 4"));
                        None
                    }
                },
                _ => {
                    st.error(t.span, format!("{what} expected"));
                    None
                }
            }
        };
        let elem_arg = |st: &mut Self, default: Option<Ty>| -> Option<(Ty, bool)> {
            match t.args.first() {
                Some(TemplateArg::Type(te)) => st.resolve_type(te),
                Some(TemplateArg::Expr(e)) => {
                    st.error(e.span, "a type is expected as template argument");
                    None
                }
                None => match default {
                    Some(d) => Some((d, false)),
                    None => {
                        st.error(t.span, format!("'{name}' needs a template argument"));
                        None
                    }
                },
            }
        };
        let res = |kind, elem: Ty| Some((Ty::Resource(kind, Box::new(elem)), false));
        let f4 = Some(Ty::Vector(Scalar::Float, 4));
        match name {
            "vector" => {
                if t.args.is_empty() {
                    return Some((Ty::Vector(Scalar::Float, 4), false));
                }
                let (e, r) = elem_arg(self, None)?;
                let n = int_arg(self, t.args.get(1), "vector size")?;
                let Ty::Scalar(s) = e else {
                    self.error(t.span, "vector component must be a scalar type");
                    return None;
                };
                Some((Ty::vector(s, n), r))
            }
            "matrix" => {
                if t.args.is_empty() {
                    return Some((Ty::Matrix(Scalar::Float, 4, 4), false));
                }
                let (e, r) = elem_arg(self, None)?;
                let rows = int_arg(self, t.args.get(1), "matrix rows")?;
                let cols = int_arg(self, t.args.get(2), "matrix columns")?;
                let Ty::Scalar(s) = e else {
                    self.error(t.span, "matrix component must be a scalar type");
                    return None;
                };
                Some((Ty::matrix(s, rows, cols), r))
            }
            "StructuredBuffer"
            | "RWStructuredBuffer"
            | "AppendStructuredBuffer"
            | "ConsumeStructuredBuffer" => {
                // `StructuredBuffer<row_major float2x3>`: the parser wraps the element.
                let (written, inner) = match t.args.first() {
                    Some(TemplateArg::Type(w)) if is_majorness_wrapper(w) => {
                        (Some(w.name.name == ROW_MAJOR), w.args.first())
                    }
                    _ => (None, t.args.first()),
                };
                let (e, _) = match inner {
                    Some(TemplateArg::Type(te)) => self.resolve_type(te)?,
                    _ => elem_arg(self, None)?,
                };
                if written.is_some() && !holds_matrix(&e) {
                    self.error(t.span, "'row_major' and 'column_major' apply to matrices");
                    return None;
                }
                if e.is_resource() || e == Ty::Void {
                    self.error(
                        t.span,
                        format!("not supported yet: structured buffers of '{e}'"),
                    );
                    return None;
                }
                let flavor = match name {
                    "AppendStructuredBuffer" => SbFlavor::Append,
                    "ConsumeStructuredBuffer" => SbFlavor::Consume,
                    _ => SbFlavor::Plain,
                };
                res(
                    ResourceKind::StructuredBuffer {
                        rw: name.starts_with("RW") || flavor != SbFlavor::Plain,
                        flavor,
                        row_major: written.or(self.pack).unwrap_or(self.opts.row_major),
                    },
                    e,
                )
            }
            "ByteAddressBuffer" | "RWByteAddressBuffer" => res(
                ResourceKind::ByteAddressBuffer {
                    rw: name.starts_with("RW"),
                },
                Ty::Void,
            ),
            "ConstantBuffer" | "TextureBuffer" => {
                let (e, _) = elem_arg(self, None)?;
                if !matches!(e, Ty::Struct(_)) {
                    self.error(t.span, format!("{name}'s argument must be a struct"));
                    return None;
                }
                let kind = if name == "TextureBuffer" {
                    ResourceKind::TextureBuffer
                } else {
                    ResourceKind::ConstantBuffer
                };
                res(kind, e)
            }
            "Buffer" | "RWBuffer" => {
                let (e, _) = elem_arg(self, f4)?;
                if !is_texel(&e) {
                    self.error(
                        t.span,
                        "a texel buffer's element must be a numeric scalar or vector",
                    );
                    return None;
                }
                if e.component()
                    .is_some_and(|c| c.bits() == 16 && self.narrow_texel_refused(c))
                {
                    self.error(t.span, SAMPLED_16BIT);
                    return None;
                }
                if e.component() == Some(Scalar::Double) && self.opts.target_env.is_vulkan() {
                    self.error(t.span, SAMPLED_DOUBLE);
                    return None;
                }
                res(
                    ResourceKind::TexelBuffer {
                        rw: name.starts_with("RW"),
                        format: None,
                    },
                    e,
                )
            }
            _ if texture_type(name).is_some() => {
                let (dim, arrayed, ms, rw, combined) = texture_type(name)?;
                let (e, _) = elem_arg(self, f4)?;
                // A read-only texture of bool stores uints (DXC).
                if !matches!(e, Ty::Scalar(_) | Ty::Vector(..))
                    || (e.component() == Some(Scalar::Bool) && (rw || combined))
                {
                    self.error(
                        t.span,
                        "a texture's element must be a numeric scalar or vector",
                    );
                    return None;
                }
                if e.component()
                    .is_some_and(|c| c.bits() == 16 && self.narrow_texel_refused(c))
                {
                    self.error(t.span, SAMPLED_16BIT);
                    return None;
                }
                if e.component() == Some(Scalar::Double) && self.opts.target_env.is_vulkan() {
                    self.error(t.span, SAMPLED_DOUBLE);
                    return None;
                }
                // A multisampled texture may name its sample count, which SPIR-V does not
                // record.
                let most = if ms { 2 } else { 1 };
                if let Some(a) = t.args.get(most) {
                    let span = match a {
                        TemplateArg::Type(te) => te.span,
                        TemplateArg::Expr(e) => e.span,
                    };
                    self.error(span, format!("too many template arguments for '{name}'"));
                    return None;
                }
                if let (true, Some(a)) = (ms, t.args.get(1)) {
                    let count = match a {
                        TemplateArg::Expr(e) => self.const_eval(e).and_then(ConstVal::as_int),
                        TemplateArg::Type(_) => None,
                    };
                    if count.is_none_or(|n| n < 0) {
                        self.error(t.span, "the sample count must be a constant integer");
                        return None;
                    }
                }
                res(
                    ResourceKind::Texture {
                        dim,
                        arrayed,
                        ms,
                        rw,
                        combined,
                        format: None,
                    },
                    e,
                )
            }
            "SubpassInput" | "SubpassInputMS" => {
                let (e, _) = elem_arg(self, f4)?;
                if !is_texel(&e) {
                    self.error(
                        t.span,
                        "only scalar/vector types allowed as SubpassInput(MS) parameter type",
                    );
                    return None;
                }
                res(
                    ResourceKind::Subpass {
                        ms: name.ends_with("MS"),
                    },
                    e,
                )
            }
            "SamplerState" | "sampler" => res(ResourceKind::Sampler { cmp: false }, Ty::Void),
            "SamplerComparisonState" => res(ResourceKind::Sampler { cmp: true }, Ty::Void),
            "RaytracingAccelerationStructure" => res(ResourceKind::AccelerationStructure, Ty::Void),
            "RayQuery" => {
                // `RayQuery<RAY_FLAG_...>`: a constant (a lone name parses as a type).
                let flag = |st: &mut Self, a: &TemplateArg| -> Option<i64> {
                    match a {
                        TemplateArg::Expr(e) => st.const_eval(e).and_then(ConstVal::as_int),
                        TemplateArg::Type(te) if te.args.is_empty() => {
                            (st.consts)(&te.name.name).and_then(ConstVal::as_int)
                        }
                        TemplateArg::Type(_) => None,
                    }
                };
                let Some(flags) = t.args.first().and_then(|a| flag(self, a)) else {
                    self.error(t.span, "RayQuery takes a constant of ray flags");
                    return None;
                };
                if t.args.len() > 2 {
                    self.error(t.span, "RayQuery takes one or two template arguments");
                    return None;
                }
                if let Some(a) = t.args.get(1) {
                    if flag(self, a) != Some(0) {
                        self.error(
                            t.span,
                            "not supported yet: RayQuery's second template argument (ray \
                             query flags)",
                        );
                        return None;
                    }
                }
                let Ok(flags) = u32::try_from(flags) else {
                    self.error(
                        t.span,
                        "RayQuery's ray flags must be a 32-bit unsigned constant",
                    );
                    return None;
                };
                // SPV_KHR_ray_query needs SPIR-V 1.4.
                if self.opts.target_env.spirv_version() < crate::grammar::Version(1, 4) {
                    self.error(
                        t.span,
                        "RayQuery needs SPIR-V 1.4 or later (-fspv-target-env=vulkan1.1spirv1.4 \
                         or vulkan1.2 and later)",
                    );
                    return None;
                }
                res(ResourceKind::RayQuery { flags }, Ty::Void)
            }
            _ if name.starts_with("Texture")
                || name.starts_with("RW")
                || name.starts_with("Sampler")
                || name == "tbuffer" =>
            {
                self.error(t.span, format!("not supported yet: the type '{name}'"));
                None
            }
            _ if is_unimplemented_builtin(name) => {
                self.error(t.span, format!("not supported yet: the type '{name}'"));
                None
            }
            ROW_MAJOR | COLUMN_MAJOR => {
                self.error(
                    t.span,
                    format!(
                        "not supported yet: '{name}' in a template argument other than a \
                         structured buffer's element"
                    ),
                );
                None
            }
            "string" => {
                self.error(
                    t.span,
                    "not supported yet: 'string' other than for a global variable (a printf \
                     format)",
                );
                None
            }
            _ if self.env.incomplete.contains_key(name) => {
                let target = &self.env.incomplete[name];
                self.error(
                    t.name.span,
                    format!("incomplete type '{name}': struct '{target}' is not defined here"),
                );
                None
            }
            _ => {
                self.error(t.name.span, format!("unknown type name '{name}'"));
                None
            }
        }
    }

    /// `base` with a declarator's array dimensions (an unsized outer dimension takes its size
    /// from the initializer); `at` is where a problem is reported.
    pub fn array_type(
        &mut self,
        base: &Ty,
        dims: &[Option<Expr>],
        init: Option<&Initializer>,
        at: Span,
    ) -> Option<Ty> {
        let mut ty = base.clone();
        for (k, d) in dims.iter().enumerate().rev() {
            let n = match d {
                Some(e) => match self.const_eval(e).and_then(ConstVal::as_int) {
                    Some(n) if n > 0 && n <= MAX_ARRAY => n as u32,
                    Some(n) if n > MAX_ARRAY => {
                        self.error(
                            e.span,
                            format!("not supported yet: arrays of more than {MAX_ARRAY} elements"),
                        );
                        return None;
                    }
                    Some(_) => {
                        self.error(e.span, "array size must be positive");
                        return None;
                    }
                    None => {
                        self.error(e.span, "array size must be an integer constant expression");
                        return None;
                    }
                },
                None if k == 0 => match init {
                    Some(Initializer::List(items, _)) => {
                        let nested = items.iter().all(|i| matches!(i, Initializer::List(..)));
                        let per = if nested {
                            1
                        } else {
                            ty.count().max(1) as usize
                        };
                        (items.len() / per).max(1) as u32
                    }
                    Some(Initializer::Expr(Expr {
                        kind: ExprKind::InitList(items),
                        ..
                    })) => {
                        let per = ty.count().max(1) as usize;
                        (items.len() / per).max(1) as u32
                    }
                    _ => {
                        self.error(
                            at,
                            "not supported yet: unsized arrays without an initializer",
                        );
                        return None;
                    }
                },
                None => {
                    self.error(
                        Span::default(),
                        "only the outermost array dimension may be unsized",
                    );
                    return None;
                }
            };
            ty = Ty::Array(Box::new(ty), n);
        }
        let mut total: i64 = 1;
        let mut t = &ty;
        while let Ty::Array(e, n) = t {
            total = total.saturating_mul(i64::from(*n));
            t = e;
        }
        if total > MAX_ARRAY {
            let span = dims
                .iter()
                .flatten()
                .next()
                .map_or(Span::default(), |e| e.span);
            self.error(
                span,
                format!("not supported yet: arrays of more than {MAX_ARRAY} elements"),
            );
            return None;
        }
        Some(ty)
    }

    /// The fields a buffer declaration declares (bit-fields are an error there).
    pub fn fields_of(&mut self, decls: &[VarDecl]) -> Vec<Field> {
        let (fields, bits) = self.fields_and_bits(decls, false);
        if !bits.is_empty() {
            let span = decls.first().map_or(Span::default(), |d| d.span);
            self.error(span, "bit-fields are only allowed in structs");
        }
        fields
    }

    /// The fields a struct declares, and its bit-fields packed into them; resources among
    /// them only for a struct (`in_struct`), not for a buffer's members.
    pub fn fields_and_bits(
        &mut self,
        decls: &[VarDecl],
        in_struct: bool,
    ) -> (Vec<Field>, Vec<BitField>) {
        let mut fields: Vec<Field> = Vec::new();
        let mut bits: Vec<BitField> = Vec::new();
        // The field the last bit-field went into, and how many of its bits are used.
        let mut open: Option<(usize, u32)> = None;
        for d in decls {
            let resolved = if in_struct {
                self.resolve_type_unchecked(&d.ty)
            } else {
                self.resolve_type(&d.ty)
            };
            let Some((base, relaxed)) = resolved else {
                continue;
            };
            if base.is_ray_query() {
                self.error(d.ty.span, "not supported yet: a RayQuery in a struct");
                continue;
            }
            if base.is_resource() && !in_struct {
                self.error(
                    d.ty.span,
                    "not supported yet: resources inside structs or buffers",
                );
                continue;
            }
            for decl in &d.declarators {
                let Some(ty) = self.array_type(&base, &decl.array_dims, None, decl.name.span)
                else {
                    continue;
                };
                if let Some(Annotation::Register(r)) = decl
                    .annotations
                    .iter()
                    .find(|a| matches!(a, Annotation::Register(_)))
                {
                    self.error(r.span, "not supported yet: register() on a member");
                }
                let packed = decl.annotations.iter().find_map(|a| match a {
                    Annotation::PackOffset(off, sp) => Some((*off, *sp)),
                    _ => None,
                });
                if let (Some((_, sp)), true) = (packed, in_struct) {
                    self.error(
                        sp,
                        "packoffset is only allowed on the members of a cbuffer or tbuffer",
                    );
                }
                if self.opts.layout == crate::hlsl::BufferLayout::Dx && is_vector_matrix(&d.ty) {
                    self.error(d.ty.span, VECTOR_MATRIX_DX);
                }
                if fields.iter().any(|f: &Field| f.name == decl.name.name)
                    || bits.iter().any(|b| b.name == decl.name.name)
                {
                    self.error(
                        decl.name.span,
                        format!("duplicate member '{}'", decl.name.name),
                    );
                    continue;
                }
                let width = decl.annotations.iter().find_map(|a| match a {
                    Annotation::BitField(w, sp) => Some((*w, *sp)),
                    _ => None,
                });
                if let Some((width, sp)) = width {
                    let Ty::Scalar(s) = &ty else {
                        self.error(sp, "a bit-field must have an integer type");
                        continue;
                    };
                    let s = *s;
                    if !s.is_int() {
                        self.error(sp, "a bit-field must have an integer type");
                        continue;
                    }
                    if width == 0 || width > s.bits() {
                        self.error(
                            sp,
                            format!(
                                "a bit-field of '{}' must be 1 to {} bits wide",
                                s.name(),
                                s.bits()
                            ),
                        );
                        continue;
                    }
                    // Packed into the previous bit-field's field while the type matches and
                    // the bits fit; otherwise a new field starts.
                    if let Some((k, used)) = open {
                        if fields[k].ty == ty && used + width <= s.bits() {
                            bits.push(BitField {
                                name: decl.name.name.clone(),
                                field: k as u32,
                                offset: used,
                                width,
                            });
                            open = Some((k, used + width));
                            continue;
                        }
                    }
                    bits.push(BitField {
                        name: decl.name.name.clone(),
                        field: fields.len() as u32,
                        offset: 0,
                        width,
                    });
                    open = Some((fields.len(), width));
                } else {
                    open = None;
                }
                fields.push(Field {
                    name: decl.name.name.clone(),
                    ty,
                    row_major: self.row_major(&d.modifiers, &d.ty),
                    semantic: semantic_of(&decl.annotations),
                    interp: interp_of(&d.modifiers),
                    relaxed,
                    row_depth: row_depth(&d.ty, decl.array_dims.len()),
                    location: attr(&d.attributes, Some("vk"), "location")
                        .and_then(|a| a.args.first())
                        .and_then(|e| self.const_eval(e))
                        .and_then(ConstVal::as_int)
                        .map(|v| v as u32),
                    index: attr(&d.attributes, Some("vk"), "index")
                        .and_then(|a| a.args.first())
                        .and_then(|e| self.const_eval(e))
                        .and_then(ConstVal::as_int)
                        .map(|v| v as u32),
                    builtin: match attr(&d.attributes, Some("vk"), "builtin")
                        .map(|a| (a, builtin_attr(a)))
                    {
                        Some((_, Ok(b))) => Some(b),
                        Some((a, Err(e))) => {
                            self.error(a.span, e);
                            None
                        }
                        None => None,
                    },
                    offset: match attr(&d.attributes, Some("vk"), "offset") {
                        Some(a) => {
                            let off = a
                                .args
                                .first()
                                .and_then(|e| self.const_eval(e))
                                .and_then(ConstVal::as_int)
                                .and_then(|v| u32::try_from(v).ok());
                            if off.is_none() {
                                self.error(a.span, "vk::offset needs a constant byte offset");
                            }
                            off.map(FieldOffset::At)
                        }
                        None => packed
                            .filter(|_| !in_struct)
                            .map(|(off, _)| FieldOffset::Packed(off)),
                    },
                });
            }
        }
        (fields, bits)
    }
}

/// A texture type name's shape: dimension, arrayed, multisampled, `RW`, combined with a
/// sampler (`vk::SampledTexture*`).
fn texture_type(name: &str) -> Option<(TexDim, bool, bool, bool, bool)> {
    if let Some(rest) = name.strip_prefix("vk::SampledTexture") {
        // DXC spells the cube forms `vk::SampledTextureCUBE(Array)`.
        let rest = match rest {
            "CUBE" => "Cube",
            "CUBEArray" => "CubeArray",
            "Cube" | "CubeArray" => return None,
            r => r,
        };
        let (dim, arrayed, ms) = TexDim::parse_shape(rest)?;
        return Some((dim, arrayed, ms, false, true));
    }
    let (rw, rest) = match name.strip_prefix("RWTexture") {
        Some(rest) => (true, rest),
        None => (false, name.strip_prefix("Texture")?),
    };
    let (dim, arrayed, ms) = TexDim::parse_shape(rest)?;
    // Writable multisampled textures (RWTexture2DMS, SM 6.7) are not supported; nor are
    // writable cube textures, which HLSL does not have.
    if rw && (ms || dim == TexDim::Cube) {
        return None;
    }
    Some((dim, arrayed, ms, rw, false))
}
/// How many array indices lead from a declaration of type `t` with `dims` array dimensions to
/// a 1xN matrix (`float1x3 m[2]`: 1), if `t` is spelled as one: such a matrix is collapsed to a
/// vector, and its row index then selects the whole vector.
pub(crate) fn row_depth(t: &crate::hlsl::ast::TypeExpr, dims: usize) -> Option<u8> {
    is_row_matrix(t).then_some(dims as u8)
}

/// The shape a type was written with when it is a matrix with one row or one column
/// (`float3x1`, `matrix<float, 1, 3>`), which the type itself no longer says.
pub(crate) fn written_matrix_shape(t: &crate::hlsl::ast::TypeExpr) -> Option<(u32, u32)> {
    let name = t.name.name.as_str();
    let shape = if name == "matrix" {
        let dim = |a: &crate::hlsl::ast::TemplateArg| match a {
            crate::hlsl::ast::TemplateArg::Expr(e) => match &e.kind {
                crate::hlsl::ast::ExprKind::Literal(crate::hlsl::ast::Literal::Int {
                    value,
                    ..
                }) => u32::try_from(*value).ok(),
                _ => None,
            },
            _ => None,
        };
        (dim(t.args.get(1)?)?, dim(t.args.get(2)?)?)
    } else {
        let (_, dims) = name.split_at(name.find(|c: char| c.is_ascii_digit())?);
        let (r, c) = dims.split_once('x')?;
        (r.parse().ok()?, c.parse().ok()?)
    };
    (shape.0 == 1 || shape.1 == 1).then_some(shape)
}

/// Whether `e` can be an image's texel: a numeric (not bool) scalar or vector.
fn is_texel(e: &Ty) -> bool {
    matches!(e, Ty::Scalar(_) | Ty::Vector(..)) && e.component() != Some(Scalar::Bool)
}

/// Whether a type is spelled as a 1xN matrix (`float1x3`, `matrix<float, 1, 3>`).
fn is_row_matrix(t: &crate::hlsl::ast::TypeExpr) -> bool {
    let n = &t.name.name;
    if n == "matrix" {
        return matches!(
            t.args.get(1),
            Some(crate::hlsl::ast::TemplateArg::Expr(
                crate::hlsl::ast::Expr {
                    kind: crate::hlsl::ast::ExprKind::Literal(crate::hlsl::ast::Literal::Int {
                        value: 1,
                        ..
                    }),
                    ..
                }
            ))
        );
    }
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
    n[base.len()..].starts_with("1x")
        && crate::hlsl::sema::types::scalar_by_name(base, true).is_some()
}

/// Whether a type is spelled as a matrix with one row or one column and more than one
/// component (`float1x3`, `float3x1`, `matrix<float, 2, 1>`), which DXC collapses to a vector.
pub(crate) fn is_vector_matrix(t: &crate::hlsl::ast::TypeExpr) -> bool {
    use crate::hlsl::ast::{Expr, ExprKind, Literal, TemplateArg};
    let n = &t.name.name;
    let dims = if n == "matrix" {
        let dim = |i: usize| match t.args.get(i) {
            Some(TemplateArg::Expr(Expr {
                kind: ExprKind::Literal(Literal::Int { value, .. }),
                ..
            })) => Some(*value),
            _ => None,
        };
        dim(1).zip(dim(2))
    } else {
        let base = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
        let rest = &n[base.len()..];
        match rest.split_once('x') {
            Some((r, c)) if crate::hlsl::sema::types::scalar_by_name(base, true).is_some() => {
                r.parse::<u64>().ok().zip(c.parse::<u64>().ok())
            }
            _ => None,
        }
    };
    matches!(dims, Some((r, c)) if (r == 1) != (c == 1))
}
