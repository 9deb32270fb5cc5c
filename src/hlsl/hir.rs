//! The typed high-level IR between semantic analysis ([`crate::hlsl::sema`]) and code
//! generation ([`crate::hlsl::codegen`]): what every module-scope declaration is, with its
//! resolved type and every language check done. Code generation turns it into SPIR-V without
//! looking at how the source spelled it.
//!
//! Function bodies are statement trees ([`Body`]): every local's type resolved, every jump
//! checked, every control attribute read and every case label folded. Their expressions are
//! still syntax, with the types semantic analysis gives them ([`Module::expr_types`]) and the
//! implicit conversions it makes explicit ([`Module::conversions`]) beside it, the way rustc
//! keeps its typeck results beside its HIR; code generation derives no type of its own (see
//! `docs/hlsl-frontend.md`).

use crate::grammar::{LoopControl, SelectionControl};
use crate::hlsl::ast::{Declarator, Expr, Initializer, VarDecl};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls::TypeEnv;
use crate::hlsl::sema::types::{StructDef, Ty};
use crate::hlsl::source::Span;
use std::collections::{HashMap, HashSet};

/// A translation unit's declarations.
#[derive(Debug, Default)]
pub struct Module<'u> {
    /// The declared types and module constants.
    pub types: TypeEnv,
    /// The module-scope variables and buffers, in source order (`$Globals` last).
    pub globals: Vec<Global>,
    /// The defined functions (and inline SPIR-V declarations) by qualified name, overloads in
    /// source order.
    pub functions: HashMap<String, Vec<Signature>>,
    /// The structured buffers whose counter methods are called (they get a counter).
    pub counter_users: HashSet<String>,
    /// The textures and samplers declared `[[vk::combinedImageSampler]]`, by name.
    pub combined: HashSet<String>,
    /// The descriptor set and binding of each `[[vk::combinedImageSampler]]` pair: one
    /// combined image sampler each once legalized (`crate::opt::sampled_images`).
    pub combined_places: Vec<(u32, u32)>,
    /// The names some function assigns as whole variables (`x = ...`).
    pub assigned: HashSet<String>,
    /// Where the first rasterizer-ordered view is declared, if one is: a pixel shader then
    /// runs in a fragment-shader interlock.
    pub interlock: Option<Span>,
    /// The functions the entry point and the static initializers reach, callees first;
    /// `None` when the call graph is in error (no entry point, recursion).
    pub order: Option<Vec<String>>,
    /// The bodies of the reached functions, by item index.
    pub bodies: HashMap<usize, Body<'u>>,
    /// The type of each value expression of those bodies (see [`ExprId`]); the views
    /// `.mips`/`.sample` and the descriptor heaps, which are no values, have none.
    pub expr_types: ExprMap<Ty>,
    /// The overload each call of a user function, member function or overloaded operator
    /// calls (the item of its definition), chosen by semantic analysis; code generation calls
    /// it.
    pub callees: ExprMap<usize>,
    /// The type an expression's value is implicitly converted to where it is used (an
    /// operand, an argument, an index, an assigned, initializing or returned value...), for
    /// each expression that is converted; code generation converts exactly these.
    pub conversions: ExprMap<Ty>,
    /// The entry point's stage interface and execution modes, laid out (and checked) by
    /// [`crate::hlsl::sema::interface`]; `None` when the call graph is in error.
    pub interface: Option<Interface>,
    /// Where the reached code first uses derivatives (a derivative intrinsic, a quad
    /// operation, sampling with an implicit level of detail): a compute shader's derivative
    /// group then comes from its `numthreads`.
    pub derivative_use: Option<Span>,
    /// Errors that hold only where the code survives legalization's dead-branch removal:
    /// derivatives in a stage without them, which DXC leaves to the validator of the
    /// legalized module (`if (false) { ddx(x); }` in a vertex shader compiles).
    pub stage_bound: Vec<crate::hlsl::diag::Diagnostic>,
}

/// A table keyed by expression (addresses hash well with rustc's fast hasher).
pub type ExprMap<V> = rustc_hash::FxHashMap<ExprId, V>;

/// An expression of the syntax tree, by identity (its address: the tree outlives the HIR and
/// does not move), as a key of the typing tables, the way rustc keys its typeck results by
/// node id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExprId(usize);

impl ExprId {
    /// The id of `e`.
    pub fn of(e: &Expr) -> Self {
        ExprId(e as *const Expr as usize)
    }
}

/// A function body.
#[derive(Debug, Default)]
pub struct Body<'u> {
    /// Its statements.
    pub stmts: Vec<Stmt<'u>>,
    /// The names it assigns as whole variables (`x = ...`): a local resource so assigned is
    /// refused, and a parameter so assigned is copied.
    pub reassigned: HashSet<String>,
}

/// A statement, its expressions as written.
#[derive(Debug)]
pub enum Stmt<'u> {
    /// `{ ... }`: a scope.
    Block(Vec<Stmt<'u>>),
    /// An expression evaluated for its effects.
    Expr(&'u Expr),
    /// The variables of one declaration, in order.
    Locals(Vec<Local<'u>>),
    /// `if`.
    If {
        /// The condition.
        cond: &'u Expr,
        /// Taken when it holds (its own scope).
        then: Box<Stmt<'u>>,
        /// `else` (its own scope).
        otherwise: Option<Box<Stmt<'u>>>,
        /// `[flatten]`/`[branch]`.
        control: SelectionControl,
    },
    /// `for`/`while`/`do`; a `for`'s initializer is a statement before it in a block.
    Loop {
        /// Tested before each iteration (after, for `do`); none is always true.
        cond: Option<&'u Expr>,
        /// A `for`'s step, in the continue block.
        step: Option<&'u Expr>,
        /// The body (its own scope).
        body: Box<Stmt<'u>>,
        /// `do ... while`.
        do_while: bool,
        /// `[unroll]`/`[loop]`/`[fastopt]`.
        control: LoopControl,
    },
    /// `switch`.
    Switch {
        /// The selector.
        selector: &'u Expr,
        /// The cases in source order (falling through to the next).
        cases: Vec<Case<'u>>,
        /// `[flatten]`/`[branch]`.
        control: SelectionControl,
    },
    /// `break` out of the innermost loop or switch.
    Break,
    /// `continue` of the innermost loop.
    Continue,
    /// `return`, with its value in a non-void function (or a void call's in a void one).
    Return(Option<&'u Expr>),
    /// `discard` (pixel shaders).
    Discard,
}

/// One group of `case` labels of a switch and the statements after them.
#[derive(Debug)]
pub struct Case<'u> {
    /// The label values, folded.
    pub values: Vec<i64>,
    /// Whether `default:` is among the labels.
    pub default: bool,
    /// The statements up to the next group.
    pub body: Vec<Stmt<'u>>,
}

/// One declared local variable.
#[derive(Debug)]
pub struct Local<'u> {
    /// Its declaration (modifiers, written type).
    pub decl: &'u VarDecl,
    /// Its declarator (name, dimensions, initializer).
    pub declarator: &'u Declarator,
    /// What it is.
    pub kind: LocalKind,
    /// `[[vk::ext_decorate*]]`: decorations of its variable.
    pub decorations: Vec<crate::grammar::Decoration>,
}

impl<'u> Local<'u> {
    /// Its initializer.
    pub fn init(&self) -> Option<&'u Initializer> {
        self.declarator.init.as_ref()
    }
}

/// What a local declaration declares.
#[derive(Debug)]
pub enum LocalKind {
    /// A declaration semantic analysis refused (and reported): its name is in scope, and its
    /// uses are not reported again.
    Refused,
    /// A Function variable.
    Var {
        /// Its type (arrays included).
        ty: Ty,
        /// `const`.
        konst: bool,
        /// Of a minimum-precision type (`RelaxedPrecision`).
        relaxed: bool,
        /// Array indices to a 1xN matrix (collapsed to a vector), if the type is one.
        row_depth: Option<u8>,
        /// The one-row or one-column matrix shape the type was written with (its initializer
        /// is truncated to it), when not an array.
        shape: Option<(u32, u32)>,
        /// The value of a `const` integer scalar initialized with a constant.
        value: Option<ConstVal>,
        /// The elements of a `const` integer array initialized with constants.
        elements: Option<Vec<ConstVal>>,
    },
    /// A `static` local: a Private variable initialized once.
    Static {
        /// Its type.
        ty: Ty,
        /// `static const`.
        konst: bool,
    },
    /// HLSL 202x's `auto x = e;` (typed by its initializer, which it has).
    Auto {
        /// `const auto`.
        konst: bool,
    },
    /// A resource variable assigned where it cannot simply name one resource (declared
    /// without an initializer and assigned in a nested block, or assigned again): a Function
    /// variable holding a pointer to the resource, as DXC emits it, which legalization
    /// replaces by the resource itself (an error where it cannot).
    ResourceVar {
        /// Its type.
        ty: Ty,
    },
    /// A resource variable initialized with a resource (which it names from then on).
    ResourceAlias {
        /// Its type.
        ty: Ty,
        /// `static`: the resource must be a module-scope one.
        is_static: bool,
        /// Initialized with `Heap[i]`: the module-scope name of the heap's view as `ty` (a
        /// runtime array of them), which `i` indexes.
        from_heap: Option<String>,
    },
}

/// A module-scope variable or buffer.
#[derive(Clone, Debug)]
pub struct Global {
    /// Its name (`$Globals` for the default constant buffer).
    pub name: String,
    /// Where it is declared (what its binding errors point at).
    pub span: Span,
    /// Its type (for a buffer block, the block struct's).
    pub ty: Ty,
    /// Whether its type has minimum precision (`RelaxedPrecision`).
    pub relaxed: bool,
    /// What kind of variable it is.
    pub kind: GlobalKind,
    /// Where a resource or buffer is bound ([`crate::hlsl::sema::bindings`]).
    pub descriptor: Descriptor,
    /// `[[vk::ext_decorate]]`/`[[vk::ext_decorate_string]]`: decorations of its variable.
    pub decorations: Vec<crate::grammar::Decoration>,
}

/// The descriptor set and binding semantic analysis assigned a resource or buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// Its (binding, set); `None` for a push constant block (or what is no resource).
    pub binding: Option<(u32, u32)>,
    /// Its counter buffer's (binding, set), when it has a counter.
    pub counter: Option<(u32, u32)>,
    /// Its binding was refused (reported): code generation stops before the function bodies.
    pub refused: bool,
}

/// What a module-scope declaration declares.
#[derive(Clone, Debug)]
pub enum GlobalKind {
    /// `string s = "...";`: a name for a literal (a `printf` format); no variable.
    String(String),
    /// A resource (`ty` is `Ty::Resource`), or a fixed-size array of them.
    Resource {
        /// What the source says about its binding.
        binding: Binding,
        /// `globallycoherent`.
        coherent: bool,
        /// `-fspv-reflect`'s `UserTypeGOOGLE` string, if it has one.
        user_type: Option<String>,
        /// A counter buffer goes with it: `Some(Some(b))` at `[[vk::counter_binding(b)]]`.
        counter: Option<Option<u32>>,
        /// An array of this many resources (one binding for all); 0 for an unsized
        /// (runtime) array, `R r[]`.
        array: Option<u32>,
        /// `[[vk::input_attachment_index(N)]]` of a `SubpassInput`.
        input_attachment: Option<u32>,
    },
    /// A `cbuffer`/`tbuffer`, `ConstantBuffer<T>`/`TextureBuffer<T>`, push-constant block or
    /// `$Globals`.
    Block {
        /// The block struct.
        def: StructDef,
        /// The name is the whole buffer (`ConstantBuffer<T> b;`), not its members.
        as_var: bool,
        /// `[[vk::push_constant]]`: no binding.
        push_constant: bool,
        /// Read-only storage with the structured-buffer layout (`tbuffer`, `TextureBuffer`).
        texture: bool,
        /// What the source says about its binding.
        binding: Binding,
        /// `-fspv-reflect`'s `UserTypeGOOGLE` string, if it has one.
        user_type: Option<String>,
        /// An array of this many `ConstantBuffer<T>`/`TextureBuffer<T>` (one binding for
        /// all; 0 for an unsized one), indexed before use.
        array: Option<u32>,
    },
    /// `[[vk::constant_id(id)]]`: a specialization constant (`ty` is a scalar).
    SpecConstant {
        /// The constant id.
        id: u32,
        /// The default value.
        value: ConstVal,
    },
    /// `groupshared`.
    GroupShared {
        /// Array indices to a 1xN matrix (collapsed to a vector), if the type is one.
        row_depth: Option<u8>,
    },
    /// `static`: a Private variable.
    Static {
        /// `static const`.
        konst: bool,
        /// Its initializer, as (item, declarator) indices in the unit, run by the entry point's
        /// wrapper.
        init: Option<(usize, usize)>,
        /// Array indices to a 1xN matrix, if the type is one.
        row_depth: Option<u8>,
        /// The elements of a `static const` integer array of constants, to fold `a[k]`.
        elements: Option<Vec<ConstVal>>,
    },
    /// A `static const` scalar with a constant value: no variable.
    Constant(ConstVal),
    /// `[[vk::ext_builtin_input(b)]] static const T x;` or `[[vk::ext_builtin_output(b)]]
    /// static T x;`: the stage's built-in variable `b` itself, in the entry point's interface
    /// (every such name for one built-in shares it).
    BuiltInVar {
        /// The built-in.
        builtin: crate::grammar::BuiltIn,
        /// An output (`ext_builtin_output`), written; else an input, read.
        output: bool,
    },
    /// A module-scope struct holding only resources (or an array of them), split as DXC's
    /// descriptor scalar replacement splits it: one resource global per resource it holds
    /// (named `g.t`, `g[3].s`...), bound from the struct's binding on in declaration order
    /// (an array of resources taking one binding per element); `g` itself is no variable.
    ResourceStruct {
        /// What the source says about the struct's binding.
        binding: Binding,
        /// How many consecutive bindings its resources take.
        bindings: u32,
        /// The names of its resources' globals, in order.
        leaves: Vec<String>,
    },
    /// `static R r = g;` for a resource `g` no function reassigns `r` from: a second name for
    /// the module-scope resource `g`.
    Alias(String),
    /// `static R r = Heap[i];` (or `= rs[i]` for a module-scope array of resources `rs`) with
    /// `i` computed from constants and constant-buffer members only: element `i` of the
    /// heap's view as `R` (of `rs`), `i` evaluated where `r` is used (with the module's
    /// names), which gives what the static initializer would have.
    HeapAlias {
        /// The heap; `None` for an array of resources.
        heap: Option<Heap>,
        /// `globallycoherent`.
        coherent: bool,
        /// The declaration, as (item, declarator) indices in the unit.
        init: (usize, usize),
        /// The module-scope name of the heap's view as `R` (set by [`crate::hlsl::sema::body`]),
        /// or of the array.
        view: String,
    },
}

/// What `[[vk::binding]]` or `register()` say about a resource's binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// `[[vk::binding(binding, set)]]`.
    VkBinding {
        /// The binding number.
        binding: u32,
        /// The descriptor set, when written.
        set: Option<u32>,
    },
    /// `: register(xN, spaceM)`.
    Register {
        /// The register class (`t`, `s`, `u`, `b`).
        class: char,
        /// The register number.
        index: u32,
        /// The space, when written.
        space: Option<u32>,
    },
    /// `: register(spaceM)`: bound implicitly in descriptor set M.
    Space(u32),
    /// Nothing: bound implicitly.
    Implicit,
    /// A descriptor heap's view of its descriptors as one resource type: every such view of a
    /// heap shares the heap's binding.
    Heap(Heap),
    /// A resource of a module-scope struct of resources ([`GlobalKind::ResourceStruct`]): the
    /// struct's binding plus `offset`.
    Member {
        /// The struct's global (its index in [`Module::globals`]).
        owner: usize,
        /// Its place among the struct's bindings.
        offset: u32,
    },
}

/// A shader model 6.6 descriptor heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heap {
    /// `ResourceDescriptorHeap`.
    Resource,
    /// `SamplerDescriptorHeap`.
    Sampler,
}

impl Heap {
    /// The heap named `name`, if it is one.
    pub fn by_name(name: &str) -> Option<Heap> {
        match name {
            "ResourceDescriptorHeap" => Some(Heap::Resource),
            "SamplerDescriptorHeap" => Some(Heap::Sampler),
            _ => None,
        }
    }

    /// Its name in HLSL (and its variables' in SPIR-V).
    pub fn name(self) -> &'static str {
        match self {
            Heap::Resource => "ResourceDescriptorHeap",
            Heap::Sampler => "SamplerDescriptorHeap",
        }
    }
}

/// A function's resolved signature.
#[derive(Clone, Debug)]
pub struct Signature {
    /// Index of its declaration in the unit's items.
    pub item: usize,
    /// Parameter types and how each is passed.
    pub params: Vec<(Ty, ParamDir)>,
    /// The return type.
    pub ret: Ty,
    /// How many leading parameters have no default value.
    pub required: usize,
    /// Which parameters have a minimum-precision type (`RelaxedPrecision`).
    pub relaxed_params: Vec<bool>,
    /// Whether the return type is a minimum-precision type.
    pub relaxed_ret: bool,
    /// Array indices to a 1xN matrix (collapsed to a vector), per parameter.
    pub row_params: Vec<Option<u8>>,
    /// For an inline SPIR-V declaration (`[[vk::ext_instruction(op)]]`): the opcode, and where
    /// the attribute is.
    pub inline_op: Option<(u32, Span)>,
    /// `[[vk::ext_decorate*]]` on the function.
    pub decorations: Vec<crate::grammar::Decoration>,
    /// `[[vk::ext_decorate*]]` on each parameter.
    pub param_decorations: Vec<Vec<crate::grammar::Decoration>>,
}

/// How a parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamDir {
    /// `in` (default): copied in.
    In,
    /// `out`: copied out.
    Out,
    /// `inout`: both.
    InOut,
}

/// The entry point's stage interface: what the wrapper entry function loads and stores, and
/// its execution modes. Code generation creates these variables as it meets them, in order.
#[derive(Debug, Default)]
pub struct Interface {
    /// The stage variables, in the order the wrapper meets them (the inputs parameter by
    /// parameter, then the return value, then the `out`/`inout` parameters).
    pub vars: Vec<StageVar>,
    /// The clip and cull distance arrays, created before any other stage variable.
    pub distances: Vec<DistanceArray>,
    /// The execution modes the attributes, semantics and options ask for, in DXC's order
    /// (a compute shader's derivative group, found while emitting, comes after them).
    pub modes: Vec<crate::grammar::ExecutionMode>,
    /// A compute shader's `[numthreads(x, y, z)]`, which picks its derivative group.
    pub local_size: Option<[u32; 3]>,
}

/// Where a stage variable's value sits in the source entry function's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoPath {
    /// The parameter (by index) or the return value.
    pub root: IoRoot,
    /// Stored to after the call (an output) rather than loaded before it.
    pub output: bool,
    /// The field indices from the root's type down to the value (empty for the root).
    pub fields: Vec<u32>,
}

/// The part of the entry function's signature an [`IoPath`] starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoRoot {
    /// The parameter with this index.
    Param(usize),
    /// The return value.
    Return,
}

/// One stage input or output.
#[derive(Clone, Debug)]
pub struct StageVar {
    /// The value it holds.
    pub path: IoPath,
    /// The semantic as written (`UserSemantic` under `-fspv-reflect`).
    pub semantic: String,
    /// The type of the value in the source (converted from or to `var_ty`).
    pub ty: Ty,
    /// The variable's own type (a built-in's fixed type; a `bool` crosses as a `uint`).
    pub var_ty: Ty,
    /// The variable's name (`in.var.TEXCOORD0`, `gl_Position`).
    pub name: String,
    /// Where it goes.
    pub place: StagePlace,
    /// `Flat` (`nointerpolation`, or an integer pixel input).
    pub flat: bool,
    /// `NoPerspective`.
    pub noperspective: bool,
    /// `Centroid`.
    pub centroid: bool,
    /// `Sample`.
    pub sample: bool,
}

/// Where a stage variable goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StagePlace {
    /// A built-in variable.
    BuiltIn(crate::grammar::BuiltIn),
    /// A located variable, with `[[vk::index(N)]]` for dual-source blending.
    Location {
        /// The first location it takes.
        location: u32,
        /// Its `Index`, if given.
        index: Option<u32>,
    },
    /// Elements of a clip or cull distance array (no variable of its own).
    Distance {
        /// The array, by index in [`Interface::distances`].
        array: usize,
        /// The first element it takes.
        offset: u32,
    },
}

/// The one `float[len]` built-in array holding every SV_ClipDistance (SV_CullDistance) of a
/// direction, as DXC packs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceArray {
    /// An output (else an input).
    pub output: bool,
    /// CullDistance (else ClipDistance).
    pub cull: bool,
    /// How many floats it holds.
    pub len: u32,
}
