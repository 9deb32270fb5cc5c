//! OpenCL.std `printf` → the host's C `printf`. OpenCL's format has vector conversions
//! (`%v4f`, `%v2hlx`) that C lacks: the format string, a constant in UniformConstant memory, is
//! rewritten at lowering time so that each vector conversion becomes one C conversion per
//! element, separated by commas as OpenCL prints them, and the elements are passed one by one.
//! Arguments follow C's variadic promotions: floats as `double`, integers narrower than 32 bits
//! widened; vector elements are passed as `double` or as 64-bit integers (`ll`).

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::{Id, Instruction};
use crate::ir::{ConstantValue, Value};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum};
use inkwell::AddressSpace;

/// One conversion of a format: its text up to the conversion character (without the vector
/// and length modifiers), the vector width (0 for scalars) and the conversion character.
struct Conversion {
    head: String,
    lanes: u32,
    conv: char,
}

/// A piece of a format.
enum Piece {
    /// Literal text (`%%` kept as it is).
    Text(String),
    /// A conversion.
    Conv(Conversion),
}

/// Splits an OpenCL format into literal text and conversions.
fn parse(format: &[u8]) -> Result<Vec<Piece>> {
    let text = String::from_utf8_lossy(format);
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            lit.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            lit.push_str("%%");
            continue;
        }
        out.push(Piece::Text(std::mem::take(&mut lit)));
        let mut head = String::from("%");
        while let Some(&f) = chars.peek() {
            if "-+ #0".contains(f) || f.is_ascii_digit() || f == '.' || f == '*' {
                head.push(f);
                chars.next();
            } else {
                break;
            }
        }
        let mut lanes = 0;
        if chars.peek() == Some(&'v') {
            chars.next();
            let mut n = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n.push(d);
                chars.next();
            }
            lanes = n.parse().map_err(|_| {
                LowerError::unsupported("a printf vector conversion without a width")
            })?;
        }
        // Length modifiers: C's own for scalars; for vectors they only give the element
        // width, which the argument already has.
        let mut length = String::new();
        while let Some(&m) = chars.peek().filter(|m| "hlLjzt".contains(**m)) {
            length.push(m);
            chars.next();
        }
        let conv = chars
            .next()
            .ok_or_else(|| LowerError::unsupported("a printf format ending in a conversion"))?;
        if lanes == 0 && length != "hl" {
            head.push_str(&length);
        }
        out.push(Piece::Conv(Conversion { head, lanes, conv }));
    }
    out.push(Piece::Text(lit));
    Ok(out)
}

/// The bytes of a constant string operand (up to its NUL): a UniformConstant variable whose
/// initializer is an array of 8-bit constants, reached directly or through a cast or an access
/// chain to its first element.
fn constant_string(l: &Lowerer<'_, '_>, fx: &FnCx<'_, '_>, id: Id) -> Option<Vec<u8>> {
    let mut v = Value::from_id(id)?;
    for _ in 0..4 {
        let Value::Op(h) = v else { break };
        let base = match &fx.f.ops.get(h)?.inst {
            Instruction::Bitcast(b) => b.operand,
            Instruction::InBoundsPtrAccessChain(c) => c.base,
            Instruction::PtrAccessChain(c) => c.base,
            Instruction::InBoundsAccessChain(c) => c.base,
            Instruction::AccessChain(c) => c.base,
            Instruction::PtrCastToGeneric(c) => c.pointer,
            _ => return None,
        };
        v = Value::from_id(base)?;
    }
    let Value::Global(g) = v else { return None };
    let Some(Value::Constant(c)) = l.m.globals.get(g)?.initializer else {
        return None;
    };
    let ConstantValue::Composite(parts) = &l.m.constants.get(c)?.value else {
        return None;
    };
    let mut bytes = Vec::new();
    for p in parts {
        let Value::Constant(pc) = p else { return None };
        let b = match &l.m.constants.get(*pc)?.value {
            ConstantValue::Scalar(n) => n.low_u64() as u8,
            ConstantValue::Null => 0,
            _ => return None,
        };
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    Some(bytes)
}

/// Whether an OpenCL `printf` call passes a vector.
pub(crate) fn has_vectors(args: &[BasicValueEnum<'_>]) -> bool {
    args.iter().any(|a| a.is_vector_value())
}

/// The arguments and format for C's `printf` of a call with vector arguments: the rewritten
/// format as a new constant string, then every scalar or element, promoted.
pub(crate) fn expand<'ctx>(
    l: &mut Lowerer<'_, 'ctx>,
    fx: &FnCx<'_, 'ctx>,
    format: Id,
    args: &[BasicValueEnum<'ctx>],
) -> Result<Vec<BasicMetadataValueEnum<'ctx>>> {
    let bytes = constant_string(l, fx, format).ok_or_else(|| {
        LowerError::unsupported("printf of a vector with a format that is not a constant string")
    })?;
    let mut fmt = String::new();
    let mut out: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
    let mut next = args.iter();
    let (i64t, f64t) = (l.cx.i64_type(), l.cx.f64_type());
    for piece in parse(&bytes)? {
        let c = match piece {
            Piece::Text(text) => {
                fmt.push_str(&text);
                continue;
            }
            Piece::Conv(c) => c,
        };
        let arg = *next
            .next()
            .ok_or_else(|| LowerError::malformed("printf with fewer arguments than conversions"))?;
        let signed = matches!(c.conv, 'd' | 'i');
        if c.lanes == 0 {
            fmt.push_str(&c.head);
            fmt.push(c.conv);
            out.push(promote(l, arg, signed)?.into());
            continue;
        }
        let BasicValueEnum::VectorValue(vv) = arg else {
            return Err(LowerError::malformed(
                "a printf vector conversion of a scalar",
            ));
        };
        for k in 0..c.lanes {
            if k > 0 {
                fmt.push(',');
            }
            fmt.push_str(&c.head);
            let e =
                l.b.build_extract_element(vv, l.cx.i32_type().const_int(k.into(), false), "")?;
            let e = match e {
                BasicValueEnum::FloatValue(x) => {
                    l.b.build_float_ext(x, f64t, "")?.as_basic_value_enum()
                }
                BasicValueEnum::IntValue(x) => {
                    fmt.push_str("ll");
                    if signed {
                        l.b.build_int_s_extend_or_bit_cast(x, i64t, "")?.into()
                    } else {
                        l.b.build_int_z_extend_or_bit_cast(x, i64t, "")?.into()
                    }
                }
                _ => return Err(LowerError::malformed("a printf vector of non-scalars")),
            };
            fmt.push(c.conv);
            out.push(e.into());
        }
    }
    for extra in next {
        out.push(promote(l, *extra, false)?.into());
    }
    let mut z = fmt.into_bytes();
    z.push(0);
    let s = l.cx.const_string(&z, false);
    let g = l.llm.add_global(
        s.get_type(),
        Some(AddressSpace::default()),
        "spv.printf.format",
    );
    g.set_initializer(&s);
    g.set_constant(true);
    g.set_linkage(inkwell::module::Linkage::Private);
    out.insert(0, g.as_pointer_value().into());
    Ok(out)
}

/// A scalar argument after C's variadic promotions (floats to `double`, narrower integers to
/// 32 bits).
pub(crate) fn promote<'ctx>(
    l: &mut Lowerer<'_, 'ctx>,
    v: BasicValueEnum<'ctx>,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    Ok(match v {
        BasicValueEnum::FloatValue(x) => {
            l.b.build_float_ext(x, l.cx.f64_type(), "")?
                .as_basic_value_enum()
        }
        BasicValueEnum::IntValue(x) if x.get_type().get_bit_width() < 32 => {
            let i32t = l.cx.i32_type();
            if signed {
                l.b.build_int_s_extend(x, i32t, "")?.into()
            } else {
                l.b.build_int_z_extend(x, i32t, "")?.into()
            }
        }
        v => v,
    })
}
