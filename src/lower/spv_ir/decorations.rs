//! Decorations of instructions and functions in the spv-ir style: those LLVM has a word for
//! become that word (`NoSignedWrap`/`NoUnsignedWrap` → `nsw`/`nuw`, `FPFastMathMode` →
//! fast-math flags, `Alignment` of a variable → `align`); the rest become the document's
//! `!spirv.Decorations` on the instruction (or function), so that nothing is lost on the way
//! back.

use super::super::error::Result;
use super::super::Lowerer;
use super::is_conversion;
use crate::grammar::{Decoration, Opcode};
use crate::ir::{Op, Value};
use inkwell::llvm_sys::core::{
    LLVMCanValueUseFastMathFlags, LLVMGetFastMathFlags, LLVMGetInstructionOpcode,
    LLVMIsAInstruction, LLVMMetadataAsValue, LLVMSetAlignment, LLVMSetFastMathFlags,
    LLVMSetMetadata, LLVMSetNSW, LLVMSetNUW,
};
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::values::{AsValueRef, BasicValueEnum};

/// The `FPFastMathMode` bits LLVM has flags for, with those flags; the other bits
/// (`AllowTransform`, vendor bits) keep the decoration in metadata.
const FAST_MATH: &[(u32, u32)] = &[
    (0x1, inkwell::llvm_sys::LLVMFastMathNoNaNs),
    (0x2, inkwell::llvm_sys::LLVMFastMathNoInfs),
    (0x4, inkwell::llvm_sys::LLVMFastMathNoSignedZeros),
    (0x8, inkwell::llvm_sys::LLVMFastMathAllowReciprocal),
    (0x10, inkwell::llvm_sys::LLVMFastMathAll),
    (0x1_0000, inkwell::llvm_sys::LLVMFastMathAllowContract),
    (0x2_0000, inkwell::llvm_sys::LLVMFastMathAllowReassoc),
];

/// The LLVM fast-math flags of an `FPFastMathMode` mask, if every bit has one.
pub(crate) fn fast_math_flags(mask: u32) -> Option<u32> {
    let mut flags = 0;
    let mut left = mask;
    for &(bit, f) in FAST_MATH {
        if mask & bit != 0 {
            flags |= f;
            left &= !bit;
        }
    }
    (left == 0).then_some(flags)
}

/// Whether an LLVM instruction takes `nsw`/`nuw`.
fn wraps(inst: LLVMValueRef) -> bool {
    // SAFETY: `inst` is an instruction of the module being built.
    let op = unsafe { LLVMGetInstructionOpcode(inst) };
    matches!(
        op,
        LLVMOpcode::LLVMAdd | LLVMOpcode::LLVMSub | LLVMOpcode::LLVMMul | LLVMOpcode::LLVMShl
    )
}

/// Whether an LLVM instruction is a variable (an `alloca`, whose `align` an `Alignment` is).
fn aligns(inst: LLVMValueRef) -> bool {
    // SAFETY: `inst` is an instruction of the module being built.
    let op = unsafe { LLVMGetInstructionOpcode(inst) };
    op == LLVMOpcode::LLVMAlloca
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// Carries the decorations of `op`'s result onto `v`, the LLVM value lowered for it.
    /// Values that are no instruction of their own (constants, parameters, an operand
    /// forwarded by `OpCopyObject`) have nowhere to hold them and are left alone.
    pub(crate) fn spv_ir_op_decorations(
        &mut self,
        values: &std::collections::HashMap<Value, BasicValueEnum<'ctx>>,
        opcode: Opcode,
        op: &Op,
        v: BasicValueEnum<'ctx>,
    ) -> Result<()> {
        // An op that forwards one of its operands made no instruction of its own.
        let forwarded = |v: BasicValueEnum<'ctx>| {
            super::super::ops::operand_values(&op.inst)
                .iter()
                .any(|o| values.get(o) == Some(&v))
        };
        let Some(decos) = op.attrs.as_deref().map(|a| a.decorations.as_slice()) else {
            return Ok(());
        };
        if decos.is_empty() {
            return Ok(());
        }
        let raw = v.as_value_ref();
        // SAFETY: a live value of this context.
        if unsafe { LLVMIsAInstruction(raw) }.is_null() || forwarded(v) {
            return Ok(());
        }
        let mut rest = Vec::new();
        for d in decos {
            match d {
                // SAFETY (the three below): `raw` is an instruction that takes the flag.
                Decoration::NoSignedWrap if wraps(raw) => unsafe { LLVMSetNSW(raw, 1) },
                Decoration::NoUnsignedWrap if wraps(raw) => unsafe { LLVMSetNUW(raw, 1) },
                Decoration::Alignment(a) if aligns(raw) => unsafe { LLVMSetAlignment(raw, *a) },
                Decoration::FPFastMathMode(m)
                    // SAFETY: `raw` is an instruction.
                    if unsafe { LLVMCanValueUseFastMathFlags(raw) } != 0
                        && fast_math_flags(m.0).is_some() =>
                {
                    let flags = fast_math_flags(m.0).unwrap_or(0);
                    // SAFETY: `raw` is an instruction that takes fast-math flags.
                    unsafe { LLVMSetFastMathFlags(raw, LLVMGetFastMathFlags(raw) | flags) }
                }
                // In the builtin's name (`_sat`, `_rte`).
                Decoration::SaturatedConversion | Decoration::FPRoundingMode(_)
                    if is_conversion(opcode) => {}
                _ => rest.push(self.decoration_node(d)),
            }
        }
        if !rest.is_empty() {
            let node = self.node(&rest);
            let id = self.cx.get_kind_id("spirv.Decorations");
            // SAFETY: an instruction of this module and a node of its context.
            unsafe {
                let mv = LLVMMetadataAsValue(self.cx.raw(), node);
                LLVMSetMetadata(raw, id, mv);
            }
        }
        Ok(())
    }

    /// `!spirv.Decorations` on functions with decorations other than `LinkageAttributes`
    /// (which is the function's linkage).
    pub(crate) fn function_decoration_metadata(&mut self) -> Result<()> {
        for (h, f) in self.m.functions.iter() {
            let Some(Some(llf)) = self.functions.get(h.index()).copied() else {
                continue;
            };
            let list: Vec<_> = f
                .decorations
                .iter()
                .filter(|d| !matches!(d, Decoration::LinkageAttributes(..)))
                .map(|d| self.decoration_node(d))
                .collect();
            if !list.is_empty() {
                let node = self.node(&list);
                self.attach(llf, "spirv.Decorations", node);
            }
        }
        Ok(())
    }
}

/// The LLVM parameter attribute of a `FuncParamAttr` (`NoReadWrite` is `readnone`, `NoWrite`
/// `readonly`), and whether it takes the pointee type (`byval`, `sret`).
fn param_attribute(a: crate::grammar::FunctionParameterAttribute) -> Option<(&'static str, bool)> {
    use crate::grammar::FunctionParameterAttribute as A;
    Some(match a {
        A::Zext => ("zeroext", false),
        A::Sext => ("signext", false),
        A::ByVal => ("byval", true),
        A::Sret => ("sret", true),
        A::NoAlias => ("noalias", false),
        A::NoCapture => ("nocapture", false),
        A::NoWrite => ("readonly", false),
        A::NoReadWrite => ("readnone", false),
        _ => return None,
    })
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// `FuncParamAttr` decorations of a function's parameters as LLVM parameter attributes,
    /// as llvm-spirv writes them.
    pub(crate) fn spv_ir_param_attributes(
        &mut self,
        f: &crate::ir::Function,
        llf: inkwell::values::FunctionValue<'ctx>,
    ) -> Result<()> {
        use inkwell::attributes::{Attribute, AttributeLoc};
        use inkwell::types::AnyType;
        let params = match self.spv_type(f.ty)? {
            crate::ir::Type::Function { params, .. } => params.clone(),
            _ => return Ok(()),
        };
        for (i, p) in f.params.iter().enumerate() {
            for d in &p.decorations {
                let Decoration::FuncParamAttr(a) = d else {
                    continue;
                };
                let Some((name, typed)) = param_attribute(*a) else {
                    continue;
                };
                let kind = Attribute::get_named_enum_kind_id(name);
                let attr = if typed {
                    let pointee = match params.get(i).map(|&t| self.spv_type(t)) {
                        Some(Ok(crate::ir::Type::Pointer { pointee, .. })) => *pointee,
                        _ => continue,
                    };
                    let Some(t) = self.ty(pointee)?.llvm else {
                        continue;
                    };
                    self.cx.create_type_attribute(kind, t.as_any_type_enum())
                } else {
                    self.cx.create_enum_attribute(kind, 0)
                };
                llf.add_attribute(AttributeLoc::Param(i as u32), attr);
            }
        }
        Ok(())
    }
}
