//! The spv-ir style: SPIR-V-friendly LLVM IR, the convention of SPIRV-LLVM-Translator
//! (`spirv-representation-in-llvm-ir.rst`, summarized in `docs/spv-ir.md`).
//!
//! It shares the direct lowering's types, pattern table and special cases, and differs where
//! the convention says: no invocation context (kernels are `spir_kernel` functions with their
//! own parameters), pointers carry the storage class as an address space, globals are LLVM
//! globals, builtin variables are `__spirv_BuiltIn*` calls (or globals), instructions without
//! an LLVM counterpart are calls to Itanium-mangled `__spirv_*` functions, and module-level
//! instructions are named metadata ([`metadata`]).

mod annotation;
mod decorations;
pub(crate) mod mangle;
mod metadata;
mod sampler;
mod target_types;

use super::error::{LowerError, Result};
use super::function::FnCx;
use super::globals::Place;
use super::interface::{KernelParam, LoweredEntry, MemoryBlock};
use super::llvm_ext;
use super::{LowerStyle, Lowerer};
use crate::grammar::lowering::core_pattern;
use crate::grammar::{
    AddressingModel, BuiltIn, Decoration, ExecutionMode, ExecutionModel, FPRoundingMode, Id,
    Instruction, LinkageType, Opcode, StorageClass,
};
use crate::ir::{self, Handle, Op, Type, Value};
use inkwell::module::Linkage;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum, PointerValue};
use inkwell::AddressSpace;
use mangle::MType;

/// LLVM's `spir_func` calling convention.
pub(crate) const SPIR_FUNC: u32 = 75;
/// LLVM's `spir_kernel` calling convention.
pub(crate) const SPIR_KERNEL: u32 = 76;

/// The triple and data layout of an addressing model (those of `clang -target spir[64]`).
pub(crate) fn triple_and_layout(a: AddressingModel) -> (&'static str, &'static str) {
    match a {
        AddressingModel::Physical32 => (
            "spir-unknown-unknown",
            "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024",
        ),
        _ => (
            "spir64-unknown-unknown",
            "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024",
        ),
    }
}

/// The LLVM address space of a storage class (the document's table; Input builtins and other
/// storage classes a kernel can hold live in the global space).
pub(crate) fn addr_space(sc: StorageClass) -> u16 {
    match sc {
        StorageClass::Function | StorageClass::Private => 0,
        StorageClass::CrossWorkgroup => 1,
        StorageClass::UniformConstant => 2,
        StorageClass::Workgroup => 3,
        StorageClass::Generic => 4,
        StorageClass::DeviceOnlyINTEL => 5,
        StorageClass::HostOnlyINTEL => 6,
        StorageClass::Input => 1,
        _ => 0,
    }
}

/// The address space in the builtin-call mangling of an opaque type (`PU3AS1` for images, as
/// llvm-spirv mangles them).
pub(crate) fn opaque_addr_space(t: &Type) -> u16 {
    match t {
        Type::Sampler => 2,
        Type::Image(_) | Type::SampledImage { .. } | Type::Pipe { .. } | Type::PipeStorage => 1,
        _ => 0,
    }
}

/// Ops whose builtin name takes the `_R{ReturnType}` postfix.
fn has_return_postfix(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertUToF
            | O::UConvert
            | O::SConvert
            | O::FConvert
            | O::SatConvertSToU
            | O::SatConvertUToS
            | O::ConvertPtrToU
            | O::ConvertUToPtr
            | O::Bitcast
            | O::ImageSampleImplicitLod
            | O::ImageSampleExplicitLod
            | O::ImageSampleDrefImplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleProjImplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageFetch
            | O::ImageGather
            | O::ImageDrefGather
            | O::ImageRead
            | O::ImageQuerySize
            | O::ImageQuerySizeLod
            | O::ImageQueryFormat
            | O::ImageQueryOrder
    )
}

/// Ops whose integer operands are mangled unsigned.
fn unsigned_args(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::UConvert | O::ConvertUToF | O::SatConvertUToS | O::ConvertUToPtr
    )
}

/// Ops whose integer result is named unsigned in `_R{ReturnType}`.
fn unsigned_result(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::ConvertFToU | O::UConvert | O::SatConvertSToU | O::ConvertPtrToU
    )
}

/// Conversions that the table lowers to plain instructions unless decorated.
fn is_conversion(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertUToF
            | O::UConvert
            | O::SConvert
            | O::FConvert
    )
}

/// The `_sat` / `_rt*` postfixes of an op's decorations.
fn decoration_postfixes(op: &Op) -> String {
    let mut s = String::new();
    let decos = op
        .attrs
        .as_ref()
        .map(|a| a.decorations.as_slice())
        .unwrap_or(&[]);
    if decos
        .iter()
        .any(|d| matches!(d, Decoration::SaturatedConversion))
    {
        s.push_str("_sat");
    }
    for d in decos {
        if let Decoration::FPRoundingMode(m) = d {
            s.push_str(match m {
                FPRoundingMode::RTE => "_rte",
                FPRoundingMode::RTZ => "_rtz",
                FPRoundingMode::RTP => "_rtp",
                FPRoundingMode::RTN => "_rtn",
            });
        }
    }
    s
}

/// `t` with its integers (and a pointer's integer pointee) unsigned.
fn unsigned(t: MType) -> MType {
    match t {
        MType::Int { width, .. } => MType::Int {
            width,
            unsigned: true,
        },
        MType::Vector(e, n) => MType::Vector(Box::new(unsigned(*e)), n),
        MType::Pointer(e, a) => MType::Pointer(Box::new(unsigned(*e)), a),
        t => t,
    }
}

/// An id-typed operand word: the value it names, unless it is a literal.
fn value_operand(w: u32) -> Option<Value> {
    match Value::from_id(Id(w))? {
        v @ (Value::Op(_)
        | Value::Param(_)
        | Value::BlockArg(_)
        | Value::Constant(_)
        | Value::SpecConstant(_)
        | Value::Global(_)
        | Value::Function(_)) => Some(v),
        _ => None,
    }
}

/// The function that an entry point's function only forwards to, when it is the entry wrapper
/// that llvm-spirv emits (one block: a call passing every parameter in order, then a return).
pub(crate) fn wrapped(m: &ir::Module, f: Handle<ir::Function>) -> Option<Handle<ir::Function>> {
    let f = m.functions.get(f)?;
    if f.blocks.len() != 1 {
        return None;
    }
    let (_, b) = f.blocks.iter().next()?;
    let mut callee = None;
    for &oh in &b.ops {
        match &f.ops.get(oh)?.inst {
            Instruction::Line(_) | Instruction::NoLine(_) => {}
            Instruction::FunctionCall(c) if callee.is_none() => {
                let Some(Value::Function(g)) = Value::from_id(c.function) else {
                    return None;
                };
                if c.arguments.len() != f.params.len() {
                    return None;
                }
                for (i, &a) in c.arguments.iter().enumerate() {
                    if Value::from_id(a) != Some(Value::Param(i as u32)) {
                        return None;
                    }
                }
                callee = Some((g, oh));
            }
            _ => return None,
        }
    }
    let (g, call) = callee?;
    match &b.terminator {
        ir::Terminator::Return => {}
        ir::Terminator::ReturnValue(Value::Op(o)) if *o == call => {}
        _ => return None,
    }
    (m.functions.get(g)?.ty == f.ty).then_some(g)
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// The function that is an entry point's kernel in the output (the wrapped function when
    /// the entry point's own function is an llvm-spirv entry wrapper).
    pub(crate) fn kernel_fn(&self, ep: &ir::EntryPoint) -> Handle<ir::Function> {
        wrapped(self.m, ep.function).unwrap_or(ep.function)
    }

    /// Whether this lowering makes spv-ir.
    pub(crate) fn spv_ir(&self) -> bool {
        self.opts.style == LowerStyle::SpvIr
    }

    /// The whole spv-ir lowering.
    pub(crate) fn run_spv_ir(&mut self) -> Result<Vec<LoweredEntry>> {
        self.place_globals_spv_ir()?;
        self.declare_functions()?;
        let mut kernels = vec![false; self.m.functions.len()];
        let mut wrappers = vec![false; self.m.functions.len()];
        for ep in &self.m.entry_points {
            if self.kernel_fn(ep) != ep.function {
                if let Some(w) = wrappers.get_mut(ep.function.index()) {
                    *w = true;
                }
            }
        }
        for ep in &self.m.entry_points {
            if ep.execution_model != ExecutionModel::Kernel {
                return Err(LowerError::unsupported(format!(
                    "the spv-ir style of a {:?} entry point (Kernel modules only)",
                    ep.execution_model
                ))
                .at(&format!("OpEntryPoint {}", ep.name), None));
            }
            if let Some(k) = kernels.get_mut(self.kernel_fn(ep).index()) {
                *k = true;
            }
        }
        // The entry wrappers fold into the functions they call.
        for (i, w) in wrappers.iter().enumerate() {
            if *w && !kernels[i] {
                if let Some(f) = self.functions.get_mut(i).and_then(Option::take) {
                    // SAFETY: nothing refers to a wrapper: entry points are metadata here.
                    unsafe { f.delete() };
                }
            }
        }
        for (i, f) in self.functions.iter().enumerate() {
            let Some(f) = f else { continue };
            if kernels[i] {
                f.set_call_conventions(SPIR_KERNEL);
                f.as_global_value().set_linkage(Linkage::External);
            } else {
                f.set_call_conventions(SPIR_FUNC);
            }
        }
        for ep in &self.m.entry_points {
            if let Some(Some(f)) = self.functions.get(self.kernel_fn(ep).index()) {
                let f = *f;
                let cur = f.get_name().to_string_lossy().into_owned();
                if cur != ep.name && self.llm.get_function(&ep.name).is_none() {
                    f.as_global_value().as_pointer_value().set_name(&ep.name);
                }
            }
        }
        for (h, f) in self.m.functions.iter() {
            if !f.is_declaration() && self.functions.get(h.index()).copied().flatten().is_some() {
                self.lower_function(h, f)?;
            }
        }
        self.spv_ir_metadata()?;
        let mut out = Vec::new();
        for ep in &self.m.entry_points {
            let local_size = self.m.execution_modes.iter().find_map(|m| match m.mode {
                ExecutionMode::LocalSize(x, y, z) if m.function == ep.function => Some([x, y, z]),
                _ => None,
            });
            let mut params = Vec::new();
            if let Some(f) = self.m.functions.get(ep.function) {
                if let Ok(Type::Function { params: ps, .. }) = self.spv_type(f.ty) {
                    for &p in ps {
                        params.push(match self.spv_type(p)? {
                            Type::Pointer {
                                storage_class: StorageClass::Workgroup,
                                ..
                            } => KernelParam::Local,
                            Type::Pointer { storage_class, .. } => KernelParam::Buffer {
                                storage_class: *storage_class,
                            },
                            Type::Struct(_) => KernelParam::Struct {
                                size_bytes: self.ty(p)?.size.unwrap_or(0),
                            },
                            Type::Int { .. } | Type::Float { .. } | Type::Vector { .. } => {
                                KernelParam::Scalar {
                                    size_bytes: self.ty(p)?.size.unwrap_or(0),
                                }
                            }
                            _ => KernelParam::Opaque,
                        });
                    }
                }
            }
            out.push(LoweredEntry {
                name: ep.name.clone(),
                symbol: ep.name.clone(),
                execution_model: ep.execution_model,
                local_size,
                resources: Vec::new(),
                push_constant_size: None,
                workgroup_memory: MemoryBlock::default(),
                private_memory: MemoryBlock::default(),
                kernel_params: params,
                uses_barrier: false,
            });
        }
        Ok(out)
    }

    /// Every global variable as an LLVM global in its storage class's address space; builtins
    /// as calls (materialized per function) or as `__spirv_BuiltIn*` globals.
    fn place_globals_spv_ir(&mut self) -> Result<()> {
        let mut places = vec![None; self.m.globals.len()];
        for (h, g) in self.m.globals.iter() {
            let name = g.name.clone().unwrap_or_default();
            let goff = self.offsets.and_then(|o| o.global(h));
            let at = |e: LowerError| e.at(&format!("OpVariable {name}"), goff);
            let pointee = match self.spv_type(g.ty).map_err(at)? {
                Type::Pointer { pointee, .. } => *pointee,
                _ => return Err(at(LowerError::malformed("a variable of non-pointer type"))),
            };
            let builtin = g.decorations.iter().find_map(|d| match d {
                Decoration::BuiltIn(b) => Some(*b),
                _ => None,
            });
            let t = self.basic(pointee).map_err(at)?;
            let space = AddressSpace::from(addr_space(g.storage_class));
            if let Some(b) = builtin {
                if !self.opts.builtins_as_globals {
                    places[h.index()] = Some(Place::BuiltIn(b));
                    continue;
                }
                let n = format!("__spirv_BuiltIn{b:?}");
                let gv = match self.llm.get_global(&n) {
                    Some(gv) => gv,
                    None => {
                        let gv = self.llm.add_global(t, Some(space), &n);
                        gv.set_linkage(Linkage::External);
                        gv.set_constant(true);
                        gv
                    }
                };
                places[h.index()] = Some(Place::Global(gv));
                continue;
            }
            if self.is_constant_sampler(g.initializer) {
                // No LLVM global: a `target("spirv.Sampler")` global can only be zero; its
                // loads become the sampler's initializer call (`ops::memory`).
                continue;
            }
            let linkage = g.decorations.iter().find_map(|d| match d {
                Decoration::LinkageAttributes(n, k) => Some((n.clone(), *k)),
                _ => None,
            });
            let gname = match &linkage {
                Some((n, _)) => n.clone(),
                None => g
                    .name
                    .clone()
                    .filter(|n| !n.is_empty() && !n.starts_with("llvm."))
                    .unwrap_or_else(|| format!("spv.global.{}", h.index())),
            };
            let gv = self.llm.add_global(t, Some(space), &gname);
            match linkage {
                Some((_, LinkageType::Import)) => {
                    gv.set_linkage(Linkage::External);
                    places[h.index()] = Some(Place::Global(gv));
                    continue;
                }
                Some(_) => gv.set_linkage(Linkage::External),
                None => gv.set_linkage(Linkage::Internal),
            }
            let init = match g.initializer {
                Some(v @ (Value::Constant(_) | Value::SpecConstant(_))) => {
                    self.module_value(v).map_err(at)?
                }
                Some(Value::Global(g2)) => match places.get(g2.index()) {
                    Some(Some(Place::Global(gv2))) => gv2.as_pointer_value().into(),
                    _ => {
                        return Err(at(LowerError::unsupported(
                            "a variable initialized with the address of a later variable",
                        )))
                    }
                },
                Some(_) => return Err(at(LowerError::malformed("a bad initializer"))),
                None if g.storage_class == StorageClass::Workgroup => super::llvm::undef(t),
                None => super::llvm::null(t),
            };
            if llvm_ext::type_of(init) != t {
                return Err(at(LowerError::malformed(
                    "an initializer of another type than the variable",
                )));
            }
            gv.set_initializer(&init);
            if g.storage_class == StorageClass::UniformConstant
                || g.decorations
                    .iter()
                    .any(|d| matches!(d, Decoration::Constant))
            {
                gv.set_constant(true);
            }
            if let Some(a) = g.decorations.iter().find_map(|d| match d {
                Decoration::Alignment(a) => Some(*a),
                _ => None,
            }) {
                gv.set_alignment(a);
            }
            places[h.index()] = Some(Place::Global(gv));
        }
        self.placement.places = places;
        Ok(())
    }

    /// A builtin variable read through `__spirv_BuiltIn{Name}` calls (one per component, with
    /// the component index, for vector builtins), stored once per function in an `alloca`.
    pub(crate) fn spv_ir_builtin(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        g: Handle<ir::GlobalVariable>,
        b: BuiltIn,
    ) -> Result<PointerValue<'ctx>> {
        let gv = &self.m.globals[g];
        let pointee = match self.spv_type(gv.ty)? {
            Type::Pointer { pointee, .. } => *pointee,
            _ => return Err(LowerError::malformed("a builtin of non-pointer type")),
        };
        let t = self.basic(pointee)?;
        let name = format!("__spirv_BuiltIn{b:?}");
        let i32t = self.cx.i32_type();
        let pb = &fx.prologue;
        let slot = pb.build_alloca(t, &format!("{b:?}"))?;
        let value = match t {
            BasicTypeEnum::VectorType(vt) => {
                let et = vt.get_element_type();
                let mangled = mangle::mangle(
                    &name,
                    &[MType::Int {
                        width: 32,
                        unsigned: false,
                    }],
                );
                let f = self.builtin_fn(&mangled, Some(et), &[i32t.into()])?;
                let mut v = super::llvm::undef(t).into_vector_value();
                for i in 0..vt.get_size() {
                    let idx = i32t.const_int(i.into(), false);
                    let c = pb.build_call(f, &[idx.into()], "")?;
                    c.set_call_convention(SPIR_FUNC);
                    let c = super::llvm::call_result(c)
                        .ok_or_else(|| LowerError::malformed("a void builtin"))?;
                    v = pb.build_insert_element(v, c, idx, "")?;
                }
                v.as_basic_value_enum()
            }
            BasicTypeEnum::IntType(_) => {
                let mangled = mangle::mangle(&name, &[]);
                let f = self.builtin_fn(&mangled, Some(t), &[])?;
                let c = pb.build_call(f, &[], "")?;
                c.set_call_convention(SPIR_FUNC);
                super::llvm::call_result(c)
                    .ok_or_else(|| LowerError::malformed("a void builtin"))?
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

    /// `OpPtrCastToGeneric` / `OpGenericCastToPtr`: an `addrspacecast`.
    pub(crate) fn spv_ir_addrspace_cast(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        id: Id,
        result: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let p = self.id(fx, id)?;
        match (p, result) {
            (BasicValueEnum::PointerValue(p), Some(BasicTypeEnum::PointerType(t))) => {
                if p.get_type() == t {
                    Ok(p.into())
                } else {
                    Ok(self.b.build_address_space_cast(p, t, "")?.into())
                }
            }
            _ => Err(LowerError::malformed("a pointer cast of a non-pointer")),
        }
    }

    /// Declares (once) a builtin function.
    fn builtin_fn(
        &mut self,
        mangled: &str,
        ret: Option<BasicTypeEnum<'ctx>>,
        args: &[BasicMetadataTypeEnum<'ctx>],
    ) -> Result<inkwell::values::FunctionValue<'ctx>> {
        let fty = match ret {
            Some(r) => r.fn_type(args, false),
            None => self.cx.void_type().fn_type(args, false),
        };
        if let Some(f) = self.llm.get_function(mangled) {
            if f.get_type() != fty {
                return Err(LowerError::unsupported(format!(
                    "two uses of {mangled} with different LLVM types"
                )));
            }
            return Ok(f);
        }
        let f = self.llm.add_function(mangled, fty, Some(Linkage::External));
        f.set_call_conventions(SPIR_FUNC);
        let nounwind = self.cx.create_enum_attribute(
            inkwell::attributes::Attribute::get_named_enum_kind_id("nounwind"),
            0,
        );
        f.add_attribute(inkwell::attributes::AttributeLoc::Function, nounwind);
        Ok(f)
    }

    /// The mangler's view of a SPIR-V type.
    fn mtype(&self, h: Handle<Type>, unsigned: bool) -> Result<MType> {
        Ok(match self.spv_type(h)? {
            Type::Void => MType::Void,
            Type::Bool => MType::Bool,
            Type::Int { width, .. } => MType::Int {
                width: *width,
                unsigned,
            },
            Type::Float { width } => MType::Float(*width),
            Type::Vector { component, count } => {
                MType::Vector(Box::new(self.mtype(*component, unsigned)?), *count)
            }
            Type::Pointer {
                storage_class,
                pointee,
                ..
            } => {
                let inner = match self.spv_type(*pointee)? {
                    Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                        self.mtype(*element, false)?
                    }
                    _ => self.mtype(*pointee, false)?,
                };
                MType::Pointer(Box::new(inner), addr_space(*storage_class).into())
            }
            t if t.is_opaque_object() || t.opaque_handle_name().is_some() => MType::Pointer(
                Box::new(MType::Named(metadata::opaque_mangled_name(self.m, t))),
                opaque_addr_space(t).into(),
            ),
            Type::Struct(s) => MType::Named(s.name.clone().unwrap_or_else(|| "struct".into())),
            Type::Array { element, .. } | Type::RuntimeArray { element, .. } => {
                MType::Pointer(Box::new(self.mtype(*element, unsigned)?), 0)
            }
            _ => MType::Named("opaque".into()),
        })
    }

    /// Calls `__spirv_{name}` with `args` (values with the SPIR-V types that mangle them).
    fn spirv_call(
        &mut self,
        name: &str,
        args: &[(BasicValueEnum<'ctx>, MType)],
        ret: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let mts: Vec<MType> = args.iter().map(|a| a.1.clone()).collect();
        let mangled = mangle::mangle(name, &mts);
        let tys: Vec<BasicMetadataTypeEnum<'ctx>> =
            args.iter().map(|a| llvm_ext::type_of(a.0).into()).collect();
        let f = self.builtin_fn(&mangled, ret, &tys)?;
        let vals: Vec<BasicMetadataValueEnum<'ctx>> =
            args.iter().map(|a| llvm_ext::arg(a.0)).collect();
        let c = llvm_ext::call(&self.b, f, &vals)?;
        c.set_call_convention(SPIR_FUNC);
        Ok(super::llvm::call_result(c))
    }

    /// The operands of an instruction as call arguments: ids as their values, literal words
    /// as `i32`.
    fn call_args(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        words: &[u32],
        unsigned: bool,
    ) -> Result<Vec<(BasicValueEnum<'ctx>, MType)>> {
        let mut out = Vec::with_capacity(words.len());
        for &w in words {
            match value_operand(w) {
                Some(v) => {
                    let t = self
                        .m
                        .type_of(Some(fx.f), v)
                        .ok_or_else(|| LowerError::malformed(format!("{v} has no type")))?;
                    let mt = self.mtype(t, unsigned)?;
                    out.push((self.val(fx, v)?, mt));
                }
                None => out.push((
                    self.cx.i32_type().const_int(w.into(), false).into(),
                    MType::Int {
                        width: 32,
                        unsigned: false,
                    },
                )),
            }
        }
        Ok(out)
    }

    /// An op in the spv-ir style: `Some(result)` when the style lowers it itself (a builtin
    /// call), `None` when the shared lowering does (plain LLVM instructions).
    pub(crate) fn spv_ir_op(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        opcode: Opcode,
        op: &Op,
        result: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<Option<Option<BasicValueEnum<'ctx>>>> {
        use Instruction as I;
        let inst = &op.inst;
        use super::ops::{is_composite_op, is_no_op, is_plain_memory_op};
        if is_no_op(inst)
            || is_plain_memory_op(inst)
            || is_composite_op(inst)
            || matches!(inst, I::Undef(_) | I::FunctionCall(_))
        {
            return Ok(None);
        }
        if let I::ExtInst(e) = inst {
            return self.spv_ir_ext(fx, e, result);
        }
        let postfix = decoration_postfixes(op);
        let plain = core_pattern(opcode).is_some()
            || super::ops::special_dispatch::core_special(opcode).is_some()
            || is_conversion(opcode);
        let decorated_conversion = is_conversion(opcode) && !postfix.is_empty();
        if plain && !decorated_conversion {
            return Ok(None);
        }
        // Everything else: a call of `__spirv_{OpName}{postfixes}`.
        let mut words = Vec::new();
        crate::binary::encode_operands(inst, &mut words);
        let skip =
            usize::from(inst.result_type().is_some()) + usize::from(inst.result_id().is_some());
        let words = words.get(skip..).unwrap_or(&[]);
        let mut name = format!("__spirv_{opcode:?}");
        match inst {
            I::GenericCastToPtrExplicit(c) => {
                name.push_str(match c.storage {
                    StorageClass::CrossWorkgroup => "_ToGlobal",
                    StorageClass::Workgroup => "_ToLocal",
                    StorageClass::Function => "_ToPrivate",
                    other => {
                        return Err(LowerError::malformed(format!(
                            "OpGenericCastToPtrExplicit to {other:?} (only Workgroup, \
                             CrossWorkgroup and Function are allowed)"
                        )))
                    }
                });
            }
            I::BuildNDRange(b) => {
                let t = self.type_of_id(fx, b.global_work_size)?;
                let n = match self.spv_type(t)? {
                    Type::Array { length, .. } => self.array_length(*length)?,
                    _ => 1,
                };
                name.push_str(&format!("_{n}D"));
            }
            I::CreatePipeFromPipeStorage(_) => {
                let write = matches!(
                    op.result_type().map(|t| self.spv_type(t)),
                    Some(Ok(Type::Pipe {
                        access: crate::grammar::AccessQualifier::WriteOnly
                    }))
                );
                name.push_str(if write { "_write" } else { "_read" });
            }
            _ => {}
        }
        if has_return_postfix(opcode) {
            if let Some(rt) = op.result_type() {
                let mt = self.mtype(rt, unsigned_result(opcode))?;
                if let Some(p) = mt.postfix_name() {
                    name.push_str("_R");
                    name.push_str(&p);
                }
            }
        }
        name.push_str(&postfix);
        let mut args = self.call_args(fx, words, unsigned_args(opcode))?;
        if matches!(opcode, Opcode::AtomicUMin | Opcode::AtomicUMax) {
            // The pointee and the value are unsigned; scope and semantics are not.
            for i in [0, 3] {
                if let Some(a) = args.get_mut(i) {
                    a.1 = unsigned(a.1.clone());
                }
            }
        }
        let r = self.spirv_call(&name, &args, result)?;
        Ok(Some(r))
    }

    /// `OpExtInst` of OpenCL.std: `__spirv_ocl_{name}` (vload forms with `__R{ReturnType}`);
    /// other sets go to the shared lowering.
    fn spv_ir_ext(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        e: &crate::grammar::OpExtInst,
        result: Option<BasicTypeEnum<'ctx>>,
    ) -> Result<Option<Option<BasicValueEnum<'ctx>>>> {
        let (set, iname) = super::ops::ext::names(self, e)?;
        if set != "OpenCL.std" {
            return Ok(None);
        }
        let mut name = format!("__spirv_ocl_{iname}");
        if matches!(
            iname.as_str(),
            "vloadn" | "vload_half" | "vload_halfn" | "vloada_halfn"
        ) {
            if let Some(rt) = Value::from_id(e.result_type).and_then(|v| v.as_type()) {
                if let Some(p) = self.mtype(rt, false)?.postfix_name() {
                    name.push_str("__R");
                    name.push_str(&p);
                }
            }
        }
        let args = self.call_args(fx, &e.operands, false)?;
        let r = self.spirv_call(&name, &args, result)?;
        Ok(Some(r))
    }
}
