//! Texture methods as DXC maps them to SPIR-V: the sample family (`Sample`, `SampleBias`,
//! `SampleGrad`, `SampleLevel` and the depth comparisons `SampleCmp`, `SampleCmpLevelZero`,
//! `SampleCmpLevel`, `SampleCmpBias`, `SampleCmpGrad`), `Gather`, `GatherRed/Green/Blue/Alpha`,
//! `GatherCmp(Red)`, `CalculateLevelOfDetail(Unclamped)`, `Load` (mip level, sample index,
//! offset) and `GetDimensions` (mip level, array size, sample count), on every texture
//! dimension, arrays and multisampled textures included, and on combined image samplers
//! (`vk::SampledTexture*`, whose methods take no sampler argument).
//!
//! The trailing optional arguments are, in order, a texel offset (none on cube textures), a
//! minimum-LOD clamp (methods that choose the LOD from derivatives or a gradient) and a
//! residency status, which turns the operation into its `OpImageSparse*` form. A texel offset
//! must be a constant (`ConstOffset`) but for gathers, which take a variable `Offset` as Vulkan
//! allows only there.

use super::func::FnCx;
use super::{Resource, Val};
use crate::grammar::{ImageOperands, ImageOperandsArgs};
use crate::hlsl::ast::Expr;
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::types::{ResourceKind, Scalar, TexDim, Ty};
use crate::hlsl::source::Span;
use crate::ir::{Member, StructType, Value};

/// The shape of a texture resource.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub dim: TexDim,
    pub arrayed: bool,
    pub ms: bool,
    pub rw: bool,
    pub combined: bool,
}

impl Shape {
    /// The shape of a texture kind.
    pub fn of(kind: ResourceKind) -> Option<Shape> {
        match kind {
            ResourceKind::Texture {
                dim,
                arrayed,
                ms,
                rw,
                combined,
                ..
            } => Some(Shape {
                dim,
                arrayed,
                ms,
                rw,
                combined,
            }),
            _ => None,
        }
    }

    /// Coordinates that address a texel, the array layer included.
    pub fn coords(self) -> u32 {
        self.dim.coords() + u32::from(self.arrayed)
    }

    /// Components of a texel offset; none for cube textures.
    fn offset_len(self) -> Option<u32> {
        (self.dim != TexDim::Cube).then(|| self.dim.coords())
    }

    /// Components of the size a query returns (width, height, depth; a cube's face size;
    /// then the layer count).
    fn size_len(self) -> u32 {
        let base = if self.dim == TexDim::Cube {
            2
        } else {
            self.dim.coords()
        };
        base + u32::from(self.arrayed)
    }
}

/// How a sample method chooses its level of detail.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lod {
    /// From implicit derivatives (pixel shaders).
    Implicit,
    /// From implicit derivatives plus a bias.
    Bias,
    /// Given.
    Level,
    /// Level 0.
    Zero,
    /// From explicit gradients.
    Grad,
}

/// A sample method: whether it compares, how it chooses the LOD, whether it takes a clamp.
fn sample_form(name: &str) -> Option<(bool, Lod, bool)> {
    Some(match name {
        "Sample" => (false, Lod::Implicit, true),
        "SampleBias" => (false, Lod::Bias, true),
        "SampleGrad" => (false, Lod::Grad, true),
        "SampleLevel" => (false, Lod::Level, false),
        "SampleCmp" => (true, Lod::Implicit, true),
        "SampleCmpBias" => (true, Lod::Bias, true),
        "SampleCmpGrad" => (true, Lod::Grad, true),
        "SampleCmpLevel" => (true, Lod::Level, false),
        "SampleCmpLevelZero" => (true, Lod::Zero, false),
        _ => return None,
    })
}

/// Where a texel offset goes, which decides whether it may vary.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OffsetUse {
    /// A gather's `Offset`: any value.
    Gather,
    /// A sample's: a constant once legalized.
    Sample,
    /// A fetch's (`Load`): a constant, as DXC requires before legalization.
    Fetch,
}

/// Adds a constant or variable texel offset to image operands.
fn add_offset(ops: &mut ImageOperandsArgs, offset: Option<Value>) {
    match offset {
        Some(o @ Value::Constant(_)) => {
            ops.mask = ImageOperands(ops.mask.0 | ImageOperands::ConstOffset.0);
            ops.const_offset = Some(o.to_id());
        }
        Some(o) => {
            ops.mask = ImageOperands(ops.mask.0 | ImageOperands::Offset.0);
            ops.offset = Some(o.to_id());
        }
        None => {}
    }
}

/// Optional image operands, written even when empty (a `None` mask), as DXC writes them.
fn some_ops(ops: ImageOperandsArgs) -> Option<ImageOperandsArgs> {
    Some(ops)
}

impl FnCx<'_, '_> {
    /// The image of a texture: its variable loaded, and for a combined image sampler the image
    /// taken out of it (`OpImage`).
    pub(crate) fn texture_image(&mut self, r: &Resource) -> Value {
        let v = self.load_handle(r);
        match Shape::of(r.kind) {
            Some(s) if s.combined => {
                let it = super::types::texture_image_ty(
                    &mut self.f,
                    s.dim,
                    s.arrayed,
                    s.ms,
                    super::types::ImageUse::Combined,
                    &r.elem,
                );
                self.f.image(it, v)
            }
            _ => v,
        }
    }

    /// The sampled image a sampling instruction takes: a combined image sampler's value, or
    /// `OpSampledImage` of the texture and `sampler`.
    fn sampled_image(&mut self, r: &Resource, sampler: Option<&Resource>) -> Value {
        let t = self.ty(&Ty::Resource(r.kind, Box::new(r.elem.clone())));
        let img = self.load_handle(r);
        let Some(s) = sampler else {
            return img;
        };
        let smp = self.load_handle(s);
        let sit = self.f.type_sampled_image(t);
        self.f.sampled_image(sit, img, smp)
    }

    /// The sampler argument of a method on a texture that is not combined with one.
    fn sampler_arg(&mut self, e: &Expr, cmp: Option<bool>, name: &str) -> Option<Resource> {
        match self.expr(e) {
            Val::Res(s) => match (s.kind, cmp) {
                (ResourceKind::Sampler { .. }, None) => Some(s),
                (ResourceKind::Sampler { cmp: c }, Some(want)) if c == want => Some(s),
                (ResourceKind::Sampler { .. }, Some(want)) => {
                    let need = if want {
                        "SamplerComparisonState"
                    } else {
                        "SamplerState"
                    };
                    self.st.error(
                        e.span,
                        format!("the sampler argument of '{name}' must be a {need}"),
                    );
                    None
                }
                _ => {
                    self.st.error(
                        e.span,
                        format!("the first argument of '{name}' must be a sampler"),
                    );
                    None
                }
            },
            Val::Err => None,
            _ => {
                self.st.error(
                    e.span,
                    format!("the first argument of '{name}' must be a sampler"),
                );
                None
            }
        }
    }

    /// The `int` constant (scalar or vector) with the bits of the `uint` constant `v` of type
    /// `t`.
    fn uint_constant_as_int(&mut self, v: Value, t: &Ty) -> Option<Value> {
        let parts = match t {
            Ty::Scalar(_) => vec![v],
            Ty::Vector(..) => {
                let Value::Constant(h) = v else { return None };
                match self.f.module().constants.get(h).map(|c| &c.value) {
                    Some(crate::ir::ConstantValue::Composite(p)) => p.clone(),
                    _ => return None,
                }
            }
            _ => return None,
        };
        let mut ints = Vec::new();
        for p in parts {
            let Some(ConstVal::Int(k)) = self.const_of(p) else {
                return None;
            };
            ints.push(self.scalar_const(Scalar::Int, ConstVal::Int(i64::from(k as u32 as i32))));
        }
        if let [one] = ints[..] {
            return Some(one);
        }
        let it = Ty::vector(Scalar::Int, ints.len() as u32);
        let ct = self.ty(&it);
        Some(Value::Constant(self.f.constant_composite(ct, &ints)))
    }

    /// A texel offset argument of `n` components for `OffsetUse`.
    fn offset_arg(&mut self, e: &Expr, n: u32, usage: OffsetUse) -> Option<Value> {
        let (mut v, mut t) = self.rvalue(e)?;
        // A longer constant vector truncated stays a constant (`int2(2, 3)` as a 1D offset).
        if let (Value::Constant(h), Ty::Vector(s, m)) = (v, &t) {
            let parts = match self.f.module().constants.get(h).map(|c| &c.value) {
                Some(crate::ir::ConstantValue::Composite(p)) => Some(p.clone()),
                _ => None,
            };
            if let Some(p) = parts.filter(|p| *m > n && p.len() == *m as usize) {
                let nt = Ty::vector(*s, n);
                v = if n == 1 {
                    p[0]
                } else {
                    let ct = self.ty(&nt);
                    Value::Constant(self.f.constant_composite(ct, &p[..n as usize]))
                };
                t = nt;
            }
        }
        // A constant `uint` offset (`uint2(-5, 7)`) is the `int` constant of the same bits.
        let v = match (v, t.component()) {
            (Value::Constant(_), Some(Scalar::UInt)) if t.count() == n => {
                self.uint_constant_as_int(v, &t)
            }
            _ => None,
        }
        .map_or_else(
            || self.convert(v, &t, &Ty::vector(Scalar::Int, n), e.span),
            Some,
        )?;
        match usage {
            _ if matches!(v, Value::Constant(_)) => {}
            OffsetUse::Gather => {}
            // As DXC: a variable `Offset`, which inlining, `[unroll]` and folding must make
            // a constant (`ConstOffset`) before Vulkan takes it.
            OffsetUse::Sample => self.st.needs_legalization(
                e.span,
                None,
                "a texel offset outside a gather must be a constant, and this one is not one \
                 even after inlining, unrolling [unroll] loops and folding",
            ),
            OffsetUse::Fetch => {
                // A language rule that only constant folding here decides (as in DXC).
                let why = "Offsets to texture access operations must be immediate values";
                self.st.diags.push(Diagnostic::error(e.span, why));
                return None;
            }
        }
        Some(v)
    }

    /// The texture's shape and sampler (unless combined) for a sampling method, checking it
    /// can be sampled; the index of the first argument after the sampler.
    fn sampling_setup(
        &mut self,
        shape: Shape,
        name: &str,
        args: &[Expr],
        cmp: Option<bool>,
        span: Span,
    ) -> Option<(Option<Resource>, usize)> {
        if shape.rw || shape.ms {
            self.st
                .error(span, format!("no method '{name}' on this texture"));
            return None;
        }
        if shape.combined {
            return Some((None, 0));
        }
        let Some(first) = args.first() else {
            self.st.error(span, format!("'{name}' needs a sampler"));
            return None;
        };
        let s = self.sampler_arg(first, cmp, name)?;
        Some((Some(s), 1))
    }

    /// A sparse residency result (`OpImageSparse*`): stores the status into `status` and
    /// returns the texel.
    pub(super) fn sparse_result(&mut self, v: Value, texel: &Ty, status: &Expr) -> Option<Value> {
        let ut = Ty::Scalar(Scalar::UInt);
        let u = self.ty(&ut);
        let tt = self.ty(texel);
        let code = self.f.composite_extract(u, v, vec![0]);
        let dst = self.expr(status);
        let dt = self.val_ty(&dst)?;
        let c = self.convert(code, &ut, &dt, status.span)?;
        self.assign(&dst, c, &dt, status.span);
        Some(self.f.composite_extract(tt, v, vec![1]))
    }

    /// `SparseResidencyStruct`: the status code and the texel.
    pub(super) fn sparse_struct(&mut self, texel: &Ty) -> crate::ir::Handle<crate::ir::Type> {
        let u = self.ty(&Ty::Scalar(Scalar::UInt));
        let tt = self.ty(texel);
        self.f.type_struct(StructType {
            name: Some("SparseResidencyStruct".to_owned()),
            members: vec![Member::new(u), Member::new(tt)],
            decorations: Vec::new(),
        })
    }

    /// The scalar a sampling method returns; sampling a bool texture is refused.
    fn sampled_scalar(&mut self, r: &Resource, name: &str, span: Span) -> Option<Scalar> {
        match r.elem.component() {
            Some(Scalar::Bool) => {
                self.st.error(
                    span,
                    format!("not supported yet: '{name}' on a texture of bool"),
                );
                None
            }
            s => s,
        }
    }

    fn too_many(&mut self, name: &str, n: usize, span: Span) -> Option<Val> {
        self.st.error(
            span,
            format!("wrong number of arguments to '{name}': {n} given"),
        );
        None
    }

    /// A texture method, or `None` with an error reported.
    pub(crate) fn texture_method(
        &mut self,
        r: &Resource,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let shape = Shape::of(r.kind)?;
        if let Some((cmp, lod, clamp)) = sample_form(name) {
            return self.sample(r, shape, name, (cmp, lod, clamp), args, span);
        }
        match name {
            "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha" | "GatherCmp"
            | "GatherCmpRed" => self.gather(r, shape, name, args, span),
            "CalculateLevelOfDetail" | "CalculateLevelOfDetailUnclamped" => {
                self.calculate_lod(r, shape, name, args, span)
            }
            "Load" => self.texture_load(r, shape, args, span),
            "GetDimensions" => self.get_dimensions(r, args, span),
            "GetSamplePosition" => self.sample_position(r, shape, args, span),
            _ => {
                self.st
                    .error(span, format!("no method '{name}' on this texture"));
                None
            }
        }
    }

    /// `GetSamplePosition(s)` of a multisampled texture: the standard D3D position of sample
    /// `s` for the texture's sample count (2, 4, 8 or 16; `(0, 0)` for any other count), as
    /// DXC tables them. One table of all four patterns; the sample index is taken modulo the
    /// count (where DXC's reads past its table are undefined).
    fn sample_position(
        &mut self,
        r: &Resource,
        shape: Shape,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        if !shape.ms {
            self.st.error(
                span,
                "GetSamplePosition is a method of multisampled textures only",
            );
            return None;
        }
        self.arg_count("GetSamplePosition", args, 1..=1, span)?;
        const PATTERNS: [&[(f32, f32)]; 4] = [
            &[(0.25, 0.25), (-0.25, -0.25)],
            &[
                (-0.125, -0.375),
                (0.375, -0.125),
                (-0.375, 0.125),
                (0.125, 0.375),
            ],
            &[
                (0.0625, -0.1875),
                (-0.0625, 0.1875),
                (0.3125, 0.0625),
                (-0.1875, -0.3125),
                (-0.3125, 0.3125),
                (-0.4375, -0.0625),
                (0.1875, 0.4375),
                (0.4375, -0.4375),
            ],
            &[
                (0.0625, 0.0625),
                (-0.0625, -0.1875),
                (-0.1875, 0.125),
                (0.25, -0.0625),
                (-0.3125, -0.125),
                (0.125, 0.3125),
                (0.3125, 0.1875),
                (0.1875, -0.3125),
                (-0.125, 0.375),
                (0.0, -0.4375),
                (-0.25, -0.375),
                (-0.375, 0.25),
                (-0.5, 0.0),
                (0.4375, -0.25),
                (0.375, 0.4375),
                (-0.4375, -0.5),
            ],
        ];
        let ut = Ty::Scalar(Scalar::UInt);
        let f2 = Ty::Vector(Scalar::Float, 2);
        let img = self.texture_image(r);
        let u = self.ty(&ut);
        // Kernel or ImageQuery enable the query: a shader declares ImageQuery.
        self.f.capability(crate::grammar::Capability::ImageQuery);
        let count = self.f.image_query_samples(u, img);
        let index = self.rvalue_as(&args[0], &ut)?;
        // Every pattern, then `(0, 0)`: the table, in a Function variable as DXC keeps its.
        let v2 = self.ty(&f2);
        let mut entries = Vec::new();
        for &(x, y) in PATTERNS.iter().flat_map(|p| p.iter()).chain(&[(0.0, 0.0)]) {
            let cx = self.scalar_const(Scalar::Float, ConstVal::Float(f64::from(x)));
            let cy = self.scalar_const(Scalar::Float, ConstVal::Float(f64::from(y)));
            entries.push(Value::Constant(self.f.constant_composite(v2, &[cx, cy])));
        }
        let table_ty = Ty::Array(Box::new(f2.clone()), entries.len() as u32);
        let tt = self.ty(&table_ty);
        let table = Value::Constant(self.f.constant_composite(tt, &entries));
        let var = self.local(&table_ty, "var.GetSamplePosition.data");
        self.f.store(var, table, None);
        // The pattern's first entry and the index mask, by the sample count.
        let bool_t = self.ty(&Ty::Scalar(Scalar::Bool));
        let zero_entry = entries.len() as u32 - 1;
        let (mut first, mut mask) = (self.u32c(zero_entry), self.u32c(0));
        let mut start = zero_entry;
        for p in PATTERNS.iter().rev() {
            let n = p.len() as u32;
            start -= n;
            let cn = self.u32c(n);
            let is_n = self.f.i_equal(bool_t, count, cn);
            let s = self.u32c(start);
            first = self.f.select(u, is_n, s, first);
            let m = self.u32c(n - 1);
            mask = self.f.select(u, is_n, m, mask);
        }
        let masked = self.f.bitwise_and(u, index, mask);
        let at = self.f.i_add(u, first, masked);
        let pt = self.ptr_ty(
            crate::grammar::StorageClass::Function,
            &f2,
            crate::hlsl::sema::layout::LayoutRule::None,
            false,
        );
        let ptr = self.f.access_chain(pt, var, &[at]);
        Some(Val::R(self.f.load(v2, ptr, None), f2))
    }

    /// The sample family.
    fn sample(
        &mut self,
        r: &Resource,
        shape: Shape,
        name: &str,
        (cmp, lod, clamp): (bool, Lod, bool),
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let (sampler, mut k) = self.sampling_setup(shape, name, args, Some(cmp), span)?;
        let fixed = 1
            + usize::from(cmp)
            + match lod {
                Lod::Implicit | Lod::Zero => 0,
                Lod::Bias | Lod::Level => 1,
                Lod::Grad => 2,
            };
        if args.len() < k + fixed {
            return self.too_many(name, args.len(), span);
        }
        let float = Ty::Scalar(Scalar::Float);
        let coord = self.rvalue_as(&args[k], &Ty::vector(Scalar::Float, shape.coords()))?;
        k += 1;
        let dref = if cmp {
            k += 1;
            Some(self.rvalue_as(&args[k - 1], &float)?)
        } else {
            None
        };
        let mut ops = ImageOperandsArgs::default();
        match lod {
            Lod::Implicit => {}
            Lod::Bias => {
                ops.bias = Some(self.rvalue_as(&args[k], &float)?.to_id());
                k += 1;
            }
            Lod::Level => {
                ops.lod = Some(self.rvalue_as(&args[k], &float)?.to_id());
                k += 1;
            }
            Lod::Zero => {
                ops.lod = Some(
                    self.scalar_const(Scalar::Float, ConstVal::Float(0.0))
                        .to_id(),
                );
            }
            Lod::Grad => {
                let gt = Ty::vector(Scalar::Float, shape.dim.coords());
                let dx = self.rvalue_as(&args[k], &gt)?;
                let dy = self.rvalue_as(&args[k + 1], &gt)?;
                ops.grad = Some((dx.to_id(), dy.to_id()));
                k += 2;
            }
        }
        // The optional arguments: offset, clamp, status, in this order, each where it applies.
        let mut slots = Vec::new();
        if let Some(n) = shape.offset_len() {
            slots.push(("offset", n));
        }
        if clamp {
            slots.push(("clamp", 0));
        }
        slots.push(("status", 0));
        let rest = &args[k..];
        if rest.len() > slots.len() {
            return self.too_many(name, args.len(), span);
        }
        let mut status = None;
        for (e, &(what, n)) in rest.iter().zip(&slots) {
            match what {
                "offset" => {
                    let o = self.offset_arg(e, n, OffsetUse::Sample)?;
                    add_offset(&mut ops, Some(o));
                }
                "clamp" => ops.min_lod = Some(self.rvalue_as(e, &float)?.to_id()),
                _ => status = Some(e),
            }
        }
        let comp = self.sampled_scalar(r, name, span)?;
        let texel = if cmp {
            Ty::Scalar(comp)
        } else {
            Ty::Vector(comp, 4)
        };
        let si = self.sampled_image(r, sampler.as_ref());
        let rt = match status {
            Some(_) => self.sparse_struct(&texel),
            None => self.ty(&texel),
        };
        let explicit = !matches!(lod, Lod::Implicit | Lod::Bias);
        let sparse = status.is_some();
        let f = &mut self.f;
        let v = match (dref, explicit, sparse) {
            (None, false, false) => f.image_sample_implicit_lod(rt, si, coord, some_ops(ops)),
            (None, false, true) => f.image_sparse_sample_implicit_lod(rt, si, coord, some_ops(ops)),
            (None, true, false) => f.image_sample_explicit_lod(rt, si, coord, ops),
            (None, true, true) => f.image_sparse_sample_explicit_lod(rt, si, coord, ops),
            (Some(d), false, false) => {
                f.image_sample_dref_implicit_lod(rt, si, coord, d, some_ops(ops))
            }
            (Some(d), false, true) => {
                f.image_sparse_sample_dref_implicit_lod(rt, si, coord, d, some_ops(ops))
            }
            (Some(d), true, false) => f.image_sample_dref_explicit_lod(rt, si, coord, d, ops),
            (Some(d), true, true) => f.image_sparse_sample_dref_explicit_lod(rt, si, coord, d, ops),
        };
        let v = match status {
            Some(e) => self.sparse_result(v, &texel, e)?,
            None => v,
        };
        if cmp {
            return Some(Val::R(v, texel));
        }
        let (v, t) = self.texel_result(v, r);
        Some(Val::R(v, t))
    }

    /// `Gather`, `GatherRed/Green/Blue/Alpha`, `GatherCmp`, `GatherCmpRed`.
    fn gather(
        &mut self,
        r: &Resource,
        shape: Shape,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let cmp = name.starts_with("GatherCmp");
        let (sampler, mut k) = self.sampling_setup(shape, name, args, Some(cmp), span)?;
        if !matches!(shape.dim, TexDim::D2 | TexDim::Cube) {
            self.st
                .error(span, format!("no method '{name}' on this texture"));
            return None;
        }
        let channel = match name
            .trim_start_matches("GatherCmp")
            .trim_start_matches("Gather")
        {
            "Green" => 1,
            "Blue" => 2,
            "Alpha" => 3,
            _ => 0,
        };
        if args.len() < k + 1 + usize::from(cmp) {
            return self.too_many(name, args.len(), span);
        }
        let coord = self.rvalue_as(&args[k], &Ty::vector(Scalar::Float, shape.coords()))?;
        k += 1;
        let dref = if cmp {
            k += 1;
            Some(self.rvalue_as(&args[k - 1], &Ty::Scalar(Scalar::Float))?)
        } else {
            None
        };
        let rest = &args[k..];
        // Offsets then status: none on cubes; one offset, or one per texel for the forms that
        // name a channel.
        let named = name != "Gather" && name != "GatherCmp";
        let (n_offsets, has_status) = match (shape.offset_len(), rest.len()) {
            (None, 0) => (0, false),
            (None, 1) => (0, true),
            (Some(_), 0) => (0, false),
            (Some(_), 1) => (1, false),
            (Some(_), 2) => (1, true),
            (Some(_), 4) if named => (4, false),
            (Some(_), 5) if named => (4, true),
            _ => return self.too_many(name, args.len(), span),
        };
        let mut offsets = Vec::new();
        for e in &rest[..n_offsets] {
            offsets.push(self.offset_arg(e, 2, OffsetUse::Gather)?);
        }
        let status = has_status.then(|| &rest[n_offsets]);
        let comp = self.sampled_scalar(r, name, span)?;
        let texel = Ty::Vector(comp, 4);
        let single = |fx: &mut Self, offset: Option<Value>, ops_extra: Option<Value>| {
            let mut ops = ImageOperandsArgs::default();
            add_offset(&mut ops, offset);
            if let Some(c) = ops_extra {
                ops.mask = ImageOperands(ops.mask.0 | ImageOperands::ConstOffsets.0);
                ops.const_offsets = Some(c.to_id());
            }
            let si = fx.sampled_image(r, sampler.as_ref());
            let rt = match status {
                Some(_) => fx.sparse_struct(&texel),
                None => fx.ty(&texel),
            };
            let ops = some_ops(ops);
            match (dref, status.is_some()) {
                (Some(d), false) => fx.f.image_dref_gather(rt, si, coord, d, ops),
                (Some(d), true) => fx.f.image_sparse_dref_gather(rt, si, coord, d, ops),
                (None, sparse) => {
                    let c = fx.i32c(channel);
                    if sparse {
                        fx.f.image_sparse_gather(rt, si, coord, c, ops)
                    } else {
                        fx.f.image_gather(rt, si, coord, c, ops)
                    }
                }
            }
        };
        let v = if offsets.len() == 4 {
            if offsets.iter().all(|o| matches!(o, Value::Constant(_))) {
                // `ConstOffsets`: a constant array of the four offsets.
                let at = self.ty(&Ty::Array(Box::new(Ty::Vector(Scalar::Int, 2)), 4));
                let c = self.f.constant_composite(at, &offsets);
                single(self, None, Some(Value::Constant(c)))
            } else if status.is_some() {
                self.st.error(
                    span,
                    "not supported yet: a residency status with variable gather offsets",
                );
                return None;
            } else {
                // One gather per texel, each with its offset, keeping that texel.
                let st = self.ty(&Ty::Scalar(comp));
                let mut texels = Vec::new();
                for (i, o) in offsets.iter().enumerate() {
                    let ops = ImageOperandsArgs {
                        mask: ImageOperands::Offset,
                        offset: Some(o.to_id()),
                        ..ImageOperandsArgs::default()
                    };
                    let si = self.sampled_image(r, sampler.as_ref());
                    let rt = self.ty(&texel);
                    let g = match dref {
                        Some(d) => self.f.image_dref_gather(rt, si, coord, d, Some(ops)),
                        None => {
                            let c = self.i32c(channel);
                            self.f.image_gather(rt, si, coord, c, Some(ops))
                        }
                    };
                    texels.push(self.f.composite_extract(st, g, vec![i as u32]));
                }
                let vt = self.ty(&texel);
                self.f.composite_construct(vt, &texels)
            }
        } else {
            single(self, offsets.first().copied(), None)
        };
        let v = match status {
            Some(e) => self.sparse_result(v, &texel, e)?,
            None => v,
        };
        Some(Val::R(v, texel))
    }

    /// `CalculateLevelOfDetail(Unclamped)`: `OpImageQueryLod`'s first or second component.
    fn calculate_lod(
        &mut self,
        r: &Resource,
        shape: Shape,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let (sampler, k) = self.sampling_setup(shape, name, args, None, span)?;
        if args.len() != k + 1 {
            return self.too_many(name, args.len(), span);
        }
        let coord = self.rvalue_as(&args[k], &Ty::vector(Scalar::Float, shape.dim.coords()))?;
        let si = self.sampled_image(r, sampler.as_ref());
        self.f.capability(crate::grammar::Capability::ImageQuery);
        let v2 = self.ty(&Ty::Vector(Scalar::Float, 2));
        let q = self.f.image_query_lod(v2, si, coord);
        let ft = self.ty(&Ty::Scalar(Scalar::Float));
        let which = u32::from(name.ends_with("Unclamped"));
        let v = self.f.composite_extract(ft, q, vec![which]);
        Some(Val::R(v, Ty::Scalar(Scalar::Float)))
    }

    /// `Load`: `(location[, offset][, status])` with the mip level as the location's last
    /// component; `(location, sample[, offset][, status])` on multisampled textures;
    /// `(location[, status])` on RW textures.
    fn texture_load(
        &mut self,
        r: &Resource,
        shape: Shape,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        if shape.dim == TexDim::Cube {
            self.st.error(span, "no method 'Load' on cube textures");
            return None;
        }
        let n = shape.coords();
        let it = Ty::Scalar(Scalar::Int);
        let fixed = if shape.ms { 2 } else { 1 };
        let optional = if shape.rw { 1 } else { 2 };
        if args.len() < fixed || args.len() > fixed + optional {
            return self.too_many("Load", args.len(), span);
        }
        let comp = super::types::texel_scalar(&r.elem);
        let texel = Ty::Vector(comp, 4);
        let mut ops = ImageOperandsArgs::default();
        let coord = if shape.rw || shape.ms {
            self.rvalue_as(&args[0], &Ty::vector(Scalar::Int, n))?
        } else {
            let all = self.rvalue_as(&args[0], &Ty::vector(Scalar::Int, n + 1))?;
            let ct = self.ty(&Ty::vector(Scalar::Int, n));
            let st = self.ty(&it);
            let coord = if n == 1 {
                self.f.composite_extract(ct, all, vec![0])
            } else {
                self.f.vector_shuffle(ct, all, all, (0..n).collect())
            };
            ops.lod = Some(self.f.composite_extract(st, all, vec![n]).to_id());
            coord
        };
        if shape.ms {
            ops.sample = Some(self.rvalue_as(&args[1], &it)?.to_id());
        }
        let rest = &args[fixed..];
        let (offset, status) = match (shape.rw, rest) {
            (_, []) => (None, None),
            (true, [s]) => (None, Some(s)),
            (false, [o]) => (Some(o), None),
            (false, [o, s]) => (Some(o), Some(s)),
            _ => return self.too_many("Load", args.len(), span),
        };
        if let Some(o) = offset {
            let o = self.offset_arg(o, shape.dim.coords(), OffsetUse::Fetch)?;
            add_offset(&mut ops, Some(o));
        }
        let img = self.texture_image(r);
        let rt = match status {
            Some(_) => self.sparse_struct(&texel),
            None => self.ty(&texel),
        };
        let ops = some_ops(ops);
        let v = match (shape.rw, status.is_some()) {
            (true, false) => self.f.image_read(rt, img, coord, ops),
            (true, true) => self.f.image_sparse_read(rt, img, coord, ops),
            (false, false) => self.f.image_fetch(rt, img, coord, ops),
            (false, true) => self.f.image_sparse_fetch(rt, img, coord, ops),
        };
        let v = match status {
            Some(e) => self.sparse_result(v, &texel, e)?,
            None => v,
        };
        let (v, t) = self.texel_result(v, r);
        Some(Val::R(v, t))
    }

    /// `GetDimensions` of a texture or texel buffer: `(width[, height[, depth or
    /// layers]][, samples])`, or for sampled non-multisampled textures also `(mip, width...,
    /// levels)`; outputs of uint, int or float.
    pub(crate) fn get_dimensions(
        &mut self,
        r: &Resource,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let ut = Ty::Scalar(Scalar::UInt);
        let (n, ms, lod_query) = match Shape::of(r.kind) {
            Some(s) => (s.size_len(), s.ms, !s.rw && !s.ms),
            None => (1, false, false),
        };
        let plain = n as usize + usize::from(ms);
        let with_mip = lod_query && args.len() == plain + 2;
        if !with_mip && args.len() != plain {
            let also = if lod_query {
                format!(" (or {})", plain + 2)
            } else {
                String::new()
            };
            self.st.error(
                span,
                format!("GetDimensions takes {plain}{also} arguments here"),
            );
            return None;
        }
        let img = self.texture_image(r);
        // The query instructions are enabled by Kernel or ImageQuery: declaring the one a
        // shader can have lets the requirements pass pick it.
        self.f.capability(crate::grammar::Capability::ImageQuery);
        let st_ = self.ty(&Ty::vector(Scalar::UInt, n));
        let size = if lod_query {
            let lod = if with_mip {
                self.rvalue_as(&args[0], &ut)?
            } else {
                self.u32c(0)
            };
            self.f.image_query_size_lod(st_, img, lod)
        } else {
            self.f.image_query_size(st_, img)
        };
        let first = usize::from(with_mip);
        let it = self.ty(&ut);
        let mut outs = Vec::new();
        for k in 0..n {
            let c = if n == 1 {
                size
            } else {
                self.f.composite_extract(it, size, vec![k])
            };
            outs.push((c, &args[first + k as usize]));
        }
        if with_mip {
            let levels = self.f.image_query_levels(it, img);
            outs.push((levels, &args[n as usize + 1]));
        }
        if ms {
            let samples = self.f.image_query_samples(it, img);
            outs.push((samples, &args[n as usize]));
        }
        for (c, out) in outs {
            let dst = self.expr(out);
            let dt = self.val_ty(&dst)?;
            let c = self.convert(c, &ut, &dt, out.span)?;
            self.assign(&dst, c, &dt, out.span);
        }
        Some(self.void_val())
    }

    /// Whether a texture has `.mips` (sampled, not multisampled, not cube) or `.sample`
    /// (multisampled); reports it otherwise.
    pub(crate) fn mips_allowed(&mut self, kind: ResourceKind, sample: bool, span: Span) -> bool {
        let ok = Shape::of(kind).is_some_and(|s| !s.rw && s.ms == sample && s.dim != TexDim::Cube);
        if !ok {
            let what = if sample { "sample" } else { "mips" };
            self.st
                .error(span, format!("this texture has no member '.{what}'"));
        }
        ok
    }

    /// `tex.mips[level]` (`tex.sample[index]`), then `tex.mips[level][coord]`: a texel
    /// fetched at that level (of that sample).
    pub(crate) fn mips_index(
        &mut self,
        r: &Resource,
        sample: bool,
        level: Option<Value>,
        index: &Expr,
    ) -> Option<Val> {
        let Some(level) = level else {
            let l = self.rvalue_as(index, &Ty::Scalar(Scalar::UInt))?;
            return Some(Val::Mips(r.clone(), sample, Some(l)));
        };
        let shape = Shape::of(r.kind)?;
        let coord = self.rvalue_as(index, &Ty::vector(Scalar::Int, shape.coords()))?;
        let mut ops = ImageOperandsArgs::default();
        if sample {
            ops.sample = Some(level.to_id());
        } else {
            ops.lod = Some(level.to_id());
        }
        let comp = super::types::texel_scalar(&r.elem);
        let rt = self.ty(&Ty::Vector(comp, 4));
        let img = self.texture_image(r);
        let v = self.f.image_fetch(rt, img, coord, Some(ops));
        let (v, t) = self.texel_result(v, r);
        Some(Val::R(v, t))
    }
}
