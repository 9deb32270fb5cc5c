//! The module: attributes (version, capabilities, extensions, addressing and memory model),
//! imports, debug information, and the arenas of types, constants, symbols and functions.

use super::arena::{Arena, Handle, UniqueArena};
use super::constants::{Constant, SpecConstant};
use super::function::Function;
use super::types::Type;
use super::value::Value;
use crate::grammar::ext::ExtInstSet;
use crate::grammar::{
    AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, MemoryModel, OpExtInst,
    SourceLanguage, StorageClass, Version,
};
use std::collections::BTreeMap;

/// A SPIR-V module at the semantic level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The SPIR-V version of the header.
    pub version: Version,
    /// The header's generator word (tool id in the upper half).
    pub generator: u32,
    /// Declared capabilities (`OpCapability`), in order.
    pub capabilities: Vec<Capability>,
    /// Declared extensions (`OpExtension`), in order.
    pub extensions: Vec<String>,
    /// Extended instruction set imports (`OpExtInstImport`).
    pub ext_inst_imports: Arena<ExtInstImport>,
    /// The addressing model (`OpMemoryModel`).
    pub addressing_model: AddressingModel,
    /// The memory model (`OpMemoryModel`).
    pub memory_model: MemoryModel,
    /// Entry points (`OpEntryPoint`), in order.
    pub entry_points: Vec<EntryPoint>,
    /// Execution modes (`OpExecutionMode`, `OpExecutionModeId`), in order.
    pub execution_modes: Vec<ExecutionModeDecl>,
    /// Debug strings (`OpString`), referred to as [`Value::String`].
    pub strings: Arena<String>,
    /// Source descriptions (`OpSource` with its `OpSourceContinued`).
    pub sources: Vec<Source>,
    /// `OpSourceExtension` strings.
    pub source_extensions: Vec<String>,
    /// `OpModuleProcessed` strings.
    pub processes: Vec<String>,
    /// Every type, uniqued.
    pub types: UniqueArena<Type>,
    /// Debug names of types other than structs (struct names are part of the struct type).
    pub type_names: BTreeMap<Handle<Type>, String>,
    /// Decorations of types other than those the type itself records (struct decorations,
    /// array and pointer strides); rare.
    pub type_decorations: BTreeMap<Handle<Type>, Vec<Decoration>>,
    /// Every constant, uniqued.
    pub constants: UniqueArena<Constant>,
    /// Specialization constants.
    pub spec_constants: Arena<SpecConstant>,
    /// Global (module-scope) variables.
    pub globals: Arena<GlobalVariable>,
    /// Module-level extended instructions (debug information, non-semantic instructions), in
    /// order; they may refer to each other and to functions.
    pub ext_insts: Arena<ExtInst>,
    /// Functions, in order.
    pub functions: Arena<Function>,
}

impl Module {
    /// An empty module of `version` with the given models.
    pub fn new(
        version: Version,
        addressing_model: AddressingModel,
        memory_model: MemoryModel,
    ) -> Self {
        Module {
            version,
            generator: 0,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            ext_inst_imports: Arena::new(),
            addressing_model,
            memory_model,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            strings: Arena::new(),
            sources: Vec::new(),
            source_extensions: Vec::new(),
            processes: Vec::new(),
            types: UniqueArena::new(),
            type_names: BTreeMap::new(),
            type_decorations: BTreeMap::new(),
            constants: UniqueArena::new(),
            spec_constants: Arena::new(),
            globals: Arena::new(),
            ext_insts: Arena::new(),
            functions: Arena::new(),
        }
    }

    /// Calls `f` with every value an instruction of this module refers to, in operand order:
    /// its result type and own result included, and the operands of an `OpExtInst` that its
    /// set's grammar types as ids (every operand, for non-semantic sets).
    pub fn visit_values(&self, inst: &crate::grammar::Instruction, mut f: impl FnMut(Value)) {
        use super::operands::ExtOperands;
        use crate::grammar::{Ids, Instruction};
        let mut g = |id: crate::grammar::Id| {
            if let Some(v) = Value::from_id(id) {
                f(v)
            }
        };
        match inst {
            Instruction::ExtInst(op) => {
                g(op.result_type);
                g(op.result_id);
                g(op.set);
                let mode = match Value::from_id(op.set) {
                    Some(Value::ExtInstSet(h)) => self
                        .ext_inst_imports
                        .get(h)
                        .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, op.instruction)),
                    _ => ExtOperands::Unknown,
                };
                mode.visit_ids(&op.operands, &mut g);
            }
            inst => inst.visit_ids(&mut g),
        }
    }

    /// The type of a value, where it has one (`None` for blocks, types, strings, imports,
    /// and local values of a function other than `function`).
    pub fn type_of(&self, function: Option<&Function>, v: Value) -> Option<Handle<Type>> {
        match v {
            Value::Op(h) => function?.ops.get(h)?.result_type(),
            Value::Param(i) => Some(function?.params.get(i as usize)?.ty),
            Value::BlockArg(h) => Some(function?.block_args.get(h)?.ty),
            Value::Constant(h) => Some(self.constants.get(h)?.ty),
            Value::SpecConstant(h) => Some(self.spec_constants.get(h)?.ty),
            Value::Global(h) => Some(self.globals.get(h)?.ty),
            Value::Function(h) => Some(self.functions.get(h)?.ty),
            Value::ExtInst(h) => Value::from_id(self.ext_insts.get(h)?.inst.result_type)?.as_type(),
            Value::Block(_) | Value::Type(_) | Value::String(_) | Value::ExtInstSet(_) => None,
        }
    }
}

/// A source location: an `OpLine` in effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The file name ([`Module::strings`]).
    pub file: Handle<String>,
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
}

/// An extended instruction set import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtInstImport {
    /// The import name (`"GLSL.std.450"`).
    pub name: String,
}

impl ExtInstImport {
    /// The set, if the grammar knows it.
    pub fn set(&self) -> Option<ExtInstSet> {
        ExtInstSet::from_import_name(&self.name)
    }

    /// Whether the set is non-semantic (`NonSemantic.*`): every operand of its instructions is
    /// an id, and its instructions may refer to later ones.
    pub fn is_non_semantic(&self) -> bool {
        self.name.starts_with("NonSemantic.")
    }
}

/// `OpSource` with its continuations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The source language.
    pub language: SourceLanguage,
    /// The language version.
    pub version: u32,
    /// The file name.
    pub file: Option<Handle<String>>,
    /// The source text (with every `OpSourceContinued` appended).
    pub text: Option<String>,
}

/// A global variable (module-scope `OpVariable`): a symbol, used in functions as
/// [`Value::Global`] (its address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVariable {
    /// The debug name.
    pub name: Option<String>,
    /// The variable's (pointer) type.
    pub ty: Handle<Type>,
    /// The storage class.
    pub storage_class: StorageClass,
    /// The initializer: a constant, specialization constant or global.
    pub initializer: Option<Value>,
    /// Decorations (`DescriptorSet`, `Binding`, `BuiltIn`, `Location`, ...), in order.
    pub decorations: Vec<Decoration>,
    /// The source location in effect at its declaration.
    pub loc: Option<Loc>,
}

impl GlobalVariable {
    /// A variable with no initializer, name or decorations.
    pub fn new(ty: Handle<Type>, storage_class: StorageClass) -> Self {
        GlobalVariable {
            name: None,
            ty,
            storage_class,
            initializer: None,
            decorations: Vec::new(),
            loc: None,
        }
    }
}

/// An entry point (`OpEntryPoint`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    /// The execution model.
    pub execution_model: ExecutionModel,
    /// The function.
    pub function: Handle<Function>,
    /// The entry point's name.
    pub name: String,
    /// The interface variables.
    pub interface: Vec<Handle<GlobalVariable>>,
}

/// An execution mode (`OpExecutionMode`, or `OpExecutionModeId` for modes whose operands are
/// ids, packed [`Value`]s here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutionModeDecl {
    /// The entry point function.
    pub function: Handle<Function>,
    /// The mode and its operands.
    pub mode: ExecutionMode,
}

/// A module-level extended instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtInst {
    /// The instruction: `result_type` and `set` packed [`Value`]s, `result_id` the
    /// instruction's own [`Value::ExtInst`], and the operand words that the set's grammar
    /// types as ids packed [`Value`]s (every operand, for non-semantic sets).
    pub inst: OpExtInst,
    /// The debug name.
    pub name: Option<String>,
    /// The source location in effect.
    pub loc: Option<Loc>,
    /// Whether it comes after the functions (non-semantic instructions may, for instance
    /// reflection data that refers to the functions); otherwise it is in the
    /// types-constants-globals section.
    pub after_functions: bool,
}
