//! The spv-ir style's metadata: module-level instructions as named metadata (`!spirv.*`,
//! `!opencl.*`), kernel argument metadata (`!kernel_arg_*`, as clang emits it), work-group
//! size metadata, and decorations as `!spirv.Decorations` / `!spirv.ParameterDecorations`.

use super::super::error::{LowerError, Result};
use super::super::Lowerer;
use super::addr_space;
use crate::grammar::{
    AccessQualifier, Capability, Decoration, ExecutionMode, FunctionParameterAttribute,
    Instruction, OpDecorate, OpExecutionMode, SourceLanguage,
};
use crate::ir::{self, Type};
use inkwell::llvm_sys::core::{
    LLVMAddNamedMetadataOperand, LLVMGlobalSetMetadata, LLVMMDNodeInContext2,
    LLVMMDStringInContext2, LLVMMetadataAsValue, LLVMValueAsMetadata,
};
use inkwell::llvm_sys::prelude::LLVMMetadataRef;
use inkwell::values::AsValueRef;

/// The document's name of an opaque type (`__spirv_Event`, `__spirv_Image__void_1_0_...`).
pub(crate) fn opaque_mangled_name(m: &ir::Module, t: &Type) -> String {
    match t {
        Type::Image(i) => format!("__spirv_Image_{}", image_postfixes(m, i)),
        Type::SampledImage { image } => match m.types.get(*image) {
            Some(Type::Image(i)) => format!("__spirv_SampledImage_{}", image_postfixes(m, i)),
            _ => "__spirv_SampledImage".into(),
        },
        Type::Pipe { access } => format!("__spirv_Pipe__{}", access.value()),
        Type::Sampler => "__spirv_Sampler".into(),
        Type::Event => "__spirv_Event".into(),
        Type::DeviceEvent => "__spirv_DeviceEvent".into(),
        Type::ReserveId => "__spirv_ReserveId".into(),
        Type::Queue => "__spirv_Queue".into(),
        Type::PipeStorage => "__spirv_PipeStorage".into(),
        t => match t.opaque_handle_name() {
            Some(name) => format!("__spirv_{}", &name["OpType".len()..]),
            None => "__spirv_Opaque".into(),
        },
    }
}

/// `_{SampledType}_{Dim}_{Depth}_{Arrayed}_{MS}_{Sampled}_{Format}_{Access}`.
fn image_postfixes(m: &ir::Module, i: &ir::ImageType) -> String {
    let sampled = match m.types.get(i.sampled_type) {
        Some(Type::Float { width: 16 }) => "half",
        Some(Type::Float { .. }) => "float",
        Some(Type::Int { signed: true, .. }) => "int",
        Some(Type::Int { .. }) => "uint",
        _ => "void",
    };
    format!(
        "_{sampled}_{}_{}_{}_{}_{}_{}_{}",
        i.dim.value(),
        i.depth.to_u32(),
        u32::from(i.arrayed),
        u32::from(i.multisampled),
        i.sampled.to_u32(),
        i.format.value(),
        i.access.map_or(0, |a| a.value())
    )
}

/// The literal words of a decoration: its number first.
fn decoration_words(d: &Decoration) -> Vec<u32> {
    let mut words = Vec::new();
    let inst = Instruction::Decorate(OpDecorate {
        target: crate::grammar::Id(0),
        decoration: d.clone(),
    });
    crate::binary::encode_operands(&inst, &mut words);
    words.split_off(1.min(words.len()))
}

/// The literal words of an execution mode: its number first.
fn mode_words(m: &ExecutionMode) -> Vec<u32> {
    let mut words = Vec::new();
    let inst = Instruction::ExecutionMode(OpExecutionMode {
        entry_point: crate::grammar::Id(0),
        mode: m.clone(),
    });
    crate::binary::encode_operands(&inst, &mut words);
    words.split_off(1.min(words.len()))
}

/// The OpenCL C spelling of a parameter type (`float*`, `int4`, `image2d_t`, ...).
fn cl_type_name(m: &ir::Module, t: ir::Handle<Type>) -> String {
    match m.types.get(t) {
        Some(Type::Bool) => "bool".into(),
        Some(Type::Int { width, .. }) => match width {
            8 => "char",
            16 => "short",
            64 => "long",
            _ => "int",
        }
        .into(),
        Some(Type::Float { width: 16 }) => "half".into(),
        Some(Type::Float { width: 64 }) => "double".into(),
        Some(Type::Float { .. }) => "float".into(),
        Some(Type::Vector { component, count }) => {
            format!("{}{count}", cl_type_name(m, *component))
        }
        Some(Type::Pointer { pointee, .. }) => format!("{}*", cl_type_name(m, *pointee)),
        Some(Type::Array { element, .. }) => cl_type_name(m, *element),
        Some(Type::Struct(s)) => format!(
            "struct {}",
            s.name
                .as_deref()
                .map(|n| n.strip_prefix("struct.").unwrap_or(n))
                .unwrap_or("anon")
        ),
        Some(Type::Image(_)) => "image_t".into(),
        Some(Type::Sampler) => "sampler_t".into(),
        Some(Type::Event) => "event_t".into(),
        Some(Type::Queue) => "queue_t".into(),
        Some(Type::Pipe { .. }) => "pipe".into(),
        Some(Type::Void) => "void".into(),
        _ => "opaque".into(),
    }
}

/// A metadata reference. Built through the C API rather than inkwell's `MetadataValue`:
/// LLVM turns a one-constant tuple wrapped as a value into the bare constant, which then cannot
/// be attached to a function (`!{i32 0}` as `kernel_arg_addr_space` of a one-parameter kernel)
/// nor nested as a node (`!{!{i32 19}}`).
type Md = LLVMMetadataRef;

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    fn md_value(&self, v: impl AsValueRef) -> Md {
        // SAFETY: a live value of this context.
        unsafe { LLVMValueAsMetadata(v.as_value_ref()) }
    }

    fn md_i32(&self, v: u32) -> Md {
        self.md_value(self.cx.i32_type().const_int(v.into(), false))
    }

    fn md_str(&self, s: &str) -> Md {
        // SAFETY: the bytes outlive the call; LLVM copies them.
        unsafe { LLVMMDStringInContext2(self.cx.raw(), s.as_ptr().cast(), s.len()) }
    }

    pub(super) fn node(&self, items: &[Md]) -> Md {
        let mut v = items.to_vec();
        // SAFETY: every item is metadata of this context.
        unsafe { LLVMMDNodeInContext2(self.cx.raw(), v.as_mut_ptr(), v.len()) }
    }

    fn named(&self, key: &str, node: Md) -> Result<()> {
        let name = std::ffi::CString::new(key)
            .map_err(|_| LowerError::malformed("a metadata name with a NUL"))?;
        // SAFETY: the module and the node are of this context.
        unsafe {
            let v = LLVMMetadataAsValue(self.cx.raw(), node);
            LLVMAddNamedMetadataOperand(self.llm.as_mut_ptr(), name.as_ptr(), v);
        }
        Ok(())
    }

    pub(super) fn attach(&self, g: impl AsValueRef, kind: &str, node: Md) {
        let id = self.cx.get_kind_id(kind);
        // SAFETY: a global object of this module and a node of its context.
        unsafe { LLVMGlobalSetMetadata(g.as_value_ref(), id, node) }
    }

    pub(super) fn words_node(&self, words: &[u32]) -> Md {
        let v: Vec<_> = words.iter().map(|&w| self.md_i32(w)).collect();
        self.node(&v)
    }

    /// The document's decoration-node: `!{i32 number, <operand>...}`, string operands as
    /// metadata strings.
    pub(super) fn decoration_node(&self, d: &Decoration) -> Md {
        match crate::binary::decoration_literals(d) {
            Some((n, lits)) => {
                let mut ops = vec![self.md_i32(n)];
                for l in lits {
                    ops.push(match l {
                        crate::binary::DecorationLiteral::Int(w) => self.md_i32(w),
                        crate::binary::DecorationLiteral::Str(s) => self.md_str(&s),
                    });
                }
                self.node(&ops)
            }
            None => self.words_node(&decoration_words(d)),
        }
    }

    /// Every metadata of the style.
    pub(crate) fn spv_ir_metadata(&mut self) -> Result<()> {
        let m = self.m;
        self.named(
            "spirv.MemoryModel",
            self.words_node(&[m.addressing_model.value(), m.memory_model.value()]),
        )?;
        let mut ocl_version = None;
        for s in &m.sources {
            let mut ops = vec![self.md_i32(s.language.value()), self.md_i32(s.version)];
            if let Some(file) = s.file.and_then(|f| m.strings.get(f)) {
                ops.push(self.node(&[self.md_str(file)]));
            }
            self.named("spirv.Source", self.node(&ops))?;
            if s.language == SourceLanguage::OpenCL_C || s.language == SourceLanguage::OpenCL_CPP {
                ocl_version = Some(s.version);
            }
        }
        if let Some(v) = ocl_version {
            // major·100000 + minor·1000 (200000 for 2.0), as llvm-spirv writes it; a version
            // below 1000 is read the short way (200 for 2.0).
            let (major, minor) = if v < 1000 {
                (v / 100, (v / 10) % 10)
            } else {
                (v / 100_000, (v / 1000) % 100)
            };
            let node = self.words_node(&[major, minor]);
            let spir = if major >= 2 {
                node
            } else {
                self.words_node(&[1, 2])
            };
            self.named("opencl.spir.version", spir)?;
            self.named("opencl.ocl.version", node)?;
            let exts: Vec<_> = m.source_extensions.iter().map(|e| self.md_str(e)).collect();
            self.named("opencl.used.extensions", self.node(&exts))?;
            let mut feats = Vec::new();
            if m.capabilities.contains(&Capability::Float64) {
                feats.push(self.md_str("cl_doubles"));
            }
            if m.capabilities.contains(&Capability::ImageBasic) {
                feats.push(self.md_str("cl_images"));
            }
            self.named("opencl.used.optional.core.features", self.node(&feats))?;
        }
        // Contraction is allowed unless every kernel turns it off.
        let contraction_off = |f| {
            m.execution_modes
                .iter()
                .any(|em| em.function == f && matches!(em.mode, ExecutionMode::ContractionOff))
        };
        if m.entry_points
            .iter()
            .any(|ep| !contraction_off(ep.function))
        {
            self.named("opencl.enable.FP_CONTRACT", self.node(&[]))?;
        }
        for e in &m.source_extensions {
            self.named("spirv.SourceExtension", self.node(&[self.md_str(e)]))?;
        }
        for e in &m.extensions {
            self.named("spirv.Extension", self.node(&[self.md_str(e)]))?;
        }
        for c in &m.capabilities {
            self.named("spirv.Capability", self.words_node(&[c.value()]))?;
        }
        let i16t = self.cx.i16_type();
        self.named(
            "spirv.Generator",
            self.node(&[
                self.md_value(i16t.const_int(u64::from(m.generator >> 16), false)),
                self.md_value(i16t.const_int(u64::from(m.generator & 0xffff), false)),
            ]),
        )?;
        for ep in &m.entry_points {
            let Some(Some(f)) = self.functions.get(self.kernel_fn(ep).index()).copied() else {
                continue;
            };
            let fp = f.as_global_value().as_pointer_value();
            self.named(
                "spirv.EntryPoint",
                self.node(&[
                    self.md_i32(ep.execution_model.value()),
                    self.md_value(fp),
                    self.md_str(&ep.name),
                ]),
            )?;
        }
        for em in &m.execution_modes {
            let target = m
                .entry_points
                .iter()
                .find(|ep| ep.function == em.function)
                .map_or(em.function, |ep| self.kernel_fn(ep));
            let Some(Some(f)) = self.functions.get(target.index()).copied() else {
                continue;
            };
            let mut ops = vec![self.md_value(f.as_global_value().as_pointer_value())];
            for w in mode_words(&em.mode) {
                ops.push(self.md_i32(w));
            }
            self.named("spirv.ExecutionMode", self.node(&ops))?;
            let kind = match em.mode {
                ExecutionMode::LocalSize(..) => "reqd_work_group_size",
                ExecutionMode::LocalSizeHint(..) => "work_group_size_hint",
                _ => continue,
            };
            let words = mode_words(&em.mode);
            let node = self.words_node(words.get(1..).unwrap_or(&[]));
            self.attach(f, kind, node);
        }
        self.kernel_arg_metadata()?;
        self.decoration_metadata()
    }

    /// `!kernel_arg_*` of every kernel, and `!spirv.ParameterDecorations`.
    fn kernel_arg_metadata(&mut self) -> Result<()> {
        let m = self.m;
        for ep in &m.entry_points {
            let kf = self.kernel_fn(ep);
            let Some(Some(llf)) = self.functions.get(kf.index()).copied() else {
                continue;
            };
            let Some(f) = m.functions.get(kf) else {
                continue;
            };
            let params = match self.spv_type(f.ty)? {
                Type::Function { params, .. } => params.clone(),
                _ => continue,
            };
            // llvm-spirv records the OpenCL C type names in an OpString.
            let prefix = format!("kernel_arg_type.{}.", ep.name);
            let recorded: Option<Vec<String>> = m.strings.iter().find_map(|(_, s)| {
                s.strip_prefix(&prefix)
                    .map(|r| r.split(',').map(str::to_string).collect())
            });
            let (mut spaces, mut access, mut tys, mut quals) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut param_decos = Vec::new();
            let mut any_deco = false;
            for (i, &p) in params.iter().enumerate() {
                let t = self.spv_type(p)?;
                spaces.push(self.md_i32(match t {
                    Type::Pointer { storage_class, .. } => addr_space(*storage_class).into(),
                    Type::Image(_) | Type::Pipe { .. } => 1,
                    _ => 0,
                }));
                let acc = match t {
                    Type::Image(img) => img.access,
                    Type::Pipe { access } => Some(*access),
                    _ => None,
                };
                access.push(self.md_str(match acc {
                    Some(AccessQualifier::ReadOnly) => "read_only",
                    Some(AccessQualifier::WriteOnly) => "write_only",
                    Some(AccessQualifier::ReadWrite) => "read_write",
                    None => "none",
                }));
                let name = recorded
                    .as_ref()
                    .and_then(|r| r.get(i))
                    .filter(|s| !s.is_empty())
                    .cloned()
                    .unwrap_or_else(|| cl_type_name(m, p));
                tys.push(self.md_str(&name));
                let decos = f
                    .params
                    .get(i)
                    .map(|p| p.decorations.as_slice())
                    .unwrap_or(&[]);
                let mut q = Vec::new();
                if decos.iter().any(|d| matches!(d, Decoration::Volatile)) {
                    q.push("volatile");
                }
                if decos.iter().any(|d| {
                    matches!(
                        d,
                        Decoration::FuncParamAttr(FunctionParameterAttribute::NoAlias)
                    )
                }) {
                    q.push("restrict");
                }
                if matches!(t, Type::Pipe { .. }) {
                    q.push("pipe");
                }
                quals.push(self.md_str(&q.join(" ")));
                let mut list = Vec::new();
                for d in decos {
                    if matches!(d, Decoration::FuncParamAttr(_)) {
                        continue;
                    }
                    any_deco = true;
                    list.push(self.decoration_node(d));
                }
                param_decos.push(self.node(&list));
            }
            let tys_node = self.node(&tys);
            let set = |kind: &str, node: Md| {
                self.attach(llf, kind, node);
            };
            set("kernel_arg_addr_space", self.node(&spaces));
            set("kernel_arg_access_qual", self.node(&access));
            set("kernel_arg_type", tys_node);
            set("kernel_arg_type_qual", self.node(&quals));
            set("kernel_arg_base_type", tys_node);
            if any_deco {
                set("spirv.ParameterDecorations", self.node(&param_decos));
            }
        }
        Ok(())
    }

    /// `!spirv.Decorations` on globals with decorations that LLVM has no word for.
    fn decoration_metadata(&mut self) -> Result<()> {
        for (h, g) in self.m.globals.iter() {
            let Some(Some(super::super::globals::Place::Global(gv))) =
                self.placement.places.get(h.index()).copied()
            else {
                continue;
            };
            let list: Vec<Md> = g
                .decorations
                .iter()
                .filter(|d| {
                    !matches!(
                        d,
                        Decoration::BuiltIn(_)
                            | Decoration::LinkageAttributes(..)
                            | Decoration::Alignment(_)
                    )
                })
                .map(|d| self.decoration_node(d))
                .collect();
            if !list.is_empty() {
                self.attach(gv, "spirv.Decorations", self.node(&list));
            }
        }
        self.function_decoration_metadata()
    }
}
