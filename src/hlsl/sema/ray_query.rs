//! The methods of `RayQuery<FLAGS>` (shader model 6.5 inline ray tracing): what each one is
//! in SPIR-V (`SPV_KHR_ray_query`), its arguments and its result, one table for semantic
//! analysis and code generation.

use super::types::{Scalar, Ty};

/// Which intersection a getter reads: the candidate (`0`) or the committed one (`1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intersection {
    /// `Candidate...`.
    Candidate = 0,
    /// `Committed...`.
    Committed = 1,
}

/// An `OpRayQueryGetIntersection*KHR` getter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Getter {
    /// `OpRayQueryGetIntersectionTypeKHR` (`CandidateType`, `CommittedStatus`).
    Type,
    /// `OpRayQueryGetIntersectionTKHR`.
    T,
    /// `OpRayQueryGetIntersectionInstanceCustomIndexKHR` (HLSL's `InstanceID`).
    InstanceCustomIndex,
    /// `OpRayQueryGetIntersectionInstanceIdKHR` (HLSL's `InstanceIndex`).
    InstanceId,
    /// `OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR`.
    SbtRecordOffset,
    /// `OpRayQueryGetIntersectionGeometryIndexKHR`.
    GeometryIndex,
    /// `OpRayQueryGetIntersectionPrimitiveIndexKHR`.
    PrimitiveIndex,
    /// `OpRayQueryGetIntersectionBarycentricsKHR`.
    Barycentrics,
    /// `OpRayQueryGetIntersectionFrontFaceKHR`.
    FrontFace,
    /// `OpRayQueryGetIntersectionObjectRayDirectionKHR`.
    ObjectRayDirection,
    /// `OpRayQueryGetIntersectionObjectRayOriginKHR`.
    ObjectRayOrigin,
    /// `OpRayQueryGetIntersectionObjectToWorldKHR` (a 4x3 matrix).
    ObjectToWorld,
    /// `OpRayQueryGetIntersectionWorldToObjectKHR` (a 4x3 matrix).
    WorldToObject,
}

/// What a method of a ray query is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayQueryOp {
    /// `TraceRayInline(accel, flags, mask, ray)`: `OpRayQueryInitializeKHR`, the flags or-ed
    /// with the template's.
    TraceRayInline,
    /// `Proceed()`: `OpRayQueryProceedKHR`.
    Proceed,
    /// `Abort()`: `OpRayQueryTerminateKHR`.
    Abort,
    /// `CommitNonOpaqueTriangleHit()`: `OpRayQueryConfirmIntersectionKHR`.
    CommitNonOpaqueTriangleHit,
    /// `CommitProceduralPrimitiveHit(t)`: `OpRayQueryGenerateIntersectionKHR`.
    CommitProceduralPrimitiveHit,
    /// `RayFlags()`: `OpRayQueryGetRayFlagsKHR`.
    RayFlags,
    /// `RayTMin()`: `OpRayQueryGetRayTMinKHR`.
    RayTMin,
    /// `WorldRayOrigin()`: `OpRayQueryGetWorldRayOriginKHR`.
    WorldRayOrigin,
    /// `WorldRayDirection()`: `OpRayQueryGetWorldRayDirectionKHR`.
    WorldRayDirection,
    /// `CandidateProceduralPrimitiveNonOpaque()`: the negation of
    /// `OpRayQueryGetIntersectionCandidateAABBOpaqueKHR`.
    CandidateNonOpaque,
    /// A getter of an intersection; `transposed` for the `3x4` matrices (SPIR-V gives the
    /// `4x3` one).
    Get {
        /// The getter.
        getter: Getter,
        /// The intersection it reads.
        of: Intersection,
        /// Whether the result is the transpose of what SPIR-V gives.
        transposed: bool,
    },
}

/// The method `name` of a ray query, with the types its arguments are converted to (`None`
/// for the acceleration structure and the `RayDesc`, taken as they are) and its result.
pub fn method(name: &str) -> Option<(RayQueryOp, Vec<Option<Ty>>, Ty)> {
    let uint = Ty::Scalar(Scalar::UInt);
    let float = Ty::Scalar(Scalar::Float);
    let boolean = Ty::Scalar(Scalar::Bool);
    let float3 = Ty::Vector(Scalar::Float, 3);
    let simple = |op, result| Some((op, Vec::new(), result));
    match name {
        "TraceRayInline" => {
            return Some((
                RayQueryOp::TraceRayInline,
                vec![None, Some(uint.clone()), Some(uint), None],
                Ty::Void,
            ))
        }
        "Proceed" => return simple(RayQueryOp::Proceed, boolean),
        "Abort" => return simple(RayQueryOp::Abort, Ty::Void),
        "CommitNonOpaqueTriangleHit" => {
            return simple(RayQueryOp::CommitNonOpaqueTriangleHit, Ty::Void)
        }
        "CommitProceduralPrimitiveHit" => {
            return Some((
                RayQueryOp::CommitProceduralPrimitiveHit,
                vec![Some(float)],
                Ty::Void,
            ))
        }
        "RayFlags" => return simple(RayQueryOp::RayFlags, uint),
        "RayTMin" => return simple(RayQueryOp::RayTMin, float),
        "WorldRayOrigin" => return simple(RayQueryOp::WorldRayOrigin, float3),
        "WorldRayDirection" => return simple(RayQueryOp::WorldRayDirection, float3),
        "CandidateProceduralPrimitiveNonOpaque" => {
            return simple(RayQueryOp::CandidateNonOpaque, boolean)
        }
        "CandidateType" => return get(Getter::Type, Intersection::Candidate, false, uint),
        "CommittedStatus" => return get(Getter::Type, Intersection::Committed, false, uint),
        "CandidateTriangleRayT" => return get(Getter::T, Intersection::Candidate, false, float),
        "CommittedRayT" => return get(Getter::T, Intersection::Committed, false, float),
        _ => {}
    }
    let (of, rest) = if let Some(rest) = name.strip_prefix("Candidate") {
        (Intersection::Candidate, rest)
    } else {
        (Intersection::Committed, name.strip_prefix("Committed")?)
    };
    let m4x3 = Ty::Matrix(Scalar::Float, 4, 3);
    let m3x4 = Ty::Matrix(Scalar::Float, 3, 4);
    let (getter, transposed, result) = match rest {
        "InstanceIndex" => (Getter::InstanceId, false, uint),
        "InstanceID" => (Getter::InstanceCustomIndex, false, uint),
        "InstanceContributionToHitGroupIndex" => (Getter::SbtRecordOffset, false, uint),
        "GeometryIndex" => (Getter::GeometryIndex, false, uint),
        "PrimitiveIndex" => (Getter::PrimitiveIndex, false, uint),
        "TriangleBarycentrics" => (Getter::Barycentrics, false, Ty::Vector(Scalar::Float, 2)),
        "TriangleFrontFace" => (Getter::FrontFace, false, boolean),
        "ObjectRayOrigin" => (Getter::ObjectRayOrigin, false, float3),
        "ObjectRayDirection" => (Getter::ObjectRayDirection, false, float3),
        "ObjectToWorld4x3" => (Getter::ObjectToWorld, false, m4x3),
        "ObjectToWorld3x4" => (Getter::ObjectToWorld, true, m3x4),
        "WorldToObject4x3" => (Getter::WorldToObject, false, m4x3),
        "WorldToObject3x4" => (Getter::WorldToObject, true, m3x4),
        _ => return None,
    };
    get(getter, of, transposed, result)
}

fn get(
    getter: Getter,
    of: Intersection,
    transposed: bool,
    result: Ty,
) -> Option<(RayQueryOp, Vec<Option<Ty>>, Ty)> {
    Some((
        RayQueryOp::Get {
            getter,
            of,
            transposed,
        },
        Vec::new(),
        result,
    ))
}
