//! LLVM types → SPIR-V types: integers (signless, as OpenCL wants), floats, vectors, arrays,
//! structs, address spaces → storage classes, and the opaque types (LLVM 19 target extension
//! types `target("spirv.Image", ...)` and the `spirv.*`/`opencl.*` struct names).

use super::error::{err, Result};
use super::module::State;
use super::read;
use crate::grammar::{AccessQualifier, Decoration, Dim, ImageFormat, StorageClass};
use crate::ir::{Builder, Handle, ImageDepth, ImageSampling, ImageType, Member, StructType, Type};
use inkwell::llvm_sys::prelude::LLVMTypeRef;
use inkwell::llvm_sys::LLVMTypeKind as K;

/// The storage class of an LLVM address space (the document's table).
pub fn storage_class(space: u32) -> Result<StorageClass> {
    Ok(match space {
        0 => StorageClass::Function,
        1 => StorageClass::CrossWorkgroup,
        2 => StorageClass::UniformConstant,
        3 => StorageClass::Workgroup,
        4 => StorageClass::Generic,
        5 => StorageClass::DeviceOnlyINTEL,
        6 => StorageClass::HostOnlyINTEL,
        7 => StorageClass::Input,
        _ => return err(format!("address space {space} has no SPIR-V storage class")),
    })
}

impl State {
    /// The SPIR-V type of an LLVM type; pointers point to `i8` (their users cast them).
    pub fn ty(&mut self, b: &mut Builder, t: LLVMTypeRef) -> Result<Handle<Type>> {
        if let Some(&h) = self.types.get(&(t as usize)) {
            return Ok(h);
        }
        let h = match read::type_kind(t) {
            K::LLVMVoidTypeKind => b.type_void(),
            K::LLVMIntegerTypeKind => match read::int_width(t) {
                1 => b.type_bool(),
                w @ (8 | 16 | 32 | 64) => b.type_int(w, false),
                // Held in the next wider integer (`narrow_ints`).
                w => match super::narrow_ints::container(w) {
                    Some(c) => b.type_int(c, false),
                    None => return err(format!("i{w} has no SPIR-V type")),
                },
            },
            K::LLVMHalfTypeKind => b.type_float(16),
            K::LLVMFloatTypeKind => b.type_float(32),
            K::LLVMDoubleTypeKind => b.type_float(64),
            K::LLVMVectorTypeKind => {
                let e = self.ty(b, read::element_type(t))?;
                let n = read::vector_size(t);
                if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                    return err(format!("a vector of {n} elements has no SPIR-V type"));
                }
                b.type_vector(e, n)
            }
            K::LLVMArrayTypeKind => {
                let e = self.ty(b, read::element_type(t))?;
                let n = read::array_length(t);
                if n == 0 || n > u32::MAX as u64 {
                    return err(format!("an array of {n} elements has no SPIR-V type"));
                }
                b.type_array(e, n as u32, None)
            }
            K::LLVMStructTypeKind => self.struct_type(b, t)?,
            K::LLVMPointerTypeKind => {
                let sc = storage_class(read::address_space(t))?;
                let i8 = b.type_int(8, false);
                b.type_pointer(sc, i8)
            }
            K::LLVMTargetExtTypeKind => self.target_ext_type(b, t)?,
            K::LLVMFunctionTypeKind => return err("function types are not values in SPIR-V"),
            _ => return err(format!("type {} has no SPIR-V form", read::print_type(t))),
        };
        self.types.insert(t as usize, h);
        Ok(h)
    }

    fn struct_type(&mut self, b: &mut Builder, t: LLVMTypeRef) -> Result<Handle<Type>> {
        let name = struct_name(t);
        if let Some(n) = &name {
            if let Some(h) = self.opaque_by_name(b, n)? {
                return Ok(h);
            }
        }
        let members = read::struct_members(t);
        if members.is_empty() && name.is_some() {
            // An opaque struct: OpTypeOpaque.
            return Ok(b.ty(Type::Opaque {
                name: name.unwrap_or_default(),
            }));
        }
        let mut ms = Vec::new();
        for m in members {
            ms.push(Member::new(self.ty(b, m)?));
        }
        // SAFETY: `t` is a struct type.
        let packed = unsafe { inkwell::llvm_sys::core::LLVMIsPackedStruct(t) } != 0;
        Ok(b.type_struct(StructType {
            name,
            members: ms,
            decorations: if packed {
                vec![Decoration::CPacked]
            } else {
                Vec::new()
            },
        }))
    }

    /// The SPIR-V opaque type a struct name stands for (`opencl.event_t`, `spirv.Sampler`...).
    pub fn opaque_by_name(&mut self, b: &mut Builder, name: &str) -> Result<Option<Handle<Type>>> {
        let base = name
            .strip_prefix("opencl.")
            .or_else(|| name.strip_prefix("spirv."))
            .unwrap_or("");
        let t = match base {
            "event_t" | "Event" => b.ty(Type::Event),
            "clk_event_t" | "DeviceEvent" => b.ty(Type::DeviceEvent),
            "reserve_id_t" | "ReserveId" => b.ty(Type::ReserveId),
            "queue_t" | "Queue" => b.ty(Type::Queue),
            "sampler_t" | "Sampler" => b.type_sampler(),
            "PipeStorage" => b.ty(Type::PipeStorage),
            _ => {
                if let Some(img) = base.strip_prefix("image") {
                    return Ok(Some(self.ocl_image(b, img)?));
                }
                if let Some(rest) = base.strip_prefix("Image._") {
                    let parts: Vec<&str> = rest.split('_').collect();
                    return Ok(Some(self.image_from_parts(b, &parts)?));
                }
                return Ok(None);
            }
        };
        Ok(Some(t))
    }

    /// An OpenCL C image type from its name after `image` (`2d_ro_t`, `1d_buffer_wo`...).
    pub fn ocl_image(&mut self, b: &mut Builder, img: &str) -> Result<Handle<Type>> {
        let img = img.trim_end_matches("_t");
        let (shape, access) = match img.rsplit_once('_') {
            Some((s, "ro")) => (s, AccessQualifier::ReadOnly),
            Some((s, "wo")) => (s, AccessQualifier::WriteOnly),
            Some((s, "rw")) => (s, AccessQualifier::ReadWrite),
            _ => (img, AccessQualifier::ReadOnly),
        };
        let (dim, arrayed, depth) = match shape {
            "1d" => (Dim::Dim1D, false, false),
            "1d_array" => (Dim::Dim1D, true, false),
            "1d_buffer" => (Dim::Buffer, false, false),
            "2d" => (Dim::Dim2D, false, false),
            "2d_array" => (Dim::Dim2D, true, false),
            "2d_depth" => (Dim::Dim2D, false, true),
            "2d_array_depth" => (Dim::Dim2D, true, true),
            "3d" => (Dim::Dim3D, false, false),
            _ => return err(format!("unknown OpenCL image type image{img}")),
        };
        let void = b.type_void();
        Ok(b.type_image(ImageType {
            sampled_type: void,
            dim,
            depth: if depth {
                ImageDepth::IsDepth
            } else {
                ImageDepth::NoDepth
            },
            arrayed,
            multisampled: false,
            sampled: ImageSampling::Unknown,
            format: ImageFormat::Unknown,
            access: Some(access),
        }))
    }

    fn image_from_parts(&mut self, b: &mut Builder, parts: &[&str]) -> Result<Handle<Type>> {
        let sampled = match parts.first().copied() {
            Some("float") => b.type_float(32),
            Some("half") => b.type_float(16),
            Some("int") | Some("uint") => b.type_int(32, false),
            _ => b.type_void(),
        };
        let nums: Vec<u32> = parts[1.min(parts.len())..]
            .iter()
            .filter_map(|p| p.parse().ok())
            .collect();
        self.image_from_numbers(b, sampled, &nums)
    }

    fn image_from_numbers(
        &mut self,
        b: &mut Builder,
        sampled_type: Handle<Type>,
        n: &[u32],
    ) -> Result<Handle<Type>> {
        let get = |i: usize| n.get(i).copied().unwrap_or(0);
        let dim = match Dim::from_value(get(0)) {
            Some(d) => d,
            None => return err(format!("image dimension {} is unknown", get(0))),
        };
        let access = match n.get(6) {
            Some(0) => Some(AccessQualifier::ReadOnly),
            Some(1) => Some(AccessQualifier::WriteOnly),
            Some(2) => Some(AccessQualifier::ReadWrite),
            _ => None,
        };
        Ok(b.type_image(ImageType {
            sampled_type,
            dim,
            depth: ImageDepth::from_u32(get(1)).unwrap_or(ImageDepth::Unknown),
            arrayed: get(2) != 0,
            multisampled: get(3) != 0,
            sampled: ImageSampling::from_u32(get(4)).unwrap_or(ImageSampling::Unknown),
            format: ImageFormat::from_value(get(5)).unwrap_or(ImageFormat::Unknown),
            access,
        }))
    }

    /// `target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0)` and the other `spirv.*` target
    /// extension types (read with the C API: name, type parameters, integer parameters).
    fn target_ext_type(&mut self, b: &mut Builder, t: LLVMTypeRef) -> Result<Handle<Type>> {
        let name = read::target_ext_name(t);
        let types = read::target_ext_type_params(t);
        let ints = read::target_ext_int_params(t);
        let bad = || {
            err(format!(
                "target type {} has no SPIR-V form",
                read::print_type(t)
            ))
        };
        match name.as_str() {
            "spirv.Image" | "spirv.SampledImage" => {
                let [sampled] = types[..] else {
                    return bad();
                };
                if ints.len() != 7 {
                    return bad();
                }
                let sampled = self.ty(b, sampled)?;
                let img = self.image_from_numbers(b, sampled, &ints)?;
                if name == "spirv.SampledImage" {
                    Ok(b.type_sampled_image(img))
                } else {
                    Ok(img)
                }
            }
            "spirv.Pipe" => {
                let access = match ints[..] {
                    [0] => AccessQualifier::ReadOnly,
                    [1] => AccessQualifier::WriteOnly,
                    [2] => AccessQualifier::ReadWrite,
                    _ => return bad(),
                };
                Ok(b.ty(Type::Pipe { access }))
            }
            "spirv.Sampler" | "spirv.Event" | "spirv.DeviceEvent" | "spirv.ReserveId"
            | "spirv.Queue" | "spirv.PipeStorage"
                if types.is_empty() && ints.is_empty() =>
            {
                match self.opaque_by_name(b, &name)? {
                    Some(h) => Ok(h),
                    None => bad(),
                }
            }
            // `target("spirv.AvcMcePayloadINTEL")`: any parameterless opaque type the grammar
            // declares, as the lowering writes it.
            _ if types.is_empty() && ints.is_empty() => {
                match name
                    .strip_prefix("spirv.")
                    .and_then(|n| Type::opaque_handle(&format!("OpType{n}")))
                {
                    Some(t) => Ok(b.ty(t)),
                    None => bad(),
                }
            }
            _ => bad(),
        }
    }

    /// The storage class and pointee of a pointer type.
    pub fn pointer_parts(b: &Builder, t: Handle<Type>) -> Option<(StorageClass, Handle<Type>)> {
        match b.module().types.get(t)? {
            Type::Pointer {
                storage_class,
                pointee,
                ..
            } => Some((*storage_class, *pointee)),
            _ => None,
        }
    }
}

/// The name of a named struct type.
pub fn struct_name(t: LLVMTypeRef) -> Option<String> {
    // SAFETY: `t` is a struct type; the name is nul-terminated or null for literal structs.
    unsafe {
        let p = inkwell::llvm_sys::core::LLVMGetStructName(t);
        if p.is_null() {
            None
        } else {
            Some(std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
        }
    }
}
