//! The module: its addressing model from the triple, the translation state shared by the
//! other modules (type, global, function and builtin-variable maps), the order functions are
//! translated in (callees first), entry points, and the final version/capabilities.

use super::error::{err, FromLlvmError, Result};
use super::FromLlvmOptions;
use super::{lazy, read};
use crate::grammar::{
    AddressingModel, BuiltIn, Capability, Decoration, FunctionControl, MemoryModel, StorageClass,
};
use crate::ir::{self, Builder, ExtInstImport, Function, GlobalVariable, Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;
use std::collections::HashMap;

/// A translated value with its SPIR-V type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val {
    /// The value.
    pub v: Value,
    /// Its type.
    pub ty: Handle<Type>,
}

/// A translated function.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// The IR function.
    pub handle: Handle<Function>,
    /// Its return type.
    pub ret: Handle<Type>,
    /// Its parameter types.
    pub params: Vec<Handle<Type>>,
}

/// What the translation of one module shares between functions.
pub struct State {
    /// The LLVM context.
    pub cx: LLVMContextRef,
    /// The LLVM module.
    pub m: LLVMModuleRef,
    /// LLVM type → SPIR-V type.
    pub types: HashMap<usize, Handle<Type>>,
    /// LLVM global variable → SPIR-V global (its pointer value and type).
    pub globals: HashMap<usize, Val>,
    /// LLVM function → SPIR-V function.
    pub funcs: HashMap<usize, FuncInfo>,
    /// Builtin variables created so far.
    pub builtins: HashMap<u32, Val>,
    /// The OpenCL.std import, once used.
    pub ocl: Option<Handle<ExtInstImport>>,
    /// Physical64 (spir64) rather than Physical32.
    pub phys64: bool,
    /// The name of the function being translated (for errors).
    pub current: String,
    /// The highest SPIR-V version the output may have.
    pub version: crate::grammar::Version,
    /// Whether the constant being translated initializes a global block literal (whose
    /// invoke-function field becomes null).
    pub block_literal: bool,
    /// [`super::FromLlvmOptions::allow_imports`].
    pub allow_imports: bool,
}

impl State {
    /// The `size_t` type.
    pub fn size_t(&self, b: &mut Builder) -> Handle<Type> {
        b.type_int(if self.phys64 { 64 } else { 32 }, false)
    }

    /// The OpenCL.std import.
    pub fn ocl(&mut self, b: &mut Builder) -> Handle<ExtInstImport> {
        *self
            .ocl
            .get_or_insert_with(|| b.ext_inst_import("OpenCL.std"))
    }

    /// The Input variable of a builtin, created on first use.
    pub fn builtin(&mut self, b: &mut Builder, builtin: BuiltIn) -> Val {
        let key = builtin as u32;
        if let Some(v) = self.builtins.get(&key) {
            return *v;
        }
        let size_t = self.size_t(b);
        let u32_t = b.type_int(32, false);
        let ty = match builtin {
            BuiltIn::GlobalInvocationId
            | BuiltIn::LocalInvocationId
            | BuiltIn::WorkgroupId
            | BuiltIn::GlobalSize
            | BuiltIn::WorkgroupSize
            | BuiltIn::EnqueuedWorkgroupSize
            | BuiltIn::NumWorkgroups
            | BuiltIn::GlobalOffset => b.type_vector(size_t, 3),
            BuiltIn::GlobalLinearId | BuiltIn::LocalInvocationIndex => size_t,
            _ => u32_t,
        };
        let pty = b.type_pointer(StorageClass::Input, ty);
        let g = b.global(GlobalVariable {
            name: Some(format!("__spirv_BuiltIn{}", builtin.name())),
            decorations: vec![Decoration::BuiltIn(builtin), Decoration::Constant],
            ..GlobalVariable::new(pty, StorageClass::Input)
        });
        let v = Val {
            v: Value::Global(g),
            ty: pty,
        };
        self.builtins.insert(key, v);
        v
    }
}

/// A translated module whose version, capabilities and extensions are not settled yet.
pub struct Translated {
    /// The module (without the function bodies already streamed out).
    pub module: ir::Module,
    /// Whether a function's values have a `half` type (not only memory accessed as `half`).
    half_values: bool,
}

/// Translates a parsed LLVM module into a SPIR-V IR module.
///
/// With a `sink`, each function's body is written to it and then freed, in the IR and in the
/// LLVM module (which is then spent: only its declarations and metadata are left).
pub fn translate(
    module: &inkwell::module::Module<'_>,
    opts: &FromLlvmOptions,
    mut sink: Option<&mut ir::StreamingSerializer>,
) -> Result<Translated> {
    let m = module.as_mut_ptr();
    let mut asm_len = 0usize;
    // SAFETY: reading the module's inline assembly; the length is written before returning.
    unsafe { inkwell::llvm_sys::core::LLVMGetModuleInlineAsm(m, &mut asm_len) };
    if asm_len > 0 {
        return err("module-level inline assembly (`module asm`) has no SPIR-V form");
    }
    let triple = module.get_triple();
    let triple = triple.as_str().to_string_lossy().into_owned();
    let arch = triple.split('-').next().unwrap_or_default();
    let phys64 = match arch {
        // No triple is LLVM's default, which SPIR-V-friendly IR without one means as spir64.
        "spir64" | "" => true,
        "spir" => false,
        a if a.starts_with("spirv64") => true,
        a if a.starts_with("spirv32") || a.starts_with("spirv") => false,
        _ => {
            return err(format!(
                "target triple \"{triple}\": from-llvm reads LLVM IR for SPIR-V (spir, spir64, \
                 spirv32, spirv64), whose types and calling conventions it can translate"
            ))
        }
    };
    let mut b = Builder::new(
        opts.version,
        if phys64 {
            AddressingModel::Physical64
        } else {
            AddressingModel::Physical32
        },
        MemoryModel::OpenCL,
    );
    for c in [
        Capability::Addresses,
        Capability::Linkage,
        Capability::Kernel,
    ] {
        b.capability(c);
    }
    let mut st = State {
        // SAFETY: reading the module's context.
        cx: unsafe { inkwell::llvm_sys::core::LLVMGetModuleContext(m) },
        m,
        types: HashMap::new(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        builtins: HashMap::new(),
        ocl: None,
        phys64,
        current: String::new(),
        version: opts.version,
        block_literal: false,
        allow_imports: opts.allow_imports,
    };
    super::metadata::module_metadata(&mut st, &mut b)?;
    for g in read::globals(m) {
        if read::section(g).as_deref() == Some("llvm.metadata") {
            // Annotation strings and `llvm.used`: read where they are used, not translated.
            continue;
        }
        super::constants::global(&mut st, &mut b, g)?;
        super::decorations::global(&mut st, &mut b, g)?;
    }
    // Callees before callers (SPIR-V has no recursion), each body read just before it is
    // translated and, when the module is ours, freed just after.
    let mut kernels = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut called = std::collections::HashSet::new();
    let mut half_values = false;
    for f in read::functions(m) {
        if !read::is_declaration(f) {
            let mut cx = Order {
                st: &mut st,
                b: &mut b,
                seen: &mut seen,
                called: &mut called,
                kernels: &mut kernels,
                sink: sink.as_deref_mut(),
                half_values: &mut half_values,
            };
            cx.visit(f)?;
        }
    }
    let interface: Vec<Handle<GlobalVariable>> = {
        let mut v: Vec<(u32, Val)> = st.builtins.iter().map(|(k, v)| (*k, *v)).collect();
        v.sort_by_key(|(k, _)| *k);
        v.into_iter()
            .filter_map(|(_, v)| match v.v {
                Value::Global(g) => Some(g),
                _ => None,
            })
            .collect()
    };
    for (f, h, name) in kernels {
        let name = super::metadata::entry_point_name(&st, f).unwrap_or(name);
        if name.is_empty() {
            return err("a kernel without a name: an entry point needs one (OpEntryPoint's Name)");
        }
        // SPIR-V forbids calling an entry point: a kernel that other functions call gets an
        // entry point of its own that calls it (llvm-spirv wraps every kernel so).
        let entry = if called.contains(&(f as usize)) {
            entry_wrapper(&mut b, h)
        } else {
            h
        };
        b.entry_point(
            crate::grammar::ExecutionModel::Kernel,
            entry,
            &name,
            &interface,
        );
        super::metadata::kernel_modes(&mut st, &mut b, f, entry)?;
    }
    let module = b.finish().map_err(broken)?;
    let half_values = half_values || constants_hold_half(&module);
    Ok(Translated {
        module,
        half_values,
    })
}

/// The module of a translation made without a sink, its version, capabilities and
/// extensions settled.
pub fn into_module(t: Translated, opts: &FromLlvmOptions) -> Result<ir::Module> {
    let mut module = t.module;
    let vce = settle(
        &ir::serialize(&module).map_err(broken)?,
        &module.extensions,
        t.half_values,
        opts,
    )?;
    (module.version, module.capabilities, module.extensions) = vce;
    if module.version >= crate::grammar::Version(1, 4) {
        crate::opt::complete_interfaces(&mut module);
    }
    Ok(module)
}

/// The words of a translation streamed into `sink`, its version, capabilities and extensions
/// settled.
pub fn finish(
    t: Translated,
    sink: ir::StreamingSerializer,
    opts: &FromLlvmOptions,
) -> Result<Vec<u32>> {
    let mut words = sink.finish(&t.module).map_err(broken)?;
    let (version, capabilities, extensions) =
        settle(&words, &t.module.extensions, t.half_values, opts)?;
    if version >= crate::grammar::Version(1, 4) {
        // From 1.4 on an entry point lists every global its call tree uses.
        let (header, mut insts) = crate::binary::decode_module(&words).map_err(|e| {
            FromLlvmError::new(format!("internal: the written module does not decode: {e}"))
        })?;
        if crate::requirements::complete_interfaces(&mut insts) {
            words = crate::binary::encode_module(&header, &insts)
                .map_err(|e| FromLlvmError::new(format!("an entry point's interface: {e}")))?;
        }
    }
    crate::requirements::set_vce(&mut words, version, &capabilities, &extensions);
    Ok(words)
}

/// An IR the translation made that `ir::check` rejects (a bug of the translation).
fn broken(e: ir::IrError) -> FromLlvmError {
    FromLlvmError::new(format!("internal: the translated IR is broken: {e}"))
}

/// The version, capabilities and extensions the module in `words` needs: the IR's
/// requirements, plus `Addresses` and `Kernel` (always declared by OpenCL modules), with
/// `Float16Buffer` for `Float16` where `half` is only a memory format, and the declared
/// extensions the grammar does not know (nothing says they are not needed).
fn settle(
    words: &[u32],
    declared_extensions: &[String],
    half_values: bool,
    opts: &FromLlvmOptions,
) -> Result<(crate::grammar::Version, Vec<Capability>, Vec<String>)> {
    let req = crate::requirements::module_requirements(words).map_err(|e| FromLlvmError {
        cause: Some(e.clone()),
        ..FromLlvmError::new(e.to_string())
    })?;
    let mut capabilities: Vec<Capability> = req.capabilities.iter().copied().collect();
    for c in [Capability::Addresses, Capability::Kernel] {
        if !capabilities.contains(&c) {
            capabilities.insert(0, c);
        }
    }
    if !half_values {
        if let Some(c) = capabilities.iter_mut().find(|c| **c == Capability::Float16) {
            *c = Capability::Float16Buffer;
        }
    }
    let mut extensions: Vec<String> = req
        .extensions
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    extensions.extend(
        declared_extensions
            .iter()
            .filter(|e| e.parse::<crate::grammar::Extension>().is_err())
            .cloned(),
    );
    let version = req.min_version.max(opts.min_version);
    if version > opts.version {
        return err(format!(
            "the module needs SPIR-V {}.{}, above the {}.{} of the target environment",
            version.0, version.1, opts.version.0, opts.version.1
        ));
    }
    Ok((version, capabilities, extensions))
}

/// The depth-first walk of the call graph that translates functions callees first.
struct Order<'a> {
    st: &'a mut State,
    b: &'a mut Builder,
    seen: &'a mut std::collections::HashSet<usize>,
    /// Functions some translated function calls.
    called: &'a mut std::collections::HashSet<usize>,
    kernels: &'a mut Vec<(LLVMValueRef, Handle<Function>, String)>,
    sink: Option<&'a mut ir::StreamingSerializer>,
    half_values: &'a mut bool,
}

impl Order<'_> {
    /// Translates the defined functions `f` calls, then `f` (read if need be).
    fn visit(&mut self, f: LLVMValueRef) -> Result<()> {
        if !self.seen.insert(f as usize) {
            return Ok(());
        }
        lazy::materialize(f).map_err(|mut e| {
            e.function = Some(read::name(f));
            e
        })?;
        for bb in read::blocks(f) {
            for i in read::instructions(bb) {
                if read::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMCall {
                    let n = read::num_operands(i);
                    let callee = read::operand(i, n.saturating_sub(1));
                    let is_function = read::value_kind(callee)
                        == inkwell::llvm_sys::LLVMValueKind::LLVMFunctionValueKind;
                    if is_function {
                        // (A callee translated already has no body left to tell it defined.)
                        self.called.insert(callee as usize);
                    }
                    if is_function && !read::is_declaration(callee) {
                        self.visit(callee)?;
                    }
                    for g in super::enqueue::invoked_functions(i) {
                        self.visit(g)?;
                    }
                }
            }
        }
        let name = read::name(f);
        self.st.current = name.clone();
        let h = super::function::function(self.st, self.b, f).map_err(|mut e| {
            if e.function.is_none() {
                e.function = Some(name.clone());
            }
            e
        })?;
        super::decorations::function(self.st, self.b, f, h)?;
        // SAFETY: reading a function's calling convention.
        let cc = unsafe { inkwell::llvm_sys::core::LLVMGetFunctionCallConv(f) };
        if cc == 76 {
            self.kernels.push((f, h, name));
        }
        if let Some(func) = self.b.module().functions.get(h) {
            *self.half_values |= function_holds_half(self.b.module(), func);
        }
        if let Some(sink) = self.sink.as_deref_mut() {
            sink.write_function(self.b.module(), h).map_err(broken)?;
            if let Some(func) = self.b.module_mut().functions.get_mut(h) {
                func.ops = ir::Arena::new();
                func.header = Vec::new();
                func.block_args = ir::Arena::new();
                func.blocks = ir::Arena::new();
            }
            // SAFETY: the function's translation (and its value maps) is done; callers refer
            // to the function itself, not its body.
            unsafe { lazy::drop_body(f) };
        }
        Ok(())
    }
}

/// A function that takes `kernel`'s parameters, calls it and returns: the entry point of a
/// kernel that is also called. The parameters keep their decorations.
fn entry_wrapper(b: &mut Builder, kernel: Handle<Function>) -> Handle<Function> {
    let Some(k) = b.module().functions.get(kernel) else {
        return kernel;
    };
    let (ty, control, params) = (k.ty, k.control, k.params.clone());
    let ret = match b.module().types.get(ty) {
        Some(Type::Function { ret, .. }) => *ret,
        _ => return kernel,
    };
    let mut f = b.function(ty, control);
    let args: Vec<Value> = (0..params.len() as u32).map(|i| f.param(i)).collect();
    f.function_call(ret, Value::Function(kernel), &args);
    f.ret();
    let wrapper = f.finish();
    if let Some(w) = b.module_mut().functions.get_mut(wrapper) {
        w.params = params;
    }
    wrapper
}

/// The function control of an LLVM function from its attributes.
pub fn function_control(_f: LLVMValueRef) -> FunctionControl {
    FunctionControl::None
}

/// Whether a type is `half` or a vector of `half`. OpenCL without `cl_khr_fp16` may hold
/// `half` in memory only (vload_half/vstore_half): such modules need `Float16Buffer`, not
/// `Float16`.
fn is_half(module: &ir::Module, t: Handle<Type>) -> bool {
    match module.types.get(t) {
        Some(Type::Float { width: 16 }) => true,
        Some(Type::Vector { component, .. }) => {
            matches!(
                module.types.get(*component),
                Some(Type::Float { width: 16 })
            )
        }
        _ => false,
    }
}

/// Whether a constant of the module is `half`.
fn constants_hold_half(module: &ir::Module) -> bool {
    module.constants.iter().any(|(_, c)| is_half(module, c.ty))
}

/// Whether an op result or parameter of a function is `half`.
fn function_holds_half(module: &ir::Module, f: &Function) -> bool {
    f.ops
        .iter()
        .any(|(_, op)| op.result_type().is_some_and(|t| is_half(module, t)))
        || f.params.iter().any(|p| is_half(module, p.ty))
}
