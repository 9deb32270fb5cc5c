//! HLSL's types as semantic analysis sees them: scalars, vectors, matrices (size-1 vectors and
//! matrices already collapsed, as DXC does), arrays, structs and resource objects.

use std::fmt;

/// Which kind of structured buffer: a plain (`RW`)`StructuredBuffer`, or one whose elements
/// are appended or consumed through its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SbFlavor {
    /// `StructuredBuffer` / `RWStructuredBuffer`.
    Plain,
    /// `AppendStructuredBuffer`.
    Append,
    /// `ConsumeStructuredBuffer`.
    Consume,
}

/// A scalar component type. Without `-enable-16bit-types` `half` is `Float` and the
/// minimum-precision types are their 32-bit counterparts (the declaration records
/// `RelaxedPrecision`); with it `half` and `min16float` are `Half`, `min16int` is `Int16` and
/// `min16uint` is `UInt16`, as DXC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `bool`.
    Bool,
    /// `int16_t` (and `min16int`, `min12int` with `-enable-16bit-types`).
    Int16,
    /// `uint16_t` (and `min16uint` with `-enable-16bit-types`).
    UInt16,
    /// `int`, `min16int`, `min12int`.
    Int,
    /// `uint`, `dword`, `min16uint`.
    UInt,
    /// `int64_t`.
    Int64,
    /// `uint64_t`.
    UInt64,
    /// `float16_t` (and `half`, `min16float`, `min10float` with `-enable-16bit-types`).
    Half,
    /// `float`, `half`, `min16float`, `min10float`.
    Float,
    /// `double`.
    Double,
}

impl Scalar {
    /// Whether the scalar is an integer (signed or not, not `bool`).
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Scalar::Int16
                | Scalar::UInt16
                | Scalar::Int
                | Scalar::UInt
                | Scalar::Int64
                | Scalar::UInt64
        )
    }

    /// Whether the scalar is a signed integer.
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::Int16 | Scalar::Int | Scalar::Int64)
    }

    /// Whether the scalar is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    /// Width in bits (booleans count as 32, their size in buffers).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Int64 | Scalar::UInt64 | Scalar::Double => 64,
            Scalar::Int16 | Scalar::UInt16 | Scalar::Half => 16,
            _ => 32,
        }
    }

    /// The rank in HLSL's usual arithmetic conversions: the operand of higher rank wins.
    pub fn rank(self) -> u32 {
        match self {
            Scalar::Bool => 0,
            Scalar::Int16 => 1,
            Scalar::UInt16 => 2,
            Scalar::Int => 3,
            Scalar::UInt => 4,
            Scalar::Int64 => 5,
            Scalar::UInt64 => 6,
            Scalar::Half => 7,
            Scalar::Float => 8,
            Scalar::Double => 9,
        }
    }

    /// The HLSL spelling.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Int16 => "int16_t",
            Scalar::UInt16 => "uint16_t",
            Scalar::Half => "half",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Int64 => "int64_t",
            Scalar::UInt64 => "uint64_t",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }
}

/// What kind of resource object a variable holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// `StructuredBuffer<T>` / `RWStructuredBuffer<T>`, and `Append`/`ConsumeStructuredBuffer<T>`
    /// (writable, with a counter).
    StructuredBuffer {
        /// `RW` (or append/consume).
        rw: bool,
        /// Which of the four.
        flavor: SbFlavor,
        /// Whether a matrix element is row-major: `row_major`/`column_major` in the template
        /// argument, else the file's default (`-Zpr`, `#pragma pack_matrix`).
        row_major: bool,
    },
    /// `ByteAddressBuffer` / `RWByteAddressBuffer`.
    ByteAddressBuffer {
        /// `RW`.
        rw: bool,
    },
    /// `ConstantBuffer<T>`.
    ConstantBuffer,
    /// `TextureBuffer<T>` (as `tbuffer`: a read-only storage block with the structured-buffer
    /// layout).
    TextureBuffer,
    /// `Buffer<T>` / `RWBuffer<T>` (texel buffers).
    TexelBuffer {
        /// `RW`.
        rw: bool,
        /// `[[vk::image_format]]`: the format instead of the one the element implies.
        format: Option<crate::grammar::ImageFormat>,
    },
    /// `Texture1D/2D/3D/Cube<T>` and their `Array` and `MS` forms, `RWTexture1D/2D/3D<T>` and
    /// `RWTexture1D/2DArray<T>`, and `vk::SampledTexture*<T>` (combined image samplers).
    Texture {
        /// The dimensionality.
        dim: TexDim,
        /// An array of layers (`...Array`): one more coordinate.
        arrayed: bool,
        /// Multisampled (`Texture2DMS`, `Texture2DMSArray`).
        ms: bool,
        /// `RW`.
        rw: bool,
        /// `vk::SampledTexture*`: an image and its sampler in one variable
        /// (`OpTypeSampledImage`).
        combined: bool,
        /// `[[vk::image_format]]` on a storage image: the format instead of the one the
        /// element implies.
        format: Option<crate::grammar::ImageFormat>,
    },
    /// `SubpassInput<T>` / `SubpassInputMS<T>`: an input attachment of a pixel shader.
    Subpass {
        /// `SubpassInputMS`.
        ms: bool,
    },
    /// `SamplerState`, or `SamplerComparisonState` (`cmp`).
    Sampler {
        /// `SamplerComparisonState`.
        cmp: bool,
    },
    /// `RaytracingAccelerationStructure`: an `OpTypeAccelerationStructureKHR` handle, which
    /// ray queries trace.
    AccelerationStructure,
    /// `RayQuery<FLAGS>`: an `OpTypeRayQueryKHR` object, a Function variable of its own (not
    /// a descriptor: [`Ty::is_resource`] is false for it).
    RayQuery {
        /// The template's ray flags, or-ed into every `TraceRayInline`'s.
        flags: u32,
    },
}

/// A texture's dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexDim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube.
    Cube,
}

impl TexDim {
    /// Number of coordinates that address a texel.
    pub fn coords(self) -> u32 {
        match self {
            TexDim::D1 => 1,
            TexDim::D2 => 2,
            TexDim::D3 | TexDim::Cube => 3,
        }
    }

    /// The texture dimension a type name ends with (`1D`, `2DMSArray`, `CubeArray`...): the
    /// dimension, whether arrayed, whether multisampled.
    pub fn parse_shape(s: &str) -> Option<(TexDim, bool, bool)> {
        Some(match s {
            "1D" => (TexDim::D1, false, false),
            "1DArray" => (TexDim::D1, true, false),
            "2D" => (TexDim::D2, false, false),
            "2DArray" => (TexDim::D2, true, false),
            "2DMS" => (TexDim::D2, false, true),
            "2DMSArray" => (TexDim::D2, true, true),
            "3D" => (TexDim::D3, false, false),
            "Cube" => (TexDim::Cube, false, false),
            "CubeArray" => (TexDim::Cube, true, false),
            _ => return None,
        })
    }
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `void`.
    Void,
    /// A scalar.
    Scalar(Scalar),
    /// A vector of 2 to 4 components.
    Vector(Scalar, u32),
    /// A matrix of `rows` × `cols` (both at least 2 after collapsing).
    Matrix(Scalar, u32, u32),
    /// A sized array.
    Array(Box<Ty>, u32),
    /// A struct, by index in the struct table.
    Struct(usize),
    /// A resource object with its element type (`Void` where it has none).
    Resource(ResourceKind, Box<Ty>),
}

impl Ty {
    /// `float`, `int`, ...
    pub fn scalar(s: Scalar) -> Ty {
        Ty::Scalar(s)
    }

    /// A vector of `n` components, collapsed to a scalar when `n == 1`.
    pub fn vector(s: Scalar, n: u32) -> Ty {
        if n == 1 {
            Ty::Scalar(s)
        } else {
            Ty::Vector(s, n)
        }
    }

    /// A matrix collapsed as DXC does: 1×1 → scalar, 1×N and N×1 → vector.
    pub fn matrix(s: Scalar, rows: u32, cols: u32) -> Ty {
        match (rows, cols) {
            (1, c) => Ty::vector(s, c),
            (r, 1) => Ty::vector(s, r),
            (r, c) => Ty::Matrix(s, r, c),
        }
    }

    /// The component scalar of a scalar, vector or matrix.
    pub fn component(&self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) | Ty::Vector(s, _) | Ty::Matrix(s, _, _) => Some(*s),
            _ => None,
        }
    }

    /// Number of scalar components of a scalar, vector or matrix.
    pub fn count(&self) -> u32 {
        match self {
            Ty::Scalar(_) => 1,
            Ty::Vector(_, n) => *n,
            Ty::Matrix(_, r, c) => r * c,
            _ => 0,
        }
    }

    /// Whether this is a scalar, vector or matrix.
    pub fn is_numeric(&self) -> bool {
        self.component().is_some()
    }

    /// The same shape with another component type.
    pub fn with_component(&self, s: Scalar) -> Ty {
        match self {
            Ty::Vector(_, n) => Ty::Vector(s, *n),
            Ty::Matrix(_, r, c) => Ty::Matrix(s, *r, *c),
            _ => Ty::Scalar(s),
        }
    }

    /// Whether this is a `RayQuery` or an array of them.
    pub fn is_ray_query(&self) -> bool {
        match self {
            Ty::Resource(ResourceKind::RayQuery { .. }, _) => true,
            Ty::Array(e, _) => e.is_ray_query(),
            _ => false,
        }
    }

    /// Whether this is a resource object (or an array of them).
    pub fn is_resource(&self) -> bool {
        match self {
            Ty::Resource(ResourceKind::RayQuery { .. }, _) => false,
            Ty::Resource(..) => true,
            Ty::Array(e, _) => e.is_resource(),
            _ => false,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::Scalar(s) => f.write_str(s.name()),
            Ty::Vector(s, n) => write!(f, "{}{n}", s.name()),
            Ty::Matrix(s, r, c) => write!(f, "{}{r}x{c}", s.name()),
            Ty::Array(e, n) => write!(f, "{e}[{n}]"),
            Ty::Struct(i) => write!(f, "struct#{i}"),
            Ty::Resource(k, e) => match k {
                ResourceKind::Sampler { .. }
                | ResourceKind::ByteAddressBuffer { .. }
                | ResourceKind::AccelerationStructure => f.write_str(&k.hlsl_name()),
                _ => write!(f, "{}<{e}>", k.hlsl_name()),
            },
        }
    }
}

impl ResourceKind {
    /// Whether the element of a structured buffer is laid out row-major (false for other
    /// resources, whose elements hold no matrix).
    pub fn elem_row_major(self) -> bool {
        matches!(
            self,
            ResourceKind::StructuredBuffer {
                row_major: true,
                ..
            }
        )
    }

    /// The HLSL name of the resource type (`RWStructuredBuffer`, `Texture2DArray`, ...), for
    /// messages.
    pub fn hlsl_name(&self) -> String {
        let rw = |rw: bool| if rw { "RW" } else { "" };
        match *self {
            ResourceKind::StructuredBuffer { rw: w, flavor, .. } => match flavor {
                SbFlavor::Append => "AppendStructuredBuffer".to_owned(),
                SbFlavor::Consume => "ConsumeStructuredBuffer".to_owned(),
                SbFlavor::Plain => format!("{}StructuredBuffer", rw(w)),
            },
            ResourceKind::ByteAddressBuffer { rw: w } => format!("{}ByteAddressBuffer", rw(w)),
            ResourceKind::ConstantBuffer => "ConstantBuffer".to_owned(),
            ResourceKind::TextureBuffer => "TextureBuffer".to_owned(),
            ResourceKind::TexelBuffer { rw: w, .. } => format!("{}Buffer", rw(w)),
            ResourceKind::Texture {
                dim,
                arrayed,
                ms,
                rw: w,
                combined,
                ..
            } => {
                let d = match dim {
                    TexDim::D1 => "1D",
                    TexDim::D2 => "2D",
                    TexDim::D3 => "3D",
                    TexDim::Cube => "Cube",
                };
                let prefix = if combined {
                    "vk::SampledTexture"
                } else {
                    "Texture"
                };
                format!(
                    "{}{prefix}{d}{}{}",
                    rw(w),
                    if ms { "MS" } else { "" },
                    if arrayed { "Array" } else { "" }
                )
            }
            ResourceKind::Sampler { cmp } => {
                if cmp {
                    "SamplerComparisonState".to_owned()
                } else {
                    "SamplerState".to_owned()
                }
            }
            ResourceKind::AccelerationStructure => "RaytracingAccelerationStructure".to_owned(),
            ResourceKind::RayQuery { flags } => format!("RayQuery<{flags}>"),
            ResourceKind::Subpass { ms } => {
                format!("SubpassInput{}", if ms { "MS" } else { "" })
            }
        }
    }
}

/// Whether `name` is one of the 16-bit scalar, vector or matrix names that exist only with
/// `-enable-16bit-types` (`float16_t`, `int16_t3`, `uint16_t2x2`: DXC rejects them without it).
pub fn needs_16bit_types(name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
    matches!(base, "float16_t" | "int16_t" | "uint16_t")
}

/// Parses a builtin scalar name; the second value says whether it is a minimum-precision type
/// (`RelaxedPrecision`). `sixteen` is `-enable-16bit-types`: it makes `half` and the
/// minimum-precision types real 16-bit types and enables `float16_t`, `int16_t`, `uint16_t`.
pub fn scalar_by_name(name: &str, sixteen: bool) -> Option<(Scalar, bool)> {
    if sixteen {
        match name {
            "half" | "float16_t" | "min16float" | "min10float" => {
                return Some((Scalar::Half, false))
            }
            "int16_t" | "min16int" | "min12int" => return Some((Scalar::Int16, false)),
            "uint16_t" | "min16uint" => return Some((Scalar::UInt16, false)),
            _ => {}
        }
    }
    Some(match name {
        "bool" => (Scalar::Bool, false),
        "int" | "int32_t" => (Scalar::Int, false),
        // Shader model 6.6's four packed bytes are a 32-bit uint (DXC's SPIR-V type too).
        "uint" | "dword" | "uint32_t" | "int8_t4_packed" | "uint8_t4_packed" => {
            (Scalar::UInt, false)
        }
        "int64_t" => (Scalar::Int64, false),
        "uint64_t" => (Scalar::UInt64, false),
        "float" | "float32_t" | "half" => (Scalar::Float, false),
        "double" | "float64_t" => (Scalar::Double, false),
        "min16float" | "min10float" => (Scalar::Float, true),
        "min16int" | "min12int" => (Scalar::Int, true),
        "min16uint" => (Scalar::UInt, true),
        _ => return None,
    })
}

/// Whether `name` is a builtin type of DXC's HLSL that spvkit does not implement yet (ray
/// tracing and ray queries, rasterizer-ordered views, the `vk` namespace's buffer pointers and
/// inline SPIR-V types): refused by name rather than as an unknown type.
pub fn is_unimplemented_builtin(name: &str) -> bool {
    matches!(
        name,
        "BuiltInTriangleIntersectionAttributes"
            | "vk::BufferPointer"
            | "vk::SpirvType"
            | "vk::SpirvOpaqueType"
            | "vk::Literal"
            | "vk::integral_constant"
            | "vk::ext_type"
            | "vk::ext_result_id"
    ) || (name.starts_with("RasterizerOrdered") && rasterizer_ordered_as_rw(name).is_none())
}

/// The `RW` type a rasterizer-ordered view is (`RasterizerOrderedTexture2D` is
/// `RWTexture2D` whose accesses are ordered per pixel); `None` for other names.
pub fn rasterizer_ordered_as_rw(name: &str) -> Option<&'static str> {
    Some(match name.strip_prefix("RasterizerOrdered")? {
        "Buffer" => "RWBuffer",
        "StructuredBuffer" => "RWStructuredBuffer",
        "ByteAddressBuffer" => "RWByteAddressBuffer",
        "Texture1D" => "RWTexture1D",
        "Texture1DArray" => "RWTexture1DArray",
        "Texture2D" => "RWTexture2D",
        "Texture2DArray" => "RWTexture2DArray",
        "Texture3D" => "RWTexture3D",
        _ => return None,
    })
}

/// Parses `float`, `float3`, `int2x3`, `min16float4` and the like; the bool says whether the
/// component type is a minimum-precision type; `sixteen` as for [`scalar_by_name`].
pub fn builtin_by_name(name: &str, sixteen: bool) -> Option<(Ty, bool)> {
    if let Some(s) = scalar_by_name(name, sixteen) {
        return Some((Ty::Scalar(s.0), s.1));
    }
    // `int16_t2x3`: `_t` ends the scalar name.
    let digits = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
    let rest = &name[digits.len()..];
    if digits.ends_with("_packed") {
        // No vectors of packed bytes.
        return None;
    }
    let (s, relaxed) = scalar_by_name(digits, sixteen)?;
    let bytes = rest.as_bytes();
    let dim = |b: u8| (b'1'..=b'4').contains(&b).then(|| u32::from(b - b'0'));
    match bytes {
        [n] => Some((Ty::vector(s, dim(*n)?), relaxed)),
        [r, b'x', c] => Some((Ty::matrix(s, dim(*r)?, dim(*c)?), relaxed)),
        _ => None,
    }
}

/// A struct field.
#[derive(Clone, Debug)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// `row_major` (matrices; the default is column-major).
    pub row_major: bool,
    /// The semantic, for stage I/O structs.
    pub semantic: Option<String>,
    /// Interpolation modifiers, for stage I/O structs.
    pub interp: Interp,
    /// Minimum precision.
    pub relaxed: bool,
    /// Array indices to a 1xN matrix (collapsed to a vector), if declared as one or an array
    /// of them: the matrix's row index selects the whole vector, as DXC does.
    pub row_depth: Option<u8>,
    /// `[[vk::location(N)]]`, for stage I/O structs.
    pub location: Option<u32>,
    /// `[[vk::index(N)]]`: the `Index` of a fragment output (dual-source blending).
    pub index: Option<u32>,
    /// `[[vk::builtin("...")]]`, for stage I/O structs.
    pub builtin: Option<crate::grammar::BuiltIn>,
    /// An offset the source gives.
    pub offset: Option<FieldOffset>,
}

/// Interpolation modifiers of a stage input or output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interp {
    /// `nointerpolation` → Flat.
    pub flat: bool,
    /// `noperspective` → NoPerspective.
    pub noperspective: bool,
    /// `centroid` → Centroid.
    pub centroid: bool,
    /// `sample` → Sample.
    pub sample: bool,
    /// `linear` (the default for floats; an error on integers in pixel shader inputs).
    pub linear: bool,
}

/// Where the source places a field, and how the fields without an offset follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldOffset {
    /// `register(cN)` on a loose uniform (16 × N bytes): the fields without an offset follow
    /// the last byte of all those placed so, in declaration order (DXC's `$Globals`).
    Placed(u32),
    /// `[[vk::offset(N)]]`: the fields after it follow it, as they follow any field.
    At(u32),
    /// `: packoffset(cN.c)` on a buffer member: as [`FieldOffset::At`], and an error where it
    /// is below where the member would otherwise go (it would overlap those before it).
    Packed(u32),
}

impl FieldOffset {
    /// The byte offset.
    pub fn bytes(self) -> u32 {
        match self {
            FieldOffset::Placed(b) | FieldOffset::At(b) | FieldOffset::Packed(b) => b,
        }
    }
}

/// A struct declaration.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// The struct's name (`anon` for an anonymous one).
    pub name: String,
    /// Fields in order (a run of bit-fields is one field, named after its first bit-field).
    pub fields: Vec<Field>,
    /// The bit-fields, each in a field holding a run of them.
    pub bitfields: Vec<BitField>,
    /// The source struct a block's copy was made from (`S` for `type.PushConstant.S`): its
    /// static members stay reachable through the block (`s.M` is `S::M`).
    pub origin: Option<String>,
}

/// A bit-field `T name : width;`, stored in bits of a field as DXC packs them: consecutive
/// bit-fields of one type share a field while their widths fit its bits.
#[derive(Clone, Debug, PartialEq)]
pub struct BitField {
    /// The bit-field's name.
    pub name: String,
    /// The index of the field holding it.
    pub field: u32,
    /// Its lowest bit in that field.
    pub offset: u32,
    /// Its width in bits.
    pub width: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_types_print_as_hlsl_spells_them() {
        let show = |k, e: Ty| Ty::Resource(k, Box::new(e)).to_string();
        assert_eq!(
            show(
                ResourceKind::TexelBuffer {
                    rw: true,
                    format: None
                },
                Ty::Scalar(Scalar::UInt)
            ),
            "RWBuffer<uint>"
        );
        let tex = ResourceKind::Texture {
            dim: TexDim::D2,
            arrayed: true,
            ms: true,
            rw: false,
            combined: false,
            format: None,
        };
        assert_eq!(
            show(tex, Ty::Vector(Scalar::Float, 4)),
            "Texture2DMSArray<float4>"
        );
        let append = ResourceKind::StructuredBuffer {
            rw: true,
            flavor: SbFlavor::Append,
            row_major: false,
        };
        assert_eq!(
            show(append, Ty::Scalar(Scalar::Float)),
            "AppendStructuredBuffer<float>"
        );
        assert_eq!(
            show(ResourceKind::Sampler { cmp: true }, Ty::Void),
            "SamplerComparisonState"
        );
    }

    #[test]
    fn builtin_names_collapse_like_dxc() {
        assert_eq!(
            builtin_by_name("float4", false).map(|t| t.0),
            Some(Ty::Vector(Scalar::Float, 4))
        );
        assert_eq!(
            builtin_by_name("float1", false).map(|t| t.0),
            Some(Ty::Scalar(Scalar::Float))
        );
        assert_eq!(
            builtin_by_name("int1x3", false).map(|t| t.0),
            Some(Ty::Vector(Scalar::Int, 3))
        );
        assert_eq!(
            builtin_by_name("float2x3", false).map(|t| t.0),
            Some(Ty::Matrix(Scalar::Float, 2, 3))
        );
        assert_eq!(
            builtin_by_name("min16float2", false).map(|t| t.1),
            Some(true)
        );
        assert_eq!(builtin_by_name("float5", false), None);
        assert_eq!(builtin_by_name("floaty", false), None);
        assert_eq!(builtin_by_name("int16_t3", false), None);
        assert_eq!(
            builtin_by_name("int16_t3", true).map(|t| t.0),
            Some(Ty::Vector(Scalar::Int16, 3))
        );
        assert_eq!(
            builtin_by_name("float16_t2x2", true).map(|t| t.0),
            Some(Ty::Matrix(Scalar::Half, 2, 2))
        );
        assert_eq!(
            builtin_by_name("min16float4", true),
            Some((Ty::Vector(Scalar::Half, 4), false))
        );
        assert_eq!(
            builtin_by_name("half3", false).map(|t| t.0),
            Some(Ty::Vector(Scalar::Float, 3))
        );
        assert!(needs_16bit_types("uint16_t4") && !needs_16bit_types("uint4"));
    }
}
