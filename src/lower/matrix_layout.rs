//! Matrices laid out in memory differently from their values.
//!
//! A matrix value is an array of column vectors, `[C x <R x T>]`, and so is a matrix in memory
//! when its `MatrixStride` is the column's LLVM size and it is column-major. A struct member
//! that is a matrix (or an array of matrices, at any depth) decorated `RowMajor`, or whose
//! `MatrixStride` is larger than the vector it strides over (std140's `mat2`: columns of 8
//! bytes 16 apart), has a [`MatLayout`] instead: in memory it is an array of *major vectors*
//! (columns, or rows when `RowMajor`), each wrapped in `<{ <k x T>, [pad x i8] }>` when the
//! stride is larger than the vector, and arrays of such matrices follow their own
//! `ArrayStride`. Struct values keep the memory form of such members (a struct is loaded and
//! stored as a whole); values convert ([`Lowerer::value_form`], [`Lowerer::memory_form`]) where a
//! member is extracted, inserted or constructed, and where a load or store goes through an
//! access chain that ends inside the member (`FnCx::layout_ptrs`).

use super::error::{LowerError, Result};
use super::Lowerer;
use crate::ir::{Handle, Type};
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, IntValue};

/// How a matrix member is laid out in memory, when that differs from its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MatLayout {
    /// `RowMajor`: stored as rows.
    pub row_major: bool,
    /// Bytes from one major vector (column, or row) to the next.
    pub stride: u32,
}

/// A pointer into memory laid out by a [`MatLayout`]: the LLVM pointer addresses an object of
/// SPIR-V type `ty` in that layout (a matrix or an array of them). `column`: the pointer is to
/// that column of the `RowMajor` matrix `ty` (whose components are not adjacent).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayoutPtr<'ctx> {
    pub ty: Handle<Type>,
    pub lay: MatLayout,
    pub column: Option<IntValue<'ctx>>,
}

/// The memory form of one matrix: its major vector type, the vector count, and the padding
/// after each vector (0: not wrapped).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatMem<'ctx> {
    pub vector: BasicTypeEnum<'ctx>,
    pub count: u32,
    pub pad: u32,
}

impl<'ctx> MatMem<'ctx> {
    /// The LLVM type of one major vector in memory.
    pub fn slot(&self, cx: &'ctx inkwell::context::Context) -> BasicTypeEnum<'ctx> {
        if self.pad == 0 {
            self.vector
        } else {
            let pad = cx.i8_type().array_type(self.pad);
            cx.struct_type(&[self.vector, pad.into()], true).into()
        }
    }
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The memory layout of a struct member's matrices (the member may be an array of them):
    /// `None` when it is the value's layout (column-major, columns as far apart as LLVM puts
    /// them) or the member holds no matrix.
    pub(crate) fn member_layout(&mut self, m: &crate::ir::Member) -> Result<Option<MatLayout>> {
        let mut t = m.ty;
        loop {
            match self.spv_type(t)? {
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => t = *element,
                Type::Matrix { .. } => break,
                _ => return Ok(None),
            }
        }
        let row_major = m.is_row_major();
        let natural = self.major_vector(t, row_major)?;
        let natural = self.td.get_abi_size(&natural);
        let stride = m.matrix_stride().map_or(natural, u64::from);
        if stride < natural {
            return Err(LowerError::unsupported(format!(
                "a MatrixStride of {stride} for {} of {natural} bytes",
                if row_major { "rows" } else { "columns" }
            )));
        }
        if !row_major && stride == natural {
            return Ok(None);
        }
        Ok(Some(MatLayout {
            row_major,
            stride: stride as u32,
        }))
    }

    /// The vector a matrix of type `t` is stored as: its column, or (`row_major`) a row.
    fn major_vector(&mut self, t: Handle<Type>, row_major: bool) -> Result<BasicTypeEnum<'ctx>> {
        let Type::Matrix { column, count } = self.spv_type(t)?.clone() else {
            return Err(LowerError::malformed("a matrix type was expected"));
        };
        // The matrix type itself first: it rejects column counts LLVM has no vector for.
        self.ty(t)?;
        let col = self.basic(column)?;
        if !row_major {
            return Ok(col);
        }
        let BasicTypeEnum::VectorType(cv) = col else {
            return Err(LowerError::malformed("a matrix of non-vectors"));
        };
        Ok(match cv.get_element_type() {
            BasicTypeEnum::FloatType(ft) => ft.vec_type(count).into(),
            BasicTypeEnum::IntType(it) => it.vec_type(count).into(),
            _ => return Err(LowerError::malformed("a matrix of non-scalars")),
        })
    }

    /// The memory form of the matrix type `t` under `lay`.
    pub(crate) fn mat_mem(&mut self, t: Handle<Type>, lay: MatLayout) -> Result<MatMem<'ctx>> {
        let Type::Matrix { column, count } = self.spv_type(t)?.clone() else {
            return Err(LowerError::malformed("a matrix type was expected"));
        };
        let vector = self.major_vector(t, lay.row_major)?;
        let count = if lay.row_major {
            match self.basic(column)? {
                BasicTypeEnum::VectorType(cv) => cv.get_size(),
                _ => return Err(LowerError::malformed("a matrix of non-vectors")),
            }
        } else {
            count
        };
        let size = self.td.get_abi_size(&vector);
        let stride = u64::from(lay.stride);
        if stride < size {
            return Err(LowerError::unsupported(format!(
                "a MatrixStride of {stride} for vectors of {size} bytes"
            )));
        }
        Ok(MatMem {
            vector,
            count,
            pad: (stride - size) as u32,
        })
    }

    /// The LLVM type in memory of `t` (a matrix or an array of them) under `lay`, and whether
    /// an array's elements are wrapped in a padded struct (index them with an extra `0`).
    pub(crate) fn mem_type(
        &mut self,
        t: Handle<Type>,
        lay: MatLayout,
    ) -> Result<(BasicTypeEnum<'ctx>, bool)> {
        match self.spv_type(t)?.clone() {
            Type::Matrix { .. } => {
                let mm = self.mat_mem(t, lay)?;
                Ok((mm.slot(self.cx).array_type(mm.count).into(), false))
            }
            Type::Array {
                element,
                length,
                stride,
            } => {
                let n = self.array_length(length)?;
                self.mem_array(element, n, stride, lay)
            }
            Type::RuntimeArray { element, stride } => self.mem_array(element, 0, stride, lay),
            _ => Err(LowerError::malformed(
                "a matrix layout on a type that holds no matrix",
            )),
        }
    }

    fn mem_array(
        &mut self,
        element: Handle<Type>,
        n: u32,
        stride: Option<u32>,
        lay: MatLayout,
    ) -> Result<(BasicTypeEnum<'ctx>, bool)> {
        let (e, _) = self.mem_type(element, lay)?;
        let size = self.td.get_abi_size(&e);
        let stride = stride.map_or(size, u64::from);
        if stride < size {
            return Err(LowerError::unsupported(format!(
                "an ArrayStride of {stride} below the element's size {size}"
            )));
        }
        if stride == size {
            return Ok((e.array_type(n).into(), false));
        }
        let pad = self.cx.i8_type().array_type((stride - size) as u32);
        let st = self.cx.struct_type(&[e, pad.into()], true);
        Ok((st.array_type(n).into(), true))
    }

    /// A value of SPIR-V type `t` (a matrix or an array of them) in its memory form under
    /// `lay`, from its value form.
    pub(crate) fn memory_form(
        &mut self,
        v: BasicValueEnum<'ctx>,
        t: Handle<Type>,
        lay: MatLayout,
    ) -> Result<BasicValueEnum<'ctx>> {
        self.convert(v, t, lay, true)
    }

    /// A value of SPIR-V type `t` in its value form, from its memory form under `lay`.
    pub(crate) fn value_form(
        &mut self,
        v: BasicValueEnum<'ctx>,
        t: Handle<Type>,
        lay: MatLayout,
    ) -> Result<BasicValueEnum<'ctx>> {
        self.convert(v, t, lay, false)
    }

    fn convert(
        &mut self,
        v: BasicValueEnum<'ctx>,
        t: Handle<Type>,
        lay: MatLayout,
        to_mem: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        let cx = self.cx;
        let value_info = self.ty(t)?;
        let value_ty = value_info
            .llvm
            .ok_or_else(|| LowerError::malformed("a matrix layout on void"))?;
        let (mem_ty, mem_padded) = self.mem_type(t, lay)?;
        let (from_padded, to_ty, to_padded) = if to_mem {
            (value_info.padded_elem, mem_ty, mem_padded)
        } else {
            (mem_padded, value_ty, value_info.padded_elem)
        };
        let BasicTypeEnum::ArrayType(to_at) = to_ty else {
            return Err(LowerError::malformed("a matrix layout on a non-array"));
        };
        let n = to_at.len();
        match self.spv_type(t)?.clone() {
            Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                let mut out = super::llvm::undef(to_ty);
                for i in 0..n {
                    let mut e = self.b.build_extract_value(v.into_array_value(), i, "")?;
                    if from_padded {
                        e = self.b.build_extract_value(e.into_struct_value(), 0, "")?;
                    }
                    let e = self.convert(e, element, lay, to_mem)?;
                    let path: &[u32] = if to_padded { &[i, 0] } else { &[i] };
                    out = super::ops::composite::insert_path(cx, &self.b, out, e, path)?;
                }
                Ok(out)
            }
            Type::Matrix { .. } => {
                let mm = self.mat_mem(t, lay)?;
                let padded = mm.pad != 0;
                // Both forms are arrays of vectors; the memory form may wrap them, and holds
                // rows when RowMajor.
                let mem_bare: BasicTypeEnum<'ctx> = mm.vector.array_type(mm.count).into();
                let (src_bare, dst_bare) = if to_mem {
                    (value_ty, mem_bare)
                } else {
                    (mem_bare, value_ty)
                };
                let BasicTypeEnum::ArrayType(src_at) = src_bare else {
                    return Err(LowerError::malformed("a matrix of non-arrays"));
                };
                let mut bare = super::llvm::undef(src_bare);
                for i in 0..src_at.len() {
                    let mut e = self.b.build_extract_value(v.into_array_value(), i, "")?;
                    if padded && !to_mem {
                        e = self.b.build_extract_value(e.into_struct_value(), 0, "")?;
                    }
                    bare = super::ops::composite::insert_path(cx, &self.b, bare, e, &[i])?;
                }
                let oriented = if lay.row_major {
                    super::ops::matrix::transpose_to(cx, &self.b, bare, dst_bare)?
                } else {
                    bare
                };
                if !(padded && to_mem) {
                    return Ok(oriented);
                }
                let mut out = super::llvm::undef(to_ty);
                for i in 0..n {
                    let e = self
                        .b
                        .build_extract_value(oriented.into_array_value(), i, "")?;
                    out = super::ops::composite::insert_path(cx, &self.b, out, e, &[i, 0])?;
                }
                Ok(out)
            }
            _ => Err(LowerError::malformed(
                "a matrix layout on a type that holds no matrix",
            )),
        }
    }

    /// Stores the value `v` of SPIR-V type `t` (a matrix or an array of them) at `p` in its
    /// memory form under `lay`, one major vector at a time (the padding is left alone, as a
    /// Vulkan implementation leaves it). Returns the stores.
    pub(crate) fn store_layout(
        &mut self,
        p: inkwell::values::PointerValue<'ctx>,
        v: BasicValueEnum<'ctx>,
        t: Handle<Type>,
        lay: MatLayout,
    ) -> Result<Vec<inkwell::values::InstructionValue<'ctx>>> {
        let cx = self.cx;
        let i32t = cx.i32_type();
        let (mem_ty, mem_padded) = self.mem_type(t, lay)?;
        let mut out = Vec::new();
        match self.spv_type(t)?.clone() {
            Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                let value_padded = self.ty(t)?.padded_elem;
                let BasicTypeEnum::ArrayType(at) = mem_ty else {
                    return Err(LowerError::malformed("a matrix layout on a non-array"));
                };
                for i in 0..at.len() {
                    let mut e = self.b.build_extract_value(v.into_array_value(), i, "")?;
                    if value_padded {
                        e = self.b.build_extract_value(e.into_struct_value(), 0, "")?;
                    }
                    let mut idx = vec![i32t.const_zero(), i32t.const_int(i.into(), false)];
                    if mem_padded {
                        idx.push(i32t.const_zero());
                    }
                    // SAFETY: an address inside the array.
                    let ep = unsafe { self.b.build_gep(mem_ty, p, &idx, "")? };
                    out.extend(self.store_layout(ep, e, element, lay)?);
                }
            }
            Type::Matrix { .. } => {
                let mm = self.mat_mem(t, lay)?;
                let bare = if lay.row_major {
                    let rows = mm.vector.array_type(mm.count).into();
                    super::ops::matrix::transpose_to(cx, &self.b, v, rows)?
                } else {
                    v
                };
                for i in 0..mm.count {
                    let e = self.b.build_extract_value(bare.into_array_value(), i, "")?;
                    let mut idx = vec![i32t.const_zero(), i32t.const_int(i.into(), false)];
                    if mm.pad != 0 {
                        idx.push(i32t.const_zero());
                    }
                    // SAFETY: an address inside the matrix.
                    let ep = unsafe { self.b.build_gep(mem_ty, p, &idx, "")? };
                    out.push(super::llvm::store(&self.b, &self.td, ep, e)?);
                }
            }
            _ => {
                return Err(LowerError::malformed(
                    "a matrix layout on a type that holds no matrix",
                ))
            }
        }
        Ok(out)
    }
}
