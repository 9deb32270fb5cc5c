//! Buffer layouts as DXC computes them: "relaxed" std140 for constant buffers and std430 for
//! structured and byte-address buffers (vectors need only their component's alignment unless
//! they would straddle a 16-byte boundary improperly; VK_KHR_relaxed_block_layout).

use super::types::{StructDef, Ty};

/// Which layout rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutRule {
    /// No explicit layout (Function, Private, Workgroup, Input/Output variables).
    None,
    /// Relaxed std140: cbuffers, `ConstantBuffer<T>`, `$Globals`.
    Std140,
    /// Relaxed std430: structured and byte-address buffers, push constants.
    Std430,
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
            (b * n, if *n == 2 { 2 * b } else { 4 * b })
        }
        Ty::Matrix(..) => {
            // Aligned as its strided vectors (an array of them): the stride is the vector's
            // alignment, rounded to 16 in std140 (32 for `double3` columns). A non-float
            // matrix is an array of row vectors, as DXC emits it.
            let (stride, count) = matrix_stride(ty, rule, row_major);
            (stride.saturating_mul(count), stride)
        }
        Ty::Array(e, n) => {
            let stride = array_stride(e, rule, row_major, structs);
            let (_, ea) = size_align(e, rule, row_major, structs);
            let align = if rule == LayoutRule::Std140 {
                round_up(ea, 16)
            } else {
                ea
            };
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
            if rule == LayoutRule::Std140 {
                align = round_up(align, 16);
            }
            (round_up(end, align), align)
        }
        Ty::Void | Ty::Resource(..) => (0, 1),
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
    let vec_align = if len == 2 { 2 * b } else { 4 * b };
    let stride = if rule == LayoutRule::Std140 {
        round_up(vec_align, 16)
    } else {
        vec_align
    };
    (stride, count)
}

/// The `ArrayStride` of an array of `elem`.
pub fn array_stride(elem: &Ty, rule: LayoutRule, row_major: bool, structs: &[StructDef]) -> u32 {
    let (s, a) = size_align(elem, rule, row_major, structs);
    let a = if rule == LayoutRule::Std140 {
        round_up(a, 16)
    } else {
        a
    };
    round_up(s, a)
}

/// The member offsets of a struct under `rule`.
pub fn struct_offsets(def: &StructDef, rule: LayoutRule, structs: &[StructDef]) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(def.fields.len());
    let mut next = 0u32;
    for f in &def.fields {
        let (size, align) = size_align(&f.ty, rule, f.row_major, structs);
        let mut off = round_up(next, align);
        if let Ty::Vector(s, _) = f.ty {
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
        offsets.push(off);
        next = off.saturating_add(size);
        if matches!(f.ty, Ty::Struct(_) | Ty::Array(..) | Ty::Matrix(..)) {
            next = round_up(next, align);
        }
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
        };
        let offs = struct_offsets(&s, LayoutRule::Std140, &[]);
        // float3 fits 4..16; the array starts on 16 and takes 2 × 16 bytes.
        assert_eq!(offs, vec![0, 4, 16, 32, 64]);
        let offs = struct_offsets(&s, LayoutRule::Std430, &[]);
        assert_eq!(offs, vec![0, 4, 16, 24, 32]);
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
