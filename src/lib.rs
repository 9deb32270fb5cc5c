//! spvkit: a grammar-driven SPIR-V toolkit.
//!
//! A build-time generator reads the Khronos SPIR-V grammar and writes the typed ops, enums,
//! availability tables, binary codec and lowering tables; hand-written code adds what a
//! grammar cannot say. Regenerate from a newer grammar with `SPIRV_GRAMMAR_DIR=... cargo
//! build`. The package is `spvkit-toolkit` on the registry (`spvkit` is another crate's name);
//! the library is `spvkit`:
//!
//! ```toml
//! [dependencies]
//! spvkit = { package = "spvkit-toolkit", version = "0.1" }
//! ```
//!
//! # Layers
//!
//! | module | what | feature |
//! |---|---|---|
//! | [`grammar`] | typed ops, enums, availability and descriptor tables, generated | always |
//! | [`binary`] | the binary form: streaming decoder, encoder | always |
//! | [`text`] | assembly text, byte-for-byte as SPIRV-Tools | always |
//! | [`ir`] | semantic IR (uniqued types and constants, block arguments, structured control flow) | always |
//! | [`validate`] | the validator (universal, Vulkan, OpenCL, Level Zero rules) | always |
//! | [`requirements`], [`target_env`] | minimal version, capabilities, extensions; environments | always |
//! | [`opt`] | rewrites through the IR (`--update-vce`) | always |
//! | `lower` | SPIR-V to LLVM 19 IR, direct or SPIR-V-friendly | `llvm` |
//! | `from_llvm` | LLVM IR (OpenCL, SPIR-V-friendly) to SPIR-V | `llvm` |
//! | `run` | JIT execution of compute shaders and kernels on the CPU | `run` |
//! | `hlsl` | HLSL to Vulkan SPIR-V | `hlsl` |
//!
//! # Features
//!
//! | feature | default | adds | needs |
//! |---|---|---|---|
//! | `llvm` | yes | `lower`, `from_llvm` | libLLVM 19 (Debian `llvm-19-dev`) |
//! | `run` | yes | `run` (implies `llvm`) | as `llvm` |
//! | `hlsl` | yes | `hlsl` | nothing |
//! | `cli` | yes | the `spvkit` and `hlsl2spirv` binaries (implies `hlsl`) | nothing |
//!
//! With `default-features = false` the library is the codec, text form, IR, requirements,
//! validator and optimizer, with no LLVM, CLI or JSON dependency.
//!
//! # Quick start
//!
//! The main path: HLSL to SPIR-V, the bytes as typed instructions, the IR, validation,
//! lowering to LLVM and running on the CPU.
//!
//! ```
//! # #[cfg(all(feature = "hlsl", feature = "run"))] {
//! use spvkit::grammar::Instruction;
//! use spvkit::hlsl::{compile_source, Options};
//!
//! // HLSL → SPIR-V words.
//! let hlsl = "RWStructuredBuffer<uint> buf : register(u0);
//!             [numthreads(4, 1, 1)]
//!             void main(uint3 id : SV_DispatchThreadID) { buf[id.x] = buf[id.x] * 2 + 1; }";
//! let compiled = compile_source("double.hlsl", hlsl, &Options::new("main", "cs_6_0".parse()?))?;
//! let words: Vec<u32> = compiled.words;
//!
//! // Words → typed instructions, and back, byte-identical.
//! let (header, insts) = spvkit::binary::decode_module(&words)?;
//! assert!(insts.iter().any(|i| matches!(i, Instruction::EntryPoint(e) if e.name == "main")));
//! assert_eq!(spvkit::binary::encode_module(&header, &insts)?, words);
//!
//! // The IR: uniqued types and constants, functions with block arguments.
//! let module = spvkit::ir::deserialize(&words)?;
//! assert_eq!(module.entry_points.len(), 1);
//!
//! // Validation for an environment.
//! spvkit::validate::validate(&words, "vulkan1.0".parse()?).map_err(|e| format!("{e:?}"))?;
//!
//! // Lowering to LLVM 19 IR (inkwell is re-exported).
//! let cx = spvkit::lower::inkwell::context::Context::create();
//! let lowered = spvkit::lower::lower_binary(&cx, &words, &Default::default())?;
//! assert!(lowered.module.verify().is_ok());
//!
//! // Running the compute shader on the CPU.
//! use spvkit::run::{run_spirv, Job, RunOptions};
//! let job = Job::from_json(
//!     r#"{"dispatch": [1, 1, 1],
//!         "buffers": [{"set": 0, "binding": 0, "layout": ["u32"], "data": [1, 2, 3, 4]}]}"#,
//! )?;
//! let out = run_spirv(&words, &job, &RunOptions::default())?;
//! let bytes = &out.binding(0, 0).unwrap().bytes;
//! let values: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
//! assert_eq!(values, [3, 5, 7, 9]);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The README's examples
//!
//! Each Rust example of the README, as it is there (`tests/readme.rs` checks they match),
//! with hidden lines that make `shader.spv` first.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("spvkit-readme-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # std::env::set_current_dir(&dir)?;
//! # let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
//! #   OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
//! #   %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
//! #   %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! # let words = spvkit::text::assemble(text, &Default::default())?;
//! # std::fs::write("shader.spv", bytemuck::cast_slice::<u32, u8>(&words))?;
//! use spvkit::binary::{decode_module, encode_module, words_from_bytes};
//! use spvkit::grammar::{Instruction, Requires};
//!
//! let bytes = std::fs::read("shader.spv")?;
//! let words = words_from_bytes(&bytes)?;            // either byte order
//! let (header, insts) = decode_module(&words)?;     // typed instructions
//! for inst in &insts {
//!     if let Instruction::TypeInt(t) = inst {
//!         println!("%{} is a {}-bit integer", t.result_id.0, t.width);
//!     }
//!     inst.visit_requirements(&mut |a| { /* versions, capabilities, extensions */ });
//! }
//! let again = encode_module(&header, &insts)?;      // byte-identical
//! # assert_eq!(again, *words);
//! # let words = words.into_owned();
//!
//! let module = spvkit::ir::deserialize(&words)?;   // IrError: word offset and reason
//! println!("{}", spvkit::ir::print(&module));     // also `spvkit ir shader.spv`
//! let words = spvkit::ir::serialize(&module)?;     // logical layout order; runs ir::check
//!
//! let req = spvkit::requirements::module_requirements(&words)?;
//! println!("needs {} {:?} {:?}, ops allow up to {:?}",
//!          req.min_version, req.capabilities, req.extensions, req.max_version);
//! let env: spvkit::target_env::TargetEnv = "vulkan1.1".parse()?;   // or "level-zero"
//! if let Err(errors) = spvkit::validate::validate(&words, env) {
//!     for e in errors { eprintln!("{e}"); }  // word offset, disassembly, rule
//! }
//! # #[cfg(feature = "llvm")] {
//!
//! use spvkit::lower::inkwell::context::Context;
//! let cx = Context::create();
//! let lowered = spvkit::lower::lower_binary(&cx, &words, &spvkit::lower::LowerOptions::default())?;
//! // lowered.module: the LLVM module (it passes the LLVM verifier);
//! // lowered.entries: per entry point, what the runner must provide (slots, blocks, local size...).
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod binary;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "llvm")]
pub mod from_llvm;
pub mod grammar;
#[cfg(feature = "hlsl")]
pub mod hlsl;
pub mod ir;
#[cfg(feature = "llvm")]
pub mod lower;
pub mod opt;
pub mod phase;
pub mod requirements;
#[cfg(feature = "run")]
pub mod run;
pub mod target_env;
pub mod text;
pub mod validate;
