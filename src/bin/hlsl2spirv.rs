//! `hlsl2spirv`: HLSL to Vulkan SPIR-V with DXC's flags (see `hlsl2spirv -h`).

fn main() -> std::process::ExitCode {
    spvkit::cli::hlsl::main()
}
