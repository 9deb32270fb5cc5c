//! Resource methods and texel access: structured and byte-address buffer `Load`/`Store`/
//! `GetDimensions`, texel buffer `Load`, and `tex[uv]` reads and writes; texture methods are
//! in `textures`.

use super::func::FnCx;
use super::{Place, Resource, Val};
use crate::grammar::{ImageOperands, ImageOperandsArgs};
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::types::{ResourceKind, SbFlavor, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::Value;

fn lod_operands(lod: Value) -> ImageOperandsArgs {
    ImageOperandsArgs {
        mask: ImageOperands::Lod,
        lod: Some(lod.to_id()),
        ..ImageOperandsArgs::default()
    }
}

impl FnCx<'_, '_> {
    fn load_resource(&mut self, r: &Resource) -> Value {
        self.load_handle(r)
    }

    /// Trims a 4-component texel to the resource's element type.
    pub(crate) fn texel_result(&mut self, v: Value, r: &Resource) -> (Value, Ty) {
        let s = super::types::texel_scalar(&r.elem);
        let n = r.elem.count();
        let stored = r.elem.with_component(s);
        let out = if n == 4 {
            v
        } else if n == 1 {
            let t = self.ty(&Ty::Scalar(s));
            self.f.composite_extract(t, v, vec![0])
        } else {
            let t = self.ty(&stored);
            self.f.vector_shuffle(t, v, v, (0..n).collect())
        };
        if r.elem.component() == Some(Scalar::Bool) {
            // A bool texture stores uints: true where not zero.
            let bt = self.ty(&r.elem);
            let z = self.u32c(0);
            let zero = if n == 1 {
                z
            } else {
                let t = self.ty(&stored);
                Value::Constant(self.f.constant_composite(t, &vec![z; n as usize]))
            };
            return (self.f.i_not_equal(bt, out, zero), r.elem.clone());
        }
        (out, r.elem.clone())
    }

    /// Reads a texel (`tex[uv]`, `buf[i]`).
    pub fn texel_load(&mut self, r: &Resource, coord: Value) -> Option<(Value, Ty)> {
        let s = super::types::texel_scalar(&r.elem);
        let v4 = self.ty(&Ty::Vector(s, 4));
        let img = match r.kind {
            ResourceKind::Texture { .. } => self.texture_image(r),
            _ => self.load_resource(r),
        };
        let v = match r.kind {
            ResourceKind::Texture { rw: true, .. } | ResourceKind::TexelBuffer { rw: true, .. } => {
                self.f.image_read(v4, img, coord, None)
            }
            ResourceKind::TexelBuffer { rw: false, .. } => self.f.image_fetch(v4, img, coord, None),
            ResourceKind::Texture { ms: true, .. } => {
                // `tex[uv]` of a multisampled texture: its sample 0, as DXC.
                let zero = self.u32c(0);
                let ops = ImageOperandsArgs {
                    mask: ImageOperands::Sample,
                    sample: Some(zero.to_id()),
                    ..ImageOperandsArgs::default()
                };
                self.f.image_fetch(v4, img, coord, Some(ops))
            }
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
            ResourceKind::Texture { rw: true, .. } | ResourceKind::TexelBuffer { rw: true, .. }
        ) {
            self.st.error(span, "cannot write to a read-only resource");
            return;
        }
        let Some(v) = self.convert(v, ty, &r.elem, span) else {
            return;
        };
        let img = self.load_resource(r);
        self.f.image_write(img, coord, v, None);
    }

    /// The element `i` (a uint word index) of a byte-address buffer, as a place.
    pub(super) fn word_place(&mut self, r: &Resource, i: Value, rw: bool) -> Place {
        let ut = Ty::Scalar(Scalar::UInt);
        let pt = self.ptr_ty(r.sc, &ut, self.st.sbuffer_rule(), false);
        let zero = self.i32c(0);
        let ptr = self.f.access_chain(pt, r.ptr, &[zero, i]);
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

    pub(super) fn arg_count(
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

    /// `SubpassLoad()` (`SubpassLoad(sample)` of a `SubpassInputMS`): the input attachment's
    /// texel at the fragment, `OpImageRead` at coordinate (0, 0) (pixel shaders only).
    fn subpass_load(&mut self, r: &Resource, ms: bool, args: &[Expr], span: Span) -> Option<Val> {
        let n = usize::from(ms);
        self.arg_count("SubpassLoad", args, n..=n, span)?;
        let sample = match args.first() {
            Some(a) => Some(self.rvalue_as(a, &Ty::Scalar(Scalar::Int))?),
            None => None,
        };
        let img = self.load_handle(r);
        let s = crate::hlsl::codegen::types::texel_scalar(&r.elem);
        let v4 = self.ty(&Ty::Vector(s, 4));
        let i2 = Ty::Vector(Scalar::Int, 2);
        let zero = self.i32c(0);
        let t = self.ty(&i2);
        let coord = Value::Constant(self.f.constant_composite(t, &[zero, zero]));
        let ops = sample.map(|s| ImageOperandsArgs {
            mask: ImageOperands::Sample,
            sample: Some(s.to_id()),
            ..ImageOperandsArgs::default()
        });
        let texel = self.f.image_read(v4, img, coord, ops);
        let (v, t) = self.texel_result(texel, r);
        Some(Val::R(v, t))
    }

    /// `res.Method(args)`.
    pub fn method(&mut self, r: &Resource, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        if r.array.is_some() {
            self.st.error(
                span,
                format!("'{name}' on an array of resources: index it first"),
            );
            return None;
        }
        let ut = Ty::Scalar(Scalar::UInt);
        match (r.kind, name) {
            (ResourceKind::Subpass { ms }, "SubpassLoad") => self.subpass_load(r, ms, args, span),
            (ResourceKind::Subpass { .. }, _) => {
                self.st
                    .error(span, format!("no method '{name}' on a SubpassInput"));
                None
            }
            (
                ResourceKind::StructuredBuffer {
                    flavor: SbFlavor::Plain,
                    ..
                },
                "Load",
            ) => {
                self.arg_count(name, args, 1..=1, span)?;
                let i = self.rvalue_as(&args[0], &ut)?;
                let rm = r.kind.elem_row_major();
                let pt = self.ptr_ty(r.sc, &r.elem, self.st.sbuffer_rule(), rm);
                let zero = self.i32c(0);
                let ptr = self.f.access_chain(pt, r.ptr, &[zero, i]);
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
                let len = self.f.array_length(it, r.ptr, 0);
                if structured {
                    self.out_uint(&args[0], len, &ut);
                    let stride = crate::hlsl::sema::layout::array_stride(
                        &r.elem,
                        self.st.sbuffer_rule(),
                        r.kind.elem_row_major(),
                        &self.st.types.structs,
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
                if n == 1 {
                    // `Store` is templated: its type is the value's (`buf.Store(0, s)` stores
                    // a struct, `buf.Store(0, 1.5)` a float's bits).
                    let a = self.rvalue_as(&args[0], &ut)?;
                    let (v, t) = self.rvalue(&args[1])?;
                    if t != ut {
                        self.raw_store(r, a, v, &t, span)?;
                        return Some(self.void_val());
                    }
                    let p = self.word_ptr_at(r, a);
                    self.f.store(p, v, None);
                    return Some(self.void_val());
                }
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
            (ResourceKind::Texture { .. }, _) => self.texture_method(r, name, args, span),
            (ResourceKind::TexelBuffer { rw, .. }, "Load") => {
                self.arg_count(name, args, 1..=2, span)?;
                let c = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::Int))?;
                let Some(status) = args.get(1) else {
                    let (v, t) = self.texel_load(r, c)?;
                    return Some(Val::R(v, t));
                };
                // `Load(location, status)`: the sparse fetch (read), its residency code
                // stored to `status`, as DXC.
                let texel = Ty::Vector(super::types::texel_scalar(&r.elem), 4);
                let rt = self.sparse_struct(&texel);
                let img = self.load_resource(r);
                let v = if rw {
                    self.f.image_sparse_read(rt, img, c, None)
                } else {
                    self.f.image_sparse_fetch(rt, img, c, None)
                };
                let v = self.sparse_result(v, &texel, status)?;
                let (v, t) = self.texel_result(v, r);
                Some(Val::R(v, t))
            }
            (ResourceKind::TexelBuffer { .. }, "GetDimensions") => {
                self.get_dimensions(r, args, span)
            }
            (
                ResourceKind::StructuredBuffer { flavor, .. },
                "Append" | "Consume" | "IncrementCounter" | "DecrementCounter",
            ) => {
                let right = match name {
                    "Append" => flavor == SbFlavor::Append,
                    "Consume" => flavor == SbFlavor::Consume,
                    _ => flavor == SbFlavor::Plain,
                };
                let Some(counter) = r.counter.filter(|_| right) else {
                    let msg = if right {
                        // A RWStructuredBuffer has a counter where its own name calls a
                        // counter method (as DXC finds them).
                        format!(
                            "not supported yet: '{name}' through a parameter or another name of \
                             a RWStructuredBuffer whose own name calls no counter method"
                        )
                    } else {
                        format!("no method '{name}' on this resource")
                    };
                    self.st.error(span, msg);
                    return None;
                };
                self.counter_method(r, counter, name, args, span)
            }
            _ if name.starts_with("Sample")
                || name.starts_with("Gather")
                || name.starts_with("CalculateLevelOfDetail")
                || name.starts_with("Interlocked") =>
            {
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

    /// `Append(v)`, `Consume()`, `IncrementCounter()`, `DecrementCounter()`: an atomic add or
    /// subtract of one on the buffer's counter (device scope, relaxed, as DXC), the element
    /// at the index it gives stored or loaded.
    fn counter_method(
        &mut self,
        r: &Resource,
        counter: Value,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let want = usize::from(name == "Append");
        self.arg_count(name, args, want..=want, span)?;
        let int = Ty::Scalar(Scalar::Int);
        let it = self.ty(&int);
        let pt = self.ptr_ty(r.sc, &int, self.st.sbuffer_rule(), false);
        let zero = self.u32c(0);
        let ptr = self.f.access_chain(pt, counter, &[zero]);
        let device = self.u32c(crate::grammar::Scope::Device.value());
        let relaxed = self.u32c(0);
        let one = self.i32c(1);
        let add = matches!(name, "Append" | "IncrementCounter");
        let prev = if add {
            self.f.atomic_i_add(it, ptr, device, relaxed, one)
        } else {
            self.f.atomic_i_sub(it, ptr, device, relaxed, one)
        };
        // The index of the element: the counter before an increment, after a decrement.
        let index = if add {
            prev
        } else {
            self.f.i_sub(it, prev, one)
        };
        if matches!(name, "IncrementCounter" | "DecrementCounter") {
            let ut = Ty::Scalar(Scalar::UInt);
            let u = self.ty(&ut);
            return Some(Val::R(self.f.bitcast(u, index), ut));
        }
        let rm = r.kind.elem_row_major();
        let layout = self.st.sbuffer_rule();
        let et = self.ptr_ty(r.sc, &r.elem, layout, rm);
        let zero = self.i32c(0);
        let ptr = self.f.access_chain(et, r.ptr, &[zero, index]);
        let place = Val::P(Place {
            ptr,
            ty: r.elem.clone(),
            sc: r.sc,
            layout,
            row_major: rm,
            konst: name == "Consume",
        });
        if name == "Consume" {
            let (v, t) = self.load(&place, span)?;
            return Some(Val::R(v, t));
        }
        let v = self.rvalue_as(&args[0], &r.elem)?;
        self.assign(&place, v, &r.elem, span);
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
