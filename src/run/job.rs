//! The job of `spvkit run` (job.json): which entry point, the dispatch grid, and the data bound
//! to it. Read by hand from a `serde_json::Value` rather than derived, so that every error names
//! the key and index it is about (`buffers[2].data[7]: ...`). Unknown keys are ignored.

use super::layout::{kind_of, Layout, ScalarType};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// A malformed job: where (a JSON path such as `buffers[1].layout[0]`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    /// The JSON path of the offending value (empty: the whole job).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl JobError {
    /// An error about the value at `path`.
    pub fn new(path: &str, message: impl Into<String>) -> JobError {
        JobError {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JobError {}

/// How a buffer is bound on Vulkan (the CPU runner treats both alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferKind {
    /// A storage buffer (`buffer` block in GLSL).
    Storage,
    /// A uniform buffer (`uniform` block).
    Uniform,
}

/// Bytes with the layout that types them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypedBytes {
    /// The record layout.
    pub layout: Layout,
    /// The packed little-endian bytes.
    pub bytes: Vec<u8>,
}

/// A descriptor-bound buffer of a shader job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobBuffer {
    /// DescriptorSet.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// The element of an array of blocks (`"index"`, default 0).
    pub index: u32,
    /// Storage or uniform.
    pub kind: BufferKind,
    /// Initial contents.
    pub data: TypedBytes,
}

/// A kernel argument, in parameter order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelArg {
    /// A global buffer, printed back after the run.
    Buffer(TypedBytes),
    /// A scalar passed by value.
    Scalar {
        /// Its type.
        ty: ScalarType,
        /// Its little-endian bytes.
        bytes: Vec<u8>,
    },
    /// A workgroup-local buffer of this many bytes, allocated per workgroup.
    Local {
        /// Size in bytes.
        size_bytes: u64,
    },
    /// A struct passed by value: its packed bytes.
    Struct(TypedBytes),
}

/// A specialization-constant value as the job writes it; the constant's type in the module
/// decides its bits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SpecValue {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A non-integral number, or "nan"/"inf"/"-inf".
    Float(f64),
}

/// The type of a specialization constant, as far as its bits are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecType {
    /// OpTypeBool.
    Bool,
    /// OpTypeInt of this width.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// OpTypeFloat of this width.
    Float {
        /// Width in bits.
        width: u32,
    },
}

impl SpecValue {
    /// The value's bits in a constant of type `ty` (`path` names it in errors).
    pub fn bits(self, ty: SpecType, path: &str) -> Result<u64, JobError> {
        match (ty, self) {
            (SpecType::Bool, SpecValue::Bool(b)) => Ok(u64::from(b)),
            (SpecType::Bool, SpecValue::Int(i @ (0 | 1))) => Ok(i as u64),
            (SpecType::Int { width, signed }, SpecValue::Int(i)) => {
                let w = width.min(64);
                if w == 0 {
                    return Err(JobError::new(path, "a 0-bit integer constant"));
                }
                let (min, max) = if signed {
                    (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
                } else {
                    (0, (1i128 << w) - 1)
                };
                // A negative value for an unsigned constant is taken as its two's complement.
                if i > max || i < min.min(-(1i128 << (w - 1))) {
                    return Err(JobError::new(
                        path,
                        format!("{i} does not fit a {w}-bit integer"),
                    ));
                }
                let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
                Ok((i as u64) & mask)
            }
            (SpecType::Int { .. }, SpecValue::Bool(b)) => Ok(u64::from(b)),
            (SpecType::Float { width }, SpecValue::Int(i)) => {
                SpecValue::Float(i as f64).bits(SpecType::Float { width }, path)
            }
            (SpecType::Float { width }, SpecValue::Float(x)) => match width {
                16 => Ok(u64::from(super::layout::f64_to_f16_bits(x))),
                32 => Ok(u64::from((x as f32).to_bits())),
                64 => Ok(x.to_bits()),
                w => Err(JobError::new(path, format!("unsupported float width {w}"))),
            },
            (ty, v) => Err(JobError::new(
                path,
                format!("{v:?} does not suit a constant of type {ty:?}"),
            )),
        }
    }
}

/// A parsed job. Shader entry points use `buffers` and `push_constants`; kernels use `args`,
/// `local_size`, `work_dim` and `global_offset`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Job {
    /// The entry point's name (default: the module's only compute entry point).
    pub entry: Option<String>,
    /// Number of workgroups in x, y, z.
    pub dispatch: [u32; 3],
    /// The push-constant block, if any.
    pub push_constants: Option<TypedBytes>,
    /// SpecId → value.
    pub spec_constants: BTreeMap<u32, SpecValue>,
    /// Descriptor-bound buffers.
    pub buffers: Vec<JobBuffer>,
    /// Kernel workgroup size (when the module does not fix one).
    pub local_size: Option<[u32; 3]>,
    /// Kernel WorkDim (default 1..3 from the local size and dispatch).
    pub work_dim: Option<u32>,
    /// Kernel GlobalOffset.
    pub global_offset: [u64; 3],
    /// Kernel arguments.
    pub args: Vec<KernelArg>,
}

impl Job {
    /// Parses a job from JSON text.
    pub fn from_json(text: &str) -> Result<Job, JobError> {
        // Large `"data"` arrays are packed straight from the text (`json_data`).
        let (small, arrays) = super::json_data::split_data_arrays(text);
        let v: Value = serde_json::from_str(&small)
            .map_err(|e| JobError::new("", format!("not valid JSON: {e}")))?;
        Job::from_value_with(&v, &arrays)
    }

    /// Reads a job from a parsed JSON value.
    pub fn from_value(v: &Value) -> Result<Job, JobError> {
        Job::from_value_with(v, &[])
    }

    fn from_value_with(v: &Value, raw: &[&str]) -> Result<Job, JobError> {
        let top = v
            .as_object()
            .ok_or_else(|| JobError::new("", "a job is a JSON object"))?;
        known_keys(top, TOP_KEYS, "")?;
        let mut job = Job {
            entry: match top.get("entry") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    return Err(JobError::new(
                        "entry",
                        format!("expected a string, found {}", kind_of(other)),
                    ))
                }
            },
            ..Job::default()
        };
        let dispatch = match (top.get("dispatch"), top.get("global_size")) {
            (Some(_), Some(_)) => {
                return Err(JobError::new(
                    "global_size",
                    "give dispatch or global_size, not both",
                ))
            }
            (Some(d), None) => Some(u32x3(d, "dispatch")?),
            (None, Some(_)) => None,
            (None, None) => return Err(JobError::new("dispatch", "missing")),
        };
        if let Some(pc) = top.get("push_constants") {
            known_keys(
                object(pc, "push_constants")?,
                PUSH_CONSTANT_KEYS,
                "push_constants",
            )?;
            job.push_constants = Some(typed_bytes(pc, "push_constants", "data", raw)?);
        }
        if let Some(sc) = top.get("spec_constants") {
            let map = object(sc, "spec_constants")?;
            for (key, value) in map {
                let path = format!("spec_constants.{key}");
                let id: u32 = key
                    .parse()
                    .map_err(|_| JobError::new(&path, "a key is a SpecId (a decimal u32)"))?;
                job.spec_constants.insert(id, spec_value(value, &path)?);
            }
        }
        if let Some(bufs) = top.get("buffers") {
            let items = array(bufs, "buffers")?;
            for (i, b) in items.iter().enumerate() {
                job.buffers.push(buffer(b, &format!("buffers[{i}]"), raw)?);
            }
            for (i, b) in job.buffers.iter().enumerate() {
                if let Some(j) = job.buffers[..i]
                    .iter()
                    .position(|o| (o.set, o.binding, o.index) == (b.set, b.binding, b.index))
                {
                    return Err(JobError::new(
                        &format!("buffers[{i}]"),
                        format!(
                            "set {} binding {} index {} is already bound by buffers[{j}]",
                            b.set, b.binding, b.index
                        ),
                    ));
                }
            }
        }
        if let Some(ls) = top.get("local_size") {
            let ls = u32x3(ls, "local_size")?;
            if ls.contains(&0) {
                return Err(JobError::new("local_size", "sizes must be at least 1"));
            }
            job.local_size = Some(ls);
        }
        if let Some(wd) = top.get("work_dim") {
            let n = wd
                .as_u64()
                .filter(|n| (1..=3).contains(n))
                .ok_or_else(|| JobError::new("work_dim", "expected 1, 2 or 3"))?;
            job.work_dim = Some(n as u32);
        }
        if let Some(go) = top.get("global_offset") {
            let items = array(go, "global_offset")?;
            if items.len() > 3 {
                return Err(JobError::new("global_offset", "at most 3 components"));
            }
            for (i, x) in items.iter().enumerate() {
                job.global_offset[i] = x.as_u64().ok_or_else(|| {
                    JobError::new(
                        &format!("global_offset[{i}]"),
                        "expected an unsigned integer",
                    )
                })?;
            }
        }
        if let Some(args) = top.get("args") {
            for (i, a) in array(args, "args")?.iter().enumerate() {
                job.args.push(kernel_arg(a, &format!("args[{i}]"), raw)?);
            }
        }
        job.dispatch = match dispatch {
            Some(d) => d,
            None => {
                // OpenCL style: a global size that the local size divides.
                let gs = u32x3(
                    top.get("global_size").unwrap_or(&Value::Null),
                    "global_size",
                )?;
                let ls = job.local_size.ok_or_else(|| {
                    JobError::new("global_size", "needs local_size (or use dispatch)")
                })?;
                let mut d = [0; 3];
                for k in 0..3 {
                    if gs[k] % ls[k] != 0 {
                        return Err(JobError::new(
                            &format!("global_size[{k}]"),
                            format!("{} is not a multiple of local_size {}", gs[k], ls[k]),
                        ));
                    }
                    d[k] = gs[k] / ls[k];
                }
                d
            }
        };
        Ok(job)
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, JobError> {
    v.as_object()
        .ok_or_else(|| JobError::new(path, format!("expected an object, found {}", kind_of(v))))
}

fn array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, JobError> {
    v.as_array()
        .ok_or_else(|| JobError::new(path, format!("expected an array, found {}", kind_of(v))))
}

/// The keys of a job (`docs/job.schema.json` is the same list as a JSON Schema).
const TOP_KEYS: &[&str] = &[
    "entry",
    "dispatch",
    "global_size",
    "local_size",
    "work_dim",
    "global_offset",
    "push_constants",
    "spec_constants",
    "buffers",
    "args",
];
const BUFFER_KEYS: &[&str] = &[
    "set",
    "binding",
    "index",
    "kind",
    "layout",
    "data",
    "size_words",
];
const PUSH_CONSTANT_KEYS: &[&str] = &["layout", "data", "size_words"];
const ARG_KEYS: &[&str] = &[
    "kind",
    "layout",
    "data",
    "value",
    "size_words",
    "size_bytes",
    "type",
];

/// A key the job format does not have is an error (a misspelt `local_size` would otherwise
/// run with the module's default); keys starting with `x-` are annotations for other tools
/// (a test's comparison tolerance) and are skipped.
fn known_keys(obj: &Map<String, Value>, known: &[&str], path: &str) -> Result<(), JobError> {
    for k in obj.keys() {
        if !k.starts_with("x-") && !known.contains(&k.as_str()) {
            let at = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            return Err(JobError::new(
                &at,
                format!("unknown key (known here: {})", known.join(", ")),
            ));
        }
    }
    Ok(())
}

fn u32_field(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<u32>, JobError> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| JobError::new(&format!("{path}.{key}"), "expected a u32")),
    }
}

/// `[x]`, `[x, y]` or `[x, y, z]` (missing components are 1).
fn u32x3(v: &Value, path: &str) -> Result<[u32; 3], JobError> {
    let items = array(v, path)?;
    if items.is_empty() || items.len() > 3 {
        return Err(JobError::new(path, "expected 1 to 3 components"));
    }
    let mut out = [1u32; 3];
    for (i, x) in items.iter().enumerate() {
        out[i] = x
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| JobError::new(&format!("{path}[{i}]"), "expected a u32"))?;
    }
    Ok(out)
}

/// `{"layout": [...], "<data_key>": [...], "size_words": N}` packed to bytes.
fn typed_bytes(
    v: &Value,
    path: &str,
    data_key: &str,
    raw: &[&str],
) -> Result<TypedBytes, JobError> {
    let obj = object(v, path)?;
    let layout = Layout::from_json(
        obj.get("layout")
            .ok_or_else(|| JobError::new(&format!("{path}.layout"), "missing"))?,
        &format!("{path}.layout"),
    )?;
    let data_path = format!("{path}.{data_key}");
    let mut bytes = match obj.get(data_key) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) if super::json_data::placeholder(s, raw).is_some() => {
            let text = super::json_data::placeholder(s, raw).unwrap_or_default();
            super::json_data::pack_text(&layout.0, text, &data_path)?
        }
        Some(d) => layout.pack(array(d, &data_path)?, &data_path)?,
    };
    if let Some(words) = u32_field(obj, "size_words", path)? {
        let size = words as usize * 4;
        if bytes.len() > size {
            return Err(JobError::new(
                &data_path,
                format!(
                    "{} bytes of data do not fit size_words {words} ({size} bytes)",
                    bytes.len()
                ),
            ));
        }
        bytes.resize(size, 0);
    }
    if !layout.fits(bytes.len()) {
        return Err(JobError::new(
            path,
            format!(
                "{} bytes end inside an element of the layout; adjust size_words",
                bytes.len()
            ),
        ));
    }
    Ok(TypedBytes { layout, bytes })
}

fn buffer(v: &Value, path: &str, raw: &[&str]) -> Result<JobBuffer, JobError> {
    let obj = object(v, path)?;
    known_keys(obj, BUFFER_KEYS, path)?;
    let kind = match obj.get("kind").map(|k| k.as_str()) {
        None | Some(Some("storage")) => BufferKind::Storage,
        Some(Some("uniform")) => BufferKind::Uniform,
        Some(_) => {
            return Err(JobError::new(
                &format!("{path}.kind"),
                "expected \"storage\" or \"uniform\"",
            ))
        }
    };
    let data = typed_bytes(v, path, "data", raw)?;
    if data.bytes.is_empty() {
        return Err(JobError::new(
            path,
            "an empty buffer: give data or size_words",
        ));
    }
    Ok(JobBuffer {
        set: u32_field(obj, "set", path)?.unwrap_or(0),
        binding: u32_field(obj, "binding", path)?
            .ok_or_else(|| JobError::new(&format!("{path}.binding"), "missing"))?,
        index: u32_field(obj, "index", path)?.unwrap_or(0),
        kind,
        data,
    })
}

fn kernel_arg(v: &Value, path: &str, raw: &[&str]) -> Result<KernelArg, JobError> {
    let obj = object(v, path)?;
    known_keys(obj, ARG_KEYS, path)?;
    let kind = obj.get("kind").and_then(Value::as_str).ok_or_else(|| {
        JobError::new(
            &format!("{path}.kind"),
            "expected \"buffer\", \"scalar\", \"local\" or \"struct\"",
        )
    })?;
    match kind {
        "buffer" => Ok(KernelArg::Buffer(typed_bytes(v, path, "data", raw)?)),
        "struct" => Ok(KernelArg::Struct(typed_bytes(v, path, "value", raw)?)),
        "local" => {
            let n = obj
                .get("size_bytes")
                .and_then(Value::as_u64)
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    JobError::new(&format!("{path}.size_bytes"), "expected a positive integer")
                })?;
            Ok(KernelArg::Local { size_bytes: n })
        }
        "scalar" => {
            let tp = format!("{path}.type");
            let ty = obj
                .get("type")
                .and_then(Value::as_str)
                .and_then(ScalarType::from_name)
                .ok_or_else(|| JobError::new(&tp, "expected an element type such as \"i32\""))?;
            let vp = format!("{path}.value");
            let value = obj
                .get("value")
                .ok_or_else(|| JobError::new(&vp, "missing"))?;
            let bits = ty.encode(value, &vp)?;
            Ok(KernelArg::Scalar {
                ty,
                bytes: bits.to_le_bytes()[..ty.size()].to_vec(),
            })
        }
        other => Err(JobError::new(
            &format!("{path}.kind"),
            format!("unknown argument kind {other:?} (buffer, scalar, local, struct)"),
        )),
    }
}

fn spec_value(v: &Value, path: &str) -> Result<SpecValue, JobError> {
    match v {
        Value::Bool(b) => Ok(SpecValue::Bool(*b)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(SpecValue::Int(i.into()))
            } else if let Some(u) = n.as_u64() {
                Ok(SpecValue::Int(u.into()))
            } else {
                n.as_f64()
                    .map(SpecValue::Float)
                    .ok_or_else(|| JobError::new(path, "number not representable"))
            }
        }
        Value::String(_) => Ok(SpecValue::Float(
            ScalarType::F64.encode(v, path).map(f64::from_bits)?,
        )),
        other => Err(JobError::new(
            path,
            format!("expected a number or boolean, found {}", kind_of(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_shader_job_parses() {
        let job = Job::from_json(
            r#"{"entry": "main", "dispatch": [4, 2], "x-comment": "skipped",
                "push_constants": {"layout": ["u32", "f32"], "data": [7, 1.5]},
                "spec_constants": {"3": 2.5, "4": true, "5": -1},
                "buffers": [{"set": 1, "binding": 2, "kind": "uniform", "layout": ["f32"],
                             "data": ["nan", "inf"], "size_words": 4},
                            {"binding": 0, "layout": ["u8"], "size_words": 1}]}"#,
        )
        .unwrap();
        assert_eq!(job.entry.as_deref(), Some("main"));
        assert_eq!(job.dispatch, [4, 2, 1]);
        let pc = job.push_constants.unwrap();
        assert_eq!(pc.bytes, [7, 0, 0, 0, 0, 0, 0xc0, 0x3f]);
        assert_eq!(job.spec_constants[&3], SpecValue::Float(2.5));
        assert_eq!(job.spec_constants[&4], SpecValue::Bool(true));
        assert_eq!(job.buffers[0].kind, BufferKind::Uniform);
        assert_eq!((job.buffers[0].set, job.buffers[0].binding), (1, 2));
        assert_eq!(job.buffers[0].data.bytes.len(), 16);
        assert_eq!(
            &job.buffers[0].data.bytes[..4],
            &f32::NAN.to_bits().to_le_bytes()
        );
        assert_eq!(job.buffers[1].data.bytes, [0, 0, 0, 0]);
    }

    #[test]
    fn a_kernel_job_parses() {
        let job = Job::from_json(
            r#"{"global_size": [64], "local_size": [16], "work_dim": 1,
                "global_offset": [3],
                "args": [{"kind": "buffer", "layout": ["i32"], "data": [1, 2]},
                         {"kind": "scalar", "type": "i16", "value": -2},
                         {"kind": "local", "size_bytes": 64},
                         {"kind": "struct", "layout": ["u8", "u32"], "value": [1, 2]}]}"#,
        )
        .unwrap();
        assert_eq!(job.dispatch, [4, 1, 1]);
        assert_eq!(job.global_offset, [3, 0, 0]);
        assert_eq!(
            job.args[1],
            KernelArg::Scalar {
                ty: ScalarType::I16,
                bytes: vec![0xfe, 0xff]
            }
        );
        assert_eq!(job.args[2], KernelArg::Local { size_bytes: 64 });
        let KernelArg::Struct(s) = &job.args[3] else {
            panic!("not a struct")
        };
        assert_eq!(s.bytes, [1, 2, 0, 0, 0]);
    }

    #[test]
    fn errors_name_the_key_and_index() {
        let err = |text: &str| Job::from_json(text).unwrap_err().to_string();
        assert_eq!(err("[1]"), "a job is a JSON object");
        assert_eq!(err("{}"), "dispatch: missing");
        assert_eq!(
            err(r#"{"dispatch": [1, "x"]}"#),
            "dispatch[1]: expected a u32"
        );
        assert_eq!(
            err(
                r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["u32"], "data": [1, -1]}]}"#
            ),
            "buffers[0].data[1]: -1 is out of range for u32"
        );
        assert_eq!(
            err(r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f24"], "data": [1]}]}"#),
            "buffers[0].layout[0]: unknown element type \"f24\" (one of i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)"
        );
        assert_eq!(
            err(
                r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["u32"], "data": [1, 2], "size_words": 1}]}"#
            ),
            "buffers[0].data: 8 bytes of data do not fit size_words 1 (4 bytes)"
        );
        assert_eq!(
            err(
                r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["u32"], "size_words": 1}, {"binding": 0, "layout": ["u32"], "size_words": 1}]}"#
            ),
            "buffers[1]: set 0 binding 0 index 0 is already bound by buffers[0]"
        );
        assert_eq!(
            err(r#"{"dispatch": [1], "spec_constants": {"x": 1}}"#),
            "spec_constants.x: a key is a SpecId (a decimal u32)"
        );
        assert_eq!(
            err(r#"{"dispatch": [1], "args": [{"kind": "pipe"}]}"#),
            "args[0].kind: unknown argument kind \"pipe\" (buffer, scalar, local, struct)"
        );
        assert!(err("{").starts_with("not valid JSON"));
    }

    #[test]
    fn spec_values_take_the_constant_type() {
        let f32t = SpecType::Float { width: 32 };
        let i32t = SpecType::Int {
            width: 32,
            signed: true,
        };
        let u32t = SpecType::Int {
            width: 32,
            signed: false,
        };
        assert_eq!(SpecValue::Float(2.5).bits(f32t, "x").unwrap(), 0x4020_0000);
        assert_eq!(SpecValue::Int(2).bits(f32t, "x").unwrap(), 0x4000_0000);
        assert_eq!(SpecValue::Int(-1).bits(i32t, "x").unwrap(), 0xffff_ffff);
        assert_eq!(SpecValue::Int(-1).bits(u32t, "x").unwrap(), 0xffff_ffff);
        assert_eq!(SpecValue::Bool(true).bits(SpecType::Bool, "x").unwrap(), 1);
        assert!(SpecValue::Float(0.5).bits(i32t, "x").is_err());
        assert!(SpecValue::Int(1 << 40).bits(u32t, "x").is_err());
    }
}
