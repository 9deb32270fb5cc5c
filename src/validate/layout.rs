//! Logical layout (SPIR-V 2.4): the order of module sections, the shape of functions
//! (parameters, then blocks that start with a label and end with a terminator), where
//! variables, phis and merge instructions may sit in a block.
//!
//! Hand-written because the grammar has instruction classes but no section order: which
//! instructions a section admits, and which may appear both at module scope and in
//! functions (`OpLine`, `OpUndef`, non-semantic `OpExtInst`), is prose in the specification.
//! The section walk follows `spirv-val`'s so that the same modules are accepted.

use super::module::Inst;
use super::Cx;
use crate::grammar::{Instruction, Opcode};

/// Module sections in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Section {
    /// `OpCapability`.
    #[default]
    Capabilities,
    /// `OpExtension`.
    Extensions,
    /// `OpExtInstImport`.
    ExtInstImports,
    /// `OpMemoryModel`.
    MemoryModel,
    /// `OpSamplerImageAddressingModeNV`.
    SamplerAddressing,
    /// `OpEntryPoint`.
    EntryPoints,
    /// `OpExecutionMode(Id)`.
    ExecutionModes,
    /// `OpString`, `OpSource*`.
    Debug1,
    /// `OpName`, `OpMemberName`.
    Debug2,
    /// `OpModuleProcessed`.
    Debug3,
    /// Decorations.
    Annotations,
    /// Types, constants, global variables.
    Types,
    /// Functions without bodies.
    FunctionDeclarations,
    /// Functions with bodies.
    FunctionDefinitions,
}

const SECTIONS: [Section; 14] = [
    Section::Capabilities,
    Section::Extensions,
    Section::ExtInstImports,
    Section::MemoryModel,
    Section::SamplerAddressing,
    Section::EntryPoints,
    Section::ExecutionModes,
    Section::Debug1,
    Section::Debug2,
    Section::Debug3,
    Section::Annotations,
    Section::Types,
    Section::FunctionDeclarations,
    Section::FunctionDefinitions,
];

/// Where the stream is.
#[derive(Debug, Default)]
pub(super) struct State {
    /// The current section.
    pub section: Section,
    /// Blocks seen in the current function.
    pub blocks: u32,
    /// In the current block, only `OpPhi` (and `OpLine`) seen so far.
    phis_only: bool,
    /// In the current function's first block, only variables (and debug lines) so far.
    vars_only: bool,
    /// A merge instruction that must be followed by a branch: (offset, opcode).
    pending_merge: Option<(usize, Opcode)>,
    /// The memory model instruction was seen.
    memory_model: bool,
    /// The current function has a body.
    has_body: bool,
}

/// Whether `op` belongs in `section` (module scope).
fn in_section(section: Section, op: Opcode) -> bool {
    use Opcode as O;
    match section {
        Section::Capabilities => op == O::Capability,
        Section::Extensions => op == O::Extension,
        Section::ExtInstImports => op == O::ExtInstImport,
        Section::MemoryModel => op == O::MemoryModel,
        Section::SamplerAddressing => op == O::SamplerImageAddressingModeNV,
        Section::EntryPoints => op == O::EntryPoint,
        Section::ExecutionModes => matches!(op, O::ExecutionMode | O::ExecutionModeId),
        Section::Debug1 => matches!(
            op,
            O::SourceContinued | O::Source | O::SourceExtension | O::String
        ),
        Section::Debug2 => matches!(op, O::Name | O::MemberName),
        Section::Debug3 => op == O::ModuleProcessed,
        Section::Annotations => op.is_annotation(),
        Section::Types => {
            op.is_declares_type()
                || op.is_constant_creation()
                || matches!(
                    op,
                    O::TypeForwardPointer
                        | O::Variable
                        | O::Line
                        | O::NoLine
                        | O::Undef
                        | O::ExtInst
                )
        }
        Section::FunctionDeclarations | Section::FunctionDefinitions => {
            !(op.is_declares_type()
                || op.is_constant_creation()
                || matches!(
                    op,
                    O::Capability
                        | O::Extension
                        | O::ExtInstImport
                        | O::MemoryModel
                        | O::EntryPoint
                        | O::ExecutionMode
                        | O::ExecutionModeId
                        | O::SourceContinued
                        | O::Source
                        | O::SourceExtension
                        | O::String
                        | O::Name
                        | O::MemberName
                        | O::ModuleProcessed
                        | O::TypeForwardPointer
                )
                || op.is_annotation())
        }
    }
}

/// What an `OpExtInst` is, by the set it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExtKind {
    /// A debug-info set; `true` for the instructions that belong in function bodies
    /// (`DebugScope`, `DebugDeclare`...).
    DebugInfo(bool),
    /// Another `NonSemantic.*` set.
    NonSemantic,
    /// A semantic set (`GLSL.std.450`, `OpenCL.std`...).
    Semantic,
}

/// Classifies an `OpExtInst` by its set and instruction number.
pub(super) fn ext_kind(cx: &Cx<'_>, inst: &Inst<'_>) -> ExtKind {
    let name = cx.m.import_name(inst.word(2)).unwrap_or("");
    let debug = matches!(
        name,
        "DebugInfo" | "OpenCL.DebugInfo.100" | "NonSemantic.Shader.DebugInfo.100"
    );
    if debug {
        let number = inst.word(3);
        let iname = crate::grammar::tables::EXT_INST_SETS
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.instruction(number))
            .map_or("", |i| i.name);
        let local = matches!(
            iname,
            "DebugScope" | "DebugNoScope" | "DebugDeclare" | "DebugValue"
        ) || (name == "NonSemantic.Shader.DebugInfo.100"
            && matches!(
                iname,
                "DebugLine" | "DebugNoLine" | "DebugFunctionDefinition"
            ));
        ExtKind::DebugInfo(local)
    } else if name.starts_with("NonSemantic.") {
        ExtKind::NonSemantic
    } else {
        ExtKind::Semantic
    }
}

const RULE: &str = "core:layout";

/// Checks an instruction's place and updates the position (function, block).
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, _typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    if let Some((offset, merge)) = cx.layout.pending_merge.take() {
        let ok = match merge {
            Opcode::LoopMerge => matches!(op, Opcode::Branch | Opcode::BranchConditional),
            _ => matches!(op, Opcode::BranchConditional | Opcode::Switch),
        };
        if !ok {
            let msg = match merge {
                Opcode::LoopMerge => {
                    "OpLoopMerge must immediately precede either an OpBranch or \
                     OpBranchConditional instruction; it must be the second-to-last \
                     instruction in its block"
                }
                _ => {
                    "OpSelectionMerge must immediately precede either an \
                     OpBranchConditional or OpSwitch instruction; it must be the \
                     second-to-last instruction in its block"
                }
            };
            cx.sink.push(offset, "core:merge-placement", msg.into());
        }
    }
    if cx.layout.section < Section::FunctionDeclarations {
        module_scoped(cx, inst, op);
    }
    if cx.layout.section >= Section::FunctionDeclarations {
        function_scoped(cx, inst, op);
    }
}

fn module_scoped(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode) {
    if op == Opcode::ExtInst {
        match ext_kind(cx, inst) {
            ExtKind::DebugInfo(true) => {
                cx.err(
                    inst,
                    RULE,
                    "this debug instruction cannot appear outside of a function",
                );
            }
            ExtKind::DebugInfo(false) | ExtKind::NonSemantic => {}
            ExtKind::Semantic => {
                cx.err(
                    inst,
                    RULE,
                    "OpExtInst of a semantic set must be in a function body",
                );
            }
        }
    }
    while !in_section(cx.layout.section, op) {
        let cur = cx.layout.section as usize;
        if SECTIONS[..cur].iter().any(|&s| in_section(s, op)) {
            cx.err(
                inst,
                RULE,
                format!(
                    "{op} is in an invalid layout section (after {:?} instructions)",
                    cx.layout.section
                ),
            );
            return;
        }
        cx.layout.section = SECTIONS[cur + 1];
        match cx.layout.section {
            Section::MemoryModel if op != Opcode::MemoryModel => {
                cx.err(
                    inst,
                    RULE,
                    format!("{op} cannot appear before the memory model instruction"),
                );
                // Go on as if it had been there, to check the rest.
                cx.layout.memory_model = true;
            }
            Section::FunctionDeclarations => return,
            _ => {}
        }
    }
    if op == Opcode::MemoryModel {
        if cx.layout.memory_model {
            cx.err(inst, RULE, "a module has exactly one OpMemoryModel");
        }
        cx.layout.memory_model = true;
    }
}

fn function_scoped(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode) {
    use Opcode as O;
    if cx.layout.section == Section::FunctionDeclarations
        && !in_section(Section::FunctionDeclarations, op)
    {
        cx.layout.section = Section::FunctionDefinitions;
    }
    if !in_section(cx.layout.section, op) {
        cx.err(
            inst,
            RULE,
            format!("{op} cannot appear in a function declaration or body"),
        );
        return;
    }
    let in_function = cx.func.is_some();
    let in_block = cx.block.is_some();
    match op {
        O::Function => {
            if in_function {
                cx.err(inst, RULE, "cannot declare a function in a function body");
                return;
            }
            cx.func =
                cx.m.functions
                    .binary_search_by_key(&inst.index, |f| f.start)
                    .ok();
            cx.layout.blocks = 0;
            cx.layout.has_body = false;
        }
        O::FunctionParameter => {
            if !in_function {
                cx.err(inst, RULE, "function parameters must be in a function body");
            } else if cx.layout.blocks != 0 {
                cx.err(
                    inst,
                    RULE,
                    "function parameters must only appear immediately after OpFunction",
                );
            }
        }
        O::FunctionEnd => {
            if !in_function {
                cx.err(inst, RULE, "OpFunctionEnd must end a function body");
            } else if in_block {
                cx.err(
                    inst,
                    RULE,
                    "OpFunctionEnd cannot appear in a block: the block has no terminator",
                );
            } else if cx.layout.blocks == 0 && cx.layout.section == Section::FunctionDefinitions {
                cx.err(
                    inst,
                    RULE,
                    "function declarations must appear before function definitions",
                );
            }
        }
        O::Line | O::NoLine => {}
        O::Label => {
            if !in_function {
                cx.err(inst, RULE, "labels must be in a function body");
            } else if in_block {
                cx.err(
                    inst,
                    RULE,
                    "a block must end with a terminator before the next label",
                );
            }
            if cx.layout.section == Section::FunctionDeclarations {
                cx.layout.section = Section::FunctionDefinitions;
            }
            cx.layout.blocks += 1;
            cx.layout.has_body = true;
            cx.block = Some(inst.word(0));
            cx.layout.phis_only = true;
            cx.layout.vars_only = cx.layout.blocks == 1;
            return;
        }
        O::ExtInst => match ext_kind(cx, inst) {
            ExtKind::DebugInfo(true) => {
                if !in_function {
                    cx.err(
                        inst,
                        RULE,
                        "this debug instruction must appear in a function body",
                    );
                }
            }
            ExtKind::DebugInfo(false) => {
                if in_function {
                    cx.err(
                        inst,
                        RULE,
                        "debug-info instructions other than scopes, declarations and values \
                         must appear between the types section and the functions",
                    );
                }
            }
            ExtKind::NonSemantic => {
                if in_function && !in_block {
                    cx.err(inst, RULE, "OpExtInst must appear in a block");
                }
            }
            ExtKind::Semantic => {
                if !in_block {
                    cx.err(inst, RULE, "OpExtInst must appear in a block");
                }
            }
        },
        _ => {
            if in_function && cx.layout.blocks == 0 {
                cx.err(inst, RULE, "a function body must begin with a label");
            } else if !in_block {
                cx.err(inst, RULE, format!("{op} must appear in a block"));
            }
        }
    }
    if !in_block {
        return;
    }
    // Placement inside the block.
    match op {
        O::Variable => {
            if !cx.layout.vars_only {
                let msg = if cx.layout.blocks == 1 {
                    "all OpVariable instructions in a function must be the first instructions \
                     in the first block"
                } else {
                    "variables can only be defined in the first block of a function"
                };
                cx.err(inst, "core:variable-placement", msg);
            }
        }
        O::Line | O::NoLine => {}
        O::ExtInst if ext_kind(cx, inst) != ExtKind::Semantic => {}
        _ => cx.layout.vars_only = false,
    }
    match op {
        O::Phi => {
            if cx.layout.blocks == 1 || !cx.layout.phis_only {
                cx.err(
                    inst,
                    "core:phi-placement",
                    "OpPhi must appear within a non-entry block before all non-OpPhi \
                     instructions",
                );
            }
        }
        O::Line | O::NoLine => {}
        _ => cx.layout.phis_only = false,
    }
    if matches!(op, O::LoopMerge | O::SelectionMerge) {
        cx.layout.pending_merge = Some((inst.offset, op));
    }
}

/// Updates the position after the rules have seen the instruction.
pub(super) fn after(cx: &mut Cx<'_>, inst: &Inst<'_>, _typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    if cx.func.is_some() && op.is_block_terminator() {
        cx.block = None;
    }
    if op == Opcode::FunctionEnd {
        cx.func = None;
        cx.block = None;
    }
}

/// Module-wide layout rules.
pub(super) fn finish(cx: &mut Cx<'_>) {
    if let Some((offset, _)) = cx.layout.pending_merge.take() {
        cx.sink.push(
            offset,
            "core:merge-placement",
            "a merge instruction must be followed by a branch".into(),
        );
    }
    if cx.m.memory_models.is_empty() {
        cx.err_module(RULE, "missing the required OpMemoryModel instruction");
    }
    if cx.func.is_some() {
        cx.err_module(RULE, "the last function has no OpFunctionEnd");
    }
}
