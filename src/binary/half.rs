//! IEEE binary16 (`half`) conversions, shared by the layers that build or read 16-bit
//! floating-point values (HLSL constants, the runner's buffers).

/// Rounds an f64 to the nearest binary16 (ties to even), keeping NaN a quiet NaN.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    if exp == 0 {
        // f64 zero or subnormal: far below half the smallest f16 subnormal.
        return sign;
    }
    let e = exp - 1023;
    if e > 15 {
        return sign | 0x7c00;
    }
    let sig = mant | (1u64 << 52);
    // Bits to drop: 42 for an f16 normal (10 fraction bits kept), more below 2^-14.
    let shift = if e >= -14 { 42 } else { 28 - e };
    if shift > 63 {
        return sign;
    }
    let shift = shift as u32;
    let kept = sig >> shift;
    let rem = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let m = kept + u64::from(rem > half || (rem == half && kept & 1 == 1));
    if e >= -14 {
        let (m, biased) = if m == 2048 {
            (1024, e + 16)
        } else {
            (m, e + 15)
        };
        if biased >= 31 {
            return sign | 0x7c00;
        }
        sign | ((biased as u16) << 10) | (m - 1024) as u16
    } else {
        // 1024 here is the smallest normal, which the same bits encode.
        sign | m as u16
    }
}

/// The value of a binary16 bit pattern.
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let frac = f64::from(h & 0x3ff);
    match exp {
        0 => sign * frac * (2.0f64).powi(-24),
        0x1f if frac == 0.0 => sign * f64::INFINITY,
        0x1f => f64::NAN,
        _ => sign * (1.0 + frac / 1024.0) * (2.0f64).powi(i32::from(exp) - 15),
    }
}
