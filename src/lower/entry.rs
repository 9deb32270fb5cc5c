//! Entry points: the external `spvkit.entry.<name>(ptr %ctx)` wrappers (reading kernel
//! arguments from `ctx.args`), and the [`LoweredEntry`] the runner needs.

use super::error::{LowerError, Result};
use super::interface::{KernelParam, LoweredEntry};
use super::Lowerer;
use crate::grammar::{
    BuiltIn, Decoration, ExecutionMode, ExecutionModel, FunctionParameterAttribute, Instruction,
    StorageClass,
};
use crate::ir::{ConstantValue, Handle, SpecValue, Type, Value};
use crate::lower::abi::offsets;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum};
use inkwell::AddressSpace;

/// Per function (by index): the functions it calls.
pub(crate) fn call_graph(m: &crate::ir::Module) -> Vec<Vec<usize>> {
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); m.functions.len()];
    for (h, f) in m.functions.iter() {
        for (_, op) in f.ops.iter() {
            if let Instruction::FunctionCall(c) = &op.inst {
                if let Some(Value::Function(g)) = Value::from_id(c.function) {
                    calls[h.index()].push(g.index());
                }
            }
        }
    }
    calls
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// Builds every entry wrapper and describes every entry point.
    pub(crate) fn entries(&mut self) -> Result<Vec<LoweredEntry>> {
        let reach = self.barrier_reach();
        let mut out = Vec::new();
        for ep in &self.m.entry_points {
            let at = |e: LowerError| e.at(&format!("OpEntryPoint {}", ep.name), None);
            let e = self.entry(ep, &reach).map_err(at)?;
            out.push(e);
        }
        Ok(out)
    }

    /// Per function: whether it can reach an `OpControlBarrier`.
    fn barrier_reach(&self) -> Vec<bool> {
        let n = self.m.functions.len();
        let calls = match &self.calls {
            Some(c) => c.clone(),
            None => call_graph(self.m),
        };
        let mut reach = self.barrier_fns.clone();
        reach.resize(n, false);
        loop {
            let mut changed = false;
            for i in 0..n {
                if !reach[i]
                    && calls[i]
                        .iter()
                        .any(|&c| reach.get(c).copied().unwrap_or(false))
                {
                    reach[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return reach;
            }
        }
    }

    fn entry(&mut self, ep: &crate::ir::EntryPoint, reach: &[bool]) -> Result<LoweredEntry> {
        let f = self
            .m
            .functions
            .get(ep.function)
            .ok_or_else(|| LowerError::malformed("entry point function out of range"))?;
        let callee = self
            .functions
            .get(ep.function.index())
            .copied()
            .flatten()
            .ok_or_else(|| LowerError::malformed("entry point function"))?;
        let symbol = format!("{}{}", super::abi::ENTRY_PREFIX, ep.name);
        let ptr = self.cx.ptr_type(AddressSpace::default());
        let w = self.llm.add_function(
            &symbol,
            self.cx.void_type().fn_type(&[ptr.into()], false),
            None,
        );
        // LLVM makes the name unique if two entry points share it (different models).
        let symbol = w.get_name().to_string_lossy().into_owned();
        let bb = self.cx.append_basic_block(w, "entry");
        let b = self.cx.create_builder();
        b.position_at_end(bb);
        let ctx = w
            .get_nth_param(0)
            .ok_or_else(|| LowerError::malformed("ctx"))?
            .into_pointer_value();
        let mut args: Vec<BasicMetadataValueEnum<'ctx>> = vec![ctx.into()];
        let mut params = Vec::new();
        if !f.params.is_empty() {
            if ep.execution_model != ExecutionModel::Kernel {
                return Err(LowerError::malformed(
                    "a shader entry point with parameters",
                ));
            }
            let table = self.ctx_ptr_field(&b, ctx, offsets::ARGS)?;
            let i64t = self.cx.i64_type();
            for (i, p) in f.params.iter().enumerate() {
                // SAFETY: the runner passes one pointer per parameter.
                let slot =
                    unsafe { b.build_gep(ptr, table, &[i64t.const_int(i as u64, false)], "")? };
                let argp = b.build_load(ptr, slot, "")?.into_pointer_value();
                let byval = p.decorations.iter().any(|d| {
                    matches!(
                        d,
                        Decoration::FuncParamAttr(FunctionParameterAttribute::ByVal)
                    )
                });
                let t = self.basic(p.ty)?;
                let (value, kind): (BasicValueEnum<'ctx>, KernelParam) = match self
                    .spv_type(p.ty)?
                {
                    Type::Pointer {
                        storage_class,
                        pointee,
                        ..
                    } => {
                        if byval {
                            // The callee's own copy, on the invocation's stack: it may write
                            // it, and its address is private memory.
                            let info = self.ty(*pointee)?;
                            let size = info.size.unwrap_or(0);
                            let align = u32::try_from(info.align.max(1)).unwrap_or(1);
                            let copy = b.build_alloca(self.basic(*pointee)?, "")?;
                            copy.as_instruction()
                                .map(|i| i.set_alignment(align))
                                .transpose()
                                .map_err(|e| LowerError::malformed(format!("alignment: {e}")))?;
                            b.build_memcpy(copy, align, argp, 1, i64t.const_int(size, false))?;
                            (copy.into(), KernelParam::Struct { size_bytes: size })
                        } else {
                            let v = b.build_load(ptr, argp, "")?;
                            let k = if *storage_class == StorageClass::Workgroup {
                                KernelParam::Local
                            } else {
                                KernelParam::Buffer {
                                    storage_class: *storage_class,
                                }
                            };
                            (v, k)
                        }
                    }
                    Type::Struct(_) | Type::Array { .. } => {
                        let size = self.ty(p.ty)?.size.unwrap_or(0);
                        (
                            b.build_load(t, argp, "")?,
                            KernelParam::Struct { size_bytes: size },
                        )
                    }
                    Type::Int { .. } | Type::Float { .. } | Type::Bool | Type::Vector { .. } => {
                        let size = self.ty(p.ty)?.size.unwrap_or(0);
                        (
                            b.build_load(t, argp, "")?,
                            KernelParam::Scalar { size_bytes: size },
                        )
                    }
                    _ => (b.build_load(t, argp, "")?, KernelParam::Opaque),
                };
                args.push(value.into());
                params.push(kind);
            }
        }
        b.build_call(callee, &args, "")?;
        b.build_return(None)?;
        Ok(LoweredEntry {
            name: ep.name.clone(),
            symbol,
            execution_model: ep.execution_model,
            local_size: self.local_size(ep.function)?,
            resources: self.placement.resources.clone(),
            push_constant_size: self.placement.push_constant_size,
            workgroup_memory: self.placement.workgroup.clone(),
            private_memory: self.placement.private.clone(),
            kernel_params: params,
            uses_barrier: reach.get(ep.function.index()).copied().unwrap_or(false),
        })
    }

    fn const_u32(&mut self, v: Value) -> Result<u32> {
        match self.module_value(v)? {
            BasicValueEnum::IntValue(i) => i
                .get_zero_extended_constant()
                .map(|n| n as u32)
                .ok_or_else(|| LowerError::malformed("a local size that is not constant")),
            _ => Err(LowerError::malformed("a local size that is not an integer")),
        }
    }

    fn local_size(&mut self, f: Handle<crate::ir::Function>) -> Result<Option<[u32; 3]>> {
        // The WorkgroupSize builtin constant wins over the execution modes.
        let mut parts: Option<Vec<Value>> = None;
        for (_, c) in self.m.constants.iter() {
            if c.decorations
                .iter()
                .any(|d| matches!(d, Decoration::BuiltIn(BuiltIn::WorkgroupSize)))
            {
                if let ConstantValue::Composite(p) = &c.value {
                    parts = Some(p.clone());
                }
            }
        }
        for (_, s) in self.m.spec_constants.iter() {
            if s.decorations
                .iter()
                .any(|d| matches!(d, Decoration::BuiltIn(BuiltIn::WorkgroupSize)))
            {
                if let SpecValue::Composite(p) = &s.value {
                    parts = Some(p.clone());
                }
            }
        }
        if let Some(p) = parts {
            if p.len() == 3 {
                return Ok(Some([
                    self.const_u32(p[0])?,
                    self.const_u32(p[1])?,
                    self.const_u32(p[2])?,
                ]));
            }
        }
        for em in &self.m.execution_modes {
            if em.function != f {
                continue;
            }
            match &em.mode {
                ExecutionMode::LocalSize(x, y, z) => return Ok(Some([*x, *y, *z])),
                ExecutionMode::LocalSizeId(x, y, z) => {
                    let v = |id: crate::grammar::Id| {
                        Value::from_id(id).ok_or_else(|| LowerError::malformed("LocalSizeId"))
                    };
                    return Ok(Some([
                        self.const_u32(v(*x)?)?,
                        self.const_u32(v(*y)?)?,
                        self.const_u32(v(*z)?)?,
                    ]));
                }
                _ => {}
            }
        }
        Ok(None)
    }
}
