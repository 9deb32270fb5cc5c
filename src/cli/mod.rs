//! The `spvkit` command line: argument parsing and file handling only; every command is a
//! library call.

#[cfg(feature = "llvm")]
mod heap;
pub mod hlsl;
mod io;
#[cfg(feature = "run")]
mod run;
mod times;

use crate::text::{AssembleOptions, DisassembleOptions};
use clap::{Parser, Subcommand};
use io::{read_input, write_output, Input};
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
        /// needs.
        #[arg(long)]
        update_vce: bool,
    },
    /// Validate a SPIR-V binary: exit 0 when valid, 1 with one line per error.
    Val {
        /// The binary, or `-` for standard input.
        input: String,
        /// The environment to validate for (spirv-val's names, or `level-zero`).
        #[arg(long, default_value_t = crate::target_env::TargetEnv::default().to_string())]
        target_env: String,
    },
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
    /// `-HV`, `-fspv-target-env=`); without `-Fo` the disassembly goes to standard output.
    Hlsl {
        /// The arguments, as hlsl2spirv takes them.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run a GLCompute or Kernel entry point on the CPU as a job file says; print every buffer
    /// as JSON.
    #[cfg(feature = "run")]
    Run(run::RunArgs),
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

/// Runs the command line; the exit code is 0 on success and 1 on any error.
pub fn main() -> ExitCode {
    times::install_from_env();
    let cli = match Cli::try_parse() {
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
            eprintln!("{message}");
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
            let Input { name, bytes } = read_input(&input)?;
            let words = crate::binary::words_from_bytes(&bytes)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
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
            let Input { name, bytes } = read_input(&input)?;
            let words = crate::binary::words_from_bytes(&bytes)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
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
        } => {
            let Input { name, bytes } = read_input(&input)?;
            let words = crate::binary::words_from_bytes(&bytes)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
            let options = crate::opt::OptOptions { update_vce };
            let out = crate::opt::optimize(&words, &options)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
            let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
            write_output(&output, &bytes)
        }
        #[cfg(feature = "run")]
        Command::Run(args) => run::run(args),
        Command::Val { input, target_env } => {
            let Input { name, bytes } = read_input(&input)?;
            let env: crate::target_env::TargetEnv = target_env
                .parse()
                .map_err(|e| format!("error: --target-env: {e}"))?;
            let words = crate::binary::words_from_bytes(&bytes)
                .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
            crate::validate::validate(&words, env).map_err(|errors| {
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

/// `spvkit lower`.
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
    let Input { name, bytes } = read_input(input)?;
    let words = crate::binary::words_from_bytes(&bytes)
        .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?
        .to_vec();
    drop(bytes);
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
