//! Which declared functions are builtins: the names of OpenCL C's built-in functions (OpenCL C
//! 3.0, section 6.15, and the `cl_khr_*`/`cl_intel_*` extensions), OpenCL.std's instruction
//! names (from the grammar), and the identifiers the implementation reserves (`__spirv_*`,
//! `__builtin_*`, clang's `__to_global`...). A call of a builtin that spvkit cannot translate is an
//! error even under `--allow-imports`: importing it would link against nothing and compute
//! nothing, silently.

use crate::grammar::tables::EXT_INST_SETS;

/// Prefixes of OpenCL C built-in function families.
const PREFIXES: &[&str] = &[
    "get_",
    "atomic_",
    "atom_",
    "sub_group_",
    "work_group_",
    "intel_",
    "arm_",
    "qcom_",
    "read_image",
    "write_image",
    "convert_",
    "as_",
    "vload",
    "vstore",
    "async_work_group_",
    "wait_group_events",
    "prefetch",
    "enqueue_",
    "ndrange_",
    "reserve_",
    "commit_",
    "work_group_commit_",
    "sub_group_commit_",
    "read_pipe",
    "write_pipe",
    "is_valid_",
    "native_",
    "half_",
    "fast_",
    "isgreater",
    "isless",
    "bitfield_",
    "dot",
    "shuffle",
];

/// OpenCL C built-in functions outside those families (and outside OpenCL.std's names).
const NAMES: &[&str] = &[
    "abs",
    "abs_diff",
    "add_sat",
    "all",
    "any",
    "barrier",
    "bit_reverse",
    "bitselect",
    "capture_event_profiling_info",
    "clamp",
    "clz",
    "create_user_event",
    "cross",
    "ctz",
    "degrees",
    "distance",
    "hadd",
    "isequal",
    "isfinite",
    "isinf",
    "isnan",
    "isnormal",
    "isnotequal",
    "isordered",
    "isunordered",
    "length",
    "mad24",
    "mad_hi",
    "mad_sat",
    "max",
    "mem_fence",
    "min",
    "mix",
    "mul24",
    "mul_hi",
    "normalize",
    "popcount",
    "printf",
    "radians",
    "read_mem_fence",
    "release_event",
    "retain_event",
    "rhadd",
    "rotate",
    "select",
    "set_user_event_status",
    "sign",
    "signbit",
    "smoothstep",
    "step",
    "sub_sat",
    "to_global",
    "to_local",
    "to_private",
    "upsample",
    "write_mem_fence",
];

/// Prefixes of the implementation's own functions: SPIR-V builtins, clang's OpenCL helpers
/// (`__to_global`, `__enqueue_kernel_basic`, `__read_pipe_2`...), and other vendors' device
/// builtins. Other `__` names (`__devicelib_abs`, `__dso_handle`) are library functions a
/// linker provides.
const RESERVED: &[&str] = &[
    "__spirv_",
    "__builtin_",
    "__translate_",
    "__enqueue_",
    "__get_kernel_",
    "__to_",
    "__read_pipe",
    "__write_pipe",
    "__reserve_",
    "__commit_",
    "__work_group_",
    "__sub_group_",
    "__amdil_",
    "__nvvm_",
    "__clc_",
    "llvm.",
];

/// Whether `name` (a demangled, unqualified name, or an unmangled one) is a builtin's.
pub fn is_builtin(name: &str) -> bool {
    RESERVED.iter().any(|p| name.starts_with(p))
        || NAMES.contains(&name)
        || PREFIXES.iter().any(|p| name.starts_with(p))
        || EXT_INST_SETS
            .iter()
            .filter(|s| s.name == "OpenCL.std")
            .any(|s| s.instruction_by_name(name).is_some())
}

#[cfg(test)]
mod tests {
    use super::is_builtin;

    #[test]
    fn builtins_and_user_functions() {
        for b in [
            "fract",
            "get_sub_group_gt_mask",
            "sub_group_rotate",
            "intel_sub_group_shuffle",
            "__spirv_IsNan",
            "__builtin_spirv_ConvertE4M3ToFP16EXT",
            "read_imagef",
            "max",
        ] {
            assert!(is_builtin(b), "{b}");
        }
        for u in ["foo", "f1", "getScope", "xyz", "bar", "helper"] {
            assert!(!is_builtin(u), "{u}");
        }
    }
}
