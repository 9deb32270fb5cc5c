//! Typed buffer layouts of a job: the element types of one record, tightly packed little-endian
//! and repeated over a buffer. A job writes its data as flattened JSON values; the runner packs
//! them to bytes, the lowered code reads and writes the bytes, and the result is unpacked back to
//! typed values. Keeping the packing here lets the Vulkan oracle and the CPU runner share it.

use super::job::JobError;
use serde_json::Value;
use std::fmt;

/// One element type of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// Signed 8-bit integer.
    I8,
    /// Unsigned 8-bit integer.
    U8,
    /// Signed 16-bit integer.
    I16,
    /// Unsigned 16-bit integer.
    U16,
    /// Signed 32-bit integer.
    I32,
    /// Unsigned 32-bit integer.
    U32,
    /// Signed 64-bit integer.
    I64,
    /// Unsigned 64-bit integer.
    U64,
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl ScalarType {
    /// Every type, in the order the job format lists them.
    pub const ALL: [ScalarType; 11] = [
        ScalarType::I8,
        ScalarType::U8,
        ScalarType::I16,
        ScalarType::U16,
        ScalarType::I32,
        ScalarType::U32,
        ScalarType::I64,
        ScalarType::U64,
        ScalarType::F16,
        ScalarType::F32,
        ScalarType::F64,
    ];

    /// The job format's name of the type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::I8 => "i8",
            ScalarType::U8 => "u8",
            ScalarType::I16 => "i16",
            ScalarType::U16 => "u16",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
            ScalarType::I64 => "i64",
            ScalarType::U64 => "u64",
            ScalarType::F16 => "f16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    /// The type of a job-format name.
    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ScalarType::I8 | ScalarType::U8 => 1,
            ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 2,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 8,
        }
    }

    /// Whether the type is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    /// The little-endian bit pattern of a JSON value of this type; `path` names the value in
    /// errors.
    pub fn encode(self, v: &Value, path: &str) -> Result<u64, JobError> {
        if self.is_float() {
            let x = json_float(v, path)?;
            return Ok(match self {
                ScalarType::F16 => u64::from(f64_to_f16_bits(x)),
                ScalarType::F32 => u64::from((x as f32).to_bits()),
                _ => x.to_bits(),
            });
        }
        let (min, max) = self.int_range();
        let n = json_int(v, path)?;
        if n < min || n > max {
            return Err(JobError::new(
                path,
                format!("{n} is out of range for {}", self.name()),
            ));
        }
        // Two's complement, truncated to the width by the caller's byte count.
        Ok(n as u64)
    }

    /// The values an integer type holds (floats: u64's).
    pub(crate) fn int_range(self) -> (i128, i128) {
        match self {
            ScalarType::I8 => (i8::MIN.into(), i8::MAX.into()),
            ScalarType::U8 => (0, u8::MAX.into()),
            ScalarType::I16 => (i16::MIN.into(), i16::MAX.into()),
            ScalarType::U16 => (0, u16::MAX.into()),
            ScalarType::I32 => (i32::MIN.into(), i32::MAX.into()),
            ScalarType::U32 => (0, u32::MAX.into()),
            ScalarType::I64 => (i64::MIN.into(), i64::MAX.into()),
            _ => (0, u64::MAX.into()),
        }
    }

    /// Writes a bit pattern of this type as JSON (floats NaN and infinities as strings).
    pub fn write_json(self, bits: u64, out: &mut String) {
        let sext = |width: u32| -> i64 { ((bits << (64 - width)) as i64) >> (64 - width) };
        let special = |x: f64, out: &mut String| {
            if x.is_nan() {
                out.push_str("\"nan\"");
            } else {
                out.push_str(if x > 0.0 { "\"inf\"" } else { "\"-inf\"" });
            }
        };
        let mut ib = itoa::Buffer::new();
        match self {
            ScalarType::I8 => out.push_str(ib.format(sext(8))),
            ScalarType::I16 => out.push_str(ib.format(sext(16))),
            ScalarType::I32 => out.push_str(ib.format(sext(32))),
            ScalarType::I64 => out.push_str(ib.format(bits as i64)),
            ScalarType::U8 | ScalarType::U16 | ScalarType::U32 | ScalarType::U64 => {
                out.push_str(ib.format(bits))
            }
            // Shortest text that reads back to the same f32 (as `{:?}` prints it).
            ScalarType::F16 => {
                let x = f16_bits_to_f64(bits as u16);
                if x.is_finite() {
                    super::json_data::write_f32(x as f32, out);
                } else {
                    special(x, out);
                }
            }
            ScalarType::F32 => {
                let x = f32::from_bits(bits as u32);
                if x.is_finite() {
                    super::json_data::write_f32(x, out);
                } else {
                    special(f64::from(x), out);
                }
            }
            ScalarType::F64 => {
                let x = f64::from_bits(bits);
                if x.is_finite() {
                    super::json_data::write_f64(x, out);
                } else {
                    special(x, out);
                }
            }
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A record layout: element types, tightly packed, repeated over a buffer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout(pub Vec<ScalarType>);

impl Layout {
    /// Reads a layout from a JSON array of type names.
    pub fn from_json(v: &Value, path: &str) -> Result<Layout, JobError> {
        let items = v
            .as_array()
            .ok_or_else(|| JobError::new(path, "expected an array of element types"))?;
        if items.is_empty() {
            return Err(JobError::new(
                path,
                "a layout needs at least one element type",
            ));
        }
        let mut types = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let p = format!("{path}[{i}]");
            let name = item
                .as_str()
                .ok_or_else(|| JobError::new(&p, "expected a type name such as \"u32\""))?;
            let t = ScalarType::from_name(name).ok_or_else(|| {
                JobError::new(
                    &p,
                    format!(
                        "unknown element type {name:?} (one of i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)"
                    ),
                )
            })?;
            types.push(t);
        }
        Ok(Layout(types))
    }

    /// The element types in buffer order, cycling through the layout.
    pub fn cycle(&self) -> impl Iterator<Item = ScalarType> + '_ {
        self.0.iter().copied().cycle()
    }

    /// Packs flattened values (element `i` has type `layout[i % len]`) to little-endian bytes.
    pub fn pack(&self, values: &[Value], path: &str) -> Result<Vec<u8>, JobError> {
        let mut bytes = Vec::with_capacity(values.len() * 4);
        for (i, (v, t)) in values.iter().zip(self.cycle()).enumerate() {
            // The element's path is only spelled out for an error.
            let bits = t
                .encode(v, "")
                .or_else(|_| t.encode(v, &format!("{path}[{i}]")))?;
            bytes.extend_from_slice(&bits.to_le_bytes()[..t.size()]);
        }
        Ok(bytes)
    }

    /// Whether `len` bytes end on an element boundary of the repeated layout.
    pub fn fits(&self, len: usize) -> bool {
        let record: usize = self.0.iter().map(|t| t.size()).sum();
        if record == 0 {
            return len == 0;
        }
        let mut rest = len % record;
        for t in &self.0 {
            if rest == 0 {
                return true;
            }
            if rest < t.size() {
                return false;
            }
            rest -= t.size();
        }
        rest == 0
    }

    /// The bit patterns of the elements of `bytes`, each with its type; a trailing partial
    /// element is left out.
    pub fn unpack<'a>(&'a self, bytes: &'a [u8]) -> impl Iterator<Item = (ScalarType, u64)> + 'a {
        let mut at = 0usize;
        self.cycle().map_while(move |t| {
            let chunk = bytes.get(at..at + t.size())?;
            at += t.size();
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            Some((t, u64::from_le_bytes(word)))
        })
    }

    /// The elements of `bytes` as a JSON array text.
    pub fn to_json(&self, bytes: &[u8]) -> String {
        let mut out = String::new();
        self.write_json(bytes, &mut out);
        out
    }

    /// Appends the elements of `bytes` as a JSON array text to `out`.
    pub fn write_json(&self, bytes: &[u8], out: &mut String) {
        super::json_data::write_array(&self.0, bytes, out);
    }
}

/// A JSON number or one of "nan", "inf", "+inf", "-inf".
fn json_float(v: &Value, path: &str) -> Result<f64, JobError> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| JobError::new(path, "number not representable as f64")),
        Value::String(s) => match s.as_str() {
            "nan" | "NaN" => Ok(f64::NAN),
            "-nan" => Ok(-f64::NAN),
            "inf" | "+inf" | "Infinity" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
            other => Err(JobError::new(
                path,
                format!("expected a number, \"nan\", \"inf\" or \"-inf\", found {other:?}"),
            )),
        },
        other => Err(JobError::new(
            path,
            format!("expected a number, found {}", kind_of(other)),
        )),
    }
}

/// A JSON integer (a float with an integral value is refused: it hides a type mistake).
fn json_int(v: &Value, path: &str) -> Result<i128, JobError> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i.into())
            } else if let Some(u) = n.as_u64() {
                Ok(u.into())
            } else {
                Err(JobError::new(
                    path,
                    format!("expected an integer, found {n}"),
                ))
            }
        }
        Value::Bool(b) => Ok(i128::from(*b)),
        other => Err(JobError::new(
            path,
            format!("expected an integer, found {}", kind_of(other)),
        )),
    }
}

/// A short name of a JSON value's kind, for errors.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub use crate::binary::{f16_bits_to_f64, f64_to_f16_bits};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn f16_rounding_matches_known_values() {
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(65519.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f64_to_f16_bits(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16_bits(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_f16_bits(1.5 * 2f64.powi(-25)), 0x0001);
        assert_eq!(f64_to_f16_bits(2f64.powi(-14)), 0x0400);
        assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f64_to_f16_bits(f64::NEG_INFINITY), 0xfc00);
        assert_eq!(f64_to_f16_bits(f64::NAN) & 0x7e00, 0x7e00);
        for h in 0..=0xffffu16 {
            let x = f16_bits_to_f64(h);
            if !x.is_nan() {
                assert_eq!(f64_to_f16_bits(x), h, "{h:#x}");
            }
        }
    }

    #[test]
    fn pack_and_unpack_round_trip_every_type() {
        let layout = Layout(ScalarType::ALL.to_vec());
        let data = json!([
            -128,
            255,
            -32768,
            65535,
            -2147483648i64,
            4294967295u64,
            -9223372036854775808i64,
            18446744073709551615u64,
            0.5,
            "-inf",
            "nan"
        ]);
        let bytes = layout.pack(data.as_array().unwrap(), "data").unwrap();
        assert_eq!(bytes.len(), 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 2 + 4 + 8);
        let text = layout.to_json(&bytes);
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn out_of_range_values_name_their_index() {
        let layout = Layout(vec![ScalarType::U8]);
        let err = layout
            .pack(&[json!(1), json!(256)], "buffers[0].data")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "buffers[0].data[1]: 256 is out of range for u8"
        );
        let err = layout.pack(&[json!(1.5)], "d").unwrap_err();
        assert_eq!(err.to_string(), "d[0]: expected an integer, found 1.5");
    }

    #[test]
    fn fits_checks_element_boundaries() {
        let layout = Layout(vec![ScalarType::U32, ScalarType::U8]);
        assert!(layout.fits(0));
        assert!(layout.fits(4));
        assert!(layout.fits(5));
        assert!(!layout.fits(6));
        assert!(layout.fits(9));
    }
}
