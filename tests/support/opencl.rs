//! The OpenCL corpus of `spvkit from-llvm` (`tests/corpus/opencl/from_llvm/*.cl`): each
//! kernel compiled at test time by clang-15 to LLVM bitcode and by llvm-spirv-15 to SPIR-V,
//! into `CARGO_TARGET_TMPDIR`; `<name>.job.json` next to a kernel says how to run it.
//!
//! A `// args: ...` line in a kernel adds clang `-cc1` arguments after the defaults (`-O2`);
//! a `// llvm-spirv: ...` line adds llvm-spirv-15 arguments (`--spirv-ext=+...`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// One compiled corpus kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The file name without `.cl`.
    pub name: String,
    /// The OpenCL C source.
    pub source: PathBuf,
    /// clang-15's bitcode.
    pub bitcode: PathBuf,
    /// llvm-spirv-15's SPIR-V (`--spirv-max-version=1.0`).
    pub reference: PathBuf,
    /// The job for `spvkit run`, for kernels without images.
    pub job: Option<PathBuf>,
}

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl/from_llvm")
}

/// Where compiled files go.
pub fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("from_llvm");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a command; `Err` has its command line and output.
pub fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{cmd:?}: cannot start: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "{cmd:?}: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `clang-15 -cc1` of an OpenCL C 2.0 source to bitcode for `triple`, `flags` after the
/// defaults (`-emit-llvm-bc -finclude-default-header`).
pub fn clang<S: AsRef<std::ffi::OsStr>>(
    src: &Path,
    triple: &str,
    flags: impl IntoIterator<Item = S>,
    bc: &Path,
) -> Result<(), String> {
    run(Command::new("clang-15")
        .args(["-cc1", "-triple", triple, "-cl-std=CL2.0", "-emit-llvm-bc"])
        .arg("-finclude-default-header")
        .args(flags)
        .arg(src)
        .arg("-o")
        .arg(bc))
    .map(|_| ())
}

/// [`run`], panicking with the command line and output on failure.
pub fn run_ok(cmd: &mut Command) -> Vec<u8> {
    run(cmd).unwrap_or_else(|e| panic!("{e}"))
}

/// Compiles one kernel source with clang-15 and llvm-spirv-15.
pub fn compile(source: &Path) -> Result<Kernel, String> {
    let name = source.file_stem().unwrap().to_string_lossy().into_owned();
    let out = out_dir();
    // Per test thread: two tests of one binary compile the same kernels at the same time,
    // and one must not read a file the other is rewriting.
    let thread = format!("{:?}", std::thread::current().id())
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>();
    let bitcode = out.join(format!("{name}.t{thread}.bc"));
    let reference = out.join(format!("{name}.t{thread}.ref.spv"));
    let text = std::fs::read_to_string(source).map_err(|e| e.to_string())?;
    let line_args = |prefix: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .flat_map(|l| l.split_whitespace().map(str::to_owned))
            .collect()
    };
    let extra = line_args("// args:");
    let translator_extra = line_args("// llvm-spirv:");
    run(Command::new("clang-15")
        .args([
            "-cc1",
            "-triple",
            "spir64-unknown-unknown",
            "-cl-std=CL2.0",
            "-emit-llvm-bc",
            "-finclude-default-header",
            "-no-opaque-pointers",
            "-cl-ext=+cl_khr_subgroups",
            "-O2",
        ])
        .args(&extra)
        .arg(source)
        .arg("-o")
        .arg(&bitcode))?;
    run(Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.0")
        .args(&translator_extra)
        .arg(&bitcode)
        .arg("-o")
        .arg(&reference))?;
    let job = source.with_extension("job.json");
    Ok(Kernel {
        name,
        source: source.to_owned(),
        bitcode,
        reference,
        job: job.exists().then_some(job),
    })
}

/// Every corpus kernel, compiled, sorted by name.
pub fn kernels() -> Vec<Kernel> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    sources.sort();
    sources
        .iter()
        .map(|s| compile(s).unwrap_or_else(|e| panic!("compiling {}: {e}", s.display())))
        .collect()
}

/// `spirv-val --target-env <env>`.
pub fn spirv_val(spv: &Path, env: &str) -> Result<(), String> {
    run(Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(spv))
    .map(|_| ())
}
