//! `OpConstantSampler` in the spv-ir style: a call of `__translate_sampler_initializer(i32)`
//! returning `target("spirv.Sampler")`, as SPIRV-LLVM-Translator writes it (llvm-spirv-15:
//! `%spirv.Sampler addrspace(2)*`); the literal is OpenCL C's sampler bit field, addressing
//! mode `<< 1` | normalized | (filter mode + 1) `<< 4`. The translator calls it at each use;
//! here it is called once per function, in the prologue, which dominates every use.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::ir::{ConstantValue, Value};
use inkwell::module::Linkage;
use inkwell::values::BasicValueEnum;

/// The name of the sampler initializer, as OpenCL C compilers and the translator call it.
const SAMPLER_INIT: &str = "__translate_sampler_initializer";

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// Whether `v` (a variable's initializer) is an `OpConstantSampler`.
    pub(crate) fn is_constant_sampler(&self, v: Option<Value>) -> bool {
        matches!(v, Some(Value::Constant(h))
            if matches!(self.m.constants.get(h).map(|c| &c.value), Some(ConstantValue::Sampler { .. })))
    }

    /// The value of `OpConstantSampler` `v` in the current function, or `None` when `v` is no
    /// constant sampler.
    pub(crate) fn spv_ir_sampler(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        v: Value,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let Value::Constant(h) = v else {
            return Ok(None);
        };
        let Some(c) = self.m.constants.get(h) else {
            return Ok(None);
        };
        let ConstantValue::Sampler {
            addressing,
            normalized,
            filter,
        } = &c.value
        else {
            return Ok(None);
        };
        if let Some(s) = fx.values.get(&v) {
            return Ok(Some(*s));
        }
        let bits = (addressing.value() << 1) | u32::from(*normalized) | ((filter.value() + 1) << 4);
        let st = self.basic(c.ty)?;
        let i32t = self.cx.i32_type();
        let f = match self.llm.get_function(SAMPLER_INIT) {
            Some(f) => f,
            None => self.llm.add_function(
                SAMPLER_INIT,
                inkwell::types::BasicType::fn_type(&st, &[i32t.into()], false),
                Some(Linkage::External),
            ),
        };
        let call = super::super::llvm_ext::call(
            &fx.prologue,
            f,
            &[i32t.const_int(bits.into(), false).into()],
        )?;
        let s = super::super::llvm::call_result(call)
            .ok_or_else(|| LowerError::malformed("a sampler initializer returning void"))?;
        fx.values.insert(v, s);
        Ok(Some(s))
    }
}
