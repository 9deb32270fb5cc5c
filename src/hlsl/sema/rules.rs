//! The typing rules of HLSL expressions that semantic analysis and code generation share:
//! untyped literals, swizzles, the usual arithmetic conversions and the result types of
//! operators. Pure functions of types, so that the checker (`sema::body`'s expression types)
//! and the emitter cannot disagree.

use super::types::{ResourceKind, SbFlavor, Scalar, StructDef, TexDim, Ty};
use crate::hlsl::ast::{BinaryOp, Expr, ExprKind, Literal, UnaryOp};
use crate::hlsl::LanguageVersion;

/// Whether `e` is an untyped literal: `Some(true)` for a float literal, `Some(false)` for an
/// integer one (also negated).
pub fn literal_kind(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Literal(Literal::Int { suffix, .. }) if suffix.is_empty() => Some(false),
        ExprKind::Literal(Literal::Float { suffix, .. }) if suffix.is_empty() => Some(true),
        ExprKind::Unary {
            op: UnaryOp::Neg | UnaryOp::Plus,
            operand,
        } => literal_kind(operand),
        _ => None,
    }
}

/// [`literal_kind`] as language `version` sees it: HLSL 202x types literals as C does, so none
/// is untyped there.
pub fn literal_kind_in(version: LanguageVersion, e: &Expr) -> Option<bool> {
    if version >= LanguageVersion::V202x {
        return None;
    }
    literal_kind(e)
}

/// The type of a literal; `None` for a string (not a value) and, in HLSL 202x, for an
/// unsuffixed integer beyond `int`'s range (typed by radix in C, which spvkit does not track).
pub fn literal_type(l: &Literal, version: LanguageVersion, sixteen: bool) -> Option<Ty> {
    let s = match l {
        Literal::Int { value, suffix } => {
            let unsigned = suffix.contains('u');
            let long = suffix.contains("ll");
            if version >= LanguageVersion::V202x && suffix.is_empty() && *value > i32::MAX as u64 {
                return None;
            }
            match (unsigned, long) {
                (true, true) => Scalar::UInt64,
                (false, true) => Scalar::Int64,
                (true, false) if *value <= u64::from(u32::MAX) => Scalar::UInt,
                (false, false) if *value <= i32::MAX as u64 => Scalar::Int,
                (false, false) if *value <= u64::from(u32::MAX) => Scalar::UInt,
                (true, false) => Scalar::UInt64,
                _ => Scalar::Int64,
            }
        }
        Literal::Float { suffix, .. } => match suffix.as_str() {
            "l" => Scalar::Double,
            "h" if sixteen => Scalar::Half,
            _ => Scalar::Float,
        },
        Literal::Bool(_) => Scalar::Bool,
        Literal::String(_) => return None,
    };
    Some(Ty::Scalar(s))
}

/// The components a vector swizzle (`xyzw` or `rgba` letters) names in a vector of `n`.
pub fn swizzle(name: &str, n: u32) -> Option<Vec<u32>> {
    if name.is_empty() || name.len() > 4 {
        return None;
    }
    let xyzw = name.chars().all(|c| "xyzw".contains(c));
    let rgba = name.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    name.chars()
        .map(|c| {
            let i = match c {
                'x' | 'r' => 0,
                'y' | 'g' => 1,
                'z' | 'b' => 2,
                _ => 3,
            };
            (i < n).then_some(i)
        })
        .collect()
}

/// Elements of a matrix swizzle: `_m01_m10` (zero-based) or `_12_21` (one-based).
pub fn matrix_swizzle(name: &str, r: u32, c: u32) -> Option<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    for part in name.split('_').skip(1) {
        let (i, j) = if let Some(z) = part.strip_prefix('m') {
            let b = z.as_bytes();
            if b.len() != 2 {
                return None;
            }
            (
                u32::from(b[0].checked_sub(b'0')?),
                u32::from(b[1].checked_sub(b'0')?),
            )
        } else {
            let b = part.as_bytes();
            if b.len() != 2 {
                return None;
            }
            (
                u32::from(b[0].checked_sub(b'1')?),
                u32::from(b[1].checked_sub(b'1')?),
            )
        };
        if i >= r || j >= c {
            return None;
        }
        out.push((i, j));
    }
    (!out.is_empty() && out.len() <= 4 && name.starts_with('_')).then_some(out)
}

/// The components a swizzle `name` names on a scalar or a vector of `n` (`n` is 1 for a
/// scalar): `xyzw`/`rgba` letters, or a matrix swizzle of the row or column a collapsed 1xN
/// or Nx1 matrix is (`_m01`).
pub fn vector_swizzle(name: &str, n: u32) -> Option<Vec<u32>> {
    swizzle(name, n).or_else(|| {
        matrix_swizzle(name, 4, 4)?
            .iter()
            .map(|&(i, j)| match (i, j) {
                (0, k) | (k, 0) if k < n => Some(k),
                _ => None,
            })
            .collect()
    })
}

/// How two operand types combine ([`common_type`]'s answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Common {
    /// Both are converted to this type.
    Ty(Ty),
    /// Vectors of different sizes: both are truncated to the smaller (DXC warns).
    Truncated(Ty),
    /// They do not combine.
    Invalid,
}

/// The type both operands of an arithmetic operator are converted to. `lit_a`/`lit_b` say
/// whether an operand is an untyped literal ([`literal_kind`]), which takes the other
/// operand's kind (a float literal makes ints float).
pub fn common_type(a: &Ty, b: &Ty, lit_a: Option<bool>, lit_b: Option<bool>) -> Common {
    let (Some(ca), Some(cb)) = (a.component(), b.component()) else {
        return Common::Invalid;
    };
    let literal_with = |float_literal: bool, other: Scalar| {
        if float_literal && !other.is_float() {
            Scalar::Float
        } else if other == Scalar::Bool {
            Scalar::Int
        } else {
            other
        }
    };
    let comp = match (lit_a, lit_b) {
        (Some(fa), None) => literal_with(fa, cb),
        (None, Some(fb)) => literal_with(fb, ca),
        _ if ca.rank() >= cb.rank() => ca,
        _ => cb,
    };
    match (a, b) {
        (Ty::Scalar(_), t) | (t, Ty::Scalar(_)) => Common::Ty(t.with_component(comp)),
        (Ty::Vector(_, n), Ty::Vector(_, m)) if n != m => {
            Common::Truncated(Ty::Vector(comp, *n.min(m)))
        }
        (Ty::Vector(_, n), Ty::Vector(..)) => Common::Ty(Ty::Vector(comp, *n)),
        (Ty::Matrix(_, r, c), Ty::Matrix(_, r2, c2)) if r == r2 && c == c2 => {
            Common::Ty(a.with_component(comp))
        }
        // A vector and a matrix of as many elements combine in the left one's shape
        // (`m2x2 * v4` is a matrix, `v4 < m2x2` a vector), as DXC.
        (Ty::Vector(_, n), Ty::Matrix(_, r, c)) | (Ty::Matrix(_, r, c), Ty::Vector(_, n))
            if *n == r * c =>
        {
            Common::Ty(a.with_component(comp))
        }
        _ => Common::Invalid,
    }
}

impl Common {
    /// The type, unless the operands do not combine.
    pub fn ty(self) -> Option<Ty> {
        match self {
            Common::Ty(t) | Common::Truncated(t) => Some(t),
            Common::Invalid => None,
        }
    }
}

/// Whether `op` compares (its result is bool-valued in the operands' common shape).
pub fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
    )
}

/// A vector or matrix times a scalar, which DXC emits as one instruction for floats: the
/// vector's or matrix's type when the scalar converts to its component type (a wider scalar
/// that is not an untyped literal widens the product instead); `None` when the rule does not
/// apply.
pub fn times_scalar(at: &Ty, lit_a: Option<bool>, bt: &Ty, lit_b: Option<bool>) -> Option<Ty> {
    let (vt, st, lit) = match (at, bt) {
        (Ty::Vector(..) | Ty::Matrix(..), Ty::Scalar(_)) => (at, bt, lit_b),
        (Ty::Scalar(_), Ty::Vector(..) | Ty::Matrix(..)) => (bt, at, lit_a),
        _ => return None,
    };
    let comp = vt.component()?;
    let scomp = st.component()?;
    if !comp.is_float() || (scomp.rank() > comp.rank() && lit.is_none()) {
        return None;
    }
    Some(vt.clone())
}

/// The type a shift (`<<`, `>>`) works in: the left operand's, widened to the right one's
/// vector size when the left is a scalar; `None` for a non-integer left operand.
pub fn shift_type(at: &Ty, bt: &Ty) -> Option<Ty> {
    let s = at.component().filter(|s| s.is_int())?;
    Some(match (at, bt) {
        (Ty::Scalar(_), Ty::Vector(_, n)) => Ty::Vector(s, *n),
        _ => at.clone(),
    })
}

/// The result type of a (non-logical) binary operator on operands of types `at` and `bt`
/// (after overloaded operators: numeric operands); `None` when they do not combine.
pub fn binary_type(
    op: BinaryOp,
    at: &Ty,
    lit_a: Option<bool>,
    bt: &Ty,
    lit_b: Option<bool>,
) -> Option<Ty> {
    if op == BinaryOp::Mul {
        if let Some(t) = times_scalar(at, lit_a, bt, lit_b) {
            return Some(t);
        }
    }
    if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
        return shift_type(at, bt);
    }
    let ty = common_type(at, bt, lit_a, lit_b).ty()?;
    if is_comparison(op) {
        return Some(ty.with_component(Scalar::Bool));
    }
    // Arithmetic promotes bools to int, as in C (`true + true` is 2).
    let arithmetic = matches!(
        op,
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem
    );
    if arithmetic && ty.component() == Some(Scalar::Bool) {
        return Some(ty.with_component(Scalar::Int));
    }
    Some(ty)
}

/// The type the arguments of a component-wise intrinsic are converted to: their common type,
/// literals taking the others' kind; all literals give `float` (any float literal) or `int`.
/// `None` when one is not numeric or they do not combine.
pub fn args_common(tys: &[Ty], lits: &[Option<bool>]) -> Option<Ty> {
    if tys.iter().any(|t| !t.is_numeric()) {
        return None;
    }
    let mut ty = tys.first()?.clone();
    let mut lit = lits.first().copied().flatten();
    for (t, l) in tys.iter().zip(lits).skip(1) {
        ty = common_type(&ty, t, lit, *l).ty()?;
        lit = lit.and(*l);
    }
    Some(match lit {
        Some(true) => ty.with_component(Scalar::Float),
        Some(false) => ty.with_component(Scalar::Int),
        None => ty,
    })
}

/// [`args_common`], made float when it is not (the intrinsics defined on floats only).
fn float_common(tys: &[Ty], lits: &[Option<bool>]) -> Option<Ty> {
    let t = args_common(tys, lits)?;
    Some(if t.component()?.is_float() {
        t
    } else {
        t.with_component(Scalar::Float)
    })
}

/// The types the arguments of a call of the intrinsic `name` (of types `tys`; `lits`: which
/// are untyped literals) are implicitly converted to, one per argument (`None`: used as it
/// is), for the intrinsics whose arguments meet in one type; `None` for the others.
/// `sixteen`: 16-bit types are enabled (`dot2add` multiplies `half`s).
pub fn intrinsic_operands(
    name: &str,
    tys: &[Ty],
    lits: &[Option<bool>],
    sixteen: bool,
) -> Option<Vec<Option<Ty>>> {
    use super::intrinsics::{lookup, Intrinsic};
    let all = |t: Ty| Some(vec![Some(t); tys.len()]);
    let (uint, float) = (Ty::Scalar(Scalar::UInt), Ty::Scalar(Scalar::Float));
    let each = |ts: Vec<Option<Ty>>| (ts.len() == tys.len()).then_some(ts);
    match name {
        // The lane is a `uint`.
        "WaveReadLaneAt" | "QuadReadLaneAt" => return each(vec![None, Some(uint)]),
        // The partition mask is a `uint4`.
        _ if name.starts_with("WaveMultiPrefix") => {
            return each(vec![None, Some(Ty::Vector(Scalar::UInt, 4))])
        }
        "QuadAny" | "QuadAll" => return all(Ty::Scalar(Scalar::Bool)),
        "NonUniformResourceIndex" | "CheckAccessFullyMapped" | "vk::ReadClock" => return all(uint),
        _ if name.starts_with("unpack_") => return all(uint),
        "D3DCOLORtoUBYTE4" | "dst" => return all(Ty::Vector(Scalar::Float, 4)),
        "lit" => return all(float),
        "dot4add_u8packed" => return all(uint),
        "dot4add_i8packed" => {
            return each(vec![
                Some(uint.clone()),
                Some(uint),
                Some(Ty::Scalar(Scalar::Int)),
            ])
        }
        "dot2add" => {
            let half = Ty::Vector(if sixteen { Scalar::Half } else { Scalar::Float }, 2);
            return each(vec![Some(half.clone()), Some(half), Some(float)]);
        }
        "msad4" => {
            return each(vec![
                Some(uint),
                Some(Ty::Vector(Scalar::UInt, 2)),
                Some(Ty::Vector(Scalar::UInt, 4)),
            ])
        }
        _ => {}
    }
    match lookup(name)? {
        Intrinsic::ComponentWise(_) => all(intrinsic_type(name, tys, lits)?),
        Intrinsic::Special(..) => match name {
            "dot" | "sign" | "mad" | "fma" => all(args_common(tys, lits)?),
            "cross" | "normalize" | "length" | "distance" | "reflect" | "saturate" | "fmod"
            | "isnan" | "isinf" | "isfinite" | "isnormal" | "rcp" | "ddx" | "ddy"
            | "ddx_coarse" | "ddy_coarse" | "ddx_fine" | "ddy_fine" | "fwidth" | "ldexp"
            | "log10" | "faceforward" | "determinant" => all(float_common(tys, lits)?),
            "refract" => {
                // The ratio of indices is a scalar of the vectors' component type.
                let t = float_common(tys.get(..2)?, lits.get(..2)?)?;
                let eta = Ty::Scalar(t.component()?);
                each(vec![Some(t.clone()), Some(t), Some(eta)])
            }
            "sincos" => {
                let t = float_common(tys.get(..1)?, lits.get(..1)?)?;
                each(vec![Some(t), None, None])
            }
            "and" | "or" => all(intrinsic_type(name, tys, lits)?),

            "select" => {
                let t = intrinsic_type(name, tys, lits)?;
                Some(vec![
                    Some(t.with_component(Scalar::Bool)),
                    Some(t.clone()),
                    Some(t),
                ])
            }
            _ => None,
        },
    }
}

/// The result type of a call of the intrinsic `name` with arguments of types `tys` (`lits`:
/// which are untyped literals); `None` for an intrinsic whose rule is not here yet, or
/// arguments it does not take.
pub fn intrinsic_type(name: &str, tys: &[Ty], lits: &[Option<bool>]) -> Option<Ty> {
    use super::intrinsics::{lookup, Intrinsic};
    let first = tys.first();
    let shaped = |s: Scalar| Some(first?.with_component(s));
    match lookup(name)? {
        Intrinsic::ComponentWise(c) => {
            if tys.len() != c.args {
                return None;
            }
            let t = args_common(tys, lits)?;
            let s = t.component()?;
            let kept = if s.is_float() {
                true
            } else if s.is_signed() {
                c.sint.is_some()
            } else if s == Scalar::Bool {
                false
            } else {
                c.uint.is_some() || name == "abs"
            };
            Some(if kept {
                t
            } else {
                t.with_component(Scalar::Float)
            })
        }
        Intrinsic::Special(lo, hi) if (lo..=hi).contains(&tys.len()) => match name {
            "dot" => match args_common(tys, lits)? {
                t @ (Ty::Scalar(_) | Ty::Vector(..)) => Some(Ty::Scalar(t.component()?)),
                _ => None,
            },
            "cross" | "normalize" | "reflect" | "saturate" | "fmod" => float_common(tys, lits),
            "length" | "distance" => Some(Ty::Scalar(float_common(tys, lits)?.component()?)),
            "sign" => Some(args_common(tys, lits)?.with_component(Scalar::Int)),
            "mad" => args_common(tys, lits),
            "all" | "any" | "CheckAccessFullyMapped" => Some(Ty::Scalar(Scalar::Bool)),
            "isnan" | "isinf" | "isfinite" | "isnormal" => {
                Some(float_common(tys, lits)?.with_component(Scalar::Bool))
            }
            "asuint" if tys.len() == 3 => Some(Ty::Void),
            "asuint" => shaped(Scalar::UInt),
            "asint" => shaped(Scalar::Int),
            "asfloat" => shaped(Scalar::Float),
            "asuint16" => shaped(Scalar::UInt16),
            "asint16" => shaped(Scalar::Int16),
            "asfloat16" => shaped(Scalar::Half),
            "countbits" | "reversebits" | "firstbitlow" | "firstbithigh" => {
                let t = first?;
                let s = t.component()?;
                let to_uint = match name {
                    "countbits" => s.is_int() && s.bits() != 32,
                    "firstbithigh" => s == Scalar::Float,
                    _ => false,
                };
                Some(if to_uint {
                    t.with_component(Scalar::UInt)
                } else {
                    t.clone()
                })
            }
            "determinant" => match float_common(tys, lits)? {
                Ty::Matrix(s, r, c) if r == c => Some(Ty::Scalar(s)),
                _ => None,
            },
            "transpose" => match first? {
                Ty::Matrix(s, r, c) => Some(Ty::Matrix(*s, *c, *r)),
                t @ (Ty::Scalar(_) | Ty::Vector(..)) => Some(t.clone()),
                _ => None,
            },
            "NonUniformResourceIndex" => Some(Ty::Scalar(Scalar::UInt)),
            "D3DCOLORtoUBYTE4" => Some(Ty::Vector(Scalar::Int, 4)),
            "vk::ReadClock" => Some(Ty::Scalar(Scalar::UInt64)),
            "lit" | "dst" => Some(Ty::Vector(Scalar::Float, 4)),
            "rcp" | "ddx" | "ddy" | "ddx_coarse" | "ddy_coarse" | "ddx_fine" | "ddy_fine" => {
                float_common(tys, lits)
            }
            "and" | "or" => Some(
                common_type(first?, tys.get(1)?, None, None)
                    .ty()?
                    .with_component(Scalar::Bool),
            ),
            "select" => {
                let lit = |k: usize| lits.get(k).copied().flatten();
                let t = common_type(tys.get(1)?, tys.get(2)?, lit(1), lit(2)).ty()?;
                t.is_numeric().then_some(t)
            }
            "WaveGetLaneCount" | "WaveGetLaneIndex" => Some(Ty::Scalar(Scalar::UInt)),
            "WaveActiveSum"
            | "WaveActiveProduct"
            | "WaveActiveMin"
            | "WaveActiveMax"
            | "WavePrefixSum"
            | "WavePrefixProduct"
            | "WaveReadLaneFirst"
            | "WaveReadLaneAt"
            | "WaveActiveBitAnd"
            | "WaveActiveBitOr"
            | "WaveActiveBitXor"
            | "QuadReadLaneAt"
            | "QuadReadAcrossX"
            | "QuadReadAcrossY"
            | "QuadReadAcrossDiagonal"
            | "WaveMultiPrefixSum"
            | "WaveMultiPrefixProduct"
            | "WaveMultiPrefixBitAnd"
            | "WaveMultiPrefixBitOr"
            | "WaveMultiPrefixBitXor" => first.filter(|t| t.is_numeric()).cloned(),
            "WaveActiveAllEqual" => shaped(Scalar::Bool),
            "WaveIsFirstLane" | "WaveActiveAnyTrue" | "WaveActiveAllTrue" | "IsHelperLane" => {
                Some(Ty::Scalar(Scalar::Bool))
            }
            "WaveActiveCountBits"
            | "WavePrefixCountBits"
            | "GetGroupWaveCount"
            | "GetGroupWaveIndex" => Some(Ty::Scalar(Scalar::UInt)),
            "WaveActiveBallot" | "WaveMatch" => Some(Ty::Vector(Scalar::UInt, 4)),
            "dot4add_u8packed" => Some(Ty::Scalar(Scalar::UInt)),
            "dot4add_i8packed" => Some(Ty::Scalar(Scalar::Int)),
            "DebugBreak" => Some(Ty::Void),
            "fwidth" | "ldexp" | "log10" | "faceforward" => float_common(tys, lits),
            "refract" => float_common(tys.get(..2)?, lits.get(..2)?),
            "modf" | "frexp" => first
                .filter(|t| t.component().is_some_and(|s| s != Scalar::Bool))
                .cloned(),
            "sincos" => Some(Ty::Void),
            "QuadAny" | "QuadAll" => Some(Ty::Scalar(Scalar::Bool)),
            "pack_s8" | "pack_u8" | "pack_clamp_s8" | "pack_clamp_u8" => {
                Some(Ty::Scalar(Scalar::UInt))
            }
            "unpack_s8s16" => Some(Ty::Vector(Scalar::Int16, 4)),
            "unpack_s8s32" => Some(Ty::Vector(Scalar::Int, 4)),
            "unpack_u8u16" => Some(Ty::Vector(Scalar::UInt16, 4)),
            "unpack_u8u32" => Some(Ty::Vector(Scalar::UInt, 4)),
            "fma" => args_common(tys, lits),
            "dot2add" => Some(Ty::Scalar(Scalar::Float)),
            "msad4" => Some(Ty::Vector(Scalar::UInt, 4)),
            "asdouble" => match (first?, tys.get(1)?) {
                (Ty::Scalar(_), Ty::Scalar(_)) => Some(Ty::Scalar(Scalar::Double)),
                (Ty::Vector(_, n), Ty::Vector(_, m)) if n == m => {
                    Some(Ty::Vector(Scalar::Double, *n))
                }
                _ => None,
            },
            "f16tof32" | "f32tof16" => match first? {
                t @ (Ty::Scalar(_) | Ty::Vector(..)) => {
                    Some(t.with_component(if name == "f16tof32" {
                        Scalar::Float
                    } else {
                        Scalar::UInt
                    }))
                }
                _ => None,
            },
            "clip"
            | "GroupMemoryBarrierWithGroupSync"
            | "GroupMemoryBarrier"
            | "DeviceMemoryBarrier"
            | "DeviceMemoryBarrierWithGroupSync"
            | "AllMemoryBarrier"
            | "AllMemoryBarrierWithGroupSync"
            | "InterlockedAdd"
            | "InterlockedMin"
            | "InterlockedMax"
            | "InterlockedAnd"
            | "InterlockedOr"
            | "InterlockedXor"
            | "InterlockedExchange"
            | "InterlockedCompareExchange"
            | "InterlockedCompareStore" => Some(Ty::Void),
            _ => None,
        },
        Intrinsic::Special(..) => None,
    }
}

/// The result type of the method `name` of a resource of kind `kind` with element type `elem`
/// (after any template argument: `Load<T>` is typed by its caller); `None` for a method whose
/// rule is not here yet or that the resource does not have.
pub fn resource_method_type(kind: &ResourceKind, elem: &Ty, name: &str) -> Option<Ty> {
    let uint = Ty::Scalar(Scalar::UInt);
    let sampled = || elem.component().filter(|s| *s != Scalar::Bool);
    match kind {
        _ if name == "GetDimensions" => Some(Ty::Void),
        ResourceKind::Subpass { .. } if name == "SubpassLoad" => Some(elem.clone()),
        ResourceKind::StructuredBuffer { flavor, .. } => match name {
            "Load" if *flavor == SbFlavor::Plain => Some(elem.clone()),
            "Append" if *flavor == SbFlavor::Append => Some(Ty::Void),
            "Consume" if *flavor == SbFlavor::Consume => Some(elem.clone()),
            "IncrementCounter" | "DecrementCounter" if *flavor == SbFlavor::Plain => Some(uint),
            _ => None,
        },
        ResourceKind::ByteAddressBuffer { rw } => match name {
            "Load" => Some(uint),
            "Load2" => Some(Ty::Vector(Scalar::UInt, 2)),
            "Load3" => Some(Ty::Vector(Scalar::UInt, 3)),
            "Load4" => Some(Ty::Vector(Scalar::UInt, 4)),
            "Store" | "Store2" | "Store3" | "Store4" if *rw => Some(Ty::Void),
            _ if *rw && name.starts_with("Interlocked") => Some(Ty::Void),
            _ => None,
        },
        ResourceKind::TexelBuffer { .. } if name == "Load" => Some(elem.clone()),
        ResourceKind::Texture { .. } => match name {
            "Load" | "Sample" | "SampleLevel" | "SampleBias" | "SampleGrad" => Some(elem.clone()),
            "SampleCmp" | "SampleCmpLevelZero" | "SampleCmpLevel" | "SampleCmpBias"
            | "SampleCmpGrad" => Some(Ty::Scalar(sampled()?)),
            "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha" | "GatherCmp"
            | "GatherCmpRed" | "GatherCmpGreen" | "GatherCmpBlue" | "GatherCmpAlpha" => {
                Some(Ty::Vector(sampled()?, 4))
            }
            "CalculateLevelOfDetail" | "CalculateLevelOfDetailUnclamped" => {
                Some(Ty::Scalar(Scalar::Float))
            }
            "GetSamplePosition" => Some(Ty::Vector(Scalar::Float, 2)),
            _ => None,
        },
        _ => None,
    }
}

/// The types the arguments of the resource method `name` of a resource of `kind` (element
/// `elem`), called with `n` arguments, are implicitly converted to, one per argument (`None`:
/// taken as it is: a sampler, a texel offset, an `out` argument, a value whose type picks the
/// overload).
pub fn method_params(kind: &ResourceKind, elem: &Ty, name: &str, n: usize) -> Vec<Option<Ty>> {
    let mut params = vec![None; n];
    let mut set = |i: usize, t: Ty| {
        if let Some(slot) = params.get_mut(i) {
            *slot = Some(t);
        }
    };
    let (int, uint, float) = (Scalar::Int, Scalar::UInt, Scalar::Float);
    match *kind {
        ResourceKind::ByteAddressBuffer { .. } => match name {
            "Load" | "Load2" | "Load3" | "Load4" | "Store" => set(0, Ty::Scalar(uint)),
            "Store2" | "Store3" | "Store4" => {
                set(0, Ty::Scalar(uint));
                let k = name.as_bytes()[5] - b'0';
                set(1, Ty::Vector(uint, u32::from(k)));
            }
            "InterlockedCompareExchange" | "InterlockedCompareStore" => {
                for i in 0..3 {
                    set(i, Ty::Scalar(uint));
                }
            }
            _ if name.starts_with("Interlocked") => {
                set(0, Ty::Scalar(uint));
                set(1, Ty::Scalar(uint));
            }
            _ => {}
        },
        ResourceKind::StructuredBuffer { .. } => match name {
            "Load" => set(0, Ty::Scalar(uint)),
            "Append" => set(0, elem.clone()),
            _ => {}
        },
        ResourceKind::TexelBuffer { .. } if name == "Load" => set(0, Ty::Scalar(int)),
        ResourceKind::Subpass { .. } if name == "SubpassLoad" => set(0, Ty::Scalar(int)),
        ResourceKind::Texture {
            dim,
            arrayed,
            ms,
            rw,
            combined,
            ..
        } => {
            let coords = dim.coords() + u32::from(arrayed);
            let k = usize::from(!combined);
            match name {
                "GetDimensions"
                    if !rw && !ms && n > 1 && method_out_args(kind, name, n) == Ok(1..n) =>
                {
                    set(0, Ty::Scalar(uint))
                }
                "GetSamplePosition" => set(0, Ty::Scalar(uint)),
                "Load" => {
                    let mip = u32::from(!rw && !ms);
                    set(0, Ty::vector(int, coords + mip));
                    if ms {
                        set(1, Ty::Scalar(int));
                    }
                }
                _ if name.starts_with("CalculateLevelOfDetail") => {
                    set(k, Ty::vector(float, dim.coords()))
                }
                _ if name.starts_with("Gather") => {
                    set(k, Ty::vector(float, coords));
                    if name.starts_with("GatherCmp") {
                        set(k + 1, Ty::Scalar(float));
                    }
                }
                _ if name.starts_with("Sample") => {
                    set(k, Ty::vector(float, coords));
                    let mut i = k + 1;
                    if name.starts_with("SampleCmp") {
                        set(i, Ty::Scalar(float));
                        i += 1;
                    }
                    match name
                        .trim_start_matches("SampleCmp")
                        .trim_start_matches("Sample")
                    {
                        "Bias" | "Level" => {
                            set(i, Ty::Scalar(float));
                            i += 1;
                        }
                        "Grad" => {
                            set(i, Ty::vector(float, dim.coords()));
                            set(i + 1, Ty::vector(float, dim.coords()));
                            i += 2;
                        }
                        _ => {}
                    }
                    // Then the offset (none on cubes), the clamp, the status.
                    let clamp = !matches!(
                        name,
                        "SampleLevel" | "SampleCmpLevel" | "SampleCmpLevelZero"
                    );
                    if clamp {
                        set(i + usize::from(dim != TexDim::Cube), Ty::Scalar(float));
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
    params
}

/// The arguments the resource method `name` of a resource of `kind` writes (its `out`
/// arguments: sizes, a residency status), called with `n` arguments; an error where it does
/// not take `n`. Methods whose arguments are not described here give none.
pub fn method_out_args(
    kind: &ResourceKind,
    name: &str,
    n: usize,
) -> Result<std::ops::Range<usize>, String> {
    let count = |ok: bool, outs: std::ops::Range<usize>| {
        if ok {
            Ok(outs)
        } else {
            Err(format!("wrong number of arguments to '{name}': {n} given"))
        }
    };
    match (kind, name) {
        (ResourceKind::Subpass { .. }, _) => Ok(0..0),
        (ResourceKind::ByteAddressBuffer { .. }, "Load" | "Load2" | "Load3" | "Load4") => {
            count(n == 1, 0..0)
        }
        (ResourceKind::ByteAddressBuffer { .. }, "Store" | "Store2" | "Store3" | "Store4") => {
            count(n == 2, 0..0)
        }
        (ResourceKind::StructuredBuffer { .. }, "Load") => count(n == 1, 0..0),
        (ResourceKind::StructuredBuffer { .. }, "Append") => count(n == 1, 0..0),
        (
            ResourceKind::StructuredBuffer { .. },
            "Consume" | "IncrementCounter" | "DecrementCounter",
        ) => count(n == 0, 0..0),
        (ResourceKind::StructuredBuffer { .. }, "GetDimensions") => count(n == 2, 0..2),
        (ResourceKind::ByteAddressBuffer { .. }, "GetDimensions") => count(n == 1, 0..1),
        (_, "GetDimensions") => {
            // The sizes (a cube's face size; then the layers), the sample count of a
            // multisampled texture; a sampled texture may take a mip level first and give its
            // level count last.
            let (size, ms, lod_query) = match *kind {
                ResourceKind::Texture {
                    dim,
                    arrayed,
                    ms,
                    rw,
                    ..
                } => {
                    let base = if dim == TexDim::Cube { 2 } else { dim.coords() };
                    (base + u32::from(arrayed), ms, !rw && !ms)
                }
                _ => (1, false, false),
            };
            let plain = size as usize + usize::from(ms);
            let with_mip = lod_query && n == plain + 2;
            if !with_mip && n != plain {
                let also = if lod_query {
                    format!(" (or {})", plain + 2)
                } else {
                    String::new()
                };
                return Err(format!("GetDimensions takes {plain}{also} arguments here"));
            }
            Ok(usize::from(with_mip)..n)
        }
        (ResourceKind::Texture { ms, .. }, "GetSamplePosition") => {
            if !*ms {
                return Err("GetSamplePosition is a method of multisampled textures only".into());
            }
            count(n == 1, 0..0)
        }
        (
            ResourceKind::Texture {
                dim,
                ms,
                rw,
                combined,
                ..
            },
            _,
        ) if texture_sampler(name).is_some() => {
            if *rw || *ms {
                return Err(format!("no method '{name}' on this texture"));
            }
            // A vk::SampledTexture has its sampler; another texture takes one first.
            let k = usize::from(!combined);
            if n < k {
                return Err(format!("'{name}' needs a sampler"));
            }
            let cube = *dim == TexDim::Cube;
            let (min, max_without_status) = if name.starts_with("Gather") {
                if !matches!(dim, TexDim::D2 | TexDim::Cube) {
                    return Err(format!("no method '{name}' on this texture"));
                }
                let min = k + 1 + usize::from(name.starts_with("GatherCmp"));
                // Offsets then status: none on cubes; one offset, or one per texel for the
                // forms that name a channel.
                let named = name != "Gather" && name != "GatherCmp";
                let status = match (cube, n.checked_sub(min)) {
                    (_, Some(0)) | (false, Some(1)) => false,
                    (true, Some(1)) | (false, Some(2)) => true,
                    (false, Some(4)) if named => false,
                    (false, Some(5)) if named => true,
                    _ => return count(false, 0..0),
                };
                return Ok(if status { n - 1..n } else { 0..0 });
            } else if name.starts_with("CalculateLevelOfDetail") {
                (k + 1, k + 1)
            } else {
                // The sample family: coordinate, comparison value, level-of-detail arguments,
                // then offset (none on cubes), clamp and status, each where it applies.
                let cmp = name.starts_with("SampleCmp");
                let lod = match name
                    .trim_start_matches("SampleCmp")
                    .trim_start_matches("Sample")
                {
                    "Bias" | "Level" => 1,
                    "Grad" => 2,
                    _ => 0,
                };
                let clamp = !matches!(
                    name,
                    "SampleLevel" | "SampleCmpLevel" | "SampleCmpLevelZero"
                );
                let min = k + 1 + usize::from(cmp) + lod;
                (min, min + usize::from(!cube) + usize::from(clamp))
            };
            let with_status =
                !name.starts_with("CalculateLevelOfDetail") && n == max_without_status + 1;
            count(
                (min..=max_without_status).contains(&n) || with_status,
                if with_status { n - 1..n } else { 0..0 },
            )
        }
        // `(location[, offset][, status])`; `(location, sample[, offset][, status])` when
        // multisampled; `(location[, status])` on RW textures.
        (ResourceKind::Texture { dim, ms, rw, .. }, "Load") => {
            if *dim == TexDim::Cube {
                return Err("no method 'Load' on cube textures".into());
            }
            let fixed = 1 + usize::from(*ms);
            let optional = if *rw { 1 } else { 2 };
            let status = n == fixed + optional;
            count(
                (fixed..=fixed + optional).contains(&n),
                if status { n - 1..n } else { 0..0 },
            )
        }
        (ResourceKind::TexelBuffer { .. }, "Load") => {
            count((1..=2).contains(&n), if n == 2 { 1..2 } else { 0..0 })
        }
        _ => Ok(0..0),
    }
}

/// The sampler a sampling method of a texture takes first (a `vk::SampledTexture` has its
/// own): `Some(Some(cmp))` for a `SamplerComparisonState` (`cmp`) or a `SamplerState`,
/// `Some(None)` for either; `None` for a method that takes none.
pub fn texture_sampler(name: &str) -> Option<Option<bool>> {
    if name.starts_with("CalculateLevelOfDetail") {
        return Some(None);
    }
    let cmp = match name {
        "Sample" | "SampleBias" | "SampleGrad" | "SampleLevel" => false,
        "SampleCmp" | "SampleCmpBias" | "SampleCmpGrad" | "SampleCmpLevel"
        | "SampleCmpLevelZero" => true,
        _ if name.starts_with("GatherCmp") => true,
        _ if name.starts_with("Gather") => false,
        _ => return None,
    };
    Some(Some(cmp))
}

/// The result type of `mul(a, b)` (HLSL's row-vector convention) for operands of types `at`
/// and `bt`, in the higher-ranked component type; `None` for mismatched shapes, and for two
/// vectors of different sizes, which are an outer product only when the second is known to
/// be a 1xN matrix (the caller's to tell).
pub fn mul_type(at: &Ty, bt: &Ty) -> Option<Ty> {
    let (ca, cb) = (at.component()?, bt.component()?);
    let comp = if ca.rank() >= cb.rank() { ca } else { cb };
    let (at, bt) = (at.with_component(comp), bt.with_component(comp));
    match (&at, &bt) {
        (Ty::Scalar(_), _) | (_, Ty::Scalar(_)) => binary_type(BinaryOp::Mul, &at, None, &bt, None),
        (Ty::Vector(_, n), Ty::Vector(_, m)) if n == m => Some(Ty::Scalar(comp)),
        (Ty::Vector(_, n), Ty::Matrix(_, r, c)) if n == r => Some(Ty::Vector(comp, *c)),
        (Ty::Matrix(_, r, c), Ty::Vector(_, n)) if n == c => Some(Ty::Vector(comp, *r)),
        (Ty::Matrix(_, r, k), Ty::Matrix(_, k2, c)) if k == k2 => Some(Ty::matrix(comp, *r, *c)),
        _ => None,
    }
}

/// Whether two structs have the same field types in the same order (a struct argument
/// converts to a parameter of such a struct).
pub fn same_fields(structs: &[StructDef], a: usize, b: usize) -> bool {
    match (structs.get(a), structs.get(b)) {
        (Some(x), Some(y)) => {
            x.fields.len() == y.fields.len()
                && x.fields.iter().zip(&y.fields).all(|(f, g)| f.ty == g.ty)
        }
        _ => false,
    }
}

/// What passing an argument of type `t` to a parameter of type `p` costs in overload
/// resolution: 0 when exact, 1 for a component conversion of the same shape (or a struct of
/// the same fields), 2 for a splat, 3 for a truncation; `None` when it does not convert.
pub fn conversion_cost(structs: &[StructDef], p: &Ty, t: &Ty) -> Option<u32> {
    if p == t {
        return Some(0);
    }
    match (p, t) {
        // An unsized array parameter of resources takes any array of them.
        (Ty::Array(pe, 0), Ty::Array(te, _)) if pe.is_resource() && pe == te => return Some(1),
        // A ConstantBuffer<S> (TextureBuffer<S>) parameter takes such a block.
        (
            Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, e),
            Ty::Struct(got),
        ) => {
            let Ty::Struct(want) = **e else { return None };
            if *got == want {
                return Some(0);
            }
            let origin = structs.get(*got)?.origin.as_ref()?;
            return (structs.get(want)?.name == *origin).then_some(0);
        }
        (Ty::Struct(a), Ty::Struct(b)) => return same_fields(structs, *a, *b).then_some(1),
        _ => {}
    }
    if !(p.is_numeric() && t.is_numeric()) {
        return None;
    }
    Some(match (p, t) {
        _ if p.with_component(Scalar::Bool) == t.with_component(Scalar::Bool) => 1,
        (_, Ty::Scalar(_)) => 2,
        _ => 3,
    })
}

/// Why no overload was chosen ([`pick_overload`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoOverload {
    /// None takes that many arguments.
    Arity,
    /// None takes arguments of these types.
    Types,
    /// The two best cost the same.
    Ambiguous,
}

/// The overload of `cands` (their parameter types, how many are required) that arguments of
/// types `args` call: the lowest total [`conversion_cost`].
pub fn pick_overload(
    structs: &[StructDef],
    cands: &[(&[(Ty, crate::hlsl::hir::ParamDir)], usize)],
    args: &[Ty],
) -> Result<usize, NoOverload> {
    let n = args.len();
    let arity: Vec<usize> = (0..cands.len())
        .filter(|&k| (cands[k].1..=cands[k].0.len()).contains(&n))
        .collect();
    if arity.is_empty() {
        return Err(NoOverload::Arity);
    }
    let mut scored: Vec<(u32, usize)> = arity
        .into_iter()
        .filter_map(|k| {
            let params = cands[k].0;
            let total: Option<u32> = params
                .iter()
                .zip(args)
                .map(|((p, _), t)| conversion_cost(structs, p, t))
                .sum();
            total.map(|s| (s, k))
        })
        .collect();
    scored.sort_by_key(|(s, _)| *s);
    match scored.as_slice() {
        [(a, _), (b, _), ..] if a == b => Err(NoOverload::Ambiguous),
        [(_, k), ..] => Ok(*k),
        [] => Err(NoOverload::Types),
    }
}

/// DXC's error for `&&`/`||` on non-scalar operands under HLSL 2021, which short-circuits them.
pub fn non_scalar_logical(op: BinaryOp) -> String {
    let f = if op == BinaryOp::And { "and" } else { "or" };
    format!(
        "operands for short-circuiting logical binary operator must be scalar, for non-scalar \
         types use '{f}'"
    )
}

/// Whether a value of type `from` converts to `to` (`explicit`: by a cast), as code
/// generation converts: component kinds freely; a scalar splats; a vector truncates (with a
/// warning when implicit) or fills a matrix of as many elements, and a matrix a vector;
/// a matrix truncates only by a cast; a struct converts to one of the same fields.
pub fn converts(structs: &[StructDef], from: &Ty, to: &Ty, explicit: bool) -> bool {
    if from == to {
        return true;
    }
    match (from, to) {
        (Ty::Scalar(_), Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..)) => true,
        (Ty::Vector(_, n), Ty::Vector(_, m)) => m <= n,
        (Ty::Vector(..), Ty::Scalar(_)) => true,
        (Ty::Matrix(_, r, c), Ty::Matrix(_, r2, c2)) => {
            (r == r2 && c == c2) || (explicit && r2 <= r && c2 <= c)
        }
        (Ty::Vector(_, n), Ty::Matrix(_, r, c)) | (Ty::Matrix(_, r, c), Ty::Vector(_, n)) => {
            *n == r * c
        }
        (Ty::Struct(a), Ty::Struct(b)) => same_fields(structs, *a, *b),
        _ => false,
    }
}

/// The types the operands of a (non-logical) binary operator of types `at` and `bt` are
/// converted to before it applies ([`binary_type`]'s operands).
pub fn operand_types(
    op: BinaryOp,
    at: &Ty,
    lit_a: Option<bool>,
    bt: &Ty,
    lit_b: Option<bool>,
) -> Option<(Ty, Ty)> {
    if op == BinaryOp::Mul {
        if let Some(vt) = times_scalar(at, lit_a, bt, lit_b) {
            let s = Ty::Scalar(vt.component()?);
            return Some(if matches!(at, Ty::Scalar(_)) {
                (s, vt)
            } else {
                (vt, s)
            });
        }
    }
    if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
        let t = shift_type(at, bt)?;
        return Some((t.clone(), t));
    }
    let mut t = common_type(at, bt, lit_a, lit_b).ty()?;
    let arithmetic = matches!(
        op,
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem
    );
    if arithmetic && t.component() == Some(Scalar::Bool) {
        t = t.with_component(Scalar::Int);
    }
    Some((t.clone(), t))
}

/// The SPIR-V `Scope` a `vk::DeviceScope`-style name stands for (a `uint` constant).
pub fn scope_constant(name: &str) -> Option<crate::grammar::Scope> {
    name.strip_prefix("vk::")?
        .strip_suffix("Scope")?
        .parse()
        .ok()
}
