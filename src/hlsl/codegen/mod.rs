//! SPIR-V emission through the [`crate::ir`] builder, in DXC's shape: a wrapper `main` entry
//! function that loads the stage inputs, calls the source entry function (`src.main`) and
//! stores its outputs; functions taking Function-storage pointers; resources as DXC declares
//! them. It runs only on what semantic analysis accepted, and reports only what it does not
//! implement ("not supported yet: ...") and internal errors (a language error found here is
//! semantic analysis's miss). Expressions are still typed as they are emitted, with the rules
//! of [`crate::hlsl::sema::rules`] that semantic analysis applies first (in debug builds every
//! expression is checked against the type it gave); calls call the overload it chose.

mod buffer_address;
mod control;
mod decls;
mod entry;
mod expr;
mod func;
mod intrinsics;
mod math;
mod ops;
mod packed;
mod raw_buffer;
mod ray_query;
mod resources;
mod textures;
mod types;
mod wave;

use super::ast::TranslationUnit;
use super::diag::Diagnostic;
pub(crate) use super::hir::ParamDir;
use super::hir::Signature;
use super::sema::consteval::ConstVal;
use super::sema::decls::TypeEnv;
use super::sema::layout::LayoutRule;
use super::sema::scope::Scopes;
use super::sema::types::{ResourceKind, Ty};
use super::source::Span;
use super::Options;
use crate::grammar::StorageClass;
use crate::ir::{self, Builder, ExtInstImport, GlobalVariable, Handle, SpecConstant, Value};
use std::collections::HashMap;

/// Emits the module for `unit`, which semantic analysis accepted; `None` when a refusal or
/// an internal error was reported (all of them are in `diags`, with warnings). The errors
/// that hold only if their code survives legalization go to `stage_bound`; the descriptor
/// sets and bindings of `[[vk::combinedImageSampler]]` pairs to `combined`.
pub fn emit(
    unit: &TranslationUnit,
    mut module: super::hir::Module,
    options: &Options,
    diags: &mut Vec<Diagnostic>,
    legalization: &mut Vec<(Diagnostic, Option<String>)>,
    stage_bound: &mut Vec<Diagnostic>,
    combined: &mut Vec<(u32, u32)>,
) -> Option<ir::Module> {
    stage_bound.append(&mut module.stage_bound);
    combined.append(&mut module.combined_places);
    let bodies = std::mem::take(&mut module.bodies);
    let expr_types = std::mem::take(&mut module.expr_types);
    let callees = std::mem::take(&mut module.callees);
    let conversions = std::mem::take(&mut module.conversions);
    let mut st = State::new(unit, module, &bodies, &expr_types, options);
    st.callees = callees;
    st.conversions = conversions;
    let mut b = State::builder();
    // DXC records the source language and shader model (`OpSource HLSL 600`).
    b.module_mut().sources.push(ir::Source {
        language: crate::grammar::SourceLanguage::HLSL,
        version: u32::from(options.profile.major) * 100 + u32::from(options.profile.minor) * 10,
        file: None,
        text: None,
    });
    if options.enable_16bit_types {
        // Offered, not forced: the requirements pass (`crate::opt::update_vce`) keeps it only
        // where a 16-bit storage capability needs it, and uses the extension rather than
        // SPIR-V 1.3 for those capabilities, as DXC does for Vulkan 1.0.
        b.extension("SPV_KHR_16bit_storage");
    }
    let ok = decls::emit_module(&mut st, &mut b);
    let module = match ok.then(|| b.finish()) {
        Some(Ok(m)) => Some(m),
        Some(Err(e)) => {
            let internal = format!("internal: {e}");
            st.diags.push(Diagnostic::error(Span::default(), internal));
            None
        }
        None => None,
    };
    diags.append(&mut st.diags);
    legalization.append(&mut st.legalization);
    if diags
        .iter()
        .any(|d| d.severity == super::diag::Severity::Error)
    {
        return None;
    }
    module
}

/// A named thing in scope.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    /// A variable: a pointer to its storage.
    Var(Place),
    /// A member of a cbuffer (or `$Globals`): reached through an access chain.
    Member {
        /// The block variable.
        block: Handle<GlobalVariable>,
        /// The member index.
        index: u32,
        /// The member's type.
        ty: Ty,
        /// Storage class of the block.
        sc: StorageClass,
        /// Layout of the block.
        layout: LayoutRule,
        /// Matrix majorness.
        row_major: bool,
        /// Whether the member has a minimum-precision type.
        relaxed: bool,
        /// Array indices to a 1xN matrix (collapsed to a vector), if the member is one or an
        /// array of them.
        row_depth: Option<u8>,
    },
    /// A resource object.
    Resource(Resource),
    /// A compile-time constant (`static const` scalars).
    Const(ConstVal, Ty),
    /// A specialization constant.
    Spec(Handle<SpecConstant>, Ty),
    /// `static R r = Heap[i];`: element `i` of the heap's view `view` (a module-scope name),
    /// `i` being the initializer of declarator `decl` of item `item`, evaluated where `r` is
    /// used (it reads only module constants and constant-buffer members).
    HeapElement {
        view: String,
        item: usize,
        decl: usize,
    },
    /// A local resource variable declared without an initializer, not assigned yet.
    UnsetResource,
    /// A local resource variable held in memory ([`crate::hlsl::hir::LocalKind::ResourceVar`]):
    /// a Function variable of a pointer to the resource, read at each use.
    ResourceVar {
        /// The variable.
        var: Value,
        /// The resource's type (`Ty::Resource`).
        ty: Ty,
    },
    /// A module-scope struct of resources (or an array of them), split into one resource
    /// variable per resource ([`crate::hlsl::hir::GlobalKind::ResourceStruct`]).
    ResourceStruct {
        /// Its type.
        ty: Ty,
        /// Its resources, in declaration order.
        leaves: Vec<Resource>,
    },
    /// A local whose declaration was refused (reported): using it reports nothing more.
    Refused,
}

/// A resource variable.
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    /// What it is.
    pub kind: ResourceKind,
    /// Its element type.
    pub elem: Ty,
    /// Its storage class.
    pub sc: StorageClass,
    /// The counter of an Append/ConsumeStructuredBuffer (or of a RWStructuredBuffer whose
    /// counter methods are used): a pointer to a buffer holding one `int` (for an array of
    /// buffers, to the array of their counters, indexed with it).
    pub counter: Option<Value>,
    /// Where the resource is: its variable, or an element of an array of resources.
    pub ptr: Value,
    /// The length of an array of resources (indexed before use; 0 for an unsized one);
    /// `None` for one resource.
    pub array: Option<u32>,
}

/// A pointer to storage of a type.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    /// The pointer.
    pub ptr: Value,
    /// The pointee's type.
    pub ty: Ty,
    /// The storage class.
    pub sc: StorageClass,
    /// The pointee's layout.
    pub layout: LayoutRule,
    /// Matrix majorness (layouts only).
    pub row_major: bool,
    /// Whether it may not be assigned.
    pub konst: bool,
}

/// The result of an expression.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    /// A value (in layout `None`).
    R(Value, Ty),
    /// An lvalue.
    P(Place),
    /// A swizzle of a vector lvalue (a write mask when stored to).
    Swz(Place, Vec<u32>),
    /// A resource object.
    Res(Resource),
    /// A texel of a texture or texel buffer (`tex[uv]`), by coordinate.
    Texel(Resource, Value),
    /// `tex.mips` (or, `sample` true, a multisampled `tex.sample`), with the level (sample
    /// index) once indexed: `tex.mips[level]`, which a texel coordinate indexes next.
    Mips(Resource, bool, Option<Value>),
    /// Components of an lvalue that no pointer reaches on its own (`m._11_22`, `tex[uv].x`):
    /// the paths into the base's value, and the type they make (a scalar or vector). Read
    /// by extracting them, written by read-modify-write of the base.
    Elems(Box<Val>, Ty, Vec<Vec<u32>>),
    /// A bit-field: `width` bits from `offset` of an integer lvalue or value of type `Ty`.
    Bits(Box<Val>, Ty, u32, u32),
    /// A resource held in a struct member: the member's place (a pointer to the pointer to
    /// the resource). [`Val::Res`] when read; an assignment stores another resource's
    /// pointer into it.
    Held(Place),
    /// A module-scope struct of resources, or a part of one, of type `Ty` (a struct or an
    /// array of structs): its resources in declaration order. Members and constant indices
    /// select among them; as a value it is the struct its resources make.
    Bundle(Ty, Vec<Resource>),
    /// Something that went wrong (already reported).
    Err,
}

/// A user function: its signature, and the emitted function once emitted.
#[derive(Clone, Debug)]
pub(crate) struct FuncSym {
    /// The resolved signature.
    pub sig: Signature,
    /// The emitted function, once emitted.
    pub handle: Option<Handle<ir::Function>>,
    /// Its definition was refused (the error is reported): calls to it add none.
    pub failed: bool,
}

impl std::ops::Deref for FuncSym {
    type Target = Signature;
    fn deref(&self) -> &Signature {
        &self.sig
    }
}

/// Everything the emitter knows besides the builder.
pub(crate) struct State<'u> {
    pub unit: &'u TranslationUnit,
    /// The bodies of the functions to emit, by item index.
    pub bodies: &'u HashMap<usize, super::hir::Body<'u>>,
    /// The expression types semantic analysis found; in debug builds every expression
    /// emitted is checked against them (release builds do not read them yet).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub expr_types: &'u super::hir::ExprMap<Ty>,
    /// The overload each call calls, where semantic analysis chose it (by item).
    pub callees: super::hir::ExprMap<usize>,
    /// The implicit conversions semantic analysis recorded; in debug builds the emitter's
    /// are checked against them.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub conversions: super::hir::ExprMap<Ty>,
    /// The functions to emit, callees first (`None`: the call graph is in error).
    pub order: Option<Vec<String>>,
    /// The unit uses `precise`: every arithmetic instruction gets `NoContraction` (more than
    /// DXC, which marks only what flows into precise values; never less).
    pub precise: bool,
    pub opts: &'u Options,
    pub diags: Vec<Diagnostic>,
    /// What stands as an error unless legalization removes it ([`State::needs_legalization`]).
    pub legalization: Vec<(Diagnostic, Option<String>)>,
    /// The instances of functions with buffer parameters, by function item and the buffers
    /// passed: the buffers' resources and the emitted function.
    #[allow(clippy::type_complexity)]
    pub instances:
        HashMap<(usize, Vec<Handle<GlobalVariable>>), (Vec<Sym>, Option<Handle<ir::Function>>)>,
    /// The same instances by the buffers' names, in the order they were found.
    pub instance_names: Vec<(usize, Vec<String>)>,
    /// The declared types (structs, typedefs, module constants); the emitter adds the block
    /// structs of `ConstantBuffer<T>` variables.
    pub types: TypeEnv,
    /// Where a rasterizer-ordered view is declared: a pixel shader runs in an interlock.
    pub interlock: Option<Span>,
    /// Where the reached code first uses derivatives (semantic analysis found it): a compute
    /// shader's entry point then gets a derivative-group execution mode.
    pub derivative_use: Option<Span>,
    /// The module-scope declarations, as semantic analysis classified them (taken when
    /// defined).
    pub globals: Vec<super::hir::Global>,
    pub scopes: Scopes<Sym>,
    /// `type.ACSBuffer.counter`, once made.
    pub counter_type: Option<Handle<ir::Type>>,
    /// Global `string` variables: their text.
    pub strings: HashMap<String, String>,
    /// The `OpString` of each text used, once per text.
    pub string_ids: HashMap<String, Handle<String>>,
    /// The values of `const` locals initialized with a constant expression, by variable, so
    /// that they may size arrays (`const uint n = 4; int a[n];`).
    pub const_locals: HashMap<Value, ConstVal>,
    /// The elements of `const` integer arrays initialized with constants, by variable.
    pub const_arrays: HashMap<Value, Vec<ConstVal>>,
    pub functions: HashMap<String, Vec<FuncSym>>,
    pub type_cache: HashMap<(Ty, LayoutRule, bool), Handle<ir::Type>>,
    pub glsl: Option<Handle<ExtInstImport>>,
    pub interface: Vec<Handle<GlobalVariable>>,
    /// The variables of `[[vk::ext_builtin_input/output]]` built-ins, by built-in and
    /// direction (every name for one shares it).
    pub builtin_vars: HashMap<(crate::grammar::BuiltIn, bool), Handle<GlobalVariable>>,
    /// The entry point's execution modes `vk::ext_execution_mode` calls ask for.
    pub extra_modes: Vec<crate::grammar::ExecutionMode>,
    /// Built-in Input variables read by intrinsics (`WaveGetLaneCount`, ...), one per
    /// built-in.
    pub builtins: Vec<(crate::grammar::BuiltIn, Handle<GlobalVariable>)>,
    /// `static` globals with initializers, stored by the wrapper before the call.
    pub static_inits: Vec<(Place, usize, usize)>,
    /// The entry point's stage interface and execution modes as semantic analysis laid them
    /// out (taken by the wrapper).
    pub entry_io: Option<super::hir::Interface>,
    /// Runtime arrays of blocks (`ConstantBuffer<T> cbs[]`): indexed without a bound.
    pub unsized_globals: std::collections::HashSet<Value>,
    /// Global variables of a minimum-precision type (decorated `RelaxedPrecision`).
    pub relaxed_globals: std::collections::HashSet<Handle<GlobalVariable>>,
    /// Global variables declared as 1xN matrices (collapsed to vectors) or arrays of them: the
    /// array indices to the matrix.
    pub row_globals: std::collections::HashMap<Handle<GlobalVariable>, u8>,
}

impl<'u> State<'u> {
    fn builder() -> Builder {
        use crate::grammar::{AddressingModel, MemoryModel, Version};
        let mut b = Builder::new(
            Version(1, 0),
            AddressingModel::Logical,
            MemoryModel::GLSL450,
        );
        b.capability(crate::grammar::Capability::Shader);
        b
    }

    fn new(
        unit: &'u TranslationUnit,
        module: super::hir::Module,
        bodies: &'u HashMap<usize, super::hir::Body<'u>>,
        expr_types: &'u super::hir::ExprMap<Ty>,
        opts: &'u Options,
    ) -> Self {
        let functions = module
            .functions
            .into_iter()
            .map(|(name, sigs)| {
                let syms = sigs.into_iter().map(|sig| FuncSym {
                    sig,
                    handle: None,
                    failed: false,
                });
                (name, syms.collect())
            })
            .collect();
        State {
            unit,
            bodies,
            expr_types,
            callees: Default::default(),
            conversions: Default::default(),
            order: module.order,
            precise: crate::hlsl::sema::attributes::uses_precise(unit),
            opts,
            diags: Vec::new(),
            legalization: Vec::new(),
            types: module.types,
            instances: HashMap::new(),
            instance_names: Vec::new(),
            derivative_use: module.derivative_use,
            interlock: module.interlock,
            globals: module.globals,
            scopes: Scopes::default(),
            counter_type: None,
            strings: HashMap::new(),
            string_ids: HashMap::new(),
            const_locals: HashMap::new(),
            const_arrays: HashMap::new(),
            functions,
            type_cache: HashMap::new(),
            glsl: None,
            interface: Vec::new(),
            builtin_vars: HashMap::new(),
            extra_modes: Vec::new(),
            builtins: Vec::new(),
            static_inits: Vec::new(),
            entry_io: module.interface,
            relaxed_globals: std::collections::HashSet::new(),
            unsized_globals: std::collections::HashSet::new(),
            row_globals: std::collections::HashMap::new(),
        }
    }

    /// Reports an error. Code generation reports only what it does not implement ("not
    /// supported yet: ...") and its own failures: it is given only what semantic analysis
    /// accepted, so a language error found here is semantic analysis's miss, reported as an
    /// internal error (still an error, with its place and reason).
    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        let msg = msg.into();
        let msg = if msg.starts_with("not supported yet") || msg.starts_with("internal:") {
            msg
        } else {
            format!("internal: semantic analysis accepted what code generation rejects: {msg}")
        };
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Records `why` at `span`: code emitted as DXC emits it that Vulkan accepts only once
    /// legalized (`crate::opt::LEGALIZE_HLSL`); the error stands if legalization leaves it:
    /// the variable named `var` that holds a resource, or (`None`) a variable texel offset.
    pub fn needs_legalization(&mut self, span: Span, var: Option<&str>, why: impl Into<String>) {
        self.legalization
            .push((Diagnostic::error(span, why.into()), var.map(str::to_owned)));
    }

    /// Reports a failure of code generation itself: `what` went wrong, although semantic
    /// analysis accepted the program (a bug, reported as an error with its place).
    pub fn internal(&mut self, span: Span, what: impl std::fmt::Display) {
        self.diags
            .push(Diagnostic::error(span, format!("internal: {what}")));
    }

    /// The GLSL.std.450 import.
    /// The `OpString` holding `text` (one per text, as DXC).
    pub fn string_id(&mut self, b: &mut Builder, text: &str) -> Handle<String> {
        if let Some(&h) = self.string_ids.get(text) {
            return h;
        }
        let h = b.string(text);
        self.string_ids.insert(text.to_owned(), h);
        h
    }

    pub fn glsl(&mut self, b: &mut Builder) -> Handle<ExtInstImport> {
        match self.glsl {
            Some(h) => h,
            None => {
                let h = b.ext_inst_import("GLSL.std.450");
                self.glsl = Some(h);
                h
            }
        }
    }

    /// The layout of constant buffers (`cbuffer`, `ConstantBuffer<T>`, `$Globals`).
    pub fn cbuffer_rule(&self) -> LayoutRule {
        LayoutRule::cbuffer(self.opts.layout)
    }

    /// The layout of structured and byte-address buffers and push constants.
    pub fn sbuffer_rule(&self) -> LayoutRule {
        LayoutRule::sbuffer(self.opts.layout)
    }

    /// Whether buffers use the StorageBuffer storage class: from SPIR-V 1.4 (Vulkan 1.2 and
    /// later, `vulkan1.1spirv1.4`, `universal1.5`), whose modules may not use `BufferBlock`.
    pub fn storage_buffer_class(&self) -> bool {
        self.opts.target_env.spirv_version() >= crate::grammar::Version(1, 4)
    }
}
