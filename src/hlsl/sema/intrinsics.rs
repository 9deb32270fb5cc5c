//! The intrinsic functions in scope: which GLSL.std.450 instruction each component-wise one maps
//! to per component kind (as DXC chooses them), and which need hand-written emission.

/// The GLSL.std.450 instructions the intrinsics map to.
pub use crate::grammar::ext::glsl_std_450::Opcode as Glsl;

/// A component-wise intrinsic: its arity and the GLSL.std.450 instruction for float, signed
/// and unsigned components (`None`: that kind is converted to float first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComponentWise {
    /// Number of arguments.
    pub args: usize,
    /// For float components.
    pub float: u32,
    /// For signed integer components.
    pub sint: Option<u32>,
    /// For unsigned integer components.
    pub uint: Option<u32>,
}

/// How an intrinsic is emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    /// One GLSL.std.450 instruction on operands of a common type.
    ComponentWise(ComponentWise),
    /// Hand-written emission (`dot`, `mul`, `all`, `asuint`, `Interlocked*`, barriers, ...),
    /// with the accepted argument counts.
    Special(usize, usize),
}

/// The intrinsic named `name`, if there is one.
pub fn lookup(name: &str) -> Option<Intrinsic> {
    use Glsl as G;
    let cw = |args, float, sint, uint| {
        Some(Intrinsic::ComponentWise(ComponentWise {
            args,
            float,
            sint,
            uint,
        }))
    };
    let f1 = |op| cw(1, op, None, None);
    match name {
        "abs" => cw(1, G::FAbs as u32, Some(G::SAbs as u32), None),
        "min" => cw(
            2,
            G::FMin as u32,
            Some(G::SMin as u32),
            Some(G::UMin as u32),
        ),
        "max" => cw(
            2,
            G::FMax as u32,
            Some(G::SMax as u32),
            Some(G::UMax as u32),
        ),
        "clamp" => cw(
            3,
            G::FClamp as u32,
            Some(G::SClamp as u32),
            Some(G::UClamp as u32),
        ),
        "floor" => f1(G::Floor as u32),
        "ceil" => f1(G::Ceil as u32),
        "frac" => f1(G::Fract as u32),
        "round" => f1(G::RoundEven as u32),
        "trunc" => f1(G::Trunc as u32),
        "sqrt" => f1(G::Sqrt as u32),
        "rsqrt" => f1(G::InverseSqrt as u32),
        "exp" => f1(G::Exp as u32),
        "exp2" => f1(G::Exp2 as u32),
        "log" => f1(G::Log as u32),
        "log2" => f1(G::Log2 as u32),
        "sin" => f1(G::Sin as u32),
        "cos" => f1(G::Cos as u32),
        "tan" => f1(G::Tan as u32),
        "asin" => f1(G::Asin as u32),
        "acos" => f1(G::Acos as u32),
        "atan" => f1(G::Atan as u32),
        "sinh" => f1(G::Sinh as u32),
        "cosh" => f1(G::Cosh as u32),
        "tanh" => f1(G::Tanh as u32),
        "radians" => f1(G::Radians as u32),
        "degrees" => f1(G::Degrees as u32),
        "atan2" => cw(2, G::Atan2 as u32, None, None),
        "pow" => cw(2, G::Pow as u32, None, None),
        "lerp" => cw(3, G::FMix as u32, None, None),
        "step" => cw(2, G::Step as u32, None, None),
        "smoothstep" => cw(3, G::SmoothStep as u32, None, None),
        "dot" | "mul" | "cross" | "length" | "normalize" | "distance" | "reflect" | "saturate"
        | "sign" | "fmod" | "mad" | "all" | "any" | "asuint" | "asint" | "asfloat" | "asuint16"
        | "asint16" | "asfloat16" | "countbits" | "reversebits" | "firstbithigh"
        | "firstbitlow" | "clip" | "determinant" | "transpose" => {
            let n = match name {
                "dot" | "mul" | "cross" | "distance" | "reflect" | "fmod" => 2,
                "mad" => 3,
                _ => 1,
            };
            // `asuint(double, out uint low, out uint high)` splits a double.
            let most = if name == "asuint" { 3 } else { n };
            Some(Intrinsic::Special(n, most))
        }
        "and" | "or" => Some(Intrinsic::Special(2, 2)),
        "printf" => Some(Intrinsic::Special(1, usize::MAX)),
        "D3DCOLORtoUBYTE4" | "vk::ReadClock" | "CheckAccessFullyMapped" => {
            Some(Intrinsic::Special(1, 1))
        }
        // Math with hand-written lowerings (DXC's).
        "rcp" | "log10" | "f16tof32" | "f32tof16" | "isnan" | "isinf" | "isfinite" | "isnormal" => {
            Some(Intrinsic::Special(1, 1))
        }
        "fma" | "lit" | "refract" | "faceforward" | "sincos" => Some(Intrinsic::Special(3, 3)),
        "ldexp" | "modf" | "frexp" | "dst" | "asdouble" => Some(Intrinsic::Special(2, 2)),
        "dot4add_u8packed" | "dot4add_i8packed" => Some(Intrinsic::Special(3, 3)),
        // Shader model 6.6's packed 8-bit vectors.
        "pack_s8" | "pack_u8" | "pack_clamp_s8" | "pack_clamp_u8" | "unpack_s8s16"
        | "unpack_s8s32" | "unpack_u8u16" | "unpack_u8u32" => Some(Intrinsic::Special(1, 1)),
        "DebugBreak" => Some(Intrinsic::Special(0, 0)),
        // Derivatives (pixel shaders).
        "ddx" | "ddy" | "ddx_coarse" | "ddy_coarse" | "ddx_fine" | "ddy_fine" | "fwidth" => {
            Some(Intrinsic::Special(1, 1))
        }
        // Wave and quad operations (GroupNonUniform*, Subgroup scope; Vulkan 1.1).
        "WaveGetLaneCount" | "WaveGetLaneIndex" | "WaveIsFirstLane" | "GetGroupWaveCount"
        | "GetGroupWaveIndex" | "IsHelperLane" => Some(Intrinsic::Special(0, 0)),
        "WaveActiveAnyTrue"
        | "WaveActiveAllTrue"
        | "WaveActiveAllEqual"
        | "WaveActiveBallot"
        | "WaveReadLaneFirst"
        | "WaveActiveSum"
        | "WaveActiveProduct"
        | "WaveActiveMin"
        | "WaveActiveMax"
        | "WaveActiveBitAnd"
        | "WaveActiveBitOr"
        | "WaveActiveBitXor"
        | "WaveActiveCountBits"
        | "WavePrefixSum"
        | "WavePrefixProduct"
        | "WavePrefixCountBits"
        | "QuadReadAcrossX"
        | "QuadReadAcrossY"
        | "QuadReadAcrossDiagonal"
        | "QuadAny"
        | "QuadAll" => Some(Intrinsic::Special(1, 1)),
        "dot2add" | "msad4" => Some(Intrinsic::Special(3, 3)),
        "WaveReadLaneAt" | "QuadReadLaneAt" => Some(Intrinsic::Special(2, 2)),
        // SPV_NV_shader_subgroup_partitioned, as DXC (WaveMultiPrefixCountBits: DXC has none).
        "WaveMatch" => Some(Intrinsic::Special(1, 1)),
        "WaveMultiPrefixSum"
        | "WaveMultiPrefixProduct"
        | "WaveMultiPrefixBitAnd"
        | "WaveMultiPrefixBitOr"
        | "WaveMultiPrefixBitXor" => Some(Intrinsic::Special(2, 2)),
        "select" => Some(Intrinsic::Special(3, 3)),
        "NonUniformResourceIndex" => Some(Intrinsic::Special(1, 1)),
        "InterlockedAdd"
        | "InterlockedMin"
        | "InterlockedMax"
        | "InterlockedAnd"
        | "InterlockedOr"
        | "InterlockedXor"
        | "InterlockedExchange" => Some(Intrinsic::Special(2, 3)),
        "InterlockedCompareExchange" => Some(Intrinsic::Special(4, 4)),
        "InterlockedCompareStore" => Some(Intrinsic::Special(3, 3)),
        "GroupMemoryBarrierWithGroupSync"
        | "GroupMemoryBarrier"
        | "DeviceMemoryBarrier"
        | "DeviceMemoryBarrierWithGroupSync"
        | "AllMemoryBarrier"
        | "AllMemoryBarrierWithGroupSync" => Some(Intrinsic::Special(0, 0)),
        _ => None,
    }
}

/// Whether `name` is an HLSL intrinsic outside this frontend's scope (reported as "not
/// supported yet" rather than as an unknown function).
pub fn is_out_of_scope(name: &str) -> bool {
    const OTHERS: &[&str] = &[
        "abort",
        "acosh",
        "asinh",
        "atanh",
        "errorf",
        "EvaluateAttributeCentroid",
        "EvaluateAttributeAtSample",
        "EvaluateAttributeSnapped",
        "GetRenderTargetSampleCount",
        "GetRenderTargetSamplePosition",
        "noise",
        "Process2DQuadTessFactorsAvg",
        "tex1D",
        "tex2D",
        "tex3D",
        "texCUBE",
    ];
    // Inline SPIR-V's intrinsics (`vk::ext_execution_mode`, `vk::ext_execution_mode_id`)
    // come with HLSL part 2.
    OTHERS.contains(&name)
        || name.starts_with("vk::ext_")
        || [
            "Wave",
            "Quad",
            "Interlocked",
            "Dispatch",
            "Set",
            "Get",
            "Is",
            "Instance",
            "Primitive",
            "Object",
            "World",
            "Ray",
            "Hit",
            "Trace",
            "Report",
            "Call",
        ]
        .iter()
        .any(|p| {
            name.starts_with(p)
                && name.len() > p.len()
                && name[p.len()..].starts_with(|c: char| c.is_ascii_uppercase())
        })
}
