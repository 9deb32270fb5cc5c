//! Number formatting the way SPIRV-Tools' disassembler writes numbers, appended to a byte
//! buffer without allocating:
//!
//! - integers in decimal (a two-digits-at-a-time conversion);
//! - 32- and 64-bit floats that are zero or normal like C++'s `ostream << value` with
//!   `precision(max_digits10)` (that is `printf("%.9g")` / `"%.17g"`);
//! - subnormal, infinite and NaN floats, and every 16-bit float, as SPIRV-Tools' hex floats
//!   (`0x1.8p+128`, `-0x1p-149`, `0x0p+0`).

use super::numeric::NumericType;
use std::io::Write as _;

const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `v` in decimal.
#[inline]
pub(crate) fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let d = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i] = DIGIT_PAIRS[d];
        buf[i + 1] = DIGIT_PAIRS[d + 1];
    }
    if v >= 10 {
        let d = v as usize * 2;
        i -= 2;
        buf[i] = DIGIT_PAIRS[d];
        buf[i + 1] = DIGIT_PAIRS[d + 1];
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends `v` in decimal.
#[inline]
pub(crate) fn write_u32(out: &mut Vec<u8>, v: u32) {
    if v < 10 {
        out.push(b'0' + v as u8);
    } else {
        write_u64(out, u64::from(v));
    }
}

/// Appends `v` in decimal, with a leading `-` when negative.
#[inline]
pub(crate) fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

/// Appends `v` in lower-case hexadecimal, zero-padded to at least `width` digits.
pub(crate) fn write_hex_padded(out: &mut Vec<u8>, v: u64, width: usize) {
    let mut buf = [0u8; 16];
    let mut i = buf.len();
    let mut x = v;
    loop {
        i -= 1;
        buf[i] = b"0123456789abcdef"[(x & 0xf) as usize];
        x >>= 4;
        if x == 0 {
            break;
        }
    }
    for _ in (buf.len() - i)..width {
        out.push(b'0');
    }
    out.extend_from_slice(&buf[i..]);
}

/// The layout of a binary floating-point format.
struct Format {
    exponent_bits: u32,
    fraction_bits: u32,
}

const HALF: Format = Format {
    exponent_bits: 5,
    fraction_bits: 10,
};
const SINGLE: Format = Format {
    exponent_bits: 8,
    fraction_bits: 23,
};
const DOUBLE: Format = Format {
    exponent_bits: 11,
    fraction_bits: 52,
};

/// Appends a float's bits as SPIRV-Tools' hex float: sign, `0x1.` and the fraction nibbles
/// without trailing zeros (subnormals normalized), then `p` and the signed exponent.
fn write_hex_float(out: &mut Vec<u8>, bits: u64, f: &Format) {
    let nibbles = f.fraction_bits.div_ceil(4);
    let width = nibbles * 4;
    let overflow = width - f.fraction_bits;
    let negative = (bits >> (f.exponent_bits + f.fraction_bits)) & 1 == 1;
    let exponent = (bits >> f.fraction_bits) & ((1u64 << f.exponent_bits) - 1);
    let bias = (1i64 << (f.exponent_bits - 1)) - 1;
    let mut fraction = (bits & ((1u64 << f.fraction_bits) - 1)) << overflow;
    let is_zero = exponent == 0 && fraction == 0;
    let mut exp = if is_zero { 0 } else { exponent as i64 - bias };
    if exponent == 0 && !is_zero {
        // Normalize: shift until the leading one is in the top bit, then drop it.
        let top = 1u64 << (width - 1);
        while fraction & top == 0 {
            fraction <<= 1;
            exp -= 1;
        }
        fraction = (fraction << 1) & ((1u64 << width) - 1);
    }
    let mut shown = nibbles;
    while shown > 0 && fraction & 0xf == 0 {
        fraction >>= 4;
        shown -= 1;
    }
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(if is_zero { b"0x0" } else { b"0x1" });
    if shown > 0 {
        out.push(b'.');
        write_hex_padded(out, fraction, shown as usize);
    }
    out.push(b'p');
    if exp >= 0 {
        out.push(b'+');
    }
    write_i64(out, exp);
}

/// Appends a finite `v` like `printf("%.{precision}g", v)`: `precision` significant digits,
/// fixed notation when the decimal exponent is in `-4..precision`, scientific (`1e+10`)
/// otherwise, trailing fractional zeros removed.
fn write_general(out: &mut Vec<u8>, v: f64, precision: usize) {
    if v == 0.0 {
        out.extend_from_slice(if v.is_sign_negative() { b"-0" } else { b"0" });
        return;
    }
    // Rust's exact formatting rounds half to even, like glibc's printf.
    let mut buf = [0u8; 48];
    let len = {
        let mut cursor = std::io::Cursor::new(&mut buf[..]);
        if write!(cursor, "{:.*e}", precision - 1, v.abs()).is_err() {
            return;
        }
        cursor.position() as usize
    };
    let text = &buf[..len];
    let Some(e_at) = text.iter().position(|&c| c == b'e') else {
        return;
    };
    let mut digits = [0u8; 24];
    let mut n = 0;
    for &c in &text[..e_at] {
        if c.is_ascii_digit() && n < digits.len() {
            digits[n] = c;
            n += 1;
        }
    }
    let mut exp: i32 = 0;
    let mut exp_negative = false;
    for &c in &text[e_at + 1..] {
        match c {
            b'-' => exp_negative = true,
            b'0'..=b'9' => exp = exp * 10 + i32::from(c - b'0'),
            _ => {}
        }
    }
    if exp_negative {
        exp = -exp;
    }
    // Significant digits without trailing zeros.
    let mut sig = n;
    while sig > 1 && digits[sig - 1] == b'0' {
        sig -= 1;
    }
    if v < 0.0 {
        out.push(b'-');
    }
    if exp < -4 || exp >= precision as i32 {
        out.push(digits[0]);
        if sig > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..sig]);
        }
        out.push(b'e');
        out.push(if exp < 0 { b'-' } else { b'+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push(b'0');
        }
        write_u32(out, e);
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        out.extend_from_slice(&digits[..int_len.min(n)]);
        for _ in n..int_len {
            out.push(b'0');
        }
        if sig > int_len {
            out.push(b'.');
            out.extend_from_slice(&digits[int_len..sig]);
        }
    } else {
        out.extend_from_slice(b"0.");
        for _ in 0..(-exp - 1) {
            out.push(b'0');
        }
        out.extend_from_slice(&digits[..sig]);
    }
}

/// Appends a 32-bit float given by its bits.
pub(crate) fn write_f32(out: &mut Vec<u8>, bits: u32) {
    let v = f32::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        write_general(out, f64::from(v), 9);
    } else {
        write_hex_float(out, u64::from(bits), &SINGLE);
    }
}

/// Appends a 64-bit float given by its bits.
pub(crate) fn write_f64(out: &mut Vec<u8>, bits: u64) {
    let v = f64::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        write_general(out, v, 17);
    } else {
        write_hex_float(out, bits, &DOUBLE);
    }
}

/// Appends a 16-bit float given by its bits: always a hex float.
pub(crate) fn write_f16(out: &mut Vec<u8>, bits: u16) {
    write_hex_float(out, u64::from(bits), &HALF);
}

/// Appends a literal number whose width and kind come from its type, as SPIRV-Tools'
/// `EmitNumericLiteral`: one word as a 32-bit signed or unsigned integer or a 32-bit (16-bit
/// when the type says so) float, two words as 64-bit ones; other sizes print nothing.
pub(crate) fn write_literal_number(out: &mut Vec<u8>, ty: NumericType, words: &[u32]) {
    use NumericType::{Float, Int};
    match *words {
        [w] => match ty {
            Int { signed: true, .. } => write_i64(out, i64::from(w as i32)),
            Int { signed: false, .. } => write_u32(out, w),
            Float { width: 16 } => write_f16(out, w as u16),
            Float { .. } => write_f32(out, w),
        },
        [lo, hi] => {
            let v = u64::from(lo) | (u64::from(hi) << 32);
            match ty {
                Int { signed: true, .. } => write_i64(out, v as i64),
                Int { signed: false, .. } => write_u64(out, v),
                Float { .. } => write_f64(out, v),
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(f: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut v = Vec::new();
        f(&mut v);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn integers() {
        for v in [0u64, 1, 9, 10, 99, 100, 12345, u32::MAX as u64, u64::MAX] {
            assert_eq!(s(|o| write_u64(o, v)), v.to_string());
        }
        assert_eq!(s(|o| write_i64(o, i64::MIN)), i64::MIN.to_string());
        assert_eq!(s(|o| write_hex_padded(o, 0x14, 8)), "00000014");
        assert_eq!(s(|o| write_hex_padded(o, 0x1234567890, 8)), "1234567890");
    }

    #[test]
    fn floats() {
        let f = |x: f32| s(|o| write_f32(o, x.to_bits()));
        assert_eq!(f(0.5), "0.5");
        assert_eq!(f(-0.1), "-0.100000001");
        assert_eq!(f(1e10), "1e+10");
        assert_eq!(f(100.0), "100");
        assert_eq!(f(123456789.0), "123456792");
        assert_eq!(f(1_234_567.125_f64 as f32), "1234567.12");
        assert_eq!(f(1e-5), "9.99999975e-06");
        assert_eq!(f(0.0001), "9.99999975e-05");
        assert_eq!(f(-0.0), "-0");
        assert_eq!(f(f32::INFINITY), "0x1p+128");
        assert_eq!(s(|o| write_f32(o, 0xffc0_0000)), "-0x1.8p+128");
        assert_eq!(s(|o| write_f32(o, 1)), "0x1p-149");
        assert_eq!(s(|o| write_f32(o, 0x007f_ffff)), "0x1.fffffcp-127");
        assert_eq!(s(|o| write_f32(o, 0x7f80_0001)), "0x1.000002p+128");
        let d = |x: f64| s(|o| write_f64(o, x.to_bits()));
        assert_eq!(d(0.1), "0.10000000000000001");
        assert_eq!(d(1e300), "1.0000000000000001e+300");
        assert_eq!(s(|o| write_f64(o, 1)), "0x1p-1074");
        assert_eq!(s(|o| write_f64(o, 0x7ff0_0000_0000_0000)), "0x1p+1024");
        let h = |b: u16| s(|o| write_f16(o, b));
        assert_eq!(h(0x3c00), "0x1p+0");
        assert_eq!(h(0x3e00), "0x1.8p+0");
        assert_eq!(h(0x8000), "-0x0p+0");
        assert_eq!(h(0x0001), "0x1p-24");
        assert_eq!(h(0x2345), "0x1.d14p-7");
        assert_eq!(h(0xfe00), "-0x1.8p+16");
    }
}
