//! Constants and specialization constants.
//!
//! Constants become LLVM constants of their lowered type: scalars from their bits, composites
//! element by element (with zero padding fields where the type has them), nulls as
//! `zeroinitializer`, `OpUndef` as `undef`, samplers as null pointers (the spv-ir style calls
//! `__translate_sampler_initializer` where a function uses one). Specialization constants
//! are resolved at lowering time: [`crate::lower::LowerOptions::spec_constants`] overrides the
//! default of a `SpecId`; `OpSpecConstantOp` is evaluated by building the op on constant
//! operands with LLVM's constant folder, in a scratch function deleted afterwards.

use super::error::{LowerError, Result};
use super::llvm::{const_array, const_vector, float_from_bits, null, undef};
use super::Lowerer;
use crate::ir::{ConstantValue, Handle, SpecValue, Type, Value};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum};

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The LLVM constant of a module-level value (a constant or specialization constant).
    pub(crate) fn module_value(&mut self, v: Value) -> Result<BasicValueEnum<'ctx>> {
        match v {
            Value::Constant(h) => self.constant(h),
            Value::SpecConstant(h) => self.spec_constant(h),
            Value::Global(g) => match self.placement.places.get(g.index()).copied().flatten() {
                Some(super::globals::Place::Global(gv)) => Ok(gv.as_pointer_value().into()),
                _ => Err(LowerError::unsupported(
                    "the address of a variable that is not an LLVM global, in a constant",
                )),
            },
            _ => Err(LowerError::malformed(format!(
                "{v} is not a constant or specialization constant"
            ))),
        }
    }

    fn constant(&mut self, h: Handle<crate::ir::Constant>) -> Result<BasicValueEnum<'ctx>> {
        if let Some(c) = self.consts.get(&h) {
            return Ok(*c);
        }
        let c = self
            .m
            .constants
            .get(h)
            .ok_or_else(|| LowerError::malformed("a constant handle out of range"))?;
        let ty = c.ty;
        let v = match &c.value {
            ConstantValue::Bool(b) => self.scalar(ty, u64::from(*b))?,
            ConstantValue::Scalar(n) => self.scalar(ty, n.low_u64())?,
            ConstantValue::Composite(parts) => self.composite(ty, parts)?,
            ConstantValue::Null => null(self.basic(ty)?),
            ConstantValue::Undef => undef(self.basic(ty)?),
            ConstantValue::Sampler { .. } => null(self.basic(ty)?),
            ConstantValue::Other(i) => {
                return Err(LowerError::unsupported(format!(
                    "the constant instruction {:?}",
                    i.opcode()
                )))
            }
        };
        self.consts.insert(h, v);
        Ok(v)
    }

    /// A scalar constant of type `ty` with the given bits.
    pub(crate) fn scalar(&mut self, ty: Handle<Type>, bits: u64) -> Result<BasicValueEnum<'ctx>> {
        let t = self.basic(ty)?;
        Ok(match t {
            BasicTypeEnum::IntType(i) => i.const_int(bits, false).into(),
            BasicTypeEnum::FloatType(f) => {
                let w = self.spv_type(ty)?.scalar_width().unwrap_or(32);
                float_from_bits(self.cx, f, w, bits)
            }
            _ => {
                return Err(LowerError::malformed(
                    "a scalar constant of a non-scalar type",
                ))
            }
        })
    }

    fn composite(&mut self, ty: Handle<Type>, parts: &[Value]) -> Result<BasicValueEnum<'ctx>> {
        let mut vals = Vec::with_capacity(parts.len());
        for p in parts {
            vals.push(self.module_value(*p)?);
        }
        self.composite_of(ty, &vals)
    }

    /// A constant composite of type `ty` from constant constituents.
    pub(crate) fn composite_of(
        &mut self,
        ty: Handle<Type>,
        vals: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>> {
        let info = self.ty(ty)?;
        let t = info
            .llvm
            .ok_or_else(|| LowerError::malformed("a composite of type void"))?;
        // LLVM's constant constructors crash (with assertions off) on constituents of other
        // types than the composite's: a malformed module must be an error instead.
        let mismatch = || LowerError::malformed("a constant constituent of another type");
        Ok(match t {
            BasicTypeEnum::VectorType(vt) => {
                if vals.len() != vt.get_size() as usize
                    || vals.iter().any(|v| v.get_type() != vt.get_element_type())
                {
                    return Err(mismatch());
                }
                const_vector(vals)
            }
            BasicTypeEnum::ArrayType(at) => {
                let et = at.get_element_type();
                let want = if info.padded_elem {
                    et.into_struct_type().get_field_type_at_index(0)
                } else {
                    Some(et)
                };
                if vals.len() != at.len() as usize
                    || vals.iter().any(|v| Some(v.get_type()) != want)
                {
                    return Err(mismatch());
                }
                if info.padded_elem {
                    let st = et.into_struct_type();
                    let pad = st
                        .get_field_type_at_index(1)
                        .ok_or_else(|| LowerError::malformed("padded element"))?;
                    let wrapped: Vec<_> = vals
                        .iter()
                        .map(|v| self.cx.const_struct(&[*v, null(pad)], true).into())
                        .collect();
                    const_array(et, &wrapped)
                } else {
                    const_array(et, vals)
                }
            }
            BasicTypeEnum::StructType(_) if info.mat_layout.iter().any(Option::is_some) => {
                return Err(LowerError::unsupported(
                    "a constant struct with a RowMajor or padded matrix member",
                ))
            }
            BasicTypeEnum::StructType(st) => {
                let mut fields: Vec<BasicValueEnum<'ctx>> =
                    st.get_field_types().into_iter().map(null).collect();
                for (i, v) in vals.iter().enumerate() {
                    let f = *info
                        .fields
                        .get(i)
                        .ok_or_else(|| LowerError::malformed("too many struct constituents"))?;
                    if let Some(slot) = fields.get_mut(f as usize) {
                        let fitted = super::llvm::fit(self.cx, &self.b, *v, slot.get_type())?;
                        if fitted.get_type() != slot.get_type() {
                            return Err(mismatch());
                        }
                        *slot = fitted;
                    }
                }
                // Of the struct type itself: a named struct (the spv-ir style's `%struct.S`) is
                // not the literal struct of the same fields.
                st.const_named_struct(&fields).into()
            }
            _ => return Err(LowerError::malformed("a composite of a scalar type")),
        })
    }

    fn spec_constant(
        &mut self,
        h: Handle<crate::ir::SpecConstant>,
    ) -> Result<BasicValueEnum<'ctx>> {
        if let Some(c) = self.specs.get(&h) {
            return Ok(*c);
        }
        let s = self
            .m
            .spec_constants
            .get(h)
            .ok_or_else(|| LowerError::malformed("a specialization constant out of range"))?;
        let over = s
            .spec_id
            .and_then(|id| self.opts.spec_constants.get(&id).copied());
        let v = match &s.value {
            SpecValue::Bool(b) => self.scalar(s.ty, over.map_or(u64::from(*b), |o| o & 1))?,
            SpecValue::Scalar(n) => self.scalar(s.ty, over.unwrap_or_else(|| n.low_u64()))?,
            SpecValue::Composite(parts) => self.composite(s.ty, parts)?,
            SpecValue::Op(op) => self.spec_op(s.ty, op, &s.decorations)?,
        };
        self.specs.insert(h, v);
        Ok(v)
    }

    fn spec_op(
        &mut self,
        ty: Handle<Type>,
        op: &crate::grammar::SpecConstantOperation,
        decorations: &[crate::grammar::Decoration],
    ) -> Result<BasicValueEnum<'ctx>> {
        let name = format!("OpSpecConstantOp {:?}", op.opcode);
        let mut args = Vec::with_capacity(op.operands.len());
        let literal_from = match op.opcode {
            crate::grammar::Opcode::CompositeExtract => 1,
            crate::grammar::Opcode::CompositeInsert => 2,
            crate::grammar::Opcode::VectorShuffle => 2,
            _ => usize::MAX,
        };
        let mut literals = Vec::new();
        for (i, w) in op.operands.iter().enumerate() {
            if i >= literal_from {
                literals.push(*w);
                continue;
            }
            let v = Value::from_id(crate::grammar::Id(*w))
                .ok_or_else(|| LowerError::malformed("a bad operand").at(&name, None))?;
            args.push(self.module_value(v).map_err(|e| e.at(&name, None))?);
        }
        let scratch = self.scratch()?;
        let b = self.cx.create_builder();
        b.position_at_end(scratch);
        let r = super::ops::constant_op(self, &b, op.opcode, ty, &args, &literals, decorations)
            .map_err(|e| e.at(&name, None))?;
        if !super::llvm::is_constant(r) {
            return Err(LowerError::unsupported("an operation LLVM does not fold").at(&name, None));
        }
        Ok(r.as_basic_value_enum())
    }
}
