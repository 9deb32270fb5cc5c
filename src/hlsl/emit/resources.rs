//! Resource methods and texel access: structured and byte-address buffer `Load`/`Store`/
//! `GetDimensions`, texture `Sample`/`SampleLevel`/`Load`/`GetDimensions`, texel buffer
//! `Load`, and `tex[uv]` reads and writes.

use super::func::FnCx;
use super::{Place, Resource, Val};
use crate::grammar::{ImageOperands, ImageOperandsArgs};
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::types::{ResourceKind, Scalar, TexDim, Ty};
use crate::hlsl::source::Span;
use crate::ir::Value;

fn lod_operands(lod: Value) -> ImageOperandsArgs {
    ImageOperandsArgs {
        mask: ImageOperands::Lod,
        lod: Some(lod.to_id()),
        ..ImageOperandsArgs::default()
    }
}

/// Adds a `ConstOffset` to image operands.
fn with_offset(mut ops: ImageOperandsArgs, offset: Option<Value>) -> ImageOperandsArgs {
    if let Some(o) = offset {
        ops.mask = ImageOperands(ops.mask.0 | ImageOperands::ConstOffset.0);
        ops.const_offset = Some(o.to_id());
    }
    ops
}

impl FnCx<'_, '_> {
    /// A texel offset argument: an integer constant of the texture's coordinate count.
    fn const_offset(&mut self, e: &Expr, dim: TexDim) -> Option<Value> {
        if dim == TexDim::Cube {
            self.st
                .error(e.span, "a cube texture takes no texel offset");
            return None;
        }
        let v = self.rvalue_as(e, &Ty::vector(Scalar::Int, dim.coords()))?;
        if !matches!(v, Value::Constant(_)) {
            self.st.error(
                e.span,
                "not supported yet: a texel offset that is not a constant",
            );
            return None;
        }
        Some(v)
    }

    fn load_resource(&mut self, r: &Resource) -> Value {
        let t = self.ty(&Ty::Resource(r.kind, Box::new(r.elem.clone())));
        self.f.load(t, Value::Global(r.global), None)
    }

    /// Trims a 4-component texel to the resource's element type.
    fn texel_result(&mut self, v: Value, r: &Resource) -> (Value, Ty) {
        let s = r.elem.component().unwrap_or(Scalar::Float);
        let v4 = Ty::Vector(s, 4);
        let n = r.elem.count();
        let out = if n == 4 {
            v
        } else if n == 1 {
            let t = self.ty(&Ty::Scalar(s));
            self.f.composite_extract(t, v, vec![0])
        } else {
            let t = self.ty(&r.elem);
            self.f.vector_shuffle(t, v, v, (0..n).collect())
        };
        let _ = v4;
        (out, r.elem.clone())
    }

    /// Reads a texel (`tex[uv]`, `buf[i]`).
    pub fn texel_load(&mut self, r: &Resource, coord: Value) -> Option<(Value, Ty)> {
        let s = r.elem.component()?;
        let v4 = self.ty(&Ty::Vector(s, 4));
        let img = self.load_resource(r);
        let v = match r.kind {
            ResourceKind::Texture { rw: true, .. } | ResourceKind::TexelBuffer { rw: true } => {
                self.f.image_read(v4, img, coord, None)
            }
            ResourceKind::TexelBuffer { rw: false } => self.f.image_fetch(v4, img, coord, None),
            _ => {
                let zero = self.i32c(0);
                self.f.image_fetch(v4, img, coord, Some(lod_operands(zero)))
            }
        };
        Some(self.texel_result(v, r))
    }

    /// Writes a texel of a RW texture or texel buffer.
    pub fn texel_store(&mut self, r: &Resource, coord: Value, v: Value, ty: &Ty, span: Span) {
        if !matches!(
            r.kind,
            ResourceKind::Texture { rw: true, .. } | ResourceKind::TexelBuffer { rw: true }
        ) {
            self.st.error(span, "cannot write to a read-only resource");
            return;
        }
        let Some(v) = self.convert(v, ty, &r.elem, span, false) else {
            return;
        };
        let img = self.load_resource(r);
        self.f.image_write(img, coord, v, None);
    }

    /// The element `i` (a uint word index) of a byte-address buffer, as a place.
    fn word_place(&mut self, r: &Resource, i: Value, rw: bool) -> Place {
        let ut = Ty::Scalar(Scalar::UInt);
        let pt = self.ptr_ty(r.sc, &ut, self.st.sbuffer_rule(), false);
        let zero = self.i32c(0);
        let ptr = self.f.access_chain(pt, Value::Global(r.global), &[zero, i]);
        Place {
            ptr,
            ty: ut,
            sc: r.sc,
            layout: self.st.sbuffer_rule(),
            row_major: false,
            konst: !rw,
        }
    }

    /// The word index of a byte address.
    fn word_index(&mut self, addr: &Expr) -> Option<Value> {
        let a = self.rvalue_as(addr, &Ty::Scalar(Scalar::UInt))?;
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let two = self.u32c(2);
        Some(self.f.shift_right_logical(ut, a, two))
    }

    /// A place for `InterlockedAdd(addr, ...)` on a RWByteAddressBuffer.
    pub fn byte_address_place(&mut self, r: &Resource, addr: &Expr) -> Option<Place> {
        let i = self.word_index(addr)?;
        Some(self.word_place(r, i, true))
    }

    fn arg_count(
        &mut self,
        name: &str,
        args: &[Expr],
        n: std::ops::RangeInclusive<usize>,
        span: Span,
    ) -> Option<()> {
        if n.contains(&args.len()) {
            return Some(());
        }
        self.st.error(
            span,
            format!(
                "wrong number of arguments to '{name}': {} given",
                args.len()
            ),
        );
        None
    }

    fn out_uint(&mut self, e: &Expr, v: Value, vt: &Ty) {
        let dst = self.expr(e);
        let span = e.span;
        self.assign(&dst, v, vt, span);
    }

    /// `res.Method(args)`.
    pub fn method(&mut self, r: &Resource, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let ut = Ty::Scalar(Scalar::UInt);
        match (r.kind, name) {
            (ResourceKind::StructuredBuffer { .. }, "Load") => {
                self.arg_count(name, args, 1..=1, span)?;
                let i = self.rvalue_as(&args[0], &ut)?;
                let rm = self.st.opts.row_major;
                let pt = self.ptr_ty(r.sc, &r.elem, self.st.sbuffer_rule(), rm);
                let zero = self.i32c(0);
                let ptr = self.f.access_chain(pt, Value::Global(r.global), &[zero, i]);
                let p = Val::P(Place {
                    ptr,
                    ty: r.elem.clone(),
                    sc: r.sc,
                    layout: self.st.sbuffer_rule(),
                    row_major: rm,
                    konst: true,
                });
                let (v, t) = self.load(&p, span)?;
                Some(Val::R(v, t))
            }
            (
                ResourceKind::StructuredBuffer { .. } | ResourceKind::ByteAddressBuffer { .. },
                "GetDimensions",
            ) => {
                let structured = matches!(r.kind, ResourceKind::StructuredBuffer { .. });
                self.arg_count(name, args, if structured { 2..=2 } else { 1..=1 }, span)?;
                let it = self.ty(&ut);
                let len = self.f.array_length(it, Value::Global(r.global), 0);
                if structured {
                    self.out_uint(&args[0], len, &ut);
                    let stride = crate::hlsl::sema::layout::array_stride(
                        &r.elem,
                        self.st.sbuffer_rule(),
                        self.st.opts.row_major,
                        &self.st.structs,
                    );
                    let s = self.u32c(stride);
                    self.out_uint(&args[1], s, &ut);
                } else {
                    let four = self.u32c(4);
                    let bytes = self.f.i_mul(it, len, four);
                    self.out_uint(&args[0], bytes, &ut);
                }
                let void = self.f.type_void();
                let _ = void;
                Some(self.void_val())
            }
            (ResourceKind::ByteAddressBuffer { .. }, "Load" | "Load2" | "Load3" | "Load4") => {
                self.arg_count(name, args, 1..=1, span)?;
                let n = match name {
                    "Load" => 1,
                    "Load2" => 2,
                    "Load3" => 3,
                    _ => 4,
                };
                let i = self.word_index(&args[0])?;
                let it = self.ty(&ut);
                let mut comps = Vec::new();
                for k in 0..n {
                    let idx = if k == 0 {
                        i
                    } else {
                        let kc = self.u32c(k);
                        self.f.i_add(it, i, kc)
                    };
                    let p = self.word_place(r, idx, false);
                    comps.push(self.f.load(it, p.ptr, None));
                }
                let rt = Ty::vector(Scalar::UInt, n);
                Some(Val::R(self.compose_scalars(&rt, &comps), rt))
            }
            (ResourceKind::ByteAddressBuffer { rw }, "Store" | "Store2" | "Store3" | "Store4") => {
                self.arg_count(name, args, 2..=2, span)?;
                if !rw {
                    self.st
                        .error(span, "cannot store to a read-only ByteAddressBuffer");
                    return None;
                }
                let n = match name {
                    "Store" => 1,
                    "Store2" => 2,
                    "Store3" => 3,
                    _ => 4,
                };
                let i = self.word_index(&args[0])?;
                let vt = Ty::vector(Scalar::UInt, n);
                let v = self.rvalue_as(&args[1], &vt)?;
                let it = self.ty(&ut);
                for k in 0..n {
                    let idx = if k == 0 {
                        i
                    } else {
                        let kc = self.u32c(k);
                        self.f.i_add(it, i, kc)
                    };
                    let x = if n == 1 {
                        v
                    } else {
                        self.f.composite_extract(it, v, vec![k])
                    };
                    let p = self.word_place(r, idx, true);
                    self.f.store(p.ptr, x, None);
                }
                Some(self.void_val())
            }
            (ResourceKind::ByteAddressBuffer { rw: true }, m) if m.starts_with("Interlocked") => {
                self.interlocked_on_buffer(r, m, args, span)
            }
            (ResourceKind::Texture { dim, rw: false }, "Sample" | "SampleLevel") => {
                let level = name == "SampleLevel";
                self.arg_count(name, args, if level { 3..=4 } else { 2..=3 }, span)?;
                if !level && self.st.opts.profile.stage != crate::hlsl::Stage::Pixel {
                    self.st.error(span, "Sample needs implicit derivatives: only in pixel shaders (use SampleLevel)");
                    return None;
                }
                let sampler = match self.expr(&args[0]) {
                    Val::Res(s) if s.kind == ResourceKind::Sampler => s,
                    Val::Err => return None,
                    _ => {
                        self.st.error(
                            args[0].span,
                            "the first argument of Sample must be a SamplerState",
                        );
                        return None;
                    }
                };
                let ct = Ty::vector(Scalar::Float, dim.coords());
                let coord = self.rvalue_as(&args[1], &ct)?;
                let img = self.load_resource(r);
                let smp = self.load_resource(&sampler);
                let it = self.ty(&Ty::Resource(r.kind, Box::new(r.elem.clone())));
                let sit = self.f.type_sampled_image(it);
                let si = self.f.sampled_image(sit, img, smp);
                let s = r.elem.component()?;
                let v4 = self.ty(&Ty::Vector(s, 4));
                let offset = match args.get(if level { 3 } else { 2 }) {
                    Some(e) => Some(self.const_offset(e, dim)?),
                    None => None,
                };
                let v = if level {
                    let lod = self.rvalue_as(&args[2], &Ty::Scalar(Scalar::Float))?;
                    self.f.image_sample_explicit_lod(
                        v4,
                        si,
                        coord,
                        with_offset(lod_operands(lod), offset),
                    )
                } else {
                    let ops = offset.map(|o| with_offset(ImageOperandsArgs::default(), Some(o)));
                    self.f.image_sample_implicit_lod(v4, si, coord, ops)
                };
                let (v, t) = self.texel_result(v, r);
                Some(Val::R(v, t))
            }
            (ResourceKind::Texture { dim, rw }, "Load") => {
                self.arg_count(name, args, if rw { 1..=1 } else { 1..=2 }, span)?;
                let n = dim.coords();
                if dim == TexDim::Cube {
                    self.st.error(span, "TextureCube has no Load");
                    return None;
                }
                if rw {
                    let c = self.rvalue_as(&args[0], &Ty::vector(Scalar::Int, n))?;
                    let (v, t) = self.texel_load(r, c)?;
                    return Some(Val::R(v, t));
                }
                let all = self.rvalue_as(&args[0], &Ty::vector(Scalar::Int, n + 1))?;
                let ct = self.ty(&Ty::vector(Scalar::Int, n));
                let st = self.ty(&Ty::Scalar(Scalar::Int));
                let coord = if n == 1 {
                    self.f.composite_extract(ct, all, vec![0])
                } else {
                    self.f.vector_shuffle(ct, all, all, (0..n).collect())
                };
                let lod = self.f.composite_extract(st, all, vec![n]);
                let img = self.load_resource(r);
                let s = r.elem.component()?;
                let v4 = self.ty(&Ty::Vector(s, 4));
                let offset = match args.get(1) {
                    Some(e) => Some(self.const_offset(e, dim)?),
                    None => None,
                };
                let ops = with_offset(lod_operands(lod), offset);
                let v = self.f.image_fetch(v4, img, coord, Some(ops));
                let (v, t) = self.texel_result(v, r);
                Some(Val::R(v, t))
            }
            (ResourceKind::TexelBuffer { .. }, "Load") => {
                self.arg_count(name, args, 1..=1, span)?;
                let c = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::Int))?;
                let (v, t) = self.texel_load(r, c)?;
                Some(Val::R(v, t))
            }
            (ResourceKind::Texture { .. } | ResourceKind::TexelBuffer { .. }, "GetDimensions") => {
                self.get_dimensions(r, args, span)
            }
            _ if name.starts_with("Sample")
                || name.starts_with("Gather")
                || name.starts_with("CalculateLevelOfDetail")
                || name.starts_with("Interlocked")
                || matches!(
                    name,
                    "Append" | "Consume" | "IncrementCounter" | "DecrementCounter"
                ) =>
            {
                // Counters (and Append/ConsumeStructuredBuffer) are refused, so no module has
                // a counter buffer: an implementation must decorate each with
                // HlslCounterBufferGOOGLE under `-fspv-reflect`, and place it by
                // `[[vk::counter_binding]]` / `-fvk-bind-counter-heap` as DXC does.
                self.st
                    .error(span, format!("not supported yet: the method '{name}' here"));
                None
            }
            _ => {
                self.st
                    .error(span, format!("no method '{name}' on this resource"));
                None
            }
        }
    }

    fn get_dimensions(&mut self, r: &Resource, args: &[Expr], span: Span) -> Option<Val> {
        let ut = Ty::Scalar(Scalar::UInt);
        let (n, rw, sampled_tex) = match r.kind {
            ResourceKind::Texture { dim, rw } => {
                (if dim == TexDim::Cube { 2 } else { dim.coords() }, rw, !rw)
            }
            ResourceKind::TexelBuffer { rw } => (1, rw, false),
            _ => return None,
        };
        let _ = rw;
        // Forms: (w[, h[, d]]) or, for sampled textures, (mip, w[, h[, d]], levels).
        let with_mip = sampled_tex && args.len() == n as usize + 2;
        if !with_mip && args.len() != n as usize {
            self.st.error(
                span,
                format!("GetDimensions takes {n} (or {}) arguments here", n + 2),
            );
            return None;
        }
        let img = self.load_resource(r);
        self.f.capability(crate::grammar::Capability::ImageQuery);
        let size_ty = Ty::vector(Scalar::UInt, n);
        let st_ = self.ty(&size_ty);
        let size = if sampled_tex {
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
        for k in 0..n {
            let c = if n == 1 {
                size
            } else {
                self.f.composite_extract(it, size, vec![k])
            };
            let out = &args[first + k as usize];
            let dst = self.expr(out);
            let dt = self.val_ty(&dst)?;
            let c = self.convert(c, &ut, &dt, out.span, true)?;
            self.assign(&dst, c, &dt, out.span);
        }
        if with_mip {
            let levels = self.f.image_query_levels(it, img);
            let out = &args[n as usize + 1];
            let dst = self.expr(out);
            let dt = self.val_ty(&dst)?;
            let c = self.convert(levels, &ut, &dt, out.span, true)?;
            self.assign(&dst, c, &dt, out.span);
        }
        Some(self.void_val())
    }

    fn interlocked_on_buffer(
        &mut self,
        r: &Resource,
        m: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let Some(addr) = args.first() else {
            self.st.error(span, format!("'{m}' needs an address"));
            return None;
        };
        let place = self.byte_address_place(r, addr)?;
        self.interlocked(m, Val::P(place), &args[1..], span)
    }
}
