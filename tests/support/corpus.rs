//! Test corpus for spvkit integration tests: builds every source under `tests/corpus/` into a
//! SPIR-V binary with the external reference tools and describes the results.
//!
//! Include it from an integration test with
//!
//! ```ignore
//! #[path = "support/corpus.rs"]
//! mod corpus;
//!
//! #[test]
//! fn parses_every_corpus_module() {
//!     for m in corpus::build_all() {
//!         let bytes = std::fs::read(&m.path).unwrap();
//!         // ...
//!     }
//! }
//! ```
//!
//! The naming and header conventions are documented in `tests/corpus/README.md`. Only `std` is
//! used. Every failure (missing tool, failing compile) panics with a message that names the
//! tool or the source file and includes the tool's output: tests fail, they never skip.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Bump when the build conventions change so that stale cached binaries are not reused.
const CACHE_VERSION: &str = "v1";

/// Where a corpus module comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// `tests/corpus/glsl/*.<stage>`, compiled with `glslangValidator -V`.
    Glsl,
    /// `tests/corpus/hlsl/*.<cs|vs|ps|gs|hs|ds>.hlsl`, compiled with `glslangValidator -D -V`.
    Hlsl,
    /// `tests/corpus/spvasm/*.spvasm`, assembled with `spirv-as`.
    SpvAsm,
    /// `tests/corpus/opencl/*.cl`, compiled with `clang-15 -cc1` and `llvm-spirv-15`.
    OpenCl,
}

impl Source {
    pub const ALL: [Source; 4] = [Source::Glsl, Source::Hlsl, Source::SpvAsm, Source::OpenCl];

    /// Sub-directory of `tests/corpus/` (also the prefix of module names).
    pub fn dir_name(self) -> &'static str {
        match self {
            Source::Glsl => "glsl",
            Source::Hlsl => "hlsl",
            Source::SpvAsm => "spvasm",
            Source::OpenCl => "opencl",
        }
    }

    /// Comment prefix used for header directives in this kind of source.
    fn comment(self) -> &'static str {
        match self {
            Source::SpvAsm => ";",
            _ => "//",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir_name())
    }
}

/// One built corpus module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Stable, unique name: `<kind>/<source file name>`, e.g. `glsl/saxpy.comp`.
    pub name: String,
    pub source: Source,
    /// The built `.spv` file, e.g. `<out>/glsl__saxpy.comp.spv`.
    pub path: PathBuf,
    /// Environment for `spirv-val --target-env` (e.g. `vulkan1.2`, `spv1.4`, `opencl2.0`).
    pub target_env: String,
    /// Whether the module is expected to pass `spirv-val --target-env <target_env>`.
    pub valid: bool,
}

impl Module {
    /// The source file this module was built from.
    pub fn source_path(&self) -> PathBuf {
        corpus_dir().join(&self.name)
    }

    /// The raw bytes of the built binary.
    pub fn bytes(&self) -> Vec<u8> {
        fs::read(&self.path)
            .unwrap_or_else(|e| panic!("spvkit corpus: cannot read {}: {e}", self.path.display()))
    }

    /// The binary as little-endian 32-bit words.
    pub fn words(&self) -> Vec<u32> {
        let bytes = self.bytes();
        assert!(
            bytes.len().is_multiple_of(4),
            "spvkit corpus: {} is not a whole number of words",
            self.path.display()
        );
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }
}

/// `tests/corpus/` of the crate under test.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("corpus")
}

/// Directory the binaries are written to. `SPVKIT_CORPUS_OUT` overrides; otherwise
/// `$CARGO_TARGET_TMPDIR/corpus/<version>` (integration tests), else `<target dir>/spvkit-corpus/<version>`.
pub fn output_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SPVKIT_CORPUS_OUT") {
        return PathBuf::from(dir);
    }
    if let Some(tmp) = option_env!("CARGO_TARGET_TMPDIR") {
        return Path::new(tmp).join("corpus").join(CACHE_VERSION);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("spvkit-corpus").join(CACHE_VERSION)
}

/// Builds (or reuses, when the `.spv` is at least as new as its source) every corpus module and
/// returns them sorted by name. The work runs once per process; later calls return the same list.
///
/// Panics with a clear message naming the missing tool, or the failing source together with the
/// tool's command line and output.
pub fn build_all() -> Vec<Module> {
    static BUILT: OnceLock<Vec<Module>> = OnceLock::new();
    BUILT.get_or_init(build_all_uncached).clone()
}

/// Runs `spirv-val --target-env <env>` on a module; `Err` carries the validator's output.
pub fn spirv_val(m: &Module) -> Result<(), String> {
    let tool = Tool::SpirvVal;
    let mut cmd = tool.command();
    cmd.arg("--target-env").arg(&m.target_env).arg(&m.path);
    let out = run(tool, &mut cmd);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs `spirv-dis` on a module and returns the disassembly text.
pub fn spirv_dis(m: &Module) -> Result<String, String> {
    let tool = Tool::SpirvDis;
    let mut cmd = tool.command();
    cmd.arg("--raw-id").arg(&m.path);
    let out = run(tool, &mut cmd);
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

// ---------------------------------------------------------------------------------------------
// Tools

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Glslang,
    SpirvAs,
    SpirvVal,
    SpirvDis,
    Clang,
    LlvmSpirv,
}

impl Tool {
    fn default_program(self) -> &'static str {
        match self {
            Tool::Glslang => "glslangValidator",
            Tool::SpirvAs => "spirv-as",
            Tool::SpirvVal => "spirv-val",
            Tool::SpirvDis => "spirv-dis",
            Tool::Clang => "clang-15",
            Tool::LlvmSpirv => "llvm-spirv-15",
        }
    }

    fn env_var(self) -> &'static str {
        match self {
            Tool::Glslang => "SPVKIT_GLSLANG",
            Tool::SpirvAs => "SPVKIT_SPIRV_AS",
            Tool::SpirvVal => "SPVKIT_SPIRV_VAL",
            Tool::SpirvDis => "SPVKIT_SPIRV_DIS",
            Tool::Clang => "SPVKIT_CLANG",
            Tool::LlvmSpirv => "SPVKIT_LLVM_SPIRV",
        }
    }

    fn package_hint(self) -> &'static str {
        match self {
            Tool::Glslang => "Debian/Ubuntu: apt-get install glslang-tools",
            Tool::SpirvAs | Tool::SpirvVal | Tool::SpirvDis => {
                "Debian/Ubuntu: apt-get install spirv-tools"
            }
            Tool::Clang => "Debian/Ubuntu: apt-get install clang-15",
            Tool::LlvmSpirv => "Debian/Ubuntu: apt-get install llvm-spirv-15",
        }
    }

    fn program(self) -> PathBuf {
        match std::env::var_os(self.env_var()) {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => PathBuf::from(self.default_program()),
        }
    }

    fn command(self) -> Command {
        let mut cmd = Command::new(self.program());
        cmd.stdin(Stdio::null());
        cmd
    }

    fn missing(self, err: &io::Error) -> ! {
        panic!(
            "\n\n==== spvkit corpus: required tool `{}` could not be run ====\n\
             tried: {:?} ({err})\n\
             install it ({}) or set {} to its path.\n\
             The corpus tests need it; they fail instead of skipping.\n",
            self.default_program(),
            self.program(),
            self.package_hint(),
            self.env_var(),
        )
    }

    /// Panics with a loud message if the tool cannot be started.
    fn ensure_available(self) {
        let mut cmd = self.command();
        cmd.arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Err(e) = cmd.status() {
            self.missing(&e);
        }
    }
}

fn run(tool: Tool, cmd: &mut Command) -> Output {
    match cmd.output() {
        Ok(out) => out,
        Err(e) => tool.missing(&e),
    }
}

fn render(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        let a = a.to_string_lossy();
        if a.is_empty() || a.contains(char::is_whitespace) {
            s.push_str(&format!(" '{a}'"));
        } else {
            s.push(' ');
            s.push_str(&a);
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Header directives

/// `key: value` directives from the leading comment block of a source file.
#[derive(Debug, Default)]
struct Header {
    values: BTreeMap<&'static str, String>,
}

const KEYS: [&str; 6] = [
    "args",
    "target-env",
    "valid",
    "entry",
    "triple",
    "llvm-spirv",
];

impl Header {
    /// Scans the leading block of blank lines, comment lines and `#version` lines. A comment line of
    /// the form `<comment> key: value` with a known key is a directive; repeated `args` and
    /// `llvm-spirv` directives accumulate, other keys keep their last value.
    fn parse(text: &str, comment: &str) -> Header {
        let mut h = Header::default();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("#version") {
                continue;
            }
            let Some(rest) = line.strip_prefix(comment) else {
                break;
            };
            let rest = rest.trim_start();
            let Some((key, value)) = rest.split_once(':') else {
                continue;
            };
            let Some(key) = KEYS.iter().copied().find(|k| *k == key) else {
                continue;
            };
            let value = value.trim().to_string();
            match h.values.get_mut(key) {
                Some(existing) if key == "args" || key == "llvm-spirv" => {
                    existing.push(' ');
                    existing.push_str(&value);
                }
                _ => {
                    h.values.insert(key, value);
                }
            }
        }
        h
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    fn words(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(|v| v.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    }

    fn valid(&self, name: &str) -> Result<bool, String> {
        match self.get("valid") {
            None | Some("yes") | Some("true") => Ok(true),
            Some("no") | Some("false") => Ok(false),
            Some(other) => Err(format!(
                "{name}: header `valid: {other}` must be yes/no/true/false"
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Jobs

const GLSL_STAGES: [&str; 14] = [
    "vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task", "rgen", "rint", "rahit",
    "rchit", "rmiss", "rcall",
];

struct Job {
    name: String,
    source: Source,
    src: PathBuf,
    file_name: String,
    out: PathBuf,
    header: Header,
}

struct Step {
    tool: Tool,
    cmd: Command,
}

impl Job {
    fn target_env(&self) -> Result<String, String> {
        if let Some(env) = self.header.get("target-env") {
            return Ok(env.to_string());
        }
        match self.source {
            Source::Glsl | Source::Hlsl => {
                let args = self.header.words("args");
                let env = args
                    .iter()
                    .position(|a| a == "--target-env")
                    .and_then(|i| args.get(i + 1));
                Ok(match env.map(String::as_str) {
                    None => "vulkan1.0".to_string(),
                    Some("spirv1.4") => "vulkan1.1spv1.4".to_string(),
                    Some(v) if v.starts_with("spirv1.") => format!("spv{}", &v["spirv".len()..]),
                    Some("opengl") => "opengl4.5".to_string(),
                    Some(v) => v.to_string(),
                })
            }
            Source::SpvAsm => Err(format!(
                "{}: missing `; target-env: <env>` on the first line (required for .spvasm)",
                self.name
            )),
            Source::OpenCl => Ok("opencl2.0".to_string()),
        }
    }

    fn needed_tools(&self) -> &'static [Tool] {
        match self.source {
            Source::Glsl | Source::Hlsl => &[Tool::Glslang],
            Source::SpvAsm => &[Tool::SpirvAs],
            Source::OpenCl => &[Tool::Clang, Tool::LlvmSpirv],
        }
    }

    fn is_fresh(&self) -> bool {
        let (Ok(src), Ok(out)) = (fs::metadata(&self.src), fs::metadata(&self.out)) else {
            return false;
        };
        match (src.modified(), out.modified()) {
            (Ok(s), Ok(o)) => out.len() > 0 && o >= s,
            _ => false,
        }
    }

    /// The commands producing `tmp` (the final output is renamed into place afterwards).
    fn steps(&self, tmp: &Path, tmp_bc: &Path) -> Result<Vec<Step>, String> {
        let dir = self.src.parent().expect("corpus file has a parent");
        let args = self.header.words("args");
        let mut steps = Vec::new();
        match self.source {
            Source::Glsl => {
                let mut cmd = Tool::Glslang.command();
                // Run in the source directory with a relative name so -g output is machine independent.
                cmd.current_dir(dir)
                    .arg("-V")
                    .args(&args)
                    .arg("-o")
                    .arg(tmp)
                    .arg(&self.file_name);
                steps.push(Step {
                    tool: Tool::Glslang,
                    cmd,
                });
            }
            Source::Hlsl => {
                let stage = hlsl_stage(&self.file_name).ok_or_else(|| {
                    format!(
                        "{}: HLSL file names must look like <name>.<cs|vs|ps|gs|hs|ds>.hlsl",
                        self.name
                    )
                })?;
                let entry = self.header.get("entry").unwrap_or("main");
                let mut cmd = Tool::Glslang.command();
                cmd.current_dir(dir)
                    .args(["-D", "-V", "-e", entry, "-S", stage])
                    .args(&args)
                    .arg("-o")
                    .arg(tmp)
                    .arg(&self.file_name);
                steps.push(Step {
                    tool: Tool::Glslang,
                    cmd,
                });
            }
            Source::SpvAsm => {
                let env = self.target_env()?;
                let mut cmd = Tool::SpirvAs.command();
                cmd.current_dir(dir)
                    .arg("--target-env")
                    .arg(env)
                    .args(&args)
                    .arg("-o")
                    .arg(tmp)
                    .arg(&self.file_name);
                steps.push(Step {
                    tool: Tool::SpirvAs,
                    cmd,
                });
            }
            Source::OpenCl => {
                let triple = self
                    .header
                    .get("triple")
                    .unwrap_or("spir64-unknown-unknown");
                let mut cc = Tool::Clang.command();
                cc.current_dir(dir)
                    .args(["-cc1", "-triple", triple, "-cl-std=CL2.0", "-emit-llvm-bc"])
                    .args(["-finclude-default-header", "-no-opaque-pointers", "-O0"])
                    // Relative names keep debug info independent of the checkout location.
                    .arg("-main-file-name")
                    .arg(&self.file_name)
                    .arg("-fdebug-compilation-dir=.")
                    .args(&args)
                    .arg("-o")
                    .arg(tmp_bc)
                    .arg(&self.file_name);
                steps.push(Step {
                    tool: Tool::Clang,
                    cmd: cc,
                });
                let mut ls = Tool::LlvmSpirv.command();
                ls.current_dir(dir)
                    .arg("--spirv-max-version=1.0")
                    .args(self.header.words("llvm-spirv"))
                    .arg(tmp_bc)
                    .arg("-o")
                    .arg(tmp);
                steps.push(Step {
                    tool: Tool::LlvmSpirv,
                    cmd: ls,
                });
            }
        }
        Ok(steps)
    }

    /// Builds into unique temporary files and atomically renames the result into place, so
    /// concurrent test binaries never observe (or clobber each other with) partial output.
    fn build(&self) -> Result<(), String> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "{}.{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let tmp = self.out.with_file_name(format!(
            ".{}.{unique}.tmp",
            self.out.file_name().unwrap().to_string_lossy()
        ));
        let tmp_bc = tmp.with_extension("bc");
        let result = (|| {
            for Step { tool, mut cmd } in self.steps(&tmp, &tmp_bc)? {
                let out = run(tool, &mut cmd);
                if !out.status.success() {
                    return Err(format!(
                        "{}: `{}` failed ({})\n--- stdout ---\n{}\n--- stderr ---\n{}",
                        self.name,
                        render(&cmd),
                        out.status,
                        String::from_utf8_lossy(&out.stdout).trim_end(),
                        String::from_utf8_lossy(&out.stderr).trim_end(),
                    ));
                }
            }
            match fs::metadata(&tmp) {
                Ok(m) if m.len() > 0 && m.len() % 4 == 0 => {}
                Ok(m) => {
                    return Err(format!(
                        "{}: tool produced a {}-byte file, not SPIR-V",
                        self.name,
                        m.len()
                    ))
                }
                Err(e) => {
                    return Err(format!(
                        "{}: tool reported success but wrote no output: {e}",
                        self.name
                    ))
                }
            }
            fs::rename(&tmp, &self.out).map_err(|e| {
                format!(
                    "{}: cannot move {} to {}: {e}",
                    self.name,
                    tmp.display(),
                    self.out.display()
                )
            })
        })();
        let _ = fs::remove_file(&tmp_bc);
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    fn module(&self) -> Result<Module, String> {
        Ok(Module {
            name: self.name.clone(),
            source: self.source,
            path: self.out.clone(),
            target_env: self.target_env()?,
            valid: self.header.valid(&self.name)?,
        })
    }
}

fn hlsl_stage(file_name: &str) -> Option<&'static str> {
    let stem = file_name.strip_suffix(".hlsl")?;
    let (_, stage) = stem.rsplit_once('.')?;
    Some(match stage {
        "cs" => "comp",
        "vs" => "vert",
        "ps" => "frag",
        "gs" => "geom",
        "hs" => "tesc",
        "ds" => "tese",
        _ => return None,
    })
}

fn accepts(source: Source, file_name: &str) -> bool {
    match source {
        Source::Glsl => file_name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| GLSL_STAGES.contains(&ext)),
        Source::Hlsl => file_name.ends_with(".hlsl"),
        Source::SpvAsm => file_name.ends_with(".spvasm"),
        Source::OpenCl => file_name.ends_with(".cl"),
    }
}

fn collect_jobs(out_dir: &Path) -> Vec<Job> {
    let root = corpus_dir();
    let mut jobs = Vec::new();
    let mut problems = Vec::new();
    for source in Source::ALL {
        let dir = root.join(source.dir_name());
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| {
            panic!(
                "spvkit corpus: cannot read corpus directory {}: {e}",
                dir.display()
            )
        });
        for entry in entries {
            let entry = entry
                .unwrap_or_else(|e| panic!("spvkit corpus: cannot list {}: {e}", dir.display()));
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with('.') || !entry.path().is_file() {
                continue;
            }
            if !accepts(source, &file_name) {
                problems.push(format!(
                    "{}/{file_name}: unrecognised file name in the {source} corpus",
                    source
                ));
                continue;
            }
            let src = entry.path();
            let text = fs::read_to_string(&src)
                .unwrap_or_else(|e| panic!("spvkit corpus: cannot read {}: {e}", src.display()));
            jobs.push(Job {
                name: format!("{}/{file_name}", source.dir_name()),
                source,
                out: out_dir.join(format!("{}__{file_name}.spv", source.dir_name())),
                header: Header::parse(&text, source.comment()),
                file_name,
                src,
            });
        }
    }
    if !problems.is_empty() {
        panic!(
            "\n\n==== spvkit corpus: bad corpus layout ====\n{}\n(see tests/corpus/README.md)\n",
            problems.join("\n")
        );
    }
    jobs.sort_by(|a, b| a.name.cmp(&b.name));
    jobs
}

fn build_all_uncached() -> Vec<Module> {
    let out_dir = output_dir();
    fs::create_dir_all(&out_dir).unwrap_or_else(|e| {
        panic!(
            "spvkit corpus: cannot create output directory {}: {e}",
            out_dir.display()
        )
    });
    let jobs = collect_jobs(&out_dir);

    // Header errors first: they need no tools.
    let mut errors: Vec<String> = jobs.iter().filter_map(|j| j.module().err()).collect();
    if !errors.is_empty() {
        panic!(
            "\n\n==== spvkit corpus: bad source headers ====\n{}\n",
            errors.join("\n")
        );
    }

    let stale: Vec<&Job> = jobs.iter().filter(|j| !j.is_fresh()).collect();
    let mut tools: Vec<Tool> = Vec::new();
    for job in &stale {
        for t in job.needed_tools() {
            if !tools.contains(t) {
                tools.push(*t);
            }
        }
    }
    for t in tools {
        t.ensure_available();
    }

    if !stale.is_empty() {
        let threads = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(stale.len())
            .max(1);
        let next = AtomicUsize::new(0);
        let failures = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = stale.get(i) else { break };
                    if let Err(e) = job.build() {
                        failures.lock().unwrap_or_else(|p| p.into_inner()).push(e);
                    }
                });
            }
        });
        errors = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    }
    if !errors.is_empty() {
        errors.sort();
        panic!(
            "\n\n==== spvkit corpus: {} of {} modules failed to build ====\n\n{}\n",
            errors.len(),
            jobs.len(),
            errors.join("\n\n")
        );
    }

    jobs.iter()
        .map(|j| j.module().expect("checked above"))
        .collect()
}
