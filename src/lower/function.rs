//! Functions: signatures (a hidden `ptr %ctx` first), bodies (SPIR-V blocks to LLVM blocks,
//! block arguments to `phi`s), terminators, and how a value is found inside a function
//! (global variables addressed through the context, builtins materialized once per function
//! from context fields into an `alloca`).

use super::error::{LowerError, Result};
use super::globals::Place;
use super::llvm::{int_resize, undef};
use super::Lowerer;
use crate::grammar::{BuiltIn, Decoration, LinkageType};
use crate::ir::{self, Handle, Terminator, Type, Value};
use crate::lower::abi::offsets;
use inkwell::basic_block::BasicBlock;
use inkwell::module::Linkage;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, FunctionValue, PhiValue, PointerValue};
use inkwell::AddressSpace;
use std::collections::HashMap;

/// The state of lowering one function.
pub(crate) struct FnCx<'f, 'ctx> {
    /// The function's handle.
    pub fh: Handle<ir::Function>,
    /// The function.
    pub f: &'f ir::Function,
    /// Its LLVM function.
    pub llf: FunctionValue<'ctx>,
    /// The `%ctx` parameter.
    pub ctx: PointerValue<'ctx>,
    /// Values of ops, parameters and block arguments.
    pub values: HashMap<Value, BasicValueEnum<'ctx>>,
    /// LLVM blocks by SPIR-V block index.
    pub blocks: Vec<BasicBlock<'ctx>>,
    /// The `phi` of each block argument.
    pub phis: HashMap<Handle<ir::BlockArg>, PhiValue<'ctx>>,
    /// Positioned in the prologue block, before its branch: allocas and builtin loads go here.
    pub prologue: inkwell::builder::Builder<'ctx>,
    /// Builtin variables materialized in this function.
    pub builtins: HashMap<Handle<ir::GlobalVariable>, PointerValue<'ctx>>,
    /// Access chains that end inside a matrix member laid out otherwise than its value
    /// (`RowMajor`, padded columns; see `matrix_layout`).
    pub layout_ptrs: HashMap<Handle<ir::Op>, super::matrix_layout::LayoutPtr<'ctx>>,
    /// Access chains that end at a component of a bool vector: the vector's address, its
    /// type and the component's index. LLVM packs `<N x i1>` in memory as bits, so such a
    /// component has no address of its own; loads and stores go through the whole vector.
    #[allow(clippy::type_complexity)]
    pub bool_lanes: HashMap<
        Handle<ir::Op>,
        (
            PointerValue<'ctx>,
            Handle<ir::Type>,
            inkwell::values::IntValue<'ctx>,
        ),
    >,
}

/// The word offset of each op of a function.
pub(crate) fn op_offset(
    l: &Lowerer<'_, '_>,
    fh: Handle<ir::Function>,
    op: Handle<ir::Op>,
) -> Option<usize> {
    l.offsets.and_then(|o| o.op(fh, op))
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// Declares every function with its signature and linkage.
    pub(crate) fn declare_functions(&mut self) -> Result<()> {
        let mut used_names = std::collections::HashSet::new();
        for (h, f) in self.m.functions.iter() {
            let foff = self.offsets.and_then(|o| o.function(h));
            let at = |e: LowerError| e.at("OpFunction", foff);
            let (ret, params) = match self.spv_type(f.ty).map_err(at)? {
                Type::Function { ret, params } => (*ret, params.clone()),
                _ => return Err(at(LowerError::malformed("a function of non-function type"))),
            };
            let mut ptys: Vec<BasicMetadataTypeEnum<'ctx>> = if self.spv_ir() {
                Vec::new()
            } else {
                vec![self.cx.ptr_type(AddressSpace::default()).into()]
            };
            for p in &params {
                ptys.push(self.basic(*p).map_err(at)?.into());
            }
            let fty = match self.ty(ret).map_err(at)?.llvm {
                None => self.cx.void_type().fn_type(&ptys, false),
                Some(t) => t.fn_type(&ptys, false),
            };
            let linkage = f.decorations.iter().find_map(|d| match d {
                Decoration::LinkageAttributes(name, kind) => Some((name.clone(), *kind)),
                _ => None,
            });
            let (name, llvm_linkage) = match &linkage {
                Some((n, LinkageType::Export)) => (n.clone(), Linkage::External),
                Some((n, LinkageType::Import)) => (n.clone(), Linkage::External),
                Some((n, _)) => (n.clone(), Linkage::LinkOnceODR),
                None if f.is_declaration() => (
                    f.name
                        .clone()
                        .unwrap_or_else(|| format!("spv.func.{}", h.index())),
                    Linkage::External,
                ),
                None => {
                    let base = f
                        .name
                        .clone()
                        .filter(|n| !n.is_empty() && !n.starts_with("llvm."))
                        .unwrap_or_else(|| format!("spv.func.{}", h.index()));
                    let mut n = base.clone();
                    let mut k = 1;
                    while used_names.contains(&n) || self.llm.get_function(&n).is_some() {
                        n = format!("{base}.{k}");
                        k += 1;
                    }
                    (n, Linkage::Internal)
                }
            };
            used_names.insert(name.clone());
            let llf = self.llm.add_function(&name, fty, Some(llvm_linkage));
            for a in super::special::function_control_attributes(self.cx, f.control) {
                llf.add_attribute(inkwell::attributes::AttributeLoc::Function, a);
            }
            if self.spv_ir() {
                self.spv_ir_param_attributes(f, llf).map_err(at)?;
            }
            self.functions.push(Some(llf));
        }
        Ok(())
    }

    /// Lowers one function body.
    pub(crate) fn lower_function(
        &mut self,
        fh: Handle<ir::Function>,
        f: &ir::Function,
    ) -> Result<()> {
        // The ops that `lower_owned` took out of the module come back for this function's
        // lowering only, and are freed when it returns.
        let whole;
        let f = match self.bodies.get_mut(fh.index()).and_then(Option::take) {
            Some(ops) => {
                whole = ir::Function { ops, ..f.clone() };
                &whole
            }
            None => f,
        };
        let llf = self
            .functions
            .get(fh.index())
            .copied()
            .flatten()
            .ok_or_else(|| LowerError::malformed("undeclared function"))?;
        // The spv-ir style has no context parameter; nothing it lowers reads one.
        let first_param = u32::from(!self.spv_ir());
        let ctx = if self.spv_ir() {
            self.cx.ptr_type(AddressSpace::default()).const_null()
        } else {
            llf.get_nth_param(0)
                .ok_or_else(|| LowerError::malformed("ctx"))?
                .into_pointer_value()
        };
        let pro = self.cx.append_basic_block(llf, "prologue");
        let mut blocks = Vec::with_capacity(f.blocks.len());
        for (bh, _) in f.blocks.iter() {
            blocks.push(self.cx.append_basic_block(llf, &format!("b{}", bh.index())));
        }
        let first = *blocks
            .first()
            .ok_or_else(|| LowerError::malformed("a function without blocks"))?;
        self.b.position_at_end(pro);
        let br = self.b.build_unconditional_branch(first)?;
        let prologue = self.cx.create_builder();
        prologue.position_before(&br);
        let mut fx = FnCx {
            fh,
            f,
            llf,
            ctx,
            values: HashMap::new(),
            blocks,
            phis: HashMap::new(),
            prologue,
            builtins: HashMap::new(),
            layout_ptrs: HashMap::new(),
            bool_lanes: HashMap::new(),
        };
        for (i, _) in f.params.iter().enumerate() {
            if let Some(p) = super::llvm_ext::param(llf, i as u32 + first_param) {
                fx.values.insert(Value::Param(i as u32), p);
            }
        }
        // Phis first, so that uses before the defining block in layout order resolve.
        for (bh, block) in f.blocks.iter() {
            self.b.position_at_end(fx.blocks[bh.index()]);
            for &a in &block.args {
                let arg = f
                    .block_args
                    .get(a)
                    .ok_or_else(|| LowerError::malformed("block argument out of range"))?;
                let t = self.basic(arg.ty)?;
                let phi = self.b.build_phi(t, "")?;
                fx.phis.insert(a, phi);
                fx.values
                    .insert(Value::BlockArg(a), super::llvm_ext::phi_value(phi));
            }
        }
        for (bh, block) in f.blocks.iter() {
            self.b.position_at_end(fx.blocks[bh.index()]);
            for &oh in &block.ops {
                let op = f
                    .ops
                    .get(oh)
                    .ok_or_else(|| LowerError::malformed("op out of range"))?;
                let name = op
                    .inst
                    .opcode()
                    .map(|o| format!("Op{o:?}"))
                    .unwrap_or_else(|| "an unknown op".into());
                super::ops::lower_op(self, &mut fx, oh, op)
                    .map_err(|e| e.at(&name, op_offset(self, fh, oh)))?;
            }
            let name = match &block.terminator {
                Terminator::Other(i) => i.opcode().map(|o| format!("Op{o:?}")).unwrap_or_default(),
                t => terminator_name(t).to_string(),
            };
            let last_offset = block.ops.last().and_then(|&oh| op_offset(self, fh, oh));
            self.terminator(&mut fx, &block.terminator)
                .map_err(|e| e.at(&name, last_offset))?;
        }
        Ok(())
    }

    fn successor(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        s: &ir::Successor,
    ) -> Result<BasicBlock<'ctx>> {
        let target = f_block(fx, s.block)?;
        let here = self
            .b
            .get_insert_block()
            .ok_or_else(|| LowerError::malformed("no insert block"))?;
        let block =
            fx.f.blocks
                .get(s.block)
                .ok_or_else(|| LowerError::malformed("block out of range"))?;
        if block.args.len() != s.args.len() {
            return Err(LowerError::malformed(
                "a branch passes the wrong number of arguments",
            ));
        }
        for (a, v) in block.args.iter().zip(&s.args) {
            let val = self.val(fx, *v)?;
            let phi = fx.phis.get(a).ok_or_else(|| LowerError::malformed("phi"))?;
            if super::llvm_ext::type_of(super::llvm_ext::phi_value(*phi))
                != super::llvm_ext::type_of(val)
            {
                return Err(LowerError::malformed("a block argument of another type"));
            }
            phi.add_incoming(&[(&val as &dyn BasicValue<'ctx>, here)]);
        }
        Ok(target)
    }

    fn terminator(&mut self, fx: &mut FnCx<'_, 'ctx>, t: &Terminator) -> Result<()> {
        match t {
            Terminator::Branch(s) => {
                let target = self.successor(fx, s)?;
                self.b.build_unconditional_branch(target)?;
            }
            Terminator::BranchConditional {
                condition,
                true_target,
                false_target,
                ..
            } => {
                let c = self.val(fx, *condition)?;
                let BasicValueEnum::IntValue(c) = c else {
                    return Err(LowerError::malformed("a non-boolean branch condition"));
                };
                let tt = self.successor(fx, true_target)?;
                let ft = self.successor(fx, false_target)?;
                self.b.build_conditional_branch(c, tt, ft)?;
            }
            Terminator::Switch {
                selector,
                default,
                cases,
            } => {
                let s = self.val(fx, *selector)?;
                let BasicValueEnum::IntValue(s) = s else {
                    return Err(LowerError::malformed("a non-integer switch selector"));
                };
                let d = self.successor(fx, default)?;
                let mut seen = std::collections::HashSet::new();
                let mut llcases = Vec::new();
                for (lit, succ) in cases {
                    let target = self.successor(fx, succ)?;
                    let v = lit.low_u64();
                    // Duplicate case values are invalid SPIR-V, and LLVM rejects them.
                    if seen.insert(v) {
                        llcases.push((s.get_type().const_int(v, false), target));
                    }
                }
                self.b.build_switch(s, d, &llcases)?;
            }
            Terminator::Return => {
                if super::llvm_ext::return_type(fx.llf).is_some() {
                    return Err(LowerError::malformed(
                        "OpReturn in a function returning a value",
                    ));
                }
                self.b.build_return(None)?;
            }
            Terminator::ReturnValue(v) => {
                let v = self.val(fx, *v)?;
                self.b.build_return(Some(&v))?;
            }
            Terminator::Unreachable => {
                self.b.build_unreachable()?;
            }
            Terminator::Kill => self.end_invocation(fx)?,
            Terminator::Other(i)
                if i.opcode() == Some(crate::grammar::Opcode::TerminateInvocation) =>
            {
                self.end_invocation(fx)?
            }
            Terminator::Other(i) => {
                return Err(LowerError::unsupported(format!(
                    "the terminator {:?}",
                    i.opcode()
                )))
            }
        }
        Ok(())
    }

    /// `OpKill` / `OpTerminateInvocation`: the invocation ends; this function returns (an
    /// undefined value, if it returns one).
    fn end_invocation(&mut self, fx: &FnCx<'_, 'ctx>) -> Result<()> {
        match super::llvm_ext::return_type(fx.llf) {
            None => self.b.build_return(None)?,
            Some(t) => {
                let u = undef(t);
                self.b.build_return(Some(&u))?
            }
        };
        Ok(())
    }

    /// The LLVM value of a SPIR-V value inside a function.
    pub(crate) fn val(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        v: Value,
    ) -> Result<BasicValueEnum<'ctx>> {
        match v {
            Value::Op(_) | Value::Param(_) | Value::BlockArg(_) => {
                fx.values.get(&v).copied().ok_or_else(|| {
                    LowerError::malformed(format!("{v} is used before it is defined"))
                })
            }
            Value::Constant(_) if self.spv_ir() => match self.spv_ir_sampler(fx, v)? {
                Some(s) => Ok(s),
                None => self.module_value(v),
            },
            Value::Constant(_) | Value::SpecConstant(_) => self.module_value(v),
            Value::Global(g) => Ok(self.global_address(fx, g)?.into()),
            Value::Function(h) => Ok(self
                .functions
                .get(h.index())
                .copied()
                .flatten()
                .ok_or_else(|| LowerError::malformed("function out of range"))?
                .as_global_value()
                .as_pointer_value()
                .into()),
            _ => Err(LowerError::malformed(format!("{v} is not a value"))),
        }
    }

    /// Loads a pointer-sized field of the context.
    pub(crate) fn ctx_ptr_field(
        &self,
        b: &inkwell::builder::Builder<'ctx>,
        ctx: PointerValue<'ctx>,
        field: u64,
    ) -> Result<PointerValue<'ctx>> {
        let i8t = self.cx.i8_type();
        let ptr = self.cx.ptr_type(AddressSpace::default());
        // SAFETY: the field offsets are inside the context struct.
        let p =
            unsafe { b.build_gep(i8t, ctx, &[self.cx.i64_type().const_int(field, false)], "")? };
        Ok(b.build_load(ptr, p, "")?.into_pointer_value())
    }

    /// The address of a global variable, computed at the builder's position.
    pub(crate) fn global_address(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        g: Handle<ir::GlobalVariable>,
    ) -> Result<PointerValue<'ctx>> {
        let place = self
            .placement
            .places
            .get(g.index())
            .copied()
            .flatten()
            .ok_or_else(|| {
                if self.is_constant_sampler(self.m.globals.get(g).and_then(|g| g.initializer)) {
                    LowerError::unsupported(
                        "the address of a constant-sampler variable (only loads of it have an \
                         spv-ir form)",
                    )
                } else {
                    LowerError::malformed("global out of range")
                }
            })?;
        let i8t = self.cx.i8_type();
        let i64t = self.cx.i64_type();
        let ptr = self.cx.ptr_type(AddressSpace::default());
        Ok(match place {
            Place::Block { field, offset } => {
                let base = self.ctx_ptr_field(&self.b, fx.ctx, field)?;
                // SAFETY: in-bounds of the block the runner allocates with the reported size.
                unsafe {
                    self.b
                        .build_gep(i8t, base, &[i64t.const_int(offset, false)], "")?
                }
            }
            Place::Resource(slot) => {
                let table = self.ctx_ptr_field(&self.b, fx.ctx, offsets::RESOURCES)?;
                // SAFETY: one pointer per slot, as the runner provides.
                let p = unsafe {
                    self.b
                        .build_gep(ptr, table, &[i64t.const_int(slot.into(), false)], "")?
                };
                self.b.build_load(ptr, p, "")?.into_pointer_value()
            }
            Place::ResourceArray { .. } => {
                return Err(LowerError::unsupported(
                    "an array of blocks other than through an access chain to one element \
                     (each element is a buffer of its own)",
                ))
            }
            Place::PushConstant => self.ctx_ptr_field(&self.b, fx.ctx, offsets::PUSH_CONSTANTS)?,
            Place::Global(gv) => gv.as_pointer_value(),
            Place::BuiltIn(b) => self.builtin(fx, g, b)?,
        })
    }

    /// A builtin variable: an `alloca` in the prologue filled from the context.
    fn builtin(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        g: Handle<ir::GlobalVariable>,
        b: BuiltIn,
    ) -> Result<PointerValue<'ctx>> {
        if let Some(p) = fx.builtins.get(&g) {
            return Ok(*p);
        }
        if self.spv_ir() {
            return self.spv_ir_builtin(fx, g, b);
        }
        let gv = &self.m.globals[g];
        let pointee = match self.spv_type(gv.ty)? {
            Type::Pointer { pointee, .. } => *pointee,
            _ => return Err(LowerError::malformed("a builtin of non-pointer type")),
        };
        let t = self.basic(pointee)?;
        let pb = &fx.prologue;
        let slot = pb.build_alloca(t, &format!("{b:?}"))?;
        let i64t = self.cx.i64_type();
        let i8t = self.cx.i8_type();
        let field = |idx: u64| -> Result<BasicValueEnum<'ctx>> {
            // SAFETY: inside the context struct.
            let p = unsafe { pb.build_gep(i8t, fx.ctx, &[i64t.const_int(idx, false)], "")? };
            Ok(pb.build_load(i64t, p, "")?)
        };
        let (base, n): (Option<u64>, u32) = match b {
            BuiltIn::GlobalInvocationId => (Some(offsets::GLOBAL_ID), 3),
            BuiltIn::LocalInvocationId => (Some(offsets::LOCAL_ID), 3),
            BuiltIn::WorkgroupId => (Some(offsets::WORKGROUP_ID), 3),
            BuiltIn::NumWorkgroups => (Some(offsets::NUM_WORKGROUPS), 3),
            BuiltIn::WorkgroupSize | BuiltIn::EnqueuedWorkgroupSize => {
                (Some(offsets::WORKGROUP_SIZE), 3)
            }
            BuiltIn::GlobalSize => (Some(offsets::GLOBAL_SIZE), 3),
            BuiltIn::GlobalOffset => (Some(offsets::GLOBAL_OFFSET), 3),
            BuiltIn::LocalInvocationIndex => (Some(offsets::LOCAL_INDEX), 1),
            BuiltIn::WorkDim => (Some(offsets::WORK_DIM), 1),
            // The subgroup model: one invocation per subgroup.
            BuiltIn::SubgroupSize | BuiltIn::SubgroupMaxSize => (None, 1),
            BuiltIn::SubgroupLocalInvocationId => (None, 0),
            BuiltIn::SubgroupId => (Some(offsets::LOCAL_INDEX), 1),
            BuiltIn::NumSubgroups | BuiltIn::NumEnqueuedSubgroups => (None, 2),
            BuiltIn::GlobalLinearId => (None, 3),
            // Subgroup masks of the one invocation: bit 0 in Eq, Ge and Le.
            BuiltIn::SubgroupEqMask | BuiltIn::SubgroupGeMask | BuiltIn::SubgroupLeMask => {
                (None, 1)
            }
            BuiltIn::SubgroupGtMask | BuiltIn::SubgroupLtMask => (None, 0),
            // One device.
            BuiltIn::DeviceIndex => (None, 0),
            other => return Err(LowerError::unsupported(format!("the builtin {other:?}"))),
        };
        let comps: Vec<BasicValueEnum<'ctx>> = match (base, n) {
            (Some(off), 3) => (0..3).map(|i| field(off + 8 * i)).collect::<Result<_>>()?,
            (Some(off), _) => vec![field(off)?],
            (None, 1) => vec![i64t.const_int(1, false).into()],
            (None, 0) => vec![i64t.const_zero().into()],
            (None, 2) => {
                // Subgroups of one: as many as the workgroup has invocations.
                let s: Vec<_> = (0..3)
                    .map(|i| field(offsets::WORKGROUP_SIZE + 8 * i))
                    .collect::<Result<_>>()?;
                let p = pb.build_int_mul(s[0].into_int_value(), s[1].into_int_value(), "")?;
                vec![pb.build_int_mul(p, s[2].into_int_value(), "")?.into()]
            }
            _ => {
                // GlobalLinearId: (z * gsy + y) * gsx + x over ids without the offset.
                let id: Vec<_> = (0..3)
                    .map(|i| field(offsets::GLOBAL_ID + 8 * i))
                    .collect::<Result<_>>()?;
                let off: Vec<_> = (0..3)
                    .map(|i| field(offsets::GLOBAL_OFFSET + 8 * i))
                    .collect::<Result<_>>()?;
                let gs: Vec<_> = (0..3)
                    .map(|i| field(offsets::GLOBAL_SIZE + 8 * i))
                    .collect::<Result<_>>()?;
                let sub = |i: usize| -> Result<inkwell::values::IntValue<'ctx>> {
                    Ok(pb.build_int_sub(id[i].into_int_value(), off[i].into_int_value(), "")?)
                };
                let z = sub(2)?;
                let y = sub(1)?;
                let x = sub(0)?;
                let t = pb.build_int_mul(z, gs[1].into_int_value(), "")?;
                let t = pb.build_int_add(t, y, "")?;
                let t = pb.build_int_mul(t, gs[0].into_int_value(), "")?;
                vec![pb.build_int_add(t, x, "")?.into()]
            }
        };
        let value = match t {
            BasicTypeEnum::VectorType(vt) => {
                let et = vt.get_element_type();
                let mut v = crate::lower::llvm::null(t).into_vector_value();
                for i in 0..vt.get_size().min(comps.len() as u32) {
                    let c = int_resize(pb, comps[i as usize], et, false)?;
                    v = pb.build_insert_element(
                        v,
                        c,
                        self.cx.i32_type().const_int(i.into(), false),
                        "",
                    )?;
                }
                v.as_basic_value_enum()
            }
            BasicTypeEnum::IntType(_) => int_resize(pb, comps[0], t, false)?,
            BasicTypeEnum::ArrayType(at) if at.get_element_type().is_int_type() => {
                let et = at.get_element_type();
                let mut v = crate::lower::llvm::null(t).into_array_value();
                for i in 0..at.len().min(comps.len() as u32) {
                    let c = int_resize(pb, comps[i as usize], et, false)?;
                    v = pb.build_insert_value(v, c, i, "")?.into_array_value();
                }
                v.as_basic_value_enum()
            }
            _ => {
                return Err(LowerError::unsupported(format!(
                    "the builtin {b:?} of this type"
                )))
            }
        };
        pb.build_store(slot, value)?;
        fx.builtins.insert(g, slot);
        Ok(slot)
    }
}

fn f_block<'ctx>(fx: &FnCx<'_, 'ctx>, b: Handle<ir::Block>) -> Result<BasicBlock<'ctx>> {
    fx.blocks
        .get(b.index())
        .copied()
        .ok_or_else(|| LowerError::malformed("a branch to a block out of range"))
}

fn terminator_name(t: &Terminator) -> &'static str {
    match t {
        Terminator::Branch(_) => "OpBranch",
        Terminator::BranchConditional { .. } => "OpBranchConditional",
        Terminator::Switch { .. } => "OpSwitch",
        Terminator::Return => "OpReturn",
        Terminator::ReturnValue(_) => "OpReturnValue",
        Terminator::Unreachable => "OpUnreachable",
        Terminator::Kill => "OpKill",
        Terminator::Other(_) => "a terminator",
    }
}
