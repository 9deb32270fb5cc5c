//! Device-side enqueue of OpenCL C 2.0 as clang-15 emits it: `get_default_queue` →
//! `OpGetDefaultQueue`, `ndrange_{1,2,3}D` (an `sret` call) → `OpBuildNDRange` stored to its
//! result, `__enqueue_kernel_basic` / `__enqueue_kernel_basic_events` → `OpEnqueueKernel` of the
//! block's invoke kernel, with the block literal's store size and preferred alignment, as
//! llvm-spirv-15 writes them. The invoke function pointer clang stores into the block literal
//! has no SPIR-V form; it is stored as null, as llvm-spirv-15 does (the invoke kernel is an
//! operand of `OpEnqueueKernel`). `__enqueue_kernel_[events_]varargs` pass a pointer to each
//! local-memory size, as llvm-spirv-15 does. The event functions (`retain_event`,
//! `release_event`, `create_user_event`, `is_valid_event`, `set_user_event_status`,
//! `capture_event_profiling_info`) take events made by `create_user_event` or loaded from a
//! variable (reloaded as `OpTypeDeviceEvent`).

use super::error::{err, Result};
use super::function::Fx;
use super::module::Val;
use super::read;
use crate::grammar::{Opcode, StorageClass};
use crate::ir::{Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode as O, LLVMValueKind as VK};

/// The function a value names through casts (`addrspacecast (ptr @f to ...)`, as a constant
/// or an instruction).
pub fn function_of(mut v: LLVMValueRef) -> Option<LLVMValueRef> {
    for _ in 0..4 {
        let op = match read::value_kind(v) {
            VK::LLVMFunctionValueKind => return Some(v),
            VK::LLVMConstantExprValueKind => read::const_opcode(v),
            VK::LLVMInstructionValueKind => read::opcode(v),
            _ => return None,
        };
        if !matches!(op, O::LLVMAddrSpaceCast | O::LLVMBitCast) {
            return None;
        }
        v = read::operand(v, 0);
    }
    None
}

/// Whether a callee name is one of clang's enqueue entry points this module translates.
pub fn is_enqueue(name: &str) -> bool {
    matches!(
        name,
        "__enqueue_kernel_basic"
            | "__enqueue_kernel_basic_events"
            | "__enqueue_kernel_varargs"
            | "__enqueue_kernel_events_varargs"
    ) || kernel_query(name).is_some()
}

/// The instruction of one of clang's kernel queries on a block, and whether it takes an
/// ndrange first.
fn kernel_query(name: &str) -> Option<(Opcode, bool)> {
    Some(match name {
        "__get_kernel_work_group_size_impl" => (Opcode::GetKernelWorkGroupSize, false),
        "__get_kernel_preferred_work_group_size_multiple_impl" => {
            (Opcode::GetKernelPreferredWorkGroupSizeMultiple, false)
        }
        "__get_kernel_max_sub_group_size_for_ndrange_impl" => {
            (Opcode::GetKernelNDrangeMaxSubGroupSize, true)
        }
        "__get_kernel_sub_group_count_for_ndrange_impl" => {
            (Opcode::GetKernelNDrangeSubGroupCount, true)
        }
        _ => return None,
    })
}

/// The defined functions an enqueue call invokes (translated before its caller).
pub fn invoked_functions(call: LLVMValueRef) -> Vec<LLVMValueRef> {
    let n = read::num_operands(call);
    let callee = read::operand(call, n.saturating_sub(1));
    let name = read::name(callee);
    if !is_enqueue(&name)
        && !name.contains("__spirv_EnqueueKernel")
        && !name.contains("__spirv_GetKernel")
    {
        return Vec::new();
    }
    (0..n.saturating_sub(1))
        .filter_map(|k| function_of(read::operand(call, k)))
        .filter(|f| !read::is_declaration(*f))
        .collect()
}

/// The type of the block literal a pointer comes from, through casts: a local variable (a
/// block that captures) or a global (`__block_literal_global`, one that does not).
fn block_literal_type(mut v: LLVMValueRef) -> Option<LLVMTypeRef> {
    for _ in 0..8 {
        let op = match read::value_kind(v) {
            VK::LLVMInstructionValueKind => read::opcode(v),
            VK::LLVMConstantExprValueKind => read::const_opcode(v),
            // SAFETY: `v` is a global variable.
            VK::LLVMGlobalVariableValueKind => {
                return Some(unsafe { inkwell::llvm_sys::core::LLVMGlobalGetValueType(v) })
            }
            _ => return None,
        };
        match op {
            // SAFETY: `v` is an alloca.
            O::LLVMAlloca => {
                return Some(unsafe { inkwell::llvm_sys::core::LLVMGetAllocatedType(v) })
            }
            O::LLVMAddrSpaceCast | O::LLVMBitCast => v = read::operand(v, 0),
            _ => return None,
        }
    }
    None
}

impl Fx<'_, '_> {
    /// `get_default_queue()` → `OpGetDefaultQueue`.
    pub fn default_queue(&mut self) -> Result<Val> {
        let q = self.f.ty(Type::Queue);
        self.emit_val(Opcode::GetDefaultQueue, q, &[])
    }

    /// `ndrange_ND(sret ptr, [offset,] global [, local])`: `OpBuildNDRange` stored to the
    /// `sret` pointer. 1D sizes are `size_t`; 2D/3D ones are pointers to `size_t` arrays.
    /// `spirv_order`: the operands are in `OpBuildNDRange`'s order (global, local, offset:
    /// SPV-IR's `__spirv_BuildNDRange_ND`) rather than OpenCL C's.
    /// A call that returns the struct (spvkit's own spv-ir) yields the value instead.
    pub fn build_ndrange(
        &mut self,
        dims: u32,
        args: &[LLVMValueRef],
        spirv_order: bool,
        ret: Option<Handle<Type>>,
    ) -> Result<Option<Val>> {
        let by_value =
            ret.filter(|&t| matches!(self.f.module().types.get(t), Some(Type::Struct(_))));
        let (out_v, nd_t, sizes) = match by_value {
            Some(t) => (None, t, args),
            None => {
                let Some((&out, sizes)) = args.split_first() else {
                    return err("ndrange without its result");
                };
                let out_v = self.value(out)?;
                let Some((_, nd_t)) = self.ptr_parts(out_v.ty) else {
                    return err("ndrange result that is not a pointer");
                };
                (Some(out_v), nd_t, sizes)
            }
        };
        if !matches!(self.f.module().types.get(nd_t), Some(Type::Struct(_))) {
            return err("ndrange result that is not an ndrange_t struct");
        }
        let size_t = self.st.size_t(&mut self.f);
        let part_t = if dims == 1 {
            size_t
        } else {
            self.f.type_array(size_t, dims, None)
        };
        let mut vals = Vec::new();
        for &a in sizes {
            let v = self.value(a)?;
            let by_value = matches!(self.f.module().types.get(v.ty), Some(Type::Array { .. }));
            let v = if dims == 1 || by_value {
                v
            } else {
                let p = self.ptr_to(v, part_t)?;
                let r = self.emit(Opcode::Load, Some(part_t), &[p.v.to_id().0])?;
                Val { v: r, ty: part_t }
            };
            vals.push(v.v);
        }
        let zero = if dims == 1 {
            self.const_int_of(size_t, 0)?
        } else {
            Value::Constant(self.f.constant_null(part_t))
        };
        let (global, local, offset) = match vals[..] {
            [g] => (g, zero, zero),
            [g, l] => (g, l, zero),
            [g, l, o] if spirv_order => (g, l, o),
            [o, g, l] => (g, l, o),
            _ => return err("ndrange with an unexpected number of operands"),
        };
        let nd = self.emit_val(Opcode::BuildNDRange, nd_t, &[global, local, offset])?;
        let Some(out_v) = out_v else {
            return Ok(Some(nd));
        };
        let w = [out_v.v.to_id().0, nd.v.to_id().0];
        self.emit(Opcode::Store, None, &w)?;
        Ok(None)
    }

    /// A null or given event list pointer as a generic pointer to device events.
    fn event_pointer(&mut self, a: LLVMValueRef) -> Result<Value> {
        let ev = self.f.ty(Type::DeviceEvent);
        let pt = self.f.type_pointer(StorageClass::Generic, ev);
        if read::value_kind(a) == VK::LLVMConstantPointerNullValueKind {
            return Ok(Value::Constant(self.f.constant_null(pt)));
        }
        let v = self.value(a)?;
        let v = self.coerce(v, pt)?;
        Ok(self.ptr_to(v, ev)?.v)
    }

    /// `__enqueue_kernel_basic[_events](queue, flags, ndrange*, [n, wait*, ret*,] invoke,
    /// block)` → `OpEnqueueKernel`.
    pub fn enqueue_kernel(
        &mut self,
        name: &str,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        if let Some((op, with_nd)) = kernel_query(name) {
            return self.kernel_query(name, op, with_nd, ret, args);
        }
        let events = name.contains("_events");
        let varargs = name.ends_with("_varargs");
        let want = if events { 8 } else { 5 };
        let got = if varargs { want + 2 } else { want };
        if args.len() != got {
            return err(format!("{name} with {} operands, not {got}", args.len()));
        }
        let Some(ret) = ret else {
            return err(format!("{name} without its int result"));
        };
        let queue = self.queue(args[0])?;
        let flags = self.value(args[1])?;
        let nd = self.value(args[2])?;
        let (num, wait, done) = if events {
            (
                self.value(args[3])?.v,
                self.event_pointer(args[4])?,
                self.event_pointer(args[5])?,
            )
        } else {
            let ev = self.f.ty(Type::DeviceEvent);
            let pt = self.f.type_pointer(StorageClass::Generic, ev);
            let null = Value::Constant(self.f.constant_null(pt));
            (self.cu32(0), null, null)
        };
        let blk = self.block_operands(args[want - 2], args[want - 1])?;
        let head = [queue, flags.v, nd.v, num, wait, done];
        let locals = if varargs {
            self.local_sizes(args[want], args[want + 1])?
        } else {
            Vec::new()
        };
        self.enqueue(ret, head, blk, &locals)
    }

    /// The invoke kernel, the block literal as a generic `i8` pointer, and the literal's store
    /// size and preferred alignment.
    fn block_operands(&mut self, invoke: LLVMValueRef, block: LLVMValueRef) -> Result<[Value; 4]> {
        let Some(f) = function_of(invoke) else {
            return err("a block whose invoke function is not known");
        };
        let Some(info) = self.st.funcs.get(&(f as usize)).cloned() else {
            return err(format!(
                "the invoke function @{} is not translated",
                read::name(f)
            ));
        };
        let Some(t) = block_literal_type(block) else {
            return err("a block literal that is neither a local nor a global variable");
        };
        // SAFETY: the module's data layout sizes a type of the module.
        let (size, align) = unsafe {
            let dl = inkwell::llvm_sys::target::LLVMGetModuleDataLayout(self.st.m);
            (
                inkwell::llvm_sys::target::LLVMStoreSizeOfType(dl, t),
                inkwell::llvm_sys::target::LLVMPreferredAlignmentOfType(dl, t),
            )
        };
        let param = self.generic_bytes(block)?;
        Ok([
            Value::Function(info.handle),
            param,
            self.cu32(size as u32),
            self.cu32(align),
        ])
    }

    /// A pointer operand as a generic `i8` pointer.
    fn generic_bytes(&mut self, p: LLVMValueRef) -> Result<Value> {
        let u8t = self.f.type_int(8, false);
        let gp = self.f.type_pointer(StorageClass::Generic, u8t);
        let v = self.value(p)?;
        let v = self.coerce(v, gp)?;
        Ok(self.ptr_to(v, u8t)?.v)
    }

    /// `__get_kernel_*_impl([ndrange*,] invoke, block)` → `OpGetKernelWorkGroupSize`,
    /// `OpGetKernelPreferredWorkGroupSizeMultiple`, `OpGetKernelNDrangeMaxSubGroupSize`,
    /// `OpGetKernelNDrangeSubGroupCount`.
    fn kernel_query(
        &mut self,
        name: &str,
        op: Opcode,
        with_nd: bool,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let want = if with_nd { 3 } else { 2 };
        if args.len() != want {
            return err(format!("{name} with {} operands, not {want}", args.len()));
        }
        let Some(ret) = ret else {
            return err(format!("{name} without its result"));
        };
        let mut ops = Vec::new();
        if with_nd {
            ops.push(self.value(args[0])?.v);
        }
        ops.extend(self.block_operands(args[want - 2], args[want - 1])?);
        self.emit_val(op, ret, &ops)
    }

    /// `enqueue_marker(queue, n, wait*, ret*)` → `OpEnqueueMarker`.
    pub fn enqueue_marker(
        &mut self,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        let (Some(ret), [q, n, wait, done]) = (ret, args) else {
            return err("enqueue_marker without its four operands and result");
        };
        let queue = self.queue(*q)?;
        let n = self.value(*n)?.v;
        let wait = self.event_pointer(*wait)?;
        let done = self.event_pointer(*done)?;
        self.emit_val(Opcode::EnqueueMarker, ret, &[queue, n, wait, done])
    }

    /// The local-memory sizes of `__enqueue_kernel_*varargs(..., n, size_t* sizes)`: a pointer
    /// to each of the `n` sizes, as llvm-spirv-15 passes them.
    fn local_sizes(&mut self, n: LLVMValueRef, sizes: LLVMValueRef) -> Result<Vec<Value>> {
        let Some(n) = read::const_int(n) else {
            return err("an enqueue with a variable number of local sizes");
        };
        let size_t = self.st.size_t(&mut self.f);
        let p = self.value(sizes)?;
        let p = self.ptr_to(p, size_t)?;
        let mut out = Vec::new();
        for k in 0..n {
            let i = self.cu32(k as u32);
            out.push(self.emit_val(Opcode::PtrAccessChain, p.ty, &[p.v, i])?.v);
        }
        Ok(out)
    }

    /// `OpEnqueueKernel` of the six leading operands, the block operands (invoke, literal,
    /// size, alignment) and the local sizes.
    fn enqueue(
        &mut self,
        ret: Handle<Type>,
        head: [Value; 6],
        blk: [Value; 4],
        locals: &[Value],
    ) -> Result<Val> {
        let mut ops = head.to_vec();
        ops.extend(blk);
        ops.extend_from_slice(locals);
        self.emit_val(Opcode::EnqueueKernel, ret, &ops)
    }

    /// SPV-IR's `__spirv_EnqueueKernel(queue, flags, ndrange*, n, wait*, ret*, invoke, block,
    /// size, align)` → `OpEnqueueKernel`.
    pub fn spirv_enqueue_kernel(
        &mut self,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Val> {
        if args.len() < 10 {
            return err("__spirv_EnqueueKernel without its ten leading operands");
        }
        let Some(ret) = ret else {
            return err("__spirv_EnqueueKernel without its int result");
        };
        let queue = self.queue(args[0])?;
        let flags = self.value(args[1])?.v;
        let nd = self.value(args[2])?.v;
        let num = self.value(args[3])?.v;
        let wait = self.event_pointer(args[4])?;
        let done = self.event_pointer(args[5])?;
        let blk = self.spirv_block_operands(&args[6..10])?;
        let head = [queue, flags, nd, num, wait, done];
        let mut locals = Vec::new();
        for &a in &args[10..] {
            locals.push(self.value(a)?.v);
        }
        self.enqueue(ret, head, blk, &locals)
    }

    /// SPV-IR's block operands: the invoke function, the literal, its size and alignment.
    fn spirv_block_operands(&mut self, args: &[LLVMValueRef]) -> Result<[Value; 4]> {
        let [invoke, block, size, align] = args else {
            return err("a block without its invoke function, literal, size and alignment");
        };
        let Some(f) = function_of(*invoke) else {
            return err("an invoke function that is not a function");
        };
        let Some(info) = self.st.funcs.get(&(f as usize)).cloned() else {
            return err(format!(
                "the invoke function @{} is not translated",
                read::name(f)
            ));
        };
        Ok([
            Value::Function(info.handle),
            self.generic_bytes(*block)?,
            self.value(*size)?.v,
            self.value(*align)?.v,
        ])
    }

    /// SPV-IR's `__spirv_GetKernel*([ndrange*,] invoke, block, size, align)`: the kernel
    /// queries; `None` when `name` is no such call.
    pub fn spirv_kernel_query(
        &mut self,
        name: &str,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        let (op, with_nd) = if name.contains("__spirv_GetKernelWorkGroupSize") {
            (Opcode::GetKernelWorkGroupSize, false)
        } else if name.contains("__spirv_GetKernelPreferredWorkGroupSizeMultiple") {
            (Opcode::GetKernelPreferredWorkGroupSizeMultiple, false)
        } else if name.contains("__spirv_GetKernelNDrangeMaxSubGroupSize") {
            (Opcode::GetKernelNDrangeMaxSubGroupSize, true)
        } else if name.contains("__spirv_GetKernelNDrangeSubGroupCount") {
            (Opcode::GetKernelNDrangeSubGroupCount, true)
        } else {
            return Ok(None);
        };
        let Some(ret) = ret else {
            return err(format!("{name} without its result"));
        };
        let skip = usize::from(with_nd);
        let mut ops = Vec::new();
        if with_nd {
            let Some(&nd) = args.first() else {
                return err(format!("{name} without its ndrange"));
            };
            ops.push(self.value(nd)?.v);
        }
        ops.extend(self.spirv_block_operands(args.get(skip..).unwrap_or(&[]))?);
        Ok(Some(self.emit_val(op, ret, &ops)?))
    }

    /// A queue operand: `get_default_queue()`'s value.
    fn queue(&mut self, a: LLVMValueRef) -> Result<Value> {
        let v = self.value(a)?;
        if Some(&Type::Queue) == self.f.module().types.get(v.ty) {
            return Ok(v.v);
        }
        err("an enqueue on a queue that is not get_default_queue()'s")
    }

    /// `retain_event(e)` / `release_event(e)` → `OpRetainEvent` / `OpReleaseEvent`. With
    /// opaque pointers the event is a `ptr` loaded from a variable; it is loaded again as a
    /// device event.
    pub fn event_call(&mut self, op: Opcode, args: &[LLVMValueRef]) -> Result<()> {
        let Some(&a) = args.first() else {
            return err("an event function without its event");
        };
        let e = self.event(a)?;
        self.emit(op, None, &[e.to_id().0])?;
        Ok(())
    }

    /// An event operand as an `OpTypeDeviceEvent` value: made by `create_user_event`, or
    /// loaded (again, typed) from a variable.
    fn event(&mut self, a: LLVMValueRef) -> Result<Value> {
        let ev = self.f.ty(Type::DeviceEvent);
        let v = self.value(a)?;
        if v.ty == ev {
            return Ok(v.v);
        }
        if read::is_instruction(a) && read::opcode(a) == O::LLVMLoad {
            let p = self.value(read::operand(a, 0))?;
            let p = self.ptr_to(p, ev)?;
            return self.emit(Opcode::Load, Some(ev), &[p.v.to_id().0]);
        }
        err("an event that is neither created nor loaded from a variable")
    }

    /// The other event functions: `create_user_event` → `OpCreateUserEvent`,
    /// `is_valid_event` → `OpIsValidEvent`, `set_user_event_status` → `OpSetUserEventStatus`,
    /// `capture_event_profiling_info` → `OpCaptureEventProfilingInfo`; `None` for other names.
    pub fn event_function(
        &mut self,
        name: &str,
        args: &[LLVMValueRef],
    ) -> Result<Option<Option<Val>>> {
        match name {
            "create_user_event" => {
                let ev = self.f.ty(Type::DeviceEvent);
                Ok(Some(Some(self.emit_val(
                    Opcode::CreateUserEvent,
                    ev,
                    &[],
                )?)))
            }
            "is_valid_event" => {
                let e = self.event(args[0])?;
                let b = self.f.type_bool();
                Ok(Some(Some(self.emit_val(Opcode::IsValidEvent, b, &[e])?)))
            }
            "set_user_event_status" | "capture_event_profiling_info" if args.len() >= 2 => {
                let e = self.event(args[0])?;
                let mut w = vec![e.to_id().0, self.value(args[1])?.v.to_id().0];
                let op = if name == "set_user_event_status" {
                    Opcode::SetUserEventStatus
                } else {
                    let Some(&out) = args.get(2) else {
                        return err("capture_event_profiling_info without its value pointer");
                    };
                    let u8t = self.f.type_int(8, false);
                    let gp = self.f.type_pointer(StorageClass::Generic, u8t);
                    let v = self.value(out)?;
                    let v = self.coerce(v, gp)?;
                    w.push(self.ptr_to(v, u8t)?.v.to_id().0);
                    Opcode::CaptureEventProfilingInfo
                };
                self.emit(op, None, &w)?;
                Ok(Some(None))
            }
            _ => Ok(None),
        }
    }
}
