//! Module-level declarations: type names (builtins, `vector<T,N>`, structs, typedefs, resource
//! templates), global variables by kind (resources with their bindings, cbuffers,
//! `ConstantBuffer<T>`, `$Globals`, `static`, `groupshared`, specialization constants, push
//! constants), the reachable functions in callee-first order (recursion rejected), and the
//! driver that emits the whole module.

use super::bindings::{Assignment, Request};
use super::func::FnCx;
use super::types::{ir_ty, matrix_decorations};
use super::{FuncSym, ParamDir, Place, Resource, State, Sym};
use crate::grammar::{Decoration, FunctionControl, LiteralNumber, StorageClass};
use crate::hlsl::ast::{
    Annotation, Attribute, Block, Expr, ExprKind, FunctionDecl, Initializer, Item, Modifier,
    ModifierSpan, Stmt, StmtKind, TemplateArg, TypeExpr, VarDecl,
};
use crate::hlsl::sema::consteval::{self, ConstVal};
use crate::hlsl::sema::layout::{struct_offsets, LayoutRule};
use crate::hlsl::sema::types::{
    builtin_by_name, is_unimplemented_builtin, needs_16bit_types, BitField, Field, Interp,
    ResourceKind, SbFlavor, Scalar, StructDef, TexDim, Ty,
};
use crate::hlsl::source::Span;
use crate::ir::{
    Builder, GlobalVariable, Handle, Member, SpecConstant, SpecValue, StructType, Type, Value,
};
use std::collections::HashMap;

/// DXC's error for a texture or texel buffer of 16-bit components: Vulkan's sampled types
/// are 32-bit (or 64-bit) scalars.
const SAMPLED_16BIT: &str = "The sampled type for textures cannot be a floating point type \
     smaller than 32-bits when targeting a Vulkan environment.";

/// The largest array length accepted (layouts and initializers walk every element).
const MAX_ARRAY: i64 = 1 << 16;

fn has(mods: &[ModifierSpan], m: Modifier) -> bool {
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

impl State<'_> {
    /// Whether a declaration with `mods` of type `ty` is row-major: its modifiers, else its
    /// typedef's, else the default (`-Zpr` / `-Zpc`).
    pub(crate) fn row_major(&self, mods: &[ModifierSpan], ty: &TypeExpr) -> bool {
        spelled_majorness(mods)
            .or_else(|| {
                let (_, _, m) = self.typedefs.get(&ty.name.name)?;
                *m
            })
            .unwrap_or(self.opts.row_major)
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

fn attr<'a>(attrs: &'a [Attribute], ns: Option<&str>, name: &str) -> Option<&'a Attribute> {
    attrs
        .iter()
        .find(|a| a.name.name == name && a.namespace.as_ref().map(|n| n.name.as_str()) == ns)
}

impl State<'_> {
    /// Folds a constant expression.
    pub fn const_eval(&self, e: &Expr) -> Option<ConstVal> {
        // The innermost declaration of the name decides: a constant, a `const` local with a
        // constant value, or a variable (not a constant even if a global constant has its name).
        let lookup = |n: &str| {
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
                None => self.consts.get(n).copied(),
            }
        };
        if self.opts.version >= crate::hlsl::LanguageVersion::V202x {
            return consteval::eval_conforming(e, &lookup);
        }
        consteval::eval(e, &lookup)
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

    /// Resolves a written type; the bool says whether it has minimum precision.
    pub fn resolve_type(&mut self, t: &TypeExpr) -> Option<(Ty, bool)> {
        let name = t.name.name.as_str();
        if name == "void" {
            return Some((Ty::Void, false));
        }
        if t.args.is_empty() {
            if let Some(b) = builtin_by_name(name, self.opts.enable_16bit_types) {
                return Some(b);
            }
            if needs_16bit_types(name)
                && !self.struct_names.contains_key(name)
                && !self.typedefs.contains_key(name)
            {
                let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
                self.error(
                    t.span,
                    format!("{base} is only supported with -enable-16bit-types option"),
                );
                return None;
            }
            if let Some(&i) = self.struct_names.get(name) {
                return Some((Ty::Struct(i), false));
            }
            if let Some((ty, relaxed, _)) = self.typedefs.get(name) {
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
                let (e, _) = elem_arg(self, None)?;
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
                if !matches!(e, Ty::Scalar(_) | Ty::Vector(..))
                    || e.component() == Some(Scalar::Bool)
                {
                    self.error(
                        t.span,
                        "a texel buffer's element must be a numeric scalar or vector",
                    );
                    return None;
                }
                if e.component().is_some_and(|c| c.bits() == 16) {
                    self.error(t.span, SAMPLED_16BIT);
                    return None;
                }
                res(
                    ResourceKind::TexelBuffer {
                        rw: name.starts_with("RW"),
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
                if e.component().is_some_and(|c| c.bits() == 16) {
                    self.error(t.span, SAMPLED_16BIT);
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
                    },
                    e,
                )
            }
            "SamplerState" | "sampler" => res(ResourceKind::Sampler { cmp: false }, Ty::Void),
            "SamplerComparisonState" => res(ResourceKind::Sampler { cmp: true }, Ty::Void),
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
            "string" => {
                self.error(
                    t.span,
                    "not supported yet: 'string' other than for a global variable (a printf \
                     format)",
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
    fn fields_of(&mut self, decls: &[VarDecl]) -> Vec<Field> {
        let (fields, bits) = self.fields_and_bits(decls);
        if !bits.is_empty() {
            let span = decls.first().map_or(Span::default(), |d| d.span);
            self.error(span, "bit-fields are only allowed in structs");
        }
        fields
    }

    /// The fields a struct declares, and its bit-fields packed into them.
    fn fields_and_bits(&mut self, decls: &[VarDecl]) -> (Vec<Field>, Vec<BitField>) {
        let mut fields: Vec<Field> = Vec::new();
        let mut bits: Vec<BitField> = Vec::new();
        // The field the last bit-field went into, and how many of its bits are used.
        let mut open: Option<(usize, u32)> = None;
        for d in decls {
            let Some((base, relaxed)) = self.resolve_type(&d.ty) else {
                continue;
            };
            if base.is_resource() {
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
                if decl
                    .annotations
                    .iter()
                    .any(|a| matches!(a, Annotation::PackOffset(_)))
                {
                    if let Some(Annotation::PackOffset(sp)) = decl
                        .annotations
                        .iter()
                        .find(|a| matches!(a, Annotation::PackOffset(_)))
                    {
                        self.error(*sp, "not supported yet: packoffset");
                    }
                }
                if self.opts.layout == crate::hlsl::BufferLayout::Dx
                    && super::control::is_vector_matrix(&d.ty)
                {
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
                    row_depth: super::control::row_depth(&d.ty, decl.array_dims.len()),
                    location: attr(&d.attributes, Some("vk"), "location")
                        .and_then(|a| a.args.first())
                        .and_then(|e| self.const_eval(e))
                        .and_then(ConstVal::as_int)
                        .map(|v| v as u32),
                });
            }
        }
        (fields, bits)
    }
}

/// The refusal of a 1xN or Nx1 matrix under `-fvk-use-dx-layout`: fxc gives each of its
/// one-component vectors a 16-byte register (DXC turns it into an array of scalars).
const VECTOR_MATRIX_DX: &str =
    "not supported yet: a 1xN or Nx1 matrix in a structure or constant with -fvk-use-dx-layout";

/// A block struct (`Block` or `BufferBlock`) with the fields of `def` laid out by `layout`.
fn block_struct(
    b: &mut Builder,
    st: &mut State,
    def: &StructDef,
    layout: LayoutRule,
    deco: Decoration,
    non_writable: bool,
) -> Handle<Type> {
    let offsets = struct_offsets(def, layout, &st.structs);
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
    assignment: Assignment,
    what: PendingKind,
    /// `globallycoherent`: the variable is decorated `Coherent`.
    coherent: bool,
    /// `-fspv-reflect`: the `UserTypeGOOGLE` string of the resource, if it has one.
    user_type: Option<String>,
    /// A counter buffer goes with it: `Some(Some(b))` at `[[vk::counter_binding(b)]]`.
    counter: Option<Option<u32>>,
    /// An array of this many resources (one binding for all, as DXC).
    array: Option<u32>,
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

impl PendingKind {
    /// The register class DXC infers for the resource (`-fvk-auto-shift-bindings`).
    fn register_class(&self) -> char {
        match self {
            PendingKind::Block { texture: true, .. }
            | PendingKind::Resource(ResourceKind::TextureBuffer, _) => 't',
            PendingKind::Block { .. } => 'b',
            PendingKind::Resource(ResourceKind::Sampler { .. }, _) => 's',
            PendingKind::Resource(ResourceKind::ConstantBuffer, _) => 'b',
            PendingKind::Resource(
                ResourceKind::StructuredBuffer { rw, .. }
                | ResourceKind::ByteAddressBuffer { rw }
                | ResourceKind::TexelBuffer { rw }
                | ResourceKind::Texture { rw, .. },
                _,
            ) => {
                if *rw {
                    'u'
                } else {
                    't'
                }
            }
        }
    }
}

/// What `[[vk::binding]]` or `register()` say about a resource's binding.
fn explicit_binding(st: &mut State, attrs: &[Attribute], annotations: &[Annotation]) -> Assignment {
    if let Some(a) = attr(attrs, Some("vk"), "binding") {
        let b = a
            .args
            .first()
            .and_then(|e| st.const_eval(e))
            .and_then(ConstVal::as_int);
        let s = match a.args.get(1) {
            Some(e) => st.const_eval(e).and_then(ConstVal::as_int),
            None => Some(-1),
        };
        match (b, s) {
            (Some(b), Some(s)) if (0..=i64::from(u32::MAX)).contains(&b) && s >= -1 => {
                return Assignment::VkBinding {
                    binding: b as u32,
                    set: u32::try_from(s).ok(),
                }
            }
            _ => st.error(a.span, "vk::binding needs constant binding and set numbers"),
        }
    }
    annotations
        .iter()
        .find_map(|a| match a {
            Annotation::Register(r) => Some(Assignment::Register {
                class: r.class,
                index: r.index,
                space: r.space,
            }),
            _ => None,
        })
        .unwrap_or(Assignment::Implicit)
}

/// Emits the module; false when an error stopped it.
pub(crate) fn emit_module(st: &mut State, b: &mut Builder) -> bool {
    let unit = st.unit;
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
    st.counter_users = calls
        .into_iter()
        .filter_map(|(c, _)| c.strip_prefix(COUNTER_USE).map(str::to_owned))
        .collect();
    let mut pending: Vec<Pending> = Vec::new();
    let mut globals_def = StructDef {
        name: "type.$Globals".into(),
        fields: Vec::new(),
        bitfields: Vec::new(),
        origin: None,
    };
    let mut function_items = Vec::new();
    for (idx, item) in unit.items.iter().enumerate() {
        match item {
            Item::Struct(s) => {
                let (mut fields, mut bitfields) = st.fields_and_bits(&s.fields);
                if let Some(base) = &s.base {
                    match st.resolve_type(base) {
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
                                },
                            )
                        }
                        Some(_) => st.error(base.span, "a base must be a struct"),
                        None => {}
                    }
                }
                let name = s
                    .name
                    .as_ref()
                    .map_or("anon".to_owned(), |n| n.name.clone());
                let i = st.structs.len();
                st.structs.push(StructDef {
                    name: name.clone(),
                    fields,
                    bitfields,
                    origin: None,
                });
                if let Some(n) = &s.name {
                    if st.struct_names.insert(name, i).is_some() {
                        st.error(n.span, format!("redefinition of struct '{}'", n.name));
                    }
                }
            }
            Item::Typedef(t) => {
                if st.opts.layout == crate::hlsl::BufferLayout::Dx
                    && super::control::is_vector_matrix(&t.ty)
                {
                    st.error(t.ty.span, VECTOR_MATRIX_DX);
                }
                if let Some((ty, relaxed)) = st.resolve_type(&t.ty) {
                    if let Some(ty) = st.array_type(&ty, &t.array_dims, None, t.ty.span) {
                        let rm = spelled_majorness(&t.modifiers)
                            .or_else(|| st.typedefs.get(&t.ty.name.name).and_then(|(_, _, m)| *m));
                        st.typedefs.insert(t.name.name.clone(), (ty, relaxed, rm));
                    }
                }
            }
            Item::Function(f) => function_items.push((idx, f)),
            Item::Variables(v) => global_vars(st, b, v, &mut pending, &mut globals_def),
            Item::Buffer(buf) => {
                let texture = buf.kind == crate::hlsl::ast::BufferKind::TBuffer;
                let fields = st.fields_of(&buf.members);
                let push_constant = attr(&buf.attributes, Some("vk"), "push_constant").is_some();
                if push_constant {
                    if let Some(first) = st.push_constant_block {
                        st.diags.push(
                            crate::hlsl::diag::Diagnostic::error(
                                buf.name.span,
                                "cannot have more than one push constant block",
                            )
                            .with_note(first, "push constant block previously defined here"),
                        );
                        continue;
                    }
                    st.push_constant_block = Some(buf.name.span);
                }
                let explicit = explicit_binding(st, &buf.attributes, &buf.annotations);
                pending.push(Pending {
                    name: buf.name.name.clone(),
                    span: buf.span,
                    assignment: explicit,
                    what: PendingKind::Block {
                        def: StructDef {
                            name: format!("type.{}", buf.name.name),
                            fields,
                            bitfields: Vec::new(),
                            origin: None,
                        },
                        as_var: false,
                        push_constant,
                        texture,
                    },
                    coherent: false,
                    user_type: Some(if texture { "tbuffer" } else { "cbuffer" }.into()),
                    counter: None,
                    array: None,
                });
            }
            Item::Empty(_)
            | Item::Namespace { .. }
            | Item::Using { .. }
            | Item::Template { .. } => {}
        }
    }
    if !globals_def.fields.is_empty() {
        pending.push(Pending {
            name: "$Globals".into(),
            span: Span::default(),
            assignment: Assignment::Implicit,
            what: PendingKind::Block {
                def: globals_def,
                as_var: false,
                push_constant: false,
                texture: false,
            },
            coherent: false,
            user_type: None,
            counter: None,
            array: None,
        });
    }
    // Functions: register every definition (overloads by name).
    for (idx, f) in &function_items {
        register_function(st, *idx, f);
    }
    bind_globals(st, b, pending);

    let entry_name = st.opts.entry.clone();
    let Some(entry) = st
        .functions
        .get(&entry_name)
        .and_then(|v| v.first())
        .cloned()
    else {
        // About the file, not a place in it: no line or caret.
        st.error(
            Span::whole_file(Default::default()),
            format!("missing entry point definition '{entry_name}'"),
        );
        return false;
    };
    // Reachable functions, callees first; recursion is an error.
    let mut order = Vec::new();
    let mut state: HashMap<String, bool> = HashMap::new();
    // What static initializers call runs first, in the entry point's wrapper.
    let mut init_calls = Vec::new();
    for (_, idx, k) in &st.static_inits {
        if let Some(Item::Variables(v)) = st.unit.items.get(*idx) {
            if let Some(init) = v.declarators.get(*k).and_then(|d| d.init.as_ref()) {
                collect_calls_init(init, &mut init_calls);
            }
        }
    }
    visit_callees(st, init_calls, &mut state, &mut order);
    visit_calls(st, &entry_name, &mut state, &mut order);
    if st
        .diags
        .iter()
        .any(|d| d.severity == crate::hlsl::diag::Severity::Error)
    {
        return false;
    }
    for name in &order {
        let n = st.functions.get(name).map_or(0, Vec::len);
        for k in 0..n {
            emit_function(st, b, name, k, name == &entry_name);
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

fn register_function(st: &mut State, idx: usize, f: &FunctionDecl) {
    let inline_attr = attr(&f.attributes, Some("vk"), "ext_instruction");
    let inline_op = match (inline_attr, &f.body) {
        (Some(a), None) => {
            let op = match a.args.as_slice() {
                [e] => st.const_eval(e).and_then(|v| v.as_int()),
                [_, _, ..] => {
                    st.error(
                        a.span,
                        "not supported yet: [[vk::ext_instruction]] of an extended instruction set",
                    );
                    return;
                }
                _ => None,
            };
            match op
                .and_then(|o| u32::try_from(o).ok())
                .filter(|o| *o <= 0xffff)
            {
                Some(o) => Some((o, a.span)),
                None => {
                    st.error(
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
    let (ret, relaxed_ret) = st.resolve_type(&f.return_ty).unwrap_or((Ty::Void, false));
    let mut params = Vec::new();
    let mut relaxed_params = Vec::new();
    let row_params: Vec<Option<u8>> = f
        .params
        .iter()
        .map(|p| super::control::row_depth(&p.ty, p.array_dims.len()))
        .collect();
    for p in &f.params {
        let Some((ty, relaxed)) = st.resolve_type(&p.ty) else {
            params.push((Ty::Void, ParamDir::In));
            relaxed_params.push(false);
            continue;
        };
        relaxed_params.push(relaxed);
        let ty = st
            .array_type(&ty, &p.array_dims, None, p.ty.span)
            .unwrap_or(Ty::Void);
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
    let list = st.functions.entry(f.name.name.clone()).or_default();
    if list.iter().any(|o| {
        o.params
            .iter()
            .map(|p| &p.0)
            .eq(params.iter().map(|p| &p.0))
    }) {
        let name = f.name.name.clone();
        st.error(f.name.span, format!("redefinition of '{name}'"));
        return;
    }
    let required = f.params.iter().take_while(|p| p.default.is_none()).count();
    list.push(FuncSym {
        item: idx,
        handle: None,
        params,
        ret,
        required,
        relaxed_params,
        relaxed_ret,
        row_params,
        inline_op,
    });
}

/// `string s = "...";`: a name for a string literal, usable as `printf`'s format (DXC
/// emits nothing else for it).
fn string_vars(st: &mut State, b: &mut Builder, v: &VarDecl) {
    for d in &v.declarators {
        if !d.array_dims.is_empty() {
            st.error(d.name.span, "not supported yet: arrays of strings");
            continue;
        }
        match &d.init {
            Some(Initializer::Expr(Expr {
                kind: ExprKind::Literal(crate::hlsl::ast::Literal::String(text)),
                ..
            })) => {
                st.string_id(b, text);
                st.strings.insert(d.name.name.clone(), text.clone());
            }
            _ => st.error(
                d.name.span,
                format!(
                    "the string '{}' needs a string literal as its initializer",
                    d.name.name
                ),
            ),
        }
    }
}

fn global_vars(
    st: &mut State,
    b: &mut Builder,
    v: &VarDecl,
    pending: &mut Vec<Pending>,
    globals: &mut StructDef,
) {
    if v.ty.name.name == "string" && v.ty.args.is_empty() && !st.struct_names.contains_key("string")
    {
        string_vars(st, b, v);
        return;
    }
    let Some((base, relaxed)) = st.resolve_type(&v.ty) else {
        return;
    };
    let is_static = has(&v.modifiers, Modifier::Static);
    let is_const = has(&v.modifiers, Modifier::Const);
    let groupshared = has(&v.modifiers, Modifier::GroupShared);
    let spec_id = attr(&v.attributes, Some("vk"), "constant_id");
    let push_constant = attr(&v.attributes, Some("vk"), "push_constant").is_some();
    for d in &v.declarators {
        let name = d.name.name.clone();
        let Some(ty) = st.array_type(&base, &d.array_dims, d.init.as_ref(), d.name.span) else {
            continue;
        };
        if ty.is_resource() && d.init.is_some() {
            // `static Texture2D T = ResourceDescriptorHeap[3];`, `... = OtherTexture;`: the
            // variable is that resource, not one of its own.
            st.error(
                d.span,
                "not supported yet: a global resource variable with an initializer",
            );
            continue;
        }
        if let Ty::Resource(kind, elem) = &ty {
            let explicit = explicit_binding(st, &v.attributes, &d.annotations);
            let what = if matches!(
                kind,
                ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer
            ) {
                let texture = *kind == ResourceKind::TextureBuffer;
                let Ty::Struct(i) = **elem else { continue };
                let Some(sd) = st.structs.get(i) else {
                    continue;
                };
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
                PendingKind::Block {
                    def,
                    as_var: true,
                    push_constant,
                    texture,
                }
            } else {
                PendingKind::Resource(*kind, (**elem).clone())
            };
            let counter_binding = attr(&v.attributes, Some("vk"), "counter_binding");
            let counted = match kind {
                ResourceKind::StructuredBuffer { flavor, rw } => {
                    *flavor != SbFlavor::Plain || (*rw && st.counter_users.contains(&name))
                }
                _ => false,
            };
            let counter = match (counted, counter_binding) {
                (true, Some(a)) => {
                    let b = a
                        .args
                        .first()
                        .and_then(|e| st.const_eval(e))
                        .and_then(ConstVal::as_int);
                    match b.and_then(|b| u32::try_from(b).ok()) {
                        Some(b) => Some(Some(b)),
                        None => {
                            st.error(a.span, "[[vk::counter_binding]] needs a binding number");
                            Some(None)
                        }
                    }
                }
                (true, None) => Some(None),
                (false, Some(a)) => {
                    st.error(
                        a.span,
                        "[[vk::counter_binding]] on a resource without a counter (only \
                         Append/ConsumeStructuredBuffer and RWStructuredBuffer have one)",
                    );
                    None
                }
                (false, None) => None,
            };
            pending.push(Pending {
                name,
                span: d.name.span,
                assignment: explicit,
                what,
                coherent: has(&v.modifiers, Modifier::GloballyCoherent),
                user_type: user_type(&v.ty),
                counter,
                array: None,
            });
            continue;
        }
        if let Ty::Array(inner, n) = &ty {
            if let Ty::Resource(kind, elem) = &**inner {
                let counted = matches!(
                    kind,
                    ResourceKind::StructuredBuffer { flavor, .. } if *flavor != SbFlavor::Plain
                ) || st.counter_users.contains(&name);
                let why = if matches!(
                    kind,
                    ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer
                ) {
                    Some("arrays of ConstantBuffer or TextureBuffer")
                } else if counted {
                    Some("arrays of buffers with counters")
                } else if st.opts.bindings.flatten_arrays {
                    Some("-fspv-flatten-resource-arrays with arrays of resources")
                } else {
                    None
                };
                if let Some(why) = why {
                    st.error(d.span, format!("not supported yet: {why}"));
                    continue;
                }
                pending.push(Pending {
                    name,
                    span: d.name.span,
                    assignment: explicit_binding(st, &v.attributes, &d.annotations),
                    what: PendingKind::Resource(*kind, (**elem).clone()),
                    coherent: has(&v.modifiers, Modifier::GloballyCoherent),
                    user_type: user_type(&v.ty),
                    counter: None,
                    array: Some(*n),
                });
                continue;
            }
        }
        if ty.is_resource() {
            st.error(d.span, "not supported yet: arrays of arrays of resources");
            continue;
        }
        if push_constant {
            let Ty::Struct(i) = ty else {
                st.error(d.span, "a push constant block must be a struct");
                continue;
            };
            if let Some(a) = attr(&v.attributes, Some("vk"), "binding") {
                st.error(
                    a.span,
                    "vk::push_constant attribute cannot be used together with vk::binding \
                     attribute",
                );
                continue;
            }
            if let Some(first) = st.push_constant_block {
                st.diags.push(
                    crate::hlsl::diag::Diagnostic::error(
                        d.span,
                        "cannot have more than one push constant block",
                    )
                    .with_note(first, "push constant block previously defined here"),
                );
                continue;
            }
            st.push_constant_block = Some(d.span);
            let Some(sd) = st.structs.get(i) else {
                continue;
            };
            let def = StructDef {
                name: format!("type.PushConstant.{}", sd.name),
                fields: sd.fields.clone(),
                bitfields: sd.bitfields.clone(),
                origin: Some(sd.name.clone()),
            };
            pending.push(Pending {
                name,
                span: d.span,
                assignment: Assignment::Implicit,
                what: PendingKind::Block {
                    def,
                    as_var: true,
                    push_constant: true,
                    texture: false,
                },
                coherent: false,
                user_type: None,
                counter: None,
                array: None,
            });
            continue;
        }
        if let Some(a) = spec_id {
            let id = a
                .args
                .first()
                .and_then(|e| st.const_eval(e))
                .and_then(ConstVal::as_int);
            let Ty::Scalar(s) = ty else {
                st.error(d.span, "a specialization constant must be a scalar");
                continue;
            };
            // DXC's specialization constant types: bool and the 32-bit scalars.
            if !matches!(s, Scalar::Bool | Scalar::Int | Scalar::UInt | Scalar::Float) {
                st.error(v.span, "unsupported specialization constant type");
                continue;
            }
            if is_static {
                st.error(
                    d.name.span,
                    "specialization constant must be externally visible",
                );
                continue;
            }
            let init = match &d.init {
                Some(Initializer::Expr(e)) => st.const_eval(e),
                _ => None,
            };
            let (Some(id), Some(init)) = (id, init) else {
                st.error(
                    d.span,
                    "a specialization constant needs a constant id and a constant initializer",
                );
                continue;
            };
            let t = super::types::scalar_ty(b, s);
            let value = match s {
                Scalar::Bool => SpecValue::Bool(init.as_bool()),
                Scalar::Float => {
                    SpecValue::Scalar(LiteralNumber::Word((init.as_float() as f32).to_bits()))
                }
                _ => SpecValue::Scalar(LiteralNumber::Word(init.as_int().unwrap_or(0) as u32)),
            };
            let mut sc = SpecConstant::new(t, value);
            sc.spec_id = Some(id as u32);
            sc.name = Some(name.clone());
            let h = b.spec_constant(sc);
            declare_global(st, &name, d.name.span, Sym::Spec(h, ty));
            continue;
        }
        if groupshared {
            let t = ir_ty(b, st, &ty, LayoutRule::None, false);
            let p = b.type_pointer(StorageClass::Workgroup, t);
            let g = b.global(GlobalVariable {
                name: Some(name.clone()),
                decorations: relaxed_decoration(relaxed),
                ..GlobalVariable::new(p, StorageClass::Workgroup)
            });
            if relaxed {
                st.relaxed_globals.insert(g);
            }
            if let Some(depth) = super::control::row_depth(&v.ty, d.array_dims.len()) {
                st.row_globals.insert(g, depth);
            }
            let place = Place {
                ptr: Value::Global(g),
                ty,
                sc: StorageClass::Workgroup,
                layout: LayoutRule::None,
                row_major: false,
                konst: false,
            };
            declare_global(st, &name, d.name.span, Sym::Var(place));
            continue;
        }
        if is_static {
            if let (true, Ty::Scalar(_), Some(Initializer::Expr(e))) = (is_const, &ty, &d.init) {
                if let Some(c) = st.const_eval(e) {
                    st.consts.insert(name.clone(), c);
                    declare_global(st, &name, d.name.span, Sym::Const(c, ty));
                    continue;
                }
            }
            let t = ir_ty(b, st, &ty, LayoutRule::None, false);
            let p = b.type_pointer(StorageClass::Private, t);
            let g = b.global(GlobalVariable {
                name: Some(name.clone()),
                decorations: relaxed_decoration(relaxed),
                ..GlobalVariable::new(p, StorageClass::Private)
            });
            if relaxed {
                st.relaxed_globals.insert(g);
            }
            if let Some(depth) = super::control::row_depth(&v.ty, d.array_dims.len()) {
                st.row_globals.insert(g, depth);
            }
            let place = Place {
                ptr: Value::Global(g),
                ty,
                sc: StorageClass::Private,
                layout: LayoutRule::None,
                row_major: false,
                konst: false,
            };
            if let (true, Some(init)) = (is_const, &d.init) {
                if let Some(elems) = st.const_elements(&place.ty, init) {
                    st.const_arrays.insert(place.ptr, elems);
                }
            }
            if let Some(init) = &d.init {
                let idx = st
                    .unit
                    .items
                    .iter()
                    .position(|it| matches!(it, Item::Variables(x) if std::ptr::eq(x, v)))
                    .unwrap_or(0);
                let k = v
                    .declarators
                    .iter()
                    .position(|x| std::ptr::eq(x, d))
                    .unwrap_or(0);
                let _ = init;
                st.static_inits.push((place.clone(), idx, k));
            }
            declare_global(
                st,
                &name,
                d.name.span,
                Sym::Var(Place {
                    konst: is_const,
                    ..place
                }),
            );
            continue;
        }
        // A loose uniform: a member of `$Globals`.
        if let Some(r) = d.annotations.iter().find_map(|a| match a {
            Annotation::Register(r) if r.class == 'c' => Some(r),
            _ => None,
        }) {
            // It would place the member at 16 × N bytes.
            st.error(
                r.span,
                "not supported yet: register(cN) on a global constant",
            );
        }
        if st.opts.layout == crate::hlsl::BufferLayout::Dx
            && super::control::is_vector_matrix(&v.ty)
        {
            st.error(v.ty.span, VECTOR_MATRIX_DX);
        }
        if d.init.is_some() {
            st.warn(d.span, "the initializer of a uniform global is ignored");
        }
        if let Some(a) = attr(&v.attributes, Some("vk"), "binding") {
            st.error(
                a.span,
                format!(
                    "variable '{name}' will be placed in $Globals so cannot have vk::binding \
                     attribute"
                ),
            );
        }
        globals.fields.push(Field {
            name: name.clone(),
            ty,
            row_major: st.row_major(&v.modifiers, &v.ty),
            semantic: None,
            interp: Interp::default(),
            relaxed,
            row_depth: super::control::row_depth(&v.ty, d.array_dims.len()),
            location: None,
        });
    }
}

/// `-fspv-reflect`: the `UserTypeGOOGLE` string DXC gives a resource of type `t`: the type's
/// name in lower case, then its template arguments as written (`texture2dmsarray:<float4,64>`).
/// `None` for a type named through a typedef (no string rather than a wrong one) and for
/// samplers.
fn user_type(t: &crate::hlsl::ast::TypeExpr) -> Option<String> {
    use crate::hlsl::ast::TemplateArg;
    fn spell(t: &crate::hlsl::ast::TypeExpr) -> Option<String> {
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

/// Whether `ty` holds a column-major matrix of non-floats: DXC cannot lay those out in a
/// buffer (it refuses them, and so does spvkit rather than guess).
fn column_major_int_matrix(st: &State, ty: &Ty, row_major: bool) -> bool {
    match ty {
        Ty::Matrix(s, ..) => !s.is_float() && !row_major,
        Ty::Array(e, _) => column_major_int_matrix(st, e, row_major),
        Ty::Struct(i) => st.structs.get(*i).is_some_and(|d| {
            d.fields
                .iter()
                .any(|f| column_major_int_matrix(st, &f.ty, f.row_major))
        }),
        _ => false,
    }
}

fn bind_globals(st: &mut State, b: &mut Builder, pending: Vec<Pending>) {
    for p in &pending {
        let bad = match &p.what {
            PendingKind::Resource(ResourceKind::StructuredBuffer { .. }, elem) => {
                column_major_int_matrix(st, elem, st.opts.row_major)
            }
            PendingKind::Block { def, .. } => def
                .fields
                .iter()
                .any(|f| column_major_int_matrix(st, &f.ty, f.row_major)),
            _ => false,
        };
        if bad {
            st.error(
                p.span,
                "externally initialized non-floating-point column-major matrices not supported \
                 yet",
            );
        }
    }
    let is_push = |p: &Pending| {
        matches!(
            p.what,
            PendingKind::Block {
                push_constant: true,
                ..
            }
        )
    };
    // Push constants have no binding; a counter comes right after its buffer: at
    // `[[vk::counter_binding]]` in the buffer's set, after the buffer when that is implicit,
    // else in the lowest hole of the buffer's set.
    let default_set = st.opts.bindings.default_space;
    let mut requests: Vec<Request> = Vec::new();
    for p in pending.iter().filter(|p| !is_push(p)) {
        requests.push(Request {
            assignment: p.assignment,
            class: p.what.register_class(),
            globals: p.name == "$Globals" && p.span == Span::default(),
            span: p.span,
        });
        if let Some(explicit) = p.counter {
            let set = match p.assignment {
                Assignment::VkBinding { set, .. } => set.unwrap_or(default_set),
                Assignment::Register { space, .. } => space.unwrap_or(default_set),
                Assignment::Implicit | Assignment::Hole { .. } => default_set,
            };
            let assignment = match (explicit, p.assignment) {
                (Some(binding), _) => Assignment::VkBinding {
                    binding,
                    set: Some(set),
                },
                (None, Assignment::Implicit) => Assignment::Implicit,
                (None, _) => Assignment::Hole { set },
            };
            requests.push(Request {
                assignment,
                class: 'u',
                globals: false,
                span: p.span,
            });
        }
    }
    let mut assigned =
        super::bindings::assign(&st.opts.bindings, &requests, &mut st.diags).into_iter();
    for p in pending {
        let binding = if is_push(&p) {
            None
        } else {
            assigned.next().flatten()
        };
        let decos = |binding: Option<(u32, u32)>| match binding {
            Some((bd, set)) => vec![Decoration::DescriptorSet(set), Decoration::Binding(bd)],
            None => Vec::new(),
        };
        let coherent = p.coherent;
        match p.what {
            PendingKind::Resource(kind, elem) => {
                let sc = match kind {
                    ResourceKind::StructuredBuffer { .. }
                    | ResourceKind::ByteAddressBuffer { .. } => {
                        if st.storage_buffer_class() {
                            StorageClass::StorageBuffer
                        } else {
                            StorageClass::Uniform
                        }
                    }
                    _ => StorageClass::UniformConstant,
                };
                use crate::grammar::Capability;
                match kind {
                    ResourceKind::TexelBuffer { rw } => b.capability(if rw {
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
                    Some(n) => b.type_array(t, n, None),
                    None => t,
                };
                let ptr = b.type_pointer(sc, t);
                let mut decorations = decos(binding);
                if coherent {
                    decorations.push(Decoration::Coherent);
                }
                if let (true, Some(u)) = (st.opts.reflect, &p.user_type) {
                    decorations.push(Decoration::UserTypeGOOGLE(u.clone()));
                }
                let counter = p.counter.map(|_| {
                    let binding = assigned.next().flatten();
                    counter_var(st, b, &p.name, sc, decos(binding))
                });
                if let (true, Some(c)) = (st.opts.reflect, counter) {
                    decorations.push(Decoration::CounterBuffer(Value::Global(c).to_id()));
                }
                let g = b.global(GlobalVariable {
                    name: Some(p.name.clone()),
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
                        counter,
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
                let ptr = b.type_pointer(sc, t);
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
                    let i = st.structs.len();
                    st.structs.push(def.clone());
                    st.type_cache.insert((Ty::Struct(i), layout, false), t);
                    let place = Place {
                        ptr: Value::Global(g),
                        ty: Ty::Struct(i),
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

/// The prefix [`collect_calls_expr`] puts before the name of a buffer whose counter method
/// is called (no function has such a name).
const COUNTER_USE: &str = "#counter ";

fn collect_calls_expr(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        ExprKind::Call { callee, args, .. } => {
            out.push((callee.name.clone(), callee.span));
            // `s()` on a struct variable calls its `operator()`.
            out.push(("*.operator()".to_owned(), callee.span));
            args.iter().for_each(|a| collect_calls_expr(a, out));
        }
        ExprKind::Unary { operand, .. } => collect_calls_expr(operand, out),
        ExprKind::Binary { lhs, rhs, op } => {
            // A struct operand calls its `operator`.
            out.push((
                format!("*.operator{}", super::expr::binary_symbol(*op)),
                e.span,
            ));
            collect_calls_expr(lhs, out);
            collect_calls_expr(rhs, out);
        }
        ExprKind::Assign { lhs, rhs, .. } | ExprKind::Comma(lhs, rhs) => {
            collect_calls_expr(lhs, out);
            collect_calls_expr(rhs, out);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            collect_calls_expr(cond, out);
            collect_calls_expr(then, out);
            collect_calls_expr(otherwise, out);
        }
        ExprKind::Construct { args, .. } | ExprKind::InitList(args) => {
            args.iter().for_each(|a| collect_calls_expr(a, out))
        }
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } => {
            if let (ExprKind::Ident(r), "IncrementCounter" | "DecrementCounter") =
                (&receiver.kind, method.name.as_str())
            {
                out.push((format!("{COUNTER_USE}{}", r.name), method.span));
            }
            // The receiver's type is not known here: every struct's method of that name.
            out.push((format!("*.{}", method.name), method.span));
            collect_calls_expr(receiver, out);
            args.iter().for_each(|a| collect_calls_expr(a, out));
        }
        ExprKind::Cast { operand, .. } => collect_calls_expr(operand, out),
        // Unevaluated: calls nothing.
        ExprKind::SizeOf(_) => {}
        ExprKind::Scoped { .. } => {}
        ExprKind::Member { base, .. } => collect_calls_expr(base, out),
        ExprKind::Index { base, index } => {
            out.push(("*.operator[]".to_owned(), e.span));
            collect_calls_expr(base, out);
            collect_calls_expr(index, out);
        }
        ExprKind::Literal(_) | ExprKind::Ident(_) => {}
    }
}

fn collect_calls_init(i: &Initializer, out: &mut Vec<(String, Span)>) {
    match i {
        Initializer::Expr(e) => collect_calls_expr(e, out),
        Initializer::List(items, _) => items.iter().for_each(|i| collect_calls_init(i, out)),
    }
}

fn collect_calls_stmt(s: &Stmt, out: &mut Vec<(String, Span)>) {
    match &s.kind {
        StmtKind::Block(b) => collect_calls_block(b, out),
        StmtKind::Expr(e) => collect_calls_expr(e, out),
        StmtKind::Decl(d) => d
            .declarators
            .iter()
            .filter_map(|x| x.init.as_ref())
            .for_each(|i| collect_calls_init(i, out)),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(then, out);
            if let Some(o) = otherwise {
                collect_calls_stmt(o, out);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                collect_calls_stmt(i, out);
            }
            cond.iter()
                .chain(step.iter())
                .for_each(|e| collect_calls_expr(e, out));
            collect_calls_stmt(body, out);
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(body, out);
        }
        StmtKind::Switch { selector, cases } => {
            collect_calls_expr(selector, out);
            cases
                .iter()
                .flat_map(|c| &c.body)
                .for_each(|s| collect_calls_stmt(s, out));
        }
        StmtKind::Return(Some(e)) => collect_calls_expr(e, out),
        _ => {}
    }
}

fn collect_calls_block(b: &Block, out: &mut Vec<(String, Span)>) {
    b.stmts.iter().for_each(|s| collect_calls_stmt(s, out));
}

/// Depth-first over the call graph by name; `state` is false while a function is on the stack.
fn visit_calls(
    st: &mut State,
    name: &str,
    state: &mut HashMap<String, bool>,
    order: &mut Vec<String>,
) {
    state.insert(name.to_owned(), false);
    let items: Vec<usize> = st
        .functions
        .get(name)
        .map(|v| v.iter().map(|f| f.item).collect())
        .unwrap_or_default();
    let mut calls = Vec::new();
    for i in items {
        if let Some(Item::Function(FunctionDecl { body: Some(b), .. })) = st.unit.items.get(i) {
            collect_calls_block(b, &mut calls);
        }
    }
    visit_callees(st, calls, state, order);
    state.insert(name.to_owned(), true);
    order.push(name.to_owned());
}

/// Visits the functions `calls` names (see [`visit_calls`]).
fn visit_callees(
    st: &mut State,
    calls: Vec<(String, Span)>,
    state: &mut HashMap<String, bool>,
    order: &mut Vec<String>,
) {
    for (callee, span) in calls {
        if let Some(method) = callee.strip_prefix('*') {
            let mut methods: Vec<String> = st
                .functions
                .keys()
                .filter(|n| n.ends_with(method))
                .cloned()
                .collect();
            methods.sort();
            for m in methods {
                // Over-approximated edges: a method on the stack is not a recursion here (a
                // real one fails when its call finds the callee not yet emitted).
                if !state.contains_key(&m) {
                    visit_calls(st, &m, state, order);
                }
            }
            continue;
        }
        if !st.functions.contains_key(&callee) {
            continue;
        }
        match state.get(&callee) {
            Some(false) => st.error(
                span,
                format!("recursive call to '{callee}': recursion is not allowed"),
            ),
            Some(true) => {}
            None => visit_calls(st, &callee, state, order),
        }
    }
}

fn emit_function(st: &mut State, b: &mut Builder, name: &str, k: usize, is_entry: bool) {
    let Some(fsym) = st.functions.get(name).and_then(|v| v.get(k)).cloned() else {
        return;
    };
    let Some(Item::Function(decl)) = st.unit.items.get(fsym.item) else {
        return;
    };
    let Some(body) = &decl.body else { return };
    let mut ptypes = Vec::new();
    for (t, _) in &fsym.params {
        if t.is_resource() {
            st.error(decl.span, "not supported yet: resource parameters");
            return;
        }
        if *t == Ty::Void {
            return;
        }
        let it = ir_ty(b, st, t, LayoutRule::None, false);
        ptypes.push(b.type_pointer(StorageClass::Function, it));
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
    for (i, (p, (t, _))) in decl.params.iter().zip(&fsym.params).enumerate() {
        let v = cx.f.param(i as u32);
        if fsym.relaxed_params.get(i).copied().unwrap_or(false) {
            cx.relax(v);
        }
        if let Some(Some(depth)) = fsym.row_params.get(i) {
            cx.row_matrices.insert(v, *depth);
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
    if fsym.relaxed_ret {
        if let Some(f) = b.module_mut().functions.get_mut(handle) {
            f.decorations.push(Decoration::RelaxedPrecision);
        }
    }
    if let Some(fs) = st.functions.get_mut(name).and_then(|v| v.get_mut(k)) {
        fs.handle = Some(handle);
    }
}

/// The counter buffer of the structured buffer `name` (`counter.var.<name>`, a block of one
/// `int`, as DXC declares it).
fn counter_var(
    st: &mut State,
    b: &mut Builder,
    name: &str,
    sc: StorageClass,
    decorations: Vec<Decoration>,
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
