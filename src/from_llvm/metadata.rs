//! Metadata: `!opencl.ocl.version` → OpSource, `!spirv.Source`/`!spirv.Extension`/
//! `!spirv.Capability`/`!spirv.ExecutionMode` named metadata, and the kernel function
//! metadata `reqd_work_group_size`, `work_group_size_hint`, `vec_type_hint` and
//! `intel_reqd_sub_group_size` → execution modes.

use super::error::Result;
use super::module::State;
use super::read;
use crate::grammar::{Capability, ExecutionMode, SourceLanguage};
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
                source = Some((3, (major * 100 + minor * 10) as u32));
            }
        }
    }
    if let Some((lang, version)) = source {
        let language = match lang {
            3 => SourceLanguage::OpenCL_C,
            4 => SourceLanguage::OpenCL_CPP,
            _ => SourceLanguage::Unknown,
        };
        b.module_mut().sources.push(Source {
            language,
            version,
            file: None,
            text: None,
        });
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
    for node in read::named_metadata(st.m, "spirv.ExecutionMode") {
        if node.first().copied() != Some(f) {
            continue;
        }
        let v = ints(&node[1..]);
        let mode = match v[..] {
            [17, x, y, z] => Some(ExecutionMode::LocalSize(x as u32, y as u32, z as u32)),
            [18, x, y, z] => Some(ExecutionMode::LocalSizeHint(x as u32, y as u32, z as u32)),
            [30, t] => Some(ExecutionMode::VecTypeHint(t as u32)),
            [31] => Some(ExecutionMode::ContractionOff),
            [35, s] => Some(ExecutionMode::SubgroupSize(s as u32)),
            _ => None,
        };
        if let Some(mode) = mode {
            let dup = b
                .module()
                .execution_modes
                .iter()
                .any(|e| e.function == h && e.mode == mode);
            if !dup {
                b.execution_mode(h, mode);
            }
        }
    }
    Ok(())
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
