//! Image instructions, the core of them: sampled images pair an image with a sampler of the
//! same image type; sampling, fetch, read and write have images of the right kind
//! (sampled or storage), results and texels whose components match the image's sampled type,
//! coordinates of the right kind and size; queries return integers of the right size;
//! storage images without a format need the `StorageImageRead/WriteWithoutFormat`
//! capabilities in shaders, arrayed cube storage images `ImageCubeArray`.
//!
//! Hand-written because the relations between an image type's operands (Dim, Arrayed,
//! Sampled, format) and the instructions using it are prose in the specification.

use super::module::{Inst, Module};
use super::query::{ImageTy, Ty};
use super::Cx;
use crate::grammar::{Capability, Dim, ImageFormat, Instruction};

const RULE: &str = "core:image";

/// The image type behind an image or sampled-image value's type.
fn image_of(m: &Module<'_>, value: u32, sampled: bool) -> Option<ImageTy> {
    let t = m.type_of(value)?;
    let t = if sampled {
        match m.ty(t)? {
            Ty::SampledImage { image } => image,
            _ => return None,
        }
    } else {
        t
    };
    match m.ty(t)? {
        Ty::Image(w) => Some(ImageTy::from_words(w)),
        _ => None,
    }
}

/// Coordinate components an image of `i` needs (without the projective one).
fn coordinate_size(i: &ImageTy) -> u32 {
    let d = |x: Dim| x as u32;
    let base = match i.dim {
        x if x == d(Dim::Dim1D) || x == d(Dim::Buffer) => 1,
        x if x == d(Dim::Dim3D) || x == d(Dim::Cube) => 3,
        _ => 2,
    };
    base + i.arrayed.min(1)
}

/// Components `OpImageQuerySize(Lod)` returns for `i`.
fn size_components(i: &ImageTy) -> u32 {
    let d = |x: Dim| x as u32;
    let base = match i.dim {
        x if x == d(Dim::Dim1D) || x == d(Dim::Buffer) => 1,
        x if x == d(Dim::Dim3D) => 3,
        _ => 2,
    };
    base + i.arrayed.min(1)
}

/// Whether the scalar component of `t` matches the image's sampled type (void matches all).
fn matches_sampled_type(m: &Module<'_>, i: &ImageTy, t: u32) -> bool {
    if m.ty(i.sampled_type) == Some(Ty::Void) {
        return true;
    }
    m.component_type(t) == Some(i.sampled_type)
}

/// Checks image instructions.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    let Some(op) = inst.op() else { return };
    let ty = |id: crate::grammar::Id| m.type_of(id.0).unwrap_or(0);
    let mut errs: Vec<String> = Vec::new();
    let kernel = cx.kernel;
    // Coordinates: float for sampling (int too with Kernel), int for fetch/read/write.
    let coordinate = |errs: &mut Vec<String>, c: u32, i: &ImageTy, float: bool, extra: u32| {
        let ct = m.type_of(c).unwrap_or(0);
        let ok = if float {
            m.is_float_scalar_or_vector(ct) || (kernel && m.is_int_scalar_or_vector(ct))
        } else {
            m.is_int_scalar_or_vector(ct)
        };
        if !ok {
            errs.push(if float {
                "the coordinate must be a float scalar or vector".into()
            } else {
                "the coordinate must be an integer scalar or vector".into()
            });
            return;
        }
        // Reads and writes address cube faces as layers: (u, v, face-layer).
        let need = if !float && i.dim == Dim::Cube as u32 {
            3
        } else {
            coordinate_size(i) + extra
        };
        if i.dim != Dim::SubpassData as u32 && m.dimension(ct) < need {
            errs.push(format!(
                "the coordinate must have at least {need} components, it has {}",
                m.dimension(ct)
            ));
        }
    };
    match typed {
        Instruction::SampledImage(s) => {
            let rt = s.result_type.0;
            let Some(Ty::SampledImage { image }) = m.ty(rt) else {
                return cx.err(
                    inst,
                    RULE,
                    "OpSampledImage: the result type must be OpTypeSampledImage",
                );
            };
            if ty(s.image) != image {
                errs.push("the image must have the result's image type".into());
            }
            if m.ty(ty(s.sampler)) != Some(Ty::Sampler) {
                errs.push("the sampler must be of type OpTypeSampler".into());
            }
            if let Some(i) = image_of(m, s.image.0, false) {
                if i.dim == Dim::SubpassData as u32 {
                    errs.push("the image cannot have Dim SubpassData".into());
                }
            }
        }
        Instruction::ImageSampleImplicitLod(_)
        | Instruction::ImageSampleExplicitLod(_)
        | Instruction::ImageSampleProjImplicitLod(_)
        | Instruction::ImageSampleProjExplicitLod(_)
        | Instruction::ImageSampleDrefImplicitLod(_)
        | Instruction::ImageSampleDrefExplicitLod(_)
        | Instruction::ImageSampleProjDrefImplicitLod(_)
        | Instruction::ImageSampleProjDrefExplicitLod(_) => {
            let (rt, si, c) = (inst.word(0), inst.word(2), inst.word(3));
            let dref = op.name().contains("Dref");
            let proj = op.name().contains("Proj");
            let Some(i) = image_of(m, si, true) else {
                return cx.err(
                    inst,
                    RULE,
                    format!("{op}: the sampled image must be of type OpTypeSampledImage"),
                );
            };
            if dref {
                if !m.is_int_scalar(rt) && !m.is_float_scalar(rt) {
                    errs.push("the result type must be an int or float scalar".into());
                }
                let dt = m.type_of(inst.word(4)).unwrap_or(0);
                if !m.is_float_scalar(dt) {
                    errs.push("Dref must be a float scalar".into());
                }
            } else if !(m.is_int_vector(rt) || m.is_float_vector(rt)) || m.dimension(rt) != 4 {
                errs.push("the result type must be an int or float vector of 4 components".into());
            }
            if errs.is_empty() && !matches_sampled_type(m, &i, rt) {
                errs.push("the image's sampled type must be the result's component type".into());
            }
            coordinate(&mut errs, c, &i, true, u32::from(proj));
        }
        Instruction::ImageFetch(f) => {
            let Some(i) = image_of(m, f.image.0, false) else {
                return cx.err(
                    inst,
                    RULE,
                    "OpImageFetch: the image must be of type OpTypeImage",
                );
            };
            let rt = f.result_type.0;
            if !(m.is_int_vector(rt) || m.is_float_vector(rt)) || m.dimension(rt) != 4 {
                errs.push("the result type must be an int or float vector of 4 components".into());
            } else if !matches_sampled_type(m, &i, rt) {
                errs.push("the image's sampled type must be the result's component type".into());
            }
            if i.dim == Dim::Cube as u32 {
                errs.push("the image cannot have Dim Cube".into());
            }
            if i.sampled != 1 {
                errs.push("the image must have Sampled 1".into());
            }
            coordinate(&mut errs, f.coordinate.0, &i, false, 0);
        }
        Instruction::ImageRead(r) => {
            let Some(i) = image_of(m, r.image.0, false) else {
                return cx.err(
                    inst,
                    RULE,
                    "OpImageRead: the image must be of type OpTypeImage",
                );
            };
            let rt = r.result_type.0;
            if !m.is_int_scalar_or_vector(rt) && !m.is_float_scalar_or_vector(rt) {
                errs.push("the result type must be an int or float scalar or vector".into());
            } else if !matches_sampled_type(m, &i, rt) {
                errs.push("the image's sampled type must be the result's component type".into());
            }
            if i.sampled != 0 && i.sampled != 2 {
                errs.push("the image must have Sampled 0 or 2".into());
            }
            storage(cx, inst, &i, true, &mut errs);
            coordinate(&mut errs, r.coordinate.0, &i, false, 0);
        }
        Instruction::ImageWrite(w) => {
            let Some(i) = image_of(m, w.image.0, false) else {
                return cx.err(
                    inst,
                    RULE,
                    "OpImageWrite: the image must be of type OpTypeImage",
                );
            };
            let tt = ty(w.texel);
            if !m.is_int_scalar_or_vector(tt) && !m.is_float_scalar_or_vector(tt) {
                errs.push("the texel must be an int or float scalar or vector".into());
            } else if !matches_sampled_type(m, &i, tt) {
                errs.push("the image's sampled type must be the texel's component type".into());
            }
            if i.sampled != 0 && i.sampled != 2 {
                errs.push("the image must have Sampled 0 or 2".into());
            }
            if i.dim == Dim::SubpassData as u32 {
                errs.push("the image cannot have Dim SubpassData".into());
            }
            storage(cx, inst, &i, false, &mut errs);
            coordinate(&mut errs, w.coordinate.0, &i, false, 0);
        }
        Instruction::Image(x) => {
            let si = m.type_of(x.sampled_image.0).and_then(|t| m.ty(t));
            match si {
                Some(Ty::SampledImage { image }) => {
                    if image != x.result_type.0 {
                        errs.push("the result type must be the sampled image's image type".into());
                    }
                }
                _ => errs.push("the operand must be a sampled image".into()),
            }
        }
        Instruction::ImageQuerySizeLod(q) => {
            query_size(cx, &mut errs, q.result_type.0, q.image.0);
            if !m.is_int_scalar(ty(q.level_of_detail)) {
                errs.push("the level of detail must be an integer scalar".into());
            }
        }
        Instruction::ImageQuerySize(q) => query_size(cx, &mut errs, q.result_type.0, q.image.0),
        Instruction::ImageQueryLevels(q) => query_scalar(cx, &mut errs, q.result_type.0, q.image.0),
        Instruction::ImageQuerySamples(q) => {
            query_scalar(cx, &mut errs, q.result_type.0, q.image.0)
        }
        Instruction::ImageQueryFormat(q) => query_scalar(cx, &mut errs, q.result_type.0, q.image.0),
        Instruction::ImageQueryOrder(q) => query_scalar(cx, &mut errs, q.result_type.0, q.image.0),
        _ => {}
    }
    for e in errs {
        cx.err(inst, RULE, format!("{op}: {e}"));
    }
}

/// Storage image capability rules of shaders.
fn storage(cx: &Cx<'_>, _inst: &Inst<'_>, i: &ImageTy, read: bool, errs: &mut Vec<String>) {
    let m = cx.m;
    if !cx.shader {
        return;
    }
    if i.format == ImageFormat::Unknown as u32 && i.dim != Dim::SubpassData as u32 {
        let cap = if read {
            Capability::StorageImageReadWithoutFormat
        } else {
            Capability::StorageImageWriteWithoutFormat
        };
        if !m.capabilities.has(cap) {
            errs.push(format!(
                "the {} capability is needed to {} a storage image without a format",
                cap.name(),
                if read { "read" } else { "write" }
            ));
        }
    }
    if i.dim == Dim::Cube as u32
        && i.arrayed == 1
        && i.sampled == 2
        && !m.capabilities.has(Capability::ImageCubeArray)
    {
        errs.push(
            "the ImageCubeArray capability is needed to access an arrayed cube storage image"
                .into(),
        );
    }
}

fn query_size(cx: &Cx<'_>, errs: &mut Vec<String>, rt: u32, img: u32) {
    let m = cx.m;
    let Some(i) = image_of(m, img, false) else {
        errs.push("the image must be of type OpTypeImage".into());
        return;
    };
    if !m.is_int_scalar_or_vector(rt) {
        errs.push("the result type must be an integer scalar or vector".into());
        return;
    }
    let want = size_components(&i);
    if m.dimension(rt) != want {
        errs.push(format!(
            "the result type has {} components, {want} expected",
            m.dimension(rt)
        ));
    }
}

fn query_scalar(cx: &Cx<'_>, errs: &mut Vec<String>, rt: u32, img: u32) {
    let m = cx.m;
    if !m.is_int_scalar(rt) {
        errs.push("the result type must be an integer scalar".into());
    }
    if image_of(m, img, false).is_none() {
        errs.push("the image must be of type OpTypeImage".into());
    }
}
