//! Questions the rules ask of the index: what type an id declares, what a value's type is,
//! and the value of integer constants. Types are read from their declaring instruction's
//! words each time ([`Ty`] borrows them), which keeps the index small and every query O(1)
//! (struct and function types carry their member lists as slices).

use super::module::{Inst, Module};
use crate::grammar::Opcode;

/// A type declaration, read from its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty<'a> {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness operand is 1.
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width in bits.
        width: u32,
    },
    /// `OpTypeVector`.
    Vector {
        /// Component type id.
        component: u32,
        /// Component count.
        count: u32,
    },
    /// `OpTypeMatrix`.
    Matrix {
        /// Column type id.
        column: u32,
        /// Column count.
        count: u32,
    },
    /// `OpTypeImage`: the operand words after the result id.
    Image(&'a [u32]),
    /// `OpTypeSampler`.
    Sampler,
    /// `OpTypeSampledImage`.
    SampledImage {
        /// The image type id.
        image: u32,
    },
    /// `OpTypeArray`.
    Array {
        /// Element type id.
        element: u32,
        /// Length constant id.
        length: u32,
    },
    /// `OpTypeRuntimeArray`.
    RuntimeArray {
        /// Element type id.
        element: u32,
    },
    /// `OpTypeStruct`.
    Struct {
        /// Member type ids.
        members: &'a [u32],
    },
    /// `OpTypePointer`.
    Pointer {
        /// Storage class value.
        storage: u32,
        /// Pointee type id.
        pointee: u32,
    },
    /// `OpTypeFunction`.
    Function {
        /// Return type id.
        ret: u32,
        /// Parameter type ids.
        params: &'a [u32],
    },
    /// Any other type (opaque, event, pipe, acceleration structure...): its opcode.
    Other(Opcode),
}

/// `OpTypeImage` operands after the result id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ImageTy {
    /// Sampled type id.
    pub sampled_type: u32,
    /// `Dim` value.
    pub dim: u32,
    /// Depth (0, 1, or 2 for unknown).
    pub depth: u32,
    /// Arrayed.
    pub arrayed: u32,
    /// Multisampled.
    pub ms: u32,
    /// Sampled (0 run time, 1 sampled, 2 storage).
    pub sampled: u32,
    /// `ImageFormat` value.
    pub format: u32,
    /// `AccessQualifier` value, when present.
    pub access: Option<u32>,
}

impl ImageTy {
    /// Reads the operand words of an image type.
    pub fn from_words(w: &[u32]) -> ImageTy {
        let g = |i: usize| w.get(i).copied().unwrap_or(0);
        ImageTy {
            sampled_type: g(0),
            dim: g(1),
            depth: g(2),
            arrayed: g(3),
            ms: g(4),
            sampled: g(5),
            format: g(6),
            access: w.get(7).copied(),
        }
    }
}

/// Whether an opcode declares a specialization constant.
pub(super) fn is_spec_constant_op(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::SpecConstantTrue
            | Opcode::SpecConstantFalse
            | Opcode::SpecConstant
            | Opcode::SpecConstantComposite
            | Opcode::SpecConstantOp
    )
}

/// Reads a type declaration.
pub(super) fn ty_of_inst<'a>(inst: &Inst<'a>) -> Option<Ty<'a>> {
    let op = inst.op()?;
    let w = |i: usize| inst.word(i);
    Some(match op {
        Opcode::TypeVoid => Ty::Void,
        Opcode::TypeBool => Ty::Bool,
        Opcode::TypeInt => Ty::Int {
            width: w(1),
            signed: w(2) == 1,
        },
        Opcode::TypeFloat => Ty::Float { width: w(1) },
        Opcode::TypeVector => Ty::Vector {
            component: w(1),
            count: w(2),
        },
        Opcode::TypeMatrix => Ty::Matrix {
            column: w(1),
            count: w(2),
        },
        Opcode::TypeImage => Ty::Image(inst.rest(1)),
        Opcode::TypeSampler => Ty::Sampler,
        Opcode::TypeSampledImage => Ty::SampledImage { image: w(1) },
        Opcode::TypeArray => Ty::Array {
            element: w(1),
            length: w(2),
        },
        Opcode::TypeRuntimeArray => Ty::RuntimeArray { element: w(1) },
        Opcode::TypeStruct => Ty::Struct {
            members: inst.rest(1),
        },
        Opcode::TypePointer => Ty::Pointer {
            storage: w(1),
            pointee: w(2),
        },
        Opcode::TypeFunction => Ty::Function {
            ret: w(1),
            params: inst.rest(2),
        },
        op if op.is_declares_type() => Ty::Other(op),
        _ => return None,
    })
}

impl<'a> Module<'a> {
    /// The type `id` declares.
    #[inline]
    pub fn ty(&self, id: u32) -> Option<Ty<'a>> {
        ty_of_inst(&self.def(id)?)
    }

    /// Whether `id` is a type.
    pub fn is_type(&self, id: u32) -> bool {
        self.def_op(id).is_some_and(Opcode::is_declares_type)
    }

    /// The scalar component type of a scalar or vector type (the type itself for scalars).
    pub fn component_type(&self, ty: u32) -> Option<u32> {
        match self.ty(ty)? {
            Ty::Vector { component, .. } => Some(component),
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => Some(ty),
            _ => None,
        }
    }

    /// Number of components: 1 for scalars, the count for vectors (0 otherwise).
    pub fn dimension(&self, ty: u32) -> u32 {
        match self.ty(ty) {
            Some(Ty::Vector { count, .. }) => count,
            Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. }) => 1,
            _ => 0,
        }
    }

    /// Bit width of a scalar or of a vector's components (0 otherwise; bool counts as 1).
    pub fn bit_width(&self, ty: u32) -> u32 {
        let Some(c) = self.component_type(ty) else {
            return 0;
        };
        match self.ty(c) {
            Some(Ty::Int { width, .. } | Ty::Float { width }) => width,
            Some(Ty::Bool) => 1,
            _ => 0,
        }
    }

    /// `OpTypeInt` scalar.
    pub fn is_int_scalar(&self, ty: u32) -> bool {
        matches!(self.ty(ty), Some(Ty::Int { .. }))
    }

    /// `OpTypeInt` scalar with signedness 0.
    pub fn is_unsigned_int_scalar(&self, ty: u32) -> bool {
        matches!(self.ty(ty), Some(Ty::Int { signed: false, .. }))
    }

    /// Vector of `OpTypeInt`.
    pub fn is_int_vector(&self, ty: u32) -> bool {
        match self.ty(ty) {
            Some(Ty::Vector { component, .. }) => self.is_int_scalar(component),
            _ => false,
        }
    }

    /// Int scalar or vector.
    pub fn is_int_scalar_or_vector(&self, ty: u32) -> bool {
        self.component_type(ty)
            .is_some_and(|c| self.is_int_scalar(c))
    }

    /// Unsigned int scalar or vector.
    pub fn is_unsigned_int_scalar_or_vector(&self, ty: u32) -> bool {
        self.component_type(ty)
            .is_some_and(|c| self.is_unsigned_int_scalar(c))
    }

    /// `OpTypeFloat` scalar.
    pub fn is_float_scalar(&self, ty: u32) -> bool {
        matches!(self.ty(ty), Some(Ty::Float { .. }))
    }

    /// Vector of floats.
    pub fn is_float_vector(&self, ty: u32) -> bool {
        match self.ty(ty) {
            Some(Ty::Vector { component, .. }) => self.is_float_scalar(component),
            _ => false,
        }
    }

    /// Float scalar or vector.
    pub fn is_float_scalar_or_vector(&self, ty: u32) -> bool {
        self.component_type(ty)
            .is_some_and(|c| self.is_float_scalar(c))
    }

    /// `OpTypeBool`.
    pub fn is_bool_scalar(&self, ty: u32) -> bool {
        matches!(self.ty(ty), Some(Ty::Bool))
    }

    /// Vector of bools.
    pub fn is_bool_vector(&self, ty: u32) -> bool {
        match self.ty(ty) {
            Some(Ty::Vector { component, .. }) => self.is_bool_scalar(component),
            _ => false,
        }
    }

    /// Bool scalar or vector.
    pub fn is_bool_scalar_or_vector(&self, ty: u32) -> bool {
        self.component_type(ty)
            .is_some_and(|c| self.is_bool_scalar(c))
    }

    /// Float matrix.
    pub fn is_float_matrix(&self, ty: u32) -> bool {
        match self.ty(ty) {
            Some(Ty::Matrix { column, .. }) => self.is_float_vector(column),
            _ => false,
        }
    }

    /// `OpTypePointer` (or an untyped/other pointer kind the grammar adds).
    pub fn is_pointer(&self, ty: u32) -> bool {
        matches!(self.ty(ty), Some(Ty::Pointer { .. }))
    }

    /// Storage class and pointee of a pointer type.
    pub fn pointer(&self, ty: u32) -> Option<(u32, u32)> {
        match self.ty(ty)? {
            Ty::Pointer { storage, pointee } => Some((storage, pointee)),
            _ => None,
        }
    }

    /// Whether the type is a scalar (bool, int or float).
    pub fn is_scalar(&self, ty: u32) -> bool {
        matches!(
            self.ty(ty),
            Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. })
        )
    }

    /// Whether the type is an aggregate or vector/matrix (something OpCompositeExtract can
    /// index).
    pub fn is_composite(&self, ty: u32) -> bool {
        matches!(
            self.ty(ty),
            Some(
                Ty::Vector { .. }
                    | Ty::Matrix { .. }
                    | Ty::Array { .. }
                    | Ty::RuntimeArray { .. }
                    | Ty::Struct { .. }
            )
        )
    }

    /// The value of an `OpConstant` of integer type (sign-extended for signed types), or of
    /// `OpConstantNull` of integer type. Spec constants are not constant here.
    pub fn const_int(&self, id: u32) -> Option<i128> {
        let inst = self.def(id)?;
        let (width, signed) = match self.ty(inst.result_type()?)? {
            Ty::Int { width, signed } => (width, signed),
            _ => return None,
        };
        match inst.op()? {
            Opcode::ConstantNull => Some(0),
            Opcode::Constant => {
                let lo = u64::from(inst.word(2));
                let v = if width > 32 {
                    lo | u64::from(inst.word(3)) << 32
                } else {
                    lo
                };
                let v = if width < 64 && width > 0 {
                    v & ((1u64 << width) - 1)
                } else {
                    v
                };
                Some(if signed && width > 0 && width <= 64 {
                    let shift = 64 - width;
                    i128::from(((v << shift) as i64) >> shift)
                } else {
                    i128::from(v)
                })
            }
            _ => None,
        }
    }

    /// The type reached by indexing `ty` with literal indexes, as `OpCompositeExtract` does.
    pub fn walk_literal_indexes(&self, mut ty: u32, indexes: &[u32]) -> Result<u32, WalkError> {
        for (depth, &i) in indexes.iter().enumerate() {
            ty = match self.ty(ty) {
                Some(Ty::Vector { component, count }) => {
                    if i >= count {
                        return Err(WalkError::OutOfBounds {
                            depth,
                            index: i,
                            size: count,
                        });
                    }
                    component
                }
                Some(Ty::Matrix { column, count }) => {
                    if i >= count {
                        return Err(WalkError::OutOfBounds {
                            depth,
                            index: i,
                            size: count,
                        });
                    }
                    column
                }
                Some(Ty::Array { element, length }) => {
                    if let Some(n) = self.const_int(length) {
                        if i128::from(i) >= n {
                            return Err(WalkError::OutOfBounds {
                                depth,
                                index: i,
                                size: n.clamp(0, i128::from(u32::MAX)) as u32,
                            });
                        }
                    }
                    element
                }
                Some(Ty::RuntimeArray { element }) => element,
                Some(Ty::Struct { members }) => match members.get(i as usize) {
                    Some(&m) => m,
                    None => {
                        return Err(WalkError::OutOfBounds {
                            depth,
                            index: i,
                            size: members.len() as u32,
                        })
                    }
                },
                _ => return Err(WalkError::NotComposite { depth }),
            };
        }
        Ok(ty)
    }
}

/// Why indexing into a composite failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WalkError {
    /// Index `index` at position `depth` is not below `size`.
    OutOfBounds {
        /// Position in the index list.
        depth: usize,
        /// The index.
        index: u32,
        /// The composite's size.
        size: u32,
    },
    /// The type reached at `depth` is not a composite.
    NotComposite {
        /// Position in the index list.
        depth: usize,
    },
}
