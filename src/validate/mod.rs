//! The validator: checks a module against the rules of the SPIR-V specification and of a
//! target environment, and reports every violation it finds with the instruction (word offset
//! and text) and a stable rule id.
//!
//! It works on the decoded instruction stream, not on the IR, so that layout and id rules can
//! be checked and memory stays a small multiple of the input:
//!
//! 1. `module` indexes the raw words: where each instruction starts, which one defines each
//!    id, and module-level facts (capabilities, extensions, entry points, decorations,
//!    functions). Types and constants are read back from their words on demand (`query`).
//! 2. One streaming pass decodes each instruction once into its typed form and hands it to
//!    each per-instruction rule module; function bodies are collected per function and their
//!    control flow checked when the function ends ([`cfg`]).
//! 3. Module-level rules run last (call graph, interfaces, block layouts, environment rules).
//!
//! A module that does not decode (bad header, word counts, operands) yields a single error.
//!
//! The rules are hand-written: the grammar says which operands an instruction has and what
//! enables it, not how operand types relate, how control flow must be structured or what a
//! client API accepts. Each rule module says what it covers. Rule ids are stable:
//! `core:*` for the SPIR-V specification, `env:*` for what an environment accepts,
//! `vulkan:*` for Vulkan's shader rules and `level-zero:*` for the Level Zero environment.

// Rule modules match on the instruction and then test a condition; folding the test into a
// match guard would let a non-matching instruction fall through to later arms.
#![allow(clippy::collapsible_match)]

mod atomics;
mod block_layout;
mod capabilities;
mod cfg;
mod composites;
mod constants;
mod decorations;
mod functions;
mod ids;
mod images;
mod layout;
mod level_zero;
mod memory;
mod modes;
mod module;
mod operands;
mod query;
mod report;
mod types;
mod vulkan;

use crate::binary::{DecodeError, Decoder};
use crate::grammar::{Ids, Instruction, Opcode};
use crate::target_env::TargetEnv;
use core::fmt;
use module::{Inst, Module};
use report::Sink;

/// A rule violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Word offset of the offending instruction (0 for the header and module-wide errors).
    pub offset: usize,
    /// The instruction's disassembly with raw ids, e.g. `%5 = OpIAdd %1 %3 %4`.
    pub instruction: String,
    /// A stable rule id, e.g. `core:id-defined-before-use` or
    /// `level-zero:kernel-return-type`.
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "word {}: {}: [{}] {}",
            self.offset, self.instruction, self.rule, self.message
        )
    }
}

impl std::error::Error for ValidationError {}

/// Switches that change the verdict, as `spirv-val`'s command-line flags of the same names do.
/// The default is `spirv-val` without flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidateOptions {
    /// `--relax-block-layout`: Vulkan buffer blocks follow the relaxed rules (vectors aligned to
    /// their component and not straddling 16 bytes) in Vulkan 1.0 too.
    pub relax_block_layout: bool,
    /// `--uniform-buffer-standard-layout`: Uniform blocks follow the storage buffer (std430)
    /// rules instead of std140.
    pub uniform_buffer_standard_layout: bool,
    /// `--scalar-block-layout`: Vulkan buffer blocks need only scalar alignment.
    pub scalar_block_layout: bool,
    /// `--skip-block-layout`: no check of Vulkan buffer block offsets and strides (their
    /// presence is still checked).
    pub skip_block_layout: bool,
}

/// Validates a module (native-order words) for an environment. Every rule runs; all the
/// violations found are returned, in module order.
pub fn validate(words: &[u32], env: TargetEnv) -> Result<(), Vec<ValidationError>> {
    validate_with(words, env, &ValidateOptions::default())
}

/// [`validate`] with `spirv-val`'s switches.
pub fn validate_with(
    words: &[u32],
    env: TargetEnv,
    options: &ValidateOptions,
) -> Result<(), Vec<ValidationError>> {
    let m = match Module::index(words) {
        Ok(m) => m,
        Err(e) => return Err(vec![decode_error(words, None, e)]),
    };
    let mut cx = Cx::new(&m, env);
    cx.options = *options;
    let mut dec = match Decoder::new(words) {
        Ok(d) => d,
        Err(e) => return Err(vec![decode_error(words, None, e)]),
    };
    cx.start();
    let mut i = 0u32;
    while let Some(raw) = dec.next_raw() {
        let raw = match raw {
            Ok(r) => r,
            Err(e) => return Err(vec![decode_error(words, None, e)]),
        };
        let typed = match dec.decode(raw) {
            Ok(t) => t,
            Err(e) => return Err(vec![decode_error(words, Some(raw.offset), e)]),
        };
        if (i as usize) >= m.len() {
            break;
        }
        let inst = m.inst(i);
        cx.ext_ids.clear();
        if let Instruction::ExtInst(_) = &typed {
            match dec.decode_ext(raw) {
                Some(Ok(e)) => e.visit_ids(&mut |id| cx.ext_ids.push(id.0)),
                Some(Err(e)) => cx.err(&inst, "core:ext-inst", e.kind.to_string()),
                None => {
                    // A set the grammar does not know: non-semantic sets have id operands.
                    let name = m.import_name(inst.word(2)).unwrap_or("");
                    if name.starts_with("NonSemantic.") {
                        cx.ext_ids.extend_from_slice(inst.rest(4));
                    }
                }
            }
        }
        cx.instruction(&inst, &typed);
        i += 1;
    }
    cx.finish();
    if cx.sink.is_empty() {
        Ok(())
    } else {
        Err(cx.sink.finish(words))
    }
}

/// A decoding failure as the run's only error.
fn decode_error(words: &[u32], inst: Option<usize>, e: DecodeError) -> ValidationError {
    let offset = inst.unwrap_or(e.offset);
    let instruction = if offset < crate::binary::HEADER_WORDS {
        "(header)".to_string()
    } else {
        crate::binary::instruction_texts(words, &[offset])
            .pop()
            .unwrap_or_default()
    };
    ValidationError {
        offset,
        instruction,
        rule: "core:binary",
        message: if inst.is_some() && e.offset != offset {
            format!("word {}: {}", e.offset, e.kind)
        } else {
            e.kind.to_string()
        },
    }
}

/// The state of the streaming pass, shared by the rule modules.
pub(crate) struct Cx<'m> {
    /// The index.
    m: &'m Module<'m>,
    /// The environment.
    env: TargetEnv,
    /// `spirv-val`'s switches.
    options: ValidateOptions,
    /// The errors.
    sink: Sink,
    /// The module declares (or implies) `Shader`.
    shader: bool,
    /// The module declares (or implies) `Kernel`.
    kernel: bool,
    /// The addressing model is `Logical` (or there is no memory model).
    logical: bool,
    /// Where the stream is in the module's logical layout.
    layout: layout::State,
    /// The function being walked, as an index into `m.functions`.
    func: Option<usize>,
    /// The label of the block being walked.
    block: Option<u32>,
    /// Control flow of the function being walked.
    cfg: cfg::State,
    /// Per-function facts for the module-level rules.
    functions: functions::State,
    /// Type uniqueness.
    types: types::State,
    /// Scratch: the ids of the current instruction.
    ids_buf: Vec<u32>,
    /// The id operands of the current `OpExtInst`, per its set's grammar.
    ext_ids: Vec<u32>,
}

impl<'m> Cx<'m> {
    fn new(m: &'m Module<'m>, env: TargetEnv) -> Self {
        use crate::grammar::{AddressingModel, Capability};
        let logical = m
            .memory_models
            .first()
            .is_none_or(|&i| m.inst(i).word(0) == AddressingModel::Logical.value());
        Cx {
            m,
            env,
            options: ValidateOptions::default(),
            sink: Sink::default(),
            shader: m.capabilities.has(Capability::Shader),
            kernel: m.capabilities.has(Capability::Kernel),
            logical,
            layout: layout::State::default(),
            func: None,
            block: None,
            cfg: cfg::State::default(),
            functions: functions::State::default(),
            types: types::State::default(),
            ids_buf: Vec::new(),
            ext_ids: Vec::new(),
        }
    }

    /// Records an error at an instruction.
    fn err(&mut self, inst: &Inst<'_>, rule: &'static str, message: impl Into<String>) {
        self.sink.push(inst.offset, rule, message.into());
    }

    /// Records an error at the header (module-wide problems).
    fn err_module(&mut self, rule: &'static str, message: impl Into<String>) {
        self.sink.push(0, rule, message.into());
    }

    /// Module-level checks that need nothing but the index.
    fn start(&mut self) {
        capabilities::module(self);
        ids::redefinitions(self);
    }

    /// Runs the per-instruction rules.
    fn instruction(&mut self, inst: &Inst<'_>, typed: &Instruction) {
        if let Instruction::Unknown(u) = typed {
            let what = match Opcode::from_u16(u.opcode) {
                Some(op) => format!("{op} has an operand value the grammar does not know"),
                None => format!("opcode {} is not in the grammar", u.opcode),
            };
            self.err(inst, "core:grammar", what);
            return;
        }
        layout::instruction(self, inst, typed);
        let ext_ids = std::mem::take(&mut self.ext_ids);
        ids::instruction(self, inst, typed, &ext_ids);
        self.ext_ids = ext_ids;
        capabilities::instruction(self, inst, typed);
        types::instruction(self, inst, typed);
        constants::instruction(self, inst, typed);
        decorations::instruction(self, inst, typed);
        operands::instruction(self, inst, typed);
        composites::instruction(self, inst, typed);
        memory::instruction(self, inst, typed);
        atomics::instruction(self, inst, typed);
        images::instruction(self, inst, typed);
        functions::instruction(self, inst, typed);
        modes::instruction(self, inst, typed);
        cfg::instruction(self, inst, typed);
        if self.env == TargetEnv::LevelZero {
            level_zero::instruction(self, inst, typed);
        }
        layout::after(self, inst, typed);
    }

    /// Module-level rules.
    fn finish(&mut self) {
        layout::finish(self);
        decorations::finish(self);
        modes::finish(self);
        block_layout::finish(self);
        if self.env.is_vulkan() {
            vulkan::finish(self);
        }
        if self.env == TargetEnv::LevelZero {
            level_zero::finish(self);
        }
    }
}
