//! Templated `Load<T>` and `Store<T>` of (RW)ByteAddressBuffer, laid out in the buffer's words
//! as DXC does: a scalar at its byte address (a 16-bit one in half a word, a 64-bit one in two
//! words, low word first), vectors and arrays element after element, matrices column by column
//! (row by row with `-fspv-use-legacy-buffer-matrix-order`), and struct fields at the offsets
//! a structured buffer gives them, the next value after the struct rounded to its alignment.

use super::func::FnCx;
use super::{Resource, Val};
use crate::hlsl::ast::{ArrayedType, Expr};
use crate::hlsl::sema::layout::{size_align, struct_offsets};
use crate::hlsl::sema::types::{ResourceKind, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::Value;

impl FnCx<'_, '_> {
    /// `buf.Load<T>(address)` and `buf.Store<T>(address, value)`.
    pub fn templated_method(
        &mut self,
        r: &Resource,
        name: &str,
        type_arg: &ArrayedType,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let (base, _) = self.st.resolve_type(&type_arg.ty)?;
        let ty = if type_arg.array_dims.is_empty() {
            base
        } else {
            self.st
                .array_type(&base, &type_arg.array_dims, None, type_arg.ty.span)?
        };
        let ut = Ty::Scalar(Scalar::UInt);
        match (r.kind, name, args) {
            (ResourceKind::ByteAddressBuffer { .. }, "Load", [addr]) => {
                let a = self.rvalue_as(addr, &ut)?;
                let v = self.raw_load(r, a, &ty, span)?;
                Some(Val::R(v, ty))
            }
            (ResourceKind::ByteAddressBuffer { rw }, "Store", [addr, value]) => {
                if !rw {
                    self.st
                        .error(span, "cannot store to a read-only ByteAddressBuffer");
                    return None;
                }
                let a = self.rvalue_as(addr, &ut)?;
                let v = self.rvalue_as(value, &ty)?;
                self.raw_store(r, a, v, &ty, span)?;
                Some(self.void_val())
            }
            (ResourceKind::ByteAddressBuffer { .. }, "Load", [_, _]) => {
                self.st
                    .error(span, "not supported yet: Load<T> with a residency status");
                None
            }
            (ResourceKind::ByteAddressBuffer { .. }, "Load" | "Store", _) => {
                let want = if name == "Load" { 1 } else { 2 };
                self.arg_count(name, args, want..=want, span)?;
                None
            }
            _ => {
                self.st.error(
                    span,
                    format!("not supported yet: template arguments on the method '{name}'"),
                );
                None
            }
        }
    }

    /// The value of type `ty` at byte address `addr` of the byte-address buffer `r`.
    pub fn raw_load(&mut self, r: &Resource, addr: Value, ty: &Ty, span: Span) -> Option<Value> {
        let mut at = addr;
        self.raw_load_at(r, &mut at, ty, span)
    }

    /// Stores `v` of type `ty` at byte address `addr` of the byte-address buffer `r`.
    pub fn raw_store(
        &mut self,
        r: &Resource,
        addr: Value,
        v: Value,
        ty: &Ty,
        span: Span,
    ) -> Option<()> {
        let mut at = addr;
        self.raw_store_at(r, &mut at, v, ty, span)
    }

    /// Loads a `ty` at `*at` and moves `*at` past it.
    fn raw_load_at(&mut self, r: &Resource, at: &mut Value, ty: &Ty, span: Span) -> Option<Value> {
        match ty {
            Ty::Scalar(s) => Some(self.raw_load_scalar(r, at, *s)),
            Ty::Vector(s, n) => {
                let comps: Vec<Value> = (0..*n).map(|_| self.raw_load_scalar(r, at, *s)).collect();
                Some(self.compose_scalars(ty, &comps))
            }
            Ty::Matrix(s, rows, cols) => {
                let stored: Vec<Value> = (0..rows * cols)
                    .map(|_| self.raw_load_scalar(r, at, *s))
                    .collect();
                let column_major = !self.st.opts.legacy_buffer_matrix_order;
                let mut comps = Vec::with_capacity(stored.len());
                for i in 0..*rows {
                    for j in 0..*cols {
                        let k = if column_major {
                            j * rows + i
                        } else {
                            i * cols + j
                        };
                        comps.push(stored[k as usize]);
                    }
                }
                Some(self.compose_scalars(ty, &comps))
            }
            Ty::Array(e, n) => {
                let mut parts = Vec::with_capacity(*n as usize);
                for _ in 0..*n {
                    parts.push(self.raw_load_at(r, at, e, span)?);
                }
                let t = self.ty(ty);
                Some(self.f.composite_construct(t, &parts))
            }
            Ty::Struct(i) => {
                let (fields, offsets, width) = self.raw_struct(*i, ty)?;
                let base = *at;
                let mut parts = Vec::with_capacity(fields.len());
                for (f, off) in fields.iter().zip(offsets) {
                    let mut a = self.byte_offset(base, off);
                    parts.push(self.raw_load_at(r, &mut a, f, span)?);
                }
                *at = self.byte_offset(base, width);
                let t = self.ty(ty);
                Some(self.f.composite_construct(t, &parts))
            }
            _ => {
                self.st.error(
                    span,
                    format!(
                        "not supported yet: Load<{}> of a byte-address buffer",
                        self.show(ty)
                    ),
                );
                None
            }
        }
    }

    /// Stores `v` of type `ty` at `*at` and moves `*at` past it.
    fn raw_store_at(
        &mut self,
        r: &Resource,
        at: &mut Value,
        v: Value,
        ty: &Ty,
        span: Span,
    ) -> Option<()> {
        match ty {
            Ty::Scalar(s) => self.raw_store_scalar(r, at, v, *s),
            Ty::Vector(s, n) => {
                let st = self.ty(&Ty::Scalar(*s));
                for k in 0..*n {
                    let x = self.f.composite_extract(st, v, vec![k]);
                    self.raw_store_scalar(r, at, x, *s);
                }
            }
            Ty::Matrix(s, rows, cols) => {
                let st = self.ty(&Ty::Scalar(*s));
                let column_major = !self.st.opts.legacy_buffer_matrix_order;
                let (outer, inner) = if column_major {
                    (*cols, *rows)
                } else {
                    (*rows, *cols)
                };
                for a in 0..outer {
                    for b in 0..inner {
                        let (i, j) = if column_major { (b, a) } else { (a, b) };
                        let x = self.f.composite_extract(st, v, vec![i, j]);
                        self.raw_store_scalar(r, at, x, *s);
                    }
                }
            }
            Ty::Array(e, n) => {
                let et = self.ty(e);
                for k in 0..*n {
                    let x = self.f.composite_extract(et, v, vec![k]);
                    self.raw_store_at(r, at, x, e, span)?;
                }
            }
            Ty::Struct(i) => {
                let (fields, offsets, width) = self.raw_struct(*i, ty)?;
                let base = *at;
                for (k, (f, off)) in fields.iter().zip(offsets).enumerate() {
                    let ft = self.ty(f);
                    let x = self.f.composite_extract(ft, v, vec![k as u32]);
                    let mut a = self.byte_offset(base, off);
                    self.raw_store_at(r, &mut a, x, f, span)?;
                }
                *at = self.byte_offset(base, width);
            }
            _ => {
                self.st.error(
                    span,
                    format!(
                        "not supported yet: Store<{}> to a byte-address buffer",
                        self.show(ty)
                    ),
                );
                return None;
            }
        }
        Some(())
    }

    /// A struct's field types, their offsets in a structured buffer, and the bytes the struct
    /// takes in a sequence (its size rounded up to its alignment).
    fn raw_struct(&mut self, i: usize, ty: &Ty) -> Option<(Vec<Ty>, Vec<u32>, u32)> {
        let rule = self.st.sbuffer_rule();
        let def = self.st.types.structs.get(i)?;
        let offsets = struct_offsets(def, rule, &self.st.types.structs);
        let fields = def.fields.iter().map(|f| f.ty.clone()).collect();
        let (size, align) = size_align(ty, rule, false, &self.st.types.structs);
        Some((fields, offsets, size.div_ceil(align.max(1)) * align.max(1)))
    }

    /// `base + bytes` (just `base` for 0).
    fn byte_offset(&mut self, base: Value, bytes: u32) -> Value {
        if bytes == 0 {
            return base;
        }
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let c = self.u32c(bytes);
        self.f.i_add(ut, base, c)
    }

    /// A pointer to the word of a RWByteAddressBuffer holding byte `at`.
    pub(super) fn word_ptr_at(&mut self, r: &Resource, at: Value) -> Value {
        self.word_ptr(r, at, true)
    }

    /// The word holding byte `at`.
    fn word_ptr(&mut self, r: &Resource, at: Value, rw: bool) -> Value {
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let two = self.u32c(2);
        let index = self.f.shift_right_logical(ut, at, two);
        self.word_place(r, index, rw).ptr
    }

    /// `(at % 4) * 8`: where byte `at` starts in its word.
    fn bit_offset(&mut self, at: Value) -> Value {
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let four = self.u32c(4);
        let three = self.u32c(3);
        let byte = self.f.u_mod(ut, at, four);
        self.f.shift_left_logical(ut, byte, three)
    }

    /// Loads one scalar at `*at` and moves `*at` past it.
    fn raw_load_scalar(&mut self, r: &Resource, at: &mut Value, s: Scalar) -> Value {
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let t = self.ty(&Ty::Scalar(s));
        let ptr = self.word_ptr(r, *at, false);
        let word = self.f.load(ut, ptr, None);
        let v = match s.bits() {
            16 => {
                let shift = self.bit_offset(*at);
                let half = self.f.shift_right_logical(ut, word, shift);
                let u16t = self.ty(&Ty::Scalar(Scalar::UInt16));
                let h = self.f.u_convert(u16t, half);
                if s == Scalar::UInt16 {
                    h
                } else {
                    self.f.bitcast(t, h)
                }
            }
            64 => {
                let next = self.byte_offset(*at, 4);
                let ptr = self.word_ptr(r, next, false);
                let high = self.f.load(ut, ptr, None);
                let pair_t = self.ty(&Ty::Vector(Scalar::UInt, 2));
                let pair = self.f.composite_construct(pair_t, &[word, high]);
                self.f.bitcast(t, pair)
            }
            _ => match s {
                Scalar::UInt => word,
                Scalar::Bool => {
                    let zero = self.u32c(0);
                    self.f.i_not_equal(t, word, zero)
                }
                _ => self.f.bitcast(t, word),
            },
        };
        let width = if s == Scalar::Bool { 4 } else { s.bits() / 8 };
        *at = self.byte_offset(*at, width);
        v
    }

    /// Stores one scalar at `*at` (a 16-bit one keeps the other half of its word) and moves
    /// `*at` past it.
    fn raw_store_scalar(&mut self, r: &Resource, at: &mut Value, v: Value, s: Scalar) {
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        let ptr = self.word_ptr(r, *at, true);
        match s.bits() {
            16 => {
                let u16t = self.ty(&Ty::Scalar(Scalar::UInt16));
                let h = if s == Scalar::UInt16 {
                    v
                } else {
                    self.f.bitcast(u16t, v)
                };
                let wide = self.f.u_convert(ut, h);
                let shift = self.bit_offset(*at);
                let placed = self.f.shift_left_logical(ut, wide, shift);
                let sixteen = self.u32c(16);
                let keep_shift = self.f.i_sub(ut, sixteen, shift);
                let ffff = self.u32c(0xffff);
                let keep = self.f.shift_left_logical(ut, ffff, keep_shift);
                let old = self.f.load(ut, ptr, None);
                let kept = self.f.bitwise_and(ut, old, keep);
                let word = self.f.bitwise_or(ut, kept, placed);
                self.f.store(ptr, word, None);
            }
            64 => {
                let pair_t = self.ty(&Ty::Vector(Scalar::UInt, 2));
                let pair = self.f.bitcast(pair_t, v);
                let low = self.f.composite_extract(ut, pair, vec![0]);
                let high = self.f.composite_extract(ut, pair, vec![1]);
                self.f.store(ptr, low, None);
                let next = self.byte_offset(*at, 4);
                let ptr = self.word_ptr(r, next, true);
                self.f.store(ptr, high, None);
            }
            _ => {
                let word = match s {
                    Scalar::UInt => v,
                    Scalar::Bool => {
                        let one = self.u32c(1);
                        let zero = self.u32c(0);
                        self.f.select(ut, v, one, zero)
                    }
                    _ => self.f.bitcast(ut, v),
                };
                self.f.store(ptr, word, None);
            }
        }
        let width = if s == Scalar::Bool { 4 } else { s.bits() / 8 };
        *at = self.byte_offset(*at, width);
    }
}
