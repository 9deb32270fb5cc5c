//! Writing a lowered module out: optimized with LLVM's default pipelines (`-O0`..`-O3`) and
//! emitted as LLVM text, bitcode, an object file or assembly for the host.

use super::error::{LowerError, LowerErrorKind, Result};
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use inkwell::OptimizationLevel;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// LLVM assembly (`.ll`).
    Ll,
    /// LLVM bitcode (`.bc`).
    Bc,
    /// A host object file.
    Obj,
    /// Host assembly.
    Asm,
}

impl std::str::FromStr for Emit {
    type Err = String;
    fn from_str(s: &str) -> core::result::Result<Self, String> {
        Ok(match s {
            "ll" => Emit::Ll,
            "bc" => Emit::Bc,
            "obj" => Emit::Obj,
            "asm" => Emit::Asm,
            other => return Err(format!("unknown output kind `{other}` (ll, bc, obj, asm)")),
        })
    }
}

fn llvm_error(what: &str, e: impl std::fmt::Display) -> LowerError {
    LowerError {
        op: "module".into(),
        offset: None,
        kind: LowerErrorKind::Llvm,
        reason: format!("{what}: {e}"),
        input: None,
    }
}

fn host_machine(level: OptimizationLevel) -> Result<TargetMachine> {
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| llvm_error("no native target", e))?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| llvm_error("no target", e))?;
    target
        .create_target_machine(
            &triple,
            "generic",
            "",
            level,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| llvm_error("target machine", "none for the host"))
}

/// Runs LLVM's `default<On>` pipeline (`level` 0 to 3) on `module`.
pub fn optimize(module: &Module<'_>, level: u8) -> Result<()> {
    let ol = match level {
        0 => return Ok(()),
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    let tm = host_machine(ol)?;
    module
        .run_passes(
            &format!("default<O{}>", level.min(3)),
            &tm,
            PassBuilderOptions::create(),
        )
        .map_err(|e| llvm_error("optimization", e.to_string()))
}

/// The machine-code file type of `--emit obj|asm`.
fn file_type(kind: Emit) -> FileType {
    if kind == Emit::Obj {
        FileType::Object
    } else {
        FileType::Assembly
    }
}

/// The bytes of `module` in the given format.
pub fn emit(module: &Module<'_>, kind: Emit) -> Result<Vec<u8>> {
    Ok(match kind {
        Emit::Ll => module.print_to_string().to_bytes().to_vec(),
        Emit::Bc => module.write_bitcode_to_memory().as_slice().to_vec(),
        Emit::Obj | Emit::Asm => {
            let tm = host_machine(OptimizationLevel::Default)?;
            let ft = file_type(kind);
            tm.write_to_memory_buffer(module, ft)
                .map_err(|e| llvm_error("code generation", e.to_string()))?
                .as_slice()
                .to_vec()
        }
    })
}

/// Writes `module` in the given format straight to the file at `path`, without holding the
/// output in memory as well.
pub fn emit_to_file(module: &Module<'_>, kind: Emit, path: &std::path::Path) -> Result<()> {
    match kind {
        Emit::Ll => module
            .print_to_file(path)
            .map_err(|e| llvm_error("writing", e.to_string())),
        Emit::Bc => {
            if module.write_bitcode_to_path(path) {
                Ok(())
            } else {
                Err(llvm_error(
                    "writing",
                    format!("cannot write {}", path.display()),
                ))
            }
        }
        Emit::Obj | Emit::Asm => {
            let tm = host_machine(OptimizationLevel::Default)?;
            let ft = file_type(kind);
            tm.write_to_file(module, ft, path)
                .map_err(|e| llvm_error("code generation", e.to_string()))
        }
    }
}
