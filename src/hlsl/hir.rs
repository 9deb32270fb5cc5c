//! The typed high-level IR between semantic analysis ([`crate::hlsl::sema`]) and code
//! generation ([`crate::hlsl::emit`]): what every module-scope declaration is, with its
//! resolved type and every language check done. Code generation turns it into SPIR-V without
//! looking at how the source spelled it.
//!
//! Function bodies are not lowered into it yet: code generation still walks their resolved
//! syntax trees and types expressions as it emits them (see `docs/hlsl-frontend.md`).

use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::decls::TypeEnv;
use crate::hlsl::sema::types::{StructDef, Ty};
use crate::hlsl::source::Span;
use std::collections::{HashMap, HashSet};

/// A translation unit's declarations.
#[derive(Debug, Default)]
pub struct Module {
    /// The declared types and module constants.
    pub types: TypeEnv,
    /// The module-scope variables and buffers, in source order (`$Globals` last).
    pub globals: Vec<Global>,
    /// The defined functions (and inline SPIR-V declarations) by qualified name, overloads in
    /// source order.
    pub functions: HashMap<String, Vec<Signature>>,
    /// The structured buffers whose counter methods are called (they get a counter).
    pub counter_users: HashSet<String>,
    /// The names some function assigns as whole variables (`x = ...`).
    pub assigned: HashSet<String>,
    /// Where the first rasterizer-ordered view is declared, if one is: a pixel shader then
    /// runs in a fragment-shader interlock.
    pub interlock: Option<Span>,
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
    /// `static R r = g;` for a resource `g` no function reassigns `r` from: a second name for
    /// the module-scope resource `g`.
    Alias(String),
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
