//! Functions and control flow: parameters (pointer parameters typed by their uses), blocks
//! in reverse post-order (dominators first; unreachable blocks dropped; Kernel modules need no
//! structured control flow), `phi` → block arguments, `alloca` → Function variables,
//! terminators (`br`, `switch`, `ret`, `unreachable`), and the per-function value map.

use super::error::{err, FromLlvmError, Result};
use super::module::{FuncInfo, State, Val};
use super::read;
use crate::binary::{decode_operands, OperandReader, TypeTracker};
use crate::grammar::{Decoration, LiteralNumber, Opcode, StorageClass};
use crate::ir::{Block, Builder, FunctionBuilder, Handle, Successor, Terminator, Type, Value};
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode as O, LLVMTypeKind as K, LLVMValueKind as VK};
use std::collections::HashMap;

/// The translation of one function body.
pub struct Fx<'a, 'b> {
    /// The module state.
    pub st: &'a mut State,
    /// The IR function being built.
    pub f: FunctionBuilder<'b>,
    /// LLVM value → translated value.
    pub vals: HashMap<usize, Val>,
    /// LLVM block → IR block.
    pub blocks: HashMap<usize, Handle<Block>>,
    /// Per LLVM block: its phis and the types of their block arguments.
    pub phis: HashMap<usize, Vec<(LLVMValueRef, Handle<Type>)>>,
    /// The LLVM block being translated.
    pub bb: LLVMBasicBlockRef,
    /// The function's return type.
    pub ret: Handle<Type>,
}

/// The type a pointer value is used as: the first load, store, GEP or atomic through it.
pub fn infer_pointee(v: LLVMValueRef) -> Option<LLVMTypeRef> {
    for u in read::users(v) {
        if !read::is_instruction(u) {
            continue;
        }
        match read::opcode(u) {
            O::LLVMLoad if read::operand(u, 0) == v => return Some(read::type_of(u)),
            O::LLVMStore if read::operand(u, 1) == v => {
                return Some(read::type_of(read::operand(u, 0)))
            }
            // SAFETY: `u` is a GEP.
            O::LLVMGetElementPtr if read::operand(u, 0) == v => {
                return Some(unsafe { llc::LLVMGetGEPSourceElementType(u) })
            }
            O::LLVMAtomicRMW if read::operand(u, 0) == v => {
                return Some(read::type_of(read::operand(u, 1)))
            }
            O::LLVMAtomicCmpXchg if read::operand(u, 0) == v => {
                return Some(read::type_of(read::operand(u, 1)))
            }
            _ => {}
        }
    }
    None
}

/// The opaque object a call of a builtin makes: a queue, a reserve id or a device event.
fn made_object(v: LLVMValueRef) -> Option<Type> {
    if !read::is_instruction(v) || read::opcode(v) != O::LLVMCall {
        return None;
    }
    let callee = read::operand(v, read::num_operands(v).saturating_sub(1));
    let name = read::name(callee);
    let name = super::mangle::demangle(&name).map_or(name, |d| d.name);
    match name.as_str() {
        "get_default_queue" => Some(Type::Queue),
        "create_user_event" => Some(Type::DeviceEvent),
        n if n.ends_with("reserve_read_pipe") || n.ends_with("reserve_write_pipe") => {
            Some(Type::ReserveId)
        }
        _ => None,
    }
}

/// The SPIR-V type of an LLVM value that may be a pointer: pointers get their inferred
/// pointee.
pub fn value_type(st: &mut State, b: &mut Builder, v: LLVMValueRef) -> Result<Handle<Type>> {
    let t = read::type_of(v);
    if read::type_kind(t) == K::LLVMPointerTypeKind {
        if let Some(p) = infer_pointee(v) {
            if read::type_kind(p) != K::LLVMPointerTypeKind {
                let sc = super::types::storage_class(read::address_space(t))?;
                let pt = st.ty(b, p)?;
                return Ok(b.type_pointer(sc, pt));
            }
        }
    }
    st.ty(b, t)
}

/// Translates a defined function.
pub fn function(
    st: &mut State,
    b: &mut Builder,
    f: LLVMValueRef,
) -> Result<Handle<crate::ir::Function>> {
    // SAFETY: `f` is a function; params indexed below the count.
    let params: Vec<LLVMValueRef> = unsafe {
        (0..llc::LLVMCountParams(f))
            .map(|i| llc::LLVMGetParam(f, i))
            .collect()
    };
    // SAFETY: `f` is a function.
    let fn_t = unsafe { llc::LLVMGlobalGetValueType(f) };
    // SAFETY: `fn_t` is a function type.
    let ret = st.ty(b, unsafe { llc::LLVMGetReturnType(fn_t) })?;
    // SAFETY: reading a function's calling convention.
    let is_kernel = unsafe { llc::LLVMGetFunctionCallConv(f) } == 76;
    let (special, pipes) = if is_kernel {
        (
            super::images::kernel_param_types(st, b, f)?,
            super::pipes::kernel_pipe_types(st, b, f),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let mut ptys = Vec::new();
    for (k, &p) in params.iter().enumerate() {
        let lt = read::type_of(p);
        let special_t = special.get(k).copied().flatten();
        let t = match special_t.or(pipes.get(k).copied().flatten()) {
            // A target extension type says itself what it is (and errors name the parameter).
            _ if read::type_kind(lt) == K::LLVMTargetExtTypeKind => {
                st.ty(b, lt).map_err(|mut e| {
                    e.function = Some(read::name(f));
                    e.instruction = Some(read::print(p));
                    e
                })?
            }
            Some(t) => t,
            None => match super::images::param_type_from_calls(st, b, p) {
                Some(t) => t,
                None => value_type(st, b, p)?,
            },
        };
        ptys.push(t);
    }
    let fty = b.type_function(ret, &ptys);
    let name = read::name(f);
    let mut fb = b.function(fty, super::module::function_control(f));
    let handle = fb.handle();
    fb.name_function(handle, &name);
    let mut fx = Fx {
        st,
        f: fb,
        vals: HashMap::new(),
        blocks: HashMap::new(),
        phis: HashMap::new(),
        bb: std::ptr::null_mut(),
        ret,
    };
    for (i, &p) in params.iter().enumerate() {
        fx.vals.insert(
            p as usize,
            Val {
                v: Value::Param(i as u32),
                ty: ptys[i],
            },
        );
        let n = read::name(p);
        if !n.is_empty() {
            fx.f.name(Value::Param(i as u32), &n);
        }
    }
    fx.st.funcs.insert(
        f as usize,
        FuncInfo {
            handle,
            ret,
            params: ptys.clone(),
        },
    );
    // Blocks in reverse post-order.
    let order = rpo(f);
    for (i, &bb) in order.iter().enumerate() {
        let h = if i == 0 {
            fx.f.current_block()
        } else {
            fx.f.block()
        };
        fx.blocks.insert(bb as usize, h);
    }
    for &bb in &order {
        let mut list = Vec::new();
        for i in read::instructions(bb) {
            if read::opcode(i) != O::LLVMPHI {
                break;
            }
            let ty = value_type(fx.st, &mut fx.f, i)?;
            let arg = fx.f.block_arg(fx.blocks[&(bb as usize)], ty);
            let n = read::name(i);
            if !n.is_empty() {
                fx.f.name(arg, &n);
            }
            fx.vals.insert(i as usize, Val { v: arg, ty });
            list.push((i, ty));
        }
        fx.phis.insert(bb as usize, list);
    }
    // Allocas first: OpVariable must open the entry block.
    for &bb in &order {
        for i in read::instructions(bb) {
            if read::opcode(i) == O::LLVMAlloca {
                if bb != order[0] {
                    return Err(fx.error(i, "an alloca outside the entry block has no SPIR-V form"));
                }
                fx.alloca(i).map_err(|e| fx.locate(e, i))?;
            }
        }
    }
    for &bb in &order {
        fx.bb = bb;
        fx.f.switch_to(fx.blocks[&(bb as usize)]);
        for i in read::instructions(bb) {
            match read::opcode(i) {
                O::LLVMPHI | O::LLVMAlloca => continue,
                _ => {}
            }
            fx.instruction(i).map_err(|e| fx.locate(e, i))?;
        }
    }
    Ok(handle)
}

/// The blocks reachable from the entry, in reverse post-order.
fn rpo(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let blocks = read::blocks(f);
    let Some(&entry) = blocks.first() else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut post = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(entry, 0u32)];
    seen.insert(entry as usize);
    while let Some(&mut (bb, ref mut next)) = stack.last_mut() {
        // SAFETY: `bb` is a block of `f`; successors indexed below the count.
        let term = unsafe { llc::LLVMGetBasicBlockTerminator(bb) };
        let n = if term.is_null() {
            0
        } else {
            // SAFETY: `term` is a terminator.
            unsafe { llc::LLVMGetNumSuccessors(term) }
        };
        if *next < n {
            // SAFETY: index below the count.
            let s = unsafe { llc::LLVMGetSuccessor(term, *next) };
            *next += 1;
            if seen.insert(s as usize) {
                stack.push((s, 0));
            }
        } else {
            post.push(bb);
            stack.pop();
        }
    }
    post.reverse();
    post
}

impl Fx<'_, '_> {
    /// An error at instruction `i`.
    pub fn error(&self, i: LLVMValueRef, msg: impl Into<String>) -> FromLlvmError {
        FromLlvmError {
            function: Some(self.st.current.clone()),
            instruction: Some(read::print(i)),
            message: msg.into(),
            cause: None,
        }
    }

    /// Adds the function and instruction to an error that lacks them.
    pub fn locate(&self, mut e: FromLlvmError, i: LLVMValueRef) -> FromLlvmError {
        if e.function.is_none() {
            e.function = Some(self.st.current.clone());
        }
        if e.instruction.is_none() {
            e.instruction = Some(read::print(i));
        }
        e
    }

    /// The type of an LLVM type.
    pub fn ty(&mut self, t: LLVMTypeRef) -> Result<Handle<Type>> {
        self.st.ty(&mut self.f, t)
    }

    /// Appends an instruction given by opcode, result type and operand words (ids as packed
    /// values); returns its result (or an unused value when it has none).
    pub fn emit(
        &mut self,
        op: Opcode,
        ty: Option<Handle<Type>>,
        operands: &[u32],
    ) -> Result<Value> {
        let mut words = Vec::with_capacity(operands.len() + 2);
        if let Some(t) = ty {
            words.push(Value::Type(t).to_id().0);
            words.push(self.f.next_result_id().0);
        }
        words.extend_from_slice(operands);
        let tracker = TypeTracker::new(0);
        let mut r = OperandReader::new(&words, 0, u32::MAX, &tracker);
        let inst = decode_operands(op as u16, &mut r)
            .and_then(|i| r.finish().map(|()| i))
            .map_err(|e| FromLlvmError::new(format!("cannot form {op:?}: {e}")))?;
        let h = self.f.push(inst);
        Ok(Value::Op(h))
    }

    /// Appends an instruction with a result.
    pub fn emit_val(&mut self, op: Opcode, ty: Handle<Type>, operands: &[Value]) -> Result<Val> {
        let words: Vec<u32> = operands.iter().map(|v| v.to_id().0).collect();
        let v = self.emit(op, Some(ty), &words)?;
        Ok(Val { v, ty })
    }

    /// A 32-bit unsigned constant.
    pub fn cu32(&mut self, v: u32) -> Value {
        Value::Constant(self.f.constant_u32(v))
    }

    /// The translated value of an LLVM operand.
    pub fn value(&mut self, v: LLVMValueRef) -> Result<Val> {
        if let Some(x) = self.vals.get(&(v as usize)) {
            return Ok(*x);
        }
        if let Some(x) = self.st.globals.get(&(v as usize)) {
            return Ok(*x);
        }
        if super::constants::is_plain_constant(v) {
            return super::constants::constant(self.st, &mut self.f, v);
        }
        match read::value_kind(v) {
            VK::LLVMConstantExprValueKind => {
                let r = self.operation(v, read::const_opcode(v))?;
                match r {
                    Some(x) => Ok(x),
                    None => err(format!(
                        "constant expression {} has no value",
                        read::print(v)
                    )),
                }
            }
            VK::LLVMFunctionValueKind => err(format!(
                "function pointer @{} has no SPIR-V form",
                read::name(v)
            )),
            _ => err(format!("value {} has no SPIR-V form", read::print(v))),
        }
    }

    /// The storage class and pointee of a pointer-typed value.
    pub fn ptr_parts(&self, t: Handle<Type>) -> Option<(StorageClass, Handle<Type>)> {
        State::pointer_parts(&self.f, t)
    }

    /// `p` as a pointer to `pointee` in its own storage class (an OpBitcast when needed).
    pub fn ptr_to(&mut self, p: Val, pointee: Handle<Type>) -> Result<Val> {
        let Some((sc, cur)) = self.ptr_parts(p.ty) else {
            return err("a pointer operand is not a pointer");
        };
        if cur == pointee {
            return Ok(p);
        }
        let t = self.f.type_pointer(sc, pointee);
        self.emit_val(Opcode::Bitcast, t, &[p.v])
    }

    /// `v` converted to type `want` when both are pointers (bitcast and generic casts).
    pub fn coerce(&mut self, v: Val, want: Handle<Type>) -> Result<Val> {
        if v.ty == want {
            return Ok(v);
        }
        let (Some((sc, _)), Some((wsc, wp))) = (self.ptr_parts(v.ty), self.ptr_parts(want)) else {
            return Ok(v);
        };
        if sc == wsc {
            return self.ptr_to(v, wp);
        }
        if wsc == StorageClass::Generic {
            let p = self.ptr_to(v, wp)?;
            if sc == StorageClass::Input {
                return self.input_to_generic(p, want);
            }
            return self.emit_val(Opcode::PtrCastToGeneric, want, &[p.v]);
        }
        err("a pointer of one storage class is used as another")
    }

    /// A builtin (`Input`) variable as a generic pointer: `OpPtrCastToGeneric` takes only
    /// `Workgroup`, `CrossWorkgroup` and `Function` pointers, so the builtin's value is copied
    /// to a `Function` variable, which is cast. Builtins are read-only: the copy is the value.
    pub fn input_to_generic(&mut self, p: Val, generic: Handle<Type>) -> Result<Val> {
        let Some((_, pointee)) = self.ptr_parts(p.ty) else {
            return err("a generic cast of a non-pointer");
        };
        let local_t = self.f.type_pointer(StorageClass::Function, pointee);
        let local = self.f.entry_variable(local_t);
        let value = self.emit_val(Opcode::Load, pointee, &[p.v])?;
        self.emit(Opcode::Store, None, &[local.to_id().0, value.v.to_id().0])?;
        let local = Val {
            v: local,
            ty: local_t,
        };
        self.emit_val(Opcode::PtrCastToGeneric, generic, &[local.v])
    }

    fn alloca(&mut self, i: LLVMValueRef) -> Result<()> {
        // SAFETY: `i` is an alloca.
        let t = unsafe { llc::LLVMGetAllocatedType(i) };
        let count = read::operand(i, 0);
        if read::const_int(count) != Some(1) {
            return err("an alloca of a dynamic count has no SPIR-V form");
        }
        let space = read::address_space(read::type_of(i));
        if space != 0 {
            return err("an alloca outside address space 0 has no SPIR-V form");
        }
        let pointee = match self.opaque_stored_type(i) {
            Some(opaque) => opaque,
            None => self.ty(t)?,
        };
        let pt = self.f.type_pointer(StorageClass::Function, pointee);
        let first_new = self.f.function().ops.len();
        let v = self.f.variable(pt, StorageClass::Function, None);
        // SAFETY: `i` is an alloca.
        let align = unsafe { llc::LLVMGetAlignment(i) };
        if align > 0 {
            self.f.decorate(v, Decoration::Alignment(align));
        }
        self.instruction_decorations(i, v, first_new)?;
        let n = read::name(i);
        if !n.is_empty() {
            self.f.name(v, &n);
        }
        self.vals.insert(i as usize, Val { v, ty: pt });
        Ok(())
    }

    /// The type of the image, sampler, pipe, queue or event an alloca holds, from a store of
    /// an already translated value into it: unoptimized code keeps kernel parameters in
    /// local variables, whose LLVM type (a pointer) does not say which object they hold.
    ///
    /// The value stored is a translated parameter, or a call of a builtin that makes such an
    /// object (`get_default_queue`, a pipe reservation, `create_user_event`); failing that,
    /// the mangled name of a call a load of the variable is passed to says it.
    fn opaque_stored_type(&mut self, alloca: LLVMValueRef) -> Option<Handle<Type>> {
        let users = read::users(alloca);
        for &u in &users {
            if !read::is_instruction(u) {
                continue;
            }
            match read::opcode(u) {
                O::LLVMStore if read::operand(u, 1) == alloca => {
                    let stored = read::operand(u, 0);
                    if let Some(v) = self.vals.get(&(stored as usize)) {
                        let t = v.ty;
                        if self
                            .f
                            .module()
                            .types
                            .get(t)
                            .is_some_and(Type::is_opaque_object)
                        {
                            return Some(t);
                        }
                    } else if let Some(t) = made_object(stored) {
                        return Some(self.f.ty(t));
                    }
                }
                O::LLVMLoad => {
                    let b: &mut crate::ir::Builder = &mut self.f;
                    if let Some(t) = super::images::param_type_from_calls(self.st, b, u) {
                        return Some(t);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The successor of the current block to `target`, with the values for its phis.
    pub fn successor(&mut self, target: LLVMBasicBlockRef) -> Result<Successor> {
        let Some(&block) = self.blocks.get(&(target as usize)) else {
            return err("a branch to an unknown block");
        };
        let phis = self
            .phis
            .get(&(target as usize))
            .cloned()
            .unwrap_or_default();
        let mut args = Vec::new();
        for (phi, ty) in phis {
            // SAFETY: `phi` is a phi; incoming indexed below the count.
            let n = unsafe { llc::LLVMCountIncoming(phi) };
            let mut found = None;
            for k in 0..n {
                // SAFETY: index below the count.
                if unsafe { llc::LLVMGetIncomingBlock(phi, k) } == self.bb {
                    found = Some(unsafe { llc::LLVMGetIncomingValue(phi, k) });
                    break;
                }
            }
            let Some(inc) = found else {
                return err("a phi has no value for a predecessor");
            };
            let v = self.value(inc)?;
            let v = self.coerce(v, ty)?;
            args.push(v.v);
        }
        Ok(Successor { block, args })
    }

    /// Translates a terminator.
    pub fn terminator(&mut self, i: LLVMValueRef, op: O) -> Result<()> {
        let t = match op {
            O::LLVMRet => {
                if read::num_operands(i) == 0 {
                    Terminator::Return
                } else {
                    let v = self.value(read::operand(i, 0))?;
                    let want = self.function_ret();
                    let v = self.coerce(v, want)?;
                    Terminator::ReturnValue(v.v)
                }
            }
            O::LLVMBr => {
                // SAFETY: `i` is a branch.
                if unsafe { llc::LLVMIsConditional(i) } != 0 {
                    // SAFETY: conditional branch: condition and two successors.
                    let (c, t, f) = unsafe {
                        (
                            llc::LLVMGetCondition(i),
                            llc::LLVMGetSuccessor(i, 0),
                            llc::LLVMGetSuccessor(i, 1),
                        )
                    };
                    let c = self.value(c)?;
                    let true_target = self.successor(t)?;
                    let false_target = self.successor(f)?;
                    if true_target.block == false_target.block {
                        // OpBranchConditional may not name one block twice with arguments
                        // that differ; branch when they agree.
                        if true_target.args == false_target.args {
                            Terminator::Branch(true_target)
                        } else {
                            return err(
                                "a conditional branch to one block with different phi values",
                            );
                        }
                    } else {
                        Terminator::BranchConditional {
                            condition: c.v,
                            true_target,
                            false_target,
                            weights: Vec::new(),
                        }
                    }
                } else {
                    // SAFETY: unconditional branch: one successor.
                    let t = unsafe { llc::LLVMGetSuccessor(i, 0) };
                    Terminator::Branch(self.successor(t)?)
                }
            }
            O::LLVMSwitch => {
                let sel = self.value(read::operand(i, 0))?;
                // SAFETY: `i` is a switch.
                let default = self.successor(unsafe { llc::LLVMGetSwitchDefaultDest(i) })?;
                let width = match self.f.module().types.get(sel.ty) {
                    Some(Type::Int { width, .. }) => *width,
                    _ => 32,
                };
                let mut cases = Vec::new();
                let n = read::num_operands(i);
                let mut k = 2;
                while k + 1 < n {
                    let c = read::operand(i, k);
                    let Some(x) = read::const_int(c) else {
                        return err("a switch case is not a constant");
                    };
                    // SAFETY: operand k+1 of a switch is the case's block.
                    let dest = unsafe { llc::LLVMValueAsBasicBlock(read::operand(i, k + 1)) };
                    let lit = if width == 64 {
                        LiteralNumber::DoubleWord(x)
                    } else {
                        LiteralNumber::Word(x as u32)
                    };
                    cases.push((lit, self.successor(dest)?));
                    k += 2;
                }
                Terminator::Switch {
                    selector: sel.v,
                    default,
                    cases,
                }
            }
            O::LLVMUnreachable => Terminator::Unreachable,
            _ => return err("this terminator has no SPIR-V form"),
        };
        self.f.terminate(t);
        Ok(())
    }

    fn function_ret(&self) -> Handle<Type> {
        self.ret
    }
}
