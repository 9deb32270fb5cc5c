//! Types: SPIR-V types to LLVM types, with their layout.
//!
//! Scalars and vectors map directly (booleans to `i1`); every pointer, image, sampler and
//! other handle is an opaque `ptr` (in the spv-ir style, images, samplers, pipes, events and
//! the other opaque types are target extension types, [`super::spv_ir`]); arrays are `[N x T]` and runtime arrays `[0 x T]`, with the
//! element wrapped in `<{ T, [pad x i8] }>` when `ArrayStride` is larger than `T`'s size;
//! matrices are arrays of column vectors; structs whose `Offset`s are LLVM's natural layout are
//! plain structs, others are packed structs with explicit `[n x i8]` padding fields, and
//! structs without offsets are packed (as the MLIR conversion does), except in Kernel modules,
//! where they have C's natural layout unless `CPacked`. Matrix members laid out
//! otherwise than matrix values (`RowMajor`, padded columns) take their memory form from
//! [`super::matrix_layout`]. [`TypeInfo::fields`] maps
//! SPIR-V member indices to LLVM field indices.

use super::error::{LowerError, Result};
use super::Lowerer;
use crate::ir::{Handle, Type, Value};
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::AddressSpace;

/// An LLVM type with its layout.
#[derive(Clone, Debug)]
pub struct TypeInfo<'ctx> {
    /// The LLVM type; `None` for `void`.
    pub llvm: Option<BasicTypeEnum<'ctx>>,
    /// The allocation size in bytes (`None` when runtime-sized or void).
    pub size: Option<u64>,
    /// The ABI alignment in bytes.
    pub align: u64,
    /// Structs: the LLVM field index of each SPIR-V member.
    pub fields: Vec<u32>,
    /// Arrays: the element is wrapped in a padded struct (index it with an extra `0`).
    pub padded_elem: bool,
    /// Structs: the memory layout of each member that holds matrices laid out otherwise than
    /// their values (`RowMajor`, or a `MatrixStride` larger than the column), see
    /// [`super::matrix_layout`].
    pub mat_layout: Vec<Option<super::matrix_layout::MatLayout>>,
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The lowered type of `h`.
    pub(crate) fn ty(&mut self, h: Handle<Type>) -> Result<TypeInfo<'ctx>> {
        if let Some(t) = self.types.get(&h) {
            return Ok(t.clone());
        }
        let t = self.lower_type(h)?;
        self.types.insert(h, t.clone());
        Ok(t)
    }

    /// The LLVM type of `h`, which must not be `void`.
    pub(crate) fn basic(&mut self, h: Handle<Type>) -> Result<BasicTypeEnum<'ctx>> {
        self.ty(h)?
            .llvm
            .ok_or_else(|| LowerError::malformed("a value of type void"))
    }

    fn info(&self, t: BasicTypeEnum<'ctx>) -> TypeInfo<'ctx> {
        TypeInfo {
            llvm: Some(t),
            size: Some(self.td.get_abi_size(&t)),
            align: self.td.get_abi_alignment(&t).into(),
            fields: Vec::new(),
            padded_elem: false,
            mat_layout: Vec::new(),
        }
    }

    fn ir_type(&self, h: Handle<Type>) -> Result<&'a Type> {
        self.m
            .types
            .get(h)
            .ok_or_else(|| LowerError::malformed("a type handle out of range"))
    }

    fn lower_type(&mut self, h: Handle<Type>) -> Result<TypeInfo<'ctx>> {
        let cx = self.cx;
        let ptr = cx.ptr_type(AddressSpace::default());
        Ok(match self.ir_type(h)? {
            Type::Void => TypeInfo {
                llvm: None,
                size: None,
                align: 1,
                fields: Vec::new(),
                padded_elem: false,
                mat_layout: Vec::new(),
            },
            Type::Bool => self.info(cx.bool_type().into()),
            Type::Int { width, .. } => match width {
                8 | 16 | 32 | 64 => self.info(super::llvm::int_ty(cx, *width)?.into()),
                w => return Err(LowerError::unsupported(format!("{w}-bit integers"))),
            },
            Type::Float { width } => match width {
                16 => self.info(cx.f16_type().into()),
                32 => self.info(cx.f32_type().into()),
                64 => self.info(cx.f64_type().into()),
                w => return Err(LowerError::unsupported(format!("{w}-bit floats"))),
            },
            Type::Vector { component, count } => {
                let c = self.basic(*component)?;
                if !(2..=16).contains(count) {
                    return Err(LowerError::malformed(format!(
                        "a vector of {count} components"
                    )));
                }
                let v = match c {
                    BasicTypeEnum::IntType(t) => t.vec_type(*count),
                    BasicTypeEnum::FloatType(t) => t.vec_type(*count),
                    BasicTypeEnum::PointerType(t) => t.vec_type(*count),
                    _ => return Err(LowerError::malformed("a vector of non-scalars")),
                };
                self.info(v.into())
            }
            Type::Matrix { column, count } => {
                if !(2..=16).contains(count) {
                    return Err(LowerError::malformed(format!(
                        "a matrix of {count} columns"
                    )));
                }
                let c = self.basic(*column)?;
                self.info(c.array_type(*count).into())
            }
            Type::Array {
                element,
                length,
                stride,
            } => {
                let n = self.array_length(*length)?;
                self.array(*element, n, *stride)?
            }
            Type::RuntimeArray { element, stride } => {
                let mut t = self.array(*element, 0, *stride)?;
                t.size = None;
                t
            }
            Type::Struct(s) => {
                let mut t = self.structure(s)?;
                // A struct ending in a runtime array is runtime-sized.
                for m in &s.members {
                    if self.ty(m.ty)?.size.is_none() {
                        t.size = None;
                    }
                }
                t
            }
            Type::Pointer { storage_class, .. } if self.spv_ir() => {
                let a = super::spv_ir::addr_space(*storage_class);
                self.info(cx.ptr_type(AddressSpace::from(a)).into())
            }
            t if t.is_opaque_object() && self.spv_ir() => {
                let tt = self.spv_ir_target_type(t)?;
                self.info(tt)
            }
            Type::Pointer { .. }
            | Type::Image(_)
            | Type::SampledImage { .. }
            | Type::Sampler
            | Type::Event
            | Type::DeviceEvent
            | Type::ReserveId
            | Type::Queue
            | Type::Pipe { .. }
            | Type::PipeStorage
            | Type::NamedBarrier
            | Type::Opaque { .. } => self.info(ptr.into()),
            Type::Function { .. } => {
                return Err(LowerError::malformed(
                    "a function type used as a value type",
                ))
            }
            t @ Type::Other(_) if t.opaque_handle_name().is_some() => {
                if self.spv_ir() {
                    let tt = self.spv_ir_target_type(t)?;
                    self.info(tt)
                } else {
                    self.info(ptr.into())
                }
            }
            Type::Other(i) => {
                return Err(LowerError::unsupported(format!(
                    "the type Op{:?}",
                    i.opcode().map(|o| format!("{o:?}")).unwrap_or_default()
                )))
            }
        })
    }

    /// The length of an array type: a constant or specialization constant.
    pub(crate) fn array_length(&mut self, length: Value) -> Result<u32> {
        let v = self.module_value(length)?;
        match v {
            inkwell::values::BasicValueEnum::IntValue(i) => i
                .get_zero_extended_constant()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| LowerError::malformed("an array length that is not a constant")),
            _ => Err(LowerError::malformed(
                "an array length that is not an integer",
            )),
        }
    }

    fn array(
        &mut self,
        element: Handle<Type>,
        n: u32,
        stride: Option<u32>,
    ) -> Result<TypeInfo<'ctx>> {
        let e = self.ty(element)?;
        let et = e
            .llvm
            .ok_or_else(|| LowerError::malformed("an array of void"))?;
        let esize = e
            .size
            .ok_or_else(|| LowerError::unsupported("an array of runtime-sized elements"))?;
        let (elem, padded) = match stride.map(u64::from) {
            Some(s) if s > esize => {
                let pad = self.cx.i8_type().array_type((s - esize) as u32);
                let st = self.cx.struct_type(&[et, pad.into()], true);
                (st.as_basic_type_enum(), true)
            }
            // An array of RowMajor matrices may be strided more tightly than its values
            // (std430 `row_major mat2x3[]`: 24 bytes, columns of 16); such arrays are only in
            // memory as struct members, in their matrix layout (`matrix_layout`).
            Some(s) if s < esize && self.holds_matrix(element)? => (et, false),
            Some(s) if s < esize => {
                return Err(LowerError::unsupported(format!(
                    "an ArrayStride of {s} below the element's size {esize}"
                )))
            }
            _ => (et, false),
        };
        let mut t = self.info(elem.array_type(n).into());
        t.padded_elem = padded;
        Ok(t)
    }

    fn structure(&mut self, s: &crate::ir::StructType) -> Result<TypeInfo<'ctx>> {
        let mut layouts = Vec::with_capacity(s.members.len());
        for m in &s.members {
            layouts.push(self.member_layout(m)?);
        }
        let mut t = self.structure_layout(s, &layouts)?;
        t.mat_layout = layouts;
        Ok(t)
    }

    fn structure_layout(
        &mut self,
        s: &crate::ir::StructType,
        layouts: &[Option<super::matrix_layout::MatLayout>],
    ) -> Result<TypeInfo<'ctx>> {
        let mut members = Vec::with_capacity(s.members.len());
        for (m, lay) in s.members.iter().zip(layouts) {
            let t = self.ty(m.ty)?;
            let (lt, size) = match lay {
                Some(lay) => {
                    let (mt, _) = self.mem_type(m.ty, *lay)?;
                    (mt, t.size.map(|_| self.td.get_abi_size(&mt)))
                }
                None => (
                    t.llvm
                        .ok_or_else(|| LowerError::malformed("a struct member of type void"))?,
                    t.size,
                ),
            };
            members.push((lt, size, m.offset));
        }
        let tys: Vec<BasicTypeEnum<'ctx>> = members.iter().map(|m| m.0).collect();
        let all_offsets = !members.is_empty() && members.iter().all(|m| m.2.is_some());
        let packed_ctypes = s
            .decorations
            .iter()
            .any(|d| matches!(d, crate::grammar::Decoration::CPacked));
        // A Kernel module's struct without Offsets has C's natural layout (the reason SPIR-V
        // has `CPacked`): OpenCL hosts pass and store such structs with their padding. In
        // SPIR-V-friendly LLVM IR it is a named, unpacked struct (`%struct.S`), as the
        // translator writes it.
        let kernel = self.m.memory_model == crate::grammar::MemoryModel::OpenCL;
        if (self.spv_ir() || kernel) && members.iter().all(|m| m.2.is_none()) && !packed_ctypes {
            let st = match s.name.as_deref().filter(|n| !n.is_empty() && self.spv_ir()) {
                Some(n) => {
                    let st = self.cx.opaque_struct_type(n);
                    st.set_body(&tys, false);
                    st
                }
                None => self.cx.struct_type(&tys, false),
            };
            let mut t = self.info(st.into());
            t.fields = (0..members.len() as u32).collect();
            return Ok(t);
        }
        if !all_offsets || packed_ctypes {
            let st = self.cx.struct_type(&tys, true);
            let mut t = self.info(st.into());
            t.fields = (0..members.len() as u32).collect();
            return Ok(t);
        }
        // Natural layout when LLVM's matches every Offset.
        let natural = self.cx.struct_type(&tys, false);
        let is_natural = members
            .iter()
            .enumerate()
            .all(|(i, m)| self.td.offset_of_element(&natural, i as u32) == m.2.map(u64::from));
        if is_natural {
            let mut t = self.info(natural.into());
            t.fields = (0..members.len() as u32).collect();
            return Ok(t);
        }
        // Packed, with explicit padding. A 3-component vector is laid out as `[3 x T]` there
        // when the next member starts inside its LLVM allocation (std430's `vec3; float`):
        // values convert between the two where they enter or leave such a field.
        // Members in the order of their Offsets (which need not be the members' order: HLSL's
        // `register(cN)` places some first); `index` maps each member to its LLVM field.
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| members[i].2.unwrap_or(0));
        let mut fields = Vec::new();
        let mut index = vec![0u32; members.len()];
        let mut at = 0u64;
        let mut align = 1u64;
        for (k, &i) in order.iter().enumerate() {
            let (lt, size, offset) = members[i];
            let next = order.get(k + 1).and_then(|&j| members[j].2).map(u64::from);
            if let (BasicTypeEnum::VectorType(vt), Some(size), Some(off), Some(next)) =
                (lt, size, offset, next)
            {
                let store = self.td.get_store_size(&vt);
                if u64::from(off) + size > next && u64::from(off) + store <= next {
                    let arr = vt.get_element_type().array_type(vt.get_size());
                    members[i] = (arr.into(), Some(store), offset);
                }
            }
        }
        for &i in &order {
            let (lt, size, offset) = members[i];
            let off = u64::from(offset.unwrap_or(0));
            if off < at {
                return Err(LowerError::unsupported(
                    "struct member Offsets that overlap",
                ));
            }
            if off > at {
                fields.push(self.cx.i8_type().array_type((off - at) as u32).into());
            }
            index[i] = fields.len() as u32;
            fields.push(lt);
            align = align.max(self.td.get_abi_alignment(&lt).into());
            at = off + size.unwrap_or(0);
        }
        let st = self.cx.struct_type(&fields, true);
        let mut t = self.info(st.into());
        t.fields = index;
        t.align = align;
        Ok(t)
    }

    /// Whether `t` is a matrix or an array of them.
    fn holds_matrix(&self, mut t: Handle<Type>) -> Result<bool> {
        loop {
            match self.ir_type(t)? {
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => t = *element,
                Type::Matrix { .. } => return Ok(true),
                _ => return Ok(false),
            }
        }
    }

    /// The SPIR-V type `h` as the IR has it.
    pub(crate) fn spv_type(&self, h: Handle<Type>) -> Result<&'a Type> {
        self.ir_type(h)
    }
}
