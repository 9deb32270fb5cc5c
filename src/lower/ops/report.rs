//! Which ops the lowering handles, and how: from the generated table, by hand-written code in
//! `src/lower/ops/`, or by the special cases of `src/lower/special/`. Tests and docs print it.

use crate::grammar::lowering::{CORE_PATTERNS, EXT_PATTERNS};

/// How an op is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LoweredBy {
    /// A pattern of the generated table (`grammar/lowering.json`).
    Table,
    /// Hand-written code in `src/lower/ops/` (or the function and terminator lowering).
    HandWritten,
    /// A special case of `src/lower/special/`.
    Special,
}

/// Core ops lowered by hand-written code.
pub const HAND_WRITTEN_CORE: &[&str] = &[
    "OpFunctionCall",
    "OpVariable",
    "OpLoad",
    "OpStore",
    "OpAccessChain",
    "OpInBoundsAccessChain",
    "OpPtrAccessChain",
    "OpInBoundsPtrAccessChain",
    "OpCopyMemory",
    "OpCopyMemorySized",
    "OpPtrCastToGeneric",
    "OpGenericCastToPtr",
    "OpGenericCastToPtrExplicit",
    "OpCompositeConstruct",
    "OpCompositeExtract",
    "OpCompositeInsert",
    "OpVectorShuffle",
    "OpVectorExtractDynamic",
    "OpVectorInsertDynamic",
    "OpCopyObject",
    "OpCopyLogical",
    "OpTranspose",
    "OpMatrixTimesScalar",
    "OpVectorTimesScalar",
    "OpMatrixTimesVector",
    "OpVectorTimesMatrix",
    "OpMatrixTimesMatrix",
    "OpOuterProduct",
    "OpDot",
    "OpAtomicLoad",
    "OpAtomicStore",
    "OpAtomicExchange",
    "OpAtomicCompareExchange",
    "OpAtomicCompareExchangeWeak",
    "OpAtomicIIncrement",
    "OpAtomicIDecrement",
    "OpAtomicIAdd",
    "OpAtomicISub",
    "OpAtomicSMin",
    "OpAtomicUMin",
    "OpAtomicSMax",
    "OpAtomicUMax",
    "OpAtomicAnd",
    "OpAtomicOr",
    "OpAtomicXor",
    "OpControlBarrier",
    "OpMemoryBarrier",
    "OpIsInf",
    "OpQuantizeToF16",
    "OpIAddCarry",
    "OpISubBorrow",
    "OpUMulExtended",
    "OpSMulExtended",
    "OpLessOrGreater",
    "OpUndef",
    "OpExtInst",
    "OpBranch",
    "OpBranchConditional",
    "OpSwitch",
    "OpPhi",
    "OpSelectionMerge",
    "OpLoopMerge",
    "OpReturn",
    "OpReturnValue",
    "OpUnreachable",
    "OpKill",
    "OpTerminateInvocation",
    "OpEntryPoint",
    "OpExecutionMode",
    "OpExecutionModeId",
    "OpConstant",
    "OpConstantTrue",
    "OpConstantFalse",
    "OpConstantComposite",
    "OpConstantNull",
    "OpConstantSampler",
    "OpSpecConstant",
    "OpSpecConstantTrue",
    "OpSpecConstantFalse",
    "OpSpecConstantComposite",
    "OpSpecConstantOp",
    "OpGroupNonUniformElect",
    "OpGroupNonUniformAll",
    "OpGroupNonUniformAny",
    "OpGroupNonUniformAllEqual",
    "OpGroupNonUniformBroadcast",
    "OpGroupNonUniformBroadcastFirst",
    "OpGroupNonUniformBallot",
    "OpGroupNonUniformShuffle",
    "OpGroupNonUniformShuffleXor",
    "OpGroupNonUniformShuffleUp",
    "OpGroupNonUniformShuffleDown",
    "OpGroupNonUniformQuadBroadcast",
    "OpGroupNonUniformQuadSwap",
    "OpGroupNonUniformIAdd",
    "OpGroupNonUniformFAdd",
    "OpGroupNonUniformIMul",
    "OpGroupNonUniformFMul",
    "OpGroupNonUniformSMin",
    "OpGroupNonUniformUMin",
    "OpGroupNonUniformFMin",
    "OpGroupNonUniformSMax",
    "OpGroupNonUniformUMax",
    "OpGroupNonUniformFMax",
    "OpGroupNonUniformBitwiseAnd",
    "OpGroupNonUniformBitwiseOr",
    "OpGroupNonUniformBitwiseXor",
    "OpGroupNonUniformLogicalAnd",
    "OpGroupNonUniformLogicalOr",
    "OpGroupNonUniformLogicalXor",
    "OpGroupNonUniformInverseBallot",
    "OpGroupNonUniformBallotBitExtract",
    "OpGroupNonUniformBallotBitCount",
    "OpGroupNonUniformBallotFindLSB",
    "OpGroupNonUniformBallotFindMSB",
    "OpSubgroupBallotKHR",
    "OpSubgroupFirstInvocationKHR",
    "OpSubgroupAllKHR",
    "OpSubgroupAnyKHR",
    "OpSubgroupAllEqualKHR",
    "OpSubgroupReadInvocationKHR",
    "OpLifetimeStart",
    "OpLifetimeStop",
    "OpIsFinite",
    "OpIsNormal",
    "OpSignBitSet",
    "OpReadClockKHR",
    "OpAtomicFAddEXT",
    "OpAtomicFMinEXT",
    "OpAtomicFMaxEXT",
    "OpNop",
    "OpLine",
    "OpNoLine",
];

/// Core ops lowered by `src/lower/special/`.
pub const SPECIAL_CORE: &[&str] = &[
    "OpBitFieldInsert",
    "OpBitFieldSExtract",
    "OpBitFieldUExtract",
    "OpShiftLeftLogical",
    "OpShiftRightLogical",
    "OpShiftRightArithmetic",
    "OpFConvert",
    "OpSConvert",
    "OpUConvert",
    "OpNot",
    "OpLogicalNot",
    "OpFMod",
    "OpSMod",
];

/// GLSL.std.450 instructions lowered by hand-written code.
pub const HAND_WRITTEN_GLSL: &[&str] = &[
    "FSign",
    "SSign",
    "Fract",
    "Radians",
    "Degrees",
    "InverseSqrt",
    "FClamp",
    "NClamp",
    "UClamp",
    "SClamp",
    "FMix",
    "Step",
    "SmoothStep",
    "Length",
    "Distance",
    "Normalize",
    "Cross",
    "FaceForward",
    "Reflect",
    "Refract",
    "FindILsb",
    "FindUMsb",
    "FindSMsb",
    "ModfStruct",
    "Modf",
    "FrexpStruct",
    "Frexp",
    "Determinant",
    "MatrixInverse",
    "PackSnorm4x8",
    "PackUnorm4x8",
    "PackSnorm2x16",
    "PackUnorm2x16",
    "PackHalf2x16",
    "PackDouble2x32",
    "UnpackSnorm2x16",
    "UnpackUnorm2x16",
    "UnpackHalf2x16",
    "UnpackSnorm4x8",
    "UnpackUnorm4x8",
    "UnpackDouble2x32",
];

/// GLSL.std.450 instructions lowered by `src/lower/special/`.
pub const SPECIAL_GLSL: &[&str] = &["Tan", "Tanh"];

/// OpenCL.std instructions lowered by hand-written code.
pub const HAND_WRITTEN_OPENCL: &[&str] = &[
    "rsqrt",
    "native_rsqrt",
    "half_rsqrt",
    "native_recip",
    "half_recip",
    "fclamp",
    "s_clamp",
    "u_clamp",
    "mix",
    "step",
    "smoothstep",
    "degrees",
    "radians",
    "sign",
    "u_abs",
    "rotate",
    "s_mul_hi",
    "u_mul_hi",
    "cross",
    "length",
    "fast_length",
    "distance",
    "fast_distance",
    "normalize",
    "fast_normalize",
    "sinpi",
    "cospi",
    "tanpi",
    "asinpi",
    "acospi",
    "atanpi",
    "atan2pi",
    "s_mad_hi",
    "u_mad_hi",
    "s_mul24",
    "u_mul24",
    "s_mad24",
    "u_mad24",
    "s_hadd",
    "u_hadd",
    "s_rhadd",
    "u_rhadd",
    "vloadn",
    "vstoren",
];

/// Every lowered op: `(set, name, how)`, set `""` for core ops.
pub fn lowered_ops() -> Vec<(&'static str, String, LoweredBy)> {
    let mut out = Vec::new();
    for (_, p) in CORE_PATTERNS {
        out.push(("", p.name.to_string(), LoweredBy::Table));
    }
    for n in HAND_WRITTEN_CORE {
        out.push(("", n.to_string(), LoweredBy::HandWritten));
    }
    for n in SPECIAL_CORE {
        out.push(("", n.to_string(), LoweredBy::Special));
    }
    for (set, pats) in EXT_PATTERNS {
        for (_, p) in pats.iter() {
            out.push((*set, p.name.to_string(), LoweredBy::Table));
        }
    }
    for n in HAND_WRITTEN_GLSL {
        out.push(("GLSL.std.450", n.to_string(), LoweredBy::HandWritten));
    }
    for n in SPECIAL_GLSL {
        out.push(("GLSL.std.450", n.to_string(), LoweredBy::Special));
    }
    for n in HAND_WRITTEN_OPENCL {
        out.push(("OpenCL.std", n.to_string(), LoweredBy::HandWritten));
    }
    out
}
