//! `vk::RawBufferLoad<T>(address[, alignment])` and `vk::RawBufferStore<T>(address, value[,
//! alignment])`: a value at a 64-bit device address, as DXC lowers them (docs/SPIR-V.rst,
//! "RawBufferLoad and RawBufferStore"): the address is bitcast to a `PhysicalStorageBuffer`
//! pointer to `T` in the structured-buffer layout, loaded or stored with the `Aligned` memory
//! operand (4 unless given), and the module takes the `PhysicalStorageBuffer64` addressing
//! model. `T` defaults to `uint`; a `bool` lives in memory as a `uint`.
//!
//! The other `vk` function templates (`vk::static_pointer_cast`,
//! `vk::reinterpret_pointer_cast`) work on `vk::BufferPointer`, which is not supported yet.

use super::func::FnCx;
use super::Val;
use crate::grammar::{AddressingModel, MemoryAccess, MemoryAccessArgs, StorageClass};
use crate::hlsl::ast::{Expr, Ident, TemplateArg};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::layout::LayoutRule;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;

impl FnCx<'_, '_> {
    /// A call of one of the `vk` namespace's function templates (with its template arguments
    /// as written).
    pub fn builtin_template_call(
        &mut self,
        callee: &Ident,
        template_args: &[TemplateArg],
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let name = callee.name.as_str();
        let store = match name {
            "vk::RawBufferLoad" => false,
            "vk::RawBufferStore" => true,
            _ => {
                self.st.error(
                    callee.span,
                    format!("not supported yet: {name} (vk::BufferPointer)"),
                );
                return None;
            }
        };
        let ty = match template_args {
            [] => Ty::Scalar(Scalar::UInt),
            [TemplateArg::Type(t)] => self.st.resolve_type(t)?.0,
            [TemplateArg::Expr(e)] => {
                self.st
                    .error(e.span, format!("{name}'s template argument must be a type"));
                return None;
            }
            _ => {
                self.st.error(
                    callee.span,
                    format!("{name} takes one template argument (the type)"),
                );
                return None;
            }
        };
        if !ty.is_numeric() && !matches!(ty, Ty::Struct(_) | Ty::Array(..)) {
            self.st.error(
                callee.span,
                format!("not supported yet: {name} of '{}'", self.show(&ty)),
            );
            return None;
        }
        let fixed = if store { 2 } else { 1 };
        self.arg_count(name, args, fixed..=fixed + 1, span)?;
        let align = match args.get(fixed) {
            None => 4,
            Some(a) => match self.st.const_eval(a).and_then(ConstVal::as_int) {
                Some(n) if n > 0 && n <= i64::from(u32::MAX) && (n & (n - 1)) == 0 => n as u32,
                _ => {
                    self.st.error(
                        a.span,
                        "alignment argument must be a constant unsigned integer (a power of two)",
                    );
                    return None;
                }
            },
        };
        let addr = self.rvalue_as(&args[0], &Ty::Scalar(Scalar::UInt64))?;
        let value = if store {
            Some(self.rvalue_as(&args[1], &ty)?)
        } else {
            None
        };
        self.f.module_mut().addressing_model = AddressingModel::PhysicalStorageBuffer64;
        // Offered, not forced: before SPIR-V 1.5 the requirements pass takes the extension.
        self.f.extension("SPV_KHR_physical_storage_buffer");
        let rule = self.st.sbuffer_rule();
        let ptr_ty = self.ptr_ty(StorageClass::PhysicalStorageBuffer, &ty, rule, false);
        let ptr = self.f.bitcast(ptr_ty, addr);
        let access = Some(MemoryAccessArgs {
            mask: MemoryAccess::None,
            aligned: Some(align),
            ..Default::default()
        });
        match value {
            Some(v) => {
                let v = self.convert_layout(v, &ty, LayoutRule::None, false, rule, false);
                self.f.store(ptr, v, access);
                Some(self.void_val())
            }
            None => {
                let lt = self.ty_in(&ty, rule, false);
                let v = self.f.load(lt, ptr, access);
                let v = self.relayout(v, &ty, rule, false);
                Some(Val::R(v, ty))
            }
        }
    }
}
