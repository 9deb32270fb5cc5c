//! Member decorations as `llvm.ptr.annotation` strings: an access chain that ends at a struct
//! member with decorations of the document's reserved names (`{register:1}`, `{numbanks:4}`,
//! `{merge:a:b}`, ...) is passed through `llvm.ptr.annotation`, whose second argument holds them.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::binary::{string_in, Encode};
use crate::grammar::{Decoration, Id, Instruction};
use crate::ir::{Handle, Op, Type};
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Linkage;
use inkwell::values::BasicValueEnum;
use inkwell::AddressSpace;

/// The annotation of one member decoration, if it has a reserved name.
///
/// Matched on the enumerant's number and encoded operands rather than on variant names: newer
/// grammars rename these FPGA decorations (`RegisterINTEL` became `RegisterALTERA`), and this
/// module must compile against every grammar the generator accepts.
fn reserved(d: &Decoration) -> Option<String> {
    let mut words = Vec::new();
    d.encode(&mut words);
    let (&value, operands) = words.split_first()?;
    let int = || operands.first().copied();
    let string = |at: usize| -> Option<(String, usize)> {
        let (s, used) = string_in(operands.get(at..)?).ok()?;
        Some((s.to_owned(), used))
    };
    Some(match value {
        5825 => "{register:1}".into(),
        5826 => format!("{{memory:{}}}", string(0)?.0),
        5827 => format!("{{numbanks:{}}}", int()?),
        5828 => format!("{{bankwidth:{}}}", int()?),
        5829 => format!("{{private_copies:{}}}", int()?),
        5830 => "{pump:1}".into(),
        5831 => "{pump:2}".into(),
        5832 => format!("{{max_replicates:{}}}", int()?),
        5833 => "{simple_dual_port:1}".into(),
        5834 => {
            let (a, used) = string(0)?;
            format!("{{merge:{a}:{}}}", string(used)?.0)
        }
        5835 => format!(
            "{{bank_bits:{}}}",
            operands
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
        5836 => format!("{{force_pow2_depth:{}}}", int()?),
        _ => return None,
    })
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The struct member an access chain ends at: (struct type, member index).
    fn chain_member(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        base: Id,
        indexes: &[Id],
    ) -> Result<Option<(Handle<Type>, usize)>> {
        let mut t = self.pointee_of(fx, base)?;
        let mut last = None;
        for &i in indexes {
            last = None;
            t = match self.spv_type(t)? {
                Type::Struct(s) => {
                    let k = self.const_operand(fx, i)? as usize;
                    let m = s
                        .members
                        .get(k)
                        .ok_or_else(|| LowerError::malformed("a member index out of range"))?;
                    last = Some((t, k));
                    m.ty
                }
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => *element,
                Type::Vector { component, .. } => *component,
                Type::Matrix { column, .. } => *column,
                _ => return Ok(None),
            };
        }
        Ok(last)
    }

    /// An access chain's value, through `llvm.ptr.annotation` when it ends at a member with
    /// reserved-name decorations; any other value unchanged.
    pub(crate) fn spv_ir_member_annotation(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        op: &Op,
        v: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let (base, indexes) = match &op.inst {
            Instruction::AccessChain(c) => (c.base, c.indexes.as_slice()),
            Instruction::InBoundsAccessChain(c) => (c.base, c.indexes.as_slice()),
            Instruction::PtrAccessChain(c) => (c.base, c.indexes.as_slice()),
            Instruction::InBoundsPtrAccessChain(c) => (c.base, c.indexes.as_slice()),
            _ => return Ok(v),
        };
        let BasicValueEnum::PointerValue(p) = v else {
            return Ok(v);
        };
        let Some((st, k)) = self.chain_member(fx, base, indexes)? else {
            return Ok(v);
        };
        let Type::Struct(s) = self.spv_type(st)? else {
            return Ok(v);
        };
        let text: String = s.members[k]
            .decorations
            .iter()
            .filter_map(reserved)
            .collect();
        if text.is_empty() {
            return Ok(v);
        }
        let s_ptr = self.annotation_string(&text)?;
        let file = self.annotation_string("")?;
        let p0 = self.cx.ptr_type(AddressSpace::default());
        let f = Intrinsic::find("llvm.ptr.annotation")
            .and_then(|i| i.get_declaration(&self.llm, &[p.get_type().into(), p0.into()]))
            .ok_or_else(|| LowerError::unsupported("no llvm.ptr.annotation"))?;
        let line = self.cx.i32_type().const_zero();
        let c = self.b.build_call(
            f,
            &[
                p.into(),
                s_ptr.into(),
                file.into(),
                line.into(),
                p0.const_null().into(),
            ],
            "",
        )?;
        super::super::llvm::call_result(c)
            .ok_or_else(|| LowerError::malformed("llvm.ptr.annotation returned nothing"))
    }

    /// A private string constant in `llvm.metadata`, as annotations take them.
    fn annotation_string(&mut self, s: &str) -> Result<inkwell::values::PointerValue<'ctx>> {
        let name = format!(".str.annotation.{s}");
        if let Some(g) = self.llm.get_global(&name) {
            return Ok(g.as_pointer_value());
        }
        let init = self.cx.const_string(s.as_bytes(), true);
        let g = self.llm.add_global(init.get_type(), None, &name);
        g.set_initializer(&init);
        g.set_linkage(Linkage::Private);
        g.set_constant(true);
        g.set_unnamed_addr(true);
        g.set_section(Some("llvm.metadata"));
        Ok(g.as_pointer_value())
    }
}
