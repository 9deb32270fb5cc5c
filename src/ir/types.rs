//! Types: first-class and uniqued ([`super::UniqueArena`]), with no type-declaration
//! instructions in the IR. The decorations that give a type its layout are part of the type
//! (`ArrayStride`, `Block`, member `Offset`, ...), so two structs that differ in decorations
//! or names are two types, while structurally equal non-aggregates are one.

use super::arena::Handle;
use super::value::Value;
use crate::grammar::{AccessQualifier, Decoration, Dim, ImageFormat, Instruction, StorageClass};

/// A SPIR-V type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness 1 (signed semantics) rather than 0 (unsigned or none).
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width in bits.
        width: u32,
    },
    /// `OpTypeVector`.
    Vector {
        /// The component type.
        component: Handle<Type>,
        /// Number of components.
        count: u32,
    },
    /// `OpTypeMatrix`.
    Matrix {
        /// The column type (a vector).
        column: Handle<Type>,
        /// Number of columns.
        count: u32,
    },
    /// `OpTypeArray` with its `ArrayStride`.
    Array {
        /// The element type.
        element: Handle<Type>,
        /// The length: a [`Value::Constant`] or [`Value::SpecConstant`].
        length: Value,
        /// The `ArrayStride` decoration.
        stride: Option<u32>,
    },
    /// `OpTypeRuntimeArray` with its `ArrayStride`.
    RuntimeArray {
        /// The element type.
        element: Handle<Type>,
        /// The `ArrayStride` decoration.
        stride: Option<u32>,
    },
    /// `OpTypePointer` with its `ArrayStride` (for pointers into physical storage).
    ///
    /// A pointer may point to a type that contains it; serialization emits
    /// `OpTypeForwardPointer` where the binary form needs one.
    Pointer {
        /// The storage class.
        storage_class: StorageClass,
        /// The pointee type.
        pointee: Handle<Type>,
        /// The `ArrayStride` decoration.
        stride: Option<u32>,
    },
    /// `OpTypeStruct` with its names and decorations.
    Struct(StructType),
    /// `OpTypeImage`.
    Image(ImageType),
    /// `OpTypeSampledImage`.
    SampledImage {
        /// The image type.
        image: Handle<Type>,
    },
    /// `OpTypeSampler`.
    Sampler,
    /// `OpTypeFunction`.
    Function {
        /// The return type.
        ret: Handle<Type>,
        /// The parameter types.
        params: Vec<Handle<Type>>,
    },
    /// `OpTypeEvent` (OpenCL).
    Event,
    /// `OpTypeDeviceEvent` (OpenCL).
    DeviceEvent,
    /// `OpTypeReserveId` (OpenCL).
    ReserveId,
    /// `OpTypeQueue` (OpenCL).
    Queue,
    /// `OpTypePipe` (OpenCL).
    Pipe {
        /// The pipe's access qualifier.
        access: AccessQualifier,
    },
    /// `OpTypePipeStorage` (OpenCL).
    PipeStorage,
    /// `OpTypeNamedBarrier` (OpenCL).
    NamedBarrier,
    /// `OpTypeOpaque`.
    Opaque {
        /// The opaque type's name.
        name: String,
    },
    /// A type instruction this IR does not model (acceleration structures, ray queries,
    /// cooperative matrices, ...): the generated struct with its result id set to `Id(0)` and
    /// its operand ids packed [`Value`]s.
    Other(Instruction),
}

/// A struct type: members with their layout, and the struct's own decorations.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct StructType {
    /// The debug name (`OpName`).
    pub name: Option<String>,
    /// The members, in order.
    pub members: Vec<Member>,
    /// Decorations of the struct itself (`Block`, `BufferBlock`, `CPacked`, ...).
    pub decorations: Vec<Decoration>,
}

/// A struct member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    /// The member's type.
    pub ty: Handle<Type>,
    /// The debug name (`OpMemberName`).
    pub name: Option<String>,
    /// The `Offset` decoration.
    pub offset: Option<u32>,
    /// Every other member decoration (`MatrixStride`, `RowMajor`, `BuiltIn`, ...), in order.
    pub decorations: Vec<Decoration>,
}

impl Member {
    /// A member of type `ty` with no name or decorations.
    pub fn new(ty: Handle<Type>) -> Self {
        Member {
            ty,
            name: None,
            offset: None,
            decorations: Vec::new(),
        }
    }

    /// The `MatrixStride` decoration.
    pub fn matrix_stride(&self) -> Option<u32> {
        self.decorations.iter().find_map(|d| match d {
            Decoration::MatrixStride(s) => Some(*s),
            _ => None,
        })
    }

    /// Whether the member is decorated `RowMajor`.
    pub fn is_row_major(&self) -> bool {
        self.decorations
            .iter()
            .any(|d| matches!(d, Decoration::RowMajor))
    }
}

impl StructType {
    /// Whether the struct is decorated `Block`.
    pub fn is_block(&self) -> bool {
        self.decorations
            .iter()
            .any(|d| matches!(d, Decoration::Block))
    }

    /// Whether the struct is decorated `BufferBlock`.
    pub fn is_buffer_block(&self) -> bool {
        self.decorations
            .iter()
            .any(|d| matches!(d, Decoration::BufferBlock))
    }
}

/// Whether an image is a depth image (`OpTypeImage`'s Depth operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDepth {
    /// 0: not a depth image.
    NoDepth,
    /// 1: a depth image.
    IsDepth,
    /// 2: no indication.
    Unknown,
}

/// How an image is used with samplers (`OpTypeImage`'s Sampled operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageSampling {
    /// 0: known only at run time.
    Unknown,
    /// 1: used with a sampler.
    Sampled,
    /// 2: used without a sampler (a storage image).
    Storage,
}

impl ImageDepth {
    /// From the operand word.
    pub fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            0 => ImageDepth::NoDepth,
            1 => ImageDepth::IsDepth,
            2 => ImageDepth::Unknown,
            _ => return None,
        })
    }
    /// The operand word.
    pub fn to_u32(self) -> u32 {
        self as u32
    }
}

impl ImageSampling {
    /// From the operand word.
    pub fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            0 => ImageSampling::Unknown,
            1 => ImageSampling::Sampled,
            2 => ImageSampling::Storage,
            _ => return None,
        })
    }
    /// The operand word.
    pub fn to_u32(self) -> u32 {
        self as u32
    }
}

/// An image type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    /// The type of the components that sampling returns (a scalar or `void`).
    pub sampled_type: Handle<Type>,
    /// The dimensionality.
    pub dim: Dim,
    /// Whether it is a depth image.
    pub depth: ImageDepth,
    /// Whether it is arrayed.
    pub arrayed: bool,
    /// Whether it is multisampled.
    pub multisampled: bool,
    /// Sampler use.
    pub sampled: ImageSampling,
    /// The texel format.
    pub format: ImageFormat,
    /// The access qualifier (kernels).
    pub access: Option<AccessQualifier>,
}

impl Type {
    /// Whether this is one of the OpenCL opaque object types (image, sampled image, sampler,
    /// pipe, pipe storage, event, device event, reserve id, queue): no size, no memory layout,
    /// and in SPIR-V-friendly LLVM IR a target extension type each.
    pub fn is_opaque_object(&self) -> bool {
        matches!(
            self,
            Type::Image(_)
                | Type::SampledImage { .. }
                | Type::Sampler
                | Type::Pipe { .. }
                | Type::PipeStorage
                | Type::Event
                | Type::DeviceEvent
                | Type::ReserveId
                | Type::Queue
        )
    }

    /// The grammar name of a type this IR keeps raw (`Type::Other`) that is an opaque handle:
    /// an `OpType*` declaration whose only operand is its result id (AVC motion-estimation
    /// payloads, ray queries, hit objects...). Such a type has no parameters and no layout, so
    /// a lowering can carry it as a handle without knowing its meaning; its ops stay refused.
    pub fn opaque_handle_name(&self) -> Option<&'static str> {
        let Type::Other(inst) = self else { return None };
        let desc = crate::grammar::tables::core_instruction(inst.opcode_value())?;
        is_opaque_handle(desc).then_some(desc.name)
    }

    /// The opaque handle type the grammar names `name` (`"OpTypeAvcMcePayloadINTEL"`), as
    /// the raw form [`Type::opaque_handle_name`] recognises; `None` for any other name.
    pub fn opaque_handle(name: &str) -> Option<Type> {
        let desc = crate::grammar::tables::core_instruction_by_name(name)?;
        if !is_opaque_handle(desc) {
            return None;
        }
        let tracker = crate::binary::TypeTracker::new(0);
        let words = [1];
        let mut r = crate::binary::OperandReader::new(&words, 0, u32::MAX, &tracker);
        let inst = crate::binary::decode_operands(desc.opcode as u16, &mut r).ok()?;
        Some(Type::Other(inst))
    }

    /// Whether the binary form allows several declarations of this type (aggregates, pointers
    /// and the raw fallback); all others are unique by structure.
    pub fn is_aggregate(&self) -> bool {
        matches!(
            self,
            Type::Struct(_)
                | Type::Array { .. }
                | Type::RuntimeArray { .. }
                | Type::Pointer { .. }
                | Type::Other(_)
        )
    }

    /// The types this type refers to directly, in operand order.
    pub fn referenced_types(&self, mut f: impl FnMut(Handle<Type>)) {
        match self {
            Type::Vector { component: t, .. }
            | Type::Matrix { column: t, .. }
            | Type::Array { element: t, .. }
            | Type::RuntimeArray { element: t, .. }
            | Type::Pointer { pointee: t, .. }
            | Type::SampledImage { image: t } => f(*t),
            Type::Image(i) => f(i.sampled_type),
            Type::Struct(s) => s.members.iter().for_each(|m| f(m.ty)),
            Type::Function { ret, params } => {
                f(*ret);
                params.iter().for_each(|&p| f(p));
            }
            _ => {}
        }
    }

    /// The scalar width in bits of an `Int` or `Float`.
    pub fn scalar_width(&self) -> Option<u32> {
        match self {
            Type::Int { width, .. } | Type::Float { width } => Some(*width),
            _ => None,
        }
    }
}

/// An `OpType*` declaration whose only operand is its result id.
fn is_opaque_handle(desc: &crate::grammar::support::InstructionDesc) -> bool {
    desc.name.starts_with("OpType")
        && desc.operands.len() == 1
        && desc.operands[0].kind.name == "IdResult"
}
