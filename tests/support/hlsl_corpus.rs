//! The HLSL frontend's corpus (`tests/corpus/hlsl/{compute,vertex,pixel,invalid}/`): loading
//! the shaders and their header comments, the reference tools (glslangValidator, spirv-val,
//! spirv-dis), FileCheck-style `// CHECK:` patterns and the expected buffers of compute shaders.
//!
//! Header lines (the leading `//` comments of each shader):
//! - `// ARGS: -T cs_6_0 -E main [-HV 2018] [-fspv-target-env=vulkan1.2] [-D N=V] [-I dir]`
//!   (paths relative to `tests/corpus/hlsl/`);
//! - `// GLSLANG: same`, `// GLSLANG: differs: <why>` or `// GLSLANG: fails: <why>`;
//! - `// CHECK: <pattern>`: in order, each must match within a line of the disassembly, after
//!   the line the previous pattern matched; `{{regex}}` parts are regular expressions, the rest
//!   is literal text;
//! - `// ERROR: <line>:<col>: <message substring>` (invalid programs), or `// ERROR: file:
//!   <message substring>` for a diagnostic about the whole file (printed without a place).
//!
//! Compute shaders come with `<stem>.job.json` (the `spvkit run` job) and
//! `<stem>.expected.json` (the buffers they write, computed by `tools/expected.py`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The four parts of the corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// `compute/`.
    Compute,
    /// `vertex/`.
    Vertex,
    /// `pixel/`.
    Pixel,
    /// `invalid/`.
    Invalid,
}

impl Category {
    /// All, in report order.
    pub const ALL: [Category; 4] = [
        Category::Compute,
        Category::Vertex,
        Category::Pixel,
        Category::Invalid,
    ];

    /// The directory under `tests/corpus/hlsl/`.
    pub fn dir_name(self) -> &'static str {
        match self {
            Category::Compute => "compute",
            Category::Vertex => "vertex",
            Category::Pixel => "pixel",
            Category::Invalid => "invalid",
        }
    }
}

/// What the `GLSLANG:` line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Glslang {
    /// glslang compiles it with DXC's meaning (compute shaders: same buffers).
    Same,
    /// glslang compiles it, with another meaning (the reason).
    Differs(String),
    /// glslang rejects it (the reason).
    Fails(String),
}

/// One expected diagnostic of an invalid program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// A substring of the message.
    pub message: String,
}

/// The options of an `ARGS:` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    /// `-T`.
    pub profile: String,
    /// `-E`.
    pub entry: String,
    /// `-HV`, when given.
    pub hlsl_version: Option<String>,
    /// `-fspv-target-env=`, default `vulkan1.0`.
    pub target_env: String,
    /// `-D NAME[=VALUE]`.
    pub defines: Vec<(String, String)>,
    /// `-I`, resolved against `tests/corpus/hlsl/`.
    pub include_dirs: Vec<PathBuf>,
    /// `-enable-16bit-types`.
    pub enable_16bit_types: bool,
}

impl Args {
    /// Parses the words of an `ARGS:` line.
    pub fn parse(text: &str) -> Result<Args, String> {
        let mut args = Args {
            entry: "main".to_owned(),
            target_env: "vulkan1.0".to_owned(),
            ..Args::default()
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut i = 0;
        let value = |i: &mut usize, flag: &str| -> Result<String, String> {
            *i += 1;
            words
                .get(*i)
                .map(|w| (*w).to_owned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        while i < words.len() {
            let w = words[i];
            match w {
                "-T" => args.profile = value(&mut i, w)?,
                "-E" => args.entry = value(&mut i, w)?,
                "-HV" => args.hlsl_version = Some(value(&mut i, w)?),
                "-D" => {
                    let d = value(&mut i, w)?;
                    args.defines.push(split_define(&d));
                }
                "-I" => {
                    let d = value(&mut i, w)?;
                    args.include_dirs.push(root().join(d));
                }
                "-spirv" => {}
                "-enable-16bit-types" => args.enable_16bit_types = true,
                _ => {
                    if let Some(env) = w.strip_prefix("-fspv-target-env=") {
                        args.target_env = env.to_owned();
                    } else if let Some(d) = w.strip_prefix("-D") {
                        args.defines.push(split_define(d));
                    } else if let Some(d) = w.strip_prefix("-I") {
                        args.include_dirs.push(root().join(d));
                    } else {
                        return Err(format!("unknown option `{w}`"));
                    }
                }
            }
            i += 1;
        }
        if args.profile.is_empty() {
            return Err("no -T profile".to_owned());
        }
        Ok(args)
    }

    /// The frontend options the line gives.
    pub fn frontend_options(&self) -> Result<spvkit::hlsl::Options, String> {
        use spvkit::hlsl::{LanguageVersion, Options, Profile};
        use std::str::FromStr;
        let profile = Profile::from_str(&self.profile)?;
        let mut o = Options::new(&self.entry, profile);
        o.defines = self.defines.clone();
        o.include_dirs = self.include_dirs.clone();
        o.enable_16bit_types = self.enable_16bit_types;
        o.version = match self.hlsl_version.as_deref() {
            None | Some("2021") => LanguageVersion::V2021,
            Some("2018") => LanguageVersion::V2018,
            Some(v) => return Err(format!("unknown -HV {v}")),
        };
        o.target_env = spvkit::target_env::TargetEnv::from_str(&self.target_env)
            .map_err(|e| format!("-fspv-target-env={}: {e:?}", self.target_env))?;
        Ok(o)
    }

    /// glslang's `-S` stage name for the profile.
    pub fn glslang_stage(&self) -> &'static str {
        match self.profile.get(..2) {
            Some("vs") => "vert",
            Some("ps") => "frag",
            _ => "comp",
        }
    }
}

fn split_define(d: &str) -> (String, String) {
    match d.split_once('=') {
        Some((n, v)) => (n.to_owned(), v.to_owned()),
        None => (d.to_owned(), "1".to_owned()),
    }
}

/// One corpus shader.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Which part of the corpus.
    pub category: Category,
    /// `compute/int_arith.hlsl`.
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// The source text.
    pub text: String,
    /// The `ARGS:` line.
    pub args: Args,
    /// The `GLSLANG:` line (invalid programs: `Fails`).
    pub glslang: Glslang,
    /// `CHECK:` patterns, in order.
    pub checks: Vec<String>,
    /// `ERROR:` lines.
    pub errors: Vec<ExpectedError>,
}

impl Entry {
    /// `<stem>.job.json` of a compute shader.
    pub fn job_path(&self) -> PathBuf {
        self.path.with_extension("job.json")
    }

    /// `<stem>.expected.json` of a compute shader.
    pub fn expected_path(&self) -> PathBuf {
        self.path.with_extension("expected.json")
    }
}

/// `tests/corpus/hlsl/`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/hlsl")
}

/// Every shader of every category, sorted by name; panics on a malformed header.
pub fn load_all() -> Vec<Entry> {
    let mut all = Vec::new();
    let mut problems = Vec::new();
    for category in Category::ALL {
        let dir = root().join(category.dir_name());
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
            .collect();
        paths.sort();
        for path in paths {
            match load(category, &path) {
                Ok(e) => all.push(e),
                Err(e) => problems.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "bad corpus headers:\n{}",
        problems.join("\n")
    );
    all
}

fn load(category: Category, path: &Path) -> Result<Entry, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut args = None;
    let mut glslang = None;
    let mut checks = Vec::new();
    let mut errors = Vec::new();
    for line in text.lines() {
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let comment = comment.trim();
        if let Some(a) = comment.strip_prefix("ARGS:") {
            args = Some(Args::parse(a)?);
        } else if let Some(g) = comment.strip_prefix("GLSLANG:") {
            let g = g.trim();
            glslang = Some(if g == "same" {
                Glslang::Same
            } else if let Some(why) = g.strip_prefix("differs:") {
                Glslang::Differs(why.trim().to_owned())
            } else if let Some(why) = g.strip_prefix("fails:") {
                Glslang::Fails(why.trim().to_owned())
            } else {
                return Err(format!("bad GLSLANG line `{g}`"));
            });
        } else if let Some(c) = comment.strip_prefix("CHECK:") {
            checks.push(c.trim().to_owned());
        } else if let Some(e) = comment.strip_prefix("ERROR:") {
            errors.push(parse_error_line(e.trim())?);
        }
    }
    let args = args.ok_or("no `// ARGS:` line")?;
    let glslang = match (category, glslang) {
        (Category::Invalid, _) => Glslang::Fails("invalid program".to_owned()),
        (_, Some(g)) => g,
        (_, None) => return Err("no `// GLSLANG:` line".to_owned()),
    };
    if category == Category::Invalid && errors.is_empty() {
        return Err("an invalid program needs `// ERROR:` lines".to_owned());
    }
    let dir = category.dir_name();
    let file = path.file_name().unwrap().to_string_lossy();
    Ok(Entry {
        category,
        name: format!("{dir}/{file}"),
        path: path.to_owned(),
        text,
        args,
        glslang,
        checks,
        errors,
    })
}

fn parse_error_line(e: &str) -> Result<ExpectedError, String> {
    // `file: message`: a diagnostic about the whole file, printed without a place.
    if let Some(message) = e.trim().strip_prefix("file:") {
        return Ok(ExpectedError {
            line: 0,
            col: 0,
            message: message.trim().to_owned(),
        });
    }
    let mut parts = e.splitn(3, ':');
    let (line, col, message) = match (parts.next(), parts.next(), parts.next()) {
        (Some(l), Some(c), Some(m)) => (l, c, m),
        _ => return Err(format!("bad ERROR line `{e}` (want line:col: message)")),
    };
    let num = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("bad ERROR line `{e}`"))
    };
    Ok(ExpectedError {
        line: num(line)?,
        col: num(col)?,
        message: message.trim().to_owned(),
    })
}

/// The diagnostics of a `file:line:col: error: message` rendering, as (line, col, message);
/// one about the whole file (`file: error: message`) is line and column 0.
pub fn rendered_errors(rendered: &str) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    for line in rendered.lines() {
        let Some((place, message)) = line.split_once(": error: ") else {
            continue;
        };
        let mut it = place.rsplitn(3, ':');
        let (col, line_no) = (it.next(), it.next());
        let at = match (col, line_no) {
            (Some(c), Some(l)) => l.trim().parse().ok().zip(c.trim().parse().ok()),
            _ => None,
        };
        let (l, c) = at.unwrap_or((0, 0));
        out.push((l, c, message.to_owned()));
    }
    out
}

/// Lower case, with backquotes as single quotes (`x` and 'x' quote alike).
fn normalize(message: &str) -> String {
    message.to_lowercase().replace('`', "'")
}

/// The expected errors that no rendered diagnostic matches (same line and column, message
/// containing the substring, case-insensitively).
pub fn unmatched_errors(entry: &Entry, rendered: &str) -> Vec<String> {
    let got = rendered_errors(rendered);
    entry
        .errors
        .iter()
        .filter(|e| {
            let want = normalize(&e.message);
            !got.iter()
                .any(|(l, c, m)| *l == e.line && *c == e.col && normalize(m).contains(&want))
        })
        .map(|e| format!("{}:{}: {}", e.line, e.col, e.message))
        .collect()
}

/// A scratch directory for compiled modules.
pub fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hlsl-corpus");
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// A scratch file for `entry`, unique in this process (tests run in parallel threads).
fn scratch_file(entry: &Entry, suffix: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    out_dir().join(format!(
        "{}.{}.{n}.{suffix}",
        entry.name.replace(['/', '.'], "_"),
        std::process::id()
    ))
}

/// Reads a SPIR-V binary.
pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Compiles with `glslangValidator -D -V -S <stage> -e <entry> --target-env <env>`, plus the
/// header's -D and -I (glslang has no -HV: it always short-circuits). glslang legalizes (and so
/// optimizes) HLSL with spirv-opt's passes by default; [`glslang_unoptimized`] does not.
pub fn glslang(entry: &Entry) -> Result<Vec<u32>, String> {
    glslang_with(entry, &[])
}

/// [`glslang`] with `-Od`: the module before any optimization.
pub fn glslang_unoptimized(entry: &Entry) -> Result<Vec<u32>, String> {
    glslang_with(entry, &["-Od"])
}

fn glslang_with(entry: &Entry, extra: &[&str]) -> Result<Vec<u32>, String> {
    let out = scratch_file(
        entry,
        if extra.is_empty() {
            "glslang.spv"
        } else {
            "glslang-od.spv"
        },
    );
    let mut cmd = Command::new("glslangValidator");
    cmd.args(extra);
    cmd.args(["-D", "-V", "-S", entry.args.glslang_stage(), "-e"])
        .arg(&entry.args.entry)
        .args(["--target-env", &entry.args.target_env]);
    for (n, v) in &entry.args.defines {
        cmd.arg(format!("-D{n}={v}"));
    }
    for d in &entry.args.include_dirs {
        cmd.arg(format!("-I{}", d.display()));
    }
    cmd.arg(&entry.path).arg("-o").arg(&out);
    let result = cmd.output().map_err(|e| {
        format!("glslangValidator does not run ({e}): apt-get install glslang-tools")
    })?;
    if !result.status.success() {
        return Err(format!(
            "glslangValidator failed:\n{}{}",
            String::from_utf8_lossy(&result.stdout),
            String::from_utf8_lossy(&result.stderr)
        ));
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string())?;
    Ok(words_of(&bytes))
}

fn write_words(path: &Path, words: &[u32]) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("write a module");
}

/// `spirv-val --target-env <env>` on `words`.
pub fn spirv_val(entry: &Entry, words: &[u32], tag: &str) -> Result<(), String> {
    let path = scratch_file(entry, &format!("{tag}.val.spv"));
    write_words(&path, words);
    let mut cmd = Command::new("spirv-val");
    cmd.args(["--target-env", &entry.args.target_env]);
    if entry.args.target_env == "vulkan1.0" {
        // DXC's relaxed block layout (a float3 right after a float) needs
        // VK_KHR_relaxed_block_layout on Vulkan 1.0; DXC validates its own output this way too.
        cmd.arg("--relax-block-layout");
    }
    let result = cmd
        .arg(&path)
        .output()
        .map_err(|e| format!("spirv-val does not run ({e})"))?;
    if result.status.success() {
        Ok(())
    } else {
        Err(format!(
            "spirv-val: {}{}",
            String::from_utf8_lossy(&result.stdout),
            String::from_utf8_lossy(&result.stderr)
        ))
    }
}

/// `spirv-dis` of `words`.
pub fn spirv_dis(entry: &Entry, words: &[u32], tag: &str) -> Result<String, String> {
    let path = scratch_file(entry, &format!("{tag}.dis.spv"));
    write_words(&path, words);
    let result = Command::new("spirv-dis")
        .arg(&path)
        .output()
        .map_err(|e| format!("spirv-dis does not run ({e})"))?;
    if result.status.success() {
        Ok(String::from_utf8_lossy(&result.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&result.stderr).into_owned())
    }
}

/// The number of instructions of a module (words after the header, by word count).
pub fn instruction_count(words: &[u32]) -> usize {
    let mut i = 5;
    let mut n = 0;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        i += count.max(1);
        n += 1;
    }
    n
}

/// Turns a CHECK pattern into a regular expression: `{{...}}` parts are regexes, the rest is
/// literal.
pub fn check_regex(pattern: &str) -> Result<regex::Regex, String> {
    let mut re = String::new();
    let mut rest = pattern;
    while let Some(start) = rest.find("{{") {
        re.push_str(&regex::escape(&rest[..start]));
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .ok_or_else(|| format!("unclosed {{{{ in `{pattern}`"))?;
        re.push_str(&format!("(?:{})", &after[..end]));
        rest = &after[end + 2..];
    }
    re.push_str(&regex::escape(rest));
    regex::Regex::new(&re).map_err(|e| format!("bad CHECK `{pattern}`: {e}"))
}

/// Matches the CHECK patterns in order against the disassembly's lines.
pub fn run_checks(checks: &[String], disassembly: &str) -> Result<(), String> {
    let lines: Vec<&str> = disassembly.lines().collect();
    let mut next = 0;
    for pattern in checks {
        let re = check_regex(pattern)?;
        match (next..lines.len()).find(|&i| re.is_match(lines[i])) {
            Some(i) => next = i + 1,
            None => {
                return Err(format!(
                    "CHECK `{pattern}` matches no line after line {next} of the disassembly"
                ))
            }
        }
    }
    Ok(())
}

/// The job and expected buffers of a compute shader, and comparison with a run.
#[cfg(feature = "llvm")]
pub mod expect {
    use super::Entry;
    use spvkit::run::output::{BufferId, OutputBuffer};
    use spvkit::run::{Job, RunOutput};

    /// The parsed job, its float tolerance and the expected buffers.
    pub fn load(entry: &Entry) -> Result<(Job, crate::compute::Tolerance, RunOutput), String> {
        let job_text = std::fs::read_to_string(entry.job_path())
            .map_err(|e| format!("{}: {e}", entry.job_path().display()))?;
        let job = Job::from_json(&job_text).map_err(|e| format!("job: {e}"))?;
        let value: serde_json::Value =
            serde_json::from_str(&job_text).map_err(|e| e.to_string())?;
        let c = &value["x-compare"];
        let tolerance = crate::compute::Tolerance {
            ulps: c["ulps"].as_u64().unwrap_or(0),
            abs: c["abs"].as_f64().unwrap_or(0.0),
            rel: c["rel"].as_f64().unwrap_or(0.0),
        };
        let expected_text = std::fs::read_to_string(entry.expected_path())
            .map_err(|e| format!("{}: {e}", entry.expected_path().display()))?;
        let expected: serde_json::Value =
            serde_json::from_str(&expected_text).map_err(|e| format!("expected: {e}"))?;
        // Type the expected data by the job's layout of the same buffer: build a job of just
        // those buffers and let the job parser pack them.
        let mut buffers = Vec::new();
        for b in expected["buffers"]
            .as_array()
            .ok_or("expected: no buffers")?
        {
            let (set, binding) = (b["set"].as_u64(), b["binding"].as_u64());
            let source = value["buffers"]
                .as_array()
                .and_then(|all| {
                    all.iter()
                        .find(|j| j["set"].as_u64() == set && j["binding"].as_u64() == binding)
                })
                .ok_or_else(|| format!("expected buffer {set:?}/{binding:?} is not in the job"))?;
            buffers.push(serde_json::json!({
                "set": set, "binding": binding,
                "layout": source["layout"], "data": b["data"],
            }));
        }
        let packed = Job::from_json(
            &serde_json::json!({ "dispatch": [1, 1, 1], "buffers": buffers }).to_string(),
        )
        .map_err(|e| format!("expected: {e}"))?;
        let want = RunOutput {
            buffers: packed
                .buffers
                .into_iter()
                .map(|b| OutputBuffer {
                    id: BufferId::Binding {
                        set: b.set,
                        binding: b.binding,
                    },
                    data: b.data,
                })
                .collect(),
        };
        Ok((job, tolerance, want))
    }
}
