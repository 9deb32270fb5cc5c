//! Reading the LLVM module: parsing text or bitcode with LLVM 19, and thin safe wrappers over
//! the LLVM C API for walking functions, blocks, instructions, types and metadata.

use super::error::{err, Result};
use inkwell::context::Context;
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use std::ffi::{CStr, CString};

/// Parses LLVM IR text or bitcode (told apart by the bitcode magic) into `cx`. Bitcode is
/// read lazily: function bodies come on [`super::lazy::materialize`].
pub fn parse<'c>(cx: &'c Context, bytes: &'c [u8], name: &str) -> Result<Module<'c>> {
    let is_bitcode =
        bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]);
    if is_bitcode {
        // SAFETY: `bytes` outlives the module, which cannot outlive `'c`.
        let m = unsafe { super::lazy::parse_bitcode(cx.raw(), bytes, name)? };
        // SAFETY: a fresh module of `cx`, owned by the returned wrapper alone.
        return Ok(unsafe { Module::new(m) });
    }
    let buf = MemoryBuffer::create_from_memory_range_copy(bytes, name);
    let m = cx.create_module_from_ir(buf).map_err(|e| e.to_string());
    match m {
        Ok(m) => Ok(m),
        Err(e) => err(format!("cannot read LLVM module: {e}")),
    }
}

/// The name of a value ("" when unnamed).
pub fn name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: `v` is a live value of the module being read; LLVM returns a pointer to its
    // name of `len` bytes (not necessarily nul-terminated).
    unsafe {
        let p = llc::LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// The value as LLVM prints it.
pub fn print(v: LLVMValueRef) -> String {
    // SAFETY: a live value; the returned string is owned by us and disposed.
    unsafe {
        let p = llc::LLVMPrintValueToString(v);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        llc::LLVMDisposeMessage(p);
        s
    }
}

/// The type as LLVM prints it.
pub fn print_type(t: LLVMTypeRef) -> String {
    // SAFETY: a live type; the returned string is owned by us and disposed.
    unsafe {
        let p = llc::LLVMPrintTypeToString(t);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        llc::LLVMDisposeMessage(p);
        s
    }
}

macro_rules! iter_fn {
    ($(#[$m:meta])* $name:ident, $parent:ty, $child:ty, $first:ident, $next:ident) => {
        $(#[$m])*
        pub fn $name(p: $parent) -> Vec<$child> {
            let mut out = Vec::new();
            // SAFETY: walking a live module's intrusive lists with LLVM's own accessors.
            unsafe {
                let mut c = llc::$first(p);
                while !c.is_null() {
                    out.push(c);
                    c = llc::$next(c);
                }
            }
            out
        }
    };
}

iter_fn!(
    /// The functions of a module.
    functions, LLVMModuleRef, LLVMValueRef, LLVMGetFirstFunction, LLVMGetNextFunction
);
iter_fn!(
    /// The global variables of a module.
    globals, LLVMModuleRef, LLVMValueRef, LLVMGetFirstGlobal, LLVMGetNextGlobal
);
iter_fn!(
    /// The blocks of a function.
    blocks, LLVMValueRef, LLVMBasicBlockRef, LLVMGetFirstBasicBlock, LLVMGetNextBasicBlock
);
/// Whether `f` is a declaration: no body, and none to read (a lazily read function whose
/// body is still in the bitcode is not one, though [`blocks`] of it is empty until it is read).
pub fn is_declaration(f: LLVMValueRef) -> bool {
    // SAFETY: `f` is a function.
    unsafe { llc::LLVMIsDeclaration(f) != 0 }
}

iter_fn!(
    /// The instructions of a block.
    instructions, LLVMBasicBlockRef, LLVMValueRef, LLVMGetFirstInstruction, LLVMGetNextInstruction
);

/// The users of a value.
pub fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: walking a live value's use list.
    unsafe {
        let mut u = llc::LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(llc::LLVMGetUser(u));
            u = llc::LLVMGetNextUse(u);
        }
    }
    out
}

/// Operand `i` of a user.
pub fn operand(v: LLVMValueRef, i: u32) -> LLVMValueRef {
    // SAFETY: callers index below `num_operands`.
    unsafe { llc::LLVMGetOperand(v, i) }
}

/// The number of operands of a user.
pub fn num_operands(v: LLVMValueRef) -> u32 {
    // SAFETY: a live user.
    unsafe { llc::LLVMGetNumOperands(v).max(0) as u32 }
}

/// The type of a value.
pub fn type_of(v: LLVMValueRef) -> LLVMTypeRef {
    // SAFETY: a live value.
    unsafe { llc::LLVMTypeOf(v) }
}

/// The kind of a type.
pub fn type_kind(t: LLVMTypeRef) -> LLVMTypeKind {
    // SAFETY: a live type.
    unsafe { llc::LLVMGetTypeKind(t) }
}

/// The kind of a value.
pub fn value_kind(v: LLVMValueRef) -> LLVMValueKind {
    // SAFETY: a live value.
    unsafe { llc::LLVMGetValueKind(v) }
}

/// The opcode of an instruction.
pub fn opcode(v: LLVMValueRef) -> LLVMOpcode {
    // SAFETY: callers pass instructions.
    unsafe { llc::LLVMGetInstructionOpcode(v) }
}

/// The opcode of a constant expression.
pub fn const_opcode(v: LLVMValueRef) -> LLVMOpcode {
    // SAFETY: callers pass constant expressions.
    unsafe { llc::LLVMGetConstOpcode(v) }
}

/// Whether a value is an instruction.
pub fn is_instruction(v: LLVMValueRef) -> bool {
    value_kind(v) == LLVMValueKind::LLVMInstructionValueKind
}

/// The integer width of an integer type.
pub fn int_width(t: LLVMTypeRef) -> u32 {
    // SAFETY: callers pass integer types.
    unsafe { llc::LLVMGetIntTypeWidth(t) }
}

/// The element type of a vector or array type.
pub fn element_type(t: LLVMTypeRef) -> LLVMTypeRef {
    // SAFETY: callers pass vector or array types.
    unsafe { llc::LLVMGetElementType(t) }
}

/// The element count of a vector type.
pub fn vector_size(t: LLVMTypeRef) -> u32 {
    // SAFETY: callers pass vector types.
    unsafe { llc::LLVMGetVectorSize(t) }
}

/// The length of an array type.
pub fn array_length(t: LLVMTypeRef) -> u64 {
    // SAFETY: callers pass array types.
    unsafe { llc::LLVMGetArrayLength2(t) }
}

/// The member types of a struct type.
pub fn struct_members(t: LLVMTypeRef) -> Vec<LLVMTypeRef> {
    // SAFETY: callers pass struct types; indices below the count.
    unsafe {
        (0..llc::LLVMCountStructElementTypes(t))
            .map(|i| llc::LLVMStructGetTypeAtIndex(t, i))
            .collect()
    }
}

/// The address space of a pointer type.
pub fn address_space(t: LLVMTypeRef) -> u32 {
    // SAFETY: callers pass pointer types.
    unsafe { llc::LLVMGetPointerAddressSpace(t) }
}

/// A constant integer's value, zero-extended, if `v` is a constant integer.
pub fn const_int(v: LLVMValueRef) -> Option<u64> {
    if value_kind(v) != LLVMValueKind::LLVMConstantIntValueKind {
        return None;
    }
    // SAFETY: `v` is a ConstantInt; values wider than 64 bits are truncated.
    Some(unsafe { llc::LLVMConstIntGetZExtValue(v) })
}

/// A named metadata node's operands, each as the list of its own operands (values).
pub fn named_metadata(m: LLVMModuleRef, name: &str) -> Vec<Vec<LLVMValueRef>> {
    let Ok(c) = CString::new(name) else {
        return Vec::new();
    };
    // SAFETY: reading named metadata of a live module into buffers of the size LLVM reports.
    unsafe {
        let n = llc::LLVMGetNamedMetadataNumOperands(m, c.as_ptr());
        let mut nodes = vec![std::ptr::null_mut(); n as usize];
        llc::LLVMGetNamedMetadataOperands(m, c.as_ptr(), nodes.as_mut_ptr());
        nodes.into_iter().map(md_operands).collect()
    }
}

/// The operands of a metadata node given as a value (null entries for null operands).
pub fn md_operands(node: LLVMValueRef) -> Vec<LLVMValueRef> {
    // SAFETY: `node` is a metadata-as-value of an MDNode; buffer sized as LLVM reports.
    unsafe {
        if llc::LLVMIsAMDNode(node).is_null() {
            return Vec::new();
        }
        let n = llc::LLVMGetMDNodeNumOperands(node);
        let mut ops = vec![std::ptr::null_mut(); n as usize];
        llc::LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
        ops
    }
}

/// The string of a metadata string given as a value.
pub fn md_string(v: LLVMValueRef) -> Option<String> {
    if v.is_null() {
        return None;
    }
    // SAFETY: LLVMGetMDString returns null for values that are not MDStrings.
    unsafe {
        let mut len = 0u32;
        let p = llc::LLVMGetMDString(v, &mut len);
        if p.is_null() {
            return None;
        }
        Some(
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                .into_owned(),
        )
    }
}

/// A function's metadata attachment of kind `kind`, as a value, if present.
pub fn function_metadata(cx: LLVMContextRef, f: LLVMValueRef, kind: &str) -> Option<LLVMValueRef> {
    // SAFETY: reading a live function's metadata attachments; the entries are disposed.
    unsafe {
        let id = llc::LLVMGetMDKindIDInContext(cx, kind.as_ptr() as *const _, kind.len() as u32);
        let mut n = 0usize;
        let entries = llc::LLVMGlobalCopyAllMetadata(f, &mut n);
        let mut found = None;
        for i in 0..n as u32 {
            if llc::LLVMValueMetadataEntriesGetKind(entries, i) == id {
                let md = llc::LLVMValueMetadataEntriesGetMetadata(entries, i);
                found = Some(llc::LLVMMetadataAsValue(cx, md));
            }
        }
        if !entries.is_null() {
            llc::LLVMDisposeValueMetadataEntries(entries);
        }
        found
    }
}

/// The section of a global value, if it has one.
pub fn section(g: LLVMValueRef) -> Option<String> {
    // SAFETY: `g` is a global value; LLVM returns null or a nul-terminated string it owns.
    unsafe {
        let p = llc::LLVMGetSection(g);
        if p.is_null() {
            return None;
        }
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        (!s.is_empty()).then_some(s)
    }
}

/// The name of a target extension type (`spirv.Image`).
pub fn target_ext_name(t: LLVMTypeRef) -> String {
    // SAFETY: `t` is a target extension type; its name is nul-terminated.
    unsafe {
        let p = llc::LLVMGetTargetExtTypeName(t);
        if p.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    }
}

/// The type parameters of a target extension type.
pub fn target_ext_type_params(t: LLVMTypeRef) -> Vec<LLVMTypeRef> {
    // SAFETY: `t` is a target extension type; indices are below the count.
    unsafe {
        (0..llc::LLVMGetTargetExtTypeNumTypeParams(t))
            .map(|i| llc::LLVMGetTargetExtTypeTypeParam(t, i))
            .collect()
    }
}

/// The integer parameters of a target extension type.
pub fn target_ext_int_params(t: LLVMTypeRef) -> Vec<u32> {
    // SAFETY: as `target_ext_type_params`.
    unsafe {
        (0..llc::LLVMGetTargetExtTypeNumIntParams(t))
            .map(|i| llc::LLVMGetTargetExtTypeIntParam(t, i))
            .collect()
    }
}

/// The strings of a function's metadata `kind` (`kernel_arg_type`, `kernel_arg_access_qual`,
/// ...), one per operand (empty where an operand is no string); none without the metadata.
pub fn function_metadata_strings(cx: LLVMContextRef, f: LLVMValueRef, kind: &str) -> Vec<String> {
    function_metadata(cx, f, kind)
        .map(|n| {
            md_operands(n)
                .into_iter()
                .map(|x| md_string(x).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}
