//! Lazy bitcode: the module's function bodies are read one at a time as the translation
//! reaches them and freed once translated, so the whole parsed LLVM module (most of the peak
//! memory, ~30× the bitcode) is never held at once. The LLVM C API has neither per-function
//! materialization nor a body drop that keeps metadata, hence the small C++ shim
//! (`lazy.cpp`, compiled by build.rs).

use super::error::{err, Result};
use inkwell::llvm_sys::prelude::*;
use std::ffi::{c_char, c_int, CStr, CString};

extern "C" {
    fn spvkit_lazy_bitcode(
        cx: LLVMContextRef,
        data: *const c_char,
        len: usize,
        name: *const c_char,
        err: *mut *mut c_char,
    ) -> LLVMModuleRef;
    fn spvkit_materialize(f: LLVMValueRef, err: *mut *mut c_char) -> c_int;
    fn spvkit_drop_body(f: LLVMValueRef);
}

/// Takes an LLVM message (null for none), freeing it.
fn take_message(p: *mut c_char) -> String {
    if p.is_null() {
        return "unknown error".into();
    }
    // SAFETY: a nul-terminated message from LLVMCreateMessage, freed once here.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        inkwell::llvm_sys::core::LLVMDisposeMessage(p);
        s
    }
}

/// Reads bitcode lazily into `cx`: globals, declarations and metadata now, function bodies
/// on [`materialize`]. The module reads `bytes` in place.
///
/// # Safety
/// `bytes` must outlive the module.
pub unsafe fn parse_bitcode(cx: LLVMContextRef, bytes: &[u8], name: &str) -> Result<LLVMModuleRef> {
    let name = CString::new(name.replace('\0', "")).unwrap_or_default();
    let mut msg = std::ptr::null_mut();
    // SAFETY: `bytes` is valid for its length (and outlives the module, as the caller
    // promises); `name` is nul-terminated.
    let m = unsafe {
        spvkit_lazy_bitcode(
            cx,
            bytes.as_ptr() as *const c_char,
            bytes.len(),
            name.as_ptr(),
            &mut msg,
        )
    };
    if m.is_null() {
        return err(format!("cannot read LLVM module: {}", take_message(msg)));
    }
    Ok(m)
}

/// Reads a function's body (nothing for a function whose body is already read).
pub fn materialize(f: LLVMValueRef) -> Result<()> {
    let mut msg = std::ptr::null_mut();
    // SAFETY: `f` is a function of a live module.
    if unsafe { spvkit_materialize(f, &mut msg) } != 0 {
        return err(format!("cannot read LLVM function: {}", take_message(msg)));
    }
    Ok(())
}

/// Frees a translated function's body; its signature, linkage and metadata stay.
///
/// # Safety
/// Nothing may still refer to the body's blocks or instructions (the translation's value maps
/// of the function must be gone).
pub unsafe fn drop_body(f: LLVMValueRef) {
    spvkit_drop_body(f)
}
