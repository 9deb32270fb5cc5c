//! Fast paths for the big number arrays of `spvkit run`'s JSON: a job's `"data"` arrays are
//! read straight into bytes, and output values are written without `std::fmt`.
//!
//! A job with 16M floats is 200 MB of text; as `serde_json::Value`s it took over a gigabyte and
//! most of a SAXPY run. [`split_data_arrays`] cuts every large `"data": [...]` array of
//! numbers out of the text before serde_json sees it (leaving a placeholder string), and
//! [`pack_text`] packs such an array by its layout in one pass. The result is the same as
//! through `Value`s: numbers are read as f64 (or as integers) and encoded by
//! [`ScalarType::encode`]'s rules, and anything but a plain JSON number (a string such as
//! `"nan"`, `true`, a malformed token) goes through serde_json and `encode` itself.
//!
//! [`write_f32`] and [`write_f64`] print what `{:?}` prints (the shortest text that reads back
//! to the same value; exponent notation below 1e-4 and from 1e16), from the digits of the
//! `zmij` crate (serde_json's own float printer); `tests` compare them with `{:?}`.

use super::job::JobError;
use super::layout::ScalarType;

/// Arrays shorter than this many bytes of text stay in the serde_json document.
const MIN_SPLIT: usize = 4096;

/// The prefix of the placeholder string that replaces a cut-out array (`"\u0000data N"`).
const PLACEHOLDER: &str = "\u{0}data ";

/// The JSON text with large `"data"` number arrays replaced by placeholders, and the arrays'
/// texts (the part between the brackets) in placeholder order.
pub(crate) fn split_data_arrays(text: &str) -> (std::borrow::Cow<'_, str>, Vec<&str>) {
    if text.len() < MIN_SPLIT {
        return (text.into(), Vec::new());
    }
    let b = text.as_bytes();
    let mut out = String::new();
    let mut arrays = Vec::new();
    let mut copied = 0usize;
    let mut i = 0usize;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        // A string: find its end.
        let start = i;
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        i += 1;
        if i > b.len() || &b[start..i] != b"\"data\"" {
            continue;
        }
        // A key `"data"` followed by `:` and `[`?
        let mut j = skip_ws(b, i);
        if b.get(j) != Some(&b':') {
            continue;
        }
        j = skip_ws(b, j + 1);
        if b.get(j) != Some(&b'[') {
            continue;
        }
        let open = j;
        let Some(close) = flat_array_end(b, open + 1) else {
            continue;
        };
        i = close + 1;
        if close - open < MIN_SPLIT {
            continue;
        }
        out.push_str(&text[copied..open]);
        out.push('"');
        out.push_str("\\u0000data ");
        out.push_str(&arrays.len().to_string());
        out.push('"');
        copied = close + 1;
        arrays.push(&text[open + 1..close]);
    }
    if arrays.is_empty() {
        return (text.into(), arrays);
    }
    out.push_str(&text[copied..]);
    (out.into(), arrays)
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The index of the `]` closing an array that starts at `i` (after its `[`), when the array
/// holds no nested array or object.
fn flat_array_end(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b']' => return Some(i),
            b'[' | b'{' => return None,
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// The cut-out array a placeholder string stands for.
pub(crate) fn placeholder<'t>(s: &str, arrays: &[&'t str]) -> Option<&'t str> {
    let n: usize = s.strip_prefix(PLACEHOLDER)?.parse().ok()?;
    arrays.get(n).copied()
}

/// Packs the elements of a cut-out array text (element `i` of type `types[i % len]`) into
/// little-endian bytes; `path` names the array in errors.
pub(crate) fn pack_text(types: &[ScalarType], text: &str, path: &str) -> Result<Vec<u8>, JobError> {
    if text
        .bytes()
        .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        return Ok(Vec::new());
    }
    // Large arrays of numbers only (no strings, whose commas would mislead the split) are
    // packed in chunks on several threads.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads > 1 && text.len() >= PARALLEL_MIN && !text.contains('"') {
        let b = text.as_bytes();
        let parts = threads * 2;
        let mut cuts = vec![0usize];
        for k in 1..parts {
            let mut at = (text.len() * k / parts).max(*cuts.last().unwrap_or(&0));
            while at < b.len() && b[at] != b',' {
                at += 1;
            }
            if at < b.len() {
                cuts.push(at + 1);
            }
        }
        cuts.push(text.len() + 1);
        cuts.dedup();
        // The index of each chunk's first element.
        let mut first = vec![0usize];
        for w in cuts.windows(2).take(cuts.len().saturating_sub(2)) {
            let n = b[w[0]..w[1] - 1].iter().filter(|&&c| c == b',').count() + 1;
            first.push(first.last().copied().unwrap_or(0) + n);
        }
        let chunks: Vec<(usize, &str)> = cuts
            .windows(2)
            .zip(&first)
            .map(|(w, &f)| (f, &text[w[0]..w[1] - 1]))
            .collect();
        let results: Vec<Result<Vec<u8>, JobError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .chunks(chunks.len().div_ceil(threads))
                .map(|group| {
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        for &(f, t) in group {
                            pack_chunk(types, t, path, f, &mut out)?;
                        }
                        Ok(out)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(JobError::new(path, "a packing thread panicked")))
                })
                .collect()
        });
        let mut bytes = Vec::new();
        for r in results {
            let part = r?;
            if bytes.is_empty() {
                bytes = part;
            } else {
                bytes.extend_from_slice(&part);
            }
        }
        return Ok(bytes);
    }
    let mut bytes = Vec::new();
    pack_chunk(types, text, path, 0, &mut bytes)?;
    Ok(bytes)
}

/// Arrays of at least this many bytes of text are packed on several threads.
const PARALLEL_MIN: usize = 1 << 20;

/// Packs the comma-separated elements of `text`, the first of which is element `first` of the
/// array, onto `bytes`.
fn pack_chunk(
    types: &[ScalarType],
    text: &str,
    path: &str,
    first: usize,
    bytes: &mut Vec<u8>,
) -> Result<(), JobError> {
    let record: usize = types.iter().map(|t| t.size()).sum();
    bytes.reserve(text.len() / 4 * record.max(1) / types.len().max(1));
    let mut cycle = types
        .iter()
        .copied()
        .cycle()
        .skip(first % types.len().max(1));
    let mut rest = text;
    let mut index = first;
    loop {
        let (token, next) = match find_comma(rest) {
            Some(k) => (&rest[..k], Some(&rest[k + 1..])),
            None => (rest, None),
        };
        let token = token.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let t = cycle.next().unwrap_or(ScalarType::U8);
        let bits = match fast_number(t, token) {
            Some(bits) => bits,
            None => slow_element(t, token, path, index)?,
        };
        bytes.extend_from_slice(&bits.to_le_bytes()[..t.size()]);
        index += 1;
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    Ok(())
}

/// The next comma outside a string.
fn find_comma(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b',' => return Some(i),
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// A JSON number token's bits for type `t`, when the token is a plain JSON number that `t`
/// accepts; `None` sends it through serde_json (strings, booleans, errors).
fn fast_number(t: ScalarType, token: &str) -> Option<u64> {
    let b = token.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    if int_digits == 0 || (int_digits > 1 && b[int_start] == b'0') {
        return None;
    }
    let integral = i == b.len();
    if t.is_float() {
        // The digits as an integer and a power of ten, for the exact fast path.
        let mut mant: u64 = 0;
        let mut sig = 0u32;
        let mut exp10: i32 = 0;
        for &c in &b[int_start..i] {
            if sig > 0 || c != b'0' {
                sig += 1;
            }
            mant = mant.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
        }
        if !integral {
            if b[i] == b'.' {
                i += 1;
                let s = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    if sig > 0 || b[i] != b'0' {
                        sig += 1;
                    }
                    mant = mant.wrapping_mul(10).wrapping_add(u64::from(b[i] - b'0'));
                    exp10 -= 1;
                    i += 1;
                }
                if i == s {
                    return None;
                }
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                i += 1;
                let neg = i < b.len() && b[i] == b'-';
                if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                    i += 1;
                }
                let s = i;
                let mut e: i32 = 0;
                while i < b.len() && b[i].is_ascii_digit() {
                    e = e.saturating_mul(10).saturating_add(i32::from(b[i] - b'0'));
                    i += 1;
                }
                if i == s {
                    return None;
                }
                exp10 = exp10.saturating_add(if neg { -e } else { e });
            }
            if i != b.len() {
                return None;
            }
        }
        // Both the digits (at most 15 significant ones, below 2^53) and the power of ten
        // (at most 10^22) are exact f64s, so one multiplication or division rounds correctly
        // (Clinger's fast path); anything else goes through the standard parser.
        const POW10: [f64; 23] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ];
        let digits = i32::try_from(b.len()).unwrap_or(i32::MAX);
        let x: f64 = if sig <= 15 && digits < 40 && (-22..=22).contains(&exp10) {
            let m = mant as f64;
            let m = if b[0] == b'-' { -m } else { m };
            if exp10 >= 0 {
                m * POW10[exp10 as usize]
            } else {
                m / POW10[(-exp10) as usize]
            }
        } else {
            token.parse().ok()?
        };
        return Some(match t {
            ScalarType::F16 => u64::from(super::layout::f64_to_f16_bits(x)),
            ScalarType::F32 => u64::from((x as f32).to_bits()),
            _ => x.to_bits(),
        });
    }
    if !integral || int_digits > 20 {
        return None;
    }
    let n: i128 = token.parse().ok()?;
    let (min, max) = t.int_range();
    if n < min || n > max {
        return None;
    }
    Some(n as u64)
}

/// One element through serde_json and [`ScalarType::encode`] (exactly the `Value` path).
fn slow_element(t: ScalarType, token: &str, path: &str, index: usize) -> Result<u64, JobError> {
    let at = || format!("{path}[{index}]");
    let v: serde_json::Value = serde_json::from_str(token)
        .map_err(|e| JobError::new(&at(), format!("not valid JSON ({token:?}): {e}")))?;
    if v.is_array() || v.is_object() {
        return Err(JobError::new(&at(), "not valid JSON"));
    }
    t.encode(&v, &at())
}

/// Writes the elements of `bytes` typed by the repeated layout `types` as a JSON array, in
/// chunks on several threads when there are many.
pub(crate) fn write_array(types: &[ScalarType], bytes: &[u8], out: &mut String) {
    let record: usize = types.iter().map(|t| t.size()).sum();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let records = bytes.len().checked_div(record).unwrap_or(0);
    out.push('[');
    if threads > 1 && records * types.len() >= PARALLEL_ELEMENTS {
        // Whole records per chunk; the bytes after the last whole record go last.
        let parts = threads * 2;
        let per = records.div_ceil(parts) * record;
        let texts: Vec<String> = std::thread::scope(|scope| {
            let handles: Vec<_> = bytes
                .chunks(per)
                .map(|chunk| {
                    scope.spawn(move || {
                        let mut s = String::with_capacity(chunk.len() * 3);
                        write_elements(types, chunk, &mut s);
                        s
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        out.reserve(texts.iter().map(|t| t.len() + 2).sum());
        for (i, t) in texts.iter().enumerate() {
            if i > 0 && !t.is_empty() {
                out.push_str(", ");
            }
            out.push_str(t);
        }
    } else {
        write_elements(types, bytes, out);
    }
    out.push(']');
}

/// Arrays of at least this many elements are written on several threads.
const PARALLEL_ELEMENTS: usize = 1 << 16;

fn write_elements(types: &[ScalarType], bytes: &[u8], out: &mut String) {
    if types == [ScalarType::F32] {
        for (i, c) in bytes.chunks_exact(4).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if x.is_finite() {
                write_f32(x, out);
            } else {
                ScalarType::F32.write_json(u64::from(x.to_bits()), out);
            }
        }
        return;
    }
    let layout = super::layout::Layout(types.to_vec());
    for (i, (t, bits)) in layout.unpack(bytes).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        t.write_json(bits, out);
    }
}

/// Writes an f32 as `{:?}` does (finite values; NaN and infinities are the caller's).
pub(crate) fn write_f32(x: f32, out: &mut String) {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(x);
    if is_tie32(x.to_bits(), s) {
        use std::fmt::Write as _;
        let _ = write!(out, "{x:?}");
        return;
    }
    let a = x.abs();
    let exponent = a != 0.0 && !(1e-4..1e16).contains(&a);
    if !exponent && !s.contains(['e', 'E']) {
        // zmij's decimal notation is `{:?}`'s.
        out.push_str(s);
        return;
    }
    write_debug(s, exponent, out);
}

/// Writes an f64 as `{:?}` does (finite values).
pub(crate) fn write_f64(x: f64, out: &mut String) {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(x);
    if is_tie(x.to_bits(), 52, 1023, s) {
        use std::fmt::Write as _;
        let _ = write!(out, "{x:?}");
        return;
    }
    let a = x.abs();
    let exponent = a != 0.0 && !(1e-4..1e16).contains(&a);
    if !exponent && !s.contains(['e', 'E']) {
        out.push_str(s);
        return;
    }
    write_debug(s, exponent, out);
}

/// [`is_tie`] for an f32, in u64 arithmetic: a tie needs an exact expansion of at most ten
/// significant digits.
fn is_tie32(bits: u32, s: &str) -> bool {
    const POW5: [u64; 15] = [
        1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625,
        1220703125, 6103515625,
    ];
    let exp_field = ((bits >> 23) & 0xff) as i32;
    let frac = u64::from(bits & 0x7f_ffff);
    let (mut m, mut e) = if exp_field == 0 {
        (frac, -149)
    } else {
        (frac | 0x80_0000, exp_field - 150)
    };
    if m == 0 {
        return false;
    }
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i32;
    let mut n = if e >= 0 {
        if 64 - m.leading_zeros() + e as u32 > 34 {
            return false; // over ten digits
        }
        m << e
    } else {
        match POW5.get((-e) as usize) {
            Some(p) => m * p, // odd: no trailing decimal zeros
            None => return false,
        }
    };
    while n.is_multiple_of(10) {
        n /= 10;
    }
    if n % 10 != 5 {
        return false;
    }
    let exact_digits = n.ilog10() + 1;
    exact_digits == significant_digits(s) + 1
}

/// The significant digits of a decimal text (no leading or trailing zeros).
fn significant_digits(s: &str) -> u32 {
    let mantissa = s.split(['e', 'E']).next().unwrap_or(s).as_bytes();
    let digits = mantissa.iter().filter(|c| c.is_ascii_digit());
    let lead = digits.clone().take_while(|&&c| c == b'0').count();
    let total = digits.count();
    let trail = mantissa
        .iter()
        .rev()
        .filter(|&&c| c != b'.')
        .take_while(|&&c| c == b'0')
        .count();
    total.saturating_sub(lead).saturating_sub(trail) as u32
}

/// Whether the float with these bits lies exactly halfway between two shortest decimal
/// candidates, where zmij and `{:?}` may round differently: its exact decimal expansion then
/// has one significant digit more than the shortest text `s`, ending in 5.
fn is_tie(bits: u64, mantissa_bits: u32, bias: i32, s: &str) -> bool {
    let exp_mask = if mantissa_bits == 23 { 0xff } else { 0x7ff };
    let exp_field = ((bits >> mantissa_bits) & exp_mask) as i32;
    let frac = bits & ((1u64 << mantissa_bits) - 1);
    let (mut m, mut e) = if exp_field == 0 {
        (frac, 1 - bias - mantissa_bits as i32)
    } else {
        (
            frac | (1u64 << mantissa_bits),
            exp_field - bias - mantissa_bits as i32,
        )
    };
    if m == 0 {
        return false;
    }
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i32;
    // The exact value is n × 10^-q.
    let n: u128 = if e >= 0 {
        if e as u32 + (64 - m.leading_zeros()) > 127 {
            return false; // no trailing zeros and over 38 digits: never a tie
        }
        u128::from(m) << e
    } else {
        let k = (-e) as u32;
        // m × 5^k, with at least k − (a few) significant digits: beyond this, never a tie.
        if k > 32 {
            return false;
        }
        let p = 5u128.pow(k);
        match p.checked_mul(u128::from(m)) {
            Some(v) => v,
            None => return false,
        }
    };
    let mut n = n;
    while n.is_multiple_of(10) {
        n /= 10;
    }
    if n % 10 != 5 {
        return false;
    }
    let exact_digits = n.checked_ilog10().unwrap_or(0) + 1;
    exact_digits == significant_digits(s) + 1
}

/// Rewrites a shortest decimal text (`-1.25`, `1e-7`, `1.5E+20`, ...) in `{:?}`'s notation:
/// decimal with at least one fractional digit, or (`exponent`) `d.ddde-7`.
fn write_debug(s: &str, exponent: bool, out: &mut String) {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(k) => (&s[..k], s[k + 1..].parse::<i32>().unwrap_or(0)),
        None => (s, 0),
    };
    // digits × 10^(point - len(digits)) with the point after `point` digits.
    let mut digits = [0u8; 40];
    let mut n = 0usize;
    let mut point = 0i32;
    let mut seen_point = false;
    for c in mantissa.bytes() {
        if c == b'.' {
            seen_point = true;
            continue;
        }
        if n == 0 && c == b'0' {
            // A leading zero: after the point it moves the point left.
            if seen_point {
                point -= 1;
            }
            continue;
        }
        if n < digits.len() {
            digits[n] = c;
            n += 1;
        }
        if !seen_point {
            point += 1;
        }
    }
    while n > 0 && digits[n - 1] == b'0' {
        n -= 1;
    }
    if neg {
        out.push('-');
    }
    if n == 0 {
        out.push_str("0.0");
        return;
    }
    let point = point + exp;
    let d = &digits[..n];
    // The digits are ASCII.
    fn text(d: &[u8]) -> &str {
        std::str::from_utf8(d).unwrap_or("")
    }
    if exponent {
        out.push(char::from(d[0]));
        if n > 1 {
            out.push('.');
            out.push_str(text(&d[1..]));
        }
        out.push('e');
        let mut ib = itoa::Buffer::new();
        out.push_str(ib.format(point - 1));
    } else if point <= 0 {
        out.push_str("0.");
        for _ in 0..-point {
            out.push('0');
        }
        out.push_str(text(d));
    } else if point as usize >= n {
        out.push_str(text(d));
        for _ in 0..point as usize - n {
            out.push('0');
        }
        out.push_str(".0");
    } else {
        out.push_str(text(&d[..point as usize]));
        out.push('.');
        out.push_str(text(&d[point as usize..]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check32(x: f32) {
        if !x.is_finite() {
            return;
        }
        let mut s = String::new();
        write_f32(x, &mut s);
        assert_eq!(s, format!("{x:?}"), "bits {:#x}", x.to_bits());
    }

    fn check64(x: f64) {
        if !x.is_finite() {
            return;
        }
        let mut s = String::new();
        write_f64(x, &mut s);
        assert_eq!(s, format!("{x:?}"), "bits {:#x}", x.to_bits());
    }

    #[test]
    fn floats_print_as_debug_does() {
        for x in [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            1.5,
            100.0,
            1e-4,
            9.999e-5,
            1e-5,
            1.5e-7,
            1e15,
            9.999e15,
            1e16,
            1.5e16,
            1e20,
            3.4028235e38,
            1e-45,
            f32::MIN_POSITIVE,
            123456.79,
            16777216.0,
            0.3,
            2.5e-3,
            -1234.25,
        ] {
            check32(x);
            check64(f64::from(x));
        }
        for x in [
            0.1f64,
            1e-300,
            5e-324,
            1.7976931348623157e308,
            1e22,
            123456789.123,
        ] {
            check64(x);
        }
        // A few million bit patterns spread over the whole range, and every f32 near 1 (a
        // twentieth of that in unoptimized builds, where formatting is slow).
        let scale: u32 = if cfg!(debug_assertions) { 20 } else { 1 };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2_000_000 / scale {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            check32(f32::from_bits(state as u32));
            check64(f64::from_bits(state));
        }
        for bits in (1.0f32.to_bits() - 100_000 / scale)..(1.0f32.to_bits() + 100_000 / scale) {
            check32(f32::from_bits(bits));
        }
        // Values with short exact expansions, where halfway cases (ties) are common.
        for i in (-4_000_000i32..4_000_000).step_by(3 * scale as usize) {
            check32(i as f32 / 8.0);
            check32(i as f32 * 64.0);
            check64(f64::from(i) / 1024.0);
            check64(f64::from(i) * 1e-3);
        }
    }

    #[test]
    fn data_arrays_are_cut_out_and_packed_as_values_would_be() {
        let values: Vec<String> = (0..2000).map(|i| format!("{}.25", i - 1000)).collect();
        let text = format!(
            "{{\"note\": \"\\\"data\\\": [1]\", \"buffers\": [{{\"layout\": [\"f32\"], \"data\": [{}, \"nan\", -0, 1e3, 2E-2]}}]}}",
            values.join(", ")
        );
        let (small, arrays) = split_data_arrays(&text);
        assert_eq!(arrays.len(), 1);
        assert!(small.len() < 200, "{small}");
        let v: serde_json::Value = serde_json::from_str(&small).unwrap();
        let ph = v["buffers"][0]["data"].as_str().unwrap();
        let raw = placeholder(ph, &arrays).unwrap();
        let got = pack_text(&[ScalarType::F32], raw, "data").unwrap();
        let full: serde_json::Value = serde_json::from_str(&text).unwrap();
        let want = crate::run::layout::Layout(vec![ScalarType::F32])
            .pack(full["buffers"][0]["data"].as_array().unwrap(), "data")
            .unwrap();
        assert_eq!(got, want);
    }

    #[test]
    fn integers_and_errors_match_the_value_path() {
        let t = [ScalarType::I8, ScalarType::U32, ScalarType::I64];
        let got = pack_text(&t, " -128, 4294967295 , -9223372036854775808, true, 0", "d").unwrap();
        let v: serde_json::Value =
            serde_json::from_str("[-128, 4294967295, -9223372036854775808, true, 0]").unwrap();
        let want = crate::run::layout::Layout(t.to_vec())
            .pack(v.as_array().unwrap(), "d")
            .unwrap();
        assert_eq!(got, want);
        let e = pack_text(&[ScalarType::I8], "1, 128", "d").unwrap_err();
        assert_eq!(e.path, "d[1]");
        let e = pack_text(&[ScalarType::I32], "1, 2.5", "d").unwrap_err();
        assert_eq!(e.path, "d[1]");
        assert!(pack_text(&[ScalarType::F32], "1, ", "d").is_err());
        assert!(pack_text(&[ScalarType::F32], "1, .5", "d").is_err());
        assert!(pack_text(&[ScalarType::F32], "01", "d").is_err());
        assert_eq!(
            pack_text(&[ScalarType::F32], "  ", "d").unwrap(),
            Vec::<u8>::new()
        );
    }
}
