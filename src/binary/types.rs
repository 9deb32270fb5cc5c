//! What the decoder must remember to read context-dependent operands: the width of numeric
//! types (for `OpConstant` and `OpSwitch` literals), the type of each value, and which
//! extended set each `OpExtInstImport` id names.
//!
//! Memory is bounded by the input, never by the header's claimed bound: ids index a dense table
//! only while they stay within a small multiple of the words seen, and a map otherwise.

use crate::grammar::ext::ExtInstSet;
use std::collections::HashMap;

/// A scalar numeric type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumericType {
    /// `OpTypeInt`.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness operand.
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width in bits.
        width: u32,
    },
}

impl NumericType {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            NumericType::Int { width, .. } | NumericType::Float { width } => width,
        }
    }
}

/// An id → u32 map, dense while ids are small relative to the input.
#[derive(Default, Debug)]
struct IdMap {
    dense: Vec<u32>,
    sparse: HashMap<u32, u32>,
    limit: usize,
}

impl IdMap {
    fn insert(&mut self, id: u32, v: u32) {
        let i = id as usize;
        if i < self.dense.len() {
            self.dense[i] = v;
        } else if i < self.limit {
            self.dense
                .resize((i + 1).max(self.dense.len() * 2).min(self.limit), 0);
            self.dense[i] = v;
        } else {
            self.sparse.insert(id, v);
        }
    }

    fn get(&self, id: u32) -> Option<u32> {
        match self.dense.get(id as usize) {
            Some(&0) | None => self.sparse.get(&id).copied(),
            Some(&v) => Some(v),
        }
    }
}

/// The decoder's memory of types and imports.
#[derive(Default, Debug)]
pub struct TypeTracker {
    /// Few per module: a vector searched from the end beats hashing.
    numeric: Vec<(u32, NumericType)>,
    value_types: IdMap,
    ext_sets: Vec<(u32, Option<ExtInstSet>)>,
}

impl TypeTracker {
    /// A tracker for a module of `words` words.
    pub fn new(words: usize) -> Self {
        TypeTracker {
            value_types: IdMap {
                limit: words.saturating_mul(2).max(1024),
                ..IdMap::default()
            },
            ..TypeTracker::default()
        }
    }

    /// Records what an instruction defines. `operands` are the words after the opcode word.
    #[inline]
    pub fn observe(&mut self, opcode: u16, operands: &[u32]) {
        use crate::grammar::result_shape;
        match opcode {
            21 /* OpTypeInt */ => {
                if let [id, width, signed, ..] = *operands {
                    self.numeric.push((id, NumericType::Int { width, signed: signed != 0 }));
                }
            }
            22 /* OpTypeFloat */ => {
                if let [id, width, ..] = *operands {
                    self.numeric.push((id, NumericType::Float { width }));
                }
            }
            11 /* OpExtInstImport */ => {
                if let [id, ref name @ ..] = *operands {
                    let set = super::reader::string_in(name)
                        .ok()
                        .and_then(|(s, _)| ExtInstSet::from_import_name(s));
                    self.ext_sets.push((id, set));
                }
            }
            _ => {
                if let ((true, true), [ty, id, ..]) = (result_shape(opcode), operands) {
                    self.value_types.insert(*id, *ty);
                }
            }
        }
    }

    /// The numeric type with this id.
    pub fn numeric_type(&self, type_id: u32) -> Option<NumericType> {
        self.numeric
            .iter()
            .rev()
            .find(|(id, _)| *id == type_id)
            .map(|(_, t)| *t)
    }

    /// The type id of a value.
    pub fn type_of(&self, value: u32) -> Option<u32> {
        self.value_types.get(value)
    }

    /// The set an `OpExtInstImport` id imports: `None` if the id is not an import,
    /// `Some(None)` if the set is unknown to this grammar.
    pub fn ext_set(&self, id: u32) -> Option<Option<ExtInstSet>> {
        self.ext_sets
            .iter()
            .rev()
            .find(|(i, _)| *i == id)
            .map(|(_, s)| *s)
    }
}
