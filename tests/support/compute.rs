//! The compute corpus (`tests/corpus/compute/`): GLSL (`<name>.comp`) and HLSL
//! (`<name>.hlsl`, entry `main`) compute shaders, each with a `<name>.job.json` in the job format
//! of `spvkit run`. Shaders are compiled with glslangValidator for Vulkan 1.1 at test time into
//! the cargo target's temporary directory.
//!
//! A job may carry an `"x-compare"` object (skipped by the job parser, as every `x-` key)
//! giving the tolerance used when two implementations' float results are compared:
//! `{"ulps": n}` (distance in units in the last place), `{"abs": x, "rel": y}` (either bound),
//! and a `"why"`. Without it floats must agree bit for bit (any NaN equals any NaN).
#![allow(dead_code)]

use spvkit::run::layout::ScalarType;
use spvkit::run::output::BufferId;
use spvkit::run::{Job, RunOutput};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One corpus shader.
pub struct Shader {
    /// The file stem.
    pub name: String,
    /// The compiled module.
    pub words: Vec<u32>,
    /// The parsed job.
    pub job: Job,
    /// The float tolerance.
    pub tolerance: Tolerance,
}

/// How close two floats must be.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tolerance {
    /// Units in the last place.
    pub ulps: u64,
    /// Absolute difference.
    pub abs: f64,
    /// Relative difference.
    pub rel: f64,
}

/// The corpus directory.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/compute")
}

/// Compiles a GLSL or HLSL compute shader for Vulkan 1.1.
pub fn compile(source: &Path) -> Vec<u32> {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compute-corpus");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let stem = source
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace('.', "_");
    let out = out_dir.join(format!("{stem}.spv"));
    let mut cmd = Command::new("glslangValidator");
    if source.extension().is_some_and(|e| e == "hlsl") {
        cmd.args(["-D", "-e", "main", "-S", "comp"]);
    }
    cmd.args(["-V", "--target-env", "vulkan1.1"])
        .arg(source)
        .arg("-o")
        .arg(&out);
    let result = cmd
        .output()
        .expect("glslangValidator runs (apt-get install glslang-tools)");
    assert!(
        result.status.success(),
        "glslangValidator {}:\n{}{}",
        source.display(),
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(&out).expect("read the compiled module");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Every corpus shader, by name.
pub fn load_all() -> Vec<Shader> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("read tests/corpus/compute")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp" || e == "hlsl"))
        .collect();
    names.sort();
    names.iter().map(|p| load(p)).collect()
}

/// One corpus shader by file name (`saxpy.comp`).
pub fn load_named(file: &str) -> Shader {
    load(&dir().join(file))
}

fn load(source: &Path) -> Shader {
    let name = source.file_stem().unwrap().to_string_lossy().into_owned();
    let job_path = source.with_file_name(format!("{name}.job.json"));
    let text = std::fs::read_to_string(&job_path)
        .unwrap_or_else(|e| panic!("{}: {e}", job_path.display()));
    let job = Job::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", job_path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let c = &value["x-compare"];
    let tolerance = Tolerance {
        ulps: c["ulps"].as_u64().unwrap_or(0),
        abs: c["abs"].as_f64().unwrap_or(0.0),
        rel: c["rel"].as_f64().unwrap_or(0.0),
    };
    Shader {
        name,
        words: compile(source),
        job,
        tolerance,
    }
}

/// Whether two floats agree within `t` (NaNs agree with NaNs whatever their payload).
pub fn floats_agree(a: f64, b: f64, ulp_distance: u64, t: Tolerance) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return a.to_bits() == b.to_bits() || t != Tolerance::default();
    }
    let diff = (a - b).abs();
    ulp_distance <= t.ulps || diff <= t.abs || diff <= t.rel * a.abs().max(b.abs())
}

/// Distance in ulps between two same-width float bit patterns.
fn ulps(ty: ScalarType, a: u64, b: u64) -> u64 {
    let key = |bits: u64, width: u32| -> i128 {
        let sign = bits >> (width - 1) & 1 == 1;
        let mag = i128::from(bits & ((1u64 << (width - 1)) - 1));
        if sign {
            -mag
        } else {
            mag
        }
    };
    let w = (ty.size() * 8) as u32;
    (key(a, w) - key(b, w))
        .unsigned_abs()
        .min(u128::from(u64::MAX)) as u64
}

/// Every difference between two runs' buffers, as readable lines (empty: they agree).
pub fn differences(want: &RunOutput, got: &RunOutput, t: Tolerance) -> Vec<String> {
    let mut out = Vec::new();
    for w in &want.buffers {
        let Some(g) = got.buffers.iter().find(|g| g.id == w.id) else {
            out.push(format!("{:?}: missing", w.id));
            continue;
        };
        if g.data.bytes.len() != w.data.bytes.len() {
            out.push(format!(
                "{:?}: {} bytes, want {}",
                w.id,
                g.data.bytes.len(),
                w.data.bytes.len()
            ));
            continue;
        }
        let elements = w
            .data
            .layout
            .unpack(&w.data.bytes)
            .zip(g.data.layout.unpack(&g.data.bytes));
        for (i, ((ty, a), (_, b))) in elements.enumerate() {
            let ok = if ty.is_float() {
                let value = |bits: u64| {
                    let mut s = String::new();
                    ty.write_json(bits, &mut s);
                    s.trim_matches('"').parse::<f64>().unwrap_or(f64::NAN)
                };
                floats_agree(value(a), value(b), ulps(ty, a, b), t)
            } else {
                a == b
            };
            if !ok && out.len() < 20 {
                let (mut sa, mut sb) = (String::new(), String::new());
                ty.write_json(a, &mut sa);
                ty.write_json(b, &mut sb);
                let at = match w.id {
                    BufferId::Binding { set, binding } => format!("set {set} binding {binding}"),
                    BufferId::ArrayElement {
                        set,
                        binding,
                        index,
                    } => format!("set {set} binding {binding} index {index}"),
                    BufferId::Arg(i) => format!("arg {i}"),
                };
                out.push(format!("{at} [{i}] ({ty}): want {sa}, got {sb}"));
            }
        }
    }
    out
}
