//! Buffer layouts as DXC computes them (`AlignmentSizeCalculator`): by default "relaxed" std140
//! for constant buffers and std430 for structured and byte-address buffers (vectors need only
//! their component's alignment unless they would straddle a 16-byte boundary improperly;
//! VK_KHR_relaxed_block_layout); `-fvk-use-gl-layout` makes them strict, `-fvk-use-scalar-layout`
//! aligns everything to its scalar component (VK_EXT_scalar_block_layout), and
//! `-fvk-use-dx-layout` packs constant buffers as fxc does and structured buffers tightly.

use super::types::{FieldOffset, StructDef, Ty};
use crate::hlsl::BufferLayout;

/// Which layout rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutRule {
    /// No explicit layout (Function, Private, Workgroup, Input/Output variables).
    None,
    /// Relaxed std140: cbuffers, `ConstantBuffer<T>`, `$Globals` (the default).
    Std140,
    /// Relaxed std430: structured and byte-address buffers, push constants (the default).
    Std430,
    /// Strict std140 (`-fvk-use-gl-layout`).
    GlStd140,
    /// Strict std430 (`-fvk-use-gl-layout`).
    GlStd430,
    /// VK_EXT_scalar_block_layout (`-fvk-use-scalar-layout`).
    Scalar,
    /// fxc's constant-buffer packing (`-fvk-use-dx-layout`): 16-byte registers.
    FxcCBuffer,
    /// fxc's structured-buffer packing (`-fvk-use-dx-layout`): tight, as scalar layout.
    FxcSBuffer,
}

impl LayoutRule {
    /// The rule for constant buffers (`cbuffer`, `ConstantBuffer<T>`, `$Globals`).
    pub fn cbuffer(layout: BufferLayout) -> LayoutRule {
        match layout {
            BufferLayout::Relaxed => LayoutRule::Std140,
            BufferLayout::Gl => LayoutRule::GlStd140,
            BufferLayout::Scalar => LayoutRule::Scalar,
            BufferLayout::Dx => LayoutRule::FxcCBuffer,
        }
    }

    /// The rule for structured and byte-address buffers and push constants.
    pub fn sbuffer(layout: BufferLayout) -> LayoutRule {
        match layout {
            BufferLayout::Relaxed => LayoutRule::Std430,
            BufferLayout::Gl => LayoutRule::GlStd430,
            BufferLayout::Scalar => LayoutRule::Scalar,
            BufferLayout::Dx => LayoutRule::FxcSBuffer,
        }
    }

    /// Arrays, structs and matrix vectors start on 16 bytes (std140 and fxc cbuffers).
    fn rounds_to_16(self) -> bool {
        matches!(
            self,
            LayoutRule::Std140 | LayoutRule::GlStd140 | LayoutRule::FxcCBuffer
        )
    }

    /// Vectors are placed by their component's alignment unless they straddle 16 bytes.
    fn relaxed(self) -> bool {
        matches!(
            self,
            LayoutRule::Std140 | LayoutRule::Std430 | LayoutRule::FxcCBuffer
        )
    }

    /// Vectors, matrices and arrays are aligned as their scalar component, sized tightly.
    fn tight(self) -> bool {
        matches!(self, LayoutRule::Scalar | LayoutRule::FxcSBuffer)
    }
}

fn round_up(v: u32, align: u32) -> u32 {
    if align == 0 {
        v
    } else {
        v.div_ceil(align).saturating_mul(align)
    }
}

/// Whether a vector of `size` bytes at `offset` straddles a 16-byte boundary improperly.
fn improper_straddle(offset: u32, size: u32) -> bool {
    if size <= 16 {
        offset / 16 != (offset + size - 1) / 16
    } else {
        !offset.is_multiple_of(16)
    }
}

/// Size and alignment of `ty` under `rule` (`row_major` for matrices and arrays of matrices).
pub fn size_align(ty: &Ty, rule: LayoutRule, row_major: bool, structs: &[StructDef]) -> (u32, u32) {
    match ty {
        Ty::Scalar(s) => {
            let b = s.bits() / 8;
            (b, b)
        }
        Ty::Vector(s, n) => {
            // The standard alignment (what structs and array strides inherit); a vector's own
            // placement is relaxed in `struct_offsets`.
            let b = s.bits() / 8;
            let align = if rule.tight() || rule == LayoutRule::FxcCBuffer {
                b
            } else if *n == 2 {
                2 * b
            } else {
                4 * b
            };
            (b * n, align)
        }
        Ty::Matrix(s, ..) => {
            // Aligned as its strided vectors (an array of them): the stride is the vector's
            // alignment, rounded to 16 in std140 (32 for `double3` columns). A non-float
            // matrix is an array of row vectors, as DXC emits it. fxc packs the last vector
            // without padding; scalar layouts pack them all tightly.
            let (stride, count) = matrix_stride(ty, rule, row_major);
            let b = s.bits() / 8;
            if rule.tight() {
                (stride.saturating_mul(count), b)
            } else if rule == LayoutRule::FxcCBuffer && count > 1 {
                let len = stride_len(ty, row_major);
                (16 * (count - 1) + len * b, 16)
            } else {
                (stride.saturating_mul(count), stride)
            }
        }
        Ty::Array(e, n) => {
            let stride = array_stride(e, rule, row_major, structs);
            let (es, ea) = size_align(e, rule, row_major, structs);
            if rule.tight() {
                return (stride.saturating_mul(*n), ea);
            }
            let align = if rule.rounds_to_16() {
                round_up(ea, 16)
            } else {
                ea
            };
            if rule == LayoutRule::FxcCBuffer {
                // The last element is not padded.
                let size = match n.checked_sub(1) {
                    Some(k) => es.saturating_add(stride.saturating_mul(k)),
                    None => 0,
                };
                return (size, align);
            }
            (stride.saturating_mul(*n), align)
        }
        Ty::Struct(i) => {
            let Some(def) = structs.get(*i) else {
                return (0, 1);
            };
            let offsets = struct_offsets(def, rule, structs);
            let mut align = 1;
            let mut end = 0;
            for (f, off) in def.fields.iter().zip(&offsets) {
                let (s, a) = size_align(&f.ty, rule, f.row_major, structs);
                align = align.max(a);
                end = end.max(off.saturating_add(s));
            }
            if rule.rounds_to_16() {
                align = round_up(align, 16);
            }
            if rule == LayoutRule::FxcCBuffer {
                // fxc does not pad a struct's end: what follows may use the rest.
                return (end, align);
            }
            (round_up(end, align), align)
        }
        Ty::Void | Ty::Resource(..) => (0, 1),
    }
}

/// The number of components in each strided vector of a matrix.
fn stride_len(ty: &Ty, row_major: bool) -> u32 {
    match ty {
        Ty::Matrix(s, _, c) if row_major || !s.is_float() => *c,
        Ty::Matrix(_, r, _) => *r,
        _ => 0,
    }
}

/// `(MatrixStride, number of strided vectors)` of a matrix: an HLSL column-major `RxC` matrix
/// stores C vectors of R components (SPIR-V `RowMajor`), a row-major one R vectors of C.
pub fn matrix_stride(ty: &Ty, rule: LayoutRule, row_major: bool) -> (u32, u32) {
    let Ty::Matrix(s, r, c) = ty else {
        return (0, 0);
    };
    let row_major = row_major || !s.is_float();
    let (len, count) = if row_major { (*c, *r) } else { (*r, *c) };
    let b = s.bits() / 8;
    if rule.tight() {
        return (len * b, count);
    }
    let vec_align = if len == 2 { 2 * b } else { 4 * b };
    let stride = if rule.rounds_to_16() {
        round_up(vec_align, 16)
    } else {
        vec_align
    };
    (stride, count)
}

/// The `ArrayStride` of an array of `elem`.
pub fn array_stride(elem: &Ty, rule: LayoutRule, row_major: bool, structs: &[StructDef]) -> u32 {
    let (s, a) = size_align(elem, rule, row_major, structs);
    // An empty struct takes one byte, as in C++ (DXC's clang): its array stride is one
    // alignment unit (16 in std140), never 0.
    let s = if s == 0 && matches!(elem, Ty::Struct(_)) && rule != LayoutRule::None {
        1
    } else {
        s
    };
    if rule.tight() {
        return s;
    }
    let a = if rule.rounds_to_16() {
        round_up(a, 16)
    } else {
        a
    };
    round_up(s, a)
}

/// The first field of `def` (or of a struct inside it) that `[[vk::offset]]` or `packoffset`
/// places off the
/// alignment `rule` needs: its name, offset and that alignment (a vector's component size
/// under the relaxed rules; a vector there must not straddle 16 bytes either, which the
/// alignment shown then is).
pub fn misaligned_offset(
    def: &StructDef,
    rule: LayoutRule,
    structs: &[StructDef],
) -> Option<(String, u32, u32)> {
    fn inner(ty: &Ty) -> Option<usize> {
        match ty {
            Ty::Struct(i) => Some(*i),
            Ty::Array(e, _) => inner(e),
            _ => None,
        }
    }
    let mut depth = 0;
    let mut stack = vec![def];
    while let Some(d) = stack.pop() {
        depth += 1;
        if depth > 64 {
            return None;
        }
        for f in &d.fields {
            if let Some(FieldOffset::At(off) | FieldOffset::Packed(off)) = f.offset {
                let (size, align) = size_align(&f.ty, rule, f.row_major, structs);
                let need = match (&f.ty, rule.relaxed()) {
                    (Ty::Vector(s, _), true) if s.bits() <= 32 => {
                        if improper_straddle(off, size) {
                            16
                        } else {
                            s.bits() / 8
                        }
                    }
                    _ => align,
                };
                if need > 0 && off % need != 0 {
                    return Some((f.name.clone(), off, need));
                }
            }
            if let Some(s) = inner(&f.ty).and_then(|i| structs.get(i)) {
                stack.push(s);
            }
        }
    }
    None
}

/// The member offsets of a struct under `rule`.
pub fn struct_offsets(def: &StructDef, rule: LayoutRule, structs: &[StructDef]) -> Vec<u32> {
    placed_offsets(def, rule, structs, &mut |_, _| {})
}

/// The members placed by `packoffset` below where they would otherwise go (so over the
/// members before them), as DXC reports them: their indices.
pub fn packoffset_overlaps(def: &StructDef, rule: LayoutRule, structs: &[StructDef]) -> Vec<usize> {
    let mut bad = Vec::new();
    placed_offsets(def, rule, structs, &mut |k, natural| {
        if let Some(FieldOffset::Packed(off)) = def.fields[k].offset {
            if off < natural {
                bad.push(k);
            }
        }
    });
    bad
}

/// [`struct_offsets`], telling `explicit` each member placed explicitly and where it would
/// have gone otherwise.
fn placed_offsets(
    def: &StructDef,
    rule: LayoutRule,
    structs: &[StructDef],
    explicit: &mut dyn FnMut(usize, u32),
) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(def.fields.len());
    // Fields without an offset of their own follow the last byte of those placed by
    // `register(cN)`, and the field before them.
    let mut next = def
        .fields
        .iter()
        .filter_map(|f| match f.offset {
            Some(FieldOffset::Placed(o)) => {
                let (size, _) = size_align(&f.ty, rule, f.row_major, structs);
                Some(o.saturating_add(size))
            }
            _ => None,
        })
        .max()
        .unwrap_or(0);
    for (k, f) in def.fields.iter().enumerate() {
        let (size, align) = size_align(&f.ty, rule, f.row_major, structs);
        if let Some(FieldOffset::Placed(off)) = f.offset {
            offsets.push(off);
            continue;
        }
        let mut off = round_up(next, align);
        if let (true, Ty::Vector(s, _)) = (rule.relaxed(), &f.ty) {
            // Relaxed (DXC's rule): a vector of components up to 4 bytes needs only its
            // component's alignment; a 64-bit one keeps its base alignment (32 for a
            // `double3`). Either moves to 16 if it would straddle a 16-byte boundary.
            if s.bits() <= 32 {
                off = round_up(next, s.bits() / 8);
            }
            if improper_straddle(off, size) {
                off = round_up(off, 16);
            }
        }
        if let Some(FieldOffset::At(at) | FieldOffset::Packed(at)) = f.offset {
            explicit(k, off);
            off = at;
        }
        offsets.push(off);
        next = off.saturating_add(size);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hlsl::sema::types::{Field, Interp, Scalar};

    fn field(name: &str, ty: Ty) -> Field {
        Field {
            name: name.into(),
            ty,
            row_major: false,
            semantic: None,
            interp: Interp::default(),
            relaxed: false,
            row_depth: None,
            location: None,
            index: None,
            builtin: None,
            offset: None,
        }
    }

    #[test]
    fn relaxed_std140_packs_a_float3_after_a_float() {
        let s = StructDef {
            name: "S".into(),
            fields: vec![
                field("a", Ty::Scalar(Scalar::Float)),
                field("b", Ty::Vector(Scalar::Float, 3)),
                field("c", Ty::Vector(Scalar::Float, 2)),
                field("d", Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), 2)),
                field("e", Ty::Scalar(Scalar::Float)),
            ],
            bitfields: Vec::new(),
            origin: None,
        };
        let offs = struct_offsets(&s, LayoutRule::Std140, &[]);
        // float3 fits 4..16; the array starts on 16 and takes 2 × 16 bytes.
        assert_eq!(offs, vec![0, 4, 16, 32, 64]);
        let offs = struct_offsets(&s, LayoutRule::Std430, &[]);
        assert_eq!(offs, vec![0, 4, 16, 24, 32]);
    }

    #[test]
    fn strict_scalar_and_fxc_rules() {
        let s = StructDef {
            name: "S".into(),
            fields: vec![
                field("a", Ty::Scalar(Scalar::Float)),
                field("b", Ty::Vector(Scalar::Float, 3)),
                field("c", Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), 2)),
                field("d", Ty::Scalar(Scalar::Float)),
            ],
            bitfields: Vec::new(),
            origin: None,
        };
        assert_eq!(
            struct_offsets(&s, LayoutRule::GlStd140, &[]),
            vec![0, 16, 32, 64]
        );
        assert_eq!(
            struct_offsets(&s, LayoutRule::GlStd430, &[]),
            vec![0, 16, 28, 36]
        );
        assert_eq!(
            struct_offsets(&s, LayoutRule::Scalar, &[]),
            vec![0, 4, 16, 24]
        );
        // fxc: the array's last element is not padded, so `d` shares its register.
        assert_eq!(
            struct_offsets(&s, LayoutRule::FxcCBuffer, &[]),
            vec![0, 4, 16, 36]
        );
        let m = Ty::Matrix(Scalar::Float, 2, 3);
        // Column-major 2x3: three columns of two; fxc does not pad the last one.
        assert_eq!(size_align(&m, LayoutRule::FxcCBuffer, false, &[]), (40, 16));
        assert_eq!(size_align(&m, LayoutRule::FxcSBuffer, false, &[]), (24, 4));
        assert_eq!(matrix_stride(&m, LayoutRule::Scalar, false), (8, 3));
        let empty = StructDef {
            name: "E".into(),
            fields: Vec::new(),
            bitfields: Vec::new(),
            origin: None,
        };
        assert_eq!(
            size_align(&Ty::Struct(0), LayoutRule::Std140, false, &[empty]),
            (0, 16)
        );
    }

    #[test]
    fn matrices_stride_by_their_vectors() {
        let m = Ty::Matrix(Scalar::Float, 4, 4);
        assert_eq!(size_align(&m, LayoutRule::Std140, false, &[]), (64, 16));
        let m = Ty::Matrix(Scalar::Float, 2, 3);
        assert_eq!(matrix_stride(&m, LayoutRule::Std430, false), (8, 3));
        assert_eq!(matrix_stride(&m, LayoutRule::Std430, true), (16, 2));
    }
}
