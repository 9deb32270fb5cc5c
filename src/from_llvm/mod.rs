//! LLVM → SPIR-V (`spvkit from-llvm`): reads SPIR-V-friendly LLVM IR (the form of
//! `spirv-representation-in-llvm-ir.rst`, llvm-spirv-15's `-r --spirv-target-env=SPV-IR`
//! output) and the LLVM IR clang-15 makes from OpenCL C, and writes an OpenCL Kernel module
//! through the IR.
//!
//! One concept per module: `read` (parsing and the LLVM C API), `types`, `constants`
//! (constants and globals), `function` (control flow, phis, allocas), `instructions` (the
//! lowering table read backwards and the special cases), `builtins` (calls, intrinsics,
//! `__spirv_*`), `opencl` (OpenCL C builtins), `images`, [`mangle`] (Itanium names),
//! `metadata` (execution modes and `!spirv.*`), `lazy` (bitcode read a function at a time),
//! `module` (the state and the module as a whole). See `docs/from-llvm.md` for what maps to what.
//!
//! ```no_run
//! let bytes = std::fs::read("kernel.bc")?;
//! let words = spvkit::from_llvm::from_llvm(&bytes, "kernel.bc", &Default::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builtin_names;
mod builtins;
mod constants;
mod decorations;
mod enqueue;
mod error;
mod function;
mod images;
mod instructions;
mod intrinsics;
mod lazy;
pub mod mangle;
mod metadata;
mod module;
mod narrow_ints;
mod opencl;
mod pipes;
mod printf;
mod read;
mod types;

pub use error::{FromLlvmError, Result};

use crate::grammar::Version;
use crate::target_env::TargetEnv;

/// Options of the translation.
#[derive(Clone, Debug)]
pub struct FromLlvmOptions {
    /// The highest SPIR-V version the output may have (from the target environment).
    pub version: Version,
    /// The lowest version to write (the module's own minimum otherwise).
    pub min_version: Version,
    /// Whether a call of a function the module only declares, and that is no builtin, becomes
    /// a call of an imported function (`LinkageAttributes Import`, for the linker to resolve),
    /// as SPIRV-LLVM-Translator always does; without it such a call is an error, since a typo in
    /// a builtin's name would otherwise become a call of nothing. Builtins spvkit cannot
    /// translate are errors either way.
    pub allow_imports: bool,
}

impl Default for FromLlvmOptions {
    /// OpenCL 2.0: SPIR-V 1.0.
    fn default() -> Self {
        FromLlvmOptions {
            version: Version(1, 0),
            min_version: Version(1, 0),
            allow_imports: false,
        }
    }
}

impl FromLlvmOptions {
    /// The options for a target environment.
    pub fn for_env(env: TargetEnv) -> Self {
        FromLlvmOptions {
            version: env.max_version(),
            min_version: Version(1, 0),
            allow_imports: false,
        }
    }
}

/// Translates LLVM IR text or bitcode into a SPIR-V module.
pub fn from_llvm(bytes: &[u8], name: &str, opts: &FromLlvmOptions) -> Result<Vec<u32>> {
    let phase = |name: &str, t: std::time::Instant| crate::phase::report("from-llvm", name, t);
    let t = std::time::Instant::now();
    let cx = inkwell::context::Context::create();
    let m = read::parse(&cx, bytes, name)?;
    phase("parse", t);
    let t = std::time::Instant::now();
    let mut sink = crate::ir::StreamingSerializer::new();
    let translated = module::translate(&m, opts, Some(&mut sink))?;
    // Only declarations and metadata are left of the LLVM module.
    drop(m);
    drop(cx);
    phase("translate", t);
    let t = std::time::Instant::now();
    let words = module::finish(translated, sink, opts)?;
    phase("serialize", t);
    Ok(words)
}

/// Translates a parsed LLVM module into the IR.
pub fn from_llvm_module(
    m: &inkwell::module::Module<'_>,
    opts: &FromLlvmOptions,
) -> Result<crate::ir::Module> {
    module::translate(m, opts, None).and_then(|t| module::into_module(t, opts))
}
