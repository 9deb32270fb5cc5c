//! Instruction folding and simplification (spirv-opt's `--simplify-instructions`, with the
//! constant folding of `--ccp` for straight-line values): an op whose operands are constants
//! becomes the constant it computes, and a few ops become one of their operands
//! (`CompositeExtract` of a `CompositeInsert` or `CompositeConstruct`, `x + 0`, `x * 1`,
//! `select(c, a, a)`, `OpCopyObject`), as does a block argument (a phi) every predecessor
//! passes the same value. Why: inlining and front ends leave arithmetic on
//! literals and composites built only to be taken apart; folding them feeds dead-branch
//! elimination and shrinks the module.
//!
//! Folding follows SPIR-V's semantics exactly, or does not fold: integers wrap at their width;
//! a division by zero, `INT_MIN / -1`, a shift by the width or more and a float-to-integer
//! conversion out of range are undefined and stay; floats are 32- or 64-bit IEEE with
//! round-to-nearest-even (a module whose execution modes flush denormals or round otherwise
//! keeps its float ops); ops carrying decorations (`NoContraction`, `FPRoundingMode`,
//! `NonUniform`, ...) are left alone, except `RelaxedPrecision`, which permits the exact
//! result. Matrix and vector products are computed in the order the lowering computes them.

use super::replace::{replace_uses, resolve};
use crate::grammar::{ExecutionMode, Ids, Instruction, LiteralNumber};
use crate::ir::analysis::Cfg;
use crate::ir::{Constant, ConstantValue, Function, Handle, Module, Type, Value};
use std::collections::HashMap;

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let floats = floats_fold(m);
    super::each_function(m, |m, f| in_function(m, f, floats))
}

/// Whether float ops of `m` may be folded: no execution mode flushes denormals or rounds
/// other than to nearest even.
pub(crate) fn floats_fold(m: &Module) -> bool {
    !m.execution_modes
        .iter()
        .any(|e| changes_float_results(&e.mode))
}

/// Whether an execution mode makes float results differ from IEEE round-to-nearest-even with
/// denormals kept (flushing to zero, other rounding modes).
fn changes_float_results(mode: &ExecutionMode) -> bool {
    let name = format!("{mode:?}");
    ["FlushToZero", "RTZ", "RTP", "RTN", "FloatingPointMode"]
        .iter()
        .any(|k| name.contains(k))
}

/// A scalar constant: its bits (the low `width` bits) and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lit {
    Bool(bool),
    Int { bits: u64, width: u32, signed: bool },
    Float { bits: u64, width: u32 },
}

/// The low `width` bits of `x`.
fn mask(x: u64, width: u32) -> u64 {
    if width >= 64 {
        x
    } else {
        x & ((1u64 << width) - 1)
    }
}

/// `x`'s low `width` bits, sign-extended.
fn sext(x: u64, width: u32) -> i64 {
    if width >= 64 {
        x as i64
    } else if width == 0 {
        0
    } else {
        let s = 64 - width;
        ((x << s) as i64) >> s
    }
}

/// The scalar kind of type `t`: (is bool, is float, width, signed).
fn scalar_kind(m: &Module, t: Handle<Type>) -> Option<Lit> {
    match m.types.get(t)? {
        Type::Bool => Some(Lit::Bool(false)),
        Type::Int { width, signed } if (1..=64).contains(width) => Some(Lit::Int {
            bits: 0,
            width: *width,
            signed: *signed,
        }),
        Type::Float { width } if matches!(width, 16 | 32 | 64) => Some(Lit::Float {
            bits: 0,
            width: *width,
        }),
        _ => None,
    }
}

/// The most components or columns a folded vector or matrix has (SPIR-V's are at most 16;
/// a count beyond is an invalid module's, not folded).
const MAX_COMPONENTS: usize = 64;

/// The component type and count of `t` when it is a scalar (count 1) or a vector.
fn components(m: &Module, t: Handle<Type>) -> Option<(Handle<Type>, usize)> {
    match m.types.get(t)? {
        Type::Vector { component, count } if *count as usize <= MAX_COMPONENTS => {
            Some((*component, *count as usize))
        }
        Type::Bool | Type::Int { .. } | Type::Float { .. } => Some((t, 1)),
        _ => None,
    }
}

/// The scalar components of constant `v` (a scalar or a vector of scalars; a null is zeros).
fn literal_components(m: &Module, v: Value) -> Option<Vec<Lit>> {
    let Value::Constant(c) = v else { return None };
    let c = m.constants.get(c)?;
    let (elem, n) = components(m, c.ty)?;
    let kind = scalar_kind(m, elem)?;
    let with_bits = |bits: u64| match kind {
        Lit::Bool(_) => Lit::Bool(bits != 0),
        Lit::Int { width, signed, .. } => Lit::Int {
            bits: mask(bits, width),
            width,
            signed,
        },
        Lit::Float { width, .. } => Lit::Float {
            bits: mask(bits, width),
            width,
        },
    };
    match &c.value {
        ConstantValue::Null => Some(vec![with_bits(0); n]),
        ConstantValue::Bool(b) if n == 1 => Some(vec![Lit::Bool(*b)]),
        ConstantValue::Scalar(l) if n == 1 => Some(vec![with_bits(l.low_u64())]),
        ConstantValue::Composite(parts) if n > 1 && parts.len() == n => {
            let mut out = Vec::with_capacity(n);
            for &p in parts {
                out.extend(literal_components(m, p)?);
            }
            (out.len() == n).then_some(out)
        }
        _ => None,
    }
}

/// The constant of type `t` made of `lits` (one per component).
fn make_constant(m: &mut Module, t: Handle<Type>, lits: &[Lit]) -> Option<Value> {
    let (elem, n) = components(m, t)?;
    // Each literal is of the component's kind and width (an invalid module's op may claim
    // any result type).
    let kind = scalar_kind(m, elem)?;
    let fits = |l: &Lit| match (kind, *l) {
        (Lit::Bool(_), Lit::Bool(_)) => true,
        (Lit::Int { width: a, .. }, Lit::Int { width: b, .. }) => a == b,
        (Lit::Float { width: a, .. }, Lit::Float { width: b, .. }) => a == b,
        _ => false,
    };
    if lits.len() != n || !lits.iter().all(fits) {
        return None;
    }
    let scalar = |m: &mut Module, l: Lit| {
        let value = match l {
            Lit::Bool(b) => ConstantValue::Bool(b),
            // Narrow signed integers are written sign-extended to the word, as the spec asks.
            Lit::Int {
                bits,
                width,
                signed,
            } => ConstantValue::Scalar(if width > 32 {
                LiteralNumber::DoubleWord(bits)
            } else if signed {
                LiteralNumber::Word(sext(bits, width) as u32)
            } else {
                LiteralNumber::Word(mask(bits, width) as u32)
            }),
            Lit::Float { bits, width } => ConstantValue::Scalar(if width > 32 {
                LiteralNumber::DoubleWord(bits)
            } else {
                LiteralNumber::Word(bits as u32)
            }),
        };
        Value::Constant(m.constants.insert(Constant::new(elem, value)))
    };
    if n == 1 {
        return Some(scalar(m, lits[0]));
    }
    let parts: Vec<Value> = lits.iter().map(|&l| scalar(m, l)).collect();
    Some(Value::Constant(
        m.constants
            .insert(Constant::new(t, ConstantValue::Composite(parts))),
    ))
}

/// An integer's value as unsigned and signed 64-bit numbers.
fn int(l: Lit) -> Option<(u64, i64, u32)> {
    match l {
        Lit::Int { bits, width, .. } => Some((bits, sext(bits, width), width)),
        _ => None,
    }
}

/// A float's value (16-, 32- or 64-bit) as an f64, exactly.
fn float(l: Lit) -> Option<(f64, u32)> {
    match l {
        Lit::Float { bits, width: 32 } => Some((f64::from(f32::from_bits(bits as u32)), 32)),
        Lit::Float { bits, width: 64 } => Some((f64::from_bits(bits), 64)),
        _ => None,
    }
}

/// The float of `width` bits nearest `x` (which is exact when computed in that width).
fn float_lit(x: f64, width: u32) -> Lit {
    if width == 32 {
        Lit::Float {
            bits: u64::from((x as f32).to_bits()),
            width,
        }
    } else {
        Lit::Float {
            bits: x.to_bits(),
            width,
        }
    }
}

/// One component of a binary op on constants; `None` where SPIR-V leaves the result
/// undefined or the pass does not fold.
fn binary(inst: &Instruction, a: Lit, b: Lit, out: Lit, floats: bool) -> Option<Lit> {
    use Instruction as I;
    let int_out = |x: u64| match out {
        Lit::Int { width, signed, .. } => Some(Lit::Int {
            bits: mask(x, width),
            width,
            signed,
        }),
        _ => None,
    };
    let boolean = |x: bool| match out {
        Lit::Bool(_) => Some(Lit::Bool(x)),
        _ => None,
    };
    if let (Some((ua, sa, w)), Some((ub, sb, wb))) = (int(a), int(b)) {
        let same = w == wb;
        let min = if w >= 64 {
            i64::MIN
        } else {
            -(1i64 << (w - 1))
        };
        return match inst {
            I::IAdd(_) if same => int_out(ua.wrapping_add(ub)),
            I::ISub(_) if same => int_out(ua.wrapping_sub(ub)),
            I::IMul(_) if same => int_out(ua.wrapping_mul(ub)),
            I::UDiv(_) if same && ub != 0 => int_out(ua / ub),
            I::UMod(_) if same && ub != 0 => int_out(ua % ub),
            I::SDiv(_) if same && sb != 0 && !(sa == min && sb == -1) => {
                int_out(sa.wrapping_div(sb) as u64)
            }
            I::SRem(_) if same && sb != 0 && !(sa == min && sb == -1) => {
                int_out(sa.wrapping_rem(sb) as u64)
            }
            I::SMod(_) if same && sb != 0 && !(sa == min && sb == -1) => {
                let r = sa.wrapping_rem(sb);
                let r = if r != 0 && ((r < 0) != (sb < 0)) {
                    r + sb
                } else {
                    r
                };
                int_out(r as u64)
            }
            I::BitwiseAnd(_) if same => int_out(ua & ub),
            I::BitwiseOr(_) if same => int_out(ua | ub),
            I::BitwiseXor(_) if same => int_out(ua ^ ub),
            // The shift amount is read as unsigned; shifting by the width or more is undefined.
            I::ShiftLeftLogical(_) if ub < u64::from(out_width(out)?) => int_out(ua << ub),
            I::ShiftRightLogical(_) if ub < u64::from(w) && out_width(out)? == w => {
                int_out(ua >> ub)
            }
            I::ShiftRightArithmetic(_) if ub < u64::from(w) && out_width(out)? == w => {
                int_out((sa >> ub) as u64)
            }
            I::IEqual(_) if same => boolean(ua == ub),
            I::INotEqual(_) if same => boolean(ua != ub),
            I::ULessThan(_) if same => boolean(ua < ub),
            I::ULessThanEqual(_) if same => boolean(ua <= ub),
            I::UGreaterThan(_) if same => boolean(ua > ub),
            I::UGreaterThanEqual(_) if same => boolean(ua >= ub),
            I::SLessThan(_) if same => boolean(sa < sb),
            I::SLessThanEqual(_) if same => boolean(sa <= sb),
            I::SGreaterThan(_) if same => boolean(sa > sb),
            I::SGreaterThanEqual(_) if same => boolean(sa >= sb),
            _ => None,
        };
    }
    if let (Lit::Bool(x), Lit::Bool(y)) = (a, b) {
        return match inst {
            I::LogicalAnd(_) => boolean(x && y),
            I::LogicalOr(_) => boolean(x || y),
            I::LogicalEqual(_) => boolean(x == y),
            I::LogicalNotEqual(_) => boolean(x != y),
            _ => None,
        };
    }
    if !floats {
        return None;
    }
    let ((x, w), (y, wb)) = (float(a)?, float(b)?);
    if w != wb {
        return None;
    }
    // Each result is computed in f64 from exact operands and rounded once to the width: for
    // f32, f64's 53 bits make the sum, difference, product and quotient correctly rounded.
    let arith = |r: f64| match out {
        Lit::Float { width, .. } if width == w => Some(float_lit(r, w)),
        _ => None,
    };
    let unordered = x.is_nan() || y.is_nan();
    match inst {
        I::FAdd(_) => arith(x + y),
        I::FSub(_) => arith(x - y),
        I::FMul(_) => arith(x * y),
        I::FDiv(_) => arith(x / y),
        I::FOrdEqual(_) => boolean(!unordered && x == y),
        I::FOrdNotEqual(_) => boolean(!unordered && x != y),
        I::FOrdLessThan(_) => boolean(!unordered && x < y),
        I::FOrdLessThanEqual(_) => boolean(!unordered && x <= y),
        I::FOrdGreaterThan(_) => boolean(!unordered && x > y),
        I::FOrdGreaterThanEqual(_) => boolean(!unordered && x >= y),
        I::FUnordEqual(_) => boolean(unordered || x == y),
        I::FUnordNotEqual(_) => boolean(unordered || x != y),
        I::FUnordLessThan(_) => boolean(unordered || x < y),
        I::FUnordLessThanEqual(_) => boolean(unordered || x <= y),
        I::FUnordGreaterThan(_) => boolean(unordered || x > y),
        I::FUnordGreaterThanEqual(_) => boolean(unordered || x >= y),
        _ => None,
    }
}

fn out_width(out: Lit) -> Option<u32> {
    match out {
        Lit::Int { width, .. } | Lit::Float { width, .. } => Some(width),
        Lit::Bool(_) => None,
    }
}

/// One component of a unary op or conversion on a constant.
fn unary(inst: &Instruction, a: Lit, out: Lit, floats: bool) -> Option<Lit> {
    use Instruction as I;
    let int_out = |x: u64| match out {
        Lit::Int { width, signed, .. } => Some(Lit::Int {
            bits: mask(x, width),
            width,
            signed,
        }),
        _ => None,
    };
    match (inst, a) {
        (I::SNegate(_), Lit::Int { bits, .. }) => int_out(bits.wrapping_neg()),
        (I::Not(_), Lit::Int { bits, .. }) => int_out(!bits),
        (I::LogicalNot(_), Lit::Bool(b)) => Some(Lit::Bool(!b)),
        (I::UConvert(_), Lit::Int { bits, .. }) => int_out(bits),
        (I::SConvert(_), Lit::Int { bits, width, .. }) => int_out(sext(bits, width) as u64),
        (I::Bitcast(_), Lit::Int { bits, width, .. } | Lit::Float { bits, width }) => match out {
            Lit::Int {
                width: w, signed, ..
            } if w == width => Some(Lit::Int {
                bits,
                width: w,
                signed,
            }),
            Lit::Float { width: w, .. } if w == width => Some(Lit::Float { bits, width: w }),
            _ => None,
        },
        _ if !floats => None,
        (I::FNegate(_), Lit::Float { bits, width }) => Some(Lit::Float {
            bits: bits ^ (1u64 << (width - 1)),
            width,
        }),
        (I::FConvert(_), _) => {
            let (x, _) = float(a)?;
            match out {
                Lit::Float { width, .. } if width == 32 || width == 64 => Some(float_lit(x, width)),
                _ => None,
            }
        }
        (I::ConvertSToF(_) | I::ConvertUToF(_), Lit::Int { bits, width, .. }) => {
            let w = out_width(out)?;
            if !matches!(out, Lit::Float { .. }) || !(w == 32 || w == 64) {
                return None;
            }
            // Rust's integer-to-float `as` rounds to nearest, ties to even, as SPIR-V does.
            let signed = matches!(inst, I::ConvertSToF(_));
            Some(match (w, signed) {
                (32, true) => float_lit(f64::from(sext(bits, width) as f32), 32),
                (32, false) => float_lit(f64::from(bits as f32), 32),
                (_, true) => float_lit(sext(bits, width) as f64, 64),
                (_, false) => float_lit(bits as f64, 64),
            })
        }
        (I::ConvertFToS(_) | I::ConvertFToU(_), _) => {
            let (x, _) = float(a)?;
            let Lit::Int { width, .. } = out else {
                return None;
            };
            let t = x.trunc();
            // Out of range (or NaN) is undefined: not folded.
            if matches!(inst, I::ConvertFToS(_)) {
                let lo = -(2f64.powi(width as i32 - 1));
                (t >= lo && t < -lo).then(|| int_out(t as i64 as u64))?
            } else {
                (t >= 0.0 && t < 2f64.powi(width as i32)).then(|| int_out(t as u64))?
            }
        }
        _ => None,
    }
}

fn in_function(m: &mut Module, f: &mut Function, floats: bool) -> bool {
    if f.is_declaration() {
        return false;
    }
    let cfg = Cfg::new(f);
    let mut map = same_incoming_values(f, &cfg);
    let mut rewritten = false;
    for &b in cfg.reverse_postorder() {
        for i in 0..f.blocks[b].ops.len() {
            let h = f.blocks[b].ops[i];
            rewritten |= offset_to_const_offset(&map, &mut f.ops[h].inst);
            let op = &f.ops[h];
            // RelaxedPrecision only permits less precision: the exact result is one the
            // op may give. Other decorations (NoContraction, FPRoundingMode...) stay.
            if !op
                .decorations()
                .iter()
                .all(|d| matches!(d, crate::grammar::Decoration::RelaxedPrecision))
            {
                continue;
            }
            let mut inst = op.inst.clone();
            let Some(ty) = op.result_type() else { continue };
            // Operands already folded are read as what they became.
            inst.visit_ids_mut(&mut |id| {
                if let Some(v) = Value::from_id(*id) {
                    if map.contains_key(&v) && Some(*id) != op.inst.result_id() {
                        *id = resolve(&map, v).to_id();
                    }
                }
            });
            let folded = match &inst {
                Instruction::CompositeExtract(e) => {
                    match Value::from_id(e.composite)
                        .and_then(|c| extract_through_ops(m, f, &map, c, &e.indexes, ty))
                    {
                        // (An op reached again, in an invalid module's cycle, is no answer.)
                        Some(Extracted::Value(v)) if v == Value::Op(h) => None,
                        Some(Extracted::From(c, _)) if c == Value::Op(h) => None,
                        Some(Extracted::Value(v)) => Some(v),
                        // A shorter way to the same value: the op reads it there.
                        Some(Extracted::From(c, path)) => {
                            if let Instruction::CompositeExtract(e) = &mut f.ops[h].inst {
                                e.composite = c.to_id();
                                e.indexes = path;
                                rewritten = true;
                            }
                            None
                        }
                        None => None,
                    }
                }
                _ => fold(m, &inst, ty, floats),
            };
            if let Some(v) = folded {
                map.insert(Value::Op(h), v);
            }
        }
    }
    if map.is_empty() {
        return rewritten;
    }
    let resolved: HashMap<Value, Value> = map.keys().map(|&k| (k, resolve(&map, k))).collect();
    replace_uses(m, f, &resolved);
    true
}

/// An image operand `Offset` that is (or folded to) a constant becomes a `ConstOffset`: the
/// form Vulkan allows outside gathers, which HLSL's offsets computed by unrolled loops and
/// inlined parameters reach after legalization. Whether it changed `inst`.
fn offset_to_const_offset(map: &HashMap<Value, Value>, inst: &mut Instruction) -> bool {
    use crate::grammar::ImageOperands;
    let Some(ops) = inst.image_operands_mut() else {
        return false;
    };
    let Some(offset) = ops.offset.and_then(Value::from_id).map(|v| resolve(map, v)) else {
        return false;
    };
    if !matches!(offset, Value::Constant(_)) || ops.const_offset.is_some() {
        return false;
    }
    ops.offset = None;
    ops.const_offset = Some(offset.to_id());
    ops.mask =
        ImageOperands((ops.mask.0 & !ImageOperands::Offset.0) | ImageOperands::ConstOffset.0);
    true
}

/// Block arguments (phis) that every reachable predecessor passes the same value (or the
/// argument itself, around a loop): each is that value.
fn same_incoming_values(f: &Function, cfg: &Cfg) -> HashMap<Value, Value> {
    let mut incoming: HashMap<Value, Option<Value>> = HashMap::new();
    let mut mixed: std::collections::HashSet<Value> = std::collections::HashSet::new();
    for &b in cfg.reverse_postorder() {
        for s in f.blocks[b].terminator.successors() {
            for (&a, &v) in f.blocks[s.block].args.iter().zip(&s.args) {
                let a = Value::BlockArg(a);
                if v == a {
                    continue;
                }
                match incoming.entry(a).or_insert(Some(v)) {
                    Some(seen) if *seen == v => {}
                    _ => {
                        mixed.insert(a);
                    }
                }
            }
        }
    }
    incoming
        .into_iter()
        .filter(|(a, _)| !mixed.contains(a))
        .filter_map(|(a, v)| Some((a, v?)))
        .collect()
}

/// What `inst` (of result type `ty`, operands already folded) is, if it is a constant or one
/// of its operands.
pub(crate) fn fold(
    m: &mut Module,
    inst: &Instruction,
    ty: Handle<Type>,
    floats: bool,
) -> Option<Value> {
    use Instruction as I;
    let val = |id| Value::from_id(id);
    match inst {
        I::CopyObject(c) => return val(c.operand),
        I::Select(s) => {
            let (a, b) = (val(s.object_1)?, val(s.object_2)?);
            if a == b {
                return Some(a);
            }
            let cond = literal_components(m, val(s.condition)?)?;
            if cond.iter().all(|&c| c == Lit::Bool(true)) {
                return Some(a);
            }
            if cond.iter().all(|&c| c == Lit::Bool(false)) {
                return Some(b);
            }
            let (xa, xb) = (literal_components(m, a)?, literal_components(m, b)?);
            let picked: Vec<Lit> = cond
                .iter()
                .zip(xa.iter().zip(&xb))
                .map(|(&c, (&x, &y))| if c == Lit::Bool(true) { x } else { y })
                .collect();
            return make_constant(m, ty, &picked);
        }
        I::CompositeExtract(e) => return extract(m, val(e.composite)?, &e.indexes, ty),
        I::ExtInst(e) => return glsl(m, e, ty, floats),
        I::CompositeConstruct(c) => {
            let parts: Option<Vec<Value>> = c.constituents.iter().map(|&id| val(id)).collect();
            return construct(m, ty, parts?);
        }
        I::CompositeInsert(ci) => {
            let (Value::Constant(c), object @ Value::Constant(_)) =
                (val(ci.composite)?, val(ci.object)?)
            else {
                return None;
            };
            return insert(m, c, object, &ci.indexes);
        }
        I::VectorShuffle(vs) => {
            let (Value::Constant(a), Value::Constant(b)) = (val(vs.vector_1)?, val(vs.vector_2)?)
            else {
                return None;
            };
            let mut both = constant_parts(m, a)?;
            both.extend(constant_parts(m, b)?);
            // 0xFFFFFFFF, an undefined component, is not folded.
            let picked: Option<Vec<Value>> = vs
                .components
                .iter()
                .map(|&c| both.get(c as usize).copied())
                .collect();
            return construct(m, ty, picked?);
        }
        I::Dot(_)
        | I::MatrixTimesScalar(_)
        | I::MatrixTimesVector(_)
        | I::VectorTimesMatrix(_)
        | I::MatrixTimesMatrix(_)
        | I::OuterProduct(_)
        | I::Transpose(_) => return product(m, inst, ty, floats),
        _ => {}
    }
    let out_kind = scalar_kind(m, components(m, ty)?.0)?;
    let n = components(m, ty)?.1;
    let mut ids = Vec::with_capacity(2);
    inst.visit_ids(&mut |id| ids.push(id));
    // Result type and result id first, then the operands.
    let operands: Vec<Value> = ids.iter().skip(2).filter_map(|&id| val(id)).collect();
    if ids.len() != operands.len() + 2 {
        return None;
    }
    match operands.as_slice() {
        // A vector times a scalar is a component-wise `OpFMul` (exact per component).
        [a, b] if matches!(inst, I::VectorTimesScalar(_)) => {
            let (xa, xb) = (literal_components(m, *a)?, literal_components(m, *b)?);
            let [s] = xb.as_slice() else { return None };
            if xa.len() != n {
                return None;
            }
            let mul = I::FMul(crate::grammar::OpFMul {
                result_type: crate::grammar::Id(0),
                result_id: crate::grammar::Id(0),
                operand_1: crate::grammar::Id(0),
                operand_2: crate::grammar::Id(0),
            });
            let lits: Option<Vec<Lit>> = xa
                .iter()
                .map(|&x| binary(&mul, x, *s, out_kind, floats))
                .collect();
            make_constant(m, ty, &lits?)
        }
        [a, b] => {
            if let Some(v) = identity(m, inst, *a, *b) {
                return Some(v);
            }
            let (xa, xb) = (literal_components(m, *a)?, literal_components(m, *b)?);
            if xa.len() != n || xb.len() != n {
                // (A vector shift by a scalar and other mixed shapes are not folded.)
                return None;
            }
            let lits: Option<Vec<Lit>> = xa
                .iter()
                .zip(&xb)
                .map(|(&x, &y)| binary(inst, x, y, out_kind, floats))
                .collect();
            make_constant(m, ty, &lits?)
        }
        [a] => {
            let xa = literal_components(m, *a)?;
            if xa.len() != n {
                return None;
            }
            let lits: Option<Vec<Lit>> = xa
                .iter()
                .map(|&x| unary(inst, x, out_kind, floats))
                .collect();
            make_constant(m, ty, &lits?)
        }
        _ => None,
    }
}

/// The GLSL.std.450 instructions whose results are exact functions of their operands, on
/// constants: absolute values, signs, rounding to integers, minima, maxima and clamps
/// (component-wise). `FMin`, `FMax` and `FClamp` with a NaN operand and clamps whose bounds
/// cross are undefined and stay; transcendental functions, whose precision is the
/// implementation's, stay too.
fn glsl(
    m: &mut Module,
    e: &crate::grammar::OpExtInst,
    ty: Handle<Type>,
    floats: bool,
) -> Option<Value> {
    use crate::grammar::ext::glsl_std_450::Opcode as G;
    let Some(Value::ExtInstSet(set)) = Value::from_id(e.set) else {
        return None;
    };
    if m.ext_inst_imports.get(set)?.name != "GLSL.std.450" {
        return None;
    }
    let (_, n) = components(m, ty)?;
    let mut args = Vec::with_capacity(e.operands.len());
    for &w in &e.operands {
        let lits = literal_components(m, Value::from_id(crate::grammar::Id(w))?)?;
        if lits.len() != n {
            return None;
        }
        args.push(lits);
    }
    let op = e.instruction;
    let is = |g: G| op == g as u32;
    let float_op = [
        G::FAbs,
        G::FSign,
        G::Floor,
        G::Ceil,
        G::Trunc,
        G::RoundEven,
        G::FMin,
        G::FMax,
        G::FClamp,
    ]
    .iter()
    .any(|&g| is(g));
    if float_op && !floats {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let a: Vec<Lit> = args.iter().map(|x| x[i]).collect();
        let r = match a.as_slice() {
            [x] if is(G::FAbs)
                || is(G::FSign)
                || is(G::Floor)
                || is(G::Ceil)
                || is(G::Trunc)
                || is(G::RoundEven) =>
            {
                let (v, w) = float(*x)?;
                let r = if is(G::FAbs) {
                    v.abs()
                } else if is(G::FSign) {
                    if v.is_nan() {
                        return None;
                    } else if v > 0.0 {
                        1.0
                    } else if v < 0.0 {
                        -1.0
                    } else {
                        v
                    }
                } else if is(G::Floor) {
                    v.floor()
                } else if is(G::Ceil) {
                    v.ceil()
                } else if is(G::Trunc) {
                    v.trunc()
                } else {
                    v.round_ties_even()
                };
                float_lit(r, w)
            }
            [x] if is(G::SAbs) || is(G::SSign) => {
                let (_, sx, w) = int(*x)?;
                let r = if is(G::SAbs) {
                    sx.wrapping_abs()
                } else {
                    sx.signum()
                };
                Lit::Int {
                    bits: mask(r as u64, w),
                    width: w,
                    signed: matches!(x, Lit::Int { signed: true, .. }),
                }
            }
            [x, y] if is(G::FMin) || is(G::FMax) => {
                let ((v, w), (u, _)) = (float(*x)?, float(*y)?);
                if v.is_nan() || u.is_nan() {
                    return None;
                }
                // (min(-0, +0) may be either zero: the first operand is kept.)
                let r = if is(G::FMin) {
                    if u < v {
                        u
                    } else {
                        v
                    }
                } else if u > v {
                    u
                } else {
                    v
                };
                float_lit(r, w)
            }
            [x, y] if is(G::SMin) || is(G::SMax) || is(G::UMin) || is(G::UMax) => {
                let ((ux, sx, _), (uy, sy, _)) = (int(*x)?, int(*y)?);
                let pick_x = if is(G::SMin) {
                    sx <= sy
                } else if is(G::SMax) {
                    sx >= sy
                } else if is(G::UMin) {
                    ux <= uy
                } else {
                    ux >= uy
                };
                if pick_x {
                    *x
                } else {
                    *y
                }
            }
            [x, lo, hi] if is(G::FClamp) => {
                let ((v, w), (l, _), (h, _)) = (float(*x)?, float(*lo)?, float(*hi)?);
                if v.is_nan() || l.is_nan() || h.is_nan() || l > h {
                    return None;
                }
                float_lit(v.max(l).min(h), w)
            }
            [x, lo, hi] if is(G::SClamp) || is(G::UClamp) => {
                let ((ux, sx, _), (ul, sl, _), (uh, sh, _)) = (int(*x)?, int(*lo)?, int(*hi)?);
                if is(G::SClamp) {
                    if sl > sh {
                        return None;
                    }
                    if sx < sl {
                        *lo
                    } else if sx > sh {
                        *hi
                    } else {
                        *x
                    }
                } else {
                    if ul > uh {
                        return None;
                    }
                    if ux < ul {
                        *lo
                    } else if ux > uh {
                        *hi
                    } else {
                        *x
                    }
                }
            }
            _ => return None,
        };
        out.push(r);
    }
    make_constant(m, ty, &out)
}

/// `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x | 0`, `x ^ 0`, `x & ~0` (integers), `x * 1.0`
/// and `x / 1.0` (floats, exact for every x), `x && true`, `x || false`: `x`.
fn identity(m: &Module, inst: &Instruction, a: Value, b: Value) -> Option<Value> {
    use Instruction as I;
    let is = |v: Value, want: &dyn Fn(Lit) -> bool| {
        literal_components(m, v).is_some_and(|c| !c.is_empty() && c.iter().all(|&l| want(l)))
    };
    let zero = |l: Lit| matches!(l, Lit::Int { bits: 0, .. });
    let one = |l: Lit| matches!(l, Lit::Int { bits: 1, .. });
    let ones = |l: Lit| matches!(l, Lit::Int { bits, width, .. } if bits == mask(u64::MAX, width));
    let f_one = |l: Lit| float(l).is_some_and(|(x, _)| x == 1.0);
    let t = |l: Lit| l == Lit::Bool(true);
    let fl = |l: Lit| l == Lit::Bool(false);
    // The identity keeps the other operand's type: both are the result type for these ops.
    match inst {
        I::IAdd(_) | I::BitwiseOr(_) | I::BitwiseXor(_) if is(a, &zero) => Some(b),
        I::IAdd(_) | I::ISub(_) | I::BitwiseOr(_) | I::BitwiseXor(_) if is(b, &zero) => Some(a),
        I::IMul(_) if is(a, &one) => Some(b),
        I::IMul(_) if is(b, &one) => Some(a),
        I::BitwiseAnd(_) if is(a, &ones) => Some(b),
        I::BitwiseAnd(_) if is(b, &ones) => Some(a),
        I::FMul(_) if is(a, &f_one) => Some(b),
        I::FMul(_) | I::FDiv(_) if is(b, &f_one) => Some(a),
        I::LogicalAnd(_) if is(a, &t) => Some(b),
        I::LogicalAnd(_) if is(b, &t) => Some(a),
        I::LogicalOr(_) if is(a, &fl) => Some(b),
        I::LogicalOr(_) if is(b, &fl) => Some(a),
        _ => None,
    }
}

/// The constituents of a composite constant (a null's are nulls of the member types).
fn constant_parts(m: &mut Module, c: Handle<Constant>) -> Option<Vec<Value>> {
    let k = m.constants.get(c)?.clone();
    match &k.value {
        ConstantValue::Composite(parts) => Some(parts.clone()),
        ConstantValue::Null | ConstantValue::Undef => {
            let member_types: Vec<Handle<Type>> = match m.types.get(k.ty)? {
                Type::Vector { count, .. } | Type::Matrix { count, .. }
                    if *count as usize > MAX_COMPONENTS =>
                {
                    return None
                }
                Type::Vector { component, count } => vec![*component; *count as usize],
                Type::Matrix { column, count } => vec![*column; *count as usize],
                Type::Struct(s) => s.members.iter().map(|mb| mb.ty).collect(),
                Type::Array {
                    element, length, ..
                } => {
                    let Value::Constant(l) = length else {
                        return None;
                    };
                    let n = match &m.constants.get(*l)?.value {
                        ConstantValue::Scalar(n) => n.low_u64(),
                        _ => return None,
                    };
                    if n > 4096 {
                        return None;
                    }
                    vec![*element; n as usize]
                }
                _ => return None,
            };
            Some(
                member_types
                    .into_iter()
                    .map(|t| Value::Constant(m.constants.insert(Constant::new(t, k.value.clone()))))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Where an `OpCompositeExtract` reads from, followed through the ops of `f`.
enum Extracted {
    /// The value itself.
    Value(Value),
    /// Another composite and path holding the same value, by fewer steps.
    From(Value, Vec<u32>),
}

/// `OpCompositeExtract` of a value built by `OpCompositeInsert`, `OpCompositeConstruct` or
/// `OpVectorShuffle`, or taken by another `OpCompositeExtract`, in `f` (followed through the
/// ops), or of a constant.
fn extract_through_ops(
    m: &mut Module,
    f: &Function,
    map: &HashMap<Value, Value>,
    start: Value,
    indexes: &[u32],
    ty: Handle<Type>,
) -> Option<Extracted> {
    use Instruction as I;
    let mut v = start;
    let mut idx = indexes.to_vec();
    let val = |id| Value::from_id(id).map(|v| resolve(map, v));
    let vector_len = |m: &Module, x: Value| match x {
        Value::Op(o) => match m.types.get(f.ops.get(o)?.result_type()?)? {
            Type::Vector { count, .. } => Some(*count),
            _ => None,
        },
        Value::Constant(c) => match m.types.get(m.constants.get(c)?.ty)? {
            Type::Vector { count, .. } => Some(*count),
            _ => None,
        },
        _ => None,
    };
    for _ in 0..256 {
        if idx.is_empty() {
            return Some(Extracted::Value(v));
        }
        let Value::Op(x) = v else { break };
        let op = f.ops.get(x)?;
        match &op.inst {
            I::CompositeInsert(ci) => {
                let p = &ci.indexes;
                if idx.starts_with(p) {
                    v = val(ci.object)?;
                    idx.drain(..p.len());
                } else if p.starts_with(&idx) {
                    // Part of the extracted value was replaced: not one operand.
                    break;
                } else {
                    v = val(ci.composite)?;
                }
            }
            I::CompositeConstruct(cc) => {
                let t = op.result_type()?;
                let scalars = match m.types.get(t)? {
                    // A vector may be built from smaller vectors: only one made of scalars
                    // has its components as constituents.
                    Type::Vector { count, .. } => cc.constituents.len() == *count as usize,
                    _ => true,
                };
                if !scalars {
                    break;
                }
                v = val(*cc.constituents.get(idx[0] as usize)?)?;
                idx.remove(0);
            }
            I::CompositeExtract(ce) => {
                let mut path = ce.indexes.clone();
                path.extend_from_slice(&idx);
                // A path longer than any type nests is a cycle of an invalid module.
                if path.len() > 64 {
                    return None;
                }
                v = val(ce.composite)?;
                idx = path;
            }
            I::VectorShuffle(vs) => {
                let c = *vs.components.get(idx[0] as usize)?;
                let (a, b) = (val(vs.vector_1)?, val(vs.vector_2)?);
                let n = vector_len(m, a)?;
                // 0xFFFFFFFF is an undefined component.
                if c == u32::MAX {
                    break;
                }
                if c < n {
                    v = a;
                    idx[0] = c;
                } else {
                    v = b;
                    idx[0] = c - n;
                }
            }
            _ => break,
        }
    }
    if idx.is_empty() {
        return Some(Extracted::Value(v));
    }
    if let Some(c) = extract(m, v, &idx, ty) {
        return Some(Extracted::Value(c));
    }
    (v != start || idx != indexes).then_some(Extracted::From(v, idx))
}

/// `OpCompositeInsert` of constant `object` into constant `c` at `path`: the composite constant,
/// unless an undefined part would remain (a constant composite of undefined values is not
/// folded).
fn insert(m: &mut Module, c: Handle<Constant>, object: Value, path: &[u32]) -> Option<Value> {
    let ty = m.constants.get(c)?.ty;
    let mut parts = constant_parts(m, c)?;
    let (&first, rest) = path.split_first()?;
    let slot = parts.get_mut(first as usize)?;
    *slot = if rest.is_empty() {
        object
    } else {
        let Value::Constant(inner) = *slot else {
            return None;
        };
        insert(m, inner, object, rest)?
    };
    let undefined = parts.iter().any(|p| match p {
        Value::Constant(k) => m
            .constants
            .get(*k)
            .is_none_or(|k| k.value == ConstantValue::Undef),
        _ => true,
    });
    if undefined {
        return None;
    }
    construct(m, ty, parts)
}

/// The columns of a constant matrix (or the one column of a vector), component by component.
fn columns(m: &mut Module, v: Value) -> Option<Vec<Vec<Lit>>> {
    let Value::Constant(c) = v else { return None };
    match m.types.get(m.constants.get(c)?.ty)? {
        Type::Matrix { .. } => constant_parts(m, c)?
            .into_iter()
            .map(|col| literal_components(m, col))
            .collect(),
        Type::Vector { .. } => Some(vec![literal_components(m, v)?]),
        _ => None,
    }
}

/// Matrix and vector products of constants, computed as the lowering computes them (so that
/// folding and running agree): each result component a sum of products added in index order,
/// each product and sum rounded once (no fused multiply-add).
fn product(m: &mut Module, inst: &Instruction, ty: Handle<Type>, floats: bool) -> Option<Value> {
    use crate::grammar::{Id, OpFAdd, OpFMul};
    use Instruction as I;
    if !floats {
        return None;
    }
    let (z, z2, z3, z4) = (Id(0), Id(0), Id(0), Id(0));
    let fmul = I::FMul(OpFMul {
        result_type: z,
        result_id: z2,
        operand_1: z3,
        operand_2: z4,
    });
    let fadd = I::FAdd(OpFAdd {
        result_type: z,
        result_id: z2,
        operand_1: z3,
        operand_2: z4,
    });
    let mul = |a: Lit, b: Lit| binary(&fmul, a, b, a, true);
    let add = |a: Lit, b: Lit| binary(&fadd, a, b, a, true);
    // Σ x[i] * y[i], in index order.
    let dot = |x: &[Lit], y: &[Lit]| -> Option<Lit> {
        if x.len() != y.len() || x.is_empty() {
            return None;
        }
        let mut acc = mul(x[0], y[0])?;
        for i in 1..x.len() {
            acc = add(acc, mul(x[i], y[i])?)?;
        }
        Some(acc)
    };
    // M * v: the columns scaled by v's components, added in order.
    let mat_vec = |cols: &[Vec<Lit>], v: &[Lit]| -> Option<Vec<Lit>> {
        if cols.len() != v.len() {
            return None;
        }
        let mut acc: Option<Vec<Lit>> = None;
        for (c, &s) in cols.iter().zip(v) {
            let t: Option<Vec<Lit>> = c.iter().map(|&x| mul(x, s)).collect();
            let t = t?;
            acc = Some(match acc {
                None => t,
                Some(a) => a
                    .iter()
                    .zip(&t)
                    .map(|(&x, &y)| add(x, y))
                    .collect::<Option<_>>()?,
            });
        }
        acc
    };
    let mut ids = Vec::new();
    inst.visit_ids(&mut |id| ids.push(id));
    let operands: Option<Vec<Value>> = ids.iter().skip(2).map(|&id| Value::from_id(id)).collect();
    let operands = operands?;
    let single = |m: &mut Module, v: Value| {
        let mut c = columns(m, v)?;
        (c.len() == 1).then(|| c.remove(0))
    };
    // The result's columns (one for a vector, none for a scalar).
    let result: Vec<Vec<Lit>> = match (inst, operands.as_slice()) {
        (I::Dot(_), &[a, b]) => {
            let (x, y) = (single(m, a)?, single(m, b)?);
            let r = dot(&x, &y)?;
            return make_constant(m, ty, &[r]);
        }
        (I::MatrixTimesScalar(_), &[a, s]) => {
            let s = literal_components(m, s)?;
            let [s] = s.as_slice() else { return None };
            let cols = columns(m, a)?;
            cols.iter()
                .map(|c| c.iter().map(|&x| mul(x, *s)).collect())
                .collect::<Option<_>>()?
        }
        (I::MatrixTimesVector(_), &[a, v]) => {
            let (cols, v) = (columns(m, a)?, single(m, v)?);
            vec![mat_vec(&cols, &v)?]
        }
        (I::VectorTimesMatrix(_), &[v, a]) => {
            let (v, cols) = (single(m, v)?, columns(m, a)?);
            vec![cols.iter().map(|c| dot(&v, c)).collect::<Option<_>>()?]
        }
        (I::MatrixTimesMatrix(_), &[a, b]) => {
            let (left, right) = (columns(m, a)?, columns(m, b)?);
            right
                .iter()
                .map(|c| mat_vec(&left, c))
                .collect::<Option<_>>()?
        }
        (I::OuterProduct(_), &[a, b]) => {
            let (x, y) = (single(m, a)?, single(m, b)?);
            y.iter()
                .map(|&s| x.iter().map(|&e| mul(e, s)).collect())
                .collect::<Option<_>>()?
        }
        (I::Transpose(_), &[a]) => {
            let cols = columns(m, a)?;
            let rows = cols.first()?.len();
            (0..rows)
                .map(|r| cols.iter().map(|c| c.get(r).copied()).collect())
                .collect::<Option<_>>()?
        }
        _ => return None,
    };
    match m.types.get(ty)?.clone() {
        Type::Vector { .. } => {
            let [col] = result.as_slice() else {
                return None;
            };
            make_constant(m, ty, col)
        }
        Type::Matrix { column, count } => {
            if result.len() != count as usize {
                return None;
            }
            let mut parts = Vec::with_capacity(result.len());
            for col in &result {
                parts.push(make_constant(m, column, col)?);
            }
            construct(m, ty, parts)
        }
        _ => None,
    }
}

/// `OpCompositeExtract` of a constant.
fn extract(m: &mut Module, mut v: Value, indexes: &[u32], ty: Handle<Type>) -> Option<Value> {
    for &i in indexes {
        let Value::Constant(c) = v else { return None };
        v = *constant_parts(m, c)?.get(i as usize)?;
    }
    match v {
        Value::Constant(c) if m.constants.get(c)?.ty == ty => Some(v),
        _ => None,
    }
}

/// `OpCompositeConstruct` of constants: the composite constant (a vector built from vectors is
/// flattened to its components).
fn construct(m: &mut Module, ty: Handle<Type>, parts: Vec<Value>) -> Option<Value> {
    if !parts.iter().all(|p| matches!(p, Value::Constant(_))) {
        return None;
    }
    match m.types.get(ty)? {
        Type::Vector { count, .. } => {
            let count = *count as usize;
            let mut lits = Vec::new();
            for p in parts {
                lits.extend(literal_components(m, p)?);
            }
            if lits.len() != count {
                return None;
            }
            make_constant(m, ty, &lits)
        }
        Type::Matrix { .. } | Type::Struct(_) | Type::Array { .. } => Some(Value::Constant(
            m.constants
                .insert(Constant::new(ty, ConstantValue::Composite(parts))),
        )),
        _ => None,
    }
}
