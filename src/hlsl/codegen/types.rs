//! HLSL types to IR types, per layout: the same struct or array gets one IR type without
//! layout (Function, Private, Workgroup storage) and one per buffer layout, as DXC does.

use super::State;
use crate::grammar::{Decoration, Dim, ImageFormat};
use crate::hlsl::sema::layout::{array_stride, matrix_stride, struct_offsets, LayoutRule};
use crate::hlsl::sema::types::{ResourceKind, SbFlavor, Scalar, TexDim, Ty};
use crate::ir::{Builder, Handle, ImageDepth, ImageSampling, ImageType, Member, StructType, Type};

/// The IR scalar type of `s`.
pub(crate) fn scalar_ty(b: &mut Builder, s: Scalar) -> Handle<Type> {
    match s {
        Scalar::Bool => b.type_bool(),
        Scalar::Int16 => b.type_int(16, true),
        Scalar::UInt16 => b.type_int(16, false),
        Scalar::Half => b.type_float(16),
        Scalar::Int => b.type_int(32, true),
        Scalar::UInt => b.type_int(32, false),
        Scalar::Int64 => b.type_int(64, true),
        Scalar::UInt64 => b.type_int(64, false),
        Scalar::Float => b.type_float(32),
        Scalar::Double => b.type_float(64),
    }
}

/// DXC's name of a scalar inside type names (`float`, `half`, `short`, `ushort`).
fn scalar_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Int16 => "short",
        Scalar::UInt16 => "ushort",
        s => s.name(),
    }
}

/// DXC's short name of a type inside resource type names (`float`, `v4float`, `S`).
pub(crate) fn type_name(st: &State, ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => scalar_name(*s).to_owned(),
        Ty::Vector(s, n) => format!("v{n}{}", scalar_name(*s)),
        Ty::Matrix(s, r, c) => format!("mat{r}v{c}{}", scalar_name(*s)),
        Ty::Struct(i) => st
            .types
            .structs
            .get(*i)
            .map_or("S".to_owned(), |d| d.name.clone()),
        Ty::Array(e, n) => format!("_arr_{}_{n}", type_name(st, e)),
        _ => "void".to_owned(),
    }
}

/// The IR type of `ty` in `layout` (`row_major` applies to matrices inside arrays).
pub(crate) fn ir_ty(
    b: &mut Builder,
    st: &mut State,
    ty: &Ty,
    layout: LayoutRule,
    row_major: bool,
) -> Handle<Type> {
    // A bool in a buffer is stored as a uint.
    if layout != LayoutRule::None && ty.component() == Some(Scalar::Bool) {
        return ir_ty(b, st, &ty.with_component(Scalar::UInt), layout, row_major);
    }
    let key_layout = match ty {
        Ty::Struct(_) | Ty::Array(..) => layout,
        Ty::Matrix(s, ..) if !s.is_float() => layout,
        _ => LayoutRule::None,
    };
    let key = (
        ty.clone(),
        key_layout,
        row_major && key_layout != LayoutRule::None,
    );
    if let Some(&h) = st.type_cache.get(&key) {
        return h;
    }
    let h = match ty {
        Ty::Void => b.type_void(),
        Ty::Scalar(s) => scalar_ty(b, *s),
        Ty::Vector(s, n) => {
            let c = scalar_ty(b, *s);
            b.type_vector(c, *n)
        }
        Ty::Matrix(s, r, c) => {
            // An HLSL RxC matrix is R SPIR-V "columns" of C components (its transpose); a
            // non-float one is an array of R vectors, as DXC emits it.
            let comp = scalar_ty(b, *s);
            let v = b.type_vector(comp, *c);
            if s.is_float() {
                b.type_matrix(v, *r)
            } else {
                let stride =
                    (layout != LayoutRule::None).then(|| matrix_stride(ty, layout, true).0);
                b.type_array(v, *r, stride)
            }
        }
        Ty::Array(e, n) => {
            let et = ir_ty(b, st, e, layout, row_major);
            let stride = (layout != LayoutRule::None)
                .then(|| array_stride(e, layout, row_major, &st.types.structs));
            b.type_array(et, *n, stride)
        }
        Ty::Struct(i) => {
            let Some(def) = st.types.structs.get(*i).cloned() else {
                return b.type_void();
            };
            let offsets = (layout != LayoutRule::None)
                .then(|| struct_offsets(&def, layout, &st.types.structs));
            let mut members = Vec::new();
            for (k, f) in def.fields.iter().enumerate() {
                let t = match &f.ty {
                    // A struct holding a resource (a local or a parameter only) holds a
                    // pointer to it, which legalization makes a direct access.
                    Ty::Resource(kind, _) => {
                        if layout != LayoutRule::None {
                            st.internal(
                                crate::hlsl::Span::default(),
                                "a resource inside a struct in a buffer",
                            );
                        }
                        // An image or sampler is held as its handle, as DXC holds it; a
                        // buffer as a pointer to its block.
                        let sc = super::decls::resource_class(st, *kind);
                        let pointee = ir_ty(b, st, &f.ty, layout, false);
                        if sc == crate::grammar::StorageClass::UniformConstant {
                            pointee
                        } else {
                            b.type_pointer(sc, pointee)
                        }
                    }
                    _ => ir_ty(b, st, &f.ty, layout, f.row_major),
                };
                let mut m = Member::new(t);
                m.name = Some(f.name.clone());
                if f.relaxed {
                    m.decorations.push(Decoration::RelaxedPrecision);
                }
                if let Some(offs) = &offsets {
                    m.offset = offs.get(k).copied();
                    matrix_decorations(&f.ty, layout, f.row_major, &mut m.decorations);
                }
                members.push(m);
            }
            b.type_struct(StructType {
                name: Some(def.name.clone()),
                members,
                decorations: Vec::new(),
            })
        }
        Ty::Resource(kind, elem) => resource_ty(b, st, *kind, elem),
    };
    st.type_cache.insert(key, h);
    h
}

/// `MatrixStride` and `RowMajor`/`ColMajor` (swapped, as the transposed representation needs)
/// for a member that is a matrix or an array of matrices.
pub(crate) fn matrix_decorations(
    ty: &Ty,
    layout: LayoutRule,
    row_major: bool,
    out: &mut Vec<Decoration>,
) {
    let mut t = ty;
    while let Ty::Array(e, _) = t {
        t = e;
    }
    if let Ty::Matrix(s, ..) = t {
        if !s.is_float() {
            return;
        }
        let (stride, _) = matrix_stride(t, layout, row_major);
        out.push(Decoration::MatrixStride(stride));
        out.push(if row_major {
            Decoration::ColMajor
        } else {
            Decoration::RowMajor
        });
    }
}

/// The format of a storage image or texel buffer: `[[vk::image_format]]`'s, else the one DXC
/// infers from `elem`, unless `-fspv-use-unknown-image-format` asks for none.
fn storage_format(st: &State, written: Option<ImageFormat>, elem: &Ty) -> ImageFormat {
    match written {
        Some(f) => f,
        None if st.opts.unknown_image_format => ImageFormat::Unknown,
        None => image_format(elem),
    }
}

/// The image format DXC infers for a storage image or texel buffer of `elem`.
fn image_format(elem: &Ty) -> ImageFormat {
    match elem {
        Ty::Scalar(Scalar::Float) => ImageFormat::R32f,
        Ty::Vector(Scalar::Float, 2) => ImageFormat::Rg32f,
        Ty::Vector(Scalar::Float, _) => ImageFormat::Rgba32f,
        Ty::Scalar(Scalar::Int) => ImageFormat::R32i,
        Ty::Vector(Scalar::Int, 2) => ImageFormat::Rg32i,
        Ty::Vector(Scalar::Int, _) => ImageFormat::Rgba32i,
        Ty::Scalar(Scalar::UInt) => ImageFormat::R32ui,
        Ty::Vector(Scalar::UInt, 2) => ImageFormat::Rg32ui,
        Ty::Vector(Scalar::UInt, _) => ImageFormat::Rgba32ui,
        _ => ImageFormat::Unknown,
    }
}

/// The type a resource variable points to.
fn resource_ty(b: &mut Builder, st: &mut State, kind: ResourceKind, elem: &Ty) -> Handle<Type> {
    let buffer_block = |st: &State| {
        if st.storage_buffer_class() {
            Decoration::Block
        } else {
            Decoration::BufferBlock
        }
    };
    match kind {
        ResourceKind::StructuredBuffer {
            rw,
            flavor,
            row_major: rm,
        } => {
            let rule = st.sbuffer_rule();
            let et = ir_ty(b, st, elem, rule, rm);
            let stride = array_stride(elem, rule, rm, &st.types.structs);
            let arr = b.type_runtime_array(et, Some(stride));
            let mut m = Member::new(arr);
            m.offset = Some(0);
            matrix_decorations(elem, rule, rm, &mut m.decorations);
            if !rw {
                m.decorations.push(Decoration::NonWritable);
            }
            let prefix = match (flavor, rw) {
                (SbFlavor::Append, _) => "AppendStructuredBuffer",
                (SbFlavor::Consume, _) => "ConsumeStructuredBuffer",
                (SbFlavor::Plain, true) => "RWStructuredBuffer",
                (SbFlavor::Plain, false) => "StructuredBuffer",
            };
            let name = format!("type.{prefix}.{}", type_name(st, elem));
            let deco = buffer_block(st);
            b.type_struct(StructType {
                name: Some(name),
                members: vec![m],
                decorations: vec![deco],
            })
        }
        ResourceKind::ByteAddressBuffer { rw } => {
            let u = b.type_int(32, false);
            let arr = b.type_runtime_array(u, Some(4));
            let mut m = Member::new(arr);
            m.offset = Some(0);
            if !rw {
                m.decorations.push(Decoration::NonWritable);
            }
            let name = if rw {
                "type.RWByteAddressBuffer"
            } else {
                "type.ByteAddressBuffer"
            };
            let deco = buffer_block(st);
            b.type_struct(StructType {
                name: Some(name.to_owned()),
                members: vec![m],
                decorations: vec![deco],
            })
        }
        ResourceKind::ConstantBuffer => {
            // The block is built by the declaration (it knows the name); this is T's layout.
            {
                let rule = st.cbuffer_rule();
                ir_ty(b, st, elem, rule, false)
            }
        }
        ResourceKind::TextureBuffer => {
            let rule = st.sbuffer_rule();
            ir_ty(b, st, elem, rule, false)
        }
        ResourceKind::Sampler { .. } => b.type_sampler(),
        // (By the name every grammar knows, primary or alias.)
        ResourceKind::AccelerationStructure => {
            match crate::ir::Type::opaque_handle("OpTypeAccelerationStructureKHR") {
                Some(t) => b.ty(t),
                None => b.type_void(),
            }
        }
        ResourceKind::RayQuery { .. } => {
            match crate::ir::Type::opaque_handle("OpTypeRayQueryKHR") {
                Some(t) => b.ty(t),
                None => b.type_void(),
            }
        }
        // An input attachment: a storage-like image of the SubpassData dimension.
        ResourceKind::Subpass { ms } => {
            let sampled_type = scalar_ty(b, texel_scalar(elem));
            b.type_image(ImageType {
                sampled_type,
                dim: Dim::SubpassData,
                depth: ImageDepth::Unknown,
                arrayed: false,
                multisampled: ms,
                sampled: ImageSampling::Storage,
                format: ImageFormat::Unknown,
                access: None,
            })
        }
        ResourceKind::TexelBuffer { rw, format } => {
            let comp = elem.component().unwrap_or(Scalar::Float);
            let sampled_type = scalar_ty(b, comp);
            b.type_image(ImageType {
                sampled_type,
                dim: Dim::Buffer,
                depth: ImageDepth::Unknown,
                arrayed: false,
                multisampled: false,
                sampled: if rw {
                    ImageSampling::Storage
                } else {
                    ImageSampling::Sampled
                },
                // `-fspv-use-unknown-image-format`: no format deduced from the texel type
                // (reads and writes then need the StorageImage*WithoutFormat capabilities).
                format: match (rw, format) {
                    (_, Some(f)) => f,
                    (true, None) => storage_format(st, None, elem),
                    (false, None) => ImageFormat::Unknown,
                },
                access: None,
            })
        }
        ResourceKind::Texture {
            combined: true,
            dim,
            arrayed,
            ms,
            ..
        } => {
            let image = texture_image_ty(b, dim, arrayed, ms, ImageUse::Combined, elem);
            b.type_sampled_image(image)
        }
        ResourceKind::Texture {
            dim,
            arrayed,
            ms,
            rw,
            format,
            ..
        } => {
            let usage = if rw {
                ImageUse::Storage {
                    format: storage_format(st, format, elem),
                }
            } else {
                ImageUse::Sampled
            };
            texture_image_ty(b, dim, arrayed, ms, usage, elem)
        }
    }
}

/// How a texture's image is used, which decides its depth, sampling and format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImageUse {
    /// A sampled texture (`Texture2D`): unknown depth.
    Sampled,
    /// A combined image sampler (`vk::SampledTexture*`): depth 0, as DXC.
    Combined,
    /// A storage image (`RWTexture2D`) of this format (see [`storage_format`]).
    Storage {
        /// The image format.
        format: ImageFormat,
    },
}

/// The image type of a texture used as `usage` says.
pub(crate) fn texture_image_ty(
    b: &mut Builder,
    dim: TexDim,
    arrayed: bool,
    ms: bool,
    usage: ImageUse,
    elem: &Ty,
) -> Handle<Type> {
    let sampled_type = scalar_ty(b, texel_scalar(elem));
    b.type_image(ImageType {
        sampled_type,
        dim: match dim {
            TexDim::D1 => Dim::Dim1D,
            TexDim::D2 => Dim::Dim2D,
            TexDim::D3 => Dim::Dim3D,
            TexDim::Cube => Dim::Cube,
        },
        depth: if usage == ImageUse::Combined {
            ImageDepth::NoDepth
        } else {
            ImageDepth::Unknown
        },
        arrayed,
        multisampled: ms,
        sampled: match usage {
            ImageUse::Storage { .. } => ImageSampling::Storage,
            _ => ImageSampling::Sampled,
        },
        format: match usage {
            ImageUse::Storage { format } => format,
            _ => ImageFormat::Unknown,
        },
        access: None,
    })
}

/// The scalar a texture stores for an element type: `uint` for `bool` (read as `!= 0`, as DXC).
pub(crate) fn texel_scalar(elem: &Ty) -> Scalar {
    match elem.component() {
        Some(Scalar::Bool) => Scalar::UInt,
        Some(s) => s,
        None => Scalar::Float,
    }
}
