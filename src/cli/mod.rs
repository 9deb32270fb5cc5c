//! The `spvkit` command line: argument parsing and file handling only; every command is a
//! library call.

pub mod dxc_flags;
#[cfg(feature = "llvm")]
mod heap;
pub mod hlsl;
mod io;
#[cfg(feature = "run")]
mod run;
mod times;
mod verify;

use crate::text::{AssembleOptions, DisassembleOptions};
use clap::{CommandFactory, Parser, Subcommand};
use io::{read_binary, read_input, write_output, Input};
use std::process::ExitCode;

/// spvkit: a grammar-driven SPIR-V toolkit.
#[derive(Parser)]
#[command(name = "spvkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Disassemble a SPIR-V binary (output identical to spirv-dis).
    Dis {
        /// The binary, or `-` for standard input.
        input: String,
        /// Where to write the text (default: standard output; `-` too).
        #[arg(short = 'o')]
        output: Option<String>,
        /// Print ids as numbers, not friendly names.
        #[arg(long)]
        raw_id: bool,
        /// Leave out the header comment.
        #[arg(long)]
        no_header: bool,
        /// Do not indent or align instructions.
        #[arg(long)]
        no_indent: bool,
        /// Show each instruction's word offset.
        #[arg(long)]
        offsets: bool,
    },
    /// Assemble SPIR-V text (bytes identical to spirv-as).
    As {
        /// The text, or `-` for standard input.
        input: String,
        /// Where to write the binary (default: `out.spv` as spirv-as; `-` for standard output).
        #[arg(short = 'o')]
        output: Option<String>,
        /// The target environment, which sets the version word (spirv-as's names).
        #[arg(long, default_value_t = AssembleOptions::default().target_env.to_string())]
        target_env: String,
        /// Keep numeric ids (`%12`) as the ids they name.
        #[arg(long)]
        preserve_numeric_ids: bool,
    },
    /// Print a SPIR-V binary as IR (types, constants, symbols, functions with block arguments
    /// and structured constructs).
    Ir {
        /// The binary, or `-` for standard input.
        input: String,
        /// Where to write the text (default: standard output; `-` too).
        #[arg(short = 'o')]
        output: Option<String>,
    },
    /// Rewrite a SPIR-V binary through the IR (a round trip by default).
    Opt {
        /// The binary, or `-` for standard input.
        input: String,
        /// Where to write the binary (`-` for standard output).
        #[arg(short = 'o')]
        output: String,
        /// Set the header version, capabilities and extensions to the minimal set the module
        /// needs (after the passes).
        #[arg(long)]
        update_vce: bool,
        /// `-O`: optimize for speed (spirv-opt's `-O` recipe in the passes spvkit has); runs
        /// where it stands among the pass flags.
        #[arg(short = 'O', long = "optimize", action = clap::ArgAction::Count)]
        optimize: u8,
        /// Make a DXC-style module legal for Vulkan: resources held in locals, parameters,
        /// return values, structs and `static` aliases become direct accesses to their
        /// globals (spirv-opt's `--legalize-hlsl`).
        #[arg(long, action = clap::ArgAction::Count)]
        legalize_hlsl: u8,
        /// `-Os`: optimize for size (spirv-opt's `-Os`).
        #[arg(long = "optimize-size", action = clap::ArgAction::Count)]
        optimize_size: u8,
        /// Pass: Function variables only loaded and stored whole become values, with block
        /// arguments (phis) where paths meet (mem2reg; spirv-opt's `--ssa-rewrite`).
        #[arg(long, action = clap::ArgAction::Count)]
        ssa_rewrite: u8,
        /// Pass: remove the ops whose results nothing uses and that have no other effect, and
        /// unused block arguments (not spirv-opt's `--eliminate-dead-code-aggressive`, which
        /// also removes dead stores and branches).
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_dead_code: u8,
        /// Pass: remove the functions no entry point reaches and nothing exports (spirv-opt's
        /// `--eliminate-dead-functions`).
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_dead_functions: u8,
        /// Pass: remove the module-scope variables nothing refers to, other than an entry
        /// point's interface and exports (spirv-opt's `--eliminate-dead-variables`).
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_dead_variables: u8,
        /// Pass: replace every call of a function with a body by a copy of the body (spirv-opt's
        /// `--inline-entry-points-exhaustive`); functions with a return inside a loop and
        /// `DontInline` ones stay calls.
        #[arg(long, action = clap::ArgAction::Count)]
        inline_entry_points_exhaustive: u8,
        /// Pass: inline the calls of small functions, of functions called once and of
        /// functions that take or return pointers or opaque handles.
        #[arg(long, action = clap::ArgAction::Count)]
        inline: u8,
        /// Pass: fold ops on constants with SPIR-V's exact semantics (undefined results stay)
        /// and replace `x + 0`, `x * 1`, extracts of inserts and constructs... by an operand.
        #[arg(long, action = clap::ArgAction::Count)]
        simplify_instructions: u8,
        /// Pass: a branch or switch on a constant goes only where the constant sends it, and
        /// unreachable blocks go (spirv-opt's `--eliminate-dead-branches`).
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_dead_branches: u8,
        /// Pass: a block reached only from its predecessor's unconditional branch joins it
        /// (spirv-opt's `--merge-blocks`).
        #[arg(long, action = clap::ArgAction::Count)]
        merge_blocks: u8,
        /// Pass: an op computing what a dominating op computed (same opcode, type and
        /// operands; not loads, images or group operations) becomes that op's value
        /// (spirv-opt's `--redundancy-elimination`).
        #[arg(long, action = clap::ArgAction::Count)]
        redundancy_elimination: u8,
        /// Pass: remove the types and constants nothing refers to, with their names and
        /// decorations (spirv-opt's `--eliminate-dead-const`, and types too).
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_dead_types_and_constants: u8,
        /// Pass: a load or store through an access chain with constant indices into a
        /// Function variable becomes a whole load with an extract, or a load, an insert and a
        /// whole store (spirv-opt's `--convert-local-access-chains`).
        #[arg(long, action = clap::ArgAction::Count)]
        convert_local_access_chains: u8,
        /// Pass: a struct or small array local used through constant first indices and whole
        /// loads and stores becomes one variable per member (spirv-opt's
        /// `--scalar-replacement`).
        #[arg(long, action = clap::ArgAction::Count)]
        scalar_replacement: u8,
        /// Pass: a Private variable only one entry point uses (and nothing calls) becomes a
        /// Function variable of it (spirv-opt's `--private-to-local`).
        #[arg(long, action = clap::ArgAction::Count)]
        private_to_local: u8,
        /// Pass: a loop marked `Unroll` (HLSL's `[unroll]`) whose trip count its constants
        /// decide, with no break or return inside, becomes that many copies of its body
        /// (spirv-opt's `--loop-unroll`); other loops stay.
        #[arg(long, action = clap::ArgAction::Count)]
        loop_unroll: u8,
        /// Pass: within a block, a load of a local that an earlier store or load gave a value
        /// is that value, a store of what memory holds goes, and a local nothing reads loses
        /// its stores (spirv-opt's `--eliminate-local-single-block`); only locals whose
        /// address goes nowhere but into loads, stores and access chains.
        #[arg(long, action = clap::ArgAction::Count)]
        eliminate_local_single_block: u8,
        /// Pass: a local array or struct written once, whole, with a copy of memory nothing
        /// else writes is read from that memory instead (spirv-opt's
        /// `--copy-propagate-arrays`).
        #[arg(long, action = clap::ArgAction::Count)]
        copy_propagate_arrays: u8,
        /// Pass: a bound array of descriptors becomes one variable per element at
        /// consecutive bindings; a non-constant index becomes a switch over the elements
        /// (spirv-opt's `--descriptor-scalar-replacement`).
        #[arg(long, action = clap::ArgAction::Count)]
        descriptor_scalar_replacement: u8,
        /// Validate the module after each pass (for debugging passes): the first pass whose
        /// output is invalid is named with the errors.
        #[arg(long)]
        validate_after_each: bool,
        /// The environment `--validate-after-each` validates for (spirv-val's names).
        #[arg(long, default_value_t = crate::target_env::TargetEnv::default().to_string())]
        target_env: String,
        /// Print each pass's time to standard error.
        #[arg(long)]
        print_pass_times: bool,
    },
    /// Validate a SPIR-V binary: exit 0 when valid, 1 with one line per error. Takes
    /// spirv-val's flags; those the validator cannot honour yet are refused, not ignored.
    Val(ValArgs),
    /// Lower a SPIR-V binary to LLVM 19 (text, bitcode, object file or assembly).
    #[cfg(feature = "llvm")]
    Lower {
        /// The binary, or `-` for standard input.
        input: String,
        /// Where to write the output (default: standard output; `-` too).
        #[arg(short = 'o')]
        output: Option<String>,
        /// What to write: ll, bc, obj or asm.
        #[arg(long, default_value = "ll")]
        emit: String,
        /// Optimization level, `-O0` to `-O3`.
        #[arg(short = 'O', default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
        opt: u8,
        /// Specialization-constant overrides, `SpecId=value` (the value's bits, decimal or 0x hex).
        #[arg(long = "spec")]
        spec: Vec<String>,
        /// The output's shape: `direct` (the runner's ABI) or `spv-ir` (SPIR-V-friendly LLVM IR,
        /// the SPIRV-LLVM-Translator convention; Kernel modules).
        #[arg(long, default_value = "direct")]
        style: String,
        /// spv-ir: builtin variables as `__spirv_BuiltIn*` globals rather than calls.
        #[arg(long)]
        builtins_as_globals: bool,
    },
    /// Compile HLSL to SPIR-V with DXC's flags (`-T cs_6_0 -E main -Fo out.spv`, `-D`, `-I`,
    /// `-HV`, `-fspv-target-env=`); without `-Fo` the disassembly goes to standard output;
    /// `spvkit hlsl -help` lists every DXC flag.
    #[command(disable_help_flag = true)]
    Hlsl {
        /// The arguments, as hlsl2spirv takes them.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run a GLCompute or Kernel entry point on the CPU as a job file says; print every buffer
    /// as JSON.
    #[cfg(feature = "run")]
    Run(run::RunArgs),
    /// Print a shell completion script (install: `spvkit completions bash >
    /// ~/.local/share/bash-completion/completions/spvkit`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the man pages: `spvkit.1` and one `spvkit-<command>.1` per command.
    Man {
        /// The directory to write them to (created if missing).
        #[arg(short = 'o', default_value = ".")]
        dir: std::path::PathBuf,
    },
    /// Translate LLVM IR (text or bitcode: SPIR-V-friendly IR, or clang's OpenCL C output) to
    /// a SPIR-V Kernel module.
    #[cfg(feature = "llvm")]
    FromLlvm {
        /// The LLVM module (`.ll` or `.bc`), or `-` for standard input.
        input: String,
        /// Where to write the binary (`-` for standard output).
        #[arg(short = 'o', default_value = "out.spv")]
        output: String,
        /// The target environment, which bounds the SPIR-V version (spirv-val's names).
        #[arg(long, default_value = "opencl2.0")]
        target_env: String,
        /// Import the functions the module only declares and that are no builtins (a
        /// `LinkageAttributes Import` declaration each, for the linker), as
        /// SPIRV-LLVM-Translator does; without it, calling one is an error.
        #[arg(long)]
        allow_imports: bool,
    },
}

/// `spvkit val`'s arguments: spirv-val's flags, so that scripts run unchanged.
#[derive(clap::Args)]
struct ValArgs {
    /// The binary, or `-` for standard input.
    input: String,
    /// The environment to validate for (spirv-val's names, or `level-zero`).
    #[arg(long, default_value_t = crate::target_env::TargetEnv::default().to_string())]
    target_env: String,
    /// Relaxed block layout (vectors aligned to their component) in Vulkan 1.0 too.
    #[arg(long)]
    relax_block_layout: bool,
    /// Uniform blocks follow the storage buffer (std430) layout rules.
    #[arg(long)]
    uniform_buffer_standard_layout: bool,
    /// Buffer blocks need only scalar alignment.
    #[arg(long)]
    scalar_block_layout: bool,
    /// Do not check buffer block offsets and strides.
    #[arg(long)]
    skip_block_layout: bool,
    /// Allow LocalSizeId in Vulkan (spvkit's validator never rejects it, so this changes
    /// nothing).
    #[arg(long)]
    allow_localsizeid: bool,
    /// Not supported yet (refused): the Workgroup scalar block layout.
    #[arg(long)]
    workgroup_scalar_block_layout: bool,
    /// Not supported yet (refused): struct stores between layout-compatible types.
    #[arg(long)]
    relax_struct_store: bool,
    /// Not supported yet (refused): pointers as function and phi operands in Logical.
    #[arg(long)]
    relax_logical_pointer: bool,
    /// Not supported yet (refused): HLSL before legalization.
    #[arg(long)]
    before_hlsl_legalization: bool,
    /// Not supported yet (refused): Offset image operands in Vulkan.
    #[arg(long)]
    allow_offset_texture_operand: bool,
    /// Not supported yet (refused): 32-bit bitwise instructions in Vulkan.
    #[arg(long)]
    allow_vulkan_32_bit_bitwise: bool,
    /// Not supported yet (refused): spirv-val's limits (`--max-struct-members=N`,
    /// `--max-id-bound=N`, ...); the universal limits apply.
    #[arg(long = "max-struct-members", value_name = "N")]
    max_struct_members: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-struct-depth", value_name = "N")]
    max_struct_depth: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-local-variables", value_name = "N")]
    max_local_variables: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-global-variables", value_name = "N")]
    max_global_variables: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-switch-branches", value_name = "N")]
    max_switch_branches: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-function-args", value_name = "N")]
    max_function_args: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-control-flow-nesting-depth", value_name = "N")]
    max_control_flow_nesting_depth: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-access-chain-indexes", value_name = "N")]
    max_access_chain_indexes: Option<String>,
    /// Not supported yet (refused).
    #[arg(long = "max-id-bound", value_name = "N")]
    max_id_bound: Option<String>,
}

impl ValArgs {
    /// The spirv-val flags given that the validator cannot honour yet.
    fn unsupported(&self) -> Vec<&'static str> {
        let flags = [
            (
                self.workgroup_scalar_block_layout,
                "--workgroup-scalar-block-layout",
            ),
            (self.relax_struct_store, "--relax-struct-store"),
            (self.relax_logical_pointer, "--relax-logical-pointer"),
            (self.before_hlsl_legalization, "--before-hlsl-legalization"),
            (
                self.allow_offset_texture_operand,
                "--allow-offset-texture-operand",
            ),
            (
                self.allow_vulkan_32_bit_bitwise,
                "--allow-vulkan-32-bit-bitwise",
            ),
            (self.max_struct_members.is_some(), "--max-struct-members"),
            (self.max_struct_depth.is_some(), "--max-struct-depth"),
            (self.max_local_variables.is_some(), "--max-local-variables"),
            (
                self.max_global_variables.is_some(),
                "--max-global-variables",
            ),
            (self.max_switch_branches.is_some(), "--max-switch-branches"),
            (self.max_function_args.is_some(), "--max-function-args"),
            (
                self.max_control_flow_nesting_depth.is_some(),
                "--max-control-flow-nesting-depth",
            ),
            (
                self.max_access_chain_indexes.is_some(),
                "--max-access-chain-indexes",
            ),
            (self.max_id_bound.is_some(), "--max-id-bound"),
        ];
        flags
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect()
    }
}

/// Runs the command line; the exit code is 0 on success, 1 on any error, and 2 with the help on
/// standard output when there are no arguments.
pub fn main() -> ExitCode {
    times::install_from_env();
    if std::env::args_os().len() <= 1 {
        let mut cmd = Cli::command();
        print!("{}", cmd.render_help());
        return ExitCode::from(2);
    }
    // `-Os` is one flag, as in spirv-opt and compilers; clap reads it as `-O -s`.
    let args = std::env::args().map(|a| {
        if a == "-Os" {
            "--optimize-size".to_string()
        } else {
            a
        }
    });
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // Empty when the message went elsewhere (`hlsl -Fe`).
            if !message.is_empty() {
                eprintln!("{message}");
            }
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Hlsl { args } => hlsl::run(&args),
        #[cfg(feature = "llvm")]
        Command::Lower {
            input,
            output,
            emit,
            opt,
            spec,
            style,
            builtins_as_globals,
        } => {
            let style = match style.as_str() {
                "direct" => crate::lower::LowerStyle::Direct,
                "spv-ir" => crate::lower::LowerStyle::SpvIr,
                s => return Err(format!("error: --style {s}: expected direct or spv-ir")),
            };
            let mut options = crate::lower::LowerOptions {
                style,
                builtins_as_globals,
                ..Default::default()
            };
            parse_specs(&spec, &mut options)?;
            lower(&input, output.as_deref(), &emit, opt, &options)
        }
        #[cfg(feature = "llvm")]
        Command::FromLlvm {
            input,
            output,
            target_env,
            allow_imports,
        } => from_llvm(&input, &output, &target_env, allow_imports),
        Command::Dis {
            input,
            output,
            raw_id,
            no_header,
            no_indent,
            offsets,
        } => {
            let (name, words) = read_binary(&input)?;
            let opts = DisassembleOptions {
                friendly_names: !raw_id,
                header: !no_header,
                indent: !no_indent,
                offsets,
            };
            io::with_output(output.as_deref(), |w| {
                crate::text::disassemble(&words, &opts, &mut &mut *w).map_err(|e| match e {
                    crate::text::DisassembleError::Decode(d) => {
                        format!("{name}: word {}: error: {}", d.offset, d.kind)
                    }
                    other => format!("{name}: error: {other}"),
                })
            })
        }
        Command::As {
            input,
            output,
            target_env,
            preserve_numeric_ids,
        } => {
            let Input { name, bytes } = read_input(&input)?;
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("{name}: error: not UTF-8 text: {e}"))?;
            let target_env = target_env
                .parse()
                .map_err(|e| format!("error: --target-env: {e}"))?;
            let opts = AssembleOptions {
                target_env,
                preserve_numeric_ids,
            };
            let words = crate::text::assemble(&text, &opts)
                .map_err(|e| format!("{name}:{}:{}: error: {}", e.line, e.column, e.message))?;
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            write_output(output.as_deref().unwrap_or("out.spv"), &bytes)
        }
        Command::Ir { input, output } => {
            let (name, words) = read_binary(&input)?;
            let module = crate::ir::deserialize(&words)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
            let text = crate::ir::print(&module);
            io::with_output(output.as_deref(), |w| {
                w.write_all(text.as_bytes())
                    .map_err(|e| format!("error: {e}"))
            })
        }
        Command::Opt {
            input,
            output,
            update_vce,
            optimize,
            optimize_size,
            legalize_hlsl,
            ssa_rewrite,
            eliminate_dead_code,
            eliminate_dead_functions,
            eliminate_dead_variables,
            inline_entry_points_exhaustive,
            inline,
            simplify_instructions,
            eliminate_dead_branches,
            merge_blocks,
            redundancy_elimination,
            eliminate_dead_types_and_constants,
            convert_local_access_chains,
            scalar_replacement,
            private_to_local,
            loop_unroll,
            eliminate_local_single_block,
            copy_propagate_arrays,
            descriptor_scalar_replacement,
            validate_after_each,
            target_env,
            print_pass_times,
        } => {
            use crate::opt::Pass;
            let (name, words) = read_binary(&input)?;
            let ir_error =
                |e: crate::ir::IrError| format!("{name}: word {}: error: {}", e.offset, e.kind);
            let env: crate::target_env::TargetEnv = target_env
                .parse()
                .map_err(|e| format!("error: --target-env: {e}"))?;
            // The passes run in command-line order, as spirv-opt's do (clap counts each flag;
            // the arguments give the order).
            let named = usize::from(ssa_rewrite)
                + usize::from(eliminate_dead_code)
                + usize::from(eliminate_dead_functions)
                + usize::from(eliminate_dead_variables)
                + usize::from(inline_entry_points_exhaustive)
                + usize::from(inline)
                + usize::from(simplify_instructions)
                + usize::from(eliminate_dead_branches)
                + usize::from(merge_blocks)
                + usize::from(redundancy_elimination)
                + usize::from(eliminate_dead_types_and_constants)
                + usize::from(convert_local_access_chains)
                + usize::from(scalar_replacement)
                + usize::from(private_to_local)
                + usize::from(loop_unroll)
                + usize::from(eliminate_local_single_block)
                + usize::from(copy_propagate_arrays)
                + usize::from(descriptor_scalar_replacement);
            let mut passes: Vec<Pass> = Vec::new();
            let mut spelled = 0;
            for a in std::env::args() {
                match a.as_str() {
                    "-O" | "--optimize" => passes.extend_from_slice(crate::opt::PERFORMANCE),
                    "-Os" | "--optimize-size" => passes.extend_from_slice(crate::opt::SIZE),
                    "--legalize-hlsl" => passes.extend_from_slice(crate::opt::LEGALIZE_HLSL),
                    _ => {
                        if let Some(p) = a.strip_prefix("--").and_then(Pass::from_name) {
                            passes.push(p);
                            spelled += 1;
                        }
                    }
                }
            }
            if spelled != named
                || passes.len()
                    != spelled
                        + usize::from(optimize) * crate::opt::PERFORMANCE.len()
                        + usize::from(optimize_size) * crate::opt::SIZE.len()
                        + usize::from(legalize_hlsl) * crate::opt::LEGALIZE_HLSL.len()
            {
                return Err("error: pass flags must be spelled out (--ssa-rewrite ...)".into());
            }
            let mut module = crate::ir::deserialize(&words).map_err(ir_error)?;
            for pass in passes {
                let start = std::time::Instant::now();
                pass.run(&mut module);
                if print_pass_times {
                    eprintln!(
                        "{}: {:.3} ms",
                        pass.name(),
                        start.elapsed().as_secs_f64() * 1e3
                    );
                }
                if validate_after_each {
                    let out = crate::ir::serialize(&module).map_err(ir_error)?;
                    crate::validate::validate(&out, env).map_err(|errors| {
                        let list: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
                        format!(
                            "{name}: error: the output of --{} is invalid:\n{}",
                            pass.name(),
                            list.join("\n")
                        )
                    })?;
                }
            }
            if update_vce {
                crate::opt::update_vce(&mut module).map_err(ir_error)?;
            }
            let out = crate::ir::serialize(&module).map_err(ir_error)?;
            let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
            write_output(&output, &bytes)
        }
        #[cfg(feature = "run")]
        Command::Run(args) => run::run(args),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "spvkit", &mut out);
            write_output("-", &out)
        }
        Command::Man { dir } => man(&dir),
        Command::Val(args) => {
            if let Some(flag) = args.unsupported().first() {
                return Err(format!("error: not supported yet: {flag}"));
            }
            let env: crate::target_env::TargetEnv = args
                .target_env
                .parse()
                .map_err(|e| format!("error: --target-env: {e}"))?;
            let options = crate::validate::ValidateOptions {
                relax_block_layout: args.relax_block_layout,
                uniform_buffer_standard_layout: args.uniform_buffer_standard_layout,
                scalar_block_layout: args.scalar_block_layout,
                skip_block_layout: args.skip_block_layout,
            };
            let (name, words) = read_binary(&args.input)?;
            crate::validate::validate_with(&words, env, &options).map_err(|errors| {
                let mut out = String::new();
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str(&format!("{name}: {e}"));
                }
                out
            })
        }
    }
}

/// `spvkit man`: the top page and one page per command, named as `man spvkit-val` finds them.
fn man(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: error: {e}", dir.display()))?;
    let write = |cmd: clap::Command, file: String| -> Result<(), String> {
        let path = dir.join(file);
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut out)
            .map_err(|e| format!("error: {e}"))?;
        std::fs::write(&path, out).map_err(|e| format!("{}: error: {e}", path.display()))
    };
    let cmd = Cli::command();
    for sub in cmd.get_subcommands() {
        let name = format!("spvkit-{}", sub.get_name());
        write(sub.clone().name(name.clone()), format!("{name}.1"))?;
    }
    write(cmd, "spvkit.1".into())
}

/// `spvkit from-llvm`.
#[cfg(feature = "llvm")]
fn from_llvm(
    input: &str,
    output: &str,
    target_env: &str,
    allow_imports: bool,
) -> Result<(), String> {
    let env: crate::target_env::TargetEnv = target_env
        .parse()
        .map_err(|e| format!("error: --target-env: {e}"))?;
    let t = std::time::Instant::now();
    let Input { name, bytes } = read_input(input)?;
    crate::phase::report("from-llvm", "read", t);
    let opts = crate::from_llvm::FromLlvmOptions {
        allow_imports,
        ..crate::from_llvm::FromLlvmOptions::for_env(env)
    };
    let words = crate::from_llvm::from_llvm(&bytes, &name, &opts)
        .map_err(|e| format!("{name}: error: {e}"))?;
    let t = std::time::Instant::now();
    write_output(output, bytemuck::cast_slice(&words))?;
    crate::phase::report("from-llvm", "write", t);
    Ok(())
}

#[cfg(feature = "llvm")]
fn lower(
    input: &str,
    output: Option<&str>,
    emit: &str,
    opt: u8,
    options: &crate::lower::LowerOptions,
) -> Result<(), String> {
    let kind: crate::lower::Emit = emit.parse().map_err(|e| format!("error: --emit: {e}"))?;
    heap::fixed_mmap_threshold();
    let phase = |name: &str, t: std::time::Instant| crate::phase::report("lower", name, t);
    let t = std::time::Instant::now();
    let (name, words) = read_binary(input)?;
    phase("read", t);
    let t = std::time::Instant::now();
    let (module, offsets) = crate::ir::deserialize_with_offsets(&words)
        .map_err(|e| format!("{name}: error: {}", crate::lower::LowerError::from(e)))?;
    // Only the IR is needed from here on, and each function's ops go once it is lowered.
    drop(words);
    phase("decode", t);
    let t = std::time::Instant::now();
    let cx = inkwell::context::Context::create();
    let lowered = crate::lower::lower_owned(&cx, module, Some(&offsets), options)
        .map_err(|e| format!("{name}: error: {e}"))?;
    drop(offsets);
    heap::trim();
    phase("lower", t);
    let t = std::time::Instant::now();
    crate::lower::optimize(&lowered.module, opt).map_err(|e| format!("{name}: error: {e}"))?;
    phase("optimize", t);
    let t = std::time::Instant::now();
    match output {
        Some(path) if path != "-" => {
            crate::lower::emit_to_file(&lowered.module, kind, std::path::Path::new(path))
                .map_err(|e| format!("{path}: error: {e}"))?
        }
        _ => {
            let out = crate::lower::emit(&lowered.module, kind)
                .map_err(|e| format!("{name}: error: {e}"))?;
            write_output("-", &out)?;
        }
    }
    phase("emit", t);
    Ok(())
}

/// `--spec SpecId=value` overrides into `options`.
#[cfg(feature = "llvm")]
fn parse_specs(spec: &[String], options: &mut crate::lower::LowerOptions) -> Result<(), String> {
    for s in spec {
        let (id, value) = s
            .split_once('=')
            .ok_or_else(|| format!("error: --spec {s}: expected SpecId=value"))?;
        let parse = |t: &str| match t.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16),
            None => t.parse::<i64>().map(|v| v as u64),
        };
        let id: u32 = id.parse().map_err(|e| format!("error: --spec {s}: {e}"))?;
        let value = parse(value).map_err(|e| format!("error: --spec {s}: {e}"))?;
        options.spec_constants.insert(id, value);
    }
    Ok(())
}
