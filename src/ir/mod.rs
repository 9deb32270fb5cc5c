//! The SPIR-V IR: a semantic model of a module, after the design of MLIR's SPIR-V dialect
//! (`spirv-dialect-design.md`), with typed-handle arenas and the generated op structs as
//! payloads.
//!
//! # Shape
//!
//! - [`Module`]: attributes (version, capabilities, extensions, addressing and memory model),
//!   extended instruction set imports, debug information ([`Source`], strings, `OpModuleProcessed`),
//!   entry points and execution modes as module-level items, and arenas of:
//!   - [`Type`]s, uniqued ([`UniqueArena`]): no type-declaration instructions; layout
//!     decorations (`ArrayStride`, `Block`, member `Offset`, ...) are part of the type, so
//!     non-aggregates are unique by structure and structs keep their identity when their names
//!     or decorations differ. Recursive pointer types are ordinary handles;
//!   - [`Constant`]s, uniqued: the one constant kind for scalars, booleans, composites, nulls,
//!     samplers and `OpUndef`, wherever they were declared (function-local `OpUndef`
//!     included);
//!   - symbols: [`SpecConstant`]s and [`GlobalVariable`]s, used by handle;
//!   - module-level [`ExtInst`]s (debug information and non-semantic instructions);
//!   - [`Function`]s.
//! - [`Function`]: isolated. Its [`Block`]s take arguments ([`BlockArg`], from `OpPhi`) and end
//!   in a [`Terminator`] whose [`Successor`]s pass them values; a header block records its
//!   structured construct ([`Structure::Selection`], [`Structure::Loop`], from the merge
//!   instructions). Ops ([`Op`]) carry the generated instruction struct, the result's name
//!   and decorations, and their source location ([`Loc`], from `OpLine`/`OpNoLine`).
//! - Names and decorations are folded into what they name and decorate (decoration groups
//!   expanded).
//!
//! # Operands
//!
//! An operand id maps to a [`Value`]:
//!
//! | binary definition                              | value                       |
//! |------------------------------------------------|-----------------------------|
//! | an instruction of the same function            | [`Value::Op`]`(handle)`     |
//! | `OpFunctionParameter` of the same function     | [`Value::Param`]`(index)`   |
//! | `OpPhi` of the same function                   | [`Value::BlockArg`]`(handle)` |
//! | `OpLabel` of the same function                 | [`Value::Block`]`(handle)`  |
//! | `OpConstant*`, `OpUndef`                       | [`Value::Constant`]`(handle)` |
//! | `OpSpecConstant*` (reference-of)               | [`Value::SpecConstant`]`(handle)` |
//! | module-scope `OpVariable` (address-of)         | [`Value::Global`]`(handle)` |
//! | `OpFunction`                                   | [`Value::Function`]`(handle)` |
//! | `OpType*`                                      | [`Value::Type`]`(handle)`   |
//! | `OpString`                                     | [`Value::String`]`(handle)` |
//! | `OpExtInstImport`                              | [`Value::ExtInstSet`]`(handle)` |
//! | module-level `OpExtInst`                       | [`Value::ExtInst`]`(handle)` |
//!
//! Inside the generated structs a value is stored *packed* in the `Id` field (a kind tag and a
//! handle index, see [`Value::to_id`]); an op's `result_id` holds its own [`Value::Op`]. The
//! generated [`crate::grammar::Ids`] visitor and [`operands::visit_ids_mut`] (which adds the
//! operands of `OpExtInst`, typed by the imported set's grammar) reach every packed value.
//!
//! # Binary form
//!
//! [`deserialize`] and [`serialize`] perform the transformations of the design document in
//! both directions: the header version and capability/extension instructions ↔ attributes;
//! type instructions ↔ uniqued types (`OpTypeForwardPointer` emitted where a pointer is used
//! before its pointee is complete); constants unified ↔ placed in the types-and-constants
//! section; names and decorations folded ↔ re-emitted; merge instructions ↔ structured
//! constructs; `OpPhi` ↔ block arguments; `OpLine`/`OpNoLine` ↔ locations.
//! `deserialize(serialize(m)) == m` for every module `m` that `deserialize` produced.
//!
//! What the binary form has and the IR does not keep: duplicate declarations of equal
//! non-struct types and of equal constants (merged), `OpNop`, decoration groups (expanded),
//! the id numbering and the order of debug and annotation instructions, and an `OpLine` that
//! applies to nothing but types and constants (which have no location of their own).
//! Locations are kept on functions, parameters, block arguments, ops, merges, terminators,
//! global variables, specialization constants and module-level extended instructions.
//!
//! What `deserialize` rejects, with the word offset and a reason: anything the binary decoder
//! rejects; instructions the grammar does not know, and extended instructions of sets it does
//! not know (other than `NonSemantic.*`), since their ids cannot be told from literals; ids
//! used but never defined; structural breakage (a block without a terminator, an `OpPhi`
//! without a value for one of its predecessors, a forward pointer never defined, ...); and what
//! [`check`] would reject (a result type that is not a type, a function whose type is not a
//! function type).
//!
//! # Checking
//!
//! A module built in memory ([`Builder`], struct literals) may hold handles that dangle: a
//! type past the end of the type arena, a [`Value::Op`] that is not an op of its function, a
//! successor that is not a block of the function or passes the wrong number of arguments, an
//! entry point naming a missing function. [`check`] finds the first such one (and a result,
//! variable or function type that is not a type, or not a function type) and names its
//! [`Place`]; [`Builder::finish`], [`serialize`], [`StreamingSerializer`] and the lowering run
//! it, so such a module is an error rather than a panic. Every module `deserialize` returns
//! passes it.

pub mod analysis;
mod arena;
pub mod builder;
mod check;
mod constants;
mod deserialize;
mod error;
mod function;
mod module;
pub mod operands;
mod print;
mod serialize;
mod types;
mod value;

pub use arena::{Arena, Handle, UniqueArena};
pub use builder::{Builder, FunctionBuilder};
pub use check::{check, Place};
pub use constants::{Constant, ConstantValue, SpecConstant, SpecValue};
pub use deserialize::{deserialize, deserialize_with_offsets, WordOffsets};
pub use error::{IrError, IrErrorKind};
pub use function::{
    is_block_terminator, Attrs, Block, BlockArg, Function, Op, Param, Structure, Successor,
    Terminator,
};
pub use module::{
    EntryPoint, ExecutionModeDecl, ExtInst, ExtInstImport, GlobalVariable, Loc, Module, Source,
};
pub use print::print;
pub use serialize::{serialize, StreamingSerializer};
pub use types::{ImageDepth, ImageSampling, ImageType, Member, StructType, Type};
pub use value::{Value, MAX_PACKED_INDEX};
