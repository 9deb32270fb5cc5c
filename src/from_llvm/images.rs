//! Images and samplers of OpenCL C: kernel parameters typed by `kernel_arg_type` and
//! `kernel_arg_access_qual` metadata (typed pointers to `opencl.image2d_ro_t` read by LLVM 19
//! are plain `ptr`), `__translate_sampler_initializer` → OpConstantSampler, and
//! `read_image*` / `write_image*` / `get_image_*` → image instructions.

use super::error::{err, Result};
use super::function::Fx;
use super::mangle::{Demangled, MType};
use super::module::{State, Val};
use super::read;
use crate::grammar::{Dim, Opcode, SamplerAddressingMode, SamplerFilterMode};
use crate::ir::{Builder, ConstantValue, Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;

/// The SPIR-V types of a kernel's parameters that its metadata says are images or samplers.
pub fn kernel_param_types(
    st: &mut State,
    b: &mut Builder,
    f: LLVMValueRef,
) -> Result<Vec<Option<Handle<Type>>>> {
    let strings = |kind: &str| read::function_metadata_strings(st.cx, f, kind);
    let types = strings("kernel_arg_type");
    let access = strings("kernel_arg_access_qual");
    let mut out = Vec::new();
    for (k, t) in types.iter().enumerate() {
        let t = t
            .trim_start_matches("__read_only ")
            .trim_start_matches("__write_only ");
        let r = if let Some(img) = t.strip_prefix("image") {
            let q = match access.get(k).map(String::as_str) {
                Some("write_only") => "wo",
                Some("read_write") => "rw",
                _ => "ro",
            };
            let shape = img.trim_end_matches("_t");
            st.ocl_image(b, &format!("{shape}_{q}")).ok()
        } else if t == "sampler_t" {
            Some(b.type_sampler())
        } else {
            None
        };
        out.push(r);
    }
    Ok(out)
}

/// The opaque SPIR-V type a mangled parameter type names (`14ocl_image2d_ro`,
/// `P13__spirv_Event`, `PU3AS133__spirv_Image__void_1_0_0_0_0_0_0`), if any; `true` when the
/// mangled type is a pointer to the opaque type itself (SPV-IR's spelling of the value).
pub fn opaque_of_mangled(
    st: &mut State,
    b: &mut Builder,
    t: &MType,
) -> Option<(Handle<Type>, bool)> {
    match t {
        MType::Named(n) => named(st, b, n).map(|h| (h, false)),
        MType::Pointer(_, inner) => match &**inner {
            MType::Named(n) => named(st, b, n).map(|h| (h, true)),
            _ => None,
        },
        _ => None,
    }
}

fn named(st: &mut State, b: &mut Builder, n: &str) -> Option<Handle<Type>> {
    if let Some(img) = n.strip_prefix("ocl_image") {
        return st.ocl_image(b, img).ok();
    }
    match n {
        "ocl_sampler" => return Some(b.type_sampler()),
        "ocl_event" => return Some(b.ty(Type::Event)),
        "ocl_clkevent" => return Some(b.ty(Type::DeviceEvent)),
        "ocl_queue" => return Some(b.ty(Type::Queue)),
        "ocl_reserveid" => return Some(b.ty(Type::ReserveId)),
        _ => {}
    }
    let rest = n.strip_prefix("__spirv_")?;
    let spelled = match rest.split_once("__") {
        Some((kind, params)) => format!("spirv.{kind}._{params}"),
        None => format!("spirv.{rest}"),
    };
    if let Some(si) = spelled.strip_prefix("spirv.SampledImage.") {
        let img = st.opaque_by_name(b, &format!("spirv.Image.{si}")).ok()??;
        return Some(b.type_sampled_image(img));
    }
    st.opaque_by_name(b, &spelled).ok()?
}

/// The opaque type of a parameter from the mangled names of the calls it is passed to.
pub fn param_type_from_calls(
    st: &mut State,
    b: &mut Builder,
    p: LLVMValueRef,
) -> Option<Handle<Type>> {
    for u in read::users(p) {
        if !read::is_instruction(u) || read::opcode(u) != inkwell::llvm_sys::LLVMOpcode::LLVMCall {
            continue;
        }
        let n = read::num_operands(u);
        let callee = read::operand(u, n.saturating_sub(1));
        let Some(d) = super::mangle::demangle(&read::name(callee)) else {
            continue;
        };
        for k in 0..n.saturating_sub(1) {
            if read::operand(u, k) == p {
                if let Some((t, _)) = d
                    .params
                    .get(k as usize)
                    .and_then(|m| opaque_of_mangled(st, b, m))
                {
                    return Some(t);
                }
            }
        }
    }
    None
}

impl Fx<'_, '_> {
    /// `__translate_sampler_initializer(i32)`: a literal sampler.
    pub fn sampler_initializer(&mut self, args: &[LLVMValueRef]) -> Result<Val> {
        let Some(bits) = args.first().and_then(|&a| read::const_int(a)) else {
            return err("a sampler initializer that is not constant");
        };
        let addressing = match (bits >> 1) & 7 {
            1 => SamplerAddressingMode::ClampToEdge,
            2 => SamplerAddressingMode::Clamp,
            3 => SamplerAddressingMode::Repeat,
            4 => SamplerAddressingMode::RepeatMirrored,
            _ => SamplerAddressingMode::None,
        };
        let filter = if bits & 0x20 != 0 {
            SamplerFilterMode::Linear
        } else {
            SamplerFilterMode::Nearest
        };
        let ty = self.f.type_sampler();
        let c = self.f.constant(
            ty,
            ConstantValue::Sampler {
                addressing,
                normalized: bits & 1 != 0,
                filter,
            },
        );
        Ok(Val {
            v: Value::Constant(c),
            ty,
        })
    }

    fn image_arg(&mut self, a: LLVMValueRef) -> Result<Val> {
        let v = self.value(a)?;
        match self.f.module().types.get(v.ty) {
            Some(Type::Image(_)) => Ok(v),
            _ => err(
                "an image argument whose image type is unknown (only kernel parameters are typed)",
            ),
        }
    }

    /// `read_image*`, `write_image*`, `get_image_*`; `Ok(None)` for other names.
    pub fn image_builtin(
        &mut self,
        d: &Demangled,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        let name = d.name.as_str();
        if name.starts_with("read_image") {
            let Some(ty) = ret else {
                return err("read_image without a result");
            };
            let img = self.image_arg(args[0])?;
            // Depth images read a scalar; the image instructions give 4 components, of which
            // the first is the depth (as llvm-spirv writes it).
            let scalar = !matches!(self.f.module().types.get(ty), Some(Type::Vector { .. }));
            let read_t = if scalar {
                self.f.type_vector(ty, 4)
            } else {
                ty
            };
            let v = if args.len() >= 3 {
                let smp = self.value(args[1])?;
                let coord = self.value(args[2])?;
                let si_t = self.f.type_sampled_image(img.ty);
                let si = self.emit_val(Opcode::SampledImage, si_t, &[img.v, smp.v])?;
                let zero = Value::Constant(self.f.constant_f32(0.0));
                let w = [si.v.to_id().0, coord.v.to_id().0, 0x2, zero.to_id().0];
                self.emit(Opcode::ImageSampleExplicitLod, Some(read_t), &w)?
            } else {
                let coord = self.value(args[1])?;
                self.emit_val(Opcode::ImageRead, read_t, &[img.v, coord.v])?
                    .v
            };
            if scalar {
                let r = self.emit(Opcode::CompositeExtract, Some(ty), &[v.to_id().0, 0])?;
                return Ok(Some(Some(Val { v: r, ty })));
            }
            return Ok(Some(Some(Val { v, ty })));
        }
        if name.starts_with("write_image") {
            let img = self.image_arg(args[0])?;
            let coord = self.value(args[1])?;
            let texel = self.value(args[args.len() - 1])?;
            let w = [img.v.to_id().0, coord.v.to_id().0, texel.v.to_id().0];
            self.emit(Opcode::ImageWrite, None, &w)?;
            return Ok(Some(None));
        }
        if let Some(what) = name.strip_prefix("get_image_") {
            let Some(ty) = ret else {
                return err("get_image_* without a result");
            };
            let img = self.image_arg(args[0])?;
            let query = match what {
                "channel_order" => Some(Opcode::ImageQueryOrder),
                "channel_data_type" => Some(Opcode::ImageQueryFormat),
                _ => None,
            };
            if let Some(op) = query {
                let u32_t = self.f.type_int(32, false);
                let v = self.emit_val(op, u32_t, &[img.v])?;
                return Ok(Some(Some(if v.ty != ty {
                    self.emit_val(Opcode::UConvert, ty, &[v.v])?
                } else {
                    v
                })));
            }
            let (dims, buffer) = match self.f.module().types.get(img.ty) {
                Some(Type::Image(i)) => {
                    let n = match i.dim {
                        Dim::Dim1D | Dim::Buffer => 1,
                        Dim::Dim3D => 3,
                        _ => 2,
                    };
                    (n + i.arrayed as u32, i.dim == Dim::Buffer)
                }
                _ => (2, false),
            };
            let u32_t = self.f.type_int(32, false);
            let st = if dims > 1 {
                self.f.type_vector(u32_t, dims)
            } else {
                u32_t
            };
            let size = if buffer {
                self.emit_val(Opcode::ImageQuerySize, st, &[img.v])?
            } else {
                let zero = self.cu32(0);
                self.emit_val(Opcode::ImageQuerySizeLod, st, &[img.v, zero])?
            };
            let k = match what {
                "width" => 0,
                "height" => 1,
                "depth" => 2,
                "array_size" => dims - 1,
                "dim" => {
                    return Ok(Some(Some(size)));
                }
                _ => return Ok(None),
            };
            let v = if dims > 1 {
                let r = self.emit(
                    Opcode::CompositeExtract,
                    Some(u32_t),
                    &[size.v.to_id().0, k],
                )?;
                Val { v: r, ty: u32_t }
            } else {
                size
            };
            let v = if v.ty != ty {
                self.emit_val(Opcode::UConvert, ty, &[v.v])?
            } else {
                v
            };
            return Ok(Some(Some(v)));
        }
        Ok(None)
    }
}
