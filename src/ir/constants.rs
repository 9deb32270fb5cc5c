//! Constants and specialization constants.
//!
//! [`Constant`] is the one constant kind: scalars (booleans included), composites, nulls,
//! samplers and undefined values, uniqued in the module ([`super::UniqueArena`]) wherever they
//! were declared, so a function refers to a constant by its handle. A
//! [`SpecConstant`] is a symbol: it keeps its identity and is referenced by handle.

use super::arena::Handle;
use super::types::Type;
use super::value::Value;
use super::Loc;
use crate::grammar::{
    Decoration, Instruction, LiteralNumber, SamplerAddressingMode, SamplerFilterMode,
    SpecConstantOperation,
};

/// A constant (`OpConstant*`, `OpUndef`), uniqued by type, value, name and decorations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    /// The type.
    pub ty: Handle<Type>,
    /// The value.
    pub value: ConstantValue,
    /// The debug name (`OpName`), rarely present.
    pub name: Option<String>,
    /// Decorations (such as `BuiltIn WorkgroupSize`), rarely present.
    pub decorations: Vec<Decoration>,
}

impl Constant {
    /// A constant with no name or decorations.
    pub fn new(ty: Handle<Type>, value: ConstantValue) -> Self {
        Constant {
            ty,
            value,
            name: None,
            decorations: Vec::new(),
        }
    }
}

/// The value of a [`Constant`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConstantValue {
    /// `OpConstantTrue` / `OpConstantFalse`.
    Bool(bool),
    /// `OpConstant`: the bits of an integer or float, as wide as the type.
    Scalar(LiteralNumber),
    /// `OpConstantComposite`: the constituents, constants (or, as some producers write and
    /// validators accept, specialization constants).
    Composite(Vec<Value>),
    /// `OpConstantNull`.
    Null,
    /// `OpUndef` (at module level or in a function: both mean the same).
    Undef,
    /// `OpConstantSampler`.
    Sampler {
        /// The addressing mode.
        addressing: SamplerAddressingMode,
        /// Whether coordinates are normalized.
        normalized: bool,
        /// The filter mode.
        filter: SamplerFilterMode,
    },
    /// Another constant instruction (`OpConstantFunctionPointerINTEL`, ...): the generated
    /// struct with result type and result id set to `Id(0)` and other ids packed [`Value`]s.
    Other(Instruction),
}

/// A specialization constant: a symbol with a default value, referenced by handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    /// The type.
    pub ty: Handle<Type>,
    /// The default value, or how it is computed.
    pub value: SpecValue,
    /// The `SpecId` decoration.
    pub spec_id: Option<u32>,
    /// The debug name (`OpName`).
    pub name: Option<String>,
    /// Other decorations (such as `BuiltIn WorkgroupSize`).
    pub decorations: Vec<Decoration>,
    /// The source location (`OpLine`) in effect at its declaration.
    pub loc: Option<Loc>,
}

/// The value of a [`SpecConstant`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecValue {
    /// `OpSpecConstantTrue` / `OpSpecConstantFalse`.
    Bool(bool),
    /// `OpSpecConstant`.
    Scalar(LiteralNumber),
    /// `OpSpecConstantComposite`: constants and specialization constants.
    Composite(Vec<Value>),
    /// `OpSpecConstantOp`: the operation, its id operands packed [`Value`]s.
    Op(SpecConstantOperation),
}

impl SpecConstant {
    /// A specialization constant with no name, spec id or decorations.
    pub fn new(ty: Handle<Type>, value: SpecValue) -> Self {
        SpecConstant {
            ty,
            value,
            spec_id: None,
            name: None,
            decorations: Vec::new(),
            loc: None,
        }
    }
}
