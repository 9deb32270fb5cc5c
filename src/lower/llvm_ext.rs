//! LLVM 19 target extension types (`target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0)`) under
//! inkwell 0.11, which has no variant for them: `BasicTypeEnum::new`, `BasicValueEnum::new`
//! and `AnyTypeEnum::new` panic on `LLVMTargetExtTypeKind`, and with them every inkwell
//! method that wraps a result by its kind (`build_load`, `build_select`, `get_nth_param`,
//! `CallSiteValue::try_as_basic_value`, `PhiValue::as_basic_value`).
//!
//! The spv-ir style needs such types only as opaque handles: declared, passed, returned,
//! stored and loaded. So a target type travels as a `PointerType` and its values as
//! `PointerValue`s wrapping the real references (`PointerType::new` / `PointerValue::new`
//! check nothing but null). inkwell hands the references to the C API untouched, which is
//! right for declarations, calls, allocas and stores; the few operations that wrap results by
//! kind go through the functions here instead: [`type_of`] for `BasicValueEnum::get_type`,
//! [`call`] for `build_call` (which asks the callee for its return type by kind), [`arg`] for
//! `BasicMetadataValueEnum::from`. Code that asks a pointer-specific question
//! (its address space) must not see these types: only the spv-ir style makes them, and only
//! for the opaque SPIR-V types, which nothing takes the address space of.
//!
//! The C API is inkwell's re-export `inkwell::llvm_sys` (llvm-sys 191, as the from-llvm reader
//! uses it): the very crate inkwell links, so no second dependency has to be kept in step.

use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::LLVMTypeKind;
use inkwell::types::{AsTypeRef, BasicTypeEnum, PointerType};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValueEnum, CallSiteValue, FunctionValue, PhiValue,
    PointerValue,
};

/// `target("<name>", types..., ints...)`, carried as a `PointerType` (see the module comment).
pub fn target_type<'ctx>(
    cx: &'ctx Context,
    name: &str,
    types: &[LLVMTypeRef],
    ints: &[u32],
) -> BasicTypeEnum<'ctx> {
    let cname = std::ffi::CString::new(name).unwrap_or_default();
    let mut types = types.to_vec();
    let mut ints = ints.to_vec();
    // SAFETY: the context is live for 'ctx, the name is nul-terminated, and the parameter
    // arrays hold `len` elements each (types from this context).
    unsafe {
        let t = llc::LLVMTargetExtTypeInContext(
            cx.raw(),
            cname.as_ptr(),
            types.as_mut_ptr(),
            types.len() as u32,
            ints.as_mut_ptr(),
            ints.len() as u32,
        );
        PointerType::new(t).into()
    }
}

/// Whether a type reference is a target extension type.
pub fn is_target_type(t: impl AsTypeRef) -> bool {
    // SAFETY: a valid type reference.
    unsafe { llc::LLVMGetTypeKind(t.as_type_ref()) == LLVMTypeKind::LLVMTargetExtTypeKind }
}

/// A value reference as a `BasicValueEnum`, target-typed values as `PointerValue`s.
///
/// # Safety
/// `v` must be a valid value of a first-class, non-void type, owned by a context live for
/// `'ctx`.
pub unsafe fn basic_value<'ctx>(v: LLVMValueRef) -> BasicValueEnum<'ctx> {
    // SAFETY: the caller's contract.
    unsafe {
        if llc::LLVMGetTypeKind(llc::LLVMTypeOf(v)) == LLVMTypeKind::LLVMTargetExtTypeKind {
            PointerValue::new(v).into()
        } else {
            BasicValueEnum::new(v)
        }
    }
}

/// The value a call returns, if it returns one.
pub fn call_result(c: CallSiteValue<'_>) -> Option<BasicValueEnum<'_>> {
    let v = c.as_value_ref();
    // SAFETY: a call instruction; its type is its return type.
    unsafe {
        if llc::LLVMGetTypeKind(llc::LLVMTypeOf(v)) == LLVMTypeKind::LLVMVoidTypeKind {
            None
        } else {
            Some(basic_value(v))
        }
    }
}

/// The `i`-th parameter of a function.
pub fn param(f: FunctionValue<'_>, i: u32) -> Option<BasicValueEnum<'_>> {
    if i >= f.count_params() {
        return None;
    }
    // SAFETY: `i` is in range; parameters have first-class types.
    unsafe { Some(basic_value(llc::LLVMGetParam(f.as_value_ref(), i))) }
}

/// A phi's value.
pub fn phi_value(p: PhiValue<'_>) -> BasicValueEnum<'_> {
    // SAFETY: phis have first-class, non-void types.
    unsafe { basic_value(p.as_value_ref()) }
}

/// `load t, ptr p`.
pub fn load<'ctx>(
    b: &Builder<'ctx>,
    t: BasicTypeEnum<'ctx>,
    p: PointerValue<'ctx>,
    name: &str,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    positioned(b)?;
    let cname = std::ffi::CString::new(name).unwrap_or_default();
    // SAFETY: the builder is positioned, `p` is a pointer and `t` a first-class type of the
    // same context.
    unsafe {
        Ok(basic_value(llc::LLVMBuildLoad2(
            b.as_mut_ptr(),
            t.as_type_ref(),
            p.as_value_ref(),
            cname.as_ptr(),
        )))
    }
}

/// `select c, x, y` (the caller has checked the operands).
pub fn select<'ctx>(
    b: &Builder<'ctx>,
    c: BasicValueEnum<'ctx>,
    x: BasicValueEnum<'ctx>,
    y: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError> {
    positioned(b)?;
    // SAFETY: as `load`; `c` is `i1` or a vector of them, `x` and `y` have one type.
    unsafe {
        Ok(basic_value(llc::LLVMBuildSelect(
            b.as_mut_ptr(),
            c.as_value_ref(),
            x.as_value_ref(),
            y.as_value_ref(),
            c"".as_ptr(),
        )))
    }
}

/// `undef` of any first-class type.
pub fn undef(t: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    // SAFETY: LLVMGetUndef returns a value of the given type.
    unsafe { basic_value(llc::LLVMGetUndef(t.as_type_ref())) }
}

/// `zeroinitializer` (or `null`) of any first-class type; target types take one when their
/// layout allows it (all `spirv.*` types do in LLVM 19).
pub fn null(t: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    // SAFETY: as `undef`.
    unsafe { basic_value(llc::LLVMConstNull(t.as_type_ref())) }
}

/// A type reference as a `BasicTypeEnum`, target types as `PointerType`s.
///
/// # Safety
/// `t` must be a valid first-class, non-void type of a context live for `'ctx`.
unsafe fn basic_type<'ctx>(t: LLVMTypeRef) -> BasicTypeEnum<'ctx> {
    // SAFETY: the caller's contract.
    unsafe {
        if llc::LLVMGetTypeKind(t) == LLVMTypeKind::LLVMTargetExtTypeKind {
            PointerType::new(t).into()
        } else {
            BasicTypeEnum::new(t)
        }
    }
}

/// The type of a value (`BasicValueEnum::get_type` panics on target types).
pub fn type_of(v: BasicValueEnum<'_>) -> BasicTypeEnum<'_> {
    // SAFETY: a basic value has a first-class, non-void type.
    unsafe { basic_type(llc::LLVMTypeOf(v.as_value_ref())) }
}

/// The return type of a function, `None` for `void`.
pub fn return_type(f: FunctionValue<'_>) -> Option<BasicTypeEnum<'_>> {
    // SAFETY: a function's value type is its function type.
    unsafe {
        let r = llc::LLVMGetReturnType(llc::LLVMGlobalGetValueType(f.as_value_ref()));
        if llc::LLVMGetTypeKind(r) == LLVMTypeKind::LLVMVoidTypeKind {
            None
        } else {
            Some(basic_type(r))
        }
    }
}

/// A direct call of `f` (unnamed), for callees of any return type.
pub fn call<'ctx>(
    b: &Builder<'ctx>,
    f: FunctionValue<'ctx>,
    args: &[BasicMetadataValueEnum<'ctx>],
) -> Result<CallSiteValue<'ctx>, BuilderError> {
    positioned(b)?;
    let mut refs: Vec<LLVMValueRef> = args.iter().map(|a| a.as_value_ref()).collect();
    // SAFETY: the builder is positioned and the arguments are values of this context; LLVM's
    // verifier checks their types.
    unsafe {
        Ok(CallSiteValue::new(llc::LLVMBuildCall2(
            b.as_mut_ptr(),
            llc::LLVMGlobalGetValueType(f.as_value_ref()),
            f.as_value_ref(),
            refs.as_mut_ptr(),
            refs.len() as u32,
            c"".as_ptr(),
        )))
    }
}

/// Building through the C API needs an insertion point (inkwell checks it; here it is checked
/// the same way).
fn positioned(b: &Builder<'_>) -> Result<(), BuilderError> {
    match b.get_insert_block() {
        Some(_) => Ok(()),
        None => Err(BuilderError::UnsetPosition),
    }
}

/// A value as a call argument (`BasicMetadataValueEnum::from` wraps by kind; a pointer
/// variant converts as it is).
pub fn arg(v: BasicValueEnum<'_>) -> BasicMetadataValueEnum<'_> {
    match v {
        BasicValueEnum::PointerValue(p) => p.into(),
        v => v.into(),
    }
}
