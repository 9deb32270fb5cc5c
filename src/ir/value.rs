//! [`Value`]: what an operand refers to, and its packing into the [`Id`] fields of the
//! generated op structs.
//!
//! An op of the IR is a generated instruction struct (`OpFMul { result_type, result_id,
//! operand_1, operand_2 }`) whose `Id` fields do not hold module ids: each holds a [`Value`]
//! packed into 32 bits, a 4-bit kind tag above a 28-bit handle index. Packing is a pure
//! function of the value, so the IR never depends on the numbering of the binary it came from,
//! and [`Value::from_id`] / [`Value::to_id`] convert in either direction without a table.

use super::arena::Handle;
use super::constants::{Constant, SpecConstant};
use super::function::{BlockArg, Function, Op};
use super::module::{ExtInst, ExtInstImport, GlobalVariable};
use super::types::Type;
use super::Block;
use crate::grammar::Id;
use core::fmt;

/// What an operand refers to.
///
/// Function-local values ([`Value::Op`], [`Value::Param`], [`Value::BlockArg`],
/// [`Value::Block`]) are relative to the function that uses them; every other kind names a
/// module-level entity. Functions never refer to module ids: a global variable is used through
/// its handle (an *address-of*), a specialization constant through its handle (a
/// *reference-of*), a constant through its uniqued handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The result of an op of the same function.
    Op(Handle<Op>),
    /// A parameter of the same function, by position.
    Param(u32),
    /// A block argument (an `OpPhi` of the binary form) of the same function.
    BlockArg(Handle<BlockArg>),
    /// A block (label) of the same function.
    Block(Handle<Block>),
    /// A constant, including `OpUndef` and null constants.
    Constant(Handle<Constant>),
    /// A specialization constant (a reference-of its symbol).
    SpecConstant(Handle<SpecConstant>),
    /// A global variable (an address-of its symbol): a pointer.
    Global(Handle<GlobalVariable>),
    /// A function (the callee of `OpFunctionCall`, a function pointer).
    Function(Handle<Function>),
    /// A type, where an instruction takes a type as an operand.
    Type(Handle<Type>),
    /// A debug string (`OpString`).
    String(Handle<String>),
    /// An extended instruction set import.
    ExtInstSet(Handle<ExtInstImport>),
    /// A module-level extended instruction (debug information, non-semantic instructions).
    ExtInst(Handle<ExtInst>),
}

pub(crate) const TAG_SHIFT: u32 = 28;
pub(crate) const INDEX_MASK: u32 = (1 << TAG_SHIFT) - 1;

/// The largest handle index a packed value can hold.
pub const MAX_PACKED_INDEX: usize = INDEX_MASK as usize;

impl Value {
    /// The value packed into an id (never `Id(0)`). Panics if the handle index is above
    /// [`MAX_PACKED_INDEX`] (2^28 - 1), which no module that fits in memory reaches.
    pub fn to_id(self) -> Id {
        self.try_to_id().expect("value index fits in 28 bits")
    }

    /// The value packed into an id, if its index fits.
    pub fn try_to_id(self) -> Option<Id> {
        let (tag, index) = match self {
            Value::Op(h) => (1, h.index()),
            Value::Param(i) => (2, i as usize),
            Value::BlockArg(h) => (3, h.index()),
            Value::Block(h) => (4, h.index()),
            Value::Constant(h) => (5, h.index()),
            Value::SpecConstant(h) => (6, h.index()),
            Value::Global(h) => (7, h.index()),
            Value::Function(h) => (8, h.index()),
            Value::Type(h) => (9, h.index()),
            Value::String(h) => (10, h.index()),
            Value::ExtInstSet(h) => (11, h.index()),
            Value::ExtInst(h) => (12, h.index()),
        };
        if index > MAX_PACKED_INDEX {
            return None;
        }
        Some(Id((tag << TAG_SHIFT) | index as u32))
    }

    /// The value packed in an id by [`Value::to_id`]; `None` for ids that are not packed values
    /// (such as `Id(0)`).
    #[inline]
    pub fn from_id(id: Id) -> Option<Value> {
        let index = (id.0 & INDEX_MASK) as usize;
        Some(match id.0 >> TAG_SHIFT {
            1 => Value::Op(Handle::new(index)),
            2 => Value::Param(index as u32),
            3 => Value::BlockArg(Handle::new(index)),
            4 => Value::Block(Handle::new(index)),
            5 => Value::Constant(Handle::new(index)),
            6 => Value::SpecConstant(Handle::new(index)),
            7 => Value::Global(Handle::new(index)),
            8 => Value::Function(Handle::new(index)),
            9 => Value::Type(Handle::new(index)),
            10 => Value::String(Handle::new(index)),
            11 => Value::ExtInstSet(Handle::new(index)),
            12 => Value::ExtInst(Handle::new(index)),
            _ => return None,
        })
    }

    /// The type handle, if this is a [`Value::Type`].
    pub fn as_type(self) -> Option<Handle<Type>> {
        match self {
            Value::Type(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the value is function-local (an op result, parameter, block argument or block).
    pub fn is_local(self) -> bool {
        matches!(
            self,
            Value::Op(_) | Value::Param(_) | Value::BlockArg(_) | Value::Block(_)
        )
    }
}

impl From<Value> for Id {
    fn from(v: Value) -> Id {
        v.to_id()
    }
}

impl From<Handle<Type>> for Value {
    fn from(h: Handle<Type>) -> Value {
        Value::Type(h)
    }
}
impl From<Handle<Constant>> for Value {
    fn from(h: Handle<Constant>) -> Value {
        Value::Constant(h)
    }
}
impl From<Handle<SpecConstant>> for Value {
    fn from(h: Handle<SpecConstant>) -> Value {
        Value::SpecConstant(h)
    }
}
impl From<Handle<GlobalVariable>> for Value {
    fn from(h: Handle<GlobalVariable>) -> Value {
        Value::Global(h)
    }
}
impl From<Handle<Function>> for Value {
    fn from(h: Handle<Function>) -> Value {
        Value::Function(h)
    }
}
impl From<Handle<Op>> for Value {
    fn from(h: Handle<Op>) -> Value {
        Value::Op(h)
    }
}
impl From<Handle<Block>> for Value {
    fn from(h: Handle<Block>) -> Value {
        Value::Block(h)
    }
}
impl From<Handle<BlockArg>> for Value {
    fn from(h: Handle<BlockArg>) -> Value {
        Value::BlockArg(h)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Op(h) => write!(f, "%{}", h.index()),
            Value::Param(i) => write!(f, "%arg{i}"),
            Value::BlockArg(h) => write!(f, "%ba{}", h.index()),
            Value::Block(h) => write!(f, "^bb{}", h.index()),
            Value::Constant(h) => write!(f, "%cst{}", h.index()),
            Value::SpecConstant(h) => write!(f, "@spec{}", h.index()),
            Value::Global(h) => write!(f, "@global{}", h.index()),
            Value::Function(h) => write!(f, "@fn{}", h.index()),
            Value::Type(h) => write!(f, "!t{}", h.index()),
            Value::String(h) => write!(f, "%str{}", h.index()),
            Value::ExtInstSet(h) => write!(f, "%set{}", h.index()),
            Value::ExtInst(h) => write!(f, "%ext{}", h.index()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let vs = [
            Value::Op(Handle::new(0)),
            Value::Param(7),
            Value::BlockArg(Handle::new(3)),
            Value::Block(Handle::new(MAX_PACKED_INDEX)),
            Value::Constant(Handle::new(12)),
            Value::SpecConstant(Handle::new(1)),
            Value::Global(Handle::new(2)),
            Value::Function(Handle::new(5)),
            Value::Type(Handle::new(9)),
            Value::String(Handle::new(4)),
            Value::ExtInstSet(Handle::new(0)),
            Value::ExtInst(Handle::new(8)),
        ];
        for v in vs {
            let id = v.to_id();
            assert_ne!(id.0, 0);
            assert_eq!(Value::from_id(id), Some(v));
        }
        assert_eq!(Value::from_id(Id(0)), None);
        assert!(Value::Block(Handle::new(MAX_PACKED_INDEX + 1))
            .try_to_id()
            .is_none());
    }
}
