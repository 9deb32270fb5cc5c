//! Requirements the grammar cannot express, because they depend on literal values or on the
//! values of constants rather than on enumerants:
//! - integer and float widths (`OpTypeInt 64` needs `Int64`, `OpTypeFloat 16` needs `Float16`…);
//! - 64-bit integer atomics need `Int64Atomics`;
//! - `IdScope` and `IdMemorySemantics` operands are ids, but the constant they name is a
//!   `Scope` or `MemorySemantics` value whose enumerants have availability of their own
//!   (`OpControlBarrier` with `QueueFamily` scope needs `VulkanMemoryModel`), and `Device`
//!   scope under the Vulkan memory model needs `VulkanMemoryModelDeviceScope`;
//! - a multisampled storage image needs `StorageImageMultisample`, a sampled arrayed cube image
//!   `SampledCubeArray`, and an image whose sampled type is a 64-bit integer needs
//!   `Int64ImageEXT` outside kernels;
//! - an entry point whose interface lists variables other than Input/Output needs SPIR-V 1.4
//!   (before 1.4 the interface lists only those);
//! - `OpSelect` of structs, arrays or matrices, or of vectors under a scalar condition, needs
//!   SPIR-V 1.4 (before, the result is a scalar, vector or pointer, and a vector result takes a
//!   condition vector of its size);
//! - `OpCopyMemory` and `OpCopyMemorySized` with two memory-access operands (target and
//!   source) need SPIR-V 1.4.
//! - `OpSpecConstantOp` of `UConvert` without `Kernel` needs SPIR-V 1.4, unless the module
//!   declares `SPV_AMD_gpu_shader_int16`;
//! - `OpBitcast` between a pointer and an integer vector needs SPIR-V 1.5 or
//!   `SPV_KHR_physical_storage_buffer` (before, a pointer converts to and from integer scalars);
//! - a `NonSemantic.*` extended instruction set needs SPIR-V 1.6 unless the module declares
//!   `SPV_KHR_non_semantic_info`;
//! - `SPV_KHR_workgroup_memory_explicit_layout`, `SPV_EXT_mesh_shader` and
//!   `SPV_NV_shader_invocation_reorder` need SPIR-V 1.4 (spirv-val: "extension requires SPIR-V
//!   version 1.4 or later"; see [`extension_version`]);
//! - `OpGroupNonUniformBroadcast` and `OpGroupNonUniformQuadBroadcast` whose id (index) is
//!   not a constant need SPIR-V 1.5 ("Before version 1.5, Id must come from a constant
//!   instruction"; spirv-val checks it from 2023.2 on, 2023.1 does not);
//! - and two forms SPIR-V 1.6 forbids, so the module's largest version is 1.5: an
//!   `OpBranchConditional` whose two labels are the same, and a sampled image of a `Buffer`
//!   image.
//!
//! - 8- and 16-component vectors need `Vector16`;
//! - a 16-bit float type needs `Float16`, or only `Float16Buffer` in kernels that declare it;
//! - a shader variable holding 16-bit integers or floats needs the 16-bit storage capability of
//!   its storage class (`StorageBuffer16BitAccess` for StorageBuffer and BufferBlock Uniform
//!   blocks, `UniformAndStorageBuffer16BitAccess` for Block Uniform ones,
//!   `StoragePushConstant16`, `StorageInputOutput16`): Vulkan ties 16-bit values in those
//!   storage classes to these features, whatever `Int16`/`Float16` allow elsewhere;
//! - a descriptor variable of a runtime array type needs `RuntimeDescriptorArray`;
//! - an access chain decorated `NonUniform` into an array of descriptors needs the
//!   non-uniform indexing capability of the descriptor's kind (`SampledImageArrayNonUniformIndexing`
//!   for sampled images and samplers, `StorageImage…`, `UniformTexelBuffer…`,
//!   `StorageTexelBuffer…`, `InputAttachment…`, `UniformBuffer…`, `StorageBuffer…`): Vulkan
//!   ties each to a feature, and nothing in the grammar names them;
//! - reading (also sparsely) or writing a storage image needs `Image1D`/`ImageBuffer` for those dims and, in
//!   shaders, `StorageImageRead/WriteWithoutFormat` when its format is `Unknown`;
//! - `Device` scope in a memory-access operand under the Vulkan memory model needs
//!   `VulkanMemoryModelDeviceScope`.
//!
//! And one the grammar over-states: a `BuiltIn` on a struct member (`gl_PerVertex`'s
//! `ClipDistance`) needs its capability only when the member is used, so member decorations do
//! not contribute it (as spirv-val, which checks built-ins where they are used).

use crate::binary::IdMap;
use crate::grammar::tables::core_instruction;
use crate::grammar::{
    Availability, Capability, Instruction, KindClass, MemorySemantics, Quantifier, Scope, Version,
};
use std::collections::HashMap;

const fn needs(cap: &'static [Capability]) -> Availability {
    Availability {
        version: Some(Version(1, 0)),
        last_version: None,
        capabilities: cap,
        extensions: &[],
        provisional: false,
    }
}

static INT8: Availability = needs(&[Capability::Int8]);
static INT16: Availability = needs(&[Capability::Int16]);
static INT64: Availability = needs(&[Capability::Int64]);
static FLOAT16: Availability = needs(&[Capability::Float16, Capability::Float16Buffer]);
/// What a module without entry points (a library) needs.
pub(super) static LINKAGE: Availability = needs(&[Capability::Linkage]);
static IMAGE_CUBE_ARRAY: Availability = needs(&[Capability::ImageCubeArray]);
static SAMPLED_CUBE_ARRAY: Availability = needs(&[Capability::SampledCubeArray]);
static LAYER_OUTSIDE_GEOMETRY: Availability = needs(&[
    Capability::ShaderViewportIndexLayerEXT,
    Capability::ShaderLayer,
]);
static VIEWPORT_INDEX_OUTSIDE_GEOMETRY: Availability = needs(&[
    Capability::ShaderViewportIndexLayerEXT,
    Capability::ShaderViewportIndex,
]);
static VECTOR16: Availability = needs(&[Capability::Vector16]);
static STORAGE_BUFFER_16: Availability = needs(&[Capability::StorageBuffer16BitAccess]);
static UNIFORM_16: Availability = needs(&[Capability::UniformAndStorageBuffer16BitAccess]);
static PUSH_CONSTANT_16: Availability = needs(&[Capability::StoragePushConstant16]);
static INPUT_OUTPUT_16: Availability = needs(&[Capability::StorageInputOutput16]);
static RUNTIME_DESCRIPTOR_ARRAY: Availability = needs(&[Capability::RuntimeDescriptorArray]);
static SAMPLED_IMAGE_NU: Availability = needs(&[Capability::SampledImageArrayNonUniformIndexing]);
static STORAGE_IMAGE_NU: Availability = needs(&[Capability::StorageImageArrayNonUniformIndexing]);
static UNIFORM_TEXEL_NU: Availability =
    needs(&[Capability::UniformTexelBufferArrayNonUniformIndexing]);
static STORAGE_TEXEL_NU: Availability =
    needs(&[Capability::StorageTexelBufferArrayNonUniformIndexing]);
static INPUT_ATTACHMENT_NU: Availability =
    needs(&[Capability::InputAttachmentArrayNonUniformIndexing]);
static UNIFORM_BUFFER_NU: Availability = needs(&[Capability::UniformBufferArrayNonUniformIndexing]);
static STORAGE_BUFFER_NU: Availability = needs(&[Capability::StorageBufferArrayNonUniformIndexing]);
static IMAGE_1D: Availability = needs(&[Capability::Image1D]);
static IMAGE_BUFFER: Availability = needs(&[Capability::ImageBuffer]);
static READ_WITHOUT_FORMAT: Availability = needs(&[Capability::StorageImageReadWithoutFormat]);
static WRITE_WITHOUT_FORMAT: Availability = needs(&[Capability::StorageImageWriteWithoutFormat]);
static FLOAT64: Availability = needs(&[Capability::Float64]);
static INT64_ATOMICS: Availability = needs(&[Capability::Int64Atomics]);
static STORAGE_IMAGE_MS: Availability = needs(&[Capability::StorageImageMultisample]);
static INT64_IMAGE: Availability = needs(&[Capability::Int64ImageEXT]);
static DEVICE_SCOPE: Availability = needs(&[Capability::VulkanMemoryModelDeviceScope]);
static VERSION_1_4: Availability = Availability {
    version: Some(Version(1, 4)),
    ..needs(&[])
};
static VERSION_1_6: Availability = Availability {
    version: Some(Version(1, 6)),
    ..needs(&[])
};
/// `OpBitcast` between a pointer and an integer vector.
static POINTER_VECTOR_BITCAST: Availability = Availability {
    version: Some(Version(1, 5)),
    extensions: &[crate::grammar::Extension::SPV_KHR_physical_storage_buffer],
    ..needs(&[])
};
static VERSION_1_5: Availability = Availability {
    version: Some(Version(1, 5)),
    ..needs(&[])
};
/// A form SPIR-V 1.6 forbids.
static BEFORE_1_6: Availability = Availability {
    last_version: Some(Version(1, 5)),
    ..needs(&[])
};

/// The extensions spirv-val accepts only from a version on, as its `ValidateExtension` does
/// ("<name> extension requires SPIR-V version 1.4 or later"): the grammar gives extensions no
/// version of their own.
pub fn extension_version(e: crate::grammar::Extension) -> Option<Version> {
    use crate::grammar::Extension as E;
    match e {
        E::SPV_KHR_workgroup_memory_explicit_layout
        | E::SPV_EXT_mesh_shader
        | E::SPV_NV_shader_invocation_reorder => Some(Version(1, 4)),
        _ => None,
    }
}

/// Extensions the grammar does not name, but which stand in for a version (see the module
/// documentation).
const NON_SEMANTIC_INFO: &str = "SPV_KHR_non_semantic_info";
const AMD_GPU_SHADER_INT16: &str = "SPV_AMD_gpu_shader_int16";

/// What the special cases need to know about a module: widths of types, types of values and
/// values of 32-bit constants.
#[derive(Default)]
pub struct Facts {
    vulkan_memory_model: bool,
    storage_class: HashMap<u32, crate::grammar::StorageClass>,
    int_width: HashMap<u32, u32>,
    /// The type of every value: the largest thing the requirements walk holds, so dense by id
    /// (below the module's bound, when the module is large enough to have that many ids).
    value_type: IdMap<u32>,
    constant: HashMap<u32, u32>,
    kernel: bool,
    geometry: bool,
    pre_rasterization: bool,
    pointee: HashMap<u32, u32>,
    runtime_arrays: std::collections::HashSet<u32>,
    /// Vector types; structs, arrays and matrices (what `OpSelect` before 1.4 cannot choose).
    vectors: std::collections::HashSet<u32>,
    aggregates: std::collections::HashSet<u32>,
    images: HashMap<u32, (crate::grammar::Dim, u32, u32, crate::grammar::ImageFormat)>,
    /// Whether the module declares `SPV_KHR_non_semantic_info` / `SPV_AMD_gpu_shader_int16`.
    non_semantic_info: bool,
    amd_gpu_shader_int16: bool,
    /// Results of constant-creation instructions (`OpConstant*`, `OpSpecConstant*`).
    constants: std::collections::HashSet<u32>,
    /// Types that are or hold 16-bit integers or floats (through vectors, matrices, arrays and
    /// struct members, not pointers).
    holds_16bit: std::collections::HashSet<u32>,
    /// Element types of arrays and runtime arrays.
    array_element: HashMap<u32, u32>,
    /// Structs decorated `BufferBlock`.
    buffer_blocks: std::collections::HashSet<u32>,
    /// Ids decorated `NonUniform`.
    nonuniform: std::collections::HashSet<u32>,
    /// `OpTypeSampler` and `OpTypeSampledImage` types.
    samplers: std::collections::HashSet<u32>,
}

impl Facts {
    /// Facts of a module of `words` words whose header says `bound`.
    pub fn for_module(bound: u32, words: usize) -> Self {
        Facts {
            value_type: IdMap::with_limit((bound as usize).min(words)),
            ..Facts::default()
        }
    }

    /// Indexes a module's types and constants, one instruction at a time (so that the module
    /// need not be held decoded).
    pub fn observe(&mut self, i: &Instruction) {
        let f = self;
        match i {
            Instruction::Capability(c) if c.capability == Capability::Kernel => f.kernel = true,
            Instruction::Extension(e) => match e.name.as_str() {
                NON_SEMANTIC_INFO => f.non_semantic_info = true,
                AMD_GPU_SHADER_INT16 => f.amd_gpu_shader_int16 = true,
                _ => {}
            },
            Instruction::EntryPoint(e) => {
                use crate::grammar::ExecutionModel as M;
                match e.execution_model {
                    M::Geometry => f.geometry = true,
                    M::Vertex | M::TessellationControl | M::TessellationEvaluation => {
                        f.pre_rasterization = true
                    }
                    _ => {}
                }
            }
            Instruction::TypePointer(p) => {
                f.pointee.insert(p.result_id.0, p.type_.0);
            }
            Instruction::TypeRuntimeArray(a) => {
                f.runtime_arrays.insert(a.result_id.0);
                f.array_element.insert(a.result_id.0, a.element_type.0);
                f.inherit_16bit(a.result_id.0, &[a.element_type.0]);
            }
            Instruction::TypeVector(v) => {
                f.vectors.insert(v.result_id.0);
                f.inherit_16bit(v.result_id.0, &[v.component_type.0]);
            }
            Instruction::TypeStruct(t) => {
                f.aggregates.insert(t.result_id.0);
                let members: Vec<u32> = t.member_types.iter().map(|m| m.0).collect();
                f.inherit_16bit(t.result_id.0, &members);
            }
            Instruction::TypeArray(t) => {
                f.aggregates.insert(t.result_id.0);
                f.array_element.insert(t.result_id.0, t.element_type.0);
                f.inherit_16bit(t.result_id.0, &[t.element_type.0]);
            }
            Instruction::TypeMatrix(t) => {
                f.aggregates.insert(t.result_id.0);
                f.inherit_16bit(t.result_id.0, &[t.column_type.0]);
            }
            Instruction::TypeFloat(t) if t.width == 16 => {
                f.holds_16bit.insert(t.result_id.0);
            }
            Instruction::Decorate(d) if d.decoration == crate::grammar::Decoration::BufferBlock => {
                f.buffer_blocks.insert(d.target.0);
            }
            Instruction::Decorate(d) if d.decoration == crate::grammar::Decoration::NonUniform => {
                f.nonuniform.insert(d.target.0);
            }
            Instruction::TypeSampler(t) => {
                f.samplers.insert(t.result_id.0);
            }
            Instruction::TypeSampledImage(t) => {
                f.samplers.insert(t.result_id.0);
            }
            Instruction::TypeImage(t) => {
                f.images
                    .insert(t.result_id.0, (t.dim, t.arrayed, t.sampled, t.image_format));
            }
            Instruction::MemoryModel(m) => {
                f.vulkan_memory_model = m.memory_model == crate::grammar::MemoryModel::Vulkan;
            }
            Instruction::Variable(v) => {
                f.storage_class.insert(v.result_id.0, v.storage_class);
            }
            Instruction::TypeInt(t) => {
                f.int_width.insert(t.result_id.0, t.width);
                if t.width == 16 {
                    f.holds_16bit.insert(t.result_id.0);
                }
            }
            Instruction::Constant(c) => {
                if let crate::grammar::LiteralNumber::Word(w) = c.value {
                    f.constant.insert(c.result_id.0, w);
                }
            }
            _ => {}
        }
        if let (Some(t), Some(r)) = (i.result_type(), i.result_id()) {
            f.value_type.set(r.0, t.0);
            if i.opcode().is_some_and(|o| o.is_constant_creation()) {
                f.constants.insert(r.0);
            }
        }
    }

    /// A copy's memory operands: their scopes as Load/Store's, and SPIR-V 1.4 for a second.
    fn visit_copy(
        &self,
        target: &Option<crate::grammar::MemoryAccessArgs>,
        source: &Option<crate::grammar::MemoryAccessArgs>,
        f: &mut dyn FnMut(&'static Availability),
    ) {
        self.visit_access_scopes(target.as_ref(), f);
        self.visit_access_scopes(source.as_ref(), f);
        if source.is_some() {
            f(&VERSION_1_4)
        }
    }

    /// Records that `ty` holds 16-bit values when one of `parts` does.
    fn inherit_16bit(&mut self, ty: u32, parts: &[u32]) {
        if parts.iter().any(|p| self.holds_16bit.contains(p)) {
            self.holds_16bit.insert(ty);
        }
    }

    /// The 16-bit storage capability a shader variable of pointer type `ptr` in `sc` needs, if
    /// its type holds 16-bit values.
    fn storage_16bit(
        &self,
        ptr: u32,
        sc: crate::grammar::StorageClass,
    ) -> Option<&'static Availability> {
        use crate::grammar::StorageClass as S;
        let pointee = *self.pointee.get(&ptr)?;
        if self.kernel || !self.holds_16bit.contains(&pointee) {
            return None;
        }
        Some(match sc {
            S::StorageBuffer | S::PhysicalStorageBuffer => &STORAGE_BUFFER_16,
            S::Uniform => {
                let mut t = pointee;
                while let Some(&e) = self.array_element.get(&t) {
                    t = e;
                }
                if self.buffer_blocks.contains(&t) {
                    &STORAGE_BUFFER_16
                } else {
                    &UNIFORM_16
                }
            }
            S::PushConstant => &PUSH_CONSTANT_16,
            S::Input | S::Output => &INPUT_OUTPUT_16,
            _ => return None,
        })
    }

    /// The non-uniform indexing capability an access chain decorated `NonUniform` from `base`
    /// needs, if `base` is an array of descriptors.
    fn nonuniform_indexing(&self, base: u32) -> Option<&'static Availability> {
        use crate::grammar::{Dim, StorageClass as S};
        let pointee = *self.pointee.get(&self.value_type.get(base))?;
        let element = *self.array_element.get(&pointee)?;
        if self.samplers.contains(&element) {
            return Some(&SAMPLED_IMAGE_NU);
        }
        if let Some(&(dim, _, sampled, _)) = self.images.get(&element) {
            return Some(match (dim, sampled) {
                (Dim::SubpassData, _) => &INPUT_ATTACHMENT_NU,
                (Dim::Buffer, 2) => &STORAGE_TEXEL_NU,
                (Dim::Buffer, _) => &UNIFORM_TEXEL_NU,
                (_, 2) => &STORAGE_IMAGE_NU,
                _ => &SAMPLED_IMAGE_NU,
            });
        }
        match self.storage_class.get(&base)? {
            S::StorageBuffer => Some(&STORAGE_BUFFER_NU),
            S::Uniform if self.buffer_blocks.contains(&element) => Some(&STORAGE_BUFFER_NU),
            S::Uniform => Some(&UNIFORM_BUFFER_NU),
            _ => None,
        }
    }

    /// Calls `f` with what `inst` needs beyond its generated availability.
    pub fn visit(&self, inst: &Instruction, f: &mut dyn FnMut(&'static Availability)) {
        match inst {
            Instruction::AccessChain(a) if self.nonuniform.contains(&a.result_id.0) => {
                if let Some(n) = self.nonuniform_indexing(a.base.0) {
                    f(n)
                }
            }
            Instruction::TypeInt(t) => match t.width {
                8 => f(&INT8),
                16 => f(&INT16),
                64 => f(&INT64),
                _ => {}
            },
            Instruction::TypeFloat(t) => match t.width {
                16 => f(&FLOAT16),
                64 => f(&FLOAT64),
                _ => {}
            },
            Instruction::TypeImage(t) => {
                use crate::grammar::Dim;
                if t.ms == 1 && t.sampled == 2 && t.dim != Dim::SubpassData {
                    f(&STORAGE_IMAGE_MS)
                }
                // The SPIR-V spec's SampledCubeArray: "uses the Arrayed operand of OpTypeImage
                // with Sampled 1 and Dim Cube" (the grammar cannot tie a capability to that mix).
                if t.dim == Dim::Cube && t.arrayed == 1 && t.sampled == 1 {
                    f(&SAMPLED_CUBE_ARRAY)
                }
                // spirv-val: "Capability Int64ImageEXT is required when using Sampled Type of
                // 64-bit int" (the grammar ties it only to the R64i/R64ui formats).
                if !self.kernel && self.int_width.get(&t.sampled_type.0) == Some(&64) {
                    f(&INT64_IMAGE)
                }
            }
            Instruction::TypeVector(v) if matches!(v.component_count, 8 | 16) => f(&VECTOR16),
            Instruction::Variable(v) => {
                let pointee = self.pointee.get(&v.result_type.0);
                if pointee.is_some_and(|t| self.runtime_arrays.contains(t)) {
                    f(&RUNTIME_DESCRIPTOR_ARRAY)
                }
                if let Some(a) = self.storage_16bit(v.result_type.0, v.storage_class) {
                    f(a)
                }
            }
            Instruction::ImageRead(r) => {
                self.visit_storage_image(r.image.0, &READ_WITHOUT_FORMAT, f)
            }
            Instruction::ImageSparseRead(r) => {
                self.visit_storage_image(r.image.0, &READ_WITHOUT_FORMAT, f)
            }
            Instruction::ImageWrite(w) => {
                self.visit_storage_image(w.image.0, &WRITE_WITHOUT_FORMAT, f)
            }
            Instruction::Select(s) => {
                let ty = s.result_type.0;
                let condition = self.value_type.get(s.condition.0);
                if self.aggregates.contains(&ty)
                    || (self.vectors.contains(&ty) && !self.vectors.contains(&condition))
                {
                    f(&VERSION_1_4)
                }
            }
            Instruction::CopyMemory(c) => self.visit_copy(&c.memory_access, &c.memory_access_2, f),
            Instruction::CopyMemorySized(c) => {
                self.visit_copy(&c.memory_access, &c.memory_access_2, f)
            }
            Instruction::SpecConstantOp(s)
                if s.opcode.opcode == crate::grammar::Opcode::UConvert
                    && !self.kernel
                    && !self.amd_gpu_shader_int16 =>
            {
                f(&VERSION_1_4)
            }
            Instruction::Bitcast(b) => {
                let (to, from) = (b.result_type.0, self.value_type.get(b.operand.0));
                let pointer = |t: u32| self.pointee.contains_key(&t);
                if (pointer(to) && self.vectors.contains(&from))
                    || (pointer(from) && self.vectors.contains(&to))
                {
                    f(&POINTER_VECTOR_BITCAST)
                }
            }
            Instruction::ExtInstImport(i)
                if i.name.starts_with("NonSemantic.") && !self.non_semantic_info =>
            {
                f(&VERSION_1_6)
            }
            Instruction::GroupNonUniformBroadcast(_)
            | Instruction::GroupNonUniformQuadBroadcast(_) => {
                // The id (index) is the last operand; read from the encoding, since grammars
                // name it differently (`Id`, `Invocation Id`).
                let mut words = Vec::new();
                let _ = crate::binary::encode_instruction(inst, &mut words);
                if words.len() > 1 && words.last().is_some_and(|id| !self.constants.contains(id)) {
                    f(&VERSION_1_5)
                }
            }
            Instruction::BranchConditional(b) if b.true_label == b.false_label => f(&BEFORE_1_6),
            Instruction::TypeSampledImage(t)
                if self
                    .images
                    .get(&t.image_type.0)
                    .is_some_and(|i| i.0 == crate::grammar::Dim::Buffer) =>
            {
                f(&BEFORE_1_6)
            }
            Instruction::Load(l) => self.visit_access_scopes(l.memory_access.as_ref(), f),
            Instruction::Store(s) => self.visit_access_scopes(s.memory_access.as_ref(), f),
            Instruction::EntryPoint(e) => {
                use crate::grammar::StorageClass::{Input, Output};
                let other = e.interfaces.iter().any(|v| {
                    self.storage_class
                        .get(&v.0)
                        .is_some_and(|s| !matches!(s, Input | Output))
                });
                if other {
                    f(&VERSION_1_4)
                }
            }
            _ => {}
        }
        let Some(desc) = core_instruction(inst.opcode_value()) else {
            return;
        };
        if desc.name.starts_with("OpAtomic") {
            let ty = inst
                .result_type()
                .map(|t| t.0)
                .or_else(|| self.stored_type(inst));
            if ty.and_then(|t| self.int_width.get(&t)) == Some(&64) {
                f(&INT64_ATOMICS);
            }
        }
        self.visit_scopes(inst, desc, f);
    }

    /// What a `Layer` or `ViewportIndex` built-in needs when the module writes it outside a
    /// geometry shader, where the grammar's first choice, `Geometry`, does not enable it
    /// (Vulkan asks for `ShaderViewportIndexLayerEXT`, or the 1.5 capabilities).
    pub fn layer_outside_geometry(
        &self,
        built_in: crate::grammar::BuiltIn,
    ) -> Option<&'static Availability> {
        use crate::grammar::BuiltIn;
        if self.geometry || !self.pre_rasterization {
            return None;
        }
        match built_in {
            BuiltIn::Layer => Some(&LAYER_OUTSIDE_GEOMETRY),
            BuiltIn::ViewportIndex => Some(&VIEWPORT_INDEX_OUTSIDE_GEOMETRY),
            _ => None,
        }
    }

    /// Dims and formats of a storage image that is read or written.
    fn visit_storage_image(
        &self,
        image: u32,
        without_format: &'static Availability,
        f: &mut dyn FnMut(&'static Availability),
    ) {
        use crate::grammar::{Dim, ImageFormat};
        let Some(&(dim, arrayed, sampled, format)) = Some(self.value_type.get(image))
            .filter(|&t| t != 0)
            .and_then(|t| self.images.get(&t))
        else {
            return;
        };
        if sampled != 2 || dim == Dim::SubpassData {
            return;
        }
        match dim {
            Dim::Dim1D => f(&IMAGE_1D),
            Dim::Buffer => f(&IMAGE_BUFFER),
            Dim::Cube if arrayed == 1 => f(&IMAGE_CUBE_ARRAY),
            _ => {}
        }
        if format == ImageFormat::Unknown && !self.kernel {
            f(without_format)
        }
    }

    /// `MakePointerAvailable`/`MakePointerVisible` scopes of a memory-access operand.
    fn visit_access_scopes(
        &self,
        access: Option<&crate::grammar::MemoryAccessArgs>,
        f: &mut dyn FnMut(&'static Availability),
    ) {
        let Some(a) = access else { return };
        let device = Scope::Device as u32;
        let scopes = [a.make_pointer_available, a.make_pointer_visible];
        if self.vulkan_memory_model
            && scopes
                .iter()
                .flatten()
                .any(|id| self.constant.get(&id.0) == Some(&device))
        {
            f(&DEVICE_SCOPE)
        }
    }

    /// The type of the value an `OpAtomicStore` stores.
    fn stored_type(&self, inst: &Instruction) -> Option<u32> {
        match inst {
            Instruction::AtomicStore(s) => Some(self.value_type.get(s.value.0)).filter(|&t| t != 0),
            _ => None,
        }
    }

    /// Scope and memory-semantics operands: the availability of the enumerants their
    /// constants hold. Only the leading fixed-size operands are walked; every instruction with
    /// such operands has them there.
    fn visit_scopes(
        &self,
        inst: &Instruction,
        desc: &crate::grammar::InstructionDesc,
        f: &mut dyn FnMut(&'static Availability),
    ) {
        let has_scope = desc
            .operands
            .iter()
            .any(|o| matches!(o.kind.name, "IdScope" | "IdMemorySemantics"));
        if !has_scope {
            return;
        }
        let mut words = Vec::new();
        crate::binary::encode_operands(inst, &mut words);
        for (o, &w) in desc.operands.iter().zip(&words) {
            let single = o.quantifier == Quantifier::One
                && matches!(
                    o.kind.class,
                    KindClass::Id | KindClass::Result | KindClass::ResultType | KindClass::Integer
                );
            if !single {
                break;
            }
            let Some(&value) = self.constant.get(&w) else {
                continue;
            };
            match o.kind.name {
                "IdScope" => {
                    if let Some(s) = Scope::from_value(value) {
                        f(s.availability());
                        if s == Scope::Device && self.vulkan_memory_model {
                            f(&DEVICE_SCOPE);
                        }
                    }
                }
                "IdMemorySemantics" => {
                    let mut m = value;
                    while m != 0 {
                        let bit = m & m.wrapping_neg();
                        // spirv-val asks no capability for AtomicCounterMemory (glslang sets
                        // it in every barrier of HLSL's *MemoryBarrier* intrinsics).
                        let counter = MemorySemantics::AtomicCounterMemory.0;
                        if bit == counter {
                            m &= m - 1;
                            continue;
                        }
                        if let Some(a) = MemorySemantics::bit_availability(bit) {
                            f(a);
                        }
                        m &= m - 1;
                    }
                }
                _ => {}
            }
        }
    }
}
