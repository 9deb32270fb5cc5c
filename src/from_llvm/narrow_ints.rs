//! Integers of widths SPIR-V lacks (`i2` ... `i63` other than 8, 16, 32): optimized LLVM makes
//! them (a `switch` on `x & 3` becomes one on `trunc i32 %x to i2`), and llvm-spirv-15 refuses
//! them. Each is held in the next wider SPIR-V integer (8, 16, 32 or 64 bits) with its high bits
//! zero, as LLVM's type legalization promotes them: operations that keep the high bits zero
//! (and, or, xor, udiv, urem, lshr, unsigned and equality comparisons, zext) need nothing;
//! those that may set them (add, sub, mul, shl, trunc) are masked after; those that read the
//! sign (sdiv, srem, ashr, signed comparisons, sext) sign-extend their operands within the
//! container first.

use super::error::{err, Result};
use super::function::Fx;
use super::module::Val;
use super::read;
use crate::grammar::Opcode;
use crate::ir::{Type, Value};
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O, LLVMTypeKind as K};

/// The SPIR-V width holding an LLVM integer of `width` bits, when that is not `width` itself.
pub fn container(width: u32) -> Option<u32> {
    match width {
        2..=7 => Some(8),
        9..=15 => Some(16),
        17..=31 => Some(32),
        33..=63 => Some(64),
        _ => None,
    }
}

/// The width of a narrow integer (scalar or vector element) LLVM type, if it is one.
fn narrow_width(t: LLVMTypeRef) -> Option<u32> {
    let e = if read::type_kind(t) == K::LLVMVectorTypeKind {
        read::element_type(t)
    } else {
        t
    };
    if read::type_kind(e) != K::LLVMIntegerTypeKind {
        return None;
    }
    let w = read::int_width(e);
    container(w).map(|_| w)
}

impl Fx<'_, '_> {
    /// The operations on narrow integers that read their sign, translated on sign-extended
    /// operands; `None` for every other instruction.
    pub fn narrow_signed(&mut self, i: LLVMValueRef, op: O) -> Result<Option<Val>> {
        let source = match op {
            O::LLVMSDiv | O::LLVMSRem | O::LLVMAShr | O::LLVMICmp | O::LLVMSExt => {
                read::type_of(read::operand(i, 0))
            }
            O::LLVMTrunc | O::LLVMZExt => read::type_of(read::operand(i, 0)),
            _ => return Ok(None),
        };
        let narrow_source = narrow_width(source);
        let narrow_result = narrow_width(read::type_of(i));
        if narrow_source.is_none() && narrow_result.is_none() {
            return Ok(None);
        }
        let a = self.value(read::operand(i, 0))?;
        let ty = self.ty(read::type_of(i))?;
        let is_cast = matches!(op, O::LLVMTrunc | O::LLVMZExt | O::LLVMSExt);
        if is_cast && (self.is_bool(a.ty) || self.is_bool(ty)) {
            // To and from i1 the casts' own forms apply; only sext's all-ones is narrower.
            return match (op, narrow_result) {
                (O::LLVMSExt, Some(m)) if self.is_bool(a.ty) => {
                    Ok(Some(self.bool_to_int(a.v, ty, (1u64 << m) - 1)?))
                }
                _ => Ok(None),
            };
        }
        match op {
            O::LLVMSDiv | O::LLVMSRem | O::LLVMAShr => {
                let Some(n) = narrow_source else {
                    return Ok(None);
                };
                let b = self.value(read::operand(i, 1))?;
                let a = self.sign_extend_within(a, n)?;
                let b = if op == O::LLVMAShr {
                    b
                } else {
                    self.sign_extend_within(b, n)?
                };
                let code = match op {
                    O::LLVMSDiv => Opcode::SDiv,
                    O::LLVMSRem => Opcode::SRem,
                    _ => Opcode::ShiftRightArithmetic,
                };
                let r = self.emit_val(code, a.ty, &[a.v, b.v])?;
                Ok(Some(self.mask_to(r, n)?))
            }
            O::LLVMICmp => {
                // SAFETY: `i` is an icmp.
                let p = unsafe { llc::LLVMGetICmpPredicate(i) };
                let code = match p {
                    P::LLVMIntSGT => Opcode::SGreaterThan,
                    P::LLVMIntSGE => Opcode::SGreaterThanEqual,
                    P::LLVMIntSLT => Opcode::SLessThan,
                    P::LLVMIntSLE => Opcode::SLessThanEqual,
                    _ => return Ok(None),
                };
                let Some(n) = narrow_source else {
                    return Ok(None);
                };
                let b = self.value(read::operand(i, 1))?;
                let a = self.sign_extend_within(a, n)?;
                let b = self.sign_extend_within(b, n)?;
                Ok(Some(self.emit_val(code, ty, &[a.v, b.v])?))
            }
            O::LLVMSExt => {
                let Some(n) = narrow_source else {
                    return Ok(None);
                };
                let a = self.sign_extend_within(a, n)?;
                let r = self.resize(a, ty, Opcode::SConvert)?;
                Ok(Some(match narrow_result {
                    Some(m) => self.mask_to(r, m)?,
                    None => r,
                }))
            }
            // trunc and zext between integers whose containers may be the same width.
            _ => {
                let r = self.resize(a, ty, Opcode::UConvert)?;
                Ok(Some(match (op, narrow_result) {
                    (O::LLVMTrunc, Some(m)) => self.mask_to(r, m)?,
                    _ => r,
                }))
            }
        }
    }

    /// Masks the result of an operation that may set the high bits of a narrow integer (add,
    /// sub, mul, shl); every other value comes back as it is.
    pub fn narrow_wrap(&mut self, i: LLVMValueRef, op: O, v: Val) -> Result<Val> {
        if !matches!(op, O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl) {
            return Ok(v);
        }
        match narrow_width(read::type_of(i)) {
            Some(n) => self.mask_to(v, n),
            None => Ok(v),
        }
    }

    /// `v` converted to `ty` with `convert` (nothing when the widths agree).
    fn resize(&mut self, v: Val, ty: crate::ir::Handle<Type>, convert: Opcode) -> Result<Val> {
        if self.width_bits(v.ty) == self.width_bits(ty) {
            return Ok(Val { v: v.v, ty });
        }
        self.emit_val(convert, ty, &[v.v])
    }

    /// The bit width of an integer type or of its components.
    fn width_bits(&self, t: crate::ir::Handle<Type>) -> u32 {
        match self.f.module().types.get(t) {
            Some(Type::Int { width, .. }) => *width,
            Some(Type::Vector { component, .. }) => match self.f.module().types.get(*component) {
                Some(Type::Int { width, .. }) => *width,
                _ => 0,
            },
            _ => 0,
        }
    }

    /// `v` (a narrow integer of `n` bits in its container) with its high bits cleared.
    fn mask_to(&mut self, v: Val, n: u32) -> Result<Val> {
        let mask = self.const_int_of(v.ty, (1u64 << n) - 1)?;
        self.emit_val(Opcode::BitwiseAnd, v.ty, &[v.v, mask])
    }

    /// `v` (a narrow integer of `n` bits) sign-extended to its whole container.
    fn sign_extend_within(&mut self, v: Val, n: u32) -> Result<Val> {
        let w = self.width_bits(v.ty);
        if w <= n {
            return err("a narrow integer wider than its container");
        }
        let shift: Value = self.const_int_of(v.ty, u64::from(w - n))?;
        let up = self.emit_val(Opcode::ShiftLeftLogical, v.ty, &[v.v, shift])?;
        self.emit_val(Opcode::ShiftRightArithmetic, v.ty, &[up.v, shift])
    }
}
