//! The opaque SPIR-V types as LLVM 19 target extension types, the form current
//! SPIRV-LLVM-Translator writes SPV-IR in: `target("spirv.Image", <sampled type>, dim, depth,
//! arrayed, ms, sampled, format, access)` (the sampled type as lowered, `void` for OpenCL's
//! images), `target("spirv.SampledImage", ...)` with its image's parameters,
//! `target("spirv.Pipe", access)`, and the parameterless `spirv.Sampler`, `spirv.Event`,
//! `spirv.DeviceEvent`, `spirv.ReserveId`, `spirv.Queue`, `spirv.PipeStorage`. Their values
//! are handles passed by value; builtin-call manglings keep the document's names
//! ([`super::metadata::opaque_mangled_name`]).

use super::super::error::{LowerError, Result};
use super::super::llvm_ext;
use super::super::Lowerer;
use crate::ir::{ImageType, Type};
use inkwell::types::{AsTypeRef, BasicTypeEnum};

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The target extension type of an opaque SPIR-V type.
    pub(crate) fn spv_ir_target_type(&mut self, t: &Type) -> Result<BasicTypeEnum<'ctx>> {
        let (name, types, ints) = match t {
            Type::Image(i) => {
                let (types, ints) = self.image_params(i)?;
                ("spirv.Image", types, ints)
            }
            Type::SampledImage { image } => match self.spv_type(*image)? {
                Type::Image(i) => {
                    let (types, ints) = self.image_params(i)?;
                    ("spirv.SampledImage", types, ints)
                }
                _ => {
                    return Err(LowerError::malformed(
                        "a sampled image of something other than an image",
                    ))
                }
            },
            Type::Pipe { access } => ("spirv.Pipe", Vec::new(), vec![access.value()]),
            Type::Sampler => ("spirv.Sampler", Vec::new(), Vec::new()),
            Type::Event => ("spirv.Event", Vec::new(), Vec::new()),
            Type::DeviceEvent => ("spirv.DeviceEvent", Vec::new(), Vec::new()),
            Type::ReserveId => ("spirv.ReserveId", Vec::new(), Vec::new()),
            Type::Queue => ("spirv.Queue", Vec::new(), Vec::new()),
            Type::PipeStorage => ("spirv.PipeStorage", Vec::new(), Vec::new()),
            other => match other.opaque_handle_name() {
                // The translator's naming: `OpTypeAvcMcePayloadINTEL` is
                // `target("spirv.AvcMcePayloadINTEL")`.
                Some(name) => {
                    let name = format!("spirv.{}", &name["OpType".len()..]);
                    return Ok(llvm_ext::target_type(self.cx, &name, &[], &[]));
                }
                None => {
                    return Err(LowerError::malformed(
                        "a target extension type for a type that is not opaque",
                    ))
                }
            },
        };
        Ok(llvm_ext::target_type(self.cx, name, &types, &ints))
    }

    /// The sampled type and the seven integer operands of an image type.
    fn image_params(
        &mut self,
        i: &ImageType,
    ) -> Result<(Vec<inkwell::llvm_sys::prelude::LLVMTypeRef>, Vec<u32>)> {
        let sampled = match self.ty(i.sampled_type)?.llvm {
            Some(t) => t.as_type_ref(),
            None => self.cx.void_type().as_type_ref(),
        };
        Ok((
            vec![sampled],
            vec![
                i.dim.value(),
                i.depth.to_u32(),
                u32::from(i.arrayed),
                u32::from(i.multisampled),
                i.sampled.to_u32(),
                i.format.value(),
                i.access.map_or(0, |a| a.value()),
            ],
        ))
    }
}
