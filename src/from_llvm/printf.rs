//! `printf` (an unmangled variadic call in clang's output) → OpenCL.std `printf`, its format
//! (and `%s` arguments) as pointers to the first `i8` of their UniformConstant arrays, as
//! llvm-spirv-15 writes them.

use super::error::{err, Result};
use super::function::Fx;
use super::module::Val;
use crate::grammar::{Opcode, StorageClass};
use crate::ir::{Handle, Type};
use inkwell::llvm_sys::prelude::*;

/// OpenCL.std's instruction number of `printf`.
const OCL_PRINTF: u32 = crate::grammar::ext::opencl_std_100::Opcode::Printf as u32;

impl Fx<'_, '_> {
    /// A pointer to an `i8` array as a pointer to its first element; other values unchanged.
    fn first_byte(&mut self, v: Val) -> Result<Val> {
        let Some((sc, pointee)) = self.ptr_parts(v.ty) else {
            return Ok(v);
        };
        let element = match self.f.module().types.get(pointee) {
            Some(Type::Array { element, .. }) => *element,
            _ => return Ok(v),
        };
        if !matches!(
            self.f.module().types.get(element),
            Some(Type::Int { width: 8, .. })
        ) {
            return Ok(v);
        }
        let pt = self.f.type_pointer(sc, element);
        let size_t = self.st.size_t(&mut self.f);
        let zero = self.const_int_of(size_t, 0)?;
        self.emit_val(Opcode::InBoundsPtrAccessChain, pt, &[v.v, zero, zero])
    }

    /// `printf(format, args...)` → `OpExtInst printf`.
    pub fn printf(&mut self, ret: Option<Handle<Type>>, args: &[LLVMValueRef]) -> Result<Val> {
        let Some(ret) = ret else {
            return err("printf without its int result");
        };
        let Some((&fmt, rest)) = args.split_first() else {
            return err("printf without a format");
        };
        let f = self.value(fmt)?;
        let f = self.first_byte(f)?;
        match self.ptr_parts(f.ty) {
            Some((StorageClass::UniformConstant, _)) => {}
            _ => return err("a printf format that is not a constant-address-space string"),
        }
        let u8t = self.f.type_int(8, false);
        let f = self.ptr_to(f, u8t)?;
        let mut ops = vec![f.v];
        for &a in rest {
            let v = self.value(a)?;
            ops.push(self.first_byte(v)?.v);
        }
        let set = self.st.ocl(&mut self.f);
        let v = self.f.ext_inst(ret, set, OCL_PRINTF, &ops);
        Ok(Val { v, ty: ret })
    }
}
