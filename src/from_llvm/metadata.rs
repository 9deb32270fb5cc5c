//! Metadata: `!spirv.Source` (or `!opencl.ocl.version`) → OpSource with its file,
//! `!spirv.SourceExtension` and `!opencl.used.extensions` → OpSourceExtension,
//! `!spirv.Extension`, `!spirv.Capability`, `!spirv.MemoryModel`, `!spirv.Generator` (the
//! header's generator word), `!spirv.EntryPoint` (entry-point names), `!spirv.ExecutionMode`
//! (any mode, decoded by the grammar), and the kernel function metadata
//! `reqd_work_group_size`, `work_group_size_hint`, `vec_type_hint` and
//! `intel_reqd_sub_group_size` → execution modes.

use super::error::{err, Result};
use super::module::State;
use super::read;
use crate::binary::{Decode, OperandReader, TypeTracker};
use crate::grammar::{AddressingModel, Capability, ExecutionMode, MemoryModel, SourceLanguage};
use crate::ir::{Builder, Function, Handle, Source};
use inkwell::llvm_sys::prelude::*;

fn ints(v: &[LLVMValueRef]) -> Vec<u64> {
    v.iter()
        .filter_map(|&x| {
            if x.is_null() {
                None
            } else {
                read::const_int(x)
            }
        })
        .collect()
}

/// Module-level metadata.
pub fn module_metadata(st: &mut State, b: &mut Builder) -> Result<()> {
    let m = st.m;
    let mut source = None;
    for node in read::named_metadata(m, "spirv.Source") {
        let v = ints(&node);
        if let [lang, version, ..] = v[..] {
            source = Some((lang as u32, version as u32));
        }
    }
    if source.is_none() {
        if let Some(node) = read::named_metadata(m, "opencl.ocl.version").first() {
            let v = ints(node);
            if let [major, minor, ..] = v[..] {
                // OpSource's OpenCL version is major·100000 + minor·1000 (2.0 → 200000),
                // as llvm-spirv writes it.
                source = Some((3, (major * 100_000 + minor * 1000) as u32));
            }
        }
    }
    if let Some((lang, version)) = source {
        let language = SourceLanguage::from_value(lang).unwrap_or(SourceLanguage::Unknown);
        // `!{i32 lang, i32 version, !{!"file"}}`: the file name in a node of its own.
        let file = read::named_metadata(m, "spirv.Source")
            .first()
            .and_then(|node| node.get(2).copied())
            .and_then(|f| read::md_operands(f).first().copied())
            .and_then(read::md_string)
            .map(|f| b.string(&f));
        b.module_mut().sources.push(Source {
            language,
            version,
            file,
            text: None,
        });
    }
    for kind in ["spirv.SourceExtension", "opencl.used.extensions"] {
        for node in read::named_metadata(m, kind) {
            for s in node.iter().filter_map(|&x| read::md_string(x)) {
                let exts = &mut b.module_mut().source_extensions;
                if !exts.contains(&s) {
                    exts.push(s);
                }
            }
        }
    }
    if let Some(node) = read::named_metadata(m, "spirv.MemoryModel").first() {
        let v = ints(node);
        let models = match v[..] {
            [a, mm] => {
                AddressingModel::from_value(a as u32).zip(MemoryModel::from_value(mm as u32))
            }
            _ => None,
        };
        let Some((addressing, memory)) = models else {
            return err(format!(
                "!spirv.MemoryModel {v:?} is not an addressing and memory model"
            ));
        };
        let module = b.module_mut();
        if addressing != module.addressing_model {
            return err(format!(
                "!spirv.MemoryModel says {addressing:?}, the target triple {:?}",
                module.addressing_model
            ));
        }
        module.memory_model = memory;
    }
    if let Some(node) = read::named_metadata(m, "spirv.Generator").first() {
        // `!{i16 tool, i16 version}`: the header of the module the metadata was made from.
        if let [tool, version] = ints(node)[..] {
            b.module_mut().generator = ((tool as u32 & 0xffff) << 16) | (version as u32 & 0xffff);
        }
    }
    for node in read::named_metadata(m, "spirv.Extension") {
        for s in node.iter().filter_map(|&x| read::md_string(x)) {
            b.extension(&s);
        }
    }
    for node in read::named_metadata(m, "spirv.Capability") {
        for c in ints(&node) {
            if let Some(c) = Capability::from_value(c as u32) {
                b.capability(c);
            }
        }
    }
    Ok(())
}

/// Execution modes of a kernel from its metadata and `!spirv.ExecutionMode`.
pub fn kernel_modes(
    st: &mut State,
    b: &mut Builder,
    f: LLVMValueRef,
    h: Handle<Function>,
) -> Result<()> {
    let cx = st.cx;
    let get =
        |kind: &str| read::function_metadata(cx, f, kind).map(|n| ints(&read::md_operands(n)));
    if let Some(v) = get("reqd_work_group_size") {
        if let [x, y, z] = v[..] {
            b.execution_mode(h, ExecutionMode::LocalSize(x as u32, y as u32, z as u32));
        }
    }
    if let Some(v) = get("work_group_size_hint") {
        if let [x, y, z] = v[..] {
            b.execution_mode(
                h,
                ExecutionMode::LocalSizeHint(x as u32, y as u32, z as u32),
            );
        }
    }
    if let Some(v) = get("intel_reqd_sub_group_size") {
        if let [s] = v[..] {
            b.execution_mode(h, ExecutionMode::SubgroupSize(s as u32));
        }
    }
    if let Some(n) = read::function_metadata(cx, f, "vec_type_hint") {
        let ops = read::md_operands(n);
        if let Some(&t) = ops.first() {
            // SAFETY: the first operand of vec_type_hint is a value (undef of the type).
            let ty = read::type_of(t);
            if let Some(code) = vec_type_hint(ty) {
                b.execution_mode(h, ExecutionMode::VecTypeHint(code));
            }
        }
    }
    // Without `!opencl.enable.FP_CONTRACT` the kernel's plain fmul/fadd may not be fused
    // (LLVM fuses only `contract` operations and fmuladd): ContractionOff, as llvm-spirv adds.
    if read::named_metadata(st.m, "opencl.enable.FP_CONTRACT").is_empty() {
        add_mode(b, h, ExecutionMode::ContractionOff);
    }
    for node in read::named_metadata(st.m, "spirv.ExecutionMode") {
        if node.first().copied() != Some(f) {
            continue;
        }
        // `!{ptr @f, i32 mode, i32 literal...}`: the mode and its literals, decoded as the
        // binary's operand words.
        let words: Vec<u32> = ints(&node[1..]).iter().map(|&x| x as u32).collect();
        let types = TypeTracker::default();
        let mut r = OperandReader::new(&words, 0, u32::MAX, &types);
        let mode = ExecutionMode::decode(&mut r).ok().filter(|_| r.is_empty());
        let Some(mode) = mode else {
            return err(format!(
                "!spirv.ExecutionMode of @{} {words:?} is not an execution mode",
                read::name(f)
            ));
        };
        add_mode(b, h, mode);
    }
    Ok(())
}

/// Adds an execution mode to `h` unless it has it already.
fn add_mode(b: &mut Builder, h: Handle<Function>, mode: ExecutionMode) {
    let dup = b
        .module()
        .execution_modes
        .iter()
        .any(|e| e.function == h && e.mode == mode);
    if !dup {
        b.execution_mode(h, mode);
    }
}

/// The `VecTypeHint` operand: the component type's code in the low 16 bits and the component
/// count in the high 16.
fn vec_type_hint(t: LLVMTypeRef) -> Option<u32> {
    use inkwell::llvm_sys::LLVMTypeKind as K;
    let (e, n) = if read::type_kind(t) == K::LLVMVectorTypeKind {
        (read::element_type(t), read::vector_size(t))
    } else {
        (t, 1)
    };
    let code = match read::type_kind(e) {
        K::LLVMIntegerTypeKind => match read::int_width(e) {
            8 => 0,
            16 => 1,
            32 => 2,
            64 => 3,
            _ => return None,
        },
        K::LLVMHalfTypeKind => 4,
        K::LLVMFloatTypeKind => 5,
        K::LLVMDoubleTypeKind => 6,
        _ => return None,
    };
    Some(code | (n << 16))
}

/// The name `!spirv.EntryPoint` gives the kernel `f` (`!{i32 model, ptr @f, !"name"}`), if
/// any: an entry point's name may differ from its function's.
pub fn entry_point_name(st: &State, f: LLVMValueRef) -> Option<String> {
    read::named_metadata(st.m, "spirv.EntryPoint")
        .into_iter()
        .find(|node| node.get(1).copied() == Some(f))
        .and_then(|node| node.get(2).copied())
        .and_then(read::md_string)
}
