//! The numeric type of each type and value id: what context-dependent literals need (the
//! width and kind of `OpConstant`'s value, of `OpSwitch`'s cases). One byte per id while ids
//! stay within the input's size, so the disassembler, its name table and the decoder share one
//! compact tracker.

use rustc_hash::FxHashMap;

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
    #[inline]
    pub fn width(self) -> u32 {
        match self {
            NumericType::Int { width, .. } | NumericType::Float { width } => width,
        }
    }

    /// Words of a literal of this type (at least one).
    #[inline]
    pub fn words(self) -> usize {
        (self.width().max(1) as usize).div_ceil(32)
    }

    /// Whether this is a floating-point type.
    #[inline]
    pub fn is_float(self) -> bool {
        matches!(self, NumericType::Float { .. })
    }

    /// The type an `OpTypeInt` (`[result, width, signedness]`) or `OpTypeFloat`
    /// (`[result, width]`) declares, from its opcode and operand words.
    #[inline]
    pub fn declared(opcode: u16, operands: &[u32]) -> Option<(u32, NumericType)> {
        use crate::grammar::Opcode;
        const INT: u16 = Opcode::TypeInt as u16;
        const FLOAT: u16 = Opcode::TypeFloat as u16;
        match (opcode, operands) {
            (INT, &[id, width, signed, ..]) => Some((
                id,
                NumericType::Int {
                    width,
                    signed: signed != 0,
                },
            )),
            (FLOAT, &[id, width, ..]) => Some((id, NumericType::Float { width })),
            _ => None,
        }
    }
}

/// Numeric types by id. A byte per id holds `1..=126` for a value of numeric type slot `s`,
/// `0x80 | s` for the type itself; ids beyond the dense part and slots above 126 live in
/// `sparse` as `slot << 1 | is_type`.
#[derive(Clone, Debug, Default)]
pub struct NumericTypes {
    dense: Vec<u8>,
    sparse: FxHashMap<u32, u32>,
    slots: Vec<NumericType>,
}

const SLOT_SPARSE: u8 = 127;

impl NumericTypes {
    /// A tracker dense for ids below `len` (the smaller of a module's bound and its size).
    pub fn new(len: usize) -> Self {
        NumericTypes {
            dense: vec![0; len],
            sparse: FxHashMap::default(),
            slots: Vec::new(),
        }
    }

    /// `(is_type, slot)` of an id.
    #[inline]
    fn get(&self, id: u32) -> Option<(bool, u32)> {
        let b = match self.dense.get(id as usize) {
            Some(&b) => b,
            None => SLOT_SPARSE,
        };
        match b {
            0 => None,
            SLOT_SPARSE | 0xff => self.sparse.get(&id).map(|&v| (v & 1 == 1, v >> 1)),
            _ => Some((b & 0x80 != 0, u32::from(b & 0x7f))),
        }
    }

    fn set(&mut self, id: u32, is_type: bool, slot: u32) {
        match self.dense.get_mut(id as usize) {
            Some(b) if slot < u32::from(SLOT_SPARSE) => {
                *b = slot as u8 | if is_type { 0x80 } else { 0 };
            }
            other => {
                if let Some(b) = other {
                    *b = if is_type { 0xff } else { SLOT_SPARSE };
                }
                self.sparse.insert(id, slot << 1 | u32::from(is_type));
            }
        }
    }

    /// Records that `id` is the numeric type `t`.
    pub fn define_type(&mut self, id: u32, t: NumericType) {
        self.slots.push(t);
        let slot = self.slots.len() as u32;
        self.set(id, true, slot);
    }

    /// Records a value of type `ty`, if that is a numeric type.
    #[inline]
    pub fn define_value(&mut self, id: u32, ty: u32) {
        if let Some((true, slot)) = self.get(ty) {
            self.set(id, false, slot);
        }
    }

    fn slot(&self, slot: u32) -> Option<NumericType> {
        self.slots.get((slot as usize).checked_sub(1)?).copied()
    }

    /// The numeric type with this id.
    #[inline]
    pub fn numeric_type(&self, ty: u32) -> Option<NumericType> {
        match self.get(ty)? {
            (true, slot) => self.slot(slot),
            _ => None,
        }
    }

    /// The numeric type of this value.
    #[inline]
    pub fn type_of_value(&self, value: u32) -> Option<NumericType> {
        match self.get(value)? {
            (false, slot) => self.slot(slot),
            _ => None,
        }
    }
}
