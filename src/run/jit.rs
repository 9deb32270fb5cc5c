//! JIT compilation of a lowered module with LLVM's MCJIT: optimise for the host CPU, map the
//! runtime hooks, and hand out entry wrappers as plain function pointers. MCJIT picks a generic
//! CPU for its own target machine, so the host CPU and features are set as function attributes
//! (which codegen honours per function) to get the host's vector width.

use super::context::InvocationContext;
use super::error::RunError;
use super::hooks::hooks;
use inkwell::attributes::AttributeLoc;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;

/// An entry wrapper, `void @"spvkit.entry.<name>"(ptr %ctx)`.
pub type EntryFn = unsafe extern "C" fn(*mut InvocationContext);

/// How hard LLVM optimises before code generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// No IR passes (fast compilation, for debugging the lowering).
    O0,
    /// `default<O1>`.
    O1,
    /// `default<O2>`.
    #[default]
    O2,
    /// `default<O3>`.
    O3,
}

/// A compiled module. Function pointers it hands out live as long as it does.
pub struct Jit<'ctx> {
    engine: ExecutionEngine<'ctx>,
}

impl std::fmt::Debug for Jit<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Jit")
    }
}

impl<'ctx> Jit<'ctx> {
    /// Verifies, optimises and compiles `module`; the module then belongs to the JIT (inkwell
    /// keeps it alive as long as the engine).
    pub fn compile(module: &Module<'ctx>, opt: OptLevel) -> Result<Jit<'ctx>, RunError> {
        Target::initialize_native(&InitializationConfig::default()).map_err(RunError::Jit)?;
        module
            .verify()
            .map_err(|e| RunError::Jit(format!("the LLVM module does not verify: {e}")))?;
        let machine = host_machine(opt)?;
        if module.get_triple().as_str().to_bytes().is_empty() {
            module.set_triple(&machine.get_triple());
            module.set_data_layout(&machine.get_target_data().get_data_layout());
        }
        let cx = module.get_context();
        let cpu = TargetMachine::get_host_cpu_name().to_string();
        let features = TargetMachine::get_host_cpu_features().to_string();
        for f in module.get_functions() {
            if f.count_basic_blocks() == 0 {
                continue;
            }
            if f.get_string_attribute(AttributeLoc::Function, "target-cpu")
                .is_none()
            {
                f.add_attribute(
                    AttributeLoc::Function,
                    cx.create_string_attribute("target-cpu", &cpu),
                );
            }
            if f.get_string_attribute(AttributeLoc::Function, "target-features")
                .is_none()
            {
                f.add_attribute(
                    AttributeLoc::Function,
                    cx.create_string_attribute("target-features", &features),
                );
            }
        }
        let pipeline = match opt {
            OptLevel::O0 => None,
            OptLevel::O1 => Some("default<O1>"),
            OptLevel::O2 => Some("default<O2>"),
            OptLevel::O3 => Some("default<O3>"),
        };
        if let Some(p) = pipeline {
            module
                .run_passes(p, &machine, PassBuilderOptions::create())
                .map_err(|e| RunError::Jit(format!("optimising: {e}")))?;
        }
        let level = match opt {
            OptLevel::O0 => OptimizationLevel::None,
            OptLevel::O1 => OptimizationLevel::Less,
            OptLevel::O2 => OptimizationLevel::Default,
            OptLevel::O3 => OptimizationLevel::Aggressive,
        };
        let engine = module
            .create_jit_execution_engine(level)
            .map_err(|e| RunError::Jit(e.to_string()))?;
        for (name, address) in hooks() {
            if let Some(f) = module.get_function(name) {
                engine.add_global_mapping(&f, address);
            }
        }
        Ok(Jit { engine })
    }

    /// The compiled entry wrapper named `symbol`.
    pub fn entry(&self, symbol: &str) -> Result<EntryFn, RunError> {
        let address = self
            .engine
            .get_function_address(symbol)
            .map_err(|e| RunError::Jit(format!("no function {symbol:?} in the module: {e}")))?;
        if address == 0 {
            return Err(RunError::Jit(format!(
                "{symbol:?} compiled to a null address"
            )));
        }
        // SAFETY: the lowering defines entry wrappers as `void (ptr)` (docs/lowering-abi.md), and
        // the code stays mapped as long as `self.engine`.
        Ok(unsafe { std::mem::transmute::<usize, EntryFn>(address) })
    }
}

/// A target machine for the host CPU.
fn host_machine(opt: OptLevel) -> Result<TargetMachine, RunError> {
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| RunError::Jit(e.to_string()))?;
    let level = match opt {
        OptLevel::O0 => OptimizationLevel::None,
        OptLevel::O1 => OptimizationLevel::Less,
        OptLevel::O2 => OptimizationLevel::Default,
        OptLevel::O3 => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            &TargetMachine::get_host_cpu_name().to_string(),
            &TargetMachine::get_host_cpu_features().to_string(),
            level,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| RunError::Jit(format!("no target machine for {triple}")))
}
