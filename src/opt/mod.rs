//! Module rewrites through the IR (`spvkit opt`): a binary is deserialized, transformed and
//! serialized again, so every pass sees uniqued types and constants, folded decorations and
//! structured control flow instead of a word stream.

pub mod copy_propagate_arrays;
pub mod dead_branches;
pub mod dead_code;
pub mod dead_declarations;
pub mod dead_functions;
pub mod dead_variables;
pub mod descriptor_arrays;
pub mod fold;
pub mod inline;
pub mod local_access_chains;
pub mod local_single_block;
pub mod loop_unroll;
pub mod merge_blocks;
pub mod nonuniform;
pub mod private_to_local;
pub mod redundancy;
mod replace;
pub mod sampled_images;
pub mod scalar_replacement;
pub mod ssa_rewrite;
pub mod vulkan_memory_model;

use crate::ir::{self, IrError};
use crate::requirements::module_requirements;

/// Which rewrites [`optimize`] applies; with none it is a plain IR round trip.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// The passes to run, in order (a pass may be named more than once).
    pub passes: Vec<Pass>,
    /// Rewrite the header version, `OpCapability` and `OpExtension` to the minimal set the module
    /// needs ([`update_vce`]), after the passes.
    pub update_vce: bool,
}

/// A transformation of the IR that `spvkit opt` runs by name, each in its own module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// [`dead_code`]: ops whose results nothing uses and that have no other effect, and
    /// unused block arguments.
    EliminateDeadCode,
    /// [`ssa_rewrite`]: Function variables only loaded and stored whole become values
    /// (mem2reg).
    SsaRewrite,
    /// [`dead_functions`]: functions no entry point reaches and nothing exports.
    EliminateDeadFunctions,
    /// [`dead_variables`]: module-scope variables nothing refers to.
    EliminateDeadVariables,
    /// [`inline`]: every call of a function with a body that can be inlined.
    InlineExhaustive,
    /// [`inline`]: calls of small functions, of functions called once and of functions that
    /// pass pointers or opaque handles.
    InlineHeuristic,
    /// [`fold`]: ops on constants become constants; a few ops become an operand.
    SimplifyInstructions,
    /// [`dead_branches`]: branches on constants go one way; unreachable blocks go.
    EliminateDeadBranches,
    /// [`merge_blocks`]: a block that only its predecessor reaches joins it.
    MergeBlocks,
    /// [`redundancy`]: an op computing what a dominating op computed is that op's value.
    RedundancyElimination,
    /// [`dead_declarations`]: types and constants nothing refers to.
    EliminateDeadTypesAndConstants,
    /// [`local_access_chains`]: loads and stores through constant access chains into
    /// Function variables become whole loads and stores with extracts and inserts.
    ConvertLocalAccessChains,
    /// [`scalar_replacement`]: struct and small array locals become one variable per member.
    ScalarReplacement,
    /// [`private_to_local`]: Private variables only one entry point uses become its locals.
    PrivateToLocal,
    /// [`loop_unroll`]: loops marked `Unroll` whose trip count is constant become copies of
    /// their body.
    LoopUnroll,
    /// [`local_single_block`]: loads of locals a store or load earlier in the block gave a
    /// value, stores of what memory holds, and locals only written.
    EliminateLocalSingleBlock,
    /// [`copy_propagate_arrays`]: locals written once with a copy of unchanging memory
    /// read that memory instead.
    CopyPropagateArrays,
    /// [`descriptor_arrays`]: arrays of descriptors become one variable per element at
    /// consecutive bindings.
    DescriptorScalarReplacement,
}

impl Pass {
    /// Every pass, in the order `spvkit opt --help` lists them.
    pub const ALL: [Pass; 18] = [
        Pass::InlineExhaustive,
        Pass::InlineHeuristic,
        Pass::PrivateToLocal,
        Pass::ScalarReplacement,
        Pass::ConvertLocalAccessChains,
        Pass::SsaRewrite,
        Pass::CopyPropagateArrays,
        Pass::EliminateLocalSingleBlock,
        Pass::SimplifyInstructions,
        Pass::EliminateDeadBranches,
        Pass::MergeBlocks,
        Pass::RedundancyElimination,
        Pass::LoopUnroll,
        Pass::EliminateDeadCode,
        Pass::EliminateDeadFunctions,
        Pass::EliminateDeadVariables,
        Pass::EliminateDeadTypesAndConstants,
        Pass::DescriptorScalarReplacement,
    ];

    /// The command-line name (`--eliminate-dead-code`); spirv-opt's spelling where spirv-opt
    /// has the same pass.
    pub fn name(self) -> &'static str {
        match self {
            Pass::EliminateDeadCode => "eliminate-dead-code",
            Pass::SsaRewrite => "ssa-rewrite",
            Pass::EliminateDeadFunctions => "eliminate-dead-functions",
            Pass::EliminateDeadVariables => "eliminate-dead-variables",
            Pass::InlineExhaustive => "inline-entry-points-exhaustive",
            Pass::InlineHeuristic => "inline",
            Pass::SimplifyInstructions => "simplify-instructions",
            Pass::EliminateDeadBranches => "eliminate-dead-branches",
            Pass::MergeBlocks => "merge-blocks",
            Pass::RedundancyElimination => "redundancy-elimination",
            Pass::EliminateDeadTypesAndConstants => "eliminate-dead-types-and-constants",
            Pass::ConvertLocalAccessChains => "convert-local-access-chains",
            Pass::ScalarReplacement => "scalar-replacement",
            Pass::PrivateToLocal => "private-to-local",
            Pass::LoopUnroll => "loop-unroll",
            Pass::EliminateLocalSingleBlock => "eliminate-local-single-block",
            Pass::CopyPropagateArrays => "copy-propagate-arrays",
            Pass::DescriptorScalarReplacement => "descriptor-scalar-replacement",
        }
    }

    /// The pass named `name` (without the dashes).
    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Runs the pass on `m`; whether it changed anything.
    pub fn run(self, m: &mut ir::Module) -> bool {
        match self {
            Pass::EliminateDeadCode => dead_code::run(m),
            Pass::SsaRewrite => ssa_rewrite::run(m),
            Pass::EliminateDeadFunctions => dead_functions::run(m),
            Pass::EliminateDeadVariables => dead_variables::run(m),
            Pass::InlineExhaustive => inline::run(m),
            Pass::InlineHeuristic => inline::run_heuristic(m),
            Pass::SimplifyInstructions => fold::run(m),
            Pass::EliminateDeadBranches => dead_branches::run(m),
            Pass::MergeBlocks => merge_blocks::run(m),
            Pass::RedundancyElimination => redundancy::run(m),
            Pass::EliminateDeadTypesAndConstants => dead_declarations::run(m),
            Pass::ConvertLocalAccessChains => local_access_chains::run(m),
            Pass::ScalarReplacement => scalar_replacement::run(m),
            Pass::PrivateToLocal => private_to_local::run(m),
            Pass::LoopUnroll => loop_unroll::run(m),
            Pass::EliminateLocalSingleBlock => local_single_block::run(m),
            Pass::CopyPropagateArrays => copy_propagate_arrays::run(m),
            Pass::DescriptorScalarReplacement => descriptor_arrays::run(m),
        }
    }
}

/// `spvkit opt -O`: spirv-opt's performance recipe, in the passes spvkit has: inline, drop what
/// no entry point reaches, promote locals to values, then fold, prune branches, merge blocks
/// and number values until little is left (unrolling `Unroll` loops between the rounds), and
/// remove what nothing uses.
pub const PERFORMANCE: &[Pass] = &[
    Pass::InlineExhaustive,
    Pass::EliminateDeadFunctions,
    Pass::PrivateToLocal,
    Pass::ScalarReplacement,
    Pass::ConvertLocalAccessChains,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::EliminateLocalSingleBlock,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadBranches,
    Pass::MergeBlocks,
    Pass::RedundancyElimination,
    Pass::LoopUnroll,
    Pass::EliminateDeadCode,
    Pass::ScalarReplacement,
    Pass::ConvertLocalAccessChains,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::EliminateLocalSingleBlock,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadBranches,
    Pass::MergeBlocks,
    Pass::RedundancyElimination,
    Pass::EliminateDeadCode,
    Pass::EliminateDeadVariables,
    Pass::EliminateDeadTypesAndConstants,
];

/// `spvkit opt --legalize-hlsl`: what makes a DXC-style module (resources held in locals,
/// parameters, return values, structs and `static` aliases) legal for Vulkan, as spirv-opt's
/// `--legalize-hlsl` does: inline everything, move Private variables into their entry point,
/// split aggregates, promote variables (handles too, where no phi is needed), unroll
/// `[unroll]` loops and fold, read copies of arrays and structs from their originals, so
/// that every resource access reaches its global directly and
/// every texel offset outside a gather is a constant.
pub const LEGALIZE_HLSL: &[Pass] = &[
    Pass::InlineExhaustive,
    Pass::EliminateDeadFunctions,
    Pass::PrivateToLocal,
    Pass::ScalarReplacement,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadBranches,
    Pass::MergeBlocks,
    Pass::LoopUnroll,
    Pass::SimplifyInstructions,
    Pass::ScalarReplacement,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::EliminateLocalSingleBlock,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadCode,
    Pass::EliminateDeadVariables,
    Pass::EliminateDeadTypesAndConstants,
];

/// `spvkit opt -Os`: the size recipe: [`PERFORMANCE`] without loop unrolling, the one pass
/// that grows code.
pub const SIZE: &[Pass] = &[
    Pass::InlineExhaustive,
    Pass::EliminateDeadFunctions,
    Pass::PrivateToLocal,
    Pass::ScalarReplacement,
    Pass::ConvertLocalAccessChains,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::EliminateLocalSingleBlock,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadBranches,
    Pass::MergeBlocks,
    Pass::RedundancyElimination,
    Pass::EliminateDeadCode,
    Pass::ScalarReplacement,
    Pass::ConvertLocalAccessChains,
    Pass::SsaRewrite,
    Pass::CopyPropagateArrays,
    Pass::EliminateLocalSingleBlock,
    Pass::SimplifyInstructions,
    Pass::EliminateDeadBranches,
    Pass::MergeBlocks,
    Pass::RedundancyElimination,
    Pass::EliminateDeadCode,
    Pass::EliminateDeadVariables,
    Pass::EliminateDeadTypesAndConstants,
];

/// Whether a module needs [`LEGALIZE_HLSL`] before Vulkan accepts it, as DXC decides when to
/// run spirv-opt's legalization: a Function or Private variable holds an opaque handle (an
/// image, sampler, acceleration structure or pointer) or a struct or array of them, a
/// function takes or returns one, or an image instruction other than a gather takes a texel
/// `Offset` that is not a constant (which inlining, unrolling and folding make one).
pub fn needs_legalization(m: &ir::Module) -> bool {
    use crate::grammar::StorageClass;
    use ir::Type;
    let variable_holds_handle = |ty: ir::Handle<ir::Type>| variable_holds_handle(m, ty);
    if m.globals.iter().any(|(_, g)| variable_holds_handle(g.ty)) {
        return true;
    }
    // A parameter or return value that is a handle, holds one or points to memory other
    // than Function and Private (a resource passed by reference).
    let passes_handle = |t: ir::Handle<ir::Type>| match m.types.get(t) {
        Some(Type::Pointer {
            storage_class: StorageClass::Function | StorageClass::Private,
            pointee,
            ..
        }) => holds_handle(m, *pointee, 0),
        Some(Type::Pointer { .. }) => true,
        _ => holds_handle(m, t, 0),
    };
    m.functions.iter().any(|(_, f)| {
        let signature = match m.types.get(f.ty) {
            Some(Type::Function { ret, params }) => {
                passes_handle(*ret) || params.iter().any(|&p| passes_handle(p))
            }
            _ => false,
        };
        // (Variables are in the header once read back, in the first block as built.)
        // (A phi or select of handles, which no Vulkan driver takes, as well.)
        let variable = |h: &ir::Handle<ir::Op>| match &f.ops[*h].inst {
            crate::grammar::Instruction::Variable(v) => match ir::Value::from_id(v.result_type) {
                Some(ir::Value::Type(t)) => variable_holds_handle(t),
                _ => false,
            },
            crate::grammar::Instruction::Select(s) => match ir::Value::from_id(s.result_type) {
                Some(ir::Value::Type(t)) => holds_handle(m, t, 0),
                _ => false,
            },
            _ => false,
        };
        let merged_handle = f.blocks.iter().any(|(_, b)| {
            b.args
                .iter()
                .any(|&a| holds_handle(m, f.block_args[a].ty, 0))
        });
        signature
            || merged_handle
            || f.header.iter().any(variable)
            || f.blocks.iter().any(|(_, b)| {
                b.ops
                    .iter()
                    .any(|&h| variable(&h) || variable_offset_outside_gather(&f.ops[h].inst))
            })
    })
}

/// Whether `t` is an opaque handle (image, sampler, acceleration structure, pointer) or an
/// aggregate holding one.
fn holds_handle(m: &ir::Module, t: ir::Handle<ir::Type>, depth: usize) -> bool {
    use ir::Type;
    match m.types.get(t) {
        _ if depth > 64 => false,
        Some(Type::Image(_) | Type::Sampler | Type::SampledImage { .. }) => true,
        Some(Type::Pointer { .. }) => true,
        Some(Type::Other(inst)) => {
            inst.opcode() == Some(crate::grammar::Opcode::TypeAccelerationStructureKHR)
        }
        Some(Type::Array { element, .. } | Type::RuntimeArray { element, .. }) => {
            holds_handle(m, *element, depth + 1)
        }
        Some(Type::Struct(s)) => s.members.iter().any(|mb| holds_handle(m, mb.ty, depth + 1)),
        _ => false,
    }
}

/// Whether `ty` is the type of a Function or Private variable that holds a handle.
fn variable_holds_handle(m: &ir::Module, ty: ir::Handle<ir::Type>) -> bool {
    match m.types.get(ty) {
        Some(ir::Type::Pointer {
            storage_class:
                crate::grammar::StorageClass::Function | crate::grammar::StorageClass::Private,
            pointee,
            ..
        }) => holds_handle(m, *pointee, 0),
        _ => false,
    }
}

/// What legalization left illegal, by name: the debug names of the Function and Private
/// variables that still hold a handle, and whether an image instruction other than a gather
/// still takes a variable texel offset (for a front end to point at its causes).
pub fn unlegalized(m: &ir::Module) -> (std::collections::HashSet<String>, bool) {
    let mut names = std::collections::HashSet::new();
    let mut offsets = false;
    let mut note = |ty: ir::Handle<ir::Type>, name: &Option<String>| {
        if variable_holds_handle(m, ty) {
            // A variable scalar replacement split (`s_1_0` of `s`) names its aggregate too.
            let mut name = name.clone().unwrap_or_default();
            loop {
                names.insert(name.clone());
                match name.rsplit_once('_') {
                    Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                        name = base.to_owned()
                    }
                    _ => break,
                }
            }
        }
    };
    for (_, g) in m.globals.iter() {
        note(g.ty, &g.name);
    }
    for (_, f) in m.functions.iter() {
        let ops = f
            .header
            .iter()
            .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()));
        for &h in ops {
            let op = &f.ops[h];
            if let crate::grammar::Instruction::Variable(v) = &op.inst {
                if let Some(ir::Value::Type(t)) = ir::Value::from_id(v.result_type) {
                    note(t, &op.name().map(str::to_owned));
                }
            }
            offsets |= variable_offset_outside_gather(&op.inst);
        }
    }
    (names, offsets)
}

/// Whether an instruction of a function takes an undefined handle (an `OpUndef` image,
/// sampler or pointer): after legalization, a resource read from a variable or struct
/// member that was never given one, which no driver can run.
pub fn undefined_handle_used(m: &ir::Module) -> bool {
    use crate::grammar::Ids;
    let undefined_handle = |id: crate::grammar::Id| match ir::Value::from_id(id) {
        Some(ir::Value::Constant(c)) => m.constants.get(c).is_some_and(|c| {
            matches!(c.value, ir::ConstantValue::Undef) && holds_handle(m, c.ty, 0)
        }),
        _ => false,
    };
    m.functions.iter().any(|(_, f)| {
        f.blocks.iter().any(|(_, b)| {
            b.ops.iter().any(|&h| {
                let inst = &f.ops[h].inst;
                let (result, result_type) = (inst.result_id(), inst.result_type());
                let mut found = false;
                inst.visit_ids(&mut |id| {
                    found |= Some(id) != result && Some(id) != result_type && undefined_handle(id);
                });
                found
            })
        })
    })
}

/// An image instruction other than a gather whose texel `Offset` is not a constant (Vulkan
/// takes a variable offset only in gathers).
fn variable_offset_outside_gather(inst: &crate::grammar::Instruction) -> bool {
    use crate::grammar::Instruction as I;
    let gather = matches!(
        inst,
        I::ImageGather(_)
            | I::ImageDrefGather(_)
            | I::ImageSparseGather(_)
            | I::ImageSparseDrefGather(_)
    );
    !gather
        && inst
            .image_operands()
            .and_then(|ops| ops.offset)
            .and_then(ir::Value::from_id)
            .is_some_and(|v| !matches!(v, ir::Value::Constant(_)))
}

/// Runs `pass` on each function of `m` (the module, its functions taken out, is the pass's to
/// read and extend); whether it changed any.
fn each_function(
    m: &mut ir::Module,
    mut pass: impl FnMut(&mut ir::Module, &mut ir::Function) -> bool,
) -> bool {
    let mut functions = std::mem::take(&mut m.functions);
    let mut changed = false;
    for (_, f) in functions.iter_mut() {
        changed |= pass(m, f);
    }
    m.functions = functions;
    changed
}

/// Deserializes `words` into the IR, applies the passes and rewrites `options` asks for and
/// serializes the result.
pub fn optimize(words: &[u32], options: &OptOptions) -> Result<Vec<u32>, IrError> {
    let mut module = ir::deserialize(words)?;
    for pass in &options.passes {
        pass.run(&mut module);
    }
    if options.update_vce {
        update_vce(&mut module)?;
    }
    ir::serialize(&module)
}

/// Sets a module's version, capabilities and extensions to what it needs
/// ([`crate::requirements`]): the smallest version, capabilities none of which another implies,
/// and the extensions the grammar says are needed ([`crate::requirements::update_vce`] does
/// the same on a binary without the IR round trip). Extensions the grammar does not know are kept,
/// since nothing says they are not needed.
pub fn update_vce(module: &mut ir::Module) -> Result<(), IrError> {
    // The requirements walk works on instructions; the serialized module is the one the IR
    // would write, so it sees exactly what will be emitted.
    let req = module_requirements(&ir::serialize(module)?).map_err(IrError::from)?;
    module.version = req.min_version;
    module.capabilities = req.capabilities.iter().copied().collect();
    let unknown: Vec<String> = module
        .extensions
        .iter()
        .filter(|e| e.parse::<crate::grammar::Extension>().is_err())
        .cloned()
        .collect();
    module.extensions = req
        .extensions
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    module.extensions.extend(unknown);
    if module.version >= crate::grammar::Version(1, 4) {
        complete_interfaces(module);
    }
    Ok(())
}

/// From SPIR-V 1.4 an entry point lists every global variable its static call tree uses, each
/// once: drops repeated interface variables and adds the missing ones in declaration order;
/// whether anything changed. [`crate::requirements::complete_interfaces`] does the same on
/// instructions; "uses" is spirv-val's (through variable initializers, specialization-constant
/// operations and module-level extended instructions too).
pub fn complete_interfaces(module: &mut ir::Module) -> bool {
    use crate::grammar::{Instruction, StorageClass};
    use ir::{GlobalVariable, Handle, SpecValue, Value};
    use std::collections::{HashMap, HashSet};

    /// The global variables `v` names, directly or through module-level values.
    fn reached(
        m: &ir::Module,
        v: Value,
        memo: &mut HashMap<Value, Vec<Handle<GlobalVariable>>>,
        out: &mut Vec<Handle<GlobalVariable>>,
    ) {
        if !matches!(
            v,
            Value::Global(_) | Value::SpecConstant(_) | Value::ExtInst(_)
        ) {
            return;
        }
        if let Some(r) = memo.get(&v) {
            out.extend(r.iter().copied());
            return;
        }
        // Guards against a cycle (which a valid module has not).
        memo.insert(v, Vec::new());
        let mut named = Vec::new();
        match v {
            Value::Global(g) => {
                let var = &m.globals[g];
                if var.storage_class != StorageClass::Function {
                    named.push(g);
                }
                if let Some(init) = var.initializer {
                    reached(m, init, memo, &mut named);
                }
            }
            Value::SpecConstant(c) => {
                let values: Vec<Value> = match &m.spec_constants[c].value {
                    SpecValue::Composite(parts) => parts.clone(),
                    SpecValue::Op(op) => {
                        let mut vs = Vec::new();
                        crate::grammar::Ids::visit_ids(op, &mut |id| {
                            vs.extend(Value::from_id(id));
                        });
                        vs
                    }
                    _ => Vec::new(),
                };
                for x in values {
                    reached(m, x, memo, &mut named);
                }
            }
            Value::ExtInst(h) => {
                let mut vs = Vec::new();
                m.visit_values(&Instruction::ExtInst(m.ext_insts[h].inst.clone()), |x| {
                    if x != v {
                        vs.push(x)
                    }
                });
                for x in vs {
                    reached(m, x, memo, &mut named);
                }
            }
            _ => {}
        }
        out.extend(named.iter().copied());
        memo.insert(v, named);
    }

    let mut memo = HashMap::new();
    let n = module.functions.len();
    let mut uses: Vec<HashSet<Handle<GlobalVariable>>> = vec![HashSet::new(); n];
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (h, f) in module.functions.iter() {
        let mut named = Vec::new();
        let mut values = Vec::new();
        for (_, op) in f.ops.iter() {
            module.visit_values(&op.inst, |v| values.push(v));
            if let Instruction::FunctionCall(c) = &op.inst {
                if let Some(Value::Function(g)) = Value::from_id(c.function) {
                    calls[h.index()].push(g.index());
                }
            }
        }
        for (_, b) in f.blocks.iter() {
            b.terminator.visit_values(|v| values.push(v));
        }
        for v in values {
            reached(module, v, &mut memo, &mut named);
        }
        uses[h.index()].extend(named);
    }
    let order: Vec<Handle<GlobalVariable>> = module.globals.handles().collect();
    let mut changed = false;
    for e in &mut module.entry_points {
        let mut needed = HashSet::new();
        let mut seen = HashSet::new();
        let mut stack = vec![e.function.index()];
        while let Some(f) = stack.pop() {
            if f < n && seen.insert(f) {
                needed.extend(uses[f].iter().copied());
                stack.extend(calls[f].iter().copied());
            }
        }
        let mut listed = HashSet::new();
        let before = e.interface.len();
        e.interface.retain(|g| listed.insert(*g));
        changed |= e.interface.len() != before;
        for &g in &order {
            if needed.contains(&g) && listed.insert(g) {
                e.interface.push(g);
                changed = true;
            }
        }
    }
    changed
}
