//! The intrinsic functions in scope: which GLSL.std.450 instruction each component-wise one maps
//! to per component kind (as DXC chooses them), and which need hand-written emission.

/// GLSL.std.450 instruction numbers used by the intrinsics.
#[allow(missing_docs)]
pub mod glsl {
    pub const ROUND_EVEN: u32 = 2;
    pub const TRUNC: u32 = 3;
    pub const FABS: u32 = 4;
    pub const SABS: u32 = 5;
    pub const FSIGN: u32 = 6;
    pub const SSIGN: u32 = 7;
    pub const FLOOR: u32 = 8;
    pub const CEIL: u32 = 9;
    pub const FRACT: u32 = 10;
    pub const RADIANS: u32 = 11;
    pub const DEGREES: u32 = 12;
    pub const SIN: u32 = 13;
    pub const COS: u32 = 14;
    pub const TAN: u32 = 15;
    pub const ASIN: u32 = 16;
    pub const ACOS: u32 = 17;
    pub const ATAN: u32 = 18;
    pub const SINH: u32 = 19;
    pub const COSH: u32 = 20;
    pub const TANH: u32 = 21;
    pub const ATAN2: u32 = 25;
    pub const POW: u32 = 26;
    pub const EXP: u32 = 27;
    pub const LOG: u32 = 28;
    pub const EXP2: u32 = 29;
    pub const LOG2: u32 = 30;
    pub const SQRT: u32 = 31;
    pub const INVERSE_SQRT: u32 = 32;
    pub const DETERMINANT: u32 = 33;
    pub const FMIN: u32 = 37;
    pub const UMIN: u32 = 38;
    pub const SMIN: u32 = 39;
    pub const FMAX: u32 = 40;
    pub const UMAX: u32 = 41;
    pub const SMAX: u32 = 42;
    pub const FCLAMP: u32 = 43;
    pub const UCLAMP: u32 = 44;
    pub const SCLAMP: u32 = 45;
    pub const FMIX: u32 = 46;
    pub const STEP: u32 = 48;
    pub const SMOOTH_STEP: u32 = 49;
    pub const FMA: u32 = 50;
    pub const LENGTH: u32 = 66;
    pub const DISTANCE: u32 = 67;
    pub const CROSS: u32 = 68;
    pub const NORMALIZE: u32 = 69;
    pub const REFLECT: u32 = 71;
    pub const FIND_ILSB: u32 = 73;
    pub const FIND_SMSB: u32 = 74;
    pub const FIND_UMSB: u32 = 75;
}

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
    use glsl::*;
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
        "abs" => cw(1, FABS, Some(SABS), None),
        "min" => cw(2, FMIN, Some(SMIN), Some(UMIN)),
        "max" => cw(2, FMAX, Some(SMAX), Some(UMAX)),
        "clamp" => cw(3, FCLAMP, Some(SCLAMP), Some(UCLAMP)),
        "floor" => f1(FLOOR),
        "ceil" => f1(CEIL),
        "frac" => f1(FRACT),
        "round" => f1(ROUND_EVEN),
        "trunc" => f1(TRUNC),
        "sqrt" => f1(SQRT),
        "rsqrt" => f1(INVERSE_SQRT),
        "exp" => f1(EXP),
        "exp2" => f1(EXP2),
        "log" => f1(LOG),
        "log2" => f1(LOG2),
        "sin" => f1(SIN),
        "cos" => f1(COS),
        "tan" => f1(TAN),
        "asin" => f1(ASIN),
        "acos" => f1(ACOS),
        "atan" => f1(ATAN),
        "sinh" => f1(SINH),
        "cosh" => f1(COSH),
        "tanh" => f1(TANH),
        "radians" => f1(RADIANS),
        "degrees" => f1(DEGREES),
        "atan2" => cw(2, ATAN2, None, None),
        "pow" => cw(2, POW, None, None),
        "lerp" => cw(3, FMIX, None, None),
        "step" => cw(2, STEP, None, None),
        "smoothstep" => cw(3, SMOOTH_STEP, None, None),
        "dot" | "mul" | "cross" | "length" | "normalize" | "distance" | "reflect" | "saturate"
        | "sign" | "fmod" | "mad" | "all" | "any" | "asuint" | "asint" | "asfloat"
        | "countbits" | "reversebits" | "firstbithigh" | "firstbitlow" | "clip" | "determinant"
        | "transpose" => {
            let n = match name {
                "dot" | "mul" | "cross" | "distance" | "reflect" | "fmod" => 2,
                "mad" => 3,
                _ => 1,
            };
            Some(Intrinsic::Special(n, n))
        }
        "and" | "or" => Some(Intrinsic::Special(2, 2)),
        "select" => Some(Intrinsic::Special(3, 3)),
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
        "asdouble",
        "ddx",
        "ddx_coarse",
        "ddx_fine",
        "ddy",
        "ddy_coarse",
        "ddy_fine",
        "dst",
        "errorf",
        "EvaluateAttributeAtCentroid",
        "EvaluateAttributeAtSample",
        "EvaluateAttributeSnapped",
        "f16tof32",
        "f32tof16",
        "faceforward",
        "fma",
        "frexp",
        "fwidth",
        "GetRenderTargetSampleCount",
        "GetRenderTargetSamplePosition",
        "isfinite",
        "isinf",
        "isnan",
        "ldexp",
        "lit",
        "log10",
        "modf",
        "msad4",
        "noise",
        "NonUniformResourceIndex",
        "printf",
        "Process2DQuadTessFactorsAvg",
        "rcp",
        "refract",
        "sincos",
        "tex1D",
        "tex2D",
        "tex3D",
        "texCUBE",
        "CheckAccessFullyMapped",
        "dot2add",
        "dot4add_i8packed",
        "dot4add_u8packed",
        "pack_u8",
        "pack_s8",
        "unpack_s8s32",
        "unpack_u8u32",
    ];
    OTHERS.contains(&name)
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
