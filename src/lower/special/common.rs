//! Plumbing shared by the special cases: operand shapes, broadcasting, width fitting, splatted
//! constants and lane-wise arithmetic on values that may be scalars or vectors.
//!
//! Inkwell's `build_*` methods do not check that their operands agree, and an LLVM built without
//! assertions then makes malformed IR instead of failing. So every special case classifies its
//! operands here first, and a shape that does not fit the op is an error value, never a crash.

use inkwell::builder::{Builder, BuilderError};
use inkwell::types::{BasicTypeEnum, FloatType, IntType, VectorType};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, ValueKind,
};
use inkwell::{FloatPredicate, IntPredicate};

/// The error for operands whose types do not fit the op (wrong count, kind, width or lanes).
pub(crate) const MISFIT: BuilderError = BuilderError::NotSameType;

/// The operand at `i`, or [`MISFIT`] when the op was given too few.
pub(crate) fn arg<'ctx>(
    args: &[BasicValueEnum<'ctx>],
    i: usize,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    args.get(i).copied().ok_or(MISFIT)
}

/// A scalar integer or a fixed vector of integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IntShape<'ctx> {
    pub elem: IntType<'ctx>,
    pub lanes: Option<u32>,
}

impl<'ctx> IntShape<'ctx> {
    /// The shape of an integer (vector) type; `None` for anything else.
    pub fn of_type(t: BasicTypeEnum<'ctx>) -> Option<Self> {
        match t {
            BasicTypeEnum::IntType(elem) => Some(Self { elem, lanes: None }),
            BasicTypeEnum::VectorType(v) => match v.get_element_type() {
                BasicTypeEnum::IntType(elem) => Some(Self {
                    elem,
                    lanes: Some(v.get_size()),
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The shape of an integer (vector) value, or [`MISFIT`].
    pub fn of(v: BasicValueEnum<'ctx>) -> Result<Self, BuilderError> {
        Self::of_type(v.get_type()).ok_or(MISFIT)
    }

    /// Bits per lane.
    pub fn width(self) -> u32 {
        self.elem.get_bit_width()
    }

    /// The LLVM type.
    pub fn ty(self) -> BasicTypeEnum<'ctx> {
        match self.lanes {
            Some(n) => self.elem.vec_type(n).into(),
            None => self.elem.into(),
        }
    }

    /// The same lane count with another element type.
    pub fn with_elem(self, elem: IntType<'ctx>) -> Self {
        Self {
            elem,
            lanes: self.lanes,
        }
    }

    /// `value` (truncated to the lane width) in every lane.
    pub fn splat(self, value: u64) -> BasicValueEnum<'ctx> {
        splat_const(self.elem.const_int(value, false).into(), self.lanes)
    }

    /// All ones in every lane.
    pub fn ones(self) -> BasicValueEnum<'ctx> {
        splat_const(self.elem.const_all_ones().into(), self.lanes)
    }
}

/// A scalar float or a fixed vector of floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FloatShape<'ctx> {
    pub elem: FloatType<'ctx>,
    pub lanes: Option<u32>,
}

impl<'ctx> FloatShape<'ctx> {
    /// The shape of a float (vector) type; `None` for anything else.
    pub fn of_type(t: BasicTypeEnum<'ctx>) -> Option<Self> {
        match t {
            BasicTypeEnum::FloatType(elem) => Some(Self { elem, lanes: None }),
            BasicTypeEnum::VectorType(v) => match v.get_element_type() {
                BasicTypeEnum::FloatType(elem) => Some(Self {
                    elem,
                    lanes: Some(v.get_size()),
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The shape of a float (vector) value, or [`MISFIT`].
    pub fn of(v: BasicValueEnum<'ctx>) -> Result<Self, BuilderError> {
        Self::of_type(v.get_type()).ok_or(MISFIT)
    }

    /// The LLVM type.
    pub fn ty(self) -> BasicTypeEnum<'ctx> {
        match self.lanes {
            Some(n) => self.elem.vec_type(n).into(),
            None => self.elem.into(),
        }
    }

    /// `value` (rounded to the element type) in every lane.
    pub fn splat(self, value: f64) -> BasicValueEnum<'ctx> {
        splat_const(self.elem.const_float(value).into(), self.lanes)
    }
}

/// A constant scalar, or that constant in each of `lanes` lanes.
fn splat_const<'ctx>(c: BasicValueEnum<'ctx>, lanes: Option<u32>) -> BasicValueEnum<'ctx> {
    match lanes {
        Some(n) => VectorType::const_vector(&vec![c; n as usize]).into(),
        None => c,
    }
}

/// `scalar` copied into each of `lanes` lanes (insertelement + zero-mask shufflevector, the
/// splat idiom LLVM's backends recognise; constants fold).
pub(crate) fn splat<'ctx>(
    b: &Builder<'ctx>,
    scalar: BasicValueEnum<'ctx>,
    lanes: u32,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let vt = match scalar.get_type() {
        BasicTypeEnum::IntType(t) => t.vec_type(lanes),
        BasicTypeEnum::FloatType(t) => t.vec_type(lanes),
        _ => return Err(MISFIT),
    };
    let i32t = vt.get_context().i32_type();
    let one = b.build_insert_element(vt.get_poison(), scalar, i32t.const_zero(), "")?;
    let mask = i32t.vec_type(lanes).const_zero();
    Ok(b.build_shuffle_vector(one, vt.get_poison(), mask, "")?
        .into())
}

/// An amount operand (offset, count, shift) brought to the shape of `target`: a scalar is
/// broadcast to a vector target; a narrower lane is zero-extended (amounts are unsigned); a
/// wider lane is first saturated to the target width and then truncated. Saturating keeps every
/// in-range value and maps every out-of-range one (≥ width) to the width itself, which the
/// special cases treat like any other out-of-range amount, so a huge amount never wraps into a
/// small one.
pub(crate) fn fit_amount<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    target: IntShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let shape = IntShape::of(v)?;
    match (shape.lanes, target.lanes) {
        (None, _) => {}
        (Some(a), Some(t)) if a == t => {}
        _ => return Err(MISFIT),
    }
    let (wv, wt) = (shape.width(), target.width());
    let fitted = if wv == wt {
        v
    } else if wv < wt {
        zext(b, v, shape.with_elem(target.elem))?
    } else {
        let limit = shape.splat(u64::from(wt));
        let over = icmp(b, IntPredicate::UGT, v, limit)?;
        let sat = select(b, over, limit, v)?;
        trunc(b, sat, shape.with_elem(target.elem))?
    };
    match (shape.lanes, target.lanes) {
        (None, Some(n)) => splat(b, fitted, n),
        _ => Ok(fitted),
    }
}

/// Integer binary operations, lane-wise.
#[derive(Clone, Copy, Debug)]
pub(crate) enum IBin {
    And,
    Or,
    Xor,
    Add,
    Sub,
    Shl,
    LShr,
    AShr,
    SRem,
    URem,
    SDiv,
    UDiv,
}

/// `l op r` for two integer values of one type.
pub(crate) fn ibin<'ctx>(
    b: &Builder<'ctx>,
    op: IBin,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    IntShape::of(l)?;
    if l.get_type() != r.get_type() {
        return Err(MISFIT);
    }
    macro_rules! apply {
        ($x:expr, $y:expr) => {{
            let (x, y) = ($x, $y);
            match op {
                IBin::And => b.build_and(x, y, ""),
                IBin::Or => b.build_or(x, y, ""),
                IBin::Xor => b.build_xor(x, y, ""),
                IBin::Add => b.build_int_add(x, y, ""),
                IBin::Sub => b.build_int_sub(x, y, ""),
                IBin::Shl => b.build_left_shift(x, y, ""),
                IBin::LShr => b.build_right_shift(x, y, false, ""),
                IBin::AShr => b.build_right_shift(x, y, true, ""),
                IBin::SRem => b.build_int_signed_rem(x, y, ""),
                IBin::URem => b.build_int_unsigned_rem(x, y, ""),
                IBin::SDiv => b.build_int_signed_div(x, y, ""),
                IBin::UDiv => b.build_int_unsigned_div(x, y, ""),
            }
            .map(|v| v.as_basic_value_enum())
        }};
    }
    match (l, r) {
        (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => apply!(x, y),
        (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => apply!(x, y),
        _ => Err(MISFIT),
    }
}

/// `icmp pred l, r`: an `i1` or a vector of `i1`.
pub(crate) fn icmp<'ctx>(
    b: &Builder<'ctx>,
    pred: IntPredicate,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    IntShape::of(l)?;
    if l.get_type() != r.get_type() {
        return Err(MISFIT);
    }
    match (l, r) {
        (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => {
            Ok(b.build_int_compare(pred, x, y, "")?.into())
        }
        (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => {
            Ok(b.build_int_compare(pred, x, y, "")?.into())
        }
        _ => Err(MISFIT),
    }
}

/// `fcmp pred l, r`: an `i1` or a vector of `i1`.
pub(crate) fn fcmp<'ctx>(
    b: &Builder<'ctx>,
    pred: FloatPredicate,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    FloatShape::of(l)?;
    if l.get_type() != r.get_type() {
        return Err(MISFIT);
    }
    match (l, r) {
        (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => {
            Ok(b.build_float_compare(pred, x, y, "")?.into())
        }
        (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => {
            Ok(b.build_float_compare(pred, x, y, "")?.into())
        }
        _ => Err(MISFIT),
    }
}

/// Float binary operations, lane-wise.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FBin {
    Add,
    Rem,
}

/// `l op r` for two float values of one type.
pub(crate) fn fbin<'ctx>(
    b: &Builder<'ctx>,
    op: FBin,
    l: BasicValueEnum<'ctx>,
    r: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    FloatShape::of(l)?;
    if l.get_type() != r.get_type() {
        return Err(MISFIT);
    }
    macro_rules! apply {
        ($x:expr, $y:expr) => {{
            let (x, y) = ($x, $y);
            match op {
                FBin::Add => b.build_float_add(x, y, ""),
                FBin::Rem => b.build_float_rem(x, y, ""),
            }
            .map(|v| v.as_basic_value_enum())
        }};
    }
    match (l, r) {
        (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => apply!(x, y),
        (BasicValueEnum::VectorValue(x), BasicValueEnum::VectorValue(y)) => apply!(x, y),
        _ => Err(MISFIT),
    }
}

/// `select cond, t, e`, lane-wise when `cond` is a vector of `i1`.
pub(crate) fn select<'ctx>(
    b: &Builder<'ctx>,
    cond: BasicValueEnum<'ctx>,
    t: BasicValueEnum<'ctx>,
    e: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let tt = crate::lower::llvm_ext::type_of(t);
    if tt != crate::lower::llvm_ext::type_of(e) {
        return Err(MISFIT);
    }
    if crate::lower::llvm_ext::is_target_type(tt) {
        return match cond {
            BasicValueEnum::IntValue(_) => crate::lower::llvm_ext::select(b, cond, t, e),
            _ => Err(MISFIT),
        };
    }
    let lanes_of = |v: BasicValueEnum<'ctx>| match v {
        BasicValueEnum::VectorValue(x) => Some(x.get_type().get_size()),
        _ => None,
    };
    let c = IntShape::of(cond)?;
    if c.width() != 1 || (c.lanes.is_some() && c.lanes != lanes_of(t)) {
        return Err(MISFIT);
    }
    match cond {
        BasicValueEnum::IntValue(c) => b.build_select(c, t, e, ""),
        BasicValueEnum::VectorValue(c) => b.build_select(c, t, e, ""),
        _ => Err(MISFIT),
    }
}

/// Integer casts to the lane type of `to`, lane-wise.
#[derive(Clone, Copy, Debug)]
enum ICast {
    ZExt,
    SExt,
    Trunc,
}

fn icast<'ctx>(
    b: &Builder<'ctx>,
    op: ICast,
    v: BasicValueEnum<'ctx>,
    to: IntShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let from = IntShape::of(v)?;
    if from.lanes != to.lanes {
        return Err(MISFIT);
    }
    match (v, to.ty()) {
        (BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(t)) => match op {
            ICast::ZExt => b.build_int_z_extend(x, t, ""),
            ICast::SExt => b.build_int_s_extend(x, t, ""),
            ICast::Trunc => b.build_int_truncate(x, t, ""),
        }
        .map(Into::into),
        (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(t)) => match op {
            ICast::ZExt => b.build_int_z_extend(x, t, ""),
            ICast::SExt => b.build_int_s_extend(x, t, ""),
            ICast::Trunc => b.build_int_truncate(x, t, ""),
        }
        .map(Into::into),
        _ => Err(MISFIT),
    }
}

/// `zext` to a wider lane type.
pub(crate) fn zext<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    to: IntShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    icast(b, ICast::ZExt, v, to)
}

/// `sext` to a wider lane type.
pub(crate) fn sext<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    to: IntShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    icast(b, ICast::SExt, v, to)
}

/// `trunc` to a narrower lane type.
pub(crate) fn trunc<'ctx>(
    b: &Builder<'ctx>,
    v: BasicValueEnum<'ctx>,
    to: IntShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    icast(b, ICast::Trunc, v, to)
}

/// Float casts to the lane type of `to`, lane-wise.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FCast {
    Ext,
    Trunc,
}

/// `fpext` or `fptrunc` to the lane type of `to`.
pub(crate) fn fcast<'ctx>(
    b: &Builder<'ctx>,
    op: FCast,
    v: BasicValueEnum<'ctx>,
    to: FloatShape<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let from = FloatShape::of(v)?;
    if from.lanes != to.lanes {
        return Err(MISFIT);
    }
    match (v, to.ty()) {
        (BasicValueEnum::FloatValue(x), BasicTypeEnum::FloatType(t)) => match op {
            FCast::Ext => b.build_float_ext(x, t, ""),
            FCast::Trunc => b.build_float_trunc(x, t, ""),
        }
        .map(Into::into),
        (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(t)) => match op {
            FCast::Ext => b.build_float_ext(x, t, ""),
            FCast::Trunc => b.build_float_trunc(x, t, ""),
        }
        .map(Into::into),
        _ => Err(MISFIT),
    }
}

/// A call of the overloaded LLVM intrinsic `name` (for example `llvm.tan`) on `args`, the
/// overload chosen by the type of the first argument, declared in the module the builder is
/// positioned in.
///
/// The special cases get a builder but no module, and inkwell has no safe way from a function
/// back to its module, so the declaration goes through the C API here, in one place.
pub(crate) fn call_unary_intrinsic<'ctx>(
    b: &Builder<'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    let first = arg(args, 0)?;
    let decl = intrinsic_declaration(b, name, first.get_type())?;
    let margs: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
    match b.build_call(decl, &margs, "")?.try_as_basic_value() {
        ValueKind::Basic(v) => Ok(v),
        ValueKind::Instruction(_) => Err(MISFIT),
    }
}

fn intrinsic_declaration<'ctx>(
    b: &Builder<'ctx>,
    name: &str,
    overload: BasicTypeEnum<'ctx>,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    use inkwell::llvm_sys::core::{
        LLVMGetGlobalParent, LLVMGetIntrinsicDeclaration, LLVMLookupIntrinsicID,
    };
    use inkwell::types::AsTypeRef;
    let function = b
        .get_insert_block()
        .and_then(|bb| bb.get_parent())
        .ok_or(BuilderError::UnsetPosition)?;
    // SAFETY: `function` is a live function of a module owned by the caller for 'ctx; the name
    // is passed with its length (no terminator needed); the overload type belongs to the same
    // context; LLVM returns either a function declared in that module or null for an unknown
    // intrinsic id, which `FunctionValue::new` maps to `None`.
    unsafe {
        let id = LLVMLookupIntrinsicID(name.as_ptr().cast(), name.len());
        if id == 0 {
            return Err(MISFIT);
        }
        let module = LLVMGetGlobalParent(function.as_value_ref());
        if module.is_null() {
            return Err(BuilderError::UnsetPosition);
        }
        let mut tys = [overload.as_type_ref()];
        FunctionValue::new(LLVMGetIntrinsicDeclaration(
            module,
            id,
            tys.as_mut_ptr(),
            tys.len(),
        ))
        .ok_or(MISFIT)
    }
}
