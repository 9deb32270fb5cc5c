//! Building IR from Rust: [`Builder`] for the module (types, constants, symbols, entry points)
//! and [`FunctionBuilder`] for a function's blocks, with a typed constructor per instruction
//! (generated from the grammar: `f_mul`, `load`, `access_chain`, ...).
//!
//! # Example: a compute shader that doubles a storage buffer
//!
//! ```
//! # fn main() -> Result<(), spvkit::ir::IrError> {
//! use spvkit::grammar::*;
//! use spvkit::ir::{self, Builder, GlobalVariable, Member, StructType};
//!
//! let mut b = Builder::new(Version(1, 0), AddressingModel::Logical, MemoryModel::GLSL450);
//! b.capability(Capability::Shader);
//!
//! // layout(set = 0, binding = 0) buffer Data { float values[]; } data;
//! let float = b.type_float(32);
//! let uint = b.type_int(32, false);
//! let values = b.type_runtime_array(float, Some(4));
//! let data_ty = b.type_struct(StructType {
//!     name: Some("Data".into()),
//!     members: vec![Member { offset: Some(0), ..Member::new(values) }],
//!     decorations: vec![Decoration::BufferBlock],
//! });
//! let data_ptr = b.type_pointer(StorageClass::Uniform, data_ty);
//! let data = b.global(GlobalVariable {
//!     name: Some("data".into()),
//!     decorations: vec![Decoration::DescriptorSet(0), Decoration::Binding(0)],
//!     ..GlobalVariable::new(data_ptr, StorageClass::Uniform)
//! });
//! // in uvec3 gl_GlobalInvocationID;
//! let uvec3 = b.type_vector(uint, 3);
//! let input_ptr = b.type_pointer(StorageClass::Input, uvec3);
//! let gid = b.global(GlobalVariable {
//!     decorations: vec![Decoration::BuiltIn(BuiltIn::GlobalInvocationId)],
//!     ..GlobalVariable::new(input_ptr, StorageClass::Input)
//! });
//!
//! // void main() { data.values[gl_GlobalInvocationID.x] *= 2.0; }
//! let void = b.type_void();
//! let main_ty = b.type_function(void, &[]);
//! let mut f = b.function(main_ty, FunctionControl::None);
//! let id = f.load(uvec3, gid, None);
//! let x = f.composite_extract(uint, id, vec![0]);
//! let zero = f.constant_i32(0);
//! let float_ptr = f.type_pointer(StorageClass::Uniform, float);
//! let p = f.access_chain(float_ptr, data, &[zero.into(), x]);
//! let v = f.load(float, p, None);
//! let two = f.constant_f32(2.0);
//! let doubled = f.f_mul(float, v, two);
//! f.store(p, doubled, None);
//! f.ret();
//! let main = f.finish();
//! b.name_function(main, "main");
//! b.entry_point(ExecutionModel::GLCompute, main, "main", &[gid]);
//! b.execution_mode(main, ExecutionMode::LocalSize(64, 1, 1));
//!
//! let module = b.finish()?; // checked: no dangling handle
//! let words = ir::serialize(&module)?;
//! // The binary reads back into the same IR (and passes spirv-val: see tests/ir.rs).
//! assert_eq!(ir::deserialize(&words)?, module);
//! # Ok(())
//! # }
//! ```

use super::arena::{Handle, PushOne};
use super::constants::{Constant, ConstantValue, SpecConstant};
use super::function::{Block, BlockArg, Function, Op, Param, Structure, Successor, Terminator};
use super::module::{EntryPoint, ExecutionModeDecl, ExtInstImport, GlobalVariable, Module};
use super::types::{ImageType, StructType, Type};
use super::value::Value;
use crate::grammar::*;

/// Builds a [`Module`].
#[derive(Debug)]
pub struct Builder {
    module: Module,
}

impl Builder {
    /// A builder for an empty module.
    pub fn new(
        version: Version,
        addressing_model: AddressingModel,
        memory_model: MemoryModel,
    ) -> Self {
        Builder {
            module: Module::new(version, addressing_model, memory_model),
        }
    }

    /// A builder that continues an existing module.
    pub fn from_module(module: Module) -> Self {
        Builder { module }
    }

    /// The module so far.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The module so far, mutably.
    pub fn module_mut(&mut self) -> &mut Module {
        &mut self.module
    }

    /// The finished module, once [`super::check`] accepts it (handles made by hand, or kept
    /// from another module, may dangle).
    pub fn finish(self) -> Result<Module, super::IrError> {
        super::check(&self.module)?;
        Ok(self.module)
    }

    /// Declares a capability (once).
    pub fn capability(&mut self, c: Capability) {
        if !self.module.capabilities.contains(&c) {
            self.module.capabilities.push(c);
        }
    }

    /// Declares an extension (once).
    pub fn extension(&mut self, name: &str) {
        if !self.module.extensions.iter().any(|e| e == name) {
            self.module.extensions.push(name.to_owned());
        }
    }

    /// Imports an extended instruction set (once).
    pub fn ext_inst_import(&mut self, name: &str) -> Handle<ExtInstImport> {
        if let Some((h, _)) = self
            .module
            .ext_inst_imports
            .iter()
            .find(|(_, i)| i.name == name)
        {
            return h;
        }
        self.module.ext_inst_imports.append(ExtInstImport {
            name: name.to_owned(),
        })
    }

    /// Adds a debug string.
    pub fn string(&mut self, s: &str) -> Handle<String> {
        self.module.strings.append(s.to_owned())
    }

    // -----------------------------------------------------------------------------------------
    // Types

    /// A type: the existing one if it is structurally equal (structs are always new).
    pub fn ty(&mut self, t: Type) -> Handle<Type> {
        if matches!(t, Type::Struct(_)) {
            self.module.types.append(t)
        } else {
            self.module.types.insert(t)
        }
    }

    /// `void`.
    pub fn type_void(&mut self) -> Handle<Type> {
        self.ty(Type::Void)
    }

    /// `bool`.
    pub fn type_bool(&mut self) -> Handle<Type> {
        self.ty(Type::Bool)
    }

    /// An integer type.
    pub fn type_int(&mut self, width: u32, signed: bool) -> Handle<Type> {
        self.ty(Type::Int { width, signed })
    }

    /// A floating-point type.
    pub fn type_float(&mut self, width: u32) -> Handle<Type> {
        self.ty(Type::Float { width })
    }

    /// A vector type.
    pub fn type_vector(&mut self, component: Handle<Type>, count: u32) -> Handle<Type> {
        self.ty(Type::Vector { component, count })
    }

    /// A matrix type.
    pub fn type_matrix(&mut self, column: Handle<Type>, count: u32) -> Handle<Type> {
        self.ty(Type::Matrix { column, count })
    }

    /// An array of `length` elements (a 32-bit unsigned constant), with an optional stride.
    pub fn type_array(
        &mut self,
        element: Handle<Type>,
        length: u32,
        stride: Option<u32>,
    ) -> Handle<Type> {
        let length = Value::Constant(self.constant_u32(length));
        self.ty(Type::Array {
            element,
            length,
            stride,
        })
    }

    /// A runtime array, with an optional stride.
    pub fn type_runtime_array(
        &mut self,
        element: Handle<Type>,
        stride: Option<u32>,
    ) -> Handle<Type> {
        self.ty(Type::RuntimeArray { element, stride })
    }

    /// A pointer type.
    pub fn type_pointer(
        &mut self,
        storage_class: StorageClass,
        pointee: Handle<Type>,
    ) -> Handle<Type> {
        self.ty(Type::Pointer {
            storage_class,
            pointee,
            stride: None,
        })
    }

    /// A new struct type.
    pub fn type_struct(&mut self, s: StructType) -> Handle<Type> {
        self.ty(Type::Struct(s))
    }

    /// An image type.
    pub fn type_image(&mut self, image: ImageType) -> Handle<Type> {
        self.ty(Type::Image(image))
    }

    /// A sampled image type.
    pub fn type_sampled_image(&mut self, image: Handle<Type>) -> Handle<Type> {
        self.ty(Type::SampledImage { image })
    }

    /// The sampler type.
    pub fn type_sampler(&mut self) -> Handle<Type> {
        self.ty(Type::Sampler)
    }

    /// A function type.
    pub fn type_function(&mut self, ret: Handle<Type>, params: &[Handle<Type>]) -> Handle<Type> {
        self.ty(Type::Function {
            ret,
            params: params.to_vec(),
        })
    }

    // -----------------------------------------------------------------------------------------
    // Constants

    /// A constant (uniqued).
    pub fn constant(&mut self, ty: Handle<Type>, value: ConstantValue) -> Handle<Constant> {
        self.module.constants.insert(Constant::new(ty, value))
    }

    /// A 32-bit unsigned integer constant.
    pub fn constant_u32(&mut self, v: u32) -> Handle<Constant> {
        let ty = self.type_int(32, false);
        self.constant(ty, ConstantValue::Scalar(LiteralNumber::Word(v)))
    }

    /// A 32-bit signed integer constant.
    pub fn constant_i32(&mut self, v: i32) -> Handle<Constant> {
        let ty = self.type_int(32, true);
        self.constant(ty, ConstantValue::Scalar(LiteralNumber::Word(v as u32)))
    }

    /// A 64-bit unsigned integer constant.
    pub fn constant_u64(&mut self, v: u64) -> Handle<Constant> {
        let ty = self.type_int(64, false);
        self.constant(ty, ConstantValue::Scalar(LiteralNumber::DoubleWord(v)))
    }

    /// A 32-bit float constant.
    pub fn constant_f32(&mut self, v: f32) -> Handle<Constant> {
        let ty = self.type_float(32);
        self.constant(ty, ConstantValue::Scalar(LiteralNumber::Word(v.to_bits())))
    }

    /// A 64-bit float constant.
    pub fn constant_f64(&mut self, v: f64) -> Handle<Constant> {
        let ty = self.type_float(64);
        self.constant(
            ty,
            ConstantValue::Scalar(LiteralNumber::DoubleWord(v.to_bits())),
        )
    }

    /// A boolean constant.
    pub fn constant_bool(&mut self, v: bool) -> Handle<Constant> {
        let ty = self.type_bool();
        self.constant(ty, ConstantValue::Bool(v))
    }

    /// A composite constant.
    pub fn constant_composite(&mut self, ty: Handle<Type>, parts: &[Value]) -> Handle<Constant> {
        self.constant(ty, ConstantValue::Composite(parts.to_vec()))
    }

    /// The null value of a type.
    pub fn constant_null(&mut self, ty: Handle<Type>) -> Handle<Constant> {
        self.constant(ty, ConstantValue::Null)
    }

    /// An undefined value of a type.
    pub fn undef(&mut self, ty: Handle<Type>) -> Handle<Constant> {
        self.constant(ty, ConstantValue::Undef)
    }

    /// A specialization constant.
    pub fn spec_constant(&mut self, s: SpecConstant) -> Handle<SpecConstant> {
        self.module.spec_constants.append(s)
    }

    // -----------------------------------------------------------------------------------------
    // Globals, entry points

    /// A global variable.
    pub fn global(&mut self, g: GlobalVariable) -> Handle<GlobalVariable> {
        self.module.globals.append(g)
    }

    /// An entry point.
    pub fn entry_point(
        &mut self,
        execution_model: ExecutionModel,
        function: Handle<Function>,
        name: &str,
        interface: &[Handle<GlobalVariable>],
    ) {
        self.module.entry_points.push(EntryPoint {
            execution_model,
            function,
            name: name.to_owned(),
            interface: interface.to_vec(),
        });
    }

    /// An execution mode of an entry point's function (ids in `mode` are packed values).
    pub fn execution_mode(&mut self, function: Handle<Function>, mode: ExecutionMode) {
        self.module
            .execution_modes
            .push(ExecutionModeDecl { function, mode });
    }

    /// Names a function.
    pub fn name_function(&mut self, function: Handle<Function>, name: &str) {
        if let Some(f) = self.module.functions.get_mut(function) {
            f.name = Some(name.to_owned());
        }
    }

    // -----------------------------------------------------------------------------------------
    // Functions

    /// Starts a function of function type `ty` (its parameters come from the type), with an
    /// entry block selected.
    pub fn function(&mut self, ty: Handle<Type>, control: FunctionControl) -> FunctionBuilder<'_> {
        let mut f = Function::new(ty, control);
        if let Some(Type::Function { params, .. }) = self.module.types.get(ty) {
            f.params = params
                .iter()
                .map(|&ty| Param {
                    ty,
                    name: None,
                    decorations: Vec::new(),
                    loc: None,
                })
                .collect();
        }
        let entry = f.blocks.append(Block::new(Terminator::Unreachable));
        let handle = self.module.functions.append(f);
        FunctionBuilder {
            builder: self,
            function: handle,
            current: entry,
        }
    }
}

/// Builds the body of a function; dereferences to the [`Builder`] for types and constants.
///
/// New ops go to the end of the current block ([`FunctionBuilder::switch_to`]); a block ends
/// in `OpUnreachable` until a terminator method sets its terminator.
pub struct FunctionBuilder<'a> {
    builder: &'a mut Builder,
    function: Handle<Function>,
    current: Handle<Block>,
}

impl core::ops::Deref for FunctionBuilder<'_> {
    type Target = Builder;
    fn deref(&self) -> &Builder {
        self.builder
    }
}

impl core::ops::DerefMut for FunctionBuilder<'_> {
    fn deref_mut(&mut self) -> &mut Builder {
        self.builder
    }
}

impl FunctionBuilder<'_> {
    fn func(&mut self) -> &mut Function {
        &mut self.builder.module.functions[self.function]
    }

    /// The function being built.
    pub fn handle(&self) -> Handle<Function> {
        self.function
    }

    /// The function so far.
    pub fn function(&self) -> &Function {
        &self.builder.module.functions[self.function]
    }

    /// Parameter `i`.
    pub fn param(&self, i: u32) -> Value {
        Value::Param(i)
    }

    /// The block ops go to.
    pub fn current_block(&self) -> Handle<Block> {
        self.current
    }

    /// A new, empty block (it does not become current).
    pub fn block(&mut self) -> Handle<Block> {
        self.func()
            .blocks
            .append(Block::new(Terminator::Unreachable))
    }

    /// Drops `block` if it is the newest block, not current, and still empty: a block made for
    /// code that turned out to need none. Nothing may branch to it yet. Returns whether it did.
    pub fn discard_block(&mut self, block: Handle<Block>) -> bool {
        if self.current == block {
            return false;
        }
        let f = self.func();
        let b = &f.blocks[block];
        if !b.ops.is_empty() || !b.args.is_empty() {
            return false;
        }
        f.blocks.pop_if_last(block)
    }

    /// Adds an argument of type `ty` to a block.
    pub fn block_arg(&mut self, block: Handle<Block>, ty: Handle<Type>) -> Value {
        let f = self.func();
        let a = f.block_args.append(BlockArg {
            ty,
            name: None,
            decorations: Vec::new(),
            loc: None,
        });
        f.blocks[block].args.push(a);
        Value::BlockArg(a)
    }

    /// An `OpVariable` of `Function` storage at the start of the entry block, where SPIR-V
    /// wants a function's variables, wherever the builder is: for a translation that finds
    /// it needs a local variable in the middle of the code.
    pub fn entry_variable(&mut self, pointer_type: Handle<Type>) -> Value {
        let current = self.current;
        let entry = self.function().blocks.handles().next().unwrap_or(current);
        self.current = entry;
        let v = self.variable(pointer_type, StorageClass::Function, None);
        self.current = current;
        let ops = &mut self.func().blocks[entry].ops;
        if let Some(h) = ops.pop() {
            ops.insert(0, h);
        }
        v
    }

    /// Makes `block` current.
    pub fn switch_to(&mut self, block: Handle<Block>) {
        self.current = block;
    }

    /// The id the next pushed op's result will have (a packed [`Value::Op`]).
    pub fn next_result_id(&self) -> Id {
        Value::Op(self.function().ops.next_handle()).to_id()
    }

    /// Appends an op to the current block. Its `result_id`, if any, must be
    /// [`FunctionBuilder::next_result_id`]; its other ids packed [`Value`]s.
    pub fn push(&mut self, inst: Instruction) -> Handle<Op> {
        let current = self.current;
        let f = self.func();
        let h = f.ops.append(Op::new(inst));
        f.blocks[current].ops.push(h);
        h
    }

    /// Appends an `OpExtInst` of `set` whose operands are all ids (as in GLSL.std.450 and
    /// non-semantic sets).
    pub fn ext_inst(
        &mut self,
        result_type: Handle<Type>,
        set: Handle<ExtInstImport>,
        instruction: u32,
        operands: &[Value],
    ) -> Value {
        let inst = Instruction::ExtInst(OpExtInst {
            result_type: Value::Type(result_type).to_id(),
            result_id: self.next_result_id(),
            set: Value::ExtInstSet(set).to_id(),
            instruction,
            operands: operands.iter().map(|v| v.to_id().0).collect(),
        });
        Value::Op(self.push(inst))
    }

    /// Adds a decoration to an op's result, a parameter or a block argument.
    pub fn decorate(&mut self, v: Value, d: Decoration) {
        let f = self.func();
        let list = match v {
            Value::Op(h) => f.ops.get_mut(h).map(|o| &mut o.attrs_mut().decorations),
            Value::Param(i) => f.params.get_mut(i as usize).map(|p| &mut p.decorations),
            Value::BlockArg(h) => f.block_args.get_mut(h).map(|a| &mut a.decorations),
            _ => None,
        };
        if let Some(list) = list {
            list.push_one(d);
        }
    }

    /// Names an op's result, a parameter, a block argument or a block.
    pub fn name(&mut self, v: Value, name: &str) {
        let f = self.func();
        let slot = match v {
            Value::Op(h) => f.ops.get_mut(h).map(|o| &mut o.attrs_mut().name),
            Value::Param(i) => f.params.get_mut(i as usize).map(|p| &mut p.name),
            Value::BlockArg(h) => f.block_args.get_mut(h).map(|a| &mut a.name),
            Value::Block(h) => f.blocks.get_mut(h).map(|b| &mut b.name),
            _ => None,
        };
        if let Some(slot) = slot {
            *slot = Some(name.to_owned());
        }
    }

    /// Marks the current block as a selection header merging at `merge`.
    pub fn selection_merge(&mut self, merge: Handle<Block>, control: SelectionControl) {
        let current = self.current;
        self.func().blocks[current].structure = Some(Structure::Selection {
            merge,
            control,
            loc: None,
        });
    }

    /// Marks the current block as a loop header.
    pub fn loop_merge(
        &mut self,
        merge: Handle<Block>,
        continue_target: Handle<Block>,
        control: LoopControl,
    ) {
        let current = self.current;
        self.func().blocks[current].structure = Some(Structure::Loop {
            merge,
            continue_target,
            control: LoopControlArgs {
                mask: control,
                ..LoopControlArgs::default()
            },
            loc: None,
        });
    }

    /// Ends the current block.
    pub fn terminate(&mut self, t: Terminator) {
        let current = self.current;
        self.func().blocks[current].terminator = t;
    }

    /// Ends the current block with `OpBranch`, passing `args` to the target's arguments.
    pub fn branch(&mut self, target: Handle<Block>, args: &[Value]) {
        self.terminate(Terminator::Branch(Successor {
            block: target,
            args: args.to_vec(),
        }));
    }

    /// Ends the current block with `OpBranchConditional`.
    pub fn branch_conditional(
        &mut self,
        condition: impl Into<Value>,
        if_true: (Handle<Block>, &[Value]),
        if_false: (Handle<Block>, &[Value]),
    ) {
        self.terminate(Terminator::BranchConditional {
            condition: condition.into(),
            true_target: Successor {
                block: if_true.0,
                args: if_true.1.to_vec(),
            },
            false_target: Successor {
                block: if_false.0,
                args: if_false.1.to_vec(),
            },
            weights: Vec::new(),
        });
    }

    /// Ends the current block with `OpReturn`.
    pub fn ret(&mut self) {
        self.terminate(Terminator::Return);
    }

    /// Ends the current block with `OpReturnValue`.
    pub fn ret_value(&mut self, v: impl Into<Value>) {
        self.terminate(Terminator::ReturnValue(v.into()));
    }

    /// Ends the current block with `OpUnreachable`.
    pub fn unreachable(&mut self) {
        self.terminate(Terminator::Unreachable);
    }

    /// Finishes the function.
    pub fn finish(self) -> Handle<Function> {
        self.function
    }
}

impl Drop for FunctionBuilder<'_> {
    /// A finished function's ops take no more room than they need (their arena grew by
    /// doubling): about a fifth less memory for a large translated module.
    fn drop(&mut self) {
        self.func().ops.shrink_to_fit();
    }
}

/// The generated constructor of every instruction that stands in a block.
#[allow(clippy::all, unused_imports)]
mod generated {
    use super::super::arena::Handle;
    use super::super::function::Op;
    use super::super::types::Type;
    use super::super::value::Value;
    use super::FunctionBuilder;
    use crate::grammar::*;
    include!(concat!(env!("OUT_DIR"), "/builder.rs"));
}
