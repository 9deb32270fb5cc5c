//! Numeric literals of the assembly text, parsed exactly as SPIRV-Tools 2023.1 parses them.
//!
//! - Integers are read like C++ `istream >> std::setbase(0)`: an optional `+` or `-`, then
//!   decimal, `0x` hexadecimal or `0` octal digits, and nothing else. A hex literal with the
//!   sign bit of its type set is sign-extended (`0xffff` for a 16-bit signed type is -1, written
//!   `0xffffffff`); narrower signed values are sign-extended to the whole word.
//! - Floats are a hex float (`0x1.8p+3`, `-0x1p-128`: `p` and a decimal exponent required,
//!   extra mantissa bits truncated, exponents saturating, `0x1p+128` is infinity and
//!   `0x1.8p+128` a NaN) or a decimal number (`1.5`, `-2e-3`, correctly rounded; overflow is an
//!   error, underflow is not). A 16-bit decimal float is rounded to 32 bits, then toward zero to
//!   16 bits.

use core::fmt;

/// The type a literal number is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberType {
    /// An integer of `width` bits.
    Int {
        /// Width in bits.
        width: u32,
        /// Whether negative values are allowed and narrow values sign-extended.
        signed: bool,
    },
    /// An IEEE float of `width` bits.
    Float {
        /// Width in bits.
        width: u32,
    },
}

/// Why a literal number was not encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// The text is not a number of the type, or the number is out of range. An optional operand
    /// that fails this way is simply absent.
    InvalidText(String),
    /// The number cannot be used there (a negative number for an unsigned type).
    InvalidUsage(String),
    /// The type's width is not supported (integers wider than 64 bits; floats other than 16,
    /// 32 and 64 bits).
    Unsupported(String),
}

impl NumberError {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            NumberError::InvalidText(m)
            | NumberError::InvalidUsage(m)
            | NumberError::Unsupported(m) => m,
        }
    }
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for NumberError {}

/// Reads an integer like `istream >> setbase(0)` into a type whose largest magnitudes are
/// `neg_limit` (after a `-`) and `pos_limit`; the whole text must be used. Returns the sign and
/// the magnitude.
fn istream_int(s: &[u8], neg_limit: u64, pos_limit: u64) -> Option<(bool, u64)> {
    let (neg, rest) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (base, digits): (u64, &[u8]) = match rest {
        [b'0', b'x' | b'X', d @ ..] => (16, d),
        [b'0', ..] => (8, rest),
        _ => (10, rest),
    };
    if digits.is_empty() {
        return None;
    }
    let limit = if neg { neg_limit } else { pos_limit };
    let mut v: u64 = 0;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'f' => u64::from(c - b'a' + 10),
            b'A'..=b'F' => u64::from(c - b'A' + 10),
            _ => return None,
        };
        if d >= base {
            return None;
        }
        v = v.checked_mul(base)?.checked_add(d)?;
        if v > limit {
            return None;
        }
    }
    Some((neg, v))
}

/// `ParseNumber<uint64_t>`: the whole text as an unsigned 64-bit integer; `-` only before zero.
fn parse_u64(s: &[u8]) -> Option<u64> {
    match istream_int(s, u64::MAX, u64::MAX)? {
        (true, 0) => Some(0),
        (true, _) => None,
        (false, v) => Some(v),
    }
}

/// `ParseNumber<int64_t>`.
fn parse_i64(s: &[u8]) -> Option<i64> {
    let (neg, v) = istream_int(s, 1u64 << 63, (1u64 << 63) - 1)?;
    Some(if neg {
        (v as i64).wrapping_neg()
    } else {
        v as i64
    })
}

/// `ParseNumber<uint32_t>`, as used for `!<integer>` words and for numeric ids: decimal, `0x`
/// hex or `0` octal, with an optional `+` (or a `-` before zero).
pub fn parse_u32(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    // Fast path: plain decimal.
    if !b.is_empty() && b.len() < 10 && b[0] != b'0' && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0')));
    }
    match istream_int(b, u64::from(u32::MAX), u64::from(u32::MAX))? {
        (true, 0) => Some(0),
        (true, _) => None,
        (false, v) => Some(v as u32),
    }
}

/// Encodes a literal number of type `ty` into `out` (one word up to 32 bits, two up to 64).
pub fn encode_number(text: &str, ty: NumberType, out: &mut Vec<u32>) -> Result<(), NumberError> {
    match ty {
        NumberType::Int { width, signed } => encode_integer(text, width, signed, out),
        NumberType::Float { width } => encode_float(text, width, out),
    }
}

/// Encodes an integer literal (`ParseAndEncodeIntegerNumber`).
fn encode_integer(
    text: &str,
    width: u32,
    signed: bool,
    out: &mut Vec<u32>,
) -> Result<(), NumberError> {
    let b = text.as_bytes();
    // Fast path: a plain decimal that fits in 32 bits, for a 32-bit type.
    if width == 32
        && !b.is_empty()
        && b.len() <= 9
        && b[0] != b'0'
        && b.iter().all(u8::is_ascii_digit)
    {
        let v = b.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'));
        if !signed || v <= i32::MAX as u32 {
            out.push(v);
            return Ok(());
        }
    }
    if width > 64 {
        return Err(NumberError::Unsupported(format!(
            "Unsupported {width}-bit integer literals"
        )));
    }
    let negative = b.first() == Some(&b'-');
    if negative && !signed {
        return Err(NumberError::InvalidUsage(
            "Cannot put a negative number in an unsigned literal".to_owned(),
        ));
    }
    let is_hex = matches!(b, [b'0', b'x' | b'X', ..]);
    let sign_word = if signed { "signed" } else { "unsigned" };
    let mut magnitude_mask: u64 = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let overflow_mask = !magnitude_mask;
    let mut sign_mask = 0u64;
    let bits: u64 = if negative {
        let v = parse_i64(b).ok_or_else(|| {
            NumberError::InvalidText(format!("Invalid signed integer literal: {text}"))
        })?;
        if v < 0 || signed {
            magnitude_mask >>= 1;
            sign_mask = magnitude_mask + 1;
        }
        let u = v as u64;
        let failed = if v < 0 {
            (u & overflow_mask) != overflow_mask || (u & sign_mask) != sign_mask
        } else {
            (u & magnitude_mask) != u
        };
        if failed {
            return Err(NumberError::InvalidText(format!(
                "Integer {v} does not fit in a {width}-bit {sign_word} integer"
            )));
        }
        u
    } else {
        let v = parse_u64(b).ok_or_else(|| {
            NumberError::InvalidText(format!("Invalid unsigned integer literal: {text}"))
        })?;
        if signed {
            magnitude_mask >>= 1;
            sign_mask = magnitude_mask + 1;
        }
        let failed = if is_hex {
            v & overflow_mask != 0
        } else {
            (v & magnitude_mask) != v
        };
        if failed {
            let shown = if is_hex && v != 0 {
                format!("{v:#x}")
            } else {
                v.to_string()
            };
            return Err(NumberError::InvalidText(format!(
                "Integer {shown} does not fit in a {width}-bit {sign_word} integer"
            )));
        }
        if is_hex && v & sign_mask != 0 {
            v | overflow_mask
        } else {
            v
        }
    };
    out.push(bits as u32);
    if width > 32 {
        out.push((bits >> 32) as u32);
    }
    Ok(())
}

/// Encodes a float literal (`ParseAndEncodeFloatingPointNumber`).
fn encode_float(text: &str, width: u32, out: &mut Vec<u32>) -> Result<(), NumberError> {
    let bad = || NumberError::InvalidText(format!("Invalid {width}-bit float literal: {text}"));
    match width {
        16 => out.push(u32::from(parse_f16(text).ok_or_else(bad)?)),
        32 => out.push(parse_f32(text).ok_or_else(bad)?),
        64 => {
            let v = parse_f64(text).ok_or_else(bad)?;
            out.push(v as u32);
            out.push((v >> 32) as u32);
        }
        _ => {
            return Err(NumberError::Unsupported(format!(
                "Unsupported {width}-bit float literals"
            )))
        }
    }
    Ok(())
}

/// An IEEE binary format: total, exponent and fraction bits.
#[derive(Clone, Copy)]
struct Format {
    bits: u32,
    exponent_bits: u32,
    fraction_bits: u32,
}

const HALF: Format = Format {
    bits: 16,
    exponent_bits: 5,
    fraction_bits: 10,
};
const SINGLE: Format = Format {
    bits: 32,
    exponent_bits: 8,
    fraction_bits: 23,
};
const DOUBLE: Format = Format {
    bits: 64,
    exponent_bits: 11,
    fraction_bits: 52,
};

/// The bits of a 16-bit float literal.
pub fn parse_f16(text: &str) -> Option<u16> {
    parse_float(text.as_bytes(), HALF).map(|v| v as u16)
}

/// The bits of a 32-bit float literal.
pub fn parse_f32(text: &str) -> Option<u32> {
    parse_float(text.as_bytes(), SINGLE).map(|v| v as u32)
}

/// The bits of a 64-bit float literal.
pub fn parse_f64(text: &str) -> Option<u64> {
    parse_float(text.as_bytes(), DOUBLE)
}

/// `ParseNumber<HexFloat<...>>`: a hex float, or a decimal one.
fn parse_float(s: &[u8], f: Format) -> Option<u64> {
    match s {
        [b'-', b'0', b'x' | b'X', rest @ ..] => parse_hex_float(rest, true, f),
        [b'0', b'x' | b'X', rest @ ..] => parse_hex_float(rest, false, f),
        [b'-', rest @ ..] => {
            if matches!(rest.first(), Some(b'-' | b'+')) {
                return None;
            }
            parse_decimal(rest, f).map(|v| v ^ (1u64 << (f.bits - 1)))
        }
        _ => parse_decimal(s, f),
    }
}

/// Whether the whole text is what `num_get` reads as a float: a sign, digits with at most one
/// `.`, then (after at least one digit) `e` or `E`, a sign and digits.
fn num_get_float_syntax(s: &[u8]) -> bool {
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let (mut mantissa, mut dot, mut sci) = (false, false, false);
    while let Some(&c) = s.get(i) {
        match c {
            b'0'..=b'9' => mantissa = true,
            b'.' if !dot && !sci => dot = true,
            b'e' | b'E' if !sci && mantissa => {
                sci = true;
                if matches!(s.get(i + 1), Some(b'+' | b'-')) {
                    i += 1;
                }
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

/// A decimal float (`ParseNormalFloat`): read as a C++ `float` (`double` for 64 bits) by the
/// C++ library, failing on overflow; 16-bit values are then cut toward zero.
fn parse_decimal(s: &[u8], f: Format) -> Option<u64> {
    if !num_get_float_syntax(s) {
        return None;
    }
    let text = core::str::from_utf8(s).ok()?;
    if f.bits == 64 {
        let v: f64 = text.parse().ok()?;
        return (!v.is_infinite()).then(|| v.to_bits());
    }
    let v: f32 = text.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    if f.bits == 32 {
        return Some(u64::from(v.to_bits()));
    }
    let h = f32_to_f16_toward_zero(v.to_bits());
    (h & 0x7fff != 0x7c00).then_some(u64::from(h))
}

/// `HexFloat<float>::castTo<HexFloat<Float16>>(round_direction::kToZero)`.
fn f32_to_f16_toward_zero(bits: u32) -> u16 {
    let negative = bits >> 31 != 0;
    let sign: u16 = if negative { 0x8000 } else { 0 };
    if bits & 0x7fff_ffff == 0 {
        return sign;
    }
    let significand = bits & 0x7f_ffff;
    let exponent_bits = (bits >> 23) & 0xff;
    let mut exponent = exponent_bits as i32 - 127;
    // The significand normalized (a denormal's leading 1 shifted out), then truncated.
    let normalized = {
        let mut e = exponent;
        if e == -127 {
            let mut s = significand;
            while s & (1 << 22) == 0 {
                s <<= 1;
                e -= 1;
            }
        }
        let mut s = significand;
        let mut i = e;
        while i <= -127 {
            s <<= 1;
            i += 1;
        }
        s & 0x7f_ffff
    };
    let rounded = (normalized >> 13) as u16;
    if exponent == -127 {
        exponent += 1;
        let mut check = 1u32 << 22;
        while check != 0 {
            exponent -= 1;
            if check & significand != 0 {
                break;
            }
            check >>= 1;
        }
    }
    let is_nan = exponent_bits == 0xff && significand != 0;
    let is_inf = !is_nan && (exponent > 15 || (significand == 0 && exponent_bits == 0xff));
    if is_inf {
        return sign | 0x7c00;
    }
    if is_nan {
        let shifted = (significand >> 13) as u16;
        return sign | 0x7c00 | if shifted == 0 { 1 } else { shifted };
    }
    // setFromSignUnbiasedExponentAndNormalizedSignificand, never rounding an underflow up.
    let mut s = rounded;
    let mut e = exponent;
    if e <= -15 {
        s |= 1 << 10;
        s >>= 1;
    }
    while e < -15 {
        s >>= 1;
        e += 1;
    }
    let e = ((e + 15) as u16) << 10 & 0x7c00;
    sign | e | (s & 0x3ff)
}

/// The hex float after `0x`: hex digits with an optional `.`, then `p`, an optional sign and
/// decimal digits. Bits beyond the format are dropped (truncation), exponents saturate.
fn parse_hex_float(s: &[u8], negative: bool, f: Format) -> Option<u64> {
    let w = f.bits;
    let umask: u64 = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let imax: i64 = if w == 64 {
        i64::MAX
    } else {
        (1i64 << (w - 1)) - 1
    };
    let imin: i64 = if w == 64 {
        i64::MIN
    } else {
        -(1i64 << (w - 1))
    };
    let bias = (1i64 << (f.exponent_bits - 1)) - 1;

    let mut fraction: u64 = 0;
    let mut index: u64 = 0;
    let mut exponent: i64 = bias;
    let set_bit = |fraction: &mut u64, index: &mut u64, bit: bool| {
        if bit && *index < u64::from(w) {
            *fraction |= 1u64 << (u64::from(w) - 1 - *index);
        }
        if *index < umask {
            *index += 1;
        }
    };

    let mut i = 0;
    while s.get(i) == Some(&b'0') {
        i += 1;
    }
    let mut has_integer_part = false;
    let mut bits_written = false;
    let mut seen_dot = false;
    // Integer part.
    loop {
        match s.get(i) {
            Some(b'.') => {
                seen_dot = true;
                i += 1;
                break;
            }
            Some(b'p') => {
                i += 1;
                break;
            }
            Some(&c) if c.is_ascii_hexdigit() => {
                has_integer_part = true;
                let nibble = hex_value(c);
                for k in (0..4).rev() {
                    let bit = (nibble >> k) & 1 != 0;
                    if bits_written {
                        set_bit(&mut fraction, &mut index, bit);
                        if exponent == imax {
                            return None;
                        }
                        exponent += 1;
                    }
                    bits_written |= bit;
                }
                i += 1;
            }
            _ => return None,
        }
    }
    // Fraction part.
    if seen_dot {
        bits_written = false;
        loop {
            match s.get(i) {
                Some(b'p') => {
                    i += 1;
                    break;
                }
                Some(&c) if c.is_ascii_hexdigit() => {
                    let nibble = hex_value(c);
                    for k in (0..4).rev() {
                        let bit = (nibble >> k) & 1 != 0;
                        bits_written |= bit;
                        if !has_integer_part && !bits_written {
                            if exponent == imin {
                                return None;
                            }
                            exponent -= 1;
                        } else {
                            set_bit(&mut fraction, &mut index, bit);
                        }
                    }
                    i += 1;
                }
                _ => return None,
            }
        }
    }
    // Exponent.
    let overflow = imax - 1;
    let mut sign_seen = false;
    let mut exp_sign: i64 = 1;
    let mut digits = false;
    let mut written: i64 = 0;
    while let Some(&c) = s.get(i) {
        match c {
            b'-' | b'+' if !digits => {
                if sign_seen {
                    return None;
                }
                sign_seen = true;
                exp_sign = if c == b'-' { -1 } else { 1 };
            }
            b'0'..=b'9' => {
                digits = true;
                let d = i64::from(c - b'0');
                if written >= (overflow - d) / 10 {
                    written = overflow;
                } else {
                    written = written * 10 + d;
                }
            }
            _ => return None,
        }
        i += 1;
    }
    if !digits {
        return None;
    }
    let written = written * exp_sign;
    if written >= 0 && exponent >= 0 {
        exponent = if overflow - exponent > written {
            written + exponent
        } else {
            overflow
        };
    } else if written < 0 && exponent < 0 {
        exponent = if overflow + exponent > -written {
            written + exponent
        } else {
            -overflow
        };
    } else {
        exponent += written;
    }

    let top = 1u64 << (w - 1);
    let mut is_zero = !has_integer_part && fraction == 0;
    if !has_integer_part && !is_zero {
        fraction = (fraction << 1) & umask;
        exponent -= 1;
    } else if is_zero {
        exponent = 0;
    }
    if exponent <= 0 && !is_zero {
        fraction = (fraction >> 1) | top;
    }
    let fraction_mask = (1u64 << f.fraction_bits) - 1;
    fraction = (fraction >> (w - f.fraction_bits)) & fraction_mask;
    let max_exponent = (1i64 << f.exponent_bits) - 1;
    while exponent < 0 && !is_zero {
        fraction = (fraction >> 1) & fraction_mask;
        exponent += 1;
        if fraction == 0 {
            is_zero = true;
            exponent = 0;
        }
    }
    if exponent > max_exponent {
        exponent = max_exponent;
        fraction = 0;
    }
    let sign = if negative { top } else { 0 };
    let exponent_mask = ((1u64 << f.exponent_bits) - 1) << f.fraction_bits;
    Some(sign | fraction | (((exponent as u64) << f.fraction_bits) & exponent_mask))
}

fn hex_value(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c.wrapping_sub(b'A').wrapping_add(10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, ty: NumberType) -> Result<Vec<u32>, NumberError> {
        let mut v = Vec::new();
        encode_number(text, ty, &mut v).map(|()| v)
    }

    const I32: NumberType = NumberType::Int {
        width: 32,
        signed: true,
    };
    const U32: NumberType = NumberType::Int {
        width: 32,
        signed: false,
    };
    const I16: NumberType = NumberType::Int {
        width: 16,
        signed: true,
    };
    const I64: NumberType = NumberType::Int {
        width: 64,
        signed: true,
    };
    const F16: NumberType = NumberType::Float { width: 16 };
    const F32: NumberType = NumberType::Float { width: 32 };
    const F64: NumberType = NumberType::Float { width: 64 };

    #[test]
    fn integers() {
        assert_eq!(words("010", I32), Ok(vec![8]));
        assert_eq!(words("+5", I32), Ok(vec![5]));
        assert_eq!(words("-0x10", I32), Ok(vec![0xffff_fff0]));
        assert_eq!(words("0xffff", I16), Ok(vec![0xffff_ffff]));
        assert_eq!(words("-1", I16), Ok(vec![0xffff_ffff]));
        assert_eq!(words("-1", I64), Ok(vec![u32::MAX, u32::MAX]));
        assert_eq!(words("0x8000000000000000", I64), Ok(vec![0, 0x8000_0000]));
        assert_eq!(
            words("4294967296", I32).unwrap_err().message(),
            "Integer 4294967296 does not fit in a 32-bit signed integer"
        );
        assert_eq!(
            words("0x1ffff", I16).unwrap_err().message(),
            "Integer 0x1ffff does not fit in a 16-bit signed integer"
        );
        assert_eq!(
            words("-1", U32).unwrap_err(),
            NumberError::InvalidUsage("Cannot put a negative number in an unsigned literal".into())
        );
        assert_eq!(
            words("08", U32).unwrap_err().message(),
            "Invalid unsigned integer literal: 08"
        );
        assert_eq!(
            words("0x", U32).unwrap_err().message(),
            "Invalid unsigned integer literal: 0x"
        );
        assert_eq!(
            words("-9223372036854775809", I64).unwrap_err().message(),
            "Invalid signed integer literal: -9223372036854775809"
        );
        assert_eq!(parse_u32("0x10"), Some(16));
        assert_eq!(parse_u32("-0"), Some(0));
        assert_eq!(parse_u32("-1"), None);
        assert_eq!(parse_u32("4294967296"), None);
    }

    #[test]
    fn floats() {
        let f = |s: &str| words(s, F32).map(|v| v[0]);
        assert_eq!(f("0x1.0000018p0"), Ok(0x3f80_0000));
        assert_eq!(f("0x1p-127"), Ok(0x0040_0000));
        assert_eq!(f("0x1.8p-127"), Ok(0x0060_0000));
        assert_eq!(f("0x1p-149"), Ok(1));
        assert_eq!(f("0x1p-150"), Ok(0));
        assert_eq!(f("0x1.8p128"), Ok(0x7fc0_0000));
        assert_eq!(f("-0x1.8p128"), Ok(0xffc0_0000));
        assert_eq!(f("0x1p4294967296"), Ok(0x7f80_0000));
        assert_eq!(f("0x123456789abcdef0p0"), Ok(0x5d91_a2b3));
        assert_eq!(f("0x.1p0"), Ok(0x3d80_0000));
        assert_eq!(f("0xp1"), Ok(0));
        assert_eq!(f("-0x0p0"), Ok(0x8000_0000));
        assert_eq!(f("1e-50"), Ok(0));
        assert_eq!(f("-0.0"), Ok(0x8000_0000));
        assert_eq!(f("1.e1"), Ok(0x4120_0000));
        for bad in [
            "0x1p", "0x1p1-", "0x1p+-1", "0x1P1", "1e39", "inf", "1e", "--1", "-+1", "0x1",
        ] {
            assert!(f(bad).is_err(), "{bad}");
        }
        assert_eq!(words("0.1", F64), Ok(vec![0x9999_999a, 0x3fb9_9999]));
        assert_eq!(words("0x1p+1024", F64), Ok(vec![0, 0x7ff0_0000]));
        assert_eq!(words("1.5", F16), Ok(vec![0x3e00]));
        assert_eq!(words("65520", F16), Ok(vec![0x7bff]));
        assert!(words("65536", F16).is_err());
        assert_eq!(words("0x1.000000008p0", F16), Ok(vec![0x3c00]));
        assert_eq!(
            words("1", NumberType::Float { width: 8 })
                .unwrap_err()
                .message(),
            "Unsupported 8-bit float literals"
        );
    }
}
