//! Lowering of SPIR-V (through [`crate::ir`]) to LLVM 19 IR.
//!
//! One-to-one conversions come from the generated pattern table (`grammar/lowering.json`,
//! [`crate::grammar::lowering`]); everything a table cannot say is a small hand-written module
//! here (`ops`). The shape of the output (entry wrappers, the invocation context, storage
//! classes) is the contract in `docs/lowering-abi.md`, [`abi`], which a runner such as `spvkit::run` implements.
//!
//! ```no_run
//! # fn f(words: &[u32]) -> Result<(), spvkit::lower::LowerError> {
//! let cx = spvkit::lower::inkwell::context::Context::create();
//! let lowered = spvkit::lower::lower_binary(&cx, words, &Default::default())?;
//! println!("{}", lowered.module.print_to_string().to_string());
//! # Ok(()) }
//! ```

pub mod abi;
/// The LLVM bindings the lowered module is made with: a caller needs their `Context` (and
/// whatever it does with the module next) at the version spvkit links.
pub use inkwell;
mod constants;
mod entry;
mod error;
mod function;
mod globals;
pub mod interface;
mod llvm;
mod llvm_ext;
mod matrix_layout;
mod ops;
mod output;
pub mod special;
mod spv_ir;
mod types;

pub use error::{LowerError, LowerErrorKind};
pub use interface::{
    KernelParam, LowerOptions, LowerStyle, LoweredEntry, LoweredModule, MemoryBlock, ResourceSlot,
};
pub use ops::report::{core_special_handler, ext_special_handler, lowered_ops, LoweredBy};
pub use output::{emit, emit_to_file, optimize, Emit};

use crate::ir::{self, Handle, WordOffsets};
use error::Result;
use inkwell::context::Context;
use inkwell::targets::TargetData;
use inkwell::values::{BasicValueEnum, FunctionValue};
use std::collections::HashMap;

/// The state of one lowering.
pub(crate) struct Lowerer<'a, 'ctx> {
    pub cx: &'ctx Context,
    pub m: &'a ir::Module,
    pub opts: &'a LowerOptions,
    pub offsets: Option<&'a WordOffsets>,
    pub llm: inkwell::module::Module<'ctx>,
    pub b: inkwell::builder::Builder<'ctx>,
    pub td: TargetData,
    pub types: HashMap<Handle<ir::Type>, types::TypeInfo<'ctx>>,
    pub consts: HashMap<Handle<ir::Constant>, BasicValueEnum<'ctx>>,
    pub specs: HashMap<Handle<ir::SpecConstant>, BasicValueEnum<'ctx>>,
    pub placement: globals::Placement<'ctx>,
    pub push_constant_size: Option<u64>,
    pub functions: Vec<Option<FunctionValue<'ctx>>>,
    pub scratch_fn: Option<FunctionValue<'ctx>>,
    /// `spvkit.storage_class(ctx, p)`, built on first use (`ops::memory::storage_class_of`).
    pub storage_class_fn: Option<FunctionValue<'ctx>>,
    /// Functions (by index) that reach an `OpControlBarrier` directly.
    pub barrier_fns: Vec<bool>,
    /// The op arenas [`lower_owned`] took out of the module, by function index: each goes back
    /// for its function's lowering and is freed then. Empty for a borrowed module.
    pub bodies: Vec<Option<ir::Arena<ir::Op>>>,
    /// The call graph gathered before the ops were taken out ([`entry::call_graph`]).
    pub calls: Option<Vec<Vec<usize>>>,
}

/// The data layout of the host, which the JIT uses.
fn host_target() -> Result<(inkwell::targets::TargetTriple, TargetData)> {
    use inkwell::targets::{InitializationConfig, Target, TargetMachine};
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| LowerError::unsupported(format!("no native LLVM target: {e}")))?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple)
        .map_err(|e| LowerError::unsupported(format!("no LLVM target: {e}")))?;
    let tm = target
        .create_target_machine(
            &triple,
            "generic",
            "",
            inkwell::OptimizationLevel::Default,
            inkwell::targets::RelocMode::Default,
            inkwell::targets::CodeModel::Default,
        )
        .ok_or_else(|| LowerError::unsupported("no LLVM target machine for the host"))?;
    Ok((triple, tm.get_target_data()))
}

/// Lowers a module to LLVM IR in `cx`; a module that [`ir::check`] rejects is an
/// [`LowerErrorKind::Input`] error.
pub fn lower<'ctx>(
    cx: &'ctx Context,
    module: &ir::Module,
    options: &LowerOptions,
) -> core::result::Result<LoweredModule<'ctx>, LowerError> {
    lower_with_offsets(cx, module, None, options)
}

/// Reads a binary and lowers it; errors name the word offset of the op they are about.
pub fn lower_binary<'ctx>(
    cx: &'ctx Context,
    words: &[u32],
    options: &LowerOptions,
) -> core::result::Result<LoweredModule<'ctx>, LowerError> {
    let (m, offsets) = ir::deserialize_with_offsets(words)?;
    // (What `deserialize` returns passes `ir::check`.)
    lower_impl(cx, &m, Some(&offsets), options, Vec::new(), None)
}

/// [`lower`], with the word offsets of the module's ops for error reports.
pub fn lower_with_offsets<'ctx>(
    cx: &'ctx Context,
    module: &ir::Module,
    offsets: Option<&WordOffsets>,
    options: &LowerOptions,
) -> core::result::Result<LoweredModule<'ctx>, LowerError> {
    ir::check(module)?;
    lower_impl(cx, module, offsets, options, Vec::new(), None)
}

/// [`lower_with_offsets`] of a module the caller gives up: each function's ops are freed as
/// soon as the function is lowered, so that the IR and the LLVM module are never both whole
/// (the peak memory of lowering a large module).
pub fn lower_owned<'ctx>(
    cx: &'ctx Context,
    mut module: ir::Module,
    offsets: Option<&WordOffsets>,
    options: &LowerOptions,
) -> core::result::Result<LoweredModule<'ctx>, LowerError> {
    ir::check(&module)?;
    let calls = entry::call_graph(&module);
    let handles: Vec<_> = module.functions.handles().collect();
    let mut bodies = Vec::with_capacity(handles.len());
    for h in handles {
        // llvm-spirv's entry wrappers stay whole: the spv-ir style tells them by their ops.
        let keep = spv_ir::wrapped(&module, h).is_some();
        let f = &mut module.functions[h];
        bodies.push((!keep).then(|| std::mem::take(&mut f.ops)));
    }
    lower_impl(cx, &module, offsets, options, bodies, Some(calls))
}

fn lower_impl<'ctx>(
    cx: &'ctx Context,
    module: &ir::Module,
    offsets: Option<&WordOffsets>,
    options: &LowerOptions,
    bodies: Vec<Option<ir::Arena<ir::Op>>>,
    calls: Option<Vec<Vec<usize>>>,
) -> core::result::Result<LoweredModule<'ctx>, LowerError> {
    let llm = cx.create_module("spvkit");
    let td = if options.style == LowerStyle::SpvIr {
        let (triple, layout) = spv_ir::triple_and_layout(module.addressing_model);
        llm.set_triple(&inkwell::targets::TargetTriple::create(triple));
        let td = TargetData::create(layout);
        llm.set_data_layout(&td.get_data_layout());
        td
    } else {
        let (triple, td) = host_target()?;
        llm.set_triple(&triple);
        llm.set_data_layout(&td.get_data_layout());
        td
    };
    let mut l = Lowerer {
        cx,
        m: module,
        opts: options,
        offsets,
        llm,
        b: cx.create_builder(),
        td,
        types: HashMap::new(),
        consts: HashMap::new(),
        specs: HashMap::new(),
        placement: globals::Placement::default(),
        push_constant_size: None,
        functions: Vec::new(),
        scratch_fn: None,
        storage_class_fn: None,
        barrier_fns: vec![false; module.functions.len()],
        bodies,
        calls,
    };
    let r = l.run();
    if let Some(f) = l.scratch_fn.take() {
        // SAFETY: the scratch function is only used to fold constants; nothing refers to it.
        unsafe { f.delete() };
    }
    let entries = r?;
    // Always, not only in debug builds: invalid SPIR-V (a use that its definition does not
    // dominate, a mistyped return) can make IR that LLVM rejects, and it must be an error here
    // rather than a crash later in the optimizer or the JIT. It costs a few percent.
    l.llm.verify().map_err(|e| LowerError {
        op: "module".into(),
        offset: None,
        kind: LowerErrorKind::Llvm,
        reason: format!("the LLVM verifier rejects the output: {}", e.to_string()),
        input: None,
    })?;
    Ok(LoweredModule {
        module: l.llm,
        entries,
    })
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    fn run(&mut self) -> Result<Vec<LoweredEntry>> {
        if self.spv_ir() {
            return self.run_spv_ir();
        }
        self.place_globals()?;
        self.declare_functions()?;
        for (h, f) in self.m.functions.iter() {
            if !f.is_declaration() {
                self.lower_function(h, f)?;
            }
        }
        self.entries()
    }

    /// A block of the scratch function, for folding constants.
    pub(crate) fn scratch(&mut self) -> Result<inkwell::basic_block::BasicBlock<'ctx>> {
        let f = match self.scratch_fn {
            Some(f) => f,
            None => {
                let f = self.llm.add_function(
                    "spvkit.scratch",
                    self.cx.void_type().fn_type(&[], false),
                    None,
                );
                self.cx.append_basic_block(f, "s");
                self.scratch_fn = Some(f);
                f
            }
        };
        f.get_first_basic_block()
            .ok_or_else(|| LowerError::malformed("scratch"))
    }
}
