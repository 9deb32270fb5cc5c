//! Small generic helpers over inkwell: undefined, poison and null values, constant aggregates
//! of any element type, and comparisons and conversions over scalars and vectors alike.

use super::error::{LowerError, Result};
use inkwell::builder::Builder;
use inkwell::llvm_sys::core as llc;
use inkwell::types::{AsTypeRef, BasicType, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicValue, BasicValueEnum, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

/// `undef` of `ty` (target extension types included, see [`super::llvm_ext`]).
pub fn undef(ty: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    super::llvm_ext::undef(ty)
}

/// `zeroinitializer` of `ty` (target extension types included).
pub fn null(ty: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    super::llvm_ext::null(ty)
}

/// A constant array of `elem` from constants of that type.
pub fn const_array<'ctx>(
    elem: BasicTypeEnum<'ctx>,
    values: &[BasicValueEnum<'ctx>],
) -> BasicValueEnum<'ctx> {
    let mut refs: Vec<_> = values.iter().map(|v| v.as_value_ref()).collect();
    // SAFETY: every value is a constant of type `elem` (the callers build them so).
    unsafe {
        BasicValueEnum::new(llc::LLVMConstArray2(
            elem.as_type_ref(),
            refs.as_mut_ptr(),
            refs.len() as u64,
        ))
    }
}

/// A constant vector from scalar constants.
pub fn const_vector<'ctx>(values: &[BasicValueEnum<'ctx>]) -> BasicValueEnum<'ctx> {
    let mut refs: Vec<_> = values.iter().map(|v| v.as_value_ref()).collect();
    // SAFETY: the values are scalar constants of one type.
    unsafe { BasicValueEnum::new(llc::LLVMConstVector(refs.as_mut_ptr(), refs.len() as u32)) }
}

/// Whether a value is a constant.
pub fn is_constant(v: BasicValueEnum<'_>) -> bool {
    // SAFETY: a valid value reference.
    unsafe { llc::LLVMIsConstant(v.as_value_ref()) != 0 }
}

/// An integer comparison of two scalars or vectors.
pub fn icmp<'ctx>(
    b: &Builder<'ctx>,
    p: IntPredicate,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let s = scalar_of(l.get_type());
    if l.get_type() != r.get_type() || !(s.is_int_type() || s.is_pointer_type()) {
        return Err(LowerError::malformed(
            "an integer comparison of other operands",
        ));
    }
    Ok(match (l, r) {
        (BasicValueEnum::IntValue(l), BasicValueEnum::IntValue(r)) => {
            b.build_int_compare(p, l, r, "")?.into()
        }
        (BasicValueEnum::VectorValue(l), BasicValueEnum::VectorValue(r)) => {
            b.build_int_compare(p, l, r, "")?.into()
        }
        (BasicValueEnum::PointerValue(l), BasicValueEnum::PointerValue(r)) => {
            b.build_int_compare(p, l, r, "")?.into()
        }
        _ => return Err(LowerError::malformed("integer comparison of non-integers")),
    })
}

/// A floating-point comparison of two scalars or vectors.
pub fn fcmp<'ctx>(
    b: &Builder<'ctx>,
    p: FloatPredicate,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    if l.get_type() != r.get_type() || !scalar_of(l.get_type()).is_float_type() {
        return Err(LowerError::malformed(
            "a float comparison of other operands",
        ));
    }
    Ok(match (l, r) {
        (BasicValueEnum::FloatValue(l), BasicValueEnum::FloatValue(r)) => {
            b.build_float_compare(p, l, r, "")?.into()
        }
        (BasicValueEnum::VectorValue(l), BasicValueEnum::VectorValue(r)) => {
            b.build_float_compare(p, l, r, "")?.into()
        }
        _ => return Err(LowerError::malformed("float comparison of non-floats")),
    })
}

/// The scalar type of a scalar or vector type.
pub fn scalar_of(ty: BasicTypeEnum<'_>) -> BasicTypeEnum<'_> {
    match ty {
        BasicTypeEnum::VectorType(v) => v.get_element_type(),
        t => t,
    }
}

/// The number of components of a vector type (1 for scalars).
pub fn lanes(ty: BasicTypeEnum<'_>) -> u32 {
    match ty {
        BasicTypeEnum::VectorType(v) => v.get_size(),
        _ => 1,
    }
}

/// An integer constant of `ty`'s scalar type, splat across `ty`'s lanes.
pub fn splat_int<'ctx>(ty: BasicTypeEnum<'ctx>, v: u64) -> Result<BasicValueEnum<'ctx>> {
    let s = scalar_of(ty);
    if !s.is_int_type() {
        return Err(LowerError::malformed("an integer type was expected"));
    }
    let c = s.into_int_type().const_int(v, false).as_basic_value_enum();
    Ok(match ty {
        BasicTypeEnum::VectorType(vt) => const_vector(&vec![c; vt.get_size() as usize]),
        _ => c,
    })
}

/// A float constant of `ty`'s scalar type, splat across `ty`'s lanes.
pub fn splat_float<'ctx>(ty: BasicTypeEnum<'ctx>, v: f64) -> Result<BasicValueEnum<'ctx>> {
    let s = scalar_of(ty);
    if !s.is_float_type() {
        return Err(LowerError::malformed("a float type was expected"));
    }
    let c = s.into_float_type().const_float(v).as_basic_value_enum();
    Ok(match ty {
        BasicTypeEnum::VectorType(vt) => const_vector(&vec![c; vt.get_size() as usize]),
        _ => c,
    })
}

/// A value splat to `lanes` lanes (unchanged when `lanes` is 1 or it is a vector already).
pub fn splat<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    lanes: u32,
) -> Result<BasicValueEnum<'ctx>> {
    if lanes <= 1 || v.is_vector_value() {
        return Ok(v);
    }
    let vt = match v.get_type() {
        BasicTypeEnum::IntType(t) => t.vec_type(lanes),
        BasicTypeEnum::FloatType(t) => t.vec_type(lanes),
        BasicTypeEnum::PointerType(t) => t.vec_type(lanes),
        _ => return Err(LowerError::malformed("splat of a non-scalar")),
    };
    let mut out = undef(vt.as_basic_type_enum());
    let i32t = vt.get_context().i32_type();
    for i in 0..lanes {
        out = b
            .build_insert_element(
                out.into_vector_value(),
                v,
                i32t.const_int(i.into(), false),
                "",
            )?
            .into();
    }
    Ok(out)
}

/// A lane index constant.
pub fn lane<'ctx>(cx: &'ctx inkwell::context::Context, i: u32) -> IntValue<'ctx> {
    cx.i32_type().const_int(i.into(), false)
}

/// Applies `f` to each lane of a vector (or to the scalar), building the result of `result`.
pub fn per_lane<'ctx>(
    b: &Builder<'ctx>,
    cx: &'ctx inkwell::context::Context,
    args: &[BasicValueEnum<'ctx>],
    result: BasicTypeEnum<'ctx>,
    mut f: impl FnMut(&[BasicValueEnum<'ctx>]) -> Result<BasicValueEnum<'ctx>>,
) -> Result<BasicValueEnum<'ctx>> {
    let BasicTypeEnum::VectorType(vt) = result else {
        return f(args);
    };
    let mut out = undef(result);
    for i in 0..vt.get_size() {
        let mut lane_args = Vec::with_capacity(args.len());
        for a in args {
            lane_args.push(match a {
                BasicValueEnum::VectorValue(v) => b.build_extract_element(*v, lane(cx, i), "")?,
                s => *s,
            });
        }
        let r = f(&lane_args)?;
        out = b
            .build_insert_element(out.into_vector_value(), r, lane(cx, i), "")?
            .into();
    }
    Ok(out)
}

/// Converts an integer (scalar or vector) to `ty`'s width: zero- or sign-extends, or
/// truncates; unchanged when the widths agree.
pub fn int_resize<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    ty: BasicTypeEnum<'ctx>,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    use inkwell::values::InstructionOpcode as O;
    let from = scalar_of(v.get_type());
    let to = scalar_of(ty);
    if !from.is_int_type() || !to.is_int_type() {
        return Err(LowerError::malformed("integer resize of a non-integer"));
    }
    let (fw, tw) = (
        from.into_int_type().get_bit_width(),
        to.into_int_type().get_bit_width(),
    );
    let op = if fw == tw {
        return Ok(v);
    } else if fw > tw {
        O::Trunc
    } else if signed {
        O::SExt
    } else {
        O::ZExt
    };
    Ok(b.build_cast(op, v, ty, "")?)
}

/// A float constant of `ty` with the given bits (exact, NaN payloads included).
pub fn float_from_bits<'ctx>(
    cx: &'ctx inkwell::context::Context,
    ty: inkwell::types::FloatType<'ctx>,
    width: u32,
    bits: u64,
) -> BasicValueEnum<'ctx> {
    let Ok(it) = int_ty(cx, width) else {
        return cx.f32_type().const_zero().into();
    };
    let i = it.const_int(bits, false);
    // SAFETY: a bitcast between an integer constant and a float type of the same width.
    unsafe { BasicValueEnum::new(llc::LLVMConstBitCast(i.as_value_ref(), ty.as_type_ref())) }
}

/// The basic value a call returns, if it returns one (target extension types included).
pub fn call_result<'ctx>(c: inkwell::values::CallSiteValue<'ctx>) -> Option<BasicValueEnum<'ctx>> {
    super::llvm_ext::call_result(c)
}

/// `llvm.frexp` of `x` with exponents of type `et`: the mantissa and the exponent.
pub fn frexp<'ctx>(
    b: &Builder<'ctx>,
    m: &inkwell::module::Module<'ctx>,
    x: BasicValueEnum<'ctx>,
    et: BasicTypeEnum<'ctx>,
) -> Result<(BasicValueEnum<'ctx>, BasicValueEnum<'ctx>)> {
    let i = inkwell::intrinsics::Intrinsic::find("llvm.frexp")
        .ok_or_else(|| LowerError::unsupported("llvm.frexp"))?;
    let f = i
        .get_declaration(m, &[x.get_type(), et])
        .ok_or_else(|| LowerError::malformed("llvm.frexp types"))?;
    let s = call_result(b.build_call(f, &[x.into()], "")?)
        .ok_or_else(|| LowerError::malformed("llvm.frexp"))?
        .into_struct_value();
    Ok((
        b.build_extract_value(s, 0, "")?,
        b.build_extract_value(s, 1, "")?,
    ))
}

/// The width of a float type or of a vector's floats (32 for anything else).
pub fn float_width(t: BasicTypeEnum<'_>) -> u32 {
    match scalar_of(t) {
        BasicTypeEnum::FloatType(f) if f == f.get_context().f16_type() => 16,
        BasicTypeEnum::FloatType(f) if f == f.get_context().f64_type() => 64,
        _ => 32,
    }
}

/// The integer type of `width` bits.
pub fn int_ty(cx: &inkwell::context::Context, width: u32) -> Result<inkwell::types::IntType<'_>> {
    let w = core::num::NonZeroU32::new(width)
        .ok_or_else(|| LowerError::malformed("a 0-bit integer"))?;
    cx.custom_width_int_type(w)
        .map_err(|e| LowerError::unsupported(format!("{width}-bit integers: {e}")))
}

/// Converts between a vector and an array of the same elements (the memory form of a
/// 3-component vector in an explicitly laid out struct) when `v` has the other form of `to`;
/// any other value is returned unchanged.
pub fn fit<'ctx>(
    cx: &'ctx inkwell::context::Context,
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    to: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    if v.get_type() == to {
        return Ok(v);
    }
    match (v, to) {
        (BasicValueEnum::VectorValue(vv), BasicTypeEnum::ArrayType(at))
            if at.len() == vv.get_type().get_size() =>
        {
            if is_constant(v) {
                let elems: Vec<_> = (0..at.len())
                    .map(|i| vv.get_element_as_constant(i))
                    .collect();
                return Ok(const_array(at.get_element_type(), &elems));
            }
            let mut out = crate::lower::llvm::undef_array(to)?;
            for i in 0..at.len() {
                let e = b.build_extract_element(vv, lane(cx, i), "")?;
                out = b.build_insert_value(out, e, i, "")?.into_array_value();
            }
            Ok(out.into())
        }
        (BasicValueEnum::ArrayValue(av), BasicTypeEnum::VectorType(vt))
            if av.get_type().len() == vt.get_size() =>
        {
            let mut out = crate::lower::llvm::undef_vector(to)?;
            for i in 0..vt.get_size() {
                let e = b.build_extract_value(av, i, "")?;
                out = b.build_insert_element(out, e, lane(cx, i), "")?;
            }
            Ok(out.into())
        }
        // Pointers of another address space (the spv-ir style's Generic from a Function null).
        (BasicValueEnum::PointerValue(pv), BasicTypeEnum::PointerType(pt)) => {
            if is_constant(v) {
                Ok(pv.const_address_space_cast(pt).into())
            } else {
                Ok(b.build_address_space_cast(pv, pt, "")?.into())
            }
        }
        _ => Ok(v),
    }
}

/// The external function `name` of type `ty`, declared if needed. A function of the module
/// already using the name with another type or a body (a SPIR-V function whose `OpName` is
/// `sinf`, say) is renamed out of the way: it is internal, and references to it are by pointer.
pub fn external<'ctx>(
    m: &inkwell::module::Module<'ctx>,
    name: &str,
    ty: inkwell::types::FunctionType<'ctx>,
) -> Result<inkwell::values::FunctionValue<'ctx>> {
    if let Some(f) = m.get_function(name) {
        if f.get_type() == ty && f.count_basic_blocks() == 0 {
            return Ok(f);
        }
        if f.get_linkage() != inkwell::module::Linkage::Internal {
            return Err(LowerError::unsupported(format!(
                "the external function {name} is also defined by the module"
            )));
        }
        let mut k = 1;
        while m.get_function(&format!("{name}.spv{k}")).is_some() {
            k += 1;
        }
        f.as_global_value().set_name(&format!("{name}.spv{k}"));
    }
    Ok(m.add_function(name, ty, None))
}

/// The bit width of an integer scalar or vector type.
pub fn int_width(t: BasicTypeEnum<'_>) -> Result<u32> {
    match scalar_of(t) {
        BasicTypeEnum::IntType(i) => Ok(i.get_bit_width()),
        _ => Err(LowerError::malformed("an integer operand was expected")),
    }
}

/// Whether a type is a float scalar or vector.
fn is_float_like(t: BasicTypeEnum<'_>) -> bool {
    scalar_of(t).is_float_type()
}

/// Whether a type is an integer scalar or vector.
fn is_int_like(t: BasicTypeEnum<'_>) -> bool {
    scalar_of(t).is_int_type()
}

/// A two-operand instruction, after checking that the operands have one type of the kind the
/// instruction takes: LLVM (without assertions) crashes folding, say, `fadd` of integer
/// constants, and a malformed module must give an error instead.
pub fn binop<'ctx>(
    b: &Builder<'ctx>,
    op: inkwell::values::InstructionOpcode,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use inkwell::values::InstructionOpcode as O;
    let t = x.get_type();
    if y.get_type() != t {
        return Err(LowerError::malformed("operands of different types"));
    }
    let ok = match op {
        O::FAdd | O::FSub | O::FMul | O::FDiv | O::FRem => is_float_like(t),
        _ => is_int_like(t),
    };
    if !ok {
        return Err(LowerError::malformed(format!(
            "{op:?} of operands of the wrong kind"
        )));
    }
    Ok(b.build_binop(op, x, y, "")?)
}

/// A conversion, after checking the operand and result kinds (see [`binop`]).
pub fn cast<'ctx>(
    b: &Builder<'ctx>,
    op: inkwell::values::InstructionOpcode,
    x: BasicValueEnum<'ctx>,
    to: impl BasicType<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    use inkwell::values::InstructionOpcode as O;
    let to = to.as_basic_type_enum();
    let from = x.get_type();
    if lanes(from) != lanes(to) && op != O::BitCast {
        return Err(LowerError::malformed(
            "a conversion between different lane counts",
        ));
    }
    let (fs, ts) = (scalar_of(from), scalar_of(to));
    let ok = match op {
        O::FPToUI | O::FPToSI => fs.is_float_type() && ts.is_int_type(),
        O::UIToFP | O::SIToFP => fs.is_int_type() && ts.is_float_type(),
        O::FPTrunc | O::FPExt => fs.is_float_type() && ts.is_float_type(),
        O::Trunc | O::ZExt | O::SExt => fs.is_int_type() && ts.is_int_type(),
        O::PtrToInt => fs.is_pointer_type() && ts.is_int_type(),
        O::IntToPtr => fs.is_int_type() && ts.is_pointer_type(),
        O::BitCast => {
            let bits = |t: BasicTypeEnum<'_>| -> Option<u64> {
                let w = match scalar_of(t) {
                    BasicTypeEnum::IntType(i) => i.get_bit_width(),
                    BasicTypeEnum::FloatType(f) => {
                        let cx = f.get_context();
                        if f == cx.f16_type() {
                            16
                        } else if f == cx.f64_type() {
                            64
                        } else {
                            32
                        }
                    }
                    _ => return None,
                };
                Some(u64::from(w) * u64::from(lanes(t)))
            };
            matches!((bits(from), bits(to)), (Some(a), Some(b)) if a == b)
        }
        _ => true,
    };
    if !ok {
        return Err(LowerError::malformed(format!(
            "{op:?} between types of the wrong kinds or sizes"
        )));
    }
    Ok(b.build_cast(op, x, to, "")?)
}

/// `select`, after checking the condition (`i1` or a vector of `i1` as wide as the values)
/// and that both values have one type (see [`binop`]).
pub fn select<'ctx>(
    b: &Builder<'ctx>,
    c: BasicValueEnum<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let ct = c.get_type();
    let (xt, yt) = (super::llvm_ext::type_of(x), super::llvm_ext::type_of(y));
    let bool_like = matches!(scalar_of(ct), BasicTypeEnum::IntType(i) if i.get_bit_width() == 1);
    if !bool_like
        || xt != yt
        || (ct.is_vector_type() && lanes(ct) != lanes(xt))
        || (ct.is_vector_type() && !xt.is_vector_type())
    {
        return Err(LowerError::malformed("a select of mismatched operands"));
    }
    Ok(match c {
        _ if super::llvm_ext::is_target_type(xt) => super::llvm_ext::select(b, c, x, y)?,
        BasicValueEnum::IntValue(k) => b.build_select(k, x, y, "")?,
        BasicValueEnum::VectorValue(k) => b.build_select(k, x, y, "")?,
        _ => {
            return Err(LowerError::malformed(
                "a select condition that is not boolean",
            ))
        }
    })
}

/// `insertelement`, after checking the element's type (see [`binop`]).
pub fn insert_element<'ctx>(
    b: &Builder<'ctx>,
    v: inkwell::values::VectorValue<'ctx>,
    x: impl BasicValue<'ctx>,
    idx: IntValue<'ctx>,
    _name: &str,
) -> Result<inkwell::values::VectorValue<'ctx>> {
    let x = x.as_basic_value_enum();
    if v.get_type().get_element_type() != x.get_type() {
        return Err(LowerError::malformed("a vector component of another type"));
    }
    Ok(b.build_insert_element(v, x, idx, "")?)
}

/// `insertvalue`, after checking the member's index and type (see [`binop`]).
pub fn insert_value<'ctx>(
    b: &Builder<'ctx>,
    agg: impl Into<inkwell::values::AggregateValueEnum<'ctx>>,
    x: impl BasicValue<'ctx>,
    idx: u32,
    _name: &str,
) -> Result<inkwell::values::AggregateValueEnum<'ctx>> {
    use inkwell::values::AggregateValueEnum as A;
    let agg = agg.into();
    let x = x.as_basic_value_enum();
    let field = match agg {
        A::StructValue(s) => s.get_type().get_field_type_at_index(idx),
        A::ArrayValue(a) => (idx < a.get_type().len()).then(|| a.get_type().get_element_type()),
    };
    if field != Some(x.get_type()) {
        return Err(LowerError::malformed(
            "a member of another type or out of range",
        ));
    }
    Ok(b.build_insert_value(agg, x, idx, "")?)
}

/// `undef` of a vector type, or an error when `t` is not one.
pub fn undef_vector(t: BasicTypeEnum<'_>) -> Result<inkwell::values::VectorValue<'_>> {
    match t {
        BasicTypeEnum::VectorType(v) => Ok(v.get_undef()),
        _ => Err(LowerError::malformed("a vector result type was expected")),
    }
}

/// `undef` of an array type, or an error when `t` is not one.
pub fn undef_array(t: BasicTypeEnum<'_>) -> Result<inkwell::values::ArrayValue<'_>> {
    match t {
        BasicTypeEnum::ArrayType(a) => Ok(a.get_undef()),
        _ => Err(LowerError::malformed("an array result type was expected")),
    }
}

/// `undef` of a struct type, or an error when `t` is not one.
pub fn undef_struct(t: BasicTypeEnum<'_>) -> Result<inkwell::values::StructValue<'_>> {
    match t {
        BasicTypeEnum::StructType(s) => Ok(s.get_undef()),
        _ => Err(LowerError::malformed("a struct result type was expected")),
    }
}

/// The alignment a load or store of `t` may assume without an `Aligned` memory operand: the
/// alignment of its scalars, not LLVM's ABI alignment of the whole type (a `vec3` in a
/// std430 or scalar-layout block, or a matrix in a packed struct, is only as aligned as its
/// components).
pub fn safe_align(td: &inkwell::targets::TargetData, t: BasicTypeEnum<'_>) -> u32 {
    match t {
        BasicTypeEnum::VectorType(v) => td.get_abi_alignment(&v.get_element_type()),
        BasicTypeEnum::ArrayType(a) => safe_align(td, a.get_element_type()),
        BasicTypeEnum::StructType(s) => s
            .get_field_types()
            .into_iter()
            .map(|f| safe_align(td, f))
            .min()
            .unwrap_or(1),
        t => td.get_abi_alignment(&t),
    }
}

/// A load with [`safe_align`]'s alignment.
pub fn load<'ctx>(
    b: &Builder<'ctx>,
    td: &inkwell::targets::TargetData,
    t: BasicTypeEnum<'ctx>,
    p: inkwell::values::PointerValue<'ctx>,
    name: &str,
) -> Result<BasicValueEnum<'ctx>> {
    let v = if super::llvm_ext::is_target_type(t) {
        super::llvm_ext::load(b, t, p, name)?
    } else {
        b.build_load(t, p, name)?
    };
    if let Some(i) = v.as_instruction_value() {
        i.set_alignment(safe_align(td, t))
            .map_err(|e| LowerError::malformed(format!("alignment: {e}")))?;
    }
    Ok(v)
}

/// A store with [`safe_align`]'s alignment.
pub fn store<'ctx>(
    b: &Builder<'ctx>,
    td: &inkwell::targets::TargetData,
    p: inkwell::values::PointerValue<'ctx>,
    v: BasicValueEnum<'ctx>,
) -> Result<inkwell::values::InstructionValue<'ctx>> {
    let i = b.build_store(p, v)?;
    i.set_alignment(safe_align(td, super::llvm_ext::type_of(v)))
        .map_err(|e| LowerError::malformed(format!("alignment: {e}")))?;
    Ok(i)
}
