//! Ray queries (`RayQuery<FLAGS>`) as DXC lowers them: the object is a Function variable of
//! `OpTypeRayQueryKHR`, each method one `OpRayQuery*KHR` instruction on it (the table is
//! `crate::hlsl::sema::ray_query`). The `RayQueryKHR` capability and `SPV_KHR_ray_query`
//! follow from the instructions (the requirements pass declares them).

use super::func::FnCx;
use super::Val;
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::ray_query::{self, Getter, RayQueryOp};
use crate::hlsl::sema::types::{ResourceKind, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::Value;

impl FnCx<'_, '_> {
    /// `q.name(args)` on the ray query variable `q`.
    pub(super) fn ray_query_call(
        &mut self,
        q: Val,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let place = match q {
            Val::P(p) => p,
            _ => {
                self.st.internal(span, "a ray query that is not a variable");
                return None;
            }
        };
        let Ty::Resource(ResourceKind::RayQuery { flags }, _) = place.ty else {
            self.st.internal(span, "a ray query of another type");
            return None;
        };
        let Some((op, _, result)) = ray_query::method(name) else {
            self.st
                .internal(span, format!("the ray query method '{name}'"));
            return None;
        };
        let q = place.ptr;
        let uint = Ty::Scalar(Scalar::UInt);
        let value = match op {
            RayQueryOp::TraceRayInline => {
                let accel = match self.expr(&args[0]) {
                    Val::Res(r) => self.load_handle(&r),
                    _ => {
                        self.st
                            .internal(args[0].span, "an acceleration structure argument");
                        return None;
                    }
                };
                let written = self.rvalue_as(&args[1], &uint)?;
                let mask = self.rvalue_as(&args[2], &uint)?;
                let (ray, _) = self.rvalue(&args[3])?;
                let ray_flags = if flags == 0 {
                    written
                } else {
                    let t = self.ty(&uint);
                    let template = self.u32c(flags);
                    self.f.bitwise_or(t, template, written)
                };
                let float = self.ty(&Ty::Scalar(Scalar::Float));
                let float3 = self.ty(&Ty::Vector(Scalar::Float, 3));
                let origin = self.f.composite_extract(float3, ray, vec![0]);
                let t_min = self.f.composite_extract(float, ray, vec![1]);
                let direction = self.f.composite_extract(float3, ray, vec![2]);
                let t_max = self.f.composite_extract(float, ray, vec![3]);
                self.f.ray_query_initialize_khr(
                    q, accel, ray_flags, mask, origin, t_min, direction, t_max,
                );
                return Some(self.void_val());
            }
            RayQueryOp::Proceed => {
                let t = self.ty(&result);
                self.f.ray_query_proceed_khr(t, q)
            }
            RayQueryOp::Abort => {
                self.f.ray_query_terminate_khr(q);
                return Some(self.void_val());
            }
            RayQueryOp::CommitNonOpaqueTriangleHit => {
                self.f.ray_query_confirm_intersection_khr(q);
                return Some(self.void_val());
            }
            RayQueryOp::CommitProceduralPrimitiveHit => {
                let hit_t = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::Float))?;
                self.f.ray_query_generate_intersection_khr(q, hit_t);
                return Some(self.void_val());
            }
            RayQueryOp::RayFlags => {
                let t = self.ty(&result);
                self.f.ray_query_get_ray_flags_khr(t, q)
            }
            RayQueryOp::RayTMin => {
                let t = self.ty(&result);
                self.f.ray_query_get_ray_t_min_khr(t, q)
            }
            RayQueryOp::WorldRayOrigin => {
                let t = self.ty(&result);
                self.f.ray_query_get_world_ray_origin_khr(t, q)
            }
            RayQueryOp::WorldRayDirection => {
                let t = self.ty(&result);
                self.f.ray_query_get_world_ray_direction_khr(t, q)
            }
            RayQueryOp::CandidateNonOpaque => {
                let t = self.ty(&result);
                let opaque = self
                    .f
                    .ray_query_get_intersection_candidate_aabb_opaque_khr(t, q);
                self.f.logical_not(t, opaque)
            }
            RayQueryOp::Get {
                getter,
                of,
                transposed,
            } => {
                let got = if transposed {
                    Ty::Matrix(Scalar::Float, 4, 3)
                } else {
                    result.clone()
                };
                let t = self.ty(&got);
                let i = self.u32c(of as u32);
                let v = self.intersection_getter(getter, t, q, i);
                if transposed {
                    let rt = self.ty(&result);
                    self.f.transpose(rt, v)
                } else {
                    v
                }
            }
        };
        Some(Val::R(value, result))
    }

    /// The `OpRayQueryGetIntersection*KHR` of `getter` (result type `t`) on `q`.
    fn intersection_getter(
        &mut self,
        getter: Getter,
        t: crate::ir::Handle<crate::ir::Type>,
        q: Value,
        i: Value,
    ) -> Value {
        let f = &mut self.f;
        match getter {
            Getter::Type => f.ray_query_get_intersection_type_khr(t, q, i),
            Getter::T => f.ray_query_get_intersection_tkhr(t, q, i),
            Getter::InstanceCustomIndex => {
                f.ray_query_get_intersection_instance_custom_index_khr(t, q, i)
            }
            Getter::InstanceId => f.ray_query_get_intersection_instance_id_khr(t, q, i),
            Getter::SbtRecordOffset => f
                .ray_query_get_intersection_instance_shader_binding_table_record_offset_khr(
                    t, q, i,
                ),
            Getter::GeometryIndex => f.ray_query_get_intersection_geometry_index_khr(t, q, i),
            Getter::PrimitiveIndex => f.ray_query_get_intersection_primitive_index_khr(t, q, i),
            Getter::Barycentrics => f.ray_query_get_intersection_barycentrics_khr(t, q, i),
            Getter::FrontFace => f.ray_query_get_intersection_front_face_khr(t, q, i),
            Getter::ObjectRayDirection => {
                f.ray_query_get_intersection_object_ray_direction_khr(t, q, i)
            }
            Getter::ObjectRayOrigin => f.ray_query_get_intersection_object_ray_origin_khr(t, q, i),
            Getter::ObjectToWorld => f.ray_query_get_intersection_object_to_world_khr(t, q, i),
            Getter::WorldToObject => f.ray_query_get_intersection_world_to_object_khr(t, q, i),
        }
    }
}
