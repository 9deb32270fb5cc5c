//! The SPIR-V assembly text form (spirv-dis / spirv-as compatible).
