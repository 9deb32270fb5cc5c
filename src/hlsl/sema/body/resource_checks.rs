//! The checks of resources in expressions: indices into buffers and textures, the sampler a
//! sampling method takes first, atomic destinations, resource variables' initializers, the
//! raw buffer intrinsics, texels read through `.mips`/`.sample`, and `printf`.

use super::{Lowerer, Ty};
use crate::hlsl::ast::{Expr, ExprKind, Initializer};
use crate::hlsl::hir::GlobalKind;
use crate::hlsl::sema::rules;
use crate::hlsl::sema::types::{ResourceKind, SbFlavor, Scalar, TexDim};

/// Where the destination of an atomic lives.
enum AtomicPlace {
    /// Memory other invocations see: a writable buffer element or storage texel, a
    /// groupshared variable.
    Shared,
    /// Read-only memory (a read-only buffer or texture, a constant).
    ReadOnly,
    /// The invocation's own memory (locals, `static` globals) or a copy.
    Private,
    /// Code generation decides.
    Unknown,
}

/// Why a resource of `kind` has no method `name`, if it has none (whatever its element).
pub(super) fn no_method(kind: &ResourceKind, name: &str) -> Option<String> {
    // Any element that is not `bool` takes every method its kind has.
    let any = Ty::Scalar(Scalar::Float);
    if name == "GetDimensions" || rules::resource_method_type(kind, &any, name).is_some() {
        return None;
    }
    Some(match kind {
        ResourceKind::Subpass { .. } => format!("no method '{name}' on a SubpassInput"),
        ResourceKind::Texture { .. } => format!("no method '{name}' on this texture"),
        ResourceKind::ByteAddressBuffer { rw: false } if name.starts_with("Store") => {
            "cannot store to a read-only ByteAddressBuffer".to_owned()
        }
        _ if ["Sample", "Gather", "CalculateLevelOfDetail", "Interlocked"]
            .iter()
            .any(|p| name.starts_with(p)) =>
        {
            format!("not supported yet: the method '{name}' here")
        }
        _ => format!("no method '{name}' on this resource"),
    })
}

impl Lowerer<'_> {
    /// Checks `r[index]` (at `site`) of a resource of `kind`: buffers take a `uint` element
    /// index (an `int` texel one), textures an `int` vector of their coordinates.
    pub(super) fn resource_index(
        &mut self,
        site: &Expr,
        kind: ResourceKind,
        index: &Expr,
    ) -> Option<()> {
        let want = match kind {
            ResourceKind::StructuredBuffer { flavor, .. } if flavor != SbFlavor::Plain => {
                let why = "an Append/ConsumeStructuredBuffer is not indexed: Append and Consume \
                           reach its elements";
                self.report(site.span, why);
                return None;
            }
            ResourceKind::StructuredBuffer { .. } => Ty::Scalar(Scalar::UInt),
            ResourceKind::TexelBuffer { .. } => Ty::Scalar(Scalar::Int),
            ResourceKind::Texture {
                dim, ms, arrayed, ..
            } => {
                let why = if dim == TexDim::Cube {
                    "a cube texture cannot be indexed"
                } else if ms && arrayed {
                    // HLSL has no operator[] for Texture2DMSArray.
                    "a Texture2DMSArray cannot be indexed (use Load)"
                } else {
                    let n = dim.coords() + u32::from(arrayed);
                    return self.index_converted(index, &Ty::vector(Scalar::Int, n));
                };
                self.report(site.span, why);
                return None;
            }
            _ => {
                self.report(site.span, "this resource cannot be indexed");
                return None;
            }
        };
        self.index_converted(index, &want)
    }

    /// Converts the (typed) `index` to `want`.
    fn index_converted(&mut self, index: &Expr, want: &Ty) -> Option<()> {
        let it = self.typed(index)?;
        self.converted(index, &it, want, index.span).then_some(())
    }

    /// Whether the first of `args` is the sampler the method `name` of a texture of `kind`
    /// needs (where it needs one); reports why not.
    pub(super) fn sampler_argument(
        &mut self,
        kind: &ResourceKind,
        name: &str,
        args: &[Expr],
    ) -> bool {
        let ResourceKind::Texture {
            combined: false,
            rw: false,
            ms: false,
            ..
        } = kind
        else {
            return true;
        };
        let (Some(want), Some(first)) = (rules::texture_sampler(name), args.first()) else {
            return true;
        };
        let Some(t) = self.typed(first) else {
            return true;
        };
        let why = match (t, want) {
            (Ty::Resource(ResourceKind::Sampler { cmp }, _), want) => match want {
                Some(w) if w != cmp => {
                    let need = if w {
                        "SamplerComparisonState"
                    } else {
                        "SamplerState"
                    };
                    format!("the sampler argument of '{name}' must be a {need}")
                }
                _ => return true,
            },
            _ => format!("the first argument of '{name}' must be a sampler"),
        };
        self.report(first.span, why);
        false
    }

    /// Whether `dst`, of type `t`, may be the destination of the atomic `name` at `site`: an
    /// integer (or, exchanged, a float) in a writable buffer element, storage texel or
    /// groupshared variable; reports why not.
    pub(super) fn atomic_destination(
        &mut self,
        site: &Expr,
        name: &str,
        dst: &Expr,
        t: &Ty,
    ) -> bool {
        let why = match self.atomic_place(dst, true) {
            AtomicPlace::Shared | AtomicPlace::Unknown => match t {
                Ty::Scalar(Scalar::Int | Scalar::UInt | Scalar::Int64 | Scalar::UInt64) => {
                    return true
                }
                Ty::Scalar(Scalar::Float) if name == "InterlockedExchange" => return true,
                _ => format!("{name} needs a 32- or 64-bit integer destination"),
            },
            AtomicPlace::ReadOnly => format!("the destination of {name} is read-only"),
            AtomicPlace::Private => format!(
                "the destination of {name} must be a buffer element or groupshared variable"
            ),
        };
        self.report(site.span, why);
        false
    }

    /// Where the lvalue `e` lives, as atomics see it (`whole`: `e` is the destination itself,
    /// not a part of it).
    fn atomic_place(&self, e: &Expr, whole: bool) -> AtomicPlace {
        match &e.kind {
            ExprKind::Ident(id) => {
                if self.scopes.lookup(&id.name).is_some() {
                    return AtomicPlace::Private;
                }
                match self.m.globals.iter().find(|g| g.name == id.name) {
                    Some(g) => match g.kind {
                        GlobalKind::GroupShared { .. } => AtomicPlace::Shared,
                        GlobalKind::Static { .. } => AtomicPlace::Private,
                        GlobalKind::Constant(_) => AtomicPlace::ReadOnly,
                        _ => AtomicPlace::Unknown,
                    },
                    None => AtomicPlace::Unknown,
                }
            }
            // A scalar's `.x` (or `.r`) is the scalar itself.
            ExprKind::Member { base, .. } => {
                let scalar = matches!(self.typed(base), Some(Ty::Scalar(_)));
                self.atomic_place(base, whole && scalar)
            }
            ExprKind::Index { base, .. } => match self.typed(base) {
                Some(Ty::Array(..) | Ty::Vector(..) | Ty::Matrix(..) | Ty::Scalar(_)) => {
                    self.atomic_place(base, false)
                }
                Some(Ty::Resource(ResourceKind::StructuredBuffer { rw, .. }, _)) => {
                    if rw {
                        AtomicPlace::Shared
                    } else {
                        AtomicPlace::ReadOnly
                    }
                }
                // A storage texel is reached whole (a part of one is a copy).
                Some(Ty::Resource(
                    ResourceKind::Texture { rw, .. } | ResourceKind::TexelBuffer { rw, .. },
                    _,
                )) => match (whole, rw) {
                    (true, true) => AtomicPlace::Shared,
                    (true, false) => AtomicPlace::ReadOnly,
                    (false, _) => AtomicPlace::Private,
                },
                _ => AtomicPlace::Unknown,
            },
            // A value that is no variable.
            ExprKind::Literal(_)
            | ExprKind::Binary { .. }
            | ExprKind::Conditional { .. }
            | ExprKind::Construct { .. }
            | ExprKind::Cast { .. }
            | ExprKind::Call { .. } => AtomicPlace::Private,
            _ => AtomicPlace::Unknown,
        }
    }

    /// Checks that a resource variable of type `ty` is initialized with a resource of its
    /// type (a `ConstantBuffer<T>` with a buffer of `T`).
    pub(super) fn resource_init(&mut self, init: &Initializer, ty: &Ty) {
        let (Ty::Resource(kind, elem), Initializer::Expr(e)) = (ty, init) else {
            return;
        };
        let Some(t) = self.typed(e) else {
            return;
        };
        let msg = match (kind, &t) {
            (ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, Ty::Struct(got)) => {
                // A buffer's name is a value of its struct: only a buffer of another struct
                // is known to be wrong here.
                let buffer = match &e.kind {
                    ExprKind::Ident(id) => match self.scopes.lookup(&id.name) {
                        Some(local) => matches!(
                            local.ty,
                            Some(Ty::Resource(
                                ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer,
                                _
                            ))
                        ),
                        None => self.m.globals.iter().any(|g| {
                            g.name == id.name
                                && matches!(g.kind, GlobalKind::Block { as_var: true, .. })
                        }),
                    },
                    _ => false,
                };
                // (A block's copy of a struct names the struct it copies as its origin.)
                let name = |i: usize| {
                    let d = self.m.types.structs.get(i)?;
                    Some(d.origin.clone().unwrap_or_else(|| d.name.clone()))
                };
                let (Some(o), Ty::Struct(w)) = (name(*got), &**elem) else {
                    return;
                };
                if !buffer || Some(&o) == name(*w).as_ref() {
                    return;
                }
                let which = match kind {
                    ResourceKind::TextureBuffer => "TextureBuffer",
                    _ => "ConstantBuffer",
                };
                format!(
                    "cannot initialize a '{which}<{}>' with a buffer of '{o}'",
                    name(*w).unwrap_or_default()
                )
            }
            (_, Ty::Resource(k, el)) if k != kind || el != elem => format!(
                "cannot initialize a '{}' with a '{}'",
                self.m.types.show(ty),
                self.m.types.show(&t)
            ),
            _ => return,
        };
        self.report(e.span, msg);
    }

    /// `vk::RawBufferLoad<T>(address[, alignment])` and `vk::RawBufferStore<T>(address, value[,
    /// alignment])` at `site` (`T` defaults to `uint`; the alignment is a constant power of
    /// two).
    pub(super) fn raw_buffer_call(
        &mut self,
        site: &Expr,
        callee: &crate::hlsl::ast::Ident,
        template_args: &[crate::hlsl::ast::TemplateArg],
        args: &[Expr],
    ) -> Option<Ty> {
        use crate::hlsl::ast::TemplateArg;
        let name = callee.name.as_str();
        let store = match name {
            "vk::RawBufferLoad" => false,
            "vk::RawBufferStore" => true,
            _ => {
                let msg = format!("not supported yet: {name} (vk::BufferPointer)");
                self.report(callee.span, msg);
                return None;
            }
        };
        let ty = match template_args {
            [] => Ty::Scalar(Scalar::UInt),
            [TemplateArg::Type(t)] => self.resolve(t, &[])?,
            [TemplateArg::Expr(e)] => {
                self.report(e.span, format!("{name}'s template argument must be a type"));
                return None;
            }
            _ => {
                let msg = format!("{name} takes one template argument (the type)");
                self.report(callee.span, msg);
                return None;
            }
        };
        if !ty.is_numeric() && !matches!(ty, Ty::Struct(_) | Ty::Array(..)) {
            let msg = format!("not supported yet: {name} of '{}'", self.m.types.show(&ty));
            self.report(callee.span, msg);
            return None;
        }
        let fixed = if store { 2 } else { 1 };
        if !(fixed..=fixed + 1).contains(&args.len()) {
            let msg = format!(
                "wrong number of arguments to '{name}': {} given",
                args.len()
            );
            self.report(site.span, msg);
            return None;
        }
        if let Some(a) = args.get(fixed) {
            let (consts, env) = (&self.scopes, &self.m.types);
            let lookup = |n: &str| super::constant(consts, env, n);
            let align =
                crate::hlsl::sema::decls::fold(a, self.opts, &lookup).and_then(|c| c.as_int());
            if !align.is_some_and(|n| n > 0 && n <= i64::from(u32::MAX) && n & (n - 1) == 0) {
                let msg = "alignment argument must be a constant unsigned integer (a power of two)";
                self.report(a.span, msg);
                return None;
            }
        }
        let at = self.typed(&args[0])?;
        if !self.converted(&args[0], &at, &Ty::Scalar(Scalar::UInt64), args[0].span) {
            return None;
        }
        if !store {
            return Some(ty);
        }
        let vt = self.typed(&args[1])?;
        self.converted(&args[1], &vt, &ty, args[1].span)
            .then_some(Ty::Void)
    }

    /// The texel `tex.mips[level][coord]` (or `tex.sample[sample][coord]`) reads, when
    /// `base[index]` is one: a value of the texture's element type (the views `tex.mips` and
    /// `tex.mips[level]` are no values).
    pub(super) fn mip_texel(&mut self, base: &Expr, index: &Expr) -> Option<Ty> {
        let ExprKind::Index {
            base: view,
            index: level,
        } = &base.kind
        else {
            return None;
        };
        let ExprKind::Member { base: tex, member } = &view.kind else {
            return None;
        };
        if !matches!(member.name.as_str(), "mips" | "sample") {
            return None;
        }
        let Some(Ty::Resource(
            ResourceKind::Texture {
                dim,
                rw,
                ms,
                arrayed,
                ..
            },
            elem,
        )) = self.check(tex)
        else {
            return None;
        };
        // (A texture without the view is reported as such by the member's check.)
        if rw || ms != (member.name == "sample") || dim == TexDim::Cube {
            return None;
        }
        // The mip level (or sample) is a `uint`, the texel an `int` vector of coordinates.
        let (lt, it) = (self.check(level), self.check(index));
        let coords = Ty::vector(Scalar::Int, dim.coords() + u32::from(arrayed));
        if let Some(lt) = lt {
            self.converted(level, &lt, &Ty::Scalar(Scalar::UInt), level.span);
        }
        if let Some(it) = it {
            self.converted(index, &it, &coords, index.span);
        }
        Some(*elem)
    }

    /// `printf(format, values...)`: the format a string literal or a module-scope `string`,
    /// the values numeric.
    pub(super) fn printf(&mut self, args: &[Expr]) -> Option<Ty> {
        let format = args.first()?;
        let literal = matches!(
            format.kind,
            ExprKind::Literal(crate::hlsl::ast::Literal::String(_))
        );
        if !literal && !self.is_string(format) {
            let msg = "printf's format must be a string literal or a string variable";
            self.report(format.span, msg);
            return None;
        }
        for a in &args[1..] {
            let t = self.typed(a)?;
            if !t.is_numeric() {
                let msg = format!("not supported yet: printf of '{}'", self.m.types.show(&t));
                self.report(a.span, msg);
                return None;
            }
        }
        Some(Ty::Void)
    }
}
