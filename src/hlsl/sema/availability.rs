//! Where each intrinsic and resource method may be used: the stages, shader models and
//! target environments DXC allows it in. Semantic analysis reports a use outside them with
//! DXC's words, so code generation only emits what it is given.

use super::types::ResourceKind;
use crate::hlsl::{Options, Stage};

/// Whether `name` is a wave, quad or helper-lane intrinsic (shader model 6.0 and later).
pub fn is_wave_intrinsic(name: &str) -> bool {
    name.starts_with("Wave")
        || name.starts_with("Quad")
        || matches!(
            name,
            "GetGroupWaveCount" | "GetGroupWaveIndex" | "IsHelperLane"
        )
}

/// Whether `name` is one of shader model 6.6's packed 8-bit intrinsics.
pub fn is_packed(name: &str) -> bool {
    matches!(
        name,
        "pack_s8"
            | "pack_u8"
            | "pack_clamp_s8"
            | "pack_clamp_u8"
            | "unpack_s8s16"
            | "unpack_s8s32"
            | "unpack_u8u16"
            | "unpack_u8u32"
    )
}

/// Whether `name` is a derivative intrinsic (`ddx`, `ddy`, their coarse and fine forms,
/// `fwidth`).
pub fn is_derivative(name: &str) -> bool {
    matches!(
        name,
        "ddx" | "ddy" | "ddx_coarse" | "ddy_coarse" | "ddx_fine" | "ddy_fine" | "fwidth"
    )
}

/// Whether the intrinsic `name` (`kind`: the method `name` of a resource of that kind) takes
/// derivatives over neighbouring invocations: a compute shader using one gets a derivative
/// group.
pub fn uses_derivatives(kind: Option<&ResourceKind>, name: &str) -> bool {
    match kind {
        None => is_derivative(name) || name.starts_with("Quad"),
        Some(ResourceKind::Texture { .. }) => implicit_lod(name),
        Some(_) => false,
    }
}

/// Whether the texture method `name` samples with an implicit level of detail.
fn implicit_lod(name: &str) -> bool {
    matches!(
        name,
        "Sample"
            | "SampleBias"
            | "SampleCmp"
            | "SampleCmpBias"
            | "CalculateLevelOfDetail"
            | "CalculateLevelOfDetailUnclamped"
    )
}

/// A compute shader's derivative group for `[numthreads(x, y, z)]`, by the rules of shader
/// model 6.6 as DXC applies them: a one-dimensional group of a multiple of 4 threads takes
/// derivatives over each 4 consecutive threads (`DerivativeGroupLinearNV`), one whose X and Y
/// are even over 2x2 quads (`DerivativeGroupQuadsNV`); `None` for any other size.
pub fn derivative_group(
    [x, y, z]: [u32; 3],
) -> Option<(crate::grammar::ExecutionMode, crate::grammar::Capability)> {
    use crate::grammar::{Capability, ExecutionMode};
    if x % 4 == 0 && y == 1 && z == 1 {
        Some((
            ExecutionMode::DerivativeGroupLinearNV,
            Capability::ComputeDerivativeGroupLinearNV,
        ))
    } else if x % 2 == 0 && y % 2 == 0 {
        Some((
            ExecutionMode::DerivativeGroupQuadsNV,
            Capability::ComputeDerivativeGroupQuadsNV,
        ))
    } else {
        None
    }
}

/// Why the intrinsic `name` cannot be called in the shader `opts` compiles, if it cannot.
pub fn intrinsic(name: &str, opts: &Options) -> Result<(), String> {
    let stage = opts.profile.stage;
    if is_derivative(name) {
        return match stage {
            Stage::Pixel => Ok(()),
            Stage::Compute => compute_derivatives(name, opts),
            _ => Err(format!(
                "{name} is only available in pixel and compute shaders"
            )),
        };
    }
    if name == "clip" && stage != Stage::Pixel {
        return Err("clip is only allowed in pixel shaders".into());
    }
    // Shader model 6.6's packed 8-bit intrinsics, 6.10's DebugBreak.
    let model = match name {
        "DebugBreak" => Some((6, 10)),
        _ if is_packed(name) => Some((6, 6)),
        _ => None,
    };
    if let Some((major, minor)) = model {
        let p = opts.profile;
        if (p.major, p.minor) < (major, minor) {
            return Err(format!(
                "'{name}' needs shader model {major}.{minor} or above"
            ));
        }
        if name.starts_with("unpack_") && name.ends_with("16") && !opts.enable_16bit_types {
            return Err(format!(
                "'{name}' returns 16-bit integers: it needs -enable-16bit-types"
            ));
        }
        return Ok(());
    }
    if name == "IsHelperLane" {
        return if stage == Stage::Pixel {
            Ok(())
        } else {
            Err("not supported yet: IsHelperLane outside pixel shaders".into())
        };
    }
    if !is_wave_intrinsic(name) {
        return Ok(());
    }
    // Wave operations need SPIR-V 1.3, as DXC says.
    if opts.target_env.spirv_version() < crate::grammar::Version(1, 3) {
        return Err(
            "Vulkan 1.1 is required for Wave Operation but not permitted to use; please \
             specify your target environment via command line option -fspv-target-env="
                .into(),
        );
    }
    match name {
        "GetGroupWaveCount" | "GetGroupWaveIndex" if stage != Stage::Compute => {
            Err(format!("{name} is only available in compute shaders"))
        }
        // A compute shader's quads are its derivative groups.
        _ if name.starts_with("Quad") && !matches!(stage, Stage::Pixel | Stage::Compute) => Err(
            format!("not supported yet: {name} outside pixel and compute shaders"),
        ),
        _ => Ok(()),
    }
}

/// Why the method `name` of a resource of `kind` cannot be called in the shader `opts`
/// compiles, if it cannot.
pub fn method(kind: &ResourceKind, name: &str, opts: &Options) -> Result<(), String> {
    if let ResourceKind::Subpass { .. } = kind {
        return if name == "SubpassLoad" && opts.profile.stage != Stage::Pixel {
            Err("SubpassInput(MS) only allowed in pixel shader".into())
        } else {
            Ok(())
        };
    }
    let ResourceKind::Texture { combined, .. } = kind else {
        return Ok(());
    };
    if matches!(name, "GatherCmpGreen" | "GatherCmpBlue" | "GatherCmpAlpha") {
        return Err(format!(
            "no equivalent for {name} intrinsic method in Vulkan"
        ));
    }
    let p = opts.profile;
    let model = match name {
        "SampleCmpLevel" => (6, 7),
        "SampleCmpBias" | "SampleCmpGrad" => (6, 8),
        _ => (6, 0),
    };
    // DXC checks the shader model of Texture* methods, not of vk::SampledTexture* ones.
    if !combined && (p.major, p.minor) < model {
        return Err(format!(
            "'{name}' needs shader model {}.{} or above",
            model.0, model.1
        ));
    }
    if !implicit_lod(name) {
        return Ok(());
    }
    match p.stage {
        Stage::Pixel => Ok(()),
        Stage::Compute => compute_derivatives(name, opts),
        _ => {
            Err("sampling with implicit lod is only allowed in fragment and compute shaders".into())
        }
    }
}

/// Derivatives in a compute shader need shader model 6.6.
fn compute_derivatives(name: &str, opts: &Options) -> Result<(), String> {
    let p = opts.profile;
    if (p.major, p.minor) < (6, 6) {
        return Err(format!(
            "'{name}' in a compute shader needs shader model 6.6 or above"
        ));
    }
    Ok(())
}
