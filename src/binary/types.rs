//! What the decoder must remember to read context-dependent operands: the width of numeric
//! types (for `OpConstant` and `OpSwitch` literals), the type of each value, and which
//! extended set each `OpExtInstImport` id names.
//!
//! Memory is bounded by the input, never by the header's claimed bound ([`IdMap`]).

use super::ids::IdMap;
use super::numeric::{NumericType, NumericTypes};
use crate::grammar::ext::ExtInstSet;
use crate::grammar::Opcode;

/// The decoder's memory of types and imports.
#[derive(Default, Debug)]
pub struct TypeTracker {
    numeric: NumericTypes,
    value_types: IdMap<u32>,
    /// Few per module: a vector searched from the end beats hashing.
    ext_sets: Vec<(u32, Option<ExtInstSet>)>,
}

impl TypeTracker {
    /// A tracker for a module of `words` words.
    pub fn new(words: usize) -> Self {
        TypeTracker {
            numeric: NumericTypes::new(0),
            value_types: IdMap::with_limit(words.saturating_mul(2).max(1024)),
            ext_sets: Vec::new(),
        }
    }

    /// Records what an instruction defines. `operands` are the words after the opcode word.
    #[inline]
    pub fn observe(&mut self, opcode: u16, operands: &[u32]) {
        use crate::grammar::result_shape;
        if let Some((id, t)) = NumericType::declared(opcode, operands) {
            self.numeric.define_type(id, t);
        } else if opcode == Opcode::ExtInstImport as u16 {
            if let [id, ref name @ ..] = *operands {
                let set = super::reader::string_in(name)
                    .ok()
                    .and_then(|(s, _)| ExtInstSet::from_import_name(s));
                self.ext_sets.push((id, set));
            }
        } else if let ((true, true), [ty, id, ..]) = (result_shape(opcode), operands) {
            self.value_types.set(*id, *ty);
        }
    }

    /// The numeric type with this id.
    pub fn numeric_type(&self, type_id: u32) -> Option<NumericType> {
        self.numeric.numeric_type(type_id)
    }

    /// The type id of a value.
    pub fn type_of(&self, value: u32) -> Option<u32> {
        Some(self.value_types.get(value)).filter(|&t| t != 0)
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
