//! Target environments, spelled as SPIRV-Tools spells them (`--target-env` of `spirv-as` and
//! `spirv-val` 2023.1) plus `level-zero` (the oneAPI Level Zero environment), the SPIR-V version
//! each one implies, and what each accepts: versions, capabilities and extensions.
//!
//! The capability tables are data from the client API specifications, as SPIRV-Tools'
//! `validate_capability.cpp` transcribes them (Vulkan's "SPIR-V capabilities" appendix, the
//! OpenCL SPIR-V environment specification) and from the Level Zero SPIR-V environment
//! document. The grammar knows which capabilities exist, not which ones a client API accepts,
//! so they are written here by hand.

use crate::grammar::{Capability, Extension, Version};
use core::fmt;
use core::str::FromStr;

/// An environment a module is assembled or validated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetEnv {
    /// `spv1.0`: SPIR-V 1.0 with no client API.
    Universal1_0,
    /// `spv1.1`.
    Universal1_1,
    /// `spv1.2`.
    Universal1_2,
    /// `spv1.3`.
    Universal1_3,
    /// `spv1.4`.
    Universal1_4,
    /// `spv1.5`.
    Universal1_5,
    /// `spv1.6`.
    Universal1_6,
    /// `vulkan1.0`.
    Vulkan1_0,
    /// `vulkan1.1`.
    Vulkan1_1,
    /// `vulkan1.1spv1.4`: Vulkan 1.1 with SPIR-V 1.4.
    Vulkan1_1Spirv1_4,
    /// `vulkan1.2`.
    Vulkan1_2,
    /// `vulkan1.3`.
    Vulkan1_3,
    /// `opencl1.2`.
    OpenCl1_2,
    /// `opencl1.2embedded`.
    OpenClEmbedded1_2,
    /// `opencl2.0`.
    OpenCl2_0,
    /// `opencl2.0embedded`.
    OpenClEmbedded2_0,
    /// `opencl2.1`.
    OpenCl2_1,
    /// `opencl2.1embedded`.
    OpenClEmbedded2_1,
    /// `opencl2.2`.
    OpenCl2_2,
    /// `opencl2.2embedded`.
    OpenClEmbedded2_2,
    /// `opengl4.0`.
    OpenGl4_0,
    /// `opengl4.1`.
    OpenGl4_1,
    /// `opengl4.2`.
    OpenGl4_2,
    /// `opengl4.3`.
    OpenGl4_3,
    /// `opengl4.5`.
    OpenGl4_5,
    /// `level-zero`: the oneAPI Level Zero SPIR-V environment (SPIR-V 1.0–1.2 kernels).
    LevelZero,
}

impl TargetEnv {
    /// Every environment, in the order `spirv-as --help` lists them.
    pub const ALL: [TargetEnv; 26] = [
        TargetEnv::Vulkan1_1Spirv1_4,
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
        TargetEnv::Universal1_0,
        TargetEnv::Universal1_1,
        TargetEnv::Universal1_2,
        TargetEnv::Universal1_3,
        TargetEnv::Universal1_4,
        TargetEnv::Universal1_5,
        TargetEnv::Universal1_6,
        TargetEnv::OpenClEmbedded1_2,
        TargetEnv::OpenCl1_2,
        TargetEnv::OpenClEmbedded2_0,
        TargetEnv::OpenCl2_0,
        TargetEnv::OpenClEmbedded2_1,
        TargetEnv::OpenCl2_1,
        TargetEnv::OpenClEmbedded2_2,
        TargetEnv::OpenCl2_2,
        TargetEnv::OpenGl4_0,
        TargetEnv::OpenGl4_1,
        TargetEnv::OpenGl4_2,
        TargetEnv::OpenGl4_3,
        TargetEnv::OpenGl4_5,
        TargetEnv::LevelZero,
    ];

    /// The SPIRV-Tools name (`vulkan1.1spv1.4`, `spv1.3`, `opencl2.2embedded`...).
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::Universal1_0 => "spv1.0",
            TargetEnv::Universal1_1 => "spv1.1",
            TargetEnv::Universal1_2 => "spv1.2",
            TargetEnv::Universal1_3 => "spv1.3",
            TargetEnv::Universal1_4 => "spv1.4",
            TargetEnv::Universal1_5 => "spv1.5",
            TargetEnv::Universal1_6 => "spv1.6",
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::OpenCl1_2 => "opencl1.2",
            TargetEnv::OpenClEmbedded1_2 => "opencl1.2embedded",
            TargetEnv::OpenCl2_0 => "opencl2.0",
            TargetEnv::OpenClEmbedded2_0 => "opencl2.0embedded",
            TargetEnv::OpenCl2_1 => "opencl2.1",
            TargetEnv::OpenClEmbedded2_1 => "opencl2.1embedded",
            TargetEnv::OpenCl2_2 => "opencl2.2",
            TargetEnv::OpenClEmbedded2_2 => "opencl2.2embedded",
            TargetEnv::OpenGl4_0 => "opengl4.0",
            TargetEnv::OpenGl4_1 => "opengl4.1",
            TargetEnv::OpenGl4_2 => "opengl4.2",
            TargetEnv::OpenGl4_3 => "opengl4.3",
            TargetEnv::OpenGl4_5 => "opengl4.5",
            TargetEnv::LevelZero => "level-zero",
        }
    }

    /// The SPIR-V version of the environment: the version word `spirv-as` writes for it, and
    /// the version against which it looks up instruction and enumerant names.
    pub fn spirv_version(self) -> Version {
        match self {
            TargetEnv::Universal1_0
            | TargetEnv::Vulkan1_0
            | TargetEnv::OpenCl1_2
            | TargetEnv::OpenClEmbedded1_2
            | TargetEnv::OpenCl2_0
            | TargetEnv::OpenClEmbedded2_0
            | TargetEnv::OpenCl2_1
            | TargetEnv::OpenClEmbedded2_1
            | TargetEnv::OpenGl4_0
            | TargetEnv::OpenGl4_1
            | TargetEnv::OpenGl4_2
            | TargetEnv::OpenGl4_3
            | TargetEnv::OpenGl4_5 => Version(1, 0),
            TargetEnv::Universal1_1 => Version(1, 1),
            TargetEnv::Universal1_2
            | TargetEnv::OpenCl2_2
            | TargetEnv::OpenClEmbedded2_2
            | TargetEnv::LevelZero => Version(1, 2),
            TargetEnv::Universal1_3 | TargetEnv::Vulkan1_1 => Version(1, 3),
            TargetEnv::Universal1_4 | TargetEnv::Vulkan1_1Spirv1_4 => Version(1, 4),
            TargetEnv::Universal1_5 | TargetEnv::Vulkan1_2 => Version(1, 5),
            TargetEnv::Universal1_6 | TargetEnv::Vulkan1_3 => Version(1, 6),
        }
    }
}

/// The client API family of an environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientApi {
    /// `spvX.Y`: SPIR-V alone.
    Universal,
    /// `vulkanX.Y`.
    Vulkan,
    /// `openclX.Y` and its embedded profiles.
    OpenCl,
    /// `openglX.Y`.
    OpenGl,
    /// `level-zero`.
    LevelZero,
}

impl TargetEnv {
    /// The client API the environment belongs to.
    pub fn client_api(self) -> ClientApi {
        use TargetEnv::*;
        match self {
            Universal1_0 | Universal1_1 | Universal1_2 | Universal1_3 | Universal1_4
            | Universal1_5 | Universal1_6 => ClientApi::Universal,
            Vulkan1_0 | Vulkan1_1 | Vulkan1_1Spirv1_4 | Vulkan1_2 | Vulkan1_3 => ClientApi::Vulkan,
            OpenCl1_2 | OpenClEmbedded1_2 | OpenCl2_0 | OpenClEmbedded2_0 | OpenCl2_1
            | OpenClEmbedded2_1 | OpenCl2_2 | OpenClEmbedded2_2 => ClientApi::OpenCl,
            OpenGl4_0 | OpenGl4_1 | OpenGl4_2 | OpenGl4_3 | OpenGl4_5 => ClientApi::OpenGl,
            LevelZero => ClientApi::LevelZero,
        }
    }

    /// Whether this is a Vulkan environment.
    pub fn is_vulkan(self) -> bool {
        self.client_api() == ClientApi::Vulkan
    }

    /// Whether this is an OpenCL environment (full or embedded profile).
    pub fn is_opencl(self) -> bool {
        self.client_api() == ClientApi::OpenCl
    }

    /// Whether this is an OpenCL embedded profile.
    pub fn is_opencl_embedded(self) -> bool {
        matches!(
            self,
            TargetEnv::OpenClEmbedded1_2
                | TargetEnv::OpenClEmbedded2_0
                | TargetEnv::OpenClEmbedded2_1
                | TargetEnv::OpenClEmbedded2_2
        )
    }

    /// The newest SPIR-V version a module may have in this environment (`spirv-val` rejects
    /// a newer header version).
    pub fn max_version(self) -> Version {
        self.spirv_version()
    }

    /// Whether a module of SPIR-V version `v` is accepted.
    pub fn accepts_version(self, v: Version) -> bool {
        v >= Version(1, 0) && v <= self.max_version()
    }

    /// How the environment supports `cap` by itself, before extensions and other declared
    /// capabilities are considered.
    pub fn capability_support(self, cap: Capability) -> Support {
        use ClientApi as A;
        use TargetEnv::*;
        let guaranteed = match self.client_api() {
            A::Universal | A::OpenGl => return Support::Guaranteed,
            A::Vulkan => match self {
                Vulkan1_0 => VULKAN_1_0_GUARANTEED.contains(&cap),
                Vulkan1_1 | Vulkan1_1Spirv1_4 => {
                    VULKAN_1_0_GUARANTEED.contains(&cap) || VULKAN_1_1_GUARANTEED.contains(&cap)
                }
                _ => {
                    VULKAN_1_0_GUARANTEED.contains(&cap)
                        || VULKAN_1_1_GUARANTEED.contains(&cap)
                        || VULKAN_1_2_GUARANTEED.contains(&cap)
                }
            },
            A::OpenCl => {
                (OPENCL_1_2_GUARANTEED.contains(&cap)
                    || (cap == Capability::Int64 && !self.is_opencl_embedded()))
                    || (!matches!(self, OpenCl1_2 | OpenClEmbedded1_2)
                        && OPENCL_2_0_GUARANTEED.contains(&cap))
                    || (matches!(self, OpenCl2_2 | OpenClEmbedded2_2)
                        && OPENCL_2_2_GUARANTEED.contains(&cap))
            }
            A::LevelZero => LEVEL_ZERO_REQUIRED.contains(&cap),
        };
        if guaranteed {
            return Support::Guaranteed;
        }
        let optional = match self.client_api() {
            A::Vulkan => match self {
                Vulkan1_0 => VULKAN_1_0_OPTIONAL.contains(&cap),
                Vulkan1_1 | Vulkan1_1Spirv1_4 => {
                    VULKAN_1_0_OPTIONAL.contains(&cap) || VULKAN_1_1_OPTIONAL.contains(&cap)
                }
                Vulkan1_2 => {
                    VULKAN_1_0_OPTIONAL.contains(&cap)
                        || VULKAN_1_1_OPTIONAL.contains(&cap)
                        || VULKAN_1_2_OPTIONAL.contains(&cap)
                }
                _ => {
                    VULKAN_1_0_OPTIONAL.contains(&cap)
                        || VULKAN_1_1_OPTIONAL.contains(&cap)
                        || VULKAN_1_2_OPTIONAL.contains(&cap)
                        || VULKAN_1_3_OPTIONAL.contains(&cap)
                }
            },
            A::OpenCl => OPENCL_OPTIONAL.contains(&cap),
            A::LevelZero => LEVEL_ZERO_OPTIONAL.contains(&cap),
            A::Universal | A::OpenGl => true,
        };
        if optional {
            Support::Optional
        } else {
            Support::No
        }
    }

    /// Whether a module may declare `OpCapability cap` in this environment, given what else it
    /// declares: the capability is supported by the environment, or enabled by one of its
    /// extensions that the module declares, or (OpenCL, Level Zero) implied by `ImageBasic`
    /// support; for Level Zero, the `SPV_INTEL_subgroups` and float-atomics capabilities need
    /// their extension.
    pub fn accepts_capability(
        self,
        cap: Capability,
        has_capability: &dyn Fn(Capability) -> bool,
        has_extension: &dyn Fn(Extension) -> bool,
    ) -> bool {
        if self.capability_support(cap) != Support::No {
            return true;
        }
        match self.client_api() {
            ClientApi::LevelZero => {
                let needs = |e: &[Extension]| e.iter().any(|&e| has_extension(e));
                return match cap {
                    Capability::LiteralSampler
                    | Capability::Sampled1D
                    | Capability::Image1D
                    | Capability::SampledBuffer
                    | Capability::ImageBuffer
                    | Capability::ImageReadWrite => has_capability(Capability::ImageBasic),
                    Capability::SubgroupShuffleINTEL
                    | Capability::SubgroupBufferBlockIOINTEL
                    | Capability::SubgroupImageBlockIOINTEL => {
                        needs(&[Extension::SPV_INTEL_subgroups])
                    }
                    Capability::AtomicFloat32AddEXT | Capability::AtomicFloat64AddEXT => {
                        needs(&[Extension::SPV_EXT_shader_atomic_float_add])
                    }
                    Capability::AtomicFloat16AddEXT => {
                        needs(&[Extension::SPV_EXT_shader_atomic_float16_add])
                    }
                    Capability::AtomicFloat16MinMaxEXT
                    | Capability::AtomicFloat32MinMaxEXT
                    | Capability::AtomicFloat64MinMaxEXT => {
                        needs(&[Extension::SPV_EXT_shader_atomic_float_min_max])
                    }
                    _ => false,
                };
            }
            ClientApi::OpenCl => {
                let image = matches!(
                    cap,
                    Capability::LiteralSampler
                        | Capability::Sampled1D
                        | Capability::Image1D
                        | Capability::SampledBuffer
                        | Capability::ImageBuffer
                ) || (cap == Capability::ImageReadWrite
                    && !matches!(self, TargetEnv::OpenCl1_2 | TargetEnv::OpenClEmbedded1_2));
                if image && has_capability(Capability::ImageBasic) {
                    return true;
                }
            }
            _ => {}
        }
        cap.availability()
            .extensions
            .iter()
            .any(|&e| has_extension(e))
    }

    /// Whether a module may declare `OpExtension ext` in this environment. Only Level Zero
    /// restricts extensions: to those its environment document names.
    pub fn accepts_extension(self, ext: &str) -> bool {
        match self.client_api() {
            ClientApi::LevelZero => LEVEL_ZERO_EXTENSIONS.contains(&ext),
            _ => true,
        }
    }
}

/// How an environment supports a capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Support {
    /// Every implementation supports it.
    Guaranteed,
    /// Implementations may support it (a device feature).
    Optional,
    /// Only an extension or another declared capability can enable it.
    No,
}

use Capability as C;

/// Vulkan 1.0: capabilities every implementation supports.
const VULKAN_1_0_GUARANTEED: &[Capability] = &[
    C::Matrix,
    C::Shader,
    C::InputAttachment,
    C::Sampled1D,
    C::Image1D,
    C::SampledBuffer,
    C::ImageBuffer,
    C::ImageQuery,
    C::DerivativeControl,
];

/// Vulkan 1.0: capabilities behind device features.
const VULKAN_1_0_OPTIONAL: &[Capability] = &[
    C::Geometry,
    C::Tessellation,
    C::Float64,
    C::Int64,
    C::Int16,
    C::TessellationPointSize,
    C::GeometryPointSize,
    C::ImageGatherExtended,
    C::StorageImageMultisample,
    C::UniformBufferArrayDynamicIndexing,
    C::SampledImageArrayDynamicIndexing,
    C::StorageBufferArrayDynamicIndexing,
    C::StorageImageArrayDynamicIndexing,
    C::ClipDistance,
    C::CullDistance,
    C::ImageCubeArray,
    C::SampleRateShading,
    C::SparseResidency,
    C::MinLod,
    C::SampledCubeArray,
    C::ImageMSArray,
    C::StorageImageExtendedFormats,
    C::InterpolationFunction,
    C::StorageImageReadWithoutFormat,
    C::StorageImageWriteWithoutFormat,
    C::MultiViewport,
    C::Int64Atomics,
    C::TransformFeedback,
    C::GeometryStreams,
    C::Float16,
    C::Int8,
];

/// Vulkan 1.1 adds these to the guaranteed ones.
const VULKAN_1_1_GUARANTEED: &[Capability] = &[C::DeviceGroup, C::MultiView];

/// Vulkan 1.1 adds these to the optional ones.
const VULKAN_1_1_OPTIONAL: &[Capability] = &[
    C::GroupNonUniform,
    C::GroupNonUniformVote,
    C::GroupNonUniformArithmetic,
    C::GroupNonUniformBallot,
    C::GroupNonUniformShuffle,
    C::GroupNonUniformShuffleRelative,
    C::GroupNonUniformClustered,
    C::GroupNonUniformQuad,
    C::DrawParameters,
    C::StorageBuffer16BitAccess,
    C::UniformAndStorageBuffer16BitAccess,
    C::StoragePushConstant16,
    C::StorageInputOutput16,
    C::VariablePointersStorageBuffer,
    C::VariablePointers,
];

/// Vulkan 1.2 adds these to the guaranteed ones.
const VULKAN_1_2_GUARANTEED: &[Capability] = &[C::ShaderNonUniform];

/// Vulkan 1.2 adds these to the optional ones.
const VULKAN_1_2_OPTIONAL: &[Capability] = &[
    C::DenormPreserve,
    C::DenormFlushToZero,
    C::SignedZeroInfNanPreserve,
    C::RoundingModeRTE,
    C::RoundingModeRTZ,
    C::VulkanMemoryModel,
    C::VulkanMemoryModelDeviceScope,
    C::StorageBuffer8BitAccess,
    C::UniformAndStorageBuffer8BitAccess,
    C::StoragePushConstant8,
    C::ShaderViewportIndex,
    C::ShaderLayer,
    C::PhysicalStorageBufferAddresses,
    C::RuntimeDescriptorArray,
    C::UniformTexelBufferArrayDynamicIndexing,
    C::StorageTexelBufferArrayDynamicIndexing,
    C::UniformBufferArrayNonUniformIndexing,
    C::SampledImageArrayNonUniformIndexing,
    C::StorageBufferArrayNonUniformIndexing,
    C::StorageImageArrayNonUniformIndexing,
    C::InputAttachmentArrayNonUniformIndexing,
    C::UniformTexelBufferArrayNonUniformIndexing,
    C::StorageTexelBufferArrayNonUniformIndexing,
];

/// Vulkan 1.3 adds these (features promoted to core: demote to helper invocation, integer
/// dot product) to the optional ones.
const VULKAN_1_3_OPTIONAL: &[Capability] = &[
    C::DemoteToHelperInvocation,
    C::DotProductInputAll,
    C::DotProductInput4x8Bit,
    C::DotProductInput4x8BitPacked,
    C::DotProduct,
];

/// OpenCL 1.2 (full and embedded): guaranteed capabilities (`Int64` too, except embedded).
const OPENCL_1_2_GUARANTEED: &[Capability] = &[
    C::Addresses,
    C::Float16Buffer,
    C::Int16,
    C::Int8,
    C::Kernel,
    C::Linkage,
    C::Vector16,
];

/// OpenCL 2.0 and 2.1 add these.
const OPENCL_2_0_GUARANTEED: &[Capability] =
    &[C::DeviceEnqueue, C::GenericPointer, C::Groups, C::Pipes];

/// OpenCL 2.2 adds these.
const OPENCL_2_2_GUARANTEED: &[Capability] = &[C::SubgroupDispatch, C::PipeStorage];

/// OpenCL: optional capabilities (image support, doubles).
const OPENCL_OPTIONAL: &[Capability] = &[C::ImageBasic, C::Float64];

/// Level Zero, "Required Capabilities" for SPIR-V 1.0 (1.1 and 1.2 add none).
const LEVEL_ZERO_REQUIRED: &[Capability] = &[
    C::Addresses,
    C::Float16Buffer,
    C::Int64,
    C::Int16,
    C::Int8,
    C::Kernel,
    C::Linkage,
    C::Vector16,
    C::GenericPointer,
    C::Groups,
];

/// Level Zero: capabilities supported by devices with the matching property
/// (`ze_device_image_properties_t.supported`, `ZE_DEVICE_MODULE_FLAG_FP16`, `..._FP64`,
/// `..._INT64_ATOMICS`).
const LEVEL_ZERO_OPTIONAL: &[Capability] =
    &[C::ImageBasic, C::Float16, C::Float64, C::Int64Atomics];

/// Level Zero: the extensions its environment document names.
const LEVEL_ZERO_EXTENSIONS: &[&str] = &[
    "SPV_INTEL_subgroups",
    "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_shader_atomic_float16_add",
    "SPV_EXT_shader_atomic_float_min_max",
];

impl Default for TargetEnv {
    /// `spv1.6`, the environment `spirv-as` and `spirv-val` 2023.1 use when none is given.
    fn default() -> Self {
        TargetEnv::Universal1_6
    }
}

impl fmt::Display for TargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a target environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTargetEnv(pub String);

impl fmt::Display for UnknownTargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Unrecognized target env: {}", self.0)
    }
}

impl std::error::Error for UnknownTargetEnv {}

impl FromStr for TargetEnv {
    type Err = UnknownTargetEnv;

    /// Parses a SPIRV-Tools name exactly (SPIRV-Tools itself also accepts any text that merely
    /// starts with a name, such as `spv1.0foo`; this does not).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TargetEnv::ALL
            .iter()
            .copied()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownTargetEnv(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in TargetEnv::ALL {
            assert_eq!(e.to_string().parse::<TargetEnv>(), Ok(e));
        }
        assert!("universal1.0".parse::<TargetEnv>().is_err());
        assert!("spv1.0foo".parse::<TargetEnv>().is_err());
        assert_eq!(TargetEnv::default().spirv_version(), Version(1, 6));
    }

    #[test]
    fn capability_tables() {
        let no_cap = |_: Capability| false;
        let no_ext = |_: Extension| false;
        let k = Capability::Kernel;
        assert!(!TargetEnv::Vulkan1_0.accepts_capability(k, &no_cap, &no_ext));
        assert!(TargetEnv::OpenCl2_0.accepts_capability(k, &no_cap, &no_ext));
        assert!(TargetEnv::LevelZero.accepts_capability(k, &no_cap, &no_ext));
        let shader = Capability::Shader;
        assert!(!TargetEnv::LevelZero.accepts_capability(shader, &no_cap, &no_ext));
        let sub = Capability::SubgroupShuffleINTEL;
        assert!(!TargetEnv::LevelZero.accepts_capability(sub, &no_cap, &no_ext));
        let subgroups = |e: Extension| e == Extension::SPV_INTEL_subgroups;
        assert!(TargetEnv::LevelZero.accepts_capability(sub, &no_cap, &subgroups));
        let int64 = Capability::Int64;
        assert!(!TargetEnv::OpenClEmbedded1_2.accepts_capability(int64, &no_cap, &no_ext));
        assert!(TargetEnv::Universal1_0.accepts_capability(shader, &no_cap, &no_ext));
        assert_eq!("level-zero".parse::<TargetEnv>(), Ok(TargetEnv::LevelZero));
    }
}
