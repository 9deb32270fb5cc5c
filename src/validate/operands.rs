//! Operand types of arithmetic, bitwise, relational and logical, and conversion
//! instructions: which scalar or vector types the result and operands may have and how their
//! component counts and widths relate.
//!
//! Hand-written because the grammar gives every operand the kind `IdRef`; the type
//! constraints ("operands of Result Type", "same component width") are prose in the
//! specification. The messages and the order of the checks follow `spirv-val`'s.

use super::module::{Inst, Module};
use super::query::Ty;
use super::Cx;
use crate::grammar::{Capability, Instruction, Opcode, StorageClass, Version};

const RULE: &str = "core:operand-type";

/// Checks an instruction of one of the covered classes.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, _typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    if !op.has_result_type() {
        return;
    }
    let m = cx.m;
    let rt = inst.word(0);
    // Operand `i` (counting the result type as 0) and its type.
    let ty = |i: usize| m.type_of(inst.word(i)).unwrap_or(0);
    let n = inst.ops.len();
    let mut err = |msg: String| cx.sink.push(inst.offset, RULE, format!("{op}: {msg}"));
    use Opcode as O;
    match op {
        O::FAdd | O::FSub | O::FMul | O::FDiv | O::FRem | O::FMod | O::FNegate => {
            if !m.is_float_scalar_or_vector(rt) && !coop_matrix(m, rt) {
                return err("expected a float scalar or vector result type".into());
            }
            for i in 2..n {
                if ty(i) != rt {
                    return err(format!("operand {} must be of the result type", i - 1));
                }
            }
        }
        O::UDiv | O::UMod => {
            if !m.is_unsigned_int_scalar_or_vector(rt) && !coop_matrix(m, rt) {
                return err("expected an unsigned int scalar or vector result type".into());
            }
            for i in 2..n {
                if ty(i) != rt {
                    return err(format!("operand {} must be of the result type", i - 1));
                }
            }
        }
        O::IAdd | O::ISub | O::IMul | O::SDiv | O::SMod | O::SRem | O::SNegate => {
            if coop_matrix(m, rt) {
                return;
            }
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            let (dim, width) = (m.dimension(rt), m.bit_width(rt));
            for i in 2..n {
                let t = ty(i);
                if !m.is_int_scalar_or_vector(t) {
                    return err(format!("operand {} must be an int scalar or vector", i - 1));
                }
                if m.dimension(t) != dim {
                    return err(format!(
                        "operand {} must have as many components as the result type",
                        i - 1
                    ));
                }
                if m.bit_width(t) != width {
                    return err(format!(
                        "operand {} must have the bit width of the result type",
                        i - 1
                    ));
                }
            }
        }
        O::Dot => {
            if !m.is_float_scalar(rt) {
                return err("expected a float scalar result type".into());
            }
            let (a, b) = (ty(2), ty(3));
            if !m.is_float_vector(a) || a != b {
                return err("both operands must be float vectors of the same type".into());
            }
            if m.component_type(a) != Some(rt) {
                err("the vectors' component type must be the result type".into())
            }
        }
        O::VectorTimesScalar => {
            if !m.is_float_vector(rt) {
                return err("expected a float vector result type".into());
            }
            if ty(2) != rt {
                return err("the vector must be of the result type".into());
            }
            if m.component_type(rt) != Some(ty(3)) {
                err("the scalar must be of the result's component type".into())
            }
        }
        O::MatrixTimesScalar => {
            if coop_matrix(m, rt) {
                return;
            }
            if !m.is_float_matrix(rt) {
                return err("expected a float matrix result type".into());
            }
            if ty(2) != rt {
                return err("the matrix must be of the result type".into());
            }
            if matrix_component(m, rt) != Some(ty(3)) {
                err("the scalar must be of the matrix component type".into())
            }
        }
        O::VectorTimesMatrix | O::MatrixTimesVector => {
            if !m.is_float_vector(rt) {
                return err("expected a float vector result type".into());
            }
            let (v, mat) = if op == O::VectorTimesMatrix {
                (ty(2), ty(3))
            } else {
                (ty(3), ty(2))
            };
            if !m.is_float_vector(v) || !m.is_float_matrix(mat) {
                return err("expected a float vector and a float matrix".into());
            }
            let Some(Ty::Matrix { column, count }) = m.ty(mat) else {
                return;
            };
            if m.component_type(v) != m.component_type(rt)
                || m.component_type(column) != m.component_type(rt)
            {
                return err("component types must match the result's".into());
            }
            let (rows, cols) = (m.dimension(column), count);
            let (vin, vout) = if op == O::VectorTimesMatrix {
                (rows, cols)
            } else {
                (cols, rows)
            };
            if m.dimension(v) != vin || m.dimension(rt) != vout {
                err("the dimensions of the vector, matrix and result do not match".into())
            }
        }
        O::MatrixTimesMatrix => {
            let (
                Some(Ty::Matrix {
                    column: rc,
                    count: rn,
                }),
                Some(Ty::Matrix {
                    column: lc,
                    count: ln,
                }),
                Some(Ty::Matrix {
                    column: xc,
                    count: xn,
                }),
            ) = (m.ty(rt), m.ty(ty(2)), m.ty(ty(3)))
            else {
                return err("expected float matrix result and operands".into());
            };
            if !m.is_float_matrix(rt) || !m.is_float_matrix(ty(2)) || !m.is_float_matrix(ty(3)) {
                return err("expected float matrix result and operands".into());
            }
            let comp = m.component_type(rc);
            if m.component_type(lc) != comp || m.component_type(xc) != comp {
                return err("component types must match the result's".into());
            }
            if m.dimension(lc) != m.dimension(rc) || xn != rn || ln != m.dimension(xc) {
                err("the matrix dimensions do not match".into())
            }
        }
        O::OuterProduct => {
            let Some(Ty::Matrix { column, count }) = m.ty(rt) else {
                return err("expected a float matrix result type".into());
            };
            if !m.is_float_matrix(rt) {
                return err("expected a float matrix result type".into());
            }
            if ty(2) != column {
                return err("vector 1 must be of the result's column type".into());
            }
            let v2 = ty(3);
            if !m.is_float_vector(v2)
                || m.component_type(v2) != m.component_type(column)
                || m.dimension(v2) != count
            {
                err("vector 2 must be a float vector with one component per column".into())
            }
        }
        O::IAddCarry | O::ISubBorrow | O::UMulExtended | O::SMulExtended => {
            let Some(Ty::Struct { members }) = m.ty(rt) else {
                return err("expected a struct result type".into());
            };
            if members.len() != 2 || members[0] != members[1] {
                return err("expected a struct of two members of the same type".into());
            }
            let mt = members[0];
            let unsigned = matches!(op, O::IAddCarry | O::ISubBorrow | O::UMulExtended);
            let ok = if unsigned {
                m.is_unsigned_int_scalar_or_vector(mt)
            } else {
                m.is_int_scalar_or_vector(mt)
            };
            if !ok {
                return err("the result members must be int scalars or vectors".into());
            }
            if ty(2) != mt || ty(3) != mt {
                err("the operands must be of the result members' type".into())
            }
        }
        O::ShiftRightLogical | O::ShiftRightArithmetic | O::ShiftLeftLogical => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            let (b, s) = (ty(2), ty(3));
            if !m.is_int_scalar_or_vector(b) {
                return err("the base must be an int scalar or vector".into());
            }
            if m.dimension(b) != m.dimension(rt) {
                return err("the base must have as many components as the result type".into());
            }
            if m.bit_width(b) != m.bit_width(rt) {
                return err("the base must have the bit width of the result type".into());
            }
            if !m.is_int_scalar_or_vector(s) {
                return err("the shift must be an int scalar or vector".into());
            }
            if m.dimension(s) != m.dimension(rt) {
                err("the shift must have as many components as the result type".into())
            }
        }
        O::BitwiseOr | O::BitwiseXor | O::BitwiseAnd | O::Not => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            for i in 2..n {
                let t = ty(i);
                if !m.is_int_scalar_or_vector(t) {
                    return err(format!("operand {} must be an int scalar or vector", i - 1));
                }
                if m.dimension(t) != m.dimension(rt) {
                    return err(format!(
                        "operand {} must have as many components as the result type",
                        i - 1
                    ));
                }
                if m.bit_width(t) != m.bit_width(rt) {
                    return err(format!(
                        "operand {} must have the bit width of the result type",
                        i - 1
                    ));
                }
            }
        }
        O::BitFieldInsert | O::BitFieldSExtract | O::BitFieldUExtract => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            if ty(2) != rt {
                return err("the base must be of the result type".into());
            }
            let first = if op == O::BitFieldInsert {
                if ty(3) != rt {
                    return err("the insert must be of the result type".into());
                }
                4
            } else {
                3
            };
            if !m.is_int_scalar(ty(first)) || !m.is_int_scalar(ty(first + 1)) {
                err("the offset and count must be int scalars".into())
            }
        }
        O::BitReverse => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            if ty(2) != rt {
                err("the base must be of the result type".into())
            }
        }
        O::BitCount => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type".into());
            }
            let b = ty(2);
            if !m.is_int_scalar_or_vector(b) {
                return err("the base must be an int scalar or vector".into());
            }
            if m.dimension(b) != m.dimension(rt) {
                err("the base must have as many components as the result type".into())
            }
        }
        O::Any | O::All => {
            if !m.is_bool_scalar(rt) {
                return err("expected a bool scalar result type".into());
            }
            if !m.is_bool_vector(ty(2)) {
                err("the operand must be a bool vector".into())
            }
        }
        O::IsNan | O::IsInf | O::IsFinite | O::IsNormal | O::SignBitSet => {
            if !m.is_bool_scalar_or_vector(rt) {
                return err("expected a bool scalar or vector result type".into());
            }
            let t = ty(2);
            if !m.is_float_scalar_or_vector(t) {
                return err("the operand must be a float scalar or vector".into());
            }
            if m.dimension(t) != m.dimension(rt) {
                err("the operand must have as many components as the result type".into())
            }
        }
        O::FOrdEqual
        | O::FUnordEqual
        | O::FOrdNotEqual
        | O::FUnordNotEqual
        | O::FOrdLessThan
        | O::FUnordLessThan
        | O::FOrdGreaterThan
        | O::FUnordGreaterThan
        | O::FOrdLessThanEqual
        | O::FUnordLessThanEqual
        | O::FOrdGreaterThanEqual
        | O::FUnordGreaterThanEqual
        | O::LessOrGreater
        | O::Ordered
        | O::Unordered => {
            if !m.is_bool_scalar_or_vector(rt) {
                return err("expected a bool scalar or vector result type".into());
            }
            let (a, b) = (ty(2), ty(3));
            if !m.is_float_scalar_or_vector(a) {
                return err("the operands must be float scalars or vectors".into());
            }
            if m.dimension(a) != m.dimension(rt) {
                return err("the operands must have as many components as the result type".into());
            }
            if a != b {
                err("both operands must have the same type".into())
            }
        }
        O::LogicalEqual | O::LogicalNotEqual | O::LogicalOr | O::LogicalAnd => {
            if !m.is_bool_scalar_or_vector(rt) {
                return err("expected a bool scalar or vector result type".into());
            }
            if ty(2) != rt || ty(3) != rt {
                err("both operands must be of the result type".into())
            }
        }
        O::LogicalNot => {
            if !m.is_bool_scalar_or_vector(rt) {
                return err("expected a bool scalar or vector result type".into());
            }
            if ty(2) != rt {
                err("the operand must be of the result type".into())
            }
        }
        O::Select => select(cx, inst, rt),
        O::IEqual
        | O::INotEqual
        | O::UGreaterThan
        | O::SGreaterThan
        | O::UGreaterThanEqual
        | O::SGreaterThanEqual
        | O::ULessThan
        | O::SLessThan
        | O::ULessThanEqual
        | O::SLessThanEqual => {
            if !m.is_bool_scalar_or_vector(rt) {
                return err("expected a bool scalar or vector result type".into());
            }
            let (a, b) = (ty(2), ty(3));
            if !m.is_int_scalar_or_vector(a) {
                return err("the operands must be int scalars or vectors".into());
            }
            if m.dimension(a) != m.dimension(rt) {
                return err("the operands must have as many components as the result type".into());
            }
            if !m.is_int_scalar_or_vector(b) {
                return err("the operands must be int scalars or vectors".into());
            }
            if m.dimension(b) != m.dimension(rt) {
                return err("the operands must have as many components as the result type".into());
            }
            if m.bit_width(a) != m.bit_width(b) {
                err("both operands must have the same component bit width".into())
            }
        }
        _ => conversion(cx, inst, op, rt),
    }
}

/// Whether `t` is a cooperative matrix type (their operand rules are not covered).
fn coop_matrix(m: &Module<'_>, t: u32) -> bool {
    m.def_op(t).is_some_and(Opcode::is_cooperative_matrix_type)
}

/// The component type of a matrix.
fn matrix_component(m: &Module<'_>, t: u32) -> Option<u32> {
    match m.ty(t)? {
        Ty::Matrix { column, .. } => m.component_type(column),
        _ => None,
    }
}

fn select(cx: &mut Cx<'_>, inst: &Inst<'_>, rt: u32) {
    let m = cx.m;
    let ty = |i: usize| m.type_of(inst.word(i)).unwrap_or(0);
    let composites = m.version >= Version(1, 4);
    let mut err = |msg: &str| cx.sink.push(inst.offset, RULE, format!("OpSelect: {msg}"));
    let dim = match m.ty(rt) {
        Some(Ty::Pointer { .. }) => {
            if cx.logical
                && !m.capabilities.has(Capability::VariablePointers)
                && !m
                    .capabilities
                    .has(Capability::VariablePointersStorageBuffer)
            {
                return err("selecting pointers needs the VariablePointers capabilities");
            }
            1
        }
        Some(Ty::Vector { count, .. }) => count,
        Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. }) => 1,
        Some(Ty::Array { .. } | Ty::Struct { .. } | Ty::Matrix { .. }) if composites => 1,
        Some(Ty::Image(_) | Ty::Sampler | Ty::SampledImage { .. })
            if m.capabilities.has(Capability::BindlessTextureNV) =>
        {
            1
        }
        _ => return err("expected a scalar or vector result type"),
    };
    let c = ty(2);
    if !m.is_bool_scalar_or_vector(c) {
        return err("the condition must be a bool scalar or vector");
    }
    if m.dimension(c) != dim && (!composites || m.is_bool_vector(c)) {
        return err("the condition must have as many components as the result type");
    }
    if ty(3) != rt || ty(4) != rt {
        err("both objects must be of the result type");
    }
}

fn conversion(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode, rt: u32) {
    use Opcode as O;
    let m = cx.m;
    let input = m.type_of(inst.word(2)).unwrap_or(0);
    let logical = cx.logical;
    let mut err = |msg: &str| cx.sink.push(inst.offset, RULE, format!("{op}: {msg}"));
    let same_dim = m.dimension(input) == m.dimension(rt);
    match op {
        O::ConvertFToU | O::ConvertFToS => {
            let ok = if op == O::ConvertFToU {
                m.is_unsigned_int_scalar_or_vector(rt)
            } else {
                m.is_int_scalar_or_vector(rt)
            };
            if !ok && !coop_matrix(m, rt) {
                return err(if op == O::ConvertFToU {
                    "expected an unsigned int scalar or vector result type"
                } else {
                    "expected an int scalar or vector result type"
                });
            }
            if coop_matrix(m, rt) {
                return;
            }
            if !m.is_float_scalar_or_vector(input) {
                return err("the input must be a float scalar or vector");
            }
            if !same_dim {
                err("the input must have as many components as the result type");
            }
        }
        O::ConvertSToF | O::ConvertUToF => {
            if coop_matrix(m, rt) {
                return;
            }
            if !m.is_float_scalar_or_vector(rt) {
                return err("expected a float scalar or vector result type");
            }
            if !m.is_int_scalar_or_vector(input) {
                return err("the input must be an int scalar or vector");
            }
            if !same_dim {
                err("the input must have as many components as the result type");
            }
        }
        O::UConvert | O::SConvert => {
            if coop_matrix(m, rt) {
                return;
            }
            let ok = if op == O::UConvert {
                m.is_unsigned_int_scalar_or_vector(rt)
            } else {
                m.is_int_scalar_or_vector(rt)
            };
            if !ok {
                return err(if op == O::UConvert {
                    "expected an unsigned int scalar or vector result type"
                } else {
                    "expected an int scalar or vector result type"
                });
            }
            if !m.is_int_scalar_or_vector(input) {
                return err("the input must be an int scalar or vector");
            }
            if !same_dim {
                return err("the input must have as many components as the result type");
            }
            if m.bit_width(input) == m.bit_width(rt) {
                err("the input must have a different bit width from the result type");
            }
        }
        O::FConvert => {
            if coop_matrix(m, rt) {
                return;
            }
            if !m.is_float_scalar_or_vector(rt) {
                return err("expected a float scalar or vector result type");
            }
            if !m.is_float_scalar_or_vector(input) {
                return err("the input must be a float scalar or vector");
            }
            if !same_dim {
                return err("the input must have as many components as the result type");
            }
            if m.bit_width(input) == m.bit_width(rt) {
                err("the input must have a different bit width from the result type");
            }
        }
        O::QuantizeToF16 => {
            if !m.is_float_scalar_or_vector(rt) || m.bit_width(rt) != 32 {
                return err("expected a 32-bit float scalar or vector result type");
            }
            if input != rt {
                err("the input must be of the result type");
            }
        }
        O::SatConvertSToU | O::SatConvertUToS => {
            if !m.is_int_scalar_or_vector(rt) {
                return err("expected an int scalar or vector result type");
            }
            if !m.is_int_scalar_or_vector(input) {
                return err("the input must be an int scalar or vector");
            }
            if !same_dim {
                err("the input must have as many components as the result type");
            }
        }
        O::ConvertPtrToU => {
            if !m.is_unsigned_int_scalar(rt) {
                return err("expected an unsigned int scalar result type");
            }
            if !m.is_pointer(input) {
                return err("the input must be a pointer");
            }
            if logical {
                err("logical addressing does not support pointer conversions");
            }
        }
        O::ConvertUToPtr => {
            if !m.is_pointer(rt) {
                return err("expected a pointer result type");
            }
            if !m.is_int_scalar(input) {
                return err("the input must be an int scalar");
            }
            if logical {
                err("logical addressing does not support pointer conversions");
            }
        }
        O::PtrCastToGeneric | O::GenericCastToPtr => {
            let (Some((rsc, rp)), Some((isc, ip))) = (m.pointer(rt), m.pointer(input)) else {
                return err("the result type and the input must be pointers");
            };
            let specific = |sc: u32| {
                [
                    StorageClass::Workgroup,
                    StorageClass::CrossWorkgroup,
                    StorageClass::Function,
                ]
                .iter()
                .any(|s| s.value() == sc)
            };
            let generic = StorageClass::Generic.value();
            let ok = if op == O::PtrCastToGeneric {
                rsc == generic && specific(isc)
            } else {
                isc == generic && specific(rsc)
            };
            if !ok {
                return err(
                    "the casts are between Generic and Workgroup, CrossWorkgroup or Function \
                     pointers",
                );
            }
            if rp != ip {
                err("the input and result must point to the same type");
            }
        }
        O::Bitcast => bitcast(cx, inst, rt, input),
        _ => {}
    }
}

fn bitcast(cx: &mut Cx<'_>, inst: &Inst<'_>, rt: u32, input: u32) {
    let m = cx.m;
    let mut err = |msg: &str| cx.sink.push(inst.offset, RULE, format!("OpBitcast: {msg}"));
    let numeric = |t: u32| m.is_int_scalar_or_vector(t) || m.is_float_scalar_or_vector(t);
    let (rp, ip) = (m.is_pointer(rt), m.is_pointer(input));
    if !rp && !numeric(rt) {
        return err("expected a pointer or int or float scalar or vector result type");
    }
    if !ip && !numeric(input) {
        return err("expected a pointer or int or float scalar or vector input");
    }
    let int32_vec = |t: u32| m.is_int_vector(t) && m.bit_width(t) == 32;
    if m.version >= Version(1, 5) || m.has_extension("SPV_KHR_physical_storage_buffer") {
        if rp && !ip && !m.is_int_scalar(input) && !int32_vec(input) {
            return err("a pointer result needs a pointer, int scalar or 32-bit int vector input");
        }
        if ip && !rp && !m.is_int_scalar(rt) && !int32_vec(rt) {
            return err("a pointer converts only to a pointer, int scalar or 32-bit int vector");
        }
    } else {
        if rp && !ip && !m.is_int_scalar(input) {
            return err("a pointer result needs a pointer or int scalar input");
        }
        if ip && !rp && !m.is_int_scalar(rt) {
            return err("a pointer converts only to a pointer or int scalar");
        }
    }
    let total = |t: u32| u64::from(m.bit_width(t)) * u64::from(m.dimension(t));
    if !rp && !ip && total(rt) != total(input) {
        err("the input must have the total bit width of the result type");
    }
}
